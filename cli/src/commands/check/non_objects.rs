//! Documents that are not Kubernetes objects: what a repository holds beside its manifests
//! (CI workflows, Helm `values.yaml`, `docker-compose.yml`, `package.json`) and unrendered
//! Helm templates. `kstruct check` names them in one line and skips them (`--non-objects
//! error` makes them errors) rather than printing the server's answer, which quotes the whole
//! document.

use serde_json::Value;

/// What a document lacks to be a Kubernetes object, said for people (`no apiVersion and no
/// kind`, `a list, not a mapping`); `None` when it has both. A field that is there but empty
/// (`kind:`, `kind: ""`) is missing too; one of another type is the server's to answer.
pub fn missing_identity(v: &Value) -> Option<String> {
    let Some(map) = v.as_object() else {
        let what = match v {
            Value::Array(_) => "a list",
            Value::String(_) => "a string",
            Value::Number(_) => "a number",
            Value::Bool(_) => "a boolean",
            _ => "null",
        };
        return Some(format!("{what}, not a mapping"));
    };
    let missing = |key: &str| match map.get(key) {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(_) => false,
    };
    match (missing("apiVersion"), missing("kind")) {
        (true, true) => Some("no apiVersion and no kind".into()),
        (true, false) => Some("no apiVersion".into()),
        (false, true) => Some("no kind".into()),
        (false, false) => None,
    }
}

/// A Go template action (`{{ ... }}`) in a document's text.
#[derive(Debug, PartialEq, Eq)]
pub struct Action {
    /// Byte offset of its `{{` in the text.
    pub offset: usize,
    /// The action as written, cut at its line's end.
    pub text: String,
    /// It uses Helm's built-in objects (`.Values`, `.Release`, `.Chart`, ...) or `include`:
    /// the document is a Helm template, whatever else it holds. Other tools write `{{ }}` in
    /// objects the server accepts (Argo's `{{inputs.parameters.x}}`, alerting rules'
    /// `{{ $labels.instance }}`).
    pub helm: bool,
}

/// Helm's built-in objects and its own function, as an action starts with them.
const HELM_WORDS: &[&str] = &[
    ".Values",
    ".Release",
    ".Chart",
    ".Capabilities",
    ".Files",
    ".Template",
    "include ",
    "$.Values",
];

/// The template action a document is known by: its first Helm action, or its first action
/// of any kind. Lines that are YAML comments do not count.
pub fn template_action(text: &[u8]) -> Option<Action> {
    let mut first = None;
    let mut offset = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let start = offset;
        offset += line.len();
        if line.trim_ascii_start().first() == Some(&b'#') {
            continue;
        }
        let mut from = 0;
        while let Some(i) = find(&line[from..], b"{{").map(|i| from + i) {
            let rest = &line[i..];
            let end = find(rest, b"}}").map_or(rest.len(), |e| e + 2);
            let written = String::from_utf8_lossy(&rest[..end]);
            let action = Action {
                offset: start + i,
                text: written.trim_end().to_string(),
                helm: is_helm(&written),
            };
            if action.helm {
                return Some(action);
            }
            first.get_or_insert(action);
            from = i + end.max(2);
        }
    }
    first
}

fn is_helm(action: &str) -> bool {
    let inner = action.trim_start_matches('{').trim_start_matches('-').trim_start();
    // `{{ .Values.x }}`, `{{- include "name" . }}`, `{{ toYaml .Values.x | nindent 4 }}`.
    HELM_WORDS.iter().any(|w| inner.starts_with(w))
        || inner.contains(" .Values.")
        || inner.contains("(.Values.")
        || inner.contains(" .Release.")
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn objects_need_an_api_version_and_a_kind() {
        assert_eq!(
            missing_identity(&json!({"apiVersion": "v1", "kind": "ConfigMap"})),
            None
        );
        assert_eq!(
            missing_identity(&json!({"name": "ci", "on": ["push"]})).as_deref(),
            Some("no apiVersion and no kind")
        );
        assert_eq!(
            missing_identity(&json!({"kind": "Widget"})).as_deref(),
            Some("no apiVersion")
        );
        assert_eq!(
            missing_identity(&json!({"apiVersion": "v1", "kind": ""})).as_deref(),
            Some("no kind")
        );
        assert_eq!(missing_identity(&json!([1])).as_deref(), Some("a list, not a mapping"));
        // A kind of the wrong type is the server's to answer.
        assert_eq!(missing_identity(&json!({"apiVersion": "v1", "kind": 5})), None);
    }

    #[test]
    fn template_actions_helm_first_comments_ignored() {
        let text = b"# {{ .Values.commented }}\nkind: Widget\nmetadata:\n  name: {{ .Values.name }}\n";
        let a = template_action(text).unwrap();
        assert_eq!(a.text, "{{ .Values.name }}");
        assert_eq!(&text[a.offset..a.offset + 2], b"{{");
        assert!(a.helm);
        let argo = template_action(b"args: [\"{{inputs.parameters.message}}\"]\n").unwrap();
        assert!(!argo.helm);
        let later = template_action(b"a: \"{{ $labels.x }}\"\nb: {{- include \"x\" . | nindent 2 }}\n").unwrap();
        assert!(later.helm);
        assert_eq!(later.text, "{{- include \"x\" . | nindent 2 }}");
        assert!(template_action(b"{{ toYaml .Values.x }}").unwrap().helm);
        assert_eq!(template_action(b"a: {b: {c: 1}}\n"), None);
    }
}

/// What a CustomResourceDefinition document that is only part of one lacks, said for people:
/// kustomize patches (`config/crd/patches/webhook_in_widgets.yaml` sets `spec.conversion`,
/// `cainjection_in_widgets.yaml` only an annotation) name the CRD they patch and leave out what
/// every whole CRD has. `None` for a whole CRD, however broken: it has a group or names.
pub fn crd_patch(v: &Value) -> Option<String> {
    let spec = v.get("spec");
    let has = |key: &str| spec.and_then(|s| s.get(key)).is_some_and(|x| !x.is_null());
    if has("group") || has("names") {
        return None;
    }
    let name = v.pointer("/metadata/name").and_then(Value::as_str).unwrap_or_default();
    let what = if name.is_empty() {
        "a patch of a CRD".to_string()
    } else {
        format!("a patch of CRD {name:?}")
    };
    Some(format!("{what}, not a whole CRD (no spec.group, no spec.names)"))
}

/// How to leave a file out of a run: `--exclude '**/patches/**'` when it sits in a `patches`
/// directory (kubebuilder's layout), else its own name.
pub fn exclude_hint(file: &str) -> String {
    let path = std::path::Path::new(file);
    let in_patches = path
        .parent()
        .is_some_and(|p| p.components().any(|c| c.as_os_str() == "patches"));
    if in_patches {
        return "leave patch files out with --exclude '**/patches/**'".into();
    }
    let name = path.file_name().map_or(file.into(), |n| n.to_string_lossy());
    format!("leave patch files out with --exclude '{name}'")
}

#[cfg(test)]
mod patch_tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn crd_patches_are_told_from_whole_crds() {
        let webhook = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"}, "spec": {"conversion": {"strategy": "Webhook"}}});
        assert_eq!(
            crd_patch(&webhook).as_deref(),
            Some("a patch of CRD \"widgets.example.com\", not a whole CRD (no spec.group, no spec.names)")
        );
        let annotation = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"annotations": {"cert-manager.io/inject-ca-from": "x/y"}}});
        assert!(crd_patch(&annotation).is_some());
        // A whole CRD with mistakes is linted, not skipped.
        let broken = json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.example.com"}, "spec": {"group": "example.com"}});
        assert_eq!(crd_patch(&broken), None);
    }

    #[test]
    fn the_exclude_hint_names_the_patches_directory() {
        assert_eq!(
            exclude_hint("config/crd/patches/webhook_in_widgets.yaml"),
            "leave patch files out with --exclude '**/patches/**'"
        );
        assert_eq!(
            exclude_hint("deploy/crd-patch.yaml"),
            "leave patch files out with --exclude 'crd-patch.yaml'"
        );
    }
}
