//! A request body from arbitrary bytes, decoded as one of Kubernetes' own kinds (sent to the
//! Deployments endpoint, so that bodies without apiVersion or kind are typed too) in every
//! fieldValidation mode, by the value path and straight to bytes: nothing panics, both paths
//! give the same answer, Strict fails exactly when Warn warns, and Ignore decodes what Warn
//! decodes.
#![no_main]

use kstruct::builtin::{BuiltinKinds, Release};
use kstruct::{DecodeOptions, Error, FieldValidation, GroupVersionKind};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

static KINDS: LazyLock<BuiltinKinds> = LazyLock::new(|| BuiltinKinds::new(Release::newest()));
static ENDPOINT: LazyLock<GroupVersionKind> = LazyLock::new(|| GroupVersionKind::new("apps", "v1", "Deployment"));

fn options(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

fuzz_target!(|data: &[u8]| {
    let mut answers = Vec::new();
    for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
        let by_value = KINDS.decode_at(Some(&ENDPOINT), data, &options(mode));
        let mut out = Vec::new();
        let by_bytes = KINDS.decode_bytes_at(Some(&ENDPOINT), data, &options(mode), &mut out);
        match (&by_value, &by_bytes) {
            (Ok(v), Ok(b)) => {
                assert_eq!(v.warnings, b.warnings);
                let parsed: serde_json::Value = serde_json::from_slice(&out).expect("bytes are JSON");
                assert_eq!(parsed, v.object);
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
            _ => panic!("the value path and the bytes disagree: {by_value:?} / {by_bytes:?}"),
        }
        answers.push(by_value);
    }
    if let [strict, Ok(warn), Ok(ignore)] = &answers[..] {
        assert_eq!(strict.is_ok(), warn.warnings.is_empty());
        assert_eq!(warn.object, ignore.object);
        // (A YAML body's repeated keys are one strict error, a warning per line.)
        if let Err(Error::Rejected(r)) = strict
            && !r.strict_errors.iter().any(|e| e.starts_with("yaml:"))
        {
            assert_eq!(r.strict_errors, warn.warnings.to_vec());
        }
    }
});
