//! cel-go's type checker (`checker/checker.go`, `checker/types.go`) over [`ast::Expr`], with
//! the AST validators the API server turns on (homogeneous aggregate literals, duration and
//! timestamp literals), and the CRD rule checks on top ([`compile_rule`]).
//!
//! ```
//! use kstruct_cel::check::{check, Env};
//! use kstruct_cel::types::Type;
//!
//! let mut env = Env::crd();
//! env.declare_variable("self", Type::map(Type::String, Type::Int));
//! let src = "self.a == 'x'";
//! let e = kstruct_cel::parse(src).unwrap();
//! let err = check(&e, src, &env).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'\n | self.a == 'x'\n | .......^"
//! );
//! ```

mod unify;
mod validate;

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;

use crate::ast::{Expr, ExprKind, Id, Literal};
use crate::decls::{Declarations, Function};
use crate::types::{DeclType, RESERVED_SYMBOLS, Type, format_function};
use unify::{Mapping, is_assignable, is_assignable_list, most_general, substitute};

/// What an expression is checked against: the declared functions and identifiers, and the
/// object types (by name) whose fields selections resolve.
#[derive(Debug, Clone)]
pub struct Env {
    /// The library's functions and type names, shared by every environment of one
    /// compatibility version.
    pub decls: Arc<Declarations>,
    /// Variables and the type names of object types declared here (before `decls`).
    pub idents: BTreeMap<String, Type>,
    /// Object types by name (the type provider's registered types).
    pub object_types: BTreeMap<String, DeclType>,
    /// A field named by a reserved word (`namespace`) is found under its escaped name
    /// (`__namespace__`), as the API server's type provider does from 1.31.
    pub recognize_keyword_as_field_name: bool,
    /// The compatibility version (which macros the parser expands).
    pub version: crate::Compatibility,
}

impl Env {
    /// The CRD environment at compatibility version 1.36, without variables.
    pub fn crd() -> Env {
        Env::crd_at(crate::Compatibility::DEFAULT)
    }

    /// The CRD environment at compatibility version `version`, without variables.
    pub fn crd_at(version: crate::Compatibility) -> Env {
        Env {
            decls: Declarations::shared_crd(version),
            idents: BTreeMap::new(),
            object_types: BTreeMap::new(),
            recognize_keyword_as_field_name: version.recognizes_keywords_as_field_names(),
            version,
        }
    }

    /// The environment of a CRD node's rules: `self` and `oldSelf` (see
    /// [`crate::schema::rule_variables`]) and the node's object types.
    pub fn for_rule(vars: &crate::schema::RuleVariables) -> Env {
        Env::for_rule_at(vars, crate::Compatibility::DEFAULT)
    }

    /// [`Env::for_rule`] at compatibility version `version`.
    pub fn for_rule_at(vars: &crate::schema::RuleVariables, version: crate::Compatibility) -> Env {
        let mut env = Env::crd_at(version);
        env.declare_variable("self", vars.self_type.clone());
        env.declare_variable("oldSelf", vars.old_self_type.clone());
        for (name, t) in &vars.object_types {
            env.declare_object_type(name, t.clone());
        }
        env
    }

    /// Declares a variable.
    pub fn declare_variable(&mut self, name: &str, t: Type) {
        self.idents.insert(name.to_owned(), t);
    }

    /// Registers an object type (its name becomes a type identifier).
    pub fn declare_object_type(&mut self, name: &str, t: DeclType) {
        if self.ident(name).is_none() {
            self.idents.insert(name.to_owned(), Type::type_of(Type::object(name)));
        }
        self.object_types.insert(name.to_owned(), t);
    }

    /// A global identifier's type: a variable or type name declared here, else the library's.
    pub fn ident(&self, name: &str) -> Option<&Type> {
        self.idents.get(name).or_else(|| self.decls.ident(name))
    }

    fn is_object_type(&self, name: &str) -> bool {
        self.object_types.contains_key(name) || crate::decls::LIBRARY_OBJECT_TYPES.contains(&name)
    }

    fn field_type(&self, type_name: &str, field: &str) -> Option<Type> {
        let t = self.object_types.get(type_name)?;
        let fields = t.fields()?;
        let f = fields.get(field).or_else(|| {
            if self.recognize_keyword_as_field_name && RESERVED_SYMBOLS.contains(&field) {
                fields.get(&format!("__{field}__"))
            } else {
                None
            }
        })?;
        Some(f.ty.cel_type.clone())
    }
}

/// What a node refers to, once checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Reference {
    /// A variable or type name (a select chain resolved as a qualified name too).
    Ident(String),
    /// A call: the function's name as resolved (a qualified name like `sets.contains` when
    /// the parser saw a member call on `sets`), whether it is a member call, and the ids of
    /// the overloads that match.
    Function {
        /// The function.
        name: String,
        /// Called with a target.
        member: bool,
        /// The matching overloads, in declaration order.
        overloads: Vec<String>,
    },
}

/// A checked expression: every node's type and the references of identifiers and calls.
#[derive(Debug, Clone)]
pub struct Checked {
    /// Node id → type (type parameters left free are `dyn`).
    pub types: HashMap<Id, Type>,
    /// Node id → reference.
    pub references: HashMap<Id, Reference>,
    /// The expression's type.
    pub result: Type,
}

impl Checked {
    /// A node's type.
    pub fn type_of(&self, id: Id) -> Option<&Type> {
        self.types.get(&id)
    }
}

/// One checking error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// The node's byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 0-based column, in code points (cel-go's location; displayed plus one).
    pub column: usize,
    /// cel-go's message.
    pub message: String,
}

/// Why an expression does not check: cel-go's errors, in the order cel-go displays them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckError {
    /// The errors, sorted by position (stable), at most 100.
    pub issues: Vec<Issue>,
    /// How many errors were reported in all (more than 100 are truncated, as cel-go does).
    pub count: usize,
    source: String,
}

/// cel-go's `maxErrorsToReport`.
const MAX_ERRORS: usize = 100;

impl CheckError {
    fn new(source: &str, mut issues: Vec<Issue>) -> CheckError {
        let count = issues.len();
        issues.truncate(MAX_ERRORS);
        issues.sort_by_key(|i| (i.line, i.column));
        CheckError {
            issues,
            count,
            source: source.to_owned(),
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.issues.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(
                f,
                "ERROR: <input>:{}:{}: {}",
                issue.line,
                issue.column + 1,
                issue.message
            )?;
            if let Some(snippet) = self.source.split('\n').nth(issue.line.saturating_sub(1)) {
                let snippet = snippet.strip_suffix('\r').unwrap_or(snippet);
                if snippet.len() <= 16384 {
                    let snippet = snippet.replace('\t', " ");
                    write!(f, "\n | {snippet}\n | ")?;
                    let mut chars = snippet.chars();
                    for _ in 0..issue.column {
                        match chars.next() {
                            Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff0e}")?,
                            Some(_) => f.write_str(".")?,
                            None => break,
                        }
                    }
                    match chars.next() {
                        Some(c) if c.len_utf8() > 1 => f.write_str("\u{ff3e}")?,
                        _ => f.write_str("^")?,
                    }
                }
            }
        }
        if self.count > MAX_ERRORS {
            write!(f, "\n{} more errors were truncated", self.count - MAX_ERRORS)?;
        }
        Ok(())
    }
}

impl std::error::Error for CheckError {}

/// cel-go's location of a byte offset: 1-based line, 0-based code-point column.
fn location(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let mut line = 1;
    let mut line_start = 0;
    for (i, c) in src.char_indices() {
        if i >= offset {
            break;
        }
        if c == '\n' {
            line += 1;
            line_start = i + 1;
        }
    }
    let column = src.get(line_start..offset).map_or(0, |s| s.chars().count());
    (line, column)
}

/// Type-checks a parsed expression as cel-go does in the given environment, then runs the
/// API server's AST validators (homogeneous aggregate literals; duration and timestamp
/// literals) when checking succeeds.
///
/// # Errors
/// cel-go's errors, sorted by position.
pub fn check(expr: &Expr, source: &str, env: &Env) -> Result<Checked, CheckError> {
    let mut offsets = HashMap::new();
    expr.walk(&mut |e| {
        offsets.insert(e.id, e.offset);
    });
    let mut c = Checker {
        env,
        source,
        offsets,
        types: HashMap::new(),
        references: HashMap::new(),
        mapping: Mapping::default(),
        scopes: Vec::new(),
        free_vars: 0,
        issues: Vec::new(),
    };
    c.check(expr);
    let mapping = std::mem::take(&mut c.mapping);
    let types: HashMap<Id, Type> = c
        .types
        .iter()
        .map(|(id, t)| (*id, substitute(&mapping, t, true)))
        .collect();
    if !c.issues.is_empty() {
        return Err(CheckError::new(source, c.issues));
    }
    let result = types.get(&expr.id).cloned().unwrap_or(Type::Error);
    let checked = Checked {
        types,
        references: c.references,
        result,
    };
    let issues = validate::validate(expr, &checked)
        .into_iter()
        .map(|(offset, message)| {
            let (line, column) = location(source, offset);
            Issue {
                offset,
                line,
                column,
                message,
            }
        })
        .collect::<Vec<_>>();
    if !issues.is_empty() {
        return Err(CheckError::new(source, issues));
    }
    Ok(checked)
}

/// Why a CRD rule or message expression does not compile: the detail the API server
/// reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleError {
    /// The expression does not parse or check: `compilation failed: ERROR: ...`
    /// (`messageExpression compilation failed: ...` for a message expression).
    Compile {
        /// The prefix (`compilation failed: `, `messageExpression compilation failed: `).
        prefix: &'static str,
        /// The parser's or checker's display.
        issues: String,
    },
    /// `cel expression must evaluate to a bool` / `messageExpression must evaluate to a
    /// string`.
    Type(&'static str),
    /// The program cannot be built (a regex constant that does not compile): `program
    /// instantiation failed: ...` (`messageExpression instantiation failed: ...`).
    Program {
        /// The prefix.
        prefix: &'static str,
        /// Go's error.
        error: String,
    },
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleError::Compile { prefix, issues } => write!(f, "{prefix}{issues}"),
            RuleError::Type(m) => f.write_str(m),
            RuleError::Program { prefix, error } => write!(f, "{prefix}{error}"),
        }
    }
}

impl std::error::Error for RuleError {}

/// Which of a validation rule's expressions is compiled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    /// `rule`: must be a `bool`.
    Rule,
    /// `messageExpression`: must be a `string`.
    MessageExpression,
}

/// Compiles a rule or message expression as apiextensions' `compileRule` does: parse, check,
/// the result type (`cel expression must evaluate to a bool`, `messageExpression must
/// evaluate to a string`), then the program (its regex constants).
///
/// # Errors
/// The detail the API server reports.
pub fn compile_rule(src: &str, env: &Env, kind: RuleKind) -> Result<(Expr, Checked), RuleError> {
    let prefix = match kind {
        RuleKind::Rule => "compilation failed: ",
        RuleKind::MessageExpression => "messageExpression compilation failed: ",
    };
    let expr = crate::parse_at(src, env.version).map_err(|e| RuleError::Compile {
        prefix,
        issues: e.to_string(),
    })?;
    let checked = check(&expr, src, env).map_err(|e| RuleError::Compile {
        prefix,
        issues: e.to_string(),
    })?;
    match kind {
        RuleKind::Rule if checked.result != Type::Bool => {
            Err(RuleError::Type("cel expression must evaluate to a bool"))
        }
        RuleKind::MessageExpression if checked.result != Type::String => {
            Err(RuleError::Type("messageExpression must evaluate to a string"))
        }
        _ => match validate::regex_constants(&expr) {
            Ok(()) => Ok((expr, checked)),
            Err(error) => Err(RuleError::Program {
                prefix: match kind {
                    RuleKind::Rule => "program instantiation failed: ",
                    RuleKind::MessageExpression => "messageExpression instantiation failed: ",
                },
                error,
            }),
        },
    }
}

struct Checker<'a> {
    env: &'a Env,
    source: &'a str,
    offsets: HashMap<Id, usize>,
    types: HashMap<Id, Type>,
    references: HashMap<Id, Reference>,
    mapping: Mapping,
    scopes: Vec<Vec<(String, Type)>>,
    free_vars: usize,
    issues: Vec<Issue>,
}

impl Checker<'_> {
    fn error(&mut self, id: Id, message: String) {
        let offset = self.offsets.get(&id).copied().unwrap_or(0);
        let (line, column) = location(self.source, offset);
        self.issues.push(Issue {
            offset,
            line,
            column,
            message,
        });
    }

    fn set_type(&mut self, id: Id, t: Type) {
        self.types.insert(id, t);
    }

    fn get_type(&self, id: Id) -> Type {
        self.types.get(&id).cloned().unwrap_or(Type::Error)
    }

    fn new_type_var(&mut self) -> Type {
        let t = Type::TypeParam(format!("_var{}", self.free_vars));
        self.free_vars += 1;
        t
    }

    fn is_assignable(&mut self, t1: &Type, t2: &Type) -> bool {
        match is_assignable(&self.mapping, t1, t2) {
            Some(m) => {
                self.mapping = m;
                true
            }
            None => false,
        }
    }

    fn type_mismatch(&mut self, id: Id, expected: &Type, actual: &Type) {
        self.error(id, format!("expected type '{expected}' but found '{actual}'"));
    }

    fn check(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Literal(l) => {
                let t = match l {
                    Literal::Null => Type::Null,
                    Literal::Bool(_) => Type::Bool,
                    Literal::Int(_) => Type::Int,
                    Literal::Uint(_) => Type::Uint,
                    Literal::Double(_) => Type::Double,
                    Literal::String(_) => Type::String,
                    Literal::Bytes(_) => Type::Bytes,
                };
                self.set_type(e.id, t);
            }
            ExprKind::Ident(name) => self.check_ident(e, name),
            ExprKind::Select {
                operand,
                field,
                test_only,
            } => self.check_select(e, operand, field, *test_only),
            ExprKind::Call { function, target, args } => self.check_call(e, function, target.as_deref(), args),
            ExprKind::List {
                elements,
                optional_indices,
            } => self.check_list(e, elements, optional_indices),
            ExprKind::Map { entries } => self.check_map(e, entries),
            ExprKind::Struct { name, fields } => self.check_struct(e, name, fields),
            ExprKind::Comprehension(c) => self.check_comprehension(e, c),
        }
    }

    fn lookup_local(&self, name: &str) -> Option<Type> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.iter().rev().find(|(n, _)| n == name).map(|(_, t)| t.clone()))
    }

    fn lookup_global(&self, name: &str) -> Option<Type> {
        let name = name.strip_prefix('.').unwrap_or(name);
        self.env.ident(name).cloned()
    }

    fn resolve_simple(&self, name: &str) -> Option<(String, Type)> {
        if !name.starts_with('.')
            && let Some(t) = self.lookup_local(name)
        {
            return Some((name.to_owned(), t));
        }
        let local = self.lookup_local(name).is_some();
        self.lookup_global(name).map(|t| {
            let n = name.strip_prefix('.').unwrap_or(name);
            (if local { format!(".{n}") } else { n.to_owned() }, t)
        })
    }

    fn check_ident(&mut self, e: &Expr, name: &str) {
        match self.resolve_simple(name) {
            Some((resolved, t)) => {
                self.set_type(e.id, t);
                self.references.insert(e.id, Reference::Ident(resolved));
            }
            None => {
                self.set_type(e.id, Type::Error);
                self.error(e.id, format!("undeclared reference to '{name}' (in container '')"));
            }
        }
    }

    fn check_select(&mut self, e: &Expr, operand: &Expr, field: &str, test_only: bool) {
        if let Some(qualifiers) = qualifiers(e) {
            let local = self.lookup_local(&qualifiers[0]).is_some() && !qualifiers[0].starts_with('.');
            if !local {
                let name = qualifiers.join(".");
                if let Some(t) = self.lookup_global(&name) {
                    let n = name.strip_prefix('.').unwrap_or(&name).to_owned();
                    self.set_type(e.id, t);
                    self.references.insert(e.id, Reference::Ident(n));
                    return;
                }
            }
        }
        let mut result = self.check_select_field(e.id, operand, field, false);
        if test_only {
            result = Type::Bool;
        }
        let t = substitute(&self.mapping, &result, false);
        self.set_type(e.id, t);
    }

    fn check_select_field(&mut self, id: Id, operand: &Expr, field: &str, optional: bool) -> Type {
        self.check(operand);
        let operand_type = substitute(&self.mapping, &self.get_type(operand.id), false);
        let (target, is_opt) = match operand_type.optional_param() {
            Some(p) => (p.clone(), true),
            None => (operand_type.clone(), false),
        };
        let result = match &target {
            Type::Map(_, v) => (**v).clone(),
            Type::Object(name) => {
                if !self.env.is_object_type(name) {
                    self.error(id, format!("unexpected failed resolution of '{name}'"));
                    Type::Error
                } else if let Some(t) = self.env.field_type(name, field) {
                    t
                } else {
                    self.error(id, format!("undefined field '{field}'"));
                    Type::Error
                }
            }
            Type::TypeParam(_) => {
                self.is_assignable(&Type::Dyn, &target);
                Type::Dyn
            }
            t => {
                if !t.is_dyn_or_error() {
                    self.error(id, format!("type '{t}' does not support field selection"));
                }
                Type::Dyn
            }
        };
        if is_opt || optional {
            Type::optional(result)
        } else {
            result
        }
    }

    fn check_opt_select(&mut self, e: &Expr, target: Option<&Expr>, args: &[Expr]) {
        if args.len() != 2 || target.is_some() {
            let t = if target.is_some() { " member call with" } else { "" };
            self.error(
                e.id,
                format!(
                    "unsupported optional field selection: incorrect signature.{t} argument count: {}",
                    args.len()
                ),
            );
            return;
        }
        let ExprKind::Literal(Literal::String(field)) = &args[1].kind else {
            self.error(args[1].id, "unsupported optional field selection: <field>".to_owned());
            return;
        };
        let result = self.check_select_field(e.id, &args[0], field, true);
        let t = substitute(&self.mapping, &result, false);
        self.set_type(e.id, t);
        self.references.insert(
            e.id,
            Reference::Function {
                name: "_?._".into(),
                member: false,
                overloads: vec!["select_optional_field".into()],
            },
        );
    }

    fn check_call(&mut self, e: &Expr, function: &str, target: Option<&Expr>, args: &[Expr]) {
        if function == "_?._" {
            self.check_opt_select(e, target, args);
            return;
        }
        for a in args {
            self.check(a);
        }
        let env = self.env;
        let Some(target) = target else {
            match env.decls.function(function) {
                Some(f) => self.resolve_overload_or_error(e, f, None, args),
                None => {
                    self.error(e.id, format!("undeclared reference to '{function}' (in container '')"));
                    self.set_type(e.id, Type::Error);
                }
            }
            return;
        };
        if let Some(prefix) = qualified_name(target)
            && let Some(f) = env.decls.function(&format!("{prefix}.{function}"))
        {
            self.resolve_overload_or_error(e, f, None, args);
            return;
        }
        self.check(target);
        match env.decls.function(function) {
            Some(f) => self.resolve_overload_or_error(e, f, Some(target), args),
            None => {
                self.set_type(e.id, Type::Error);
                self.error(e.id, format!("undeclared reference to '{function}' (in container '')"));
            }
        }
    }

    fn resolve_overload_or_error(&mut self, e: &Expr, f: &Function, target: Option<&Expr>, args: &[Expr]) {
        match self.resolve_overload(e, f, target, args) {
            Some((t, overloads)) => {
                self.set_type(e.id, t);
                self.references.insert(
                    e.id,
                    Reference::Function {
                        name: f.name.clone(),
                        member: target.is_some(),
                        overloads,
                    },
                );
            }
            None => self.set_type(e.id, Type::Error),
        }
    }

    fn resolve_overload(
        &mut self,
        call: &Expr,
        f: &Function,
        target: Option<&Expr>,
        args: &[Expr],
    ) -> Option<(Type, Vec<String>)> {
        let mut arg_types: Vec<Type> = Vec::new();
        if let Some(t) = target {
            arg_types.push(self.get_type(t.id));
        }
        for a in args {
            arg_types.push(self.get_type(a.id));
        }
        let mut result: Option<Type> = None;
        let mut refs: Vec<String> = Vec::new();
        for o in &f.overloads {
            if target.is_none() == o.member {
                continue;
            }
            if f.name == "_&&_" || f.name == "_||_" {
                let mut failed = false;
                for (i, at) in arg_types.clone().iter().enumerate() {
                    if !self.is_assignable(at, &Type::Bool) {
                        let id = args.get(i).map_or(call.id, |a| a.id);
                        self.type_mismatch(id, &Type::Bool, at);
                        failed = true;
                    }
                }
                if failed {
                    return None;
                }
                return Some((Type::Bool, vec![o.id.clone()]));
            }
            let (params, result_t) = if o.type_params.is_empty() {
                (o.args.clone(), o.result.clone())
            } else {
                let mut subs = Mapping::default();
                for p in &o.type_params {
                    let v = self.new_type_var();
                    subs.add(&Type::param(p), v);
                }
                (
                    o.args.iter().map(|a| substitute(&subs, a, false)).collect(),
                    substitute(&subs, &o.result, false),
                )
            };
            if let Some(m) = is_assignable_list(&self.mapping, &arg_types, &params) {
                self.mapping = m;
                refs.push(o.id.clone());
                let fn_result = substitute(&self.mapping, &result_t, false);
                result = Some(match result {
                    None => fn_result,
                    Some(r) if !r.is_dyn() && fn_result != r => Type::Dyn,
                    Some(r) => r,
                });
            }
        }
        match result {
            Some(r) => Some((r, refs)),
            None => {
                let shown: Vec<Type> = arg_types.iter().map(|t| substitute(&self.mapping, t, true)).collect();
                let refs: Vec<&Type> = shown.iter().collect();
                let sig = format_function(None, &refs, target.is_some());
                self.error(
                    call.id,
                    format!("found no matching overload for '{}' applied to '{sig}'", f.name),
                );
                None
            }
        }
    }

    fn join_types(&mut self, previous: Option<Type>, current: Type) -> Type {
        match previous {
            None => current,
            Some(p) => {
                if self.is_assignable(&p, &current) {
                    most_general(&p, &current)
                } else {
                    Type::Dyn
                }
            }
        }
    }

    fn check_list(&mut self, e: &Expr, elements: &[Expr], optional_indices: &[usize]) {
        let mut elems: Option<Type> = None;
        for (i, el) in elements.iter().enumerate() {
            self.check(el);
            let mut t = self.get_type(el.id);
            if optional_indices.contains(&i) {
                match t.optional_param() {
                    Some(p) => t = p.clone(),
                    None if !t.is_dyn() => self.type_mismatch(el.id, &Type::optional(t.clone()), &t),
                    None => {}
                }
            }
            elems = Some(self.join_types(elems, t));
        }
        let elems = match elems {
            Some(t) => t,
            None => self.new_type_var(),
        };
        self.set_type(e.id, Type::list(elems));
    }

    fn check_map(&mut self, e: &Expr, entries: &[crate::ast::MapEntry]) {
        let mut key_t: Option<Type> = None;
        let mut val_t: Option<Type> = None;
        for entry in entries {
            self.check(&entry.key);
            let kt = self.get_type(entry.key.id);
            key_t = Some(self.join_types(key_t, kt));
            self.check(&entry.value);
            let mut vt = self.get_type(entry.value.id);
            if entry.optional {
                match vt.optional_param() {
                    Some(p) => vt = p.clone(),
                    None if !vt.is_dyn() => self.type_mismatch(entry.value.id, &Type::optional(vt.clone()), &vt),
                    None => {}
                }
            }
            val_t = Some(self.join_types(val_t, vt));
        }
        let (k, v) = match (key_t, val_t) {
            (Some(k), Some(v)) => (k, v),
            _ => (self.new_type_var(), self.new_type_var()),
        };
        self.set_type(e.id, Type::map(k, v));
    }

    fn check_struct(&mut self, e: &Expr, name: &str, fields: &[crate::ast::StructField]) {
        let n = name.strip_prefix('.').unwrap_or(name);
        let Some(t) = self.env.ident(n).cloned() else {
            self.error(e.id, format!("undeclared reference to '{name}' (in container '')"));
            self.set_type(e.id, Type::Error);
            return;
        };
        self.references.insert(e.id, Reference::Ident(n.to_owned()));
        let mut result = Type::Error;
        let mut type_name = n.to_owned();
        match &t {
            Type::Type(Some(inner)) => match &**inner {
                Type::Object(o) => {
                    type_name = o.clone();
                    result = (**inner).clone();
                }
                Type::Dyn | Type::Any | Type::Timestamp | Type::Duration | Type::Null => result = (**inner).clone(),
                other => self.error(e.id, format!("'{other}' is not a message type")),
            },
            Type::Error => {}
            other => self.error(e.id, format!("'{other}' is not a type")),
        }
        self.set_type(e.id, result);
        for f in fields {
            self.check(&f.value);
            let field_t = if self.env.is_object_type(&type_name) {
                match self.env.field_type(&type_name, &f.name) {
                    Some(t) => t,
                    None => {
                        self.error(e.id, format!("undefined field '{}'", f.name));
                        Type::Error
                    }
                }
            } else {
                self.error(e.id, format!("unexpected failed resolution of '{type_name}'"));
                Type::Error
            };
            let mut vt = self.get_type(f.value.id);
            if f.optional {
                match vt.optional_param() {
                    Some(p) => vt = p.clone(),
                    None if !vt.is_dyn() => self.type_mismatch(f.value.id, &Type::optional(vt.clone()), &vt),
                    None => {}
                }
            }
            if !self.is_assignable(&field_t, &vt) {
                self.error(
                    e.id,
                    format!(
                        "expected type of field '{}' is '{field_t}' but provided type is '{vt}'",
                        f.name
                    ),
                );
            }
        }
    }

    fn check_comprehension(&mut self, e: &Expr, c: &crate::ast::Comprehension) {
        self.check(&c.iter_range);
        self.check(&c.accu_init);
        let range = substitute(&self.mapping, &self.get_type(c.iter_range.id), false);
        let accu = self.get_type(c.accu_init.id);
        self.scopes.push(vec![(c.accu_var.clone(), accu.clone())]);
        let two = c.iter_var2.is_some();
        let (var, var2) = match &range {
            Type::List(el) => {
                if two {
                    (Type::Int, (**el).clone())
                } else {
                    ((**el).clone(), Type::Error)
                }
            }
            Type::Map(k, v) => ((**k).clone(), (**v).clone()),
            Type::Dyn | Type::Any | Type::Error | Type::TypeParam(_) => {
                self.is_assignable(&Type::Dyn, &range);
                (Type::Dyn, Type::Dyn)
            }
            other => {
                self.error(
                    c.iter_range.id,
                    format!(
                        "expression of type '{other}' cannot be range of a comprehension (must be list, map, or dynamic)"
                    ),
                );
                (Type::Error, Type::Error)
            }
        };
        let mut scope = vec![(c.iter_var.clone(), var)];
        if let Some(v2) = &c.iter_var2 {
            scope.push((v2.clone(), var2));
        }
        self.scopes.push(scope);
        self.check(&c.loop_condition);
        self.assert_type(&c.loop_condition, &Type::Bool);
        self.check(&c.loop_step);
        self.assert_type(&c.loop_step, &accu);
        self.scopes.pop();
        self.check(&c.result);
        self.scopes.pop();
        let t = substitute(&self.mapping, &self.get_type(c.result.id), false);
        self.set_type(e.id, t);
    }

    fn assert_type(&mut self, e: &Expr, t: &Type) {
        let actual = self.get_type(e.id);
        if !self.is_assignable(t, &actual) {
            self.type_mismatch(e.id, t, &actual);
        }
    }
}

/// cel-go's `computeQualifiers`: `a.b.c` as `[a, b, c]` when the chain ends at an identifier
/// and has no presence test.
fn qualifiers(e: &Expr) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = e;
    while let ExprKind::Select {
        operand,
        field,
        test_only,
    } = &cur.kind
    {
        if *test_only {
            return None;
        }
        out.push(field.clone());
        cur = operand;
        if let ExprKind::Ident(n) = &cur.kind {
            out.push(n.clone());
            out.reverse();
            return Some(out);
        }
    }
    None
}

/// cel-go's `containers.ToQualifiedName`: `a.b.c` for an identifier or a select chain of
/// identifiers (no presence tests).
fn qualified_name(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n.clone()),
        ExprKind::Select {
            operand,
            field,
            test_only: false,
        } => qualified_name(operand).map(|q| format!("{q}.{field}")),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) mod tests;
