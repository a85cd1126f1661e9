//! `Unfold`: making `x-kubernetes-int-or-string` explicit, as the reference does before it
//! publishes or validates with a schema.

use crate::structural::{Generic, NestedValueValidation, Structural, ValueValidation};

/// The `[{type: integer}, {type: string}]` pair that stands for int-or-string.
fn int_or_string_pair() -> Vec<NestedValueValidation> {
    ["integer", "string"]
        .into_iter()
        .map(|t| NestedValueValidation {
            forbidden_generics: Generic {
                type_: t.to_string(),
                ..Generic::default()
            },
            ..NestedValueValidation::default()
        })
        .collect()
}

/// True when `any_of` is exactly `[{type: integer}, {type: string}]`, in that order and with
/// nothing else set (the reference's `reflect.DeepEqual` test; it ignores `example` and
/// `externalDocs`, which its model does not hold).
pub(crate) fn is_int_or_string_any_of(any_of: &[NestedValueValidation]) -> bool {
    if any_of.len() != 2 {
        return false;
    }
    any_of.iter().zip(int_or_string_pair()).all(|(n, want)| {
        let mut n = n.clone();
        n.forbidden_generics.example = None;
        n.forbidden_generics.external_docs = None;
        n == want
    })
}

/// True when `s` uses one of the two int-or-string shapes: `anyOf: [{type: integer}, {type:
/// string}]`, or the same `anyOf` in its first `allOf` entry.
pub(crate) fn has_int_or_string_shape(s: &ValueValidation) -> (bool, bool) {
    let any_of = is_int_or_string_any_of(&s.any_of);
    let all_of = s
        .all_of
        .first()
        .is_some_and(|a| is_int_or_string_any_of(&a.value_validation.any_of));
    (any_of, all_of)
}

/// Adds the int-or-string `anyOf` to every node with `x-kubernetes-int-or-string: true` that
/// does not have one of its shapes yet: as `anyOf` when the node has none, else as a new first
/// `allOf` entry.
///
/// ```
/// use kstruct_schema::{convert, unfold::unfold};
/// let mut s = convert::from_value(&serde_json::json!({"x-kubernetes-int-or-string": true})).unwrap().unwrap();
/// unfold(&mut s);
/// assert_eq!(s.value_validation.any_of.len(), 2);
/// assert_eq!(s.value_validation.any_of[0].forbidden_generics.type_, "integer");
/// ```
pub fn unfold(s: &mut Structural) {
    stacker::maybe_grow(crate::STACK_RED_ZONE, crate::STACK_GROWTH, || {
        if s.extensions.x_int_or_string {
            let (any_of, all_of) = has_int_or_string_shape(&s.value_validation);
            if !any_of && !all_of {
                let vv = &mut s.value_validation;
                if vv.any_of.is_empty() {
                    vv.any_of = int_or_string_pair();
                } else {
                    let entry = NestedValueValidation {
                        value_validation: ValueValidation {
                            any_of: int_or_string_pair(),
                            ..ValueValidation::default()
                        },
                        ..NestedValueValidation::default()
                    };
                    vv.all_of.insert(0, entry);
                }
            }
        }
        if let Some(items) = &mut s.items {
            unfold(items);
        }
        for p in s.properties.values_mut() {
            unfold(p);
        }
        if let Some(ap) = s.additional_properties.as_mut().and_then(|a| a.schema_mut()) {
            unfold(ap);
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::from_value;
    use serde_json::json;

    #[test]
    fn prepends_to_all_of_when_any_of_is_taken() {
        let mut s = from_value(&json!({
            "x-kubernetes-int-or-string": true,
            "anyOf": [{"maxLength": 3}],
            "allOf": [{"minLength": 1}],
        }))
        .unwrap()
        .unwrap();
        unfold(&mut s);
        assert_eq!(s.value_validation.any_of.len(), 1);
        assert_eq!(s.value_validation.all_of.len(), 2);
        assert!(is_int_or_string_any_of(
            &s.value_validation.all_of[0].value_validation.any_of
        ));
    }

    #[test]
    fn leaves_existing_shapes_alone() {
        let v = json!({"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]});
        let mut s = from_value(&v).unwrap().unwrap();
        let before = s.clone();
        unfold(&mut s);
        assert_eq!(s, before);
    }
}
