//! Writing JSON values as YAML: block style, keys in the value's (byte) order, sequences not
//! indented under their key (as kubectl and controller-gen write them), strings quoted only
//! where a plain scalar would read back as something else.

use serde_json::Value;

use super::resolve::{STR_TAG, resolve};

/// Writes `v` as a YAML document, ending with a newline. Reading the text back with
/// [`to_json`](super::to_json) gives `v` again.
///
/// ```
/// let v = serde_json::json!({"a": [1, {"b": "yes", "c": []}], "d": "x: y", "e": null});
/// assert_eq!(
///     kstruct_schema::yaml::emit(&v),
///     "a:\n- 1\n- b: \"yes\"\n  c: []\nd: \"x: y\"\ne: null\n"
/// );
/// ```
pub fn emit(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => block(&mut out, v, 0),
        Value::Array(a) if !a.is_empty() => block(&mut out, v, 0),
        other => {
            scalar(&mut out, other);
            out.push('\n');
        }
    }
    out
}

/// The longest key written implicitly (`key: value`): YAML readers give up on an implicit key
/// after 1,024 characters, so longer keys are written explicitly (`? key` then `: value`).
const MAX_IMPLICIT_KEY: usize = 1000;

/// A non-empty map or sequence, each entry on its own line at `indent`.
fn block(out: &mut String, v: &Value, indent: usize) {
    crate::grow(|| match v {
        Value::Object(map) => {
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    push_indent(out, indent);
                }
                let mut key = String::new();
                string(&mut key, k);
                if key.chars().count() > MAX_IMPLICIT_KEY {
                    // Too long for an implicit key: YAML readers stop looking for its `:`.
                    out.push_str("? ");
                    out.push_str(&key);
                    out.push('\n');
                    push_indent(out, indent);
                } else {
                    out.push_str(&key);
                }
                out.push(':');
                value_after_key(out, item, indent);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    push_indent(out, indent);
                }
                out.push('-');
                match item {
                    // `- key: value` with the rest of the map aligned under the first key.
                    Value::Object(m) if !m.is_empty() => {
                        out.push(' ');
                        block(out, item, indent + 2);
                    }
                    Value::Array(a) if !a.is_empty() => {
                        out.push(' ');
                        block(out, item, indent + 2);
                    }
                    other => {
                        out.push(' ');
                        scalar(out, other);
                        out.push('\n');
                    }
                }
            }
        }
        other => {
            scalar(out, other);
            out.push('\n');
        }
    })
}

fn value_after_key(out: &mut String, item: &Value, indent: usize) {
    match item {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            push_indent(out, indent + 2);
            block(out, item, indent + 2);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            push_indent(out, indent);
            block(out, item, indent);
        }
        other => {
            out.push(' ');
            scalar(out, other);
            out.push('\n');
        }
    }
}

fn push_indent(out: &mut String, indent: usize) {
    out.extend(std::iter::repeat_n(' ', indent));
}

fn scalar(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => crate::go::write_number(out, n),
        Value::String(s) => string(out, s),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// A string, plain when that reads back as the same string, else double-quoted.
fn string(out: &mut String, s: &str) {
    if plain_is_safe(s) {
        out.push_str(s);
    } else {
        quoted(out, s);
    }
}

/// A double-quoted scalar: printable characters as they are, everything else escaped (YAML
/// readers reject raw control characters even inside quotes).
fn quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if crate::go::is_print(c) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
}

fn plain_is_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else { return false };
    if "-?:,[]{}#&*!|>'\"%@` \t".contains(first) || s.ends_with([' ', '\t', ':']) {
        return false;
    }
    if s.starts_with("---") || s.starts_with("...") {
        return false;
    }
    // A plain `<<` is YAML 1.1's merge key: as a key it would merge a map into its parent.
    if s == "<<" {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.contains(['\n', '\r', '\t']) {
        return false;
    }
    if s.chars().any(|c| c.is_control() || !crate::go::is_print(c)) {
        return false;
    }
    // YAML 1.1 reads `yes`, `1.0`, `0x1F`, `~`... as other types.
    matches!(resolve("", s), Ok((tag, _)) if tag == STR_TAG)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Negative zero is written `-0`, as Go writes it, and reads back as 0, as Kubernetes reads
    /// it: YAML to JSON to the API server's numbers keeps no sign on zero (`-0.0` reads as 0
    /// too). Found by the yaml_to_json fuzz target (input `-0E1`).
    #[test]
    fn negative_zero_is_zero_once_read() {
        let text = emit(&json!([-0.0]));
        assert_eq!(text, "- -0\n");
        assert_eq!(crate::yaml::to_json(&text).unwrap().value, json!([0]));
        assert_eq!(crate::yaml::to_json("- -0.0\n").unwrap().value, json!([0]));
    }

    #[test]
    fn round_trips() {
        let values = [
            json!({"a": {"b": {"c": [1, 2.5, -3, 1e300]}}, "yes": "no", "on": "1.0", "x": "0x1F"}),
            json!([[1, [2, []]], {}, [{"a": {}}], "- x", "a: b", "#c", "", " s", "t ", "ü", "\u{7f}"]),
            json!({"": "empty key", "k\ney": "multi\nline", "tab\t": "~", "null": null, "bool": "true"}),
            // Found by the yaml_to_json fuzz target (`? !/ <<`): a plain `<<` key is a merge key.
            json!({"<<": "<<", "a": {"<<": 1}}),
            // Found by the yaml_to_json fuzz target (a 1,040-character key in a sequence's map):
            // keys beyond 1,024 characters must be explicit.
            json!([{"k".repeat(1100): "v", "a": 1}, {"q\n".repeat(600): {"x": [1]}}]),
            json!({"k".repeat(1100): [1, 2], "b": {"k".repeat(1024): null}}),
            json!("scalar"),
            json!(null),
            json!({"desc": "Ends with colon:", "url": "http://x:80/y", "q": "it's \"quoted\""}),
            json!([
                "\u{85}",
                "\u{2028}",
                "\u{feff}x",
                "\u{1f600}",
                "\u{e000}",
                "\u{10ffff}",
                "a\\b"
            ]),
        ];
        for v in values {
            let text = emit(&v);
            let back = super::super::to_json(&text)
                .unwrap_or_else(|e| panic!("{e}: {text}"))
                .value;
            assert_eq!(back, v, "{text}");
        }
    }
}
