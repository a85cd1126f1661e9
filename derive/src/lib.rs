//! `#[derive(CustomResourceSchema)]` for kstruct.
//!
//! Not implemented yet: this crate reserves the name and the place in the workspace. The derive
//! will turn Rust types into structural schemas and CRD YAML, with compile-time errors for
//! anything the API server would reject.
