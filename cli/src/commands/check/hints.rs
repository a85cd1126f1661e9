//! "Did you mean" for people: the known field or kind closest to a misspelt one.

use kstruct::schema::Structural;
use kstruct::source::Segment;

/// The fields of ObjectMeta (what `metadata` may hold at a resource's root).
const OBJECT_META: &[&str] = &[
    "annotations",
    "creationTimestamp",
    "deletionGracePeriodSeconds",
    "deletionTimestamp",
    "finalizers",
    "generateName",
    "generation",
    "labels",
    "managedFields",
    "name",
    "namespace",
    "ownerReferences",
    "resourceVersion",
    "selfLink",
    "uid",
];

/// The candidate closest to `word`, if it is close enough to be a likely misspelling: the
/// same but for case, or within an edit distance of a third of its length (at least 1).
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::osa_distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, c)| (*d, *c))
        .map(|(_, c)| c)
}

/// Where a walk down a schema is.
#[derive(Clone, Copy)]
enum At<'a> {
    Schema(&'a Structural, bool),
    /// Inside `metadata` of a resource (the root or an embedded one): ObjectMeta's fields.
    Meta,
    /// Inside something without a schema here (maps, labels, ...).
    Nothing,
}

/// For an unknown field at `segments` (its last segment the unknown key), the known path it
/// most likely meant: a sibling field of the same schema node, spelled closely.
pub fn field(path: &str, segments: &[Segment], root: Option<&Structural>) -> Option<String> {
    let (Segment::Key(unknown), parents) = segments.split_last()? else {
        return None;
    };
    let mut at = match root {
        Some(r) => At::Schema(r, true),
        None => At::Nothing,
    };
    for seg in parents {
        at = match (at, seg) {
            (At::Schema(s, resource), Segment::Key(k)) => {
                if resource && k == "metadata" {
                    At::Meta
                } else if let Some(p) = s.properties.get(k) {
                    At::Schema(p, p.extensions.x_embedded_resource)
                } else if let Some(a) = s.additional_properties.as_ref().and_then(|a| a.schema()) {
                    At::Schema(a, a.extensions.x_embedded_resource)
                } else {
                    At::Nothing
                }
            }
            (At::Schema(s, _), Segment::Index(_)) => match &s.items {
                Some(i) => At::Schema(i, i.extensions.x_embedded_resource),
                None => At::Nothing,
            },
            _ => At::Nothing,
        };
    }
    let best = match at {
        At::Schema(s, resource) => {
            let mut names: Vec<&str> = s.properties.keys().map(String::as_str).collect();
            if resource {
                names.extend(["apiVersion", "kind", "metadata"]);
            }
            closest(unknown, names)?
        }
        At::Meta => closest(unknown, OBJECT_META.iter().copied())?,
        At::Nothing => return None,
    };
    let prefix = &path[..path.len() - unknown.len()];
    Some(format!("{prefix}{best}"))
}

/// [`field`] for an object of one of Kubernetes' own kinds: a sibling field of the same Go
/// struct, spelled closely.
pub fn builtin_field(
    path: &str,
    segments: &[Segment],
    kinds: &kstruct::builtin::BuiltinKinds,
    group: &str,
    version: &str,
    kind: &str,
) -> Option<String> {
    let (Segment::Key(unknown), parents) = segments.split_last()? else {
        return None;
    };
    let steps: Vec<String> = parents
        .iter()
        .map(|s| match s {
            Segment::Key(k) => k.clone(),
            Segment::Index(i) => i.to_string(),
        })
        .collect();
    let steps: Vec<&str> = steps.iter().map(String::as_str).collect();
    let names = kinds.field_names(group, version, kind, &steps)?;
    let best = closest(unknown, names)?;
    let prefix = &path[..path.len() - unknown.len()];
    Some(format!("{prefix}{best}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closest_takes_near_misses_only() {
        assert_eq!(closest("replica", ["replicas", "selector"]), Some("replicas"));
        assert_eq!(closest("Replicas", ["replicas"]), Some("replicas"));
        assert_eq!(closest("colour", ["color", "size"]), Some("color"));
        assert_eq!(closest("x", ["y", "size"]), Some("y"));
        assert_eq!(closest("template", ["selector", "replicas"]), None);
        assert_eq!(
            closest("Certficate", ["Certificate", "CertificateRequest", "Issuer"]),
            Some("Certificate")
        );
    }

    #[test]
    fn fields_from_the_schema_node_of_the_parent() {
        let schema = kstruct::schema::convert::from_text(
            "type: object\nproperties:\n  spec:\n    type: object\n    properties:\n      replicas: {type: integer}\n      ports:\n        type: array\n        items: {type: object, properties: {port: {type: integer}}}\n      template:\n        type: object\n        x-kubernetes-embedded-resource: true\n        properties: {spec: {type: object}}\n",
        )
        .unwrap()
        .unwrap();
        let segs = |s: &[&str]| -> Vec<Segment> {
            s.iter()
                .map(|p| match p.parse::<usize>() {
                    Ok(i) => Segment::Index(i),
                    Err(_) => Segment::Key(p.to_string()),
                })
                .collect()
        };
        let f = |path: &str, s: &[&str]| field(path, &segs(s), Some(&schema));
        assert_eq!(
            f("spec.replica", &["spec", "replica"]).as_deref(),
            Some("spec.replicas")
        );
        assert_eq!(
            f("spec.ports[0].prot", &["spec", "ports", "0", "prot"]).as_deref(),
            Some("spec.ports[0].port")
        );
        assert_eq!(
            f("metadata.nmae", &["metadata", "nmae"]).as_deref(),
            Some("metadata.name")
        );
        assert_eq!(
            f(
                "spec.template.metadata.lables",
                &["spec", "template", "metadata", "lables"]
            )
            .as_deref(),
            Some("spec.template.metadata.labels")
        );
        assert_eq!(
            f("spec.template.kindd", &["spec", "template", "kindd"]).as_deref(),
            Some("spec.template.kind")
        );
        assert_eq!(f("spec.zzzzzz", &["spec", "zzzzzz"]), None);
    }
}
