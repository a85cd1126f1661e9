//! Compiled code against the interpreter and a serde_json baseline, in one run: on the corpus
//! instances (their CRDs compiled by this crate's build.rs, when ../shared is present) and on a
//! large object of the example Backup CRD.
//!
//! `cargo bench -p kstruct-tests --bench compiled`

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kstruct::DecodeExt;
use kstruct::{DecodeOptions, FieldValidation, Pipeline, PruneOptions};
use serde_json::Value;

/// One object with its CRD version's interpreted and compiled pipelines.
struct Case {
    interpreted: Box<dyn Pipeline>,
    compiled: &'static dyn Pipeline,
    bytes: Vec<u8>,
    value: Value,
}

fn corpus() -> Vec<Case> {
    let Some(shared) = kstruct_tests::shared_dir() else {
        return Vec::new();
    };
    let mut crds = kstruct_tests::CrdCache::new(&shared);
    let mut cases = Vec::new();
    for line in kstruct_tests::read_jsonl(&shared.join("conformance/corpus-prune.jsonl")) {
        let file = line["crd"].as_str().unwrap();
        let version = line["version"].as_str().unwrap();
        let crd = crds.get(file).clone();
        let compiled = kstruct_tests::compiled::corpus(file)
            .and_then(|r| r.find(&crd.group, &crd.kind))
            .and_then(|c| c.version(version))
            .unwrap()
            .unwrap();
        let registered = kstruct::RegisteredCrd::new(crd);
        let interpreted = registered.version(version).unwrap().unwrap().as_ref().clone();
        let value = line["input"].clone();
        cases.push(Case {
            interpreted: Box::new(interpreted),
            compiled,
            bytes: serde_json::to_vec(&value).unwrap(),
            value,
        });
    }
    cases
}

fn large() -> Vec<Case> {
    let mut registry = kstruct::Registry::new();
    registry
        .add_yaml(include_str!("../../examples/crds/backups.example.com.yaml"), "backups")
        .unwrap();
    let interpreted = registry
        .find("example.com", "Backup")
        .unwrap()
        .version("v1")
        .unwrap()
        .unwrap();
    let value = kstruct_tests::large_backup();
    vec![Case {
        interpreted: Box::new(interpreted.as_ref().clone()),
        compiled: &kstruct_tests::compiled::own::example_com::v1::Backup,
        bytes: serde_json::to_vec(&value).unwrap(),
        value,
    }]
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
    g.bench_function("baseline: clone values", |b| {
        b.iter(|| {
            for c in cases {
                black_box(c.value.clone());
            }
        })
    });
    let root = PruneOptions {
        resource_root: true,
        track_unknown_fields: false,
    };
    type Pick = fn(&Case) -> &dyn Pipeline;
    let which: [(&str, Pick); 2] = [("interpreter", |c| &*c.interpreted), ("compiled", |c| c.compiled)];
    for (who, pick) in which {
        g.bench_function(format!("{who}: prune+nulls+default"), |b| {
            b.iter(|| {
                for c in cases {
                    let p = pick(c);
                    let mut v = c.value.clone();
                    p.prune(&mut v, root);
                    p.prune_nulls(&mut v);
                    p.default(&mut v);
                    black_box(v);
                }
            })
        });
        g.bench_function(format!("{who}: prune, tracking paths"), |b| {
            b.iter(|| {
                for c in cases {
                    let mut v = c.value.clone();
                    let tracked = PruneOptions {
                        resource_root: true,
                        track_unknown_fields: true,
                    };
                    black_box(pick(c).prune(&mut v, tracked));
                    black_box(v);
                }
            })
        });
        g.bench_function(format!("{who}: validate"), |b| {
            b.iter(|| {
                for c in cases {
                    black_box(pick(c).validate(&c.value));
                }
            })
        });
        let warn = DecodeOptions {
            field_validation: FieldValidation::Warn,
            ..DecodeOptions::default()
        };
        g.bench_function(format!("{who}: decode Warn, bytes -> object -> bytes"), |b| {
            b.iter(|| {
                for c in cases {
                    let d = pick(c).decode(&c.bytes, &warn).unwrap();
                    black_box(kstruct::schema::go::marshal_json(&d.object));
                }
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    let corpus = corpus();
    if corpus.is_empty() {
        eprintln!("*** SKIPPED the corpus workload: ../shared not found; set KSTRUCT_SHARED ***");
    } else {
        bench_workload(c, "compiled: corpus (1301 instances)", &corpus);
    }
    bench_workload(c, "compiled: large object (5000 list + 5000 map entries)", &large());
}

criterion_group!(compiled, benches);
criterion_main!(compiled);
