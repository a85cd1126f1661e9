//! `metav1.ObjectMeta`: its fields, Go's decoding of them from JSON, and the API server's
//! rendering of them back into an object.
//!
//! The API server never keeps `metadata` as written: it round-trips it through this struct
//! (`json.Marshal` then a case-sensitive `json.Unmarshal`), which drops unknown keys, turns
//! `null`s into zero values, and re-renders timestamps. Decoding here works on the JSON value
//! directly and reproduces what that round trip does, errors included.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use kstruct_schema::go::{FieldDecoder, UnmarshalError, json_kind};

use super::time::Time;

/// `metav1.ObjectMeta`, with the fields the API server knows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ObjectMeta {
    /// `name`.
    pub name: String,
    /// `generateName`.
    pub generate_name: String,
    /// `namespace`.
    pub namespace: String,
    /// `selfLink`.
    pub self_link: String,
    /// `uid`.
    pub uid: String,
    /// `resourceVersion`.
    pub resource_version: String,
    /// `generation`.
    pub generation: i64,
    /// `creationTimestamp` (zero when unset).
    pub creation_timestamp: Time,
    /// `deletionTimestamp`.
    pub deletion_timestamp: Option<Time>,
    /// `deletionGracePeriodSeconds`.
    pub deletion_grace_period_seconds: Option<i64>,
    /// `labels`.
    pub labels: BTreeMap<String, String>,
    /// `annotations`.
    pub annotations: BTreeMap<String, String>,
    /// `ownerReferences`.
    pub owner_references: Vec<OwnerReference>,
    /// `finalizers`.
    pub finalizers: Vec<String>,
    /// `managedFields`.
    pub managed_fields: Vec<ManagedFieldsEntry>,
}

/// `metav1.OwnerReference`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OwnerReference {
    /// `apiVersion`.
    pub api_version: String,
    /// `kind`.
    pub kind: String,
    /// `name`.
    pub name: String,
    /// `uid`.
    pub uid: String,
    /// `controller`.
    pub controller: Option<bool>,
    /// `blockOwnerDeletion`.
    pub block_owner_deletion: Option<bool>,
}

/// `metav1.ManagedFieldsEntry`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ManagedFieldsEntry {
    /// `manager`.
    pub manager: String,
    /// `operation`.
    pub operation: String,
    /// `apiVersion`.
    pub api_version: String,
    /// `time`.
    pub time: Option<Time>,
    /// `fieldsType`.
    pub fields_type: String,
    /// `fieldsV1`: kept as raw JSON, as the API server keeps it.
    pub fields_v1: Option<Value>,
    /// `subresource`.
    pub subresource: String,
}

impl Drop for ManagedFieldsEntry {
    fn drop(&mut self) {
        // fieldsV1 is free-form input, nested as deep as the decoder allows.
        if let Some(v) = self.fields_v1.take() {
            crate::json::dispose(v);
        }
    }
}

/// Go's decoder state (see [`FieldDecoder`]), plus the strict decoder's path and the unknown
/// fields it found.
struct Decoder<'u> {
    go: FieldDecoder,
    /// The strict decoder's path: keys joined by `.`, indices as `[i]`.
    path: String,
    unknown: Option<&'u mut Vec<String>>,
}

impl Decoder<'_> {
    fn unknown_field(&mut self, key: &str) {
        if let Some(unknown) = self.unknown.as_deref_mut() {
            unknown.push(if self.path.is_empty() {
                key.to_string()
            } else {
                format!("{}.{key}", self.path)
            });
        }
    }

    fn string(&mut self, v: &Value, go_type: &'static str) -> Option<String> {
        self.go.string(v, go_type)
    }

    fn save(&mut self, value: &str, go_type: &'static str) {
        self.go.save(value, go_type);
    }

    /// Decodes the fields of a struct; `f` handles each known key and returns false for
    /// unknown ones.
    fn object(
        &mut self,
        struct_name: &'static str,
        map: &Map<String, Value>,
        mut f: impl FnMut(&mut Self, &str, &Value) -> Result<bool, UnmarshalError>,
    ) -> Result<(), UnmarshalError> {
        let outer = self.go.enter_struct(struct_name);
        for (k, v) in map {
            let path_len = self.path.len();
            self.go.push_field(k);
            if !self.path.is_empty() {
                self.path.push('.');
            }
            self.path.push_str(k);
            let known = f(self, k, v)?;
            self.path.truncate(path_len);
            self.go.pop_field();
            if !known {
                self.unknown_field(k);
            }
        }
        self.go.leave_struct(outer);
        Ok(())
    }

    /// `metav1.Time`, whose own unmarshaler stops decoding on error.
    fn time(&mut self, v: &Value) -> Result<Option<Time>, UnmarshalError> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) => match Time::parse_rfc3339(s) {
                Ok(t) => Ok(Some(t)),
                Err(e) => Err(UnmarshalError::Other(e.to_string())),
            },
            // The unmarshaler's inner `json.Unmarshal` into a string fails; Go then labels the
            // error with the outer field.
            other => Err(self.go.type_error(json_kind(other), "string")),
        }
    }

    fn string_map(&mut self, v: &Value, into: &mut BTreeMap<String, String>) {
        match v {
            Value::Null => into.clear(),
            Value::Object(map) => {
                for (k, item) in map {
                    let s = self.string(item, "string").unwrap_or_default();
                    if item.is_null() || item.is_string() {
                        into.insert(k.clone(), s);
                    }
                }
            }
            other => self.save(json_kind(other), "map[string]string"),
        }
    }

    /// `[]string`: `null` empties the list.
    fn string_list(&mut self, v: &Value) -> Option<Vec<String>> {
        if v.is_null() {
            Some(Vec::new())
        } else {
            self.go.strings(v)
        }
    }

    fn list<T: Default>(
        &mut self,
        v: &Value,
        go_type: &'static str,
        mut item: impl FnMut(&mut Self, &Value) -> Result<T, UnmarshalError>,
    ) -> Result<Option<Vec<T>>, UnmarshalError> {
        match v {
            Value::Null => Ok(Some(Vec::new())),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, x) in items.iter().enumerate() {
                    let path_len = self.path.len();
                    self.path.push_str(&format!("[{i}]"));
                    out.push(item(self, x)?);
                    self.path.truncate(path_len);
                }
                Ok(Some(out))
            }
            other => {
                self.save(json_kind(other), go_type);
                Ok(None)
            }
        }
    }

    fn owner_reference(&mut self, v: &Value) -> Result<OwnerReference, UnmarshalError> {
        let mut r = OwnerReference::default();
        match v {
            Value::Null => {}
            Value::Object(map) => self.object("OwnerReference", map, |d, k, v| {
                match k {
                    "apiVersion" => set(&mut r.api_version, d.string(v, "string")),
                    "kind" => set(&mut r.kind, d.string(v, "string")),
                    "name" => set(&mut r.name, d.string(v, "string")),
                    "uid" => set(&mut r.uid, d.string(v, "types.UID")),
                    "controller" => r.controller = d.go.boolean(v),
                    "blockOwnerDeletion" => r.block_owner_deletion = d.go.boolean(v),
                    _ => return Ok(false),
                }
                Ok(true)
            })?,
            other => self.save(json_kind(other), "v1.OwnerReference"),
        }
        Ok(r)
    }

    fn managed_fields_entry(&mut self, v: &Value) -> Result<ManagedFieldsEntry, UnmarshalError> {
        let mut e = ManagedFieldsEntry::default();
        match v {
            Value::Null => {}
            Value::Object(map) => self.object("ManagedFieldsEntry", map, |d, k, v| {
                match k {
                    "manager" => set(&mut e.manager, d.string(v, "string")),
                    "operation" => set(&mut e.operation, d.string(v, "v1.ManagedFieldsOperationType")),
                    "apiVersion" => set(&mut e.api_version, d.string(v, "string")),
                    "time" => e.time = d.time(v)?,
                    "fieldsType" => set(&mut e.fields_type, d.string(v, "string")),
                    "fieldsV1" => e.fields_v1 = (!v.is_null()).then(|| crate::json::deep_clone(v)),
                    "subresource" => set(&mut e.subresource, d.string(v, "string")),
                    _ => return Ok(false),
                }
                Ok(true)
            })?,
            other => self.save(json_kind(other), "v1.ManagedFieldsEntry"),
        }
        Ok(e)
    }

    fn object_meta_field(&mut self, m: &mut ObjectMeta, k: &str, v: &Value) -> Result<bool, UnmarshalError> {
        match k {
            "name" => set(&mut m.name, self.string(v, "string")),
            "generateName" => set(&mut m.generate_name, self.string(v, "string")),
            "namespace" => set(&mut m.namespace, self.string(v, "string")),
            "selfLink" => set(&mut m.self_link, self.string(v, "string")),
            "uid" => set(&mut m.uid, self.string(v, "types.UID")),
            "resourceVersion" => set(&mut m.resource_version, self.string(v, "string")),
            "generation" => set(&mut m.generation, self.go.int64(v)),
            "creationTimestamp" => m.creation_timestamp = self.time(v)?.unwrap_or_default(),
            "deletionTimestamp" => m.deletion_timestamp = self.time(v)?,
            "deletionGracePeriodSeconds" => {
                if v.is_null() {
                    m.deletion_grace_period_seconds = None;
                } else if let Some(i) = self.go.int64(v) {
                    m.deletion_grace_period_seconds = Some(i);
                }
            }
            "labels" => self.string_map(v, &mut m.labels),
            "annotations" => self.string_map(v, &mut m.annotations),
            "ownerReferences" => {
                if let Some(l) = self.list(v, "[]v1.OwnerReference", Self::owner_reference)? {
                    m.owner_references = l;
                }
            }
            "finalizers" => {
                if let Some(l) = self.string_list(v) {
                    m.finalizers = l;
                }
            }
            "managedFields" => {
                if let Some(l) = self.list(v, "[]v1.ManagedFieldsEntry", Self::managed_fields_entry)? {
                    m.managed_fields = l;
                }
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Go leaves a field untouched when it decodes `null` or a value of the wrong type.
fn set<T>(field: &mut T, v: Option<T>) {
    if let Some(v) = v {
        *field = v;
    }
}

impl ObjectMeta {
    /// Decodes `metadata` as the API server's round trip does, into `self` (Go decodes into an
    /// existing struct, keeping what earlier decodes set). `unknown` collects the paths of
    /// unknown fields (relative to `metadata`, e.g. `ownerReferences[0].bogus`) when given.
    /// Errors are Go's texts, e.g. `json: cannot unmarshal number into Go struct field
    /// ObjectMeta.annotations of type map[string]string`.
    pub(crate) fn decode_into(&mut self, v: &Value, unknown: Option<&mut Vec<String>>) -> Result<(), String> {
        let mut d = Decoder {
            go: FieldDecoder::new("ObjectMeta"),
            path: String::new(),
            unknown,
        };
        let result = match v {
            Value::Null => Ok(()),
            Value::Object(map) => d.object("ObjectMeta", map, |d, k, v| d.object_meta_field(self, k, v)),
            other => Err(UnmarshalError::Type {
                value: json_kind(other).to_string(),
                go_type: "v1.ObjectMeta",
                struct_name: "",
                field: String::new(),
            }),
        };
        match (result, d.go.take_saved()) {
            (Err(e), _) => Err(e.to_string()),
            (Ok(()), Some(e)) => Err(e.to_string()),
            (Ok(()), None) => Ok(()),
        }
    }

    /// Decodes `metadata` into a fresh `ObjectMeta`.
    pub fn decode(v: &Value) -> Result<ObjectMeta, String> {
        let mut m = ObjectMeta::default();
        m.decode_into(v, None)?;
        Ok(m)
    }

    /// Renders the metadata as the API server writes it back into an object: empty fields
    /// omitted, timestamps in UTC RFC 3339 without fractions.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let strings = [
            ("name", &self.name),
            ("generateName", &self.generate_name),
            ("namespace", &self.namespace),
            ("selfLink", &self.self_link),
            ("uid", &self.uid),
            ("resourceVersion", &self.resource_version),
        ];
        for (k, s) in strings {
            if !s.is_empty() {
                m.insert(k.into(), Value::String(s.clone()));
            }
        }
        if self.generation != 0 {
            m.insert("generation".into(), self.generation.into());
        }
        if !self.creation_timestamp.is_zero() {
            m.insert(
                "creationTimestamp".into(),
                self.creation_timestamp.to_rfc3339_utc().into(),
            );
        }
        if let Some(t) = &self.deletion_timestamp {
            m.insert("deletionTimestamp".into(), time_value(t));
        }
        if let Some(s) = self.deletion_grace_period_seconds {
            m.insert("deletionGracePeriodSeconds".into(), s.into());
        }
        for (k, map) in [("labels", &self.labels), ("annotations", &self.annotations)] {
            if !map.is_empty() {
                let o = map.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
                m.insert(k.into(), Value::Object(o));
            }
        }
        if !self.owner_references.is_empty() {
            let list = self.owner_references.iter().map(OwnerReference::to_value).collect();
            m.insert("ownerReferences".into(), Value::Array(list));
        }
        if !self.finalizers.is_empty() {
            m.insert("finalizers".into(), self.finalizers.clone().into());
        }
        if !self.managed_fields.is_empty() {
            let list = self.managed_fields.iter().map(ManagedFieldsEntry::to_value).collect();
            m.insert("managedFields".into(), Value::Array(list));
        }
        Value::Object(m)
    }
}

/// A set `*metav1.Time`: the zero time renders as `null`.
fn time_value(t: &Time) -> Value {
    if t.is_zero() {
        Value::Null
    } else {
        Value::String(t.to_rfc3339_utc())
    }
}

impl OwnerReference {
    /// The reference as Go's `encoding/json` writes the struct: its fields in declaration
    /// order, the pointers only when set.
    pub(crate) fn go_json(&self) -> String {
        let text = |s: &str| kstruct_schema::go::marshal_json(&Value::String(s.to_owned()));
        let mut out = format!(
            "{{\"apiVersion\":{},\"kind\":{},\"name\":{},\"uid\":{}",
            text(&self.api_version),
            text(&self.kind),
            text(&self.name),
            text(&self.uid)
        );
        if let Some(b) = self.controller {
            out.push_str(&format!(",\"controller\":{b}"));
        }
        if let Some(b) = self.block_owner_deletion {
            out.push_str(&format!(",\"blockOwnerDeletion\":{b}"));
        }
        out.push('}');
        out
    }

    fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("apiVersion".into(), self.api_version.clone().into());
        m.insert("kind".into(), self.kind.clone().into());
        m.insert("name".into(), self.name.clone().into());
        m.insert("uid".into(), self.uid.clone().into());
        if let Some(b) = self.controller {
            m.insert("controller".into(), b.into());
        }
        if let Some(b) = self.block_owner_deletion {
            m.insert("blockOwnerDeletion".into(), b.into());
        }
        Value::Object(m)
    }
}

impl ManagedFieldsEntry {
    fn to_value(&self) -> Value {
        let mut m = Map::new();
        let strings = [
            ("manager", &self.manager),
            ("operation", &self.operation),
            ("apiVersion", &self.api_version),
            ("fieldsType", &self.fields_type),
            ("subresource", &self.subresource),
        ];
        for (k, s) in strings {
            if !s.is_empty() {
                m.insert(k.into(), Value::String(s.clone()));
            }
        }
        if let Some(t) = &self.time {
            m.insert("time".into(), time_value(t));
        }
        if let Some(f) = &self.fields_v1 {
            m.insert("fieldsV1".into(), crate::json::deep_clone(f));
        }
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn normalises_like_the_api_server() {
        let m = ObjectMeta::decode(&json!({
            "name": "a", "namespace": null, "generation": 1.0, "labels": {"x": null, "y": "z"},
            "creationTimestamp": "2020-01-01T10:00:00.5+02:00", "unknown": 1, "Name": "b",
            "annotations": {}, "finalizers": [null, "f"],
            "ownerReferences": [{"name": "o", "controller": true}],
        }))
        .unwrap();
        assert_eq!(
            m.to_value(),
            json!({
                "name": "a", "generation": 1, "labels": {"x": "", "y": "z"},
                "creationTimestamp": "2020-01-01T08:00:00Z", "finalizers": ["", "f"],
                "ownerReferences": [{"apiVersion": "", "kind": "", "name": "o", "uid": "", "controller": true}],
            })
        );
        assert_eq!(ObjectMeta::decode(&json!(null)).unwrap().to_value(), json!({}));
    }

    #[test]
    fn errors_read_like_go() {
        let e = |v: Value| ObjectMeta::decode(&v).unwrap_err();
        assert_eq!(
            e(json!({"annotations": 11})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type map[string]string"
        );
        assert_eq!(
            e(json!({"labels": {"foo": 42}})),
            "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
        );
        assert_eq!(
            e(json!({"generation": 2.5})),
            "json: cannot unmarshal number 2.5 into Go struct field ObjectMeta.generation of type int64"
        );
        assert_eq!(
            e(json!({"deletionGracePeriodSeconds": 9223372036854775808u64})),
            "json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.deletionGracePeriodSeconds of type int64"
        );
        assert_eq!(
            e(json!({"creationTimestamp": "not-a-time"})),
            r#"parsing time "not-a-time" as "2006-01-02T15:04:05Z07:00": cannot parse "not-a-time" as "2006""#
        );
        assert_eq!(
            e(json!("x")),
            "json: cannot unmarshal string into Go value of type v1.ObjectMeta"
        );
        assert_eq!(
            e(json!({"ownerReferences": [{"uid": 1}]})),
            "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.uid of type types.UID"
        );
    }

    #[test]
    fn reports_unknown_fields_in_key_order() {
        let mut unknown = Vec::new();
        let mut m = ObjectMeta::default();
        m.decode_into(
            &json!({"b": 1, "Labels": {}, "ownerReferences": [{"bogus": 1}], "a": {"x": 1}}),
            Some(&mut unknown),
        )
        .unwrap();
        assert_eq!(unknown, ["Labels", "a", "b", "ownerReferences[0].bogus"]);
    }
}
