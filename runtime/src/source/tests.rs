use super::*;

fn pos(line: usize, column: usize) -> Position {
    Position { line, column }
}

#[test]
fn json_keys_and_items() {
    let text = br#"{
  "apiVersion": "v1",
  "spec": {"ports": [{"port": 80}, {"port": 81, "x": 1}]}
}"#;
    let map = SourceMap::json(text).unwrap();
    assert_eq!(map.locate("apiVersion"), Some(pos(2, 3)));
    assert_eq!(map.locate("spec"), Some(pos(3, 3)));
    assert_eq!(map.locate("spec.ports"), Some(pos(3, 12)));
    assert_eq!(map.locate("spec.ports[1]"), Some(pos(3, 36)));
    assert_eq!(map.locate("spec.ports[1].x"), Some(pos(3, 49)));
    assert_eq!(map.locate("spec.ports[2]"), None);
    assert_eq!(map.locate("spec.nothing"), None);
    assert_eq!(map.locate("spec.ports.x"), None);
}

#[test]
fn columns_count_characters_not_bytes() {
    let text = "{\"é€😀\": {\"k\": 1}}".as_bytes();
    let map = SourceMap::json(text).unwrap();
    assert_eq!(map.locate("é€😀.k"), Some(pos(1, 10)));
    let yaml = "a: {é€😀: 1, k: 2}\n".as_bytes();
    let map = SourceMap::yaml(yaml).unwrap();
    assert_eq!(map.locate("a.k"), Some(pos(1, 13)));
}

#[test]
fn json_escapes_decode_as_go_does() {
    let map = SourceMap::json(br#"{"a\u00e9\"b": {"\ud83d\ude00": 1, "\ud800x": 2}}"#).unwrap();
    assert_eq!(map.locate("a\u{e9}\"b.\u{1F600}"), Some(pos(1, 17)));
    assert_eq!(map.locate("a\u{e9}\"b.\u{FFFD}x"), Some(pos(1, 36)));
    // Invalid UTF-8: one U+FFFD per byte.
    let map = SourceMap::json(b"{\"a\xff\xfe\": 1}").unwrap();
    assert_eq!(map.locate("a\u{FFFD}\u{FFFD}"), Some(pos(1, 2)));
}

#[test]
fn keys_with_dots_and_brackets_backtrack() {
    let yaml = b"metadata:\n  annotations:\n    example.com/x.y: a\n    example.com: {x: b}\n  labels:\n    a[0]: c\n";
    let map = SourceMap::yaml(yaml).unwrap();
    assert_eq!(map.locate("metadata.annotations.example.com/x.y"), Some(pos(3, 5)));
    assert_eq!(map.locate("metadata.annotations.example.com.x"), Some(pos(4, 19)));
    assert_eq!(map.locate("metadata.labels.a[0]"), Some(pos(6, 5)));
    assert_eq!(
        map.segments("metadata.annotations.example.com.x"),
        Some(vec![
            Segment::Key("metadata".into()),
            Segment::Key("annotations".into()),
            Segment::Key("example.com".into()),
            Segment::Key("x".into()),
        ])
    );
}

#[test]
fn yaml_block_and_flow() {
    let text = b"# comment\napiVersion: example.com/v1\nspec:\n  items:\n  - name: a\n    colour: red\n  -   name: b\n  flow: {a: [1, {b: 2}]}\n";
    let map = SourceMap::yaml(text).unwrap();
    assert_eq!(map.locate("apiVersion"), Some(pos(2, 1)));
    assert_eq!(map.locate("spec.items[0].colour"), Some(pos(6, 5)));
    assert_eq!(map.locate("spec.items[1].name"), Some(pos(7, 7)));
    assert_eq!(map.locate("spec.flow.a[1].b"), Some(pos(8, 18)));
    assert_eq!(
        map.segments("spec.items[1]"),
        Some(vec![
            Segment::Key("spec".into()),
            Segment::Key("items".into()),
            Segment::Index(1)
        ])
    );
}

#[test]
fn duplicates_in_text_order_with_first_positions() {
    let json = br#"{"metadata": {"name": "a", "name": "b"}, "spec": {"p": [{"x": 1, "x": 2}]}, "spec": {}}"#;
    let map = SourceMap::json(json).unwrap();
    let dups = map.duplicates();
    let paths: Vec<_> = dups.iter().map(|d| d.path.as_str()).collect();
    assert_eq!(paths, ["metadata.name", "spec.p[0].x", "spec"]);
    assert_eq!(dups[0].first, pos(1, 15));
    assert_eq!(dups[0].at, pos(1, 28));
    assert_eq!(map.occurrences("metadata.name"), [pos(1, 15), pos(1, 28)]);
    // The decoder keeps the last value: lookups go through it first, and fall back to
    // earlier occurrences.
    assert_eq!(map.locate("spec"), Some(pos(1, 77)));
    assert_eq!(map.locate("spec.p"), Some(pos(1, 51)));

    let yaml = b"a: 1\nb:\n  c: 1\n  c: 2\na: 3\n";
    let map = SourceMap::yaml(yaml).unwrap();
    let dups = map.duplicates();
    assert_eq!(
        dups,
        [
            Duplicate {
                path: "b.c".into(),
                at: pos(4, 3),
                first: pos(3, 3)
            },
            Duplicate {
                path: "a".into(),
                at: pos(5, 1),
                first: pos(1, 1)
            },
        ]
    );
}

#[test]
fn anchors_aliases_and_merge_keys() {
    let yaml = b"base: &b\n  x: 1\n  z: 2\nspec:\n  <<: *b\n  z: 3\nother: *b\n";
    let map = SourceMap::yaml(yaml).unwrap();
    assert_eq!(map.locate("spec.x"), Some(pos(2, 3)));
    assert_eq!(map.locate("spec.z"), Some(pos(6, 3)));
    assert_eq!(map.locate("other.z"), Some(pos(3, 3)));
    // A merged key overridden by a written one is not a duplicate.
    assert!(map.duplicates().is_empty());
}

#[test]
fn offsets_shift_first_line_columns_only() {
    let base = pos(10, 5);
    assert_eq!(pos(1, 3).offset_by(base), pos(10, 7));
    assert_eq!(pos(2, 3).offset_by(base), pos(11, 3));
}

#[test]
fn broken_text_gives_none_not_a_panic() {
    for text in [
        &b"{"[..],
        b"{\"a\": [1, 2}",
        b"}",
        b"{\"a",
        b"{1: 2}",
        b"a: [b\n",
        b"\xff\xfe",
    ] {
        let _ = SourceMap::json(text);
        let _ = SourceMap::yaml(text);
    }
    assert!(SourceMap::json(b"{\"a\": [1").is_none());
    assert!(SourceMap::yaml(b"a: [b\n").is_none());
}

#[test]
fn deep_nesting_does_not_recurse() {
    let depth = 10_000;
    let mut text = String::new();
    for _ in 0..depth {
        text.push_str("{\"a\":");
    }
    text.push('1');
    for _ in 0..depth {
        text.push('}');
    }
    let map = SourceMap::json(text.as_bytes()).unwrap();
    let path = vec!["a"; depth].join(".");
    assert_eq!(map.locate(&path), Some(pos(1, 5 * (depth - 1) + 2)));
    assert!(map.duplicates().is_empty());
}

mod properties {
    use proptest::prelude::*;
    use serde_json::Value;

    use super::super::SourceMap;

    /// JSON values with keys that hold dots, brackets, quotes and non-ASCII characters.
    fn value() -> impl Strategy<Value = Value> {
        let key = prop_oneof![
            "[a-z]{1,6}",
            "[a-z]{1,3}\\.[a-z]{1,3}",
            "[a-z]{1,3}\\[[0-9]\\]",
            "[a-zé€\"\\\\ ]{1,5}",
        ];
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i32>().prop_map(Value::from),
            "[a-z\n]{0,5}".prop_map(Value::String),
        ];
        leaf.prop_recursive(5, 40, 5, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map(key.clone(), inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Every path to a key or item, spelled as the API server spells field paths.
    fn paths(v: &Value, prefix: &str, out: &mut Vec<(String, String)>) {
        match v {
            Value::Object(m) => {
                for (k, child) in m {
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    out.push((p.clone(), k.clone()));
                    paths(child, &p, out);
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    let p = format!("{prefix}[{i}]");
                    out.push((p.clone(), String::new()));
                    paths(child, &p, out);
                }
            }
            _ => {}
        }
    }

    /// The text at a position (1-based line, column in characters).
    fn at(text: &str, line: usize, column: usize) -> String {
        text.lines()
            .nth(line - 1)
            .unwrap_or("")
            .chars()
            .skip(column - 1)
            .collect()
    }

    proptest! {
        /// In compact and pretty JSON and in YAML, every field path of an object is found, at
        /// the text of its key (as written, quoted or not); items at their value.
        #[test]
        fn every_path_is_found_at_its_key(m in prop::collection::btree_map("[a-z]{1,4}", value(), 1..4)) {
            let v = Value::Object(m.into_iter().collect());
            let mut all = Vec::new();
            paths(&v, "", &mut all);
            let texts = [
                ("compact", serde_json::to_string(&v).unwrap(), true),
                ("pretty", serde_json::to_string_pretty(&v).unwrap(), true),
                ("yaml", kstruct_schema::yaml::emit(&v), false),
            ];
            for (name, text, json) in &texts {
                let map = if *json { SourceMap::json(text.as_bytes()) } else { SourceMap::yaml(text.as_bytes()) };
                let map = map.unwrap_or_else(|| panic!("{name}: no map for {text}"));
                prop_assert!(map.duplicates().is_empty());
                for (path, key) in &all {
                    let pos = map.locate(path);
                    prop_assert!(pos.is_some(), "{name}: {path:?} not found in {text}");
                    let pos = pos.unwrap();
                    if !key.is_empty() {
                        let here = at(text, pos.line, pos.column);
                        let quoted = serde_json::to_string(key).unwrap();
                        let single = format!("'{}'", key.replace('\'', "''"));
                        prop_assert!(
                            here.starts_with(&quoted) || here.starts_with(&single) || here.starts_with(key.as_str()),
                            "{name}: {path:?} at {pos:?} is {here:?} in {text}"
                        );
                    }
                }
            }
        }

        /// Any bytes: no panic, and lookups of arbitrary paths terminate.
        #[test]
        fn arbitrary_text_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200), path in "[a-z.\\[\\]0-9]{0,12}") {
            for map in [SourceMap::json(&bytes), SourceMap::yaml(&bytes)].into_iter().flatten() {
                let _ = map.locate(&path);
                let _ = map.occurrences(&path);
                let _ = map.duplicates();
            }
        }
    }
}

#[test]
fn flow_sequences_closed_at_the_mappings_indentation_keep_positions() {
    // go-yaml reads these (Tekton's examples write them), and the map holds their positions.
    let yaml = "spec:\n  x: 1\n  args: [\n    \"x\",\n  ]\n  after: [ a, {k: 1},\n]\n  last: 2\n";
    let map = SourceMap::yaml(yaml.as_bytes()).unwrap();
    assert_eq!(map.locate("spec.x"), Some(pos(2, 3)));
    assert_eq!(map.locate("spec.args[0]"), Some(pos(4, 5)));
    assert_eq!(map.locate("spec.after[1].k"), Some(pos(6, 16)));
    assert_eq!(map.locate("spec.last"), Some(pos(8, 3)));
}

#[test]
fn plain_keys_are_named_as_the_decoder_names_them() {
    let map = SourceMap::yaml(b"spec:\n  y: 1\n  'n': 2\n  0x10: 3\n").unwrap();
    assert_eq!(map.locate("spec.true"), Some(pos(2, 3)));
    assert_eq!(map.locate("spec.n"), Some(pos(3, 3)));
    assert_eq!(map.locate("spec.16"), Some(pos(4, 3)));
}
