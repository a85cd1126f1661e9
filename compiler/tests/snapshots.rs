//! Snapshot tests of generated code: the example CRDs compile to exactly the committed files.
//! After a deliberate change to the generator, regenerate them with
//! `UPDATE_SNAPSHOTS=1 cargo test -p kstruct-compiler --test snapshots` and review the diff.

use std::path::Path;

fn check(name: &str, code: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, code).expect("write snapshot");
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    if want != code {
        let first = want
            .lines()
            .zip(code.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(code.lines().count()));
        panic!(
            "{name} differs from the generated code from line {} on; rerun with UPDATE_SNAPSHOTS=1 if the change is intended",
            first + 1
        );
    }
}

#[test]
fn example_crds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/crds");
    let mut config = kstruct_compiler::Config::new();
    config.crd_file(dir.join("backups.example.com.yaml"));
    let code = config.generate().expect("generates");
    // Paths in the header are the caller's: keep the snapshot independent of the checkout.
    let code = code.replace(&dir.display().to_string(), "examples/crds");
    check("backups.rs", &code);
}

#[test]
fn bare_schema() {
    let schema = kstruct::schema::convert::from_text(
        r#"
type: object
properties:
  spec:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    properties:
      replicas: {type: integer, default: 1}
      selector:
        type: object
        additionalProperties: {type: string}
"#,
    )
    .expect("schema")
    .expect("not null");
    let code = kstruct_compiler::Config::new()
        .schema("widget-spec", &schema)
        .generate()
        .expect("generates");
    check("bare.rs", &code);
}

#[test]
fn generation_is_deterministic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/crds");
    let a = kstruct_compiler::Config::new()
        .crd_dir(&dir)
        .generate()
        .expect("generates");
    let b = kstruct_compiler::Config::new()
        .crd_dir(&dir)
        .generate()
        .expect("generates");
    assert_eq!(a, b);
}
