//! The functions the API server declares for CRD validation rules at compatibility version
//! 1.36 (apiserver `pkg/cel/environment/base.go`), with cel-go's overload ids and signatures:
//! cel-go's standard library (cross-type numeric comparisons on), optional types, ext strings
//! (version 2), ext sets, ext lists (version 3), two-variable comprehensions
//! (`cel.@mapInsert`), and Kubernetes' URLs, regex, lists (version 0), authz (and its
//! selectors), quantity, IP, CIDR, format and semver (version 1) libraries. Nothing else:
//! `cel.bind` (ext bindings), `math.*`, `base64.*`, `strings` version 3's `reverse` on strings
//! are undeclared, as on the server.
//!
//! The table (`spec.txt`) lists one overload a line, by library in the order the server adds
//! them, each library under a header naming the compatibility versions it is part of
//! ([`Declarations::crd_at`] builds an older version's environment); a function declared by several libraries has its overloads in that order, as cel-go
//! merges them.

use std::collections::BTreeMap;

use crate::types::Type;

/// One overload of a function.
#[derive(Debug, Clone, PartialEq)]
pub struct Overload {
    /// cel-go's overload id (`add_int64`, `list_a_index_of_int`...).
    pub id: String,
    /// A receiver-style (member) overload: the first argument is the target.
    pub member: bool,
    /// The argument types (the target first for a member overload).
    pub args: Vec<Type>,
    /// The result type.
    pub result: Type,
    /// The type parameters the signature names, in order of appearance.
    pub type_params: Vec<String>,
}

/// A function and its overloads, in declaration order.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// The function's name (`_+_`, `size`, `sets.contains`...).
    pub name: String,
    /// Its overloads.
    pub overloads: Vec<Overload>,
}

/// The declarations an expression is checked against: functions and global identifiers.
#[derive(Debug, Clone, Default)]
pub struct Declarations {
    functions: BTreeMap<String, Function>,
    idents: BTreeMap<String, Type>,
}

const SPEC: &str = include_str!("spec.txt");

/// Whether a table section marked `introduced[-removed]` is part of `version`'s environment.
fn section_included(versions: &str, version: crate::Compatibility) -> bool {
    let parse = |v: &str| {
        let (major, minor) = v.trim().split_once('.')?;
        Some(crate::Compatibility::new(major.parse().ok()?, minor.parse().ok()?))
    };
    let (introduced, removed) = match versions.split_once('-') {
        Some((i, r)) => (parse(i), parse(r)),
        None => (parse(versions), None),
    };
    introduced.is_some_and(|i| version.has(i, removed))
}

/// The object types the server's libraries register (no fields).
pub const LIBRARY_OBJECT_TYPES: [&str; 9] = [
    crate::types::URL,
    crate::types::QUANTITY,
    crate::types::SEMVER,
    crate::types::NAMED_FORMAT,
    "kubernetes.authorization.Authorizer",
    "kubernetes.authorization.PathCheck",
    "kubernetes.authorization.GroupCheck",
    "kubernetes.authorization.ResourceCheck",
    "kubernetes.authorization.Decision",
];

impl Declarations {
    /// The CRD environment's declarations (compatibility version 1.36): every function of
    /// the libraries listed in the module docs, and the type identifiers (`int`, `list`,
    /// `kubernetes.Quantity`...).
    pub fn crd() -> Declarations {
        Declarations::crd_at(crate::Compatibility::DEFAULT)
    }

    /// [`Declarations::crd_at`], built once per process and version.
    pub fn shared_crd(version: crate::Compatibility) -> std::sync::Arc<Declarations> {
        use std::sync::{Arc, Mutex};
        type Built = Vec<(crate::Compatibility, Arc<Declarations>)>;
        static BUILT: Mutex<Built> = Mutex::new(Vec::new());
        let mut built = BUILT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, d)) = built.iter().find(|(v, _)| *v == version) {
            return d.clone();
        }
        let d = Arc::new(Declarations::crd_at(version));
        built.push((version, d.clone()));
        d
    }

    /// The CRD environment's declarations at compatibility version `version`: the libraries
    /// the server adds at that version (each section of the table names the versions it is
    /// part of: `@1.30`, `@1.0-1.37`).
    pub fn crd_at(version: crate::Compatibility) -> Declarations {
        let mut d = Declarations::default();
        let mut included = true;
        for line in SPEC.lines() {
            if let Some(header) = line.strip_prefix('#') {
                included = header
                    .rsplit_once('@')
                    .is_none_or(|(_, v)| section_included(v, version));
                continue;
            }
            if !included || line.trim().is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split(';').collect();
            if parts.len() != 5 {
                continue;
            }
            let args: Vec<Type> = split_top(parts[3]).iter().map(|a| parse_type(a)).collect();
            let result = parse_type(parts[4]);
            d.add_overload(parts[0], parts[1], parts[2] == "m", args, result);
        }
        for t in [
            Type::Bool,
            Type::Bytes,
            Type::Double,
            Type::Duration,
            Type::Int,
            Type::list(Type::param("A")),
            Type::map(Type::param("A"), Type::param("B")),
            Type::Null,
            Type::String,
            Type::Timestamp,
            Type::Type(None),
            Type::Uint,
        ] {
            let name = match &t {
                Type::Duration => "google.protobuf.Duration".to_owned(),
                Type::Timestamp => "google.protobuf.Timestamp".to_owned(),
                t => t.type_name().to_owned(),
            };
            d.idents.insert(name, Type::type_of(t));
        }
        d.idents
            .insert("optional_type".into(), Type::type_of(Type::optional(Type::param("T"))));
        let at_least = |minor| version >= crate::Compatibility::new(1, minor);
        for name in LIBRARY_OBJECT_TYPES {
            let introduced = match name {
                crate::types::SEMVER => at_least(33),
                crate::types::NAMED_FORMAT => at_least(31),
                _ => true,
            };
            if introduced {
                d.idents.insert(name.into(), Type::type_of(Type::object(name)));
            }
        }
        if at_least(30) {
            for name in [crate::types::IP, crate::types::CIDR] {
                d.idents.insert(name.into(), Type::type_of(Type::opaque(name)));
            }
        }
        d
    }

    /// Adds an overload to a function (declaring the function if needed); an overload whose
    /// id is already declared is ignored.
    pub fn add_overload(&mut self, function: &str, id: &str, member: bool, args: Vec<Type>, result: Type) {
        let mut type_params = Vec::new();
        for t in args.iter().chain(std::iter::once(&result)) {
            collect_params(t, &mut type_params);
        }
        let f = self.functions.entry(function.to_owned()).or_insert_with(|| Function {
            name: function.to_owned(),
            overloads: Vec::new(),
        });
        if f.overloads.iter().any(|o| o.id == id) {
            return;
        }
        f.overloads.push(Overload {
            id: id.to_owned(),
            member,
            args,
            result,
            type_params,
        });
    }

    /// Declares a global identifier (a variable) with its type.
    pub fn add_ident(&mut self, name: &str, t: Type) {
        self.idents.insert(name.to_owned(), t);
    }

    /// A function by name.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.get(name)
    }

    /// A global identifier's type.
    pub fn ident(&self, name: &str) -> Option<&Type> {
        self.idents.get(name)
    }

    /// Every function, by name.
    pub fn functions(&self) -> impl Iterator<Item = &Function> {
        self.functions.values()
    }

    /// An overload by id.
    pub fn overload(&self, id: &str) -> Option<&Overload> {
        self.functions.values().flat_map(|f| &f.overloads).find(|o| o.id == id)
    }
}

fn collect_params(t: &Type, out: &mut Vec<String>) {
    if let Type::TypeParam(n) = t
        && !out.contains(n)
    {
        out.push(n.clone());
    }
    for p in t.parameters() {
        collect_params(p, out);
    }
}

/// Splits `a,list(b,c),d` at its top-level commas.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(s[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    if !s[start..].trim().is_empty() {
        out.push(s[start..].trim());
    }
    out
}

/// Parses the table's type notation (`int`, `list(A)`, `map(K,V)`, `optional_type(V)`,
/// `type(A)`, upper-case single names as type parameters, dotted names as objects, `net.IP`
/// and `net.CIDR` as opaque types). Unknown notation is the error type (a test keeps the
/// table free of it).
pub(crate) fn parse_type(s: &str) -> Type {
    let s = s.trim();
    if let Some(open) = s.find('(') {
        let name = &s[..open];
        let inner = s.get(open + 1..s.len().saturating_sub(1)).unwrap_or("");
        let params: Vec<Type> = split_top(inner).iter().map(|p| parse_type(p)).collect();
        return match (name, params.as_slice()) {
            ("list", [e]) => Type::list(e.clone()),
            ("map", [k, v]) => Type::map(k.clone(), v.clone()),
            ("type", [t]) => Type::type_of(t.clone()),
            ("optional_type", [t]) => Type::optional(t.clone()),
            _ => Type::Error,
        };
    }
    match s {
        "bool" => Type::Bool,
        "int" => Type::Int,
        "uint" => Type::Uint,
        "double" => Type::Double,
        "string" => Type::String,
        "bytes" => Type::Bytes,
        "timestamp" => Type::Timestamp,
        "duration" => Type::Duration,
        "dyn" => Type::Dyn,
        "null" => Type::Null,
        crate::types::IP | crate::types::CIDR => Type::opaque(s),
        _ if s.len() == 1 && s.chars().all(|c| c.is_ascii_uppercase()) => Type::param(s),
        _ if s.contains('.') => Type::object(s),
        _ => Type::Error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_parses() {
        let d = Declarations::crd();
        let mut count = 0;
        for f in d.functions() {
            for o in &f.overloads {
                count += 1;
                assert!(
                    !o.args
                        .iter()
                        .chain([&o.result])
                        .any(|t| format!("{t}").contains("!error!")),
                    "{}",
                    o.id
                );
                assert!(!o.member || !o.args.is_empty(), "{}", o.id);
            }
        }
        assert_eq!(
            count,
            SPEC.lines().filter(|l| !l.starts_with('#') && !l.is_empty()).count()
        );
    }

    #[test]
    fn libraries() {
        let d = Declarations::crd();
        for declared in [
            "sets.contains",
            "cel.@mapInsert",
            "isSorted",
            "format.dns1123Label",
            "semver",
            "lists.range",
            "optional.unwrap",
            "quantity",
            "cidr",
            "ip.isCanonical",
            "findAll",
            "path",
        ] {
            assert!(d.function(declared).is_some(), "{declared}");
        }
        for undeclared in [
            "cel.bind",
            "math.greatest",
            "base64.encode",
            "strings.reverse",
            "includes",
            "sortBy",
        ] {
            assert!(d.function(undeclared).is_none(), "{undeclared}");
        }
        let index_of: Vec<_> = d
            .function("indexOf")
            .unwrap()
            .overloads
            .iter()
            .map(|o| o.id.as_str())
            .collect();
        assert_eq!(
            index_of,
            [
                "list_a_index_of_int",
                "string_index_of_string",
                "string_index_of_string_int"
            ]
        );
        let string: Vec<_> = d
            .function("string")
            .unwrap()
            .overloads
            .iter()
            .map(|o| o.id.as_str())
            .collect();
        assert_eq!(string.last(), Some(&"cidr_to_string"));
        assert_eq!(d.overload("optional_or_optional").unwrap().type_params, ["V"]);
        assert_eq!(d.overload("index_map").unwrap().type_params, ["A", "B"]);
    }
}
