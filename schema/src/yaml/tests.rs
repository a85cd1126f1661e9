use serde_json::{Value, json};

use super::*;

fn conv(doc: &str) -> Value {
    match to_json(doc) {
        Ok(c) => c.value,
        Err(e) => panic!("{doc:?}: {e}"),
    }
}

fn err(doc: &str) -> Error {
    match to_json(doc) {
        Ok(c) => panic!("{doc:?}: expected an error, got {}", c.value),
        Err(e) => e,
    }
}

fn err_msg(doc: &str) -> String {
    err(doc).message().to_string()
}

fn scalar(s: &str) -> Value {
    conv(&format!("v: {s}"))["v"].clone()
}

/// Runs `f` on a thread with the default 2 MiB stack of spawned threads.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("thread panicked")
}

#[test]
fn resolves_booleans_and_nulls_like_yaml_1_1() {
    for s in ["y", "Y", "yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE"] {
        assert_eq!(scalar(s), json!(true), "{s}");
    }
    for s in [
        "n", "N", "no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE",
    ] {
        assert_eq!(scalar(s), json!(false), "{s}");
    }
    for s in ["~", "null", "Null", "NULL", ""] {
        assert_eq!(scalar(s), Value::Null, "{s:?}");
    }
    for s in ["yEs", "tRUE", "nULL", "oN", "Nope", "none", "nil"] {
        assert_eq!(scalar(s), json!(s), "{s}");
    }
}

#[test]
fn resolves_integers_like_go_strconv() {
    let cases: &[(&str, Value)] = &[
        ("0", json!(0)),
        ("12", json!(12)),
        ("+12", json!(12)),
        ("-12", json!(-12)),
        ("-0", json!(0)),
        ("00", json!(0)),
        ("0x1F", json!(31)),
        ("0X1f", json!(31)),
        ("-0x1F", json!(-31)),
        ("+0x1F", json!(31)),
        ("0o17", json!(15)),
        ("0O17", json!(15)),
        ("0b101", json!(5)),
        ("0B101", json!(5)),
        ("-0b101", json!(-5)),
        ("0777", json!(511)),
        ("02472256", json!(685_230)),
        ("1_000", json!(1000)),
        ("1__0_", json!(10)),
        ("0x_0A_74_AE", json!(685_230)),
        ("+685_230", json!(685_230)),
        ("9223372036854775807", json!(i64::MAX)),
        ("-9223372036854775808", json!(i64::MIN)),
        // Beyond int64 go-yaml yields uint64 or float64; the server reads a float.
        ("9223372036854775808", json!(9_223_372_036_854_775_808.0_f64)),
        ("18446744073709551615", json!(18_446_744_073_709_551_615.0_f64)),
        ("0xFFFFFFFFFFFFFFFF", json!(18_446_744_073_709_551_615.0_f64)),
        ("18446744073709551616", json!(18_446_744_073_709_551_616.0_f64)),
        ("-9223372036854775809", json!(-9_223_372_036_854_775_809.0_f64)),
        ("+18446744073709551615", json!(18_446_744_073_709_551_615.0_f64)),
        // Not octal, but a valid float.
        ("08", json!(8)),
        ("09.5", json!(9.5)),
    ];
    for (s, want) in cases {
        let got = scalar(s);
        assert_eq!(&got, want, "{s}");
        assert!(!got.is_u64() || got.is_i64(), "{s}: u64 must never appear");
    }
    // Not numbers for go-yaml.
    for s in [
        "0x",
        "0b",
        "0o",
        "0x1FFFFFFFFFFFFFFFF",
        "0b2",
        "0o8",
        "1:30",
        "190:20:30",
        "_1",
        "1-2",
        "0x1.8p1",
        "12e",
        "1e",
        "--1",
        "+-1",
        "1,000",
        "1.2.3",
    ] {
        assert_eq!(scalar(s), json!(s), "{s}");
    }
}

#[test]
fn resolves_floats_and_applies_the_servers_number_rule() {
    let cases: &[(&str, Value)] = &[
        ("1.0", json!(1)),
        ("1.", json!(1)),
        ("5.", json!(5)),
        ("1.5", json!(1.5)),
        ("1e3", json!(1000)),
        ("1E3", json!(1000)),
        ("1e+3", json!(1000)),
        ("1.5e3", json!(1500)),
        ("6.8523e+5", json!(685_230)),
        ("685.230_15e+03", json!(685_230.15)),
        ("685_230.15", json!(685_230.15)),
        ("123456e1", json!(1_234_560)),
        (".5", json!(0.5)),
        ("-.5", json!(-0.5)),
        ("+.5", json!(0.5)),
        (".1_5", json!(0.15)),
        (".5e1", json!(5)),
        ("-0.0", json!(0)),
        ("0.1", json!(0.1)),
        ("1e-400", json!(0)),
        ("1e18", json!(1_000_000_000_000_000_000_i64)),
        // Printed as 100000000000000000000: too big for int64.
        ("1e20", json!(1e20)),
        // Printed with an exponent from 1e21 on.
        ("1e21", json!(1e21)),
        ("-1e21", json!(-1e21)),
        // json.Marshal prints the shortest digits, so the server reads
        // 4611686018427388000, not 2^62.
        ("4611686018427387904.0", json!(4_611_686_018_427_388_000_i64)),
        ("9.223372036854775807e18", json!(9.223_372_036_854_776e18)),
    ];
    for (s, want) in cases {
        let got = scalar(s);
        assert_eq!(&got, want, "{s}");
        assert!(!got.is_u64() || got.is_i64(), "{s}: u64 must never appear");
    }
    // ParseFloat overflow and malformed floats stay strings.
    for s in [
        "1e400", "-1e400", ".5e400", "._5", ".", "..5", ".5.", ".e5", "inf", "nan", "Infinity", ".5_",
    ] {
        assert_eq!(scalar(s), json!(s), "{s}");
    }
}

#[test]
fn infinities_and_nan_fail_like_json_marshal() {
    for (s, want) in [
        (".inf", "+Inf"),
        (".Inf", "+Inf"),
        (".INF", "+Inf"),
        ("+.inf", "+Inf"),
        ("-.inf", "-Inf"),
        ("-.INF", "-Inf"),
        (".nan", "NaN"),
        (".NaN", "NaN"),
        (".NAN", "NaN"),
    ] {
        let e = err(&format!("v: {s}"));
        assert_eq!(e.kind(), ErrorKind::Json);
        assert_eq!(e.message(), format!("json: unsupported value: {want}"));
    }
    // json.Marshal walks keys in sorted order: "a" before "b".
    assert_eq!(err_msg("b: .nan\na: -.inf"), "json: unsupported value: -Inf");
    // An overwritten duplicate never reaches json.Marshal.
    assert_eq!(conv("a: .nan\na: 1"), json!({"a": 1}));
}

#[test]
fn quoted_scalars_are_strings() {
    assert_eq!(
        conv("a: 'yes'\nb: \"123\"\nc: '~'\nd: \"\"\ne: 'it''s'\nf: \"1.5\"\ng: \"\\u00e9\\t\\x41\""),
        json!({"a": "yes", "b": "123", "c": "~", "d": "", "e": "it's", "f": "1.5", "g": "é\tA"})
    );
    // Timestamps stay strings when decoded into interface{}.
    assert_eq!(
        scalar("2001-12-14t21:59:43.10-05:00"),
        json!("2001-12-14t21:59:43.10-05:00")
    );
    assert_eq!(scalar("2015-01-01"), json!("2015-01-01"));
    assert_eq!(
        conv("a: |\n  x\n   y\nb: >\n  p\n  q\n"),
        json!({"a": "x\n y\n", "b": "p q\n"})
    );
}

#[test]
fn explicit_tags() {
    assert_eq!(scalar("!!int \"123\""), json!(123));
    assert_eq!(scalar("!!int '0x10'"), json!(16));
    assert_eq!(scalar("!!float 1"), json!(1));
    assert_eq!(scalar("!!float '1.5'"), json!(1.5));
    assert_eq!(scalar("!!bool yes"), json!(true));
    assert_eq!(scalar("!!null ''"), Value::Null);
    assert_eq!(scalar("!!str yes"), json!("yes"));
    assert_eq!(scalar("!!str 0x10"), json!("0x10"));
    assert_eq!(scalar("!!timestamp 2015-01-01"), json!("2015-01-01"));
    assert_eq!(scalar("!!timestamp \"2015-2-3T3:4:5Z\""), json!("2015-2-3T3:4:5Z"));
    assert_eq!(scalar("!<tag:yaml.org,2002:int> \"3\""), json!(3));
    assert_eq!(scalar("! 12"), json!("12"));
    assert_eq!(scalar("!custom 12"), json!("12"));
    assert_eq!(scalar("!!foo 12"), json!("12"));
    assert_eq!(conv("%TAG !e! tag:yaml.org,2002:\n---\nv: !e!int '5'")["v"], json!(5));
    assert_eq!(
        conv("v: !!map {a: 1}\nw: !custom [1]"),
        json!({"v": {"a": 1}, "w": [1]})
    );
    assert_eq!(scalar("!!binary aGVsbG8="), json!("hello"));
    assert_eq!(scalar("!!binary |\n  aGVs\n  bG8="), json!("hello"));
    // Bytes that are not UTF-8 become U+FFFD each, as json.Marshal writes them.
    assert_eq!(scalar("!!binary gIGC"), json!("\u{FFFD}\u{FFFD}\u{FFFD}"));

    for (doc, want) in [
        ("v: !!int abc", "yaml: cannot decode !!str `abc` as a !!int"),
        ("v: !!int 1.5", "yaml: cannot decode !!float `1.5` as a !!int"),
        ("v: !!bool 1", "yaml: cannot decode !!int `1` as a !!bool"),
        ("v: !!null x", "yaml: cannot decode !!str `x` as a !!null"),
        ("v: !!timestamp foo", "yaml: cannot decode !!str `foo` as a !!timestamp"),
        (
            "v: !!timestamp 2015-02-30",
            "yaml: cannot decode !!str `2015-02-30` as a !!timestamp",
        ),
        // v2 widens int to float but not uint64.
        (
            "v: !!float 9223372036854775808",
            "yaml: cannot decode !!int `9223372036854775808` as a !!float",
        ),
        (
            "v: !!binary aGVsbG8",
            "yaml: !!binary value contains invalid base64 data",
        ),
        ("v: !!binary a b", "yaml: !!binary value contains invalid base64 data"),
    ] {
        let e = err(doc);
        assert_eq!(e.kind(), ErrorKind::Decode, "{doc}");
        assert_eq!(e.message(), want, "{doc}");
    }
    assert_eq!(err_msg("v: !x!y 1"), "yaml: found undefined tag handle");
}

#[test]
fn merge_keys() {
    let doc = "\
base: &b {x: 1, z: 2}
big: &big {r: 10}
small: &small {r: 1}
one:
  <<: *b
  r: 10
multi:
  <<: [*b, *big]
override:
  <<: [*big, *b, *small]
  x: 5
inline:
  <<: {x: 1, r: 10}
tagged:
  !!merge \"<<\": *b
quoted:
  \"<<\": *b
";
    let v = conv(doc);
    assert_eq!(v["one"], json!({"x": 1, "z": 2, "r": 10}));
    assert_eq!(v["multi"], json!({"x": 1, "z": 2, "r": 10}));
    // Earlier maps in the list win.
    assert_eq!(v["override"], json!({"x": 5, "z": 2, "r": 10}));
    assert_eq!(v["inline"], json!({"x": 1, "r": 10}));
    assert_eq!(v["tagged"], json!({"x": 1, "z": 2}));
    assert_eq!(v["quoted"], json!({"<<": {"x": 1, "z": 2}}));

    // go-yaml v2 applies keys in order: a merge after a key overrides it,
    // and strict mode reports every key set twice, merged or not.
    let c = to_json("base: &b {x: 1}\nd:\n  x: 2\n  <<: *b\n").unwrap();
    assert_eq!(c.value["d"], json!({"x": 1}));
    assert_eq!(
        c.duplicate_keys,
        vec![DuplicateKey {
            line: 1,
            key: "\"x\"".into()
        }]
    );
    let c = to_json("base: &b {x: 1}\nd:\n  <<: *b\n  x: 2\n").unwrap();
    assert_eq!(c.value["d"], json!({"x": 2}));
    assert_eq!(
        c.duplicate_keys,
        vec![DuplicateKey {
            line: 4,
            key: "\"x\"".into()
        }]
    );

    for doc in [
        "a: &a 1\nb:\n  <<: *a",
        "b:\n  <<: 1",
        "a: &a 1\nb:\n  <<: [*a]",
        "b:\n  <<: [[1]]",
    ] {
        let e = err(doc);
        assert_eq!(e.kind(), ErrorKind::Decode);
        assert_eq!(
            e.message(),
            "yaml: map merge requires map or sequence of maps as the value"
        );
    }
    // Only a key triggers a merge.
    assert_eq!(conv("a: <<\nb: [<<]"), json!({"a": "<<", "b": ["<<"]}));
}

#[test]
fn anchors_and_aliases() {
    assert_eq!(
        conv("a: &x 1\nb: &y [1, {c: d}]\nc: *x\nd: *y\ne: &x 2\nf: *x"),
        json!({"a": 1, "b": [1, {"c": "d"}], "c": 1, "d": [1, {"c": "d"}], "e": 2, "f": 2})
    );
    let e = err("a: *nope");
    assert_eq!(
        (e.kind(), e.message()),
        (ErrorKind::Decode, "yaml: unknown anchor 'nope' referenced")
    );
    assert_eq!(err_msg("a: &a [*a]"), "yaml: anchor 'a' value contains itself");
    assert_eq!(err_msg("a: &a\n  b: *a"), "yaml: anchor 'a' value contains itself");
    // libyaml anchors are [0-9A-Za-z_-]+.
    assert_eq!(
        err_msg("a: &x.y 1"),
        "yaml: did not find expected alphabetic or numeric character"
    );
    assert_eq!(
        err_msg("a: &x 1\nb: *x/y"),
        "yaml: line 2: did not find expected alphabetic or numeric character"
    );
    assert_eq!(conv("a: &x-y_1 1\nb: *x-y_1"), json!({"a": 1, "b": 1}));
}

#[test]
fn duplicate_keys_with_lines() {
    let doc = "\
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  labels: {x: 1, x: 2}
  name: b
data:
  k: v
data:
  k2: v2
";
    let c = to_json(doc).unwrap();
    assert_eq!(c.value["metadata"], json!({"name": "b", "labels": {"x": 2}}));
    // The line is that of the duplicate's value: a nested block mapping
    // starts at its first key.
    assert_eq!(
        c.strict_error().unwrap(),
        "yaml: unmarshal errors:\n  line 5: key \"x\" already set in map\n  line 6: key \"name\" already set in map\n  line 10: key \"data\" already set in map"
    );
    let e = to_json_strict(doc).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Duplicate);
    assert_eq!(Some(e.message().to_string()), c.strict_error());

    // Keys compare as Go values: 1 and 0x1 are both int 1; "1" is not.
    let c = to_json("1: a\n0x1: b\n\"1\": c\ntrue: d\nyes: e\n1.0: f\n-0.0: g\n0.0: h").unwrap();
    let keys: Vec<&str> = c.duplicate_keys.iter().map(|d| d.key.as_str()).collect();
    assert_eq!(keys, ["1", "true", "0"]);
    // -0 and 0 are one Go map key, and the later spelling replaces the key.
    assert_eq!(c.value, json!({"1": "f", "true": "e", "0": "h"}));
    assert_eq!(
        to_json_strict("~: a\nnull: b").unwrap_err().message(),
        "yaml: unmarshal errors:\n  line 2: key <nil> already set in map"
    );
    // An empty value sits right after its colon.
    assert_eq!(to_json("a: 1\na:\n").unwrap().duplicate_keys[0].line, 2);
    // Each expansion of an alias reports again.
    let c = to_json("a: &a {x: 1, x: 2}\nb: *a\nc: *a").unwrap();
    assert_eq!(c.duplicate_keys.len(), 3);
    assert!(c.duplicate_keys.iter().all(|d| d.line == 1));
    assert!(to_json("a: 1\nb: 1").unwrap().strict_error().is_none());
}

#[test]
fn strict_error_precedes_conversion_errors() {
    let doc = "a: .nan\na: 1\n~: x";
    assert_eq!(err(doc).kind(), ErrorKind::Convert);
    assert_eq!(
        to_json_strict(doc).unwrap_err().message(),
        "yaml: unmarshal errors:\n  line 2: key \"a\" already set in map"
    );
    // Parse errors come first in both modes.
    assert_eq!(
        to_json_strict("a: 1\na: 2\nb: [").unwrap_err().kind(),
        ErrorKind::Syntax
    );
    assert_eq!(to_json_strict("a: 1\nb: 2").unwrap(), json!({"a": 1, "b": 2}));
}

#[test]
fn non_string_keys_are_stringified_as_go_does() {
    assert_eq!(
        conv(
            "1: a\n-5: b\n1.5: c\n0.1: d\n3.14159265358979: e\n1e6: f\n1e36: g\n1e300: h\n.inf: i\n-.inf: j\n.nan: k\ntrue: l\nno: m\n2.0: q\n123456.0: o\n0.00001: p"
        ),
        json!({
            "1": "a", "-5": "b", "1.5": "c", "0.1": "d", "3.1415927": "e", "1e+06": "f",
            "1e+36": "g", ".inf": "i", "-.inf": "j", ".nan": "k", "true": "l", "false": "m",
            "2": "q", "123456": "o", "1e-05": "p"
        })
        .as_object()
        .map(|m| {
            // 1e300 overflows float32 and also prints as .inf; the later key wins.
            let mut m = m.clone();
            m.insert(".inf".into(), json!("i"));
            Value::Object(m)
        })
        .unwrap()
    );
    // When two keys stringify alike, the later one wins here (Go: random).
    assert_eq!(conv("1: a\n\"1\": b"), json!({"1": "b"}));
    let e = err("~: 1");
    assert_eq!(e.kind(), ErrorKind::Convert);
    assert_eq!(
        e.message(),
        "unsupported map key of type: %!s(<nil>), key: <nil>, value: 1"
    );
    assert_eq!(
        err_msg("9223372036854775808: [a, ~, {b: 1.5}]"),
        "unsupported map key of type: uint64, key: 0x8000000000000000, value: []interface {}{\"a\", interface {}(nil), map[interface {}]interface {}{\"b\":1.5}}"
    );
    assert_eq!(
        err_msg("? [a, 1]\n: b"),
        "yaml: invalid map key: []interface {}{\"a\", 1}"
    );
    assert_eq!(
        err_msg("{a: 1}: b"),
        "yaml: invalid map key: map[interface {}]interface {}{\"a\":1}"
    );
}

#[test]
fn splits_streams_like_yaml_reader() {
    let stream = "---\na: 1\n---\n---   # only a comment\n# comment doc\n---\nb: 2\n...\nc: 3\n---\n\n";
    let docs = split_documents(stream).unwrap();
    let got: Vec<(&str, usize)> = docs.iter().map(|d| (d.text, d.first_line)).collect();
    assert_eq!(
        got,
        [
            ("a: 1\n", 2),
            ("# comment doc\n", 5),
            ("b: 2\n...\nc: 3\n", 7),
            ("\n", 11)
        ]
    );
    let values: Vec<Value> = docs.iter().map(|d| conv(d.text)).collect();
    // go-yaml stops at `...`.
    assert_eq!(values, [json!({"a": 1}), Value::Null, json!({"b": 2}), Value::Null]);

    assert_eq!(split_documents("").unwrap(), []);
    assert_eq!(split_documents("---\n---\n").unwrap(), []);
    let crlf = split_documents("a: 1\r\n---\r\nb: 2\r\n").unwrap();
    assert_eq!(
        crlf.iter().map(|d| d.text).collect::<Vec<_>>(),
        ["a: 1\r\n", "b: 2\r\n"]
    );
    assert_eq!(conv(crlf[1].text), json!({"b": 2}));
    // A last line without newline still belongs to the last document.
    assert_eq!(split_documents("a: 1\n---\nb: 2").unwrap()[1].text, "b: 2");

    for (stream, want) in [
        ("a: 1\n--- b: 2\n", "invalid Yaml document separator: b: 2"),
        ("a: 1\n---foo\n", "invalid Yaml document separator: foo"),
        ("--- |\n  text\n", "invalid Yaml document separator: |"),
        ("---- \n", "invalid Yaml document separator: -"),
    ] {
        let e = split_documents(stream).unwrap_err();
        assert_eq!((e.kind(), e.message()), (ErrorKind::Separator, want));
    }
    assert_eq!(split_documents("a: 1\n--- \t# c\nb: 2").unwrap().len(), 2);
    // An indented `---` is content, not a separator.
    assert_eq!(split_documents("a: |\n  ---\n").unwrap().len(), 1);

    let bytes = split_document_bytes(b"a: \xff\n---\nb: 1\n").unwrap();
    assert_eq!(bytes.len(), 2);
    assert_eq!(
        to_json_bytes(bytes[0].bytes).unwrap_err().message(),
        "yaml: invalid leading UTF-8 octet"
    );
    assert_eq!(to_json_bytes(bytes[1].bytes).unwrap().value, json!({"b": 1}));

    // Locations map back to the stream through first_line.
    let docs = split_documents("a: 1\n---\nb: 1\nc: [\n").unwrap();
    let e = to_json(docs[1].text).unwrap_err();
    assert_eq!(
        e.clone().offset_lines(docs[1].first_line - 1).line(),
        Some(e.line().unwrap() + 2)
    );
}

#[test]
fn only_the_first_document_is_converted() {
    assert_eq!(conv("a: 1\n---\nb: 2"), json!({"a": 1}));
    assert_eq!(conv("---\n---\nb: 2"), Value::Null);
    assert_eq!(conv("a: 1\n... trailing junk is never read"), json!({"a": 1}));
    assert_eq!(conv("# comment\n---\na: 1"), json!({"a": 1}));
    assert_eq!(conv(""), Value::Null);
    assert_eq!(conv("   \n# just a comment\n"), Value::Null);
    assert_eq!(conv("---"), Value::Null);
    assert_eq!(conv("- a\n- b"), json!(["a", "b"]));
    assert_eq!(conv("plain text"), json!("plain text"));
    assert_eq!(conv("%YAML 1.1\n---\na: 1"), json!({"a": 1}));
}

#[test]
fn json_input() {
    let doc = "{\n\t\"apiVersion\": \"v1\",\n\t\"items\": [1, 2.5, -3e2, true, null, \"\\u0000\\u00e9\", {\"a\": []}],\n\t\"big\": 12345678901234567890\n}";
    assert_eq!(
        conv(doc),
        json!({"apiVersion": "v1", "items": [1, 2.5, -300, true, null, "\u{0}é", {"a": []}], "big": 12_345_678_901_234_567_890.0_f64})
    );
    assert_eq!(conv("{\"a\":1,\"b\":[]}"), json!({"a": 1, "b": []}));
    // libyaml has no \/ escape.
    assert_eq!(err_msg("{\"a\": \"x\\/y\"}"), "yaml: found unknown escape character");
    assert_eq!(
        err_msg("{\n\"a\":\n \"x\\/y\"}"),
        "yaml: line 3: found unknown escape character"
    );
}

#[test]
fn syntax_errors_use_libyaml_texts() {
    for (doc, want) in [
        ("a: b: c", "yaml: mapping values are not allowed in this context"),
        (
            "a: 1\nb: c: d",
            "yaml: line 2: mapping values are not allowed in this context",
        ),
        ("a: @x", "yaml: found character that cannot start any token"),
        (
            "a:\n  b: `x",
            "yaml: line 2: found character that cannot start any token",
        ),
        ("\ta: 1", "yaml: found character that cannot start any token"),
        (
            "a:\n\tb: 1",
            "yaml: line 2: found character that cannot start any token",
        ),
        // A plain scalar consumes the next lines' indentation as a possible
        // continuation and refuses tabs left of its own indentation.
        (
            "a:\n  b: 1\n\t\n",
            "yaml: line 3: found a tab character that violates indentation",
        ),
        (
            "a: b\n\tc",
            "yaml: line 2: found a tab character that violates indentation",
        ),
        (
            "a: 'q'\n  \t# comment",
            "yaml: line 2: found character that cannot start any token",
        ),
        ("-\ta", "yaml: found character that cannot start any token"),
        (
            "a: |\n  \tx",
            "yaml: line 2: found a tab character where an indentation space is expected",
        ),
        (
            "a: |\n\tx",
            "yaml: line 2: found a tab character where an indentation space is expected",
        ),
        ("a: \"unterminated", "yaml: found unexpected end of stream"),
        ("%FOO bar\n---\na: 1", "yaml: found unknown directive name"),
        ("%YAML 1.2\n---\na: 1", "yaml: found incompatible YAML document"),
        (
            "%YAML 1.1\n%YAML 1.1\n---\na: 1",
            "yaml: line 1: found duplicate %YAML directive",
        ),
        // Parser errors name the 0-based line, as go-yaml v2 does.
        ("a:\n  b: 1\n- c", "yaml: line 2: did not find expected key"),
        ("a:\n  b: 1\n c: 2", "yaml: line 2: did not find expected key"),
        ("- a\nb: c", "yaml: line 1: did not find expected '-' indicator"),
        ("a:\n  - b\n  c: d", "yaml: line 2: did not find expected '-' indicator"),
        ("a: {x: 1\nb: 3", "yaml: line 1: did not find expected ',' or '}'"),
        ("a: 'x", "yaml: found unexpected end of stream"),
        ("a:\n  b: \"x\\qy\"", "yaml: line 2: found unknown escape character"),
    ] {
        let e = err(doc);
        assert_eq!(e.kind(), ErrorKind::Syntax, "{doc:?}");
        assert_eq!(e.message(), want, "{doc:?}");
    }
    // Tabs are fine where libyaml skips them: in flow context, after a
    // scalar or a simple key's `:`, in quoted scalars, in block scalar
    // content past the indentation, and in a plain scalar's continuation
    // past its indentation.
    assert_eq!(
        conv(
            "a: [1,\n\t2]\nb: x\t# c\nc: \"p\n\tq\"\nd: |\n  x\n  \ty\ne:\n  - 1\t\nf:\t1\ng:  \th\ni: 1\n  \t# c\nj: {\"k\":\t2}"
        ),
        json!({"a": [1, 2], "b": "x", "c": "p q", "d": "x\n\ty\n", "e": [1], "f": 1, "g": "h", "i": 1, "j": {"k": 2}})
    );
    // libyaml's `\'` escape.
    assert_eq!(conv("a: \"it\\'s\""), json!({"a": "it's"}));
    // libyaml ends the document after a complete root flow collection.
    assert_eq!(conv("[a, b]] junk"), json!(["a", "b"]));
    let e = err("a: 1\nb: [1, 2\n");
    assert_eq!(e.kind(), ErrorKind::Syntax);
    assert!(e.to_string().contains("(at line"), "{e}");
}

#[test]
fn deep_block_nesting_converts_up_to_go_yaml_limit() {
    let depth = 10_000;
    let ok = on_small_stack(move || {
        let doc = format!("{}x", "- ".repeat(depth));
        let v = to_json(&doc).map(|c| c.value);
        let mut d = 0;
        let mut cur = v.as_ref().ok();
        while let Some(Value::Array(items)) = cur {
            d += 1;
            cur = items.first();
        }
        if let Ok(v) = v {
            dispose(v);
        }
        d
    });
    assert_eq!(ok, depth);
    let msg = on_small_stack(|| err_msg(&format!("{}x", "- ".repeat(10_001))));
    assert_eq!(msg, "yaml: exceeded max depth of 10000");
    // Mappings count the same way; the error names the line.
    let msg = on_small_stack(|| {
        let doc = format!(
            "{}\n{}k:\n{}- k: x\n",
            "- ".repeat(9_998),
            " ".repeat(19_996),
            " ".repeat(19_998)
        );
        err_msg(&doc)
    });
    assert_eq!(msg, "yaml: line 3: exceeded max depth of 10000");
}

#[test]
fn deep_flow_nesting() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    // go-yaml takes up to 10,000 levels of flow collections (JSON's own limit is the same).
    let v = on_small_stack(move || to_json(&nested(9_999)).map(|c| dispose(c.value)).is_ok());
    assert!(v);
    let e = on_small_stack(move || err(&nested(10_001)));
    assert_eq!(e.message(), "yaml: exceeded max depth of 10000");
    let e = on_small_stack(move || err(&format!("a:\n  {}", nested(10_001))));
    assert_eq!(
        (e.kind(), e.message()),
        (ErrorKind::Syntax, "yaml: line 2: exceeded max depth of 10000")
    );
    let e = on_small_stack(move || err(&"{a: ".repeat(20_000)));
    assert_eq!(e.message(), "yaml: exceeded max depth of 10000");
}

#[test]
fn alias_chains_deeper_than_json_allows_fail_without_overflowing() {
    // Each anchor nests the previous one 200 levels deeper: 60 links make a
    // value 12,000 levels deep from a few kilobytes of YAML.
    let e = on_small_stack(|| {
        let mut doc = String::from("a0: &a0 x\n");
        for i in 1..=60 {
            doc.push_str(&format!(
                "a{i}: &a{i} {}*a{}{}\n",
                "[".repeat(200),
                i - 1,
                "]".repeat(200)
            ));
        }
        err(&doc)
    });
    assert_eq!(e.kind(), ErrorKind::Limit);
    // Just under the limit converts, and disposes, on a small stack.
    let depth = on_small_stack(|| {
        let mut doc = String::from("a0: &a0 x\n");
        for i in 1..=49 {
            doc.push_str(&format!(
                "a{i}: &a{i} {}*a{}{}\n",
                "[".repeat(200),
                i - 1,
                "]".repeat(200)
            ));
        }
        let v = conv(&doc);
        let mut d = 0;
        let mut cur = v.get("a49");
        while let Some(Value::Array(items)) = cur {
            d += 1;
            cur = items.first();
        }
        dispose(v);
        d
    });
    assert_eq!(depth, 9_800);
}

#[test]
fn alias_bombs_fail_fast() {
    let mut doc = String::from("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
    for (i, c) in ('b'..='i').enumerate() {
        let prev = (b'a' + i as u8) as char;
        doc.push_str(&format!("{c}: &{c} [{}]\n", vec![format!("*{prev}"); 9].join(",")));
    }
    let start = std::time::Instant::now();
    let e = err(&doc);
    assert_eq!(
        (e.kind(), e.message()),
        (ErrorKind::Decode, "yaml: document contains excessive aliasing")
    );
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
    // Moderate reuse is fine.
    let v = conv("a: &a {x: [1, 2, 3]}\nb: [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]");
    assert_eq!(v["b"][9], json!({"x": [1, 2, 3]}));
}

#[test]
fn reader_errors_and_encodings() {
    for (input, want) in [
        (&b"a: \xff\n"[..], "yaml: invalid leading UTF-8 octet"),
        (b"# \xff\na: 1\n", "yaml: invalid leading UTF-8 octet"),
        (b"a: \xc3\n", "yaml: invalid trailing UTF-8 octet"),
        (b"a: \xc3", "yaml: incomplete UTF-8 octet sequence"),
        (b"a: \xc0\x80\n", "yaml: invalid length of a UTF-8 sequence"),
        (b"a: \xed\xa0\x80\n", "yaml: invalid Unicode character"),
        (b"a: \xf4\x90\x80\x80\n", "yaml: invalid Unicode character"),
        (b"a: \x01\n", "yaml: control characters are not allowed"),
        (b"a: \x7f\n", "yaml: control characters are not allowed"),
        (b"a: \xc2\x80\n", "yaml: control characters are not allowed"),
        (b"a: \xef\xbf\xbe\n", "yaml: control characters are not allowed"),
        (b"\xff\xfea\x00:", "yaml: incomplete UTF-16 character"),
        (b"\xff\xfe\x00\xdc", "yaml: unexpected low surrogate area"),
        (b"\xfe\xff\xd8\x00\x00a", "yaml: expected low surrogate area"),
        // Also after the end of the first document, unlike go-yaml for big inputs.
        (b"a: 1\n...\n\xff", "yaml: invalid leading UTF-8 octet"),
    ] {
        let e = to_json_bytes(input).unwrap_err();
        assert_eq!((e.kind(), e.message()), (ErrorKind::Reader, want), "{input:?}");
    }
    assert_eq!(to_json_bytes(b"a: \xc3\xa9\n").unwrap().value, json!({"a": "é"}));
    assert_eq!(to_json_bytes(b"\xef\xbb\xbfa: 1").unwrap().value, json!({"a": 1}));
    let le: Vec<u8> = [0xff, 0xfe]
        .into_iter()
        .chain("ñ: 🟔".encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    assert_eq!(to_json_bytes(&le).unwrap().value, json!({"ñ": "🟔"}));
    let be: Vec<u8> = [0xfe, 0xff]
        .into_iter()
        .chain("a: 1".encode_utf16().flat_map(u16::to_be_bytes))
        .collect();
    assert_eq!(to_json_strict_bytes(&be).unwrap(), json!({"a": 1}));
    assert_eq!(err_msg("a: \u{0}"), "yaml: control characters are not allowed");
    assert_eq!(err("a: 1\nb: \u{1}").line(), Some(2));
    assert_eq!(conv("\u{feff}a: 1"), json!({"a": 1}));
    // The escape is allowed; the raw character is not.
    assert_eq!(conv("a: \"\\0\\x01\""), json!({"a": "\u{0}\u{1}"}));
}

#[test]
fn go_float_formatting() {
    let format_float_g = |f: f64, bits32: bool| {
        if bits32 {
            crate::go::format_float32_g(f)
        } else {
            crate::go::format_float_g(f)
        }
    };
    for (f, bits32, want) in [
        (0.0, false, "0"),
        (-0.0, false, "-0"),
        (1.0, false, "1"),
        (1e6, false, "1e+06"),
        (123_456.0, false, "123456"),
        (1_234_567.0, false, "1.234567e+06"),
        (0.0001, false, "0.0001"),
        (0.00001, false, "1e-05"),
        (1e21, false, "1e+21"),
        (1e100, false, "1e+100"),
        (f64::INFINITY, false, "+Inf"),
        (f64::NAN, false, "NaN"),
        (0.1, true, "0.1"),
        (std::f64::consts::PI, true, "3.1415927"),
        (16_777_217.0, true, "1.6777216e+07"),
        (1e300, true, "+Inf"),
    ] {
        assert_eq!(format_float_g(f, bits32), want, "{f} {bits32}");
    }
    assert_eq!(
        crate::go::quote("a\"\\\n\t\u{1}\u{a0}é😀\u{feff}"),
        "\"a\\\"\\\\\\n\\t\\x01\\u00a0é😀\\ufeff\""
    );
}

#[test]
fn errors_display_their_location() {
    let e = err("a: 1\nb: c: d");
    assert_eq!(e.line(), Some(2));
    assert_eq!(
        e.to_string(),
        format!("{} (at line 2, column {})", e.message(), e.column().unwrap())
    );
    let e = err("~: 1");
    assert_eq!(e.to_string(), e.message());
}

#[test]
fn random_inputs_never_panic() {
    // A fixed LCG keeps the test deterministic without a dependency.
    let alphabet: Vec<char> = " \t\n-:?,[]{}#&*!|>'\"%@`.~<=+0129abeyn\\/_\u{feff}é".chars().collect();
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    for _ in 0..20_000 {
        let len = next() % 24;
        let doc: String = (0..len).map(|_| alphabet[next() % alphabet.len()]).collect();
        if let Ok(c) = to_json(&doc) {
            dispose(c.value);
        }
        let _ = to_json_strict(&doc);
        let _ = split_documents(&doc);
    }
}

/// The API server's view of a value, in the notation the Go harness that
/// produced `testdata/go_expected.jsonl` prints: numbers and strings tagged.
fn tagged(v: &Value) -> Value {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => json!(format!("i:{i}")),
            None => json!(format!(
                "f:{}",
                crate::go::format_float_g(n.as_f64().unwrap_or(f64::NAN))
            )),
        },
        Value::String(s) => json!(format!("s:{s}")),
        Value::Array(items) => Value::Array(items.iter().map(tagged).collect()),
        Value::Object(m) => Value::Object(m.iter().map(|(k, v)| (k.clone(), tagged(v))).collect()),
        other => other.clone(),
    }
}

fn outcome(r: Result<Value, Error>) -> Value {
    match r {
        Ok(v) => json!({"value": tagged(&v)}),
        Err(e) => json!({"error": e.message()}),
    }
}

/// Inputs whose Go result this module deliberately or knowingly differs
/// from (see the DIVERGENCES list in mod.rs), by index in the corpus.
const KNOWN_GO_DIFFERENCES: &[usize] = &[];

#[test]
fn matches_go_yaml_v2_on_the_corpus() {
    let corpus = include_str!("testdata/go_corpus.txt");
    let expected = include_str!("testdata/go_expected.jsonl");
    let docs: Vec<&str> = corpus.split("\n#####\n").collect();
    let wants: Vec<Value> = expected.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(docs.len(), wants.len());
    let mut differing = Vec::new();
    for (i, (doc, want)) in docs.iter().zip(&wants).enumerate() {
        let got = json!({
            "lenient": outcome(to_json(doc).map(|c| c.value)),
            "strict": outcome(to_json_strict(doc)),
        });
        if &got != want {
            eprintln!("#{i} {doc:?}\n   go:   {want}\n   here: {got}");
            differing.push(i);
        }
    }
    assert_eq!(differing, KNOWN_GO_DIFFERENCES);
}

#[test]
fn a_lone_dash_in_flow_context_is_a_plain_scalar() {
    // libyaml starts a plain scalar at `-` followed by a flow indicator.
    assert_eq!(
        conv("a: [-, -]\nb: {x: -, -: z}\nc: [-1, -x]\n"),
        json!({"a": ["-", "-"], "b": {"x": "-", "-": "z"}, "c": [-1, "-x"]})
    );
    assert_eq!(conv("{a: -}"), json!({"a": "-"}));
}

#[test]
fn a_tab_after_a_multi_byte_character_is_no_indicator() {
    // Found by the decode fuzz target: a BOM, then a tab, used to be sliced mid-character.
    let _ = to_json("\n\u{feff}\tX: {");
    let _ = to_json("\u{e9}\t- a");
}

#[test]
fn flow_syntax_errors_read_like_libyaml() {
    assert_eq!(err_msg("}"), "yaml: did not find expected node content");
    assert_eq!(
        err_msg(r#"{"apiVersion" "v1","kind":"K"}"#),
        "yaml: did not find expected ',' or '}'"
    );
    assert_eq!(err_msg(r#"{"a":"b" "c":1}"#), "yaml: did not find expected ',' or '}'");
    assert_eq!(err_msg(r#"["a" "b"]"#), "yaml: did not find expected ',' or ']'");
}

#[test]
fn a_value_without_a_key_is_an_error_in_block_context() {
    assert_eq!(
        err_msg("apiVersion: v1\nkind: K\n: 1\n"),
        "yaml: line 2: did not find expected key"
    );
    assert_eq!(err_msg(": 1\n"), "yaml: did not find expected key");
    assert_eq!(
        err_msg("a:\n  b: 1\n  : 2\n"),
        "yaml: line 2: did not find expected key"
    );
    assert_eq!(err_msg("- : 1\n"), "yaml: did not find expected key");
    assert_eq!(err_msg("a:\n- b\n: 1\n"), "yaml: line 2: did not find expected key");
    // An explicit key, even an empty one, is a key.
    assert_eq!(conv("? a\n: 1\n"), json!({"a": 1}));
    // An empty explicit key parses, and then has no JSON form, as in Go.
    assert!(err_msg("? # nothing\n: 1\n").starts_with("unsupported map key of type: %!s(<nil>)"));
}

#[test]
fn flow_collections_as_libyaml_reads_them() {
    // Continuation lines need not be indented past the block around the collection.
    assert_eq!(conv("x: [1,\n2]\n"), json!({"x": [1, 2]}));
    assert_eq!(conv("x:\n  y: [1,\n 2,\n3]\n"), json!({"x": {"true": [1, 2, 3]}}));
    // An implicit key must end, and meet its ':', on the line where it starts.
    for doc in [
        "{\"a\"\n: 1}",
        "{a\n b: 1}",
        "{\"a\nb\": 1}",
        "{\"a\u{2028}b\": 1}",
        "x: {\"a\"\n: 1}\n",
    ] {
        assert_eq!(
            err_msg(doc),
            "yaml: line 1: did not find expected ',' or '}'",
            "{doc:?}"
        );
    }
    assert_eq!(err_msg("[a\n: 1]"), "yaml: line 1: did not find expected ',' or ']'");
    assert_eq!(
        err_msg("{\"a\": [1,\n2], \"b\"\n: {}}"),
        "yaml: line 2: did not find expected ',' or '}'"
    );
    // ... unless `?` introduced it.
    assert_eq!(conv("{? a\n: 1}"), json!({"a": 1}));
    assert_eq!(conv("{ ?\n a\n : 1}"), json!({"a": 1}));
    assert_eq!(conv("{\"a\": 1,\n \"b\": 2}"), json!({"a": 1, "b": 2}));
}

mod generated {
    use proptest::prelude::*;

    use super::super::generate::{self, Rng};
    use super::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Every layout go-yaml reads (quoted and plain scalars continued at any legal
        /// indentation, flow collections over lines at any indentation, tabs after a key's
        /// `:`, comments, every line-break style) reads back as the value it was written from.
        #[test]
        fn texts_in_the_layouts_go_yaml_reads_read_back(seed in any::<u64>()) {
            let mut rng = Rng::new(seed);
            let v = generate::value(&mut rng, 3);
            let text = generate::text(&mut rng, &v);
            match to_json(&text) {
                Ok(c) => prop_assert_eq!(&c.value, &v, "{:?}", text),
                Err(e) => prop_assert!(false, "{:?}: {}", text, e),
            }
        }
    }
}

/// Differential test against go-yaml itself: random texts (the generator's, and random edits
/// of them) through kstruct's reader and through go-yaml v2 via the harness in
/// `testdata/harness` (see `testdata/README.md` to build it). Run with
/// `KSTRUCT_GO_YAML=/tmp/goh cargo test -p kstruct-schema --lib -- --ignored against_go_yaml`;
/// `KSTRUCT_YAML_CASES` sets the number of texts (default 20,000), `KSTRUCT_YAML_SEED` the
/// first seed.
#[test]
#[ignore = "needs go-yaml's harness binary (KSTRUCT_GO_YAML)"]
fn against_go_yaml() {
    use super::generate::{self, Rng};
    use std::io::Write;
    use std::process::{Command, Stdio};

    let Ok(harness) = std::env::var("KSTRUCT_GO_YAML") else {
        eprintln!("*** SKIPPED against_go_yaml: KSTRUCT_GO_YAML is not set ***");
        return;
    };
    let cases: usize = std::env::var("KSTRUCT_YAML_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000);
    let first: u64 = std::env::var("KSTRUCT_YAML_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut docs = Vec::new();
    // Or given texts (separated by `\n#####\n`), such as real repositories' files.
    let given = std::env::var("KSTRUCT_YAML_INPUT")
        .ok()
        .map(|p| std::fs::read_to_string(p).expect("read the texts"));
    if let Some(given) = &given {
        docs.extend(
            given
                .split("\n#####\n")
                .enumerate()
                .map(|(i, t)| (i as u64, t.to_owned())),
        );
    }
    for seed in (first..first + cases as u64).filter(|_| given.is_none()) {
        let mut rng = Rng::new(seed);
        let v = generate::value(&mut rng, 3);
        let mut text = generate::text(&mut rng, &v);
        if rng.chance(70) {
            text = generate::mutate(&mut rng, &text);
        }
        if !text.contains("\n#####\n") && !text.ends_with("\n#####") && !text.starts_with("#####\n") {
            docs.push((seed, text));
        }
    }
    if let Ok(path) = std::env::var("KSTRUCT_YAML_DUMP") {
        let all = docs
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n#####\n");
        std::fs::write(path, all).expect("dump the texts");
    }
    let run = || {
        let mut child = Command::new(&harness)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("run the go-yaml harness");
        let input = docs
            .iter()
            .map(|(_, t)| t.as_str())
            .collect::<Vec<_>>()
            .join("\n#####\n");
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
        let out = child.wait_with_output().expect("harness output");
        writer.join().expect("writer").expect("write");
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    // Go randomises map iteration: a result that differs between two runs may be either.
    let (first_run, second_run) = (run(), run());
    let first_run: Vec<&str> = first_run.lines().collect();
    let second_run: Vec<&str> = second_run.lines().collect();
    assert_eq!(first_run.len(), docs.len());
    let mut differing = 0;
    for (i, (seed, doc)) in docs.iter().enumerate() {
        let got = json!({
            "lenient": outcome(to_json(doc).map(|c| c.value)),
            "strict": outcome(to_json_strict(doc)),
        });
        let want: Value = serde_json::from_str(first_run[i]).expect("harness JSON");
        let want2: Value = serde_json::from_str(second_run[i]).expect("harness JSON");
        if got != want && got != want2 {
            differing += 1;
            if differing <= 30 {
                eprintln!("seed {seed}: {doc:?}\n   go:   {want}\n   here: {got}");
            }
        }
    }
    let errors = first_run
        .iter()
        .filter(|l| l.contains("\"lenient\":{\"error\""))
        .count();
    eprintln!(
        "{} texts ({errors} refused by go-yaml), {differing} differ from go-yaml",
        docs.len()
    );
    assert_eq!(differing, 0);
}

// What go-yaml (the server's YAML reader) accepts and refuses where a YAML 1.2 parser would
// not, each class with its own text; every expectation here is go-yaml v2.4.0's output.

#[test]
fn quoted_scalars_continue_at_any_indentation() {
    let doc = "spec:\n  description: \"A note whose text\n  goes on below its key\"\n  other: 'single\n quoted, left of the key'\n";
    assert_eq!(
        conv(doc),
        json!({"spec": {"description": "A note whose text goes on below its key", "other": "single quoted, left of the key"}})
    );
}

#[test]
fn flow_collections_span_lines_at_any_indentation() {
    // argo-workflows writes shell scripts this way: the closing `']` at the key's column.
    let doc = "spec:\n  args: ['\n    echo hi\n  ']\n  more: [a,\nb,\n        c\n]\n";
    assert_eq!(
        conv(doc),
        json!({"spec": {"args": [" echo hi "], "more": ["a", "b", "c"]}})
    );
}

#[test]
fn only_the_first_node_of_a_document_is_read() {
    // go-yaml stops after the root node: what follows on later tokens is never parsed.
    assert_eq!(conv("'text'&x junk\n"), json!("text"));
    assert_eq!(conv("[1, 2] [3]\n"), json!([1, 2]));
    assert_eq!(conv("a: 1\n...\n]]] }}}\n"), json!({"a": 1}));
    assert_eq!(err_msg("\"a\" b: c\n"), "yaml: did not find expected key");
}

#[test]
fn tabs_separate_after_a_keys_colon_and_in_flow_context_only() {
    assert_eq!(conv("a:\t1\nb: [\t2,\t3\t]\n"), json!({"a": 1, "b": [2, 3]}));
    assert_eq!(err_msg("-\tx\n"), "yaml: found character that cannot start any token");
}

#[test]
fn nel_and_the_unicode_separators_break_lines() {
    // NEL folds like LF; a line separator inside a quoted scalar is kept.
    let doc = "a: 1\u{85}b: \"x\u{85} y\"\u{2028}c: \"p\u{2028}q\"\n";
    assert_eq!(conv(doc), json!({"a": 1, "b": "x y", "c": "p\u{2028}q"}));
    // Lines are counted with them.
    assert_eq!(
        err_msg("a: 1\u{2028}b: [\n"),
        "yaml: line 2: did not find expected node content"
    );
}

#[test]
fn plain_scalars_in_flow_context_end_as_libyaml_ends_them() {
    assert_eq!(err_msg("[a?b]\n"), "yaml: did not find expected ',' or ']'");
    assert_eq!(conv("{a:b}\n"), json!({"a:b": null}));
    assert_eq!(conv("[a: 1, b]\n"), json!([{"a": 1}, "b"]));
    assert_eq!(err_msg("[? , b]\n"), "yaml: did not find expected ',' or ']'");
}

#[test]
fn simple_keys_are_at_most_1024_characters() {
    let ok = format!("{}: v\n", "k".repeat(1024));
    assert_eq!(conv(&ok)["k".repeat(1024)], json!("v"));
    let long = format!("{}: v\n", "k".repeat(1025));
    assert_eq!(err_msg(&long), "yaml: mapping values are not allowed in this context");
}

#[test]
fn a_byte_order_mark_inside_a_document_is_a_character() {
    assert_eq!(conv("a: 1\n\u{feff}b: 2\n"), json!({"a": 1, "\u{feff}b": 2}));
    // go-yaml looks for the mark at the start of its read buffer, not at the line: with a
    // second mark first in the text, every line start skips a character.
    assert_eq!(
        err_msg("\u{feff}\u{feff}a: 1\nb: 2\n"),
        "yaml: line 1: did not find expected key"
    );
}

#[test]
fn directives_and_document_markers_as_libyaml_takes_them() {
    assert_eq!(err_msg("...\na: 1\n"), "yaml: did not find expected node content");
    assert_eq!(
        err_msg("%YAML 1.2\n---\na: 1\n"),
        "yaml: found incompatible YAML document"
    );
    assert_eq!(
        conv("%YAML 1.1\n%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n"),
        json!({"a": "1"})
    );
}

#[test]
fn a_bad_byte_is_found_when_go_yaml_reads_its_window() {
    // Beyond the first 512-byte window, after the document's end: never read.
    let mut late = b"a: 1\n...\n".to_vec();
    late.extend(b"# filler\n".repeat(70));
    late.push(0xff);
    assert_eq!(to_json_bytes(&late).map(|c| c.value).ok(), Some(json!({"a": 1})));
    // In the first window: read before anything is parsed.
    let early = b"a: 1\n...\n\xff".to_vec();
    assert_eq!(
        to_json_bytes(&early)
            .map(|c| c.value)
            .map_err(|e| e.message().to_owned()),
        Err("yaml: invalid leading UTF-8 octet".to_owned())
    );
    // A syntax error in an earlier window comes first; in the same window, the reader's.
    let mut syntax = b"a: b: c\n".to_vec();
    syntax.extend(b"# filler\n".repeat(70));
    syntax.extend(b"\xff\n");
    let e = to_json_bytes(&syntax).map(|c| c.value).unwrap_err();
    assert_eq!(e.message(), "yaml: mapping values are not allowed in this context");
    let e = to_json_bytes(b"a: b: c\n\xff\n").map(|c| c.value).unwrap_err();
    assert_eq!(e.message(), "yaml: invalid leading UTF-8 octet");
}

#[test]
fn a_syntax_error_says_what_was_being_read_and_where_it_starts() {
    let e = err("a: 1\nb: \"open\nc: 3\n");
    assert_eq!(e.message(), "yaml: line 4: found unexpected end of stream");
    assert_eq!((e.line(), e.column()), (Some(4), Some(1)));
    let c = e.context().expect("context");
    assert_eq!((c.text, c.line, c.column), ("while scanning a quoted scalar", 2, 4));
}
