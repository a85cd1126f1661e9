//! Messages written in `const` evaluation: a fixed buffer of text, a list of names, and the
//! closest name to a misspelt one (`kstruct_schema::suggest`). The derive's compile-time checks and `try_crd()` at run
//! time write their messages with these same functions, so that both say the same thing.

/// Room for one message. Longer messages end with `...`.
const CAPACITY: usize = 2048;

/// Text built in `const` evaluation (no allocation there).
#[derive(Clone, Copy)]
pub struct Text {
    buf: [u8; CAPACITY],
    len: usize,
    full: bool,
}

impl Default for Text {
    fn default() -> Self {
        Text::new()
    }
}

impl Text {
    /// Empty text.
    pub const fn new() -> Text {
        Text {
            buf: [0; CAPACITY],
            len: 0,
            full: false,
        }
    }

    /// True when nothing was written.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `s`, or as much of it as fits followed by `...`.
    pub const fn push(&mut self, s: &str) {
        if self.full {
            return;
        }
        let bytes = s.as_bytes();
        let mut n = bytes.len();
        // The last three bytes are kept for the ellipsis.
        if self.len + n > CAPACITY - 3 {
            // Cut at a character boundary.
            n = CAPACITY - 3 - self.len;
            while n > 0 && (bytes[n] & 0xC0) == 0x80 {
                n -= 1;
            }
            self.full = true;
        }
        let mut i = 0;
        while i < n {
            self.buf[self.len] = bytes[i];
            self.len += 1;
            i += 1;
        }
        if self.full {
            let mut j = 0;
            while j < 3 {
                self.buf[self.len] = b'.';
                self.len += 1;
                j += 1;
            }
        }
    }

    /// Appends `` `s` ``.
    pub const fn push_code(&mut self, s: &str) {
        self.push("`");
        self.push(s);
        self.push("`");
    }

    /// Appends `"s"` (the paths this quotes hold no quote or backslash).
    pub const fn push_quoted(&mut self, s: &str) {
        self.push("\"");
        self.push(s);
        self.push("\"");
    }

    /// Its length in bytes.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// Cuts the text back to `len` bytes (a length it had).
    pub const fn truncate(&mut self, len: usize) {
        if len < self.len {
            self.len = len;
            self.full = false;
        }
    }

    /// The text.
    pub const fn as_str(&self) -> &str {
        let (written, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(written) {
            Ok(s) => s,
            // Only whole characters are ever written.
            Err(_) => "",
        }
    }
}

/// Most names a message lists (an object with more lists 256 of them, those met first, in
/// byte order).
const MAX_NAMES: usize = 256;

/// The names of an object's properties, sorted as the schema's keys are (byte order).
#[derive(Clone, Copy)]
pub struct Names<'a> {
    list: [&'a str; MAX_NAMES],
    len: usize,
}

impl Default for Names<'_> {
    fn default() -> Self {
        Names::new()
    }
}

impl<'a> Names<'a> {
    /// No names.
    pub const fn new() -> Names<'a> {
        Names {
            list: [""; MAX_NAMES],
            len: 0,
        }
    }

    /// Adds `name` in its sorted place (nothing when the list is full or holds it already).
    pub const fn insert(&mut self, name: &'a str) {
        let mut at = 0;
        while at < self.len && less(self.list[at], name) {
            at += 1;
        }
        if self.len == MAX_NAMES || (at < self.len && eq(self.list[at], name)) {
            return;
        }
        let mut i = self.len;
        while i > at {
            self.list[i] = self.list[i - 1];
            i -= 1;
        }
        self.list[at] = name;
        self.len += 1;
    }

    /// The names, in byte order.
    pub const fn as_slice(&self) -> &[&'a str] {
        self.list.split_at(self.len).0
    }
}

/// `a == b`, in `const` evaluation.
pub const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// `a < b` in byte order (as `str`'s `Ord`).
const fn less(a: &str, b: &str) -> bool {
    matches!(compare(a, b), core::cmp::Ordering::Less)
}

/// `a.cmp(b)` in byte order, in `const` evaluation.
pub const fn compare(a: &str, b: &str) -> core::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return if a[i] < b[i] {
                core::cmp::Ordering::Less
            } else {
                core::cmp::Ordering::Greater
            };
        }
        i += 1;
    }
    if a.len() < b.len() {
        core::cmp::Ordering::Less
    } else if a.len() > b.len() {
        core::cmp::Ordering::Greater
    } else {
        core::cmp::Ordering::Equal
    }
}

/// Appends `` (did you mean `x`?); its fields are `a`, `b` `` (or `; it has no fields`;
/// `their` and `they have` when `plural`).
pub const fn push_suggestions(out: &mut Text, missing: &str, names: &[&str], plural: bool) {
    if let Some(m) = kstruct_schema::suggest::did_you_mean(missing, names) {
        out.push(" (did you mean ");
        out.push_code(m);
        out.push("?)");
    }
    if names.is_empty() {
        out.push(if plural {
            "; they have no fields"
        } else {
            "; it has no fields"
        });
        return;
    }
    out.push(if plural {
        "; their fields are "
    } else {
        "; its fields are "
    });
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            out.push(", ");
        }
        out.push_code(names[i]);
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_sorted_and_unique() {
        let mut n = Names::new();
        for s in ["role", "name", "age", "name"] {
            n.insert(s);
        }
        assert_eq!(n.as_slice(), ["age", "name", "role"]);
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        let mut t = Text::new();
        for _ in 0..300 {
            t.push("é-long-");
        }
        assert!(t.as_str().ends_with("..."));
        assert!(t.as_str().len() <= CAPACITY);
    }

    #[test]
    fn suggestions_list_the_fields() {
        let mut t = Text::new();
        push_suggestions(&mut t, "nme", &["name", "role"], true);
        assert_eq!(t.as_str(), " (did you mean `name`?); their fields are `name`, `role`");
        let mut t = Text::new();
        push_suggestions(&mut t, "x", &[], false);
        assert_eq!(t.as_str(), "; it has no fields");
    }
}
