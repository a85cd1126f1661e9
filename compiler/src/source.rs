//! Reading what to compile: CRD files, directories and texts, and bare schemas.

use std::path::{Path, PathBuf};

use kstruct::schema::Structural;
use kstruct::schema::crd::{self, CustomResourceDefinition};

use crate::Error;

/// One input, as given to the [`Config`](crate::Config).
#[derive(Debug, Clone)]
pub enum Input {
    CrdFile(PathBuf),
    CrdDir(PathBuf),
    CrdText {
        origin: String,
        text: String,
    },
    Schema {
        name: String,
        schema: Result<Option<Box<Structural>>, String>,
    },
}

/// A CRD and where it was read.
#[derive(Debug)]
pub struct Crd {
    pub origin: String,
    pub crd: CustomResourceDefinition,
}

/// A bare schema and its name (or why it is not usable).
#[derive(Debug)]
pub struct Schema {
    pub name: String,
    pub schema: Result<Option<Structural>, String>,
}

/// Everything read.
#[derive(Debug, Default)]
pub struct Sources {
    pub crds: Vec<Crd>,
    pub schemas: Vec<Schema>,
    /// Files and directories read, for `cargo:rerun-if-changed`.
    pub read: Vec<PathBuf>,
}

pub fn read(inputs: &[Input]) -> Result<Sources, Error> {
    let mut out = Sources::default();
    for input in inputs {
        match input {
            Input::CrdFile(path) => {
                if read_file(path, &mut out)? == 0 {
                    return Err(Error::Input(format!(
                        "{}: no CustomResourceDefinition in this file",
                        path.display()
                    )));
                }
            }
            Input::CrdDir(dir) => {
                let mut files = Vec::new();
                list(dir, &mut files)?;
                files.sort();
                out.read.push(dir.clone());
                for f in files {
                    read_file(&f, &mut out)?;
                }
            }
            Input::CrdText { origin, text } => {
                read_text(origin, text.as_bytes(), &mut out)?;
            }
            Input::Schema { name, schema } => out.schemas.push(Schema {
                name: name.clone(),
                schema: schema.clone().map(|s| s.map(|s| *s)),
            }),
        }
    }
    Ok(out)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn list(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), Error> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let path = entry.map_err(io(dir))?.path();
        if path.is_dir() {
            list(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e == "yaml" || e == "yml" || e == "json")
        {
            files.push(path);
        }
    }
    Ok(())
}

fn read_file(path: &Path, out: &mut Sources) -> Result<usize, Error> {
    let bytes = std::fs::read(path).map_err(io(path))?;
    out.read.push(path.to_path_buf());
    read_text(&path.display().to_string(), &bytes, out)
}

fn read_text(origin: &str, bytes: &[u8], out: &mut Sources) -> Result<usize, Error> {
    let mut found = 0;
    for doc in kstruct::input::read_documents(bytes, origin) {
        let value = doc.value.map_err(|e| Error::Input(e.to_string()))?;
        if !crd::is_crd(&value) {
            continue;
        }
        let crd = CustomResourceDefinition::from_value(&value)
            .map_err(|e| Error::Input(format!("{origin}:{}: {e}", doc.line)))?;
        out.crds.push(Crd {
            origin: format!("{origin}:{}", doc.line),
            crd,
        });
        found += 1;
    }
    Ok(found)
}
