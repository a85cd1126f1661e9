//! apimachinery's name validators (`k8s.io/apimachinery/pkg/util/validation`), with their
//! messages verbatim: each returns every reason the value is refused (empty when valid).
//!
//! ```
//! use kstruct_schema::names::is_dns1035_label;
//! assert!(is_dns1035_label("v1beta1").is_empty());
//! assert_eq!(is_dns1035_label("1v").len(), 1);
//! ```

const DNS1035_LABEL: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1123_SUBDOMAIN: &str = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const QUALIFIED_NAME: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_VALUE: &str = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

/// `RegexError`: the message, examples and the regular expression, as apimachinery words them
/// (two spaces before "or" included).
fn regex_error(msg: &str, regex: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{regex}')");
    }
    let mut out = format!("{msg} (e.g. ");
    for (i, e) in examples.iter().enumerate() {
        if i > 0 {
            out.push_str(" or ");
        }
        out.push('\'');
        out.push_str(e);
        out.push_str("', ");
    }
    out.push_str("regex used for validation is '");
    out.push_str(regex);
    out.push_str("')");
    out
}

fn dns1035_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_lowercase()
        && b[b.len() - 1] != b'-'
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

fn dns1123_label_ok(l: &str) -> bool {
    let b = l.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
}

/// `IsDNS1035Label`: version names, resource names, kinds (lower-cased).
pub fn is_dns1035_label(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    if !dns1035_ok(s) {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an \
             alphabetic character, and end with an alphanumeric character",
            DNS1035_LABEL,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `IsDNS1123Subdomain`: API groups and object names.
pub fn is_dns1123_subdomain(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 253 {
        errs.push("must be no more than 253 characters".to_string());
    }
    if !s.split('.').all(dns1123_label_ok) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', \
             and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN,
            &["example.com"],
        ));
    }
    errs
}

fn qualified_name_ok(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// `IsQualifiedName` (label and annotation keys, finalizers): `[prefix/]name`.
pub fn is_qualified_name(s: &str) -> Vec<String> {
    let parts: Vec<&str> = s.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            let mut errs = Vec::new();
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else {
                errs.extend(
                    is_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {}", m.replace(" characters", " bytes"))),
                );
            }
            return [errs, name_part(name)].concat();
        }
        _ => {
            return vec![format!(
                "{} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must \
                     start and end with an alphanumeric character",
                    QUALIFIED_NAME,
                    &["MyName", "my.name", "123-abc"],
                )
            )];
        }
    };
    name_part(name)
}

fn name_part(name: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".to_string());
    }
    if !qualified_name_ok(name) {
        errs.push(regex_error(
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end \
             with an alphanumeric character",
            QUALIFIED_NAME,
            &["MyName", "my.name", "123-abc"],
        ));
    }
    errs
}

/// `IsValidLabelValue`.
pub fn is_label_value(s: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if s.len() > 63 {
        errs.push("must be no more than 63 bytes".to_string());
    }
    if !s.is_empty() && !qualified_name_ok(s) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', \
             and must start and end with an alphanumeric character",
            LABEL_VALUE,
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_apimachinery_s() {
        assert_eq!(
            is_dns1035_label("1Foo"),
            [
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an \
              alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', \
              regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
            ]
        );
        assert_eq!(
            is_dns1123_subdomain("Example.com"),
            [
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', \
              and must start and end with an alphanumeric character (e.g. 'example.com', regex used for \
              validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
            ]
        );
        assert_eq!(
            is_dns1035_label(&"a".repeat(64)),
            ["must be no more than 63 characters"]
        );
        assert!(is_dns1123_subdomain("widgets.example.com").is_empty());
        assert!(is_qualified_name("app.kubernetes.io/name").is_empty());
        assert_eq!(is_qualified_name("/x"), ["prefix part must be non-empty"]);
        assert_eq!(is_qualified_name("a/b/c").len(), 1);
        assert!(is_label_value("").is_empty());
        assert_eq!(is_label_value("-x").len(), 1);
    }
}
