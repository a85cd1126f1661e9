//! Upstream test vectors of CEL validation rules, carried over as facts (inputs and expected
//! outputs) from k8s.io/apiextensions-apiserver's `pkg/apiserver/schema/cel` tests
//! (commit 1aa2717a552e) and k8s.io/apiserver's `pkg/cel/library` tests (commit 8c6ff7dcfffc).
//!
//! Each case runs as the API server runs a CRD's rules: every rule is compiled (parsed and
//! type-checked against its node's declared type, a compile error reported as
//! `rule compile error: ...` as the validator does), then the rules that compile are
//! evaluated by [`validate_rules`]. Errors print with the reference's `root` path.
//!
//! Every group lists the cases that fail today in `KNOWN_GAPS`; all other cases must pass, and
//! a listed case that starts passing fails the test so that the list shrinks.

use std::collections::BTreeSet;

use kstruct::cel::check::{Env, RuleKind, compile_rule};
use kstruct::cel::schema::{rule_variables, schema_decl_type, self_type_name};
use kstruct::rules::{PER_CALL_LIMIT, RUNTIME_COST_BUDGET, RuleLimits, validate_rules_update, validate_rules_with};
use kstruct::schema::Structural;
use kstruct::schema::convert;
use kstruct::schema::field::{BadValue, ErrorKind, FieldError, Path};
use serde_json::{Value, json};

/// A field error as the reference's `Error()` prints it (paths start at `root`), with its kind.
#[derive(Debug, Clone)]
struct Rendered {
    kind: ErrorKind,
    text: String,
}

fn render(e: &FieldError) -> Rendered {
    let field = if e.field.is_empty() || e.field == "<nil>" {
        "root".to_owned()
    } else if e.field.starts_with('[') {
        format!("root{}", e.field)
    } else {
        format!("root.{}", e.field)
    };
    Rendered {
        kind: e.kind,
        text: format!("{field}: {}", e.body()),
    }
}

fn parse_json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("bad JSON in a vector: {e}: {text}"))
}

fn structural(schema: &Value) -> Result<Structural, String> {
    match convert::from_text(&schema.to_string()) {
        Ok(Some(s)) => Ok(s),
        Ok(None) => Err("no schema".to_owned()),
        Err(e) => Err(format!("schema does not convert: {e}")),
    }
}

/// Compiles every rule of `s` and its properties, items and additionalProperties as the
/// validator does at construction, reporting the rules that do not compile and removing them
/// (the validator does not run them).
fn compile_and_strip(s: &mut Structural, path: &Path, is_root: bool, out: &mut Vec<Rendered>) {
    if s.x_validations.as_ref().is_some_and(|r| !r.is_empty()) {
        let decl = schema_decl_type(&*s, is_root || s.extensions.x_embedded_resource);
        let type_ = s.generic.type_.clone();
        let rules = s.x_validations.take().unwrap_or_default();
        let mut kept = Vec::new();
        for rule in rules {
            let Some(decl) = &decl else {
                kept.push(rule);
                continue;
            };
            let vars = rule_variables(decl, &self_type_name(0), rule.optional_old_self == Some(true));
            let env = Env::for_rule(&vars);
            match compile_rule(&rule.rule, &env, RuleKind::Rule) {
                Ok(_) => kept.push(rule),
                Err(e) => out.push(render(&FieldError::invalid(
                    path,
                    BadValue::String(type_.clone()),
                    format!("rule compile error: {e}"),
                ))),
            }
        }
        s.x_validations = Some(kept);
    }
    for (k, p) in s.properties.iter_mut() {
        compile_and_strip(p, &path.child(k), false, out);
    }
    if let Some(items) = s.items.as_deref_mut() {
        compile_and_strip(items, &path.index(0), false, out);
    }
    if let Some(kstruct::schema::AdditionalProperties::Schema(a)) = s.additional_properties.as_mut() {
        compile_and_strip(a, &path.key("*"), false, out);
    }
}

/// Compiles then evaluates the rules of `schema` on `obj` (and `old`): the errors, and the
/// ratcheted errors (warnings).
fn run_full(
    schema: &Value,
    obj: &Value,
    old: Option<&Value>,
    is_root: bool,
    budget: i64,
) -> Result<(Vec<Rendered>, Vec<Rendered>), String> {
    let mut s = structural(schema)?;
    let mut errs = Vec::new();
    compile_and_strip(&mut s, &Path::nil(), is_root, &mut errs);
    let results = validate_rules_update(&s, obj, old, budget);
    errs.extend(results.errors.iter().map(render));
    Ok((errs, results.warnings.iter().map(render).collect()))
}

fn run(schema: &Value, obj: &Value, old: Option<&Value>, is_root: bool, budget: i64) -> Result<Vec<Rendered>, String> {
    run_full(schema, obj, old, is_root, budget).map(|(e, _)| e)
}

fn with_rule(schema: &str, rule: &str) -> Value {
    let mut s = parse_json(schema);
    s["x-kubernetes-validations"] = json!([{ "rule": rule }]);
    s
}

fn texts(errs: &[Rendered]) -> String {
    let list: Vec<&str> = errs.iter().map(|e| e.text.as_str()).collect();
    format!("{list:?}")
}

/// Counts a group's results, checks them against its known gaps and announces the count.
struct Group {
    name: &'static str,
    gaps: BTreeSet<&'static str>,
    passed: usize,
    total: usize,
    problems: Vec<String>,
    seen: BTreeSet<String>,
}

impl Group {
    fn new(name: &'static str, gaps: &[(&'static str, &'static str)]) -> Group {
        let set: BTreeSet<&'static str> = gaps.iter().map(|g| g.0).collect();
        assert_eq!(set.len(), gaps.len(), "{name}: a known gap is listed twice");
        Group {
            name,
            gaps: set,
            passed: 0,
            total: 0,
            problems: Vec::new(),
            seen: BTreeSet::new(),
        }
    }

    fn check(&mut self, case: String, result: Result<(), String>) {
        self.total += 1;
        // A repeated case gets a `#NN` suffix, as Go names repeated subtests.
        let mut case = case;
        let base = case.clone();
        let mut n = 1;
        while self.seen.contains(&case) {
            case = format!("{base}#{n:02}");
            n += 1;
        }
        let gap = self.gaps.contains(case.as_str());
        self.seen.insert(case.clone());
        match (result, gap) {
            (Ok(()), false) => self.passed += 1,
            (Ok(()), true) => {
                self.passed += 1;
                self.problems
                    .push(format!("{case:?} passes now: remove it from KNOWN_GAPS"));
            }
            (Err(e), true) => {
                if std::env::var_os("KSTRUCT_SHOW_GAPS").is_some() {
                    kstruct_tests::announce(&format!("gap {case:?}: {e}"));
                }
            }
            (Err(e), false) => self.problems.push(format!("{case:?} fails: {e}")),
        }
    }

    fn finish(self) {
        kstruct_tests::announce(&format!("cel vectors {}: {}/{}", self.name, self.passed, self.total));
        let unknown: Vec<&&str> = self.gaps.iter().filter(|g| !self.seen.contains(**g)).collect();
        assert!(
            unknown.is_empty(),
            "{}: KNOWN_GAPS names no case: {unknown:?}",
            self.name
        );
        assert!(
            self.problems.is_empty(),
            "{}: {} problem(s):\n{}",
            self.name,
            self.problems.len(),
            self.problems.join("\n")
        );
    }
}

// ------------------------------------------------------------------------------------------
// apiextensions-apiserver: the validation table.

struct ExprCase {
    name: &'static str,
    schema: &'static str,
    obj: &'static str,
    old: Option<&'static str>,
    is_root: bool,
    valid: &'static [&'static str],
    /// Rule, and the text every error of the rule must contain (all errors `Invalid`).
    errors: &'static [(&'static str, &'static str)],
    cost_budget: i64,
    expect_skipped: bool,
    expected_cost: i64,
}

fn check_valid(c: &ExprCase, rule: &str) -> Result<(), String> {
    let schema = with_rule(c.schema, rule);
    let obj = parse_json(c.obj);
    let old = c.old.map(parse_json);
    let budget = if c.cost_budget == 0 {
        RUNTIME_COST_BUDGET
    } else {
        c.cost_budget
    };
    let errs = run(&schema, &obj, old.as_ref(), c.is_root, budget)?;
    if !errs.is_empty() {
        return Err(format!("unexpected errors: {}", texts(&errs)));
    }
    if c.expected_cost != 0 {
        // The cost is exact when a budget of that much passes and one less runs out.
        let at = run(&schema, &obj, old.as_ref(), c.is_root, c.expected_cost)?;
        let below = run(&schema, &obj, old.as_ref(), c.is_root, c.expected_cost - 1)?;
        if !at.is_empty() || below.is_empty() {
            let mut actual = 1;
            while actual < 10_000 && !run(&schema, &obj, old.as_ref(), c.is_root, actual)?.is_empty() {
                actual += 1;
            }
            return Err(format!("cost is not {} but {actual}", c.expected_cost));
        }
    }
    if c.expect_skipped {
        // A skipped rule costs nothing: even a budget of 1 is not touched.
        let tiny = run(&schema, &obj, old.as_ref(), c.is_root, 1)?;
        if !tiny.is_empty() {
            return Err(format!("the rule was not skipped: {}", texts(&tiny)));
        }
    }
    Ok(())
}

fn check_error(c: &ExprCase, rule: &str, want: &str) -> Result<(), String> {
    let schema = with_rule(c.schema, rule);
    let obj = parse_json(c.obj);
    let old = c.old.map(parse_json);
    let budget = if c.cost_budget == 0 {
        RUNTIME_COST_BUDGET
    } else {
        c.cost_budget
    };
    let errs = run(&schema, &obj, old.as_ref(), true, budget)?;
    if errs.is_empty() {
        return Err("expected errors, got none".to_owned());
    }
    for e in &errs {
        if e.kind != ErrorKind::Invalid || !e.text.contains(want) {
            return Err(format!(
                "expected every error to contain {want:?}, got {}",
                texts(&errs)
            ));
        }
    }
    Ok(())
}

#[test]
fn validation_expressions() {
    let mut g = Group::new("TestValidationExpressions", EXPRESSIONS_GAPS);
    for c in EXPRESSIONS {
        for rule in c.valid {
            g.check(format!("{}: valid: {rule}", c.name), check_valid(c, rule));
        }
        for (rule, want) in c.errors {
            g.check(format!("{}: error: {rule}", c.name), check_error(c, rule, want));
        }
    }
    g.finish();
}

// ------------------------------------------------------------------------------------------
// Rules at every level of a schema, and optional oldSelf: every error `Invalid`, each
// expected text matched by a different error, every error matching one.

struct LevelCase {
    name: &'static str,
    schema: &'static str,
    obj: &'static str,
    old: Option<&'static str>,
    errors: &'static [&'static str],
}

fn check_level(c: &LevelCase) -> Result<(), String> {
    let obj = parse_json(c.obj);
    let old = c.old.map(parse_json);
    let errs = run(&parse_json(c.schema), &obj, old.as_ref(), true, i64::MAX)?;
    let mut unmatched: Vec<&str> = c.errors.to_vec();
    for e in &errs {
        if e.kind != ErrorKind::Invalid {
            return Err(format!("expected only Invalid errors, got {}", texts(&errs)));
        }
        match unmatched.iter().position(|w| e.text.contains(w)) {
            Some(i) => {
                unmatched.remove(i);
            }
            None => return Err(format!("unexpected error {:?} (all: {})", e.text, texts(&errs))),
        }
    }
    if !unmatched.is_empty() {
        return Err(format!("missing errors {unmatched:?}, got {}", texts(&errs)));
    }
    Ok(())
}

#[test]
fn validation_expressions_at_schema_levels() {
    let mut g = Group::new("TestValidationExpressionsAtSchemaLevels", SCHEMA_LEVELS_GAPS);
    for c in SCHEMA_LEVELS {
        g.check(c.name.to_owned(), check_level(c));
    }
    g.finish();
}

#[test]
fn optional_old_self() {
    let mut g = Group::new("TestOptionalOldSelf", OPTIONAL_OLD_SELF_GAPS);
    for c in OPTIONAL_OLD_SELF {
        g.check(c.name.to_owned(), check_level(c));
    }
    g.finish();
}

// ------------------------------------------------------------------------------------------
// reason and fieldPath: the errors' kinds and fields, in any order.

struct ReasonCase {
    name: &'static str,
    schema: &'static str,
    obj: &'static str,
    /// Kind (`Forbidden`, `Invalid`...) and field.
    errors: &'static [(&'static str, &'static str)],
}

fn kind_name(k: ErrorKind) -> &'static str {
    match k {
        ErrorKind::Forbidden => "Forbidden",
        ErrorKind::Invalid | ErrorKind::TypeInvalid => "Invalid",
        ErrorKind::Required => "Required",
        ErrorKind::Duplicate => "Duplicate",
        _ => "other",
    }
}

fn check_reason(c: &ReasonCase) -> Result<(), String> {
    let errs = run(
        &parse_json(c.schema),
        &parse_json(c.obj),
        None,
        true,
        RUNTIME_COST_BUDGET,
    )?;
    let mut got: Vec<(String, String)> = errs
        .iter()
        .map(|e| {
            let field = e.text.split(": ").next().unwrap_or_default().to_owned();
            (kind_name(e.kind).to_owned(), field)
        })
        .collect();
    let mut want: Vec<(String, String)> = c
        .errors
        .iter()
        .map(|(k, f)| ((*k).to_owned(), (*f).to_owned()))
        .collect();
    got.sort();
    want.sort();
    if got != want {
        return Err(format!("expected {want:?}, got {got:?} ({})", texts(&errs)));
    }
    Ok(())
}

#[test]
fn reason_and_field_path() {
    let mut g = Group::new("TestReasonAndFldPath", REASONS_GAPS);
    for c in REASONS {
        g.check(c.name.to_owned(), check_reason(c));
    }
    g.finish();
}

// ------------------------------------------------------------------------------------------
// messageExpression: a failing rule (`false`) on `{str: "a string"}`; exactly one error, which
// contains the expected text. (Upstream also checks the log output and, for some cases, the
// remaining budget; `validate_rules` shows neither.)

struct MessageCase {
    name: &'static str,
    message: &'static str,
    message_expression: &'static str,
    cost_budget: i64,
    per_call_limit: u64,
    expected_err: &'static str,
    expected_remaining: i64,
}

fn check_message(c: &MessageCase) -> Result<(), String> {
    let mut rule = json!({ "rule": "false", "messageExpression": c.message_expression });
    if !c.message.is_empty() {
        rule["message"] = json!(c.message);
    }
    let schema = json!({
        "type": "object",
        "properties": { "str": { "type": "string" } },
        "x-kubernetes-validations": [rule],
    });
    let s = structural(&schema)?;
    // A limit of 0 in the vectors means the server's.
    let limits = RuleLimits {
        budget: c.cost_budget,
        per_call: if c.per_call_limit == 0 {
            PER_CALL_LIMIT
        } else {
            c.per_call_limit
        },
    };
    let results = validate_rules_with(&s, &json!({ "str": "a string" }), None, &limits);
    let errs: Vec<Rendered> = results.errors.iter().map(render).collect();
    if errs.len() != 1 {
        return Err(format!("expected 1 error, got {}", texts(&errs)));
    }
    if !errs[0].text.contains(c.expected_err) {
        return Err(format!("expected {:?} in {:?}", c.expected_err, errs[0].text));
    }
    // As upstream: 0 means the case does not check what is left.
    if c.expected_remaining != 0 && results.remaining_budget != c.expected_remaining {
        return Err(format!(
            "remaining budget {}, expected {}",
            results.remaining_budget, c.expected_remaining
        ));
    }
    Ok(())
}

#[test]
fn message_expression() {
    let mut g = Group::new("TestMessageExpression", MESSAGES_GAPS);
    for c in MESSAGES {
        g.check(c.name.to_owned(), check_message(c));
    }
    g.finish();
}

// ------------------------------------------------------------------------------------------
// Ratcheting: as many errors and warnings as expected; each expected error contained in one
// of the errors, each expected warning equal to one of the warnings.

struct RatchetCase {
    name: &'static str,
    schema: &'static str,
    old: Option<&'static str>,
    new: &'static str,
    errors: &'static [&'static str],
    warnings: &'static [&'static str],
    budget: i64,
}

fn check_ratchet(c: &RatchetCase) -> Result<(), String> {
    let budget = if c.budget == 0 { RUNTIME_COST_BUDGET } else { c.budget };
    let old = c.old.map(parse_json);
    let (errs, warnings) = run_full(&parse_json(c.schema), &parse_json(c.new), old.as_ref(), true, budget)?;
    if errs.len() != c.errors.len() || warnings.len() != c.warnings.len() {
        return Err(format!(
            "expected {} error(s) and {} warning(s), got errors {} and warnings {}",
            c.errors.len(),
            c.warnings.len(),
            texts(&errs),
            texts(&warnings)
        ));
    }
    for want in c.errors {
        if !errs.iter().any(|e| e.text.contains(want)) {
            return Err(format!("error {want:?} not found in {}", texts(&errs)));
        }
    }
    for want in c.warnings {
        if !warnings.iter().any(|w| w.text == *want) {
            return Err(format!("warning {want:?} not found in {}", texts(&warnings)));
        }
    }
    Ok(())
}

#[test]
fn ratcheting() {
    let mut g = Group::new("TestRatcheting", RATCHETING_GAPS);
    for c in RATCHETING {
        g.check(c.name.to_owned(), check_ratchet(c));
    }
    g.finish();
}

// ------------------------------------------------------------------------------------------
// apiserver's CEL libraries: an expression checked and evaluated with no variables; its value
// equal (CEL `==`) to the expected value's expression, or its runtime error (exactly, for IP
// and CIDR; as a regular expression for quantity, semver and format), or compile errors each
// matched (as a regular expression) by one of the checker's messages.

struct LibCase {
    name: &'static str,
    expr: &'static str,
    /// The expected value, as a CEL expression.
    expect: Option<&'static str>,
    runtime_err: &'static str,
    compile_errs: &'static [&'static str],
    /// The semver library version the case asks for (0: the first).
    #[allow(dead_code)]
    version: u32,
}

fn eval_plain(src: &str) -> Result<Result<kstruct::cel::value::Value, String>, String> {
    let expr = kstruct::cel::parse(src).map_err(|e| format!("does not parse: {e}"))?;
    if let Err(e) = kstruct::cel::check::check(&expr, src, &Env::crd()) {
        return Err(format!("does not check: {e}"));
    }
    let evaluated = kstruct::cel::eval::evaluate(&expr, &kstruct::cel::eval::Vars::new(), u64::MAX);
    Ok(evaluated.result.map_err(|e| e.message))
}

fn check_lib(c: &LibCase, runtime_regex: bool) -> Result<(), String> {
    if !c.compile_errs.is_empty() {
        let messages: Vec<String> = match kstruct::cel::parse(c.expr) {
            Err(e) => vec![e.message.clone()],
            Ok(expr) => match kstruct::cel::check::check(&expr, c.expr, &Env::crd()) {
                Ok(_) => return Err("compiles, expected compile errors".to_owned()),
                Err(e) => e.issues.iter().map(|i| i.message.clone()).collect(),
            },
        };
        for pattern in c.compile_errs {
            let re = regex::Regex::new(pattern).map_err(|e| format!("bad pattern {pattern:?}: {e}"))?;
            if !messages.iter().any(|m| re.is_match(m)) {
                return Err(format!("no compile error matches {pattern:?}: {messages:?}"));
            }
        }
        return Ok(());
    }
    let got = eval_plain(c.expr)?;
    if !c.runtime_err.is_empty() {
        let Err(message) = got else {
            return Err(format!("expected runtime error {:?}, got a value", c.runtime_err));
        };
        let ok = if runtime_regex {
            regex::Regex::new(c.runtime_err)
                .map_err(|e| e.to_string())?
                .is_match(&message)
        } else {
            message == c.runtime_err
        };
        if !ok {
            return Err(format!("expected runtime error {:?}, got {message:?}", c.runtime_err));
        }
        return Ok(());
    }
    let value = got.map_err(|e| format!("runtime error: {e}"))?;
    let Some(expect) = c.expect else {
        return Err("the case expects nothing".to_owned());
    };
    let want = eval_plain(expect)?.map_err(|e| format!("expected value {expect} fails: {e}"))?;
    if value.equals(&want) != Some(true) {
        return Err(format!(
            "got {}, expected {}",
            kstruct::cel::eval::display(&value),
            kstruct::cel::eval::display(&want)
        ));
    }
    Ok(())
}

fn lib_group(name: &'static str, cases: &[LibCase], gaps: &[(&'static str, &'static str)], runtime_regex: bool) {
    let mut g = Group::new(name, gaps);
    for (i, c) in cases.iter().enumerate() {
        g.check(format!("{i:03} {}", c.name), check_lib(c, runtime_regex));
    }
    g.finish();
}

#[test]
fn library_ip() {
    lib_group("library TestIP", LIB_IP, LIB_IP_GAPS, false);
}

#[test]
fn library_cidr() {
    lib_group("library TestCIDR", LIB_CIDR, LIB_CIDR_GAPS, false);
}

#[test]
fn library_quantity() {
    lib_group("library TestQuantity", LIB_QUANTITY, LIB_QUANTITY_GAPS, true);
}

#[test]
fn library_semver() {
    lib_group("library TestSemver", LIB_SEMVER, LIB_SEMVER_GAPS, true);
}

#[test]
fn library_format() {
    lib_group("library TestFormat", LIB_FORMAT, LIB_FORMAT_GAPS, true);
}

// The cases that fail today, with the reason (see the module documentation).
const EXPRESSIONS_GAPS: &[(&str, &str)] = &[(
    "stdlib list functions: valid: self.emptyDurations.sum() == duration('0')",
    "sum() of an empty duration list gives int 0, the reference duration('0')",
)];
const SCHEMA_LEVELS_GAPS: &[(&str, &str)] = &[];
const OPTIONAL_OLD_SELF_GAPS: &[(&str, &str)] = &[];
const REASONS_GAPS: &[(&str, &str)] = &[];
const MESSAGES_GAPS: &[(&str, &str)] = &[];
const RATCHETING_GAPS: &[(&str, &str)] = &[];
const LIB_IP_GAPS: &[(&str, &str)] = &[];
const LIB_CIDR_GAPS: &[(&str, &str)] = &[];
const LIB_QUANTITY_GAPS: &[(&str, &str)] = &[];
const LIB_SEMVER_GAPS: &[(&str, &str)] = &[];
const LIB_FORMAT_GAPS: &[(&str, &str)] = &[];

// ------------------------------------------------------------------------------------------
// The vectors.

const EXPRESSIONS: &[ExprCase] = &[
    ExprCase {
        name: "integers",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"integer\"},\"val2\":{\"type\":\"integer\"},\"val3\":{\"type\":\"integer\",\"format\":\"int32\"},\"val4\":{\"type\":\"integer\",\"format\":\"int32\"},\"val5\":{\"type\":\"integer\",\"format\":\"int64\"},\"val6\":{\"type\":\"integer\",\"format\":\"int64\"}}}",
        obj: "{\"val1\":9223372036854775807,\"val2\":9223372036854775807,\"val3\":2147483647,\"val4\":2147483647,\"val5\":9223372036854775807,\"val6\":9223372036854775807}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == 9223372036854775807 && 9223372036854775807 == self.val1 && self.val1 == self.val2",
            "self.val3 == 2147483647 && 2147483647 == self.val3 && self.val3 == self.val4",
            "self.val5 == 9223372036854775807 && 9223372036854775807 == self.val5 && self.val5 == self.val6",
            "self.val1 == self.val6",
            "type(self.val1) == int",
            "self.val3 + 1 == 2147483647 + 1",
            "type(self.val3) == int",
            "type(self.val5) == int",
        ],
        errors: &[
            ("self.val1 + 1 == 0", "integer overflow"),
            ("self.val5 + 1 == 0", "integer overflow"),
            ("1 / 0 == 1 / 0", "division by zero"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "numbers",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"number\"},\"val2\":{\"type\":\"number\"},\"val3\":{\"type\":\"number\",\"format\":\"float\"},\"val4\":{\"type\":\"number\",\"format\":\"float\"},\"val5\":{\"type\":\"number\",\"format\":\"double\"},\"val6\":{\"type\":\"number\",\"format\":\"double\"},\"val7\":{\"type\":\"number\",\"format\":\"double\"}}}",
        obj: "{\"val1\":1.7976931348623157e+308,\"val2\":1.7976931348623157e+308,\"val3\":3.4028234663852886e+38,\"val4\":3.4028234663852886e+38,\"val5\":1.7976931348623157e+308,\"val6\":1.7976931348623157e+308,\"val7\":1}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == 179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000 && 179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000 == self.val1 && self.val1 == self.val2",
            "self.val3 == 340282346638528859811704183484516925440.000000 && 340282346638528859811704183484516925440.000000 == self.val3 && self.val3 == self.val4",
            "self.val5 == 179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000 && 179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368.000000 == self.val5 && self.val5 == self.val6",
            "self.val1 == self.val6",
            "type(self.val1) == double",
            "type(self.val3) == double",
            "type(self.val5) == double",
            "type(self.val7) == double",
            "self.val7 == 1.0",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "numeric comparisons",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"integer\"},\"val2\":{\"type\":\"integer\"},\"val3\":{\"type\":\"integer\"},\"val4\":{\"type\":\"number\"},\"val5\":{\"type\":\"number\",\"format\":\"float\"},\"val6\":{\"type\":\"number\",\"format\":\"double\"},\"val7\":{\"type\":\"number\"},\"val8\":{\"type\":\"number\",\"format\":\"float\"},\"val9\":{\"type\":\"number\",\"format\":\"double\"}}}",
        obj: "{\"val1\":5,\"val2\":10,\"val3\":15,\"val4\":10.0,\"val5\":10.0,\"val6\":10.0,\"val7\":10,\"val8\":10,\"val9\":10}",
        old: None,
        is_root: false,
        valid: &[
            "double(self.val1) < self.val4",
            "double(self.val1) <= self.val4",
            "double(self.val2) <= self.val4",
            "double(self.val2) == self.val4",
            "double(self.val2) >= self.val4",
            "double(self.val3) > self.val4",
            "double(self.val3) >= self.val4",
            "self.val1 < int(self.val4)",
            "self.val2 == int(self.val4)",
            "self.val3 > int(self.val4)",
            "double(self.val1) < self.val5",
            "double(self.val2) == self.val5",
            "double(self.val3) > self.val5",
            "self.val1 < int(self.val5)",
            "self.val2 == int(self.val5)",
            "self.val3 > int(self.val5)",
            "double(self.val1) < self.val6",
            "double(self.val2) == self.val6",
            "double(self.val3) > self.val6",
            "self.val1 < int(self.val6)",
            "self.val2 == int(self.val6)",
            "self.val3 > int(self.val6)",
            "double(self.val1) < self.val7",
            "double(self.val2) == self.val7",
            "double(self.val3) > self.val7",
            "self.val1 < int(self.val7)",
            "self.val2 == int(self.val7)",
            "self.val3 > int(self.val7)",
            "double(self.val1) < self.val8",
            "double(self.val2) == self.val8",
            "double(self.val3) > self.val8",
            "self.val1 < int(self.val8)",
            "self.val2 == int(self.val8)",
            "self.val3 > int(self.val8)",
            "double(self.val1) < self.val9",
            "double(self.val2) == self.val9",
            "double(self.val3) > self.val9",
            "self.val1 < int(self.val9)",
            "self.val2 == int(self.val9)",
            "self.val3 > int(self.val9)",
            "double(5) < 10.0",
            "double(10) == 10.0",
            "double(15) > 10.0",
            "5 < int(10.0)",
            "10 == int(10.0)",
            "15 > int(10.0)",
            "double(self.val1) < 10.0",
            "double(self.val2) == 10.0",
            "double(self.val3) > 10.0",
            "self.val1 < self.val4",
            "self.val1 <= self.val4",
            "self.val2 <= self.val4",
            "self.val2 >= self.val4",
            "self.val3 > self.val4",
            "self.val3 >= self.val4",
            "self.val1 < self.val4",
            "self.val3 > self.val4",
            "self.val1 < self.val5",
            "self.val3 > self.val5",
            "self.val1 < self.val5",
            "self.val3 > self.val5",
            "self.val1 < self.val6",
            "self.val3 > self.val6",
            "self.val1 < self.val6",
            "self.val3 > self.val6",
            "self.val1 < self.val7",
            "self.val3 > self.val7",
            "self.val1 < int(self.val7)",
            "self.val3 > int(self.val7)",
            "self.val1 < self.val8",
            "self.val3 > self.val8",
            "self.val1 < self.val8",
            "self.val3 > self.val8",
            "self.val1 < self.val9",
            "self.val3 > self.val9",
            "self.val1 < self.val9",
            "self.val3 > self.val9",
            "5 < 10.0",
            "15 > 10.0",
            "5 < 10.0",
            "15 > 10.0",
            "self.val1 < 10.0",
            "self.val3 > 10.0",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "unicode strings",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"Rook takes 👑\",\"val2\":\"Rook takes 👑\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == 'Rook takes 👑' && 'Rook takes 👑' == self.val1 && self.val1 == self.val2",
            "self.val1.startsWith('Rook')",
            "!self.val1.startsWith('knight')",
            "self.val1.contains('takes')",
            "!self.val1.contains('gives')",
            "self.val1.endsWith('👑')",
            "!self.val1.endsWith('pawn')",
            "self.val1.matches('^[^0-9]*$')",
            "!self.val1.matches('^[0-9]*$')",
            "type(self.val1) == string",
            "size(self.val1) == 12",
            "self.val1.charAt(3) == 'k'",
            "self.val1.indexOf('o') == 1",
            "self.val1.indexOf('o', 2) == 2",
            "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'",
            "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'",
            "self.val1.split(' ') == ['Rook', 'takes', '👑']",
            "self.val1.split(' ', 2) == ['Rook', 'takes 👑']",
            "self.val1.substring(5) == 'takes 👑'",
            "self.val1.substring(0, 4) == 'Rook'",
            "self.val1.substring(4, 10).trim() == 'takes'",
            "self.val1.upperAscii() == 'ROOK TAKES 👑'",
            "self.val1.lowerAscii() == 'rook takes 👑'",
            "'%d %s %f %s %s'.format([1, 'abc', 1.0, duration('1m'), timestamp('2000-01-01T00:00:00.000Z')]) == '1 abc 1.000000 60s 2000-01-01T00:00:00Z'",
            "'%e'.format([3.14]) == '3.140000×10⁰⁰'",
            "'%o %o %o'.format([7, 8, 9]) == '7 10 11'",
            "'%b %b %b'.format([7, 8, 9]) == '111 1000 1001'",
        ],
        errors: &[(
            "self.val1.matches(')')",
            "compile error: compilation failed: ERROR: <input>:1:19: invalid matches argument",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "escaped strings",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"l1\\nl2\",\"val2\":\"l1\\nl2\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == 'l1\\nl2' && 'l1\\nl2' == self.val1 && self.val1 == self.val2",
            "self.val1 == '''l1\nl2'''",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "bytes",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\",\"format\":\"byte\"},\"val2\":{\"type\":\"string\",\"format\":\"byte\"}}}",
        obj: "{\"val1\":\"QUI=\",\"val2\":\"QUI=\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == self.val2",
            "self.val1 == b'AB'",
            "self.val1 == bytes('AB')",
            "self.val1 == b'\\x41\\x42'",
            "type(self.val1) == bytes",
            "size(self.val1) == 2",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "booleans",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"boolean\"},\"val2\":{\"type\":\"boolean\"},\"val3\":{\"type\":\"boolean\"},\"val4\":{\"type\":\"boolean\"}}}",
        obj: "{\"val1\":true,\"val2\":true,\"val3\":false,\"val4\":false}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == true && true == self.val1 && self.val1 == self.val2",
            "self.val3 == false && false == self.val3 && self.val3 == self.val4",
            "self.val1 != self.val4",
            "type(self.val1) == bool",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "duration format",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\",\"format\":\"duration\"},\"val2\":{\"type\":\"string\",\"format\":\"duration\"}}}",
        obj: "{\"val1\":\"1h2m3s4ms\",\"val2\":\"1h2m3s4ms\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == duration('1h2m3s4ms') && duration('1h2m3s4ms') == self.val1 && self.val1 == self.val2",
            "self.val1 == duration('1h2m') + duration('3s4ms')",
            "self.val1.getHours() == 1",
            "self.val1.getMinutes() == 62",
            "self.val1.getSeconds() == 3723",
            "self.val1.getMilliseconds() == 3723004",
            "type(self.val1) == google.protobuf.Duration",
        ],
        errors: &[
            (
                "duration('1')",
                "compilation failed: ERROR: <input>:1:10: invalid duration argument",
            ),
            (
                "duration('1d')",
                "compilation failed: ERROR: <input>:1:10: invalid duration argument",
            ),
            (
                "duration('1us') < duration('1nns')",
                "compilation failed: ERROR: <input>:1:28: invalid duration argument",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "date format",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\",\"format\":\"date\"},\"val2\":{\"type\":\"string\",\"format\":\"date\"}}}",
        obj: "{\"val1\":\"1997-07-16\",\"val2\":\"1997-07-16\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == timestamp('1997-07-16T00:00:00.000Z') && timestamp('1997-07-16T00:00:00.000Z') == self.val1 && self.val1 == self.val2",
            "self.val1.getDate() == 16",
            "self.val1.getMonth() == 06",
            "self.val1.getFullYear() == 1997",
            "type(self.val1) == google.protobuf.Timestamp",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "date-time format",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\",\"format\":\"date-time\"},\"val2\":{\"type\":\"string\",\"format\":\"date-time\"}}}",
        obj: "{\"val1\":\"2011-08-18T19:03:37.010000000+01:00\",\"val2\":\"2011-08-18T19:03:37.010000000+01:00\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == timestamp('2011-08-18T19:03:37.010+01:00') && timestamp('2011-08-18T19:03:37.010+01:00') == self.val1 && self.val1 == self.val2",
            "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')",
            "self.val1.getDate('01:00') == 18",
            "self.val1.getMonth('01:00') == 7",
            "self.val1.getFullYear('01:00') == 2011",
            "self.val1.getHours('01:00') == 19",
            "self.val1.getMinutes('01:00') == 03",
            "self.val1.getSeconds('01:00') == 37",
            "self.val1.getMilliseconds('01:00') == 10",
            "self.val1.getHours('UTC') == 18",
            "type(self.val1) == google.protobuf.Timestamp",
        ],
        errors: &[
            (
                "timestamp('1000-00-00T00:00:00Z')",
                "compilation failed: ERROR: <input>:1:11: invalid timestamp",
            ),
            (
                "timestamp('1000-01-01T00:00:00ZZ')",
                "compilation failed: ERROR: <input>:1:11: invalid timestamp",
            ),
            (
                "timestamp(-62135596801)",
                "compilation failed: ERROR: <input>:1:11: invalid timestamp",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "enums",
        schema: "{\"type\":\"object\",\"properties\":{\"enumStr\":{\"type\":\"string\",\"enum\":[\"Pending\",\"Available\",\"Bound\",\"Released\",\"Failed\"]}}}",
        obj: "{\"enumStr\":\"Pending\"}",
        old: None,
        is_root: false,
        valid: &["self.enumStr == 'Pending'", "self.enumStr in ['Pending', 'Available']"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "conversions",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"integer\"},\"val2\":{\"type\":\"number\"},\"val3\":{\"type\":\"number\"},\"val4\":{\"type\":\"number\"},\"val5\":{\"type\":\"boolean\"},\"val6\":{\"type\":\"string\"},\"val7\":{\"type\":\"string\",\"format\":\"byte\"},\"val8\":{\"type\":\"string\"},\"val9\":{\"type\":\"string\",\"format\":\"duration\"},\"val10\":{\"type\":\"string\"},\"val11\":{\"type\":\"string\",\"format\":\"date-time\"},\"val12\":{\"type\":\"string\"},\"val13\":{\"type\":\"string\",\"format\":\"date\"}}}",
        obj: "{\"val1\":10,\"val2\":10.0,\"val3\":10.49,\"val4\":10.5,\"val5\":true,\"val6\":\"10\",\"val7\":\"MTA=\",\"val8\":\"3723.004s\",\"val9\":\"1h2m3s4ms\",\"val10\":\"2011-08-18T19:03:37.01+01:00\",\"val11\":\"2011-08-18T19:03:37.01+01:00\",\"val12\":\"2011-08-18T00:00:00Z\",\"val13\":\"2011-08-18\"}",
        old: None,
        is_root: false,
        valid: &[
            "int(self.val2) == self.val1",
            "int(self.val3) == self.val1",
            "int(self.val4) == self.val1",
            "int(self.val6) == self.val1",
            "double(self.val1) == self.val2",
            "double(self.val6) == self.val2",
            "bytes(self.val6) == self.val7",
            "string(self.val1) == self.val6",
            "string(self.val2) == '10'",
            "string(self.val3) == '10.49'",
            "string(self.val4) == '10.5'",
            "string(self.val5) == 'true'",
            "string(self.val7) == self.val6",
            "duration(self.val8) == self.val9",
            "string(self.val9) == self.val8",
            "timestamp(self.val10) == self.val11",
            "string(self.val11) == self.val10",
            "timestamp(self.val12) == self.val13",
            "string(self.val13) == self.val12",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "lists",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}},\"val2\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}}}}",
        obj: "{\"val1\":[1,2,3],\"val2\":[1,2,3]}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == [1, 2, 3] && [1, 2, 3] == self.val1 && self.val1 == self.val2",
            "1 in self.val1",
            "self.val2[0] in self.val1",
            "!(0 in self.val1)",
            "self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]",
            "self.val1 + [4, 5] == [1, 2, 3, 4, 5]",
        ],
        errors: &[(
            "[1, 'a', false].filter(x, string(x) == 'a')",
            "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "ext lists version 3",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}},\"val2\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}}}}",
        obj: "{\"val1\":[1,2,3],\"val2\":[1,2,3]}",
        old: None,
        is_root: false,
        valid: &[
            "lists.range(4) == [0,1,2,3]",
            "lists.range(0) == []",
            "[5,1,2,3].reverse() == [3,2,1,5]",
            "[].reverse() == []",
            "[1].reverse() == [1]",
            "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
            "[false, true, true].reverse().reverse() == [false, true, true]",
            "[1,2,3,4].slice(0, 4) == [1,2,3,4]",
            "[1,2,3,4].slice(0, 0) == []",
            "[1,2,3,4].slice(1, 1) == []",
            "[1,2,3,4].slice(4, 4) == []",
            "[1,2,3,4].slice(1, 3) == [2, 3]",
            "dyn([]).flatten() == []",
            "dyn([1,2,3,4]).flatten() == [1,2,3,4]",
            "[].sort() == []",
            "[1].sort() == [1]",
            "[4, 3, 2, 1].sort() == [1, 2, 3, 4]",
            "[\"d\", \"a\", \"b\", \"c\"].sort() == [\"a\", \"b\", \"c\", \"d\"]",
            "[].sortBy(e, e) == []",
            "[\"a\"].sortBy(e, e) == [\"a\"]",
            "[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]",
            "[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]",
            "lists.range(3).sortBy(e, -e) == [2, 1, 0]",
            "[\"a\", \"c\", \"b\", \"first\"].sortBy(e, e == \"first\" ? \"\" : e) == [\"first\", \"a\", \"b\", \"c\"]",
            "[{'name': 'foo'}, {'name': 'bar'}, {'name': 'baz'}].sortBy(e, e.name) == [{'name': 'bar'}, {'name': 'baz'}, {'name': 'foo'}]",
            "[].distinct() == []",
            "[1].distinct() == [1]",
            "[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]",
            "['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']",
            "[[1], [1], [2]].distinct() == [[1], [2]]",
            "[{'name': 'a'}, {'name': 'b'}, {'name': 'a'}].distinct() == [{'name': 'a'}, {'name': 'b'}]",
            "[[1],[2],[3,4]].flatten() == [1,2,3,4]",
        ],
        errors: &[
            (
                "[1,2,3,4].slice(3, 0) != [1,2]",
                "cannot slice(3, 0), start index must be less than or equal to end index",
            ),
            (
                "[1,2,3,4].slice(0, 10) != [1,2]",
                "cannot slice(0, 10), list is length 4",
            ),
            (
                "[1,2,3,4].slice(-5, 10) != [1,2]",
                "cannot slice(-5, 10), negative indexes not supported",
            ),
            (
                "[1,2,3,4].slice(-5, -3) != [1,2]",
                "cannot slice(-5, -3), negative indexes not supported",
            ),
            (
                "[[1],[2],[3,4]].flatten(-1) == [1,2,3,4]",
                "level must be non-negative evaluating rule: [[1],[2],[3,4]].flatten(-1) == [1,2,3,4]",
            ),
            (
                "[\"d\", 3, 2, \"c\"].sort() == [\"a\", \"b\", \"c\", \"d\"]",
                "expected type 'string' but found 'int'",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "string lists",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}",
        obj: "{\"val1\":[\"a\",\"b\",\"c\"]}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1.join('-') == 'a-b-c'",
            "['a', 'b', 'c'].join('-') == 'a-b-c'",
            "self.val1.join() == 'abc'",
            "['a', 'b', 'c'].join() == 'abc'",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "listSets",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"string\"}},\"val2\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"string\"}}}}",
        obj: "{\"val1\":[\"a\",\"b\",\"c\"],\"val2\":[\"a\",\"c\",\"b\"]}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == ['c', 'b', 'a']",
            "self.val1 == self.val2",
            "'a' in self.val1",
            "self.val2[0] in self.val1",
            "!('x' in self.val1)",
            "self.val1 + self.val2 == ['a', 'b', 'c']",
            "self.val1 + ['c', 'd'] == ['a', 'b', 'c', 'd']",
            "self.val1.join('-') == 'a-b-c'",
            "['a', 'b', 'c'].join('-') == 'a-b-c'",
            "self.val1.join() == 'abc'",
            "['a', 'b', 'c'].join() == 'abc'",
            "sets.contains(['a', 'b'], [])",
            "sets.contains(['a', 'b'], ['b'])",
            "!sets.contains(['a', 'b'], ['c'])",
            "sets.equivalent([], [])",
            "sets.equivalent(['c', 'b', 'a'], ['b', 'c', 'a'])",
            "!sets.equivalent(['a', 'b'], ['b', 'c'])",
            "sets.intersects(['a', 'b'], ['b', 'c'])",
            "!sets.intersects([], [])",
            "!sets.intersects(['a', 'b'], [])",
            "!sets.intersects(['a', 'b'], ['c', 'd'])",
            "sets.contains([1, 2], [2])",
            "sets.contains([true, false], [false])",
            "sets.contains([1.25, 1.5], [1.5])",
            "sets.contains([{'a': 1}, {'b': 2}], [{'b': 2}])",
            "sets.contains([[1, 2], [3, 4]], [[3, 4]])",
            "sets.contains([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            "sets.contains([duration('1h'), duration('2h')], [duration('2h')])",
            "sets.equivalent([1, 2], [1, 2])",
            "sets.equivalent([true, false], [true, false])",
            "sets.equivalent([1.25, 1.5], [1.25, 1.5])",
            "sets.equivalent([{'a': 1}, {'b': 2}], [{'a': 1}, {'b': 2}])",
            "sets.equivalent([[1, 2], [3, 4]], [[1, 2], [3, 4]])",
            "sets.equivalent([timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            "sets.equivalent([duration('1h'), duration('2h')], [duration('1h'), duration('2h')])",
            "sets.intersects([1, 2], [2])",
            "sets.intersects([true, false], [false])",
            "sets.intersects([1.25, 1.5], [1.5])",
            "sets.intersects([{'a': 1}, {'b': 2}], [{'b': 2}])",
            "sets.intersects([[1, 2], [3, 4]], [[3, 4]])",
            "sets.intersects([timestamp('2000-01-01T00:00:00.000+01:00'), timestamp('2012-01-01T00:00:00.000+01:00')], [timestamp('2012-01-01T00:00:00.000+01:00')])",
            "sets.intersects([duration('1h'), duration('2h')], [duration('2h')])",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "listMaps",
        schema: "{\"type\":\"object\",\"properties\":{\"objs\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k\"],\"items\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"v\":{\"type\":\"string\"}}}}}}}",
        obj: "{\"objs\":[[{\"k\":\"a\",\"v\":\"1\"},{\"k\":\"b\",\"v\":\"2\"}],[{\"k\":\"b\",\"v\":\"2\"},{\"k\":\"a\",\"v\":\"1\"}],[{\"k\":\"b\",\"v\":\"3\"},{\"k\":\"a\",\"v\":\"1\"}],[{\"k\":\"c\",\"v\":\"4\"}]]}",
        old: None,
        is_root: false,
        valid: &[
            "self.objs[0] == self.objs[1]",
            "self.objs[0] + self.objs[2] == self.objs[2]",
            "self.objs[2] + self.objs[0] == self.objs[0]",
            "self.objs[0] == [self.objs[0][0], self.objs[0][1]]",
            "self.objs[0] == [self.objs[0][1], self.objs[0][0]]",
            "self.objs[2] + [self.objs[0][0], self.objs[0][1]] == self.objs[0]",
            "size(self.objs[0] + [self.objs[3][0]]) == 3",
        ],
        errors: &[(
            "self.objs[0] == {'k': 'a', 'v': '1'}",
            "no matching overload for '_==_'",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "maps",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},\"val2\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}}}",
        obj: "{\"val1\":{\"k1\":\"a\",\"k2\":\"b\"},\"val2\":{\"k2\":\"b\",\"k1\":\"a\"}}",
        old: None,
        is_root: false,
        valid: &[
            "self.val1 == self.val2",
            "'k1' in self.val1",
            "!('k3' in self.val1)",
            "self.val1 == {'k1': 'a', 'k2': 'b'}",
        ],
        errors: &[(
            "{'k1': 'a', 'k2': 1, 'k2': false}",
            "expected type 'string' but found 'int'",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "objects",
        schema: "{\"type\":\"object\",\"properties\":{\"objs\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"f1\":{\"type\":\"string\"},\"f2\":{\"type\":\"string\"}}}}}}",
        obj: "{\"objs\":[{\"f1\":\"a\",\"f2\":\"b\"},{\"f1\":\"a\",\"f2\":\"b\"}]}",
        old: None,
        is_root: false,
        valid: &["self.objs[0] == self.objs[1]"],
        errors: &[(
            "self.objs[0] == {'f1': 'a', 'f2': 'b'}",
            "found no matching overload for '_==_'",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "object access",
        schema: "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"object\",\"properties\":{\"b\":{\"type\":\"integer\"},\"c\":{\"type\":\"integer\"},\"d\":{\"type\":\"integer\",\"nullable\":true}}},\"a1\":{\"type\":\"object\",\"properties\":{\"b1\":{\"type\":\"object\",\"properties\":{\"c1\":{\"type\":\"integer\"}}},\"d2\":{\"type\":\"object\",\"properties\":{\"e2\":{\"type\":\"integer\"}}}}}}}",
        obj: "{\"a\":{\"b\":1,\"d\":null},\"a1\":{\"b1\":{\"c1\":4}},\"a3\":{}}",
        old: None,
        is_root: false,
        valid: &[
            "has(self.a.b)",
            "!has(self.a.c)",
            "!has(self.a.d)",
            "has(self.a1.b1.c1)",
            "!(has(self.a1.d2) && has(self.a1.d2.e2))",
            "!has(self.a1.d2)",
        ],
        errors: &[
            ("has(self.a.z)", "undefined field 'z'"),
            ("self.a['b'] == 1", "no matching overload for '_[_]'"),
            ("has(self.a1.d2.e2)", "no such key: d2"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "map access",
        schema: "{\"type\":\"object\",\"properties\":{\"val\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}}}",
        obj: "{\"val\":{\"b\":1,\"d\":2}}",
        old: None,
        is_root: false,
        valid: &[
            "!('a' in self.val)",
            "'b' in self.val",
            "!('c' in self.val)",
            "'d' in self.val",
            "!has(self.val.a)",
            "has(self.val.b)",
            "!has(self.val.c)",
            "has(self.val.d)",
            "self.val.all(k, self.val[k] > 0)",
            "self.val.exists(k, self.val[k] > 1)",
            "self.val.exists_one(k, self.val[k] == 2)",
            "!self.val.exists(k, self.val[k] > 2)",
            "!self.val.exists_one(k, self.val[k] > 0)",
            "size(self.val) == 2",
            "self.val.map(k, self.val[k]).exists(v, v == 1)",
            "size(self.val.filter(k, self.val[k] > 1)) == 1",
            "self.val.all(k, v, v > 0)",
            "self.val.exists(k, v, v == 2)",
            "self.val.existsOne(k, v, v == 2)",
            "self.val.transformMap(k, v, v > 1, v + 1).size() == 1",
            "self.val.transformMap(k, v, v + 1).size() == 2",
            "self.val.transformMapEntry(k, v, v > 1, {k + '2': v + 1}).size() == 1",
            "self.val.transformMapEntry(k, v, {k + '2': v + 1}).size() == 2",
        ],
        errors: &[("self.val['c'] == 1", "no such key: c")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "listMap access",
        schema: "{\"type\":\"object\",\"properties\":{\"listMap\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k\"],\"items\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"v\":{\"type\":\"string\"},\"v2\":{\"type\":\"string\"}}}}}}",
        obj: "{\"listMap\":[{\"k\":\"a1\",\"v\":\"b1\"},{\"k\":\"a2\",\"v\":\"b2\"},{\"k\":\"a3\",\"v\":\"b3\",\"v2\":\"z\"}]}",
        old: None,
        is_root: false,
        valid: &[
            "has(self.listMap[0].v)",
            "self.listMap.all(m, m.k.startsWith('a'))",
            "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')",
            "self.listMap.exists(m, m.k.endsWith('1'))",
            "self.listMap.exists_one(m, m.k == 'a3')",
            "!self.listMap.all(m, m.k.endsWith('1'))",
            "!self.listMap.exists(m, m.v == 'x')",
            "!self.listMap.exists_one(m, m.k.startsWith('a'))",
            "size(self.listMap.filter(m, m.k == 'a1')) == 1",
            "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')",
            "self.listMap.map(m, m.v).exists(v, v == 'b1')",
            "self.listMap.exists(m, has(m.v2) && m.v2 == 'z')",
            "!self.listMap.all(m, has(m.v2) && m.v2 != 'z')",
            "self.listMap.exists_one(m, has(m.v2) && m.v2 == 'z')",
            "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').size() == 1",
            "self.listMap.map(m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
            "self.listMap.filter(m, has(m.v2) && m.v2 == 'z').map(m, m.v2).size() == 1",
            "self.listMap.exists(m, m.v2 == 'z')",
            "!self.listMap.all(m, m.v2 != 'z')",
            "!self.listMap.all(i, m, has(m.v2) && m.v2 != 'z')",
            "self.listMap.exists(i, m, has(m.v2) && m.v2 == 'z')",
            "self.listMap.existsOne(i, m, has(m.v2) && m.v2 == 'z')",
            "self.listMap.transformList(i, m, has(m.v2) && m.v2 == 'z', m.v2).size() == 1",
            "self.listMap.transformList(i, m, m.v).size() == 3",
        ],
        errors: &[
            ("self.listMap.all(m, m.v2 == 'z')", "no such key: v2"),
            ("self.listMap.exists_one(m, m.v2 == 'z')", "no such key: v2"),
            ("self.listMap.filter(m, m.v2 == 'z').size() == 1", "no such key: v2"),
            ("self.listMap.map(m, m.v2).size() == 1", "no such key: v2"),
            ("self.listMap.map(m, m.v2 == 'z', m.v2).size() == 1", "no such key: v2"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "list access",
        schema: "{\"type\":\"object\",\"properties\":{\"array\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}}}}",
        obj: "{\"array\":[1,1,2,2,3,3,4,5]}",
        old: None,
        is_root: false,
        valid: &[
            "2 in self.array",
            "self.array.all(e, e > 0)",
            "self.array.exists(e, e > 2)",
            "self.array.exists_one(e, e > 4)",
            "!self.array.all(e, e < 2)",
            "!self.array.exists(e, e < 0)",
            "!self.array.exists_one(e, e == 2)",
            "self.array.all(e, e < 100)",
            "size(self.array.filter(e, e%2 == 0)) == 3",
            "self.array.map(e, e * 20).filter(e, e > 50).exists(e, e == 60)",
            "size(self.array) == 8",
            "self.array.all(i, e, e > 0)",
            "self.array.exists(i, e, e > 2)",
            "self.array.existsOne(i, e, e > 4)",
            "self.array.transformList(i, e, e > 2, e * 2).size() > 0",
            "self.array.transformList(i, e, e * 2).size() > 0",
        ],
        errors: &[("self.array[100] == 0", "index out of bounds: 100")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "listSet access",
        schema: "{\"type\":\"object\",\"properties\":{\"set\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}}}}",
        obj: "{\"set\":[1,2,3,4,5]}",
        old: None,
        is_root: false,
        valid: &[
            "3 in self.set",
            "self.set.all(e, e > 0)",
            "self.set.exists(e, e > 3)",
            "self.set.exists_one(e, e == 3)",
            "!self.set.all(e, e < 3)",
            "!self.set.exists(e, e < 0)",
            "!self.set.exists_one(e, e > 3)",
            "self.set.all(e, e < 10)",
            "size(self.set.filter(e, e%2 == 0)) == 2",
            "self.set.map(e, e * 20).filter(e, e > 50).exists_one(e, e == 60)",
            "size(self.set) == 5",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "typemeta and objectmeta access specified",
        schema: "{\"type\":\"object\",\"properties\":{\"kind\":{\"type\":\"string\"},\"apiVersion\":{\"type\":\"string\"},\"metadata\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"generateName\":{\"type\":\"string\"}}}}}",
        obj: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"xyz\"}}",
        old: None,
        is_root: false,
        valid: &[
            "self.kind == 'Pod'",
            "self.apiVersion == 'v1'",
            "self.metadata.name == 'foo'",
            "self.metadata.generateName == 'pickItForMe'",
        ],
        errors: &[("has(self.metadata.namespace)", "undefined field 'namespace'")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "typemeta and objectmeta access not specified",
        schema: "{\"type\":\"object\",\"properties\":{\"spec\":{\"type\":\"object\",\"properties\":{\"field1\":{\"type\":\"string\"}}}}}",
        obj: "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"xyz\"},\"spec\":{\"field1\":\"a\"}}",
        old: None,
        is_root: true,
        valid: &[
            "self.kind == 'Pod'",
            "self.apiVersion == 'v1'",
            "self.metadata.name == 'foo'",
            "self.metadata.generateName == 'pickItForMe'",
            "self.spec.field1 == 'a'",
        ],
        errors: &[("has(self.metadata.namespace)", "undefined field 'namespace'")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "embedded object",
        schema: "{\"type\":\"object\",\"properties\":{\"embedded\":{\"type\":\"object\",\"x-kubernetes-embedded-resource\":true}}}",
        obj: "{\"embedded\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"xyz\"},\"spec\":{\"field1\":\"a\"}}}",
        old: None,
        is_root: false,
        valid: &[
            "self.embedded.kind == 'Pod'",
            "self.embedded.apiVersion == 'v1'",
            "self.embedded.metadata.name == 'foo'",
            "self.embedded.metadata.generateName == 'pickItForMe'",
        ],
        errors: &[
            ("has(self.embedded.metadata.namespace)", "undefined field 'namespace'"),
            ("has(self.embedded.spec)", "undefined field 'spec'"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "embedded object with properties",
        schema: "{\"type\":\"object\",\"properties\":{\"embedded\":{\"type\":\"object\",\"x-kubernetes-embedded-resource\":true,\"properties\":{\"kind\":{\"type\":\"string\"},\"apiVersion\":{\"type\":\"string\"},\"metadata\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"generateName\":{\"type\":\"string\"}}},\"spec\":{\"type\":\"object\",\"properties\":{\"field1\":{\"type\":\"string\"}}}}}}}",
        obj: "{\"embedded\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"xyz\"},\"spec\":{\"field1\":\"a\"}}}",
        old: None,
        is_root: false,
        valid: &[
            "self.embedded.kind == 'Pod'",
            "self.embedded.apiVersion == 'v1'",
            "self.embedded.metadata.name == 'foo'",
            "self.embedded.metadata.generateName == 'pickItForMe'",
            "self.embedded.spec.field1 == 'a'",
        ],
        errors: &[("has(self.embedded.metadata.namespace)", "undefined field 'namespace'")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "embedded object with usage of reserved keywords",
        schema: "{\"type\":\"object\",\"properties\":{\"embedded\":{\"type\":\"object\",\"x-kubernetes-embedded-resource\":true,\"properties\":{\"kind\":{\"type\":\"string\"},\"apiVersion\":{\"type\":\"string\"},\"metadata\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"generateName\":{\"type\":\"string\"},\"namespace\":{\"type\":\"string\"}}},\"spec\":{\"type\":\"object\",\"properties\":{\"if\":{\"type\":\"string\"}}}}}}}",
        obj: "{\"embedded\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"reserved_keyword_namespace\"},\"spec\":{\"if\":\"reserved_keyword_if\"}}}",
        old: None,
        is_root: false,
        valid: &[
            "has(self.embedded.metadata.namespace)",
            "self.embedded.metadata.namespace == 'reserved_keyword_namespace'",
            "has(self.embedded.spec.if)",
            "self.embedded.spec.if == 'reserved_keyword_if'",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "embedded object with preserve unknown",
        schema: "{\"type\":\"object\",\"properties\":{\"embedded\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true,\"x-kubernetes-embedded-resource\":true}}}",
        obj: "{\"embedded\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"foo\",\"generateName\":\"pickItForMe\",\"namespace\":\"xyz\"},\"spec\":{\"field1\":\"a\"}}}",
        old: None,
        is_root: false,
        valid: &[
            "self.embedded.kind == 'Pod'",
            "self.embedded.apiVersion == 'v1'",
            "self.embedded.metadata.name == 'foo'",
            "self.embedded.metadata.generateName == 'pickItForMe'",
            "has(self.embedded)",
        ],
        errors: &[("has(self.embedded.spec)", "undefined field 'spec'")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "string in intOrString",
        schema: "{\"type\":\"object\",\"properties\":{\"something\":{\"x-kubernetes-int-or-string\":true}}}",
        obj: "{\"something\":\"25%\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.something == '25%'",
            "self.something != 1",
            "self.something == 1 || self.something == '25%'",
            "self.something == '25%' || self.something == 1",
            "type(self.something) == string && self.something == '25%'",
            "type(self.something) == int ? self.something == 1 : self.something == '25%'",
            "self.something != ['anything']",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "int in intOrString",
        schema: "{\"type\":\"object\",\"properties\":{\"something\":{\"x-kubernetes-int-or-string\":true}}}",
        obj: "{\"something\":1}",
        old: None,
        is_root: false,
        valid: &[
            "self.something == 1",
            "self.something != 'some string'",
            "self.something == 1 || self.something == '25%'",
            "self.something == '25%' || self.something == 1",
            "type(self.something) == int && self.something == 1",
            "type(self.something) == int ? self.something == 1 : self.something == '25%'",
            "self.something != ['anything']",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "null in intOrString",
        schema: "{\"type\":\"object\",\"properties\":{\"something\":{\"x-kubernetes-int-or-string\":true,\"nullable\":true}}}",
        obj: "{\"something\":null}",
        old: None,
        is_root: false,
        valid: &["!has(self.something)"],
        errors: &[("type(self.something) == int", "no such key")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "percent comparison using intOrString",
        schema: "{\"type\":\"object\",\"properties\":{\"min\":{\"x-kubernetes-int-or-string\":true},\"current\":{\"type\":\"integer\"},\"available\":{\"type\":\"integer\"}}}",
        obj: "{\"min\":\"50%\",\"current\":5,\"available\":10}",
        old: None,
        is_root: false,
        valid: &[
            "type(self.min) == string && self.min.matches(r'(\\d+(\\.\\d+)?%)')",
            "type(self.min) == int ? self.current <= self.min : double(self.current) / double(self.available) >= double(self.min.replace('%', '')) / 100.0",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "preserve unknown fields",
        schema: "{\"type\":\"object\",\"properties\":{\"withUnknown\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true},\"withUnknownList\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true}},\"withUnknownFieldList\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"fieldOfUnknownType\":{\"x-kubernetes-preserve-unknown-fields\":true}}}},\"anyvalList\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"x-kubernetes-preserve-unknown-fields\":true}},\"anyvalMap\":{\"type\":\"object\",\"additionalProperties\":{\"x-kubernetes-preserve-unknown-fields\":true}},\"anyvalField1\":{\"x-kubernetes-preserve-unknown-fields\":true},\"anyvalField2\":{\"x-kubernetes-preserve-unknown-fields\":true}}}",
        obj: "{\"withUnknown\":{\"field1\":\"a\",\"field2\":\"b\"},\"withUnknownList\":[{\"field1\":\"a\",\"field2\":\"b\"},{\"field1\":\"x\",\"field2\":\"y\"},{\"field1\":\"x\",\"field2\":\"y\"},{},{}],\"withUnknownFieldList\":[{\"fieldOfUnknownType\":\"a\"},{\"fieldOfUnknownType\":1},{\"fieldOfUnknownType\":1}],\"anyvalList\":[\"a\",2],\"anyvalMap\":{\"k\":\"1\"},\"anyvalField1\":1,\"anyvalField2\":\"a\"}",
        old: None,
        is_root: false,
        valid: &[
            "has(self.withUnknown)",
            "self.withUnknownList.size() == 5",
            "self.withUnknownList[0] != self.withUnknownList[1]",
            "self.withUnknownList[1] == self.withUnknownList[2]",
            "self.withUnknownList[3] == self.withUnknownList[4]",
            "self.withUnknownFieldList[0] != self.withUnknownFieldList[1]",
            "self.withUnknownFieldList[1] == self.withUnknownFieldList[2]",
        ],
        errors: &[
            ("has(self.withUnknown.field1)", "undefined field 'field1'"),
            ("has(self.anyvalList)", "undefined field 'anyvalList'"),
            ("has(self.anyvalMap)", "undefined field 'anyvalMap'"),
            ("has(self.anyvalField1)", "undefined field 'anyvalField1'"),
            ("has(self.anyvalField2)", "undefined field 'anyvalField2'"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "known and unknown fields",
        schema: "{\"type\":\"object\",\"properties\":{\"withUnknown\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true,\"properties\":{\"known\":{\"type\":\"integer\"}}},\"withUnknownList\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"x-kubernetes-preserve-unknown-fields\":true,\"properties\":{\"known\":{\"type\":\"integer\"}}}}}}",
        obj: "{\"withUnknown\":{\"known\":1,\"unknown\":\"a\"},\"withUnknownList\":[{\"known\":1,\"unknown\":\"a\"},{\"known\":1,\"unknown\":\"b\"},{\"known\":1,\"unknown\":\"b\"},{\"known\":1},{\"known\":1},{\"known\":2}]}",
        old: None,
        is_root: false,
        valid: &[
            "self.withUnknown.known == 1",
            "self.withUnknownList[0] != self.withUnknownList[1]",
            "self.withUnknownList[1] == self.withUnknownList[2]",
            "self.withUnknownList[0] != self.withUnknownList[1]",
            "self.withUnknownList[0] != self.withUnknownList[3]",
            "self.withUnknownList[0] != self.withUnknownList[5]",
            "self.withUnknownList[3] == self.withUnknownList[4]",
            "self.withUnknownList[4] != self.withUnknownList[5]",
        ],
        errors: &[("has(self.withUnknown.unknown)", "undefined field 'unknown'")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "field nullability",
        schema: "{\"type\":\"object\",\"properties\":{\"unsetPlainStr\":{\"type\":\"string\"},\"unsetDefaultedStr\":{\"type\":\"string\",\"default\":\"default value\"},\"unsetNullableStr\":{\"type\":\"string\",\"nullable\":true},\"setPlainStr\":{\"type\":\"string\"},\"setDefaultedStr\":{\"type\":\"string\",\"default\":\"default value\"},\"setNullableStr\":{\"type\":\"string\",\"nullable\":true},\"setToNullNullableStr\":{\"type\":\"string\",\"nullable\":true}}}",
        obj: "{\"setPlainStr\":\"v1\",\"setDefaultedStr\":\"v2\",\"setNullableStr\":\"v3\",\"setToNullNullableStr\":null,\"unsetDefaultedStr\":\"default value\"}",
        old: None,
        is_root: false,
        valid: &[
            "!has(self.unsetPlainStr)",
            "has(self.unsetDefaultedStr) && self.unsetDefaultedStr == 'default value'",
            "!has(self.unsetNullableStr)",
            "has(self.setPlainStr) && self.setPlainStr == 'v1'",
            "has(self.setDefaultedStr) && self.setDefaultedStr == 'v2'",
            "has(self.setNullableStr) && self.setNullableStr == 'v3'",
            "type(self.setNullableStr) != null_type",
            "!has(self.setToNullNullableStr)",
        ],
        errors: &[
            (
                "self.unsetPlainStr == null",
                "no matching overload for '_==_' applied to '(string, null)",
            ),
            (
                "self.unsetDefaultedStr != null",
                "no matching overload for '_!=_' applied to '(string, null)",
            ),
            (
                "self.unsetNullableStr == null",
                "no matching overload for '_==_' applied to '(string, null)",
            ),
            (
                "self.setPlainStr != null",
                "no matching overload for '_!=_' applied to '(string, null)",
            ),
            (
                "self.setDefaultedStr != null",
                "no matching overload for '_!=_' applied to '(string, null)",
            ),
            (
                "self.setNullableStr != null",
                "no matching overload for '_!=_' applied to '(string, null)",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "null values in container types",
        schema: "{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\",\"nullable\":true}},\"l\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"nullable\":true}},\"s\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"string\",\"nullable\":true}}}}",
        obj: "{\"m\":{\"a\":null,\"b\":\"not-nil\"},\"l\":[null,\"not-nil\"],\"s\":[null,\"not-nil\"]}",
        old: None,
        is_root: false,
        valid: &[
            "self.m.size() == 2",
            "'a' in self.m",
            "type(self.m['a']) == null_type",
            "self.l.size() == 2",
            "type(self.l[0]) == null_type",
            "self.s.size() == 2",
            "type(self.s[0]) == null_type",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "escaping",
        schema: "{\"type\":\"object\",\"properties\":{\"true\":{\"type\":\"integer\"},\"false\":{\"type\":\"integer\"},\"null\":{\"type\":\"integer\"},\"in\":{\"type\":\"integer\"},\"as\":{\"type\":\"integer\"},\"break\":{\"type\":\"integer\"},\"const\":{\"type\":\"integer\"},\"continue\":{\"type\":\"integer\"},\"else\":{\"type\":\"integer\"},\"for\":{\"type\":\"integer\"},\"function\":{\"type\":\"integer\"},\"if\":{\"type\":\"integer\"},\"import\":{\"type\":\"integer\"},\"let\":{\"type\":\"integer\"},\"loop\":{\"type\":\"integer\"},\"package\":{\"type\":\"integer\"},\"namespace\":{\"type\":\"integer\"},\"return\":{\"type\":\"integer\"},\"var\":{\"type\":\"integer\"},\"void\":{\"type\":\"integer\"},\"while\":{\"type\":\"integer\"},\"int\":{\"type\":\"integer\"},\"uint\":{\"type\":\"integer\"},\"double\":{\"type\":\"integer\"},\"bool\":{\"type\":\"integer\"},\"string\":{\"type\":\"integer\"},\"bytes\":{\"type\":\"integer\"},\"list\":{\"type\":\"integer\"},\"map\":{\"type\":\"integer\"},\"null_type\":{\"type\":\"integer\"},\"type\":{\"type\":\"integer\"},\"self\":{\"type\":\"integer\"},\"getDate\":{\"type\":\"integer\"},\"all\":{\"type\":\"integer\"},\"size\":{\"type\":\"string\"},\"_true\":{\"type\":\"integer\"},\"dot.dot\":{\"type\":\"integer\"},\"dash-dash\":{\"type\":\"integer\"},\"slash/slash\":{\"type\":\"integer\"},\"underscore_underscore\":{\"type\":\"integer\"},\"doubleunderscore__doubleunderscore\":{\"type\":\"integer\"}}}",
        obj: "{\"true\":1,\"false\":2,\"null\":3,\"in\":4,\"as\":5,\"break\":6,\"const\":7,\"continue\":8,\"else\":9,\"for\":10,\"function\":11,\"if\":12,\"import\":13,\"let\":14,\"loop\":15,\"package\":16,\"namespace\":17,\"return\":18,\"var\":19,\"void\":20,\"while\":21,\"int\":101,\"uint\":102,\"double\":103,\"bool\":104,\"string\":105,\"bytes\":106,\"list\":107,\"map\":108,\"null_type\":109,\"type\":110,\"self\":201,\"getDate\":202,\"all\":203,\"size\":\"204\",\"_true\":301,\"dot.dot\":401,\"dash-dash\":402,\"slash/slash\":403,\"underscore_underscore\":404,\"doubleunderscore__doubleunderscore\":405}",
        old: None,
        is_root: false,
        valid: &[
            "self.__true__ == 1",
            "self.__false__ == 2",
            "self.__null__ == 3",
            "self.__in__ == 4",
            "self.__as__ == 5",
            "self.__break__ == 6",
            "self.__const__ == 7",
            "self.__continue__ == 8",
            "self.__else__ == 9",
            "self.__for__ == 10",
            "self.__function__ == 11",
            "self.__if__ == 12",
            "self.__import__ == 13",
            "self.__let__ == 14",
            "self.__loop__ == 15",
            "self.__package__ == 16",
            "self.__namespace__ == 17",
            "self.__return__ == 18",
            "self.__var__ == 19",
            "self.__void__ == 20",
            "self.__while__ == 21",
            "self.__true__ == 1",
            "self.int == 101",
            "self.uint == 102",
            "self.double == 103",
            "self.bool == 104",
            "self.string == 105",
            "self.bytes == 106",
            "self.list == 107",
            "self.map == 108",
            "self.null_type == 109",
            "self.type == 110",
            "self.self == 201",
            "self.getDate == 202",
            "self.all == 203",
            "self.size == '204'",
            "self._true == 301",
            "self.__true__ != 301",
            "self.dot__dot__dot == 401",
            "self.dash__dash__dash == 402",
            "self.slash__slash__slash == 403",
            "self.underscore_underscore == 404",
            "self.doubleunderscore__underscores__doubleunderscore == 405",
        ],
        errors: &[
            ("self.true == 1", "mismatched input 'true' expecting IDENTIFIER"),
            ("self == 201", "found no matching overload for '_==_'"),
            ("self.__illegal__ == 301", "undefined field '__illegal__'"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "map keys are not escaped",
        schema: "{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\"}}}}",
        obj: "{\"m\":{\"@\":1,\"9\":2,\"int\":3,\"./-\":4,\"👑\":5}}",
        old: None,
        is_root: false,
        valid: &[
            "self.m['@'] == 1",
            "self.m['9'] == 2",
            "self.m['int'] == 3",
            "self.m['./-'] == 4",
            "self.m['👑'] == 5",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "object types are not accessible",
        schema: "{\"type\":\"object\",\"properties\":{\"nestedInMap\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"object\",\"properties\":{\"inMapField\":{\"type\":\"integer\"}}}},\"nestedInList\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"inListField\":{\"type\":\"integer\"}}}}}}",
        obj: "{\"nestedInMap\":{\"k1\":{\"inMapField\":1},\"k2\":{\"inMapField\":2}},\"nestedInList\":[{\"inListField\":1},{\"inListField\":2}]}",
        old: None,
        is_root: false,
        valid: &[
            "type(self) == type(self)",
            "type(self.nestedInMap['k1']) == type(self.nestedInMap['k2'])",
            "type(self.nestedInList[0]) == type(self.nestedInList[1])",
        ],
        errors: &[(
            "string(type(self.nestedInList[0])).endsWith('.nestedInList.@idx')",
            "found no matching overload for 'string' applied to '(type",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "listMaps with unsupported identity characters in property names",
        schema: "{\"type\":\"object\",\"properties\":{\"objs\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k!\",\"k.\"],\"items\":{\"type\":\"object\",\"properties\":{\"k!\":{\"type\":\"string\"},\"k.\":{\"type\":\"string\"}}}}}}}",
        obj: "{\"objs\":[[{\"k!\":\"a\",\"k.\":\"1\"},{\"k!\":\"b\",\"k.\":\"2\"}],[{\"k!\":\"b\",\"k.\":\"2\"},{\"k!\":\"a\",\"k.\":\"1\"}],[{\"k!\":\"b\",\"k.\":\"2\"},{\"k!\":\"c\",\"k.\":\"1\"}],[{\"k!\":\"b\",\"k.\":\"2\"},{\"k!\":\"a\",\"k.\":\"3\"}]]}",
        old: None,
        is_root: false,
        valid: &[
            "self.objs[0] == self.objs[1]",
            "self.objs[0][0].k__dot__ == '1'",
            "self.objs[0] != self.objs[2]",
            "self.objs[0] != self.objs[3]",
        ],
        errors: &[(
            "self.objs[0][0].k! == '1'",
            "Syntax error: mismatched input '!' expecting",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "container type composition",
        schema: "{\"type\":\"object\",\"properties\":{\"obj\":{\"type\":\"object\",\"properties\":{\"field\":{\"type\":\"string\"}}},\"mapOfMap\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},\"mapOfObj\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"object\",\"properties\":{\"field2\":{\"type\":\"string\"}}}},\"mapOfListMap\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k\"],\"items\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"v\":{\"type\":\"string\"}}}}},\"mapOfList\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}},\"listMapOfObj\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k2\"],\"items\":{\"type\":\"object\",\"properties\":{\"k2\":{\"type\":\"string\"},\"v2\":{\"type\":\"string\"}}}},\"listOfMap\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}}},\"listOfObj\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"field3\":{\"type\":\"string\"}}}},\"listOfListMap\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k3\"],\"items\":{\"type\":\"object\",\"properties\":{\"k3\":{\"type\":\"string\"},\"v3\":{\"type\":\"string\"}}}}}}}",
        obj: "{\"obj\":{\"field\":\"a\"},\"mapOfMap\":{\"x\":{\"y\":\"b\"}},\"mapOfObj\":{\"k\":{\"field2\":\"c\"}},\"mapOfListMap\":{\"o\":[{\"k\":\"1\",\"v\":\"d\"}]},\"mapOfList\":{\"l\":[\"e\"]},\"listMapOfObj\":[{\"k2\":\"2\",\"v2\":\"f\"}],\"listOfMap\":[{\"z\":\"g\"}],\"listOfObj\":[{\"field3\":\"h\"}],\"listOfListMap\":[[{\"k3\":\"3\",\"v3\":\"i\"}]]}",
        old: None,
        is_root: false,
        valid: &[
            "self.obj.field == 'a'",
            "self.mapOfMap['x']['y'] == 'b'",
            "self.mapOfObj['k'].field2 == 'c'",
            "self.mapOfListMap['o'].exists(e, e.k == '1' && e.v == 'd')",
            "self.mapOfList['l'][0] == 'e'",
            "self.listMapOfObj.exists(e, e.k2 == '2' && e.v2 == 'f')",
            "self.listOfMap[0]['z'] == 'g'",
            "self.listOfObj[0].field3 == 'h'",
            "self.listOfListMap[0].exists(e, e.k3 == '3' && e.v3 == 'i')",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "invalid data",
        schema: "{\"type\":\"object\",\"properties\":{\"o\":{\"type\":\"object\",\"properties\":{\"field\":{\"type\":\"string\"}}},\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},\"l\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}},\"s\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"string\"}},\"lm\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"k\"],\"items\":{\"type\":\"object\",\"properties\":{\"k\":{\"type\":\"string\"},\"v\":{\"type\":\"string\"}}}},\"intorstring\":{\"x-kubernetes-int-or-string\":true},\"nullable\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}",
        obj: "{\"o\":[],\"m\":[],\"l\":{},\"s\":{},\"lm\":{},\"intorstring\":true,\"nullable\":[null]}",
        old: None,
        is_root: false,
        valid: &[],
        errors: &[
            (
                "has(self.o)",
                "invalid data, expected a map for the provided schema with type=object",
            ),
            (
                "has(self.m)",
                "invalid data, expected a map for the provided schema with type=object",
            ),
            (
                "has(self.l)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.s)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.lm)",
                "invalid data, expected an array for the provided schema with type=array",
            ),
            (
                "has(self.intorstring)",
                "invalid data, expected XIntOrString value to be either a string or integer",
            ),
            (
                "self.nullable[0] == 'x'",
                "invalid data, got null for schema with nullable=false",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "stdlib list functions",
        schema: "{\"type\":\"object\",\"properties\":{\"ints\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}},\"unsortedInts\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}},\"emptyInts\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\"}},\"doubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"unsortedDoubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"emptyDoubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"intBackedDoubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"unsortedIntBackedDDoubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"emptyIntBackedDDoubles\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"number\",\"format\":\"double\"}},\"durations\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"duration\"}},\"unsortedDurations\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"duration\"}},\"emptyDurations\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"duration\"}},\"strings\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}},\"unsortedStrings\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}},\"emptyStrings\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}},\"dates\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"date\"}},\"unsortedDates\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"date\"}},\"emptyDates\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\",\"format\":\"date\"}},\"objs\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"f1\":{\"type\":\"string\"},\"f2\":{\"type\":\"string\"}}}}}}",
        obj: "{\"ints\":[1,2,2,3],\"unsortedInts\":[2,1],\"emptyInts\":[],\"doubles\":[1.0,2.0,2.0,3.0],\"unsortedDoubles\":[2.0,1.0],\"emptyDoubles\":[],\"intBackedDoubles\":[1,2,2,3],\"unsortedIntBackedDDoubles\":[2,1],\"emptyIntBackedDDoubles\":[],\"durations\":[\"1s\",\"1m\",\"1m\",\"1h\"],\"unsortedDurations\":[\"1m\",\"1s\"],\"emptyDurations\":[],\"strings\":[\"a\",\"b\",\"b\",\"c\"],\"unsortedStrings\":[\"b\",\"a\"],\"emptyStrings\":[],\"dates\":[\"2000-01-01\",\"2000-02-01\",\"2000-02-01\",\"2010-01-01\"],\"unsortedDates\":[\"2000-02-01\",\"2000-01-01\"],\"emptyDates\":[],\"objs\":[{\"f1\":\"a\",\"f2\":\"a\"},{\"f1\":\"a\",\"f2\":\"b\"},{\"f1\":\"a\",\"f2\":\"b\"},{\"f1\":\"a\",\"f2\":\"c\"}]}",
        old: None,
        is_root: false,
        valid: &[
            "self.ints.sum() == 8",
            "self.ints.min() == 1",
            "self.ints.max() == 3",
            "self.emptyInts.sum() == 0",
            "self.ints.isSorted()",
            "self.emptyInts.isSorted()",
            "self.unsortedInts.isSorted() == false",
            "self.ints.indexOf(2) == 1",
            "self.ints.lastIndexOf(2) == 2",
            "self.ints.indexOf(10) == -1",
            "self.ints.lastIndexOf(10) == -1",
            "self.doubles.sum() == 8.0",
            "self.doubles.min() == 1.0",
            "self.doubles.max() == 3.0",
            "self.emptyDoubles.sum() == 0.0",
            "self.doubles.isSorted()",
            "self.emptyDoubles.isSorted()",
            "self.unsortedDoubles.isSorted() == false",
            "self.doubles.indexOf(2.0) == 1",
            "self.doubles.lastIndexOf(2.0) == 2",
            "self.doubles.indexOf(10.0) == -1",
            "self.doubles.lastIndexOf(10.0) == -1",
            "self.intBackedDoubles.sum() == 8.0",
            "self.intBackedDoubles.min() == 1.0",
            "self.intBackedDoubles.max() == 3.0",
            "self.emptyIntBackedDDoubles.sum() == 0.0",
            "self.intBackedDoubles.isSorted()",
            "self.emptyDoubles.isSorted()",
            "self.unsortedIntBackedDDoubles.isSorted() == false",
            "self.intBackedDoubles.indexOf(2.0) == 1",
            "self.intBackedDoubles.lastIndexOf(2.0) == 2",
            "self.intBackedDoubles.indexOf(10.0) == -1",
            "self.intBackedDoubles.lastIndexOf(10.0) == -1",
            "self.durations.sum() == duration('1h2m1s')",
            "self.durations.min() == duration('1s')",
            "self.durations.max() == duration('1h')",
            "self.emptyDurations.sum() == duration('0')",
            "self.durations.isSorted()",
            "self.emptyDurations.isSorted()",
            "self.unsortedDurations.isSorted() == false",
            "self.durations.indexOf(duration('1m')) == 1",
            "self.durations.lastIndexOf(duration('1m')) == 2",
            "self.durations.indexOf(duration('2m')) == -1",
            "self.durations.lastIndexOf(duration('2m')) == -1",
            "self.strings.min() == 'a'",
            "self.strings.max() == 'c'",
            "self.strings.isSorted()",
            "self.emptyStrings.isSorted()",
            "self.unsortedStrings.isSorted() == false",
            "self.strings.indexOf('b') == 1",
            "self.strings.lastIndexOf('b') == 2",
            "self.strings.indexOf('x') == -1",
            "self.strings.lastIndexOf('x') == -1",
            "self.dates.min() == timestamp('2000-01-01T00:00:00.000Z')",
            "self.dates.max() == timestamp('2010-01-01T00:00:00.000Z')",
            "self.dates.isSorted()",
            "self.emptyDates.isSorted()",
            "self.unsortedDates.isSorted() == false",
            "self.dates.indexOf(timestamp('2000-02-01T00:00:00.000Z')) == 1",
            "self.dates.lastIndexOf(timestamp('2000-02-01T00:00:00.000Z')) == 2",
            "self.dates.indexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
            "self.dates.lastIndexOf(timestamp('2005-02-01T00:00:00.000Z')) == -1",
            "[[1], [2]].indexOf([1]) == 0",
            "[{'a': 1}, {'b': 2}].lastIndexOf({'b': 2}) == 1",
            "self.objs.indexOf(self.objs[1]) == 1",
            "self.objs.lastIndexOf(self.objs[1]) == 2",
            "([0] + self.emptyInts).min() == 0",
            "dyn([]).sum() == 0",
            "dyn([1, 2]).sum() == 3",
            "dyn([1.0, 2.0]).sum() == 3.0",
            "[].sum() == 0",
        ],
        errors: &[
            ("self.emptyInts.min() == 1", "min called on empty list"),
            ("self.emptyInts.max() == 3", "max called on empty list"),
            ("self.emptyDoubles.min() == 1.0", "min called on empty list"),
            ("self.emptyDoubles.max() == 3.0", "max called on empty list"),
            ("self.emptyStrings.min() == 'a'", "min called on empty list"),
            ("self.emptyStrings.max() == 'c'", "max called on empty list"),
            (
                "['a', 'b'].sum() == 'c'",
                "found no matching overload for 'sum' applied to 'list(string).()",
            ),
            (
                "[[1], [2]].min() == [1]",
                "found no matching overload for 'min' applied to 'list(list(int)).()",
            ),
            (
                "[{'a': 1}, {'b': 2}].max() == {'b': 2}",
                "found no matching overload for 'max' applied to 'list(map(string, int)).()",
            ),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "stdlib regex functions",
        schema: "{\"type\":\"object\",\"properties\":{\"str\":{\"type\":\"string\"}}}",
        obj: "{\"str\":\"this is a 123 string 456\"}",
        old: None,
        is_root: false,
        valid: &[
            "self.str.find('[0-9]+') == '123'",
            "self.str.find('[0-9]+') != '456'",
            "self.str.find('xyz') == ''",
            "self.str.findAll('[0-9]+') == ['123', '456']",
            "self.str.findAll('[0-9]+', 0) == []",
            "self.str.findAll('[0-9]+', 1) == ['123']",
            "self.str.findAll('[0-9]+', 2) == ['123', '456']",
            "self.str.findAll('[0-9]+', 3) == ['123', '456']",
            "self.str.findAll('[0-9]+', -1) == ['123', '456']",
            "self.str.findAll('xyz') == []",
            "self.str.findAll('xyz', 1) == []",
        ],
        errors: &[
            (
                "self.str.find(')') == ''",
                "compile error: program instantiation failed: error parsing regexp: unexpected ): `)`",
            ),
            (
                "self.str.findAll(')') == []",
                "compile error: program instantiation failed: error parsing regexp: unexpected ): `)`",
            ),
            (
                "self.str.findAll(')', 1) == []",
                "compile error: program instantiation failed: error parsing regexp: unexpected ): `)`",
            ),
            ("self.str.matches('x++')", "invalid matches argument"),
        ],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "URL parsing",
        schema: "{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\"}}}",
        obj: "{\"url\":\"https://user:pass@kubernetes.io:80/docs/home?k1=a&k2=b&k2=c#anchor\"}",
        old: None,
        is_root: false,
        valid: &[
            "url('/path').getScheme() == ''",
            "url('https://example.com/').getScheme() == 'https'",
            "url('https://example.com:80/').getHost() == 'example.com:80'",
            "url('https://example.com/').getHost() == 'example.com'",
            "url('https://[::1]:80/').getHost() == '[::1]:80'",
            "url('https://[::1]/').getHost() == '[::1]'",
            "url('/path').getHost() == ''",
            "url('https://example.com:80/').getHostname() == 'example.com'",
            "url('https://127.0.0.1/').getHostname() == '127.0.0.1'",
            "url('https://[::1]/').getHostname() == '::1'",
            "url('/path').getHostname() == ''",
            "url('https://example.com:80/').getPort() == '80'",
            "url('https://example.com/').getPort() == ''",
            "url('/path').getPort() == ''",
            "url('https://example.com/path').getEscapedPath() == '/path'",
            "url('https://example.com/with space/').getEscapedPath() == '/with%20space/'",
            "url('https://example.com').getEscapedPath() == ''",
            "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == { 'k1': ['a'], 'k2': ['b', 'c']}",
            "url('https://example.com/path?key with spaces=value with spaces').getQuery() == { 'key with spaces': ['value with spaces']}",
            "url('https://example.com/path?').getQuery() == {}",
            "url('https://example.com/path').getQuery() == {}",
            "url(self.url).getScheme() == 'https'",
            "url(self.url).getHost() == 'kubernetes.io:80'",
            "url(self.url).getHostname() == 'kubernetes.io'",
            "url(self.url).getPort() == '80'",
            "url(self.url).getEscapedPath() == '/docs/home'",
            "url(self.url).getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
            "isURL('https://user:pass@example.com:80/path?query=val#fragment')",
            "isURL('/path') == true",
            "isURL('https://a:b:c/') == false",
            "isURL('../relative-path') == false",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "transition rules",
        schema: "{\"type\":\"object\",\"properties\":{\"v\":{\"type\":\"string\"}}}",
        obj: "{\"v\":\"new\"}",
        old: Some("{\"v\":\"old\"}"),
        is_root: false,
        valid: &["oldSelf.v != self.v", "oldSelf.v == 'old' && self.v == 'new'"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "skipped transition rule for nil old primitive",
        schema: "{\"type\":\"string\"}",
        obj: "\"exists\"",
        old: None,
        is_root: false,
        valid: &["oldSelf == self"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: true,
        expected_cost: 0,
    },
    ExprCase {
        name: "skipped transition rule for nil old array",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}",
        obj: "[]",
        old: None,
        is_root: false,
        valid: &["oldSelf == self"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: true,
        expected_cost: 0,
    },
    ExprCase {
        name: "skipped transition rule for nil old object",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"string\"}}}",
        obj: "{\"f\":\"exists\"}",
        old: None,
        is_root: false,
        valid: &["oldSelf.f == self.f"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: true,
        expected_cost: 0,
    },
    ExprCase {
        name: "skipped transition rule for old with non-nil interface but nil value",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}",
        obj: "[]",
        old: None,
        is_root: false,
        valid: &["oldSelf == self"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: true,
        expected_cost: 0,
    },
    ExprCase {
        name: "authorizer is not supported for CRD Validation Rules",
        schema: "{\"type\":\"object\"}",
        obj: "[]",
        old: Some("[]"),
        is_root: false,
        valid: &[],
        errors: &[(
            "authorizer.path('/healthz').check('get').allowed()",
            "undeclared reference to 'authorizer'",
        )],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "optionals",
        schema: "{\"type\":\"object\",\"properties\":{\"presentObj\":{\"type\":\"object\",\"properties\":{\"presentStr\":{\"type\":\"string\"}}},\"absentObj\":{\"type\":\"object\",\"properties\":{\"absentStr\":{\"type\":\"string\"}}},\"m\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"}},\"l\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}",
        obj: "{\"presentObj\":{\"presentStr\":\"value\"},\"m\":{\"k\":\"v\"},\"l\":[\"a\"]}",
        old: None,
        is_root: false,
        valid: &[
            "self.?presentObj.?presentStr == optional.of('value')",
            "self.presentObj.?presentStr == optional.of('value')",
            "self.presentObj.?presentStr.or(optional.of('nope')) == optional.of('value')",
            "self.presentObj.?presentStr.orValue('') == 'value'",
            "self.presentObj.?presentStr.hasValue() == true",
            "self.presentObj.?presentStr.optMap(v, v == 'value').hasValue()",
            "self.?absentObj.?absentStr == optional.none()",
            "self.?absentObj.?absentStr.or(optional.of('nope')) == optional.of('nope')",
            "self.?absentObj.?absentStr.orValue('nope') == 'nope'",
            "self.?absentObj.?absentStr.hasValue() == false",
            "self.?absentObj.?absentStr.optMap(v, v == 'value').hasValue() == false",
            "self.m[?'k'] == optional.of('v')",
            "self.m[?'k'].or(optional.of('nope')) == optional.of('v')",
            "self.m[?'k'].orValue('') == 'v'",
            "self.m[?'k'].hasValue() == true",
            "self.m[?'k'].optMap(v, v == 'v').hasValue()",
            "self.m[?'x'] == optional.none()",
            "self.m[?'x'].or(optional.of('nope')) == optional.of('nope')",
            "self.m[?'x'].orValue('nope') == 'nope'",
            "self.m[?'x'].hasValue() == false",
            "self.m[?'x'].hasValue() == false",
            "self.l[?0] == optional.of('a')",
            "self.l[?1] == optional.none()",
            "self.l[?0].orValue('') == 'a'",
            "self.l[?0].hasValue() == true",
            "self.l[?0].optMap(v, v == 'a').hasValue()",
            "self.l[?1] == optional.none()",
            "self.l[?1].or(optional.of('nope')) == optional.of('nope')",
            "self.l[?1].orValue('nope') == 'nope'",
            "self.l[?1].hasValue() == false",
            "self.l[?1].hasValue() == false",
            "optional.ofNonZeroValue(1).hasValue()",
            "optional.ofNonZeroValue(uint(1)).hasValue()",
            "optional.ofNonZeroValue(1.1).hasValue()",
            "optional.ofNonZeroValue('a').hasValue()",
            "optional.ofNonZeroValue(true).hasValue()",
            "optional.ofNonZeroValue(['a']).hasValue()",
            "optional.ofNonZeroValue({'k': 'v'}).hasValue()",
            "optional.ofNonZeroValue(timestamp('2011-08-18T00:00:00.000+01:00')).hasValue()",
            "optional.ofNonZeroValue(duration('19h3m37s10ms')).hasValue()",
            "optional.ofNonZeroValue(null) == optional.none()",
            "optional.ofNonZeroValue(0) == optional.none()",
            "optional.ofNonZeroValue(uint(0)) == optional.none()",
            "optional.ofNonZeroValue(0.0) == optional.none()",
            "optional.ofNonZeroValue('') == optional.none()",
            "optional.ofNonZeroValue(false) == optional.none()",
            "optional.ofNonZeroValue([]) == optional.none()",
            "optional.ofNonZeroValue({}) == optional.none()",
            "optional.ofNonZeroValue(timestamp('0001-01-01T00:00:00.000+00:00')) == optional.none()",
            "optional.ofNonZeroValue(duration('0s')) == optional.none()",
            "{?'k': optional.none(), 'k2': 'v2'} == {'k2': 'v2'}",
            "{?'k': optional.of('v'), 'k2': 'v2'} == {'k': 'v', 'k2': 'v2'}",
            "['a', ?optional.none(), 'c'] == ['a', 'c']",
            "['a', ?optional.of('v'), 'c'] == ['a', 'v', 'c']",
        ],
        errors: &[("self.absentObj.?absentStr == optional.none()", "no such key: absentObj")],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "quantity",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &[
            "isQuantity(self.val1)",
            "isQuantity(self.val2)",
            "isQuantity(\"20Mi\")",
            "quantity(self.val2) == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
            "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && quantity(\"0.002G\") == quantity(\"2000k\")",
            "quantity(self.val1).isLessThan(quantity(\"100M\"))",
            "quantity(self.val2).isGreaterThan(quantity(\"50M\"))",
            "quantity(self.val2).compareTo(quantity(\"0.2G\")) == 0",
            "quantity(\"50k\").add(quantity(self.val1)) == quantity(\"50.02k\")",
            "quantity(\"50k\").sub(quantity(self.val1)) == quantity(\"49980\")",
            "quantity(self.val1).isInteger()",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "cost for extended lib calculated correctly: isSorted",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &["[1,2,3,4].isSorted()"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 4,
    },
    ExprCase {
        name: "cost for extended lib calculated correctly: url",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &["url('https:://kubernetes.io/').getHostname() != 'test'"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 4,
    },
    ExprCase {
        name: "cost for extended lib calculated correctly: split",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &["size('abc 123 def 123'.split(' ')) > 0"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 5,
    },
    ExprCase {
        name: "cost for extended lib calculated correctly: join",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &["size(['aa', 'bb', 'cc', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].join(' ')) > 0"],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 7,
    },
    ExprCase {
        name: "IP and CIDR",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &[
            "isIP(\"192.168.0.1\")",
            "ip.isCanonical(\"127.0.0.1\")",
            "ip(\"192.168.0.1\").family() > 0",
            "ip(\"0.0.0.0\").isUnspecified()",
            "ip(\"127.0.0.1\").isLoopback()",
            "ip(\"224.0.0.1\").isLinkLocalMulticast()",
            "ip(\"192.168.0.1\").isGlobalUnicast()",
            "type(ip(\"192.168.0.1\")) == net.IP",
            "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))",
            "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")",
            "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))",
            "type(cidr(\"2001:db8::/32\").ip()) == net.IP",
            "cidr('192.168.0.0/24') == cidr('192.168.0.0/24').masked()",
            "cidr('192.168.0.0/16').prefixLength() == 16",
            "cidr('::1/128').ip().family() == 6",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
    ExprCase {
        name: "format",
        schema: "{\"type\":\"object\",\"properties\":{\"val1\":{\"type\":\"string\"},\"val2\":{\"type\":\"string\"}}}",
        obj: "{\"val1\":\"20\",\"val2\":\"200M\"}",
        old: None,
        is_root: false,
        valid: &[
            "format.dns1123Label().validate(\"my-label-name\") == optional.none()",
            "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\") == optional.none()",
            "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\") == optional.none()",
            "format.dns1123LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
            "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\") == optional.none()",
            "format.dns1035LabelPrefix().validate(\"my-label-prefix-\") == optional.none()",
            "format.uri().validate(\"http://example.com\") == optional.none()",
            "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\") == optional.none()",
            "format.byte().validate(\"aGVsbG8=\") == optional.none()",
            "format.date().validate(\"2021-01-01\") == optional.none()",
            "format.datetime().validate(\"2021-01-01T00:00:00Z\") == optional.none()",
            "format.named(\"dns1123Label\").value().validate(\"my-name\") == optional.none()",
            "format.dns1123Label().validate(\"contains a space\").value()[0] == \"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \\'-\\', and must start and end with an alphanumeric character (e.g. \\'my-name\\',  or \\'123-abc\\', regex used for validation is \\'[a-z0-9]([-a-z0-9]*[a-z0-9])?\\')\"",
            "!format.named(\"unknown\").hasValue()",
        ],
        errors: &[],
        cost_budget: 0,
        expect_skipped: false,
        expected_cost: 0,
    },
];
const SCHEMA_LEVELS: &[LevelCase] = &[
    LevelCase {
        name: "invalid rule under array items",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self == 'abc'\"}]}}}}",
        obj: "{\"f\":[1]}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under array items, parent has rule",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self == 'abc'\"}]},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}}}",
        obj: "{\"f\":[1]}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under additionalProperties",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self == 'abc'\"}]}}}}",
        obj: "{\"f\":{\"k\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under additionalProperties, parent has rule",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self == 'abc'\"}]},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}}}",
        obj: "{\"f\":{\"k\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under unescaped field name",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}}}",
        obj: "{\"f\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under unescaped field name, parent has rule",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under escaped field name",
        schema: "{\"type\":\"object\",\"properties\":{\"f/2\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}}}",
        obj: "{\"f/2\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under escaped field name, parent has rule",
        schema: "{\"type\":\"object\",\"properties\":{\"f/2\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f/2\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "failing rule under escaped field name",
        schema: "{\"type\":\"object\",\"properties\":{\"f/2\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 2\"}]}}}",
        obj: "{\"f/2\":{\"m\":1}}",
        old: None,
        errors: &["Invalid value: failed rule: self.m == 2"],
    },
    LevelCase {
        name: "invalid rule under unescapable field name",
        schema: "{\"type\":\"object\",\"properties\":{\"a@b\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}}}",
        obj: "{\"a@b\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "invalid rule under unescapable field name, parent has rule",
        schema: "{\"type\":\"object\",\"properties\":{\"f@2\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 'abc'\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f@2\":{\"m\":1}}",
        old: None,
        errors: &["found no matching overload for '_==_' applied to '(int, string)"],
    },
    LevelCase {
        name: "failing rule under unescapable field name",
        schema: "{\"type\":\"object\",\"properties\":{\"a@b\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 2\"}]}}}",
        obj: "{\"a@b\":{\"m\":1}}",
        old: None,
        errors: &["Invalid value: failed rule: self.m == 2"],
    },
    LevelCase {
        name: "matchExpressions - 'values' must be specified when 'operator' is 'In' or 'NotIn'",
        schema: "{\"type\":\"object\",\"properties\":{\"matchExpressions\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\"},\"values\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}}},\"x-kubernetes-validations\":[{\"rule\":\"self.matchExpressions.all(rule, (rule.operator != \\\"In\\\" && rule.operator != \\\"NotIn\\\") || ((has(rule.values) && size(rule.values) > 0)))\"}]}",
        obj: "{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[]}]}",
        old: None,
        errors: &["failed rule"],
    },
    LevelCase {
        name: "matchExpressions - 'values' may not be specified when 'operator' is 'Exists' or 'DoesNotExist'",
        schema: "{\"type\":\"object\",\"properties\":{\"matchExpressions\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\"},\"values\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}}},\"x-kubernetes-validations\":[{\"rule\":\"self.matchExpressions.all(rule, (rule.operator != \\\"Exists\\\" && rule.operator != \\\"DoesNotExist\\\") || ((!has(rule.values) || size(rule.values) == 0)))\"}]}",
        obj: "{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"Exists\",\"values\":[\"somevalue\"]}]}",
        old: None,
        errors: &["failed rule"],
    },
    LevelCase {
        name: "matchExpressions - invalid selector operator",
        schema: "{\"type\":\"object\",\"properties\":{\"matchExpressions\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\"},\"values\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}}},\"x-kubernetes-validations\":[{\"rule\":\"self.matchExpressions.all(rule, rule.operator == \\\"In\\\" || rule.operator == \\\"NotIn\\\" || rule.operator == \\\"DoesNotExist\\\")\"}]}",
        obj: "{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"badop\",\"values\":[]}]}",
        old: None,
        errors: &["failed rule"],
    },
    LevelCase {
        name: "matchExpressions - invalid label value",
        schema: "{\"type\":\"object\",\"properties\":{\"matchExpressions\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"operator\":{\"type\":\"string\"},\"values\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"string\"}}}}}},\"x-kubernetes-validations\":[{\"rule\":\"self.matchExpressions.all(rule, size(rule.key) <= 63 && rule.key.matches(\\\"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$\\\"))\"}]}",
        obj: "{\"matchExpressions\":[{\"key\":\"badkey!\",\"operator\":\"Exists\",\"values\":[]}]}",
        old: None,
        errors: &["failed rule"],
    },
    LevelCase {
        name: "allOf rule",
        schema: "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}},\"allOf\":[{\"x-kubernetes-validations\":[{\"rule\":\"self.key == 'value' && self.key2 == 'value2'\",\"message\":\"key must be 'value' and key2 must be 'value2'\"}]},{\"x-kubernetes-validations\":[{\"rule\":\"self.key != self.key2\",\"message\":\"key must not be equal to key2\"}]}]}",
        obj: "{\"key\":\"value\",\"key2\":\"value\"}",
        old: None,
        errors: &[
            "key must be 'value' and key2 must be 'value2'",
            "key must not be equal to key2",
        ],
    },
    LevelCase {
        name: "anyOf rule ignored",
        schema: "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"true\"}],\"anyOf\":[{\"x-kubernetes-validations\":[{\"rule\":\"self.key == 'value' && self.key2 == 'value2'\",\"message\":\"key must be 'value' and key2 must be 'value2'\"}]},{\"x-kubernetes-validations\":[{\"rule\":\"self.key != self.key2\",\"message\":\"key must not be equal to key2\"}]}]}",
        obj: "{\"key\":\"value\",\"key2\":\"value\"}",
        old: None,
        errors: &[],
    },
    LevelCase {
        name: "oneOf rule ignored",
        schema: "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"true\"}],\"oneOf\":[{\"x-kubernetes-validations\":[{\"rule\":\"self.key == 'value' && self.key2 == 'value2'\",\"message\":\"key must be 'value' and key2 must be 'value2'\"}]},{\"x-kubernetes-validations\":[{\"rule\":\"self.key != self.key2\",\"message\":\"key must not be equal to key2\"}]}]}",
        obj: "{\"key\":\"value\",\"key2\":\"value\"}",
        old: None,
        errors: &[],
    },
    LevelCase {
        name: "not rule ignored",
        schema: "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"true\"}],\"not\":{\"x-kubernetes-validations\":[{\"rule\":\"self.key == 'value' && self.key2 == 'value2'\",\"message\":\"key must be 'value' and key2 must be 'value2'\"}]}}",
        obj: "{\"key\":\"value\",\"key2\":\"value\"}",
        old: None,
        errors: &[],
    },
    LevelCase {
        name: "allOf.items",
        schema: "{\"type\":\"object\",\"properties\":{\"myList\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"allOf\":[{\"items\":{\"x-kubernetes-validations\":[{\"rule\":\"self.size() == 5\",\"message\":\"len must be 5\"}]}},{\"items\":{\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"value2\\\" || self != \\\"value\\\"\",\"message\":\"must be value2 or not value\"}]}}]}}}",
        obj: "{\"myList\":[\"value\",\"value2\"]}",
        old: None,
        errors: &["must be value2 or not value", "len must be 5"],
    },
    LevelCase {
        name: "allOf.additionalProperties",
        schema: "{\"type\":\"object\",\"properties\":{\"myProperty\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"string\"},\"allOf\":[{\"additionalProperties\":{\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"value2\\\" || self != \\\"value\\\"\",\"message\":\"must be value2 or not value\"},{\"rule\":\"self.size() == 5\",\"message\":\"len must be 5\"}]}}]}}}",
        obj: "{\"myProperty\":{\"key\":\"value\",\"key2\":\"value2\"}}",
        old: None,
        errors: &[
            "root.myProperty[key]: Invalid value: \"value\": must be value2 or not value",
            "root.myProperty[key2]: Invalid value: \"value2\": len must be 5",
        ],
    },
    LevelCase {
        name: "allOf.properties",
        schema: "{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}},\"allOf\":[{\"properties\":{\"key\":{\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"value2\\\" || self != \\\"value\\\"\",\"message\":\"must be value2 or not value\"}]},\"key2\":{\"x-kubernetes-validations\":[{\"rule\":\"self.size() == 5\",\"message\":\"len must be 5\"}]}}}]}",
        obj: "{\"key\":\"value\",\"key2\":\"value2\"}",
        old: None,
        errors: &[
            "root.key: Invalid value: \"value\": must be value2 or not value",
            "root.key2: Invalid value: \"value2\": len must be 5",
        ],
    },
    LevelCase {
        name: "allOf.items.allOf",
        schema: "{\"type\":\"object\",\"properties\":{\"myList\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"allOf\":[{\"items\":{\"allOf\":[{\"x-kubernetes-validations\":[{\"rule\":\"self.size() == 5\",\"message\":\"len must be 5\"}]}]}},{\"items\":{\"allOf\":[{\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"value2\\\" || self != \\\"value\\\"\",\"message\":\"must be value2 or not value\"}]}]}}]}}}",
        obj: "{\"myList\":[\"value\",\"value2\"]}",
        old: None,
        errors: &["must be value2 or not value", "len must be 5"],
    },
    LevelCase {
        name: "properties.allOf.additionalProperties.allOf.properties",
        schema: "{\"type\":\"object\",\"properties\":{\"myProperty\":{\"type\":\"object\",\"additionalProperties\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"key2\":{\"type\":\"string\"}}}}},\"allOf\":[{\"properties\":{\"myProperty\":{\"additionalProperties\":{\"allOf\":[{\"properties\":{\"key\":{\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"value2\\\" || self != \\\"value\\\"\",\"message\":\"must be value2 or not value\"}]},\"key2\":{\"x-kubernetes-validations\":[{\"rule\":\"self.size() == 5\",\"message\":\"len must be 5\"}]}}}]}}}}]}",
        obj: "{\"myProperty\":{\"randomKey\":{\"key\":\"value\",\"key2\":\"value2\"}}}",
        old: None,
        errors: &["must be value2 or not value", "len must be 5"],
    },
];
const OPTIONAL_OLD_SELF: &[LevelCase] = &[
    LevelCase {
        name: "allow new value if old value is null",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.foo == 'not bar' || !oldSelf.hasValue()\",\"optionalOldSelf\":true}]}",
        obj: "{\"foo\":\"bar\"}",
        old: None,
        errors: &[],
    },
    LevelCase {
        name: "block new value if old value is not null",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.foo == 'valid' || !oldSelf.hasValue()\",\"optionalOldSelf\":true}]}",
        obj: "{\"foo\":\"invalid\"}",
        old: Some("{\"foo\":\"bar\"}"),
        errors: &["failed rule"],
    },
    LevelCase {
        name: "allow invalid new value if old value is also invalid",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.foo == 'valid' || (oldSelf.hasValue() && oldSelf.value().foo != 'valid')\",\"optionalOldSelf\":true}]}",
        obj: "{\"foo\":\"invalid again\"}",
        old: Some("{\"foo\":\"invalid\"}"),
        errors: &[],
    },
    LevelCase {
        name: "allow invalid new value if old value is also invalid with chained optionals",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.foo == 'valid' || oldSelf.foo.orValue('') != 'valid'\",\"optionalOldSelf\":true}]}",
        obj: "{\"foo\":\"invalid again\"}",
        old: Some("{\"foo\":\"invalid\"}"),
        errors: &[],
    },
    LevelCase {
        name: "block invalid new value if old value is valid",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.foo == 'valid' || (oldSelf.hasValue() && oldSelf.value().foo != 'valid')\",\"optionalOldSelf\":true}]}",
        obj: "{\"foo\":\"invalid\"}",
        old: Some("{\"foo\":\"valid\"}"),
        errors: &["failed rule"],
    },
    LevelCase {
        name: "create: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "10",
        old: None,
        errors: &[],
    },
    LevelCase {
        name: "block create: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "9",
        old: None,
        errors: &["failed rule"],
    },
    LevelCase {
        name: "update: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "10",
        old: Some("5"),
        errors: &[],
    },
    LevelCase {
        name: "ratchet update: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "9",
        old: Some("5"),
        errors: &[],
    },
    LevelCase {
        name: "ratchet noop update: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "5",
        old: Some("5"),
        errors: &[],
    },
    LevelCase {
        name: "block update: new min or allow higher than oldValue",
        schema: "{\"type\":\"integer\",\"x-kubernetes-validations\":[{\"rule\":\"self >= 10 || (oldSelf.hasValue() && oldSelf.value() <= self)\",\"optionalOldSelf\":true}]}",
        obj: "4",
        old: Some("5"),
        errors: &["failed rule"],
    },
];
const REASONS: &[ReasonCase] = &[
    ReasonCase {
        name: "Return error based on input reason",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 2\",\"reason\":\"FieldValueForbidden\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f\":{\"m\":1}}",
        errors: &[("Forbidden", "root.f")],
    },
    ReasonCase {
        name: "Return error default is invalid",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 2\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f\":{\"m\":1}}",
        errors: &[("Invalid", "root.f")],
    },
    ReasonCase {
        name: "Return error based on input fieldPath",
        schema: "{\"type\":\"object\",\"properties\":{\"f\":{\"type\":\"object\",\"properties\":{\"m\":{\"type\":\"integer\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.m == 2\",\"fieldPath\":\".m\",\"reason\":\"FieldValueForbidden\"}]}},\"x-kubernetes-validations\":[{\"rule\":\"1 == 1\"}]}",
        obj: "{\"f\":{\"m\":1}}",
        errors: &[("Forbidden", "root.f.m")],
    },
    ReasonCase {
        name: "multiple rules with custom reason and field path",
        schema: "{\"type\":\"object\",\"properties\":{\"field1\":{\"type\":\"string\"},\"field2\":{\"type\":\"string\"},\"field3\":{\"type\":\"string\"}},\"x-kubernetes-validations\":[{\"rule\":\"self.field2 != \\\"value2\\\"\",\"reason\":\"FieldValueDuplicate\",\"fieldPath\":\".field2\"},{\"rule\":\"self.field3 != \\\"value3\\\"\",\"reason\":\"FieldValueRequired\",\"fieldPath\":\".field3\"},{\"rule\":\"self.field1 != \\\"value1\\\"\",\"reason\":\"FieldValueForbidden\",\"fieldPath\":\".field1\"}]}",
        obj: "{\"field1\":\"value1\",\"field2\":\"value2\",\"field3\":\"value3\"}",
        errors: &[
            ("Duplicate", "root.field2"),
            ("Required", "root.field3"),
            ("Forbidden", "root.field1"),
        ],
    },
];
const MESSAGES: &[MessageCase] = &[
    MessageCase {
        name: "no cost error expected",
        message: "",
        message_expression: "\"static string\"",
        cost_budget: 300,
        per_call_limit: 0,
        expected_err: "static string",
        expected_remaining: 300,
    },
    MessageCase {
        name: "messageExpression takes precedence over message",
        message: "invisible",
        message_expression: "\"this is messageExpression\"",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "this is messageExpression",
        expected_remaining: 0,
    },
    MessageCase {
        name: "default rule message used if messageExpression does not eval to string",
        message: "",
        message_expression: "true",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "failed rule",
        expected_remaining: 10000000,
    },
    MessageCase {
        name: "limit exceeded",
        message: "",
        message_expression: "\"string 1\" + \"string 2\" + \"string 3\"",
        cost_budget: 1,
        per_call_limit: 0,
        expected_err: "messageExpression evaluation failed due to running out of cost budget",
        expected_remaining: -1,
    },
    MessageCase {
        name: "messageExpression budget (str concat)",
        message: "",
        message_expression: "\"str1 \" + self.str",
        cost_budget: 50,
        per_call_limit: 0,
        expected_err: "str1 a string",
        expected_remaining: 46,
    },
    MessageCase {
        name: "runtime cost preserved if messageExpression fails during evaluation",
        message: "message not messageExpression",
        message_expression: "\"str1 \" + [\"a\", \"b\", \"c\", \"d\"][4]",
        cost_budget: 50,
        per_call_limit: 0,
        expected_err: "message not messageExpression",
        expected_remaining: 47,
    },
    MessageCase {
        name: "runtime cost preserved if messageExpression fails during evaluation (no message set)",
        message: "",
        message_expression: "\"str1 \" + [\"a\", \"b\", \"c\", \"d\"][4]",
        cost_budget: 50,
        per_call_limit: 0,
        expected_err: "failed rule",
        expected_remaining: 47,
    },
    MessageCase {
        name: "per-call limit exceeded during messageExpression execution",
        message: "",
        message_expression: "\"string 1\" + \"string 2\" + \"string 3\"",
        cost_budget: 10000000,
        per_call_limit: 1,
        expected_err: "call cost exceeds limit for messageExpression",
        expected_remaining: -1,
    },
    MessageCase {
        name: "messageExpression is not allowed to generate a string with newlines",
        message: "message not messageExpression",
        message_expression: "\"str with \\na newline\"",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "message not messageExpression",
        expected_remaining: 0,
    },
    MessageCase {
        name: "messageExpression is not allowed to generate messages >5000 characters",
        message: "message not messageExpression",
        message_expression: "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "message not messageExpression",
        expected_remaining: 0,
    },
    MessageCase {
        name: "messageExpression is not allowed to generate an empty string",
        message: "message not messageExpression",
        message_expression: "string(\"\")",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "message not messageExpression",
        expected_remaining: 0,
    },
    MessageCase {
        name: "messageExpression is not allowed to generate a string with only spaces",
        message: "message not messageExpression",
        message_expression: "string(\"     \")",
        cost_budget: 10000000,
        per_call_limit: 0,
        expected_err: "message not messageExpression",
        expected_remaining: 0,
    },
];
const RATCHETING: &[RatchetCase] = &[
    RatchetCase {
        name: "normal CEL expression",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"bar\\\"\",\"message\":\"gotta be bar\"}]}}}",
        old: Some("{\"foo\":\"baz\"}"),
        new: "{\"foo\":\"baz\"}",
        errors: &[],
        warnings: &["root.foo: Invalid value: \"baz\": gotta be bar"],
        budget: 0,
    },
    RatchetCase {
        name: "normal CEL expression thats a descendent of an atomic array whose parent is totally unchanged",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}}",
        old: Some("[{\"bar\":\"bar\"}]"),
        new: "[{\"bar\":\"bar\"}]",
        errors: &[],
        warnings: &["root[0].bar: Invalid value: \"bar\": gotta be baz"],
        budget: 0,
    },
    RatchetCase {
        name: "normal CEL expression thats a descendent of a set whose parent is totally unchanged",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"number\",\"x-kubernetes-validations\":[{\"rule\":\"int(self) % 2 == 1\",\"message\":\"gotta be odd\"}]}}",
        old: Some("[1,2]"),
        new: "[1,2]",
        errors: &[],
        warnings: &["root[1]: Invalid value: 2: gotta be odd"],
        budget: 0,
    },
    RatchetCase {
        name: "normal CEL expression thats a descendent of a set and one of its siblings has changed",
        schema: "{\"type\":\"object\",\"properties\":{\"stringField\":{\"type\":\"string\"},\"setArray\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"set\",\"items\":{\"type\":\"number\",\"x-kubernetes-validations\":[{\"rule\":\"int(self) % 2 == 1\",\"message\":\"gotta be odd\"}]}}}}",
        old: Some("{\"stringField\":\"foo\",\"setArray\":[1,3,2]}"),
        new: "{\"stringField\":\"changed but ratcheted\",\"setArray\":[1,3,2]}",
        errors: &[],
        warnings: &["root.setArray[2]: Invalid value: 2: gotta be odd"],
        budget: 0,
    },
    RatchetCase {
        name: "descendent of a map list whose parent is unchanged",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"key\"],\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"value\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}}",
        old: Some("[{\"key\":\"foo\",\"value\":\"notbaz\"},{\"key\":\"bar\",\"value\":\"notbaz\"}]"),
        new: "[{\"key\":\"foo\",\"value\":\"notbaz\"},{\"key\":\"bar\",\"value\":\"notbaz\"},{\"key\":\"baz\",\"value\":\"baz\"}]",
        errors: &[],
        warnings: &[
            "root[0].value: Invalid value: \"notbaz\": gotta be baz",
            "root[1].value: Invalid value: \"notbaz\": gotta be baz",
        ],
        budget: 0,
    },
    RatchetCase {
        name: "descendent of a map list whose siblings have changed",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"key\"],\"items\":{\"type\":\"object\",\"properties\":{\"key\":{\"type\":\"string\"},\"value\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}}",
        old: Some("[{\"key\":\"foo\",\"value\":\"notbaz\"},{\"key\":\"bar\",\"value\":\"notbaz\"}]"),
        new: "[{\"key\":\"foo\",\"value\":\"baz\"},{\"key\":\"bar\",\"value\":\"notbaz\"}]",
        errors: &[],
        warnings: &["root[1].value: Invalid value: \"notbaz\": gotta be baz"],
        budget: 0,
    },
    RatchetCase {
        name: "descendent of a map whose parent is totally unchanged",
        schema: "{\"type\":\"object\",\"properties\":{\"stringField\":{\"type\":\"string\"},\"mapField\":{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]},\"mapField\":{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be nested baz\"}]}}}}}}}",
        old: Some("{\"stringField\":\"foo\",\"mapField\":{\"foo\":\"notbaz\",\"mapField\":{\"bar\":\"notbaz\"}}}"),
        new: "{\"stringField\":\"foo\",\"mapField\":{\"foo\":\"notbaz\",\"mapField\":{\"bar\":\"notbaz\"}}}",
        errors: &[],
        warnings: &[
            "root.mapField.foo: Invalid value: \"notbaz\": gotta be baz",
            "root.mapField.mapField.bar: Invalid value: \"notbaz\": gotta be nested baz",
        ],
        budget: 0,
    },
    RatchetCase {
        name: "descendent of a map whose siblings have changed",
        schema: "{\"type\":\"object\",\"properties\":{\"stringField\":{\"type\":\"string\"},\"mapField\":{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]},\"mapField\":{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]},\"otherBar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"otherBaz\\\"\",\"message\":\"gotta be otherBaz\"}]}}}}}}}",
        old: Some(
            "{\"stringField\":\"foo\",\"mapField\":{\"foo\":\"baz\",\"mapField\":{\"bar\":\"notbaz\",\"otherBar\":\"nototherBaz\"}}}",
        ),
        new: "{\"stringField\":\"foo\",\"mapField\":{\"foo\":\"notbaz\",\"mapField\":{\"bar\":\"notbaz\",\"otherBar\":\"otherBaz\"}}}",
        errors: &["root.mapField.foo: Invalid value: \"notbaz\": gotta be baz"],
        warnings: &["root.mapField.mapField.bar: Invalid value: \"notbaz\": gotta be baz"],
        budget: 0,
    },
    RatchetCase {
        name: "normal CEL expression thats a descendent of an atomic array whose siblings has changed",
        schema: "{\"type\":\"object\",\"properties\":{\"stringField\":{\"type\":\"string\"},\"atomicArray\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}}}}",
        old: Some("{\"stringField\":\"foo\",\"atomicArray\":[{\"bar\":\"bar\"}]}"),
        new: "{\"stringField\":\"changed but ratcheted\",\"atomicArray\":[{\"bar\":\"bar\"}]}",
        errors: &[],
        warnings: &["root.atomicArray[0].bar: Invalid value: \"bar\": gotta be baz"],
        budget: 0,
    },
    RatchetCase {
        name: "we can't ratchet a normal CEL expression from an uncorrelatable part of the schema whose parent nodes has changed",
        schema: "{\"type\":\"array\",\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"type\":\"object\",\"properties\":{\"bar\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}}",
        old: Some("[{\"bar\":\"bar\"}]"),
        new: "[{\"bar\":\"bar\"},{\"bar\":\"baz\"}]",
        errors: &["root[0].bar: Invalid value: \"bar\": gotta be baz"],
        warnings: &[],
        budget: 0,
    },
    RatchetCase {
        name: "transition rules never ratchet for correlatable schemas",
        schema: "{\"type\":\"object\",\"properties\":{\"foo\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"oldSelf != \\\"bar\\\" && self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}}}",
        old: Some("{\"foo\":\"bar\"}"),
        new: "{\"foo\":\"bar\"}",
        errors: &["root.foo: Invalid value: \"bar\": gotta be baz"],
        warnings: &[],
        budget: 0,
    },
    RatchetCase {
        name: "changing field path does not change ratcheting logic",
        schema: "{\"type\":\"object\",\"x-kubernetes-validations\":[{\"rule\":\"self.foo == \\\"baz\\\"\",\"message\":\"gotta be baz\",\"fieldPath\":\".foo\"}],\"properties\":{\"bar\":{\"type\":\"string\"},\"foo\":{\"type\":\"string\"}}}",
        old: Some("{\"foo\":\"bar\"}"),
        new: "{\"foo\":\"bar\",\"bar\":\"invalid\"}",
        errors: &["root.foo: Invalid value: gotta be baz"],
        warnings: &[],
        budget: 0,
    },
    RatchetCase {
        name: "cost budget errors are not ratcheted",
        schema: "{\"type\":\"string\",\"minLength\":5,\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"baz\\\"\",\"message\":\"gotta be baz\"}]}",
        old: Some("\"unchanged\""),
        new: "\"unchanged\"",
        errors: &["validation failed due to running out of cost budget, no further validation rules will be run"],
        warnings: &[],
        budget: 1,
    },
    RatchetCase {
        name: "compile errors are not ratcheted",
        schema: "{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"asdausidyhASDNJm\",\"message\":\"gotta be baz\"}]}",
        old: Some("\"unchanged\""),
        new: "\"unchanged\"",
        errors: &[
            "rule compile error: compilation failed: ERROR: <input>:1:1: undeclared reference to 'asdausidyhASDNJm'",
        ],
        warnings: &[],
        budget: 0,
    },
    RatchetCase {
        name: "typemeta fields are not ratcheted",
        schema: "{\"type\":\"object\",\"properties\":{\"apiVersion\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"v1\\\"\"}]},\"kind\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"Pod\\\"\"}]}}}",
        old: Some("{\"apiVersion\":\"v2\",\"kind\":\"Baz\"}"),
        new: "{\"apiVersion\":\"v2\",\"kind\":\"Baz\"}",
        errors: &[
            "root.apiVersion: Invalid value: \"v2\": failed rule: self == \"v1\"",
            "root.kind: Invalid value: \"Baz\": failed rule: self == \"Pod\"",
        ],
        warnings: &[],
        budget: 0,
    },
    RatchetCase {
        name: "nested typemeta fields may still be ratcheted",
        schema: "{\"type\":\"object\",\"properties\":{\"list\":{\"type\":\"array\",\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],\"maxItems\":2,\"items\":{\"type\":\"object\",\"properties\":{\"name\":{\"type\":\"string\"},\"apiVersion\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"v1\\\"\"}]},\"kind\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"Pod\\\"\"}]}}}},\"subField\":{\"type\":\"object\",\"properties\":{\"apiVersion\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"v1\\\"\"}]},\"kind\":{\"type\":\"string\",\"x-kubernetes-validations\":[{\"rule\":\"self == \\\"Pod\\\"\"}]},\"otherField\":{\"type\":\"string\"}}}}}",
        old: Some(
            "{\"subField\":{\"apiVersion\":\"v2\",\"kind\":\"Baz\"},\"list\":[{\"name\":\"entry1\",\"apiVersion\":\"v2\",\"kind\":\"Baz\"},{\"name\":\"entry2\",\"apiVersion\":\"v3\",\"kind\":\"Bar\"}]}",
        ),
        new: "{\"subField\":{\"apiVersion\":\"v2\",\"kind\":\"Baz\",\"otherField\":\"newValue\"},\"list\":[{\"name\":\"entry1\",\"apiVersion\":\"v2\",\"kind\":\"Baz\",\"otherField\":\"newValue2\"},{\"name\":\"entry2\",\"apiVersion\":\"v3\",\"kind\":\"Bar\",\"otherField\":\"newValue3\"}]}",
        errors: &[],
        warnings: &[
            "root.subField.apiVersion: Invalid value: \"v2\": failed rule: self == \"v1\"",
            "root.subField.kind: Invalid value: \"Baz\": failed rule: self == \"Pod\"",
            "root.list[0].apiVersion: Invalid value: \"v2\": failed rule: self == \"v1\"",
            "root.list[0].kind: Invalid value: \"Baz\": failed rule: self == \"Pod\"",
            "root.list[1].apiVersion: Invalid value: \"v3\": failed rule: self == \"v1\"",
            "root.list[1].kind: Invalid value: \"Bar\": failed rule: self == \"Pod\"",
        ],
        budget: 0,
    },
];
const LIB_IP: &[LibCase] = &[
    LibCase {
        name: "parse ipv4",
        expr: "ip(\"192.168.0.1\")",
        expect: Some("ip(\"192.168.0.1\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse invalid ipv4",
        expr: "ip(\"192.168.0.1.0\")",
        expect: None,
        runtime_err: "IP Address \"192.168.0.1.0\" parse error during conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 address too long",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isIP valid ipv4",
        expr: "isIP(\"192.168.0.1\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isIP invalid ipv4",
        expr: "isIP(\"192.168.0.1.0\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ip.isCanonical valid ipv4",
        expr: "ip.isCanonical(\"127.0.0.1\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ip.isCanonical invalid ipv4",
        expr: "ip.isCanonical(\"127.0.0.1.0\")",
        expect: None,
        runtime_err: "IP Address \"127.0.0.1.0\" parse error during conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 address too long",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 family",
        expr: "ip(\"192.168.0.1\").family()",
        expect: Some("4"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isUnspecified true",
        expr: "ip(\"0.0.0.0\").isUnspecified()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isUnspecified false",
        expr: "ip(\"127.0.0.1\").isUnspecified()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLoopback true",
        expr: "ip(\"127.0.0.1\").isLoopback()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLoopback false",
        expr: "ip(\"1.2.3.4\").isLoopback()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLinkLocalMulticast true",
        expr: "ip(\"224.0.0.1\").isLinkLocalMulticast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLinkLocalMulticast false",
        expr: "ip(\"224.0.1.1\").isLinkLocalMulticast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLinkLocalUnicast true",
        expr: "ip(\"169.254.169.254\").isLinkLocalUnicast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isLinkLocalUnicast false",
        expr: "ip(\"192.168.0.1\").isLinkLocalUnicast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isGlobalUnicast true",
        expr: "ip(\"192.168.0.1\").isGlobalUnicast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv4 isGlobalUnicast false",
        expr: "ip(\"255.255.255.255\").isGlobalUnicast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse ipv6",
        expr: "ip(\"2001:db8::68\")",
        expect: Some("ip(\"2001:db8::68\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse invalid ipv6",
        expr: "ip(\"2001:db8:::68\")",
        expect: None,
        runtime_err: "IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isIP valid ipv6",
        expr: "isIP(\"2001:db8::68\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isIP invalid ipv4",
        expr: "isIP(\"2001:db8:::68\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ip.isCanonical valid ipv6",
        expr: "ip.isCanonical(\"2001:db8::68\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ip.isCanonical non-canonical ipv6",
        expr: "ip.isCanonical(\"2001:DB8::68\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ip.isCanonical invalid ipv6",
        expr: "ip.isCanonical(\"2001:db8:::68\")",
        expect: None,
        runtime_err: "IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each colon-separated field must have at least one digit (at \":68\")",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 family",
        expr: "ip(\"2001:db8::68\").family()",
        expect: Some("6"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isUnspecified true",
        expr: "ip(\"::\").isUnspecified()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isUnspecified false",
        expr: "ip(\"::1\").isUnspecified()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLoopback true",
        expr: "ip(\"::1\").isLoopback()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLoopback false",
        expr: "ip(\"2001:db8::abcd\").isLoopback()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLinkLocalMulticast true",
        expr: "ip(\"ff02::1\").isLinkLocalMulticast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLinkLocalMulticast false",
        expr: "ip(\"fd00::1\").isLinkLocalMulticast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLinkLocalUnicast true",
        expr: "ip(\"fe80::1\").isLinkLocalUnicast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isLinkLocalUnicast false",
        expr: "ip(\"fd80::1\").isLinkLocalUnicast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isGlobalUnicast true",
        expr: "ip(\"2001:db8::abcd\").isGlobalUnicast()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "ipv6 isGlobalUnicast false",
        expr: "ip(\"ff00::1\").isGlobalUnicast()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "passing cidr into isIP returns compile error",
        expr: "isIP(cidr(\"192.168.0.0/24\"))",
        expect: None,
        runtime_err: "",
        compile_errs: &["found no matching overload for 'isIP' applied to '\\(net.CIDR\\)'"],
        version: 0,
    },
    LibCase {
        name: "converting an IP address to a string",
        expr: "string(ip(\"192.168.0.1\"))",
        expect: Some("\"192.168.0.1\""),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "type of IP is net.IP",
        expr: "type(ip(\"192.168.0.1\")) == net.IP",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
];
const LIB_CIDR: &[LibCase] = &[
    LibCase {
        name: "parse ipv4",
        expr: "cidr(\"192.168.0.0/24\")",
        expect: Some("cidr(\"192.168.0.0/24\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse invalid ipv4",
        expr: "cidr(\"192.168.0.0/\")",
        expect: None,
        runtime_err: "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\"",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains IP ipv4 (IP)",
        expr: "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.0.1\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv4 (IP)",
        expr: "cidr(\"192.168.0.0/24\").containsIP(ip(\"192.168.1.1\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains IP ipv4 (string)",
        expr: "cidr(\"192.168.0.0/24\").containsIP(\"192.168.0.1\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv4 (string)",
        expr: "cidr(\"192.168.0.0/24\").containsIP(\"192.168.1.1\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains CIDR ipv4 (CIDR)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/25\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains CIDR ipv4 (CIDR) (/32)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.1/32\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv4 (CIDR)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.168.0.0/23\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv4 (CIDR) (/32)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(cidr(\"192.169.0.1/32\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains CIDR ipv4 (string)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/25\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain CIDR ipv4 (string)",
        expr: "cidr(\"192.168.0.0/24\").containsCIDR(\"192.168.0.0/23\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "returns IP ipv4",
        expr: "cidr(\"192.168.0.0/24\").ip()",
        expect: Some("ip(\"192.168.0.0\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "masks masked ipv4",
        expr: "cidr(\"192.168.0.0/24\").masked()",
        expect: Some("cidr(\"192.168.0.0/24\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "masks unmasked ipv4",
        expr: "cidr(\"192.168.0.1/24\").masked()",
        expect: Some("cidr(\"192.168.0.0/24\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "returns prefix length ipv4",
        expr: "cidr(\"192.168.0.0/24\").prefixLength()",
        expect: Some("24"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse ipv6",
        expr: "cidr(\"2001:db8::/32\")",
        expect: Some("cidr(\"2001:db8::/32\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parse invalid ipv6",
        expr: "cidr(\"2001:db8::/\")",
        expect: None,
        runtime_err: "network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix(\"2001:db8::/\"): bad bits after slash: \"\"",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains IP ipv6 (IP)",
        expr: "cidr(\"2001:db8::/32\").containsIP(ip(\"2001:db8::1\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv6 (IP)",
        expr: "cidr(\"2001:db8::/32\").containsIP(ip(\"2001:dc8::1\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains IP ipv6 (string)",
        expr: "cidr(\"2001:db8::/32\").containsIP(\"2001:db8::1\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv6 (string)",
        expr: "cidr(\"2001:db8::/32\").containsIP(\"2001:dc8::1\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains CIDR ipv6 (CIDR)",
        expr: "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/33\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain IP ipv6 (CIDR)",
        expr: "cidr(\"2001:db8::/32\").containsCIDR(cidr(\"2001:db8::/31\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "contains CIDR ipv6 (string)",
        expr: "cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/33\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "does not contain CIDR ipv6 (string)",
        expr: "cidr(\"2001:db8::/32\").containsCIDR(\"2001:db8::/31\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "returns IP ipv6",
        expr: "cidr(\"2001:db8::/32\").ip()",
        expect: Some("ip(\"2001:db8::\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "masks masked ipv6",
        expr: "cidr(\"2001:db8::/32\").masked()",
        expect: Some("cidr(\"2001:db8::/32\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "masks unmasked ipv6",
        expr: "cidr(\"2001:db8:1::/32\").masked()",
        expect: Some("cidr(\"2001:db8::/32\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "returns prefix length ipv6",
        expr: "cidr(\"2001:db8::/32\").prefixLength()",
        expect: Some("32"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "converting a CIDR to a string",
        expr: "string(cidr(\"192.168.0.0/24\"))",
        expect: Some("\"192.168.0.0/24\""),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "type of CIDR is net.CIDR",
        expr: "type(cidr(\"192.168.0.0/24\")) == net.CIDR",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
];
const LIB_QUANTITY: &[LibCase] = &[
    LibCase {
        name: "parse",
        expr: "quantity(\"12Mi\")",
        expect: Some("quantity(\"12Mi\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parseInvalidSuffix",
        expr: "quantity(\"10Mo\")",
        expect: None,
        runtime_err: "quantities must match the regular expression.*",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parseInvalidSuffixPassesRegex",
        expr: "quantity(\"10Mm\")",
        expect: None,
        runtime_err: "unable to parse quantity's suffix",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity",
        expr: "isQuantity(\"20\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity_megabytes",
        expr: "isQuantity(\"20M\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity_mebibytes",
        expr: "isQuantity(\"20Mi\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity_invalidSuffix",
        expr: "isQuantity(\"20Mo\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity_passingRegex",
        expr: "isQuantity(\"10Mm\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isQuantity_noOverload",
        expr: "isQuantity([1, 2, 3])",
        expect: None,
        runtime_err: "",
        compile_errs: &["found no matching overload for 'isQuantity' applied to.*"],
        version: 0,
    },
    LibCase {
        name: "equality_reflexivity",
        expr: "quantity(\"200M\") == quantity(\"200M\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "equality_symmetry",
        expr: "quantity(\"200M\") == quantity(\"0.2G\") && quantity(\"0.2G\") == quantity(\"200M\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "equality_transitivity",
        expr: "quantity(\"2M\") == quantity(\"0.002G\") && quantity(\"2000k\") == quantity(\"2M\") && quantity(\"0.002G\") == quantity(\"2000k\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "inequality",
        expr: "quantity(\"200M\") == quantity(\"0.3G\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_less",
        expr: "quantity(\"50M\").isLessThan(quantity(\"50Mi\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_less_obvious",
        expr: "quantity(\"50M\").isLessThan(quantity(\"100M\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_less_false",
        expr: "quantity(\"100M\").isLessThan(quantity(\"50M\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_greater",
        expr: "quantity(\"50Mi\").isGreaterThan(quantity(\"50M\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_greater_obvious",
        expr: "quantity(\"150Mi\").isGreaterThan(quantity(\"100Mi\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "quantity_greater_false",
        expr: "quantity(\"50M\").isGreaterThan(quantity(\"100M\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_equal",
        expr: "quantity(\"200M\").compareTo(quantity(\"0.2G\"))",
        expect: Some("0"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_less",
        expr: "quantity(\"50M\").compareTo(quantity(\"50Mi\"))",
        expect: Some("-1"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_greater",
        expr: "quantity(\"50Mi\").compareTo(quantity(\"50M\"))",
        expect: Some("1"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "add_quantity",
        expr: "quantity(\"50k\").add(quantity(\"20\")) == quantity(\"50.02k\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "add_int",
        expr: "quantity(\"50k\").add(20).isLessThan(quantity(\"50020\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "sub_quantity",
        expr: "quantity(\"50k\").sub(quantity(\"20\")) == quantity(\"49.98k\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "sub_int",
        expr: "quantity(\"50k\").sub(20) == quantity(\"49980\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "arith_chain_1",
        expr: "quantity(\"50k\").add(20).sub(quantity(\"100k\")).asInteger()",
        expect: Some("-49980"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "arith_chain",
        expr: "quantity(\"50k\").add(20).sub(quantity(\"100k\")).sub(-50000).asInteger()",
        expect: Some("20"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "as_integer",
        expr: "quantity(\"50k\").asInteger()",
        expect: Some("50000"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "as_integer_error",
        expr: "quantity(\"9999999999999999999999999999999999999G\").asInteger()",
        expect: None,
        runtime_err: "cannot convert value to integer",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "is_integer",
        expr: "quantity(\"9999999999999999999999999999999999999G\").isInteger()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "is_integer",
        expr: "quantity(\"50\").isInteger()",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "as_float",
        expr: "quantity(\"50.703k\").asApproximateFloat()",
        expect: Some("50703.0"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "add_does_not_mutate_receiver",
        expr: "[quantity(\"9999999999999999999999999999999999999\")].all(x, x.add(quantity(\"1\")).compareTo(x.add(quantity(\"2\"))) == -1)",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
];
const LIB_SEMVER: &[LibCase] = &[
    LibCase {
        name: "parse",
        expr: "semver(\"1.2.3\")",
        expect: Some("semver(\"1.2.3\")"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "parseInvalidVersion",
        expr: "semver(\"v1.0\")",
        expect: None,
        runtime_err: "No Major.Minor.Patch elements found",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver",
        expr: "isSemver(\"1.2.3-beta.1+build.1\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_empty_false",
        expr: "isSemver(\"\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_v_prefix_false",
        expr: "isSemver(\"v1.0.0\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_v_leading_whitespace_false",
        expr: "isSemver(\" 1.0.0\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_v_contains_whitespace_false",
        expr: "isSemver(\"1. 0.0\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_v_trailing_whitespace_false",
        expr: "isSemver(\"1.0.0 \")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_leading_zeros_false",
        expr: "isSemver(\"01.01.01\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_major_only_false",
        expr: "isSemver(\"1\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_major_minor_only_false",
        expr: "isSemver(\"1.1\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "isSemver_empty_normalize_false",
        expr: "isSemver(\"\", true)",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_v_leading_whitespace_normalize_false",
        expr: "isSemver(\" 1.0.0\", true)",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_v_contains_whitespace_normalize_false",
        expr: "isSemver(\"1. 0.0\", true)",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_v_trailing_whitespace_normalize_false",
        expr: "isSemver(\"1.0.0 \", true)",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_v_prefix_normalize_true",
        expr: "isSemver(\"v1.0.0\", true)",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_leading_zeros_normalize_true",
        expr: "isSemver(\"01.01.01\", true)",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_major_only_normalize_true",
        expr: "isSemver(\"1\", true)",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_major_minor_only_normalize_true",
        expr: "isSemver(\"1.1\", true)",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "isSemver_noOverload",
        expr: "isSemver([1, 2, 3])",
        expect: None,
        runtime_err: "",
        compile_errs: &["found no matching overload for 'isSemver' applied to.*"],
        version: 0,
    },
    LibCase {
        name: "equality_normalize",
        expr: "semver(\"v01.01\", true) == semver(\"1.1.0\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 1,
    },
    LibCase {
        name: "equality_reflexivity",
        expr: "semver(\"1.2.3\") == semver(\"1.2.3\")",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "inequality",
        expr: "semver(\"1.2.3\") == semver(\"1.0.0\")",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "semver_less",
        expr: "semver(\"1.0.0\").isLessThan(semver(\"1.2.3\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "semver_less_false",
        expr: "semver(\"1.0.0\").isLessThan(semver(\"1.0.0\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "semver_greater",
        expr: "semver(\"1.2.3\").isGreaterThan(semver(\"1.0.0\"))",
        expect: Some("true"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "semver_greater_false",
        expr: "semver(\"1.0.0\").isGreaterThan(semver(\"1.0.0\"))",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_equal",
        expr: "semver(\"1.2.3\").compareTo(semver(\"1.2.3\"))",
        expect: Some("0"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_less",
        expr: "semver(\"1.0.0\").compareTo(semver(\"1.2.3\"))",
        expect: Some("-1"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "compare_greater",
        expr: "semver(\"1.2.3\").compareTo(semver(\"1.0.0\"))",
        expect: Some("1"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "major",
        expr: "semver(\"1.2.3\").major()",
        expect: Some("1"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "minor",
        expr: "semver(\"1.2.3\").minor()",
        expect: Some("2"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "patch",
        expr: "semver(\"1.2.3\").patch()",
        expect: Some("3"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
];
const LIB_FORMAT: &[LibCase] = &[
    LibCase {
        name: "example_usage_dns1123Label",
        expr: "format.dns1123Label().validate(\"my-label-name\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_dns1123Subdomain",
        expr: "format.dns1123Subdomain().validate(\"apiextensions.k8s.io\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_qualifiedName",
        expr: "format.qualifiedName().validate(\"apiextensions.k8s.io/v1beta1\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_dns1123LabelPrefix",
        expr: "format.dns1123LabelPrefix().validate(\"my-label-prefix-\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_dns1123SubdomainPrefix",
        expr: "format.dns1123SubdomainPrefix().validate(\"mysubdomain.prefix.-\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_dns1035LabelPrefix",
        expr: "format.dns1035LabelPrefix().validate(\"my-label-prefix-\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_uri",
        expr: "format.uri().validate(\"http://example.com\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_uuid",
        expr: "format.uuid().validate(\"123e4567-e89b-12d3-a456-426614174000\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_byte",
        expr: "format.byte().validate(\"aGVsbG8=\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_date",
        expr: "format.date().validate(\"2021-01-01\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "example_usage_datetime",
        expr: "format.datetime().validate(\"2021-01-01T00:00:00Z\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123Label",
        expr: "format.dns1123Label().validate(\"contains a space\")",
        expect: Some(
            "optional.of([\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123Subdomain",
        expr: "format.dns1123Subdomain().validate(\"contains a space\")",
        expect: Some(
            "optional.of([\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1035Label",
        expr: "format.dns1035Label().validate(\"contains a space\")",
        expect: Some(
            "optional.of([\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "qualifiedName",
        expr: "format.qualifiedName().validate(\"contains a space\")",
        expect: Some(
            "optional.of([\"name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123LabelPrefix",
        expr: "format.dns1123LabelPrefix().validate(\"contains a space-\")",
        expect: Some(
            "optional.of([\"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123SubdomainPrefix",
        expr: "format.dns1123SubdomainPrefix().validate(\"contains a space-\")",
        expect: Some(
            "optional.of([\"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1035LabelPrefix",
        expr: "format.dns1035LabelPrefix().validate(\"contains a space-\")",
        expect: Some(
            "optional.of([\"a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123Label_Success",
        expr: "format.dns1123Label().validate(\"my-label-name\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1123Subdomain_Success",
        expr: "format.dns1123Subdomain().validate(\"example.com\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "dns1035Label_Success",
        expr: "format.dns1035Label().validate(\"my-label-name\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "qualifiedName_Success",
        expr: "format.qualifiedName().validate(\"my.name\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "byte_success",
        expr: "format.byte().validate(\"aGVsbG8=\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "byte_failure",
        expr: "format.byte().validate(\"aGVsbG8\")",
        expect: Some("optional.of([\"invalid base64\"])"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "date_success",
        expr: "format.date().validate(\"2020-01-01\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "date_failure",
        expr: "format.date().validate(\"2020-01-32\")",
        expect: Some("optional.of([\"invalid date\"])"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "datetime_success",
        expr: "format.datetime().validate(\"2020-01-01T00:00:00Z\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "datetime_failure",
        expr: "format.datetime().validate(\"2020-01-32T00:00:00Z\")",
        expect: Some("optional.of([\"invalid datetime\"])"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "unknown_format",
        expr: "format.named(\"unknown\").hasValue()",
        expect: Some("false"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "labelValue_success",
        expr: "format.labelValue().validate(\"my-cool-label-Value\")",
        expect: Some("optional.none()"),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
    LibCase {
        name: "labelValue_failure",
        expr: "format.labelValue().validate(\"my-cool-label-Value!!\\n\\n!!!\")",
        expect: Some(
            "optional.of([\"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\"])",
        ),
        runtime_err: "",
        compile_errs: &[],
        version: 0,
    },
];
