//! A request body from arbitrary bytes, through the write path in every fieldValidation mode
//! and through the read path, with a schema that has defaults, nullable fields, embedded
//! resources and preserved fields: nothing panics, Ignore stores what Warn stores, and Strict
//! fails exactly when Warn warns.
#![no_main]

use kstruct::{DecodeExt, DecodeOptions, FieldValidation, GroupVersionKind, Interpreter};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static WIDGET: LazyLock<Interpreter> = LazyLock::new(|| {
    let schema = kstruct::schema::convert::from_value(&serde_json::json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "string", "default": "x"},
            "n": {"type": "string", "nullable": true},
            "t": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "l": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": true}},
            "m": {"type": "object", "additionalProperties": {"type": "integer", "default": 1}},
            "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
    }))
    .unwrap();
    Interpreter::new(schema).with_resource(GroupVersionKind::new("example.com", "v1", "Widget"))
});

fn options(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

fuzz_target!(|data: &[u8]| {
    let warn = WIDGET.decode(data, &options(FieldValidation::Warn));
    let ignore = WIDGET.decode(data, &options(FieldValidation::Ignore));
    let strict = WIDGET.decode(data, &options(FieldValidation::Strict));
    if let (Ok(w), Ok(i)) = (&warn, &ignore) {
        assert_eq!(w.object, i.object);
        assert_eq!(strict.is_ok(), w.warnings.is_empty());
    }
    let _ = WIDGET.decode_storage(data);
    for result in [warn, ignore, strict] {
        if let Ok(d) = result {
            kstruct::json::dispose(d.object);
        }
    }
});
