//! Differential: compiled validators against the interpreter on arbitrary objects. The bytes
//! are decoded as JSON; the compiled pipeline of `crds/widgets.yaml` and the interpreter of the
//! same CRD must find the same errors in the same order, the compiled fused prune + nulls +
//! default must give the interpreter's three passes, and a create through the compiled CRD must
//! give what it gives through a `RegisteredCrd`, byte for byte.
#![no_main]

#[path = "common/widgets.rs"]
mod widgets;

use kstruct::{DecodeOptions, FieldValidation, Pipeline};
use libfuzzer_sys::fuzz_target;

fn messages(p: &dyn Pipeline, v: &serde_json::Value) -> Vec<String> {
    p.validate(v).into_vec().iter().map(ToString::to_string).collect()
}

fuzz_target!(|data: &[u8]| {
    let compiled_crd = widgets::compiled::REGISTRY.find("example.com", "Widget").unwrap();
    let compiled = compiled_crd.version("v1").unwrap().unwrap();
    let interpreted = widgets::CRD.version("v1").unwrap().unwrap();
    if let Ok(decoded) = kstruct::json::decode(data) {
        assert_eq!(
            messages(compiled, &decoded.value),
            messages(&**interpreted, &decoded.value)
        );
        // Values shaped like the schema reach deeper: the same bytes as the spec.
        let wrapped = serde_json::json!({"spec": decoded.value});
        assert_eq!(messages(compiled, &wrapped), messages(&**interpreted, &wrapped));
        // Prune + nulls + default: generated code's fused walk against the interpreter's three
        // passes, as a resource root (paths tracked) and as a value.
        for (v, resource_root) in [(&wrapped, true), (&decoded.value, false)] {
            let options = kstruct::PruneOptions {
                resource_root,
                track_unknown_fields: resource_root,
            };
            let (mut a, mut b) = (v.clone(), v.clone());
            let ra = compiled.prune_nulls_default(&mut a, options);
            let rb = interpreted.prune_nulls_default(&mut b, options);
            assert_eq!((a, ra), (b, rb));
        }
    }
    let options = DecodeOptions {
        field_validation: FieldValidation::Warn,
        validate: true,
        ..DecodeOptions::default()
    };
    let a = compiled_crd.decode(data, &options);
    let b = widgets::CRD.decode(data, &options);
    match (a, b) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.object, b.object);
            assert_eq!(a.warnings, b.warnings);
        }
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("compiled {:?} vs interpreted {:?}", a.is_ok(), b.is_ok()),
    }
});
