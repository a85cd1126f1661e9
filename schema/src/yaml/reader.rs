//! libyaml's reader as go-yaml v2 runs it (`readerc.go`): encoding detection by BOM, UTF-8
//! and UTF-16 decoding with libyaml's error texts, its ban on control characters, and *when*
//! it finds a bad byte.
//!
//! The reader decodes lazily, one 512-byte window of raw input at a time, whenever the
//! scanner asks for more characters than it holds. A bad byte therefore fails the parse only
//! once the scanner reaches the window that holds it: a syntax error well before it wins, and
//! a document that ends (`...`) before it never sees it. [`Input`] records the windows so
//! that the scanner can replay exactly when each one is decoded.

use std::borrow::Cow;

use super::error::{Error, ErrorKind};

/// libyaml's `input_raw_buffer_size`: the reader decodes this many raw bytes at a time.
const RAW_WINDOW: usize = 512;

/// The decoded text of a document and the schedule by which libyaml's reader delivers it.
pub(super) struct Input<'a> {
    /// UTF-8 text, without the leading byte-order mark, up to the window that holds a bad
    /// byte (the whole input when there is none).
    pub(super) text: Cow<'a, str>,
    /// For each raw window, how many characters the reader holds once it has decoded it.
    pub(super) windows: Vec<usize>,
    /// The reader's error, raised when the scanner needs a character past the last window.
    pub(super) fault: Option<Error>,
}

fn reader_error(problem: &str, text_before: &str) -> Error {
    // libyaml reports reader errors without a line; the location is for the caller.
    let line = text_before.bytes().filter(|&b| b == b'\n').count() + 1;
    let col_start = text_before.rfind('\n').map_or(0, |p| p + 1);
    let column = text_before[col_start..].chars().count() + 1;
    Error::new(ErrorKind::Reader, format!("yaml: {problem}")).at(line, column)
}

/// The characters libyaml accepts in a stream.
fn allowed(c: u32) -> bool {
    matches!(c,
        0x09 | 0x0A | 0x0D | 0x20..=0x7E | 0x85 | 0xA0..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

/// Tracks the raw windows while characters are decoded one by one.
struct Schedule {
    window_end: usize,
    windows: Vec<usize>,
    chars: usize,
}

impl Schedule {
    fn new() -> Self {
        Schedule {
            window_end: RAW_WINDOW,
            windows: Vec::new(),
            chars: 0,
        }
    }

    /// A character (or a bad sequence) at raw offset `at` that needs `need` raw bytes: when
    /// they do not fit in the current window, the reader stops before it and starts the
    /// next window there.
    fn place(&mut self, at: usize, need: usize) {
        if at + need > self.window_end {
            self.windows.push(self.chars);
            self.window_end = at + RAW_WINDOW;
        }
    }

    fn finish(mut self) -> Vec<usize> {
        self.windows.push(self.chars);
        self.windows
    }

    /// The windows before the one that holds a bad sequence.
    fn fault(self) -> Vec<usize> {
        let mut windows = self.windows;
        if windows.is_empty() {
            windows.push(0);
        }
        windows
    }
}

/// Decodes a document's bytes as go-yaml's reader would.
pub(super) fn decode(bytes: &[u8]) -> Input<'_> {
    // go-yaml parses an empty input as a line break.
    if bytes.is_empty() {
        return decode(b"\n");
    }
    if bytes.starts_with(b"\xff\xfe") {
        return decode_utf16(bytes, false);
    }
    if bytes.starts_with(b"\xfe\xff") {
        return decode_utf16(bytes, true);
    }
    let start = if bytes.starts_with(b"\xef\xbb\xbf") { 3 } else { 0 };
    let body = &bytes[start..];
    let mut schedule = Schedule::new();
    let mut i = 0;
    let fail = |schedule: Schedule, problem: &str, i: usize| {
        // Everything before `i` is valid UTF-8: the loop below checked it.
        let before = std::str::from_utf8(&body[..i]).unwrap_or_default();
        let windows = schedule.fault();
        let kept = before
            .char_indices()
            .nth(*windows.last().unwrap_or(&0))
            .map_or(before.len(), |(b, _)| b);
        Input {
            text: Cow::Borrowed(&before[..kept]),
            windows,
            fault: Some(reader_error(problem, before)),
        }
    };
    while i < body.len() {
        let octet = body[i];
        let width = match octet {
            o if o & 0x80 == 0 => 1,
            o if o & 0xE0 == 0xC0 => 2,
            o if o & 0xF0 == 0xE0 => 3,
            o if o & 0xF8 == 0xF0 => 4,
            _ => {
                schedule.place(start + i, 1);
                return fail(schedule, "invalid leading UTF-8 octet", i);
            }
        };
        if width > body.len() - i {
            schedule.windows.push(schedule.chars);
            return fail(schedule, "incomplete UTF-8 octet sequence", i);
        }
        schedule.place(start + i, width);
        let mut value = u32::from(match width {
            1 => octet & 0x7F,
            2 => octet & 0x1F,
            3 => octet & 0x0F,
            _ => octet & 0x07,
        });
        for k in 1..width {
            let trailing = body[i + k];
            if trailing & 0xC0 != 0x80 {
                return fail(schedule, "invalid trailing UTF-8 octet", i);
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
            return fail(schedule, "invalid length of a UTF-8 sequence", i);
        }
        if (0xD800..=0xDFFF).contains(&value) || value > 0x10FFFF {
            return fail(schedule, "invalid Unicode character", i);
        }
        if !allowed(value) {
            return fail(schedule, "control characters are not allowed", i);
        }
        schedule.chars += 1;
        i += width;
    }
    let text = match std::str::from_utf8(body) {
        Ok(s) => Cow::Borrowed(s),
        // Unreachable: every sequence was checked above.
        Err(_) => String::from_utf8_lossy(body),
    };
    Input {
        text,
        windows: schedule.finish(),
        fault: None,
    }
}

/// [`decode`] for text that is already UTF-8.
pub(super) fn from_str(text: &str) -> Input<'_> {
    decode(text.as_bytes())
}

fn decode_utf16(bytes: &[u8], big_endian: bool) -> Input<'static> {
    let unit = |i: usize| {
        let (a, b) = (bytes[i], bytes[i + 1]);
        u32::from(if big_endian {
            u16::from_be_bytes([a, b])
        } else {
            u16::from_le_bytes([a, b])
        })
    };
    let mut out = String::with_capacity(bytes.len() / 2);
    let mut schedule = Schedule::new();
    let mut i = 2;
    let fail = |schedule: Schedule, out: String, problem: &str| {
        let windows = schedule.fault();
        let kept = out
            .char_indices()
            .nth(*windows.last().unwrap_or(&0))
            .map_or(out.len(), |(b, _)| b);
        let fault = reader_error(problem, &out);
        let mut out = out;
        out.truncate(kept);
        Input {
            text: Cow::Owned(out),
            windows,
            fault: Some(fault),
        }
    };
    while i < bytes.len() {
        if bytes.len() - i < 2 {
            schedule.windows.push(schedule.chars);
            return fail(schedule, out, "incomplete UTF-16 character");
        }
        let mut value = unit(i);
        let mut width = 2;
        if value & 0xFC00 == 0xDC00 {
            schedule.place(i, 2);
            return fail(schedule, out, "unexpected low surrogate area");
        }
        if value & 0xFC00 == 0xD800 {
            width = 4;
            if bytes.len() - i < 4 {
                schedule.windows.push(schedule.chars);
                return fail(schedule, out, "incomplete UTF-16 surrogate pair");
            }
            schedule.place(i, 4);
            let low = unit(i + 2);
            if low & 0xFC00 != 0xDC00 {
                return fail(schedule, out, "expected low surrogate area");
            }
            value = 0x10000 + ((value & 0x3FF) << 10) + (low & 0x3FF);
        } else {
            schedule.place(i, 2);
        }
        if !allowed(value) {
            return fail(schedule, out, "control characters are not allowed");
        }
        match char::from_u32(value) {
            Some(c) => out.push(c),
            None => return fail(schedule, out, "invalid Unicode character"),
        }
        schedule.chars += 1;
        i += width;
    }
    Input {
        text: Cow::Owned(out),
        windows: schedule.finish(),
        fault: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_end_where_a_character_no_longer_fits() {
        // 511 ASCII bytes, then a 2-byte character that straddles the first window's end.
        let text = format!("{}é{}", "a".repeat(511), "b".repeat(600));
        let input = from_str(&text);
        assert!(input.fault.is_none());
        assert_eq!(input.windows, [511, 511 + 1 + 510, 1112]);
    }

    #[test]
    fn a_bad_byte_is_raised_with_the_window_that_holds_it() {
        let mut bytes = b"a: 1\n".repeat(200);
        bytes.push(0xff);
        let input = decode(&bytes);
        // The bad byte is at offset 1000, in the second window: the first 512 bytes decode.
        assert_eq!(input.windows, [512]);
        assert_eq!(input.text.len(), 512);
        let fault = input.fault.expect("fault");
        assert_eq!(fault.message(), "yaml: invalid leading UTF-8 octet");
        assert_eq!((fault.line(), fault.column()), (Some(201), Some(1)));
    }

    #[test]
    fn utf16_is_decoded_by_its_byte_order_mark() {
        let le: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain("a: é".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&le).text, "a: é");
        let be: Vec<u8> = [0xfe, 0xff]
            .into_iter()
            .chain("a: 1".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(decode(&be).text, "a: 1");
        let odd = [0xff, 0xfe, b'a', 0, b'b'];
        let input = decode(&odd);
        assert_eq!(
            input.fault.map(|e| e.message().to_owned()).as_deref(),
            Some("yaml: incomplete UTF-16 character")
        );
        assert_eq!(input.windows, [1]);
    }
}
