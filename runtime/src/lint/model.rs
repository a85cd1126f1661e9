//! The CRD as the API server validates it: the v1 document decoded (Go's JSON rules), defaulted
//! (`SetDefaults_CustomResourceDefinition`) and converted to the internal version, where every
//! per-version field that is identical in all versions moves to the top level
//! (`Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec`).
//! That move is why a one-version CRD's schema errors read `spec.validation.openAPIV3Schema...`.

use serde_json::{Map, Value};

/// The internal CustomResourceDefinition, as far as validation reads it.
#[derive(Debug, Default)]
pub(crate) struct Crd {
    pub name: String,
    pub generate_name: String,
    pub labels: Vec<(String, String)>,
    pub annotations: Vec<(String, String)>,
    pub finalizers: Vec<String>,
    pub group: String,
    pub scope: String,
    pub names: Names,
    pub preserve_unknown_fields: bool,
    pub version: String,
    pub versions: Vec<Version>,
    /// `spec.versions` was written as a list (Go's slice is then non-nil and prints `[]` when
    /// empty; an absent one prints `null`).
    pub versions_listed: bool,
    /// `spec.validation`: the schema all versions share, if they share one.
    pub validation: Option<Schema>,
    pub subresources: Option<Subresources>,
    pub columns: Vec<Column>,
    pub selectable_fields: Vec<String>,
    pub conversion: Conversion,
}

/// `spec.names`.
#[derive(Debug, Default)]
pub(crate) struct Names {
    pub plural: String,
    pub singular: String,
    pub kind: String,
    pub list_kind: String,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
}

/// A version's `schema` (`CustomResourceValidation`): `openAPIV3Schema` may still be absent.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Schema {
    pub open_api_v3_schema: Option<Value>,
}

/// One `spec.versions` entry, with the fields that moved to the top level taken out.
#[derive(Debug, Default)]
pub(crate) struct Version {
    pub name: String,
    pub served: bool,
    pub storage: bool,
    pub deprecated: bool,
    pub deprecation_warning: Option<String>,
    pub schema: Option<Schema>,
    pub subresources: Option<Subresources>,
    pub columns: Vec<Column>,
    pub selectable_fields: Vec<String>,
}

/// `subresources`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Subresources {
    pub status: bool,
    pub scale: Option<Scale>,
}

/// `subresources.scale`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Scale {
    pub spec_replicas_path: String,
    pub status_replicas_path: String,
    pub label_selector_path: Option<String>,
}

/// One `additionalPrinterColumns` entry.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Column {
    pub name: String,
    pub type_: String,
    pub format: String,
    pub description: String,
    pub priority: i64,
    pub json_path: String,
}

/// `spec.conversion`, internal shape (`webhookClientConfig`, `conversionReviewVersions`).
#[derive(Debug, Default)]
pub(crate) struct Conversion {
    pub strategy: String,
    pub client_config: Option<ClientConfig>,
    pub review_versions: Vec<String>,
}

/// `webhook.clientConfig`.
#[derive(Debug, Default)]
pub(crate) struct ClientConfig {
    pub url: Option<String>,
    pub service: Option<Service>,
}

/// `webhook.clientConfig.service`.
#[derive(Debug, Default)]
pub(crate) struct Service {
    pub namespace: String,
    pub name: String,
    pub path: Option<String>,
    pub port: i64,
}

/// Go's first type error while decoding, in the API server's words.
pub(crate) struct DecodeError(pub String);

/// Reads fields with Go's rules (null = unset; a wrong JSON type is remembered, decoding goes
/// on, and the first such error fails the request).
struct Reader {
    first_error: Option<String>,
}

impl Reader {
    fn fail(&mut self, v: &Value, strukt: &str, field: &str, go_type: &str) {
        if self.first_error.is_none() {
            self.first_error = Some(format!(
                "json: cannot unmarshal {} into Go struct field {strukt}.{field} of type {go_type}",
                kstruct_schema::go::json_kind(v)
            ));
        }
    }

    fn string(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> String {
        match v {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.fail(other, strukt, field, "string");
                String::new()
            }
        }
    }

    fn opt_string(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> Option<String> {
        match v {
            None | Some(Value::Null) => None,
            Some(_) => Some(self.string(v, strukt, field)),
        }
    }

    /// An `int32` field: Go names a number it cannot hold by its text.
    fn int32(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> i64 {
        match v {
            None | Some(Value::Null) => 0,
            Some(Value::Number(n)) => match n.as_i64().filter(|i| i32::try_from(*i).is_ok()) {
                Some(i) => i,
                None => {
                    if self.first_error.is_none() {
                        self.first_error = Some(format!(
                            "json: cannot unmarshal number {n} into Go struct field {strukt}.{field} of type int32"
                        ));
                    }
                    0
                }
            },
            Some(other) => {
                self.fail(other, strukt, field, "int32");
                0
            }
        }
    }

    fn bool(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> bool {
        match v {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                self.fail(other, strukt, field, "bool");
                false
            }
        }
    }

    fn strings(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> Vec<String> {
        match v {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(items)) => items.iter().map(|i| self.string(Some(i), strukt, field)).collect(),
            Some(other) => {
                self.fail(other, strukt, field, "[]string");
                Vec::new()
            }
        }
    }

    fn string_map(&mut self, v: Option<&Value>, strukt: &str, field: &str) -> Vec<(String, String)> {
        match v {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Object(m)) => m
                .iter()
                .map(|(k, v)| (k.clone(), self.string(Some(v), strukt, field)))
                .collect(),
            Some(other) => {
                self.fail(other, strukt, field, "map[string]string");
                Vec::new()
            }
        }
    }

    fn object<'a>(
        &mut self,
        v: Option<&'a Value>,
        strukt: &str,
        field: &str,
        go_type: &str,
    ) -> Option<&'a Map<String, Value>> {
        match v {
            None | Some(Value::Null) => None,
            Some(Value::Object(m)) => Some(m),
            Some(other) => {
                self.fail(other, strukt, field, go_type);
                None
            }
        }
    }

    fn list<'a>(&mut self, v: Option<&'a Value>, strukt: &str, field: &str, go_type: &str) -> &'a [Value] {
        match v {
            None | Some(Value::Null) => &[],
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.fail(other, strukt, field, go_type);
                &[]
            }
        }
    }
}

const T_CRD: &str = "CustomResourceDefinition";
const T_SPEC: &str = "CustomResourceDefinitionSpec";
const T_NAMES: &str = "CustomResourceDefinitionNames";
const T_VERSION: &str = "CustomResourceDefinitionVersion";

/// Decodes, defaults and converts a v1 CRD document.
pub(crate) fn read(doc: &Value) -> Result<Crd, DecodeError> {
    let mut r = Reader { first_error: None };
    let mut crd = Crd::default();
    let meta = r.object(doc.get("metadata"), T_CRD, "metadata", "v1.ObjectMeta");
    if let Some(m) = meta {
        crd.name = r.string(m.get("name"), "ObjectMeta", "metadata.name");
        crd.generate_name = r.string(m.get("generateName"), "ObjectMeta", "metadata.generateName");
        crd.labels = r.string_map(m.get("labels"), "ObjectMeta", "metadata.labels");
        crd.annotations = r.string_map(m.get("annotations"), "ObjectMeta", "metadata.annotations");
        crd.finalizers = r.strings(m.get("finalizers"), "ObjectMeta", "metadata.finalizers");
    }
    let empty = Map::new();
    let spec = r
        .object(doc.get("spec"), T_CRD, "spec", "v1.CustomResourceDefinitionSpec")
        .unwrap_or(&empty);
    crd.group = r.string(spec.get("group"), T_SPEC, "spec.group");
    crd.scope = r.string(spec.get("scope"), T_SPEC, "spec.scope");
    crd.preserve_unknown_fields = r.bool(spec.get("preserveUnknownFields"), T_SPEC, "spec.preserveUnknownFields");
    if let Some(n) = r.object(
        spec.get("names"),
        T_SPEC,
        "spec.names",
        "v1.CustomResourceDefinitionNames",
    ) {
        crd.names = Names {
            plural: r.string(n.get("plural"), T_NAMES, "spec.names.plural"),
            singular: r.string(n.get("singular"), T_NAMES, "spec.names.singular"),
            kind: r.string(n.get("kind"), T_NAMES, "spec.names.kind"),
            list_kind: r.string(n.get("listKind"), T_NAMES, "spec.names.listKind"),
            short_names: r.strings(n.get("shortNames"), T_NAMES, "spec.names.shortNames"),
            categories: r.strings(n.get("categories"), T_NAMES, "spec.names.categories"),
        };
    }
    let mut raw_versions = Vec::new();
    crd.versions_listed = spec.get("versions").is_some_and(Value::is_array);
    for v in r.list(
        spec.get("versions"),
        T_SPEC,
        "spec.versions",
        "[]v1.CustomResourceDefinitionVersion",
    ) {
        let Some(v) = r.object(Some(v), T_SPEC, "spec.versions", "v1.CustomResourceDefinitionVersion") else {
            raw_versions.push((Version::default(), None, None, Vec::new()));
            continue;
        };
        let name = r.string(v.get("name"), T_VERSION, "spec.versions.name");
        let served = r.bool(v.get("served"), T_VERSION, "spec.versions.served");
        let storage = r.bool(v.get("storage"), T_VERSION, "spec.versions.storage");
        let deprecated = r.bool(v.get("deprecated"), T_VERSION, "spec.versions.deprecated");
        let deprecation_warning = r.opt_string(
            v.get("deprecationWarning"),
            T_VERSION,
            "spec.versions.deprecationWarning",
        );
        let schema = r
            .object(
                v.get("schema"),
                T_VERSION,
                "spec.versions.schema",
                "v1.CustomResourceValidation",
            )
            .map(|s| Schema {
                open_api_v3_schema: s.get("openAPIV3Schema").filter(|v| !v.is_null()).cloned(),
            });
        let subresources = read_subresources(&mut r, v.get("subresources"));
        let mut columns = Vec::new();
        for c in r.list(
            v.get("additionalPrinterColumns"),
            T_VERSION,
            "spec.versions.additionalPrinterColumns",
            "[]v1.CustomResourceColumnDefinition",
        ) {
            let t = "CustomResourceColumnDefinition";
            let f = "spec.versions.additionalPrinterColumns";
            if let Some(c) = r.object(Some(c), T_VERSION, f, "v1.CustomResourceColumnDefinition") {
                columns.push(Column {
                    name: r.string(c.get("name"), t, &format!("{f}.name")),
                    type_: r.string(c.get("type"), t, &format!("{f}.type")),
                    format: r.string(c.get("format"), t, &format!("{f}.format")),
                    description: r.string(c.get("description"), t, &format!("{f}.description")),
                    priority: r.int32(c.get("priority"), t, &format!("{f}.priority")),
                    json_path: r.string(c.get("jsonPath"), t, &format!("{f}.jsonPath")),
                });
            }
        }
        let mut selectable = Vec::new();
        for s in r.list(
            v.get("selectableFields"),
            T_VERSION,
            "spec.versions.selectableFields",
            "[]v1.SelectableField",
        ) {
            if let Some(s) = r.object(
                Some(s),
                T_VERSION,
                "spec.versions.selectableFields",
                "v1.SelectableField",
            ) {
                selectable.push(r.string(
                    s.get("jsonPath"),
                    "SelectableField",
                    "spec.versions.selectableFields.jsonPath",
                ));
            }
        }
        let version = Version {
            name,
            served,
            storage,
            deprecated,
            deprecation_warning,
            selectable_fields: selectable,
            ..Version::default()
        };
        raw_versions.push((version, schema, subresources, columns));
    }
    crd.conversion = read_conversion(&mut r, spec.get("conversion"));
    if let Some(e) = r.first_error {
        return Err(DecodeError(e));
    }
    // SetDefaults_CustomResourceDefinitionSpec.
    if crd.names.singular.is_empty() {
        crd.names.singular = crd.names.kind.to_lowercase();
    }
    if crd.names.list_kind.is_empty() && !crd.names.kind.is_empty() {
        crd.names.list_kind = format!("{}List", crd.names.kind);
    }
    hoist(&mut crd, raw_versions);
    Ok(crd)
}

type RawVersion = (Version, Option<Schema>, Option<Subresources>, Vec<Column>);

/// The v1 -> internal conversion: fields identical in every version move to the top level.
fn hoist(crd: &mut Crd, raw: Vec<RawVersion>) {
    let Some(first) = raw.first() else { return };
    crd.version = first.0.name.clone();
    let schemas_same = raw.iter().all(|v| v.1 == first.1);
    let subresources_same = raw.iter().all(|v| v.2 == first.2);
    let columns_same = raw.iter().all(|v| v.3 == first.3);
    let selectable_same = raw.iter().all(|v| v.0.selectable_fields == first.0.selectable_fields);
    if subresources_same {
        crd.subresources = first.2.clone();
    }
    if schemas_same {
        crd.validation = first.1.clone();
    }
    if columns_same {
        crd.columns = first.3.clone();
    }
    if selectable_same {
        crd.selectable_fields = first.0.selectable_fields.clone();
    }
    for (mut v, schema, subresources, columns) in raw {
        if !schemas_same {
            v.schema = schema;
        }
        if !subresources_same {
            v.subresources = subresources;
        }
        if !columns_same {
            v.columns = columns;
        }
        if selectable_same {
            v.selectable_fields.clear();
        }
        crd.versions.push(v);
    }
}

fn read_subresources(r: &mut Reader, v: Option<&Value>) -> Option<Subresources> {
    let s = r.object(
        v,
        T_VERSION,
        "spec.versions.subresources",
        "v1.CustomResourceSubresources",
    )?;
    let status = r
        .object(
            s.get("status"),
            "CustomResourceSubresources",
            "spec.versions.subresources.status",
            "v1.CustomResourceSubresourceStatus",
        )
        .is_some();
    let t = "CustomResourceSubresourceScale";
    let f = "spec.versions.subresources.scale";
    let scale = r
        .object(
            s.get("scale"),
            "CustomResourceSubresources",
            f,
            "v1.CustomResourceSubresourceScale",
        )
        .map(|sc| Scale {
            spec_replicas_path: r.string(sc.get("specReplicasPath"), t, &format!("{f}.specReplicasPath")),
            status_replicas_path: r.string(sc.get("statusReplicasPath"), t, &format!("{f}.statusReplicasPath")),
            label_selector_path: r.opt_string(sc.get("labelSelectorPath"), t, &format!("{f}.labelSelectorPath")),
        });
    Some(Subresources { status, scale })
}

fn read_conversion(r: &mut Reader, v: Option<&Value>) -> Conversion {
    let Some(c) = r.object(v, T_SPEC, "spec.conversion", "v1.CustomResourceConversion") else {
        // SetDefaults: no conversion is strategy None.
        return Conversion {
            strategy: "None".into(),
            ..Conversion::default()
        };
    };
    let t = "CustomResourceConversion";
    let mut out = Conversion {
        strategy: r.string(c.get("strategy"), t, "spec.conversion.strategy"),
        ..Conversion::default()
    };
    let t = "WebhookConversion";
    if let Some(w) = r.object(
        c.get("webhook"),
        "CustomResourceConversion",
        "spec.conversion.webhook",
        "v1.WebhookConversion",
    ) {
        out.review_versions = r.strings(
            w.get("conversionReviewVersions"),
            t,
            "spec.conversion.webhook.conversionReviewVersions",
        );
        let f = "spec.conversion.webhook.clientConfig";
        if let Some(cc) = r.object(w.get("clientConfig"), t, f, "v1.WebhookClientConfig") {
            let t = "WebhookClientConfig";
            let mut config = ClientConfig {
                url: r.opt_string(cc.get("url"), t, &format!("{f}.url")),
                service: None,
            };
            if let Some(s) = r.object(cc.get("service"), t, &format!("{f}.service"), "v1.ServiceReference") {
                let t = "ServiceReference";
                let f = format!("{f}.service");
                let port = match s.get("port") {
                    None | Some(Value::Null) => 443,
                    Some(Value::Number(n)) if n.as_i64().is_some_and(|p| i32::try_from(p).is_ok()) => {
                        n.as_i64().unwrap_or(443)
                    }
                    Some(other) => {
                        r.fail(other, t, &format!("{f}.port"), "int32");
                        443
                    }
                };
                config.service = Some(Service {
                    namespace: r.string(s.get("namespace"), t, &format!("{f}.namespace")),
                    name: r.string(s.get("name"), t, &format!("{f}.name")),
                    path: r.opt_string(s.get("path"), t, &format!("{f}.path")),
                    port,
                });
            }
            out.client_config = Some(config);
        }
    }
    out
}

/// Whether any schema of the CRD sets a `default` anywhere (`specHasDefaults`).
pub(crate) fn has_defaults(crd: &Crd) -> bool {
    let schemas = crd
        .validation
        .iter()
        .chain(crd.versions.iter().filter_map(|v| v.schema.as_ref()));
    schemas
        .filter_map(|s| s.open_api_v3_schema.as_ref())
        .any(|s| schema_has(s, &|m| m.get("default").is_some_and(|d| !d.is_null())))
}

/// `SchemaHas`: whether `pred` holds for a node of the schema (following every schema-valued
/// keyword).
pub(crate) fn schema_has(v: &Value, pred: &dyn Fn(&Map<String, Value>) -> bool) -> bool {
    let Value::Object(m) = v else { return false };
    if pred(m) {
        return true;
    }
    let each = |v: Option<&Value>| -> bool {
        match v {
            Some(Value::Array(list)) => list.iter().any(|s| schema_has(s, pred)),
            Some(s @ Value::Object(_)) => schema_has(s, pred),
            _ => false,
        }
    };
    let values = |v: Option<&Value>| -> bool {
        match v {
            Some(Value::Object(map)) => map.values().any(|s| schema_has(s, pred)),
            _ => false,
        }
    };
    each(m.get("items"))
        || each(m.get("allOf"))
        || each(m.get("anyOf"))
        || each(m.get("oneOf"))
        || each(m.get("not"))
        || each(m.get("additionalProperties"))
        || each(m.get("additionalItems"))
        || values(m.get("properties"))
        || values(m.get("patternProperties"))
        || values(m.get("definitions"))
        || values(m.get("dependencies"))
}
