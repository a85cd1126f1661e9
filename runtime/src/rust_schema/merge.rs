//! Schemas of values that are one of several shapes: the unions behind untagged enums and
//! heterogeneous tuples, nullable schemas, and the recursion points of recursive types.
//!
//! A structural schema has one `type` per node (or none, with unknown fields preserved, or
//! int-or-string). The union of several schemas is the most precise structural schema that
//! admits every value any of them admits:
//!
//! - schemas of one type merge: objects keep every property (a property in several branches
//!   gets the union of its schemas), with the branches' required fields and constraints as an
//!   `anyOf` of alternatives; arrays get the union of their items; bounds widen to cover
//!   every branch; an `enum` is kept when every branch has one;
//! - integers and strings become `x-kubernetes-int-or-string`;
//! - anything else has no `type` and preserves unknown fields, keeping the validations that
//!   only apply to one JSON type (a string `pattern`, number bounds, array `items`, object
//!   `properties`: the API server applies each to values of its type only);
//! - `null` in a branch (a unit variant of an untagged enum) makes the union nullable.
//!
//! What cannot survive a union is dropped: descriptions and defaults of the branches, and
//! their `x-kubernetes-validations` (a rule written for one branch would apply to all).

use kstruct_schema::{AdditionalProperties, NestedValueValidation, Structural, ValueValidation};

use super::{Generator, Shape, typed};

/// Makes `s` admit `null`, keeping its `enum` (if any) out of the way of `null`: the API
/// server checks a `null` against `enum` even under `nullable: true` and always rejects it,
/// but it does not look into `allOf` for a `null`. So the enum moves into `allOf`, where it
/// still restricts every other value.
pub fn make_nullable(s: &mut Structural) {
    s.generic.nullable = true;
    if !s.value_validation.enum_.is_empty() {
        let values = std::mem::take(&mut s.value_validation.enum_);
        s.value_validation.all_of.push(NestedValueValidation {
            value_validation: ValueValidation {
                enum_: values,
                ..ValueValidation::default()
            },
            ..NestedValueValidation::default()
        });
    }
}

/// The schema of a recursion point: any value of the given shape, kept as it is.
pub(crate) fn any_of_shape(shape: Shape) -> Structural {
    match shape {
        Shape::Object => {
            let mut s = typed("object");
            s.extensions.x_preserve_unknown_fields = true;
            s
        }
        Shape::Array => {
            let mut s = typed("array");
            s.items = Some(Box::new(any_of_shape(Shape::Unknown)));
            s
        }
        Shape::Boolean => typed("boolean"),
        Shape::Integer => typed("integer"),
        Shape::Number => typed("number"),
        Shape::String => typed("string"),
        Shape::IntOrString => {
            let mut s = Structural::default();
            s.extensions.x_int_or_string = true;
            s
        }
        // Any JSON value, `null` included.
        _ => {
            let mut s = Structural::default();
            s.extensions.x_preserve_unknown_fields = true;
            s.generic.nullable = true;
            s
        }
    }
}

/// The kind of JSON value a branch admits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Boolean,
    Integer,
    Number,
    String,
    IntOrString,
    Array,
    Object,
    /// Anything (no type, unknown fields preserved).
    Any,
}

fn kind(s: &Structural) -> Kind {
    match s.generic.type_.as_str() {
        "boolean" => Kind::Boolean,
        "integer" => Kind::Integer,
        "number" => Kind::Number,
        "string" => Kind::String,
        "array" => Kind::Array,
        "object" => Kind::Object,
        _ if s.extensions.x_int_or_string => Kind::IntOrString,
        _ => Kind::Any,
    }
}

/// The union of `branches`; `None` stands for a branch that is only ever `null` (an untagged
/// unit variant).
pub fn union(generator: &mut Generator, branches: Vec<Option<Structural>>) -> Structural {
    let nullable = branches.iter().any(|b| b.as_ref().is_none_or(|s| s.generic.nullable));
    let mut values: Vec<Structural> = branches.into_iter().flatten().collect();
    if values.is_empty() {
        generator.problem("every variant is written as `null`, which no structural schema can type");
        return any_of_shape(Shape::Unknown);
    }
    for v in &mut values {
        strip_nullable(v);
    }
    let mut kinds: Vec<Kind> = values.iter().map(kind).collect();
    kinds.sort();
    kinds.dedup();
    let mut out = if kinds.len() == 1 {
        merge_same(generator, kinds[0], values)
    } else if kinds
        .iter()
        .all(|k| matches!(k, Kind::Integer | Kind::String | Kind::IntOrString))
    {
        int_or_string(generator, values)
    } else if kinds == [Kind::Integer, Kind::Number] {
        merge_same(generator, Kind::Number, values)
    } else {
        mixed(generator, values)
    };
    if nullable {
        make_nullable(&mut out);
    }
    out
}

/// Undoes [`make_nullable`] on a branch (the union decides nullability for all branches).
fn strip_nullable(s: &mut Structural) {
    if !s.generic.nullable {
        return;
    }
    s.generic.nullable = false;
    let vv = &mut s.value_validation;
    if vv.enum_.is_empty()
        && let Some(i) = vv.all_of.iter().position(is_enum_only)
    {
        let moved = vv.all_of.remove(i);
        vv.enum_ = moved.value_validation.enum_;
    }
}

fn is_enum_only(n: &NestedValueValidation) -> bool {
    let mut rest = n.clone();
    rest.value_validation.enum_.clear();
    !n.value_validation.enum_.is_empty() && rest == NestedValueValidation::default()
}

/// Schemas of one kind merged into one.
fn merge_same(generator: &mut Generator, kind: Kind, values: Vec<Structural>) -> Structural {
    if values.len() == 1 {
        let mut only = values.into_iter().next().expect("one value");
        forget_branch_details(&mut only);
        return only;
    }
    match kind {
        Kind::Object => merge_objects(generator, values),
        Kind::Any => mixed(generator, values),
        Kind::IntOrString => int_or_string(generator, values),
        _ => {
            let type_ = match kind {
                Kind::Boolean => "boolean",
                Kind::Integer => "integer",
                Kind::Number => "number",
                Kind::String => "string",
                _ => "array",
            };
            let mut s = typed(type_);
            s.value_validation.enum_ = enum_union(&values);
            s.value_validation.format = common(&values, |v| v.value_validation.format.clone()).unwrap_or_default();
            copy_string_validations(&mut s, &values);
            copy_number_validations(&mut s, &values);
            if kind == Kind::Array {
                copy_array_validations(generator, &mut s, values);
            }
            s
        }
    }
}

/// Descriptions, defaults and rules belong to a branch, not to the union.
fn forget_branch_details(s: &mut Structural) {
    s.generic.description.clear();
    s.generic.title.clear();
    s.generic.default = None;
    s.generic.example = None;
    s.generic.external_docs = None;
    s.x_validations = None;
}

/// `Some(x)` when every value gives the same `x`.
fn common<T: PartialEq>(values: &[Structural], f: impl Fn(&Structural) -> T) -> Option<T> {
    let first = f(values.first()?);
    values.iter().skip(1).all(|v| f(v) == first).then_some(first)
}

/// Every branch's enum values, in order of first appearance, when every branch has an enum.
fn enum_union(values: &[Structural]) -> Vec<serde_json::Value> {
    if values.iter().any(|v| v.value_validation.enum_.is_empty()) {
        return Vec::new();
    }
    let mut out: Vec<serde_json::Value> = Vec::new();
    for v in values {
        for e in &v.value_validation.enum_ {
            if !out.contains(e) {
                out.push(e.clone());
            }
        }
    }
    out
}

/// The loosest of the branches' bounds, when every branch has one.
fn widest(values: &[Structural], f: impl Fn(&ValueValidation) -> Option<i64>, lowest: bool) -> Option<i64> {
    let all: Option<Vec<i64>> = values.iter().map(|v| f(&v.value_validation)).collect();
    let all = all?;
    if lowest {
        all.into_iter().min()
    } else {
        all.into_iter().max()
    }
}

fn copy_string_validations(s: &mut Structural, values: &[Structural]) {
    let vv = &mut s.value_validation;
    vv.pattern = common(values, |v| v.value_validation.pattern.clone()).unwrap_or_default();
    vv.min_length = widest(values, |v| v.min_length, true);
    vv.max_length = widest(values, |v| v.max_length, false);
}

fn copy_number_validations(s: &mut Structural, values: &[Structural]) {
    let vv = &mut s.value_validation;
    if let Some((minimum, exclusive)) = widest_bound(values, |v| (v.minimum, v.exclusive_minimum), true) {
        vv.minimum = Some(minimum);
        vv.exclusive_minimum = exclusive;
    }
    if let Some((maximum, exclusive)) = widest_bound(values, |v| (v.maximum, v.exclusive_maximum), false) {
        vv.maximum = Some(maximum);
        vv.exclusive_maximum = exclusive;
    }
    vv.multiple_of = common(values, |v| v.value_validation.multiple_of.map(f64::to_bits))
        .flatten()
        .map(f64::from_bits);
}

/// The loosest of the branches' number bounds (the lowest minimum or the highest maximum),
/// exclusive only if every branch with that bound is; `None` unless every branch has one.
fn widest_bound(
    values: &[Structural],
    bound: impl Fn(&ValueValidation) -> (Option<f64>, bool),
    lowest: bool,
) -> Option<(f64, bool)> {
    let bounds: Vec<(f64, bool)> = values
        .iter()
        .map(|v| {
            let (b, exclusive) = bound(&v.value_validation);
            b.map(|b| (b, exclusive))
        })
        .collect::<Option<_>>()?;
    let widest = bounds
        .iter()
        .map(|b| b.0)
        .reduce(if lowest { f64::min } else { f64::max })?;
    Some((widest, bounds.iter().filter(|b| b.0 == widest).all(|b| b.1)))
}

fn copy_array_validations(generator: &mut Generator, s: &mut Structural, values: Vec<Structural>) {
    s.value_validation.min_items = widest(&values, |v| v.min_items, true);
    s.value_validation.max_items = widest(&values, |v| v.max_items, false);
    if let Some(list_type) = common(&values, |v| v.extensions.x_list_type.clone()) {
        s.extensions.x_list_type = list_type;
        s.extensions.x_list_map_keys = common(&values, |v| v.extensions.x_list_map_keys.clone()).flatten();
        if s.extensions.x_list_type.as_deref() == Some("map") && s.extensions.x_list_map_keys.is_none() {
            s.extensions.x_list_type = None;
        }
    }
    // A branch without `items` (anything, in a union) admits any items.
    let items: Vec<Option<Structural>> = values
        .into_iter()
        .map(|v| Some(v.items.map_or_else(|| any_of_shape(Shape::Unknown), |i| *i)))
        .collect();
    if !items.is_empty() {
        let mut merged = generator.at("[]", |g| union(g, items));
        if s.extensions.x_list_type.is_some() && merged.generic.nullable {
            // List-type set and map items must not be nullable: the list becomes atomic.
            s.extensions.x_list_type = None;
            s.extensions.x_list_map_keys = None;
        }
        forget_branch_details(&mut merged);
        s.items = Some(Box::new(merged));
    }
}

/// Object schemas merged: every property, the branches' requirements as alternatives.
fn merge_objects(generator: &mut Generator, values: Vec<Structural>) -> Structural {
    let mut s = typed("object");
    copy_object_parts(generator, &mut s, values);
    s
}

/// What object branches contribute to a union, put into `s` (typed `object` or not).
fn copy_object_parts(generator: &mut Generator, s: &mut Structural, values: Vec<Structural>) {
    let all_maps = values
        .iter()
        .all(|v| v.properties.is_empty() && v.additional_properties.is_some());
    s.extensions.x_preserve_unknown_fields |= values.iter().any(|v| v.extensions.x_preserve_unknown_fields);
    s.value_validation.min_properties = widest(&values, |v| v.min_properties, true);
    s.value_validation.max_properties = widest(&values, |v| v.max_properties, false);
    if let Some(map_type) = common(&values, |v| v.extensions.x_map_type.clone()) {
        s.extensions.x_map_type = map_type;
    }
    if values.iter().all(|v| v.extensions.x_embedded_resource) {
        s.extensions.x_embedded_resource = true;
    }
    if all_maps {
        let schemas: Vec<Option<Structural>> = values
            .iter()
            .map(|v| match &v.additional_properties {
                Some(AdditionalProperties::Schema(ap)) => Some((**ap).clone()),
                _ => Some(any_of_shape(Shape::Unknown)),
            })
            .collect();
        let merged = generator.at("[*]", |g| union(g, schemas));
        s.additional_properties = Some(AdditionalProperties::Schema(Box::new(merged)));
        return;
    }
    if values.iter().any(|v| v.additional_properties.is_some()) {
        // A map branch beside branches with properties: the properties stay typed and the
        // map's keys are kept as they are.
        s.extensions.x_preserve_unknown_fields = true;
    }

    // Every property of every branch; a property of several branches gets their union, and
    // a branch that keeps unknown fields but lacks the property may hold anything there.
    let mut by_key: std::collections::BTreeMap<String, Vec<Option<Structural>>> = Default::default();
    for v in &values {
        for (k, p) in &v.properties {
            by_key.entry(k.clone()).or_default().push(Some(p.clone()));
        }
    }
    for v in &values {
        if v.extensions.x_preserve_unknown_fields || v.additional_properties.is_some() {
            for (k, schemas) in by_key.iter_mut() {
                if !v.properties.contains_key(k) {
                    schemas.push(Some(any_of_shape(Shape::Unknown)));
                }
            }
        }
    }
    for (k, schemas) in by_key {
        let default = shared_default(&schemas, values.len());
        let mut merged = if schemas.len() == 1 {
            schemas.into_iter().next().flatten().expect("one schema")
        } else {
            let description = common_description(&schemas);
            let mut m = generator.at(k.clone(), |g| union(g, schemas));
            m.generic.description = description;
            m
        };
        // A default only where every branch has the property with that default: otherwise
        // the API server would add it to objects of branches that lack it.
        merged.generic.default = default;
        s.properties.insert(k, merged);
    }

    // Requirements: what every branch requires is required; the rest of each branch's
    // requirements (and its own constraints) are alternatives.
    let required: Vec<Vec<String>> = values
        .iter()
        .map(|v| v.value_validation.required.clone().unwrap_or_default())
        .collect();
    let shared: Vec<String> = required[0]
        .iter()
        .filter(|r| required.iter().all(|other| other.contains(r)))
        .cloned()
        .collect();
    if !shared.is_empty() {
        s.value_validation.required = Some(shared.clone());
    }
    let mut alternatives: Vec<NestedValueValidation> = Vec::new();
    for (v, req) in values.iter().zip(&required) {
        let rest: Vec<String> = req.iter().filter(|r| !shared.contains(r)).cloned().collect();
        let vv = &v.value_validation;
        let alternative = NestedValueValidation {
            value_validation: ValueValidation {
                required: (!rest.is_empty()).then_some(rest),
                all_of: vv.all_of.clone(),
                any_of: vv.any_of.clone(),
                one_of: vv.one_of.clone(),
                not: vv.not.clone(),
                ..ValueValidation::default()
            },
            ..NestedValueValidation::default()
        };
        if alternative == NestedValueValidation::default() {
            // This branch admits every object the merged structure admits.
            return;
        }
        if !alternatives.contains(&alternative) {
            alternatives.push(alternative);
        }
    }
    if alternatives.len() == 1 {
        let only = alternatives.pop().expect("one alternative").value_validation;
        let vv = &mut s.value_validation;
        if let Some(req) = only.required {
            vv.required.get_or_insert_with(Vec::new).extend(req);
        }
        vv.all_of.extend(only.all_of);
        vv.any_of.extend(only.any_of);
        vv.one_of.extend(only.one_of);
        if only.not.is_some() {
            vv.not = only.not;
        }
    } else if !alternatives.is_empty() {
        s.value_validation.any_of.extend(alternatives);
    }
}

/// The default every one of `branches` branches gives a property (`schemas` has the property's
/// schema in each branch that has it): `None` unless all have it, with the same default.
pub(crate) fn shared_default(schemas: &[Option<Structural>], branches: usize) -> Option<serde_json::Value> {
    if schemas.len() != branches {
        return None;
    }
    let first = schemas.first()?.as_ref()?.generic.default.clone()?;
    schemas
        .iter()
        .all(|s| s.as_ref().is_some_and(|s| s.generic.default.as_ref() == Some(&first)))
        .then_some(first)
}

fn common_description(schemas: &[Option<Structural>]) -> String {
    let first = schemas
        .first()
        .and_then(|s| s.as_ref())
        .map(|s| s.generic.description.clone());
    match first {
        Some(d)
            if schemas
                .iter()
                .all(|s| s.as_ref().map(|s| &s.generic.description) == Some(&d)) =>
        {
            d
        }
        _ => String::new(),
    }
}

/// Integers and strings (and int-or-string schemas): `x-kubernetes-int-or-string`.
fn int_or_string(_generator: &mut Generator, values: Vec<Structural>) -> Structural {
    let mut s = Structural::default();
    s.extensions.x_int_or_string = true;
    s.value_validation.enum_ = enum_union(&values);
    let admits_strings: Vec<Structural> = values
        .iter()
        .filter(|v| matches!(kind(v), Kind::String | Kind::IntOrString))
        .cloned()
        .collect();
    let admits_integers: Vec<Structural> = values
        .iter()
        .filter(|v| matches!(kind(v), Kind::Integer | Kind::IntOrString))
        .cloned()
        .collect();
    copy_string_validations(&mut s, &admits_strings);
    copy_number_validations(&mut s, &admits_integers);
    s
}

/// Values of several JSON types: no type, unknown fields preserved, and what applies to one
/// type only kept from the branches that admit that type (a branch with no type admits every
/// type, with its own restrictions, if any, on some).
fn mixed(generator: &mut Generator, values: Vec<Structural>) -> Structural {
    let mut s = Structural::default();
    s.extensions.x_preserve_unknown_fields = true;
    s.value_validation.enum_ = enum_union(&values);
    let of =
        |kinds: &[Kind]| -> Vec<Structural> { values.iter().filter(|v| kinds.contains(&kind(v))).cloned().collect() };
    let strings = of(&[Kind::String, Kind::IntOrString, Kind::Any]);
    if !strings.is_empty() {
        copy_string_validations(&mut s, &strings);
        s.value_validation.format = common(&strings, |v| v.value_validation.format.clone()).unwrap_or_default();
    }
    let numbers = of(&[Kind::Integer, Kind::Number, Kind::IntOrString, Kind::Any]);
    if !numbers.is_empty() {
        copy_number_validations(&mut s, &numbers);
    }
    let arrays = of(&[Kind::Array, Kind::Any]);
    if arrays.iter().any(|a| kind(a) == Kind::Array) {
        let mut a = typed("array");
        copy_array_validations(generator, &mut a, arrays);
        s.items = a.items;
        s.value_validation.min_items = a.value_validation.min_items;
        s.value_validation.max_items = a.value_validation.max_items;
    } else if let Some(items) = arrays.iter().find_map(|a| a.items.clone())
        && arrays.iter().all(|a| a.items.is_some())
    {
        s.items = Some(items);
    }
    let objects = of(&[Kind::Object, Kind::Any]);
    if objects
        .iter()
        .any(|o| kind(o) == Kind::Object || !o.properties.is_empty())
    {
        copy_object_parts(generator, &mut s, objects);
        // The objects' junctors also see the values of the other types: they must let those
        // through.
        let vv = &mut s.value_validation;
        let nested = NestedValueValidation {
            value_validation: ValueValidation {
                all_of: std::mem::take(&mut vv.all_of),
                any_of: std::mem::take(&mut vv.any_of),
                one_of: std::mem::take(&mut vv.one_of),
                not: vv.not.take(),
                ..ValueValidation::default()
            },
            ..NestedValueValidation::default()
        };
        if let Some(safe) = object_safe(nested) {
            vv.all_of = safe.value_validation.all_of;
            vv.any_of = safe.value_validation.any_of;
        }
        // Without a type the API server refuses these (they need `type: object`).
        s.extensions.x_map_type = None;
        s.extensions.x_embedded_resource = false;
        if matches!(s.additional_properties, Some(AdditionalProperties::Schema(_))) && !s.properties.is_empty() {
            s.additional_properties = None;
        }
    }
    s.extensions.x_preserve_unknown_fields = true;
    s
}

/// `n`, changed so that every value that is not an object passes it (what it says about
/// objects kept or loosened, never tightened); `None` when nothing is left.
///
/// The API server applies a junctor to every non-null value, while `required`,
/// `properties`, `minProperties`... only apply to objects: a branch made of those passes any
/// other value. So `anyOf` and `allOf` of such branches are safe; `oneOf` is not (every
/// branch passes a string: not exactly one) and becomes `anyOf` (serde's objects match one
/// branch, so at least one); `not` and whatever applies to other types are dropped.
fn object_safe(n: NestedValueValidation) -> Option<NestedValueValidation> {
    let vv = n.value_validation;
    let mut out = ValueValidation {
        required: vv.required,
        min_properties: vv.min_properties,
        max_properties: vv.max_properties,
        ..ValueValidation::default()
    };
    out.all_of = vv.all_of.into_iter().filter_map(object_safe).collect();
    for alternatives in [vv.any_of, vv.one_of] {
        if alternatives.is_empty() {
            continue;
        }
        let safe: Option<Vec<NestedValueValidation>> = alternatives.into_iter().map(object_safe).collect();
        // A branch that says nothing admits everything: so does the junctor.
        if let Some(safe) = safe {
            out.all_of.push(NestedValueValidation {
                value_validation: ValueValidation {
                    any_of: safe,
                    ..ValueValidation::default()
                },
                ..NestedValueValidation::default()
            });
        }
    }
    if out.all_of.len() == 1
        && out
            == (ValueValidation {
                all_of: out.all_of.clone(),
                ..ValueValidation::default()
            })
    {
        return out.all_of.pop();
    }
    let safe = NestedValueValidation {
        value_validation: out,
        properties: n.properties,
        additional_properties: n.additional_properties,
        ..NestedValueValidation::default()
    };
    (safe != NestedValueValidation::default()).then_some(safe)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kstruct_schema::serialize::to_value;
    use serde_json::{Value, json};

    fn schema(v: Value) -> Structural {
        kstruct_schema::convert::from_value(&v).unwrap().unwrap()
    }

    fn union_of(branches: Vec<Option<Value>>) -> Value {
        let mut g = Generator::new();
        let s = union(&mut g, branches.into_iter().map(|b| b.map(schema)).collect());
        assert!(g.problems().is_empty(), "{:?}", g.problems());
        to_value(&s)
    }

    #[test]
    fn integers_and_strings_are_int_or_string() {
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "integer", "format": "int32"})),
                Some(json!({"type": "string", "maxLength": 3}))
            ]),
            json!({"x-kubernetes-int-or-string": true, "maxLength": 3})
        );
    }

    #[test]
    fn objects_merge_with_requirements_as_alternatives() {
        assert_eq!(
            union_of(vec![
                Some(
                    json!({"type": "object", "properties": {"name": {"type": "string"}, "ns": {"type": "string"}}, "required": ["name", "ns"]})
                ),
                Some(
                    json!({"type": "object", "properties": {"name": {"type": "string"}, "uid": {"type": "string"}}, "required": ["name", "uid"]})
                ),
            ]),
            json!({"type": "object", "required": ["name"],
                   "properties": {"name": {"type": "string"}, "ns": {"type": "string"}, "uid": {"type": "string"}},
                   "anyOf": [{"required": ["ns"]}, {"required": ["uid"]}]})
        );
        // A branch that requires nothing admits every object: no alternatives.
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})),
                Some(json!({"type": "object", "properties": {"b": {"type": "integer"}}})),
            ]),
            json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}})
        );
    }

    #[test]
    fn a_property_of_several_branches_gets_their_union() {
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "object", "properties": {"v": {"type": "string"}}})),
                Some(json!({"type": "object", "properties": {"v": {"type": "integer"}}})),
            ]),
            json!({"type": "object", "properties": {"v": {"x-kubernetes-int-or-string": true}}})
        );
    }

    #[test]
    fn strings_and_objects_keep_what_applies_to_each() {
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "string", "pattern": "^a"})),
                Some(json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})),
            ]),
            json!({"x-kubernetes-preserve-unknown-fields": true, "pattern": "^a",
                   "properties": {"name": {"type": "string"}}, "required": ["name"]})
        );
    }

    #[test]
    fn null_branches_make_the_union_nullable_and_move_enums_out_of_nulls_way() {
        assert_eq!(
            union_of(vec![None, Some(json!({"type": "string", "enum": ["a", "b"]}))]),
            json!({"type": "string", "nullable": true, "allOf": [{"enum": ["a", "b"]}]})
        );
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "string", "enum": ["a"]})),
                Some(json!({"type": "string", "enum": ["b", "a"]}))
            ]),
            json!({"type": "string", "enum": ["a", "b"]})
        );
    }

    #[test]
    fn bounds_widen() {
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "integer", "minimum": 0, "maximum": 10})),
                Some(json!({"type": "number", "minimum": -1, "exclusiveMinimum": true, "maximum": 5}))
            ]),
            json!({"type": "number", "minimum": -1, "exclusiveMinimum": true, "maximum": 10})
        );
    }

    #[test]
    fn arrays_merge_items() {
        assert_eq!(
            union_of(vec![
                Some(json!({"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 2})),
                Some(json!({"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 1}))
            ]),
            json!({"type": "array", "items": {"x-kubernetes-int-or-string": true}, "minItems": 1, "maxItems": 2})
        );
    }

    #[test]
    fn anything_absorbs_everything() {
        assert_eq!(
            union_of(vec![
                Some(json!({"x-kubernetes-preserve-unknown-fields": true})),
                Some(json!({"type": "string", "pattern": "x"}))
            ]),
            json!({"x-kubernetes-preserve-unknown-fields": true})
        );
        // Anything beside an object: the object's properties may hold anything.
        assert_eq!(
            union_of(vec![
                Some(json!({"x-kubernetes-preserve-unknown-fields": true})),
                Some(json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}))
            ]),
            json!({"x-kubernetes-preserve-unknown-fields": true,
                   "properties": {"a": {"x-kubernetes-preserve-unknown-fields": true, "nullable": true}}})
        );
    }

    #[test]
    fn junctors_of_objects_let_other_types_through() {
        let external = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                              "oneOf": [{"required": ["a"]}, {"required": ["b"]}]});
        assert_eq!(
            union_of(vec![Some(json!({"type": "string"})), Some(external)]),
            json!({"x-kubernetes-preserve-unknown-fields": true,
                   "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
                   "anyOf": [{"required": ["a"]}, {"required": ["b"]}]})
        );
        let adjacent = json!({"type": "object", "properties": {"t": {"type": "string"}, "c": {"type": "string"}},
                              "oneOf": [{"properties": {"t": {"enum": ["A"]}}, "not": {"required": ["c"]}},
                                        {"properties": {"t": {"enum": ["B"]}}, "required": ["c"]}]});
        assert_eq!(
            union_of(vec![Some(json!({"type": "integer"})), Some(adjacent)]),
            json!({"x-kubernetes-preserve-unknown-fields": true,
                   "properties": {"t": {"type": "string"}, "c": {"type": "string"}},
                   "anyOf": [{"properties": {"t": {"enum": ["A"]}}},
                             {"properties": {"t": {"enum": ["B"]}}, "required": ["c"]}]})
        );
    }

    #[test]
    fn a_union_of_unions_keeps_what_each_type_says() {
        // A tagged enum with unit and data variants (no type), beside an integer.
        let tagged = json!({"x-kubernetes-preserve-unknown-fields": true, "pattern": "^(?:Latest)$",
                            "maxProperties": 1, "properties": {"Pinned": {"type": "string"}},
                            "anyOf": [{"required": ["Pinned"]}]});
        assert_eq!(
            union_of(vec![Some(tagged), Some(json!({"type": "integer", "minimum": 0}))]),
            json!({"x-kubernetes-preserve-unknown-fields": true, "pattern": "^(?:Latest)$",
                   "maxProperties": 1, "properties": {"Pinned": {"type": "string"}},
                   "anyOf": [{"required": ["Pinned"]}]})
        );
    }

    #[test]
    fn only_nulls_is_a_problem() {
        let mut g = Generator::new();
        let s = union(&mut g, vec![None, None]);
        assert_eq!(g.problems().len(), 1);
        assert!(s.extensions.x_preserve_unknown_fields);
    }
}
