//! Resource attributes (`group`, `version`, `kind`, ... on a spec type): parsed once, then
//! checked as the API server would check the CRD they make, where the macro can see it.

use proc_macro2::Span;
use serde_derive_internals::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::spanned::Spanned as _;
use syn::{LitBool, LitInt, LitStr, Token};

use super::attr::Spanned;

/// The keys that make a spec type a resource (everything else is a schema-node key).
pub const KEYS: &[&str] = &[
    "group",
    "version",
    "kind",
    "root",
    "plural",
    "singular",
    "shortname",
    "category",
    "namespaced",
    "status",
    "printcolumn",
    "scale",
    "selectable",
    "served",
    "storage",
    "deprecated",
    "deprecation_warning",
    "label",
    "annotation",
    "doc",
    "derive",
];

/// One `printcolumn(...)`.
pub struct PrintColumn {
    pub name: LitStr,
    pub type_: LitStr,
    pub json_path: LitStr,
    pub description: Option<LitStr>,
    pub format: Option<LitStr>,
    pub priority: Option<i32>,
}

/// `scale(...)`.
pub struct Scale {
    pub span: Span,
    pub spec_replicas_path: LitStr,
    pub status_replicas_path: LitStr,
    pub label_selector_path: Option<LitStr>,
}

/// Everything the resource attributes say, as written.
#[derive(Default)]
pub struct Attrs {
    /// The span of the first resource attribute (for "needs `group`" errors).
    pub first: Option<Span>,
    pub group: Option<LitStr>,
    pub version: Option<LitStr>,
    pub kind: Option<LitStr>,
    pub root: Option<syn::Ident>,
    pub plural: Option<LitStr>,
    pub singular: Option<LitStr>,
    pub short_names: Vec<LitStr>,
    pub categories: Vec<LitStr>,
    pub namespaced: Option<Span>,
    pub status: Option<Spanned<syn::Type>>,
    pub print_columns: Vec<PrintColumn>,
    pub scale: Option<Scale>,
    pub selectable: Vec<LitStr>,
    pub served: Option<Spanned<bool>>,
    pub storage: Option<Spanned<bool>>,
    pub deprecated: Option<Span>,
    pub deprecation_warning: Option<LitStr>,
    pub labels: Vec<(LitStr, LitStr)>,
    pub annotations: Vec<(LitStr, LitStr)>,
    pub doc: Option<LitStr>,
    pub derives: Vec<syn::Path>,
}

fn once<T>(meta: &ParseNestedMeta, slot: &mut Option<T>, value: T, key: &str) -> syn::Result<()> {
    if slot.is_some() {
        return Err(meta.error(format!("duplicate kstruct attribute `{key}`")));
    }
    *slot = Some(value);
    Ok(())
}

fn lit(meta: &ParseNestedMeta) -> syn::Result<LitStr> {
    meta.value()?.parse::<LitStr>()
}

fn flag(meta: &ParseNestedMeta) -> syn::Result<bool> {
    if meta.input.peek(Token![=]) {
        Ok(meta.value()?.parse::<LitBool>()?.value)
    } else {
        Ok(true)
    }
}

/// `("key", "value")` or `(key = "value")`... only the first: kube's spelling.
fn pair(meta: &ParseNestedMeta) -> syn::Result<(LitStr, LitStr)> {
    let content;
    syn::parenthesized!(content in meta.input);
    let k = content.parse::<LitStr>()?;
    content.parse::<Token![,]>()?;
    let v = content.parse::<LitStr>()?;
    content.parse::<Option<Token![,]>>()?;
    if !content.is_empty() {
        return Err(content.error("expected `(\"key\", \"value\")`"));
    }
    Ok((k, v))
}

impl Attrs {
    /// Parses one resource key (one of [`KEYS`]).
    pub fn parse(&mut self, cx: &Ctxt, meta: &ParseNestedMeta, key: &str) -> syn::Result<()> {
        let span = meta.path.span();
        self.first.get_or_insert(span);
        match key {
            "group" => once(meta, &mut self.group, lit(meta)?, key),
            "version" => once(meta, &mut self.version, lit(meta)?, key),
            "kind" => once(meta, &mut self.kind, lit(meta)?, key),
            "root" => {
                let l = lit(meta)?;
                let ident = l.parse::<syn::Ident>().map_err(|_| {
                    syn::Error::new(l.span(), "`root` names the generated type: it must be an identifier")
                })?;
                once(meta, &mut self.root, ident, key)
            }
            "plural" => once(meta, &mut self.plural, lit(meta)?, key),
            "singular" => once(meta, &mut self.singular, lit(meta)?, key),
            "shortname" => {
                self.short_names.push(lit(meta)?);
                Ok(())
            }
            "category" => {
                self.categories.push(lit(meta)?);
                Ok(())
            }
            "namespaced" => {
                if self.namespaced.is_some() {
                    return Err(meta.error("duplicate kstruct attribute `namespaced`"));
                }
                if flag(meta)? {
                    self.namespaced = Some(span);
                }
                Ok(())
            }
            "status" => {
                let l = lit(meta)?;
                let ty = l.parse::<syn::Type>()?;
                once(
                    meta,
                    &mut self.status,
                    Spanned {
                        value: ty,
                        span: l.span(),
                    },
                    key,
                )
            }
            "printcolumn" => {
                if meta.input.peek(Token![=]) {
                    let json = lit(meta)?;
                    return Err(syn::Error::new(
                        json.span(),
                        format!(
                            "kube-rs' JSON form of `printcolumn` is not read here: write {}",
                            super::kube::printcolumn_attribute(&json.value())
                        ),
                    ));
                }
                if let Some(c) = print_column(cx, meta)? {
                    self.print_columns.push(c);
                }
                Ok(())
            }
            "scale" => {
                if meta.input.peek(Token![=]) {
                    let json = lit(meta)?;
                    return Err(syn::Error::new(
                        json.span(),
                        format!(
                            "kube-rs' JSON form of `scale` is not read here: write {}",
                            super::kube::scale_attribute(&json.value())
                        ),
                    ));
                }
                match scale(cx, meta)? {
                    Some(s) => once(meta, &mut self.scale, s, key),
                    None => Ok(()),
                }
            }
            "selectable" => {
                self.selectable.push(lit(meta)?);
                Ok(())
            }
            "served" => {
                let v = flag(meta)?;
                once(meta, &mut self.served, Spanned { value: v, span }, key)
            }
            "storage" => {
                let v = flag(meta)?;
                once(meta, &mut self.storage, Spanned { value: v, span }, key)
            }
            "deprecated" => {
                if self.deprecated.is_some() {
                    return Err(meta.error("duplicate kstruct attribute `deprecated`"));
                }
                self.deprecated = Some(span);
                if meta.input.peek(Token![=]) {
                    // kube's spelling: `deprecated = "warning"`.
                    let w = lit(meta)?;
                    return once(meta, &mut self.deprecation_warning, w, "deprecation_warning");
                }
                Ok(())
            }
            "deprecation_warning" => {
                self.deprecated.get_or_insert(span);
                once(meta, &mut self.deprecation_warning, lit(meta)?, key)
            }
            "label" => {
                self.labels.push(pair(meta)?);
                Ok(())
            }
            "annotation" => {
                self.annotations.push(pair(meta)?);
                Ok(())
            }
            "doc" => once(meta, &mut self.doc, lit(meta)?, key),
            "derive" => {
                if meta.input.peek(Token![=]) {
                    self.derives.push(lit(meta)?.parse()?);
                } else {
                    meta.parse_nested_meta(|inner| {
                        self.derives.push(inner.path.clone());
                        Ok(())
                    })?;
                }
                Ok(())
            }
            _ => unreachable!("not a resource key: {key}"),
        }
    }
}

/// `printcolumn(...)`; `None` when a key had an error (reported in `cx`).
fn print_column(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<PrintColumn>> {
    let span = meta.path.span();
    let mut c = ColumnKeys::default();
    let mut failed = false;
    super::attr::each_nested(cx, meta, |inner| {
        let result = c.parse(inner);
        failed |= result.is_err();
        result
    })?;
    if failed {
        return Ok(None);
    }
    let missing = |what: &str| {
        syn::Error::new(
            span,
            format!("printcolumn needs `{what} = \"...\"` (or the type and path in one: `string = \".spec.engine\"`)"),
        )
    };
    Ok(Some(PrintColumn {
        name: c.name.ok_or_else(|| missing("name"))?,
        type_: c.type_.ok_or_else(|| missing("type"))?,
        json_path: c.json_path.ok_or_else(|| missing("json_path"))?,
        description: c.description,
        format: c.format,
        priority: c.priority,
    }))
}

/// The keys of `printcolumn(...)` (besides the column types).
const PRINT_COLUMN_KEYS: &[&str] = &["name", "type", "json_path", "description", "format", "priority"];

/// The keys of one `printcolumn(...)`, as read so far.
#[derive(Default)]
struct ColumnKeys {
    name: Option<LitStr>,
    type_: Option<LitStr>,
    json_path: Option<LitStr>,
    description: Option<LitStr>,
    format: Option<LitStr>,
    priority: Option<i32>,
}

impl ColumnKeys {
    fn parse(&mut self, inner: &ParseNestedMeta) -> syn::Result<()> {
        let key = inner.path.get_ident().map(ToString::to_string).unwrap_or_default();
        match key.as_str() {
            "name" => once(inner, &mut self.name, lit(inner)?, &key),
            "type" | "type_" => once(inner, &mut self.type_, lit(inner)?, "type"),
            "json_path" | "jsonPath" => once(inner, &mut self.json_path, lit(inner)?, "json_path"),
            // `integer = ".spec.replicas"`: type and path in one key, which clippy's
            // `duplicated_attributes` does not flag when two columns share a type.
            t if COLUMN_TYPES.contains(&t) => {
                let path = lit(inner)?;
                once(inner, &mut self.type_, LitStr::new(t, inner.path.span()), "type")?;
                once(inner, &mut self.json_path, path, "json_path")
            }
            "description" => once(inner, &mut self.description, lit(inner)?, &key),
            "format" => once(inner, &mut self.format, lit(inner)?, &key),
            "priority" => {
                let l = inner.value()?.parse::<LitInt>()?;
                let p = l
                    .base10_parse::<i32>()
                    .ok()
                    .filter(|p| *p >= 0)
                    .ok_or_else(|| syn::Error::new(l.span(), "`priority` must be 0 or more (an int32)"))?;
                once(inner, &mut self.priority, p, &key)
            }
            _ => {
                let mut keys: Vec<&str> = PRINT_COLUMN_KEYS.to_vec();
                keys.extend(COLUMN_TYPES);
                let hint = kstruct_schema::suggest::did_you_mean(&key, &keys)
                    .map(|m| format!(" (did you mean `{m}`?)"))
                    .unwrap_or_default();
                Err(inner.error(format!(
                    "unknown printcolumn key `{key}`{hint}: expected name, a type with its path (`integer = \".spec.replicas\"`), \
                     type and json_path, description, format or priority"
                )))
            }
        }
    }
}

/// `scale(...)`; `None` when a key had an error (reported in `cx`).
fn scale(cx: &Ctxt, meta: &ParseNestedMeta) -> syn::Result<Option<Scale>> {
    const KEYS: &[&str] = &["spec_replicas_path", "status_replicas_path", "label_selector_path"];
    let span = meta.path.span();
    let (mut spec, mut status, mut selector) = (None, None, None);
    let mut failed = false;
    super::attr::each_nested(cx, meta, |inner| {
        let key = inner.path.get_ident().map(ToString::to_string).unwrap_or_default();
        let result = match key.as_str() {
            "spec_replicas_path" => lit(inner).and_then(|l| once(inner, &mut spec, l, &key)),
            "status_replicas_path" => lit(inner).and_then(|l| once(inner, &mut status, l, &key)),
            "label_selector_path" => lit(inner).and_then(|l| once(inner, &mut selector, l, &key)),
            _ => {
                let hint = kstruct_schema::suggest::did_you_mean(&key, KEYS)
                    .map(|m| format!(" (did you mean `{m}`?)"))
                    .unwrap_or_default();
                Err(inner.error(format!(
                    "unknown scale key `{key}`{hint}: expected spec_replicas_path, status_replicas_path or label_selector_path"
                )))
            }
        };
        failed |= result.is_err();
        result
    })?;
    if failed {
        return Ok(None);
    }
    let missing = |what: &str| syn::Error::new(span, format!("scale needs `{what} = \"...\"`"));
    Ok(Some(Scale {
        span,
        spec_replicas_path: spec.ok_or_else(|| missing("spec_replicas_path"))?,
        status_replicas_path: status.ok_or_else(|| missing("status_replicas_path"))?,
        label_selector_path: selector,
    }))
}

/// The resource, with the defaults filled in: what the generated code uses.
pub struct Resource<'a> {
    pub group: String,
    pub version: String,
    pub kind: String,
    pub root: syn::Ident,
    pub plural: String,
    pub singular: String,
    pub attrs: &'a Attrs,
}

/// Checks the attributes and fills in the defaults; `None` (with errors in `cx`) when
/// `group`, `version` or `kind` is missing. What the paths name below `.spec` and `.status`
/// is checked against the types' outlines by `const` items the expansion writes.
pub fn resolve<'a>(cx: &Ctxt, attrs: &'a Attrs, ident: &syn::Ident) -> Option<Resource<'a>> {
    let first = attrs.first?;
    let (Some(group), Some(version), Some(kind)) = (&attrs.group, &attrs.version, &attrs.kind) else {
        let missing: Vec<&str> = [
            ("group", &attrs.group),
            ("version", &attrs.version),
            ("kind", &attrs.kind),
        ]
        .into_iter()
        .filter(|(_, v)| v.is_none())
        .map(|(k, _)| k)
        .collect();
        cx.syn_error(syn::Error::new(
            first,
            format!(
                "resource attributes need `group`, `version` and `kind` (missing: {}): e.g. \
                 #[kstruct(group = \"example.com\", version = \"v1\", kind = \"Widget\")]",
                missing.join(", ")
            ),
        ));
        return None;
    };
    let err = |l: &LitStr, m: String| cx.error_spanned_by(l, m);
    let (g, v, k) = (group.value(), version.value(), kind.value());
    if let Some(why) = dns1123_subdomain(&g) {
        err(group, format!("the API server refuses group {g:?}: {why}"));
    } else if !g.contains('.') {
        err(
            group,
            format!(
                "the API server refuses group {g:?}: it should be a domain with at least one dot (`{g}.example.com`)"
            ),
        );
    }
    if let Some(why) = dns1035_label(&v) {
        err(version, format!("the API server refuses version {v:?}: {why}"));
    }
    if k.is_empty() {
        err(kind, "`kind` must not be empty".into());
    } else if let Some(why) = dns1035_label(&k.to_lowercase()) {
        err(kind, format!("the API server refuses kind {k:?}: its lower case {why}"));
    } else if !k.starts_with(|c: char| c.is_ascii_uppercase()) {
        err(
            kind,
            format!(
                "a kind is written in UpperCamelCase (`{}`), as the root type it names",
                upper_first(&k)
            ),
        );
    }
    let root = match &attrs.root {
        Some(r) => r.clone(),
        None => match syn::parse_str::<syn::Ident>(&k) {
            Ok(_) => syn::Ident::new(&k, kind.span()),
            Err(_) => {
                err(
                    kind,
                    format!(
                        "the root type is named after the kind, and {k:?} is not a Rust identifier: name it with `root = \"...\"`"
                    ),
                );
                syn::Ident::new("__InvalidKind", kind.span())
            }
        },
    };
    if root == *ident {
        cx.error_spanned_by(
            kind,
            format!("the generated root type would be named `{root}`, like the spec type: name the spec `{root}Spec`, or the root with `root = \"...\"`"),
        );
    }
    let plural = attrs
        .plural
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| to_plural(&k.to_lowercase()));
    let singular = attrs
        .singular
        .as_ref()
        .map(LitStr::value)
        .unwrap_or_else(|| k.to_lowercase());
    for (what, l) in [("plural", &attrs.plural), ("singular", &attrs.singular)] {
        if let Some(l) = l
            && let Some(why) = dns1035_label(&l.value())
        {
            err(l, format!("the API server refuses {what} {:?}: {why}", l.value()));
        }
    }
    if attrs.plural.is_none()
        && let Some(why) = dns1035_label(&plural)
    {
        err(
            kind,
            format!("the default plural {plural:?} is refused by the API server ({why}): set `plural`"),
        );
    }
    if let Some(why) = dns1123_subdomain(&format!("{plural}.{g}")) {
        err(
            group,
            format!("the CRD's name {plural}.{g} is refused by the API server: {why}"),
        );
    }
    for (what, list) in [("shortname", &attrs.short_names), ("category", &attrs.categories)] {
        for (i, l) in list.iter().enumerate() {
            if let Some(why) = dns1035_label(&l.value()) {
                err(l, format!("the API server refuses {what} {:?}: {why}", l.value()));
            }
            if list[..i].iter().any(|o| o.value() == l.value()) {
                err(l, format!("duplicate {what} {:?}", l.value()));
            }
        }
    }
    let list_kind = format!("{k}List");
    if !k.is_empty()
        && let Some(why) = dns1035_label(&list_kind.to_lowercase())
    {
        err(
            kind,
            format!("the API server refuses the list kind {list_kind:?}: its lower case {why}"),
        );
    }
    let protected = g == "k8s.io" || g.ends_with(".k8s.io") || g == "kubernetes.io" || g.ends_with(".kubernetes.io");
    if protected && !attrs.annotations.iter().any(|(key, _)| key.value() == APPROVAL) {
        err(
            group,
            format!(
                "groups of the Kubernetes project need the annotation {APPROVAL:?}: \
                 `annotation(\"{APPROVAL}\", \"https://github.com/kubernetes/enhancements/pull/...\")` \
                 (the approved API review), or a value starting with \"unapproved\""
            ),
        );
    }
    if let Some(w) = &attrs.deprecation_warning {
        let text = w.value();
        if text.is_empty() {
            err(w, "the API server refuses an empty deprecation warning".into());
        } else if text.len() > 256 {
            err(
                w,
                format!(
                    "the API server refuses a deprecation warning of {} bytes: at most 256",
                    text.len()
                ),
            );
        } else if let Some((i, _)) = text.char_indices().find(|(_, c)| c.is_control()) {
            err(
                w,
                format!("the API server refuses a deprecation warning with a control character (at byte {i})"),
            );
        }
    }
    for (key, value) in &attrs.labels {
        if let Some(why) = first_reason(kstruct_schema::names::is_label_value(&value.value())) {
            err(
                value,
                format!("the API server refuses the value of label {:?}: {why}", key.value()),
            );
        }
    }
    for (what, list) in [("label", &attrs.labels), ("annotation", &attrs.annotations)] {
        for (i, (key, _)) in list.iter().enumerate() {
            if list[..i].iter().any(|(o, _)| o.value() == key.value()) {
                err(key, format!("duplicate {what} {:?}", key.value()));
            }
            // The API server lower-cases annotation keys before checking them.
            let checked = if what == "annotation" {
                key.value().to_lowercase()
            } else {
                key.value()
            };
            if let Some(why) = qualified_name(&checked) {
                err(
                    key,
                    format!("the API server refuses the {what} key {:?}: {why}", key.value()),
                );
            }
        }
    }
    check_paths(cx, attrs);
    Some(Resource {
        group: g,
        version: v,
        kind: k,
        root,
        plural,
        singular,
        attrs,
    })
}

fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

const COLUMN_TYPES: &[&str] = &["integer", "number", "string", "boolean", "date"];
const COLUMN_FORMATS: &[&str] = &[
    "int32",
    "int64",
    "float",
    "double",
    "byte",
    "date",
    "date-time",
    "password",
];

fn check_paths(cx: &Ctxt, attrs: &Attrs) {
    let has_status = attrs.status.is_some();
    // A path's first hop: the root's fields.
    let check = |l: &LitStr, what: &str, under: &[&str]| {
        let path = l.value();
        let Some(rest) = path.strip_prefix('.') else {
            cx.error_spanned_by(
                l,
                format!("{what} must be a JSON path starting with `.` (`.spec.replicas`), not {path:?}"),
            );
            return;
        };
        let head = rest.split('.').next().unwrap_or("");
        let head = head.split('[').next().unwrap_or("");
        // A field under `.spec`/`.status`, not the whole of it (the API server wants the
        // `.spec.` prefix, dot included).
        if !rest.contains('.') && head != "metadata" && head != "apiVersion" && head != "kind" {
            cx.error_spanned_by(
                l,
                format!("{what} must name a field under `.{head}` (`.{head}.replicas`), not {path:?}"),
            );
            return;
        }
        if !under.contains(&head) {
            let hint = if under.len() == 1 {
                format!("`.{}`", under[0])
            } else {
                format!("`.{}`", under.join("` or `."))
            };
            cx.error_spanned_by(l, format!("{what} must be under {hint}, not {path:?}"));
            return;
        }
        if head == "status" && !has_status {
            cx.error_spanned_by(
                l,
                format!("{what} {path:?} is under `.status`, but the kind has no status: name its type with `status = \"...\"`"),
            );
        }
    };
    let mut names: Vec<String> = Vec::new();
    for c in &attrs.print_columns {
        let name = c.name.value();
        if name.is_empty() {
            cx.error_spanned_by(&c.name, "a printcolumn's name must not be empty");
        }
        if names.contains(&name) {
            cx.error_spanned_by(&c.name, format!("duplicate printcolumn name {name:?}"));
        }
        names.push(name);
        let t = c.type_.value();
        if !COLUMN_TYPES.contains(&t.as_str()) {
            cx.error_spanned_by(
                &c.type_,
                format!(
                    "the API server refuses printcolumn type {t:?}: it must be one of {}",
                    quoted(COLUMN_TYPES)
                ),
            );
        }
        if let Some(f) = &c.format
            && !COLUMN_FORMATS.contains(&f.value().as_str())
        {
            cx.error_spanned_by(
                f,
                format!(
                    "the API server refuses printcolumn format {:?}: it must be one of {}",
                    f.value(),
                    quoted(COLUMN_FORMATS)
                ),
            );
        }
        check(
            &c.json_path,
            "a printcolumn's json_path",
            &["spec", "status", "metadata", "apiVersion", "kind"],
        );
    }
    if let Some(s) = &attrs.scale {
        if !has_status {
            cx.syn_error(syn::Error::new(
                s.span,
                "the scale subresource reads the observed replicas from `.status`: name the status type with `status = \"...\"`",
            ));
        } else {
            check(&s.spec_replicas_path, "spec_replicas_path", &["spec"]);
            check(&s.status_replicas_path, "status_replicas_path", &["status"]);
            if let Some(l) = &s.label_selector_path {
                check(l, "label_selector_path", &["spec", "status"]);
            }
        }
    }
    if attrs.selectable.len() > 8 {
        cx.error_spanned_by(
            &attrs.selectable[8],
            "the API server allows at most 8 selectable fields",
        );
    }
    for (i, l) in attrs.selectable.iter().enumerate() {
        if attrs.selectable[..i].iter().any(|o| o.value() == l.value()) {
            cx.error_spanned_by(l, format!("duplicate selectable field {:?}", l.value()));
        }
        if l.value().contains(['[', '*']) {
            cx.error_spanned_by(l, "a selectable field is a plain path to one scalar field (no `[...]`)");
            continue;
        }
        check(l, "a selectable field", &["spec", "status"]);
    }
}

fn quoted(list: &[&str]) -> String {
    list.iter().map(|s| format!("{s:?}")).collect::<Vec<_>>().join(", ")
}

/// The plural kube-rs and controller-gen give a regular English noun (already lower case).
pub fn to_plural(word: &str) -> String {
    if word.ends_with('s') || word.ends_with('x') || word.ends_with('z') || word.ends_with("ch") || word.ends_with("sh")
    {
        return format!("{word}es");
    }
    if let Some(stem) = word.strip_suffix('y')
        && !stem.ends_with(['a', 'e', 'i', 'o', 'u'])
        && !stem.is_empty()
    {
        return format!("{stem}ies");
    }
    format!("{word}s")
}

/// The annotation that groups of the Kubernetes project need (`validateAPIApproval`).
const APPROVAL: &str = "api-approved.kubernetes.io";

/// apimachinery's first reason to refuse a name, without the example and regular expression
/// that follow it (the error's span already points at the value).
fn first_reason(reasons: Vec<String>) -> Option<String> {
    reasons
        .into_iter()
        .next()
        .map(|m| m.split(" (e.g.").next().unwrap_or_default().to_string())
}

/// Why `s` is not a DNS-1035 label (apimachinery's words), if it is not.
pub fn dns1035_label(s: &str) -> Option<String> {
    first_reason(kstruct_schema::names::is_dns1035_label(s))
}

/// Why `s` is not a DNS-1123 subdomain, if it is not.
pub fn dns1123_subdomain(s: &str) -> Option<String> {
    first_reason(kstruct_schema::names::is_dns1123_subdomain(s))
}

/// Why `s` is not a qualified name (a label or annotation key: `[prefix/]name`), if it is not.
fn qualified_name(s: &str) -> Option<String> {
    let (prefix, name) = match s.rsplit_once('/') {
        Some((p, n)) => (Some(p), n),
        None => (None, s),
    };
    if let Some(p) = prefix
        && (p.is_empty() || dns1123_subdomain(p).is_some())
    {
        return Some("its prefix must be a DNS subdomain (`example.com/name`)".into());
    }
    let b = name.as_bytes();
    let ok = !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'));
    (!ok).then(|| {
        "a name must be 63 characters or less, of alphanumeric characters, '-', '_' or '.', starting and \
         ending with an alphanumeric character"
            .into()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_of_regular_nouns() {
        for (w, p) in [
            ("widget", "widgets"),
            ("policy", "policies"),
            ("gateway", "gateways"),
            ("ingress", "ingresses"),
            ("box", "boxes"),
            ("batch", "batches"),
            ("mesh", "meshes"),
        ] {
            assert_eq!(to_plural(w), p);
        }
    }

    #[test]
    fn names() {
        assert!(dns1035_label("v1beta1").is_none());
        assert!(dns1035_label("1v").is_some());
        assert!(dns1035_label("V1").is_some());
        assert!(dns1123_subdomain("example.com").is_none());
        assert!(dns1123_subdomain("Example.com").is_some());
        assert!(qualified_name("app.kubernetes.io/name").is_none());
        assert!(qualified_name("bad key").is_some());
    }
}
