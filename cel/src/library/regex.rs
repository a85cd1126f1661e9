//! Regular expressions with Go's RE2 syntax and semantics (`regexp.Compile`): Kubernetes'
//! `find` and `findAll`, and [`compile`] for the standard library's `matches`.
//!
//! Go's syntax is checked and translated here before the `regex` crate compiles it, because
//! the two differ: Go's `\d`, `\w`, `\s` and `\b` are ASCII (the crate's are Unicode), Go
//! reads `[` inside a class and `\<` as literals, knows `\Q...\E`, refuses `(?x)` and
//! repetition counts over 1000, and words its errors its own way. The errors found here are
//! Go's (`error parsing regexp: missing closing ): ` + the expression); the rare pattern Go
//! accepts but the crate refuses (a Unicode property name only one of them knows) reports the
//! crate's message.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use ::regex::Regex;

use super::Call;
use crate::value::{EvalError, Value};

/// Compiled expressions kept per thread; a rule evaluates the same few patterns many times.
const CACHE_CAPACITY: usize = 64;

thread_local! {
    static CACHE: RefCell<HashMap<String, Arc<Regex>>> = RefCell::new(HashMap::new());
}

/// `pattern` compiled with Go's syntax and semantics (unanchored search), from a small
/// cache; the error is Go's `regexp.Compile` message (`error parsing regexp: ...`).
pub(crate) fn compile(pattern: &str) -> Result<Arc<Regex>, EvalError> {
    if let Some(re) = CACHE.with(|c| c.borrow().get(pattern).cloned()) {
        return Ok(re);
    }
    // Go's verdict and error text first (every Go error, with Go's wording); the translation
    // below then only has to map what Go accepts onto the crate's syntax.
    kstruct_regexp::check(pattern).map_err(|e| EvalError::new(e.to_string()))?;
    let translated = translate(pattern).map_err(|e| EvalError::new(e.to_string()))?;
    let re = ::regex::RegexBuilder::new(&translated)
        // Go allows nesting up to 1000 levels; the crate's default is lower.
        .nest_limit(1000)
        .build()
        .map_err(|e| match e {
            ::regex::Error::CompiledTooBig(_) => {
                EvalError::new(format!("error parsing regexp: expression too large: `{pattern}`"))
            }
            other => EvalError::new(format!("error parsing regexp: {other}")),
        })?;
    let re = Arc::new(re);
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        if c.len() >= CACHE_CAPACITY {
            c.clear();
        }
        c.insert(pattern.to_owned(), re.clone());
    });
    Ok(re)
}

/// `find` and `findAll`.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    let Some(Value::String(s)) = target else {
        return None;
    };
    let limit = match (function, args) {
        ("find", [Value::String(_)]) => None,
        ("findAll", [Value::String(_)]) => Some(-1),
        ("findAll", [Value::String(_), Value::Int(n)]) => Some(*n),
        _ => return None,
    };
    let Some(Value::String(pattern)) = args.first() else {
        return None;
    };
    let re = match compile(pattern) {
        Ok(re) => re,
        Err(e) => return Some(Err(EvalError::new(format!("Illegal regex: {}", e.message)))),
    };
    Some(Ok(match limit {
        None => Value::string(re.find(s).map_or("", |m| m.as_str())),
        Some(n) => Value::list(find_all(&re, s, n).into_iter().map(Value::string).collect()),
    }))
}

/// Go's `FindAllString(s, n)`: successive non-overlapping matches, an empty match right
/// after a previous match skipped, at most `n` of them (all when `n` is negative).
fn find_all<'a>(re: &Regex, s: &'a str, n: i64) -> Vec<&'a str> {
    let mut out = Vec::new();
    let limit = usize::try_from(n).unwrap_or(usize::MAX);
    let mut pos = 0;
    let mut prev_end: Option<usize> = None;
    while out.len() < limit && pos <= s.len() {
        let Some(m) = re.find_at(s, pos) else { break };
        let mut accept = true;
        if m.end() == pos {
            if Some(m.start()) == prev_end {
                accept = false;
            }
            // Step over one character (or past the end).
            pos += s.get(pos..).and_then(|r| r.chars().next()).map_or(1, char::len_utf8);
        } else {
            pos = m.end();
        }
        prev_end = Some(m.end());
        if accept {
            out.push(m.as_str());
        }
    }
    out
}

/// Kubernetes' cost of `find`/`findAll`: the string's traversal (plus one) times a quarter of
/// the pattern's length, both in code points and rounded up.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (function, target, args.first()) {
        ("find" | "findAll", Some(Value::String(s)), Some(Value::String(re))) => {
            let str_cost = (1 + s.chars().count() as u64).div_ceil(10);
            let re_cost = (re.chars().count() as u64).div_ceil(4);
            Some(str_cost.saturating_mul(re_cost))
        }
        _ => None,
    }
}

/// A Go syntax error: its code's text and the offending part of the expression.
#[derive(Debug)]
struct GoError {
    code: &'static str,
    expr: String,
}

impl std::fmt::Display for GoError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error parsing regexp: {}: `{}`", self.code, self.expr)
    }
}

const MISSING_PAREN: &str = "missing closing )";
const UNEXPECTED_PAREN: &str = "unexpected )";
const MISSING_BRACKET: &str = "missing closing ]";
const INVALID_ESCAPE: &str = "invalid escape sequence";
const INVALID_RANGE: &str = "invalid character class range";
const INVALID_PERL_OP: &str = "invalid or unsupported Perl syntax";
const INVALID_NAMED_CAPTURE: &str = "invalid named capture";
const INVALID_REPEAT_OP: &str = "invalid nested repetition operator";
const INVALID_REPEAT_SIZE: &str = "invalid repeat count";
const MISSING_REPEAT_ARG: &str = "missing argument to repetition operator";
const TRAILING_BACKSLASH: &str = "trailing backslash at end of expression";

fn go_err(code: &'static str, expr: &str) -> GoError {
    GoError {
        code,
        expr: expr.to_owned(),
    }
}

/// Go's ASCII Perl classes, as class items for the crate.
fn perl_class(c: char) -> Option<(&'static str, bool)> {
    Some(match c {
        'd' => ("0-9", false),
        'D' => ("0-9", true),
        'w' => ("0-9A-Za-z_", false),
        'W' => ("0-9A-Za-z_", true),
        's' => ("\\t\\n\\x0C\\r ", false),
        'S' => ("\\t\\n\\x0C\\r ", true),
        _ => return None,
    })
}

const POSIX_CLASSES: [&str; 14] = [
    "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "word",
    "xdigit",
];

/// The translator's walk over a Go pattern.
struct Translator<'a> {
    src: &'a str,
    pos: usize,
    out: String,
}

impl<'a> Translator<'a> {
    fn rest(&self) -> &'a str {
        self.src.get(self.pos..).unwrap_or("")
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// A literal character, escaped for the crate.
    fn literal(&mut self, c: char) {
        self.out.push_str(&format!("\\x{{{:X}}}", c as u32));
    }

    /// The escape after a `\` (already consumed, at `start`) that denotes one character,
    /// outside or inside a class: Go's `parseEscape`.
    fn escape_char(&mut self, start: usize) -> Result<char, GoError> {
        let bad = |t: &Self| go_err(INVALID_ESCAPE, t.src.get(start..t.pos).unwrap_or(""));
        let Some(c) = self.bump() else {
            return Err(go_err(TRAILING_BACKSLASH, ""));
        };
        match c {
            '1'..='7' if !matches!(self.peek(), Some('0'..='7')) => Err(bad(self)),
            '0'..='7' => {
                // Up to three octal digits in all.
                let mut v = c as u32 - '0' as u32;
                for _ in 0..2 {
                    match self.peek() {
                        Some(d @ '0'..='7') => {
                            self.bump();
                            v = v * 8 + (d as u32 - '0' as u32);
                        }
                        _ => break,
                    }
                }
                char::from_u32(v).ok_or_else(|| bad(self))
            }
            'x' => {
                let v = if self.peek() == Some('{') {
                    self.bump();
                    let mut v: u32 = 0;
                    let mut n = 0;
                    loop {
                        match self.bump() {
                            Some('}') if n > 0 => break,
                            Some(d) if d.is_ascii_hexdigit() => {
                                v = v.saturating_mul(16).saturating_add(d.to_digit(16).unwrap_or(0));
                                n += 1;
                                if v > 0x10FFFF {
                                    return Err(bad(self));
                                }
                            }
                            _ => return Err(bad(self)),
                        }
                    }
                    v
                } else {
                    let mut v = 0;
                    for _ in 0..2 {
                        match self.bump() {
                            Some(d) if d.is_ascii_hexdigit() => v = v * 16 + d.to_digit(16).unwrap_or(0),
                            _ => return Err(bad(self)),
                        }
                    }
                    v
                };
                char::from_u32(v).ok_or_else(|| bad(self))
            }
            'a' => Ok('\u{7}'),
            'f' => Ok('\u{c}'),
            'n' => Ok('\n'),
            'r' => Ok('\r'),
            't' => Ok('\t'),
            'v' => Ok('\u{b}'),
            c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok(c),
            _ => Err(bad(self)),
        }
    }

    /// `\p{Name}`, `\pL`, `\P...` after the `\`, `p` or `P` consumed: the crate's spelling.
    fn unicode_class(&mut self, start: usize, negated: bool) -> Result<String, GoError> {
        let name = if self.peek() == Some('{') {
            self.bump();
            let close = self
                .rest()
                .find('}')
                .ok_or_else(|| go_err(INVALID_RANGE, self.src.get(start..).unwrap_or("")))?;
            let name = &self.rest()[..close];
            self.pos += close + 1;
            name.to_owned()
        } else {
            match self.bump() {
                Some(c) => c.to_string(),
                None => return Err(go_err(INVALID_RANGE, self.src.get(start..).unwrap_or(""))),
            }
        };
        let (negated, name) = match name.strip_prefix('^') {
            Some(n) => (!negated, n.to_owned()),
            None => (negated, name),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(go_err(INVALID_RANGE, self.src.get(start..self.pos).unwrap_or("")));
        }
        Ok(format!("\\{}{{{name}}}", if negated { 'P' } else { 'p' }))
    }

    /// A class `[...]`, the `[` consumed at `start`.
    fn class(&mut self, start: usize) -> Result<(), GoError> {
        let whole = |t: &Self| go_err(MISSING_BRACKET, t.src.get(start..).unwrap_or(""));
        self.out.push('[');
        if self.peek() == Some('^') {
            self.bump();
            self.out.push('^');
        }
        let mut first = true;
        loop {
            let item_start = self.pos;
            let rest = self.rest();
            match self.peek() {
                None => return Err(whole(self)),
                Some(']') if !first => {
                    self.bump();
                    break;
                }
                _ => {}
            }
            first = false;
            // POSIX classes `[:alpha:]`, `[:^alpha:]`.
            if rest.starts_with("[:")
                && let Some(end) = rest[2..].find(":]")
            {
                let name = &rest[2..2 + end];
                let bare = name.strip_prefix('^').unwrap_or(name);
                if !POSIX_CLASSES.contains(&bare) {
                    return Err(go_err(INVALID_RANGE, &rest[..end + 4]));
                }
                self.out.push_str(&rest[..end + 4]);
                self.pos += end + 4;
                continue;
            }
            if let Some(after) = rest.strip_prefix('\\') {
                match after.chars().next() {
                    Some(c @ ('p' | 'P')) => {
                        self.pos += 2;
                        let s = self.unicode_class(item_start, c == 'P')?;
                        self.out.push_str(&s);
                        continue;
                    }
                    Some(c) if perl_class(c).is_some() => {
                        self.pos += 2;
                        if let Some((items, negated)) = perl_class(c) {
                            // A negated set nests as a class of its own (a union).
                            if negated {
                                self.out.push_str(&format!("[^{items}]"));
                            } else {
                                self.out.push_str(items);
                            }
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            let lo = self.class_char(start)?;
            let mut hi = lo;
            if self.rest().starts_with('-') && !self.rest().starts_with("-]") && self.rest().len() >= 2 {
                self.bump();
                hi = self.class_char(start)?;
                if hi < lo {
                    return Err(go_err(INVALID_RANGE, self.src.get(item_start..self.pos).unwrap_or("")));
                }
            }
            self.literal(lo);
            if hi != lo {
                self.out.push('-');
                self.literal(hi);
            }
        }
        self.out.push(']');
        Ok(())
    }

    /// One character of a class (a literal or an escape).
    fn class_char(&mut self, class_start: usize) -> Result<char, GoError> {
        let start = self.pos;
        match self.bump() {
            None => Err(go_err(MISSING_BRACKET, self.src.get(class_start..).unwrap_or(""))),
            Some('\\') => self.escape_char(start),
            Some(c) => Ok(c),
        }
    }

    /// `(?...`: flags, a non-capturing group or a named group; `(?` consumed at `start`.
    /// Returns whether a group was opened.
    fn perl_group(&mut self, start: usize) -> Result<bool, GoError> {
        let rest = self.rest();
        if let Some(named) = rest.strip_prefix("P<").or_else(|| rest.strip_prefix('<')) {
            let prefix = rest.len() - named.len();
            let Some(end) = named.find('>') else {
                return Err(go_err(INVALID_NAMED_CAPTURE, self.src));
            };
            let name = &named[..end];
            let capture = self.src.get(start..self.pos + prefix + end + 1).unwrap_or("");
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(go_err(INVALID_NAMED_CAPTURE, capture));
            }
            self.pos += prefix + end + 1;
            self.out.push_str(&format!("(?P<{name}>"));
            return Ok(true);
        }
        let mut flags = String::new();
        let mut negated = false;
        let mut saw_flag = false;
        loop {
            let Some(c) = self.bump() else {
                return Err(go_err(MISSING_PAREN, self.src));
            };
            match c {
                'i' | 'm' | 's' | 'U' => {
                    flags.push(c);
                    saw_flag = true;
                }
                '-' if !negated => {
                    flags.push('-');
                    negated = true;
                    saw_flag = false;
                }
                ':' | ')' if !negated || saw_flag => {
                    let group = c == ':';
                    match (flags.is_empty(), group) {
                        (true, true) => self.out.push_str("(?:"),
                        (true, false) => {}
                        (false, true) => self.out.push_str(&format!("(?{flags}:")),
                        (false, false) => self.out.push_str(&format!("(?{flags})")),
                    }
                    return Ok(group);
                }
                _ => return Err(go_err(INVALID_PERL_OP, self.src.get(start..self.pos).unwrap_or(""))),
            }
        }
    }

    /// A repetition operator's checks: Go refuses a repetition of a repetition and one with
    /// nothing to repeat.
    fn repeat(&mut self, op_start: usize, last_repeat: Option<usize>, have_operand: bool) -> Result<(), GoError> {
        if self.peek() == Some('?') {
            self.bump();
        }
        let op = self.src.get(op_start..self.pos).unwrap_or("");
        if let Some(last) = last_repeat {
            return Err(go_err(INVALID_REPEAT_OP, self.src.get(last..self.pos).unwrap_or("")));
        }
        if !have_operand {
            return Err(go_err(MISSING_REPEAT_ARG, op));
        }
        self.out.push_str(op);
        Ok(())
    }
}

/// Go's `parseInt` for repetition counts: digits without a leading zero, -1 when huge.
fn repeat_int(s: &str) -> Option<(i64, &str)> {
    let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some((n, &s[digits..]))
}

/// `{n}`, `{n,}` or `{n,m}` at the start of `s`: (min, max or -1 for none, length).
fn parse_counted(s: &str) -> Option<(i64, i64, usize)> {
    let body = s.strip_prefix('{')?;
    let (min, rest) = repeat_int(body)?;
    let (max, rest) = match rest.strip_prefix(',') {
        Some(r) if r.starts_with('}') => (-1, r),
        Some(r) => repeat_int(r)?,
        None => (min, rest),
    };
    let rest = rest.strip_prefix('}')?;
    Some((min, max, s.len() - rest.len()))
}

/// Checks a Go pattern and writes it in the crate's syntax with Go's meaning.
fn translate(src: &str) -> Result<String, GoError> {
    let mut t = Translator {
        src,
        pos: 0,
        out: String::with_capacity(src.len() + 8),
    };
    let mut depth = 0usize;
    let mut have_operand = false;
    let mut last_repeat: Option<usize> = None;
    while let Some(c) = t.peek() {
        let start = t.pos;
        t.bump();
        match c {
            '(' => {
                if t.peek() == Some('?') {
                    t.bump();
                    if t.perl_group(start)? {
                        depth += 1;
                        have_operand = false;
                    }
                    // A bare flag group changes flags: what follows still needs an operand.
                } else {
                    t.out.push('(');
                    depth += 1;
                    have_operand = false;
                }
                last_repeat = None;
                continue;
            }
            ')' => {
                if depth == 0 {
                    return Err(go_err(UNEXPECTED_PAREN, src));
                }
                depth -= 1;
                t.out.push(')');
            }
            '|' => {
                t.out.push('|');
                have_operand = false;
                last_repeat = None;
                continue;
            }
            '*' | '+' | '?' => {
                t.repeat(start, last_repeat, have_operand)?;
                last_repeat = Some(start);
                continue;
            }
            '{' => match parse_counted(&src[start..]) {
                Some((min, max, len)) => {
                    t.pos = start + len;
                    if !(0..=1000).contains(&min) || max > 1000 || (max >= 0 && min > max) {
                        return Err(go_err(INVALID_REPEAT_SIZE, &src[start..start + len]));
                    }
                    t.repeat(start, last_repeat, have_operand)?;
                    last_repeat = Some(start);
                    continue;
                }
                // Not a counted repetition: a literal brace, as in Go.
                None => t.literal('{'),
            },
            '[' => t.class(start)?,
            '^' | '$' | '.' => t.out.push(c),
            '\\' => match t.peek() {
                None => return Err(go_err(TRAILING_BACKSLASH, "")),
                Some('A') | Some('z') => {
                    t.bump();
                    t.out.push('\\');
                    t.out.push(if src[start..].starts_with("\\A") { 'A' } else { 'z' });
                }
                Some(b @ ('b' | 'B')) => {
                    t.bump();
                    // Go's word boundaries are ASCII.
                    t.out.push_str(if b == 'b' { "(?-u:\\b)" } else { "(?-u:\\B)" });
                }
                Some('Q') => {
                    t.bump();
                    let rest = t.rest();
                    let (lit, skip) = match rest.find("\\E") {
                        Some(i) => (&rest[..i], i + 2),
                        None => (rest, rest.len()),
                    };
                    if lit.is_empty() {
                        // `\Q\E` adds nothing, not even an operand.
                        t.pos += skip;
                        continue;
                    }
                    t.out.push_str("(?:");
                    for ch in lit.chars() {
                        t.literal(ch);
                    }
                    t.out.push(')');
                    t.pos += skip;
                }
                Some(p @ ('p' | 'P')) => {
                    t.bump();
                    let s = t.unicode_class(start, p == 'P')?;
                    t.out.push_str(&s);
                }
                Some(k) if perl_class(k).is_some() => {
                    t.bump();
                    if let Some((items, negated)) = perl_class(k) {
                        t.out.push_str(&format!("[{}{items}]", if negated { "^" } else { "" }));
                    }
                }
                Some(_) => {
                    let ch = t.escape_char(start)?;
                    t.literal(ch);
                }
            },
            other => t.literal(other),
        }
        have_operand = true;
        last_repeat = None;
    }
    if depth > 0 {
        return Err(go_err(MISSING_PAREN, src));
    }
    Ok(t.out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> Value {
        Value::string(v)
    }

    fn find(subject: &str, re: &str) -> Result<Value, EvalError> {
        call("find", Some(&s(subject)), &[s(re)]).unwrap()
    }

    fn find_all(subject: &str, re: &str, n: Option<i64>) -> Vec<String> {
        let mut args = vec![s(re)];
        args.extend(n.map(Value::Int));
        match call("findAll", Some(&s(subject)), &args).unwrap().unwrap() {
            Value::List(l) => l
                .items
                .iter()
                .map(|v| match v {
                    Value::String(s) => s.to_string(),
                    other => panic!("{other:?}"),
                })
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    fn string(v: Result<Value, EvalError>) -> String {
        match v {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn find_and_find_all_from_kubernetes_tests() {
        // apiserver's library tests.
        assert_eq!(string(find("abc 123", "[0-9]*")), "");
        assert_eq!(string(find("abc 123", "[0-9]+")), "123");
        assert_eq!(string(find("abc 123", "xyz")), "");
        assert_eq!(find_all("123 abc 456", "[0-9]*", None), ["123", "", "", "", "", "456"]);
        assert_eq!(find_all("123 abc 456", "[0-9]+", None), ["123", "456"]);
        assert_eq!(find_all("123 abc 456", "xyz", None), Vec::<String>::new());
        assert_eq!(find_all("123 abc 456", "[0-9]*", Some(2)), ["123", ""]);
        assert_eq!(find_all("123 abc 456", "[0-9]+", Some(0)), Vec::<String>::new());
        assert_eq!(find_all("123 abc 456", "[0-9]+", Some(-1)), ["123", "456"]);
        // An empty match right after a match is skipped, as Go does.
        assert_eq!(find_all("baaab", "a*", None), ["", "aaa", ""]);
        assert_eq!(find_all("héllo", "", None), ["", "", "", "", "", ""]);
    }

    #[test]
    fn go_semantics() {
        let m = |re: &str, s: &str| compile(re).unwrap().is_match(s);
        // ASCII Perl classes and word boundaries.
        assert!(!m(r"^\d$", "٣"));
        assert!(m(r"^\d$", "3"));
        assert!(!m(r"^\w$", "é"));
        assert!(!m(r"^\s$", "\u{b}"));
        assert!(m(r"^[\s]$", " "));
        assert!(m(r"^[^\d]$", "a"));
        assert!(m(r"^[\D]$", "a"));
        assert!(!m(r"^[\W]$", "a"));
        assert!(!m(r"\bé", " é"));
        // Go reads `[` in a class, `\<`, `&&` and `--` as literals.
        assert!(m(r"^[a[]$", "["));
        assert!(m(r"^[&&]$", "&"));
        assert!(m(r"^[a~~-]$", "~"));
        assert!(m(r"^\<$", "<"));
        assert!(m(r"^[]a]$", "]"));
        assert!(m(r"^a{$", "a{"));
        assert!(m(r"^a{,2}$", "a{,2}"));
        assert!(m(r"^\Q.*\E$", ".*"));
        assert!(m(r"(?i)ABC", "xabc"));
        assert!(m(r"^\x41\x{42}\101$", "ABA"));
        assert!(m(r"^[[:alpha:]]+$", "abc"));
        assert!(m(r"^\pL\p{Greek}$", "aα"));
        assert!(m(r"(?P<x>a)(?<y>b)", "ab"));
        assert!(m(r"(?)a", "a"));
        assert!(m(r"^a{2,3}?$", "aa"));
    }

    #[test]
    fn go_errors() {
        let e = |re: &str| compile(re).unwrap_err().message;
        assert_eq!(e("(abc"), "error parsing regexp: missing closing ): `(abc`");
        assert_eq!(e("abc)"), "error parsing regexp: unexpected ): `abc)`");
        assert_eq!(e("x[a-z"), "error parsing regexp: missing closing ]: `[a-z`");
        assert_eq!(e("[a--]"), "error parsing regexp: invalid character class range: `a--`");
        assert_eq!(e("[z-a]"), "error parsing regexp: invalid character class range: `z-a`");
        assert_eq!(e(r"\q"), "error parsing regexp: invalid escape sequence: `\\q`");
        assert_eq!(e(r"\1"), "error parsing regexp: invalid escape sequence: `\\1`");
        assert_eq!(
            e("a\\"),
            "error parsing regexp: trailing backslash at end of expression: ``"
        );
        assert_eq!(
            e("*a"),
            "error parsing regexp: missing argument to repetition operator: `*`"
        );
        assert_eq!(
            e("(|+)"),
            "error parsing regexp: missing argument to repetition operator: `+`"
        );
        assert_eq!(
            e("a**"),
            "error parsing regexp: invalid nested repetition operator: `**`"
        );
        assert_eq!(
            e("a+?*"),
            "error parsing regexp: invalid nested repetition operator: `+?*`"
        );
        assert_eq!(e("a{1001}"), "error parsing regexp: invalid repeat count: `{1001}`");
        assert_eq!(e("a{2,1}"), "error parsing regexp: invalid repeat count: `{2,1}`");
        assert_eq!(
            e("(?x)a"),
            "error parsing regexp: invalid or unsupported Perl syntax: `(?x`"
        );
        assert_eq!(
            e("(?=a)"),
            "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"
        );
        assert_eq!(
            e("(?P<a-b>x)"),
            "error parsing regexp: invalid named capture: `(?P<a-b>`"
        );
        assert_eq!(
            e("[[:foo:]]"),
            "error parsing regexp: invalid character class range: `[:foo:]`"
        );
    }

    #[test]
    fn find_errors_are_prefixed() {
        assert_eq!(
            find("abc", "(").unwrap_err().message,
            "Illegal regex: error parsing regexp: missing closing ): `(`"
        );
    }

    #[test]
    fn costs() {
        // apiserver's cost tests: 'abc 123 def 123'.find('123') costs 2 for the call.
        assert_eq!(cost("find", Some(&s("abc 123 def 123")), &[s("123")], &s("")), Some(2));
        assert_eq!(cost("findAll", Some(&s("")), &[s("a")], &s("")), Some(1));
        assert_eq!(cost("find", None, &[s("a")], &s("")), None);
    }
}
