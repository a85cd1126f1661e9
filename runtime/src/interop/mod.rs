//! Layer 8: schemas from elsewhere: JSON Schema as other generators write it ([`json_schema`]), the
//! `schemars` bridge (feature `schemars`) and k8s-openapi's types (feature `k8s-openapi`).

#[cfg(feature = "k8s-openapi")]
mod go_markers;
pub mod json_schema;
#[cfg(feature = "k8s-openapi")]
mod k8s_openapi;
pub(crate) mod markers;
#[cfg(feature = "schemars")]
pub mod schemars;

/// The schema of a field marked `#[kstruct(schemars)]`: `T`'s `schemars::JsonSchema`,
/// converted (see [`schemars::schema_of`]). Not a public API: the derive names it.
#[doc(hidden)]
pub struct Schemars<T: ?Sized>(std::marker::PhantomData<T>);

#[cfg(feature = "schemars")]
impl<T: ::schemars::JsonSchema + ?Sized> crate::CustomResourceSchema for Schemars<T> {
    fn schema(generator: &mut crate::Generator) -> kstruct_schema::Structural {
        schemars::schema_of::<T>(generator)
    }
}

#[cfg(not(feature = "schemars"))]
impl<T: ?Sized> crate::CustomResourceSchema for Schemars<T> {
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize =
        panic!("#[kstruct(schemars)] needs kstruct's `schemars` feature (kstruct = {{ features = [\"schemars\"] }})");
    fn schema(_: &mut crate::Generator) -> kstruct_schema::Structural {
        kstruct_schema::Structural::default()
    }
}

/// `schemars::JsonSchema` for a derived type (with the `schemars` feature; nothing without).
#[cfg(feature = "schemars")]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($t:ty; $name:expr) => {
        impl $crate::__private::schemars::JsonSchema for $t {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                ::std::borrow::Cow::Borrowed($name)
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(
                _: &mut $crate::__private::schemars::SchemaGenerator,
            ) -> $crate::__private::schemars::Schema {
                $crate::__private::json_schema_of::<$t>()
            }
        }
    };
}

/// `schemars::JsonSchema` for a derived type (with the `schemars` feature; nothing without).
#[cfg(not(feature = "schemars"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_json_schema {
    ($t:ty; $name:expr) => {};
}
