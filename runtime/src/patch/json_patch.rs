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

use serde_json::{Map, Value};

use crate::json::{deep_clone, dispose};

/// The most bytes of compact JSON `copy` operations may add in one patch (the API server's
/// `JSONPatchMaxCopyBytes`).
pub const MAX_COPY_BYTES: usize = 3 * 1024 * 1024;

/// The most operations the API server accepts in one JSON patch.
pub const MAX_OPERATIONS: usize = 10_000;

/// One operation, as the library holds it: members by name (the last of repeated names), a
/// `null` member kept as present.
pub type Operation = Map<String, Value>;

/// Applies `ops` to `doc` in order. On error `doc` may be partly patched: callers drop it, as
/// the server does.
///
/// # Errors
/// The library's text for the first operation that does not apply.
pub fn apply(doc: &mut Value, ops: &[Option<Operation>]) -> Result<(), String> {
    let mut copied = 0usize;
    for op in ops {
        let empty = Map::new();
        let op = op.as_ref().unwrap_or(&empty);
        let kind = match op.get("op") {
            Some(Value::String(s)) => s.as_str(),
            _ => "unknown",
        };
        match kind {
            "add" => add(doc, op)?,
            "remove" => remove(doc, op)?,
            "replace" => replace(doc, op)?,
            "move" => move_(doc, op)?,
            "test" => test(doc, op)?,
            "copy" => copy(doc, op, &mut copied)?,
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(())
}

const MISSING: &str = "missing value";

/// `Path()`/`From()`: the member as a string.
fn member<'a>(op: &'a Operation, name: &str) -> Result<&'a str, String> {
    match op.get(name) {
        Some(Value::String(s)) => Ok(s),
        None | Some(Value::Null) if name == "path" => Err(format!("operation missing path field: {MISSING}")),
        None | Some(Value::Null) => Err(format!("operation, missing from field: {MISSING}")),
        Some(other) => Err(format!(
            "json: cannot unmarshal {} into Go value of type string",
            kstruct_schema::go::json_kind(other)
        )),
    }
}

/// `op.value()`: absent and `null` both write `null`. Copied without recursion: values nest
/// as deep as input goes.
fn value(op: &Operation) -> Value {
    op.get("value").map_or(Value::Null, deep_clone)
}

/// Drops a replaced or removed value without recursion.
fn discard(v: Option<Value>) {
    if let Some(v) = v {
        dispose(v);
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

/// An index of an array of `len` items for `get`, `set` and `remove`.
fn index(key: &str, len: usize) -> Result<usize, String> {
    let idx = atoi(key)?;
    let len = i64::try_from(len).unwrap_or(i64::MAX);
    let at = if idx < 0 {
        if idx < -len {
            return Err(invalid_index(idx));
        }
        idx + len
    } else {
        idx
    };
    if at >= len {
        return Err(invalid_index(at));
    }
    usize::try_from(at).map_err(|_| invalid_index(idx))
}

/// The container's member or item at `key`; `None` when absent or `null`.
fn get<'a>(con: &'a Value, key: &str) -> Result<Option<&'a Value>, String> {
    match con {
        Value::Object(map) => Ok(map.get(key).filter(|v| !v.is_null())),
        Value::Array(items) => Ok(Some(&items[index(key, items.len())?]).filter(|v| !v.is_null())),
        _ => Ok(None),
    }
}

/// `findObject`: the container the path's last segment is in, and that segment.
fn find<'a>(doc: &'a mut Value, path: &str) -> Option<(&'a mut Value, String)> {
    let parts: Vec<&str> = path.split('/').collect();
    if parts.len() < 2 {
        return None;
    }
    let mut cur = doc;
    for part in &parts[1..parts.len() - 1] {
        let key = decode_key(part);
        let next = match cur {
            Value::Object(map) => map.get_mut(&key),
            Value::Array(items) => {
                let i = index(&key, items.len()).ok()?;
                items.get_mut(i)
            }
            _ => None,
        }?;
        if !matches!(next, Value::Object(_) | Value::Array(_)) {
            return None;
        }
        cur = next;
    }
    Some((cur, decode_key(parts[parts.len() - 1])))
}

/// `add` on a container.
fn con_add(con: &mut Value, key: &str, val: Value) -> Result<(), String> {
    match con {
        Value::Object(map) => {
            discard(map.insert(key.to_string(), val));
            Ok(())
        }
        Value::Array(items) => {
            if key == "-" {
                items.push(val);
                return Ok(());
            }
            let idx = match atoi(key) {
                Ok(idx) => idx,
                Err(e) => {
                    dispose(val);
                    return Err(format!("value was not a proper array index: '{key}': {e}"));
                }
            };
            let size = i64::try_from(items.len()).unwrap_or(i64::MAX) + 1;
            if idx >= size {
                return Err(invalid_index(idx));
            }
            let at = if idx < 0 {
                if idx < -size {
                    return Err(invalid_index(idx));
                }
                idx + size
            } else {
                idx
            };
            items.insert(usize::try_from(at).map_err(|_| invalid_index(idx))?, val);
            Ok(())
        }
        _ => Err(MISSING.into()),
    }
}

/// `remove` on a container.
fn con_remove(con: &mut Value, key: &str) -> Result<Value, String> {
    match con {
        Value::Object(map) => map
            .remove(key)
            .ok_or_else(|| format!("Unable to remove nonexistent key: {key}: {MISSING}")),
        Value::Array(items) => {
            let i = index(key, items.len())?;
            Ok(items.remove(i))
        }
        _ => Err(MISSING.into()),
    }
}

fn add(doc: &mut Value, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|_| format!("add operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find(doc, path) else {
        return Err(format!(
            "add operation does not apply: doc is missing path: \"{path}\": {MISSING}"
        ));
    };
    con_add(con, &key, value(op)).map_err(|e| format!("error in add for path: '{path}': {e}"))
}

fn remove(doc: &mut Value, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|_| format!("remove operation failed to decode path: {MISSING}"))?;
    let Some((con, key)) = find(doc, path) else {
        return Err(format!(
            "remove operation does not apply: doc is missing path: \"{path}\": {MISSING}"
        ));
    };
    con_remove(con, &key)
        .map(dispose)
        .map_err(|e| format!("error in remove for path: '{path}': {e}"))
}

fn replace(doc: &mut Value, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|e| format!("replace operation failed to decode path: {e}"))?;
    if path.is_empty() {
        return match op.get("value") {
            Some(v @ (Value::Object(_) | Value::Array(_))) => {
                dispose(std::mem::replace(doc, deep_clone(v)));
                Ok(())
            }
            // The library dereferences the absent value: the server answers 500.
            None => Err("replace operation at the root without a value (the API server panics)".into()),
            Some(_) => Err("replace operation value must be object or array: %!w(<nil>)".into()),
        };
    }
    let Some((con, key)) = find(doc, path) else {
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
        Value::Object(map) => {
            discard(map.insert(key, value(op)));
        }
        Value::Array(items) => {
            let i = index(&key, items.len()).map_err(|e| format!("error in remove for path: '{path}': {e}"))?;
            dispose(std::mem::replace(&mut items[i], value(op)));
        }
        _ => {}
    }
    Ok(())
}

fn move_(doc: &mut Value, op: &Operation) -> Result<(), String> {
    let from = member(op, "from").map_err(|e| format!("move operation failed to decode from: {e}"))?;
    let Some((con, key)) = find(doc, from) else {
        return Err(format!(
            "move operation does not apply: doc is missing from path: {from}: {MISSING}"
        ));
    };
    get(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let val = con_remove(con, &key).map_err(|e| format!("error in move for path: '{key}': {e}"))?;
    let path = member(op, "path").map_err(|e| format!("move operation failed to decode path: {e}"))?;
    let Some((con, key)) = find(doc, path) else {
        return Err(format!(
            "move operation does not apply: doc is missing destination path: {path}: {MISSING}"
        ));
    };
    con_add(con, &key, val).map_err(|e| format!("error in move for path: '{path}': {e}"))
}

fn copy(doc: &mut Value, op: &Operation, copied: &mut usize) -> Result<(), String> {
    let from = member(op, "from").map_err(|e| format!("copy operation failed to decode from: {e}"))?;
    let Some((con, key)) = find(doc, from) else {
        return Err(format!(
            "copy operation does not apply: doc is missing from path: {from}: {MISSING}"
        ));
    };
    let val = get(con, &key)
        .map_err(|e| format!("error in copy for from: '{from}': {e}"))?
        .map_or(Value::Null, deep_clone);
    let path = member(op, "path").map_err(|_| format!("copy operation failed to decode path: {MISSING}"))?;
    // A missing or `null` source is the library's nil node: it counts nothing.
    if !val.is_null() {
        *copied += kstruct_schema::go::marshal_json(&val).len();
    }
    let Some((con, key)) = find(doc, path) else {
        return Err(format!(
            "copy operation does not apply: doc is missing destination path: {path}: {MISSING}"
        ));
    };
    if *copied > MAX_COPY_BYTES {
        dispose(val);
        return Err(format!(
            "Unable to complete the copy, the accumulated size increase of copy is {copied}, exceeding the limit {MAX_COPY_BYTES}"
        ));
    }
    con_add(con, &key, val).map_err(|e| format!("error while adding value during copy: {e}"))
}

fn test(doc: &mut Value, op: &Operation) -> Result<(), String> {
    let path = member(op, "path").map_err(|e| format!("test operation failed to decode path: {e}"))?;
    let failed = || format!("testing value {path} failed: test failed");
    let expected = op.get("value");
    if path.is_empty() {
        return match expected {
            None => Err("test operation at the root without a value (the API server panics)".into()),
            Some(v) if equal(doc, v) => Ok(()),
            Some(_) => Err(failed()),
        };
    }
    let Some((con, key)) = find(doc, path) else {
        return Err(format!(
            "test operation does not apply: is missing path: {path}: {MISSING}"
        ));
    };
    let found = get(con, &key).map_err(|e| format!("error in test for path: '{path}': {e}"))?;
    match (found, expected) {
        (None, None | Some(Value::Null)) => Ok(()),
        (Some(found), Some(expected)) if equal(found, expected) => Ok(()),
        _ => Err(failed()),
    }
}

/// The library's `equal`: objects by members (`null` only equal to `null`), arrays item by
/// item, scalars by their JSON text: the stored value as the server encodes it, the patch's
/// as a client writes it (`<`, `>` and `&` unescaped).
fn equal(stored: &Value, given: &Value) -> bool {
    match (stored, given) {
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter().all(|(k, v)| {
                    b.get(k).is_some_and(|w| match (v, w) {
                        (Value::Null, Value::Null) => true,
                        (Value::Null, _) | (_, Value::Null) => false,
                        _ => kstruct_schema::grow(|| equal(v, w)),
                    })
                })
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(v, w)| kstruct_schema::grow(|| equal(v, w)))
        }
        (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => false,
        // A float within int64's range that Go prints as an integer was written with a fraction
        // or an exponent (`1.0`; integers that fit read as integers): the server's text for any
        // stored number differs from it.
        (_, Value::Number(n))
            if n.as_f64().is_some_and(|f| f.fract() == 0.0 && f.abs() < 9.2e18)
                && n.is_f64()
                && !kstruct_schema::go::marshal_json(given).contains(['.', 'e']) =>
        {
            false
        }
        _ => {
            let written = kstruct_schema::go::marshal_json(given)
                .replace("\\u003c", "<")
                .replace("\\u003e", ">")
                .replace("\\u0026", "&");
            kstruct_schema::go::marshal_json(stored) == written
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(doc: Value, patch: Value) -> Result<Value, String> {
        let ops: Vec<Option<Operation>> = patch
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_object().cloned())
            .collect();
        let mut doc = doc;
        apply(&mut doc, &ops).map(|()| doc)
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
        let plain = json!({"a": [1, 1.5, "x", null, {"b": true}]});
        assert_eq!(
            run(
                plain.clone(),
                json!([{"op": "test", "path": "", "value": plain.clone()}])
            ),
            Ok(plain)
        );
    }
}
