//! Kubernetes' URL library: `url()`, `isURL()` and the `kubernetes.URL` methods (`getScheme`,
//! `getHost`, `getHostname`, `getPort`, `getEscapedPath`, `getQuery`). A URL parses as Go's
//! `url.ParseRequestURI`: an absolute URL (`scheme:...`) or an absolute path, no fragment.

use std::any::Any;
use std::sync::Arc;

use super::Call;
use crate::value::{EvalError, Opaque, Value};

/// A parsed URL (`kubernetes.URL`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Url {
    text: String,
    scheme: String,
    /// `host[:port]`, as written after `//`.
    host: String,
    /// The path, escaped as written.
    path: String,
    /// The raw query, without `?`.
    query: String,
}

impl Opaque for Url {
    fn type_name(&self) -> &'static str {
        "kubernetes.URL"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other.as_any().downcast_ref::<Url>().is_some_and(|o| o == self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The `string()` of a `kubernetes.URL`: the text it was parsed from.
pub(crate) fn to_string(v: &dyn Opaque) -> Option<String> {
    v.as_any().downcast_ref::<Url>().map(|u| u.text.clone())
}

/// The URL `url.Parse` reads once `url.ParseRequestURI` has accepted the text: the fragment
/// (`#...`) cut off before the path and query are read (the request-URI parser keeps it in
/// the last of them).
fn without_fragment(u: Url) -> Url {
    match u.text.split_once('#') {
        Some((before, _)) => match parse(before) {
            Ok(cut) => Url { text: u.text, ..cut },
            Err(_) => u,
        },
        None => u,
    }
}

/// `url.ParseRequestURI` (its checks and error texts are [`crate::go_url`]'s), keeping the
/// path as written (escaped), which `getEscapedPath` reads.
fn parse(s: &str) -> Result<Url, String> {
    let go = crate::go_url::parse_request_uri(s)?;
    // The scheme holds no `?`, so the query starts at the text's first one.
    let before_query = s.split_once('?').map_or(s, |(r, _)| r);
    let rest = if go.scheme.is_empty() {
        before_query
    } else {
        before_query.get(go.scheme.len() + 1..).unwrap_or("")
    };
    let path = if !go.scheme.is_empty() && !rest.starts_with('/') {
        // An opaque URL (`mailto:x`): no path.
        String::new()
    } else if let Some(after) = rest.strip_prefix("//").filter(|_| !go.scheme.is_empty()) {
        after.find('/').map_or("", |i| &after[i..]).to_owned()
    } else {
        rest.to_owned()
    };
    Ok(Url {
        text: s.to_owned(),
        scheme: go.scheme,
        host: go.host,
        path,
        query: go.raw_query,
    })
}

pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (function, target, args) {
        ("url", None, [Value::String(s)]) => Some(
            parse(s)
                .map(|u| Value::Opaque(Arc::new(without_fragment(u))))
                .map_err(|e| EvalError::new(format!("URL parse error during conversion from string: {e}"))),
        ),
        ("isURL", None, [Value::String(s)]) => Some(Ok(Value::Bool(parse(s).is_ok()))),
        (_, Some(Value::Opaque(o)), []) => {
            let u = o.as_any().downcast_ref::<Url>()?;
            let s = match function {
                "getScheme" => u.scheme.clone(),
                "getHost" => u.host.clone(),
                "getHostname" => crate::go_url::split_host_port(&u.host).0.to_owned(),
                "getPort" => crate::go_url::split_host_port(&u.host).1.to_owned(),
                "getEscapedPath" => escape_path(&unescape_path(&u.path)),
                "getQuery" => return Some(Ok(query_map(&u.query))),
                _ => return None,
            };
            Some(Ok(Value::string(s)))
        }
        _ => None,
    }
}

/// `getQuery()`: the query as a map of keys to lists of values, unescaped.
fn query_map(query: &str) -> Value {
    let mut entries: Vec<(Value, Vec<Value>)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let (k, v) = (unescape(k), unescape(v));
        match entries
            .iter_mut()
            .find(|(key, _)| matches!(key, Value::String(s) if **s == *k))
        {
            Some((_, values)) => values.push(Value::string(v)),
            None => entries.push((Value::string(k), vec![Value::string(v)])),
        }
    }
    Value::map(entries.into_iter().map(|(k, v)| (k, Value::list(v))).collect())
}

/// A path's `%XX` escapes resolved (Go's `PathUnescape`; `+` stays).
fn unescape_path(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && i + 2 < b.len()
            && let Some(v) = std::str::from_utf8(&b[i + 1..i + 3])
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Go's `EscapedPath` of an unescaped path: bytes outside the unreserved and sub-delimiter
/// characters (and `:`, `@`, `/`) as `%XX`.
fn escape_path(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        let keep = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'_' | b'.' | b'~' | b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'@'
            );
        if keep {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Query unescaping: `+` is a space, `%XX` a byte.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match u8::from_str_radix(std::str::from_utf8(&b[i + 1..i + 3]).unwrap_or("zz"), 16) {
                    Ok(v) => {
                        out.push(v);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub(crate) fn cost(function: &str, _target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (function, args) {
        // cel-go sizes a string in code points.
        ("url" | "isURL", [Value::String(s)]) => Some(super::strings::scaled_cost(s.chars().count(), 0.1).max(1)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Value {
        call("url", None, &[Value::string(s)]).unwrap().unwrap()
    }

    fn get(u: &Value, f: &str) -> String {
        match call(f, Some(u), &[]) {
            Some(Ok(Value::String(s))) => s.to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parts_as_the_library_gives_them() {
        let u = url("https://user@example.com:8443/a%20b/c?x=1&x=2&y");
        assert_eq!(get(&u, "getScheme"), "https");
        assert_eq!(get(&u, "getHost"), "example.com:8443");
        assert_eq!(get(&u, "getHostname"), "example.com");
        assert_eq!(get(&u, "getPort"), "8443");
        assert_eq!(get(&u, "getEscapedPath"), "/a%20b/c");
        assert_eq!(
            get(&url("https://example.com/with space/"), "getEscapedPath"),
            "/with%20space/"
        );
        let v6 = url("http://[::1]:80/");
        assert_eq!(get(&v6, "getHostname"), "::1");
        assert_eq!(get(&url("/path"), "getScheme"), "");
    }

    #[test]
    fn request_uris_only() {
        let is = |s: &str| matches!(call("isURL", None, &[Value::string(s)]), Some(Ok(Value::Bool(true))));
        assert!(is("https://example.com"));
        assert!(is("/absolute/path"));
        assert!(is("oci://registry/x"));
        assert!(!is("example.com/x"));
        assert!(!is("relative"));
        assert!(!is("http://host:port/"));
        assert!(!is(":8080"));
    }
}
