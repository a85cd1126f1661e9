//! kube-openapi's string formats (`strfmt.Default`): which names it knows and what each accepts.
//! Names compare with dashes removed (`date-time` is `datetime`).
//!
//! Every format of the registry is checked as kube-openapi checks it: `date`, `date-time`,
//! `byte`, `uuid` (3/4/5), `ipv4`, `ipv6`, `cidr`, `mac`, `hostname`, `password`,
//! `bsonobjectid`, `hexcolor`, `ssn`, `duration`, `k8s-short-name`, `k8s-long-name`, `uri`
//! (Go's `url.ParseRequestURI`), `email` (Go's `mail.ParseAddress`), `isbn`, `isbn10`,
//! `isbn13`, `creditcard` and `rgbcolor` (govalidator's checks).

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

/// The format the API server keeps on a custom resource's schema node
/// (`StripUnsupportedFormatsPostProcessorForVersion` at the server's compatibility version):
/// by the node's type (`type_`: its only type, empty when it has none or several), a string
/// format the server supports, `int32`/`int64` for integers, `float`/`double` for numbers;
/// every other format is dropped (empty).
pub(crate) fn for_resources<'a>(type_: &str, format: &'a str) -> &'a str {
    let kept = match type_ {
        "" | "string" => supported_for_resources(format),
        "integer" => matches!(format, "int32" | "int64"),
        "number" => matches!(format, "float" | "double"),
        _ => false,
    };
    if kept { format } else { "" }
}

/// The string formats the API server keeps when it validates custom resources (at
/// compatibility version 1.34 and later, the Kubernetes name formats too).
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
            | "k8sshortname"
            | "k8slongname"
    )
}

/// Whether kube-openapi's registry knows `name` (then string values are checked against it).
pub(super) fn known(name: &str, mode: Mode) -> bool {
    supported_for_resources(name) || (mode == Mode::Defaults && name == "k8s-ip-sloppy")
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
        "uri" => kstruct_cel::go_url::parse_request_uri(s).is_ok(),
        "email" => kstruct_schema::go::mail::is_email(s),
        "isbn" => is_isbn10(s) || is_isbn13(s),
        "isbn10" => is_isbn10(s),
        "isbn13" => is_isbn13(s),
        "creditcard" => is_credit_card(s),
        "rgbcolor" => is_rgb_color(s),
        _ => true,
    }
}

/// govalidator's sanitizing for ISBNs: runs of Go's `\s` (ASCII white space) and `-` removed.
fn without_spaces_and_dashes(s: &str) -> Vec<u8> {
    s.bytes()
        .filter(|b| !matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'-'))
        .collect()
}

/// govalidator's `IsISBN10`: nine digits and a digit or `X`, with the mod-11 checksum.
fn is_isbn10(s: &str) -> bool {
    let d = without_spaces_and_dashes(s);
    let shape = d.len() == 10 && d[..9].iter().all(u8::is_ascii_digit) && (d[9].is_ascii_digit() || d[9] == b'X');
    if !shape {
        return false;
    }
    let mut sum: u32 = (0..9).map(|i| (i as u32 + 1) * u32::from(d[i] - b'0')).sum();
    sum += 10 * if d[9] == b'X' { 10 } else { u32::from(d[9] - b'0') };
    sum.is_multiple_of(11)
}

/// govalidator's `IsISBN13`: thirteen digits, weights 1 and 3, the check digit last.
fn is_isbn13(s: &str) -> bool {
    let d = without_spaces_and_dashes(s);
    if d.len() != 13 || !d.iter().all(u8::is_ascii_digit) {
        return false;
    }
    let sum: u32 = (0..12).map(|i| [1, 3][i % 2] * u32::from(d[i] - b'0')).sum();
    u32::from(d[12] - b'0') == (10 - sum % 10) % 10
}

/// govalidator's `IsCreditCard`: every non-digit removed, one of the issuers' number shapes,
/// then the Luhn checksum.
fn is_credit_card(s: &str) -> bool {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    let shape = cached!(
        r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35[0-9]{3})[0-9]{11})$"
    );
    if !shape.is_match(&digits) {
        return false;
    }
    let mut sum = 0;
    for (i, b) in digits.bytes().rev().enumerate() {
        let n = u32::from(b - b'0');
        sum += match (i % 2 == 1, n * 2) {
            (true, doubled) if doubled >= 10 => doubled % 10 + 1,
            (true, doubled) => doubled,
            (false, _) => n,
        };
    }
    sum.is_multiple_of(10)
}

/// govalidator's `IsRGBcolor`: `rgb(R, G, B)` with components 0 to 255 written without
/// leading zeros, ASCII white space allowed around them.
fn is_rgb_color(s: &str) -> bool {
    let re = cached!(
        r"^rgb\([\t\n\x0c\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\x0c\r ]*,[\t\n\x0c\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\x0c\r ]*,[\t\n\x0c\r ]*(0|[1-9][0-9]?|1[0-9][0-9]?|2[0-4][0-9]|25[0-5])[\t\n\x0c\r ]*\)$"
    );
    re.is_match(s)
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
    fn govalidator_and_go_library_formats() {
        // Cases of govalidator's own tests.
        for ok in ["3836221195", "1-61729-085-8", "3 423 21412 0", "3 401 01319 X"] {
            assert!(valid("isbn10", ok) && valid("isbn", ok), "{ok}");
        }
        for bad in ["3423214121", "3-423-21412-1", "978-3836221191"] {
            assert!(!valid("isbn10", bad), "{bad}");
        }
        for ok in ["9783836221191", "978-3-8362-2119-1", "978 3 8362 2119 1"] {
            assert!(valid("isbn13", ok) && valid("isbn", ok), "{ok}");
        }
        assert!(!valid("isbn13", "9783836221190"));
        for ok in [
            "375556917985515",
            "36050234196908",
            "4716461583322103",
            "4716-2210-5188-5662",
            "4929 7226 5379 7141",
            "5398228707871527",
        ] {
            assert!(valid("creditcard", ok), "{ok}");
        }
        for bad in ["foo", "5398228707871528", "4111-1111-1111-1112"] {
            assert!(!valid("creditcard", bad), "{bad}");
        }
        for ok in ["rgb(0,31,255)", "rgb(1,249,255)", "rgb( 0 , 0 , 0 )"] {
            assert!(valid("rgbcolor", ok), "{ok}");
        }
        for bad in [
            "rgb(0,32,256)",
            "rgb(0,0,0",
            "rgb(01,0,0)",
            "rgba(0,0,0)",
            "rgb(0,0,0)\n",
        ] {
            assert!(!valid("rgbcolor", bad), "{bad}");
        }
        // Go's url.ParseRequestURI and mail.ParseAddress.
        assert!(valid("uri", "https://example.com/a?b=c"));
        assert!(valid("uri", "/just/a/path"));
        assert!(!valid("uri", "example.com"));
        assert!(!valid("uri", "http://a b.com/"));
        assert!(valid("email", "joe@example.com"));
        assert!(valid("email", "\"Joe\" <joe@example.com>"));
        assert!(!valid("email", "joe"));
        assert!(!valid("email", "a@b,c@d"));
    }

    #[test]
    fn formats_kept_for_resources_follow_the_type() {
        assert_eq!(for_resources("integer", "int32"), "int32");
        assert_eq!(for_resources("integer", "uint32"), "");
        assert_eq!(for_resources("number", "float"), "float");
        assert_eq!(for_resources("number", "int32"), "");
        assert_eq!(for_resources("string", "int32"), "");
        assert_eq!(for_resources("string", "k8s-short-name"), "k8s-short-name");
        assert_eq!(for_resources("", "email"), "email");
        assert_eq!(for_resources("boolean", "email"), "");
    }

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
