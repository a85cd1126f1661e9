//! Defaulting (the reference's `defaulting.Default`).

use serde_json::Value;

use kstruct_schema::Structural;

/// Fills in defaults, top-down: a property with a `default` that is absent, or `null` while
/// the property is not `nullable`, gets a copy of the default, and defaulting then continues
/// into it. `null` values under `additionalProperties` and in arrays get the value schema's
/// default when that schema is not nullable. The root's own default is never applied, missing
/// `additionalProperties` keys are never created, and `0`, `""`, `[]`, `{}` are values, not
/// absences.
pub fn default(x: &mut Value, s: Option<&Structural>) {
    let Some(s) = s else { return };
    stacker::maybe_grow(
        kstruct_schema::STACK_RED_ZONE,
        kstruct_schema::STACK_GROWTH,
        || match x {
            Value::Object(map) => {
                for (k, prop) in &s.properties {
                    let Some(d) = &prop.generic.default else {
                        continue;
                    };
                    match map.get_mut(k) {
                        None => {
                            map.insert(k.clone(), d.clone());
                        }
                        Some(v) if v.is_null() && !prop.generic.nullable => *v = d.clone(),
                        Some(_) => {}
                    }
                }
                for (k, v) in map.iter_mut() {
                    if let Some(prop) = s.properties.get(k) {
                        default(v, Some(prop));
                    } else if let Some(ap) = &s.additional_properties {
                        let ap = ap.schema();
                        if let Some(aps) = ap
                            && v.is_null()
                            && !aps.generic.nullable
                        {
                            *v = aps.generic.default.clone().unwrap_or(Value::Null);
                        }
                        default(v, ap);
                    }
                }
            }
            Value::Array(items) => {
                let item_schema = s.items.as_deref();
                for v in items {
                    if let Some(is) = item_schema
                        && v.is_null()
                        && !is.generic.nullable
                    {
                        *v = is.generic.default.clone().unwrap_or(Value::Null);
                    }
                    default(v, item_schema);
                }
            }
            _ => {}
        },
    )
}
