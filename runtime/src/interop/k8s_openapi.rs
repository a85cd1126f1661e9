//! `CustomResourceSchema` for k8s-openapi's types (feature `k8s-openapi`): what operators
//! embed in their specs.
//!
//! The scalar-like types get the schemas controller-gen writes for them (Time as a
//! `date-time` string, Quantity and IntOrString as int-or-string, Quantity with its pattern);
//! `ObjectMeta` gets the reduced schema of embedded metadata; every other type converts its
//! k8s-openapi `schemars` schema once per process (pod templates included, with their
//! metadata reduced the same way).

use std::sync::OnceLock;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kstruct_schema::Structural;

use crate::rust_schema::{CustomResourceSchema, Generator, Shape, typed};

/// A `type` with a `format`.
fn formatted(type_: &str, format: &str) -> Structural {
    let mut s = typed(type_);
    s.value_validation.format = format.to_owned();
    s
}

/// `x-kubernetes-int-or-string: true`, as the derive writes it for integer-or-string values.
fn int_or_string() -> Structural {
    let mut s = Structural::default();
    s.extensions.x_int_or_string = true;
    s
}

/// The pattern the API server's quantity parser accepts (as controller-gen writes it).
const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

impl CustomResourceSchema for meta::ObjectMeta {
    const SHAPE: Shape = Shape::Object;
    fn schema(_: &mut Generator) -> Structural {
        crate::resource::embedded_object_meta()
    }
}

impl CustomResourceSchema for meta::Time {
    const SHAPE: Shape = Shape::String;
    fn schema(_: &mut Generator) -> Structural {
        formatted("string", "date-time")
    }
}

impl CustomResourceSchema for meta::MicroTime {
    const SHAPE: Shape = Shape::String;
    fn schema(_: &mut Generator) -> Structural {
        formatted("string", "date-time")
    }
}

impl CustomResourceSchema for Quantity {
    const SHAPE: Shape = Shape::IntOrString;
    fn schema(_: &mut Generator) -> Structural {
        let mut s = int_or_string();
        s.value_validation.pattern = QUANTITY_PATTERN.to_owned();
        s
    }
}

impl CustomResourceSchema for IntOrString {
    const SHAPE: Shape = Shape::IntOrString;
    fn schema(_: &mut Generator) -> Structural {
        int_or_string()
    }
}

/// Implements `CustomResourceSchema` through k8s-openapi's schemars schema, converted once.
macro_rules! through_schemars {
    ($($t:ty),* $(,)?) => {$(
        impl CustomResourceSchema for $t {
            const SHAPE: Shape = Shape::Object;
            fn schema(generator: &mut Generator) -> Structural {
                static CONVERTED: OnceLock<Result<Structural, Vec<String>>> = OnceLock::new();
                match CONVERTED.get_or_init(super::schemars::structural_of::<$t>) {
                    Ok(s) => s.clone(),
                    Err(problems) => {
                        for p in problems {
                            generator.problem(format!("its k8s-openapi schema: {p}"));
                        }
                        let mut s = typed("object");
                        s.extensions.x_preserve_unknown_fields = true;
                        s
                    }
                }
            }
        }
    )*};
}

through_schemars!(
    meta::Condition,
    meta::LabelSelector,
    meta::LabelSelectorRequirement,
    meta::OwnerReference,
    core::PodTemplateSpec,
    core::PodSpec,
    core::Container,
    core::ContainerPort,
    core::EnvVar,
    core::EnvFromSource,
    core::ResourceRequirements,
    core::Volume,
    core::VolumeMount,
    core::PersistentVolumeClaimSpec,
    core::Toleration,
    core::Affinity,
    core::NodeSelector,
    core::TopologySpreadConstraint,
    core::LocalObjectReference,
    core::ObjectReference,
    core::TypedLocalObjectReference,
    core::SecretKeySelector,
    core::ConfigMapKeySelector,
    core::SecretReference,
    core::SecurityContext,
    core::PodSecurityContext,
    core::Probe,
    core::ServicePort,
    core::ServiceSpec,
    core::HostAlias,
    core::PodDNSConfig,
);
