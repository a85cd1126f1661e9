//! Compiles the operator's CRDs into `$OUT_DIR/crds.rs`: its own MaintenanceNightlyJob and a
//! third-party-style Backup CRD (embedded resources, int-or-string, defaults under lists).

fn main() -> Result<(), kstruct_compiler::Error> {
    kstruct_compiler::Config::new()
        .crd_file("../crds/maintenancenightlyjobs.operations.example.com.yaml")
        .crd_file("../crds/backups.example.com.yaml")
        .compile()
}
