//! Shared helpers of kstruct's workspace-level tests: locating the conformance data, reading
//! JSON lines, comparing JSON values the way the conformance data asks (numbers by value), and
//! counting results per suite.

pub mod crd_rules;
pub mod derive_contract;
pub mod outline;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use kstruct::RegisteredCrd;
use kstruct::schema::Structural;
use kstruct::schema::crd::CustomResourceDefinition;
use serde_json::Value;

/// The `shared` folder next to the repository (or `$KSTRUCT_SHARED`), if present.
pub fn shared_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("KSTRUCT_SHARED") {
        let dir = PathBuf::from(dir);
        return dir.is_dir().then_some(dir);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared");
    dir.is_dir().then(|| dir.canonicalize().unwrap_or(dir))
}

/// Prints a line on the real stderr, past the test harness's output capture, so that skips and
/// conformance counts show in every test run (CI logs included).
pub fn announce(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// The shared folder, or `None` after printing one loud line saying that `suite` is skipped.
pub fn require_shared(suite: &str) -> Option<PathBuf> {
    let dir = shared_dir();
    if dir.is_none() {
        announce(&format!(
            "*** SKIPPED {suite}: ../shared (conformance data) not found; set KSTRUCT_SHARED to run it ***"
        ));
    }
    dir
}

/// Reads a JSON-lines file.
pub fn read_jsonl(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

/// JSON equality with numbers compared by value (`1` equals `1.0`), as the conformance data's
/// README asks: its expected outputs do not tell int64 from float64.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Parses a JSON text from a test table (the Go tests write objects as JSON strings).
pub fn parse_json_text(v: &Value) -> Value {
    let s = v.as_str().unwrap_or_else(|| panic!("expected a JSON string, got {v}"));
    serde_json::from_str(s).unwrap_or_else(|e| panic!("bad JSON in test table: {e}: {s}"))
}

/// A schema from a test table: `{"$structural": <v1 JSON>}` or `null`.
pub fn table_schema(v: &Value) -> Option<Structural> {
    match v {
        Value::Null => None,
        other => {
            let s = other
                .get("$structural")
                .unwrap_or_else(|| panic!("no $structural in {other}"));
            kstruct::schema::convert::from_value(s).unwrap_or_else(|e| panic!("schema does not convert: {e}"))
        }
    }
}

/// Counts matches and keeps the first mismatches of one suite, then reports.
pub struct Tally {
    name: String,
    total: usize,
    failures: Vec<String>,
}

impl Tally {
    /// A new, empty tally for `name`.
    pub fn new(name: &str) -> Tally {
        Tally {
            name: name.to_string(),
            total: 0,
            failures: Vec::new(),
        }
    }

    /// Records one case: `Ok` if it matched, `Err(explanation)` if not.
    pub fn check(&mut self, id: impl std::fmt::Display, result: Result<(), String>) {
        self.total += 1;
        if let Err(e) = result {
            self.failures.push(format!("{id}: {e}"));
        }
    }

    /// Prints `name: matched/total` and panics with the first mismatches if any.
    pub fn finish(self) {
        let matched = self.total - self.failures.len();
        announce(&format!("conformance {}: {matched}/{} match", self.name, self.total));
        if !self.failures.is_empty() {
            let shown: Vec<&str> = self.failures.iter().take(15).map(String::as_str).collect();
            panic!(
                "{}: {} of {} cases differ:\n{}",
                self.name,
                self.failures.len(),
                self.total,
                shown.join("\n")
            );
        }
    }
}

/// Compares two values and explains the difference.
pub fn expect_json(what: &str, got: &Value, want: &Value) -> Result<(), String> {
    if json_eq(got, want) {
        Ok(())
    } else {
        Err(format!("{what} differs\n   got: {got}\n  want: {want}"))
    }
}

/// Whether a `kstruct decode --report` line (`got`) says what a corpus-decode line (`want`)
/// expects under fieldValidation `mode` (`Strict`, `Warn` or `Ignore`): under Strict, a line
/// with a `strictError` expects the API server's whole message; otherwise the object, and under
/// Warn the warnings and unknown-field paths.
pub fn decode_report_matches(mode: &str, want: &Value, got: &Value) -> bool {
    match (mode, want["strictError"].as_str()) {
        ("Strict", Some(strict)) => {
            let input = &want["input"];
            let version = input["apiVersion"]
                .as_str()
                .unwrap_or("")
                .rsplit('/')
                .next()
                .unwrap_or("");
            let message = format!(
                "{} in version \"{version}\" cannot be handled as a {}: {strict}",
                input["kind"].as_str().unwrap_or(""),
                want["kind"].as_str().unwrap_or("")
            );
            got["object"].is_null() && got["error"] == message.as_str()
        }
        _ => {
            let none = Value::Array(Vec::new());
            let (warnings, unknown) = match mode {
                "Warn" => (&want["strictErrors"], &want["unknownFields"]),
                _ => (&none, &none),
            };
            got["error"].is_null()
                && json_eq(&got["object"], &want["object"])
                && json_eq(&got["warnings"], warnings)
                && json_eq(&got["unknownFields"], unknown)
        }
    }
}

/// The large object of the benchmarks: one example Backup with 5,000 list entries and 5,000
/// map entries, unknown fields and nulls to remove and defaults to fill in at every entry.
pub fn large_backup() -> Value {
    let targets: Vec<Value> = (0..5000)
        .map(|i| serde_json::json!({"name": format!("t{i}"), "paths": ["/a", "/b"], "level": i, "compression": null}))
        .collect();
    let labels: serde_json::Map<String, Value> = (0..5000)
        .map(|i| (format!("k{i}"), serde_json::json!(format!("v{i}"))))
        .collect();
    serde_json::json!({
        "apiVersion": "example.com/v1", "kind": "Backup", "metadata": {"name": "big"},
        "spec": {"schedule": "0 3 * * *", "targets": targets, "extraLabels": labels, "unknown": {"x": 1}},
    })
}

/// Loads corpus CRDs once each, and converts each version's schema once.
#[derive(Default)]
pub struct CrdCache {
    root: PathBuf,
    crds: HashMap<String, CustomResourceDefinition>,
    schemas: HashMap<(String, String, bool), Option<Arc<Structural>>>,
    endpoints: HashMap<(String, String), Arc<RegisteredCrd>>,
}

impl CrdCache {
    /// A cache over `<shared>/corpus/crds`.
    pub fn new(shared: &Path) -> CrdCache {
        CrdCache {
            root: shared.join("corpus/crds"),
            crds: HashMap::new(),
            schemas: HashMap::new(),
            endpoints: HashMap::new(),
        }
    }

    /// The CRD in `file` (relative to `corpus/crds`).
    pub fn get(&mut self, file: &str) -> &CustomResourceDefinition {
        let root = &self.root;
        self.crds.entry(file.to_string()).or_insert_with(|| {
            let path = root.join(file);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let docs = kstruct::input::read_documents(&bytes, file);
            let doc = docs.into_iter().next().unwrap_or_else(|| panic!("{file}: empty"));
            let value = doc.value.unwrap_or_else(|e| panic!("{file}: {e}"));
            CustomResourceDefinition::from_value(&value).unwrap_or_else(|e| panic!("{file}: {e}"))
        })
    }

    /// The converted schema of `version` in `file`; with `served`, after the serve-time
    /// pruning of defaults (whose errors leave the remaining defaults as written, as a serving
    /// API server would).
    pub fn schema(&mut self, file: &str, version: &str, served: bool) -> Option<Arc<Structural>> {
        let key = (file.to_string(), version.to_string(), served);
        if let Some(s) = self.schemas.get(&key) {
            return s.clone();
        }
        let crd = self.get(file);
        let v = crd
            .version(version)
            .unwrap_or_else(|| panic!("{file}: no version {version}"));
        let mut schema = v.structural().unwrap_or_else(|e| panic!("{file} {version}: {e}"));
        if served && let Some(s) = schema.as_mut() {
            let _ = kstruct::interpreter::prune_defaults(s);
        }
        let schema = schema.map(Arc::new);
        self.schemas.insert(key, schema.clone());
        schema
    }

    /// [`single_version`](CrdCache::single_version) for a corpus line, which names its CRD file
    /// (`crd`) and version (`version`).
    pub fn for_line(&mut self, line: &Value) -> Arc<RegisteredCrd> {
        let field = |k: &str| line[k].as_str().unwrap_or_else(|| panic!("corpus line without {k}"));
        self.single_version(field("crd"), field("version"))
    }

    /// The CRD in `file` registered with `version` only, as the conformance runs registered
    /// it (objects naming another version get an empty schema).
    pub fn single_version(&mut self, file: &str, version: &str) -> Arc<RegisteredCrd> {
        let key = (file.to_string(), version.to_string());
        if let Some(e) = self.endpoints.get(&key) {
            return e.clone();
        }
        let mut crd = self.get(file).clone();
        crd.versions.retain(|v| v.name == version);
        assert_eq!(crd.versions.len(), 1, "{file}: no version {version}");
        let endpoint = Arc::new(RegisteredCrd::new(crd));
        self.endpoints.insert(key, endpoint.clone());
        endpoint
    }
}

/// Code generated by kstruct-compiler for the differential tests (see `build.rs`).
pub mod compiled {
    include!(concat!(env!("OUT_DIR"), "/index.rs"));

    /// The registry holding the compiled corpus CRD file `file` (as conformance lines name
    /// it), if it was compiled.
    pub fn corpus(file: &str) -> Option<&'static ::kstruct::compiled::Registry> {
        CORPUS
            .binary_search_by(|(f, _)| (*f).cmp(file))
            .ok()
            .map(|i| CORPUS[i].1)
    }
}
