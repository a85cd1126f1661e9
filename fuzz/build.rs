//! Compiles the fuzz CRD (`crds/widgets.yaml`) for the `compiled_validate` target.

fn main() {
    kstruct_compiler::Config::new()
        .crd_file("crds/widgets.yaml")
        .file_name("widgets")
        .compile()
        .expect("compiling crds/widgets.yaml");
}
