//! Collapsing concatenations and alternations, and Go's factoring of
//! common prefixes out of alternations (`abc|abd` becomes `ab[cd]`).
//!
//! Go writes `collapse` and `factor` as mutually recursive functions whose
//! depth grows with the pattern (nested common prefixes), so they run here
//! on an explicit stack of frames. Each frame is one `factor` call; when it
//! reaches a run that needs a nested `collapse`, it suspends and pushes a
//! frame for it, then resumes with the result. The order of every
//! allocation, recycling and limit check is Go's, because the limits depend
//! on it.

use super::parser::{FOLD_CASE, NON_GREEDY, NodeId, Op, Parser, WAS_DOLLAR};
use super::{Error, ErrorCode};

/// The start of a `collapse`: either finished already, or waiting for its
/// alternation to be factored.
enum Begin {
    Done(NodeId),
    Factor(Frame),
}

/// A suspended `factor` call on the sub-expressions of alternation `re`.
struct Frame {
    re: NodeId,
    /// The list this round works on.
    sub: Vec<NodeId>,
    /// What this round produces.
    out: Vec<NodeId>,
    /// 1: common literal prefixes; 2: common leading classes.
    round: u8,
    i: usize,
    start: usize,
    /// Round 1: the common prefix of the current run, as the first
    /// `str_len` runes of literal `str_node`.
    str_node: Option<NodeId>,
    str_len: usize,
    str_flags: u16,
    /// Round 2: the leading expression of the current run.
    first: Option<NodeId>,
    /// Set while a nested collapse runs for the run ending at `i`.
    pending: Option<Pending>,
}

/// What a frame needs to finish a run once its nested collapse returns.
struct Pending {
    prefix: NodeId,
    /// Round 1's next prefix (`istr`) or round 2's next leading expression.
    next_str: (Option<NodeId>, usize, u16),
    next_first: Option<NodeId>,
}

enum Step {
    Call(Frame),
    Done(Vec<NodeId>),
}

fn internal() -> Error {
    Error {
        code: ErrorCode::InternalError,
        expr: String::new(),
    }
}

impl Frame {
    fn new(re: NodeId, sub: Vec<NodeId>) -> Frame {
        Frame {
            re,
            sub,
            out: Vec::new(),
            round: 1,
            i: 0,
            start: 0,
            str_node: None,
            str_len: 0,
            str_flags: 0,
            first: None,
            pending: None,
        }
    }
}

impl Parser<'_> {
    /// Go's `collapse`: applies `op` to `subs`, flattening nested nodes of
    /// the same op and factoring alternations.
    pub(super) fn collapse(&mut self, subs: Vec<NodeId>, op: Op) -> Result<NodeId, Error> {
        let frame = match self.collapse_begin(subs, op) {
            Begin::Done(re) => return Ok(re),
            Begin::Factor(frame) => frame,
        };
        let mut frames = vec![frame];
        loop {
            let top = frames.last_mut().ok_or_else(internal)?;
            match self.factor_step(top)? {
                Step::Call(child) => frames.push(child),
                Step::Done(list) => {
                    let done = frames.pop().ok_or_else(internal)?;
                    let re = self.collapse_finish(done.re, list);
                    match frames.last_mut() {
                        None => return Ok(re),
                        Some(parent) => self.factor_resume(parent, re)?,
                    }
                }
            }
        }
    }

    /// The part of `collapse` before `factor`.
    fn collapse_begin(&mut self, subs: Vec<NodeId>, op: Op) -> Begin {
        if let [only] = subs[..] {
            return Begin::Done(only);
        }
        let re = self.new_regexp(op);
        let mut list = Vec::with_capacity(subs.len());
        for sub in subs {
            if self.op_of(sub) == op {
                if let Some(n) = self.nodes.get_mut(sub) {
                    list.append(&mut n.sub);
                }
                self.reuse(sub);
            } else {
                list.push(sub);
            }
        }
        if op == Op::Alternate && list.len() >= 2 {
            return Begin::Factor(Frame::new(re, list));
        }
        if op == Op::Alternate {
            return Begin::Done(self.collapse_finish(re, list));
        }
        if let Some(n) = self.nodes.get_mut(re) {
            n.sub = list;
        }
        Begin::Done(re)
    }

    /// The part of `collapse` after `factor`: an alternation of one is
    /// replaced by that one.
    fn collapse_finish(&mut self, re: NodeId, list: Vec<NodeId>) -> NodeId {
        let only = match list[..] {
            [only] => Some(only),
            _ => None,
        };
        if let Some(n) = self.nodes.get_mut(re) {
            n.sub = list;
        }
        match only {
            Some(only) => {
                self.reuse(re);
                only
            }
            None => re,
        }
    }

    /// Runs a frame until it needs a nested collapse or is done.
    fn factor_step(&mut self, f: &mut Frame) -> Result<Step, Error> {
        loop {
            match f.round {
                1 => {
                    while f.i <= f.sub.len() {
                        let i = f.i;
                        let (inode, ilen, iflags) = match f.sub.get(i) {
                            Some(&re) => self.leading_string(re),
                            None => (None, 0, 0),
                        };
                        if i < f.sub.len() && iflags == f.str_flags {
                            let same = self.common_prefix(f.str_node, f.str_len, inode, ilen);
                            if same > 0 {
                                // Still inside the run sharing the prefix.
                                f.str_len = same;
                                f.i += 1;
                                continue;
                            }
                        }
                        // A run ends before `i`.
                        if i == f.start + 1 {
                            f.out.push(f.sub[f.start]);
                        } else if i > f.start + 1 {
                            let prefix = self.new_regexp(Op::Literal);
                            let runes = f
                                .str_node
                                .and_then(|s| self.nodes.get(s))
                                .map(|s| s.runes.get(..f.str_len).unwrap_or_default().to_vec())
                                .unwrap_or_default();
                            if let Some(n) = self.nodes.get_mut(prefix) {
                                n.flags = f.str_flags;
                                n.runes = runes;
                            }
                            for j in f.start..i {
                                let stripped = self.remove_leading_string(f.sub[j], f.str_len);
                                f.sub[j] = stripped;
                                self.check_limits(stripped)?;
                            }
                            let run = f.sub[f.start..i].to_vec();
                            match self.collapse_begin(run, Op::Alternate) {
                                Begin::Done(suffix) => self.finish_run(f, prefix, suffix),
                                Begin::Factor(child) => {
                                    f.pending = Some(Pending {
                                        prefix,
                                        next_str: (inode, ilen, iflags),
                                        next_first: None,
                                    });
                                    return Ok(Step::Call(child));
                                }
                            }
                        }
                        f.start = i;
                        f.str_node = inode;
                        f.str_len = ilen;
                        f.str_flags = iflags;
                        f.i += 1;
                    }
                    f.sub = std::mem::take(&mut f.out);
                    f.round = 2;
                    f.i = 0;
                    f.start = 0;
                    f.first = None;
                }
                2 => {
                    while f.i <= f.sub.len() {
                        let i = f.i;
                        let ifirst = f.sub.get(i).and_then(|&re| self.leading_regexp(re));
                        if let (Some(first), Some(ifirst)) = (f.first, ifirst) {
                            // Only classes, or fixed repeats of a class, are
                            // safe to factor out.
                            let factorable = self.is_char_class(first)
                                || self.nodes.get(first).is_some_and(|n| {
                                    n.op == Op::Repeat
                                        && n.min == n.max
                                        && n.sub.first().is_some_and(|&c| self.is_char_class(c))
                                });
                            if self.equal(first, ifirst) && factorable {
                                f.i += 1;
                                continue;
                            }
                        }
                        if i == f.start + 1 {
                            f.out.push(f.sub[f.start]);
                        } else if i > f.start + 1 {
                            let prefix = f.first.ok_or_else(internal)?;
                            for j in f.start..i {
                                let stripped = self.remove_leading_regexp(f.sub[j], j != f.start);
                                f.sub[j] = stripped;
                                self.check_limits(stripped)?;
                            }
                            let run = f.sub[f.start..i].to_vec();
                            match self.collapse_begin(run, Op::Alternate) {
                                Begin::Done(suffix) => self.finish_run(f, prefix, suffix),
                                Begin::Factor(child) => {
                                    f.pending = Some(Pending {
                                        prefix,
                                        next_str: (None, 0, 0),
                                        next_first: ifirst,
                                    });
                                    return Ok(Step::Call(child));
                                }
                            }
                        }
                        f.start = i;
                        f.first = ifirst;
                        f.i += 1;
                    }
                    f.sub = std::mem::take(&mut f.out);
                    f.round = 3;
                }
                _ => return Ok(Step::Done(self.factor_classes(std::mem::take(&mut f.sub)))),
            }
        }
    }

    /// Appends `prefix(suffix)` for a factored run.
    fn finish_run(&mut self, f: &mut Frame, prefix: NodeId, suffix: NodeId) {
        let re = self.new_regexp(Op::Concat);
        if let Some(n) = self.nodes.get_mut(re) {
            n.sub.push(prefix);
            n.sub.push(suffix);
        }
        f.out.push(re);
    }

    /// Continues a frame after the nested collapse for its run returned.
    fn factor_resume(&mut self, f: &mut Frame, suffix: NodeId) -> Result<(), Error> {
        let p = f.pending.take().ok_or_else(internal)?;
        self.finish_run(f, p.prefix, suffix);
        f.start = f.i;
        if f.round == 1 {
            (f.str_node, f.str_len, f.str_flags) = p.next_str;
        } else {
            f.first = p.next_first;
        }
        f.i += 1;
        Ok(())
    }

    /// Rounds 3 and 4 of Go's `factor`: runs of single characters and
    /// classes become one class, and runs of empty matches become one.
    fn factor_classes(&mut self, mut sub: Vec<NodeId>) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(sub.len());
        let mut start = 0;
        for i in 0..=sub.len() {
            if i < sub.len() && self.is_char_class(sub[i]) {
                continue;
            }
            if i == start + 1 {
                out.push(sub[start]);
            } else if i > start + 1 {
                // Merge into the most complex member, so the others add
                // as little as possible.
                let mut max = start;
                for j in start + 1..i {
                    let (a, b) = (&self.nodes[sub[max]], &self.nodes[sub[j]]);
                    if a.op < b.op || (a.op == b.op && a.runes.len() < b.runes.len()) {
                        max = j;
                    }
                }
                sub.swap(start, max);
                for j in start + 1..i {
                    self.merge_char_class(sub[start], sub[j]);
                    self.reuse(sub[j]);
                }
                self.clean_alt(sub[start]);
                out.push(sub[start]);
            }
            if i < sub.len() {
                out.push(sub[i]);
            }
            start = i + 1;
        }

        let mut last = Vec::with_capacity(out.len());
        for i in 0..out.len() {
            let empty = |k: usize| out.get(k).is_some_and(|&re| self.op_of(re) == Op::EmptyMatch);
            if empty(i) && empty(i + 1) {
                continue;
            }
            last.push(out[i]);
        }
        last
    }

    /// Length of the common prefix of two literal rune strings.
    fn common_prefix(&self, a: Option<NodeId>, alen: usize, b: Option<NodeId>, blen: usize) -> usize {
        let runes = |x: Option<NodeId>, len: usize| {
            x.and_then(|x| self.nodes.get(x))
                .map_or(&[][..], |n| n.runes.get(..len).unwrap_or_default())
        };
        runes(a, alen)
            .iter()
            .zip(runes(b, blen))
            .take_while(|(x, y)| x == y)
            .count()
    }

    /// Go's `leadingString`: the literal `re` starts with, as (node, rune
    /// count, fold flag).
    fn leading_string(&self, re: NodeId) -> (Option<NodeId>, usize, u16) {
        let mut x = re;
        if self.op_of(x) == Op::Concat
            && let Some(&first) = self.nodes.get(x).and_then(|n| n.sub.first())
        {
            x = first;
        }
        match self.nodes.get(x) {
            Some(n) if n.op == Op::Literal => (Some(x), n.runes.len(), n.flags & FOLD_CASE),
            _ => (None, 0, 0),
        }
    }

    /// Go's `removeLeadingString`: drops the first `count` runes of the
    /// leading literal, simplifying the concatenations above it.
    fn remove_leading_string(&mut self, re: NodeId, count: usize) -> NodeId {
        // Go recurses down first children; walk down, then fix up on the
        // way back.
        let mut path = Vec::new();
        let mut x = re;
        while let Some(n) = self.nodes.get(x).filter(|n| n.op == Op::Concat) {
            let Some(&first) = n.sub.first() else { break };
            path.push(x);
            x = first;
        }
        if let Some(n) = self.nodes.get_mut(x).filter(|n| n.op == Op::Literal) {
            let k = count.min(n.runes.len());
            n.runes.drain(..k);
            if n.runes.is_empty() {
                n.op = Op::EmptyMatch;
            }
        }
        let mut result = x;
        while let Some(parent) = path.pop() {
            let mut up = parent;
            if let Some(slot) = self.nodes.get_mut(parent).and_then(|n| n.sub.first_mut()) {
                *slot = result;
            }
            if self.op_of(result) == Op::EmptyMatch {
                self.reuse(result);
                let len = self.nodes.get(parent).map_or(0, |n| n.sub.len());
                match len {
                    0 | 1 => {
                        if let Some(n) = self.nodes.get_mut(parent) {
                            n.op = Op::EmptyMatch;
                            n.sub.clear();
                        }
                    }
                    2 => {
                        up = self.nodes.get(parent).map_or(parent, |n| n.sub[1]);
                        self.reuse(parent);
                    }
                    _ => {
                        if let Some(n) = self.nodes.get_mut(parent) {
                            n.sub.remove(0);
                        }
                    }
                }
            }
            result = up;
        }
        result
    }

    /// Go's `leadingRegexp`: the first element of a concatenation, or the
    /// expression itself; `None` for empty matches.
    fn leading_regexp(&self, re: NodeId) -> Option<NodeId> {
        let n = self.nodes.get(re)?;
        if n.op == Op::EmptyMatch {
            return None;
        }
        if n.op == Op::Concat
            && let Some(&first) = n.sub.first()
        {
            if self.op_of(first) == Op::EmptyMatch {
                return None;
            }
            return Some(first);
        }
        Some(re)
    }

    /// Go's `removeLeadingRegexp`: drops the leading expression, recycling
    /// it when `reuse` is set.
    fn remove_leading_regexp(&mut self, re: NodeId, reuse: bool) -> NodeId {
        let is_concat = self
            .nodes
            .get(re)
            .is_some_and(|n| n.op == Op::Concat && !n.sub.is_empty());
        if is_concat {
            if reuse {
                let first = self.nodes[re].sub[0];
                self.reuse(first);
            }
            let n = &mut self.nodes[re];
            n.sub.remove(0);
            match n.sub.len() {
                0 => {
                    n.op = Op::EmptyMatch;
                    n.sub.clear();
                }
                1 => {
                    let only = n.sub[0];
                    self.reuse(re);
                    return only;
                }
                _ => {}
            }
            return re;
        }
        if reuse {
            self.reuse(re);
        }
        self.new_regexp(Op::EmptyMatch)
    }

    /// Go's `Regexp.Equal`, without recursion.
    pub(super) fn equal(&self, x: NodeId, y: NodeId) -> bool {
        let mut work = vec![(x, y)];
        while let Some((x, y)) = work.pop() {
            let (Some(a), Some(b)) = (self.nodes.get(x), self.nodes.get(y)) else {
                return false;
            };
            if a.op != b.op {
                return false;
            }
            let same_first = |work: &mut Vec<(NodeId, NodeId)>| match (a.sub.first(), b.sub.first()) {
                (Some(&p), Some(&q)) => {
                    work.push((p, q));
                    true
                }
                (None, None) => true,
                _ => false,
            };
            let same = match a.op {
                Op::EndText => a.flags & WAS_DOLLAR == b.flags & WAS_DOLLAR,
                Op::Literal | Op::CharClass => a.flags & FOLD_CASE == b.flags & FOLD_CASE && a.runes == b.runes,
                Op::Alternate | Op::Concat => {
                    work.extend(a.sub.iter().copied().zip(b.sub.iter().copied()));
                    a.sub.len() == b.sub.len()
                }
                Op::Star | Op::Plus | Op::Quest => {
                    a.flags & NON_GREEDY == b.flags & NON_GREEDY && same_first(&mut work)
                }
                Op::Repeat => {
                    a.flags & NON_GREEDY == b.flags & NON_GREEDY
                        && a.min == b.min
                        && a.max == b.max
                        && same_first(&mut work)
                }
                Op::Capture => {
                    let name = |n: (usize, usize)| self.s.get(n.0..n.1).unwrap_or_default();
                    a.cap == b.cap && name(a.name) == name(b.name) && same_first(&mut work)
                }
                _ => true,
            };
            if !same {
                return false;
            }
        }
        true
    }
}
