//! Issue 14's table, measured in one run: bytes in, bytes out, on ../shared/perf's workload
//! (~2.5 KB and ~61 KB objects, ~20% unknown keys, defaults, int-or-string, preserve-unknown
//! subtrees). Baseline: serde_json bytes -> Value -> bytes. Ceiling: sonic-rs parsing alone.
//!
//! `cd perf && cargo bench` (criterion prints MB/s; ratios are against the baseline's MB/s).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kstruct::{DecodeOptions, FieldValidation, Pipeline, RegisteredCrd};
use kstruct_perf::{CRD, objects, workloads};

fn workload(c: &mut Criterion, name: &str, docs: &[Vec<u8>]) {
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.bench_function("baseline: serde_json bytes -> Value -> bytes", |b| {
        b.iter(|| {
            for d in docs {
                let v: serde_json::Value = serde_json::from_slice(d).unwrap();
                black_box(serde_json::to_vec(&v).unwrap());
            }
        })
    });
    g.bench_function("ceiling: sonic-rs parse only", |b| {
        b.iter(|| {
            for d in docs {
                black_box(sonic_rs::from_slice::<sonic_rs::Value>(d).unwrap());
            }
        })
    });
    let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::from_str(CRD).unwrap()).unwrap();
    let interpreted = RegisteredCrd::new(crd);
    let compiled = workloads::REGISTRY.find("apps.example.com", "Workload").unwrap();
    let compiled_v1: &dyn Pipeline = compiled.version("v1").unwrap().unwrap();
    for (mode, fv) in [("Ignore", FieldValidation::Ignore), ("Warn", FieldValidation::Warn)] {
        let opts = DecodeOptions {
            field_validation: fv,
            ..DecodeOptions::default()
        };
        g.bench_function(format!("interpreter: decode + print, {mode}"), |b| {
            b.iter(|| {
                for d in docs {
                    let o = interpreted.decode(d, &opts).unwrap();
                    black_box(kstruct::schema::go::marshal_json(&o.object));
                }
            })
        });
        g.bench_function(format!("compiled: decode + print, {mode}"), |b| {
            b.iter(|| {
                for d in docs {
                    let o = compiled.decode(d, &opts).unwrap();
                    black_box(kstruct::schema::go::marshal_json(&o.object));
                }
            })
        });
        let mut out = Vec::new();
        for d in docs {
            out.clear();
            assert!(
                kstruct::scan::try_request_bytes(&interpreted, d, &opts, &mut out).is_some(),
                "the byte walk answers every document of the workload"
            );
        }
        g.bench_function(format!("walk (interpreter's plan): decode_bytes, {mode}"), |b| {
            b.iter(|| {
                for d in docs {
                    out.clear();
                    black_box(kstruct::decode::request_bytes(&interpreted, d, &opts, None, &mut out).unwrap());
                }
            })
        });
        g.bench_function(format!("compiled: decode_bytes, {mode}"), |b| {
            b.iter(|| {
                for d in docs {
                    out.clear();
                    black_box(compiled_v1.decode_bytes(d, &opts, &mut out).unwrap());
                }
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    workload(c, "small objects (2,000 x ~2.5 KB)", &objects("small.jsonl", 2_000));
    workload(c, "large objects (100 x ~61 KB)", &objects("large.jsonl", 100));
}

criterion_group!(decode, benches);
criterion_main!(decode);
