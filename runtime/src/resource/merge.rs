//! One CRD from the CRDs of several versions of a kind.

use std::collections::BTreeMap;

use crate::Error;
use crate::apiextensions::CustomResourceDefinition;

/// Merges the CRDs of several versions of one kind (each from its own
/// [`CustomResource::crd`](super::CustomResource::crd), the types living in different
/// modules) into one CRD with all the versions, in the order given.
///
/// The CRDs must agree on everything but their versions (name, group, names, scope; their
/// labels and annotations are combined and must not disagree), no version may appear twice,
/// and exactly one version must be the storage version, as the API server requires. Each is
/// an error naming what differs, never a panic.
///
/// ```
/// use kstruct::CustomResource;
///
/// mod v1 {
///     use kstruct::CustomResourceSchema;
///     use serde::{Deserialize, Serialize};
///     #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
///     #[kstruct(group = "example.com", version = "v1", kind = "Widget")]
///     pub struct WidgetSpec { pub size: i32 }
/// }
/// mod v2 {
///     use kstruct::CustomResourceSchema;
///     use serde::{Deserialize, Serialize};
///     #[derive(CustomResourceSchema, Serialize, Deserialize, Clone, Debug)]
///     #[kstruct(group = "example.com", version = "v2", kind = "Widget", storage = false)]
///     pub struct WidgetSpec { pub size: i64, pub colour: Option<String> }
/// }
///
/// let crd = kstruct::merge_crds([v1::Widget::crd(), v2::Widget::crd()]).unwrap();
/// let versions: Vec<_> = crd.spec.versions.iter().map(|v| (v.name.as_str(), v.storage)).collect();
/// assert_eq!(versions, [("v1", true), ("v2", false)]);
///
/// let err = kstruct::merge_crds([v1::Widget::crd(), v1::Widget::crd()]).unwrap_err();
/// assert_eq!(err.to_string(), "cannot merge the CRDs of widgets.example.com: version v1 appears twice");
/// ```
pub fn merge_crds(crds: impl IntoIterator<Item = CustomResourceDefinition>) -> Result<CustomResourceDefinition, Error> {
    let mut crds = crds.into_iter();
    let Some(mut merged) = crds.next() else {
        return Err(Error::Crd("cannot merge CRDs: none were given".into()));
    };
    let name = merged.metadata.name.clone().unwrap_or_default();
    let fail = |why: String| Error::Crd(format!("cannot merge the CRDs of {name}: {why}"));
    for crd in crds {
        let other = crd.metadata.name.clone().unwrap_or_default();
        if other != name {
            return Err(fail(format!("{other} is another CRD")));
        }
        let (a, b) = (&merged.spec, &crd.spec);
        if a.group != b.group {
            return Err(fail(format!("group {} and group {}", a.group, b.group)));
        }
        if a.names != b.names {
            return Err(fail(format!(
                "the names differ between version {} and version {} ({:?} and {:?})",
                first_version(&merged),
                first_version(&crd),
                a.names,
                b.names
            )));
        }
        if a.scope != b.scope {
            return Err(fail(format!(
                "version {} is {} and version {} is {}",
                first_version(&merged),
                a.scope,
                first_version(&crd),
                b.scope
            )));
        }
        if a.preserve_unknown_fields != b.preserve_unknown_fields || a.conversion != b.conversion {
            return Err(fail(format!(
                "versions {} and {} disagree on preserveUnknownFields or conversion",
                first_version(&merged),
                first_version(&crd)
            )));
        }
        combine(&mut merged.metadata.labels, crd.metadata.labels, "label").map_err(&fail)?;
        combine(&mut merged.metadata.annotations, crd.metadata.annotations, "annotation").map_err(&fail)?;
        merged.spec.versions.extend(crd.spec.versions);
    }
    let mut seen = BTreeMap::new();
    for v in &merged.spec.versions {
        if seen.insert(v.name.as_str(), ()).is_some() {
            return Err(fail(format!("version {} appears twice", v.name)));
        }
    }
    let storage: Vec<&str> = merged
        .spec
        .versions
        .iter()
        .filter(|v| v.storage)
        .map(|v| v.name.as_str())
        .collect();
    match storage.as_slice() {
        [_] => Ok(merged),
        [] => Err(fail(
            "no version is the storage version (exactly one must be: leave `storage` at its default on one of them)"
                .into(),
        )),
        several => Err(fail(format!(
            "versions {} are all storage versions (exactly one must be: write `storage = false` on the others)",
            several.join(", ")
        ))),
    }
}

fn first_version(crd: &CustomResourceDefinition) -> &str {
    crd.spec.versions.first().map(|v| v.name.as_str()).unwrap_or("?")
}

fn combine(into: &mut BTreeMap<String, String>, from: BTreeMap<String, String>, what: &str) -> Result<(), String> {
    for (k, v) in from {
        match into.get(&k) {
            Some(old) if *old != v => {
                return Err(format!("the {what} {k} is {old:?} in one version and {v:?} in another"));
            }
            _ => {
                into.insert(k, v);
            }
        }
    }
    Ok(())
}
