//! Lookups into the Unicode data: `\p{...}` names and simple case folding.

use super::class::MAX_RUNE;
use super::tables::{CATEGORIES, CATEGORY_ALIASES, SCRIPT_ALIASES, SCRIPTS, SIMPLE_FOLD, Table};

/// The next rune in `r`'s simple case-folding orbit (`unicode.SimpleFold`).
pub(super) fn simple_fold(r: i32) -> i32 {
    if !(0..=MAX_RUNE).contains(&r) {
        return r;
    }
    let key = r.unsigned_abs();
    match SIMPLE_FOLD.binary_search_by_key(&key, |&(k, _)| k) {
        Ok(i) => SIMPLE_FOLD
            .get(i)
            .and_then(|&(_, v)| i32::try_from(v).ok())
            .unwrap_or(r),
        Err(_) => r,
    }
}

/// The code points in `lo..=hi` that simple case folding moves.
pub(super) fn folding_runes(lo: i32, hi: i32) -> impl Iterator<Item = i32> {
    let start = SIMPLE_FOLD.partition_point(|&(k, _)| i64::from(k) < i64::from(lo));
    SIMPLE_FOLD
        .get(start..)
        .unwrap_or_default()
        .iter()
        .map(|&(k, _)| i32::try_from(k).unwrap_or(MAX_RUNE))
        .take_while(move |&k| k <= hi)
}

/// What a `\p` name resolves to: the set, the extra code points `(?i)`
/// adds (when Go has such a table), and whether the set is to be inverted.
pub(super) struct UnicodeClass {
    /// Merged `lo, hi` pairs.
    pub(super) table: &'static [u32],
    /// Merged `lo, hi` pairs of the fold table, if any.
    pub(super) fold: Option<&'static [u32]>,
    /// Whether the named class is the complement of `table`.
    pub(super) negated: bool,
}

const ANY: &[u32] = &[0, 0x10FFFF];
const ASCII: &[u32] = &[0, 0x7F];
// ASCII plus the long s and the Kelvin sign, which fold into it.
const ASCII_FOLD: &[u32] = &[0, 0x7F, 0x17F, 0x17F, 0x212A, 0x212A];

/// Go's canonical spelling of a class name: separators (`_`, `-`, space)
/// dropped, the first remaining byte upper-cased and the rest lower-cased
/// (ASCII only), so `\p{greek}` and `\p{Old-Italic}` resolve.
fn canonical_name(name: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len());
    let mut first = true;
    for &c in name {
        if matches!(c, b'_' | b'-' | b' ') {
            continue;
        }
        if first {
            first = false;
            out.push(c.to_ascii_uppercase());
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
    out
}

fn find_table(tables: &'static [Table], name: &[u8]) -> Option<&'static Table> {
    tables
        .binary_search_by(|t| t.name.as_bytes().cmp(name))
        .ok()
        .and_then(|i| tables.get(i))
}

fn find_alias(aliases: &'static [(&'static str, &'static str)], key: &[u8]) -> Option<&'static str> {
    aliases
        .binary_search_by(|(k, _)| k.as_bytes().cmp(key))
        .ok()
        .and_then(|i| aliases.get(i))
        .map(|&(_, v)| v)
}

fn from_table(t: &'static Table) -> UnicodeClass {
    UnicodeClass {
        table: t.ranges,
        fold: t.fold,
        negated: false,
    }
}

/// Resolves a `\p` name (without any leading `^`) the way Go 1.27 does:
/// special names first, then categories, scripts, category aliases such as
/// `Letter`, and finally scripts spelled loosely.
pub(super) fn unicode_class(name: &[u8]) -> Option<UnicodeClass> {
    let name = canonical_name(name);
    match name.as_slice() {
        b"Any" => {
            return Some(UnicodeClass {
                table: ANY,
                fold: Some(ANY),
                negated: false,
            });
        }
        b"Assigned" => {
            // Everything but the unassigned code points.
            let cn = find_table(CATEGORIES, b"Cn")?;
            return Some(UnicodeClass {
                table: cn.ranges,
                fold: Some(cn.ranges),
                negated: true,
            });
        }
        b"Ascii" => {
            return Some(UnicodeClass {
                table: ASCII,
                fold: Some(ASCII_FOLD),
                negated: false,
            });
        }
        // The one category key that is not in canonical form.
        b"Lc" => return find_table(CATEGORIES, b"LC").map(from_table),
        _ => {}
    }
    if let Some(t) = find_table(CATEGORIES, &name) {
        return Some(from_table(t));
    }
    if let Some(t) = find_table(SCRIPTS, &name) {
        return Some(from_table(t));
    }
    if let Some(actual) = find_alias(CATEGORY_ALIASES, &name) {
        return find_table(CATEGORIES, actual.as_bytes()).map(from_table);
    }
    if let Some(actual) = find_alias(SCRIPT_ALIASES, &name) {
        return find_table(SCRIPTS, actual.as_bytes()).map(from_table);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::tables::UNICODE_VERSION;
    use super::*;

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert_eq!(UNICODE_VERSION, "17.0.0");
        for tables in [CATEGORIES, SCRIPTS] {
            assert!(tables.windows(2).all(|w| w[0].name < w[1].name));
        }
        for aliases in [CATEGORY_ALIASES, SCRIPT_ALIASES] {
            assert!(aliases.windows(2).all(|w| w[0].0 < w[1].0));
        }
        assert!(SIMPLE_FOLD.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn names_resolve_like_go() {
        for ok in [
            "L",
            "Lu",
            "lu",
            "LC",
            "lc",
            "Greek",
            "greek",
            "GREEK",
            "Old_Italic",
            "olditalic",
            "Old-Italic",
            "Letter",
            "letter",
            "Cased_Letter",
            "cntrl",
            "Any",
            "ASCII",
            "Assigned",
            "Cn",
            "Zs",
            "Han",
            "Latin",
        ] {
            assert!(unicode_class(ok.as_bytes()).is_some(), "{ok}");
        }
        for bad in ["", "Foo", "L&", "IsGreek", "InGreek", "Greek ", "^L"] {
            // A trailing space is dropped by canonicalisation, so "Greek " does resolve.
            let expect = bad == "Greek ";
            assert_eq!(unicode_class(bad.as_bytes()).is_some(), expect, "{bad}");
        }
    }

    #[test]
    fn simple_fold_orbits() {
        assert_eq!(simple_fold('A' as i32), 'a' as i32);
        assert_eq!(simple_fold('a' as i32), 'A' as i32);
        assert_eq!(simple_fold('K' as i32), 'k' as i32);
        assert_eq!(simple_fold('k' as i32), 0x212A);
        assert_eq!(simple_fold(0x212A), 'K' as i32);
        assert_eq!(simple_fold('1' as i32), '1' as i32);
        assert_eq!(simple_fold(-1), -1);
    }
}
