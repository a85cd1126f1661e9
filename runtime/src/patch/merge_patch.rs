//! RFC 7386 JSON merge patch, as the API server applies it (`evanphx/json-patch` v4's
//! `MergePatch`): a `null` member deletes, objects merge member by member, anything else
//! replaces. Where the library differs from the RFC, it is followed:
//!
//! - `null` members are stripped from objects the patch adds, also inside arrays, but `null`
//!   items of arrays are kept;
//! - an array (or scalar) replacing an existing object is taken as it is, `null`s included;
//! - a patch that is an array replaces the whole document; one that is `null` or a scalar is
//!   refused (`Invalid JSON Patch`).

use std::collections::BTreeMap;

use super::lazy::{Node, parse_array, parse_object};

/// The library's `ErrBadJSONPatch` text.
pub const BAD_PATCH: &str = "Invalid JSON Patch";

/// Merges the merge patch `patch` into the document `doc` (the stored object's JSON text),
/// as `MergePatch` does: the merged document's text. Values the patch wrote keep their text
/// (numbers, string escapes); objects it wrote are parsed (to drop their `null` members) and
/// print with their keys sorted. Both texts are valid JSON.
///
/// # Errors
/// [`BAD_PATCH`] for a `null` or scalar patch.
pub fn apply(doc: &[u8], patch: &[u8]) -> Result<Vec<u8>, &'static str> {
    let doc = parse_object(doc);
    let patch_text = patch.trim_ascii();
    if patch_text == b"null" {
        return Err(BAD_PATCH);
    }
    let merged = match (doc, parse_object(patch_text)) {
        (Some(mut doc), Some(patch)) => {
            merge_docs(&mut doc, patch);
            Node::Doc(doc)
        }
        // Not an object to merge into: the patch becomes the document.
        (None, Some(mut patch)) => {
            prune_doc_nulls(&mut patch);
            Node::Doc(patch)
        }
        (_, None) => {
            let mut items = parse_array(patch_text).ok_or(BAD_PATCH)?;
            prune_array_nulls(&mut items);
            Node::Ary(items)
        }
    };
    Ok(merged.to_bytes())
}

fn merge_docs(doc: &mut BTreeMap<String, Node>, patch: BTreeMap<String, Node>) {
    for (k, mut v) in patch {
        if matches!(v, Node::Nil) {
            doc.remove(&k);
            continue;
        }
        match doc.remove(&k) {
            None | Some(Node::Nil) => {
                prune_nulls(&mut v);
                doc.insert(k, v);
            }
            Some(cur) => {
                let merged = kstruct_schema::grow(|| merge(cur, v));
                doc.insert(k, merged);
            }
        }
    }
}

/// `merge`: a patch object merges into an object; anything else replaces (an object that
/// replaces a value that is no object has its `null` members dropped, other values are taken
/// as written).
fn merge(mut cur: Node, mut patch: Node) -> Node {
    if cur.as_doc().is_none() {
        prune_nulls(&mut patch);
        return patch;
    }
    let Some(patch_doc) = patch.as_doc() else {
        return patch;
    };
    let patch_doc = std::mem::take(patch_doc);
    if let Some(cur_doc) = cur.as_doc() {
        merge_docs(cur_doc, patch_doc);
    }
    cur
}

/// `pruneNulls`: `null` members removed from objects, at every depth, through arrays.
fn prune_nulls(n: &mut Node) {
    if let Some(doc) = n.as_doc() {
        prune_doc_nulls(doc);
    } else if let Some(items) = n.as_ary() {
        prune_array_nulls(items);
    }
}

fn prune_doc_nulls(doc: &mut BTreeMap<String, Node>) {
    doc.retain(|_, v| !matches!(v, Node::Nil));
    for v in doc.values_mut() {
        kstruct_schema::grow(|| prune_nulls(v));
    }
}

fn prune_array_nulls(items: &mut [Node]) {
    for v in items.iter_mut().filter(|v| !matches!(v, Node::Nil)) {
        kstruct_schema::grow(|| prune_nulls(v));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(doc: &str, patch: &str) -> Result<String, &'static str> {
        apply(doc.as_bytes(), patch.as_bytes()).map(|b| String::from_utf8(b).unwrap())
    }

    #[test]
    fn merges_as_the_library_does() {
        let doc = r#"{"a":{"b":1,"c":2},"l":[1],"o":{"k":1},"s":"x"}"#;
        let patch = r#"{"a": {"b": null, "d": {"e": null, "f": 1.50}}, "s": {"x": null, "y": [{"z": null}, null]},
                        "o": [{"k": null}], "l": null, "new": {"n": null, "m": "\u00e9"}}"#;
        assert_eq!(
            run(doc, patch),
            Ok(r#"{"a":{"c":2,"d":{"f":1.50}},"new":{"m":"\u00e9"},"o":[{"k":null}],"s":{"y":[{},null]}}"#.into())
        );
    }

    #[test]
    fn whole_document_patches() {
        assert_eq!(run(r#"{"a":1}"#, r#"[{"a": null}, null]"#), Ok("[{},null]".into()));
        assert_eq!(run(r#"{"a":1}"#, "null"), Err(BAD_PATCH));
        assert_eq!(run(r#"{"a":1}"#, r#""x""#), Err(BAD_PATCH));
        assert_eq!(run("[1]", r#"{"a": null, "b": 1}"#), Ok(r#"{"b":1}"#.into()));
    }
}
