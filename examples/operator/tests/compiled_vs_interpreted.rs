//! The example's compiled CRDs decode its manifests exactly as the interpreter does.

use kstruct::{DecodeOptions, FieldValidation, Registry};
use kstruct_example_operator::crds;

#[test]
fn compiled_decoding_equals_interpreted_decoding() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut interpreted = Registry::new();
    for crd in [
        "../crds/backups.example.com.yaml",
        "crds/maintenancenightlyjobs.operations.example.com.yaml",
    ] {
        interpreted.load_file(&std::path::Path::new(root).join(crd)).unwrap();
    }
    let mut documents = 0;
    for entry in std::fs::read_dir(std::path::Path::new(root).join("manifests")).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        for doc in kstruct::input::split_documents(&bytes, &path.display().to_string()) {
            let body = doc.body.unwrap();
            let modes = [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore];
            for (mode, validate) in modes.into_iter().flat_map(|m| [(m, false), (m, true)]) {
                let options = DecodeOptions {
                    field_validation: mode,
                    format: doc.format,
                    validate,
                    ..DecodeOptions::default()
                };
                let compiled = crds::REGISTRY.decode(body, &options).map_err(|e| e.to_string());
                let expected = interpreted.decode(body, &options).map_err(|e| e.to_string());
                assert_eq!(
                    compiled,
                    expected,
                    "{}:{} {mode:?} validate {validate}",
                    path.display(),
                    doc.line
                );
            }
            documents += 1;
        }
    }
    assert!(documents >= 6, "the sample manifests are there");
}
