//! A JSON stream split into documents as it is read, holding one document at a time: how
//! `kstruct decode` and compiled runners read JSON lines and concatenated JSON without
//! reading their input whole.
//!
//! The split finds where each object or array ends by its brackets and strings alone. It
//! gives the documents [`split_documents`](super::split_documents) gives whenever they are
//! valid JSON; where one is not, decoding it says so, and [`JsonStream::resplit`] hands the
//! rest of the stream to `split_documents`' own splitter, so that what follows a syntax error
//! is exactly what it would have been.

use std::io::{self, Read};

use super::{split_json_stream, split_json_values};

/// How much is read at a time.
const CHUNK: usize = 64 * 1024;

/// One document of a [`JsonStream`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StreamDocument<'a> {
    /// 0-based position of the document in its stream.
    pub index: usize,
    /// 1-based line where the document starts.
    pub line: usize,
    /// The document's bytes: one JSON value (the whole stream, white space and all, when it
    /// holds just one).
    pub body: &'a [u8],
}

/// A JSON stream read document by document: each object or array ends where its brackets
/// close outside strings, and [`resplit`](Self::resplit) hands what follows a document that
/// is not valid JSON to [`split_documents`](super::split_documents)' own splitter.
///
/// ```
/// use kstruct::input::JsonStream;
///
/// let mut stream = JsonStream::new(&b"{\"a\": \"}\"}\n{\"b\": [1]}\n"[..]);
/// let first = stream.next_document().unwrap().unwrap();
/// assert_eq!((first.line, first.body), (1, &b"{\"a\": \"}\"}"[..]));
/// let second = stream.next_document().unwrap().unwrap();
/// assert_eq!((second.index, second.line, second.body), (1, 2, &b"{\"b\": [1]}"[..]));
/// assert!(stream.next_document().unwrap().is_none());
/// ```
#[derive(Debug)]
pub struct JsonStream<R> {
    reader: R,
    /// What was read is `buf[..filled]`; the bytes after it were written before and are
    /// written again by the next read (zeroing 64 KiB before each read cost as much as
    /// counting its lines).
    buf: Vec<u8>,
    filled: usize,
    /// Where the unread bytes start.
    pos: usize,
    /// The line of `buf[pos]`.
    line: usize,
    eof: bool,
    index: usize,
    /// The longest document handed out so far: [`buffered`](Self::buffered) tries to hold
    /// one as long (the documents of a stream are alike).
    longest: usize,
    /// The start and line of the document handed out last.
    last: Option<(usize, usize)>,
    /// Documents split by `split_documents`' splitter after a [`resplit`](Self::resplit)
    /// (or a stream that is not made of objects and arrays): ranges of `buf`, with lines.
    queue: Option<std::vec::IntoIter<(usize, usize, usize)>>,
}

impl<R: Read> JsonStream<R> {
    /// A stream of the JSON values `reader` yields.
    pub fn new(reader: R) -> JsonStream<R> {
        JsonStream {
            reader,
            buf: Vec::new(),
            filled: 0,
            pos: 0,
            line: 1,
            eof: false,
            index: 0,
            longest: 0,
            last: None,
            queue: None,
        }
    }

    /// Reads more; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        self.fill_up_to(CHUNK)
    }

    /// Reads more, at most `room` bytes (one read: a pipe gives what it has); false at the end
    /// of the input.
    fn fill_up_to(&mut self, room: usize) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let len = self.filled;
        if self.buf.len() < len + room {
            self.buf.resize(len + room, 0);
        }
        let n = loop {
            match self.reader.read(&mut self.buf[len..len + room]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        self.filled = len + n;
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// The byte at `i`, reading as far as needed; `None` at the end of the input.
    fn byte(&mut self, i: usize) -> io::Result<Option<u8>> {
        while i >= self.filled {
            if !self.fill()? {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[i]))
    }

    /// Moves `pos` to `to`, counting the lines passed.
    fn advance(&mut self, to: usize) {
        self.line += newlines(&self.buf[self.pos..to]);
        self.pos = to;
    }

    /// Past white space; false at the end of the input.
    fn skip_space(&mut self) -> io::Result<bool> {
        let mut i = self.pos;
        loop {
            match self.byte(i)? {
                Some(b' ' | b'\t' | b'\n' | b'\r') => i += 1,
                Some(_) => {
                    self.advance(i);
                    return Ok(true);
                }
                None => {
                    self.advance(i);
                    return Ok(false);
                }
            }
        }
    }

    /// Where the object or array starting at `start` ends (just past its closing bracket);
    /// `None` when the input ends first.
    fn value_end(&mut self, start: usize) -> io::Result<Option<usize>> {
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let mut i = start;
        loop {
            if i >= self.filled && !self.fill()? {
                return Ok(None);
            }
            // Scan what is buffered; `fill` may move the buffer, so indices only.
            let end = self.filled;
            while i < end {
                if in_string {
                    if escaped {
                        escaped = false;
                        i += 1;
                        continue;
                    }
                    // Strings are most of a document: their plain runs are passed over a
                    // word at a time.
                    i = crate::text::stop(&self.buf[..end], i);
                    if i == end {
                        break;
                    }
                    match self.buf[i] {
                        b'\\' => escaped = true,
                        b'"' => in_string = false,
                        _ => {}
                    }
                    i += 1;
                    continue;
                }
                let c = self.buf[i];
                i += 1;
                match c {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Ok(Some(i));
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// The next document; `None` at the end of the stream.
    ///
    /// # Errors
    /// Reading the input failed.
    pub fn next_document(&mut self) -> io::Result<Option<StreamDocument<'_>>> {
        if let Some(queue) = self.queue.as_mut() {
            let Some((start, end, line)) = queue.next() else {
                return Ok(None);
            };
            self.last = Some((start, line));
            self.index += 1;
            return Ok(Some(StreamDocument {
                index: self.index - 1,
                line,
                body: &self.buf[start..end],
            }));
        }
        self.release();
        let leading = self.pos;
        if !self.skip_space()? {
            return Ok(None);
        }
        let (start, line) = (self.pos, self.line);
        if !matches!(self.buf[start], b'{' | b'[') {
            // Scalars and garbage: `split_documents`' splitter decides.
            self.resplit_from(start, line)?;
            return self.next_document();
        }
        let end = match self.value_end(start)? {
            Some(end) => end,
            None => {
                // Unbalanced: the rest of the stream is one body, and the last.
                self.resplit_from(start, line)?;
                return self.next_document();
            }
        };
        self.advance(end);
        self.longest = self.longest.max(end - start);
        let (mut body_start, mut body_end, mut body_line) = (start, end, line);
        if self.index == 0 && !self.skip_space()? {
            // The stream's only document: all of it.
            (body_start, body_end, body_line) = (leading, self.filled, 1);
        }
        self.last = Some((start, line));
        self.index += 1;
        Ok(Some(StreamDocument {
            index: self.index - 1,
            line: body_line,
            body: &self.buf[body_start..body_end],
        }))
    }

    /// What was handed out last is no longer needed (the first document keeps the white space
    /// before it: a stream of one document is one body). It is dropped once it is at least as
    /// long as what is left, so that each byte is moved at most once on average (moving the
    /// rest of a 64 KiB read after every 2.5 KB document cost as much as decoding it).
    fn release(&mut self) {
        if self.index > 0 && self.pos > 0 && self.pos >= self.filled - self.pos {
            self.buf.copy_within(self.pos..self.filled, 0);
            self.filled -= self.pos;
            self.pos = 0;
        }
    }

    /// The bytes read so far from the next document on, for a reader that finds where the
    /// document ends as it reads it ([`consume`](Self::consume) then takes it), so that the
    /// stream is not scanned twice: what
    /// [`scan::try_request_bytes_prefix`](crate::scan::try_request_bytes_prefix) reads. `None`
    /// at the end of the stream, and where [`next_document`](Self::next_document) must find
    /// the document: the first one (a stream of one document is the whole stream), after a
    /// [`resplit`](Self::resplit), and at anything but an object.
    ///
    /// ```
    /// use kstruct::input::JsonStream;
    ///
    /// let mut stream = JsonStream::new(&b"{\"a\": 1}\n {\"b\": 2} {\"c\": 3}"[..]);
    /// assert!(stream.buffered().unwrap().is_none()); // the first document
    /// stream.next_document().unwrap();
    /// let rest = stream.buffered().unwrap().unwrap();
    /// assert_eq!(rest, b"{\"b\": 2} {\"c\": 3}");
    /// let doc = stream.consume(8);
    /// assert_eq!((doc.index, doc.line, doc.body), (1, 2, &b"{\"b\": 2}"[..]));
    /// assert_eq!(stream.next_document().unwrap().unwrap().body, b"{\"c\": 3}");
    /// ```
    ///
    /// # Errors
    /// Reading the input failed.
    pub fn buffered(&mut self) -> io::Result<Option<&[u8]>> {
        if self.queue.is_some() || self.index == 0 {
            return Ok(None);
        }
        self.release();
        if !self.skip_space()? {
            return Ok(None);
        }
        // Most documents are then whole in what is buffered: half a chunk, or a quarter more
        // than the longest document so far (a document cut short is found again by
        // `next_document`, which reads it twice). One read, which blocks only when the input
        // has nothing yet.
        let want = (CHUNK / 2).max(self.longest + self.longest / 4);
        let have = self.filled - self.pos;
        if have < want {
            self.fill_up_to(CHUNK.max(want - have))?;
        }
        Ok((self.buf[self.pos] == b'{').then(|| &self.buf[self.pos..self.filled]))
    }

    /// Takes the next `len` bytes of what [`buffered`](Self::buffered) gave, a whole document,
    /// as the next document.
    ///
    /// # Panics
    /// When `len` is longer than what `buffered` gave.
    pub fn consume(&mut self, len: usize) -> StreamDocument<'_> {
        let (start, line) = (self.pos, self.line);
        self.advance(start + len);
        self.last = Some((start, line));
        self.index += 1;
        self.longest = self.longest.max(len);
        StreamDocument {
            index: self.index - 1,
            line,
            body: &self.buf[start..start + len],
        }
    }

    /// After a document that turned out not to be valid JSON: the rest of the stream, from
    /// that document on, is split again as [`split_documents`](super::split_documents)
    /// splits it (a syntax error makes the rest one body), and the next calls hand out those
    /// documents, the failed one first.
    ///
    /// # Errors
    /// Reading the input failed.
    pub fn resplit(&mut self) -> io::Result<()> {
        let Some((start, line)) = self.last else {
            return Ok(());
        };
        self.index -= 1;
        self.resplit_from(start, line)
    }

    fn resplit_from(&mut self, start: usize, line: usize) -> io::Result<()> {
        while self.fill()? {}
        // From the stream's start (nothing dropped yet) when no document was handed out: a
        // stream of one document is then one body.
        let (base, line_base) = if self.index == 0 { (0, 0) } else { (start, line - 1) };
        let bytes = &self.buf[base..self.filled];
        let docs = if self.index == 0 {
            split_json_stream(bytes)
        } else {
            split_json_values(bytes)
        };
        let ranges: Vec<(usize, usize, usize)> = docs
            .iter()
            .map(|d| {
                let body = d.body.as_ref().map_or(&bytes[..0], |b| *b);
                let s = base + (body.as_ptr() as usize - bytes.as_ptr() as usize);
                // The splitter counts lines from its own start.
                (s, s + body.len(), line_base + d.line)
            })
            .collect();
        self.queue = Some(ranges.into_iter());
        Ok(())
    }
}

/// How many `\n` bytes `b` holds, counted 32 bytes at a time (one byte-wide sum per chunk:
/// about a third of the instructions of a filtered count).
fn newlines(b: &[u8]) -> usize {
    let (n, tail) = crate::text::count_newlines(b);
    n + tail.iter().filter(|&&x| x == b'\n').count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out a few bytes at a time, as pipes do.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(out.len());
            out[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn streamed(text: &[u8], step: usize) -> Vec<(usize, usize, Vec<u8>)> {
        let mut s = JsonStream::new(Trickle(text, step));
        let mut out = Vec::new();
        while let Some(d) = s.next_document().unwrap() {
            out.push((d.index, d.line, d.body.to_vec()));
        }
        out
    }

    fn split(text: &[u8]) -> Vec<(usize, usize, Vec<u8>)> {
        super::super::split_documents(text, "in")
            .into_iter()
            .map(|d| (d.index, d.line, d.body.unwrap().to_vec()))
            .collect()
    }

    #[test]
    fn newlines_are_counted_at_every_length_and_offset() {
        let text: Vec<u8> = (0..200u32)
            .map(|i| if i % 7 == 0 || i % 31 == 3 { b'\n' } else { b'x' })
            .collect();
        for start in 0..40 {
            for end in start..text.len() {
                let b = &text[start..end];
                assert_eq!(newlines(b), b.iter().filter(|&&c| c == b'\n').count());
            }
        }
        assert_eq!(newlines(&[b'\n'; 300]), 300);
        // Past the 255 blocks a byte counter holds, and at their edge.
        for n in [255 * 16 - 1, 255 * 16, 255 * 16 + 1, 255 * 32 + 17, 10_000] {
            assert_eq!(newlines(&vec![b'\n'; n]), n);
            let text: Vec<u8> = (0..n).map(|i| if i % 3 == 0 { b'\n' } else { b'x' }).collect();
            assert_eq!(newlines(&text), n.div_ceil(3));
        }
    }

    /// Documents taken by `buffered` and `consume` where a reader finds their end (here
    /// serde_json, on valid JSON) are the documents `next_document` gives.
    #[test]
    fn documents_consumed_from_the_buffer_are_the_split_ones() {
        let mut text = Vec::new();
        for i in 0..300 {
            text.extend_from_slice(format!("{{\"n\": {i}, \"s\": \"{}\"}}", "x".repeat(i * 7)).as_bytes());
            text.extend_from_slice(if i % 3 == 0 { b"\n" } else { b" \n\n " });
        }
        for step in [1, 7, 4096, 1 << 20] {
            let mut s = JsonStream::new(Trickle(&text, step));
            let (mut got, mut consumed) = (Vec::new(), 0);
            loop {
                let end = s.buffered().unwrap().and_then(|b| {
                    let mut values = serde_json::Deserializer::from_slice(b).into_iter::<serde_json::Value>();
                    values.next()?.ok().map(|_| values.byte_offset())
                });
                let d = match end {
                    Some(end) => {
                        consumed += 1;
                        s.consume(end)
                    }
                    None => match s.next_document().unwrap() {
                        Some(d) => d,
                        None => break,
                    },
                };
                got.push((d.index, d.line, d.body.to_vec()));
            }
            assert_eq!(got, split(&text), "in steps of {step}");
            // Reads of a few bytes rarely buffer a whole document.
            assert!(step < 4096 || consumed > 250, "{consumed} in steps of {step}");
        }
    }

    /// Documents longer than half a chunk are buffered whole once one as long has been seen,
    /// so that a reader finds their end in what is buffered and they are read once.
    #[test]
    fn long_documents_are_buffered_whole_after_the_first() {
        let mut text = Vec::new();
        for i in 0..6 {
            let filler = "x".repeat(150_000 + i * 1000);
            text.extend_from_slice(format!("{{\"n\": {i}, \"s\": \"{filler}\"}}\n").as_bytes());
        }
        let mut s = JsonStream::new(&text[..]);
        assert_eq!(s.next_document().unwrap().unwrap().index, 0);
        for i in 1..6 {
            let b = s.buffered().unwrap().expect("an object");
            let mut values = serde_json::Deserializer::from_slice(b).into_iter::<serde_json::Value>();
            assert!(
                values.next().is_some_and(|v| v.is_ok()),
                "document {i} is whole in the buffer"
            );
            let end = values.byte_offset();
            assert_eq!(s.consume(end).index, i);
        }
        assert!(s.buffered().unwrap().is_none());
    }

    /// Valid streams split as `split_documents` splits them, whatever the reads' sizes.
    #[test]
    fn valid_streams_split_as_split_documents_does() {
        for text in [
            &b"{\"a\": 1}"[..],
            b"  \n {\"a\": \"}]\\\"{\"}\n\n",
            b"{\"a\": 1}\n{\"b\": [1, {\"c\": \"\\\\\"}]}\n{}\n",
            b"{\"a\":1}{\"b\":2}   {\"c\":3}",
            b"{\"a\": 1}\n[1, 2]\n",
            b"{\"a\": 1} 5 {\"b\": 2}",
            b"{\"a\": 1}\n{\"b\": tru}\n{\"c\": 3}",
            b"{\"a\": 1}\n{\"b\": [1}\n",
            b"{\"a\": 1}\n{\"b\": ",
            b"{\"a\":\n 1\n}\n\n{\"b\": 2}",
            // Strings longer than a word, with escapes and brackets at every offset.
            b"{\"long\": \"abcdefghijklmnop}]\\\"{[qrstuvwxyz0123456789\\\\\"}\n{\"k\": \"\\u00e9\x01\xc3\xa9 }\"}",
        ] {
            for step in [1, 2, 7, 4096] {
                let got = streamed(text, step);
                let want = split(text);
                if got != want {
                    // Streams with errors differ only until they are re-split.
                    assert!(
                        text.windows(3).any(|w| w == b"tru" || w == b"[1}") || text.ends_with(b": "),
                        "{:?} in steps of {step}: {got:?} vs {want:?}",
                        String::from_utf8_lossy(text)
                    );
                }
            }
        }
    }

    /// After a document fails to decode, re-splitting gives what `split_documents` gives
    /// from there on.
    #[test]
    fn resplitting_after_a_broken_document() {
        let text = b"{\"a\": 1}\n{\"b\": tru}\n{\"c\": 3}";
        let mut s = JsonStream::new(&text[..]);
        assert_eq!(s.next_document().unwrap().unwrap().body, b"{\"a\": 1}");
        assert_eq!(s.next_document().unwrap().unwrap().body, b"{\"b\": tru}");
        s.resplit().unwrap();
        let d = s.next_document().unwrap().unwrap();
        assert_eq!((d.index, d.line, d.body), (1, 2, &b"{\"b\": tru}\n{\"c\": 3}"[..]));
        assert!(s.next_document().unwrap().is_none());
        let want = split(text);
        assert_eq!(
            (want[1].0, want[1].1, &want[1].2[..]),
            (1, 2, &b"{\"b\": tru}\n{\"c\": 3}"[..])
        );
    }
}
