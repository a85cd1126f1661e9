#!/usr/bin/env python3
"""Deterministic case generator for the kstruct vs Go serializer differential test.

Each body is emitted in strict and non-strict mode. JSON bodies are run as format=json and
(unless too large) also as format=yaml (JSON is YAML). YAML-only bodies run as format=yaml.
"""
import json
import sys

cases = []
seen = set()


def add(cat, name, body, fmts=("json", "yaml"), fatal_only=False):
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    for fmt in fmts:
        key = (body, fmt)
        if key in seen:
            continue
        seen.add(key)
        for strict in (True, False):
            cases.append({
                "name": f"{cat}/{name}/{fmt}/{'strict' if strict else 'lax'}",
                "cat": cat,
                "body_hex": body.hex(),
                "format": fmt,
                "strict": strict,
                "fatal_only": fatal_only,
            })


HDR = '"apiVersion":"v1","kind":"K"'


def obj(inner, hdr=True):
    if hdr:
        return "{" + HDR + ("," + inner if inner else "") + "}"
    return "{" + inner + "}"


# ---------------------------------------------------------------- duplicates
D = "dup"
add(D, "root", obj('"a":1,"a":2'))
add(D, "root-3x", obj('"a":1,"a":2,"a":3'))
add(D, "root-mixed-types", obj('"a":{"x":1},"a":[1],"a":null'))
add(D, "nested", obj('"a":{"b":1,"b":2}'))
add(D, "nested-deeper", obj('"a":{"b":{"c":{"d":1,"d":2}}}'))
add(D, "nested-3x", obj('"a":{"b":1,"b":2,"b":3}'))
add(D, "in-array", obj('"a":[{"b":1,"b":2}]'))
add(D, "in-array-2nd", obj('"a":[{},{"b":1,"b":2}]'))
add(D, "in-array-two-elems", obj('"a":[{"b":1,"b":2},{"b":1,"b":2}]'))
add(D, "array-of-arrays", obj('"a":[[{"b":1,"b":2}]]'))
add(D, "array-of-arrays-idx", obj('"a":[[],[{},{"b":1,"b":2}]]'))
add(D, "array-of-arrays-3", obj('"a":[[[{"b":1,"b":2}]]]'))
add(D, "array-in-obj-in-array", obj('"a":[{"b":[{"c":1,"c":2}]}]'))
add(D, "first-value-has-dups", obj('"a":{"b":1,"b":2},"a":{"c":1}'))
add(D, "second-value-has-dups", obj('"a":{"c":1},"a":{"b":1,"b":2}'))
add(D, "both-values-have-dups", obj('"a":{"b":1,"b":2},"a":{"b":1,"b":2}'))
add(D, "first-array-has-dups", obj('"a":[{"b":1,"b":2}],"a":[]'))
add(D, "same-path-3x-nested", obj('"a":{"b":1},"a":{"b":1,"b":2},"a":{"b":{"b":1,"b":1}}'))
add(D, "path-3x-different-objects", obj('"x":{"a":1,"a":2},"y":{"a":1,"a":2},"x":{"a":1,"a":2}'))
add(D, "many-101-distinct", obj(",".join(f'"k{i}":1,"k{i}":2' for i in range(101))))
add(D, "many-150-distinct", obj(",".join(f'"k{i}":1,"k{i}":2' for i in range(150))))
add(D, "same-key-150x", obj(",".join(f'"a":{i}' for i in range(150))))
add(D, "nested-150-distinct", obj('"m":{' + ",".join(f'"k{i}":1,"k{i}":2' for i in range(150)) + "}"))
add(D, "99-then-root", obj('"m":{' + ",".join(f'"k{i}":1,"k{i}":2' for i in range(99)) + '},"z":1,"z":2,"y":1,"y":2'))
add(D, "100-exact", obj(",".join(f'"k{i}":1,"k{i}":2' for i in range(100))))
add(D, "many-in-arrays", obj('"a":[' + ",".join('{"b":1,"b":2}' for _ in range(120)) + "]"))
add(D, "kind-kind", '{"apiVersion":"v1","kind":"A","kind":"B"}')
add(D, "kind-then-empty", '{"apiVersion":"v1","kind":"A","kind":""}')
add(D, "empty-then-kind", '{"apiVersion":"v1","kind":"","kind":"A"}')
add(D, "apiVersion-dup", '{"apiVersion":"v1","apiVersion":"g/v2","kind":"K"}')
add(D, "apiVersion-dup-bad", '{"apiVersion":"v1","apiVersion":"a/b/c","kind":"K"}')
add(D, "apiVersion-dup-bad-first", '{"apiVersion":"a/b/c","apiVersion":"v1","kind":"K"}')
add(D, "metadata-dup", obj('"metadata":{"name":"a"},"metadata":{"name":"b"}'))
add(D, "metadata-name-dup", obj('"metadata":{"name":"a","name":"b"}'))
add(D, "dup-kind-and-field", '{"kind":"A","apiVersion":"v1","kind":"B","a":1,"a":2}')
add(D, "escaped-equal", obj('"a":1,"\\u0061":2'))
add(D, "escaped-equal-2", obj('"\\u00e9":1,"é":2'))
add(D, "case-differs", obj('"a":1,"A":2'))
add(D, "kelvin-differs", obj('"k":1,"\\u212a":2'))
add(D, "ffd-collide-invalid-utf8", b"{" + HDR.encode() + b',"\xff":1,"\xfe":2}')
add(D, "ffd-collide-surrogates", obj('"\\ud800":1,"\\udc00":2'))
add(D, "ffd-collide-mixed", b"{" + HDR.encode() + b',"\\ud800":1,"\xff":2,"\\ufffd":3}')
add(D, "ffd-vs-literal", obj('"\\ufffd":1,"\\ud800":2'))
add(D, "empty-key-dup", obj('"":1,"":2'))
add(D, "empty-key-nested-dup", obj('"":{"":1,"":2}'))
add(D, "nested-empty-parent", obj('"a":{"":{"b":1,"b":2}}'))

SPECIAL_KEYS = [
    ("dot", '"a.b"'),
    ("dots-lead-trail", '".a."'),
    ("brackets", '"a[0]"'),
    ("bracket-only", '"[0]"'),
    ("quote", '"a\\"b"'),
    ("backslash", '"a\\\\b"'),
    ("ctl-01", '"a\\u0001b"'),
    ("newline", '"a\\nb"'),
    ("tab", '"a\\tb"'),
    ("nul", '"a\\u0000b"'),
    ("e-acute", '"é"'),
    ("e-acute-esc", '"\\u00e9"'),
    ("emoji", '"😀"'),
    ("emoji-esc", '"\\ud83d\\ude00"'),
    ("invalid-utf8", b'"a\xffb"'),
    ("invalid-utf8-overlong", b'"a\xc0\xafb"'),
    ("invalid-utf8-trunc", b'"a\xe2\x82"'),
    ("lone-high", '"a\\ud800b"'),
    ("lone-low", '"a\\udc00b"'),
    ("high-high", '"\\ud800\\ud800"'),
    ("empty", '""'),
    ("slash-esc", '"a\\/b"'),
    ("del", '"a\x7fb"'),
    ("u2028", '"a\u2028b"'),
    ("html", '"<&>"'),
    ("bom-in-key", '"\ufeffk"'),
]


def b(x):
    return x if isinstance(x, bytes) else x.encode("utf-8")


for nm, k in SPECIAL_KEYS:
    k = b(k)
    h = HDR.encode()
    add("key", nm + "/plain", b"{" + h + b"," + k + b":1}")
    add("key", nm + "/dup-root", b"{" + h + b"," + k + b":1," + k + b":2}")
    add("key", nm + "/dup-nested", b"{" + h + b',"o":{' + k + b":1," + k + b":2}}")
    add("key", nm + "/parent-of-dup", b"{" + h + b"," + k + b':{"x":1,"x":2}}')
    add("key", nm + "/in-array-parent", b"{" + h + b"," + k + b':[{"x":1,"x":2}]}')
    add("key", nm + "/as-value", b"{" + h + b',"v":' + k + b"}")

# string values with special content
for nm, k in SPECIAL_KEYS:
    add("val", nm + "/kind-value", b'{"apiVersion":"v1","kind":' + b(k) + b"}")
    add("val", nm + "/apiVersion-value", b'{"apiVersion":' + b(k) + b',"kind":"K"}')

# ---------------------------------------------------------------- kind / apiVersion
KIND_KEYS = ["kind", "Kind", "KIND", "kInD", "\\u212aind", "\u212aind", "K\\u0131nd", "kind "]
API_KEYS = ["apiVersion", "APIVERSION", "apiVer\\u017fion", "apiVer\u017fion", "\\u0061piVersion"]
VALUES = [("str", '"X"'), ("str-gv", '"g/v"'), ("empty", '""'), ("int", "1"), ("float", "1.5"), ("true", "true"),
          ("null", "null"), ("obj", "{}"), ("arr", '["x"]'), ("big", "1e400")]
for ki, kk in enumerate(KIND_KEYS):
    for vn, v in VALUES:
        add("tm", f"kindkey{ki}={vn}/with-kind", '{"apiVersion":"v1","kind":"K","' + kk + '":' + v + "}")
        add("tm", f"kindkey{ki}={vn}/before-kind", '{"apiVersion":"v1","' + kk + '":' + v + ',"kind":"K"}')
        add("tm", f"kindkey{ki}={vn}/alone", '{"apiVersion":"v1","' + kk + '":' + v + "}")
for ai, ak in enumerate(API_KEYS):
    for vn, v in VALUES:
        add("tm", f"apikey{ai}={vn}/with", '{"apiVersion":"v1","kind":"K","' + ak + '":' + v + "}")
        add("tm", f"apikey{ai}={vn}/before", '{"' + ak + '":' + v + ',"apiVersion":"v1","kind":"K"}')
        add("tm", f"apikey{ai}={vn}/alone", '{"kind":"K","' + ak + '":' + v + "}")
# repeated kind / apiVersion with mixed types, both orders
for vn, v in VALUES:
    add("tm", f"kind-X-then-{vn}", '{"apiVersion":"v1","kind":"X","kind":' + v + "}")
    add("tm", f"kind-{vn}-then-X", '{"apiVersion":"v1","kind":' + v + ',"kind":"X"}')
    add("tm", f"Kind-{vn}-then-kind", '{"apiVersion":"v1","Kind":' + v + ',"kind":"X"}')
    add("tm", f"kind-then-KIND-{vn}", '{"apiVersion":"v1","kind":"X","KIND":' + v + "}")
    add("tm", f"api-v1-then-{vn}", '{"kind":"K","apiVersion":"v1","apiVersion":' + v + "}")
    add("tm", f"api-{vn}-then-v1", '{"kind":"K","apiVersion":' + v + ',"apiVersion":"v1"}')
    add("tm", f"both-{vn}", '{"kind":' + v + ',"apiVersion":' + v + "}")
add("tm", "missing-kind", '{"apiVersion":"v1","a":1}')
add("tm", "missing-kind-ws", ' \n{"apiVersion":"v1","a":1}\t\r\n ')
add("tm", "missing-both", '{"a":1}')
add("tm", "empty-object", "{}")
add("tm", "empty-object-ws", "  {}  ")
add("tm", "kind-empty", '{"apiVersion":"v1","kind":""}')
add("tm", "missing-apiVersion", '{"kind":"K"}')
add("tm", "apiVersion-empty", '{"apiVersion":"","kind":"K"}')
add("tm", "apiVersion-a/b/c", '{"apiVersion":"a/b/c","kind":"K"}')
add("tm", "apiVersion-slash", '{"apiVersion":"/","kind":"K"}')
add("tm", "apiVersion-//", '{"apiVersion":"//","kind":"K"}')
add("tm", "apiVersion-a/", '{"apiVersion":"a/","kind":"K"}')
add("tm", "apiVersion-/v", '{"apiVersion":"/v","kind":"K"}')
add("tm", "apiVersion-null", '{"apiVersion":null,"kind":"K"}')
add("tm", "kind-null", '{"apiVersion":"v1","kind":null}')
add("tm", "apiVersion-a/b/c-nokind", '{"apiVersion":"a/b/c"}')
add("tm", "missing-kind-pretty", '{\n  "apiVersion": "v1",\n  "a": [1, 2]\n}\n')
add("tm", "missing-kind-dups", '{"apiVersion":"v1","a":1,"a":2}')
add("tm", "missing-kind-html", '{"apiVersion":"v1","a":"<&>"}')
add("tm", "missing-kind-invalid-utf8", b'{"apiVersion":"v1","a":"\xff"}')
add("tm", "missing-kind-esc", '{"apiVersion":"v1","a":"\\u00e9\\n"}')
add("tm", "missing-kind-number-forms", '{"apiVersion":"v1","a":1.0,"b":1e3,"c":-0}')
add("tm", "kind-space", '{"apiVersion":"v1","kind":" "}')
add("tm", "kind-nested-only", '{"apiVersion":"v1","spec":{"kind":"K"}}')

# ---------------------------------------------------------------- non-objects
NONOBJ = [("null", "null"), ("arr", "[]"), ("arr1", "[1]"), ("arr-obj", '[{"kind":"K"}]'), ("str", '"x"'),
          ("int", "1"), ("true", "true"), ("false", "false"), ("empty", ""), ("sp", " "), ("ws", " \n\t\r "),
          ("nl", "\n"), ("float", "1.5"), ("neg", "-1"), ("big", "1e400"), ("null-ws", " null \n")]
for nm, v in NONOBJ:
    add("nonobj", nm, v)
GOOD = '{"apiVersion":"v1","kind":"K","a":1}'
for nm, pre, post in [("lead-sp", "  ", ""), ("trail-sp", "", "  "), ("lead-nl", "\n\n", ""), ("trail-nl", "", "\n"),
                      ("tabs", "\t", "\t"), ("cr", "\r\n", "\r\n"), ("all", " \t\r\n", "\n\r\t "), ("vt", "\x0b", ""),
                      ("ff", "", "\x0c"), ("nbsp", "\u00a0", ""), ("nul-trail", "", "\x00")]:
    add("ws", nm, pre + GOOD + post)
    add("ws", nm + "/missing-kind", pre + '{"apiVersion":"v1"}' + post)
add("ws", "bom", "\ufeff" + GOOD)
add("ws", "bom-missing-kind", "\ufeff" + '{"apiVersion":"v1"}')
add("ws", "bom-ws", "\ufeff  " + GOOD)
add("ws", "ws-inside", '{ "apiVersion" : "v1" ,\n\t"kind"\r:\n"K" }')

# ---------------------------------------------------------------- numbers
NUMS = ["0", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "1e21", "1e20", "1E21", "1.0", "1e3", "1E+3", "1e-3", "-0", "-0.0",
        "0.0", "0.1", "1e400", "-1e400", "1e-400", "123456789012345678901234567890", "1.7976931348623157e308",
        "1.7976931348623159e308", "5e-324", "2.5e-324", "9007199254740993", "9007199254740993.0",
        "100000000000000000000", "1e+2", "0e0", "-0e0", "12.50", "1.5e300", "4.35", "0.000001", "0.0000001",
        "1e-7", "123456789.123456789", "100e-2"]
for n in NUMS:
    add("num", f"{n}/field", obj('"n":' + n))
    add("num", f"{n}/nested", obj('"a":{"b":[' + n + "]}"))
    add("num", f"{n}/top", n)
    add("num", f"{n}/kind", '{"apiVersion":"v1","kind":' + n + "}")
    add("num", f"{n}/nokind", '{"apiVersion":"v1","n":' + n + "}")
add("num", "1e400-dups", obj('"a":1,"a":2,"n":1e400'))
add("num", "dups-after-1e400", obj('"n":1e400,"a":1,"a":2'))
add("num", "two-ranges", obj('"n":1e400,"m":-1e400'))
add("num", "range-in-array", obj('"a":[1,2,1e999]'))
add("num", "range-key", obj('"1e400":1'))
add("num", "range-and-missing-kind", '{"apiVersion":"v1","n":1e400}')
add("num", "range-and-bad-kind", '{"apiVersion":"v1","n":1e400,"kind":1}')
add("num", "range-before-kind", '{"n":1e400,"apiVersion":"v1","kind":"K"}')

# ---------------------------------------------------------------- syntax errors
SYN = [
    ("trailing-comma-obj", '{"apiVersion":"v1","kind":"K",}'),
    ("trailing-comma-arr", obj('"a":[1,2,]')),
    ("trailing-comma-nested", obj('"a":{"b":1,}')),
    ("garbage-after", GOOD + " x"),
    ("garbage-after-nl", GOOD + "\nx"),
    ("two-objects", GOOD + GOOD),
    ("two-objects-ws", GOOD + " " + GOOD),
    ("obj-then-comma", GOOD + ","),
    ("obj-then-brace", GOOD + "}"),
    ("unterminated-string", '{"apiVersion":"v1","kind":"K'),
    ("unterminated-key", '{"apiVersion":"v1","ki'),
    ("unterminated-obj", '{"apiVersion":"v1","kind":"K"'),
    ("unterminated-obj-comma", '{"apiVersion":"v1","kind":"K",'),
    ("unterminated-arr", obj('"a":[1')[:-1]),
    ("just-open", "{"),
    ("just-close", "}"),
    ("bad-escape-x", obj('"a":"\\x41"')),
    ("bad-escape-u", obj('"a":"\\u12"')),
    ("bad-escape-u-nonhex", obj('"a":"\\uzzzz"')),
    ("bad-escape-in-key", obj('"\\q":1')),
    ("bad-escape-kind", '{"apiVersion":"v1","kind":"\\x"}'),
    ("raw-ctl-in-string", obj('"a":"x\x01y"')),
    ("raw-nl-in-string", obj('"a":"x\ny"')),
    ("raw-tab-in-string", obj('"a":"x\ty"')),
    ("raw-nul-in-string", obj('"a":"x\x00y"')),
    ("leading-zero", obj('"a":01')),
    ("leading-dot", obj('"a":.5')),
    ("trailing-dot", obj('"a":1.')),
    ("plus", obj('"a":+1')),
    ("exp-no-digits", obj('"a":1e')),
    ("minus-only", obj('"a":-')),
    ("nan", obj('"a":NaN')),
    ("infinity", obj('"a":Infinity')),
    ("single-quotes", "{'apiVersion':'v1','kind':'K'}"),
    ("unquoted-key", '{apiVersion:"v1",kind:"K"}'),
    ("missing-colon", '{"apiVersion" "v1","kind":"K"}'),
    ("missing-comma", '{"apiVersion":"v1" "kind":"K"}'),
    ("double-comma", '{"apiVersion":"v1",,"kind":"K"}'),
    ("tru", obj('"a":tru')),
    ("nul", obj('"a":nul')),
    ("True", obj('"a":True')),
    ("comment", '{"apiVersion":"v1", // c\n"kind":"K"}'),
    ("hex", obj('"a":0x10')),
    ("invalid-utf8-outside", b'{"apiVersion":"v1","kind":"K"\xff}'),
    ("nbsp-ws", '{"apiVersion":"v1",\u00a0"kind":"K"}'),
    ("key-not-string", '{1:2}'),
    ("close-mismatch", obj('"a":[1}')[:-1] + "]}"),
    ("array-trailing-garbage", "[1] x"),
    ("null-trailing-garbage", "null x"),
    ("dup-then-syntax", obj('"a":1,"a":2,"b":}')),
    ("range-then-syntax", obj('"n":1e400,"b":}')),
    ("kind-type-then-syntax", '{"kind":1,"b":}'),
    ("after-deep-ok", '{"apiVersion":"v1","kind":"K","a":[[[[1]]]]]}'),
]
for nm, body in SYN:
    add("syntax", nm, body)

# ---------------------------------------------------------------- deep nesting (JSON only)
def deep(total, opener, closer, wrap_root=True):
    # total nesting depth including the root object
    inner_levels = total - 1
    if opener == "[":
        mid = "[" * inner_levels + "]" * inner_levels
    else:
        mid = '{"a":' * inner_levels + "1" + "}" * inner_levels
        if inner_levels == 0:
            mid = "1"
    return "{" + HDR + ',"d":' + mid + "}"


for depth in (9999, 10000, 10001, 10002, 20000):
    add("deep", f"arrays-{depth}", deep(depth, "[", "]"), fmts=("json",), fatal_only=True)
    add("deep", f"objects-{depth}", deep(depth, "{", "}"), fmts=("json",), fatal_only=True)
add("deep", "top-array-10001", "[" * 10001 + "]" * 10001, fmts=("json",), fatal_only=True)
add("deep", "top-array-10000", "[" * 10000 + "]" * 10000, fmts=("json",), fatal_only=True)
add("deep", "unterminated-10001", "{" + HDR + ',"d":' + "[" * 10000, fmts=("json",), fatal_only=True)
add("deep", "unterminated-9000", "{" + HDR + ',"d":' + "[" * 9000, fmts=("json",), fatal_only=True)
add("deep", "dups-at-depth-500", "{" + HDR + ',"d":' + '{"a":' * 499 + '{"x":1,"x":2}' + "}" * 499 + "}", fmts=("json",))
add("deep", "missing-kind-10001", '{"d":' + "[" * 10000 + "]" * 10000 + "}", fmts=("json",), fatal_only=True)
add("deep", "missing-kind-10000", '{"d":' + "[" * 9999 + "]" * 9999 + "}", fmts=("json",), fatal_only=True)
add("deep", "yaml-flow-arrays-2000", "apiVersion: v1\nkind: K\nd: " + "[" * 2000 + "]" * 2000 + "\n", fmts=("yaml",), fatal_only=True)

# ---------------------------------------------------------------- YAML-only bodies
Y = lambda nm, body: add("yaml", nm, body, fmts=("yaml",))
YH = "apiVersion: v1\nkind: K\n"
for w in ["yes", "no", "on", "off", "y", "n", "Y", "N", "Yes", "NO", "On", "OFF", "true", "True", "TRUE", "false",
          "~", "null", "Null", "NULL", "", "''", '"yes"', "'y'", "tRue"]:
    Y(f"scalar-value[{w}]", YH + f"v: {w}\n")
    Y(f"scalar-key[{w}]", YH + f"{w}: 1\n")
    Y(f"kind[{w}]", f"apiVersion: v1\nkind: {w}\n")
    Y(f"apiVersion[{w}]", f"apiVersion: {w}\nkind: K\n")
    Y(f"in-list[{w}]", YH + f"l: [{w}]\n")
for n in ["1", "-1", "0x1F", "0o17", "017", "0b101", "1_000", "+1", "1.0", "1e3", "1.0e3", "1e+3", ".5", "-.5", "1.",
          ".inf", "-.inf", ".nan", ".Inf", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
          "18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "1e400", "1.0e400",
          "-0", "-0.0", "0.1", "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "12:30", "0.", "00",
          "1__0", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "1e21", "1.0e21", "1.5e300"]:
    Y(f"num-value[{n}]", YH + f"v: {n}\n")
    Y(f"num-key[{n}]", YH + f"{n}: x\n")
    Y(f"num-kind[{n}]", f"apiVersion: v1\nkind: {n}\n")
Y("dup-root", YH + "a: 1\na: 2\n")
Y("dup-root-3x", YH + "a: 1\na: 2\na: 3\n")
Y("dup-two-keys", YH + "a: 1\nb: 1\na: 2\nb: 2\n")
Y("dup-nested", YH + "o:\n  b: 1\n  b: 2\n")
Y("dup-flow-one-line", YH + "o: {b: 1, b: 2}\n")
Y("dup-flow-root-one-line", "{apiVersion: v1, kind: K, a: 1, a: 2}")
Y("dup-flow-root-multi", "{apiVersion: v1, kind: K, a: 1, a: 2, b: 1, b: 2}")
Y("dup-in-list", YH + "l:\n- b: 1\n  b: 2\n- b: 1\n  b: 2\n")
Y("dup-list-of-lists", YH + "l:\n- - b: 1\n    b: 2\n")
Y("dup-kind", "apiVersion: v1\nkind: A\nkind: B\n")
Y("dup-kind-empty-last", "apiVersion: v1\nkind: A\nkind: ''\n")
Y("dup-apiVersion", "apiVersion: v1\napiVersion: a/b/c\nkind: K\n")
Y("dup-metadata", YH + "metadata:\n  name: a\nmetadata:\n  name: b\n")
Y("dup-first-value-has-dups", YH + "a:\n  b: 1\n  b: 2\na:\n  c: 1\n")
Y("dup-many-150", YH + "".join(f"k{i}: 1\nk{i}: 2\n" for i in range(150)))
Y("dup-same-150", YH + "".join(f"a: {i}\n" for i in range(150)))
Y("dup-int-vs-string-key", YH + "1: a\n'1': b\n")
Y("dup-bool-vs-string-key", YH + "true: a\n'true': b\n")
Y("dup-null-key", YH + "~: a\nnull: b\n")
Y("dup-float-keys", YH + "1.0: a\n1: b\n")
Y("dup-quoted-same", YH + "a: 1\n'a': 2\n\"a\": 3\n")
Y("dup-missing-kind", "apiVersion: v1\na: 1\na: 2\n")
Y("dup-and-json-dup-interplay", YH + "a: {b: 1}\na: {b: 2}\n")
Y("anchor-alias", YH + "a: &x {b: 1}\nc: *x\n")
Y("anchor-alias-dups", YH + "a: &x {b: 1, b: 2}\nc: *x\n")
Y("merge-key", YH + "base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  x: 3\n")
Y("merge-key-dup-after", YH + "base: &b {x: 1}\nd:\n  <<: *b\n  x: 3\n  x: 4\n")
Y("merge-key-list", YH + "b1: &b1 {x: 1}\nb2: &b2 {x: 2, y: 2}\nd:\n  <<: [*b1, *b2]\n")
Y("merge-key-twice", YH + "b1: &b1 {x: 1}\nd:\n  <<: *b1\n  <<: *b1\n")
Y("alias-kind", "apiVersion: &v v1\nkind: *v\n")
Y("alias-undefined", YH + "a: *nope\n")
Y("anchor-redefine", YH + "a: &x 1\nb: &x 2\nc: *x\n")
Y("tab-indent", YH + "o:\n\tb: 1\n")
Y("tab-after-colon", YH + "o:\t1\n")
Y("tab-in-value", YH + "o: a\tb\n")
Y("syntax-error-colon", YH + "a: b: c\n")
Y("syntax-error-unclosed-flow", YH + "a: [1, 2\n")
Y("syntax-error-unclosed-quote", YH + "a: 'x\n")
Y("syntax-error-bad-indent", YH + "a:\n  b: 1\n c: 2\n")
Y("syntax-error-line1", "a: b: c\n")
Y("empty-document", "")
Y("doc-marker-only", "---\n")
Y("doc-marker-end", "---\n...\n")
Y("comment-only", "# just a comment\n")
Y("comment-only-multi", "# a\n# b\n\n")
Y("whitespace-only", "   \n\n")
Y("multi-doc", YH + "---\napiVersion: v2\nkind: L\n")
Y("multi-doc-first-empty", "---\n---\n" + YH)
Y("flow-mapping", "{apiVersion: v1, kind: K, spec: {a: [1, 2, {b: c}]}}")
Y("flow-mapping-json-like", '{"apiVersion": "v1", "kind": "K", "a": yes}')
Y("flow-seq-root", "[1, 2]")
Y("block-seq-root", "- a\n- b\n")
Y("scalar-root", "hello")
Y("scalar-root-int", "42")
Y("scalar-root-null", "~")
Y("quoted-keys", YH + "'a.b': 1\n\"c[0]\": 2\n'': 3\n")
Y("non-ascii", YH + "é: ü\n😀: 1\n")
Y("escapes-dq", YH + 'a: "\\x41\\u00e9\\U0001F600\\0\\t\\n\\\\"\n')
Y("escapes-dq-nul-key", YH + '"a\\0b": 1\n')
Y("escapes-surrogate", YH + 'a: "\\ud800"\n')
Y("invalid-utf8-value", YH.encode() + b"a: \xff\n")
Y("invalid-utf8-key", YH.encode() + b"\xff: 1\n")
Y("raw-nul", YH + "a: x\x00y\n")
Y("ctl-char", YH + "a: x\x01y\n")
Y("bom", "\ufeff" + YH)
Y("crlf", YH.replace("\n", "\r\n") + "a: 1\r\n")
Y("block-literal", YH + "a: |\n  line1\n  line2\n")
Y("block-folded", YH + "a: >-\n  line1\n  line2\n")
Y("empty-value", YH + "a:\n")
Y("null-value-key", YH + "? [1, 2]\n: x\n")
Y("map-key", YH + "? {a: 1}\n: x\n")
Y("binary", YH + "b: !!binary aGVsbG8=\n")
Y("tagged-str", YH + "n: !!str 1\n")
Y("tagged-int-bad", YH + "n: !!int x\n")
Y("tagged-float", YH + "n: !!float 1\n")
Y("custom-tag", YH + "n: !foo bar\n")
Y("kind-list", "apiVersion: v1\nkind: [a]\n")
Y("kind-map", "apiVersion: v1\nkind: {a: 1}\n")
Y("Kind-upper", "apiVersion: v1\nKind: K\n")
Y("Kind-and-kind", "apiVersion: v1\nKind: 1\nkind: K\n")
Y("kelvin-kind", "apiVersion: v1\n\u212aind: 1\nkind: K\n")
Y("longs-apiversion", "apiVer\u017fion: 1\nkind: K\n")
Y("apiVersion-null", "apiVersion: null\nkind: K\n")
Y("apiVersion-abc", "apiVersion: a/b/c\nkind: K\n")
Y("metadata-name", YH + "metadata:\n  name: x\n")
Y("long-key", YH + "k" * 2000 + ": 1\n")
Y("long-key-1025", YH + "k" * 1025 + ": 1\n")
Y("complex-key-long", YH + "? " + "k" * 1100 + "\n: 1\n")
Y("html-in-value", YH + "a: <&>\n")
Y("aliases-many", YH + "a: &a [1,2]\nb: &b [*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b]\nd: [*c,*c,*c]\n")
Y("dup-under-missing-kind", "a: 1\na: 2\n")
Y("nested-dup-lines", YH + "o:\n  p:\n    q: 1\n    q: 2\n  p: 3\n")
Y("indent-seq-dup", YH + "l:\n  - x: 1\n    x: 2\n")
Y("dup-three-places", YH + "a: 1\nb: {c: 1, c: 2}\na: 2\nl:\n- d: 1\n  d: 2\n")


# ---- YAML line-break characters, plain '-' in flow, depth limits (added after first pass)
Y("nel-in-flow-key", '{"apiVersion": "v1", "kind": "K", "a\u0085b": 1}')
Y("u2029-in-flow-key", '{"apiVersion": "v1", "kind": "K", "a\u2029b": 1}')
Y("u2028-in-flow-value", '{"apiVersion": "v1", "kind": "K", "a": "x\u2028y"}')
Y("u2028-in-block-value-dq", YH + 'a: "x\u2028y"\n')
Y("u2028-in-block-plain", YH + 'a: x\u2028y\n')
Y("u2028-escaped-dq", YH + 'a: "x\\u2028y"\n')
Y("lone-cr-block", "apiVersion: v1\rkind: K\ra: 1\r")
Y("lone-cr-flow-before-colon", '{"apiVersion": "v1", "kind"\r: "K"}')
Y("lf-flow-before-colon", '{"apiVersion": "v1", "kind"\n: "K"}')
Y("flow-plain-dash", "{apiVersion: v1, kind: K, a: -}")
Y("flow-seq-plain-dash", "apiVersion: v1\nkind: K\na: [-]\n")
Y("flow-plain-dash-x", "{apiVersion: v1, kind: K, a: -x}")
Y("block-plain-dash", YH + "a: -\n")
for d in (254, 255, 256, 257, 1000, 10000, 10001):
    add("deep", f"yaml-flow-arrays-{d}", "apiVersion: v1\nkind: K\nd: " + "[" * d + "]" * d + "\n", fmts=("yaml",), fatal_only=True)
    add("deep", f"yaml-flow-maps-{d}", "apiVersion: v1\nkind: K\nd: " + "{a: " * d + "1" + "}" * d + "\n", fmts=("yaml",), fatal_only=True)
for d in (100, 255, 256, 300, 1000):
    add("deep", f"yaml-block-maps-{d}", YH + "".join(" " * i + "a:\n" for i in range(d)) + " " * d + "b: 1\n", fmts=("yaml",), fatal_only=True)

with open(sys.argv[1], "w") as f:
    for c in cases:
        f.write(json.dumps(c) + "\n")
print(len(cases), "cases,", len(seen), "bodies x formats", file=sys.stderr)
