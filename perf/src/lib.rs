//! The compiled workload CRD and its data, for `benches/decode.rs`.

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
