//! CRDs of Rust types through the `kstruct` binary: `Widget::crd()` (from
//! `#[derive(CustomResourceSchema)]` with resource attributes) passes `kstruct lint`, and what
//! serde writes for a `Widget` passes `kstruct decode --field-validation Strict` and comes back
//! as the same value.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use kstruct::{CustomResource, CustomResourceSchema};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A spec with the shapes kube-rs gets wrong.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(rename_all = "camelCase")]
#[kstruct(
    group = "example.com",
    version = "v1",
    kind = "Widget",
    namespaced,
    status = "WidgetStatus",
    printcolumn(name = "Replicas", type = "integer", json_path = ".spec.replicas"),
    scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas"),
    selectable = ".spec.replicas",
    derive(PartialEq)
)]
struct WidgetSpec {
    #[kstruct(minimum = 1, default = 1)]
    replicas: u16,
    power: Power,
    target: Target,
    check: Check,
    tags: BTreeSet<Point>,
    #[kstruct(list_type = "map", list_map_keys = ["name"])]
    ports: Vec<Port>,
    pair: (String, i32),
    #[serde(flatten)]
    extra: BTreeMap<String, Value>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
enum Power {
    Off,
    Manual { level: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(untagged)]
enum Target {
    Short(String),
    Long { name: String, namespace: String },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
#[serde(tag = "type")]
enum Check {
    Tcp { port: u16 },
    None,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, CustomResourceSchema)]
struct Point {
    x: i32,
    y: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct Port {
    name: String,
    port: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, CustomResourceSchema)]
struct WidgetStatus {
    replicas: i32,
}

fn crd_file() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("kstruct-cli-derive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("widgets.yaml");
    std::fs::write(&path, Widget::try_crd().expect("a CRD").to_yaml()).unwrap();
    path
}

#[test]
fn a_derived_crd_passes_lint_and_serde_output_decodes_strictly() {
    let crd = crd_file();
    let lint = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .arg("lint")
        .arg(&crd)
        .output()
        .unwrap();
    assert_eq!(lint.status.code(), Some(0), "{}", String::from_utf8_lossy(&lint.stdout));
    assert!(lint.stdout.is_empty());

    let spec = WidgetSpec {
        replicas: 3,
        power: Power::Manual { level: 2 },
        target: Target::Short("just-a-string".into()),
        check: Check::None,
        tags: [Point { x: 1, y: 2 }].into_iter().collect(),
        ports: vec![Port {
            name: "http".into(),
            port: 80,
        }],
        pair: ("a".into(), 1),
        extra: [("Note".to_owned(), json!({"free": [1, "two"]}))].into_iter().collect(),
    };
    let mut widget = Widget::new("w", spec);
    widget.status = Some(WidgetStatus { replicas: 2 });
    let body = serde_json::to_value(&widget).unwrap();
    let input = std::env::temp_dir().join(format!("kstruct-cli-derive-{}-body.json", std::process::id()));
    std::fs::write(&input, serde_json::to_vec(&body).unwrap()).unwrap();
    let decode = Command::new(env!("CARGO_BIN_EXE_kstruct"))
        .args(["decode", "--field-validation", "Strict", "--report", "--crd"])
        .arg(&crd)
        .arg(&input)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&decode.stdout).expect("a report line");
    assert_eq!(decode.status.code(), Some(0), "{report}");
    let back: Widget = serde_json::from_value(report["object"].clone()).unwrap();
    assert_eq!(back, widget);
}
