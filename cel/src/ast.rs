//! The parsed expression, as cel-go's parser hands it to the checker: operators are calls
//! to their overload names (`_+_`, `_[_]`, `@in`...), and the macros (`has`, `all`,
//! `exists`, `exists_one`, `map`, `filter`, the two-variable forms) are already expanded into
//! comprehensions, exactly as cel-go expands them, so that type checking, cost estimation
//! and evaluation see the tree the reference sees.

use std::fmt;

/// A node's id: cel-go numbers nodes in the order its parser creates them, from 1.
pub type Id = u32;

/// One node of an expression.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    /// The node's id (unique within one parsed expression).
    pub id: Id,
    /// Where cel-go places the node in the source (byte offset): an operator's symbol, a
    /// selection's `.`, a call's `(`, a literal's first character.
    pub offset: usize,
    /// What the node is.
    pub kind: ExprKind,
}

/// The kinds of expression nodes.
#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    /// A constant.
    Literal(Literal),
    /// A variable or a (possibly qualified) name: `self`, `int`.
    Ident(String),
    /// `operand.field`; `test_only` is the `has()` macro's presence test. (`operand.?field`
    /// is the call `_?._`, as cel-go represents it.)
    Select {
        /// The value the field is read from.
        operand: Box<Expr>,
        /// The field's name, as written (escaped names stay escaped).
        field: String,
        /// `has(operand.field)`.
        test_only: bool,
    },
    /// A function or operator call: `size(x)`, `x.size()`, `a + b` (`_+_`).
    Call {
        /// The overload name (`_+_`, `size`, `matches`...).
        function: String,
        /// The receiver of a method-style call.
        target: Option<Box<Expr>>,
        /// The arguments.
        args: Vec<Expr>,
    },
    /// `[a, b, ?c]`: the indices of `?` elements are listed.
    List {
        /// The elements.
        elements: Vec<Expr>,
        /// Which elements are optional (`?e`).
        optional_indices: Vec<usize>,
    },
    /// `{k: v, ?k2: v2}`.
    Map {
        /// The entries.
        entries: Vec<MapEntry>,
    },
    /// A message literal `a.b.C{f: v}` (Kubernetes declares no message types: it type-checks
    /// to an error).
    Struct {
        /// The message's name as written.
        name: String,
        /// The fields.
        fields: Vec<StructField>,
    },
    /// A fold over a range: what the macros expand to.
    Comprehension(Box<Comprehension>),
}

/// An entry of a map literal.
#[derive(Debug, Clone, PartialEq)]
pub struct MapEntry {
    /// The entry's id.
    pub id: Id,
    /// The key.
    pub key: Expr,
    /// The value.
    pub value: Expr,
    /// `?key: value`.
    pub optional: bool,
}

/// A field of a message literal.
#[derive(Debug, Clone, PartialEq)]
pub struct StructField {
    /// The field's id.
    pub id: Id,
    /// The field's name.
    pub name: String,
    /// Its value.
    pub value: Expr,
    /// `?name: value`.
    pub optional: bool,
}

/// `iter_range.fold(iter_var[, iter_var2], accu_var = accu_init, loop_condition, loop_step,
/// result)`, as cel-go defines comprehensions.
#[derive(Debug, Clone, PartialEq)]
pub struct Comprehension {
    /// The first iteration variable (a list's element, or its index in two-variable form; a
    /// map's key).
    pub iter_var: String,
    /// The second iteration variable of two-variable comprehensions (a list's element, a map's
    /// value).
    pub iter_var2: Option<String>,
    /// What is iterated.
    pub iter_range: Expr,
    /// The accumulator's name.
    pub accu_var: String,
    /// The accumulator's first value.
    pub accu_init: Expr,
    /// Checked before each step; false stops the loop.
    pub loop_condition: Expr,
    /// The accumulator's next value.
    pub loop_step: Expr,
    /// The comprehension's value.
    pub result: Expr,
}

/// A constant.
#[derive(Debug, Clone, PartialEq)]
pub enum Literal {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// `1`, `-1`, `0x1F`.
    Int(i64),
    /// `1u`.
    Uint(u64),
    /// `1.5`, `1e3`.
    Double(f64),
    /// A string (escapes resolved).
    String(String),
    /// A bytes literal (escapes resolved).
    Bytes(Vec<u8>),
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Null => f.write_str("null"),
            Literal::Bool(b) => write!(f, "{b}"),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Uint(u) => write!(f, "{u}u"),
            Literal::Double(d) => write!(f, "{d}"),
            Literal::String(s) => write!(f, "{s:?}"),
            Literal::Bytes(b) => write!(f, "b{:?}", String::from_utf8_lossy(b)),
        }
    }
}

/// The name cel-go gives the accumulator of expanded macros.
pub const ACCUMULATOR: &str = "@result";

impl Expr {
    /// Visits this node and every node below it, parents first.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Literal(_) | ExprKind::Ident(_) => {}
            ExprKind::Select { operand, .. } => operand.walk(f),
            ExprKind::Call { target, args, .. } => {
                if let Some(t) = target {
                    t.walk(f);
                }
                for a in args {
                    a.walk(f);
                }
            }
            ExprKind::List { elements, .. } => elements.iter().for_each(|e| e.walk(f)),
            ExprKind::Map { entries } => {
                for e in entries {
                    e.key.walk(f);
                    e.value.walk(f);
                }
            }
            ExprKind::Struct { fields, .. } => fields.iter().for_each(|e| e.value.walk(f)),
            ExprKind::Comprehension(c) => {
                c.iter_range.walk(f);
                c.accu_init.walk(f);
                c.loop_condition.walk(f);
                c.loop_step.walk(f);
                c.result.walk(f);
            }
        }
    }

    /// The variable a node names, if it is a plain identifier.
    pub fn as_ident(&self) -> Option<&str> {
        match &self.kind {
            ExprKind::Ident(n) => Some(n),
            _ => None,
        }
    }
}
