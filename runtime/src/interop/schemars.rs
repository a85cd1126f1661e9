//! The `schemars` bridge (feature `schemars`): schemars 1.x schemas as structural schemas, and
//! derived schemas as schemars schemas.
//!
//! Both directions matter to kube-rs users: kube's `#[derive(CustomResource)]` asks the spec
//! for `schemars::JsonSchema`, which `#[derive(CustomResourceSchema)]` implements (returning
//! the structural schema, so kube's rewrite has nothing to repair); and a field whose type only
//! has a `schemars::JsonSchema` takes `#[kstruct(schemars)]`, which converts that schema here.

use std::collections::BTreeMap;

use serde_json::Value;

use super::json_schema::{Context, convert};
use crate::rust_schema::Generator;
use kstruct_schema::Structural;

/// The structural schema of `T`'s schemars schema, at the generator's position. What has no
/// structural equivalent is reported as a problem of the generator (so
/// [`try_schema_for`](crate::try_schema_for) names it) and kept as free-form JSON.
pub fn schema_of<T: ::schemars::JsonSchema + ?Sized>(generator: &mut Generator) -> Structural {
    match structural_of::<T>() {
        Ok(s) => s,
        Err(problems) => {
            for p in problems {
                generator.problem(format!("its schemars schema: {p}"));
            }
            let mut s = Structural::default();
            s.extensions.x_preserve_unknown_fields = true;
            s
        }
    }
}

/// The structural schema of `T`'s schemars schema, or what is not structural in it.
///
/// ```
/// #[derive(schemars::JsonSchema)]
/// struct Legacy { name: String, tags: Option<Vec<String>> }
///
/// let s = kstruct::interop::schemars::structural_of::<Legacy>().unwrap();
/// assert_eq!(
///     kstruct::schema::serialize::to_value(&s),
///     serde_json::json!({"type": "object", "required": ["name"], "properties": {
///         "name": {"type": "string"},
///         "tags": {"type": "array", "nullable": true, "items": {"type": "string"}}}})
/// );
/// ```
pub fn structural_of<T: ::schemars::JsonSchema + ?Sized>() -> Result<Structural, Vec<String>> {
    let mut g = ::schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.meta_schema = None)
        .into_generator();
    let root = g.subschema_for::<T>().to_value();
    let definitions = g.take_definitions(false);
    let substitutes = substitutes();
    let mut value = convert(
        &root,
        &Context {
            definitions: &definitions,
            substitutes: &substitutes,
        },
    )?;
    // schemars writes a struct's title; a CRD has no use for the Rust type's name.
    if let Value::Object(m) = &mut value
        && m.get("title").and_then(Value::as_str) == Some(T::schema_name().as_ref())
    {
        m.remove("title");
    }
    let s = match kstruct_schema::convert::from_value(&value) {
        Ok(Some(s)) => s,
        Ok(None) => Structural::default(),
        Err(e) => return Err(vec![e.to_string()]),
    };
    // Checked as a property (the rules of a version's root, on `metadata`, do not apply).
    let mut holder = Structural::default();
    holder.generic.type_ = "object".into();
    holder.properties.insert("_".into(), s);
    let errors = kstruct_schema::validation::validate_structural(&kstruct_schema::field::Path::nil(), &holder);
    if errors.is_empty() {
        Ok(holder.properties.remove("_").unwrap_or_default())
    } else {
        Err(errors
            .iter()
            .map(|e| {
                let text = e.to_string();
                text.strip_prefix("properties[_].")
                    .or_else(|| text.strip_prefix("properties[_]"))
                    .map(str::to_owned)
                    .unwrap_or(text)
            })
            .collect())
    }
}

/// Definitions replaced wherever they appear: Kubernetes' `ObjectMeta` embedded in a type (a
/// pod template's) is reduced to what the API server keeps there, as controller-gen does.
fn substitutes() -> BTreeMap<&'static str, Value> {
    let meta = kstruct_schema::serialize::to_value(&crate::resource::embedded_object_meta());
    BTreeMap::from([("io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", meta)])
}

/// `T`'s structural schema as a schemars schema (what the derive's `JsonSchema` impl
/// returns).
///
/// One rewrite keeps it intact through kube-rs' `StructuralSchemaRewriter`: that rewrite
/// moves the `properties` of every `oneOf`/`anyOf` alternative into the parent (and panics
/// when two alternatives give a property different schemas), which would undo how an
/// internally tagged enum ties each tag to its variant's fields. An alternative with
/// `properties` is written as `{allOf: [alternative]}` instead: the same constraint, which the
/// rewrite leaves alone.
///
/// # Panics
///
/// As [`CustomResource::crd`](crate::CustomResource::crd) does, when the schema cannot hold
/// what the attributes ask for (what [`try_schema_for`](crate::try_schema_for) reports).
#[doc(hidden)]
pub fn json_schema_of<T: crate::CustomResourceSchema + ?Sized>() -> ::schemars::Schema {
    // Inside kube's `crd()`: as kstruct's `crd()`, never a schema without what was asked.
    let (schema, problems) = crate::rust_schema::generate::<T>();
    if !problems.is_empty() {
        let error = crate::Error::TypeSchema {
            type_name: std::any::type_name::<T>().to_owned(),
            problems,
        };
        panic!("{error}");
    }
    let mut v = kstruct_schema::serialize::to_value(&schema);
    shield_alternatives(&mut v);
    ::schemars::Schema::try_from(v).unwrap_or_else(|_| ::schemars::Schema::default())
}

fn shield_alternatives(v: &mut Value) {
    kstruct_schema::grow(|| match v {
        Value::Object(m) => {
            for key in ["oneOf", "anyOf"] {
                if let Some(Value::Array(alternatives)) = m.get_mut(key) {
                    for a in alternatives.iter_mut() {
                        if a.get("properties").is_some() {
                            let inner = std::mem::take(a);
                            *a = serde_json::json!({"allOf": [inner]});
                        }
                    }
                }
            }
            for child in m.values_mut() {
                shield_alternatives(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(shield_alternatives),
        _ => {}
    })
}
