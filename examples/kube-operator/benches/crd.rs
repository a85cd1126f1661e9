//! The time of `crd()` for a spec embedding a `PodTemplateSpec`, in one run: kube-rs alone
//! (its spec derives `schemars::JsonSchema`), kube-rs with kstruct's schema (the spec derives
//! `CustomResourceSchema`), and kstruct alone (resource attributes).
//!
//! `cargo bench -p kstruct-example-kube-operator --bench crd`

#![allow(missing_docs)] // criterion_group! generates undocumented items.

use criterion::{Criterion, criterion_group, criterion_main};
use k8s_openapi::api::core::v1::PodTemplateSpec;
use kstruct::CustomResourceSchema;
use kube::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};

/// kube-rs alone.
#[derive(CustomResource, schemars::JsonSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "bench.example.com", version = "v1", kind = "KubeAlone", namespaced)]
pub struct KubeAloneSpec {
    /// Replicas.
    pub replicas: i32,
    /// Pods.
    pub template: PodTemplateSpec,
}

/// kube-rs with kstruct's schema.
#[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "bench.example.com", version = "v1", kind = "KubeKstruct", namespaced)]
pub struct KubeKstructSpec {
    /// Replicas.
    pub replicas: i32,
    /// Pods.
    pub template: PodTemplateSpec,
}

/// kstruct alone.
#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "bench.example.com", version = "v1", kind = "KstructAlone", namespaced)]
pub struct KstructAloneSpec {
    /// Replicas.
    pub replicas: i32,
    /// Pods.
    pub template: PodTemplateSpec,
}

fn crd(c: &mut Criterion) {
    let started = std::time::Instant::now();
    let first = <KstructAlone as kstruct::CustomResource>::crd();
    eprintln!(
        "kstruct alone, first call (converts PodTemplateSpec's schema once): {:?}, {} bytes of JSON",
        started.elapsed(),
        first.to_json().len()
    );
    let mut g = c.benchmark_group("crd() of a spec embedding PodTemplateSpec");
    g.sample_size(20);
    g.bench_function("kube-rs alone", |b| b.iter(KubeAlone::crd));
    g.bench_function("kube-rs + kstruct schema", |b| b.iter(KubeKstruct::crd));
    g.bench_function("kstruct alone", |b| {
        b.iter(<KstructAlone as kstruct::CustomResource>::crd)
    });
    g.finish();
}

criterion_group!(benches, crd);
criterion_main!(benches);
