//! The structural-schema IR of [kstruct](https://github.com/kstruct/kstruct): Kubernetes
//! CustomResourceDefinition schemas as the API server models them, with the API server's exact
//! conversion rules, validation rules and messages.
//!
//! - [`Structural`]: the schema model (re-exported by the `kstruct` crate as `kstruct::schema`);
//! - [`convert`]: a v1 `openAPIV3Schema` (JSON value, JSON or YAML text) to [`Structural`];
//! - [`validation`]: `ValidateStructural`, with messages byte for byte as the API server's;
//! - [`crd`]: CustomResourceDefinition documents and their versions;
//! - [`serialize`]: [`Structural`] back to JSON or YAML, deterministically;
//! - [`field`]: field paths and field errors as apimachinery prints them;
//! - [`names`]: apimachinery's name validators (DNS labels and subdomains, label keys), with
//!   their messages;
//! - [`regexp`]: Go's regular-expression syntax check (what the API server accepts as a
//!   `pattern`);
//! - [`yaml`]: YAML to JSON exactly as Kubernetes converts it (`sigs.k8s.io/yaml`);
//! - [`go`]: Go's text formats where messages depend on them.
//!
//! CEL rules are parsed by the `kstruct-cel` crate. Features: `schema` (default) builds all
//! of the above; without it only [`regexp`]'s syntax check is built, with no dependencies but
//! `kstruct-cel` (what the derive needs).
//!
//! ```
//! use kstruct_schema::{convert, field::Path, validation::validate_structural};
//!
//! let schema = convert::from_text(r#"
//! type: object
//! properties:
//!   spec:
//!     type: object
//!     properties:
//!       replicas: {type: integer, default: 1}
//!       pattern: {type: string, pattern: "a{3,2}"}
//! "#).unwrap().unwrap();
//! let errors = validate_structural(&Path::nil(), &schema);
//! assert_eq!(
//!     errors[0].to_string(),
//!     "properties[spec].properties[pattern].pattern: Invalid value: \"a{3,2}\": must be a valid \
//!      regular expression, but isn't: error parsing regexp: invalid repeat count: `{3,2}`"
//! );
//! ```

#[cfg(feature = "schema")]
mod cel_types;
#[cfg(feature = "schema")]
pub mod convert;
#[cfg(feature = "schema")]
pub mod crd;
#[cfg(feature = "schema")]
mod error;
#[cfg(feature = "schema")]
pub mod field;
#[cfg(feature = "schema")]
pub mod go;
pub mod names;
/// Go's regular-expression syntax check (the `kstruct-regexp` crate).
pub use kstruct_regexp as regexp;
#[cfg(feature = "schema")]
pub mod serialize;
#[cfg(feature = "schema")]
mod structural;
pub mod suggest;
#[cfg(feature = "schema")]
pub mod unfold;
#[cfg(feature = "schema")]
pub mod validation;
#[cfg(feature = "schema")]
pub mod yaml;

#[cfg(feature = "schema")]
pub use error::Error;
#[cfg(feature = "schema")]
pub use structural::{
    AdditionalProperties, Extensions, ExternalDocumentation, Generic, NestedValueValidation, Structural,
    ValidationRule, ValueValidation,
};

/// Recursive walks grow the stack on the heap when less than this much is left, so that
/// deeply nested schemas and values never overflow the thread's stack.
#[doc(hidden)]
pub const STACK_RED_ZONE: usize = 64 * 1024;
/// How much stack to add each time a recursive walk runs low.
#[doc(hidden)]
pub const STACK_GROWTH: usize = 1024 * 1024;

/// Runs `f`, first moving to a fresh stack segment if the current one runs low.
#[cfg(feature = "schema")]
#[doc(hidden)]
pub fn grow<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_GROWTH, f)
}
