//! Positions of a JSON value's keys and items.

use super::{Builder, Node, Position, SourceMap};

/// Tracks line and column (in characters) while scanning forward; columns are counted from
/// the last position asked, so a minified one-line document stays linear.
struct Cursor<'a> {
    text: &'a [u8],
    line: usize,
    line_start: usize,
    counted_to: usize,
    column: usize,
}

impl Cursor<'_> {
    fn position(&mut self, at: usize) -> Position {
        // Lines are advanced as newlines are skipped (see `newline`); here only columns.
        if self.counted_to < self.line_start {
            self.counted_to = self.line_start;
            self.column = 1;
        }
        self.column += self.text[self.counted_to..at]
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        self.counted_to = at;
        Position {
            line: self.line,
            column: self.column,
        }
    }

    fn newline(&mut self, at: usize) {
        self.line += 1;
        self.line_start = at + 1;
    }
}

pub(super) fn build(text: &[u8]) -> Option<SourceMap> {
    let mut b = Builder::default();
    let mut cur = Cursor {
        text,
        line: 1,
        line_start: 0,
        counted_to: 0,
        column: 1,
    };
    let mut i = 0;
    loop {
        // Skip white space and the punctuation between values (`,` `:`): syntax is the
        // decoder's business; here only positions matter.
        while i < text.len() {
            match text[i] {
                b'\n' => cur.newline(i),
                b' ' | b'\t' | b'\r' | b',' | b':' => {}
                _ => break,
            }
            i += 1;
        }
        if i >= text.len() {
            break;
        }
        let at = cur.position(i);
        match text[i] {
            b'{' => {
                b.open(true, at);
                i += 1;
            }
            b'[' => {
                b.open(false, at);
                i += 1;
            }
            b'}' | b']' => {
                b.open.last()?;
                b.close(false);
                i += 1;
                if b.open.is_empty() {
                    break;
                }
            }
            b'"' => {
                let (s, end) = string(text, i, &mut cur)?;
                if b.wants_key() {
                    b.key(&s, at);
                } else {
                    b.add(Node::Scalar, at);
                }
                i = end;
            }
            _ => {
                // A number or literal: up to the next delimiter.
                let len = text[i..]
                    .iter()
                    .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b':'))
                    .unwrap_or(text.len() - i);
                if b.wants_key() {
                    // Not JSON (keys are strings); the decoder says so.
                    return None;
                }
                b.add(Node::Scalar, at);
                i += len.max(1);
            }
        }
        if b.open.is_empty() && b.root.is_some() {
            break;
        }
    }
    if !b.open.is_empty() {
        return None;
    }
    Some(b.finish())
}

/// Reads the string starting at `text[start] == b'"'`: its value (escapes decoded, invalid
/// UTF-8 and lone surrogates as U+FFFD, as Go's decoder reads them) and the index after it.
fn string(text: &[u8], start: usize, cur: &mut Cursor<'_>) -> Option<(String, usize)> {
    let mut out = Vec::new();
    let mut i = start + 1;
    let mut pending_high: Option<u16> = None;
    let flush_high = |out: &mut Vec<u8>, high: &mut Option<u16>| {
        if high.take().is_some() {
            out.extend_from_slice("\u{FFFD}".as_bytes());
        }
    };
    loop {
        let c = *text.get(i)?;
        match c {
            b'"' => {
                flush_high(&mut out, &mut pending_high);
                i += 1;
                break;
            }
            b'\\' => {
                let e = *text.get(i + 1)?;
                i += 2;
                if e == b'u' {
                    let hex = std::str::from_utf8(text.get(i..i + 4)?).ok()?;
                    let u = u16::from_str_radix(hex, 16).ok()?;
                    i += 4;
                    match (pending_high.take(), u) {
                        (Some(h), 0xDC00..=0xDFFF) => {
                            let c = 0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                            push_char(&mut out, char::from_u32(c).unwrap_or('\u{FFFD}'));
                        }
                        (h, 0xD800..=0xDBFF) => {
                            if h.is_some() {
                                push_char(&mut out, '\u{FFFD}');
                            }
                            pending_high = Some(u);
                        }
                        (h, _) => {
                            if h.is_some() {
                                push_char(&mut out, '\u{FFFD}');
                            }
                            push_char(&mut out, char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}'));
                        }
                    }
                    continue;
                }
                flush_high(&mut out, &mut pending_high);
                out.push(match e {
                    b'b' => 8,
                    b'f' => 12,
                    b'n' => b'\n',
                    b'r' => b'\r',
                    b't' => b'\t',
                    other => other,
                });
            }
            b'\n' => {
                // Not valid JSON, but keep lines right for what follows.
                cur.newline(i);
                out.push(c);
                i += 1;
            }
            _ => {
                flush_high(&mut out, &mut pending_high);
                out.push(c);
                i += 1;
            }
        }
    }
    // Go decodes each invalid byte as one U+FFFD.
    let mut s = String::with_capacity(out.len());
    for chunk in out.utf8_chunks() {
        s.push_str(chunk.valid());
        for _ in chunk.invalid() {
            s.push('\u{FFFD}');
        }
    }
    Some((s, i))
}

fn push_char(out: &mut Vec<u8>, c: char) {
    let mut buf = [0u8; 4];
    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
}
