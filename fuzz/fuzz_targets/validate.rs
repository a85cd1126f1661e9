//! A create from arbitrary bytes: decoded and validated (ObjectMeta, every kind of value
//! validation, scale paths, embedded resources, list types, the CEL notice) against a CRD that
//! has them all. Nothing panics; a refusal is the server's `... is invalid: ...` with its field
//! errors, and a create that passes stored what decoding alone stores, plus what a create adds.
#![no_main]

use kstruct::{DecodeOptions, Error, FieldValidation, RegisteredCrd};
use libfuzzer_sys::fuzz_target;
use std::sync::LazyLock;

const CRD_YAML: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {kind: Widget, plural: widgets}
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            x-kubernetes-validations: [{rule: 'self.size < 10'}]
            properties:
              size: {type: integer, minimum: 1, maximum: 9, multipleOf: 1}
              replicas: {type: integer}
              mode: {type: string, enum: [a, b], pattern: '^[ab]$', maxLength: 1}
              ip: {type: string, format: ipv4}
              when: {type: string, format: date-time}
              ratio: {type: number, exclusiveMaximum: true, maximum: 1}
              tags: {type: array, maxItems: 3, x-kubernetes-list-type: set, items: {type: string, minLength: 1}}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [port]
                items: {type: object, required: [port], properties: {port: {type: integer}, name: {type: string}}}
              labels: {type: object, maxProperties: 2, additionalProperties: {type: string}}
              either:
                type: object
                properties: {x: {type: string}, y: {type: string}}
                oneOf: [{required: [x]}, {required: [y]}]
              any: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]}
              template: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties: {replicas: {type: integer}, selector: {type: string}}
"#;

static CRD: LazyLock<RegisteredCrd> = LazyLock::new(|| {
    let mut registry = kstruct::Registry::new();
    registry.add_yaml(CRD_YAML, "widgets.yaml").unwrap();
    registry.crds()[0].clone()
});

fuzz_target!(|data: &[u8]| {
    let options = |validate| DecodeOptions {
        field_validation: FieldValidation::Warn,
        validate,
        ..DecodeOptions::default()
    };
    let decoded = CRD.decode(data, &options(false));
    match (decoded, CRD.decode(data, &options(true))) {
        (Ok(_), Ok(created)) => {
            // Only objects of the CRD's kind and version are created through its strategy.
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
                assert_eq!(r.message, "the namespace of the provided object does not match the namespace sent on the request");
            }
        }
        (Ok(_), Err(e)) => panic!("unexpected error: {e}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (Err(e), Ok(_)) => panic!("validation made a refused body pass: {e}"),
    }
});
