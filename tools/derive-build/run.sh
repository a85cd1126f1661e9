#!/usr/bin/env bash
# Cold build time of a small operator crate using kstruct: a spec type with resource
# attributes (three derived types) whose main prints the CRD. Dependencies: kstruct (with the
# derive), serde and serde_json; with `k8s-openapi`, also kstruct's k8s-openapi feature,
# k8s-openapi (latest version) and a PodTemplateSpec field. Builds it twice with a new target
# directory each time (dependencies fetched first, so only compiling is timed).
#
#   tools/derive-build/run.sh [k8s-openapi]
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
variant=${1:-plain}
dir=${TMPDIR:-/tmp}/kstruct-derive-build-$variant
rm -rf "$dir"
mkdir -p "$dir/src"
if [ "$variant" = k8s-openapi ]; then
  kstruct_dep="kstruct = { path = \"$repo/runtime\", features = [\"k8s-openapi\"] }
k8s-openapi = { version = \"0.29\", default-features = false, features = [\"std\", \"latest\"] }"
  template_field='    /// The pods.
    pub template: k8s_openapi::api::core::v1::PodTemplateSpec,'
else
  kstruct_dep="kstruct = { path = \"$repo/runtime\" }"
  template_field=''
fi
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "derive-build"
version = "0.1.0"
edition = "2024"
publish = false
[dependencies]
$kstruct_dep
serde = { version = "1", features = ["derive"] }
serde_json = "1"
[workspace]
TOML
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
cat > "$dir/src/main.rs" <<RUST
use kstruct::{CustomResource, CustomResourceSchema};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A backup.
#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[kstruct(group = "backup.example.com", version = "v1", kind = "Backup", namespaced,
          printcolumn(name = "Keep", integer = ".spec.keep"))]
#[serde(rename_all = "camelCase")]
pub struct BackupSpec {
    /// Cron schedule.
    #[kstruct(pattern = "^[0-9*/ ,-]+\$")]
    pub schedule: String,
    #[kstruct(minimum = 1, maximum = 100, default = 7)]
    pub keep: u32,
    pub target: Target,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    pub mode: Mode,
$template_field
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[serde(untagged)]
pub enum Target {
    Name(String),
    Bucket { bucket: String, region: Option<String> },
}

#[derive(Serialize, Deserialize, Clone, Debug, CustomResourceSchema)]
#[serde(tag = "type")]
pub enum Mode {
    Full,
    Incremental { base: String },
}

fn main() {
    print!("{}", Backup::crd().to_yaml());
}
RUST
cd "$dir"
cargo fetch -q
for run in 1 2; do
  rm -rf target
  start=$(date +%s.%N)
  cargo build -q
  echo "$variant: cold build $run: $(echo "$(date +%s.%N) - $start" | bc) s"
done
./target/debug/derive-build > /dev/null && echo "the binary prints the CRD"
