//! Every compile error of `#[derive(CustomResourceSchema)]`, with its exact text and span
//! (`TRYBUILD=overwrite cargo test -p kstruct-derive --test ui` rewrites the expected output).

#[test]
fn compile_errors() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*.rs");
}
