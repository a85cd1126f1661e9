//! An operator's view of its custom resources, without a cluster: each sample manifest goes
//! through the API server's write path as a create (fieldValidation Warn, then Strict) with code
//! that `build.rs` compiled from the CRDs, and the results print as the API server would answer.
//!
//! Objects of the operator's own kinds are then read into its Rust types: the whole loop,
//! types -> CRD YAML -> compiled decoders -> typed objects.
//!
//! Some samples are refused on purpose; `samples::SAMPLES` declares the answer each one gets.
//! The exit status is 0 when every answer is the expected one, 1 when one is not, 2 when a
//! file cannot be read.
//!
//! Run it with `cargo run -p kstruct-example-operator` (optionally with manifest files of
//! your own, which are expected to be stored); `cargo run -p kstruct-example-operator --
//! write-crds` rewrites `crds/` from the types.

use std::process::ExitCode;

use kstruct_example_operator::samples;

fn write_crds() -> ExitCode {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crds");
    let files = match kstruct_example_operator::crd_files() {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    for (name, yaml) in files {
        let path = dir.join(name);
        if let Err(e) = std::fs::write(&path, yaml) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("write-crds") {
        return write_crds();
    }
    // The shipped samples with their declared answers, or the files named, expected stored.
    let (paths, expected) = if args.is_empty() {
        match samples::manifest_files() {
            Ok(paths) => (paths, samples::SAMPLES),
            Err(e) => {
                eprintln!("{}: {e}", samples::manifest_dir().display());
                return ExitCode::from(2);
            }
        }
    } else {
        (args.iter().map(Into::into).collect(), &[][..])
    };
    let mut out = std::io::stdout().lock();
    let tally = match samples::run(&paths, expected, &mut out).and_then(|t| samples::one_kind(&mut out).map(|()| t)) {
        Ok(tally) => tally,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let samples::Tally {
        documents,
        stored,
        refused,
        unexpected,
    } = &tally;
    if unexpected.is_empty() {
        println!("== {documents} documents: {stored} stored, {refused} refused; every answer is the expected one");
        ExitCode::SUCCESS
    } else {
        println!(
            "== {documents} documents: {stored} stored, {refused} refused; {} unexpected:",
            unexpected.len()
        );
        for u in unexpected {
            println!("  {u}");
        }
        ExitCode::from(1)
    }
}
