//! `encoding/json.Marshal` for JSON values.

use serde_json::Value;

use super::float::format_float_json;

/// Marshals `v` as Go's `encoding/json.Marshal` does: compact, object keys in byte order,
/// integral floats without a fraction, and HTML-safe string escapes (`<`, `>`, `&`, U+2028 and
/// U+2029 as `\u003c`...).
///
/// ```
/// let v = serde_json::json!({"b": 1.0, "a": ["<&>", null, true, 1.5e300]});
/// assert_eq!(
///     kstruct_schema::go::marshal_json(&v),
///     r#"{"a":["\u003c\u0026\u003e",null,true,1.5e+300],"b":1}"#
/// );
/// ```
pub fn marshal_json(v: &Value) -> String {
    let mut out = String::new();
    write_json(&mut out, v);
    out
}

/// Appends `v` to `out` as [`marshal_json`] formats it. Deep values do not overflow the stack.
pub fn write_json(out: &mut String, v: &Value) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, k);
                out.push(':');
                write_json(out, item);
            }
            out.push('}');
        }
    })
}

/// Appends a JSON number: integers as digits, floats as Go prints a float64.
pub fn write_number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        out.push_str(&i.to_string());
    } else if let Some(u) = n.as_u64() {
        // Not produced by our decoders (they turn these into floats), but print faithfully.
        out.push_str(&u.to_string());
    } else {
        out.push_str(&format_float_json(n.as_f64().unwrap_or(f64::NAN)));
    }
}

/// Appends a JSON string literal escaped as Go's `encoding/json` escapes it.
pub fn write_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            _ => None,
        };
        let needs_hex = esc.is_none()
            && ((c as u32) < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u{2028}' || c == '\u{2029}');
        if esc.is_none() && !needs_hex {
            continue;
        }
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                let cp = c as u32;
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push(HEX[((cp >> shift) & 0xf) as usize] as char);
                }
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..bytes.len()]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn escapes_like_go() {
        let mut out = String::new();
        write_string(&mut out, "a\u{0}\u{1f}\u{8}\u{c}\n\"\\\u{2028}é");
        assert_eq!(out, r#""a\u0000\u001f\b\f\n\"\\\u2028é""#);
    }

    #[test]
    fn numbers_like_go() {
        assert_eq!(
            marshal_json(&json!([1, -1, 1.0, 0.5, 1e21, -0.0])),
            "[1,-1,1,0.5,1e+21,-0]"
        );
    }
}
