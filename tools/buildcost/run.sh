#!/usr/bin/env bash
# Build cost of generated code: for each case, the generated lines and functions, and the time
# to build a crate holding only that code (release and dev), its dependencies built first.
#
#   tools/buildcost/run.sh [SHARED]      # SHARED defaults to ../shared (the corpus)
#   KSTRUCT=path/to/kstruct tools/buildcost/run.sh   # compile with that binary instead
#
# Cases: the largest corpus CRDs by schema size and by nodes, and every corpus CRD version as
# one bare schema each, compiled together (the shape of a `kstruct compile --schema` runner).
# Needs python3 with PyYAML (to pull the schemas out of the CRDs; that case is skipped
# without it) and about 10 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)
shared=${1:-../shared}
crds="$shared/corpus/crds"
work=${TMPDIR:-/tmp}/kstruct-buildcost
mkdir -p "$work"
# KSTRUCT: a kstruct binary to compile with (default: this checkout's, built here).
if [ -z "${KSTRUCT:-}" ]; then
  cargo build -q -p kstruct-cli
fi
kstruct=${KSTRUCT:-$repo/target/debug/kstruct}

# One crate per case; all share one target directory, so dependencies build once.
make_crate() { # name
  local dir="$work/$1"
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "buildcost-$1"
version = "0.1.0"
edition = "2021"
publish = false
[dependencies]
kstruct = { path = "$repo/runtime" }
[workspace]
TOML
  echo 'include!("generated.rs");' > "$dir/src/lib.rs"
  cp "$repo/Cargo.lock" "$dir/Cargo.lock"
}

build_time() { # name profile-flag
  local dir="$work/$1"
  # Dependencies first, with the generated code set aside (so it is built once, timed).
  mv "$dir/src/generated.rs" "$dir/generated.rs"
  : > "$dir/src/generated.rs"
  CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo build -q --offline $2 --manifest-path "$dir/Cargo.toml"
  mv "$dir/generated.rs" "$dir/src/generated.rs"
  touch "$dir/src/lib.rs"
  local start end
  start=$(date +%s.%N)
  # Not incremental: an unchanged crate would otherwise rebuild from its query cache.
  CARGO_INCREMENTAL=0 CARGO_TARGET_DIR="$work/target" cargo build -q --offline $2 --manifest-path "$dir/Cargo.toml"
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}

measure() { # name kstruct-compile-args...
  local name=$1; shift
  make_crate "$name"
  local stats
  stats=$("$kstruct" compile "$@" -o "$work/$name/src/generated.rs" 2>&1 | grep compiled)
  local release dev
  release=$(build_time "$name" --release)
  dev=$(build_time "$name" "")
  printf '%s\t%s\trelease %.1f s\tdev %.1f s\n' "$name" "${stats#kstruct: }" "$release" "$dev"
}

measure calico-installations --crd "$crds/calico/installations.operator.tigera.io.yaml"
measure prometheus --crd "$crds/prometheus-operator/prometheuses.monitoring.coreos.com.yaml"
measure argocd-applicationsets --crd "$crds/argo-cd/applicationsets.argoproj.io.yaml"

# Every corpus CRD version as a bare schema.
schemas="$work/schemas"
rm -rf "$schemas"; mkdir -p "$schemas"
for f in "$crds"/*/*.yaml; do
  base=$(basename "$f" .yaml)
  python3 - "$f" "$schemas/$base" <<'PY' || true
import sys, json
try:
    import yaml
except ImportError:
    sys.exit(0)
# The corpus has a few `=` scalars, which PyYAML reads as the "value" tag.
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", lambda loader, node: loader.construct_scalar(node))
doc = yaml.safe_load(open(sys.argv[1]))
for v in doc.get("spec", {}).get("versions", []):
    s = (v.get("schema") or {}).get("openAPIV3Schema")
    if s is not None:
        json.dump(s, open(f"{sys.argv[2]}--{v['name']}.json", "w"))
PY
done
count=$(ls "$schemas" | wc -l)
if [ "$count" -gt 0 ]; then
  measure "corpus-bare-schemas-$count" --schema "$schemas"/*.json
else
  echo "corpus-bare-schemas: skipped (python3 without PyYAML)"
fi
