//! Prints kube's CRD for `WorkBatch` (its schema from kstruct), checks it as `kstruct lint`
//! does, then decodes a manifest with a typo as the API server would (fieldValidation Warn)
//! and reads the stored object into kube's `WorkBatch`.
//!
//! Run it with `cargo run -p kstruct-example-kube-operator`.

use std::process::ExitCode;

use kstruct::{DecodeOptions, Registry};
use kstruct_example_kube_operator::WorkBatch;
use kube::CustomResourceExt;

const MANIFEST: &str = r#"
apiVersion: batch.example.com/v1
kind: WorkBatch
metadata:
  name: thumbnails
spec:
  source: {bucket: photos, prefix: "2026/"}
  retry: {backoff: {attempts: 3, initialSeconds: 5}}
  paralelism: 4
  template:
    metadata: {labels: {app: thumbnailer}}
    spec:
      containers:
      - name: worker
        image: thumbnailer:2
"#;

fn main() -> ExitCode {
    let crd = serde_json::to_value(WorkBatch::crd()).expect("a CRD serializes");
    let yaml = kstruct::schema::yaml::emit(&crd);
    println!("== kube's CRD: {} bytes of YAML", yaml.len());
    let mut registry = Registry::new();
    if let Err(e) = registry.add_yaml(&yaml, "WorkBatch::crd()") {
        eprintln!("the CRD is not usable: {e}");
        return ExitCode::from(1);
    }
    // What the API server checks when the CRD is created (`kstruct lint`).
    match kstruct::lint::lint_crd(&crd) {
        Ok(errors) if errors.is_empty() => println!("== kstruct lint: the API server accepts the CRD"),
        Ok(errors) => {
            for e in &errors {
                println!("{e}");
            }
            eprintln!("the API server would refuse the CRD");
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("the CRD does not decode: {e}");
            return ExitCode::from(1);
        }
    }

    match registry.decode(MANIFEST.as_bytes(), &DecodeOptions::default()) {
        Ok(decoded) => {
            for w in &decoded.warnings {
                println!("Warning: {w}");
            }
            println!("stored: {}", kstruct::schema::go::marshal_json(&decoded.object));
            match serde_json::from_value::<WorkBatch>(decoded.object) {
                Ok(batch) => println!(
                    "typed: {} runs {} pod(s) at once from {:?}, retry {:?}",
                    batch.metadata.name.as_deref().unwrap_or("?"),
                    batch.spec.parallelism,
                    batch.spec.source,
                    batch.spec.retry
                ),
                Err(e) => {
                    println!("typed: {e}");
                    return ExitCode::from(1);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            println!("Error from server: {e}");
            ExitCode::from(1)
        }
    }
}
