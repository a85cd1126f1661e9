//! One path over the workload, for instruction counts under callgrind:
//!
//! ```sh
//! cd perf && cargo build --release --example counts
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/counts small bytes-warn
//! ```
//!
//! Workloads: `small` (2,000 objects of ~2.5 KB), `large` (100 of ~61 KB). Paths: `none`
//! (setup only: subtract it), `serde` (serde_json bytes -> Value -> bytes, the baseline),
//! `bytes-ignore`, `bytes-warn` (compiled `decode_bytes`).

use kstruct::{DecodeOptions, FieldValidation, Pipeline};
use kstruct_perf::{objects, workloads};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, workload, path] = &args[..] else {
        eprintln!("usage: counts small|large none|serde|bytes-ignore|bytes-warn");
        std::process::exit(2);
    };
    let docs = match workload.as_str() {
        "small" => objects("small.jsonl", 2_000),
        _ => objects("large.jsonl", 100),
    };
    let compiled: &dyn Pipeline = workloads::REGISTRY
        .find("apps.example.com", "Workload")
        .and_then(|c| c.version("v1"))
        .and_then(Result::ok)
        .expect("compiled Workload v1");
    let mut out = Vec::new();
    for d in &docs {
        out.clear();
        match path.as_str() {
            "none" => {}
            "serde" => {
                let v: serde_json::Value = serde_json::from_slice(d).unwrap();
                out.extend(serde_json::to_vec(&v).unwrap());
            }
            mode => {
                let field_validation = if mode == "bytes-warn" {
                    FieldValidation::Warn
                } else {
                    FieldValidation::Ignore
                };
                let opts = DecodeOptions {
                    field_validation,
                    ..DecodeOptions::default()
                };
                std::hint::black_box(compiled.decode_bytes(d, &opts, &mut out).unwrap());
            }
        }
        std::hint::black_box(&out);
    }
}
