//! The walk's output read back as a `Value`: the object decoding gives, built from the stored
//! bytes rather than from the body, so that nothing the schema prunes is ever allocated.
//!
//! The bytes are the walk's own: compact, keys unique and in byte order, valid UTF-8. Numbers
//! read back in the API server's model, as the body's did, with one exception the walk keeps
//! out of here: a `float64` that Go prints as an integer (`1.0` prints `1`) would read back as
//! an `int64`. So a walk for a `Value` leaves to the `Value` path the bodies holding one, the
//! schemas whose defaults hold one ([`Plan::value_exact`](super::Plan::value_exact)), and root
//! metadata holding one (in `managedFields`).

use kstruct_schema::go::format_float_json;
use serde_json::{Map, Number, Value};

use crate::text;

use crate::json;

/// Deeper than any object the walk writes from a body (it leaves bodies nested beyond 200
/// levels to the `Value` path); a default nested deeper is read by the `Value` path too.
const MAX_DEPTH: usize = 512;

/// The `Value` of `bytes`, a walk's output; `None` (for the `Value` path to answer) if they are
/// not what a walk writes.
pub(crate) fn read(bytes: &[u8]) -> Option<Value> {
    // Checked once here, so that each string is then a slice of checked text.
    let text = std::str::from_utf8(bytes).ok()?;
    let mut r = Reader {
        b: bytes,
        text,
        pos: 0,
        depth: 0,
    };
    let v = r.value()?;
    (r.pos == bytes.len()).then_some(v)
}

/// Whether `v`, printed as Go prints it, reads back as itself: false when it holds a
/// `float64` that Go prints as an integer.
pub(super) fn reads_back(v: &Value) -> bool {
    let mut stack = vec![v];
    while let Some(v) = stack.pop() {
        match v {
            Value::Number(n) if n.is_f64() && n.as_f64().is_some_and(|f| reads_as_integer(&format_float_json(f))) => {
                return false;
            }
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    true
}

/// Whether a `float64` Go printed as `printed` would read back as an `int64` (`1.0` prints `1`).
pub(super) fn reads_as_integer(printed: &str) -> bool {
    printed.parse::<i64>().is_ok()
}

struct Reader<'a> {
    b: &'a [u8],
    /// `b` as text.
    text: &'a str,
    pos: usize,
    depth: usize,
}

impl Reader<'_> {
    fn value(&mut self) -> Option<Value> {
        Some(match *self.b.get(self.pos)? {
            b'{' => Value::Object(self.object()?),
            b'[' => Value::Array(self.array()?),
            b'"' => Value::String(self.string()?),
            b't' => self.word(b"true", Value::Bool(true))?,
            b'f' => self.word(b"false", Value::Bool(false))?,
            b'n' => self.word(b"null", Value::Null)?,
            _ => Value::Number(self.number()?),
        })
    }

    fn word(&mut self, w: &[u8], v: Value) -> Option<Value> {
        self.b[self.pos..].starts_with(w).then(|| {
            self.pos += w.len();
            v
        })
    }

    fn enter(&mut self) -> Option<()> {
        self.pos += 1;
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    /// Consumes `c` if it is next.
    fn eat(&mut self, c: u8) -> bool {
        let here = self.b.get(self.pos) == Some(&c);
        self.pos += usize::from(here);
        here
    }

    fn object(&mut self) -> Option<Map<String, Value>> {
        self.enter()?;
        let mut map = Map::new();
        if !self.eat(b'}') {
            loop {
                if self.b.get(self.pos) != Some(&b'"') {
                    return None;
                }
                let key = self.string()?;
                if !self.eat(b':') {
                    return None;
                }
                let v = self.value()?;
                // Keys come in order: each insert lands at the map's right edge.
                map.insert(key, v);
                if self.eat(b'}') {
                    break;
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
        self.depth -= 1;
        Some(map)
    }

    fn array(&mut self) -> Option<Vec<Value>> {
        self.enter()?;
        let mut items = Vec::new();
        if !self.eat(b']') {
            loop {
                items.push(self.value()?);
                if self.eat(b']') {
                    break;
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
        self.depth -= 1;
        Some(items)
    }

    fn string(&mut self) -> Option<String> {
        let start = self.pos + 1;
        let end = text::stop(self.b, start);
        if self.b.get(end) == Some(&b'"') {
            // Both ends are ASCII quotes, so on character boundaries.
            let s = self.text.get(start..end)?;
            self.pos = end + 1;
            return Some(s.to_owned());
        }
        // Escapes Go's encoder wrote (`\"`, `\u003c`, ...).
        let (s, end) = json::string_at(self.b, self.pos).ok()?;
        self.pos = end;
        Some(s)
    }

    fn number(&mut self) -> Option<Number> {
        let start = self.pos;
        // Most numbers are small non-negative integers.
        let mut n: i64 = 0;
        while let Some(&c @ b'0'..=b'9') = self.b.get(self.pos) {
            n = n * 10 + i64::from(c - b'0');
            self.pos += 1;
            if self.pos - start == 18 {
                break;
            }
        }
        if self.pos > start && !matches!(self.b.get(self.pos), Some(b'0'..=b'9' | b'.' | b'e' | b'E')) {
            return Some(n.into());
        }
        self.pos = start;
        let mut integer = true;
        while let Some(&c) = self.b.get(self.pos) {
            match c {
                b'0'..=b'9' | b'-' => {}
                b'.' | b'e' | b'E' | b'+' => integer = false,
                _ => break,
            }
            self.pos += 1;
        }
        let text = self.text.get(start..self.pos)?;
        if integer && let Ok(n) = text.parse::<i64>() {
            return Some(n.into());
        }
        Number::from_f64(text.parse().ok()?)
    }
}

#[cfg(test)]
mod tests {
    use super::read;
    use kstruct_schema::go::marshal_json;

    #[test]
    fn reads_what_go_prints() {
        for text in [
            r#"{"a":[1,-2,3.5,1e+21,9223372036854776000,true,false,null],"b":{"c":"x\"\u003c\u2028é"},"d":{}}"#,
            "[]",
            r#""""#,
            "-0.5",
        ] {
            let v = read(text.as_bytes()).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(marshal_json(&v), text);
        }
        let v = read(br#"[9223372036854775807,9223372036854775808]"#).unwrap();
        assert!(v[0].is_i64() && v[1].is_f64());
    }

    #[test]
    fn refuses_what_go_does_not_print() {
        for text in ["{", "[1,]", r#"{"a"}"#, "tru", "1 ", r#"{"a":1,}"#, "\"\u{1}\"", "-"] {
            assert_eq!(read(text.as_bytes()), None, "{text:?}");
        }
        let deep = "[".repeat(600) + &"]".repeat(600);
        assert_eq!(read(deep.as_bytes()), None);
    }
}
