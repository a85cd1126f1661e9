//! Layer 0: scanning JSON text sixteen bytes at a time with SSE2 on x86-64, and eight bytes at a time
//! for what is left and on other machines: the end of a string literal's plain run, and
//! whether the run holds bytes Go's encoder escapes or that need a UTF-8 check.
//!
//! Each 8-byte word is tested for all byte values at once with the classic word tricks (a
//! byte equal to `c` is a zero byte of `x ^ c`; a zero or small byte borrows when
//! subtracted from). Borrows can mark bytes *above* a true match, never below one, so the
//! lowest marked byte is always right.

/// Every byte of a word set to 1.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The high bit of every byte.
const HIGH: u64 = 0x8080_8080_8080_8080;

/// Bytes of `x` equal to `c`, as their high bits (exact up to the lowest one).
#[inline(always)]
fn equal(x: u64, c: u8) -> u64 {
    let y = x ^ (ONES * u64::from(c));
    y.wrapping_sub(ONES) & !y & HIGH
}

/// Bytes of `x` below `n` (`n <= 0x80`), as their high bits (exact up to the lowest one).
#[inline(always)]
fn below(x: u64, n: u8) -> u64 {
    x.wrapping_sub(ONES * u64::from(n)) & !x & HIGH
}

/// Bytes that end a plain run: `"`, `\` and control characters.
#[inline(always)]
fn stops(x: u64) -> u64 {
    equal(x, b'"') | equal(x, b'\\') | below(x, 0x20)
}

#[inline(always)]
fn word(b: &[u8], i: usize) -> Option<u64> {
    let w: [u8; 8] = b.get(i..i + 8)?.try_into().ok()?;
    Some(u64::from_le_bytes(w))
}

#[inline(always)]
fn is_stop(c: u8) -> bool {
    c == b'"' || c == b'\\' || c < 0x20
}

/// Sixteen bytes at a time where the machine has SSE2 (every x86-64): one comparison per kind
/// of byte for the whole block, and a bit per byte from `movemask`.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod wide {
    use safe_arch::{
        add_i8_m128i, bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, m128i, max_u8_m128i, move_mask_i8_m128i,
        set_splat_i8_m128i, sub_i8_m128i, sum_of_u8_abs_diff_m128i, zeroed_m128i,
    };

    /// How many `\n` the whole sixteen-byte blocks at the start of `b` hold, and the bytes
    /// after them. Each block adds one per newline to byte counters (a match is all ones:
    /// minus one), four blocks a step, and the counters are summed every 63 steps, before
    /// they can overflow.
    pub fn newlines(b: &[u8]) -> (usize, &[u8]) {
        let newline = set_splat_i8_m128i(b'\n' as i8);
        let matches = |x: &[u8; 16]| cmp_eq_mask_i8_m128i(load_unaligned_m128i(x), newline);
        let mut n = 0;
        let mut steps = b.chunks_exact(64);
        loop {
            let mut counts = zeroed_m128i();
            let mut k = 0;
            for step in steps.by_ref().take(63) {
                if let Ok([a, b, c, d]) = <&[[u8; 16]; 4]>::try_from(step.as_chunks::<16>().0) {
                    counts = sub_i8_m128i(counts, add_i8_m128i(matches(a), matches(b)));
                    counts = sub_i8_m128i(counts, add_i8_m128i(matches(c), matches(d)));
                }
                k += 1;
            }
            let [lo, hi]: [u64; 2] = sum_of_u8_abs_diff_m128i(counts, zeroed_m128i()).into();
            n += (lo + hi) as usize;
            if k < 63 {
                break;
            }
        }
        let (blocks, tail) = steps.remainder().as_chunks::<16>();
        for x in blocks {
            n += (move_mask_i8_m128i(matches(x)) as u32).count_ones() as usize;
        }
        (n, tail)
    }

    /// The sixteen bytes from `i`, if there are sixteen.
    #[inline(always)]
    pub fn block(b: &[u8], i: usize) -> Option<m128i> {
        Some(load_unaligned_m128i(b.get(i..i + 16)?.try_into().ok()?))
    }

    /// The bytes of `x` equal to `c`, all ones each.
    #[inline(always)]
    fn equal(x: m128i, c: u8) -> m128i {
        cmp_eq_mask_i8_m128i(x, set_splat_i8_m128i(c as i8))
    }

    /// Bits of the bytes that end a plain run: `"`, `\\` and control characters (`x <= 0x1f`
    /// where the larger of `x` and 0x1f is 0x1f).
    #[inline(always)]
    pub fn stops(x: m128i) -> u32 {
        let limit = set_splat_i8_m128i(0x1f);
        let control = cmp_eq_mask_i8_m128i(max_u8_m128i(x, limit), limit);
        move_mask_i8_m128i(bitor_m128i(bitor_m128i(equal(x, b'"'), equal(x, b'\\')), control)) as u32
    }

    /// Bits of the bytes beyond ASCII.
    #[inline(always)]
    pub fn high(x: m128i) -> u32 {
        move_mask_i8_m128i(x) as u32
    }

    /// Bits of the bytes Go's encoder escapes (`<`, `>`, `&`) or beyond ASCII.
    #[inline(always)]
    pub fn special(x: m128i) -> u32 {
        let escaped = bitor_m128i(bitor_m128i(equal(x, b'<'), equal(x, b'>')), equal(x, b'&'));
        high(x) | move_mask_i8_m128i(escaped) as u32
    }
}

/// How many `\n` `b` holds, counted sixteen bytes at a time where the machine has SSE2: the
/// count for the whole blocks at its start, and the bytes after them, for the caller to count.
#[inline]
pub(crate) fn count_newlines(b: &[u8]) -> (usize, &[u8]) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    return wide::newlines(b);
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    return (0, b);
}

/// The first `"`, `\` or control character at or after `i` (`b.len()` if none).
#[inline]
pub(crate) fn stop(b: &[u8], mut i: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    while let Some(x) = wide::block(b, i) {
        let m = wide::stops(x);
        if m != 0 {
            return i + m.trailing_zeros() as usize;
        }
        i += 16;
    }
    while let Some(x) = word(b, i) {
        let m = stops(x);
        if m != 0 {
            return i + (m.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && !is_stop(b[i]) {
        i += 1;
    }
    i
}

/// [`stop`], and whether the bytes before it include any Go's encoder escapes (`<`, `>`,
/// `&`) or any beyond ASCII (which need a UTF-8 check, and may be U+2028 or U+2029).
#[inline(always)]
pub(super) fn run(b: &[u8], i: usize) -> (usize, bool) {
    flagged_run::<Special>(b, i)
}

/// [`stop`], and whether any byte before it is beyond ASCII (a key's scan: whether it needs
/// Go's escapes is asked only of the keys that are printed from the input).
#[inline(always)]
pub(super) fn key_run(b: &[u8], i: usize) -> (usize, bool) {
    flagged_run::<High>(b, i)
}

/// The bytes a run looks for, marked sixteen, eight and one at a time alike.
trait Flags {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn block(x: safe_arch::m128i) -> u32;
    /// As high bits, exact up to the lowest one.
    fn word(x: u64) -> u64;
    fn byte(c: u8) -> bool;
}

/// Bytes Go's encoder escapes (`<`, `>`, `&`) or beyond ASCII.
struct Special;

impl Flags for Special {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn block(x: safe_arch::m128i) -> u32 {
        wide::special(x)
    }

    #[inline(always)]
    fn word(x: u64) -> u64 {
        (x & HIGH) | equal(x, b'<') | equal(x, b'>') | equal(x, b'&')
    }

    #[inline(always)]
    fn byte(c: u8) -> bool {
        c >= 0x80 || matches!(c, b'<' | b'>' | b'&')
    }
}

/// Bytes beyond ASCII.
struct High;

impl Flags for High {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn block(x: safe_arch::m128i) -> u32 {
        wide::high(x)
    }

    #[inline(always)]
    fn word(x: u64) -> u64 {
        x & HIGH
    }

    #[inline(always)]
    fn byte(c: u8) -> bool {
        c >= 0x80
    }
}

/// [`stop`], and whether any byte before it is one `F` flags: sixteen bytes at a time where
/// SSE2 is, then eight, then one.
#[inline(always)]
fn flagged_run<F: Flags>(b: &[u8], mut i: usize) -> (usize, bool) {
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let seen = false;
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let seen = {
        let mut flags = 0;
        while let Some(x) = wide::block(b, i) {
            let m = wide::stops(x);
            let f = F::block(x);
            if m != 0 {
                // Only the bytes below the first stop belong to the run.
                let below_stop = (m & m.wrapping_neg()) - 1;
                return (i + m.trailing_zeros() as usize, (flags | (f & below_stop)) != 0);
            }
            flags |= f;
            i += 16;
        }
        flags != 0
    };
    let mut flags = 0;
    while let Some(x) = word(b, i) {
        let m = stops(x);
        let f = F::word(x);
        if m != 0 {
            let below_stop = (m & m.wrapping_neg()) - 1;
            return (
                i + (m.trailing_zeros() / 8) as usize,
                seen || (flags | (f & below_stop)) != 0,
            );
        }
        flags |= f;
        i += 8;
    }
    let mut tail = false;
    while i < b.len() && !is_stop(b[i]) {
        tail |= F::byte(b[i]);
        i += 1;
    }
    (i, seen || flags != 0 || tail)
}

/// Whether `key` (a key the walk read: no `"`, `\` or control characters) is printed as it
/// is: nothing in it Go's encoder escapes (`<`, `>`, `&`) and nothing beyond ASCII (which may
/// be U+2028 or U+2029).
#[inline]
pub(super) fn plain_key(key: &[u8]) -> bool {
    // `<` and `>` differ in one bit: one test finds both.
    let marks = |x: u64| (x & HIGH) | equal(x & !(ONES * 2), b'<') | equal(x, b'&');
    let n = key.len();
    let Some(last) = key.last_chunk::<8>() else {
        // Shorter keys are padded with a letter that is printed as it is.
        let mut w = [b'a'; 8];
        w[..n].copy_from_slice(key);
        return marks(u64::from_le_bytes(w)) == 0;
    };
    // Whole words, then the last eight bytes (overlapping the words before): no byte loop.
    let (words, _) = key.as_chunks::<8>();
    let found = words.iter().fold(0, |f, w| f | marks(u64::from_le_bytes(*w)));
    found | marks(u64::from_le_bytes(*last)) == 0
}

/// Appends `src[start..end]` to `out`. Spans of up to 32 bytes with 32 bytes of `src` from
/// `start` are copied as 32 bytes and the excess cut off: a copy of fixed size is two
/// moves, where a call to `memcpy` picks its way by the length, and short spans (keys,
/// strings, small members) are most of what the walk copies.
#[inline(always)]
pub(super) fn append(out: &mut Vec<u8>, src: &[u8], start: usize, end: usize) {
    const WIDE: usize = 32;
    if end - start <= WIDE
        && let Some(chunk) = src.get(start..start + WIDE)
    {
        let at = out.len();
        out.extend_from_slice(chunk);
        out.truncate(at + end - start);
    } else {
        out.extend_from_slice(&src[start..end]);
    }
}

/// [`head`] for the walk: the same number from at most three loads (keys are read and
/// compared by their heads once per member).
#[inline]
pub(crate) fn head_of(key: &[u8]) -> u64 {
    let n = key.len();
    if let Some(w) = key.first_chunk::<8>() {
        return u64::from_be_bytes(*w);
    }
    // Shorter keys: two loads that overlap in the middle, the second placed so that its last
    // byte lands at position `n - 1` (bytes past the key stay zero).
    if n >= 4 {
        let hi = u64::from(u32::from_be_bytes([key[0], key[1], key[2], key[3]])) << 32;
        let lo = u64::from(u32::from_be_bytes([key[n - 4], key[n - 3], key[n - 2], key[n - 1]]));
        hi | (lo << (8 * (8 - n)))
    } else if n >= 2 {
        let hi = u64::from(u16::from_be_bytes([key[0], key[1]])) << 48;
        let lo = u64::from(u16::from_be_bytes([key[n - 2], key[n - 1]]));
        hi | (lo << (8 * (8 - n)))
    } else if n == 1 {
        u64::from(key[0]) << 56
    } else {
        0
    }
}

/// The first eight bytes of `key`, zero-padded, as a big-endian number: ordering keys by it
/// orders them by their bytes, ties aside.
#[inline]
pub(super) const fn head(key: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    let mut i = 0;
    while i < 8 && i < key.len() {
        w[i] = key[i];
        i += 1;
    }
    u64::from_be_bytes(w)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a byte-at-a-time scan, at every offset of texts that put each kind of byte at
    /// each position of a word.
    #[test]
    fn words_scan_as_bytes_do() {
        let alphabet: &[u8] = b"a\"\\\x00\x1f <>&\xc3\xa9\xe2\x80\xa8\x7f\x80 ~";
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for (i, &c) in alphabet.iter().enumerate() {
            for (j, &d) in alphabet.iter().enumerate() {
                for gap in [0, 3, 7, 8, 9, 15, 16, 17, 31, 33] {
                    let mut t = vec![b'x'; gap];
                    t.push(c);
                    t.extend(std::iter::repeat_n(b'y', (i + j) % 11));
                    t.push(d);
                    t.extend(b"zzzzzzzzzz");
                    texts.push(t);
                }
            }
        }
        for t in &texts {
            for start in 0..t.len() {
                let want = (start..t.len()).find(|&k| is_stop(t[k])).unwrap_or(t.len());
                assert_eq!(stop(t, start), want, "{t:?} from {start}");
                let special = t[start..want]
                    .iter()
                    .any(|&c| c >= 0x80 || matches!(c, b'<' | b'>' | b'&'));
                assert_eq!(run(t, start), (want, special), "{t:?} from {start}");
                let high = t[start..want].iter().any(|&c| c >= 0x80);
                assert_eq!(key_run(t, start), (want, high), "{t:?} from {start}");
            }
        }
    }

    #[test]
    fn plain_keys_need_no_escape() {
        for special in ["<", ">", "&", "é", "\u{2028}"] {
            for at in 0..20 {
                let key = format!("{}{special}{}", "k".repeat(at), "v".repeat(20 - at));
                assert!(!plain_key(key.as_bytes()), "{key}");
                assert!(plain_key(&key.as_bytes()[..at]), "{key}");
            }
        }
        // Neighbours of the special bytes, by one bit.
        assert!(plain_key(b"=?$'.,:;abcdefgh=?$'.,:;"));
    }

    #[test]
    fn heads_of_keys_are_their_heads() {
        let text = b"abcdefghij\xff\x01";
        for start in 0..text.len() {
            for end in start..=text.len() {
                let key = &text[start..end];
                assert_eq!(head_of(key), head(key), "{key:?}");
            }
        }
    }

    #[test]
    fn heads_order_keys() {
        let mut keys: Vec<&[u8]> = vec![
            b"",
            b"a",
            b"a\0",
            b"ab",
            b"abcdefgh",
            b"abcdefghi",
            b"abcdefgi",
            b"b",
            b"\xff",
        ];
        keys.sort_by_key(|k| head(k));
        for w in keys.windows(2) {
            assert!(head(w[0]) <= head(w[1]));
            if head(w[0]) < head(w[1]) {
                assert!(w[0] < w[1]);
            }
        }
    }

    #[test]
    fn appends_every_span_whatever_follows_it() {
        let src: Vec<u8> = (0..80u8).collect();
        for start in 0..src.len() {
            for end in start..=src.len() {
                let mut out = b"ab".to_vec();
                append(&mut out, &src, start, end);
                assert_eq!(&out[2..], &src[start..end]);
                assert_eq!(&out[..2], b"ab");
            }
        }
    }
}
