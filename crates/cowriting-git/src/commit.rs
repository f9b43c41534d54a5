//! Commits cowriting makes itself: a scripted history written into a new
//! repository (the sample workspace's, [`write_history`]), each commit carrying
//! the trailers the `prepare-commit-msg` hook would add to it
//! ([`crate::staged_co_authors`], [`crate::add_trailers`]), so the history reads
//! as the app's git integration writes it. In process (git2): no `git` needed.
//!
//! A commit's author, committer and date are the script's, never the user's,
//! so the same script gives the same commit ids on every machine and run.

use crate::{add_trailers, git_err, staged_co_authors};
use cowriting_workspace::error::{Error, Result};
use std::path::Path;

/// Who made the scripted commits (author and committer).
#[derive(Clone, Copy, Debug)]
pub struct Person<'a> {
    pub name: &'a str,
    pub email: &'a str,
}

/// One commit of a scripted history.
#[derive(Clone, Debug)]
pub struct ScriptedCommit<'a> {
    /// The whole tree: every file (path with `/`, bytes), not only the changed ones.
    pub files: Vec<(&'a str, &'a [u8])>,
    /// The message without trailers; the ones the hook would add are appended.
    pub message: &'a str,
    /// Seconds since the Unix epoch.
    pub time: i64,
    /// The author's offset from UTC, in minutes.
    pub offset_minutes: i32,
}

/// What to do with the work tree once the history is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkTree {
    /// The folder holds nothing yet: check the last commit out into it.
    CheckOut,
    /// The folder already holds the files (perhaps changed by the writer): write
    /// none, only the index (as the last commit), so `git status` shows the
    /// writer's changes as changes.
    Keep,
}

/// The history written: the branch and the commit ids, oldest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    pub branch: String,
    pub commits: Vec<String>,
}

/// Make `dir` a new git repository on `branch` with `commits` as its history.
/// Refused (`exists`) when `dir` is a repository already; nothing outside
/// `dir/.git` is written except by [`WorkTree::CheckOut`].
pub fn write_history(
    dir: &Path,
    branch: &str,
    who: Person<'_>,
    commits: &[ScriptedCommit<'_>],
    work_tree: WorkTree,
) -> Result<History> {
    if git2::Repository::open(dir).is_ok() {
        return Err(Error::Exists {
            path: dir.display().to_string(),
            what: "a git repository",
        });
    }
    let mut opts = git2::RepositoryInitOptions::new();
    opts.initial_head(branch).no_reinit(true).mkdir(false);
    let repo = git2::Repository::init_opts(dir, &opts).map_err(git_err("git init"))?;
    let mut ids = Vec::with_capacity(commits.len());
    for c in commits {
        ids.push(commit(&repo, who, c)?.to_string());
    }
    match work_tree {
        WorkTree::CheckOut => repo
            .checkout_head(Some(git2::build::CheckoutBuilder::new().force()))
            .map_err(git_err("git checkout"))?,
        WorkTree::Keep => {
            let tree = repo
                .head()
                .and_then(|h| h.peel_to_tree())
                .map_err(git_err("git HEAD"))?;
            let mut index = repo.index().map_err(git_err("git index"))?;
            index.read_tree(&tree).map_err(git_err("git read-tree"))?;
            index.write().map_err(git_err("git index"))?;
        }
    }
    Ok(History {
        branch: branch.to_owned(),
        commits: ids,
    })
}

/// One commit on HEAD: `c.files` as the tree, the hook's trailers added.
fn commit(repo: &git2::Repository, who: Person<'_>, c: &ScriptedCommit<'_>) -> Result<git2::Oid> {
    let mut index = git2::Index::new().map_err(git_err("git index"))?;
    for (path, bytes) in &c.files {
        let id = repo.blob(bytes).map_err(git_err(path))?;
        let path = path.as_bytes().to_vec();
        index
            .add(&git2::IndexEntry {
                ctime: git2::IndexTime::new(0, 0),
                mtime: git2::IndexTime::new(0, 0),
                dev: 0,
                ino: 0,
                mode: 0o100644,
                uid: 0,
                gid: 0,
                file_size: u32::try_from(bytes.len()).unwrap_or(u32::MAX),
                id,
                flags: u16::try_from(path.len()).unwrap_or(0xfff).min(0xfff),
                flags_extended: 0,
                path,
            })
            .map_err(git_err("git add"))?;
    }
    let tree_id = index.write_tree_to(repo).map_err(git_err("git write-tree"))?;
    let tree = repo.find_tree(tree_id).map_err(git_err("git write-tree"))?;
    let (trailers, _warnings) = staged_co_authors(repo, &index)?;
    let message = add_trailers(&format!("{}\n", c.message.trim_end()), &trailers, '#').text;
    let when = git2::Time::new(c.time, c.offset_minutes);
    let sig = git2::Signature::new(who.name, who.email, &when).map_err(git_err("git signature"))?;
    let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    repo.commit(Some("HEAD"), &sig, &sig, &message, &tree, &parents)
        .map_err(git_err("git commit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADA: Person<'static> = Person {
        name: "Ada",
        email: "ada@example.com",
    };

    const SIDECAR: &str = r#"{
  "schemaVersion": 1,
  "docPath": "a.md",
  "anchors": {
    "a_1": { "fingerprint": { "text": "brisk", "before": "A ", "after": " walk.\n", "lineHint": 0 } }
  },
  "threads": [],
  "attributions": [
    { "id": "at_1", "anchorId": "a_1", "author": { "kind": "agent", "id": "claude", "agent": { "model": "claude-x" } },
      "createdAt": "2026-01-01T00:00:00.000Z" }
  ],
  "proposals": []
}
"#;

    fn script() -> Vec<ScriptedCommit<'static>> {
        vec![
            ScriptedCommit {
                files: vec![("a.md", b"A walk.\n")],
                message: "First",
                time: 1_700_000_000,
                offset_minutes: 60,
            },
            ScriptedCommit {
                files: vec![
                    ("a.md", b"A brisk walk.\n"),
                    (".threads/a.md.json", SIDECAR.as_bytes()),
                ],
                message: "Claude's word",
                time: 1_700_000_600,
                offset_minutes: 60,
            },
        ]
    }

    #[test]
    fn the_same_script_gives_the_same_commits_with_the_hooks_trailers() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let h = write_history(a.path(), "main", ADA, &script(), WorkTree::CheckOut).unwrap();
        let h2 = write_history(b.path(), "main", ADA, &script(), WorkTree::CheckOut).unwrap();
        assert_eq!(h, h2, "identical across runs");
        let repo = git2::Repository::open(a.path()).unwrap();
        let head = repo.head().unwrap();
        assert_eq!(head.shorthand(), Some("main"));
        let last = head.peel_to_commit().unwrap();
        assert_eq!(
            last.message(),
            Some("Claude's word\n\nAssisted-by: claude:claude-x\n")
        );
        assert_eq!(last.author().email(), Some("ada@example.com"));
        assert_eq!(
            last.parent(0).unwrap().message(),
            Some("First\n"),
            "human words only"
        );
        assert_eq!(
            std::fs::read_to_string(a.path().join("a.md")).unwrap(),
            "A brisk walk.\n"
        );
        let statuses = repo.statuses(None).unwrap();
        assert!(statuses.is_empty(), "checked out clean");
        // A repository already there is never written over.
        let again = write_history(a.path(), "main", ADA, &script(), WorkTree::CheckOut);
        assert!(matches!(again, Err(Error::Exists { .. })), "{again:?}");
    }

    #[test]
    fn keep_leaves_the_files_and_shows_their_changes() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.md"), "A brisk walk. Mine.\n").unwrap();
        write_history(dir.path(), "main", ADA, &script(), WorkTree::Keep).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.md")).unwrap(),
            "A brisk walk. Mine.\n",
            "the writer's text kept"
        );
        let repo = git2::Repository::open(dir.path()).unwrap();
        let st = repo.status_file(Path::new("a.md")).unwrap();
        assert!(st.contains(git2::Status::WT_MODIFIED), "{st:?}");
        let st = repo.status_file(Path::new(".threads/a.md.json")).unwrap();
        assert!(st.contains(git2::Status::WT_DELETED), "{st:?}");
    }
}
