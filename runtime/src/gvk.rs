//! Layer 1: group, version and kind, as Kubernetes names and parses them.

/// The group, version and kind a pipeline serves.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GroupVersionKind {
    /// The API group (`example.com`; empty for the core group).
    pub group: String,
    /// The version (`v1`).
    pub version: String,
    /// The kind (`Widget`).
    pub kind: String,
}

impl GroupVersionKind {
    /// `GroupVersionKind { group, version, kind }`.
    pub fn new(group: impl Into<String>, version: impl Into<String>, kind: impl Into<String>) -> Self {
        GroupVersionKind {
            group: group.into(),
            version: version.into(),
            kind: kind.into(),
        }
    }
}

/// `schema.GroupVersion.String()`: the apiVersion of `group` and `version` (`v1` for the core
/// group, `apps/v1` otherwise); what [`parse_group_version`] splits.
pub(crate) fn join_group_version(group: &str, version: &str) -> String {
    if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    }
}

/// Splits an `apiVersion` into group and version as Kubernetes' `ParseGroupVersion` does:
/// `v1` is the core group, `g/v` a group version, anything with more slashes an error.
pub fn parse_group_version(api_version: &str) -> Result<(&str, &str), String> {
    if api_version.is_empty() || api_version == "/" {
        return Ok(("", ""));
    }
    match api_version.split_once('/') {
        None => Ok(("", api_version)),
        Some((g, v)) if !v.contains('/') => Ok((g, v)),
        Some(_) => Err(format!("unexpected GroupVersion string: {api_version}")),
    }
}
