//! Compiles the schemas the differential tests run through generated code:
//!
//! - our own feature-dense schemas (`schemas/*.yaml`) and the example CRDs;
//! - when `../shared` is present: the corpus CRDs the conformance lines use (every CRD file
//!   with `KSTRUCT_CORPUS=all`), in as few files as possible (a file cannot hold two CRDs of
//!   one group and kind), and the upstream test vectors' schemas, each a bare schema.
//!
//! `index.rs` in `OUT_DIR` ties them together for `kstruct_tests::compiled`.

use std::collections::{BTreeSet, HashSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kstruct::schema::crd::{self, CustomResourceDefinition};
use serde_json::Value;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-env-changed=KSTRUCT_SHARED");
    println!("cargo:rerun-if-env-changed=KSTRUCT_CORPUS");
    let mut index = String::new();

    // Our own schemas, as bare schemas named by file stem; the example CRDs.
    let mut own = kstruct_compiler::Config::new();
    own.file_name("own").out_dir(&out);
    let dir = manifest.join("schemas");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/schemas")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    for f in files {
        println!("cargo:rerun-if-changed={}", f.display());
        let text = std::fs::read_to_string(&f).expect("schema file");
        let schema = kstruct::schema::convert::from_text(&text).expect("our schema converts");
        let stem = f.file_stem().and_then(|s| s.to_str()).expect("file name");
        own.schema_opt(stem, schema.as_ref());
    }
    own.crd_dir(manifest.join("../examples/crds"));
    // The CRDs of the upstream field-validation cases (tests/field_validation.rs).
    let noxu = manifest.join("testdata/noxu-crds.yaml");
    println!("cargo:rerun-if-changed={}", noxu.display());
    own.crd_file(&noxu);
    own.compile().expect("compiling our schemas");
    index.push_str("/// Our own schemas and the example CRDs.\npub mod own {\n    include!(concat!(env!(\"OUT_DIR\"), \"/own.rs\"));\n}\n");

    let shared = match std::env::var_os("KSTRUCT_SHARED") {
        Some(d) => Some(PathBuf::from(d)),
        None => Some(manifest.join("../../shared")),
    }
    .filter(|d| d.join("conformance").is_dir());
    let (corpus, upstream) = match &shared {
        Some(shared) => (corpus(shared, &out, &mut index), upstream(shared, &out, &mut index)),
        None => (Vec::new(), false),
    };
    index.push_str("/// Corpus CRD files (as the conformance lines name them) and their registries.\n");
    index.push_str("pub static CORPUS: &[(&str, &::kstruct::compiled::Registry)] = &[\n");
    for (file, module) in &corpus {
        let _ = writeln!(index, "    ({file:?}, &{module}::REGISTRY),");
    }
    index.push_str("];\n");
    if !upstream {
        index.push_str("/// The upstream vectors' schemas (not compiled: ../shared is absent).\npub static UPSTREAM: Option<&::kstruct::compiled::Registry> = None;\n");
    }
    std::fs::write(out.join("index.rs"), index).expect("index.rs");
}

/// The groups and kinds in one generated file, and the CRD files they come from.
type Batch = (HashSet<(String, String)>, Vec<String>);

/// Compiles the corpus CRD files; returns (file, module) pairs.
fn corpus(shared: &Path, out: &Path, index: &mut String) -> Vec<(String, String)> {
    let crds = shared.join("corpus/crds");
    let all = std::env::var("KSTRUCT_CORPUS").is_ok_and(|v| v == "all");
    let mut wanted = BTreeSet::new();
    if all {
        for project in std::fs::read_dir(&crds).expect("corpus/crds") {
            let project = project.expect("entry").path();
            if project.is_dir() {
                for f in std::fs::read_dir(&project).expect("project") {
                    let f = f.expect("entry").path();
                    let rel = f
                        .strip_prefix(&crds)
                        .expect("under crds")
                        .to_string_lossy()
                        .into_owned();
                    wanted.insert(rel);
                }
            }
        }
    } else {
        for suite in [
            "corpus-prune.jsonl",
            "corpus-default.jsonl",
            "corpus-decode.jsonl",
            "corpus-decode-nonstrict.jsonl",
        ] {
            let text = std::fs::read_to_string(shared.join("conformance").join(suite)).expect("corpus suite");
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let v: Value = serde_json::from_str(line).expect("JSON line");
                if let Some(f) = v["crd"].as_str() {
                    wanted.insert(f.to_string());
                }
            }
        }
    }
    // Files go into the first batch where their groups and kinds are new.
    let mut batches: Vec<Batch> = Vec::new();
    for rel in &wanted {
        let text = std::fs::read(crds.join(rel)).expect("corpus CRD");
        let mut keys = Vec::new();
        for doc in kstruct::input::read_documents(&text, rel) {
            let Ok(v) = doc.value else { continue };
            if crd::is_crd(&v)
                && let Ok(c) = CustomResourceDefinition::from_value(&v)
            {
                keys.push((c.group, c.kind));
            }
        }
        let b = match batches
            .iter()
            .position(|(seen, _)| keys.iter().all(|k| !seen.contains(k)))
        {
            Some(b) => b,
            None => {
                batches.push(Default::default());
                batches.len() - 1
            }
        };
        batches[b].0.extend(keys);
        batches[b].1.push(rel.clone());
    }
    let mut files = Vec::new();
    for (i, (_, rels)) in batches.iter().enumerate() {
        let name = format!("corpus_{i}");
        let mut config = kstruct_compiler::Config::new();
        config.file_name(&name).out_dir(out).emit_rerun_if_changed(false);
        for rel in rels {
            config.crd_file(crds.join(rel));
            files.push((rel.clone(), name.clone()));
        }
        config.compile().expect("compiling corpus CRDs");
        let _ = writeln!(
            index,
            "/// Corpus CRDs, part {i}.\npub mod {name} {{\n    include!(concat!(env!(\"OUT_DIR\"), \"/{name}.rs\"));\n}}"
        );
    }
    files.sort();
    files
}

/// Compiles the schemas of the upstream pruning and defaulting vectors as bare schemas named
/// `<file>-<index>` (as given: the upstream tests use them without serve-time pruning).
fn upstream(shared: &Path, out: &Path, index: &mut String) -> bool {
    let mut config = kstruct_compiler::Config::new();
    config
        .file_name("upstream")
        .out_dir(out)
        .prune_defaults(false)
        .emit_rerun_if_changed(false);
    for file in ["pruning.jsonl", "defaulting.jsonl"] {
        let text = std::fs::read_to_string(shared.join("conformance/upstream").join(file)).expect("upstream vectors");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: Value = serde_json::from_str(line).expect("JSON line");
            let schema = match v["case"].get("schema") {
                Some(Value::Object(o)) => o
                    .get("$structural")
                    .map(|s| kstruct::schema::convert::from_value(s).expect("upstream schema converts")),
                _ => None,
            }
            .flatten();
            let stem = file.trim_end_matches(".jsonl");
            let name = format!("{stem}-{}-{}", v["test"].as_str().unwrap_or("?"), v["index"]);
            config.schema_opt(&name, schema.as_ref());
        }
    }
    config.compile().expect("compiling upstream schemas");
    index.push_str("/// The upstream vectors' schemas, by `<file>-<test>-<index>`.\npub mod upstream {\n    include!(concat!(env!(\"OUT_DIR\"), \"/upstream.rs\"));\n}\n/// The upstream vectors' registry.\npub static UPSTREAM: Option<&::kstruct::compiled::Registry> = Some(&upstream::REGISTRY);\n");
    true
}
