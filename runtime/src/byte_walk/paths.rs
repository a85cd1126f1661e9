//! The paths of the fields a walk prunes, gathered as bytes (keys as the body spells them,
//! checked as UTF-8 when read) and checked as text once, when the walk ends: one check of
//! all the paths costs less than one per path.

use crate::texts::TextList;
use crate::texts::sort_spans;

/// Paths being reported: their bytes, one after another, and where each one is.
#[derive(Default)]
pub(super) struct Paths {
    text: Vec<u8>,
    spans: Vec<(usize, usize)>,
    /// The room made when the first path begins: most walks report nothing, and then
    /// allocate nothing.
    room: (usize, usize),
}

impl Paths {
    /// No paths, with room for `n` paths of `bytes` bytes in all made when the first begins.
    pub fn with_room(n: usize, bytes: usize) -> Paths {
        Paths {
            room: (n, bytes),
            ..Paths::default()
        }
    }

    #[inline]
    fn make_room(&mut self) {
        if self.spans.capacity() == 0 {
            self.spans.reserve(self.room.0.max(8));
            self.text.reserve(self.room.1.max(256));
        }
    }

    /// How many paths there are, and their bytes.
    pub fn size(&self) -> (usize, usize) {
        (self.spans.len(), self.text.len())
    }

    /// The bytes a path is written to, after [`begin`](Self::begin) and before
    /// [`end`](Self::end).
    pub fn text(&mut self) -> &mut Vec<u8> {
        &mut self.text
    }

    /// Where the next path starts.
    pub fn begin(&mut self) -> usize {
        self.make_room();
        self.text.len()
    }

    /// Begins a path with the first `n` bytes of the last one (which has at least `n`).
    #[inline]
    pub fn begin_as_last(&mut self, n: usize) -> usize {
        self.make_room();
        let start = self.text.len();
        if let Some(&(last, _)) = self.spans.last() {
            self.text.extend_from_within(last..last + n);
        }
        start
    }

    /// Appends the path `p`.
    pub fn push(&mut self, p: &[u8]) {
        let start = self.begin();
        self.text.extend_from_slice(p);
        self.end(start);
    }

    /// Ends the path begun at `start`.
    #[inline]
    pub fn end(&mut self, start: usize) {
        self.spans.push((start, self.text.len()));
    }

    /// Moves the `n` paths from the `first` on to the front, in their order.
    pub fn move_to_front(&mut self, first: usize, n: usize) {
        self.spans[..first + n].rotate_right(n);
    }

    /// Puts the paths from the `from`th on in byte order (`order`: a buffer).
    pub fn sort(&mut self, from: usize, order: &mut Vec<u128>) {
        sort_spans(&self.text, &mut self.spans[from..], order);
    }

    /// The paths as a list of strings; `None` if they are not UTF-8.
    pub fn into_list(self) -> Option<TextList> {
        TextList::from_utf8_spans(self.text, self.spans)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(words: &[&str]) -> Paths {
        let mut p = Paths::default();
        for w in words {
            p.push(w.as_bytes());
        }
        p
    }

    /// `words` sorted by [`Paths::sort`] and by the standard library, alike.
    fn sorts_as_strings_do(words: &[&str]) {
        let mut p = paths(words);
        p.sort(0, &mut Vec::new());
        let mut want = words.to_vec();
        want.sort();
        assert_eq!(p.into_list().unwrap(), want);
    }

    #[test]
    fn sorts_by_bytes() {
        let words = [
            "spec.containers[0].debug",
            "status.comment",
            "spec.containers[0].env[0].x",
            "oldField",
            "spec.a",
            "spec.a-b",
            "spec.a.x",
            "spec.a",
            "a",
            "é",
            "spec.containers[0].debug",
        ];
        sorts_as_strings_do(&words);
    }

    #[test]
    fn sorts_long_and_repeated_paths() {
        let long = "spec.".to_string() + &"abcdefgh".repeat(12);
        let words = [
            format!("{long}.b"),
            format!("{long}.a"),
            long.clone(),
            format!("{long}.a"),
            "spec.containers[0].env[0].x".to_string(),
            "spec.containers[0].env[0]".to_string(),
            "spec.containers[0].env[10].x".to_string(),
            "spec.containers[0].env[1].x".to_string(),
        ];
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        sorts_as_strings_do(&refs);
    }

    #[test]
    fn sorts_after_the_paths_moved_to_the_front() {
        let mut p = paths(&["spec.b", "metadata.z", "metadata.a", "spec.a"]);
        p.move_to_front(1, 2);
        p.sort(2, &mut Vec::new());
        assert_eq!(p.into_list().unwrap(), ["metadata.z", "metadata.a", "spec.a", "spec.b"]);
    }

    #[test]
    fn begins_as_the_last_path() {
        let mut p = paths(&["spec.ports[0].x"]);
        let start = p.begin_as_last("spec.ports[0].".len());
        p.text().extend_from_slice(b"y");
        p.end(start);
        assert_eq!(p.into_list().unwrap(), ["spec.ports[0].x", "spec.ports[0].y"]);
    }

    #[test]
    fn bytes_that_are_not_utf8_give_no_list() {
        let mut p = Paths::default();
        let start = p.begin();
        p.text().extend_from_slice(b"spec.\xff");
        p.end(start);
        assert!(p.into_list().is_none());
    }
}
