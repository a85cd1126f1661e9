//! Random YAML for the tests: values written in the many layouts go-yaml reads (quoted
//! scalars continued at any indentation, flow collections over lines at any indentation,
//! tabs after a key's `:`, comments, anchors and aliases, every line-break style), and
//! random edits of such texts for the differential test against go-yaml itself.

use serde_json::{Map, Value, json};

/// A small deterministic generator (xorshift64*), so a failing case is reproducible from its
/// seed.
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub(super) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n > 0`).
    pub(super) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub(super) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub(super) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const WORDS: &[&str] = &[
    "a", "name", "spec", "value", "x1", "port", "image", "k-8", "b_c", "data",
];

/// A random value of depth at most `depth`: objects, arrays, strings, integers, booleans and
/// null, as the YAML decoder returns them.
pub(super) fn value(rng: &mut Rng, depth: usize) -> Value {
    let kind = if depth == 0 { rng.below(4) } else { rng.below(7) };
    match kind {
        0 | 1 => Value::String(string(rng)),
        2 => json!(rng.below(2000) as i64 - 1000),
        3 => match rng.below(3) {
            0 => Value::Null,
            1 => Value::Bool(true),
            _ => Value::Bool(false),
        },
        4 | 5 => {
            let mut m = Map::new();
            for _ in 0..1 + rng.below(4) {
                m.insert(format!("{}{}", rng.pick(WORDS), rng.below(5)), value(rng, depth - 1));
            }
            Value::Object(m)
        }
        _ => Value::Array((0..1 + rng.below(4)).map(|_| value(rng, depth - 1)).collect()),
    }
}

fn string(rng: &mut Rng) -> String {
    let words = 1 + rng.below(4);
    let mut s = String::new();
    for i in 0..words {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(rng.pick(&[
            "note",
            "text",
            "é",
            "日本",
            "x:y",
            "a#b",
            "it's",
            "q\"q",
            "back\\slash",
            "tab\tbed",
        ]));
    }
    s
}

/// How a text breaks its lines.
#[derive(Clone, Copy)]
struct Style {
    newline: &'static str,
}

impl Style {
    /// Whether a line break inside a scalar folds to a space: U+2028 and U+2029 are kept.
    fn folds(self) -> bool {
        !matches!(self.newline, "\u{2028}" | "\u{2029}")
    }
}

/// What a value follows on its line.
#[derive(Clone, Copy, PartialEq, Eq)]
enum After {
    /// A key's `:`: tabs may follow, and a sequence may sit at the key's own column.
    Key,
    /// A `-`: only spaces may follow.
    Dash,
}

/// A YAML text for `v`, in a random layout go-yaml reads as `v`.
pub(super) fn text(rng: &mut Rng, v: &Value) -> String {
    let style = Style {
        newline: rng.pick(&["\n", "\n", "\n", "\r\n", "\r", "\u{85}", "\u{2028}"]),
    };
    let mut out = String::new();
    if rng.chance(5) {
        // Directives need an explicit document start.
        out.push_str(rng.pick(&["%YAML 1.1", "%TAG !e! tag:yaml.org,2002:", "%YAML 1.1 # v"]));
        out.push_str(style.newline);
        out.push_str("---");
        out.push_str(style.newline);
    } else if rng.chance(20) {
        out.push_str("---");
        out.push_str(style.newline);
    }
    if rng.chance(20) {
        out.push_str("# a comment");
        out.push_str(style.newline);
    }
    block(rng, v, 0, &mut out, style);
    if rng.chance(10) {
        out.push_str("...");
        out.push_str(style.newline);
    }
    out
}

/// A node in block context at indentation `indent`, starting at the current position
/// (after `key:` or `- `, or at the start of a line).
fn block(rng: &mut Rng, v: &Value, indent: usize, out: &mut String, style: Style) {
    let at_line_start = out.is_empty() || out.ends_with(style.newline);
    match v {
        Value::Object(m) if !m.is_empty() && rng.chance(75) => {
            let inner = if at_line_start {
                indent
            } else {
                indent + 1 + rng.below(3)
            };
            if !at_line_start {
                out.push_str(style.newline);
            }
            for (k, item) in m {
                out.push_str(&" ".repeat(inner));
                out.push_str(&key(rng, k));
                out.push(':');
                after(rng, item, inner, out, style, After::Key);
            }
        }
        Value::Array(a) if !a.is_empty() && rng.chance(75) => {
            let inner = if at_line_start { indent } else { indent + rng.below(3) };
            if !at_line_start {
                out.push_str(style.newline);
            }
            for item in a {
                out.push_str(&" ".repeat(inner));
                out.push('-');
                if matches!(item, Value::Object(_) | Value::Array(_)) && rng.chance(50) {
                    out.push(' ');
                    // A compact collection on the dash's line.
                    compact(rng, item, inner + 2, out, style);
                } else {
                    after(rng, item, inner, out, style, After::Dash);
                }
            }
        }
        _ => {
            if !at_line_start {
                out.push(' ');
            }
            inline(rng, v, indent, out, style);
            out.push_str(&comment(rng));
            out.push_str(style.newline);
        }
    }
}

/// The first entry of a mapping or sequence written on a `- ` line.
fn compact(rng: &mut Rng, v: &Value, indent: usize, out: &mut String, style: Style) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(&" ".repeat(indent));
                }
                out.push_str(&key(rng, k));
                out.push(':');
                after(rng, item, indent, out, style, After::Key);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(&" ".repeat(indent));
                }
                out.push('-');
                after(rng, item, indent, out, style, After::Dash);
            }
        }
        _ => {
            inline(rng, v, indent, out, style);
            out.push_str(style.newline);
        }
    }
}

/// What follows a key's `:` or a `-`: white space (a tab after a key's `:`), then the value.
fn after(rng: &mut Rng, v: &Value, indent: usize, out: &mut String, style: Style, what: After) {
    let nested = matches!(v, Value::Object(m) if !m.is_empty()) || matches!(v, Value::Array(a) if !a.is_empty());
    if nested && rng.chance(70) {
        if rng.chance(20) {
            out.push_str(" # about it");
        }
        out.push_str(style.newline);
        if rng.chance(15) {
            out.push_str(&" ".repeat(rng.below(6)));
            out.push_str("# a comment line");
            out.push_str(style.newline);
        }
        // An indentless sequence under a key, or a deeper block.
        let deeper = if what == After::Key && matches!(v, Value::Array(_)) && rng.chance(40) {
            indent
        } else {
            indent + 1 + rng.below(3)
        };
        block_at(rng, v, deeper, out, style);
        return;
    }
    match what {
        After::Key => out.push_str(rng.pick(&[" ", " ", "  ", "\t", " \t"])),
        After::Dash => out.push_str(rng.pick(&[" ", "  "])),
    }
    match v {
        Value::String(s) if plain_safe(s) && rng.chance(30) => plain(rng, s, indent, out, style),
        Value::String(s) if rng.chance(20) && style.folds() => {
            // A block scalar: its header ends the line (a comment may follow).
            block_scalar(rng, s, indent, out, style);
            return;
        }
        Value::String(_) if rng.chance(10) => {
            out.push_str("!!str ");
            inline(rng, v, indent, out, style);
        }
        _ => inline(rng, v, indent, out, style),
    }
    out.push_str(&comment(rng));
    out.push_str(style.newline);
}

fn block_at(rng: &mut Rng, v: &Value, indent: usize, out: &mut String, style: Style) {
    match v {
        Value::Object(m) => {
            for (k, item) in m {
                out.push_str(&" ".repeat(indent));
                out.push_str(&key(rng, k));
                out.push(':');
                after(rng, item, indent, out, style, After::Key);
            }
        }
        Value::Array(a) => {
            for item in a {
                out.push_str(&" ".repeat(indent));
                out.push('-');
                after(rng, item, indent, out, style, After::Dash);
            }
        }
        _ => block(rng, v, indent, out, style),
    }
}

fn comment(rng: &mut Rng) -> String {
    if rng.chance(15) {
        rng.pick(&[" # why", "\t# why", "   #: not a key"]).to_string()
    } else {
        String::new()
    }
}

fn key(rng: &mut Rng, k: &str) -> String {
    match rng.below(8) {
        0 => format!("'{k}'"),
        1 => format!("\"{k}\""),
        2 => format!("!!str {k}"),
        _ => k.to_string(),
    }
}

/// A flow node or a scalar, which may span lines: continuation lines go anywhere from column
/// 0 to `indent + 4` (go-yaml holds neither flow collections nor quoted scalars to the block
/// indentation).
fn inline(rng: &mut Rng, v: &Value, indent: usize, out: &mut String, style: Style) {
    match v {
        Value::Null => out.push_str(rng.pick(&["~", "null", "Null", "NULL"])),
        Value::Bool(true) => out.push_str(rng.pick(&["true", "True", "yes", "on", "y", "Y", "ON"])),
        Value::Bool(false) => out.push_str(rng.pick(&["false", "no", "off", "n", "N", "FALSE"])),
        Value::Number(n) => {
            let i = n.as_i64().unwrap_or(0);
            match rng.below(5) {
                0 if i >= 0 => out.push_str(&format!("0x{i:X}")),
                1 if i > 0 => out.push_str(&format!("0o{i:o}")),
                2 if i >= 0 => out.push_str(&format!("+{i}")),
                _ => out.push_str(&i.to_string()),
            }
        }
        Value::String(s) => quoted(rng, s, indent, out, style),
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                flow_gap(rng, indent, out, style);
                inline(rng, item, indent, out, style);
            }
            if rng.chance(20) && !a.is_empty() {
                out.push(',');
            }
            flow_gap(rng, indent, out, style);
            out.push(']');
        }
        Value::Object(m) => {
            out.push('{');
            for (i, (k, item)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                flow_gap(rng, indent, out, style);
                out.push_str(&key(rng, k));
                // In flow context a `:` right after a quoted key needs no space, and tabs
                // separate like spaces.
                out.push(':');
                out.push_str(rng.pick(&[" ", "\t", " "]));
                inline(rng, item, indent, out, style);
            }
            flow_gap(rng, indent, out, style);
            out.push('}');
        }
    }
}

/// White space between flow tokens: spaces, tabs, or a line break and any indentation.
fn flow_gap(rng: &mut Rng, indent: usize, out: &mut String, style: Style) {
    match rng.below(6) {
        0 => {
            out.push_str(style.newline);
            out.push_str(&" ".repeat(rng.below(indent + 5)));
        }
        1 => out.push('\t'),
        2 => out.push(' '),
        _ => {}
    }
}

fn quoted(rng: &mut Rng, s: &str, indent: usize, out: &mut String, style: Style) {
    let single = rng.chance(40) && !s.contains('\t');
    out.push(if single { '\'' } else { '"' });
    let mut chars = s.chars().peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        // A single space between two other characters may be written as a line break and
        // any indentation, the way go-yaml folds it back.
        let foldable =
            c == ' ' && prev.is_some_and(|p| p != ' ' && p != '\t') && next.is_some_and(|n| n != ' ' && n != '\t');
        if foldable && style.folds() && rng.chance(30) {
            out.push_str(style.newline);
            out.push_str(&" ".repeat(rng.below(indent + 5)));
        } else if single {
            if c == '\'' {
                out.push_str("''");
            } else {
                out.push(c);
            }
        } else {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\t' => out.push_str(rng.pick(&["\\t", "\\x09", "\\u0009"])),
                '\'' if rng.chance(50) => out.push_str("\\'"),
                'é' if rng.chance(30) => out.push_str("\\u00e9"),
                c => out.push(c),
            }
        }
        prev = Some(c);
    }
    out.push(if single { '\'' } else { '"' });
}

/// A string as a block scalar without its final line break (`|-` keeps lines, `>-` folds
/// single line breaks into spaces), its lines indented deeper than `indent`, with or without
/// an indentation indicator.
fn block_scalar(rng: &mut Rng, s: &str, indent: usize, out: &mut String, style: Style) {
    let literal = rng.chance(50);
    let more = 1 + rng.below(3);
    let indicator = rng.chance(30);
    out.push(if literal { '|' } else { '>' });
    if indicator {
        // The indicator counts from the block's indentation, the key's column.
        out.push_str(&more.to_string());
    }
    out.push('-');
    if rng.chance(20) {
        out.push_str(" # block");
    }
    out.push_str(style.newline);
    let pad = " ".repeat(indent + more);
    let words: Vec<&str> = s.split(' ').collect();
    out.push_str(&pad);
    for (i, w) in words.iter().enumerate() {
        if i > 0 {
            // A literal keeps spaces; a folded scalar may break a single space into a line.
            if !literal && rng.chance(50) && !w.is_empty() && !words[i - 1].is_empty() {
                out.push_str(style.newline);
                out.push_str(&pad);
            } else {
                out.push(' ');
            }
        }
        out.push_str(w);
    }
    out.push_str(style.newline);
    if rng.chance(20) {
        out.push_str(style.newline);
    }
}

/// Words a plain scalar can hold without ending early or resolving to another type.
fn plain_safe(s: &str) -> bool {
    !s.contains(['\'', '"', '\\', '\t', '#'])
}

/// A plain scalar in block context: a single space between words may become a line break,
/// with the next line indented deeper than the block around it.
fn plain(rng: &mut Rng, s: &str, indent: usize, out: &mut String, style: Style) {
    for (i, word) in s.split(' ').enumerate() {
        if i > 0 {
            if style.folds() && rng.chance(30) {
                out.push_str(style.newline);
                out.push_str(&" ".repeat(indent + 1 + rng.below(4)));
            } else {
                out.push(' ');
            }
        }
        out.push_str(word);
    }
}

/// Random edits of a text with YAML's significant characters: what the differential test
/// feeds both parsers.
pub(super) fn mutate(rng: &mut Rng, text: &str) -> String {
    const PIECES: &[&str] = &[
        " ", "  ", "\t", "\n", "\r\n", "\r", "\u{85}", "\u{2028}", "\u{feff}", ":", ": ", "-", "- ", "?", "? ", ",",
        "[", "]", "{", "}", "#", "&a ", "*a", "!", "!!str ", "!!int ", "|", ">", "'", "\"", "%", "@", "`", "---",
        "...", "\\", "\\'", "\\/", "\\x4", "\\u00", "<<", "~", "x", "0", "é",
    ];
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.below(3) {
        let at = if chars.is_empty() {
            0
        } else {
            rng.below(chars.len() + 1)
        };
        match rng.below(3) {
            0 if !chars.is_empty() && at < chars.len() => {
                let n = 1 + rng.below(3.min(chars.len() - at));
                chars.drain(at..at + n);
            }
            _ => {
                let piece: Vec<char> = rng.pick(PIECES).chars().collect();
                chars.splice(at..at, piece);
            }
        }
    }
    chars.into_iter().collect()
}
