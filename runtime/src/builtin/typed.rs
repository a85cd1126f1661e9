//! A JSON body decoded into a Kubernetes Go type as the API server's decoder decodes it:
//! `sigs.k8s.io/json`'s fork of `encoding/json` with case-sensitive keys, integers
//! preserved and (fieldValidation Strict or Warn) unknown and duplicate fields collected.
//!
//! The walk follows the decoder step by step, because its answers depend on the order of
//! the document:
//! - strict errors come in document order, unknown and duplicate mixed, each (kind, path)
//!   once, at most 100; a key that is unknown is never a duplicate; nothing inside an unknown
//!   value or a type that decodes itself is looked at;
//! - the first type error is kept (`json: cannot unmarshal string into Go struct field
//!   DeploymentSpec.spec.replicas of type int32`: the innermost struct, the JSON names from
//!   the root without list indices or map keys, the Go type without pointers) and decoding
//!   goes on; an error a type's own `UnmarshalJSON` returns stops it at once;
//! - a repeated key decodes into what the first occurrence left (structs and maps merge,
//!   list elements decode into the earlier ones).
//!
//! The value it gives is the Go value as `encoding/json` writes it back: declared fields
//! only, `omitempty` fields left out when empty, absent fields at their zero value (`null`
//! for nil lists, maps and pointers, zero structs written out), the types that encode
//! themselves as they encode.
//!
//! The input was checked for syntax (and depth) before; nothing here recurses without
//! growing the stack on demand.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use kstruct_builtins::{Catalog, GoType, TypeDef, TypeShape};
use serde_json::{Map, Value};

use super::special::{self, SpecialError};
use crate::json;

/// A strict decoding error: `unknown field "<path>"` or `duplicate field "<path>"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct StrictError {
    /// Unknown (else duplicate).
    pub unknown: bool,
    /// The path as the decoder writes it: keys joined by `.`, list indices as `[i]`.
    pub path: String,
}

impl StrictError {
    /// The decoder's text.
    pub(crate) fn text(&self) -> String {
        let kind = if self.unknown {
            "unknown field"
        } else {
            "duplicate field"
        };
        format!("{kind} {}", kstruct_schema::go::quote(&self.path))
    }
}

/// A decoding error that is not a strict one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failed {
    /// Go's text.
    pub message: String,
    /// Where it happened, as a strict error's path (list indices included), to locate it.
    pub path: String,
}

/// What decoding a body gave.
#[derive(Debug)]
pub(crate) struct Outcome {
    /// The Go value as it encodes.
    pub value: Value,
    /// Strict errors, in the decoder's order (none unless asked for).
    pub strict: Vec<StrictError>,
    /// The decoder's error, which wins over the strict errors.
    pub error: Option<Failed>,
}

/// How the decoder treats one Go type.
#[derive(Debug, Clone, Copy)]
enum Target {
    Bool,
    String,
    Int(u32),
    Uint(u32),
    Float(u32),
    /// `[]byte`: base64 in a JSON string.
    Bytes,
    Slice(&'static GoType),
    Map(&'static GoType, &'static GoType),
    /// A struct and its name as `reflect.Type.Name()` gives it.
    Struct(&'static TypeDef, &'static str),
    Interface,
    Quantity,
    Time,
    MicroTime,
    IntOrString,
    /// A type that decodes itself into raw bytes (`RawExtension`, `FieldsV1`, `JSON`).
    Raw,
}

/// A resolved type and its name as `reflect.Type.String()` prints it.
#[derive(Debug, Clone)]
struct Resolved {
    target: Target,
    name: Rc<str>,
}

/// A struct field as the decoder sees it after Go's embedding rules.
#[derive(Debug)]
struct Flat {
    json: &'static str,
    go_type: &'static GoType,
    omitempty: bool,
    omitzero: bool,
    /// The Go names of the embedded structs the field is promoted through.
    via: Vec<&'static str>,
}

const MAX_STRICT_ERRORS: usize = 100;

/// One decoding pass.
pub(crate) struct Walker<'a> {
    input: &'a [u8],
    pos: usize,
    catalog: Catalog,
    /// Type-error paths name the embedded structs a promoted field passes through (the
    /// decoder of Kubernetes 1.35 and later, synced with Go 1.24's `encoding/json`).
    embedded_names: bool,
    strict: bool,
    path: String,
    strict_errors: Vec<StrictError>,
    seen: HashSet<StrictError>,
    ctx_struct: Option<&'static str>,
    ctx_fields: Vec<&'static str>,
    saved: Option<Failed>,
    layouts: HashMap<&'static str, Rc<[Flat]>>,
    resolved: HashMap<*const GoType, Resolved>,
    zeros: HashMap<&'static str, Value>,
}

impl<'a> Walker<'a> {
    /// A pass over `input` (valid JSON), collecting strict errors when `strict`.
    pub(crate) fn new(input: &'a [u8], catalog: Catalog, embedded_names: bool, strict: bool) -> Walker<'a> {
        Walker {
            input,
            pos: 0,
            catalog,
            embedded_names,
            strict,
            path: String::new(),
            strict_errors: Vec::new(),
            seen: HashSet::new(),
            ctx_struct: None,
            ctx_fields: Vec::new(),
            saved: None,
            layouts: HashMap::new(),
            resolved: HashMap::new(),
            zeros: HashMap::new(),
        }
    }

    /// Decodes the input into the struct `root`.
    pub(crate) fn decode(mut self, root: &'static TypeDef) -> Outcome {
        let name = base_name(root.name());
        self.ws();
        let result = match self.peek() {
            b'{' => self.strukt(root, name, None),
            b'n' => {
                self.literal();
                Ok(self.zero_struct(root))
            }
            c => {
                // The pre-parse refused any other root before; keep Go's answer anyway.
                let kind = match c {
                    b'[' => "array",
                    b'"' => "string",
                    b't' | b'f' => "bool",
                    _ => "number",
                };
                let e = self.type_error(kind, &GoType::Named(root.name().to_owned()).go_name());
                Err(e)
            }
        };
        match result {
            Ok(value) => Outcome {
                value,
                strict: self.strict_errors,
                error: self.saved,
            },
            Err(e) => Outcome {
                value: Value::Null,
                strict: Vec::new(),
                error: Some(e),
            },
        }
    }

    fn ws(&mut self) {
        while matches!(self.input.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn peek(&self) -> u8 {
        self.input.get(self.pos).copied().unwrap_or(0)
    }

    /// Steps over `c` (and the white space before it) when it is next.
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == c {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn string(&mut self) -> String {
        match json::string_at(self.input, self.pos) {
            Ok((s, end)) => {
                self.pos = end;
                s
            }
            Err(_) => {
                self.pos = self.input.len();
                String::new()
            }
        }
    }

    /// A number, `true`, `false` or `null`.
    fn literal(&mut self) -> &'a [u8] {
        let start = self.pos;
        while let Some(&c) = self.input.get(self.pos) {
            if matches!(c, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r') {
                break;
            }
            self.pos += 1;
        }
        &self.input[start..self.pos]
    }

    /// Steps over one value; its text.
    fn skip(&mut self) -> &'a [u8] {
        self.ws();
        let start = self.pos;
        let mut depth = 0usize;
        loop {
            match self.peek() {
                b'"' => {
                    let mut i = self.pos + 1;
                    while let Some(&c) = self.input.get(i) {
                        i += match c {
                            b'\\' => 2,
                            b'"' => break,
                            _ => 1,
                        };
                    }
                    self.pos = (i + 1).min(self.input.len());
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.pos += 1;
                }
                b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => {
                    self.pos += 1;
                    continue;
                }
                0 if self.pos >= self.input.len() => break,
                _ => {
                    self.literal();
                }
            }
            if depth == 0 {
                break;
            }
        }
        &self.input[start..self.pos]
    }

    fn push_key(&mut self, key: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    fn push_index(&mut self, i: usize) {
        self.path.push('[');
        self.path.push_str(&i.to_string());
        self.path.push(']');
    }

    fn strict_error(&mut self, unknown: bool, key: &str) {
        if self.strict_errors.len() >= MAX_STRICT_ERRORS {
            return;
        }
        let path = if self.path.is_empty() {
            key.to_owned()
        } else {
            format!("{}.{key}", self.path)
        };
        let e = StrictError { unknown, path };
        if self.seen.insert(e.clone()) {
            self.strict_errors.push(e);
        }
    }

    /// Go's `UnmarshalTypeError` with the decoder's context.
    fn type_error(&self, value: &str, go_type: &str) -> Failed {
        let message = if self.ctx_struct.is_some() || !self.ctx_fields.is_empty() {
            format!(
                "json: cannot unmarshal {value} into Go struct field {}.{} of type {go_type}",
                self.ctx_struct.unwrap_or(""),
                self.ctx_fields.join(".")
            )
        } else {
            format!("json: cannot unmarshal {value} into Go value of type {go_type}")
        };
        Failed {
            message,
            path: self.path.clone(),
        }
    }

    fn save(&mut self, e: Failed) {
        if self.saved.is_none() {
            self.saved = Some(e);
        }
    }

    fn resolve(&mut self, t: &'static GoType) -> Resolved {
        let key = t as *const GoType;
        if let Some(r) = self.resolved.get(&key) {
            return r.clone();
        }
        let r = self.resolve_uncached(t);
        self.resolved.insert(key, r.clone());
        r
    }

    fn resolve_uncached(&mut self, t: &'static GoType) -> Resolved {
        let name: Rc<str> = Rc::from(t.go_name());
        let target = match t {
            GoType::Builtin(b) => builtin_target(b),
            GoType::Pointer(inner) => return self.resolve(inner),
            GoType::Slice(inner) | GoType::Array(inner) => match **inner {
                GoType::Builtin("byte" | "uint8") => Target::Bytes,
                _ => Target::Slice(inner),
            },
            GoType::Map(k, v) => Target::Map(k, v),
            GoType::Interface => Target::Interface,
            GoType::Named(n) => match self.catalog.type_def(n) {
                None => Target::Raw,
                Some(def) if def.decodes_itself() => match n.as_str() {
                    "resource.Quantity" => Target::Quantity,
                    "meta/v1.Time" => Target::Time,
                    "meta/v1.MicroTime" => Target::MicroTime,
                    "intstr.IntOrString" => Target::IntOrString,
                    _ => Target::Raw,
                },
                Some(def) => match def.shape() {
                    TypeShape::Struct(_) => Target::Struct(def, base_name(def.name())),
                    TypeShape::Named(inner) => {
                        // A defined type over another: the other's behaviour under this name
                        // (a defined struct type is a struct of this name).
                        match self.resolve(inner).target {
                            Target::Struct(d, _) => Target::Struct(d, base_name(def.name())),
                            other => other,
                        }
                    }
                    TypeShape::Alias(inner) => return self.resolve(inner),
                },
            },
        };
        Resolved { target, name }
    }

    /// The fields of `def` as the decoder matches keys to them.
    fn layout(&mut self, def: &'static TypeDef) -> Rc<[Flat]> {
        if let Some(l) = self.layouts.get(def.name()) {
            return l.clone();
        }
        let mut all: Vec<Flat> = Vec::new();
        self.flatten(def, &mut Vec::new(), &mut all, 0);
        // Go's dominant field: the shallowest of a name wins; two at that depth hide each other.
        let mut keep: Vec<Flat> = Vec::new();
        for f in all {
            match keep.iter().position(|k| k.json == f.json) {
                None => keep.push(f),
                Some(i) if keep[i].via.len() > f.via.len() => keep[i] = f,
                Some(i) if keep[i].via.len() == f.via.len() => {
                    keep[i].json = "";
                }
                Some(_) => {}
            }
        }
        keep.retain(|f| !f.json.is_empty());
        let l: Rc<[Flat]> = keep.into();
        self.layouts.insert(def.name(), l.clone());
        l
    }

    fn flatten(&self, def: &'static TypeDef, via: &mut Vec<&'static str>, out: &mut Vec<Flat>, depth: usize) {
        for f in def.fields() {
            match f.json_name() {
                Some(json) => out.push(Flat {
                    json,
                    go_type: f.go_type(),
                    omitempty: f.omitempty(),
                    omitzero: f.omitzero(),
                    via: via.clone(),
                }),
                None => {
                    if let Some(inner) = self.struct_of(f.go_type())
                        && depth < 16
                    {
                        via.push(f.go_name());
                        self.flatten(inner, via, out, depth + 1);
                        via.pop();
                    }
                }
            }
        }
    }

    fn struct_of(&self, t: &'static GoType) -> Option<&'static TypeDef> {
        match t {
            GoType::Pointer(inner) => self.struct_of(inner),
            GoType::Named(n) => {
                let def = self.catalog.type_def(n)?;
                match def.shape() {
                    TypeShape::Struct(_) => Some(def),
                    TypeShape::Named(inner) | TypeShape::Alias(inner) => self.struct_of(inner),
                }
            }
            _ => None,
        }
    }

    /// Decodes the next value into a Go value of type `t` that holds `into` (its earlier
    /// value, for a repeated key; `None`: the zero value).
    fn value(&mut self, t: &'static GoType, into: Option<Value>) -> Result<Value, Failed> {
        stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
            self.value_inner(t, into)
        })
    }

    fn value_inner(&mut self, t: &'static GoType, into: Option<Value>) -> Result<Value, Failed> {
        self.ws();
        if let GoType::Pointer(inner) = t {
            if self.peek() == b'n' {
                self.literal();
                return Ok(Value::Null);
            }
            return self.value(inner, into.filter(|v| !v.is_null()));
        }
        let r = self.resolve(t);
        match r.target {
            Target::Quantity | Target::Time | Target::MicroTime | Target::IntOrString | Target::Raw => {
                let raw = self.skip();
                let decoded = match r.target {
                    Target::Quantity => special::quantity(raw),
                    Target::Time => special::time(raw, false),
                    Target::MicroTime => special::time(raw, true),
                    Target::IntOrString => special::int_or_string(raw),
                    _ => Ok(special::raw(raw)),
                };
                return decoded.map_err(|e| match e {
                    SpecialError::Type { value, go_type } => self.type_error(&value, go_type),
                    SpecialError::Other(message) => Failed {
                        message,
                        path: self.path.clone(),
                    },
                });
            }
            _ => {}
        }
        match self.peek() {
            b'{' => match r.target {
                Target::Struct(def, name) => self.strukt(def, name, into),
                Target::Map(k, v) => self.map(k, v, into),
                Target::Interface => Ok(self.interface()),
                _ => {
                    let e = self.type_error("object", &r.name);
                    self.save(e);
                    self.skip();
                    Ok(self.keep(t, into))
                }
            },
            b'[' => match r.target {
                Target::Slice(elem) => self.slice(elem, into),
                Target::Bytes => self.byte_list(into),
                Target::Interface => Ok(self.interface()),
                _ => {
                    let e = self.type_error("array", &r.name);
                    self.save(e);
                    self.skip();
                    Ok(self.keep(t, into))
                }
            },
            _ => Ok(self.literal_store(t, &r, into)),
        }
    }

    /// What a Go value keeps when a value of the wrong kind is not stored into it.
    fn keep(&mut self, t: &'static GoType, into: Option<Value>) -> Value {
        match into {
            Some(v) => v,
            None => self.zero(t),
        }
    }

    fn literal_store(&mut self, t: &'static GoType, r: &Resolved, into: Option<Value>) -> Value {
        let c = self.peek();
        if c == b'"' {
            let s = self.string();
            return match r.target {
                Target::String => Value::String(s),
                Target::Interface => Value::String(s),
                Target::Bytes => match special::base64_decode(s.as_bytes()) {
                    Ok(bytes) => Value::String(special::base64_encode(&bytes)),
                    Err(at) => {
                        let e = Failed {
                            message: format!("illegal base64 data at input byte {at}"),
                            path: self.path.clone(),
                        };
                        self.save(e);
                        self.keep(t, into)
                    }
                },
                _ => {
                    let e = self.type_error("string", &r.name);
                    self.save(e);
                    self.keep(t, into)
                }
            };
        }
        let lit = self.literal();
        let text = String::from_utf8_lossy(lit);
        match c {
            b'n' => match r.target {
                Target::Interface | Target::Slice(_) | Target::Map(..) | Target::Bytes => Value::Null,
                _ => self.keep(t, into),
            },
            b't' | b'f' => match r.target {
                Target::Bool | Target::Interface => Value::Bool(c == b't'),
                _ => {
                    let e = self.type_error("bool", &r.name);
                    self.save(e);
                    self.keep(t, into)
                }
            },
            _ => {
                let parsed = match r.target {
                    Target::Int(bits) => special::go_parse_int(&text, bits).map(Value::from),
                    Target::Uint(bits) => special::go_parse_uint(&text, bits).map(Value::from),
                    Target::Float(bits) => special::go_parse_float(&text, bits),
                    Target::Interface => special::go_parse_int(&text, 64)
                        .map(Value::from)
                        .or_else(|| special::go_parse_float(&text, 64)),
                    _ => {
                        let e = self.type_error("number", &r.name);
                        self.save(e);
                        return self.keep(t, into);
                    }
                };
                match parsed {
                    Some(v) => v,
                    None => {
                        let name = if matches!(r.target, Target::Interface) {
                            "float64"
                        } else {
                            &r.name
                        };
                        let e = self.type_error(&format!("number {text}"), name);
                        self.save(e);
                        self.keep(t, into)
                    }
                }
            }
        }
    }

    fn strukt(&mut self, def: &'static TypeDef, name: &'static str, into: Option<Value>) -> Result<Value, Failed> {
        let fields = self.layout(def);
        let mut object = match into {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let mut seen = vec![false; fields.len()];
        let (ctx_struct, ctx_len, path_len) = (self.ctx_struct, self.ctx_fields.len(), self.path.len());
        self.pos += 1;
        if !self.eat(b'}') {
            loop {
                self.ws();
                let key = self.string();
                self.eat(b':');
                match fields.iter().position(|f| f.json == key) {
                    Some(i) => {
                        let f = &fields[i];
                        if self.strict {
                            if seen[i] {
                                self.strict_error(false, f.json);
                            }
                            seen[i] = true;
                        }
                        if self.embedded_names {
                            self.ctx_fields.extend(f.via.iter().copied());
                        }
                        self.ctx_fields.push(f.json);
                        self.ctx_struct = Some(name);
                        self.push_key(f.json);
                        let earlier = object.remove(f.json);
                        let v = self.value(f.go_type, earlier)?;
                        object.insert(f.json.to_owned(), v);
                    }
                    None => {
                        if self.strict {
                            self.strict_error(true, &key);
                        }
                        self.skip();
                    }
                }
                self.ctx_struct = ctx_struct;
                self.ctx_fields.truncate(ctx_len);
                self.path.truncate(path_len);
                if !self.eat(b',') {
                    self.eat(b'}');
                    break;
                }
            }
        }
        self.finish_struct(&fields, &mut object);
        Ok(Value::Object(object))
    }

    /// The struct as Go encodes it: empty `omitempty` fields out, absent fields at zero.
    fn finish_struct(&mut self, fields: &[Flat], object: &mut Map<String, Value>) {
        for f in fields {
            match object.get(f.json) {
                Some(v) => {
                    let empty = f.omitempty && self.is_empty(f.go_type, v);
                    let zero = f.omitzero && self.is_zero(f.go_type, v);
                    if empty || zero {
                        object.remove(f.json);
                    }
                }
                None => {
                    let left_out = f.omitzero || (f.omitempty && self.empty_when_zero(f.go_type));
                    if !left_out {
                        let z = self.zero(f.go_type);
                        object.insert(f.json.to_owned(), z);
                    }
                }
            }
        }
    }

    fn map(&mut self, key: &'static GoType, value: &'static GoType, into: Option<Value>) -> Result<Value, Failed> {
        let mut object = match into {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        let key_type = self.resolve(key);
        let mut seen: HashSet<String> = HashSet::new();
        let path_len = self.path.len();
        self.pos += 1;
        if !self.eat(b'}') {
            loop {
                self.ws();
                let k = self.string();
                self.eat(b':');
                if self.strict && !seen.insert(k.clone()) {
                    self.strict_error(false, &k);
                }
                self.push_key(&k);
                let v = self.value(value, None)?;
                let key_ok = match key_type.target {
                    Target::Int(bits) => special::go_parse_int(&k, bits).is_some(),
                    Target::Uint(bits) => special::go_parse_uint(&k, bits).is_some(),
                    _ => true,
                };
                if key_ok {
                    object.insert(k, v);
                } else {
                    let e = self.type_error(&format!("number {k}"), &key_type.name);
                    self.save(e);
                }
                self.path.truncate(path_len);
                if !self.eat(b',') {
                    self.eat(b'}');
                    break;
                }
            }
        }
        Ok(Value::Object(object))
    }

    fn slice(&mut self, elem: &'static GoType, into: Option<Value>) -> Result<Value, Failed> {
        let mut earlier = match into {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        };
        let mut items = Vec::new();
        let path_len = self.path.len();
        self.pos += 1;
        if !self.eat(b']') {
            loop {
                self.push_index(items.len());
                let before = earlier.get_mut(items.len()).map(std::mem::take);
                let v = self.value(elem, before)?;
                items.push(v);
                self.path.truncate(path_len);
                if !self.eat(b',') {
                    self.eat(b']');
                    break;
                }
            }
        }
        Ok(Value::Array(items))
    }

    /// `[]byte` from a JSON list of numbers (Go decodes it element by element).
    fn byte_list(&mut self, into: Option<Value>) -> Result<Value, Failed> {
        static BYTE: GoType = GoType::Builtin("uint8");
        let decoded = self.slice(&BYTE, into)?;
        let bytes: Vec<u8> = decoded
            .as_array()
            .map(|a| a.iter().map(|v| v.as_u64().unwrap_or(0) as u8).collect())
            .unwrap_or_default();
        Ok(Value::String(special::base64_encode(&bytes)))
    }

    /// An `interface{}` value: maps and lists of what JSON holds, duplicate keys reported.
    fn interface(&mut self) -> Value {
        let raw = self.skip();
        match json::decode_body(raw) {
            Ok(body) => {
                if self.strict {
                    for d in &body.decoded.duplicates {
                        if self.strict_errors.len() >= MAX_STRICT_ERRORS {
                            break;
                        }
                        let path = if self.path.is_empty() {
                            d.clone()
                        } else if d.starts_with('[') {
                            format!("{}{d}", self.path)
                        } else {
                            format!("{}.{d}", self.path)
                        };
                        let e = StrictError { unknown: false, path };
                        if self.seen.insert(e.clone()) {
                            self.strict_errors.push(e);
                        }
                    }
                }
                body.decoded.value
            }
            Err(_) => Value::Null,
        }
    }

    /// The zero value of `t` as Go encodes it.
    fn zero(&mut self, t: &'static GoType) -> Value {
        if matches!(t, GoType::Pointer(_)) {
            return Value::Null;
        }
        let r = self.resolve(t);
        match r.target {
            Target::Bool => Value::Bool(false),
            Target::String => Value::String(String::new()),
            Target::Int(_) | Target::Uint(_) | Target::Float(_) | Target::IntOrString => Value::from(0),
            Target::Quantity => Value::String("0".into()),
            Target::Struct(def, _) => self.zero_struct(def),
            _ => Value::Null,
        }
    }

    fn zero_struct(&mut self, def: &'static TypeDef) -> Value {
        if let Some(z) = self.zeros.get(def.name()) {
            return z.clone();
        }
        let fields = self.layout(def);
        let mut object = Map::new();
        stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
            self.finish_struct(&fields, &mut object);
        });
        let z = Value::Object(object);
        self.zeros.insert(def.name(), z.clone());
        z
    }

    /// Go's `isEmptyValue` of a value as it encodes.
    fn is_empty(&mut self, t: &'static GoType, v: &Value) -> bool {
        if matches!(t, GoType::Pointer(_) | GoType::Interface) {
            return v.is_null();
        }
        match self.resolve(t).target {
            Target::Bool => v == &Value::Bool(false),
            Target::String | Target::Bytes => v.is_null() || v.as_str() == Some(""),
            Target::Int(_) | Target::Uint(_) | Target::Float(_) => v.as_f64() == Some(0.0),
            Target::Slice(_) => v.is_null() || v.as_array().is_some_and(Vec::is_empty),
            Target::Map(..) => v.is_null() || v.as_object().is_some_and(Map::is_empty),
            _ => false,
        }
    }

    /// Whether `omitzero` leaves `v` out: the zero value, or a zero time.
    fn is_zero(&mut self, t: &'static GoType, v: &Value) -> bool {
        match self.resolve(t).target {
            Target::Time | Target::MicroTime | Target::Raw => v.is_null(),
            Target::Struct(..) | Target::Quantity | Target::IntOrString => *v == self.zero(t),
            _ => self.is_empty(t, v),
        }
    }

    /// Whether the zero value of `t` is empty (so an absent `omitempty` field stays out).
    fn empty_when_zero(&mut self, t: &'static GoType) -> bool {
        if matches!(t, GoType::Pointer(_) | GoType::Interface) {
            return true;
        }
        matches!(
            self.resolve(t).target,
            Target::Bool
                | Target::String
                | Target::Bytes
                | Target::Int(_)
                | Target::Uint(_)
                | Target::Float(_)
                | Target::Slice(_)
                | Target::Map(..)
        )
    }
}

fn builtin_target(name: &str) -> Target {
    match name {
        "bool" => Target::Bool,
        "string" => Target::String,
        "int8" => Target::Int(8),
        "int16" => Target::Int(16),
        "int32" | "rune" => Target::Int(32),
        "int" | "int64" => Target::Int(64),
        "uint8" | "byte" => Target::Uint(8),
        "uint16" => Target::Uint(16),
        "uint32" => Target::Uint(32),
        "uint" | "uint64" | "uintptr" => Target::Uint(64),
        "float32" => Target::Float(32),
        "float64" => Target::Float(64),
        _ => Target::Raw,
    }
}

/// `reflect.Type.Name()`: `DeploymentSpec` of `apps/v1.DeploymentSpec`.
fn base_name(qualified: &'static str) -> &'static str {
    qualified.rsplit('.').next().unwrap_or(qualified)
}
