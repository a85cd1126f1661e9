//! Choosing the schema for each object: `--schema FILE`, or `--crd FILE` with the object's
//! apiVersion and kind (or `--version`/`--kind`).

use std::path::Path;

use kstruct::compiled::CompiledCrd;
use kstruct::compiled::v1::NoSchema;
use kstruct::schema::Structural;
use kstruct::schema::crd::{self, CustomResourceDefinition};
use kstruct::{Interpreter, Pipeline, RegisteredCrd, Registry, parse_group_version};
use serde_json::Value;

use crate::inputs::read_file;

/// The schemas the objects are processed with.
pub enum Schemas {
    /// One schema for every object.
    Bare(Box<dyn Pipeline>),
    /// One compiled schema for every object.
    CompiledBare(&'static dyn Pipeline),
    /// CRDs, each object picking its own.
    Crds {
        catalog: Catalog,
        origin: String,
        version: Option<String>,
        kind: Option<String>,
    },
}

/// A set of CRDs: read from files and interpreted, or compiled in.
pub enum Catalog {
    /// CRDs read at run time.
    Interpreted(Registry),
    /// Compiled CRDs (all of a registry, or the one `--kind` picked).
    Compiled(Vec<&'static CompiledCrd>),
}

/// One CRD of a [`Catalog`].
#[derive(Clone, Copy)]
pub enum CrdRef<'a> {
    Interpreted(&'a RegisteredCrd),
    Compiled(&'static CompiledCrd),
}

impl<'a> CrdRef<'a> {
    pub fn name(&self) -> &'a str {
        match self {
            CrdRef::Interpreted(c) => &c.crd.name,
            CrdRef::Compiled(c) => c.name,
        }
    }

    pub fn group(&self) -> &'a str {
        match self {
            CrdRef::Interpreted(c) => &c.crd.group,
            CrdRef::Compiled(c) => c.group,
        }
    }

    pub fn kind(&self) -> &'a str {
        match self {
            CrdRef::Interpreted(c) => &c.crd.kind,
            CrdRef::Compiled(c) => c.kind,
        }
    }

    /// Names of the versions, in document order.
    pub fn version_names(&self) -> Vec<&'a str> {
        match self {
            CrdRef::Interpreted(c) => c.version_names().collect(),
            CrdRef::Compiled(c) => c.versions.iter().map(|v| v.name).collect(),
        }
    }

    /// The pipeline of version `name`, or why its schema did not convert.
    pub fn version(&self, name: &str) -> Option<Result<&'a dyn Pipeline, String>> {
        match self {
            CrdRef::Interpreted(c) => c
                .version(name)
                .map(|r| r.map(|i| &**i as &dyn Pipeline).map_err(|e| e.to_string())),
            CrdRef::Compiled(c) => c.version(name).map(|r| r.map_err(str::to_string)),
        }
    }
}

impl Catalog {
    pub fn crds(&self) -> Vec<CrdRef<'_>> {
        match self {
            Catalog::Interpreted(r) => r.crds().iter().map(CrdRef::Interpreted).collect(),
            Catalog::Compiled(c) => c.iter().map(|c| CrdRef::Compiled(c)).collect(),
        }
    }

    fn find(&self, group: &str, kind: &str) -> Option<CrdRef<'_>> {
        self.crds().into_iter().find(|c| c.group() == group && c.kind() == kind)
    }
}

impl Schemas {
    /// Loads `--schema` or `--crd`. Problems here are usage-level errors.
    pub fn load(target: &crate::FileSchemas) -> Result<Schemas, String> {
        if let Some(path) = &target.schema {
            let (schema, origin) = read_bare_schema(path)?;
            let interp = Interpreter::new(schema);
            note_default_pruning(&origin, &interp);
            return Ok(Schemas::Bare(Box::new(interp)));
        }
        let Some(path) = &target.crd else {
            return Err("one of --crd or --schema is required".into());
        };
        let (crds, origin) = read_crds(path, target.kind.as_deref())?;
        let mut registry = Registry::new();
        for crd in crds {
            registry.add(crd);
        }
        Schemas::crds(
            Catalog::Interpreted(registry),
            origin,
            target.version.clone(),
            target.kind.clone(),
        )
    }

    /// CRDs from `catalog` (`origin` names them in messages), checked for `--version`.
    pub fn crds(
        catalog: Catalog,
        origin: String,
        version: Option<String>,
        kind: Option<String>,
    ) -> Result<Schemas, String> {
        for c in catalog.crds() {
            if let Some(v) = &version {
                match c.version(v) {
                    None => {
                        return Err(format!("{origin}: CRD {} has no version {v}", c.name()));
                    }
                    Some(Err(e)) => return Err(format!("{origin}: {} {v}: {e}", c.name())),
                    Some(Ok(_)) => {}
                }
            }
            note_crd_default_pruning(&origin, c);
        }
        Ok(Schemas::Crds {
            catalog,
            origin,
            version,
            kind,
        })
    }

    /// The pipeline for `obj`, or why there is none.
    pub fn for_object(&self, obj: &Value) -> Result<&dyn Pipeline, String> {
        let (catalog, origin, version, kind) = match self {
            Schemas::Bare(i) => return Ok(&**i),
            Schemas::CompiledBare(p) => return Ok(*p),
            Schemas::Crds {
                catalog,
                origin,
                version,
                kind,
            } => (catalog, origin, version, kind),
        };
        let api_version = obj.get("apiVersion").and_then(Value::as_str);
        let obj_kind = obj.get("kind").and_then(Value::as_str);
        let crds = catalog.crds();
        // With --kind or a single CRD, the CRD is known without looking at the object.
        let single = kind.is_some() || crds.len() == 1;
        let (group, obj_version) = match api_version {
            Some(av) => {
                let (g, v) = parse_group_version(av)?;
                (Some(g), Some(v))
            }
            None => (None, None),
        };
        let c = if single {
            crds[0]
        } else {
            let (Some(group), Some(k)) = (group, obj_kind) else {
                return Err("the object has no apiVersion and kind to pick its CRD by; pass --kind".into());
            };
            catalog
                .find(group, k)
                .ok_or_else(|| format!("{origin} has no CustomResourceDefinition for group {group:?} and kind {k:?}"))?
        };
        let name = match (version, obj_version) {
            (Some(v), _) => v.as_str(),
            (None, Some(v)) => {
                if group != Some(c.group()) || obj_kind.is_some_and(|k| k != c.kind()) {
                    return Err(format!(
                        "the object's apiVersion {:?} and kind {:?} do not name CRD {} ({}/{})",
                        api_version.unwrap_or(""),
                        obj_kind.unwrap_or(""),
                        c.name(),
                        c.group(),
                        c.kind()
                    ));
                }
                v
            }
            (None, None) => {
                return Err("the object has no apiVersion to pick the CRD version by; pass --version".into());
            }
        };
        match c.version(name) {
            Some(Ok(p)) => Ok(p),
            Some(Err(e)) => Err(format!("CRD {} version {name}: {e}", c.name())),
            // As the API server: a version the CRD lacks has an empty schema.
            None => Ok(&NoSchema),
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
            warn_if_refused(&format!("{}:{}", input.origin, doc.line), &crd.name, &value);
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

/// How many of a refused CRD's errors the warning shows.
const SHOWN_ERRORS: usize = 3;

/// Warns, on stderr, when the API server would refuse to create the CRD (`kstruct lint`'s
/// findings): its objects are still processed, as a server that has the CRD would process them,
/// but such a CRD cannot be installed as written.
fn warn_if_refused(at: &str, name: &str, doc: &Value) {
    let problems: Vec<String> = match kstruct::lint::lint_crd(doc) {
        Ok(errors) => errors.iter().map(ToString::to_string).collect(),
        Err(e) => vec![e.to_string()],
    };
    if problems.is_empty() {
        return;
    }
    let file = at.rsplit_once(':').map_or(at, |(f, _)| f);
    eprintln!("kstruct: warning: {at}: the API server would refuse to create CRD {name}:");
    for p in problems.iter().take(SHOWN_ERRORS) {
        eprintln!("  {p}");
    }
    if problems.len() > SHOWN_ERRORS {
        eprintln!("  ... and {} more (kstruct lint {file})", problems.len() - SHOWN_ERRORS);
    }
}

/// Notes, on stderr, the versions of `crd` whose serve-time default pruning stopped early.
pub fn note_crd_default_pruning(origin: &str, crd: CrdRef<'_>) {
    for name in crd.version_names() {
        if let Some(Ok(p)) = crd.version(name) {
            note_default_pruning(&format!("{origin} {} {name}", crd.name()), p);
        }
    }
}

/// Notes, on stderr, that serve-time default pruning of `what` stopped early.
pub fn note_default_pruning(what: &str, p: &dyn Pipeline) {
    if let Some(e) = p.default_pruning_error() {
        eprintln!("kstruct: note: {what}: {e}; the defaults it did not reach are used as written");
    }
}
