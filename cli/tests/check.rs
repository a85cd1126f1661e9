//! `kstruct check` end to end: what it reports, where, in which format, and its exit codes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A temporary directory, removed when the test is done with it.
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh directory holding `files` (name, content).
fn dir(files: &[(&str, &str)]) -> TempDir {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kstruct-check-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, content) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }
    TempDir(dir)
}

fn check_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .current_dir(dir)
        .arg("check")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run kstruct");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn json_lines(o: &Output) -> Vec<Value> {
    out(o).lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
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
              replicas: {type: integer, default: 1}
              ports:
                type: array
                items: {type: object, properties: {port: {type: integer}}}
  - name: v0
    served: false
    storage: false
    schema: {openAPIV3Schema: {type: object}}
";

const WIDGETS: &str = "apiVersion: example.com/v1
kind: Widget
metadata:
  name: a
spec:
  replica: 3
  ports:
  - port: 80
    prot: 81
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: fine}
spec: {replicas: 2}
";

#[test]
fn unknown_and_duplicate_fields_at_their_line_and_column() {
    let d = dir(&[
        ("crds/widgets.yaml", CRD),
        ("widgets.yaml", WIDGETS),
        (
            "w.json",
            "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Widget\", \"metadata\": {\"name\": \"j\", \"name\": \"k\"},\n \"spec\": {\"é\": 1, \"colour\": 2}}\n",
        ),
    ]);
    let o = check_in(&d, &["--crds", "crds", "widgets.yaml", "w.json"], "");
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert_eq!(
        out(&o),
        "widgets.yaml:6:3: error: unknown field \"spec.replica\" (did you mean \"spec.replicas\"?)
widgets.yaml:9:5: error: unknown field \"spec.ports[0].prot\" (did you mean \"spec.ports[0].port\"?)
w.json:1:78: error: duplicate field \"metadata.name\"
w.json:1:65: note: first written here
w.json:2:11: error: unknown field \"spec.é\"
w.json:2:19: error: unknown field \"spec.colour\"
checked 3 objects against 1 CRD in 3 files: 1 ok, 2 with errors, 0 skipped
"
    );
}

#[test]
fn positions_hold_in_documents_only_libyaml_reads() {
    // A flow sequence closed at its mapping's indentation, with a trailing comma (as Tekton's
    // examples write them), and a key YAML 1.1 reads as a boolean.
    let widget = "apiVersion: example.com/v1
kind: Widget
metadata:
  name: a
spec:
  replica: 3
  ports: [
    {port: 80},
  ]
  y: 1
";
    let d = dir(&[("crds/widgets.yaml", CRD), ("w.yaml", widget)]);
    let o = check_in(&d, &["--crds", "crds", "--field-validation", "Warn", "w.yaml"], "");
    assert_eq!(
        out(&o),
        "w.yaml:6:3: warning: unknown field \"spec.replica\" (did you mean \"spec.replicas\"?)
w.yaml:10:3: warning: unknown field \"spec.true\"
checked 1 object against 1 CRD in 2 files: 0 ok, 1 with warnings, 0 with errors, 0 skipped
"
    );
}

#[test]
fn json_lines_carry_the_servers_messages_and_positions() {
    let d = dir(&[("crds.yaml", CRD), ("widgets.yaml", WIDGETS)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "widgets.yaml", "-o", "json"], "");
    assert_eq!(code(&o), 1);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert_eq!(
        lines[0],
        r#"{"file":"crds.yaml","document":1,"line":1,"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","namespace":null,"name":"widgets.example.com","outcome":"ok","messages":[],"unknownFields":[],"duplicateFields":[],"validationErrors":[]}"#
    );
    assert_eq!(
        lines[1],
        r#"{"file":"widgets.yaml","document":1,"line":1,"apiVersion":"example.com/v1","kind":"Widget","namespace":"default","name":"a","outcome":"error","messages":["Widget in version \"v1\" cannot be handled as a Widget: strict decoding error: unknown field \"spec.ports[0].prot\", unknown field \"spec.replica\""],"unknownFields":[{"path":"spec.ports[0].prot","line":9,"column":5},{"path":"spec.replica","line":6,"column":3}],"duplicateFields":[],"validationErrors":[]}"#
    );
    assert_eq!(
        lines[2],
        r#"{"file":"widgets.yaml","document":2,"line":11,"apiVersion":"example.com/v1","kind":"Widget","namespace":"default","name":"fine","outcome":"ok","messages":[],"unknownFields":[],"duplicateFields":[],"validationErrors":[]}"#
    );
    assert_eq!(
        lines[3],
        r#"{"summary":{"documents":3,"objects":2,"crds":1,"files":2,"ok":2,"warnings":0,"errors":1,"skipped":0,"unreadable":0,"valueValidation":true,"rulesChecked":0,"hidden":0,"builtin":0}}"#
    );
    // --show stored adds what the server would store.
    let o = check_in(
        &d,
        &["--crds", "crds.yaml", "widgets.yaml", "-o", "json", "--show", "stored"],
        "",
    );
    let lines = json_lines(&o);
    assert_eq!(lines[1]["stored"], Value::Null);
    assert_eq!(lines[2]["stored"]["spec"], serde_json::json!({"replicas": 2}));
}

#[test]
fn built_in_kinds_a_release_does_not_serve_are_errors() {
    let d = dir(&[("crds.yaml", CRD)]);
    let objects = "apiVersion: extensions/v1beta1
kind: Ingress
metadata: {name: old}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: pdb}
---
apiVersion: autoscaling/v2beta2
kind: HorizontalPodAutoscaler
metadata: {name: hpa}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
";
    let o = check_in(&d, &["--allow-no-objects", "-v", "-"], objects);
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert_eq!(
        out(&o),
        "<stdin>:1:1: error: no matches for kind \"Ingress\" in version \"extensions/v1beta1\"
<stdin>:1:1: note: Kubernetes 1.36 does not serve it: extensions/v1beta1 Ingress is deprecated in v1.14+, unavailable in v1.22+; use networking.k8s.io/v1 Ingress
<stdin>:5:1: error: no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\"
<stdin>:5:1: note: Kubernetes 1.36 does not serve it: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget
<stdin>:9:1: error: no matches for kind \"HorizontalPodAutoscaler\" in version \"autoscaling/v2beta2\"
<stdin>:9:1: note: Kubernetes 1.36 has no kind HorizontalPodAutoscaler in autoscaling/v2beta2; it serves autoscaling/v1 HorizontalPodAutoscaler, autoscaling/v2 HorizontalPodAutoscaler
<stdin>:13:1: ok: PodDisruptionBudget/pdb (decoded; validation not checked)
checked 4 objects (1 built-in) against 0 CRDs in 1 file: 1 ok, 3 with errors, 0 skipped
note: built-in objects are decoded as the API server decodes them; their defaulting and validation are not checked yet
"
    );
    // A release before a removal serves the kind.
    let o = check_in(
        &d,
        &["--kubernetes-version", "1.30", "--allow-no-objects", "-v", "-"],
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: {name: fs}
",
    );
    assert_eq!(code(&o), 0, "{}", err(&o));
    // Served and deprecated: the server's warning, as kubectl prints it after `Warning:`.
    assert_eq!(
        out(&o),
        "<stdin>:1:1: warning: flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, \
         unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema
checked 1 object (1 built-in) against 0 CRDs in 1 file: 0 ok, 1 with warnings, 0 with errors, 0 skipped
note: built-in objects are decoded as the API server decodes them; their defaulting and validation are not checked yet
"
    );
    let o = check_in(
        &d,
        &["--kubernetes-version", "1.30", "--allow-no-objects", "-o", "json", "-"],
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: FlowSchema\nmetadata: {name: fs}\n",
    );
    let lines = json_lines(&o);
    assert_eq!(lines[0]["outcome"], "warning");
    assert_eq!(
        lines[0]["warnings"],
        serde_json::json!([
            "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, unavailable in v1.32+; \
             use flowcontrol.apiserver.k8s.io/v1 FlowSchema"
        ])
    );
    let o = check_in(
        &d,
        &["--kubernetes-version", "1.32", "-"],
        "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: {name: fs}
",
    );
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert!(out(&o).contains("unavailable in v1.32+"), "{}", out(&o));
    let o = check_in(&d, &["--kubernetes-version", "1.29", "-"], "");
    assert_eq!(code(&o), 2);
    assert!(err(&o).contains("unknown Kubernetes release \"1.29\""), "{}", err(&o));
}

#[test]
fn kinds_and_versions_nothing_serves_are_errors_with_hints() {
    let d = dir(&[("crds.yaml", CRD)]);
    let objects = "apiVersion: example.com/v1
kind: Widgt
metadata: {name: b}
---
apiVersion: exmaple.com/v1
kind: Widget
metadata: {name: g}
---
apiVersion: example.com/v0
kind: Widget
metadata: {name: c}
---
apiVersion: example.com/v2
kind: Widget
metadata: {name: c2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: e}
";
    let o = check_in(&d, &["--crds", "crds.yaml", "-v", "-"], objects);
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert_eq!(
        out(&o),
        "crds.yaml:1:1: ok: CustomResourceDefinition/widgets.example.com
<stdin>:1:1: error: no CRD for kind \"Widgt\" in group \"example.com\" (did you mean \"Widget\"?)
<stdin>:5:1: error: no CRD for kind \"Widget\" in group \"exmaple.com\" (did you mean group \"example.com\"?)
<stdin>:9:1: error: no matches for kind \"Widget\" in version \"example.com/v0\"
<stdin>:9:1: note: widgets.example.com serves v1
<stdin>:13:1: error: no matches for kind \"Widget\" in version \"example.com/v2\"
<stdin>:13:1: note: widgets.example.com serves v1
<stdin>:17:1: ok: Deployment/d (decoded; validation not checked)
<stdin>:21:1: ok: ConfigMap/e (decoded; validation not checked)
checked 6 objects (2 built-in) against 1 CRD in 2 files: 2 ok, 4 with errors, 0 skipped
note: built-in objects are decoded as the API server decodes them; their defaulting and validation are not checked yet
"
    );
    // Opting out.
    let o = check_in(
        &d,
        &[
            "--crds",
            "crds.yaml",
            "--skip-kinds",
            "Widgt",
            "--ignore-missing-crds",
            "-o",
            "json",
            "-",
        ],
        objects,
    );
    let lines = json_lines(&o);
    assert_eq!(lines[1]["outcome"], "skipped");
    assert_eq!(lines[1]["reason"], "--skip-kinds");
    assert_eq!(lines[2]["outcome"], "skipped");
    assert_eq!(lines[2]["reason"], "no CRD");
    assert_eq!(lines[3]["outcome"], "error");
    let o = check_in(
        &d,
        &[
            "--crds",
            "crds.yaml",
            "--skip-kinds",
            "example.com/Widget,exmaple.com/v1/Widget,Widgt,apps/v1/Deployment,ConfigMap",
            "-",
        ],
        objects,
    );
    // Every object skipped: nothing was checked.
    assert_eq!(code(&o), 2, "{}", out(&o));
    assert!(
        out(&o).ends_with("checked 0 objects against 1 CRD in 2 files: 0 ok, 0 with errors, 6 skipped\n"),
        "{}",
        out(&o)
    );
}

#[test]
fn crds_come_from_the_stream_too_and_repeats_are_errors() {
    // `helm template | kstruct check -`: objects before their CRD.
    let stream =
        format!("apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: a}}\nspec: {{colour: red}}\n---\n{CRD}");
    let d = dir(&[("again.yaml", CRD)]);
    let o = check_in(&d, &["-o", "json", "-"], &stream);
    let lines = json_lines(&o);
    assert_eq!(lines[0]["unknownFields"][0]["path"], "spec.colour");
    assert_eq!(lines[0]["unknownFields"][0]["line"], 4);
    assert_eq!(lines[1]["outcome"], "ok");

    let o = check_in(&d, &["--crds", "again.yaml", "-"], &stream);
    assert_eq!(code(&o), 1);
    assert!(
        out(&o).contains(
            "<stdin>:6:1: error: a CustomResourceDefinition for kind \"Widget\" in group \"example.com\" is already defined at again.yaml:1; objects of that kind are checked against that one\n"
        ),
        "{}",
        out(&o)
    );
    // One file named twice is read once.
    let o = check_in(
        &d,
        &["--crds", "again.yaml", "again.yaml", ".", "--allow-no-objects"],
        "",
    );
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert!(
        out(&o).starts_with("checked 0 objects against 1 CRD in 1 file: 0 ok"),
        "{}",
        out(&o)
    );
}

#[test]
fn a_refused_crd_serves_nothing_and_says_where() {
    let bad = CRD.replace("name: widgets.example.com", "name: gadgets.example.com");
    let d = dir(&[("bad.yaml", &bad)]);
    let o = check_in(
        &d,
        &["--crds", "bad.yaml", "-"],
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n",
    );
    assert_eq!(code(&o), 1);
    let text = out(&o);
    assert!(text.starts_with("bad.yaml:3:12: error: metadata.name: Invalid value: \"gadgets.example.com\": must be spec.names.plural+\".\"+spec.group\n"), "{text}");
    assert!(text.contains("<stdin>:1:1: error: no matches for kind \"Widget\" in version \"example.com/v1\"\n<stdin>:1:1: note: the CRD for it, gadgets.example.com, at bad.yaml:1, would be refused by the API server\n"), "{text}");
}

#[test]
fn lists_are_checked_item_by_item() {
    let list = "apiVersion: v1
kind: List
items:
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: a}
  spec: {replicas: 1}
- apiVersion: example.com/v1
  kind: Widget
  metadata: {name: b}
  spec:
    replicsa: 1
";
    let d = dir(&[("crds.yaml", CRD), ("list.yaml", list)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "list.yaml"], "");
    assert_eq!(
        out(&o).lines().next().unwrap(),
        "list.yaml:12:5: error: unknown field \"spec.replicsa\" (did you mean \"spec.replicas\"?)"
    );
    let o = check_in(&d, &["--crds", "crds.yaml", "list.yaml", "-o", "json"], "");
    let lines = json_lines(&o);
    assert_eq!(
        (lines[1]["document"].as_u64(), lines[1]["line"].as_u64()),
        (Some(1), Some(4))
    );
    assert_eq!(
        (lines[2]["document"].as_u64(), lines[2]["line"].as_u64()),
        (Some(1), Some(8))
    );
    assert_eq!(lines[2]["name"], "b");
}

#[test]
fn unreadable_inputs_exit_2_after_checking_the_rest() {
    let d = dir(&[("crds.yaml", CRD), ("widgets.yaml", WIDGETS)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "missing.yaml", "widgets.yaml"], "");
    assert_eq!(code(&o), 2);
    assert!(
        err(&o).contains("kstruct: missing.yaml: No such file or directory"),
        "{}",
        err(&o)
    );
    assert!(
        out(&o).contains("checked 2 objects against 1 CRD in 2 files: 1 ok, 1 with errors, 0 skipped"),
        "{}",
        out(&o)
    );
}

#[test]
fn syntax_errors_point_into_the_file() {
    let d = dir(&[
        ("crds.yaml", CRD),
        (
            "broken.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: ok}\n---\na: [b\nc: d\n",
        ),
    ]);
    let o = check_in(&d, &["--crds", "crds.yaml", "broken.yaml", "-o", "json"], "");
    let lines = json_lines(&o);
    assert_eq!(lines[2]["outcome"], "error");
    assert_eq!(lines[2]["line"], 5);
    let text = check_in(&d, &["--crds", "crds.yaml", "broken.yaml"], "");
    assert!(out(&text).starts_with("broken.yaml:6:"), "{}", out(&text));
}

#[test]
fn directories_walk_in_path_order_with_excludes() {
    let d = dir(&[
        ("crds/widgets.yaml", CRD),
        (
            "m/b.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: b}\n",
        ),
        (
            "m/a/a.yml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a}\n",
        ),
        ("m/testdata/x.yaml", "apiVersion: example.com/v1\nkind: Nope\n"),
        ("m/notes.txt", "not yaml"),
    ]);
    let o = check_in(&d, &["--crds", "crds", "m", "--exclude", "testdata", "-o", "json"], "");
    assert_eq!(code(&o), 0, "{}", out(&o));
    let files: Vec<String> = json_lines(&o)
        .iter()
        .filter_map(|l| l["file"].as_str().map(String::from))
        .collect();
    assert_eq!(files, ["crds/widgets.yaml", "m/a/a.yml", "m/b.yaml"]);
}

#[test]
fn warn_mode_reports_warnings_and_passes() {
    let d = dir(&[("crds.yaml", CRD), ("widgets.yaml", WIDGETS)]);
    let o = check_in(
        &d,
        &["--crds", "crds.yaml", "widgets.yaml", "--field-validation", "Warn"],
        "",
    );
    assert_eq!(code(&o), 0);
    assert!(
        out(&o).starts_with("widgets.yaml:6:3: warning: unknown field \"spec.replica\""),
        "{}",
        out(&o)
    );
    assert!(out(&o).contains("1 ok, 1 with warnings, 0 with errors"), "{}", out(&o));
}

#[test]
fn stored_objects_and_diffs_for_people() {
    let d = dir(&[
        ("crds.yaml", CRD),
        (
            "w.yaml",
            "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {}\n",
        ),
    ]);
    let o = check_in(&d, &["--crds", "crds.yaml", "w.yaml", "-o", "yaml"], "");
    // What a create stores: the request's namespace, generation 1, defaults.
    assert_eq!(
        out(&o),
        "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  generation: 1\n  name: w\n  namespace: default\nspec:\n  replicas: 1\n"
    );
    assert!(
        err(&o).contains("checked 1 object against 1 CRD in 2 files"),
        "{}",
        err(&o)
    );
    let o = check_in(&d, &["--crds", "crds.yaml", "w.yaml", "--show", "diff"], "");
    assert!(out(&o).contains("--- w.yaml:1 Widget/w (input -> stored)\n@@ -2,4 +2,7 @@\n kind: Widget\n metadata:\n+  generation: 1\n   name: w\n-spec: {}\n+  namespace: default\n+spec:\n+  replicas: 1\n"), "{}", out(&o));
}

#[test]
fn junit_and_sarif() {
    let d = dir(&[("crds.yaml", CRD), ("widgets.yaml", WIDGETS)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "widgets.yaml", "-o", "junit"], "");
    let x = out(&o);
    assert!(x.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"kstruct check\" tests=\"3\" failures=\"1\" skipped=\"0\">\n"), "{x}");
    assert!(x.contains("<testcase classname=\"widgets.yaml\" name=\"#1 Widget/a (line 1)\">\n      <failure message=\"Widget in version &quot;v1&quot; cannot be handled"), "{x}");
    assert!(
        x.contains("widgets.yaml:6:3: unknown field &quot;spec.replica&quot;"),
        "{x}"
    );
    let o = check_in(&d, &["--crds", "crds.yaml", "widgets.yaml", "-o", "sarif"], "");
    let s: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(s["version"], "2.1.0");
    let results = s["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["ruleId"], "unknown-field");
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({"startLine": 6, "startColumn": 3})
    );
}

#[test]
fn colors_only_when_asked_or_on_a_terminal() {
    let d = dir(&[("crds.yaml", CRD), ("widgets.yaml", WIDGETS)]);
    let plain = check_in(&d, &["--crds", "crds.yaml", "widgets.yaml"], "");
    assert!(!out(&plain).contains('\x1b'));
    let colored = check_in(&d, &["--crds", "crds.yaml", "widgets.yaml", "--color", "always"], "");
    assert!(out(&colored).contains("\x1b["));
}

#[test]
fn a_closed_pipe_ends_quietly() {
    let mut stream = String::from(CRD);
    for i in 0..3000 {
        stream.push_str(&format!(
            "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: w{i}}}\nspec: {{x: 1}}\n"
        ));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        let _ = stdin.write_all(stream.as_bytes());
    });
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is dropped here: the rest of the output meets a closed pipe.
    let o = child.wait_with_output().unwrap();
    assert_eq!(err(&o), "");
    assert_ne!(code(&o), 101);
}

/// What a repository holds beside its manifests.
const NOT_OBJECTS: &[(&str, &str)] = &[
    (
        ".github/workflows/ci.yml",
        "name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n",
    ),
    (
        "docker-compose.yml",
        "version: \"3\"\nservices:\n  web:\n    image: nginx\n",
    ),
    ("nokind.yaml", "apiVersion: example.com/v1\nmetadata: {name: a}\n"),
    // An object with a mistake, not another tool's file: an error.
    ("noversion.yaml", "kind: Widget\nmetadata: {name: a}\n"),
    ("list.json", "[{\"op\": \"add\", \"path\": \"/spec\", \"value\": {}}]\n"),
    // A Helm template: does not read as YAML; the template's first action is on line 5.
    (
        "chart/templates/widget.yaml",
        "# The widget\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {{ .Values.name }}\n  labels:\n    {{- include \"chart.labels\" . | nindent 4 }}\nspec:\n  replicas: {{ .Values.replicas }}\n",
    ),
    // One that reads, quoting its actions: an object with template strings.
    (
        "chart/templates/quoted.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: \"{{ .Values.name }}\"\nspec: {replicas: 1}\n",
    ),
    // `{{ }}` that is not Helm's is an object's data (Argo workflows, alerting rules).
    (
        "argo.yaml",
        "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: argo\n  annotations: {message: \"{{inputs.parameters.message}}\"}\nspec: {replicas: 1}\n",
    ),
];

#[test]
fn files_that_are_not_objects_are_skipped_in_one_line() {
    let mut files = NOT_OBJECTS.to_vec();
    files.push(("crds.yaml", CRD));
    files.push(("chart/values.yaml", "replicaCount: 1\nimage:\n  repository: nginx\n"));
    files.push((
        "kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [a.yaml]\n",
    ));
    let d = dir(&files);
    let o = check_in(&d, &["--crds", "crds.yaml", "."], "");
    assert_eq!(code(&o), 1, "{}{}", out(&o), err(&o));
    assert_eq!(
        out(&o),
        ".github/workflows/ci.yml:1:1: note: skipped: not a Kubernetes object (no apiVersion and no kind)
chart/templates/quoted.yaml:4:10: note: skipped: an unrendered Helm template ({{ .Values.name }}); check the output of `helm template` instead
chart/templates/widget.yaml:5:9: note: skipped: an unrendered Helm template ({{ .Values.name }}); check the output of `helm template` instead
chart/values.yaml:1:1: note: skipped: not a Kubernetes object (no apiVersion and no kind)
docker-compose.yml:1:1: note: skipped: not a Kubernetes object (no apiVersion and no kind)
list.json:1:1: note: skipped: not a Kubernetes object (a list, not a mapping)
nokind.yaml:1:1: note: skipped: not a Kubernetes object (no kind)
noversion.yaml:1:1: error: no apiVersion: kubectl refuses to send an object without one (apiVersion not set)
checked 2 objects against 1 CRD in 11 files: 1 ok, 1 with errors, 8 skipped
"
    );
    // Machines keep the server's answer, whole, and read why in `reason`.
    let lines = json_lines(&check_in(&d, &["--crds", "crds.yaml", ".", "-o", "json"], ""));
    let by_file = |f: &str| lines.iter().find(|l| l["file"] == f).unwrap().clone();
    let ci = by_file(".github/workflows/ci.yml");
    assert_eq!(ci["outcome"], "skipped");
    assert_eq!(ci["reason"], "not a Kubernetes object (no apiVersion and no kind)");
    assert_eq!(
        ci["messages"][0],
        "the object provided is unrecognized: Object 'Kind' is missing in 'name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n' (6e616d653a2063690a6f6e3a205b707573685d0a6a6f62733a0a20206275 ...)"
    );
    let template = by_file("chart/templates/widget.yaml");
    assert_eq!(template["outcome"], "skipped");
    assert!(
        template["messages"][0]
            .as_str()
            .unwrap()
            .starts_with("the object provided is unrecognized: yaml: line 6: "),
        "{template}"
    );
    assert_eq!(by_file("noversion.yaml")["messages"], serde_json::json!([]));
    assert_eq!(by_file("noversion.yaml")["outcome"], "error");
    assert_eq!(by_file("kustomization.yaml")["reason"], "not sent to the API server");
    assert_eq!(by_file("argo.yaml")["outcome"], "ok");

    // For repositories of manifests only, each is an error.
    let o = check_in(&d, &["--crds", "crds.yaml", ".", "--non-objects", "error"], "");
    assert_eq!(code(&o), 1);
    let text = out(&o);
    assert!(
        text.starts_with(".github/workflows/ci.yml:1:1: error: not a Kubernetes object (no apiVersion and no kind)\n"),
        "{text}"
    );
    assert!(
        text.contains("chart/templates/widget.yaml:5:9: error: an unrendered Helm template ({{ .Values.name }})"),
        "{text}"
    );
    assert!(
        text.ends_with("checked 2 objects against 1 CRD in 11 files: 1 ok, 1 with errors, 1 skipped; 7 documents not Kubernetes objects\n"),
        "{text}"
    );
    let o = check_in(
        &d,
        &["--crds", "crds.yaml", ".", "--non-objects", "error", "-o", "sarif"],
        "",
    );
    let s: Value = serde_json::from_str(&out(&o)).unwrap();
    let first = &s["runs"][0]["results"][0];
    assert_eq!(first["ruleId"], "not-an-object");
    assert_eq!(
        first["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        ".github/workflows/ci.yml"
    );
}

const VALIDATED_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
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
          spec:
            type: object
            required: [size]
            x-kubernetes-validations: [{rule: 'self.size < 100'}]
            properties:
              size: {type: integer, minimum: 1}
              mode: {type: string, enum: [fast, safe]}
          status:
            type: object
            properties:
              ready: {type: boolean}
";

#[test]
fn a_broken_rule_is_reported_at_its_node() {
    let gadgets = "apiVersion: example.com/v1
kind: Gadget
metadata: {name: big}
spec:
  size: 300
  mode: fast
";
    let d = dir(&[("crds.yaml", VALIDATED_CRD), ("gadgets.yaml", gadgets)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "gadgets.yaml"], "");
    assert_eq!(code(&o), 1);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "gadgets.yaml:4:1: error: spec: Invalid value: failed rule: self.size < 100",
        "{text}"
    );
    let o = check_in(&d, &["--crds", "crds.yaml", "gadgets.yaml", "-o", "json"], "");
    let json = json_lines(&o);
    assert_eq!(json.last().unwrap()["summary"]["rulesChecked"], 1);
}

#[test]
fn values_are_validated_as_a_create_at_their_fields() {
    let gadgets = "apiVersion: example.com/v1
kind: Gadget
metadata:
  name: Bad_Name
spec:
  mode: quick
status:
  ready: 7
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: good}
spec: {size: 3}
status: {ready: true}
";
    let d = dir(&[("crds.yaml", VALIDATED_CRD), ("gadgets.yaml", gadgets)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "gadgets.yaml"], "");
    assert_eq!(code(&o), 1);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with(
            "gadgets.yaml:4:3: error: metadata.name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain"
        ) && lines[0].ends_with("(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"),
        "{text}"
    );
    // A required field that is missing points at its parent; status is dropped on create
    // (status subresource), so its bad value is not reported.
    assert_eq!(
        &lines[1..],
        [
            "gadgets.yaml:5:1: error: spec.size: Required value",
            "gadgets.yaml:6:3: error: spec.mode: Unsupported value: \"quick\": supported values: \"fast\", \"safe\"",
            "gadgets.yaml:1:1: error: <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation",
            "checked 2 objects against 1 CRD in 2 files: 1 ok, 1 with errors, 0 skipped",
        ]
    );
    let o = check_in(
        &d,
        &["--crds", "crds.yaml", "gadgets.yaml", "-o", "json", "--show", "stored"],
        "",
    );
    let json = json_lines(&o);
    assert!(
        json[1]["messages"][0]
            .as_str()
            .unwrap()
            .starts_with("Gadget.example.com \"Bad_Name\" is invalid: [metadata.name: Invalid value: \"Bad_Name\": ")
    );
    // In the server's order.
    let paths: Vec<&str> = json[1]["validationErrors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["metadata.name", "spec.mode", "spec.size", "<nil>"]);
    assert_eq!(
        json[1]["validationErrors"][2],
        serde_json::json!({"path": "spec.size", "message": "spec.size: Required value", "line": 5, "column": 1})
    );
    assert_eq!(json[1]["validationErrors"][3]["line"], Value::Null);
    assert_eq!(
        json[2]["stored"]["metadata"],
        serde_json::json!({"generation": 1, "name": "good", "namespace": "default"})
    );
    assert_eq!(json[2]["stored"].get("status"), None);
    // The rules ran for the valid document; the other's errors stopped them.
    assert_eq!(json[3]["summary"]["rulesChecked"], 1);
    // Decoding only.
    let o = check_in(&d, &["--crds", "crds.yaml", "gadgets.yaml", "--skip-validation"], "");
    assert_eq!(code(&o), 0, "{}", out(&o));
    assert!(
        out(&o).ends_with("note: values were not validated (--skip-validation)\n"),
        "{}",
        out(&o)
    );
}

#[test]
fn bodies_over_the_servers_limit_are_refused() {
    let big = format!(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {{name: big}}\nspec: {{replicas: 1}}\n# {}\n",
        "x".repeat(200)
    );
    let d = dir(&[("crds.yaml", CRD), ("big.yaml", &big)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "big.yaml", "--max-body-size", "100"], "");
    assert_eq!(code(&o), 1);
    assert_eq!(
        out(&o).lines().take(2).collect::<Vec<_>>(),
        [
            "big.yaml:1:1: error: Request entity too large: limit is 100",
            "big.yaml:1:1: note: the document is 285 bytes; --max-body-size raises the limit",
        ]
    );
    let o = check_in(&d, &["--crds", "crds.yaml", "big.yaml"], "");
    assert_eq!(code(&o), 0, "{}", out(&o));
}

#[test]
fn exclude_globs_never_match_the_inputs_themselves() {
    let d = dir(&[
        ("crds.yaml", CRD),
        ("widgets.yaml", WIDGETS),
        (
            ".hidden/w.yaml",
            "apiVersion: example.com/v1\nkind: Nope\nmetadata: {name: n}\n",
        ),
        ("sub/empty.txt", ""),
    ]);
    // `.*` leaves out hidden files below `.`, not `.` and all it holds.
    let o = check_in(&d, &["--crds", "crds.yaml", "--exclude", ".*", ".", "-o", "json"], "");
    let files: Vec<String> = json_lines(&o)
        .iter()
        .filter_map(|l| l["file"].as_str().map(String::from))
        .collect();
    assert_eq!(files, ["crds.yaml", "widgets.yaml", "widgets.yaml"]);
    // Nor `..` and the path to it: globs match paths relative to the input.
    let o = check_in(&d.join("sub"), &["--exclude", ".*", "..", "-o", "json"], "");
    let files: Vec<String> = json_lines(&o)
        .iter()
        .filter_map(|l| l["file"].as_str().map(String::from))
        .collect();
    assert_eq!(files, ["../crds.yaml", "../widgets.yaml", "../widgets.yaml"]);
    // A file named on the command line is read whatever the globs say.
    let o = check_in(&d, &["--crds", "crds.yaml", "--exclude", "*.yaml", "widgets.yaml"], "");
    assert!(
        out(&o).ends_with("checked 2 objects against 1 CRD in 2 files: 1 ok, 1 with errors, 0 skipped\n"),
        "{}",
        out(&o)
    );
}

#[test]
fn a_run_that_checked_no_object_fails_and_says_why() {
    let d = dir(&[
        ("crds/widgets.yaml", CRD),
        ("empty/.keep", ""),
        (
            "deploy/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [app.yaml]\n",
        ),
        ("widgets.yaml", WIDGETS),
    ]);
    let o = check_in(&d, &["--crds", "crds", "--exclude", ".*", "."], "");
    assert_eq!(code(&o), 1, "{}", err(&o));
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--crds", "crds/widgets.yaml", "--exclude", "*.yaml", "."],
            "checked 0 objects against 1 CRD in 1 file: 0 ok, 0 with errors, 0 skipped\n",
            "kstruct: no object was checked: the inputs hold 1 CRD, but no object; --allow-no-objects lets a run without objects pass\n",
        ),
        (
            &["empty"],
            "checked 0 objects against 0 CRDs in 0 files: 0 ok, 0 with errors, 0 skipped\n",
            "kstruct: no object was checked: the inputs hold no .yaml, .yml or .json file; --allow-no-objects lets a run without objects pass\n",
        ),
        (
            &["--exclude", "*", "."],
            "checked 0 objects against 0 CRDs in 0 files: 0 ok, 0 with errors, 0 skipped\n",
            "kstruct: no object was checked: the inputs hold no .yaml, .yml or .json file (4 paths left out by --exclude); --allow-no-objects lets a run without objects pass\n",
        ),
        // An empty `$FILES`: standard input, empty.
        (
            &["--crds", "crds/widgets.yaml"],
            "checked 0 objects against 1 CRD in 2 files: 0 ok, 0 with errors, 0 skipped\n",
            "kstruct: no object was checked: the inputs hold 1 CRD, but no object; --allow-no-objects lets a run without objects pass\n",
        ),
        (
            &[],
            "checked 0 objects against 0 CRDs in 1 file: 0 ok, 0 with errors, 0 skipped\n",
            "kstruct: no object was checked: standard input, read because no path was given, was empty; --allow-no-objects lets a run without objects pass\n",
        ),
        (
            &["--crds", "crds", "deploy"],
            "checked 0 objects against 1 CRD in 2 files: 0 ok, 0 with errors, 1 skipped\n",
            "kstruct: no object was checked: the inputs hold 1 CRD and 1 skipped document (-v lists them), but no object; --allow-no-objects lets a run without objects pass\n",
        ),
    ];
    for (args, stdout, stderr) in cases {
        let o = check_in(&d, args, "");
        assert_eq!(
            (code(&o), out(&o), err(&o)),
            (2, stdout.to_string(), stderr.to_string()),
            "{args:?}"
        );
    }
    // A repository of CRDs only.
    let o = check_in(&d, &["--allow-no-objects", "crds"], "");
    assert_eq!(code(&o), 0, "{}", err(&o));
    assert_eq!(err(&o), "");
    let o = check_in(&d, &["--allow-no-objects", "crds", "-o", "json"], "");
    assert_eq!(
        json_lines(&o)[1]["summary"],
        serde_json::json!({"documents": 1, "objects": 0, "crds": 1, "files": 1, "ok": 1, "warnings": 0, "errors": 0,
                           "skipped": 0, "unreadable": 0, "valueValidation": true, "rulesChecked": 0, "hidden": 0, "builtin": 0})
    );
}

const STRICT_CRD: &str = "apiVersion: apiextensions.k8s.io/v1
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
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1}
              mode: {type: string, enum: [fast, safe]}
              color: {type: string, pattern: '^[a-z]+$'}
              count: {type: integer, maximum: 5}
";

/// Two decoding errors (a misspelt field, a repeated key) and five values validation refuses.
const SEVEN_PROBLEMS: &str = "apiVersion: example.com/v1
kind: Gadget
metadata:
  name: Bad_Name
spec:
  sise: 3
  mode: quick
  mode: slow
  color: \"RED\"
  count: 9
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: typo}
spec: {size: 1, colour: red}
";

#[test]
fn strict_errors_say_how_many_errors_validation_would_add() {
    let d = dir(&[("crds.yaml", STRICT_CRD), ("g.yaml", SEVEN_PROBLEMS)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "g.yaml"], "");
    assert_eq!(code(&o), 1);
    assert_eq!(
        out(&o),
        "g.yaml:6:3: error: unknown field \"spec.sise\" (did you mean \"spec.size\"?)
g.yaml:8:3: error: duplicate field \"spec.mode\"
g.yaml:7:3: note: first written here
g.yaml:1:1: note: validation would report 5 more errors once the unknown and duplicate fields are fixed; --field-validation Warn shows them
g.yaml:15:17: error: unknown field \"spec.colour\" (did you mean \"spec.color\"?)
checked 2 objects against 1 CRD in 2 files: 0 ok, 2 with errors, 0 skipped
"
    );
    // The server's message stays as it is; the count is a field of its own.
    let lines = json_lines(&check_in(&d, &["--crds", "crds.yaml", "g.yaml", "-o", "json"], ""));
    assert_eq!(
        lines[1]["messages"],
        serde_json::json!([
            "Gadget in version \"v1\" cannot be handled as a Gadget: strict decoding error: yaml: unmarshal errors:\n  line 8: key \"mode\" already set in map, unknown field \"spec.sise\""
        ])
    );
    assert_eq!(lines[1]["hidden"], 5);
    assert_eq!(lines[2].get("hidden"), None);
    assert_eq!(lines[3]["summary"]["hidden"], 5);
    // SARIF: a note beside the errors.
    let o = check_in(&d, &["--crds", "crds.yaml", "g.yaml", "-o", "sarif"], "");
    let s: Value = serde_json::from_str(&out(&o)).unwrap();
    let note = &s["runs"][0]["results"][2];
    assert_eq!(
        (&note["ruleId"], &note["level"]),
        (&Value::from("hidden-errors"), &Value::from("note"))
    );
    // Without validation there is nothing to hide.
    let o = check_in(
        &d,
        &["--crds", "crds.yaml", "g.yaml", "--skip-validation", "-o", "json"],
        "",
    );
    assert_eq!(json_lines(&o)[1].get("hidden"), None);
}

#[test]
fn under_warn_fields_are_warnings_beside_the_errors() {
    let d = dir(&[("crds.yaml", STRICT_CRD), ("g.yaml", SEVEN_PROBLEMS)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "g.yaml", "--field-validation", "Warn"], "");
    assert_eq!(code(&o), 1);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("g.yaml:4:3: error: metadata.name: Invalid value: \"Bad_Name\": "),
        "{text}"
    );
    assert_eq!(
        &lines[1..],
        [
            "g.yaml:5:1: error: spec.size: Required value",
            "g.yaml:6:3: warning: unknown field \"spec.sise\" (did you mean \"spec.size\"?)",
            "g.yaml:8:3: warning: duplicate field \"spec.mode\"",
            "g.yaml:7:3: note: first written here",
            "g.yaml:8:3: error: spec.mode: Unsupported value: \"slow\": supported values: \"fast\", \"safe\"",
            "g.yaml:9:3: error: spec.color: Invalid value: \"RED\": spec.color in body should match '^[a-z]+$'",
            "g.yaml:10:3: error: spec.count: Invalid value: 9: spec.count in body should be less than or equal to 5",
            "g.yaml:15:17: warning: unknown field \"spec.colour\" (did you mean \"spec.color\"?)",
            "checked 2 objects against 1 CRD in 2 files: 0 ok, 1 with warnings, 1 with errors, 0 skipped",
        ]
    );
    let o = check_in(
        &d,
        &[
            "--crds",
            "crds.yaml",
            "g.yaml",
            "--field-validation",
            "Warn",
            "-o",
            "sarif",
        ],
        "",
    );
    let s: Value = serde_json::from_str(&out(&o)).unwrap();
    let levels: Vec<(&str, &str)> = s["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["ruleId"].as_str().unwrap(), r["level"].as_str().unwrap()))
        .collect();
    assert_eq!(
        levels,
        [
            ("invalid-value", "error"),
            ("invalid-value", "error"),
            ("unknown-field", "warning"),
            ("duplicate-field", "warning"),
            ("invalid-value", "error"),
            ("invalid-value", "error"),
            ("invalid-value", "error"),
            ("unknown-field", "warning"),
        ]
    );
}

#[test]
fn help_says_what_is_validated_and_what_is_not() {
    let o = check_in(Path::new("."), &["--help"], "");
    let help = out(&o);
    assert!(!help.contains("not validated against the schemas yet"), "{help}");
    assert!(!help.contains("are not evaluated"), "{help}");
    assert!(
        help.contains("CEL rules (`x-kubernetes-validations`), each error at its field's line"),
        "{help}"
    );
    assert!(help.contains("--allow-no-objects"), "{help}");
    assert!(help.contains("--non-objects <WHAT>"), "{help}");
}

#[test]
fn crd_patches_are_skipped_in_one_line_with_how_to_leave_them_out() {
    let webhook = "# Enables a conversion webhook for the CRD
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  conversion:
    strategy: Webhook
";
    let d = dir(&[
        ("config/crd/widgets.yaml", CRD),
        ("config/crd/patches/webhook_in_widgets.yaml", webhook),
    ]);
    let o = check_in(&d, &["--allow-no-objects", "config"], "");
    assert_eq!(code(&o), 0, "{}{}", out(&o), err(&o));
    assert_eq!(
        out(&o),
        "config/crd/patches/webhook_in_widgets.yaml:2:1: note: skipped: a patch of CRD \"widgets.example.com\", not a whole CRD (no spec.group, no spec.names); leave patch files out with --exclude '**/patches/**'
checked 0 objects against 1 CRD in 2 files: 0 ok, 0 with errors, 1 skipped
"
    );
    // Machines still get what the server would answer to creating it.
    let lines = json_lines(&check_in(&d, &["--allow-no-objects", "config", "-o", "json"], ""));
    let patch = lines
        .iter()
        .find(|l| l["file"] == "config/crd/patches/webhook_in_widgets.yaml")
        .unwrap();
    assert_eq!(patch["outcome"], "skipped");
    assert_eq!(patch["messages"][1], "spec.group: Required value");
    // Left out as the note says.
    let o = check_in(&d, &["--allow-no-objects", "config", "--exclude", "**/patches/**"], "");
    assert_eq!(
        out(&o),
        "checked 0 objects against 1 CRD in 1 file: 0 ok, 0 with errors, 0 skipped\n"
    );
}

#[test]
fn objects_are_reported_in_the_namespace_they_are_stored_in() {
    let cluster = CRD
        .replace("widgets.example.com", "gadgets.example.com")
        .replace("Widget", "Gadget")
        .replace("widget", "gadget")
        .replace("Namespaced", "Cluster");
    let objects = "apiVersion: example.com/v1
kind: Widget
metadata: {name: a}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: b, namespace: team}
---
apiVersion: example.com/v1
kind: Gadget
metadata: {name: c, namespace: team}
";
    let d = dir(&[
        ("crds.yaml", CRD),
        ("gadgets.yaml", &cluster),
        ("objects.yaml", objects),
    ]);
    let lines = json_lines(&check_in(
        &d,
        &[
            "--crds",
            "crds.yaml",
            "--crds",
            "gadgets.yaml",
            "objects.yaml",
            "-o",
            "json",
        ],
        "",
    ));
    let ns: Vec<&Value> = lines
        .iter()
        .filter(|l| l["file"] == "objects.yaml")
        .map(|l| &l["namespace"])
        .collect();
    assert_eq!(ns, [&Value::from("default"), &Value::from("team"), &Value::Null]);
}

#[test]
fn document_findings_point_at_the_first_key_past_comments() {
    let objects = "# Copyright 2026 The Authors
# A widget without a CRD.

apiVersion: example.com/v1
kind: Sprocket
metadata: {name: a}
---
  # indented comment

apiVersion: example.com/v1
kind: Sprocket
metadata: {name: b}
";
    let d = dir(&[("crds.yaml", CRD), ("objects.yaml", objects)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "objects.yaml"], "");
    let text = out(&o);
    assert!(
        text.starts_with("objects.yaml:4:1: error: no CRD for kind \"Sprocket\""),
        "{text}"
    );
    assert!(
        text.contains("\nobjects.yaml:10:1: error: no CRD for kind \"Sprocket\""),
        "{text}"
    );
    let lines = json_lines(&check_in(
        &d,
        &["--crds", "crds.yaml", "objects.yaml", "-o", "json"],
        "",
    ));
    assert_eq!(
        (&lines[1]["line"], &lines[2]["line"]),
        (&Value::from(4), &Value::from(10))
    );
}

#[test]
fn yaml_syntax_errors_say_what_is_wrong_and_where_it_started() {
    let broken = "apiVersion: example.com/v1
kind: Widget
metadata:
  name: a
  annotations:
    note: \"never closed
spec: {replicas: 1}
";
    let d = dir(&[("crds.yaml", CRD), ("broken.yaml", broken)]);
    let o = check_in(&d, &["--crds", "crds.yaml", "broken.yaml"], "");
    assert_eq!(code(&o), 1);
    // For people: go-yaml's text and the quote that was never closed, not a dump of the body.
    assert_eq!(
        out(&o),
        "broken.yaml:8:1: error: yaml: line 8: found unexpected end of stream
broken.yaml:6:11: note: the quoted scalar starts here
checked 1 object against 1 CRD in 2 files: 0 ok, 1 with errors, 0 skipped
"
    );
    // Machines keep the server's message whole.
    let lines = json_lines(&check_in(&d, &["--crds", "crds.yaml", "broken.yaml", "-o", "json"], ""));
    let m = lines[1]["messages"][0].as_str().unwrap();
    assert!(
        m.starts_with("the object provided is unrecognized: yaml: line 8: found unexpected end of stream ("),
        "{m}"
    );
}

#[test]
fn built_in_objects_are_decoded_as_the_server_decodes_them() {
    let d = dir(&[("crds.yaml", CRD)]);
    let objects = "apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  template:
    spec:
      containers:
      - name: web
        image: nginx
        imagePullPolice: Always
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  template:
    spec:
      containers:
      - name: a
      - name: b
        ports:
        - containerPort: \"80\"
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  ports:
  - port: 80
    targetPort: http
";
    let o = check_in(&d, &["--allow-no-objects", "-v", "-"], objects);
    assert_eq!(code(&o), 1, "{}", err(&o));
    assert_eq!(
        out(&o),
        "<stdin>:11:9: error: unknown field \"spec.template.spec.containers[0].imagePullPolice\" (did you mean \"spec.template.spec.containers[0].imagePullPolicy\"?)
  the API server would answer: Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.template.spec.containers[0].imagePullPolice\"
<stdin>:23:11: error: Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32
<stdin>:25:1: ok: Service/web (decoded; validation not checked)
checked 3 objects (3 built-in) against 0 CRDs in 1 file: 1 ok, 2 with errors, 0 skipped
note: built-in objects are decoded as the API server decodes them; their defaulting and validation are not checked yet
"
    );
    // Machine output: the server's whole message; Warn makes the fields warnings.
    let o = check_in(
        &d,
        &["--allow-no-objects", "--field-validation", "Warn", "-o", "json", "-"],
        objects,
    );
    let lines = json_lines(&o);
    assert_eq!(lines[0]["outcome"], "warning");
    assert_eq!(
        lines[0]["messages"],
        serde_json::json!([r#"unknown field "spec.template.spec.containers[0].imagePullPolice""#])
    );
    assert_eq!(lines[0]["unknownFields"][0]["line"], 11);
    assert_eq!(lines[0]["checked"], "decoding");
    assert_eq!(lines[3]["summary"]["builtin"], 3);
    // The release's own types: a field a later release added is unknown to an earlier one.
    let status = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: s}\nstatus: {terminatingReplicas: 1}\n";
    let o = check_in(&d, &["--kubernetes-version", "1.32", "--allow-no-objects", "-"], status);
    assert_eq!(code(&o), 1, "{}", out(&o));
    assert!(
        out(&o).contains("unknown field \"status.terminatingReplicas\""),
        "{}",
        out(&o)
    );
    let o = check_in(&d, &["--kubernetes-version", "1.33", "--allow-no-objects", "-"], status);
    assert_eq!(code(&o), 0, "{}", out(&o));
}
