//! cel-go's type unification (`checker/types.go`, `checker/mapping.go`).

use std::collections::HashMap;

use crate::types::Type;

/// Type parameter substitutions, keyed by the parameter's display (as cel-go keys them).
#[derive(Debug, Clone, Default)]
pub(crate) struct Mapping(HashMap<String, Type>);

impl Mapping {
    pub(crate) fn add(&mut self, from: &Type, to: Type) {
        self.0.insert(from.to_string(), to);
    }

    fn find(&self, from: &Type) -> Option<&Type> {
        self.0.get(&from.to_string())
    }
}

fn is_equal_or_less_specific(t1: &Type, t2: &Type) -> bool {
    if t1.is_dyn() || matches!(t1, Type::TypeParam(_)) {
        return true;
    }
    if t2.is_dyn() || matches!(t2, Type::TypeParam(_)) {
        return false;
    }
    if t1.kind() != t2.kind() {
        return false;
    }
    match (t1, t2) {
        (Type::Opaque(n1, p1), Type::Opaque(n2, p2)) => {
            n1 == n2 && p1.len() == p2.len() && p1.iter().zip(p2).all(|(a, b)| is_equal_or_less_specific(a, b))
        }
        (Type::List(a), Type::List(b)) => is_equal_or_less_specific(a, b),
        (Type::Map(k1, v1), Type::Map(k2, v2)) => {
            is_equal_or_less_specific(k1, k2) && is_equal_or_less_specific(v1, v2)
        }
        (Type::Type(_), Type::Type(_)) => true,
        _ => t1 == t2,
    }
}

fn internal_is_assignable(m: &mut Mapping, t1: &Type, t2: &Type) -> bool {
    if matches!(t2, Type::TypeParam(_)) {
        let (valid, has_sub) = is_valid_type_substitution(m, t1, t2);
        if valid {
            return true;
        }
        if has_sub {
            return false;
        }
    }
    if matches!(t1, Type::TypeParam(_)) {
        return is_valid_type_substitution(m, t2, t1).0;
    }
    if t1.is_dyn_or_error() || t2.is_dyn_or_error() {
        return true;
    }
    if matches!(t1, Type::Null) {
        return is_assignable_null(t2);
    }
    if matches!(t2, Type::Null) {
        return is_assignable_null(t1);
    }
    match t1 {
        Type::Bool
        | Type::Bytes
        | Type::Double
        | Type::Int
        | Type::String
        | Type::Uint
        | Type::Any
        | Type::Duration
        | Type::Timestamp
        | Type::Object(_) => t2.is_assignable_type(t1),
        Type::Type(_) => matches!(t2, Type::Type(_)),
        Type::Opaque(..) | Type::List(_) | Type::Map(..) => {
            t1.kind() == t2.kind() && t1.type_name() == t2.type_name() && {
                let (a, b) = (t1.parameters(), t2.parameters());
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| internal_is_assignable(m, x, y))
            }
        }
        _ => false,
    }
}

fn is_valid_type_substitution(m: &mut Mapping, t1: &Type, t2: &Type) -> (bool, bool) {
    if t1 == t2 {
        return (true, true);
    }
    if let Some(sub) = m.find(t2).cloned() {
        if *t1 == sub {
            return (true, true);
        }
        if internal_is_assignable(m, t1, &sub) {
            let new = most_general(t1, &sub);
            if not_referenced_in(m, t2, &new) {
                m.add(t2, new);
            }
            return (true, true);
        }
        return (false, true);
    }
    if not_referenced_in(m, t2, t1) {
        m.add(t2, t1.clone());
        return (true, false);
    }
    (false, false)
}

fn is_assignable_null(t: &Type) -> bool {
    matches!(
        t,
        Type::Opaque(..) | Type::Object(_) | Type::Any | Type::Duration | Type::Timestamp
    ) || t.is_assignable_type(&Type::Null)
}

/// `isAssignable`: the mapping extended so that `t2` is assignable to `t1`, or `None`.
pub(crate) fn is_assignable(m: &Mapping, t1: &Type, t2: &Type) -> Option<Mapping> {
    let mut copy = m.clone();
    internal_is_assignable(&mut copy, t1, t2).then_some(copy)
}

/// `isAssignableList`.
pub(crate) fn is_assignable_list(m: &Mapping, l1: &[Type], l2: &[Type]) -> Option<Mapping> {
    let mut copy = m.clone();
    (l1.len() == l2.len() && l1.iter().zip(l2).all(|(a, b)| internal_is_assignable(&mut copy, a, b))).then_some(copy)
}

/// `mostGeneral`.
pub(crate) fn most_general(t1: &Type, t2: &Type) -> Type {
    if is_equal_or_less_specific(t1, t2) {
        t1.clone()
    } else {
        t2.clone()
    }
}

fn not_referenced_in(m: &Mapping, t: &Type, within: &Type) -> bool {
    if t == within {
        return false;
    }
    match within {
        Type::TypeParam(_) => match m.find(within) {
            None => true,
            Some(sub) => {
                let sub = sub.clone();
                not_referenced_in(m, t, &sub)
            }
        },
        Type::Opaque(..) | Type::List(_) | Type::Map(..) | Type::Type(_) => {
            within.parameters().into_iter().all(|p| not_referenced_in(m, t, p))
        }
        _ => true,
    }
}

/// `substitute`: the type with its parameters replaced by their substitutions (free ones by
/// `dyn` when `to_dyn`).
pub(crate) fn substitute(m: &Mapping, t: &Type, to_dyn: bool) -> Type {
    substitute_depth(m, t, to_dyn, 0)
}

fn substitute_depth(m: &Mapping, t: &Type, to_dyn: bool, depth: usize) -> Type {
    // The mapping never refers to itself (notReferencedIn); the bound only guards against a
    // cycle this port would otherwise loop on.
    if depth > 10_000 {
        return Type::Dyn;
    }
    if let Some(sub) = m.find(t) {
        return substitute_depth(m, sub, to_dyn, depth + 1);
    }
    match t {
        Type::TypeParam(_) if to_dyn => Type::Dyn,
        Type::Opaque(n, p) => Type::Opaque(
            n.clone(),
            p.iter().map(|x| substitute_depth(m, x, to_dyn, depth + 1)).collect(),
        ),
        Type::List(e) => Type::list(substitute_depth(m, e, to_dyn, depth + 1)),
        Type::Map(k, v) => Type::map(
            substitute_depth(m, k, to_dyn, depth + 1),
            substitute_depth(m, v, to_dyn, depth + 1),
        ),
        Type::Type(Some(p)) => Type::type_of(substitute_depth(m, p, to_dyn, depth + 1)),
        _ => t.clone(),
    }
}
