//! The checks of kube-openapi's `SchemaValidator` at one schema node, each with its message,
//! and the result they add to. The interpreter ([`super::openapi`]) and compiled validators
//! (through [`compiled::v1`](crate::compiled::v1)) call the same functions, so that a message
//! exists once.
//!
//! Positions are [`At`]s, rendered only when a check fails: kube-openapi names a value by its
//! own dotted path (`spec.items[0].name`, additionalProperties keys joined with `.` even at the
//! root), which the API server appends to the field path as one piece.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde_json::Value;

use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::go::{format_float_g, quote};

use super::formats;
use crate::objectmeta::coerce::At;

/// One kube-openapi error: its code decides the field error it becomes.
#[derive(Debug, Clone)]
enum Fail {
    Type {
        name: String,
        msg: String,
        value: String,
    },
    Required {
        name: String,
        msg: String,
    },
    Enum {
        name: String,
        msg: String,
        value: Value,
        values: Vec<Value>,
    },
    TooLong {
        name: String,
        msg: String,
        max: i64,
    },
    TooMany {
        name: String,
        msg: String,
        actual: i64,
        max: i64,
    },
    Other {
        name: String,
        msg: String,
        value: Option<Value>,
    },
    Composite {
        msg: String,
    },
}

impl Fail {
    fn msg(&self) -> &str {
        match self {
            Fail::Type { msg, .. }
            | Fail::Required { msg, .. }
            | Fail::Enum { msg, .. }
            | Fail::TooLong { msg, .. }
            | Fail::TooMany { msg, .. }
            | Fail::Other { msg, .. }
            | Fail::Composite { msg } => msg,
        }
    }
}

/// kube-openapi's `Result` of validating one value: its errors (each message kept once, the
/// first time it occurs) and the count of checks that matched, which picks the failing
/// `anyOf`/`oneOf` branch whose errors are reported.
#[derive(Debug, Default)]
pub struct Res {
    errors: Vec<Fail>,
    seen: HashSet<String>,
    matches: usize,
}

impl Res {
    /// An empty result.
    pub fn new() -> Res {
        Res::default()
    }

    /// Counts `n` more matched checks.
    #[inline]
    pub fn matched(&mut self, n: usize) {
        self.matches += n;
    }

    /// No error so far.
    #[inline]
    pub fn is_valid(&self) -> bool {
        self.errors.is_empty()
    }

    fn add(&mut self, f: Fail) {
        // A set, not a scan of the errors so far: thousands of failing items stay linear.
        if self.seen.insert(f.msg().to_string()) {
            self.errors.push(f);
        }
    }

    /// Adds another result's errors (those not already here) and matches.
    pub fn merge(&mut self, other: Res) {
        for e in other.errors {
            self.add(e);
        }
        self.matches += other.matches;
    }

    /// The errors as the API server's field errors, under `fld_path` (`None` is the
    /// reference's nil path, whose own errors print as `<nil>`).
    pub fn into_field_errors(self, fld_path: Option<&Path>) -> Vec<FieldError> {
        self.errors.into_iter().map(|f| to_field_error(fld_path, f)).collect()
    }
}

/// kube-openapi's name for the value at `at`: properties joined with `.` (no leading dot at
/// the root), additionalProperties keys with `.` always, items as `[i]`; the base is not part
/// of it.
pub fn name(at: &At<'_>) -> String {
    let mut steps = Vec::new();
    let mut cur = at;
    while !matches!(cur, At::Base(_)) {
        steps.push(cur);
        cur = match cur {
            At::Child(up, _) | At::Key(up, _) | At::Index(up, _) => up,
            At::Base(_) => break,
        };
    }
    let mut out = String::new();
    for step in steps.iter().rev() {
        match step {
            At::Child(_, k) if out.is_empty() => out.push_str(k),
            At::Child(_, k) | At::Key(_, k) => {
                out.push('.');
                out.push_str(k);
            }
            At::Index(_, i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            At::Base(_) => {}
        }
    }
    out
}

fn invalid_type(path: &str, type_: &str, observed: &str) -> Fail {
    Fail::Type {
        name: path.to_string(),
        msg: format!("{path} in body must be of type {type_}: {}", quote(observed)),
        value: observed.to_string(),
    }
}

/// The JSON kind kube-openapi sees, and its format (`schemaInfoForType`).
fn observed(data: &Value) -> (&'static str, &'static str) {
    match data {
        Value::Bool(_) => ("boolean", ""),
        Value::String(_) => ("string", ""),
        Value::Number(n) if n.is_i64() => ("integer", "int64"),
        Value::Number(_) => ("number", "float64"),
        Value::Array(_) => ("array", ""),
        _ => ("object", ""),
    }
}

/// `swag.IsFloat64AJSONInteger`.
fn is_float_a_json_integer(f: f64) -> bool {
    if f.is_nan() || f.is_infinite() || f.abs() > 9_007_199_254_740_991.0 {
        return false;
    }
    if f == f.trunc() {
        return true;
    }
    let diff = (f.round() - f).abs();
    diff / f.abs() < 1e-9
}

/// A `null` where the schema has types and is not nullable.
pub fn null_type(at: &At<'_>, types: &[&str], r: &mut Res) {
    r.add(invalid_type(&name(at), &types.join(","), "null"));
}

/// The type validator (`typeValidator`) for a non-null value: `types` and `format` as the
/// validator was built with (both may be empty). Counts a match when the value passes.
pub fn check_type(at: &At<'_>, types: &[&str], format: &str, data: &Value, r: &mut Res) {
    let (sch_type, observed_format) = observed(data);
    let has = |t: &str| types.contains(&t);
    let is_float_int = sch_type == "number" && data.as_f64().is_some_and(is_float_a_json_integer) && has("integer");
    let is_int_float = sch_type == "integer" && has("number");
    let kind_string_or_slice = matches!(data, Value::String(_) | Value::Array(_));
    let format_matches = has(sch_type) || observed_format == format || is_float_int || is_int_float;
    if !(kind_string_or_slice || format.is_empty() || format_matches) {
        r.add(invalid_type(&name(at), format, observed_format));
        return;
    }
    let numeric = has("number") || has("integer");
    if kind_string_or_slice && !(numeric || format.is_empty()) {
        r.matches += 1;
        return;
    }
    if !(has(sch_type) || is_float_int || is_int_float) {
        r.add(invalid_type(&name(at), &types.join(","), sch_type));
        return;
    }
    r.matches += 1;
}

/// `maxLength` and `minLength` (in characters); returns whether `pattern` is checked next
/// (not after a length error).
pub fn string_lengths(at: &At<'_>, text: &str, min: Option<i64>, max: Option<i64>, r: &mut Res) -> bool {
    let len = text.chars().count() as i64;
    if let Some(max) = max
        && len > max
    {
        let path = name(at);
        r.add(Fail::TooLong {
            msg: format!("{path} in body should be at most {max} chars long"),
            name: path,
            max,
        });
        return false;
    }
    if let Some(min) = min
        && len < min
    {
        let path = name(at);
        r.add(Fail::Other {
            msg: format!("{path} in body should be at least {min} chars long"),
            name: path,
            value: Some(Value::String(text.to_string())),
        });
        return false;
    }
    true
}

/// A schema's `pattern`, compiled once, on first use.
#[derive(Debug)]
pub struct Pattern {
    source: &'static str,
    regex: OnceLock<Option<regex::Regex>>,
}

impl Pattern {
    /// The pattern `source`, as the schema writes it.
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source,
            regex: OnceLock::new(),
        }
    }

    /// The pattern as the schema writes it.
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The compiled pattern; `None` for one the regex crate does not take (rare: the schema's
    /// Go syntax was checked), which is then not enforced.
    pub fn regex(&self) -> Option<&regex::Regex> {
        self.regex.get_or_init(|| regex::Regex::new(self.source).ok()).as_ref()
    }
}

/// `pattern`: `source` is the schema's text, `regex` its compiled form (`None`: not enforced).
pub fn pattern(at: &At<'_>, text: &str, source: &str, regex: Option<&regex::Regex>, r: &mut Res) {
    if let Some(re) = regex
        && !re.is_match(text)
    {
        let path = name(at);
        r.add(Fail::Other {
            msg: format!("{path} in body should match '{source}'"),
            name: path,
            value: Some(Value::String(text.to_string())),
        });
    }
}

/// A string `format` kube-openapi's registry knows (the caller decided it is checked).
pub fn format(at: &At<'_>, format: &str, text: &str, r: &mut Res) {
    if !formats::valid(format, text) {
        let path = name(at);
        r.add(Fail::Type {
            msg: format!("{path} in body must be of type {format}: {}", quote(text)),
            name: path,
            value: text.to_string(),
        });
    }
}

/// The numeric checks of one node.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Numeric {
    /// `multipleOf`.
    pub multiple_of: Option<f64>,
    /// `minimum`.
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`.
    pub exclusive_minimum: bool,
    /// `maximum`.
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`.
    pub exclusive_maximum: bool,
    /// The type and format values and bounds must fit.
    pub kind: NumberKind,
}

/// The type and format kube-openapi's number validator holds a node's values and bounds to
/// (`IsValueValidAgainstRange`): taken from the node's type when it has exactly one, with
/// the format only when it belongs to that type.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NumberKind {
    /// No single numeric type: nothing to fit.
    #[default]
    Any,
    /// `type: integer` without a format: the value must be an int64.
    Integer,
    /// `type: integer, format: int32`.
    Int32,
    /// `type: integer, format: int64`.
    Int64,
    /// `type: number`, with no format or `double`: any float64 fits.
    Number,
    /// `type: number, format: float`: the value must fit a float32.
    Float,
}

impl NumberKind {
    /// The kind of a node whose only type is `type_` (empty when it has none or several),
    /// with the format the validator kept.
    pub fn of(type_: &str, format: &str) -> NumberKind {
        match (type_, format) {
            ("integer", "int32") => NumberKind::Int32,
            ("integer", "int64") => NumberKind::Int64,
            ("integer", _) => NumberKind::Integer,
            ("number", "float") => NumberKind::Float,
            ("number", _) => NumberKind::Number,
            _ => NumberKind::Any,
        }
    }

    /// Whether values of this kind are checked for their range.
    pub fn checks_range(self) -> bool {
        matches!(
            self,
            NumberKind::Integer | NumberKind::Int32 | NumberKind::Int64 | NumberKind::Float
        )
    }

    /// `IsValueValidAgainstRange` on a number's Go text: the error, naming `what`, when it
    /// does not fit.
    fn range_error(self, text: &str, what: &str, path: &str) -> Option<String> {
        let fits = match self {
            NumberKind::Integer | NumberKind::Int64 => text.parse::<i64>().is_ok(),
            NumberKind::Int32 => text.parse::<i32>().is_ok(),
            // Go's ParseFloat(s, 32) fails only beyond float32's range; Rust's parse rounds
            // the decimal text to f32 directly as Go does.
            NumberKind::Float => text.parse::<f32>().is_ok_and(f32::is_finite),
            NumberKind::Any | NumberKind::Number => true,
        };
        let type_ = match self {
            NumberKind::Integer => "integer (default format)",
            NumberKind::Int32 => "integer with format int32",
            NumberKind::Int64 => "integer with format int64",
            NumberKind::Float => "number with format float",
            NumberKind::Any | NumberKind::Number => return None,
        };
        (!fits).then(|| format!("{what} value must be of type {type_} in {path}"))
    }
}

/// A JSON number as the API server's decoder gives it to kube-openapi: an int64 when it is
/// an integer in int64's range, a float64 otherwise.
#[derive(Debug, Clone, Copy)]
enum GoNumber {
    Int(i64),
    Float(f64),
}

impl GoNumber {
    fn of(data: &Value) -> GoNumber {
        match data.as_i64() {
            Some(i) => GoNumber::Int(i),
            None => GoNumber::Float(data.as_f64().unwrap_or(f64::NAN)),
        }
    }

    /// swag's `FormatInt64` / `FormatFloat64` (`'f'`, shortest).
    fn text(self) -> String {
        match self {
            GoNumber::Int(i) => i.to_string(),
            GoNumber::Float(f) => format!("{f}"),
        }
    }

    fn as_f64(self) -> f64 {
        match self {
            GoNumber::Int(i) => i as f64,
            GoNumber::Float(f) => f,
        }
    }

    /// `%v`.
    fn go_text(self) -> String {
        match self {
            GoNumber::Int(i) => i.to_string(),
            GoNumber::Float(f) => format_float_g(f),
        }
    }

    fn json(self) -> Value {
        match self {
            GoNumber::Int(i) => Value::from(i),
            GoNumber::Float(f) => Value::from(f),
        }
    }
}

/// Go's `int64(f)` on amd64: truncation, and the minimum for NaN and out-of-range values.
fn go_int64(f: f64) -> i64 {
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f as i64
    }
}

/// The number validator (`numberValidator.Validate`): the value's range for the node's type
/// and format, then `multipleOf`, `minimum` and `maximum`, each compared in the value's Go
/// type when the bound fits the node's type too, as float64s otherwise (counts a match).
pub fn number(at: &At<'_>, data: &Value, v: &Numeric, r: &mut Res) {
    let path = name(at);
    let value = GoNumber::of(data);
    let fail = |msg: String, shown: Value| Fail::Other {
        name: path.clone(),
        msg,
        value: Some(shown),
    };
    let composite = |msg: String| Fail::Composite { msg };
    if let Some(e) = v.kind.range_error(&value.text(), "Checked", &path) {
        r.add(composite(e));
    }
    // A bound compares natively when it fits the node's type; else both are float64s.
    let native = |bound: f64, what: &str, r: &mut Res| -> GoNumber {
        match v.kind.range_error(&GoNumber::Float(bound).text(), what, &path) {
            None => value,
            Some(e) => {
                r.add(composite(e));
                GoNumber::Float(value.as_f64())
            }
        }
    };
    if let Some(factor) = v.multiple_of {
        let (positive, multiple, shown_factor) = match native(factor, "MultipleOf", r) {
            GoNumber::Int(i) => {
                let f = go_int64(factor);
                (f > 0, f > 0 && i.wrapping_div(f).wrapping_mul(f) == i, GoNumber::Int(f))
            }
            GoNumber::Float(x) => {
                let mult = if factor < 1.0 { 1.0 / factor * x } else { x / factor };
                (factor > 0.0, is_float_a_json_integer(mult), GoNumber::Float(factor))
            }
        };
        if !positive {
            r.add(fail(
                format!(
                    "factor MultipleOf declared for {path} must be positive: {}",
                    shown_factor.go_text()
                ),
                shown_factor.json(),
            ));
        } else if !multiple {
            r.add(fail(
                format!("{path} in body should be a multiple of {}", shown_factor.go_text()),
                data.clone(),
            ));
        }
    }
    if let Some(min) = v.minimum {
        let (below, shown) = match native(min, "Minimum boundary", r) {
            GoNumber::Int(i) => {
                let m = go_int64(min);
                (
                    (!v.exclusive_minimum && i < m) || (v.exclusive_minimum && i <= m),
                    GoNumber::Int(m),
                )
            }
            GoNumber::Float(x) => (
                (!v.exclusive_minimum && x < min) || (v.exclusive_minimum && x <= min),
                GoNumber::Float(min),
            ),
        };
        if below {
            let rel = if v.exclusive_minimum {
                "greater than"
            } else {
                "greater than or equal to"
            };
            r.add(fail(
                format!("{path} in body should be {rel} {}", shown.go_text()),
                data.clone(),
            ));
        }
    }
    if let Some(max) = v.maximum {
        let (above, shown) = match native(max, "Maximum boundary", r) {
            GoNumber::Int(i) => {
                let m = go_int64(max);
                (
                    (!v.exclusive_maximum && i > m) || (v.exclusive_maximum && i >= m),
                    GoNumber::Int(m),
                )
            }
            GoNumber::Float(x) => (
                (!v.exclusive_maximum && x > max) || (v.exclusive_maximum && x >= max),
                GoNumber::Float(max),
            ),
        };
        if above {
            let rel = if v.exclusive_maximum {
                "less than"
            } else {
                "less than or equal to"
            };
            r.add(fail(
                format!("{path} in body should be {rel} {}", shown.go_text()),
                data.clone(),
            ));
        }
    }
    r.matches += 1;
}

/// `minItems` and `maxItems`.
pub fn item_counts(at: &At<'_>, len: usize, min: Option<i64>, max: Option<i64>, r: &mut Res) {
    counts(at, len, min, max, "items", r);
}

/// `minItems`/`maxItems` or `minProperties`/`maxProperties`: the same checks and messages, with
/// `noun` (`items`, `properties`) in the texts.
fn counts(at: &At<'_>, len: usize, min: Option<i64>, max: Option<i64>, noun: &str, r: &mut Res) {
    let size = len as i64;
    if let Some(min) = min
        && size < min
    {
        let path = name(at);
        r.add(Fail::Other {
            msg: format!("{path} in body should have at least {min} {noun}"),
            name: path,
            value: Some(Value::from(size)),
        });
    }
    if let Some(max) = max
        && size > max
    {
        let path = name(at);
        r.add(Fail::TooMany {
            msg: format!("{path} in body should have at most {max} {noun}"),
            name: path,
            actual: size,
            max,
        });
    }
}

/// `uniqueItems: true`.
pub fn unique_items(at: &At<'_>, items: &[Value], r: &mut Res) {
    // Equal values have equal JSON texts (serde_json's maps are ordered): hashing the texts
    // keeps a long list linear where kube-openapi compares every pair.
    let mut seen = HashSet::new();
    let dup = items.iter().any(|i| !seen.insert(identity(i)));
    if dup {
        let path = name(at);
        r.add(Fail::Other {
            msg: format!("{path} in body shouldn't contain duplicates"),
            name: path,
            value: None,
        });
    }
}

/// What `reflect.DeepEqual` compares of a decoded JSON value: numbers by their Go type and
/// value (`1` and `1.0` differ), the rest by content.
fn identity(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_i64() => format!("i{n}"),
        Value::Number(n) if n.is_u64() => format!("u{n}"),
        // `0.0 == -0.0`, as Go compares them.
        Value::Number(n) => match n.as_f64().unwrap_or(f64::NAN) {
            0.0 => "f0".to_string(),
            f => format!("f{}", f.to_bits()),
        },
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(identity).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(map) => {
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", quote(k), identity(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => other.to_string(),
    }
}

/// `enum`, with Go's conversions between the value's and each entry's types.
pub fn enum_(at: &At<'_>, data: &Value, entries: &[Value], r: &mut Res) {
    if entries.is_empty() || entries.iter().any(|e| enum_matches(data, e)) {
        return;
    }
    let path = name(at);
    r.add(Fail::Enum {
        msg: format!("{path} in body should be one of {}", go_print_list(entries)),
        name: path,
        value: data.clone(),
        values: entries.to_vec(),
    });
}

fn enum_matches(data: &Value, entry: &Value) -> bool {
    match (data, entry) {
        (Value::Null, _) | (_, Value::Null) => false,
        (Value::Number(d), Value::Number(e)) => {
            match (d.as_i64().filter(|_| d.is_i64()), e.as_i64().filter(|_| e.is_i64())) {
                (Some(a), Some(b)) => a == b,
                // A float value converts to the entry's int64 by truncation.
                (None, Some(b)) => d.as_f64().is_some_and(|f| f as i64 == b),
                (Some(a), None) => e.as_f64() == Some(a as f64),
                (None, None) => d.as_f64() == e.as_f64(),
            }
        }
        // Go converts an int64 to a string as the rune with that code point.
        (Value::Number(d), Value::String(e)) => d.as_i64().filter(|_| d.is_i64()).is_some_and(|i| {
            u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .unwrap_or('\u{fffd}')
                .to_string()
                == *e
        }),
        (a, b) => a == b,
    }
}

/// Go's `%v` of a `[]interface{}` (only in a message that never reaches a field error).
fn go_print_list(values: &[Value]) -> String {
    let parts: Vec<String> = values
        .iter()
        .map(|v| match v {
            Value::String(s) => s.clone(),
            Value::Null => "<nil>".into(),
            other => other.to_string(),
        })
        .collect();
    format!("[{}]", parts.join(" "))
}

/// `minProperties` and `maxProperties`.
pub fn property_counts(at: &At<'_>, len: usize, min: Option<i64>, max: Option<i64>, r: &mut Res) {
    counts(at, len, min, max, "properties", r);
}

/// A key `additionalProperties: false` forbids.
pub fn forbidden_property(at: &At<'_>, key: &str, r: &mut Res) {
    let path = name(at);
    r.add(Fail::Other {
        msg: format!("{path}.{key} in body is a forbidden property"),
        name: path,
        value: Some(Value::String(key.to_string())),
    });
}

/// A `required` key that is absent.
pub fn required(at: &At<'_>, key: &str, r: &mut Res) {
    let name = format!("{}.{key}", name(at));
    r.add(Fail::Required {
        msg: format!("{name} in body is required"),
        name,
    });
}

/// `anyOf`: `branches` results, computed on demand (the first valid one ends the search);
/// when none is valid, the error and the errors of the branch with the most matches.
pub fn any_of(at: &At<'_>, branches: usize, mut eval: impl FnMut(usize) -> Res, r: &mut Res) {
    let mut best: Option<Res> = None;
    for i in 0..branches {
        let res = eval(i);
        if res.is_valid() {
            return;
        }
        if best.as_ref().is_none_or(|b| res.matches > b.matches) {
            best = Some(res);
        }
    }
    r.add(Fail::Composite {
        msg: format!("{} must validate at least one schema (anyOf)", quote(&name(at))),
    });
    if let Some(b) = best {
        r.merge(b);
    }
}

/// `oneOf`: exactly one branch valid; otherwise the error, with the errors of the best
/// failing branch when none is valid.
pub fn one_of(at: &At<'_>, branches: usize, mut eval: impl FnMut(usize) -> Res, r: &mut Res) {
    let mut best: Option<Res> = None;
    let mut validated = 0;
    for i in 0..branches {
        let res = eval(i);
        if res.is_valid() {
            validated += 1;
        } else if validated == 0 && best.as_ref().is_none_or(|b| res.matches > b.matches) {
            best = Some(res);
        }
    }
    if validated == 1 {
        return;
    }
    let extra = if validated == 0 {
        "Found none valid".to_string()
    } else {
        format!("Found {validated} valid alternatives")
    };
    r.add(Fail::Composite {
        msg: format!(
            "{} must validate one and only one schema (oneOf). {extra}",
            quote(&name(at))
        ),
    });
    if validated == 0
        && let Some(b) = best
    {
        r.merge(b);
    }
}

/// `allOf`: every branch's errors, and the error when any failed.
pub fn all_of(at: &At<'_>, branches: usize, mut eval: impl FnMut(usize) -> Res, r: &mut Res) {
    let mut valid = 0;
    for i in 0..branches {
        let res = eval(i);
        if res.is_valid() {
            valid += 1;
        }
        r.merge(res);
    }
    if valid != branches {
        let extra = if valid == 0 { ". None validated" } else { "" };
        r.add(Fail::Composite {
            msg: format!("{} must validate all the schemas (allOf){extra}", quote(&name(at))),
        });
    }
}

/// `not`: `res` is the result of the negated schema.
pub fn not(at: &At<'_>, res: &Res, r: &mut Res) {
    if res.is_valid() {
        r.add(Fail::Composite {
            msg: format!("{} must not validate the schema (not)", quote(&name(at))),
        });
    }
}

/// `kubeOpenAPIResultToFieldErrors`.
fn to_field_error(fld_path: Option<&Path>, f: Fail) -> FieldError {
    let (kind, name, value, detail) = match f {
        Fail::Type { name, msg, value } => (ErrorKind::TypeInvalid, name, BadValue::String(value), msg),
        Fail::Required { name, .. } => (ErrorKind::Required, name, BadValue::Omit, String::new()),
        Fail::Enum {
            name, value, values, ..
        } => {
            let list: Vec<String> = values
                .iter()
                .map(|v| match v {
                    Value::String(s) => quote(s),
                    other => quote(&kstruct_schema::go::marshal_json(other)),
                })
                .collect();
            (
                ErrorKind::NotSupported,
                name,
                BadValue::from(&value),
                format!("supported values: {}", list.join(", ")),
            )
        }
        Fail::TooLong { name, max, .. } => {
            let unit = if max == 1 { "byte" } else { "bytes" };
            (
                ErrorKind::TooLong,
                name,
                BadValue::Omit,
                format!("may not be more than {max} {unit}"),
            )
        }
        Fail::TooMany { name, actual, max, .. } => {
            let unit = if max == 1 { "item" } else { "items" };
            (
                ErrorKind::TooMany,
                name,
                BadValue::Int(actual),
                format!("must have at most {max} {unit}"),
            )
        }
        Fail::Other { name, msg, value } => (
            ErrorKind::Invalid,
            name,
            value.as_ref().map_or(BadValue::String(String::new()), BadValue::from),
            msg,
        ),
        // Not a kube-openapi `Validation`: reported at the path the validation started from.
        Fail::Composite { msg } => (ErrorKind::Invalid, String::new(), BadValue::String(String::new()), msg),
    };
    // The error's name is appended as one piece; the nil path prints as `<nil>`.
    let base = fld_path.cloned().unwrap_or_else(Path::nil);
    let path = match name.as_str() {
        "" | "." => base,
        name => base.child(name.strip_prefix('.').unwrap_or(name)),
    };
    FieldError::new(kind, &path, value, detail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_are_kube_openapi_s() {
        let base = Path::nil();
        let root = At::Base(&base);
        let spec = root.child("spec");
        let items = spec.child("items");
        let first = items.index(0);
        let key = first.key("a.b");
        assert_eq!(name(&root), "");
        assert_eq!(name(&key), "spec.items[0].a.b");
        // additionalProperties keys at the root keep their dot; items at the root have none.
        assert_eq!(name(&root.key("k")), ".k");
        assert_eq!(name(&root.index(2)), "[2]");
    }

    #[test]
    fn unique_items_compare_as_go_does() {
        let base = Path::nil();
        let at = At::Base(&base);
        let dup = |items: Value| {
            let mut r = Res::new();
            unique_items(&at, items.as_array().unwrap(), &mut r);
            !r.is_valid()
        };
        assert!(!dup(json!([1, 1.0, "1"])), "1 and 1.0 are different Go values");
        assert!(dup(json!([{"a": [1, {"b": null}]}, {"a": [1, {"b": null}]}])));
        assert!(!dup(json!([{"a": 1}, {"a": 2}, [1], [1, 1]])));
        assert!(dup(json!([0.5, 0.5])));
        assert!(dup(json!([0.0, -0.0])));
    }

    #[test]
    fn repeated_messages_are_kept_once_in_linear_time() {
        let base = Path::nil();
        let at = At::Base(&base);
        let mut r = Res::new();
        for _ in 0..100_000 {
            required(&at, "a", &mut r);
        }
        assert_eq!(r.into_field_errors(None).len(), 1);
    }

    fn validate(schema: &str, value: Value) -> Vec<String> {
        let s = kstruct_schema::convert::from_text(schema).unwrap().unwrap();
        super::super::validate_value(None, &s, &value)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn numbers_must_fit_their_type_and_format() {
        let schema = "type: object
properties:
  tags: {type: array, items: {type: integer, format: int32}}
  size: {type: integer}
  ratio: {type: number, format: float}
  known: {type: integer, format: int64}
  port: {x-kubernetes-int-or-string: true}
  odd: {type: integer, format: uint32, maximum: 1.5}
  enabled: {type: number, multipleOf: 0}
";
        assert_eq!(
            validate(
                schema,
                json!({"tags": [1, 3000000000u64], "size": 1.5, "ratio": 1e39, "known": true, "odd": 2, "enabled": 1})
            ),
            [
                // The factor is the error's value.
                "enabled: Invalid value: 0: factor MultipleOf declared for enabled must be positive: 0",
                "known: Invalid value: \"\": known in body must be of type int64: \"\"",
                "<nil>: Invalid value: \"\": Maximum boundary value must be of type integer (default format) in odd",
                "odd: Invalid value: 2: odd in body should be less than or equal to 1.5",
                "<nil>: Invalid value: \"\": Checked value must be of type number with format float in ratio",
                "size: Invalid value: \"number\": size in body must be of type integer: \"number\"",
                "<nil>: Invalid value: \"\": Checked value must be of type integer (default format) in size",
                "<nil>: Invalid value: \"\": Checked value must be of type integer with format int32 in tags[1]",
            ]
        );
        // Fitting values, and integers written as floats, pass.
        assert!(
            validate(
                schema,
                json!({"tags": [2147483647], "size": 2.0, "ratio": 1.5, "port": 1})
            )
            .is_empty()
        );
    }
}
