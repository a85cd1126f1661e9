//! `#[derive(CustomResourceSchema)]`: the serde contract on generated values, snapshots of
//! the emitted schemas, the peers' 22 probes, and every compile error (trybuild).

mod contract;
mod probes;
mod regressions;
mod resources;
mod schemas;
mod types;
