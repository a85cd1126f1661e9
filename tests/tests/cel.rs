//! kstruct's CEL syntax checker against the `cel` crate's ANTLR parser (cel-go's grammar,
//! with Kubernetes' optional syntax): the same verdict on hand-picked expressions, on every
//! rule of the corpus CRDs, and on random edits of valid expressions.

use kstruct::cel;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::Value;

fn reference(expr: &str) -> bool {
    ::cel::parser::Parser::new()
        .enable_optional_syntax(true)
        .parse(expr)
        .is_ok()
}

const SEEDS: &[&str] = &[
    "self.replicas <= self.maxReplicas",
    "has(self.a) || self.b > 0",
    "self.all(x, x.name.startsWith('a'))",
    "self.?foo.orValue(1) > 0",
    "a ? b : c",
    "self.map(k, self[k] > 0)",
    "[1,2,3].exists(x, x > 2)",
    r#""a\"b" + 'c'"#,
    "!has(oldSelf.x) || self.x == oldSelf.x",
    "self[?'k'].orValue('') != ''",
    "[?self.?a, 1].size() > 0",
    "{?'k': self.?a}.size() >= 0",
    "self.exists_one(x, x == 1) && self.filter(x, x > 1).size() == 0",
    "'must be ' + string(self.x) + \"\\n\\t\\u00e9\\x41\\101\"",
    "r'raw\\d' + '''triple\n''' + b'\\xff'.size()",
    "self.x in [1u, 0x1F, -2, 3.5e-1]",
    "self.s.matches('^[a-z]+$') // a comment\n && size(self.l) < 10",
    "{'a': 1}.a == 1 && google.protobuf.Timestamp{seconds: 1} != null",
    "-9223372036854775808 < 0 && .5 + 1e3 > 0.0",
    "Msg{?a: x, b: 1,} == Msg{}",
];

#[test]
fn the_same_verdict_on_hand_picked_expressions() {
    for e in SEEDS {
        assert!(reference(e), "the reference refuses {e:?}");
        assert!(cel::check(e).is_ok(), "{e:?}: {}", cel::check(e).unwrap_err());
    }
    for e in [
        "self.x ==",
        "'unterminated",
        "has(self)",
        "self.all(1, true)",
        "'\\q'",
        "1 + ",
        "(a",
        "a && || b",
        "a b",
        "self..a",
        "self.?",
        "if > 1",
        "f(a,)",
        "1 (2)",
        "self.?a(1)",
        "has(self.?a)",
        "9223372036854775808",
        "1e400",
        "a = b",
        "b'\\u0041'",
    ] {
        assert!(!reference(e), "the reference accepts {e:?}");
        assert!(cel::check(e).is_err(), "{e:?} should not parse");
    }
}

/// Every `rule` and `messageExpression` in the corpus CRDs.
#[test]
fn every_rule_of_the_corpus_parses() {
    let Some(shared) = kstruct_tests::require_shared("CEL rules of the corpus CRDs") else {
        return;
    };
    let mut rules = Vec::new();
    let dir = shared.join("corpus/crds");
    let mut files: Vec<_> = walk(&dir);
    files.sort();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for doc in kstruct::input::read_documents(text.as_bytes(), &f.display().to_string()) {
            if let Ok(v) = doc.value {
                collect(&v, &mut rules);
            }
        }
    }
    assert!(rules.len() > 100, "only {} rules found", rules.len());
    let mut mismatches = Vec::new();
    for r in &rules {
        let ours = cel::check(r).is_ok();
        if ours != reference(r) {
            mismatches.push(format!("{r:?}: ours {ours}, reference {}", !ours));
        }
    }
    kstruct_tests::announce(&format!(
        "CEL: {} corpus rules and message expressions, {} disagreements with the reference parser",
        rules.len(),
        mismatches.len()
    ));
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml" || x == "json") {
            out.push(p);
        }
    }
    out
}

fn collect(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::Array(rules)) = m.get("x-kubernetes-validations") {
                for r in rules {
                    for key in ["rule", "messageExpression"] {
                        if let Some(Value::String(s)) = r.get(key) {
                            out.push(s.clone());
                        }
                    }
                }
            }
            m.values().for_each(|x| collect(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
        _ => {}
    }
}

/// One or two random edits of a valid expression.
fn edited() -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = "()[]{}.,?:!'\"\\ab1+-*/<>=&|_ \nxyz0u`r".chars().collect();
    (
        prop::sample::select(SEEDS),
        prop::collection::vec(
            (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(alphabet)),
            1..3,
        ),
    )
        .prop_map(|(seed, edits)| {
            let mut v: Vec<char> = seed.chars().collect();
            for (at, op, c) in edits {
                if v.is_empty() {
                    v.push('a');
                }
                let i = at.index(v.len());
                match op {
                    0 => {
                        v.remove(i);
                    }
                    1 => v.insert(i, c),
                    _ => {
                        let d = v[i];
                        v.insert(i, d);
                    }
                }
            }
            v.into_iter().collect()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_same_verdict_on_edited_expressions(e in edited()) {
        let ours = cel::check(&e);
        // The API server's environment has macros the reference parser lacks: the
        // two-variable comprehensions (`all(i, v, p)`) and lists' `sortBy`, which check their
        // variables as they expand.
        let macro_only = ours.as_ref().err().is_some_and(|err| {
            ["argument must be a simple name", "duplicate variable name", "sortBy can only be applied"]
                .iter()
                .any(|m| err.message.starts_with(m))
        });
        if !macro_only {
            prop_assert_eq!(ours.is_ok(), reference(&e), "{:?}: ours {:?}", e, ours.err().map(|e| e.to_string()));
        }
    }
}

/// Where the first error is: the same line and column as the reference's first error.
#[test]
fn the_same_position_for_most_errors() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = edited();
    let (mut errors, mut same) = (0, 0);
    let mut differ = Vec::new();
    for _ in 0..20_000 {
        let e = strategy.new_tree(&mut runner).expect("a value").current();
        let (Err(ours), Err(theirs)) = (
            cel::check(&e),
            ::cel::parser::Parser::new().enable_optional_syntax(true).parse(&e),
        ) else {
            continue;
        };
        errors += 1;
        // The reference's errors in source order (some of its internal ones carry no position).
        let first = theirs
            .errors
            .iter()
            .filter(|t| {
                t.msg.starts_with("Syntax error")
                    || t.msg.starts_with("reserved")
                    || t.msg.contains("macro")
                    || t.msg.contains("simple name")
                    || t.msg.contains("invalid")
            })
            .map(|t| t.pos)
            .min()
            .unwrap_or((0, 0));
        if (first.0 as usize, first.1 as usize) == (ours.position.line, ours.position.column) {
            same += 1;
        } else if differ.len() < 10 {
            differ.push(format!(
                "{e:?}: ours {}:{} {}, theirs {:?}",
                ours.position.line,
                ours.position.column,
                ours.message,
                theirs.errors.iter().map(|t| (t.pos, t.msg.clone())).collect::<Vec<_>>()
            ));
        }
    }
    kstruct_tests::announce(&format!(
        "CEL: first error at the reference's position for {same} of {errors} refused edits"
    ));
    assert!(same * 100 >= errors * 97, "{same} of {errors}:\n{}", differ.join("\n"));
}
