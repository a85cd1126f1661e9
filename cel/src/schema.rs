//! Declared types from a schema, as the API server builds them for CEL rules (apiserver
//! `pkg/cel/common/schemas.go` `SchemaDeclType` over apiextensions' structural schema
//! adaptor), behind an abstract schema interface ([`SchemaNode`]) the runtime implements for
//! its structural schema and the derive for its outline.

use std::collections::BTreeMap;

use crate::types::{DeclField, DeclType, NO_MAX_LENGTH, Type, escape, limits};

/// A JSON value (a schema's `enum` entries and `default`).
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A number that is not an `i64`.
    Double(f64),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, its members in order.
    Object(Vec<(String, Json)>),
}

/// A schema's `additionalProperties`.
#[derive(Debug, Clone, Copy)]
pub enum AdditionalProperties<'a, S> {
    /// `additionalProperties: true|false`.
    Bool(bool),
    /// `additionalProperties: {schema}`.
    Schema(&'a S),
}

/// What `SchemaDeclType` reads from a (structural) schema node.
pub trait SchemaNode: Sized {
    /// `type` (`""` when absent).
    fn schema_type(&self) -> &str;
    /// `format` (`""` when absent).
    fn format(&self) -> &str;
    /// `properties`, in order.
    fn properties(&self) -> Vec<(&str, &Self)>;
    /// `items`.
    fn items(&self) -> Option<&Self>;
    /// `additionalProperties`.
    fn additional_properties(&self) -> Option<AdditionalProperties<'_, Self>>;
    /// `maxLength`.
    fn max_length(&self) -> Option<i64>;
    /// `maxItems`.
    fn max_items(&self) -> Option<i64>;
    /// `maxProperties`.
    fn max_properties(&self) -> Option<i64>;
    /// `enum`.
    fn enum_values(&self) -> Vec<Json>;
    /// `default` (`None` when absent or `null`).
    fn default_value(&self) -> Option<Json>;
    /// `required`.
    fn required(&self) -> Vec<&str>;
    /// `nullable`.
    fn nullable(&self) -> bool;
    /// `x-kubernetes-int-or-string`.
    fn int_or_string(&self) -> bool;
    /// `x-kubernetes-preserve-unknown-fields`.
    fn preserve_unknown_fields(&self) -> bool;
    /// `x-kubernetes-embedded-resource`.
    fn embedded_resource(&self) -> bool;
    /// `x-kubernetes-list-type`.
    fn list_type(&self) -> Option<&str>;
    /// `x-kubernetes-list-map-keys`.
    fn list_map_keys(&self) -> Vec<&str>;
}

/// The DNS-1123 subdomain length the API server caps `metadata.name` at.
const NAME_MAX_LENGTH: i64 = 253;

/// `SchemaDeclType`: the declared type of a schema node (`None` where the reference has
/// none: no type, an array without items, a map whose values have no type). `is_resource_root`
/// is true for the CRD's root and for embedded resources (the caller passes
/// `node.embedded_resource()` for nested nodes itself; this function does it below the root).
///
/// - `x-kubernetes-int-or-string` is `dyn` (max elements: `maxLength*4`, else 3 MiB - 2);
/// - an object with an `additionalProperties` schema is a `map(string, V)`, its max elements
///   `maxProperties` or (3 MiB - 2) / (value min size + 6);
/// - an object is an object type named `object` (see [`DeclType::maybe_assign_type_name`])
///   with its escapable properties (others dropped), its min size 2 plus, for each required
///   property without a default, name length + value min size + 4;
/// - an array is a list, its max elements `maxItems` or (3 MiB - 2) / (item min size + 1);
/// - a string is `string` (`maxLength*4`, else the longest enum value, else 3 MiB - 2), or
///   with format `byte` `bytes`, `duration` `duration`, `date`/`date-time` `timestamp`;
/// - boolean, number, integer are bool, double, int.
///
/// A resource root gets `apiVersion`, `kind` (strings) and `metadata` (an object with `name`
/// and `generateName`, capped at 253 and 252 characters) unless it declares them so already.
pub fn schema_decl_type<S: SchemaNode>(node: &S, is_resource_root: bool) -> Option<DeclType> {
    if node.int_or_string() {
        let mut dyn_ = DeclType::dyn_();
        dyn_.max_elements = match node.max_length() {
            Some(l) => zero_if_negative(l).saturating_mul(4),
            None => limits::MAX_REQUEST_SIZE_BYTES - 2,
        };
        return Some(dyn_);
    }
    match node.schema_type() {
        "array" => {
            if is_resource_root {
                // WithTypeAndObjectMeta keeps no items.
                return None;
            }
            let items = node.items()?;
            let items_type = schema_decl_type(items, items.embedded_resource())?;
            let max_items = match node.max_items() {
                Some(m) => zero_if_negative(m),
                None => estimate_max_array_items_from_min_size(items_type.min_serialized_size),
            };
            Some(DeclType::new_list(items_type, max_items))
        }
        "object" => {
            if let Some(AdditionalProperties::Schema(props)) = node.additional_properties() {
                let props_type = schema_decl_type(props, props.embedded_resource())?;
                let max = match node.max_properties() {
                    Some(m) => zero_if_negative(m),
                    None => estimate_max_additional_properties_from_min_size(props_type.min_serialized_size),
                };
                return Some(DeclType::new_map(DeclType::string(), props_type, max));
            }
            let required: Vec<&str> = node.required();
            let mut fields = BTreeMap::new();
            let mut min_size: i64 = 2;
            let mut add = |name: &str, field_type: Option<DeclType>, enum_values: Vec<Json>, default: Option<Json>| {
                let Some(field_type) = field_type else { return };
                let is_required = required.contains(&name);
                if is_required && default.is_none() {
                    min_size = min_size
                        .saturating_add(name.len() as i64)
                        .saturating_add(field_type.min_serialized_size)
                        .saturating_add(4);
                }
                if let Some(escaped) = escape(name) {
                    fields.insert(
                        escaped.clone(),
                        DeclField {
                            name: escaped,
                            ty: field_type,
                            required: is_required,
                            enum_values,
                            default,
                        },
                    );
                }
            };
            let props = node.properties();
            let keeps_meta = is_resource_root && declares_type_and_object_meta(&props);
            for (name, prop) in &props {
                if is_resource_root && !keeps_meta && matches!(*name, "kind" | "apiVersion" | "metadata") {
                    continue;
                }
                let default = prop.default_value().filter(|d| *d != Json::Null);
                add(
                    name,
                    schema_decl_type(*prop, prop.embedded_resource()),
                    prop.enum_values(),
                    default,
                );
            }
            if is_resource_root && !keeps_meta {
                let meta = props.iter().find(|(n, _)| *n == "metadata").map(|(_, p)| *p);
                let meta_prop = |field: &str| {
                    meta.and_then(|m| m.properties().into_iter().find(|(n, _)| *n == field).map(|(_, p)| p))
                };
                let capped = |field: &str, cap: i64| {
                    let cap = match meta_prop(field).and_then(|p| p.max_length()) {
                        Some(l) if l < cap => l,
                        _ => cap,
                    };
                    let mut s = DeclType::string();
                    s.max_elements = zero_if_negative(cap).saturating_mul(4);
                    s
                };
                let mut meta_fields = BTreeMap::new();
                for (n, t) in [
                    ("name", capped("name", NAME_MAX_LENGTH)),
                    ("generateName", capped("generateName", NAME_MAX_LENGTH - 1)),
                ] {
                    meta_fields.insert(
                        n.to_owned(),
                        DeclField {
                            name: n.to_owned(),
                            ty: t,
                            required: false,
                            enum_values: Vec::new(),
                            default: None,
                        },
                    );
                }
                let mut string = DeclType::string();
                string.max_elements = limits::MAX_REQUEST_SIZE_BYTES - 2;
                add("kind", Some(string.clone()), Vec::new(), None);
                add("apiVersion", Some(string), Vec::new(), None);
                add(
                    "metadata",
                    Some(DeclType::new_object("object", meta_fields)),
                    Vec::new(),
                    None,
                );
            }
            let mut obj = DeclType::new_object("object", fields);
            obj.min_serialized_size = min_size;
            Some(obj)
        }
        "string" => {
            let by_request = || estimate_max_string_length_per_request(node);
            Some(match node.format() {
                "byte" => {
                    let mut t = DeclType::simple("bytes", Type::Bytes, limits::MIN_STRING_SIZE);
                    t.max_elements = node.max_length().map_or_else(by_request, zero_if_negative);
                    t
                }
                "duration" => {
                    let mut t = DeclType::simple("duration", Type::Duration, limits::MIN_DURATION_SIZE_JSON);
                    t.max_elements = by_request();
                    t
                }
                "date" => {
                    let mut t = DeclType::simple("timestamp", Type::Timestamp, limits::JSON_DATE_SIZE);
                    t.max_elements = by_request();
                    t
                }
                "date-time" => {
                    let mut t = DeclType::simple("timestamp", Type::Timestamp, limits::MIN_DATETIME_SIZE_JSON);
                    t.max_elements = by_request();
                    t
                }
                _ => {
                    let mut t = DeclType::string();
                    t.max_elements = match node.max_length() {
                        Some(l) => zero_if_negative(l).saturating_mul(4),
                        None if !node.enum_values().is_empty() => estimate_max_string_enum_length(node),
                        None => by_request(),
                    };
                    t
                }
            })
        }
        "boolean" => Some(DeclType::bool()),
        "number" => Some(DeclType::double()),
        "integer" => Some(DeclType::int()),
        _ => None,
    }
}

/// `WithTypeAndObjectMeta`'s test: the root already declares `kind`, `apiVersion` (strings)
/// and `metadata` (an object declaring `name` and `generateName` strings).
fn declares_type_and_object_meta<S: SchemaNode>(props: &[(&str, &S)]) -> bool {
    let get = |n: &str| props.iter().find(|(k, _)| *k == n).map(|(_, p)| *p);
    let is = |p: Option<&S>, t: &str| p.is_some_and(|p| p.schema_type() == t);
    let Some(meta) = get("metadata") else { return false };
    let meta_props = meta.properties();
    let meta_get = |n: &str| meta_props.iter().find(|(k, _)| *k == n).map(|(_, p)| *p);
    is(get("kind"), "string")
        && is(get("apiVersion"), "string")
        && meta.schema_type() == "object"
        && !meta_props.is_empty()
        && is(meta_get("name"), "string")
        && is(meta_get("generateName"), "string")
}

fn zero_if_negative(v: i64) -> i64 {
    v.max(0)
}

/// `estimateMaxStringLengthPerRequest`.
fn estimate_max_string_length_per_request<S: SchemaNode>(node: &S) -> i64 {
    if node.int_or_string() {
        return limits::MAX_REQUEST_SIZE_BYTES - 2;
    }
    match node.format() {
        "duration" => limits::MAX_DURATION_SIZE_JSON,
        "date" => limits::JSON_DATE_SIZE,
        "date-time" => limits::MAX_DATETIME_SIZE_JSON,
        _ => limits::MAX_REQUEST_SIZE_BYTES - 2,
    }
}

/// `estimateMaxStringEnumLength`: the longest string enum value, in bytes.
fn estimate_max_string_enum_length<S: SchemaNode>(node: &S) -> i64 {
    node.enum_values()
        .iter()
        .filter_map(|v| match v {
            Json::String(s) => Some(s.len() as i64),
            _ => None,
        })
        .max()
        .unwrap_or(0)
}

/// `estimateMaxArrayItemsFromMinSize`.
pub fn estimate_max_array_items_from_min_size(min_size: i64) -> i64 {
    (limits::MAX_REQUEST_SIZE_BYTES - 2) / min_size.saturating_add(1).max(1)
}

/// `estimateMaxAdditionalPropertiesFromMinSize`.
pub fn estimate_max_additional_properties_from_min_size(min_size: i64) -> i64 {
    (limits::MAX_REQUEST_SIZE_BYTES - 2) / min_size.saturating_add(6).max(1)
}

/// apiextensions' `maxCardinality`: how many times data of this minimum size can repeat in a
/// request (what the CRD validator multiplies a rule's cost by).
pub fn max_cardinality(min_size: i64) -> u64 {
    let sz = min_size.saturating_add(1).max(1);
    (limits::MAX_REQUEST_SIZE_BYTES / sz) as u64
}

/// The name the reference gives a rule's `self` type: `selfType<n>` (upstream `n` is the
/// clock's nanoseconds, so that rule authors cannot depend on it).
pub fn self_type_name(n: u32) -> String {
    format!("selfType{n}")
}

/// The `self` and `oldSelf` variables the CRD validator declares for a node's rules, with the
/// object types to register: `self` has the node's type (objects named from `type_name`, see
/// [`DeclType::maybe_assign_type_name`]), `oldSelf` the same type, or `optional_type` of it
/// when the rule sets `optionalOldSelf: true`.
pub fn rule_variables(decl: &DeclType, type_name: &str, optional_old_self: bool) -> RuleVariables {
    let scoped = decl.maybe_assign_type_name(type_name);
    let self_type = scoped.cel_type.clone();
    let old_self_type = if optional_old_self {
        Type::optional(self_type.clone())
    } else {
        self_type.clone()
    };
    RuleVariables {
        object_types: scoped.object_types(),
        self_type,
        old_self_type,
        scoped,
    }
}

/// What [`rule_variables`] returns.
#[derive(Debug, Clone)]
pub struct RuleVariables {
    /// The declared type with object names assigned (what the cost estimator walks).
    pub scoped: DeclType,
    /// `self`'s type.
    pub self_type: Type,
    /// `oldSelf`'s type.
    pub old_self_type: Type,
    /// The object types by name (the type provider's registered types).
    pub object_types: BTreeMap<String, DeclType>,
}

/// `noMaxLength`, for callers that build declared types by hand.
pub const UNBOUNDED: i64 = NO_MAX_LENGTH;
