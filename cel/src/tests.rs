use super::check;

/// Expressions cel-go (with Kubernetes' optional syntax) parses.
const VALID: &[&str] = &[
    "self.replicas <= self.maxReplicas",
    "has(self.a) || self.b > 0",
    "self.all(x, x.name.startsWith('a'))",
    "self.?foo.orValue(1) > 0",
    "a ? b : c",
    "a ? b : c ? d : e",
    "self.map(k, self[k] > 0)",
    "self.map(k, k > 0, k * 2)",
    "[1,2,3].exists(x, x > 2)",
    r#""a\"b" + 'c'"#,
    "self.minReplicas <= self.replicas && self.replicas <= oldSelf.maxReplicas",
    "!has(oldSelf.x) || self.x == oldSelf.x",
    "self[?'k'].orValue('') != ''",
    "[?self.?a, 1].size() > 0",
    "{?'k': self.?a}.size() >= 0",
    "optional.of(1).hasValue()",
    "self.exists_one(x, x == 1) && self.filter(x, x > 1).size() == 0",
    "'must be ' + string(self.x) + \"\\n\\t\\u00e9\\x41\\101\"",
    "r'raw\\d' + '''triple\n''' + b'\\xff'.size()",
    "self.x in [1u, 0x1F, -2, 3.5e-1]",
    "self.s.matches('^[a-z]+$') // a comment\n && size(self.l) < 10",
    "type(self) == map && int('1') == 1 && duration('1s') > duration('0s')",
    "{'a': 1}.a == 1 && google.protobuf.Timestamp{seconds: 1} != null",
    "self.__dash__ == 1 && self.x_y.z1 == 2",
    "-9223372036854775808 < 0",
    "18446744073709551615u > 0u",
    ".5 + 1e3 + 1.5E-3 + 0xFFu",
    "!!true && --1 == 1",
    "[1, 2,].size() == 2 && {'a': 1,}.size() == 1",
    "Msg{?a: x, b: 1,} == Msg{}",
    "self.`a-b` == 1",
    "self.exists(x)",
    "has(a, b)",
    "br'\\d' + B\"x\" + R'\\q'",
    "\"\"\"multi\nline\"\"\" + '''x'''",
    "cel.bind(x, 1, x + 1)",
    "self.transformList(i, v, v * 2)",
    "   self   ",
];

/// Expressions cel-go refuses, with where it says the problem is.
const INVALID: &[(&str, usize, usize)] = &[
    ("self.x ==", 1, 10),
    ("'unterminated", 1, 1),
    ("has(self)", 1, 5),
    ("has(self[0])", 1, 9),
    ("has(self.?a)", 1, 9),
    ("self.all(1, true)", 1, 10),
    ("self.map(a.b, true)", 1, 11),
    // Two-variable comprehensions are macros in the API server's environment.
    ("self.all(a.b, c, d)", 1, 11),
    ("self.all(a, a, true)", 1, 13),
    ("'\\q'", 1, 1),
    ("1 + ", 1, 5),
    ("(a", 1, 3),
    ("a && || b", 1, 6),
    ("a b", 1, 3),
    ("self..a", 1, 6),
    ("self.?", 1, 7),
    ("\"\"\"unterminated", 1, 3),
    ("if > 1", 1, 1),
    ("1 +\n  (2 * )", 2, 8),
    ("f(a,)", 1, 5),
    ("1 (2)", 1, 3),
    ("self.?a(1)", 1, 8),
    ("9223372036854775808", 1, 1),
    ("18446744073709551616u", 1, 1),
    ("1e400", 1, 1),
    ("a = b", 1, 3),
    ("'\\u00'", 1, 1),
    ("'\\ud800'", 1, 1),
    ("b'\\u0041'", 1, 1),
    ("'line\nbreak'", 1, 1),
    ("a ? b", 1, 6),
    ("[1, 2", 1, 6),
    ("{'a' 1}", 1, 6),
    ("a.in", 1, 3),
    ("#", 1, 1),
    ("self.`a`b`", 1, 9),
    ("", 1, 1),
];

#[test]
fn accepts_what_cel_go_parses() {
    for e in VALID {
        if let Err(err) = check(e) {
            panic!("{e:?} should parse:\n{err}");
        }
    }
}

#[test]
fn refuses_what_cel_go_refuses_at_the_same_place() {
    for (e, line, column) in INVALID {
        match check(e) {
            Ok(()) => panic!("{e:?} should not parse"),
            Err(err) => assert_eq!(
                (err.position.line, err.position.column),
                (*line, *column),
                "{e:?}: {err}"
            ),
        }
    }
}

#[test]
fn messages_name_the_problem() {
    let m = |e: &str| check(e).unwrap_err().message;
    assert_eq!(m("if > 1"), "reserved identifier: if");
    assert_eq!(m("has(self)"), "invalid argument to has() macro");
    assert_eq!(m("self.all(1, true)"), "argument must be a simple name");
    assert_eq!(m("9223372036854775808"), "invalid int literal");
    assert_eq!(m("'\\q'"), "token recognition error at: ''\\q'");
    assert_eq!(m("#"), "token recognition error at: '#'");
    assert_eq!(m("a b"), "mismatched input 'b' expecting <EOF>");
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let err = check(&deep).unwrap_err();
    assert!(err.message.contains("recursion limit"), "{err}");
    let deep = format!("{}1", "-".repeat(50_000));
    assert!(check(&deep).is_ok());
    let long = "1+".repeat(60_000) + "1";
    assert!(check(&long).unwrap_err().message.contains("code point size"));
}

proptest::proptest! {
    /// Never panics, whatever the input.
    #[test]
    fn never_panics(s in "[ -~\\n\\t\\u{e9}\\u{1F600}]{0,40}") {
        let _ = check(&s);
    }
}
