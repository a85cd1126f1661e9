//! The subcommands.

pub mod check;
#[cfg(feature = "compile")]
pub mod compile;
pub mod decode;
pub mod lint;
pub mod positions;
pub mod sarif;
pub mod transform;

/// How a command ended, when it could run at all.
pub enum Outcome {
    /// Nothing to report: exit 0.
    Clean,
    /// Findings or failed documents were reported: exit 1.
    Findings,
}

/// The process exit code of a command's result (errors are printed on stderr).
pub fn exit_code(result: Result<Outcome, String>) -> std::process::ExitCode {
    match result {
        Ok(Outcome::Clean) => std::process::ExitCode::SUCCESS,
        Ok(Outcome::Findings) => std::process::ExitCode::from(1),
        Err(e) => {
            eprintln!("kstruct: {e}");
            std::process::ExitCode::from(2)
        }
    }
}
