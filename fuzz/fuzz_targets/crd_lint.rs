//! CRD lint on arbitrary input: the bytes (JSON) are linted as a CRD document, as a version's
//! `openAPIV3Schema` inside a valid CRD (with and without the status subresource), and the
//! part after a NUL is validated as a value against that schema. Nothing panics, and linting
//! twice gives the same messages.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

fn crd(schema: &Value, status: bool) -> Value {
    let mut version = json!({"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}});
    if status {
        version["subresources"] = json!({"status": {}});
    }
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {"group": "example.com", "scope": "Namespaced",
                 "names": {"kind": "Widget", "plural": "widgets"}, "versions": [version]},
    })
}

fn lint(doc: &Value) -> Vec<String> {
    match kstruct::lint::lint_crd(doc) {
        Ok(errors) => errors.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    }
}

fuzz_target!(|data: &[u8]| {
    let (schema, object) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &b"{}"[..]),
    };
    let Ok(schema) = kstruct::json::decode(schema) else {
        return;
    };
    let _ = lint(&schema.value);
    for status in [false, true] {
        let doc = crd(&schema.value, status);
        assert_eq!(lint(&doc), lint(&doc));
    }
    let (Ok(Some(s)), Ok(object)) = (kstruct::schema::convert::from_value(&schema.value), kstruct::json::decode(object))
    else {
        return;
    };
    let _ = kstruct::validation::validate_value(None, &s, &object.value);
    let _ = kstruct::validation::validate_list_types(None, &s, &object.value);
});
