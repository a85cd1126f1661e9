//! `metav1.Time`: parsing with Go's `time.Parse(time.RFC3339, s)` and rendering as the API
//! server renders timestamps (UTC, RFC 3339, no fractional seconds).

use std::fmt;

const LAYOUT: &str = "2006-01-02T15:04:05Z07:00";
/// `metav1.RFC3339Micro`, `MicroTime`'s layout.
const LAYOUT_MICRO: &str = "2006-01-02T15:04:05.000000Z07:00";

/// An instant, as seconds and nanoseconds since 0001-01-01T00:00:00Z (Go's zero time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Time {
    /// Seconds since Go's zero time (0001-01-01T00:00:00Z).
    secs: i64,
    /// Nanoseconds within the second.
    nanos: u32,
}

/// Why a timestamp did not parse, with Go's `time.ParseError` text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    value: String,
    layout: &'static str,
    kind: ParseErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum ParseErrorKind {
    /// `cannot parse "<value elem>" as "<layout elem>"`.
    Elem {
        value_elem: String,
        layout_elem: &'static str,
    },
    /// `<what> out of range`.
    Range(&'static str),
    /// `extra text: "<rest>"`.
    Extra(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = quote(&self.value);
        let layout = quote(self.layout);
        match &self.kind {
            ParseErrorKind::Elem {
                value_elem,
                layout_elem,
            } => write!(
                f,
                "parsing time {value} as {layout}: cannot parse {} as {}",
                quote(value_elem),
                quote(layout_elem)
            ),
            ParseErrorKind::Range(what) => write!(f, "parsing time {value}: {what} out of range"),
            ParseErrorKind::Extra(rest) => {
                write!(f, "parsing time {value}: extra text: {}", quote(rest))
            }
        }
    }
}

impl std::error::Error for ParseError {}

fn is_leap(y: i64) -> bool {
    y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(y) => 29,
        _ => 28,
    }
}

/// Days from 0001-01-01 to the given civil date (proleptic Gregorian, any year).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    // Shift to a March-based year so that the leap day is the last day of the year.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    // 0001-01-01 is day 306 of era 0 in this March-based count (era 0 starts 0000-03-01).
    era * 146_097 + doe - 306
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 306;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    (y, m, d)
}

/// Reads a run of digits as Go's `getnum`: one or two digits, exactly two when `fixed`.
fn getnum(s: &str, fixed: bool) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() {
        return None;
    }
    if b.len() < 2 || !b[1].is_ascii_digit() {
        if fixed {
            return None;
        }
        return Some((u32::from(b[0] - b'0'), &s[1..]));
    }
    Some((u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0'), &s[2..]))
}

impl Time {
    /// True for Go's zero time (`time.Time{}.IsZero()`).
    pub fn is_zero(&self) -> bool {
        self.secs == 0 && self.nanos == 0
    }

    /// For `s` in the form the API server writes times in (`YYYY-MM-DDTHH:MM:SSZ`): whether
    /// it is Go's zero time, when it parses ([`Time::parse_rfc3339`] would accept it and print
    /// it as it is); `None` for any other text, valid or not. The common case, with no
    /// arithmetic.
    pub(crate) fn utc_seconds_is_zero(s: &[u8]) -> Option<bool> {
        let s: &[u8; 20] = s.try_into().ok()?;
        let digit = |i: usize| s[i].wrapping_sub(b'0');
        let two = |i: usize| u32::from(digit(i)) * 10 + u32::from(digit(i + 1));
        let digits_at = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
        if digits_at.iter().any(|&i| digit(i) > 9)
            || [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':'), (19, b'Z')]
                .iter()
                .any(|&(i, c)| s[i] != c)
        {
            return None;
        }
        let year = i64::from(two(0)) * 100 + i64::from(two(2));
        let (month, day) = (two(5), two(8));
        if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
            return None;
        }
        if two(11) > 23 || two(14) > 59 || two(17) > 59 {
            return None;
        }
        Some(s == b"0001-01-01T00:00:00Z")
    }

    /// Parses `s` as Go's `time.Parse(time.RFC3339, s)` does (the lenient general parser,
    /// which also accepts one-digit hours and fractional seconds).
    ///
    /// ```
    /// use kstruct::objectmeta::Time;
    /// let t = Time::parse_rfc3339("2020-01-01T10:00:00.5+02:00").unwrap();
    /// assert_eq!(t.to_rfc3339_utc(), "2020-01-01T08:00:00Z");
    /// assert_eq!(
    ///     Time::parse_rfc3339("not-a-time").unwrap_err().to_string(),
    ///     r#"parsing time "not-a-time" as "2006-01-02T15:04:05Z07:00": cannot parse "not-a-time" as "2006""#
    /// );
    /// ```
    pub fn parse_rfc3339(s: &str) -> Result<Time, ParseError> {
        Self::parse_layout(s, false)
    }

    /// `time.Parse(metav1.RFC3339Micro, s)`, as `metav1.MicroTime` reads its JSON: exactly six
    /// fractional digits after the seconds.
    ///
    /// ```
    /// use kstruct::objectmeta::Time;
    /// let t = Time::parse_rfc3339_micro("2020-01-01T10:00:00.250000+02:00").unwrap();
    /// assert_eq!(t.to_rfc3339_micro_utc(), "2020-01-01T08:00:00.250000Z");
    /// ```
    pub fn parse_rfc3339_micro(s: &str) -> Result<Time, ParseError> {
        Self::parse_layout(s, true)
    }

    fn parse_layout(s: &str, micro: bool) -> Result<Time, ParseError> {
        let layout = if micro { LAYOUT_MICRO } else { LAYOUT };
        let elem = |value_elem: &str, layout_elem: &'static str| ParseError {
            value: s.to_string(),
            layout,
            kind: ParseErrorKind::Elem {
                value_elem: value_elem.to_string(),
                layout_elem,
            },
        };
        let range = |what: &'static str| ParseError {
            value: s.to_string(),
            layout,
            kind: ParseErrorKind::Range(what),
        };

        // Year: exactly four characters starting with a digit (Go's atoi then refuses a sign
        // anywhere else), so four digits.
        let mut rest = s;
        let year_digits = rest.as_bytes().get(..4).filter(|y| y.iter().all(u8::is_ascii_digit));
        let Some(year_digits) = year_digits else {
            return Err(elem(rest, "2006"));
        };
        let year = year_digits.iter().fold(0i64, |y, d| y * 10 + i64::from(d - b'0'));
        rest = &rest[4..];
        let lit = |rest: &str, l: &'static str| -> Result<usize, ParseError> {
            if rest.starts_with(l) {
                Ok(l.len())
            } else {
                Err(elem(rest, l))
            }
        };
        rest = &rest[lit(rest, "-")?..];
        let (month, r) = getnum(rest, true).ok_or_else(|| elem(rest, "01"))?;
        if !(1..=12).contains(&month) {
            return Err(range("month"));
        }
        rest = r;
        rest = &rest[lit(rest, "-")?..];
        let (day, r) = getnum(rest, true).ok_or_else(|| elem(rest, "02"))?;
        rest = r;
        rest = &rest[lit(rest, "T")?..];
        let (hour, r) = getnum(rest, false).ok_or_else(|| elem(rest, "15"))?;
        if hour > 23 {
            return Err(range("hour"));
        }
        rest = r;
        rest = &rest[lit(rest, ":")?..];
        let (minute, r) = getnum(rest, true).ok_or_else(|| elem(rest, "04"))?;
        if minute > 59 {
            return Err(range("minute"));
        }
        rest = r;
        rest = &rest[lit(rest, ":")?..];
        let (second, r) = getnum(rest, true).ok_or_else(|| elem(rest, "05"))?;
        if second > 59 {
            return Err(range("second"));
        }
        rest = r;
        // A fractional second may follow even though the layout has none; the micro layout
        // requires exactly six digits.
        let mut nanos = 0u32;
        let b = rest.as_bytes();
        if micro {
            let six = b.len() >= 7 && (b[0] == b'.' || b[0] == b',') && b[1..7].iter().all(u8::is_ascii_digit);
            if !six {
                return Err(elem(rest, ".000000"));
            }
            nanos = b[1..7].iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0')) * 1000;
            rest = &rest[7..];
        } else if b.len() >= 2 && (b[0] == b'.' || b[0] == b',') && b[1].is_ascii_digit() {
            let n = 1 + b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
            let digits = &rest[1..n];
            let mut scale = 100_000_000u32;
            for c in digits.bytes().take(9) {
                nanos += u32::from(c - b'0') * scale;
                scale /= 10;
            }
            rest = &rest[n..];
        }
        // Zone: `Z` or `±hh:mm`.
        let offset_secs: i64;
        if let Some(r) = rest.strip_prefix('Z') {
            offset_secs = 0;
            rest = r;
        } else {
            let b = rest.as_bytes();
            if b.len() < 6 || b[3] != b':' {
                return Err(elem(rest, "Z07:00"));
            }
            let two = |i: usize| -> Option<u32> {
                (b[i].is_ascii_digit() && b[i + 1].is_ascii_digit())
                    .then(|| u32::from(b[i] - b'0') * 10 + u32::from(b[i + 1] - b'0'))
            };
            let (Some(hh), Some(mm)) = (two(1), two(4)) else {
                return Err(elem(rest, "Z07:00"));
            };
            // Go checks the ranges before the sign, allows offsets of exactly 24h or 60m, and
            // names the minute when both are out of range (its later check wins).
            if mm > 60 {
                return Err(range("time zone offset minute"));
            }
            if hh > 24 {
                return Err(range("time zone offset hour"));
            }
            let off = i64::from(hh) * 3600 + i64::from(mm) * 60;
            offset_secs = match b[0] {
                b'+' => off,
                b'-' => -off,
                _ => return Err(elem(rest, "Z07:00")),
            };
            rest = &rest[6..];
        }
        if !rest.is_empty() {
            return Err(ParseError {
                value: s.to_string(),
                layout,
                kind: ParseErrorKind::Extra(rest.to_string()),
            });
        }
        if day < 1 || day > days_in_month(year, month) {
            return Err(range("day"));
        }
        let days = days_from_civil(year, month, day);
        let local = days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
        Ok(Time {
            secs: local - offset_secs,
            nanos,
        })
    }

    /// Renders the instant as `metav1.MicroTime` writes it: `t.UTC().Format(RFC3339Micro)`,
    /// six fractional digits.
    pub fn to_rfc3339_micro_utc(&self) -> String {
        let whole = self.to_rfc3339_utc();
        let base = whole.strip_suffix('Z').unwrap_or(&whole);
        format!("{base}.{:06}Z", self.nanos / 1000)
    }

    /// Renders the instant as the API server does: `t.UTC().Format(time.RFC3339)`, without
    /// fractional seconds.
    pub fn to_rfc3339_utc(&self) -> String {
        let days = self.secs.div_euclid(86_400);
        let sod = self.secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        let year = if y < 0 {
            format!("-{:04}", -y)
        } else {
            format!("{y:04}")
        };
        format!(
            "{year}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
            sod / 3600,
            sod / 60 % 60,
            sod % 60
        )
    }
}

/// Go's `atoi` as the time parser uses it: an optional sign, then decimal digits only.
/// The time package's own `quote` (not strconv's): every byte of a non-ASCII or control
/// character as `\xNN`, `"` and `\` escaped, everything else as is.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if !c.is_ascii() || c < ' ' {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_form_is_read_as_the_parser_reads_it() {
        let mut checked = 0;
        for year in ["0000", "0001", "1900", "2000", "2023", "2024", "9999"] {
            for month in 0..=13 {
                for day in [0, 1, 28, 29, 30, 31, 32] {
                    for (h, m, sec) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (0, 60, 0), (0, 0, 60), (9, 5, 7)] {
                        let t = format!("{year}-{month:02}-{day:02}T{h:02}:{m:02}:{sec:02}Z");
                        let parsed = Time::parse_rfc3339(&t).ok();
                        assert_eq!(
                            Time::utc_seconds_is_zero(t.as_bytes()),
                            parsed.map(|p| p.is_zero()),
                            "{t}"
                        );
                        if let Some(p) = parsed {
                            assert_eq!(p.to_rfc3339_utc(), t);
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 7 * 14 * 7 * 6);
        for other in [
            "2024-01-01T00:00:00+00:00",
            "2024-01-01T00:00:00.5Z",
            "2024-01-01T0:00:00Z",
            "2024-01-01 00:00:00Z",
            "2024-01-01T00:00:00z",
            "+024-01-01T00:00:00Z",
            "2024-01-01T00:00:0aZ",
            "2024-01-01T00:00:00Z ",
        ] {
            assert_eq!(Time::utc_seconds_is_zero(other.as_bytes()), None, "{other}");
        }
    }

    #[test]
    fn parses_and_renders() {
        let cases = [
            ("2020-01-01T10:00:00Z", "2020-01-01T10:00:00Z"),
            ("2020-01-01T10:00:00.123456789Z", "2020-01-01T10:00:00Z"),
            ("2020-02-29T23:30:00-01:00", "2020-03-01T00:30:00Z"),
            ("2020-01-01T1:02:03Z", "2020-01-01T01:02:03Z"),
            ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z"),
            ("9999-12-31T23:59:59Z", "9999-12-31T23:59:59Z"),
            ("1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"),
        ];
        for (input, want) in cases {
            assert_eq!(Time::parse_rfc3339(input).unwrap().to_rfc3339_utc(), want, "{input}");
        }
        assert!(Time::parse_rfc3339("0001-01-01T00:00:00Z").unwrap().is_zero());
        assert!(Time::parse_rfc3339("0001-01-01T01:00:00+01:00").unwrap().is_zero());
    }

    #[test]
    fn rejects_like_go() {
        let cases = [
            (
                "2020-13-01T00:00:00Z",
                r#"parsing time "2020-13-01T00:00:00Z": month out of range"#,
            ),
            (
                "2021-02-29T00:00:00Z",
                r#"parsing time "2021-02-29T00:00:00Z": day out of range"#,
            ),
            (
                "2020-01-01",
                r#"parsing time "2020-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#,
            ),
            (
                "2020-01-01T00:00:00",
                r#"parsing time "2020-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#,
            ),
            (
                "2020-01-01T00:00:00Zx",
                r#"parsing time "2020-01-01T00:00:00Zx": extra text: "x""#,
            ),
            (
                "2020-01-01T24:00:00Z",
                r#"parsing time "2020-01-01T24:00:00Z": hour out of range"#,
            ),
            // Both offset parts out of range: Go's later check (the minute) names the error.
            (
                "2020-01-01T00:00:00+99:99",
                r#"parsing time "2020-01-01T00:00:00+99:99": time zone offset minute out of range"#,
            ),
            (
                "2020-01-01T00:00:00+25:00",
                r#"parsing time "2020-01-01T00:00:00+25:00": time zone offset hour out of range"#,
            ),
            // The year starts with a digit: no sign.
            (
                "+202-01-01T00:00:00Z",
                r#"parsing time "+202-01-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "+202-01-01T00:00:00Z" as "2006""#,
            ),
            (
                "-001-01-01T00:00:00Z",
                r#"parsing time "-001-01-01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "-001-01-01T00:00:00Z" as "2006""#,
            ),
            // The time package quotes bytes, not characters, and leaves DEL alone.
            (
                "\u{e9}",
                r#"parsing time "\xc3\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\xc3\xa9" as "2006""#,
            ),
            (
                "2020-01-01T00:00:00\t",
                "parsing time \"2020-01-01T00:00:00\\x09\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"\\x09\" as \"Z07:00\"",
            ),
            (
                "2020-01-01T00:00:00Z\u{7f}\"",
                "parsing time \"2020-01-01T00:00:00Z\u{7f}\\\"\": extra text: \"\u{7f}\\\"\"",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(Time::parse_rfc3339(input).unwrap_err().to_string(), want, "{input}");
        }
    }
}
