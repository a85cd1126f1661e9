//! Arbitrary bytes as a PATCH of a stored Deployment (JSON patch, merge patch and server-side
//! apply) and as an apply that creates one: nothing panics; an accepted apply, applied again,
//! changes nothing.
#![no_main]

use kstruct::builtin::{BuiltinKinds, Release};
use kstruct::patch::PatchType;
use kstruct::{DecodeOptions, FieldValidation};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::LazyLock;

static KINDS: LazyLock<BuiltinKinds> = LazyLock::new(|| BuiltinKinds::new(Release::newest()));
static STORED: LazyLock<Value> = LazyLock::new(|| {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
        "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, "template": {"spec": {"containers": [
            {"name": "web", "image": "nginx", "ports": [{"containerPort": 80, "protocol": "TCP"}],
             "env": [{"name": "A", "value": "1"}], "resources": {"limits": {"cpu": "1"}}}]}}}})
});

fuzz_target!(|data: &[u8]| {
    for mode in [FieldValidation::Strict, FieldValidation::Warn, FieldValidation::Ignore] {
        let options = DecodeOptions {
            field_validation: mode,
            ..DecodeOptions::default()
        };
        for patch_type in [PatchType::Json, PatchType::Merge, PatchType::Apply] {
            let _ = kstruct::patch::patch_builtin(&KINDS, Some(&STORED), data, patch_type, &options);
        }
        if let Ok(created) = kstruct::patch::patch_builtin(&KINDS, None, data, PatchType::Apply, &options) {
            let again = kstruct::patch::patch_builtin(&KINDS, Some(&created.object), data, PatchType::Apply, &options)
                .expect("an accepted apply applies again");
            assert_eq!(again.object, created.object);
        }
    }
});
