//! The pieces `#[derive(CustomResourceSchema)]` assembles schemas from: objects (structs and
//! struct variants), the four enum representations, and the attributes of a schema node.
//!
//! The derive decides everything it can see at compile time (names, required fields, which
//! attribute applies where); these builders do what needs the fields' schemas or values.

use std::collections::BTreeMap;

use kstruct_schema::{
    AdditionalProperties, ExternalDocumentation, NestedValueValidation, Structural, ValidationRule, ValueValidation,
};
use serde::Serialize;
use serde_json::Value;

use super::merge::{self, make_nullable};
use super::outline::{self, KeyProblem};
use super::{CustomResourceSchema, Generator, typed};

/// The largest of `depths` (for the recursion check, see
/// [`CustomResourceSchema::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS`]).
pub const fn deepest<const N: usize>(depths: [usize; N]) -> usize {
    let mut max = 0;
    let mut i = 0;
    while i < depths.len() {
        if depths[i] > max {
            max = depths[i];
        }
        i += 1;
    }
    max
}

/// The schema of a struct field: the present-value schema of `T`, or, when a `null` written
/// for the field must be kept (it has a default, or it is required), the full schema.
///
/// An `Option` field drops a default its inner type has of its own (`#[kstruct(default =
/// ...)]` on the type): a missing field, or the `null` of `None`, means `None`, which the API
/// server would otherwise turn into `Some(default)`.
pub fn field_schema<T: CustomResourceSchema + ?Sized>(generator: &mut Generator, keep_null: bool) -> Structural {
    let mut s = if keep_null && T::OPTIONAL {
        let mut s = generator.subschema_for::<T>();
        make_nullable(&mut s);
        s
    } else {
        generator.present_subschema_for::<T>()
    };
    if T::OPTIONAL {
        s.generic.default = None;
    }
    s
}

/// Removes the defaults of the properties of `s` (not deeper): where a property may be absent
/// for reasons the schema cannot see (another variant, a `None`), the API server must not
/// fill it in.
fn forget_property_defaults(s: &mut Structural) {
    for p in s.properties.values_mut() {
        p.generic.default = None;
    }
}

/// A value serialized as serde serializes it, as a schema `default` or `enum` value.
/// `None` for `null` (which is no default) or when serialization fails (a problem).
pub fn to_json<T: Serialize + ?Sized>(generator: &mut Generator, what: &str, value: &T) -> Option<Value> {
    match serde_json::to_value(value) {
        Ok(Value::Null) => None,
        Ok(v) => Some(v),
        Err(e) => {
            generator.problem(format!("the {what} cannot be serialized: {e}"));
            None
        }
    }
}

/// A value serialized through a `#[serde(serialize_with = ...)]` (or `with`) function, as
/// [`to_json`] does for plain values.
pub fn to_json_with<T: ?Sized>(
    generator: &mut Generator,
    what: &str,
    value: &T,
    with: fn(&T, serde_json::value::Serializer) -> Result<Value, serde_json::Error>,
) -> Option<Value> {
    match with(value, serde_json::value::Serializer) {
        Ok(Value::Null) => None,
        Ok(v) => Some(v),
        Err(e) => {
            generator.problem(format!("the {what} cannot be serialized: {e}"));
            None
        }
    }
}

/// Doc comment lines (`///`), one string per `#[doc]` attribute, as a description: each line
/// loses the one space rustdoc puts after `///`, blank lines at the start and end go, the
/// rest is joined with newlines (as controller-gen keeps Go comment lines).
pub fn doc_text(lines: &[&str]) -> String {
    let mut out: Vec<&str> = Vec::new();
    for chunk in lines {
        for line in chunk.split('\n') {
            let line = line.strip_prefix(' ').unwrap_or(line);
            out.push(line.trim_end());
        }
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    out.join("\n")
}

/// Builds the schema of a struct or a struct variant.
#[derive(Debug)]
pub struct Object {
    schema: Structural,
    required: Vec<String>,
    /// Properties added through `property` (not flattened), for duplicate checks.
    origin: BTreeMap<String, String>,
}

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

impl Object {
    /// An object with no properties yet.
    pub fn new() -> Object {
        Object {
            schema: typed("object"),
            required: Vec::new(),
            origin: BTreeMap::new(),
        }
    }

    /// Adds property `name` (the serialized name) with the schema `schema` builds.
    pub fn property(
        &mut self,
        generator: &mut Generator,
        name: &str,
        required: bool,
        schema: impl FnOnce(&mut Generator) -> Structural,
    ) {
        let schema = generator.at(name, schema);
        self.insert(generator, name, schema, format!("field `{name}`"));
        if required && !self.required.iter().any(|r| r == name) {
            self.required.push(name.to_owned());
        }
    }

    fn insert(&mut self, generator: &mut Generator, name: &str, schema: Structural, origin: String) {
        if let Some(first) = self.origin.get(name) {
            // The derive's compile-time check says the same (`duplicate_problem`).
            let (mut a, mut b, mut message) = (outline::Text::new(), outline::Text::new(), outline::Text::new());
            a.push(first);
            b.push(&origin);
            outline::write_duplicate(&mut message, name, &a, &b);
            generator.problem(message.as_str());
            return;
        }
        self.origin.insert(name.to_owned(), origin);
        self.schema.properties.insert(name.to_owned(), schema);
    }

    /// Adds the tag property of an internally tagged struct (`#[serde(tag = "...")]`).
    pub fn tag(&mut self, generator: &mut Generator, tag: &str, value: &str) {
        self.property(generator, tag, true, |_| unit_enum(&[value]));
    }

    /// Merges the schema of a `#[serde(flatten)]` field: its properties (and requirements,
    /// unless the field is an `Option`, which writes nothing for `None`) become the parent's.
    /// A flattened map (or `Value`) makes the parent keep unknown fields, whose values are then
    /// kept as they are: a structural schema cannot have both `properties` and typed
    /// `additionalProperties`.
    pub fn flatten(
        &mut self,
        generator: &mut Generator,
        field: &str,
        optional: bool,
        schema: impl FnOnce(&mut Generator) -> Structural,
    ) {
        let mut s = generator.at(field, schema);
        let typeless_any = s.generic.type_.is_empty() && s.extensions.x_preserve_unknown_fields;
        if s.generic.type_ != "object" && !typeless_any {
            generator.problem(format!(
                "the flattened field `{field}` is not written as an object (serde can only flatten structs and maps)"
            ));
            return;
        }
        let origin = format!("the flattened field `{field}`");
        if s.additional_properties.is_some() || s.extensions.x_preserve_unknown_fields {
            self.schema.extensions.x_preserve_unknown_fields = true;
        }
        if optional {
            // `None` writes none of these fields: the API server must not add them.
            forget_property_defaults(&mut s);
        }
        for (k, p) in s.properties {
            self.insert(generator, &k, p, origin.clone());
        }
        if optional {
            return;
        }
        for r in s.value_validation.required.take().unwrap_or_default() {
            if !self.required.contains(&r) {
                self.required.push(r);
            }
        }
        // The flattened type's own constraints (a flattened enum's "exactly one variant") and
        // rules still hold for the merged object: its fields are the parent's.
        let vv = s.value_validation;
        let nested = NestedValueValidation {
            value_validation: ValueValidation {
                all_of: vv.all_of,
                any_of: vv.any_of,
                one_of: vv.one_of,
                not: vv.not,
                ..ValueValidation::default()
            },
            ..NestedValueValidation::default()
        };
        if nested != NestedValueValidation::default() {
            self.schema.value_validation.all_of.push(nested);
        }
        if let Some(rules) = s.x_validations {
            self.schema.x_validations.get_or_insert_with(Vec::new).extend(rules);
        }
    }

    /// Adds the rule controller-gen adds for an optional immutable field: once set, it stays.
    pub fn immutable_once_set(&mut self, generator: &mut Generator, name: &str) {
        let Some(field) = kstruct_cel::escape_property(name) else {
            generator.problem(format!(
                "`{name}` cannot be named in a CEL rule: `immutable` cannot say it stays set"
            ));
            return;
        };
        self.schema
            .x_validations
            .get_or_insert_with(Vec::new)
            .push(ValidationRule {
                rule: format!("!has(oldSelf.{field}) || has(self.{field})"),
                message: format!("field {name} is immutable once set"),
                ..ValidationRule::default()
            });
    }

    /// The object's schema.
    pub fn finish(mut self) -> Structural {
        if !self.required.is_empty() {
            self.schema.value_validation.required = Some(self.required);
        }
        self.schema
    }
}

/// A unit-only enum: `type: string` with the serialized names as `enum`, in declaration
/// order.
pub fn unit_enum(names: &[&str]) -> Structural {
    let mut s = typed("string");
    s.value_validation.enum_ = names.iter().map(|n| Value::String((*n).to_owned())).collect();
    s
}

/// An externally tagged enum (serde's default): a unit variant is written as its name, a
/// data variant as an object with the name as the only key.
///
/// Only data variants: `type: object`, one property per variant and exactly one of them
/// present (`oneOf` of `required`). Unit and data variants mixed: serde writes strings and
/// objects, so the schema has no `type` and preserves unknown fields; strings are held to
/// the unit names by a `pattern` (which only applies to strings), objects to one variant key
/// by `maxProperties: 1` and an `anyOf` of `required` (which only apply to objects), and the
/// variants' values keep their schemas.
#[derive(Debug, Default)]
pub struct ExternalEnum {
    units: Vec<String>,
    object: Object,
    data: Vec<String>,
}

impl ExternalEnum {
    /// An enum with no variants yet.
    pub fn new() -> ExternalEnum {
        ExternalEnum::default()
    }

    /// A unit variant, by serialized name.
    pub fn unit(&mut self, name: &str) {
        self.units.push(name.to_owned());
    }

    /// A data variant, by serialized name, with the schema of its value.
    pub fn variant(
        &mut self,
        generator: &mut Generator,
        name: &str,
        schema: impl FnOnce(&mut Generator) -> Structural,
    ) {
        let mut schema = generator.at(name, schema);
        // A variant's key is present only for that variant: no default may add it.
        schema.generic.default = None;
        self.object.insert(generator, name, schema, format!("variant `{name}`"));
        self.data.push(name.to_owned());
    }

    /// The enum's schema.
    pub fn finish(self) -> Structural {
        if self.data.is_empty() {
            let names: Vec<&str> = self.units.iter().map(String::as_str).collect();
            return unit_enum(&names);
        }
        let mut s = self.object.finish();
        let one_of: Vec<NestedValueValidation> = self
            .data
            .iter()
            .map(|d| required_nested(std::slice::from_ref(d)))
            .collect();
        if self.units.is_empty() {
            if one_of.len() == 1 {
                s.value_validation.required = Some(self.data);
            } else {
                s.value_validation.one_of = one_of;
            }
            return s;
        }
        s.generic.type_.clear();
        s.extensions.x_preserve_unknown_fields = true;
        s.value_validation.pattern = names_pattern(&self.units);
        s.value_validation.max_properties = Some(1);
        s.value_validation.any_of = one_of;
        s
    }
}

/// `^(?:a|b)$` for names, quoted for Go's regexp syntax.
fn names_pattern(names: &[String]) -> String {
    let alternatives: Vec<String> = names.iter().map(|n| quote_meta(n)).collect();
    format!("^(?:{})$", alternatives.join("|"))
}

/// Go's `regexp.QuoteMeta`.
fn quote_meta(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if r"\.+*?()|[]{}^$".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn required_nested(names: &[String]) -> NestedValueValidation {
    NestedValueValidation {
        value_validation: ValueValidation {
            required: Some(names.to_vec()),
            ..ValueValidation::default()
        },
        ..NestedValueValidation::default()
    }
}

/// A nested validation `{properties: {<tag>: {enum: [<name>]}}}`: "the tag is `name`".
fn tag_is(tag: &str, name: &str) -> NestedValueValidation {
    let mut properties = BTreeMap::new();
    properties.insert(
        tag.to_owned(),
        NestedValueValidation {
            value_validation: ValueValidation {
                enum_: vec![Value::String(name.to_owned())],
                ..ValueValidation::default()
            },
            ..NestedValueValidation::default()
        },
    );
    NestedValueValidation {
        properties: Some(properties),
        ..NestedValueValidation::default()
    }
}

/// An internally tagged enum (`#[serde(tag = "t")]`): serde writes an object with the tag
/// and the variant's fields. The schema has the tag (`enum` of the names, required) and
/// every variant's properties; each variant's required fields hold when the tag names it
/// (`oneOf` of `{properties: {t: {enum: [name]}}, required: [...]}`).
#[derive(Debug)]
pub struct InternalEnum {
    tag: String,
    names: Vec<String>,
    variants: Vec<(String, Structural)>,
}

impl InternalEnum {
    /// An enum tagged by `tag`, with no variants yet.
    pub fn new(tag: &str) -> InternalEnum {
        InternalEnum {
            tag: tag.to_owned(),
            names: Vec::new(),
            variants: Vec::new(),
        }
    }

    /// A unit variant (written as the tag alone).
    pub fn unit(&mut self, name: &str) {
        self.names.push(name.to_owned());
    }

    /// A struct variant, or a newtype variant holding a struct or map: `schema` is the object
    /// whose fields serde writes beside the tag.
    pub fn variant(
        &mut self,
        generator: &mut Generator,
        name: &str,
        schema: impl FnOnce(&mut Generator) -> Structural,
    ) {
        let schema = generator.at(name, schema);
        let is_object = schema.generic.type_ == "object"
            || (schema.generic.type_.is_empty() && schema.extensions.x_preserve_unknown_fields);
        if !is_object {
            generator.problem(format!(
                "variant `{name}` holds a value serde cannot write beside the tag `{}` (only structs and maps can be)",
                self.tag
            ));
            return;
        }
        if schema.properties.contains_key(&self.tag) {
            let mut message = outline::Text::new();
            outline::write_tag_problem(&mut message, name, &self.tag);
            generator.problem(message.as_str());
        }
        self.names.push(name.to_owned());
        self.variants.push((name.to_owned(), schema));
    }

    /// The enum's schema.
    pub fn finish(self, generator: &mut Generator) -> Structural {
        let tag = unit_enum(&self.names.iter().map(String::as_str).collect::<Vec<_>>());
        tagged_union(generator, &self.tag, &self.names, tag, self.variants)
    }
}

/// An adjacently tagged enum (`#[serde(tag = "t", content = "c")]`): serde writes
/// `{"t": name, "c": value}`, and `{"t": name}` for unit variants. The content's schema is the
/// union of the variants' values; `c` is required for data variants and absent for unit ones
/// (`oneOf` by tag).
#[derive(Debug)]
pub struct AdjacentEnum {
    tag: String,
    content: String,
    names: Vec<String>,
    units: Vec<String>,
    variants: Vec<(String, Structural)>,
}

impl AdjacentEnum {
    /// An enum tagged by `tag`, with its content under `content`.
    pub fn new(tag: &str, content: &str) -> AdjacentEnum {
        AdjacentEnum {
            tag: tag.to_owned(),
            content: content.to_owned(),
            names: Vec::new(),
            units: Vec::new(),
            variants: Vec::new(),
        }
    }

    /// A unit variant.
    pub fn unit(&mut self, name: &str) {
        self.names.push(name.to_owned());
        self.units.push(name.to_owned());
    }

    /// A data variant with the schema of its content.
    pub fn variant(
        &mut self,
        generator: &mut Generator,
        name: &str,
        schema: impl FnOnce(&mut Generator) -> Structural,
    ) {
        let schema = generator.at(name, schema);
        self.names.push(name.to_owned());
        self.variants.push((name.to_owned(), schema));
    }

    /// The enum's schema.
    pub fn finish(self, generator: &mut Generator) -> Structural {
        let mut s = Object::new();
        let tag = unit_enum(&self.names.iter().map(String::as_str).collect::<Vec<_>>());
        s.property(generator, &self.tag, true, |_| tag);
        if !self.variants.is_empty() {
            let contents: Vec<Option<Structural>> = self.variants.iter().map(|(_, v)| Some(v.clone())).collect();
            s.property(generator, &self.content, false, |g| merge::union(g, contents));
        }
        let mut s = s.finish();
        if self.variants.is_empty() || self.units.is_empty() {
            if !self.variants.is_empty() {
                s.value_validation
                    .required
                    .get_or_insert_with(Vec::new)
                    .push(self.content);
            }
            return s;
        }
        let mut one_of = Vec::new();
        for name in &self.names {
            let mut branch = tag_is(&self.tag, name);
            if self.units.contains(name) {
                branch.value_validation.not = Some(Box::new(required_nested(std::slice::from_ref(&self.content))));
            } else {
                branch.value_validation.required = Some(vec![self.content.clone()]);
            }
            one_of.push(branch);
        }
        s.value_validation.one_of = one_of;
        s
    }
}

/// Objects distinguished by a tag property: the tag's schema, the variants' properties
/// merged, and each variant's requirements tied to its tag value.
fn tagged_union(
    generator: &mut Generator,
    tag: &str,
    names: &[String],
    tag_schema: Structural,
    variants: Vec<(String, Structural)>,
) -> Structural {
    let mut s = typed("object");
    let mut by_key: BTreeMap<String, Vec<Option<Structural>>> = BTreeMap::new();
    // One branch per tag value, so that `oneOf` holds whichever the tag is; needed only when
    // some variant has requirements of its own.
    let mut branches: Vec<NestedValueValidation> = Vec::new();
    let mut constrained = false;
    for name in names {
        let mut branch = tag_is(tag, name);
        if let Some((_, v)) = variants.iter().find(|(n, _)| n == name) {
            let vv = &v.value_validation;
            branch.value_validation.required = vv.required.clone();
            branch.value_validation.all_of = vv.all_of.clone();
            branch.value_validation.any_of = vv.any_of.clone();
            branch.value_validation.one_of = vv.one_of.clone();
            branch.value_validation.not = vv.not.clone();
            constrained |= branch != tag_is(tag, name);
        }
        branches.push(branch);
    }
    for (_, v) in &variants {
        if v.extensions.x_preserve_unknown_fields || v.additional_properties.is_some() {
            s.extensions.x_preserve_unknown_fields = true;
        }
        for (k, p) in &v.properties {
            if k != tag {
                by_key.entry(k.clone()).or_default().push(Some(p.clone()));
            }
        }
    }
    for (k, schemas) in by_key {
        let default = merge::shared_default(&schemas, names.len());
        let mut p = if schemas.len() == 1 {
            schemas.into_iter().next().flatten().expect("one schema")
        } else {
            generator.at(k.clone(), |g| merge::union(g, schemas))
        };
        // The property belongs to some variants only: a default would add it to the others.
        p.generic.default = default;
        s.properties.insert(k, p);
    }
    s.properties.insert(tag.to_owned(), tag_schema);
    s.value_validation.required = Some(vec![tag.to_owned()]);
    if constrained {
        s.value_validation.one_of = branches;
    }
    s
}

/// The schema of a tuple, tuple struct or tuple variant, from its elements' schemas: serde
/// writes `[a, b, ...]`, so an array of exactly that many items whose schema is the union of
/// the elements' (the elements' own schema when they are all of one type).
///
/// `always` is how many elements serde always writes: those with `skip_serializing_if` may be
/// left out, so the array may be shorter.
pub fn tuple(generator: &mut Generator, items: impl IntoIterator<Item = Structural>, always: usize) -> Structural {
    let branches: Vec<Option<Structural>> = items.into_iter().map(Some).collect();
    let n = branches.len() as i64;
    let mut s = typed("array");
    let item = generator.at("[]", |g| merge::union(g, branches));
    s.items = Some(Box::new(item));
    s.value_validation.min_items = Some(always as i64);
    s.value_validation.max_items = Some(n);
    s
}

/// An untagged enum (or the untagged variants of a tagged one): the union of what the
/// variants write; `None` for a unit variant, which serde writes as `null`.
pub fn untagged(generator: &mut Generator, variants: impl IntoIterator<Item = Option<Structural>>) -> Structural {
    merge::union(generator, variants.into_iter().collect())
}

/// The rule of a `validation(...)` attribute.
pub fn rule(rule: &str) -> ValidationRule {
    ValidationRule {
        rule: rule.to_owned(),
        ..ValidationRule::default()
    }
}

/// `Node` methods that set one value validation.
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $t:ty => $field:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(&mut self, value: $t) -> &mut Self {
            self.schema.value_validation.$field = Some(value);
            self
        }
    )*};
}

/// The attributes of one schema node, applied in the order the derive calls them (it calls
/// the ones that change the type first, and `nullable` last).
pub struct Node<'a> {
    schema: &'a mut Structural,
    generator: &'a mut Generator,
}

impl<'a> Node<'a> {
    /// Attributes for `schema`.
    pub fn new(generator: &'a mut Generator, schema: &'a mut Structural) -> Node<'a> {
        Node { schema, generator }
    }

    /// `type`, replacing the type's schema: a node of that type with nothing else (but the
    /// description and title), on which the other attributes then apply.
    pub fn type_(&mut self, type_: &str) -> &mut Self {
        let mut fresh = Structural::default();
        fresh.generic.type_ = type_.to_owned();
        fresh.generic.description = std::mem::take(&mut self.schema.generic.description);
        fresh.generic.title = std::mem::take(&mut self.schema.generic.title);
        *self.schema = fresh;
        self
    }

    /// `x-kubernetes-int-or-string: true`: no type.
    pub fn int_or_string(&mut self) -> &mut Self {
        let s = &mut *self.schema;
        s.generic.type_.clear();
        s.extensions.x_int_or_string = true;
        s.extensions.x_preserve_unknown_fields = false;
        s.properties.clear();
        s.items = None;
        s.additional_properties = None;
        s.value_validation.format.clear();
        self
    }

    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub fn preserve_unknown_fields(&mut self) -> &mut Self {
        self.schema.extensions.x_preserve_unknown_fields = true;
        self
    }

    /// `x-kubernetes-embedded-resource: true` (and `type: object`).
    pub fn embedded_resource(&mut self) -> &mut Self {
        let s = &mut *self.schema;
        s.generic.type_ = "object".into();
        s.extensions.x_embedded_resource = true;
        if s.properties.is_empty() {
            s.extensions.x_preserve_unknown_fields = true;
        }
        if s.additional_properties.is_some() {
            // An embedded resource is an object with its own fields, not a map.
            s.additional_properties = None;
            s.extensions.x_preserve_unknown_fields = true;
        }
        self
    }

    /// `description` (doc comment lines or an attribute), replacing the type's.
    pub fn description(&mut self, lines: &[&str]) -> &mut Self {
        self.schema.generic.description = doc_text(lines);
        self
    }

    /// `title`.
    pub fn title(&mut self, title: &str) -> &mut Self {
        self.schema.generic.title = title.to_owned();
        self
    }

    /// `default`, without the `null`s the schema does not allow (serde writes `null` for a
    /// `None` inside a default; the API server would refuse the default, and reading the
    /// missing field gives `None` back).
    pub fn default(&mut self, value: Option<Value>) -> &mut Self {
        if let Some(mut v) = value {
            crate::structural::nulls::prune_nulls(&mut v, Some(self.schema));
            self.schema.generic.default = Some(v);
        }
        self
    }

    /// `example`.
    pub fn example(&mut self, value: Option<Value>) -> &mut Self {
        self.schema.generic.example = value;
        self
    }

    /// `externalDocs`.
    pub fn external_docs(&mut self, url: &str, description: &str) -> &mut Self {
        self.schema.generic.external_docs = Some(ExternalDocumentation {
            url: url.to_owned(),
            description: description.to_owned(),
        });
        self
    }

    /// `format`.
    pub fn format(&mut self, format: &str) -> &mut Self {
        self.schema.value_validation.format = format.to_owned();
        self
    }

    /// `minimum` (`exclusiveMinimum` when `exclusive`).
    pub fn minimum(&mut self, value: f64, exclusive: bool) -> &mut Self {
        self.schema.value_validation.minimum = Some(value);
        self.schema.value_validation.exclusive_minimum = exclusive;
        self
    }

    /// `maximum` (`exclusiveMaximum` when `exclusive`).
    pub fn maximum(&mut self, value: f64, exclusive: bool) -> &mut Self {
        self.schema.value_validation.maximum = Some(value);
        self.schema.value_validation.exclusive_maximum = exclusive;
        self
    }

    /// `exclusiveMinimum: true` on the type's own minimum.
    pub fn exclusive_minimum(&mut self) -> &mut Self {
        self.schema.value_validation.exclusive_minimum = true;
        self
    }

    /// `exclusiveMaximum: true` on the type's own maximum.
    pub fn exclusive_maximum(&mut self) -> &mut Self {
        self.schema.value_validation.exclusive_maximum = true;
        self
    }

    setters! {
        /// `multipleOf`.
        multiple_of: f64 => multiple_of;
        /// `minLength`.
        min_length: i64 => min_length;
        /// `maxLength`.
        max_length: i64 => max_length;
        /// `minItems`.
        min_items: i64 => min_items;
        /// `maxItems`.
        max_items: i64 => max_items;
        /// `minProperties`.
        min_properties: i64 => min_properties;
        /// `maxProperties`.
        max_properties: i64 => max_properties;
    }

    /// `pattern` (checked with Go's regexp syntax by the derive).
    pub fn pattern(&mut self, value: &str) -> &mut Self {
        self.schema.value_validation.pattern = value.to_owned();
        self
    }

    /// `enum`, from serialized values (`None` for values that did not serialize).
    pub fn enum_values(&mut self, values: impl IntoIterator<Item = Option<Value>>) -> &mut Self {
        let values: Vec<Value> = values.into_iter().flatten().collect();
        if self.schema.generic.nullable {
            self.schema.value_validation.all_of.push(NestedValueValidation {
                value_validation: ValueValidation {
                    enum_: values,
                    ..ValueValidation::default()
                },
                ..NestedValueValidation::default()
            });
        } else {
            self.schema.value_validation.enum_ = values;
        }
        self
    }

    /// `x-kubernetes-list-type`.
    pub fn list_type(&mut self, value: &str) -> &mut Self {
        if value == "set" {
            // Set items must be scalars or atomic objects and arrays.
            if let Err(e) = make_set(self.schema) {
                self.generator.problem(e);
            }
            return self;
        }
        self.schema.extensions.x_list_type = Some(value.to_owned());
        if value != "map" {
            self.schema.extensions.x_list_map_keys = None;
        }
        self
    }

    /// `x-kubernetes-list-map-keys` (and `x-kubernetes-list-type: map`), checked against the
    /// items as the API server checks them: each key a property of the items that is
    /// required or has a default, not nullable, not an object or array.
    pub fn list_map_keys(&mut self, keys: &[&str]) -> &mut Self {
        let Some(items) = self.schema.items.as_deref() else {
            self.generator.problem("`list_map_keys` applies to arrays");
            return self;
        };
        let required = items.value_validation.required.clone().unwrap_or_default();
        let mut ok = true;
        if items.generic.type_ != "object" {
            self.generator.problem(outline::ITEMS_NOT_OBJECTS);
            ok = false;
        } else if items.generic.nullable {
            self.generator.problem(outline::ITEMS_NULLABLE);
            ok = false;
        }
        // The same messages as the derive's compile-time check of the items' outline.
        let names: Vec<&str> = items.properties.keys().map(String::as_str).collect();
        for key in keys.iter().filter(|_| items.generic.type_ == "object") {
            let problem = match items.properties.get(*key) {
                None => Some(KeyProblem::Missing),
                Some(p) if p.generic.nullable => Some(KeyProblem::Nullable),
                Some(p) if p.generic.type_ == "object" || p.generic.type_ == "array" => {
                    Some(KeyProblem::NotScalar(&p.generic.type_))
                }
                Some(p) if !required.iter().any(|r| r == key) && p.generic.default.is_none() => {
                    Some(KeyProblem::Optional)
                }
                Some(_) => None,
            };
            if let Some(problem) = problem {
                let mut message = outline::Text::new();
                outline::write_list_map_key_problem(&mut message, problem, key, &names);
                self.generator.problem(message.as_str());
                ok = false;
            }
        }
        if ok {
            self.schema.extensions.x_list_type = Some("map".into());
            self.schema.extensions.x_list_map_keys = Some(keys.iter().map(|k| (*k).to_owned()).collect());
            if let Some(items) = self.schema.items.as_deref_mut()
                && items.generic.type_ == "object"
            {
                items.extensions.x_map_type = None;
            }
        } else {
            self.schema.extensions.x_list_type = None;
            self.schema.extensions.x_list_map_keys = None;
        }
        self
    }

    /// `x-kubernetes-map-type`.
    pub fn map_type(&mut self, value: &str) -> &mut Self {
        if self.schema.generic.type_ != "object" {
            self.generator
                .problem("`map_type` needs an object (the API server requires `type: object` beside it)");
            return self;
        }
        self.schema.extensions.x_map_type = Some(value.to_owned());
        self
    }

    /// One `x-kubernetes-validations` rule, after those already there.
    pub fn validation(&mut self, rule: ValidationRule) -> &mut Self {
        if self.schema.generic.type_.is_empty() && !self.schema.extensions.x_int_or_string {
            self.generator.problem(format!(
                "the rule `{}` is on a value of no single JSON type: the API server cannot compile rules there",
                rule.rule
            ));
            return self;
        }
        self.schema.x_validations.get_or_insert_with(Vec::new).push(rule);
        self
    }

    /// The controller-gen `immutable` rule: `self == oldSelf`.
    pub fn immutable(&mut self) -> &mut Self {
        self.validation(ValidationRule {
            rule: "self == oldSelf".into(),
            message: "field is immutable".into(),
            ..ValidationRule::default()
        })
    }

    /// A rule on the set fields of an object: at most / exactly / at least one of `fields`.
    pub fn one_of_fields(&mut self, which: &str, fields: &[&str]) -> &mut Self {
        let mut escaped = Vec::new();
        for f in fields {
            match kstruct_cel::escape_property(f) {
                Some(e) => escaped.push(e),
                None => {
                    self.generator
                        .problem(format!("`{f}` in `{which}_one_of` cannot be named in a CEL rule"));
                    return self;
                }
            }
        }
        let count = escaped
            .iter()
            .map(|f| format!("(has(self.{f})?1:0)"))
            .collect::<Vec<_>>()
            .join("+");
        let list = fields.join(" ");
        let (rule, message) = match which {
            "at_most" => (
                format!("{count} <= 1"),
                format!("at most one of the fields in [{list}] may be set"),
            ),
            "exactly" => (
                format!("{count} == 1"),
                format!("exactly one of the fields in [{list}] must be set"),
            ),
            _ => (
                escaped
                    .iter()
                    .map(|f| format!("has(self.{f})"))
                    .collect::<Vec<_>>()
                    .join("||"),
                format!("at least one of the fields in [{list}] must be set"),
            ),
        };
        let names: Vec<&str> = self.schema.properties.keys().map(String::as_str).collect();
        for f in fields {
            if !self.schema.properties.contains_key(*f) {
                let mut message = outline::Text::new();
                outline::write_one_of_missing(&mut message, which, f, &names);
                self.generator.problem(message.as_str());
            }
        }
        self.validation(ValidationRule {
            rule,
            message,
            ..ValidationRule::default()
        })
    }

    /// `nullable: true` (an `enum` moves into `allOf`, out of the way of `null`).
    pub fn nullable(&mut self) -> &mut Self {
        make_nullable(self.schema);
        self
    }

    /// The attributes of `items(...)`.
    pub fn items(&mut self, f: impl FnOnce(&mut Node<'_>)) -> &mut Self {
        match self.schema.items.as_deref_mut() {
            Some(items) => {
                let generator = &mut *self.generator;
                generator.path.push("[]".into());
                f(&mut Node::new(generator, items));
                generator.path.pop();
            }
            None => self.generator.problem("`items(...)` applies to arrays"),
        }
        self
    }
}

/// Makes the array `s` a list of type `set`, as the API server accepts one: object items
/// become `x-kubernetes-map-type: atomic`, array items `x-kubernetes-list-type: atomic`; items
/// that are nullable cannot be in a set (`Err`, and `s` is left as it was).
pub(crate) fn make_set(s: &mut Structural) -> Result<(), String> {
    let Some(items) = s.items.as_deref_mut() else {
        return Err("`list_type` applies to arrays".into());
    };
    if items.generic.nullable {
        return Err(outline::SET_ITEMS_NULLABLE.into());
    }
    match items.generic.type_.as_str() {
        "object" => items.extensions.x_map_type = Some("atomic".into()),
        "array" => items.extensions.x_list_type = Some("atomic".into()),
        _ => {}
    }
    s.extensions.x_list_type = Some("set".into());
    s.extensions.x_list_map_keys = None;
    Ok(())
}

/// `additionalProperties` of a map's schema.
pub fn map_of(values: Structural) -> Structural {
    let mut s = typed("object");
    s.additional_properties = Some(AdditionalProperties::Schema(Box::new(values)));
    s
}
