//! `fmt`'s `%v`, `%#v` and `%T` of the values Go's JSON and YAML decoders give an
//! `interface{}`: `nil`, `bool`, `int64` (numbers that fit), `float64`, `string`,
//! `[]interface {}` and `map[string]interface {}`. Messages that print a decoded value with
//! one of these verbs (structured-merge-diff's type errors, `unstructured`'s accessors) need
//! them byte for byte.

use serde_json::Value;

use super::{format_float_g, quote};

/// `fmt.Sprintf("%v", v)`: strings bare, maps as `map[k:v ...]` with sorted keys, lists as
/// `[a b]`, `nil` as `<nil>`, floats as `%g` with the shortest digits.
///
/// ```
/// use kstruct_schema::go::sprint_v;
/// let v = serde_json::json!({"b": [1, "x", null], "a": 1.5e6});
/// assert_eq!(sprint_v(&v), "map[a:1.5e+06 b:[1 x <nil>]]");
/// ```
pub fn sprint_v(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v, false, false);
    out
}

/// `fmt.Sprintf("%#v", v)`: Go syntax. A `nil` inside a map or list prints with its static
/// type (`interface {}(nil)`), a `nil` at the top as `<nil>`.
///
/// ```
/// use kstruct_schema::go::sprint_sharp_v;
/// let v = serde_json::json!({"b": [1, "x", null], "a": 2.0});
/// assert_eq!(
///     sprint_sharp_v(&v),
///     r#"map[string]interface {}{"a":2, "b":[]interface {}{1, "x", interface {}(nil)}}"#
/// );
/// ```
pub fn sprint_sharp_v(v: &Value) -> String {
    let mut out = String::new();
    write(&mut out, v, true, false);
    out
}

/// `fmt.Sprintf("%T", v)`: the dynamic type's name (`<nil>` for `nil`).
///
/// ```
/// assert_eq!(kstruct_schema::go::type_name(&serde_json::json!({})), "map[string]interface {}");
/// assert_eq!(kstruct_schema::go::type_name(&serde_json::json!(1.5)), "float64");
/// ```
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// A number as the decoders hold it: `int64` when it fits, else `float64`.
fn number(n: &serde_json::Number) -> String {
    match n.as_i64() {
        Some(i) => i.to_string(),
        None => format_float_g(n.as_f64().unwrap_or(0.0)),
    }
}

/// `%v` (`sharp` false) or `%#v` (`sharp` true) of `v`; `nested` inside a map or list.
fn write(out: &mut String, v: &Value, sharp: bool, nested: bool) {
    crate::grow(|| match v {
        Value::Null if sharp && nested => out.push_str("interface {}(nil)"),
        Value::Null => out.push_str("<nil>"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) if sharp => out.push_str(&quote(s)),
        Value::String(s) => out.push_str(s),
        Value::Array(items) => {
            out.push_str(if sharp { "[]interface {}{" } else { "[" });
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(if sharp { ", " } else { " " });
                }
                write(out, item, sharp, true);
            }
            out.push(if sharp { '}' } else { ']' });
        }
        Value::Object(m) => {
            out.push_str(if sharp { "map[string]interface {}{" } else { "map[" });
            // Keys are a `BTreeMap`'s, in byte order: `fmt` sorts string keys the same way.
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(if sharp { ", " } else { " " });
                }
                if sharp {
                    out.push_str(&quote(k));
                } else {
                    out.push_str(k);
                }
                out.push(':');
                write(out, item, sharp, true);
            }
            out.push(if sharp { '}' } else { ']' });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn prints_as_fmt_does() {
        assert_eq!(sprint_v(&json!(null)), "<nil>");
        assert_eq!(sprint_v(&json!({})), "map[]");
        assert_eq!(sprint_v(&json!([])), "[]");
        assert_eq!(sprint_v(&json!(-9223372036854775808i64)), "-9223372036854775808");
        // Beyond int64, the decoders hold a float64.
        assert_eq!(sprint_v(&json!(9223372036854775808u64)), "9.223372036854776e+18");
        assert_eq!(sprint_v(&json!(100000.0)), "100000");
        assert_eq!(sprint_sharp_v(&json!("a\"\n")), r#""a\"\n""#);
        assert_eq!(sprint_sharp_v(&json!([])), "[]interface {}{}");
        assert_eq!(sprint_sharp_v(&json!({})), "map[string]interface {}{}");
        assert_eq!(sprint_sharp_v(&json!(null)), "<nil>");
        assert_eq!(
            sprint_sharp_v(&json!({"é": null})),
            r#"map[string]interface {}{"é":interface {}(nil)}"#
        );
        assert_eq!(type_name(&json!(1)), "int64");
        assert_eq!(type_name(&json!([1])), "[]interface {}");
    }

    #[test]
    fn deep_values_print() {
        let mut v = json!(1);
        for _ in 0..20_000 {
            v = Value::Array(vec![v]);
        }
        assert!(sprint_v(&v).starts_with("[[[["));
        assert!(sprint_sharp_v(&v).ends_with("}}}}"));
        kstruct_deep_drop(v);
    }

    /// Drops a deep value without recursing (serde_json's drop would).
    fn kstruct_deep_drop(v: Value) {
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            if let Value::Array(items) = v {
                stack.extend(items);
            }
        }
    }
}
