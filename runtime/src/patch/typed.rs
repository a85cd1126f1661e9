//! The field manager's typed view of a custom resource: structured-merge-diff's schema as the
//! CRD handler builds it from a version's schema, the checks that turn an apply body into a
//! typed value (`field not declared in schema`, `expected string, got ...`), and the merge
//! of an applied configuration into the stored object by that schema.
//!
//! The schema differs from the one pruning reads:
//! - every resource root and `x-kubernetes-embedded-resource` node has `apiVersion` and `kind`
//!   as strings and `metadata` as the built-in ObjectMeta, whatever the CRD declares there;
//! - `x-kubernetes-preserve-unknown-fields` holds for a node and every node written inside it
//!   (not for ObjectMeta, a named type), and `spec.preserveUnknownFields: true` for every
//!   object; an object with no properties takes any key;
//! - strings with a format other than `byte`, nodes without a type (int-or-string) and
//!   preserved values accept any scalar, and typeless nodes any value.

use std::collections::HashSet;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use kstruct_schema::go::{quote, sprint_sharp_v, sprint_v, type_name};
use kstruct_schema::{AdditionalProperties, Structural};

/// ObjectMeta's schema as the built-in OpenAPI definitions give it to structured-merge-diff
/// (`Time` is a string with a format, so any scalar; an owner reference's required strings
/// default to `""`, as openapi-gen writes them, so an item without `uid` is named `[uid=""]`).
const OBJECT_META: &str = r#"{"type": "object", "properties": {
  "name": {"type": "string"}, "generateName": {"type": "string"}, "namespace": {"type": "string"},
  "selfLink": {"type": "string"}, "uid": {"type": "string"}, "resourceVersion": {"type": "string"},
  "generation": {"type": "integer"}, "deletionGracePeriodSeconds": {"type": "integer"},
  "creationTimestamp": {"type": "string", "format": "date-time"},
  "deletionTimestamp": {"type": "string", "format": "date-time"},
  "labels": {"type": "object", "additionalProperties": {"type": "string"}},
  "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
  "ownerReferences": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["uid"],
    "items": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
      "apiVersion": {"type": "string", "default": ""}, "kind": {"type": "string", "default": ""},
      "name": {"type": "string", "default": ""}, "uid": {"type": "string", "default": ""},
      "controller": {"type": "boolean"}, "blockOwnerDeletion": {"type": "boolean"}}}},
  "finalizers": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
  "managedFields": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "object", "properties": {
    "manager": {"type": "string"}, "operation": {"type": "string"}, "apiVersion": {"type": "string"},
    "time": {"type": "string", "format": "date-time"}, "fieldsType": {"type": "string"},
    "fieldsV1": {"type": "object"}, "subresource": {"type": "string"}}}}}}"#;

fn object_meta() -> &'static Structural {
    static META: LazyLock<Structural> = LazyLock::new(|| {
        kstruct_schema::convert::from_text(OBJECT_META)
            .ok()
            .flatten()
            .unwrap_or_default()
    });
    &META
}

fn string() -> &'static Structural {
    static STRING: LazyLock<Structural> = LazyLock::new(|| {
        let mut s = Structural::default();
        s.generic.type_ = "string".into();
        s
    });
    &STRING
}

/// A type of structured-merge-diff's schema.
#[derive(Debug, Clone, Copy)]
pub(super) enum Ty<'a> {
    /// `__untyped_deduced_`: any value; objects merge key by key, lists are replaced.
    Any,
    /// A node of the CRD's schema (or of ObjectMeta's).
    Node {
        s: &'a Structural,
        /// Whether unknown keys of its objects are accepted (inherited).
        preserve: bool,
        /// A resource root or embedded resource: typed `apiVersion`, `kind` and `metadata`.
        resource: bool,
    },
}

/// structured-merge-diff's schema of one version of a custom resource.
#[derive(Debug, Clone, Copy)]
pub(super) struct TypedSchema<'a> {
    /// The version's schema (its skeleton); `None`: no usable schema, every value is accepted.
    pub root: Option<&'a Structural>,
    /// The CRD's `spec.preserveUnknownFields`.
    pub preserve_all: bool,
}

/// The kinds of value an atom of the schema accepts.
enum Atom<'a> {
    Map,
    List(&'a Structural),
    Scalar(Scalar),
    /// A node without a type: any scalar, a list of its `items`, an object of its properties.
    Typeless(&'a Structural),
}

#[derive(Clone, Copy)]
enum Scalar {
    Numeric,
    String,
    Boolean,
    Untyped,
}

impl<'a> TypedSchema<'a> {
    /// The type of the object.
    pub fn root(&self) -> Ty<'a> {
        match self.root {
            None => Ty::Any,
            Some(s) => Ty::Node {
                s,
                preserve: self.preserve_all || s.extensions.x_preserve_unknown_fields,
                resource: true,
            },
        }
    }

    fn node(&self, s: &'a Structural, inherited: bool) -> Ty<'a> {
        Ty::Node {
            s,
            preserve: inherited || s.extensions.x_preserve_unknown_fields,
            resource: s.extensions.x_embedded_resource,
        }
    }

    /// The type of the values under `key` of an object of type `ty`; `None` when the key is
    /// not declared.
    pub fn field(&self, ty: Ty<'a>, key: &str) -> Option<Ty<'a>> {
        let Ty::Node { s, preserve, resource } = ty else {
            return Some(Ty::Any);
        };
        if resource {
            match key {
                "apiVersion" | "kind" => return Some(self.node(string(), preserve)),
                // A named type: only the CRD's flag reaches into it.
                "metadata" => return Some(self.node(object_meta(), self.preserve_all)),
                _ => {}
            }
        }
        if let Some(p) = s.properties.get(key) {
            return Some(self.node(p, preserve));
        }
        match &s.additional_properties {
            Some(AdditionalProperties::Schema(a)) => Some(self.node(a, preserve)),
            Some(AdditionalProperties::Bool(allows)) => allows.then_some(Ty::Any),
            None => (preserve || (s.properties.is_empty() && !resource)).then_some(Ty::Any),
        }
    }

    /// The type of the items of a list of type `ty`.
    pub fn items(&self, ty: Ty<'a>) -> Ty<'a> {
        match ty {
            Ty::Node { s, preserve, .. } => s.items.as_deref().map_or(Ty::Any, |i| self.node(i, preserve)),
            Ty::Any => Ty::Any,
        }
    }

    /// What the conversion of `obj` to a typed value refuses, as structured-merge-diff's
    /// `ValidationErrors` print each (`.spec.x: field not declared in schema`), in the order it
    /// walks (keys in byte order where it walks Go's maps in random order).
    pub fn validate(&self, obj: &Value) -> Vec<String> {
        let mut errors = Vec::new();
        let mut path = String::new();
        self.walk(self.root(), obj, &mut path, &mut errors);
        errors
    }

    fn walk(&self, ty: Ty<'a>, v: &Value, path: &mut String, errors: &mut Vec<String>) {
        let Ty::Node { s, .. } = ty else { return };
        let atom = match s.generic.type_.as_str() {
            "object" => Atom::Map,
            "array" => Atom::List(s),
            "integer" | "number" => Atom::Scalar(Scalar::Numeric),
            "boolean" => Atom::Scalar(Scalar::Boolean),
            "string" if matches!(s.value_validation.format.as_str(), "" | "byte") => Atom::Scalar(Scalar::String),
            "string" => Atom::Scalar(Scalar::Untyped),
            "" => Atom::Typeless(s),
            // The conversion refuses a type it does not know, and the server then serves no
            // version of the CRD; a structural schema has none.
            _ => return,
        };
        kstruct_schema::grow(|| match (atom, v) {
            (_, Value::Null) => {}
            (Atom::Map | Atom::Typeless(_), Value::Object(m)) => self.walk_map(ty, m, path, errors),
            (Atom::List(s) | Atom::Typeless(s), Value::Array(items)) => self.walk_list(ty, s, items, path, errors),
            (Atom::Typeless(_), _) => {}
            (Atom::Map, other) => errors.push(at(path, &format!("expected map, got &{{{}}}", sprint_v(other)))),
            (Atom::List(_), other) => errors.push(at(path, &format!("expected list, got &{{{}}}", sprint_v(other)))),
            (Atom::Scalar(kind), v) => {
                if let Some(e) = scalar_error(kind, v) {
                    errors.push(at(path, &e));
                }
            }
        });
    }

    fn walk_map(&self, ty: Ty<'a>, m: &Map<String, Value>, path: &mut String, errors: &mut Vec<String>) {
        for (k, v) in m {
            let len = path.len();
            path.push('.');
            path.push_str(k);
            match self.field(ty, k) {
                Some(child) => self.walk(child, v, path, errors),
                None => {
                    errors.push(at(path, "field not declared in schema"));
                    // The walk leaves the object at its first undeclared key.
                    path.truncate(len);
                    return;
                }
            }
            path.truncate(len);
        }
    }

    fn walk_list(&self, ty: Ty<'a>, s: &'a Structural, items: &[Value], path: &mut String, errors: &mut Vec<String>) {
        let item_ty = self.items(ty);
        let relation = relation(s);
        let mut seen = HashSet::new();
        for (i, item) in items.iter().enumerate() {
            let element = match element(relation, s, i, item) {
                Ok(e) => e,
                Err(e) => {
                    // Without its element's name nothing below it can be named: the list stops.
                    errors.push(at(path, &format!("element {i}: {e}")));
                    return;
                }
            };
            if !matches!(relation, Relation::Atomic) && !seen.insert(element.clone()) {
                errors.push(at(path, &format!("duplicate entries for key {element}")));
            }
            let len = path.len();
            path.push_str(&element);
            self.walk(item_ty, item, path, errors);
            path.truncate(len);
        }
    }

    /// Merges the applied configuration into the stored object: objects key by key (unless
    /// atomic), `map` lists item by item by their keys, `set` lists as unions, anything else
    /// replaced. Every apply is forced and its manager owns nothing yet, so nothing the
    /// stored object holds is removed; metadata alone merges as its manager's own earlier
    /// apply (its lists replaced).
    pub fn merge(&self, ty: Ty<'a>, live: &mut Value, applied: Value) {
        let node = match ty {
            Ty::Node { s, .. } => Some(s),
            Ty::Any => None,
        };
        match (live, applied) {
            (Value::Object(l), Value::Object(a))
                if node.is_none_or(|s| s.extensions.x_map_type.as_deref() != Some("atomic")) =>
            {
                let resource = matches!(ty, Ty::Node { resource: true, .. });
                for (k, v) in a {
                    // Without managed fields, metadata merges as when its manager applied it
                    // before: lists (finalizers, owner references) are replaced, as the
                    // server's own apply tests expect.
                    let child = match self.field(ty, &k) {
                        Some(_) if resource && k == "metadata" => Ty::Any,
                        child => child.unwrap_or(Ty::Any),
                    };
                    match l.get_mut(&k) {
                        Some(cur) => kstruct_schema::grow(|| self.merge(child, cur, v)),
                        None => {
                            l.insert(k, v);
                        }
                    }
                }
            }
            (Value::Array(l), Value::Array(a)) => match node.map(|s| (s, relation(s))) {
                Some((s, relation @ (Relation::Set | Relation::Map(_)))) => {
                    let live = std::mem::take(l);
                    *l = self.merge_associative(self.items(ty), s, relation, live, a);
                }
                _ => crate::json::dispose(Value::Array(std::mem::replace(l, a))),
            },
            (live, applied) => crate::json::dispose(std::mem::replace(live, applied)),
        }
    }

    /// structured-merge-diff's merge of an associative list (`mergeListItems`): items are
    /// named by their keys (or value); those in both lists are merged and come in the applied
    /// list's order, the applied list's new ones where it puts them among those, and the
    /// stored list's others where they were. An item without a name stays where it is.
    fn merge_associative(
        &self,
        items: Ty<'a>,
        s: &Structural,
        relation: Relation<'_>,
        live: Vec<Value>,
        applied: Vec<Value>,
    ) -> Vec<Value> {
        use std::collections::{HashMap, VecDeque};
        let names = |list: &[Value]| -> Vec<String> {
            list.iter()
                .enumerate()
                // A nameless item gets a name no other item has.
                .map(|(i, v)| element(relation, s, i, v).unwrap_or_else(|_| format!("\0{i}")))
                .collect()
        };
        let (lhs, rhs) = (names(&live), names(&applied));
        let first = |names: &[String]| {
            let mut at = HashMap::new();
            for (i, n) in names.iter().enumerate() {
                at.entry(n.clone()).or_insert(i);
            }
            at
        };
        let (in_lhs, in_rhs) = (first(&lhs), first(&rhs));
        let mut shared: VecDeque<&String> = rhs.iter().filter(|n| in_lhs.contains_key(*n)).collect();
        let mut next_shared = shared.pop_front();
        let mut live: Vec<Option<Value>> = live.into_iter().map(Some).collect();
        let mut applied: Vec<Option<Value>> = applied.into_iter().map(Some).collect();
        let mut merged = HashSet::new();
        let mut out = Vec::with_capacity(live.len().max(applied.len()));
        let take_merged =
            |this: &Self, pe: &String, live: &mut Vec<Option<Value>>, applied: &mut Vec<Option<Value>>| {
                let l = in_lhs.get(pe).and_then(|&i| live[i].take());
                let r = in_rhs.get(pe).and_then(|&i| applied[i].take());
                match (l, r) {
                    (Some(mut l), Some(r)) => {
                        kstruct_schema::grow(|| this.merge(items, &mut l, r));
                        Some(l)
                    }
                    (l, r) => r.or(l),
                }
            };
        let (mut li, mut ri) = (0, 0);
        while li < lhs.len() || ri < rhs.len() {
            if li < lhs.len() && ri < rhs.len() {
                let pe = &lhs[li];
                if *pe == rhs[ri] {
                    merged.insert(pe.clone());
                    out.extend(take_merged(self, pe, &mut live, &mut applied));
                    li += 1;
                    ri += 1;
                    next_shared = shared.pop_front();
                    continue;
                }
                if in_rhs.contains_key(pe) && next_shared.is_some_and(|n| n != pe) {
                    // A shared item, but not the one due now.
                    li += 1;
                    continue;
                }
            }
            if li < lhs.len() {
                let pe = &lhs[li];
                if !in_rhs.contains_key(pe) {
                    out.extend(live[li].take());
                    li += 1;
                    continue;
                } else if merged.contains(pe) {
                    li += 1;
                }
            }
            if ri < rhs.len() {
                let pe = &rhs[ri];
                merged.insert(pe.clone());
                out.extend(take_merged(self, pe, &mut live, &mut applied));
                ri += 1;
                if next_shared == Some(pe) {
                    next_shared = shared.pop_front();
                }
            }
        }
        // What duplicates left behind.
        for v in live.into_iter().chain(applied).flatten() {
            crate::json::dispose(v);
        }
        out
    }
}

/// How a list's items relate: by position (replaced as a whole), as a set of scalars, or as a
/// map by key fields.
#[derive(Clone, Copy)]
enum Relation<'a> {
    Atomic,
    Set,
    Map(&'a [String]),
}

fn relation(s: &Structural) -> Relation<'_> {
    match s.extensions.x_list_type.as_deref() {
        Some("map") => match s.extensions.x_list_map_keys.as_deref() {
            Some(keys) if !keys.is_empty() => Relation::Map(keys),
            _ => Relation::Set,
        },
        Some("set") => Relation::Set,
        _ => Relation::Atomic,
    }
}

/// The name of item `i` of the list `s` in a path: `[i]`, `[="a"]` or `[name="a",port=80]`,
/// or why it has none.
fn element(relation: Relation<'_>, s: &Structural, i: usize, item: &Value) -> Result<String, String> {
    match relation {
        Relation::Atomic => Ok(format!("[{i}]")),
        Relation::Set => set_element(item),
        Relation::Map(keys) => map_element(keys, s.items.as_deref(), item),
    }
}

/// `[="a"]`, or why a set's item has no name.
fn set_element(item: &Value) -> Result<String, String> {
    match item {
        Value::Object(_) => Err("associative list without keys has an element that's a map type".into()),
        Value::Array(_) => Err("not supported: associative list with lists as elements".into()),
        Value::Null => Err("associative list without keys has an element that's an explicit null".into()),
        scalar => Ok(format!("[={}]", value_string(scalar))),
    }
}

/// `[name="a",port=80]` (key fields in byte order; a missing key takes its default), or why
/// a `map` list's item has no name.
fn map_element(keys: &[String], items: Option<&Structural>, item: &Value) -> Result<String, String> {
    let m = match item {
        Value::Null => return Err("associative list with keys may not have a null element".into()),
        Value::Object(m) => m,
        _ => return Err("associative list with keys may not have non-map elements".into()),
    };
    let mut fields: Vec<(&str, &Value)> = keys
        .iter()
        .filter_map(|k| {
            let value = m.get(k).or_else(|| {
                items
                    .and_then(|s| s.properties.get(k))
                    .and_then(|p| p.generic.default.as_ref())
            });
            value.map(|v| (k.as_str(), v))
        })
        .collect();
    if fields.is_empty() {
        let quoted: Vec<String> = keys.iter().map(|k| quote(k)).collect();
        return Err(format!(
            "associative list with keys has an element that omits all key fields [{}] (and doesn't have default values for any key fields)",
            quoted.join(" ")
        ));
    }
    fields.sort_by(|a, b| a.0.cmp(b.0));
    let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={}", value_string(v))).collect();
    Ok(format!("[{}]", parts.join(",")))
}

/// structured-merge-diff's `value.ToString`: strings quoted, numbers as `%v`, lists as
/// `[a,b]`, maps as their `k=v` pairs run together.
fn value_string(v: &Value) -> String {
    kstruct_schema::grow(|| match v {
        Value::Null => "null".into(),
        Value::Bool(_) | Value::Number(_) => sprint_v(v),
        Value::String(s) => quote(s),
        Value::Array(items) => format!("[{}]", items.iter().map(value_string).collect::<Vec<_>>().join(",")),
        Value::Object(m) => m.iter().map(|(k, v)| format!("{k}={}", value_string(v))).collect(),
    })
}

/// `validateScalar`'s error for a value of another kind (`%#v` and `%v` of the walker's
/// `*value.valueUnstructured`, `%T` of the value itself).
fn scalar_error(kind: Scalar, v: &Value) -> Option<String> {
    let scalar = matches!(v, Value::Bool(_) | Value::Number(_) | Value::String(_));
    match kind {
        Scalar::Numeric if !v.is_number() => Some(format!("expected numeric (int or float), got {}", type_name(v))),
        Scalar::String if !v.is_string() => Some(format!(
            "expected string, got &value.valueUnstructured{{Value:{}}}",
            sprint_sharp_v_field(v)
        )),
        Scalar::Boolean if !v.is_boolean() => Some(format!("expected boolean, got &{{{}}}", sprint_v(v))),
        Scalar::Untyped if !scalar => Some(format!("expected any scalar, got &{{{}}}", sprint_v(v))),
        _ => None,
    }
}

/// `%#v` of a value held in an `interface{}` field (a nil prints with its type).
fn sprint_sharp_v_field(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".into(),
        other => sprint_sharp_v(other),
    }
}

/// An error as `ValidationError.Error()` prints it: the path, if any, then the message.
fn at(path: &str, message: &str) -> String {
    if path.is_empty() {
        message.to_string()
    } else {
        format!("{path}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(text: &str) -> Structural {
        kstruct_schema::convert::from_text(text).unwrap().unwrap()
    }

    const SCHEMA: &str = "type: object
properties:
  spec:
    type: object
    properties:
      ports:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [protocol, containerPort]
        items:
          type: object
          properties:
            containerPort: {type: integer}
            protocol: {type: string, default: TCP}
      tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
      name: {type: string}
      when: {type: string, format: date-time}
      toggle: {type: boolean}
      size: {type: number}
      port: {x-kubernetes-int-or-string: true}
      labels: {type: object, additionalProperties: {type: string}}
      enabled:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          x: {type: object, properties: {inner: {type: object, properties: {z: {type: string}}}}}
      template:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
      nested: {type: object, properties: {a: {type: string}}}
      hosts:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items: {type: object, properties: {name: {type: string}}}
";

    fn errors(obj: Value) -> Vec<String> {
        let s = schema(SCHEMA);
        TypedSchema {
            root: Some(&s),
            preserve_all: false,
        }
        .validate(&obj)
    }

    #[test]
    fn names_undeclared_fields_as_structured_merge_diff_does() {
        assert_eq!(
            errors(json!({"spec": {"ports": [{"containerPort": 80, "protocol": "UDP", "x": 1}]}})),
            [r#".spec.ports[containerPort=80,protocol="UDP"].x: field not declared in schema"#]
        );
        // A missing key takes its default.
        assert_eq!(
            errors(json!({"spec": {"ports": [{"containerPort": 80, "x": 1}]}})),
            [r#".spec.ports[containerPort=80,protocol="TCP"].x: field not declared in schema"#]
        );
        // Keys are printed as they are: an empty one after its dot.
        assert_eq!(
            errors(json!({"spec": {"nested": {"": 1}}})),
            [".spec.nested.: field not declared in schema"]
        );
        assert_eq!(
            errors(json!({"spec": {"nested": {"a.b[0]": 1}}})),
            [".spec.nested.a.b[0]: field not declared in schema"]
        );
        // The object is left at its first undeclared key; other objects go on.
        assert_eq!(
            errors(json!({"spec": {"a": 1, "b": 1, "name": 5}, "z": 1})),
            [
                ".spec.a: field not declared in schema",
                ".z: field not declared in schema"
            ]
        );
        // ObjectMeta is typed, at the root and in embedded resources, even under preserved
        // nodes; below a preserved node anything else goes.
        assert_eq!(
            errors(json!({"metadata": {"name": "a", "x": 1}, "spec": {
                "enabled": {"x": {"inner": {"deep": 1}}, "other": [1]},
                "template": {"metadata": {"Kind": "x"}, "spec": {"any": 1}}}})),
            [
                ".metadata.x: field not declared in schema",
                ".spec.template.metadata.Kind: field not declared in schema"
            ]
        );
    }

    #[test]
    fn type_errors_print_the_walkers_value() {
        assert_eq!(
            errors(json!({"spec": {"name": 5, "toggle": "yes", "size": true, "labels": {"a": {"b": [1.5, null]}}}})),
            [
                ".spec.labels.a: expected string, got &value.valueUnstructured{Value:map[string]interface {}{\"b\":[]interface {}{1.5, interface {}(nil)}}}",
                ".spec.name: expected string, got &value.valueUnstructured{Value:5}",
                ".spec.size: expected numeric (int or float), got bool",
                ".spec.toggle: expected boolean, got &{yes}",
            ]
        );
        assert_eq!(
            errors(json!({"spec": {"nested": "x", "tags": {"a": 1}, "when": [1e6], "port": {"a": 1}}})),
            [
                ".spec.nested: expected map, got &{x}",
                ".spec.tags: expected list, got &{map[a:1]}",
                ".spec.when: expected any scalar, got &{[1e+06]}",
            ]
        );
        // A format makes a string any scalar; nulls are every type's.
        assert!(errors(json!({"spec": {"when": 5, "name": null, "ports": null}})).is_empty());
        assert_eq!(
            errors(json!({"spec": {"nested": "50%"}})),
            [".spec.nested: expected map, got &{50%}"]
        );
    }

    #[test]
    fn list_items_need_names() {
        assert_eq!(
            errors(
                json!({"spec": {"tags": ["a", "b", "a"], "ports": [{"containerPort": 1}, {"containerPort": 1, "protocol": "TCP"}]}})
            ),
            [
                r#".spec.ports: duplicate entries for key [containerPort=1,protocol="TCP"]"#,
                r#".spec.tags: duplicate entries for key [="a"]"#,
            ]
        );
        assert_eq!(
            errors(json!({"spec": {"tags": ["a", {"b": 1}, 1], "ports": [{"x": 1}, null]}})),
            [
                r#".spec.ports[protocol="TCP"].x: field not declared in schema"#,
                ".spec.ports: element 1: associative list with keys may not have a null element",
                ".spec.tags: element 1: associative list without keys has an element that's a map type",
            ]
        );
        assert_eq!(
            errors(json!({"spec": {"hosts": [{"name": "a"}, {"x": 1}, {"name": 1}]}})),
            [
                r#".spec.hosts: element 1: associative list with keys has an element that omits all key fields ["name"] (and doesn't have default values for any key fields)"#
            ]
        );
    }

    #[test]
    fn the_crds_flag_reaches_every_object() {
        let s = schema(SCHEMA);
        let all = TypedSchema {
            root: Some(&s),
            preserve_all: true,
        };
        assert_eq!(
            all.validate(&json!({"x": 1, "metadata": {"x": 1}, "spec": {"nested": {"b": 1}, "name": 1}})),
            [".spec.name: expected string, got &value.valueUnstructured{Value:1}"]
        );
        let none = TypedSchema {
            root: None,
            preserve_all: false,
        };
        assert!(none.validate(&json!({"x": 1, "spec": {"name": 1}})).is_empty());
    }

    #[test]
    fn merges_by_list_types() {
        let s = schema(
            "type: object
properties:
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items: {type: object, properties: {name: {type: string}, port: {type: integer}, host: {type: string}}}
  tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
  args: {type: array, items: {type: string}}
  labels: {type: object, x-kubernetes-map-type: atomic, additionalProperties: {type: string}}
",
        );
        let typed = TypedSchema {
            root: Some(&s),
            preserve_all: false,
        };
        let mut live = json!({"ports": [{"name": "a", "port": 1, "host": "h"}, {"name": "b", "port": 2}],
            "tags": ["x"], "args": ["1", "2"], "labels": {"a": "1"}, "kept": true,
            "metadata": {"finalizers": ["f"], "ownerReferences": [{"uid": "1", "name": "n", "kind": "K"}]}});
        let applied = json!({"ports": [{"name": "c", "port": 3}, {"name": "a", "port": 9}],
            "tags": ["y", "x"], "args": ["3"], "labels": {"b": "2"},
            "metadata": {"finalizers": ["g"], "ownerReferences": [{"uid": "1", "name": "m"}, {"uid": "2"}]}});
        typed.merge(typed.root(), &mut live, applied);
        assert_eq!(
            live,
            json!({"ports": [{"name": "c", "port": 3}, {"name": "a", "port": 9, "host": "h"}, {"name": "b", "port": 2}],
                "tags": ["y", "x"], "args": ["3"], "labels": {"b": "2"}, "kept": true,
                "metadata": {"finalizers": ["g"], "ownerReferences": [{"uid": "1", "name": "m"}, {"uid": "2"}]}})
        );
    }

    #[test]
    fn merges_items_by_their_names_with_key_defaults() {
        let s = schema(SCHEMA);
        let typed = TypedSchema {
            root: Some(&s),
            preserve_all: false,
        };
        let mut live = json!({"spec": {"ports": [{"containerPort": 80, "protocol": "TCP", "name": "a"}]}});
        let applied = json!({"spec": {"ports": [{"containerPort": 80.0, "host": "h"}]}});
        typed.merge(typed.root(), &mut live, applied);
        assert_eq!(
            live["spec"]["ports"],
            json!([{"containerPort": 80.0, "protocol": "TCP", "name": "a", "host": "h"}])
        );
        // An owner reference without uid is named by the default, `[uid=""]`.
        assert_eq!(
            errors(json!({"metadata": {"ownerReferences": [{"name": "a"}, {"kind": "b"}]}})),
            [r#".metadata.ownerReferences: duplicate entries for key [uid=""]"#]
        );
    }
}
