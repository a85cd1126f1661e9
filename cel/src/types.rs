//! CEL types as cel-go's checker has them ([`Type`], displayed as cel-go's `FormatCELType`
//! displays them: `list(string)`, `map(string, int)`, `optional_type(int)`, `null`,
//! `!error!`), and the declared types the API server derives from a schema ([`DeclType`],
//! apiserver `pkg/cel/types.go`): a CEL type with the size facts the cost estimator reads.

use std::collections::BTreeMap;
use std::fmt;

use crate::schema::Json;

/// A CEL type, as cel-go's `types.Type` (kinds and parameters).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// `dyn`.
    Dyn,
    /// `any` (`google.protobuf.Any`; behaves as `dyn` in the checker).
    Any,
    /// The checker's error type (`!error!`).
    Error,
    /// `null_type` (displayed `null` in messages).
    Null,
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `double`.
    Double,
    /// `string`.
    String,
    /// `bytes`.
    Bytes,
    /// `google.protobuf.Timestamp`.
    Timestamp,
    /// `google.protobuf.Duration`.
    Duration,
    /// `list(T)`.
    List(Box<Type>),
    /// `map(K, V)`.
    Map(Box<Type>, Box<Type>),
    /// An object (struct) type by name: a schema object (`selfType1.spec`), or a library's
    /// object type (`kubernetes.Quantity`, `kubernetes.URL`, `kubernetes.Semver`,
    /// `kubernetes.NamedFormat`).
    Object(String),
    /// An opaque type with parameters: `optional_type(T)`, `net.IP`, `net.CIDR`, and the
    /// checker's internal `function(R, A...)`.
    Opaque(String, Vec<Type>),
    /// A type parameter (`A`, `T`, or the checker's fresh `_var0`).
    TypeParam(String),
    /// `type` or `type(T)`.
    Type(Option<Box<Type>>),
}

/// `kubernetes.Quantity`.
pub const QUANTITY: &str = "kubernetes.Quantity";
/// `kubernetes.URL`.
pub const URL: &str = "kubernetes.URL";
/// `kubernetes.Semver`.
pub const SEMVER: &str = "kubernetes.Semver";
/// `kubernetes.NamedFormat`.
pub const NAMED_FORMAT: &str = "kubernetes.NamedFormat";
/// `net.IP` (opaque).
pub const IP: &str = "net.IP";
/// `net.CIDR` (opaque).
pub const CIDR: &str = "net.CIDR";
/// `optional_type` (opaque, one parameter).
pub const OPTIONAL: &str = "optional_type";

impl Type {
    /// `list(elem)`.
    pub fn list(elem: Type) -> Type {
        Type::List(Box::new(elem))
    }

    /// `map(key, value)`.
    pub fn map(key: Type, value: Type) -> Type {
        Type::Map(Box::new(key), Box::new(value))
    }

    /// `optional_type(t)`.
    pub fn optional(t: Type) -> Type {
        Type::Opaque(OPTIONAL.to_owned(), vec![t])
    }

    /// `type(t)`.
    pub fn type_of(t: Type) -> Type {
        Type::Type(Some(Box::new(t)))
    }

    /// A type parameter.
    pub fn param(name: &str) -> Type {
        Type::TypeParam(name.to_owned())
    }

    /// An object type.
    pub fn object(name: &str) -> Type {
        Type::Object(name.to_owned())
    }

    /// An opaque type without parameters (`net.IP`).
    pub fn opaque(name: &str) -> Type {
        Type::Opaque(name.to_owned(), Vec::new())
    }

    /// The runtime type name cel-go gives the type (`list`, `map`, `null_type`,
    /// `google.protobuf.Timestamp`, `optional_type`, the object's name...).
    pub fn type_name(&self) -> &str {
        match self {
            Type::Dyn => "dyn",
            Type::Any => "google.protobuf.Any",
            Type::Error => "error",
            Type::Null => "null_type",
            Type::Bool => "bool",
            Type::Int => "int",
            Type::Uint => "uint",
            Type::Double => "double",
            Type::String => "string",
            Type::Bytes => "bytes",
            Type::Timestamp => "google.protobuf.Timestamp",
            Type::Duration => "google.protobuf.Duration",
            Type::List(_) => "list",
            Type::Map(..) => "map",
            Type::Object(n) | Type::Opaque(n, _) | Type::TypeParam(n) => n,
            Type::Type(_) => "type",
        }
    }

    /// The type's parameters (a list's element, a map's key and value, an opaque type's
    /// parameters, `type(T)`'s T).
    pub fn parameters(&self) -> Vec<&Type> {
        match self {
            Type::List(e) => vec![e],
            Type::Map(k, v) => vec![k, v],
            Type::Opaque(_, p) => p.iter().collect(),
            Type::Type(Some(t)) => vec![t],
            _ => Vec::new(),
        }
    }

    /// `dyn` or `any`.
    pub fn is_dyn(&self) -> bool {
        matches!(self, Type::Dyn | Type::Any)
    }

    /// The error type.
    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }

    /// `dyn`, `any` or the error type.
    pub fn is_dyn_or_error(&self) -> bool {
        self.is_dyn() || self.is_error()
    }

    /// `optional_type(T)`'s T.
    pub fn optional_param(&self) -> Option<&Type> {
        match self {
            Type::Opaque(n, p) if n == OPTIONAL && p.len() == 1 => Some(&p[0]),
            _ => None,
        }
    }

    /// The kind ordinal used where cel-go compares kinds.
    pub(crate) fn kind(&self) -> u8 {
        match self {
            Type::Any => 1,
            Type::Bool => 2,
            Type::Bytes => 3,
            Type::Double => 4,
            Type::Duration => 5,
            Type::Dyn => 6,
            Type::Error => 7,
            Type::Int => 8,
            Type::List(_) => 9,
            Type::Map(..) => 10,
            Type::Null => 11,
            Type::Opaque(..) => 12,
            Type::String => 13,
            Type::Object(_) => 14,
            Type::Timestamp => 15,
            Type::Type(_) => 16,
            Type::TypeParam(_) => 17,
            Type::Uint => 18,
        }
    }

    /// cel-go's `Type.IsAssignableType` default: same kind and name, parameters
    /// assignable (no wrapper types exist in this environment).
    pub(crate) fn is_assignable_type(&self, other: &Type) -> bool {
        if self == other {
            return true;
        }
        if self.kind() != other.kind() || self.type_name() != other.type_name() {
            return false;
        }
        let (a, b) = (self.parameters(), other.parameters());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_assignable_type(y))
    }
}

impl fmt::Display for Type {
    /// cel-go's `FormatCELType`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Any => f.write_str("any"),
            Type::Duration => f.write_str("duration"),
            Type::Timestamp => f.write_str("timestamp"),
            Type::Error => f.write_str("!error!"),
            Type::Null => f.write_str("null"),
            Type::Opaque(n, p) if n == "function" && !p.is_empty() => {
                f.write_str(&format_function(Some(&p[0]), &p[1..].iter().collect::<Vec<_>>(), false))
            }
            Type::Type(None) => f.write_str("type"),
            _ => {
                let params = self.parameters();
                if params.is_empty() {
                    return f.write_str(self.type_name());
                }
                write!(f, "{}(", self.type_name())?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// cel-go's `formatFunctionDeclType`: `(int, string) -> bool`, `string.(int)` for a member
/// call; without a result type, no arrow.
pub fn format_function(result: Option<&Type>, args: &[&Type], member: bool) -> String {
    let mut out = String::new();
    let mut args = args;
    if member && !args.is_empty() {
        out.push_str(&args[0].to_string());
        out.push('.');
        args = &args[1..];
    }
    out.push('(');
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(&a.to_string());
    }
    out.push(')');
    if let Some(r) = result {
        out.push_str(" -> ");
        out.push_str(&r.to_string());
    }
    out
}

/// apiserver's `noMaxLength` (Go's `math.MaxInt`).
pub const NO_MAX_LENGTH: i64 = i64::MAX;

/// apiserver `pkg/cel/limits.go`: the JSON sizes the estimates use.
pub mod limits {
    /// `DefaultMaxRequestSizeBytes` (3 MiB).
    pub const MAX_REQUEST_SIZE_BYTES: i64 = 3 * 1024 * 1024;
    /// `MaxDurationSizeJSON`.
    pub const MAX_DURATION_SIZE_JSON: i64 = 32;
    /// `MaxDatetimeSizeJSON`.
    pub const MAX_DATETIME_SIZE_JSON: i64 = 32;
    /// `MinDurationSizeJSON`.
    pub const MIN_DURATION_SIZE_JSON: i64 = 3;
    /// `JSONDateSize`.
    pub const JSON_DATE_SIZE: i64 = 12;
    /// `MinDatetimeSizeJSON`.
    pub const MIN_DATETIME_SIZE_JSON: i64 = 21;
    /// `MinStringSize`.
    pub const MIN_STRING_SIZE: i64 = 2;
    /// `MinBoolSize`.
    pub const MIN_BOOL_SIZE: i64 = 4;
    /// `MinNumberSize`.
    pub const MIN_NUMBER_SIZE: i64 = 1;
}

/// What a declared type is made of.
#[derive(Debug, Clone, PartialEq)]
pub enum DeclKind {
    /// A scalar (or `dyn`).
    Simple,
    /// A list of the element type.
    List(Box<DeclType>),
    /// A map from the key type to the element type.
    Map(Box<DeclType>, Box<DeclType>),
    /// An object with named fields (escaped names, sorted).
    Object(BTreeMap<String, DeclField>),
}

/// apiserver's `DeclType`: a type declared from a schema, with its CEL type, the maximum
/// number of elements a value can have (a list's items, a map's entries, a string's or
/// bytes' length: what the cost estimator reads) and the smallest JSON it serializes to.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclType {
    /// The type's name: `list`, `map`, `object` (before a name is assigned), the assigned
    /// object name (`selfType1.spec`), or the scalar's name (`string`, `int`, `dyn`...).
    pub name: String,
    /// Its structure.
    pub kind: DeclKind,
    /// `MaxElements`.
    pub max_elements: i64,
    /// `MinSerializedSize`.
    pub min_serialized_size: i64,
    /// The CEL type.
    pub cel_type: Type,
}

/// apiserver's `DeclField`.
#[derive(Debug, Clone, PartialEq)]
pub struct DeclField {
    /// The (escaped) name.
    pub name: String,
    /// The field's type.
    pub ty: DeclType,
    /// Listed in the schema's `required`.
    pub required: bool,
    /// The schema's `enum`.
    pub enum_values: Vec<Json>,
    /// The schema's `default`.
    pub default: Option<Json>,
}

impl DeclType {
    /// A scalar with its minimum serialized size (`NewSimpleTypeWithMinSize`); `max_elements`
    /// starts at 0.
    pub fn simple(name: &str, cel_type: Type, min_size: i64) -> DeclType {
        DeclType {
            name: name.to_owned(),
            kind: DeclKind::Simple,
            max_elements: 0,
            min_serialized_size: min_size,
            cel_type,
        }
    }

    /// `NewListType`.
    pub fn new_list(elem: DeclType, max_items: i64) -> DeclType {
        DeclType {
            name: "list".to_owned(),
            cel_type: Type::list(elem.cel_type.clone()),
            kind: DeclKind::List(Box::new(elem)),
            max_elements: max_items,
            min_serialized_size: 2,
        }
    }

    /// `NewMapType`.
    pub fn new_map(key: DeclType, elem: DeclType, max_properties: i64) -> DeclType {
        DeclType {
            name: "map".to_owned(),
            cel_type: Type::map(key.cel_type.clone(), elem.cel_type.clone()),
            kind: DeclKind::Map(Box::new(key), Box::new(elem)),
            max_elements: max_properties,
            min_serialized_size: 2,
        }
    }

    /// `NewObjectType`.
    pub fn new_object(name: &str, fields: BTreeMap<String, DeclField>) -> DeclType {
        DeclType {
            name: name.to_owned(),
            cel_type: Type::object(name),
            kind: DeclKind::Object(fields),
            max_elements: 0,
            min_serialized_size: 2,
        }
    }

    /// `BoolType`.
    pub fn bool() -> DeclType {
        DeclType::simple("bool", Type::Bool, limits::MIN_BOOL_SIZE)
    }

    /// `IntType`.
    pub fn int() -> DeclType {
        DeclType::simple("int", Type::Int, limits::MIN_NUMBER_SIZE)
    }

    /// `DoubleType`.
    pub fn double() -> DeclType {
        DeclType::simple("double", Type::Double, limits::MIN_NUMBER_SIZE)
    }

    /// `StringType` (no maximum length).
    pub fn string() -> DeclType {
        DeclType::simple("string", Type::String, limits::MIN_STRING_SIZE)
    }

    /// `DynType`.
    pub fn dyn_() -> DeclType {
        DeclType::simple("dyn", Type::Dyn, 1)
    }

    /// A list.
    pub fn is_list(&self) -> bool {
        matches!(self.kind, DeclKind::List(_))
    }

    /// A map.
    pub fn is_map(&self) -> bool {
        matches!(self.kind, DeclKind::Map(..))
    }

    /// An object.
    pub fn is_object(&self) -> bool {
        matches!(self.kind, DeclKind::Object(_))
    }

    /// The element type of a list or map (`ElemType`).
    pub fn elem_type(&self) -> Option<&DeclType> {
        match &self.kind {
            DeclKind::List(e) | DeclKind::Map(_, e) => Some(e),
            _ => None,
        }
    }

    /// The key type of a map (`KeyType`).
    pub fn key_type(&self) -> Option<&DeclType> {
        match &self.kind {
            DeclKind::Map(k, _) => Some(k),
            _ => None,
        }
    }

    /// An object's fields (`Fields`).
    pub fn fields(&self) -> Option<&BTreeMap<String, DeclField>> {
        match &self.kind {
            DeclKind::Object(f) => Some(f),
            _ => None,
        }
    }

    /// `MaybeAssignTypeName`: names every unnamed object (`object`) by its path from `name`
    /// (`name.field`, `name.@idx` for list items, `name.@elem` for map values); an object
    /// already named keeps its name and names its fields from it.
    pub fn maybe_assign_type_name(&self, name: &str) -> DeclType {
        match &self.kind {
            DeclKind::Object(fields) => {
                let name = if self.name != "object" {
                    self.name.as_str()
                } else {
                    name
                };
                let fields = fields
                    .iter()
                    .map(|(n, f)| {
                        let mut f = f.clone();
                        f.ty = f.ty.maybe_assign_type_name(&format!("{name}.{n}"));
                        (n.clone(), f)
                    })
                    .collect();
                DeclType {
                    name: name.to_owned(),
                    kind: DeclKind::Object(fields),
                    max_elements: self.max_elements,
                    min_serialized_size: self.min_serialized_size,
                    cel_type: Type::object(name),
                }
            }
            DeclKind::Map(k, e) => {
                let e2 = e.maybe_assign_type_name(&format!("{name}.@elem"));
                if **e == e2 {
                    return self.clone();
                }
                DeclType::new_map((**k).clone(), e2, self.max_elements)
            }
            DeclKind::List(e) => {
                let e2 = e.maybe_assign_type_name(&format!("{name}.@idx"));
                if **e == e2 {
                    return self.clone();
                }
                DeclType::new_list(e2, self.max_elements)
            }
            DeclKind::Simple => self.clone(),
        }
    }

    /// `FieldTypeMap`: every object type below (and including) this one by name, as the
    /// type provider registers them.
    pub fn object_types(&self) -> BTreeMap<String, DeclType> {
        let mut out = BTreeMap::new();
        fn walk(t: &DeclType, out: &mut BTreeMap<String, DeclType>) {
            match &t.kind {
                DeclKind::Object(fields) => {
                    out.insert(t.name.clone(), t.clone());
                    for f in fields.values() {
                        walk(&f.ty, out);
                    }
                }
                DeclKind::List(e) | DeclKind::Map(_, e) => walk(e, out),
                DeclKind::Simple => {}
            }
        }
        walk(self, &mut out);
        out
    }
}

/// The words apiserver's `Escape` wraps as `__{word}__` (`celReservedSymbols`).
pub const RESERVED_SYMBOLS: [&str; 21] = [
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// apiserver's `Escape`: the name by which CEL reaches a property (`a-b` is `a__dash__b`,
/// `if` is `__if__`); `None` for a name that cannot be escaped.
pub fn escape(ident: &str) -> Option<String> {
    let first = ident.bytes().next()?;
    if first.is_ascii_digit() {
        return None;
    }
    if RESERVED_SYMBOLS.contains(&ident) {
        return Some(format!("__{ident}__"));
    }
    let valid = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut can_skip = true;
    let mut previous_underscore = false;
    for c in ident.chars() {
        if matches!(c, '/' | '-' | '.') {
            can_skip = false;
            break;
        }
        if !valid(c) {
            return None;
        }
        if c == '_' && previous_underscore {
            can_skip = false;
            break;
        }
        previous_underscore = c == '_';
    }
    if can_skip {
        return Some(ident.to_owned());
    }
    let mut out = String::with_capacity(ident.len() + 16);
    let mut rest = ident;
    while let Some(c) = rest.chars().next() {
        if rest.starts_with("__") {
            out.push_str("__underscores__");
            rest = &rest[2..];
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c if valid(c) => out.push(c),
            _ => return None,
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}
