//! Character classes as flat lists of inclusive `lo, hi` pairs, built the
//! way Go's parser builds them.
//!
//! The exact (uncleaned) shape of a list matters: Go counts the runes of
//! every class it pushes against its rune budget and turns one- and two-rune
//! classes into literals, so the append and merge rules follow Go's
//! step by step rather than any set semantics.

use super::unicode::{folding_runes, simple_fold};

/// The largest Unicode code point.
pub(super) const MAX_RUNE: i32 = 0x10FFFF;
/// The smallest code point that case folding touches.
pub(super) const MIN_FOLD: i32 = 0x0041;
/// The largest code point that case folding touches.
pub(super) const MAX_FOLD: i32 = 0x1E943;

/// Appends `lo..=hi`, widening the last or next-to-last pair when they
/// overlap or touch (two pairs, so that folded alphabets grow in place).
pub(super) fn append_range(r: &mut Vec<i32>, lo: i32, hi: i32) {
    let n = r.len();
    for i in [2, 4] {
        if n >= i {
            let (rlo, rhi) = (r[n - i], r[n - i + 1]);
            if lo <= rhi + 1 && rlo <= hi + 1 {
                if lo < rlo {
                    r[n - i] = lo;
                }
                if hi > rhi {
                    r[n - i + 1] = hi;
                }
                return;
            }
        }
    }
    r.push(lo);
    r.push(hi);
}

/// Appends `lo..=hi` together with everything case folding maps into it.
pub(super) fn append_folded_range(r: &mut Vec<i32>, mut lo: i32, mut hi: i32) {
    if lo <= MIN_FOLD && hi >= MAX_FOLD {
        // Covers every folding code point already.
        append_range(r, lo, hi);
        return;
    }
    if hi < MIN_FOLD || lo > MAX_FOLD {
        // Nothing in range folds.
        append_range(r, lo, hi);
        return;
    }
    if lo < MIN_FOLD {
        append_range(r, lo, MIN_FOLD - 1);
        lo = MIN_FOLD;
    }
    if hi > MAX_FOLD {
        append_range(r, MAX_FOLD + 1, hi);
        hi = MAX_FOLD;
    }
    // One code point at a time, as Go does: the order of appends decides
    // which pairs merge on the fly.
    for c in lo..=hi {
        append_range(r, c, c);
        let mut f = simple_fold(c);
        while f != c {
            append_range(r, f, f);
            f = simple_fold(f);
        }
    }
}

/// Appends the same set as [`append_folded_range`], but visits only the
/// code points that fold instead of every code point in the range.
///
/// The pairs come out in a different order, so this is only for lists that
/// are cleaned before anything reads them (bracketed classes and named
/// groups); it keeps a wide `(?i)[\x{41}-\x{1E942}]` from costing a loop
/// over 125,000 code points.
pub(super) fn append_folded_range_unordered(r: &mut Vec<i32>, lo: i32, hi: i32) {
    append_range(r, lo, hi);
    let (lo, hi) = (lo.max(MIN_FOLD), hi.min(MAX_FOLD));
    if lo > hi {
        return;
    }
    for c in folding_runes(lo, hi) {
        let mut f = simple_fold(c);
        while f != c {
            if !(lo..=hi).contains(&f) {
                append_range(r, f, f);
            }
            f = simple_fold(f);
        }
    }
}

/// Appends one rune, folded when `fold` is set.
pub(super) fn append_literal(r: &mut Vec<i32>, x: i32, fold: bool) {
    if fold {
        append_folded_range(r, x, x);
    } else {
        append_range(r, x, x);
    }
}

/// Appends every pair of `x`.
pub(super) fn append_class(r: &mut Vec<i32>, x: &[i32]) {
    for p in x.chunks_exact(2) {
        append_range(r, p[0], p[1]);
    }
}

/// Appends every pair of `x` with its case-folding images, in no
/// particular order (the caller cleans the result).
pub(super) fn append_folded_class(r: &mut Vec<i32>, x: &[i32]) {
    for p in x.chunks_exact(2) {
        append_folded_range_unordered(r, p[0], p[1]);
    }
}

/// Appends the complement of the clean class `x`.
pub(super) fn append_negated_class(r: &mut Vec<i32>, x: &[i32]) {
    let mut next_lo = 0;
    for p in x.chunks_exact(2) {
        if next_lo < p[0] {
            append_range(r, next_lo, p[0] - 1);
        }
        next_lo = p[1] + 1;
    }
    if next_lo <= MAX_RUNE {
        append_range(r, next_lo, MAX_RUNE);
    }
}

/// Appends a clean class. Onto an empty list that is a plain copy, since
/// the pairs of a clean class never touch.
pub(super) fn append_clean_class(r: &mut Vec<i32>, x: &[i32]) {
    if r.is_empty() {
        r.extend_from_slice(x);
    } else {
        append_class(r, x);
    }
}

/// Appends a Unicode table stored as merged `u32` pairs.
pub(super) fn append_table(r: &mut Vec<i32>, x: &[u32]) {
    if r.is_empty() {
        // Merged pairs never touch, so nothing would merge: copy.
        r.extend(x.iter().map(|&v| to_rune(v)));
        return;
    }
    for p in x.chunks_exact(2) {
        append_range(r, to_rune(p[0]), to_rune(p[1]));
    }
}

/// Appends the complement of a Unicode table stored as merged `u32` pairs.
pub(super) fn append_negated_table(r: &mut Vec<i32>, x: &[u32]) {
    let mut next_lo = 0;
    for p in x.chunks_exact(2) {
        let (lo, hi) = (to_rune(p[0]), to_rune(p[1]));
        if next_lo < lo {
            append_range(r, next_lo, lo - 1);
        }
        next_lo = hi + 1;
    }
    if next_lo <= MAX_RUNE {
        append_range(r, next_lo, MAX_RUNE);
    }
}

fn to_rune(v: u32) -> i32 {
    // Table entries are code points, so they always fit.
    i32::try_from(v).unwrap_or(MAX_RUNE)
}

/// Replaces the clean class `r` by its complement.
pub(super) fn negate_class(r: &mut Vec<i32>) {
    let mut next_lo = 0;
    let mut w = 0;
    let mut i = 0;
    while i + 1 < r.len() {
        let (lo, hi) = (r[i], r[i + 1]);
        if next_lo < lo {
            r[w] = next_lo;
            r[w + 1] = lo - 1;
            w += 2;
        }
        next_lo = hi + 1;
        i += 2;
    }
    r.truncate(w);
    if next_lo <= MAX_RUNE {
        r.push(next_lo);
        r.push(MAX_RUNE);
    }
}

/// Sorts the pairs (by low end, longer first on ties) and merges those
/// that overlap or touch.
pub(super) fn clean_class(r: &mut Vec<i32>) {
    let (pairs, _) = r.as_chunks_mut::<2>();
    pairs.sort_unstable_by(|a, b| a[0].cmp(&b[0]).then(b[1].cmp(&a[1])));
    if r.len() < 2 {
        return;
    }
    let mut w = 2;
    let mut i = 2;
    while i + 1 < r.len() {
        let (lo, hi) = (r[i], r[i + 1]);
        if lo <= r[w - 1] + 1 {
            if hi > r[w - 1] {
                r[w - 1] = hi;
            }
        } else {
            r[w] = lo;
            r[w + 1] = hi;
            w += 2;
        }
        i += 2;
    }
    r.truncate(w);
}

/// The smallest rune that case folding makes equivalent to `r`.
pub(super) fn min_fold_rune(r: i32) -> i32 {
    if !(MIN_FOLD..=MAX_FOLD).contains(&r) {
        return r;
    }
    let mut m = r;
    let mut f = simple_fold(r);
    while f != r {
        m = m.min(f);
        f = simple_fold(f);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_range_merges_with_last_two() {
        let mut r = vec![];
        append_range(&mut r, b'a'.into(), b'c'.into());
        append_range(&mut r, b'A'.into(), b'C'.into());
        append_range(&mut r, b'd'.into(), b'd'.into());
        append_range(&mut r, b'D'.into(), b'D'.into());
        assert_eq!(r, vec![97, 100, 65, 68]);
    }

    #[test]
    fn clean_and_negate() {
        let mut r = vec![10, 20, 5, 7, 8, 9, 30, 30, 0, 0];
        clean_class(&mut r);
        assert_eq!(r, vec![0, 0, 5, 20, 30, 30]);
        negate_class(&mut r);
        assert_eq!(r, vec![1, 4, 21, 29, 31, MAX_RUNE]);
        let mut all = vec![0, MAX_RUNE];
        negate_class(&mut all);
        assert!(all.is_empty());
    }

    #[test]
    fn unordered_folding_gives_the_same_set() {
        let ranges = [
            (0, 0x10FFFF),
            (0x41, 0x5A),
            (0x20, 0x7F),
            (0x100, 0x2000),
            (0x212A, 0x212A),
            (0x1E900, 0x1E950),
            (0x10000, 0x10FFFF),
            (0x60, 0x60),
        ];
        for (lo, hi) in ranges {
            let mut exact = vec![];
            append_folded_range(&mut exact, lo, hi);
            clean_class(&mut exact);
            let mut fast = vec![];
            append_folded_range_unordered(&mut fast, lo, hi);
            clean_class(&mut fast);
            assert_eq!(exact, fast, "{lo:#x}-{hi:#x}");
        }
    }

    #[test]
    fn folding() {
        let mut r = vec![];
        append_folded_range(&mut r, i32::from(b'k'), i32::from(b'k'));
        clean_class(&mut r);
        // k, K and the Kelvin sign.
        assert_eq!(r, vec![0x4B, 0x4B, 0x6B, 0x6B, 0x212A, 0x212A]);
        assert_eq!(min_fold_rune(0x212A), 0x4B);
        assert_eq!(min_fold_rune(0x10FFFF), 0x10FFFF);
    }
}
