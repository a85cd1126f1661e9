//! Layer 12: the byte walk as users reach it: the engine's [`Plan`] (what generated code and
//! the interpreter hand the walk) and decoding's fast path ([`try_request_bytes`],
//! [`try_request_bytes_prefix`], [`try_request_value`]), which tell which bodies the walk
//! answers. The engine lives in the layer below decoding; the fast path in decoding.

pub use crate::byte_walk::{Child, Embedded, Node, Plan, PlanWriter, Prop};
pub use crate::decode::{try_request_bytes, try_request_bytes_prefix, try_request_value};
