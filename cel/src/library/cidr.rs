//! Kubernetes' CIDR library: `cidr()`, `isCIDR()` and the `net.CIDR` methods (`containsIP`,
//! `containsCIDR` with a string or a value, `ip`, `masked`, `prefixLength`). Prefixes parse
//! as Go's `netip.ParsePrefix` (the address is kept unmasked), IPv4-mapped IPv6 refused, with
//! the library's (doubled) error prefix.

use std::any::Any;
use std::sync::Arc;

use super::Call;
use super::ip::{Addr, Ip, ip_value, parse_ip, parse_netip};
use super::strings::{go_quote, scaled_cost};
use crate::value::{EvalError, Opaque, Value};

/// A `net.CIDR` value: an address and a prefix length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cidr {
    addr: Addr,
    bits: u8,
}

impl Opaque for Cidr {
    fn type_name(&self) -> &'static str {
        "net.CIDR"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other.as_any().downcast_ref::<Cidr>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Cidr {
    /// The address with the bits after the prefix cleared.
    fn masked_addr(&self, bits: u8) -> Addr {
        let mask = |bytes: &mut [u8]| {
            for (i, b) in bytes.iter_mut().enumerate() {
                let start = i * 8;
                let keep = usize::from(bits).saturating_sub(start).min(8);
                *b &= if keep == 0 { 0 } else { 0xffu8 << (8 - keep) };
            }
        };
        let mut a = self.addr;
        match &mut a {
            Addr::V4(b) => mask(b),
            Addr::V6(b) => mask(b),
        }
        a
    }

    fn contains(&self, ip: Addr) -> bool {
        ip.bit_len() == self.addr.bit_len()
            && Cidr { addr: ip, bits: 0 }.masked_addr(self.bits) == self.masked_addr(self.bits)
    }

    /// Go's `Overlaps` plus a prefix no longer than the other's: the other range is inside.
    fn contains_cidr(&self, other: &Cidr) -> bool {
        if self.addr.bit_len() != other.addr.bit_len() {
            return false;
        }
        let bits = self.bits.min(other.bits);
        self.masked_addr(bits) == other.masked_addr(bits) && self.bits <= other.bits
    }
}

/// The `string()` of a `net.CIDR`: the address as given and the length.
pub(crate) fn to_string(v: &dyn Opaque) -> Option<String> {
    v.as_any()
        .downcast_ref::<Cidr>()
        .map(|c| format!("{}/{}", c.addr, c.bits))
}

fn prefix_error(input: &str, msg: &str) -> String {
    format!("netip.ParsePrefix({}): {msg}", go_quote(input))
}

/// Go's `netip.ParsePrefix`, then the library's refusal of IPv4-mapped IPv6; the error
/// carries the library's prefix once (the caller adds it again, as the library does).
fn parse_cidr(raw: &str) -> Result<Cidr, String> {
    let wrap = |msg: String| format!("network address parse error during conversion from string: {msg}");
    let Some(slash) = raw.rfind('/') else {
        return Err(wrap(prefix_error(raw, "no '/'")));
    };
    let (addr, zone) = parse_netip(&raw[..slash]).map_err(|e| wrap(prefix_error(raw, &e)))?;
    if zone && addr.bit_len() == 128 {
        return Err(wrap(prefix_error(raw, "IPv6 zones cannot be present in a prefix")));
    }
    let bits_str = &raw[slash + 1..];
    let bad_bits = || {
        wrap(prefix_error(
            raw,
            &format!("bad bits after slash: {}", go_quote(bits_str)),
        ))
    };
    if bits_str.len() > 1 && !matches!(bits_str.as_bytes()[0], b'1'..=b'9') {
        return Err(bad_bits());
    }
    if bits_str.is_empty() || !bits_str.bytes().all(|b| b.is_ascii_digit()) {
        // Go's Atoi would accept a lone sign-free digit string only.
        return Err(bad_bits());
    }
    let bits: u64 = bits_str.parse().map_err(|_| bad_bits())?;
    if bits > u64::from(addr.bit_len()) {
        return Err(wrap(prefix_error(raw, "prefix length out of range")));
    }
    let cidr = Cidr { addr, bits: bits as u8 };
    if addr.is_4in6() {
        return Err(format!("IPv4-mapped IPv6 address {} is not allowed", go_quote(raw)));
    }
    Ok(cidr)
}

fn cidr_value(c: Cidr) -> Value {
    Value::Opaque(Arc::new(c))
}

/// `cidr(s)`.
fn string_to_cidr(s: &str) -> Result<Cidr, EvalError> {
    parse_cidr(s).map_err(|e| {
        EvalError::new(format!(
            "network address parse error during conversion from string: {e}"
        ))
    })
}

/// The CIDR library's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (target, args) {
        (None, [Value::String(s)]) => match function {
            "cidr" => Some(string_to_cidr(s).map(cidr_value)),
            "isCIDR" => Some(Ok(Value::Bool(parse_cidr(s).is_ok()))),
            _ => None,
        },
        (Some(Value::Opaque(o)), _) => {
            let c = o.as_any().downcast_ref::<Cidr>()?;
            match (function, args) {
                ("ip", []) => Some(Ok(ip_value(c.addr))),
                ("masked", []) => Some(Ok(cidr_value(Cidr {
                    addr: c.masked_addr(c.bits),
                    bits: c.bits,
                }))),
                ("prefixLength", []) => Some(Ok(Value::Int(i64::from(c.bits)))),
                // A string that is not an IP gives `no such overload`, as the library's
                // type check of the parsed value does.
                ("containsIP", [Value::String(s)]) => Some(match parse_ip(s) {
                    Ok(a) => Ok(Value::Bool(c.contains(a))),
                    Err(_) => Err(EvalError::no_such_overload()),
                }),
                ("containsIP", [Value::Opaque(other)]) => {
                    let ip = other.as_any().downcast_ref::<Ip>()?;
                    Some(Ok(Value::Bool(c.contains(ip.0))))
                }
                ("containsCIDR", [Value::String(s)]) => {
                    Some(string_to_cidr(s).map(|other| Value::Bool(c.contains_cidr(&other))))
                }
                ("containsCIDR", [Value::Opaque(other)]) => {
                    let other = other.as_any().downcast_ref::<Cidr>()?;
                    Some(Ok(Value::Bool(c.contains_cidr(other))))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// A CIDR's size for costs: its prefix in bytes, rounded up.
fn cidr_size(c: &Cidr) -> usize {
    usize::from(c.bits).div_ceil(8)
}

/// Kubernetes' costs for the CIDR functions.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    let chars = |s: &str| s.chars().count();
    match (function, target, args) {
        ("cidr" | "isCIDR", None, [Value::String(s)]) => Some(scaled_cost(chars(s), 0.1)),
        (_, Some(Value::Opaque(o)), _) => {
            let c = o.as_any().downcast_ref::<Cidr>()?;
            let base = scaled_cost(2 * cidr_size(c), 0.1);
            match (function, args) {
                ("ip" | "masked" | "prefixLength", []) => Some(1),
                ("containsIP", [Value::String(s)]) => Some(base + scaled_cost(chars(s), 0.1)),
                ("containsIP", [_]) => Some(base),
                ("containsCIDR", [other]) => {
                    let extra = scaled_cost(cidr_size(c), 0.1) + 1;
                    let string = match other {
                        Value::String(s) => scaled_cost(chars(s), 0.1),
                        _ => 0,
                    };
                    Some(base + extra + string)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    fn cidr(v: &str) -> Value {
        call("cidr", None, &[s(v)]).unwrap().unwrap()
    }

    fn text(v: &Value) -> String {
        match v {
            Value::Opaque(o) => to_string(&**o).or_else(|| super::super::ip::to_string(&**o)).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    fn bool_of(target: &Value, f: &str, arg: Value) -> bool {
        match call(f, Some(target), &[arg]).unwrap().unwrap() {
            Value::Bool(b) => b,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parse_and_accessors() {
        assert_eq!(text(&cidr("192.168.0.0/24")), "192.168.0.0/24");
        assert_eq!(text(&cidr("192.168.0.1/24")), "192.168.0.1/24");
        assert_eq!(
            text(&call("masked", Some(&cidr("192.168.0.1/24")), &[]).unwrap().unwrap()),
            "192.168.0.0/24"
        );
        assert_eq!(
            text(&call("masked", Some(&cidr("2001:db8::1/32")), &[]).unwrap().unwrap()),
            "2001:db8::/32"
        );
        assert_eq!(
            text(&call("ip", Some(&cidr("192.168.0.1/24")), &[]).unwrap().unwrap()),
            "192.168.0.1"
        );
        assert!(matches!(
            call("prefixLength", Some(&cidr("::1/128")), &[]).unwrap().unwrap(),
            Value::Int(128)
        ));
        assert!(cidr("10.0.0.0/8").equals(&cidr("10.0.0.0/8")) == Some(true));
        assert!(cidr("10.0.0.0/8").equals(&cidr("10.0.0.0/9")) == Some(false));
    }

    #[test]
    fn containment() {
        let c = cidr("192.168.0.0/24");
        assert!(bool_of(&c, "containsIP", s("192.168.0.1")));
        assert!(!bool_of(&c, "containsIP", s("192.168.1.1")));
        let ip = super::super::ip::ip_value(parse_ip("192.168.0.1").unwrap());
        assert!(bool_of(&c, "containsIP", ip));
        assert!(!bool_of(&cidr("::/0"), "containsIP", s("1.2.3.4")));
        assert!(bool_of(&c, "containsCIDR", s("192.168.0.0/25")));
        assert!(bool_of(&c, "containsCIDR", s("192.168.0.0/24")));
        assert!(!bool_of(&c, "containsCIDR", s("192.168.0.0/23")));
        assert!(!bool_of(&c, "containsCIDR", cidr("192.168.1.0/25")));
        assert_eq!(
            call("containsIP", Some(&c), &[s("x")]).unwrap().unwrap_err().message,
            "no such overload"
        );
    }

    #[test]
    fn errors() {
        let e = |v: &str| call("cidr", None, &[s(v)]).unwrap().unwrap_err().message;
        let p = "network address parse error during conversion from string: network address parse error during conversion from string: ";
        assert_eq!(
            e("192.168.0.0"),
            format!("{p}netip.ParsePrefix(\"192.168.0.0\"): no '/'")
        );
        assert_eq!(
            e("192.168.0.0/33"),
            format!("{p}netip.ParsePrefix(\"192.168.0.0/33\"): prefix length out of range")
        );
        assert_eq!(
            e("192.168.0.0/024"),
            format!("{p}netip.ParsePrefix(\"192.168.0.0/024\"): bad bits after slash: \"024\"")
        );
        assert_eq!(
            e("1.2.3/8"),
            format!("{p}netip.ParsePrefix(\"1.2.3/8\"): ParseAddr(\"1.2.3\"): IPv4 address too short")
        );
        assert_eq!(
            e("::ffff:1.2.3.4/120"),
            "network address parse error during conversion from string: IPv4-mapped IPv6 address \"::ffff:1.2.3.4/120\" is not allowed"
        );
        assert!(matches!(
            call("isCIDR", None, &[s("10.0.0.0/8")]).unwrap().unwrap(),
            Value::Bool(true)
        ));
        assert!(matches!(
            call("isCIDR", None, &[s("10.0.0.0")]).unwrap().unwrap(),
            Value::Bool(false)
        ));
    }

    #[test]
    fn costs() {
        let c = cidr("192.168.0.0/24");
        assert_eq!(
            cost("containsIP", Some(&c), &[s("192.168.0.1")], &Value::Bool(true)),
            Some(3)
        );
        assert_eq!(
            cost("containsCIDR", Some(&c), &[s("192.168.0.0/25")], &Value::Bool(true)),
            Some(5)
        );
        assert_eq!(cost("prefixLength", Some(&c), &[], &Value::Int(24)), Some(1));
    }
}
