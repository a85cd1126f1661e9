//! The list functions of CRD rules at compatibility version 1.36: Kubernetes' lists library at
//! version 0 (`isSorted`, `sum`, `min`, `max`, `indexOf`, `lastIndexOf`; `includes` comes with
//! version 1, registered from 1.37) and cel-go's lists extension at version 3
//! (`lists.range`, `distinct`, `flatten`, `reverse`, `slice`, `sort`, and
//! `@sortByAssociatedKeys`, which the `sortBy` macro expands to).
//!
//! Ordering is cel-go's `Compare` (numbers across types; a NaN or a pair of other types gives
//! no order); sorting is Go's `sort.Slice` (pattern-defeating quicksort, not stable), ported
//! so that elements with equal keys come out in the order the API server gives them. Results
//! are atomic lists, except that `sort`, `@sortByAssociatedKeys` and `distinct` of an empty
//! list give that list back, as cel-go does.
//!
//! Costs: the Kubernetes functions cost one traversal of the list (apiserver's
//! `traversalCost`); the extension's functions cost what cel-go's overload cost trackers
//! charge (the result's size plus 11 for `slice`, `reverse`, `lists.range`; the input's size
//! times the depth plus 11 for `flatten`; the size squared times 2 (2.1 for strings and bytes)
//! plus 11 for `distinct`, `sort` and `@sortByAssociatedKeys`).

use std::cmp::Ordering;
use std::mem::discriminant;
use std::sync::Arc;

use super::Call;
use crate::value::{EvalError, List, Value};

/// A successful result.
fn ok(v: Value) -> Call {
    Some(Ok(v))
}

/// An error with this message.
fn err(message: impl Into<String>) -> Call {
    Some(Err(EvalError::new(message)))
}

/// cel-go's `no such overload`.
fn no_overload() -> Call {
    Some(Err(EvalError::no_such_overload()))
}

/// A list's length as a CEL `int`.
fn int(n: usize) -> Value {
    Value::Int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// An atomic list of these items, as cel-go's `NativeToValue([]ref.Val)` gives.
fn atomic(items: Vec<Value>) -> Value {
    Value::list(items)
}

/// The largest list `lists.range` builds: a longer one costs more than any per-call limit the
/// API server sets (one unit per item), so the call stops as the cost limit would stop it.
const MAX_RANGE: i64 = 1 << 24;

/// Whether cel-go's value implements `traits.Comparer` (the types `sort` and the Kubernetes
/// comparison functions accept).
fn comparable(v: &Value) -> bool {
    matches!(
        v,
        Value::Int(_)
            | Value::Uint(_)
            | Value::Double(_)
            | Value::Bool(_)
            | Value::Duration(_)
            | Value::Timestamp(_)
            | Value::String(_)
            | Value::Bytes(_)
    )
}

/// cel-go's `a.Compare(b)`: `None` where it answers an error (a NaN, or types that do not
/// compare: numbers compare across `int`, `uint` and `double`, others only with their type).
fn compare(a: &Value, b: &Value) -> Option<Ordering> {
    use Value as V;
    match (a, b) {
        (V::String(x), V::String(y)) => Some(x.as_bytes().cmp(y.as_bytes())),
        (V::Bytes(x), V::Bytes(y)) => Some(x.cmp(y)),
        (V::Bool(x), V::Bool(y)) => Some(x.cmp(y)),
        (V::Timestamp(x), V::Timestamp(y)) => Some(x.cmp(y)),
        (V::Duration(x), V::Duration(y)) => Some(x.cmp(y)),
        _ => match (a.as_number(), b.as_number()) {
            (Some(x), Some(y)) => x.compare(y),
            _ => None,
        },
    }
}

/// The lists functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    use Value as V;
    match (target, function, args) {
        (None, "lists.range", [V::Int(n)]) => range(*n),
        (Some(V::List(l)), "isSorted", []) => is_sorted(l),
        (Some(V::List(l)), "sum", []) => sum(l),
        (Some(V::List(l)), "min", []) => extreme(l, "min", Ordering::Greater),
        (Some(V::List(l)), "max", []) => extreme(l, "max", Ordering::Less),
        (Some(V::List(l)), "indexOf", [x]) => ok(index_of(l.items.iter().position(|y| y.equals(x) == Some(true)))),
        (Some(V::List(l)), "lastIndexOf", [x]) => ok(index_of(l.items.iter().rposition(|y| y.equals(x) == Some(true)))),
        (Some(V::List(l)), "reverse", []) => ok(atomic(l.items.iter().rev().cloned().collect())),
        (Some(V::List(l)), "slice", [V::Int(start), V::Int(end)]) => slice(l, *start, *end),
        (Some(V::List(l)), "distinct", []) => ok(distinct(l)),
        (Some(V::List(l)), "sort", []) => sort_by_keys(l, l),
        (Some(V::List(l)), "@sortByAssociatedKeys", [V::List(keys)]) => sort_by_keys(l, keys),
        // The extension declares `flatten` without type guards: a receiver that is not a list
        // reaches the function, which names the types in its error.
        (Some(t), "flatten", []) => match t {
            V::List(l) => flatten_call(l, 1),
            other => err(format!("no such overload: {}.flatten()", go_type(other))),
        },
        (Some(t), "flatten", [depth]) => match (t, depth) {
            (V::List(l), V::Int(d)) => flatten_call(l, *d),
            (other, d) => err(format!("no such overload: {}.flatten({})", go_type(other), go_type(d))),
        },
        _ => None,
    }
}

/// A value's runtime type as cel-go prints it (`int`, `list(dyn)`, `map(dyn, dyn)`).
fn go_type(v: &Value) -> String {
    match v {
        Value::List(_) => "list(dyn)".to_owned(),
        Value::Map(m) if m.object.is_none() => "map(dyn, dyn)".to_owned(),
        other => other.type_name().to_owned(),
    }
}

/// `indexOf`'s answer: the position, or -1.
fn index_of(found: Option<usize>) -> Value {
    found.map_or(Value::Int(-1), int)
}

/// `lists.range(n)`: `[0, 1, ..., n-1]`, empty when `n <= 0`.
fn range(n: i64) -> Call {
    if n > MAX_RANGE {
        return Some(Err(EvalError {
            message: crate::eval::COST_LIMIT_EXCEEDED.to_owned(),
            cost_exceeded: true,
        }));
    }
    ok(atomic((0..n.max(0)).map(Value::Int).collect()))
}

/// `isSorted()`: false at the first item ordered before its predecessor; every item must be
/// of a comparable type (items of types that do not compare with each other count as in
/// order, as cel-go ignores the comparison's error).
fn is_sorted(l: &List) -> Call {
    let mut prev: Option<&Value> = None;
    for next in &l.items {
        if !comparable(next) {
            return no_overload();
        }
        if let Some(p) = prev
            && compare(p, next) == Some(Ordering::Greater)
        {
            return ok(Value::Bool(false));
        }
        prev = Some(next);
    }
    ok(Value::Bool(true))
}

/// `sum()`: the items added to the zero of the list's element type (the type of the first
/// item: the overload cel-go's dispatch picks; `int` for an empty list), with `+`'s overflow
/// errors.
fn sum(l: &List) -> Call {
    let mut acc = match l.items.first() {
        None | Some(Value::Int(_)) => Value::Int(0),
        Some(Value::Uint(_)) => Value::Uint(0),
        Some(Value::Double(_)) => Value::Double(0.0),
        Some(Value::Duration(_)) => Value::Duration(0),
        Some(_) => return no_overload(),
    };
    for next in &l.items {
        let adder = matches!(
            next,
            Value::Int(_)
                | Value::Uint(_)
                | Value::Double(_)
                | Value::String(_)
                | Value::Bytes(_)
                | Value::List(_)
                | Value::Timestamp(_)
                | Value::Duration(_)
        );
        if !adder {
            return no_overload();
        }
        acc = match super::standard::call("_+_", None, &[acc, next.clone()]) {
            Some(Ok(v)) => v,
            Some(Err(e)) => return Some(Err(e)),
            None => return no_overload(),
        };
    }
    ok(acc)
}

/// `min()` (`replace_when` Greater) and `max()` (Less): the first item no other item is
/// strictly before (after); `<name> called on empty list` for an empty list.
fn extreme(l: &List, name: &str, replace_when: Ordering) -> Call {
    let mut result: Option<&Value> = None;
    for next in &l.items {
        if !comparable(next) {
            return no_overload();
        }
        match result {
            None => result = Some(next),
            Some(r) => {
                if compare(r, next) == Some(replace_when) {
                    result = Some(next);
                }
            }
        }
    }
    match result {
        Some(v) => ok(v.clone()),
        None => err(format!("{name} called on empty list")),
    }
}

/// `slice(start, end)`, with the extension's errors.
fn slice(l: &List, start: i64, end: i64) -> Call {
    if start < 0 || end < 0 {
        return err(format!("cannot slice({start}, {end}), negative indexes not supported"));
    }
    if start > end {
        return err(format!(
            "cannot slice({start}, {end}), start index must be less than or equal to end index"
        ));
    }
    let len = l.items.len();
    let (Ok(s), Ok(e)) = (usize::try_from(start), usize::try_from(end)) else {
        return err(format!("cannot slice({start}, {end}), list is length {len}"));
    };
    match l.items.get(s..e) {
        Some(items) => ok(atomic(items.to_vec())),
        None => err(format!("cannot slice({start}, {end}), list is length {len}")),
    }
}

/// `flatten(depth)`: nested lists spliced in, `depth` levels deep.
fn flatten_call(l: &List, depth: i64) -> Call {
    if depth < 0 {
        return err("level must be non-negative");
    }
    let mut out = Vec::new();
    flatten(&l.items, depth, &mut out);
    ok(atomic(out))
}

/// Appends `items` to `out`, splicing lists in while `depth` is positive.
fn flatten(items: &[Value], depth: i64, out: &mut Vec<Value>) {
    for v in items {
        match v {
            Value::List(inner) if depth > 0 => flatten(&inner.items, depth - 1, out),
            other => out.push(other.clone()),
        }
    }
}

/// `distinct()`: the first of each group of equal items, in order (the list itself when
/// empty).
fn distinct(l: &List) -> Value {
    if l.items.is_empty() {
        return Value::List(Arc::new(l.clone()));
    }
    let mut unique: Vec<Value> = Vec::with_capacity(l.items.len());
    for v in &l.items {
        if !unique.iter().any(|u| v.equals(u) == Some(true)) {
            unique.push(v.clone());
        }
    }
    atomic(unique)
}

/// `sort()` (`keys` is the list) and `@sortByAssociatedKeys(keys)`: the items in the order Go's
/// `sort.Slice` puts their keys in, with the extension's errors.
fn sort_by_keys(list: &List, keys: &List) -> Call {
    let (n, nk) = (list.items.len(), keys.items.len());
    if n != nk {
        return err(format!(
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got {n} and {nk} elements respectively"
        ));
    }
    let Some(first) = keys.items.first() else {
        return ok(Value::List(Arc::new(list.clone())));
    };
    if !comparable(first) {
        return err("list elements must be comparable");
    }
    let kind = discriminant(first);
    let mut mismatch = false;
    let mut less = |x: usize, y: usize| -> bool {
        let (Some(a), Some(b)) = (keys.items.get(x), keys.items.get(y)) else {
            return false;
        };
        if discriminant(a) != kind || discriminant(b) != kind {
            mismatch = true;
            return false;
        }
        compare(a, b) == Some(Ordering::Less)
    };
    let order = go_sort_slice(n, &mut less);
    if mismatch {
        return err("list elements must have the same type");
    }
    let sorted: Vec<Value> = order.iter().filter_map(|&i| list.items.get(i).cloned()).collect();
    ok(atomic(sorted))
}

/// The permutation Go's `sort.Slice` leaves a slice of `0..n` in when its `less` compares
/// the elements at two positions through `less` on the values they hold.
fn go_sort_slice(n: usize, less: &mut dyn FnMut(usize, usize) -> bool) -> Vec<usize> {
    let mut s = PdqSort {
        v: (0..n).collect(),
        less,
    };
    let len = isize::try_from(n).unwrap_or(isize::MAX);
    let limit = (usize::BITS - n.leading_zeros()) as isize;
    s.pdqsort(0, len, limit);
    s.v
}

/// The order pdqsort found for the middle of a range.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    /// No pattern.
    Unknown,
    /// Likely ascending.
    Increasing,
    /// Likely descending.
    Decreasing,
}

/// A port of Go's `pdqsort_func` (`sort/zsortfunc.go`) over a permutation: indexes are Go's
/// `int`s, and out-of-range accesses (which the algorithm never makes) compare false.
struct PdqSort<'a> {
    /// The permutation being sorted.
    v: Vec<usize>,
    /// `less` on the values (original positions).
    less: &'a mut dyn FnMut(usize, usize) -> bool,
}

impl PdqSort<'_> {
    /// `data.Less(i, j)`.
    fn less(&mut self, i: isize, j: isize) -> bool {
        let get = |k: isize| usize::try_from(k).ok().and_then(|k| self.v.get(k).copied());
        match (get(i), get(j)) {
            (Some(a), Some(b)) => (self.less)(a, b),
            _ => false,
        }
    }

    /// `data.Swap(i, j)`.
    fn swap(&mut self, i: isize, j: isize) {
        if let (Ok(i), Ok(j)) = (usize::try_from(i), usize::try_from(j))
            && i < self.v.len()
            && j < self.v.len()
        {
            self.v.swap(i, j);
        }
    }

    /// `insertionSort_func`.
    fn insertion_sort(&mut self, a: isize, b: isize) {
        let mut i = a + 1;
        while i < b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
            i += 1;
        }
    }

    /// `siftDown_func`.
    fn sift_down(&mut self, lo: isize, hi: isize, first: isize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                break;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    /// `heapSort_func`.
    fn heap_sort(&mut self, a: isize, b: isize) {
        let first = a;
        let hi = b - a;
        let mut i = (hi - 1) / 2;
        while i >= 0 {
            self.sift_down(i, hi, first);
            i -= 1;
        }
        let mut i = hi - 1;
        while i >= 0 {
            self.swap(first, first + i);
            self.sift_down(0, i, first);
            i -= 1;
        }
    }

    /// `pdqsort_func`.
    fn pdqsort(&mut self, mut a: isize, mut b: isize, mut limit: isize) {
        const MAX_INSERTION: isize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == Hint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = Hint::Increasing;
            }
            if was_balanced && was_partitioned && hint == Hint::Increasing && self.partial_insertion_sort(a, b) {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                a = self.partition_equal(a, b, pivot);
                continue;
            }
            let (mid, already) = self.partition(a, b, pivot);
            was_partitioned = already;
            let (left, right) = (mid - a, b - mid);
            let threshold = length / 8;
            if left < right {
                was_balanced = left >= threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right >= threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    /// `partition_func`.
    fn partition(&mut self, a: isize, b: isize, pivot: isize) -> (isize, bool) {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        while i <= j && self.less(i, a) {
            i += 1;
        }
        while i <= j && !self.less(j, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j, a);
            return (j, true);
        }
        self.swap(i, j);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i, a) {
                i += 1;
            }
            while i <= j && !self.less(j, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        self.swap(j, a);
        (j, false)
    }

    /// `partitionEqual_func`.
    fn partition_equal(&mut self, a: isize, b: isize, pivot: isize) -> isize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a + 1, b - 1);
        loop {
            while i <= j && !self.less(a, i) {
                i += 1;
            }
            while i <= j && self.less(a, j) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
        i
    }

    /// `partialInsertionSort_func`.
    fn partial_insertion_sort(&mut self, a: isize, b: isize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: isize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    /// `breakPatterns_func`, with `sort`'s xorshift (13, 7, 17) seeded by the length.
    fn break_patterns(&mut self, a: isize, b: isize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1u64 << (u64::BITS - (length as u64).leading_zeros());
            let mut idx = a + (length / 4) * 2 - 1;
            while idx <= a + (length / 4) * 2 + 1 {
                random ^= random << 13;
                random ^= random >> 7;
                random ^= random << 17;
                let mut other = (random & (modulus - 1)) as isize;
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
                idx += 1;
            }
        }
    }

    /// `choosePivot_func`.
    fn choose_pivot(&mut self, a: isize, b: isize) -> (isize, Hint) {
        const SHORTEST_NINTHER: isize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0usize;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, Hint::Increasing),
            MAX_SWAPS => (j, Hint::Decreasing),
            _ => (j, Hint::Unknown),
        }
    }

    /// `order2_func`.
    fn order2(&mut self, a: isize, b: isize, swaps: &mut usize) -> (isize, isize) {
        if self.less(b, a) {
            *swaps += 1;
            return (b, a);
        }
        (a, b)
    }

    /// `median_func`.
    fn median(&mut self, a: isize, b: isize, c: isize, swaps: &mut usize) -> isize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, _c) = self.order2(b, c, swaps);
        let (_a, b) = self.order2(a, b, swaps);
        b
    }

    /// `reverseRange_func`.
    fn reverse_range(&mut self, a: isize, b: isize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

/// The size cel-go's cost trackers see: a list's length, a string's code points, 1 otherwise.
fn actual_size(v: &Value) -> u64 {
    match v {
        Value::List(l) => l.items.len() as u64,
        Value::Map(m) => m.entries.len() as u64,
        Value::String(s) => s.chars().count() as u64,
        Value::Bytes(b) => b.len() as u64,
        _ => 1,
    }
}

/// The extension's `trackAllocatingListCall`: `size × factor` plus the call and the list.
fn allocating(factor: f64, size: u64) -> u64 {
    ((size as f64 * factor) as u64).saturating_add(11)
}

/// The extension's `trackListSelfCompare`: quadratic in the list's size, a tenth more for
/// strings and bytes.
fn self_compare(l: &List) -> u64 {
    let n = l.items.len() as u64;
    let mut factor = 2.0;
    let Some(first) = l.items.first() else {
        return allocating(factor, 0);
    };
    if matches!(first, Value::String(_) | Value::Bytes(_)) {
        factor += 0.1;
    }
    allocating(factor, n.saturating_mul(n))
}

/// The runtime costs of the lists functions.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], result: &Value) -> Option<u64> {
    use Value as V;
    match (target, function, args) {
        (None, "lists.range", [V::Int(_)]) => Some(allocating(1.0, actual_size(result))),
        (Some(t @ V::List(_)), "isSorted" | "sum" | "min" | "max" | "indexOf" | "lastIndexOf", _) => {
            Some(super::strings::traversal_cost(t))
        }
        (Some(V::List(_)), "slice" | "reverse", _) => Some(allocating(1.0, actual_size(result))),
        (Some(t @ V::List(_)), "flatten", []) => Some(allocating(1.0, actual_size(t))),
        (Some(t @ V::List(_)), "flatten", [V::Int(d)]) => Some(allocating(*d as f64, actual_size(t))),
        (Some(V::List(l)), "distinct" | "sort", []) => Some(self_compare(l)),
        (Some(V::List(_)), "@sortByAssociatedKeys", [V::List(keys)]) => Some(self_compare(keys)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::ListKind;

    fn ints(v: &[i64]) -> Value {
        Value::list(v.iter().map(|&i| Value::Int(i)).collect())
    }

    fn strs(v: &[&str]) -> Value {
        Value::list(v.iter().map(|&s| Value::string(s)).collect())
    }

    fn run(target: Value, f: &str, args: &[Value]) -> Result<Value, EvalError> {
        call(f, Some(&target), args).expect("defined")
    }

    fn same(a: &Value, b: &Value) -> bool {
        a.equals(b) == Some(true) && a.type_name() == b.type_name()
    }

    fn assert_value(got: Result<Value, EvalError>, want: Value) {
        let got = got.expect("a value");
        assert!(same(&got, &want), "got {got:?}, want {want:?}");
    }

    fn assert_error(got: Result<Value, EvalError>, message: &str) {
        assert_eq!(got.expect_err("an error").message, message);
    }

    #[test]
    fn kubernetes_is_sorted() {
        assert_value(run(ints(&[1, 2, 3]), "isSorted", &[]), Value::Bool(true));
        assert_value(run(strs(&["a", "b", "b", "c"]), "isSorted", &[]), Value::Bool(true));
        let doubles = Value::list(vec![Value::Double(2.0), Value::Double(1.0)]);
        assert_value(run(doubles, "isSorted", &[]), Value::Bool(false));
        assert_value(run(ints(&[1]), "isSorted", &[]), Value::Bool(true));
        assert_value(run(ints(&[]), "isSorted", &[]), Value::Bool(true));
        assert_value(run(ints(&[3, 2, 1]), "isSorted", &[]), Value::Bool(false));
        let nested = Value::list(vec![ints(&[1])]);
        assert_error(run(nested, "isSorted", &[]), "no such overload");
    }

    #[test]
    fn kubernetes_sum() {
        assert_value(run(ints(&[1, 3]), "sum", &[]), Value::Int(4));
        let doubles = Value::list(vec![Value::Double(1.0), Value::Double(3.0)]);
        assert_value(run(doubles, "sum", &[]), Value::Double(4.0));
        let durations = Value::list(vec![Value::Duration(60_000_000_000), Value::Duration(1_000_000_000)]);
        assert_value(run(durations, "sum", &[]), Value::Duration(61_000_000_000));
        assert_value(run(ints(&[]), "sum", &[]), Value::Int(0));
        let uints = Value::list(vec![Value::Uint(1), Value::Uint(2)]);
        assert_value(run(uints, "sum", &[]), Value::Uint(3));
        assert_error(run(ints(&[i64::MAX, 1]), "sum", &[]), "integer overflow");
        let big = Value::list(vec![Value::Uint(u64::MAX), Value::Uint(1)]);
        assert_error(run(big, "sum", &[]), "unsigned integer overflow");
        assert_error(run(strs(&["a"]), "sum", &[]), "no such overload");
    }

    #[test]
    fn kubernetes_min_max() {
        assert_value(run(ints(&[1, 3]), "min", &[]), Value::Int(1));
        assert_value(run(ints(&[1, 3]), "max", &[]), Value::Int(3));
        assert_value(run(ints(&[1]), "min", &[]), Value::Int(1));
        assert_value(run(strs(&["b", "a", "c"]), "min", &[]), Value::string("a"));
        assert_value(run(strs(&["b", "a", "c"]), "max", &[]), Value::string("c"));
        assert_error(run(ints(&[]), "min", &[]), "min called on empty list");
        assert_error(run(ints(&[]), "max", &[]), "max called on empty list");
        // Numbers compare across types.
        let mixed = Value::list(vec![Value::Int(2), Value::Double(1.5), Value::Uint(3)]);
        assert_value(run(mixed.clone(), "min", &[]), Value::Double(1.5));
        assert_value(run(mixed, "max", &[]), Value::Uint(3));
    }

    #[test]
    fn kubernetes_index_of() {
        assert_value(run(ints(&[1, 2, 2, 3]), "indexOf", &[Value::Int(2)]), Value::Int(1));
        assert_value(
            run(strs(&["a", "b", "b", "c"]), "lastIndexOf", &[Value::string("b")]),
            Value::Int(2),
        );
        let d = Value::list(vec![Value::Double(1.0)]);
        assert_value(run(d, "indexOf", &[Value::Double(1.1)]), Value::Int(-1));
        assert_value(run(ints(&[]), "indexOf", &[Value::string("string")]), Value::Int(-1));
        assert_value(run(ints(&[1, 2]), "lastIndexOf", &[Value::Double(2.0)]), Value::Int(1));
        // Strings' indexOf is the strings library's.
        assert!(call("indexOf", Some(&Value::string("abc")), &[Value::string("b")]).is_none());
    }

    #[test]
    fn ext_range_reverse_slice() {
        assert_value(
            call("lists.range", None, &[Value::Int(4)]).unwrap(),
            ints(&[0, 1, 2, 3]),
        );
        assert_value(call("lists.range", None, &[Value::Int(0)]).unwrap(), ints(&[]));
        assert_value(call("lists.range", None, &[Value::Int(-3)]).unwrap(), ints(&[]));
        assert_value(run(ints(&[5, 1, 2, 3]), "reverse", &[]), ints(&[3, 2, 1, 5]));
        assert_value(run(ints(&[]), "reverse", &[]), ints(&[]));
        assert_value(
            run(strs(&["are", "you", "as", "bored", "as", "I", "am"]), "reverse", &[]),
            strs(&["am", "I", "as", "bored", "as", "you", "are"]),
        );
        let l = ints(&[1, 2, 3, 4]);
        let sl = |a: i64, b: i64| run(l.clone(), "slice", &[Value::Int(a), Value::Int(b)]);
        assert_value(sl(0, 4), ints(&[1, 2, 3, 4]));
        assert_value(sl(0, 0), ints(&[]));
        assert_value(sl(1, 1), ints(&[]));
        assert_value(sl(4, 4), ints(&[]));
        assert_value(sl(1, 3), ints(&[2, 3]));
        assert_error(
            sl(3, 0),
            "cannot slice(3, 0), start index must be less than or equal to end index",
        );
        assert_error(sl(0, 10), "cannot slice(0, 10), list is length 4");
        assert_error(sl(-5, 10), "cannot slice(-5, 10), negative indexes not supported");
        assert_error(sl(-5, -3), "cannot slice(-5, -3), negative indexes not supported");
    }

    #[test]
    fn ext_flatten() {
        let nested = Value::list(vec![Value::Int(1), Value::list(vec![Value::Int(2), ints(&[3, 4])])]);
        assert_value(
            run(nested.clone(), "flatten", &[]),
            Value::list(vec![Value::Int(1), Value::Int(2), ints(&[3, 4])]),
        );
        assert_value(run(nested.clone(), "flatten", &[Value::Int(2)]), ints(&[1, 2, 3, 4]));
        let empties = Value::list(vec![Value::Int(1), Value::Int(2), ints(&[]), ints(&[]), ints(&[3, 4])]);
        assert_value(run(empties, "flatten", &[]), ints(&[1, 2, 3, 4]));
        assert_value(run(ints(&[1, 2, 3, 4]), "flatten", &[]), ints(&[1, 2, 3, 4]));
        assert_error(run(nested, "flatten", &[Value::Int(-1)]), "level must be non-negative");
        assert_error(
            run(ints(&[]), "flatten", &[Value::Int(-1)]),
            "level must be non-negative",
        );
        assert_error(
            run(Value::map(vec![]), "flatten", &[]),
            "no such overload: map(dyn, dyn).flatten()",
        );
        assert_error(
            run(Value::map(vec![]), "flatten", &[Value::Int(0)]),
            "no such overload: map(dyn, dyn).flatten(int)",
        );
        assert_error(
            run(ints(&[]), "flatten", &[Value::string("1")]),
            "no such overload: list(dyn).flatten(string)",
        );
    }

    #[test]
    fn ext_sort() {
        assert_value(run(ints(&[]), "sort", &[]), ints(&[]));
        assert_value(run(ints(&[1]), "sort", &[]), ints(&[1]));
        assert_value(run(ints(&[4, 3, 2, 1]), "sort", &[]), ints(&[1, 2, 3, 4]));
        assert_value(
            run(strs(&["d", "a", "b", "c"]), "sort", &[]),
            strs(&["a", "b", "c", "d"]),
        );
        let mixed = Value::list(vec![
            Value::string("d"),
            Value::Int(3),
            Value::Int(2),
            Value::string("c"),
        ]);
        assert_error(run(mixed, "sort", &[]), "list elements must have the same type");
        let lists = Value::list(vec![ints(&[1, 2, 3])]);
        assert_error(run(lists, "sort", &[]), "list elements must be comparable");
        // Longer lists go through pdqsort's partitions.
        let long: Vec<i64> = (0..200).map(|i| (i * 7919) % 211).collect();
        let mut want = long.clone();
        want.sort_unstable();
        assert_value(run(ints(&long), "sort", &[]), ints(&want));
        let desc: Vec<i64> = (0..100).rev().collect();
        assert_value(run(ints(&desc), "sort", &[]), ints(&(0..100).collect::<Vec<_>>()));
    }

    #[test]
    fn ext_sort_by_keys() {
        let by = |l: Value, k: Value| run(l, "@sortByAssociatedKeys", &[k]);
        assert_value(by(ints(&[]), ints(&[])), ints(&[]));
        assert_value(by(strs(&["a"]), strs(&["a"])), strs(&["a"]));
        // [-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]
        assert_value(
            by(ints(&[-3, 1, -5, -2, 4]), ints(&[-9, -1, -25, -4, -16])),
            ints(&[-5, 4, -3, -2, 1]),
        );
        // lists.range(3).sortBy(e, -e) == [2, 1, 0]
        assert_value(by(ints(&[0, 1, 2]), ints(&[0, -1, -2])), ints(&[2, 1, 0]));
        // ["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e)
        assert_value(
            by(strs(&["a", "c", "b", "first"]), strs(&["a", "c", "b", ""])),
            strs(&["first", "a", "b", "c"]),
        );
        assert_error(
            by(ints(&[1, 2]), ints(&[1])),
            "@sortByAssociatedKeys() expected a list of the same size as the associated keys list, but got 2 and 1 elements respectively",
        );
    }

    #[test]
    fn go_sort_slice_is_not_stable_past_twelve() {
        // Go's sort.Slice on 12 equal keys after a greater one (a published trace of Go's
        // pdqsort): [{-1 x} {0 test} ... {11 test}] sorts to 5, 0, 1, 2, 3, 4, 6, ..., 11, -1.
        // (That trace's 14-item case went through breakPatterns with Go 1.21's xorshift
        // constants, 13/17/5; later Go's sort uses 13/7/17, as here.)
        let keys: Vec<&str> = std::iter::once("x").chain(std::iter::repeat_n("test", 12)).collect();
        let items: Vec<i64> = (-1..12).collect();
        let got = run(ints(&items), "@sortByAssociatedKeys", &[strs(&keys)]).unwrap();
        assert_value(Ok(got), ints(&[5, 0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, -1]));
        // Up to 12 items, insertion sort: stable.
        let keys: Vec<&str> = std::iter::once("x").chain(std::iter::repeat_n("test", 11)).collect();
        let items: Vec<i64> = (-1..11).collect();
        let got = run(ints(&items), "@sortByAssociatedKeys", &[strs(&keys)]).unwrap();
        assert_value(Ok(got), ints(&[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1]));
    }

    #[test]
    fn ext_distinct() {
        assert_value(run(ints(&[]), "distinct", &[]), ints(&[]));
        assert_value(run(ints(&[1]), "distinct", &[]), ints(&[1]));
        assert_value(
            run(ints(&[-2, 5, -2, 1, 1, 5, -2, 1]), "distinct", &[]),
            ints(&[-2, 5, 1]),
        );
        assert_value(
            run(strs(&["c", "a", "a", "b", "a", "b", "c", "c"]), "distinct", &[]),
            strs(&["c", "a", "b"]),
        );
        let mixed = Value::list(vec![
            Value::Int(1),
            Value::Double(2.0),
            Value::string("c"),
            Value::Int(3),
            Value::string("c"),
            Value::Int(1),
        ]);
        let want = Value::list(vec![
            Value::Int(1),
            Value::Double(2.0),
            Value::string("c"),
            Value::Int(3),
        ]);
        assert_value(run(mixed, "distinct", &[]), want);
        let close = Value::list(vec![Value::Int(1), Value::Double(1.0), Value::Int(2)]);
        assert_value(run(close, "distinct", &[]), ints(&[1, 2]));
        let nested = Value::list(vec![ints(&[1]), ints(&[1]), ints(&[2])]);
        assert_value(run(nested, "distinct", &[]), Value::list(vec![ints(&[1]), ints(&[2])]));
    }

    #[test]
    fn results_are_atomic_lists() {
        let set = Value::List(Arc::new(List {
            items: vec![Value::Int(2), Value::Int(1)],
            kind: ListKind::Set,
        }));
        let Ok(Value::List(l)) = run(set, "sort", &[]) else {
            panic!("a list")
        };
        assert_eq!(l.kind, ListKind::Atomic);
    }

    #[test]
    fn costs() {
        let c = |t: Option<&Value>, f: &str, args: &[Value]| {
            let r = call(f, t, args).unwrap().unwrap();
            cost(f, t, args, &r).unwrap()
        };
        // cel-go's lists_test: the calls' shares of the expressions' costs.
        assert_eq!(c(None, "lists.range", &[Value::Int(4)]), 15);
        assert_eq!(c(None, "lists.range", &[Value::Int(2)]), 13);
        let nested = Value::list(vec![ints(&[1, 2]), Value::Int(3)]);
        assert_eq!(c(Some(&nested), "flatten", &[Value::Int(1)]), 13);
        assert_eq!(c(Some(&nested), "flatten", &[Value::Int(2)]), 15);
        assert_eq!(c(Some(&nested), "flatten", &[Value::Int(3)]), 17);
        assert_eq!(c(Some(&ints(&[1, 2, 3])), "distinct", &[]), 29);
        assert_eq!(c(Some(&strs(&["hello", "hello"])), "distinct", &[]), 19);
        assert_eq!(c(Some(&ints(&[1, 2, 3])), "slice", &[Value::Int(1), Value::Int(3)]), 13);
        assert_eq!(c(Some(&ints(&[3, 2, 1])), "reverse", &[]), 14);
        assert_eq!(c(Some(&ints(&[2, 3, 1])), "sort", &[]), 29);
        assert_eq!(c(Some(&strs(&["b", "a", "b", "a", "c", "c"])), "sort", &[]), 86);
        assert_eq!(c(Some(&ints(&[])), "sort", &[]), 11);
        // Kubernetes' functions: one traversal.
        assert_eq!(c(Some(&ints(&[1, 2, 3])), "sum", &[]), 3);
        assert_eq!(c(Some(&strs(&["abcdefghijkl", "x"])), "max", &[]), 1);
    }
}
