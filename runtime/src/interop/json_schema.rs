//! JSON Schema (as schemars and other generators write it) to the structural dialect of CRD
//! v1 `openAPIV3Schema`: the conversion behind the `schemars` bridge and the k8s-openapi
//! impls, on plain JSON values.
//!
//! `$ref`s are inlined (a type that contains itself gets a recursion point that keeps the
//! subtree as it is), `null` alternatives become `nullable`, `const` becomes `enum`, integer
//! or string becomes int-or-string, tuples become arrays of the union, unions of objects are
//! merged, and what a structural schema cannot say is reported with its path, never dropped in
//! silence.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

/// What the conversion needs besides the schema.
pub struct Context<'a> {
    /// The definitions `$ref`s point to, by name (schemars' `$defs`).
    pub definitions: &'a Map<String, Value>,
    /// Schemas to use instead of a definition's, by name (already in the CRD dialect): the
    /// embedded `ObjectMeta` of k8s-openapi, for instance.
    pub substitutes: &'a BTreeMap<&'a str, Value>,
}

/// Converts `schema`; `Err` lists every part that has no structural equivalent, each as
/// `path: problem`.
pub fn convert(schema: &Value, cx: &Context<'_>) -> Result<Value, Vec<String>> {
    let mut c = Converter {
        cx,
        stack: Vec::new(),
        errors: Vec::new(),
    };
    let out = c.node(schema, "");
    if c.errors.is_empty() { Ok(out) } else { Err(c.errors) }
}

struct Converter<'a, 'b> {
    cx: &'a Context<'b>,
    /// The definitions being inlined (for recursion).
    stack: Vec<String>,
    errors: Vec<String>,
}

/// A numeric exclusive bound (JSON Schema 2019+), and its value as written.
type Bound = (f64, Value);

/// Keywords that only annotate or that the CRD dialect has no use for.
const DROPPED: &[&str] = &[
    "$schema",
    "$id",
    "$comment",
    "$anchor",
    "$defs",
    "definitions",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
];

/// Keywords copied as they are.
const KEPT: &[&str] = &[
    "description",
    "title",
    "format",
    "default",
    "example",
    "maximum",
    "minimum",
    "multipleOf",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "maxProperties",
    "minProperties",
    "required",
    "externalDocs",
];

impl Converter<'_, '_> {
    fn error(&mut self, path: &str, message: impl Into<String>) {
        let at = if path.is_empty() { "<root>" } else { path };
        self.errors.push(format!("{at}: {}", message.into()));
    }

    fn node(&mut self, schema: &Value, path: &str) -> Value {
        kstruct_schema::grow(|| self.node_inner(schema, path, true))
    }

    /// `complete`: make the node structural on its own (false for the siblings of a `$ref`,
    /// which only add to the definition's node).
    fn node_inner(&mut self, schema: &Value, path: &str, complete: bool) -> Value {
        let obj = match schema {
            Value::Bool(true) => return json!({"x-kubernetes-preserve-unknown-fields": true}),
            Value::Bool(false) => {
                self.error(
                    path,
                    "the schema `false` (no value allowed) has no structural equivalent",
                );
                return json!({});
            }
            Value::Object(o) => o,
            _ => {
                self.error(path, "a schema must be an object or a boolean");
                return json!({});
            }
        };
        if let Some(r) = obj.get("$ref").and_then(Value::as_str) {
            return self.reference(r, obj, path);
        }
        let mut out = Map::new();
        let mut nullable = obj.get("nullable") == Some(&Value::Bool(true));
        let (mut exclusive_min, mut exclusive_max): (Option<Bound>, Option<Bound>) = (None, None);
        for (k, v) in obj {
            match k.as_str() {
                k if DROPPED.contains(&k) => {}
                k if KEPT.contains(&k) => {
                    out.insert(k.to_owned(), v.clone());
                }
                k if k.starts_with("x-kubernetes-") => {
                    out.insert(k.to_owned(), v.clone());
                }
                "nullable" => {}
                "type" => match types(v) {
                    Ok((t, null)) => {
                        nullable |= null;
                        match t.as_slice() {
                            [] => {}
                            [one] => {
                                out.insert("type".into(), Value::String(one.clone()));
                            }
                            two if two.len() == 2
                                && two.contains(&"integer".into())
                                && two.contains(&"string".into()) =>
                            {
                                out.insert("x-kubernetes-int-or-string".into(), Value::Bool(true));
                            }
                            many => self.error(
                                path,
                                format!(
                                    "a value of several types ({}) has no structural schema",
                                    many.join(", ")
                                ),
                            ),
                        }
                    }
                    Err(m) => self.error(path, m),
                },
                "const" => {
                    if v.is_null() {
                        nullable = true;
                    } else {
                        out.insert("enum".into(), Value::Array(vec![v.clone()]));
                    }
                }
                "enum" => {
                    let values: Vec<Value> = v.as_array().cloned().unwrap_or_default();
                    if values.iter().any(Value::is_null) {
                        nullable = true;
                    }
                    let values: Vec<Value> = values.into_iter().filter(|x| !x.is_null()).collect();
                    if !values.is_empty() {
                        out.insert("enum".into(), Value::Array(values));
                    }
                }
                "examples" => {
                    if let Some(first) = v.as_array().and_then(|a| a.first()) {
                        out.insert("example".into(), first.clone());
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" => match v {
                    // OpenAPI v3 writes a flag beside the bound; JSON Schema 2019+ the bound
                    // itself, resolved against `minimum`/`maximum` after the loop.
                    Value::Bool(b) => {
                        out.insert(k.clone(), Value::Bool(*b));
                    }
                    Value::Number(n) => {
                        let slot = if k == "exclusiveMinimum" {
                            &mut exclusive_min
                        } else {
                            &mut exclusive_max
                        };
                        *slot = n.as_f64().map(|f| (f, v.clone()));
                    }
                    _ => self.error(path, format!("`{k}` must be a number or a boolean")),
                },
                "uniqueItems" => {
                    // The API server refuses `uniqueItems: true`; a set of scalars is a
                    // list-type set. Other items cannot be a set: the uniqueness is left out.
                    if v == &Value::Bool(true) && obj.get("items").is_some_and(is_scalar_schema) {
                        out.entry("x-kubernetes-list-type").or_insert(json!("set"));
                    }
                }
                "properties" => {
                    let mut props = Map::new();
                    for (name, p) in v.as_object().into_iter().flatten() {
                        props.insert(name.clone(), self.node(p, &join(path, name)));
                    }
                    out.insert("properties".into(), Value::Object(props));
                }
                "additionalProperties" => match v {
                    Value::Bool(false) => {}
                    Value::Bool(true) => {
                        out.insert("x-kubernetes-preserve-unknown-fields".into(), Value::Bool(true));
                    }
                    other => {
                        let s = self.node(other, &format!("{path}.*"));
                        out.insert("additionalProperties".into(), s);
                    }
                },
                // `items: false` closes a tuple (`prefixItems`): its length says as much.
                "items" if v == &Value::Bool(false) && obj.contains_key("prefixItems") => {}
                "items" => {
                    if let Value::Array(tuple) = v {
                        let items = self.union(tuple, &format!("{path}[]"));
                        out.insert("items".into(), items);
                    } else {
                        let items = self.node(v, &format!("{path}[]"));
                        out.insert("items".into(), items);
                    }
                }
                "prefixItems" => {
                    let tuple = v.as_array().cloned().unwrap_or_default();
                    let items = self.union(&tuple, &format!("{path}[]"));
                    out.insert("items".into(), items);
                    if obj.get("items") != Some(&Value::Bool(false)) && obj.contains_key("items") {
                        self.error(
                            path,
                            "a tuple with further items of another schema has no structural schema",
                        );
                    }
                    out.entry("minItems").or_insert(json!(tuple.len()));
                    out.entry("maxItems").or_insert(json!(tuple.len()));
                }
                "anyOf" | "oneOf" => {
                    let alternatives = v.as_array().cloned().unwrap_or_default();
                    let (null, rest): (Vec<&Value>, Vec<&Value>) = alternatives.iter().partition(|a| is_null_schema(a));
                    if !null.is_empty() {
                        nullable = true;
                    }
                    match rest.as_slice() {
                        [] => {}
                        [one] => {
                            let s = self.node(one, path);
                            merge_into(&mut out, s);
                        }
                        many => {
                            let many: Vec<Value> = many.iter().map(|v| (*v).clone()).collect();
                            let merged = self.variants(&many, k, path);
                            merge_into(&mut out, merged);
                        }
                    }
                }
                // `not` of values (schemars' NonZero: `not: {const: 0}`) is a structural value
                // validation; a `not` with types or properties is not.
                "not" => match v.as_object() {
                    Some(n) if n.len() == 1 && (n.contains_key("const") || n.contains_key("enum")) => {
                        let values = match (n.get("const"), n.get("enum")) {
                            (Some(c), _) => vec![c.clone()],
                            (_, Some(Value::Array(e))) => e.clone(),
                            _ => Vec::new(),
                        };
                        out.insert("not".into(), json!({"enum": values}));
                    }
                    _ => self.error(
                        path,
                        "`not` has no equivalent in a Kubernetes structural schema beyond `not: {enum: [...]}`",
                    ),
                },
                "allOf" => {
                    // Every part holds: their keywords together (the first part's win).
                    for part in v.as_array().into_iter().flatten() {
                        let s = self.node(part, path);
                        merge_into(&mut out, s);
                    }
                }
                other => self.error(
                    path,
                    format!("`{other}` has no equivalent in a Kubernetes structural schema"),
                ),
            }
        }
        // A numeric exclusive bound and an inclusive one: the tighter holds (an equal
        // exclusive bound is the tighter).
        for (exclusive, bound, flag, tighter) in [
            (
                exclusive_min,
                "minimum",
                "exclusiveMinimum",
                (|e: f64, i: f64| e >= i) as fn(f64, f64) -> bool,
            ),
            (exclusive_max, "maximum", "exclusiveMaximum", |e: f64, i: f64| e <= i),
        ] {
            if let Some((e, value)) = exclusive {
                let inclusive = out.get(bound).and_then(Value::as_f64);
                if inclusive.is_none_or(|i| tighter(e, i)) {
                    out.insert(bound.into(), value);
                    out.insert(flag.into(), Value::Bool(true));
                }
            }
        }
        if nullable {
            out.insert("nullable".into(), Value::Bool(true));
        }
        if complete {
            finish(&mut out);
        }
        Value::Object(out)
    }

    /// A `$ref`: the definition inlined, or its substitute, or a recursion point.
    fn reference(&mut self, r: &str, obj: &Map<String, Value>, path: &str) -> Value {
        let name = r.rsplit('/').next().unwrap_or(r).replace("~1", "/").replace("~0", "~");
        let mut s = if let Some(sub) = self.cx.substitutes.get(name.as_str()) {
            sub.clone()
        } else if self.stack.contains(&name) {
            // The type contains itself: no finite structural schema; keep the subtree.
            let target = self.cx.definitions.get(&name);
            let object =
                target.is_some_and(|t| t.get("properties").is_some() || t.get("type") == Some(&json!("object")));
            if object {
                json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
            } else {
                json!({"x-kubernetes-preserve-unknown-fields": true})
            }
        } else if let Some(def) = self.cx.definitions.get(&name) {
            self.stack.push(name.clone());
            let s = self.node(def, path);
            self.stack.pop();
            s
        } else if r == "#" {
            self.error(path, "a `$ref` to the root schema (a recursive type) cannot be inlined");
            json!({})
        } else {
            self.error(path, format!("`$ref` {r:?} names no definition"));
            json!({})
        };
        // Siblings of `$ref` (a field's description) win over the definition's.
        let siblings: Map<String, Value> = obj
            .iter()
            .filter(|(k, _)| *k != "$ref")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !siblings.is_empty() {
            let siblings = Value::Object(siblings);
            let converted = kstruct_schema::grow(|| self.node_inner(&siblings, path, false));
            if let (Value::Object(target), Value::Object(extra)) = (&mut s, converted) {
                for (k, v) in extra {
                    target.insert(k, v);
                }
            }
        }
        s
    }

    /// The union of alternatives a value may match: one schema that admits all of them.
    fn union(&mut self, alternatives: &[Value], path: &str) -> Value {
        match alternatives {
            [] => json!({"x-kubernetes-preserve-unknown-fields": true}),
            [one] => self.node(one, path),
            many => self.variants(many, "anyOf", path),
        }
    }

    /// `anyOf`/`oneOf` of several non-null alternatives.
    fn variants(&mut self, alternatives: &[Value], keyword: &str, path: &str) -> Value {
        let converted: Vec<Value> = alternatives.iter().map(|a| self.node(a, path)).collect();
        let type_of = |v: &Value| -> Option<String> {
            if v.get("x-kubernetes-int-or-string") == Some(&Value::Bool(true)) {
                return Some("int-or-string".into());
            }
            v.get("type").and_then(Value::as_str).map(str::to_owned).or_else(|| {
                if v.get("properties").is_some() || v.get("required").is_some() {
                    Some("object".into())
                } else {
                    None
                }
            })
        };
        let kinds: Vec<Option<String>> = converted.iter().map(type_of).collect();
        // Values of one scalar type (integers and numbers are numbers): one node of that type,
        // its `enum` the union when every alternative has one, a `format` only when shared.
        let scalar = |k: &Option<String>| matches!(k.as_deref(), Some("string" | "integer" | "number" | "boolean"));
        if kinds.iter().all(scalar) {
            let mut types: Vec<&str> = kinds.iter().filter_map(|k| k.as_deref()).collect();
            types.dedup();
            let t = match types.as_slice() {
                [one] => Some(*one),
                two if two.iter().all(|t| *t == "integer" || *t == "number") => Some("number"),
                _ => None,
            };
            if let Some(t) = t {
                let mut out = json!({"type": t});
                if converted.iter().all(|c| c.get("enum").is_some()) {
                    let values: Vec<Value> = converted
                        .iter()
                        .flat_map(|c| c["enum"].as_array().cloned().unwrap_or_default())
                        .collect();
                    out["enum"] = Value::Array(values);
                }
                let format = converted[0].get("format");
                if format.is_some() && converted.iter().all(|c| c.get("format") == format) {
                    out["format"] = format.cloned().unwrap_or_default();
                }
                return out;
            }
        }
        let ints_and_strings = kinds
            .iter()
            .all(|k| matches!(k.as_deref(), Some("integer" | "string" | "int-or-string")));
        if ints_and_strings
            && kinds.iter().any(|k| k.as_deref() != Some("string"))
            && kinds.iter().any(|k| k.as_deref() != Some("integer"))
        {
            return json!({"x-kubernetes-int-or-string": true});
        }
        if kinds.iter().all(|k| k.as_deref() == Some("object")) {
            // Objects: the union of the properties, each alternative's requirements kept.
            let mut properties = Map::new();
            let mut required = Vec::new();
            let mut preserve = false;
            for c in &converted {
                for (name, p) in c.get("properties").and_then(Value::as_object).into_iter().flatten() {
                    match properties.get_mut(name) {
                        // An internally tagged enum's tag: one value per alternative.
                        Some(existing) if existing != p && same_but_enum(existing, p) => {
                            if let (Some(Value::Array(mine)), Some(Value::Array(theirs))) =
                                (existing.get_mut("enum"), p.get("enum"))
                            {
                                for v in theirs {
                                    if !mine.contains(v) {
                                        mine.push(v.clone());
                                    }
                                }
                            }
                        }
                        Some(existing) if existing != p => {
                            if strip_docs(existing) != strip_docs(p) {
                                self.error(
                                    &join(path, name),
                                    format!("the alternatives of `{keyword}` give `{name}` different schemas: no structural schema has both"),
                                );
                            }
                        }
                        _ => {
                            properties.insert(name.clone(), p.clone());
                        }
                    }
                }
                if c.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true))
                    || c.get("additionalProperties").is_some()
                {
                    preserve = true;
                }
                let req = c.get("required").cloned().unwrap_or(json!([]));
                required.push(json!({"required": req}));
            }
            let mut out = json!({"type": "object", "properties": properties});
            if preserve {
                out["x-kubernetes-preserve-unknown-fields"] = Value::Bool(true);
            }
            // An alternative that requires nothing matches every object: the requirements say
            // nothing then (and under `oneOf` would refuse objects that match another too).
            if required
                .iter()
                .all(|r| r["required"].as_array().is_some_and(|a| !a.is_empty()))
            {
                out[keyword] = Value::Array(required);
            }
            return out;
        }
        self.error(
            path,
            format!(
                "`{keyword}` of values of different types ({}): a structural schema has one type per node (use #[kstruct(...)] on the field instead)",
                kinds.iter().map(|k| k.clone().unwrap_or_else(|| "untyped".into())).collect::<Vec<_>>().join(", ")
            ),
        );
        json!({})
    }
}

/// A `type` value: the non-null types, and whether `null` is one.
fn types(v: &Value) -> Result<(Vec<String>, bool), String> {
    let list: Vec<&str> = match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => return Err("`type` must be a string or a list of strings".into()),
    };
    let null = list.contains(&"null");
    let mut out = Vec::new();
    for t in list.into_iter().filter(|t| *t != "null") {
        if !["object", "array", "string", "integer", "number", "boolean"].contains(&t) {
            return Err(format!("unknown type {t:?}"));
        }
        if !out.iter().any(|o: &String| o == t) {
            out.push(t.to_owned());
        }
    }
    // `number` admits integers: ["integer", "number"] is a number.
    if out.len() == 2 && out.contains(&"integer".to_owned()) && out.contains(&"number".to_owned()) {
        out = vec!["number".to_owned()];
    }
    Ok((out, null))
}

fn is_null_schema(v: &Value) -> bool {
    v.get("type") == Some(&json!("null"))
        || v.get("const") == Some(&Value::Null)
        || v.get("enum") == Some(&json!([null]))
}

fn is_scalar_schema(v: &Value) -> bool {
    matches!(
        v.get("type").and_then(Value::as_str),
        Some("string" | "integer" | "number" | "boolean")
    )
}

/// Two property schemas equal but for their `enum` values (both having one).
fn same_but_enum(a: &Value, b: &Value) -> bool {
    let without = |v: &Value| {
        let mut v = strip_docs(v);
        let had = v.as_object_mut().and_then(|m| m.remove("enum")).is_some();
        (v, had)
    };
    let ((a, had_a), (b, had_b)) = (without(a), without(b));
    had_a && had_b && a == b
}

fn strip_docs(v: &Value) -> Value {
    match v {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(k, _)| !matches!(k.as_str(), "description" | "title" | "example"))
                .map(|(k, v)| (k.clone(), strip_docs(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Adds what `extra` says to `out` (keys of `out` win, except that `extra`'s properties and
/// requirements are added).
fn merge_into(out: &mut Map<String, Value>, extra: Value) {
    let Value::Object(extra) = extra else { return };
    for (k, v) in extra {
        match (k.as_str(), out.get_mut(&k)) {
            ("properties", Some(Value::Object(existing))) => {
                if let Value::Object(more) = v {
                    for (name, p) in more {
                        existing.entry(name).or_insert(p);
                    }
                }
            }
            ("required", Some(Value::Array(existing))) => {
                for r in v.as_array().into_iter().flatten() {
                    if !existing.contains(r) {
                        existing.push(r.clone());
                    }
                }
            }
            (_, Some(_)) => {}
            (_, None) => {
                out.insert(k, v);
            }
        }
    }
}

/// Types implied by their keywords, and free-form nodes kept: what makes a node structural.
fn finish(out: &mut Map<String, Value>) {
    if !out.contains_key("type") && !out.contains_key("x-kubernetes-int-or-string") {
        if out.contains_key("properties") || out.contains_key("additionalProperties") {
            out.insert("type".into(), json!("object"));
        } else if out.contains_key("items") {
            out.insert("type".into(), json!("array"));
        } else if !out.contains_key("x-kubernetes-preserve-unknown-fields") {
            // No type: any value. The API server needs it kept as it is.
            out.insert("x-kubernetes-preserve-unknown-fields".into(), Value::Bool(true));
        }
    }
    if out.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true))
        && out.contains_key("additionalProperties")
        && out.contains_key("properties")
    {
        out.remove("additionalProperties");
    }
    if out.contains_key("properties") && out.get("additionalProperties").is_some() {
        // Properties and typed additional properties: keep the known ones typed, the rest as
        // they are.
        out.remove("additionalProperties");
        out.insert("x-kubernetes-preserve-unknown-fields".into(), Value::Bool(true));
    }
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(schema: Value, defs: Value) -> Result<Value, Vec<String>> {
        let definitions = defs.as_object().cloned().unwrap_or_default();
        let substitutes = BTreeMap::new();
        convert(
            &schema,
            &Context {
                definitions: &definitions,
                substitutes: &substitutes,
            },
        )
    }

    #[test]
    fn options_refs_and_consts() {
        let got = run(
            json!({"type": "object", "required": ["a"], "properties": {
                "a": {"type": ["string", "null"]},
                "b": {"anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}], "description": "the colour"},
                "c": {"oneOf": [{"const": "x", "type": "string"}, {"const": "y", "type": "string"}]},
                "d": {"type": ["integer", "string"]},
                "e": true,
                "f": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                "g": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
                "h": {"type": "integer", "exclusiveMinimum": 0},
            }}),
            json!({"Color": {"type": "string", "enum": ["Red", "Blue"], "description": "a colour"}}),
        )
        .unwrap();
        assert_eq!(
            got,
            json!({"type": "object", "required": ["a"], "properties": {
                "a": {"type": "string", "nullable": true},
                "b": {"type": "string", "enum": ["Red", "Blue"], "description": "the colour", "nullable": true},
                "c": {"type": "string", "enum": ["x", "y"]},
                "d": {"x-kubernetes-int-or-string": true},
                "e": {"x-kubernetes-preserve-unknown-fields": true},
                "f": {"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"},
                "g": {"type": "array", "items": {"x-kubernetes-int-or-string": true}, "minItems": 2, "maxItems": 2},
                "h": {"type": "integer", "minimum": 0, "exclusiveMinimum": true},
            }})
        );
    }

    #[test]
    fn recursion_keeps_the_subtree() {
        let got = run(
            json!({"$ref": "#/$defs/Tree"}),
            json!({"Tree": {"type": "object", "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}}}}),
        )
        .unwrap();
        assert_eq!(
            got["properties"]["children"]["items"],
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
        );
    }

    #[test]
    fn tagged_enums_merge_their_properties() {
        let got = run(
            json!({"oneOf": [
                {"type": "object", "properties": {"git": {"type": "string"}}, "required": ["git"], "additionalProperties": false},
                {"type": "object", "properties": {"s3": {"type": "string"}}, "required": ["s3"], "additionalProperties": false},
            ]}),
            json!({}),
        )
        .unwrap();
        assert_eq!(
            got,
            json!({"type": "object", "properties": {"git": {"type": "string"}, "s3": {"type": "string"}},
                   "oneOf": [{"required": ["git"]}, {"required": ["s3"]}]})
        );
    }

    #[test]
    fn review_findings() {
        // The tighter of an inclusive and an exclusive bound holds.
        let got = run(
            json!({"type": "integer", "minimum": 5, "exclusiveMinimum": 0, "maximum": 3, "exclusiveMaximum": 3}),
            json!({}),
        )
        .unwrap();
        assert_eq!(
            got,
            json!({"type": "integer", "minimum": 5, "maximum": 3, "exclusiveMaximum": true})
        );
        let got = run(
            json!({"type": "integer", "minimum": 0, "exclusiveMinimum": 5}),
            json!({}),
        )
        .unwrap();
        assert_eq!(got, json!({"type": "integer", "minimum": 5, "exclusiveMinimum": true}));
        // (f64, f64) and integer-or-number unions.
        let got = run(
            json!({"type": "array", "prefixItems": [{"type": "number", "format": "double"}, {"type": "number", "format": "double"}], "items": false}),
            json!({}),
        )
        .unwrap();
        assert_eq!(
            got,
            json!({"type": "array", "items": {"type": "number", "format": "double"}, "minItems": 2, "maxItems": 2})
        );
        assert_eq!(
            run(json!({"anyOf": [{"type": "integer"}, {"type": "number"}]}), json!({})).unwrap(),
            json!({"type": "number"})
        );
        // Internally tagged: the tag's values merge.
        let got = run(
            json!({"oneOf": [
                {"type": "object", "properties": {"type": {"type": "string", "const": "A"}, "a": {"type": "string"}}, "required": ["type", "a"]},
                {"type": "object", "properties": {"type": {"type": "string", "const": "B"}}, "required": ["type"]},
            ]}),
            json!({}),
        )
        .unwrap();
        assert_eq!(got["properties"]["type"], json!({"type": "string", "enum": ["A", "B"]}));
        assert_eq!(
            got["oneOf"],
            json!([{"required": ["type", "a"]}, {"required": ["type"]}])
        );
        // An alternative that requires nothing: no oneOf.
        let got = run(
            json!({"oneOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, {"type": "object", "properties": {"b": {"type": "string"}}}]}),
            json!({}),
        )
        .unwrap();
        assert!(got.get("oneOf").is_none(), "{got}");
        // NonZero: `not: {const: 0}`.
        assert_eq!(
            run(json!({"type": "integer", "not": {"const": 0}}), json!({})).unwrap(),
            json!({"type": "integer", "not": {"enum": [0]}})
        );
        // Int-or-string values with enums: int-or-string, not a made-up type.
        assert_eq!(
            run(json!({"oneOf": [{"type": ["integer", "string"], "enum": [1]}, {"type": ["integer", "string"], "enum": ["a"]}]}), json!({})).unwrap(),
            json!({"x-kubernetes-int-or-string": true})
        );
    }

    #[test]
    fn what_cannot_be_structural_is_reported() {
        let errors = run(
            json!({"type": "object", "properties": {
                "a": {"anyOf": [{"type": "string"}, {"type": "object", "properties": {"x": {"type": "string"}}}]},
                "b": {"type": "string", "not": {"type": "string"}},
                "c": {"$ref": "#/$defs/Missing"},
            }}),
            json!({}),
        )
        .unwrap_err();
        assert_eq!(
            errors,
            [
                "a: `anyOf` of values of different types (string, object): a structural schema has one type per node (use #[kstruct(...)] on the field instead)",
                "b: `not` has no equivalent in a Kubernetes structural schema beyond `not: {enum: [...]}`",
                "c: `$ref` \"#/$defs/Missing\" names no definition",
            ]
        );
    }
}
