//! Git integration: a merge driver for sidecars, `cowriting git install`, the
//! `prepare-commit-msg` hook that credits agents with `Co-authored-by` trailers,
//! and what the app shows of a repository ([`branch`], [`work_tree_of`]).
//!
//! # Modules
//!
//! One concept a module; every public item is re-exported here, under the path
//! it always had (`cowriting_git::merge_sidecars`, `cowriting::gitops::install`, …).
//!
//! | module | what it holds |
//! | --- | --- |
//! | `merge` | the sidecar merge driver: [`merge_sidecars`], [`run_merge_driver`] |
//! | `install` | `cowriting git install`: [`install()`], the hook script and the driver's config |
//! | `trailers` | the `prepare-commit-msg` hook's trailers crediting agents (`Assisted-by`, `Co-authored-by` or none): [`prepare_commit_msg`], [`add_trailers`] |
//! | [`commit`] | commits cowriting makes itself (the sample's scripted history) |
//! | (this root) | what the app shows of a repository ([`branch`], [`work_tree_of`]) and the git helpers the modules share |
//!
//! # Merging sidecars (`cowriting merge-sidecar %O %A %B %P`)
//!
//! Git merges a sidecar as text and so conflicts whenever both branches appended
//! to the same array. [`merge_sidecars`] merges the three versions (base, ours,
//! theirs) as records instead. Every side is parsed by [`cowriting_core::model`] first; a
//! side that does not parse, or has a newer `schemaVersion`, stops the driver with
//! a non-zero exit and leaves `%A` untouched, so git reports an ordinary conflict.
//! The result is written through [`cowriting_core::model::serialize_artifact`]: canonical,
//! unknown fields kept.
//!
//! The rules:
//!
//! - **Base missing** (`%O` empty, both branches created the sidecar): every record
//!   counts as added; a record both sides added with one id is merged field by
//!   field with no base, so a field they disagree on is a both-sides change.
//! - **Records by id.** Proposals, threads, the comments of a thread, attributions
//!   and anchors are matched by id (anchors by their key). A record one side added is
//!   kept. A record one side removed while the other left it untouched is removed.
//! - **Removed on one side, changed on the other**: for a *proposal* the removal
//!   wins — removing a proposal means accepting or rejecting it, and a decision
//!   stands (INV-13); for an *attribution* the removal wins too (attributions are
//!   rebuilt from the text at every save, so on the removing side that span is
//!   gone); for a *thread* or a *comment* the change wins (a conversation someone
//!   added to is not dropped). Each such case is reported.
//! - **Changed on both sides**: a record is merged field by field (its unknown
//!   fields too, recursively through objects), so two changes to different fields
//!   both survive. A thread's `comments` are merged by comment id with the same
//!   rules. A field both sides set to different values is resolved by a rule that
//!   depends only on the values, never on which branch is "ours", so merging A
//!   into B and B into A give the same sidecar:
//!   - a thread's `status`: `"open"` wins (an unresolved conversation stays visible);
//!   - an anchor's `fingerprint.lineHint`: both moves are applied,
//!     `ours + theirs − base` (lines inserted above it on each side add up), or the
//!     larger one without a base;
//!   - anything else (including a whole `author`, which is never mixed): the value
//!     that is greater in canonical JSON (RFC 8785) byte order — for timestamps the
//!     later one.
//!
//!   Each resolved field is reported: which record, which field, which side won, why.
//! - **Anchors follow their records**: every anchor a kept record references is
//!   kept (from whichever side has it, merged field by field when both changed it),
//!   and every other anchor is pruned, as [`cowriting_workspace::Store`] does. A fingerprint whose
//!   `text` both sides changed may end up with the context of the other side; the
//!   resolve ladder never places an anchor on text that differs, so the worst case
//!   is an orphaned anchor, never a wrong one.
//! - **Attributions** are merged by id like any record. Spans of the two branches
//!   may now overlap; the next load anchors each record against the merged text
//!   and the next save rewrites them as non-overlapping spans.
//! - **Order**: records the base had come first, in the base's order; records new
//!   on either side follow, sorted by `createdAt` (a thread by its first comment's)
//!   and then id. Inside a merged object, unknown keys keep the base's order, then
//!   ours' new keys, then theirs' — the one place where the side can change the
//!   output (the order of unknown keys that both sides newly added).
//!
//! # `cowriting git install`
//!
//! [`install`] writes `.threads/**/*.json merge=cowriting-sidecar` to the
//! workspace's `.gitattributes` (once), sets `merge.cowriting-sidecar.name` and
//! `.driver` in the repository's own config, and installs a `prepare-commit-msg`
//! hook in the hooks folder (`core.hooksPath` when set). A hook cowriting did not
//! write (no [`HOOK_MARKER`] line) is never touched. Running it again changes
//! nothing.
//!
//! # Trailers (`cowriting git hook prepare-commit-msg <msgfile> [<source>]`)
//!
//! [`prepare_commit_msg`] looks at the staged documents (HEAD tree → index; the
//! empty tree before the first commit), computes the text each one adds (a word
//! diff of the HEAD and staged versions), resolves the attributions of the staged
//! sidecar against the staged text, and credits every agent whose span overlaps
//! added text with one trailer ([`agent_trailer`]: `Assisted-by: claude:<model>` by
//! default; `Co-authored-by` or none as the repository's `git config
//! cowriting.trailer` or the user's `[git] trailer` says, [`trailer_style`]).
//! Rule checkers (Harper, Vale) are never credited. A document's sidecar is the
//! nearest `<dir>/.threads/<rest>.json` in the index, so a workspace anywhere in the
//! repository is found. Merge commits (`source` = `merge`) are skipped: the merged
//! branch's commits already carry their trailers; squashes and amends are not.
//! Trailers are placed as `git interpret-trailers` places them ([`add_trailers`]);
//! one already there (same address) is not added again. When the message has no
//! text yet (`git commit` about to open an editor) the trailers are written as
//! comment lines to uncomment instead: a trailer alone would turn an editor session
//! left empty into a commit, where git would otherwise abort it. The hook never
//! blocks a commit: problems are warnings.

pub mod commit;
mod install;
mod merge;
mod trailers;

pub use install::{
    driver_command, hook_script, install, set_trailer_style, InstallReport, ATTRIBUTES_LINE, DRIVER_NAME,
    HOOK_MARKER, LEDGER_ATTRIBUTES_LINES,
};
pub use merge::{merge_sidecars, run_merge_driver, MergeError, MergeNote, Merged, Winner};
pub use trailers::{
    add_trailers, agent_trailer, co_author_trailer, prepare_commit_msg, run_prepare_commit_msg,
    staged_co_authors, trailer_style, writes_text, HookReport, Trailered, RULE_CHECKERS,
};

use cowriting_workspace::error::{Error, Result};
use std::path::{Path, PathBuf};

pub(crate) fn git_err(what: &str) -> impl FnOnce(git2::Error) -> Error + '_ {
    move |e| Error::BadInput(format!("{what}: {}", e.message()))
}

pub(crate) fn open_repo(dir: &Path) -> Result<git2::Repository> {
    git2::Repository::discover(dir).map_err(|e| {
        Error::BadInput(format!(
            "{}: not inside a git repository ({})",
            dir.display(),
            e.message()
        ))
    })
}

/// The current branch's short name of the repository `dir` is in, or a short
/// commit id when its HEAD is detached; `None` outside a repository or before
/// the first commit.
pub fn branch(dir: &Path) -> Option<String> {
    let repo = git2::Repository::discover(dir).ok()?;
    let head = repo.head().ok()?;
    if head.is_branch() {
        return head.shorthand().map(str::to_owned);
    }
    head.target().map(|oid| oid.to_string()[..7].to_owned())
}

/// The commit `HEAD` names in the repository `dir` is in (40 hex digits),
/// and `dir`'s path inside its work tree (`""` at the top, else ending in
/// `/`); `None` outside a repository, in a bare one or before the first commit.
pub fn head_commit(dir: &Path) -> Option<(String, String)> {
    let repo = git2::Repository::discover(dir).ok()?;
    let commit = repo.head().ok()?.peel_to_commit().ok()?.id().to_string();
    let top = repo.workdir()?.canonicalize().ok()?;
    let here = dir.canonicalize().ok()?;
    let prefix = here.strip_prefix(&top).ok()?;
    let mut prefix: String = prefix
        .iter()
        .map(|c| c.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    Some((commit, prefix))
}

/// Whether `bytes` are what the commit at `HEAD` of the repository `dir` is in
/// holds at `path` (from the work tree's top, `/`-separated): a file
/// committed as it is.
pub fn committed_as(dir: &Path, path: &str, bytes: &[u8]) -> bool {
    let Ok(repo) = git2::Repository::discover(dir) else {
        return false;
    };
    let Ok(tree) = repo.head().and_then(|h| h.peel_to_tree()) else {
        return false;
    };
    let Ok(entry) = tree.get_path(Path::new(path)) else {
        return false;
    };
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes).is_ok_and(|oid| oid == entry.id())
}

/// The work tree of the repository `dir` is in (canonical), if any.
pub fn work_tree_of(dir: &Path) -> Option<PathBuf> {
    git2::Repository::discover(dir)
        .ok()
        .and_then(|repo| repo.workdir().and_then(|w| w.canonicalize().ok()))
}
