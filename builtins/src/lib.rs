//! Kubernetes' own kinds, by minor release, as kstruct reads them: which group-versions and
//! kinds each release has, each kind's published API lifecycle (and the API server's
//! deprecation warning from it), and the fields of their Go types with the JSON names, Go
//! types, tag options and list/map/struct markers that the server's decoder, validation and
//! server-side apply read.
//!
//! The facts are derived from the Go types of `k8s.io/api`, `k8s.io/apimachinery`, and the
//! API server's own groups (`apiextensions.k8s.io`, `apiregistration.k8s.io`) at releases
//! 1.30 to 1.36 and the development head by `tools/genbuiltins` (no descriptions), embedded
//! in the crate and read on first use.
//!
//! ```
//! use kstruct_builtins::{Catalog, Release};
//! let catalog = Catalog::new(Release::newest()).unwrap();
//! let deployment = catalog.kind("apps/v1", "Deployment").unwrap();
//! assert_eq!(deployment.type_name(), "apps/v1.Deployment");
//! let spec = catalog.type_def("apps/v1.DeploymentSpec").unwrap();
//! let replicas = spec.field("replicas").unwrap();
//! assert_eq!(replicas.go_type().go_name(), "*int32");
//!
//! let old = Catalog::new("1.30".parse().unwrap()).unwrap();
//! let pdb = old.kind("policy/v1beta1", "PodDisruptionBudget").unwrap();
//! assert_eq!(
//!     pdb.deprecation_warning().as_deref(),
//!     Some("policy/v1beta1 PodDisruptionBudget is deprecated in v1.21+, unavailable in v1.25+; use policy/v1 PodDisruptionBudget")
//! );
//! ```

mod error;
mod facts;
mod go_type;
mod release;

pub use error::Error;
pub use go_type::GoType;
pub use release::Release;

use facts::{Facts, KindLine};

/// The kinds and types of one release.
#[derive(Debug, Clone, Copy)]
pub struct Catalog {
    release: Release,
    facts: &'static Facts,
}

impl Catalog {
    /// The catalog of `release`.
    ///
    /// # Errors
    /// [`Error::Data`] if the embedded facts do not read (never, from a published crate: a
    /// test reads them all).
    pub fn new(release: Release) -> Result<Catalog, Error> {
        Ok(Catalog {
            release,
            facts: facts::facts()?,
        })
    }

    /// The release this catalog answers for.
    pub fn release(&self) -> Release {
        self.release
    }

    /// The group-versions the release's `k8s.io/api` declares (`v1`, `apps/v1`, ...), with
    /// kinds, in byte order. Whether the API server serves each one is its lifecycle's
    /// question ([`KindFacts::lifecycle`]).
    pub fn group_versions(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.facts
            .gvs
            .iter()
            .filter(|(_, kinds)| kinds.iter().any(|k| k.mask & self.release.bit() != 0))
            .map(|(gv, _)| *gv)
    }

    /// The kinds of `group_version` in this release, in the order the package registers them.
    pub fn kinds(&self, group_version: &str) -> impl Iterator<Item = KindFacts> + '_ {
        let bit = self.release.bit();
        let gv = self.facts.gvs.iter().find(|(name, _)| *name == group_version);
        gv.into_iter().flat_map(move |(gv, kinds)| {
            kinds
                .iter()
                .filter(move |k| k.mask & bit != 0)
                .map(move |line| KindFacts {
                    group_version: gv,
                    line,
                })
        })
    }

    /// The kind `kind` of `group_version` (`apps/v1`, or `v1` for the core group).
    pub fn kind(&self, group_version: &str, kind: &str) -> Option<KindFacts> {
        self.kinds(group_version).find(|k| k.kind() == kind)
    }

    /// The type `name` (`apps/v1.DeploymentSpec`, `meta/v1.ObjectMeta`, `resource.Quantity`)
    /// as this release declares it.
    pub fn type_def(&self, name: &str) -> Option<&'static TypeDef> {
        let bit = self.release.bit();
        self.facts
            .types
            .get(name)?
            .iter()
            .find(|(mask, _)| mask & bit != 0)
            .map(|(_, def)| def)
    }
}

/// A kind of one group-version in one release.
#[derive(Debug, Clone, Copy)]
pub struct KindFacts {
    group_version: &'static str,
    line: &'static KindLine,
}

impl KindFacts {
    /// `apps/v1`, or `v1` for the core group.
    pub fn group_version(&self) -> &'static str {
        self.group_version
    }

    /// `Deployment`.
    pub fn kind(&self) -> &'static str {
        self.line.kind
    }

    /// The Go type of its objects, for [`Catalog::type_def`]: `apps/v1.Deployment`.
    pub fn type_name(&self) -> &'static str {
        self.line.type_name
    }

    /// The release it was introduced in, deprecated in, removed in, and its replacement, as
    /// the types publish them (group-versions without published lifecycle have none).
    pub fn lifecycle(&self) -> &'static Lifecycle {
        &self.line.lifecycle
    }

    /// The API server's warning for an object of this kind, when the kind is deprecated (at
    /// any release: the server of a release before the deprecation says nothing, see
    /// [`Lifecycle::is_deprecated_in`]).
    pub fn deprecation_warning(&self) -> Option<String> {
        let l = self.lifecycle();
        let (major, minor) = l.deprecated.filter(|&d| d != (0, 0))?;
        let mut w = format!(
            "{} {} is deprecated in v{major}.{minor}+",
            self.group_version,
            self.kind()
        );
        if let Some((major, minor)) = l.removed.filter(|&r| r != (0, 0)) {
            w.push_str(&format!(", unavailable in v{major}.{minor}+"));
        }
        if let Some((gv, kind)) = l.replacement {
            w.push_str(&format!("; use {gv} {kind}"));
        }
        Some(w)
    }
}

/// A kind's API lifecycle, as `MAJOR.MINOR` releases.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Lifecycle {
    /// The release the kind was introduced in.
    pub introduced: Option<(u32, u32)>,
    /// The release it was deprecated in.
    pub deprecated: Option<(u32, u32)>,
    /// The release it is no longer served from.
    pub removed: Option<(u32, u32)>,
    /// The group-version and kind to use instead.
    pub replacement: Option<(&'static str, &'static str)>,
}

impl Lifecycle {
    /// Whether a server of `release` warns that the kind is deprecated (the server's own
    /// test: deprecated at or before its version).
    pub fn is_deprecated_in(&self, release: Release) -> bool {
        self.deprecated
            .is_some_and(|d| d != (0, 0) && d <= release.major_minor())
    }

    /// Whether a server of `release` no longer serves the kind by default.
    pub fn is_removed_in(&self, release: Release) -> bool {
        self.removed.is_some_and(|r| r != (0, 0) && r <= release.major_minor())
    }
}

/// A Go type of a release: a struct with its fields, or a named type over another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeDef {
    name: &'static str,
    shape: TypeShape,
    decodes_itself: bool,
    markers: Vec<&'static str>,
}

/// What a [`TypeDef`] is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeShape {
    /// A struct, with its exported fields in declaration order.
    Struct(Vec<Field>),
    /// `type Protocol string`: a new type over another.
    Named(GoType),
    /// `type X = Y`.
    Alias(GoType),
}

impl TypeDef {
    /// The qualified name: `apps/v1.DeploymentSpec`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Struct or named type.
    pub fn shape(&self) -> &TypeShape {
        &self.shape
    }

    /// The fields of a struct (none for a named type).
    pub fn fields(&self) -> &[Field] {
        match &self.shape {
            TypeShape::Struct(fields) => fields,
            _ => &[],
        }
    }

    /// The field whose JSON name is `json` (not looking into embedded structs).
    pub fn field(&self, json: &str) -> Option<&Field> {
        self.fields().iter().find(|f| f.json_name == Some(json))
    }

    /// Whether the type has its own `UnmarshalJSON` (`resource.Quantity`, `meta/v1.Time`,
    /// `intstr.IntOrString`, `runtime.RawExtension`, ...): JSON decodes it by that method, not
    /// by its fields.
    pub fn decodes_itself(&self) -> bool {
        self.decodes_itself
    }

    /// The type's markers: `structType=atomic`, `genclient`, ...
    pub fn markers(&self) -> &[&'static str] {
        &self.markers
    }
}

/// A field of a Go struct.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    json_name: Option<&'static str>,
    go_name: &'static str,
    go_type: GoType,
    omitempty: bool,
    omitzero: bool,
    inline: bool,
    markers: Vec<&'static str>,
}

impl Field {
    /// The JSON name (`replicas`); `None` for an embedded or `,inline` struct, whose fields
    /// are the outer struct's.
    pub fn json_name(&self) -> Option<&'static str> {
        self.json_name
    }

    /// The Go name (`Replicas`), as the server's type errors print it.
    pub fn go_name(&self) -> &'static str {
        self.go_name
    }

    /// The Go type.
    pub fn go_type(&self) -> &GoType {
        &self.go_type
    }

    /// Whether the json tag says `omitempty`.
    pub fn omitempty(&self) -> bool {
        self.omitempty
    }

    /// Whether the json tag says `omitzero` (Go 1.24: the zero value, or a value whose
    /// `IsZero` says so, is not written).
    pub fn omitzero(&self) -> bool {
        self.omitzero
    }

    /// Whether the field's own fields are the outer struct's (embedded, or `,inline`).
    pub fn inline(&self) -> bool {
        self.inline
    }

    /// The value of the marker `+name=value` (`listType`, `listMapKey`'s first, `mapType`,
    /// `structType`).
    pub fn marker(&self, name: &str) -> Option<&'static str> {
        self.markers
            .iter()
            .find_map(|m| m.strip_prefix(name)?.strip_prefix('='))
    }

    /// The keys of a `listType=map` list, in marker order.
    pub fn list_map_keys(&self) -> Vec<&'static str> {
        self.markers
            .iter()
            .filter_map(|m| m.strip_prefix("listMapKey="))
            .collect()
    }

    /// Whether the field is marked `+optional`.
    pub fn optional(&self) -> bool {
        self.markers.contains(&"optional")
    }
}

#[cfg(test)]
mod tests;
