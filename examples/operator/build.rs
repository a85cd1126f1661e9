//! Compiles the operator's CRDs into `$OUT_DIR/crds.rs`: its own, written from its Rust
//! types into `crds/`, and a third-party-style Backup CRD (embedded resources, int-or-string,
//! defaults under lists) known only as YAML.

fn main() -> Result<(), kstruct_compiler::Error> {
    kstruct_compiler::Config::new()
        .crd_dir("crds")
        .crd_file("../crds/backups.example.com.yaml")
        .compile()
}
