//! The value go-yaml v2 produces when it decodes into `interface{}`.
//!
//! Keys keep their Go types until `convertToJSONableObject` turns them into
//! strings, because duplicate detection compares them with Go's `==` and the
//! error texts print them with `%#v`.

use std::collections::HashMap;
use std::mem;

/// A decoded YAML value, shaped like go-yaml v2's `interface{}` results.
#[derive(Debug, Default)]
pub(super) enum GoVal {
    /// `nil`
    #[default]
    Null,
    /// `bool`
    Bool(bool),
    /// `int` (64-bit on the platforms Kubernetes ships for)
    Int(i64),
    /// `uint64`, only for integers above `i64::MAX`
    Uint(u64),
    /// `float64`
    Float(f64),
    /// `string`
    Str(String),
    /// `[]interface{}`
    Seq(Vec<GoVal>),
    /// `map[interface{}]interface{}`, in insertion order
    Map(Vec<(GoVal, GoVal)>),
}

impl GoVal {
    fn take_children(&mut self, into: &mut Vec<GoVal>) {
        match self {
            GoVal::Seq(items) => into.append(items),
            GoVal::Map(entries) => {
                for (k, v) in entries.drain(..) {
                    into.push(k);
                    into.push(v);
                }
            }
            _ => {}
        }
    }
}

// Deeply nested values (block nesting and alias chains reach tens of
// thousands of levels) must not be dropped recursively.
impl Drop for GoVal {
    fn drop(&mut self) {
        if !matches!(self, GoVal::Seq(_) | GoVal::Map(_)) {
            return;
        }
        let mut stack = Vec::new();
        self.take_children(&mut stack);
        while let Some(mut v) = stack.pop() {
            v.take_children(&mut stack);
        }
    }
}

/// Go `==` on the dynamic value of an `interface{}` map key, reduced to
/// something hashable. `NaN` has no representation: it never equals anything.
#[derive(Debug, PartialEq, Eq, Hash, Clone)]
pub(super) enum KeyRepr {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(u64),
    Str(String),
}

impl KeyRepr {
    /// `None` for keys that never compare equal (`NaN`) or that cannot be
    /// keys at all (collections, rejected before insertion).
    pub(super) fn of(v: &GoVal) -> Option<KeyRepr> {
        Some(match v {
            GoVal::Null => KeyRepr::Null,
            GoVal::Bool(b) => KeyRepr::Bool(*b),
            GoVal::Int(i) => KeyRepr::Int(*i),
            GoVal::Uint(u) => KeyRepr::Uint(*u),
            GoVal::Float(f) if f.is_nan() => return None,
            // +0 and -0 are the same Go map key.
            GoVal::Float(f) => KeyRepr::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
            GoVal::Str(s) => KeyRepr::Str(s.clone()),
            GoVal::Seq(_) | GoVal::Map(_) => return None,
        })
    }
}

/// A map under construction, with Go's key equality.
#[derive(Debug, Default)]
pub(super) struct MapBuilder {
    pub(super) entries: Vec<(GoVal, GoVal)>,
    index: HashMap<KeyRepr, usize>,
}

impl MapBuilder {
    /// Sets `key` to `value` the way `reflect.Value.SetMapIndex` does on a Go
    /// map: an equal key is replaced (float keys are updated in place, which
    /// is how `-0` can replace `0`) together with its value. Returns whether
    /// the key was already present.
    pub(super) fn set(&mut self, key: GoVal, value: GoVal) -> bool {
        match KeyRepr::of(&key) {
            Some(repr) => {
                if let Some(&i) = self.index.get(&repr) {
                    let slot = &mut self.entries[i];
                    drop(mem::replace(&mut slot.0, key));
                    drop(mem::replace(&mut slot.1, value));
                    true
                } else {
                    self.index.insert(repr, self.entries.len());
                    self.entries.push((key, value));
                    false
                }
            }
            None => {
                self.entries.push((key, value));
                false
            }
        }
    }

    pub(super) fn contains(&self, key: &GoVal) -> bool {
        KeyRepr::of(key).is_some_and(|r| self.index.contains_key(&r))
    }

    pub(super) fn finish(self) -> GoVal {
        GoVal::Map(self.entries)
    }
}
