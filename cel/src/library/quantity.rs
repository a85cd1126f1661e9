//! Kubernetes' quantity library: `quantity(string)`, `isQuantity(string)`, `sign(q)` and the
//! `kubernetes.Quantity` methods `isInteger`, `asInteger`, `asApproximateFloat`, `add`, `sub`
//! (a quantity or an int), `isGreaterThan`, `isLessThan`, `compareTo`.
//!
//! Values follow apimachinery's `resource.Quantity`: `ParseQuantity`'s grammar, suffixes and
//! errors; its two representations (a scaled `int64`, or an arbitrary-precision decimal it
//! falls back to for long numbers, fractions of binary suffixes, sub-nano digits, and
//! overflowing sums), because `asInteger`/`isInteger` only succeed on the first; parsing's
//! rounding of decimals up to nano units; the binary-suffix cap at 2⁶³−1; and `String()`'s
//! canonical form (kept as [`std::fmt::Display`]).
//!
//! Where Go has an arbitrary-precision decimal this keeps an `i128` mantissa with a scale
//! (trailing zeros dropped when they would not fit), and remembers the scale Go's decimal
//! would have, which `asApproximateFloat` reads. A quantity whose exact digits need more than
//! an `i128` (about 38 significant digits) is refused with an error where Go would compute.
//!
//! `string()` is not defined on quantities (the library declares no such overload), so the
//! canonical form is not what `string()` answers.

use std::any::Any;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::Call;
use crate::value::{EvalError, Opaque, Value};

/// apimachinery's `ErrFormatWrong`.
const ERR_FORMAT: &str = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// apimachinery's `ErrSuffix`.
const ERR_SUFFIX: &str = "unable to parse quantity's suffix";
/// apimachinery's `ErrNumeric`.
const ERR_NUMERIC: &str = "unable to parse numeric part of quantity";
/// The error for a value beyond this implementation's `i128` decimal.
const ERR_RANGE: &str = "quantity exceeds the precision this evaluator supports (38 significant digits)";

/// A quantity's format: how `String()` writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum QFormat {
    /// `e3`-style exponents.
    DecimalExponent,
    /// `Ki`, `Mi`... suffixes.
    BinarySI,
    /// `k`, `M`... suffixes.
    DecimalSI,
}

/// A decimal: `unscaled × 10^-scale` (`inf.Dec`'s convention), with the scale Go's decimal
/// would carry (`go_scale >= scale`; Go's unscaled value has that many more zeros).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Dec {
    /// The digits.
    unscaled: i128,
    /// The scale the digits are at.
    scale: i64,
    /// The scale of Go's `inf.Dec` for the same value.
    go_scale: i64,
}

/// A quantity's amount, in the representation Go would hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Amount {
    /// `int64Amount`: `value × 10^scale`.
    Int {
        /// The digits.
        value: i64,
        /// The power of ten.
        scale: i32,
    },
    /// `infDecAmount`.
    Dec(Dec),
}

/// A `kubernetes.Quantity`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Quantity {
    /// The amount.
    amount: Amount,
    /// How it prints.
    format: QFormat,
    /// The text `String()` returns as parsed (`ParseQuantity` keeps it in some cases).
    cached: Option<String>,
}

impl Opaque for Quantity {
    fn type_name(&self) -> &'static str {
        "kubernetes.Quantity"
    }

    fn equals(&self, other: &dyn Opaque) -> bool {
        other
            .as_any()
            .downcast_ref::<Quantity>()
            .is_some_and(|o| cmp(&self.amount, &o.amount) == Ordering::Equal)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// `10^n` as an `i128`, if it fits.
fn pow10(n: i64) -> Option<i128> {
    u32::try_from(n).ok().and_then(|n| 10i128.checked_pow(n))
}

impl Dec {
    /// Go's `AsDec` of an `int64Amount`.
    fn of_int(value: i64, scale: i32) -> Dec {
        let s = -i64::from(scale);
        Dec {
            unscaled: i128::from(value),
            scale: s,
            go_scale: s,
        }
    }

    /// The same value with trailing zeros of the digits dropped.
    fn reduced(self) -> Dec {
        let mut d = self;
        if d.unscaled == 0 {
            return d;
        }
        while d.unscaled % 10 == 0 {
            d.unscaled /= 10;
            d.scale -= 1;
        }
        d
    }

    /// The digits at a greater scale, if they fit.
    fn at_scale(self, scale: i64) -> Option<i128> {
        let up = scale.checked_sub(self.scale)?;
        if up < 0 {
            return None;
        }
        if self.unscaled == 0 {
            return Some(0);
        }
        self.unscaled.checked_mul(pow10(up)?)
    }

    /// `inf.Dec.Add`: the scale is the greater of the two.
    fn add(self, other: Dec) -> Option<Dec> {
        let go_scale = self.go_scale.max(other.go_scale);
        for (a, b) in [(self, other), (self.reduced(), other.reduced())] {
            let scale = a.scale.max(b.scale);
            if let (Some(x), Some(y)) = (a.at_scale(scale), b.at_scale(scale))
                && let Some(sum) = x.checked_add(y)
            {
                return Some(Dec {
                    unscaled: sum,
                    scale,
                    go_scale,
                });
            }
        }
        None
    }

    /// The value negated.
    fn neg(self) -> Option<Dec> {
        Some(Dec {
            unscaled: self.unscaled.checked_neg()?,
            ..self
        })
    }

    /// `Round(x, s, inf.RoundUp)`: to scale `s`, rounding away from zero.
    fn round_up(self, s: i64) -> Dec {
        if self.scale <= s {
            return Dec { go_scale: s, ..self };
        }
        let down = self.scale - s;
        let (q, r) = match pow10(down) {
            Some(p) => (self.unscaled / p, self.unscaled % p),
            None => (0, self.unscaled),
        };
        let q = if r > 0 {
            q + 1
        } else if r < 0 {
            q - 1
        } else {
            q
        };
        Dec {
            unscaled: q,
            scale: s,
            go_scale: s,
        }
    }

    /// The sign.
    fn signum(self) -> i64 {
        self.unscaled.signum() as i64
    }
}

/// Compares two decimals exactly.
fn cmp_dec(a: Dec, b: Dec) -> Ordering {
    let (sa, sb) = (a.unscaled.signum(), b.unscaled.signum());
    if sa != sb || sa == 0 {
        return sa.cmp(&sb);
    }
    let scale = a.scale.max(b.scale);
    match (a.at_scale(scale), b.at_scale(scale)) {
        (Some(x), Some(y)) => x.cmp(&y),
        // The one that does not fit is the larger in magnitude.
        (None, _) => {
            if sa > 0 {
                Ordering::Greater
            } else {
                Ordering::Less
            }
        }
        (_, None) => {
            if sa > 0 {
                Ordering::Less
            } else {
                Ordering::Greater
            }
        }
    }
}

/// A quantity's amount as a decimal.
fn as_dec(a: &Amount) -> Dec {
    match *a {
        Amount::Int { value, scale } => Dec::of_int(value, scale),
        Amount::Dec(d) => d,
    }
}

/// `Quantity.Cmp`: exact.
fn cmp(a: &Amount, b: &Amount) -> Ordering {
    cmp_dec(as_dec(a), as_dec(b))
}

/// `int64Amount.Add`: `None` when Go falls back to decimals.
fn int_add(a: (i64, i32), b: (i64, i32)) -> Option<(i64, i32)> {
    let ((av, asc), (bv, bsc)) = (a, b);
    if bv == 0 {
        return Some(a);
    }
    if av == 0 {
        return Some(b);
    }
    match asc.cmp(&bsc) {
        Ordering::Equal => Some((av.checked_add(bv)?, asc)),
        Ordering::Greater => Some((positive_scale(av, asc - bsc)?.checked_add(bv)?, bsc)),
        Ordering::Less => Some((av.checked_add(positive_scale(bv, bsc - asc)?)?, asc)),
    }
}

/// `positiveScaleInt64`: `base × 10^scale`, if it fits.
fn positive_scale(base: i64, scale: i32) -> Option<i64> {
    let mut v = base;
    for _ in 0..scale {
        v = v.checked_mul(10)?;
    }
    Some(v)
}

impl Quantity {
    /// `Quantity.Sign`.
    fn sign(&self) -> i64 {
        match self.amount {
            Amount::Int { value, .. } => value.signum(),
            Amount::Dec(d) => d.signum(),
        }
    }

    /// `Quantity.IsZero`.
    fn is_zero(&self) -> bool {
        self.sign() == 0
    }

    /// `Quantity.AsInt64`: only the `int64` representation converts.
    fn as_int64(&self) -> Option<i64> {
        match self.amount {
            Amount::Int { value, scale: 0 } => Some(value),
            Amount::Int { value, scale } if scale > 0 => positive_scale(value, scale),
            _ => None,
        }
    }

    /// `Quantity.AsApproximateFloat64`: the digits as a float times `math.Pow10` of the
    /// exponent.
    fn as_approximate_float(&self) -> f64 {
        let (base, exponent) = match self.amount {
            Amount::Int { value, scale } => (value as f64, i64::from(scale)),
            Amount::Dec(d) => (go_unscaled_float(d), -d.go_scale),
        };
        if exponent == 0 {
            return base;
        }
        base * go_pow10(exponent)
    }

    /// `Quantity.Add` (`negate`: `Sub`).
    fn plus(&self, y: &Quantity, negate: bool) -> Result<Quantity, EvalError> {
        let mut q = self.clone();
        q.cached = None;
        let range = || EvalError::new(ERR_RANGE);
        if negate && q.is_zero() {
            q.format = y.format;
        }
        if let (Amount::Int { value, scale }, Amount::Int { value: yv, scale: ys }) = (q.amount, y.amount) {
            let yv = if negate { yv.wrapping_neg() } else { yv };
            if !negate && value == 0 {
                q.format = y.format;
            }
            if let Some((v, s)) = int_add((value, scale), (yv, ys)) {
                q.amount = Amount::Int { value: v, scale: s };
                return Ok(q);
            }
        } else if !negate && q.is_zero() {
            q.format = y.format;
        }
        let other = if negate {
            as_dec(&y.amount).neg().ok_or_else(range)?
        } else {
            as_dec(&y.amount)
        };
        q.amount = Amount::Dec(as_dec(&q.amount).add(other).ok_or_else(range)?);
        Ok(q)
    }
}

/// Go's `big.Float.SetInt(unscaled).Float64()` of Go's digits (the digits at Go's scale):
/// the nearest double.
fn go_unscaled_float(d: Dec) -> f64 {
    if d.unscaled == 0 {
        return 0.0;
    }
    let zeros = d.go_scale.saturating_sub(d.scale);
    let digits = d.unscaled.unsigned_abs().to_string();
    let magnitude = if zeros > 400 {
        f64::INFINITY
    } else {
        let text = format!("{digits}{}", "0".repeat(usize::try_from(zeros).unwrap_or(0)));
        text.parse::<f64>().unwrap_or(f64::INFINITY)
    };
    if d.unscaled < 0 { -magnitude } else { magnitude }
}

/// Go's `math.Pow10`, from the same tables (so the same roundings).
fn go_pow10(n: i64) -> f64 {
    const TAB: [f64; 32] = [
        1e00, 1e01, 1e02, 1e03, 1e04, 1e05, 1e06, 1e07, 1e08, 1e09, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22, 1e23, 1e24, 1e25, 1e26, 1e27, 1e28, 1e29, 1e30, 1e31,
    ];
    const POS32: [f64; 10] = [1e00, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288];
    const NEG32: [f64; 11] = [
        1e-00, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320,
    ];
    if (0..=308).contains(&n) {
        let n = n as usize;
        return POS32[n / 32] * TAB[n % 32];
    }
    if (-323..=0).contains(&n) {
        let m = (-n) as usize;
        return NEG32[m / 32] / TAB[m % 32];
    }
    if n > 0 { f64::INFINITY } else { 0.0 }
}

/// `parseQuantityString`: sign, the value's text, whole digits, fraction digits, suffix.
fn split(s: &str) -> Result<(bool, &str, &str, &str, &str), &'static str> {
    let b = s.as_bytes();
    let end = b.len();
    let mut positive = true;
    let mut pos = 0;
    match b.first() {
        Some(b'-') => {
            positive = false;
            pos = 1;
        }
        Some(b'+') => pos = 1,
        _ => {}
    }
    while pos < end && b[pos] == b'0' {
        pos += 1;
    }
    if pos >= end {
        return Ok((positive, "0", "0", "", ""));
    }
    let start = pos;
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos >= end {
        return Ok((positive, s, &s[start..], "", ""));
    }
    let num = if pos == start { "0" } else { &s[start..pos] };
    let mut denom = "";
    if b[pos] == b'.' {
        pos += 1;
        let dstart = pos;
        while pos < end && b[pos].is_ascii_digit() {
            pos += 1;
        }
        denom = &s[dstart..pos];
        if pos >= end {
            return Ok((positive, s, num, denom, ""));
        }
    }
    let value = &s[..pos];
    let suffix_start = pos;
    while pos < end && b"eEinumkKMGTP".contains(&b[pos]) {
        pos += 1;
    }
    if pos < end && matches!(b[pos], b'-' | b'+') {
        pos += 1;
    }
    while pos < end && b[pos].is_ascii_digit() {
        pos += 1;
    }
    if pos < end {
        return Err(ERR_FORMAT);
    }
    Ok((positive, value, num, denom, &s[suffix_start..]))
}

/// The suffix's base, exponent and format (`quantitySuffixer.interpret`).
fn interpret(suffix: &str) -> Option<(u32, i32, QFormat)> {
    let dec = |e| Some((10, e, QFormat::DecimalSI));
    let bin = |e| Some((2, e, QFormat::BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        _ => {
            let rest = suffix.strip_prefix(['e', 'E']).filter(|r| !r.is_empty())?;
            let parsed = go_parse_int(rest)?;
            // Go's int32(parsed) keeps the low 32 bits.
            Some((10, parsed as i32, QFormat::DecimalExponent))
        }
    }
}

/// Go's `strconv.ParseInt(s, 10, 64)`: an optional sign, then digits.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// Why a text is not a quantity.
enum ParseError {
    /// One of `ParseQuantity`'s errors.
    Go(&'static str),
    /// A value this implementation cannot hold.
    Range,
}

/// `resource.ParseQuantity(s)` and then `String()`: the text `Quantity.MarshalJSON` writes for
/// it, or apimachinery's error. A quantity beyond this implementation's decimal (more than
/// about 38 significant digits), which Go parses, is kept as written.
pub fn parse_text(s: &str) -> Result<String, &'static str> {
    match parse(s) {
        Ok(q) => Ok(q.to_string()),
        Err(ParseError::Go(e)) => Err(e),
        Err(ParseError::Range) => Ok(s.to_owned()),
    }
}

/// `resource.ParseQuantity`.
fn parse(s: &str) -> Result<Quantity, ParseError> {
    if s.is_empty() {
        return Err(ParseError::Go(ERR_FORMAT));
    }
    if s == "0" {
        return Ok(Quantity {
            amount: Amount::Int { value: 0, scale: 0 },
            format: QFormat::DecimalSI,
            cached: Some(s.to_owned()),
        });
    }
    let (positive, value, num, denom, suffix) = split(s).map_err(ParseError::Go)?;
    let (base, exponent, format) = interpret(suffix).ok_or(ParseError::Go(ERR_SUFFIX))?;
    let digits = i32::try_from(num.len() + denom.len()).unwrap_or(i32::MAX);
    let (mut scale, mantissa, precision) = match format {
        QFormat::BinarySI => {
            if exponent >= 0 && denom.is_empty() {
                let p = 15 - i32::try_from(num.len()).unwrap_or(i32::MAX) - (exponent as f32 * 3.0 / 10.0) as i32 - 1;
                (0i32, 1i64.checked_shl(exponent as u32).unwrap_or(0), p)
            } else {
                (0, 1, -1)
            }
        }
        _ => (exponent, 1, 18i32.saturating_sub(digits)),
    };
    if precision >= 0 {
        scale = scale.wrapping_sub(i32::try_from(denom.len()).unwrap_or(i32::MAX));
        if scale >= -9 {
            let shifted = format!("{num}{denom}");
            let v: i64 = shifted.parse().map_err(|_| ParseError::Go(ERR_NUMERIC))?;
            if let Some(mut result) = v.checked_mul(mantissa) {
                if !positive {
                    result = -result;
                }
                let keep = match format {
                    QFormat::BinarySI => exponent % 10 == 0 && v & 7 != 0,
                    _ => scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0'),
                };
                return Ok(Quantity {
                    amount: Amount::Int { value: result, scale },
                    format,
                    cached: keep.then(|| s.to_owned()),
                });
            }
        }
    }
    let mut amount = parse_dec(value)?;
    if base == 10 {
        amount.scale -= i64::from(exponent);
        amount.go_scale = amount.scale;
    } else {
        let factor = 1i128.checked_shl(exponent as u32).ok_or(ParseError::Range)?;
        amount.unscaled = amount.unscaled.checked_mul(factor).ok_or(ParseError::Range)?;
    }
    let negative = amount.unscaled < 0;
    if negative {
        amount = amount.neg().ok_or(ParseError::Range)?;
    }
    if amount.unscaled != 0 {
        amount = amount.round_up(9);
    }
    let mut format = format;
    let max = Dec::of_int(i64::MAX, 0);
    if format == QFormat::BinarySI && cmp_dec(amount, max) == Ordering::Greater {
        amount = max;
    }
    if format == QFormat::BinarySI && cmp_dec(amount, Dec::of_int(1, 0)) == Ordering::Less && amount.unscaled > 0 {
        format = QFormat::DecimalSI;
    }
    if negative {
        amount = amount.neg().ok_or(ParseError::Range)?;
    }
    Ok(Quantity {
        amount: Amount::Dec(amount),
        format,
        cached: None,
    })
}

/// `inf.Dec.SetString` of the value's text (a sign, digits, an optional `.` and digits):
/// `Err(None)` when Go would fail, `Err(Some(Range))` when the digits exceed an `i128`.
fn parse_dec(text: &str) -> Result<Dec, ParseError> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, frac) = rest.split_once('.').unwrap_or((rest, ""));
    let numeric = ParseError::Go(ERR_NUMERIC);
    if whole.is_empty() && frac.is_empty() {
        return Err(numeric);
    }
    let mut unscaled: i128 = 0;
    let scale = i64::try_from(frac.len()).map_err(|_| ParseError::Range)?;
    for c in whole.bytes().chain(frac.bytes()) {
        if !c.is_ascii_digit() {
            return Err(numeric);
        }
        let d = i128::from(c - b'0');
        unscaled = unscaled
            .checked_mul(10)
            .and_then(|u| u.checked_add(d))
            .ok_or(ParseError::Range)?;
    }
    if negative {
        unscaled = -unscaled;
    }
    Ok(Dec {
        unscaled,
        scale,
        go_scale: scale,
    })
}

/// Removes factors of `base` from the magnitude: `(rest, times)`.
fn remove_factors(v: i128, base: i128) -> (i128, i32) {
    let mut r = v;
    let mut times = 0;
    while r != 0 && r % base == 0 && r.abs() >= base {
        r /= base;
        times += 1;
    }
    (r, times)
}

impl fmt::Display for Quantity {
    /// `Quantity.String()`: the text it was parsed from when `ParseQuantity` kept it, else the
    /// canonical form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(s) = &self.cached {
            return f.write_str(s);
        }
        if self.is_zero() {
            return f.write_str("0");
        }
        let mut format = self.format;
        let mut integer = None;
        if format == QFormat::BinarySI {
            let d = as_dec(&self.amount);
            let small = cmp_dec(d, Dec::of_int(-1024, 0)) == Ordering::Greater
                && cmp_dec(d, Dec::of_int(1024, 0)) == Ordering::Less;
            let whole = d.round_up(0);
            if small || cmp_dec(whole, d) != Ordering::Equal {
                format = QFormat::DecimalSI;
            } else {
                integer = whole.at_scale(0);
                if integer.is_none() {
                    format = QFormat::DecimalSI;
                }
            }
        }
        match (format, integer) {
            (QFormat::BinarySI, Some(v)) => {
                let (amount, exponent) = remove_factors(v, 1024);
                let suffix = match exponent {
                    1 => "Ki",
                    2 => "Mi",
                    3 => "Gi",
                    4 => "Ti",
                    5 => "Pi",
                    6 => "Ei",
                    _ => "",
                };
                write!(f, "{amount}{suffix}")
            }
            _ => {
                let d = as_dec(&self.amount).reduced();
                let mut amount = d.unscaled;
                let mut exponent = -d.scale;
                let mut digits_extra = 0;
                while exponent % 3 != 0 {
                    match amount.checked_mul(10) {
                        Some(a) => amount = a,
                        None => digits_extra += 1,
                    }
                    exponent -= 1;
                }
                let zeros = "0".repeat(digits_extra);
                let suffix = match format {
                    QFormat::DecimalExponent if exponent == 0 => String::new(),
                    QFormat::DecimalExponent => format!("e{}", exponent as i32),
                    _ => match exponent {
                        -9 => "n".to_owned(),
                        -6 => "u".to_owned(),
                        -3 => "m".to_owned(),
                        3 => "k".to_owned(),
                        6 => "M".to_owned(),
                        9 => "G".to_owned(),
                        12 => "T".to_owned(),
                        15 => "P".to_owned(),
                        18 => "E".to_owned(),
                        _ => String::new(),
                    },
                };
                write!(f, "{amount}{zeros}{suffix}")
            }
        }
    }
}

/// A quantity value.
fn value(q: Quantity) -> Value {
    Value::Opaque(Arc::new(q))
}

/// The receiver or argument as a quantity.
fn quantity_of(v: &Value) -> Option<&Quantity> {
    match v {
        Value::Opaque(o) => o.as_any().downcast_ref::<Quantity>(),
        _ => None,
    }
}

/// The quantity library's functions.
pub(crate) fn call(function: &str, target: Option<&Value>, args: &[Value]) -> Call {
    match (target, function, args) {
        (None, "quantity", [Value::String(s)]) => Some(match parse(s) {
            Ok(q) => Ok(value(q)),
            Err(ParseError::Go(m)) => Err(EvalError::new(m)),
            Err(ParseError::Range) => Err(EvalError::new(ERR_RANGE)),
        }),
        (None, "isQuantity", [Value::String(s)]) => Some(Ok(Value::Bool(!matches!(parse(s), Err(ParseError::Go(_)))))),
        (None, "sign", [q]) => Some(Ok(Value::Int(quantity_of(q)?.sign()))),
        (Some(t), _, _) => {
            let q = quantity_of(t)?;
            method(q, function, args)
        }
        _ => None,
    }
}

/// The `kubernetes.Quantity` methods.
fn method(q: &Quantity, function: &str, args: &[Value]) -> Call {
    let result = match (function, args) {
        ("isInteger", []) => Value::Bool(q.as_int64().is_some()),
        ("asInteger", []) => match q.as_int64() {
            Some(i) => Value::Int(i),
            None => return Some(Err(EvalError::new("cannot convert value to integer"))),
        },
        ("asApproximateFloat", []) => Value::Double(q.as_approximate_float()),
        ("add" | "sub", [Value::Int(i)]) => {
            let y = Quantity {
                amount: Amount::Int { value: *i, scale: 0 },
                format: QFormat::DecimalExponent,
                cached: None,
            };
            return Some(q.plus(&y, function == "sub").map(value));
        }
        ("add" | "sub", [other]) => {
            let y = quantity_of(other)?;
            return Some(q.plus(y, function == "sub").map(value));
        }
        ("isGreaterThan", [other]) => Value::Bool(cmp(&q.amount, &quantity_of(other)?.amount) == Ordering::Greater),
        ("isLessThan", [other]) => Value::Bool(cmp(&q.amount, &quantity_of(other)?.amount) == Ordering::Less),
        ("compareTo", [other]) => Value::Int(match cmp(&q.amount, &quantity_of(other)?.amount) {
            Ordering::Less => -1,
            Ordering::Equal => 0,
            Ordering::Greater => 1,
        }),
        _ => return None,
    };
    Some(Ok(result))
}

/// apiserver's costs: parsing is a traversal of the string (a tenth per code point); the
/// methods cost 1.
pub(crate) fn cost(function: &str, target: Option<&Value>, args: &[Value], _result: &Value) -> Option<u64> {
    match (target, function, args) {
        (None, "quantity" | "isQuantity", [Value::String(s)]) => {
            Some(super::strings::scaled_cost(s.chars().count(), 0.1))
        }
        (None, "sign", [q]) if quantity_of(q).is_some() => Some(1),
        (Some(t), _, _) if quantity_of(t).is_some() => Some(1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(s: &str) -> Value {
        call("quantity", None, &[Value::string(s)]).unwrap().unwrap()
    }

    fn m(target: &Value, f: &str, args: &[Value]) -> Result<Value, EvalError> {
        call(f, Some(target), args).unwrap()
    }

    fn text(v: &Value) -> String {
        quantity_of(v).unwrap().to_string()
    }

    fn is(v: Result<Value, EvalError>, want: bool) -> bool {
        matches!(v, Ok(Value::Bool(b)) if b == want)
    }

    fn int(v: Result<Value, EvalError>) -> i64 {
        match v {
            Ok(Value::Int(i)) => i,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parse_errors_from_the_library_tests() {
        let e = call("quantity", None, &[Value::string("10Mo")]).unwrap().unwrap_err();
        assert!(e.message.starts_with("quantities must match the regular expression"));
        assert_eq!(e.message, ERR_FORMAT);
        let e = call("quantity", None, &[Value::string("10Mm")]).unwrap().unwrap_err();
        assert_eq!(e.message, "unable to parse quantity's suffix");
        let isq = |s: &str| is(call("isQuantity", None, &[Value::string(s)]).unwrap(), true);
        assert!(isq("20"));
        assert!(isq("20M"));
        assert!(isq("20Mi"));
        assert!(!isq("20Mo"));
        assert!(!isq("10Mm"));
        assert!(!isq(""));
        assert!(isq("1e3"));
        assert!(isq("1.5E-3"));
        assert!(!isq("1e"));
        // parseQuantityString takes an empty number as 0: a bare suffix is a zero quantity.
        assert!(isq("Ki"));
        assert!(isq("-"));
    }

    #[test]
    fn equality_and_comparisons_from_the_library_tests() {
        assert_eq!(q("200M").equals(&q("200M")), Some(true));
        assert_eq!(q("200M").equals(&q("0.2G")), Some(true));
        assert_eq!(q("2M").equals(&q("0.002G")), Some(true));
        assert_eq!(q("2000k").equals(&q("2M")), Some(true));
        assert_eq!(q("200M").equals(&q("0.3G")), Some(false));
        assert!(is(m(&q("50M"), "isLessThan", &[q("50Mi")]), true));
        assert!(is(m(&q("50M"), "isLessThan", &[q("100M")]), true));
        assert!(is(m(&q("100M"), "isLessThan", &[q("50M")]), false));
        assert!(is(m(&q("50Mi"), "isGreaterThan", &[q("50M")]), true));
        assert!(is(m(&q("150Mi"), "isGreaterThan", &[q("100Mi")]), true));
        assert!(is(m(&q("50M"), "isGreaterThan", &[q("100M")]), false));
        assert_eq!(int(m(&q("200M"), "compareTo", &[q("0.2G")])), 0);
        assert_eq!(int(m(&q("50M"), "compareTo", &[q("50Mi")])), -1);
        assert_eq!(int(m(&q("50Mi"), "compareTo", &[q("50M")])), 1);
    }

    #[test]
    fn arithmetic_from_the_library_tests() {
        let added = m(&q("50k"), "add", &[q("20")]).unwrap();
        assert_eq!(added.equals(&q("50.02k")), Some(true));
        let added = m(&q("50k"), "add", &[Value::Int(20)]).unwrap();
        assert!(is(m(&added, "isLessThan", &[q("50020")]), false));
        assert_eq!(
            m(&q("50k"), "sub", &[q("20")]).unwrap().equals(&q("49.98k")),
            Some(true)
        );
        assert_eq!(
            m(&q("50k"), "sub", &[Value::Int(20)]).unwrap().equals(&q("49980")),
            Some(true)
        );
        let chain = m(&q("50k"), "add", &[Value::Int(20)]).unwrap();
        let chain = m(&chain, "sub", &[q("100k")]).unwrap();
        assert_eq!(int(m(&chain, "asInteger", &[])), -49980);
        let chain = m(&chain, "sub", &[Value::Int(-50000)]).unwrap();
        assert_eq!(int(m(&chain, "asInteger", &[])), 20);
        assert_eq!(int(m(&q("50k"), "asInteger", &[])), 50000);
        let huge = q("9999999999999999999999999999999999999G");
        assert_eq!(
            m(&huge, "asInteger", &[]).unwrap_err().message,
            "cannot convert value to integer"
        );
        assert!(is(m(&huge, "isInteger", &[]), false));
        assert!(is(m(&q("50"), "isInteger", &[]), true));
        assert!(matches!(
            m(&q("50.703k"), "asApproximateFloat", &[]),
            Ok(Value::Double(d)) if d == 50703.0
        ));
        // add_does_not_mutate_receiver
        let x = q("9999999999999999999999999999999999999");
        let a = m(&x, "add", &[q("1")]).unwrap();
        let b = m(&x, "add", &[q("2")]).unwrap();
        assert_eq!(int(m(&a, "compareTo", &[b])), -1);
    }

    #[test]
    fn representation_decides_integer_conversion() {
        // A binary suffix with a fraction is a decimal in Go: never an int64.
        assert!(is(m(&q("1.5Gi"), "isInteger", &[]), false));
        assert!(is(m(&q("1.0"), "isInteger", &[]), false));
        assert!(is(m(&q("1k"), "isInteger", &[]), true));
        assert!(is(m(&q("1m"), "isInteger", &[]), false));
        assert!(is(m(&q("10000000000000000000"), "isInteger", &[]), false));
        assert_eq!(int(m(&q("1Ki"), "asInteger", &[])), 1024);
        assert_eq!(int(call("sign", None, &[q("-1")]).unwrap()), -1);
        assert_eq!(int(call("sign", None, &[q("0")]).unwrap()), 0);
        assert_eq!(int(call("sign", None, &[q("5n")]).unwrap()), 1);
    }

    #[test]
    fn canonical_strings() {
        let cases = [
            ("12Mi", "12Mi"),
            ("1Ki", "1Ki"),
            ("1024", "1024"),
            ("1.5Gi", "1536Mi"),
            ("0.5Ki", "512"),
            ("1000", "1k"),
            ("1100", "1100"),
            ("1.5", "1500m"),
            ("0.1", "100m"),
            ("1e3", "1e3"),
            ("1000e0", "1e3"),
            ("1.234567891n", "2n"),
            ("-1.5", "-1500m"),
            ("+1", "+1"),
            ("01", "01"),
            ("0", "0"),
            ("-0", "0"),
            ("100Ei", "9223372036854775807"),
            ("1000E", "1"),
        ];
        for (input, want) in cases {
            assert_eq!(text(&q(input)), want, "{input}");
        }
        let sum = m(&q("1Mi"), "add", &[q("1Mi")]).unwrap();
        assert_eq!(text(&sum), "2Mi");
        let sum = m(&q("1"), "add", &[q("500m")]).unwrap();
        assert_eq!(text(&sum), "1500m");
    }

    #[test]
    fn approximate_floats() {
        let f = |s: &str| match m(&q(s), "asApproximateFloat", &[]) {
            Ok(Value::Double(d)) => d,
            other => panic!("{other:?}"),
        };
        assert_eq!(f("1Ki"), 1024.0);
        assert_eq!(f("1.5"), 1.5);
        assert_eq!(f("1m"), 0.001);
        assert_eq!(f("1e400"), f64::INFINITY);
    }

    #[test]
    fn costs() {
        let s = [Value::string("123Mi")];
        let r = call("quantity", None, &s).unwrap().unwrap();
        assert_eq!(cost("quantity", None, &s, &r), Some(1));
        let s = [Value::string("12345678901")];
        assert_eq!(cost("isQuantity", None, &s, &Value::Bool(true)), Some(2));
        assert_eq!(cost("isInteger", Some(&r), &[], &Value::Bool(true)), Some(1));
    }
}
