//! kstruct: the Kubernetes API server's treatment of custom resources, in Rust.
//!
//! The API server checks that a CRD's schema is *structural*, *prunes* fields the schema does
//! not declare, *defaults* absent fields and reports unknown and duplicate fields. This crate
//! does the same, with the same results and messages:
//!
//! - [`schema`]: the structural-schema IR, its conversion from CRDs and its validation
//!   (re-exported from `kstruct-schema`);
//! - [`Pipeline`]: prune, drop nulls, coerce embedded resources, default and decode, as one
//!   object-safe trait;
//! - [`decode`]: the API server's write path (fieldValidation Strict/Warn/Ignore) and read
//!   path, from raw bytes;
//! - [`Interpreter`]: the `Pipeline` that walks a schema: the executable specification that
//!   compiled code is checked against, and the fallback for CRDs only known at run time;
//! - [`Registry`]: CRDs loaded at run time, by group, version and kind;
//! - [`objectmeta`]: how the API server reads and normalises `metadata`;
//! - [`input`]: reading manifests (JSON or YAML streams) as kubectl does;
//! - [`json`]: a JSON decoder that reads bodies as the API server does (U+FFFD, int64/float64,
//!   10,000 levels, duplicate keys).
//!
//! ```
//! use kstruct::{Interpreter, Pipeline, PruneOptions};
//! use serde_json::json;
//!
//! let schema = kstruct::schema::convert::from_text(r#"
//! type: object
//! properties:
//!   spec:
//!     type: object
//!     properties:
//!       size: {type: integer, default: 3}
//! "#).unwrap();
//! let crd = Interpreter::new(schema);
//! let mut obj = json!({"apiVersion": "x.io/v1", "kind": "W", "spec": {"colour": "red"}});
//! let report = crd.prune(&mut obj, PruneOptions { resource_root: true, track_unknown_fields: true });
//! crd.default(&mut obj);
//! assert_eq!(obj, json!({"apiVersion": "x.io/v1", "kind": "W", "spec": {"size": 3}}));
//! assert_eq!(report.unknown_fields, ["spec.colour"]);
//! ```

pub mod decode;
mod error;
pub mod input;
pub mod interpreter;
pub mod json;
pub mod objectmeta;
mod pipeline;
mod registry;

pub use decode::{BodyFormat, DecodeOptions, Decoded, FieldValidation, Rejection};
pub use error::Error;
pub use interpreter::Interpreter;
pub use kstruct_schema as schema;
pub use pipeline::{GroupVersionKind, Pipeline, PruneOptions, PruneReport};
pub use registry::{RegisteredCrd, Registry, parse_group_version};

/// The README's example runs as a doctest, so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
