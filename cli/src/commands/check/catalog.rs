//! The CRDs a check runs with: every CRD document of the inputs, linted as the API server
//! checks CRDs on create; those it would refuse and repeats of a group/kind are not used.

use std::collections::HashMap;

use kstruct::RegisteredCrd;
use kstruct::schema::crd::CustomResourceDefinition;
use kstruct::source::Position;
use serde_json::Value;

/// Where a document is: file name and start.
#[derive(Debug, Clone)]
pub struct Origin {
    pub file: String,
    pub at: Position,
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.at.line)
    }
}

/// A CRD the API server would refuse: objects of its kind find nothing to serve them.
pub struct Refused {
    pub name: String,
    pub origin: Origin,
}

/// The CRDs by group and kind.
#[derive(Default)]
pub struct Catalog {
    used: HashMap<(String, String), (RegisteredCrd, Origin)>,
    refused: HashMap<(String, String), Refused>,
}

/// What adding a CRD document gave: the lint's messages (empty when the server accepts it).
pub struct Added {
    pub messages: Vec<String>,
    /// The field each message is about, by message index (when it names one).
    pub fields: Vec<Option<String>>,
    /// Where the CRD already used for this group and kind is, if this one repeats it.
    pub repeats: Option<Origin>,
    pub group: String,
    pub kind: String,
}

impl Catalog {
    /// Lints a CRD document and, when the API server would accept it and no earlier CRD
    /// declares its group and kind, uses it.
    pub fn add(&mut self, doc: &Value, origin: Origin) -> Added {
        let (mut messages, mut fields): (Vec<String>, Vec<Option<String>>) = match kstruct::lint::lint_crd(doc) {
            Ok(errors) => errors
                .iter()
                .map(|e| (e.to_string(), Some(e.field.clone()).filter(|f| !f.is_empty())))
                .unzip(),
            Err(e) => (vec![e.to_string()], vec![None]),
        };
        let crd = if messages.is_empty() {
            match CustomResourceDefinition::from_value(doc) {
                Ok(crd) => Some(crd),
                Err(e) => {
                    messages.push(e.to_string());
                    fields.push(None);
                    None
                }
            }
        } else {
            None
        };
        let group = doc.pointer("/spec/group").and_then(Value::as_str).unwrap_or_default();
        let kind = doc
            .pointer("/spec/names/kind")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let key = (group.to_string(), kind.to_string());
        if let Some((_, first)) = self.used.get(&key) {
            return Added {
                messages,
                fields,
                repeats: Some(first.clone()),
                group: key.0,
                kind: key.1,
            };
        }
        let added = |messages| Added {
            messages,
            fields: fields.clone(),
            repeats: None,
            group: key.0.clone(),
            kind: key.1.clone(),
        };
        match crd {
            Some(crd) => {
                let result = added(messages);
                self.refused.remove(&key);
                let mut registered = RegisteredCrd::new(crd);
                // The interpreters hold the converted schemas; the raw ones are not needed.
                for v in &mut registered.crd.versions {
                    v.schema = None;
                }
                self.used.insert(key, (registered, origin));
                result
            }
            None if !group.is_empty() && !kind.is_empty() => {
                let name = doc
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let result = added(messages);
                self.refused.entry(key).or_insert(Refused { name, origin });
                result
            }
            None => added(messages),
        }
    }

    /// The CRD used for `group` and `kind`.
    pub fn find(&self, group: &str, kind: &str) -> Option<&RegisteredCrd> {
        self.used.get(&(group.to_string(), kind.to_string())).map(|(c, _)| c)
    }

    /// The refused CRD for `group` and `kind`, if one was given and none was used.
    pub fn refused(&self, group: &str, kind: &str) -> Option<&Refused> {
        self.refused.get(&(group.to_string(), kind.to_string()))
    }

    /// Every (group, kind) with a CRD used, for suggestions.
    pub fn kinds(&self) -> impl Iterator<Item = (&str, &str)> {
        self.used.keys().map(|(g, k)| (g.as_str(), k.as_str()))
    }
}
