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

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::plan::{Flat, Plan, Struct, Target, TypeId};
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

const MAX_STRICT_ERRORS: usize = 100;

/// The byte walk's buffers between walks on a thread (see [`Walker::take_buffers`]).
type Buffers = (Vec<Vec<u8>>, Vec<Vec<(usize, usize, usize)>>);

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// One decoding pass.
pub(crate) struct Walker<'a> {
    pub(super) input: &'a [u8],
    /// The input as text, when it is valid UTF-8 (keys are then borrowed from it): one check
    /// of the whole input costs less than one per key.
    text: Option<&'a str>,
    pub(super) pos: usize,
    pub(super) plan: &'static Plan,
    /// Type-error paths name the embedded structs a promoted field passes through (the
    /// decoder of Kubernetes 1.35 and later, synced with Go 1.24's `encoding/json`).
    pub(super) embedded_names: bool,
    pub(super) strict: bool,
    pub(super) path: String,
    pub(super) strict_errors: Vec<StrictError>,
    pub(super) seen: HashSet<StrictError>,
    pub(super) ctx_struct: Option<&'static str>,
    pub(super) ctx_fields: Vec<&'static str>,
    pub(super) saved: Option<Failed>,
    /// Buffers for the byte walk's structs and maps, one per open level, reused.
    pub(super) bufs: Vec<Vec<u8>>,
    /// The byte walk's lists of struct fields decoded, one per open struct, reused.
    pub(super) slots: Vec<Vec<(usize, usize, usize)>>,
}

impl<'a> Walker<'a> {
    /// A pass over `input` (valid JSON), collecting strict errors when `strict`.
    pub(crate) fn new(input: &'a [u8], plan: &'static Plan, embedded_names: bool, strict: bool) -> Walker<'a> {
        Walker {
            input,
            text: std::str::from_utf8(input).ok(),
            pos: 0,
            plan,
            embedded_names,
            strict,
            path: String::new(),
            strict_errors: Vec::new(),
            seen: HashSet::new(),
            ctx_struct: None,
            ctx_fields: Vec::new(),
            saved: None,
            bufs: Vec::new(),
            slots: Vec::new(),
        }
    }

    /// Takes the byte walk's buffers left by earlier walks on this thread: each struct and
    /// map level writes into one, and a document of a few kilobytes would otherwise allocate
    /// and grow a dozen of them.
    pub(super) fn take_buffers(&mut self) {
        BUFFERS.with(|b| {
            if let Ok(mut b) = b.try_borrow_mut() {
                std::mem::swap(&mut self.bufs, &mut b.0);
                std::mem::swap(&mut self.slots, &mut b.1);
            }
        });
    }

    /// Leaves the buffers for the next walk on this thread (a few, of bounded size: a huge
    /// document's are freed).
    pub(super) fn give_buffers(&mut self) {
        const KEEP: usize = 64;
        const KEEP_BYTES: usize = 1 << 16;
        self.bufs.retain(|b| b.capacity() <= KEEP_BYTES);
        self.bufs.truncate(KEEP);
        self.slots.retain(|s| s.capacity() <= KEEP_BYTES);
        self.slots.truncate(KEEP);
        BUFFERS.with(|b| {
            if let Ok(mut b) = b.try_borrow_mut() {
                std::mem::swap(&mut self.bufs, &mut b.0);
                std::mem::swap(&mut self.slots, &mut b.1);
            }
        });
    }

    /// Decodes the input into the struct type `root`.
    pub(crate) fn decode(mut self, root: TypeId) -> Outcome {
        self.ws();
        let result = match self.peek() {
            b'{' | b'n' => self.value(root, None),
            c => {
                // The pre-parse refused any other root before; keep Go's answer anyway.
                let kind = match c {
                    b'[' => "array",
                    b'"' => "string",
                    b't' | b'f' => "bool",
                    _ => "number",
                };
                Err(self.type_error(kind, &self.plan.node(root).name))
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

    pub(super) fn ws(&mut self) {
        while matches!(self.input.get(self.pos), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    pub(super) fn peek(&self) -> u8 {
        self.input.get(self.pos).copied().unwrap_or(0)
    }

    /// Steps over `c` (and the white space before it) when it is next.
    pub(super) fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.peek() == c {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    pub(super) fn string(&mut self) -> String {
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

    /// An object key: borrowed from the input when it has no escapes and is ASCII (the common
    /// case), decoded otherwise.
    pub(super) fn key(&mut self) -> std::borrow::Cow<'a, str> {
        let start = self.pos + 1;
        // Keys without escapes are the input's own bytes (the syntax check ran before, so a
        // stop is a quote or a backslash).
        let end = crate::text::stop(self.input, start);
        if self.input.get(end) == Some(&b'"')
            && let Some(key) = self.text.and_then(|t| t.get(start..end))
        {
            self.pos = end + 1;
            return std::borrow::Cow::Borrowed(key);
        }
        std::borrow::Cow::Owned(self.string())
    }

    /// A number, `true`, `false` or `null`.
    pub(super) fn literal(&mut self) -> &'a [u8] {
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
    pub(super) fn skip(&mut self) -> &'a [u8] {
        self.ws();
        let start = self.pos;
        self.pos = json::skip_valid(self.input, self.pos);
        &self.input[start..self.pos]
    }

    pub(super) fn push_key(&mut self, key: &str) {
        if !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(key);
    }

    pub(super) fn push_index(&mut self, i: usize) {
        self.path.push('[');
        json::push_decimal(&mut self.path, i);
        self.path.push(']');
    }

    pub(super) fn strict_error(&mut self, unknown: bool, key: &str) {
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
    pub(super) fn type_error(&self, value: &str, go_type: &str) -> Failed {
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

    pub(super) fn save(&mut self, e: Failed) {
        if self.saved.is_none() {
            self.saved = Some(e);
        }
    }

    /// Decodes the next value into a Go value of type `t` that holds `into` (its earlier
    /// value, for a repeated key; `None`: the zero value).
    pub(super) fn value(&mut self, t: TypeId, into: Option<Value>) -> Result<Value, Failed> {
        stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
            self.value_inner(t, into)
        })
    }

    fn value_inner(&mut self, t: TypeId, into: Option<Value>) -> Result<Value, Failed> {
        self.ws();
        let plan = self.plan;
        let node = plan.node(t);
        if let Target::Pointer(inner) = &node.target {
            if self.peek() == b'n' {
                self.literal();
                return Ok(Value::Null);
            }
            return self.value(*inner, into.filter(|v| !v.is_null()));
        }
        let special = special::decoder(&node.target);
        if let Some(decode) = special {
            return self.decode_itself(decode);
        }
        match self.peek() {
            b'{' => match &node.target {
                Target::Struct(_) => self.strukt(t, into),
                Target::Map { key, value } => self.map(*key, *value, into),
                Target::Interface => Ok(self.interface()),
                _ => {
                    self.mismatch("object", t);
                    self.skip();
                    Ok(into.unwrap_or_else(|| node.zero.clone()))
                }
            },
            b'[' => match &node.target {
                Target::Slice(elem) => self.slice(*elem, into),
                Target::Bytes => self.byte_list(into),
                Target::Interface => Ok(self.interface()),
                _ => {
                    self.mismatch("array", t);
                    self.skip();
                    Ok(into.unwrap_or_else(|| node.zero.clone()))
                }
            },
            _ => Ok(self.literal_store(t, into)),
        }
    }

    /// The next value read by its type's own `UnmarshalJSON`: its errors stop decoding, with
    /// the field added to a type error's text.
    pub(super) fn decode_itself(&mut self, decode: special::Decoder) -> Result<Value, Failed> {
        let raw = self.skip();
        decode(raw).map_err(|e| match e {
            SpecialError::Type { value, go_type } => self.type_error(&value, go_type),
            SpecialError::Other(message) => Failed {
                message,
                path: self.path.clone(),
            },
        })
    }

    /// Saves the type error of a `value` the type `t` cannot hold.
    pub(super) fn mismatch(&mut self, value: &str, t: TypeId) {
        if self.saved.is_none() {
            let e = self.type_error(value, &self.plan.node(t).name);
            self.saved = Some(e);
        }
    }

    fn literal_store(&mut self, t: TypeId, into: Option<Value>) -> Value {
        let node = self.plan.node(t);
        let keep = |into: Option<Value>| into.unwrap_or_else(|| node.zero.clone());
        let c = self.peek();
        if c == b'"' {
            let s = self.string();
            return match node.target {
                Target::String | Target::Interface => Value::String(s),
                Target::Bytes => match special::base64_decode(s.as_bytes()) {
                    Ok(bytes) => Value::String(special::base64_encode(&bytes)),
                    Err(at) => {
                        let e = Failed {
                            message: format!("illegal base64 data at input byte {at}"),
                            path: self.path.clone(),
                        };
                        self.save(e);
                        keep(into)
                    }
                },
                _ => {
                    self.mismatch("string", t);
                    keep(into)
                }
            };
        }
        let lit = self.literal();
        match c {
            b'n' => match node.target {
                Target::Interface | Target::Slice(_) | Target::Map { .. } | Target::Bytes => Value::Null,
                _ => keep(into),
            },
            b't' | b'f' => match node.target {
                Target::Bool | Target::Interface => Value::Bool(c == b't'),
                _ => {
                    self.mismatch("bool", t);
                    keep(into)
                }
            },
            _ => {
                // Numbers are ASCII: the literal is its own text.
                let text = std::str::from_utf8(lit).unwrap_or_default();
                let parsed = match node.target {
                    Target::Int(bits) => special::go_parse_int(text, bits).map(Value::from),
                    Target::Uint(bits) => special::go_parse_uint(text, bits).map(Value::from),
                    Target::Float(bits) => special::go_parse_float(text, bits),
                    Target::Interface => special::go_parse_int(text, 64)
                        .map(Value::from)
                        .or_else(|| special::go_parse_float(text, 64)),
                    _ => {
                        self.mismatch("number", t);
                        return keep(into);
                    }
                };
                match parsed {
                    Some(v) => v,
                    None => {
                        if self.saved.is_none() {
                            let name = if matches!(node.target, Target::Interface) {
                                "float64"
                            } else {
                                &node.name
                            };
                            let e = self.type_error(&format!("number {text}"), name);
                            self.saved = Some(e);
                        }
                        keep(into)
                    }
                }
            }
        }
    }

    /// Walks the object at the cursor as Go's decoder matches its keys to the fields of `s`:
    /// `field` decodes each known field's value (by index, the error context and path set for
    /// it); unknown keys are reported (strict) and skipped. A repeated field is Go's duplicate
    /// (reported when strict) and decoded again, or, with `repeat_stops`, ends the walk:
    /// `Ok(false)`, the cursor left in the object.
    pub(super) fn struct_fields<E>(
        &mut self,
        s: &'static Struct,
        repeat_stops: bool,
        mut field: impl FnMut(&mut Self, usize) -> Result<(), E>,
    ) -> Result<bool, E> {
        // Fields seen, by index (Go's duplicate check).
        let mut seen = Seen::new(s.fields.len());
        let (ctx_struct, ctx_len, path_len) = (self.ctx_struct, self.ctx_fields.len(), self.path.len());
        self.pos += 1;
        if self.eat(b'}') {
            return Ok(true);
        }
        loop {
            self.ws();
            let key = self.key();
            self.eat(b':');
            match s.field(&key) {
                Some(i) => {
                    let f = &s.fields[i];
                    if seen.insert(i) {
                        if repeat_stops {
                            return Ok(false);
                        }
                        if self.strict {
                            self.strict_error(false, f.json);
                        }
                    }
                    if self.embedded_names {
                        self.ctx_fields.extend(f.via.iter().copied());
                    }
                    self.ctx_fields.push(f.json);
                    self.ctx_struct = Some(s.name);
                    self.push_key(f.json);
                    field(self, i)?;
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
                return Ok(true);
            }
        }
    }

    fn strukt(&mut self, t: TypeId, into: Option<Value>) -> Result<Value, Failed> {
        let plan = self.plan;
        let Target::Struct(s) = &plan.node(t).target else {
            return Ok(Value::Null);
        };
        let mut object = match into {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        self.struct_fields(s, false, |walker, i| {
            let f = &s.fields[i];
            let earlier = object.remove(f.json);
            let v = walker.value(f.ty, earlier)?;
            object.insert(f.json.to_owned(), v);
            Ok(())
        })?;
        self.finish_struct(&s.fields, &mut object);
        Ok(Value::Object(object))
    }

    /// The struct as Go encodes it: empty `omitempty` fields out, absent fields at zero.
    fn finish_struct(&self, fields: &[Flat], object: &mut Map<String, Value>) {
        for f in fields {
            let node = self.plan.node(f.ty);
            match object.get(f.json) {
                Some(v) => {
                    let empty = f.omitempty && node.empty_when_zero && is_empty(&node.target, v);
                    let zero = f.omitzero && *v == node.zero;
                    if empty || zero {
                        object.remove(f.json);
                    }
                }
                None => {
                    let left_out = f.omitzero || (f.omitempty && node.empty_when_zero);
                    if !left_out {
                        object.insert(f.json.to_owned(), node.zero.clone());
                    }
                }
            }
        }
    }

    /// Walks the object at the cursor as Go's decoder reads a map: `entry` decodes each
    /// value (the path set for it), a repeated key is Go's duplicate (reported when strict).
    pub(super) fn map_entries<E>(
        &mut self,
        mut entry: impl FnMut(&mut Self, std::borrow::Cow<'a, str>) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut seen: HashSet<std::borrow::Cow<'a, str>> = HashSet::new();
        let path_len = self.path.len();
        self.pos += 1;
        if self.eat(b'}') {
            return Ok(());
        }
        loop {
            self.ws();
            let k = self.key();
            self.eat(b':');
            if self.strict && !seen.insert(k.clone()) {
                self.strict_error(false, &k);
            }
            self.push_key(&k);
            entry(self, k)?;
            self.path.truncate(path_len);
            if !self.eat(b',') {
                self.eat(b'}');
                return Ok(());
            }
        }
    }

    /// Whether Go keeps map key `k` of type `key`: a key of a number type must be a number
    /// of its range, else the type error is saved and the entry dropped.
    pub(super) fn map_key_ok(&mut self, key: TypeId, k: &str) -> bool {
        let node = self.plan.node(key);
        let ok = match node.target {
            Target::Int(bits) => special::go_parse_int(k, bits).is_some(),
            Target::Uint(bits) => special::go_parse_uint(k, bits).is_some(),
            _ => true,
        };
        if !ok && self.saved.is_none() {
            let e = self.type_error(&format!("number {k}"), &node.name);
            self.saved = Some(e);
        }
        ok
    }

    fn map(&mut self, key: TypeId, value: TypeId, into: Option<Value>) -> Result<Value, Failed> {
        let mut object = match into {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        self.map_entries(|walker, k| {
            let v = walker.value(value, None)?;
            if walker.map_key_ok(key, &k) {
                object.insert(k.into_owned(), v);
            }
            Ok(())
        })?;
        Ok(Value::Object(object))
    }

    fn slice(&mut self, elem: TypeId, into: Option<Value>) -> Result<Value, Failed> {
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
    fn byte_list(&mut self, _into: Option<Value>) -> Result<Value, Failed> {
        let mut bytes = Vec::new();
        let path_len = self.path.len();
        self.pos += 1;
        if !self.eat(b']') {
            loop {
                self.push_index(bytes.len());
                self.ws();
                let lit = self.literal();
                let text = std::str::from_utf8(lit).unwrap_or_default();
                match special::go_parse_uint(text, 8) {
                    Some(b) => bytes.push(b as u8),
                    None => {
                        let kind = match lit.first() {
                            Some(b't' | b'f') => "bool".to_owned(),
                            Some(b'n') => "null".to_owned(),
                            Some(b'"') => "string".to_owned(),
                            _ => format!("number {text}"),
                        };
                        if self.saved.is_none() && kind != "null" {
                            let e = self.type_error(&kind, "uint8");
                            self.saved = Some(e);
                        }
                        bytes.push(0);
                    }
                }
                self.path.truncate(path_len);
                if !self.eat(b',') {
                    self.eat(b']');
                    break;
                }
            }
        }
        Ok(Value::String(special::base64_encode(&bytes)))
    }

    /// An `interface{}` value: maps and lists of what JSON holds, duplicate keys reported.
    pub(super) fn interface(&mut self) -> Value {
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
}

/// The fields of a struct seen so far (Go keeps a bitset for up to 64 fields).
pub(super) enum Seen {
    Bits(u64),
    Many(Vec<bool>),
}

impl Seen {
    pub(super) fn new(fields: usize) -> Seen {
        if fields <= 64 {
            Seen::Bits(0)
        } else {
            Seen::Many(vec![false; fields])
        }
    }

    /// Marks field `i`; whether it was seen before.
    pub(super) fn insert(&mut self, i: usize) -> bool {
        match self {
            Seen::Bits(b) => {
                let before = *b & (1 << i) != 0;
                *b |= 1 << i;
                before
            }
            Seen::Many(v) => std::mem::replace(&mut v[i], true),
        }
    }
}

/// Go's `isEmptyValue` of a value of a type whose zero value is empty, as it encodes.
fn is_empty(target: &Target, v: &Value) -> bool {
    match target {
        Target::Bool => v == &Value::Bool(false),
        Target::String | Target::Bytes => v.is_null() || v.as_str() == Some(""),
        Target::Int(_) | Target::Uint(_) | Target::Float(_) => v.as_f64() == Some(0.0),
        Target::Slice(_) => v.is_null() || v.as_array().is_some_and(Vec::is_empty),
        Target::Map { .. } => v.is_null() || v.as_object().is_some_and(Map::is_empty),
        Target::Pointer(_) | Target::Interface => v.is_null(),
        _ => false,
    }
}
