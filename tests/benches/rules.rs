//! CEL rules evaluated on the corpus instances whose schemas have rules, interpreted: rules
//! per second (a rule counts once per value it checks), against OpenAPI value validation of
//! the same objects in the same run.
//!
//! `cargo bench -p kstruct-tests --bench rules`

// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kstruct::rules::{RUNTIME_COST_BUDGET, has_rules, validate_rules_update};
use kstruct::schema::Structural;
use serde_json::Value;

fn corpus() -> Vec<(Arc<Structural>, Value)> {
    let Some(shared) = kstruct_tests::shared_dir() else {
        return Vec::new();
    };
    let mut crds = kstruct_tests::CrdCache::new(&shared);
    let mut cases = Vec::new();
    for line in kstruct_tests::read_jsonl(&shared.join("conformance/corpus-validate.jsonl")) {
        let file = line["crd"].as_str().unwrap();
        let version = line["version"].as_str().unwrap();
        let Some(schema) = crds.schema(file, version, true) else {
            continue;
        };
        if has_rules(&schema) {
            cases.push((schema, line["input"].clone()));
        }
    }
    cases
}

fn rules(c: &mut Criterion) {
    let cases = corpus();
    if cases.is_empty() {
        kstruct_tests::announce("rules bench: ../shared is absent, nothing to measure");
        return;
    }
    let evaluated: usize = cases
        .iter()
        .map(|(s, v)| validate_rules_update(s, v, None, RUNTIME_COST_BUDGET).evaluated)
        .sum();
    kstruct_tests::announce(&format!(
        "rules bench: {} objects, {evaluated} rule evaluations per pass",
        cases.len()
    ));
    let mut g = c.benchmark_group("corpus");
    g.throughput(Throughput::Elements(evaluated as u64));
    g.bench_function("rules", |b| {
        b.iter(|| {
            for (s, v) in &cases {
                black_box(validate_rules_update(s, v, None, RUNTIME_COST_BUDGET));
            }
        });
    });
    g.bench_function("openapi (baseline)", |b| {
        b.iter(|| {
            for (s, v) in &cases {
                black_box(kstruct::validation::validate_schema(s, v));
            }
        });
    });
    g.finish();
}

criterion_group!(benches, rules);
criterion_main!(benches);
