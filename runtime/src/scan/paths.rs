//! The paths of the fields a walk prunes, gathered as bytes (keys as the body spells them,
//! checked as UTF-8 when read) and checked as text once, when the walk ends: one check of
//! all the paths costs less than one per path.

use super::text;
use crate::decode::TextList;

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
    pub fn begin_as_last(&mut self, n: usize) -> usize {
        self.make_room();
        let start = self.text.len();
        if let Some(&(last, _)) = self.spans.last() {
            self.text.extend_from_within(last..last + n);
        }
        start
    }

    /// Ends the path begun at `start`.
    pub fn end(&mut self, start: usize) {
        self.spans.push((start, self.text.len()));
    }

    /// Moves the `n` paths from the `first` on to the front, in their order.
    pub fn move_to_front(&mut self, first: usize, n: usize) {
        self.spans[..first + n].rotate_right(n);
    }

    /// Puts the paths from the `from`th on in byte order. They are sorted as `(word, index)`
    /// numbers in `order` (a buffer), which costs less than comparing them: by their first
    /// eight bytes, then paths alike so far by their next eight, and so on.
    pub fn sort(&mut self, from: usize, order: &mut Vec<u128>) {
        let spans = &mut self.spans[from..];
        order.clear();
        order.extend(0..spans.len() as u128);
        sort_from(&self.text, spans, order, 0);
        // The spans in their new order, through `order`: no other buffer is needed.
        for o in order.iter_mut() {
            let (start, end) = spans[*o as u64 as usize];
            *o = ((start as u128) << 64) | end as u128;
        }
        for (span, &o) in spans.iter_mut().zip(order.iter()) {
            *span = ((o >> 64) as usize, o as u64 as usize);
        }
    }

    /// The paths as a list of strings; `None` if they are not UTF-8.
    pub fn into_list(self) -> Option<TextList> {
        TextList::from_utf8_spans(self.text, self.spans)
    }
}

/// Sorts `order` (path indices in its low 64 bits) by the paths' bytes from `offset` on: all
/// of them are alike before it.
fn sort_from(text: &[u8], spans: &[(usize, usize)], order: &mut [u128], offset: usize) {
    // Past this, what is left is compared as it is (keys can be long: no deep recursion).
    const MAX_OFFSET: usize = 64;
    let at = |o: u128, offset: usize| {
        let (start, end) = spans[o as u64 as usize];
        &text[(start + offset).min(end)..end]
    };
    if offset >= MAX_OFFSET {
        order.sort_unstable_by(|&a, &b| at(a, offset).cmp(at(b, offset)));
        return;
    }
    for o in order.iter_mut() {
        let word = text::head_of(at(*o, offset));
        *o = (u128::from(word) << 64) | (*o as u64 as u128);
    }
    order.sort_unstable();
    for alike in order.chunk_by_mut(|a, b| a >> 64 == b >> 64) {
        // Paths alike through `offset + 8` and ended there are the same path (a path holds
        // no zero byte, which a word past its end reads as).
        if alike.len() > 1 && alike.iter().any(|&o| at(o, offset).len() > 8) {
            sort_from(text, spans, alike, offset + 8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(words: &[&str]) -> Paths {
        let mut p = Paths::default();
        for w in words {
            let start = p.begin();
            p.text().extend_from_slice(w.as_bytes());
            p.end(start);
        }
        p
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
        let mut p = paths(&words);
        p.sort(0, &mut Vec::new());
        let mut want = words.to_vec();
        want.sort();
        assert_eq!(p.into_list().unwrap(), want);
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
        let mut p = paths(&refs);
        p.sort(0, &mut Vec::new());
        let mut want = refs.clone();
        want.sort();
        assert_eq!(p.into_list().unwrap(), want);
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
