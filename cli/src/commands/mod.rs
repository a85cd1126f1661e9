//! The subcommands.

pub mod decode;
pub mod lint;
pub mod transform;

/// How a command ended, when it could run at all.
pub enum Outcome {
    /// Nothing to report: exit 0.
    Clean,
    /// Findings or failed documents were reported: exit 1.
    Findings,
}
