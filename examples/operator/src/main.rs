//! An operator's view of its custom resources, without a cluster: each sample manifest goes
//! through the API server's write path (fieldValidation Warn, then Strict) with code that
//! `build.rs` compiled from the CRDs, and the results print as the API server would answer.
//!
//! Objects of the operator's own kinds are then read into its Rust types: the whole loop,
//! types -> CRD YAML -> compiled decoders -> typed objects.
//!
//! Run it with `cargo run -p kstruct-example-operator` (optionally with manifest files);
//! `cargo run -p kstruct-example-operator -- write-crds` rewrites `crds/` from the types.

use std::process::ExitCode;

use kstruct::{DecodeOptions, FieldValidation, Pipeline};
use kstruct_example_operator::crds;
use kstruct_example_operator::types::MaintenanceNightlyJob;

fn write_crds() -> ExitCode {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crds");
    let files = match kstruct_example_operator::crd_files() {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for (name, yaml) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, yaml) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let mut paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.first().map(String::as_str) == Some("write-crds") {
        return write_crds();
    }
    if paths.is_empty() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/manifests");
        let mut found: Vec<String> = std::fs::read_dir(dir)
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .map(|e| e.path().display().to_string())
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        paths = found;
    }
    let mut failed = false;
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        for doc in kstruct::input::split_documents(&bytes, path) {
            let body = match doc.body {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{e}");
                    failed = true;
                    continue;
                }
            };
            let name = std::path::Path::new(path)
                .file_name()
                .map_or(path.clone(), |n| n.to_string_lossy().into_owned());
            println!("== {name}:{}", doc.line);
            // A create, as `kubectl create` sends it: decoded, then validated against the
            // schema (compiled too) and the CRD's scope and subresources.
            let warn = DecodeOptions {
                field_validation: FieldValidation::Warn,
                format: doc.format,
                validate: true,
                ..DecodeOptions::default()
            };
            // REGISTRY dispatches on apiVersion and kind, like the API server's endpoints.
            match crds::REGISTRY.decode(body, &warn) {
                Ok(decoded) => {
                    for w in &decoded.warnings {
                        println!("Warning: {w}");
                    }
                    println!("stored: {}", kstruct::schema::go::marshal_json(&decoded.object));
                    // The operator's own kind, read into its Rust type.
                    if decoded.object["kind"] == "MaintenanceNightlyJob" {
                        match serde_json::from_value::<MaintenanceNightlyJob>(decoded.object.clone()) {
                            Ok(job) => println!(
                                "typed: {} runs {:?} on {} machine(s) as {}:{}, timeout {} s",
                                job.metadata.name.as_deref().unwrap_or("?"),
                                job.spec.shell.trim(),
                                job.spec.machines.len(),
                                job.spec.run_as.user,
                                job.spec.run_as.group,
                                job.spec.timeout_seconds
                            ),
                            Err(e) => println!("typed: does not read as a MaintenanceNightlyJob: {e}"),
                        }
                    }
                }
                Err(e) => {
                    println!("Error from server ({}): {e}", e.status().reason);
                    failed = true;
                }
            }
            let strict = DecodeOptions {
                field_validation: FieldValidation::Strict,
                ..warn
            };
            match crds::REGISTRY.decode(body, &strict) {
                Ok(_) => println!("with fieldValidation=Strict: accepted"),
                Err(e) => println!(
                    "with fieldValidation=Strict: Error from server ({}): {e}",
                    e.status().reason
                ),
            }
        }
    }
    // One kind and version on its own: the generated type is a `kstruct::Pipeline`, a
    // drop-in for `kstruct::Interpreter`.
    let job = crds::operations_example_com::v1::MaintenanceNightlyJob;
    let mut object = kstruct::json::decode(br#"{"spec": {"shell": "true", "extra": 1}}"#)
        .expect("valid JSON")
        .value;
    let pruned = job.prune(
        &mut object,
        kstruct::PruneOptions {
            resource_root: true,
            track_unknown_fields: true,
        },
    );
    job.default(&mut object);
    println!(
        "== MaintenanceNightlyJob alone: pruned {:?}, defaulted to {}",
        pruned.unknown_fields,
        kstruct::schema::go::marshal_json(&object)
    );
    if failed { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
