//! The interpreter against baselines, in one run: on the corpus instances (when ../shared is
//! present) and on a large generated object.
//!
//! Baselines: `serde_json` parsing and printing a value (the floor any JSON-in/JSON-out tool
//! pays), and kstruct's own JSON decoder and Go-compatible printer. Measured: prune, drop nulls,
//! default, and the three together, on parsed values; bytes in, bytes out; and the API server's
//! whole write path (`decode`, fieldValidation Warn and Ignore), bytes in, bytes out.
//!
//! `cargo bench -p kstruct --bench interpreter`

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kstruct::DecodeExt;
use kstruct::{DecodeOptions, FieldValidation, Interpreter, Pipeline, PruneOptions};
use serde_json::{Value, json};

/// One object and the pipeline its CRD version gives it.
struct Case {
    pipeline: Arc<Interpreter>,
    bytes: Vec<u8>,
    value: Value,
}

fn shared() -> Option<PathBuf> {
    let dir = match std::env::var_os("KSTRUCT_SHARED") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"),
    };
    dir.join("conformance/corpus-prune.jsonl").is_file().then_some(dir)
}

/// Every corpus instance with its CRD version's pipeline.
fn corpus(shared: &Path) -> Vec<Case> {
    let mut registry = kstruct::Registry::new();
    let mut loaded = std::collections::HashSet::new();
    let text = std::fs::read_to_string(shared.join("conformance/corpus-prune.jsonl")).unwrap();
    let mut cases = Vec::new();
    for line in text.lines() {
        let line: Value = serde_json::from_str(line).unwrap();
        let crd = line["crd"].as_str().unwrap();
        if loaded.insert(crd.to_string()) {
            registry.load_file(&shared.join("corpus/crds").join(crd)).unwrap();
        }
        let c = registry
            .find(line["group"].as_str().unwrap(), line["kind"].as_str().unwrap())
            .unwrap();
        let pipeline = c.version(line["version"].as_str().unwrap()).unwrap().unwrap().clone();
        let value = line["input"].clone();
        cases.push(Case {
            pipeline,
            bytes: serde_json::to_vec(&value).unwrap(),
            value,
        });
    }
    cases
}

/// A large object: 5,000 list entries and 5,000 map entries, with unknown fields and nulls to
/// remove and defaults to fill in at every entry.
fn large() -> Vec<Case> {
    let crd_text = include_str!("../../examples/crds/backups.example.com.yaml");
    let mut registry = kstruct::Registry::new();
    registry.add_yaml(crd_text, "backups.example.com.yaml").unwrap();
    let pipeline = registry
        .find("example.com", "Backup")
        .unwrap()
        .version("v1")
        .unwrap()
        .unwrap()
        .clone();
    let targets: Vec<Value> = (0..5000)
        .map(|i| json!({"name": format!("t{i}"), "paths": ["/a", "/b"], "level": i, "compression": null}))
        .collect();
    let labels: serde_json::Map<String, Value> = (0..5000).map(|i| (format!("k{i}"), json!(format!("v{i}")))).collect();
    let value = json!({
        "apiVersion": "example.com/v1", "kind": "Backup", "metadata": {"name": "big"},
        "spec": {"schedule": "0 3 * * *", "targets": targets, "extraLabels": labels, "unknown": {"x": 1}},
    });
    vec![Case {
        pipeline,
        bytes: serde_json::to_vec(&value).unwrap(),
        value,
    }]
}

fn run_all(cases: &[Case], f: &mut impl FnMut(&Case, &mut Value)) {
    for c in cases {
        let mut v = c.value.clone();
        f(c, &mut v);
        black_box(&v);
    }
}

fn bench_workload(c: &mut Criterion, name: &str, cases: &[Case]) {
    let bytes: usize = cases.iter().map(|c| c.bytes.len()).sum();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(20);

    g.bench_function("baseline: serde_json parse+print", |b| {
        b.iter(|| {
            for c in cases {
                let v: Value = serde_json::from_slice(&c.bytes).unwrap();
                black_box(serde_json::to_vec(&v).unwrap());
            }
        })
    });
    g.bench_function("baseline: clone values", |b| b.iter(|| run_all(cases, &mut |_, _| {})));
    g.bench_function("kstruct json decode+print", |b| {
        b.iter(|| {
            for c in cases {
                let v = kstruct::json::decode(&c.bytes).unwrap().value;
                black_box(kstruct::schema::go::marshal_json(&v));
            }
        })
    });
    let root = PruneOptions {
        resource_root: true,
        track_unknown_fields: false,
    };
    let tracked = PruneOptions {
        resource_root: true,
        track_unknown_fields: true,
    };
    g.bench_function("interpreter prune", |b| {
        b.iter(|| run_all(cases, &mut |c, v| drop(c.pipeline.prune(v, root))))
    });
    g.bench_function("interpreter prune (tracking paths)", |b| {
        b.iter(|| run_all(cases, &mut |c, v| drop(c.pipeline.prune(v, tracked))))
    });
    g.bench_function("interpreter prune+nulls+default", |b| {
        b.iter(|| {
            run_all(cases, &mut |c, v| {
                c.pipeline.prune(v, root);
                c.pipeline.prune_nulls(v);
                c.pipeline.default(v);
            })
        })
    });
    g.bench_function("bytes -> prune+nulls+default -> bytes", |b| {
        b.iter(|| {
            for c in cases {
                let mut v = kstruct::json::decode(&c.bytes).unwrap().value;
                c.pipeline.prune(&mut v, root);
                c.pipeline.prune_nulls(&mut v);
                c.pipeline.default(&mut v);
                black_box(kstruct::schema::go::marshal_json(&v));
            }
        })
    });
    for (label, field_validation) in [("Warn", FieldValidation::Warn), ("Ignore", FieldValidation::Ignore)] {
        let options = DecodeOptions {
            field_validation,
            ..DecodeOptions::default()
        };
        g.bench_function(format!("decode {label}: bytes -> object -> bytes"), |b| {
            b.iter(|| {
                for c in cases {
                    let d = c.pipeline.decode(&c.bytes, &options).unwrap();
                    black_box(kstruct::schema::go::marshal_json(&d.object));
                }
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    match shared() {
        Some(dir) => bench_workload(c, "corpus (1301 instances)", &corpus(&dir)),
        None => eprintln!("*** SKIPPED the corpus workload: ../shared not found; set KSTRUCT_SHARED ***"),
    }
    bench_workload(c, "large object (5000 list + 5000 map entries)", &large());
}

criterion_group!(interpreter, benches);
criterion_main!(interpreter);
