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

/// Writes `v` as one compact line, formatted as the API server's Go encoder formats JSON.
pub fn write_line(out: &mut impl Write, v: &Value) -> std::io::Result<()> {
    let mut line = kstruct::schema::go::marshal_json(v);
    line.push('\n');
    out.write_all(line.as_bytes())
}
