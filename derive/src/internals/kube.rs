//! kube-rs' spellings of attributes kstruct also has, read only to tell how kstruct writes
//! them: a `printcolumn` or `scale` given as a JSON string, a `validation` given as a
//! `Rule::new(...)` expression.

use proc_macro2::{TokenStream, TokenTree};

/// kstruct's `printcolumn(...)` for kube-rs' JSON column (`{"name": ..., "jsonPath": ...}`).
pub fn printcolumn_attribute(json: &str) -> String {
    let keys = [
        ("name", "name"),
        ("type", "type"),
        ("jsonPath", "json_path"),
        ("description", "description"),
        ("format", "format"),
        ("priority", "priority"),
    ];
    attribute("printcolumn", json, &keys)
        .unwrap_or_else(|| "printcolumn(name = \"...\", type = \"string\", json_path = \".spec...\")".to_owned())
}

/// kstruct's `scale(...)` for kube-rs' JSON subresource.
pub fn scale_attribute(json: &str) -> String {
    let keys = [
        ("specReplicasPath", "spec_replicas_path"),
        ("statusReplicasPath", "status_replicas_path"),
        ("labelSelectorPath", "label_selector_path"),
    ];
    attribute("scale", json, &keys).unwrap_or_else(|| {
        "scale(spec_replicas_path = \".spec.replicas\", status_replicas_path = \".status.replicas\")".to_owned()
    })
}

/// `name(key = value, ...)` from the JSON object `json`, its keys renamed by `keys`; `None`
/// when `json` is not a flat object of such keys.
fn attribute(name: &str, json: &str, keys: &[(&str, &str)]) -> Option<String> {
    let members = flat_object(json)?;
    let mut parts = Vec::new();
    for (key, value) in members {
        let (_, ours) = keys.iter().find(|(theirs, _)| *theirs == key)?;
        parts.push(format!("{ours} = {value}"));
    }
    Some(format!("{name}({})", parts.join(", ")))
}

/// The members of a JSON object whose values are strings or numbers, each value written as a
/// Rust literal (`"text"`, `1`).
fn flat_object(json: &str) -> Option<Vec<(String, String)>> {
    let mut chars = json.trim().chars().peekable();
    let mut members = Vec::new();
    let skip_space = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
    };
    let string = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| -> Option<String> {
        if chars.next()? != '"' {
            return None;
        }
        let mut s = String::new();
        loop {
            match chars.next()? {
                '"' => return Some(s),
                '\\' => match chars.next()? {
                    'n' => s.push('\n'),
                    't' => s.push('\t'),
                    c => s.push(c),
                },
                c => s.push(c),
            }
        }
    };
    if chars.next()? != '{' {
        return None;
    }
    loop {
        skip_space(&mut chars);
        if chars.peek() == Some(&'}') {
            chars.next();
            break;
        }
        let key = string(&mut chars)?;
        skip_space(&mut chars);
        if chars.next()? != ':' {
            return None;
        }
        skip_space(&mut chars);
        let value = if chars.peek() == Some(&'"') {
            format!("{:?}", string(&mut chars)?)
        } else {
            let mut n = String::new();
            while chars.peek().is_some_and(|c| c.is_ascii_digit() || *c == '-') {
                n.push(chars.next()?);
            }
            if n.is_empty() {
                return None;
            }
            n
        };
        members.push((key, value));
        skip_space(&mut chars);
        match chars.next()? {
            ',' => continue,
            '}' => break,
            _ => return None,
        }
    }
    Some(members)
}

/// kstruct's `validation(...)` for a kube-rs `Rule::new("...").message(...)...` expression:
/// the rule, and the message, reason and field path when the expression gives them as
/// literals.
pub fn rule_attribute(expr: &TokenStream) -> String {
    let tokens: Vec<TokenTree> = expr.clone().into_iter().collect();
    let mut parts = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        let TokenTree::Ident(method) = t else { continue };
        let Some(TokenTree::Group(args)) = tokens.get(i + 1) else {
            continue;
        };
        let ours = match method.to_string().as_str() {
            "new" => "rule",
            "message" => "message",
            "field_path" => "field_path",
            "reason" => {
                // `Reason::FieldValueForbidden`: the last identifier.
                let last = args.stream().into_iter().filter_map(|t| match t {
                    TokenTree::Ident(i) => Some(i.to_string()),
                    _ => None,
                });
                if let Some(r) = last.last() {
                    parts.push(format!("reason = \"{r}\""));
                }
                continue;
            }
            _ => continue,
        };
        if let Some(text) = first_string(args.stream()) {
            parts.push(format!("{ours} = {text}"));
        }
    }
    if parts.is_empty() {
        return "validation(rule = \"...\", message = \"...\")".to_owned();
    }
    format!("validation({})", parts.join(", "))
}

/// The first string literal in `tokens`, as written.
fn first_string(tokens: TokenStream) -> Option<String> {
    for t in tokens {
        match t {
            TokenTree::Literal(l) if syn::parse_str::<syn::LitStr>(&l.to_string()).is_ok() => {
                return Some(l.to_string());
            }
            TokenTree::Group(g) => {
                if let Some(s) = first_string(g.stream()) {
                    return Some(s);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::quote;

    #[test]
    fn printcolumns() {
        assert_eq!(
            printcolumn_attribute(
                r#"{"name":"Team", "type":"string", "description":"owner", "jsonPath":".spec.team"}"#
            ),
            r#"printcolumn(name = "Team", type = "string", description = "owner", json_path = ".spec.team")"#
        );
        assert_eq!(
            printcolumn_attribute(
                r#"{"name":"Age","type":"date","jsonPath":".metadata.creationTimestamp","priority":1}"#
            ),
            r#"printcolumn(name = "Age", type = "date", json_path = ".metadata.creationTimestamp", priority = 1)"#
        );
        assert!(printcolumn_attribute("not json").starts_with("printcolumn(name = \"...\""));
    }

    #[test]
    fn scales() {
        assert_eq!(
            scale_attribute(r#"{"specReplicasPath":".spec.replicas","statusReplicasPath":".status.replicas"}"#),
            r#"scale(spec_replicas_path = ".spec.replicas", status_replicas_path = ".status.replicas")"#
        );
    }

    #[test]
    fn rules() {
        let e = quote!(
            Rule::new("self.x > 0")
                .message(Message::Message("x must be positive".into()))
                .reason(Reason::FieldValueForbidden)
        );
        assert_eq!(
            rule_attribute(&e),
            r#"validation(rule = "self.x > 0", message = "x must be positive", reason = "FieldValueForbidden")"#
        );
        assert_eq!(
            rule_attribute(&quote!(my_rule())),
            r#"validation(rule = "...", message = "...")"#
        );
    }
}
