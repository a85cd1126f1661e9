//! The kstruct compiler: CRD schemas to specialized Rust code, called from `build.rs`.
//!
//! Not implemented yet: this crate reserves the name and the place in the workspace. It will
//! turn [`kstruct_schema::Structural`] schemas into plain Rust prune/default/decode functions
//! that agree with the `kstruct` interpreter on every input.
