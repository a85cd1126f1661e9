//! The root `metadata` read from bytes: what the API server's round trip through
//! `metav1.ObjectMeta` makes of it (unknown keys dropped and reported, empty fields omitted,
//! timestamps re-rendered in UTC), written without a `Value` or an `ObjectMeta` in between.
//!
//! Anything the round trip could refuse (a field of the wrong type, an unparsable time, a
//! repeated key while tracked) or that is rare enough not to be worth a second
//! implementation (`null` list elements, a field read twice in an owner reference) gives up,
//! and the walker falls back
//! to [`objectmeta::get_object_meta`](crate::objectmeta::get_object_meta) on a `Value` of the
//! metadata alone.

use std::borrow::Cow;

use kstruct_schema::go::write_string;

use super::paths::Paths;
use super::walk::{Bail, Entry, R, Ranked, Walker};
use crate::json::push_decimal;
use crate::objectmeta::Time;

/// An unknown field of the metadata: `(key, 0, "")` at its top, or `(b"ownerReferences",
/// index + 1, key)` in an owner reference. Sorting these gives the order the round trip
/// reports them in (keys in byte order, list elements by index).
pub(super) type Unknown<'a> = (&'a [u8], usize, &'a [u8]);

/// A field of an object of ObjectMeta's, read: its rank (its key's place in the byte order of
/// the object's known keys) and where its member starts if it was written; `None` for an
/// unknown field.
type Field = Option<(usize, Option<usize>)>;

/// The field of rank `rank`, read by `read` (which answers where it wrote its member).
#[inline]
fn ranked(rank: usize, read: R<Option<usize>>) -> R<Field> {
    read.map(|start| Some((rank, start)))
}

/// The round trip reports at most this many unknown fields (one strict decoding call); more
/// go the `Value` path.
const MAX_UNKNOWN: usize = crate::json::MAX_STRICT_ERRORS;

impl<'a> Walker<'a, '_> {
    /// The value of a `metadata` member (read from the current position), written as a member
    /// of the object begun at `obj_start`; the paths of its unknown fields, below `prefix` (an
    /// embedded resource's path; `None` at the root), appended to `paths` in the order the
    /// round trip reports them: how many.
    pub(super) fn fast_metadata(&mut self, obj_start: usize, prefix: Option<&str>, paths: &mut Paths) -> R<usize> {
        if self.peek() != Some(b'{') {
            return Err(Bail);
        }
        let start = self.begin_member(obj_start, b"metadata");
        let mut unknown = std::mem::take(&mut self.meta_unknown);
        // Ranks are the fields' places in key order, as the round trip writes them.
        let walked = self.meta_object(|w, inner, key| match key {
            b"annotations" => ranked(0, w.meta_map(inner, key)),
            b"creationTimestamp" => ranked(1, w.meta_time(inner, key, true)),
            b"deletionGracePeriodSeconds" => ranked(2, w.meta_int(inner, key, false)),
            b"deletionTimestamp" => ranked(3, w.meta_time(inner, key, false)),
            b"finalizers" => ranked(4, w.meta_strings(inner, key)),
            b"generateName" => ranked(5, w.meta_string(inner, key)),
            b"generation" => ranked(6, w.meta_int(inner, key, true)),
            b"labels" => ranked(7, w.meta_map(inner, key)),
            b"managedFields" => ranked(
                8,
                w.meta_list(inner, key, |w, index| w.managed_fields_entry(key, index, &mut unknown)),
            ),
            b"name" => ranked(9, w.meta_string(inner, key)),
            b"namespace" => ranked(10, w.meta_string(inner, key)),
            b"ownerReferences" => ranked(
                11,
                w.meta_list(inner, key, |w, index| w.owner_reference(key, index, &mut unknown)),
            ),
            b"resourceVersion" => ranked(12, w.meta_string(inner, key)),
            b"selfLink" => ranked(13, w.meta_string(inner, key)),
            b"uid" => ranked(14, w.meta_string(inner, key)),
            _ => {
                w.skip(w.track)?;
                unknown.push((key, 0, b""));
                Ok(None)
            }
        });
        let written = walked.and_then(|()| {
            let end = self.out.len();
            self.entries.push(Entry::new(b"metadata", start, end));
            if !self.track {
                return Ok(0);
            }
            if unknown.len() > MAX_UNKNOWN {
                return Err(Bail);
            }
            unknown.sort_unstable();
            for &(key, index, sub) in &unknown {
                // `<prefix>.metadata.<key>`, or `...<key>[<index>].<sub>` in an owner reference.
                let start = paths.begin();
                let p = paths.text();
                if let Some(prefix) = prefix {
                    p.extend_from_slice(prefix.as_bytes());
                    p.push(b'.');
                }
                p.extend_from_slice(b"metadata.");
                p.extend_from_slice(key);
                if index > 0 {
                    p.push(b'[');
                    push_decimal(p, index - 1);
                    p.extend_from_slice(b"].");
                    p.extend_from_slice(sub);
                }
                paths.end(start);
            }
            Ok(unknown.len())
        });
        unknown.clear();
        self.meta_unknown = unknown;
        written
    }

    /// A string field: omitted when empty or `null`.
    fn meta_string(&mut self, obj_start: usize, key: &[u8]) -> R<Option<usize>> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                Ok(None)
            }
            Some(b'"') if self.input.get(self.pos + 1) == Some(&b'"') => {
                self.pos += 2;
                Ok(None)
            }
            Some(b'"') => {
                let start = self.begin_member(obj_start, key);
                self.string()?;
                Ok(Some(start))
            }
            _ => Err(Bail),
        }
    }

    /// An `int64` field written as an integer literal: `generation` is omitted when zero,
    /// `deletionGracePeriodSeconds` only when `null`.
    fn meta_int(&mut self, obj_start: usize, key: &[u8], omit_zero: bool) -> R<Option<usize>> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return Ok(None);
        }
        let at = self.pos;
        let n = self.int_literal()?;
        if n == 0 && omit_zero {
            return Ok(None);
        }
        let start = self.begin_member(obj_start, key);
        if n == 0 {
            // `-0` too.
            self.out.push(b'0');
        } else {
            // An integer literal (no fraction, exponent or leading zero) prints as written.
            self.out.extend_from_slice(&self.input[at..self.pos]);
        }
        Ok(Some(start))
    }

    /// A time: `creationTimestamp` omitted when zero or `null`, `deletionTimestamp` when
    /// `null` (a zero one is written as `null`).
    fn meta_time(&mut self, obj_start: usize, key: &[u8], creation: bool) -> R<Option<usize>> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            return Ok(None);
        }
        // Most times come as the round trip writes them: checked, and copied as they are.
        if let Some(quoted) = self.input.get(self.pos..self.pos + 22)
            && quoted[0] == b'"'
            && quoted[21] == b'"'
            && let Some(zero) = Time::utc_seconds_is_zero(&quoted[1..21])
        {
            self.pos += 22;
            if zero && creation {
                return Ok(None);
            }
            let start = self.begin_member(obj_start, key);
            self.out.extend_from_slice(if zero { b"null" } else { quoted });
            return Ok(Some(start));
        }
        let text = self.str_value()?;
        let t = Time::parse_rfc3339(&text).map_err(|_| Bail)?;
        if creation && t.is_zero() {
            return Ok(None);
        }
        let start = self.begin_member(obj_start, key);
        if t.is_zero() {
            self.out.extend_from_slice(b"null");
        } else if Time::utc_seconds_is_zero(text.as_bytes()).is_some() {
            // Already as the round trip writes it (the parse checked every field's range).
            self.out.push(b'"');
            self.out.extend_from_slice(text.as_bytes());
            self.out.push(b'"');
        } else {
            write_string(self.out, &t.to_rfc3339_utc());
        }
        Ok(Some(start))
    }

    /// `labels` or `annotations`: string values (`null` ones become `""`), omitted when empty.
    fn meta_map(&mut self, obj_start: usize, key: &'a [u8]) -> R<Option<usize>> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                return Ok(None);
            }
            Some(b'{') => {}
            _ => return Err(Bail),
        }
        let at = self.pos;
        self.pos += 1;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(None);
        }
        self.pos = at;
        let start = self.begin_member(obj_start, key);
        self.enter()?;
        self.pos += 1;
        self.out.push(b'{');
        let inner = self.out.len();
        let base = self.entries.len();
        self.ws();
        loop {
            let k = self.key()?;
            let member = self.begin_member(inner, k);
            match self.peek() {
                Some(b'"') => self.string()?,
                Some(b'n') => {
                    self.literal(b"null")?;
                    self.out.extend_from_slice(b"\"\"");
                }
                _ => return Err(Bail),
            }
            self.entries.push(Entry::new(k, member, self.out.len()));
            if !self.next_member(b'}')? {
                break;
            }
        }
        self.close_object(base, inner)?;
        self.depth -= 1;
        Ok(Some(start))
    }

    /// `finalizers`: strings (`null` ones become `""`), omitted when empty or `null`.
    fn meta_strings(&mut self, obj_start: usize, key: &[u8]) -> R<Option<usize>> {
        if !self.list_start()? {
            return Ok(None);
        }
        let start = self.begin_member(obj_start, key);
        self.out.push(b'[');
        let mut first = true;
        loop {
            if !first {
                self.out.push(b',');
            }
            first = false;
            match self.peek() {
                Some(b'"') => self.string()?,
                Some(b'n') => {
                    self.literal(b"null")?;
                    self.out.extend_from_slice(b"\"\"");
                }
                _ => return Err(Bail),
            }
            if !self.next_member(b']')? {
                break;
            }
        }
        self.out.push(b']');
        self.depth -= 1;
        Ok(Some(start))
    }

    /// An object of ObjectMeta's, read from its `{`: each member written by `field` (given where
    /// the object's members begin in the output and the key; it answers the field's rank and
    /// where the member it wrote starts, `None` for an unknown field), then the members put in
    /// the order of their ranks, a repeated key's last value winning as in any object.
    fn meta_object(&mut self, mut field: impl FnMut(&mut Self, usize, &'a [u8]) -> R<Field>) -> R<()> {
        self.enter()?;
        self.pos += 1;
        self.out.push(b'{');
        let inner = self.out.len();
        let base = self.entries.len();
        let mut ranks = Ranked::new(base);
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                let key = self.key()?;
                let found = field(self, inner, key)?;
                let (start, end) = match found {
                    Some((_, Some(start))) => (start, self.out.len()),
                    _ => (0, 0),
                };
                self.entries.push(Entry::new(key, start, end));
                match found {
                    Some((rank, written)) => {
                        ranks.property(rank, written.is_some(), self.entries.len() - 1, self.track)?;
                    }
                    None => ranks.other(false),
                }
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        self.close_ranked(base, inner, &ranks)?;
        self.depth -= 1;
        Ok(())
    }

    /// A list of objects (`ownerReferences`, `managedFields`), each written by `element` (given
    /// its index); omitted when empty or `null`.
    fn meta_list(
        &mut self,
        obj_start: usize,
        key: &[u8],
        mut element: impl FnMut(&mut Self, usize) -> R<()>,
    ) -> R<Option<usize>> {
        if !self.list_start()? {
            return Ok(None);
        }
        let start = self.begin_member(obj_start, key);
        self.out.push(b'[');
        let mut index = 0;
        loop {
            if index > 0 {
                self.out.push(b',');
            }
            element(self, index)?;
            index += 1;
            if !self.next_member(b']')? {
                break;
            }
        }
        self.out.push(b']');
        self.depth -= 1;
        Ok(Some(start))
    }

    /// An owner reference: written with its four strings (empty or not) and its set booleans.
    fn owner_reference(&mut self, list: &'a [u8], index: usize, unknown: &mut Vec<Unknown<'a>>) -> R<()> {
        if self.peek() != Some(b'{') {
            return Err(Bail);
        }
        self.enter()?;
        self.pos += 1;
        // apiVersion, kind, name, uid; then controller, blockOwnerDeletion.
        let mut strings: [Cow<'a, str>; 4] = Default::default();
        let mut flags: [Option<bool>; 2] = [None, None];
        let mut seen = 0u8;
        let base = self.entries.len();
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
        } else {
            loop {
                let k = self.key()?;
                let field = match k {
                    b"apiVersion" => 0,
                    b"kind" => 1,
                    b"name" => 2,
                    b"uid" => 3,
                    b"controller" => 4,
                    b"blockOwnerDeletion" => 5,
                    _ => {
                        self.skip(self.track)?;
                        self.entries.push(Entry::new(k, 0, 0));
                        unknown.push((list, index + 1, k));
                        usize::MAX
                    }
                };
                if field != usize::MAX {
                    // A repeated field's last value wins only as a whole (a later `null` resets
                    // it): the `Value` path's to decide.
                    if seen & (1 << field) != 0 {
                        return Err(Bail);
                    }
                    seen |= 1 << field;
                    match (field, self.peek()) {
                        (_, Some(b'n')) => self.literal(b"null")?,
                        (0..4, Some(b'"')) => strings[field] = self.str_value()?,
                        (4 | 5, Some(b't')) => {
                            self.literal(b"true")?;
                            flags[field - 4] = Some(true);
                        }
                        (4 | 5, Some(b'f')) => {
                            self.literal(b"false")?;
                            flags[field - 4] = Some(false);
                        }
                        _ => return Err(Bail),
                    }
                }
                if !self.next_member(b'}')? {
                    break;
                }
            }
        }
        if self.repeated_since(base) && self.track {
            return Err(Bail);
        }
        let [api_version, kind, name, uid] = &strings;
        let [controller, block_owner_deletion] = flags;
        self.out.extend_from_slice(b"{\"apiVersion\":");
        write_string(self.out, api_version);
        if let Some(b) = block_owner_deletion {
            self.out.extend_from_slice(if b {
                b",\"blockOwnerDeletion\":true"
            } else {
                b",\"blockOwnerDeletion\":false"
            });
        }
        if let Some(b) = controller {
            self.out.extend_from_slice(if b {
                b",\"controller\":true"
            } else {
                b",\"controller\":false"
            });
        }
        self.out.extend_from_slice(b",\"kind\":");
        write_string(self.out, kind);
        self.out.extend_from_slice(b",\"name\":");
        write_string(self.out, name);
        self.out.extend_from_slice(b",\"uid\":");
        write_string(self.out, uid);
        self.out.push(b'}');
        self.depth -= 1;
        Ok(())
    }

    /// One `metav1.ManagedFieldsEntry` (objects read from an API server all carry them, so
    /// they are worth walking rather than leaving to the round trip): its strings omitted when
    /// empty, `time` as `deletionTimestamp` is, `fieldsV1` kept as any value is kept (omitted
    /// when `null`).
    fn managed_fields_entry(&mut self, list: &'a [u8], index: usize, unknown: &mut Vec<Unknown<'a>>) -> R<()> {
        if self.peek() != Some(b'{') {
            return Err(Bail);
        }
        self.meta_object(|w, inner, k| match k {
            b"apiVersion" => ranked(0, w.meta_string(inner, k)),
            b"fieldsType" => ranked(1, w.meta_string(inner, k)),
            b"fieldsV1" if w.peek() == Some(b'n') => ranked(2, w.literal(b"null").map(|()| None)),
            b"fieldsV1" => {
                let start = w.begin_member(inner, k);
                w.kept_value()?;
                Ok(Some((2, Some(start))))
            }
            b"manager" => ranked(3, w.meta_string(inner, k)),
            b"operation" => ranked(4, w.meta_string(inner, k)),
            b"subresource" => ranked(5, w.meta_string(inner, k)),
            b"time" => ranked(6, w.meta_time(inner, k, false)),
            _ => {
                w.skip(w.track)?;
                unknown.push((list, index + 1, k));
                Ok(None)
            }
        })
    }

    /// At a list: `false` (consumed) for `null` or `[]`; `true` (entered, at the first
    /// element) otherwise.
    fn list_start(&mut self) -> R<bool> {
        match self.peek() {
            Some(b'n') => {
                self.literal(b"null")?;
                Ok(false)
            }
            Some(b'[') => {
                self.pos += 1;
                self.ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(false);
                }
                self.enter()?;
                Ok(true)
            }
            _ => Err(Bail),
        }
    }

    /// An integer literal that fits in an `int64` (`1.0` and `1e3` decode too, but rarely
    /// come: the `Value` path takes them).
    fn int_literal(&mut self) -> R<i64> {
        let start = self.pos;
        self.number(false)?;
        let digits = &self.input[start..self.pos];
        // Most are a few digits, which cannot overflow.
        if digits.len() <= 18 && digits.iter().all(u8::is_ascii_digit) {
            return Ok(digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')));
        }
        let text = std::str::from_utf8(digits).map_err(|_| Bail)?;
        if text.contains(['.', 'e', 'E']) {
            return Err(Bail);
        }
        text.parse().map_err(|_| Bail)
    }
}
