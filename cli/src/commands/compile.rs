//! `kstruct compile`: CRDs or bare schemas to Rust, as a module or as a runner crate.

use std::path::Path;

use super::Outcome;
use crate::schemas::read_bare_schema;

/// Compiles `--crd`/`--schema` files into `-o FILE` or a `--crate DIR`.
pub fn run(args: &crate::CompileArgs) -> Result<Outcome, String> {
    let mut config = kstruct_compiler::Config::new();
    config.emit_rerun_if_changed(false);
    for path in &args.crd {
        config.crd_file(path);
    }
    for path in &args.schema {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: the file name is not UTF-8", path.display()))?;
        // A schema that does not read is reported when the runner is asked for it, with the
        // message `kstruct <command> --schema` gives; the others still compile.
        match read_bare_schema(path) {
            Ok((schema, _)) => config.schema_opt(name, schema.as_ref()),
            Err(e) => {
                eprintln!("kstruct: warning: {e}");
                config.unusable_schema(name, &e)
            }
        };
    }
    let (code, stats) = config.generate_with_stats().map_err(|e| e.to_string())?;
    for w in &stats.warnings {
        eprintln!("kstruct: warning: {w}");
    }
    if let Some(out) = &args.output {
        write(out, &code)?;
    }
    if let Some(dir) = &args.crate_dir {
        write_crate(dir, &code, args.kstruct_path.as_deref())?;
    }
    eprintln!(
        "kstruct: compiled {} pipelines: {} schema nodes, {} distinct, {} functions, {} lines",
        stats.pipelines, stats.schema_nodes, stats.distinct_nodes, stats.functions, stats.lines
    );
    Ok(Outcome::Clean)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a cargo crate whose binary runs the compiled code through the `kstruct` commands.
fn write_crate(dir: &Path, code: &str, kstruct_path: Option<&Path>) -> Result<(), String> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .map(|n| {
            n.chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect::<String>()
        })
        .filter(|n| n.starts_with(|c: char| c.is_ascii_alphabetic()))
        .unwrap_or_else(|| "kstruct-runner".into());
    let version = env!("CARGO_PKG_VERSION");
    let deps = match kstruct_path {
        Some(p) => {
            let p = std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()))?;
            let runtime = toml_string(&p.join("runtime").display().to_string());
            let cli = toml_string(&p.join("cli").display().to_string());
            format!("kstruct = {{ path = {runtime} }}\nkstruct-cli = {{ path = {cli}, default-features = false }}\n")
        }
        // The crates are not on crates.io: the repository, at this version.
        None => {
            let git = toml_string(env!("CARGO_PKG_REPOSITORY"));
            format!(
                "kstruct = {{ git = {git}, version = \"={version}\" }}\n\
                 kstruct-cli = {{ git = {git}, version = \"={version}\", default-features = false }}\n"
            )
        }
    };
    let manifest = format!(
        "# Written by `kstruct compile --crate`: a command line over compiled CRD schemas.\n\
         [package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\n{deps}\n\
         # Not part of any enclosing workspace.\n[workspace]\n"
    );
    let main = "//! Written by `kstruct compile --crate`: `prune`, `nulls`, `default`, `decode` and `patch`, as\n\
                //! the `kstruct` command line has them, over the schemas compiled into `compiled.rs`.\n\n\
                mod compiled {\n    include!(\"compiled.rs\");\n}\n\n\
                fn main() -> std::process::ExitCode {\n    kstruct_cli::runner::main(&compiled::REGISTRY)\n}\n";
    write(&dir.join("Cargo.toml"), &manifest)?;
    write(&dir.join("src/main.rs"), main)?;
    write(&dir.join("src/compiled.rs"), code)
}

/// A TOML basic string.
fn toml_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
