//! libyaml's reader (`readerc.go`): encoding detection by BOM, UTF-8 and
//! UTF-16 decoding with libyaml's error texts, and its ban on control
//! characters.

use std::borrow::Cow;

use super::error::{Error, ErrorKind};

fn reader_error(problem: &str, text_before: &[u8]) -> Error {
    // libyaml reports reader errors without a line; the location here is
    // for the caller.
    let line = text_before.iter().filter(|&&b| b == b'\n').count() + 1;
    let col_start = text_before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&text_before[col_start..]).chars().count() + 1;
    Error::new(ErrorKind::Reader, format!("yaml: {problem}")).at(line, column)
}

/// The characters libyaml accepts in a stream.
fn allowed(c: u32) -> bool {
    matches!(c,
        0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Decodes a document's bytes as go-yaml would read them.
///
/// go-yaml decodes lazily and stops after the first document, so it can miss
/// a bad byte far beyond the end of that document; this checks all of it.
pub(super) fn decode(bytes: &[u8]) -> Result<Cow<'_, str>, Error> {
    if let Some(rest) = bytes.strip_prefix(b"\xff\xfe") {
        return decode_utf16(rest, false).map(Cow::Owned);
    }
    if let Some(rest) = bytes.strip_prefix(b"\xfe\xff") {
        return decode_utf16(rest, true).map(Cow::Owned);
    }
    let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut i = 0;
    while i < body.len() {
        let octet = body[i];
        let width = match octet {
            o if o & 0x80 == 0 => 1,
            o if o & 0xE0 == 0xC0 => 2,
            o if o & 0xF0 == 0xE0 => 3,
            o if o & 0xF8 == 0xF0 => 4,
            _ => return Err(reader_error("invalid leading UTF-8 octet", &body[..i])),
        };
        if width > body.len() - i {
            return Err(reader_error("incomplete UTF-8 octet sequence", &body[..i]));
        }
        let mut value = u32::from(match width {
            1 => octet & 0x7F,
            2 => octet & 0x1F,
            3 => octet & 0x0F,
            _ => octet & 0x07,
        });
        for k in 1..width {
            let trailing = body[i + k];
            if trailing & 0xC0 != 0x80 {
                return Err(reader_error("invalid trailing UTF-8 octet", &body[..i]));
            }
            value = (value << 6) + u32::from(trailing & 0x3F);
        }
        let shortest = match width {
            1 => true,
            2 => value >= 0x80,
            3 => value >= 0x800,
            _ => value >= 0x10000,
        };
        if !shortest {
            return Err(reader_error("invalid length of a UTF-8 sequence", &body[..i]));
        }
        if (0xD800..=0xDFFF).contains(&value) || value > 0x10FFFF {
            return Err(reader_error("invalid Unicode character", &body[..i]));
        }
        if !allowed(value) {
            return Err(reader_error("control characters are not allowed", &body[..i]));
        }
        i += width;
    }
    // Every check above holds, so this is valid UTF-8.
    match std::str::from_utf8(body) {
        Ok(s) => Ok(Cow::Borrowed(s)),
        Err(_) => Err(reader_error("invalid leading UTF-8 octet", body)),
    }
}

/// The checks `decode` makes, for text that is already UTF-8.
pub(super) fn check_str(text: &str) -> Result<&str, Error> {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    match body.char_indices().find(|&(_, c)| !allowed(c as u32)) {
        Some((at, _)) => Err(reader_error(
            "control characters are not allowed",
            &body.as_bytes()[..at],
        )),
        None => Ok(body),
    }
}

fn decode_utf16(bytes: &[u8], big_endian: bool) -> Result<String, Error> {
    let mut out = String::with_capacity(bytes.len() / 2);
    let unit = |i: usize| {
        let (a, b) = (bytes[i], bytes[i + 1]);
        u32::from(if big_endian {
            u16::from_be_bytes([a, b])
        } else {
            u16::from_le_bytes([a, b])
        })
    };
    let mut i = 0;
    while i < bytes.len() {
        let here = out.as_bytes();
        if bytes.len() - i < 2 {
            return Err(reader_error("incomplete UTF-16 character", here));
        }
        let mut value = unit(i);
        let mut width = 2;
        if value & 0xFC00 == 0xDC00 {
            return Err(reader_error("unexpected low surrogate area", here));
        }
        if value & 0xFC00 == 0xD800 {
            width = 4;
            if bytes.len() - i < 4 {
                return Err(reader_error("incomplete UTF-16 surrogate pair", here));
            }
            let low = unit(i + 2);
            if low & 0xFC00 != 0xDC00 {
                return Err(reader_error("expected low surrogate area", here));
            }
            value = 0x10000 + ((value & 0x3FF) << 10) + (low & 0x3FF);
        }
        if !allowed(value) {
            return Err(reader_error("control characters are not allowed", here));
        }
        match char::from_u32(value) {
            Some(c) => out.push(c),
            None => return Err(reader_error("invalid Unicode character", here)),
        }
        i += width;
    }
    Ok(out)
}
