//! Layer 6: the byte walk. Decoding a JSON body straight to the bytes the API server would
//! store, without building a `Value`: the body is read once, and the stored object written as
//! it is read — unknown fields skipped (still checked for syntax, depth, numbers' range and,
//! when tracked, repeated keys), non-nullable nulls dropped, defaults written from constants
//! printed once per schema, objects' keys put in byte order as Go's encoder orders them.
//!
//! A [`Plan`] is what the walk reads of a schema. [`Pipeline::scan_plan`](crate::Pipeline::scan_plan)
//! hands it out: the interpreter builds it once from its schema, generated code has it as
//! constants. Decoding drives the walk ([`decode::try_request_bytes`](crate::decode::try_request_bytes)).
//!
//! The walk covers the bodies decoding sees every day: JSON objects of a served CRD version.
//! Whatever else comes — YAML, syntax errors, a version without a plan, repeated keys while
//! fieldValidation tracks them, escaped keys, nesting beyond 200 levels, bytes with create
//! validation, a `Value` holding a float Go prints as an integer (from the body, a default or
//! `managedFields`: see [`Plan::value_exact`]) — goes the `Value` path
//! ([`decode::request_by_value`](crate::decode::request_by_value), the specification), so
//! answers and errors are that path's by construction. The contract (bytes equal to
//! `marshal_json` of the `Value` path's object, the `Value` equal to its object, same warnings
//! and paths) is checked by differential tests over the corpus, property tests and a fuzz
//! target.

mod export;
mod meta;
mod paths;
mod plan;
mod scalars;
mod skip;
pub(crate) mod value;
pub(crate) mod walk;

pub use export::PlanWriter;
pub use plan::Plan;
#[doc(hidden)]
pub use plan::{Child, Embedded, Node, Prop};
