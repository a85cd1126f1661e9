//! [`Shape`]: what kind of JSON a type's schema describes, known at compile time.

/// The kind of JSON value serde writes for a type, as far as the compiler can know it.
///
/// Every [`CustomResourceSchema`](crate::CustomResourceSchema) names its shape in an associated
/// constant, so that `#[derive(CustomResourceSchema)]` can refuse, at compile time, attributes
/// that do not fit the field's type (`minimum` on a string, `items(...)` on a struct, `flatten`
/// of a number...), as the API server would refuse the schema they produce.
///
/// ```
/// use kstruct::{CustomResourceSchema, Shape};
/// assert_eq!(<Vec<String> as CustomResourceSchema>::SHAPE, Shape::Array);
/// assert_eq!(<Option<u8> as CustomResourceSchema>::SHAPE, Shape::Integer);
/// assert_eq!(Shape::Integer.union(Shape::String), Shape::IntOrString);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Shape {
    /// Not known at compile time (a hand-written impl that does not say, `schema_with`):
    /// attributes are checked when the schema is generated instead.
    Unknown,
    /// Any JSON value (`serde_json::Value`): no `type`, unknown fields preserved.
    Any,
    /// `type: boolean`.
    Boolean,
    /// `type: integer`.
    Integer,
    /// `type: number`.
    Number,
    /// `type: string`.
    String,
    /// An integer or a string (`x-kubernetes-int-or-string: true`).
    IntOrString,
    /// `type: array`.
    Array,
    /// `type: object`.
    Object,
    /// Values of several of the above (an untagged enum of a string and a struct, ...).
    Mixed,
}

impl Shape {
    /// The shape of a value that is either of `self` or `other` (an untagged enum's variants).
    pub const fn union(self, other: Shape) -> Shape {
        use Shape::*;
        match (self, other) {
            (Unknown, _) | (_, Unknown) => Unknown,
            (Any, _) | (_, Any) => Any,
            (Integer, Integer) => Integer,
            (Integer | Number, Integer | Number) => Number,
            (Integer | String | IntOrString, Integer | String | IntOrString) => match (self, other) {
                (String, String) => String,
                _ => IntOrString,
            },
            (Boolean, Boolean) => Boolean,
            (Array, Array) => Array,
            (Object, Object) => Object,
            _ => Mixed,
        }
    }

    /// True when number bounds (`minimum`, `maximum`, `multiple_of`...) can apply.
    pub const fn admits_number_bounds(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Integer | Shape::Number | Shape::Mixed)
    }

    /// True when string validations (`min_length`, `max_length`, `pattern`) can apply.
    pub const fn admits_string_validations(self) -> bool {
        matches!(self, Shape::Unknown | Shape::String | Shape::IntOrString | Shape::Mixed)
    }

    /// True when array validations and extensions (`min_items`, `items(...)`, `list_type`...)
    /// can apply.
    pub const fn admits_array_validations(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Array)
    }

    /// True when object validations (`min_properties`, `max_properties`, `map_type`) can apply.
    pub const fn admits_object_validations(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Object | Shape::Any)
    }

    /// True when `map_type` can apply: the type is written as an object and typed as one.
    pub const fn admits_map_type(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Object)
    }

    /// True when `x-kubernetes-validations` can apply: the API server compiles rules only
    /// on nodes with a type (or int-or-string), not on free-form values or unions of types.
    pub const fn admits_rules(self) -> bool {
        !matches!(self, Shape::Any | Shape::Mixed)
    }

    /// True when `int_or_string` can apply: the type writes integers, strings or anything.
    pub const fn admits_int_or_string(self) -> bool {
        matches!(
            self,
            Shape::Unknown | Shape::Any | Shape::Integer | Shape::String | Shape::IntOrString
        )
    }

    /// True when `embedded_resource` can apply: the type writes objects.
    pub const fn admits_embedded_resource(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Object | Shape::Any)
    }

    /// True when serde can flatten the type into its parent (`#[serde(flatten)]` needs a struct
    /// or a map), or when a tagged newtype variant can hold it.
    pub const fn admits_flatten(self) -> bool {
        matches!(self, Shape::Unknown | Shape::Object | Shape::Any)
    }
}

#[cfg(test)]
mod tests {
    use super::Shape::{self, *};

    #[test]
    fn union_is_commutative_and_picks_the_structural_kinds() {
        let all = [
            Unknown,
            Any,
            Boolean,
            Integer,
            Number,
            String,
            IntOrString,
            Array,
            Object,
            Mixed,
        ];
        for a in all {
            assert_eq!(a.union(a), a, "{a:?}");
            for b in all {
                assert_eq!(a.union(b), b.union(a), "{a:?} {b:?}");
            }
        }
        assert_eq!(Integer.union(String), IntOrString);
        assert_eq!(IntOrString.union(Integer), IntOrString);
        assert_eq!(Integer.union(Number), Number);
        assert_eq!(Number.union(String), Mixed);
        assert_eq!(Object.union(String), Mixed);
        assert_eq!(Object.union(Unknown), Unknown);
        assert_eq!(Object.union(Any), Any);
    }

    #[test]
    fn attribute_checks() {
        assert!(Integer.admits_number_bounds());
        assert!(!String.admits_number_bounds());
        assert!(IntOrString.admits_string_validations());
        assert!(!Object.admits_array_validations());
        assert!(Any.admits_object_validations());
        assert!(!Number.admits_int_or_string());
        assert!(!Array.admits_flatten());
        assert!(Shape::Unknown.admits_flatten());
    }
}
