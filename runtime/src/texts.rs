//! Layer 1: [`TextList`]: the strings a decode reports (warnings, field paths), kept in one buffer.

use std::fmt;
use std::ops::Index;

/// A list of strings held in one buffer: what a decode reports (warnings, unknown and
/// duplicate field paths).
///
/// A report under fieldValidation `Warn` can name a path for every unknown field of a
/// document, and a `String` each would cost an allocation to make and one to free per field:
/// as much as the walk of the field itself. A `TextList` costs two allocations however long
/// it grows, and reads like a slice of `&str`: it indexes, iterates, compares with arrays and
/// vectors of strings, and serializes as a JSON array.
///
/// ```
/// use kstruct::decode::TextList;
///
/// let mut paths: TextList = ["spec.b", "spec.a"].into_iter().collect();
/// paths.push("spec.c");
/// paths.sort();
/// assert_eq!(paths, ["spec.a", "spec.b", "spec.c"]);
/// assert_eq!(&paths[1], "spec.b");
/// assert_eq!(paths.iter().map(str::len).sum::<usize>(), 18);
/// let owned: Vec<String> = paths.into();
/// assert_eq!(owned, ["spec.a", "spec.b", "spec.c"]);
/// ```
#[derive(Clone, Default)]
pub struct TextList {
    text: String,
    /// Where each string is in `text`: `(start, end)`, in list order.
    spans: Vec<(usize, usize)>,
}

impl TextList {
    /// An empty list (allocates nothing).
    pub const fn new() -> TextList {
        TextList {
            text: String::new(),
            spans: Vec::new(),
        }
    }

    /// An empty list with room for `strings` strings of `bytes` bytes in all.
    pub fn with_capacity(strings: usize, bytes: usize) -> TextList {
        TextList {
            text: String::with_capacity(bytes),
            spans: Vec::with_capacity(strings),
        }
    }

    /// The list of the strings at `spans` of `text`; `None` if `text` is not UTF-8 or a span
    /// is not a range of whole characters in it.
    pub(crate) fn from_utf8_spans(text: Vec<u8>, spans: Vec<(usize, usize)>) -> Option<TextList> {
        let text = String::from_utf8(text).ok()?;
        spans
            .iter()
            .all(|&(start, end)| start <= end && text.is_char_boundary(start) && text.is_char_boundary(end))
            .then_some(TextList { text, spans })
    }

    /// How many strings the list holds.
    pub fn len(&self) -> usize {
        self.spans.len()
    }

    /// The strings' length in bytes, all together.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Whether the list holds no string.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Appends `s`.
    pub fn push(&mut self, s: &str) {
        self.push_concat(&[s]);
    }

    /// Appends the concatenation of `parts` as one string (`["unknown field \"", path, "\""]`).
    /// Inlined: constant parts are then copied without a call.
    #[inline]
    pub fn push_concat(&mut self, parts: &[&str]) {
        if self.spans.capacity() == 0 {
            // A report that names one field usually names several: grow once, not eight
            // times, for the first few hundred bytes.
            self.spans.reserve(8);
            self.text.reserve(256);
        }
        let start = self.text.len();
        for p in parts {
            self.text.push_str(p);
        }
        self.spans.push((start, self.text.len()));
    }

    /// The list's text and where each string is in it, for loops that read many strings
    /// (no iterator or boundary check per string).
    pub(crate) fn parts(&self) -> (&str, &[(usize, usize)]) {
        (&self.text, &self.spans)
    }

    /// Appends `prefix`, `s` and `suffix` as one string, in a list made with room for it.
    #[inline(always)]
    pub(crate) fn push_wrapped(&mut self, prefix: &str, s: &str, suffix: &str) {
        let start = self.text.len();
        self.text.push_str(prefix);
        self.text.push_str(s);
        self.text.push_str(suffix);
        self.spans.push((start, self.text.len()));
    }

    /// The `i`th string, if there is one.
    pub fn get(&self, i: usize) -> Option<&str> {
        self.spans.get(i).map(|&(start, end)| &self.text[start..end])
    }

    /// The strings, in order.
    pub fn iter(&self) -> TextIter<'_> {
        TextIter {
            text: &self.text,
            spans: self.spans.iter(),
        }
    }

    /// Whether the list holds `s`.
    pub fn contains(&self, s: &str) -> bool {
        self.iter().any(|t| t == s)
    }

    /// The strings joined by `separator`, as [`slice::join`] joins them.
    pub fn join(&self, separator: &str) -> String {
        let mut out = String::with_capacity(self.text.len() + separator.len() * self.len());
        for (i, s) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(separator);
            }
            out.push_str(s);
        }
        out
    }

    /// Sorts the strings in byte order. Only the spans move; the text stays where it is (and
    /// equal strings cannot be told apart, so no stable sort is needed).
    pub fn sort(&mut self) {
        sort_spans(self.text.as_bytes(), &mut self.spans, &mut Vec::new());
    }

    /// [`binary_search`](Self::binary_search) among the strings from the `from`th on (sorted
    /// in byte order); an index into the whole list.
    pub(crate) fn binary_search_from(&self, from: usize, s: &str) -> Result<usize, usize> {
        let text = self.text.as_bytes();
        let from = from.min(self.spans.len());
        self.spans[from..]
            .binary_search_by(|&(start, end)| compare(&text[start..end], s.as_bytes()))
            .map(|i| i + from)
            .map_err(|i| i + from)
    }

    /// Where `s` is in a list sorted in byte order, as [`slice::binary_search`] says.
    pub fn binary_search(&self, s: &str) -> Result<usize, usize> {
        self.binary_search_from(0, s)
    }

    /// Appends every string of `other`.
    pub fn append(&mut self, other: &TextList) {
        let shift = self.text.len();
        self.text.push_str(&other.text);
        self.spans
            .extend(other.spans.iter().map(|&(s, e)| (s + shift, e + shift)));
    }

    /// Empties the list, keeping its buffers for reuse.
    pub fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
    }

    /// The strings as owned `String`s.
    pub fn to_vec(&self) -> Vec<String> {
        self.iter().map(str::to_owned).collect()
    }
}

/// Sorts `spans` (ranges of `text`) by their bytes. They are sorted as `(word, index)`
/// numbers in `order` (a buffer), which costs less than comparing them: by their first twelve
/// bytes, then those alike so far by their next twelve, and so on (paths share long
/// beginnings, `spec.template.spec.`).
pub(crate) fn sort_spans(text: &[u8], spans: &mut [(usize, usize)], order: &mut Vec<u128>) {
    if spans.len() < 2 {
        return;
    }
    if spans.len() <= SHORT {
        sort_short(text, spans);
        return;
    }
    if spans.len() > u32::MAX as usize {
        // More than `sort_from`'s numbers have room to index.
        spans.sort_unstable_by(|&(a, b), &(c, d)| compare(&text[a..b], &text[c..d]));
        return;
    }
    order.clear();
    order.extend(0..spans.len() as u128);
    sort_from(text, spans, order, 0);
    // The spans in their new order, through `order`: no other buffer is needed.
    for o in order.iter_mut() {
        let (start, end) = spans[index(*o)];
        *o = ((start as u128) << 64) | end as u128;
    }
    for (span, &o) in spans.iter_mut().zip(order.iter()) {
        *span = ((o >> 64) as usize, o as u64 as usize);
    }
}

/// The most spans [`sort_short`] sorts.
const SHORT: usize = 24;

/// [`sort_spans`] for a few spans (most documents report a few unknown fields): by an
/// insertion sort of their first sixteen bytes as numbers, and of the rest where those are
/// alike, without a buffer.
fn sort_short(text: &[u8], spans: &mut [(usize, usize)]) {
    let mut keys = [(0u128, 0usize, 0usize); SHORT];
    for (k, &(start, end)) in keys.iter_mut().zip(spans.iter()) {
        let s = &text[start..end];
        *k = (word16(s), start, end);
    }
    let keys = &mut keys[..spans.len()];
    let rest = |&(_, start, end): &(u128, usize, usize)| &text[(start + 16).min(end)..end];
    // Alike in a word read past their ends as zeros, a shorter one is the longer one's
    // beginning, and comes first.
    let less = |a: &(u128, usize, usize), b: &(u128, usize, usize)| {
        a.0 < b.0 || a.0 == b.0 && compare(rest(a), rest(b)).then((a.2 - a.1).cmp(&(b.2 - b.1))).is_lt()
    };
    for i in 1..keys.len() {
        let k = keys[i];
        let mut j = i;
        while j > 0 && less(&k, &keys[j - 1]) {
            keys[j] = keys[j - 1];
            j -= 1;
        }
        keys[j] = k;
    }
    for (span, &(_, start, end)) in spans.iter_mut().zip(keys.iter()) {
        *span = (start, end);
    }
}

/// The first sixteen bytes of `s`, zero-padded, as a big-endian number: a longer span alike
/// in them to a shorter one only adds bytes to it, and the rest orders them.
#[inline]
fn word16(s: &[u8]) -> u128 {
    use crate::text::head_of;
    let rest = s.get(8..).map_or(0, head_of);
    (u128::from(head_of(s)) << 64) | u128::from(rest)
}

/// The bytes of a word in [`sort_from`]'s numbers, above the index.
const WORD: usize = 12;

/// The span index in one of [`sort_from`]'s numbers.
#[inline]
fn index(o: u128) -> usize {
    (o as u32) as usize
}

/// Sorts `order` (span indices in its low 32 bits) by the spans' bytes from `offset` on: all
/// of them are alike before it.
fn sort_from(text: &[u8], spans: &[(usize, usize)], order: &mut [u128], offset: usize) {
    // Past this, what is left is compared as it is (strings can be long: no deep recursion).
    const MAX_OFFSET: usize = 72;
    let at = |o: u128, offset: usize| {
        let (start, end) = spans[index(o)];
        &text[(start + offset).min(end)..end]
    };
    if offset >= MAX_OFFSET {
        order.sort_unstable_by(|&a, &b| compare(at(a, offset), at(b, offset)));
        return;
    }
    for o in order.iter_mut() {
        *o = word(at(*o, offset)) | index(*o) as u128;
    }
    // Paths come in runs already in order (a list's first ten elements, an object's members
    // in the body's order): a sort that merges runs compares less than one that partitions.
    order.sort();
    for alike in order.chunk_by_mut(|a, b| a >> 32 == b >> 32) {
        if alike.len() < 2 {
            continue;
        }
        if alike.iter().any(|&o| at(o, offset).len() > WORD) {
            sort_from(text, spans, alike, offset + WORD);
        } else {
            // Alike in a word read past their ends as zeros: a longer one only adds zero
            // bytes to a shorter one, and comes after it.
            alike.sort_unstable_by_key(|&o| at(o, offset).len());
        }
    }
}

/// The first twelve bytes of `s`, zero-padded, as a big-endian number in the top 96 bits.
#[inline]
fn word(s: &[u8]) -> u128 {
    word16(s) & !u128::from(u32::MAX)
}

/// `a.cmp(b)`, eight bytes at a time: paths share long prefixes, and comparing them by
/// `memcmp` spent more on calling it than on comparing.
#[inline]
fn compare(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let mut x = a.chunks_exact(8);
    let mut y = b.chunks_exact(8);
    for (p, q) in (&mut x).zip(&mut y) {
        let p = u64::from_be_bytes([p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]]);
        let q = u64::from_be_bytes([q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]]);
        if p != q {
            return p.cmp(&q);
        }
    }
    let done = a.len().min(b.len()) / 8 * 8;
    a[done..].cmp(&b[done..])
}

/// An iterator over a [`TextList`]'s strings.
#[derive(Debug, Clone)]
pub struct TextIter<'a> {
    text: &'a str,
    spans: std::slice::Iter<'a, (usize, usize)>,
}

impl<'a> Iterator for TextIter<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        self.spans.next().map(|&(start, end)| &self.text[start..end])
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.spans.size_hint()
    }
}

impl DoubleEndedIterator for TextIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.spans.next_back().map(|&(start, end)| &self.text[start..end])
    }
}

impl ExactSizeIterator for TextIter<'_> {}

impl<'a> IntoIterator for &'a TextList {
    type Item = &'a str;
    type IntoIter = TextIter<'a>;

    fn into_iter(self) -> TextIter<'a> {
        self.iter()
    }
}

impl Index<usize> for TextList {
    type Output = str;

    /// # Panics
    /// When `i` is out of bounds, as a slice's index does.
    fn index(&self, i: usize) -> &str {
        let (start, end) = self.spans[i];
        &self.text[start..end]
    }
}

impl fmt::Debug for TextList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for TextList {
    fn eq(&self, other: &TextList) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for TextList {}

impl std::hash::Hash for TextList {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_usize(self.len());
        for s in self {
            s.hash(state);
        }
    }
}

impl<S: AsRef<str>> PartialEq<[S]> for TextList {
    fn eq(&self, other: &[S]) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a == b.as_ref())
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<[S; N]> for TextList {
    fn eq(&self, other: &[S; N]) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<&[S]> for TextList {
    fn eq(&self, other: &&[S]) -> bool {
        *self == **other
    }
}

impl<S: AsRef<str>> PartialEq<Vec<S>> for TextList {
    fn eq(&self, other: &Vec<S>) -> bool {
        *self == other[..]
    }
}

impl<S: AsRef<str>> PartialEq<TextList> for Vec<S> {
    fn eq(&self, other: &TextList) -> bool {
        *other == self[..]
    }
}

impl<S: AsRef<str>> PartialEq<TextList> for [S] {
    fn eq(&self, other: &TextList) -> bool {
        *other == *self
    }
}

impl<S: AsRef<str>, const N: usize> PartialEq<TextList> for [S; N] {
    fn eq(&self, other: &TextList) -> bool {
        *other == self[..]
    }
}

impl<S: AsRef<str>> FromIterator<S> for TextList {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> TextList {
        let mut list = TextList::new();
        list.extend(iter);
        list
    }
}

impl<S: AsRef<str>> Extend<S> for TextList {
    fn extend<I: IntoIterator<Item = S>>(&mut self, iter: I) {
        for s in iter {
            self.push(s.as_ref());
        }
    }
}

impl From<Vec<String>> for TextList {
    fn from(v: Vec<String>) -> TextList {
        let mut list = TextList {
            text: String::with_capacity(v.iter().map(String::len).sum()),
            spans: Vec::with_capacity(v.len()),
        };
        list.extend(v);
        list
    }
}

impl From<TextList> for Vec<String> {
    fn from(list: TextList) -> Vec<String> {
        list.to_vec()
    }
}

impl serde::Serialize for TextList {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::TextList;

    #[test]
    fn reads_like_a_list_of_strings() {
        let mut list = TextList::new();
        assert!(list.is_empty() && list == [""; 0]);
        list.push("b");
        list.push_concat(&["unknown field \"", "a.b", "\""]);
        list.push("");
        list.push("a");
        assert_eq!(list.len(), 4);
        assert_eq!(list, ["b", "unknown field \"a.b\"", "", "a"]);
        assert_eq!(list.get(1), Some("unknown field \"a.b\""));
        assert_eq!(list.get(4), None);
        assert_eq!(list.iter().next_back(), Some("a"));
        assert!(list.contains("") && !list.contains("c"));
        assert_eq!(list.join(", "), "b, unknown field \"a.b\", , a");
        assert_eq!(format!("{list:?}"), r#"["b", "unknown field \"a.b\"", "", "a"]"#);
        assert_eq!(
            serde_json::to_string(&list).unwrap(),
            r#"["b","unknown field \"a.b\"","","a"]"#
        );
        list.sort();
        assert_eq!(list, ["", "a", "b", "unknown field \"a.b\""]);
        assert_eq!(list.binary_search("b"), Ok(2));
        assert_eq!(list.binary_search("aa"), Err(2));
        let mut more = TextList::from(vec!["z".to_string(), "é".to_string()]);
        more.append(&list);
        assert_eq!(more, ["z", "é", "", "a", "b", "unknown field \"a.b\""]);
        assert_ne!(more, list);
        assert!(vec!["", "a", "b", "unknown field \"a.b\""] == list && ["x"] != list);
        more.clear();
        assert_eq!(more, TextList::new());
    }

    #[test]
    fn compares_as_slices_do() {
        let words: Vec<&[u8]> = vec![
            b"",
            b"a",
            b"ab",
            b"spec.template.spec.a",
            b"spec.template.spec.b",
            b"spec.template.spec",
            b"spec.templatf",
            b"\xff",
            b"12345678",
            b"123456789",
            b"12345677z",
            b"1234567",
        ];
        for a in &words {
            for b in &words {
                assert_eq!(super::compare(a, b), a.cmp(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn sorts_spans_as_slices_sort() {
        let mut words: Vec<String> = [
            "spec.template.spec.containers[0].b",
            "spec.template.spec.containers[0].a",
            "spec.template.spec.containers[0]",
            "spec.template.spec.containers[1].a",
            "spec.template.spec.containers[10].a",
            "spec.template.spec.containers[0].a-b",
            "spec.template.spec.containers[0].a.x",
            "spec.template.spec.containers[0].a",
            "spec.template.spec.containers[0].a\u{0}",
            "spec.template",
            "spec.templat",
            "spec.templa",
            "spec.templat\u{0}",
            "",
            "\u{0}",
            "é",
            "z",
        ]
        .map(String::from)
        .to_vec();
        // Past the depth where the rest is compared as it is.
        let long = "x".repeat(80);
        words.extend([format!("{long}b"), format!("{long}a"), long.clone(), format!("{long}a")]);
        // Few enough for the insertion sort, and (twice over) too many for it.
        let twice = [words.clone(), words.clone()].concat();
        assert!(words.len() <= super::SHORT && twice.len() > super::SHORT);
        // Every rotation, so that each word comes first once.
        for (r, words) in (0..words.len())
            .map(|r| (r, &words))
            .chain((0..twice.len()).map(|r| (r, &twice)))
        {
            let mut words = words.clone();
            words.rotate_left(r);
            let text = words.concat();
            let mut spans = Vec::new();
            for w in &words {
                let start = spans.last().map_or(0, |&(_, end)| end);
                spans.push((start, start + w.len()));
            }
            super::sort_spans(text.as_bytes(), &mut spans, &mut Vec::new());
            let sorted: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
            words.sort();
            assert_eq!(sorted, words);
        }
    }

    #[test]
    fn builds_from_utf8_spans() {
        let list = TextList::from_utf8_spans("abé".into(), vec![(0, 1), (1, 4), (0, 0)]).unwrap();
        assert_eq!(list, ["a", "bé", ""]);
        assert!(TextList::from_utf8_spans("é".into(), vec![(0, 1)]).is_none());
        assert!(TextList::from_utf8_spans("ab".into(), vec![(0, 3)]).is_none());
        assert!(TextList::from_utf8_spans("ab".into(), vec![(2, 1)]).is_none());
        assert!(TextList::from_utf8_spans(b"\xff".to_vec(), vec![]).is_none());
    }

    #[test]
    fn searches_from_an_index() {
        let list: TextList = ["z", "a", "b", "d"].into_iter().collect();
        assert_eq!(list.binary_search_from(1, "b"), Ok(2));
        assert_eq!(list.binary_search_from(1, "c"), Err(3));
        assert_eq!(list.binary_search_from(1, "z"), Err(4));
        assert_eq!(list.binary_search_from(9, "a"), Err(4));
    }

    #[test]
    fn sorts_zero_bytes_and_long_strings_by_bytes() {
        let long = "x".repeat(80);
        let words = [
            "a\0",
            "a",
            "a\0\0",
            "",
            "\0",
            &format!("{long}b"),
            &format!("{long}a"),
            &long,
            "a\0b",
        ];
        let mut list: TextList = words.into_iter().collect();
        list.sort();
        let mut want = words.to_vec();
        want.sort();
        assert_eq!(list, want);
    }

    #[test]
    fn sorts_by_bytes() {
        let mut list: TextList = ["b", "a[1]", "a.b", "a", "b", "é", "Z"].into_iter().collect();
        list.sort();
        assert_eq!(list, ["Z", "a", "a.b", "a[1]", "b", "b", "é"]);
    }
}
