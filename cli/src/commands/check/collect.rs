//! The files `kstruct check` reads: paths as given, directories walked in path order,
//! `--exclude` globs, each file read once, and split into documents with their positions.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use kstruct::BodyFormat;
use kstruct::source::Position;

/// One file read, split into documents.
pub struct File {
    /// The path as given or as walked (`<stdin>` for standard input).
    pub name: String,
    pub bytes: Vec<u8>,
}

/// One document of a file: where its bytes are and how to read them.
pub struct Doc {
    /// 1-based index in the file.
    pub index: usize,
    /// Byte range of the document in the file.
    pub range: std::ops::Range<usize>,
    /// Where the document starts in the file (positions inside it are relative to this).
    pub start: Position,
    /// Where its content starts: its first key or item, past the comments and blank lines
    /// above it (what a finding about the whole document points at).
    pub content: Position,
    pub format: BodyFormat,
    /// Why the stream could not be split here, if it could not.
    pub broken: Option<String>,
}

/// What reading the inputs gave.
pub struct Collected {
    pub files: Vec<File>,
    /// How many `--crds` files come first in `files`.
    pub crd_files: usize,
    /// Paths that could not be read, with why (already printed on standard error).
    pub unreadable: usize,
    /// Files and directories below the inputs left out by `--exclude`.
    pub excluded: usize,
    /// Standard input was read because no path was given.
    pub stdin_by_default: bool,
}

/// Compiled `--exclude` globs.
pub struct Excludes(GlobSet);

impl Excludes {
    pub fn new(globs: &[String]) -> Result<Excludes, String> {
        let mut b = GlobSetBuilder::new();
        for g in globs {
            b.add(Glob::new(g).map_err(|e| format!("--exclude {g:?}: {e}"))?);
        }
        b.build().map(Excludes).map_err(|e| e.to_string())
    }

    /// Whether `p`, found below the input `root`, is left out: a glob matches its path
    /// relative to `root` or its name. The input itself is never matched, nor the path
    /// leading to it, so `.*` (hidden files) does not match everything below `.` or `../x`.
    pub fn excluded(&self, root: &Path, p: &Path) -> bool {
        let below = p.strip_prefix(root).unwrap_or(p);
        self.0.is_match(below) || p.file_name().is_some_and(|n| self.0.is_match(n))
    }
}

/// Reads `--crds` paths, then the manifest paths (standard input when there are none). A
/// file named twice (or reached twice) is read once, where it first appears.
pub fn collect(crds: &[PathBuf], paths: &[PathBuf], excludes: &Excludes) -> Collected {
    let mut out = Collected {
        files: Vec::new(),
        crd_files: 0,
        unreadable: 0,
        excluded: 0,
        stdin_by_default: false,
    };
    let mut seen = HashSet::new();
    let stdin_default = [PathBuf::from("-")];
    let paths = if paths.is_empty() && !crds.is_empty() && crds.iter().any(|p| p.as_os_str() == "-") {
        // `--crds -` reads standard input; the manifests then have to be named.
        &[][..]
    } else if paths.is_empty() {
        out.stdin_by_default = true;
        &stdin_default[..]
    } else {
        paths
    };
    for (group, list) in [(0, crds), (1, paths)] {
        for p in list {
            for f in expand(p, excludes, &mut out) {
                let key = std::fs::canonicalize(&f).unwrap_or_else(|_| f.clone());
                if f.as_os_str() != "-" && !seen.insert(key) {
                    continue;
                }
                match read(&f) {
                    Ok(file) => out.files.push(file),
                    Err(e) => {
                        eprintln!("kstruct: {e}");
                        out.unreadable += 1;
                    }
                }
            }
        }
        if group == 0 {
            out.crd_files = out.files.len();
        }
    }
    out
}

fn read(p: &Path) -> Result<File, String> {
    if p.as_os_str() == "-" {
        let input = crate::inputs::read_stdin()?;
        return Ok(File {
            name: input.origin,
            bytes: input.bytes,
        });
    }
    let bytes = std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?;
    // `kstruct check .` walks `./a.yaml`; people write `a.yaml`.
    let shown = p.strip_prefix(".").unwrap_or(p);
    Ok(File {
        name: shown.display().to_string(),
        bytes,
    })
}

/// A path as files: a directory gives every `.yaml`, `.yml` and `.json` file below it (not
/// excluded), in path order; a file named on the command line is read whatever `--exclude`
/// says. A path that does not exist is reported and counted.
fn expand(p: &Path, excludes: &Excludes, out: &mut Collected) -> Vec<PathBuf> {
    if p.as_os_str() == "-" || !p.is_dir() {
        return vec![p.to_path_buf()];
    }
    let excluded = std::cell::Cell::new(0);
    let (files, unreadable_dirs) = kstruct::input::manifest_files(p, &|path| {
        let skip = excludes.excluded(p, path);
        excluded.set(excluded.get() + usize::from(skip));
        skip
    });
    out.excluded += excluded.get();
    for (dir, e) in unreadable_dirs {
        eprintln!("kstruct: {}: {e}", dir.display());
        out.unreadable += 1;
    }
    files
}

/// The documents of a file, with their byte ranges and start positions in it.
pub fn documents(file: &File) -> Vec<Doc> {
    documents_of(&file.bytes, &file.name)
}

/// The documents of `bytes` (named `name` in messages), with their byte ranges and start
/// positions in it.
pub fn documents_of(bytes: &[u8], name: &str) -> Vec<Doc> {
    let base = bytes.as_ptr() as usize;
    let lines = LineIndex::new(bytes);
    kstruct::input::split_documents(bytes, name)
        .into_iter()
        .map(|d| {
            let (range, broken) = match &d.body {
                Ok(body) => {
                    let start = body.as_ptr() as usize - base;
                    (start..start + body.len(), None)
                }
                Err(e) => (0..0, Some(e.to_string())),
            };
            let start = if broken.is_some() {
                Position {
                    line: d.line,
                    column: 1,
                }
            } else {
                lines.position(range.start)
            };
            let content = match &broken {
                None => lines.position(range.start + content_offset(&bytes[range.clone()])),
                Some(_) => start,
            };
            Doc {
                index: d.index + 1,
                start,
                content,
                range,
                format: d.format,
                broken,
            }
        })
        .collect()
}

/// The offset of a document's first key or item: past blank lines, comment lines and the
/// white space before it (the start when there is none).
fn content_offset(body: &[u8]) -> usize {
    let mut offset = 0;
    for line in body.split_inclusive(|&b| b == b'\n') {
        let indent = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
        match line.get(indent) {
            None | Some(b'#') => offset += line.len(),
            Some(_) => return offset + indent,
        }
    }
    0
}

/// Line starts of a text, for positions of byte offsets in O(log n).
pub struct LineIndex<'a> {
    bytes: &'a [u8],
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(bytes: &'a [u8]) -> LineIndex<'a> {
        let mut starts = vec![0];
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|(_, b)| **b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { bytes, starts }
    }

    /// The line and column (in characters) of byte `offset`.
    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.bytes.len());
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        Position {
            line,
            column: self.bytes[start..offset].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1,
        }
    }
}
