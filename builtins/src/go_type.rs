//! Go type expressions as the facts spell them: `*int32`, `[]core/v1.Container`,
//! `map[ResourceName]resource.Quantity`.

/// A Go type a field is declared with. Named types are qualified by the facts' short package
/// names (`core/v1.Container`, `meta/v1.ObjectMeta`, `resource.Quantity`); Go's own types
/// (`string`, `int32`, `byte`, ...) are [`GoType::Builtin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoType {
    /// A predeclared type: `string`, `bool`, `int32`, `int64`, `float64`, `byte`, ...
    Builtin(&'static str),
    /// A declared type, qualified: `core/v1.Container`.
    Named(String),
    /// `*T`.
    Pointer(Box<GoType>),
    /// `[]T`.
    Slice(Box<GoType>),
    /// `[N]T`.
    Array(Box<GoType>),
    /// `map[K]V`.
    Map(Box<GoType>, Box<GoType>),
    /// `interface{}`.
    Interface,
}

impl GoType {
    /// Reads `text`, qualifying unqualified named types with `package`. `None` when `text`
    /// is not a type the facts write.
    pub(crate) fn parse(text: &'static str, package: &str) -> Option<GoType> {
        let (t, rest) = Self::parse_prefix(text, package)?;
        rest.is_empty().then_some(t)
    }

    fn parse_prefix(text: &'static str, package: &str) -> Option<(GoType, &'static str)> {
        if let Some(rest) = text.strip_prefix('*') {
            let (t, rest) = Self::parse_prefix(rest, package)?;
            return Some((GoType::Pointer(Box::new(t)), rest));
        }
        if let Some(rest) = text.strip_prefix("[]") {
            let (t, rest) = Self::parse_prefix(rest, package)?;
            return Some((GoType::Slice(Box::new(t)), rest));
        }
        if let Some(rest) = text.strip_prefix("[N]") {
            let (t, rest) = Self::parse_prefix(rest, package)?;
            return Some((GoType::Array(Box::new(t)), rest));
        }
        if let Some(rest) = text.strip_prefix("map[") {
            let (k, rest) = Self::parse_prefix(rest, package)?;
            let rest = rest.strip_prefix(']')?;
            let (v, rest) = Self::parse_prefix(rest, package)?;
            return Some((GoType::Map(Box::new(k), Box::new(v)), rest));
        }
        if let Some(rest) = text.strip_prefix("interface{}") {
            return Some((GoType::Interface, rest));
        }
        let end = text.find([']', ' ']).unwrap_or(text.len());
        let (name, rest) = text.split_at(end);
        if !name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'/'))
        {
            return None;
        }
        let base = name.rsplit('.').next()?;
        let first = base.chars().next()?;
        let t = if name.contains('.') {
            GoType::Named(name.to_owned())
        } else if first.is_ascii_uppercase() {
            GoType::Named(format!("{package}.{name}"))
        } else if first.is_ascii_lowercase() {
            GoType::Builtin(name)
        } else {
            return None;
        };
        Some((t, rest))
    }

    /// The type as Go prints it in `json: cannot unmarshal ... of type T` (package names
    /// as Go's reflection gives them: `v1.Container`, `resource.Quantity`).
    ///
    /// ```
    /// # use kstruct_builtins::GoType;
    /// let t = GoType::Slice(Box::new(GoType::Named("core/v1.Container".into())));
    /// assert_eq!(t.go_name(), "[]v1.Container");
    /// ```
    pub fn go_name(&self) -> String {
        match self {
            // reflect names the aliases by what they alias: `[]byte` prints `[]uint8`.
            GoType::Builtin("byte") => "uint8".to_owned(),
            GoType::Builtin("rune") => "int32".to_owned(),
            GoType::Builtin(b) => (*b).to_owned(),
            GoType::Named(n) => {
                let (pkg, name) = n.rsplit_once('.').unwrap_or(("", n));
                match pkg.rsplit('/').next() {
                    Some(p) if !p.is_empty() => format!("{p}.{name}"),
                    _ => name.to_owned(),
                }
            }
            GoType::Pointer(t) => format!("*{}", t.go_name()),
            GoType::Slice(t) => format!("[]{}", t.go_name()),
            GoType::Array(t) => format!("[...]{}", t.go_name()),
            GoType::Map(k, v) => format!("map[{}]{}", k.go_name(), v.go_name()),
            GoType::Interface => "interface {}".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_types_the_facts_write() {
        let named = |n: &str| GoType::Named(n.to_owned());
        assert_eq!(
            GoType::parse("*int32", "apps/v1"),
            Some(GoType::Pointer(Box::new(GoType::Builtin("int32"))))
        );
        assert_eq!(
            GoType::parse("[]core/v1.Container", "apps/v1"),
            Some(GoType::Slice(Box::new(named("core/v1.Container"))))
        );
        assert_eq!(
            GoType::parse("map[ResourceName]resource.Quantity", "core/v1"),
            Some(GoType::Map(
                Box::new(named("core/v1.ResourceName")),
                Box::new(named("resource.Quantity"))
            ))
        );
        assert_eq!(
            GoType::parse("map[string][]string", "x/v1"),
            Some(GoType::Map(
                Box::new(GoType::Builtin("string")),
                Box::new(GoType::Slice(Box::new(GoType::Builtin("string"))))
            ))
        );
        assert_eq!(
            GoType::parse("[]byte", "core/v1"),
            Some(GoType::Slice(Box::new(GoType::Builtin("byte"))))
        );
        assert_eq!(GoType::parse("map[string]", "core/v1"), None);
        assert_eq!(GoType::parse("?time.Time", "meta/v1"), None);
    }

    #[test]
    fn prints_as_go_reflection_does() {
        let t = GoType::parse("map[ResourceName]resource.Quantity", "core/v1").unwrap();
        assert_eq!(t.go_name(), "map[v1.ResourceName]resource.Quantity");
        assert_eq!(GoType::parse("*meta/v1.Time", "x").unwrap().go_name(), "*v1.Time");
        assert_eq!(
            GoType::parse("map[string][]byte", "x").unwrap().go_name(),
            "map[string][]uint8"
        );
    }
}
