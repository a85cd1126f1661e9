//! The `kstruct` command line, as a library: [`main`] is the `kstruct` binary, and
//! [`runner::main`] the binary of a crate written by `kstruct compile --crate`, which offers
//! the same `prune`, `nulls`, `default`, `decode` and `patch` commands over compiled schemas.
//!
//! Exit codes: 0 when everything succeeded, 1 when a finding or a failed document was
//! reported, 2 on usage errors, unreadable files, or (`check`, `lint`) nothing to check.

mod commands;
mod inputs;
pub mod runner;
mod schemas;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Check CRDs and manifests offline, exactly as the Kubernetes API server would.
#[derive(Debug, Parser)]
#[command(name = "kstruct", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Check manifests against CRDs as `kubectl apply --dry-run=server` would, without a
    /// cluster: the CI gate for a repository of custom resources, with diagnostics for people
    /// (`FILE:LINE:COL: error: ...`, did-you-mean) and reports for tools (`-o json|junit|sarif`).
    ///
    /// CRDs come from `--crds` and from the inputs themselves (a `helm template` stream holds
    /// both); each is first checked as the API server checks CRDs on create, and one the
    /// server would refuse is not used. Every other document is then sent through the API
    /// server's write path with its CRD's schema, as a create: decoding (unknown and duplicate
    /// fields are errors under fieldValidation Strict), pruning, defaulting, then validation
    /// of the values (types, formats, enums, patterns, bounds, required fields, list types,
    /// metadata and names) and of the CEL rules (`x-kubernetes-validations`), each error at
    /// its field's line; the summary counts the rules evaluated. An object of a version its CRD does
    /// not serve, or of a kind no CRD declares, is an error; built-in kinds (Deployment,
    /// ConfigMap, ...) are skipped, and so are documents that are not Kubernetes objects (no
    /// kind: CI workflows, Helm values, unrendered Helm templates), each named in a note.
    ///
    /// Under Strict the server answers the first decoding error and validates nothing: a note
    /// says how many errors validation would report besides (`--field-validation Warn` shows
    /// them).
    ///
    /// A run that checked no object fails (exit 2), so that an empty directory, an `--exclude`
    /// that matched everything or an empty standard input does not pass unseen; pass
    /// `--allow-no-objects` for repositories that hold only CRDs.
    ///
    /// Exit status: 0 clean (warnings allowed), 1 findings, 2 a usage error, an input that
    /// could not be read (the others are still checked), or no object checked.
    Check(CheckArgs),
    /// Check CRDs as the API server does when they are created, and print every error it would
    /// return, exactly as it words them: the output for scripts and tests.
    ///
    /// Checked: metadata.name (`<plural>.<group>`), the group, scope and names, versions
    /// (unique DNS-1035 names, exactly one storage version), preserveUnknownFields, conversion,
    /// subresources, printer columns, selectable fields, the API-approval annotation of
    /// *.k8s.io groups, and every schema: structural rules, the OpenAPI rules
    /// (ValidateCustomResourceDefinitionOpenAPISchema: $ref, uniqueItems, list and map types,
    /// list-map keys, embedded resources, root metadata...) and defaults (pruned, coerced and
    /// valid against their own schema). CEL rules (`x-kubernetes-validations`) are parsed, not
    /// type-checked.
    ///
    /// Messages name paths as the API server does: a schema shared by all versions is
    /// `spec.validation.openAPIV3Schema`. By default standard output holds the server's
    /// messages only, one per line (several documents print `==> FILE:LINE (NAME)` before each
    /// document with findings); `-o json` writes one JSON object per finding with the file,
    /// line and column of the field it names, `-o sarif` a SARIF log. A `kind: List` (from
    /// `kubectl get crd -o yaml`) is linted item by item. Documents that are not CRDs are
    /// skipped, each with a note, and counted in a summary on standard error; a bare
    /// openAPIV3Schema gets the structural rules only.
    ///
    /// For people, `kstruct check --allow-no-objects CRD-FILES` reports the same findings at
    /// their line and column in the file (and `kstruct check` checks objects against the CRDs,
    /// with did-you-mean hints for misspelt fields and kinds).
    ///
    /// Exit status: 0 clean, 1 findings, 2 an input could not be read (the others are still
    /// linted) or no CRD (with `--schema`, no document) was found.
    Lint {
        /// Read every document as a bare openAPIV3Schema (structural rules only).
        #[arg(long)]
        schema: bool,
        /// How to report: `text` (the server's messages, one per line), `json` (JSON Lines,
        /// one object per finding: file, line, column, name, message), or `sarif`.
        #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value = "text")]
        output: LintOutputArg,
        /// Compile CEL rules in the environment of this compatibility version (1.29 to 1.36):
        /// the target server's minor version minus one (a 1.31 server compiles new rules for
        /// 1.30). Default: 1.36, a 1.37 server's.
        #[arg(long, value_name = "MAJOR.MINOR", default_value_t = kstruct::cel::Compatibility::DEFAULT)]
        cel_compatibility: kstruct::cel::Compatibility,
        /// Leave out files and directories below the inputs whose path matches GLOB
        /// (`**/patches/**`), as `kstruct check --exclude` does. Repeatable.
        #[arg(long, value_name = "GLOB")]
        exclude: Vec<String>,
        /// CRD files (YAML or JSON, multi-document), directories (every .yaml, .yml and .json
        /// file below, in path order), or `-` for standard input.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    #[command(flatten)]
    Objects(ObjectCommand<FileSchemas, DecodeEndpoint>),
    /// Compile CRDs (or bare schemas) into Rust: a module (`-o FILE`) or a cargo crate whose
    /// binary offers prune, nulls, default, decode and patch over the compiled schemas
    /// (`--crate`).
    #[cfg(feature = "compile")]
    Compile(CompileArgs),
}

/// `kstruct check`'s arguments.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// CRD files or directories (every .yaml, .yml and .json file below, in path order); `-`
    /// for standard input. Repeatable.
    #[arg(long, value_name = "PATH")]
    pub(crate) crds: Vec<PathBuf>,
    /// Manifest files or directories (walked as `--crds`), or `-` for standard input (the
    /// default when no path is given). CRDs among them are used too.
    pub(crate) paths: Vec<PathBuf>,
    /// Leave out files and directories below the inputs whose path matches GLOB
    /// (`**/testdata/**`, `*.json`, `.*`): matched against the path relative to the input
    /// directory it was found in, and against the file or directory name. Paths named on the
    /// command line are always read. Repeatable.
    #[arg(long, value_name = "GLOB")]
    pub(crate) exclude: Vec<String>,
    /// Pass a run that checked no object (only CRDs, or only skipped documents), as a
    /// repository that holds nothing but CRDs does. Without it such a run exits 2.
    #[arg(long)]
    pub(crate) allow_no_objects: bool,
    /// Documents that are not Kubernetes objects (no kind: CI workflows, Helm values,
    /// docker-compose files; unrendered Helm templates): `skip` them with a note, or make each
    /// an `error` (for repositories that hold nothing but manifests). A kind without an
    /// apiVersion is always an error.
    #[arg(long, value_enum, value_name = "WHAT", default_value = "skip")]
    pub(crate) non_objects: NonObjectsArg,
    /// fieldValidation of the requests: Strict (unknown and duplicate fields are errors, and
    /// the server answers them before validating values), Warn (they are warnings, and values
    /// are validated) or Ignore.
    #[arg(long, value_enum, value_name = "MODE", default_value = "Strict", ignore_case = true)]
    pub(crate) field_validation: FieldValidationArg,
    /// Kinds not to check: `Kind`, `group/Kind` or `group/version/Kind`, comma-separated or
    /// repeated.
    #[arg(long, value_name = "KINDS", value_delimiter = ',')]
    pub(crate) skip_kinds: Vec<String>,
    /// Objects of a kind no CRD declares are skipped instead of errors.
    #[arg(long)]
    pub(crate) ignore_missing_crds: bool,
    /// The Kubernetes release whose built-in kinds are served: `1.30` to `1.36`, or `head`
    /// (the development head). An object of a built-in group-version that release does not
    /// serve (`extensions/v1beta1` Ingress, `policy/v1beta1` PodDisruptionBudget on 1.25 and
    /// later) is an error.
    #[arg(long, value_name = "VERSION", default_value_t = kstruct_builtins::Release::newest())]
    pub(crate) kubernetes_version: kstruct_builtins::Release,
    /// Decode only: report unknown and duplicate fields, but do not validate values (types,
    /// enums, required fields, names, CEL rules...) as a create would.
    #[arg(long)]
    pub(crate) skip_validation: bool,
    /// The largest request body, in bytes, the API server accepts (its default, 3 MiB);
    /// larger documents get its `Request entity too large` answer.
    #[arg(long, value_name = "BYTES", default_value_t = kstruct::decode::API_SERVER_MAX_BODY_SIZE)]
    pub(crate) max_body_size: usize,
    /// How to report: `text` (diagnostics for people), `json` (JSON Lines, one per
    /// document, then a summary), `junit`, `sarif`, or `yaml` (what the server would store,
    /// as a YAML stream; diagnostics on standard error).
    #[arg(short = 'o', long, value_enum, value_name = "FORMAT", default_value = "text")]
    pub(crate) output: OutputArg,
    /// Also show, per document: `stored` (what the server would store) or `diff` (input
    /// against stored: pruned fields, defaults added). With `-o json`, `stored` adds a
    /// `stored` field to each line.
    #[arg(long, value_enum, value_name = "WHAT")]
    pub(crate) show: Option<ShowArg>,
    /// Also list clean and skipped documents.
    #[arg(short, long)]
    pub(crate) verbose: bool,
    /// Colors in text output: `auto` (only on a terminal, and not with NO_COLOR), `always`,
    /// `never`.
    #[arg(long, value_enum, value_name = "WHEN", default_value = "auto")]
    pub(crate) color: ColorArg,
}

/// `kstruct check --output` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputArg {
    /// Diagnostics for people, like a compiler's.
    Text,
    /// JSON Lines: one object per document, then a summary.
    Json,
    /// JUnit XML: one test case per document.
    Junit,
    /// SARIF 2.1.0, for code review annotations.
    Sarif,
    /// What the server would store, as a YAML stream (diagnostics on standard error).
    Yaml,
}

/// `kstruct check --non-objects` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum NonObjectsArg {
    /// Skip them, with a note.
    Skip,
    /// Report each as an error.
    Error,
}

/// `kstruct lint --output` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LintOutputArg {
    /// The API server's messages, one per line.
    Text,
    /// JSON Lines: one object per finding.
    Json,
    /// SARIF 2.1.0, for code review annotations.
    Sarif,
}

/// `kstruct check --show` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowArg {
    /// What the server would store.
    Stored,
    /// The input against what the server would store.
    Diff,
}

/// `kstruct check --color` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ColorArg {
    /// Colors on a terminal, unless NO_COLOR is set.
    Auto,
    /// Always colors.
    Always,
    /// Never colors.
    Never,
}

/// `kstruct compile`'s arguments.
#[cfg(feature = "compile")]
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("sources").required(true).args(["crd", "schema"])))]
#[command(group(clap::ArgGroup::new("outputs").required(true).multiple(true).args(["output", "crate_dir"])))]
struct CompileArgs {
    /// CRD files (YAML or JSON, multi-document): every CRD in them is compiled.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "schema")]
    crd: Vec<PathBuf>,
    /// Bare openAPIV3Schema files, each compiled under its file stem (the runner's
    /// `--schema-name`).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    schema: Vec<PathBuf>,
    /// Write the generated Rust module here.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write a cargo crate here whose binary offers prune, nulls, default, decode and patch
    /// with the kstruct command's flags, over the compiled schemas.
    #[arg(long = "crate", value_name = "DIR")]
    crate_dir: Option<PathBuf>,
    /// The kstruct source checkout the crate depends on (by path); the kstruct repository
    /// (git, this version) otherwise.
    #[arg(long, value_name = "PATH", requires = "crate_dir")]
    kstruct_path: Option<PathBuf>,
}

/// The commands that process objects, shared by `kstruct` (schemas from files: `S` and `D` are
/// [`FileSchemas`] and [`DecodeEndpoint`]) and the runners of compiled schemas (`runner::Select`
/// for both), so that both have the same flags, reports and exit codes.
#[derive(Debug, Subcommand)]
enum ObjectCommand<S: Args, D: Args> {
    /// Remove fields the schema does not specify, as the API server prunes.
    Prune {
        #[command(flatten)]
        target: Target<S>,
        /// Treat each object as a value below a resource, not as a resource: its apiVersion,
        /// kind and metadata are pruned like any other field.
        #[arg(long)]
        not_root: bool,
    },
    /// Remove null fields whose schema is neither nullable nor defaulted.
    Nulls {
        #[command(flatten)]
        target: Target<S>,
    },
    /// Apply the schema's defaults (after the API server's serve-time default pruning).
    Default {
        #[command(flatten)]
        target: Target<S>,
    },
    /// Decode each document as the API server decodes a request body: strict duplicate and
    /// unknown field checks (fieldValidation), metadata normalisation, pruning, embedded
    /// resources, defaulting.
    Decode(DecodeArgs<D>),
    /// Apply a PATCH request body to a stored object as the API server does for custom
    /// resources (`--type json`: RFC 6902, `merge`: RFC 7386, `apply`: a server-side apply
    /// body), or (`--type webhook`) the JSON patch a mutating admission webhook returned for
    /// the object in EXISTING; print what the server would store. Without --crd or --schema,
    /// EXISTING is one of Kubernetes' own kinds: patched and read into its Go types (apply
    /// merges lists by the Go types' markers), not defaulted or validated.
    ///
    /// Each input is one request body. The answer is decode's: the stored object, or with
    /// `--report` one line {"error", "object", "unknownFields", "warnings"}.
    Patch(PatchArgs<D>),
}

/// `patch`'s arguments, with `D` saying where the schemas come from.
#[derive(Debug, Args)]
struct PatchArgs<D: Args> {
    #[command(flatten)]
    select: D,
    /// The patch type: `json` (application/json-patch+json), `merge`
    /// (application/merge-patch+json), `apply` (application/apply-patch+yaml), or `webhook`
    /// (a mutating webhook's JSON patch for the object in EXISTING).
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    patch_type: PatchTypeArg,
    /// The stored object (JSON or YAML); for `webhook`, the object the server sent the
    /// webhook. An empty file means nothing is stored: an `apply` creates the object, a JSON
    /// or merge patch gets the server's 404.
    #[arg(long, value_name = "EXISTING", required_unless_present = "apply_creates")]
    existing: Option<PathBuf>,
    /// `apply` without a stored object (as an empty EXISTING): the apply creates it.
    #[arg(long, conflicts_with = "existing")]
    apply_creates: bool,
    /// For `webhook`: the stored object of an update (without it, the request is a create).
    #[arg(long, value_name = "OLD")]
    old: Option<PathBuf>,
    /// The request's fieldValidation: Strict, Warn (the default) or Ignore.
    #[arg(long, value_enum, value_name = "MODE", default_value = "Warn", ignore_case = true)]
    field_validation: FieldValidationArg,
    /// Skip the update's (or create's) validation (ObjectMeta, values with ratcheting, scale
    /// paths, embedded resources, list types, CEL rules with ratcheting), which the server
    /// runs and `patch` runs by default.
    #[arg(long)]
    no_validate: bool,
    /// The largest request body, in bytes, accepted as the API server accepts it.
    #[arg(long, value_name = "BYTES", default_value_t = kstruct::decode::API_SERVER_MAX_BODY_SIZE)]
    max_body_size: usize,
    /// The metadata.resourceVersion the server assigns to what it stores (without it, the
    /// stored object's is kept).
    #[arg(long, value_name = "N")]
    resource_version: Option<u64>,
    /// Print one report per request: {"error", "object", "unknownFields", "warnings"}.
    #[arg(long)]
    report: bool,
    /// Request bodies, each file one body; standard input when none (or `-`).
    inputs: Vec<PathBuf>,
}

/// `patch --type` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum PatchTypeArg {
    Json,
    Merge,
    Apply,
    Webhook,
}

impl<D: Args> PatchArgs<D> {
    /// Reads the stored objects and runs the requests with `endpoint`.
    fn run(&self, endpoint: &commands::decode::Endpoint) -> Result<commands::Outcome, String> {
        use commands::decode::{Verb, read_object, run_requests};
        use kstruct::patch::PatchType;
        let verb = match self.patch_type {
            PatchTypeArg::Json => Verb::Patch(PatchType::Json),
            PatchTypeArg::Merge => Verb::Patch(PatchType::Merge),
            PatchTypeArg::Apply => Verb::Patch(PatchType::Apply),
            PatchTypeArg::Webhook => Verb::Webhook,
        };
        if self.apply_creates && verb != Verb::Patch(PatchType::Apply) {
            return Err("--apply-creates goes with --type apply; the other types need --existing".into());
        }
        if self.old.is_some() && verb != Verb::Webhook {
            return Err("--old goes with --type webhook".into());
        }
        // An empty EXISTING: nothing is stored.
        let existing = match self.existing.as_deref() {
            Some(path) => commands::decode::read_stored(path)?,
            None => None,
        };
        let old = self.old.as_deref().map(read_object).transpose()?;
        let mode = commands::decode::Mode {
            validate: !self.no_validate,
            namespace: None,
            max_body_size: self.max_body_size,
            resource_version: self.resource_version,
            field_validation: self.field_validation.into(),
            storage: false,
            report: self.report,
            body: true,
            format: kstruct::BodyFormat::Auto,
            update: None,
        };
        run_requests(endpoint, &mode, verb, existing.as_ref(), old.as_ref(), &self.inputs)
    }
}

/// `kstruct decode`'s endpoint: CRD files or a bare schema file.
#[derive(Debug, Args)]
struct DecodeEndpoint {
    /// A file of CRDs (YAML or JSON, multi-document). Objects of a CRD's group and kind are
    /// decoded with the schema of the version their apiVersion names (a version the CRD lacks
    /// has an empty schema); other objects are decoded without a schema.
    #[arg(long, value_name = "FILE", conflicts_with = "schema")]
    crd: Option<PathBuf>,
    /// Register only version V of the CRDs, as a CRD with that one version would serve.
    #[arg(long, value_name = "V", requires = "crd")]
    version: Option<String>,
    /// Register only the CRD whose spec.names.kind is K (when the file holds several).
    #[arg(long, value_name = "K", requires = "crd")]
    kind: Option<String>,
    /// A file holding one bare openAPIV3Schema, used for whatever group, version and kind
    /// each object names.
    #[arg(long, value_name = "FILE")]
    schema: Option<PathBuf>,
    /// Without --crd or --schema, bodies are Kubernetes' own kinds, decoded into the Go types
    /// of this release: `1.30` to `1.36` (default), or `head`.
    #[arg(long, value_name = "VERSION", default_value_t = kstruct::builtin::Release::newest())]
    kubernetes_version: kstruct::builtin::Release,
    /// Without --crd or --schema: the collection the bodies are sent to, `[GROUP/]VERSION/KIND`
    /// (`v1/Pod`, `apps/v1/Deployment`). A body that names no apiVersion or kind takes the
    /// endpoint's. Default: each body's own apiVersion and kind.
    #[arg(long, value_name = "[GROUP/]VERSION/KIND", conflicts_with_all = ["crd", "schema"])]
    endpoint: Option<String>,
}

/// `decode`'s arguments, with `D` saying where the schemas come from.
#[derive(Debug, Args)]
struct DecodeArgs<D: Args> {
    #[command(flatten)]
    select: D,
    /// The request's fieldValidation: Strict fails on unknown or duplicate fields, Warn
    /// reports them as warnings, Ignore drops unknown fields silently.
    #[arg(long, value_enum, value_name = "MODE", default_value = "Warn", ignore_case = true)]
    field_validation: FieldValidationArg,
    /// Decode as the API server reads objects back from storage: malformed metadata fields
    /// are dropped, a zero generation becomes 1, nothing is reported.
    #[arg(long, conflicts_with = "field_validation")]
    storage: bool,
    /// Go on as a create does after decoding: the request's namespace, status dropped under
    /// the status subresource, generation 1, then validation (ObjectMeta, values, scale paths,
    /// embedded resources, list types, CEL rules). A failure is the API
    /// server's `<Kind>.<group> "<name>" is invalid: ...`.
    #[arg(long, conflicts_with = "storage")]
    validate: bool,
    /// The request's namespace, for `--validate` (default: the object's own, or `default`).
    #[arg(long, value_name = "NS", requires = "validate")]
    namespace: Option<String>,
    /// The largest request body, in bytes, accepted as the API server accepts it (its default,
    /// 3 MiB); larger documents get its `Request entity too large` answer.
    #[arg(long, value_name = "BYTES", default_value_t = kstruct::decode::API_SERVER_MAX_BODY_SIZE, conflicts_with = "storage")]
    max_body_size: usize,
    /// The metadata.resourceVersion the server assigns to what it stores, with `--validate`
    /// or `--update` (without it, a create has none and an update keeps the stored one's).
    #[arg(long, value_name = "N", conflicts_with = "storage")]
    resource_version: Option<u64>,
    /// Print one report per document: {"error", "object", "unknownFields", "warnings"}.
    #[arg(long)]
    report: bool,
    /// Each input is exactly one request body, byte for byte: no splitting into documents,
    /// no byte-order mark removed, an empty file is an empty body (JSON when its first
    /// non-space byte is `{`, YAML otherwise).
    #[arg(long)]
    body: bool,
    /// The request's content type: `json` or `yaml` bodies, or `auto` (JSON when a body's
    /// first non-space byte is `{`, as kubectl decides).
    #[arg(long, value_enum, value_name = "FORMAT", default_value = "auto")]
    format: FormatArg,
    /// Send each document as a PUT (update) of the stored object in EXISTING (JSON or YAML),
    /// as the update handler and registry treat it: name and namespace checks, resourceVersion
    /// (409 on a stale one, 422 when absent), generation, uid, timestamps and status from the
    /// stored object, and the update's validation with ratcheting (`--validate` is implied).
    #[arg(long, value_name = "EXISTING", conflicts_with_all = ["storage", "namespace"])]
    update: Option<PathBuf>,
    /// Input files, each a stream of JSON values or YAML documents (YAML documents are sent
    /// as YAML bodies); standard input when none (or `-`).
    inputs: Vec<PathBuf>,
}

impl<D: Args> DecodeArgs<D> {
    /// How to decode and print.
    fn mode(&self) -> Result<commands::decode::Mode, String> {
        let update = self.update.as_deref().map(commands::decode::read_object).transpose()?;
        Ok(commands::decode::Mode {
            // The server validates every update.
            validate: self.validate || update.is_some(),
            update,
            namespace: self.namespace.clone(),
            max_body_size: self.max_body_size,
            resource_version: self.resource_version,
            field_validation: self.field_validation.into(),
            storage: self.storage,
            report: self.report,
            body: self.body,
            format: match self.format {
                FormatArg::Auto => kstruct::BodyFormat::Auto,
                FormatArg::Json => kstruct::BodyFormat::Json,
                FormatArg::Yaml => kstruct::BodyFormat::Yaml,
            },
        })
    }
}

/// `--format` values.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum FormatArg {
    Auto,
    Json,
    Yaml,
}

/// `--field-validation` values, spelled as in the API.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum FieldValidationArg {
    #[value(name = "Strict")]
    Strict,
    #[value(name = "Warn")]
    Warn,
    #[value(name = "Ignore")]
    Ignore,
}

/// `prune`, `nulls` and `default`'s arguments, with `S` saying where the schemas come from.
#[derive(Debug, Args)]
struct Target<S: Args> {
    #[command(flatten)]
    select: S,
    /// Print one report per document: {"error", "object", "unknownFields", "warnings"}.
    #[arg(long)]
    report: bool,
    /// Input files, each a stream of JSON values or YAML documents; standard input when none
    /// (or `-`).
    inputs: Vec<PathBuf>,
}

/// `kstruct prune|nulls|default`'s schemas: CRD files or a bare schema file.
#[derive(Debug, Args)]
struct FileSchemas {
    /// A file of CRDs (YAML or JSON, multi-document): each object uses the CRD and version its
    /// apiVersion and kind name.
    #[arg(long, value_name = "FILE", conflicts_with = "schema")]
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
}

/// Runs the `kstruct` command line with the process's arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(args) => commands::check::run(&args),
        Command::Lint {
            schema,
            output,
            cel_compatibility,
            exclude,
            files,
        } => commands::lint::run(
            &files,
            &exclude,
            schema,
            &kstruct::lint::LintOptions { cel_compatibility },
            output,
        ),
        Command::Objects(command) => {
            use commands::transform::{Op, run};
            match command {
                ObjectCommand::Prune { target, not_root } => run(Op::Prune { not_root }, &target),
                ObjectCommand::Nulls { target } => run(Op::Nulls, &target),
                ObjectCommand::Default { target } => run(Op::Default, &target),
                ObjectCommand::Decode(args) => commands::decode::run(&args),
                ObjectCommand::Patch(args) => commands::decode::load(&args.select).and_then(|e| args.run(&e)),
            }
        }
        #[cfg(feature = "compile")]
        Command::Compile(args) => commands::compile::run(&args),
    };
    commands::exit_code(result)
}
