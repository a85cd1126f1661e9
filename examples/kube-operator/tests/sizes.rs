//! The size of a CRD whose spec embeds a `PodTemplateSpec`: kube-rs alone, kube-rs with
//! kstruct's schema, kstruct alone (printed with `--nocapture`; the kstruct ones are smaller
//! because embedded metadata is reduced to what the API server keeps).

#![allow(missing_docs)]

use k8s_openapi::api::core::v1::PodTemplateSpec;
use kstruct::CustomResourceSchema;
use kube::{CustomResource, CustomResourceExt};
use serde::{Deserialize, Serialize};

#[derive(CustomResource, schemars::JsonSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "size.example.com", version = "v1", kind = "KubeAlone", namespaced)]
pub struct KubeAloneSpec {
    pub replicas: i32,
    pub template: PodTemplateSpec,
}

#[derive(CustomResource, CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kube(group = "size.example.com", version = "v1", kind = "KubeKstruct", namespaced)]
pub struct KubeKstructSpec {
    pub replicas: i32,
    pub template: PodTemplateSpec,
}

#[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
#[kstruct(group = "size.example.com", version = "v1", kind = "KstructAlone", namespaced)]
pub struct KstructAloneSpec {
    pub replicas: i32,
    pub template: PodTemplateSpec,
}

#[test]
fn crd_sizes() {
    let json = |v: serde_json::Value| serde_json::to_string(&v).unwrap().len();
    let kube_alone = json(serde_json::to_value(KubeAlone::crd()).unwrap());
    let kube_kstruct = json(serde_json::to_value(KubeKstruct::crd()).unwrap());
    let kstruct_alone = json(<KstructAlone as kstruct::CustomResource>::crd().to_value());
    println!(
        "CRD JSON bytes: kube-rs alone {kube_alone}, kube-rs + kstruct {kube_kstruct}, kstruct alone {kstruct_alone}"
    );
    assert!(kstruct_alone < kube_alone && kube_kstruct < kube_alone);
}
