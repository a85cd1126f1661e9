//! Rust names for API groups, versions, kinds and schema names.

use std::collections::HashMap;

/// A snake_case module name: `cert-manager.io` -> `cert_manager_io`.
pub fn module(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, '_');
    }
    unkeyword(out)
}

/// A CamelCase type name: `Certificate` stays, `case-0013` -> `Case0013`.
pub fn type_name(name: &str) -> String {
    let mut out = String::new();
    for part in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
    {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'S');
    }
    unkeyword(out)
}

fn unkeyword(mut name: String) -> String {
    if syn::parse_str::<syn::Ident>(&name).is_err() || name == "_" {
        name.push('_');
    }
    name
}

/// Hands out names that are unique in one scope: a name already given gets `_2`, `_3`...
#[derive(Debug, Default)]
pub struct Scope {
    taken: HashMap<String, usize>,
}

impl Scope {
    /// `name`, made unique in this scope.
    pub fn unique(&mut self, name: String) -> String {
        let n = self.taken.entry(name.clone()).or_insert(0);
        *n += 1;
        if *n == 1 {
            name
        } else {
            let candidate = format!("{name}_{n}");
            self.unique(candidate)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_rust_identifiers() {
        assert_eq!(module("cert-manager.io"), "cert_manager_io");
        assert_eq!(module("v1beta1"), "v1beta1");
        assert_eq!(module("1.io"), "_1_io");
        assert_eq!(module("self"), "self_");
        assert_eq!(type_name("Certificate"), "Certificate");
        assert_eq!(type_name("case-0013"), "Case0013");
        assert_eq!(type_name("0013"), "S0013");
        assert_eq!(type_name("Self"), "Self_");
        let mut scope = Scope::default();
        assert_eq!(scope.unique("a_b".into()), "a_b");
        assert_eq!(scope.unique("a_b".into()), "a_b_2");
        assert_eq!(scope.unique("a_b_2".into()), "a_b_2_2");
    }
}
