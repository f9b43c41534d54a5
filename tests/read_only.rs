//! A read-only command creates no file and changes none: every read-only CLI
//! command, as text and as JSON, in a git workspace; the whole workspace
//! tree (paths, kinds, sizes and modification times, `.git/`, `.cowriting/`
//! and `.threads/` included, a folder's time changing when a name is made or
//! removed in it, a lock file's for an instant too) is the same before and
//! after each of them, in a workspace that has been written (its lock folder,
//! decision log, sidecars and pending ledger there). The MCP server's
//! read-only tools: `tests/mcp.rs`.
//!
//! And a read without the lock, beside a writer accepting 40 proposals one by
//! one, never sees a torn pair (a proposal gone with its text unchanged, or the
//! reverse).

mod common;

use common::{stat_tree, tree_changes, Ws};

const DOC: &str = "# Notes\n\nThe quick brown fox jumps over the lazy dog.\n\nA second paragraph.\n";

/// A git workspace with a decision taken, a pending proposal, a thread, and
/// documents without review data.
pub fn written() -> Ws {
    let ws = Ws::new();
    ws.write("a.md", DOC);
    ws.write("b.md", "Plain text, no review.\n");
    ws.write("sub/c.md", "Nested fox.\n");
    let id = ws.propose("a.md", "quick", "swift");
    ws.ok(&["accept", "a.md", id.trim()]);
    ws.propose("a.md", "lazy", "sleepy");
    ws.ok(&[
        "thread",
        "new",
        "a.md",
        "--find",
        "brown",
        "--body",
        "Which brown?",
    ]);
    ws.ok(&["dictionary", "add", "Cowriting"]);
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .arg("-C")
            .arg(ws.path())
            .args(args)
            .env("HOME", ws.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    git(&["init", "-q"]);
    git(&["add", "-A"]);
    git(&["commit", "-qm", "start"]);
    ws
}

/// Every read-only command of the CLI (`src/args.rs`), as text and as JSON.
pub const READ_ONLY: &[&[&str]] = &[
    &["status"],
    &["status", "a.md"],
    &["proposals", "a.md"],
    &["proposals", "b.md"],
    &["threads", "a.md"],
    &["spans", "a.md"],
    &["decisions"],
    &["decisions", "a.md"],
    &["search", "fox"],
    &["search", "nowhere at all"],
    &["inbox"],
    &["check"],
    &["authorship", "a.md"],
    &["authorship", "a.md", "--format", "agent-trace"],
    &["authorship", "a.md", "--format", "ia-annotations"],
    &["export", "a.md", "--format", "html"],
    &["export", "a.md", "--format", "html", "--with-review"],
    &["export", "a.md", "--format", "critic"],
    &["eval"],
    &["dictionary"],
];

#[test]
fn a_read_only_command_makes_and_changes_nothing_in_the_workspace() {
    let ws = written();
    let mut changed = Vec::new();
    for json in [false, true] {
        for args in READ_ONLY {
            let mut all: Vec<&str> = if json { vec!["--json"] } else { vec![] };
            all.extend_from_slice(args);
            let before = stat_tree(ws.path());
            // A time written right after the snapshot would look the same.
            std::thread::sleep(std::time::Duration::from_millis(20));
            ws.ok(&all);
            let diff = tree_changes(&before, &stat_tree(ws.path()));
            if !diff.is_empty() {
                changed.push(format!("{all:?}:\n  {}", diff.join("\n  ")));
            }
        }
    }
    assert!(
        changed.is_empty(),
        "read-only commands wrote:\n{}",
        changed.join("\n")
    );
}

/// A read without the lock still reads the document and its sidecar as a
/// pair: while another writer accepts proposals one by one (each the sidecar,
/// the pending ledger, then the document, under the lock), every read sees
/// each proposal either pending with its target in the text, or gone with its
/// replacement there — never the one without the other (a torn pair: the
/// proposal gone and the text not changed, or the text changed and the
/// proposal still there).
#[test]
fn a_lockless_read_sees_the_document_and_its_sidecar_as_a_pair() {
    use cowriting::identity::AgentClient;
    use cowriting::ops::{Ops, Propose};
    use cowriting::views::Unit;
    use cowriting::{Provenance, Store, Target, Workspace};
    const N: usize = 40;
    let tmp = tempfile::tempdir().unwrap();
    let text: String = (0..N).map(|i| format!("word{i:02}x ")).collect();
    std::fs::write(tmp.path().join("a.md"), format!("{text}\n")).unwrap();
    let ops = || {
        let store = std::sync::Arc::new(Store::new(Workspace::open(tmp.path()).unwrap()));
        Ops::new(store, Provenance::human("tester"), Unit::Byte)
    };
    let agent = AgentClient {
        name: "test".into(),
        version: "1".into(),
        sdk: "test".into(),
        model: None,
        session_id: None,
    };
    let writer = ops();
    let ids: Vec<String> = (0..N)
        .map(|i| {
            let find = format!("word{i:02}x");
            let out = writer
                .propose(Propose {
                    document: "a.md",
                    target: Target::Text {
                        text: &find,
                        occurrence: None,
                    },
                    replacement: &format!("WORD{i:02}X"),
                    agent: &agent,
                    reason: None,
                    instruction: None,
                    turn_id: None,
                })
                .unwrap();
            out.proposal.id
        })
        .collect();
    let done = std::sync::atomic::AtomicBool::new(false);
    let reads = std::thread::scope(|scope| {
        let reader = scope.spawn(|| {
            let reader = ops();
            let mut reads = 0;
            while !done.load(std::sync::atomic::Ordering::SeqCst) {
                let page = reader.read("a.md", None, None).unwrap();
                for (i, id) in ids.iter().enumerate() {
                    let pending = page.proposals.iter().any(|p| &p.id == id && p.state == cowriting::session::ProposalState::Pending);
                    let listed = page.proposals.iter().any(|p| &p.id == id);
                    let old = page.text.contains(&format!("word{i:02}x"));
                    let new = page.text.contains(&format!("WORD{i:02}X"));
                    assert!(
                        (old && pending && !new) || (new && !listed && !old),
                        "read {reads}: a torn pair for proposal {i}: text has old {old} new {new}, proposal listed {listed} pending {pending}"
                    );
                }
                reads += 1;
            }
            reads
        });
        for id in &ids {
            writer.accept("a.md", id, None, false, false).unwrap();
            // Room for lockless reads between the writes as well as during them.
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        done.store(true, std::sync::atomic::Ordering::SeqCst);
        reader.join().unwrap()
    });
    assert!(reads > 10, "only {reads} reads beside the writer");
    // And the reads made no lock file (the writer's are gone).
    let locks: Vec<_> = std::fs::read_dir(tmp.path().join(".cowriting/locks"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(locks, [std::ffi::OsString::from(".gitignore")]);
}
