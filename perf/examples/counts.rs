//! One path over the workload, for instruction counts under callgrind:
//!
//! ```sh
//! cd perf && cargo build --release --example counts
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/counts small bytes-warn
//! ```
//!
//! Workloads: `small` (2,000 objects of ~2.5 KB), `large` (100 of ~61 KB), `builtins` (900
//! Helm-style Deployments of ~2 KB: `typed-ignore`, `typed-warn`, the built-in kind's
//! `decode_bytes`; `crd-ignore`, the same documents as a custom resource of the Deployment's
//! schema, by the byte walk; `serde`; `none`), `corpus` (the
//! corpus's 1,301 instances, when ../shared is present: `serde`, `walk-*`, counted with
//! `--toggle-collect=counts::corpus_pass`; also `sonic`). Paths: `none`
//! (setup only: subtract it), `serde` (serde_json bytes -> Value -> bytes, the baseline),
//! `bytes-ignore`, `bytes-warn` (compiled `decode_bytes`), `walk-ignore`, `walk-warn` (the
//! byte walk, `kstruct::scan`, by the interpreter's plan; it must answer every document);
//! decoding to a `Value`: `spec-ignore`, `spec-compiled-ignore` (the `Value` path by the
//! interpreter, by compiled code), `value-interpreter-ignore`, `value-ignore`, `value-warn`
//! (`decode`: the walk to a `Value`, by the interpreter's plan, by compiled code); in place on
//! parsed objects, prune + nulls + default: `inplace-none` (setup: subtract it),
//! `inplace-compiled`, `inplace-fused`, `inplace-hand` (`kstruct_perf::hand`), `inplace-check`
//! (all agree), `inplace-validate` (compiled validation of the parsed objects); `check-warn`:
//! the walk's bytes, warnings and paths under Warn are the `Value` path's, on every document.

use kstruct::{DecodeExt, DecodeOptions, FieldValidation, Pipeline, RegisteredCrd};
use kstruct_perf::{CRD, objects, workloads};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, workload, path] = &args[..] else {
        eprintln!(
            "usage: counts small|large|corpus none|serde|sonic|check-warn|bytes-ignore|bytes-warn|walk-ignore|walk-warn|spec-ignore|spec-compiled-ignore|value-interpreter-ignore|value-ignore|value-warn"
        );
        std::process::exit(2);
    };
    if workload == "corpus" {
        return corpus(path);
    }
    if workload == "builtins" {
        return builtins(path);
    }
    let docs = match workload.as_str() {
        "small" => objects("small.jsonl", 2_000),
        _ => objects("large.jsonl", 100),
    };
    let compiled: &dyn Pipeline = workloads::REGISTRY
        .find("apps.example.com", "Workload")
        .and_then(|c| c.version("v1"))
        .and_then(Result::ok)
        .expect("compiled Workload v1");
    let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::from_str(CRD).unwrap()).unwrap();
    let interpreted = RegisteredCrd::new(crd);
    if let Some(pass) = path.strip_prefix("inplace-") {
        return in_place(compiled, &docs, pass);
    }
    let opts = options(path);
    let mut out = Vec::new();
    for d in &docs {
        out.clear();
        match path.as_str() {
            "none" => {}
            "serde" => serde_round_trip(d, &mut out),
            "sonic" => {
                std::hint::black_box(sonic_rs::from_slice::<sonic_rs::Value>(d).unwrap());
            }
            "walk-ignore" | "walk-warn" => {
                let report = kstruct::scan::try_request_bytes(&interpreted, d, &opts, &mut out);
                std::hint::black_box(report.expect("walked"));
            }
            "check-warn" => check(&kstruct::decode::OneVersion(compiled), d, &opts),
            "spec-ignore" | "spec-compiled-ignore" | "value-ignore" | "value-warn" | "value-interpreter-ignore" => {
                let decoded = match path.as_str() {
                    "spec-ignore" => kstruct::decode::request_by_value(&interpreted, d, &opts, None),
                    "spec-compiled-ignore" => {
                        kstruct::decode::request_by_value(&kstruct::decode::OneVersion(compiled), d, &opts, None)
                    }
                    "value-interpreter-ignore" => kstruct::decode::request(&interpreted, d, &opts),
                    _ => compiled.decode(d, &opts),
                };
                std::hint::black_box(decoded.unwrap());
            }
            _ => {
                std::hint::black_box(compiled.decode_bytes(d, &opts, &mut out).unwrap());
            }
        }
        std::hint::black_box(&out);
    }
}

/// The `builtins` workload: a built-in Deployment decoded as the server decodes it, against
/// the same documents as a custom resource of the same shape.
fn builtins(path: &str) {
    use kstruct::builtin::{BuiltinKinds, Release};
    let docs = kstruct_perf::builtins::deployments(900);
    let kinds = BuiltinKinds::new(Release::newest());
    let crd = kstruct_perf::builtins::deployment_crd(Release::newest());
    let as_crd: Vec<Vec<u8>> = docs
        .iter()
        .map(|d| kstruct_perf::builtins::as_custom_resource(d))
        .collect();
    let opts = options(path);
    let mut out = Vec::new();
    // Plans are built before the counted documents (`none` counts this: subtract it).
    let _ = kinds.decode_bytes(&docs[0], &opts, &mut out);
    let _ = kstruct::scan::try_request_bytes(&crd, &as_crd[0], &opts, &mut out);
    for (d, c) in docs.iter().zip(&as_crd) {
        out.clear();
        match path {
            "none" => {}
            "serde" => serde_round_trip(d, &mut out),
            "crd-ignore" | "crd-warn" => {
                std::hint::black_box(kstruct::scan::try_request_bytes(&crd, c, &opts, &mut out).expect("walked"));
            }
            _ => {
                std::hint::black_box(kinds.decode_bytes(d, &opts, &mut out).unwrap());
            }
        }
        std::hint::black_box(&out);
    }
}

/// The baseline: serde_json bytes -> `Value` -> bytes.
fn serde_round_trip(d: &[u8], out: &mut Vec<u8>) {
    let v: serde_json::Value = serde_json::from_slice(d).unwrap();
    out.extend(serde_json::to_vec(&v).unwrap());
}

/// `check-warn`: the walk's bytes, warnings and unknown-field paths under Warn are the
/// `Value` path's (the specification), for a document the walk takes.
fn check<R: kstruct::decode::Resolve + ?Sized>(target: &R, d: &[u8], opts: &DecodeOptions) {
    let mut out = Vec::new();
    let Some(report) = kstruct::scan::try_request_bytes(target, d, opts, &mut out) else {
        return;
    };
    let spec = kstruct::decode::request_by_value(target, d, opts, None).expect("decoded");
    assert_eq!(
        out,
        kstruct::schema::go::marshal_json(&spec.object).into_bytes(),
        "bytes"
    );
    assert_eq!(report.unknown_fields, spec.unknown_fields, "unknown fields");
    assert_eq!(report.warnings, spec.warnings, "warnings");
}

/// A path's decode options: every `-warn` path decodes with fieldValidation Warn, the others
/// with Ignore.
fn options(path: &str) -> DecodeOptions {
    let field_validation = if path.ends_with("-warn") {
        FieldValidation::Warn
    } else {
        FieldValidation::Ignore
    };
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

/// The corpus's instances (each with its CRD registered alone): `none`, `serde`, `sonic`,
/// `walk-ignore`, `walk-warn`, `check-warn`.
fn corpus(path: &str) {
    let cases = kstruct_perf::corpus();
    let opts = options(path);
    let mut out = Vec::new();
    // Every path first walks every instance once, so that each CRD's plan is built before
    // the counted pass (`none` counts the setup and this warm-up: subtract it).
    for (crd, d) in &cases {
        out.clear();
        let _ = kstruct::scan::try_request_bytes(&**crd, d, &opts, &mut out);
    }
    corpus_pass(&cases, path, &opts, &mut out);
}

/// The counted pass over the corpus (setup varies from run to run with the hash maps' seeds:
/// count this function alone, `--toggle-collect=counts::corpus_pass`).
#[inline(never)]
fn corpus_pass(
    cases: &[(std::sync::Arc<RegisteredCrd>, Vec<u8>)],
    path: &str,
    opts: &DecodeOptions,
    out: &mut Vec<u8>,
) {
    for (crd, d) in cases {
        out.clear();
        match path {
            "none" => {}
            "serde" => serde_round_trip(d, out),
            "walk-ignore" | "walk-warn" => {
                let report = kstruct::scan::try_request_bytes(&**crd, d, opts, out);
                std::hint::black_box(report.expect("walked"));
            }
            "sonic" => {
                std::hint::black_box(sonic_rs::from_slice::<sonic_rs::Value>(d).unwrap());
            }
            "check-warn" => check(&**crd, d, opts),
            other => panic!("unknown corpus path {other}"),
        }
        std::hint::black_box(&out);
    }
}

/// Prune + nulls + default in place on parsed objects (each pass on a fresh copy): `none`
/// (the copies alone: subtract it), `compiled` (the pipeline's three passes), `fused`
/// (`prune_nulls_default`: generated code's one walk), `hand` (`kstruct_perf::hand`, fused by
/// hand), `check` (all three on every object, which must agree).
fn in_place(compiled: &dyn Pipeline, docs: &[Vec<u8>], pass: &str) {
    use kstruct::PruneOptions;
    let values: Vec<serde_json::Value> = docs.iter().map(|d| serde_json::from_slice(d).unwrap()).collect();
    let options = PruneOptions {
        resource_root: true,
        track_unknown_fields: false,
    };
    let by_pipeline = |v: &mut serde_json::Value| {
        compiled.prune(v, options);
        compiled.prune_nulls(v);
        compiled.default(v);
    };
    for v in &values {
        let mut v = v.clone();
        match pass {
            "none" => {}
            "compiled" => by_pipeline(&mut v),
            "fused" => {
                compiled.prune_nulls_default(&mut v, options);
            }
            "hand" => kstruct_perf::hand::prune_nulls_default(&mut v),
            "validate" => {
                std::hint::black_box(compiled.validate(&v));
            }
            "check" => {
                let mut by_hand = v.clone();
                kstruct_perf::hand::prune_nulls_default(&mut by_hand);
                let mut fused = v.clone();
                compiled.prune_nulls_default(&mut fused, options);
                by_pipeline(&mut v);
                assert_eq!(by_hand, v, "hand and compiled code disagree");
                assert_eq!(fused, v, "the fused and the three walks disagree");
            }
            other => panic!("unknown in-place pass {other}"),
        }
        std::hint::black_box(&v);
    }
}
