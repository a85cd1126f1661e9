//! `strconv.Quote` and `strconv.IsPrint`.

use std::fmt::Write;

use super::isprint_table::PRINT_RANGES;

/// Reports whether Go's `strconv.IsPrint` considers `c` printable: letters, marks, numbers,
/// punctuation, symbols (Unicode 17.0, as in Go 1.27) and the ASCII space.
pub fn is_print(c: char) -> bool {
    let c = c as u32;
    if c < 0x80 {
        return (0x20..0x7f).contains(&c);
    }
    PRINT_RANGES
        .binary_search_by(|&(lo, hi)| {
            if hi < c {
                std::cmp::Ordering::Less
            } else if lo > c {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Quotes `s` as Go's `strconv.Quote` (and `fmt`'s `%q`) does: double quotes, `\"` and `\\`,
/// the C escapes `\a \b \f \n \r \t \v`, `\xNN` for other control bytes, `\uNNNN` or
/// `\UNNNNNNNN` for other non-printable characters; printable characters stay as they are.
///
/// ```
/// assert_eq!(kstruct_schema::go::quote("a\"b\n"), r#""a\"b\n""#);
/// assert_eq!(kstruct_schema::go::quote("\u{7f}é\u{200b}"), r#""\x7fé\u200b""#);
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if is_print(c) => out.push(c),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            c if (c as u32) < 0x10000 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => {
                let _ = write!(out, "\\U{:08x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_like_go() {
        assert_eq!(quote(""), r#""""#);
        assert_eq!(quote("spec.a"), r#""spec.a""#);
        assert_eq!(quote("\u{0}"), r#""\x00""#);
        assert_eq!(quote("\u{1b}[0m"), r#""\x1b[0m""#);
        assert_eq!(quote("\u{a0}"), r#""\u00a0""#);
        assert_eq!(quote("\u{ad}"), r#""\u00ad""#);
        assert_eq!(quote("日本"), r#""日本""#);
        assert_eq!(quote("\u{feff}"), r#""\ufeff""#);
        assert_eq!(quote("\u{e000}"), r#""\ue000""#);
        assert_eq!(quote("\u{10ffff}"), r#""\U0010ffff""#);
        assert_eq!(quote("\u{1f600}"), "\"\u{1f600}\"");
        assert_eq!(quote("\u{fffd}"), "\"\u{fffd}\"");
        assert_eq!(quote("a b\tc"), r#""a b\tc""#);
        assert_eq!(quote("\u{2028}"), r#""\u2028""#);
    }

    #[test]
    fn printable_latin1_matches_go() {
        for c in 0u32..0x100 {
            let ch = char::from_u32(c).unwrap();
            let go = (0x20..=0x7e).contains(&c) || ((0xa1..=0xff).contains(&c) && c != 0xad);
            assert_eq!(is_print(ch), go, "U+{c:04X}");
        }
    }
}
