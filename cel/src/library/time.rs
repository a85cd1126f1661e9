//! Timestamps and durations as cel-go's standard library treats them: `timestamp(string)`
//! (Go's `time.Parse(time.RFC3339, s)`, within years 0001..9999), `duration(string)` (Go's
//! `time.ParseDuration`), the calendar accessors (`getFullYear()`, `getHours('+05:30')`...)
//! and the duration accessors, plus the string forms `string()` gives.
//!
//! Time zones: the accessors take `UTC` (or the empty string, or `Local`, which is UTC on an
//! API server running in UTC) and numeric offsets (`+05:30`, `-08:00`), as cel-go does. IANA
//! names (`America/New_York`) would need a time zone database, which this crate does not
//! carry: they fail with `unknown time zone <name>` (what Go answers for a name it cannot
//! find), where the API server would answer with the local time there.
//!
//! Values carry no zone: a timestamp parsed with an offset is kept in UTC, so `string()` of
//! `timestamp('2023-01-01T01:00:00+01:00')` is `2023-01-01T00:00:00Z` where cel-go keeps the
//! offset it parsed (`2023-01-01T01:00:00+01:00`); every accessor gives the same result.

use super::Call;
use crate::value::{EvalError, Timestamp, Value};

/// Seconds from the Unix epoch to 0001-01-01T00:00:00Z: the earliest CEL timestamp.
pub(crate) const MIN_SECONDS: i64 = -62_135_596_800;
/// Seconds from the Unix epoch to 9999-12-31T23:59:59Z: the latest CEL timestamp's second.
pub(crate) const MAX_SECONDS: i64 = 253_402_300_799;

const NANOS_PER_SECOND: i64 = 1_000_000_000;
const SECONDS_PER_DAY: i64 = 86_400;

fn ok(v: Value) -> Call {
    Some(Ok(v))
}

fn err(message: impl Into<String>) -> Call {
    Some(Err(EvalError::new(message)))
}

/// The timestamp and duration functions this module defines.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (target, args) {
        (None, [Value::String(s)]) => match function {
            "timestamp" => Some(parse_timestamp(s).map(Value::Timestamp)),
            "duration" => Some(parse_duration(s).map(Value::Duration)),
            _ => None,
        },
        (Some(Value::Timestamp(t)), []) => timestamp_accessor(function, *t, i64::from(t.offset)),
        (Some(Value::Timestamp(t)), [Value::String(tz)]) => {
            // Only the accessors take a zone; anything else is not ours.
            accessor(function)?;
            match zone_offset(tz) {
                Ok(offset) => timestamp_accessor(function, *t, offset),
                Err(e) => Some(Err(e)),
            }
        }
        (Some(Value::Duration(d)), []) => duration_accessor(function, *d),
        _ => None,
    }
}

/// All of this module's functions cost one unit (cel-go's default).
pub(crate) fn cost(_function: &str, _target: Option<&Value>, _args: &[Value], _result: &Value) -> Option<u64> {
    None
}

/// The calendar fields an accessor reads.
#[derive(Clone, Copy)]
enum Field {
    FullYear,
    Month,
    DayOfYear,
    DayOfMonth,
    Date,
    DayOfWeek,
    Hours,
    Minutes,
    Seconds,
    Milliseconds,
}

fn accessor(function: &str) -> Option<Field> {
    Some(match function {
        "getFullYear" => Field::FullYear,
        "getMonth" => Field::Month,
        "getDayOfYear" => Field::DayOfYear,
        "getDayOfMonth" => Field::DayOfMonth,
        "getDate" => Field::Date,
        "getDayOfWeek" => Field::DayOfWeek,
        "getHours" => Field::Hours,
        "getMinutes" => Field::Minutes,
        "getSeconds" => Field::Seconds,
        "getMilliseconds" => Field::Milliseconds,
        _ => return None,
    })
}

/// A timestamp's field in the zone `offset` seconds east of UTC.
fn timestamp_accessor(function: &str, t: Timestamp, offset: i64) -> Call {
    let field = accessor(function)?;
    let local = i128::from(t.seconds) + i128::from(offset);
    // Offsets are bounded by what `zone_offset` accepts, but keep the arithmetic total.
    let Ok(local) = i64::try_from(local) else {
        return err("timestamp overflow");
    };
    let days = local.div_euclid(SECONDS_PER_DAY);
    let secs = local.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let v = match field {
        Field::FullYear => year,
        Field::Month => i64::from(month) - 1,
        Field::DayOfYear => days - days_from_civil(year, 1, 1),
        Field::DayOfMonth => i64::from(day) - 1,
        Field::Date => i64::from(day),
        // 1970-01-01 was a Thursday (4, Sunday being 0).
        Field::DayOfWeek => (days + 4).rem_euclid(7),
        Field::Hours => secs / 3600,
        Field::Minutes => secs % 3600 / 60,
        Field::Seconds => secs % 60,
        Field::Milliseconds => i64::from(t.nanos / 1_000_000),
    };
    ok(Value::Int(v))
}

/// A duration's hours, minutes, seconds or milliseconds, as Go's `Duration.Hours()` and
/// friends compute them (whole units plus a float fraction, truncated: for huge durations
/// the float addition can round up to the next unit, and cel-go returns that).
fn duration_accessor(function: &str, d: i64) -> Call {
    let whole_plus_fraction = |unit: i64| {
        let whole = d / unit;
        let rest = d % unit;
        (whole as f64 + rest as f64 / unit as f64) as i64
    };
    let v = match function {
        "getHours" => whole_plus_fraction(3600 * NANOS_PER_SECOND),
        "getMinutes" => whole_plus_fraction(60 * NANOS_PER_SECOND),
        "getSeconds" => whole_plus_fraction(NANOS_PER_SECOND),
        "getMilliseconds" => d / 1_000_000,
        _ => return None,
    };
    ok(Value::Int(v))
}

/// A time zone argument as seconds east of UTC, as cel-go reads it: a name without `:` is a
/// location (`UTC`), otherwise `<hours>:<minutes>` each read with Go's `strconv.Atoi`, the
/// minutes taking the sign of the text.
fn zone_offset(tz: &str) -> Result<i64, EvalError> {
    let Some((hours, minutes)) = tz.split_once(':') else {
        return match tz {
            "" | "UTC" | "Local" => Ok(0),
            _ if tz.contains("..") || tz.starts_with(['/', '\\']) => Err(EvalError::new("time: invalid location name")),
            _ => Err(EvalError::new(format!("unknown time zone {tz}"))),
        };
    };
    let hours = atoi(hours)?;
    let minutes = atoi(minutes)?;
    let offset = if tz.starts_with('-') {
        i128::from(hours) * 60 - i128::from(minutes)
    } else {
        i128::from(hours) * 60 + i128::from(minutes)
    };
    // Go computes time.Duration(offset) * time.Minute, which wraps beyond ±2^63 ns; such
    // offsets (over 292 years) are nonsense either way: refuse them rather than wrap.
    let seconds = offset * 60;
    if seconds.abs() > i128::from(i64::MAX / NANOS_PER_SECOND) {
        return Err(EvalError::new("timestamp overflow"));
    }
    i64::try_from(seconds).map_err(|_| EvalError::new("timestamp overflow"))
}

/// Go's `strconv.Atoi`, with its error texts.
fn atoi(s: &str) -> Result<i64, EvalError> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(EvalError::new(format!(
            "strconv.Atoi: parsing {}: invalid syntax",
            super::strings::go_quote(s)
        )));
    }
    s.parse::<i64>().map_err(|_| {
        EvalError::new(format!(
            "strconv.Atoi: parsing {}: value out of range",
            super::strings::go_quote(s)
        ))
    })
}

/// Days since 1970-01-01 of a proleptic Gregorian date (the classic era-based conversion:
/// 400-year eras of 146097 days, years starting in March so the leap day comes last).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date (year, month 1..12, day 1..31) of a day count since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `timestamp(s)`: Go's `time.Parse(time.RFC3339, s)` (which also takes a one-digit hour, a
/// fraction after `,`, and offsets up to `+24:60`, as its general parser does when the strict
/// RFC 3339 path refuses), then cel-go's range check.
pub(crate) fn parse_timestamp(s: &str) -> Result<Timestamp, EvalError> {
    let seconds = parse_rfc3339(s.as_bytes())
        .ok_or_else(|| EvalError::new("type conversion error from 'string' to 'google.protobuf.Timestamp'"))?;
    let (seconds, nanos, offset) = seconds;
    if !(MIN_SECONDS..=MAX_SECONDS).contains(&seconds) {
        return Err(EvalError::new("timestamp overflow"));
    }
    Ok(Timestamp { seconds, nanos, offset })
}

/// A cursor over the text Go's layout-driven parser walks.
struct Cursor<'a> {
    rest: &'a [u8],
}

impl Cursor<'_> {
    fn literal(&mut self, b: u8) -> Option<()> {
        let (&first, rest) = self.rest.split_first()?;
        (first == b).then(|| self.rest = rest)
    }

    /// Go's `getnum`: two digits, or one when `fixed` is false and no second digit follows.
    fn number(&mut self, fixed: bool) -> Option<u32> {
        let d0 = digit(self.rest.first())?;
        match digit(self.rest.get(1)) {
            Some(d1) => {
                self.rest = self.rest.get(2..)?;
                Some(d0 * 10 + d1)
            }
            None if fixed => None,
            None => {
                self.rest = self.rest.get(1..)?;
                Some(d0)
            }
        }
    }
}

fn digit(b: Option<&u8>) -> Option<u32> {
    b.filter(|b| b.is_ascii_digit()).map(|b| u32::from(b - b'0'))
}

/// Seconds since the epoch and nanoseconds of an RFC 3339 text, or `None`.
fn parse_rfc3339(s: &[u8]) -> Option<(i64, u32, i32)> {
    let year_digits = s.get(..4)?;
    if !year_digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let year = year_digits.iter().fold(0i64, |a, b| a * 10 + i64::from(b - b'0'));
    let mut c = Cursor { rest: s.get(4..)? };
    c.literal(b'-')?;
    let month = c.number(true)?;
    if !(1..=12).contains(&month) {
        return None;
    }
    c.literal(b'-')?;
    let day = c.number(true)?;
    c.literal(b'T')?;
    let hour = c.number(false)?;
    c.literal(b':')?;
    let minute = c.number(true)?;
    c.literal(b':')?;
    let second = c.number(true)?;
    if hour >= 24 || minute >= 60 || second >= 60 {
        return None;
    }
    let mut nanos = 0u32;
    if let [b'.' | b',', d, ..] = c.rest
        && d.is_ascii_digit()
    {
        let frac = &c.rest[1..];
        let n = frac.iter().take_while(|b| b.is_ascii_digit()).count();
        // Go reads at most nine digits and ignores the rest.
        let mut scaled = 0u32;
        for i in 0..9 {
            scaled = scaled * 10 + frac.get(i).filter(|_| i < n).map_or(0, |b| u32::from(b - b'0'));
        }
        nanos = scaled;
        c.rest = frac.get(n..)?;
    }
    let offset = match c.rest {
        [b'Z'] => 0,
        [sign @ (b'+' | b'-'), h1, h2, b':', m1, m2] => {
            let two = |a: &u8, b: &u8| Some(digit(Some(a))? * 10 + digit(Some(b))?);
            let (h, m) = (two(h1, h2)?, two(m1, m2)?);
            // Go's general parser allows 24 hours and 60 minutes ("some people do write
            // offsets of 24 hours or 60 minutes").
            if h > 24 || m > 60 {
                return None;
            }
            let off = i64::from(h * 60 + m) * 60;
            if *sign == b'-' { -off } else { off }
        }
        _ => return None,
    };
    if day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    let secs = days * SECONDS_PER_DAY + i64::from(hour * 3600 + minute * 60 + second) - offset;
    Some((secs, nanos, i32::try_from(offset).ok()?))
}

/// `duration(s)`: Go's `time.ParseDuration`; any error is cel-go's conversion error.
pub(crate) fn parse_duration(s: &str) -> Result<i64, EvalError> {
    go_parse_duration(s.as_bytes())
        .ok_or_else(|| EvalError::new("type conversion error from 'string' to 'google.protobuf.Duration'"))
}

/// Go's `time.ParseDuration`: `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, units ns, us, µs, μs, ms,
/// s, m, h, totals within ±2^63 ns (fractions go through a float, as Go's do).
fn go_parse_duration(s: &[u8]) -> Option<i64> {
    const LIMIT: u64 = 1 << 63;
    let (neg, mut s) = match s.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, s),
    };
    if s == b"0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        if !(s[0] == b'.' || s[0].is_ascii_digit()) {
            return None;
        }
        let int_len = s.iter().take_while(|b| b.is_ascii_digit()).count();
        let mut v: u64 = 0;
        for &b in &s[..int_len] {
            if v > LIMIT / 10 {
                return None;
            }
            v = v * 10 + u64::from(b - b'0');
            if v > LIMIT {
                return None;
            }
        }
        s = &s[int_len..];
        let mut frac: u64 = 0;
        let mut scale: f64 = 1.0;
        let mut frac_len = 0;
        if let Some((b'.', rest)) = s.split_first() {
            s = rest;
            frac_len = s.iter().take_while(|b| b.is_ascii_digit()).count();
            let mut overflow = false;
            for &b in &s[..frac_len] {
                if overflow {
                    continue;
                }
                if frac > (LIMIT - 1) / 10 {
                    overflow = true;
                    continue;
                }
                let y = frac * 10 + u64::from(b - b'0');
                if y > LIMIT {
                    overflow = true;
                    continue;
                }
                frac = y;
                scale *= 10.0;
            }
            s = &s[frac_len..];
        }
        if int_len == 0 && frac_len == 0 {
            return None;
        }
        let unit_len = s.iter().take_while(|&&b| !(b == b'.' || b.is_ascii_digit())).count();
        if unit_len == 0 {
            return None;
        }
        let unit: u64 = match &s[..unit_len] {
            b"ns" => 1,
            // "µs" (U+00B5) and "μs" (U+03BC) as their UTF-8 bytes.
            b"us" | b"\xc2\xb5s" | b"\xce\xbcs" => 1_000,
            b"ms" => 1_000_000,
            b"s" => 1_000_000_000,
            b"m" => 60_000_000_000,
            b"h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > LIMIT / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            v += (frac as f64 * (unit as f64 / scale)) as u64;
            if v > LIMIT {
                return None;
            }
        }
        total += v;
        if total > LIMIT {
            return None;
        }
    }
    if neg {
        // -2^63 is representable.
        Some(0i64.wrapping_sub_unsigned(total))
    } else {
        i64::try_from(total).ok()
    }
}

/// A timestamp as cel-go's `string()` writes it: RFC 3339 with the fraction's trailing zeros
/// dropped (Go's `time.RFC3339Nano`), in the zone it was written in (`Z` for UTC).
pub(crate) fn timestamp_to_string(t: Timestamp) -> String {
    let offset = i64::from(t.offset);
    let local = t.seconds + offset;
    let days = local.div_euclid(SECONDS_PER_DAY);
    let secs = local.rem_euclid(SECONDS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    let mut out = format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    );
    if t.nanos > 0 {
        let frac = format!("{:09}", t.nanos);
        out.push('.');
        out.push_str(frac.trim_end_matches('0'));
    }
    if offset == 0 {
        out.push('Z');
    } else {
        // Go writes the offset's hours and minutes; seconds of an offset are not printed.
        let sign = if offset < 0 { '-' } else { '+' };
        let minutes = offset.abs() / 60;
        out.push_str(&format!("{sign}{:02}:{:02}", minutes / 60, minutes % 60));
    }
    out
}

/// A duration as cel-go's `string()` writes it: seconds with the shortest decimal fraction
/// that reads back as the same float (Go's `strconv.FormatFloat(d.Seconds(), 'f', -1, 64)`)
/// and an `s`.
pub(crate) fn duration_to_string(d: i64) -> String {
    let whole = d / NANOS_PER_SECOND;
    let rest = d % NANOS_PER_SECOND;
    let seconds = whole as f64 + rest as f64 / 1e9;
    // Rust's `Display` for f64 is the shortest round-trip form without an exponent, as
    // Go's 'f' with precision -1.
    format!("{seconds}s")
}

/// A timestamp moved by `d` nanoseconds, within CEL's range (`timestamp overflow` beyond).
pub(crate) fn add_duration(t: Timestamp, d: i64) -> Result<Timestamp, EvalError> {
    let total = i128::from(t.seconds) * i128::from(NANOS_PER_SECOND) + i128::from(t.nanos) + i128::from(d);
    let seconds = total.div_euclid(i128::from(NANOS_PER_SECOND));
    let nanos = total.rem_euclid(i128::from(NANOS_PER_SECOND));
    match (i64::try_from(seconds), u32::try_from(nanos)) {
        (Ok(seconds), Ok(nanos)) if (MIN_SECONDS..=MAX_SECONDS).contains(&seconds) => Ok(Timestamp {
            seconds,
            nanos,
            offset: t.offset,
        }),
        _ => Err(EvalError::new("timestamp overflow")),
    }
}

/// `a - b` of two timestamps as a duration (`integer overflow` beyond ±2^63 ns, as cel-go).
pub(crate) fn timestamp_difference(a: Timestamp, b: Timestamp) -> Result<i64, EvalError> {
    let nanos = (i128::from(a.seconds) - i128::from(b.seconds)) * i128::from(NANOS_PER_SECOND)
        + (i128::from(a.nanos) - i128::from(b.nanos));
    i64::try_from(nanos).map_err(|_| EvalError::new("integer overflow"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        parse_timestamp(s).unwrap()
    }

    fn get(f: &str, t: &str, tz: Option<&str>) -> Result<Value, EvalError> {
        let args: Vec<Value> = tz.map(Value::string).into_iter().collect();
        call(f, Some(&Value::Timestamp(ts(t))), &args).unwrap()
    }

    fn int(v: Result<Value, EvalError>) -> i64 {
        match v {
            Ok(Value::Int(i)) => i,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn keeps_the_offset_it_was_written_with() {
        let t = ts("2011-08-18T19:03:37.01+01:00");
        // The instant is the UTC one; equality and order ignore the zone.
        assert_eq!(t, ts("2011-08-18T18:03:37.01Z"));
        assert_eq!(t.offset, 3600);
        assert_eq!(timestamp_to_string(t), "2011-08-18T19:03:37.01+01:00");
        assert_eq!(
            timestamp_to_string(ts("2011-08-18T18:03:37-05:30")),
            "2011-08-18T18:03:37-05:30"
        );
        assert_eq!(
            timestamp_to_string(ts("2011-08-18T18:03:37+00:00")),
            "2011-08-18T18:03:37Z"
        );
        // Accessors without a zone read the written zone's fields, as Go's time.Time does.
        assert_eq!(int(get("getHours", "2011-08-18T19:03:37+01:00", None)), 19);
        assert_eq!(int(get("getHours", "2011-08-18T19:03:37+01:00", Some("UTC"))), 18);
        assert_eq!(int(get("getDate", "2011-08-18T00:30:00+01:00", None)), 18);
        // Adding a duration keeps the zone.
        let later = add_duration(t, 3_600 * NANOS_PER_SECOND).unwrap();
        assert_eq!(timestamp_to_string(later), "2011-08-18T20:03:37.01+01:00");
    }

    #[test]
    fn parses_rfc3339() {
        assert_eq!(ts("1970-01-01T00:00:00Z"), Timestamp::utc(0, 0));
        assert_eq!(ts("2009-02-13T23:31:30Z").seconds, 1_234_567_890);
        assert_eq!(ts("2009-02-13T23:31:30.5Z").nanos, 500_000_000);
        assert_eq!(ts("2009-02-14T00:31:30+01:00").seconds, 1_234_567_890);
        assert_eq!(ts("2009-02-13T15:31:30-08:00").seconds, 1_234_567_890);
        assert_eq!(ts("0001-01-01T00:00:00Z").seconds, MIN_SECONDS);
        assert_eq!(ts("9999-12-31T23:59:59.999999999Z").seconds, MAX_SECONDS);
        // Go ignores fraction digits beyond nanoseconds, reads ',' and a one-digit hour.
        assert_eq!(ts("2000-01-01T00:00:00.1234567891Z").nanos, 123_456_789);
        assert_eq!(ts("2000-01-01T00:00:00,5Z").nanos, 500_000_000);
        assert_eq!(ts("2000-01-01T1:00:00Z").seconds, ts("2000-01-01T01:00:00Z").seconds);
        assert_eq!(ts("2000-02-29T00:00:00Z").seconds, 951_782_400);
    }

    #[test]
    fn refuses_what_go_refuses() {
        let conv = "type conversion error from 'string' to 'google.protobuf.Timestamp'";
        for s in [
            "",
            "2000-01-01",
            "2000-01-01T00:00:00",
            "2000-01-01t00:00:00Z",
            "2000-01-01T00:00:00z",
            "2001-02-29T00:00:00Z",
            "2000-13-01T00:00:00Z",
            "2000-01-01T24:00:00Z",
            "2000-01-01T00:00:60Z",
            "2000-01-01T00:00:00+0100",
            "2000-01-01T00:00:00+25:00",
            "2000-01-01T00:00:00.Z",
            "2000-1-01T00:00:00Z",
            "2000-01-01T00:00:00Zx",
            "é000-01-01T00:00:00Z",
        ] {
            assert_eq!(parse_timestamp(s).unwrap_err().message, conv, "{s}");
        }
        assert_eq!(
            parse_timestamp("0000-01-01T00:00:00Z").unwrap_err().message,
            "timestamp overflow"
        );
        assert_eq!(
            parse_timestamp("0001-01-01T00:00:00+00:01").unwrap_err().message,
            "timestamp overflow"
        );
    }

    #[test]
    fn accessors_from_cel_go_tests() {
        // cel-go's checked tests of `timestamp('2009-02-13T23:31:30Z')`.
        let t = "2009-02-13T23:31:30Z";
        assert_eq!(int(get("getFullYear", t, None)), 2009);
        assert_eq!(int(get("getMonth", t, None)), 1);
        assert_eq!(int(get("getDayOfYear", t, None)), 43);
        assert_eq!(int(get("getDayOfMonth", t, None)), 12);
        assert_eq!(int(get("getDate", t, None)), 13);
        assert_eq!(int(get("getDayOfWeek", t, None)), 5);
        assert_eq!(int(get("getHours", t, None)), 23);
        assert_eq!(int(get("getMinutes", t, None)), 31);
        assert_eq!(int(get("getSeconds", t, None)), 30);
        assert_eq!(int(get("getMilliseconds", "2009-02-13T23:31:30.123456Z", None)), 123);
        assert_eq!(int(get("getHours", t, Some("UTC"))), 23);
        assert_eq!(int(get("getHours", t, Some("+05:30"))), 5);
        assert_eq!(int(get("getMinutes", t, Some("+05:30"))), 1);
        assert_eq!(int(get("getDate", t, Some("+05:30"))), 14);
        assert_eq!(int(get("getHours", t, Some("-08:00"))), 15);
        assert_eq!(int(get("getMinutes", t, Some("-0:30"))), 1);
        assert_eq!(int(get("getFullYear", "2000-01-01T00:00:00Z", Some("-01:00"))), 1999);
        assert_eq!(int(get("getDayOfYear", "2000-12-31T00:00:00Z", None)), 365);
        assert_eq!(int(get("getDayOfWeek", "1970-01-04T00:00:00Z", None)), 0);
    }

    #[test]
    fn zone_errors() {
        let t = "2009-02-13T23:31:30Z";
        assert_eq!(
            get("getHours", t, Some("+ab:00")).unwrap_err().message,
            "strconv.Atoi: parsing \"+ab\": invalid syntax"
        );
        assert_eq!(
            get("getHours", t, Some(":30")).unwrap_err().message,
            "strconv.Atoi: parsing \"\": invalid syntax"
        );
        assert_eq!(
            get("getHours", t, Some("Mars/Base")).unwrap_err().message,
            "unknown time zone Mars/Base"
        );
        assert!(call("getFoo", Some(&Value::Timestamp(ts(t))), &[Value::string("UTC")]).is_none());
    }

    #[test]
    fn durations() {
        let d = |s: &str| parse_duration(s).unwrap();
        assert_eq!(d("0"), 0);
        assert_eq!(d("-0"), 0);
        assert_eq!(d("1h2m3s"), 3_723_000_000_000);
        assert_eq!(d("1.5h"), 5_400_000_000_000);
        assert_eq!(d("-1.5s"), -1_500_000_000);
        assert_eq!(d("+.5s"), 500_000_000);
        assert_eq!(d("1µs"), 1_000);
        assert_eq!(d("1μs"), 1_000);
        assert_eq!(d("1us1ns"), 1_001);
        assert_eq!(d("9223372036854775807ns"), i64::MAX);
        assert_eq!(d("-9223372036854775808ns"), i64::MIN);
        let conv = "type conversion error from 'string' to 'google.protobuf.Duration'";
        for s in [
            "",
            "1",
            "s",
            ".s",
            "1d",
            "1 s",
            "9223372036854775808ns",
            "3000000h",
            "-",
        ] {
            assert_eq!(parse_duration(s).unwrap_err().message, conv, "{s}");
        }
    }

    #[test]
    fn duration_accessors() {
        let get = |f: &str, d: i64| int(call(f, Some(&Value::Duration(d)), &[]).unwrap());
        let d = parse_duration("10h20m30.5s").unwrap();
        assert_eq!(get("getHours", d), 10);
        assert_eq!(get("getMinutes", d), 620);
        assert_eq!(get("getSeconds", d), 37_230);
        assert_eq!(get("getMilliseconds", d), 37_230_500);
        assert_eq!(get("getHours", -d), -10);
    }

    #[test]
    fn strings() {
        assert_eq!(timestamp_to_string(ts("2009-02-13T23:31:30Z")), "2009-02-13T23:31:30Z");
        assert_eq!(
            timestamp_to_string(ts("2009-02-13T23:31:30.120Z")),
            "2009-02-13T23:31:30.12Z"
        );
        assert_eq!(
            timestamp_to_string(ts("0001-01-01T00:00:00.000000001Z")),
            "0001-01-01T00:00:00.000000001Z"
        );
        assert_eq!(duration_to_string(parse_duration("1h").unwrap()), "3600s");
        assert_eq!(duration_to_string(parse_duration("-1.5s").unwrap()), "-1.5s");
        assert_eq!(duration_to_string(1), "0.000000001s");
        assert_eq!(duration_to_string(0), "0s");
    }

    #[test]
    fn arithmetic_helpers() {
        let t = ts("9999-12-31T23:59:59Z");
        assert_eq!(
            add_duration(t, NANOS_PER_SECOND).unwrap_err().message,
            "timestamp overflow"
        );
        assert_eq!(add_duration(t, -1).unwrap().nanos, 999_999_999);
        let a = ts("9999-12-31T23:59:59Z");
        let b = ts("0001-01-01T00:00:00Z");
        assert_eq!(timestamp_difference(a, b).unwrap_err().message, "integer overflow");
        assert_eq!(
            timestamp_difference(ts("1970-01-01T00:00:01Z"), ts("1970-01-01T00:00:00Z")),
            Ok(1_000_000_000)
        );
    }
}
