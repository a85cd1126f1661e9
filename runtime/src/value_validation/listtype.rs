//! `ValidateListSetsAndMaps` (`apiextensions-apiserver/pkg/apiserver/schema/listtype`):
//! duplicates in `x-kubernetes-list-type: set` lists and duplicate keys in `map` lists.

use serde_json::{Map, Value};

use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, FieldError, Path};
use kstruct_schema::go::marshal_json;

/// Every duplicate in the set and map lists of `obj`, at `path` (the API server validates
/// objects from a nil path: `spec.ports[1]`).
pub(super) fn validate(path: &Path, s: Option<&Structural>, obj: &Value, errs: &mut Vec<FieldError>) {
    let Some(s) = s else { return };
    kstruct_schema::grow(|| match obj {
        Value::Object(map) => {
            for (k, v) in map {
                if let Some(p) = s.properties.get(k) {
                    validate(&path.child(k), Some(p), v, errs);
                } else if let Some(ap) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
                    validate(&path.key(k), Some(ap), v, errs);
                }
            }
        }
        Value::Array(items) => {
            let keys = s.extensions.x_list_map_keys.as_deref().unwrap_or_default();
            match s.extensions.x_list_type.as_deref() {
                Some("set") => set(path, items, errs),
                // A list of non-objects is reported once, and nothing below it.
                Some("map") if !map_list(path, keys, items, errs) => return,
                _ => {}
            }
            for (i, item) in items.iter().enumerate() {
                validate(&path.index(i), s.items.as_deref(), item, errs);
            }
        }
        _ => {}
    })
}

/// Identity as Go compares it: scalars by decoded value (`1` and `1.0` differ), compound
/// values by their JSON text.
fn identity(v: &Value) -> String {
    match v {
        Value::Number(n) if n.is_i64() || n.is_u64() => format!("i{n}"),
        Value::Number(n) => format!("f{}", n.as_f64().unwrap_or(f64::NAN)),
        other => format!("j{}", marshal_json(other)),
    }
}

pub(crate) fn set(path: &Path, items: &[Value], errs: &mut Vec<FieldError>) {
    if items.len() <= 1 {
        return;
    }
    let mut seen = std::collections::HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let times = seen.entry(identity(item)).or_insert(0usize);
        if *times == 1 {
            errs.push(FieldError::duplicate(&path.index(i), BadValue::from(item)));
        }
        *times += 1;
    }
}

/// Returns false when the list is not a list of objects (then nothing below it is checked).
pub(crate) fn map_list<K: AsRef<str>>(path: &Path, keys: &[K], items: &[Value], errs: &mut Vec<FieldError>) -> bool {
    if let Some((i, x)) = items.iter().enumerate().find(|(_, x)| !x.is_object() && !x.is_null()) {
        errs.push(FieldError::invalid(
            &path.index(i),
            BadValue::from(x),
            "must be an object for an array of list-type map",
        ));
        return false;
    }
    if items.len() <= 1 {
        return true;
    }
    let mut seen = std::collections::HashMap::new();
    for (i, item) in items.iter().enumerate() {
        let fields = item.as_object();
        let mut key = Map::new();
        for k in keys {
            let k = k.as_ref();
            if let Some(v) = fields.and_then(|f| f.get(k)) {
                key.insert(k.to_string(), v.clone());
            }
        }
        let id = if keys.len() == 1 {
            key.values().next().map_or_else(|| "unspecified".to_string(), identity)
        } else {
            marshal_json(&Value::Object(key.clone()))
        };
        let times = seen.entry(id).or_insert(0usize);
        if *times == 1 {
            errs.push(FieldError::duplicate(
                &path.index(i),
                BadValue::Json(Value::Object(key)),
            ));
        }
        *times += 1;
    }
    true
}
