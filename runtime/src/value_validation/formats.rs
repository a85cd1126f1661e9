//! kube-openapi's string formats (`strfmt.Default`): which names it knows and what each accepts.
//! Names compare with dashes removed (`date-time` is `datetime`).
//!
//! Checked exactly: `date`, `date-time`, `byte`, `uuid` (3/4/5), `ipv4`, `ipv6`, `cidr`,
//! `mac`, `hostname`, `password`, `bsonobjectid`, `hexcolor`, `ssn`, `duration`. Known but
//! accepted without a check (a divergence listed in `docs/divergences.md`): `uri`, `email`, `isbn`,
//! `isbn10`, `isbn13`, `creditcard`, `rgbcolor`.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::LazyLock;

use regex::Regex;

/// A pattern compiled once.
macro_rules! cached {
    ($re:expr) => {{
        static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new($re).expect("a valid pattern"));
        &*RE
    }};
}

use super::openapi::Mode;

fn normalize(name: &str) -> String {
    name.replace('-', "")
}

/// The formats the API server keeps when it validates custom resources
/// (`StripUnsupportedFormatsPostProcess`); every other format is ignored there.
pub(crate) fn supported_for_resources(name: &str) -> bool {
    matches!(
        normalize(name).as_str(),
        "bsonobjectid"
            | "uri"
            | "email"
            | "hostname"
            | "ipv4"
            | "ipv6"
            | "cidr"
            | "mac"
            | "uuid"
            | "uuid3"
            | "uuid4"
            | "uuid5"
            | "isbn"
            | "isbn10"
            | "isbn13"
            | "creditcard"
            | "ssn"
            | "hexcolor"
            | "rgbcolor"
            | "byte"
            | "password"
            | "date"
            | "duration"
            | "datetime"
    )
}

/// Whether kube-openapi's registry knows `name` (then string values are checked against it).
pub(super) fn known(name: &str, mode: Mode) -> bool {
    supported_for_resources(name)
        || (mode == Mode::Defaults && matches!(name, "k8s-short-name" | "k8s-long-name" | "k8s-ip-sloppy"))
}

/// Whether `s` is valid for the known format `name`.
pub(super) fn valid(name: &str, s: &str) -> bool {
    match normalize(name).as_str() {
        "date" => is_date(s),
        "datetime" => is_date_time(s),
        "byte" => is_base64(s),
        "uuid" => is_uuid(s, None),
        "uuid3" => is_uuid(s, Some('3')),
        "uuid4" => is_uuid(s, Some('4')),
        "uuid5" => is_uuid(s, Some('5')),
        "ipv4" | "k8sipsloppy" => parse_ip_sloppy(s).is_some() && (name.starts_with("k8s") || s.contains('.')),
        "ipv6" => s.contains(':') && parse_ip(s).is_some(),
        "cidr" => is_cidr(s),
        "mac" => is_mac(s),
        "hostname" => is_hostname(s),
        "bsonobjectid" => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
        "hexcolor" => {
            let h = s.strip_prefix('#').unwrap_or(s);
            (h.len() == 3 || h.len() == 6) && h.bytes().all(|b| b.is_ascii_hexdigit())
        }
        "ssn" => is_ssn(s),
        "duration" => is_duration(s),
        "k8sshortname" => is_dns1123_label(s),
        "k8slongname" => kstruct_schema::names::is_dns1123_subdomain(s).is_empty(),
        _ => true,
    }
}

fn is_dns1123_label(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() <= 63
        && !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn digits(s: &str, n: usize) -> Option<u32> {
    (s.len() == n && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `time.Parse("2006-01-02", s)`.
fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else { return false };
    let (Some(y), Some(m), Some(d)) = (digits(y, 4), digits(m, 2), digits(d, 2)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&d)
}

/// strfmt's `IsDateTime`: a date, `t`, then `HH:MM:SS`, an optional fraction (any separator)
/// and `z` or an offset, case-insensitively.
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let parts: Vec<&str> = lower.split('t').collect();
    if parts.len() < 2 || !is_date(parts[0]) {
        return false;
    }
    let re = cached!(r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$");
    match re.captures(parts[1]) {
        Some(c) => &c[1] <= "23" && &c[2] <= "59" && &c[3] <= "59",
        None => false,
    }
}

/// govalidator's `IsBase64`: standard alphabet, padded, not empty.
fn is_base64(s: &str) -> bool {
    let b = s.as_bytes();
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let alpha = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    let (body, tail) = b.split_at(b.len() - 4);
    if !body.iter().all(alpha) {
        return false;
    }
    match tail {
        [a, b2, b'=', b'='] => alpha(a) && alpha(b2),
        [a, b2, c, b'='] => alpha(a) && alpha(b2) && alpha(c),
        t => t.iter().all(alpha),
    }
}

fn is_uuid(s: &str, version: Option<char>) -> bool {
    let re = match version {
        None => cached!(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
        Some('3') => cached!(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
        Some('4') => cached!(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"),
        _ => cached!(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$"),
    };
    re.is_match(s)
}

/// Go's `net.ParseIP`.
fn parse_ip(s: &str) -> Option<IpAddr> {
    if let Ok(v4) = s.parse::<Ipv4Addr>() {
        return Some(IpAddr::V4(v4));
    }
    s.parse::<Ipv6Addr>().ok().map(IpAddr::V6)
}

/// `netutils.ParseIPSloppy`: IPv4 octets may have leading zeros (read as decimal).
fn parse_ip_sloppy(s: &str) -> Option<IpAddr> {
    if s.contains(':') {
        return parse_ip(s);
    }
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (o, p) in octets.iter_mut().zip(&parts) {
        if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(IpAddr::V4(Ipv4Addr::from(octets)))
}

/// `netutils.ParseCIDRSloppy`.
fn is_cidr(s: &str) -> bool {
    let Some((ip, bits)) = s.split_once('/') else {
        return false;
    };
    let Some(addr) = parse_ip_sloppy(ip) else { return false };
    let max = if addr.is_ipv4() { 32 } else { 128 };
    !bits.is_empty()
        && bits.len() <= 3
        && bits.bytes().all(|b| b.is_ascii_digit())
        && bits.parse::<u32>().is_ok_and(|b| b <= max)
}

/// Go's `net.ParseMAC`: 6, 8 or 20 octets, separated by `:` or `-`, or dotted groups of four.
fn is_mac(s: &str) -> bool {
    let hex_pair = |p: &str| p.len() == 2 && p.bytes().all(|b| b.is_ascii_hexdigit());
    let octets_ok = |n: usize| matches!(n, 6 | 8 | 20);
    for sep in [':', '-'] {
        let parts: Vec<&str> = s.split(sep).collect();
        if parts.len() > 1 {
            return octets_ok(parts.len()) && parts.iter().all(|p| hex_pair(p));
        }
    }
    let groups: Vec<&str> = s.split('.').collect();
    groups.len() > 1
        && octets_ok(groups.len() * 2)
        && groups
            .iter()
            .all(|g| g.len() == 4 && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_hostname(s: &str) -> bool {
    if s.len() > 255 || s.split('.').any(|l| l.len() > 63) {
        return false;
    }
    let re = cached!(
        r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$"
    );
    re.is_match(s)
}

fn is_ssn(s: &str) -> bool {
    s.len() == 11 && cached!(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$").is_match(s)
}

/// strfmt's `IsDuration`: Go's `time.ParseDuration`, or any `<digits><unit>` inside the text
/// with a unit strfmt knows.
fn is_duration(s: &str) -> bool {
    if go_parse_duration(s) {
        return true;
    }
    let re = cached!(r"((\d+)\s*([A-Za-zµ]+))");
    let units: [&[&str]; 8] = [
        &["ns", "nano", "nanos", "nanosecond", "nanoseconds"],
        &["us", "µs", "micro", "micros", "microsecond", "microseconds"],
        &["ms", "milli", "millis", "millisecond", "milliseconds"],
        &["s", "sec", "secs", "second", "seconds"],
        &["m", "min", "mins", "minute", "minutes"],
        &["h", "hr", "hrs", "hour", "hours"],
        &["d", "day", "days"],
        &["w", "wk", "wks", "week", "weeks"],
    ];
    re.captures_iter(s).any(|c| {
        let unit = c[3].trim().to_lowercase();
        units.iter().any(|group| {
            group.iter().any(|u| u.eq_ignore_ascii_case(&unit)) || group.last().is_some_and(|l| l.starts_with(&unit))
        })
    })
}

/// Go's `time.ParseDuration` (syntax only): `[-+]?` then one or more `<number><unit>`, or `0`.
fn go_parse_duration(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    if s.is_empty() {
        return false;
    }
    let mut rest = s;
    while !rest.is_empty() {
        let num_end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let num = &rest[..num_end];
        if num.is_empty() || num == "." {
            return false;
        }
        rest = &rest[num_end..];
        let unit_end = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        if !matches!(&rest[..unit_end], "ns" | "us" | "µs" | "μs" | "ms" | "s" | "m" | "h") {
            return false;
        }
        rest = &rest[unit_end..];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_accept_and_refuse_as_strfmt_does() {
        assert!(valid("date-time", "2024-01-02T03:04:05Z"));
        assert!(valid("date-time", "2024-01-02t03:04:05.123+01:00"));
        assert!(!valid("date-time", "2024-01-02 03:04:05Z"));
        assert!(!valid("date-time", "x"));
        assert!(valid("date", "2024-02-29"));
        assert!(!valid("date", "2023-02-29"));
        assert!(valid("byte", "aGVsbG8="));
        assert!(!valid("byte", "hello"));
        assert!(!valid("byte", ""));
        assert!(valid("ipv4", "010.1.1.1"));
        assert!(!valid("ipv4", "::1"));
        assert!(valid("ipv6", "::1"));
        assert!(valid("cidr", "10.0.0.0/8"));
        assert!(!valid("cidr", "10.0.0.0/33"));
        assert!(valid("uuid", "123e4567-e89b-12d3-a456-426614174000"));
        assert!(valid("mac", "00:1b:63:84:45:e6"));
        assert!(valid("duration", "1h30m"));
        assert!(valid("duration", "3 days"));
        assert!(!valid("duration", "soon"));
        assert!(valid("hostname", "example.com"));
        assert!(!valid("hostname", "-bad-.com"));
    }
}
