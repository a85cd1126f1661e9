//! "Did you mean ...?" for a misspelt name: the closest of the names there are, by edit
//! distance. A `const fn`, so that `#[derive(CustomResourceSchema)]`'s compile-time checks
//! (evaluated by rustc) and the same checks at run time suggest the same name.
//!
//! ```
//! use kstruct_schema::suggest::did_you_mean;
//! assert_eq!(did_you_mean("minimun", &["maximum", "minimum"]), Some("minimum"));
//! assert_eq!(did_you_mean("colour", &["size"]), None);
//! ```

/// Longest name compared, in bytes (longer names get no suggestion).
const MAX_COMPARED: usize = 64;

/// The closest of `names` to `s`, if at most 2 edits away (the first of the closest).
/// Distances count bytes, which for the ASCII names of schemas and attributes are characters.
pub const fn did_you_mean<'a>(s: &str, names: &[&'a str]) -> Option<&'a str> {
    let mut best: Option<&'a str> = None;
    let mut best_distance = 3;
    let mut i = 0;
    while i < names.len() {
        let d = distance(s.as_bytes(), names[i].as_bytes());
        if d < best_distance {
            best_distance = d;
            best = Some(names[i]);
        }
        i += 1;
    }
    best
}

/// Levenshtein distance of two byte strings (`usize::MAX` beyond [`MAX_COMPARED`] bytes).
const fn distance(a: &[u8], b: &[u8]) -> usize {
    if a.len() > MAX_COMPARED || b.len() > MAX_COMPARED {
        return usize::MAX;
    }
    let mut row = [0usize; MAX_COMPARED + 1];
    let mut j = 0;
    while j <= b.len() {
        row[j] = j;
        j += 1;
    }
    let mut i = 0;
    while i < a.len() {
        let mut previous = row[0];
        row[0] = i + 1;
        let mut j = 0;
        while j < b.len() {
            let current = row[j + 1];
            let mut best = previous + if a[i] == b[j] { 0 } else { 1 };
            if row[j] + 1 < best {
                best = row[j] + 1;
            }
            if current + 1 < best {
                best = current + 1;
            }
            row[j + 1] = best;
            previous = current;
            j += 1;
        }
        i += 1;
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_within_two_edits() {
        assert_eq!(did_you_mean("nme", &["name", "role"]), Some("name"));
        assert_eq!(
            did_you_mean("min_lenght", &["max_length", "min_length"]),
            Some("min_length")
        );
        assert_eq!(did_you_mean("zzzzz", &["name"]), None);
        assert_eq!(did_you_mean("ab", &["ac", "ab"]), Some("ab"));
        assert_eq!(did_you_mean(&"x".repeat(65), &["x"]), None);
        const CHOSEN: Option<&str> = did_you_mean("phse", &["phase", "ready"]);
        assert_eq!(CHOSEN, Some("phase"));
    }
}
