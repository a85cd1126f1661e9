#!/usr/bin/env bash
# kstruct's CLI on the example CRDs and manifests in this folder: what the API server would
# say about the CRDs, what it would store for the manifests, and what it would answer.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q -p kstruct-cli
kstruct() { cargo run -q -p kstruct-cli -- "$@"; }
crd=examples/crds/backups.example.com.yaml
manifests=examples/manifests/backups.yaml

echo "\$ kstruct check --crds examples/crds examples/manifests   # the CI gate: every manifest against its CRD"
kstruct check --crds examples/crds examples/manifests || echo "(exit $?: findings)"
echo
echo "\$ kstruct lint examples/crds/*.yaml        # the API server's structural-schema check"
kstruct lint examples/crds/*.yaml || echo "(exit $?: findings)"
echo
echo "\$ kstruct prune --report --crd $crd $manifests"
kstruct prune --report --crd "$crd" "$manifests"
echo
echo "\$ kstruct prune ... | kstruct nulls ... | kstruct default ...   # prune, drop nulls, default: the write path's order"
kstruct prune --crd "$crd" "$manifests" | kstruct nulls --crd "$crd" | kstruct default --crd "$crd"
echo
echo "\$ kstruct decode --report --crd $crd $manifests   # the API server's write path (fieldValidation=Warn)"
kstruct decode --report --crd "$crd" "$manifests"
echo
echo "\$ kstruct decode --field-validation Strict --report --crd $crd $manifests"
kstruct decode --field-validation Strict --report --crd "$crd" "$manifests" || echo "(exit $?: the API server would reject these)"
echo
stored=examples/stored/nightly.yaml
echo "\$ kstruct decode --crd $crd --update $stored --report examples/patches/update.yaml   # a PUT of the stored Backup"
kstruct decode --crd "$crd" --update "$stored" --report examples/patches/update.yaml
echo
echo "\$ kstruct patch --crd $crd --type merge --existing $stored --report examples/patches/merge.json"
kstruct patch --crd "$crd" --type merge --existing "$stored" --report examples/patches/merge.json
echo
echo "\$ kstruct patch --crd $crd --type json --existing $stored examples/patches/json-patch.json"
kstruct patch --crd "$crd" --type json --existing "$stored" examples/patches/json-patch.json || echo "(exit $?: the API server would refuse it)"
echo
echo "\$ kstruct patch --crd $crd --type apply --existing $stored examples/patches/apply.yaml   # server-side apply"
kstruct patch --crd "$crd" --type apply --existing "$stored" examples/patches/apply.yaml
echo
echo "\$ kstruct patch --crd $crd --type webhook --existing $stored --old $stored --report examples/patches/webhook.json   # a webhook patching an update"
kstruct patch --crd "$crd" --type webhook --existing "$stored" --old "$stored" --report examples/patches/webhook.json
