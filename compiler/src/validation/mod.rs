//! Compiled validators: the validation graph of the compiled schemas ([`graph`]) and the
//! functions emitted for it ([`emit`]), which the pipelines' `validate` runs.

pub mod emit;
pub mod graph;
