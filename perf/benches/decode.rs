//! The decoding table of docs/performance.md, measured in one run: bytes in, bytes out.
//! Baseline: serde_json bytes -> Value -> bytes. Ceiling: sonic-rs parsing alone. Workloads: ../shared/perf's (~2.5 KB and
//! ~61 KB objects, ~20% unknown keys, defaults, int-or-string, preserve-unknown subtrees), the
//! corpus's 1,301 instances, and variants of the small objects with non-nullable nulls,
//! repeated keys, or an embedded resource.
//!
//! `cd perf && cargo bench --bench decode -- --warm-up-time 1 --measurement-time 3`
//! (criterion prints MiB/s; ratios are against the baseline's MiB/s in the same run).

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime};
use kstruct::decode::{Resolve, request_bytes};
use kstruct::{DecodeOptions, FieldValidation, RegisteredCrd};
use kstruct_perf::{CRD, objects, workloads};

const MODES: [(&str, FieldValidation); 2] = [("Ignore", FieldValidation::Ignore), ("Warn", FieldValidation::Warn)];

fn options(fv: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation: fv,
        ..DecodeOptions::default()
    }
}

fn group<'c>(c: &'c mut Criterion, name: &str, docs: &[&[u8]]) -> BenchmarkGroup<'c, WallTime> {
    let bytes: usize = docs.iter().map(|d| d.len()).sum();
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
    g
}

/// Decoding to a `Value` (by the `Value` path, the specification, and by the walk) and to
/// bytes (`request_bytes`), by `who`, for each document with its endpoint.
fn paths<'a, R: Resolve + ?Sized + 'a>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    who: &str,
    docs: &[(&'a R, &'a [u8])],
    value_path: bool,
) {
    for (mode, fv) in MODES {
        let opts = options(fv);
        if value_path {
            g.bench_function(format!("{who}: decode by the Value path, {mode}"), |b| {
                b.iter(|| {
                    for (r, d) in docs {
                        black_box(kstruct::decode::request_by_value(*r, d, &opts, None).unwrap());
                    }
                })
            });
            g.bench_function(format!("{who}: decode (the walk to a Value), {mode}"), |b| {
                b.iter(|| {
                    for (r, d) in docs {
                        black_box(kstruct::decode::request(*r, d, &opts).unwrap());
                    }
                })
            });
        }
        let mut out = Vec::new();
        g.bench_function(format!("{who}: decode_bytes, {mode}"), |b| {
            b.iter(|| {
                for (r, d) in docs {
                    out.clear();
                    black_box(request_bytes(*r, d, &opts, None, &mut out).unwrap());
                }
            })
        });
    }
}

/// How many of `docs` the byte walk answers in `fv` (the rest take the `Value` path).
fn walked<R: Resolve + ?Sized>(docs: &[(&R, &[u8])], fv: FieldValidation) -> usize {
    let mut out = Vec::new();
    docs.iter()
        .filter(|(r, d)| kstruct::scan::try_request_bytes(*r, d, &options(fv), &mut out).is_some())
        .count()
}

fn workload(c: &mut Criterion, name: &str, docs: &[Vec<u8>]) {
    let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::from_str(CRD).unwrap()).unwrap();
    let interpreted = RegisteredCrd::new(crd);
    let compiled = workloads::REGISTRY.find("apps.example.com", "Workload").unwrap();
    let plain: Vec<&[u8]> = docs.iter().map(Vec::as_slice).collect();
    let by_interpreter: Vec<(&RegisteredCrd, &[u8])> = plain.iter().map(|d| (&interpreted, *d)).collect();
    let by_compiled: Vec<(&kstruct::compiled::CompiledCrd, &[u8])> = plain.iter().map(|d| (compiled, *d)).collect();
    for fv in [FieldValidation::Ignore, FieldValidation::Warn] {
        assert_eq!(
            walked(&by_compiled, fv),
            docs.len(),
            "the byte walk answers every document"
        );
    }
    let mut g = group(c, name, &plain);
    paths(&mut g, "interpreter", &by_interpreter, true);
    paths(&mut g, "compiled", &by_compiled, true);
    g.finish();
}

fn corpus(c: &mut Criterion) {
    let cases = kstruct_perf::corpus();
    let docs: Vec<(&RegisteredCrd, &[u8])> = cases.iter().map(|(r, d)| (&**r, d.as_slice())).collect();
    let plain: Vec<&[u8]> = docs.iter().map(|(_, d)| *d).collect();
    eprintln!(
        "corpus: {} instances, the byte walk answers {} (Ignore), {} (Warn)",
        docs.len(),
        walked(&docs, FieldValidation::Ignore),
        walked(&docs, FieldValidation::Warn)
    );
    let mut g = group(c, "corpus (1,301 instances)", &plain);
    paths(&mut g, "interpreter", &docs, true);
    g.finish();
}

/// The small objects with what the walk handles otherwise or leaves: non-nullable nulls,
/// repeated keys, an embedded resource (a schema variant with `spec.template`).
fn variants(c: &mut Criterion) {
    let small = objects("small.jsonl", 1_000);
    let mut crd: serde_json::Value = serde_json::from_str(CRD).unwrap();
    crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["template"] = serde_json::json!({
        "type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true});
    let embedding = RegisteredCrd::new(kstruct::schema::crd::CustomResourceDefinition::from_value(&crd).unwrap());
    let with = |f: &dyn Fn(&str) -> String| -> Vec<Vec<u8>> {
        small
            .iter()
            .map(|d| f(std::str::from_utf8(d).unwrap()).into_bytes())
            .collect()
    };
    // Every `paused`, `replicas` and `image` set to null: defaults replace the first two, the
    // third is dropped.
    let nulls = with(&|d| {
        let mut out = String::with_capacity(d.len());
        let mut rest = d;
        while let Some(at) = ["\"paused\":", "\"replicas\":", "\"image\":"]
            .iter()
            .filter_map(|k| rest.find(k).map(|i| (i, k.len())))
            .min()
        {
            let (i, n) = at;
            out.push_str(&rest[..i + n]);
            rest = &rest[i + n..];
            let end = if let Some(quoted) = rest.strip_prefix('"') {
                quoted.find('"').map_or(rest.len(), |e| e + 2)
            } else {
                rest.find([',', '}']).unwrap_or(rest.len())
            };
            out.push_str("null");
            rest = &rest[end..];
        }
        out.push_str(rest);
        out
    });
    let repeats = with(&|d| d.replacen("\"spec\":{", "\"spec\":{\"replicas\":7,\"paused\":true,", 1));
    let embedded = with(&|d| {
        d.replacen(
            "\"spec\":{",
            "\"spec\":{\"template\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":{\"a\":\"b\"}},\"spec\":{\"x\":1}},",
            1,
        )
    });
    for (name, docs) in [
        ("variants: non-nullable nulls (1,000 small objects)", &nulls),
        ("variants: repeated keys (1,000 small objects)", &repeats),
        ("variants: an embedded resource (1,000 small objects)", &embedded),
    ] {
        let pairs: Vec<(&RegisteredCrd, &[u8])> = docs.iter().map(|d| (&embedding, d.as_slice())).collect();
        let plain: Vec<&[u8]> = docs.iter().map(Vec::as_slice).collect();
        eprintln!(
            "{name}: the byte walk answers {} (Ignore), {} (Warn) of {}",
            walked(&pairs, FieldValidation::Ignore),
            walked(&pairs, FieldValidation::Warn),
            pairs.len()
        );
        let mut g = group(c, name, &plain);
        paths(&mut g, "interpreter", &pairs, true);
        g.finish();
    }
}

fn benches(c: &mut Criterion) {
    workload(c, "small objects (2,000 x ~2.5 KB)", &objects("small.jsonl", 2_000));
    workload(c, "large objects (100 x ~61 KB)", &objects("large.jsonl", 100));
    corpus(c);
    variants(c);
}

criterion_group!(decode, benches);
criterion_main!(decode);
