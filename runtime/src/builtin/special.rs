//! The types of Kubernetes' own kinds that decode themselves (their `UnmarshalJSON`):
//! `resource.Quantity`, `metav1.Time` and `MicroTime`, `intstr.IntOrString`, the raw ones
//! (`runtime.RawExtension`, `metav1.FieldsV1`, apiextensions' `JSON`), and `[]byte` as Go's
//! decoder reads base64.
//!
//! Each takes the value's JSON text as Go hands it over and gives the value as the type's
//! `MarshalJSON` writes it back, or the error its method returns.

use serde_json::{Number, Value};

use super::plan::Target;
use crate::json;
use crate::objectmeta::Time;

/// A type's own `UnmarshalJSON`: the value's JSON text to the value as it encodes.
pub(crate) type Decoder = fn(&[u8]) -> Result<Value, SpecialError>;

/// The `UnmarshalJSON` of a type that decodes itself.
pub(crate) fn decoder(target: &Target) -> Option<Decoder> {
    match target {
        Target::Quantity => Some(quantity),
        Target::Time => Some(|raw| time(raw, false)),
        Target::MicroTime => Some(|raw| time(raw, true)),
        Target::IntOrString => Some(int_or_string),
        Target::Raw => Some(|raw| Ok(self::raw(raw))),
        _ => None,
    }
}

/// What a type's own `UnmarshalJSON` returns when it refuses a value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum SpecialError {
    /// A standard-library `UnmarshalTypeError` from the inner `json.Unmarshal` (the outer
    /// decoder names the field it happened in): `value` as Go names it, `go_type` the inner
    /// target (`string`, `int32`).
    Type { value: String, go_type: &'static str },
    /// Any other error, by its text (it carries no field).
    Other(String),
}

/// How Go's standard decoder names a JSON value it cannot store in a string or an integer.
fn kind_of(raw: &[u8]) -> &'static str {
    match raw.first() {
        Some(b't' | b'f') => "bool",
        Some(b'{') => "object",
        Some(b'[') => "array",
        Some(b'"') => "string",
        Some(b'n') => "null",
        _ => "number",
    }
}

/// `json.Unmarshal(raw, &str)` of the standard library: a JSON string, or a type error.
/// `null` leaves the string empty.
fn std_string(raw: &[u8]) -> Result<String, SpecialError> {
    match raw.first() {
        Some(b'"') => Ok(json::string_at(raw, 0).map(|(s, _)| s).unwrap_or_default()),
        Some(b'n') => Ok(String::new()),
        _ => Err(SpecialError::Type {
            value: kind_of(raw).to_owned(),
            go_type: "string",
        }),
    }
}

/// `resource.Quantity.UnmarshalJSON`: the quotes cut off without unescaping, space trimmed,
/// `ParseQuantity`; written back as `String()` writes it.
pub(crate) fn quantity(raw: &[u8]) -> Result<Value, SpecialError> {
    if raw == b"null" {
        return Ok(Value::String("0".into()));
    }
    let inner = match raw {
        [b'"', inner @ .., b'"'] => inner,
        other => other,
    };
    let text = String::from_utf8_lossy(inner);
    kstruct_cel::quantity::parse(text.trim())
        .map(Value::String)
        .map_err(|e| SpecialError::Other(e.to_owned()))
}

/// `metav1.Time.UnmarshalJSON` (`micro`: `MicroTime`'s, with six fractional digits): `null`
/// is the zero time, a string is parsed by `time.Parse`; written back in UTC, the zero time
/// as `null`.
pub(crate) fn time(raw: &[u8], micro: bool) -> Result<Value, SpecialError> {
    if raw == b"null" {
        return Ok(Value::Null);
    }
    let text = std_string(raw)?;
    let parsed = if micro {
        Time::parse_rfc3339_micro(&text)
    } else {
        Time::parse_rfc3339(&text)
    };
    let t = parsed.map_err(|e| SpecialError::Other(e.to_string()))?;
    Ok(if t.is_zero() {
        Value::Null
    } else if micro {
        Value::String(t.to_rfc3339_micro_utc())
    } else {
        Value::String(t.to_rfc3339_utc())
    })
}

/// `intstr.IntOrString.UnmarshalJSON`: a string when the value starts with `"`, else the
/// standard decoder into an `int32` (whose `null` leaves 0).
pub(crate) fn int_or_string(raw: &[u8]) -> Result<Value, SpecialError> {
    if raw.first() == Some(&b'"') {
        return std_string(raw).map(Value::String);
    }
    match raw.first() {
        Some(b'n') => Ok(Value::from(0)),
        Some(b'-' | b'0'..=b'9') => {
            let text = String::from_utf8_lossy(raw);
            match go_parse_int(&text, 32) {
                Some(n) => Ok(Value::from(n)),
                None => Err(SpecialError::Type {
                    value: format!("number {text}"),
                    go_type: "int32",
                }),
            }
        }
        _ => Err(SpecialError::Type {
            value: kind_of(raw).to_owned(),
            go_type: "int32",
        }),
    }
}

/// The raw types (`RawExtension`, `FieldsV1`, apiextensions' `JSON`): any value is kept as
/// it is, nothing inside it is checked; `null` is nil, written back as `null`.
pub(crate) fn raw(raw: &[u8]) -> Value {
    if raw == b"null" {
        return Value::Null;
    }
    match json::decode_body(raw) {
        Ok(body) => body.decoded.value,
        Err(_) => Value::Null,
    }
}

/// `strconv.ParseInt(text, 10, 64)` and the overflow check of a `bits`-wide integer: only
/// an optional sign and decimal digits.
pub(crate) fn go_parse_int(text: &str, bits: u32) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: i64 = text.parse().ok()?;
    let (min, max) = if bits >= 64 {
        (i64::MIN, i64::MAX)
    } else {
        (-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1)
    };
    (min..=max).contains(&n).then_some(n)
}

/// `strconv.ParseUint(text, 10, 64)` and the overflow check of a `bits`-wide integer.
pub(crate) fn go_parse_uint(text: &str, bits: u32) -> Option<u64> {
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    (bits >= 64 || n < (1u64 << bits)).then_some(n)
}

/// `strconv.ParseFloat(text, bits)`: `None` when the value is beyond the type's range.
pub(crate) fn go_parse_float(text: &str, bits: u32) -> Option<Value> {
    let f: f64 = text.parse().ok()?;
    if bits == 32 {
        let narrow = f as f32;
        if narrow.is_infinite() {
            return None;
        }
        return Number::from_f64(f64::from(narrow)).map(Value::Number);
    }
    if f.is_infinite() {
        return None;
    }
    // Go keeps integers as floats; a whole float prints without a fraction.
    Number::from_f64(f).map(Value::Number)
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn sextet(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// `base64.StdEncoding.Decode`: padding required, `\r` and `\n` skipped anywhere, the
/// error at the offset Go's `CorruptInputError` names.
pub(crate) fn base64_decode(src: &[u8]) -> Result<Vec<u8>, usize> {
    let mut out = Vec::with_capacity(src.len() / 4 * 3);
    let mut si = 0;
    while si < src.len() {
        // One quantum: four symbols, or fewer before padding at the end.
        let mut buf = [0u8; 4];
        let mut len = 4;
        let mut j = 0;
        let mut trailing_error = None;
        while j < 4 {
            if si == src.len() {
                if j == 0 {
                    return Ok(out);
                }
                // Standard encoding requires padding: a short final quantum is corrupt.
                return Err(si - j);
            }
            let c = src[si];
            si += 1;
            if let Some(v) = sextet(c) {
                buf[j] = v;
                j += 1;
                continue;
            }
            if c == b'\n' || c == b'\r' {
                continue;
            }
            if c != b'=' {
                return Err(si - 1);
            }
            match j {
                0 | 1 => return Err(si - 1),
                2 => {
                    while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                        si += 1;
                    }
                    if si == src.len() {
                        return Err(src.len());
                    }
                    if src[si] != b'=' {
                        return Err(si - 1);
                    }
                    si += 1;
                }
                _ => {}
            }
            while si < src.len() && (src[si] == b'\n' || src[si] == b'\r') {
                si += 1;
            }
            if si < src.len() {
                trailing_error = Some(si);
            }
            len = j;
            break;
        }
        let v = u32::from(buf[0]) << 18 | u32::from(buf[1]) << 12 | u32::from(buf[2]) << 6 | u32::from(buf[3]);
        let bytes = [(v >> 16) as u8, (v >> 8) as u8, v as u8];
        out.extend_from_slice(&bytes[..len - 1]);
        if let Some(at) = trailing_error {
            return Err(at);
        }
    }
    Ok(out)
}

/// `base64.StdEncoding.EncodeToString`.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(v >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_as_go_reads_it() {
        assert_eq!(base64_decode(b"aGVsbG8="), Ok(b"hello".to_vec()));
        assert_eq!(base64_decode(b"aGVs\nbG8="), Ok(b"hello".to_vec()));
        assert_eq!(base64_decode(b""), Ok(Vec::new()));
        // Go's CorruptInputError offsets.
        assert_eq!(base64_decode(b"!!!!"), Err(0));
        assert_eq!(base64_decode(b"aGVsbG8"), Err(4));
        assert_eq!(base64_decode(b"aGVsbG8=x"), Err(8));
        assert_eq!(base64_decode(b"a==="), Err(1));
        assert_eq!(base64_decode(b"aG=="), Ok(b"h".to_vec()));
        assert_eq!(base64_decode(b"aG="), Err(3));
        assert_eq!(base64_decode(b"aG=x"), Err(2));
        assert_eq!(base64_encode(b"hello"), "aGVsbG8=");
        assert_eq!(base64_encode(b"hi"), "aGk=");
        assert_eq!(base64_encode(b"abc"), "YWJj");
    }

    #[test]
    fn quantities_as_their_json_reads_them() {
        assert_eq!(quantity(br#""1.5Gi""#), Ok(Value::String("1536Mi".into())));
        assert_eq!(quantity(b"5"), Ok(Value::String("5".into())));
        assert_eq!(quantity(br#"" 1Ki ""#), Ok(Value::String("1Ki".into())));
        assert_eq!(
            quantity(b"true"),
            Err(SpecialError::Other(
                "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into()
            ))
        );
        assert_eq!(
            quantity(br#""5mm""#),
            Err(SpecialError::Other("unable to parse quantity's suffix".into()))
        );
    }

    #[test]
    fn int_or_string_reads_an_int32_or_a_string() {
        assert_eq!(int_or_string(b"8080"), Ok(Value::from(8080)));
        assert_eq!(int_or_string(br#""http""#), Ok(Value::String("http".into())));
        assert_eq!(int_or_string(b"null"), Ok(Value::from(0)));
        assert_eq!(
            int_or_string(b"1.5"),
            Err(SpecialError::Type {
                value: "number 1.5".into(),
                go_type: "int32"
            })
        );
        assert_eq!(
            int_or_string(b"true"),
            Err(SpecialError::Type {
                value: "bool".into(),
                go_type: "int32"
            })
        );
    }

    #[test]
    fn times_in_utc() {
        assert_eq!(
            time(br#""2020-01-01T10:00:00+02:00""#, false),
            Ok(Value::String("2020-01-01T08:00:00Z".into()))
        );
        assert_eq!(
            time(br#""2020-01-01T10:00:00.123456Z""#, true),
            Ok(Value::String("2020-01-01T10:00:00.123456Z".into()))
        );
        assert_eq!(
            time(br#""2020-01-01T00:00:00Z""#, true),
            Err(SpecialError::Other(
                r#"parsing time "2020-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000""#
                    .into()
            ))
        );
        assert_eq!(
            time(b"5", false),
            Err(SpecialError::Type {
                value: "number".into(),
                go_type: "string"
            })
        );
    }

    #[test]
    fn go_integers() {
        assert_eq!(go_parse_int("2147483647", 32), Some(2_147_483_647));
        assert_eq!(go_parse_int("2147483648", 32), None);
        assert_eq!(go_parse_int("1.0", 32), None);
        assert_eq!(go_parse_int("1e3", 64), None);
        assert_eq!(go_parse_int("-0", 32), Some(0));
        assert_eq!(go_parse_uint("-1", 64), None);
        assert_eq!(go_parse_float("1e400", 64), None);
    }
}
