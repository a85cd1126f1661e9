//! [`DecodeExt`]: decoding as methods of every [`Pipeline`].

use crate::decode::{self, DecodeOptions, DecodeReport, Decoded, OneVersion};
use crate::error::Error;
use crate::pipeline::Pipeline;

/// Decoding through one [`Pipeline`], as methods: the write path ([`decode`](Self::decode),
/// [`decode_bytes`](Self::decode_bytes)) and the read path
/// ([`decode_storage`](Self::decode_storage)) of [`decode`](crate::decode) for the one version
/// the pipeline serves. Implemented for every `Pipeline` (trait objects included); bring it
/// into scope with `use kstruct::prelude::*`.
///
/// ```
/// use kstruct::prelude::*;
/// use kstruct::{DecodeOptions, GroupVersionKind, Interpreter};
///
/// let schema = kstruct::schema::convert::from_value(&serde_json::json!({
///     "type": "object",
///     "properties": {"spec": {"type": "object", "properties": {
///         "size": {"type": "integer", "default": 1}}}},
/// })).unwrap();
/// let widget = Interpreter::new(schema).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"));
/// let body = br#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"x": 1}}"#;
/// let decoded = widget.decode(body, &DecodeOptions::default()).unwrap();
/// assert_eq!(decoded.object["spec"], serde_json::json!({"size": 1}));
/// assert_eq!(decoded.warnings, [r#"unknown field "spec.x""#]);
/// ```
pub trait DecodeExt: Pipeline {
    /// Decodes a request body through the API server's write path (see [`decode::request`]).
    ///
    /// # Errors
    /// [`Error::Rejected`] when the API server would reject the body.
    fn decode(&self, body: &[u8], options: &DecodeOptions) -> Result<Decoded, Error> {
        decode::request(&OneVersion(self), body, options)
    }

    /// Decodes a request body as [`decode`](DecodeExt::decode) does and appends the stored
    /// object to `out` as the API server writes it: Go's `encoding/json` of the object (keys in
    /// byte order, HTML-safe escapes, Go's number spelling), byte for byte what printing
    /// `decode`'s object with [`marshal_json`](crate::schema::go::marshal_json) gives, with the
    /// same warnings, field paths and errors (the contract of
    /// [`decode::request_bytes`](crate::decode::request_bytes)). Nothing is appended on error.
    ///
    /// ```
    /// use kstruct::prelude::*;
    /// use kstruct::{DecodeOptions, GroupVersionKind, Interpreter};
    ///
    /// let schema = kstruct::schema::convert::from_value(&serde_json::json!({
    ///     "type": "object",
    ///     "properties": {"spec": {"type": "object", "properties": {
    ///         "note": {"type": "string", "default": "<none>"}}}},
    /// })).unwrap();
    /// let widget = Interpreter::new(schema).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"));
    /// let mut out = Vec::new();
    /// let body = br#"{"kind": "Widget", "apiVersion": "example.com/v1", "spec": {"x": 1}}"#;
    /// let report = widget.decode_bytes(body, &DecodeOptions::default(), &mut out).unwrap();
    /// assert_eq!(
    ///     String::from_utf8(out).unwrap(),
    ///     r#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"note":"\u003cnone\u003e"}}"#
    /// );
    /// assert_eq!(report.warnings, [r#"unknown field "spec.x""#]);
    /// ```
    ///
    /// # Errors
    /// As [`decode`](DecodeExt::decode).
    fn decode_bytes(&self, body: &[u8], options: &DecodeOptions, out: &mut Vec<u8>) -> Result<DecodeReport, Error> {
        decode::request_bytes(&OneVersion(self), body, options, None, out)
    }

    /// Decodes a stored object through the API server's read-from-storage path (see
    /// [`decode::storage`]).
    ///
    /// # Errors
    /// [`Error::Rejected`] when the stored bytes cannot be read.
    fn decode_storage(&self, body: &[u8]) -> Result<Decoded, Error> {
        decode::storage(&OneVersion(self), body)
    }
}

impl<P: Pipeline + ?Sized> DecodeExt for P {}
