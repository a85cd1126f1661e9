//! Tests against what Go 1.27.3's `regexp.Compile` actually answers.
//!
//! Every expected verdict and error text here was produced by running the
//! real Go toolchain; `testdata/go_corpus.txt` holds several thousand such
//! answers (Go's own test tables among them), and the functions below cover
//! the patterns too big to store, the limits at their exact boundaries, deep
//! nesting on a small stack, long inputs, and a no-panic sweep.

use super::{Error, ErrorCode, check};

/// Runs `f` on a thread with a 2 MiB stack, the default for spawned threads,
/// so the tests do not depend on `RUST_MIN_STACK` or the main thread's size.
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn test thread")
        .join()
        .expect("test thread panicked")
}

/// The error `check` gives, as Go's text, or "ok".
fn verdict(pattern: &str) -> String {
    match check(pattern) {
        Ok(()) => "ok".to_string(),
        Err(e) => e.to_string(),
    }
}

fn assert_err(pattern: &str, code: ErrorCode, expr: &str) {
    let want = Error {
        code,
        expr: expr.to_string(),
    };
    let got = check(pattern);
    if got != Err(want.clone()) {
        let short: String = pattern.chars().take(80).collect();
        let got = got.map_err(|e| (e.code, e.expr.chars().take(80).collect::<String>()));
        panic!(
            "pattern {short:?} ({} bytes): got {got:?}, want {code:?}",
            pattern.len()
        );
    }
}

/// Asserts a limit error, which quotes the whole pattern.
fn assert_limit(pattern: &str, code: ErrorCode) {
    assert_err(pattern, code, pattern);
}

/// Decodes a string in Go's `strconv.Quote` syntax.
fn go_unquote(q: &str) -> String {
    let inner = q
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or_else(|| panic!("not quoted: {q}"));
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next().expect("escape");
        let mut hex = |n: usize| {
            let digits: String = chars.by_ref().take(n).collect();
            u32::from_str_radix(&digits, 16).expect("hex escape")
        };
        let decoded = match e {
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'n' => 10,
            'r' => 13,
            't' => 9,
            'v' => 11,
            '\\' | '"' | '\'' => e as u32,
            'x' => hex(2),
            'u' => hex(4),
            'U' => hex(8),
            _ => panic!("unknown escape \\{e} in {q}"),
        };
        out.push(char::from_u32(decoded).expect("valid char"));
    }
    out
}

/// The data lines of a Go reference corpus: a Go-quoted pattern, a tab, Go's answer.
fn corpus_lines(corpus: &str) -> impl Iterator<Item = (String, &str)> {
    corpus
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let (pattern, expected) = line.split_once('\t').expect("tab-separated line");
            (go_unquote(pattern), expected)
        })
}

#[test]
fn go_corpus() {
    let corpus = include_str!("testdata/go_corpus.txt");
    let mut count = 0;
    let mut failures = Vec::new();
    for (pattern, expected) in corpus_lines(corpus) {
        let expected = if expected == "ok" {
            "ok".to_string()
        } else {
            go_unquote(expected)
        };
        let got = verdict(&pattern);
        if got != expected {
            failures.push(format!("{pattern:?}\n  go:   {expected}\n  ours: {got}"));
        }
        count += 1;
    }
    assert!(count > 6000, "corpus too small: {count}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn examples_from_the_brief() {
    assert_eq!(
        check("([").expect_err("must fail").to_string(),
        "error parsing regexp: missing closing ]: `[`"
    );
    assert_eq!(
        check("a{3,2}").expect_err("must fail").to_string(),
        "error parsing regexp: invalid repeat count: `{3,2}`"
    );
    assert_err("[", ErrorCode::MissingBracket, "[");
    assert_err("a**", ErrorCode::InvalidRepeatOp, "**");
    assert_err(r"\Z", ErrorCode::InvalidEscape, r"\Z");
    assert_err(r"\C", ErrorCode::InvalidEscape, r"\C");
    assert_err("a{1001}", ErrorCode::InvalidRepeatSize, "{1001}");
    assert_err("(abc", ErrorCode::MissingParen, "(abc");
    assert_err("abc)", ErrorCode::UnexpectedParen, "abc)");
    assert_err(r"abc\", ErrorCode::TrailingBackslash, "");
    assert_eq!(
        verdict(r"abc\"),
        "error parsing regexp: trailing backslash at end of expression: ``"
    );
    assert_eq!(check("(?P<n>a)(?P<n>b)"), Ok(()));
    assert_eq!(check("(?<n>x)"), Ok(()));
    assert_eq!(check("a{1000}"), Ok(()));
}

#[test]
fn error_code_texts() {
    let all = [
        (ErrorCode::InternalError, "regexp/syntax: internal error"),
        (ErrorCode::InvalidCharClass, "invalid character class"),
        (ErrorCode::InvalidCharRange, "invalid character class range"),
        (ErrorCode::InvalidEscape, "invalid escape sequence"),
        (ErrorCode::InvalidNamedCapture, "invalid named capture"),
        (ErrorCode::InvalidPerlOp, "invalid or unsupported Perl syntax"),
        (ErrorCode::InvalidRepeatOp, "invalid nested repetition operator"),
        (ErrorCode::InvalidRepeatSize, "invalid repeat count"),
        (ErrorCode::InvalidUTF8, "invalid UTF-8"),
        (ErrorCode::MissingBracket, "missing closing ]"),
        (ErrorCode::MissingParen, "missing closing )"),
        (
            ErrorCode::MissingRepeatArgument,
            "missing argument to repetition operator",
        ),
        (ErrorCode::TrailingBackslash, "trailing backslash at end of expression"),
        (ErrorCode::UnexpectedParen, "unexpected )"),
        (ErrorCode::NestingDepth, "expression nests too deeply"),
        (ErrorCode::Large, "expression too large"),
    ];
    for (code, text) in all {
        assert_eq!(code.to_string(), text);
    }
}

/// Go's `invalidRegexps` table (regexp/syntax/parse_test.go) with the exact
/// errors Go gives in Perl mode; the entries with invalid UTF-8 cannot be
/// expressed as `&str` and are left out.
#[test]
fn go_invalid_regexps() {
    use ErrorCode::*;
    let small: &[(&str, ErrorCode, &str)] = &[
        ("(", MissingParen, "("),
        (")", UnexpectedParen, ")"),
        ("(a", MissingParen, "(a"),
        ("a)", UnexpectedParen, "a)"),
        ("(a))", UnexpectedParen, "(a))"),
        ("(a|b|", MissingParen, "(a|b|"),
        ("a|b|)", UnexpectedParen, "a|b|)"),
        ("(a|b|))", UnexpectedParen, "(a|b|))"),
        ("(a|b", MissingParen, "(a|b"),
        ("a|b)", UnexpectedParen, "a|b)"),
        ("(a|b))", UnexpectedParen, "(a|b))"),
        ("[a-z", MissingBracket, "[a-z"),
        ("([a-z)", MissingBracket, "[a-z)"),
        ("[a-z)", MissingBracket, "[a-z)"),
        ("([a-z]))", UnexpectedParen, "([a-z]))"),
        ("x{1001}", InvalidRepeatSize, "{1001}"),
        ("x{9876543210}", InvalidRepeatSize, "{9876543210}"),
        ("x{2,1}", InvalidRepeatSize, "{2,1}"),
        ("x{1,9876543210}", InvalidRepeatSize, "{1,9876543210}"),
        ("(?P<name>a", MissingParen, "(?P<name>a"),
        ("(?P<name>", MissingParen, "(?P<name>"),
        ("(?P<name", InvalidNamedCapture, "(?P<name"),
        ("(?P<x y>a)", InvalidNamedCapture, "(?P<x y>"),
        ("(?P<>a)", InvalidNamedCapture, "(?P<>"),
        ("(?<name>a", MissingParen, "(?<name>a"),
        ("(?<name>", MissingParen, "(?<name>"),
        ("(?<name", InvalidNamedCapture, "(?<name"),
        ("(?<x y>a)", InvalidNamedCapture, "(?<x y>"),
        ("(?<>a)", InvalidNamedCapture, "(?<>"),
        ("[a-Z]", InvalidCharRange, "a-Z"),
        ("(?i)[a-Z]", InvalidCharRange, "a-Z"),
        (r"\Q\E*", MissingRepeatArgument, "*"),
        ("a{100000}", InvalidRepeatSize, "{100000}"),
        ("a{100000,}", InvalidRepeatSize, "{100000,}"),
        (
            "((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})",
            InvalidRepeatSize,
            "{2}",
        ),
    ];
    for &(pattern, code, expr) in small {
        assert_err(pattern, code, expr);
    }
    on_small_stack(|| {
        assert_limit(&("(".repeat(1000) + &")".repeat(1000)), ErrorCode::NestingDepth);
        assert_limit(&("(?:".repeat(1000) + &")*".repeat(1000)), ErrorCode::NestingDepth);
        assert_limit(&("(".to_string() + &"(xx?)".repeat(1000) + "){1000}"), ErrorCode::Large);
        assert_limit(&"(xx?){1000}".repeat(1000), ErrorCode::Large);
        assert_limit(&r"\pL".repeat(27000), ErrorCode::Large);
    });
}

/// Go's `onlyPerl` and `onlyPOSIX` tables: the first all parse in Perl mode,
/// the second all fail there.
#[test]
fn go_only_perl_and_only_posix() {
    for p in [
        "[a-b-c]",
        r"\Qabc\E",
        r"\Q*+?{[\E",
        r"\Q\\E",
        r"\Q\\\E",
        r"\Q\\\\E",
        r"\Q\\\\\E",
        "(?:a)",
        "(?P<name>a)",
    ] {
        assert_eq!(check(p), Ok(()), "{p}");
    }
    use ErrorCode::InvalidRepeatOp;
    assert_err("a++", InvalidRepeatOp, "++");
    assert_err("a**", InvalidRepeatOp, "**");
    assert_err("a?*", InvalidRepeatOp, "?*");
    assert_err("a+*", InvalidRepeatOp, "+*");
    assert_err("a{1}*", InvalidRepeatOp, "{1}*");
    assert_err(".{1}{2}.{3}", InvalidRepeatOp, "{1}{2}");
}

/// Go's `badRe` table (regexp/all_test.go), full texts.
#[test]
fn go_bad_re() {
    for (p, text) in [
        ("*", "missing argument to repetition operator: `*`"),
        ("+", "missing argument to repetition operator: `+`"),
        ("?", "missing argument to repetition operator: `?`"),
        ("(abc", "missing closing ): `(abc`"),
        ("abc)", "unexpected ): `abc)`"),
        ("x[a-z", "missing closing ]: `[a-z`"),
        ("[z-a]", "invalid character class range: `z-a`"),
        (r"abc\", "trailing backslash at end of expression: ``"),
        ("a**", "invalid nested repetition operator: `**`"),
        ("a*+", "invalid nested repetition operator: `*+`"),
        (r"\x", "invalid escape sequence: `\\x`"),
    ] {
        assert_eq!(verdict(p), format!("error parsing regexp: {text}"), "{p}");
    }
}

/// Each limit at the exact size where Go starts rejecting (found by
/// bisection against Go 1.27.3): one below passes, the boundary fails.
#[test]
fn limits_at_go_boundaries() {
    type Family = (fn(usize) -> String, usize, ErrorCode);
    let families: &[Family] = &[
        (|n| "(".repeat(n) + &")".repeat(n), 1000, ErrorCode::NestingDepth),
        (|n| "(?:".repeat(n) + &")*".repeat(n), 1000, ErrorCode::NestingDepth),
        // Literal runs make the size estimate (with Go's stale cache
        // entries) run out before the nesting limit.
        (|n| "(?:a".repeat(n) + &")".repeat(n), 4729, ErrorCode::Large),
        (|n| r"\pL".repeat(n), 24529, ErrorCode::Large),
        (|n| "(?i)".to_string() + &r"\pL".repeat(n), 24493, ErrorCode::Large),
        (|n| "(xx?){1000}".repeat(n), 672, ErrorCode::Large),
        (|n| "a{1000}".repeat(n), 3356, ErrorCode::Large),
        (|n| "(?:[a-z]{1000}|b)".repeat(n), 3349, ErrorCode::Large),
        // Factoring `a|aa|aaa|...` nests one level per alternative.
        (
            |n| (1..=n).map(|i| "a".repeat(i)).collect::<Vec<_>>().join("|"),
            501,
            ErrorCode::NestingDepth,
        ),
    ];
    for &(make, boundary, code) in families {
        on_small_stack(move || {
            let ok = make(boundary - 1);
            assert_eq!(check(&ok), Ok(()), "one below the boundary {boundary}");
            assert_limit(&make(boundary), code);
        });
    }
}

#[test]
fn deep_nesting_on_a_small_stack() {
    on_small_stack(|| {
        let open = "(".repeat(100_000);
        assert_limit(&open, ErrorCode::MissingParen);
        let full = "(".repeat(100_000) + &")".repeat(100_000);
        assert_limit(&full, ErrorCode::NestingDepth);
        let ncg = "(?:a".repeat(10_000);
        assert_limit(&ncg, ErrorCode::MissingParen);
        let closed = "(?:a".repeat(10_000) + &")".repeat(10_000);
        assert_limit(&closed, ErrorCode::Large);
        let alts = (1..1500).map(|i| "a".repeat(i)).collect::<Vec<_>>().join("|");
        assert_limit(&alts, ErrorCode::NestingDepth);
        let classes = (1..600).map(|i| r"\d".repeat(i) + "z").collect::<Vec<_>>().join("|");
        assert_limit(&classes, ErrorCode::NestingDepth);
    });
}

#[test]
fn long_patterns_are_fast() {
    on_small_stack(|| {
        let start = std::time::Instant::now();
        assert_eq!(check(&"a".repeat(1_000_000)), Ok(()));
        assert_eq!(check(&"[a-z]".repeat(100_000)), Ok(()));
        assert_eq!(check(&"ab|".repeat(100_000)), Ok(()));
        assert_eq!(check(&"(?i)Hello".repeat(50_000)), Ok(()));
        assert_limit(&(".".repeat(3_355_443) + "{2}"), ErrorCode::Large);
        // Generous even for an unoptimised build; Go-like behaviour is a
        // few hundred milliseconds in release.
        assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
    });
}

#[test]
fn unicode_names() {
    for ok in [
        r"\pL",
        r"\p{Greek}",
        r"\p{greek}",
        r"\P{^Lu}",
        r"\p{Letter}",
        r"\p{Old_Italic}",
        r"\p{old italic}",
        r"\p{Any}",
        r"\p{Assigned}",
        r"\p{ASCII}",
        r"\p{LC}",
        r"\p{Cn}",
        r"\p{Sidetic}",
        r"\p{Tolong_Siki}",
        r"(?i)\p{Lu}",
        r"[\p{Han}\P{L}]",
    ] {
        assert_eq!(check(ok), Ok(()), "{ok}");
    }
    assert_err(r"\p{Latn}", ErrorCode::InvalidCharRange, r"\p{Latn}");
    assert_err(r"\p{IsGreek}x", ErrorCode::InvalidCharRange, r"\p{IsGreek}");
    assert_err(r"\pX", ErrorCode::InvalidCharRange, r"\pX");
    assert_err(r"\p", ErrorCode::InvalidCharRange, r"\p");
    assert_err(r"a\p{Greek", ErrorCode::InvalidCharRange, r"\p{Greek");
}

/// A small deterministic generator (xorshift), so the sweep is repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % u64::try_from(n).unwrap_or(1)).unwrap_or(0)
    }
}

/// Random short patterns over the characters and tokens that steer the
/// parser; none may panic, and errors must quote part of the pattern.
#[test]
fn random_patterns_never_panic() {
    const TOKENS: &[&str] = &[
        "a",
        "b",
        "k",
        "K",
        "\u{212A}",
        "é",
        "ſ",
        "Δ",
        "δ",
        "0",
        "1",
        "7",
        "{",
        "}",
        ",",
        "-",
        "]",
        "[",
        "^",
        "$",
        ".",
        "|",
        "(",
        ")",
        "(?",
        "(?:",
        "(?i)",
        "(?i:",
        "(?-i)",
        "(?P<n>",
        "(?<n>",
        "(?P<",
        ">",
        "*",
        "+",
        "?",
        "{2}",
        "{2,}",
        "{0,3}",
        "{1000}",
        "{1001}",
        "{3,2}",
        "{,5}",
        "\\",
        "\\d",
        "\\W",
        "\\pL",
        "\\p{Greek}",
        "\\P{^Lu}",
        "\\p{",
        "\\p",
        "\\x41",
        "\\x{1F600}",
        "\\x{",
        "\\Q",
        "\\E",
        "\\b",
        "\\z",
        "\\Z",
        "\\C",
        "\\1",
        "\\0",
        "\\8",
        "[:alpha:]",
        "[:foo:]",
        "[^a]",
        "[a-z]",
        "[z-a]",
        "[]a]",
        " ",
        "\n",
    ];
    on_small_stack(|| {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..30_000 {
            let len = 1 + rng.below(12);
            let pattern: String = (0..len).map(|_| TOKENS[rng.below(TOKENS.len())]).collect();
            if let Err(e) = check(&pattern) {
                assert!(
                    pattern.contains(&e.expr),
                    "{pattern:?}: expr {:?} not in pattern",
                    e.expr
                );
            }
        }
        // Arbitrary characters too, including ones outside the BMP.
        for _ in 0..30_000 {
            let len = 1 + rng.below(10);
            let pattern: String = (0..len)
                .map(|_| {
                    let c = match rng.below(4) {
                        0 => rng.below(0x80),
                        1 => rng.below(0x3000),
                        _ => rng.below(0x11_0000),
                    };
                    char::from_u32(u32::try_from(c).unwrap_or(0)).unwrap_or('x')
                })
                .collect();
            let _ = check(&pattern);
        }
    });
}

/// The trees Go builds (flags, runes, structure after factoring) for a set
/// of patterns that parse, compared node by node.
#[test]
fn go_trees() {
    let corpus = include_str!("testdata/go_trees.txt");
    let mut count = 0;
    let mut failures = Vec::new();
    for (pattern, expected) in corpus_lines(corpus) {
        match super::parser::dump_tree(pattern.as_bytes()) {
            Ok(tree) if tree == expected => {}
            got => failures.push(format!("{pattern:?}\n  go:   {expected}\n  ours: {got:?}")),
        }
        count += 1;
    }
    assert!(count > 1000, "corpus too small: {count}");
    let shown: Vec<_> = failures.iter().take(20).collect();
    assert!(failures.is_empty(), "{} mismatches:\n{:?}", failures.len(), shown);
}
