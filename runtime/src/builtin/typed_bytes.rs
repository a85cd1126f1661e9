//! The typed decoder's fast path: the body decoded straight to the bytes Go's encoder writes
//! for the decoded value (struct fields in declaration order, map keys sorted), without
//! building it.
//!
//! It takes the same steps as [`Walker::decode`], so its errors are the same; what it cannot
//! write in one pass (a key repeated in a struct or a map, which Go merges into what the first
//! occurrence decoded) stops it, and the caller decodes the body by the value instead. The
//! tests check both give the same bytes.

use serde_json::Value;

use super::plan::{Target, TypeId};
use super::special;
use super::typed::{Failed, Outcome, Walker};

/// Why the byte walk stopped.
pub(crate) enum Stop {
    /// Decoding failed: Go's error.
    Failed(Failed),
    /// A repeated key: decode by the value.
    Repeated,
}

impl From<Failed> for Stop {
    fn from(f: Failed) -> Stop {
        Stop::Failed(f)
    }
}

impl Walker<'_> {
    /// Decodes the input into the struct type `root`, writing the encoded value to `out`
    /// with `type_meta` (apiVersion, kind) as the encoder sets them. The outcome's value is
    /// `Null`; on [`Stop::Repeated`] nothing is appended.
    pub(crate) fn decode_to(
        mut self,
        root: TypeId,
        type_meta: (&str, &str),
        out: &mut Vec<u8>,
    ) -> Result<Outcome, Stop> {
        self.ws();
        let mark = out.len();
        self.take_buffers();
        let result = if self.peek() == b'{' {
            self.struct_to(root, out, Some(type_meta))
        } else {
            Err(Stop::Repeated)
        };
        self.give_buffers();
        match result {
            Ok(()) => match self.saved {
                Some(e) => {
                    out.truncate(mark);
                    Ok(Outcome {
                        value: Value::Null,
                        strict: Vec::new(),
                        error: Some(e),
                    })
                }
                None => Ok(Outcome {
                    value: Value::Null,
                    strict: self.strict_errors,
                    error: None,
                }),
            },
            Err(Stop::Failed(e)) => {
                out.truncate(mark);
                Ok(Outcome {
                    value: Value::Null,
                    strict: Vec::new(),
                    error: Some(e),
                })
            }
            Err(Stop::Repeated) => {
                out.truncate(mark);
                Err(Stop::Repeated)
            }
        }
    }

    fn buf(&mut self) -> Vec<u8> {
        let mut b = self.bufs.pop().unwrap_or_default();
        b.clear();
        b
    }

    fn value_to(&mut self, t: TypeId, out: &mut Vec<u8>) -> Result<(), Stop> {
        stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
            self.value_to_inner(t, out)
        })
    }

    fn value_to_inner(&mut self, t: TypeId, out: &mut Vec<u8>) -> Result<(), Stop> {
        self.ws();
        let plan = self.plan;
        let node = plan.node(t);
        if let Target::Pointer(inner) = &node.target {
            if self.peek() == b'n' {
                self.literal();
                out.extend_from_slice(b"null");
                return Ok(());
            }
            return self.value_to(*inner, out);
        }
        let special = special::decoder(&node.target);
        if let Some(decode) = special {
            let v = self.decode_itself(decode)?;
            plan.write(t, &v, out);
            return Ok(());
        }
        match (self.peek(), &node.target) {
            (b'{', Target::Struct(_)) => self.struct_to(t, out, None),
            (b'{', Target::Map { value, .. }) => self.map_to(*value, t, out),
            (b'[', Target::Slice(elem)) => self.slice_to(*elem, out),
            (b'{' | b'[', Target::Interface) | (b'[', Target::Bytes) => {
                // Rare in Kubernetes' types: by the value.
                let v = match node.target {
                    Target::Bytes => self.value(t, None)?,
                    _ => self.interface(),
                };
                plan.write(t, &v, out);
                Ok(())
            }
            (b'{', _) => {
                self.mismatch("object", t);
                self.skip();
                out.extend_from_slice(&node.zero_json);
                Ok(())
            }
            (b'[', _) => {
                self.mismatch("array", t);
                self.skip();
                out.extend_from_slice(&node.zero_json);
                Ok(())
            }
            (b'"', Target::String) => {
                self.string_to(out);
                Ok(())
            }
            (b'-' | b'0'..=b'9', Target::Int(bits)) => {
                let start = self.pos;
                let lit = self.literal();
                let text = std::str::from_utf8(lit).unwrap_or_default();
                match special::go_parse_int(text, *bits) {
                    // A JSON integer is written as Go writes it, but for `-0`.
                    Some(n) if n != 0 => out.extend_from_slice(lit),
                    Some(_) => out.push(b'0'),
                    None => {
                        self.pos = start;
                        let v = self.value(t, None)?;
                        plan.write(t, &v, out);
                    }
                }
                Ok(())
            }
            _ => {
                let v = self.value(t, None)?;
                plan.write(t, &v, out);
                Ok(())
            }
        }
    }

    /// A string copied as it is when Go's encoder would write it so (printable ASCII without
    /// the characters it escapes), else decoded and escaped as Go escapes it.
    fn string_to(&mut self, out: &mut Vec<u8>) {
        let start = self.pos;
        let (end, escaped) = crate::text::run(self.input, start + 1);
        if !escaped && self.input.get(end) == Some(&b'"') {
            self.pos = end + 1;
            out.extend_from_slice(&self.input[start..self.pos]);
            return;
        }
        let s = self.string();
        kstruct_schema::go::write_string(out, &s);
    }

    fn struct_to(&mut self, t: TypeId, out: &mut Vec<u8>, type_meta: Option<(&str, &str)>) -> Result<(), Stop> {
        let plan = self.plan;
        let Target::Struct(s) = &plan.node(t).target else {
            return Err(Stop::Repeated);
        };
        let mut buf = self.buf();
        // Each field's value: (field index, start, end) in `buf`.
        let mut slots = self.slots.pop().unwrap_or_default();
        slots.clear();
        let whole = self.struct_fields(s, true, |walker, i| {
            let start = buf.len();
            walker.value_to(s.fields[i].ty, &mut buf)?;
            slots.push((i, start, buf.len()));
            Ok::<(), Stop>(())
        })?;
        if !whole {
            // Go decodes a repeat into what the first left: by the value.
            self.bufs.push(buf);
            self.slots.push(slots);
            return Err(Stop::Repeated);
        }
        // The fields set, then those written at zero, merged in declaration order.
        slots.sort_unstable_by_key(|slot| slot.0);
        out.push(b'{');
        let mut first = true;
        // The root's apiVersion and kind are written whatever the body says.
        let with_meta: Vec<usize>;
        let always_list: &[usize] = match type_meta {
            None => &s.always,
            Some(_) => {
                let mut list = s.always.clone();
                list.extend(
                    s.fields
                        .iter()
                        .enumerate()
                        .filter(|(_, f)| f.json == "apiVersion" || f.json == "kind")
                        .map(|(i, _)| i),
                );
                list.sort_unstable();
                list.dedup();
                with_meta = list;
                &with_meta
            }
        };
        let (mut set, mut always) = (slots.iter().peekable(), always_list.iter().peekable());
        loop {
            let take_set = match (set.peek(), always.peek()) {
                (None, None) => break,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(&&(i, _, _)), Some(&&a)) => i <= a,
            };
            let (i, range) = if take_set {
                let Some(&(i, start, end)) = set.next() else { break };
                if always.peek() == Some(&&i) {
                    always.next();
                }
                (i, Some((start, end)))
            } else {
                let Some(&a) = always.next() else { break };
                (a, None)
            };
            let f = &s.fields[i];
            let node = plan.node(f.ty);
            let meta = match (type_meta, f.json) {
                (Some((api_version, _)), "apiVersion") => Some(api_version),
                (Some((_, kind)), "kind") => Some(kind),
                _ => None,
            };
            let value: &[u8] = match range {
                Some((start, end)) => {
                    let v = &buf[start..end];
                    let empty = f.omitempty && node.empty_when_zero && is_empty_json(&node.target, v);
                    let zero = f.omitzero && v == node.zero_json.as_slice();
                    if (empty || zero) && meta.is_none() {
                        continue;
                    }
                    v
                }
                None if meta.is_some() => b"",
                None => &node.zero_json,
            };
            if !first {
                out.push(b',');
            }
            first = false;
            out.push(b'"');
            out.extend_from_slice(f.json.as_bytes());
            out.extend_from_slice(b"\":");
            match meta {
                Some(text) => kstruct_schema::go::write_string(out, text),
                None => out.extend_from_slice(value),
            }
        }
        out.push(b'}');
        self.bufs.push(buf);
        self.slots.push(slots);
        Ok(())
    }

    fn map_to(&mut self, value: TypeId, t: TypeId, out: &mut Vec<u8>) -> Result<(), Stop> {
        let plan = self.plan;
        let Target::Map { key: key_type, .. } = plan.node(t).target else {
            return Err(Stop::Repeated);
        };
        let mut buf = self.buf();
        // Each entry: its key, and its value's range in `buf`.
        let mut entries: Vec<(std::borrow::Cow<'_, str>, usize, usize)> = Vec::new();
        self.map_entries(|walker, k| {
            let start = buf.len();
            walker.value_to(value, &mut buf)?;
            if walker.map_key_ok(key_type, &k) {
                entries.push((k, start, buf.len()));
            }
            Ok::<(), Stop>(())
        })?;
        // Go writes map keys sorted; bodies usually come sorted already.
        if !entries.windows(2).all(|w| w[0].0 < w[1].0) {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        if entries.windows(2).any(|w| w[0].0 == w[1].0) {
            // A repeated key: Go keeps the last value, and strict decoding reports it.
            self.bufs.push(buf);
            return Err(Stop::Repeated);
        }
        out.push(b'{');
        for (i, (k, start, end)) in entries.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            kstruct_schema::go::write_string(out, k);
            out.push(b':');
            out.extend_from_slice(&buf[*start..*end]);
        }
        out.push(b'}');
        self.bufs.push(buf);
        Ok(())
    }

    fn slice_to(&mut self, elem: TypeId, out: &mut Vec<u8>) -> Result<(), Stop> {
        let path_len = self.path.len();
        self.pos += 1;
        out.push(b'[');
        if !self.eat(b']') {
            let mut i = 0;
            loop {
                if i > 0 {
                    out.push(b',');
                }
                self.push_index(i);
                self.value_to(elem, out)?;
                self.path.truncate(path_len);
                i += 1;
                if !self.eat(b',') {
                    self.eat(b']');
                    break;
                }
            }
        }
        out.push(b']');
        Ok(())
    }
}

/// Go's `isEmptyValue` of a value (of a type whose zero value is empty) by its JSON.
fn is_empty_json(target: &Target, v: &[u8]) -> bool {
    match target {
        Target::Bool => v == b"false",
        Target::String | Target::Bytes => v == b"\"\"" || v == b"null",
        Target::Int(_) | Target::Uint(_) | Target::Float(_) => v == b"0",
        Target::Slice(_) => v == b"[]" || v == b"null",
        Target::Map { .. } => v == b"{}" || v == b"null",
        Target::Pointer(_) | Target::Interface => v == b"null",
        _ => false,
    }
}
