//! Runs one operation over a workload, for instruction counts under callgrind (wall time on a
//! shared machine is too noisy to compare small differences):
//!
//! ```sh
//! cargo build --release -p kstruct-tests --example counts
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/counts corpus compiled pipeline
//! ```
//!
//! Workloads: `corpus` (the corpus instances, their CRDs compiled by build.rs), `large` (one
//! Backup with 5,000 list and 5,000 map entries). Implementations: `interpreter`, `compiled`.
//! Operations: `none` (setup only: subtract it), `clone` (part of `pipeline` and `tracked`), `pipeline` (prune, nulls,
//! default), `tracked` (prune tracking paths), `decode` (fieldValidation Warn, bytes to object
//! to bytes), `validate` (the schema's validation of the object as it is; the first use of a
//! pattern compiles it), `validate-twice` (minus `validate`: validation with patterns compiled), `parse` (kstruct's JSON decode and Go-style print: decode's floor), `serde`
//! (serde_json parse and print: the baseline).

use kstruct::DecodeExt;
use kstruct::{DecodeOptions, Pipeline, PruneOptions};
use serde_json::Value;

struct Case {
    pipeline: Box<dyn Pipeline>,
    bytes: Vec<u8>,
    value: Value,
}

fn corpus(compiled: bool) -> Vec<Case> {
    let shared = kstruct_tests::shared_dir().expect("../shared (or KSTRUCT_SHARED)");
    let mut crds = kstruct_tests::CrdCache::new(&shared);
    let mut cases = Vec::new();
    for line in kstruct_tests::read_jsonl(&shared.join("conformance/corpus-prune.jsonl")) {
        let file = line["crd"].as_str().unwrap();
        let version = line["version"].as_str().unwrap();
        let pipeline: Box<dyn Pipeline> = if compiled {
            // Compiled code needs no CRD at run time: the line names group and kind.
            let (group, kind) = (line["group"].as_str().unwrap(), line["kind"].as_str().unwrap());
            let p = kstruct_tests::compiled::corpus(file)
                .and_then(|r| r.find(group, kind))
                .and_then(|c| c.version(version))
                .unwrap()
                .unwrap();
            Box::new(Static(p))
        } else {
            let registered = kstruct::RegisteredCrd::new(crds.get(file).clone());
            Box::new(registered.version(version).unwrap().unwrap().as_ref().clone())
        };
        let value = line["input"].clone();
        cases.push(Case {
            pipeline,
            bytes: serde_json::to_vec(&value).unwrap(),
            value,
        });
    }
    cases
}

/// A `&'static dyn Pipeline` as a boxed one.
struct Static(&'static dyn Pipeline);

impl Pipeline for Static {
    fn walk(&self, value: &mut Value, options: PruneOptions, steps: kstruct::Steps) -> kstruct::PruneReport {
        self.0.walk(value, options, steps)
    }
    fn coerce_embedded(
        &self,
        value: &mut Value,
        options: kstruct::objectmeta::CoerceOptions,
    ) -> Result<Vec<String>, kstruct::schema::field::FieldError> {
        self.0.coerce_embedded(value, options)
    }
    fn validate(&self, value: &Value) -> kstruct::validation::SchemaErrors {
        self.0.validate(value)
    }
    fn has_validation_rules(&self) -> bool {
        self.0.has_validation_rules()
    }
    fn resource(&self) -> Option<&kstruct::GroupVersionKind> {
        self.0.resource()
    }
}

fn large(compiled: bool) -> Vec<Case> {
    let mut registry = kstruct::Registry::new();
    registry
        .add_yaml(include_str!("../../examples/crds/backups.example.com.yaml"), "backups")
        .unwrap();
    let pipeline: Box<dyn Pipeline> = if compiled {
        Box::new(kstruct_tests::compiled::own::example_com::v1::Backup)
    } else {
        Box::new(
            registry
                .find("example.com", "Backup")
                .unwrap()
                .version("v1")
                .unwrap()
                .unwrap()
                .as_ref()
                .clone(),
        )
    };
    let value = kstruct_tests::large_backup();
    vec![Case {
        pipeline,
        bytes: serde_json::to_vec(&value).unwrap(),
        value,
    }]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, workload, implementation, operation] = &args[..] else {
        eprintln!(
            "usage: counts corpus|large interpreter|compiled none|clone|pipeline|tracked|decode|validate|validate-twice|parse|serde"
        );
        std::process::exit(2);
    };
    let compiled = implementation == "compiled";
    let cases = match workload.as_str() {
        "corpus" => corpus(compiled),
        _ => large(compiled),
    };
    let root = PruneOptions {
        resource_root: true,
        track_unknown_fields: operation == "tracked",
    };
    for c in &cases {
        let p = &c.pipeline;
        match operation.as_str() {
            "none" => {}
            "clone" => drop(std::hint::black_box(c.value.clone())),
            "pipeline" => {
                let mut v = c.value.clone();
                p.prune(&mut v, root);
                p.prune_nulls(&mut v);
                p.default(&mut v);
                std::hint::black_box(v);
            }
            "tracked" => {
                let mut v = c.value.clone();
                std::hint::black_box(p.prune(&mut v, root));
                std::hint::black_box(v);
            }
            "decode" => {
                let d = p.decode(&c.bytes, &DecodeOptions::default()).unwrap();
                std::hint::black_box(kstruct::schema::go::marshal_json(&d.object));
            }
            "validate" => {
                std::hint::black_box(p.validate(&c.value));
            }
            // Subtract `validate` for the cost with every pattern already compiled.
            "validate-twice" => {
                std::hint::black_box(p.validate(&c.value));
                std::hint::black_box(p.validate(&c.value));
            }
            "serde" => {
                let v: Value = serde_json::from_slice(&c.bytes).unwrap();
                std::hint::black_box(serde_json::to_vec(&v).unwrap());
            }
            _ => {
                let v = kstruct::json::decode(&c.bytes).unwrap().value;
                std::hint::black_box(kstruct::schema::go::marshal_json(&v));
            }
        }
    }
}
