//! The sample workspace (`examples/workspace/`, built into the app and the CLI)
//! written to a folder as a git repository with a short history of its own: the
//! essay growing, Claude's accepted words committed with the trailer the app's
//! hook adds (`Assisted-by` unless the writer chose otherwise), Ada's comments, Claude's and Harper's
//! suggestions still to review (their contract records in
//! `.cowriting/suggestions/`), and a sentence
//! the writer changed by hand afterwards, so one suggestion is stale. The app
//! writes it on first launch, `cowriting sample DIR` anywhere (the README's
//! tour starts there).
//!
//! The history is the same on every machine and run (the commits' author is
//! the sample's writer, Ada, and their dates are fixed), so the same commit ids
//! and the same tour output. The versions of the files before the last commit
//! are in `examples/sample-history/`.

use super::answers::{SampleGit, SampleOut};
use cowriting_git::commit::{self, Person, ScriptedCommit, WorkTree};
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::fsutil;
use std::path::Path;

macro_rules! sample {
    ($($rel:literal),* $(,)?) => {
        &[$(($rel, include_bytes!(concat!("../../../../examples/workspace/", $rel)).as_slice())),*]
    };
}

macro_rules! history {
    ($rel:literal) => {
        include_bytes!(concat!("../../../../examples/sample-history/", $rel)).as_slice()
    };
}

/// The sample's files as a writer finds them: the last commit's tree.
pub const FILES: &[(&str, &[u8])] = sample![
    "essay.md",
    "story.md",
    "notes/meeting.md",
    ".threads/essay.md.json",
    ".threads/story.md.json",
    ".threads/notes/meeting.md.json",
    ".cowriting/suggestions/essay.md.json",
    ".cowriting/suggestions/story.md.json",
    ".cowriting/suggestions/notes/meeting.md.json",
];

/// The sample's writer: the author and committer of its history (never the
/// user), the `ada@example.com` of its comments.
pub const AUTHOR: Person<'static> = Person {
    name: "Ada Marsh",
    email: "ada@example.com",
};

/// The branch the history is on.
pub const BRANCH: &str = "main";

/// Ada writes from UTC+1.
const OFFSET_MINUTES: i32 = 60;

/// One step of the history: when, what it says, and the files it changes
/// (`None`: the version of [`FILES`]).
struct Step {
    time: i64,
    message: &'static str,
    changes: &'static [(&'static str, Option<&'static [u8]>)],
}

/// The history, oldest first; the files a step does not name stay as they were.
const STEPS: &[Step] = &[
    Step {
        time: 1_795_423_212, // 2026-11-23 09:40:12 +0100
        message: "A first draft: why we write drafts",
        changes: &[("essay.md", Some(history!("essay.1.md")))],
    },
    Step {
        time: 1_795_536_165, // 2026-11-24 17:02:45 +0100
        message: "The lighthouse story, and notes from the editorial meeting",
        changes: &[
            ("story.md", Some(history!("story.2.md"))),
            ("notes/meeting.md", None),
        ],
    },
    Step {
        time: 1_795_684_530, // 2026-11-26 10:15:30 +0100
        message: "Tighten the essay's opening and the story's rhythm with Claude",
        changes: &[
            ("essay.md", Some(history!("essay.3.md"))),
            (".threads/essay.md.json", Some(history!("essay.3.json"))),
            ("story.md", None),
            (".threads/story.md.json", Some(history!("story.3.json"))),
        ],
    },
    Step {
        time: 1_795_873_683, // 2026-11-28 14:48:03 +0100
        message: "A second reader; working with a machine",
        changes: &[("essay.md", Some(history!("essay.4.md")))],
    },
    Step {
        time: 1_795_946_770, // 2026-11-29 11:06:10 +0100
        message: "Comments on the title, the second reader, the steps and the paper",
        changes: &[
            (".threads/essay.md.json", Some(history!("essay.5.json"))),
            (".threads/story.md.json", Some(history!("story.5.json"))),
            (".threads/notes/meeting.md.json", Some(history!("meeting.5.json"))),
        ],
    },
    Step {
        time: 1_796_114_120, // 2026-12-01 09:35:20 +0100
        message: "Suggestions to review: Claude's for the essay and the story, Harper's for the notes",
        changes: &[
            (".threads/essay.md.json", None),
            (".threads/story.md.json", None),
            (".threads/notes/meeting.md.json", None),
            (".cowriting/suggestions/essay.md.json", None),
            (".cowriting/suggestions/story.md.json", None),
            (".cowriting/suggestions/notes/meeting.md.json", None),
        ],
    },
    Step {
        time: 1_796_145_729, // 2026-12-01 18:22:09 +0100
        message: "The second reader: read it again",
        changes: &[("essay.md", None)],
    },
];

fn final_version(rel: &str) -> &'static [u8] {
    FILES
        .iter()
        .find(|(r, _)| *r == rel)
        .map(|(_, b)| *b)
        .unwrap_or_else(|| panic!("{rel} is not a file of the sample"))
}

/// The scripted commits: each step's whole tree.
pub fn script() -> Vec<ScriptedCommit<'static>> {
    let mut tree: Vec<(&'static str, &'static [u8])> = Vec::new();
    STEPS
        .iter()
        .map(|step| {
            for (rel, bytes) in step.changes {
                let bytes = bytes.unwrap_or_else(|| final_version(rel));
                match tree.iter_mut().find(|(r, _)| r == rel) {
                    Some(entry) => entry.1 = bytes,
                    None => tree.push((rel, bytes)),
                }
            }
            ScriptedCommit {
                files: tree.clone(),
                message: step.message,
                time: step.time,
                offset_minutes: OFFSET_MINUTES,
            }
        })
        .collect()
}

/// Write the sample workspace to `dir` (made when missing): its files and its
/// git history into a missing or empty folder. A folder that already holds the
/// sample (its `essay.md`) is never written over: the writer's changes stay,
/// and when it is not a git repository yet its history is added around the
/// files as they are (`git status` then shows the writer's changes). Any other
/// folder with files in it is refused (`exists`). When the history cannot be
/// written the files still are, and the answer's `warnings` say why.
pub fn create_sample(dir: &Path) -> Result<SampleOut> {
    std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
    let empty = std::fs::read_dir(dir).map_err(Error::io(dir))?.next().is_none();
    let is_sample = std::fs::symlink_metadata(dir.join("essay.md")).is_ok();
    if !empty && !is_sample {
        return Err(Error::Exists {
            path: dir.display().to_string(),
            what: "something other than the sample",
        });
    }
    let own_repo = || {
        let here = dir.canonicalize().ok();
        here.is_some() && cowriting_git::work_tree_of(dir) == here
    };
    let mut out = SampleOut {
        folder: dir.display().to_string(),
        written: empty,
        git: None,
        warnings: Vec::new(),
    };
    if !empty && own_repo() {
        out.git = cowriting_git::branch(dir).map(|branch| SampleGit {
            branch,
            commits: 0,
            added: false,
        });
        return Ok(out);
    }
    let work_tree = if empty { WorkTree::CheckOut } else { WorkTree::Keep };
    match commit::write_history(dir, BRANCH, AUTHOR, &script(), work_tree) {
        Ok(history) => {
            out.git = Some(SampleGit {
                branch: history.branch,
                commits: history.commits.len(),
                added: true,
            })
        }
        Err(e) => out.warnings.push(format!("the sample has no git history: {e}")),
    }
    if empty {
        // Written by the checkout; any file it did not write (the history
        // failed) is written here, none is overwritten.
        for (rel, bytes) in FILES {
            let path = dir.join(rel);
            if std::fs::symlink_metadata(&path).is_err() {
                fsutil::atomic_write(&path, bytes).map_err(Error::io(&path))?;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file under `examples/workspace/` is one of [`FILES`], so a file
    /// added there is in the sample the app and the CLI write.
    #[test]
    fn files_are_the_examples_folder() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/workspace");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    on_disk.push(
                        p.strip_prefix(&root)
                            .unwrap()
                            .to_string_lossy()
                            .replace('\\', "/"),
                    );
                }
            }
        }
        on_disk.sort();
        let mut listed: Vec<String> = FILES.iter().map(|(r, _)| (*r).to_owned()).collect();
        listed.sort();
        assert_eq!(on_disk, listed);
    }

    #[test]
    fn the_last_commit_is_the_sample() {
        let script = script();
        let mut last = script.last().unwrap().files.clone();
        last.sort();
        let mut files = FILES.to_vec();
        files.sort();
        assert_eq!(last, files);
        assert!(
            script.windows(2).all(|w| w[0].time < w[1].time),
            "in order of time"
        );
    }
}
