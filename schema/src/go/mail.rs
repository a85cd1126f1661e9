//! Go's `mail.ParseAddress` (Go 1.25): whether a text is one RFC 5322 address as Go reads
//! it, the address it names, and Go's error texts. kube-openapi's `email` format is this
//! parse succeeding with a non-empty address.
//!
//! Go's parser walks bytes and decodes runes as it goes; so does this one, so that each
//! error is the one Go reports first. RFC 2047 encoded words in a display name are decoded
//! with Go's default `mime.WordDecoder`, which knows utf-8, iso-8859-1 and us-ascii: another
//! charset fails the parse, a malformed encoded word is kept as plain text.

use super::quote::{is_print, quote};

const MISFORMATTED_COMMENT: &str = "mail: misformatted parenthetical comment";

/// `mail.ParseAddress`: the address (`local@domain`) or Go's error text.
pub fn parse_address(s: &str) -> Result<String, String> {
    let mut p = Parser { s: s.as_bytes() };
    let mut addrs = p.parse_address(true)?;
    if !p.skip_cfws() {
        return Err(MISFORMATTED_COMMENT.to_owned());
    }
    if !p.s.is_empty() {
        return Err(format!("mail: expected single address, got {}", quote_bytes(p.s)));
    }
    match addrs.len() {
        0 => Err("mail: empty group".to_owned()),
        1 => Ok(addrs.swap_remove(0)),
        _ => Err("mail: group with multiple addresses".to_owned()),
    }
}

/// kube-openapi's `email` format: `parse_address` succeeds with a non-empty address.
pub fn is_email(s: &str) -> bool {
    parse_address(s).is_ok_and(|a| !a.is_empty())
}

/// Go's `addrParser`: the input not read yet.
struct Parser<'a> {
    s: &'a [u8],
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.first().copied()
    }

    fn consume(&mut self, c: u8) -> bool {
        match self.s.split_first() {
            Some((&first, rest)) if first == c => {
                self.s = rest;
                true
            }
            _ => false,
        }
    }

    fn skip_space(&mut self) {
        while let Some((&(b' ' | b'\t'), rest)) = self.s.split_first() {
            self.s = rest;
        }
    }

    /// Spaces and comments; false for a comment that does not close.
    fn skip_cfws(&mut self) -> bool {
        self.skip_space();
        while self.consume(b'(') {
            if !self.consume_comment().1 {
                return false;
            }
            self.skip_space();
        }
        true
    }

    /// The comment after its `(`, nested comments included, and whether it closed. Go walks
    /// it byte by byte; a backslash is dropped and makes the byte after it plain.
    fn consume_comment(&mut self) -> (Vec<u8>, bool) {
        let mut depth = 1usize;
        let mut comment = Vec::new();
        while depth > 0 {
            let Some(mut c) = self.peek() else { break };
            if c == b'\\' && self.s.len() > 1 {
                self.s = &self.s[1..];
                c = self.s[0];
            } else if c == b'(' {
                depth += 1;
            } else if c == b')' {
                depth -= 1;
            }
            if depth > 0 {
                comment.push(c);
            }
            self.s = &self.s[1..];
        }
        (comment, depth == 0)
    }

    /// Go's `parseAddress`: a bare addr-spec (with a comment as display name), or a display
    /// name then an angle-addr, or (with `handle_group`) a group `name: addr, ...;`. The
    /// addresses found, without their names.
    fn parse_address(&mut self, handle_group: bool) -> Result<Vec<String>, String> {
        self.skip_space();
        if self.s.is_empty() {
            return Err("mail: no address".to_owned());
        }
        // An addr-spec is tried first as its grammar is the narrower one.
        if let Ok(spec) = self.consume_addr_spec() {
            self.skip_space();
            if self.peek() == Some(b'(') {
                self.consume_display_name_comment()?;
            }
            return Ok(vec![spec]);
        }
        let mut display_name = String::new();
        if self.peek() != Some(b'<') {
            display_name = self.consume_phrase()?;
        }
        self.skip_space();
        if handle_group && self.consume(b':') {
            return self.consume_group_list();
        }
        if !self.consume(b'<') {
            // A name that could be a local part probably lacks its `@domain`; one with
            // spaces or specials probably lacks its `<...>`.
            if display_name.chars().all(|r| is_atext(r, true)) {
                return Err("mail: missing '@' or angle-addr".to_owned());
            }
            return Err("mail: no angle-addr".to_owned());
        }
        let spec = self.consume_addr_spec()?;
        if !self.consume(b'>') {
            return Err("mail: unclosed angle-addr".to_owned());
        }
        Ok(vec![spec])
    }

    /// Go's `consumeGroupList`, after the group name's `:`; groups do not nest.
    fn consume_group_list(&mut self) -> Result<Vec<String>, String> {
        let mut group = Vec::new();
        self.skip_space();
        if self.consume(b';') {
            if !self.skip_cfws() {
                return Err(MISFORMATTED_COMMENT.to_owned());
            }
            return Ok(group);
        }
        loop {
            self.skip_space();
            group.extend(self.parse_address(false)?);
            if !self.skip_cfws() {
                return Err(MISFORMATTED_COMMENT.to_owned());
            }
            if self.consume(b';') {
                if !self.skip_cfws() {
                    return Err(MISFORMATTED_COMMENT.to_owned());
                }
                return Ok(group);
            }
            if !self.consume(b',') {
                return Err("mail: expected comma".to_owned());
            }
        }
    }

    /// Go's `consumeAddrSpec`: `local@domain`; on failure nothing is consumed.
    fn consume_addr_spec(&mut self) -> Result<String, String> {
        let orig = self.s;
        let spec = self.addr_spec();
        if spec.is_err() {
            self.s = orig;
        }
        spec
    }

    fn addr_spec(&mut self) -> Result<String, String> {
        self.skip_space();
        let Some(first) = self.peek() else {
            return Err("mail: no addr-spec".to_owned());
        };
        let local = if first == b'"' {
            // Go reports any quoted local part it cannot use, even a malformed one, as empty.
            match self.consume_quoted_string() {
                Ok(local) if !local.is_empty() => local,
                _ => return Err("mail: empty quoted string in addr-spec".to_owned()),
            }
        } else {
            lossy(self.consume_atom(true, false)?)
        };
        if !self.consume(b'@') {
            return Err("mail: missing @ in addr-spec".to_owned());
        }
        self.skip_space();
        let domain = match self.peek() {
            None => return Err("mail: no domain in addr-spec".to_owned()),
            Some(b'[') => self.consume_domain_literal()?,
            Some(_) => lossy(self.consume_atom(true, false)?),
        };
        Ok(format!("{local}@{domain}"))
    }

    /// Go's `consumePhrase`: words (atoms, quoted strings, encoded words), comments between
    /// them allowed. A word that fails ends the phrase; that is an error only when no word
    /// came before it.
    fn consume_phrase(&mut self) -> Result<String, String> {
        let mut words: Vec<String> = Vec::new();
        let mut prev_encoded = false;
        let mut failure = None;
        loop {
            if !words.is_empty() && !self.skip_cfws() {
                return Err(MISFORMATTED_COMMENT.to_owned());
            }
            self.skip_space();
            if self.s.is_empty() {
                break;
            }
            let word = if self.peek() == Some(b'"') {
                self.consume_quoted_string().map(|w| (w, false))
            } else {
                // Go reads a dot-atom here, which is more than RFC 5322's atom.
                self.consume_atom(true, true)
                    .and_then(|atom| match decode_rfc2047_word(atom)? {
                        Some(decoded) => Ok((lossy(&decoded), true)),
                        None => Ok((lossy(atom), false)),
                    })
            };
            let (word, encoded) = match word {
                Ok(w) => w,
                Err(e) => {
                    failure = Some(e);
                    break;
                }
            };
            // Adjacent encoded words join without the space between them.
            match words.last_mut() {
                Some(last) if prev_encoded && encoded => last.push_str(&word),
                _ => words.push(word),
            }
            prev_encoded = encoded;
        }
        if let Some(e) = failure
            && words.is_empty()
        {
            return Err(format!("mail: missing word in phrase: {e}"));
        }
        Ok(words.join(" "))
    }

    /// Go's `consumeQuotedString`: the text between the quotes, backslash escapes resolved.
    fn consume_quoted_string(&mut self) -> Result<String, String> {
        let mut i = 1;
        let mut text = String::new();
        let mut escaped = false;
        loop {
            let (r, size) = decode_rune(self.s.get(i..).unwrap_or_default());
            let Some(r) = r else {
                if size == 0 {
                    return Err("mail: unclosed quoted-string".to_owned());
                }
                return Err(format!("mail: invalid utf-8 in quoted-string: {}", quote_bytes(self.s)));
            };
            if escaped {
                if !is_vchar(r) && !is_wsp(r) {
                    return Err(format!("mail: bad character in quoted-string: {}", quote_rune(r)));
                }
                text.push(r);
                escaped = false;
            } else if is_qtext(r) || is_wsp(r) {
                text.push(r);
            } else if r == '"' {
                break;
            } else if r == '\\' {
                escaped = true;
            } else {
                return Err(format!("mail: bad character in quoted-string: {}", quote_rune(r)));
            }
            i += size;
        }
        self.s = self.s.get(i + 1..).unwrap_or_default();
        Ok(text)
    }

    /// Go's `consumeAtom`: atext runes (and dots when `dot`); unless `permissive`, dots only
    /// between atext. The atom is consumed even when its dots are then refused.
    fn consume_atom(&mut self, dot: bool, permissive: bool) -> Result<&[u8], String> {
        let mut i = 0;
        loop {
            let (r, size) = decode_rune(self.s.get(i..).unwrap_or_default());
            match r {
                None if size == 1 => {
                    return Err(format!("mail: invalid utf-8 in address: {}", quote_bytes(self.s)));
                }
                Some(r) if is_atext(r, dot) => i += size,
                _ => break,
            }
        }
        if i == 0 {
            return Err("mail: invalid string".to_owned());
        }
        let (atom, rest) = self.s.split_at(i);
        self.s = rest;
        if !permissive {
            if atom.starts_with(b".") {
                return Err("mail: leading dot in atom".to_owned());
            }
            if atom.windows(2).any(|w| w == b"..") {
                return Err("mail: double dot in atom".to_owned());
            }
            if atom.ends_with(b".") {
                return Err("mail: trailing dot in atom".to_owned());
            }
        }
        Ok(atom)
    }

    /// Go's `consumeDomainLiteral`: `[dtext]`, which must be an IPv4 address, or `IPv6:` and
    /// an address `net.ParseIP` takes.
    fn consume_domain_literal(&mut self) -> Result<String, String> {
        if !self.consume(b'[') {
            return Err(r#"mail: missing "[" in domain-literal"#.to_owned());
        }
        let start = self.s;
        let mut len = 0;
        loop {
            match self.peek() {
                None => return Err("mail: unclosed domain-literal".to_owned()),
                Some(b']') => break,
                Some(_) => {}
            }
            let (r, size) = decode_rune(self.s);
            let Some(r) = r else {
                return Err(format!(
                    "mail: invalid utf-8 in domain-literal: {}",
                    quote_bytes(self.s)
                ));
            };
            if !is_dtext(r) {
                return Err(format!("mail: bad character in domain-literal: {}", quote_rune(r)));
            }
            len += size;
            self.s = self.s.get(size..).unwrap_or_default();
        }
        let dtext = lossy(start.get(..len).unwrap_or_default());
        if !self.consume(b']') {
            return Err("mail: unclosed domain-literal".to_owned());
        }
        if let Some(addr) = dtext.strip_prefix("IPv6:") {
            // `net.ParseIP` gives 16 bytes for any address it takes, IPv4 ones included.
            if parse_ip(addr).is_none() {
                return Err(format!(
                    "mail: invalid IPv6 address in domain-literal: {}",
                    quote(&dtext)
                ));
            }
        } else if !parse_ip(&dtext).is_some_and(|ip| is_v4(&ip)) {
            return Err(format!("mail: invalid IP address in domain-literal: {}", quote(&dtext)));
        }
        Ok(format!("[{dtext}]"))
    }

    /// Go's `consumeDisplayNameComment`: the comment after an addr-spec, whose encoded words
    /// must decode.
    fn consume_display_name_comment(&mut self) -> Result<(), String> {
        if !self.consume(b'(') {
            return Err("mail: comment does not start with (".to_owned());
        }
        let (comment, closed) = self.consume_comment();
        if !closed {
            return Err(MISFORMATTED_COMMENT.to_owned());
        }
        for word in comment.split(|&b| b == b' ' || b == b'\t').filter(|w| !w.is_empty()) {
            decode_rfc2047_word(word)?;
        }
        Ok(())
    }
}

/// Go's `decodeRFC2047Word` with the default decoder: `Some(decoded bytes)` for an encoded
/// word, `None` for a word to keep as written (not an encoded word, or a malformed one),
/// an error for an encoded word in a charset the decoder does not know.
fn decode_rfc2047_word(word: &[u8]) -> Result<Option<Vec<u8>>, String> {
    if word.len() < 8
        || !word.starts_with(b"=?")
        || !word.ends_with(b"?=")
        || word.iter().filter(|&&b| b == b'?').count() != 4
    {
        return Ok(None);
    }
    let inner = &word[2..word.len() - 2];
    let mut fields = inner.splitn(3, |&b| b == b'?');
    let (Some(charset), Some(encoding), Some(text)) = (fields.next(), fields.next(), fields.next()) else {
        return Ok(None);
    };
    if charset.is_empty() {
        return Ok(None);
    }
    let content = match encoding {
        [b'B' | b'b'] => base64_decode(text),
        [b'Q' | b'q'] => q_decode(text),
        _ => None,
    };
    let Some(content) = content else {
        return Ok(None);
    };
    if charset_is(charset, "utf-8") {
        Ok(Some(content))
    } else if charset_is(charset, "iso-8859-1") {
        Ok(Some(
            content.iter().map(|&b| char::from(b)).collect::<String>().into_bytes(),
        ))
    } else if charset_is(charset, "us-ascii") {
        let text: String = content
            .iter()
            .map(|&b| if b < 0x80 { char::from(b) } else { '\u{fffd}' })
            .collect();
        Ok(Some(text.into_bytes()))
    } else {
        Err(format!("charset not supported: {}", quote(&go_to_lower(charset))))
    }
}

/// Go's `strings.EqualFold` against a known charset name: ASCII letters in either case, and
/// `ſ` (U+017F) for `s`, which Unicode folds together.
fn charset_is(charset: &[u8], name: &str) -> bool {
    let Ok(charset) = std::str::from_utf8(charset) else {
        return false;
    };
    let mut got = charset.chars();
    let mut want = name.chars();
    loop {
        match (got.next(), want.next()) {
            (None, None) => return true,
            (Some(g), Some(w)) if g.eq_ignore_ascii_case(&w) || (w == 's' && g == '\u{17f}') => {}
            _ => return false,
        }
    }
}

/// Go's `strings.ToLower`, for the charset named in an error: bytes that are not UTF-8
/// become U+FFFD each, and characters map to their simple lower case.
fn go_to_lower(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len());
    for chunk in b.utf8_chunks() {
        for c in chunk.valid().chars() {
            let mut lower = c.to_lowercase();
            match (lower.next(), lower.next()) {
                (Some(l), None) => out.push(l),
                // Only U+0130 lowers to more than one character; its simple mapping is `i`.
                _ if c == '\u{130}' => out.push('i'),
                _ => out.push(c),
            }
        }
        out.extend(std::iter::repeat_n('\u{fffd}', chunk.invalid().len()));
    }
    out
}

/// The value of a base64 character of the standard alphabet.
fn base64_value(c: u8) -> Option<u32> {
    match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Go's `base64.StdEncoding.DecodeString`: padding required, CR and LF skipped anywhere,
/// nothing after the padding; the unused bits of the last character are not checked.
fn base64_decode(text: &[u8]) -> Option<Vec<u8>> {
    let chars: Vec<u8> = text.iter().copied().filter(|&b| b != b'\r' && b != b'\n').collect();
    let quanta = chars.len().div_ceil(4);
    let mut out = Vec::with_capacity(quanta * 3);
    for (index, quantum) in chars.chunks(4).enumerate() {
        let n = quantum.iter().take_while(|&&c| base64_value(c).is_some()).count();
        match (n, &quantum[n..]) {
            (4, _) => {}
            // Padding ends the text: two characters then `==`, or three then `=`.
            (2, b"==") | (3, b"=") if index + 1 == quanta => {}
            _ => return None,
        }
        let mut acc = 0u32;
        for &c in &quantum[..n] {
            acc = acc << 6 | base64_value(c)?;
        }
        acc <<= 6 * (4 - n);
        let bytes = [(acc >> 16) as u8, (acc >> 8) as u8, acc as u8];
        out.extend_from_slice(&bytes[..n - 1]);
    }
    Some(out)
}

/// Go's `qDecode`: `_` is a space, `=XX` a byte (hex digits of either case), other printable
/// ASCII, tab, CR and LF stand for themselves.
fn q_decode(text: &[u8]) -> Option<Vec<u8>> {
    let hex = |c: u8| char::from(c).to_digit(16).map(|d| d as u8);
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'_' => out.push(b' '),
            b'=' => {
                let hi = text.get(i + 1).copied().and_then(hex)?;
                let lo = text.get(i + 2).copied().and_then(hex)?;
                out.push(hi << 4 | lo);
                i += 2;
            }
            c @ (b' '..=b'~' | b'\n' | b'\r' | b'\t') => out.push(c),
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

/// Go's `utf8.DecodeRune`: the first character and its length; `None` with length 1 for a
/// byte that does not start a valid sequence, `None` with length 0 at the end.
fn decode_rune(b: &[u8]) -> (Option<char>, usize) {
    if b.is_empty() {
        return (None, 0);
    }
    // A character is at most 4 bytes: looking further would make each step cost the rest.
    let head = &b[..b.len().min(4)];
    match head.utf8_chunks().next().and_then(|chunk| chunk.valid().chars().next()) {
        Some(c) => (Some(c), c.len_utf8()),
        None => (None, 1),
    }
}

/// Text from bytes of the input (whole characters, so UTF-8).
fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// `%q` of the unread input (whole characters, so UTF-8).
fn quote_bytes(b: &[u8]) -> String {
    quote(&String::from_utf8_lossy(b))
}

/// `%q` of a rune: Go's `strconv.QuoteRune`.
fn quote_rune(r: char) -> String {
    let body = match r {
        '\'' => "\\'".to_owned(),
        '\\' => "\\\\".to_owned(),
        r if is_print(r) => r.to_string(),
        '\u{7}' => "\\a".to_owned(),
        '\u{8}' => "\\b".to_owned(),
        '\u{c}' => "\\f".to_owned(),
        '\n' => "\\n".to_owned(),
        '\r' => "\\r".to_owned(),
        '\t' => "\\t".to_owned(),
        '\u{b}' => "\\v".to_owned(),
        r if (r as u32) < 0x20 || r as u32 == 0x7f => format!("\\x{:02x}", r as u32),
        r if (r as u32) < 0x10000 => format!("\\u{:04x}", r as u32),
        r => format!("\\U{:08x}", r as u32),
    };
    format!("'{body}'")
}

/// RFC 5322 atext (with `.` when `dot`); non-ASCII characters count (RFC 6532).
fn is_atext(r: char, dot: bool) -> bool {
    match r {
        '.' => dot,
        '(' | ')' | '<' | '>' | '[' | ']' | ':' | ';' | '@' | '\\' | ',' | '"' => false,
        _ => is_vchar(r),
    }
}

/// RFC 5322 qtext: visible characters but `\` and `"`.
fn is_qtext(r: char) -> bool {
    r != '\\' && r != '"' && is_vchar(r)
}

/// RFC 5322 VCHAR, and any non-ASCII character.
fn is_vchar(r: char) -> bool {
    ('!'..='~').contains(&r) || !r.is_ascii()
}

/// Space or tab.
fn is_wsp(r: char) -> bool {
    r == ' ' || r == '\t'
}

/// RFC 5322 dtext: visible characters but `[`, `]` and `\`.
fn is_dtext(r: char) -> bool {
    !matches!(r, '[' | ']' | '\\') && is_vchar(r)
}

/// An IPv4-mapped address (what `IP.To4` accepts).
fn is_v4(ip: &[u8; 16]) -> bool {
    ip[..10].iter().all(|&b| b == 0) && ip[10] == 0xff && ip[11] == 0xff
}

/// Go's `net.ParseIP`: `netip.ParseAddr` without a zone, as 16 bytes (IPv4 mapped).
fn parse_ip(s: &str) -> Option<[u8; 16]> {
    let b = s.as_bytes();
    match b.iter().find(|&&c| matches!(c, b'.' | b':' | b'%'))? {
        b'.' => {
            let v4 = parse_v4(b)?;
            let mut ip = [0u8; 16];
            ip[10] = 0xff;
            ip[11] = 0xff;
            ip[12..].copy_from_slice(&v4);
            Some(ip)
        }
        // A zone (`%...`) is refused with or without an address before it.
        _ if b.contains(&b'%') => None,
        _ => parse_v6(b),
    }
}

/// Go's `parseIPv4Fields`: four decimal fields without leading zeros, each at most 255.
fn parse_v4(b: &[u8]) -> Option<[u8; 4]> {
    let mut fields = [0u8; 4];
    let (mut val, mut pos, mut digits) = (0u32, 0usize, 0);
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                if digits == 1 && val == 0 {
                    return None;
                }
                val = val * 10 + u32::from(c - b'0');
                digits += 1;
                if val > 255 {
                    return None;
                }
            }
            b'.' => {
                if i == 0 || i + 1 == b.len() || b.get(i - 1) == Some(&b'.') || pos == 3 {
                    return None;
                }
                *fields.get_mut(pos)? = val as u8;
                pos += 1;
                val = 0;
                digits = 0;
            }
            _ => return None,
        }
    }
    if pos < 3 {
        return None;
    }
    fields[3] = val as u8;
    Some(fields)
}

/// Go's `parseIPv6` (no zone): hex fields of at most 4 digits, one `::`, an IPv4 tail in
/// the last 4 bytes.
fn parse_v6(b: &[u8]) -> Option<[u8; 16]> {
    let mut ip = [0u8; 16];
    let mut s = b;
    let mut ellipsis: Option<usize> = None;
    if let Some(rest) = s.strip_prefix(b"::") {
        ellipsis = Some(0);
        s = rest;
        if s.is_empty() {
            return Some(ip);
        }
    }
    let mut i = 0;
    while i < 16 {
        let mut off = 0;
        let mut acc = 0u32;
        while let Some(d) = s.get(off).and_then(|&c| char::from(c).to_digit(16)) {
            acc = (acc << 4) + d;
            if off > 3 || acc > 0xffff {
                return None;
            }
            off += 1;
        }
        if off == 0 {
            return None;
        }
        if s.get(off) == Some(&b'.') {
            if (ellipsis.is_none() && i != 12) || i + 4 > 16 {
                return None;
            }
            ip[i..i + 4].copy_from_slice(&parse_v4(s)?);
            i += 4;
            s = &[];
            break;
        }
        ip[i] = (acc >> 8) as u8;
        ip[i + 1] = acc as u8;
        i += 2;
        s = &s[off..];
        let Some(rest) = s.strip_prefix(b":") else {
            if s.is_empty() {
                break;
            }
            return None;
        };
        if rest.is_empty() {
            return None;
        }
        s = rest;
        if let Some(rest) = s.strip_prefix(b":") {
            if ellipsis.is_some() {
                return None;
            }
            ellipsis = Some(i);
            s = rest;
            if s.is_empty() {
                break;
            }
        }
    }
    if !s.is_empty() {
        return None;
    }
    if i < 16 {
        let e = ellipsis?;
        let n = 16 - i;
        ip.copy_within(e..i, e + n);
        ip[e..e + n].fill(0);
    } else if ellipsis.is_some() {
        return None;
    }
    Some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The single addresses of Go's `TestAddressParsing`, with the address `ParseAddress`
    /// returns.
    #[test]
    fn go_address_parsing() {
        let cases = [
            ("jdoe@machine.example", "jdoe@machine.example"),
            ("John Doe <jdoe@machine.example>", "jdoe@machine.example"),
            (
                r#""Joe Q. Public" <john.q.public@example.com>"#,
                "john.q.public@example.com",
            ),
            ("John (middle) Doe <jdoe@machine.example>", "jdoe@machine.example"),
            (r#""John (middle) Doe" <jdoe@machine.example>"#, "jdoe@machine.example"),
            (r#""John <middle> Doe" <jdoe@machine.example>"#, "jdoe@machine.example"),
            ("Joe Q. Public <john.q.public@example.com>", "john.q.public@example.com"),
            ("group1: groupaddr1@example.com;", "groupaddr1@example.com"),
            ("=?iso-8859-1?q?J=F6rg_Doe?= <joerg@example.com>", "joerg@example.com"),
            ("=?us-ascii?q?J=6Frg_Doe?= <joerg@example.com>", "joerg@example.com"),
            ("=?utf-8?q?J=C3=B6rg_Doe?= <joerg@example.com>", "joerg@example.com"),
            (
                "=?utf-8?q?J=C3=B6rg?=  =?utf-8?q?Doe?= <joerg@example.com>",
                "joerg@example.com",
            ),
            (
                "=?ISO-8859-1?Q?Andr=E9?= Pirard <PIRARD@vm1.ulg.ac.be>",
                "PIRARD@vm1.ulg.ac.be",
            ),
            ("=?ISO-8859-1?B?SvZyZw==?= <joerg@example.com>", "joerg@example.com"),
            ("=?UTF-8?B?SsO2cmc=?= <joerg@example.com>", "joerg@example.com"),
            ("Asem H. <noreply@example.com>", "noreply@example.com"),
            (r#""Gø Pher" <gopher@example.com>"#, "gopher@example.com"),
            ("µ <micro@example.com>", "micro@example.com"),
            ("Micro <µ@example.com>", "µ@example.com"),
            ("Micro <micro@µ.example.com>", "micro@µ.example.com"),
            (r#""" <emptystring@example.com>"#, "emptystring@example.com"),
            (
                "<cfws@example.com> (CFWS (cfws))  (another comment)",
                "cfws@example.com",
            ),
            ("john@example.com (John Doe)", "john@example.com"),
            ("John Doe <john@example.com> (Joey)", "john@example.com"),
            ("john@example.com(John Doe)", "john@example.com"),
            ("asjo@example.com (Adam =?utf-8?Q?Sj=C3=B8gren?=)", "asjo@example.com"),
            ("asjo@example.com (Adam\t=?utf-8?Q?Sj=C3=B8gren?=)", "asjo@example.com"),
            (
                "asjo@example.com (Adam =?utf-8?Q?Sj=C3=B8gren?= (Debian))",
                "asjo@example.com",
            ),
            (r#"x(:"):"@a.example;("@b.example;"#, "@a.example;(@b.example"),
            ("jdoe@[192.168.0.1]", "jdoe@[192.168.0.1]"),
            ("John Doe <jdoe@[192.168.0.1]>", "jdoe@[192.168.0.1]"),
        ];
        for (input, want) in cases {
            assert_eq!(parse_address(input), Ok(want.to_owned()), "{input:?}");
            assert!(is_email(input), "{input:?}");
        }
    }

    /// Go's `TestAddressParsing` lists that are not one address.
    #[test]
    fn go_address_lists_are_not_one_address() {
        let cases = [
            (
                "Mary Smith <mary@x.test>, jdoe@example.org, Who? <one@y.test>",
                r#"mail: expected single address, got ", jdoe@example.org, Who? <one@y.test>""#,
            ),
            (
                r#"<boss@nil.test>, "Giant; \"Big\" Box" <sysservices@example.net>"#,
                r#"mail: expected single address, got ", \"Giant; \\\"Big\\\" Box\" <sysservices@example.net>""#,
            ),
            ("empty group: ;", "mail: empty group"),
            (
                "A Group:Ed Jones <c@a.test>,joe@where.test,John <jdoe@one.test>;",
                "mail: group with multiple addresses",
            ),
            (
                " , joe@where.test,,John <jdoe@one.test>,",
                "mail: missing word in phrase: mail: invalid string",
            ),
            (
                "Group1: <addr1@example.com>;, Group 2: addr2@example.com;, John <addr3@example.com>",
                r#"mail: expected single address, got ", Group 2: addr2@example.com;, John <addr3@example.com>""#,
            ),
            (
                "group (comment:): a@example.com, b@example.com;",
                "mail: group with multiple addresses",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_address(input), Err(want.to_owned()), "{input:?}");
            assert!(!is_email(input), "{input:?}");
        }
    }

    /// Go's `TestAddressParsingError` (the cases a Rust string can hold: three of Go's hold
    /// bytes that are not UTF-8), with Go's whole error texts.
    #[test]
    fn go_address_parsing_errors() {
        let cases = [
            (
                "=?iso-8859-2?Q?Bogl=E1rka_Tak=E1cs?= <unknown@gmail.com>",
                r#"mail: missing word in phrase: charset not supported: "iso-8859-2""#,
            ),
            (
                "a@gmail.com b@gmail.com",
                r#"mail: expected single address, got "b@gmail.com""#,
            ),
            (
                "\"\u{0}\" <null@example.net>",
                r"mail: missing word in phrase: mail: bad character in quoted-string: '\x00'",
            ),
            (
                "\"\\\u{0}\" <escaped-null@example.net>",
                r"mail: missing word in phrase: mail: bad character in quoted-string: '\x00'",
            ),
            ("John Doe", "mail: no angle-addr"),
            ("<jdoe#machine.example>", "mail: missing @ in addr-spec"),
            (
                "John <middle> Doe <jdoe@machine.example>",
                "mail: missing @ in addr-spec",
            ),
            ("cfws@example.com (", "mail: misformatted parenthetical comment"),
            ("empty group: ;", "mail: empty group"),
            ("root group: embed group: null@example.com;", "mail: no angle-addr"),
            ("group not closed: null@example.com", "mail: expected comma"),
            (
                "group: first@example.com, second@example.com;",
                "mail: group with multiple addresses",
            ),
            ("john.doe", "mail: missing '@' or angle-addr"),
            ("john.doe@", "mail: missing '@' or angle-addr"),
            ("John Doe@foo.bar", "mail: no angle-addr"),
            (
                " group: null@example.com; (asd",
                "mail: misformatted parenthetical comment",
            ),
            (" group: ; (asd", "mail: misformatted parenthetical comment"),
            (
                "(John) Doe <jdoe@machine.example>",
                "mail: missing word in phrase: mail: invalid string",
            ),
            ("<jdoe@[[192.168.0.1]>", "mail: bad character in domain-literal: '['"),
            ("<jdoe@[192.168.0.1>", "mail: unclosed domain-literal"),
            (
                "<jdoe@[256.0.0.1]>",
                r#"mail: invalid IP address in domain-literal: "256.0.0.1""#,
            ),
        ];
        for (input, want) in cases {
            assert_eq!(parse_address(input), Err(want.to_owned()), "{input:?}");
            assert!(!is_email(input), "{input:?}");
        }
    }

    /// Go's `TestAddressParsingAndFormatting` (parsing only) and `TestEmptyAddress`.
    #[test]
    fn go_parsing_and_formatting() {
        let good = [
            "<Bob@example.com>",
            "<bob.bob@example.com>",
            r#"<".bob"@example.com>"#,
            r#"<" "@example.com>"#,
            "<some.mail-with-dash@example.com>",
            r#"<"dot.and space"@example.com>"#,
            r#"<"very.unusual.@.unusual.com"@example.com>"#,
            "<admin@mailserver1>",
            "<postmaster@localhost>",
            "<#!$%&'*+-/=?^_`{}|~@example.org>",
            r#"<"very.(),:;<>[]\".VERY.\"very@\\ \"very\".unusual"@strange.example.com>"#,
            r#"<"()<>[]:,;@\\\"!#$%&'*+-/=?^_{}| ~.a"@example.org>"#,
            r#"<"Abc\\@def"@example.com>"#,
            r#"<"Joe\\Blow"@example.com>"#,
            "<test1/test2=test3@example.com>",
            "<def!xyz%abc@example.com>",
            "<_somename@example.com>",
            "<joe@uk>",
            "<~@example.com>",
            r#"<"..."@test.com>"#,
            r#"<"john..doe"@example.com>"#,
            r#"<"john.doe."@example.com>"#,
            r#"<".john.doe"@example.com>"#,
            r#"<"."@example.com>"#,
            r#"<".."@example.com>"#,
            r#"<"0:"@0>"#,
            "<Bob@[192.168.0.1]>",
        ];
        for input in good {
            assert!(parse_address(input).is_ok(), "{input:?}: {:?}", parse_address(input));
        }
        assert_eq!(
            parse_address(r#"<"very.(),:;<>[]\".VERY.\"very@\\ \"very\".unusual"@strange.example.com>"#).as_deref(),
            Ok(r#"very.(),:;<>[]".VERY."very@\ "very".unusual@strange.example.com"#)
        );
        let bad = [
            "<Abc.example.com>",
            "<A@b@c@example.com>",
            r#"<a"b(c)d,e:f;g<h>i[j\k]l@example.com>"#,
            r#"<just"not"right@example.com>"#,
            r#"<this is"not\allowed@example.com>"#,
            r#"<this\ still\"not\\allowed@example.com>"#,
            "<john..doe@example.com>",
            "<john.doe@example..com>",
            "<john.doe.@example.com>",
            "<john.doe.@.example.com>",
            "<.john.doe@example.com>",
            "<@example.com>",
            "<.@example.com>",
            "<test@.>",
            "< @example.com>",
            r#"<""test""blah""@example.com>"#,
            r#"<""@0>"#,
            "",
        ];
        for input in bad {
            assert!(parse_address(input).is_err(), "{input:?}: {:?}", parse_address(input));
            assert!(!is_email(input), "{input:?}");
        }
    }

    /// Go's `TestAddressFormattingAndParsing`: the texts `Address.String` makes.
    #[test]
    fn go_formatted_addresses_parse() {
        let cases = [
            ("=?utf-8?b?QGzDr2Nl?= <alice@example.com>", "alice@example.com"),
            ("=?utf-8?b?QsO2YiBPJ0Nvbm5vcg==?= <bob@example.com>", "bob@example.com"),
            (r#""???" <bob@example.com>"#, "bob@example.com"),
            ("=?utf-8?q?B=C3=B6b_=3F=3F=3F?= <bob@example.com>", "bob@example.com"),
            ("=?utf-8?b?QsO2YiAoSmFjw7ZiKQ==?= <bob@example.com>", "bob@example.com"),
            (
                "=?utf-8?b?w6AjJCUmJygpLC46Ozw+QFtdXmB7fH1+Jw==?= <bob@example.com>",
                "bob@example.com",
            ),
            ("=?utf-8?b?IlwfLCI=?= <0@0>", "0@0"),
            (
                "=?utf-8?b?bmHDqSwgbcOpZQ==?= <test.mail@gmail.com>",
                "test.mail@gmail.com",
            ),
            (r#""=??Q?x?=" <hello@world.com>"#, "hello@world.com"),
            (
                "=?utf-8?q?=ED=A0=80?= <invalid-utf8@example.net>",
                "invalid-utf8@example.net",
            ),
            (r#""Bob" <bob@[192.168.0.1]>"#, "bob@[192.168.0.1]"),
        ];
        for (input, want) in cases {
            assert_eq!(parse_address(input), Ok(want.to_owned()), "{input:?}");
        }
    }

    #[test]
    fn the_briefs_cases() {
        for (input, want) in [
            (r#""Joe" <joe@example.com>"#, "joe@example.com"),
            ("joe@[127.0.0.1]", "joe@[127.0.0.1]"),
            ("a@b", "a@b"),
            // Go counts every non-ASCII character as visible, controls included.
            ("\u{85} <a@b>", "a@b"),
        ] {
            assert_eq!(parse_address(input), Ok(want.to_owned()), "{input:?}");
            assert!(is_email(input));
        }
        for (input, want) in [
            ("a", "mail: missing '@' or angle-addr"),
            ("a@", "mail: missing '@' or angle-addr"),
            ("@b", "mail: missing word in phrase: mail: invalid string"),
            ("a@b c", r#"mail: expected single address, got "c""#),
            ("<a@b", "mail: unclosed angle-addr"),
            ("a@b>", r#"mail: expected single address, got ">""#),
            ("a@b,c@d", r#"mail: expected single address, got ",c@d""#),
        ] {
            assert_eq!(parse_address(input), Err(want.to_owned()), "{input:?}");
            assert!(!is_email(input));
        }
    }

    #[test]
    fn more_error_texts() {
        let cases = [
            ("   ", "mail: no address"),
            (r#""a" b"#, "mail: no angle-addr"),
            (r#"<"">"#, "mail: empty quoted string in addr-spec"),
            ("<\"\u{0}\"@x>", "mail: empty quoted string in addr-spec"),
            (r#""abc"#, "mail: missing word in phrase: mail: unclosed quoted-string"),
            (
                "\"a\\\u{7}\" <a@b>",
                r"mail: missing word in phrase: mail: bad character in quoted-string: '\a'",
            ),
            (
                "\"a\u{85}\u{0}\" <a@b>",
                r"mail: missing word in phrase: mail: bad character in quoted-string: '\x00'",
            ),
            ("<a@b (x>", "mail: unclosed angle-addr"),
            ("a@b (=?koi8-r?q?x?=)", r#"charset not supported: "koi8-r""#),
            ("a@b (=?KOI8-R?q?x?=)", r#"charset not supported: "koi8-r""#),
            ("a@b (=?İ?q?x?=)", r#"charset not supported: "i""#),
            ("<a.@b>", "mail: trailing dot in atom"),
            ("<.a@b>", "mail: leading dot in atom"),
            ("<a..b@c>", "mail: double dot in atom"),
            ("<a@b..c>", "mail: double dot in atom"),
            ("<a@ >", "mail: invalid string"),
            ("<a@>", "mail: invalid string"),
            ("<a@", "mail: no domain in addr-spec"),
            ("<a@[", "mail: unclosed domain-literal"),
            ("<a@[1.2.3.4", "mail: unclosed domain-literal"),
            ("<a@[ 1.2.3.4]>", "mail: bad character in domain-literal: ' '"),
            ("<a@[::1]>", r#"mail: invalid IP address in domain-literal: "::1""#),
            (
                "<a@[IPv6:1::2::3]>",
                r#"mail: invalid IPv6 address in domain-literal: "IPv6:1::2::3""#,
            ),
            (
                "<a@[IPv6:fe80::1%en0]>",
                r#"mail: invalid IPv6 address in domain-literal: "IPv6:fe80::1%en0""#,
            ),
            (
                "<a@[1.2.3.04]>",
                r#"mail: invalid IP address in domain-literal: "1.2.3.04""#,
            ),
            ("<a@[é]>", r#"mail: invalid IP address in domain-literal: "é""#),
            ("a@b (c", "mail: misformatted parenthetical comment"),
            ("a@b ((c)", "mail: misformatted parenthetical comment"),
            ("g: a@b", "mail: expected comma"),
            ("g: a@b, (", "mail: missing word in phrase: mail: invalid string"),
            ("g: a@b,", "mail: no address"),
            ("g: a@b; (", "mail: misformatted parenthetical comment"),
            ("g: ; x", r#"mail: expected single address, got "x""#),
        ];
        for (input, want) in cases {
            assert_eq!(parse_address(input), Err(want.to_owned()), "{input:?}");
        }
    }

    #[test]
    fn domain_literals_take_what_net_parse_ip_takes() {
        for ok in [
            "a@[0.0.0.0]",
            "a@[255.255.255.255]",
            "a@[::ffff:1.2.3.4]",
            "a@[::ffff:102:304]",
            "a@[IPv6:::1]",
            "a@[IPv6:1.2.3.4]",
            "a@[IPv6:1:2:3:4:5:6:7:8]",
            "a@[IPv6:1:2:3:4:5:6:1.2.3.4]",
            "a@[IPv6:::]",
            "a@[IPv6:FFFF::]",
        ] {
            assert!(parse_address(ok).is_ok(), "{ok:?}: {:?}", parse_address(ok));
        }
        for bad in [
            "a@[]",
            "a@[1.2.3]",
            "a@[1.2.3.4.5]",
            "a@[1..2.3]",
            "a@[.1.2.3]",
            "a@[1.2.3.]",
            "a@[00.1.2.3]",
            "a@[IPv6:]",
            "a@[IPv6:1:2:3:4:5:6:7:8:9]",
            "a@[IPv6:1::2::3]",
            "a@[IPv6:12345::]",
            "a@[IPv6:1:2:3:4:5:6:7::8]",
            "a@[IPv6:1:2:3:4:5:1.2.3.4]",
            "a@[IPv6::1]",
            "a@[IPv6:1:]",
            "a@[IPv6:%x]",
            "a@[ipv6:::1]",
            "a@[1.2.3.4%x]",
        ] {
            assert!(parse_address(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn encoded_words() {
        // A malformed encoded word is plain text; an unknown charset fails the phrase.
        for ok in [
            "=?utf-8?x?abc?= <a@b>",
            "=?utf-8?q?=zz?= <a@b>",
            "=?utf-8?b?abc?= <a@b>",
            "=??q?abc?= <a@b>",
            "=?x?qq?abc?= <a@b>",
            "=?koi8-r?b?abc?= <a@b>",
            "=?koi8-r?q?a=?= <a@b>",
            "=?uſ-ascii?q?abc?= <a@b>",
            "=?UTF-8?Q?a_b?= <a@b>",
            "=?utf-8?b?YWJj?= <a@b>",
            "=?utf-8?b?YQ==?= <a@b>",
            "=?utf-8?b?YWI=?= <a@b>",
            "=?utf-8?b??= <a@b>",
            "x =?koi8-r?q?a?= <a@b>",
            "a@b (=?utf-8?b?YQ=?=)",
            "a@b (=?koi8-r?b?YQ=?=)",
            "a@b (=?koi8-r?q?\\\u{e9}?=)",
            // Comments nest: the word next to a parenthesis is no encoded word.
            "a@b (x (=?koi8-r?q?x?=))",
        ] {
            assert!(parse_address(ok).is_ok(), "{ok:?}: {:?}", parse_address(ok));
        }
        for bad in [
            "=?koi8-r?q?abc?= <a@b>",
            "=?koi8-r?b?YWJj?= <a@b>",
            "=?utf8?q?abc?= <a@b>",
            "=?koi8-r?q??= <a@b>",
            "a@b (=?koi8-r?q?x?=)",
            "a@b (x =?koi8-r?q?x?= (y))",
            "a@b (=?\\\u{e9}?q?x?=)",
        ] {
            assert!(parse_address(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            parse_address("a@b (=?\\\u{e9}?q?x?=)"),
            Err("charset not supported: \"é\"".to_owned())
        );
        // Two encoded words make one word of the name, which could be a local part.
        assert_eq!(
            parse_address("=?utf-8?q?a?= =?utf-8?q?b?="),
            Err("mail: missing '@' or angle-addr".to_owned())
        );
        assert_eq!(parse_address("=?utf-8?q?a_b?="), Err("mail: no angle-addr".to_owned()));
        assert_eq!(
            parse_address("=?us-ascii?q?=80?="),
            Err("mail: missing '@' or angle-addr".to_owned())
        );
    }

    #[test]
    fn base64_as_go_decodes_it() {
        assert_eq!(base64_decode(b"").as_deref(), Some(&b""[..]));
        assert_eq!(base64_decode(b"YWJj").as_deref(), Some(&b"abc"[..]));
        assert_eq!(base64_decode(b"YWI=").as_deref(), Some(&b"ab"[..]));
        assert_eq!(base64_decode(b"YQ==").as_deref(), Some(&b"a"[..]));
        assert_eq!(base64_decode(b"YR==").as_deref(), Some(&b"a"[..]));
        assert_eq!(base64_decode(b"Y\r\nQ=\n=\n").as_deref(), Some(&b"a"[..]));
        assert_eq!(base64_decode(b"YWJjYWJj").as_deref(), Some(&b"abcabc"[..]));
        for bad in [
            &b"Y"[..],
            b"YQ",
            b"YWJ",
            b"YQ=",
            b"Y===",
            b"====",
            b"YQ==YWJj",
            b"YWJ=YWJj",
            b"YW-j",
            b"YQ===",
        ] {
            assert_eq!(base64_decode(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let odd = [
            "",
            "\u{0}",
            "\"",
            "\"\\",
            "\\",
            "(",
            ")",
            "(\\",
            "(\\é",
            "(\\é)",
            "[",
            "]",
            "<",
            ">",
            "@",
            ":",
            ";",
            ",",
            "=?",
            "=?utf-8?q?",
            "=?utf-8?q?=",
            "=?utf-8?q?=?=",
            "=????=",
            "=?a?b?c?=",
            "=?a??c?=",
            "a@[",
            "a@[IPv6:",
            "a@[::",
            "a@[1.",
            "a@b (=?",
            "g:",
            "g: ;",
            "g: a@b,",
            "((((((((",
            "))))))))",
            "<<<<<<<<",
            "\"\"\"\"\"\"\"\"",
        ];
        for s in odd {
            let _ = parse_address(s);
        }
        let deep = "(".repeat(10_000);
        assert!(parse_address(&format!("a@b {deep}")).is_err());
        let deep_closed = format!("a@b {}{}", "(".repeat(10_000), ")".repeat(10_000));
        assert_eq!(parse_address(&deep_closed), Ok("a@b".to_owned()));
        // Every short string of the characters that matter, so each branch meets each end.
        let alphabet = [
            "a", "@", ".", "\"", "\\", "(", ")", "<", ">", "[", "]", ":", ";", ",", " ", "=?", "é",
        ];
        let mut texts = vec![String::new()];
        for _ in 0..3 {
            let mut next = Vec::new();
            for t in &texts {
                for piece in alphabet {
                    next.push(format!("{t}{piece}"));
                }
            }
            texts = next;
            for t in &texts {
                let _ = parse_address(t);
                let _ = parse_address(&format!("a@b {t}"));
                let _ = parse_address(&format!("<{t}"));
            }
        }
    }
}
