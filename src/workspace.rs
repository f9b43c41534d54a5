//! The workspace: a folder of documents, the only place the core reads or writes.
//!
//! Documents are named by [`DocPath`]: workspace-relative, `/`-separated,
//! normalized, never absolute, never with `..`. Every file access resolves
//! symlinks and refuses anything that lands outside the workspace root.

use crate::document::Document;
use crate::error::{Error, Result};
use crate::fsutil;
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// The folder that holds the sidecars.
pub const SIDECAR_DIR: &str = ".threads";

/// Why [`Workspace::internal_file`] refused a path that exists but is no regular file.
pub const NOT_A_FILE: &str = "not a regular file (a folder, FIFO, socket or device)";

/// A normalized workspace-relative document path, e.g. `docs/proposal.md`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocPath(String);

impl DocPath {
    /// Normalize and check a document path given by a person or a program.
    /// `.` segments and repeated `/` are dropped; `\` counts as `/`.
    pub fn parse(raw: &str) -> Result<DocPath> {
        let refuse = |why| Error::OutsideWorkspace {
            path: raw.to_owned(),
            why,
        };
        if raw.contains('\0') {
            return Err(Error::BadInput(format!(
                "{raw:?}: a path cannot contain a NUL byte"
            )));
        }
        let unified = raw.replace('\\', "/");
        if unified.starts_with('/') || (unified.len() >= 2 && unified.as_bytes()[1] == b':') {
            return Err(refuse("absolute path; give it relative to the workspace"));
        }
        let mut parts = Vec::new();
        for part in unified.split('/') {
            match part {
                "" | "." => {}
                ".." => return Err(refuse("'..' is not allowed")),
                p => parts.push(p),
            }
        }
        if parts.is_empty() {
            return Err(Error::BadInput(format!("{raw:?}: empty document path")));
        }
        if parts[0] == SIDECAR_DIR || parts[0] == ".git" {
            return Err(Error::BadInput(format!(
                "{raw}: {} is not a document folder",
                parts[0]
            )));
        }
        Ok(DocPath(parts.join("/")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for DocPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A workspace rooted at a canonical folder.
#[derive(Clone, Debug)]
pub struct Workspace {
    root: PathBuf,
}

impl Workspace {
    pub fn open(dir: impl AsRef<Path>) -> Result<Workspace> {
        let dir = dir.as_ref();
        let root = dir
            .canonicalize()
            .map_err(|e| Error::BadInput(format!("{}: cannot open workspace: {e}", dir.display())))?;
        if !root.is_dir() {
            return Err(Error::BadInput(format!("{}: not a folder", dir.display())));
        }
        Ok(Workspace { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file of a document, checked to stay inside the workspace.
    pub fn doc_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.contained(doc, self.root.join(doc.as_str()))
    }

    /// `W/.threads/<docPath>.json`, through [`Workspace::internal_file`].
    pub fn sidecar_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.internal_file(&format!("{SIDECAR_DIR}/{}.json", doc.as_str()))
    }

    /// A file of the workspace that is not a document (`.threads/…`,
    /// `.cowriting/…`, `.gitattributes`), named by a `/`-separated relative path.
    /// Stricter than documents: no component that exists may be a symlink (a
    /// cloned repository cannot point our own files anywhere, inside or out), and
    /// the file itself, when it exists, must be a regular file.
    pub fn internal_file(&self, rel: &str) -> Result<PathBuf> {
        self.internal(rel, false)
    }

    /// [`Workspace::internal_file`] for a folder: it must be a real folder when it exists.
    pub fn internal_dir(&self, rel: &str) -> Result<PathBuf> {
        self.internal(rel, true)
    }

    fn internal(&self, rel: &str, dir: bool) -> Result<PathBuf> {
        let refuse = |why| Error::OutsideWorkspace {
            path: rel.to_owned(),
            why,
        };
        let mut path = self.root.clone();
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if parts.is_empty() || parts.contains(&"..") || rel.contains('\0') {
            return Err(refuse("not a plain relative path"));
        }
        for (i, part) in parts.iter().enumerate() {
            path.push(part);
            let last = i + 1 == parts.len();
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(refuse(
                        "a symlink; cowriting's own files must be real files and folders",
                    ))
                }
                Ok(m) if (!last || dir) && !m.is_dir() => return Err(refuse("not a folder")),
                Ok(m) if last && !dir && !m.is_file() => return Err(refuse(NOT_A_FILE)),
                Ok(_) => {}
                // The rest does not exist yet: nothing below can be a link.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
                Err(e) => return Err(Error::io(&path)(e)),
            }
        }
        let mut full = self.root.clone();
        full.extend(&parts);
        Ok(full)
    }

    /// A workspace at a root already canonical (as [`Workspace::root`] gives it).
    pub(crate) fn from_root(root: PathBuf) -> Workspace {
        Workspace { root }
    }

    /// Refuse `path` when it, or its deepest existing ancestor, resolves (through
    /// symlinks) outside the root.
    fn contained(&self, doc: &DocPath, path: PathBuf) -> Result<PathBuf> {
        let mut probe = path.as_path();
        let resolved = loop {
            match probe.canonicalize() {
                Ok(c) => break c,
                Err(_) => match probe.parent() {
                    Some(p) => probe = p,
                    None => break self.root.clone(),
                },
            }
        };
        if !resolved.starts_with(&self.root) {
            return Err(Error::OutsideWorkspace {
                path: doc.to_string(),
                why: "a symlink leads out of the workspace",
            });
        }
        Ok(path)
    }

    /// The document path of a file given relative to the current directory or
    /// absolutely, when it lies inside the workspace; else parse it as a
    /// workspace-relative path.
    pub fn doc_path_for_arg(&self, arg: &str) -> Result<DocPath> {
        let as_path = Path::new(arg);
        if as_path.is_absolute() {
            if let Ok(canon) = as_path.canonicalize() {
                if let Ok(rel) = canon.strip_prefix(&self.root) {
                    let rel: Vec<String> = rel
                        .components()
                        .filter_map(|c| match c {
                            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                            _ => None,
                        })
                        .collect();
                    return DocPath::parse(&rel.join("/"));
                }
            }
        }
        DocPath::parse(arg)
    }

    /// Read and decode a document.
    pub fn read_document(&self, doc: &DocPath) -> Result<Document> {
        let file = self.doc_file(doc)?;
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::MissingDocument {
                    path: doc.to_string(),
                })
            }
            Err(e) => return Err(Error::io(&file)(e)),
        };
        Document::from_bytes(&bytes).map_err(|source| Error::Document {
            path: doc.to_string(),
            source,
        })
    }

    /// Write a document atomically.
    pub fn write_document(&self, doc: &DocPath, document: &Document) -> Result<()> {
        let file = self.doc_file(doc)?;
        fsutil::atomic_write(&file, &document.to_bytes()).map_err(Error::io(&file))
    }

    /// Every Markdown or text document in the workspace, sorted (skips hidden
    /// folders such as `.git` and `.threads`, and `node_modules`).
    pub fn list_documents(&self) -> Vec<DocPath> {
        let mut out = Vec::new();
        let mut stack = vec![self.root.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') || name == "node_modules" {
                    continue;
                }
                let Ok(kind) = entry.file_type() else { continue };
                let path = entry.path();
                if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_file() && is_document_name(&name) {
                    if let Ok(rel) = path.strip_prefix(&self.root) {
                        if let Ok(dp) = DocPath::parse(&rel.to_string_lossy()) {
                            out.push(dp);
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// Every sidecar file under `.threads/`, with the document path its location names.
    pub fn list_sidecars(&self) -> Vec<(DocPath, PathBuf)> {
        let base = self.root.join(SIDECAR_DIR);
        let mut out = Vec::new();
        let mut stack = vec![base.clone()];
        while let Some(dir) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let path = entry.path();
                let Ok(kind) = entry.file_type() else { continue };
                if kind.is_dir() {
                    stack.push(path);
                } else if let Some(rel) = path.strip_prefix(&base).ok().and_then(|r| r.to_str()) {
                    if let Some(doc) = rel.strip_suffix(".json") {
                        if let Ok(dp) = DocPath::parse(doc) {
                            out.push((dp, path.clone()));
                        }
                    }
                }
            }
        }
        out.sort();
        out
    }
}

/// Markdown and plain-text file names the editor lists.
pub fn is_document_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_paths_are_normalized() {
        assert_eq!(DocPath::parse("docs//./x.md").unwrap().as_str(), "docs/x.md");
        assert_eq!(DocPath::parse("docs\\x.md").unwrap().as_str(), "docs/x.md");
    }

    #[test]
    fn escaping_paths_are_refused() {
        for bad in [
            "../x.md",
            "docs/../../x.md",
            "/etc/passwd",
            "C:/x.md",
            "",
            ".threads/x.md.json",
        ] {
            assert!(DocPath::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn symlink_out_is_refused() {
        let ws_dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "secret").unwrap();
        std::os::unix::fs::symlink(outside.path(), ws_dir.path().join("link")).unwrap();
        let ws = Workspace::open(ws_dir.path()).unwrap();
        let doc = DocPath::parse("link/secret.md").unwrap();
        let err = ws.read_document(&doc).unwrap_err();
        assert!(matches!(err, Error::OutsideWorkspace { .. }), "{err}");
        // A new file through the symlinked folder is refused too.
        assert!(ws.doc_file(&DocPath::parse("link/new.md").unwrap()).is_err());
    }
}
