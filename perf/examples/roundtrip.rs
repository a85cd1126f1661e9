//! The baseline of the end-to-end measurement: a serde_json round trip of every line of a
//! JSON-lines file (parse to `Value`, print), as a program a user would write.
//!
//! ```sh
//! cd perf && cargo build --release --example roundtrip
//! target/release/examples/roundtrip data.jsonl > /dev/null
//! ```

use std::io::{BufRead, BufReader, BufWriter, Write};

fn main() -> std::io::Result<()> {
    let path = std::env::args().nth(1).expect("usage: roundtrip FILE");
    let input = BufReader::new(std::fs::File::open(path)?);
    let mut out = BufWriter::new(std::io::stdout().lock());
    for line in input.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(&line)?;
        serde_json::to_writer(&mut out, &v)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}
