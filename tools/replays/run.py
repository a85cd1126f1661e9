#!/usr/bin/env python3
"""Real API servers' answers, decoded again by `kstruct decode`: k8s-openapi records every
request and response of its tests against real clusters (k8s-openapi-tests/test-replays/
v1-<minor>/*.json, Apache-2.0). A response body is the server's encoding of a built-in
object; decoding it as that release's server would and writing it back must give the same
bytes. This prints, per release, how many responses of built-in kinds came back byte for byte,
and the first difference of the others.

    tools/replays/run.py K8S_OPENAPI_CHECKOUT_OR_GIT_DIR [KSTRUCT]

KSTRUCT defaults to target/debug/kstruct (build it with `cargo build -p kstruct-cli`).
"""
import json, os, subprocess, sys, tempfile

src = sys.argv[1]
kstruct = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "../../target/debug/kstruct")
git = ["git", "--git-dir", src] if not os.path.isdir(os.path.join(src, "k8s-openapi-tests")) else None

def files():
    if git:
        out = subprocess.run(git + ["ls-tree", "-r", "--name-only", "HEAD", "k8s-openapi-tests/test-replays"], capture_output=True, text=True, check=True).stdout
        for path in out.split():
            yield path, subprocess.run(git + ["show", "HEAD:" + path], capture_output=True, text=True, check=True).stdout
    else:
        base = os.path.join(src, "k8s-openapi-tests/test-replays")
        for d in sorted(os.listdir(base)):
            for f in sorted(os.listdir(os.path.join(base, d))):
                yield f"k8s-openapi-tests/test-replays/{d}/{f}", open(os.path.join(base, d, f)).read()

totals = {}
for path, text in files():
    release = path.split("/")[2].replace("v1-", "1.")
    if not path.endswith(".json"):
        continue
    for entry in json.loads(text):
        # The encoder ends each body with a newline.
        body = (entry.get("response_body") or "").rstrip("\n")
        if not body.startswith("{") or entry.get("response_status_code") not in (200, 201):
            continue
        try:
            kind = json.loads(body).get("kind", "")
        except ValueError:
            continue  # a watch stream: several values
        if kind in ("Status", "APIGroupList", "APIResourceList", "APIVersions", "APIGroup", ""):
            continue
        if "k8s-openapi-tests" in json.loads(body).get("apiVersion", ""):
            continue  # the tests' own custom resources
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            f.write(body)
        r = subprocess.run([kstruct, "decode", "--body", "--format", "json", "--kubernetes-version", release, "--field-validation", "Strict", f.name], capture_output=True, text=True)
        os.unlink(f.name)
        t = totals.setdefault(release, [0, 0, []])
        t[0] += 1
        got = r.stdout.rstrip("\n")
        if r.returncode == 0 and got == body:
            t[1] += 1
        else:
            at = next((i for i, (a, b) in enumerate(zip(got, body)) if a != b), min(len(got), len(body)))
            t[2].append(f"{path} {entry['request_method']} {entry['request_url']}: {r.stderr.strip()[:200]} at byte {at}: got {got[max(0, at-60):at+60]!r} want {body[max(0, at-60):at+60]!r}")
for release, (n, same, diffs) in sorted(totals.items()):
    print(f"{release}: {same} of {n} responses of built-in kinds written back byte for byte")
    for d in diffs[:5]:
        print("   ", d)
