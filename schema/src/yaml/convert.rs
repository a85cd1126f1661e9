//! `convertToJSONableObject` and `json.Marshal` of sigs.k8s.io/yaml, and the
//! number rules of the API server's JSON decoding, without recursion.

use std::collections::BTreeMap;
use std::mem;

use serde_json::{Map, Value};

use super::error::{Error, ErrorKind};
use super::gofmt::sharp_v;
use super::value::GoVal;
use crate::go::{format_float_g, format_float32_g};

/// The nesting limit of Go's JSON decoders (`maxNestingDepth`), which every
/// consumer of the converted JSON (kubectl, the API server) applies.
pub(super) const MAX_JSON_DEPTH: usize = 10_000;

/// Drops a `serde_json::Value` without recursion.
///
/// `serde_json::Value`'s own drop recurses once per nesting level; values
/// produced from untrusted YAML can nest 10,000 levels, which is more than a
/// small thread stack survives.
pub fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Array(items) => stack.append(items),
            Value::Object(map) => stack.extend(mem::take(map).into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// The JSON key `convertToJSONableObject` makes of a Go map key; `None` for
/// key types it rejects (`nil`, `uint64`).
pub(super) fn key_string(key: &GoVal) -> Option<String> {
    Some(match key {
        GoVal::Str(s) => s.clone(),
        GoVal::Int(i) => i.to_string(),
        // Formatted as a float32, as the Go code does.
        GoVal::Float(f) => match format_float32_g(*f).as_str() {
            "+Inf" => ".inf".to_string(),
            "-Inf" => "-.inf".to_string(),
            "NaN" => ".nan".to_string(),
            s => s.to_string(),
        },
        GoVal::Bool(b) => b.to_string(),
        GoVal::Null | GoVal::Uint(_) | GoVal::Seq(_) | GoVal::Map(_) => return None,
    })
}

fn unsupported_key(key: &GoVal, value: &GoVal) -> Error {
    let type_name = match key {
        GoVal::Null => "%!s(<nil>)",
        GoVal::Uint(_) => "uint64",
        GoVal::Seq(_) => "[]interface {}",
        GoVal::Map(_) => "map[interface {}]interface {}",
        _ => "interface {}",
    };
    Error::new(
        ErrorKind::Convert,
        format!(
            "unsupported map key of type: {type_name}, key: {}, value: {}",
            sharp_v(key),
            sharp_v(value)
        ),
    )
}

/// The first key the conversion rejects. Go walks maps in random order and
/// stops at the first bad key; this walks in document order.
fn check_keys(root: &GoVal) -> Result<(), Error> {
    enum Frame<'a> {
        Seq(std::slice::Iter<'a, GoVal>),
        Map(std::slice::Iter<'a, (GoVal, GoVal)>),
    }
    let mut stack: Vec<Frame<'_>> = Vec::new();
    let mut next = Some(root);
    loop {
        if let Some(v) = next.take() {
            match v {
                GoVal::Seq(items) => stack.push(Frame::Seq(items.iter())),
                GoVal::Map(entries) => stack.push(Frame::Map(entries.iter())),
                _ => {}
            }
        }
        let Some(top) = stack.last_mut() else {
            return Ok(());
        };
        match top {
            Frame::Seq(it) => match it.next() {
                Some(v) => next = Some(v),
                None => {
                    stack.pop();
                }
            },
            Frame::Map(it) => match it.next() {
                Some((k, v)) => {
                    if key_string(k).is_none() {
                        return Err(unsupported_key(k, v));
                    }
                    next = Some(v);
                }
                None => {
                    stack.pop();
                }
            },
        }
    }
}

/// The number the API server ends up with for a Go `float64`: `json.Marshal`
/// prints integral values below 1e21 without exponent or fraction, and the
/// server reads integers that fit `int64` as `int64`.
fn float_value(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        // Both Go and Rust print the shortest round-tripping digits here,
        // padded with zeros, so the text is the one Go writes.
        if let Ok(i) = format!("{f}").parse::<i64>() {
            return Value::from(i);
        }
    }
    Value::from(f)
}

fn leaf(v: &GoVal) -> Result<Value, Error> {
    Ok(match v {
        GoVal::Null => Value::Null,
        GoVal::Bool(b) => Value::Bool(*b),
        GoVal::Int(i) => Value::from(*i),
        // Above i64::MAX: the server reads the digits as a float64.
        GoVal::Uint(u) => Value::from(*u as f64),
        GoVal::Float(f) if f.is_finite() => float_value(*f),
        GoVal::Float(f) => {
            return Err(Error::new(
                ErrorKind::Json,
                format!("json: unsupported value: {}", format_float_g(*f)),
            ));
        }
        GoVal::Str(s) => Value::String(s.clone()),
        GoVal::Seq(_) | GoVal::Map(_) => Value::Null,
    })
}

enum Frame {
    Seq {
        items: std::vec::IntoIter<GoVal>,
        out: Vec<Value>,
    },
    Map {
        entries: std::collections::btree_map::IntoIter<String, GoVal>,
        out: Map<String, Value>,
        key: Option<String>,
    },
}

impl Drop for Frame {
    fn drop(&mut self) {
        match self {
            Frame::Seq { out, .. } => out.drain(..).for_each(dispose),
            Frame::Map { out, .. } => mem::take(out).into_iter().for_each(|(_, v)| dispose(v)),
        }
    }
}

fn open(v: &mut GoVal) -> Option<Frame> {
    match v {
        GoVal::Seq(items) => Some(Frame::Seq {
            out: Vec::with_capacity(items.len()),
            items: mem::take(items).into_iter(),
        }),
        GoVal::Map(entries) => {
            // json.Marshal sorts keys; when two keys stringify alike Go keeps
            // whichever its random map order visits last, here the later one.
            let mut sorted = BTreeMap::new();
            for (k, v) in mem::take(entries) {
                if let Some(key) = key_string(&k) {
                    sorted.insert(key, v);
                }
            }
            Some(Frame::Map {
                entries: sorted.into_iter(),
                out: Map::new(),
                key: None,
            })
        }
        _ => None,
    }
}

/// Converts a decoded value to JSON, in the order `json.Marshal` visits it.
pub(super) fn to_value(mut root: GoVal) -> Result<Value, Error> {
    check_keys(&root)?;
    let Some(first) = open(&mut root) else {
        return leaf(&root);
    };
    let mut stack = vec![first];
    loop {
        let Some(top) = stack.last_mut() else {
            return Ok(Value::Null);
        };
        let next = match top {
            Frame::Seq { items, .. } => items.next(),
            Frame::Map { entries, key, .. } => entries.next().map(|(k, v)| {
                *key = Some(k);
                v
            }),
        };
        let done = match next {
            Some(mut child) => match open(&mut child) {
                Some(frame) => {
                    if stack.len() >= MAX_JSON_DEPTH {
                        return Err(Error::new(
                            ErrorKind::Limit,
                            format!(
                                "json: exceeded max nesting depth: the converted document nests deeper than the {MAX_JSON_DEPTH} levels Go's JSON decoders accept"
                            ),
                        ));
                    }
                    stack.push(frame);
                    continue;
                }
                None => leaf(&child)?,
            },
            None => {
                let Some(mut frame) = stack.pop() else {
                    return Ok(Value::Null);
                };
                let value = match &mut frame {
                    Frame::Seq { out, .. } => Value::Array(mem::take(out)),
                    Frame::Map { out, .. } => Value::Object(mem::take(out)),
                };
                if stack.is_empty() {
                    return Ok(value);
                }
                value
            }
        };
        match stack.last_mut() {
            Some(Frame::Seq { out, .. }) => out.push(done),
            Some(Frame::Map { out, key, .. }) => {
                out.insert(key.take().unwrap_or_default(), done);
            }
            None => return Ok(done),
        }
    }
}
