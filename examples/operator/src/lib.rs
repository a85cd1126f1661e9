//! kstruct's example operator: its custom resources are Rust types ([`types`]); their CRDs
//! are written from the types into `crds/*.yaml`; `build.rs` compiles those (and a
//! third-party CRD) into specialized decoders ([`crds`]); `main` sends the sample manifests
//! through them as the API server would ([`samples`]), then reads the results back into the
//! Rust types.
//!
//! ```text
//! src/types.rs ──derive──> MaintenanceNightlyJob::crd() ──write-crds──> crds/*.yaml
//!                                                                          │
//!        typed objects <──serde── decoded objects <──compiled code <──build.rs
//! ```

use kstruct::CustomResource;

pub mod samples;
pub mod types;

/// The code `build.rs` compiled from `crds/*.yaml` and `../crds/backups.example.com.yaml`.
#[allow(missing_docs)]
pub mod crds {
    include!(concat!(env!("OUT_DIR"), "/crds.rs"));
}

/// The CRD files this operator's types define: (file name under `crds/`, contents).
pub fn crd_files() -> Result<Vec<(String, String)>, kstruct::Error> {
    let crd = types::MaintenanceNightlyJob::try_crd()?;
    let name = format!("{}.yaml", types::MaintenanceNightlyJob::RESOURCE.crd_name);
    let header = "# Written from src/types.rs by `cargo run -p kstruct-example-operator -- write-crds`: do not edit.\n";
    Ok(vec![(name, format!("{header}{}", crd.to_yaml()))])
}
