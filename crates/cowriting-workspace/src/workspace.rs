//! The workspace: a folder of documents, the only place the core reads or writes.
//!
//! Documents are named by [`DocPath`]: workspace-relative, `/`-separated,
//! normalized, never absolute, never with `..`. Every file access resolves
//! symlinks and refuses anything that lands outside the workspace root.

use crate::error::{Error, Result};
use crate::fsutil;
use cowriting_core::document::Document;
use std::fmt;
use std::path::{Component, Path, PathBuf};

/// The folder that holds the sidecars.
pub const SIDECAR_DIR: &str = ".threads";

/// Folders that never hold documents, at any depth (compared ignoring ASCII
/// case, for case-insensitive file systems): git's own data, the sidecars and
/// the contract ledger.
const RESERVED_FOLDERS: [&str; 3] = [".git", SIDECAR_DIR, ".cowriting"];

/// The file name endings of documents, lower case.
const DOCUMENT_EXTENSIONS: [&str; 6] = [".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc"];

/// A normalized workspace-relative document path, e.g. `docs/proposal.md`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocPath(String);

impl DocPath {
    /// Normalize and check a document path given by a person or a program.
    /// `.` segments and repeated `/` are dropped; `\` counts as `/`.
    pub fn parse(raw: &str) -> Result<DocPath> {
        let parts = segments(raw)?;
        let name = &parts[parts.len() - 1];
        if !is_document_name(name) {
            return Err(Error::BadInput(format!(
                "{raw}: not a document (cowriting opens {} files)",
                DOCUMENT_EXTENSIONS.join(" ")
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

/// The segments of a workspace-relative path given by a person or a program
/// (a document's or a folder's), normalized: `.` segments and repeated `/`
/// dropped, `\` read as `/`; absolute paths, `..`, NUL and reserved folders
/// (`.git`, `.threads`, `.cowriting`, at any depth) refused.
pub fn segments(raw: &str) -> Result<Vec<String>> {
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
            p => parts.push(p.to_owned()),
        }
    }
    if parts.is_empty() {
        return Err(Error::BadInput(format!("{raw:?}: empty document path")));
    }
    if let Some(folder) = parts
        .iter()
        .find(|p| RESERVED_FOLDERS.iter().any(|r| p.eq_ignore_ascii_case(r)))
    {
        return Err(Error::BadInput(format!(
            "{raw}: {folder} is not a document folder"
        )));
    }
    Ok(parts)
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

    /// The file that holds a document's bytes, checked to stay inside the
    /// workspace: the file the path names or, when that is a symlink, its
    /// resolved target (which must be inside the workspace too). A document that
    /// does not exist yet is named by its own path, under a folder that resolves
    /// inside the workspace.
    pub fn doc_file(&self, doc: &DocPath) -> Result<PathBuf> {
        let path = self.root.join(doc.as_str());
        match std::fs::symlink_metadata(&path) {
            Ok(_) => {
                let resolved = path.canonicalize().map_err(|_| Error::OutsideWorkspace {
                    path: doc.to_string(),
                    why: "a symlink whose target does not exist",
                })?;
                if !resolved.starts_with(&self.root) {
                    return Err(Error::OutsideWorkspace {
                        path: doc.to_string(),
                        why: "a symlink leads out of the workspace",
                    });
                }
                Ok(resolved)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => self.contained(doc, path),
            Err(e) => Err(Error::io(&path)(e)),
        }
    }

    /// `W/.threads/<docPath>.json`, through [`Workspace::internal_file`].
    pub fn sidecar_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.internal_file(&format!("{SIDECAR_DIR}/{}.json", doc.as_str()))
    }

    /// A file of the workspace that is not a document (`.threads/…`,
    /// `.cowriting/…`, `.gitattributes`), named by a `/`-separated relative path.
    /// Stricter than documents: no component that exists may be a symlink (a
    /// cloned repository cannot point our own files anywhere, inside or out),
    /// every parent that exists must be a folder, and the file itself, when it
    /// exists, must be a regular file (not a FIFO, socket, device or folder).
    pub fn internal_file(&self, rel: &str) -> Result<PathBuf> {
        self.internal(rel, Want::File)
    }

    /// [`Workspace::internal_file`] for a folder of cowriting's own
    /// (`.threads`, `.cowriting/suggestions`): the same checks, and the folder
    /// itself, when it exists, must be a real folder.
    pub fn internal_dir(&self, rel: &str) -> Result<PathBuf> {
        self.internal(rel, Want::Dir)
    }

    fn internal(&self, rel: &str, want: Want) -> Result<PathBuf> {
        let parts: Vec<&str> = rel.split('/').filter(|p| !p.is_empty() && *p != ".").collect();
        if parts.is_empty() || parts.contains(&"..") || rel.contains('\\') || rel.contains('\0') {
            return Err(Error::OutsideWorkspace {
                path: rel.to_owned(),
                why: "not a plain relative path",
            });
        }
        let mut path = self.root.clone();
        for (i, part) in parts.iter().enumerate() {
            path.push(part);
            let shown = parts[..=i].join("/");
            let last = i + 1 == parts.len();
            match std::fs::symlink_metadata(&path) {
                Ok(m) if m.file_type().is_symlink() => {
                    return Err(Error::BadInput(format!(
                        "{shown}: a symlink, which may lead outside the workspace; cowriting's own files must be real files and folders (refused {rel})"
                    )))
                }
                Ok(m) if !last && !m.is_dir() => {
                    return Err(Error::BadInput(format!(
                        "{shown}: not a folder ({}); cannot use {rel}",
                        kind_of(&m.file_type())
                    )))
                }
                Ok(m) if last && want == Want::File && !m.is_file() => {
                    return Err(Error::BadInput(format!(
                        "{rel}: not a regular file ({}); cowriting's own files must be regular files",
                        kind_of(&m.file_type())
                    )))
                }
                Ok(m) if last && want == Want::Dir && !m.is_dir() => {
                    return Err(Error::BadInput(format!(
                        "{rel}: not a folder ({})",
                        kind_of(&m.file_type())
                    )))
                }
                Ok(_) => {}
                // The rest does not exist yet (or cannot: a name longer than
                // a file name may be): nothing below can be a link.
                Err(e)
                    if e.kind() == std::io::ErrorKind::NotFound
                        || e.raw_os_error() == Some(libc::ENAMETOOLONG) =>
                {
                    break
                }
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

    /// Refuse `path` (which does not exist) when its deepest existing ancestor
    /// resolves (through symlinks) outside the root.
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

    /// Read and decode a document. Only a regular file is read: a FIFO, socket,
    /// device or folder under a document's name is refused at once (it is opened
    /// non-blocking, so a FIFO without a writer cannot hang the read), and so is
    /// a symlink leading out of the workspace. A symlink inside is read through.
    pub fn read_document(&self, doc: &DocPath) -> Result<Document> {
        let file = self.doc_file(doc)?;
        let bytes = read_regular(&file, doc)?;
        Document::from_bytes(&bytes).map_err(|source| Error::Document {
            path: doc.to_string(),
            source,
        })
    }

    /// Write a document atomically. A symlinked document is written through:
    /// its (contained) target is replaced and the link stays a link.
    pub fn write_document(&self, doc: &DocPath, document: &Document) -> Result<()> {
        let file = self.doc_file(doc)?;
        match std::fs::symlink_metadata(&file) {
            Ok(m) if !m.is_file() => {
                return Err(Error::BadInput(format!(
                    "{doc}: not a regular file ({}); not written",
                    kind_of(&m.file_type())
                )))
            }
            _ => {}
        }
        fsutil::atomic_write(&file, &document.to_bytes()).map_err(Error::io(&file))
    }

    /// Every Markdown or text document in the workspace, sorted (skips hidden
    /// folders such as `.git` and `.threads`, and `node_modules`).
    pub fn list_documents(&self) -> Vec<DocPath> {
        let mut out = Vec::new();
        self.walk(|name, kind, path| {
            // Symlinked folders are not followed (no loops, nothing outside);
            // a symlinked document is listed when it leads to a regular
            // file inside the workspace.
            let regular = kind.is_file()
                || (kind.is_symlink()
                    && path
                        .canonicalize()
                        .is_ok_and(|t| t.starts_with(&self.root) && t.is_file()));
            if regular && is_document_name(name) {
                if let Ok(rel) = path.strip_prefix(&self.root) {
                    if let Ok(dp) = DocPath::parse(&rel.to_string_lossy()) {
                        out.push(dp);
                    }
                }
            }
        });
        out.sort();
        out
    }

    /// Every folder the listing walks ([`Workspace::list_documents`]: real
    /// folders, not hidden, not `node_modules`, not symlinks), workspace-relative, sorted.
    pub fn list_folders(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.walk(|_, kind, path| {
            if kind.is_dir() {
                if let Some(rel) = path.strip_prefix(&self.root).ok().and_then(|r| r.to_str()) {
                    out.push(rel.to_owned());
                }
            }
        });
        out.sort();
        out
    }

    /// The walk of the listings: every entry under the root with its name,
    /// type and path, hidden ones (`.git`, `.threads`) and `node_modules` left
    /// out, real folders descended into (a symlinked folder is not followed).
    fn walk(&self, mut visit: impl FnMut(&str, std::fs::FileType, &Path)) {
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
                visit(&name, kind, &path);
                if kind.is_dir() {
                    stack.push(path);
                }
            }
        }
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

/// What [`Workspace::internal`] expects at the end of the path.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    File,
    Dir,
}

/// A file type in words, for messages.
pub(crate) fn kind_of(t: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_dir() {
        "a folder"
    } else if t.is_symlink() {
        "a symlink"
    } else if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_file() {
        "a regular file"
    } else {
        "an unknown kind of file"
    }
}

/// The bytes of `file`, which must be a regular file. Opened with `O_NONBLOCK`
/// (a FIFO opens at once instead of waiting for a writer) and `O_NOFOLLOW` (the
/// path is already resolved: a link swapped in meanwhile is refused), then
/// checked on the open handle, so what is read is what was checked.
fn read_regular(file: &Path, doc: &DocPath) -> Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let f = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(file)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::MissingDocument {
                path: doc.to_string(),
            })
        }
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(Error::OutsideWorkspace {
                path: doc.to_string(),
                why: "it became a symlink while being opened",
            })
        }
        Err(e) => return Err(Error::io(file)(e)),
    };
    let meta = f.metadata().map_err(Error::io(file))?;
    if !meta.is_file() {
        return Err(Error::BadInput(format!(
            "{doc}: not a regular file ({}); cowriting reads only regular files",
            kind_of(&meta.file_type())
        )));
    }
    // Too large is said before reading (and a file growing meanwhile is read
    // only to just past the limit, for the same message).
    let limit = cowriting_core::document::MAX_DOCUMENT_BYTES;
    let too_large = |size: usize| Error::Document {
        path: doc.to_string(),
        source: cowriting_core::document::DocumentError::TooLarge { size, limit },
    };
    let size = usize::try_from(meta.len()).unwrap_or(usize::MAX);
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size);
    f.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(Error::io(file))?;
    Ok(bytes)
}

/// Markdown and plain-text file names the editor lists.
pub fn is_document_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    DOCUMENT_EXTENSIONS.iter().any(|ext| lower.ends_with(ext))
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
    fn only_document_names_outside_reserved_folders() {
        for ok in [
            "a.md",
            "notes/b.markdown",
            "c.TXT",
            ".hidden.md",
            "x.mdx",
            "y.rst",
            "z.adoc",
        ] {
            assert!(DocPath::parse(ok).is_ok(), "{ok}");
        }
        for bad in [
            ".env",
            "notes/config",
            "x.json",
            "sub/.git/config.md",
            "sub/.GIT/x.md",
            ".cowriting/decisions.md",
            "deep/.threads/x.md",
            "a/.cowriting/b.txt",
        ] {
            let err = DocPath::parse(bad).unwrap_err();
            assert_eq!(err.code(), crate::error::ErrorCode::BadInput, "{bad}");
            assert!(err.to_string().starts_with(bad), "{bad}: {err}");
        }
    }

    fn mkfifo(path: &Path) {
        let st = std::process::Command::new("mkfifo").arg(path).status().unwrap();
        assert!(st.success());
    }

    fn fresh() -> (tempfile::TempDir, tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        (dir, outside, ws)
    }

    #[test]
    fn internal_files_refuse_symlinks_at_every_level() {
        use std::os::unix::fs::symlink;
        // A symlinked .cowriting (to a folder outside, and to one inside).
        let (dir, outside, ws) = fresh();
        symlink(outside.path(), dir.path().join(".cowriting")).unwrap();
        let err = ws.internal_file(".cowriting/decisions.jsonl").unwrap_err();
        assert!(err.to_string().starts_with(".cowriting: a symlink"), "{err}");
        assert!(ws.internal_dir(".cowriting/suggestions").is_err());
        let (dir, _outside, ws) = fresh();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        symlink(dir.path().join("real"), dir.path().join(".cowriting")).unwrap();
        assert!(
            ws.internal_file(".cowriting/decisions.jsonl").is_err(),
            "inside is refused too"
        );

        // A symlinked .cowriting/suggestions.
        let (dir, outside, ws) = fresh();
        std::fs::create_dir(dir.path().join(".cowriting")).unwrap();
        symlink(outside.path(), dir.path().join(".cowriting/suggestions")).unwrap();
        let err = ws.internal_file(".cowriting/suggestions/a.md.json").unwrap_err();
        assert!(
            err.to_string().starts_with(".cowriting/suggestions: a symlink"),
            "{err}"
        );
        assert_eq!(err.code(), crate::error::ErrorCode::BadInput);

        // A symlinked decisions.jsonl, to a file outside (and a dangling one).
        let (dir, outside, ws) = fresh();
        std::fs::create_dir(dir.path().join(".cowriting")).unwrap();
        std::fs::write(outside.path().join("bashrc"), "x").unwrap();
        symlink(
            outside.path().join("bashrc"),
            dir.path().join(".cowriting/decisions.jsonl"),
        )
        .unwrap();
        symlink(
            outside.path().join("nothing"),
            dir.path().join(".cowriting/dangling.jsonl"),
        )
        .unwrap();
        for rel in [".cowriting/decisions.jsonl", ".cowriting/dangling.jsonl"] {
            let err = ws.internal_file(rel).unwrap_err();
            assert!(err.to_string().starts_with(&format!("{rel}: a symlink")), "{err}");
        }
        // The ordinary case: missing files and folders are fine, real ones too.
        assert_eq!(
            ws.internal_file(".cowriting/suggestions/x/y.md.json").unwrap(),
            dir.path()
                .canonicalize()
                .unwrap()
                .join(".cowriting/suggestions/x/y.md.json")
        );
        std::fs::write(dir.path().join(".cowriting/ok.json"), "{}").unwrap();
        assert!(ws.internal_file(".cowriting/ok.json").is_ok());
        assert!(ws.internal_dir(".cowriting").is_ok());
        assert!(ws.internal_file("../x").is_err());
        assert!(ws.internal_file("").is_err());
    }

    #[test]
    fn internal_files_must_be_regular_files_under_real_folders() {
        let (dir, _outside, ws) = fresh();
        std::fs::create_dir_all(dir.path().join(".cowriting/decisions.jsonl")).unwrap();
        let err = ws.internal_file(".cowriting/decisions.jsonl").unwrap_err();
        assert!(err.to_string().contains("not a regular file (a folder)"), "{err}");
        mkfifo(&dir.path().join(".cowriting/fifo.json"));
        let err = ws.internal_file(".cowriting/fifo.json").unwrap_err();
        assert!(err.to_string().contains("not a regular file (a FIFO)"), "{err}");
        std::fs::write(dir.path().join(".threads"), "a file where a folder belongs").unwrap();
        let err = ws.sidecar_file(&DocPath::parse("a.md").unwrap()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(".threads: not a folder (a regular file)"),
            "{err}"
        );
        let err = ws.internal_dir(".cowriting/fifo.json").unwrap_err();
        assert!(err.to_string().contains("not a folder (a FIFO)"), "{err}");
    }

    #[test]
    fn a_fifo_document_is_refused_at_once() {
        let (dir, _outside, ws) = fresh();
        mkfifo(&dir.path().join("doc.md"));
        let doc = DocPath::parse("doc.md").unwrap();
        let started = std::time::Instant::now();
        let err = ws.read_document(&doc).unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
        assert_eq!(err.code(), crate::error::ErrorCode::BadInput);
        assert_eq!(
            err.to_string(),
            "doc.md: not a regular file (a FIFO); cowriting reads only regular files"
        );
        assert!(ws.list_documents().is_empty());
        let err = ws
            .write_document(&doc, &Document::from_bytes(b"x").unwrap())
            .unwrap_err();
        assert_eq!(err.code(), crate::error::ErrorCode::BadInput);
        // A folder under a document's name, and a device.
        std::fs::create_dir(dir.path().join("folder.md")).unwrap();
        let err = ws
            .read_document(&DocPath::parse("folder.md").unwrap())
            .unwrap_err();
        assert!(err.to_string().contains("(a folder)"), "{err}");
        std::os::unix::fs::symlink("/dev/null", dir.path().join("null.md")).unwrap();
        let err = ws.read_document(&DocPath::parse("null.md").unwrap()).unwrap_err();
        assert!(matches!(err, Error::OutsideWorkspace { .. }), "{err}");
    }

    #[test]
    fn a_document_over_the_limit_is_refused_before_it_is_read() {
        let (dir, _outside, ws) = fresh();
        let f = std::fs::File::create(dir.path().join("big.md")).unwrap();
        // Sparse: no disk used, but the size is past the limit.
        f.set_len(cowriting_core::document::MAX_DOCUMENT_BYTES as u64 + 1)
            .unwrap();
        let err = ws.read_document(&DocPath::parse("big.md").unwrap()).unwrap_err();
        assert!(
            err.to_string().starts_with("big.md: too large: 67108865 bytes"),
            "{err}"
        );
    }

    #[test]
    fn a_symlinked_document_inside_is_read_and_written_through() {
        let (dir, outside, ws) = fresh();
        std::fs::write(dir.path().join("real.md"), "real text\n").unwrap();
        std::os::unix::fs::symlink("real.md", dir.path().join("alias.md")).unwrap();
        std::fs::write(outside.path().join("out.md"), "outside\n").unwrap();
        std::os::unix::fs::symlink(outside.path().join("out.md"), dir.path().join("out.md")).unwrap();
        let alias = DocPath::parse("alias.md").unwrap();
        assert_eq!(ws.read_document(&alias).unwrap().text(), "real text\n");
        ws.write_document(&alias, &Document::from_bytes(b"edited\n").unwrap())
            .unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("real.md")).unwrap(),
            "edited\n"
        );
        assert!(std::fs::symlink_metadata(dir.path().join("alias.md"))
            .unwrap()
            .file_type()
            .is_symlink());
        // Leading out: refused both ways, and not listed.
        let out = DocPath::parse("out.md").unwrap();
        assert!(matches!(
            ws.read_document(&out).unwrap_err(),
            Error::OutsideWorkspace { .. }
        ));
        assert!(ws
            .write_document(&out, &Document::from_bytes(b"x").unwrap())
            .is_err());
        assert_eq!(
            std::fs::read_to_string(outside.path().join("out.md")).unwrap(),
            "outside\n"
        );
        let listed: Vec<String> = ws.list_documents().iter().map(|d| d.to_string()).collect();
        assert_eq!(listed, ["alias.md", "real.md"]);
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
