//! Kubernetes' semver library at version 1: `semver(string)` and `semver(string, normalize)`,
//! `isSemver` with one and two arguments, and the `kubernetes.Semver` methods `major`,
//! `minor`, `patch`, `isGreaterThan`, `isLessThan`, `compareTo`. Parsing and ordering are
//! `github.com/blang/semver/v4`'s (`Parse`, `Version.Compare`: build metadata ignored,
//! pre-releases ordered before the release, numeric identifiers before alphanumeric ones),
//! with its error texts; `normalize` is the library's `normalizeAndParse` (a leading `v`
//! dropped, leading zeros trimmed, missing minor and patch filled with `0`).
//!
//! `string()` is not defined on semvers (the library declares no such overload); the
//! version's `String()` form is kept as [`std::fmt::Display`].

use std::any::Any;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::Call;
use super::strings::go_quote;
use crate::value::{EvalError, Opaque, Value};

/// A pre-release identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Pre {
    /// A numeric identifier.
    Num(u64),
    /// An alphanumeric identifier.
    Str(String),
}

/// A `kubernetes.Semver`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Semver {
    /// Major version.
    major: u64,
    /// Minor version.
    minor: u64,
    /// Patch version.
    patch: u64,
    /// Pre-release identifiers.
    pre: Vec<Pre>,
    /// Build metadata.
    build: Vec<String>,
}

impl Opaque for Semver {
    fn type_name(&self) -> &'static str {
        "kubernetes.Semver"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Semver>()
            .is_some_and(|o| compare(self, o) == Ordering::Equal)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl fmt::Display for Semver {
    /// blang's `Version.String()`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        for (i, p) in self.pre.iter().enumerate() {
            f.write_str(if i == 0 { "-" } else { "." })?;
            match p {
                Pre::Num(n) => write!(f, "{n}")?,
                Pre::Str(s) => f.write_str(s)?,
            }
        }
        for (i, b) in self.build.iter().enumerate() {
            f.write_str(if i == 0 { "+" } else { "." })?;
            f.write_str(b)?;
        }
        Ok(())
    }
}

/// blang's `Version.Compare`.
fn compare(a: &Semver, b: &Semver) -> Ordering {
    let core = (a.major, a.minor, a.patch).cmp(&(b.major, b.minor, b.patch));
    if core != Ordering::Equal {
        return core;
    }
    match (a.pre.is_empty(), b.pre.is_empty()) {
        (true, true) => return Ordering::Equal,
        (true, false) => return Ordering::Greater,
        (false, true) => return Ordering::Less,
        _ => {}
    }
    for (x, y) in a.pre.iter().zip(&b.pre) {
        let o = match (x, y) {
            (Pre::Num(_), Pre::Str(_)) => Ordering::Less,
            (Pre::Str(_), Pre::Num(_)) => Ordering::Greater,
            (Pre::Num(m), Pre::Num(n)) => m.cmp(n),
            (Pre::Str(s), Pre::Str(t)) => s.as_bytes().cmp(t.as_bytes()),
        };
        if o != Ordering::Equal {
            return o;
        }
    }
    a.pre.len().cmp(&b.pre.len())
}

/// Digits only (an empty string counts, as in blang's `containsOnly`).
fn numeric(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_digit())
}

/// Letters, digits and `-`.
fn alphanumeric(s: &str) -> bool {
    s.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
}

/// More than one character starting with `0`.
fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

/// Go's `strconv.ParseUint(s, 10, 64)`, with its error text.
fn parse_uint(s: &str) -> Result<u64, String> {
    if s.is_empty() || !numeric(s) {
        return Err(format!("strconv.ParseUint: parsing {}: invalid syntax", go_quote(s)));
    }
    s.parse()
        .map_err(|_| format!("strconv.ParseUint: parsing {}: value out of range", go_quote(s)))
}

/// A version number part (`major`, `minor`, `patch`).
fn number(s: &str, which: &str) -> Result<u64, String> {
    if !numeric(s) {
        return Err(format!("Invalid character(s) found in {which} number {}", go_quote(s)));
    }
    if leading_zero(s) {
        let mut w = which.to_owned();
        if let Some(first) = w.get_mut(..1) {
            first.make_ascii_uppercase();
        }
        return Err(format!("{w} number must not contain leading zeroes {}", go_quote(s)));
    }
    parse_uint(s)
}

/// blang's `semver.Parse`.
fn parse(s: &str) -> Result<Semver, String> {
    if s.is_empty() {
        return Err("Version string empty".to_owned());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    let [major, minor, rest] = parts.as_slice() else {
        return Err("No Major.Minor.Patch elements found".to_owned());
    };
    let major = number(major, "major")?;
    let minor = number(minor, "minor")?;
    let mut patch_str: &str = rest;
    let mut build: Vec<&str> = Vec::new();
    let mut pre: Vec<&str> = Vec::new();
    if let Some((p, b)) = patch_str.split_once('+') {
        build = b.split('.').collect();
        patch_str = p;
    }
    if let Some((p, r)) = patch_str.split_once('-') {
        pre = r.split('.').collect();
        patch_str = p;
    }
    let patch = number(patch_str, "patch")?;
    let mut v = Semver {
        major,
        minor,
        patch,
        pre: Vec::new(),
        build: Vec::new(),
    };
    for p in pre {
        if p.is_empty() {
            return Err("Prerelease is empty".to_owned());
        }
        if numeric(p) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
            v.pre.push(Pre::Num(parse_uint(p)?));
        } else if alphanumeric(p) {
            v.pre.push(Pre::Str(p.to_owned()));
        } else {
            return Err(format!("Invalid character(s) found in prerelease {}", go_quote(p)));
        }
    }
    for b in build {
        if b.is_empty() {
            return Err("Build meta data is empty".to_owned());
        }
        if !alphanumeric(b) {
            return Err(format!("Invalid character(s) found in build meta data {}", go_quote(b)));
        }
        v.build.push(b.to_owned());
    }
    Ok(v)
}

/// The library's `normalizeAndParse`.
fn normalize_and_parse(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s
        .splitn(3, '.')
        .map(|p| {
            if p.len() > 1 {
                let t = p.trim_start_matches('0');
                if t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    t.to_owned()
                } else {
                    format!("0{t}")
                }
            } else {
                p.to_owned()
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".to_owned());
        }
        while parts.len() < 3 {
            parts.push("0".to_owned());
        }
    }
    parse(&parts.join("."))
}

/// The receiver or argument as a semver.
fn semver_of(v: &Value) -> Option<&Semver> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Semver>(),
        _ => None,
    }
}

/// Parses with or without normalization.
fn parse_with(s: &str, normalize: bool) -> Result<Semver, String> {
    if normalize { normalize_and_parse(s) } else { parse(s) }
}

/// The semver library's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    let to_semver = |s: &str, n: bool| -> Call {
        Some(
            parse_with(s, n)
                .map(|v| Value::Opaque(Arc::new(v)))
                .map_err(EvalError::new),
        )
    };
    match (target, function, args) {
        (None, "semver", [Value::String(s)]) => to_semver(s, false),
        (None, "semver", [Value::String(s), Value::Bool(n)]) => to_semver(s, *n),
        (None, "isSemver", [Value::String(s)]) => Some(Ok(Value::Bool(parse(s).is_ok()))),
        (None, "isSemver", [Value::String(s), Value::Bool(n)]) => Some(Ok(Value::Bool(parse_with(s, *n).is_ok()))),
        (Some(t), _, _) => {
            let v = semver_of(t)?;
            // Go's types.Int(uint64) keeps the bits.
            let result = match (function, args) {
                ("major", []) => Value::Int(v.major as i64),
                ("minor", []) => Value::Int(v.minor as i64),
                ("patch", []) => Value::Int(v.patch as i64),
                ("isGreaterThan", [o]) => Value::Bool(compare(v, semver_of(o)?) == Ordering::Greater),
                ("isLessThan", [o]) => Value::Bool(compare(v, semver_of(o)?) == Ordering::Less),
                ("compareTo", [o]) => Value::Int(match compare(v, semver_of(o)?) {
                    Ordering::Less => -1,
                    Ordering::Equal => 0,
                    Ordering::Greater => 1,
                }),
                _ => return None,
            };
            Some(Ok(result))
        }
        _ => None,
    }
}

/// apiserver's costs: parsing is a traversal of the string; the methods cost 1.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (target, function, args) {
        (None, "semver" | "isSemver", [Value::String(s), ..]) => {
            Some(super::strings::scaled_cost(s.chars().count(), 0.1))
        }
        (Some(t), _, _) if semver_of(t).is_some() => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sv(s: &str) -> Value {
        call("semver", None, &[Value::string(s)]).unwrap().unwrap()
    }

    fn svn(s: &str) -> Value {
        call("semver", None, &[Value::string(s), Value::Bool(true)])
            .unwrap()
            .unwrap()
    }

    fn is(s: &str) -> bool {
        matches!(call("isSemver", None, &[Value::string(s)]), Some(Ok(Value::Bool(true))))
    }

    fn is_n(s: &str) -> bool {
        matches!(
            call("isSemver", None, &[Value::string(s), Value::Bool(true)]),
            Some(Ok(Value::Bool(true)))
        )
    }

    fn m(t: &Value, f: &str, args: &[Value]) -> Value {
        call(f, Some(t), args).unwrap().unwrap()
    }

    fn err(s: &str) -> String {
        call("semver", None, &[Value::string(s)]).unwrap().unwrap_err().message
    }

    #[test]
    fn from_the_library_tests() {
        assert_eq!(err("v1.0"), "No Major.Minor.Patch elements found");
        assert!(is("1.2.3-beta.1+build.1"));
        for s in ["", "v1.0.0", " 1.0.0", "1. 0.0", "1.0.0 ", "01.01.01", "1", "1.1"] {
            assert!(!is(s), "{s}");
        }
        for s in ["", " 1.0.0", "1. 0.0", "1.0.0 "] {
            assert!(!is_n(s), "{s}");
        }
        for s in ["v1.0.0", "01.01.01", "1", "1.1"] {
            assert!(is_n(s), "{s}");
        }
        assert_eq!(svn("v01.01").equals(&sv("1.1.0")), Some(true));
        assert_eq!(sv("1.2.3").equals(&sv("1.2.3")), Some(true));
        assert_eq!(sv("1.2.3").equals(&sv("1.0.0")), Some(false));
        assert!(matches!(
            m(&sv("1.0.0"), "isLessThan", &[sv("1.2.3")]),
            Value::Bool(true)
        ));
        assert!(matches!(
            m(&sv("1.0.0"), "isLessThan", &[sv("1.0.0")]),
            Value::Bool(false)
        ));
        assert!(matches!(
            m(&sv("1.2.3"), "isGreaterThan", &[sv("1.0.0")]),
            Value::Bool(true)
        ));
        assert!(matches!(
            m(&sv("1.0.0"), "isGreaterThan", &[sv("1.0.0")]),
            Value::Bool(false)
        ));
        assert!(matches!(m(&sv("1.2.3"), "compareTo", &[sv("1.2.3")]), Value::Int(0)));
        assert!(matches!(m(&sv("1.0.0"), "compareTo", &[sv("1.2.3")]), Value::Int(-1)));
        assert!(matches!(m(&sv("1.2.3"), "compareTo", &[sv("1.0.0")]), Value::Int(1)));
        assert!(matches!(m(&sv("1.2.3"), "major", &[]), Value::Int(1)));
        assert!(matches!(m(&sv("1.2.3"), "minor", &[]), Value::Int(2)));
        assert!(matches!(m(&sv("1.2.3"), "patch", &[]), Value::Int(3)));
    }

    #[test]
    fn blang_errors_and_ordering() {
        assert_eq!(err(""), "Version string empty");
        assert_eq!(err("a.b.c"), "Invalid character(s) found in major number \"a\"");
        assert_eq!(err("01.1.1"), "Major number must not contain leading zeroes \"01\"");
        assert_eq!(err("1.01.1"), "Minor number must not contain leading zeroes \"01\"");
        assert_eq!(err("1.1.01"), "Patch number must not contain leading zeroes \"01\"");
        assert_eq!(err("1.1.x"), "Invalid character(s) found in patch number \"x\"");
        assert_eq!(err("1..1"), "strconv.ParseUint: parsing \"\": invalid syntax");
        assert_eq!(
            err("99999999999999999999.0.0"),
            "strconv.ParseUint: parsing \"99999999999999999999\": value out of range"
        );
        assert_eq!(err("1.0.0-"), "Prerelease is empty");
        assert_eq!(
            err("1.0.0-01"),
            "Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(err("1.0.0-a_b"), "Invalid character(s) found in prerelease \"a_b\"");
        assert_eq!(err("1.0.0+"), "Build meta data is empty");
        assert_eq!(
            err("1.0.0+a_b"),
            "Invalid character(s) found in build meta data \"a_b\""
        );
        let e = call("semver", None, &[Value::string("1-rc"), Value::Bool(true)])
            .unwrap()
            .unwrap_err();
        assert_eq!(e.message, "short version cannot contain PreRelease/Build meta data");
        let order = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
        ];
        for w in order.windows(2) {
            assert!(
                matches!(m(&sv(w[0]), "compareTo", &[sv(w[1])]), Value::Int(-1)),
                "{w:?}"
            );
        }
        assert_eq!(sv("1.0.0+a").equals(&sv("1.0.0+b")), Some(true));
        let v = sv("1.2.3-rc.1+b.5");
        let Value::Opaque(o) = &v else { panic!() };
        assert_eq!(
            o.as_any().downcast_ref::<Semver>().unwrap().to_string(),
            "1.2.3-rc.1+b.5"
        );
        assert_eq!(v.type_name(), "kubernetes.Semver");
        // normalize: "0-rc" keeps its zero.
        assert!(is_n("v1.02.0-rc"));
    }

    #[test]
    fn costs() {
        let s = [Value::string("1.2.3-beta")];
        assert_eq!(cost("semver", None, &s, &Value::Null), Some(1));
        let v = sv("1.2.3");
        assert_eq!(cost("major", Some(&v), &[], &Value::Int(1)), Some(1));
    }
}
