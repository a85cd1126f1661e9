//! The Kubernetes releases the data holds.

use crate::Error;

/// One Kubernetes minor release (or the development head) whose kinds the data holds.
///
/// ```
/// use kstruct_builtins::Release;
/// let r: Release = "v1.33".parse().unwrap();
/// assert_eq!((r.name(), r.minor()), ("1.33", Some(33)));
/// assert_eq!(Release::newest().name(), "1.36");
/// assert!("1.29".parse::<Release>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Release(u8);

/// The releases, oldest first, in the order of the data's `releases` line.
const NAMES: [&str; 8] = ["1.30", "1.31", "1.32", "1.33", "1.34", "1.35", "1.36", "head"];

impl Release {
    /// Every release the data holds, oldest first; the development head last.
    pub const ALL: [Release; 8] = [
        Release(0),
        Release(1),
        Release(2),
        Release(3),
        Release(4),
        Release(5),
        Release(6),
        Release(7),
    ];

    /// The newest published release: the default wherever a release is not given.
    pub fn newest() -> Release {
        Release(6)
    }

    /// The development head of `k8s.io/api` (the commit the data names).
    pub fn head() -> Release {
        Release(7)
    }

    /// `1.36`, or `head`.
    pub fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// The minor version (`36` of 1.36); `None` for the head.
    pub fn minor(self) -> Option<u32> {
        self.name().strip_prefix("1.").and_then(|m| m.parse().ok())
    }

    /// The release as the API server's version: `(1, minor)`; the head counts as one minor
    /// past the newest release.
    pub fn major_minor(self) -> (u32, u32) {
        (
            1,
            self.minor()
                .unwrap_or_else(|| Release::newest().minor().unwrap_or(0) + 1),
        )
    }

    /// This release's bit in the data's release masks.
    pub(crate) fn bit(self) -> u32 {
        1 << self.0
    }
}

impl std::str::FromStr for Release {
    type Err = Error;

    /// `1.36`, `v1.36`, `1.36.2` (a patch release has its minor's kinds), or `head`.
    fn from_str(s: &str) -> Result<Release, Error> {
        let t = s.trim().trim_start_matches('v');
        let minor = t.splitn(3, '.').take(2).collect::<Vec<_>>().join(".");
        NAMES
            .iter()
            .position(|&n| n == t || n == minor)
            .map(|i| Release(i as u8))
            .ok_or_else(|| Error::UnknownRelease(s.to_owned()))
    }
}

impl std::fmt::Display for Release {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
