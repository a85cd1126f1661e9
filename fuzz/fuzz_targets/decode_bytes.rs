//! The walk's contracts on arbitrary bodies, in every fieldValidation mode, with and without
//! validation: `request_bytes` of the compiled CRD appends exactly `marshal_json` of the
//! `Value` path's object (`request_by_value` of the interpreted CRD), with the same report,
//! or fails with the same error and appends nothing; `request` (the walk to a `Value`, by the
//! compiled and the interpreted CRD) gives the `Value` path's answer; the walk of the body as
//! a stream's buffered bytes (`try_request_bytes_prefix`) gives the same, and its end.
#![no_main]

#[path = "common/widgets.rs"]
mod widgets;

use kstruct::{DecodeExt, DecodeOptions, FieldValidation};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let compiled = widgets::compiled::REGISTRY.find("example.com", "Widget").unwrap();
    let pipeline = compiled.version("v1").unwrap().unwrap();
    for field_validation in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
        for validate in [false, true] {
            let options = DecodeOptions {
                field_validation,
                validate,
                ..DecodeOptions::default()
            };
            let value_path = kstruct::decode::request_by_value(&*widgets::CRD, data, &options, None);
            for walked in [
                kstruct::decode::request(compiled, data, &options),
                kstruct::decode::request(&*widgets::CRD, data, &options),
            ] {
                match (&value_path, walked) {
                    (Ok(a), Ok(b)) => assert_eq!(*a, b),
                    (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                    (a, b) => panic!("value path ok {} vs walk to a Value ok {}", a.is_ok(), b.is_ok()),
                }
            }
            let mut out = b"prior ".to_vec();
            let bytes_path = kstruct::decode::request_bytes(compiled, data, &options, None, &mut out);
            match (&value_path, bytes_path) {
                (Ok(d), Ok(report)) => {
                    let printed = kstruct::schema::go::marshal_json(&d.object);
                    assert_eq!(&out[6..], printed.as_bytes());
                    assert_eq!(report.warnings, d.warnings);
                    assert_eq!(report.unknown_fields, d.unknown_fields);
                    assert_eq!(report.duplicate_fields, d.duplicate_fields);
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a.to_string(), b.to_string());
                    assert_eq!(out, b"prior ");
                }
                (a, b) => panic!("value path ok {} vs bytes path ok {}", a.is_ok(), b.is_ok()),
            }
            // Read where a stream buffered it (the body, then more): the document is the root
            // object, and the prefix walk's answer is the `Value` path's for it; it answers
            // whenever the walk answers the body alone.
            let mut whole = Vec::new();
            let walked = kstruct::scan::try_request_bytes(compiled, data, &options, &mut whole);
            let mut streamed = data.to_vec();
            streamed.extend_from_slice(b"\n{\"next\": [");
            let mut from_stream = Vec::new();
            match kstruct::scan::try_request_bytes_prefix(compiled, &streamed, &options, &mut from_stream) {
                Some((report, end)) => {
                    let d = kstruct::decode::request_by_value(&*widgets::CRD, &streamed[..end], &options, None)
                        .expect("the prefix walk answered a document the Value path refuses");
                    assert_eq!(from_stream, kstruct::schema::go::marshal_json(&d.object).into_bytes());
                    assert_eq!(report.warnings, d.warnings);
                    assert_eq!(report.unknown_fields, d.unknown_fields);
                    if walked.is_some() {
                        assert_eq!(from_stream, whole);
                        assert!(streamed[end..data.len()].iter().all(|b| b" \t\r\n".contains(b)));
                    }
                }
                None => {
                    assert!(from_stream.is_empty());
                    assert!(walked.is_none(), "the walk answers the body alone, not as a stream's");
                }
            }
            // A lone pipeline: the same, or the same refusal to validate a create.
            let mut lone = Vec::new();
            match (
                pipeline.decode(data, &options),
                pipeline.decode_bytes(data, &options, &mut lone),
            ) {
                (Ok(d), Ok(_)) => assert_eq!(lone, kstruct::schema::go::marshal_json(&d.object).into_bytes()),
                (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
                (a, b) => panic!(
                    "lone pipeline: decode ok {} vs decode_bytes ok {}",
                    a.is_ok(),
                    b.is_ok()
                ),
            }
        }
    }
});
