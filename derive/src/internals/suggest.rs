//! "Did you mean ...?" for misspelt names.

/// The closest of `candidates` to `s` (at most 2 edits away; the first of the closest).
pub fn did_you_mean<'a>(s: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (distance(s, c), *c))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// Levenshtein distance, in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let names = ["minimum", "maximum", "min_length"];
        assert_eq!(did_you_mean("minimun", &names), Some("minimum"));
        assert_eq!(did_you_mean("min_lenght", &names), Some("min_length"));
        assert_eq!(did_you_mean("zzz", &names), None);
    }
}
