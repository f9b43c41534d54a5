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

/// What [`Workspace::update_internal_text`] makes of the text it read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// Leave the file as it is.
    Keep,
    /// Write this text in its place.
    Write(String),
    /// Remove the file (it says nothing any more).
    Remove,
}

/// The folder that holds the sidecars.
pub const SIDECAR_DIR: &str = ".threads";

/// `.threads/<docPath>.json`: where `doc`'s sidecar is, relative to the root.
pub(crate) fn sidecar_rel(doc: &DocPath) -> String {
    format!("{SIDECAR_DIR}/{}.json", doc.as_str())
}

/// Whether `rel` is plain `/`-separated names the kernel's walk can look up
/// for the guard: not empty, no empty name, no `.` or `..`, no NUL or
/// backslash; and, unless `hidden` (our own files), no hidden name at all (a
/// document's path never has one; the guard's walk refuses it and says why).
#[cfg(target_os = "linux")]
fn plain_names(rel: &str, hidden: bool) -> bool {
    !rel.is_empty()
        && !rel.contains(['\\', '\0'])
        && rel
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && (hidden || !p.starts_with('.')))
}

/// Folders that never hold documents, at any depth (compared ignoring ASCII
/// case, for case-insensitive file systems): git's own data, the sidecars and
/// the contract ledger.
const RESERVED_FOLDERS: [&str; 3] = [".git", SIDECAR_DIR, ".cowriting"];

/// How many symlinks one path may pass through before [`Workspace::resolve`]
/// takes it for a loop (Linux's own limit).
pub const MAX_LINK_HOPS: usize = 40;

/// The file name endings of documents, lower case.
const DOCUMENT_EXTENSIONS: [&str; 6] = [".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc"];

/// A normalized workspace-relative document path, e.g. `docs/proposal.md`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DocPath(String);

impl DocPath {
    /// Normalize and check a document path given by a person or a program.
    /// `.` segments and repeated `/` are dropped; `\` counts as `/`. A path
    /// ending in `/` (or `/.`) names a folder: refused.
    pub fn parse(raw: &str) -> Result<DocPath> {
        let parts = segments(raw)?;
        if matches!(raw.rsplit(['/', '\\']).next(), Some("" | ".")) {
            return Err(Error::BadInput(format!(
                "{raw}: ends with '/', which names a folder, not a document"
            )));
        }
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
        Ok(Workspace::from_root(root))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The file that holds a document's bytes, through [`Workspace::resolve`]:
    /// the file the path names or, when a link is on the way, the file it leads
    /// to, which must be an ordinary file of the workspace too. A document that
    /// does not exist yet is named by its own path.
    pub fn doc_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.resolve(doc.as_str())
    }

    /// **The one guard** for every path the product opens, lists, exports,
    /// renames or deletes as a document (or writes beside one): `rel`, a
    /// `/`-separated path relative to the root, resolved one component at a
    /// time, the way the kernel would, but by us: every component is looked at
    /// with `lstat`, never followed blindly. A symlink is read (`readlink`) and
    /// its target walked in turn, from the folder it sits in (or from the root
    /// for an absolute target, which must lie inside the workspace). Refused,
    /// as [`Error::OutsideWorkspace`]:
    ///
    /// - a target that leads out of the workspace (absolute, or `..` above the root);
    /// - anything whose resolution passes through or ends at a hidden name
    ///   (a component starting with `.`): `.git/`, `.threads/`, `.cowriting/`,
    ///   `.env`, `.gitmodules`, `.ssh/`, whatever name or folder link leads there
    ///   (the repository's and cowriting's own files are never documents);
    /// - a link whose target does not exist (writing through it would create a
    ///   file the link chose);
    /// - more than [`MAX_LINK_HOPS`] links on the way (a loop).
    ///
    /// What comes back is the resolved path: no component of it is a symlink
    /// (at the time of the check). A read opens it with `openat2`
    /// (`RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`), so a link swapped in anywhere
    /// afterwards is refused by the kernel; writes open it by path, the last hop
    /// never followed (a folder swapped for a link between this check and the
    /// write's rename is the window left, docs/reliability.md). The components
    /// that do not exist yet are kept as named.
    pub fn resolve(&self, rel: &str) -> Result<PathBuf> {
        // Plain names only: the kernel's walk answers alone for a path with
        // no link on the way (hidden names, `.`, `..` and links: the walk).
        #[cfg(target_os = "linux")]
        if plain_names(rel, false) {
            match self.beneath(rel) {
                Some(None) => return Ok(self.root.join(rel)),
                Some(Some(kind)) if kind != rustix::fs::FileType::Symlink => return Ok(self.root.join(rel)),
                _ => {}
            }
        }
        self.resolve_walk(rel)
    }

    /// [`Workspace::resolve`] by our own walk, one `lstat` a component.
    fn resolve_walk(&self, rel: &str) -> Result<PathBuf> {
        use std::ffi::OsString;
        use std::os::unix::ffi::OsStrExt;
        let refuse = |why| Error::OutsideWorkspace {
            path: rel.to_owned(),
            why,
        };
        if rel.contains('\0') {
            return Err(refuse("a path cannot contain a NUL byte"));
        }
        if rel.starts_with('/') {
            return Err(refuse("absolute path; give it relative to the workspace"));
        }
        // What is left to walk, front first, each with whether a link put it there.
        let mut todo: std::collections::VecDeque<(OsString, bool)> =
            rel.split('/').map(|p| (OsString::from(p), false)).collect();
        let mut done = self.root.clone();
        let mut depth = 0usize;
        let mut hops = 0usize;
        let mut missing = false;
        while let Some((part, from_link)) = todo.pop_front() {
            match part.as_bytes() {
                b"" | b"." => continue,
                b".." => {
                    // `done` holds real folders only, so `..` is its parent.
                    if depth == 0 || missing {
                        return Err(refuse("a symlink leads out of the workspace"));
                    }
                    done.pop();
                    depth -= 1;
                    continue;
                }
                name if name.starts_with(b".") => {
                    return Err(refuse(if hops > 0 {
                        "a symlink leads to a hidden file or folder (.git, .threads, .cowriting, .env …), never a document"
                    } else {
                        "a hidden file or folder (.git, .threads, .cowriting, .env …) is never a document"
                    }));
                }
                _ => {}
            }
            done.push(&part);
            depth += 1;
            if missing {
                continue;
            }
            let meta = match std::fs::symlink_metadata(&done) {
                Ok(m) => m,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if from_link {
                        return Err(refuse("a symlink whose target does not exist"));
                    }
                    missing = true;
                    continue;
                }
                Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
                    return Err(refuse("a file is used as a folder on the way"));
                }
                Err(e) => return Err(Error::io(&done)(e)),
            };
            if meta.file_type().is_symlink() {
                hops += 1;
                if hops > MAX_LINK_HOPS {
                    return Err(refuse("too many symlinks on the way (a loop)"));
                }
                let target = std::fs::read_link(&done).map_err(Error::io(&done))?;
                done.pop();
                depth -= 1;
                let target = if target.is_absolute() {
                    // Absolute: it must name a place inside the root (as the
                    // root is spelled, or once resolved); walked again from the root.
                    let inside = match target.strip_prefix(&self.root) {
                        Ok(r) => Some(r.to_path_buf()),
                        Err(_) => target
                            .canonicalize()
                            .ok()
                            .and_then(|c| c.strip_prefix(&self.root).ok().map(Path::to_path_buf)),
                    };
                    let Some(inside) = inside else {
                        return Err(refuse("a symlink leads out of the workspace"));
                    };
                    done = self.root.clone();
                    depth = 0;
                    inside
                } else {
                    target
                };
                for c in target.components().rev() {
                    let c = match c {
                        Component::Normal(s) => s.to_owned(),
                        Component::ParentDir => OsString::from(".."),
                        _ => continue,
                    };
                    todo.push_front((c, true));
                }
                continue;
            }
            if !todo.is_empty() && !meta.is_dir() {
                return Err(refuse("a file is used as a folder on the way"));
            }
        }
        if depth == 0 {
            return Err(refuse("it leads to the workspace folder itself"));
        }
        Ok(done)
    }

    /// `W/.threads/<docPath>.json`, through [`Workspace::internal_file`].
    pub fn sidecar_file(&self, doc: &DocPath) -> Result<PathBuf> {
        self.internal_file(&sidecar_rel(doc))
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

    /// [`Workspace::internal_file`], and whether anything is at it now
    /// (`None`: nothing, not even a link): for the records and locks a read
    /// only looks for (an intent record, a lock held, the decision log), which
    /// are nearly always absent. The kernel's look answers an absent file in
    /// one system call, where the guard and a look of one's own took two or
    /// three; anything else is asked as [`Workspace::internal_file`] asks it.
    pub fn internal_file_present(&self, rel: &str) -> Result<Option<PathBuf>> {
        #[cfg(target_os = "linux")]
        if plain_names(rel, true) {
            match self.beneath(rel) {
                Some(None) => return Ok(None),
                Some(Some(rustix::fs::FileType::RegularFile)) => return Ok(Some(self.root.join(rel))),
                _ => {}
            }
        }
        let file = self.internal_file(rel)?;
        match std::fs::symlink_metadata(&file) {
            Ok(_) => Ok(Some(file)),
            // Not there, or a name nothing can have (too long, a file on the way).
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    || matches!(e.raw_os_error(), Some(libc::ENAMETOOLONG | libc::ENOTDIR)) =>
            {
                Ok(None)
            }
            Err(e) => Err(Error::io(&file)(e)),
        }
    }

    /// The text of the workspace's own file `rel` (`.cowriting/dictionary.txt`,
    /// `.cowriting/settings.toml`), read through [`Workspace::internal_file`];
    /// `None` when there is none.
    pub fn read_internal_text(&self, rel: &str) -> Result<Option<String>> {
        let file = self.internal_file(rel)?;
        match fsutil::read_regular(&file) {
            Ok(bytes) => String::from_utf8(bytes)
                .map(Some)
                .map_err(|_| Error::BadInput(format!("{} is not UTF-8 text", file.display()))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(Error::io(&file)(e)),
        }
    }

    /// Read-modify-write the workspace's own file `rel` under the lock
    /// `lock` (`what` names it to a writer kept waiting), checked against what
    /// was read before the rename: `change` answers what becomes of the text
    /// read (`None`: no file). A writer that takes no lock (a hand edit)
    /// coming in between makes it read and answer again. Answers the text as
    /// it is after.
    pub fn update_internal_text(
        &self,
        rel: &str,
        lock: &str,
        what: &str,
        mut change: impl FnMut(Option<&str>) -> Result<FileChange>,
    ) -> Result<Option<String>> {
        let _lock = self.lock_named(lock, what)?;
        let file = self.internal_file(rel)?;
        for _ in 0..crate::store::REDO_LIMIT {
            let before = self.read_internal_text(rel)?;
            let expect = fsutil::Expect::of(before.as_deref().map(str::as_bytes));
            let (written, after) = match change(before.as_deref())? {
                FileChange::Keep => return Ok(before),
                FileChange::Write(next) => (fsutil::replace(&file, next.as_bytes(), expect), Some(next)),
                FileChange::Remove => (fsutil::remove(&file, expect).map(|_| ()), None),
            };
            match written {
                Ok(()) => return Ok(after),
                Err(fsutil::WriteError::Changed) => continue,
                Err(fsutil::WriteError::Io(e)) => return Err(Error::io(&file)(e)),
            }
        }
        Err(crate::store::kept_changing(&file))
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
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::FileType;
            let plain = parts.join("/");
            match self.beneath(&plain) {
                Some(None) => return Ok(self.root.join(plain)),
                Some(Some(FileType::RegularFile)) if want == Want::File => return Ok(self.root.join(plain)),
                Some(Some(FileType::Directory)) if want == Want::Dir => return Ok(self.root.join(plain)),
                // Something there the walk refuses, and says why.
                _ => {}
            }
        }
        self.internal_walk(rel, &parts, want)
    }

    /// [`Workspace::internal`] by our own walk, one `lstat` a component.
    fn internal_walk(&self, rel: &str, parts: &[&str], want: Want) -> Result<PathBuf> {
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
        full.extend(parts);
        Ok(full)
    }

    /// A workspace at a root already canonical (as [`Workspace::root`] gives it).
    pub(crate) fn from_root(root: PathBuf) -> Workspace {
        Workspace { root }
    }

    /// The guard's walk done by the kernel, where it can answer alone: the
    /// root joined with `rel` (plain `/`-separated names, no `.` or `..`)
    /// looked up with `openat2(O_PATH | O_NOFOLLOW, RESOLVE_NO_SYMLINKS)`,
    /// which fails on a link anywhere on the way (the root's own path is
    /// canonical: no link) and walks each component once. With no link and no
    /// `..`, what it finds is beneath the root that is at the root's name now.
    /// `Some(Some(kind))`: every folder on the way real, no link, and the last
    /// component of that kind (a link itself, when it is one); `Some(None)`:
    /// the same up to a component that does not exist. `None` when the kernel
    /// cannot say alone (a link on the way, the root's path included; a file
    /// used as a folder; a name too long; no `openat2`): the walk then looks,
    /// and says what is wrong. A path is looked at in one to three system
    /// calls instead of an `lstat` a component, each of which walked the whole
    /// path from `/` again (a listing of 2,800 reviewed documents made 207,000
    /// of them).
    #[cfg(target_os = "linux")]
    fn beneath(&self, rel: &str) -> Option<Option<rustix::fs::FileType>> {
        use rustix::fs::{openat2, FileType, Mode, OFlags, ResolveFlags, CWD};
        let how = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        let flags = OFlags::PATH | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        match openat2(CWD, self.root.join(rel), flags, Mode::empty(), how) {
            Ok(fd) => {
                let st = rustix::fs::fstat(&fd).ok()?;
                Some(Some(FileType::from_raw_mode(st.st_mode)))
            }
            Err(rustix::io::Errno::NOENT) => Some(None),
            Err(_) => None,
        }
    }

    /// `rel` opened for reading by the kernel's walk alone, where it can
    /// answer for the guard: `openat2(O_RDONLY | O_NONBLOCK | O_NOFOLLOW,
    /// RESOLVE_NO_SYMLINKS)` on the root joined with it. `Some((path, file))`
    /// is the path [`Workspace::resolve`] (a `document`) or
    /// [`Workspace::internal_file`] would answer and the file open at it now,
    /// with what `fstat` says of it (`None`: nothing there), in two system
    /// calls where the guard, an open and its `fstat` took five; `None` when the kernel cannot say alone (a link on the
    /// way, a name the guard reads itself, our own file not a regular file):
    /// ask the guard.
    #[cfg(target_os = "linux")]
    pub(crate) fn open_plain(
        &self,
        rel: &str,
        document: bool,
    ) -> Option<(PathBuf, Option<(std::fs::File, std::fs::Metadata)>)> {
        use rustix::fs::{openat2, Mode, OFlags, ResolveFlags, CWD};
        if !plain_names(rel, !document) {
            return None;
        }
        let path = self.root.join(rel);
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
        let how = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        match openat2(CWD, &path, flags, Mode::empty(), how) {
            Ok(fd) => {
                let file = std::fs::File::from(fd);
                let meta = file.metadata().ok()?;
                if !document && !meta.is_file() {
                    return None;
                }
                Some((path, Some((file, meta))))
            }
            Err(rustix::io::Errno::NOENT) => Some((path, None)),
            Err(_) => None,
        }
    }

    /// The document path of a file given relative to the current directory or
    /// absolutely, when it lies inside the workspace; else parse it as a
    /// workspace-relative path.
    pub fn doc_path_for_arg(&self, arg: &str) -> Result<DocPath> {
        let as_path = Path::new(arg);
        if as_path.is_absolute() {
            // The folder resolved, the name kept: a link named is the
            // document named (the guard judges where it leads).
            let canon = match (as_path.parent(), as_path.file_name()) {
                (Some(dir), Some(name)) => dir.canonicalize().map(|d| d.join(name)),
                _ => as_path.canonicalize(),
            };
            if let Ok(canon) = canon {
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
        self.read_document_from(doc, &self.doc_file(doc)?)
    }

    /// [`Workspace::read_document`] of `doc` from `file`, the path the guard
    /// gave for it ([`Workspace::doc_file`]) a moment before.
    pub(crate) fn read_document_from(&self, doc: &DocPath, file: &Path) -> Result<Document> {
        Self::decode(doc, read_regular(self, file, doc)?)
    }

    /// [`Workspace::read_document`] of `doc` from `f`, opened at `file` through
    /// the kernel's walk ([`Workspace::open_plain`], [`open_beneath`]) and
    /// not read yet.
    pub(crate) fn read_document_open(
        &self,
        doc: &DocPath,
        f: &std::fs::File,
        file: &Path,
    ) -> Result<Document> {
        Self::decode(doc, read_open(f, file, doc)?)
    }

    fn decode(doc: &DocPath, bytes: Vec<u8>) -> Result<Document> {
        Document::from_bytes(&bytes).map_err(|source| Error::Document {
            path: doc.to_string(),
            source,
        })
    }

    /// The bytes of a document's file, read as [`Workspace::read_document`]
    /// reads them (through the guard, a regular file only, no larger than a
    /// document may be) but not decoded: for a search that decodes only the
    /// files it finds something in.
    pub fn read_document_bytes(&self, doc: &DocPath) -> Result<Vec<u8>> {
        let file = self.doc_file(doc)?;
        read_regular(self, &file, doc)
    }

    /// A reader of many documents in a row (a search over every document):
    /// the root opened once, see [`DocReader`].
    pub fn document_reader(&self) -> Result<DocReader> {
        Ok(DocReader {
            #[cfg(target_os = "linux")]
            dir: rustix::fs::open(
                &self.root,
                rustix::fs::OFlags::PATH | rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::CLOEXEC,
                rustix::fs::Mode::empty(),
            )
            .map_err(|e| Error::io(&self.root)(e.into()))?,
            ws: self.clone(),
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
            // a symlinked document is listed when the guard lets it through
            // ([`Workspace::resolve`]) to a regular file.
            if !(kind.is_file() || kind.is_symlink()) || !is_document_name(name) {
                return;
            }
            let Some(dp) = path
                .strip_prefix(&self.root)
                .ok()
                .and_then(|rel| DocPath::parse(&rel.to_string_lossy()).ok())
            else {
                return;
            };
            let regular = kind.is_file()
                || self
                    .doc_file(&dp)
                    .is_ok_and(|t| std::fs::symlink_metadata(t).is_ok_and(|m| m.is_file()));
            if regular {
                out.push(dp);
            }
        });
        out.sort();
        out
    }

    /// Whether [`Workspace::list_documents`] would list `doc` now, asked of
    /// one path (the watcher's, where a whole listing would cost a walk):
    /// every folder on the way a real, visible folder (not hidden, not
    /// `node_modules`, not a link), and the document a regular file, or a
    /// link the guard lets through to one.
    pub fn is_listed_document(&self, doc: &DocPath) -> bool {
        let rel = doc.as_str();
        let Some(name) = rel.rsplit('/').next() else {
            return false;
        };
        if !is_document_name(name) {
            return false;
        }
        let mut at = self.root.clone();
        let mut parts = rel.split('/').peekable();
        while let Some(part) = parts.next() {
            if part.starts_with('.') || part == "node_modules" {
                return false;
            }
            at.push(part);
            let Ok(meta) = std::fs::symlink_metadata(&at) else {
                return false;
            };
            if parts.peek().is_some() {
                if !meta.is_dir() {
                    return false;
                }
            } else if !meta.is_file() {
                return meta.is_symlink()
                    && self
                        .doc_file(doc)
                        .is_ok_and(|t| std::fs::symlink_metadata(t).is_ok_and(|m| m.is_file()));
            }
        }
        true
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
                let Some(rel) = path.strip_prefix(&base).ok().and_then(|r| r.to_str()) else {
                    continue;
                };
                // A folder holds the sidecars of a document folder; one at a
                // sidecar's name (`a.md.json/`) with no such document folder
                // is listed too, for `check` to report.
                let sidecar = rel
                    .strip_suffix(".json")
                    .and_then(|doc| DocPath::parse(doc).ok())
                    .filter(|_| !kind.is_dir() || !self.root.join(rel).is_dir());
                if kind.is_dir() {
                    stack.push(path.clone());
                }
                if let Some(dp) = sidecar {
                    out.push((dp, path));
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

/// The bytes of `file` (a path [`Workspace::resolve`] gave, under `ws`'s root),
/// which must be a regular file. Opened with `O_NONBLOCK` (a FIFO opens at once
/// instead of waiting for a writer) and `O_NOFOLLOW` (the path is already
/// resolved: a link swapped in meanwhile is refused), then checked on the open
/// handle, so what is read is what was checked. On Linux it is opened with
/// `openat2` from the root with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, so the
/// kernel itself refuses a link swapped in anywhere on the way after the guard
/// looked (a kernel without `openat2` gets the plain open).
fn read_regular(ws: &Workspace, file: &Path, doc: &DocPath) -> Result<Vec<u8>> {
    let f = match open_beneath(ws, file) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Error::MissingDocument {
                path: doc.to_string(),
            })
        }
        Err(e) if matches!(e.raw_os_error(), Some(libc::ELOOP | libc::EXDEV)) => {
            return Err(Error::OutsideWorkspace {
                path: doc.to_string(),
                why: "it became a symlink while being opened",
            })
        }
        Err(e) => return Err(Error::io(file)(e)),
    };
    read_open(&f, file, doc)
}

/// The bytes of `f`, opened for `doc` at `file`, when it is a regular file
/// no larger than a document may be.
fn read_open(f: &std::fs::File, file: &Path, doc: &DocPath) -> Result<Vec<u8>> {
    use std::io::Read;
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

/// Open `file` (a path the guard gave, under `ws`'s root) read-only,
/// non-blocking, never through a link: see [`read_regular`]. `openat2` with
/// `RESOLVE_NO_SYMLINKS` on the whole path (the root's is canonical, the rest
/// names no `..`), so the kernel refuses a link anywhere on the way.
pub(crate) fn open_beneath(ws: &Workspace, file: &Path) -> std::io::Result<std::fs::File> {
    #[cfg(target_os = "linux")]
    if file.starts_with(&ws.root) && !file.components().any(|c| matches!(c, Component::ParentDir)) {
        use rustix::fs::{openat2, Mode, OFlags, ResolveFlags, CWD};
        let flags = OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
        let how = ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
        let opened = match openat2(CWD, file, flags, Mode::empty(), how) {
            // A link on the way, perhaps on the root's own path (made since it
            // was opened): from the root as its name leads now, beneath it.
            Err(rustix::io::Errno::LOOP) => match file.strip_prefix(&ws.root) {
                Ok(rel) => rustix::fs::open(
                    &ws.root,
                    OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                )
                .and_then(|dir| openat2(&dir, rel, flags, Mode::empty(), how | ResolveFlags::BENEATH)),
                Err(_) => Err(rustix::io::Errno::LOOP),
            },
            other => other,
        };
        match opened {
            Ok(fd) => return Ok(std::fs::File::from(fd)),
            // No openat2 (a kernel before 5.6, or a sandbox that filters it): the plain open.
            Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM) => {}
            Err(e) => return Err(e.into()),
        }
    }
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(file)
}

/// Reads documents one after another with the guard's own last step first:
/// `openat2` from the root (opened once) with `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS`, which the kernel refuses for any path with a link on
/// the way or leading out. A [`DocPath`] names no hidden component and no
/// `..`, so a path the kernel opens that way is the path
/// [`Workspace::resolve`] would answer; only a path it refuses (a link on the
/// way), or a kernel without `openat2`, takes the guard's walk
/// ([`Workspace::read_document_bytes`]), which follows a link inside to its
/// target or refuses it. What is read is what [`Workspace::read_document_bytes`]
/// reads, with two system calls fewer per component and the root's open saved:
/// a search over 40,000 documents.
pub struct DocReader {
    #[cfg(target_os = "linux")]
    dir: rustix::fd::OwnedFd,
    ws: Workspace,
}

impl DocReader {
    /// [`Workspace::read_document_bytes`] of `doc`.
    pub fn read_bytes(&self, doc: &DocPath) -> Result<Vec<u8>> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::{openat2, Mode, OFlags, ResolveFlags};
            let flags =
                OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::NOCTTY | OFlags::CLOEXEC;
            let how = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            match openat2(&self.dir, doc.as_str(), flags, Mode::empty(), how) {
                Ok(fd) => {
                    let file = self.ws.root.join(doc.as_str());
                    return read_open(&std::fs::File::from(fd), &file, doc);
                }
                Err(rustix::io::Errno::NOENT) => {
                    return Err(Error::MissingDocument {
                        path: doc.to_string(),
                    })
                }
                // A link on the way (or no openat2): the guard's walk.
                Err(_) => {}
            }
        }
        self.ws.read_document_bytes(doc)
    }
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
        assert_eq!(ws.read_document(&alias).unwrap().flatten(), "real text\n");
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
    fn links_into_hidden_places_are_refused_whatever_leads_there() {
        use std::os::unix::fs::symlink;
        let (dir, outside, ws) = fresh();
        let d = dir.path();
        std::fs::create_dir_all(d.join(".git/hooks")).unwrap();
        std::fs::write(d.join(".git/config"), "[core]\n").unwrap();
        std::fs::create_dir_all(d.join(".cowriting")).unwrap();
        std::fs::write(d.join(".cowriting/decisions.jsonl"), "").unwrap();
        std::fs::write(d.join(".env"), "TOKEN=x\n").unwrap();
        std::fs::create_dir_all(d.join("sub/.obsidian")).unwrap();
        std::fs::write(d.join("sub/.obsidian/x.md"), "x\n").unwrap();
        std::fs::create_dir(d.join("real")).unwrap();
        std::fs::write(d.join("real/ok.md"), "ok\n").unwrap();
        std::fs::write(d.join("real/.gitattributes"), "*.md merge=x\n").unwrap();
        let root = ws.root().to_path_buf();
        for (name, target) in [
            ("notes.md", PathBuf::from(".git/config")),
            ("abs.md", root.join(".git/config")),
            ("env.md", PathBuf::from(".env")),
            ("log.md", PathBuf::from("./.cowriting/decisions.jsonl")),
            ("deep.md", PathBuf::from("real/../.git/config")),
            ("hidden.md", PathBuf::from("sub/.obsidian/x.md")),
            ("attrs.md", PathBuf::from("real/.gitattributes")),
            ("gitdir", PathBuf::from(".git")),
            ("via.md", PathBuf::from("gitdir/config")),
            ("chain.md", PathBuf::from("notes.md")),
            ("upout.md", PathBuf::from("../x.md")),
            ("outside.md", outside.path().join("x.md")),
            ("dangling.md", PathBuf::from("nothing.md")),
            ("loop1.md", PathBuf::from("loop2.md")),
            ("loop2.md", PathBuf::from("loop1.md")),
            ("dot.md", PathBuf::from(".")),
        ] {
            symlink(&target, d.join(name)).unwrap();
        }
        std::fs::write(outside.path().join("x.md"), "outside\n").unwrap();
        for doc in [
            "notes.md",
            "abs.md",
            "env.md",
            "log.md",
            "deep.md",
            "hidden.md",
            "attrs.md",
            "gitdir/hooks/pre-commit.md",
            "via.md",
            "chain.md",
            "upout.md",
            "outside.md",
            "dangling.md",
            "loop1.md",
            "dot.md",
            "sub/.obsidian/x.md",
            ".hidden.md",
        ] {
            let dp = DocPath::parse(doc).unwrap();
            let err = ws.doc_file(&dp).unwrap_err();
            assert!(matches!(err, Error::OutsideWorkspace { .. }), "{doc}: {err}");
            assert_eq!(err.code(), crate::error::ErrorCode::BadInput, "{doc}");
            assert!(ws.read_document(&dp).is_err(), "{doc}");
            assert!(
                ws.write_document(&dp, &Document::from_bytes(b"pwned").unwrap())
                    .is_err(),
                "{doc}"
            );
        }
        assert_eq!(
            std::fs::read_to_string(d.join(".git/config")).unwrap(),
            "[core]\n"
        );
        assert_eq!(std::fs::read_to_string(d.join(".env")).unwrap(), "TOKEN=x\n");
        assert!(!d.join("nothing.md").exists() && !d.join(".git/hooks/pre-commit.md").exists());
        // Ordinary links still work: to a file, through a folder link, chained.
        symlink("real", d.join("alias")).unwrap();
        symlink("real/ok.md", d.join("ok-link.md")).unwrap();
        symlink("ok-link.md", d.join("ok-chain.md")).unwrap();
        symlink(root.join("real/ok.md"), d.join("ok-abs.md")).unwrap();
        for doc in ["alias/ok.md", "ok-link.md", "ok-chain.md", "ok-abs.md"] {
            let dp = DocPath::parse(doc).unwrap();
            assert_eq!(ws.doc_file(&dp).unwrap(), root.join("real/ok.md"), "{doc}");
        }
        // A new document under a real folder is named by its own path.
        assert_eq!(
            ws.doc_file(&DocPath::parse("real/new/n.md").unwrap()).unwrap(),
            root.join("real/new/n.md")
        );
        // The listing shows only what the guard lets through.
        let listed: Vec<String> = ws.list_documents().iter().map(|d| d.to_string()).collect();
        assert_eq!(listed, ["ok-abs.md", "ok-chain.md", "ok-link.md", "real/ok.md"]);
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_folder_swapped_for_a_link_after_the_check_is_refused_at_the_open() {
        let (dir, _outside, ws) = fresh();
        let d = dir.path();
        std::fs::create_dir_all(d.join("real")).unwrap();
        std::fs::write(d.join("real/ok.md"), "ok\n").unwrap();
        std::fs::create_dir_all(d.join(".git")).unwrap();
        std::fs::write(d.join(".git/ok.md"), "secret\n").unwrap();
        let doc = DocPath::parse("real/ok.md").unwrap();
        let file = ws.doc_file(&doc).unwrap();
        // Between the guard's walk and the open, `real` becomes a link into .git.
        std::fs::rename(d.join("real"), d.join("was-real")).unwrap();
        std::os::unix::fs::symlink(".git", d.join("real")).unwrap();
        let err = read_regular(&ws, &file, &doc).unwrap_err();
        assert!(matches!(err, Error::OutsideWorkspace { .. }), "{err}");
    }

    #[test]
    fn a_trailing_slash_names_a_folder() {
        for bad in ["doc.md/", "doc.md//", "doc.md/.", "a/doc.md\\"] {
            let err = DocPath::parse(bad).unwrap_err();
            assert_eq!(err.code(), crate::error::ErrorCode::BadInput, "{bad}");
            assert!(err.to_string().contains("names a folder"), "{bad}: {err}");
        }
        assert_eq!(DocPath::parse("./a//doc.md").unwrap().as_str(), "a/doc.md");
    }

    #[test]
    fn a_folder_at_a_sidecars_name_is_listed_for_check() {
        let (dir, _outside, ws) = fresh();
        std::fs::create_dir_all(dir.path().join(".threads/a.md.json")).unwrap();
        let listed: Vec<String> = ws.list_sidecars().iter().map(|(d, _)| d.to_string()).collect();
        assert_eq!(listed, ["a.md"]);
        // A document folder named like a sidecar holds sidecars; it is not one.
        std::fs::create_dir_all(dir.path().join("b.md.json")).unwrap();
        std::fs::create_dir_all(dir.path().join(".threads/b.md.json")).unwrap();
        std::fs::write(dir.path().join(".threads/b.md.json/c.md.json"), "{}").unwrap();
        let listed: Vec<String> = ws.list_sidecars().iter().map(|(d, _)| d.to_string()).collect();
        assert_eq!(listed, ["a.md", "b.md.json/c.md"]);
    }

    /// The kernel's walk ([`Workspace::beneath`]) answers only what ours
    /// would: on random trees of folders, files, FIFOs and links (relative,
    /// absolute, inside, out, dangling, into `.threads` and `.git`, loops),
    /// every path, as a document and as cowriting's own file or folder, gets
    /// the same answer through the guard as through the walk alone; and the
    /// kernel answered most of them itself.
    #[test]
    fn the_kernels_walk_answers_as_ours_does() {
        let names = ["a", "b", "c.md", "d.md", ".threads", ".git", "e"];
        let (mut asked, mut answered, mut opened) = (0usize, 0usize, 0usize);
        for seed in 0..60u64 {
            let mut rng = fastrand::Rng::with_seed(seed);
            // The workspace three folders down in a scratch folder, so no link
            // made here (at most three `..`) reaches past the scratch folder:
            // what the tree's making writes through a link stays in it.
            let scratch = tempfile::tempdir().unwrap();
            let dir = scratch.path().join("x/y/ws");
            let outside = scratch.path().join("outside");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::create_dir_all(&outside).unwrap();
            let ws = Workspace::open(&dir).unwrap();
            let dir = ws.root().to_path_buf();
            std::fs::write(outside.join("secret.md"), "x").unwrap();
            // A path of `depth` names, a depth drawn from `depth`.
            let pick = |rng: &mut fastrand::Rng, depth: std::ops::Range<usize>| -> String {
                let depth = rng.usize(depth);
                (0..depth)
                    .map(|_| names[rng.usize(..names.len())])
                    .collect::<Vec<_>>()
                    .join("/")
            };
            for _ in 0..40 {
                let rel = pick(&mut rng, 1..4);
                let path = dir.join(&rel);
                // Never through what is there (a write to a FIFO waits for a reader).
                if std::fs::symlink_metadata(&path).is_ok() {
                    continue;
                }
                let _ = std::fs::create_dir_all(path.parent().unwrap());
                let _ = match rng.u8(..6) {
                    0 => std::fs::create_dir_all(&path),
                    1 | 2 => std::fs::write(&path, "text"),
                    3 => rustix::fs::mknodat(
                        rustix::fs::CWD,
                        &path,
                        rustix::fs::FileType::Fifo,
                        rustix::fs::Mode::from_raw_mode(0o644),
                        0,
                    )
                    .map_err(std::io::Error::from),
                    _ => {
                        let target: PathBuf = match rng.u8(..7) {
                            0 => outside.join("secret.md"),
                            1 => dir.join(pick(&mut rng, 1..3)),
                            2 => PathBuf::from("../".repeat(rng.usize(1..4))).join(pick(&mut rng, 1..2)),
                            3 => PathBuf::from("nowhere"),
                            4 => path.file_name().map(PathBuf::from).unwrap(),
                            _ => PathBuf::from(pick(&mut rng, 1..3)),
                        };
                        std::os::unix::fs::symlink(target, &path)
                    }
                };
            }
            for _ in 0..150 {
                let rel = pick(&mut rng, 1..5);
                let parts: Vec<&str> = rel.split('/').collect();
                asked += 1;
                answered += usize::from(ws.beneath(&rel).is_some());
                assert_eq!(
                    format!("{:?}", ws.resolve(&rel)),
                    format!("{:?}", ws.resolve_walk(&rel)),
                    "seed {seed}: {rel} as a document"
                );
                for want in [Want::File, Want::Dir] {
                    assert_eq!(
                        format!("{:?}", ws.internal(&rel, want)),
                        format!("{:?}", ws.internal_walk(&rel, &parts, want)),
                        "seed {seed}: {rel} as our own file or folder"
                    );
                }
                // Opened by the kernel alone: where it answers, the path the
                // walk gives, and a file open exactly when something is there.
                for (document, walk) in [
                    (true, ws.resolve_walk(&rel)),
                    (false, ws.internal_walk(&rel, &parts, Want::File)),
                ] {
                    if let Some((path, file)) = ws.open_plain(&rel, document) {
                        if let Some((_, meta)) = &file {
                            assert!(
                                document || meta.is_file(),
                                "seed {seed}: {rel} opened, not a regular file"
                            );
                        }
                        opened += 1;
                        let walked = walk
                            .unwrap_or_else(|e| panic!("seed {seed}: {rel} opened, the walk refused: {e}"));
                        assert_eq!(path, walked, "seed {seed}: {rel} (document: {document})");
                        assert_eq!(
                            file.is_some(),
                            std::fs::symlink_metadata(&walked).is_ok(),
                            "seed {seed}: {rel}"
                        );
                    }
                }
                // Whether our own file is there, as the walk and a look find it.
                let present = ws
                    .internal_walk(&rel, &parts, Want::File)
                    .map(|p| std::fs::symlink_metadata(&p).is_ok().then_some(p));
                assert_eq!(
                    format!("{:?}", ws.internal_file_present(&rel)),
                    format!("{present:?}"),
                    "seed {seed}: {rel} looked for"
                );
            }
        }
        assert!(answered * 2 > asked, "the kernel answered {answered} of {asked}");
        assert!(opened * 3 > asked, "the kernel opened {opened} of {asked} twice");
    }

    /// A root whose name leads elsewhere now (the folder moved away, another
    /// made in its place, holding a link where our own files go) is looked at
    /// as it is now: the link is refused.
    #[test]
    fn a_root_replaced_under_its_name_is_looked_at_as_it_is_now() {
        let parent = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let root = parent.path().join("notes");
        std::fs::create_dir(&root).unwrap();
        let ws = Workspace::open(&root).unwrap();
        let a = DocPath::parse("a.md").unwrap();
        assert!(ws.sidecar_file(&a).is_ok());
        std::fs::rename(&root, parent.path().join("old")).unwrap();
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join(".threads")).unwrap();
        assert!(ws.beneath(".threads/a.md.json").is_none());
        assert!(ws.sidecar_file(&a).is_err());
    }

    /// A root whose own path now passes through a link (its parent moved and
    /// linked back) still reads its documents, and still refuses a link
    /// inside it.
    #[test]
    fn a_link_on_the_roots_own_path_still_reads_beneath_it() {
        let parent = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.md"), "secret\n").unwrap();
        let home = parent.path().join("home");
        std::fs::create_dir_all(home.join("notes")).unwrap();
        std::fs::write(home.join("notes/a.md"), "mine\n").unwrap();
        let ws = Workspace::open(home.join("notes")).unwrap();
        std::fs::rename(&home, parent.path().join("moved")).unwrap();
        std::os::unix::fs::symlink(parent.path().join("moved"), &home).unwrap();
        let a = DocPath::parse("a.md").unwrap();
        assert_eq!(ws.read_document_bytes(&a).unwrap(), b"mine\n");
        std::os::unix::fs::symlink(
            outside.path().join("secret.md"),
            parent.path().join("moved/notes/b.md"),
        )
        .unwrap();
        assert!(ws.read_document_bytes(&DocPath::parse("b.md").unwrap()).is_err());
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

    /// One path asked is what the whole listing says, on a hostile tree:
    /// hidden and `node_modules` folders, links to folders and files inside
    /// and outside, a dangling link, a link into `.git`, a FIFO, a folder with
    /// a document's name, a name with a newline.
    #[test]
    fn one_path_asked_agrees_with_the_listing() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("o.md"), "x").unwrap();
        let r = dir.path();
        for d in ["a/b", ".git", ".hidden", "node_modules/p", "dir.md", "c"] {
            std::fs::create_dir_all(r.join(d)).unwrap();
        }
        for f in [
            "top.md",
            "a/one.md",
            "a/b/two.txt",
            "a/notes.rs",
            ".git/h.md",
            ".hidden/x.md",
            "node_modules/p/r.md",
            "c/line\nbreak.md",
            ".git/config",
        ] {
            std::fs::write(r.join(f), "x").unwrap();
        }
        symlink(r.join("a"), r.join("linked")).unwrap();
        symlink(outside.path(), r.join("out")).unwrap();
        symlink(r.join("a/one.md"), r.join("c/to-one.md")).unwrap();
        symlink(outside.path().join("o.md"), r.join("c/to-out.md")).unwrap();
        symlink(r.join(".git/config"), r.join("c/to-git.md")).unwrap();
        symlink(r.join("missing.md"), r.join("c/dangling.md")).unwrap();
        nix_mkfifo(&r.join("c/fifo.md"));
        let ws = Workspace::open(r).unwrap();
        let listed = ws.list_documents();
        // Every path a walk that follows everything finds, asked one by one.
        let mut asked = 0;
        let mut stack = vec![(r.to_path_buf(), 0)];
        while let Some((at, depth)) = stack.pop() {
            for e in std::fs::read_dir(&at).unwrap().flatten() {
                let path = e.path();
                let rel = path.strip_prefix(r).unwrap().to_string_lossy().into_owned();
                if path.is_dir() && depth < 3 {
                    stack.push((path.clone(), depth + 1));
                }
                let Ok(doc) = DocPath::parse(&rel) else { continue };
                asked += 1;
                assert_eq!(ws.is_listed_document(&doc), listed.contains(&doc), "{rel}");
            }
        }
        assert!(asked >= 12, "{asked}");
        let names: Vec<&str> = listed.iter().map(DocPath::as_str).collect();
        assert!(
            names.contains(&"a/one.md") && names.contains(&"c/to-one.md"),
            "{names:?}"
        );
        assert!(
            !names.contains(&"c/to-out.md") && !names.contains(&"c/to-git.md"),
            "{names:?}"
        );
    }

    fn nix_mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
        assert!(status.success());
    }
}
