//! End-to-end tests of the `kstruct` binary: its output and exit-code contract.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// A file in a fresh temporary directory, removed when the test process ends its use.
fn fixture(name: &str, content: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kstruct-cli-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, content).unwrap();
    path
}

fn kstruct(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kstruct");
    // A usage error ends the process before it reads its input: the write then meets a
    // closed pipe, which says nothing about the run.
    let written = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

const CRD: &str = r#"
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer, default: 1}
              name: {type: string}
              note: {type: string, nullable: true}
  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"#;

#[test]
fn lint_bare_schema_prints_messages_and_exits_1() {
    let schema = fixture("schema.yaml", "properties:\n  a: {}\n  b: {type: array}\n");
    let o = kstruct(&["lint", schema.to_str().unwrap()], "");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "properties[a].type: Required value: must not be empty for specified object fields\n\
         properties[b].items: Required value: must be specified\n\
         type: Required value: must not be empty at the root\n"
    );
}

#[test]
fn lint_crd_prefixes_version_paths() {
    let crd = fixture(
        "crd.yaml",
        &CRD.replace("x-kubernetes-preserve-unknown-fields: true", "properties: {x: {}}")
            .replace(
                "        type: object\n        properties:\n          spec:",
                "        properties:\n          spec:",
            ),
    );
    let o = kstruct(&["lint", crd.to_str().unwrap()], "");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root\n\
         spec.versions[1].schema.openAPIV3Schema.properties[x].type: Required value: must not be empty for specified object fields\n"
    );
}

#[test]
fn lint_compiles_rules_for_the_servers_compatibility_version() {
    // A property named by a keyword: `self.if` finds it from compatibility version 1.31 on.
    let crd = fixture(
        "crd.yaml",
        &CRD.replacen(
            "            properties:\n              size:",
            "            x-kubernetes-validations: [{rule: 'self.if > 0'}]\n            properties:\n              if: {type: integer}\n              size:",
            1,
        ),
    );
    let crd = crd.to_str().unwrap();
    let o = kstruct(&["lint", crd], "");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""), "{}", stderr(&o));
    let o = kstruct(&["lint", "--cel-compatibility", "1.30", crd], "");
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        "spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: \
         {\"FieldPath\":\"\",\"Message\":\"\",\"MessageExpression\":\"\",\"OptionalOldSelf\":null,\"Reason\":null,\"Rule\":\"self.if \\u003e 0\"}: \
         compilation failed: ERROR: <input>:1:5: undefined field 'if'\n | self.if > 0\n | ....^\n"
    );
    let o = kstruct(&["lint", "--cel-compatibility", "1.28", crd], "");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("kstruct models the CEL environments of compatibility versions 1.29 to 1.36, not 1.28"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn lint_clean_crd_exits_0() {
    let crd = fixture("crd.yaml", CRD);
    let o = kstruct(&["lint", crd.to_str().unwrap()], "");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""));
}

#[test]
fn lint_undecodable_schema_is_a_finding() {
    let schema = fixture("schema.json", r##"{"$ref": "#/definitions/a"}"##);
    let o = kstruct(&["lint", schema.to_str().unwrap()], "");
    assert_eq!(
        (code(&o), stdout(&o).as_str()),
        (1, "OpenAPIV3Schema '$ref' is not supported\n")
    );
    let crd = fixture(
        "crd.yaml",
        &CRD.replace("x-kubernetes-preserve-unknown-fields: true", "additionalItems: true"),
    );
    let o = kstruct(&["lint", crd.to_str().unwrap()], "");
    // The API server's OpenAPI rules report the field; NewStructural's refusal of the same field
    // is only shown when nothing else is found.
    assert_eq!(
        stdout(&o),
        "spec.versions[1].schema.openAPIV3Schema.additionalItems: Forbidden: additionalItems is not supported\n"
    );
}

const LIST_OF_CRDS: &str = r#"
apiVersion: v1
kind: List
items:
- apiVersion: apiextensions.k8s.io/v1
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
      schema: {openAPIV3Schema: {type: object}}
- apiVersion: apiextensions.k8s.io/v1
  kind: CustomResourceDefinition
  metadata: {name: gizmo.example.com}
  spec:
    group: example
    scope: namespaced
    names: {kind: Gizmo, plural: gizmos}
    versions:
    - {name: V1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, uniqueItems: true}}}
"#;

#[test]
fn lint_checks_everything_the_api_server_checks_on_create() {
    let list = fixture("crds.yaml", LIST_OF_CRDS);
    let o = kstruct(&["lint", list.to_str().unwrap()], "");
    let file = list.display();
    assert_eq!(code(&o), 1);
    assert_eq!(
        stdout(&o),
        format!(
            "==> {file}:1 (gizmo.example.com)\n\
             metadata.name: Invalid value: \"gizmo.example.com\": must be spec.names.plural+\".\"+spec.group\n\
             spec.group: Invalid value: \"example\": should be a domain with at least one dot\n\
             spec.scope: Unsupported value: \"namespaced\": supported values: \"Cluster\", \"Namespaced\"\n\
             spec.versions[0].name: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n\
             spec.versions: Invalid value: [{{\"Name\":\"V1\",\"Served\":true,\"Storage\":false,\"Deprecated\":false,\"DeprecationWarning\":null,\"Schema\":null,\"Subresources\":null,\"AdditionalPrinterColumns\":null,\"SelectableFields\":null}}]: must have exactly one version marked as storage version\n\
             spec.version: Invalid value: \"V1\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\n\
             spec.validation.openAPIV3Schema.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic\n\
             status.storedVersions: Invalid value: null: must have at least one stored version\n"
        )
    );
}

#[test]
fn lint_reads_directories_and_reports_unreadable_paths() {
    let dir = std::env::temp_dir().join(format!("kstruct-lint-dir-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    std::fs::write(dir.join("nested/a.yaml"), CRD).unwrap();
    std::fs::write(dir.join("values.yaml"), "replicaCount: 3\nimage: {repository: nginx}\n").unwrap();
    std::fs::write(dir.join("notes.txt"), "not read").unwrap();
    let missing = dir.join("missing.yaml");
    let o = kstruct(&["lint", dir.to_str().unwrap(), missing.to_str().unwrap()], "");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(
        err.contains("values.yaml:1: skipping a document that is neither"),
        "{err}"
    );
    assert!(err.contains("missing.yaml"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unreadable_files_and_usage_errors_exit_2() {
    assert_eq!(code(&kstruct(&["lint", "/nonexistent/x.yaml"], "")), 2);
    assert_eq!(code(&kstruct(&["prune"], "")), 2);
    assert_eq!(code(&kstruct(&["prune", "--schema", "/nonexistent"], "")), 2);
    let crd = fixture("crd.yaml", CRD);
    assert_eq!(
        code(&kstruct(&["prune", "--crd", crd.to_str().unwrap(), "/nonexistent"], "")),
        2
    );
    assert_eq!(
        code(&kstruct(
            &["prune", "--crd", crd.to_str().unwrap(), "--version", "v9"],
            ""
        )),
        2
    );
}

#[test]
fn prune_picks_the_version_from_api_version() {
    let crd = fixture("crd.yaml", CRD);
    let input = r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"size":2,"x":1}}
{"apiVersion":"example.com/v2","kind":"Widget","spec":{"x":1}}
{"apiVersion":"example.com/v3","kind":"Widget","metadata":{},"spec":{"x":1}}"#;
    let o = kstruct(&["prune", "--crd", crd.to_str().unwrap()], input);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o),
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"},"spec":{"size":2}}
{"apiVersion":"example.com/v2","kind":"Widget","spec":{"x":1}}
{"apiVersion":"example.com/v3","kind":"Widget","metadata":{}}
"#
    );
}

#[test]
fn report_lines_and_broken_documents() {
    let crd = fixture("crd.yaml", CRD);
    let input = "apiVersion: example.com/v1\nkind: Widget\nspec: {x: 1, size: 2}\n---\nspec: [\n---\napiVersion: example.com/v1\nkind: Widget\nspec: {y: 1}\n";
    let o = kstruct(&["prune", "--report", "--crd", crd.to_str().unwrap()], input);
    assert_eq!(code(&o), 1);
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines[0],
        serde_json::json!({"error": null, "object": {"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"size": 2}},
                           "unknownFields": ["spec.x"], "warnings": []})
    );
    assert!(lines[1]["object"].is_null());
    let err = lines[1]["error"].as_str().unwrap();
    assert!(err.starts_with("<stdin>:6: yaml: "), "{err}");
    // YAML 1.1, as kubectl reads it: the key `y` is the boolean true, which becomes "true".
    assert_eq!(lines[2]["unknownFields"], serde_json::json!(["spec.true"]));
}

#[test]
fn nulls_and_default() {
    let crd = fixture("crd.yaml", CRD);
    let input = r#"{"apiVersion":"example.com/v1","kind":"Widget","spec":{"size":null,"name":null,"note":null}}"#;
    let o = kstruct(&["nulls", "--crd", crd.to_str().unwrap()], input);
    assert_eq!(
        stdout(&o),
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"spec\":{\"note\":null,\"size\":null}}\n"
    );
    let o = kstruct(&["default", "--crd", crd.to_str().unwrap()], input);
    assert_eq!(
        stdout(&o),
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"spec\":{\"name\":null,\"note\":null,\"size\":1}}\n"
    );
}

#[test]
fn bare_schemas_and_null_schemas() {
    let schema = fixture(
        "s.json",
        r#"{"properties": {"a": {"type": "object"}, "d": {"default": {"k": 1, "u": 2}, "properties": {"k": {}}}}}"#,
    );
    let o = kstruct(
        &["prune", "--not-root", "--schema", schema.to_str().unwrap()],
        r#"{"a": {"b": 1}, "kind": "x", "c": [1]}"#,
    );
    assert_eq!(stdout(&o), "{\"a\":{}}\n");
    let o = kstruct(&["default", "--schema", schema.to_str().unwrap()], "{}");
    assert_eq!(stdout(&o), "{\"d\":{\"k\":1}}\n", "defaults are pruned at serve time");
    let null = fixture("null.yaml", "null\n");
    let o = kstruct(
        &["prune", "--not-root", "--report", "--schema", null.to_str().unwrap()],
        "[{\"a\": 1}, 2]",
    );
    assert_eq!(
        stdout(&o),
        "{\"error\":null,\"object\":[{},2],\"unknownFields\":[\"[0].a\"],\"warnings\":[]}\n"
    );
}

#[test]
fn numbers_print_as_go_prints_them() {
    let null = fixture("null.yaml", "null\n");
    let o = kstruct(
        &["prune", "--not-root", "--schema", null.to_str().unwrap()],
        "[1.0, 1e3, 1e21, 9223372036854775808, -9223372036854775809, 0.000001, 1e-7, \"<&>\"]",
    );
    assert_eq!(
        stdout(&o),
        "[1,1000,1e+21,9223372036854776000,-9223372036854776000,0.000001,1e-7,\"\\u003c\\u0026\\u003e\"]\n"
    );
}

#[test]
fn hostile_input_never_panics() {
    let schema = fixture(
        "s.yaml",
        "type: object\nproperties: {a: {type: array, items: {type: object}}}\n",
    );
    let inputs = [
        "{\"a\": [",
        "{\"a\": 1e400}",
        "{\"\": {\"a.b\": 1, \"[0]\": 2, \"\\\"\": 3, \"\\n\": 4}}",
        "[[[[[[]]]]]]",
        "\"just a string\"",
        "{\"a\": {\"x\": 1}}",
        "{\"a\": [1, null, {\"x\": []}]}",
        "a: b: c",
        "\u{0}",
    ];
    for input in inputs {
        let o = kstruct(&["prune", "--report", "--schema", schema.to_str().unwrap()], input);
        assert!(
            matches!(code(&o), 0 | 1),
            "{input:?}: exit {:?}, stderr {}",
            o.status,
            String::from_utf8_lossy(&o.stderr)
        );
        for line in stdout(&o).lines() {
            serde_json::from_str::<serde_json::Value>(line).unwrap_or_else(|e| panic!("{input:?}: {e}: {line}"));
        }
    }
}

fn reports(o: &Output) -> Vec<serde_json::Value> {
    stdout(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const BODY: &str = r#"{"apiVersion": "example.com/v1", "kind": "Widget",
  "metadata": {"name": "a", "name": "b", "x": 1},
  "spec": {"name": "n", "colour": "red", "note": null}}"#;

#[test]
fn decode_warn_reports_and_exits_0() {
    let crd = fixture("crd.yaml", CRD);
    let o = kstruct(&["decode", "--report", "--crd", crd.to_str().unwrap()], BODY);
    assert_eq!(code(&o), 0);
    assert_eq!(
        reports(&o),
        [serde_json::json!({
            "error": null,
            "object": {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "b"},
                       "spec": {"name": "n", "note": null, "size": 1}},
            "unknownFields": ["metadata.x", "spec.colour"],
            "warnings": ["duplicate field \"metadata.name\"", "unknown field \"metadata.x\"", "unknown field \"spec.colour\""],
        })]
    );
    // Without --report: the object on stdout, warnings on stderr as kubectl shows them.
    let o = kstruct(&["decode", "--crd", crd.to_str().unwrap()], BODY);
    assert_eq!(code(&o), 0);
    assert_eq!(reports(&o)[0]["spec"]["size"], 1);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("Warning: <stdin>:1: unknown field \"spec.colour\""),
        "{stderr}"
    );
}

#[test]
fn decode_strict_fails_with_the_api_servers_message() {
    let crd = fixture("crd.yaml", CRD);
    let args = [
        "decode",
        "--report",
        "--field-validation",
        "Strict",
        "--crd",
        crd.to_str().unwrap(),
    ];
    let o = kstruct(&args, BODY);
    assert_eq!(code(&o), 1);
    assert_eq!(
        reports(&o),
        [serde_json::json!({
            "error": "Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: \
                      duplicate field \"metadata.name\", unknown field \"metadata.x\", unknown field \"spec.colour\"",
            "file": "<stdin>", "line": 1,
            "object": null, "unknownFields": [], "warnings": [],
        })]
    );
    // A clean object passes Strict.
    let o = kstruct(
        &args,
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {}}"#,
    );
    assert_eq!(code(&o), 0);
    assert_eq!(reports(&o)[0]["object"]["spec"], serde_json::json!({"size": 1}));
}

#[test]
fn decode_ignore_reports_nothing() {
    let crd = fixture("crd.yaml", CRD);
    let o = kstruct(
        &[
            "decode",
            "--report",
            "--field-validation",
            "Ignore",
            "--crd",
            crd.to_str().unwrap(),
        ],
        BODY,
    );
    assert_eq!(code(&o), 0);
    let r = &reports(&o)[0];
    assert_eq!(r["warnings"], serde_json::json!([]));
    assert_eq!(r["unknownFields"], serde_json::json!([]));
    assert_eq!(
        r["object"]["spec"],
        serde_json::json!({"name": "n", "note": null, "size": 1})
    );
}

#[test]
fn decode_yaml_streams_and_versions() {
    let crd = fixture("crd.yaml", CRD);
    let input = "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: a\n  name: b\nspec: {on: 1}\n\
                 ---\n# only a comment: skipped, as kubectl skips it\n\
                 ---\napiVersion: example.com/v2\nkind: Widget\nspec: {anything: yes}\n\
                 ---\napiVersion: other.io/v1\nkind: Thing\nspec: {q: 1}\n\
                 ---\nkind: [\n";
    let o = kstruct(&["decode", "--report", "--crd", crd.to_str().unwrap()], input);
    assert_eq!(code(&o), 1);
    let r = reports(&o);
    assert_eq!(r.len(), 4);
    assert_eq!(
        r[0]["warnings"],
        serde_json::json!(["line 5: key \"name\" already set in map", "unknown field \"spec.true\""])
    );
    // v2 preserves unknown fields; another group is left alone.
    assert_eq!(r[1]["object"]["spec"], serde_json::json!({"anything": true}));
    assert_eq!(r[2]["object"]["spec"], serde_json::json!({"q": 1}));
    // The server's text names the body's line; the report names the file's.
    assert!(r[3]["error"].as_str().unwrap().contains("yaml: line 1:"), "{}", r[3]);
    assert_eq!(
        (&r[3]["file"], &r[3]["line"]),
        (&serde_json::json!("<stdin>"), &serde_json::json!(19)),
        "{}",
        r[3]
    );
    // --version v1 registers v1 alone: v2 objects get an empty schema.
    let o = kstruct(
        &["decode", "--report", "--version", "v1", "--crd", crd.to_str().unwrap()],
        "apiVersion: example.com/v2\nkind: Widget\nmetadata: {name: w}\nspec: {anything: yes}\n",
    );
    assert_eq!(reports(&o)[0]["unknownFields"], serde_json::json!(["spec"]));
    let o = kstruct(&["decode", "--version", "v9", "--crd", crd.to_str().unwrap()], "");
    assert_eq!(code(&o), 2);
}

#[test]
fn decode_with_a_bare_schema_serves_every_kind() {
    let schema = fixture(
        "schema.yaml",
        "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      a: {type: string, default: x}\n",
    );
    let o = kstruct(
        &[
            "decode",
            "--report",
            "--field-validation",
            "Strict",
            "--schema",
            schema.to_str().unwrap(),
        ],
        r#"{"apiVersion": "any.io/v3", "kind": "Any", "spec": {"b": 1}} {"apiVersion": "v1", "kind": "Other", "spec": {}}"#,
    );
    assert_eq!(code(&o), 1);
    let r = reports(&o);
    assert_eq!(
        r[0]["error"],
        "Any in version \"v3\" cannot be handled as a Any: strict decoding error: unknown field \"spec.b\""
    );
    assert_eq!(r[1]["object"]["spec"], serde_json::json!({"a": "x"}));
}

#[test]
fn decode_storage_repairs_and_drops() {
    let crd = fixture("crd.yaml", CRD);
    let o = kstruct(
        &["decode", "--storage", "--report", "--crd", crd.to_str().unwrap()],
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "labels": {"a": 1}}, "spec": {"x": 1}}"#,
    );
    assert_eq!(code(&o), 0);
    assert_eq!(
        reports(&o)[0],
        serde_json::json!({
            "error": null, "unknownFields": [], "warnings": [],
            "object": {"apiVersion": "example.com/v1", "kind": "Widget",
                       "metadata": {"name": "w", "generation": 1}, "spec": {"size": 1}},
        })
    );
    let o = kstruct(
        &[
            "decode",
            "--storage",
            "--field-validation",
            "Strict",
            "--crd",
            crd.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code(&o), 2, "--storage takes no --field-validation");
}

#[test]
fn decode_failures_say_what_and_where() {
    let crd = fixture("crd.yaml", CRD);
    let o = kstruct(
        &["decode", "--crd", crd.to_str().unwrap()],
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\"}\n{\"kind\": \"Widget\", \"apiVersion\": null}\n{\"a\": }",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o).lines().count(), 1);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "kstruct: <stdin>:2: Widget in version \"\" cannot be handled as a Widget: .apiVersion accessor error"
        ),
        "{stderr}"
    );
    // A broken value in a stream: the rest is sent as the body, the API server's answer is
    // quoted whole, and the line and column are the file's.
    assert!(
        stderr.contains(
            "kstruct: <stdin>:3:7: the object provided is unrecognized (must be of type Widget): \
             couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value ({\"a\": })"
        ),
        "{stderr}"
    );
    let o = kstruct(
        &["decode", "--report", "--crd", crd.to_str().unwrap()],
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\"}\n{\"a\": }",
    );
    assert_eq!(
        reports(&o)[1],
        serde_json::json!({
            "error": "the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: invalid character '}' looking for beginning of value ({\"a\": })",
            "file": "<stdin>", "line": 2, "column": 7,
            "object": null, "unknownFields": [], "warnings": [],
        })
    );
}

/// JSON streams are read a document at a time; a document that is not JSON makes the rest
/// of the stream one body, exactly as when the stream is read whole.
#[test]
fn decode_reads_json_streams_document_by_document() {
    let crd = fixture("crd.yaml", CRD);
    let c = crd.to_str().unwrap();
    let doc = |i: usize| {
        format!("{{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": {{\"name\": \"w{i}\"}}}}\n")
    };
    let many: String = (0..3000).map(doc).collect();
    let o = kstruct(&["decode", "--crd", c], &many);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3000);
    assert_eq!(
        lines[2999],
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w2999"}}"#
    );
    // The second document is broken: it and everything after it are one body.
    let stream = format!("{}{{\"a\": tru}}\n{}", doc(0), doc(2));
    let o = kstruct(&["decode", "--crd", c], &stream);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o).lines().count(), 1);
    assert!(
        stderr(&o).contains(
            "kstruct: <stdin>:2:10: the object provided is unrecognized (must be of type Widget): couldn't get \
             version/kind; json parse error: invalid character '}' in literal true (expecting 'e') ({\"a\": tru}\n{\"apiVersion\": \"exa ...)"
        ),
        "{}",
        stderr(&o)
    );
    // A file read the same way.
    let file = fixture("stream.json", &many);
    let o = kstruct(&["decode", "--crd", c, file.to_str().unwrap()], "");
    assert_eq!(stdout(&o).lines().count(), 3000);
}

#[test]
fn streams_decode_alike_whichever_way_documents_are_read() {
    // Documents after the first are read where the stream buffered them when the byte walk
    // answers for them; `--report` reads every one by splitting first. Both give the same
    // objects and warnings (the lines included), around documents the walk leaves: repeated
    // keys, an array, a broken document.
    let crd = fixture("crd.yaml", CRD);
    let c = crd.to_str().unwrap();
    let w = |i: usize, spec: &str| {
        format!(
            "{{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": {{\"name\": \"w{i}\"}}, \"spec\": {spec}}}"
        )
    };
    let mut stream = String::new();
    for i in 0..40 {
        let doc = match i % 5 {
            0 => w(i, r#"{"size": 2}"#),
            1 => w(i, "{\n  \"x\": 1,\n  \"name\": \"n\"\n}"),
            2 => w(i, r#"{"name": "a", "name": "b", "y": null}"#),
            3 => w(i, r#"{"note": null, "z": {"q": [1, 2.50]}}"#),
            _ => format!("[{}]", w(i, "{}")),
        };
        stream.push_str(&doc);
        stream.push_str(if i % 2 == 0 { "\n" } else { "  \n\n" });
    }
    stream.push_str("{\"a\": tru}\n");
    stream.push_str(&w(99, "{}"));
    for mode in ["Warn", "Ignore", "Strict"] {
        let plain = kstruct(&["decode", "--crd", c, "--field-validation", mode], &stream);
        let report = kstruct(&["decode", "--crd", c, "--field-validation", mode, "--report"], &stream);
        let objects: Vec<serde_json::Value> = stdout(&plain)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let reports: Vec<serde_json::Value> = stdout(&report)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let reported: Vec<&serde_json::Value> = reports.iter().map(|r| &r["object"]).filter(|o| !o.is_null()).collect();
        assert_eq!(objects.iter().collect::<Vec<_>>(), reported, "{mode}");
        assert!(
            objects.len() >= if mode == "Strict" { 8 } else { 32 },
            "{mode}: {}",
            objects.len()
        );
        let warnings = |o: &std::process::Output| -> Vec<String> {
            stderr(o)
                .lines()
                .filter(|l| l.starts_with("Warning: "))
                .map(str::to_string)
                .collect()
        };
        let from_reports: usize = reports
            .iter()
            .map(|r| r["warnings"].as_array().map_or(0, Vec::len))
            .sum();
        assert_eq!(warnings(&plain).len(), from_reports, "{mode}: {}", stderr(&plain));
        if mode == "Warn" {
            // Warnings name the line where their document starts.
            let lines = warnings(&plain);
            assert_eq!(
                lines[0],
                r#"Warning: <stdin>:2: unknown field "spec.x""#,
                "{}",
                stderr(&plain)
            );
            assert!(
                lines
                    .iter()
                    .any(|l| l == r#"Warning: <stdin>:13: unknown field "spec.x""#),
                "{}",
                stderr(&plain)
            );
        }
        assert_eq!(code(&plain), code(&report), "{mode}");
    }
}

#[test]
fn compile_writes_a_module() {
    let crd = fixture("crd.yaml", CRD);
    let out = crd.with_file_name("widgets.rs");
    let o = kstruct(
        &["compile", "--crd", crd.to_str().unwrap(), "-o", out.to_str().unwrap()],
        "",
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let code_text = std::fs::read_to_string(&out).unwrap();
    assert!(code_text.starts_with("// @generated by kstruct-compiler"));
    assert!(code_text.contains("pub mod example_com"));
    assert!(code_text.contains("impl rt::Pipeline for Widget"));
    let schema = fixture("my-schema.yaml", "type: object\nproperties: {a: {type: string}}\n");
    let out = schema.with_file_name("schemas.rs");
    let o = kstruct(
        &[
            "compile",
            "--schema",
            schema.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let code_text = std::fs::read_to_string(&out).unwrap();
    assert!(code_text.contains("name: \"my-schema\"") && code_text.contains("pub struct MySchema;"));
}

#[test]
fn compile_usage_errors_exit_2() {
    let crd = fixture("crd.yaml", CRD);
    let c = crd.to_str().unwrap();
    // No output, no input, both kinds of input, a CRD file that is a schema.
    assert_eq!(code(&kstruct(&["compile", "--crd", c], "")), 2);
    assert_eq!(code(&kstruct(&["compile", "-o", "/tmp/x.rs"], "")), 2);
    assert_eq!(
        code(&kstruct(&["compile", "--crd", c, "--schema", c, "-o", "/tmp/x.rs"], "")),
        2
    );
    let schema = fixture("s.yaml", "type: object\n");
    let o = kstruct(&["compile", "--crd", schema.to_str().unwrap(), "-o", "/tmp/x.rs"], "");
    assert_eq!(code(&o), 2);
    assert!(String::from_utf8_lossy(&o.stderr).contains("no CustomResourceDefinition"));
}

#[test]
fn decode_body_takes_each_file_as_one_request_body() {
    let crd = fixture("crd.yaml", CRD);
    let crd = crd.to_str().unwrap();
    let one = r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"a"}}"#;
    let two = fixture("two.json", &format!("{one}\n{one}"));
    let empty = fixture("empty.json", "");
    let bom = fixture("bom.json", &format!("\u{feff}{one}"));
    let error = |args: &[&str]| {
        let o = kstruct(args, "");
        assert_eq!(code(&o), 1, "{}", stdout(&o));
        reports(&o)[0]["error"].as_str().unwrap().to_owned()
    };
    // Two JSON values are two documents of a stream, but one body with trailing data.
    let o = kstruct(&["decode", "--report", "--crd", crd, two.to_str().unwrap()], "");
    assert_eq!((code(&o), reports(&o).len()), (0, 2));
    assert_eq!(
        error(&["decode", "--report", "--body", "--crd", crd, two.to_str().unwrap()]),
        "the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: \
         invalid character '{' after top-level value ({\"apiVersion\":\"example.com/v1\" ...)"
    );
    // An empty JSON body, and a byte-order mark, as the API server reads application/json.
    assert_eq!(
        error(&[
            "decode",
            "--report",
            "--body",
            "--format",
            "json",
            "--crd",
            crd,
            empty.to_str().unwrap()
        ]),
        "the object provided is unrecognized (must be of type Widget): couldn't get version/kind; json parse error: \
         unexpected end of JSON input (<empty>)"
    );
    let bom_refused = "the object provided is unrecognized (must be of type Widget): couldn't get version/kind; \
                       json parse error: invalid character '\\ufeff' looking for beginning of value";
    for format in [&["--format", "json"][..], &[]] {
        let mut args = vec!["decode", "--report", "--body"];
        args.extend(format);
        args.extend(["--crd", crd, bom.to_str().unwrap()]);
        assert!(error(&args).starts_with(bom_refused), "{format:?}");
    }
    // YAML allows the mark.
    let bom_yaml = fixture(
        "bom.yaml",
        "\u{feff}apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n",
    );
    let o = kstruct(
        &["decode", "--report", "--body", "--crd", crd, bom_yaml.to_str().unwrap()],
        "",
    );
    assert_eq!(code(&o), 0, "{}", stdout(&o));
}

#[test]
fn commands_with_a_crd_the_server_refuses_warn_and_still_run() {
    // Two storage versions: the API server refuses the CRD; the objects are still pruned.
    let crd = fixture("crd.yaml", &CRD.replace("    storage: false", "    storage: true"));
    let o = kstruct(
        &["prune", "--crd", crd.to_str().unwrap()],
        r#"{"apiVersion": "example.com/v1", "kind": "Widget", "spec": {"size": 2, "colour": "red"}}"#,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "{\"apiVersion\":\"example.com/v1\",\"kind\":\"Widget\",\"spec\":{\"size\":2}}\n"
    );
    let err = stderr(&o);
    assert!(
        err.starts_with(&format!(
            "kstruct: warning: {}:1: the API server would refuse to create CRD widgets.example.com:\n  \
             spec.versions: Invalid value: ",
            crd.display()
        )),
        "{err}"
    );
    assert!(
        err.contains("must have exactly one version marked as storage version\n"),
        "{err}"
    );
    assert!(
        err.contains("  status.storedVersions: Invalid value: [\"v1\"]: must have the storage version v2\n"),
        "{err}"
    );
    // A CRD the server accepts: no warning.
    let ok = fixture("crd.yaml", CRD);
    let o = kstruct(
        &["prune", "--crd", ok.to_str().unwrap()],
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\"}",
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn decode_validate_answers_as_a_create() {
    let crd = fixture(
        "gadgets.yaml",
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, required: [size], properties: {size: {type: integer, minimum: 1}}}
          status: {type: object, x-kubernetes-preserve-unknown-fields: true}
",
    );
    let crd = crd.to_str().unwrap();
    let bodies = r#"{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":"g","namespace":"a"},"spec":{"size":0}}
{"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"generateName":"h-"},"spec":{"size":2},"status":{"x":1}}
"#;
    let o = kstruct(&["decode", "--crd", crd, "--validate", "--report"], bodies);
    assert_eq!(code(&o), 1);
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        lines[0]["error"],
        r#"Gadget.example.com "g" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1"#
    );
    // Status dropped (status subresource), generation 1, the default namespace, a generated
    // name (the server's random suffix is xxxxx here).
    assert_eq!(
        lines[1]["object"],
        serde_json::json!({"apiVersion": "example.com/v1", "kind": "Gadget",
            "metadata": {"generateName": "h-", "generation": 1, "name": "h-xxxxx", "namespace": "default"},
            "spec": {"size": 2}})
    );
    let o = kstruct(
        &["decode", "--crd", crd, "--validate", "--namespace", "b", "--report"],
        bodies,
    );
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        lines[0]["error"],
        "the namespace of the provided object does not match the namespace sent on the request"
    );
    assert_eq!(lines[1]["object"]["metadata"]["namespace"], "b");
    // Without --validate, decoding alone.
    let o = kstruct(&["decode", "--crd", crd, "--report"], bodies);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    // Bodies over the request limit: the server's 413 text.
    let o = kstruct(&["decode", "--crd", crd, "--max-body-size", "110", "--report"], bodies);
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["error"], serde_json::Value::Null, "{}", stdout(&o));
    assert_eq!(lines[1]["error"], "Request entity too large: limit is 110");
}

/// A Widget as the server stores it, for `--update`, `--existing` and `--old`.
const STORED: &str = r#"{"apiVersion": "example.com/v1", "kind": "Widget",
  "metadata": {"name": "w", "namespace": "ns", "uid": "u1", "resourceVersion": "9", "generation": 1},
  "spec": {"size": 1}}"#;

#[test]
fn decode_update_puts_each_document_on_the_stored_object() {
    let crd = fixture("crd.yaml", CRD);
    let stored = fixture("stored.json", STORED);
    let bodies = r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "9"}, "spec": {"size": 2, "x": 1}}
{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "8"}}
{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}"#;
    let o = kstruct(
        &[
            "decode",
            "--crd",
            crd.to_str().unwrap(),
            "--update",
            stored.to_str().unwrap(),
            "--report",
        ],
        bodies,
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["object"]["metadata"]["generation"], 2);
    assert_eq!(lines[0]["object"]["metadata"]["uid"], "u1");
    assert_eq!(lines[0]["warnings"], serde_json::json!([r#"unknown field "spec.x""#]));
    assert_eq!(
        lines[1]["error"],
        r#"Operation cannot be fulfilled on widgets.example.com "w": the object has been modified; please apply your changes to the latest version and try again"#
    );
    assert_eq!(
        lines[2]["error"],
        r#"widgets.example.com "w" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"#
    );
    assert_eq!(lines[2]["line"], 3);
}

#[test]
fn decode_update_warns_of_rules_broken_by_unchanged_values() {
    // A rule added after the object was stored: an update that leaves the value alone is let
    // through with the server's warning (ratcheting); one that changes it is refused.
    let crd = fixture(
        "crd.yaml",
        &CRD.replacen(
            "size: {type: integer, default: 1}",
            "size: {type: integer, default: 6, x-kubernetes-validations: [{rule: 'self > 5'}]}",
            1,
        ),
    );
    let stored = fixture("stored.json", STORED);
    let bodies = r#"{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "9"}, "spec": {"size": 1, "name": "n"}}
{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w", "resourceVersion": "9"}, "spec": {"size": 2}}"#;
    let o = kstruct(
        &[
            "decode",
            "--crd",
            crd.to_str().unwrap(),
            "--update",
            stored.to_str().unwrap(),
            "--report",
        ],
        bodies,
    );
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines[0]["error"], serde_json::Value::Null, "{}", stdout(&o));
    assert_eq!(
        lines[0]["warnings"],
        serde_json::json!(["spec.size: Invalid value: 1: failed rule: self > 5"])
    );
    assert_eq!(
        lines[1]["error"],
        r#"Widget.example.com "w" is invalid: spec.size: Invalid value: 2: failed rule: self > 5"#
    );
}

#[test]
fn patch_applies_each_type_as_the_server_does() {
    let crd = fixture("crd.yaml", CRD);
    let stored = fixture("stored.json", STORED);
    let (crd, stored) = (crd.to_str().unwrap(), stored.to_str().unwrap());
    let run = |kind: &str, extra: &[&str], body: &str| {
        let mut args = vec!["patch", "--crd", crd, "--type", kind];
        args.extend_from_slice(extra);
        kstruct(&args, body)
    };
    let o = run("merge", &["--existing", stored], r#"{"spec": {"size": 3, "y": 1}}"#);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let object: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(object["spec"]["size"], 3);
    assert_eq!(object["metadata"]["generation"], 2);
    assert!(
        stderr(&o).contains(r#"Warning: <stdin>:1: unknown field "spec.y""#),
        "{}",
        stderr(&o)
    );

    let o = run(
        "json",
        &["--existing", stored, "--report"],
        r#"[{"op": "remove", "path": "/spec/missing"}]"#,
    );
    assert_eq!(code(&o), 1);
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        report["error"],
        "the server rejected our request due to an error in our request"
    );

    let o = run(
        "json",
        &["--existing", stored, "--field-validation", "Strict"],
        r#"[{"op": "add", "path": "/spec/size", "value": 2, "why": "more"}]"#,
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).ends_with("strict decoding error: json patch unknown field \"[0].why\"\n"),
        "{}",
        stderr(&o)
    );

    let apply = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w, namespace: ns}\nspec: {size: 5}\n";
    let o = run("apply", &["--existing", stored], apply);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains(r#""size":5"#));
    let o = run("apply", &["--apply-creates"], apply);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).starts_with(
        r#"{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"name":"w","namespace":"ns"}"#
    ));

    let o = run(
        "webhook",
        &["--existing", stored, "--report"],
        r#"[{"op": "add", "path": "/spec/injected", "value": true}]"#,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(report["unknownFields"], serde_json::json!(["spec.injected"]));
    assert_eq!(report["object"]["spec"], serde_json::json!({"size": 1}));

    // An empty EXISTING: nothing is stored; an apply creates, a merge patch gets the 404.
    let empty = fixture("empty.yaml", "");
    let o = run("apply", &["--existing", empty.to_str().unwrap()], apply);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = run("merge", &["--existing", empty.to_str().unwrap(), "--report"], "{}");
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains(r#""error":"the object to patch does not exist""#),
        "{}",
        stdout(&o)
    );
    // Validation is on unless asked off.
    let invalid = r#"{"spec": {"size": "big"}}"#;
    assert_eq!(code(&run("merge", &["--existing", stored], invalid)), 1);
    assert_eq!(
        code(&run("merge", &["--existing", stored, "--no-validate"], invalid)),
        0
    );
    // Usage: json and merge need the stored object.
    assert_eq!(code(&run("json", &[], "[]")), 2);
    assert_eq!(code(&run("merge", &["--apply-creates"], "{}")), 2);
}

#[test]
fn lint_json_gives_each_finding_where_its_field_is_written() {
    let list = fixture("crds.yaml", LIST_OF_CRDS);
    let file = list.to_str().unwrap();
    // The default output does not change: the server's messages, for scripts.
    let text = stdout(&kstruct(&["lint", file], ""));
    let o = kstruct(&["lint", "-o", "json", file], "");
    assert_eq!(code(&o), 1);
    let lines = reports(&o);
    let messages: Vec<&str> = lines.iter().map(|l| l["message"].as_str().unwrap()).collect();
    assert_eq!(messages, text.lines().skip(1).collect::<Vec<_>>());
    let at = |i: usize| (lines[i]["line"].as_u64().unwrap(), lines[i]["column"].as_u64().unwrap());
    // metadata.name of the second item, spec.group, spec.scope, spec.versions[0].name.
    assert_eq!([at(0), at(1), at(2), at(3)], [(19, 14), (21, 5), (22, 5), (25, 8)]);
    // uniqueItems, in the version's own schema (the message names the shared one).
    assert_eq!(at(6), (25, 89));
    // status is not written: the item's start.
    assert_eq!(at(7), (17, 3));
    assert_eq!(
        lines[0],
        serde_json::json!({"file": file, "line": 19, "column": 14, "name": "gizmo.example.com",
            "message": "metadata.name: Invalid value: \"gizmo.example.com\": must be spec.names.plural+\".\"+spec.group"})
    );
    // SARIF, with the same positions.
    let o = kstruct(&["lint", "-o", "sarif", file], "");
    let s: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), lines.len());
    assert_eq!(results[3]["ruleId"], "invalid-crd");
    assert_eq!(results[3]["message"]["text"], lines[3]["message"]);
    assert_eq!(
        results[3]["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 25, "startColumn": 8})
    );
    // Bare schemas: the schema's own paths.
    let schema = fixture("schema.yaml", "properties:\n  a: {}\n  b: {type: array}\n");
    let o = kstruct(&["lint", "-o", "json", schema.to_str().unwrap()], "");
    let at: Vec<(u64, u64)> = reports(&o)
        .iter()
        .map(|l| (l["line"].as_u64().unwrap(), l["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, [(2, 3), (3, 3), (1, 1)]);
}

#[test]
fn lint_explains_and_counts_what_is_not_a_crd() {
    let crd = fixture("crd.yaml", CRD);
    let deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\n";
    let mixed = fixture("mixed.yaml", &format!("{CRD}---\n{deployment}---\nreplicaCount: 1\n"));
    let o = kstruct(&["lint", mixed.to_str().unwrap()], "");
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""));
    let file = mixed.display();
    assert_eq!(
        stderr(&o),
        format!(
            "kstruct: note: {file}:31: skipping a Deployment (not a CustomResourceDefinition; `kstruct check` checks objects against their CRDs)\n\
             kstruct: note: {file}:35: skipping a document that is neither a Kubernetes object nor a schema (use --schema to lint it as a bare openAPIV3Schema)\n\
             kstruct: linted 1 CRD in 1 file: 0 with errors, 2 documents skipped (neither CRDs nor schemas)\n"
        )
    );
    // No CRD at all: nothing was linted, which is no success.
    let objects = fixture("objects.yaml", deployment);
    let o = kstruct(&["lint", objects.to_str().unwrap()], "");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).ends_with(
            "kstruct: linted 0 CRDs in 1 file: 0 with errors, 1 document skipped (neither CRDs nor schemas)\n\
             kstruct: no CustomResourceDefinition was found in the inputs; `kstruct check` checks manifests\n"
        ),
        "{}",
        stderr(&o)
    );
    let o = kstruct(&["lint", "-"], "");
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let o = kstruct(&["lint", "--schema", "-"], "");
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).ends_with("kstruct: no document was found in the inputs\n"),
        "{}",
        stderr(&o)
    );
    assert_eq!(code(&kstruct(&["lint", crd.to_str().unwrap()], "")), 0);
}

#[test]
fn lint_help_points_people_to_check() {
    let help = stdout(&kstruct(&["lint", "--help"], ""));
    assert!(help.contains("`kstruct check --allow-no-objects CRD-FILES`"), "{help}");
    assert!(help.contains("-o, --output <FORMAT>"), "{help}");
    assert!(
        help.contains("CEL rules (`x-kubernetes-validations`) are parsed, not type-checked"),
        "{help}"
    );
}

#[test]
fn lint_ignores_documents_of_comments_only_and_skips_crd_patches_in_one_line() {
    let dir = std::env::temp_dir().join(format!("kstruct-lint-patches-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("crd/patches")).unwrap();
    // A license header before the first `---`: a document of comments, which nothing sends.
    std::fs::write(
        dir.join("crd/a.yaml"),
        format!("# Copyright 2026 The Authors.\n# Licensed under Apache-2.0.\n---{CRD}"),
    )
    .unwrap();
    std::fs::write(
        dir.join("crd/patches/webhook_in_widgets.yaml"),
        "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  conversion:\n    strategy: Webhook\n",
    )
    .unwrap();
    let o = kstruct(&["lint", dir.to_str().unwrap()], "");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    let patch = dir.join("crd/patches/webhook_in_widgets.yaml");
    assert_eq!(
        stderr(&o),
        format!(
            "kstruct: note: {}:1: skipping a patch of CRD \"widgets.example.com\", not a whole CRD (no spec.group, no spec.names); leave patch files out with --exclude '**/patches/**'\n\
             kstruct: linted 1 CRD in 2 files: 0 with errors, 1 document skipped (neither CRDs nor schemas)\n",
            patch.display()
        )
    );
    let o = kstruct(&["lint", "--exclude", "**/patches/**", dir.to_str().unwrap()], "");
    assert_eq!(stderr(&o), "kstruct: linted 1 CRD in 1 file: 0 with errors\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn patch_apply_of_built_in_kinds_merges_by_their_markers() {
    let stored = fixture(
        "deployment.yaml",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: web, image: 'nginx:1'}\n      - {name: proxy, image: 'envoy:1'}\n",
    );
    let stored = stored.to_str().unwrap();
    let body = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  template:\n    spec:\n      containers:\n      - {name: web, image: 'nginx:2'}\n";
    let o = kstruct(&["patch", "--type", "apply", "--existing", stored, "--report"], body);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = &reports(&o)[0];
    let containers = &r["object"]["spec"]["template"]["spec"]["containers"];
    assert_eq!(containers[0]["image"], "nginx:2");
    assert_eq!(containers[1]["name"], "proxy");
    // Said plainly: merged and read into the Go types, nothing the server does after that.
    assert_eq!(r["defaulted"], false);
    assert_eq!(r["validated"], false);
    let o = kstruct(&["patch", "--type", "apply", "--existing", stored], body);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: Kubernetes' own kinds are patched and read into their Go types"),
        "{}",
        stderr(&o)
    );
    // The field manager's refusal, as the server words it.
    let o = kstruct(
        &["patch", "--type", "apply", "--apply-creates"],
        "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}, {port: 80}]}\n",
    );
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains(
            "failed to create typed patch object (/s; /v1, Kind=Service): .spec.ports: duplicate entries for key [port=80,protocol=\"TCP\"]"
        ),
        "{}",
        stderr(&o)
    );
    // A merge patch's result is decoded into the Go types: their type error is the 422.
    let o = kstruct(
        &["patch", "--type", "merge", "--existing", stored, "--report"],
        r#"{"spec": {"replicas": "2"}}"#,
    );
    assert_eq!(code(&o), 1);
    let error = reports(&o)[0]["error"].as_str().unwrap().to_string();
    assert!(
        error.starts_with(r#" "" is invalid: patch: Invalid value: "{\"apiVersion\":\"apps/v1\","#)
            && error.ends_with(
                "json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32"
            ),
        "{error}"
    );
    // What a mutating webhook returns is not modelled for built-in kinds.
    let o = kstruct(&["patch", "--type", "webhook", "--existing", stored], "[]");
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("not modelled: updates and webhook patches"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(std::path::Path::new(stored).parent().unwrap()).unwrap();
}

#[test]
fn decode_of_built_in_kinds_needs_no_crd() {
    let body = r#"{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "name": "web2"},
        "spec": {"replicas": 2, "replicaz": 3}}"#;
    let o = kstruct(&["decode", "--report", "--field-validation", "Strict"], body);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(
        reports(&o)[0]["error"],
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: \
         duplicate field \"metadata.name\", unknown field \"spec.replicaz\""
    );
    let o = kstruct(&["decode", "--report"], body);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let r = &reports(&o)[0];
    assert_eq!(
        r["warnings"],
        serde_json::json!([r#"duplicate field "metadata.name""#, r#"unknown field "spec.replicaz""#])
    );
    assert_eq!(r["object"]["metadata"]["name"], "web2");
    assert_eq!(r["object"]["spec"]["replicas"], 2);
    // Said plainly: the decoder's object, not what the server stores after defaulting.
    assert_eq!(r["defaulted"], false);
    // A body without apiVersion and kind, sent to an endpoint; YAML.
    let o = kstruct(
        &["decode", "--report", "--endpoint", "v1/ConfigMap", "--format", "yaml"],
        "metadata: {name: c}\ndata: {a: 1}\n",
    );
    assert_eq!(
        reports(&o)[0]["error"],
        "ConfigMap in version \"v1\" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string"
    );
    // An older release's types.
    let o = kstruct(
        &[
            "decode",
            "--report",
            "--kubernetes-version",
            "1.30",
            "--field-validation",
            "Strict",
        ],
        r#"{"apiVersion": "apps/v1", "kind": "Deployment", "status": {"terminatingReplicas": 1}}"#,
    );
    assert_eq!(
        reports(&o)[0]["error"],
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"status.terminatingReplicas\""
    );
    // What is not modelled says so.
    let o = kstruct(&["decode", "--validate"], r#"{"apiVersion": "v1", "kind": "Pod"}"#);
    assert_eq!(code(&o), 1);
    assert!(
        stderr(&o).contains("not modelled: validation of Kubernetes' own kinds"),
        "{}",
        stderr(&o)
    );
    let o = kstruct(&["decode", "--endpoint", "apps/v1/Deploymnet"], "{}");
    assert_eq!(code(&o), 2);
}
