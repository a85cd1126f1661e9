//! Dropping nulls the schema does not allow (the reference's
//! `PruneNonNullableNullsWithoutDefaults`).

use serde_json::Value;

use kstruct_schema::Structural;

/// Deletes every object field whose value is `null` while its schema is neither `nullable`
/// nor has a `default`. Fields without a schema keep their nulls, and nulls inside arrays are
/// never removed. The API server does this after pruning and before defaulting.
pub fn prune_nulls(x: &mut Value, s: Option<&Structural>) {
    stacker::maybe_grow(
        kstruct_schema::STACK_RED_ZONE,
        kstruct_schema::STACK_GROWTH,
        || match x {
            Value::Object(map) => map.retain(|k, v| {
                let field = s.and_then(|s| s.field_schema(k));
                if v.is_null() {
                    return !field.is_some_and(|f| !f.generic.nullable && f.generic.default.is_none());
                }
                if field.is_some() {
                    prune_nulls(v, field);
                }
                true
            }),
            Value::Array(items) => {
                if let Some(item_schema) = s.and_then(|s| s.items.as_deref()) {
                    for v in items {
                        prune_nulls(v, Some(item_schema));
                    }
                }
            }
            _ => {}
        },
    )
}
