//! The example's answers: every shipped sample gets the answer the API server gives it (some
//! are refused on purpose), and the run says so with exit status 0; an answer other than the
//! expected one makes the run fail.

use std::process::Command;

use kstruct_example_operator::samples::{self, Answer, Expected, SAMPLES, refused};

fn operator() -> Command {
    Command::new(env!("CARGO_BIN_EXE_kstruct-example-operator"))
}

#[test]
fn the_shipped_samples_get_their_expected_answers_and_exit_0() {
    let out = operator().output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.ends_with(&format!(
            "== {} documents: 5 stored, 1 refused; every answer is the expected one\n",
            SAMPLES.len()
        )),
        "{stdout}"
    );
    // The refusal is printed as the API server words it.
    assert!(
        stdout
            .contains(r#"Error from server (Invalid): Backup.example.com "weekly" is invalid: spec.extraLabels.size"#)
    );
}

#[test]
fn every_sample_has_an_expectation_and_every_expectation_a_sample() {
    let mut out = Vec::new();
    let tally = samples::run(&samples::manifest_files().unwrap(), SAMPLES, &mut out).unwrap();
    assert_eq!(
        tally.unexpected,
        Vec::<String>::new(),
        "{}",
        String::from_utf8_lossy(&out)
    );
    assert_eq!(tally.documents, SAMPLES.len());
    assert_eq!((tally.stored, tally.refused), (5, 1));
}

#[test]
fn an_answer_other_than_the_expected_one_is_reported() {
    // Expect the refused Backup to be stored, and a stored one to be refused under Strict.
    let mut wrong: Vec<Expected> = SAMPLES.to_vec();
    wrong[1].warn = Answer::Stored;
    wrong[2].strict = refused("BadRequest");
    let mut out = Vec::new();
    let tally = samples::run(&samples::manifest_files().unwrap(), &wrong, &mut out).unwrap();
    assert_eq!(
        tally.unexpected,
        [
            "backups.yaml:34: expected stored with fieldValidation=Warn, got refused (Invalid)",
            "backups.yaml:45: expected refused (BadRequest) with fieldValidation=Strict, got stored",
        ]
    );
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("UNEXPECTED: backups.yaml:34: expected stored"), "{text}");
}

#[test]
fn an_expectation_without_its_document_is_reported() {
    let mut moved: Vec<Expected> = SAMPLES.to_vec();
    moved[2].line = 46;
    let mut out = Vec::new();
    let tally = samples::run(&samples::manifest_files().unwrap(), &moved, &mut out).unwrap();
    assert_eq!(
        tally.unexpected,
        ["backups.yaml:46: no document starts there, but an answer is expected"]
    );
}

#[test]
fn a_violated_expectation_exits_non_zero() {
    // A file named on the command line has no declared answers: its documents are expected to
    // be stored, and this copy of the samples holds one the API server refuses.
    let dir = std::env::temp_dir().join(format!("kstruct-example-operator-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("backups.yaml");
    std::fs::copy(samples::manifest_dir().join("backups.yaml"), &copy).unwrap();
    let out = operator().arg(&copy).output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "1 unexpected:\n  backups.yaml:34: expected stored with fieldValidation=Warn, got refused (Invalid)\n"
        ),
        "{stdout}"
    );
}

#[test]
fn an_unreadable_file_exits_2() {
    let out = operator().arg("does/not/exist.yaml").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does/not/exist.yaml"));
}
