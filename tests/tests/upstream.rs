//! The upstream test vectors (../shared/conformance/upstream): the reference's own test tables,
//! run through kstruct. Each test prints `conformance <suite>: matched/total match`.

use kstruct::interpreter::{default, prune, prune_nulls};
use kstruct::objectmeta::{CoerceOptions, GetOptions, coerce, get_object_meta};
use kstruct::schema::field::Path;
use kstruct::schema::validation::{ValidationOptions, validate_structural, validate_structural_completeness};
use kstruct_tests::{Tally, expect_json, parse_json_text, read_jsonl, require_shared, table_schema};
use serde_json::{Value, json};

fn cases(file: &str, test: &str) -> Option<Vec<Value>> {
    let shared = require_shared(&format!("upstream {file} {test}"))?;
    let lines = read_jsonl(&shared.join("conformance/upstream").join(file));
    let cases: Vec<Value> = lines.into_iter().filter(|l| l["test"] == test).collect();
    assert!(!cases.is_empty(), "{file}: no {test} cases");
    Some(cases)
}

fn id(line: &Value) -> String {
    format!(
        "{}[{}] {}",
        line["test"].as_str().unwrap_or(""),
        line["index"],
        line["case"]["name"]
    )
}

#[test]
fn pruning() {
    let Some(cases) = cases("pruning.jsonl", "TestPrune") else {
        return;
    };
    let mut tally = Tally::new("upstream pruning (TestPrune)");
    for line in &cases {
        let c = &line["case"];
        let schema = table_schema(&c["schema"]);
        let mut obj = parse_json_text(&c["json"]);
        let root = c["isResourceRoot"].as_bool().unwrap_or(false);
        let pruned = prune(&mut obj, schema.as_ref(), root, true);
        let want_paths = match &c["expectedPruned"] {
            Value::Null => json!([]),
            v => v.clone(),
        };
        let result = expect_json("object", &obj, &parse_json_text(&c["expectedObject"]))
            .and_then(|()| expect_json("pruned paths", &json!(pruned), &want_paths));
        tally.check(id(line), result);
    }
    tally.finish();
}

#[test]
fn defaulting() {
    let Some(cases) = cases("defaulting.jsonl", "TestDefault") else {
        return;
    };
    let mut tally = Tally::new("upstream defaulting (TestDefault)");
    for line in &cases {
        let c = &line["case"];
        let schema = table_schema(&c["schema"]);
        let mut obj = parse_json_text(&c["json"]);
        default(&mut obj, schema.as_ref());
        tally.check(id(line), expect_json("object", &obj, &parse_json_text(&c["expected"])));
    }
    tally.finish();
}

#[test]
fn null_pruning() {
    let Some(cases) = cases("defaulting.jsonl", "TestPruneNonNullableNullsWithoutDefaults") else {
        return;
    };
    let mut tally = Tally::new("upstream null pruning (TestPruneNonNullableNullsWithoutDefaults)");
    for line in &cases {
        let c = &line["case"];
        let schema = table_schema(&c["schema"]);
        let mut obj = parse_json_text(&c["json"]);
        prune_nulls(&mut obj, schema.as_ref());
        tally.check(id(line), expect_json("object", &obj, &parse_json_text(&c["expected"])));
    }
    tally.finish();
}

#[test]
fn structural_completeness() {
    let Some(cases) = cases("structural_validation.jsonl", "TestValidateStructuralCompleteness") else {
        return;
    };
    let mut tally = Tally::new("upstream structural (TestValidateStructuralCompleteness)");
    for line in &cases {
        let c = &line["case"];
        let mut schema_json = c["schema"].clone();
        // The dump went through ToKubeOpenAPI, which drops `additionalProperties` inside value
        // validations. This case's Go table has `allOf: [{additionalProperties: {}}]`; put it
        // back so that the schema is the one the expectation belongs to.
        if c["name"] == "disallowed additionalproperties valuevalidation, properties structure" {
            schema_json["$structural"]["allOf"][0]["additionalProperties"] = json!({});
        }
        let schema = table_schema(&schema_json).expect("schema");
        let o = &c["options"];
        let opts = ValidationOptions {
            allow_nested_additional_properties: o["AllowNestedAdditionalProperties"] == true,
            allow_nested_x_validations: o["AllowNestedXValidations"] == true,
            allow_validation_properties_with_additional_properties: o["AllowValidationPropertiesWithAdditionalProperties"]
                == true,
        };
        let errors: Vec<String> = validate_structural_completeness(&Path::nil(), &schema, opts)
            .iter()
            .map(|e| e.to_string())
            .collect();
        let want: Vec<String> = match c["error"].as_str() {
            Some("") | None => vec![],
            Some(e) => vec![e.to_string()],
        };
        let result = if errors == want {
            Ok(())
        } else {
            Err(format!("got {errors:?}, want {want:?}"))
        };
        tally.check(id(line), result);
    }
    tally.finish();
}

/// The CRD-validation table's schemas, checked against what running the reference's
/// `NewStructural` + `ValidateStructural` on them printed (`structural_actual`).
#[test]
fn crd_validation_structural_part() {
    let Some(shared) = require_shared("upstream crdvalidation_schema structural part") else {
        return;
    };
    let dir = shared.join("conformance/upstream");
    let inputs = read_jsonl(&dir.join("crdvalidation_schema.jsonl"));
    let actual = read_jsonl(&dir.join("crdvalidation_schema.structural_actual.jsonl"));
    let mut tally = Tally::new("upstream crdvalidation_schema (structural part)");
    for want in &actual {
        let index = want["index"].as_u64().expect("index") as usize;
        let input = &inputs[index]["case"]["input"]["openAPIV3Schema"];
        let id = format!("[{index}] {}", want["name"]);
        if want.get("skipped").is_some() {
            tally.check(
                id,
                if input.is_null() {
                    Ok(())
                } else {
                    Err("expected no schema".into())
                },
            );
            continue;
        }
        let result = match kstruct::schema::convert::from_value(input) {
            Err(e) => match want["newStructuralError"].as_str() {
                Some(w) if w == e.to_string() => Ok(()),
                _ => Err(format!("conversion failed with {e:?}, want {}", want)),
            },
            Ok(schema) => {
                let root = Path::new("spec").child("validation").child("openAPIV3Schema");
                let got: Vec<String> = match &schema {
                    Some(s) => validate_structural(&root, s).iter().map(|e| e.to_string()).collect(),
                    None => vec![],
                };
                expect_json("messages", &json!(got), &want["validateStructural"])
            }
        };
        tally.check(id, result);
    }
    tally.finish();
}

/// An expected error of a table as `<errorType> <path>`.
fn error_key(e: &Value) -> String {
    format!(
        "{} {}",
        e["errorType"].as_str().unwrap_or(""),
        e["path"]["$path"].as_str().unwrap_or("")
    )
}

/// The error types and paths of `errors` (a table's expectation), sorted.
fn expected_errors(errors: &Value) -> Vec<String> {
    let mut out: Vec<String> = errors
        .as_array()
        .map(|l| l.iter().map(error_key).collect())
        .unwrap_or_default();
    out.sort();
    out
}

/// The same of errors kstruct found.
fn found_errors(errors: &[kstruct::schema::field::FieldError]) -> Vec<String> {
    let mut out: Vec<String> = errors
        .iter()
        .map(|e| format!("{} {}", e.kind.go_name(), e.field))
        .collect();
    out.sort();
    out
}

/// The schema node at `path` (`properties[a].items...` below the root), if any.
fn schema_node<'a>(root: &'a Value, path: &str) -> Option<&'a Value> {
    let mut node = root;
    let mut rest = path;
    while !rest.is_empty() {
        rest = rest.strip_prefix('.').unwrap_or(rest);
        if let Some(r) = rest.strip_prefix("properties[") {
            let end = r.find(']')?;
            node = node.get("properties")?.get(&r[..end])?;
            rest = &r[end + 1..];
        } else if let Some(r) = rest.strip_prefix("items") {
            node = node.get("items")?;
            rest = r;
        } else {
            return None;
        }
    }
    Some(node)
}

/// Whether an expected error of the CRD-validation table can only come from compiling or
/// running CEL (a rule's or messageExpression's compile error, cost, oldSelf use, a default
/// that breaks a rule): counted apart, as kstruct finds only part of them.
fn needs_cel_compiler(error: &Value, schema: &Value) -> bool {
    let path = error["path"]["$path"].as_str().unwrap_or("");
    let kind = error["errorType"].as_str().unwrap_or("");
    let default_breaks_rule = kind == "FieldValueInvalid"
        && path
            .strip_prefix("spec.validation.openAPIV3Schema")
            .and_then(|p| p.strip_suffix(".default"))
            .and_then(|p| schema_node(schema, p))
            .is_some_and(|n| n.get("x-kubernetes-validations").is_some());
    if default_breaks_rule {
        return true;
    }
    let compiled = [".rule", ".messageExpression", ".optionalOldSelf"]
        .iter()
        .any(|end| path.ends_with(end));
    (path.contains("x-kubernetes-validations") && compiled && kind != "FieldValueRequired")
        || (path == "spec.validation.openAPIV3Schema" && kind == "FieldValueForbidden")
}

/// The compatibility version of a case's `environment.MustBaseEnvSet(version.MajorMinor(1,
/// 30))`; the server's own when the case sets none.
fn cel_environment(set: Option<&str>) -> kstruct::cel::Compatibility {
    let Some(args) = set.and_then(|s| s.split("MajorMinor(").nth(1)) else {
        return kstruct::cel::Compatibility::DEFAULT;
    };
    let digits: String = args
        .chars()
        .take_while(|c| *c != ')')
        .filter(|c| !c.is_whitespace())
        .collect();
    let version = digits.replace(',', ".");
    version
        .parse()
        .unwrap_or_else(|e| panic!("case environment {set:?}: {e}"))
}

/// The CRD-validation table in full: every (error type, path) the reference's
/// `validateCustomResourceDefinitionValidation` gives, as a multiset, with each case's options.
/// Cases whose expectations include CEL compilation results are checked without those.
#[test]
fn crd_validation_schema_rules() {
    let Some(cases) = cases(
        "crdvalidation_schema.jsonl",
        "TestValidateCustomResourceDefinitionValidation",
    ) else {
        return;
    };
    let mut plain = Tally::new("upstream crdvalidation (CEL-free cases)");
    let mut with_cel = Tally::new("upstream crdvalidation (CEL cases, their CEL-free errors)");
    let (mut cel_found, mut cel_all) = (0usize, 0usize);
    for line in &cases {
        let case = &line["case"];
        let o = &case["opts"];
        let flag = |k: &str| o[k].as_bool().unwrap_or(false);
        let opts = kstruct::schema::validation::openapi::SchemaOptions {
            allow_defaults: flag("allowDefaults"),
            disallow_defaults_reason: o["disallowDefaultsReason"].as_str().unwrap_or("").to_string(),
            require_valid_property_type: flag("requireValidPropertyType"),
            require_structural_schema: flag("requireStructuralSchema"),
            require_atomic_set_type: flag("requireAtomicSetType"),
            require_map_list_keys_map_set_validation: flag("requireMapListKeysMapSetValidation"),
            cel_compatibility: cel_environment(o["celEnvironmentSet"].as_str()),
        };
        let schema = &case["input"]["openAPIV3Schema"];
        let status = case["statusEnabled"].as_bool().unwrap_or(false);
        let path = Path::new("spec").child("validation");
        let got = kstruct::lint::validate_crd_schema(&path, schema, status, &opts, flag("requirePrunedDefaults"));
        let expected: Vec<&Value> = case["expectedErrors"]
            .as_array()
            .map(|v| v.iter().collect())
            .unwrap_or_default();
        let cel = expected.iter().any(|e| needs_cel_compiler(e, schema));
        let mut want: Vec<String> = expected
            .iter()
            .filter(|e| !needs_cel_compiler(e, schema))
            .map(|e| error_key(e))
            .collect();
        let result = match got {
            Err(e) => Err(format!("schema does not decode: {e}")),
            Ok(errors) => {
                let ours: Vec<Value> = errors
                    .iter()
                    .map(|e| json!({"errorType": e.kind.go_name(), "path": {"$path": e.field}}))
                    .collect();
                let key = error_key;
                let mut have: Vec<String> = ours
                    .iter()
                    .filter(|e| !needs_cel_compiler(e, schema))
                    .map(key)
                    .collect();
                have.sort();
                want.sort();
                // What kstruct finds of the CEL results (rules that do not parse) must be among
                // the reference's.
                let mut cel_expected: Vec<String> = expected
                    .iter()
                    .filter(|e| needs_cel_compiler(e, schema))
                    .map(|e| key(e))
                    .collect();
                let cel_total = cel_expected.len();
                let stray: Vec<String> = ours
                    .iter()
                    .filter(|e| needs_cel_compiler(e, schema))
                    .map(key)
                    .filter(|k| match cel_expected.iter().position(|c| c == k) {
                        Some(i) => {
                            cel_expected.remove(i);
                            false
                        }
                        None => true,
                    })
                    .collect();
                cel_found += cel_total - cel_expected.len();
                cel_all += cel_total;
                // KSTRUCT_SHOW_ALL=1 lists the CEL errors kstruct does not find.
                if std::env::var_os("KSTRUCT_SHOW_ALL").is_some() && !cel_expected.is_empty() {
                    kstruct_tests::announce(&format!("  {} misses {cel_expected:?}", id(line)));
                }
                if have == want && stray.is_empty() {
                    Ok(())
                } else {
                    let text: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    Err(format!(
                        "got {have:?}\n  want {want:?}\n  CEL findings the reference lacks {stray:?}\n  messages {text:#?}"
                    ))
                }
            }
        };
        if cel {
            with_cel.check(id(line), result)
        } else {
            plain.check(id(line), result)
        }
    }
    kstruct_tests::announce(&format!(
        "upstream crdvalidation: CEL errors kstruct also finds (rules that do not compile, type-check or fit the cost budget, typeless nodes): \
         {cel_found} of the reference's {cel_all}, none it lacks"
    ));
    plain.finish();
    with_cel.finish();
}

/// `ValidateListSetsAndMaps`: duplicates in set and map lists, from the root path `root`.
#[test]
fn list_types() {
    let Some(cases) = cases("listtype.jsonl", "TestValidateListSetsAndMaps") else {
        return;
    };
    let mut tally = Tally::new("upstream listtype");
    for line in &cases {
        let case = &line["case"];
        // The object's keys are a Go map: the reference's order across keys is random.
        let got = match table_schema(&case["schema"]) {
            None => vec![],
            Some(schema) => found_errors(&kstruct::validation::validate_list_types(
                Some(&Path::new("root")),
                &schema,
                &case["obj"],
            )),
        };
        let want = expected_errors(&case["errors"]);
        tally.check(id(line), expect_json("errors", &json!(got), &json!(want)));
    }
    tally.finish();
}

/// objectmeta's `validateEmbeddedResource` (TestValidateEmbeddedResource) and `Validate`
/// (TestValidate, with the test's fixed schema of embedded resources at every kind of position).
#[test]
fn objectmeta_validate() {
    let Some(embedded) = cases("objectmeta.jsonl", "TestValidateEmbeddedResource") else {
        return;
    };
    let Some(walks) = cases("objectmeta.jsonl", "TestValidate") else {
        return;
    };
    let mut tally = Tally::new("upstream objectmeta (TestValidateEmbeddedResource, TestValidate)");
    for line in &embedded {
        let case = &line["case"];
        let got = kstruct::objectmeta::validate(&Path::nil(), &case["object"], None, true);
        tally.check(
            id(line),
            expect_json(
                "errors",
                &json!(found_errors(&got)),
                &json!(expected_errors(&case["errors"])),
            ),
        );
    }
    let embedded_node = json!({"x-kubernetes-embedded-resource": true});
    let schema = kstruct::schema::convert::from_value(&json!({"properties": {
        "embedded": embedded_node,
        "nested": {"x-kubernetes-embedded-resource": true, "properties": {"embedded": embedded_node}},
        "items": {"items": embedded_node},
        "additionalProperties": {"additionalProperties": embedded_node},
    }}))
    .unwrap()
    .unwrap();
    for line in &walks {
        let case = &line["case"];
        let object = parse_json_text(&case["object"]);
        let root = case["includeRoot"].as_bool().unwrap_or(false);
        let got = kstruct::objectmeta::validate(&Path::nil(), &object, Some(&schema), root);
        tally.check(
            id(line),
            expect_json(
                "errors",
                &json!(found_errors(&got)),
                &json!(expected_errors(&case["errors"])),
            ),
        );
    }
    tally.finish();
}

#[test]
fn objectmeta_coerce() {
    let Some(cases) = cases("objectmeta.jsonl", "TestCoerce") else {
        return;
    };
    let mut tally = Tally::new("upstream objectmeta (TestCoerce)");
    for line in &cases {
        let c = &line["case"];
        let schema = table_schema(&c["schema"]);
        let mut obj = parse_json_text(&c["json"]);
        let opts = CoerceOptions {
            drop_invalid_fields: c["dropInvalidFields"] == true,
            return_unknown_field_paths: true,
        };
        let root = c["includeRoot"] == true;
        let result = match coerce(&Path::nil(), &mut obj, schema.as_ref(), root, opts) {
            Err(_) if c["expectedError"] == true => Ok(()),
            Err(e) => Err(format!("unexpected error {e}")),
            Ok(_) if c["expectedError"] == true => Err("expected an error".into()),
            Ok(unknown) => {
                let want_unknown = match &c["expectedUnknownFields"] {
                    Value::Null => json!([]),
                    v => v.clone(),
                };
                expect_json("object", &obj, &parse_json_text(&c["expected"]))
                    .and_then(|()| expect_json("unknown fields", &json!(unknown), &want_unknown))
            }
        };
        tally.check(id(line), result);
    }
    tally.finish();
}

#[test]
fn objectmeta_get() {
    let Some(cases) = cases("objectmeta.jsonl", "TestGetObjectMetaWithOptions") else {
        return;
    };
    let mut tally = Tally::new("upstream objectmeta (TestGetObjectMetaWithOptions)");
    for line in &cases {
        let c = &line["case"];
        let obj = c["obj"].as_object().expect("obj");
        let opts = GetOptions {
            drop_malformed_fields: c["dropMalformedFields"] == true,
            return_unknown_field_paths: c["returnUnknownFieldPaths"] == true,
            parent_path: None,
        };
        let result = match get_object_meta(obj, &opts) {
            Err(e) => match c["expectedErr"].as_str() {
                Some(w) if w == e => Ok(()),
                _ => Err(format!("unexpected error {e:?}")),
            },
            Ok(found) => {
                let want_unknown = match &c["expectedUnknownPaths"] {
                    Value::Null => json!([]),
                    v => v.clone(),
                };
                let got = found.meta.map(|m| m.to_value()).unwrap_or(Value::Null);
                if c["expectedErr"].as_str().is_some_and(|e| !e.is_empty()) {
                    Err(format!("expected error {}", c["expectedErr"]))
                } else {
                    expect_json("metadata", &got, &c["expectedObject"]["value"])
                        .and_then(|()| expect_json("unknown paths", &json!(found.unknown_fields), &want_unknown))
                }
            }
        };
        tally.check(id(line), result);
    }
    tally.finish();
}
