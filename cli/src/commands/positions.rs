//! Where the fields the API server's messages name are written in a document's text, for
//! `kstruct check`'s diagnostics and `kstruct lint -o json|sarif`.
//!
//! The server names fields as its Go types spell them (`spec.validation.openAPIV3Schema`,
//! `properties[name]`, `metadata.labels[app]`); a [`SourceMap`] finds paths as the document
//! spells them (`spec.versions[0].schema.openAPIV3Schema`, `properties.name`). These functions
//! translate the first into the second and find the nearest field that is written.

use kstruct::source::{Position, SourceMap};

/// Where a CRD finding's field is in the document: the lint names fields of the internal
/// CRD (a schema shared by all versions is `spec.validation.openAPIV3Schema`, properties are
/// `properties[name]`); the document has `spec.versions[0].schema.openAPIV3Schema` and
/// `properties.name`.
pub fn crd_source_path(field: &str) -> String {
    let mut out = String::new();
    let mut rest = field;
    for (from, to) in [
        ("spec.validation.", "spec.versions[0].schema."),
        ("spec.subresources", "spec.versions[0].subresources"),
        (
            "spec.additionalPrinterColumns",
            "spec.versions[0].additionalPrinterColumns",
        ),
        ("spec.selectableFields", "spec.versions[0].selectableFields"),
    ] {
        if let Some(r) = field.strip_prefix(from) {
            out.push_str(to);
            rest = r;
            break;
        }
    }
    out.push_str(&object_source_path(rest));
    out.replace(".JSONPath", ".jsonPath")
}

/// A field path of the API server's errors as the source map spells it: `name[key]` with a
/// non-numeric key is a map entry, `name.key`; a leading `.` (scale paths) goes.
pub fn object_source_path(field: &str) -> String {
    let rest = field.strip_prefix('.').unwrap_or(field);
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    let mut last = 0;
    while let Some((i, c)) = chars.next() {
        if c != '[' {
            continue;
        }
        let Some(end) = rest[i..].find(']').map(|e| i + e) else {
            break;
        };
        let key = &rest[i + 1..end];
        out.push_str(&rest[last..i]);
        if key.bytes().all(|b| b.is_ascii_digit()) && !key.is_empty() {
            out.push_str(&rest[i..=end]);
        } else {
            out.push('.');
            out.push_str(key);
        }
        last = end + 1;
        while chars.peek().is_some_and(|(j, _)| *j <= end) {
            chars.next();
        }
    }
    out.push_str(&rest[last..]);
    out
}

/// The position of `path`, or of its longest prefix that is in the text (a finding may name
/// a field that is missing).
pub fn locate_nearest(map: &SourceMap, path: &str) -> Option<Position> {
    let mut p = path;
    loop {
        if let Some(at) = map.locate(p) {
            return Some(at);
        }
        let cut = p.rfind(['.', '['])?;
        p = &p[..cut];
    }
}

/// Where the field of a CRD finding is in the file: `prefix` is where the CRD is in its
/// document (`items[2].` for an item of a List), `doc_start` where the document starts.
/// `None` when the finding names no field or nothing of its path is written.
pub fn crd_finding(map: &SourceMap, prefix: &str, field: &str, doc_start: Position) -> Option<Position> {
    let path = format!("{prefix}{}", crd_source_path(field));
    locate_nearest(map, &path).map(|p| p.offset_by(doc_start))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_paths_as_the_document_spells_them() {
        assert_eq!(
            crd_source_path("spec.validation.openAPIV3Schema.properties[spec].type"),
            "spec.versions[0].schema.openAPIV3Schema.properties.spec.type"
        );
        assert_eq!(
            crd_source_path("spec.additionalPrinterColumns[0].JSONPath"),
            "spec.versions[0].additionalPrinterColumns[0].jsonPath"
        );
        assert_eq!(object_source_path(".spec.replicas"), "spec.replicas");
        assert_eq!(
            object_source_path("metadata.labels[app.kubernetes.io/name]"),
            "metadata.labels.app.kubernetes.io/name"
        );
        assert_eq!(object_source_path("spec.ports[3].port"), "spec.ports[3].port");
    }

    #[test]
    fn a_missing_field_points_at_its_nearest_written_parent() {
        let map = SourceMap::yaml(b"spec:\n  versions:\n  - name: v1\n").unwrap();
        assert_eq!(
            locate_nearest(&map, "spec.versions[0].schema.openAPIV3Schema.type"),
            Some(Position { line: 3, column: 5 })
        );
        assert_eq!(locate_nearest(&map, "status.storedVersions"), None);
    }
}
