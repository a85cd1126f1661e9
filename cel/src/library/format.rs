//! Kubernetes' format library (apiserver `pkg/cel/library/format.go`): the named formats
//! `format.dns1123Label()`, `format.dns1123Subdomain()`, `format.dns1035Label()`,
//! `format.qualifiedName()`, `format.dns1123LabelPrefix()`, `format.dns1123SubdomainPrefix()`,
//! `format.dns1035LabelPrefix()`, `format.labelValue()`, `format.uri()`, `format.uuid()`,
//! `format.byte()`, `format.date()`, `format.datetime()`; `format.named(name)` (an optional
//! format); and `<format>.validate(string)`, which is `optional.none()` for a valid string
//! and otherwise the messages of the validation function the library calls (apimachinery's
//! `NameIsDNSLabel`, `IsQualifiedName`, `IsValidLabelValue`..., Go's `url.ParseRequestURI`,
//! kube-openapi's `strfmt` checks), byte for byte.
//!
//! The regular expressions of those functions are matched by hand: they are fixed character
//! classes, and Go's `$` only matches at the end of the text.

use std::any::Any;
use std::sync::Arc;

use super::Call;
use crate::value::{Opaque, Value};

/// A named format (`kubernetes.NamedFormat`): formats are equal when their names are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Format {
    /// The library's key (`dns1123Label`), what `format.named` takes.
    key: &'static str,
    /// The format's `Name` (`DNS1123Label`), which equality compares.
    name: &'static str,
    /// `MaxRegexSize`: the regular expression size the cost of `validate` assumes.
    max_regex_size: usize,
}

impl Opaque for Format {
    fn type_name(&self) -> &'static str {
        "kubernetes.NamedFormat"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Format>()
            .is_some_and(|o| o.name == self.name)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// kube-openapi's `strfmt.UUIDPattern`.
const UUID_PATTERN: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
/// kube-openapi's `strfmt.DateTimePattern`.
const DATE_TIME_PATTERN: &str = "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";

/// The library's formats, by key.
const FORMATS: [Format; 13] = [
    fmt("dns1123Label", "DNS1123Label", 30),
    fmt("dns1123Subdomain", "DNS1123Subdomain", 60),
    fmt("dns1035Label", "DNS1035Label", 30),
    fmt("qualifiedName", "QualifiedName", 60),
    fmt("dns1123LabelPrefix", "DNS1123LabelPrefix", 30),
    fmt("dns1123SubdomainPrefix", "DNS1123SubdomainPrefix", 60),
    fmt("dns1035LabelPrefix", "DNS1035LabelPrefix", 30),
    fmt("labelValue", "LabelValue", 40),
    // govalidator's URL regular expression's length.
    fmt("uri", "URI", 1103),
    fmt("uuid", "uuid", UUID_PATTERN.len()),
    // govalidator's base64 regular expression's length.
    fmt("byte", "byte", 84),
    fmt("date", "date", DATE_TIME_PATTERN.len()),
    fmt("datetime", "datetime", DATE_TIME_PATTERN.len()),
];

/// A format entry.
const fn fmt(key: &'static str, name: &'static str, max_regex_size: usize) -> Format {
    Format {
        key,
        name,
        max_regex_size,
    }
}

/// The format under a key.
fn named(key: &str) -> Option<Format> {
    FORMATS.iter().find(|f| f.key == key).copied()
}

/// The format library's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (target, function, args) {
        (None, "format.named", [Value::String(s)]) => Some(Ok(Value::Optional(
            named(s).map(|f| Arc::new(Value::Opaque(Arc::new(f)))),
        ))),
        (None, _, []) => {
            let key = function.strip_prefix("format.")?;
            named(key).map(|f| Ok(Value::Opaque(Arc::new(f))))
        }
        (Some(Value::Opaque(o)), "validate", [Value::String(s)]) => {
            let f = o.as_any().downcast_ref::<Format>()?;
            let errors = validate(f.key, s);
            Some(Ok(Value::Optional(if errors.is_empty() {
                None
            } else {
                Some(Arc::new(Value::list(errors.into_iter().map(Value::string).collect())))
            })))
        }
        _ => None,
    }
}

/// The messages of the format's validation function for `s` (none when valid).
fn validate(key: &str, s: &str) -> Vec<String> {
    let b = s.as_bytes();
    match key {
        "dns1123Label" => dns1123_label(b),
        "dns1123Subdomain" => dns1123_subdomain(b),
        "dns1035Label" => dns1035_label(b),
        "qualifiedName" => label_key(b),
        "dns1123LabelPrefix" => dns1123_label(&mask_trailing_dash(b)),
        "dns1123SubdomainPrefix" => dns1123_subdomain(&mask_trailing_dash(b)),
        "dns1035LabelPrefix" => dns1035_label(&mask_trailing_dash(b)),
        "labelValue" => label_value(b),
        "uri" => match super::urls::call("url", None, &[Value::string(s)]) {
            Some(Err(e)) => vec![
                e.message
                    .strip_prefix("URL parse error during conversion from string: ")
                    .unwrap_or(&e.message)
                    .to_owned(),
            ],
            _ => Vec::new(),
        },
        "uuid" => fail_unless(is_uuid(b), "does not match the UUID format"),
        "byte" => fail_unless(is_base64(b), "invalid base64"),
        "date" => fail_unless(is_date(b), "invalid date"),
        "datetime" => fail_unless(is_date_time(s), "invalid datetime"),
        _ => Vec::new(),
    }
}

/// One message when `valid` is false.
fn fail_unless(valid: bool, message: &str) -> Vec<String> {
    if valid { Vec::new() } else { vec![message.to_owned()] }
}

/// apimachinery's `maskTrailingDash`: a name of two or more bytes ending in `-` loses its last
/// two bytes and gains an `a` (so `abc-` is checked as `aba`).
fn mask_trailing_dash(b: &[u8]) -> Vec<u8> {
    if b.len() > 1 && b.ends_with(b"-") {
        let mut out = b.get(..b.len() - 2).unwrap_or_default().to_vec();
        out.push(b'a');
        return out;
    }
    b.to_vec()
}

/// apimachinery's `RegexError`: the message, the examples (each followed by `, `, joined with
/// ` or `) and the regular expression.
fn regex_error(msg: &str, re: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{re}')");
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
    out.push_str(re);
    out.push_str("')");
    out
}

/// `util/validation`'s `MaxLenError` (in characters).
fn max_len_chars(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// `api/validate/content`'s `MaxLenError` (in bytes).
fn max_len_bytes(n: usize) -> String {
    format!("must be no more than {n} bytes")
}

/// Lower-case letters and digits.
fn lower_alnum(c: u8) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit()
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, the whole text.
fn matches_dns1123_label(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => lower_alnum(f) && lower_alnum(l) && b.iter().all(|&c| lower_alnum(c) || c == b'-'),
        _ => false,
    }
}

/// `[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*`, the whole text.
fn matches_dns1123_subdomain(b: &[u8]) -> bool {
    b.split(|&c| c == b'.').all(matches_dns1123_label)
}

/// `util/validation.IsDNS1123Label`'s format.
const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
/// `util/validation.IsDNS1123Subdomain`'s format.
const DNS1123_SUBDOMAIN_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
/// The label key (qualified name) format.
const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
/// The label key (qualified name) message.
const LABEL_KEY_ERR: &str =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/// `util/validation.IsDNS1123Label`.
fn dns1123_label(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > 63 {
        errs.push(max_len_chars(63));
    }
    if !matches_dns1123_label(b) {
        if matches_dns1123_subdomain(b) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

/// `util/validation.IsDNS1123Subdomain`.
fn dns1123_subdomain(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > 253 {
        errs.push(max_len_chars(253));
    }
    if !matches_dns1123_subdomain(b) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `api/validate/content.IsDNS1123Subdomain` (the label key's prefix check: lengths in
/// bytes).
fn content_dns1123_subdomain(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > 253 {
        errs.push(max_len_bytes(253));
    }
    if !matches_dns1123_subdomain(b) {
        errs.push(regex_error(
            "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
            DNS1123_SUBDOMAIN_FMT,
            &["example.com"],
        ));
    }
    errs
}

/// `util/validation.IsDNS1035Label`.
fn dns1035_label(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > 63 {
        errs.push(max_len_chars(63));
    }
    let valid = match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            f.is_ascii_lowercase() && lower_alnum(l) && b.iter().all(|&c| lower_alnum(c) || c == b'-')
        }
        _ => false,
    };
    if !valid {
        errs.push(regex_error(
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
            "[a-z]([-a-z0-9]*[a-z0-9])?",
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`, the whole text.
fn matches_label_key(b: &[u8]) -> bool {
    match (b.first(), b.last()) {
        (Some(&f), Some(&l)) => {
            f.is_ascii_alphanumeric()
                && l.is_ascii_alphanumeric()
                && b.iter()
                    .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
        }
        _ => false,
    }
}

/// `api/validate/content.IsLabelKey` (`IsQualifiedName`).
fn label_key(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&[u8]> = b.split(|&c| c == b'/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                errs.extend(
                    content_dns1123_subdomain(prefix)
                        .into_iter()
                        .map(|m| format!("prefix part {m}")),
                );
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errs.push(format!("name part {}", max_len_bytes(63)));
    }
    if !matches_label_key(name) {
        errs.push(format!(
            "name part {}",
            regex_error(LABEL_KEY_ERR, LABEL_KEY_FMT, &["MyName", "my.name", "123-abc"])
        ));
    }
    errs
}

/// `api/validate/content.IsLabelValue`.
fn label_value(b: &[u8]) -> Vec<String> {
    let mut errs = Vec::new();
    if b.len() > 63 {
        errs.push(max_len_bytes(63));
    }
    if !(b.is_empty() || matches_label_key(b)) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?",
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// `strfmt.IsUUID`: 32 hex digits (either case) in groups of 8-4-4-4-12, each dash optional.
fn is_uuid(b: &[u8]) -> bool {
    let mut rest = b;
    for (i, n) in [8usize, 4, 4, 4, 12].into_iter().enumerate() {
        if i > 0
            && let Some(r) = rest.strip_prefix(b"-")
        {
            rest = r;
        }
        let Some((group, r)) = rest.split_at_checked(n) else {
            return false;
        };
        if !group.iter().all(u8::is_ascii_hexdigit) {
            return false;
        }
        rest = r;
    }
    rest.is_empty()
}

/// govalidator's `IsBase64`: groups of four of `[A-Za-z0-9+/]`, the last one possibly ending
/// in `=` or `==`; at least one group.
fn is_base64(b: &[u8]) -> bool {
    let alphabet = |c: &u8| c.is_ascii_alphanumeric() || *c == b'+' || *c == b'/';
    if b.is_empty() || !b.len().is_multiple_of(4) {
        return false;
    }
    let (body, last) = b.split_at(b.len() - 4);
    if !body.iter().all(alphabet) {
        return false;
    }
    match last {
        [a, b, b'=', b'='] => alphabet(a) && alphabet(b),
        [a, b, c, b'='] => alphabet(a) && alphabet(b) && alphabet(c),
        _ => last.iter().all(alphabet),
    }
}

/// Whether `year` is a leap year (proleptic Gregorian).
fn leap(year: u32) -> bool {
    year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
}

/// The value of ASCII digits.
fn digits(b: &[u8]) -> Option<u32> {
    if b.is_empty() || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(b.iter().fold(0u32, |n, &d| n * 10 + u32::from(d - b'0')))
}

/// `strfmt.IsDate`: Go's `time.Parse("2006-01-02", s)`: four digits, two, two, and a day that
/// exists in that month.
fn is_date(b: &[u8]) -> bool {
    let [y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = b else {
        return false;
    };
    let (Some(year), Some(month), Some(day)) =
        (digits(&[*y0, *y1, *y2, *y3]), digits(&[*m0, *m1]), digits(&[*d0, *d1]))
    else {
        return false;
    };
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap(year) => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

/// `strfmt.IsDateTime`: the text lower-cased and split at `t`; the first piece a date, the
/// second (later pieces are not looked at) `hh:mm:ss`, an optional fraction (any character
/// then digits), and `z` or an offset `±hh:mm`; hours at most 23, minutes and seconds at most
/// 59.
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    // Go's strings.ToLower maps each rune to its simple lower case.
    let lower: String = s.chars().map(|c| c.to_lowercase().next().unwrap_or(c)).collect();
    let mut pieces = lower.split('t');
    let (Some(date), Some(time)) = (pieces.next(), pieces.next()) else {
        return false;
    };
    if !is_date(date.as_bytes()) {
        return false;
    }
    let chars: Vec<char> = time.chars().collect();
    let two = |i: usize| -> Option<String> {
        let pair = chars.get(i..i + 2)?;
        pair.iter().all(char::is_ascii_digit).then(|| pair.iter().collect())
    };
    let (Some(h), Some(m), Some(sec)) = (two(0), two(3), two(6)) else {
        return false;
    };
    if chars.get(2) != Some(&':') || chars.get(5) != Some(&':') {
        return false;
    }
    let rest = chars.get(8..).unwrap_or_default();
    if !zone_with_fraction(rest) {
        return false;
    }
    h.as_str() <= "23" && m.as_str() <= "59" && sec.as_str() <= "59"
}

/// `(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$` on what follows the seconds.
fn zone_with_fraction(rest: &[char]) -> bool {
    let zone = |z: &[char]| match z {
        ['z'] => true,
        [sign, a, b, ':', c, d] => matches!(sign, '+' | '-') && [a, b, c, d].iter().all(|c| c.is_ascii_digit()),
        _ => false,
    };
    if zone(rest) {
        return true;
    }
    // A fraction: one character other than a newline, then digits (as many as leave a zone).
    let Some((first, after)) = rest.split_first() else {
        return false;
    };
    if *first == '\n' {
        return false;
    }
    let n = after.iter().take_while(|c| c.is_ascii_digit()).count();
    (1..=n).any(|k| after.get(k..).is_some_and(zone))
}

/// The costs: `validate` as a regular expression match of the format's assumed size
/// (`ceil((1 + size) × 0.1) × ceil(maxRegexSize × 0.25)`), `format.named` 1.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (target, function, args) {
        (Some(Value::Opaque(o)), "validate", [Value::String(s)]) => {
            let f = o.as_any().downcast_ref::<Format>()?;
            let size = s.chars().count();
            let str_cost = ((1.0 + size as f64) * 0.1).ceil() as u64;
            let regex_cost = (f.max_regex_size as f64 * 0.25).ceil() as u64;
            Some(str_cost.saturating_mul(regex_cost))
        }
        (None, "format.named", [Value::String(_)]) => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format(key: &str) -> Value {
        call(&format!("format.{key}"), None, &[]).unwrap().unwrap()
    }

    fn check(key: &str, s: &str) -> Option<Vec<String>> {
        match call("validate", Some(&format(key)), &[Value::string(s)]) {
            Some(Ok(Value::Optional(None))) => None,
            Some(Ok(Value::Optional(Some(v)))) => match &*v {
                Value::List(l) => Some(
                    l.items
                        .iter()
                        .map(|i| match i {
                            Value::String(s) => s.to_string(),
                            other => panic!("{other:?}"),
                        })
                        .collect(),
                ),
                other => panic!("{other:?}"),
            },
            other => panic!("{other:?}"),
        }
    }

    fn one(message: &str) -> Option<Vec<String>> {
        Some(vec![message.to_owned()])
    }

    #[test]
    fn valid_examples_from_the_library_tests() {
        assert_eq!(check("dns1123Label", "my-label-name"), None);
        assert_eq!(check("dns1123Subdomain", "apiextensions.k8s.io"), None);
        assert_eq!(check("qualifiedName", "apiextensions.k8s.io/v1beta1"), None);
        assert_eq!(check("dns1123LabelPrefix", "my-label-prefix-"), None);
        assert_eq!(check("dns1123SubdomainPrefix", "mysubdomain.prefix.-"), None);
        assert_eq!(check("dns1035LabelPrefix", "my-label-prefix-"), None);
        assert_eq!(check("uri", "http://example.com"), None);
        assert_eq!(check("uuid", "123e4567-e89b-12d3-a456-426614174000"), None);
        assert_eq!(check("byte", "aGVsbG8="), None);
        assert_eq!(check("date", "2021-01-01"), None);
        assert_eq!(check("datetime", "2021-01-01T00:00:00Z"), None);
        assert_eq!(check("dns1123Subdomain", "example.com"), None);
        assert_eq!(check("dns1035Label", "my-label-name"), None);
        assert_eq!(check("qualifiedName", "my.name"), None);
        assert_eq!(check("date", "2020-01-01"), None);
        assert_eq!(check("datetime", "2020-01-01T00:00:00Z"), None);
        assert_eq!(check("labelValue", "my-cool-label-Value"), None);
    }

    #[test]
    fn messages_from_the_library_tests() {
        let label = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
        let subdomain = r"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
        let dns1035 = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
        assert_eq!(check("dns1123Label", "contains a space"), one(label));
        assert_eq!(check("dns1123Subdomain", "contains a space"), one(subdomain));
        assert_eq!(check("dns1035Label", "contains a space"), one(dns1035));
        assert_eq!(
            check("qualifiedName", "contains a space"),
            one(
                "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
            )
        );
        assert_eq!(check("dns1123LabelPrefix", "contains a space-"), one(label));
        assert_eq!(check("dns1123SubdomainPrefix", "contains a space-"), one(subdomain));
        assert_eq!(check("dns1035LabelPrefix", "contains a space-"), one(dns1035));
        assert_eq!(check("byte", "aGVsbG8"), one("invalid base64"));
        assert_eq!(check("date", "2020-01-32"), one("invalid date"));
        assert_eq!(check("datetime", "2020-01-32T00:00:00Z"), one("invalid datetime"));
        assert_eq!(
            check("labelValue", "my-cool-label-Value!!\n\n!!!"),
            one(
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
            )
        );
    }

    #[test]
    fn apimachinery_details() {
        assert_eq!(check("dns1123Label", "a.b"), one("must not contain dots"));
        let long = "a".repeat(64);
        assert_eq!(
            check("dns1123Label", &long).map(|v| v[0].clone()),
            Some("must be no more than 63 characters".to_owned())
        );
        assert_eq!(check("labelValue", &long), one("must be no more than 63 bytes"));
        assert_eq!(check("qualifiedName", "/x"), one("prefix part must be non-empty"));
        let empty_name = check("qualifiedName", "example.com/").unwrap();
        assert_eq!(empty_name.len(), 2);
        assert_eq!(empty_name[0], "name part must be non-empty");
        assert!(empty_name[1].starts_with("name part must consist of alphanumeric characters"));
        let three = check("qualifiedName", "a/b/c").unwrap();
        assert_eq!(three.len(), 1);
        assert!(three[0].starts_with("a valid label key must consist of"));
        assert!(three[0].ends_with(" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"));
        let prefixed = check("qualifiedName", "Example.com/x").unwrap();
        assert!(prefixed[0].starts_with("prefix part a lowercase RFC 1123 subdomain"));
        // maskTrailingDash drops two bytes: "a-" is checked as "a"; "-" alone is not masked.
        assert_eq!(check("dns1123LabelPrefix", "a-"), None);
        assert_eq!(check("dns1123LabelPrefix", "-"), one(label_msg()));
        assert_eq!(check("labelValue", ""), None);
    }

    fn label_msg() -> &'static str {
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
    }

    #[test]
    fn strfmt_checks() {
        assert!(is_uuid(b"123E4567E89B12D3A456426614174000"));
        assert!(!is_uuid(b"123e4567-e89b-12d3-a456-42661417400"));
        assert!(!is_uuid(b"123e4567--e89b-12d3-a456-426614174000"));
        assert!(is_base64(b"aGk="));
        assert!(is_base64(b"aA=="));
        assert!(!is_base64(b""));
        assert!(!is_base64(b"a==="));
        assert!(is_date(b"2024-02-29"));
        assert!(!is_date(b"2023-02-29"));
        assert!(!is_date(b"2023-13-01"));
        assert!(is_date_time("2020-01-01t23:59:59.123+05:30"));
        assert!(is_date_time("2020-01-01T00:00:00ZTanything"));
        assert!(!is_date_time("2020-01-01T24:00:00Z"));
        assert!(!is_date_time("2020-01-01T00:00:00"));
        assert!(is_date_time("2020-01-01T00:00:00x5Z"));
        assert!(!is_date_time("2020-01-01 00:00:00Z"));
    }

    #[test]
    fn uri_messages_are_parse_request_uris() {
        assert_eq!(
            check("uri", "relative"),
            one("parse \"relative\": invalid URI for request")
        );
    }

    #[test]
    fn named_formats_and_equality() {
        for f in FORMATS {
            let Some(Ok(Value::Optional(Some(v)))) = call("format.named", None, &[Value::string(f.key)]) else {
                panic!("{}", f.key)
            };
            assert_eq!(v.equals(&format(f.key)), Some(true));
            for g in FORMATS {
                assert_eq!(format(f.key).equals(&format(g.key)), Some(f.key == g.key));
            }
        }
        assert!(matches!(
            call("format.named", None, &[Value::string("unknown")]),
            Some(Ok(Value::Optional(None)))
        ));
        assert!(call("format.unknown", None, &[]).is_none());
        assert_eq!(format("uuid").type_name(), "kubernetes.NamedFormat");
    }

    #[test]
    fn costs() {
        let c = |key: &str, s: &str| {
            let f = format(key);
            let args = [Value::string(s)];
            let r = call("validate", Some(&f), &args).unwrap().unwrap();
            cost("validate", Some(&f), &args, &r).unwrap()
        };
        // ceil(14 × 0.1) × ceil(30 × 0.25)
        assert_eq!(c("dns1123Label", "my-label-name"), 16);
        // ceil(1 × 0.1) × ceil(1103 × 0.25)
        assert_eq!(c("uri", ""), 276);
        assert_eq!(UUID_PATTERN.len(), 70);
    }
}
