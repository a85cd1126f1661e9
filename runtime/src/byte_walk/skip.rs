//! Passing over values without writing them: what a pruned field costs. The reference reads
//! the whole body before pruning, so skipped values are still checked for syntax, depth,
//! numbers' range and, while fieldValidation tracks them, repeated keys.

use super::walk::{Bail, Entry, MAX_DEPTH, R, Walker};
use crate::text;

impl Walker<'_, '_> {
    /// Passes over a value without writing it, checking what the reference checks: syntax,
    /// depth, numbers' range and, when `dups`, repeated keys (given up on: their paths are the
    /// `Value` path's to build).
    pub(super) fn skip(&mut self, dups: bool) -> R<()> {
        if !dups {
            return self.skip_fast();
        }
        match self.peek() {
            Some(b'{') => {
                self.enter()?;
                self.pos += 1;
                self.ws();
                if self.peek() == Some(b'}') {
                    self.pos += 1;
                } else {
                    let base = self.entries.len();
                    loop {
                        let key = self.key()?;
                        self.entries.push(Entry::new(key, 0, 0));
                        self.skip(true)?;
                        if !self.next_member(b'}')? {
                            break;
                        }
                    }
                    if self.repeated_since(base) {
                        return Err(Bail);
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            Some(b'[') => {
                self.enter()?;
                self.pos += 1;
                self.ws();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                } else {
                    loop {
                        self.skip(true)?;
                        if !self.next_member(b']')? {
                            break;
                        }
                    }
                }
                self.depth -= 1;
                Ok(())
            }
            Some(b'"') => self.skip_string(),
            Some(b't') => self.literal(b"true"),
            Some(b'f') => self.literal(b"false"),
            Some(b'n') => self.literal(b"null"),
            Some(b'-' | b'0'..=b'9') => self.number(false),
            _ => Err(Bail),
        }
    }

    /// [`skip`](Self::skip) without looking for repeated keys: one loop over the value's
    /// tokens, the open containers kept as bits.
    fn skip_fast(&mut self) -> R<()> {
        // Bit `d` of `objects` says whether the container at depth `d` is an object.
        let mut objects: u128 = 0;
        let mut open = 0usize;
        let limit = MAX_DEPTH.saturating_sub(self.depth).min(128);
        loop {
            // A value.
            match self.peek() {
                Some(c @ (b'{' | b'[')) => {
                    if open >= limit {
                        return Err(Bail);
                    }
                    self.pos += 1;
                    self.ws();
                    let close = if c == b'{' { b'}' } else { b']' };
                    if self.peek() == Some(close) {
                        self.pos += 1;
                    } else {
                        if c == b'{' {
                            objects |= 1 << open;
                            self.skip_key()?;
                        } else {
                            objects &= !(1 << open);
                        }
                        open += 1;
                        continue;
                    }
                }
                Some(b'"') => self.skip_string()?,
                Some(b't') => self.literal(b"true")?,
                Some(b'f') => self.literal(b"false")?,
                Some(b'n') => self.literal(b"null")?,
                Some(b'-' | b'0'..=b'9') => self.number(false)?,
                _ => return Err(Bail),
            }
            // After a value: close what it completes, or go on to the next member.
            loop {
                if open == 0 {
                    return Ok(());
                }
                let object = objects & (1 << (open - 1)) != 0;
                self.ws();
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.ws();
                        if object {
                            self.skip_key()?;
                        }
                        break;
                    }
                    Some(b'}') if object => {
                        self.pos += 1;
                        open -= 1;
                    }
                    Some(b']') if !object => {
                        self.pos += 1;
                        open -= 1;
                    }
                    _ => return Err(Bail),
                }
            }
        }
    }

    /// Passes over `"key"`, the `:` and the white space around it.
    #[inline(always)]
    fn skip_key(&mut self) -> R<()> {
        self.skip_string()?;
        self.ws();
        if self.peek() != Some(b':') {
            return Err(Bail);
        }
        self.pos += 1;
        self.ws();
        Ok(())
    }

    /// Passes over a string literal, checking its escapes.
    #[inline(always)]
    fn skip_string(&mut self) -> R<()> {
        if self.peek() != Some(b'"') {
            return Err(Bail);
        }
        let b = self.input;
        let mut i = self.pos + 1;
        loop {
            i = text::stop(b, i);
            let &c = b.get(i).ok_or(Bail)?;
            match c {
                b'"' => break,
                b'\\' => match b.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => i += 2,
                    Some(b'u') => {
                        let hex = b.get(i + 2..i + 6).ok_or(Bail)?;
                        if !hex.iter().all(u8::is_ascii_hexdigit) {
                            return Err(Bail);
                        }
                        i += 6;
                    }
                    _ => return Err(Bail),
                },
                _ => return Err(Bail),
            }
        }
        self.pos = i + 1;
        Ok(())
    }
}
