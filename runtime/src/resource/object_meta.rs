//! The schema of typed `metadata` ([`ObjectMeta`]) as a field of a spec.

use crate::apiextensions::ObjectMeta;
use crate::rust_schema::builders::map_of;
use crate::rust_schema::{CustomResourceSchema, Generator, Shape, typed};
use kstruct_schema::Structural;

impl CustomResourceSchema for ObjectMeta {
    const SHAPE: Shape = Shape::Object;

    fn schema(_: &mut Generator) -> Structural {
        embedded_object_meta()
    }
}

/// The schema of embedded metadata (a template's), as controller-gen writes it with
/// `generateEmbeddedObjectMeta`.
pub(crate) fn embedded_object_meta() -> Structural {
    let string = || typed("string");
    let string_map = || map_of(string());
    let mut s = typed("object");
    s.properties.insert("annotations".into(), string_map());
    let mut finalizers = typed("array");
    finalizers.items = Some(Box::new(string()));
    s.properties.insert("finalizers".into(), finalizers);
    s.properties.insert("labels".into(), string_map());
    s.properties.insert("name".into(), string());
    s.properties.insert("namespace".into(), string());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trips_what_the_api_server_writes() {
        let meta = json!({
            "name": "w1", "namespace": "ns", "uid": "7d1c", "resourceVersion": "1234",
            "generation": 3, "creationTimestamp": "2026-01-02T03:04:05Z",
            "deletionTimestamp": "2026-01-02T03:05:05Z", "deletionGracePeriodSeconds": 30,
            "labels": {"a": "1"}, "annotations": {"b": "2"},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "d",
                                 "uid": "u1", "controller": true, "blockOwnerDeletion": true}],
            "finalizers": ["example.com/cleanup"],
            "managedFields": [{"manager": "kubectl", "operation": "Apply", "apiVersion": "example.com/v1",
                               "time": "2026-01-02T03:04:05Z", "fieldsType": "FieldsV1",
                               "fieldsV1": {"f:spec": {"f:size": {}}}, "subresource": "status"}],
            "generateName": "w-", "selfLink": "/apis/example.com/v1/namespaces/ns/widgets/w1",
        });
        let typed: ObjectMeta = serde_json::from_value(meta.clone()).unwrap();
        assert_eq!(serde_json::to_value(&typed).unwrap(), meta);
    }

    #[test]
    fn nulls_and_empties_read_as_absent_and_are_not_written() {
        let typed: ObjectMeta = serde_json::from_value(json!({
            "name": "w", "labels": null, "annotations": {}, "finalizers": null, "creationTimestamp": null,
        }))
        .unwrap();
        assert_eq!(
            typed,
            ObjectMeta {
                name: Some("w".into()),
                ..ObjectMeta::default()
            }
        );
        assert_eq!(serde_json::to_value(&typed).unwrap(), json!({"name": "w"}));
    }

    #[test]
    fn embedded_schema_keeps_what_a_template_may_set() {
        let v = crate::schema_for::<ObjectMeta>();
        assert_eq!(
            v,
            json!({"type": "object", "properties": {
                "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
                "finalizers": {"type": "array", "items": {"type": "string"}},
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "name": {"type": "string"},
                "namespace": {"type": "string"},
            }})
        );
    }
}
