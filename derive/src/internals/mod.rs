//! The derive's reading of its input, before any code is generated (serde_derive's
//! `internals` layout): [`attr`] parses `#[kstruct(...)]`, [`ast`] pairs it with serde's own
//! reading of `#[serde(...)]`, [`check`] reports what no structural schema can express.

pub mod ast;
pub mod attr;
pub mod check;
pub mod kube;
pub mod resource;
pub mod rules;
