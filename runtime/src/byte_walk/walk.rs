//! The byte walker: reads a JSON body once and writes the stored object as it goes, pruning,
//! dropping nulls and defaulting by a [`Plan`], with no `Value` built.
//!
//! It handles the common case and gives up ([`Bail`]) on anything else — syntax errors,
//! numbers beyond `f64`, escaped keys, duplicates while they are tracked, deep nesting — so
//! that the `Value` path, the specification, answers those bodies. Skipping is in
//! [`skip`](super::skip), scalars in [`scalars`](super::scalars), metadata in
//! [`meta`](super::meta).

use serde_json::Map;

use kstruct_schema::go::write_string;

use super::meta::Unknown;
use super::paths::Paths;
use super::plan::{Child, Embedded, Node, Plan};
use crate::json::{self, push_decimal};
use crate::objectmeta::{self, GetOptions};
use crate::text;
use crate::texts::TextList;

/// The walker leaves this body to the `Value` path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Bail;

pub(crate) type R<T> = Result<T, Bail>;

/// Deeper than this, the `Value` path (which goes to 10,000 levels on a grown stack) answers.
pub(super) const MAX_DEPTH: usize = 200;

/// How a value is treated.
#[derive(Debug, Clone, Copy)]
enum Mode {
    /// By a schema node; `true` when the node's parent preserves unknown fields through its
    /// `items` (the reference prunes list elements there as if they preserved them too).
    Node(u32, bool),
    /// Without a schema: objects lose every field.
    NoSchema,
    /// Kept as it is (an unknown field under `x-kubernetes-preserve-unknown-fields`).
    Keep,
}

/// What happens to an object member.
#[derive(Debug, Clone, Copy)]
enum Member {
    /// Walked; `true` when the key is an additionalProperties key (its path reads `[key]`
    /// where the coercer writes paths).
    Walk(Mode, bool),
    /// Pruned: skipped, and reported when tracking.
    Drop,
}

/// A member of an object being written: its key, and where its `"key":value` text is in the
/// output (`start == end` for a member that was read and not written).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry<'a> {
    pub key: &'a [u8],
    /// [`text::head`] of the key: most comparisons end there.
    head: u64,
    pub start: usize,
    pub end: usize,
}

impl<'a> Entry<'a> {
    #[inline]
    pub fn new(key: &'a [u8], start: usize, end: usize) -> Entry<'a> {
        Entry::with_head(key, text::head_of(key), start, end)
    }

    /// [`Entry::new`] for a key whose [`text::head_of`] is known.
    #[inline]
    fn with_head(key: &'a [u8], head: u64, start: usize, end: usize) -> Entry<'a> {
        Entry { key, head, start, end }
    }

    #[inline]
    pub fn cmp(&self, other: &Entry<'_>) -> std::cmp::Ordering {
        self.head.cmp(&other.head).then_with(|| self.key.cmp(other.key))
    }

    #[inline]
    pub fn same_key(&self, other: &Entry<'_>) -> bool {
        self.head == other.head && self.key == other.key
    }
}

/// One step of the path to the value being read, for unknown-field paths.
#[derive(Debug, Clone, Copy)]
enum Seg<'a> {
    Key(&'a [u8]),
    /// An additionalProperties key.
    Entry(&'a [u8]),
    Index(usize),
}

/// What the walk of a root object found besides the bytes.
pub(crate) struct Root {
    /// Unknown fields: the first `metadata` of root metadata, in the round trip's order, then
    /// the pruned fields, in byte order.
    pub unknown: TextList,
    /// How many of `unknown` are root metadata's.
    pub metadata: usize,
    /// Unknown fields of embedded resources' metadata, in byte order.
    pub embedded: TextList,
    /// Just past the root object's closing brace.
    pub end: usize,
}

/// One walk over one body.
pub(crate) struct Walker<'a, 'o> {
    pub input: &'a [u8],
    pub pos: usize,
    pub out: &'o mut Vec<u8>,
    /// The plan's nodes (none until the root's apiVersion and kind resolve it) and root.
    nodes: &'a [Node],
    root: Option<u32>,
    pub track: bool,
    /// Set when the output is read back as a `Value` ([`super::value`]): a `float64` that
    /// Go prints as an integer would read back as an `int64`, so the walk bails on one in
    /// the body or in root metadata (plans whose defaults hold one are not walked to a
    /// `Value` at all).
    pub exact_numbers: bool,
    /// Set when the input is a stream's buffered bytes: the walk ends with the root object,
    /// whatever follows it.
    pub prefix: bool,
    pub depth: usize,
    pub entries: Vec<Entry<'a>>,
    /// Bytes being moved by [`reorder`].
    scratch: Vec<u8>,
    /// `(head, index)` of an object's members, for [`close_object`](Self::close_object).
    order: Vec<u128>,
    /// When tracked, the step into the value being read from the container at each depth
    /// ([`step`](Self::step)): the first `depth` are the path to where the walk is.
    path: Vec<Seg<'a>>,
    /// The length of the text of the last path reported through each of its steps: the
    /// next report copies what it shares.
    reported_at: Vec<usize>,
    /// How many of the last reported path's steps are still the first steps of `path`
    /// (the walk has stepped elsewhere only below them).
    unchanged: usize,
    unknown: Paths,
    /// How many unknown fields the last walk on this thread reported, and their bytes: the
    /// next report is sized from it (documents of one stream are alike).
    unknown_size: (usize, usize),
    /// Unknown metadata fields of embedded resources.
    embedded_unknown: Paths,
    /// The unknown fields of the metadata being walked ([`fast_metadata`](Self::fast_metadata)).
    pub(super) meta_unknown: Vec<Unknown<'a>>,
}

/// The walks' working memory, kept between walks on each thread so that a stream of
/// documents allocates it once.
#[derive(Default)]
struct Buffers {
    entries: Vec<Entry<'static>>,
    path: Vec<Seg<'static>>,
    reported_at: Vec<usize>,
    meta_unknown: Vec<Unknown<'static>>,
    scratch: Vec<u8>,
    order: Vec<u128>,
    unknown_size: (usize, usize),
}

thread_local! {
    static BUFFERS: std::cell::RefCell<Buffers> = std::cell::RefCell::default();
}

/// `v` emptied, as a vector of another lifetime: the same allocation (the standard library
/// collects in place when nothing changes size).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
}

impl<'a, 'o> Walker<'a, 'o> {
    /// A walk of `input`, appending to `out`; unknown fields are reported when `track` is set.
    pub fn new(input: &'a [u8], out: &'o mut Vec<u8>, track: bool) -> Walker<'a, 'o> {
        let buffers = BUFFERS.with(|b| std::mem::take(&mut *b.borrow_mut()));
        Walker {
            input,
            pos: 0,
            out,
            nodes: &[],
            root: None,
            track,
            exact_numbers: false,
            prefix: false,
            depth: 0,
            entries: recycle(buffers.entries),
            scratch: buffers.scratch,
            order: buffers.order,
            path: recycle(buffers.path),
            reported_at: recycle(buffers.reported_at),
            unchanged: 0,
            unknown: match buffers.unknown_size {
                (n, bytes) if track => Paths::with_room(n + n / 4, bytes + bytes / 4),
                _ => Paths::default(),
            },
            unknown_size: buffers.unknown_size,
            embedded_unknown: Paths::default(),
            meta_unknown: recycle(buffers.meta_unknown),
        }
    }

    /// Walks the body: a root object whose `apiVersion` and `kind` are strings, resolved to a
    /// plan by `resolve` (`None`: not for this walker).
    pub fn root(&mut self, resolve: &mut dyn FnMut(&str, &str) -> Option<&'a Plan>) -> R<Root> {
        self.ws();
        if self.peek() != Some(b'{') {
            return Err(Bail);
        }
        self.pos += 1;
        self.depth = 1;
        self.out.push(b'{');
        let obj_start = self.out.len();
        let base = self.entries.len();
        // The root's `apiVersion`, `kind` and `metadata` are written apart from its node's
        // properties: its members are ordered by their keys.
        let mut ranked = Ranked::keyed();
        let (mut api_version, mut kind): (Option<String>, Option<String>) = (None, None);
        let mut metadata: Option<(usize, usize)> = None;
        // Where root metadata's unknown fields are among `self.unknown`'s paths.
        let mut meta_unknown: Option<(usize, usize)> = None;
        self.ws();
        if self.peek() == Some(b'}') {
            return Err(Bail);
        }
        loop {
            let key = self.key()?;
            match key {
                b"apiVersion" | b"kind" => {
                    let slot = if key == b"kind" { &mut kind } else { &mut api_version };
                    let text = self.type_meta(slot)?;
                    let start = self.begin_member(obj_start, key);
                    write_string(self.out, text);
                    self.entries.push(Entry::new(key, start, self.out.len()));
                }
                b"metadata" => {
                    if metadata.is_some() || meta_unknown.is_some() {
                        return Err(Bail);
                    }
                    let (pos, len, entries, depth) = (self.pos, self.out.len(), self.entries.len(), self.depth);
                    let mut paths = std::mem::take(&mut self.unknown);
                    let first = paths.size().0;
                    let walked = self.fast_metadata(obj_start, None, &mut paths);
                    self.unknown = paths;
                    match walked {
                        Ok(n) => {
                            meta_unknown = Some((first, n));
                            self.reported_at.clear();
                            self.unchanged = 0;
                        }
                        Err(Bail) => {
                            // Rare metadata: the round trip through a `Value` of it alone.
                            (self.pos, self.depth) = (pos, depth);
                            self.out.truncate(len);
                            self.entries.truncate(entries);
                            self.skip(false)?;
                            metadata = Some((pos, self.pos));
                        }
                    }
                }
                _ => {
                    // Only these lengths fold to `kind` or `apiVersion` (the Kelvin sign and
                    // the long s are longer than the letters they fold with).
                    if (key.len() >= 4 && !key.is_ascii() || key.len() == 4 || key.len() == 10)
                        && std::str::from_utf8(key).is_ok_and(json::folds_to_type_meta)
                    {
                        return Err(Bail);
                    }
                    if self.root.is_none() {
                        let plan = match (&api_version, &kind) {
                            (Some(v), Some(k)) => resolve(v, k),
                            _ => {
                                let (v, k) = self.look_ahead(api_version.clone(), kind.clone())?;
                                resolve(&v, &k)
                            }
                        };
                        self.resolved(plan.ok_or(Bail)?);
                    }
                    let head = text::head_of(key);
                    let member = self.classify(Mode::Node(self.root_node()?, false), key, head);
                    self.member(obj_start, key, head, member, &mut ranked)?;
                }
            }
            if !self.next_member(b'}')? {
                break;
            }
        }
        let end = self.pos;
        if !self.prefix {
            self.ws();
            if self.pos != self.input.len() {
                return Err(Bail);
            }
        }
        if self.root.is_none() {
            let (Some(v), Some(k)) = (&api_version, &kind) else {
                return Err(Bail);
            };
            self.resolved(resolve(v, k).ok_or(Bail)?);
        }
        if let Some((start, end)) = metadata {
            let first = self.unknown.size().0;
            for p in self.metadata(obj_start, start, end)? {
                self.unknown.push(p.as_bytes());
            }
            meta_unknown = Some((first, self.unknown.size().0 - first));
        }
        self.defaults(self.root_node()?, &mut ranked, base, obj_start)?;
        self.close_object(base, obj_start)?;
        let (mut unknown, mut embedded) = (TextList::new(), TextList::new());
        let (first, metadata) = meta_unknown.unwrap_or_default();
        if self.track && self.unknown.size().0 > 0 {
            let mut paths = std::mem::take(&mut self.unknown);
            self.unknown_size = paths.size();
            paths.move_to_front(first, metadata);
            paths.sort(metadata, &mut self.order);
            unknown = paths.into_list().ok_or(Bail)?;
        }
        if self.embedded_unknown.size().0 > 0 {
            let mut paths = std::mem::take(&mut self.embedded_unknown);
            paths.sort(0, &mut self.order);
            embedded = paths.into_list().ok_or(Bail)?;
        }
        Ok(Root {
            unknown,
            metadata,
            embedded,
            end,
        })
    }

    /// The root's `apiVersion` and `kind`, read ahead from the current member on (after
    /// `seen`, what was read before it).
    fn look_ahead(&mut self, seen_version: Option<String>, seen_kind: Option<String>) -> R<(String, String)> {
        let back = self.pos;
        let (mut api_version, mut kind) = (seen_version, seen_kind);
        self.skip(false)?;
        loop {
            self.ws();
            match self.peek() {
                Some(b',') => {
                    self.pos += 1;
                    self.ws();
                }
                _ => break,
            }
            let key = self.key()?;
            match key {
                b"apiVersion" => self.type_meta(&mut api_version)?,
                b"kind" => self.type_meta(&mut kind)?,
                _ => {
                    self.skip(false)?;
                    continue;
                }
            };
        }
        self.pos = back;
        match (api_version, kind) {
            (Some(v), Some(k)) => Ok((v, k)),
            _ => Err(Bail),
        }
    }

    /// The root's `apiVersion` or `kind`, read into its `slot` (which must be empty: the
    /// pre-parse's reading of repeats is the `Value` path's); a string, or the `Value` path.
    fn type_meta<'s>(&mut self, slot: &'s mut Option<String>) -> R<&'s str> {
        if slot.is_some() {
            return Err(Bail);
        }
        Ok(slot.insert(self.str_value()?.into_owned()))
    }

    /// The root metadata (the value at `input[start..end]`), round-tripped through ObjectMeta
    /// as the coercer does, written as a member; its unknown fields.
    fn metadata(&mut self, obj_start: usize, start: usize, end: usize) -> R<Vec<String>> {
        let decoded = json::decode(&self.input[start..end]).map_err(|_| Bail)?;
        if self.track && !decoded.duplicates.is_empty() {
            return Err(Bail);
        }
        let mut map = Map::new();
        map.insert("metadata".to_string(), decoded.value);
        let get = GetOptions {
            drop_malformed_fields: false,
            return_unknown_field_paths: self.track,
            parent_path: None,
        };
        let found = objectmeta::get_object_meta(&map, &get).map_err(|_| Bail)?;
        json::dispose(serde_json::Value::Object(map));
        if let Some(meta) = found.meta {
            let meta = meta.to_value();
            // `managedFields` keep their `fieldsV1` as written, floats included.
            if self.exact_numbers && !super::value::reads_back(&meta) {
                return Err(Bail);
            }
            let at = self.begin_member(obj_start, b"metadata");
            let mut text = String::new();
            kstruct_schema::go::write_json(&mut text, &meta);
            self.out.extend_from_slice(text.as_bytes());
            self.entries.push(Entry::new(b"metadata", at, self.out.len()));
        }
        Ok(found.unknown_fields)
    }

    /// After a member or element: past a `,` (and the white space after it), `true`; past
    /// `close`, `false`.
    #[inline]
    pub(super) fn next_member(&mut self, close: u8) -> R<bool> {
        // Compact bodies have the separator next: white space is looked for only if not.
        let mut c = self.peek();
        if !matches!(c, Some(b',')) && c != Some(close) {
            self.ws();
            c = self.peek();
        }
        match c {
            Some(b',') => {
                self.pos += 1;
                self.ws();
                Ok(true)
            }
            Some(c) if c == close => {
                self.pos += 1;
                Ok(false)
            }
            _ => Err(Bail),
        }
    }

    fn resolved(&mut self, plan: &'a Plan) {
        self.nodes = &plan.nodes;
        self.root = Some(plan.root);
    }

    fn root_node(&self) -> R<u32> {
        self.root.ok_or(Bail)
    }

    #[inline]
    fn node(&self, n: u32) -> R<&'a Node> {
        self.nodes.get(n as usize).ok_or(Bail)
    }

    #[inline]
    pub(super) fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    #[inline]
    pub(super) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.input.get(self.pos) {
            self.pos += 1;
        }
    }

    pub(super) fn enter(&mut self) -> R<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(Bail) } else { Ok(()) }
    }

    /// Reads `"key"`, the `:` and the white space after it. Keys with escapes or invalid
    /// UTF-8 are left to the `Value` path.
    #[inline(always)]
    pub(super) fn key(&mut self) -> R<&'a [u8]> {
        if self.peek() != Some(b'"') {
            return Err(Bail);
        }
        let b = self.input;
        let start = self.pos + 1;
        let (i, high) = text::key_run(b, start);
        if b.get(i) != Some(&b'"') {
            return Err(Bail);
        }
        let key = &b[start..i];
        if high && std::str::from_utf8(key).is_err() {
            return Err(Bail);
        }
        self.pos = i + 1;
        if self.peek() != Some(b':') {
            self.ws();
            if self.peek() != Some(b':') {
                return Err(Bail);
            }
        }
        self.pos += 1;
        self.ws();
        Ok(key)
    }

    /// What a member with `key` is, in an object treated as `mode`; the property's index.
    #[inline]
    fn classify(&self, mode: Mode, key: &[u8], head: u64) -> (Member, Option<(usize, &'a [u8])>) {
        match mode {
            Mode::Keep => (Member::Walk(Mode::Keep, false), None),
            Mode::NoSchema => (Member::Drop, None),
            Mode::Node(n, forced) => {
                let Ok(node) = self.node(n) else {
                    return (Member::Drop, None);
                };
                if let Some(i) = node.find(key, head) {
                    let p = &node.props[i];
                    return (Member::Walk(Mode::Node(p.node, false), false), Some((i, &p.label)));
                }
                let member = match node.additional {
                    Child::Node(a) => Member::Walk(Mode::Node(a, false), true),
                    Child::NoSchema => Member::Walk(Mode::NoSchema, true),
                    Child::Absent if node.preserve || forced => Member::Walk(Mode::Keep, true),
                    Child::Absent => Member::Drop,
                };
                (member, None)
            }
        }
    }

    /// Writes the separator and `"key":` (a key read from the input, so valid UTF-8); where
    /// the member starts.
    #[inline(always)]
    pub(super) fn begin_member(&mut self, obj_start: usize, key: &[u8]) -> usize {
        if self.out.len() > obj_start {
            self.out.push(b',');
        }
        let start = self.out.len();
        if text::plain_key(key) {
            self.out.push(b'"');
            self.out.extend_from_slice(key);
            self.out.push(b'"');
        } else {
            write_string(self.out, &String::from_utf8_lossy(key));
        }
        self.out.push(b':');
        start
    }

    /// Writes the separator and a property's `"key":` as printed in the plan.
    #[inline]
    fn begin_label(&mut self, obj_start: usize, label: &[u8]) -> usize {
        if self.out.len() > obj_start {
            self.out.push(b',');
        }
        let start = self.out.len();
        self.out.extend_from_slice(label);
        start
    }

    /// One member whose key has been read, noted in `ranked`.
    #[inline]
    fn member(
        &mut self,
        obj_start: usize,
        key: &'a [u8],
        head: u64,
        (member, prop): (Member, Option<(usize, &'a [u8])>),
        ranked: &mut Ranked,
    ) -> R<()> {
        let live = match member {
            Member::Drop => {
                if self.track {
                    self.report(key);
                }
                self.skip(self.track)?;
                false
            }
            Member::Walk(mode, entry) => self.field(obj_start, key, head, prop.map(|(_, label)| label), mode, entry)?,
        };
        if !live {
            self.entries.push(Entry::with_head(key, head, 0, 0));
        }
        match prop {
            Some((i, _)) if i < 64 => ranked.property(i, live, self.entries.len() - 1, self.track),
            _ => {
                ranked.other(live);
                Ok(())
            }
        }
    }

    /// A kept member (`label`: a property's printed key); false when it is a `null` that is
    /// dropped.
    #[inline]
    fn field(
        &mut self,
        obj_start: usize,
        key: &'a [u8],
        head: u64,
        label: Option<&[u8]>,
        mode: Mode,
        entry: bool,
    ) -> R<bool> {
        if let Mode::Node(c, _) = mode
            && self.peek() == Some(b'n')
        {
            let node = self.node(c)?;
            if !node.nullable {
                self.literal(b"null")?;
                let Some(d) = &node.default else {
                    return Ok(false);
                };
                let start = match label {
                    Some(l) => self.begin_label(obj_start, l),
                    None => self.begin_member(obj_start, key),
                };
                self.out.extend_from_slice(d);
                self.entries.push(Entry::with_head(key, head, start, self.out.len()));
                return Ok(true);
            }
        }
        let start = match label {
            Some(l) => self.begin_label(obj_start, l),
            None => self.begin_member(obj_start, key),
        };
        if self.track && self.at_container() {
            self.step(if entry { Seg::Entry(key) } else { Seg::Key(key) });
        }
        self.value(mode)?;
        self.entries.push(Entry::with_head(key, head, start, self.out.len()));
        Ok(true)
    }

    /// Whether the value read next is an object or a list: paths are reported only below
    /// those, so only steps into them are noted (most values are scalars).
    #[inline(always)]
    fn at_container(&self) -> bool {
        matches!(self.peek(), Some(b'{' | b'['))
    }

    /// Notes the step from the container being read to the value read next. Steps are kept
    /// by depth, so that nothing is taken off when the value has been read.
    #[inline]
    fn step(&mut self, seg: Seg<'a>) {
        let d = self.depth;
        // The step at `d` is the `d - 1`th of a reported path (`steps`).
        self.unchanged = self.unchanged.min(d - 1);
        if let Some(s) = self.path.get_mut(d) {
            *s = seg;
        } else {
            self.path.resize(d, Seg::Index(0));
            self.path.push(seg);
        }
    }

    /// Records the pruned field `key` of the current object, with its path as the pruner
    /// writes it (`spec.ports[0].name`).
    fn report(&mut self, key: &[u8]) {
        let path = steps(&self.path, self.depth);
        // Reports come object by object: the last path's text is copied as far as its steps
        // are this one's (those the walk has not stepped away from since), and only the rest
        // is written.
        let shared = self.unchanged.min(path.len()).min(self.reported_at.len());
        let kept = shared.checked_sub(1).map_or(0, |i| self.reported_at[i]);
        let start = self.unknown.begin_as_last(kept);
        self.reported_at.truncate(shared);
        let p = self.unknown.text();
        for (i, seg) in path.iter().enumerate().skip(shared) {
            push_step(p, seg, i == 0, false);
            self.reported_at.push(p.len() - start);
        }
        self.unchanged = path.len();
        if !path.is_empty() {
            p.push(b'.');
        }
        p.extend_from_slice(key);
        self.unknown.end(start);
    }

    /// Where the walk is, as the coercer writes paths: the prefix of an embedded resource's
    /// unknown metadata fields.
    pub(super) fn coerce_path(&self) -> R<String> {
        let mut p = Vec::with_capacity(64);
        path_text(steps(&self.path, self.depth), true, &mut p);
        String::from_utf8(p).map_err(|_| Bail)
    }

    /// A value kept as it is, written as the API server writes it.
    pub(super) fn kept_value(&mut self) -> R<()> {
        self.value(Mode::Keep)
    }

    /// A value, written as the API server writes it after treating it as `mode`.
    fn value(&mut self, mode: Mode) -> R<()> {
        match self.peek() {
            Some(b'{') => {
                let embedded = match mode {
                    Mode::Node(n, _) => self.node(n)?.embedded,
                    _ => Embedded::No,
                };
                match embedded {
                    Embedded::No => self.object(mode, false),
                    Embedded::Yes => self.object(mode, true),
                    Embedded::Busy => Err(Bail),
                }
            }
            Some(b'[') => self.array(mode),
            Some(b'"') => self.string(),
            Some(b't') => self.copy_literal(b"true"),
            Some(b'f') => self.copy_literal(b"false"),
            Some(b'n') => self.copy_literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(true),
            _ => Err(Bail),
        }
    }

    /// An object; an `embedded` resource's `apiVersion` and `kind` must be strings, and its
    /// `metadata` goes through ObjectMeta as the coercer sends it.
    fn object(&mut self, mode: Mode, embedded: bool) -> R<()> {
        self.enter()?;
        self.pos += 1;
        self.out.push(b'{');
        let obj_start = self.out.len();
        let base = self.entries.len();
        let mut ranked = match mode {
            Mode::Node(n, _) if !embedded && self.node(n)?.props.len() <= 64 => Ranked::new(base),
            _ => Ranked::keyed(),
        };
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                let key = self.key()?;
                let head = text::head_of(key);
                let member = self.classify(mode, key, head);
                if embedded && matches!(key, b"apiVersion" | b"kind" | b"metadata") {
                    self.embedded_meta(obj_start, key)?;
                    if let (_, Some((i, _))) = member
                        && i < 64
                    {
                        ranked.written |= 1 << i;
                    }
                } else {
                    self.member(obj_start, key, head, member, &mut ranked)?;
                }
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        if let Mode::Node(n, _) = mode {
            self.defaults(n, &mut ranked, base, obj_start)?;
        }
        self.close_ranked(base, obj_start, &ranked)?;
        self.depth -= 1;
        Ok(())
    }

    /// Closes an object whose members were noted in `ranked`: by
    /// [`close_object`](Self::close_object) when they must be ordered by their keys, else
    /// in their properties' order (all written members are among the first 64 properties of
    /// the object's node or, in metadata, its known fields), so no key is compared. When
    /// tracked, a property read twice has bailed already, and the members read and not
    /// written that are not properties are checked for repeats here.
    #[inline(always)]
    pub(super) fn close_ranked(&mut self, base: usize, obj_start: usize, ranked: &Ranked) -> R<()> {
        if ranked.by_keys {
            return self.close_object(base, obj_start);
        }
        if self.track && ranked.dropped >= 2 {
            let entries = &self.entries[base..];
            let repeated = entries
                .iter()
                .enumerate()
                .any(|(i, e)| e.start == e.end && entries[..i].iter().any(|d| d.start == d.end && d.same_key(e)));
            if repeated {
                return Err(Bail);
            }
        }
        if !ranked.in_order {
            let order = &mut self.order;
            order.clear();
            let mut bits = ranked.written;
            while bits != 0 {
                let e = &self.entries[base + usize::from(ranked.slot[bits.trailing_zeros() as usize])];
                order.push(((e.start as u128) << 64) | e.end as u128);
                bits &= bits - 1;
            }
            reorder(self.out, &mut self.scratch, obj_start, order);
        }
        self.entries.truncate(base);
        self.out.push(b'}');
        Ok(())
    }

    /// An embedded resource's `apiVersion` or `kind` (a string, kept as it is) or `metadata`
    /// (round-tripped through ObjectMeta, its unknown fields reported at the coercer's path).
    fn embedded_meta(&mut self, obj_start: usize, key: &'a [u8]) -> R<()> {
        if key == b"metadata" {
            let prefix = if self.track { Some(self.coerce_path()?) } else { None };
            let mut paths = std::mem::take(&mut self.embedded_unknown);
            let walked = self.fast_metadata(obj_start, prefix.as_deref(), &mut paths);
            self.embedded_unknown = paths;
            return walked.map(drop);
        }
        if self.peek() != Some(b'"') {
            return Err(Bail);
        }
        let start = self.begin_member(obj_start, key);
        self.string()?;
        self.entries.push(Entry::new(key, start, self.out.len()));
        Ok(())
    }

    /// Appends the defaults of node `n`'s properties that the object lacks.
    fn defaults(&mut self, n: u32, ranked: &mut Ranked, base: usize, obj_start: usize) -> R<()> {
        let node = self.node(n)?;
        for &i in node.defaulted.iter() {
            let p = &node.props[i as usize];
            let here = if i < 64 {
                ranked.written & (1 << i) != 0
            } else {
                self.entries[base..]
                    .iter()
                    .rev()
                    .find(|e| e.key == &*p.key)
                    .is_some_and(|e| e.start < e.end)
            };
            if here {
                continue;
            }
            let Some(member) = &p.member else { continue };
            if self.out.len() > obj_start {
                self.out.push(b',');
            }
            let start = self.out.len();
            self.out.extend_from_slice(member);
            self.entries.push(Entry::new(&p.key, start, self.out.len()));
            if i < 64 {
                ranked.property(i as usize, true, self.entries.len() - 1, false)?;
            } else {
                ranked.other(true);
            }
        }
        Ok(())
    }

    /// Whether the keys read into the entries since `base` repeat one another; the entries are
    /// dropped.
    pub(super) fn repeated_since(&mut self, base: usize) -> bool {
        let keys = &mut self.entries[base..];
        let repeated = if keys.len() <= 12 {
            // Most objects are small: comparing every pair by head costs less than sorting.
            (1..keys.len()).any(|i| keys[..i].iter().any(|k| k.same_key(&keys[i])))
        } else {
            keys.sort_unstable_by(Entry::cmp);
            keys.windows(2).any(|w| w[0].same_key(&w[1]))
        };
        self.entries.truncate(base);
        repeated
    }

    /// Puts the members written since `obj_start` in key order (the last of repeated keys
    /// wins) and closes the object. The order is found by sorting `(head, index)` numbers,
    /// which costs less than sorting entries by their keys; only keys alike in their first
    /// eight bytes are then compared in full.
    pub(super) fn close_object(&mut self, base: usize, obj_start: usize) -> R<()> {
        let entries = &self.entries[base..];
        if !entries.windows(2).all(|w| w[0].cmp(&w[1]).is_lt()) {
            let order = &mut self.order;
            order.clear();
            order.extend(
                entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (u128::from(e.head) << 64) | i as u128),
            );
            order.sort_unstable();
            let entry = |o: u128| &entries[o as u64 as usize];
            if order.windows(2).any(|w| w[0] >> 64 == w[1] >> 64) {
                // Keys alike in their first eight bytes: by the rest of the key, and of a
                // repeated key the last one read first, the one that stays.
                for alike in order.chunk_by_mut(|a, b| a >> 64 == b >> 64) {
                    alike.sort_unstable_by(|&a, &b| entry(a).key.cmp(entry(b).key).then(b.cmp(&a)));
                }
                let before = order.len();
                order.dedup_by(|a, b| entry(*a).key == entry(*b).key);
                if self.track && order.len() < before {
                    return Err(Bail);
                }
            }
            for o in order.iter_mut() {
                let e = entry(*o);
                *o = ((e.start as u128) << 64) | e.end as u128;
            }
            reorder(self.out, &mut self.scratch, obj_start, order);
        }
        self.entries.truncate(base);
        self.out.push(b'}');
        Ok(())
    }

    fn array(&mut self, mode: Mode) -> R<()> {
        self.enter()?;
        self.pos += 1;
        self.out.push(b'[');
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            self.out.push(b']');
            self.depth -= 1;
            return Ok(());
        }
        let elements = match mode {
            Mode::Node(n, forced) => {
                let node = self.node(n)?;
                let preserve = node.preserve || forced;
                match node.items {
                    Child::Node(i) => Mode::Node(i, preserve),
                    _ if preserve => Mode::Keep,
                    _ => Mode::NoSchema,
                }
            }
            other => other,
        };
        let mut index = 0;
        loop {
            if index > 0 {
                self.out.push(b',');
            }
            if self.track && self.at_container() {
                self.step(Seg::Index(index));
            }
            let mut done = false;
            if let Mode::Node(c, _) = elements
                && self.peek() == Some(b'n')
            {
                let node = self.node(c)?;
                if !node.nullable {
                    self.literal(b"null")?;
                    let d = node.default.as_deref().unwrap_or(b"null");
                    self.out.extend_from_slice(d);
                    done = true;
                }
            }
            if !done {
                self.value(elements)?;
            }
            index += 1;
            if !self.next_member(b']')? {
                break;
            }
        }
        self.out.push(b']');
        self.depth -= 1;
        Ok(())
    }
}

/// The steps to the object or array being read at `depth`, of a walker's `path` (a function of
/// the field alone, so that the walker's other fields can change while they are read).
#[inline]
fn steps<'p, 's>(path: &'p [Seg<'s>], depth: usize) -> &'p [Seg<'s>] {
    path.get(1..depth).unwrap_or_default()
}

/// `path` as text: as the pruner writes it (`spec.byName.a.items[0]`), or, with `coercer`, as
/// the coercer does (`spec.byName[a].items[0]`, an empty property as `[]`). Keys beyond ASCII
/// were checked as UTF-8 when read.
fn path_text(path: &[Seg<'_>], coercer: bool, p: &mut Vec<u8>) {
    for (i, seg) in path.iter().enumerate() {
        push_step(p, seg, i == 0, coercer);
    }
}

/// One step of a path, as [`path_text`] writes it (`first`: the path's first step).
#[inline(always)]
fn push_step(p: &mut Vec<u8>, seg: &Seg<'_>, first: bool, coercer: bool) {
    match *seg {
        Seg::Key([]) if coercer => p.extend_from_slice(b"[]"),
        Seg::Entry(k) if coercer => {
            p.push(b'[');
            p.extend_from_slice(k);
            p.push(b']');
        }
        Seg::Key(k) | Seg::Entry(k) => {
            if !first {
                p.push(b'.');
            }
            p.extend_from_slice(k);
        }
        Seg::Index(n) => {
            p.push(b'[');
            push_decimal(p, n);
            p.push(b']');
        }
    }
}

/// What an object's members tell of their order, noted as they are read: while the members
/// written are all among the first 64 properties of the object's node (sorted by key), their
/// order is their properties' order, and a bit per property finds it without comparing keys
/// ([`Walker::close_ranked`]).
pub(super) struct Ranked {
    /// The members are ordered by their keys ([`Walker::close_object`]): a member that is not
    /// one of the first 64 properties was written, or the object is not a node's.
    by_keys: bool,
    /// The properties written (a repeat that is dropped unwrites one).
    written: u64,
    /// The properties read, when tracked.
    seen: u64,
    /// Each written property's entry, counted from the object's first.
    slot: [u8; 64],
    /// The object's first entry.
    base: usize,
    /// One past the index of the property written last.
    last: usize,
    /// The output holds the written members in their properties' order, and nothing else.
    in_order: bool,
    /// Members read and not written, when tracked.
    dropped: usize,
}

impl Ranked {
    /// An object of a node's, whose entries start at `base`.
    pub(super) fn new(base: usize) -> Ranked {
        Ranked {
            by_keys: false,
            written: 0,
            seen: 0,
            slot: [0; 64],
            base,
            last: 0,
            in_order: true,
            dropped: 0,
        }
    }

    /// An object whose members are ordered by their keys (the properties written still
    /// noted, for its defaults).
    fn keyed() -> Ranked {
        Ranked {
            by_keys: true,
            ..Ranked::new(0)
        }
    }

    /// Property `i` (< 64), `live` when written, its entry at index `at`. A
    /// property read twice is a repeated key: the `Value` path's to report when tracked.
    #[inline]
    pub(super) fn property(&mut self, i: usize, live: bool, at: usize, track: bool) -> R<()> {
        let bit = 1u64 << i;
        if track {
            if self.seen & bit != 0 {
                return Err(Bail);
            }
            self.seen |= bit;
            self.dropped += usize::from(!live);
        }
        if !live {
            // A repeat that is dropped: the first one's bytes go.
            self.in_order &= self.written & bit == 0;
            self.written &= !bit;
            return Ok(());
        }
        match u8::try_from(at - self.base) {
            Ok(slot) => self.slot[i] = slot,
            Err(_) => self.by_keys = true,
        }
        // A repeat comes at or before the last: its first one's bytes go.
        self.in_order &= i >= self.last;
        self.last = i + 1;
        self.written |= bit;
        Ok(())
    }

    /// A member that is not one of the first 64 properties, `live` when written.
    #[inline]
    pub(super) fn other(&mut self, live: bool) {
        self.by_keys |= live;
        self.dropped += usize::from(!live);
    }
}

/// Rewrites the object begun at `obj_start` (the tail of `out`) as the members at `spans`
/// (ranges of `out` as `start << 64 | end`, in their new order; empty ones are members not
/// written), separated by commas. The members already in place at the start stay where they
/// are.
fn reorder(out: &mut Vec<u8>, scratch: &mut Vec<u8>, obj_start: usize, spans: &[u128]) {
    let span = |s: u128| ((s >> 64) as usize, s as u64 as usize);
    // Where the members in place end: each starts where the one before it ends, after its
    // comma.
    let mut kept = obj_start;
    let mut i = 0;
    while let Some(&s) = spans.get(i) {
        let (start, end) = span(s);
        if start == end {
            i += 1;
            continue;
        }
        if start != kept + usize::from(kept > obj_start) {
            break;
        }
        kept = end;
        i += 1;
    }
    scratch.clear();
    scratch.extend_from_slice(&out[kept..]);
    out.truncate(kept);
    for &s in &spans[i..] {
        let (start, end) = span(s);
        if start < end {
            if out.len() > obj_start {
                out.push(b',');
            }
            text::append(out, scratch, start - kept, end - kept);
        }
    }
}

impl Drop for Walker<'_, '_> {
    fn drop(&mut self) {
        let buffers = Buffers {
            entries: recycle(std::mem::take(&mut self.entries)),
            path: recycle(std::mem::take(&mut self.path)),
            reported_at: recycle(std::mem::take(&mut self.reported_at)),
            meta_unknown: recycle(std::mem::take(&mut self.meta_unknown)),
            scratch: std::mem::take(&mut self.scratch),
            order: std::mem::take(&mut self.order),
            unknown_size: self.unknown_size,
        };
        BUFFERS.with(|b| *b.borrow_mut() = buffers);
    }
}
