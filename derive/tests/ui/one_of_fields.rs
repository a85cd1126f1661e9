//! `*_one_of` members checked against the struct's fields (flattened ones included) when the
//! crate compiles.
use kstruct::CustomResourceSchema;
use serde::Serialize;

#[derive(Serialize, CustomResourceSchema)]
pub struct Source {
    pub git: Option<String>,
}

#[derive(Serialize, CustomResourceSchema)]
#[kstruct(at_most_one_of = ["git", "oci", "bucket"])]
#[kstruct(exactly_one_of = ["git", "helmChart"])]
pub struct Sources {
    #[serde(flatten)]
    pub source: Source,
    pub oci: Option<String>,
    pub helm_chart: Option<String>,
}

fn main() {}
