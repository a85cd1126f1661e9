//! Go's float formatting: `encoding/json` and `fmt`'s `%v`.

/// The shortest decimal digits that round-trip `f` (|f| > 0, finite) at 64 bits, or at 32
/// bits with `bits32`, and the decimal exponent `dp` such that `f = 0.d1d2d3... × 10^dp`
/// (Go's `decimalSlice.dp`).
fn shortest_digits(f: f64, bits32: bool) -> (String, i32) {
    // Rust's `{:e}` prints the shortest round-trip digits, like Go's `strconv` with precision -1.
    let s = if bits32 {
        format!("{:e}", (f as f32).abs())
    } else {
        format!("{:e}", f.abs())
    };
    let (mantissa, exp) = s.split_once('e').unwrap_or((s.as_str(), "0"));
    let digits: String = mantissa.chars().filter(|c| c.is_ascii_digit()).collect();
    let exp: i32 = exp.parse().unwrap_or(0);
    (digits, exp + 1)
}

/// Go's `%e` layout with the given digits: `d.ddde±XX`.
fn fmt_e(out: &mut String, digits: &str, dp: i32) {
    let mut chars = digits.chars();
    out.push(chars.next().unwrap_or('0'));
    let rest: String = chars.collect();
    if !rest.is_empty() {
        out.push('.');
        out.push_str(&rest);
    }
    let exp = if digits == "0" { 0 } else { dp - 1 };
    out.push('e');
    out.push(if exp < 0 { '-' } else { '+' });
    let e = exp.unsigned_abs();
    if e < 10 {
        out.push('0');
    }
    out.push_str(&e.to_string());
}

/// Go's `%f` layout with exactly the given digits and no trailing exponent.
fn fmt_f(out: &mut String, digits: &str, dp: i32) {
    let nd = digits.len() as i32;
    if dp <= 0 {
        out.push('0');
    } else {
        for i in 0..dp {
            out.push(if i < nd {
                digits.as_bytes()[i as usize] as char
            } else {
                '0'
            });
        }
    }
    if dp < nd {
        out.push('.');
        for i in dp..nd {
            out.push(if i < 0 {
                '0'
            } else {
                digits.as_bytes()[i as usize] as char
            });
        }
    }
}

/// Writes the sign and handles the values that need no digits: returns `None` when `out` is
/// complete (NaN, infinities, zeros).
fn prelude(out: &mut String, f: f64) -> Option<()> {
    if f.is_nan() {
        out.push_str("NaN");
        return None;
    }
    if f.is_infinite() {
        out.push_str(if f > 0.0 { "+Inf" } else { "-Inf" });
        return None;
    }
    if f.is_sign_negative() {
        out.push('-');
    }
    if f == 0.0 {
        out.push('0');
        return None;
    }
    Some(())
}

/// Formats `f` as Go's `encoding/json` does: plain decimal unless `|f| < 1e-6` or
/// `|f| >= 1e21`, then exponent form with at least one exponent digit (`1e-7`, `1e+21`).
/// Integral values print without a fraction (`1`, not `1.0`).
///
/// ```
/// use kstruct_schema::go::format_float_json;
/// assert_eq!(format_float_json(1.0), "1");
/// assert_eq!(format_float_json(1e21), "1e+21");
/// assert_eq!(format_float_json(-9223372036854775809.0), "-9223372036854776000");
/// assert_eq!(format_float_json(0.000001), "0.000001");
/// assert_eq!(format_float_json(1e-7), "1e-7");
/// ```
pub fn format_float_json(f: f64) -> String {
    let mut out = String::new();
    // Go refuses to marshal NaN and infinities; callers never produce them, but never panic.
    if prelude(&mut out, f).is_none() {
        return out;
    }
    let (digits, dp) = shortest_digits(f, false);
    if !(1e-6..1e21).contains(&f.abs()) {
        fmt_e(&mut out, &digits, dp);
        // Go trims one leading zero from a negative two-digit exponent: e-07 -> e-7.
        let n = out.len();
        if n >= 4 && &out[n - 4..n - 2] == "e-" && &out[n - 2..n - 1] == "0" {
            out.remove(n - 2);
        }
    } else {
        fmt_f(&mut out, &digits, dp);
    }
    out
}

/// Formats `f` as Go's `fmt` verb `%v` does (`strconv.FormatFloat(f, 'g', -1, 64)`): the
/// shortest digits, in exponent form when the decimal exponent is below -4 or at least 6.
///
/// ```
/// use kstruct_schema::go::format_float_g;
/// assert_eq!(format_float_g(1.5), "1.5");
/// assert_eq!(format_float_g(1e6), "1e+06");
/// assert_eq!(format_float_g(1234567.0), "1.234567e+06");
/// assert_eq!(format_float_g(123456.0), "123456");
/// assert_eq!(format_float_g(0.0001), "0.0001");
/// assert_eq!(format_float_g(0.00001), "1e-05");
/// ```
pub fn format_float_g(f: f64) -> String {
    format_g(f, false)
}

/// [`format_float_g`] at 32 bits (`strconv.FormatFloat(f, 'g', -1, 32)`): the value is first
/// rounded to `float32`.
///
/// ```
/// assert_eq!(kstruct_schema::go::format_float32_g(0.1), "0.1");
/// assert_eq!(kstruct_schema::go::format_float32_g(1e300), "+Inf");
/// ```
pub fn format_float32_g(f: f64) -> String {
    format_g(f64::from(f as f32), true)
}

fn format_g(f: f64, bits32: bool) -> String {
    let mut out = String::new();
    if prelude(&mut out, f).is_none() {
        return out;
    }
    let (digits, dp) = shortest_digits(f, bits32);
    let exp = dp - 1;
    if !(-4..6).contains(&exp) {
        fmt_e(&mut out, &digits, dp);
    } else {
        fmt_f(&mut out, &digits, dp);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_floats_like_go() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (-0.0, "-0"),
            (1.5, "1.5"),
            (-1.5, "-1.5"),
            (100.0, "100"),
            (1e20, "100000000000000000000"),
            (1e21, "1e+21"),
            (1.5e300, "1.5e+300"),
            (123456789.125, "123456789.125"),
            (0.1, "0.1"),
            (1e-6, "0.000001"),
            (9.99e-7, "9.99e-7"),
            (1.2345e-10, "1.2345e-10"),
            (5e-324, "5e-324"),
            (f64::MAX, "1.7976931348623157e+308"),
            (9223372036854775808.0, "9223372036854776000"),
        ];
        for (f, want) in cases {
            assert_eq!(format_float_json(*f), *want, "{f:e}");
        }
    }
}
