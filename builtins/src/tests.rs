use super::*;
use std::collections::BTreeSet;

fn catalog(release: &str) -> Catalog {
    Catalog::new(release.parse().unwrap()).unwrap()
}

/// The named types `t` mentions.
fn named<'t>(t: &'t GoType, out: &mut Vec<&'t str>) {
    match t {
        GoType::Named(n) => out.push(n),
        GoType::Pointer(t) | GoType::Slice(t) | GoType::Array(t) => named(t, out),
        GoType::Map(k, v) => {
            named(k, out);
            named(v, out);
        }
        GoType::Builtin(_) | GoType::Interface => {}
    }
}

#[test]
fn every_type_a_kind_reaches_is_declared_in_its_release() {
    let mut kinds = 0;
    for release in Release::ALL {
        let c = Catalog::new(release).unwrap();
        let mut todo: Vec<&str> = Vec::new();
        for gv in c.group_versions() {
            for k in c.kinds(gv) {
                kinds += 1;
                todo.push(k.type_name());
            }
        }
        let mut seen = BTreeSet::new();
        while let Some(name) = todo.pop() {
            if !seen.insert(name) {
                continue;
            }
            // Inside types that decode themselves (meta/v1.Time over time.Time).
            if name.starts_with("time.") {
                continue;
            }
            let def = c
                .type_def(name)
                .unwrap_or_else(|| panic!("{release}: {name} is not declared"));
            let mut refs = Vec::new();
            match def.shape() {
                TypeShape::Struct(fields) => fields.iter().for_each(|f| named(f.go_type(), &mut refs)),
                TypeShape::Named(t) | TypeShape::Alias(t) => named(t, &mut refs),
            }
            todo.extend(refs);
        }
    }
    // About 300 kinds (lists included) in each release.
    assert!(kinds > 8 * 250, "{kinds} kinds over all releases");
}

#[test]
fn the_kinds_a_repository_holds_are_in_the_newest_release() {
    let c = Catalog::new(Release::newest()).unwrap();
    let want = [
        ("v1", "Pod"),
        ("v1", "Service"),
        ("v1", "ConfigMap"),
        ("v1", "Secret"),
        ("v1", "ServiceAccount"),
        ("v1", "Namespace"),
        ("v1", "PersistentVolumeClaim"),
        ("apps/v1", "Deployment"),
        ("apps/v1", "StatefulSet"),
        ("apps/v1", "DaemonSet"),
        ("apps/v1", "ReplicaSet"),
        ("batch/v1", "Job"),
        ("batch/v1", "CronJob"),
        ("networking.k8s.io/v1", "Ingress"),
        ("networking.k8s.io/v1", "NetworkPolicy"),
        ("rbac.authorization.k8s.io/v1", "Role"),
        ("rbac.authorization.k8s.io/v1", "RoleBinding"),
        ("rbac.authorization.k8s.io/v1", "ClusterRole"),
        ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
        ("autoscaling/v2", "HorizontalPodAutoscaler"),
        ("policy/v1", "PodDisruptionBudget"),
        ("storage.k8s.io/v1", "StorageClass"),
        ("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration"),
        ("scheduling.k8s.io/v1", "PriorityClass"),
        ("coordination.k8s.io/v1", "Lease"),
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
        ("apiregistration.k8s.io/v1", "APIService"),
    ];
    for (gv, kind) in want {
        let k = c.kind(gv, kind).unwrap_or_else(|| panic!("{gv} {kind}"));
        let def = c.type_def(k.type_name()).unwrap();
        assert!(def.field("metadata").is_some(), "{gv} {kind} has metadata");
        assert!(!k.lifecycle().is_removed_in(Release::newest()), "{gv} {kind} is served");
        assert_eq!(k.deprecation_warning(), None, "{gv} {kind}");
    }
}

#[test]
fn fields_carry_go_names_types_and_markers() {
    let c = catalog("1.36");
    let deployment = c.type_def("apps/v1.Deployment").unwrap();
    let type_meta = &deployment.fields()[0];
    assert_eq!((type_meta.json_name(), type_meta.inline()), (None, true));
    assert_eq!(type_meta.go_type(), &GoType::Named("meta/v1.TypeMeta".into()));
    let spec = c.type_def("apps/v1.DeploymentSpec").unwrap();
    let replicas = spec.field("replicas").unwrap();
    assert_eq!(
        (
            replicas.go_name(),
            replicas.go_type().go_name().as_str(),
            replicas.omitempty(),
            replicas.optional()
        ),
        ("Replicas", "*int32", true, true)
    );
    assert_eq!(
        spec.field("template").unwrap().go_type().go_name(),
        "v1.PodTemplateSpec"
    );

    let pod = c.type_def("core/v1.PodSpec").unwrap();
    let containers = pod.field("containers").unwrap();
    assert_eq!(containers.go_type().go_name(), "[]v1.Container");
    assert_eq!(
        (containers.marker("listType"), containers.list_map_keys()),
        (Some("map"), vec!["name"])
    );
    let ports = c.type_def("core/v1.Container").unwrap().field("ports").unwrap();
    assert_eq!(ports.list_map_keys(), ["containerPort", "protocol"]);
    let selector = c.type_def("core/v1.ServiceSpec").unwrap().field("selector").unwrap();
    assert_eq!(selector.marker("mapType"), Some("atomic"));
    let data = c.type_def("core/v1.Secret").unwrap().field("data").unwrap();
    // As Go's reflection prints it in type errors (`byte` is `uint8`).
    assert_eq!(data.go_type().go_name(), "map[string][]uint8");
}

#[test]
fn special_types_decode_themselves() {
    let c = catalog("1.36");
    for name in [
        "resource.Quantity",
        "intstr.IntOrString",
        "meta/v1.Time",
        "meta/v1.MicroTime",
        "runtime.RawExtension",
    ] {
        assert!(c.type_def(name).unwrap().decodes_itself(), "{name}");
    }
    assert!(!c.type_def("meta/v1.ObjectMeta").unwrap().decodes_itself());
    assert_eq!(
        c.type_def("core/v1.Protocol").unwrap().shape(),
        &TypeShape::Named(GoType::Builtin("string"))
    );
}

#[test]
fn lifecycles_give_the_servers_deprecation_warnings() {
    let c = catalog("1.30");
    let pdb = c.kind("policy/v1beta1", "PodDisruptionBudget").unwrap();
    assert_eq!(
        pdb.deprecation_warning().unwrap(),
        "policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget"
    );
    assert!(pdb.lifecycle().is_removed_in(Release::newest()));
    let ingress = c.kind("extensions/v1beta1", "Ingress").unwrap();
    assert_eq!(
        ingress.lifecycle().replacement,
        Some(("networking.k8s.io/v1", "Ingress"))
    );
    assert!(ingress.lifecycle().is_removed_in("1.30".parse().unwrap()));
    let hpa = c.kind("autoscaling/v2beta2", "HorizontalPodAutoscaler").unwrap();
    assert_eq!(hpa.lifecycle().removed, Some((1, 26)));
    let l = Lifecycle {
        deprecated: Some((1, 33)),
        ..Lifecycle::default()
    };
    assert!(!l.is_deprecated_in("1.32".parse().unwrap()));
    assert!(l.is_deprecated_in("1.33".parse().unwrap()));
    assert!(l.is_deprecated_in(Release::head()));
}

#[test]
fn releases_differ_where_the_types_do() {
    // A kind added in 1.36 (MutatingAdmissionPolicy's v1 API) is not in 1.35.
    let gv = "admissionregistration.k8s.io/v1";
    assert!(catalog("1.35").kind(gv, "MutatingAdmissionPolicy").is_none());
    assert!(catalog("1.36").kind(gv, "MutatingAdmissionPolicy").is_some());
    assert_eq!(
        "1.29".parse::<Release>().unwrap_err().to_string(),
        "unknown Kubernetes release \"1.29\": kstruct knows 1.30, 1.31, 1.32, 1.33, 1.34, 1.35, 1.36, head"
    );
    assert_eq!("1.34.2".parse::<Release>().unwrap().name(), "1.34");
}

#[test]
fn the_data_stays_within_its_budget() {
    let size = include_str!("../data/types.txt").len();
    assert!(size < 1_000_000, "types.txt is {size} bytes");
}

#[test]
fn malformed_data_is_an_error_naming_its_line() {
    let text =
        "releases 1.30=a 1.31=b 1.32=c 1.33=d 1.34=e 1.35=f 1.36=g head=h\ntype x/v1.T @1 struct\n  a A ?bad -\n";
    assert_eq!(
        facts::read(text).unwrap_err().to_string(),
        "builtins/data/types.txt, line 3: unreadable Go type \"?bad\""
    );
    assert!(facts::read("releases 1.30\n").is_err());
}
