//! Layer 5: CEL validation rules (`x-kubernetes-validations`) evaluated on a value, as the API
//! server's CRD validator runs them: every node's rules with `self` (and `oldSelf` on an
//! update) bound to the node's value under its schema, then the node's `allOf`, properties,
//! map values and list items; messages, `messageExpression`, `fieldPath` and `reason` as the
//! reference turns them into field errors; the per-call cost limit and the per-request budget.
//!
//! Where the reference walks a Go map (an object's properties), its order varies from run to
//! run; kstruct walks keys in byte order.
//!
//! ```
//! use kstruct::schema::convert;
//! use kstruct::rules::{validate_rules, RUNTIME_COST_BUDGET};
//!
//! let schema = convert::from_text(r#"
//! type: object
//! properties:
//!   spec:
//!     type: object
//!     x-kubernetes-validations:
//!     - rule: "self.engine != 'Redis' || !has(self.users)"
//!       message: Redis has no users
//!     properties:
//!       engine: {type: string}
//!       users: {type: array, items: {type: string}}
//! "#).unwrap().unwrap();
//! let object = serde_json::json!({"spec": {"engine": "Redis", "users": ["a"]}});
//! let errors = validate_rules(&schema, &object, None, RUNTIME_COST_BUDGET);
//! assert_eq!(errors[0].to_string(), "spec: Invalid value: Redis has no users");
//! ```

mod convert;
mod programs;

use std::collections::HashMap;

use serde_json::Value;

use kstruct_cel::eval::{COST_LIMIT_EXCEEDED, Vars, evaluate};
use kstruct_cel::value::Value as Cel;
use kstruct_schema::Structural;
use kstruct_schema::field::{BadValue, ErrorKind, FieldError, Path};
use kstruct_schema::{NestedValueValidation, ValidationRule};

pub use convert::to_cel;

/// The API server's per-request budget for evaluating a CRD's rules
/// (`RuntimeCELCostBudget`).
pub const RUNTIME_COST_BUDGET: i64 = 10_000_000;

/// The API server's per-call cost limit (`PerCallLimit`): one rule's evaluation stops there.
pub const PER_CALL_LIMIT: u64 = 1_000_000;

/// The longest message a `messageExpression` may produce, in bytes.
const MAX_MESSAGE_EXPRESSION_SIZE: usize = 5 * 1024;

/// Evaluates every rule of `schema` on `obj` (a create when `old` is `None`, an update
/// otherwise), with a cost budget, and returns the field errors in the reference's order.
/// On an update, errors of rules without `oldSelf` on values that did not change are
/// ratcheted: use [`validate_rules_update`] to get them as the warnings the server sends.
pub fn validate_rules(schema: &Structural, obj: &Value, old: Option<&Value>, budget: i64) -> Vec<FieldError> {
    validate_rules_update(schema, obj, old, budget).errors
}

/// The cost limits rules are evaluated under. The default is the API server's: a budget of
/// [`RUNTIME_COST_BUDGET`] per request and [`PER_CALL_LIMIT`] per evaluation of a rule or a
/// `messageExpression`. Other limits serve tests that reproduce the server's own, which
/// lower the per-call limit to reach its errors with small rules.
///
/// ```
/// use kstruct::rules::{RuleLimits, validate_rules_with};
/// use kstruct::schema::convert;
///
/// let schema = convert::from_text(r#"
/// type: object
/// properties: {s: {type: string}}
/// x-kubernetes-validations: [{rule: "self.s + 'x' == 'ax'"}]
/// "#).unwrap().unwrap();
/// let obj = serde_json::json!({"s": "b"});
/// let limits = RuleLimits { per_call: 1, ..RuleLimits::default() };
/// let results = validate_rules_with(&schema, &obj, None, &limits);
/// assert!(results.errors[0].to_string().contains("call cost exceeds limit for rule"));
/// assert_eq!(results.remaining_budget, -1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleLimits {
    /// The cost all rules of one request may spend together.
    pub budget: i64,
    /// The cost one evaluation may spend before it is cancelled.
    pub per_call: u64,
}

impl Default for RuleLimits {
    fn default() -> RuleLimits {
        RuleLimits {
            budget: RUNTIME_COST_BUDGET,
            per_call: PER_CALL_LIMIT,
        }
    }
}

/// [`validate_rules_update`] under the given limits.
pub fn validate_rules_with(schema: &Structural, obj: &Value, old: Option<&Value>, limits: &RuleLimits) -> RuleResults {
    run(&Path::nil(), schema, obj, old, *limits, true, true)
}

/// What an update's rules found: errors, and the errors ratcheting turned into warnings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleResults {
    /// The field errors, in the reference's order.
    pub errors: Vec<FieldError>,
    /// Errors of rules on unchanged values, which the API server sends as warnings.
    pub warnings: Vec<FieldError>,
    /// How many rule evaluations ran (a rule counts once per value it checked).
    pub evaluated: usize,
    /// What is left of the cost budget; negative when evaluation stopped on a cost limit
    /// (the reference's `remainingBudget`).
    pub remaining_budget: i64,
}

/// [`validate_rules`], keeping the ratcheted errors apart.
pub fn validate_rules_update(schema: &Structural, obj: &Value, old: Option<&Value>, budget: i64) -> RuleResults {
    let limits = RuleLimits {
        budget,
        ..RuleLimits::default()
    };
    run(&Path::nil(), schema, obj, old, limits, true, true)
}

/// A schema's rules on `obj` with its errors under `path`; `resource` for a resource's root,
/// `ratcheting` for an update's (errors of unchanged values become warnings).
pub(crate) fn run(
    path: &Path,
    schema: &Structural,
    obj: &Value,
    old: Option<&Value>,
    limits: RuleLimits,
    resource: bool,
    ratcheting: bool,
) -> RuleResults {
    let mut walk = Walk {
        errs: Vec::new(),
        warnings: Vec::new(),
        budget: limits.budget,
        per_call: limits.per_call,
        evaluated: 0,
        ratcheting,
        top: true,
        rules_below: HashMap::new(),
    };
    let unchanged = ratcheting && old.is_some_and(|o| o == obj);
    walk.node(schema, path, obj, old, resource, unchanged);
    RuleResults {
        errors: walk.errs,
        warnings: walk.warnings,
        evaluated: walk.evaluated,
        remaining_budget: walk.budget,
    }
}

/// Where a node's value is: its path, the value, and the old value it pairs with.
struct At<'a> {
    path: &'a Path,
    obj: &'a Value,
    old: Option<&'a Value>,
}

struct Walk {
    errs: Vec<FieldError>,
    warnings: Vec<FieldError>,
    budget: i64,
    per_call: u64,
    evaluated: usize,
    /// An update's walk: errors of unchanged values are ratcheted.
    ratcheting: bool,
    /// The next node walked is the walk's top.
    top: bool,
    /// [`has_rules`] of the schema nodes met so far, by address: asked once per node, not
    /// once per value (the schema outlives the walk).
    rules_below: HashMap<*const Structural, bool>,
}

impl Walk {
    fn out_of_budget(&self) -> bool {
        self.budget < 0
    }

    fn rules_below(&mut self, s: &Structural) -> bool {
        *self
            .rules_below
            .entry(std::ptr::from_ref(s))
            .or_insert_with(|| has_rules(s))
    }

    /// One node; `ratchet`: the node (or, when it has no old value, its nearest ancestor that
    /// has one) is unchanged, so errors of rules without `oldSelf` become warnings.
    fn node(&mut self, s: &Structural, path: &Path, obj: &Value, old: Option<&Value>, root: bool, ratchet: bool) {
        let top = std::mem::replace(&mut self.top, false);
        if obj.is_null() {
            return;
        }
        let old = old.filter(|o| !o.is_null());
        let at = At { path, obj, old };
        if let Some(rules) = s.x_validations.as_deref().filter(|r| !r.is_empty()) {
            self.expressions(s, rules, &at, root, ratchet);
            if self.out_of_budget() {
                return;
            }
        }
        // Rules under `allOf` apply to this node too (never ratcheted).
        for nested in &s.value_validation.all_of {
            self.all_of(nested, s, &at, root);
            if self.out_of_budget() {
                return;
            }
        }
        match obj {
            Value::Array(items) => {
                let Some(item_schema) = s.items.as_deref() else { return };
                if !self.rules_below(item_schema) {
                    return;
                }
                let keys = (s.extensions.x_list_type.as_deref() == Some("map"))
                    .then(|| s.extensions.x_list_map_keys.clone().unwrap_or_default());
                let old_items = old.and_then(Value::as_array);
                for (i, item) in items.iter().enumerate() {
                    let old_item = match (&keys, old_items) {
                        (Some(keys), Some(olds)) => olds.iter().find(|o| same_keys(keys, item, o)),
                        _ => None,
                    };
                    let r = old_item.map_or(ratchet, |o| self.ratcheting && o == item);
                    kstruct_schema::grow(|| self.node(item_schema, &path.index(i), item, old_item, false, r));
                    if self.out_of_budget() {
                        return;
                    }
                }
            }
            Value::Object(map) => {
                // Maps correlate by key unless `x-kubernetes-map-type` is something else.
                let correlatable = matches!(s.extensions.x_map_type.as_deref(), None | Some("granular" | "atomic"));
                let old_map = old.and_then(Value::as_object).filter(|_| correlatable);
                if let Some(additional) = s.additional_properties.as_ref().and_then(|a| a.schema())
                    && self.rules_below(additional)
                {
                    for (k, v) in map {
                        let old_v = old_map.and_then(|m| m.get(k));
                        let r = old_v.map_or(ratchet, |o| self.ratcheting && o == v);
                        kstruct_schema::grow(|| self.node(additional, &path.key(k), v, old_v, false, r));
                        if self.out_of_budget() {
                            return;
                        }
                    }
                }
                for (k, v) in map {
                    let Some(sub) = s.properties.get(k) else { continue };
                    if !self.rules_below(sub) {
                        continue;
                    }
                    let old_v = old_map.and_then(|m| m.get(k));
                    // The walk's top `apiVersion` and `kind` are never ratcheted: old and new
                    // objects were converted to the same version, so a change is not visible.
                    let typemeta = top && matches!(k.as_str(), "apiVersion" | "kind");
                    let ratcheting = self.ratcheting;
                    self.ratcheting = ratcheting && !typemeta;
                    let r = old_v.map_or(ratchet && !typemeta, |o| self.ratcheting && o == v);
                    kstruct_schema::grow(|| self.node(sub, &path.child(k), v, old_v, false, r));
                    self.ratcheting = ratcheting;
                    if self.out_of_budget() {
                        return;
                    }
                }
            }
            _ => {}
        }
    }

    /// The rules of an `allOf` entry and of what it nests, on the node `s` it applies to and
    /// the matching nodes below.
    fn all_of(&mut self, n: &NestedValueValidation, s: &Structural, at: &At<'_>, root: bool) {
        if at.obj.is_null() {
            return;
        }
        if let Some(rules) = n.x_validations.as_deref().filter(|r| !r.is_empty()) {
            self.expressions(s, rules, at, root, false);
            if self.out_of_budget() {
                return;
            }
        }
        for deeper in &n.value_validation.all_of {
            self.all_of(deeper, s, at, root);
        }
        match at.obj {
            Value::Array(items) => {
                let (Some(ni), Some(si)) = (n.items.as_deref(), s.items.as_deref()) else {
                    return;
                };
                for (i, item) in items.iter().enumerate() {
                    let path = at.path.index(i);
                    let sub = At {
                        path: &path,
                        obj: item,
                        old: None,
                    };
                    kstruct_schema::grow(|| self.all_of(ni, si, &sub, false));
                }
            }
            Value::Object(map) => {
                for (k, v) in map {
                    let pair = match (&n.properties, s.properties.get(k)) {
                        (Some(np), Some(sp)) => np.get(k).map(|nn| (nn, sp, at.path.child(k))),
                        _ => None,
                    };
                    let pair = pair.or_else(|| {
                        let na = n.additional_properties.as_deref()?;
                        let sa = s.additional_properties.as_ref()?.schema()?;
                        Some((na, sa, at.path.key(k)))
                    });
                    if let Some((nn, ss, path)) = pair {
                        let sub = At {
                            path: &path,
                            obj: v,
                            old: None,
                        };
                        kstruct_schema::grow(|| self.all_of(nn, ss, &sub, false));
                    }
                }
            }
            _ => {}
        }
    }

    /// One node's rules (`validateExpressions`).
    fn expressions(&mut self, s: &Structural, rules: &[ValidationRule], at: &At<'_>, root: bool, ratchet: bool) {
        let (path, obj, old) = (at.path, at.obj, at.old);
        let type_ = || BadValue::String(s.generic.type_.clone());
        if self.budget <= 0 {
            self.errs.push(FieldError::invalid(
                path,
                type_(),
                "validation failed due to running out of cost budget, no further validation rules will be run",
            ));
            self.budget = -1;
            return;
        }
        let this = convert::to_cel(obj, s, root);
        let old_this = old.map(|o| convert::to_cel(o, s, root));
        for rule in rules {
            let program = match programs::get(&rule.rule) {
                Ok(p) => p,
                Err(e) => {
                    self.errs
                        .push(FieldError::invalid(path, type_(), format!("rule compile error: {e}")));
                    continue;
                }
            };
            let uses_old_self = kstruct_cel::uses_old_self(&rule.rule);
            let optional_old_self = rule.optional_old_self == Some(true);
            if uses_old_self && old_this.is_none() && !optional_old_self {
                continue;
            }
            let mut vars = Vars::new().with("self", this.clone());
            if optional_old_self {
                let o = old_this.clone().map(std::sync::Arc::new);
                vars.set("oldSelf", Cel::Optional(o));
            } else if let Some(o) = &old_this {
                vars.set("oldSelf", o.clone());
            }
            let evaluated = evaluate(&program, &vars, self.per_call);
            self.evaluated += 1;
            let cost = evaluated.cost;
            if cost > i64::MAX as u64 || cost as i64 > self.budget {
                self.errs.push(FieldError::invalid(
                    path,
                    type_(),
                    "validation failed due to running out of cost budget, no further validation rules will be run",
                ));
                self.budget = -1;
                return;
            }
            self.budget -= cost as i64;
            let value = match evaluated.result {
                Err(e) if e.message.starts_with("no such overload") => {
                    self.errs.push(FieldError::invalid(
                        path,
                        type_(),
                        format!(
                            "'{e}': call arguments did not match a supported operator, function or macro signature for rule: {}",
                            rule_error_string(rule)
                        ),
                    ));
                    continue;
                }
                Err(e) if e.cost_exceeded || e.message.starts_with(COST_LIMIT_EXCEEDED) => {
                    self.errs.push(FieldError::invalid(
                        path,
                        type_(),
                        format!(
                            "'{e}': no further validation rules will be run due to call cost exceeds limit for rule: {}",
                            rule_error_string(rule)
                        ),
                    ));
                    self.budget = -1;
                    return;
                }
                Err(e) => {
                    self.errs.push(FieldError::invalid(
                        path,
                        type_(),
                        format!("{e} evaluating rule: {}", rule_error_string(rule)),
                    ));
                    continue;
                }
                Ok(v) => v,
            };
            if matches!(value, Cel::Bool(true)) {
                continue;
            }
            let at = match normalized_field_path(&rule.field_path) {
                Some(p) if !p.is_empty() => path.child(&p),
                _ => path.clone(),
            };
            let mut detail = None;
            if !rule.message_expression.is_empty() {
                match self.message_expression(&rule.message_expression, &vars) {
                    Ok(Some(m)) => detail = Some(m),
                    Ok(None) => {}
                    Err(e) => {
                        let e = FieldError::invalid(&at, type_(), e);
                        if ratchet && !uses_old_self {
                            self.warnings.push(e);
                        } else {
                            self.errs.push(e);
                        }
                        self.budget = -1;
                        return;
                    }
                }
            }
            let detail = detail.unwrap_or_else(|| rule_message_or_default(rule));
            let value = if matches!(s.generic.type_.as_str(), "object" | "array") {
                BadValue::Omit
            } else {
                BadValue::from(obj)
            };
            let e = error_for_reason(&at, value, detail, rule.reason.as_deref());
            if ratchet && !uses_old_self {
                self.warnings.push(e);
            } else {
                self.errs.push(e);
            }
        }
    }

    /// `evalMessageExpression`: `Ok(Some(message))`, `Ok(None)` to fall back to the rule's
    /// message, `Err` for the errors that stop validation.
    fn message_expression(&mut self, src: &str, vars: &Vars) -> Result<Option<String>, String> {
        let Ok(program) = programs::get(src) else {
            return Ok(None);
        };
        let evaluated = evaluate(&program, vars, self.per_call);
        let cost = evaluated.cost;
        if cost > i64::MAX as u64 || cost as i64 > self.budget {
            return Err(
                "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run"
                    .to_owned(),
            );
        }
        match evaluated.result {
            Err(e) if e.cost_exceeded => Err(format!(
                "no further validation rules will be run due to call cost exceeds limit for messageExpression: {}",
                kstruct_schema::go::quote(src)
            )),
            Err(_) => {
                self.budget -= cost as i64;
                Ok(None)
            }
            Ok(v) => {
                self.budget -= cost as i64;
                let Cel::String(s) = v else {
                    return Ok(None);
                };
                let trimmed = s.trim();
                if trimmed.len() > MAX_MESSAGE_EXPRESSION_SIZE || trimmed.contains('\n') || trimmed.is_empty() {
                    return Ok(None);
                }
                Ok(Some(trimmed.to_owned()))
            }
        }
    }
}

/// Whether a schema or anything below it has rules (under `allOf` too).
pub fn has_rules(s: &Structural) -> bool {
    let mut found = false;
    s.walk(&mut |n| {
        found |= n.x_validations.as_ref().is_some_and(|r| !r.is_empty())
            || n.value_validation.all_of.iter().any(nested_has_rules);
    });
    found
}

fn nested_has_rules(n: &NestedValueValidation) -> bool {
    n.x_validations.as_ref().is_some_and(|r| !r.is_empty())
        || n.value_validation.all_of.iter().any(nested_has_rules)
        || n.items.as_deref().is_some_and(nested_has_rules)
        || n.additional_properties.as_deref().is_some_and(nested_has_rules)
        || n.properties.iter().flatten().any(|(_, p)| nested_has_rules(p))
}

fn same_keys(keys: &[String], a: &Value, b: &Value) -> bool {
    keys.iter().all(|k| a.get(k) == b.get(k))
}

/// The reference's `ruleErrorString`: the message if there is one, else the rule.
fn rule_error_string(rule: &ValidationRule) -> String {
    if rule.message.is_empty() {
        rule.rule.trim().to_owned()
    } else {
        rule.message.trim().to_owned()
    }
}

/// The reference's `ruleMessageOrDefault`.
fn rule_message_or_default(rule: &ValidationRule) -> String {
    if rule.message.is_empty() {
        format!("failed rule: {}", rule_error_string(rule))
    } else {
        rule.message.trim().to_owned()
    }
}

/// `fieldErrorForReason`.
fn error_for_reason(path: &Path, value: BadValue, detail: String, reason: Option<&str>) -> FieldError {
    match reason {
        Some("FieldValueForbidden") => FieldError::forbidden(path, detail),
        Some("FieldValueRequired") => FieldError::required(path, detail),
        Some("FieldValueDuplicate") => FieldError::duplicate(path, value),
        _ => FieldError::new(ErrorKind::Invalid, path, value, detail),
    }
}

/// A rule's `fieldPath` (`.spec.x`, `.m['k']`) as the path string the reference appends
/// (`spec.x`, `m[k]`); `None` when it does not parse (the CRD would have been refused).
fn normalized_field_path(field_path: &str) -> Option<String> {
    if field_path.is_empty() {
        return Some(String::new());
    }
    let mut out = Path::nil();
    let mut rest = field_path;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('.') {
            let end = r.find(['.', '[']).unwrap_or(r.len());
            out = out.child(&r[..end]);
            rest = &r[end..];
        } else if let Some(r) = rest.strip_prefix("['") {
            let mut end = None;
            let b = r.as_bytes();
            for i in 0..b.len() {
                if b[i] == b'\'' && (i == 0 || b[i - 1] != b'\\') {
                    end = Some(i);
                    break;
                }
            }
            let end = end?;
            let key = r[..end].replace("\\'", "'").replace("\\\\", "\\");
            out = out.child(&key);
            rest = r[end + 1..].strip_prefix(']')?;
        } else {
            return None;
        }
    }
    Some(out.to_string())
}

#[cfg(test)]
mod tests;
