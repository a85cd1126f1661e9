//! A create from arbitrary bytes: decoded and validated (ObjectMeta, every kind of value
//! validation, scale paths, embedded resources, list types, the CEL notice) against a CRD that
//! has them all. Nothing panics; a refusal is the server's `... is invalid: ...` with its field
//! errors, and a create that passes stored what decoding alone stores, plus what a create adds.
#![no_main]

#[path = "common/widgets.rs"]
mod widgets;

use kstruct::{DecodeOptions, Error, FieldValidation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let options = |validate| DecodeOptions {
        field_validation: FieldValidation::Warn,
        validate,
        ..DecodeOptions::default()
    };
    let decoded = widgets::CRD.decode(data, &options(false));
    match (decoded, widgets::CRD.decode(data, &options(true))) {
        (Ok(_), Ok(created)) => {
            // Only objects of the widgets::CRD's kind and version are created through its strategy.
            let o = &created.object;
            if o["kind"] == "Widget" && o["apiVersion"] == "example.com/v1" {
                assert_eq!(o["metadata"]["generation"], 1);
                assert!(o.get("status").is_none());
            }
        }
        (Ok(_), Err(Error::Rejected(r))) => {
            if let Some(invalid) = &r.invalid {
                assert!(!invalid.errors.is_empty());
                assert!(r.message.contains(" is invalid: "), "{}", r.message);
                for e in &invalid.errors {
                    assert!(r.message.contains(&e.to_string()), "{}", r.message);
                }
            } else {
                assert_eq!(
                    r.message,
                    "the namespace of the provided object does not match the namespace sent on the request"
                );
            }
        }
        (Ok(_), Err(e)) => panic!("unexpected error: {e}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (Err(e), Ok(_)) => panic!("validation made a refused body pass: {e}"),
    }
});
