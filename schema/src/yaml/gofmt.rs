//! Go's text formatting where it leaks into error messages and map keys:
//! `%#v` (quoting and float formats come from [`crate::go`]).

use std::cmp::Ordering;
use std::fmt::Write;

use super::value::GoVal;
use crate::go::{format_float_g, quote};

/// `fmt.Sprintf("%#v", v)` for the values go-yaml v2 produces (`%+#v`
/// prints these types identically).
pub(super) fn sharp_v(v: &GoVal) -> String {
    enum Task<'a> {
        Val(&'a GoVal, bool),
        Lit(&'static str),
    }
    let mut out = String::new();
    let mut tasks = vec![Task::Val(v, false)];
    while let Some(task) = tasks.pop() {
        let (v, nested) = match task {
            Task::Lit(s) => {
                out.push_str(s);
                continue;
            }
            Task::Val(v, nested) => (v, nested),
        };
        match v {
            // A nil element inside a collection prints with its static type.
            GoVal::Null if nested => out.push_str("interface {}(nil)"),
            GoVal::Null => out.push_str("<nil>"),
            GoVal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            GoVal::Int(i) => {
                let _ = write!(out, "{i}");
            }
            GoVal::Uint(u) => {
                let _ = write!(out, "0x{u:x}");
            }
            GoVal::Float(f) => out.push_str(&format_float_g(*f)),
            GoVal::Str(s) => out.push_str(&quote(s)),
            GoVal::Seq(items) => {
                out.push_str("[]interface {}{");
                tasks.push(Task::Lit("}"));
                for (i, item) in items.iter().enumerate().rev() {
                    tasks.push(Task::Val(item, true));
                    if i > 0 {
                        tasks.push(Task::Lit(", "));
                    }
                }
            }
            GoVal::Map(entries) => {
                out.push_str("map[interface {}]interface {}{");
                tasks.push(Task::Lit("}"));
                let mut sorted: Vec<&(GoVal, GoVal)> = entries.iter().collect();
                sorted.sort_by(|a, b| fmtsort_cmp(&a.0, &b.0));
                for (i, (k, v)) in sorted.into_iter().enumerate().rev() {
                    tasks.push(Task::Val(v, true));
                    tasks.push(Task::Lit(":"));
                    tasks.push(Task::Val(k, true));
                    if i > 0 {
                        tasks.push(Task::Lit(", "));
                    }
                }
            }
        }
    }
    out
}

/// The order `fmt` prints `interface{}` map keys in. Go orders different
/// dynamic types by the address of their type descriptors, which no program
/// can reproduce; this uses a fixed order of types instead.
fn fmtsort_cmp(a: &GoVal, b: &GoVal) -> Ordering {
    fn rank(v: &GoVal) -> u8 {
        match v {
            GoVal::Null => 0,
            GoVal::Bool(_) => 1,
            GoVal::Int(_) => 2,
            GoVal::Uint(_) => 3,
            GoVal::Float(_) => 4,
            GoVal::Str(_) => 5,
            GoVal::Seq(_) => 6,
            GoVal::Map(_) => 7,
        }
    }
    match (a, b) {
        (GoVal::Bool(x), GoVal::Bool(y)) => x.cmp(y),
        (GoVal::Int(x), GoVal::Int(y)) => x.cmp(y),
        (GoVal::Uint(x), GoVal::Uint(y)) => x.cmp(y),
        // NaN sorts first, as in internal/fmtsort.
        (GoVal::Float(x), GoVal::Float(y)) => match (x.is_nan(), y.is_nan()) {
            (true, true) => Ordering::Equal,
            (true, false) => Ordering::Less,
            (false, true) => Ordering::Greater,
            _ => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        },
        (GoVal::Str(x), GoVal::Str(y)) => x.as_bytes().cmp(y.as_bytes()),
        _ => rank(a).cmp(&rank(b)),
    }
}
