//! The command line of a runner crate written by `kstruct compile --crate`: `prune`, `nulls`,
//! `default`, `decode` and `patch` exactly as the `kstruct` command has them, over schemas compiled
//! into the binary instead of `--crd`/`--schema` files.
//!
//! ```ignore
//! mod compiled {
//!     include!("compiled.rs");
//! }
//!
//! fn main() -> std::process::ExitCode {
//!     kstruct_cli::runner::main(&compiled::REGISTRY)
//! }
//! ```

use std::process::ExitCode;

use clap::{Args, Parser};
use kstruct::compiled::{CompiledCrd, Registry};

use crate::commands::{self, Outcome, decode, transform};
use crate::schemas::{Catalog, Schemas, note_default_pruning};
use crate::{DecodeArgs, Target};

/// Prune, default, decode and patch manifests with compiled CRD schemas, exactly as the
/// Kubernetes API server would.
#[derive(Debug, Parser)]
#[command(
    version,
    about = "Prune, default, decode and patch manifests with the CRD schemas compiled into this binary, exactly as the Kubernetes API server would",
    long_about = None
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// `prune`, `nulls`, `default`, `decode` and `patch` exactly as `kstruct` has them, with compiled
/// schemas picked by [`Select`].
type Command = crate::ObjectCommand<Select, Select>;

/// Which compiled schema processes the objects.
#[derive(Debug, Args)]
struct Select {
    /// Use this CRD version for every object instead of the one its apiVersion names (for
    /// `decode`: serve only version V).
    #[arg(long, value_name = "V", conflicts_with = "schema_name")]
    version: Option<String>,
    /// Use the compiled CRD whose kind is K.
    #[arg(long, value_name = "K", conflicts_with = "schema_name")]
    kind: Option<String>,
    /// Use the compiled bare schema compiled from the file with this stem, for every object.
    #[arg(long, value_name = "NAME")]
    schema_name: Option<String>,
}

/// Runs a runner's command line with the process's arguments over `registry`.
pub fn main(registry: &'static Registry) -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Prune { target, not_root } => transform(registry, transform::Op::Prune { not_root }, &target),
        Command::Nulls { target } => transform(registry, transform::Op::Nulls, &target),
        Command::Default { target } => transform(registry, transform::Op::Default, &target),
        Command::Decode(args) => decode(registry, &args),
        Command::Patch(args) => endpoint(registry, &args.select).and_then(|e| args.run(&e)),
    };
    commands::exit_code(result)
}

/// A compiled bare schema by name, or the only one when the registry holds nothing else.
fn bare(registry: &'static Registry, select: &Select) -> Result<Option<&'static dyn kstruct::Pipeline>, String> {
    if let Some(name) = &select.schema_name {
        return match registry.schema(name) {
            Some(Ok(p)) => {
                note_default_pruning(name, p);
                Ok(Some(p))
            }
            Some(Err(why)) => Err(why.to_string()),
            None => Err(format!("no compiled schema is named {name:?}")),
        };
    }
    match (registry.crds(), registry.schemas()) {
        ([], [one]) => one.pipeline.map(Some).map_err(str::to_string),
        ([], []) => Err("nothing was compiled into this runner".into()),
        ([], _) => Err("this runner holds several schemas: pick one with --schema-name".into()),
        _ => Ok(None),
    }
}

fn selected_crds(registry: &'static Registry, select: &Select) -> Result<Vec<&'static CompiledCrd>, String> {
    match &select.kind {
        None => Ok(registry.crds().iter().collect()),
        Some(k) => registry
            .find_kind(k)
            .map(|c| vec![c])
            .ok_or_else(|| format!("compiled: no CustomResourceDefinition of kind {k}")),
    }
}

fn transform(registry: &'static Registry, op: transform::Op, target: &Target<Select>) -> Result<Outcome, String> {
    let schemas = match bare(registry, &target.select)? {
        Some(p) => Schemas::CompiledBare(p),
        None => Schemas::crds(
            Catalog::Compiled(selected_crds(registry, &target.select)?),
            "compiled".into(),
            target.select.version.clone(),
            target.select.kind.clone(),
        )?,
    };
    transform::run_with(op, &schemas, target.report, &target.inputs)
}

/// The compiled schemas `select` picks, as an endpoint.
fn endpoint(registry: &'static Registry, select: &Select) -> Result<decode::Endpoint, String> {
    Ok(match bare(registry, select)? {
        Some(p) => decode::Endpoint::CompiledSchema(p),
        None => decode::Endpoint::compiled(selected_crds(registry, select)?, registry, select.version.clone())?,
    })
}

fn decode(registry: &'static Registry, args: &DecodeArgs<Select>) -> Result<Outcome, String> {
    let endpoint = endpoint(registry, &args.select)?;
    decode::run_with(&endpoint, args.mode()?, &args.inputs)
}
