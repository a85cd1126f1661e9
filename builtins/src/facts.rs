//! The embedded facts (`data/types.txt`), read once on first use.
//!
//! The file is line-based: a `releases` line naming the releases in mask-bit order, then
//! `gv` blocks (each `kind` line with the mask of releases that have it), then `type` blocks
//! (each version of a type once, with the mask of releases whose Go type it is).

use crate::go_type::GoType;
use crate::{Error, Field, Lifecycle, TypeDef, TypeShape};
use std::collections::HashMap;
use std::sync::OnceLock;

const TEXT: &str = include_str!("../data/types.txt");

/// A kind line: the kind in one group-version, in the releases of `mask`.
#[derive(Debug)]
pub(crate) struct KindLine {
    pub mask: u32,
    pub kind: &'static str,
    pub type_name: &'static str,
    pub lifecycle: Lifecycle,
}

/// Every fact, indexed.
#[derive(Debug, Default)]
pub(crate) struct Facts {
    /// Group-versions in the file's (sorted) order, with their kinds.
    pub gvs: Vec<(&'static str, Vec<KindLine>)>,
    /// Each type's versions, with the releases of each.
    pub types: HashMap<&'static str, Vec<(u32, TypeDef)>>,
}

/// The facts, read on first use.
pub(crate) fn facts() -> Result<&'static Facts, Error> {
    static FACTS: OnceLock<Result<Facts, Error>> = OnceLock::new();
    FACTS.get_or_init(|| read(TEXT)).as_ref().map_err(Clone::clone)
}

fn bad(line: usize, what: impl Into<String>) -> Error {
    Error::Data {
        line: line + 1,
        what: what.into(),
    }
}

fn mask(word: &str, line: usize) -> Result<u32, Error> {
    word.strip_prefix('@')
        .and_then(|m| u32::from_str_radix(m, 16).ok())
        .ok_or_else(|| bad(line, format!("expected a release mask, found {word:?}")))
}

pub(crate) fn read(text: &'static str) -> Result<Facts, Error> {
    let mut facts = Facts::default();
    let lines: Vec<&'static str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let words: Vec<&'static str> = line.split(' ').collect();
        match words[0] {
            "" | "#" => {}
            "releases" => {
                let names: Vec<&str> = words[1..].iter().map(|w| w.split('=').next().unwrap_or("")).collect();
                let want: Vec<&str> = crate::Release::ALL.iter().map(|r| r.name()).collect();
                if names != want {
                    return Err(bad(i, format!("releases {names:?}, where kstruct knows {want:?}")));
                }
            }
            "gv" if words.len() == 2 => {
                let mut kinds = Vec::new();
                while let Some(l) = lines.get(i + 1).and_then(|l| l.strip_prefix("  kind ")) {
                    i += 1;
                    kinds.push(kind_line(l, i)?);
                }
                facts.gvs.push((words[1], kinds));
            }
            "type" if words.len() >= 4 => {
                let name = words[1];
                let m = mask(words[2], i)?;
                let package = name.rsplit_once('.').map_or("", |(p, _)| p);
                let start = i;
                let mut fields = Vec::new();
                while let Some(l) = lines.get(i + 1).and_then(|l| l.strip_prefix("  ")) {
                    i += 1;
                    fields.push(field_line(l, package, i)?);
                }
                let def = type_def(name, &words[3..], fields, package, start)?;
                facts.types.entry(name).or_default().push((m, def));
            }
            _ => return Err(bad(i, format!("unexpected line {line:?}"))),
        }
        i += 1;
    }
    Ok(facts)
}

fn kind_line(l: &'static str, line: usize) -> Result<KindLine, Error> {
    let words: Vec<&'static str> = l.split(' ').collect();
    let (Some(&kind), Some(&type_name), Some(last)) = (words.first(), words.get(1), words.last()) else {
        return Err(bad(line, "a kind line needs a kind, a type and a mask"));
    };
    let mut lifecycle = Lifecycle::default();
    for w in &words[2..words.len() - 1] {
        let (key, value) = w
            .split_once('=')
            .ok_or_else(|| bad(line, format!("unexpected {w:?}")))?;
        let version = || {
            value
                .split_once('.')
                .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
                .ok_or_else(|| bad(line, format!("{key}: expected MAJOR.MINOR, found {value:?}")))
        };
        match key {
            "introduced" => lifecycle.introduced = Some(version()?),
            "deprecated" => lifecycle.deprecated = Some(version()?),
            "removed" => lifecycle.removed = Some(version()?),
            "replacement" => {
                let (gv, k) = value.rsplit_once('/').ok_or_else(|| {
                    bad(
                        line,
                        format!("replacement: expected GROUP/VERSION/KIND, found {value:?}"),
                    )
                })?;
                lifecycle.replacement = Some((gv, k));
            }
            _ => return Err(bad(line, format!("unknown lifecycle fact {key:?}"))),
        }
    }
    Ok(KindLine {
        mask: mask(last, line)?,
        kind,
        type_name,
        lifecycle,
    })
}

fn field_line(l: &'static str, package: &str, line: usize) -> Result<Field, Error> {
    let words: Vec<&'static str> = l.split(' ').collect();
    let [json, go_name, go_type, opts, markers @ ..] = &words[..] else {
        return Err(bad(
            line,
            "a field line needs a JSON name, a Go name, a Go type and tag options",
        ));
    };
    let go_type =
        GoType::parse(go_type, package).ok_or_else(|| bad(line, format!("unreadable Go type {go_type:?}")))?;
    let opts: Vec<&str> = if *opts == "-" {
        Vec::new()
    } else {
        opts.split(',').collect()
    };
    let inline = opts.contains(&"inline") || *json == "-";
    Ok(Field {
        json_name: (!inline).then_some(*json),
        go_name,
        go_type,
        omitempty: opts.contains(&"omitempty"),
        omitzero: opts.contains(&"omitzero"),
        inline,
        markers: markers.to_vec(),
    })
}

fn type_def(
    name: &'static str,
    head: &[&'static str],
    fields: Vec<Field>,
    package: &str,
    line: usize,
) -> Result<TypeDef, Error> {
    let decodes_itself = head.contains(&"unmarshalJSON");
    let (shape, markers) = match head[0] {
        "struct" => (TypeShape::Struct(fields), &head[1..]),
        "named" | "alias" if head.len() >= 2 && fields.is_empty() => {
            let t = GoType::parse(head[1], package)
                .ok_or_else(|| bad(line, format!("unreadable Go type {:?}", head[1])))?;
            (
                if head[0] == "named" {
                    TypeShape::Named(t)
                } else {
                    TypeShape::Alias(t)
                },
                &head[2..],
            )
        }
        other => return Err(bad(line, format!("unknown type shape {other:?}"))),
    };
    Ok(TypeDef {
        name,
        shape,
        decodes_itself,
        markers: markers.iter().copied().filter(|&m| m != "unmarshalJSON").collect(),
    })
}
