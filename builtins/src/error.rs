//! The crate's one error type.

/// What can go wrong looking up Kubernetes' own kinds.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A release the data does not hold.
    #[error("unknown Kubernetes release {0:?}: kstruct knows {known}", known = crate::Release::ALL.iter().map(|r| r.name()).collect::<Vec<_>>().join(", "))]
    UnknownRelease(String),
    /// The embedded facts do not read (a build of a modified data file).
    #[error("builtins/data/types.txt, line {line}: {what}")]
    Data {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
}
