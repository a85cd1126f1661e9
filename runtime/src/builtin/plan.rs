//! The Go types of one release as the typed decoder walks them: every type a kind can reach,
//! resolved once (named types to what they are, embedded structs flattened by Go's rules,
//! zero values written out), numbered, and kept for the life of the process.
//!
//! Built on first use per release (a few milliseconds), so that decoding a body does no
//! lookup by name and builds no zero value.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use kstruct_builtins::{Catalog, GoType, Release, TypeDef, TypeShape};
use serde_json::{Map, Value};

/// A type's number in its [`Plan`].
pub(crate) type TypeId = u32;

/// How the decoder treats one Go type.
#[derive(Debug)]
pub(crate) enum Target {
    Bool,
    String,
    Int(u32),
    Uint(u32),
    Float(u32),
    /// `[]byte`: base64 in a JSON string.
    Bytes,
    Slice(TypeId),
    Map {
        key: TypeId,
        value: TypeId,
    },
    Struct(Struct),
    /// `*T`: `null` is nil, anything else decodes into `T`.
    Pointer(TypeId),
    Interface,
    Quantity,
    Time,
    MicroTime,
    IntOrString,
    /// A type that decodes itself into raw bytes (`RawExtension`, `FieldsV1`, `JSON`).
    Raw,
}

/// A struct after Go's embedding rules.
#[derive(Debug)]
pub(crate) struct Struct {
    /// `reflect.Type.Name()`.
    pub name: &'static str,
    pub fields: Vec<Flat>,
    /// The fields written when the body does not set them (their zero value is not left out),
    /// by index, in order.
    pub always: Vec<usize>,
    /// For structs with many fields: ((first eight bytes, length), JSON name, field index),
    /// sorted. Names are told apart by the numbers first, nearly always without comparing
    /// their bytes.
    index: Option<Vec<NameEntry>>,
}

/// An entry of [`Struct`]'s name index: ((first eight bytes, length), JSON name, field index).
type NameEntry = ((u64, usize), &'static str, usize);

impl Struct {
    /// The field the decoder matches `key` to (case-sensitively).
    pub(crate) fn field(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => {
                let head = (crate::text::head_of(key.as_bytes()), key.len());
                index
                    .binary_search_by(|(h, name, _)| h.cmp(&head).then_with(|| (*name).cmp(key)))
                    .ok()
                    .map(|at| index[at].2)
            }
            None => self.fields.iter().position(|f| f.json == key),
        }
    }
}

/// A struct field as the decoder sees it.
#[derive(Debug)]
pub(crate) struct Flat {
    pub json: &'static str,
    pub ty: TypeId,
    pub omitempty: bool,
    pub omitzero: bool,
    /// The Go names of the embedded structs the field is promoted through.
    pub via: Vec<&'static str>,
}

/// One type.
#[derive(Debug)]
pub(crate) struct Node {
    pub target: Target,
    /// As `reflect.Type.String()` prints it (pointers stripped, as type errors print it).
    pub name: String,
    /// The zero value as Go encodes it.
    pub zero: Value,
    /// The zero value's JSON, as [`Plan::write`] writes it.
    pub zero_json: Vec<u8>,
    /// Whether the zero value is empty for `omitempty`.
    pub empty_when_zero: bool,
}

/// Every type of a release's kinds.
#[derive(Debug)]
pub(crate) struct Plan {
    nodes: Vec<Node>,
    roots: HashMap<&'static str, TypeId>,
}

impl Plan {
    pub(crate) fn node(&self, id: TypeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Writes `v`, a value of type `t` as the typed decoder gives it, as Go's encoder writes
    /// the Go value: struct fields in declaration order, map keys sorted, strings escaped as
    /// Go escapes them.
    pub(crate) fn write(&self, t: TypeId, v: &Value, out: &mut Vec<u8>) {
        stacker::maybe_grow(kstruct_schema::STACK_RED_ZONE, kstruct_schema::STACK_GROWTH, || {
            self.write_inner(t, v, out);
        });
    }

    fn write_inner(&self, t: TypeId, v: &Value, out: &mut Vec<u8>) {
        match (&self.node(t).target, v) {
            (Target::Pointer(inner), v) if !v.is_null() => self.write(*inner, v, out),
            (Target::Struct(s), Value::Object(m)) => {
                out.push(b'{');
                let mut first = true;
                for f in &s.fields {
                    if let Some(fv) = m.get(f.json) {
                        if !first {
                            out.push(b',');
                        }
                        first = false;
                        kstruct_schema::go::write_string(out, f.json);
                        out.push(b':');
                        self.write(f.ty, fv, out);
                    }
                }
                out.push(b'}');
            }
            (Target::Map { value, .. }, Value::Object(m)) => {
                out.push(b'{');
                for (i, (k, fv)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    kstruct_schema::go::write_string(out, k);
                    out.push(b':');
                    self.write(*value, fv, out);
                }
                out.push(b'}');
            }
            (Target::Slice(elem), Value::Array(items)) => {
                out.push(b'[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.write(*elem, item, out);
                }
                out.push(b']');
            }
            (_, v) => {
                let mut text = String::new();
                kstruct_schema::go::write_json(&mut text, v);
                out.extend_from_slice(text.as_bytes());
            }
        }
    }

    /// The struct type `def` (a kind's type).
    pub(crate) fn root(&self, def: &'static TypeDef) -> TypeId {
        self.roots.get(def.name()).copied().unwrap_or(0)
    }
}

/// The plan of `catalog`'s release, built on first use.
pub(crate) fn of(catalog: Catalog) -> &'static Plan {
    static PLANS: OnceLock<Mutex<HashMap<Release, &'static Plan>>> = OnceLock::new();
    let plans = PLANS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut plans = plans.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    plans
        .entry(catalog.release())
        .or_insert_with(|| Box::leak(Box::new(Builder::build(catalog))))
}

struct Builder {
    catalog: Catalog,
    nodes: Vec<Option<Node>>,
    by_type: HashMap<*const GoType, TypeId>,
    by_name: HashMap<&'static str, TypeId>,
}

/// Node 0: what an unknown type decodes as (anything, kept raw).
const RAW: TypeId = 0;

impl Builder {
    fn build(catalog: Catalog) -> Plan {
        let mut b = Builder {
            catalog,
            nodes: vec![Some(Node {
                target: Target::Raw,
                name: "interface {}".into(),
                zero: Value::Null,
                zero_json: Vec::new(),
                empty_when_zero: false,
            })],
            by_type: HashMap::new(),
            by_name: HashMap::new(),
        };
        let mut roots = HashMap::new();
        for gv in catalog.group_versions().collect::<Vec<_>>() {
            for kind in catalog.kinds(gv).collect::<Vec<_>>() {
                if let Some(def) = catalog.type_def(kind.type_name()) {
                    let id = b.named(def);
                    roots.insert(def.name(), id);
                }
            }
        }
        let mut nodes: Vec<Node> = b.nodes.into_iter().map(|n| n.expect("every node built")).collect();
        zeros(&mut nodes);
        let kept: Vec<Vec<usize>> = nodes
            .iter()
            .map(|n| match &n.target {
                Target::Struct(s) => s
                    .fields
                    .iter()
                    .enumerate()
                    .filter(|(_, f)| !(f.omitzero || (f.omitempty && nodes[f.ty as usize].empty_when_zero)))
                    .map(|(i, _)| i)
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        for (n, always) in nodes.iter_mut().zip(kept) {
            if let Target::Struct(s) = &mut n.target {
                s.always = always;
            }
        }
        let mut plan = Plan { nodes, roots };
        for id in 0..plan.nodes.len() {
            let mut text = Vec::new();
            plan.write(id as TypeId, &plan.nodes[id].zero, &mut text);
            plan.nodes[id].zero_json = text;
        }
        plan
    }

    fn alloc(&mut self) -> TypeId {
        self.nodes.push(None);
        (self.nodes.len() - 1) as TypeId
    }

    fn set(&mut self, id: TypeId, target: Target, name: String) {
        self.nodes[id as usize] = Some(Node {
            target,
            name,
            zero: Value::Null,
            zero_json: Vec::new(),
            empty_when_zero: false,
        });
    }

    /// The node of a type expression.
    fn ty(&mut self, t: &'static GoType) -> TypeId {
        let key = t as *const GoType;
        if let Some(&id) = self.by_type.get(&key) {
            return id;
        }
        let id = match t {
            GoType::Named(n) => match self.catalog.type_def(n) {
                Some(def) => self.named(def),
                None => RAW,
            },
            _ => {
                let id = self.alloc();
                self.by_type.insert(key, id);
                let (target, name) = match t {
                    GoType::Builtin(b) => (builtin_target(b), t.go_name()),
                    GoType::Pointer(inner) => {
                        let inner_id = self.ty(inner);
                        (Target::Pointer(inner_id), inner.go_name())
                    }
                    GoType::Slice(inner) | GoType::Array(inner) => match **inner {
                        GoType::Builtin("byte" | "uint8") => (Target::Bytes, t.go_name()),
                        _ => (Target::Slice(self.ty(inner)), t.go_name()),
                    },
                    GoType::Map(k, v) => (
                        Target::Map {
                            key: self.ty(k),
                            value: self.ty(v),
                        },
                        t.go_name(),
                    ),
                    GoType::Interface | GoType::Named(_) => (Target::Interface, t.go_name()),
                };
                self.set(id, target, name);
                return id;
            }
        };
        self.by_type.insert(key, id);
        id
    }

    /// The node of a declared type.
    fn named(&mut self, def: &'static TypeDef) -> TypeId {
        if let Some(&id) = self.by_name.get(def.name()) {
            return id;
        }
        let id = self.alloc();
        self.by_name.insert(def.name(), id);
        let name = GoType::Named(def.name().to_owned()).go_name();
        let target = if def.decodes_itself() {
            match def.name() {
                "resource.Quantity" => Target::Quantity,
                "meta/v1.Time" => Target::Time,
                "meta/v1.MicroTime" => Target::MicroTime,
                "intstr.IntOrString" => Target::IntOrString,
                _ => Target::Raw,
            }
        } else {
            match def.shape() {
                TypeShape::Struct(_) => Target::Struct(self.strukt(def, base_name(def.name()))),
                TypeShape::Named(inner) => {
                    // A defined type over another: the other's behaviour under this name (a
                    // defined struct type is a struct of this name).
                    match self.struct_def(inner) {
                        Some(d) => Target::Struct(self.strukt(d, base_name(def.name()))),
                        None => {
                            let inner_id = self.ty(inner);
                            self.copy_target(inner_id)
                        }
                    }
                }
                TypeShape::Alias(inner) => {
                    let inner_id = self.ty(inner);
                    let node = self.nodes[inner_id as usize].as_ref();
                    let alias_name = node.map_or_else(|| inner.go_name(), |n| n.name.clone());
                    let target = self.copy_target(inner_id);
                    self.set(id, target, alias_name);
                    return id;
                }
            }
        };
        self.set(id, target, name);
        id
    }

    /// The target of an already built (or being built) node, for a type defined over it.
    fn copy_target(&mut self, id: TypeId) -> Target {
        match self.nodes[id as usize].as_ref().map(|n| &n.target) {
            Some(Target::Bool) => Target::Bool,
            Some(Target::String) => Target::String,
            Some(Target::Int(b)) => Target::Int(*b),
            Some(Target::Uint(b)) => Target::Uint(*b),
            Some(Target::Float(b)) => Target::Float(*b),
            Some(Target::Bytes) => Target::Bytes,
            Some(Target::Slice(e)) => Target::Slice(*e),
            Some(Target::Map { key, value }) => Target::Map {
                key: *key,
                value: *value,
            },
            Some(Target::Pointer(e)) => Target::Pointer(*e),
            Some(Target::Quantity) => Target::Quantity,
            Some(Target::Time) => Target::Time,
            Some(Target::MicroTime) => Target::MicroTime,
            Some(Target::IntOrString) => Target::IntOrString,
            Some(Target::Interface) => Target::Interface,
            _ => Target::Raw,
        }
    }

    fn struct_def(&self, t: &'static GoType) -> Option<&'static TypeDef> {
        match t {
            GoType::Named(n) => {
                let def = self.catalog.type_def(n)?;
                match def.shape() {
                    TypeShape::Struct(_) if !def.decodes_itself() => Some(def),
                    TypeShape::Named(inner) | TypeShape::Alias(inner) => self.struct_def(inner),
                    _ => None,
                }
            }
            GoType::Pointer(inner) => self.struct_def(inner),
            _ => None,
        }
    }

    fn strukt(&mut self, def: &'static TypeDef, name: &'static str) -> Struct {
        let mut all: Vec<(&'static str, &'static GoType, bool, bool, Vec<&'static str>)> = Vec::new();
        self.flatten(def, &mut Vec::new(), &mut all, 0);
        // Go's dominant field: the shallowest of a name wins; two at that depth hide each other.
        let mut keep: Vec<(&'static str, &'static GoType, bool, bool, Vec<&'static str>)> = Vec::new();
        for f in all {
            match keep.iter().position(|k| k.0 == f.0) {
                None => keep.push(f),
                Some(i) if keep[i].4.len() > f.4.len() => keep[i] = f,
                Some(i) if keep[i].4.len() == f.4.len() => keep[i].0 = "",
                Some(_) => {}
            }
        }
        keep.retain(|f| !f.0.is_empty());
        let fields: Vec<Flat> = keep
            .into_iter()
            .map(|(json, t, omitempty, omitzero, via)| Flat {
                json,
                ty: self.ty(t),
                omitempty,
                omitzero,
                via,
            })
            .collect();
        let index = (fields.len() > 8).then(|| {
            let mut index: Vec<_> = fields
                .iter()
                .enumerate()
                .map(|(i, f)| ((crate::text::head_of(f.json.as_bytes()), f.json.len()), f.json, i))
                .collect();
            index.sort_unstable();
            index
        });
        Struct {
            name,
            fields,
            always: Vec::new(),
            index,
        }
    }

    #[allow(clippy::type_complexity)]
    fn flatten(
        &self,
        def: &'static TypeDef,
        via: &mut Vec<&'static str>,
        out: &mut Vec<(&'static str, &'static GoType, bool, bool, Vec<&'static str>)>,
        depth: usize,
    ) {
        for f in def.fields() {
            match f.json_name() {
                Some(json) => out.push((json, f.go_type(), f.omitempty(), f.omitzero(), via.clone())),
                None => {
                    if let Some(inner) = self.struct_def(f.go_type())
                        && depth < 16
                    {
                        via.push(f.go_name());
                        self.flatten(inner, via, out, depth + 1);
                        via.pop();
                    }
                }
            }
        }
    }
}

/// Fills in every node's zero value (a struct's is its fields' zero values, as Go encodes
/// them) and whether it is empty for `omitempty`.
fn zeros(nodes: &mut [Node]) {
    let mut done = vec![false; nodes.len()];
    for id in 0..nodes.len() {
        zero_of(nodes, &mut done, id, 0);
    }
}

fn zero_of(nodes: &mut [Node], done: &mut [bool], id: usize, depth: usize) -> Value {
    if done[id] || depth > 64 {
        return nodes[id].zero.clone();
    }
    let (zero, empty) = match &nodes[id].target {
        Target::Bool => (Value::Bool(false), true),
        Target::String => (Value::String(String::new()), true),
        Target::Int(_) | Target::Uint(_) | Target::Float(_) => (Value::from(0), true),
        Target::Bytes | Target::Slice(_) | Target::Map { .. } | Target::Pointer(_) | Target::Interface => {
            (Value::Null, true)
        }
        Target::IntOrString => (Value::from(0), false),
        Target::Quantity => (Value::String("0".into()), false),
        Target::Time | Target::MicroTime | Target::Raw => (Value::Null, false),
        Target::Struct(s) => {
            let fields: Vec<(&'static str, TypeId, bool, bool)> = s
                .fields
                .iter()
                .map(|f| (f.json, f.ty, f.omitempty, f.omitzero))
                .collect();
            let mut object = Map::new();
            for (json, ty, omitempty, omitzero) in fields {
                let z = zero_of(nodes, done, ty as usize, depth + 1);
                let left_out = omitzero || (omitempty && nodes[ty as usize].empty_when_zero);
                if !left_out {
                    object.insert(json.to_owned(), z);
                }
            }
            (Value::Object(object), false)
        }
    };
    nodes[id].zero = zero.clone();
    nodes[id].empty_when_zero = empty;
    done[id] = true;
    zero
}

fn builtin_target(name: &str) -> Target {
    match name {
        "bool" => Target::Bool,
        "string" => Target::String,
        "int8" => Target::Int(8),
        "int16" => Target::Int(16),
        "int32" | "rune" => Target::Int(32),
        "int" | "int64" => Target::Int(64),
        "uint8" | "byte" => Target::Uint(8),
        "uint16" => Target::Uint(16),
        "uint32" => Target::Uint(32),
        "uint" | "uint64" | "uintptr" => Target::Uint(64),
        "float32" => Target::Float(32),
        "float64" => Target::Float(64),
        _ => Target::Raw,
    }
}

/// `reflect.Type.Name()`: `DeploymentSpec` of `apps/v1.DeploymentSpec`.
fn base_name(qualified: &'static str) -> &'static str {
    qualified.rsplit('.').next().unwrap_or(qualified)
}
