//! The outline a type declares for the derive's compile-time checks against the schema it
//! generates: every claim the outline makes must hold in the schema (an outline may know less
//! than the schema says, never something else), or a compile-time check could refuse what
//! the schema allows, or allow what it refuses.

use kstruct::__private::{Found, Names, Outline, collect_names, find, keeps_unknown_fields};
use kstruct::CustomResourceSchema;
use kstruct::schema::{AdditionalProperties, Structural};
use kstruct::{Generator, Shape};

/// Every claim of `T::OUTLINE` that `T`'s schema contradicts (empty when they agree).
pub fn violations<T: CustomResourceSchema + ?Sized>() -> Vec<String> {
    let schema = Generator::new().subschema_for::<T>();
    let mut out = Vec::new();
    compare(&T::OUTLINE, &schema, "", &mut out);
    // As a present struct field (`Option<T>` without its `null`).
    let present = Generator::new().present_subschema_for::<T>();
    compare(&T::OUTLINE.present(), &present, "<present>", &mut out);
    out
}

/// The claims of `o` that `s` contradicts, at `path`.
pub fn compare(o: &Outline, s: &Structural, path: &str, out: &mut Vec<String>) {
    compare_node(o, s, path, false, out);
}

/// `keyed_items`: `o` is the items of a list-type map, whose `atomic` the builder drops.
fn compare_node(o: &Outline, s: &Structural, path: &str, keyed_items: bool, out: &mut Vec<String>) {
    let at = if path.is_empty() { "<root>" } else { path };
    let t = s.generic.type_.as_str();
    let type_ok = match o.shape {
        Shape::Unknown => true,
        Shape::Boolean => t == "boolean",
        Shape::Integer => t == "integer",
        Shape::Number => t == "number",
        Shape::String => t == "string",
        Shape::Array => t == "array",
        Shape::Object => t == "object",
        Shape::IntOrString => t.is_empty() && s.extensions.x_int_or_string,
        _ => t.is_empty() && !s.extensions.x_int_or_string,
    };
    if !type_ok {
        out.push(format!(
            "{at}: the outline says {:?}, the schema's type is {t:?}",
            o.shape
        ));
    }
    if o.nullable && !s.generic.nullable {
        out.push(format!("{at}: the outline says nullable, the schema is not"));
    }
    if !o.defaulted && s.generic.default.is_some() {
        out.push(format!("{at}: the outline says no default, the schema has one"));
    }
    if o.list_map && s.extensions.x_list_type.as_deref() != Some("map") {
        out.push(format!("{at}: the outline says a list-type map, the schema does not"));
    }
    if o.atomic && !keyed_items && s.extensions.x_map_type.as_deref() != Some("atomic") {
        out.push(format!("{at}: the outline says an atomic map, the schema does not"));
    }
    if o.old_self && !has_old_self_rule(s) {
        out.push(format!("{at}: the outline says a rule below uses oldSelf, none does"));
    }
    if o.properties.is_some() {
        let mut names = Names::new();
        collect_names(o, &mut names);
        let mut claimed: Vec<&str> = names.as_slice().to_vec();
        claimed.sort_unstable();
        let actual: Vec<&str> = s.properties.keys().map(String::as_str).collect();
        // A flattened field of unknown outline hides some names: those known must be there.
        let agree = if fully_known(o) {
            claimed == actual
        } else {
            claimed.iter().all(|c| actual.contains(c))
        };
        if !agree {
            out.push(format!(
                "{at}: the outline's properties are {claimed:?}, the schema's {actual:?}"
            ));
        }
        let values = match &s.additional_properties {
            Some(AdditionalProperties::Schema(v)) => Some(v.as_ref()),
            _ => None,
        };
        if o.values.is_some() != values.is_some() {
            out.push(format!(
                "{at}: the outline says values {}, the schema {}",
                o.values.is_some(),
                values.is_some()
            ));
        }
        if fully_known(o) && keeps_unknown_fields(o) != s.extensions.x_preserve_unknown_fields {
            out.push(format!(
                "{at}: the outline says keeps unknown fields {}, the schema {}",
                keeps_unknown_fields(o),
                s.extensions.x_preserve_unknown_fields
            ));
        }
        let required = s.value_validation.required.clone().unwrap_or_default();
        for (name, p) in &s.properties {
            let child = format!("{path}.{name}");
            match find(o, name) {
                Found::Property {
                    required: r,
                    defaulted,
                    outline,
                } => {
                    if r != required.contains(name) {
                        out.push(format!("{child}: the outline says required {r}, the schema does not"));
                    }
                    if !defaulted && p.generic.default.is_some() {
                        out.push(format!("{child}: the outline says no default, the schema has one"));
                    }
                    compare_node(outline, p, &child, false, out);
                }
                Found::Missing => out.push(format!("{child}: missing from the outline")),
                Found::Unknown => {}
            }
        }
        if let (Some(ov), Some(sv)) = (o.values, values) {
            compare_node(ov, sv, &format!("{path}[*]"), false, out);
        }
    }
    match (o.items, s.items.as_deref()) {
        (Some(oi), Some(si)) => compare_node(oi, si, &format!("{path}[]"), o.list_map, out),
        (Some(_), None) if o.shape == Shape::Array => out.push(format!("{at}: the outline has items, the schema none")),
        _ => {}
    }
}

/// True when every property of `o` is known (its own and its flattened fields').
fn fully_known(o: &Outline) -> bool {
    o.properties.is_some() && o.flattened.iter().all(|f| fully_known(f.outline))
}

/// True when a rule at or below `s` names `oldSelf`.
fn has_old_self_rule(s: &Structural) -> bool {
    s.x_validations.iter().flatten().any(|r| r.rule.contains("oldSelf"))
        || s.properties.values().any(has_old_self_rule)
        || s.items.as_deref().is_some_and(has_old_self_rule)
        || matches!(&s.additional_properties, Some(AdditionalProperties::Schema(v)) if has_old_self_rule(v))
}
