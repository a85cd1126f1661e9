//! Rules checked at compile time, with the API server's checker and cost estimator.
//!
//! The macro sees the struct's property names and, for fields of std types it recognises by
//! name (`String`, integers, `Vec<T>`, maps, `Option<T>`, ...), their schema; a field of any
//! other type (a struct, an enum, a type with a hand-written impl) is `dyn` here, of size
//! zero. So:
//! - every `validation(rule = ...)` on a struct is type-checked: a field the struct does not
//!   have is a compile error on the rule, with a did-you-mean; so is an operator the field's
//!   std type does not have;
//! - rules on fields (and their `items(...)`) of std types are type-checked against the type;
//! - a rule's estimated cost is checked with unknown fields at their least possible size, so a
//!   rule refused here is refused by the API server whatever the unknown fields hold; the
//!   error names the fields that lack `max_items` / `max_length` / `max_properties`.
//!
//! What needs the unknown fields' schemas (their types, the cost of rules over them, the
//! node's cardinality in the CRD, the CRD's total) is checked when the CRD is built
//! (`try_crd()`, `kstruct::lint`).

use kstruct_cel::ast::{Expr, ExprKind};
use kstruct_cel::check::{Checked, Env, RuleError, RuleKind, compile_rule};
use kstruct_cel::cost::{STATIC_ESTIMATED_COST_LIMIT, estimate, exceeds_budget_message};
use kstruct_cel::schema::{
    AdditionalProperties, Json, RuleVariables, SchemaNode, max_cardinality, rule_variables, schema_decl_type,
    self_type_name,
};
use kstruct_cel::types::DeclType;
use serde_derive_internals::Ctxt;
use serde_derive_internals::ast::{Data, Style};

use super::ast::Container;
use super::attr::{self, Node};

/// A node of the schema as the macro sees it.
#[derive(Debug, Clone, PartialEq)]
enum Outline {
    Object(Vec<(String, Outline)>),
    String {
        max_length: Option<i64>,
    },
    Integer,
    Number,
    Boolean,
    Array {
        items: Box<Outline>,
        max_items: Option<i64>,
    },
    Map {
        values: Box<Outline>,
        max_properties: Option<i64>,
    },
    /// A type the macro cannot see into: `dyn`, as small as a value can be.
    Unknown,
}

impl Outline {
    /// The schema the runtime's impl gives `ty` with the field's attributes `node`, as far as
    /// the type's name tells (std types; anything else is [`Outline::Unknown`]).
    fn of(ty: &syn::Type, node: &Node) -> Outline {
        // Attributes that change the type or the size in ways not modelled here.
        if node.type_.is_some()
            || node.format.is_some()
            || node.int_or_string.is_some()
            || node.preserve_unknown_fields.is_some()
            || node.embedded_resource.is_some()
            || node.enum_.is_some()
        {
            return Outline::Unknown;
        }
        let count = |s: &Option<attr::Spanned<u64>>| s.as_ref().map(|s| i64::try_from(s.value).unwrap_or(i64::MAX));
        let items_node = node.items.as_ref().map(|i| (*i.value).clone()).unwrap_or_default();
        match ty {
            syn::Type::Reference(r) => Outline::of(&r.elem, node),
            syn::Type::Paren(p) => Outline::of(&p.elem, node),
            syn::Type::Group(g) => Outline::of(&g.elem, node),
            syn::Type::Slice(s) => Outline::array(Outline::of(&s.elem, &items_node), count(&node.max_items)),
            syn::Type::Array(a) => {
                let n = match &a.len {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Int(n), ..
                    }) => n.base10_parse::<i64>().ok(),
                    _ => None,
                };
                match n {
                    Some(n) => Outline::array(Outline::of(&a.elem, &items_node), Some(n)),
                    None => Outline::Unknown,
                }
            }
            syn::Type::Path(p) if p.qself.is_none() => {
                let Some(last) = p.path.segments.last() else {
                    return Outline::Unknown;
                };
                let args: Vec<&syn::Type> = match &last.arguments {
                    syn::PathArguments::AngleBracketed(a) => a
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            syn::GenericArgument::Type(t) => Some(t),
                            _ => None,
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                match (last.ident.to_string().as_str(), args.as_slice()) {
                    ("String" | "str" | "PathBuf" | "Path", []) => Outline::String {
                        max_length: count(&node.max_length),
                    },
                    ("char", []) => Outline::String { max_length: Some(1) },
                    (
                        "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize" | "i128"
                        | "u128",
                        [],
                    ) => Outline::Integer,
                    ("f32" | "f64", []) => Outline::Number,
                    ("bool", []) => Outline::Boolean,
                    (
                        "Option" | "Box" | "Rc" | "Arc" | "Cow" | "Cell" | "RefCell" | "Mutex" | "RwLock" | "Reverse"
                        | "Wrapping" | "Saturating",
                        [inner],
                    ) => Outline::of(inner, node),
                    ("Vec" | "VecDeque" | "LinkedList" | "BinaryHeap" | "BTreeSet" | "HashSet", [item, ..]) => {
                        Outline::array(Outline::of(item, &items_node), count(&node.max_items))
                    }
                    ("BTreeMap" | "HashMap", [key, value, ..]) if Outline::of(key, &Node::default()).is_string() => {
                        let values = Outline::of(value, &Node::default());
                        match (&values, count(&node.max_properties)) {
                            (Outline::Unknown, None) => Outline::Unknown,
                            (_, max_properties) => Outline::Map {
                                values: Box::new(values),
                                max_properties,
                            },
                        }
                    }
                    _ => Outline::Unknown,
                }
            }
            _ => Outline::Unknown,
        }
    }

    /// An array of `items`; unknown items of unknown number stay unknown (their size is what
    /// bounds the list when `max_items` does not).
    fn array(items: Outline, max_items: Option<i64>) -> Outline {
        match (&items, max_items) {
            (Outline::Unknown, None) => Outline::Unknown,
            _ => Outline::Array {
                items: Box::new(items),
                max_items,
            },
        }
    }

    /// True when some node at or below this one is [`Outline::Unknown`]: the estimator knows
    /// no size below such a node (`self.x.y` through a `dyn`), so no cost is a lower bound.
    fn contains_unknown(&self) -> bool {
        match self {
            Outline::Unknown => true,
            Outline::Object(props) => props.iter().any(|(_, p)| p.contains_unknown()),
            Outline::Array { items, .. } => items.contains_unknown(),
            Outline::Map { values, .. } => values.contains_unknown(),
            _ => false,
        }
    }

    /// This node with every missing bound set to zero (what its cost would be were it empty).
    fn emptied(&self) -> Outline {
        match self {
            Outline::String { max_length } => Outline::String {
                max_length: max_length.or(Some(0)),
            },
            Outline::Array { items, max_items } => Outline::Array {
                items: Box::new(items.emptied()),
                max_items: max_items.or(Some(0)),
            },
            Outline::Map { values, max_properties } => Outline::Map {
                values: Box::new(values.emptied()),
                max_properties: max_properties.or(Some(0)),
            },
            other => other.clone(),
        }
    }

    fn is_string(&self) -> bool {
        matches!(self, Outline::String { .. })
    }

    /// The attributes that would bound this node's size, as written on its field
    /// (`max_items = N`, `items(max_length = N)`); empty when it is bounded.
    fn missing_bounds(&self) -> Vec<String> {
        match self {
            Outline::String { max_length: None } => vec!["max_length = N".to_owned()],
            Outline::Array { items, max_items } => {
                let mut out = Vec::new();
                if max_items.is_none() {
                    out.push("max_items = N".to_owned());
                }
                let inner = items.missing_bounds();
                if !inner.is_empty() {
                    out.push(format!("items({})", inner.join(", ")));
                }
                out
            }
            Outline::Map {
                max_properties: None, ..
            } => vec!["max_properties = N".to_owned()],
            _ => Vec::new(),
        }
    }
}

impl SchemaNode for Outline {
    fn schema_type(&self) -> &str {
        match self {
            Outline::Object(_) | Outline::Map { .. } => "object",
            Outline::String { .. } => "string",
            Outline::Integer => "integer",
            Outline::Number => "number",
            Outline::Boolean => "boolean",
            Outline::Array { .. } => "array",
            Outline::Unknown => "",
        }
    }
    fn format(&self) -> &str {
        ""
    }
    fn properties(&self) -> Vec<(&str, &Self)> {
        match self {
            Outline::Object(p) => p.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            _ => Vec::new(),
        }
    }
    fn items(&self) -> Option<&Self> {
        match self {
            Outline::Array { items, .. } => Some(items),
            _ => None,
        }
    }
    fn additional_properties(&self) -> Option<AdditionalProperties<'_, Self>> {
        match self {
            Outline::Map { values, .. } => Some(AdditionalProperties::Schema(values)),
            _ => None,
        }
    }
    fn max_length(&self) -> Option<i64> {
        match self {
            Outline::String { max_length } => *max_length,
            // `dyn` of no size: the least a value of the real type can cost.
            Outline::Unknown => Some(0),
            _ => None,
        }
    }
    fn max_items(&self) -> Option<i64> {
        match self {
            Outline::Array { max_items, .. } => *max_items,
            _ => None,
        }
    }
    fn max_properties(&self) -> Option<i64> {
        match self {
            Outline::Map { max_properties, .. } => *max_properties,
            _ => None,
        }
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
    // A type the macro does not know is `dyn`, which the checker lets through.
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
/// properties are not all known here), on its fields and on their items.
pub fn check(cx: &Ctxt, cont: &Container) {
    let Data::Struct(Style::Struct, fields) = &cont.serde.data else {
        return;
    };
    let mut properties: Vec<(String, Outline)> = Vec::new();
    for (f, x) in fields.iter().zip(&cont.fields) {
        if f.attrs.skip_serializing() {
            continue;
        }
        let custom = x.attrs.schema_with.is_some()
            || x.attrs.schema_as.is_some()
            || x.attrs.schemars.is_some()
            || f.attrs.serialize_with().is_some();
        let outline = if custom {
            Outline::Unknown
        } else {
            Outline::of(f.ty, &x.attrs.node)
        };
        let name = f.attrs.name().serialize_name().value.clone();
        if outline != Outline::Unknown {
            // The field's attributes bound both the field and its items.
            let hint = bounds_hint(&name, &outline);
            check_rules(cx, &x.attrs.node.validations, &outline, 1, hint.as_deref());
            if let (Outline::Array { items, max_items }, Some(items_node)) = (&outline, &x.attrs.node.items) {
                let cardinality = match max_items {
                    Some(m) => u64::try_from(*m).unwrap_or(0),
                    None => schema_decl_type(&**items, false).map_or(1, |d| max_cardinality(d.min_serialized_size)),
                };
                check_rules(cx, &items_node.value.validations, items, cardinality, hint.as_deref());
            }
        }
        properties.push((name, outline));
    }
    if fields.iter().any(|f| f.attrs.flatten()) || cont.attrs.node.validations.is_empty() {
        return;
    }
    let names: Vec<String> = properties
        .iter()
        .filter_map(|(n, _)| kstruct_cel::escape_property(n))
        .collect();
    let struct_outline = Outline::Object(properties);
    let Some(decl) = schema_decl_type(&struct_outline, false) else {
        return;
    };
    let candidates: Vec<&str> = names.iter().map(String::as_str).collect();
    for rule in &cont.attrs.node.validations {
        let Some((expr, checked, vars)) = compile(cx, rule, &decl, &candidates) else {
            continue;
        };
        let read: Vec<&(String, Outline)> = fields_read(&expr)
            .into_iter()
            .filter_map(|f| {
                props_of(&struct_outline)
                    .iter()
                    .find(|(n, _)| kstruct_cel::escape_property(n).as_deref() == Some(f))
            })
            .collect();
        if read.iter().any(|(_, o)| o.contains_unknown()) {
            continue;
        }
        let cost = estimate(&expr, &checked, Some(&vars.scoped)).max;
        if cost > STATIC_ESTIMATED_COST_LIMIT {
            // The fields the rule reads whose size nothing bounds, and which cost less bounded.
            let unbounded: Vec<String> = read
                .iter()
                .filter(|(n, o)| {
                    let bounded = Outline::Object(
                        props_of(&struct_outline)
                            .iter()
                            .map(|(m, p)| (m.clone(), if m == n { o.emptied() } else { p.clone() }))
                            .collect(),
                    );
                    schema_decl_type(&bounded, false).is_some_and(|d| {
                        let vars = rule_variables(&d, &self_type_name(0), rule.optional_old_self == Some(true));
                        estimate(&expr, &checked, Some(&vars.scoped)).max < cost
                    })
                })
                .filter_map(|(n, o)| bounds_hint(n, o))
                .collect();
            cost_error(cx, rule, cost, &unbounded);
        }
    }
}

/// Compiles one rule with `self` of type `decl`, as the API server does; a rule that does not
/// compile is a compile error on it (with a did-you-mean among `fields` for an undefined
/// field). Syntax errors are reported where the attribute is read: `None` here.
fn compile(cx: &Ctxt, rule: &attr::Rule, decl: &DeclType, fields: &[&str]) -> Option<(Expr, Checked, RuleVariables)> {
    let source = rule.rule.value();
    if kstruct_cel::check(&source).is_err() {
        return None;
    }
    let vars = rule_variables(decl, &self_type_name(0), rule.optional_old_self == Some(true));
    match compile_rule(&source, &Env::for_rule(&vars), RuleKind::Rule) {
        Ok((expr, checked)) => Some((expr, checked, vars)),
        Err(e) => {
            let text = e.to_string();
            let hint = match e {
                RuleError::Compile { .. } => undefined_field(&text)
                    .and_then(|f| kstruct_schema::suggest::did_you_mean(f, fields))
                    .map(|m| format!("\nhelp: did you mean `{m}`?"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            cx.error_spanned_by(&rule.rule, format!("the API server refuses this rule: {text}{hint}"));
            None
        }
    }
}

/// Type-checks and costs `rules` written on a node of a known type, `cardinality` being the
/// least number of times the node can occur in a request.
fn check_rules(cx: &Ctxt, rules: &[attr::Rule], outline: &Outline, cardinality: u64, hint: Option<&str>) {
    if rules.is_empty() {
        return;
    }
    let Some(decl) = schema_decl_type(outline, false) else {
        return;
    };
    for rule in rules {
        let Some((expr, checked, vars)) = compile(cx, rule, &decl, &[]) else {
            continue;
        };
        if outline.contains_unknown() {
            continue;
        }
        let cost = estimate(&expr, &checked, Some(&vars.scoped))
            .max
            .saturating_mul(cardinality);
        if cost > STATIC_ESTIMATED_COST_LIMIT {
            let hint: Vec<String> = hint.into_iter().map(str::to_owned).collect();
            cost_error(cx, rule, cost, &hint);
        }
    }
}

/// `` `tags` (add `max_items = N`, `items(max_length = N)`) ``, for a field whose size is not
/// bounded.
fn bounds_hint(name: &str, outline: &Outline) -> Option<String> {
    let missing = outline.missing_bounds();
    if missing.is_empty() {
        return None;
    }
    let attrs: Vec<String> = missing.iter().map(|m| format!("`{m}`")).collect();
    Some(format!("`{name}` (add {})", attrs.join(", ")))
}

fn cost_error(cx: &Ctxt, rule: &attr::Rule, cost: u64, unbounded: &[String]) {
    let text = exceeds_budget_message("estimated rule cost", cost, STATIC_ESTIMATED_COST_LIMIT);
    let help = if unbounded.is_empty() {
        String::new()
    } else {
        format!("\nhelp: bound the size of {}", unbounded.join(", "))
    };
    cx.error_spanned_by(&rule.rule, format!("the API server refuses this rule: {text}{help}"));
}

fn props_of(outline: &Outline) -> &[(String, Outline)] {
    match outline {
        Outline::Object(props) => props,
        _ => &[],
    }
}

/// Every field name an expression selects (`self.x`, `oldSelf.x`, `v.x`), escaped as written,
/// in order: a superset of the struct's fields the rule reads.
fn fields_read(expr: &Expr) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    expr.walk(&mut |e| {
        if let ExprKind::Select { field, .. } = &e.kind
            && !out.contains(&field.as_str())
        {
            out.push(field);
        }
    });
    out
}

/// The field an `undefined field 'x'` error names.
fn undefined_field(text: &str) -> Option<&str> {
    let rest = &text[text.find("undefined field '")? + "undefined field '".len()..];
    rest.split('\'').next()
}
