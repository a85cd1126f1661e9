//! Go `regexp.Compile` syntax check: the verdict and, on rejection, the exact
//! error text Go produces.
//!
//! The Kubernetes API server validates a CRD schema `pattern` by compiling it
//! with Go's `regexp.Compile` and reports a failure as
//! `must be a valid regular expression, but isn't: <go error text>`. To report
//! the same text byte for byte, this module is a behavioural port of the
//! parser in Go 1.27's `regexp/syntax` (Perl flags, as `regexp.Compile`
//! uses), including its resource limits. Compilation after parsing cannot
//! fail in Go, so the parser alone decides.
//!
//! The limits (`expression too large`, `expression nests too deeply`) depend
//! on how Go's parser shapes and recycles its tree while it works, so the
//! port keeps Go's node recycling, its size and height caches (stale entries
//! included) and its alternation factoring step by step rather than
//! computing the limits from first principles.
//!
//! Unicode classes (`\p{Greek}`, `\pL`, `(?i)` folding) use Unicode 17.0.0
//! data extracted from Go 1.27's `unicode` package (see `tables.rs`).

mod class;
mod escapes;
mod factor;
mod parser;
mod tables;
#[cfg(test)]
mod tests;
mod unicode;

use std::fmt;

/// The Unicode version of the tables behind `\p{...}` classes and `(?i)`
/// folding (the version Go 1.27's `unicode` package carries).
pub const UNICODE_VERSION: &str = tables::UNICODE_VERSION;

/// Checks `pattern` the way Go's `regexp.Compile` does.
///
/// Returns `Ok(())` when Go compiles the pattern and otherwise the error Go
/// reports, whose `Display` is Go's `err.Error()` text. Runs in time roughly
/// linear in the pattern length, uses no recursion that grows with the input
/// (so it is safe on small thread stacks) and never panics.
pub fn check(pattern: &str) -> Result<(), Error> {
    parser::parse(pattern.as_bytes())
}

/// The kind of a parse failure; the `Display` text is Go's `syntax.ErrorCode`
/// string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorCode {
    /// `regexp/syntax: internal error` (Go never returns it from parsing; here
    /// it would signal a broken invariant instead of a panic).
    InternalError,
    /// `invalid character class` (declared by Go, never produced by its parser).
    InvalidCharClass,
    /// `invalid character class range`
    InvalidCharRange,
    /// `invalid escape sequence`
    InvalidEscape,
    /// `invalid named capture`
    InvalidNamedCapture,
    /// `invalid or unsupported Perl syntax`
    InvalidPerlOp,
    /// `invalid nested repetition operator`
    InvalidRepeatOp,
    /// `invalid repeat count`
    InvalidRepeatSize,
    /// `invalid UTF-8` (unreachable through [`check`], whose input is a
    /// `&str`, but kept so the set of codes matches Go's).
    InvalidUTF8,
    /// `missing closing ]`
    MissingBracket,
    /// `missing closing )`
    MissingParen,
    /// `missing argument to repetition operator`
    MissingRepeatArgument,
    /// `trailing backslash at end of expression`
    TrailingBackslash,
    /// `unexpected )`
    UnexpectedParen,
    /// `expression nests too deeply`
    NestingDepth,
    /// `expression too large`
    Large,
}

impl ErrorCode {
    /// Go's text for this code.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InternalError => "regexp/syntax: internal error",
            ErrorCode::InvalidCharClass => "invalid character class",
            ErrorCode::InvalidCharRange => "invalid character class range",
            ErrorCode::InvalidEscape => "invalid escape sequence",
            ErrorCode::InvalidNamedCapture => "invalid named capture",
            ErrorCode::InvalidPerlOp => "invalid or unsupported Perl syntax",
            ErrorCode::InvalidRepeatOp => "invalid nested repetition operator",
            ErrorCode::InvalidRepeatSize => "invalid repeat count",
            ErrorCode::InvalidUTF8 => "invalid UTF-8",
            ErrorCode::MissingBracket => "missing closing ]",
            ErrorCode::MissingParen => "missing closing )",
            ErrorCode::MissingRepeatArgument => "missing argument to repetition operator",
            ErrorCode::TrailingBackslash => "trailing backslash at end of expression",
            ErrorCode::UnexpectedParen => "unexpected )",
            ErrorCode::NestingDepth => "expression nests too deeply",
            ErrorCode::Large => "expression too large",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A pattern Go rejects: the code and the part of the pattern Go quotes.
///
/// `Display` gives Go's `*syntax.Error` text:
/// ``error parsing regexp: <code>: `<expr>` ``.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// What went wrong.
    pub code: ErrorCode,
    /// The substring of the pattern Go puts in its message (the whole pattern
    /// for missing or unexpected parentheses and for the size limits; empty
    /// for a trailing backslash).
    pub expr: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

impl std::error::Error for Error {}
