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
    let yaml = b"base: &b\n  x: 1\n  y: 2\nspec:\n  <<: *b\n  y: 3\nother: *b\n";
    let map = SourceMap::yaml(yaml).unwrap();
    assert_eq!(map.locate("spec.x"), Some(pos(2, 3)));
    assert_eq!(map.locate("spec.y"), Some(pos(6, 3)));
    assert_eq!(map.locate("other.y"), Some(pos(3, 3)));
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
