//! Rules on a struct checked against its fields at compile time: the macro knows the struct's
//! property names (not their types, which other impls give), so each `validation(rule = ...)`
//! is type-checked by the API server's checker with `self` an object of those properties, each
//! `dyn`. A field the struct does not have is a compile error on the rule, with a did-you-mean.
//! What needs the fields' types (a wrong operator on a field, a rule's cost) is checked when
//! the CRD is built (`try_crd()`, `kstruct::lint`).

use kstruct_cel::check::{Env, RuleError, RuleKind, compile_rule};
use kstruct_cel::schema::{AdditionalProperties, Json, SchemaNode, rule_variables, schema_decl_type, self_type_name};
use serde_derive_internals::Ctxt;
use serde_derive_internals::ast::{Data, Style};

use super::ast::Container;

/// A node of the schema as the macro sees it: the struct (an object of its properties), or a
/// property (of a type the macro does not know: `dyn`).
enum Outline {
    Object(Vec<(String, Outline)>),
    Unknown,
}

impl SchemaNode for Outline {
    fn schema_type(&self) -> &str {
        match self {
            Outline::Object(_) => "object",
            Outline::Unknown => "",
        }
    }
    fn format(&self) -> &str {
        ""
    }
    fn properties(&self) -> Vec<(&str, &Self)> {
        match self {
            Outline::Object(p) => p.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            Outline::Unknown => Vec::new(),
        }
    }
    fn items(&self) -> Option<&Self> {
        None
    }
    fn additional_properties(&self) -> Option<AdditionalProperties<'_, Self>> {
        None
    }
    fn max_length(&self) -> Option<i64> {
        None
    }
    fn max_items(&self) -> Option<i64> {
        None
    }
    fn max_properties(&self) -> Option<i64> {
        None
    }
    fn enum_values(&self) -> Vec<Json> {
        Vec::new()
    }
    fn default_value(&self) -> Option<Json> {
        None
    }
    fn required(&self) -> Vec<&str> {
        Vec::new()
    }
    fn nullable(&self) -> bool {
        false
    }
    // A property's type is not known here: `dyn`, which the checker lets through.
    fn int_or_string(&self) -> bool {
        matches!(self, Outline::Unknown)
    }
    fn preserve_unknown_fields(&self) -> bool {
        false
    }
    fn embedded_resource(&self) -> bool {
        false
    }
    fn list_type(&self) -> Option<&str> {
        None
    }
    fn list_map_keys(&self) -> Vec<&str> {
        Vec::new()
    }
}

/// Checks the rules written on a struct with named fields (none flattened: then the
/// properties are not all known here).
pub fn check(cx: &Ctxt, cont: &Container) {
    let rules = &cont.attrs.node.validations;
    if rules.is_empty() {
        return;
    }
    let Data::Struct(Style::Struct, fields) = &cont.serde.data else {
        return;
    };
    if fields.iter().any(|f| f.attrs.flatten()) {
        return;
    }
    let properties: Vec<(String, Outline)> = fields
        .iter()
        .filter(|f| !f.attrs.skip_serializing())
        .map(|f| (f.attrs.name().serialize_name().value.clone(), Outline::Unknown))
        .collect();
    let names: Vec<String> = properties
        .iter()
        .filter_map(|(n, _)| kstruct_cel::escape_property(n))
        .collect();
    let Some(decl) = schema_decl_type(&Outline::Object(properties), false) else {
        return;
    };
    for rule in rules {
        let source = rule.rule.value();
        // Syntax errors are reported where the attribute is read.
        if kstruct_cel::check(&source).is_err() {
            continue;
        }
        let vars = rule_variables(&decl, &self_type_name(0), rule.optional_old_self == Some(true));
        let env = Env::for_rule(&vars);
        match compile_rule(&source, &env, RuleKind::Rule) {
            Ok(_) => {}
            Err(e @ RuleError::Compile { .. }) => {
                let text = e.to_string();
                let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
                let hint = undefined_field(&text)
                    .and_then(|f| kstruct_schema::suggest::did_you_mean(f, &candidates))
                    .map(|m| format!("\nhelp: did you mean `{m}`?"))
                    .unwrap_or_default();
                cx.error_spanned_by(&rule.rule, format!("the API server refuses this rule: {text}{hint}"));
            }
            Err(e) => cx.error_spanned_by(&rule.rule, format!("the API server refuses this rule: {e}")),
        }
    }
}

/// The field an `undefined field 'x'` error names.
fn undefined_field(text: &str) -> Option<&str> {
    let rest = &text[text.find("undefined field '")? + "undefined field '".len()..];
    rest.split('\'').next()
}
