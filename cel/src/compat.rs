//! The Kubernetes compatibility version a CRD's new rules are compiled for: which libraries
//! and macros they see (apiserver `pkg/cel/environment/base.go`, each option's introduced
//! and removed versions, and `SetRecognizeKeywordAsFieldName` from 1.31).
//!
//! A server accepts a rule when it compiles in the environment of the server's compatibility
//! version (its binary's minor version minus one); kstruct defaults to the reference server's,
//! 1.36, and models every version from 1.29, the first with today's strings library and AST
//! validators.

use std::fmt;
use std::str::FromStr;

/// A compatibility version, `major.minor`.
///
/// ```
/// use kstruct_cel::Compatibility;
/// let v: Compatibility = "1.30".parse().unwrap();
/// assert!(v < Compatibility::DEFAULT);
/// assert!(!v.recognizes_keywords_as_field_names());
/// assert!("1.28".parse::<Compatibility>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Compatibility {
    /// The major version (1).
    pub major: u32,
    /// The minor version.
    pub minor: u32,
}

impl Compatibility {
    /// The reference API server's compatibility version (binary 1.37).
    pub const DEFAULT: Compatibility = Compatibility::new(1, 36);
    /// The oldest version kstruct models.
    pub const OLDEST: Compatibility = Compatibility::new(1, 29);

    /// `major.minor`.
    pub const fn new(major: u32, minor: u32) -> Compatibility {
        Compatibility { major, minor }
    }

    /// Whether an option introduced at `introduced` (and removed at `removed`, if ever) is
    /// part of this version's environment.
    pub fn has(self, introduced: Compatibility, removed: Option<Compatibility>) -> bool {
        self >= introduced && removed.is_none_or(|r| self < r)
    }

    /// `self.if` finds the property `if` (escaped `__if__`) from 1.31; before, only
    /// `self.__if__` does.
    pub fn recognizes_keywords_as_field_names(self) -> bool {
        self >= Compatibility::new(1, 31)
    }

    /// `all(i, v, p)`, `existsOne`, `transformList`, `transformMap`, `transformMapEntry`
    /// (cel-go's two-variable comprehensions), from 1.32.
    pub fn has_two_variable_comprehensions(self) -> bool {
        self >= Compatibility::new(1, 32)
    }

    /// `sortBy` (cel-go's lists extension, version 3), from 1.34.
    pub fn has_sort_by(self) -> bool {
        self >= Compatibility::new(1, 34)
    }
}

impl Default for Compatibility {
    fn default() -> Compatibility {
        Compatibility::DEFAULT
    }
}

impl fmt::Display for Compatibility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl FromStr for Compatibility {
    type Err = String;

    /// `1.30`; versions kstruct does not model are refused with the range it does.
    fn from_str(s: &str) -> Result<Compatibility, String> {
        let bad = || format!("`{s}` is not a compatibility version (major.minor, e.g. 1.30)");
        let (major, minor) = s.trim().split_once('.').ok_or_else(bad)?;
        let v = Compatibility::new(major.parse().map_err(|_| bad())?, minor.parse().map_err(|_| bad())?);
        if v < Compatibility::OLDEST || v > Compatibility::DEFAULT {
            return Err(format!(
                "kstruct models the CEL environments of compatibility versions {} to {}, not {v}",
                Compatibility::OLDEST,
                Compatibility::DEFAULT
            ));
        }
        Ok(v)
    }
}
