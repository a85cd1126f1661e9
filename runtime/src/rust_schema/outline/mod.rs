//! [`Outline`]: what the compiler knows of a type's schema, so that attributes naming fields
//! (list-map keys, printer-column, scale and selectable-field paths, `*_one_of` members) are
//! checked when the crate compiles instead of when the CRD is generated.
//!
//! Every [`CustomResourceSchema`](crate::CustomResourceSchema) has an outline (its
//! `OUTLINE` constant): the derive writes one for each derived type from its fields and
//! their types' outlines, the std and serde_json impls here have theirs, and hand-written
//! impls have [`Outline::UNKNOWN`] unless they say more. The derive's checks are `const`
//! items over these outlines, so a misspelt key is a compile error naming the attribute.
//!
//! An outline never claims more than the schema holds: where it cannot know (a hand-written
//! impl, `schema_with`, a union of variants), it says so, and the check is left to
//! [`try_crd`](crate::CustomResource::try_crd) and [`crd`](crate::CustomResource::crd) at
//! run time, which look at the generated schema itself.

mod checks;
mod text;

pub(crate) use checks::{
    ITEMS_NOT_OBJECTS, ITEMS_NULLABLE, KeyProblem, SET_ITEMS_NULLABLE, write_duplicate, write_list_map_key_problem,
    write_missing_field, write_one_of_missing, write_path_type_problem, write_tag_problem,
};
pub use checks::{
    PathUse, duplicate_problem, list_map_items_problem, list_map_key_problem, one_of_problem, path_problem,
    set_items_problem, tag_problem, transition_problem,
};
pub use text::{Names, Text};

use super::Shape;

/// The compile-time outline of a type's schema (see the module docs of `rust_schema::outline`).
///
/// Each field is a certainty: `nullable: true` means the schema is nullable for sure;
/// `properties: Some` means that the object's own properties, its `additionalProperties`
/// (`values`) and its `x-kubernetes-preserve-unknown-fields` are known exactly, and so is
/// every property once each flattened field's outline is known too ([`find`] says `Unknown`
/// where one is not).
#[derive(Clone, Copy, Debug)]
pub struct Outline {
    /// The JSON type ([`Shape::Unknown`]: not known). A known shape is the schema's `type`:
    /// `Object` is `type: object`, `IntOrString`, `Any` and `Mixed` have no `type`.
    pub shape: Shape,
    /// The schema (`CustomResourceSchema::schema`) is `nullable`.
    pub nullable: bool,
    /// The schema of a present struct field of the type is `nullable` (`Option<T>` is
    /// nullable, its present value `T`'s).
    pub present_nullable: bool,
    /// `x-kubernetes-preserve-unknown-fields: true`.
    pub preserves_unknown_fields: bool,
    /// The schema may have a `default` of its own (true when unsure).
    pub defaulted: bool,
    /// The object's own properties, when known.
    pub properties: Option<&'static [Property]>,
    /// Flattened fields, whose properties are the object's too.
    pub flattened: &'static [Flattened],
    /// An array's items.
    pub items: Option<&'static Outline>,
    /// A map's values (`additionalProperties`).
    pub values: Option<&'static Outline>,
    /// A CEL rule on the node itself uses `oldSelf` (a transition rule, `immutable`).
    pub rule_old_self: bool,
    /// A CEL rule at or below the node uses `oldSelf`.
    pub old_self: bool,
    /// A list of type map (`x-kubernetes-list-type: map`): its items pair with their old
    /// values by key.
    pub list_map: bool,
    /// `x-kubernetes-map-type: atomic`: its values do not pair with their old values. The
    /// items of a list-type map lose it (the schema builder drops it there).
    pub atomic: bool,
}

/// One property of an object's [`Outline`].
#[derive(Clone, Copy, Debug)]
pub struct Property {
    /// The serialized name.
    pub name: &'static str,
    /// In the object's `required` list.
    pub required: bool,
    /// The property's own schema.
    pub outline: &'static Outline,
}

/// A `#[serde(flatten)]` field of an object's [`Outline`].
#[derive(Clone, Copy, Debug)]
pub struct Flattened {
    /// The Rust field's name (for messages).
    pub field: &'static str,
    /// How many of the object's own properties come before it (serde's order).
    pub after: usize,
    /// The flattened type's outline.
    pub outline: &'static Outline,
    /// The field is an `Option`: its properties are neither required nor defaulted.
    pub optional: bool,
}

impl Outline {
    /// Nothing known.
    pub const UNKNOWN: Outline = Outline {
        shape: Shape::Unknown,
        nullable: false,
        present_nullable: false,
        preserves_unknown_fields: false,
        defaulted: true,
        properties: None,
        flattened: &[],
        items: None,
        values: None,
        rule_old_self: false,
        old_self: false,
        list_map: false,
        atomic: false,
    };

    /// `serde_json::Value`: no type, nullable, keeps whatever it holds.
    pub const ANY: Outline = Outline {
        shape: Shape::Any,
        nullable: true,
        present_nullable: true,
        preserves_unknown_fields: true,
        properties: Some(&[]),
        ..Outline::UNKNOWN
    };

    /// A value of a known `shape` with nothing below it (a number, a string...).
    pub const fn leaf(shape: Shape) -> Outline {
        Outline {
            shape,
            defaulted: false,
            properties: Some(&[]),
            ..Outline::UNKNOWN
        }
    }

    /// A value of a known `shape` whose content is not known.
    pub const fn shape_only(shape: Shape) -> Outline {
        Outline {
            shape,
            ..Outline::UNKNOWN
        }
    }

    /// An object with `properties` and the properties of `flattened` fields.
    pub const fn object(properties: &'static [Property], flattened: &'static [Flattened]) -> Outline {
        let mut old_self = false;
        let mut i = 0;
        while i < properties.len() {
            old_self |= properties[i].outline.old_self;
            i += 1;
        }
        let mut j = 0;
        while j < flattened.len() {
            old_self |= merged_old_self(flattened[j].outline, flattened[j].optional);
            j += 1;
        }
        Outline {
            shape: Shape::Object,
            defaulted: false,
            properties: Some(properties),
            flattened,
            old_self,
            ..Outline::UNKNOWN
        }
    }

    /// An array of `items`.
    pub const fn array(items: &'static Outline) -> Outline {
        Outline {
            items: Some(items),
            old_self: items.old_self,
            ..Outline::leaf(Shape::Array)
        }
    }

    /// A map (`additionalProperties`) of `values`.
    pub const fn map(values: &'static Outline) -> Outline {
        Outline {
            values: Some(values),
            old_self: values.old_self,
            ..Outline::leaf(Shape::Object)
        }
    }

    /// An object that keeps unknown fields and declares none.
    pub const fn free_object() -> Outline {
        Outline {
            preserves_unknown_fields: true,
            ..Outline::leaf(Shape::Object)
        }
    }

    /// `Option<T>` of this outline: nullable, its present value as it was.
    pub const fn option(self) -> Outline {
        Outline { nullable: true, ..self }
    }

    /// The schema of a struct field of the type: its present value's, or the whole
    /// (nullable) schema when the field keeps the `null` of an `Option`.
    pub const fn field(self, keeps_null: bool) -> Outline {
        if keeps_null { self } else { self.present() }
    }

    /// A `default` on the node (`#[kstruct(default = ...)]`, serde's default).
    pub const fn with_default(self) -> Outline {
        Outline {
            defaulted: true,
            ..self
        }
    }

    /// No `default` on the node (an enum variant's value, which no default may add).
    pub const fn without_default(self) -> Outline {
        Outline {
            defaulted: false,
            ..self
        }
    }

    /// The schema of a present struct field of the type.
    pub const fn present(self) -> Outline {
        Outline {
            nullable: self.present_nullable,
            ..self
        }
    }

    /// `#[kstruct(type = "...")]`: a fresh node of that type.
    pub const fn of_type(shape: Shape) -> Outline {
        Outline::leaf(shape)
    }

    /// `#[kstruct(int_or_string)]`.
    pub const fn int_or_string(self) -> Outline {
        Outline {
            nullable: self.nullable,
            present_nullable: self.present_nullable,
            defaulted: self.defaulted,
            rule_old_self: self.rule_old_self,
            old_self: self.rule_old_self,
            ..Outline::leaf(Shape::IntOrString)
        }
    }

    /// `#[kstruct(preserve_unknown_fields)]` on a type.
    pub const fn preserving_unknown_fields(self) -> Outline {
        Outline {
            preserves_unknown_fields: true,
            ..self
        }
    }

    /// `#[kstruct(embedded_resource)]`: `type: object`; a node with no properties, or a map,
    /// keeps unknown fields instead.
    pub const fn embedded_resource(self) -> Outline {
        let mut o = self;
        o.shape = Shape::Object;
        if o.values.is_some() {
            o.values = None;
            o.preserves_unknown_fields = true;
        }
        // The builder looks at the properties after flattened fields merged theirs.
        if has_no_properties(&o) {
            o.preserves_unknown_fields = true;
        }
        o
    }

    /// `#[kstruct(nullable)]`.
    pub const fn nullable(self) -> Outline {
        Outline {
            nullable: true,
            present_nullable: true,
            ..self
        }
    }

    /// The items' outline, or [`Outline::UNKNOWN`].
    pub const fn items_or_unknown(self) -> Outline {
        match self.items {
            Some(items) => *items,
            None => Outline::UNKNOWN,
        }
    }

    /// `items(...)` attributes that change the items' outline.
    pub const fn with_items(self, items: &'static Outline) -> Outline {
        Outline {
            items: Some(items),
            old_self: self.rule_old_self || items.old_self,
            ..self
        }
    }

    /// A rule on the node uses `oldSelf`.
    pub const fn with_old_self(self) -> Outline {
        Outline {
            rule_old_self: true,
            old_self: true,
            ..self
        }
    }

    /// `list_map_keys`: a list of type map.
    pub const fn as_list_map(self) -> Outline {
        Outline { list_map: true, ..self }
    }

    /// `map_type = "atomic"`.
    pub const fn as_atomic(self) -> Outline {
        Outline { atomic: true, ..self }
    }
}

/// What a property name finds in an object's outline.
#[derive(Clone, Copy, Debug)]
pub enum Found {
    /// The property, with `required` and `defaulted` as the object has them.
    Property {
        /// In the object's `required` list.
        required: bool,
        /// May have a default.
        defaulted: bool,
        /// Its schema.
        outline: &'static Outline,
    },
    /// The object has no such property.
    Missing,
    /// Not known.
    Unknown,
}

/// Finds property `name` of `o`, among its own properties and its flattened fields'.
pub const fn find(o: &Outline, name: &str) -> Found {
    let Some(properties) = o.properties else {
        return Found::Unknown;
    };
    let mut i = 0;
    while i < properties.len() {
        let p = &properties[i];
        if text::eq(p.name, name) {
            return Found::Property {
                required: p.required,
                defaulted: p.outline.defaulted,
                outline: p.outline,
            };
        }
        i += 1;
    }
    let mut unknown = false;
    let mut j = 0;
    while j < o.flattened.len() {
        let f = o.flattened[j];
        match find(f.outline, name) {
            Found::Property {
                required,
                defaulted,
                outline,
            } => {
                return Found::Property {
                    required: required && !f.optional,
                    defaulted: defaulted && !f.optional,
                    outline,
                };
            }
            Found::Unknown => unknown = true,
            Found::Missing => {}
        }
        j += 1;
    }
    if unknown { Found::Unknown } else { Found::Missing }
}

/// The names of `o`'s properties (its own and its flattened fields'), into `names`.
pub const fn collect_names(o: &Outline, names: &mut Names<'static>) {
    if let Some(properties) = o.properties {
        let mut i = 0;
        while i < properties.len() {
            names.insert(properties[i].name);
            i += 1;
        }
    }
    let mut j = 0;
    while j < o.flattened.len() {
        collect_names(o.flattened[j].outline, names);
        j += 1;
    }
}

/// What a flattened field brings of `oldSelf` rules into its parent: those of its properties,
/// and its own unless it is an `Option` (the builder merges an optional field's properties
/// only). A flattened map brings none (its values are not merged).
const fn merged_old_self(o: &Outline, optional: bool) -> bool {
    let mut merged = o.rule_old_self && !optional;
    if let Some(properties) = o.properties {
        let mut i = 0;
        while i < properties.len() {
            merged |= properties[i].outline.old_self;
            i += 1;
        }
    }
    let mut j = 0;
    while j < o.flattened.len() {
        merged |= merged_old_self(o.flattened[j].outline, o.flattened[j].optional || optional);
        j += 1;
    }
    merged
}

/// True when `o` is known to have no properties, its flattened fields' included.
const fn has_no_properties(o: &Outline) -> bool {
    let Some(properties) = o.properties else {
        return false;
    };
    if !properties.is_empty() {
        return false;
    }
    let mut j = 0;
    while j < o.flattened.len() {
        if !has_no_properties(o.flattened[j].outline) {
            return false;
        }
        j += 1;
    }
    true
}

/// True when `o` keeps fields it does not declare: its own flag, or a flattened map.
pub const fn keeps_unknown_fields(o: &Outline) -> bool {
    if o.preserves_unknown_fields {
        return true;
    }
    let mut j = 0;
    while j < o.flattened.len() {
        let f = o.flattened[j].outline;
        if f.values.is_some() || keeps_unknown_fields(f) {
            return true;
        }
        j += 1;
    }
    false
}
