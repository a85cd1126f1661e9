//! The fuzz CRD (`crds/widgets.yaml`, every kind of validation) shared by the `validate`,
//! `compiled_validate` and `decode_bytes` targets: interpreted, and compiled by `build.rs`.

use std::sync::LazyLock;

use kstruct::RegisteredCrd;

/// The CRD compiled by `build.rs`.
#[allow(dead_code)]
pub mod compiled {
    include!(concat!(env!("OUT_DIR"), "/widgets.rs"));
}

/// The CRD, interpreted.
pub static CRD: LazyLock<RegisteredCrd> = LazyLock::new(|| {
    let mut registry = kstruct::Registry::new();
    registry
        .add_yaml(include_str!("../../crds/widgets.yaml"), "widgets.yaml")
        .unwrap();
    let crd = registry.crds()[0].clone();
    // A schema that does not convert would make every create an `Unservable` error.
    assert!(
        matches!(crd.version("v1"), Some(Ok(_))),
        "the fuzz CRD's schema converts"
    );
    crd
});
