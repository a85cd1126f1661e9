//! Scalars as Go writes them: strings escaped as its encoder escapes them (copied as they
//! are when nothing needs escaping), numbers in the API server's int64/float64 model.

use std::borrow::Cow;

use kstruct_schema::go::{format_float_json, write_string, write_string_content};

use super::walk::{Bail, R, Walker};
use crate::json;
use crate::text;

impl<'a> Walker<'a, '_> {
    /// A string literal's text, borrowed from the body when it holds no escapes (nor control
    /// characters or invalid UTF-8), else decoded as the reader decodes it.
    pub(super) fn str_value(&mut self) -> R<Cow<'a, str>> {
        if self.peek() != Some(b'"') {
            return Err(Bail);
        }
        let b = self.input;
        let start = self.pos + 1;
        let end = text::stop(b, start);
        if b.get(end) == Some(&b'"')
            && let Ok(text) = std::str::from_utf8(&b[start..end])
        {
            self.pos = end + 1;
            return Ok(Cow::Borrowed(text));
        }
        let (s, end) = json::string_at(b, self.pos).map_err(|_| Bail)?;
        self.pos = end;
        Ok(Cow::Owned(s))
    }

    /// Copies a string, escaped as Go escapes it.
    #[inline(always)]
    pub(super) fn string(&mut self) -> R<()> {
        let b = self.input;
        let start = self.pos + 1;
        let (i, special) = text::run(b, start);
        if b.get(i) == Some(&b'"') {
            let span = &b[start..i];
            if !special {
                // With its quotes, as it is in the input.
                text::append(self.out, b, start - 1, i + 1);
                self.pos = i + 1;
                return Ok(());
            }
            if let Ok(s) = std::str::from_utf8(span) {
                write_string(self.out, s);
                self.pos = i + 1;
                return Ok(());
            }
        } else if b.get(i) == Some(&b'\\') && self.escaped_string(start, (i, special)) {
            return Ok(());
        }
        // Control characters, invalid UTF-8, surrogates: decoded as the reader decodes them.
        let (s, end) = json::string_at(b, self.pos).map_err(|_| Bail)?;
        write_string(self.out, &s);
        self.pos = end;
        Ok(())
    }

    /// A string with escapes whose text starts at `start` (its first plain run, as
    /// [`text::run`] found it, is `first`), re-escaped as Go escapes what they decode to, piece
    /// by piece (no `String` in between); false, with nothing written or read, for what it
    /// leaves to the reader: control characters, invalid UTF-8, escapes of surrogates,
    /// malformed escapes.
    #[inline(never)]
    fn escaped_string(&mut self, start: usize, first: (usize, bool)) -> bool {
        let b = self.input;
        let mark = self.out.len();
        self.out.push(b'"');
        let (mut i, mut run) = (start, first);
        loop {
            let (end, special) = run;
            let span = &b[i..end];
            if !special {
                self.out.extend_from_slice(span);
            } else if let Ok(s) = std::str::from_utf8(span) {
                write_string_content(self.out, s);
            } else {
                break;
            }
            match (b.get(end), b.get(end + 1)) {
                (Some(b'"'), _) => {
                    self.out.push(b'"');
                    self.pos = end + 1;
                    return true;
                }
                // These decode to characters Go writes back with the same escape.
                (Some(b'\\'), Some(&c @ (b'"' | b'\\' | b'n' | b'r' | b't' | b'b' | b'f'))) => {
                    self.out.extend_from_slice(&[b'\\', c]);
                    i = end + 2;
                }
                (Some(b'\\'), Some(b'/')) => {
                    self.out.push(b'/');
                    i = end + 2;
                }
                (Some(b'\\'), Some(b'u')) => {
                    let Some(c) = b.get(end + 2..end + 6).and_then(json::hex4).and_then(char::from_u32) else {
                        // Surrogates (or not hex): the reader pairs or replaces them.
                        break;
                    };
                    write_string_content(self.out, c.encode_utf8(&mut [0; 4]));
                    i = end + 6;
                }
                _ => break,
            }
            run = text::run(b, i);
        }
        self.out.truncate(mark);
        false
    }

    pub(super) fn literal(&mut self, word: &[u8]) -> R<()> {
        if self.input[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Bail)
        }
    }

    pub(super) fn copy_literal(&mut self, word: &[u8]) -> R<()> {
        self.literal(word)?;
        self.out.extend_from_slice(word);
        Ok(())
    }

    /// A number in the API server's model (`int64` when the literal is an integer that fits,
    /// else `float64`), written as Go writes it when `write` is set.
    #[inline(always)]
    pub(super) fn number(&mut self, write: bool) -> R<()> {
        // Most numbers are small non-negative integers: they print as written.
        let b = self.input;
        let start = self.pos;
        let mut i = start;
        while let Some(b'0'..=b'9') = b.get(i) {
            i += 1;
        }
        let n = i - start;
        if (n == 1 || (2..=18).contains(&n) && b[start] != b'0') && !matches!(b.get(i), Some(b'.' | b'e' | b'E')) {
            self.pos = i;
            if write {
                self.out.extend_from_slice(&b[start..i]);
            }
            return Ok(());
        }
        self.any_number(write)
    }

    /// [`number`](Self::number) for any number.
    #[inline(never)]
    fn any_number(&mut self, write: bool) -> R<()> {
        let b = self.input;
        let start = self.pos;
        let mut i = start;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        let digits = i;
        match b.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while let Some(b'0'..=b'9') = b.get(i) {
                    i += 1;
                }
            }
            _ => return Err(Bail),
        }
        let mut integer = true;
        if b.get(i) == Some(&b'.') {
            integer = false;
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                return Err(Bail);
            }
            while let Some(b'0'..=b'9') = b.get(i) {
                i += 1;
            }
        }
        let exponent = matches!(b.get(i), Some(b'e' | b'E'));
        if exponent {
            integer = false;
            i += 1;
            if let Some(b'+' | b'-') = b.get(i) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                return Err(Bail);
            }
            while let Some(b'0'..=b'9') = b.get(i) {
                i += 1;
            }
        }
        self.pos = i;
        let text = &b[start..i];
        if integer && i - digits <= 18 {
            // Fits in an int64, and prints as written (but for `-0`).
            if write {
                if text == b"-0" {
                    self.out.push(b'0');
                } else {
                    self.out.extend_from_slice(text);
                }
            }
            return Ok(());
        }
        if !integer && !write && !exponent {
            // Finite without an exponent: no range error to find.
            return Ok(());
        }
        if write && !integer && prints_as_written(text) {
            self.out.extend_from_slice(text);
            return Ok(());
        }
        // ASCII by construction.
        let text = std::str::from_utf8(text).map_err(|_| Bail)?;
        if integer && let Ok(n) = text.parse::<i64>() {
            if write {
                self.out.extend_from_slice(n.to_string().as_bytes());
            }
            return Ok(());
        }
        let f: f64 = text.parse().map_err(|_| Bail)?;
        if !f.is_finite() {
            return Err(Bail);
        }
        if write {
            let printed = format_float_json(f);
            if self.exact_numbers && super::value::reads_as_integer(&printed) {
                return Err(Bail);
            }
            self.out.extend_from_slice(printed.as_bytes());
        }
        Ok(())
    }
}

/// Whether a valid JSON number literal with a fraction is already what Go writes for the
/// `float64` it reads as: no exponent, no trailing zero in the fraction, at most 15
/// significant digits (so no other decimal of as few digits reads as the same `float64`:
/// the shortest form that reads back is these digits), and at least 1e-6 (smaller ones Go
/// writes with an exponent; these are below 1e15, far from the 1e21 where it does too).
fn prints_as_written(text: &[u8]) -> bool {
    let digits = text.strip_prefix(b"-").unwrap_or(text);
    let Some(dot) = digits.iter().position(|&c| c == b'.') else {
        return false;
    };
    let (int, fraction) = (&digits[..dot], &digits[dot + 1..]);
    if fraction.last().is_none_or(|&c| c == b'0') || !fraction.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let significant = if int == b"0" {
        let zeros = fraction.iter().take_while(|&&c| c == b'0').count();
        if zeros > 5 {
            return false;
        }
        fraction.len() - zeros
    } else {
        int.len() + fraction.len()
    };
    significant <= 15
}

#[cfg(test)]
mod tests {
    use super::prints_as_written;
    use kstruct_schema::go::format_float_json;

    /// Every literal the shortcut copies is what Go prints for the number it reads as; the
    /// shortcut takes the common ones.
    #[test]
    fn literals_copied_are_what_go_prints() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut copied = 0;
        for _ in 0..200_000 {
            let digits = (next() % 18 + 1) as usize;
            let mut d: String = (0..digits).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            if next() % 3 == 0 {
                d = format!("{}{}", "0".repeat((next() % 8) as usize), d);
            }
            let dot = (next() % d.len() as u64) as usize;
            let int = d[..dot].trim_start_matches('0');
            let int = if int.is_empty() { "0" } else { int };
            let sign = if next() % 2 == 0 { "-" } else { "" };
            let text = format!("{sign}{int}.{}", &d[dot..]);
            if prints_as_written(text.as_bytes()) {
                copied += 1;
                let f: f64 = text.parse().unwrap();
                assert_eq!(format_float_json(f), text);
            }
        }
        assert!(copied > 50_000, "{copied}");
        for text in ["13.425", "0.000001", "-0.5", "0.1", "12345678901234.5"] {
            assert!(prints_as_written(text.as_bytes()), "{text}");
        }
        // Left to the formatter: Go prints them otherwise, or they have too many digits to tell.
        for text in [
            "1.0",
            "1.50",
            "0.0000001",
            "123456789012345.5",
            "0.30000000000000004",
            "1e5",
            "10",
        ] {
            assert!(!prints_as_written(text.as_bytes()), "{text}");
        }
    }
}
