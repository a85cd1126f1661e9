//! The parser: a port of Go's `regexp/syntax` parse loop in Perl mode.
//!
//! Go's resource limits are functions of the parser's internal state (how
//! many nodes it has allocated, which ones it recycled, what its size and
//! height caches hold), so that state is reproduced faithfully: nodes live
//! in an arena whose indices play the role of Go's pointers, freed nodes go
//! on a LIFO free list, and the caches are per-index slots that, like Go's
//! maps, can hold stale values. Only Perl mode is implemented, because that
//! is what `regexp.Compile` uses; POSIX-only branches are left out.

use std::rc::Rc;

use super::class::{MAX_RUNE, append_class, append_literal, clean_class, min_fold_rune};
use super::unicode::simple_fold;
use super::{Error, ErrorCode};

/// Index of a node in the arena (Go's `*Regexp`).
pub(super) type NodeId = usize;

/// Go's `syntax.Op`, in Go's order: factoring and alternation merging
/// compare ops numerically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Op {
    NoMatch = 1,
    EmptyMatch,
    Literal,
    CharClass,
    AnyCharNotNl,
    AnyChar,
    BeginLine,
    EndLine,
    BeginText,
    EndText,
    WordBoundary,
    NoWordBoundary,
    Capture,
    Star,
    Plus,
    Quest,
    Repeat,
    Concat,
    Alternate,
    /// Pseudo-op on the parse stack: an open parenthesis.
    LeftParen = 128,
    /// Pseudo-op on the parse stack: a pending `|`.
    VerticalBar,
}

impl Op {
    fn is_pseudo(self) -> bool {
        self >= Op::LeftParen
    }
}

// Go's parse flags (only those Perl mode can reach matter).
pub(super) const FOLD_CASE: u16 = 1 << 0;
pub(super) const DOT_NL: u16 = 1 << 3;
pub(super) const ONE_LINE: u16 = 1 << 4;
pub(super) const NON_GREEDY: u16 = 1 << 5;
pub(super) const PERL_X: u16 = 1 << 6;
pub(super) const UNICODE_GROUPS: u16 = 1 << 7;
pub(super) const WAS_DOLLAR: u16 = 1 << 8;
const CLASS_NL: u16 = 1 << 2;
/// `syntax.Perl`, the flags `regexp.Compile` parses with.
const PERL: u16 = CLASS_NL | ONE_LINE | PERL_X | UNICODE_GROUPS;

/// Nesting limit on the parse tree.
const MAX_HEIGHT: i64 = 1000;
/// Limit on the estimated compiled size, in instructions (128 MiB / 40 B).
const MAX_SIZE: i64 = (128 << 20) / 40;
/// Limit on the runes held by all pushed nodes (128 MiB / 4 B).
const MAX_RUNES: usize = (128 << 20) / 4;
/// Largest count in `x{n,m}`, and bound on the product of nested counts.
const MAX_REPEAT: i32 = 1000;

/// Go's `Regexp` node, reduced to what the checks read.
#[derive(Debug, Clone)]
pub(super) struct Node {
    pub(super) op: Op,
    pub(super) flags: u16,
    pub(super) min: i32,
    pub(super) max: i32,
    pub(super) cap: i32,
    /// Byte range of the capture name in the pattern (empty if unnamed).
    pub(super) name: (usize, usize),
    pub(super) sub: Vec<NodeId>,
    pub(super) runes: Vec<i32>,
}

impl Node {
    fn new(op: Op) -> Node {
        Node {
            op,
            flags: 0,
            min: 0,
            max: 0,
            cap: 0,
            name: (0, 0),
            sub: Vec::new(),
            runes: Vec::new(),
        }
    }
}

/// A named class like `[:alpha:]` or `\d`: a clean class and whether it is
/// negated.
pub(super) type Group = (bool, &'static [i32]);

const DIGIT: &[i32] = &[0x30, 0x39];
const SPACE_PERL: &[i32] = &[0x9, 0xA, 0xC, 0xD, 0x20, 0x20];
const WORD: &[i32] = &[0x30, 0x39, 0x41, 0x5A, 0x5F, 0x5F, 0x61, 0x7A];

pub(super) fn perl_group(c: u8) -> Option<Group> {
    Some(match c {
        b'd' => (false, DIGIT),
        b'D' => (true, DIGIT),
        b's' => (false, SPACE_PERL),
        b'S' => (true, SPACE_PERL),
        b'w' => (false, WORD),
        b'W' => (true, WORD),
        _ => return None,
    })
}

pub(super) fn posix_group(name: &[u8]) -> Option<Group> {
    let (negated, base) = match name.strip_prefix(b"[:^") {
        Some(rest) => (true, rest),
        None => (false, name.strip_prefix(b"[:")?),
    };
    let class: &'static [i32] = match base {
        b"alnum:]" => &[0x30, 0x39, 0x41, 0x5A, 0x61, 0x7A],
        b"alpha:]" => &[0x41, 0x5A, 0x61, 0x7A],
        b"ascii:]" => &[0x0, 0x7F],
        b"blank:]" => &[0x9, 0x9, 0x20, 0x20],
        b"cntrl:]" => &[0x0, 0x1F, 0x7F, 0x7F],
        b"digit:]" => DIGIT,
        b"graph:]" => &[0x21, 0x7E],
        b"lower:]" => &[0x61, 0x7A],
        b"print:]" => &[0x20, 0x7E],
        b"punct:]" => &[0x21, 0x2F, 0x3A, 0x40, 0x5B, 0x60, 0x7B, 0x7E],
        b"space:]" => &[0x9, 0xD, 0x20, 0x20],
        b"upper:]" => &[0x41, 0x5A],
        b"word:]" => WORD,
        b"xdigit:]" => &[0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
        _ => return None,
    };
    Some((negated, class))
}

pub(super) fn is_alnum(c: i32) -> bool {
    u8::try_from(c).is_ok_and(|b| b.is_ascii_alphanumeric())
}

pub(super) fn unhex(c: i32) -> i32 {
    match u8::try_from(c) {
        Ok(b @ b'0'..=b'9') => i32::from(b - b'0'),
        Ok(b @ b'a'..=b'f') => i32::from(b - b'a') + 10,
        Ok(b @ b'A'..=b'F') => i32::from(b - b'A') + 10,
        _ => -1,
    }
}

/// Decodes one rune at the start of `b` like Go's `utf8.DecodeRune`:
/// `(0xFFFD, 0)` for empty input, `(0xFFFD, 1)` for an invalid byte.
fn decode_rune(b: &[u8]) -> (i32, usize) {
    const ERROR: (i32, usize) = (0xFFFD, 1);
    let Some(&b0) = b.first() else {
        return (0xFFFD, 0);
    };
    let (len, init) = match b0 {
        0x00..=0x7F => return (i32::from(b0), 1),
        0xC2..=0xDF => (2, i32::from(b0 & 0x1F)),
        0xE0..=0xEF => (3, i32::from(b0 & 0x0F)),
        0xF0..=0xF4 => (4, i32::from(b0 & 0x07)),
        _ => return ERROR,
    };
    if b.len() < len {
        return ERROR;
    }
    let mut c = init;
    for &x in &b[1..len] {
        if x & 0xC0 != 0x80 {
            return ERROR;
        }
        c = (c << 6) | i32::from(x & 0x3F);
    }
    let min = match len {
        2 => 0x80,
        3 => 0x800,
        _ => 0x10000,
    };
    if c < min || c > MAX_RUNE || (0xD800..=0xDFFF).contains(&c) {
        return ERROR;
    }
    (c, len)
}

/// The parser state (Go's `parser`) plus the arena.
pub(super) struct Parser<'a> {
    /// The whole pattern.
    pub(super) s: &'a [u8],
    pub(super) flags: u16,
    /// The parse stack of node indices.
    pub(super) stack: Vec<NodeId>,
    pub(super) nodes: Vec<Node>,
    /// Recycled nodes, most recently freed last.
    free: Vec<NodeId>,
    pub(super) num_cap: i32,
    /// Nodes ever allocated (recycling does not count).
    num_regexp: usize,
    /// Runes in all pushed nodes, counted again at every push.
    num_runes: usize,
    /// Product of repeat counts seen before size tracking began.
    repeats: i64,
    /// Whether the size cache exists yet (Go's `p.size != nil`).
    size_on: bool,
    /// Cached sizes; 0 means no entry (sizes are at least 1).
    size: Vec<i64>,
    /// Whether the height cache exists yet.
    height_on: bool,
    /// Cached heights; 0 means no entry.
    height: Vec<i64>,
    /// `(?i)` versions of Unicode tables already built for this pattern,
    /// keyed by table identity.
    pub(super) fold_cache: Vec<(&'static [u32], Rc<[i32]>)>,
    /// A position from which on the pattern holds no ":]".
    pub(super) no_named_close_from: usize,
}

/// Parses `s` as `regexp.Compile` would, reporting only the verdict.
pub(super) fn parse(s: &[u8]) -> Result<(), Error> {
    Parser::new(s).run()
}

impl<'a> Parser<'a> {
    fn new(s: &'a [u8]) -> Parser<'a> {
        Parser {
            s,
            flags: PERL,
            stack: Vec::new(),
            nodes: Vec::new(),
            free: Vec::new(),
            num_cap: 0,
            num_regexp: 0,
            num_runes: 0,
            repeats: 0,
            size_on: false,
            size: Vec::new(),
            height_on: false,
            height: Vec::new(),
            fold_cache: Vec::new(),
            no_named_close_from: usize::MAX,
        }
    }

    // ----- errors -----

    /// An error quoting `s[start..end]`.
    pub(super) fn error(&self, code: ErrorCode, start: usize, end: usize) -> Error {
        let bytes = self.s.get(start..end).unwrap_or_default();
        Error {
            code,
            expr: String::from_utf8_lossy(bytes).into_owned(),
        }
    }

    /// An error quoting the whole pattern.
    pub(super) fn whole_error(&self, code: ErrorCode) -> Error {
        self.error(code, 0, self.s.len())
    }

    // ----- text -----

    pub(super) fn byte(&self, i: usize) -> Option<u8> {
        self.s.get(i).copied()
    }

    /// Go's `nextRune`: the rune at `t` and the position after it.
    pub(super) fn next_rune(&self, t: usize) -> Result<(i32, usize), Error> {
        self.next_rune_within(t, self.s.len())
    }

    /// `next_rune` on the substring `s[t..end]`.
    pub(super) fn next_rune_within(&self, t: usize, end: usize) -> Result<(i32, usize), Error> {
        let rest = self.s.get(t..end).unwrap_or_default();
        let (c, size) = decode_rune(rest);
        if c == 0xFFFD && size == 1 {
            return Err(self.error(ErrorCode::InvalidUTF8, t, end));
        }
        Ok((c, t + size))
    }

    /// Go's `checkUTF8` on `s[start..end]`.
    pub(super) fn check_utf8(&self, start: usize, end: usize) -> Result<(), Error> {
        let mut i = start;
        while i < end {
            i = self.next_rune_within(i, end)?.1;
        }
        Ok(())
    }

    pub(super) fn find(&self, from: usize, needle: &[u8]) -> Option<usize> {
        let (&first, rest) = needle.split_first()?;
        let mut i = from;
        while let Some(k) = self.s.get(i..)?.iter().position(|&b| b == first) {
            let at = i + k;
            if self.s.get(at + 1..)?.starts_with(rest) {
                return Some(at);
            }
            i = at + 1;
        }
        None
    }

    // ----- arena -----

    /// Go's `newRegexp`: a recycled node if there is one, else a new one.
    pub(super) fn new_regexp(&mut self, op: Op) -> NodeId {
        if let Some(id) = self.free.pop()
            && let Some(n) = self.nodes.get_mut(id)
        {
            n.op = op;
            n.flags = 0;
            n.min = 0;
            n.max = 0;
            n.cap = 0;
            n.name = (0, 0);
            n.sub.clear();
            n.runes.clear();
            // A recycled node keeps any size cached for its old self,
            // exactly like Go's pointer-keyed map.
            return id;
        }
        self.nodes.push(Node::new(op));
        self.size.push(0);
        self.height.push(0);
        self.num_regexp += 1;
        self.nodes.len() - 1
    }

    /// Go's `reuse`: drops the height entry and frees the node.
    pub(super) fn reuse(&mut self, re: NodeId) {
        if let Some(h) = self.height.get_mut(re) {
            *h = 0;
        }
        self.free.push(re);
    }

    pub(super) fn op_of(&self, re: NodeId) -> Op {
        self.nodes.get(re).map_or(Op::NoMatch, |n| n.op)
    }

    pub(super) fn sub_of(&self, re: NodeId) -> &[NodeId] {
        self.nodes.get(re).map_or(&[], |n| n.sub.as_slice())
    }

    pub(super) fn node(&mut self, re: NodeId) -> Result<&mut Node, Error> {
        // An out-of-range index would be a bug in the port; report it as
        // Go's internal error rather than panicking.
        let err = Error {
            code: ErrorCode::InternalError,
            expr: String::new(),
        };
        self.nodes.get_mut(re).ok_or(err)
    }

    // ----- limits -----

    /// Go's `checkLimits`.
    pub(super) fn check_limits(&mut self, re: NodeId) -> Result<(), Error> {
        if self.num_runes > MAX_RUNES {
            return Err(self.whole_error(ErrorCode::Large));
        }
        self.check_size(re)?;
        self.check_height(re)
    }

    fn check_size(&mut self, re: NodeId) -> Result<(), Error> {
        if !self.size_on {
            // Cheap pre-check: tracking starts only once the node count
            // times the product of repeat counts could exceed the budget.
            if self.repeats == 0 {
                self.repeats = 1;
            }
            if let Some(n) = self.nodes.get(re).filter(|n| n.op == Op::Repeat) {
                let mut count = if n.max == -1 { n.min } else { n.max };
                if count <= 0 {
                    count = 1;
                }
                if i64::from(count) > MAX_SIZE / self.repeats {
                    self.repeats = MAX_SIZE;
                } else {
                    self.repeats *= i64::from(count);
                }
            }
            if i64::try_from(self.num_regexp).unwrap_or(i64::MAX) < MAX_SIZE / self.repeats {
                return Ok(());
            }
            self.size_on = true;
            for i in 0..self.stack.len() {
                let x = self.stack[i];
                if self.calc_size(x, true) > MAX_SIZE {
                    return Err(self.whole_error(ErrorCode::Large));
                }
            }
        }
        if self.calc_size(re, true) > MAX_SIZE {
            return Err(self.whole_error(ErrorCode::Large));
        }
        Ok(())
    }

    /// The children Go's `calcSize` looks at for this node.
    fn size_children(&self, re: NodeId) -> &[NodeId] {
        let sub = self.sub_of(re);
        match self.op_of(re) {
            Op::Capture | Op::Star | Op::Plus | Op::Quest | Op::Repeat => &sub[..sub.len().min(1)],
            Op::Concat | Op::Alternate => sub,
            _ => &[],
        }
    }

    fn own_size(&self, re: NodeId) -> i64 {
        let child = |i: usize| {
            self.size_children(re)
                .get(i)
                .and_then(|&c| self.size.get(c).copied())
                .unwrap_or(0)
        };
        let Some(n) = self.nodes.get(re) else {
            return 1;
        };
        let size = match n.op {
            Op::Literal => i64::try_from(n.runes.len()).unwrap_or(i64::MAX),
            Op::Capture | Op::Star => child(0).wrapping_add(2),
            Op::Plus | Op::Quest => child(0).wrapping_add(1),
            Op::Concat | Op::Alternate => {
                let k = self.size_children(re).len();
                let mut total = (0..k).fold(0i64, |acc, i| acc.wrapping_add(child(i)));
                if n.op == Op::Alternate && k > 1 {
                    total = total.wrapping_add(i64::try_from(k).unwrap_or(i64::MAX) - 1);
                }
                total
            }
            Op::Repeat => {
                let sub = child(0);
                let (min, max) = (i64::from(n.min), i64::from(n.max));
                if max == -1 {
                    if min == 0 {
                        sub.wrapping_add(2)
                    } else {
                        min.wrapping_mul(sub).wrapping_add(1)
                    }
                } else {
                    max.wrapping_mul(sub).wrapping_add(max - min)
                }
            }
            _ => 0,
        };
        size.max(1)
    }

    /// Go's `calcSize`, with an explicit stack instead of recursion: a
    /// node's size comes from its children's cached sizes, computing (and
    /// caching) those that have no entry yet.
    fn calc_size(&mut self, root: NodeId, force: bool) -> i64 {
        if !force && let Some(&v) = self.size.get(root).filter(|&&v| v != 0) {
            return v;
        }
        let mut work: Vec<(NodeId, usize)> = vec![(root, 0)];
        while let Some(&mut (re, ref mut next)) = work.last_mut() {
            if let Some(&c) = self.size_children(re).get(*next) {
                *next += 1;
                if self.size.get(c).is_some_and(|&v| v == 0) {
                    work.push((c, 0));
                }
                continue;
            }
            let v = self.own_size(re);
            if let Some(slot) = self.size.get_mut(re) {
                *slot = v;
            }
            work.pop();
        }
        self.size.get(root).copied().unwrap_or(1)
    }

    fn check_height(&mut self, re: NodeId) -> Result<(), Error> {
        if i64::try_from(self.num_regexp).unwrap_or(i64::MAX) < MAX_HEIGHT {
            return Ok(());
        }
        if !self.height_on {
            self.height_on = true;
            for i in 0..self.stack.len() {
                let x = self.stack[i];
                if self.calc_height(x, true) > MAX_HEIGHT {
                    return Err(self.whole_error(ErrorCode::NestingDepth));
                }
            }
        }
        if self.calc_height(re, true) > MAX_HEIGHT {
            return Err(self.whole_error(ErrorCode::NestingDepth));
        }
        Ok(())
    }

    /// Go's `calcHeight`, iteratively, with the same cache use as `calc_size`.
    fn calc_height(&mut self, root: NodeId, force: bool) -> i64 {
        if !force && let Some(&v) = self.height.get(root).filter(|&&v| v != 0) {
            return v;
        }
        let mut work: Vec<(NodeId, usize)> = vec![(root, 0)];
        while let Some(&mut (re, ref mut next)) = work.last_mut() {
            if let Some(&c) = self.sub_of(re).get(*next) {
                *next += 1;
                if self.height.get(c).is_some_and(|&v| v == 0) {
                    work.push((c, 0));
                }
                continue;
            }
            let h = self
                .sub_of(re)
                .iter()
                .map(|&c| self.height.get(c).copied().unwrap_or(0) + 1)
                .fold(1, i64::max);
            if let Some(slot) = self.height.get_mut(re) {
                *slot = h;
            }
            work.pop();
        }
        self.height.get(root).copied().unwrap_or(1)
    }

    // ----- stack -----

    /// Go's `push`: counts the runes, turns one-rune classes into literals
    /// (possibly merging them into the literal below), and checks limits.
    /// Returns `None` when the node was absorbed by a neighbouring literal.
    pub(super) fn push(&mut self, re: NodeId) -> Result<Option<NodeId>, Error> {
        let flags = self.flags;
        let (op, runes) = match self.nodes.get(re) {
            Some(n) => (n.op, n.runes.as_slice()),
            None => (Op::NoMatch, &[][..]),
        };
        self.num_runes = self.num_runes.saturating_add(runes.len());
        let single = op == Op::CharClass && runes.len() == 2 && runes[0] == runes[1];
        let folded_pair = op == Op::CharClass
            && ((runes.len() == 4
                && runes[0] == runes[1]
                && runes[2] == runes[3]
                && simple_fold(runes[0]) == runes[2]
                && simple_fold(runes[2]) == runes[0])
                || (runes.len() == 2
                    && runes[0] + 1 == runes[1]
                    && simple_fold(runes[0]) == runes[1]
                    && simple_fold(runes[1]) == runes[0]));
        let first = runes.first().copied().unwrap_or(0);
        if single || folded_pair {
            let lit_flags = if single { flags & !FOLD_CASE } else { flags | FOLD_CASE };
            if self.maybe_concat(first, lit_flags) {
                return Ok(None);
            }
            let n = self.node(re)?;
            n.op = Op::Literal;
            n.runes.truncate(1);
            n.flags = lit_flags;
        } else {
            self.maybe_concat(-1, 0);
        }
        self.stack.push(re);
        self.check_limits(re)?;
        Ok(Some(re))
    }

    /// Go's `maybeConcat`: if the top two stack entries are literals with
    /// the same case folding, appends the top one to the other. If `r >= 0`
    /// the freed top entry is reused as the literal `r`.
    fn maybe_concat(&mut self, r: i32, flags: u16) -> bool {
        let n = self.stack.len();
        if n < 2 {
            return false;
        }
        let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
        let (Some(a), Some(b)) = (self.nodes.get(re1), self.nodes.get(re2)) else {
            return false;
        };
        if a.op != Op::Literal || b.op != Op::Literal || a.flags & FOLD_CASE != b.flags & FOLD_CASE {
            return false;
        }
        let moved = std::mem::take(&mut self.nodes[re1].runes);
        self.nodes[re2].runes.extend_from_slice(&moved);
        if r >= 0 {
            let top = &mut self.nodes[re1];
            top.runes = moved;
            top.runes.clear();
            top.runes.push(r);
            top.flags = flags;
            return true;
        }
        self.stack.pop();
        self.reuse(re1);
        false
    }

    /// Go's `literal`.
    pub(super) fn literal(&mut self, r: i32) -> Result<(), Error> {
        let re = self.new_regexp(Op::Literal);
        let flags = self.flags;
        let r = if flags & FOLD_CASE != 0 { min_fold_rune(r) } else { r };
        let n = self.node(re)?;
        n.flags = flags;
        n.runes.push(r);
        self.push(re)?;
        Ok(())
    }

    /// Go's `op`: pushes a new node with the current flags.
    pub(super) fn op(&mut self, op: Op) -> Result<NodeId, Error> {
        let re = self.new_regexp(op);
        let flags = self.flags;
        self.node(re)?.flags = flags;
        self.push(re)?;
        Ok(re)
    }

    /// Go's `repeat`: wraps the top of the stack in a repetition. `before`
    /// is where the operator starts, `after` where it ends; returns the new
    /// `after` (past a non-greedy `?`).
    fn repeat(
        &mut self,
        op: Op,
        min: i32,
        max: i32,
        before: usize,
        after: usize,
        last_repeat: Option<usize>,
    ) -> Result<usize, Error> {
        let mut flags = self.flags;
        let mut after = after;
        if self.flags & PERL_X != 0 {
            if self.byte(after) == Some(b'?') {
                after += 1;
                flags ^= NON_GREEDY;
            }
            if let Some(last) = last_repeat {
                // Perl forbids stacked operators like `a**`.
                return Err(self.error(ErrorCode::InvalidRepeatOp, last, after));
            }
        }
        let Some(&sub) = self.stack.last() else {
            return Err(self.error(ErrorCode::MissingRepeatArgument, before, after));
        };
        if self.op_of(sub).is_pseudo() {
            return Err(self.error(ErrorCode::MissingRepeatArgument, before, after));
        }
        let re = self.new_regexp(op);
        let n = self.node(re)?;
        n.min = min;
        n.max = max;
        n.flags = flags;
        n.sub.push(sub);
        if let Some(top) = self.stack.last_mut() {
            *top = re;
        }
        self.check_limits(re)?;
        if op == Op::Repeat && (min >= 2 || max >= 2) && !self.repeat_is_valid(re, MAX_REPEAT) {
            return Err(self.error(ErrorCode::InvalidRepeatSize, before, after));
        }
        Ok(after)
    }

    /// Go's `repeatIsValid`: no chain of nested counted repetitions may
    /// multiply out to more than `n` copies.
    fn repeat_is_valid(&self, re: NodeId, n: i32) -> bool {
        let mut work = vec![(re, n)];
        while let Some((x, mut n)) = work.pop() {
            let Some(node) = self.nodes.get(x) else {
                continue;
            };
            if node.op == Op::Repeat {
                let mut m = node.max;
                if m == 0 {
                    continue;
                }
                if m < 0 {
                    m = node.min;
                }
                if m > n {
                    return false;
                }
                if m > 0 {
                    n /= m;
                }
            }
            work.extend(node.sub.iter().map(|&c| (c, n)));
        }
        true
    }

    /// Go's `concat`: replaces the entries above the topmost `|` or `(`
    /// by their concatenation.
    fn concat(&mut self) -> Result<(), Error> {
        self.maybe_concat(-1, 0);
        let i = self.pseudo_boundary();
        let subs = self.stack.split_off(i);
        let re = if subs.is_empty() {
            self.new_regexp(Op::EmptyMatch)
        } else {
            self.collapse(subs, Op::Concat)?
        };
        self.push(re)?;
        Ok(())
    }

    /// Go's `alternate`: replaces the entries above the topmost `(` by
    /// their alternation.
    fn alternate(&mut self) -> Result<(), Error> {
        let i = self.pseudo_boundary();
        let subs = self.stack.split_off(i);
        if let Some(&last) = subs.last() {
            self.clean_alt(last);
        }
        let re = if subs.is_empty() {
            self.new_regexp(Op::NoMatch)
        } else {
            self.collapse(subs, Op::Alternate)?
        };
        self.push(re)?;
        Ok(())
    }

    /// Index just above the topmost pseudo-op on the stack.
    fn pseudo_boundary(&self) -> usize {
        let mut i = self.stack.len();
        while i > 0 && !self.op_of(self.stack[i - 1]).is_pseudo() {
            i -= 1;
        }
        i
    }

    /// Go's `cleanAlt`: normalises a class about to enter an alternation.
    pub(super) fn clean_alt(&mut self, re: NodeId) {
        let Some(n) = self.nodes.get_mut(re) else {
            return;
        };
        if n.op != Op::CharClass {
            return;
        }
        clean_class(&mut n.runes);
        if n.runes == [0, MAX_RUNE] {
            n.runes.clear();
            n.op = Op::AnyChar;
        } else if n.runes == [0, 0x09, 0x0B, MAX_RUNE] {
            n.runes.clear();
            n.op = Op::AnyCharNotNl;
        }
    }

    /// Go's `isCharClass`: a single-rune literal, a class, or a dot.
    pub(super) fn is_char_class(&self, re: NodeId) -> bool {
        self.nodes.get(re).is_some_and(|n| match n.op {
            Op::Literal => n.runes.len() == 1,
            Op::CharClass | Op::AnyCharNotNl | Op::AnyChar => true,
            _ => false,
        })
    }

    /// Go's `matchRune`, as `mergeCharClass` needs it.
    fn match_rune(&self, re: NodeId, r: i32) -> bool {
        self.nodes.get(re).is_some_and(|n| match n.op {
            Op::Literal => n.runes.len() == 1 && n.runes[0] == r,
            Op::CharClass => n.runes.chunks_exact(2).any(|p| p[0] <= r && r <= p[1]),
            Op::AnyCharNotNl => r != i32::from(b'\n'),
            Op::AnyChar => true,
            _ => false,
        })
    }

    /// Go's `mergeCharClass`: `dst |= src`, where `dst.op >= src.op`.
    pub(super) fn merge_char_class(&mut self, dst: NodeId, src: NodeId) {
        let (Some(d), Some(s)) = (self.nodes.get(dst), self.nodes.get(src)) else {
            return;
        };
        match d.op {
            Op::AnyChar => {}
            Op::AnyCharNotNl if self.match_rune(src, i32::from(b'\n')) => {
                self.nodes[dst].op = Op::AnyChar;
            }
            Op::CharClass => {
                let mut runes = std::mem::take(&mut self.nodes[dst].runes);
                let s = &self.nodes[src];
                if s.op == Op::Literal {
                    let x = s.runes.first().copied().unwrap_or(0);
                    append_literal(&mut runes, x, s.flags & FOLD_CASE != 0);
                } else {
                    append_class(&mut runes, &s.runes);
                }
                self.nodes[dst].runes = runes;
            }
            Op::Literal => {
                let sx = s.runes.first().copied().unwrap_or(0);
                let dx = d.runes.first().copied().unwrap_or(0);
                if sx == dx && s.flags == d.flags {
                    return;
                }
                let (sf, df) = (s.flags, d.flags);
                let dn = &mut self.nodes[dst];
                dn.op = Op::CharClass;
                dn.runes.clear();
                append_literal(&mut dn.runes, dx, df & FOLD_CASE != 0);
                append_literal(&mut dn.runes, sx, sf & FOLD_CASE != 0);
            }
            _ => {}
        }
    }

    /// Go's `swapVerticalBar`: if a `|` sits just below the top entry,
    /// moves the entry below it (merging two classes into one when both
    /// sides are classes). Reports whether there was such a `|`.
    fn swap_vertical_bar(&mut self) -> bool {
        let n = self.stack.len();
        if n >= 3
            && self.op_of(self.stack[n - 2]) == Op::VerticalBar
            && self.is_char_class(self.stack[n - 1])
            && self.is_char_class(self.stack[n - 3])
        {
            let mut re1 = self.stack[n - 1];
            let mut re3 = self.stack[n - 3];
            // Merge into the more complex of the two.
            if self.op_of(re1) > self.op_of(re3) {
                std::mem::swap(&mut re1, &mut re3);
                self.stack[n - 3] = re3;
            }
            self.merge_char_class(re3, re1);
            self.reuse(re1);
            self.stack.truncate(n - 1);
            return true;
        }
        if n >= 2 {
            let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
            if self.op_of(re2) == Op::VerticalBar {
                if n >= 3 {
                    // Out of reach of further merging: tidy it now.
                    self.clean_alt(self.stack[n - 3]);
                }
                self.stack[n - 2] = re1;
                self.stack[n - 1] = re2;
                return true;
            }
        }
        false
    }

    fn parse_vertical_bar(&mut self) -> Result<(), Error> {
        self.concat()?;
        if !self.swap_vertical_bar() {
            self.op(Op::VerticalBar)?;
        }
        Ok(())
    }

    fn parse_right_paren(&mut self) -> Result<(), Error> {
        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        let n = self.stack.len();
        if n < 2 {
            return Err(self.whole_error(ErrorCode::UnexpectedParen));
        }
        let (re1, re2) = (self.stack[n - 1], self.stack[n - 2]);
        self.stack.truncate(n - 2);
        if self.op_of(re2) != Op::LeftParen {
            return Err(self.whole_error(ErrorCode::UnexpectedParen));
        }
        let paren = self.node(re2)?;
        // Flags revert to what they were at the `(`.
        let restored = paren.flags;
        let top = if paren.cap == 0 {
            re1
        } else {
            paren.op = Op::Capture;
            paren.sub.clear();
            paren.sub.push(re1);
            re2
        };
        self.flags = restored;
        self.push(top)?;
        Ok(())
    }

    // ----- the main loop -----

    fn run(&mut self) -> Result<(), Error> {
        let n = self.s.len();
        let mut t = 0;
        let mut last_repeat: Option<usize> = None;
        while t < n {
            let mut repeat = None;
            match self.s[t] {
                b'(' => {
                    if self.flags & PERL_X != 0 && self.byte(t + 1) == Some(b'?') {
                        t = self.parse_perl_flags(t)?;
                    } else {
                        self.num_cap += 1;
                        let re = self.op(Op::LeftParen)?;
                        let cap = self.num_cap;
                        self.node(re)?.cap = cap;
                        t += 1;
                    }
                }
                b'|' => {
                    self.parse_vertical_bar()?;
                    t += 1;
                }
                b')' => {
                    self.parse_right_paren()?;
                    t += 1;
                }
                b'^' => {
                    let op = if self.flags & ONE_LINE != 0 {
                        Op::BeginText
                    } else {
                        Op::BeginLine
                    };
                    self.op(op)?;
                    t += 1;
                }
                b'$' => {
                    if self.flags & ONE_LINE != 0 {
                        let re = self.op(Op::EndText)?;
                        self.node(re)?.flags |= WAS_DOLLAR;
                    } else {
                        self.op(Op::EndLine)?;
                    }
                    t += 1;
                }
                b'.' => {
                    let op = if self.flags & DOT_NL != 0 {
                        Op::AnyChar
                    } else {
                        Op::AnyCharNotNl
                    };
                    self.op(op)?;
                    t += 1;
                }
                b'[' => t = self.parse_class(t)?,
                c @ (b'*' | b'+' | b'?') => {
                    let op = match c {
                        b'*' => Op::Star,
                        b'+' => Op::Plus,
                        _ => Op::Quest,
                    };
                    let before = t;
                    t = self.repeat(op, 0, 0, before, t + 1, last_repeat)?;
                    repeat = Some(before);
                }
                b'{' => {
                    let before = t;
                    match self.parse_repeat(t) {
                        None => {
                            // Not a valid counted repetition: a literal brace.
                            self.literal(i32::from(b'{'))?;
                            t += 1;
                        }
                        Some((min, max, after)) => {
                            if !(0..=MAX_REPEAT).contains(&min) || max > MAX_REPEAT || (max >= 0 && min > max) {
                                return Err(self.error(ErrorCode::InvalidRepeatSize, before, after));
                            }
                            t = self.repeat(Op::Repeat, min, max, before, after, last_repeat)?;
                            repeat = Some(before);
                        }
                    }
                }
                b'\\' => t = self.parse_backslash(t)?,
                _ => {
                    let (c, next) = self.next_rune(t)?;
                    self.literal(c)?;
                    t = next;
                }
            }
            last_repeat = repeat;
        }

        self.concat()?;
        if self.swap_vertical_bar() {
            self.stack.pop();
        }
        self.alternate()?;
        if self.stack.len() != 1 {
            return Err(self.whole_error(ErrorCode::MissingParen));
        }
        Ok(())
    }
}

/// Parses `s` and renders the resulting tree in the format of the Go dumper
/// that produced `testdata/go_trees.txt`, so tests can compare not just the
/// verdict but the exact tree Go builds.
#[cfg(test)]
pub(super) fn dump_tree(s: &[u8]) -> Result<String, Error> {
    let mut p = Parser::new(s);
    p.run()?;
    let mut out = String::new();
    if let Some(&root) = p.stack.first() {
        p.dump(root, &mut out);
    }
    Ok(out)
}

#[cfg(test)]
impl Parser<'_> {
    fn dump(&self, re: NodeId, out: &mut String) {
        use std::fmt::Write;
        let n = &self.nodes[re];
        let _ = write!(out, "{}/{:x}", n.op as u8, n.flags);
        if !n.runes.is_empty() {
            if n.runes.len() <= 8 {
                let list: Vec<String> = n.runes.iter().map(|r| format!("{r:x}")).collect();
                let _ = write!(out, "[{}]", list.join(" "));
            } else {
                // FNV-1a, as the Go dumper does for long lists.
                let h = n.runes.iter().fold(2_166_136_261u32, |h, &r| {
                    (h ^ r.cast_unsigned()).wrapping_mul(16_777_619)
                });
                let _ = write!(out, "[#{}:{h:08x}]", n.runes.len());
            }
        }
        if n.op == Op::Repeat {
            let _ = write!(out, "{{{},{}}}", n.min, n.max);
        }
        if n.op == Op::Capture {
            let name = String::from_utf8_lossy(self.s.get(n.name.0..n.name.1).unwrap_or_default());
            let _ = write!(out, "<{},{name:?}>", n.cap);
        }
        if !n.sub.is_empty() {
            out.push('(');
            for (i, &s) in n.sub.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                self.dump(s, out);
            }
            out.push(')');
        }
    }
}
