//! Source maps of arbitrary text, read as JSON and as YAML: nothing panics, and every path a
//! decoder reports for the same text (unknown-field style paths of every key, and the JSON
//! decoder's duplicate paths) is found, at a key written with that name.
#![no_main]

use kstruct::source::SourceMap;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fn paths(v: &Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                let p = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                out.push(p.clone());
                paths(child, &p, out);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                let p = format!("{prefix}[{i}]");
                out.push(p.clone());
                paths(child, &p, out);
            }
        }
        _ => {}
    }
}

fuzz_target!(|data: &[u8]| {
    if let Some(map) = SourceMap::json(data) {
        let _ = map.duplicates();
        if let Ok(decoded) = kstruct::json::decode(data) {
            let mut all = Vec::new();
            paths(&decoded.value, "", &mut all);
            // (A root key `""` has the path of the root itself, which names no key.)
            for p in all.iter().filter(|p| !p.is_empty()).take(200) {
                assert!(map.locate(p).is_some(), "JSON path {p:?} not found");
            }
            for d in &decoded.duplicates {
                assert!(map.occurrences(d).len() >= 2, "duplicate {d:?} not found twice");
            }
        }
    }
    if let Some(map) = SourceMap::yaml(data) {
        let _ = map.duplicates();
        let _ = map.locate("metadata.name");
        let _ = map.locate("spec.a[0].b");
    }
});
