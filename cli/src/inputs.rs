//! Reading input files (or standard input) and writing JSON lines.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// One input: its name for messages and its bytes.
pub struct Input {
    pub origin: String,
    pub bytes: Vec<u8>,
}

/// Reads every input file, or standard input when there are none (`-` also means standard
/// input). An unreadable file is a usage-level error.
pub fn read_inputs(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    if paths.is_empty() {
        return Ok(vec![read_stdin()?]);
    }
    paths
        .iter()
        .map(|p| {
            if p.as_os_str() == "-" {
                read_stdin()
            } else {
                read_file(p)
            }
        })
        .collect()
}

/// Reads one file.
pub fn read_file(path: &Path) -> Result<Input, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Input {
        origin: path.display().to_string(),
        bytes,
    })
}

/// Reads standard input.
pub fn read_stdin() -> Result<Input, String> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("<stdin>: {e}"))?;
    Ok(Input {
        origin: "<stdin>".to_string(),
        bytes,
    })
}

/// An input by its path (`-`: standard input), with its name for messages.
pub fn open_input(path: &Path) -> Result<(String, Box<dyn Read>), String> {
    if path.as_os_str() == "-" {
        return Ok(("<stdin>".to_string(), Box::new(std::io::stdin())));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((path.display().to_string(), Box::new(file)))
}

/// The start of an input: up to its first byte that is not white space (and what came in
/// the same read), or all of it when there is none.
pub fn read_head(reader: &mut dyn Read) -> std::io::Result<Vec<u8>> {
    let mut head = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        head.extend_from_slice(&chunk[..n]);
        if n == 0 || head.iter().any(|b| !b.is_ascii_whitespace()) {
            return Ok(head);
        }
    }
}

/// Writes `v` as one compact line, formatted as the API server's Go encoder formats JSON.
pub fn write_line(out: &mut impl Write, v: &Value) -> std::io::Result<()> {
    let mut line = kstruct::schema::go::marshal_json(v);
    line.push('\n');
    out.write_all(line.as_bytes())
}
