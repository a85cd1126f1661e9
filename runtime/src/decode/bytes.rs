//! Decoding to bytes: the object the API server would store, written as the API server writes
//! it, appended to a caller's buffer.
//!
//! The contract, for every implementation (the [byte walk](crate::scan) and the `Value` path
//! it leaves the rest to):
//!
//! - the bytes are Go's `encoding/json` of the stored unstructured object, which is what the
//!   API server writes to etcd and returns: object keys in byte order, no insignificant white
//!   space, HTML-safe escapes (`<`, `>`, `&` as `\u003c`, `\u003e`, `\u0026`; U+2028 and U+2029
//!   escaped), invalid UTF-8 already replaced by U+FFFD, integers as written and other numbers
//!   in Go's float64 spelling (`1e+21`, `0.000001`);
//! - they equal, byte for byte, [`marshal_json`] of the [`Decoded::object`] that
//!   [`request_by_value`] (the specification) gives for the same body, options and namespace;
//! - warnings, unknown and duplicate field paths, and errors are exactly its.

use kstruct_schema::go::write_json;

use super::{DecodeOptions, Resolve, TextList, request_by_value};
use crate::Error;
use crate::json::dispose;

#[cfg(doc)]
use {
    super::{Decoded, request_in},
    kstruct_schema::go::marshal_json,
};

/// What a decode to bytes reports besides the bytes (see [`Decoded`] for each field).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DecodeReport {
    /// Warnings the API server would return (fieldValidation `Warn`, a create's warnings).
    pub warnings: TextList,
    /// Unknown-field paths, in the API server's order.
    pub unknown_fields: TextList,
    /// Paths of repeated keys, in document order.
    pub duplicate_fields: TextList,
}

/// [`request_in`], with the stored object appended to `out` as the API server writes it (see
/// [`scan`](crate::scan) for the contract). On error nothing is appended.
///
/// An endpoint's form of [`DecodeExt::decode_bytes`](crate::DecodeExt::decode_bytes) (whose
/// documentation has an example): for a [`RegisteredCrd`](crate::RegisteredCrd), a
/// [`Registry`](crate::Registry), or a compiled CRD or registry.
///
/// # Errors
/// As [`request_in`].
pub fn request_bytes<R: Resolve + ?Sized>(
    target: &R,
    body: &[u8],
    options: &DecodeOptions,
    namespace: Option<&str>,
    out: &mut Vec<u8>,
) -> Result<DecodeReport, Error> {
    if let Some(report) = super::try_request_bytes(target, body, options, out) {
        return Ok(report);
    }
    let decoded = request_by_value(target, body, options, namespace)?;
    // Written straight into the caller's buffer (kept, with its capacity, for the next
    // document) when what it holds is text, as it is when it is reused for output.
    match String::from_utf8(std::mem::take(out)) {
        Ok(mut text) => {
            write_json(&mut text, &decoded.object);
            *out = text.into_bytes();
        }
        Err(e) => {
            *out = e.into_bytes();
            let mut text = String::with_capacity(body.len());
            write_json(&mut text, &decoded.object);
            out.extend_from_slice(text.as_bytes());
        }
    }
    dispose(decoded.object);
    Ok(DecodeReport {
        warnings: decoded.warnings,
        unknown_fields: decoded.unknown_fields,
        duplicate_fields: decoded.duplicate_fields,
    })
}
