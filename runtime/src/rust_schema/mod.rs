//! Layer 8: structural schemas of Rust types: [`CustomResourceSchema`], implemented by
//! `#[derive(CustomResourceSchema)]` and, here, for the std and serde_json types.
//!
//! A type's schema describes exactly what serde writes for it and reads back, in the dialect
//! of a CRD's `openAPIV3Schema` (structural, with the `x-kubernetes-*` extensions), so that the
//! API server's pruning, defaulting and validation give back the value serde wrote. Schemas
//! compose: a struct's schema is made of its fields' types' schemas, each supplied by the
//! field's type.
//!
//! ```
//! use kstruct::{schema_for, CustomResourceSchema};
//! use serde_json::json;
//!
//! assert_eq!(schema_for::<Vec<u8>>(), json!({
//!     "type": "array",
//!     "items": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 255},
//! }));
//! assert_eq!(
//!     schema_for::<std::collections::BTreeSet<String>>(),
//!     json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "set"}),
//! );
//! ```

pub(crate) mod builders;
mod impls;
pub(crate) mod merge;
pub(crate) mod outline;
pub(crate) mod shape;

pub use crate::error::Problem;

use kstruct_schema::Structural;
use kstruct_schema::field::Path;
use serde_json::Value;

pub use shape::Shape;

/// The structural schema of a Rust type: what serde writes for it, as a CRD's
/// `openAPIV3Schema` describes values.
///
/// Implemented by `#[derive(CustomResourceSchema)]` for structs and enums (reading their
/// `#[serde(...)]` attributes exactly as serde does), and here for the std types serde
/// serializes (numbers, strings, `Option`, collections, smart pointers, tuples...) and for
/// `serde_json::Value` and `Map`. A hand-written impl builds a
/// [`Structural`](crate::schema::Structural), usually from the schemas of other types through
/// [`Generator::subschema_for`]:
///
/// ```
/// use kstruct::{CustomResourceSchema, Generator, Shape, schema::Structural};
///
/// /// A percentage, written as an integer from 0 to 100.
/// struct Percent(u8);
///
/// impl CustomResourceSchema for Percent {
///     const SHAPE: Shape = Shape::Integer;
///     fn schema(generator: &mut Generator) -> Structural {
///         let mut s = generator.subschema_for::<u8>();
///         s.value_validation.maximum = Some(100.0);
///         s
///     }
/// }
///
/// assert_eq!(kstruct::schema_for::<Percent>()["maximum"], 100);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no Kubernetes structural schema: it does not implement `kstruct::CustomResourceSchema`",
    label = "no `CustomResourceSchema` for `{Self}`",
    note = "derive it with `#[derive(kstruct::CustomResourceSchema)]` on the type, or give the field a schema: \
            `#[kstruct(schema_as = OtherType)]`, `#[kstruct(schema_with = path::to::fn)]` or \
            `#[kstruct(preserve_unknown_fields)]`",
    note = "`()`, unit structs and `PhantomData` have no schema: serde writes them as `null`, which no structural schema can type"
)]
pub trait CustomResourceSchema {
    /// The kind of JSON value serde writes for the type, for compile-time attribute checks.
    /// [`Shape::Unknown`] (the default) turns those checks off for fields of this type.
    const SHAPE: Shape = Shape::Unknown;

    /// True for `Option<T>`: serde reads a missing struct field as `None`, so such a field is
    /// not `required`.
    #[doc(hidden)]
    const OPTIONAL: bool = false;

    /// How deeply the type nests other derived types. Its only purpose is to make the
    /// compiler evaluate the chain of types a schema is made of, so that a type containing
    /// itself through other types (`A -> B -> A`) is a compile error ("cycle detected when
    /// const-evaluating `...RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS`", naming every type of
    /// the cycle), as a structural schema cannot describe it. A field marked
    /// `#[kstruct(preserve_unknown_fields)]` breaks the cycle.
    #[doc(hidden)]
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = 0;

    /// What the compiler knows of the schema, for the derive's compile-time checks of names
    /// (list-map keys, printer-column paths...): its type, and for objects its properties.
    /// Hand-written impls have none ([`Outline::UNKNOWN`](__private::Outline::UNKNOWN)); the
    /// checks of names below them happen when the CRD is generated.
    #[doc(hidden)]
    const OUTLINE: outline::Outline = outline::Outline::UNKNOWN;

    /// The schema of every value serde writes for the type, as it stands under `properties`
    /// of a parent (or as `items` of an array).
    fn schema(generator: &mut Generator) -> Structural;

    /// The schema of the values a present struct field of this type holds. The same as
    /// [`schema`](Self::schema) except for `Option<T>`, whose `None` is written as `null`: the
    /// API server drops a `null` the schema does not allow and serde reads the missing field as
    /// `None`, so an optional field's schema need not admit `null`.
    #[doc(hidden)]
    fn schema_when_present(generator: &mut Generator) -> Structural {
        Self::schema(generator)
    }
}

/// Arrays and what they hold: lets `#[derive(CustomResourceSchema)]` check, at compile time,
/// that `items(...)` attributes fit the items' type.
///
/// Implemented for the std sequences and sets, arrays and slices, and through `Option`, `Box`,
/// `Rc`, `Arc` and references.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an array: `items(...)` describes the items of arrays",
    label = "`items(...)` needs an array (a `Vec`, a set, an array...)",
    note = "implement `kstruct::ArraySchema` for `{Self}` if serde writes it as a JSON array"
)]
pub trait ArraySchema: CustomResourceSchema {
    /// The type of the items.
    type Items: CustomResourceSchema + ?Sized;
}

/// Types serde_json can write as the keys of a JSON object: the key types of maps that have a
/// schema (`BTreeMap<K, V>` and `HashMap<K, V>` are `type: object` with
/// `additionalProperties`).
///
/// Implemented for strings, `char`, integers and, by `#[derive(CustomResourceSchema)]`, for
/// enums whose variants are all unit variants.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a key serde_json writes as a string",
    label = "maps with a schema need string-like keys",
    note = "JSON object keys are strings: use `String`, an integer, `char` or a unit-only enum \
            deriving `CustomResourceSchema`, or `impl kstruct::MapKey for {Self} {{}}` if serde writes it as a string"
)]
pub trait MapKey {}

/// A schema node of JSON type `type_` with nothing else.
pub(crate) fn typed(type_: &str) -> Structural {
    let mut s = Structural::default();
    s.generic.type_ = type_.into();
    s
}

/// Builds schemas: holds what is needed across a whole type's schema (the types being built,
/// to stop at recursion, and the problems found).
///
/// Recursive types have no finite structural schema. Where a type contains itself, directly
/// or through other types, the recursion point gets the schema of any value of the type's
/// shape with unknown fields preserved (`{type: object, x-kubernetes-preserve-unknown-fields:
/// true}` for a struct): the API server keeps the subtree as it is. The derive refuses direct
/// recursion at compile time unless the field opts into `#[kstruct(preserve_unknown_fields)]`.
#[derive(Debug, Default)]
pub struct Generator {
    /// The types whose schema is being built, outermost first.
    building: Vec<&'static str>,
    /// The path from the outermost type to the node being built (`spec.items[].name`).
    path: Vec<String>,
    problems: Vec<Problem>,
    recursion_points: Vec<String>,
}

impl Generator {
    /// A generator for one outermost type.
    pub fn new() -> Generator {
        Generator::default()
    }

    /// The schema of `T` at the current position.
    ///
    /// When `T` is being built already (a recursive type), this is a recursion point: the
    /// schema of any value of `T`'s shape, with unknown fields preserved.
    pub fn subschema_for<T: CustomResourceSchema + ?Sized>(&mut self) -> Structural {
        self.build::<T>(T::schema)
    }

    /// The schema of a present struct field of type `T` (`Option<T>` without `nullable`).
    #[doc(hidden)]
    pub fn present_subschema_for<T: CustomResourceSchema + ?Sized>(&mut self) -> Structural {
        self.build::<T>(T::schema_when_present)
    }

    fn build<T: CustomResourceSchema + ?Sized>(&mut self, f: fn(&mut Generator) -> Structural) -> Structural {
        let name = std::any::type_name::<T>();
        if self.building.contains(&name) {
            self.recursion_points.push(self.path_string());
            return merge::any_of_shape(T::SHAPE);
        }
        self.building.push(name);
        let s = kstruct_schema::grow(|| f(self));
        self.building.pop();
        s
    }

    /// Runs `f` with `segment` added to the current path (for problem messages).
    pub fn at<R>(&mut self, segment: impl Into<String>, f: impl FnOnce(&mut Generator) -> R) -> R {
        self.path.push(segment.into());
        let r = f(self);
        self.path.pop();
        r
    }

    /// Records a problem at the current position, attributed to the innermost type being
    /// built.
    pub fn problem(&mut self, message: impl Into<String>) {
        let type_name = self.building.last().copied().unwrap_or("<schema>").to_owned();
        let path = self.path_string();
        self.problems.push(Problem {
            type_name,
            path,
            message: message.into(),
        });
    }

    /// The problems recorded so far.
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// Where recursion points were placed (field paths from the outermost type).
    pub fn recursion_points(&self) -> &[String] {
        &self.recursion_points
    }

    fn path_string(&self) -> String {
        self.path
            .iter()
            .fold(String::new(), |path, segment| join(&path, segment))
    }
}

/// The schema of `T` as a CRD v1 `openAPIV3Schema` JSON value, as it stands under
/// `properties` of a parent (a struct gives `type: object` with `properties`, usable as a
/// version's root schema or as `spec`).
///
/// Never panics. When the type asks for something that cannot be done, which only the
/// schemas of other types or the values of defaults can reveal (a flattened field that is
/// not an object, a default that does not serialize, list-map keys the items lack...), the
/// schema leaves that part out so that the API server still accepts it;
/// [`try_schema_for`] reports it instead.
///
/// ```
/// use serde_json::json;
/// assert_eq!(
///     kstruct::schema_for::<Option<std::collections::BTreeMap<String, i64>>>(),
///     json!({"type": "object", "nullable": true,
///            "additionalProperties": {"type": "integer", "format": "int64"}}),
/// );
/// ```
pub fn schema_for<T: CustomResourceSchema + ?Sized>() -> Value {
    kstruct_schema::serialize::to_value(&generate::<T>().0)
}

/// `T`'s schema, with what had to be left out of it.
pub(crate) fn generate<T: CustomResourceSchema + ?Sized>() -> (Structural, Vec<Problem>) {
    let mut generator = Generator::new();
    let mut schema = generator.subschema_for::<T>();
    let mut problems = generator.problems;
    transition_rule_problems::<T>(&mut schema, true, "", &mut problems);
    (schema, problems)
}

/// [`schema_for`], or every problem with `T`'s schema: what could not be done, and anything
/// that makes the schema non-structural (which would be a bug in kstruct: the derive only
/// emits structural schemas, and this is checked).
///
/// ```
/// assert_eq!(kstruct::try_schema_for::<bool>().unwrap(), serde_json::json!({"type": "boolean"}));
/// ```
pub fn try_schema_for<T: CustomResourceSchema + ?Sized>() -> Result<Value, crate::Error> {
    let (schema, mut problems) = generate::<T>();
    problems.extend(structural_problems::<T>(&schema));
    if problems.is_empty() {
        Ok(kstruct_schema::serialize::to_value(&schema))
    } else {
        Err(crate::Error::TypeSchema {
            type_name: std::any::type_name::<T>().to_owned(),
            problems,
        })
    }
}

/// Removes (and reports) the rules that use `oldSelf` where the API server cannot pair a
/// value with its old value: it refuses them ("oldSelf cannot be used on the uncorrelatable
/// portion of the schema"). Values pair up through object properties and map values (unless
/// the map is atomic) and through the items of list-type map lists only.
fn transition_rule_problems<T: ?Sized>(s: &mut Structural, correlatable: bool, path: &str, out: &mut Vec<Problem>) {
    kstruct_schema::grow(|| {
        if let Some(rules) = s.x_validations.as_mut()
            && !correlatable
        {
            rules.retain(|rule| {
                if !kstruct_cel::uses_old_self(&rule.rule) {
                    return true;
                }
                out.push(Problem {
                    type_name: std::any::type_name::<T>().to_owned(),
                    path: path.to_owned(),
                    message: format!(
                        "the rule `{}` uses oldSelf inside a list that is not a list-type map (or an atomic map): the API server cannot pair old and new values there, and refuses the rule",
                        rule.rule
                    ),
                });
                false
            });
            if rules.is_empty() {
                s.x_validations = None;
            }
        }
        let by_key = correlatable && s.extensions.x_map_type.as_deref() != Some("atomic");
        for (k, p) in s.properties.iter_mut() {
            transition_rule_problems::<T>(p, by_key, &join(path, k), out);
        }
        if let Some(ap) = s.additional_properties.as_mut().and_then(|a| a.schema_mut()) {
            transition_rule_problems::<T>(ap, by_key, &join(path, "[*]"), out);
        }
        let by_map_key = correlatable && s.extensions.x_list_type.as_deref() == Some("map");
        if let Some(items) = s.items.as_deref_mut() {
            transition_rule_problems::<T>(items, by_map_key, &join(path, "[]"), out);
        }
    })
}

/// `path` with `segment` added: `.name`, or `[..]` as it is.
fn join(path: &str, segment: &str) -> String {
    if path.is_empty() || segment.starts_with('[') {
        format!("{path}{segment}")
    } else {
        format!("{path}.{segment}")
    }
}

/// The structural-schema findings for `schema` as the schema of a field, in the reference's
/// words, with the path relative to the field.
fn structural_problems<T: ?Sized>(schema: &Structural) -> Vec<Problem> {
    let mut root = typed("object");
    root.properties.insert("value".into(), schema.clone());
    kstruct_schema::validation::validate_structural(&Path::nil(), &root)
        .into_iter()
        .map(|e| {
            let text = e.to_string();
            let text = text.strip_prefix("properties[value]").unwrap_or(&text);
            let text = text.strip_prefix('.').unwrap_or(text);
            Problem {
                type_name: std::any::type_name::<T>().to_owned(),
                path: String::new(),
                message: format!("not a structural schema: {text}"),
            }
        })
        .collect()
}
