//! The json-patch library's document (`gopkg.in/evanphx/json-patch.v4`'s `lazyNode`): JSON
//! text kept as written, and parsed one level at a time only where a patch reaches into it.
//!
//! Why it matters: the patched document the server decodes, and quotes in its 422 answers, is
//! this tree marshalled again. What a patch wrote and nothing walked into keeps its text (key
//! order, number spelling, string escapes such as `\ud800`); what was parsed is printed with
//! its keys sorted, as Go prints maps. `test` compares scalars by their compact text.

use std::collections::BTreeMap;

/// A node of the library's document.
pub(super) enum Node {
    /// Go's nil `*lazyNode`: a `null` member or item of parsed text, an absent `value`.
    Nil,
    /// Text as written; `None` is the library's node without text (an operation's
    /// `"value": null`), which prints `null`.
    Raw(Option<Box<[u8]>>),
    /// An object that was parsed: members by key (printed in key order).
    Doc(BTreeMap<String, Node>),
    /// An array that was parsed.
    Ary(Vec<Node>),
}

/// A panic of the library (a nil node dereferenced): the server answers 500.
#[derive(Debug)]
pub(super) struct Panic;

impl Node {
    /// A node of `text`.
    pub(super) fn text(text: &[u8]) -> Node {
        Node::Raw(Some(text.into()))
    }

    /// `findObject`'s test `next == nil || next.raw == nil`: nothing to walk into.
    pub(super) fn is_nil(&self) -> bool {
        matches!(self, Node::Nil | Node::Raw(None))
    }

    /// `intoDoc`: the members, parsing the text first (a node of text becomes a parsed one).
    pub(super) fn as_doc(&mut self) -> Option<&mut BTreeMap<String, Node>> {
        if let Node::Raw(Some(text)) = self {
            // (Text `null` reads as a nil map in Go, which no path of the server's patches
            // reaches; it is no object here.)
            let members = parse_object(text)?;
            *self = Node::Doc(members);
        }
        match self {
            Node::Doc(members) => Some(members),
            _ => None,
        }
    }

    /// `intoAry`: the items, parsing the text first.
    pub(super) fn as_ary(&mut self) -> Option<&mut Vec<Node>> {
        if let Node::Raw(Some(text)) = self {
            let items = parse_array(text)?;
            *self = Node::Ary(items);
        }
        match self {
            Node::Ary(items) => Some(items),
            _ => None,
        }
    }

    /// `isArray` of the node's text (the original text, for a parsed node).
    pub(super) fn is_array(&self) -> bool {
        match self {
            Node::Ary(_) => true,
            Node::Raw(Some(t)) => t.iter().find(|b| !matches!(b, b' ' | b'\n' | b'\t')) == Some(&b'['),
            _ => false,
        }
    }

    /// `MarshalJSON`, appended to `out`: text compacted (with Go's HTML escapes), parsed
    /// objects with their keys sorted.
    pub(super) fn write(&self, out: &mut Vec<u8>) {
        match self {
            Node::Nil | Node::Raw(None) => out.extend_from_slice(b"null"),
            Node::Raw(Some(t)) => compact(t, out),
            Node::Doc(members) => {
                out.push(b'{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(
                        kstruct_schema::go::marshal_json(&serde_json::Value::String(k.clone())).as_bytes(),
                    );
                    out.push(b':');
                    kstruct_schema::grow(|| v.write(out));
                }
                out.push(b'}');
            }
            Node::Ary(items) => {
                out.push(b'[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    kstruct_schema::grow(|| v.write(out));
                }
                out.push(b']');
            }
        }
    }

    /// The node marshalled.
    pub(super) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write(&mut out);
        out
    }

    /// `deepCopy`: a node of this node's marshalled text, and that text's length.
    pub(super) fn deep_copy(&self) -> (Node, usize) {
        if matches!(self, Node::Nil) {
            return (Node::Nil, 0);
        }
        let text = self.to_bytes();
        let len = text.len();
        (Node::Raw(Some(text.into())), len)
    }

    /// `lazyNode.equal`, with its side effects: text that parses as an object or array is
    /// parsed (so a tested value prints sorted afterwards). Scalars are equal when their
    /// compact texts are.
    pub(super) fn equal(&mut self, other: &mut Node) -> Result<bool, Panic> {
        if matches!(self, Node::Nil) {
            return Err(Panic);
        }
        if matches!(self, Node::Raw(_)) && self.as_doc().is_none() && self.as_ary().is_none() {
            return match (&*self, &*other) {
                (_, Node::Nil) => Err(Panic),
                (Node::Raw(a), Node::Raw(b)) => Ok(compact_text(a.as_deref()) == compact_text(b.as_deref())),
                _ => Ok(false),
            };
        }
        if let Node::Doc(members) = self {
            if matches!(other, Node::Nil) {
                return Err(Panic);
            }
            if matches!(other, Node::Raw(_)) && other.as_doc().is_none() {
                return Ok(false);
            }
            let Node::Doc(others) = other else {
                return Ok(false);
            };
            if members.len() != others.len() {
                return Ok(false);
            }
            for (k, v) in members.iter_mut() {
                let Some(ov) = others.get_mut(k) else {
                    return Ok(false);
                };
                match (matches!(v, Node::Nil), matches!(ov, Node::Nil)) {
                    (true, true) => continue,
                    (true, false) | (false, true) => return Ok(false),
                    (false, false) => {}
                }
                if !kstruct_schema::grow(|| v.equal(ov))? {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
        let Node::Ary(items) = self else {
            return Ok(false);
        };
        if matches!(other, Node::Nil) {
            return Err(Panic);
        }
        if !matches!(other, Node::Ary(_)) && other.as_ary().is_none() {
            return Ok(false);
        }
        let Node::Ary(others) = other else {
            return Ok(false);
        };
        if items.len() != others.len() {
            return Ok(false);
        }
        for (v, ov) in items.iter_mut().zip(others.iter_mut()) {
            if !kstruct_schema::grow(|| v.equal(ov))? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Drop for Node {
    /// Without recursion: parsed trees can nest as deep as a patch's paths.
    fn drop(&mut self) {
        let mut stack: Vec<Node> = Vec::new();
        let take = |n: &mut Node, stack: &mut Vec<Node>| match n {
            Node::Doc(members) => stack.extend(std::mem::take(members).into_values()),
            Node::Ary(items) => stack.append(items),
            _ => {}
        };
        take(self, &mut stack);
        while let Some(mut n) = stack.pop() {
            take(&mut n, &mut stack);
        }
    }
}

/// `json.Compact` with Go's HTML escaping (as `json.Marshal` writes a raw message): white
/// space outside strings dropped, `<`, `>`, `&`, U+2028 and U+2029 escaped.
fn compact(text: &[u8], out: &mut Vec<u8>) {
    let mut in_string = false;
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        if in_string {
            match c {
                b'\\' => {
                    out.push(c);
                    if let Some(&n) = text.get(i + 1) {
                        out.push(n);
                    }
                    i += 2;
                    continue;
                }
                b'"' => in_string = false,
                b'<' | b'>' | b'&' => {
                    out.extend_from_slice(format!("\\u00{c:02x}").as_bytes());
                    i += 1;
                    continue;
                }
                0xE2 if text.get(i + 1) == Some(&0x80) && matches!(text.get(i + 2), Some(0xA8 | 0xA9)) => {
                    out.extend_from_slice(if text[i + 2] == 0xA8 { b"\\u2028" } else { b"\\u2029" });
                    i += 3;
                    continue;
                }
                _ => {}
            }
            out.push(c);
        } else {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => {}
                b'"' => {
                    in_string = true;
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        i += 1;
    }
}

/// `lazyNode.compact`: `json.Compact` without HTML escaping; no text is nil.
fn compact_text(text: Option<&[u8]>) -> Option<Vec<u8>> {
    let text = text?;
    let mut out = Vec::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for &c in text {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
        } else if !matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
            in_string = c == b'"';
            out.push(c);
        }
    }
    Some(out)
}

/// A cursor over valid JSON text.
pub(super) struct Scan<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

impl Scan<'_> {
    pub(super) fn ws(&mut self) {
        while self.i < self.b.len() && matches!(self.b[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    pub(super) fn eat(&mut self, c: u8) -> bool {
        let hit = self.b.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    /// Past a string starting at the cursor.
    pub(super) fn string(&mut self) {
        self.i += 1;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'\\' => self.i += 2,
                b'"' => {
                    self.i += 1;
                    return;
                }
                _ => self.i += 1,
            }
        }
    }

    /// Past the value at the cursor, containers included (without recursion); the value's
    /// text, without the white space around it.
    pub(super) fn value(&mut self) -> std::ops::Range<usize> {
        self.ws();
        let start = self.i;
        let mut depth = 0usize;
        while self.i < self.b.len() {
            match self.b[self.i] {
                b'"' => {
                    self.string();
                    if depth == 0 {
                        break;
                    }
                    continue;
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' if depth == 0 => break,
                b'}' | b']' => {
                    depth -= 1;
                    if depth == 0 {
                        self.i += 1;
                        break;
                    }
                }
                b',' if depth == 0 => break,
                _ => {}
            }
            self.i += 1;
        }
        let mut end = self.i.min(self.b.len());
        while end > start && matches!(self.b[end - 1], b' ' | b'\t' | b'\n' | b'\r') {
            end -= 1;
        }
        start..end
    }
}

/// A member key's text decoded as Go decodes it (invalid UTF-8 and lone surrogates become
/// U+FFFD).
fn key(text: &[u8]) -> Option<String> {
    match crate::json::decode(text).ok()?.value {
        serde_json::Value::String(s) => Some(s),
        _ => None,
    }
}

/// A value's node: `null` is Go's nil pointer.
fn node(text: &[u8]) -> Node {
    if text == b"null" { Node::Nil } else { Node::text(text) }
}

/// The members of an object's text, one level deep (`json.Unmarshal` into `map[string]*lazyNode`:
/// the last of repeated keys wins); `None` when the text is no object.
pub(super) fn parse_object(text: &[u8]) -> Option<BTreeMap<String, Node>> {
    let mut s = Scan { b: text, i: 0 };
    s.ws();
    if !s.eat(b'{') {
        return None;
    }
    let mut members = BTreeMap::new();
    s.ws();
    if s.eat(b'}') {
        return Some(members);
    }
    loop {
        s.ws();
        if s.b.get(s.i) != Some(&b'"') {
            return None;
        }
        let start = s.i;
        s.string();
        let k = key(&text[start..s.i])?;
        s.ws();
        if !s.eat(b':') {
            return None;
        }
        let v = s.value();
        members.insert(k, node(&text[v]));
        s.ws();
        if s.eat(b',') {
            continue;
        }
        return s.eat(b'}').then_some(members);
    }
}

/// The items of an array's text, one level deep; `None` when the text is no array.
pub(super) fn parse_array(text: &[u8]) -> Option<Vec<Node>> {
    let mut s = Scan { b: text, i: 0 };
    s.ws();
    if !s.eat(b'[') {
        return None;
    }
    let mut items = Vec::new();
    s.ws();
    if s.eat(b']') {
        return Some(items);
    }
    loop {
        let v = s.value();
        if v.is_empty() {
            return None;
        }
        items.push(node(&text[v]));
        s.ws();
        if s.eat(b',') {
            continue;
        }
        return s.eat(b']').then_some(items);
    }
}

/// The JSON kind of a value's text, as Go's type errors name it.
pub(super) fn kind_of(text: &[u8]) -> &'static str {
    match text.first() {
        Some(b'"') => "string",
        Some(b'n') => "null",
        Some(b't' | b'f') => "bool",
        Some(b'[') => "array",
        Some(b'{') => "object",
        _ => "number",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(n: &Node) -> String {
        String::from_utf8(n.to_bytes()).unwrap()
    }

    #[test]
    fn text_is_kept_until_parsed_then_printed_sorted() {
        let mut n = Node::text(br#"{"b": {"y": 1, "x": "\u00e9<"}, "a": [1.50, null]}"#);
        assert_eq!(written(&n), r#"{"b":{"y":1,"x":"\u00e9\u003c"},"a":[1.50,null]}"#);
        n.as_doc().unwrap();
        assert_eq!(written(&n), r#"{"a":[1.50,null],"b":{"y":1,"x":"\u00e9\u003c"}}"#);
        let Node::Doc(members) = &mut n else { panic!() };
        members.get_mut("b").unwrap().as_doc().unwrap();
        assert_eq!(written(&n), r#"{"a":[1.50,null],"b":{"x":"\u00e9\u003c","y":1}}"#);
    }

    #[test]
    fn scalars_are_equal_by_their_text() {
        let eq = |a: &[u8], b: &[u8]| Node::text(a).equal(&mut Node::text(b)).unwrap();
        assert!(eq(b"1.5", b"1.5"));
        assert!(!eq(b"1.5", b"1.50"));
        assert!(!eq(br#""<""#, br#""\u003c""#));
        assert!(eq(br#"{"a": [1, {"b": null}]}"#, br#"{"a":[1,{"b":null}]}"#));
        assert!(!eq(br#"{"a": null}"#, br#"{"a": 1}"#));
        // A nil item reached is the library's nil dereference.
        assert!(Node::text(b"[null]").equal(&mut Node::text(b"[null]")).is_err());
    }

    #[test]
    fn repeated_keys_keep_the_last_and_nulls_are_nil() {
        let members = parse_object(br#"{"a": 1, "a": 2 , "b" :null}"#).unwrap();
        assert_eq!(members.len(), 2);
        assert_eq!(written(&members["a"]), "2");
        assert!(matches!(members["b"], Node::Nil));
        assert!(parse_object(b"[1]").is_none());
        assert_eq!(parse_array(b"[ 1 , \"x\" ,{}]").unwrap().len(), 3);
    }
}
