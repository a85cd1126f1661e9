//! `crds/*.yaml` is what the types in `src/types.rs` define: the YAML `build.rs` compiles and
//! users `kubectl apply` cannot drift from the Rust types.

#[test]
fn checked_in_crds_are_written_from_the_types() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crds");
    for (name, yaml) in kstruct_example_operator::crd_files().expect("the types' CRDs") {
        let path = dir.join(&name);
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == yaml,
            "{} is stale: run `cargo run -p kstruct-example-operator -- write-crds`",
            path.display()
        );
    }
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(
        files,
        kstruct_example_operator::crd_files().unwrap().len(),
        "a CRD file no type writes"
    );
}

#[test]
fn the_crds_pass_the_structural_checks() {
    use kstruct::schema::field::Path;
    for (name, yaml) in kstruct_example_operator::crd_files().unwrap() {
        let doc = kstruct::schema::yaml::to_json_strict(&yaml).expect("YAML");
        let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&doc).expect("a CRD");
        for v in &crd.versions {
            let schema = v.structural().expect("converts").expect("has a schema");
            let errors = kstruct::schema::validation::validate_structural(&Path::nil(), &schema);
            assert!(errors.is_empty(), "{name} {}: {errors:?}", v.name);
        }
    }
}
