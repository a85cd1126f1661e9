//! The evaluator: cel-go's interpreter semantics over the expanded tree (errors absorbed by
//! `&&`, `||` and the comprehension macros as cel-go absorbs them, heterogeneous equality,
//! overflow and division errors) with cel-go's runtime cost tracking, which stops an
//! evaluation at the per-call limit as the API server's does.
//!
//! ```
//! use kstruct_cel::eval::{evaluate, Vars};
//! use kstruct_cel::value::Value;
//!
//! let expr = kstruct_cel::parse("self.all(x, x > 0) && size(self) == 3").unwrap();
//! let this = Value::list(vec![Value::Int(1), Value::Int(2), Value::Int(3)]);
//! let out = evaluate(&expr, &Vars::new().with("self", this), u64::MAX);
//! assert!(matches!(out.result, Ok(Value::Bool(true))));
//! ```

use std::sync::Arc;

use crate::ast::{Comprehension, Expr, ExprKind, Literal};
use crate::library;
use crate::value::{EvalError, List, ListKind, Map, Value};

/// The variables an expression sees (`self`, `oldSelf`...).
#[derive(Debug, Clone, Default)]
pub struct Vars {
    vars: Vec<(String, Value)>,
}

impl Vars {
    /// No variables.
    pub fn new() -> Vars {
        Vars::default()
    }

    /// These variables and `name`.
    #[must_use]
    pub fn with(mut self, name: &str, value: Value) -> Vars {
        self.vars.push((name.to_owned(), value));
        self
    }

    /// Adds (or shadows) a variable.
    pub fn set(&mut self, name: &str, value: Value) {
        self.vars.push((name.to_owned(), value));
    }

    fn get(&self, name: &str) -> Option<&Value> {
        self.vars.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v)
    }
}

/// A finished evaluation: the value (or error) and what it cost, which the API server counts
/// against its budget either way.
#[derive(Debug, Clone)]
pub struct Evaluated {
    /// The expression's value, or cel-go's evaluation error (`no such key: x`, `division by
    /// zero`...), or [`COST_LIMIT_EXCEEDED`] (with `cost_exceeded` set).
    pub result: Result<Value, EvalError>,
    /// cel-go's actual cost of the evaluation.
    pub cost: u64,
}

/// The message cel-go gives when an evaluation passes its cost limit.
pub const COST_LIMIT_EXCEEDED: &str = "operation cancelled: actual cost limit exceeded";

/// Evaluates `expr` with `vars`, stopping when the cost passes `limit`.
pub fn evaluate(expr: &Expr, vars: &Vars, limit: u64) -> Evaluated {
    let mut e = Evaluator {
        scopes: Vec::new(),
        vars,
        cost: 0,
        limit,
    };
    let result = e.eval(expr);
    Evaluated { result, cost: e.cost }
}

struct Evaluator<'v> {
    /// Comprehension variables, innermost last. An accumulator can hold an error, which a
    /// later step may absorb (`exists` over `[0, 1]` with `1 / x == 1` is true).
    scopes: Vec<(String, R)>,
    vars: &'v Vars,
    cost: u64,
    limit: u64,
}

type R = Result<Value, EvalError>;

fn no_overload() -> EvalError {
    EvalError::no_such_overload()
}

impl Evaluator<'_> {
    fn charge(&mut self, n: u64) -> Result<(), EvalError> {
        self.cost = self.cost.saturating_add(n);
        if self.cost > self.limit {
            return Err(EvalError {
                message: COST_LIMIT_EXCEEDED.to_owned(),
                cost_exceeded: true,
            });
        }
        Ok(())
    }

    fn lookup(&self, name: &str) -> Option<R> {
        if let Some((_, v)) = self.scopes.iter().rev().find(|(n, _)| n == name) {
            return Some(v.clone());
        }
        self.vars.get(name).cloned().map(Ok)
    }

    fn eval(&mut self, e: &Expr) -> R {
        match &e.kind {
            ExprKind::Literal(l) => Ok(literal(l)),
            ExprKind::Ident(name) => {
                self.charge(1)?;
                match self.lookup(name) {
                    Some(v) => readable(v?),
                    None => type_value(name).ok_or_else(|| EvalError::new(format!("no such attribute(s): {name}"))),
                }
            }
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => {
                // `google.protobuf.Duration`, `net.IP`: a qualified type name, not a selection.
                if !*test_only
                    && let Some(name) = qualified_name(e)
                    && let Some(root) = name.split('.').next()
                    && self.lookup(root).is_none()
                    && let Some(t) = type_value(&name)
                {
                    self.charge(1)?;
                    return Ok(t);
                }
                let (v, relative) = self.attribute_operand(operand)?;
                self.charge(1 + relative)?;
                select(&v, field, *test_only)
            }
            ExprKind::Call { function, target, args } => self.call(function, target.as_deref(), args),
            ExprKind::List {
                elements,
                optional_indices,
            } => {
                // cel-go builds a list of constants once, when it plans the program: free.
                if !is_constant(e) {
                    self.charge(10)?;
                }
                let mut items = Vec::with_capacity(elements.len());
                let mut first_error = None;
                for (i, el) in elements.iter().enumerate() {
                    match self.eval(el) {
                        Ok(v) if optional_indices.contains(&i) => match v {
                            Value::Optional(Some(inner)) => items.push((*inner).clone()),
                            Value::Optional(None) => {}
                            _ => return Err(no_overload()),
                        },
                        Ok(v) => items.push(v),
                        Err(err) if err.cost_exceeded => return Err(err),
                        Err(err) => {
                            first_error.get_or_insert(err);
                        }
                    }
                }
                match first_error {
                    Some(err) => Err(err),
                    None => Ok(Value::list(items)),
                }
            }
            ExprKind::Map { entries } => {
                if !is_constant(e) {
                    self.charge(30)?;
                }
                let mut out: Vec<(Value, Value)> = Vec::with_capacity(entries.len());
                for entry in entries {
                    let k = self.eval(&entry.key)?;
                    let v = self.eval(&entry.value)?;
                    let v = if entry.optional {
                        match v {
                            Value::Optional(Some(inner)) => (*inner).clone(),
                            Value::Optional(None) => continue,
                            _ => return Err(no_overload()),
                        }
                    } else {
                        v
                    };
                    if !matches!(k, Value::String(_) | Value::Int(_) | Value::Uint(_) | Value::Bool(_)) {
                        return Err(EvalError::new(format!("unsupported key type: {}", k.type_name())));
                    }
                    if out.iter().any(|(x, _)| x.equals(&k) == Some(true)) {
                        return Err(EvalError::new(format!("Failed with repeated key: {}", display(&k))));
                    }
                    out.push((k, v));
                }
                Ok(Value::map(out))
            }
            ExprKind::Struct { name, .. } => Err(EvalError::new(format!("unknown type: {name}"))),
            ExprKind::Comprehension(c) => self.comprehension(c),
        }
    }

    fn call(&mut self, function: &str, target: Option<&Expr>, args: &[Expr]) -> R {
        match (function, target, args) {
            ("_&&_", None, [a, b]) => return self.logic(a, b, false),
            ("_||_", None, [a, b]) => return self.logic(a, b, true),
            ("_?_:_", None, [c, t, f]) => {
                return match self.eval(c)? {
                    Value::Bool(true) => self.eval(t),
                    Value::Bool(false) => self.eval(f),
                    _ => Err(no_overload()),
                };
            }
            ("@not_strictly_false", None, [a]) => {
                return match self.eval(a) {
                    Ok(Value::Bool(b)) => Ok(Value::Bool(b)),
                    Err(err) if err.cost_exceeded => Err(err),
                    _ => Ok(Value::Bool(true)),
                };
            }
            ("_?._", None, [operand, field]) => {
                let (v, relative) = self.attribute_operand(operand)?;
                let ExprKind::Literal(Literal::String(field)) = &field.kind else {
                    return Err(no_overload());
                };
                self.charge(1 + relative)?;
                return optional_select(&v, field);
            }
            ("_[_]" | "_[?_]", None, [operand, key]) => return self.index(function, operand, key),
            _ => {}
        }
        // `sets.contains(a, b)`, `optional.of(x)`: a qualified function name reads as a call on
        // an identifier that is no variable, as cel-go resolves it.
        if let Some(t) = target
            && let ExprKind::Ident(namespace) = &t.kind
            && self.lookup(namespace).is_none()
        {
            let qualified = format!("{namespace}.{function}");
            return self.call(&qualified, None, args);
        }
        let operands: Vec<&Expr> = target.into_iter().chain(args).collect();
        let mut values = Vec::with_capacity(operands.len());
        let mut first_error = None;
        for operand in &operands {
            match self.eval(operand) {
                Ok(v) => values.push(v),
                Err(err) if err.cost_exceeded => return Err(err),
                Err(err) => {
                    // cel-go stops at a failed argument of a call of three or more operands,
                    // and evaluates both of a binary call's before it looks at either.
                    if operands.len() > 2 {
                        return Err(err);
                    }
                    values.push(Value::Null);
                    first_error.get_or_insert((values.len() - 1, err));
                }
            }
        }
        // A failed call is still charged, for its operands with an error's size, 1.
        let failed = first_error.map(|(at, err)| {
            let other = values
                .iter()
                .enumerate()
                .find(|(i, _)| *i != at)
                .map(|(_, v)| v.clone());
            values[at] = error_stand_in(other.as_ref());
            err
        });
        let receiver = target.map(|_| values.remove(0));
        if let Some(err) = failed {
            let cost = library::cost(function, receiver.as_ref(), &values, &Value::Null);
            self.charge_after_error(cost, &err)?;
            return Err(err);
        }
        let result = library::call(function, receiver.as_ref(), &values)?;
        let cost = library::cost(function, receiver.as_ref(), &values, &result);
        self.charge(cost)?;
        Ok(result)
    }

    /// `a[k]` and `a[?k]`: cel-go makes the index a qualifier of `a`'s attribute (a unit), and
    /// wraps an `a` that is no attribute in a relative attribute (another unit).
    fn index(&mut self, function: &str, operand: &Expr, key: &Expr) -> R {
        let (v, relative) = self.attribute_operand(operand)?;
        let k = match self.eval(key) {
            Ok(k) => k,
            Err(err) => {
                self.charge_after_error(1 + relative, &err)?;
                return Err(err);
            }
        };
        self.charge(1 + relative)?;
        let values = [v, k];
        if function == "_[?_]" {
            optional_index(&values)
        } else {
            index(&values)
        }
    }

    /// The value a selection or an index applies to, and the unit of the relative attribute
    /// cel-go wraps it in when it is no attribute itself (charged even when it fails).
    fn attribute_operand(&mut self, operand: &Expr) -> Result<(Value, u64), EvalError> {
        let relative = u64::from(!is_attribute(operand));
        match self.eval(operand) {
            Ok(v) => Ok((v, relative)),
            Err(err) => {
                self.charge_after_error(relative, &err)?;
                Err(err)
            }
        }
    }

    /// Charges what a node costs when one of its operands failed with `err`; the limit's
    /// error replaces `err` when the charge crosses it.
    fn charge_after_error(&mut self, n: u64, err: &EvalError) -> Result<(), EvalError> {
        if err.cost_exceeded {
            return Ok(());
        }
        self.charge(n)
    }

    /// `&&` (`or` false) and `||` (`or` true): a decisive side wins over an error on the
    /// other; otherwise the left error, then the right one.
    fn logic(&mut self, a: &Expr, b: &Expr, or: bool) -> R {
        let left = self.eval(a);
        if let Ok(Value::Bool(v)) = &left
            && *v == or
        {
            return Ok(Value::Bool(or));
        }
        if let Err(err) = &left
            && err.cost_exceeded
        {
            return left;
        }
        let right = self.eval(b);
        if let Ok(Value::Bool(v)) = &right
            && *v == or
        {
            return Ok(Value::Bool(or));
        }
        match (left, right) {
            (Ok(Value::Bool(_)), Ok(Value::Bool(_))) => Ok(Value::Bool(!or)),
            (Err(err), _) => Err(err),
            (_, Err(err)) => Err(err),
            _ => Err(no_overload()),
        }
    }

    fn comprehension(&mut self, c: &Comprehension) -> R {
        let range = self.eval(&c.iter_range)?;
        let pairs: Vec<(Value, Value)> = match &range {
            Value::List(l) => l
                .items
                .iter()
                .enumerate()
                .map(|(i, v)| (Value::Int(i64::try_from(i).unwrap_or(i64::MAX)), v.clone()))
                .collect(),
            Value::Map(m) => m.entries.clone(),
            other => {
                return Err(EvalError::new(format!("cannot iterate over {}", other.type_name())));
            }
        };
        let is_list = matches!(range, Value::List(_));
        let accu = self.eval(&c.accu_init);
        let base = self.scopes.len();
        self.scopes.push((c.accu_var.clone(), accu));
        let result = self.fold(c, pairs, is_list, base);
        self.scopes.truncate(base);
        result
    }

    fn fold(&mut self, c: &Comprehension, pairs: Vec<(Value, Value)>, is_list: bool, base: usize) -> R {
        for (first, second) in pairs {
            // Each iteration costs one, as cel-go's fold charges.
            self.charge(1)?;
            match &c.iter_var2 {
                Some(v2) => {
                    self.scopes.push((c.iter_var.clone(), Ok(first)));
                    self.scopes.push((v2.clone(), Ok(second)));
                }
                None => {
                    let v = if is_list { second } else { first };
                    self.scopes.push((c.iter_var.clone(), Ok(v)));
                }
            }
            let go_on = self.eval(&c.loop_condition);
            let go_on = match go_on {
                Ok(Value::Bool(b)) => b,
                Ok(_) => return Err(no_overload()),
                Err(err) => return Err(err),
            };
            if !go_on {
                self.scopes.truncate(base + 1);
                break;
            }
            let step = self.eval(&c.loop_step);
            if let Err(e) = &step
                && e.cost_exceeded
            {
                return step;
            }
            self.scopes.truncate(base + 1);
            self.scopes[base].1 = step;
        }
        self.scopes.truncate(base + 1);
        self.eval(&c.result)
    }
}

fn literal(l: &Literal) -> Value {
    match l {
        Literal::Null => Value::Null,
        Literal::Bool(b) => Value::Bool(*b),
        Literal::Int(i) => Value::Int(*i),
        Literal::Uint(u) => Value::Uint(*u),
        Literal::Double(d) => Value::Double(*d),
        Literal::String(s) => Value::string(s.as_str()),
        Literal::Bytes(b) => Value::Bytes(Arc::from(b.as_slice())),
    }
}

/// The type names an expression can use as values (`type(x) == int`).
fn type_value(name: &str) -> Option<Value> {
    let known = [
        "bool",
        "int",
        "uint",
        "double",
        "string",
        "bytes",
        "list",
        "map",
        "null_type",
        "type",
        "google.protobuf.Timestamp",
        "google.protobuf.Duration",
        "optional_type",
        "net.IP",
        "net.CIDR",
        "kubernetes.URL",
        "kubernetes.Quantity",
        "kubernetes.Semver",
    ];
    known.contains(&name).then(|| Value::Type(Arc::from(name)))
}

/// A list or map literal of constants only (what cel-go plans as one constant value).
/// Whether cel-go plans `e` as an attribute (a variable and the selections and indexes on it,
/// or a conditional), to which a selection or an index adds a qualifier; anything else is
/// wrapped in a relative attribute first.
fn is_attribute(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(_) | ExprKind::Select { .. } => true,
        ExprKind::Call {
            function, target: None, ..
        } => {
            matches!(function.as_str(), "_[_]" | "_[?_]" | "_?._" | "_?_:_")
        }
        _ => false,
    }
}

/// What stands for a failed operand when its call is charged: cel-go sizes an error 1, and
/// charges by the call's static overload, which the other operand's type tells.
fn error_stand_in(other: Option<&Value>) -> Value {
    match other {
        Some(Value::String(_)) => Value::string("x"),
        Some(Value::Bytes(_)) => Value::Bytes(vec![0].into()),
        _ => Value::Null,
    }
}

fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(_) => true,
        ExprKind::List {
            elements,
            optional_indices,
        } => optional_indices.is_empty() && elements.iter().all(is_constant),
        ExprKind::Map { entries } => entries
            .iter()
            .all(|en| !en.optional && is_constant(&en.key) && is_constant(&en.value)),
        _ => false,
    }
}

/// `a.b.c` written as selections of identifiers: its dotted name.
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => Some(format!("{}.{field}", qualified_name(operand)?)),
        _ => None,
    }
}

/// A value as it is read from a variable or a container: a value that does not fit its schema
/// is its error ([`crate::value::InvalidData`]).
fn readable(v: Value) -> R {
    match v.invalid_data_error() {
        Some(e) => Err(EvalError::new(e)),
        None => Ok(v),
    }
}

/// `v.field`, or `has(v.field)`.
fn select(v: &Value, field: &str, test_only: bool) -> R {
    match v {
        Value::Map(m) => {
            let mut found = m.get_str(field);
            // A member that does not fit its schema is its error, for `has()` too.
            if let Some(e) = found.and_then(Value::invalid_data_error) {
                return Err(EvalError::new(e));
            }
            // An object's property named by a keyword is stored escaped (`__namespace__`);
            // `self.namespace` finds it, as the API server's values do from 1.31.
            if found.is_none() && m.object.is_some() && crate::types::RESERVED_SYMBOLS.contains(&field) {
                found = m.get_str(&format!("__{field}__"));
            }
            if test_only {
                return Ok(Value::Bool(found.is_some()));
            }
            found
                .cloned()
                .ok_or_else(|| EvalError::new(format!("no such key: {field}")))
        }
        Value::Optional(o) => match o {
            // A field of an optional is itself optional (cel-go's optional field chaining).
            None if !test_only => Ok(Value::Optional(None)),
            Some(inner) if !test_only => optional_select(inner, field),
            _ => Err(no_overload()),
        },
        other => Err(EvalError::new(format!(
            "type '{}' does not support field selection",
            other.type_name()
        ))),
    }
}

/// `v.?field`.
fn optional_select(v: &Value, field: &str) -> R {
    match v {
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => optional_select(inner, field),
        Value::Map(m) => Ok(Value::Optional(m.get_str(field).cloned().map(Arc::new))),
        other => select(other, field, false),
    }
}

/// A list index as an int: ints, uints and integral doubles.
fn list_index(i: &Value) -> Result<i64, EvalError> {
    match *i {
        Value::Int(i) => Ok(i),
        Value::Uint(u) => i64::try_from(u).map_err(|_| EvalError::new("unsigned integer overflow")),
        Value::Double(d) if d.fract() == 0.0 && d.is_finite() => Ok(d as i64),
        Value::Double(d) => Err(EvalError::new(format!("unsupported index value {}", format_double(d)))),
        _ => Err(no_overload()),
    }
}

fn index(args: &[Value]) -> R {
    let [container, key] = args else {
        return Err(no_overload());
    };
    match container {
        Value::List(l) => {
            let i = list_index(key)?;
            usize::try_from(i)
                .ok()
                .and_then(|i| l.items.get(i))
                .cloned()
                .ok_or_else(|| EvalError::new(format!("index out of bounds: {i}")))
                .and_then(readable)
        }
        Value::Map(m) => m
            .get(key)
            .cloned()
            .ok_or_else(|| EvalError::new(format!("no such key: {}", display(key))))
            .and_then(readable),
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => optional_index(&[(**inner).clone(), key.clone()]),
        _ => Err(no_overload()),
    }
}

fn optional_index(args: &[Value]) -> R {
    let [container, key] = args else {
        return Err(no_overload());
    };
    match container {
        Value::List(l) => {
            let i = list_index(key)?;
            Ok(Value::Optional(
                usize::try_from(i)
                    .ok()
                    .and_then(|i| l.items.get(i))
                    .cloned()
                    .map(Arc::new),
            ))
        }
        Value::Map(m) => Ok(Value::Optional(m.get(key).cloned().map(Arc::new))),
        Value::Optional(None) => Ok(Value::Optional(None)),
        Value::Optional(Some(inner)) => optional_index(&[(**inner).clone(), key.clone()]),
        _ => Err(no_overload()),
    }
}

/// A value as cel-go prints it in messages (`no such key: x`): strings bare.
pub fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Uint(u) => u.to_string(),
        Value::Double(d) => format_double(*d),
        Value::Bool(b) => b.to_string(),
        Value::Null => "null".to_owned(),
        other => other.type_name().to_owned(),
    }
}

/// A double as Go's `fmt.Sprintf("%g", d)` writes it (cel-go's `string(double)`): shortest
/// digits, exponent form below 1e-4 and from 1e6.
pub fn format_double(d: f64) -> String {
    if d.is_nan() {
        return "NaN".to_owned();
    }
    if d.is_infinite() {
        return if d > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    if d == 0.0 {
        return if d.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `1.5e0`, `-1.2345e-7`.
    let sci = format!("{d:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    // Go's shortest %g switches to exponent form when exp < -4 || exp >= 6.
    let eprec = 6;
    if exp < -4 || exp >= eprec {
        let (first, rest) = digits.split_at(1);
        let frac = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        return format!("{sign}{first}{frac}e{esign}{:02}", exp.abs());
    }
    if exp < 0 {
        let zeros = "0".repeat((-exp - 1) as usize);
        return format!("{sign}0.{zeros}{digits}");
    }
    let point = (exp + 1) as usize;
    if digits.len() <= point {
        format!("{sign}{digits}{}", "0".repeat(point - digits.len()))
    } else {
        format!("{sign}{}.{}", &digits[..point], &digits[point..])
    }
}

/// `a + b` for lists, with Kubernetes' list types: a set adds the items it lacks, a map list
/// replaces the items with the same keys.
pub(crate) fn concat_lists(a: &List, b: &List) -> Value {
    let mut items = a.items.clone();
    match &a.kind {
        ListKind::Set => {
            for x in &b.items {
                if !items.iter().any(|y| y.equals(x) == Some(true)) {
                    items.push(x.clone());
                }
            }
        }
        ListKind::Map(keys) => {
            for x in &b.items {
                match items.iter().position(|y| crate::value::same_keys(keys, y, x)) {
                    Some(i) => items[i] = x.clone(),
                    None => items.push(x.clone()),
                }
            }
        }
        ListKind::Atomic => items.extend(b.items.iter().cloned()),
    }
    Value::List(Arc::new(List {
        items,
        kind: a.kind.clone(),
    }))
}

/// A map with one more entry (`cel.@mapInsert`), or with another map's entries.
pub(crate) fn map_insert(m: &Map, key: &Value, value: &Value) -> R {
    if m.get(key).is_some() {
        return Err(EvalError::new(format!(
            "insert failed: key {} already exists",
            display(key)
        )));
    }
    let mut entries = m.entries.clone();
    entries.push((key.clone(), value.clone()));
    Ok(Value::map(entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(src: &str) -> Result<Value, EvalError> {
        evaluate(&crate::parse(src).unwrap(), &Vars::new(), u64::MAX).result
    }

    fn yes(src: &str) {
        match run(src) {
            Ok(Value::Bool(true)) => {}
            other => panic!("{src}: {other:?}"),
        }
    }

    #[test]
    fn qualified_functions_and_macros() {
        yes("optional.of(1).hasValue() && !optional.none().hasValue()");
        yes("sets.contains([1, 2, 3], [2])");
        yes("[1, 2, 3].exists_one(x, x == 2) && [1, 2].all(x, x > 0) && [1, 2].map(x, x * 2) == [2, 4]");
        yes("[1, 2, 3].filter(x, x > 1).size() == 2 && {'a': 1}.exists(k, k == 'a')");
        yes("[1, 2].transformList(i, v, v + i) == [1, 3] && {'a': 1}.transformMap(k, v, v + 1) == {'a': 2}");
        yes("[3, 2].all(i, v, v > i)");
        yes("optional.of({'a': 1}).optMap(m, m.a) == optional.of(1)");
        yes("[{'n': 2}, {'n': 1}].sortBy(x, x.n) == [{'n': 1}, {'n': 2}]");
        yes("type(duration('1s')) == google.protobuf.Duration && type(1) == int");
    }

    #[test]
    fn errors_are_absorbed_as_cel_go_absorbs_them() {
        yes("1 / 0 == 1 || true");
        yes("!(false && 1 / 0 == 1)");
        yes("[0, 1].exists(x, 1 / x == 1)");
        assert_eq!(run("[0].all(x, 1 / x == 1)").unwrap_err().message, "division by zero");
        assert_eq!(run("{'a': 1}.b").unwrap_err().message, "no such key: b");
        assert_eq!(run("[1][3]").unwrap_err().message, "index out of bounds: 3");
    }

    #[test]
    fn the_cost_limit_stops_evaluation() {
        let expr = crate::parse("[1, 2, 3].all(x, [1, 2, 3].all(y, x + y > 0))").unwrap();
        let out = evaluate(&expr, &Vars::new(), 20);
        let err = out.result.unwrap_err();
        assert!(err.cost_exceeded);
        assert_eq!(err.message, COST_LIMIT_EXCEEDED);
    }

    fn cost(src: &str) -> u64 {
        evaluate(&crate::parse(src).unwrap(), &Vars::new(), u64::MAX).cost
    }

    #[test]
    fn costs_are_cel_gos_node_by_node() {
        // A constant list is free; indexing it adds a relative attribute and a qualifier.
        assert_eq!(cost("['a', 'b'][1]"), 2);
        assert_eq!(cost("{'a': 1}.a"), 2);
        // A failed index still costs its units, and the call it fails is charged too.
        assert_eq!(cost("['a', 'b', 'c', 'd'][4]"), 2);
        assert_eq!(cost("'str1 ' + ['a', 'b', 'c', 'd'][4]"), 3);
        // Sizes in characters, rounded up tenths; an empty operand can cost nothing.
        assert_eq!(cost("'' == 'abc'"), 0);
        assert_eq!(cost("'ééééééééééé' == 'ééééééééééé'"), 2);
        assert_eq!(cost("[1, 2] == [1, 2]"), 1);
        // startsWith traverses its receiver; `in` a list costs the list's length.
        assert_eq!(cost("'abcdefghijklmnopqrstu'.startsWith('a')"), 3);
        assert_eq!(cost("1 in [1, 2, 3, 4, 5]"), 5);
        assert_eq!(cost("[1] + [2]"), 1);
    }
}
