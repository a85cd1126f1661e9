use serde_json::json;

use super::*;

fn schema(yaml: &str) -> Structural {
    kstruct_schema::convert::from_text(yaml).unwrap().unwrap()
}

fn errors(s: &Structural, obj: Value) -> Vec<String> {
    validate_rules(s, &obj, None, RUNTIME_COST_BUDGET)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn messages_reasons_and_field_paths_become_the_references_field_errors() {
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.min <= self.max"
    - rule: "self.min > 0"
      message: "min must be positive "
      fieldPath: ".min"
    - rule: "self.name.size() > 2"
      messageExpression: "'name ' + self.name + ' is too short'"
      reason: FieldValueForbidden
    - rule: "false"
      reason: FieldValueDuplicate
    properties:
      min: {type: integer}
      max: {type: integer}
      name:
        type: string
        x-kubernetes-validations:
        - rule: "self != 'ab'"
          messageExpression: "''"
"#,
    );
    assert_eq!(
        errors(&s, json!({"spec": {"min": 0, "max": -1, "name": "ab"}})),
        [
            "spec: Invalid value: failed rule: self.min <= self.max",
            "spec.min: Invalid value: min must be positive",
            "spec: Forbidden: name ab is too short",
            "spec: Duplicate value",
            "spec.name: Invalid value: \"ab\": failed rule: self != 'ab'",
        ]
    );
}

#[test]
fn evaluation_errors_name_the_rule_and_the_nodes_type() {
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.missing > 0"
    - rule: "self.count / 0 > 1"
      message: divides
    - rule: "self.v > 1"
    properties:
      missing: {type: integer}
      count: {type: integer}
      v: {x-kubernetes-int-or-string: true}
"#,
    );
    assert_eq!(
        errors(&s, json!({"spec": {"count": 1, "v": "x"}})),
        [
            "spec: Invalid value: \"object\": no such key: missing evaluating rule: self.missing > 0",
            "spec: Invalid value: \"object\": division by zero evaluating rule: divides",
            "spec: Invalid value: \"object\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: self.v > 1",
        ]
    );
}

#[test]
fn transition_rules_run_only_on_updates_and_lists_correlate_by_keys() {
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    properties:
      items:
        type: array
        x-kubernetes-list-type: map
        x-kubernetes-list-map-keys: [name]
        items:
          type: object
          required: [name]
          properties:
            name: {type: string}
            size: {type: integer, x-kubernetes-validations: [{rule: "self >= oldSelf", message: cannot shrink}]}
"#,
    );
    let new = json!({"spec": {"items": [{"name": "b", "size": 1}, {"name": "a", "size": 5}]}});
    assert!(errors(&s, new.clone()).is_empty());
    let old = json!({"spec": {"items": [{"name": "a", "size": 4}, {"name": "b", "size": 2}]}});
    let errs: Vec<String> = validate_rules(&s, &new, Some(&old), RUNTIME_COST_BUDGET)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(errs, ["spec.items[0].size: Invalid value: 1: cannot shrink"]);
}

#[test]
fn the_root_sees_its_name_and_escaped_properties() {
    let s = schema(
        r#"
type: object
x-kubernetes-validations:
- rule: "self.metadata.name.startsWith('w') && self.spec.x__dash__id == 1 && self.kind == 'Widget'"
properties:
  spec:
    type: object
    properties:
      x-id: {type: integer}
"#,
    );
    let ok = json!({"apiVersion": "v1", "kind": "Widget", "metadata": {"name": "w1", "namespace": "n"}, "spec": {"x-id": 1}});
    assert!(errors(&s, ok).is_empty());
    let bad = json!({"apiVersion": "v1", "kind": "Widget", "metadata": {"name": "v1"}, "spec": {"x-id": 1}});
    assert_eq!(errors(&s, bad).len(), 1);
}

#[test]
fn a_rule_past_the_per_call_limit_stops_validation() {
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    x-kubernetes-validations:
    - rule: "self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))"
    - rule: "false"
    properties:
      l: {type: array, items: {type: integer}}
"#,
    );
    let l: Vec<i64> = (0..200).collect();
    let errs = errors(&s, json!({"spec": {"l": l}}));
    assert_eq!(
        errs,
        [
            "spec: Invalid value: \"object\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.l.all(x, self.l.all(y, self.l.all(z, x + y + z >= 0)))"
        ]
    );
}

#[test]
fn rules_under_all_of_apply_to_their_node() {
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    allOf:
    - x-kubernetes-validations: [{rule: "self.a != 'x'", message: not x}]
      properties:
        b: {x-kubernetes-validations: [{rule: "self > 0"}]}
    properties:
      a: {type: string}
      b: {type: integer}
"#,
    );
    assert_eq!(
        errors(&s, json!({"spec": {"a": "x", "b": 0}})),
        [
            "spec: Invalid value: not x",
            "spec.b: Invalid value: 0: failed rule: self > 0",
        ]
    );
}

#[test]
fn an_embedded_resource_that_declares_its_metadata_shows_all_of_it() {
    // `WithTypeAndObjectMeta` keeps a schema that declares kind, apiVersion and metadata's
    // name and generateName: its other properties (metadata.namespace) stay visible.
    let s = schema(
        r#"
type: object
x-kubernetes-validations:
- rule: "self.embedded.metadata.namespace == 'ns' && self.embedded.spec.if == 'x'"
- rule: "!has(self.bare.metadata.namespace) && self.bare.metadata.name == 'b'"
properties:
  embedded:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      kind: {type: string}
      apiVersion: {type: string}
      metadata:
        type: object
        properties:
          name: {type: string}
          generateName: {type: string}
          namespace: {type: string}
      spec: {type: object, properties: {if: {type: string}}}
  bare:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      metadata: {type: object, properties: {namespace: {type: string}}}
"#,
    );
    let obj = json!({
        "embedded": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "e", "namespace": "ns"}, "spec": {"if": "x"}},
        "bare": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "namespace": "ns"}},
    });
    assert_eq!(errors(&s, obj), Vec::<String>::new());
}

#[test]
fn objects_compare_with_their_unknown_fields() {
    // `self == oldSelf` on an object that keeps unknown fields sees a change to one of them,
    // as the API server's object equality does (member counts, then each member).
    let s = schema(
        r#"
type: object
properties:
  spec:
    type: object
    x-kubernetes-preserve-unknown-fields: true
    x-kubernetes-validations:
    - rule: "self == oldSelf"
      message: immutable
    properties:
      a: {type: integer}
"#,
    );
    let update = |new: Value, old: Value| -> Vec<String> {
        validate_rules_update(&s, &new, Some(&old), RUNTIME_COST_BUDGET)
            .errors
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    let immutable = vec!["spec: Invalid value: immutable".to_owned()];
    assert_eq!(
        update(json!({"spec": {"a": 1, "x": 2}}), json!({"spec": {"a": 1, "x": 1}})),
        immutable
    );
    assert_eq!(
        update(json!({"spec": {"a": 1, "x": 2}}), json!({"spec": {"a": 1}})),
        immutable
    );
    // An integer and a float are different JSON values, though equal numbers.
    assert_eq!(
        update(json!({"spec": {"a": 1, "x": 1}}), json!({"spec": {"a": 1, "x": 1.0}})),
        immutable
    );
    // A property set to null is absent, but still a member.
    assert_eq!(update(json!({"spec": {"a": null}}), json!({"spec": {}})), immutable);
}

#[test]
fn values_that_do_not_fit_the_schema_are_errors_when_read() {
    // `validate_rules` alone (without OpenAPI validation first) sees what the API server's
    // conversion makes of data of the wrong type: an error value, raised when read.
    let s = schema(
        r#"
type: object
x-kubernetes-validations:
- rule: "has(self.o)"
- rule: "self.count == 1"
- rule: "self.l[0] == 'x'"
- rule: "self.ok == 'fine'"
properties:
  o: {type: object, properties: {f: {type: string}}}
  count: {type: integer}
  l: {type: array, items: {type: string}}
  ok: {type: string}
"#,
    );
    let obj = json!({"o": "text", "count": 1.5, "l": [null], "ok": "fine"});
    assert_eq!(
        errors(&s, obj),
        [
            "<nil>: Invalid value: \"object\": invalid data, expected a map for the provided schema with type=object evaluating rule: has(self.o)",
            "<nil>: Invalid value: \"object\": invalid data, expected int, got float64 evaluating rule: self.count == 1",
            "<nil>: Invalid value: \"object\": invalid data, got null for schema with nullable=false evaluating rule: self.l[0] == 'x'",
        ]
    );
}
