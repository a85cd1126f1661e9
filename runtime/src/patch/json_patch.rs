//! RFC 6902 JSON patch, as the API server applies it: with the semantics of the json-patch
//! library it uses (`gopkg.in/evanphx/json-patch.v4`, v4.13), quirks included, rather than
//! the RFC's where they differ:
//!
//! - a `null` member or item reads as absent (so a path through it is missing, and `test`
//!   of an absent member against `null` passes);
//! - `replace` of an absent object member adds it, `copy` from one writes `null`;
//! - an absent `value` adds or replaces with `null`;
//! - array indices are Go integers: `01` and `+1` are 1, negative indices count from the end
//!   (for `add`, `-1` appends);
//! - text before a path's first `/` is ignored (`a/b` is `/b`); `add` at `""` is an error,
//!   `replace` and `test` at `""` act on the whole document;
//! - copies add up to at most 3 MiB of compact JSON per patch (the API server's limit);
//! - scalars are compared as the server writes the stored object (`1` is not `1.0`).
//!
//! The first failing operation fails the patch; the document is then unchanged. The errors
//! are the library's texts; the API server does not return them (it answers
//! `the server rejected our request due to an error in our request`).
//!
//! Crates such as `json-patch` implement the RFC: `replace` of a missing member fails there,
//! negative indices are refused, and their errors have other texts, so the server's answer to
//! a patch could not be predicted with them.

use std::collections::BTreeMap;

use super::lazy::{Node, Panic, kind_of, parse_array, parse_object};

/// The most bytes of compact JSON `copy` operations may add in one patch (the API server's
/// `JSONPatchMaxCopyBytes`).
pub const MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

/// The most operations the API server accepts in one JSON patch.
pub const MAX_OPERATIONS: usize = 10_000;

/// One operation, as the library holds it (`map[string]*json.RawMessage`): each member's text
/// by name (the last of repeated names), a `null` member present but nil.
pub struct Operation(BTreeMap<String, Node>);

impl std::fmt::Debug for Operation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

/// The operations of a patch body as the library reads them (`DecodePatch`: a JSON array of
/// objects or `null`s; `null` is no operation at all). `body` is valid JSON.
///
/// # Errors
/// Go's text for a body that is not such an array (`json: cannot unmarshal object into Go
/// value of type jsonpatch.Patch`).
pub fn decode(body: &[u8]) -> Result<Vec<Option<Operation>>, String> {
    let trimmed = body.trim_ascii();
    if trimmed == b"null" {
        return Ok(Vec::new());
    }
    let items = parse_array(trimmed).ok_or_else(|| {
        format!(
            "json: cannot unmarshal {} into Go value of type jsonpatch.Patch",
            kind_of(trimmed)
        )
    })?;
    items
        .iter()
        .map(|item| match item {
            Node::Nil => Ok(None),
            Node::Raw(Some(text)) => parse_object(text).map(|m| Some(Operation(m))).ok_or_else(|| {
                format!(
                    "json: cannot unmarshal {} into Go value of type jsonpatch.Operation",
                    kind_of(text)
                )
            }),
            _ => Err("json: cannot unmarshal into Go value of type jsonpatch.Operation".into()),
        })
        .collect()
}

/// Applies `ops` to the document `doc` (JSON text, as the server encoded the object), in
/// order, as `Patch.Apply` does: the patched document's text, which keeps what the patch wrote
/// as written.
///
/// # Errors
/// The library's text for the first operation that does not apply.
pub fn apply(doc: &[u8], ops: &[Option<Operation>]) -> Result<Vec<u8>, String> {
    let mut root = if doc.trim_ascii_start().first() == Some(&b'[') {
        Node::Ary(parse_array(doc).ok_or("the document is not JSON")?)
    } else {
        Node::Doc(parse_object(doc).ok_or("the document is not a JSON object")?)
    };
    let mut copied = 0usize;
    let empty = Operation(BTreeMap::new());
    for op in ops {
        let op = op.as_ref().unwrap_or(&empty);
        match kind(op).as_str() {
            "add" => add(&mut root, op)?,
            "remove" => remove(&mut root, op)?,
            "replace" => replace(&mut root, op)?,
            "move" => move_(&mut root, op)?,
            "test" => test(&mut root, op)?,
            "copy" => copy(&mut root, op, &mut copied)?,
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(root.to_bytes())
}

const MISSING: &str = "missing value";

/// What the library's nil dereferences become: the server answers them with a 500.
fn panicked(what: &str) -> String {
    format!("{what} (the API server panics)")
}

/// A member's text decoded as a Go string.
fn string(node: &Node) -> Result<String, String> {
    let Node::Raw(Some(text)) = node else {
        return Err("json: cannot unmarshal null into Go value of type string".into());
    };
    match crate::json::decode(text).map(|d| d.value) {
        Ok(serde_json::Value::String(s)) => Ok(s),
        _ => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            kind_of(text)
        )),
    }
}

/// `Kind()`: the `op` member, `unknown` when it is not a string.
fn kind(op: &Operation) -> String {
    match op.0.get("op") {
        Some(n) if !n.is_nil() => string(n).unwrap_or_else(|_| "unknown".into()),
        _ => "unknown".into(),
    }
}

/// `Path()`/`From()`: the member as a string.
fn member(op: &Operation, name: &str) -> Result<String, String> {
    match op.0.get(name) {
        Some(n) if !matches!(n, Node::Nil) => string(n),
        _ if name == "path" => Err(format!("operation missing path field: {MISSING}")),
        _ => Err(format!("operation, missing from field: {MISSING}")),
    }
}

/// `op.value()`: a node of the member's text; a `null` value is a node without text, an
/// absent one nil.
fn value(op: &Operation) -> Node {
    match op.0.get("value") {
        None => Node::Nil,
        Some(Node::Raw(Some(t))) => Node::text(t),
        Some(_) => Node::Raw(None),
    }
}

/// A path segment, unescaped in one left-to-right pass (`~1` is `/`, `~0` is `~`, other
/// escapes kept).
fn decode_key(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut rest = part;
    while let Some(i) = rest.find('~') {
        out.push_str(&rest[..i]);
        match rest.as_bytes().get(i + 1) {
            Some(b'1') => {
                out.push('/');
                rest = &rest[i + 2..];
            }
            Some(b'0') => {
                out.push('~');
                rest = &rest[i + 2..];
            }
            _ => {
                out.push('~');
                rest = &rest[i + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Go's `strconv.Atoi`.
fn atoi(key: &str) -> Result<i64, String> {
    let digits = key.strip_prefix(['+', '-']).unwrap_or(key);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "strconv.Atoi: parsing {}: invalid syntax",
            kstruct_schema::go::quote(key)
        ));
    }
    key.parse::<i64>().map_err(|_| {
        format!(
            "strconv.Atoi: parsing {}: value out of range",
            kstruct_schema::go::quote(key)
        )
    })
}

fn invalid_index(idx: i64) -> String {
    format!("Unable to access invalid index: {idx}: invalid index referenced")
}

/// A Go index counted from the end of `len` positions when negative (`-1` is the last).
fn from_end(idx: i64, len: usize) -> Result<usize, String> {
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let at = if idx < 0 {
        if idx < -len {
            return Err(invalid_index(idx));
        }
        idx + len
    } else {
        idx
    };
    usize::try_from(at).map_err(|_| invalid_index(idx))
}

/// An index of an array of `len` items for `get` and `set`.
fn index(key: &str, len: usize) -> Result<usize, String> {
    let at = from_end(atoi(key)?, len)?;
    if at >= len {
        return Err(invalid_index(at as i64));
    }
    Ok(at)
}

/// `container.get`: the member or item at `key` (nil when absent or `null`).
fn get<'a>(con: &'a mut Node, key: &str) -> Result<Option<&'a mut Node>, String> {
    match con {
        Node::Doc(members) => Ok(members.get_mut(key)),
        Node::Ary(items) => {
            let i = index(key, items.len())?;
            Ok(items.get_mut(i))
        }
        _ => Ok(None),
    }
}

/// `findObject`: the container the path's last segment is in, and that segment. The nodes
/// walked through are parsed.
fn find<'a>(doc: &'a mut Node, path: &str) -> Option<(&'a mut Node, String)> {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() < 2 {
        return None;
    }
    let mut cur = doc;
    for part in &parts[1..parts.len() - 1] {
        let key = decode_key(part);
        let next = get(cur, &key).ok()??;
        if next.is_nil() {
            return None;
        }
        if next.is_array() {
            next.as_ary()?;
        } else {
            next.as_doc()?;
        }
        cur = next;
    }
    Some((cur, decode_key(parts[parts.len() - 1])))
}

/// `container.add`.
fn con_add(con: &mut Node, key: &str, val: Node) -> Result<(), String> {
    match con {
        Node::Doc(members) => {
            members.insert(key.to_string(), val);
            Ok(())
        }
        Node::Ary(items) => {
            if key == "-" {
                items.push(val);
                return Ok(());
            }
            let idx = atoi(key).map_err(|e| format!("value was not a proper array index: '{key}': {e}"))?;
            // One more position than items: the end.
            let size = items.len() + 1;
            if idx >= i64::try_from(size).unwrap_or(i64::MAX) {
                return Err(invalid_index(idx));
            }
            items.insert(from_end(idx, size)?, val);
            Ok(())
        }
        _ => Err(MISSING.into()),
    }
}

/// `container.remove`.
fn con_remove(con: &mut Node, key: &str) -> Result<Node, String> {
    match con {
        Node::Doc(members) => members
            .remove(key)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {key}: {MISSING}")),
        Node::Ary(items) => {
            let idx = atoi(key)?;
            if idx >= i64::try_from(items.len()).unwrap_or(i64::MAX) {
                return Err(invalid_index(idx));
            }
            Ok(items.remove(from_end(idx, items.len())?))
        }
        _ => Err(MISSING.into()),
    }
}

fn add(doc: &mut Node, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|_| format!("add operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "add operation does not apply: doc is missing path: \"{path}\": {MISSING}"
        ));
    };
    con_add(con, &key, value(op)).map_err(|e| format!("error in add for path: '{path}': {e}"))
}

fn remove(doc: &mut Node, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|_| format!("remove operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "remove operation does not apply: doc is missing path: \"{path}\": {MISSING}"
        ));
    };
    con_remove(con, &key)
        .map(drop)
        .map_err(|e| format!("error in remove for path: '{path}': {e}"))
}

fn replace(doc: &mut Node, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|e| format!("replace operation failed to decode path: {e}"))?;
    if path.is_empty() {
        let mut val = value(op);
        if matches!(val, Node::Nil) {
            return Err(panicked("replace operation at the root without a value"));
        }
        if val.as_doc().is_none() && val.as_ary().is_none() {
            return Err("replace operation value must be object or array: %!w(<nil>)".into());
        }
        *doc = val;
        return Ok(());
    }
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "replace operation does not apply: doc is missing path: {path}: {MISSING}"
        ));
    };
    if get(con, &key).is_err() {
        return Err(format!(
            "replace operation does not apply: doc is missing key: {path}: {MISSING}"
        ));
    }
    match con {
        Node::Doc(members) => {
            members.insert(key, value(op));
        }
        Node::Ary(items) => {
            let i = index(&key, items.len()).map_err(|e| format!("error in remove for path: '{path}': {e}"))?;
            items[i] = value(op);
        }
        _ => {}
    }
    Ok(())
}

fn move_(doc: &mut Node, op: &Operation) -> Result<(), String> {
    let from = member(op, "from").map_err(|e| format!("move operation failed to decode from: {e}"))?;
    let Some((con, key)) = find(doc, &from) else {
        return Err(format!(
            "move operation does not apply: doc is missing from path: {from}: {MISSING}"
        ));
    };
    get(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let val = con_remove(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let path = member(op, "path").map_err(|e| format!("move operation failed to decode path: {e}"))?;
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "move operation does not apply: doc is missing destination path: {path}: {MISSING}"
        ));
    };
    con_add(con, &key, val).map_err(|e| format!("error in move for path: '{path}': {e}"))
}

fn copy(doc: &mut Node, op: &Operation, copied: &mut usize) -> Result<(), String> {
    let from = member(op, "from").map_err(|e| format!("copy operation failed to decode from: {e}"))?;
    let Some((con, key)) = find(doc, &from) else {
        return Err(format!(
            "copy operation does not apply: doc is missing from path: {from}: {MISSING}"
        ));
    };
    let (val, size) = match get(con, &key).map_err(|e| format!("error in copy for from: '{from}': {e}"))? {
        Some(v) => v.deep_copy(),
        None => (Node::Nil, 0),
    };
    let path = member(op, "path").map_err(|_| format!("copy operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "copy operation does not apply: doc is missing destination path: {path}: {MISSING}"
        ));
    };
    *copied += size;
    if *copied > MAX_COPY_BYTES {
        return Err(format!(
            "Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {MAX_COPY_BYTES}"
        ));
    }
    con_add(con, &key, val).map_err(|e| format!("error while adding value during copy: {e}"))
}

fn test(doc: &mut Node, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|e| format!("test operation failed to decode path: {e}"))?;
    let failed = || format!("testing value {path} failed: test failed");
    let panic = |_: Panic| panicked("test operation comparing a nil value");
    if path.is_empty() {
        let mut expected = value(op);
        if matches!(expected, Node::Nil) {
            return Err(panicked("test operation at the root without a value"));
        }
        return if doc.equal(&mut expected).map_err(panic)? {
            Ok(())
        } else {
            Err(failed())
        };
    }
    let Some((con, key)) = find(doc, &path) else {
        return Err(format!(
            "test operation does not apply: is missing path: {path}: {MISSING}"
        ));
    };
    let found = get(con, &key).map_err(|e| format!("error in test for path: '{path}': {e}"))?;
    let mut expected = value(op);
    match found {
        None | Some(Node::Nil) => {
            if expected.is_nil() {
                Ok(())
            } else {
                Err(failed())
            }
        }
        Some(_) if matches!(expected, Node::Nil) => Err(failed()),
        Some(found) => {
            if found.equal(&mut expected).map_err(panic)? {
                Ok(())
            } else {
                Err(failed())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn run(doc: Value, patch: Value) -> Result<Value, String> {
        let ops = decode(patch.to_string().as_bytes()).unwrap();
        let doc = kstruct_schema::go::marshal_json(&doc);
        apply(doc.as_bytes(), &ops).map(|out| serde_json::from_slice(&out).unwrap())
    }

    fn text(doc: &str, patch: &str) -> Result<String, String> {
        let ops = decode(patch.as_bytes()).unwrap();
        apply(doc.as_bytes(), &ops).map(|out| String::from_utf8(out).unwrap())
    }

    #[test]
    fn what_the_patch_wrote_keeps_its_text() {
        let doc = r#"{"a":{"b":1},"s":"\u003cx\u003e"}"#;
        // Values as written (key order, escapes, numbers), compacted; walked objects sorted.
        assert_eq!(
            text(
                doc,
                r#"[{"op": "add", "path": "/x", "value": {"z": 1.50, "y": "\ud800", "e": "\u00e9 <"}}]"#
            ),
            Ok(r#"{"a":{"b":1},"s":"\u003cx\u003e","x":{"z":1.50,"y":"\ud800","e":"\u00e9 \u003c"}}"#.into())
        );
        assert_eq!(
            text(
                doc,
                r#"[{"op": "add", "path": "/x", "value": {"z": 1, "y": 2}}, {"op": "add", "path": "/x/w", "value": 0}]"#
            ),
            Ok(r#"{"a":{"b":1},"s":"\u003cx\u003e","x":{"w":0,"y":2,"z":1}}"#.into())
        );
        // `test` parses what it compares: the value prints sorted afterwards.
        assert_eq!(
            text(
                doc,
                r#"[{"op": "add", "path": "/x", "value": {"z": 1, "y": 2}}, {"op": "test", "path": "/x", "value": {"y": 2, "z": 1}}]"#
            ),
            Ok(r#"{"a":{"b":1},"s":"\u003cx\u003e","x":{"y":2,"z":1}}"#.into())
        );
        // Scalars compare by their text: the stored `<` is `\u003c`.
        assert_eq!(
            text(doc, r#"[{"op": "test", "path": "/s", "value": "\u003cx\u003e"}]"#),
            Ok(doc.into())
        );
        assert!(text(doc, r#"[{"op": "test", "path": "/a/b", "value": 1.0}]"#).is_err());
        // A copy is the source's text; nil items dereferenced are the server's panic.
        assert_eq!(
            text(
                r#"{"l":[null],"m":[null]}"#,
                r#"[{"op": "test", "path": "/l", "value": [null]}]"#
            ),
            Err("test operation comparing a nil value (the API server panics)".into())
        );
    }

    fn doc() -> Value {
        json!({"a": {"b": 1}, "arr": [1, 2, 3], "n": null})
    }

    #[test]
    fn the_librarys_quirks() {
        let cases = [
            (
                json!([{"op": "replace", "path": "/a/zzz", "value": 5}]),
                Ok(json!({"b": 1, "zzz": 5})),
            ),
            (
                json!([{"op": "copy", "from": "/nope", "path": "/a/x"}]),
                Ok(json!({"b": 1, "x": null})),
            ),
            (
                json!([{"op": "test", "path": "/nope", "value": null}, {"op": "test", "path": "/n"}]),
                Ok(json!({"b": 1})),
            ),
            (json!([{"op": "add", "path": "x/a/c"}]), Ok(json!({"b": 1, "c": null}))),
            (
                json!([{"op": "test", "path": "/a/b", "value": 1.0}]),
                Err("testing value /a/b failed: test failed"),
            ),
            (
                json!([{"op": "add", "path": "", "value": {}}]),
                Err("add operation does not apply: doc is missing path: \"\": missing value"),
            ),
            (
                json!([{"op": "add", "path": "/n/x", "value": 1}]),
                Err("add operation does not apply: doc is missing path: \"/n/x\": missing value"),
            ),
            (
                json!([{"op": "remove", "path": "/a/x"}]),
                Err("error in remove for path: '/a/x': Unable to remove nonexistent key: x: missing value"),
            ),
            (json!([{"op": "Add", "path": "/a/x"}]), Err("Unexpected kind: Add")),
            (json!([{"path": "/a/x"}]), Err("Unexpected kind: unknown")),
            (
                json!([{"op": "move", "from": "/a", "path": "/a/b"}]),
                Err("move operation does not apply: doc is missing destination path: /a/b: missing value"),
            ),
        ];
        for (patch, want) in cases {
            let got = run(doc(), patch.clone()).map(|d| d["a"].clone());
            assert_eq!(got, want.map_err(str::to_string), "{patch}");
        }
    }

    #[test]
    fn array_indices_are_go_integers() {
        let arr = |patch: Value| run(doc(), patch).map(|d| d["arr"].clone());
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/-1", "value": 9}])),
            Ok(json!([1, 2, 3, 9]))
        );
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/-4", "value": 9}])),
            Ok(json!([9, 1, 2, 3]))
        );
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/3", "value": 9}])),
            Ok(json!([1, 2, 3, 9]))
        );
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/01", "value": 9}])),
            Ok(json!([1, 9, 2, 3]))
        );
        assert_eq!(arr(json!([{"op": "remove", "path": "/arr/-1"}])), Ok(json!([1, 2])));
        assert_eq!(
            arr(json!([{"op": "replace", "path": "/arr/+0", "value": 0}])),
            Ok(json!([0, 2, 3]))
        );
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/4", "value": 9}])),
            Err("error in add for path: '/arr/4': Unable to access invalid index: 4: invalid index referenced".into())
        );
        assert_eq!(
            arr(json!([{"op": "add", "path": "/arr/x", "value": 9}])),
            Err("error in add for path: '/arr/x': value was not a proper array index: 'x': strconv.Atoi: parsing \"x\": invalid syntax".into())
        );
        assert_eq!(
            arr(json!([{"op": "replace", "path": "/arr/3", "value": 9}])),
            Err("replace operation does not apply: doc is missing key: /arr/3: missing value".into())
        );
        assert_eq!(
            arr(
                json!([{"op": "move", "from": "/arr/0", "path": "/arr/-"}, {"op": "copy", "from": "/arr/0", "path": "/arr/0"}])
            ),
            Ok(json!([2, 2, 3, 1]))
        );
    }

    #[test]
    fn escapes_roots_and_scalars() {
        let d = json!({"a/b": {"~c": "<x>"}});
        // The stored `<` is written `\u003c`; the patch's is not: the test fails.
        assert_eq!(
            run(d.clone(), json!([{"op": "test", "path": "/a~1b/~0c", "value": "<x>"}])),
            Err("testing value /a~1b/~0c failed: test failed".into())
        );
        assert_eq!(
            run(
                d.clone(),
                json!([{"op": "copy", "from": "/a~1b/~0c", "path": "/a~1b/~01"}])
            )
            .map(|v| v["a/b"]["~1"].clone()),
            Ok(json!("<x>"))
        );
        assert_eq!(
            run(d.clone(), json!([{"op": "replace", "path": "", "value": [1]}])),
            Ok(json!([1]))
        );
        assert_eq!(
            run(d.clone(), json!([{"op": "replace", "path": "", "value": 1}])),
            Err("replace operation value must be object or array: %!w(<nil>)".into())
        );
        assert_eq!(
            run(d.clone(), json!([{"op": "test", "path": "", "value": d.clone()}])),
            Err("testing value  failed: test failed".into())
        );
        let plain = json!({"a": [1, 1.5, "x", {"b": true, "c": null}]});
        assert_eq!(
            run(
                plain.clone(),
                json!([{"op": "test", "path": "", "value": plain.clone()}])
            ),
            Ok(plain)
        );
        // A `null` item compared is a nil node the library dereferences.
        let with_null = json!({"a": [1, null]});
        assert_eq!(
            run(
                with_null.clone(),
                json!([{"op": "test", "path": "", "value": with_null}])
            ),
            Err("test operation comparing a nil value (the API server panics)".into())
        );
    }
}
