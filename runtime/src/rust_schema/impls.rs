//! [`CustomResourceSchema`] for the std and serde_json types serde serializes, as serde_json
//! writes them.
//!
//! | Rust | schema |
//! |---|---|
//! | `bool` | `type: boolean` |
//! | `i8`, `i16` | `integer`, `format: int32`, the type's bounds |
//! | `i32` | `integer`, `format: int32` (the API server does not enforce the format's range) |
//! | `i64`, `isize` | `integer`, `format: int64` |
//! | `u8`, `u16` | `integer`, `format: int32`, `minimum: 0`, the type's maximum |
//! | `u32` | `integer`, `format: int64`, `minimum: 0`, `maximum: 4294967295` |
//! | `u64`, `usize` | `integer`, `format: int64`, `minimum: 0` (the API server reads integers above 2^63−1 as floats: they fail `type: integer`) |
//! | `i128`, `u128` | `integer` (`minimum: 0` for `u128`); serde_json writes them as numbers, which the API server only reads as integers within 64 bits |
//! | `NonZero*` | as the integer, with `minimum: 1` (unsigned) or `not: {enum: [0]}` (signed) |
//! | `f32`, `f64` | `number`, `format: float` / `double` (serde_json writes NaN and infinities as `null`) |
//! | `String`, `str`, `Cow<str>`, `PathBuf`, `Path` | `string` |
//! | `char` | `string`, `minLength: 1`, `maxLength: 1` |
//! | `IpAddr`, `SocketAddr` (and the V4/V6 forms) | `string` (`format: ipv4` / `ipv6` for the addresses) |
//! | `Option<T>` | `T`, `nullable: true` (a struct field of this type is not required and, unless it keeps a `null`, not nullable) |
//! | `Box`, `Rc`, `Arc`, `&T`, `Cow`, `Cell`, `RefCell`, `Mutex`, `RwLock`, `Reverse`, `Wrapping`, `Saturating` | the inner type's |
//! | `Vec`, `VecDeque`, `LinkedList`, `BinaryHeap`, `[T]` | `array` of `T` |
//! | `[T; N]` | `array`, `minItems` = `maxItems` = N |
//! | `BTreeSet`, `HashSet` | `array`, `x-kubernetes-list-type: set` (object items become `x-kubernetes-map-type: atomic`, as the API server requires; nullable items make the list atomic) |
//! | `BTreeMap<K, V>`, `HashMap<K, V>` | `object` with `additionalProperties: V` (`K`: [`MapKey`]) |
//! | tuples | `array` of exactly that many items: the element schema, or the union of the elements' schemas |
//! | `Result<T, E>` | externally tagged: `{Ok: T}` or `{Err: E}` |
//! | `Duration`, `SystemTime` | serde's objects (`secs`/`nanos`, `secs_since_epoch`/`nanos_since_epoch`) |
//! | `serde_json::Value` | no type, `x-kubernetes-preserve-unknown-fields: true`, `nullable: true` |
//! | `serde_json::Map<String, Value>` | `object`, `x-kubernetes-preserve-unknown-fields: true` |
//! | `serde_json::Number` | `number` |
//!
//! `()`, `PhantomData` and unit structs have no schema: serde writes `null` for them.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::num::{
    NonZeroI8, NonZeroI16, NonZeroI32, NonZeroI64, NonZeroI128, NonZeroIsize, NonZeroU8, NonZeroU16, NonZeroU32,
    NonZeroU64, NonZeroU128, NonZeroUsize, Saturating, Wrapping,
};
use std::rc::Rc;
use std::sync::{Arc, Mutex, RwLock};

use kstruct_schema::{NestedValueValidation, Structural, ValueValidation};
use serde_json::Value;

use super::builders::{ExternalEnum, Object, make_set, map_of, tuple};
use super::merge::{any_of_shape, make_nullable};
use super::outline::Outline;
use super::{ArraySchema, CustomResourceSchema, Generator, MapKey, Shape, typed};

fn integer(format: &str, minimum: Option<f64>, maximum: Option<f64>) -> Structural {
    let mut s = typed("integer");
    s.value_validation.format = format.into();
    s.value_validation.minimum = minimum;
    s.value_validation.maximum = maximum;
    s
}

impl CustomResourceSchema for bool {
    const SHAPE: Shape = Shape::Boolean;
    const OUTLINE: Outline = Outline::leaf(Shape::Boolean);
    fn schema(_: &mut Generator) -> Structural {
        typed("boolean")
    }
}

macro_rules! integers {
    ($($t:ty, $nz:ty, $format:expr, $min:expr, $max:expr, $nz_signed:expr;)*) => {$(
        impl CustomResourceSchema for $t {
            const SHAPE: Shape = Shape::Integer;
            const OUTLINE: Outline = Outline::leaf(Shape::Integer);
            fn schema(_: &mut Generator) -> Structural {
                integer($format, $min, $max)
            }
        }
        impl MapKey for $t {}
        impl CustomResourceSchema for $nz {
            const SHAPE: Shape = Shape::Integer;
            const OUTLINE: Outline = Outline::leaf(Shape::Integer);
            fn schema(_: &mut Generator) -> Structural {
                let mut s = integer($format, $min, $max);
                if $nz_signed {
                    s.value_validation.not = Some(Box::new(NestedValueValidation {
                        value_validation: ValueValidation { enum_: vec![Value::from(0)], ..ValueValidation::default() },
                        ..NestedValueValidation::default()
                    }));
                } else {
                    s.value_validation.minimum = Some(1.0);
                }
                s
            }
        }
        impl MapKey for $nz {}
    )*};
}

integers! {
    i8, NonZeroI8, "int32", Some(-128.0), Some(127.0), true;
    i16, NonZeroI16, "int32", Some(-32768.0), Some(32767.0), true;
    i32, NonZeroI32, "int32", None, None, true;
    i64, NonZeroI64, "int64", None, None, true;
    isize, NonZeroIsize, "int64", None, None, true;
    i128, NonZeroI128, "", None, None, true;
    u8, NonZeroU8, "int32", Some(0.0), Some(255.0), false;
    u16, NonZeroU16, "int32", Some(0.0), Some(65535.0), false;
    u32, NonZeroU32, "int64", Some(0.0), Some(4294967295.0), false;
    u64, NonZeroU64, "int64", Some(0.0), None, false;
    usize, NonZeroUsize, "int64", Some(0.0), None, false;
    u128, NonZeroU128, "", Some(0.0), None, false;
}

impl CustomResourceSchema for f32 {
    const SHAPE: Shape = Shape::Number;
    const OUTLINE: Outline = Outline::leaf(Shape::Number);
    fn schema(_: &mut Generator) -> Structural {
        let mut s = typed("number");
        s.value_validation.format = "float".into();
        s
    }
}

impl CustomResourceSchema for f64 {
    const SHAPE: Shape = Shape::Number;
    const OUTLINE: Outline = Outline::leaf(Shape::Number);
    fn schema(_: &mut Generator) -> Structural {
        let mut s = typed("number");
        s.value_validation.format = "double".into();
        s
    }
}

impl CustomResourceSchema for char {
    const SHAPE: Shape = Shape::String;
    const OUTLINE: Outline = Outline::leaf(Shape::String);
    fn schema(_: &mut Generator) -> Structural {
        let mut s = typed("string");
        s.value_validation.min_length = Some(1);
        s.value_validation.max_length = Some(1);
        s
    }
}
impl MapKey for char {}

macro_rules! strings {
    ($($t:ty, $format:expr;)*) => {$(
        impl CustomResourceSchema for $t {
            const SHAPE: Shape = Shape::String;
            const OUTLINE: Outline = Outline::leaf(Shape::String);
            fn schema(_: &mut Generator) -> Structural {
                let mut s = typed("string");
                s.value_validation.format = $format.into();
                s
            }
        }
    )*};
}

strings! {
    str, "";
    String, "";
    std::path::Path, "";
    std::path::PathBuf, "";
    std::net::IpAddr, "";
    std::net::Ipv4Addr, "ipv4";
    std::net::Ipv6Addr, "ipv6";
    std::net::SocketAddr, "";
    std::net::SocketAddrV4, "";
    std::net::SocketAddrV6, "";
}
impl MapKey for str {}
impl MapKey for String {}

impl<T: CustomResourceSchema> CustomResourceSchema for Option<T> {
    const SHAPE: Shape = T::SHAPE;
    const OPTIONAL: bool = true;
    const OUTLINE: Outline = T::OUTLINE.option();
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        let mut s = generator.subschema_for::<T>();
        make_nullable(&mut s);
        s
    }
    fn schema_when_present(generator: &mut Generator) -> Structural {
        generator.subschema_for::<T>()
    }
}

macro_rules! transparent {
    ($($(#[$m:meta])* [$($gen:tt)*] $t:ty => $inner:ty;)*) => {$(
        $(#[$m])*
        impl<$($gen)*> CustomResourceSchema for $t {
            const SHAPE: Shape = <$inner as CustomResourceSchema>::SHAPE;
            const OPTIONAL: bool = <$inner as CustomResourceSchema>::OPTIONAL;
            const OUTLINE: Outline = <$inner as CustomResourceSchema>::OUTLINE;
            const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize =
                <$inner as CustomResourceSchema>::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
            fn schema(generator: &mut Generator) -> Structural {
                generator.subschema_for::<$inner>()
            }
            fn schema_when_present(generator: &mut Generator) -> Structural {
                generator.present_subschema_for::<$inner>()
            }
        }
    )*};
}

transparent! {
    [T: CustomResourceSchema + ?Sized] Box<T> => T;
    [T: CustomResourceSchema + ?Sized] Rc<T> => T;
    [T: CustomResourceSchema + ?Sized] Arc<T> => T;
    ['a, T: CustomResourceSchema + ?Sized] &'a T => T;
    ['a, T: CustomResourceSchema + ?Sized] &'a mut T => T;
    ['a, T: CustomResourceSchema + ToOwned + ?Sized] Cow<'a, T> => T;
    [T: CustomResourceSchema + Copy] Cell<T> => T;
    [T: CustomResourceSchema + ?Sized] RefCell<T> => T;
    [T: CustomResourceSchema + ?Sized] Mutex<T> => T;
    [T: CustomResourceSchema + ?Sized] RwLock<T> => T;
    [T: CustomResourceSchema] Reverse<T> => T;
    [T: CustomResourceSchema] Wrapping<T> => T;
    [T: CustomResourceSchema] Saturating<T> => T;
}

impl<T: MapKey + ?Sized> MapKey for Box<T> {}
impl<T: MapKey + ?Sized> MapKey for Rc<T> {}
impl<T: MapKey + ?Sized> MapKey for Arc<T> {}
impl<T: MapKey + ?Sized> MapKey for &T {}
impl<T: MapKey + ToOwned + ?Sized> MapKey for Cow<'_, T> {}

macro_rules! array_schemas {
    ($([$($gen:tt)*] $t:ty => $items:ty;)*) => {$(
        impl<$($gen)*> ArraySchema for $t {
            type Items = $items;
        }
    )*};
}

array_schemas! {
    [T: CustomResourceSchema] [T] => T;
    [T: CustomResourceSchema] Vec<T> => T;
    [T: CustomResourceSchema] VecDeque<T> => T;
    [T: CustomResourceSchema] LinkedList<T> => T;
    [T: CustomResourceSchema] BinaryHeap<T> => T;
    [T: CustomResourceSchema, const N: usize] [T; N] => T;
    [T: CustomResourceSchema] BTreeSet<T> => T;
    [T: CustomResourceSchema, S] HashSet<T, S> => T;
    [T: ArraySchema] Option<T> => T::Items;
    [T: ArraySchema + ?Sized] Box<T> => T::Items;
    [T: ArraySchema + ?Sized] Rc<T> => T::Items;
    [T: ArraySchema + ?Sized] Arc<T> => T::Items;
    ['a, T: ArraySchema + ?Sized] &'a T => T::Items;
    ['a, T: ArraySchema + ToOwned + ?Sized] Cow<'a, T> => T::Items;
}

fn array_of<T: CustomResourceSchema + ?Sized>(generator: &mut Generator) -> Structural {
    let mut s = typed("array");
    s.items = Some(Box::new(generator.at("[]", |g| g.subschema_for::<T>())));
    s
}

macro_rules! sequences {
    ($([$($gen:tt)*] $t:ty;)*) => {$(
        impl<$($gen)*> CustomResourceSchema for $t {
            const SHAPE: Shape = Shape::Array;
            const OUTLINE: Outline = Outline::array(&T::OUTLINE);
            const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
            fn schema(generator: &mut Generator) -> Structural {
                array_of::<T>(generator)
            }
        }
    )*};
}

sequences! {
    [T: CustomResourceSchema] [T];
    [T: CustomResourceSchema] Vec<T>;
    [T: CustomResourceSchema] VecDeque<T>;
    [T: CustomResourceSchema] LinkedList<T>;
    [T: CustomResourceSchema] BinaryHeap<T>;
}

impl<T: CustomResourceSchema, const N: usize> CustomResourceSchema for [T; N] {
    const SHAPE: Shape = Shape::Array;
    const OUTLINE: Outline = Outline::array(&T::OUTLINE);
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        let mut s = array_of::<T>(generator);
        s.value_validation.min_items = Some(N as i64);
        s.value_validation.max_items = Some(N as i64);
        s
    }
}

/// A set: `x-kubernetes-list-type: set`, where the API server allows it.
fn set_of<T: CustomResourceSchema>(generator: &mut Generator) -> Structural {
    let mut s = array_of::<T>(generator);
    // Nullable items cannot be a set for the API server: the list then stays atomic.
    let _ = make_set(&mut s);
    s
}

impl<T: CustomResourceSchema> CustomResourceSchema for BTreeSet<T> {
    const SHAPE: Shape = Shape::Array;
    const OUTLINE: Outline = Outline::array(&T::OUTLINE);
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        set_of::<T>(generator)
    }
}

impl<T: CustomResourceSchema, S> CustomResourceSchema for HashSet<T, S> {
    const SHAPE: Shape = Shape::Array;
    const OUTLINE: Outline = Outline::array(&T::OUTLINE);
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        set_of::<T>(generator)
    }
}

impl<K: MapKey, V: CustomResourceSchema> CustomResourceSchema for BTreeMap<K, V> {
    const SHAPE: Shape = Shape::Object;
    const OUTLINE: Outline = Outline::map(&V::OUTLINE);
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = V::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        map_of(generator.at("[*]", |g| g.subschema_for::<V>()))
    }
}

impl<K: MapKey, V: CustomResourceSchema, S> CustomResourceSchema for HashMap<K, V, S> {
    const SHAPE: Shape = Shape::Object;
    const OUTLINE: Outline = Outline::map(&V::OUTLINE);
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = V::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS;
    fn schema(generator: &mut Generator) -> Structural {
        map_of(generator.at("[*]", |g| g.subschema_for::<V>()))
    }
}

macro_rules! tuples {
    ($($n:literal => ($($t:ident),+);)*) => {$(
        impl<$($t: CustomResourceSchema),+> CustomResourceSchema for ($($t,)+) {
            const SHAPE: Shape = Shape::Array;
            const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize =
                super::builders::deepest([$($t::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS),+]);
            fn schema(generator: &mut Generator) -> Structural {
                let items = vec![$(generator.subschema_for::<$t>()),+];
                let n = items.len();
                tuple(generator, items, n)
            }
        }
    )*};
}

tuples! {
    1 => (T0);
    2 => (T0, T1);
    3 => (T0, T1, T2);
    4 => (T0, T1, T2, T3);
    5 => (T0, T1, T2, T3, T4);
    6 => (T0, T1, T2, T3, T4, T5);
    7 => (T0, T1, T2, T3, T4, T5, T6);
    8 => (T0, T1, T2, T3, T4, T5, T6, T7);
    9 => (T0, T1, T2, T3, T4, T5, T6, T7, T8);
    10 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9);
    11 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10);
    12 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11);
    13 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12);
    14 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13);
    15 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14);
    16 => (T0, T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12, T13, T14, T15);
}

impl<T: CustomResourceSchema, E: CustomResourceSchema> CustomResourceSchema for Result<T, E> {
    const SHAPE: Shape = Shape::Object;
    const RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS: usize = super::builders::deepest([
        T::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS,
        E::RECURSION_NEEDS_PRESERVE_UNKNOWN_FIELDS,
    ]);
    fn schema(generator: &mut Generator) -> Structural {
        let mut e = ExternalEnum::new();
        e.variant(generator, "Ok", |g| g.subschema_for::<T>());
        e.variant(generator, "Err", |g| g.subschema_for::<E>());
        e.finish()
    }
}

/// serde's `struct { <secs>: u64, <nanos>: u32 }`.
fn seconds_and_nanos(generator: &mut Generator, secs: &str, nanos: &str) -> Structural {
    let mut o = Object::new();
    o.property(generator, secs, true, |g| g.subschema_for::<u64>());
    o.property(generator, nanos, true, |g| {
        let mut n = g.subschema_for::<u32>();
        n.value_validation.maximum = Some(999_999_999.0);
        n
    });
    o.finish()
}

impl CustomResourceSchema for std::time::Duration {
    const SHAPE: Shape = Shape::Object;
    fn schema(generator: &mut Generator) -> Structural {
        seconds_and_nanos(generator, "secs", "nanos")
    }
}

impl CustomResourceSchema for std::time::SystemTime {
    const SHAPE: Shape = Shape::Object;
    fn schema(generator: &mut Generator) -> Structural {
        seconds_and_nanos(generator, "secs_since_epoch", "nanos_since_epoch")
    }
}

impl CustomResourceSchema for Value {
    const SHAPE: Shape = Shape::Any;
    const OUTLINE: Outline = Outline::ANY;
    fn schema(_: &mut Generator) -> Structural {
        any_of_shape(Shape::Any)
    }
}

impl CustomResourceSchema for serde_json::Map<String, Value> {
    const SHAPE: Shape = Shape::Object;
    const OUTLINE: Outline = Outline::free_object();
    fn schema(_: &mut Generator) -> Structural {
        let mut s = typed("object");
        s.extensions.x_preserve_unknown_fields = true;
        s
    }
}

impl CustomResourceSchema for serde_json::Number {
    const SHAPE: Shape = Shape::Number;
    const OUTLINE: Outline = Outline::leaf(Shape::Number);
    fn schema(_: &mut Generator) -> Structural {
        typed("number")
    }
}

#[cfg(test)]
mod tests {
    use crate::{schema_for, try_schema_for};
    use serde_json::json;
    use std::collections::{BTreeMap, BTreeSet, HashMap};

    #[test]
    fn scalars() {
        assert_eq!(schema_for::<bool>(), json!({"type": "boolean"}));
        assert_eq!(
            schema_for::<i8>(),
            json!({"type": "integer", "format": "int32", "minimum": -128, "maximum": 127})
        );
        assert_eq!(schema_for::<i32>(), json!({"type": "integer", "format": "int32"}));
        assert_eq!(
            schema_for::<u32>(),
            json!({"type": "integer", "format": "int64", "minimum": 0, "maximum": 4294967295u32})
        );
        assert_eq!(
            schema_for::<u64>(),
            json!({"type": "integer", "format": "int64", "minimum": 0})
        );
        assert_eq!(schema_for::<i128>(), json!({"type": "integer"}));
        assert_eq!(
            schema_for::<std::num::NonZeroU16>(),
            json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 65535})
        );
        assert_eq!(
            schema_for::<std::num::NonZeroI64>(),
            json!({"type": "integer", "format": "int64", "not": {"enum": [0]}})
        );
        assert_eq!(schema_for::<f64>(), json!({"type": "number", "format": "double"}));
        assert_eq!(
            schema_for::<char>(),
            json!({"type": "string", "minLength": 1, "maxLength": 1})
        );
        assert_eq!(schema_for::<str>(), json!({"type": "string"}));
        assert_eq!(
            schema_for::<std::borrow::Cow<'static, str>>(),
            json!({"type": "string"})
        );
        assert_eq!(
            schema_for::<std::net::Ipv6Addr>(),
            json!({"type": "string", "format": "ipv6"})
        );
    }

    #[test]
    fn options_and_wrappers() {
        assert_eq!(
            schema_for::<Option<String>>(),
            json!({"type": "string", "nullable": true})
        );
        assert_eq!(
            schema_for::<Box<Option<bool>>>(),
            json!({"type": "boolean", "nullable": true})
        );
        assert_eq!(schema_for::<std::sync::Arc<str>>(), json!({"type": "string"}));
    }

    #[test]
    fn collections() {
        assert_eq!(
            schema_for::<Vec<bool>>(),
            json!({"type": "array", "items": {"type": "boolean"}})
        );
        assert_eq!(
            schema_for::<[String; 3]>(),
            json!({"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3})
        );
        assert_eq!(
            schema_for::<BTreeSet<Vec<bool>>>(),
            json!({"type": "array", "x-kubernetes-list-type": "set",
                   "items": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "boolean"}}})
        );
        assert_eq!(
            schema_for::<BTreeSet<Option<bool>>>(),
            json!({"type": "array", "items": {"type": "boolean", "nullable": true}})
        );
        assert_eq!(
            schema_for::<HashMap<u16, Option<String>>>(),
            json!({"type": "object", "additionalProperties": {"type": "string", "nullable": true}})
        );
        assert_eq!(
            schema_for::<BTreeMap<String, serde_json::Value>>(),
            json!({"type": "object", "additionalProperties":
                {"x-kubernetes-preserve-unknown-fields": true, "nullable": true}})
        );
    }

    #[test]
    fn tuples() {
        assert_eq!(
            schema_for::<(u16, u16)>(),
            json!({"type": "array", "minItems": 2, "maxItems": 2,
                   "items": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 65535}})
        );
        assert_eq!(
            schema_for::<(String, i32)>(),
            json!({"type": "array", "minItems": 2, "maxItems": 2, "items": {"x-kubernetes-int-or-string": true}})
        );
        assert_eq!(
            schema_for::<(String, bool)>(),
            json!({"type": "array", "minItems": 2, "maxItems": 2,
                   "items": {"x-kubernetes-preserve-unknown-fields": true}})
        );
    }

    #[test]
    fn result_and_durations() {
        assert_eq!(
            schema_for::<Result<bool, String>>(),
            json!({"type": "object", "properties": {"Ok": {"type": "boolean"}, "Err": {"type": "string"}},
                   "oneOf": [{"required": ["Ok"]}, {"required": ["Err"]}]})
        );
        assert_eq!(
            schema_for::<std::time::Duration>(),
            json!({"type": "object", "required": ["secs", "nanos"], "properties": {
                "secs": {"type": "integer", "format": "int64", "minimum": 0},
                "nanos": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 999999999}}})
        );
    }

    #[test]
    fn json_values() {
        assert_eq!(
            schema_for::<serde_json::Value>(),
            json!({"x-kubernetes-preserve-unknown-fields": true, "nullable": true})
        );
        assert_eq!(
            schema_for::<serde_json::Map<String, serde_json::Value>>(),
            json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true})
        );
    }

    #[test]
    fn every_std_schema_is_structural() {
        try_schema_for::<Vec<Option<BTreeMap<String, (u8, String, Vec<f32>)>>>>().unwrap();
        try_schema_for::<Result<serde_json::Value, BTreeSet<char>>>().unwrap();
    }
}
