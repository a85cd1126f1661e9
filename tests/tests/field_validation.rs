//! The custom-resource cases of Kubernetes' field-validation integration test
//! (kubernetes/kubernetes `test/integration/apiserver/field_validation_test.go`): create (POST),
//! update (PUT), merge patch, JSON patch, server-side apply create and update, each with
//! fieldValidation Strict, Warn, Ignore and unset, on the CRD with a schema and on the one whose
//! `spec` preserves unknown fields; then the finalizer warnings of apply. The bodies and the
//! expected errors and warnings are the test's; this harness plays the server with kstruct's
//! library, through the interpreter and through compiled CRDs.
//!
//! As the test does: errors are compared by suffix, warnings exactly and in order, status
//! codes not at all. Where the test chains requests (a create before an update, an apply
//! before a patch), the first result is the stored object, with the `resourceVersion` the
//! store would give it.

use kstruct::decode::{self, DecodeOptions, Decoded, FieldValidation, Resolve};
use kstruct::{BodyFormat, Error, RegisteredCrd, patch};
use kstruct_tests::{announce, compiled};
use serde_json::Value;

// The test's request bodies: Go format strings, filled in as its `fmt.Sprintf` calls fill them.
const INVALID_BODY: &str = r#"
{
	"apiVersion": "%s",
	"kind": "%s",
	"metadata": {
		"name": "dupename",
		"name": "%s",
		"unknownMeta": "metaVal",
		"resourceVersion": "%s"
	},
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns",
				"unknownEmbeddedMeta": "foo"
			}
		}
	}
}"#;
const VALID_BODY: &str = r#"
{
	"apiVersion": "%s",
	"kind": "%s",
	"metadata": {
		"name": "%s",
		"resourceVersion": "%s"
	},
	"spec": {
		"knownField1": "val1",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081
			}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm"
			}
		}
	}
}
	"#;
const INVALID_BODY_YAML: &str = r#"
apiVersion: "%s"
kind: "%s"
metadata:
  name: dupename
  name: "%s"
  resourceVersion: "%s"
  unknownMeta: metaVal
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  knownField1: val1
  knownField1: val2
  ports:
  - name: portName
    containerPort: 8080
    protocol: TCP
    hostPort: 8081
    hostPort: 8082
    unknownNested: val
  embeddedObj:
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: my-cm
      namespace: my-ns
      unknownEmbeddedMeta: foo"#;
const APPLY_INVALID_BODY: &str = r#"
{
	"apiVersion": "%s",
	"kind": "%s",
	"metadata": {
		"name": "%s"
	},
	"spec": {
		"knownField1": "val1",
		"knownField1": "val2",
		"ports": [{
			"name": "portName",
			"containerPort": 8080,
			"protocol": "TCP",
			"hostPort": 8081,
			"hostPort": 8082
		}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns"
			}
		}
	}
}"#;
const APPLY_VALID_BODY: &str = r#"
{
	"apiVersion": "%s",
	"kind": "%s",
	"metadata": {
		"name": "%s"
	},
	"spec": {
		"knownField1": "val1",
		"ports": [{
			"name": "portName",
			"containerPort": 8080,
			"protocol": "TCP",
			"hostPort": 8082
		}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns"
			}
		}
	}
}"#;
const APPLY_FINALIZER_BODY: &str = r#"
{
	"apiVersion": "%s",
	"kind": "%s",
	"metadata": {
		"name": "%s",
		"finalizers": %s
	},
	"spec": {
		"knownField1": "val1",
		"ports": [{
			"name": "portName",
			"containerPort": 8080,
			"protocol": "TCP",
			"hostPort": 8082
		}],
		"embeddedObj": {
			"apiVersion": "v1",
			"kind": "ConfigMap",
			"metadata": {
				"name": "my-cm",
				"namespace": "my-ns"
			}
		}
	}
}"#;
const PATCH_YAML_BODY: &str = r#"
apiVersion: %s
kind: %s
metadata:
  name: %s
  finalizers:
  - test/finalizer
spec:
  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP
"#;
const PATCH_YAML_BODY_LOCAL: &str = r#"
apiVersion: %s
kind: %s
metadata:
  name: %s
  finalizers:
  - test/finalizer
spec:
  cronSpec: "* * * * */5"
  ports:
  - name: x
    containerPort: 80
    protocol: TCP"#;
const MERGE_PATCH_BODY: &str = r#"
{
	"spec": {
		"unknown1": "val1",
		"unknownDupe": "valDupe",
		"unknownDupe": "valDupe2",
		"knownField1": "val1",
		"knownField1": "val2",
			"ports": [{
				"name": "portName",
				"containerPort": 8080,
				"protocol": "TCP",
				"hostPort": 8081,
				"hostPort": 8082,
				"unknownNested": "val"
			}]
	}
}
	"#;
const JSON_PATCH_BODY: &str = r#"
			[
				{"op": "add", "path": "/spec/unknown1", "value": "val1", "foo": "bar"},
				{"op": "add", "path": "/spec/unknown2", "path": "/spec/unknown3", "value": "val2"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe"},
				{"op": "add", "path": "/spec/unknownDupe", "value": "valDupe2"},
				{"op": "add", "path": "/spec/knownField1", "value": "val1"},
				{"op": "add", "path": "/spec/knownField1", "value": "val2"},
				{"op": "add", "path": "/spec/ports/0/name", "value": "portName"},
				{"op": "add", "path": "/spec/ports/0/containerPort", "value": 8080},
				{"op": "add", "path": "/spec/ports/0/protocol", "value": "TCP"},
				{"op": "add", "path": "/spec/ports/0/hostPort", "value": 8081},
				{"op": "add", "path": "/spec/ports/0/hostPort", "value": 8082},
				{"op": "add", "path": "/spec/ports/0/unknownNested", "value": "val"}
			]
			"#;

/// What a strict request must fail with (its suffix), and the warnings of the others.
struct Expect {
    error_suffix: &'static str,
    warnings: &'static [&'static str],
}

const CREATE_JSON: Expect = Expect {
    error_suffix: r#"strict decoding error: duplicate field "metadata.name", duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    warnings: &[
        r#"duplicate field "metadata.name""#,
        r#"duplicate field "spec.unknownDupe""#,
        r#"duplicate field "spec.knownField1""#,
        r#"duplicate field "spec.ports[0].hostPort""#,
        r#"unknown field "metadata.unknownMeta""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.unknown1""#,
        r#"unknown field "spec.unknownDupe""#,
        r#"unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    ],
};

const CREATE_YAML: Expect = Expect {
    error_suffix: r#"strict decoding error: yaml: unmarshal errors:
  line 6: key "name" already set in map
  line 12: key "unknownDupe" already set in map
  line 14: key "knownField1" already set in map
  line 20: key "hostPort" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    warnings: &[
        r#"line 6: key "name" already set in map"#,
        r#"line 12: key "unknownDupe" already set in map"#,
        r#"line 14: key "knownField1" already set in map"#,
        r#"line 20: key "hostPort" already set in map"#,
        r#"unknown field "metadata.unknownMeta""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.unknown1""#,
        r#"unknown field "spec.unknownDupe""#,
        r#"unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    ],
};

const MERGE_PATCH: Expect = Expect {
    error_suffix: r#"strict decoding error: duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknownDupe""#,
    warnings: &[
        r#"duplicate field "spec.unknownDupe""#,
        r#"duplicate field "spec.knownField1""#,
        r#"duplicate field "spec.ports[0].hostPort""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.unknown1""#,
        r#"unknown field "spec.unknownDupe""#,
    ],
};

const JSON_PATCH: Expect = Expect {
    error_suffix: r#"strict decoding error: json patch unknown field "[0].foo", json patch duplicate field "[1].path", unknown field "spec.ports[0].unknownNested", unknown field "spec.unknown1", unknown field "spec.unknown3", unknown field "spec.unknownDupe""#,
    warnings: &[
        r#"json patch unknown field "[0].foo""#,
        r#"json patch duplicate field "[1].path""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.unknown1""#,
        r#"unknown field "spec.unknown3""#,
        r#"unknown field "spec.unknownDupe""#,
    ],
};

const APPLY: Expect = Expect {
    error_suffix: r#"error strict decoding patch: error converting YAML to JSON: yaml: unmarshal errors:
  line 10: key "knownField1" already set in map
  line 16: key "hostPort" already set in map"#,
    warnings: &[
        r#"line 10: key "knownField1" already set in map"#,
        r#"line 16: key "hostPort" already set in map"#,
    ],
};

const SCHEMALESS_CREATE_JSON: Expect = Expect {
    error_suffix: r#"strict decoding error: duplicate field "metadata.name", duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    warnings: &[
        r#"duplicate field "metadata.name""#,
        r#"duplicate field "spec.unknownDupe""#,
        r#"duplicate field "spec.knownField1""#,
        r#"duplicate field "spec.ports[0].hostPort""#,
        r#"unknown field "metadata.unknownMeta""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    ],
};

const SCHEMALESS_CREATE_YAML: Expect = Expect {
    error_suffix: r#"strict decoding error: yaml: unmarshal errors:
  line 6: key "name" already set in map
  line 12: key "unknownDupe" already set in map
  line 14: key "knownField1" already set in map
  line 20: key "hostPort" already set in map, unknown field "metadata.unknownMeta", unknown field "spec.ports[0].unknownNested", unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    warnings: &[
        r#"line 6: key "name" already set in map"#,
        r#"line 12: key "unknownDupe" already set in map"#,
        r#"line 14: key "knownField1" already set in map"#,
        r#"line 20: key "hostPort" already set in map"#,
        r#"unknown field "metadata.unknownMeta""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
        r#"unknown field "spec.embeddedObj.metadata.unknownEmbeddedMeta""#,
    ],
};

const SCHEMALESS_MERGE_PATCH: Expect = Expect {
    error_suffix: r#"strict decoding error: duplicate field "spec.unknownDupe", duplicate field "spec.knownField1", duplicate field "spec.ports[0].hostPort", unknown field "spec.ports[0].unknownNested""#,
    warnings: &[
        r#"duplicate field "spec.unknownDupe""#,
        r#"duplicate field "spec.knownField1""#,
        r#"duplicate field "spec.ports[0].hostPort""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
    ],
};

const SCHEMALESS_JSON_PATCH: Expect = Expect {
    error_suffix: r#"strict decoding error: json patch unknown field "[0].foo", json patch duplicate field "[1].path", unknown field "spec.ports[0].unknownNested""#,
    warnings: &[
        r#"json patch unknown field "[0].foo""#,
        r#"json patch duplicate field "[1].path""#,
        r#"unknown field "spec.ports[0].unknownNested""#,
    ],
};

/// The request a case makes.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verb {
    Post,
    Put,
    MergePatch,
    JsonPatch,
    Apply,
}

/// What a test function sends, after its setup request, and what it expects.
struct Suite {
    /// The test function.
    name: &'static str,
    schemaless: bool,
    /// The request that stores the object first, and its body.
    setup: Option<(Verb, &'static str)>,
    verb: Verb,
    /// Each body (JSON, or YAML with `application/yaml`) and what it gets.
    bodies: &'static [(&'static str, bool, &'static Expect)],
}

const SUITES: &[Suite] = &[
    Suite {
        name: "testFieldValidationPostCRD",
        schemaless: false,
        setup: None,
        verb: Verb::Post,
        bodies: &[
            (INVALID_BODY, false, &CREATE_JSON),
            (INVALID_BODY_YAML, true, &CREATE_YAML),
        ],
    },
    Suite {
        name: "testFieldValidationPutCRD",
        schemaless: false,
        setup: Some((Verb::Post, VALID_BODY)),
        verb: Verb::Put,
        bodies: &[
            (INVALID_BODY, false, &CREATE_JSON),
            (INVALID_BODY_YAML, true, &CREATE_YAML),
        ],
    },
    Suite {
        name: "testFieldValidationPatchCRD (merge)",
        schemaless: false,
        setup: Some((Verb::Apply, PATCH_YAML_BODY_LOCAL)),
        verb: Verb::MergePatch,
        bodies: &[(MERGE_PATCH_BODY, false, &MERGE_PATCH)],
    },
    Suite {
        name: "testFieldValidationPatchCRD (json)",
        schemaless: false,
        setup: Some((Verb::Apply, PATCH_YAML_BODY_LOCAL)),
        verb: Verb::JsonPatch,
        bodies: &[(JSON_PATCH_BODY, false, &JSON_PATCH)],
    },
    Suite {
        name: "testFieldValidationApplyCreateCRD",
        schemaless: false,
        setup: None,
        verb: Verb::Apply,
        bodies: &[(APPLY_INVALID_BODY, true, &APPLY)],
    },
    Suite {
        name: "testFieldValidationApplyUpdateCRD",
        schemaless: false,
        setup: Some((Verb::Apply, APPLY_VALID_BODY)),
        verb: Verb::Apply,
        bodies: &[(APPLY_INVALID_BODY, true, &APPLY)],
    },
    Suite {
        name: "testFieldValidationPostCRDSchemaless",
        schemaless: true,
        setup: None,
        verb: Verb::Post,
        bodies: &[
            (INVALID_BODY, false, &SCHEMALESS_CREATE_JSON),
            (INVALID_BODY_YAML, true, &SCHEMALESS_CREATE_YAML),
        ],
    },
    Suite {
        name: "testFieldValidationPutCRDSchemaless",
        schemaless: true,
        setup: Some((Verb::Post, VALID_BODY)),
        verb: Verb::Put,
        bodies: &[
            (INVALID_BODY, false, &SCHEMALESS_CREATE_JSON),
            (INVALID_BODY_YAML, true, &SCHEMALESS_CREATE_YAML),
        ],
    },
    Suite {
        name: "testFieldValidationPatchCRDSchemaless (merge)",
        schemaless: true,
        setup: Some((Verb::Apply, PATCH_YAML_BODY)),
        verb: Verb::MergePatch,
        bodies: &[(MERGE_PATCH_BODY, false, &SCHEMALESS_MERGE_PATCH)],
    },
    Suite {
        name: "testFieldValidationPatchCRDSchemaless (json)",
        schemaless: true,
        setup: Some((Verb::Apply, PATCH_YAML_BODY)),
        verb: Verb::JsonPatch,
        bodies: &[(JSON_PATCH_BODY, false, &SCHEMALESS_JSON_PATCH)],
    },
    Suite {
        name: "testFieldValidationApplyCreateCRDSchemaless",
        schemaless: true,
        setup: None,
        verb: Verb::Apply,
        bodies: &[(APPLY_INVALID_BODY, true, &APPLY)],
    },
    Suite {
        name: "testFieldValidationApplyUpdateCRDSchemaless",
        schemaless: true,
        setup: Some((Verb::Apply, APPLY_VALID_BODY)),
        verb: Verb::Apply,
        bodies: &[(APPLY_INVALID_BODY, true, &APPLY)],
    },
];

/// Go's `fmt.Sprintf` with `%s` verbs only: a verb without an argument prints `%!s(MISSING)`
/// (the test's create bodies have one argument too few; the server takes them).
fn sprintf(template: &str, args: &[&str]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut rest = template;
    while let Some(i) = rest.find("%s") {
        out.push_str(&rest[..i]);
        out.push_str(args.next().copied().unwrap_or("%!s(MISSING)"));
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// The resourceVersion the store gives the object the setup request wrote.
const STORED_RV: &str = "1";

fn options(field_validation: Option<FieldValidation>, yaml: bool) -> DecodeOptions {
    DecodeOptions {
        field_validation: field_validation.unwrap_or_default(),
        format: if yaml { BodyFormat::Yaml } else { BodyFormat::Json },
        validate: true,
        ..DecodeOptions::default()
    }
}

/// One request as the server would answer it.
fn send<R: Resolve + ?Sized>(
    target: &R,
    verb: Verb,
    existing: Option<&Value>,
    body: &str,
    options: &DecodeOptions,
) -> Result<Decoded, Error> {
    let body = body.as_bytes();
    match verb {
        Verb::Post => decode::request_in(target, body, options, None),
        Verb::Put => decode::update(target, existing.expect("a stored object"), body, options),
        Verb::MergePatch => patch::merge(target, existing.expect("a stored object"), body, options),
        Verb::JsonPatch => patch::json(target, existing.expect("a stored object"), body, options),
        Verb::Apply => patch::apply(target, existing, body, options),
    }
}

/// Runs every case of `suite` against `target`: the failures, described, and every answer
/// (the stored object and warnings, or the error's text), for comparing endpoints.
fn run_suite<R: Resolve + ?Sized>(target: &R, suite: &Suite, group: &str) -> (Vec<String>, Vec<String>) {
    let api_version = format!("{group}/v1beta1");
    let mut failures = Vec::new();
    let mut answers = Vec::new();
    for (template, yaml, expect) in suite.bodies {
        for field_validation in [
            Some(FieldValidation::Strict),
            Some(FieldValidation::Warn),
            Some(FieldValidation::Ignore),
            None,
        ] {
            let name = format!(
                "{}-{field_validation:?}{}",
                suite.name,
                if *yaml { "-yaml" } else { "" }
            );
            let object_name = "noxu-test";
            let stored = match suite.setup {
                None => None,
                Some((verb, setup_body)) => {
                    let body = sprintf(setup_body, &[&api_version, "WishIHadChosenNoxu", object_name]);
                    let opts = options(
                        field_validation.filter(|_| verb == Verb::Post || suite.verb == Verb::Apply),
                        verb == Verb::Apply,
                    );
                    match send(target, verb, None, &body, &opts) {
                        Ok(mut d) => {
                            d.object["metadata"]["resourceVersion"] = Value::from(STORED_RV);
                            Some(d.object)
                        }
                        Err(e) => {
                            failures.push(format!("{name}: the setup request failed: {e}"));
                            continue;
                        }
                    }
                }
            };
            let body = sprintf(template, &[&api_version, "WishIHadChosenNoxu", object_name, STORED_RV]);
            let opts = options(field_validation, *yaml);
            let got = send(target, suite.verb, stored.as_ref(), &body, &opts);
            answers.push(match &got {
                Ok(d) => format!("{name}: {} {:?}", d.object, d.warnings),
                Err(e) => format!("{name}: {e}"),
            });
            let strict = field_validation == Some(FieldValidation::Strict);
            match (got, strict) {
                (Err(e), true) if e.to_string().ends_with(expect.error_suffix) => {}
                (Err(e), true) => failures.push(format!(
                    "{name}: error {e:?}, expected the suffix {:?}",
                    expect.error_suffix
                )),
                (Ok(d), true) => failures.push(format!(
                    "{name}: succeeded with warnings {:?}, expected an error",
                    d.warnings
                )),
                (Err(e), false) => failures.push(format!("{name}: failed: {e}")),
                (Ok(d), false) => {
                    let want: &[&str] = if field_validation == Some(FieldValidation::Ignore) {
                        &[]
                    } else {
                        expect.warnings
                    };
                    if d.warnings != want {
                        failures.push(format!("{name}: warnings {:?}, expected {want:?}", d.warnings));
                    }
                }
            }
        }
    }
    (failures, answers)
}

fn crds() -> Vec<RegisteredCrd> {
    let text = include_str!("../testdata/noxu-crds.yaml");
    let mut registry = kstruct::Registry::new();
    registry.add_yaml(text, "noxu-crds.yaml").expect("our Noxu CRDs");
    registry.crds().to_vec()
}

fn group(schemaless: bool) -> &'static str {
    if schemaless {
        "schemaless.example.com"
    } else {
        "schema.example.com"
    }
}

#[test]
fn upstream_field_validation_cases_interpreted_and_compiled() {
    let crds = crds();
    let mut failures = Vec::new();
    let mut total = 0;
    for suite in SUITES {
        let g = group(suite.schemaless);
        let interpreted = crds.iter().find(|c| c.crd.group == g).expect("the CRD");
        let compiled = compiled::own::REGISTRY
            .find(g, "WishIHadChosenNoxu")
            .expect("the compiled CRD");
        let (f, interpreted_answers) = run_suite(interpreted, suite, g);
        let (h, compiled_answers) = run_suite(compiled, suite, g);
        // Differential: the compiled CRD answers every request as the interpreter does.
        assert_eq!(interpreted_answers, compiled_answers);
        let n = interpreted_answers.len();
        total += n;
        announce(&format!(
            "field_validation {}: {}/{n} interpreted, {}/{n} compiled",
            suite.name,
            n - f.len(),
            n - h.len()
        ));
        failures.extend(f.into_iter().map(|f| format!("interpreted: {f}")));
        failures.extend(h.into_iter().map(|f| format!("compiled: {f}")));
    }
    assert_eq!(total, 64);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// An apply to one endpoint: the stored object (if any) and the body.
type Apply<'a> = dyn Fn(Option<&Value>, &str) -> Result<Decoded, Error> + 'a;

/// `testFinalizerValidationApplyCreateAndUpdateCRD`: apply creates with a finalizer, then (in
/// three cases) applies another; warnings only for names the request adds.
#[test]
fn upstream_finalizer_warnings_of_apply() {
    const UNQUALIFIED: &str =
        "prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers";
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        ("invalid-finalizer", "", &["invalid-finalizer"], &[]),
        ("kubernetes.io/valid-finalizer", "", &[], &[]),
        (
            "invalid-finalizer",
            "another-invalid-finalizer",
            &["invalid-finalizer"],
            &["another-invalid-finalizer"],
        ),
        (
            "kubernetes.io/valid-finalizer",
            "kubernetes.io/another-valid-finalizer",
            &[],
            &[],
        ),
        (
            "invalid-finalizer",
            "kubernetes.io/another-valid-finalizer",
            &["invalid-finalizer"],
            &[],
        ),
    ];
    let crds = crds();
    let g = group(true);
    let interpreted = crds.iter().find(|c| c.crd.group == g).expect("the CRD");
    let compiled = compiled::own::REGISTRY
        .find(g, "WishIHadChosenNoxu")
        .expect("the compiled CRD");
    let targets: [&Apply<'_>; 2] = [
        &|existing, body| patch::apply(interpreted, existing, body.as_bytes(), &options(None, true)),
        &|existing, body| patch::apply(compiled, existing, body.as_bytes(), &options(None, true)),
    ];
    let warned = |names: &[&str]| -> Vec<String> {
        names
            .iter()
            .map(|n| format!("metadata.finalizers: {n:?}: {UNQUALIFIED}"))
            .collect()
    };
    let api_version = format!("{g}/v1beta1");
    for apply in targets {
        for (first, then, create_warnings, update_warnings) in cases {
            let body = |f: &str| {
                sprintf(
                    APPLY_FINALIZER_BODY,
                    &[&api_version, "WishIHadChosenNoxu", "noxu", &format!("[{f:?}]")],
                )
            };
            let created = apply(None, &body(first)).expect("the apply create");
            assert_eq!(created.warnings, warned(create_warnings), "{first}");
            if then.is_empty() {
                continue;
            }
            let mut stored = created.object;
            stored["metadata"]["resourceVersion"] = Value::from(STORED_RV);
            let updated = apply(Some(&stored), &body(then)).expect("the apply update");
            assert_eq!(updated.warnings, warned(update_warnings), "{first} then {then}");
            assert_eq!(updated.object["metadata"]["finalizers"], serde_json::json!([then]));
        }
    }
    announce("field_validation testFinalizerValidationApplyCreateAndUpdateCRD: 5/5 interpreted, 5/5 compiled");
}
