//! Checker tests: cel-go's messages and apiextensions' compilation cases (carried over as
//! facts: rule, schema, expected outcome).

use super::*;
use crate::schema::{AdditionalProperties, Json, SchemaNode, rule_variables, schema_decl_type};

/// A minimal structural schema for tests.
#[derive(Default, Clone)]
pub(crate) struct S {
    pub t: &'static str,
    pub format: &'static str,
    pub props: Vec<(&'static str, S)>,
    pub items: Option<Box<S>>,
    pub additional: Option<Box<S>>,
    pub max_length: Option<i64>,
    pub max_items: Option<i64>,
    pub max_properties: Option<i64>,
    pub enums: Vec<Json>,
    pub required: Vec<&'static str>,
    pub int_or_string: bool,
    pub embedded: bool,
}

impl SchemaNode for S {
    fn schema_type(&self) -> &str {
        self.t
    }
    fn format(&self) -> &str {
        self.format
    }
    fn properties(&self) -> Vec<(&str, &Self)> {
        self.props.iter().map(|(n, s)| (*n, s)).collect()
    }
    fn items(&self) -> Option<&Self> {
        self.items.as_deref()
    }
    fn additional_properties(&self) -> Option<AdditionalProperties<'_, Self>> {
        self.additional.as_deref().map(AdditionalProperties::Schema)
    }
    fn max_length(&self) -> Option<i64> {
        self.max_length
    }
    fn max_items(&self) -> Option<i64> {
        self.max_items
    }
    fn max_properties(&self) -> Option<i64> {
        self.max_properties
    }
    fn enum_values(&self) -> Vec<Json> {
        self.enums.clone()
    }
    fn default_value(&self) -> Option<Json> {
        None
    }
    fn required(&self) -> Vec<&str> {
        self.required.clone()
    }
    fn nullable(&self) -> bool {
        false
    }
    fn int_or_string(&self) -> bool {
        self.int_or_string
    }
    fn preserve_unknown_fields(&self) -> bool {
        false
    }
    fn embedded_resource(&self) -> bool {
        self.embedded
    }
    fn list_type(&self) -> Option<&str> {
        None
    }
    fn list_map_keys(&self) -> Vec<&str> {
        Vec::new()
    }
}

pub(crate) fn ty(t: &'static str) -> S {
    S { t, ..S::default() }
}

pub(crate) fn obj(props: Vec<(&'static str, S)>) -> S {
    S {
        t: "object",
        props,
        ..S::default()
    }
}

pub(crate) fn arr(items: S) -> S {
    S {
        t: "array",
        items: Some(Box::new(items)),
        ..S::default()
    }
}

pub(crate) fn env_for(s: &S, optional_old_self: bool) -> Env {
    let decl = schema_decl_type(s, false).expect("a type");
    Env::for_rule(&rule_variables(&decl, "selfType0", optional_old_self))
}

fn compile(s: &S, rule: &str) -> Result<Checked, String> {
    compile_rule(rule, &env_for(s, false), RuleKind::Rule)
        .map(|(_, c)| c)
        .map_err(|e| e.to_string())
}

fn compile_opt(s: &S, rule: &str) -> Result<Checked, String> {
    compile_rule(rule, &env_for(s, true), RuleKind::Rule)
        .map(|(_, c)| c)
        .map_err(|e| e.to_string())
}

fn err(s: &S, rule: &str) -> String {
    match compile(s, rule) {
        Ok(c) => panic!("{rule}: checked as {}", c.result),
        Err(e) => e,
    }
}

#[test]
fn undeclared_reference_display() {
    let s = obj(vec![("engine", ty("string"))]);
    assert_eq!(
        err(&s, "self.engin != 'Redis'"),
        "compilation failed: ERROR: <input>:1:5: undefined field 'engin'\n | self.engin != 'Redis'\n | ....^"
    );
    assert_eq!(
        err(&s, "engin != 'Redis'"),
        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'engin' (in container '')\n | engin != 'Redis'\n | ^"
    );
}

#[test]
fn no_matching_overload() {
    let s = obj(vec![("i", ty("integer"))]);
    assert_eq!(
        err(&s, "self.i == 'x'"),
        "compilation failed: ERROR: <input>:1:8: found no matching overload for '_==_' applied to '(int, string)'\n | self.i == 'x'\n | .......^"
    );
    assert!(
        err(&s, "'abc'.reverse() == 'cba'").contains("found no matching overload for 'reverse' applied to 'string.()'")
    );
    assert!(
        err(&s, "quantity('1').sign() == 1")
            .contains("found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'")
    );
}

#[test]
fn multiple_errors_sorted() {
    let s = obj(vec![("i", ty("integer"))]);
    let e = err(&s, "a + b == c");
    let lines: Vec<&str> = e.lines().filter(|l| l.contains("ERROR")).collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].contains("1:1: undeclared reference to 'a'"), "{e}");
    assert!(lines[1].contains("1:5: undeclared reference to 'b'"), "{e}");
    assert!(lines[2].contains("1:10: undeclared reference to 'c'"), "{e}");
}

#[test]
fn undeclared_functions() {
    let s = ty("string");
    for (rule, f) in [
        // Not macros nor functions here: the receiver and the function are both undeclared.
        ("cel.bind(x, 1, x > 0)", "bind"),
        ("cel.bind(x, 1, x > 0)", "cel"),
        ("cel.bind(x, 1, x > 0)", "x"),
        ("math.greatest(1, 2) == 2", "greatest"),
        ("base64.encode(b'a') == 'YQ=='", "base64"),
        ("fakeFunction('abc') == 'ABC'", "fakeFunction"),
    ] {
        let e = err(&s, rule);
        assert!(
            e.contains(&format!("undeclared reference to '{f}' (in container '')")),
            "{rule}: {e}"
        );
    }
}

#[test]
fn unbound_macro_display() {
    let e = err(&ty("string"), "cel.bind(x, 1, x > 0)");
    let positions: Vec<&str> = e
        .lines()
        .filter(|l| l.contains("ERROR"))
        .map(|l| {
            let at = &l[l.find("<input>").unwrap_or(0)..];
            &at[..at.find(": ").unwrap_or(at.len())]
        })
        .collect();
    assert_eq!(
        positions,
        ["<input>:1:1", "<input>:1:9", "<input>:1:10", "<input>:1:16"],
        "{e}"
    );
}

#[test]
fn crd_compilation_cases() {
    // apiextensions compilation_test.go: "optional primitive transition rule type checking".
    let i = ty("integer");
    assert!(compile_opt(&i, "self >= oldSelf.value()").is_ok());
    assert!(compile_opt(&i, "self >= oldSelf.orValue(1)").is_ok());
    assert!(compile_opt(&i, "oldSelf.hasValue() ? self >= oldSelf.value() : true").is_ok());
    assert!(compile_opt(&i, "self >= oldSelf").unwrap_err().contains("optional"));
    assert!(
        compile_opt(&i, "self >= oldSelf.orValue('')")
            .unwrap_err()
            .contains("orValue")
    );
    // "optional complex transition rule type checking".
    let inner = obj(vec![
        ("i", ty("integer")),
        ("b", ty("boolean")),
        ("s", ty("string")),
        ("a", arr(ty("integer"))),
        ("o", ty("object")),
    ]);
    let mut props = inner.props.clone();
    props[4] = ("o", inner.clone());
    let o = obj(props);
    for ok in [
        "self.i >= oldSelf.i.value()",
        "self.s == oldSelf.s.value()",
        "self.b == oldSelf.b.value()",
        "self.o == oldSelf.o.value()",
        "self.o.i >= oldSelf.o.i.value()",
        "self.o.o == oldSelf.o.o.value()",
        "self.o.i >= oldSelf.o.i.orValue(1)",
        "oldSelf.hasValue() ? self.o.i >= oldSelf.o.i.value() : true",
    ] {
        assert!(compile_opt(&o, ok).is_ok(), "{ok}: {:?}", compile_opt(&o, ok).err());
    }
    assert!(
        compile_opt(&o, "self.o.i >= oldSelf.o.i")
            .unwrap_err()
            .contains("optional")
    );
    assert!(
        compile_opt(&o, "self.o.i >= oldSelf.o.s.orValue(0)")
            .unwrap_err()
            .contains("orValue")
    );
    // Scalars and lists.
    assert!(compile(&ty("string"), "self.startsWith('s')").is_ok());
    assert!(compile(&ty("string"), "string(self).endsWith('s')").is_ok());
    assert!(compile(&ty("boolean"), "self == true").is_ok());
    assert!(compile(&ty("integer"), "self > 0").is_ok());
    assert!(compile(&ty("number"), "self > 1.0").is_ok());
    assert!(compile(&arr(arr(ty("string"))), "size(self[0][0]) == 10").is_ok());
    assert!(
        compile(
            &arr(obj(vec![("nestedObj", obj(vec![("val", ty("integer"))]))])),
            "self[0].nestedObj.val == 10"
        )
        .is_ok()
    );
    // Escaping: reserved words as field names.
    let esc = obj(vec![
        ("namespace", arr(arr(ty("string")))),
        ("if", ty("integer")),
        ("self", ty("integer")),
    ]);
    assert!(compile(&esc, "size(self.__namespace__[0]) == 10").is_ok());
    assert!(compile(&esc, "self.__if__ == 10").is_ok());
    assert!(compile(&esc, "self.self == 10").is_ok());
    assert!(compile(&esc, "size(self.namespace[0]) == 10").is_ok());
    assert!(err(&esc, "self == 10").contains("found no matching overload"));
    // Result types.
    assert_eq!(err(&ty("integer"), "42"), "cel expression must evaluate to a bool");
    let msg = compile_rule(
        "self == 5",
        &env_for(&ty("integer"), false),
        RuleKind::MessageExpression,
    )
    .unwrap_err();
    assert_eq!(msg.to_string(), "messageExpression must evaluate to a string");
    assert!(
        compile_rule(
            "'x' + string(self)",
            &env_for(&ty("integer"), false),
            RuleKind::MessageExpression
        )
        .is_ok()
    );
}

#[test]
fn embedded_resource_metadata() {
    let s = S {
        embedded: true,
        ..obj(vec![("spec", obj(vec![]))])
    };
    let decl = schema_decl_type(&s, true).unwrap();
    let env = Env::for_rule(&rule_variables(&decl, "selfType0", false));
    for rule in [
        "self.metadata.name.contains('x')",
        "self.metadata.generateName.contains('x')",
        "self.kind == 'K'",
        "self.apiVersion == 'v1'",
    ] {
        assert!(compile_rule(rule, &env, RuleKind::Rule).is_ok(), "{rule}");
    }
    assert!(
        compile_rule("self.metadata.labels == {}", &env, RuleKind::Rule)
            .unwrap_err()
            .to_string()
            .contains("undefined field 'labels'")
    );
}

#[test]
fn libraries_and_macros() {
    let s = obj(vec![
        ("l", arr(ty("integer"))),
        (
            "m",
            S {
                t: "object",
                additional: Some(Box::new(ty("string"))),
                ..S::default()
            },
        ),
        (
            "q",
            S {
                int_or_string: true,
                ..S::default()
            },
        ),
        ("s", ty("string")),
    ]);
    for rule in [
        "self.l.all(x, x > 0)",
        "self.l.exists_one(x, x == 1)",
        "self.l.map(x, x * 2).size() > 0",
        "self.l.filter(x, x > 1) == [2]",
        "self.m.all(k, self.m[k] != '')",
        "self.l.isSorted() && self.l.sum() > 0 && self.l.min() < self.l.max()",
        "self.l.indexOf(1) >= 0",
        "self.s.indexOf('a') >= 0",
        "sets.contains(self.l, [1])",
        "self.l.slice(0, 1).reverse().distinct().sort() == [1]",
        "lists.range(3) == [0, 1, 2]",
        "self.?s.orValue('') == ''",
        "self.m[?'a'].hasValue()",
        "optional.of(1).value() == 1",
        "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
        "isQuantity(self.s) || isURL(self.s) || isIP(self.s) || isCIDR(self.s) || isSemver(self.s)",
        "ip('10.0.0.1').family() == 4 && cidr('10.0.0.0/8').containsIP('10.0.0.1')",
        "format.dns1123Label().validate(self.s).hasValue()",
        "!format.named('uuid').hasValue()",
        "semver('1.0.0').major() == 1",
        "self.s.find('[a-z]+') != '' && self.s.findAll('a').size() > 0",
        "self.l.all(i, v, v > i)",
        "self.m.transformMap(k, v, v + 'x').size() > 0",
        "self.l.transformList(i, v, v * i).size() > 0",
        "'%s'.format([self.s]) == self.s",
        "self.s.split(',').join('-') != ''",
        "self.q == 1 || self.q == 'a'",
        "timestamp('2023-01-01T00:00:00Z') < timestamp('2024-01-01T00:00:00Z')",
        "duration('1h') > duration('1m')",
        "1 < 1.5 && 1u < 2",
        "type(self.s) == string",
        "has(self.s)",
        "[1, 2, 3].all(x, x > 0)",
        "[].size() == 0",
        "{}.size() == 0",
    ] {
        assert!(compile(&s, rule).is_ok(), "{rule}: {:?}", compile(&s, rule).err());
    }
}

#[test]
fn validators() {
    let s = ty("string");
    assert!(err(&s, "[1, 'a'].size() == 2").contains("1:5: expected type 'int' but found 'string'"));
    assert!(err(&s, "{'a': 1, 'b': 'c'}.size() == 2").contains("expected type 'int' but found 'string'"));
    assert!(compile(&s, "'%s %d'.format(['a', 1]) != ''").is_ok());
    assert!(err(&s, "duration('1x') > duration('1s')").contains("invalid duration argument"));
    assert!(err(&s, "timestamp('2023-13-01T00:00:00Z') > timestamp(0)").contains("invalid timestamp argument"));
}

#[test]
fn type_errors() {
    let s = obj(vec![("l", arr(ty("integer"))), ("s", ty("string"))]);
    assert!(err(&s, "self.s.x == 1").contains("type 'string' does not support field selection"));
    assert!(
        err(&s, "self.s.all(x, true)")
            .contains("expression of type 'string' cannot be range of a comprehension (must be list, map, or dynamic)")
    );
    assert!(err(&s, "self.l.all(x, x)").contains("expected type 'bool' but found 'int'"));
    assert!(err(&s, "self.s && true").contains("expected type 'bool' but found 'string'"));
    assert!(err(&s, "self.l == [1, 'a']").contains("expected type 'int' but found 'string'"));
    assert!(
        err(&s, "self.l + ['a'] == []")
            .contains("found no matching overload for '_+_' applied to '(list(int), list(string))'")
    );
    assert!(
        err(&s, "size(self.s, 1) == 1").contains("found no matching overload for 'size' applied to '(string, int)'")
    );
}

#[test]
fn result_types() {
    let env = Env::crd();
    let t = |src: &str| check(&crate::parse(src).unwrap(), src, &env).map(|c| c.result.to_string());
    assert_eq!(t("[1, 2]").unwrap(), "list(int)");
    assert_eq!(t("{'a': 1}").unwrap(), "map(string, int)");
    assert_eq!(t("[]").unwrap(), "list(dyn)");
    assert_eq!(t("optional.of(1)").unwrap(), "optional_type(int)");
    assert_eq!(t("type(1)").unwrap(), "type(int)");
    assert_eq!(t("int").unwrap(), "type(int)");
    assert_eq!(t("null").unwrap(), "null");
    assert_eq!(t("dyn(1)").unwrap(), "dyn");
    assert_eq!(
        t("[1, 2].map(x, x * 2.0)")
            .err()
            .map(|e| e.issues[0].message.clone())
            .unwrap(),
        "found no matching overload for '_*_' applied to '(int, double)'"
    );
    assert_eq!(
        t("true ? 1 : 'a'").err().map(|e| e.issues[0].message.clone()).unwrap(),
        "found no matching overload for '_?_:_' applied to '(bool, int, string)'"
    );
    assert_eq!(t("{'a': 1}.a").unwrap(), "int");
    assert_eq!(t("url('https://x').getQuery()").unwrap(), "map(string, list(string))");
}

#[test]
fn deep_expressions_check_and_estimate() {
    let src = format!("{}1{} == []", "[".repeat(200), "]".repeat(200));
    let env = Env::crd();
    let e = crate::parse(&src).unwrap();
    let checked = check(&e, &src, &env).unwrap();
    assert_eq!(checked.result, Type::Bool);
    assert!(crate::cost::estimate(&e, &checked, None).max > 0);
}

/// Each library joins the environment at the compatibility version the server adds it.
#[test]
fn libraries_follow_the_compatibility_version() {
    let compiles = |src: &str, minor: u32| {
        let env = Env::crd_at(crate::Compatibility::new(1, minor));
        compile_rule(src, &env, RuleKind::Rule).is_ok()
    };
    let cases: [(&str, u32); 7] = [
        ("'abc'.lowerAscii() == 'abc'", 29),
        ("sets.contains([1], [1])", 29),
        ("ip('10.0.0.1').family() == 4", 30),
        ("cidr('10.0.0.0/8').containsIP('10.1.2.3')", 30),
        ("!format.dns1123Label().validate('a').hasValue()", 31),
        ("[1, 2].all(i, v, v > i)", 32),
        ("semver('1.2.3').major() == 1", 33),
    ];
    for (src, since) in cases {
        assert!(compiles(src, since), "{src} at 1.{since}");
        assert!(compiles(src, 36), "{src} at 1.36");
        if since > 29 {
            assert!(!compiles(src, since - 1), "{src} at 1.{}", since - 1);
        }
    }
    assert!(compiles("[3, 1].sortBy(x, -x) == [3, 1]", 34));
    assert!(!compiles("[3, 1].sortBy(x, -x) == [3, 1]", 33));
}
