//! The decoding ratios of docs/performance.md by wall time, measured so that a shared machine's drift cancels out:
//! every round times one pass of each contender over the same documents, in an order that
//! rotates from round to round, and the ratio to the serde_json round trip is taken within the
//! round. The medians over the rounds are printed (criterion measures one benchmark after
//! another, so a neighbour that slows the machine for a minute skews its ratios).
//!
//! `cd perf && cargo run --release --example ratios -- <small|large|corpus|builtins> [rounds] [repeat]`
//!
//! With `repeat`, each document is decoded that many times in a row: what the walk gains where
//! documents come alike (its plan's data cached, its branches learnt), against
//! the corpus as it comes, one document per CRD.
//!
//! End to end, as a user runs it: `ratios runner RUNNER FILE [rounds]` times, as processes
//! writing to `/dev/null`, the serde_json round trip program (`examples/roundtrip.rs`, built
//! beside this one) and a runner of `kstruct compile --crate` decoding the JSON-lines `FILE`
//! with fieldValidation Ignore and Warn.

use std::hint::black_box;
use std::time::Instant;

use kstruct::{DecodeExt, DecodeOptions, FieldValidation, Pipeline, RegisteredCrd};
use kstruct_perf::{CRD, objects, workloads};

/// The passes whose ratios to each other the table shows.
const WALK_TO_VALUE: &str = "compiled decode to a Value (the walk), Ignore";
const VALUE_PATH: &str = "interpreter decode by the Value path, Ignore";

/// One pass over every document.
type Pass<'a> = Box<dyn FnMut() + 'a>;

fn options(field_validation: FieldValidation) -> DecodeOptions {
    DecodeOptions {
        field_validation,
        ..DecodeOptions::default()
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let workload = args.next().unwrap_or_else(|| "small".into());
    if workload == "runner" {
        let usage = "usage: ratios runner RUNNER FILE [rounds]";
        let runner = args.next().expect(usage);
        let file = args.next().expect(usage);
        let rounds = args.next().map_or(21, |r| r.parse().expect("rounds: a number"));
        return end_to_end(&runner, &file, rounds);
    }
    let rounds: usize = args.next().map_or(31, |r| r.parse().expect("rounds: a number"));
    if workload == "builtins" {
        return builtins(rounds);
    }
    let repeat: usize = args.next().map_or(1, |r| r.parse().expect("repeat: a number"));
    let (docs, crds): (Vec<Vec<u8>>, Vec<std::sync::Arc<RegisteredCrd>>) = match workload.as_str() {
        "corpus" => kstruct_perf::corpus().into_iter().map(|(c, d)| (d, c)).unzip(),
        "small" | "large" => {
            let docs = if workload == "small" {
                objects("small.jsonl", 2_000)
            } else {
                objects("large.jsonl", 100)
            };
            let crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&serde_json::from_str(CRD).unwrap())
                .unwrap();
            let crd = std::sync::Arc::new(RegisteredCrd::new(crd));
            let crds = vec![crd; docs.len()];
            (docs, crds)
        }
        other => panic!("workload: small, large or corpus, not {other}"),
    };
    let (docs, crds): (Vec<Vec<u8>>, Vec<std::sync::Arc<RegisteredCrd>>) = docs
        .into_iter()
        .zip(crds)
        .flat_map(|case| std::iter::repeat_n(case, repeat))
        .unzip();
    let compiled: Option<&dyn Pipeline> = (workload != "corpus").then(|| {
        workloads::REGISTRY
            .find("apps.example.com", "Workload")
            .and_then(|c| c.version("v1"))
            .and_then(Result::ok)
            .expect("compiled Workload v1")
    });
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let (ignore, warn) = (options(FieldValidation::Ignore), options(FieldValidation::Warn));

    let mut passes: Vec<(String, Pass)> = baselines(&docs);
    for (mode, opts) in [("Ignore", &ignore), ("Warn", &warn)] {
        let (docs, crds, mut out) = (&docs, &crds, Vec::new());
        passes.push((
            format!("byte walk (interpreter's plan), {mode}"),
            Box::new(move || {
                for (d, crd) in docs.iter().zip(crds) {
                    out.clear();
                    black_box(kstruct::decode::request_bytes(&**crd, d, opts, None, &mut out).unwrap());
                }
            }),
        ));
    }
    if let Some(compiled) = compiled {
        for (mode, opts) in [("Ignore", &ignore), ("Warn", &warn)] {
            let (docs, mut out) = (&docs, Vec::new());
            passes.push((
                format!("compiled decode_bytes, {mode}"),
                Box::new(move || {
                    for d in docs {
                        out.clear();
                        black_box(compiled.decode_bytes(d, opts, &mut out).unwrap());
                    }
                }),
            ));
        }
        let docs = &docs;
        passes.push((
            WALK_TO_VALUE.into(),
            Box::new(move || {
                for d in docs {
                    black_box(compiled.decode(d, &ignore).unwrap());
                }
            }),
        ));
        let crd = crds[0].clone();
        passes.push((
            VALUE_PATH.into(),
            Box::new(move || {
                for d in docs {
                    black_box(kstruct::decode::request_by_value(&*crd, d, &ignore, None).unwrap());
                }
            }),
        ));
    }
    let times = rounds_of(&mut passes, rounds);
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "{workload}: {} documents (each {repeat} time(s) in a row), {:.1} MiB, {rounds} rounds (load average at the end: {})",
        docs.len(),
        mib,
        load_average()
    );
    table(&passes, &times, mib);
    // The compiled walk to a Value against the interpreter's decode, within each round.
    let at = |label: &str| passes.iter().position(|(l, _)| l == label);
    if let (Some(walk), Some(spec)) = (at(WALK_TO_VALUE), at(VALUE_PATH)) {
        let ratio = median(times[spec].iter().zip(&times[walk]).map(|(s, w)| s / w).collect());
        println!(
            "compiled decode to a Value over the interpreter's Value path: {ratio:.2}x (median of per-round ratios)"
        );
    }
}

/// Deployments decoded as the built-in kind (into the Go types) against the same documents
/// as a custom resource whose schema is the Deployment's (the byte walk), bytes to bytes.
fn builtins(rounds: usize) {
    use kstruct::builtin::{BuiltinKinds, Release};
    let docs = kstruct_perf::builtins::deployments(600);
    let as_cr: Vec<Vec<u8>> = docs
        .iter()
        .map(|d| kstruct_perf::builtins::as_custom_resource(d))
        .collect();
    let crd = kstruct_perf::builtins::deployment_crd(Release::newest());
    let kinds = BuiltinKinds::new(Release::newest());
    let bytes: usize = docs.iter().map(Vec::len).sum();
    let (ignore, warn) = (options(FieldValidation::Ignore), options(FieldValidation::Warn));
    let mut passes: Vec<(String, Pass)> = baselines(&docs);
    for (mode, opts) in [("Ignore", &ignore), ("Warn", &warn)] {
        let (docs, kinds, mut out) = (&docs, &kinds, Vec::new());
        passes.push((
            format!("built-in Deployment, typed decode_bytes, {mode}"),
            Box::new(move || {
                for d in docs {
                    out.clear();
                    black_box(kinds.decode_bytes(d, opts, &mut out).unwrap());
                }
            }),
        ));
        let (docs, crd, mut out) = (&as_cr, &crd, Vec::new());
        passes.push((
            format!("same documents as a custom resource, byte walk, {mode}"),
            Box::new(move || {
                for d in docs {
                    out.clear();
                    black_box(kstruct::decode::request_bytes(crd, d, opts, None, &mut out).unwrap());
                }
            }),
        ));
    }
    let times = rounds_of(&mut passes, rounds);
    let mib = bytes as f64 / (1024.0 * 1024.0);
    println!(
        "builtins: {} Deployments, {:.1} MiB, {rounds} rounds (load average at the end: {})",
        docs.len(),
        mib,
        load_average()
    );
    table(&passes, &times, mib);
    for (typed, cr) in [(2, 3), (4, 5)] {
        let ratio = median(times[cr].iter().zip(&times[typed]).map(|(c, t)| c / t).collect());
        println!(
            "{} over {}: {ratio:.2}x (median of per-round ratios)",
            passes[typed].0, passes[cr].0
        );
    }
}

/// The two passes every table is measured against: the serde_json round trip (the
/// baseline, first) and sonic-rs parsing only (the ceiling, second).
fn baselines(docs: &[Vec<u8>]) -> Vec<(String, Pass<'_>)> {
    vec![
        (
            "serde_json bytes -> Value -> bytes (baseline)".into(),
            Box::new(move || {
                for d in docs {
                    let v: serde_json::Value = serde_json::from_slice(d).unwrap();
                    black_box(serde_json::to_vec(&v).unwrap());
                }
            }),
        ),
        (
            "sonic-rs parse only (ceiling)".into(),
            Box::new(move || {
                for d in docs {
                    black_box(sonic_rs::from_slice::<sonic_rs::Value>(d).unwrap());
                }
            }),
        ),
    ]
}

/// The table of docs/performance.md: each pass's speed and its ratios to the two baselines,
/// medians of per-round ratios.
fn table(passes: &[(String, Pass)], times: &[Vec<f64>], mib: f64) {
    println!("| path | MiB/s (median) | x baseline (median of per-round ratios) | % of sonic-rs |");
    println!("|---|---|---|---|");
    for (i, (label, _)) in passes.iter().enumerate() {
        let speed = mib / median(times[i].clone());
        let ratio = median(times[0].iter().zip(&times[i]).map(|(b, t)| b / t).collect());
        let of_sonic = median(times[1].iter().zip(&times[i]).map(|(s, t)| s / t * 100.0).collect());
        println!("| {label} | {speed:.0} | {ratio:.2} | {of_sonic:.0}% |");
    }
}

/// The time of each pass in each of `rounds` rounds (after one pass each to warm up), the
/// passes in an order that rotates from round to round.
fn rounds_of(passes: &mut [(String, Pass)], rounds: usize) -> Vec<Vec<f64>> {
    for (_, pass) in passes.iter_mut() {
        pass();
    }
    let n = passes.len();
    let mut times = vec![Vec::with_capacity(rounds); n];
    for round in 0..rounds {
        for k in 0..n {
            let i = (round + k) % n;
            let start = Instant::now();
            (passes[i].1)();
            times[i].push(start.elapsed().as_secs_f64());
        }
    }
    times
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .trim()
        .to_string()
}

/// `ratios runner`: the round trip program and the runner, as processes.
fn end_to_end(runner: &str, file: &str, rounds: usize) {
    let roundtrip = std::env::current_exe()
        .expect("this program's path")
        .with_file_name("roundtrip");
    assert!(
        roundtrip.exists(),
        "{} is missing: cargo build --release --example roundtrip",
        roundtrip.display()
    );
    let run = |program: std::path::PathBuf, args: Vec<String>| -> Pass<'static> {
        Box::new(move || {
            let status = std::process::Command::new(&program)
                .args(&args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .expect("the program runs");
            assert!(status.success(), "{} {args:?}: {status}", program.display());
        })
    };
    let decode = |mode: &str| vec!["decode".into(), "--field-validation".into(), mode.into(), file.into()];
    let mut passes: Vec<(String, Pass)> = vec![
        (
            "serde_json round trip program (baseline)".into(),
            run(roundtrip, vec![file.into()]),
        ),
        ("runner decode, Ignore".into(), run(runner.into(), decode("Ignore"))),
        ("runner decode, Warn".into(), run(runner.into(), decode("Warn"))),
    ];
    let times = rounds_of(&mut passes, rounds);
    let size = std::fs::metadata(file).map_or(0, |m| m.len());
    println!(
        "{file}: {:.1} MB, {rounds} rounds (load average at the end: {})",
        size as f64 / 1e6,
        load_average()
    );
    println!("| program | seconds (median) | x baseline (median of per-round ratios) |");
    println!("|---|---|---|");
    for (i, (label, _)) in passes.iter().enumerate() {
        let ratio = median(times[0].iter().zip(&times[i]).map(|(b, t)| b / t).collect());
        println!("| {label} | {:.3} | {ratio:.2} |", median(times[i].clone()));
    }
    let warn = median(times[2].iter().zip(&times[1]).map(|(w, i)| w / i).collect());
    println!(
        "Warn over Ignore: {:+.0}% (median of per-round ratios)",
        (warn - 1.0) * 100.0
    );
}
