//! CEL as the Kubernetes API server runs it for `x-kubernetes-validations`: the parser
//! (cel-go's grammar, with Kubernetes' optional syntax, macros expanded as cel-go expands
//! them) and, with the `eval` feature, the evaluator.
//!
//! The parser accepts exactly the expressions cel-go parses, including the checks cel-go
//! makes while it parses (reserved words, literal ranges, escapes, `has()` and the
//! comprehension macros' variable names), and reports the first problem with its line and
//! column. Messages follow cel-go's layout (`ERROR: <input>:1:10: Syntax error: ...`, the
//! line, a caret); their wording is close to, not always the same as, cel-go's ANTLR
//! messages. Without features the crate has no dependencies: it is what
//! `#[derive(CustomResourceSchema)]` runs at compile time.
//!
//! ```
//! use kstruct_cel as cel;
//!
//! assert!(cel::check("self.minReplicas <= self.maxReplicas").is_ok());
//! assert!(cel::check("self.?spec.orValue(0) > 0 && has(self.status)").is_ok());
//! let e = cel::check("self.x ==").unwrap_err();
//! assert_eq!((e.position.line, e.position.column), (1, 10));
//! assert_eq!(e.to_string(), "ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting an expression\n | self.x ==\n | .........^");
//! ```

pub use compat::Compatibility;
pub mod ast;
pub mod check;
mod compat;
pub mod cost;
pub mod decls;
#[cfg(feature = "eval")]
pub mod eval;
#[cfg(all(test, feature = "eval"))]
mod eval_props;
/// Go's `url.ParseRequestURI`, with its error texts.
#[cfg(feature = "eval")]
pub mod go_url;
mod lexer;
#[cfg(feature = "eval")]
mod library;
mod parser;
pub mod schema;
/// apimachinery's `resource.Quantity` as JSON reads and writes it.
#[cfg(feature = "eval")]
pub mod quantity {
    /// `resource.ParseQuantity` and `String()`: the canonical text (the text as written when
    /// Go keeps it), or apimachinery's error (`quantities must match the regular expression
    /// ...`, `unable to parse quantity's suffix`, `unable to parse numeric part of quantity`).
    ///
    /// ```
    /// assert_eq!(kstruct_cel::quantity::parse("1.5Gi").as_deref(), Ok("1536Mi"));
    /// assert_eq!(kstruct_cel::quantity::parse("5mm"), Err("unable to parse quantity's suffix"));
    /// ```
    pub use crate::library::quantity::parse_text as parse;
}
#[cfg(test)]
mod tests;
pub mod types;
#[cfg(feature = "eval")]
pub mod value;

use std::fmt;

/// cel-go's default parser recursion limit.
pub const MAX_DEPTH: usize = 250;

/// cel-go's default limit on an expression's size, in code points.
pub const MAX_CODE_POINTS: usize = 100_000;

/// Where a problem is in the expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// Byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// Why an expression does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Where.
    pub position: Position,
    /// What (`mismatched input ')' expecting an expression`, `reserved identifier: if`...).
    pub message: String,
    /// The source line the position is on, for the caret display.
    line_text: String,
    /// A grammar error (cel-go prefixes those with `Syntax error: `), not one of the checks
    /// cel-go makes while building the expression (reserved words, literals, macros).
    syntax: bool,
}

impl Error {
    /// One of the checks made while building the expression.
    fn at(src: &str, offset: usize, message: String) -> Error {
        let position = lexer::position(src, offset);
        let line_text = src.lines().nth(position.line - 1).unwrap_or("").to_owned();
        Error {
            position,
            message,
            line_text,
            syntax: false,
        }
    }

    /// A grammar error.
    fn syntax(src: &str, offset: usize, message: String) -> Error {
        Error {
            syntax: true,
            ..Error::at(src, offset, message)
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ERROR: <input>:{}:{}: {}{}\n | {}\n | {}^",
            self.position.line,
            self.position.column,
            if self.syntax { "Syntax error: " } else { "" },
            self.message,
            self.line_text,
            ".".repeat(self.position.column - 1)
        )
    }
}

impl std::error::Error for Error {}

/// True when `rule` names `oldSelf` (as a word): a transition rule, which the API server
/// compiles only where it can pair a value with its old value.
///
/// ```
/// use kstruct_cel::uses_old_self;
/// assert!(uses_old_self("self == oldSelf"));
/// assert!(!uses_old_self("self.oldSelfie > 0"));
/// ```
pub fn uses_old_self(rule: &str) -> bool {
    rule.match_indices("oldSelf").any(|(i, _)| {
        let before = rule[..i].chars().next_back();
        let after = rule[i + "oldSelf".len()..].chars().next();
        let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        !word(before) && !word(after)
    })
}

/// The name by which a CEL rule reaches an object property (`self.<name>`), escaped as the
/// API server escapes property names (`a-b` is `a__dash__b`, `if` is `__if__`); `None` for a
/// name CEL cannot reach (it must match `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`).
///
/// ```
/// use kstruct_cel::escape_property;
/// assert_eq!(escape_property("minReplicas").as_deref(), Some("minReplicas"));
/// assert_eq!(escape_property("x-id").as_deref(), Some("x__dash__id"));
/// assert_eq!(escape_property("a__b.c/d").as_deref(), Some("a__underscores__b__dot__c__slash__d"));
/// assert_eq!(escape_property("namespace").as_deref(), Some("__namespace__"));
/// assert_eq!(escape_property("1st"), None);
/// ```
pub fn escape_property(name: &str) -> Option<String> {
    types::escape(name)
}

/// Checks that `expression` parses as a CEL expression.
///
/// # Errors
/// The first problem, with its position.
pub fn check(expression: &str) -> Result<(), Error> {
    parse(expression).map(drop)
}

/// Parses `expression` into cel-go's expression tree, macros expanded.
///
/// ```
/// use kstruct_cel::{ast::ExprKind, parse};
/// let e = parse("self.x > 1").unwrap();
/// assert!(matches!(&e.kind, ExprKind::Call { function, .. } if function == "_>_"));
/// ```
///
/// # Errors
/// The first problem, with its position.
pub fn parse(expression: &str) -> Result<ast::Expr, Error> {
    parse_at(expression, Compatibility::DEFAULT)
}

/// Parses `expression` with the macros of compatibility version `version` (see
/// [`Compatibility`]): before 1.32, `all(i, v, p)` is a call, not a comprehension.
///
/// # Errors
/// The first problem, with its position.
pub fn parse_at(expression: &str, version: Compatibility) -> Result<ast::Expr, Error> {
    let size = expression.chars().count();
    if size > MAX_CODE_POINTS {
        return Err(Error::at(
            expression,
            0,
            format!("expression code point size exceeds limit: size: {size}, limit {MAX_CODE_POINTS}"),
        ));
    }
    let (tokens, lexer_error) = lexer::tokens(expression);
    parser::Parser::new(expression, tokens, lexer_error, version).parse()
}
