//! Kubernetes' IP library: `ip()`, `isIP()`, `ip.isCanonical()` and the `net.IP` methods
//! (`family`, `isUnspecified`, `isLoopback`, `isLinkLocalMulticast`, `isLinkLocalUnicast`,
//! `isGlobalUnicast`). Addresses parse as Go's `netip.ParseAddr` (no leading zeros in IPv4
//! octets, RFC 4291 text for IPv6), with zones and IPv4-mapped IPv6 addresses refused as the
//! library refuses them; the error texts are Go's.

use std::any::Any;
use std::sync::Arc;

use super::Call;
use super::strings::{go_quote, scaled_cost};
use crate::value::{EvalError, Opaque, Value};

/// An IP address (`net.IP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Addr {
    /// IPv4.
    V4([u8; 4]),
    /// IPv6.
    V6([u8; 16]),
}

impl Addr {
    /// The address's bits.
    pub(crate) fn bit_len(self) -> u8 {
        match self {
            Addr::V4(_) => 32,
            Addr::V6(_) => 128,
        }
    }

    /// The address's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match self {
            Addr::V4(b) => b,
            Addr::V6(b) => b,
        }
    }

    /// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`).
    pub(crate) fn is_4in6(self) -> bool {
        matches!(self, Addr::V6(b) if b[..10].iter().all(|&x| x == 0) && b[10] == 0xff && b[11] == 0xff)
    }

    fn is_unspecified(self) -> bool {
        self.bytes().iter().all(|&b| b == 0)
    }

    fn is_loopback(self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 127,
            Addr::V6(b) => b[..15].iter().all(|&x| x == 0) && b[15] == 1,
        }
    }

    fn is_multicast(self) -> bool {
        match self {
            Addr::V4(b) => b[0] & 0xf0 == 0xe0,
            Addr::V6(b) => b[0] == 0xff,
        }
    }

    fn is_link_local_multicast(self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 224 && b[1] == 0 && b[2] == 0,
            Addr::V6(b) => b[0] == 0xff && b[1] & 0x0f == 0x02,
        }
    }

    fn is_link_local_unicast(self) -> bool {
        match self {
            Addr::V4(b) => b[0] == 169 && b[1] == 254,
            Addr::V6(b) => b[0] == 0xfe && b[1] & 0xc0 == 0x80,
        }
    }

    fn is_global_unicast(self) -> bool {
        if self == Addr::V4([255; 4]) {
            return false;
        }
        !self.is_unspecified() && !self.is_loopback() && !self.is_multicast() && !self.is_link_local_unicast()
    }
}

impl std::fmt::Display for Addr {
    /// Go's `netip.Addr.String()`: dotted IPv4; RFC 5952 IPv6 (lowercase, the first longest
    /// run of two or more zero groups as `::`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Addr::V4(b) => write!(f, "{}.{}.{}.{}", b[0], b[1], b[2], b[3]),
            Addr::V6(b) => {
                let groups: Vec<u16> = b.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
                if self.is_4in6() {
                    return write!(f, "::ffff:{}.{}.{}.{}", b[12], b[13], b[14], b[15]);
                }
                // No run yet: a start past the end never matches.
                let (mut best, mut best_len) = (8, 1);
                let mut i = 0;
                while i < 8 {
                    let run = groups[i..].iter().take_while(|&&g| g == 0).count();
                    if run > best_len {
                        best = i;
                        best_len = run;
                    }
                    i += run.max(1);
                }
                let mut i = 0;
                while i < 8 {
                    if i == best {
                        f.write_str("::")?;
                        i += best_len;
                        continue;
                    }
                    if i > 0 && i != best + best_len {
                        f.write_str(":")?;
                    }
                    write!(f, "{:x}", groups[i])?;
                    i += 1;
                }
                Ok(())
            }
        }
    }
}

/// A `net.IP` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Ip(pub(crate) Addr);

impl Opaque for Ip {
    fn type_name(&self) -> &'static str {
        "net.IP"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other.as_any().downcast_ref::<Ip>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `string()` of a `net.IP`.
pub(crate) fn to_string(v: &dyn Opaque) -> Option<String> {
    v.as_any().downcast_ref::<Ip>().map(|ip| ip.0.to_string())
}

/// An IP value.
pub(crate) fn ip_value(addr: Addr) -> Value {
    Value::Opaque(Arc::new(Ip(addr)))
}

/// `netip.ParseAddr`'s error: `ParseAddr("x"): msg (at "rest")`.
fn addr_error(input: &str, msg: &str, at: &str) -> String {
    if at.is_empty() {
        format!("ParseAddr({}): {msg}", go_quote(input))
    } else {
        format!("ParseAddr({}): {msg} (at {})", go_quote(input), go_quote(at))
    }
}

/// Go's `netip.ParseAddr`: the address and whether it carried a zone.
pub(crate) fn parse_netip(s: &str) -> Result<(Addr, bool), String> {
    for b in s.bytes() {
        match b {
            b'.' => return parse_v4_fields(s, s).map(|f| (Addr::V4(f), false)),
            b':' => return parse_v6(s),
            b'%' => return Err(addr_error(s, "missing IPv6 address", "")),
            _ => {}
        }
    }
    Err(addr_error(s, "unable to parse IP", ""))
}

/// The four octets of `s` (part of `input`, for messages).
fn parse_v4_fields(input: &str, s: &str) -> Result<[u8; 4], String> {
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0);
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return Err(addr_error(input, "IPv4 field has octet with leading zero", ""));
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return Err(addr_error(input, "IPv4 field has value >255", ""));
                }
            }
            b'.' => {
                if i == 0 || i == b.len() - 1 || b[i - 1] == b'.' {
                    return Err(addr_error(input, "IPv4 field must have at least one digit", &s[i..]));
                }
                if pos == 3 {
                    return Err(addr_error(input, "IPv4 address too long", ""));
                }
                fields[pos] = val as u8;
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return Err(addr_error(input, "unexpected character", s.get(i..).unwrap_or(""))),
        }
    }
    if pos < 3 {
        return Err(addr_error(input, "IPv4 address too short", ""));
    }
    fields[3] = val as u8;
    Ok(fields)
}

fn parse_v6(input: &str) -> Result<(Addr, bool), String> {
    let (mut s, zone) = match input.split_once('%') {
        Some((_, "")) => return Err(addr_error(input, "zone must be a non-empty string", "")),
        Some((a, _)) => (a, true),
        None => (input, false),
    };
    let mut ip = [0u8; 16];
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix("::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Ok((Addr::V6(ip), zone));
        }
    }
    let mut i = 0;
    while i < 16 {
        let mut off = 0;
        let mut acc: u32 = 0;
        for &c in s.as_bytes() {
            let Some(d) = char::from(c).to_digit(16) else { break };
            acc = (acc << 4) + d;
            if off > 3 {
                return Err(addr_error(
                    input,
                    "each colon-separated field must have at most 4 hex digits",
                    s,
                ));
            }
            if acc > 0xffff {
                return Err(addr_error(input, "IPv6 field has value >=2^16", s));
            }
            off += 1;
        }
        if off == 0 {
            return Err(addr_error(
                input,
                "each colon-separated field must have at least one digit",
                s,
            ));
        }
        if s.as_bytes().get(off) == Some(&b'.') {
            if ellipsis.is_none() && i != 12 {
                return Err(addr_error(
                    input,
                    "embedded IPv4 address must replace the final 2 fields of the address",
                    s,
                ));
            }
            if i + 4 > 16 {
                return Err(addr_error(
                    input,
                    "too many hex fields to fit an embedded IPv4 at the end of the address",
                    s,
                ));
            }
            let f = parse_v4_fields(input, s)?;
            ip[i..i + 4].copy_from_slice(&f);
            i += 4;
            s = "";
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        if s.is_empty() {
            break;
        }
        if !s.starts_with(':') {
            return Err(addr_error(input, "unexpected character, want colon", s));
        }
        if s.len() == 1 {
            return Err(addr_error(input, "colon must be followed by more characters", s));
        }
        s = &s[1..];
        if s.starts_with(':') {
            if ellipsis.is_some() {
                return Err(addr_error(input, "multiple :: in address", s));
            }
            ellipsis = Some(i);
            s = &s[1..];
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return Err(addr_error(input, "trailing garbage after address", s));
    }
    if i < 16 {
        let Some(e) = ellipsis else {
            return Err(addr_error(input, "address string too short", ""));
        };
        let n = 16 - i;
        ip.copy_within(e..i, e + n);
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return Err(addr_error(
            input,
            "the :: must expand to at least one field of zeros",
            s,
        ));
    }
    Ok((Addr::V6(ip), zone))
}

/// The library's `parseIPAddr`: Go's parse, then no zone and no IPv4-mapped IPv6.
pub(crate) fn parse_ip(raw: &str) -> Result<Addr, String> {
    let (addr, zone) = parse_netip(raw).map_err(|e| {
        format!(
            "IP Address {} parse error during conversion from string: {e}",
            go_quote(raw)
        )
    })?;
    if zone {
        return Err(format!("IP address {} with zone value is not allowed", go_quote(raw)));
    }
    if addr.is_4in6() {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(raw)));
    }
    Ok(addr)
}

/// The IP library's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (target, args) {
        (None, [Value::String(s)]) => match function {
            "ip" => Some(parse_ip(s).map(ip_value).map_err(EvalError::new)),
            "isIP" => Some(Ok(Value::Bool(parse_ip(s).is_ok()))),
            "ip.isCanonical" => Some(
                parse_ip(s)
                    .map(|a| Value::Bool(a.to_string() == **s))
                    .map_err(EvalError::new),
            ),
            _ => None,
        },
        (Some(Value::Opaque(o)), []) => {
            let ip = o.as_any().downcast_ref::<Ip>()?.0;
            let b = match function {
                "family" => return Some(Ok(Value::Int(if ip.bit_len() == 32 { 4 } else { 6 }))),
                "isUnspecified" => ip.is_unspecified(),
                "isLoopback" => ip.is_loopback(),
                "isLinkLocalMulticast" => ip.is_link_local_multicast(),
                "isLinkLocalUnicast" => ip.is_link_local_unicast(),
                "isGlobalUnicast" => ip.is_global_unicast(),
                _ => return None,
            };
            Some(Ok(Value::Bool(b)))
        }
        _ => None,
    }
}

/// Kubernetes' costs: parsing is a string traversal (twice for `ip.isCanonical`), the
/// accessors cost one.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (function, target, args) {
        ("ip" | "isIP", None, [Value::String(s)]) => Some(scaled_cost(s.chars().count(), 0.1)),
        ("ip.isCanonical", None, [Value::String(s)]) => Some((s.chars().count() as f64 * 2.0 * 0.1).ceil() as u64),
        (
            "family"
            | "isUnspecified"
            | "isLoopback"
            | "isLinkLocalMulticast"
            | "isLinkLocalUnicast"
            | "isGlobalUnicast",
            Some(Value::Opaque(o)),
            [],
        ) if o.as_any().is::<Ip>() => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    fn ip(v: &str) -> Value {
        call("ip", None, &[s(v)]).unwrap().unwrap()
    }

    fn method(v: &str, f: &str) -> Value {
        call(f, Some(&ip(v)), &[]).unwrap().unwrap()
    }

    fn is(v: &Value, b: bool) -> bool {
        matches!(v, Value::Bool(x) if *x == b)
    }

    #[test]
    fn parses_and_prints_like_netip() {
        for (input, canonical) in [
            ("192.168.0.1", "192.168.0.1"),
            ("::1", "::1"),
            ("2001:db8::abcd", "2001:db8::abcd"),
            ("2001:DB8::ABCD", "2001:db8::abcd"),
            (
                "2001:db8:3333:4444:5555:6666:7777:8888",
                "2001:db8:3333:4444:5555:6666:7777:8888",
            ),
            ("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
            ("0:0:0:0:0:0:0:0", "::"),
            ("1:0:0:2:0:0:0:3", "1:0:0:2::3"),
            ("::1.2.3.4", "::102:304"),
            ("1:0:2:0:3:0:4:0", "1:0:2:0:3:0:4:0"),
        ] {
            assert_eq!(
                to_string(match &ip(input) {
                    Value::Opaque(o) => &**o,
                    _ => unreachable!(),
                }),
                Some(canonical.to_owned()),
                "{input}"
            );
        }
        assert!(is(
            &call("ip.isCanonical", None, &[s("2001:db8::abcd")]).unwrap().unwrap(),
            true
        ));
        assert!(is(
            &call("ip.isCanonical", None, &[s("2001:DB8::ABCD")]).unwrap().unwrap(),
            false
        ));
        assert!(is(
            &call("ip.isCanonical", None, &[s("2001:db8:0:0:0:0:0:abcd")])
                .unwrap()
                .unwrap(),
            false
        ));
    }

    #[test]
    fn errors_from_kubernetes_tests() {
        let e = |v: &str| call("ip", None, &[s(v)]).unwrap().unwrap_err().message;
        assert_eq!(
            e("192.168.0.1.0"),
            "IP Address \"192.168.0.1.0\" parse error during conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long"
        );
        assert_eq!(
            e("1.2.3.04"),
            "IP Address \"1.2.3.04\" parse error during conversion from string: ParseAddr(\"1.2.3.04\"): IPv4 field has octet with leading zero"
        );
        assert_eq!(
            e("fe80::1%eth0"),
            "IP address \"fe80::1%eth0\" with zone value is not allowed"
        );
        assert_eq!(
            e("::ffff:192.168.0.1"),
            "IPv4-mapped IPv6 address \"::ffff:192.168.0.1\" is not allowed"
        );
        assert_eq!(
            e("1:2"),
            "IP Address \"1:2\" parse error during conversion from string: ParseAddr(\"1:2\"): address string too short"
        );
        assert_eq!(
            e("1::2::3"),
            "IP Address \"1::2::3\" parse error during conversion from string: ParseAddr(\"1::2::3\"): multiple :: in address (at \":3\")"
        );
        assert_eq!(
            e("12345::"),
            "IP Address \"12345::\" parse error during conversion from string: ParseAddr(\"12345::\"): each colon-separated field must have at most 4 hex digits (at \"12345::\")"
        );
        assert_eq!(
            e("foo"),
            "IP Address \"foo\" parse error during conversion from string: ParseAddr(\"foo\"): unable to parse IP"
        );
        assert_eq!(
            e("1.2..3"),
            "IP Address \"1.2..3\" parse error during conversion from string: ParseAddr(\"1.2..3\"): IPv4 field must have at least one digit (at \".3\")"
        );
        assert!(is(&call("isIP", None, &[s("1.2.3.256")]).unwrap().unwrap(), false));
        assert!(is(&call("isIP", None, &[s("::")]).unwrap().unwrap(), true));
    }

    #[test]
    fn predicates() {
        assert!(matches!(method("192.168.0.1", "family"), Value::Int(4)));
        assert!(matches!(method("::1", "family"), Value::Int(6)));
        assert!(is(&method("0.0.0.0", "isUnspecified"), true));
        assert!(is(&method("::", "isUnspecified"), true));
        assert!(is(&method("127.0.0.1", "isLoopback"), true));
        assert!(is(&method("::1", "isLoopback"), true));
        assert!(is(&method("224.0.0.1", "isLinkLocalMulticast"), true));
        assert!(is(&method("224.0.1.1", "isLinkLocalMulticast"), false));
        assert!(is(&method("ff02::1", "isLinkLocalMulticast"), true));
        assert!(is(&method("fd00::1", "isLinkLocalMulticast"), false));
        assert!(is(&method("169.254.169.254", "isLinkLocalUnicast"), true));
        assert!(is(&method("fe80::1", "isLinkLocalUnicast"), true));
        assert!(is(&method("192.168.0.1", "isGlobalUnicast"), true));
        assert!(is(&method("255.255.255.255", "isGlobalUnicast"), false));
        assert!(is(&method("ff00::1", "isGlobalUnicast"), false));
        assert!(is(&method("2001:db8::abcd", "isGlobalUnicast"), true));
        assert!(ip("1.2.3.4").equals(&ip("1.2.3.4")) == Some(true));
        assert!(ip("1.2.3.4").equals(&ip("::102:304")) == Some(false));
    }

    #[test]
    fn costs() {
        // apiserver's cost tests: ip.isCanonical('192.168.0.1') costs 3.
        assert_eq!(
            cost("ip.isCanonical", None, &[s("192.168.0.1")], &Value::Bool(true)),
            Some(3)
        );
        assert_eq!(
            cost(
                "ip.isCanonical",
                None,
                &[s("2001:db8:3333:4444:5555:6666:7777:8888")],
                &Value::Bool(true)
            ),
            Some(8)
        );
        assert_eq!(cost("ip", None, &[s("192.168.0.1")], &Value::Null), Some(2));
        assert_eq!(cost("family", Some(&ip("::1")), &[], &Value::Int(6)), Some(1));
    }
}
