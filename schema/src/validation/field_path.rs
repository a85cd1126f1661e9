//! CEL's `ValidFieldPath` (`apiextensions-apiserver/pkg/apiserver/schema/cel`): a JSON path of
//! field and map-key steps (`.spec.name`, `.labels['app.kubernetes.io/name']`) resolved in a
//! structural schema. Rules' `fieldPath` and CRDs' `selectableFields` are checked with it.

use crate::field::Path;
use crate::structural::Structural;

/// Resolves `json_path` in `schema`: the schema it names, or the reference's error text.
///
/// ```
/// use kstruct_schema::{convert, validation::field_path::resolve};
/// let s = convert::from_value(&serde_json::json!({"type": "object", "properties": {
///     "spec": {"type": "object", "properties": {"size": {"type": "integer"}}}}})).unwrap().unwrap();
/// assert_eq!(resolve(".spec.size", &s).unwrap().generic.type_, "integer");
/// assert_eq!(resolve(".spec['size']", &s).unwrap().generic.type_, "integer");
/// assert_eq!(resolve(".spec.colour", &s).unwrap_err(), "does not refer to a valid field");
/// // A step below a scalar, in either notation.
/// assert_eq!(resolve(".spec.size.x", &s).unwrap_err(), "does not refer to a valid field");
/// assert_eq!(resolve(".spec.size['x']", &s).unwrap_err(), "does not refer to a valid field");
/// ```
pub fn resolve<'a>(json_path: &str, schema: &'a Structural) -> Result<&'a Structural, String> {
    resolve_with(json_path, schema, true).map(|r| r.schema)
}

/// What a field path names.
pub struct Resolved<'a> {
    /// The path as the reference's `field.Path` writes it: properties as `.name`, map keys as
    /// `[key]`, whichever spelling the JSON path used (so equal paths compare equal).
    pub path: Path,
    /// The first field of the path (`spec` in `.spec.size`).
    pub root: Option<String>,
    /// The schema at the end of the path.
    pub schema: &'a Structural,
}

/// [`resolve`], optionally refusing `[...]` steps (selectable fields refuse them).
pub fn resolve_with<'a>(
    json_path: &str,
    schema: &'a Structural,
    allow_array_notation: bool,
) -> Result<Resolved<'a>, String> {
    let tokens = tokens(json_path);
    let mut root = None;
    let mut path = Path::nil();
    let mut it = tokens.into_iter();
    let mut s = schema;
    while let Some(tok) = it.next() {
        match tok {
            "[" => {
                if !allow_array_notation {
                    return Err("array notation is not allowed".into());
                }
                let tok = it.next().ok_or("unexpected end of JSON path")?;
                if tok.len() < 2 || !tok.starts_with('\'') || !tok.ends_with('\'') {
                    return Err(format!("expected single quoted string but got {tok}"));
                }
                let name = unescape_single_quote(&tok[1..tok.len() - 1])
                    .map_err(|e| format!("invalid string literal: {e}"))?;
                s = step(s, &name, &mut path)?;
                root.get_or_insert(name);
                match it.next() {
                    None => return Err("unexpected end of JSON path".into()),
                    Some("]") => {}
                    Some(other) => return Err(format!("expected ] but got {other}")),
                }
            }
            "." => {
                let name = it.next().ok_or("unexpected end of JSON path")?;
                s = step(s, name, &mut path)?;
                root.get_or_insert_with(|| name.to_string());
            }
            other => return Err(format!("expected [ or . but got: {other}")),
        }
    }
    Ok(Resolved { path, root, schema: s })
}

/// One step: a property when the node has properties, else a map value.
fn step<'a>(s: &'a Structural, name: &str, path: &mut Path) -> Result<&'a Structural, String> {
    if !s.properties.is_empty() {
        *path = path.child(name);
        s.properties
            .get(name)
            .ok_or_else(|| "does not refer to a valid field".to_string())
    } else if let Some(ap) = &s.additional_properties {
        *path = path.key(name);
        ap.schema().ok_or_else(|| "does not refer to a valid field".to_string())
    } else {
        Err("does not refer to a valid field".to_string())
    }
}

/// Splits at `.`, `[` and `]`, which are tokens of their own; a quoted string keeps the
/// delimiters inside it.
fn tokens(path: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = path.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'.' | b'[' | b']' => {
                out.push(&path[i..i + 1]);
                i += 1;
            }
            b'\'' => {
                let start = i;
                i += 1;
                while i < bytes.len() {
                    match bytes[i] {
                        b'\\' => i += 2,
                        b'\'' => {
                            i += 1;
                            break;
                        }
                        _ => i += 1,
                    }
                }
                let end = i.min(bytes.len());
                out.push(&path[start..end]);
            }
            _ => {
                let start = i;
                while i < bytes.len() && !matches!(bytes[i], b'.' | b'[' | b']') {
                    i += 1;
                }
                out.push(&path[start..i]);
            }
        }
    }
    out
}

/// `\'` and `\\` are the only escapes of a single-quoted step.
fn unescape_single_quote(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some(e @ ('\'' | '\\')) => out.push(e),
            Some(e) => return Err(format!("invalid escape sequence '\\{e}'")),
            None => return Err("unterminated escape sequence".into()),
        }
    }
    Ok(out)
}
