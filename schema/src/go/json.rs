//! `encoding/json.Marshal` for JSON values.

use std::fmt::Write;

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
    write_json_with(out, v, &mut write_number);
}

/// [`marshal_json`], with numbers written by `number` (a patch library that keeps the text a
/// number was written with, for one).
///
/// ```
/// let v = serde_json::json!({"a": 1e29, "b": 2});
/// let text = kstruct_schema::go::marshal_json_with(&v, &mut |out, n| {
///     if n.as_f64() == Some(1e29) {
///         out.push_str("100000000000000000000000000000");
///     } else {
///         kstruct_schema::go::write_number(out, n);
///     }
/// });
/// assert_eq!(text, r#"{"a":100000000000000000000000000000,"b":2}"#);
/// ```
pub fn marshal_json_with(v: &Value, number: &mut dyn FnMut(&mut String, &serde_json::Number)) -> String {
    let mut out = String::new();
    write_json_with(&mut out, v, number);
    out
}

fn write_json_with(out: &mut String, v: &Value, number: &mut dyn FnMut(&mut String, &serde_json::Number)) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => number(out, n),
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json_with(out, item, number);
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
                write_json_with(out, item, number);
            }
            out.push('}');
        }
    })
}

/// Appends a JSON number: integers as digits, floats as Go prints a float64.
pub fn write_number(out: &mut String, n: &serde_json::Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
    } else if let Some(u) = n.as_u64() {
        // Not produced by our decoders (they turn these into floats), but print faithfully.
        let _ = write!(out, "{u}");
    } else {
        out.push_str(&format_float_json(n.as_f64().unwrap_or(f64::NAN)));
    }
}

/// Bytes `write_string` must look at: `"`, `\`, control characters, `<`, `>`, `&`, and 0xE2
/// (which may start U+2028 or U+2029). Every other byte is copied as it is.
static SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[b'<' as usize] = true;
    t[b'>' as usize] = true;
    t[b'&' as usize] = true;
    t[0xe2] = true;
    t
};

/// Where JSON text is appended: a `String`, or a byte buffer (which holds text written only
/// through these functions, so it stays UTF-8).
pub trait JsonOut {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends one ASCII character.
    fn push_ascii(&mut self, c: u8);
}

impl JsonOut for String {
    #[inline]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    #[inline]
    fn push_ascii(&mut self, c: u8) {
        self.push(char::from(c));
    }
}

impl JsonOut for Vec<u8> {
    #[inline]
    fn push_str(&mut self, s: &str) {
        self.extend_from_slice(s.as_bytes());
    }

    #[inline]
    fn push_ascii(&mut self, c: u8) {
        self.push(c);
    }
}

/// Appends a JSON string literal escaped as Go's `encoding/json` escapes it.
///
/// ```
/// let mut out = Vec::new();
/// kstruct_schema::go::write_string(&mut out, "<a\u{2028}>");
/// assert_eq!(out, br#""\u003ca\u2028\u003e""#);
/// ```
pub fn write_string<O: JsonOut + ?Sized>(out: &mut O, s: &str) {
    out.push_ascii(b'"');
    write_string_content(out, s);
    out.push_ascii(b'"');
}

/// [`write_string`] without the quotes: `s` escaped as Go's encoder escapes it, for a string
/// literal written piece by piece.
///
/// ```
/// let mut out = Vec::new();
/// kstruct_schema::go::write_string_content(&mut out, "a\n<");
/// assert_eq!(out, br#"a\n\u003c"#);
/// ```
pub fn write_string_content<O: JsonOut + ?Sized>(out: &mut O, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    let (mut start, mut i) = (0, 0);
    while i < bytes.len() {
        // Most bytes need no escape: a table lookup per byte, nothing written.
        if !SPECIAL[bytes[i] as usize] {
            i += 1;
            continue;
        }
        let b = bytes[i];
        let (short, code, width): (Option<&str>, u32, usize) = match b {
            b'"' => (Some("\\\""), 0, 1),
            b'\\' => (Some("\\\\"), 0, 1),
            b'\n' => (Some("\\n"), 0, 1),
            b'\r' => (Some("\\r"), 0, 1),
            b'\t' => (Some("\\t"), 0, 1),
            0x08 => (Some("\\b"), 0, 1),
            0x0c => (Some("\\f"), 0, 1),
            0..=0x1f | b'<' | b'>' | b'&' => (None, u32::from(b), 1),
            // U+2028 and U+2029 (E2 80 A8/A9) break JavaScript; Go escapes them.
            0xe2 if bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xa8 | 0xa9)) => {
                (None, 0x2000 | u32::from(bytes[i + 2] - 0x80), 3)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[start..i]);
        match short {
            Some(e) => out.push_str(e),
            None => {
                out.push_str("\\u");
                for shift in [12, 8, 4, 0] {
                    out.push_ascii(HEX[((code >> shift) & 0xf) as usize]);
                }
            }
        }
        i += width;
        start = i;
    }
    out.push_str(&s[start..]);
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

    /// The table-driven scan against the rules spelled out one character at a time.
    #[test]
    fn escapes_match_the_rules_char_by_char() {
        fn by_char(s: &str) -> String {
            let mut out = String::from('"');
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\u{8}' => out.push_str("\\b"),
                    '\u{c}' => out.push_str("\\f"),
                    c if (c as u32) < 0x20 || matches!(c, '<' | '>' | '&' | '\u{2028}' | '\u{2029}') => {
                        out.push_str(&format!("\\u{:04x}", c as u32));
                    }
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        }
        for s in [
            "",
            "plain",
            "€ (E2 82 AC), \u{2027} (E2 80 A7), \u{2028}\u{2029} at the end\u{2029}",
            "<a href=\"x\">&amp;</a>",
            "\u{0}\u{1}\u{1f}\u{7f} ünï 🦀",
            "\u{e2}",
        ] {
            let mut out = String::new();
            write_string(&mut out, s);
            assert_eq!(out, by_char(s), "{s:?}");
        }
    }

    #[test]
    fn numbers_like_go() {
        assert_eq!(
            marshal_json(&json!([1, -1, 1.0, 0.5, 1e21, -0.0])),
            "[1,-1,1,0.5,1e+21,-0]"
        );
    }
}
