//! Validation on create against hostile input, one class at a time, each at three sizes, so
//! that growth shows: many keys, many duplicate keys, long strings, wide unions. Each is
//! measured as the whole create (decode + validate, bytes in) and, as the baseline in the same
//! run, decoding alone; per-byte times that stay flat mean linear work.
//!
//! `cargo bench -p kstruct --bench validation`

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use kstruct::{DecodeOptions, FieldValidation, RegisteredCrd, Registry};

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              labels: {type: object, maxProperties: 1000000, additionalProperties: {type: string, maxLength: 64, pattern: '^[a-z0-9-]*$'}}
              text: {type: string, maxLength: 10000000, pattern: '^[a-z ]*$'}
              items:
                type: array
                x-kubernetes-list-type: set
                items: {x-kubernetes-int-or-string: true, anyOf: [{type: integer, minimum: 0}, {type: string, pattern: '^[a-z]+$'}]}
"#;

fn crd() -> RegisteredCrd {
    let mut r = Registry::new();
    r.add_yaml(CRD, "bench").unwrap();
    r.crds()[0].clone()
}

fn body(spec: &str) -> Vec<u8> {
    format!(r#"{{"apiVersion":"example.com/v1","kind":"Widget","metadata":{{"name":"w"}},"spec":{spec}}}"#).into_bytes()
}

/// The four classes, each at size `n`.
fn classes(n: usize) -> Vec<(&'static str, Vec<u8>)> {
    let keys: Vec<String> = (0..n).map(|i| format!(r#""k{i}":"v-{i}""#)).collect();
    let dups: Vec<String> = (0..n).map(|i| format!(r#""k":"v{i}""#)).collect();
    let items: Vec<String> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                i.to_string()
            } else {
                format!(r#""s{}""#, "x".repeat(i % 7 + 1))
            }
        })
        .collect();
    vec![
        ("many keys", body(&format!(r#"{{"labels":{{{}}}}}"#, keys.join(",")))),
        (
            "many duplicates",
            body(&format!(r#"{{"labels":{{{}}}}}"#, dups.join(","))),
        ),
        (
            "long string",
            body(&format!(r#"{{"text":"{}"}}"#, "ab ".repeat(n * 10))),
        ),
        (
            "wide union list",
            body(&format!(r#"{{"items":[{}]}}"#, items.join(","))),
        ),
    ]
}

fn validation(c: &mut Criterion) {
    let crd = crd();
    let options = |validate| DecodeOptions {
        field_validation: FieldValidation::Warn,
        validate,
        ..DecodeOptions::default()
    };
    for n in [1_000, 10_000, 100_000] {
        for (class, bytes) in classes(n) {
            let mut group = c.benchmark_group(format!("validation/{class}"));
            group.throughput(Throughput::Bytes(bytes.len() as u64));
            group.sample_size(10);
            group.bench_with_input(BenchmarkId::new("decode", n), &bytes, |b, bytes| {
                b.iter(|| black_box(crd.decode(bytes, &options(false))))
            });
            group.bench_with_input(BenchmarkId::new("decode + validate", n), &bytes, |b, bytes| {
                b.iter(|| black_box(crd.decode(bytes, &options(true))))
            });
            group.finish();
        }
    }
}

criterion_group!(benches, validation);
criterion_main!(benches);
