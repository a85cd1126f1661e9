//! Go's `url.ParseRequestURI`, as the API server's Go (1.25, with the bracketed-host checks
//! of 1.25.3 and 1.24.9) runs it: the same accepted texts, the same parts, the same error
//! texts (`parse "<url>": <why>`).
//!
//! Go works on bytes, and an unescaped host or path may hold bytes that are not UTF-8
//! (`%ff`); [`GoUrl`] holds `String`s, so such bytes read as U+FFFD there. The checks and
//! the error texts see the bytes themselves.

use crate::library::ip::{Addr, parse_netip};
use crate::library::strings::{go_quote, go_quote_bytes};

/// A URL as Go's url.ParseRequestURI returns it (the parts kstruct reads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoUrl {
    /// The scheme, lower-cased (`http`); empty for a path (`/x`) or `*`.
    pub scheme: String,
    /// The text after `scheme:` when it does not start with `/` (`mailto:a@b` has `a@b`).
    pub opaque: String,
    /// The userinfo (`user:password`) as written before the host's `@`, not unescaped.
    pub user: Option<String>,
    /// `host[:port]`, unescaped, as Go's `URL.Host`.
    pub host: String,
    /// The path, unescaped.
    pub path: String,
    /// The query after the first `?`, as written.
    pub raw_query: String,
    /// The text ends with its only `?` (an empty query that is there).
    pub force_query: bool,
}

impl GoUrl {
    /// `URL.Hostname()`: the host without a valid port, brackets of an IPv6 literal removed.
    pub fn hostname(&self) -> &str {
        split_host_port(&self.host).0
    }

    /// `URL.Port()`: the digits after the host's last colon, when they are all digits.
    pub fn port(&self) -> &str {
        split_host_port(&self.host).1
    }
}

/// `url.ParseRequestURI`: the URL, or the error text `url.Error` prints.
pub fn parse_request_uri(raw: &str) -> Result<GoUrl, String> {
    parse(raw).map_err(|why| format!("parse {}: {why}", go_quote(raw)))
}

/// Go's `splitHostPort`: a port only when it is all digits; brackets go only when both are
/// there.
pub(crate) fn split_host_port(host_port: &str) -> (&str, &str) {
    let (mut host, mut port) = (host_port, "");
    if let Some(colon) = host_port.rfind(':')
        && valid_optional_port(&host_port[colon..])
    {
        host = &host_port[..colon];
        port = &host_port[colon + 1..];
    }
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        host = inner;
    }
    (host, port)
}

/// The URL part being unescaped: it decides which bytes may appear as they are and which
/// escapes are allowed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Path,
    Host,
    Zone,
    UserPassword,
}

/// Go's `shouldEscape` for the modes the parser unescapes.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() {
        return false;
    }
    if matches!(mode, Mode::Host | Mode::Zone)
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'-' | b'_' | b'.' | b'~' => false,
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
            // A host keeps none of the reserved bytes the list above did not allow.
            Mode::Host | Mode::Zone => true,
        },
        _ => true,
    }
}

/// The value of an ASCII hex digit.
fn unhex(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

/// Go's `EscapeError`.
fn escape_error(bad: &[u8]) -> String {
    format!("invalid URL escape {}", go_quote_bytes(bad))
}

/// Go's `unescape`: every `%` must start two hex digits; a host escapes only non-ASCII bytes
/// (and `%25`), a zone only bytes a host could hold; a host's other ASCII bytes must be host
/// bytes. The result is bytes: an escape may make them invalid UTF-8.
fn unescape(s: &[u8], mode: Mode) -> Result<Vec<u8>, String> {
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        if c == b'%' {
            let (Some(hi), Some(lo)) = (
                s.get(i + 1).copied().and_then(unhex),
                s.get(i + 2).copied().and_then(unhex),
            ) else {
                let end = s.len().min(i + 3);
                return Err(escape_error(&s[i..end]));
            };
            let escape = &s[i..i + 3];
            if mode == Mode::Host && hi < 8 && escape != b"%25" {
                return Err(escape_error(escape));
            }
            if mode == Mode::Zone {
                let v = hi << 4 | lo;
                if escape != b"%25" && v != b' ' && should_escape(v, Mode::Host) {
                    return Err(escape_error(escape));
                }
            }
            i += 3;
        } else {
            if matches!(mode, Mode::Host | Mode::Zone) && c < 0x80 && should_escape(c, mode) {
                return Err(format!("invalid character {} in host name", go_quote_bytes(&[c])));
            }
            i += 1;
        }
    }
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        // The first pass checked that every `%` starts two hex digits.
        match (
            s[i],
            s.get(i + 1).copied().and_then(unhex),
            s.get(i + 2).copied().and_then(unhex),
        ) {
            (b'%', Some(hi), Some(lo)) => {
                out.push(hi << 4 | lo);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    Ok(out)
}

/// Go's `validOptionalPort`: empty, or `:` and digits.
fn valid_optional_port(port: &str) -> bool {
    port.is_empty()
        || port
            .strip_prefix(':')
            .is_some_and(|digits| digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Go's `validUserinfo`: unreserved bytes, sub-delimiters, `:`, `%` and `@` only.
fn valid_userinfo(s: &str) -> bool {
    s.chars().all(|r| {
        r.is_ascii_alphanumeric()
            || matches!(
                r,
                '-' | '.'
                    | '_'
                    | ':'
                    | '~'
                    | '!'
                    | '$'
                    | '&'
                    | '\''
                    | '('
                    | ')'
                    | '*'
                    | '+'
                    | ','
                    | ';'
                    | '='
                    | '%'
                    | '@'
            )
    })
}

/// Go's `parse(rawURL, viaRequest=true)`: the URL or the bare reason.
fn parse(raw: &str) -> Result<GoUrl, String> {
    if raw.bytes().any(|b| b < b' ' || b == 0x7f) {
        return Err("net/url: invalid control character in URL".to_owned());
    }
    if raw.is_empty() {
        return Err("empty url".to_owned());
    }
    let mut url = GoUrl {
        scheme: String::new(),
        opaque: String::new(),
        user: None,
        host: String::new(),
        path: String::new(),
        raw_query: String::new(),
        force_query: false,
    };
    if raw == "*" {
        url.path = "*".to_owned();
        return Ok(url);
    }
    let (scheme, rest) = get_scheme(raw)?;
    url.scheme = scheme.to_ascii_lowercase();
    let mut rest = rest;
    if rest.ends_with('?') && rest.matches('?').count() == 1 {
        url.force_query = true;
        rest = &rest[..rest.len() - 1];
    } else if let Some((before, query)) = rest.split_once('?') {
        rest = before;
        url.raw_query = query.to_owned();
    }
    if !rest.starts_with('/') {
        if !url.scheme.is_empty() {
            // A rootless rest is opaque data Go does not look into.
            url.opaque = rest.to_owned();
            return Ok(url);
        }
        return Err("invalid URI for request".to_owned());
    }
    // A request URI has an authority only after a scheme: `//x/y` alone is a path.
    if !url.scheme.is_empty()
        && let Some(after) = rest.strip_prefix("//")
    {
        let (authority, path) = match after.find('/') {
            Some(i) => after.split_at(i),
            None => (after, ""),
        };
        let (user, host) = parse_authority(authority)?;
        url.user = user;
        url.host = String::from_utf8_lossy(&host).into_owned();
        rest = path;
    }
    url.path = String::from_utf8_lossy(&unescape(rest.as_bytes(), Mode::Path)?).into_owned();
    Ok(url)
}

/// Go's `getScheme`: the scheme before the first `:` when everything before it is a letter
/// then letters, digits, `+`, `-` or `.`; otherwise no scheme and the whole text.
fn get_scheme(raw: &str) -> Result<(&str, &str), String> {
    for (i, c) in raw.bytes().enumerate() {
        match c {
            b'a'..=b'z' | b'A'..=b'Z' => {}
            b'0'..=b'9' | b'+' | b'-' | b'.' if i > 0 => {}
            b':' if i == 0 => return Err("missing protocol scheme".to_owned()),
            b':' => return Ok((&raw[..i], &raw[i + 1..])),
            _ => return Ok(("", raw)),
        }
    }
    Ok(("", raw))
}

/// Go's `parseAuthority`: the host is checked before the userinfo; the userinfo is kept as
/// written once its characters and escapes pass.
fn parse_authority(authority: &str) -> Result<(Option<String>, Vec<u8>), String> {
    let Some(at) = authority.rfind('@') else {
        return Ok((None, parse_host(authority)?));
    };
    let host = parse_host(&authority[at + 1..])?;
    let userinfo = &authority[..at];
    if !valid_userinfo(userinfo) {
        return Err("net/url: invalid userinfo".to_owned());
    }
    match userinfo.split_once(':') {
        Some((username, password)) => {
            unescape(username.as_bytes(), Mode::UserPassword)?;
            unescape(password.as_bytes(), Mode::UserPassword)?;
        }
        None => {
            unescape(userinfo.as_bytes(), Mode::UserPassword)?;
        }
    }
    Ok((Some(userinfo.to_owned()), host))
}

/// Go's `parseHost`: `host[:port]`, where a `[` starts an IP literal that must be an IPv6
/// address (with an optional `%25` zone), and anything else is a host name whose last colon
/// starts the port.
fn parse_host(host: &str) -> Result<Vec<u8>, String> {
    if let Some(open) = host.rfind('[') {
        let Some(close) = host.rfind(']') else {
            return Err("missing ']' in host".to_owned());
        };
        let colon_port = &host[close + 1..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
        let unescaped_port = unescape(colon_port.as_bytes(), Mode::Host)?;
        // A `]` before the last `[` leaves that `[` in the port, which the check refused.
        let hostname = host.get(open + 1..close).unwrap_or("");
        let mut unescaped = match hostname.find("%25") {
            Some(zone) => {
                let mut bytes = unescape(&hostname.as_bytes()[..zone], Mode::Host)?;
                bytes.extend(unescape(&hostname.as_bytes()[zone..], Mode::Zone)?);
                bytes
            }
            None => unescape(hostname.as_bytes(), Mode::Host)?,
        };
        check_ip_literal(&unescaped)?;
        unescaped.insert(0, b'[');
        unescaped.push(b']');
        unescaped.extend(unescaped_port);
        return Ok(unescaped);
    }
    if let Some(colon) = host.rfind(':') {
        let colon_port = &host[colon..];
        if !valid_optional_port(colon_port) {
            return Err(format!("invalid port {} after host", go_quote(colon_port)));
        }
    }
    unescape(host.as_bytes(), Mode::Host)
}

/// The check on a bracketed host: `netip.ParseAddr` must accept it, and not as IPv4.
fn check_ip_literal(addr: &[u8]) -> Result<(), String> {
    let Ok(text) = std::str::from_utf8(addr) else {
        return Err(format!("invalid host: {}", parse_addr_error_of_bytes(addr)));
    };
    match parse_netip(text) {
        Ok((Addr::V4(_), _)) => Err("invalid IP-literal".to_owned()),
        Ok(_) => Ok(()),
        Err(e) => Err(format!("invalid host: {e}")),
    }
}

/// `netip.ParseAddr`'s error for bytes that are not UTF-8 (an escape such as `%ff` in the
/// brackets).
///
/// Such bytes can sit only in the address, never in the zone (a zone's escapes must be host
/// bytes), so the parse fails. It is run on a copy with each such byte replaced by `\x01`,
/// which no address or host holds and which, like the byte, is none of `.`, `:`, `%` or a
/// hex digit: the parse fails at the same place, and the message is rebuilt around the
/// original bytes.
fn parse_addr_error_of_bytes(addr: &[u8]) -> String {
    let mut stand_in = String::with_capacity(addr.len());
    for chunk in addr.utf8_chunks() {
        stand_in.push_str(chunk.valid());
        stand_in.extend(std::iter::repeat_n('\u{1}', chunk.invalid().len()));
    }
    let fallback = format!("ParseAddr({}): unable to parse IP", go_quote_bytes(addr));
    let Err(message) = parse_netip(&stand_in) else {
        return fallback;
    };
    let head = format!("ParseAddr({}): ", go_quote(&stand_in));
    let Some(rest) = message.strip_prefix(&head) else {
        return fallback;
    };
    // Go reports where the parse stopped as the rest of the address, before any zone.
    let ends = [Some(stand_in.len()), stand_in.find('%')];
    for end in ends.into_iter().flatten() {
        for start in (0..end).filter(|&k| stand_in.is_char_boundary(k)) {
            let Some(at) = stand_in.get(start..end) else { continue };
            let tail = format!(" (at {})", go_quote(at));
            if let Some(why) = rest.strip_suffix(&tail) {
                return format!(
                    "ParseAddr({}): {why} (at {})",
                    go_quote_bytes(addr),
                    go_quote_bytes(&addr[start..end])
                );
            }
        }
    }
    format!("ParseAddr({}): {rest}", go_quote_bytes(addr))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(raw: &str) -> GoUrl {
        parse_request_uri(raw).unwrap_or_else(|e| panic!("{raw:?}: {e}"))
    }

    fn err(raw: &str) -> String {
        match parse_request_uri(raw) {
            Ok(u) => panic!("{raw:?} parsed: {u:?}"),
            Err(e) => e,
        }
    }

    /// Go's `parseRequestURLTests`, as Go 1.25.3 has them.
    #[test]
    fn go_parse_request_url_tests() {
        let valid = [
            "http://foo.com",
            "http://foo.com/",
            "http://foo.com/path",
            "/",
            "//not.a.user@not.a.host/just/a/path",
            "//not.a.user@%66%6f%6f.com/just/a/path/also",
            "*",
            "http://192.168.0.1/",
            "http://192.168.0.1:8080/",
            "http://[fe80::1]/",
            "http://[fe80::1]:8080/",
            "http://[fe80::1%25en0]/",
            "http://[fe80::1%25en0]:8080/",
            "http://[fe80::1%25%65%6e%301-._~]/",
            "http://[fe80::1%25%65%6e%301-._~]:8080/",
            "https://[1:2:3:4:5:6:7:8]",
            "https://[2001:db8::a:b:c:d]",
            "https://[fe80::1%25eth0]",
            "https://[fe80::abc:def%254]",
            "https://[2001:db8::1]/path",
            "https://[fe80::1%25eth0]/path?query=1",
            "https://[::ffff:192.0.2.1]",
        ];
        for raw in valid {
            assert!(parse_request_uri(raw).is_ok(), "{raw:?}: {:?}", parse_request_uri(raw));
        }
        let invalid = [
            "foo.html",
            "../dir/",
            " http://foo.com",
            "http://192.168.0.%31/",
            "http://192.168.0.%31:8080/",
            "http://[fe80::%31]/",
            "http://[fe80::%31]:8080/",
            "http://[fe80::%31%25en0]/",
            "http://[fe80::%31%25en0]:8080/",
            "http://[fe80::1%en0]/",
            "http://[fe80::1%en0]:8080/",
            "https://[:1] ",
            "https://[1:2:3:4:5:6:7:8:9]",
            "https://[1::1::1]",
            "https://[1:2:3:]",
            "https://[ffff::127.0.0.4000]",
            "https://[0:0::test.com]:80",
            "https://[2001:db8::test.com]",
            "https://[test.com]",
        ];
        for raw in invalid {
            assert!(parse_request_uri(raw).is_err(), "{raw:?}: {:?}", parse_request_uri(raw));
        }
        let u = ok("//not.a.user@not.a.host/just/a/path");
        assert_eq!(u.path, "//not.a.user@not.a.host/just/a/path");
        assert_eq!((u.host.as_str(), u.user.as_deref()), ("", None));
    }

    /// Go 1.26 refuses hosts with several colons for http and https (`urlstrictcolons`);
    /// 1.25 takes the last colon as the port's.
    #[test]
    fn colons_in_a_host_are_go_1_25s() {
        assert_eq!(ok("https://1:2:3:4:5:6:7:8").host, "1:2:3:4:5:6:7:8");
        assert_eq!(ok("https://1:2:3:4:5:6:7:8:80").port(), "80");
        assert_eq!(ok("https://example.com:80:").port(), "");
        assert_eq!(
            err("http://localhost:80:x/"),
            r#"parse "http://localhost:80:x/": invalid port ":x" after host"#
        );
    }

    /// The absolute URLs of Go's `TestParseErrors` (`Parse` and `ParseRequestURI` agree on
    /// them).
    #[test]
    fn go_parse_errors() {
        let cases = [
            ("http://[::1]", false),
            ("http://[::1]:80", false),
            ("http://[::1]:namedport", true),
            ("http://x:namedport", true),
            ("http://[::1]/", false),
            ("http://[::1]a", true),
            ("http://[::1]%23", true),
            ("http://[::1%25en0]", false),
            ("http://[::1]:", false),
            ("http://x:", false),
            ("http://[::1]:%38%30", true),
            ("http://[::1%25%41]", false),
            ("http://[%10::1]", true),
            ("http://[::1]/%48", false),
            ("http://%41:8080/", true),
            ("mysql://x@y(z:123)/foo", true),
            ("mysql://x@y(1.2.3.4:123)/foo", true),
            (" http://foo.com", true),
            ("ht tp://foo.com", true),
            ("ahttp://foo.com", false),
            ("1http://foo.com", true),
            (
                "http://[]%20%48%54%54%50%2f%31%2e%31%0a%4d%79%48%65%61%64%65%72%3a%20%31%32%33%0a%0a/",
                true,
            ),
            ("http://a b.com/", true),
            ("cache_object://foo", true),
            ("cache_object:foo", true),
            ("cache_object:foo/bar", true),
            ("http://user^:passwo^rd@foo.com/", true),
            ("http://[192.168.0.1]/", true),
            ("http://[192.168.0.1]:8080/", true),
        ];
        for (raw, want_err) in cases {
            assert_eq!(
                parse_request_uri(raw).is_err(),
                want_err,
                "{raw:?}: {:?}",
                parse_request_uri(raw)
            );
        }
    }

    #[test]
    fn error_texts() {
        let cases = [
            (
                "http://foo.com/?foo\nbar",
                r#"parse "http://foo.com/?foo\nbar": net/url: invalid control character in URL"#,
            ),
            (
                "http\r://foo.com/",
                r#"parse "http\r://foo.com/": net/url: invalid control character in URL"#,
            ),
            (
                "http://foo\u{7f}.com/",
                r#"parse "http://foo\x7f.com/": net/url: invalid control character in URL"#,
            ),
            ("", r#"parse "": empty url"#),
            (":foo", r#"parse ":foo": missing protocol scheme"#),
            ("foo.html", r#"parse "foo.html": invalid URI for request"#),
            ("1http://foo.com", r#"parse "1http://foo.com": invalid URI for request"#),
            (
                "http://user^@foo.com/",
                r#"parse "http://user^@foo.com/": net/url: invalid userinfo"#,
            ),
            (
                "http://us%zr@foo.com/",
                r#"parse "http://us%zr@foo.com/": invalid URL escape "%zr""#,
            ),
            (
                "http://u:p%2@foo.com/",
                r#"parse "http://u:p%2@foo.com/": invalid URL escape "%2""#,
            ),
            ("http://[::1/", r#"parse "http://[::1/": missing ']' in host"#),
            (
                "http://[::1]x/",
                r#"parse "http://[::1]x/": invalid port "x" after host"#,
            ),
            (
                "http://x:namedport",
                r#"parse "http://x:namedport": invalid port ":namedport" after host"#,
            ),
            (
                "http://a b.com/",
                r#"parse "http://a b.com/": invalid character " " in host name"#,
            ),
            ("http://x/%zz", r#"parse "http://x/%zz": invalid URL escape "%zz""#),
            ("http://x/%", r#"parse "http://x/%": invalid URL escape "%""#),
            ("http://x/a%4", r#"parse "http://x/a%4": invalid URL escape "%4""#),
            (
                "http://%41:8080/",
                r#"parse "http://%41:8080/": invalid URL escape "%41""#,
            ),
            (
                "http://[fe80::1%en0]/",
                r#"parse "http://[fe80::1%en0]/": invalid URL escape "%en""#,
            ),
            (
                "http://[fe80::1%25%0a]/",
                r#"parse "http://[fe80::1%25%0a]/": invalid URL escape "%0a""#,
            ),
            (
                "http://[fe80::1%25a/b]/",
                r#"parse "http://[fe80::1%25a/b]/": missing ']' in host"#,
            ),
            (
                "http://[fe80::1%25a{]/",
                r#"parse "http://[fe80::1%25a{]/": invalid character "{" in host name"#,
            ),
            (
                "http://[192.168.0.1]/",
                r#"parse "http://[192.168.0.1]/": invalid IP-literal"#,
            ),
            (
                "https://[test.com]",
                r#"parse "https://[test.com]": invalid host: ParseAddr("test.com"): unexpected character (at "test.com")"#,
            ),
            (
                "https://[1::1::1]",
                r#"parse "https://[1::1::1]": invalid host: ParseAddr("1::1::1"): multiple :: in address (at ":1")"#,
            ),
            (
                "https://[%25en0]",
                r#"parse "https://[%25en0]": invalid host: ParseAddr("%en0"): missing IPv6 address"#,
            ),
            (
                "https://[fe80::1%25]",
                r#"parse "https://[fe80::1%25]": invalid host: ParseAddr("fe80::1%"): zone must be a non-empty string"#,
            ),
            (
                "https://[foo]",
                r#"parse "https://[foo]": invalid host: ParseAddr("foo"): unable to parse IP"#,
            ),
            ("http://x/%é", "parse \"http://x/%é\": invalid URL escape \"%é\""),
            (
                "http://x/%a世",
                "parse \"http://x/%a世\": invalid URL escape \"%a\\xe4\"",
            ),
            (
                "http://{x}/",
                r#"parse "http://{x}/": invalid character "{" in host name"#,
            ),
        ];
        for (raw, want) in cases {
            assert_eq!(err(raw), want, "{raw:?}");
        }
    }

    /// A `%ff` in the brackets gives bytes that are not UTF-8; Go's message shows them.
    #[test]
    fn bytes_that_are_not_utf8_in_brackets() {
        assert_eq!(
            err("http://[%ff::1]/"),
            r#"parse "http://[%ff::1]/": invalid host: ParseAddr("\xff::1"): each colon-separated field must have at least one digit (at "\xff::1")"#
        );
        assert_eq!(
            err("http://[::%c3%a9]/"),
            r#"parse "http://[::%c3%a9]/": invalid host: ParseAddr("::é"): each colon-separated field must have at least one digit (at "é")"#
        );
        assert_eq!(
            err("http://[1::%ff%25en0]/"),
            r#"parse "http://[1::%ff%25en0]/": invalid host: ParseAddr("1::\xff%en0"): each colon-separated field must have at least one digit (at "\xff")"#
        );
        assert_eq!(
            err("http://[%ff]/"),
            r#"parse "http://[%ff]/": invalid host: ParseAddr("\xff"): unable to parse IP"#
        );
        assert_eq!(
            err("http://[1.%ff]/"),
            r#"parse "http://[1.%ff]/": invalid host: ParseAddr("1.\xff"): unexpected character (at "\xff")"#
        );
    }

    #[test]
    fn parts() {
        let u = ok("HTTP://user:pa%20ss@Example.com:8080/a%20b/c?x=1&y=%zz");
        assert_eq!(u.scheme, "http");
        assert_eq!(u.user.as_deref(), Some("user:pa%20ss"));
        assert_eq!(u.host, "Example.com:8080");
        assert_eq!((u.hostname(), u.port()), ("Example.com", "8080"));
        assert_eq!(u.path, "/a b/c");
        assert_eq!(u.raw_query, "x=1&y=%zz");
        assert!(!u.force_query);

        let u = ok("//host/x");
        assert_eq!(
            (u.scheme.as_str(), u.host.as_str(), u.path.as_str()),
            ("", "", "//host/x")
        );

        let u = ok("http://[::1%25en0]:8080/");
        assert_eq!(u.host, "[::1%en0]:8080");
        assert_eq!((u.hostname(), u.port()), ("::1%en0", "8080"));
        assert_eq!(u.path, "/");

        let u = ok("mailto:a@b");
        assert_eq!(
            (u.scheme.as_str(), u.opaque.as_str(), u.host.as_str(), u.path.as_str()),
            ("mailto", "a@b", "", "")
        );

        let u = ok("mailto:a@b?subject=x");
        assert_eq!((u.opaque.as_str(), u.raw_query.as_str()), ("a@b", "subject=x"));

        let u = ok("*");
        assert_eq!((u.path.as_str(), u.scheme.as_str()), ("*", ""));

        let u = ok("http://x/a?");
        assert!(u.force_query);
        assert_eq!((u.path.as_str(), u.raw_query.as_str()), ("/a", ""));

        let u = ok("http://x/a??");
        assert!(!u.force_query);
        assert_eq!(u.raw_query, "?");

        let u = ok("http:/a/b");
        assert_eq!((u.host.as_str(), u.path.as_str()), ("", "/a/b"));

        let u = ok("http:///a");
        assert_eq!((u.host.as_str(), u.path.as_str()), ("", "/a"));

        let u = ok("http://a@b@c/");
        assert_eq!((u.user.as_deref(), u.host.as_str()), (Some("a@b"), "c"));

        let u = ok("http://x/%e4%b8%96");
        assert_eq!(u.path, "/世");

        let u = ok("http://%e4%b8%96.com/");
        assert_eq!(u.host, "世.com");

        // Bytes that are not UTF-8 read as U+FFFD in the `String` parts.
        let u = ok("http://%ff/%c3");
        assert_eq!((u.host.as_str(), u.path.as_str()), ("\u{fffd}", "/\u{fffd}"));

        let u = ok("http://[::1]:/");
        assert_eq!((u.hostname(), u.port()), ("::1", ""));

        // Only the last `[` counts: what is before it is dropped.
        let u = ok("http://a[::1]/");
        assert_eq!(u.host, "[::1]");

        let u = ok("http:");
        assert_eq!((u.scheme.as_str(), u.opaque.as_str()), ("http", ""));
    }

    /// Go's `TestURLHostnameAndPort`.
    #[test]
    fn go_hostname_and_port() {
        let cases = [
            ("foo.com:80", "foo.com", "80"),
            ("foo.com", "foo.com", ""),
            ("foo.com:", "foo.com", ""),
            ("FOO.COM", "FOO.COM", ""),
            ("1.2.3.4", "1.2.3.4", ""),
            ("1.2.3.4:80", "1.2.3.4", "80"),
            ("[1:2:3:4]", "1:2:3:4", ""),
            ("[1:2:3:4]:80", "1:2:3:4", "80"),
            ("[::1]:80", "::1", "80"),
            ("[::1]", "::1", ""),
            ("[::1]:", "::1", ""),
            ("localhost", "localhost", ""),
            ("localhost:443", "localhost", "443"),
            (
                "some.super.long.domain.example.org:8080",
                "some.super.long.domain.example.org",
                "8080",
            ),
            (
                "[2001:0db8:85a3:0000:0000:8a2e:0370:7334]:17000",
                "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
                "17000",
            ),
            (
                "[2001:0db8:85a3:0000:0000:8a2e:0370:7334]",
                "2001:0db8:85a3:0000:0000:8a2e:0370:7334",
                "",
            ),
            ("[google.com]:80", "google.com", "80"),
            ("google.com]:80", "google.com]", "80"),
            ("google.com:80_invalid_port", "google.com:80_invalid_port", ""),
            ("[::1]extra]:80", "::1]extra", "80"),
            ("google.com]extra:extra", "google.com]extra:extra", ""),
            ("[", "[", ""),
            ("]", "]", ""),
            ("", "", ""),
        ];
        for (host, hostname, port) in cases {
            let u = GoUrl {
                scheme: String::new(),
                opaque: String::new(),
                user: None,
                host: host.to_owned(),
                path: String::new(),
                raw_query: String::new(),
                force_query: false,
            };
            assert_eq!((u.hostname(), u.port()), (hostname, port), "{host:?}");
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let odd = [
            "",
            "\u{0}",
            "\"",
            "(",
            "[",
            "]",
            "%",
            "%%",
            "?",
            "??",
            ":",
            "*",
            "/",
            "//",
            "///",
            "a:",
            "a:/",
            "a://",
            "a://[",
            "a://]",
            "a://][",
            "a://]:[",
            "a://[]",
            "a://[]:",
            "a://@",
            "a://@@",
            "a://:",
            "a://[%",
            "a://[%2",
            "a://[%25",
            "a://[%25%",
            "a://[::1%25%",
            "a://x%",
            "a://é%",
            "a://[é]",
            "a://[::%c3]",
            "a://[%e9%25x]",
            "a://u%@h",
            "a://u:%@h",
            "a://%ff",
            "a://%ff/%ff",
            "=?",
            "=?utf-8?q?",
            "((((((((",
            "[[[[[[[[",
            "a://[[[[[[]]]]]]",
        ];
        for raw in odd {
            let _ = parse_request_uri(raw);
            if let Ok(u) = parse_request_uri(raw) {
                let _ = (u.hostname(), u.port());
            }
        }
        // Every short string of the bytes that matter, so each branch meets each end.
        let alphabet = ["a", ":", "/", "[", "]", "%", "2", "5", "@", "?", "f", "é"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &texts {
                for piece in alphabet {
                    next.push(format!("{t}{piece}"));
                }
            }
            texts = next;
            for t in &texts {
                let _ = parse_request_uri(t);
                let _ = parse_request_uri(&format!("a://{t}"));
            }
        }
    }
}
