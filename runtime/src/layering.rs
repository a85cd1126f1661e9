//! Layer 0 (test only): the test that keeps the crate's modules in layers that only point down.
//!
//! The table of layers is the crate root's documentation ("Layers": a row per layer, its
//! modules in order): this test reads it from `lib.rs`, then reads every `crate::` and
//! `super::` path in `src/` (`use` items, inline paths, groups) and fails, naming the file, the
//! line and both modules, when one reaches a module of a higher layer, or one listed after it in
//! its own layer. Paths through the crate root's re-exports count for the module that defines
//! the item. Comments and literals are not read (a doc link may point anywhere), nor is code for
//! tests only, nor a macro's `$crate::` paths, which resolve where the macro is used.
//!
//! It reads the source as tokens, not as a syntax tree: paths are all it needs, and it keeps
//! the test at a few milliseconds with no dependency.

use std::collections::BTreeMap;
use std::path::Path;

/// A module's place in the table: its layer, and its position in the table (row by row, left
/// to right), which orders the modules of one layer: a module may use those placed before it.
#[derive(Debug, Clone, Copy)]
struct Place {
    layer: u32,
    order: usize,
}

/// The table of layers read from the crate root's documentation: rows `//! | 3 | `name` | ... |`.
fn table(lib: &str) -> Result<BTreeMap<String, Place>, String> {
    let mut places = BTreeMap::new();
    let mut last = 0;
    for (row, line) in lib.lines().enumerate() {
        let Some(rest) = line.strip_prefix("//! |") else {
            continue;
        };
        let cells: Vec<&str> = rest.split('|').map(str::trim).collect();
        let (Some(layer), Some(names)) = (cells.first(), cells.get(1)) else {
            continue;
        };
        let Ok(layer) = layer.parse::<u32>() else { continue };
        if layer < last {
            return Err(format!(
                "lib.rs:{}: the table of layers goes bottom up; layer {layer} comes after {last}",
                row + 1
            ));
        }
        last = layer;
        for name in names.split(['·', ',']) {
            let name = name.trim().trim_matches('`');
            if name.is_empty() {
                continue;
            }
            let order = places.len();
            if places.insert(name.to_string(), Place { layer, order }).is_some() {
                return Err(format!("lib.rs:{}: `{name}` is in the table of layers twice", row + 1));
            }
        }
    }
    if places.is_empty() {
        return Err("lib.rs: no table of layers (rows `//! | <layer> | `module` | what it holds |`)".into());
    }
    Ok(places)
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
}

/// The tokens of a Rust file that paths are made of, each with its line; comments, string,
/// byte and char literals and lifetimes are skipped.
fn tokens(src: &str) -> Vec<(Token, usize)> {
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                while i < chars.len() {
                    if chars[i] == '/' && at(i + 1) == '*' {
                        depth += 1;
                        i += 2;
                    } else if chars[i] == '*' && at(i + 1) == '/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                }
            }
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    }
                    line += usize::from(at(i) == '\n');
                    i += 1;
                }
                i += 1;
            }
            '\'' => {
                // A char literal ('x', '\n', '\u{1F600}') or a lifetime ('a).
                if at(i + 1) == '\\' {
                    i += 2;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                } else if at(i + 2) == '\'' {
                    i += 3;
                } else {
                    i += 1;
                }
            }
            ':' if at(i + 1) == ':' => {
                out.push((Token::PathSep, line));
                i += 2;
            }
            c if c == '_' || c.is_alphabetic() => {
                let start = i;
                while i < chars.len() && (chars[i] == '_' || chars[i].is_alphanumeric()) {
                    i += 1;
                }
                let ident: String = chars[start..i].iter().collect();
                // Raw strings (r"..", r#".."#, br#".."#): skip to the closing quote and hashes.
                if matches!(ident.as_str(), "r" | "br" | "cr")
                    && (at(i) == '"' || (at(i) == '#' && matches!(at(i + 1), '"' | '#')))
                {
                    let mut hashes = 0;
                    while at(i) == '#' {
                        hashes += 1;
                        i += 1;
                    }
                    i += 1;
                    loop {
                        if i >= chars.len() {
                            break;
                        }
                        if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                            i += 1 + hashes;
                            break;
                        }
                        line += usize::from(chars[i] == '\n');
                        i += 1;
                    }
                    continue;
                }
                if ident == "r" && at(i) == '#' {
                    // A raw identifier: r#type.
                    i += 1;
                    continue;
                }
                out.push((Token::Ident(ident), line));
            }
            c if c.is_ascii_digit() => {
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
            }
            c if c.is_whitespace() => i += 1,
            c => {
                out.push((Token::Punct(c), line));
                i += 1;
            }
        }
    }
    out
}

/// A path that leaves its module: the line, and the first name below the crate root it
/// reaches (a module, or an item the root re-exports).
#[derive(Debug, PartialEq)]
struct Reach {
    line: usize,
    name: String,
}

/// The first names of a `{ ... }` group starting at `tokens[i]` (the `{`).
fn group_heads(tokens: &[(Token, usize)], mut i: usize) -> Vec<(String, usize)> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expect_head = true;
    while let Some((token, line)) = tokens.get(i) {
        match token {
            Token::Punct('{') => {
                depth += 1;
                expect_head = depth == 1;
            }
            Token::Punct('}') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            Token::Punct(',') if depth == 1 => expect_head = true,
            Token::Ident(name) if expect_head && depth == 1 => {
                heads.push((name.clone(), *line));
                expect_head = false;
            }
            _ => {}
        }
        i += 1;
    }
    heads
}

/// What a file says of its module's place: the paths that reach past its top-level module,
/// and the names of its child modules that exist only for tests (`#[cfg(test)] mod tests;`).
#[derive(Debug, Default, PartialEq)]
struct Paths {
    reaches: Vec<Reach>,
    test_children: Vec<String>,
}

/// Whether `tokens[i..]` starts with `#[cfg(test)]`.
fn is_cfg_test(tokens: &[(Token, usize)], i: usize) -> bool {
    let want = [
        Token::Punct('#'),
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    tokens.len() >= i + want.len() && tokens[i..i + want.len()].iter().map(|(t, _)| t).eq(want.iter())
}

/// The index after the item starting at `tokens[i]`: its `;`, or the brace closing its body.
fn item_end(tokens: &[(Token, usize)], mut i: usize) -> usize {
    let mut depth = 0usize;
    while let Some((token, _)) = tokens.get(i) {
        match token {
            Token::Punct(';') if depth == 0 => return i + 1,
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// Every path in `src` that reaches past its top-level module, for a file whose module path
/// below the root is `module` (`["scan", "walk"]` for `scan/walk.rs`). Code for tests only
/// (`#[cfg(test)]` items) is not read: tests may use any layer, as they are not part of the
/// library. Nor are a macro's `$crate::` paths, which resolve where the macro is used.
fn reaches(module: &[String], src: &str) -> Paths {
    let tokens = tokens(src);
    let mut out = Vec::new();
    let mut test_children = Vec::new();
    // Inline modules: (name, brace depth inside them).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let ident = |i: usize| match tokens.get(i) {
        Some((Token::Ident(s), _)) => Some(s.as_str()),
        _ => None,
    };
    let is = |i: usize, t: &Token| tokens.get(i).map(|(x, _)| x) == Some(t);
    let push = |out: &mut Vec<Reach>, after: usize| match tokens.get(after) {
        Some((Token::Ident(name), line)) if name != "self" => out.push(Reach {
            line: *line,
            name: name.clone(),
        }),
        Some((Token::Punct('{'), _)) => out.extend(
            group_heads(&tokens, after)
                .into_iter()
                .filter(|(n, _)| n != "self")
                .map(|(name, line)| Reach { line, name }),
        ),
        _ => {}
    };
    let mut i = 0;
    while i < tokens.len() {
        if is_cfg_test(&tokens, i) {
            let item = i + 7;
            if let (Some("mod"), Some(name), true) = (ident(item), ident(item + 1), is(item + 2, &Token::Punct(';'))) {
                test_children.push(name.to_string());
            }
            i = item_end(&tokens, item);
            continue;
        }
        match &tokens[i].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Token::Ident(k) if k == "mod" => {
                if let (Some(name), true) = (ident(i + 1), is(i + 2, &Token::Punct('{'))) {
                    inline.push((name.to_string(), depth + 1));
                }
            }
            // `pub(in crate::x)` restricts visibility; it uses nothing.
            Token::Ident(k)
                if k == "crate"
                    && is(i + 1, &Token::PathSep)
                    && ident(i.wrapping_sub(1)) != Some("in")
                    && !is(i.wrapping_sub(1), &Token::Punct('$')) =>
            {
                push(&mut out, i + 2);
            }
            Token::Ident(k) if k == "super" && is(i + 1, &Token::PathSep) && ident(i.wrapping_sub(1)) != Some("in") => {
                let mut ups = 0;
                let mut j = i;
                while ident(j) == Some("super") && is(j + 1, &Token::PathSep) {
                    ups += 1;
                    j += 2;
                }
                let here = module.len() + inline.len();
                if ups >= here {
                    push(&mut out, j);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Paths {
        reaches: out,
        test_children,
    }
}

/// What the crate root re-exports (`pub use decode::{A, B as C}`): each name and the module
/// (or external crate) its path starts with.
fn root_items(lib: &str) -> BTreeMap<String, String> {
    let tokens = tokens(lib);
    let mut items = BTreeMap::new();
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i].0 == Token::Ident("use".into()) {
            let Some((Token::Ident(first), _)) = tokens.get(i + 1) else {
                i += 1;
                continue;
            };
            // Leaf names: an identifier followed by `,`, `}` or `;`, or the name after `as`.
            let mut j = i + 1;
            while let Some((token, _)) = tokens.get(j) {
                if *token == Token::Punct(';') {
                    break;
                }
                if let Token::Ident(name) = token {
                    let next = tokens.get(j + 1).map(|(t, _)| t);
                    let leaf = matches!(next, Some(Token::Punct(',' | '}' | ';')));
                    if leaf && name != "self" {
                        items.insert(name.clone(), first.clone());
                    }
                }
                j += 1;
            }
            i = j;
        }
        i += 1;
    }
    items
}

/// The module path of a file below `src/`: `scan/walk.rs` is `["scan", "walk"]`, `scan/mod.rs`
/// is `["scan"]`.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if let Some(last) = parts.last_mut() {
        *last = last.trim_end_matches(".rs").to_string();
        if last == "mod" {
            parts.pop();
        }
    }
    parts
}

/// Checks files (paths relative to `src/`, with their text) against the table in `lib`: one
/// line per path that points up, and per module the table does not place.
fn check(lib: &str, files: &[(String, String)]) -> Vec<String> {
    let places = match table(lib) {
        Ok(places) => places,
        Err(e) => return vec![e],
    };
    let roots = root_items(lib);
    let mut problems = Vec::new();
    for (name, _) in tokens(lib).windows(2).filter_map(|w| match w {
        [(Token::Ident(m), _), (Token::Ident(name), line)] if m == "mod" => Some((name.clone(), *line)),
        _ => None,
    }) {
        if !places.contains_key(&name) {
            problems.push(format!(
                "lib.rs: module `{name}` is not in the table of layers; give it a row in the crate's documentation"
            ));
        }
    }
    let read: Vec<(&String, Vec<String>, Paths)> = files
        .iter()
        .map(|(path, src)| {
            let module = module_of(Path::new(path));
            let paths = reaches(&module, src);
            (path, module, paths)
        })
        .collect();
    // Modules for tests only, and every module below them.
    let tests_only: Vec<Vec<String>> = read
        .iter()
        .flat_map(|(_, module, paths)| {
            paths.test_children.iter().map(move |child| {
                let mut m = module.clone();
                m.push(child.clone());
                m
            })
        })
        .collect();
    for (path, module, paths) in &read {
        if tests_only.iter().any(|t| module.starts_with(t)) {
            continue;
        }
        let Some(top) = module.first() else { continue };
        let Some(&from) = places.get(top) else {
            problems.push(format!("{path}: module `{top}` is not in the table of layers"));
            continue;
        };
        for reach in &paths.reaches {
            // A name below the root: a module, a re-exported item, or an external crate.
            let target = if places.contains_key(&reach.name) {
                reach.name.clone()
            } else if let Some(m) = roots.get(&reach.name) {
                m.clone()
            } else {
                problems.push(format!(
                    "{path}:{}: `crate::{}` is neither a module in the table of layers nor an item the crate root re-exports",
                    reach.line, reach.name
                ));
                continue;
            };
            if target == *top {
                continue;
            }
            // A re-export of another crate (`kstruct_schema as schema`) is below every layer.
            let Some(&to) = places.get(&target) else { continue };
            if to.layer > from.layer {
                problems.push(format!(
                    "{path}:{}: `{top}` (layer {}) uses `{target}` (layer {}), a higher layer",
                    reach.line, from.layer, to.layer
                ));
            } else if to.layer == from.layer && to.order > from.order {
                problems.push(format!(
                    "{path}:{}: `{top}` uses `{target}`, listed after it in layer {}",
                    reach.line, from.layer
                ));
            }
        }
    }
    problems
}

fn rust_files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("src/ is readable")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path
                .strip_prefix(root)
                .expect("below src/")
                .to_string_lossy()
                .replace('\\', "/");
            if relative != "lib.rs" {
                out.push((relative, std::fs::read_to_string(&path).expect("source is UTF-8")));
            }
        }
    }
}

#[test]
fn every_module_uses_only_lower_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs");
    let mut files = Vec::new();
    rust_files(&src, &src, &mut files);
    assert!(files.len() > 50, "read {} files", files.len());
    let problems = check(&lib, &files);
    assert!(
        problems.is_empty(),
        "{} paths break the layers:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIB: &str = "\
//! | layer | module | holds |
//! |---|---|---|
//! | 0 | `json` | values |
//! | 1 | `gvk` · `texts` | names |
//! | 2 | `decode` | requests |
mod json;
pub mod gvk;
mod texts;
pub mod decode;
pub use gvk::{GroupVersionKind, parse as parse_group_version};
pub use kstruct_schema as schema;
";

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(p, s)| ((*p).to_string(), (*s).to_string())).collect()
    }

    #[test]
    fn downward_paths_pass() {
        let src = files(&[
            (
                "decode/mod.rs",
                "use crate::json::Value;\nuse crate::{gvk::Gvk, texts};\nfn f() { crate::parse_group_version(\"\"); }",
            ),
            ("gvk.rs", "use crate::json; use crate::schema::Structural;"),
            ("texts.rs", "use crate::gvk::Gvk;"),
        ]);
        assert_eq!(check(LIB, &src), Vec::<String>::new());
    }

    #[test]
    fn an_upward_path_is_named_with_file_line_and_both_modules() {
        let src = files(&[(
            "json.rs",
            "//! uses crate::decode in a comment only\nconst S: &str = \"crate::decode::x\";\n\nfn f() {\n    crate::decode::request();\n}\n",
        )]);
        assert_eq!(
            check(LIB, &src),
            ["json.rs:5: `json` (layer 0) uses `decode` (layer 2), a higher layer"]
        );
    }

    #[test]
    fn groups_root_re_exports_and_super_chains_count() {
        let src = files(&[
            ("json.rs", "use crate::{gvk::Gvk,\n texts::TextList};"),
            (
                "gvk.rs",
                "mod tests {\n    use super::super::decode::Rejection;\n    use super::*;\n}",
            ),
            ("texts.rs", "fn f() { let _ = crate::GroupVersionKind::default(); }"),
            (
                "decode/body.rs",
                "use super::super::json;\nfn f() { let _ = crate::parse_group_version; }",
            ),
        ]);
        assert_eq!(
            check(LIB, &src),
            [
                "json.rs:1: `json` (layer 0) uses `gvk` (layer 1), a higher layer",
                "json.rs:2: `json` (layer 0) uses `texts` (layer 1), a higher layer",
                "gvk.rs:2: `gvk` (layer 1) uses `decode` (layer 2), a higher layer",
            ]
        );
    }

    #[test]
    fn within_a_layer_a_module_uses_only_those_listed_before_it() {
        let down = files(&[("texts.rs", "use crate::gvk::Gvk;")]);
        assert_eq!(check(LIB, &down), Vec::<String>::new());
        let up = files(&[("gvk.rs", "use crate::texts::TextList;")]);
        assert_eq!(
            check(LIB, &up),
            ["gvk.rs:1: `gvk` uses `texts`, listed after it in layer 1"]
        );
        let rows = LIB.replace(
            "//! | 1 | `gvk` · `texts` | names |",
            "//! | 1 | `gvk` | names |\n//! | 1 | `texts` | spans |",
        );
        assert_eq!(
            check(&rows, &up),
            ["gvk.rs:1: `gvk` uses `texts`, listed after it in layer 1"]
        );
    }

    #[test]
    fn a_module_outside_the_table_or_an_unknown_root_name_is_reported() {
        let lib = format!("{LIB}mod stray;\n");
        let src = files(&[("stray.rs", ""), ("json.rs", "use crate::Nowhere;")]);
        assert_eq!(
            check(&lib, &src),
            [
                "lib.rs: module `stray` is not in the table of layers; give it a row in the crate's documentation",
                "stray.rs: module `stray` is not in the table of layers",
                "json.rs:1: `crate::Nowhere` is neither a module in the table of layers nor an item the crate root re-exports",
            ]
        );
    }

    #[test]
    fn tests_and_macros_dollar_crate_paths_are_not_the_librarys() {
        let src = files(&[
            (
                "gvk.rs",
                "#[cfg(test)]\nmod tests;\n#[cfg(test)]\nmod inline {\n    use crate::decode::X;\n}\n#[cfg(test)]\nuse crate::decode::Y;\nmacro_rules! m { () => { $crate::decode::Z } }\nfn f() { crate::decode::W; }",
            ),
            ("gvk/tests.rs", "use crate::decode::V;"),
            ("gvk/tests/more.rs", "use crate::decode::U;"),
        ]);
        assert_eq!(
            check(LIB, &src),
            ["gvk.rs:10: `gvk` (layer 1) uses `decode` (layer 2), a higher layer"]
        );
    }

    #[test]
    fn literals_lifetimes_and_raw_strings_are_not_paths() {
        let src = "fn f<'a>(x: &'a str) -> char { let _ = r#\"crate::decode \"# ; let _ = b\"crate::decode\"; '{' }\nuse crate::decode;";
        assert_eq!(
            reaches(&["json".into()], src).reaches,
            [Reach {
                line: 2,
                name: "decode".into()
            }]
        );
        assert_eq!(module_of(Path::new("scan/walk.rs")), ["scan", "walk"]);
        assert_eq!(module_of(Path::new("scan/mod.rs")), ["scan"]);
    }
}
