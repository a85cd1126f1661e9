//! The API server's rules on one CRD version's `openAPIV3Schema` when the CRD is created:
//! `validateCustomResourceDefinitionValidation`, with the per-node rules of
//! `ValidateCustomResourceDefinitionOpenAPISchema` and `specStandardValidatorV3.validate`
//! (`apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`).
//!
//! The rules run on the schema as Go decoded it (`JSONSchemaProps`), not on [`Structural`]:
//! many of them are about fields a structural schema cannot hold (`$ref`, `id`, arrays of
//! items, `patternProperties`...).
//!
//! Order is the reference's: root rules (status subresource, nullable), then structural
//! validation or, when the schema is structural, default validation, then the per-node rules
//! in a pre-order walk. Where the reference walks a Go map (`properties`, `definitions`,
//! `dependencies`) its order is random; we walk keys in byte order.

use serde_json::Value;

use crate::Error;
use crate::convert::props::{self, Props, PropsOrArray, PropsOrBool};
use crate::field::{BadValue, ErrorKind, FieldError, Path};
use crate::structural::Structural;

/// The schema types the API server accepts (`openapiV3Types`, listed sorted as `List()` does).
const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The root fields allowed when the status subresource is enabled (`allowedFieldsAtRootSchema`).
const ALLOWED_AT_STATUS_ROOT: [&str; 22] = [
    "Description",
    "Type",
    "Format",
    "Title",
    "Maximum",
    "ExclusiveMaximum",
    "Minimum",
    "ExclusiveMinimum",
    "MaxLength",
    "MinLength",
    "Pattern",
    "MaxItems",
    "MinItems",
    "UniqueItems",
    "MultipleOf",
    "Required",
    "Items",
    "Properties",
    "ExternalDocs",
    "Example",
    "XPreserveUnknownFields",
    "XValidations",
];

/// The `reason`s a validation rule may give (`supportedValidationReason`, sorted).
const VALIDATION_REASONS: [&str; 4] = [
    "FieldValueDuplicate",
    "FieldValueForbidden",
    "FieldValueInvalid",
    "FieldValueRequired",
];

/// The switches of the reference's `validationOptions` that change the schema rules. On create
/// all are on ([`Default`]); on update the API server turns each off when the old CRD already
/// broke it ("ratcheting"), and the upstream tests set them one by one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaOptions {
    /// Defaults may be set (they are forbidden in root metadata, apiVersion and kind anyway).
    pub allow_defaults: bool,
    /// Why defaults are forbidden when [`allow_defaults`](Self::allow_defaults) is off.
    pub disallow_defaults_reason: String,
    /// `type` must be one of the six OpenAPI types.
    pub require_valid_property_type: bool,
    /// The schema must be structural (and its defaults valid).
    pub require_structural_schema: bool,
    /// Items of `x-kubernetes-list-type: set` must be scalars or atomic.
    pub require_atomic_set_type: bool,
    /// `validateMapListKeysMapSet`: set/map items not nullable, map keys required or defaulted.
    pub require_map_list_keys_map_set_validation: bool,
    /// The compatibility version whose CEL environment new rules are compiled in (the
    /// server's: its minor version minus one).
    pub cel_compatibility: kstruct_cel::Compatibility,
}

impl Default for SchemaOptions {
    /// What the API server applies when a CRD is created.
    fn default() -> SchemaOptions {
        SchemaOptions {
            allow_defaults: true,
            disallow_defaults_reason: String::new(),
            require_valid_property_type: true,
            require_structural_schema: true,
            require_atomic_set_type: true,
            require_map_list_keys_map_set_validation: true,
            cel_compatibility: kstruct_cel::Compatibility::DEFAULT,
        }
    }
}

/// Everything the API server reports about one version's `openAPIV3Schema` on create.
///
/// `path` is the schema's parent, e.g. `spec.versions[0].schema` (or `spec.validation` after the
/// reference's conversion of identical per-version schemas); messages name
/// `<path>.openAPIV3Schema...`. `status_subresource` is whether the version has the status
/// subresource, which restricts the root. `validate_defaults` is called with the structural
/// schema when it is structural, and returns the findings of the reference's
/// `ValidateDefaults` (it lives where value validation and pruning live).
///
/// Errors: the schema is not a `JSONSchemaProps` at all (Go's JSON decoding error), in which
/// case the API server refuses the whole CRD document before validating it.
///
/// ```
/// use kstruct_schema::{field::Path, validation::openapi::validate_crd_schema};
/// let schema = serde_json::json!({"type": "object", "properties": {"tags": {
///     "type": "array", "uniqueItems": true, "items": {"type": "string"}}}});
/// let path = Path::new("spec").child("validation");
/// let errors = validate_crd_schema(&path, &schema, false, &Default::default(), &mut |_, _| vec![]).unwrap();
/// assert_eq!(errors[0].to_string(), "spec.validation.openAPIV3Schema.properties[tags].uniqueItems: \
///     Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic");
/// ```
pub fn validate_crd_schema(
    path: &Path,
    schema: &Value,
    status_subresource: bool,
    opts: &SchemaOptions,
    validate_defaults: &mut dyn FnMut(&Path, &Structural) -> Vec<FieldError>,
) -> Result<Vec<FieldError>, Error> {
    let Some(props) = props::decode(schema).map_err(Error::Decode)? else {
        return Ok(Vec::new());
    };
    let mut errs = Vec::new();
    if status_subresource {
        status_root(&props, path, &mut errs);
    }
    if props.nullable {
        errs.push(FieldError::forbidden(
            &path.child("openAPIV3Schema.nullable"),
            "nullable cannot be true at the root",
        ));
    }
    let root = path.child("openAPIV3Schema");
    let mut init_errors = Vec::new();
    let mut compile_rules = false;
    if opts.require_structural_schema {
        match crate::convert::from_props(&props) {
            Err(e) => init_errors.push(FieldError::invalid(
                &root,
                BadValue::String(String::new()),
                e.to_string(),
            )),
            Ok(s) => {
                let structural = super::validate_structural(&root, &s);
                if structural.is_empty() {
                    let defaults = validate_defaults(&root, &s);
                    // Rules are only compiled for valid structural schemas with valid defaults.
                    compile_rules = defaults.is_empty();
                    errs.extend(defaults);
                } else {
                    errs.extend(structural);
                }
            }
        }
    }
    let total = std::cell::RefCell::new(TotalCost::default());
    let ctx = Walk {
        allow_defaults: opts.allow_defaults,
        defaults_reason: opts.disallow_defaults_reason.clone(),
        inside_resource_meta: false,
        compile_rules,
        cardinality: Some(1),
        total: &total,
        uncorrelatable: None,
        opts,
    };
    let mut rule_errors = Vec::new();
    node(&props, &root, &ctx, true, &mut errs, &mut rule_errors);
    let total = total.into_inner();
    if total.total > kstruct_cel::cost::STATIC_ESTIMATED_CRD_COST_LIMIT {
        for (path, _) in &total.most_expensive {
            rule_errors.push(FieldError::forbidden(
                path,
                "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
            ));
        }
        rule_errors.push(FieldError::forbidden(
            &root,
            kstruct_cel::cost::exceeds_budget_message(
                "x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema",
                total.total,
                kstruct_cel::cost::STATIC_ESTIMATED_CRD_COST_LIMIT,
            ),
        ));
    }
    // The reference lists the CEL findings after every schema finding.
    errs.extend(rule_errors);
    if errs.is_empty() {
        errs.extend(init_errors);
    }
    Ok(errs)
}

/// Only `object` at the root, and only fields that survive extracting `properties[status]`.
fn status_root(s: &Props, path: &Path, errs: &mut Vec<FieldError>) {
    for field in set_fields(s) {
        if field == "Type" {
            if s.type_ != "object" {
                errs.push(FieldError::invalid(
                    &path.child("openAPIV3Schema.type"),
                    BadValue::String(s.type_.clone()),
                    r#"only "object" is allowed as the type at the root of the schema if the status subresource is enabled"#,
                ));
                return;
            }
            continue;
        }
        if !ALLOWED_AT_STATUS_ROOT.contains(&field) {
            errs.push(FieldError::invalid(
                &path.child("openAPIV3Schema"),
                BadValue::Raw(crate::convert::go_json::schema(s)),
                format!(
                    "only [{}] fields are allowed at the root of the schema if the status subresource is enabled",
                    ALLOWED_AT_STATUS_ROOT.join(" ")
                ),
            ));
            return;
        }
    }
}

/// The Go field names of the internal `JSONSchemaProps` that are not zero, in struct order.
fn set_fields(s: &Props) -> Vec<&'static str> {
    let x = &s.x_list_map_keys;
    [
        ("ID", !s.id.is_empty()),
        ("Schema", !s.schema.is_empty()),
        ("Ref", s.ref_.is_some()),
        ("Description", !s.description.is_empty()),
        ("Type", !s.type_.is_empty()),
        ("Nullable", s.nullable),
        ("Format", !s.format.is_empty()),
        ("Title", !s.title.is_empty()),
        ("Default", s.default.is_some()),
        ("Maximum", s.maximum.is_some()),
        ("ExclusiveMaximum", s.exclusive_maximum),
        ("Minimum", s.minimum.is_some()),
        ("ExclusiveMinimum", s.exclusive_minimum),
        ("MaxLength", s.max_length.is_some()),
        ("MinLength", s.min_length.is_some()),
        ("Pattern", !s.pattern.is_empty()),
        ("MaxItems", s.max_items.is_some()),
        ("MinItems", s.min_items.is_some()),
        ("UniqueItems", s.unique_items),
        ("MultipleOf", s.multiple_of.is_some()),
        ("Enum", !s.enum_.is_empty()),
        ("MaxProperties", s.max_properties.is_some()),
        ("MinProperties", s.min_properties.is_some()),
        ("Required", s.required.is_some()),
        ("Items", s.items.is_some()),
        ("AllOf", !s.all_of.is_empty()),
        ("OneOf", !s.one_of.is_empty()),
        ("AnyOf", !s.any_of.is_empty()),
        ("Not", s.not.is_some()),
        ("Properties", s.properties.is_some()),
        ("AdditionalProperties", s.additional_properties.is_some()),
        ("PatternProperties", !s.pattern_properties.is_empty()),
        ("Dependencies", !s.dependencies.is_empty()),
        ("AdditionalItems", s.additional_items.is_some()),
        ("Definitions", !s.definitions.is_empty()),
        ("ExternalDocs", s.external_docs.is_some()),
        ("Example", s.example.is_some()),
        ("XPreserveUnknownFields", s.x_preserve_unknown_fields.is_some()),
        ("XEmbeddedResource", s.x_embedded_resource),
        ("XIntOrString", s.x_int_or_string),
        ("XListMapKeys", x.is_some()),
        ("XListType", s.x_list_type.is_some()),
        ("XMapType", s.x_map_type.is_some()),
        ("XValidations", s.x_validations.is_some()),
    ]
    .into_iter()
    .filter_map(|(name, set)| set.then_some(name))
    .collect()
}

/// The reference's `specStandardValidatorV3` state, as it changes on the way down.
#[derive(Clone)]
struct Walk<'a> {
    allow_defaults: bool,
    defaults_reason: String,
    inside_resource_meta: bool,
    /// The reference's CEL context is set: the schema is structural with valid defaults, and
    /// the walk follows only properties, additionalProperties and items.
    compile_rules: bool,
    /// How many times this node can occur in an object: the product of the `maxItems` and
    /// `maxProperties` above it (`None`: unbounded). A rule's cost counts that many times.
    cardinality: Option<u64>,
    /// The estimated cost of every rule so far (the per-CRD limit).
    total: &'a std::cell::RefCell<TotalCost>,
    /// Below a list that is not a `map` list, or an object whose map type is neither
    /// `granular` nor `atomic`, values cannot be paired with their old values: the highest
    /// such node, where a rule may not use `oldSelf`.
    uncorrelatable: Option<Path>,
    opts: &'a SchemaOptions,
}

/// `TotalCost`: the sum of the CRD's rules' estimated costs, and the most expensive ones.
#[derive(Default)]
struct TotalCost {
    total: u64,
    most_expensive: Vec<(Path, u64)>,
}

impl TotalCost {
    fn observe(&mut self, path: &Path, cost: u64) {
        self.total = self.total.saturating_add(cost);
        // Rules under 1% of the limit are not named.
        if cost < kstruct_cel::cost::STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path.clone(), cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}

impl<'a> Walk<'a> {
    fn forbid_defaults(&self, reason: &str) -> Walk<'a> {
        Walk {
            allow_defaults: false,
            defaults_reason: reason.to_string(),
            ..self.clone()
        }
    }

    /// A child occurring up to `max` times per parent (`None`: unbounded).
    fn child(&self, max: Option<i64>) -> Walk<'a> {
        let cardinality = match (self.cardinality, max) {
            (Some(c), Some(m)) => Some(c.saturating_mul(u64::try_from(m).unwrap_or(0))),
            _ => None,
        };
        Walk {
            cardinality,
            ..self.clone()
        }
    }

    /// Below `path`, values do not pair with old ones (the highest such node is kept).
    fn uncorrelatable(mut self, path: &Path) -> Walk<'a> {
        if self.uncorrelatable.is_none() {
            self.uncorrelatable = Some(path.clone());
        }
        self
    }

    /// Below `not`, `allOf`, `oneOf`, `anyOf`, `definitions` and `dependencies`: no CEL context.
    fn value_validation(&self) -> Walk<'a> {
        Walk {
            compile_rules: false,
            ..self.clone()
        }
    }
}

/// `ValidateCustomResourceDefinitionOpenAPISchema` with the create options (all rules on).
/// Schema findings go to `errs`, CEL findings to `rules`.
fn node(s: &Props, path: &Path, ctx: &Walk, is_root: bool, errs: &mut Vec<FieldError>, rules: &mut Vec<FieldError>) {
    crate::grow(|| node_rules(s, path, ctx, is_root, errs, rules))
}

fn node_rules(
    s: &Props,
    path: &Path,
    ctx: &Walk,
    is_root: bool,
    errs: &mut Vec<FieldError>,
    rules: &mut Vec<FieldError>,
) {
    let found_before = errs.len();
    standard(s, path, ctx, errs);
    if s.unique_items {
        errs.push(FieldError::forbidden(
            &path.child("uniqueItems"),
            "uniqueItems cannot be set to true since the runtime complexity becomes quadratic",
        ));
    }
    if let Some(ap) = &s.additional_properties {
        let has_properties = s.properties.as_ref().is_some_and(|p| !p.is_empty());
        if has_properties && !matches!(ap, PropsOrBool::Bool(true)) {
            errs.push(FieldError::forbidden(
                &path.child("additionalProperties"),
                "additionalProperties and properties are mutual exclusive",
            ));
        }
        if let PropsOrBool::Schema(schema) = ap {
            let sub = if ctx.inside_resource_meta {
                ctx.forbid_defaults("inside additionalProperties applying to object metadata")
            } else {
                ctx.clone()
            };
            let sub = sub.child(s.max_properties);
            node(schema, &path.child("additionalProperties"), &sub, false, errs, rules);
        }
    }
    let correlatable = matches!(s.x_map_type.as_deref(), None | Some("granular" | "atomic"));
    for (name, p) in s.properties.iter().flatten() {
        let mut sub = ctx.clone();
        if !correlatable {
            sub = sub.uncorrelatable(path);
        }
        if (is_root || s.x_embedded_resource) && matches!(name.as_str(), "metadata" | "kind" | "apiVersion") {
            sub.inside_resource_meta = true;
            if is_root {
                sub = sub.forbid_defaults(&format!("in top-level {name}"));
            }
        }
        node(p, &path.child("properties").key(name), &sub, false, errs, rules);
    }
    let nested = ctx.value_validation();
    if let Some(not) = &s.not {
        node(not, &path.child("not"), &nested, false, errs, rules);
    }
    for (field, list) in [("allOf", &s.all_of), ("oneOf", &s.one_of), ("anyOf", &s.any_of)] {
        for (i, p) in list.iter().enumerate() {
            node(p, &path.child(field).index(i), &nested, false, errs, rules);
        }
    }
    for (name, p) in &s.definitions {
        node(p, &path.child("definitions").key(name), &nested, false, errs, rules);
    }
    match &s.items {
        Some(PropsOrArray::Schema(items)) => {
            // Only `map` lists pair items with their old values.
            let mut sub = ctx.child(s.max_items);
            if s.x_list_type.as_deref() != Some("map") {
                sub = sub.uncorrelatable(path);
            }
            node(items, &path.child("items"), &sub, false, errs, rules);
        }
        Some(PropsOrArray::Array(list)) => {
            for (i, p) in list.iter().enumerate() {
                node(p, &path.child("items").index(i), ctx, false, errs, rules);
            }
        }
        _ => {}
    }
    for (name, v) in &s.dependencies {
        if let Ok(Some(p)) = props::decode(v)
            && v.is_object()
        {
            node(&p, &path.child("dependencies").key(name), &nested, false, errs, rules);
        }
    }
    if s.x_preserve_unknown_fields == Some(false) {
        errs.push(FieldError::invalid(
            &path.child("x-kubernetes-preserve-unknown-fields"),
            BadValue::Bool(false),
            "must be true or undefined",
        ));
    }
    list_and_map_types(s, path, ctx.opts, errs);
    validation_rules(s, path, errs);
    // Rules are compiled only where this node and everything below it is free of schema errors.
    if ctx.compile_rules && errs.len() == found_before {
        compile(s, path, ctx, is_root, rules);
    }
}

/// The reference's rule compilation (`cel.Compile` in the CRD validator): a node without a
/// type (other than int-or-string) has no CEL type; each rule and `messageExpression` is
/// parsed and type-checked against the node's declared type (`self`, and `oldSelf` or its
/// optional), and its estimated cost, times the node's cardinality, must be within the
/// per-expression limit; every cost counts towards the CRD's total.
fn compile(s: &Props, path: &Path, ctx: &Walk, is_root: bool, rules: &mut Vec<FieldError>) {
    use kstruct_cel::check::{Env, RuleKind, compile_rule};
    use kstruct_cel::cost::STATIC_ESTIMATED_COST_LIMIT;
    use kstruct_cel::schema::{max_cardinality, rule_variables, schema_decl_type, self_type_name};

    let Some(list) = s.x_validations.as_ref().filter(|l| !l.is_empty()) else {
        return;
    };
    let at = path.child("x-kubernetes-validations");
    let typeless = || {
        FieldError::new(
            ErrorKind::Internal,
            &at,
            BadValue::Omit,
            "internal error: failed to construct type information for x-kubernetes-validations rules: \
             unable to convert structural schema to CEL declarations",
        )
    };
    if s.type_.is_empty() && !s.x_int_or_string {
        rules.push(typeless());
        return;
    }
    let decl = crate::convert::from_props(s)
        .ok()
        .and_then(|structural| schema_decl_type(&structural, is_root || s.x_embedded_resource));
    let Some(decl) = decl else {
        rules.push(typeless());
        return;
    };
    // A rule's cost counts once per place its node can be: the cardinality above it, or, when
    // that is unbounded, as many as fit in a request.
    let cardinality = ctx
        .cardinality
        .unwrap_or_else(|| max_cardinality(decl.min_serialized_size));
    for (i, rule) in list.iter().enumerate() {
        // The reference prints the rule as the internal `ValidationRule` struct marshals.
        let value = || {
            BadValue::Raw(crate::go::marshal_json(&serde_json::json!({
                "Rule": rule.rule,
                "Message": rule.message,
                "MessageExpression": rule.message_expression,
                "Reason": rule.reason,
                "FieldPath": rule.field_path,
                "OptionalOldSelf": rule.optional_old_self,
            })))
        };
        // The reference names each rule's object type `selfType<clock nanoseconds>`.
        let vars = rule_variables(&decl, &self_type_name(0), rule.optional_old_self == Some(true));
        let env = Env::for_rule_at(&vars, ctx.opts.cel_compatibility);
        let rule_path = at.index(i).child("rule");
        let mut uses_old_self = false;
        match compile_rule(&rule.rule, &env, RuleKind::Rule) {
            Err(e) => rules.push(FieldError::invalid(&rule_path, value(), e.to_string())),
            Ok((expr, checked)) => {
                uses_old_self = checked
                    .references
                    .values()
                    .any(|r| matches!(r, kstruct_cel::check::Reference::Ident(n) if n == "oldSelf"));
                let cost = kstruct_cel::cost::estimate(&expr, &checked, Some(&vars.scoped))
                    .max
                    .saturating_mul(cardinality);
                if cost > STATIC_ESTIMATED_COST_LIMIT {
                    rules.push(FieldError::forbidden(
                        &rule_path,
                        kstruct_cel::cost::exceeds_budget_message(
                            "estimated rule cost",
                            cost,
                            STATIC_ESTIMATED_COST_LIMIT,
                        ),
                    ));
                }
                ctx.total.borrow_mut().observe(&rule_path, cost);
                // The message expression is compiled once the rule has compiled; its cost is
                // not multiplied by the node's cardinality.
                if !rule.message_expression.trim().is_empty() {
                    message_expression(rule, &env, &vars, &at.index(i), ctx, &value, rules);
                }
            }
        }
        if uses_old_self {
            if let Some(within) = &ctx.uncorrelatable {
                rules.push(FieldError::invalid(
                    &rule_path,
                    BadValue::String(rule.rule.clone()),
                    format!("oldSelf cannot be used on the uncorrelatable portion of the schema within {within}"),
                ));
            }
        } else if let Some(optional) = rule.optional_old_self {
            rules.push(FieldError::invalid(
                &at.index(i).child("optionalOldSelf"),
                BadValue::Bool(optional),
                "may not be set if oldSelf is not used in rule",
            ));
        }
    }
}

/// A rule's `messageExpression`, compiled and costed (its cost is not multiplied by the
/// node's cardinality).
fn message_expression(
    rule: &crate::structural::ValidationRule,
    env: &kstruct_cel::check::Env,
    vars: &kstruct_cel::schema::RuleVariables,
    at: &Path,
    ctx: &Walk,
    value: &dyn Fn() -> BadValue,
    rules: &mut Vec<FieldError>,
) {
    use kstruct_cel::check::{RuleKind, compile_rule};
    use kstruct_cel::cost::STATIC_ESTIMATED_COST_LIMIT;
    let message_path = at.child("messageExpression");
    match compile_rule(&rule.message_expression, env, RuleKind::MessageExpression) {
        Err(e) => rules.push(FieldError::invalid(&message_path, value(), e.to_string())),
        Ok((expr, checked)) => {
            let cost = kstruct_cel::cost::estimate(&expr, &checked, Some(&vars.scoped)).max;
            if cost > STATIC_ESTIMATED_COST_LIMIT {
                rules.push(FieldError::forbidden(
                    &message_path,
                    kstruct_cel::cost::exceeds_budget_message(
                        "estimated messageExpression cost",
                        cost,
                        STATIC_ESTIMATED_COST_LIMIT,
                    ),
                ));
            }
            ctx.total.borrow_mut().observe(&message_path, cost);
        }
    }
}

/// `specStandardValidatorV3.validate`: fields the API server never supports.
fn standard(s: &Props, path: &Path, ctx: &Walk, errs: &mut Vec<FieldError>) {
    if ctx.opts.require_valid_property_type && !s.type_.is_empty() && !TYPES.contains(&s.type_.as_str()) {
        errs.push(FieldError::not_supported(&path.child("type"), &s.type_, &TYPES));
    }
    if s.default.is_some() && !ctx.allow_defaults {
        let mut detail = String::from("must not be set");
        if !ctx.defaults_reason.is_empty() {
            detail.push(' ');
            detail.push_str(&ctx.defaults_reason);
        }
        errs.push(FieldError::forbidden(&path.child("default"), detail));
    }
    let unsupported = [
        ("id", !s.id.is_empty()),
        ("additionalItems", s.additional_items.is_some()),
        ("patternProperties", !s.pattern_properties.is_empty()),
        ("definitions", !s.definitions.is_empty()),
        ("dependencies", !s.dependencies.is_empty()),
        ("$ref", s.ref_.is_some()),
    ];
    for (field, set) in unsupported {
        if set {
            errs.push(FieldError::forbidden(
                &path.child(field),
                format!("{field} is not supported"),
            ));
        }
    }
    if s.type_ == "null" {
        errs.push(FieldError::forbidden(
            &path.child("type"),
            "type cannot be set to null, use nullable as an alternative",
        ));
    }
    if matches!(&s.items, Some(PropsOrArray::Array(list)) if !list.is_empty()) {
        errs.push(FieldError::forbidden(
            &path.child("items"),
            "items must be a schema object and not an array",
        ));
    }
    if ctx.inside_resource_meta && s.x_embedded_resource {
        errs.push(FieldError::forbidden(
            &path.child("x-kubernetes-embedded-resource"),
            "must not be used inside of resource meta",
        ));
    }
}

/// `x-kubernetes-map-type`, `x-kubernetes-list-type` and `x-kubernetes-list-map-keys`.
fn list_and_map_types(s: &Props, path: &Path, opts: &SchemaOptions, errs: &mut Vec<FieldError>) {
    if s.x_map_type.is_some() && s.type_ != "object" {
        errs.push(must_be_type(
            path,
            &s.type_,
            "must be object if x-kubernetes-map-type is specified",
        ));
    }
    if let Some(m) = &s.x_map_type
        && m != "atomic"
        && m != "granular"
    {
        errs.push(FieldError::not_supported(
            &path.child("x-kubernetes-map-type"),
            m,
            &["atomic", "granular"],
        ));
    }
    let items = match &s.items {
        Some(PropsOrArray::Schema(items)) => Some(items.as_ref()),
        _ => None,
    };
    let list_type = s.x_list_type.as_deref();
    if list_type.is_some() && s.type_ != "array" {
        errs.push(must_be_type(
            path,
            &s.type_,
            "must be array if x-kubernetes-list-type is specified",
        ));
    } else if opts.require_atomic_set_type
        && list_type == Some("set")
        && let Some(is) = items
    {
        let atomic = "must be atomic as item of a list with x-kubernetes-list-type=set";
        match is.type_.as_str() {
            "array" if is.x_list_type.as_deref().is_some_and(|l| l != "atomic") => errs.push(FieldError::invalid(
                &path.child("items").child("x-kubernetes-list-type"),
                opt_string(&is.x_list_type),
                atomic,
            )),
            // The reference reports the items' list type here, not their map type.
            "object" if is.x_map_type.as_deref() != Some("atomic") => errs.push(FieldError::invalid(
                &path.child("items").child("x-kubernetes-map-type"),
                opt_string(&is.x_list_type),
                atomic,
            )),
            _ => {}
        }
    }
    if let Some(l) = list_type
        && !matches!(l, "atomic" | "set" | "map")
    {
        errs.push(FieldError::not_supported(
            &path.child("x-kubernetes-list-type"),
            l,
            &["atomic", "set", "map"],
        ));
    }
    let keys = s.x_list_map_keys.as_deref().unwrap_or_default();
    if !keys.is_empty() {
        let detail = "must be map if x-kubernetes-list-map-keys is non-empty";
        match list_type {
            None => errs.push(FieldError::required(&path.child("x-kubernetes-list-type"), detail)),
            Some("map") => {}
            Some(other) => errs.push(FieldError::invalid(
                &path.child("x-kubernetes-list-type"),
                BadValue::String(other.to_string()),
                detail,
            )),
        }
    }
    if list_type == Some("map") {
        list_map(s, items, keys, path, errs);
    }
    if opts.require_map_list_keys_map_set_validation {
        map_list_keys_map_set(s, items, keys, path, errs);
    }
}

/// The rules of `x-kubernetes-list-type: map` on the list itself.
fn list_map(s: &Props, items: Option<&Props>, keys: &[String], path: &Path, errs: &mut Vec<FieldError>) {
    if keys.is_empty() {
        errs.push(FieldError::required(
            &path.child("x-kubernetes-list-map-keys"),
            "must not be empty if x-kubernetes-list-type is map",
        ));
    }
    match &s.items {
        None => errs.push(FieldError::required(
            &path.child("items"),
            "must have a schema if x-kubernetes-list-type is map",
        )),
        Some(PropsOrArray::Schema(_)) => {}
        Some(other) => errs.push(FieldError::invalid(
            &path.child("items"),
            BadValue::Raw(crate::convert::go_json::items(other)),
            "must only have a single schema if x-kubernetes-list-type is map",
        )),
    }
    let Some(is) = items else { return };
    if is.type_ != "object" {
        errs.push(FieldError::invalid(
            &path.child("items").child("type"),
            BadValue::String(is.type_.clone()),
            "must be object if parent array's x-kubernetes-list-type is map",
        ));
        return;
    }
    let mut seen = std::collections::BTreeSet::new();
    for k in keys {
        match is.properties.as_ref().and_then(|p| p.get(k)) {
            Some(p) if p.type_ == "array" || p.type_ == "object" => errs.push(FieldError::invalid(
                &path.child("items").child("properties").key(k).child("type"),
                // The reference reports the items' type, not the key's.
                BadValue::String(is.type_.clone()),
                "must be a scalar type if parent array's x-kubernetes-list-type is map",
            )),
            Some(_) => {}
            None => errs.push(FieldError::invalid(
                &path.child("x-kubernetes-list-map-keys"),
                string_list(keys),
                "entries must all be names of item properties",
            )),
        }
        if !seen.insert(k) {
            errs.push(FieldError::invalid(
                &path.child("x-kubernetes-list-map-keys"),
                string_list(keys),
                "must not contain duplicate entries",
            ));
        }
    }
}

/// `validateMapListKeysMapSet`: items of sets and maps are not nullable; map keys are required
/// or defaulted, and not nullable.
fn map_list_keys_map_set(s: &Props, items: Option<&Props>, keys: &[String], path: &Path, errs: &mut Vec<FieldError>) {
    let (Some(is), Some(list_type)) = (items, s.x_list_type.as_deref()) else {
        return;
    };
    if list_type != "set" && list_type != "map" {
        return;
    }
    if is.nullable {
        errs.push(FieldError::forbidden(
            &path.child("items").child("nullable"),
            format!("cannot be nullable when x-kubernetes-list-type is {list_type}"),
        ));
    }
    if list_type != "map" {
        return;
    }
    let required = is.required.as_deref().unwrap_or_default();
    for k in keys {
        let Some(p) = is.properties.as_ref().and_then(|p| p.get(k)) else {
            continue;
        };
        let key_path = path.child("items").child("properties").key(k);
        if !required.contains(k) && p.default.is_none() {
            errs.push(FieldError::required(
                &key_path.child("default"),
                "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property",
            ));
        }
        if p.nullable {
            errs.push(FieldError::forbidden(
                &key_path.child("nullable"),
                "this property is in x-kubernetes-list-map-keys, so it cannot be nullable",
            ));
        }
    }
}

/// The static rules of `x-kubernetes-validations` (CEL compilation is not done; see
/// `docs/divergences.md` for what that leaves out).
fn validation_rules(s: &Props, path: &Path, errs: &mut Vec<FieldError>) {
    for (i, rule) in s.x_validations.iter().flatten().enumerate() {
        let p = path.child("x-kubernetes-validations").index(i);
        let trimmed_rule = trim_space(&rule.rule);
        let trimmed_msg = trim_space(&rule.message);
        if trimmed_rule.is_empty() {
            errs.push(FieldError::required(&p.child("rule"), "rule is not specified"));
        } else if !rule.message.is_empty() && trimmed_msg.is_empty() {
            errs.push(FieldError::invalid(
                &p.child("message"),
                BadValue::String(rule.message.clone()),
                "must be non-empty if specified",
            ));
        } else if has_newlines(trimmed_msg) {
            errs.push(FieldError::invalid(
                &p.child("message"),
                BadValue::String(rule.message.clone()),
                "must not contain line breaks",
            ));
        } else if has_newlines(trimmed_rule) && trimmed_msg.is_empty() {
            errs.push(FieldError::required(
                &p.child("message"),
                "message must be specified if rule contains line breaks",
            ));
        }
        if !rule.message_expression.is_empty() && trim_space(&rule.message_expression).is_empty() {
            errs.push(FieldError::required(
                &p.child("messageExpression"),
                "messageExpression must be non-empty if specified",
            ));
        }
        if let Some(reason) = &rule.reason
            && !VALIDATION_REASONS.contains(&reason.as_str())
        {
            errs.push(FieldError::not_supported(
                &p.child("reason"),
                reason,
                &VALIDATION_REASONS,
            ));
        }
        if !rule.field_path.is_empty() && trim_space(&rule.field_path).is_empty() {
            errs.push(FieldError::invalid(
                &p.child("fieldPath"),
                BadValue::String(rule.field_path.clone()),
                "must be non-empty if specified",
            ));
        }
        if has_newlines(&rule.field_path) {
            errs.push(FieldError::invalid(
                &p.child("fieldPath"),
                BadValue::String(rule.field_path.clone()),
                "must not contain line breaks",
            ));
        }
        if !rule.field_path.is_empty() && !field_path_valid(s, &rule.field_path) {
            errs.push(FieldError::invalid(
                &p.child("fieldPath"),
                BadValue::String(rule.field_path.clone()),
                "must be a valid path",
            ));
        }
    }
}

/// `pathValid`: a rule's `fieldPath` must name a field of the node's structural schema (CEL's
/// `ValidFieldPath`: `.name`, `['name']` and `[index]`/`['key']` steps). A node that does not
/// convert is not checked.
fn field_path_valid(s: &Props, field_path: &str) -> bool {
    match crate::convert::from_props(s) {
        Ok(schema) => super::field_path::resolve(field_path, &schema).is_ok(),
        Err(_) => true,
    }
}

/// Go's `strings.TrimSpace`: Rust's `trim` removes the same (Unicode `White_Space`) characters.
fn trim_space(s: &str) -> &str {
    s.trim()
}

fn has_newlines(s: &str) -> bool {
    s.contains(['\n', '\r'])
}

fn must_be_type(path: &Path, type_: &str, detail: &str) -> FieldError {
    if type_.is_empty() {
        FieldError::required(&path.child("type"), detail)
    } else {
        FieldError::invalid(&path.child("type"), BadValue::String(type_.to_string()), detail)
    }
}

/// A Go `*string`: the string, or `null` when unset (current apimachinery marshals a nil
/// pointer as JSON).
fn opt_string(s: &Option<String>) -> BadValue {
    match s {
        Some(s) => BadValue::String(s.clone()),
        None => BadValue::Json(Value::Null),
    }
}

/// A Go `[]string`, as the reference prints it in a field error.
fn string_list(list: &[String]) -> BadValue {
    BadValue::Json(Value::Array(list.iter().cloned().map(Value::String).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn messages(schema: Value, status: bool) -> Vec<String> {
        validate_crd_schema(
            &Path::new("spec").child("validation"),
            &schema,
            status,
            &SchemaOptions::default(),
            &mut |_, _| vec![],
        )
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect()
    }

    const P: &str = "spec.validation.openAPIV3Schema";

    #[test]
    fn unsupported_fields_are_forbidden_at_their_node() {
        let got = messages(
            json!({"type": "object", "properties": {"a": {"$ref": "#/x", "type": "null"}, "b": {"type": "array", "items": [{"type": "string"}]}}}),
            false,
        );
        assert_eq!(
            got,
            [
                format!(
                    "{P}.properties[a].type: Unsupported value: \"null\": supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\""
                ),
                format!("{P}.properties[a].$ref: Forbidden: $ref is not supported"),
                format!(
                    "{P}.properties[a].type: Forbidden: type cannot be set to null, use nullable as an alternative"
                ),
                format!("{P}.properties[b].items: Forbidden: items must be a schema object and not an array"),
            ]
        );
    }

    #[test]
    fn conversion_errors_only_show_when_nothing_else_does() {
        assert_eq!(
            messages(json!({"type": "object", "$schema": "x"}), false),
            [format!(
                "{P}: Invalid value: \"\": OpenAPIV3Schema 'schema' is not supported"
            )]
        );
    }

    #[test]
    fn root_rules() {
        assert_eq!(
            messages(json!({"type": "object", "nullable": true}), false),
            [format!("{P}.nullable: Forbidden: nullable cannot be true at the root")]
        );
        assert_eq!(
            messages(json!({"type": "array", "items": {"type": "string"}}), true)[0],
            format!(
                "{P}.type: Invalid value: \"array\": only \"object\" is allowed as the type at the root of the schema if the status subresource is enabled"
            )
        );
    }

    #[test]
    fn defaults_forbidden_in_top_level_metadata() {
        let got = messages(
            json!({"type": "object", "properties": {"kind": {"type": "string", "default": "X"}}}),
            false,
        );
        assert_eq!(
            got,
            [format!(
                "{P}.properties[kind].default: Forbidden: must not be set in top-level kind"
            )]
        );
    }

    #[test]
    fn list_types() {
        let got = messages(
            json!({"type": "object", "properties": {
                "s": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object", "nullable": true}},
                "m": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k", "k", "x"],
                      "items": {"type": "object", "properties": {"k": {"type": "object"}}}},
                "t": {"type": "string", "x-kubernetes-list-type": "bag"}
            }}),
            false,
        );
        assert_eq!(
            got,
            [
                format!(
                    "{P}.properties[m].items.properties[k].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map"
                ),
                format!(
                    "{P}.properties[m].items.properties[k].type: Invalid value: \"object\": must be a scalar type if parent array's x-kubernetes-list-type is map"
                ),
                format!(
                    "{P}.properties[m].x-kubernetes-list-map-keys: Invalid value: [\"k\",\"k\",\"x\"]: must not contain duplicate entries"
                ),
                format!(
                    "{P}.properties[m].x-kubernetes-list-map-keys: Invalid value: [\"k\",\"k\",\"x\"]: entries must all be names of item properties"
                ),
                format!(
                    "{P}.properties[m].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
                ),
                format!(
                    "{P}.properties[m].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"
                ),
                format!(
                    "{P}.properties[s].items.x-kubernetes-map-type: Invalid value: null: must be atomic as item of a list with x-kubernetes-list-type=set"
                ),
                format!(
                    "{P}.properties[s].items.nullable: Forbidden: cannot be nullable when x-kubernetes-list-type is set"
                ),
                format!(
                    "{P}.properties[t].type: Invalid value: \"string\": must be array if x-kubernetes-list-type is specified"
                ),
                format!(
                    "{P}.properties[t].x-kubernetes-list-type: Unsupported value: \"bag\": supported values: \"atomic\", \"set\", \"map\""
                ),
            ]
        );
    }

    #[test]
    fn validation_rule_static_checks() {
        let got = messages(
            json!({"type": "object", "x-kubernetes-validations": [
                {"rule": " "},
                {"rule": "a\nb"},
                {"rule": "true", "reason": "Nope", "fieldPath": ".missing"}
            ]}),
            false,
        );
        assert_eq!(
            got,
            [
                format!("{P}.x-kubernetes-validations[0].rule: Required value: rule is not specified"),
                format!(
                    "{P}.x-kubernetes-validations[1].message: Required value: message must be specified if rule contains line breaks"
                ),
                format!(
                    "{P}.x-kubernetes-validations[2].reason: Unsupported value: \"Nope\": supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                ),
                format!("{P}.x-kubernetes-validations[2].fieldPath: Invalid value: \".missing\": must be a valid path"),
            ]
        );
    }

    #[test]
    fn rules_are_parsed_where_the_reference_compiles_them() {
        let got = messages(
            json!({"type": "object", "properties": {
                "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self =="}]},
                "b": {"x-kubernetes-preserve-unknown-fields": true, "x-kubernetes-validations": [{"rule": "true"}]}
            }}),
            false,
        );
        assert_eq!(got.len(), 2, "{got:#?}");
        assert!(
            got[0].starts_with(&format!(
                "{P}.properties[a].x-kubernetes-validations[0].rule: Invalid value: \
                 {{\"FieldPath\":\"\",\"Message\":\"\",\"MessageExpression\":\"\",\"OptionalOldSelf\":null,\"Reason\":null,\"Rule\":\"self ==\"}}: \
                 compilation failed: ERROR: <input>:1:8: Syntax error:"
            )),
            "{}",
            got[0]
        );
        assert_eq!(
            got[1],
            format!(
                "{P}.properties[b].x-kubernetes-validations: Internal error: internal error: failed to construct type \
                 information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations"
            )
        );
    }

    #[test]
    fn rules_of_a_schema_that_is_not_structural_are_not_compiled() {
        let got = messages(
            json!({"type": "object", "properties": {
                "a": {"type": "string", "x-kubernetes-validations": [{"rule": "self =="}]},
                "c": {"type": "string", "allOf": [{"x-kubernetes-validations": [{"rule": "true"}]}]}
            }}),
            false,
        );
        assert_eq!(
            got,
            [format!(
                "{P}.properties[c].allOf[0].x-kubernetes-validations: Forbidden: must be empty to be structural"
            )]
        );
    }

    #[test]
    fn every_property_walk_never_panics_on_odd_input() {
        for schema in [
            json!({}),
            json!({"items": 5}),
            json!({"x-kubernetes-list-type": "map"}),
            json!({"dependencies": {"a": ["b"]}}),
        ] {
            let _ = messages(schema, true);
        }
    }
}
