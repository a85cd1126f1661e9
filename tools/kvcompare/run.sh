#!/usr/bin/env bash
# kubectl-validate's own test cases through `kstruct check`: for each manifest, the answer
# kubectl-validate records (the JSON in the file's leading comment) beside kstruct's.
#
#   tools/kvcompare/run.sh KUBECTL_VALIDATE_CHECKOUT [RELEASE]
#
# Reads testcases/crds, testcases/more-crds and testcases/manifests of a kubernetes-sigs/
# kubectl-validate checkout (a git directory works too: its HEAD is read with `git show`).
# Prints one block per manifest: `kv:` kubectl-validate's message, `ks:` each object's outcome
# and messages from `kstruct check -o json --kubernetes-version RELEASE` (default 1.36).
# docs/conformance.md explains every difference.
set -euo pipefail
cd "$(dirname "$0")/../.."
src=${1:?usage: tools/kvcompare/run.sh KUBECTL_VALIDATE_CHECKOUT [RELEASE]}
release=${2:-1.36}
cargo build -q -p kstruct-cli
kstruct="$(pwd)/target/debug/kstruct"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src/testcases" ]; then
  cp -r "$src/testcases" "$work/"
else
  for f in $(git --git-dir="$src" ls-tree -r --name-only HEAD testcases); do
    mkdir -p "$work/$(dirname "$f")"
    git --git-dir="$src" show "HEAD:$f" > "$work/$f"
  done
fi
cd "$work/testcases"
for f in manifests/*.yaml; do
  echo "=== $f"
  python3 - "$f" <<'PY'
import json, sys
lines = [l[2:] if l.startswith('# ') else l[1:] for l in open(sys.argv[1]) if l.startswith('#')]
try:
    print("  kv:", json.loads(''.join(lines)).get('message', '') or '(accepted)')
except ValueError:
    print("  kv: (no recorded answer)")
PY
  # check exits 1 on findings: the findings are the point here.
  { "$kstruct" check --crds crds --crds more-crds --allow-no-objects --kubernetes-version "$release" -o json "$f" || true; } \
    | python3 -c '
import json, sys
for l in sys.stdin:
    j = json.loads(l)
    if "summary" in j or j.get("file") != sys.argv[1]:
        continue
    print("  ks:", j.get("kind"), j["outcome"], " | ".join(j["messages"] + j.get("warnings", [])))
' "$f"
done
