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

/// Implements `CustomResourceSchema` through k8s-openapi's schemars schema, converted once,
/// with the markers of the Go type it stands for (`core/v1.PodSpec`) written in.
macro_rules! through_schemars {
    ($($t:ty => $go:literal),* $(,)?) => {$(
        impl CustomResourceSchema for $t {
            const SHAPE: Shape = Shape::Object;
            fn schema(generator: &mut Generator) -> Structural {
                static CONVERTED: OnceLock<Result<Structural, Vec<String>>> = OnceLock::new();
                let converted = CONVERTED.get_or_init(|| {
                    let mut s = super::schemars::structural_of::<$t>()?;
                    super::go_markers::apply(&mut s, $go, super::go_markers::k8s_openapi_release())
                        .map_err(|p| vec![p])?;
                    Ok(s)
                });
                match converted {
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
    meta::Condition => "meta/v1.Condition",
    meta::LabelSelector => "meta/v1.LabelSelector",
    meta::LabelSelectorRequirement => "meta/v1.LabelSelectorRequirement",
    meta::OwnerReference => "meta/v1.OwnerReference",
    core::PodTemplateSpec => "core/v1.PodTemplateSpec",
    core::PodSpec => "core/v1.PodSpec",
    core::Container => "core/v1.Container",
    core::ContainerPort => "core/v1.ContainerPort",
    core::EnvVar => "core/v1.EnvVar",
    core::EnvFromSource => "core/v1.EnvFromSource",
    core::ResourceRequirements => "core/v1.ResourceRequirements",
    core::Volume => "core/v1.Volume",
    core::VolumeMount => "core/v1.VolumeMount",
    core::PersistentVolumeClaimSpec => "core/v1.PersistentVolumeClaimSpec",
    core::Toleration => "core/v1.Toleration",
    core::Affinity => "core/v1.Affinity",
    core::NodeSelector => "core/v1.NodeSelector",
    core::TopologySpreadConstraint => "core/v1.TopologySpreadConstraint",
    core::LocalObjectReference => "core/v1.LocalObjectReference",
    core::ObjectReference => "core/v1.ObjectReference",
    core::TypedLocalObjectReference => "core/v1.TypedLocalObjectReference",
    core::SecretKeySelector => "core/v1.SecretKeySelector",
    core::ConfigMapKeySelector => "core/v1.ConfigMapKeySelector",
    core::SecretReference => "core/v1.SecretReference",
    core::SecurityContext => "core/v1.SecurityContext",
    core::PodSecurityContext => "core/v1.PodSecurityContext",
    core::Probe => "core/v1.Probe",
    core::ServicePort => "core/v1.ServicePort",
    core::ServiceSpec => "core/v1.ServiceSpec",
    core::HostAlias => "core/v1.HostAlias",
    core::PodDNSConfig => "core/v1.PodDNSConfig",
);
