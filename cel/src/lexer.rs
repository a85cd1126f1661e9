//! CEL tokens, as cel-go's ANTLR lexer (CEL.g4) cuts them.

use crate::{Error, Position};

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An identifier (reserved words included: the parser reports them).
    Ident,
    /// A back-quoted field name (`` `a-b` ``).
    EscapedIdent,
    Int,
    Uint,
    Float,
    String,
    Bytes,
    True,
    False,
    Null,
    In,
    /// An operator or punctuation: the text says which.
    Punct,
    Eof,
    /// Where the text stops being tokens (the lexer's error says why).
    Error,
}

/// One token: its kind and where its text is in the source.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }
}

const PUNCTS: [&str; 25] = [
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "+", "-", "*", "/", "%", "!", "?", ":", ".", ",", "(", ")", "[", "]",
    "{", "}", "=",
];

/// Cuts `src` into tokens, ending with `Eof`, or with `Error` and the lexer's error at the
/// first piece of text that is no token (the parser reports it unless it finds an error
/// before it, as cel-go reports the earliest of its errors).
pub(crate) fn tokens(src: &str) -> (Vec<Token>, Option<Error>) {
    let mut out = Vec::new();
    match cut(src, &mut out) {
        Ok(()) => {
            out.push(Token {
                kind: Kind::Eof,
                start: src.len(),
                end: src.len(),
            });
            (out, None)
        }
        Err(e) => {
            out.push(Token {
                kind: Kind::Error,
                start: e.position.offset,
                end: e.position.offset,
            });
            (out, Some(e))
        }
    }
}

fn cut(src: &str, out: &mut Vec<Token>) -> Result<(), Error> {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        // White space and comments.
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0c) {
            i += 1;
            continue;
        }
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        let start = i;
        // String and bytes literals: `b` (bytes) then `r` (raw) prefixes, either case, as
        // CEL.g4 has them (`BYTES : [bB] STRING`, `STRING : [rR]? ...`).
        let mut j = i;
        let bytes = matches!(b[j], b'b' | b'B');
        if bytes {
            j += 1;
        }
        let raw = matches!(b.get(j), Some(b'r' | b'R'));
        if raw {
            j += 1;
        }
        if j < b.len() && (b[j] == b'"' || b[j] == b'\'') {
            let end = string(src, start, j, raw, bytes)?;
            out.push(Token {
                kind: if bytes { Kind::Bytes } else { Kind::String },
                start,
                end,
            });
            i = end;
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let kind = match &src[start..i] {
                "true" => Kind::True,
                "false" => Kind::False,
                "null" => Kind::Null,
                "in" => Kind::In,
                _ => Kind::Ident,
            };
            out.push(Token { kind, start, end: i });
            continue;
        }
        if c == b'`' {
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'_' | b'.' | b'-' | b'/' | b' ')) {
                i += 1;
            }
            if i >= b.len() || b[i] != b'`' || i == start + 1 {
                return Err(unrecognized(src, start, next_char_end(src, i)));
            }
            i += 1;
            out.push(Token {
                kind: Kind::EscapedIdent,
                start,
                end: i,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            let (kind, end) = number(b, i);
            out.push(Token { kind, start, end });
            i = end;
            continue;
        }
        match PUNCTS.iter().find(|p| b[i..].starts_with(p.as_bytes())) {
            // A lone `=` is no CEL token (cel-go reports it as unrecognized).
            Some(p) if *p != "=" => {
                i += p.len();
                out.push(Token {
                    kind: Kind::Punct,
                    start,
                    end: i,
                });
            }
            _ => {
                // ANTLR shows what it read before giving up: `=` and the character after it
                // (it was reading a `==`).
                let mut end = next_char_end(src, i);
                if c == b'=' {
                    end = next_char_end(src, end);
                }
                return Err(unrecognized(src, start, end));
            }
        }
    }
    Ok(())
}

/// The end of the character at `i` (or `i` at the end of the text).
fn next_char_end(src: &str, i: usize) -> usize {
    i + src.get(i..).and_then(|r| r.chars().next()).map_or(0, char::len_utf8)
}

fn unrecognized(src: &str, start: usize, end: usize) -> Error {
    Error::syntax(
        src,
        start,
        format!("token recognition error at: '{}'", &src[start..end]),
    )
}

/// A number literal starting at `i`: `12`, `0x1F`, `12u`, `1.5`, `.5`, `1e3`, `1.5e-3`.
fn number(b: &[u8], mut i: usize) -> (Kind, usize) {
    let digits = |b: &[u8], mut i: usize| {
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) && b.get(i + 2).is_some_and(u8::is_ascii_hexdigit) {
        i += 2;
        while i < b.len() && b[i].is_ascii_hexdigit() {
            i += 1;
        }
        if matches!(b.get(i), Some(b'u' | b'U')) {
            return (Kind::Uint, i + 1);
        }
        return (Kind::Int, i);
    }
    let mut float = false;
    i = digits(b, i);
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
        float = true;
        i = digits(b, i + 1);
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        let mut j = i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            float = true;
            i = digits(b, j);
        }
    }
    if float {
        return (Kind::Float, i);
    }
    if matches!(b.get(i), Some(b'u' | b'U')) {
        return (Kind::Uint, i + 1);
    }
    (Kind::Int, i)
}

/// A string literal (with its prefixes from `start`) whose quote is at `q`: returns where it
/// ends, having checked its escapes. Like ANTLR's longest match, an unclosed `'''` is the
/// empty string `''` followed by more text; a literal that does not lex is reported from
/// its start, with the text read until the character that failed.
fn string(src: &str, start: usize, q: usize, raw: bool, bytes: bool) -> Result<usize, Error> {
    let b = src.as_bytes();
    let quote = b[q];
    let triple = b[q..].starts_with(&[quote, quote, quote]);
    let fail = |until: usize| unrecognized(src, start, next_char_end(src, until));
    let mut i = q + if triple { 3 } else { 1 };
    loop {
        if i >= b.len() {
            if triple {
                // `''` then more text.
                return Ok(q + 2);
            }
            return Err(unrecognized(src, start, b.len()));
        }
        let c = b[i];
        if triple && b[i..].starts_with(&[quote, quote, quote]) {
            return Ok(i + 3);
        }
        if !triple && c == quote {
            return Ok(i + 1);
        }
        if !triple && (c == b'\n' || c == b'\r') {
            return Err(fail(i));
        }
        if c == b'\\' && !raw {
            match escape(src, i, bytes) {
                Ok(end) => i = end,
                Err(bad) => {
                    if triple {
                        return Ok(q + 2);
                    }
                    return Err(fail(bad));
                }
            }
            continue;
        }
        i = next_char_end(src, i);
    }
}

/// The escape sequence at `i` (a backslash): where it ends, or where the first character
/// that does not fit is.
fn escape(src: &str, i: usize, bytes: bool) -> Result<usize, usize> {
    let b = src.as_bytes();
    let hex = |from: usize, n: usize| -> Result<u32, usize> {
        for k in from..from + n {
            if !b.get(k).is_some_and(u8::is_ascii_hexdigit) {
                return Err(k);
            }
        }
        u32::from_str_radix(&src[from..from + n], 16).map_err(|_| from)
    };
    match b.get(i + 1) {
        Some(b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'\\' | b'?' | b'"' | b'\'' | b'`') => Ok(i + 2),
        Some(b'x' | b'X') => {
            hex(i + 2, 2)?;
            Ok(i + 4)
        }
        Some(b'u') | Some(b'U') => {
            let n = if b[i + 1] == b'u' { 4 } else { 8 };
            let code = hex(i + 2, n)?;
            // Unicode escapes name characters: bytes literals have none, and surrogates and
            // values past U+10FFFF are not characters.
            if bytes || char::from_u32(code).is_none() {
                return Err(i + 1 + n);
            }
            Ok(i + 2 + n)
        }
        Some(b'0'..=b'3') => {
            for k in i + 2..i + 4 {
                if !b.get(k).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                    return Err(k);
                }
            }
            Ok(i + 4)
        }
        _ => Err(i + 1),
    }
}

/// The 1-based line and column (in characters) of byte offset `at`.
pub(crate) fn position(src: &str, at: usize) -> Position {
    let before = &src[..at.min(src.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    Position {
        offset: at,
        line,
        column: before[line_start..].chars().count() + 1,
    }
}

/// The value of a string or bytes literal's text (prefixes and quotes included), escapes
/// resolved as cel-go resolves them: in strings, `\xHH` and octal escapes name code points
/// (U+0000 to U+00FF), in bytes they are byte values. The lexer has checked the escapes.
pub(crate) fn unescape(text: &str) -> Vec<u8> {
    let bytes_literal = text.starts_with(['b', 'B']);
    let text = text.strip_prefix(['b', 'B']).unwrap_or(text);
    let raw = text.starts_with(['r', 'R']);
    let text = text.strip_prefix(['r', 'R']).unwrap_or(text);
    let quote = if text.starts_with("'''") || text.starts_with("\"\"\"") {
        3
    } else {
        1
    };
    let body = &text[quote.min(text.len())..text.len().saturating_sub(quote).max(quote.min(text.len()))];
    let mut out = Vec::with_capacity(body.len());
    if raw {
        out.extend_from_slice(body.as_bytes());
        return out;
    }
    let mut chars = body.char_indices().peekable();
    let push_char = |out: &mut Vec<u8>, c: char| {
        let mut buf = [0; 4];
        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    };
    while let Some((i, c)) = chars.next() {
        if c != '\\' {
            push_char(&mut out, c);
            continue;
        }
        let Some((_, e)) = chars.next() else { break };
        let simple = match e {
            'a' => Some(7u8),
            'b' => Some(8),
            'f' => Some(12),
            'n' => Some(b'\n'),
            'r' => Some(b'\r'),
            't' => Some(b'\t'),
            'v' => Some(11),
            '\\' | '?' | '"' | '\'' | '`' => Some(e as u8),
            _ => None,
        };
        if let Some(b) = simple {
            out.push(b);
            continue;
        }
        let (n, radix) = match e {
            'x' | 'X' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            _ => (2, 8),
        };
        let start = if radix == 8 { i + 1 } else { i + 2 };
        let digits = body.get(start..start + if radix == 8 { 3 } else { n }).unwrap_or("");
        for _ in 0..if radix == 8 { 2 } else { n } {
            chars.next();
        }
        let code = u32::from_str_radix(digits, radix).unwrap_or(0);
        if bytes_literal && matches!(e, 'x' | 'X' | '0'..='3') {
            out.push(code as u8);
        } else {
            push_char(&mut out, char::from_u32(code).unwrap_or('\u{fffd}'));
        }
    }
    out
}
