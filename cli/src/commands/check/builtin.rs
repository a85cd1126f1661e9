//! Built-in kinds: whether the chosen Kubernetes release serves an object's group-version and
//! kind, from the types and lifecycles of `kstruct-builtins`.
//!
//! A release serves a kind its Go types declare unless the kind's published removal release is
//! at or before it (the API server's own rule: it drops removed kinds at start-up). Kinds the
//! types declare but a cluster may not enable (alpha and some beta group-versions) count as
//! served: kstruct says "not served" only where no server of that release serves the kind.

use kstruct_builtins::{Catalog, Release};

/// `Ok` when `release` serves `kind` of `group`/`version`, with the API server's deprecation
/// warning when the release deprecates it; otherwise the hint that says why not, and what to
/// use instead.
pub fn served(release: Release, group: &str, version: &str, kind: &str) -> Result<Option<String>, String> {
    let Ok(catalog) = Catalog::new(release) else {
        // The embedded data always reads (a test reads it); never refuse an object for it.
        return Ok(None);
    };
    let gv = if group.is_empty() {
        version.to_owned()
    } else {
        format!("{group}/{version}")
    };
    if let Some(k) = catalog.kind(&gv, kind) {
        if !k.lifecycle().is_removed_in(release) {
            let deprecated = k.lifecycle().is_deprecated_in(release);
            return Ok(k.deprecation_warning().filter(|_| deprecated));
        }
        let why = k
            .deprecation_warning()
            .unwrap_or_else(|| format!("{gv} {kind} is unavailable"));
        return Err(format!("Kubernetes {release} does not serve it: {why}"));
    }
    let elsewhere: Vec<String> = catalog
        .group_versions()
        .filter(|other| other.rsplit_once('/').map_or("", |(g, _)| g) == group && *other != gv)
        .filter(|other| {
            catalog
                .kind(other, kind)
                .is_some_and(|k| !k.lifecycle().is_removed_in(release))
        })
        .map(|other| format!("{other} {kind}"))
        .collect();
    Err(if elsewhere.is_empty() {
        format!("Kubernetes {release} has no kind {kind} in {gv}")
    } else {
        format!(
            "Kubernetes {release} has no kind {kind} in {gv}; it serves {}",
            elsewhere.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn release(name: &str) -> Release {
        name.parse().unwrap()
    }

    #[test]
    fn served_kinds_pass() {
        assert_eq!(served(release("1.36"), "apps", "v1", "Deployment"), Ok(None));
        assert_eq!(served(release("1.36"), "", "v1", "Service"), Ok(None));
        // Declared by the types, perhaps not enabled by a cluster: not refused (deprecated
        // since its v1, so with the server's warning).
        let alpha = served(
            release("1.36"),
            "admissionregistration.k8s.io",
            "v1alpha1",
            "MutatingAdmissionPolicy",
        );
        assert!(
            alpha
                .as_ref()
                .is_ok_and(|w| w.as_deref().is_some_and(|w| w.contains("is deprecated in v1."))),
            "{alpha:?}"
        );
    }

    #[test]
    fn deprecated_kinds_get_the_servers_warning() {
        let warning = "flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema is deprecated in v1.29+, \
                       unavailable in v1.32+; use flowcontrol.apiserver.k8s.io/v1 FlowSchema";
        assert_eq!(
            served(release("1.30"), "flowcontrol.apiserver.k8s.io", "v1beta3", "FlowSchema"),
            Ok(Some(warning.into()))
        );
    }

    #[test]
    fn removed_kinds_say_what_replaces_them() {
        assert_eq!(
            served(release("1.30"), "policy", "v1beta1", "PodDisruptionBudget"),
            Err(
                "Kubernetes 1.30 does not serve it: policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, \
                 unavailable in v1.25+; use policy/v1 PodDisruptionBudget"
                    .into()
            )
        );
        assert_eq!(
            served(release("1.30"), "extensions", "v1beta1", "Ingress"),
            Err(
                "Kubernetes 1.30 does not serve it: extensions/v1beta1 Ingress is deprecated in v1.14+, \
                 unavailable in v1.22+; use networking.k8s.io/v1 Ingress"
                    .into()
            )
        );
    }

    #[test]
    fn unknown_kinds_name_the_versions_that_serve_them() {
        assert_eq!(
            served(release("1.36"), "autoscaling", "v2beta2", "HorizontalPodAutoscaler"),
            Err(
                "Kubernetes 1.36 has no kind HorizontalPodAutoscaler in autoscaling/v2beta2; it serves \
                 autoscaling/v1 HorizontalPodAutoscaler, autoscaling/v2 HorizontalPodAutoscaler"
                    .into()
            )
        );
        assert_eq!(
            served(release("1.36"), "apps", "v1", "Deploymnet"),
            Err("Kubernetes 1.36 has no kind Deploymnet in apps/v1".into())
        );
    }
}
