//! PATCH and webhook requests with arbitrary bodies on a stored widget, in every patch type and
//! fieldValidation mode: no panic, and the compiled CRD answers every request as the
//! interpreted one does (objects, warnings, errors).
#![no_main]

#[path = "common/widgets.rs"]
mod widgets;

use kstruct::patch::{self, PatchType};
use kstruct::{DecodeOptions, FieldValidation};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let compiled = widgets::compiled::REGISTRY.find("example.com", "Widget").unwrap();
    let stored = json!({"apiVersion": "example.com/v1", "kind": "Widget",
        "metadata": {"name": "w", "namespace": "ns", "uid": "u1", "resourceVersion": "3", "generation": 2},
        "spec": {"size": 1, "tags": ["a"], "free": {"x": [1, {"y": null}]}}});
    for field_validation in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
        let options = DecodeOptions {
            field_validation,
            validate: true,
            ..DecodeOptions::default()
        };
        for patch_type in [PatchType::Json, PatchType::Merge, PatchType::Apply] {
            let interpreted = patch::patch(&*widgets::CRD, Some(&stored), data, patch_type, &options);
            let by_compiled = patch::patch(compiled, Some(&stored), data, patch_type, &options);
            same(interpreted, by_compiled);
        }
        let created = patch::apply(&*widgets::CRD, None, data, &options);
        same(created, patch::apply(compiled, None, data, &options));
        let hooked = patch::webhook(&*widgets::CRD, &stored, data, Some(&stored), &options);
        same(hooked, patch::webhook(compiled, &stored, data, Some(&stored), &options));
    }
});

fn same(a: Result<kstruct::Decoded, kstruct::Error>, b: Result<kstruct::Decoded, kstruct::Error>) {
    match (a, b) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("interpreted ok {} vs compiled ok {}", a.is_ok(), b.is_ok()),
    }
}
