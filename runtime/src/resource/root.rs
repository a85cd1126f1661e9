//! What the root types the derive generates are made of (not a public API).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::Resource;
use crate::apiextensions::ObjectMeta;
use crate::rust_schema::builders::{Object, field_schema};
use crate::rust_schema::{Generator, typed};
use kstruct_schema::Structural;

/// The root schema: `apiVersion`, `kind`, `metadata` (`type: object`: the only schema the
/// API server allows there), `spec` (required) and perhaps `status`.
/// `status` is [`status_schema`] of the status type, when the kind has one.
pub fn schema<Spec: crate::CustomResourceSchema>(
    generator: &mut Generator,
    r: &Resource,
    status: Option<fn(&mut Generator) -> Structural>,
) -> Structural {
    let string = |description: String| {
        let mut s = typed("string");
        s.generic.description = description;
        s
    };
    let mut o = Object::new();
    o.property(generator, "apiVersion", false, |_| {
        string(format!(
            "The group and version of the object's schema: `{}`.",
            r.api_version
        ))
    });
    o.property(generator, "kind", false, |_| {
        string(format!("The kind of the object: `{}`.", r.kind))
    });
    o.property(generator, "metadata", false, |_| typed("object"));
    o.property(generator, "spec", true, |g| field_schema::<Spec>(g, false));
    if let Some(status) = status {
        o.property(generator, "status", false, status);
    }
    let mut s = o.finish();
    if let Some(d) = r.description {
        s.generic.description = d.to_owned();
    }
    s
}

/// The schema of `status` (optional).
pub fn status_schema<Status: crate::CustomResourceSchema>(generator: &mut Generator) -> Structural {
    field_schema::<Option<Status>>(generator, false)
}

/// Writes a root object: `apiVersion`, `kind`, `metadata`, `spec`, then `status` unless
/// `None`.
pub fn serialize<S, Spec, Status>(
    serializer: S,
    r: &Resource,
    metadata: &ObjectMeta,
    spec: &Spec,
    status: Option<&Status>,
) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    Spec: Serialize + ?Sized,
    Status: Serialize + ?Sized,
{
    let mut map = serializer.serialize_map(Some(4 + usize::from(status.is_some())))?;
    map.serialize_entry("apiVersion", r.api_version)?;
    map.serialize_entry("kind", r.kind)?;
    map.serialize_entry("metadata", metadata)?;
    map.serialize_entry("spec", spec)?;
    if let Some(status) = status {
        map.serialize_entry("status", status)?;
    }
    map.end()
}

/// Reads a root object. `apiVersion` and `kind` may be absent, but not name another version
/// or kind; `metadata` may be absent or null; `status` is read only when the kind has one
/// (`Status` is [`IgnoredAny`] otherwise); other fields are ignored.
pub fn deserialize<'de, D, Spec, Status>(
    deserializer: D,
    r: &'static Resource,
) -> Result<(ObjectMeta, Spec, Option<Status>), D::Error>
where
    D: Deserializer<'de>,
    Spec: Deserialize<'de>,
    Status: Deserialize<'de>,
{
    deserializer.deserialize_map(RootVisitor { r, marker: PhantomData })
}

struct RootVisitor<Spec, Status> {
    r: &'static Resource,
    marker: PhantomData<fn() -> (Spec, Status)>,
}

impl<'de, Spec, Status> Visitor<'de> for RootVisitor<Spec, Status>
where
    Spec: Deserialize<'de>,
    Status: Deserialize<'de>,
{
    type Value = (ObjectMeta, Spec, Option<Status>);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a {} object ({})", self.r.kind, self.r.api_version)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut metadata: Option<Option<ObjectMeta>> = None;
        let mut spec: Option<Spec> = None;
        let mut status: Option<Option<Status>> = None;
        let (mut seen_api_version, mut seen_kind) = (false, false);
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            match &*key {
                "apiVersion" => {
                    check_once(&mut seen_api_version, "apiVersion")?;
                    let v: std::borrow::Cow<'de, str> = map.next_value()?;
                    if v != self.r.api_version {
                        return Err(de::Error::custom(format_args!(
                            "apiVersion is {v:?}, expected {:?} (this type is {} {})",
                            self.r.api_version, self.r.kind, self.r.api_version
                        )));
                    }
                }
                "kind" => {
                    check_once(&mut seen_kind, "kind")?;
                    let v: std::borrow::Cow<'de, str> = map.next_value()?;
                    if v != self.r.kind {
                        return Err(de::Error::custom(format_args!(
                            "kind is {v:?}, expected {:?}",
                            self.r.kind
                        )));
                    }
                }
                "metadata" => {
                    if metadata.is_some() {
                        return Err(de::Error::duplicate_field("metadata"));
                    }
                    metadata = Some(map.next_value()?);
                }
                "spec" => {
                    if spec.is_some() {
                        return Err(de::Error::duplicate_field("spec"));
                    }
                    spec = Some(map.next_value()?);
                }
                "status" => {
                    if status.is_some() {
                        return Err(de::Error::duplicate_field("status"));
                    }
                    status = Some(map.next_value()?);
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let spec = spec.ok_or_else(|| de::Error::missing_field("spec"))?;
        Ok((metadata.flatten().unwrap_or_default(), spec, status.flatten()))
    }
}

fn check_once<E: de::Error>(seen: &mut bool, field: &'static str) -> Result<(), E> {
    if std::mem::replace(seen, true) {
        return Err(E::duplicate_field(field));
    }
    Ok(())
}

/// `Status` for kinds without a status: reading skips the field.
pub type NoStatus = IgnoredAny;
