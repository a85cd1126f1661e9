//! The error type of the `kstruct` crate.

use std::path::PathBuf;

/// Everything that can go wrong in `kstruct`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A schema or CRD could not be read or converted.
    #[error(transparent)]
    Schema(#[from] kstruct_schema::Error),
    /// A file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A document of an input stream is not valid JSON or YAML.
    #[error("{origin}:{line}: {message}")]
    Input {
        /// Where the input came from (a file name, or `<stdin>`).
        origin: String,
        /// The 1-based line of the problem in that input.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A CRD document is not usable, or a lookup found no matching CRD.
    #[error("{0}")]
    Crd(String),
    /// The API server would reject the body (see [`Rejection`](crate::decode::Rejection)).
    #[error("{}", .0.message)]
    Rejected(crate::decode::Rejection),
    /// A Rust type's schema cannot be generated as asked (see
    /// [`try_schema_for`](crate::try_schema_for)).
    #[error("the schema of {type_name} cannot be generated:{}", problems.iter().map(|p| format!("\n  - {p}")).collect::<String>())]
    TypeSchema {
        /// The type whose schema was asked for.
        type_name: String,
        /// Every problem found, in the order of the type's fields.
        problems: Vec<crate::rust_schema::Problem>,
    },
}
