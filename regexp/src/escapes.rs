//! The lexical parts of the parser: escapes, bracketed classes, `\p`
//! classes, group flags and counted repetitions. Positions are byte offsets
//! into the pattern; an error quotes `s[start..end]` exactly where Go slices
//! its string.

use std::rc::Rc;

use super::class::{
    MAX_RUNE, append_class, append_clean_class, append_folded_class, append_folded_range_unordered,
    append_negated_class, append_negated_table, append_range, append_table, clean_class, negate_class,
};
use super::parser::{
    FOLD_CASE, Group, NON_GREEDY, Op, PERL_X, Parser, UNICODE_GROUPS, is_alnum, perl_group, posix_group, unhex,
};
use super::unicode::unicode_class;
use super::{Error, ErrorCode};

fn is_octal(b: Option<u8>) -> bool {
    matches!(b, Some(b'0'..=b'7'))
}

impl Parser<'_> {
    /// A `\` outside brackets: assertions, `\Q...\E`, classes, or a
    /// single escaped rune. Returns the position after it.
    pub(super) fn parse_backslash(&mut self, t: usize) -> Result<usize, Error> {
        if self.flags & PERL_X != 0 {
            match self.byte(t + 1) {
                Some(b'A') => {
                    self.op(Op::BeginText)?;
                    return Ok(t + 2);
                }
                Some(b'b') => {
                    self.op(Op::WordBoundary)?;
                    return Ok(t + 2);
                }
                Some(b'B') => {
                    self.op(Op::NoWordBoundary)?;
                    return Ok(t + 2);
                }
                // Any byte: not supported.
                Some(b'C') => return Err(self.error(ErrorCode::InvalidEscape, t, t + 2)),
                Some(b'Q') => return self.parse_quoted(t + 2),
                Some(b'z') => {
                    self.op(Op::EndText)?;
                    return Ok(t + 2);
                }
                _ => {}
            }
        }

        // Go allocates the class node before knowing whether it is needed,
        // which shows in its node count, so do the same.
        let re = self.new_regexp(Op::CharClass);
        let flags = self.flags;
        self.node(re)?.flags = flags;

        if matches!(self.byte(t + 1), Some(b'p' | b'P')) {
            let mut class = Vec::new();
            if let Some(rest) = self.parse_unicode_class(t, &mut class)? {
                self.node(re)?.runes = class;
                self.push(re)?;
                return Ok(rest);
            }
        }
        let mut class = Vec::new();
        if let Some(rest) = self.parse_perl_class_escape(t, &mut class) {
            self.node(re)?.runes = class;
            self.push(re)?;
            return Ok(rest);
        }
        self.reuse(re);

        let (c, rest) = self.parse_escape(t)?;
        self.literal(c)?;
        Ok(rest)
    }

    /// The body of `\Q...\E` starting at `body`: every rune up to `\E` (or
    /// the end) is a literal.
    fn parse_quoted(&mut self, body: usize) -> Result<usize, Error> {
        let n = self.s.len();
        let (lit_end, rest) = match self.find(body, b"\\E") {
            Some(k) => (k, k + 2),
            None => (n, n),
        };
        let mut q = body;
        while q < lit_end {
            let (c, next) = self.next_rune_within(q, lit_end)?;
            self.literal(c)?;
            q = next;
        }
        Ok(rest)
    }

    /// Go's `parseRepeat`: `{n}`, `{n,}` or `{n,m}` at `t`, as
    /// `(min, max, after)` with `max == -1` for no upper bound and
    /// `min == -1` when a number is too big. `None` if `t` does not start
    /// such a form (then the brace is a literal).
    pub(super) fn parse_repeat(&self, t: usize) -> Option<(i32, i32, usize)> {
        if self.byte(t) != Some(b'{') {
            return None;
        }
        let (mut min, mut q) = self.parse_int(t + 1)?;
        let max;
        match self.byte(q)? {
            b',' => {
                q += 1;
                if self.byte(q)? == b'}' {
                    max = -1;
                } else {
                    let (m, next) = self.parse_int(q)?;
                    q = next;
                    max = m;
                    if max < 0 {
                        min = -1;
                    }
                }
            }
            _ => max = min,
        }
        if self.byte(q)? != b'}' {
            return None;
        }
        Some((min, max, q + 1))
    }

    /// Go's `parseInt`: a decimal number without leading zeros; -1 when it
    /// has more digits than fit the guard.
    fn parse_int(&self, t: usize) -> Option<(i32, usize)> {
        let digit = |i: usize| self.byte(i).filter(u8::is_ascii_digit);
        let first = digit(t)?;
        if first == b'0' && digit(t + 1).is_some() {
            return None;
        }
        let mut q = t;
        while digit(q).is_some() {
            q += 1;
        }
        let mut v: i32 = 0;
        for &d in self.s.get(t..q).unwrap_or_default() {
            if v >= 100_000_000 {
                v = -1;
                break;
            }
            v = v * 10 + i32::from(d - b'0');
        }
        Some((v, q))
    }

    /// Go's `parsePerlFlags`: what follows `(?` at `t` — a named capture,
    /// a non-capturing group, or a flag change. Returns the position after.
    pub(super) fn parse_perl_flags(&mut self, t: usize) -> Result<usize, Error> {
        let n = self.s.len();
        let len = n - t;
        let starts_with_p = len > 4 && self.byte(t + 2) == Some(b'P') && self.byte(t + 3) == Some(b'<');
        let starts_with_name = len > 3 && self.byte(t + 2) == Some(b'<');
        if starts_with_p || starts_with_name {
            let name_start = if starts_with_name { t + 3 } else { t + 4 };
            let Some(end) = self.find(t, b">") else {
                self.check_utf8(t, n)?;
                return Err(self.error(ErrorCode::InvalidNamedCapture, t, n));
            };
            self.check_utf8(name_start, end)?;
            let name = self.s.get(name_start..end).unwrap_or_default();
            // Names are [A-Za-z0-9_]+; duplicates are allowed.
            if name.is_empty() || !name.iter().all(|&c| c == b'_' || c.is_ascii_alphanumeric()) {
                return Err(self.error(ErrorCode::InvalidNamedCapture, t, end + 1));
            }
            self.num_cap += 1;
            let cap = self.num_cap;
            let re = self.op(Op::LeftParen)?;
            let node = self.node(re)?;
            node.cap = cap;
            node.name = (name_start, end);
            return Ok(end + 1);
        }

        let mut q = t + 2;
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        while q < n {
            let (c, next) = self.next_rune(q)?;
            q = next;
            match u8::try_from(c).unwrap_or(0) {
                b'i' => {
                    flags |= FOLD_CASE;
                    saw_flag = true;
                }
                b'm' => {
                    flags &= !super::parser::ONE_LINE;
                    saw_flag = true;
                }
                b's' => {
                    flags |= super::parser::DOT_NL;
                    saw_flag = true;
                }
                b'U' => {
                    flags |= NON_GREEDY;
                    saw_flag = true;
                }
                b'-' => {
                    if negated {
                        break;
                    }
                    negated = true;
                    // Inverted so the setters above clear bits; inverted
                    // back when the group ends.
                    flags = !flags;
                    saw_flag = false;
                }
                b':' | b')' => {
                    if negated {
                        if !saw_flag {
                            break;
                        }
                        flags = !flags;
                    }
                    if c == i32::from(b':') {
                        self.op(Op::LeftParen)?;
                    }
                    self.flags = flags;
                    return Ok(q);
                }
                _ => break,
            }
        }
        Err(self.error(ErrorCode::InvalidPerlOp, t, q))
    }

    /// Go's `parseEscape`: the rune escaped at `t` (which holds `\`) and
    /// the position after the escape.
    pub(super) fn parse_escape(&self, t: usize) -> Result<(i32, usize), Error> {
        let n = self.s.len();
        let mut q = t + 1;
        if q >= n {
            return Err(self.error(ErrorCode::TrailingBackslash, 0, 0));
        }
        let (c, next) = self.next_rune(q)?;
        q = next;
        let bad = |q: usize| Err(self.error(ErrorCode::InvalidEscape, t, q));
        match u8::try_from(c) {
            // A lone \1..\7 would be a backreference, which is not supported;
            // with more octal digits it is an octal escape like \0.
            Ok(b'1'..=b'7') if !is_octal(self.byte(q)) => bad(q),
            Ok(d @ b'0'..=b'7') => {
                let mut r = i32::from(d - b'0');
                for _ in 1..3 {
                    match self.byte(q) {
                        Some(o @ b'0'..=b'7') => {
                            r = r * 8 + i32::from(o - b'0');
                            q += 1;
                        }
                        _ => break,
                    }
                }
                Ok((r, q))
            }
            Ok(b'x') => {
                if q >= n {
                    return bad(q);
                }
                let (c, next) = self.next_rune(q)?;
                q = next;
                if c == i32::from(b'{') {
                    // Any number of hex digits in braces, at least one.
                    let mut nhex = 0;
                    let mut r = 0;
                    loop {
                        if q >= n {
                            return bad(q);
                        }
                        let (c, next) = self.next_rune(q)?;
                        q = next;
                        if c == i32::from(b'}') {
                            break;
                        }
                        let v = unhex(c);
                        if v < 0 {
                            return bad(q);
                        }
                        r = r * 16 + v;
                        if r > MAX_RUNE {
                            return bad(q);
                        }
                        nhex += 1;
                    }
                    if nhex == 0 {
                        return bad(q);
                    }
                    return Ok((r, q));
                }
                // Exactly two hex digits.
                let x = unhex(c);
                let (c, next) = self.next_rune(q)?;
                q = next;
                let y = unhex(c);
                if x < 0 || y < 0 {
                    return bad(q);
                }
                Ok((x * 16 + y, q))
            }
            // No \b here: outside classes it is a word boundary, and Go
            // rejects it inside them.
            Ok(b'a') => Ok((7, q)),
            Ok(b'f') => Ok((12, q)),
            Ok(b'n') => Ok((10, q)),
            Ok(b'r') => Ok((13, q)),
            Ok(b't') => Ok((9, q)),
            Ok(b'v') => Ok((11, q)),
            // Punctuation (and other ASCII non-word bytes) stands for itself.
            Ok(b) if b.is_ascii() && !is_alnum(c) => Ok((c, q)),
            _ => bad(q),
        }
    }

    /// Go's `parseClassChar`: one class member at `t`; `class_start` is the
    /// `[` that a missing `]` error quotes from.
    fn parse_class_char(&self, t: usize, class_start: usize) -> Result<(i32, usize), Error> {
        match self.byte(t) {
            None => Err(self.error(ErrorCode::MissingBracket, class_start, self.s.len())),
            Some(b'\\') => self.parse_escape(t),
            Some(_) => self.next_rune(t),
        }
    }

    /// Go's `appendGroup`: a named class, folded under `(?i)`.
    fn append_group(&self, r: &mut Vec<i32>, (negated, class): Group) {
        if self.flags & FOLD_CASE == 0 {
            if negated {
                append_negated_class(r, class);
            } else {
                append_class(r, class);
            }
        } else {
            let mut tmp = Vec::new();
            append_folded_class(&mut tmp, class);
            clean_class(&mut tmp);
            if negated {
                append_negated_class(r, &tmp);
            } else {
                append_class(r, &tmp);
            }
        }
    }

    /// Go's `parsePerlClassEscape`: `\d`, `\s`, `\w` and their negations.
    pub(super) fn parse_perl_class_escape(&self, t: usize, r: &mut Vec<i32>) -> Option<usize> {
        if self.flags & PERL_X == 0 || self.byte(t) != Some(b'\\') {
            return None;
        }
        let group = perl_group(self.byte(t + 1)?)?;
        self.append_group(r, group);
        Some(t + 2)
    }

    /// Go's `parseNamedClass`: `[:alpha:]` and friends inside brackets.
    fn parse_named_class(&mut self, t: usize, r: &mut Vec<i32>) -> Result<Option<usize>, Error> {
        if self.byte(t) != Some(b'[') || self.byte(t + 1) != Some(b':') {
            return Ok(None);
        }
        // Remember where ":]" is known to be absent, or a class full of
        // "[:" would rescan the rest of the pattern for each one.
        if t + 2 >= self.no_named_close_from {
            return Ok(None);
        }
        let Some(close) = self.find(t + 2, b":]") else {
            self.no_named_close_from = t + 2;
            return Ok(None);
        };
        let end = close + 2;
        let name = self.s.get(t..end).unwrap_or_default();
        let Some(group) = posix_group(name) else {
            return Err(self.error(ErrorCode::InvalidCharRange, t, end));
        };
        self.append_group(r, group);
        Ok(Some(end))
    }

    /// Go's `parseUnicodeClass`: `\pL`, `\p{Greek}`, `\P{^Lu}` at `t`.
    /// `Ok(None)` means `t` does not start one.
    pub(super) fn parse_unicode_class(&mut self, t: usize, r: &mut Vec<i32>) -> Result<Option<usize>, Error> {
        if self.flags & UNICODE_GROUPS == 0
            || self.byte(t) != Some(b'\\')
            || !matches!(self.byte(t + 1), Some(b'p' | b'P'))
        {
            return Ok(None);
        }
        let mut negated = self.byte(t + 1) == Some(b'P');
        let (c, after) = self.next_rune(t + 2)?;
        let (seq_end, name_start, name_end) = if c != i32::from(b'{') {
            // A one-letter name (or none at all at the end of the pattern).
            (after, t + 2, after)
        } else {
            let Some(close) = self.find(t, b"}") else {
                self.check_utf8(t, self.s.len())?;
                return Err(self.error(ErrorCode::InvalidCharRange, t, self.s.len()));
            };
            self.check_utf8(t + 3, close)?;
            (close + 1, t + 3, close)
        };
        let mut name = self.s.get(name_start..name_end).unwrap_or_default();
        if let Some(rest) = name.strip_prefix(b"^") {
            negated = !negated;
            name = rest;
        }
        let Some(class) = unicode_class(name) else {
            return Err(self.error(ErrorCode::InvalidCharRange, t, seq_end));
        };
        if class.negated {
            negated = !negated;
        }
        match class.fold {
            Some(fold) if self.flags & FOLD_CASE != 0 => {
                let tmp = self.folded_table(class.table, fold);
                if negated {
                    append_negated_class(r, &tmp);
                } else {
                    append_clean_class(r, &tmp);
                }
            }
            _ => {
                if negated {
                    append_negated_table(r, class.table);
                } else {
                    append_table(r, class.table);
                }
            }
        }
        Ok(Some(seq_end))
    }

    /// A table merged with its fold table and cleaned, as Go builds it for
    /// each `(?i)\p{...}`. The result depends only on the tables, so it is
    /// built once per pattern and table.
    fn folded_table(&mut self, table: &'static [u32], fold: &'static [u32]) -> Rc<[i32]> {
        if let Some((_, hit)) = self.fold_cache.iter().find(|(t, _)| std::ptr::eq(*t, table)) {
            return Rc::clone(hit);
        }
        let mut tmp = Vec::new();
        append_table(&mut tmp, table);
        append_table(&mut tmp, fold);
        clean_class(&mut tmp);
        let tmp: Rc<[i32]> = tmp.into();
        self.fold_cache.push((table, Rc::clone(&tmp)));
        tmp
    }

    /// Go's `parseClass`: a bracketed class at `t`, pushed onto the stack.
    pub(super) fn parse_class(&mut self, t: usize) -> Result<usize, Error> {
        let class_start = t;
        let mut q = t + 1;
        let re = self.new_regexp(Op::CharClass);
        let flags = self.flags;
        self.node(re)?.flags = flags;

        let mut negated = false;
        if self.byte(q) == Some(b'^') {
            negated = true;
            q += 1;
            // Perl mode always lets negated classes match newline, so there
            // is no `\n` to add before negating.
        }

        let mut class = Vec::new();
        let mut first = true; // `]` is a member when it comes first
        while first || self.byte(q) != Some(b']') {
            first = false;

            if self.byte(q) == Some(b'[')
                && self.byte(q + 1) == Some(b':')
                && self.s.len() - q > 2
                && let Some(next) = self.parse_named_class(q, &mut class)?
            {
                q = next;
                continue;
            }
            if let Some(next) = self.parse_unicode_class(q, &mut class)? {
                q = next;
                continue;
            }
            if let Some(next) = self.parse_perl_class_escape(q, &mut class) {
                q = next;
                continue;
            }

            let range_start = q;
            let (lo, next) = self.parse_class_char(q, class_start)?;
            q = next;
            let mut hi = lo;
            // `[a-]` means a or -, so a `-` right before `]` is no range.
            if self.byte(q) == Some(b'-') && self.byte(q + 1).is_some_and(|b| b != b']') {
                let (h, next) = self.parse_class_char(q + 1, class_start)?;
                q = next;
                hi = h;
                if hi < lo {
                    return Err(self.error(ErrorCode::InvalidCharRange, range_start, q));
                }
            }
            if self.flags & FOLD_CASE == 0 {
                append_range(&mut class, lo, hi);
            } else {
                // The class is cleaned below before anything reads it.
                append_folded_range_unordered(&mut class, lo, hi);
            }
        }
        q += 1; // the `]`

        clean_class(&mut class);
        if negated {
            negate_class(&mut class);
        }
        self.node(re)?.runes = class;
        self.push(re)?;
        Ok(q)
    }
}
