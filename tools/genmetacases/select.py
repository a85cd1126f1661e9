#!/usr/bin/env python3
"""Builds tests/testdata/go_object_meta.jsonl from a run of the ObjectMeta oracle.

Usage: select.py cases.jsonl go.jsonl > ../../tests/testdata/go_object_meta.jsonl

One line per metadata value: {"id", "metadata": <JSON text, or null when absent>,
"strict": {"err", "unknown", "out"}, "lenient": {"err", "out"} | "same",
"drop": {"err", "out"} | "same", "embedded": {"err", "unknown", "metadata"}}.
strict/lenient/drop are GetObjectMetaWithOptions (tracking unknown fields; not tracking;
dropping malformed fields) followed by SetObjectMeta at the root; "same" means the result
equals the strict one's object and error. embedded is CoerceWithOptions on an embedded
resource holding the value (tracking, not dropping): the error's detail, and the written-back
metadata. Of the generated families (every field against every kind of value) every other
value is kept; the hand-written families (misc, misc2, num2, time2) are kept whole.
"""
import json
import sys
import zlib

WHOLE = ("misc/", "misc2/", "num2/", "time2/")

cases = [json.loads(line) for line in open(sys.argv[1])]
results = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    results[(r["id"], r["place"], r["mode"])] = r

for case in cases:
    cid = case["id"]
    if not cid.startswith(WHOLE) and zlib.crc32(cid.encode()) % 2 != 0:
        continue
    strict = results[(cid, "root", "strict")]
    out = {"id": cid, "metadata": case.get("meta")}
    out["strict"] = {"err": strict["err"], "unknown": strict["unknown"], "out": strict["out"]}
    for mode in ("lenient", "drop"):
        r = results[(cid, "root", mode)]
        same = r["err"] == strict["err"] and r["out"] == strict["out"]
        out[mode] = "same" if same else {"err": r["err"], "out": r["out"]}
    e = results[(cid, "embedded", "strict")]
    meta = (e["out"] or {}).get("e", {}).get("metadata") if e["out"] else None
    out["embedded"] = {"err": e["err"], "unknown": e["unknown"], "metadata": meta}
    print(json.dumps(out, ensure_ascii=False, separators=(",", ":")))
