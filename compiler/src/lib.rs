//! kstruct-compiler: Kubernetes CRD schemas compiled into specialized Rust code that prunes,
//! drops nulls, defaults and decodes custom resources exactly as the API server does, without
//! walking a schema at run time.
//!
//! Use it from `build.rs`, in the style of `prost-build`:
//!
//! ```no_run
//! // build.rs
//! fn main() -> Result<(), kstruct_compiler::Error> {
//!     kstruct_compiler::Config::new()
//!         .crd_dir("crds")
//!         .crd_file("third_party/certificates.cert-manager.io.yaml")
//!         .compile()
//! }
//! ```
//!
//! and include the result where you use it:
//!
//! ```ignore
//! mod crds {
//!     include!(concat!(env!("OUT_DIR"), "/crds.rs"));
//! }
//! use kstruct::Pipeline;
//! let decoded = crds::cert_manager_io::v1::Certificate.decode(body, &Default::default())?;
//! let decoded = crds::REGISTRY.decode(body, &Default::default())?; // any compiled kind
//! ```
//!
//! The generated file has a module per API group and a submodule per version holding, per
//! kind, a unit type implementing [`kstruct::Pipeline`] (a drop-in replacement for a
//! [`kstruct::Interpreter`] of that version), plus `REGISTRY`, a
//! [`kstruct::compiled::Registry`] of everything compiled. Bare schemas given with
//! [`Config::schema`] are types in a `schemas` module.
//!
//! Generated code is specialized: object nodes `match` on their keys, defaults are constants
//! decoded once, identical sub-schemas share one function, unknown-field paths are only built
//! when asked for. It calls only `kstruct::compiled::v1` and refuses to build against a
//! `kstruct` of another minor version.

mod emit;
mod generate;
mod graph;
mod names;
mod source;
mod validation;
mod worklist;

use std::path::{Path, PathBuf};

use kstruct::schema::Structural;

pub use generate::Stats;

/// Everything that can go wrong while compiling.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input file or directory could not be read, or the output not written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input is not valid JSON/YAML, or a CRD in it is not usable.
    #[error("{0}")]
    Input(String),
    /// Two inputs define the same thing (a group and kind, or a schema name).
    #[error("{0}")]
    Duplicate(String),
    /// `compile()` outside a build script, without [`Config::out_dir`].
    #[error("OUT_DIR is not set: call compile() from a build script, or set Config::out_dir")]
    NoOutDir,
}

/// What to compile, and where to.
#[derive(Debug, Clone)]
pub struct Config {
    inputs: Vec<source::Input>,
    out_dir: Option<PathBuf>,
    file_name: String,
    emit_rerun: bool,
    prune_defaults: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config::new()
    }
}

impl Config {
    /// Nothing to compile yet; the output is `$OUT_DIR/crds.rs`.
    pub fn new() -> Config {
        Config {
            inputs: Vec::new(),
            out_dir: None,
            file_name: "crds".into(),
            emit_rerun: true,
            prune_defaults: true,
        }
    }

    /// Compiles every CustomResourceDefinition in `path` (a YAML or JSON stream; other
    /// documents are skipped, a file without any CRD is an error).
    pub fn crd_file(&mut self, path: impl AsRef<Path>) -> &mut Config {
        self.inputs.push(source::Input::CrdFile(path.as_ref().to_path_buf()));
        self
    }

    /// Compiles every CustomResourceDefinition in the `.yaml`, `.yml` and `.json` files under
    /// `dir` (recursively, in path order).
    pub fn crd_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.inputs.push(source::Input::CrdDir(dir.as_ref().to_path_buf()));
        self
    }

    /// Compiles the CRDs in `text` (a YAML or JSON stream); `origin` names it in errors.
    pub fn crd_text(&mut self, origin: &str, text: &str) -> &mut Config {
        self.inputs.push(source::Input::CrdText {
            origin: origin.into(),
            text: text.into(),
        });
        self
    }

    /// Compiles a bare schema as the type `schemas::<Name>` (`name` in CamelCase), listed in
    /// the registry under `name`. Like [`kstruct::Interpreter::new`], its defaults are pruned
    /// first, as the API server serves them.
    pub fn schema(&mut self, name: &str, schema: &Structural) -> &mut Config {
        self.schema_opt(name, Some(schema))
    }

    /// As [`schema`](Config::schema); `None` is no schema at all (`null`).
    pub fn schema_opt(&mut self, name: &str, schema: Option<&Structural>) -> &mut Config {
        self.inputs.push(source::Input::Schema {
            name: name.into(),
            schema: Ok(schema.cloned().map(Box::new)),
        });
        self
    }

    /// Lists `name` as a bare schema that could not be read, with the reason (for example a
    /// schema file that does not convert): the registry keeps the name and the reason, so that
    /// whoever looks it up is told why, and the other schemas still compile.
    pub fn unusable_schema(&mut self, name: &str, why: &str) -> &mut Config {
        self.inputs.push(source::Input::Schema {
            name: name.into(),
            schema: Err(why.into()),
        });
        self
    }

    /// Whether bare schemas get serve-time default pruning, as
    /// [`kstruct::Interpreter::new`] does (default), or are compiled exactly as given, as
    /// [`kstruct::Interpreter::without_default_pruning`]. CRD versions always follow their
    /// CRD's `spec.preserveUnknownFields`, as the API server does.
    pub fn prune_defaults(&mut self, prune: bool) -> &mut Config {
        self.prune_defaults = prune;
        self
    }

    /// The output's file name without `.rs` (default `crds`).
    pub fn file_name(&mut self, name: &str) -> &mut Config {
        self.file_name = name.into();
        self
    }

    /// Where [`compile`](Config::compile) writes (default: `$OUT_DIR`).
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Config {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Whether [`compile`](Config::compile) prints `cargo:rerun-if-changed` for its inputs
    /// (default: yes).
    pub fn emit_rerun_if_changed(&mut self, emit: bool) -> &mut Config {
        self.emit_rerun = emit;
        self
    }

    /// Generates the code and writes it to `<out_dir>/<file_name>.rs` (unchanged files are not
    /// rewritten, so cargo does not rebuild needlessly). In a build script it prints
    /// `cargo:rerun-if-changed` for every input file and directory, and a `cargo:warning`
    /// for every CRD version whose schema does not convert.
    ///
    /// # Errors
    /// Unreadable or invalid inputs, duplicates, an unwritable output.
    pub fn compile(&self) -> Result<(), Error> {
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR").map(PathBuf::from).ok_or(Error::NoOutDir)?,
        };
        let (code, stats, read) = self.run()?;
        if self.emit_rerun {
            for path in &read {
                println!("cargo:rerun-if-changed={}", path.display());
            }
            for w in &stats.warnings {
                println!("cargo:warning={w}");
            }
        }
        let path = out_dir.join(format!("{}.rs", self.file_name));
        if std::fs::read(&path).ok().as_deref() != Some(code.as_bytes()) {
            std::fs::write(&path, code).map_err(|source| Error::Io { path, source })?;
        }
        Ok(())
    }

    /// The generated code, as [`compile`](Config::compile) would write it.
    ///
    /// # Errors
    /// As [`compile`](Config::compile), without the output.
    pub fn generate(&self) -> Result<String, Error> {
        Ok(self.run()?.0)
    }

    /// The generated code and what it took: schema nodes, distinct nodes, functions.
    ///
    /// # Errors
    /// As [`generate`](Config::generate).
    pub fn generate_with_stats(&self) -> Result<(String, Stats), Error> {
        let (code, stats, _) = self.run()?;
        Ok((code, stats))
    }

    fn run(&self) -> Result<(String, Stats, Vec<PathBuf>), Error> {
        let sources = source::read(&self.inputs)?;
        let (code, stats) = generate::generate(&sources, self.prune_defaults)?;
        Ok((code, stats, sources.read))
    }
}
