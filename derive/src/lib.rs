//! `#[derive(CustomResourceSchema)]`: Kubernetes structural schemas from Rust types, exactly
//! as serde writes them. Use it through the `kstruct` crate (feature `derive`, on by default);
//! the derive's documentation (attributes, and the schema of every serde shape) is on
//! [`CustomResourceSchema`](macro@CustomResourceSchema).
//!
//! The derive reads `#[serde(...)]` with serde's own parser (`serde_derive_internals`), so
//! that names, tags, defaults, skips and flattening are serde's, and `#[kstruct(...)]` for
//! what serde does not say. Everything it can check without the fields' types is checked at
//! expansion, every problem reported with its span; what depends on the fields' types
//! (`minimum` on a string, `flatten` of a number, a cycle of types) is checked by `const`
//! items in the generated code, also at compile time.

mod expand;
mod internals;

use proc_macro::TokenStream;

/// Derives `kstruct::CustomResourceSchema`: the structural schema of what serde writes for
/// the type, in the dialect of a CRD's `openAPIV3Schema`.
///
/// ```
/// use kstruct::CustomResourceSchema;
/// use serde::{Deserialize, Serialize};
///
/// /// A backup of a database.
/// #[derive(Serialize, Deserialize, CustomResourceSchema)]
/// #[serde(rename_all = "camelCase")]
/// #[kstruct(validation(rule = "self.keepDaily >= self.keepWeekly", message = "keep more dailies than weeklies"))]
/// struct BackupSpec {
///     /// When to run, in cron syntax.
///     #[kstruct(pattern = "^[0-9*/ ,-]+$")]
///     schedule: String,
///     #[kstruct(minimum = 1, maximum = 90, default = 7)]
///     keep_daily: u32,
///     #[serde(default)]
///     keep_weekly: u32,
///     target: Target,
/// }
///
/// /// Where backups go: a bucket name, or a bucket and its region.
/// #[derive(Serialize, Deserialize, CustomResourceSchema)]
/// #[serde(untagged)]
/// enum Target {
///     Bucket(String),
///     Located { bucket: String, region: String },
/// }
///
/// let schema = kstruct::schema_for::<BackupSpec>();
/// assert_eq!(schema["properties"]["keepDaily"]["default"], 7);
/// assert_eq!(schema["required"], serde_json::json!(["schedule", "target"]));
/// // A string or an object: no single type, each kept to what serde writes.
/// assert_eq!(schema["properties"]["target"]["properties"]["region"]["type"], "string");
/// ```
///
/// # What serde writes, and the schema
///
/// - **Structs**: `type: object`, a property per field under its serialized name, the doc
///   comment as `description` (a field's doc wins over its type's). A field is `required`
///   unless serde can read the object without it: an `Option` (without `deserialize_with`), a
///   serde `default` (field or container), `skip_serializing(_if)`, `skip_deserializing`, or
///   a `#[kstruct(default = ...)]`. `Option<T>` is `T`'s schema, not `nullable`: the API
///   server drops the `null` serde writes for `None` and serde reads the missing field as
///   `None`. It is `nullable` where a `null` must be kept: list items, map values, and an
///   optional field with a default (else the API server would replace the `null` with the
///   default).
/// - **Defaults**: serde's `default` (field `Default`, `default = "path"`, container
///   `default`) becomes the schema `default`, serialized as serde serializes the field
///   (`serialize_with` included, the `null`s of `None`s left out); not when the field has
///   `skip_serializing_if` (serde would leave out what the API server then fills in) or
///   serializes to `null`. A `#[kstruct(default = ...)]` is emitted as written: with
///   `skip_serializing_if`, make it the value serde leaves out. A type's own default is
///   dropped where a missing value means something else: in `Option` fields, in variants
///   (a default only on a property every variant has, with the same value), in a flattened
///   `Option`.
/// - **`flatten`**: the flattened struct's properties, requirements (unless it is an
///   `Option`), constraints and rules become the parent's; a flattened map or
///   `serde_json::Value` makes the parent keep unknown fields
///   (`x-kubernetes-preserve-unknown-fields`), its known properties staying typed (a
///   structural schema cannot have both `properties` and typed `additionalProperties`).
/// - **`transparent`, newtype structs, `into = "T"`**: the inner type's (or `T`'s) schema.
///   Tuple structs and tuples: an array of exactly that many items, whose schema is the
///   union of the elements' (`(String, i32)`: items are int-or-string).
/// - **Unit-only enums**: `type: string`, `enum` of the serialized names in declaration
///   order. `Option` of one, where a `null` must be kept, moves the `enum` into `allOf`: the
///   API server checks `null` against a node's own `enum` (and always rejects it), but not
///   against `allOf`.
/// - **Externally tagged enums** (serde's default): data variants only: `type: object`, a
///   property per variant, exactly one present (`oneOf` of `required`). Unit and data
///   variants mixed (serde writes `"Off"` or `{"Manual": {...}}`): no `type`, unknown fields
///   kept, strings held to the unit names by a `pattern` and objects to one variant key by
///   `maxProperties: 1` and an `anyOf` of `required` (each only applies to its JSON type);
///   numbers, booleans and arrays are not refused (no structural schema can say "a string or
///   an object").
/// - **Internally tagged** (`tag`): `type: object`, the tag (an `enum` of the names,
///   required) and every variant's properties; each variant's requirements hold when the tag
///   names it (`oneOf` of `{properties: {<tag>: {enum: [<name>]}}, required: [...]}`).
///   Newtype variants must hold structs or maps (checked at compile time).
/// - **Adjacently tagged** (`tag`, `content`): the tag as above, the content's schema the
///   union of the variants' values, required for data variants and absent for unit ones.
/// - **Untagged** (and serde's per-variant `untagged`): the union of the variants' schemas,
///   the most precise structural schema that admits everything serde writes: objects merge
///   (properties united, each variant's requirements as an `anyOf` alternative), integers
///   and strings are `x-kubernetes-int-or-string`, anything else has no `type` and keeps
///   unknown fields while keeping what applies to one JSON type only (a string `pattern`,
///   number bounds, array `items`, object `properties` and requirements). Unit variants
///   (written as `null`) make it `nullable`.
/// - **Recursive types**: direct recursion is a compile error unless the field opts into
///   `#[kstruct(preserve_unknown_fields)]` (the subtree is then kept as it is); recursion
///   through other types (`A -> B -> A`) is a compile error naming the cycle (rustc's "cycle
///   detected", through the types' `RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS` constants).
///   Through hand-written impls the compiler cannot follow, the recursion point becomes an
///   object that keeps unknown fields.
/// - **`with` / `serialize_with`**: kstruct cannot know what the function writes, so the
///   field needs `schema_as`, `schema_with`, `preserve_unknown_fields`, `int_or_string` or
///   `type` (a compile error otherwise). `()` and unit structs (written as `null`) are
///   compile errors.
///
/// # `#[kstruct(...)]`
///
/// On fields and types (and in `items(...)`, for an array's items):
///
/// | attribute | schema |
/// |---|---|
/// | `description = "..."`, `title = "..."` | `description` (default: the doc comment), `title` |
/// | `default = expr` | `default`: an expression of the field's type (of `Self` on a type), serialized as serde serializes it |
/// | `example = expr` | `example` |
/// | `nullable` | `nullable: true` |
/// | `minimum = n`, `maximum = n`, `exclusive_minimum`, `exclusive_maximum`, `multiple_of = n` | number bounds (numbers only) |
/// | `min_length = n`, `max_length = n`, `pattern = "..."` | string validations (strings, int-or-string); `pattern` checked with Go's regexp syntax |
/// | `format = "..."` | `format` |
/// | `enum = [expr, ...]` | `enum`, each value serialized |
/// | `min_items`, `max_items`, `items(...)` | array validations; `items(...)` takes these attributes for the items |
/// | `min_properties`, `max_properties` | object validations |
/// | `preserve_unknown_fields` | `x-kubernetes-preserve-unknown-fields: true` |
/// | `embedded_resource` | `x-kubernetes-embedded-resource: true` and `type: object` |
/// | `int_or_string` | `x-kubernetes-int-or-string: true` (on a `serde_json::Value`, integers or strings) |
/// | `list_type = "atomic" \| "set" \| "map"`, `list_map_keys = ["name"]` (or repeated `list_map_key = "name"`) | `x-kubernetes-list-type` and keys (keys checked against the items: required or defaulted, scalar, not nullable; set items made atomic) |
/// | `map_type = "atomic" \| "granular"` (or `struct_type`) | `x-kubernetes-map-type` (structs and maps) |
/// | `validation(rule = "...", message, message_expression, reason, field_path, optional_old_self)` | one `x-kubernetes-validations` rule, in source order; the rule checked as CEL at compile time (or `validation = "rule"`) |
/// | `external_docs(url = "...", description = "...")` | `externalDocs` |
/// | `type = "..."` | replaces the type (for `with` fields) |
///
/// On fields only: `optional`, `required` (overrides what serde decides; `required` on an
/// `Option` keeps its `null`), `immutable` (controller-gen's rule `self == oldSelf`; for an
/// optional field also the parent's "immutable once set"), `schema_as = Type` (the schema of
/// another type serde writes the same way), `schema_with = path` (a
/// `fn(&mut kstruct::Generator) -> kstruct::schema::Structural`), `schemars` (the schema of
/// the field type's `schemars::JsonSchema`, converted; needs kstruct's `schemars` feature).
///
/// On types only: `at_most_one_of = ["a", "b"]`, `exactly_one_of`, `at_least_one_of`
/// (controller-gen's CEL rules), `crate = "path"` (where `kstruct` is).
///
/// With kstruct's `schemars` feature, a derived type without type parameters also implements
/// `schemars::JsonSchema` (inline), returning its structural schema: kube-rs'
/// `#[derive(CustomResource)]` accepts it as a spec.
///
/// # Resource attributes
///
/// On a spec type, `group`, `version` and `kind` (all three) make it a custom resource's spec:
/// the derive generates, beside it, the root type named after the kind (or `root = "Name"`)
/// with `metadata: kstruct::ObjectMeta`, `spec`, and `status: Option<S>` when `status = "S"`
/// names a status type; `new(name, spec)`; serde impls (`apiVersion` and `kind` first); and
/// `kstruct::CustomResource`, whose `crd()` is the complete CRD. The root derives `Clone` and
/// `Debug` (so the spec and status need them), and whatever `derive(...)` adds.
///
/// | attribute | CRD |
/// |---|---|
/// | `group = "example.com"`, `version = "v1"`, `kind = "Widget"` | `spec.group`, the version's `name`, `names.kind` (and `listKind`) |
/// | `plural`, `singular` | `names.plural` (default: lower-case kind + `s`, `es` or `ies`), `names.singular` (default: lower-case kind) |
/// | `shortname = "w"`, `category = "all"` (repeatable) | `names.shortNames`, `names.categories` |
/// | `namespaced` | `scope: Namespaced` (default `Cluster`) |
/// | `status = "Type"` | the `status` field and `subresources.status` |
/// | `printcolumn(name, type, json_path, description, format, priority)` or `printcolumn(name, integer = ".spec.replicas", ...)` | `additionalPrinterColumns` |
/// | `scale(spec_replicas_path, status_replicas_path, label_selector_path)` | `subresources.scale` |
/// | `selectable = ".spec.color"` (repeatable) | `selectableFields` |
/// | `served = false`, `storage = false`, `deprecated`, `deprecated = "warning"`, `deprecation_warning = "..."` | the version's flags |
/// | `label("k", "v")`, `annotation("k", "v")` | the CRD's labels and annotations |
/// | `doc = "..."` | the root schema's description |
/// | `derive(PartialEq, ...)` | more derives on the root type |
///
/// Names, groups and versions are checked as the API server checks them, printer-column types
/// and formats too, and every path at compile time: printer-column, scale and selectable-field
/// paths are followed through the spec's and status' types (`.status.phse` is an error with a
/// did-you-mean, a scale path must be an integer, a selectable field a string, integer or
/// boolean). Below a type whose schema is written by hand, the rest of a path is checked when
/// the CRD is generated: `crd()` panics rather than emit a CRD without what was asked, and
/// `try_crd()` returns the same problems.
///
/// # Compile-time errors
///
/// Every error is reported with its span, all at once: unknown or duplicate attributes (a
/// misspelt one with the closest name, kube-rs' spellings with kstruct's), attributes that do
/// not fit the field's type (`minimum` on a `String`, `items(...)` on a struct: `const`
/// assertions on the types' [`Shape`](../kstruct/enum.Shape.html)s), names the types do not
/// have (list-map keys, `*_one_of` members, the resource attributes' paths: `const`
/// evaluations over the types' outlines, with a did-you-mean), what only the types together
/// show (a name serde writes twice, a rule using `oldSelf` in a list the API server cannot
/// pair with its old value), values the API server refuses
/// (`list_type = "unique"`, `unique_items`, a pattern Go cannot compile, a rule that is not
/// CEL), shapes no structural schema can type, recursion.
#[proc_macro_derive(CustomResourceSchema, attributes(kstruct))]
pub fn derive_custom_resource_schema(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    expand::derive(&input).into()
}
