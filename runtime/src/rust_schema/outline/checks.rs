//! The checks the derive runs at compile time over [`Outline`]s, and the messages they share
//! with the same checks run over generated schemas (`try_crd()`, `crd()`).
//!
//! Each check returns the problem as [`Text`]; the generated `const` item panics with it, so
//! that the compile error points at the attribute and reads like the run-time problem.

use super::text::{Names, Text, push_suggestions};
use super::{Found, Outline, collect_names, find, keeps_unknown_fields};
use crate::rust_schema::Shape;

/// What a path of the resource attributes is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathUse {
    /// `printcolumn(json_path = ...)`: anything the schema has.
    PrinterColumn,
    /// `scale(spec_replicas_path = ...)`: an integer.
    SpecReplicas,
    /// `scale(status_replicas_path = ...)`: an integer.
    StatusReplicas,
    /// `scale(label_selector_path = ...)`: anything the schema has.
    LabelSelector,
    /// `selectable = ...`: a string, integer or boolean.
    Selectable,
}

impl PathUse {
    /// How messages name the attribute.
    pub const fn what(self) -> &'static str {
        match self {
            PathUse::PrinterColumn => "a printcolumn's json_path",
            PathUse::SpecReplicas => "spec_replicas_path",
            PathUse::StatusReplicas => "status_replicas_path",
            PathUse::LabelSelector => "label_selector_path",
            PathUse::Selectable => "a selectable field",
        }
    }
}

/// Where a path leads in an outline.
enum Target<'a> {
    Node(&'a Outline),
    /// Below a node that keeps unknown fields: anything can be there.
    Free,
    /// The field at `path[start..end]` is not there; its parent is `path[1..parent_end]`.
    Missing {
        parent_end: usize,
        start: usize,
        end: usize,
    },
    /// A JSONPath beyond `.a.b.c`, which the check does not follow.
    Unchecked,
    /// The outline does not know.
    Unknown,
}

/// `path[start..end]`, in `const` evaluation (cut at ASCII bytes only).
const fn slice(path: &str, start: usize, end: usize) -> &str {
    let (head, _) = path.as_bytes().split_at(end);
    let (_, part) = head.split_at(start);
    match core::str::from_utf8(part) {
        Ok(s) => s,
        Err(_) => "",
    }
}

/// Follows a simple JSONPath (`.spec.replicas`) from the root, as `try_crd()` follows it in
/// the schema: properties, then a map's values, then unknown fields kept.
const fn resolve<'a>(root: &'a Outline, path: &str) -> Target<'a> {
    let bytes = path.as_bytes();
    if bytes.is_empty() || bytes[0] != b'.' {
        return Target::Unchecked;
    }
    let mut i = 1;
    while i < bytes.len() {
        if matches!(
            bytes[i],
            b'[' | b']' | b'*' | b'@' | b'\\' | b'\'' | b'"' | b'{' | b'}' | b' '
        ) {
            return Target::Unchecked;
        }
        i += 1;
    }
    let mut node = root;
    let mut start = 1;
    let mut first = true;
    loop {
        let mut end = start;
        while end < bytes.len() && bytes[end] != b'.' {
            end += 1;
        }
        let segment = slice(path, start, end);
        if first && super::text::eq(segment, "metadata") {
            return Target::Free;
        }
        first = false;
        match find(node, segment) {
            Found::Property { outline, .. } => node = outline,
            Found::Unknown => return Target::Unknown,
            Found::Missing => {
                if let Some(values) = node.values {
                    node = values;
                } else if keeps_unknown_fields(node) {
                    return Target::Free;
                } else {
                    let parent_end = if start > 1 { start - 1 } else { 1 };
                    return Target::Missing { parent_end, start, end };
                }
            }
        }
        if end >= bytes.len() {
            return Target::Node(node);
        }
        start = end + 1;
    }
}

/// The problem with `path` as a `use` of the resource whose root outline is `root`: a field
/// the schema does not have, or a value of the wrong type.
pub const fn path_problem(root: &Outline, path: &str, use_: PathUse) -> Option<Text> {
    let mut out = Text::new();
    match resolve(root, path) {
        Target::Missing { parent_end, start, end } => {
            let parent = slice(path, 1, parent_end);
            let segment = slice(path, start, end);
            let mut names = Names::new();
            if let Target::Node(p) = resolve_parent(root, path, parent_end) {
                collect_names(p, &mut names);
            }
            write_missing_field(&mut out, use_.what(), path, parent, segment, names.as_slice());
        }
        Target::Node(node) => {
            let wrong = match use_ {
                PathUse::SpecReplicas | PathUse::StatusReplicas => {
                    !matches!(node.shape, Shape::Unknown | Shape::Integer)
                }
                PathUse::Selectable => !matches!(
                    node.shape,
                    Shape::Unknown | Shape::String | Shape::Integer | Shape::Boolean
                ),
                PathUse::PrinterColumn | PathUse::LabelSelector => false,
            };
            if wrong {
                write_path_type_problem(&mut out, use_, path, false);
            }
        }
        Target::Free => {
            if matches!(use_, PathUse::Selectable) {
                write_path_type_problem(&mut out, use_, path, true);
            }
        }
        Target::Unchecked | Target::Unknown => {}
    }
    if out.is_empty() { None } else { Some(out) }
}

/// The node `path[..parent_end]` names (the parent of a missing field).
const fn resolve_parent<'a>(root: &'a Outline, path: &str, parent_end: usize) -> Target<'a> {
    if parent_end <= 1 {
        return Target::Node(root);
    }
    resolve(root, slice(path, 0, parent_end))
}

/// Writes `<what> "<path>": <parent> has no field `<segment>` (did you mean ...); its fields
/// are ...`. `parent` is the dotted path of the object (`spec`, `spec.template`).
pub(crate) const fn write_missing_field(
    out: &mut Text,
    what: &str,
    path: &str,
    parent: &str,
    segment: &str,
    names: &[&str],
) {
    out.push(what);
    out.push(" ");
    out.push_quoted(path);
    out.push(": ");
    if super::text::eq(parent, "spec") {
        out.push("the spec");
    } else if super::text::eq(parent, "status") {
        out.push("the status");
    } else if parent.is_empty() {
        out.push("the object");
    } else {
        out.push_code(parent);
    }
    out.push(" has no field ");
    out.push_code(segment);
    push_suggestions(out, segment, names, false);
}

/// Writes why the value at `path` cannot serve `use_` (`free`: it has no type, being below
/// a node that keeps unknown fields).
pub(crate) const fn write_path_type_problem(out: &mut Text, use_: PathUse, path: &str, free: bool) {
    out.push(use_.what());
    out.push(" ");
    out.push_quoted(path);
    match use_ {
        PathUse::Selectable if free => out.push(
            " has no type in the schema (it keeps unknown fields there); the API server needs a string, integer or boolean",
        ),
        PathUse::Selectable => {
            out.push(" must be a string, integer or boolean (the API server refuses other types)")
        }
        _ => out.push(" must be an integer field (the /scale subresource reads it as int32)"),
    }
}

/// `list_map_keys` on an array whose items are not objects.
pub(crate) const ITEMS_NOT_OBJECTS: &str =
    "`list_map_keys` needs items that are objects (the API server requires `type: object`)";

/// `list_map_keys` on an array whose items are nullable.
pub(crate) const ITEMS_NULLABLE: &str =
    "`list_map_keys`: the items are nullable, and the API server refuses nullable items in a list of type map";

/// The problem with the items of `array` as a list of type map.
pub const fn list_map_items_problem(array: &Outline) -> Option<Text> {
    let Some(items) = array.items else {
        return None;
    };
    let mut out = Text::new();
    if !matches!(items.shape, Shape::Unknown | Shape::Object) {
        out.push(ITEMS_NOT_OBJECTS);
    } else if items.nullable {
        out.push(ITEMS_NULLABLE);
    }
    if out.is_empty() { None } else { Some(out) }
}

/// What is wrong with one list-map key.
#[derive(Clone, Copy, Debug)]
pub(crate) enum KeyProblem<'a> {
    /// Not a field of the items.
    Missing,
    /// Nullable.
    Nullable,
    /// An object or an array (the JSON type).
    NotScalar(&'a str),
    /// Neither required nor defaulted.
    Optional,
}

/// The problem with `key` as a list-map key of `array`'s items (none when the items are not
/// known to be objects: [`list_map_items_problem`] says that).
pub const fn list_map_key_problem(array: &Outline, key: &str) -> Option<Text> {
    let Some(items) = array.items else {
        return None;
    };
    if !matches!(items.shape, Shape::Object) {
        return None;
    }
    let problem = match find(items, key) {
        Found::Unknown => return None,
        Found::Missing => KeyProblem::Missing,
        Found::Property {
            required,
            defaulted,
            outline,
        } => {
            if outline.nullable {
                KeyProblem::Nullable
            } else if matches!(outline.shape, Shape::Object) {
                KeyProblem::NotScalar("object")
            } else if matches!(outline.shape, Shape::Array) {
                KeyProblem::NotScalar("array")
            } else if !required && !defaulted {
                KeyProblem::Optional
            } else {
                return None;
            }
        }
    };
    let mut names = Names::new();
    collect_names(items, &mut names);
    let mut out = Text::new();
    write_list_map_key_problem(&mut out, problem, key, names.as_slice());
    Some(out)
}

/// Writes the message of a list-map key's problem (`names`: the items' fields).
pub(crate) const fn write_list_map_key_problem(out: &mut Text, problem: KeyProblem<'_>, key: &str, names: &[&str]) {
    out.push("`list_map_keys`: the key ");
    out.push_code(key);
    match problem {
        KeyProblem::Missing => {
            out.push(" is not a field of the items");
            push_suggestions(out, key, names, true);
        }
        KeyProblem::Nullable => out.push(" must not be nullable (the API server refuses nullable keys)"),
        KeyProblem::NotScalar(t) => {
            out.push(" is an ");
            out.push(t);
            out.push(": keys must be scalars (the API server refuses other keys)");
        }
        KeyProblem::Optional => out.push(" must be required or have a default (the API server requires it)"),
    }
}

/// The problem with `field` as a member of `<which>_one_of` on the object `object`.
pub const fn one_of_problem(object: &Outline, which: &str, field: &str) -> Option<Text> {
    match find(object, field) {
        Found::Missing => {
            let mut names = Names::new();
            collect_names(object, &mut names);
            let mut out = Text::new();
            write_one_of_missing(&mut out, which, field, names.as_slice());
            Some(out)
        }
        Found::Property { .. } | Found::Unknown => None,
    }
}

/// Writes ``` `<which>_one_of`: `<field>` is not a field of the object ...```.
pub(crate) const fn write_one_of_missing(out: &mut Text, which: &str, field: &str, names: &[&str]) {
    out.push("`");
    out.push(which);
    out.push("_one_of`: ");
    out.push_code(field);
    out.push(" is not a field of the object");
    push_suggestions(out, field, names, false);
}

/// A list of type set with nullable items.
pub(crate) const SET_ITEMS_NULLABLE: &str =
    "the items are nullable, and the API server refuses nullable items in a list of type set";

/// `list_type = "set"` on `array`: its items must not be nullable.
pub const fn set_items_problem(array: &Outline) -> Option<Text> {
    match array.items {
        Some(items) if items.nullable => {
            let mut out = Text::new();
            out.push("`list_type = \"set\"`: ");
            out.push(SET_ITEMS_NULLABLE);
            Some(out)
        }
        _ => None,
    }
}

/// A variant of an internally tagged enum whose value has a field named as the tag.
pub const fn tag_problem(value: &Outline, tag: &str, variant: &str) -> Option<Text> {
    match find(value, tag) {
        Found::Property { .. } => {
            let mut out = Text::new();
            write_tag_problem(&mut out, variant, tag);
            Some(out)
        }
        Found::Missing | Found::Unknown => None,
    }
}

/// Writes ``variant `V` has a field `t`, the enum's tag: ...``.
pub(crate) const fn write_tag_problem(out: &mut Text, variant: &str, tag: &str) {
    out.push("variant ");
    out.push_code(variant);
    out.push(" has a field ");
    out.push_code(tag);
    out.push(", the enum's tag: serde writes the key twice");
}

/// A name serde writes twice into the object `o` (its own fields and its flattened fields',
/// in serde's order), as `Object::insert` finds it when the schema is generated: the first
/// name written a second time, with the fields that write it.
pub const fn duplicate_problem(o: &Outline) -> Option<Text> {
    let Some(properties) = o.properties else {
        return None;
    };
    // Every name written so far, with the member that wrote it (`Seen` keeps them sorted).
    let mut seen = Seen::new();
    // Members in serde's order: own property `i` comes before flattened field `f` when
    // `i < f.after`.
    let (mut i, mut f) = (0, 0);
    while i < properties.len() || f < o.flattened.len() {
        let flat_next = f < o.flattened.len() && (i >= properties.len() || o.flattened[f].after <= i);
        let member = if flat_next { Member::Flat(f) } else { Member::Own(i) };
        let mut names = Names::new();
        match member {
            Member::Own(k) => names.insert(properties[k].name),
            Member::Flat(k) => collect_names(o.flattened[k].outline, &mut names),
        }
        let list = names.as_slice();
        let mut n = 0;
        while n < list.len() {
            if let Some(first) = seen.get(list[n]) {
                let mut out = Text::new();
                write_duplicate(
                    &mut out,
                    list[n],
                    &origin(o, properties, first),
                    &origin(o, properties, member),
                );
                return Some(out);
            }
            seen.insert(list[n], member);
            n += 1;
        }
        if flat_next {
            f += 1;
        } else {
            i += 1;
        }
    }
    None
}

/// Writes ``serde writes `name` twice: for <first> and for <second> ...``.
pub(crate) const fn write_duplicate(out: &mut Text, name: &str, first: &Text, second: &Text) {
    out.push("serde writes ");
    out.push_code(name);
    out.push(" twice: for ");
    out.push(first.as_str());
    out.push(" and for ");
    out.push(second.as_str());
    out.push(" (the API server rejects the duplicate field)");
}

/// A member of an object in serde's order: an own property or a flattened field.
#[derive(Clone, Copy)]
enum Member {
    Own(usize),
    Flat(usize),
}

/// `field `x`` or `the flattened field `y``, as the schema builder names them.
const fn origin(o: &Outline, properties: &[super::Property], m: Member) -> Text {
    let mut out = Text::new();
    match m {
        Member::Own(i) => {
            out.push("field ");
            out.push_code(properties[i].name);
        }
        Member::Flat(f) => {
            out.push("the flattened field ");
            out.push_code(o.flattened[f].field);
        }
    }
    out
}

/// Names written so far and who wrote them, sorted for binary search.
struct Seen {
    names: [&'static str; 256],
    by: [Member; 256],
    len: usize,
}

impl Seen {
    const fn new() -> Seen {
        Seen {
            names: [""; 256],
            by: [Member::Own(0); 256],
            len: 0,
        }
    }

    /// Where `name` would go, and whether it is there.
    const fn search(&self, name: &str) -> (usize, bool) {
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = (lo + hi) / 2;
            match super::text::compare(self.names[mid], name) {
                core::cmp::Ordering::Less => lo = mid + 1,
                core::cmp::Ordering::Greater => hi = mid,
                core::cmp::Ordering::Equal => return (mid, true),
            }
        }
        (lo, false)
    }

    const fn get(&self, name: &str) -> Option<Member> {
        match self.search(name) {
            (at, true) => Some(self.by[at]),
            _ => None,
        }
    }

    /// Adds `name` (beyond 256 names, later ones are not tracked: a duplicate among them is
    /// left to the check when the schema is generated).
    const fn insert(&mut self, name: &'static str, by: Member) {
        let (at, found) = self.search(name);
        if found || self.len == self.names.len() {
            return;
        }
        let mut k = self.len;
        while k > at {
            self.names[k] = self.names[k - 1];
            self.by[k] = self.by[k - 1];
            k -= 1;
        }
        self.names[at] = name;
        self.by[at] = by;
        self.len += 1;
    }
}

/// A rule using `oldSelf` where the API server cannot pair values with their old values (the
/// items of a list that is not a list-type map, the values of an atomic map), anywhere below
/// the object `o` (a resource's root).
pub const fn transition_problem(o: &Outline) -> Option<Text> {
    let mut path = Path::new();
    let correlated = !o.atomic;
    if let Some(properties) = o.properties {
        let mut i = 0;
        while i < properties.len() {
            path.push_name(properties[i].name);
            if let Some(t) = transition_below(properties[i].outline, correlated, false, &mut path) {
                return Some(t);
            }
            path.pop();
            i += 1;
        }
    }
    let mut f = 0;
    while f < o.flattened.len() {
        if let Some(t) = transition_problem(o.flattened[f].outline) {
            return Some(t);
        }
        f += 1;
    }
    None
}

/// The walk below `o` (`keyed_items`: `o` is the items of a list-type map, which the builder
/// makes not atomic).
const fn transition_below(o: &Outline, correlated: bool, keyed_items: bool, path: &mut Path) -> Option<Text> {
    if !o.old_self {
        return None;
    }
    let atomic = o.atomic && !keyed_items;
    if !correlated {
        let mut out = Text::new();
        out.push("`");
        out.push(path.as_str());
        out.push("`: a rule at or below it uses oldSelf (a transition rule, or `immutable`) inside a list that is not a list-type map (or an atomic map or struct): the API server cannot pair old and new values there, and refuses the rule; make the list a list-type map (`list_type = \"map\", list_map_keys = [...]`), or the map or struct not atomic");
        return Some(out);
    }
    if let Some(items) = o.items {
        path.push_raw("[]");
        let t = transition_below(items, o.list_map, o.list_map, path);
        path.pop();
        if t.is_some() {
            return t;
        }
    }
    if let Some(values) = o.values {
        path.push_raw("[*]");
        let t = transition_below(values, !atomic, false, path);
        path.pop();
        if t.is_some() {
            return t;
        }
    }
    if let Some(properties) = o.properties {
        let mut i = 0;
        while i < properties.len() {
            path.push_name(properties[i].name);
            let t = transition_below(properties[i].outline, !atomic, false, path);
            path.pop();
            if t.is_some() {
                return t;
            }
            i += 1;
        }
    }
    let mut f = 0;
    while f < o.flattened.len() {
        let t = transition_below_flattened(o.flattened[f].outline, !atomic, path);
        if t.is_some() {
            return t;
        }
        f += 1;
    }
    None
}

/// The properties of a flattened field are the object's own: walked at the object's path.
const fn transition_below_flattened(o: &Outline, correlated: bool, path: &mut Path) -> Option<Text> {
    let Some(properties) = o.properties else {
        return None;
    };
    let mut i = 0;
    while i < properties.len() {
        path.push_name(properties[i].name);
        let t = transition_below(properties[i].outline, correlated, false, path);
        path.pop();
        if t.is_some() {
            return t;
        }
        i += 1;
    }
    let mut f = 0;
    while f < o.flattened.len() {
        let t = transition_below_flattened(o.flattened[f].outline, correlated, path);
        if t.is_some() {
            return t;
        }
        f += 1;
    }
    None
}

/// A field path being walked (`a.b[].c`), with the lengths to return to.
struct Path {
    text: Text,
    marks: [usize; 64],
    depth: usize,
}

impl Path {
    const fn new() -> Path {
        Path {
            text: Text::new(),
            marks: [0; 64],
            depth: 0,
        }
    }

    const fn push_name(&mut self, name: &str) {
        let mark = self.text.len();
        if !self.text.is_empty() {
            self.text.push(".");
        }
        self.text.push(name);
        self.mark(mark);
    }

    const fn push_raw(&mut self, s: &str) {
        let mark = self.text.len();
        self.text.push(s);
        self.mark(mark);
    }

    const fn mark(&mut self, mark: usize) {
        if self.depth < self.marks.len() {
            self.marks[self.depth] = mark;
        }
        self.depth += 1;
    }

    const fn pop(&mut self) {
        self.depth -= 1;
        if self.depth < self.marks.len() {
            self.text.truncate(self.marks[self.depth]);
        }
    }

    const fn as_str(&self) -> &str {
        self.text.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Flattened, Property};
    use super::*;

    const NAME: Outline = Outline::leaf(Shape::String);
    const TAGS: Outline = Outline::array(&NAME);
    const USER: Outline = Outline::object(
        &[
            Property {
                name: "name",
                required: true,
                outline: &NAME,
            },
            Property {
                name: "nick",
                required: false,
                outline: &NAME,
            },
            Property {
                name: "tags",
                required: true,
                outline: &TAGS,
            },
        ],
        &[],
    );
    const USERS: Outline = Outline::array(&USER);
    const LABELS: Outline = Outline::map(&NAME);
    const EXTRA: Outline = Outline::object(
        &[Property {
            name: "zone",
            required: true,
            outline: &NAME,
        }],
        &[],
    );
    const SPEC: Outline = Outline::object(
        &[
            Property {
                name: "users",
                required: true,
                outline: &USERS,
            },
            Property {
                name: "labels",
                required: false,
                outline: &LABELS,
            },
            Property {
                name: "free",
                required: false,
                outline: &Outline::free_object(),
            },
            Property {
                name: "opaque",
                required: false,
                outline: &Outline::UNKNOWN,
            },
        ],
        &[Flattened {
            field: "extra",
            after: 4,
            outline: &EXTRA,
            optional: true,
        }],
    );
    const ROOT: Outline = Outline::object(
        &[Property {
            name: "spec",
            required: true,
            outline: &SPEC,
        }],
        &[],
    );

    fn text(t: Option<Text>) -> Option<String> {
        t.map(|t| t.as_str().to_owned())
    }

    #[test]
    fn paths() {
        assert_eq!(text(path_problem(&ROOT, ".spec.users", PathUse::PrinterColumn)), None);
        assert_eq!(text(path_problem(&ROOT, ".spec.zone", PathUse::Selectable)), None);
        assert_eq!(text(path_problem(&ROOT, ".spec.labels.app", PathUse::Selectable)), None);
        assert_eq!(
            text(path_problem(&ROOT, ".metadata.name", PathUse::PrinterColumn)),
            None
        );
        assert_eq!(text(path_problem(&ROOT, ".spec.opaque.x", PathUse::Selectable)), None);
        assert_eq!(
            text(path_problem(&ROOT, ".spec.users[0].name", PathUse::Selectable)),
            None
        );
        assert_eq!(
            text(path_problem(&ROOT, ".spec.usrs", PathUse::PrinterColumn)).as_deref(),
            Some(
                "a printcolumn's json_path \".spec.usrs\": the spec has no field `usrs` (did you mean `users`?); \
                 its fields are `free`, `labels`, `opaque`, `users`, `zone`"
            )
        );
        assert_eq!(
            text(path_problem(&ROOT, ".spec.users.x", PathUse::PrinterColumn)).as_deref(),
            Some("a printcolumn's json_path \".spec.users.x\": `spec.users` has no field `x`; it has no fields")
        );
        assert_eq!(
            text(path_problem(&ROOT, ".spec.users", PathUse::SpecReplicas)).as_deref(),
            Some(
                "spec_replicas_path \".spec.users\" must be an integer field (the /scale subresource reads it as int32)"
            )
        );
        assert_eq!(
            text(path_problem(&ROOT, ".spec.free.x", PathUse::Selectable)).as_deref(),
            Some(
                "a selectable field \".spec.free.x\" has no type in the schema (it keeps unknown fields there); \
                 the API server needs a string, integer or boolean"
            )
        );
        assert_eq!(text(path_problem(&ROOT, ".spec.free.x", PathUse::PrinterColumn)), None);
    }

    #[test]
    fn list_map_keys() {
        assert_eq!(text(list_map_items_problem(&USERS)), None);
        assert_eq!(text(list_map_key_problem(&USERS, "name")), None);
        assert_eq!(
            text(list_map_key_problem(&USERS, "nme")).as_deref(),
            Some(
                "`list_map_keys`: the key `nme` is not a field of the items (did you mean `name`?); \
                 their fields are `name`, `nick`, `tags`"
            )
        );
        assert_eq!(
            text(list_map_key_problem(&USERS, "nick")).as_deref(),
            Some("`list_map_keys`: the key `nick` must be required or have a default (the API server requires it)")
        );
        assert_eq!(
            text(list_map_key_problem(&USERS, "tags")).as_deref(),
            Some(
                "`list_map_keys`: the key `tags` is an array: keys must be scalars (the API server refuses other keys)"
            )
        );
        assert_eq!(text(list_map_items_problem(&TAGS)).as_deref(), Some(ITEMS_NOT_OBJECTS));
        assert_eq!(text(list_map_key_problem(&TAGS, "x")), None);
        const NULLABLE_USERS: Outline = Outline::array(&USER.option());
        assert_eq!(
            text(list_map_items_problem(&NULLABLE_USERS)).as_deref(),
            Some(ITEMS_NULLABLE)
        );
        assert_eq!(text(list_map_items_problem(&Outline::UNKNOWN)), None);
    }

    #[test]
    fn names_written_twice_in_serde_order() {
        assert_eq!(text(duplicate_problem(&SPEC)), None);
        // `zone` by the flattened field, then by an own field declared after it.
        const TWICE: Outline = Outline::object(
            &[Property {
                name: "zone",
                required: true,
                outline: &NAME,
            }],
            &[Flattened {
                field: "extra",
                after: 0,
                outline: &EXTRA,
                optional: false,
            }],
        );
        assert_eq!(
            text(duplicate_problem(&TWICE)).as_deref(),
            Some(
                "serde writes `zone` twice: for the flattened field `extra` and for field `zone` \
                 (the API server rejects the duplicate field)"
            )
        );
    }

    #[test]
    fn transition_rules_where_values_do_not_pair() {
        const IMMUTABLE: Outline = Outline::leaf(Shape::String).with_old_self();
        const ITEM: Outline = Outline::object(
            &[Property {
                name: "name",
                required: true,
                outline: &IMMUTABLE,
            }],
            &[],
        );
        const LIST: Outline = Outline::array(&ITEM);
        const KEYED: Outline = Outline::array(&ITEM).as_list_map();
        const BY_NAME: Outline = Outline::map(&ITEM);
        const ATOMIC: Outline = Outline::map(&ITEM).as_atomic();
        const OK: [Property; 2] = [
            Property {
                name: "keyed",
                required: true,
                outline: &KEYED,
            },
            Property {
                name: "byName",
                required: true,
                outline: &BY_NAME,
            },
        ];
        const OK_SPEC: Outline = Outline::object(&OK, &[]);
        const { assert!(OK_SPEC.old_self) };
        assert_eq!(
            text(transition_problem(&Outline::object(
                &[Property {
                    name: "spec",
                    required: true,
                    outline: &OK_SPEC
                }],
                &[]
            ))),
            None
        );
        const LIST_SPEC: Outline = Outline::object(
            &[Property {
                name: "items",
                required: true,
                outline: &LIST,
            }],
            &[],
        );
        let t = text(transition_problem(&Outline::object(
            &[Property {
                name: "spec",
                required: true,
                outline: &LIST_SPEC,
            }],
            &[],
        )));
        assert!(
            t.as_deref()
                .is_some_and(|t| t.starts_with("`spec.items[]`: a rule at or below it uses oldSelf")),
            "{t:?}"
        );
        const ATOMIC_SPEC: Outline = Outline::object(
            &[Property {
                name: "byName",
                required: true,
                outline: &ATOMIC,
            }],
            &[],
        );
        let t = text(transition_problem(&ATOMIC_SPEC));
        assert!(t.as_deref().is_some_and(|t| t.starts_with("`byName[*]`:")), "{t:?}");
    }

    #[test]
    fn one_of_members() {
        assert_eq!(text(one_of_problem(&SPEC, "at_most", "zone")), None);
        assert_eq!(
            text(one_of_problem(&USER, "exactly", "nam")).as_deref(),
            Some(
                "`exactly_one_of`: `nam` is not a field of the object (did you mean `name`?); \
                 its fields are `name`, `nick`, `tags`"
            )
        );
        assert_eq!(text(one_of_problem(&Outline::UNKNOWN, "exactly", "x")), None);
    }
}
