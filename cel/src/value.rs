//! Runtime values, as cel-go's `ref.Val`s behave for Kubernetes: JSON objects under a schema
//! with properties are objects (an absent field is `no such key`), lists carry their
//! `x-kubernetes-list-type` (sets and map lists compare without order), and the library's
//! own types (IP, CIDR, URL, quantity, semver) are opaque values.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

/// A CEL value.
#[derive(Debug, Clone)]
pub enum Value {
    /// `null`.
    Null,
    /// `bool`.
    Bool(bool),
    /// `int`.
    Int(i64),
    /// `uint`.
    Uint(u64),
    /// `double`.
    Double(f64),
    /// `string`.
    String(Arc<str>),
    /// `bytes`.
    Bytes(Arc<[u8]>),
    /// `list(T)`.
    List(Arc<List>),
    /// `map(K, V)` or an object.
    Map(Arc<Map>),
    /// `google.protobuf.Timestamp`.
    Timestamp(Timestamp),
    /// `google.protobuf.Duration`: nanoseconds, as Go's `time.Duration`.
    Duration(i64),
    /// A type value (`int`, `list`, `map`, an object's type name).
    Type(Arc<str>),
    /// `optional_type(T)`: `None` is `optional.none()`.
    Optional(Option<Arc<Value>>),
    /// A library type's value (IP, CIDR, URL, quantity, semver).
    Opaque(Arc<dyn Opaque>),
}

/// A library type's value.
pub trait Opaque: fmt::Debug + Send + Sync + Any {
    /// The CEL type's name (`net.IP`, `net.CIDR`, `kubernetes.URL`, `kubernetes.Quantity`,
    /// `kubernetes.Semver`).
    fn type_name(&self) -> &'static str;
    /// `==` with another value of any library type.
    fn equals(&self, other: &dyn Opaque) -> bool;
    /// For downcasting.
    fn as_any(&self) -> &dyn Any;
}

/// A value that does not fit its schema (`"o": []` where the schema says object), as the API
/// server's conversion leaves it in the object: reading it is the error it carries
/// (`invalid data, expected a map for the provided schema with type=object`).
#[derive(Debug)]
pub struct InvalidData(pub Arc<str>);

impl Opaque for InvalidData {
    fn type_name(&self) -> &'static str {
        "*types.Err"
    }
    fn equals(&self, _: &dyn Opaque) -> bool {
        false
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Value {
    /// An [`InvalidData`] value.
    pub fn invalid_data(message: impl Into<Arc<str>>) -> Value {
        Value::Opaque(Arc::new(InvalidData(message.into())))
    }

    /// The error reading this value is, for an [`InvalidData`].
    pub fn invalid_data_error(&self) -> Option<&str> {
        match self {
            Value::Opaque(o) => o.as_any().downcast_ref::<InvalidData>().map(|d| &*d.0),
            _ => None,
        }
    }
}

/// How a list compares and concatenates: Kubernetes' `x-kubernetes-list-type`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ListKind {
    /// Ordered: equal when the items are equal in order; `+` appends.
    #[default]
    Atomic,
    /// `set`: equal when they hold the same items in any order; `+` adds the new items.
    Set,
    /// `map`: items are objects identified by these keys (escaped names; a name that cannot
    /// be escaped as it is): equal when each key's item is equal in any order; `+` replaces
    /// items with the same keys and appends the others.
    Map(Arc<[String]>),
}

/// A list.
#[derive(Debug, Clone, Default)]
pub struct List {
    /// The items.
    pub items: Vec<Value>,
    /// How the list compares.
    pub kind: ListKind,
}

/// A map or an object.
#[derive(Debug, Clone, Default)]
pub struct Map {
    /// The entries, in their order (JSON order for objects; the order a map literal lists).
    pub entries: Vec<(Value, Value)>,
    /// `Some(type name)` for an object of a declared type (its fields are reached with `.`,
    /// and `has()` tells whether they are set); `None` for a map.
    pub object: Option<Arc<str>>,
    /// For an object read from JSON: the members rules cannot name, which the API server's
    /// equality of objects still compares (`None` when there are none).
    pub hidden: Option<Arc<Hidden>>,
}

/// What an object read from JSON holds besides its named fields. The API server compares
/// two objects by their JSON member counts, then, member by member of the left one: declared
/// properties by value (a `null` one as absent), undeclared members (preserved unknown
/// fields) by Go's deep equality when the right one has them too.
#[derive(Debug, Clone, Default)]
pub struct Hidden {
    /// The JSON object's member count (`null` and hidden members included).
    pub len: usize,
    /// Declared properties set to `null`, by JSON name.
    pub nulls: Vec<Arc<str>>,
    /// Declared properties whose names cannot be escaped (`k!`), by JSON name.
    pub unnamed: Vec<(Arc<str>, Value)>,
    /// Undeclared members, by JSON name, as untyped values.
    pub unknown: Vec<(Arc<str>, Value)>,
}

/// A point in time: seconds and nanoseconds since the Unix epoch, and the UTC offset it was
/// written with. Like a Go `time.Time`, the offset is kept for `string()` and the accessors
/// that take no zone (`timestamp('2011-08-18T19:03:37+01:00').getHours()` is 19), while
/// equality and order compare the instant only.
#[derive(Debug, Clone, Copy, Default)]
pub struct Timestamp {
    /// Seconds since 1970-01-01T00:00:00Z.
    pub seconds: i64,
    /// Nanoseconds within the second, `0..1_000_000_000`.
    pub nanos: u32,
    /// Seconds east of UTC of the zone the timestamp is written in (0: UTC).
    pub offset: i32,
}

impl Timestamp {
    /// A UTC timestamp.
    pub const fn utc(seconds: i64, nanos: u32) -> Timestamp {
        Timestamp {
            seconds,
            nanos,
            offset: 0,
        }
    }

    fn instant(&self) -> (i64, u32) {
        (self.seconds, self.nanos)
    }
}

impl PartialEq for Timestamp {
    fn eq(&self, other: &Timestamp) -> bool {
        self.instant() == other.instant()
    }
}

impl Eq for Timestamp {}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Timestamp) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Timestamp {
    fn cmp(&self, other: &Timestamp) -> std::cmp::Ordering {
        self.instant().cmp(&other.instant())
    }
}

impl std::hash::Hash for Timestamp {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.instant().hash(state);
    }
}

impl Map {
    /// The value under `key`, by CEL equality of keys (`1 == 1u == 1.0`).
    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| key_equals(k, key)).map(|(_, v)| v)
    }

    /// The value under a string key.
    pub fn get_str(&self, key: &str) -> Option<&Value> {
        self.entries
            .iter()
            .find(|(k, _)| matches!(k, Value::String(s) if &**s == key))
            .map(|(_, v)| v)
    }

    /// A field by its escaped name, or a declared property whose name cannot be escaped by
    /// its JSON name (the key fields of map lists).
    pub fn key_field(&self, name: &str) -> Option<&Value> {
        self.get_str(name).or_else(|| {
            let hidden = self.hidden.as_deref()?;
            hidden.unnamed.iter().find(|(n, _)| &**n == name).map(|(_, v)| v)
        })
    }

    /// The member count the API server's equality compares.
    fn member_count(&self) -> usize {
        self.hidden.as_deref().map_or(self.entries.len(), |h| h.len)
    }

    /// Whether a declared property, by JSON name, is set (not `null`, not absent).
    fn has_declared(&self, json_name: &str) -> bool {
        let named = crate::types::escape(json_name).is_some_and(|n| self.get_str(&n).is_some());
        named
            || self
                .hidden
                .as_deref()
                .is_some_and(|h| h.unnamed.iter().any(|(n, _)| &**n == json_name))
    }
}

/// The API server's `unstructuredMap.Equal` for objects with hidden members (see
/// [`Hidden`]).
fn objects_equal(a: &Map, b: &Map) -> Option<bool> {
    if a.member_count() != b.member_count() {
        return Some(false);
    }
    for (k, v) in &a.entries {
        match b.get(k) {
            Some(w) if v.equals(w)? => {}
            _ => return Some(false),
        }
    }
    let Some(h) = a.hidden.as_deref() else {
        return Some(true);
    };
    if h.nulls.iter().any(|n| b.has_declared(n)) {
        return Some(false);
    }
    let other = b.hidden.as_deref();
    for (n, v) in &h.unnamed {
        match other.and_then(|o| o.unnamed.iter().find(|(m, _)| m == n)) {
            Some((_, w)) if v.equals(w)? => {}
            _ => return Some(false),
        }
    }
    for (n, v) in &h.unknown {
        if let Some((_, w)) = other.and_then(|o| o.unknown.iter().find(|(m, _)| m == n))
            && !identical(v, w)
        {
            return Some(false);
        }
    }
    Some(true)
}

/// Go's `reflect.DeepEqual` on decoded JSON: the same kind of value, equal throughout (an
/// integer and a float are not equal, nor are NaNs).
fn identical(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::Double(x), Value::Double(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::List(x), Value::List(y)) => {
            x.items.len() == y.items.len() && x.items.iter().zip(&y.items).all(|(x, y)| identical(x, y))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.entries.len() == y.entries.len()
                && x.entries.iter().all(|(k, v)| {
                    y.entries
                        .iter()
                        .find(|(l, _)| identical(k, l))
                        .is_some_and(|(_, w)| identical(v, w))
                })
        }
        _ => false,
    }
}

/// Map keys compare across numeric types by value, and otherwise as equal values.
fn key_equals(a: &Value, b: &Value) -> bool {
    a.equals(b) == Some(true)
}

impl Value {
    /// A string value.
    pub fn string(s: impl Into<Arc<str>>) -> Value {
        Value::String(s.into())
    }

    /// A list value with ordered (atomic) semantics.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(List {
            items,
            kind: ListKind::Atomic,
        }))
    }

    /// A map value.
    pub fn map(entries: Vec<(Value, Value)>) -> Value {
        Value::Map(Arc::new(Map {
            entries,
            object: None,
            hidden: None,
        }))
    }

    /// The name of the value's CEL type, as `type()` returns it and as error messages name it.
    pub fn type_name(&self) -> &str {
        match self {
            Value::Null => "null_type",
            Value::Bool(_) => "bool",
            Value::Int(_) => "int",
            Value::Uint(_) => "uint",
            Value::Double(_) => "double",
            Value::String(_) => "string",
            Value::Bytes(_) => "bytes",
            Value::List(_) => "list",
            Value::Map(m) => m.object.as_deref().unwrap_or("map"),
            Value::Timestamp(_) => "google.protobuf.Timestamp",
            Value::Duration(_) => "google.protobuf.Duration",
            Value::Type(_) => "type",
            Value::Optional(_) => "optional_type",
            Value::Opaque(o) => o.type_name(),
        }
    }

    /// CEL's `==`: `Some(bool)`, or `None` where cel-go gives no answer but an error (never,
    /// with heterogeneous equality: values of different types are not equal, except numbers,
    /// which compare by value across `int`, `uint` and `double`).
    pub fn equals(&self, other: &Value) -> Option<bool> {
        use Value as V;
        Some(match (self, other) {
            (V::Null, V::Null) => true,
            (V::Bool(a), V::Bool(b)) => a == b,
            (V::String(a), V::String(b)) => a == b,
            (V::Bytes(a), V::Bytes(b)) => a == b,
            (V::Timestamp(a), V::Timestamp(b)) => a == b,
            (V::Duration(a), V::Duration(b)) => a == b,
            (V::Type(a), V::Type(b)) => a == b,
            (V::Optional(a), V::Optional(b)) => match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => a.equals(b)?,
                _ => false,
            },
            (V::Opaque(a), V::Opaque(b)) => a.equals(&**b),
            (V::List(a), V::List(b)) => lists_equal(a, b)?,
            (V::Map(a), V::Map(b)) if a.hidden.is_some() || b.hidden.is_some() => objects_equal(a, b)?,
            (V::Map(a), V::Map(b)) => {
                if a.entries.len() != b.entries.len() {
                    return Some(false);
                }
                for (k, v) in &a.entries {
                    match b.get(k) {
                        Some(w) => {
                            if !v.equals(w)? {
                                return Some(false);
                            }
                        }
                        None => return Some(false),
                    }
                }
                true
            }
            (a, b) => match (a.as_number(), b.as_number()) {
                (Some(x), Some(y)) => x.compare(y) == Some(std::cmp::Ordering::Equal),
                _ => false,
            },
        })
    }

    /// The value as a number, for comparisons across numeric types.
    pub fn as_number(&self) -> Option<Number> {
        match *self {
            Value::Int(i) => Some(Number::Int(i)),
            Value::Uint(u) => Some(Number::Uint(u)),
            Value::Double(d) => Some(Number::Double(d)),
            _ => None,
        }
    }
}

fn lists_equal(a: &List, b: &List) -> Option<bool> {
    if a.items.len() != b.items.len() {
        return Some(false);
    }
    // The left side's list type decides, as its `Equal` does in the API server.
    match (&a.kind, &b.kind) {
        (ListKind::Set, _) => {
            for x in &a.items {
                let mut found = false;
                for y in &b.items {
                    if x.equals(y)? {
                        found = true;
                        break;
                    }
                }
                if !found {
                    return Some(false);
                }
            }
            Some(true)
        }
        (ListKind::Map(ka), _) => {
            for x in &a.items {
                let Some(y) = b.items.iter().find(|y| same_keys(ka, x, y)) else {
                    return Some(false);
                };
                if !x.equals(y)? {
                    return Some(false);
                }
            }
            Some(true)
        }
        _ => {
            for (x, y) in a.items.iter().zip(&b.items) {
                if !x.equals(y)? {
                    return Some(false);
                }
            }
            Some(true)
        }
    }
}

/// Whether two items of a map list have the same key fields.
pub fn same_keys(keys: &[String], a: &Value, b: &Value) -> bool {
    let (Value::Map(a), Value::Map(b)) = (a, b) else {
        return false;
    };
    keys.iter().all(|k| match (a.key_field(k), b.key_field(k)) {
        (Some(x), Some(y)) => x.equals(y) == Some(true),
        (None, None) => true,
        _ => false,
    })
}

/// A number of any CEL numeric type.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    /// `int`.
    Int(i64),
    /// `uint`.
    Uint(u64),
    /// `double`.
    Double(f64),
}

impl Number {
    /// Compares by value across types (cel-go's cross-type numeric comparisons); `None` when
    /// a double is NaN.
    pub fn compare(self, other: Number) -> Option<std::cmp::Ordering> {
        use Number as N;
        match (self, other) {
            (N::Int(a), N::Int(b)) => Some(a.cmp(&b)),
            (N::Uint(a), N::Uint(b)) => Some(a.cmp(&b)),
            (N::Int(a), N::Uint(b)) => Some(if a < 0 {
                std::cmp::Ordering::Less
            } else {
                (a as u64).cmp(&b)
            }),
            (N::Uint(a), N::Int(b)) => Some(if b < 0 {
                std::cmp::Ordering::Greater
            } else {
                a.cmp(&(b as u64))
            }),
            (N::Double(a), N::Double(b)) => a.partial_cmp(&b),
            (N::Double(a), N::Int(b)) => compare_double_int(a, b),
            (N::Int(a), N::Double(b)) => compare_double_int(b, a).map(std::cmp::Ordering::reverse),
            (N::Double(a), N::Uint(b)) => compare_double_uint(a, b),
            (N::Uint(a), N::Double(b)) => compare_double_uint(b, a).map(std::cmp::Ordering::reverse),
        }
    }
}

fn compare_double_int(a: f64, b: i64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering as O;
    if a.is_nan() {
        return None;
    }
    if a < i64::MIN as f64 {
        return Some(O::Less);
    }
    if a >= i64::MAX as f64 {
        return Some(O::Greater);
    }
    let t = a.trunc() as i64;
    match t.cmp(&b) {
        O::Equal => a.fract().partial_cmp(&0.0),
        o => Some(o),
    }
}

fn compare_double_uint(a: f64, b: u64) -> Option<std::cmp::Ordering> {
    use std::cmp::Ordering as O;
    if a.is_nan() {
        return None;
    }
    if a < 0.0 {
        return Some(O::Less);
    }
    if a >= u64::MAX as f64 {
        return Some(O::Greater);
    }
    let t = a.trunc() as u64;
    match t.cmp(&b) {
        O::Equal => a.fract().partial_cmp(&0.0),
        o => Some(o),
    }
}

/// An evaluation error, with cel-go's text (`no such key: x`, `division by zero`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EvalError {
    /// cel-go's message.
    pub message: String,
    /// The per-call cost limit was reached: evaluation stopped.
    pub cost_exceeded: bool,
}

impl EvalError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> EvalError {
        EvalError {
            message: message.into(),
            cost_exceeded: false,
        }
    }

    /// `no such overload` for a function applied to these values.
    pub fn no_such_overload() -> EvalError {
        EvalError::new("no such overload")
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EvalError {}

/// A string of an OpenAPI format that CEL sees as a typed value: `date-time` and `date` as
/// timestamps, `duration` as a duration; `None` when the text does not parse (or the format
/// is another).
pub fn parse_formatted(text: &str, format: &str) -> Option<Value> {
    match format {
        "date-time" => crate::library::time::parse_timestamp(text).ok().map(Value::Timestamp),
        "date" => {
            let b = text.as_bytes();
            let ok = b.len() == 10 && b[4] == b'-' && b[7] == b'-';
            if !ok {
                return None;
            }
            crate::library::time::parse_timestamp(&format!("{text}T00:00:00Z"))
                .ok()
                .map(Value::Timestamp)
        }
        "duration" => crate::library::time::parse_duration(text).ok().map(Value::Duration),
        _ => None,
    }
}
