//! `kstruct`: check CRDs and manifests offline, exactly as the Kubernetes API server would.
//!
//! Exit codes: 0 when everything succeeded, 1 when a finding or a failed document was
//! reported, 2 on usage errors or unreadable files.

mod commands;
mod inputs;
mod schemas;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Check CRDs and manifests offline, exactly as the Kubernetes API server would.
#[derive(Debug, Parser)]
#[command(name = "kstruct", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Validate CRDs (or bare openAPIV3Schemas) as the API server does on create:
    /// prints one message per line, exits 1 when there is any.
    Lint {
        /// CRD files (YAML or JSON, multi-document) or bare openAPIV3Schema files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Remove fields the schema does not specify, as the API server prunes.
    Prune {
        #[command(flatten)]
        target: Target,
        /// Treat each object as a value below a resource, not as a resource: its apiVersion,
        /// kind and metadata are pruned like any other field.
        #[arg(long)]
        not_root: bool,
    },
    /// Remove null fields whose schema is neither nullable nor defaulted.
    Nulls {
        #[command(flatten)]
        target: Target,
    },
    /// Apply the schema's defaults (after the API server's serve-time default pruning).
    Default {
        #[command(flatten)]
        target: Target,
    },
}

/// Where the schema comes from, and which objects to process.
#[derive(Debug, Args)]
struct Target {
    /// A file of CRDs (YAML or JSON, multi-document): each object uses the CRD and version its
    /// apiVersion and kind name.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "schema",
        required_unless_present = "schema"
    )]
    crd: Option<PathBuf>,
    /// Use this CRD version for every object instead of the one its apiVersion names.
    #[arg(long, value_name = "V", requires = "crd")]
    version: Option<String>,
    /// Use the CRD whose spec.names.kind is K (when the file holds several).
    #[arg(long, value_name = "K", requires = "crd")]
    kind: Option<String>,
    /// A file holding one bare openAPIV3Schema (or `null` for no schema), used for every object.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// Print one report per document: {"error", "object", "unknownFields", "warnings"}.
    #[arg(long)]
    report: bool,
    /// Input files, each a stream of JSON values or YAML documents; standard input when none
    /// (or `-`).
    inputs: Vec<PathBuf>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Lint { files } => commands::lint::run(&files),
        Command::Prune { target, not_root } => {
            commands::transform::run(commands::transform::Op::Prune { not_root }, &target)
        }
        Command::Nulls { target } => commands::transform::run(commands::transform::Op::Nulls, &target),
        Command::Default { target } => commands::transform::run(commands::transform::Op::Default, &target),
    };
    match result {
        Ok(commands::Outcome::Clean) => ExitCode::SUCCESS,
        Ok(commands::Outcome::Findings) => ExitCode::from(1),
        Err(e) => {
            eprintln!("kstruct: {e}");
            ExitCode::from(2)
        }
    }
}
