//! Misspelt and foreign attribute names: every one in a list reported, with the closest
//! name or the right syntax for kube-rs' spellings.
use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};

#[derive(Serialize, CustomResourceSchema)]
pub struct Misspelt {
    #[kstruct(minimun = 1, maximum = 10, patern = "^a", max_lenght = 3)]
    pub size: i32,
    #[kstruct(items(min_lenght = 1), requird)]
    pub names: Vec<String>,
    #[kstruct(validation(rule = "self > 0", mesage = "positive"))]
    pub count: i32,
    #[kstruct(at_most_one_of = ["a", "b"])]
    pub a: Option<String>,
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Kube",
    struct = "KubeObject",
    printcolumn = r#"{"name":"Team", "type":"string", "jsonPath":".spec.team"}"#,
    scale = r#"{"specReplicasPath":".spec.replicas", "statusReplicasPath":".status.replicas"}"#,
    shortnames = "k",
    printcolumn(name = "Team", typ = "string", json_path = ".spec.team")
)]
pub struct KubeSpec {
    pub team: String,
    #[kstruct(validation = Rule::new("self >= 0").message("no negative replicas"))]
    pub replicas: i32,
}

fn main() {}
