//! Writes ../shared/perf's workload into `OUT_DIR/data` (its `gen.py`, deterministic) and
//! compiles its schema as the CRD `workloads.apps.example.com` (kind `Workload`, version `v1`,
//! the apiVersion its objects carry).

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let shared = std::env::var_os("KSTRUCT_SHARED").map_or_else(|| PathBuf::from("../../shared"), PathBuf::from);
    let gen_py = shared.join("perf/gen.py");
    println!("cargo:rerun-if-changed={}", gen_py.display());
    println!("cargo:rerun-if-env-changed=KSTRUCT_SHARED");
    let data = out.join("data");
    if !data.join("large.jsonl").exists() {
        let status = Command::new("python3")
            .arg(&gen_py)
            .arg(&data)
            .status()
            .unwrap_or_else(|e| panic!("running {}: {e} (needs python3 and ../shared)", gen_py.display()));
        assert!(status.success(), "{} failed", gen_py.display());
    }
    let schema = std::fs::read_to_string(data.join("crd_schema.json")).expect("crd_schema.json");
    let crd = format!(
        r#"{{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {{"name": "workloads.apps.example.com"}},
  "spec": {{"group": "apps.example.com", "scope": "Namespaced",
    "names": {{"kind": "Workload", "plural": "workloads"}},
    "versions": [{{"name": "v1", "served": true, "storage": true,
      "schema": {{"openAPIV3Schema": {schema}}}}}]}}}}"#
    );
    std::fs::write(out.join("workloads.json"), &crd).expect("writing the CRD");
    // The benchmark reads the corpus from here.
    let shared = std::path::absolute(&shared).expect("absolute path");
    println!("cargo:rustc-env=KSTRUCT_SHARED_DIR={}", shared.display());
    kstruct_compiler::Config::new()
        .crd_text("workloads.json", &crd)
        .file_name("workloads")
        .out_dir(&out)
        .compile()
        .expect("compiling the workload CRD");
}
