//! The derive's tests check every emitted schema and CRD with `kstruct::lint`: what the API
//! server checks when a CRD is created, with its messages.

use kstruct::schema::Structural;
use kstruct::schema::field::Path;
use kstruct::schema::validation::openapi::SchemaOptions;

/// Everything the API server would refuse in `s` as a CRD version's schema: as its root when
/// `root`, else as the schema of a field (`properties[x]` of an object root).
pub fn violations(s: &Structural, root: bool) -> Vec<String> {
    let schema = kstruct::schema::serialize::to_value(s);
    let schema = if root {
        schema
    } else {
        serde_json::json!({"type": "object", "properties": {"x": schema}})
    };
    match kstruct::lint::validate_crd_schema(
        &Path::new("spec").child("validation"),
        &schema,
        false,
        &SchemaOptions::default(),
        true,
    ) {
        Ok(errors) => errors.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    }
}

/// Everything the API server would refuse when the CRD document `doc` is created: empty when it
/// would take it.
pub fn crd_document_problems(doc: &serde_json::Value) -> Vec<String> {
    match kstruct::lint::lint_crd(doc) {
        Ok(errors) => errors.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    }
}
