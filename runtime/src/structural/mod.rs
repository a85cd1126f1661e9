//! Layer 5: the API server's structural algorithms on a [`Structural`] schema: pruning,
//! dropping nulls, defaulting, and pruning the defaults themselves when a CRD is served.
//! The [`Interpreter`](crate::Interpreter) runs them as a [`Pipeline`](crate::Pipeline);
//! generated code must agree with them on every input.
//!
//! [`Structural`]: kstruct_schema::Structural

mod default;
pub(crate) mod nulls;
pub(crate) mod prune;
mod prune_defaults;

pub use default::default;
pub use nulls::prune_nulls;
pub use prune::prune;
pub use prune_defaults::prune_defaults;
