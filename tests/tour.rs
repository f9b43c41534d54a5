//! The README's tour of the CLI runs as written and says what the README shows
//! (`scripts/tour.sh` runs its ```` ```sh tour ```` blocks with this build's
//! `cowriting` first on `PATH`, as `make tour` does): the sample's git history,
//! `eval` after the tour's decisions, an `Assisted-by` trailer only on the
//! commits that add Claude's words; it leaves nothing behind (its workspace,
//! and the document it deletes, in a scratch folder it removes — never the
//! writer's trash). And the sample written again over a copy the writer
//! changed overwrites nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const CLI: &str = env!("CARGO_BIN_EXE_cowriting");
const CLAUDE: &str = "Assisted-by: claude:claude-sonnet-4-5";

/// A HOME, TMPDIR, config and trash of the test's own; git names the writer.
struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let dir = tempfile::tempdir().unwrap();
        for d in ["home", "tmp", "config", "data"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        std::fs::write(
            dir.path().join("home/.gitconfig"),
            "[user]\n\temail = writer@example.com\n\tname = Writer\n",
        )
        .unwrap();
        Env { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("HOME", self.path("home"))
            .env("TMPDIR", self.path("tmp"))
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_DATA_HOME", self.path("data"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("USER", "tester")
            .env_remove("COWRITING_CONFIG")
            .env_remove("COWRITING_TOUR_KEEP")
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE");
        c
    }

    fn run(&self, program: &str, dir: &Path, args: &[&str]) -> Output {
        self.command(program)
            .current_dir(dir)
            .args(args)
            .output()
            .unwrap()
    }

    fn ok(&self, program: &str, dir: &Path, args: &[&str]) -> String {
        let out = self.run(program, dir, args);
        assert!(
            out.status.success(),
            "{program} {args:?} in {}: {}\n{}",
            dir.display(),
            text(&out.stdout),
            text(&out.stderr)
        );
        text(&out.stdout)
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The README's fenced block whose info string is `info` (`text tour-eval`).
fn readme_block(info: &str) -> String {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let open = format!("```{info}\n");
    let start = readme
        .find(&open)
        .unwrap_or_else(|| panic!("README.md has no ```{info} block"))
        + open.len();
    let end = start + readme[start..].find("```").unwrap();
    readme[start..end].to_owned()
}

/// Each commit of HEAD's history, newest first: (subject, author, body).
fn log(env: &Env, ws: &Path) -> Vec<(String, String, String)> {
    env.ok("git", ws, &["log", "--format=%s%x1f%an <%ae>%x1f%b%x1e"])
        .split('\x1e')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(|c| {
            let mut f = c.split('\x1f');
            let mut next = || f.next().unwrap_or_default().trim().to_owned();
            (next(), next(), next())
        })
        .collect()
}

/// Every file under `dir` but `.git/`, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.file_name().is_some_and(|n| n == ".git") {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

#[test]
fn the_readme_tour_runs_as_written_and_tells_its_story() {
    let env = Env::new();
    // Kept, to be read below; `make tour` removes it (the next test).
    let tour = env
        .command("bash")
        .current_dir(ROOT)
        .args(["scripts/tour.sh", CLI])
        .env("COWRITING_TOUR_KEEP", "1")
        .output()
        .unwrap();
    let (stdout, stderr) = (text(&tour.stdout), text(&tour.stderr));
    assert!(
        tour.status.success(),
        "the tour stopped ({:?}):\n{stdout}\n{stderr}",
        tour.status
    );
    let ws = stdout
        .lines()
        .find_map(|l| l.strip_prefix("The sample workspace is in "))
        .and_then(|l| l.split_once(": a git repository"))
        .map(|(dir, _)| PathBuf::from(dir))
        .unwrap_or_else(|| panic!("the tour did not write the sample into a git repository:\n{stdout}"));
    assert!(ws.starts_with(env.path("tmp")), "a new temporary folder");
    // The tour's own scratch folder: TMPDIR (the workspace) and XDG_DATA_HOME (the
    // trash `cowriting delete` moved drafts/opening.md to) are both in it.
    let scratch = ws.parent().and_then(Path::parent).unwrap();
    assert!(
        scratch.join("data/Trash/files/opening.md").is_file(),
        "the deleted document is in the tour's own trash"
    );
    assert!(
        stderr.contains(&format!(
            "tour: kept its workspace and trash in {}",
            scratch.display()
        )),
        "{stderr}"
    );

    // What the README shows is what the tour printed.
    for block in ["text tour-git-log", "text tour-eval"] {
        let shown = readme_block(block);
        assert!(
            stdout.contains(&shown),
            "README's ```{block} is not what the tour printed:\n{shown}\n--- the tour:\n{stdout}"
        );
    }
    // Every step ran: the stale accept refused with exit 3 (and nothing else).
    assert_eq!(
        stderr.matches("cowriting: error:").count(),
        1,
        "one refusal only:\n{stderr}"
    );
    assert!(stderr.contains("is stale"), "{stderr}");

    // The history: Ada's seven commits, then the tour's two (the writer's);
    // Assisted-by only where Claude's words were added.
    let history = log(&env, &ws);
    let subjects: Vec<&str> = history.iter().map(|c| c.0.as_str()).collect();
    let documented: Vec<String> = readme_block("text tour-git-log")
        .lines()
        .map(|l| l.split_once("  ").unwrap().1.to_owned())
        .collect();
    assert_eq!(
        subjects[..2],
        [
            "Spelling in the notes; a comment on the second reader",
            "Review Claude's suggestions"
        ]
    );
    assert_eq!(
        subjects[2..],
        documented.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    for (subject, author, body) in &history {
        let by_ada = subjects[2..].contains(&subject.as_str());
        let expected = if by_ada {
            "Ada Marsh <ada@example.com>"
        } else {
            "Writer <writer@example.com>"
        };
        assert_eq!(author, expected, "{subject}");
        let claude = subject.contains("with Claude") || subject == "Review Claude's suggestions";
        assert_eq!(body.contains(CLAUDE), claude, "{subject}: {body:?}");
        assert!(claude || !body.contains("Assisted-by"), "{subject}: {body:?}");
    }

    // The decisions and the ledger tell the tour's story.
    let decisions = std::fs::read_to_string(ws.join(".cowriting/decisions.jsonl")).unwrap();
    let lines: Vec<serde_json::Value> = decisions
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // The tour renames a new, empty document: no decision to carry, so the
    // shared log has no rename line (and the tour leaves nothing uncommitted).
    assert!(lines.iter().all(|v| v.get("renamed").is_none()), "{decisions}");
    let outcomes: Vec<String> = lines
        .iter()
        .map(|v| {
            format!(
                "{} {}",
                v["docId"].as_str().unwrap(),
                v["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            "essay.md accepted",
            "essay.md changed",
            "essay.md rejected",
            "essay.md rejected",
            "story.md accepted",
            "notes/meeting.md accepted",
            "notes/meeting.md rejected",
        ]
    );
    let status = env.ok("git", &ws, &["status", "--porcelain"]);
    assert_eq!(status, "", "the tour committed everything it changed");

    // The same history on every run: the sample written again elsewhere has the
    // same commits.
    let again = env.path("tmp/again");
    env.ok(CLI, Path::new(ROOT), &["sample", again.to_str().unwrap()]);
    assert_eq!(
        env.ok("git", &again, &["rev-parse", "HEAD"]),
        env.ok("git", &ws, &["rev-parse", "HEAD~2"]),
    );
}

#[test]
fn the_tour_leaves_nothing_behind() {
    let env = Env::new();
    let tour = env.run("bash", Path::new(ROOT), &["scripts/tour.sh", CLI]);
    assert!(
        tour.status.success(),
        "the tour stopped ({:?}):\n{}",
        tour.status,
        text(&tour.stderr)
    );
    assert!(
        text(&tour.stdout).contains("The sample workspace is in "),
        "{}",
        text(&tour.stdout)
    );
    // Its workspace, its script and the document it deleted are gone: nothing
    // in TMPDIR, nothing in the writer's trash (XDG_DATA_HOME or ~/.local/share).
    let left: Vec<_> = std::fs::read_dir(env.path("tmp"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    assert!(!env.path("data/Trash").exists(), "the writer's trash was used");
    assert!(
        !env.path("home/.local/share/Trash").exists(),
        "the writer's trash was used"
    );
}

#[test]
fn the_sample_written_again_overwrites_nothing() {
    let env = Env::new();
    let tmp = env.path("tmp");
    let ws = env.path("tmp/sample");
    let ws_arg = ws.to_str().unwrap();
    env.ok(CLI, &tmp, &["sample", ws_arg]);
    assert_eq!(
        env.ok("git", &ws, &["status", "--porcelain"]),
        "",
        "clean as written"
    );
    assert_eq!(env.ok("git", &ws, &["branch", "--show-current"]).trim(), "main");

    // The writer's changes: an edit, a new document, a decision.
    let essay = format!(
        "{}\nMy own last line.\n",
        std::fs::read_to_string(ws.join("essay.md")).unwrap()
    );
    std::fs::write(ws.join("essay.md"), &essay).unwrap();
    std::fs::write(ws.join("mine.md"), "Mine.\n").unwrap();
    let before = files(&ws);
    let out = env.ok(CLI, &tmp, &["sample", ws_arg]);
    assert!(out.contains("nothing of it was overwritten"), "{out}");
    assert_eq!(files(&ws), before, "nothing changed");
    assert_eq!(env.ok("git", &ws, &["log", "--format=%h"]).lines().count(), 7);

    // A copy from before the sample had a history (no .git): the history is
    // added around the files as the writer left them.
    let old = env.path("tmp/old");
    std::fs::create_dir_all(&old).unwrap();
    let copy = env.run(
        "cp",
        &tmp,
        &[
            "-R",
            &format!("{ROOT}/examples/workspace/."),
            old.to_str().unwrap(),
        ],
    );
    assert!(copy.status.success());
    std::fs::write(old.join("essay.md"), &essay).unwrap();
    let before = files(&old);
    let out = env.ok(CLI, &tmp, &["--json", "sample", old.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["written"], false);
    assert_eq!(v["git"]["added"], true);
    assert_eq!(v["git"]["commits"], 7);
    assert_eq!(files(&old), before, "the writer's files as they were");
    assert_eq!(
        env.ok("git", &old, &["status", "--porcelain"]),
        " M essay.md\n",
        "the writer's change shows as a change"
    );
    // Git integration works on it.
    env.ok(CLI, &old, &["git", "install"]);
    env.ok("git", &old, &["commit", "-q", "-am", "My last line"]);
    assert_eq!(
        env.ok("git", &old, &["show", "-s", "--format=%B"]),
        "My last line\n\n"
    );

    // Any other folder with files in it is refused, and nothing is written.
    let other = env.path("tmp/other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("notes.md"), "Notes.\n").unwrap();
    let out = env.run(CLI, &tmp, &["sample", other.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("nothing was changed"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(files(&other).len(), 1);
    assert!(!other.join(".git").exists());
}
