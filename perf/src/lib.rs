//! The compiled workload CRD and its data, for `benches/decode.rs`.

pub mod builtins;
pub mod hand;

/// The code `build.rs` compiled from the workload's CRD.
#[allow(missing_docs)]
pub mod workloads {
    include!(concat!(env!("OUT_DIR"), "/workloads.rs"));
}

/// The workload's CRD as JSON text.
pub const CRD: &str = include_str!(concat!(env!("OUT_DIR"), "/workloads.json"));

/// `small.jsonl` (~2.5 KB objects) or `large.jsonl` (~61 KB), the first `n` lines.
pub fn objects(file: &str, n: usize) -> Vec<Vec<u8>> {
    let path = std::path::Path::new(env!("OUT_DIR")).join("data").join(file);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .take(n)
        .map(<[u8]>::to_vec)
        .collect()
}

/// The corpus's decode inputs (`../shared/conformance/corpus-decode.jsonl`), each with its
/// CRD registered alone with the line's version, as the conformance runs register them.
pub fn corpus() -> Vec<(std::sync::Arc<kstruct::RegisteredCrd>, Vec<u8>)> {
    let shared = std::path::Path::new(env!("KSTRUCT_SHARED_DIR"));
    let text = std::fs::read_to_string(shared.join("conformance/corpus-decode.jsonl")).expect("corpus-decode.jsonl");
    let mut crds: std::collections::HashMap<(String, String), std::sync::Arc<kstruct::RegisteredCrd>> =
        std::collections::HashMap::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let line: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let (file, version) = (line["crd"].as_str().unwrap(), line["version"].as_str().unwrap());
        let crd = crds
            .entry((file.to_string(), version.to_string()))
            .or_insert_with(|| {
                let bytes = std::fs::read(shared.join("corpus/crds").join(file)).expect("CRD file");
                let doc = kstruct::input::read_documents(&bytes, file).remove(0);
                let mut crd = kstruct::schema::crd::CustomResourceDefinition::from_value(&doc.value.unwrap()).unwrap();
                crd.versions.retain(|v| v.name == version);
                std::sync::Arc::new(kstruct::RegisteredCrd::new(crd))
            })
            .clone();
        out.push((crd, kstruct::schema::go::marshal_json(&line["input"]).into_bytes()));
    }
    out
}
