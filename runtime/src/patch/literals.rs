//! The text a patch body wrote its numbers with. The server's patch libraries keep a patch's
//! values as raw JSON, so the patched document quotes `123456789012345678901234567890` where
//! a decoded value would print `1.2345678901234568e+29`; the stored object's numbers, which
//! the server marshals before patching, print as Go prints them either way.

use std::collections::HashMap;

use serde_json::{Number, Value};

/// Numbers of a patch body whose text differs from Go's printing of their value, by that
/// printing (and whether the value is a float: an integer of the stored object that prints
/// alike is not the patch's).
#[derive(Debug, Default)]
pub(super) struct Literals(HashMap<(bool, String), String>);

impl Literals {
    /// The numbers of `body` (JSON) that print otherwise than they are written; the last of
    /// several that print alike wins (as the last of repeated keys does).
    pub fn of(body: &[u8]) -> Literals {
        let mut out = HashMap::new();
        let mut i = 0;
        while i < body.len() {
            match body[i] {
                b'"' => i = string_end(body, i + 1),
                b'-' | b'0'..=b'9' => {
                    let end = body[i..]
                        .iter()
                        .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                        .map_or(body.len(), |n| i + n);
                    let text = &body[i..end];
                    if !prints_as_written(text)
                        && let Ok(decoded) = crate::json::decode(text)
                        && let Value::Number(n) = &decoded.value
                    {
                        let printed = key(n);
                        if printed.1.as_bytes() != text {
                            out.insert(printed, String::from_utf8_lossy(text).into_owned());
                        }
                    }
                    i = end;
                }
                _ => i += 1,
            }
        }
        Literals(out)
    }

    /// `v` as Go marshals it, with the body's numbers as it wrote them.
    pub fn marshal(&self, v: &Value) -> String {
        if self.0.is_empty() {
            return kstruct_schema::go::marshal_json(v);
        }
        kstruct_schema::go::marshal_json_with(v, &mut |out, n| {
            let printed = key(n);
            out.push_str(self.0.get(&printed).unwrap_or(&printed.1));
        })
    }
}

/// Whether `text` surely prints as written: an int64 without a leading zero or sign of zero
/// (most numbers in a patch), so it need not be decoded to know.
fn prints_as_written(text: &[u8]) -> bool {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    text == b"0"
        || (!digits.is_empty() && digits.len() <= 18 && digits[0] != b'0' && digits.iter().all(u8::is_ascii_digit))
}

fn key(n: &Number) -> (bool, String) {
    let mut printed = String::new();
    kstruct_schema::go::write_number(&mut printed, n);
    (n.is_f64(), printed)
}

/// The index after the string whose content starts at `i`.
fn string_end(body: &[u8], mut i: usize) -> usize {
    while i < body.len() {
        match body[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    body.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn patch_numbers_keep_their_text() {
        let body = br#"[{"op": "add", "path": "/spec/a", "value": {"big": 123456789012345678901234567890,
            "low": -9223372036854775809, "one": 1.0, "exp": 1E3, "s": "-5\" 1.50"}}]"#;
        let literals = Literals::of(body);
        let patched = crate::json::decode(
            br#"{"big": 123456789012345678901234567890, "low": -9223372036854775809, "one": 1.0,
                 "exp": 1E3, "stored": 1, "s": "1.50"}"#,
        )
        .unwrap()
        .value;
        assert_eq!(
            literals.marshal(&patched),
            r#"{"big":123456789012345678901234567890,"exp":1E3,"low":-9223372036854775809,"one":1.0,"s":"1.50","stored":1}"#
        );
        assert!(Literals::of(br#"{"a": 1, "b": "2.0"}"#).0.is_empty());
        assert_eq!(Literals::default().marshal(&json!({"a": 1.5})), r#"{"a":1.5}"#);
    }
}
