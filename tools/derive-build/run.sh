#!/usr/bin/env bash
# Cold build time of a small crate using #[derive(CustomResourceSchema)]: kstruct (with the
# derive), serde and serde_json, three derived types. Builds it twice with a new target
# directory each time (dependencies fetched first, so only compiling is timed).
#
#   tools/derive-build/run.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
dir=${TMPDIR:-/tmp}/kstruct-derive-build
rm -rf "$dir"
mkdir -p "$dir/src"
cat > "$dir/Cargo.toml" <<TOML
[package]
name = "derive-build"
version = "0.1.0"
edition = "2024"
publish = false
[dependencies]
kstruct = { path = "$repo/runtime" }
serde = { version = "1", features = ["derive"] }
serde_json = "1"
[workspace]
TOML
cp "$repo/Cargo.lock" "$dir/Cargo.lock"
cat > "$dir/src/main.rs" <<'RUST'
use kstruct::CustomResourceSchema;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A backup.
#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
pub struct BackupSpec {
    /// Cron schedule.
    #[kstruct(pattern = "^[0-9*/ ,-]+$")]
    pub schedule: String,
    #[kstruct(minimum = 1, maximum = 100, default = 7)]
    pub keep: u32,
    pub target: Target,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: BTreeMap<String, String>,
    pub mode: Mode,
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(untagged)]
pub enum Target {
    Name(String),
    Bucket { bucket: String, region: Option<String> },
}

#[derive(Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type")]
pub enum Mode {
    Full,
    Incremental { base: String },
}

fn main() {
    println!("{}", serde_json::to_string_pretty(&kstruct::schema_for::<BackupSpec>()).unwrap());
}
RUST
cd "$dir"
cargo fetch -q
for run in 1 2; do
  rm -rf target
  start=$(date +%s.%N)
  cargo build -q
  echo "cold build $run: $(echo "$(date +%s.%N) - $start" | bc) s"
done
./target/debug/derive-build > /dev/null && echo "the binary prints the schema"
