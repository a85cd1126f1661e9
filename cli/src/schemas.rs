//! Choosing the schema for each object: `--schema FILE`, or `--crd FILE` with the object's
//! apiVersion and kind (or `--version`/`--kind`).

use std::path::Path;
use std::sync::Arc;

use kstruct::schema::Structural;
use kstruct::schema::crd::{self, CustomResourceDefinition};
use kstruct::{Interpreter, RegisteredCrd, Registry, parse_group_version};
use serde_json::Value;

use crate::inputs::read_file;

/// The schemas the objects are processed with.
pub enum Schemas {
    /// One schema for every object.
    Bare(Arc<Interpreter>),
    /// CRDs, each object picking its own.
    Crds {
        registry: Registry,
        origin: String,
        version: Option<String>,
        kind: Option<String>,
    },
}

impl Schemas {
    /// Loads `--schema` or `--crd`. Problems here are usage-level errors.
    pub fn load(target: &crate::Target) -> Result<Schemas, String> {
        if let Some(path) = &target.schema {
            let (schema, origin) = read_bare_schema(path)?;
            let interp = Interpreter::new(schema);
            note_default_pruning(&origin, &interp);
            return Ok(Schemas::Bare(Arc::new(interp)));
        }
        let Some(path) = &target.crd else {
            return Err("one of --crd or --schema is required".into());
        };
        let (crds, origin) = read_crds(path, target.kind.as_deref())?;
        let mut registry = Registry::new();
        for crd in crds {
            registry.add(crd);
        }
        for c in registry.crds() {
            if let Some(v) = &target.version {
                match c.version(v) {
                    None => {
                        return Err(format!("{origin}: CRD {} has no version {v}", c.crd.name));
                    }
                    Some(Err(e)) => return Err(format!("{origin}: {} {v}: {e}", c.crd.name)),
                    Some(Ok(_)) => {}
                }
            }
            note_crd_default_pruning(&origin, c);
        }
        Ok(Schemas::Crds {
            registry,
            origin,
            version: target.version.clone(),
            kind: target.kind.clone(),
        })
    }

    /// The pipeline for `obj`, or why there is none.
    pub fn for_object(&self, obj: &Value) -> Result<Arc<Interpreter>, String> {
        let (registry, origin, version, kind) = match self {
            Schemas::Bare(i) => return Ok(i.clone()),
            Schemas::Crds {
                registry,
                origin,
                version,
                kind,
            } => (registry, origin, version, kind),
        };
        let api_version = obj.get("apiVersion").and_then(Value::as_str);
        let obj_kind = obj.get("kind").and_then(Value::as_str);
        // With --kind or a single CRD, the CRD is known without looking at the object.
        let single = kind.is_some() || registry.crds().len() == 1;
        let (group, obj_version) = match api_version {
            Some(av) => {
                let (g, v) = parse_group_version(av)?;
                (Some(g), Some(v))
            }
            None => (None, None),
        };
        let c = if single {
            &registry.crds()[0]
        } else {
            let (Some(group), Some(k)) = (group, obj_kind) else {
                return Err("the object has no apiVersion and kind to pick its CRD by; pass --kind".into());
            };
            registry
                .find(group, k)
                .ok_or_else(|| format!("{origin} has no CustomResourceDefinition for group {group:?} and kind {k:?}"))?
        };
        let name = match (version, obj_version) {
            (Some(v), _) => v.as_str(),
            (None, Some(v)) => {
                if group != Some(c.crd.group.as_str()) || obj_kind.is_some_and(|k| k != c.crd.kind) {
                    return Err(format!(
                        "the object's apiVersion {:?} and kind {:?} do not name CRD {} ({}/{})",
                        api_version.unwrap_or(""),
                        obj_kind.unwrap_or(""),
                        c.crd.name,
                        c.crd.group,
                        c.crd.kind
                    ));
                }
                v
            }
            (None, None) => {
                return Err("the object has no apiVersion to pick the CRD version by; pass --version".into());
            }
        };
        match c.version(name) {
            Some(Ok(i)) => Ok(i.clone()),
            Some(Err(e)) => Err(format!("CRD {} version {name}: {e}", c.crd.name)),
            // As the API server: a version the CRD lacks has an empty schema.
            None => Ok(Arc::new(Interpreter::new(None))),
        }
    }
}

/// Reads `--schema FILE`: one bare openAPIV3Schema (or `null`), and the file's name for
/// messages. A CRD there is a usage error.
pub fn read_bare_schema(path: &Path) -> Result<(Option<Structural>, String), String> {
    let input = read_file(path)?;
    let docs = kstruct::input::read_documents(&input.bytes, &input.origin);
    let value = match docs.into_iter().next() {
        None => Value::Null,
        Some(doc) => doc.value.map_err(|e| e.to_string())?,
    };
    if crd::is_crd(&value) {
        return Err(format!(
            "{}: this is a CustomResourceDefinition; pass it with --crd",
            input.origin
        ));
    }
    let schema = kstruct::schema::convert::from_value(&value).map_err(|e| format!("{}: {e}", input.origin))?;
    Ok((schema, input.origin))
}

/// Reads the CRDs of `--crd FILE` (those of kind `kind` when given), and the file's name for
/// messages. A file without any is a usage error.
pub fn read_crds(path: &Path, kind: Option<&str>) -> Result<(Vec<CustomResourceDefinition>, String), String> {
    let input = read_file(path)?;
    let mut crds = Vec::new();
    for doc in kstruct::input::read_documents(&input.bytes, &input.origin) {
        let value = doc.value.map_err(|e| e.to_string())?;
        if !crd::is_crd(&value) {
            continue;
        }
        let crd =
            CustomResourceDefinition::from_value(&value).map_err(|e| format!("{}:{}: {e}", input.origin, doc.line))?;
        if kind.is_none_or(|k| k == crd.kind) {
            crds.push(crd);
        }
    }
    if crds.is_empty() {
        let what = match kind {
            Some(k) => format!("no CustomResourceDefinition of kind {k}"),
            None => "no CustomResourceDefinition".to_string(),
        };
        return Err(format!("{}: {what}", input.origin));
    }
    Ok((crds, input.origin))
}

/// Notes, on stderr, the versions of `crd` whose serve-time default pruning stopped early.
pub fn note_crd_default_pruning(origin: &str, crd: &RegisteredCrd) {
    for name in crd.version_names() {
        if let Some(Ok(interp)) = crd.version(name) {
            note_default_pruning(&format!("{origin} {} {name}", crd.crd.name), interp);
        }
    }
}

fn note_default_pruning(what: &str, interp: &Interpreter) {
    if let Some(e) = interp.default_pruning_error() {
        eprintln!("kstruct: note: {what}: {e}; the defaults it did not reach are used as written");
    }
}
