//! The examples of the Kubernetes enhancement proposals behind kstruct, re-expressed as our own
//! fixtures and checked against what the API server (the reference implementation) does:
//!
//! - KEP "Pruning for Custom Resources" (`keps/sig-api-machinery/20180731-crd-pruning.md`,
//!   later `2332-pruning-for-custom-resources/README.md`);
//! - KEP-575 "Defaulting for Custom Resources" (`20190426-crd-defaulting.md`, later
//!   `575-crd-defaulting/README.md`);
//! - KEP "Vanilla CRD OpenAPI Subset: Structural Schemas" (`20190425-structural-openapi.md`);
//! - the blog post "Future of CRDs: Structural Schemas" (kubernetes.io, 2019-06-20).
//!
//! Where a KEP and the reference disagree, the expectation is the reference's (see
//! `shared/reference/apiserver-semantics.md`) and the test's doc comment says so.

use kstruct::interpreter::{default, prune, prune_defaults, prune_nulls};
use kstruct::objectmeta::{CoerceOptions, coerce};
use kstruct::schema::Structural;
use kstruct::schema::convert::from_value;
use kstruct::schema::field::Path;
use kstruct::schema::validation::validate_structural;
use kstruct::{Interpreter, Pipeline, PruneOptions};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Converts a v1 `openAPIV3Schema` literal; the fixtures are all convertible.
fn schema(v: Value) -> Structural {
    from_value(&v)
        .unwrap_or_else(|e| panic!("schema does not convert: {e}"))
        .expect("schema is not null")
}

/// Prunes `obj` with tracking and returns the unknown-field paths.
fn prune_tracked(obj: &mut Value, s: &Structural, resource_root: bool) -> Vec<String> {
    prune(obj, Some(s), resource_root, true)
}

/// `ValidateStructural(nil, s)` as strings, in the reference's (sorted) order.
fn structural_errors(v: Value) -> Vec<String> {
    validate_structural(&Path::nil(), &schema(v))
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Asserts that a schema is structural.
fn assert_structural(v: Value) {
    let errs = structural_errors(v.clone());
    assert!(
        errs.is_empty(),
        "expected a structural schema, got {errs:#?}\nschema: {v}"
    );
}

/// Runs the write path's schema steps in the API server's order: prune (resource root), drop
/// non-nullable nulls without defaults, default; with the schema's defaults pruned first.
fn write_path(s: Structural, obj: &mut Value) -> Vec<String> {
    let crd = Interpreter::new(Some(s));
    assert_eq!(crd.default_pruning_error(), None);
    let report = crd.prune(
        obj,
        PruneOptions {
            resource_root: true,
            track_unknown_fields: true,
        },
    );
    crd.prune_nulls(obj);
    crd.default(obj);
    report.unknown_fields
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// Pruning KEP, § Examples 1-11
// ---------------------------------------------------------------------------------------------

/// Pruning KEP, § Examples, 1 "unspecified": a bare `type: object` prunes everything.
#[test]
fn pruning_kep_1_unspecified() {
    let s = schema(json!({"type": "object"}));
    let mut obj = json!({"foo": 42, "json": {"bar": 43}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({}));
    assert_eq!(paths, strings(&["foo", "json"]));
}

/// Pruning KEP, § Examples, 2 "`properties` at top-level".
#[test]
fn pruning_kep_2_properties_at_top_level() {
    let s = schema(json!({"type": "object", "properties": {"foo": {"type": "object"}}}));
    let mut obj = json!({"foo": {"abc": 42}, "json": {"bar": 43}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"foo": {}}));
    assert_eq!(paths, strings(&["foo.abc", "json"]));
}

/// Pruning KEP, § Examples, 3 "`properties` at multiple levels".
#[test]
fn pruning_kep_3_properties_at_multiple_levels() {
    let s = schema(json!({
        "type": "object",
        "properties": {"foo": {"type": "object", "properties": {"bar": {"type": "object"}}}},
    }));
    let mut obj = json!({"foo": {"bar": {"abc": 42}, "def": 43}, "json": {"ghi": 44}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"foo": {"bar": {}}}));
    assert_eq!(paths, strings(&["foo.bar.abc", "foo.def", "json"]));
}

/// Pruning KEP, § Examples, 4 "`additionalProperties` with a non-empty schema": the map keys
/// stay, objects below them are pruned with the value schema.
#[test]
fn pruning_kep_4_additional_properties_schema() {
    let s = schema(json!({
        "type": "object",
        "properties": {"foo": {"type": "object", "additionalProperties": {"type": "object"}}},
    }));
    let mut obj = json!({"foo": {"abc": {"x": 42}, "def": {"y": 43}}, "json": {"ghi": 44}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"foo": {"abc": {}, "def": {}}}));
    assert_eq!(paths, strings(&["foo.abc.x", "foo.def.y", "json"]));
}

/// Pruning KEP, § Examples, 5 "`additionalProperties: false`": prunes like example 4 (the
/// `false` is value validation, not structure).
#[test]
fn pruning_kep_5_additional_properties_false() {
    let s = schema(json!({
        "type": "object",
        "properties": {"foo": {"type": "object", "additionalProperties": false}},
    }));
    let mut obj = json!({"foo": {"abc": {"x": 42}, "def": {"y": 43}}, "json": {"ghi": 44}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"foo": {"abc": {}, "def": {}}}));
    assert_eq!(paths, strings(&["foo.abc.x", "foo.def.y", "json"]));
}

/// Pruning KEP, § Examples, 6 "arbitrary JSON": nothing is pruned under
/// `x-kubernetes-preserve-unknown-fields: true` (no type needed).
#[test]
fn pruning_kep_6_arbitrary_json() {
    let s = schema(json!({
        "type": "object",
        "properties": {"json": {"x-kubernetes-preserve-unknown-fields": true, "nullable": true}},
    }));
    let mut obj = json!({"foo": 42, "json": {"bar": 43}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"json": {"bar": 43}}));
    assert_eq!(paths, strings(&["foo"]));
}

/// Pruning KEP, § Examples, 7 "JSON, but with properties at the same level".
///
/// The KEP says nothing inside `.json.bar` is pruned. The reference prunes a specified property
/// with its own schema, and preservation is not inherited into `properties`: `bar` is a plain
/// `type: object`, so `bar.abc` is pruned (unknown keys directly in `.json` survive).
#[test]
fn pruning_kep_7_preserve_with_properties_at_same_level() {
    let s = schema(json!({
        "type": "object",
        "properties": {"json": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "nullable": true,
            "properties": {"bar": {"type": "object"}},
        }},
    }));
    let mut obj = json!({"foo": 42, "json": {"bar": {"abc": 43}, "def": 44}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"json": {"bar": {}, "def": 44}}));
    assert_eq!(paths, strings(&["foo", "json.bar.abc"]));
}

/// Pruning KEP, § Examples, 8 "JSON, but with properties at the same **and lower** levels":
/// `properties` of `bar` reset pruning to normal.
#[test]
fn pruning_kep_8_preserve_with_properties_at_lower_levels() {
    let s = schema(json!({
        "type": "object",
        "properties": {"json": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "nullable": true,
            "properties": {"bar": {"type": "object", "properties": {"inner": {"type": "integer"}}}},
        }},
    }));
    let mut obj = json!({"foo": 42, "json": {"bar": {"inner": 43, "abc": 44}, "def": 45}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"json": {"bar": {"inner": 43}, "def": 45}}));
    assert_eq!(paths, strings(&["foo", "json.bar.abc"]));
}

/// Pruning KEP, § Examples, 9 "`additionalProperties` within JSON".
///
/// The KEP says preservation "keeps being effective" inside the additionalProperties schema.
/// The reference does not inherit it there: each value is pruned with `{type: object}`, so
/// `bar` is emptied; the scalar `def` survives.
#[test]
fn pruning_kep_9_additional_properties_within_json() {
    let s = schema(json!({
        "type": "object",
        "properties": {"json": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "nullable": true,
            "additionalProperties": {"type": "object"},
        }},
    }));
    let mut obj = json!({"foo": 42, "json": {"bar": {"inner": 43, "abc": 44}, "def": 45}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"json": {"bar": {}, "def": 45}}));
    assert_eq!(paths, strings(&["foo", "json.bar.abc", "json.bar.inner"]));
}

/// Pruning KEP, § Examples, 10 "embedded resource": inside `.object` nothing is pruned;
/// `.object.metadata` is not touched by pruning at all, its unknown fields are dropped by the
/// ObjectMeta coercion that runs right after pruning in the decoder.
#[test]
fn pruning_kep_10_embedded_resource() {
    let s = schema(json!({
        "type": "object",
        "properties": {"object": {
            "type": "object",
            "nullable": true,
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
        }},
    }));
    let mut obj = json!({
        "foo": 42,
        "object": {"bar": 43, "abc": 44, "metadata": {"name": "example", "garbage": 45}},
    });
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(
        obj,
        json!({"object": {"bar": 43, "abc": 44, "metadata": {"name": "example", "garbage": 45}}})
    );
    assert_eq!(paths, strings(&["foo"]));

    let opts = CoerceOptions {
        drop_invalid_fields: false,
        return_unknown_field_paths: true,
    };
    let meta_paths = coerce(&Path::nil(), &mut obj, Some(&s), false, opts).expect("coerces");
    assert_eq!(
        obj,
        json!({"object": {"bar": 43, "abc": 44, "metadata": {"name": "example"}}})
    );
    assert_eq!(meta_paths, strings(&["object.metadata.garbage"]));
}

/// Pruning KEP, § Examples, 11 "implicit `metav1.TypeMeta` and `metav1.ObjectMeta`": at a
/// resource root `apiVersion`, `kind` and `metadata` are never pruned; unknown metadata fields
/// go in the ObjectMeta round trip, not in pruning.
#[test]
fn pruning_kep_11_implicit_type_and_object_meta() {
    let s = schema(json!({"type": "object"}));
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example", "garbage": 43},
        "foo": 42,
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(
        obj,
        json!({"apiVersion": "example/v1", "kind": "Foo", "metadata": {"name": "example", "garbage": 43}})
    );
    assert_eq!(paths, strings(&["foo"]));

    let opts = CoerceOptions {
        drop_invalid_fields: false,
        return_unknown_field_paths: true,
    };
    let meta_paths = coerce(&Path::nil(), &mut obj, Some(&s), true, opts).expect("coerces");
    assert_eq!(
        obj,
        json!({"apiVersion": "example/v1", "kind": "Foo", "metadata": {"name": "example"}})
    );
    assert_eq!(meta_paths, strings(&["metadata.garbage"]));
}

/// Pruning KEP, § Test Plan ("`metadata`, `apiVersion`, `kind` are preserved ... if there is
/// no schema"): a resource root with no schema keeps only TypeMeta and ObjectMeta.
#[test]
fn pruning_kep_no_schema_keeps_type_and_object_meta() {
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "spec": {"a": 1},
        "status": {"b": 2},
    });
    let paths = prune(&mut obj, None, true, true);
    assert_eq!(
        obj,
        json!({"apiVersion": "example/v1", "kind": "Foo", "metadata": {"name": "example"}})
    );
    assert_eq!(paths, strings(&["spec", "status"]));
}

/// Pruning KEP, § Proposal (4): TypeMeta/ObjectMeta are implicitly specified only "at the
/// object root". Pruning a value that is not a resource root deletes them (silently at the top,
/// reported below it).
#[test]
fn pruning_kep_meta_fields_only_implicit_at_resource_root() {
    let s = schema(json!({"type": "object", "properties": {"spec": {"type": "object"}}}));
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "spec": {"apiVersion": "v1", "kind": "Bar", "metadata": {}},
    });
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"spec": {}}));
    assert_eq!(paths, strings(&["spec.apiVersion", "spec.kind", "spec.metadata"]));
}

/// Pruning KEP, § Summary and § Motivation: unknown fields in `spec` and `status` of a
/// CronTab-like resource are pruned, the specified ones kept.
#[test]
fn pruning_kep_spec_and_status() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "spec": {"type": "object", "properties": {
                "cronSpec": {"type": "string"},
                "image": {"type": "string"},
                "replicas": {"type": "integer"},
            }},
            "status": {"type": "object", "properties": {
                "replicas": {"type": "integer"},
                "labelSelector": {"type": "string"},
            }},
        },
    }));
    let mut obj = json!({
        "apiVersion": "stable.example.com/v1",
        "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"},
        "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 1, "someRandomField": 42},
        "status": {"replicas": 1, "phase": "Running"},
        "extra": true,
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(
        obj,
        json!({
            "apiVersion": "stable.example.com/v1",
            "kind": "CronTab",
            "metadata": {"name": "my-new-cron-object"},
            "spec": {"cronSpec": "* * * * */5", "image": "my-awesome-cron-image", "replicas": 1},
            "status": {"replicas": 1},
        })
    );
    assert_eq!(paths, strings(&["extra", "spec.someRandomField", "status.phase"]));
}

/// Pruning KEP, § Summary ("This will even be possible at the root level") and § Excluding
/// values from Pruning, exception 1: preservation at the root keeps unknown top-level fields,
/// while specified properties below are pruned normally.
#[test]
fn pruning_kep_preserve_unknown_fields_at_root() {
    let s = schema(json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}},
    }));
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "anything": {"deep": [1, {"x": 2}]},
        "spec": {"replicas": 3, "extra": 4},
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(
        obj,
        json!({
            "apiVersion": "example/v1",
            "kind": "Foo",
            "metadata": {"name": "example"},
            "anything": {"deep": [1, {"x": 2}]},
            "spec": {"replicas": 3},
        })
    );
    assert_eq!(paths, strings(&["spec.extra"]));
}

/// Pruning KEP, § Excluding values from Pruning: preservation is inherited by `items` (unknown
/// keys directly in list elements survive) but not by the items' `properties`.
#[test]
fn pruning_kep_preserve_unknown_fields_inherited_through_items() {
    let s = schema(json!({
        "type": "object",
        "properties": {"l": {
            "type": "array",
            "x-kubernetes-preserve-unknown-fields": true,
            "items": {"type": "object", "properties": {
                "a": {"type": "object", "properties": {"x": {"type": "string"}}},
            }},
        }},
    }));
    let mut obj = json!({"l": [{"a": {"x": "1", "y": 2}, "b": 3}, {"c": {"d": 4}}]});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"l": [{"a": {"x": "1"}, "b": 3}, {"c": {"d": 4}}]}));
    assert_eq!(paths, strings(&["l[0].a.y"]));
}

/// Pruning KEP, § Excluding values from Pruning, exception 2, with an embedded resource that is
/// fully specified instead of preserved: TypeMeta/ObjectMeta of the embedded object stay, the
/// rest is pruned by its properties.
#[test]
fn pruning_kep_embedded_resource_with_properties() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"template": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}},
        }}}},
    }));
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "spec": {"template": {
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "inner", "labels": {"a": "b"}},
            "spec": {"replicas": 2, "paused": true},
            "status": {},
        }},
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(
        obj["spec"]["template"],
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "inner", "labels": {"a": "b"}},
            "spec": {"replicas": 2},
        })
    );
    assert_eq!(paths, strings(&["spec.template.spec.paused", "spec.template.status"]));
}

/// Pruning KEP, § Examples 4/5 and § Alternatives Considered ("we stop pruning even for
/// `additionalProperties: false` or any other additional properties schema"):
/// `additionalProperties: true` keeps the keys but, having no schema, prunes every object below.
#[test]
fn pruning_kep_additional_properties_true() {
    let s = schema(json!({
        "type": "object",
        "properties": {"m": {"type": "object", "additionalProperties": true}},
    }));
    let mut obj = json!({"m": {"a": 1, "b": {"c": 1}, "d": [{"e": 1}], "f": ["g"]}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"m": {"a": 1, "b": {}, "d": [{}], "f": ["g"]}}));
    assert_eq!(paths, strings(&["m.b.c", "m.d[0].e"]));
}

/// Pruning KEP, § Proposal (2), for arrays: every element of a list of objects is pruned with
/// the `items` schema.
#[test]
fn pruning_kep_array_of_objects() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"containers": {
            "type": "array",
            "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "ports": {"type": "array", "items": {"type": "object", "properties": {
                    "containerPort": {"type": "integer"},
                }}},
            }},
        }}}},
    }));
    let mut obj = json!({"spec": {"containers": [
        {"name": "a", "image": "x", "ports": [{"containerPort": 80, "hostIP": "1.2.3.4"}]},
        {"name": "b", "ports": [{"containerPort": 81}, {"protocol": "TCP"}]},
    ]}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(
        obj,
        json!({"spec": {"containers": [
            {"name": "a", "ports": [{"containerPort": 80}]},
            {"name": "b", "ports": [{"containerPort": 81}, {}]},
        ]}})
    );
    assert_eq!(
        paths,
        strings(&[
            "spec.containers[0].image",
            "spec.containers[0].ports[0].hostIP",
            "spec.containers[1].ports[1].protocol",
        ])
    );
}

/// Pruning KEP, § Proposal (3) says a value whose JSON type does not match the schema is a
/// deserialization error. The reference never checks types while pruning: the value's shape
/// decides. Objects under an object schema without `items` lose all keys when they sit in an
/// array; an object under an array or scalar schema loses all keys; scalars stay.
#[test]
fn pruning_kep_type_mismatch_prunes_by_shape() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "o": {"type": "object", "properties": {"a": {"type": "integer"}}},
            "arr": {"type": "array", "items": {"type": "string"}},
            "s": {"type": "string"},
            "n": {"type": "object", "properties": {"a": {"type": "integer"}}},
        },
    }));
    let mut obj = json!({
        "o": [{"a": 1, "b": 2}, 3],
        "arr": {"x": 1, "y": [2]},
        "s": {"z": {"zz": 1}},
        "n": 5,
    });
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(obj, json!({"o": [{}, 3], "arr": {}, "s": {}, "n": 5}));
    assert_eq!(paths, strings(&["arr.x", "arr.y", "o[0].a", "o[0].b", "s.z"]));
}

/// Pruning KEP, § Test Plan (unknown fields reported by pruning): paths join keys with `.`,
/// append `[i]` for indices, do not escape keys, and are sorted in byte order (so `[10]` sorts
/// before `[1]`, upper case before `[`, `[` before lower case).
#[test]
fn pruning_kep_unknown_field_paths_format_and_order() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "l": {"type": "array", "items": {"type": "object", "properties": {"name": {"type": "string"}}}},
            "m": {"type": "object", "additionalProperties": {"type": "object", "properties": {"v": {"type": "integer"}}}},
        }}},
    }));
    let list: Vec<Value> = (0..11).map(|i| json!({"name": i.to_string(), "x": i})).collect();
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "Zeta": 1,
        "spec": {
            "a.b": 1,
            "q\"x": 2,
            "[0]": 3,
            "B": 4,
            "l": list,
            "m": {"k.1": {"v": 1, "w": 2}},
        },
    });
    let paths = prune_tracked(&mut obj, &s, true);
    let mut want = strings(&["Zeta", "spec.B", "spec.[0]", "spec.a.b", "spec.l[0].x", "spec.l[10].x"]);
    want.extend((1..10).map(|i| format!("spec.l[{i}].x")));
    want.extend(strings(&["spec.m.k.1.w", "spec.q\"x"]));
    assert_eq!(paths, want);
    assert_eq!(obj["spec"]["m"], json!({"k.1": {"v": 1}}));
    assert_eq!(obj["spec"]["l"][10], json!({"name": "10"}));
}

// ---------------------------------------------------------------------------------------------
// Blog "Future of CRDs: Structural Schemas": pruning
// ---------------------------------------------------------------------------------------------

/// The blog's value-validated MaintenanceNightlyJob schema (spec-level `oneOf`).
fn maintenance_job_schema() -> Value {
    json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "properties": {
                "command": {"type": "string", "minLength": 1},
                "shell": {"type": "string", "minLength": 1},
                "machines": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}},
            },
            "oneOf": [{"required": ["command"]}, {"required": ["shell"]}],
        }},
        "required": ["spec"],
    })
}

/// Blog, § Pruning – don't preserve unknown fields: the unspecified `privileged` field of the
/// MaintenanceNightlyJob is pruned before it reaches etcd.
#[test]
fn blog_pruning_drops_privileged() {
    let s = schema(maintenance_job_schema());
    let mut obj = json!({
        "apiVersion": "operations/v1",
        "kind": "MaintenanceNightlyJob",
        "spec": {
            "shell": "echo nightly",
            "machines": ["az1-master1", "az1-master2", "az2-master3"],
            "privileged": true,
        },
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(
        obj,
        json!({
            "apiVersion": "operations/v1",
            "kind": "MaintenanceNightlyJob",
            "spec": {"shell": "echo nightly", "machines": ["az1-master1", "az1-master2", "az2-master3"]},
        })
    );
    assert_eq!(paths, strings(&["spec.privileged"]));
}

/// Blog, § Structural Schema (the structural core, `command` and `machines` only): with it,
/// `shell` is unknown as well and pruned next to `privileged`.
#[test]
fn blog_pruning_with_structural_core() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "command": {"type": "string"},
            "machines": {"type": "array", "items": {"type": "string"}},
        }}},
    }));
    let mut obj = json!({
        "apiVersion": "operations/v1",
        "kind": "MaintenanceNightlyJob",
        "spec": {"shell": "echo nightly", "machines": ["az1-master1"], "privileged": true},
    });
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(obj["spec"], json!({"machines": ["az1-master1"]}));
    assert_eq!(paths, strings(&["spec.privileged", "spec.shell"]));
}

/// Blog, § Conclusion: `type: object` + `x-kubernetes-preserve-unknown-fields: true` is
/// structural and prunes nothing (the old schema-less behaviour).
#[test]
fn blog_preserve_everything_at_root() {
    let v = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true});
    assert_structural(v.clone());
    let s = schema(v);
    let original = json!({
        "apiVersion": "operations/v1",
        "kind": "MaintenanceNightlyJob",
        "metadata": {"name": "x"},
        "spec": {"privileged": true, "nested": {"a": [{"b": 1}]}},
        "status": {"anything": null},
    });
    let mut obj = original.clone();
    let paths = prune_tracked(&mut obj, &s, true);
    assert_eq!(obj, original);
    assert!(paths.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Defaulting KEP-575, § Examples 1-4 and § Proposal
// ---------------------------------------------------------------------------------------------

/// Defaulting KEP, § Examples, 1 "default in the undefined case".
#[test]
fn defaulting_kep_1_undefined() {
    let s = schema(json!({"type": "object", "properties": {"foo": {"type": "string", "default": "abc"}}}));
    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"foo": "abc"}));
}

/// Defaulting KEP, § Examples, 2 "no defaulting": a present value is kept.
#[test]
fn defaulting_kep_2_no_defaulting() {
    let s = schema(json!({"type": "object", "properties": {"foo": {"type": "string", "default": "abc"}}}));
    let mut obj = json!({"foo": "def"});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"foo": "def"}));
}

fn array_default_schema(nullable: bool) -> Structural {
    schema(json!({
        "type": "object",
        "properties": {"foo": {
            "type": "array",
            "items": {"type": "integer"},
            "nullable": nullable,
            "default": [1],
        }},
    }))
}

/// Defaulting KEP, § Examples, 3 "array default in the undefined case", absent and `[]`.
#[test]
fn defaulting_kep_3_array_default_absent_and_empty() {
    let s = array_default_schema(false);
    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"foo": [1]}));

    let mut obj = json!({"foo": []});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"foo": []}));
}

/// Defaulting KEP, § Examples, 3, the `null` case.
///
/// The KEP (and its § Proposal, "we do not default explicit JSON `null` values") says
/// `{"foo": null}` stays `null`. The reference defaults a `null` whose schema is not nullable:
/// the result is `{"foo": [1]}`. Only with `nullable: true` does the `null` stay.
#[test]
fn defaulting_kep_3_array_default_null() {
    let mut obj = json!({"foo": null});
    default(&mut obj, Some(&array_default_schema(false)));
    assert_eq!(obj, json!({"foo": [1]}));

    let mut obj = json!({"foo": null});
    default(&mut obj, Some(&array_default_schema(true)));
    assert_eq!(obj, json!({"foo": null}));
}

/// Defaulting KEP, § Examples, 4 "top-down defaulting": the parent's default is applied first,
/// then defaults of its fields are applied into it.
#[test]
fn defaulting_kep_4_top_down() {
    let s = schema(json!({
        "type": "object",
        "properties": {"foo": {
            "type": "object",
            "properties": {
                "a": {"type": "string", "default": "abc"},
                "b": {"type": "string"},
            },
            "default": {"b": "def"},
        }},
    }));
    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"foo": {"a": "abc", "b": "def"}}));
}

/// Defaulting KEP, § Proposal ("Defaulting happens top-down ... including the new one"): a
/// parent default `{}` plus a child default gives the child's default inside, several levels
/// deep.
#[test]
fn defaulting_kep_empty_parent_default_then_child_default() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "default": {},
            "properties": {"strategy": {
                "type": "object",
                "default": {},
                "properties": {
                    "type": {"type": "string", "default": "RollingUpdate"},
                    "maxSurge": {"type": "integer", "default": 1},
                },
            }},
        }},
    }));
    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(
        obj,
        json!({"spec": {"strategy": {"type": "RollingUpdate", "maxSurge": 1}}})
    );

    let mut obj = json!({"spec": {"strategy": {"maxSurge": 5}}});
    default(&mut obj, Some(&s));
    assert_eq!(
        obj,
        json!({"spec": {"strategy": {"type": "RollingUpdate", "maxSurge": 5}}})
    );
}

/// Defaulting KEP, § Proposal ("nor empty lists or maps, nor zero numbers/integers or empty
/// strings"): zero values are not replaced.
#[test]
fn defaulting_kep_zero_values_not_replaced() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "i": {"type": "integer", "default": 7},
            "n": {"type": "number", "default": 1.5},
            "s": {"type": "string", "default": "x"},
            "b": {"type": "boolean", "default": true},
            "l": {"type": "array", "items": {"type": "string"}, "default": ["a"]},
            "m": {"type": "object", "additionalProperties": {"type": "string"}, "default": {"k": "v"}},
        },
    }));
    let zeros = json!({"i": 0, "n": 0.0, "s": "", "b": false, "l": [], "m": {}});
    let mut obj = zeros.clone();
    default(&mut obj, Some(&s));
    assert_eq!(obj, zeros);

    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(
        obj,
        json!({"i": 7, "n": 1.5, "s": "x", "b": true, "l": ["a"], "m": {"k": "v"}})
    );
}

/// Defaulting KEP, § Proposal (step 2, "recursively follow ... the structural schema"):
/// defaults inside array items apply to every element, and a `null` element of a non-nullable
/// items schema gets the items default.
#[test]
fn defaulting_kep_defaults_in_array_items() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "ports": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"},
                "protocol": {"type": "string", "default": "TCP"},
            }}},
            "tags": {"type": "array", "items": {"type": "string", "default": "untagged"}},
            "ntags": {"type": "array", "items": {"type": "string", "nullable": true, "default": "untagged"}},
        },
    }));
    let mut obj = json!({
        "ports": [{"name": "http"}, {"name": "dns", "protocol": "UDP"}, {}],
        "tags": ["a", null],
        "ntags": ["a", null],
    });
    default(&mut obj, Some(&s));
    assert_eq!(
        obj,
        json!({
            "ports": [{"name": "http", "protocol": "TCP"}, {"name": "dns", "protocol": "UDP"}, {"protocol": "TCP"}],
            "tags": ["a", "untagged"],
            "ntags": ["a", null],
        })
    );
}

/// Defaulting KEP, § Proposal, for string maps: defaults inside `additionalProperties` values
/// apply to every value, a non-nullable `null` value gets the value default, and no key is
/// ever created.
#[test]
fn defaulting_kep_defaults_in_additional_properties() {
    let s = schema(json!({
        "type": "object",
        "properties": {
            "objs": {"type": "object", "additionalProperties": {"type": "object", "properties": {
                "weight": {"type": "integer", "default": 1},
            }}},
            "strs": {"type": "object", "additionalProperties": {"type": "string", "default": "z"}},
        },
    }));
    let mut obj = json!({
        "objs": {"a": {}, "b": {"weight": 2}},
        "strs": {"x": null, "y": "set"},
    });
    default(&mut obj, Some(&s));
    assert_eq!(
        obj,
        json!({
            "objs": {"a": {"weight": 1}, "b": {"weight": 2}},
            "strs": {"x": "z", "y": "set"},
        })
    );

    let mut obj = json!({"objs": {}, "strs": {}});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"objs": {}, "strs": {}}));
}

/// Defaulting KEP, § Proposal (defaults apply to object fields): the root schema's own
/// `default` is never applied, only defaults of its properties.
#[test]
fn defaulting_kep_root_default_never_applied() {
    let s = schema(json!({
        "type": "object",
        "default": {"spec": {"a": 1}},
        "properties": {"spec": {"type": "object", "properties": {"a": {"type": "integer"}}}},
    }));
    let mut obj = json!({});
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({}));
}

/// Defaulting KEP, § Proposal ("defaulting is done ... just after ... pruning"), with the
/// reference's null handling between the two: prune, then drop `null`s that are neither
/// nullable nor defaulted, then default. A defaulted non-nullable `null` is replaced, a
/// nullable one stays `null`, and `null`s inside arrays are never dropped.
#[test]
fn defaulting_kep_order_prune_nulls_default() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "string", "default": "A"},
            "b": {"type": "string"},
            "c": {"type": "string", "nullable": true},
            "d": {"type": "string", "nullable": true, "default": "D"},
            "e": {"type": "string", "default": "E"},
            "l": {"type": "array", "items": {"type": "string"}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
        }}},
    }));
    let mut obj = json!({
        "apiVersion": "example/v1",
        "kind": "Foo",
        "metadata": {"name": "example"},
        "spec": {"a": null, "b": null, "c": null, "d": null, "l": ["x", null], "m": {"k": null, "j": "v"}, "x": 1},
    });
    let paths = write_path(s, &mut obj);
    assert_eq!(paths, strings(&["spec.x"]));
    assert_eq!(
        obj["spec"],
        json!({"a": "A", "c": null, "d": null, "e": "E", "l": ["x", null], "m": {"j": "v"}})
    );
}

/// The same order, step by step with the free functions: after pruning an unknown `null` is
/// gone; after null pruning `b` is gone; defaulting then fills `a`.
#[test]
fn defaulting_kep_order_step_by_step() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "a": {"type": "string", "default": "A"},
            "b": {"type": "string"},
        }}},
    }));
    let mut obj = json!({"spec": {"a": null, "b": null, "u": null}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(paths, strings(&["spec.u"]));
    assert_eq!(obj, json!({"spec": {"a": null, "b": null}}));
    prune_nulls(&mut obj, Some(&s));
    assert_eq!(obj, json!({"spec": {"a": null}}));
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"spec": {"a": "A"}}));
}

/// Defaulting KEP, § Proposal: `null`s of unknown fields (no schema) are not dropped by null
/// pruning, and `x-kubernetes-preserve-unknown-fields` does not stop defaulting of specified
/// properties.
#[test]
fn defaulting_kep_preserve_unknown_fields_and_nulls() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"a": {"type": "integer", "default": 1}, "b": {"type": "integer"}},
        }},
    }));
    let mut obj = json!({"spec": {"b": null, "unknown": null}});
    let paths = prune_tracked(&mut obj, &s, false);
    assert!(paths.is_empty());
    prune_nulls(&mut obj, Some(&s));
    default(&mut obj, Some(&s));
    assert_eq!(obj, json!({"spec": {"a": 1, "unknown": null}}));
}

/// Defaulting KEP, § Proposal ("[defaults] are not subject to pruning (defaulting happens
/// after pruning)") and § Validation ("Default values must be pruned"): a default with an
/// unknown field, applied by `default` alone, is inserted as written; the API server prunes
/// defaults when it starts serving the CRD, so the served object never gets the unknown field.
#[test]
fn defaulting_kep_prune_defaults_at_serve_time() {
    let v = json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "properties": {"known": {"type": "integer"}},
            "default": {"known": 1, "unknown": 2},
        }},
    });

    let mut obj = json!({});
    default(&mut obj, Some(&schema(v.clone())));
    assert_eq!(obj, json!({"spec": {"known": 1, "unknown": 2}}));

    let mut s = schema(v.clone());
    prune_defaults(&mut s).expect("defaults prune");
    assert_eq!(s.properties["spec"].generic.default, Some(json!({"known": 1})));

    let mut obj = json!({"apiVersion": "example/v1", "kind": "Foo", "metadata": {"name": "x"}});
    let paths = write_path(schema(v), &mut obj);
    assert!(paths.is_empty());
    assert_eq!(obj["spec"], json!({"known": 1}));
}

/// Defaulting KEP, § Validation ("including support for `x-kubernetes-preserve-unknown-fields`
/// to exclude nodes from being pruned"), for defaults in items and additionalProperties:
/// serve-time pruning of a default follows the schema at the default's position.
#[test]
fn defaulting_kep_prune_defaults_in_items_additional_properties_and_preserved() {
    let mut s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "l": {"type": "array", "items": {
                "type": "object",
                "properties": {"a": {"type": "integer"}},
                "default": {"a": 1, "b": 2},
            }},
            "m": {"type": "object", "additionalProperties": {
                "type": "object",
                "properties": {"x": {"type": "integer"}},
                "default": {"x": 1, "y": {"z": 2}},
            }},
            "p": {
                "type": "object",
                "x-kubernetes-preserve-unknown-fields": true,
                "properties": {"k": {"type": "object", "properties": {"v": {"type": "integer"}}}},
                "default": {"free": {"form": true}, "k": {"v": 1, "w": 2}},
            },
        }}},
    }));
    prune_defaults(&mut s).expect("defaults prune");
    let spec = &s.properties["spec"];
    assert_eq!(
        spec.properties["l"].items.as_ref().unwrap().generic.default,
        Some(json!({"a": 1}))
    );
    let m = spec.properties["m"]
        .additional_properties
        .as_ref()
        .unwrap()
        .schema()
        .unwrap();
    assert_eq!(m.generic.default, Some(json!({"x": 1})));
    assert_eq!(
        spec.properties["p"].generic.default,
        Some(json!({"free": {"form": true}, "k": {"v": 1}}))
    );
}

/// Defaulting KEP, § Behaviour of Embedded Resource ObjectMeta Defaults and § Test Plan
/// ("building CR storage from persisted CRD discards unknown fields" / "discards schema
/// invalid fields from defaults"): metadata inside the default of an embedded resource is
/// cleaned when the CRD is served.
#[test]
fn defaulting_kep_prune_defaults_embedded_metadata() {
    let mut s = schema(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"template": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
            "default": {
                "apiVersion": "v1",
                "kind": "Pod",
                "metadata": {"name": "x", "garbage": 1, "finalizers": 1},
                "spec": {"a": 1},
            },
        }}}},
    }));
    prune_defaults(&mut s).expect("defaults prune");
    assert_eq!(
        s.properties["spec"].properties["template"].generic.default,
        Some(json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "x"}, "spec": {"a": 1}}))
    );
}

// ---------------------------------------------------------------------------------------------
// Structural schema KEP: non-structural examples and their structural rewrites
// ---------------------------------------------------------------------------------------------

/// Structural KEP, § Proposal (the example "of what we want to avoid"): the type of `bar` is
/// only given inside `anyOf`, and the root has no type.
#[test]
fn structural_kep_proposal_counter_example() {
    let errs = structural_errors(json!({
        "properties": {
            "foo": {"type": "string"},
            "bar": {"minimum": 42},
        },
        "anyOf": [
            {"properties": {"foo": {"pattern": "abc"}, "bar": {"type": "string"}}},
            {"properties": {"bar": {"type": "integer", "minimum": 1, "maximum": 0}}},
        ],
    }));
    assert_eq!(
        errs,
        strings(&[
            "anyOf[0].properties[bar].type: Forbidden: must be empty to be structural",
            "anyOf[1].properties[bar].type: Forbidden: must be empty to be structural",
            "properties[bar].type: Required value: must not be empty for specified object fields",
            "type: Required value: must not be empty at the root",
        ])
    );
}

/// Structural KEP, § Proposal: the counter-example made structural (types outside the
/// junctors, value validations inside).
#[test]
fn structural_kep_proposal_counter_example_rewritten() {
    assert_structural(json!({
        "type": "object",
        "properties": {
            "foo": {"type": "string"},
            "bar": {"type": "integer", "minimum": 42},
        },
        "anyOf": [
            {"properties": {"foo": {"pattern": "abc"}}},
            {"properties": {"bar": {"minimum": 1, "maximum": 0}}},
        ],
    }));
}

/// Structural KEP, § Formal Definition: the KEP sketches the message as
/// `.properties[foo].items.properties[bar].type must be non-empty`; the reference prints a
/// field error without leading dot.
#[test]
fn structural_kep_formal_definition_empty_type_message() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"foo": {"type": "array", "items": {"type": "object", "properties": {"bar": {}}}}},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[foo].items.properties[bar].type: Required value: must not be empty for specified object fields"
        ])
    );

    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"foo": {"type": "array", "items": {}}, "baz": {"type": "array"}},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[baz].items: Required value: must be specified",
            "properties[foo].items.type: Required value: must not be empty for specified array items",
        ])
    );
}

/// Structural KEP, § Formal Definition, consequence 1: `additionalProperties`, `description`,
/// `title`, `nullable`, `default`, `type` and the `x-kubernetes-*` extensions are forbidden
/// inside logical junctors.
#[test]
fn structural_kep_forbidden_inside_junctors() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"a": {"type": "object"}},
        "allOf": [{"properties": {"a": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": "d",
            "title": "t",
            "nullable": true,
            "default": {},
            "x-kubernetes-preserve-unknown-fields": true,
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-int-or-string": true,
        }}}],
    }));
    assert_eq!(
        errs,
        strings(&[
            "allOf[0].properties[a].additionalProperties: Forbidden: must be undefined to be structural",
            "allOf[0].properties[a].default: Forbidden: must be undefined to be structural",
            "allOf[0].properties[a].description: Forbidden: must be empty to be structural",
            "allOf[0].properties[a].nullable: Forbidden: must be false to be structural",
            "allOf[0].properties[a].title: Forbidden: must be empty to be structural",
            "allOf[0].properties[a].type: Forbidden: must be empty to be structural",
            "allOf[0].properties[a].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
            "allOf[0].properties[a].x-kubernetes-int-or-string: Forbidden: must be false to be structural",
            "allOf[0].properties[a].x-kubernetes-preserve-unknown-fields: Forbidden: must be false to be structural",
        ])
    );
}

/// Structural KEP, § Formal Definition, validation 2 (completeness): a field named only inside
/// a junctor is reported at its structural path.
#[test]
fn structural_kep_completeness() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}},
        "not": {"properties": {"spec": {"properties": {"privileged": {}}}}},
        "allOf": [{"properties": {"status": {"items": {}}}}],
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[spec].properties[privileged]: Required value: because it is defined in not.properties[spec].properties[privileged]",
            "properties[status]: Required value: because it is defined in allOf[0].properties[status]",
        ])
    );
}

/// Structural KEP, § Formal Definition, validation 3 (RawExtension): an embedded resource must
/// be `type: object` and have properties or preserve unknown fields.
#[test]
fn structural_kep_embedded_resource_rules() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {
            "e": {"x-kubernetes-embedded-resource": true},
            "f": {"type": "string", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "g": {"type": "object", "x-kubernetes-embedded-resource": true},
        },
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[e].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
            "properties[e].type: Required value: must be object if x-kubernetes-embedded-resource is true",
            "properties[f].type: Invalid value: \"string\": must be object if x-kubernetes-embedded-resource is true",
            "properties[g].properties: Required value: must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields",
        ])
    );

    assert_structural(json!({
        "type": "object",
        "properties": {
            "e": {"type": "object", "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true},
            "g": {"type": "object", "x-kubernetes-embedded-resource": true, "properties": {
                "spec": {"type": "object"},
            }},
        },
    }));
}

/// Structural KEP, § Formal Definition, validation 4 (IntOrString): the two accepted shapes
/// pass; a different order of the two types does not.
#[test]
fn structural_kep_int_or_string_patterns() {
    assert_structural(json!({
        "type": "object",
        "properties": {
            "plain": {"x-kubernetes-int-or-string": true},
            "any": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
            "all": {"x-kubernetes-int-or-string": true, "allOf": [
                {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                {"pattern": "^[0-9]+%?$"},
            ]},
        },
    }));

    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"x": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "string"}, {"type": "integer"}]}},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[x].anyOf[0].type: Forbidden: must be empty to be structural",
            "properties[x].anyOf[1].type: Forbidden: must be empty to be structural",
        ])
    );
}

/// Structural KEP, § Metadata, restriction 1: root `metadata` may only have `type: object` and
/// `name`/`generateName` (with any schema); anything else is forbidden.
#[test]
fn structural_kep_metadata_at_root() {
    assert_structural(json!({
        "type": "object",
        "properties": {"metadata": {"type": "object", "properties": {
            "name": {"type": "string", "maxLength": 63, "pattern": "^[a-z]+$"},
            "generateName": {"type": "string"},
        }}},
    }));

    for extra in [
        json!({"type": "object", "properties": {"name": {"type": "string"}, "labels": {"type": "object"}}}),
        json!({"type": "object", "description": "the object's metadata"}),
        json!({"type": "object", "maxProperties": 3}),
    ] {
        let errs = structural_errors(json!({"type": "object", "properties": {"metadata": extra}}));
        assert_eq!(
            errs,
            strings(&[
                "properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"
            ]),
            "metadata schema {extra}"
        );
    }

    let errs = structural_errors(json!({"type": "object", "properties": {"metadata": {"type": "string"}}}));
    assert_eq!(
        errs,
        strings(&["properties[metadata].type: Invalid value: \"string\": must be object"])
    );
}

/// Structural KEP, § Metadata, restriction 2: `metadata` named inside a value validation is
/// forbidden.
#[test]
fn structural_kep_metadata_in_value_validation() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"metadata": {"type": "object"}},
        "anyOf": [{"properties": {"metadata": {}}}],
    }));
    assert_eq!(
        errs,
        strings(&["anyOf[0].properties[metadata]: Forbidden: must not be specified in a nested context"])
    );
}

/// Structural KEP, § Metadata, restriction 2, the case the KEP calls allowed: an embedded
/// resource's `metadata` inside `anyOf`. The reference forbids `metadata` in every nested
/// context, and the extension itself inside a junctor too.
#[test]
fn structural_kep_metadata_of_embedded_resource_in_value_validation() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"embedded": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {"type": "object"}},
        }},
        "anyOf": [{"properties": {"embedded": {
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {}},
        }}}],
    }));
    assert_eq!(
        errs,
        strings(&[
            "anyOf[0].properties[embedded].properties[metadata]: Forbidden: must not be specified in a nested context",
            "anyOf[0].properties[embedded].x-kubernetes-embedded-resource: Forbidden: must be false to be structural",
        ])
    );
}

/// Structural KEP, § Metadata ("The restrictions do not apply to embedded resources"): the
/// metadata of an embedded resource may be specified freely, but must be an object.
#[test]
fn structural_kep_metadata_of_embedded_resource_unrestricted() {
    assert_structural(json!({
        "type": "object",
        "properties": {"template": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {
                "type": "object",
                "description": "embedded metadata",
                "properties": {
                    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                    "annotations": {"type": "object", "maxProperties": 10, "additionalProperties": {"type": "string"}},
                },
            }},
        }},
    }));

    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"template": {
            "type": "object",
            "x-kubernetes-embedded-resource": true,
            "properties": {"metadata": {"type": "string"}, "kind": {"type": "integer"}},
        }},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[template].properties[kind].type: Invalid value: \"integer\": must be string",
            "properties[template].properties[metadata].type: Invalid value: \"string\": must be object",
        ])
    );
}

/// Structural KEP, § Litmus Test Examples, 1 "discriminated union" (with `required` at the
/// object level, where the KEP means it; `x-kubernetes-unions` never became a field of the
/// schema type and is ignored when the schema is read). Both the specified schema and the one
/// after dropping value validation are structural, and prune the same way.
#[test]
fn structural_kep_litmus_1_discriminated_union() {
    let specified = json!({
        "type": "object",
        "x-kubernetes-unions": [{"discriminator": "type", "fields": {"emptyDir": "EmptyDir", "hostPath": "HostPath"}}],
        "properties": {
            "type": {"type": "string", "enum": ["EmptyDir", "HostPath"]},
            "emptyDir": {"type": "object"},
            "hostPath": {"type": "object", "properties": {"path": {"type": "string", "pattern": "/.*"}}, "required": ["path"]},
            "sharedField": {"type": "string"},
        },
        "required": ["sharedField"],
        "oneOf": [{"required": ["emptyDir"]}, {"required": ["hostPath"]}],
    });
    let dropped = json!({
        "type": "object",
        "properties": {
            "type": {"type": "string"},
            "emptyDir": {"type": "object"},
            "hostPath": {"type": "object", "properties": {"path": {"type": "string"}}},
            "sharedField": {"type": "string"},
        },
    });
    for v in [specified, dropped] {
        assert_structural(v.clone());
        let mut obj =
            json!({"type": "HostPath", "hostPath": {"path": "/tmp", "readOnly": true}, "sharedField": "s", "x": 1});
        let paths = prune_tracked(&mut obj, &schema(v), false);
        assert_eq!(
            obj,
            json!({"type": "HostPath", "hostPath": {"path": "/tmp"}, "sharedField": "s"})
        );
        assert_eq!(paths, strings(&["hostPath.readOnly", "x"]));
    }
}

/// Structural KEP, § Litmus Test Examples, 2 "non-polymorphic type, polymorphic format": a
/// string whose alternatives are patterns inside `anyOf`.
#[test]
fn structural_kep_litmus_2_ipv4_or_ipv6() {
    assert_structural(json!({
        "type": "object",
        "properties": {"address": {
            "type": "string",
            "anyOf": [
                {"pattern": "^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$"},
                {"pattern": "^(?:[0-9a-fA-F]{1,4}:){7}[0-9a-fA-F]{1,4}$"},
            ],
        }},
    }));
}

/// Structural KEP, § Litmus Test Examples, 3 "RawExtensions", as specified in the KEP: the
/// `apiVersion` property only has a `pattern`. For the reference that property has no type,
/// which is both an empty field type and a non-string `apiVersion` of an embedded resource, so
/// the KEP's example is not structural.
#[test]
fn structural_kep_litmus_3_raw_extension_as_written() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"x": {
            "type": "object",
            "nullable": true,
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"apiVersion": {"pattern": "v1"}},
        }},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[x].properties[apiVersion].type: Invalid value: \"\": must be string",
            "properties[x].properties[apiVersion].type: Required value: must not be empty for specified object fields",
        ])
    );
}

/// Structural KEP, § Litmus Test Examples, 3 "RawExtensions", with the types the KEP shows
/// after dropping value validation: structural; pruning keeps everything of the embedded object.
#[test]
fn structural_kep_litmus_3_raw_extension_typed() {
    let v = json!({
        "type": "object",
        "properties": {"x": {
            "type": "object",
            "nullable": true,
            "x-kubernetes-embedded-resource": true,
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {
                "apiVersion": {"type": "string", "pattern": "v1"},
                "kind": {"type": "string"},
                "metadata": {"type": "object"},
            },
        }},
    });
    assert_structural(v.clone());
    let mut obj =
        json!({"x": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "v"}}});
    let before = obj.clone();
    let paths = prune_tracked(&mut obj, &schema(v), false);
    assert_eq!(obj, before);
    assert!(paths.is_empty());
}

/// Structural KEP, § Litmus Test Examples, 4 "embedded JSON": nullable object preserving
/// unknown fields; structural, and `null` survives null pruning.
#[test]
fn structural_kep_litmus_4_embedded_json() {
    let v = json!({
        "type": "object",
        "properties": {"json": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "nullable": true}},
    });
    assert_structural(v.clone());
    let s = schema(v);
    let mut obj = json!({"json": null});
    prune_nulls(&mut obj, Some(&s));
    assert_eq!(obj, json!({"json": null}));
}

/// Structural KEP, § Litmus Test Examples, 5 "string maps": a map with a value schema is
/// structural as a field, but `additionalProperties` is forbidden at the root.
#[test]
fn structural_kep_litmus_5_string_maps() {
    assert_structural(json!({
        "type": "object",
        "properties": {"counts": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 42}}},
    }));
    let errs = structural_errors(json!({"type": "object", "additionalProperties": {"type": "integer", "minimum": 42}}));
    assert_eq!(
        errs,
        strings(&["additionalProperties: Forbidden: must not be used at the root"])
    );
}

/// Structural KEP, § Litmus Test Examples, 6 "IntOrString": both spellings are structural.
#[test]
fn structural_kep_litmus_6_int_or_string() {
    assert_structural(json!({
        "type": "object",
        "properties": {"x": {
            "x-kubernetes-int-or-string": true,
            "pattern": "abc",
            "anyOf": [{"minimum": 42, "maximum": 50}, {"minimum": 52, "maximum": 60}],
        }},
    }));
    assert_structural(json!({
        "type": "object",
        "properties": {"x": {
            "x-kubernetes-int-or-string": true,
            "allOf": [
                {"anyOf": [{"type": "integer"}, {"type": "string"}]},
                {"pattern": "abc", "anyOf": [{"minimum": 42, "maximum": 50}, {"minimum": 52, "maximum": 60}]},
            ],
        }},
    }));
}

/// Pruning KEP § Examples and Defaulting KEP § Examples: every schema the two KEPs use is
/// structural.
#[test]
fn pruning_and_defaulting_kep_schemas_are_structural() {
    let json_prop = |extra: Value| {
        let mut p = json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true, "nullable": true});
        p.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        json!({"type": "object", "properties": {"json": p}})
    };
    for v in [
        json!({"type": "object"}),
        json!({"type": "object", "properties": {"foo": {"type": "object"}}}),
        json!({"type": "object", "properties": {"foo": {"type": "object", "properties": {"bar": {"type": "object"}}}}}),
        json!({"type": "object", "properties": {"foo": {"type": "object", "additionalProperties": {"type": "object"}}}}),
        json!({"type": "object", "properties": {"foo": {"type": "object", "additionalProperties": false}}}),
        json!({"type": "object", "properties": {"json": {"x-kubernetes-preserve-unknown-fields": true, "nullable": true}}}),
        json_prop(json!({"properties": {"bar": {"type": "object"}}})),
        json_prop(json!({"properties": {"bar": {"type": "object", "properties": {"inner": {"type": "integer"}}}}})),
        json_prop(json!({"additionalProperties": {"type": "object"}})),
        json!({"type": "object", "properties": {"object": {
            "type": "object", "nullable": true,
            "x-kubernetes-embedded-resource": true, "x-kubernetes-preserve-unknown-fields": true,
        }}}),
        json!({"type": "object", "properties": {"foo": {"type": "string", "default": "abc"}}}),
        json!({"type": "object", "properties": {"foo": {"type": "array", "items": {"type": "integer"}, "default": [1]}}}),
        json!({"type": "object", "properties": {"foo": {
            "type": "object",
            "properties": {"a": {"type": "string", "default": "abc"}, "b": {"type": "string"}},
            "default": {"b": "def"},
        }}}),
    ] {
        assert_structural(v);
    }
}

// ---------------------------------------------------------------------------------------------
// Blog "Future of CRDs: Structural Schemas": structural validation
// ---------------------------------------------------------------------------------------------

/// Blog, § Structural Schema: the structural core of the MaintenanceJob, and the same with
/// value validations, are structural.
#[test]
fn blog_structural_core_and_value_validation() {
    assert_structural(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {
            "command": {"type": "string"},
            "machines": {"type": "array", "items": {"type": "string"}},
        }}},
    }));
    assert_structural(maintenance_job_schema());
}

/// Blog, § Structural Schema, the "non-structural for many reasons" example (with `oneOf` and
/// `not` on `spec`, where the blog's indentation puts them). The reference reports the missing
/// root type and the `type`s inside `oneOf`, but not the `privileged` property named inside
/// `not`: completeness is only checked for junctors at the schema root.
#[test]
fn blog_non_structural_example() {
    let errs = structural_errors(json!({
        "properties": {"spec": {
            "type": "object",
            "properties": {
                "command": {"type": "string", "minLength": 1},
                "shell": {"type": "string", "minLength": 1},
                "machines": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9]+(-[a-z0-9]+)*$"}},
            },
            "oneOf": [
                {"type": "string", "required": ["command"]},
                {"type": "string", "required": ["shell"]},
            ],
            "not": {"properties": {"privileged": {}}},
        }},
        "required": ["spec"],
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[spec].oneOf[0].type: Forbidden: must be empty to be structural",
            "properties[spec].oneOf[1].type: Forbidden: must be empty to be structural",
            "type: Required value: must not be empty at the root",
        ])
    );
}

/// Blog, § Structural Schema, rule 3-ii ("all fields mentioned in value validation are
/// specified in the core"), with the `not` at the schema root, where the reference checks it.
#[test]
fn blog_non_structural_not_at_root() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"spec": {"type": "object", "properties": {"command": {"type": "string"}}}},
        "not": {"properties": {"spec": {"properties": {"privileged": {}}}}},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[spec].properties[privileged]: Required value: because it is defined in not.properties[spec].properties[privileged]"
        ])
    );
}

/// Blog, § Extensions: the blog says `oneOf: [{type: integer}, {type: string}]` is permitted
/// with `x-kubernetes-int-or-string`. The reference only accepts the `anyOf` shapes.
#[test]
fn blog_int_or_string_with_one_of() {
    let errs = structural_errors(json!({
        "type": "object",
        "properties": {"port": {"x-kubernetes-int-or-string": true, "oneOf": [{"type": "integer"}, {"type": "string"}]}},
    }));
    assert_eq!(
        errs,
        strings(&[
            "properties[port].oneOf[0].type: Forbidden: must be empty to be structural",
            "properties[port].oneOf[1].type: Forbidden: must be empty to be structural",
        ])
    );
    assert_structural(json!({
        "type": "object",
        "properties": {"port": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]}},
    }));
}

/// Blog, § Structural Schema ("in each sub-schema only one of `properties`,
/// `additionalProperties` or `items` may be used"): `ValidateStructural` does not check this
/// (the CRD validation rejects `properties` with a schema-valued `additionalProperties`).
#[test]
fn blog_properties_and_additional_properties_not_a_structural_error() {
    assert_structural(json!({
        "type": "object",
        "properties": {"m": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "additionalProperties": {"type": "string"},
        }},
    }));
}

/// Blog, § Extensions (`x-kubernetes-embedded-resource`: "those 3 fields are not pruned"; and
/// "within a nested `properties` or `additionalProperties` OpenAPI schema the pruning starts
/// again").
#[test]
fn blog_extensions_pruning() {
    let s = schema(json!({
        "type": "object",
        "properties": {"spec": {
            "type": "object",
            "x-kubernetes-preserve-unknown-fields": true,
            "properties": {"job": {
                "type": "object",
                "x-kubernetes-embedded-resource": true,
                "properties": {"spec": {"type": "object", "properties": {"command": {"type": "string"}}}},
            }},
            "additionalProperties": {"type": "object", "properties": {"v": {"type": "string"}}},
        }},
    }));
    let mut obj = json!({"spec": {
        "job": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"command": "c", "privileged": true}},
        "other": {"v": "x", "w": "y"},
        "scalar": 1,
    }});
    let paths = prune_tracked(&mut obj, &s, false);
    assert_eq!(
        obj,
        json!({"spec": {
            "job": {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j"}, "spec": {"command": "c"}},
            "other": {"v": "x"},
            "scalar": 1,
        }})
    );
    assert_eq!(paths, strings(&["spec.job.spec.privileged", "spec.other.w"]));
}
