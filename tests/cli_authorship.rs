//! `cowriting authorship`: who wrote how much of a document, by the real CLI
//! (MCP's `authorship` gives the same answer: `tests/mcp.rs`). An accepted
//! proposal is the agent's, with its model; counts per section; the decisions
//! accepted, accepted with changes and rejected.
//!
//! The exports against golden files in `tests/fixtures/authorship/`: Agent
//! Trace, validated against its published JSON Schema (vendored there) by a
//! validator of the keywords it uses, its content hashes recomputed, `vcs` and
//! the path from the top of a git repository; iA Writer's annotations round-
//! tripped (exported, imported into a bare copy, into the document they came
//! from (nothing changes) and from the end of the document itself: the same
//! spans, the same export), iA Writer's own example read, and a hash that does
//! not fit refused with every file byte-identical.

mod common;
use common::Ws;

#[test]
fn authorship_counts_each_author_per_section_and_the_decisions() {
    let ws = Ws::new();
    ws.write(
        "d.md",
        "Intro line here.\n# One\nThe quick fox jumps.\n## Two\nA slow dog sleeps.\n",
    );
    let propose = |find: &str, replace: &str, model: &str| {
        ws.ok(&[
            "propose",
            "d.md",
            "--find",
            find,
            "--replace",
            replace,
            "--model",
            model,
        ])
        .trim()
        .to_owned()
    };
    let quick = propose("quick", "nimble", "claude-x");
    let slow = propose("slow", "lazy", "claude-y");
    let fox = propose("fox", "cat", "claude-x");
    ws.ok(&["accept", "d.md", &quick]);
    ws.ok(&["accept", "d.md", &slow, "--with", "sleepy"]);
    ws.ok(&["reject", "d.md", &fox]);

    let out = ws.json(&["authorship", "d.md"]);
    let text = std::fs::read_to_string(ws.path().join("d.md")).unwrap();
    assert_eq!(out["total"], text.chars().count());
    let by = out["byAuthor"].as_array().unwrap();
    let sum: u64 = by.iter().map(|a| a["chars"].as_u64().unwrap()).sum();
    assert_eq!(sum, text.chars().count() as u64, "{out}");
    let agent = by
        .iter()
        .find(|a| a["kind"] == "agent" && a["model"] == "claude-x")
        .unwrap_or_else(|| panic!("the accepted words are the agent's: {out}"));
    assert_eq!(
        (agent["chars"].as_u64(), agent["words"].as_u64()),
        (Some(6), Some(1))
    );
    assert!(by.iter().any(|a| a["kind"] == "unknown"), "{out}");
    assert_eq!(
        out["decisions"],
        serde_json::json!({ "accepted": 1, "changed": 1, "rejected": 1 })
    );
    let sections = out["sections"].as_array().unwrap();
    let heads: Vec<_> = sections
        .iter()
        .map(|s| (s["heading"].clone(), s["line"].clone()))
        .collect();
    assert_eq!(
        heads,
        [
            (serde_json::Value::Null, serde_json::json!(1)),
            (serde_json::json!("One"), serde_json::json!(2)),
            (serde_json::json!("Two"), serde_json::json!(4)),
        ]
    );
    let per: u64 = sections.iter().map(|s| s["total"].as_u64().unwrap()).sum();
    assert_eq!(per, text.chars().count() as u64);
    let one = &sections[1]["byAuthor"];
    assert!(
        one.as_array().unwrap().iter().any(|a| a["model"] == "claude-x"),
        "{one}"
    );

    let human = ws.ok(&["authorship", "d.md"]);
    assert!(
        human.starts_with(&format!("d.md: {} characters", text.chars().count())),
        "{human}"
    );
    assert!(
        human.contains("Decisions: 1 accepted, 1 accepted with changes, 1 rejected"),
        "{human}"
    );
    assert!(human.contains("line 2: # One:"), "{human}");
}

// ---- exports: Agent Trace and iA Writer's Markdown Annotations; iA's import ----

use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/authorship")
        .join(name)
}

/// Compare `got` with the golden file `name` (written when `COWRITING_WRITE_GOLDEN` is set).
fn golden(name: &str, got: &str) {
    let path = fixture(name);
    if std::env::var_os("COWRITING_WRITE_GOLDEN").is_some() {
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(got, want, "{name} differs from its golden file");
}

/// `essay.md` with its history replayed: two Claude models' and another
/// agent's proposals accepted, one accepted with the writer's own words; the
/// rest from before tracking. Its text holds multi-char graphemes (a
/// combining accent, an emoji with a skin tone) and CJK before the later spans.
fn essay() -> Ws {
    let ws = Ws::new();
    ws.write("essay.md", std::fs::read(fixture("essay.md")).unwrap());
    let accept = |find: &str, replace: &str, model: &str, agent: &str, with: Option<&str>| {
        let id = ws.ok(&[
            "propose",
            "essay.md",
            "--find",
            find,
            "--replace",
            replace,
            "--model",
            model,
            "--agent",
            agent,
        ]);
        let mut args = vec!["accept", "essay.md", id.trim()];
        if let Some(w) = with {
            args.extend(["--with", w]);
        }
        ws.ok(&args);
    };
    accept("quiet", "still", "claude-sonnet-4-5", "claude", None);
    accept(
        "Coffee was strong",
        "The coffee was bitter and strong",
        "claude-opus-4-1",
        "claude",
        None,
    );
    accept("友人", "仲間", "gpt-4o", "codex", None);
    accept(
        "Evening came slowly.",
        "Evening came early.",
        "claude-sonnet-4-5",
        "claude",
        Some("Night fell slowly."),
    );
    ws
}

/// The spans of `doc` as (from, to, kind, id, model).
fn spans(ws: &Ws, doc: &str) -> Vec<(u64, u64, String, String, Value)> {
    ws.json(&["spans", doc])["spans"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let a = &s["author"];
            (
                s["from"].as_u64().unwrap(),
                s["to"].as_u64().unwrap(),
                a["kind"].as_str().unwrap().to_owned(),
                a["id"].as_str().unwrap().to_owned(),
                a["model"].clone(),
            )
        })
        .collect()
}

/// A validator of the JSON Schema keywords the Agent Trace schema uses
/// (`jsonschema` is not in the tree): any other keyword fails the test, so a
/// schema that grows one is not half-checked.
fn validate(schema: &Value, root: &Value, v: &Value, at: &str, errors: &mut Vec<String>) {
    let obj = schema.as_object().expect("a schema is an object");
    if let Some(r) = obj.get("$ref") {
        let name = r.as_str().unwrap().strip_prefix("#/$defs/").expect("local $ref");
        return validate(&root["$defs"][name], root, v, at, errors);
    }
    for (k, s) in obj {
        match k.as_str() {
            "$schema" | "$id" | "title" | "description" | "$defs" => {}
            "type" => {
                let ok = match s.as_str().unwrap() {
                    "object" => v.is_object(),
                    "array" => v.is_array(),
                    "string" => v.is_string(),
                    "integer" => v.is_i64() || v.is_u64(),
                    t => panic!("type {t}"),
                };
                if !ok {
                    errors.push(format!("{at}: not {s}"));
                }
            }
            "required" => {
                for r in s.as_array().unwrap() {
                    if v.get(r.as_str().unwrap()).is_none() {
                        errors.push(format!("{at}: {r} missing"));
                    }
                }
            }
            "properties" => {
                for (p, ps) in s.as_object().unwrap() {
                    if let Some(x) = v.get(p) {
                        validate(ps, root, x, &format!("{at}.{p}"), errors);
                    }
                }
            }
            "items" => {
                for (i, x) in v.as_array().into_iter().flatten().enumerate() {
                    validate(s, root, x, &format!("{at}[{i}]"), errors);
                }
            }
            "enum" => {
                if !s.as_array().unwrap().contains(v) {
                    errors.push(format!("{at}: {v} not in {s}"));
                }
            }
            "pattern" => {
                let re = regex::Regex::new(s.as_str().unwrap()).unwrap();
                if v.as_str().is_some_and(|x| !re.is_match(x)) {
                    errors.push(format!("{at}: {v} does not match {s}"));
                }
            }
            "minimum" => {
                if v.as_f64().is_some_and(|x| x < s.as_f64().unwrap()) {
                    errors.push(format!("{at}: {v} < {s}"));
                }
            }
            "maxLength" => {
                if v.as_str()
                    .is_some_and(|x| x.chars().count() as u64 > s.as_u64().unwrap())
                {
                    errors.push(format!("{at}: longer than {s}"));
                }
            }
            "format" => {
                let re = match s.as_str().unwrap() {
                    "uuid" => r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
                    "date-time" => r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$",
                    "uri" => r"^[a-zA-Z][a-zA-Z0-9+.-]*:\S+$",
                    f => panic!("format {f}"),
                };
                if v.as_str()
                    .is_some_and(|x| !regex::Regex::new(re).unwrap().is_match(x))
                {
                    errors.push(format!("{at}: {v} is not a {s}"));
                }
            }
            k => panic!("the schema uses `{k}`, which this validator does not check"),
        }
    }
}

fn schema_errors(record: &Value) -> Vec<String> {
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("agent-trace.schema.json")).unwrap()).unwrap();
    let mut errors = Vec::new();
    validate(&schema, &schema, record, "$", &mut errors);
    errors
}

#[test]
fn agent_trace_export_matches_its_golden_file_and_the_published_schema() {
    let ws = essay();
    let out = ws.ok(&["authorship", "essay.md", "--format", "agent-trace"]);
    let mut record: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(schema_errors(&record), Vec::<String>::new(), "{out}");
    assert_eq!(record["version"], "0.1.0");
    assert_eq!(record["tool"]["name"], "cowriting");
    assert!(record.get("vcs").is_none(), "no git, no vcs: {out}");
    // The same document in the text the lines count.
    let text = ws.read("essay.md");
    let lines: Vec<&str> = text.lines().collect();
    let ranges = &record["files"][0]["conversations"];
    for c in ranges.as_array().unwrap() {
        for r in c["ranges"].as_array().unwrap() {
            let (s, e) = (r["start_line"].as_u64().unwrap(), r["end_line"].as_u64().unwrap());
            let content = lines[s as usize - 1..e as usize].join("\n");
            use sha2::Digest;
            let want = format!("sha256:{:x}", sha2::Sha256::digest(content.as_bytes()));
            assert_eq!(r["content_hash"], want.as_str(), "lines {s}-{e}");
        }
    }
    // Two records are two ids.
    let again: Value =
        serde_json::from_str(&ws.ok(&["authorship", "essay.md", "--format", "agent-trace"])).unwrap();
    assert_ne!(again["id"], record["id"]);
    assert_eq!(record["tool"]["version"], env!("CARGO_PKG_VERSION"));
    record["id"] = json!("<id>");
    record["timestamp"] = json!("<timestamp>");
    record["tool"]["version"] = json!("<version>");
    golden(
        "essay.agent-trace.json",
        &format!("{}\n", serde_json::to_string_pretty(&record).unwrap()),
    );

    // The validator does refuse what the schema refuses.
    for (path, bad) in [
        ("/files/0/conversations/0/ranges/0/start_line", json!(0)),
        ("/files/0/conversations/0/contributor/type", json!("robot")),
        ("/id", json!("not-a-uuid")),
        ("/version", json!("0.1")),
    ] {
        let mut r: Value = serde_json::from_str(&out).unwrap();
        *r.pointer_mut(path).unwrap() = bad;
        assert!(!schema_errors(&r).is_empty(), "{path} accepted");
    }
    let mut r: Value = serde_json::from_str(&out).unwrap();
    r.as_object_mut().unwrap().remove("files");
    assert!(!schema_errors(&r).is_empty(), "files may not be missing");

    // -o writes it; never over a file without --force.
    let elsewhere = tempfile::tempdir().unwrap();
    let file = elsewhere.path().join("trace.json");
    let printed = ws.ok(&[
        "authorship",
        "essay.md",
        "--format",
        "agent-trace",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(printed.trim().ends_with("trace.json"), "{printed}");
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written["files"], json!(record["files"]));
    let err = ws.fails(
        &[
            "authorship",
            "essay.md",
            "--format",
            "agent-trace",
            "-o",
            file.to_str().unwrap(),
        ],
        2,
    );
    assert!(err.contains("already exists"), "{err}");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn agent_trace_names_the_commit_at_head_and_the_path_from_the_top_of_the_repository() {
    let ws = Ws::new();
    ws.write("book/ch1.md", "One line.\n");
    let repo = git2::Repository::init(ws.path()).unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("book/ch1.md")).unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = git2::Signature::now("Writer", "writer@example.com").unwrap();
    let head = repo
        .commit(Some("HEAD"), &sig, &sig, "first", &tree, &[])
        .unwrap();
    let trace = || {
        let mut c = assert_cmd::Command::cargo_bin("cowriting").unwrap();
        c.env("HOME", ws.home())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("COWRITING_CONFIG")
            .args(["-w", ws.path().join("book").to_str().unwrap()])
            .args(["authorship", "ch1.md", "--format", "agent-trace"]);
        let out = c.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let record = trace();
    assert_eq!(
        record["vcs"],
        json!({ "type": "git", "revision": head.to_string() })
    );
    assert_eq!(record["files"][0]["path"], "book/ch1.md");
    assert_eq!(
        record["files"][0]["conversations"][0]["contributor"],
        json!({ "type": "unknown" })
    );
    assert_eq!(schema_errors(&record), Vec::<String>::new());
    // Changed since: its lines are not those of HEAD's revision, so no vcs.
    ws.write("book/ch1.md", "One line.\nAnd another.\n");
    let record = trace();
    assert!(record.get("vcs").is_none(), "{record}");
    assert_eq!(record["files"][0]["path"], "book/ch1.md");
}

#[test]
fn ia_annotations_export_matches_its_golden_file_and_round_trips() {
    let ws = essay();
    let out = ws.ok(&["authorship", "essay.md", "--format", "ia-annotations"]);
    golden("essay.ia.md", &out);
    let text = ws.read("essay.md");
    assert!(out.starts_with(&format!("{text}\n---\nAnnotations: 0,")), "{out}");
    assert!(out.contains("&gpt-4o <codex>: "), "{out}");
    assert!(out.contains("@writer@example.com: "), "{out}");
    let theirs = spans(&ws, "essay.md");

    // Into the same text with no attribution: the same spans, the same export.
    let other = Ws::new();
    other.write("essay.md", &text);
    other.write("from-ia.md", &out);
    let from = other.file("from-ia.md");
    let said = other.ok(&["authorship", "import-ia", "essay.md", from.to_str().unwrap()]);
    assert!(said.contains("&claude-opus-4-1 <claude>: "), "{said}");
    assert_eq!(spans(&other, "essay.md"), theirs);
    assert_eq!(other.read("essay.md"), text, "the document is not touched");
    assert_eq!(
        other.ok(&["authorship", "essay.md", "--format", "ia-annotations"]),
        out
    );

    // Back into the document it came from: nothing changes.
    let elsewhere = tempfile::tempdir().unwrap();
    let back = elsewhere.path().join("back.md");
    std::fs::write(&back, &out).unwrap();
    let before = ws.snapshot();
    ws.ok(&["authorship", "import-ia", "essay.md", back.to_str().unwrap()]);
    assert_eq!(
        ws.snapshot(),
        before,
        "an import of its own export changes nothing"
    );

    // The block at the end of the document itself: read, then taken off.
    let own = Ws::new();
    own.write("essay.md", &out);
    let j = own.json(&["authorship", "import-ia", "essay.md"]);
    assert_eq!(j["blockRemoved"], true);
    assert_eq!(own.read("essay.md"), text);
    assert_eq!(spans(&own, "essay.md"), theirs);
    assert_eq!(
        own.ok(&["authorship", "essay.md", "--format", "ia-annotations"]),
        out
    );
}

#[test]
fn ia_import_reads_ia_writers_own_example_and_names_its_ai() {
    // The example of github.com/iainc/Markdown-Annotations, as iA Writer writes it.
    let ws = Ws::new();
    let text =
        "Markdown Annotations embed authorship in text while preserving its readability and portability.\n";
    ws.write(
        "a.md",
        format!("{text}\n---\nAnnotations: 0,95 SHA-256 1132bf5e376a605f5beed4b204456114  \n@Human: 0,20 33,4 45,6 62,4  \n&AI: 20,13 37,8 51,11 66,29  \n...\n"),
    );
    let out = ws.ok(&["authorship", "import-ia", "a.md"]);
    assert!(out.contains("the block taken off"), "{out}");
    assert_eq!(ws.read("a.md"), text);
    let s = spans(&ws, "a.md");
    assert_eq!(s.len(), 8);
    assert_eq!(
        s[0],
        (0, 20, "human".into(), "writer@example.com".into(), Value::Null)
    );
    assert_eq!(s[1], (20, 33, "agent".into(), "ia-writer".into(), json!("AI")));
}

#[test]
fn ia_import_refuses_a_hash_that_does_not_fit_and_writes_nothing() {
    let ws = essay();
    let out = ws.ok(&["authorship", "essay.md", "--format", "ia-annotations"]);
    // The same block over a text changed by one letter.
    let changed = Ws::new();
    changed.write("essay.md", ws.read("essay.md").replacen("herons", "Herons", 1));
    changed.write("from-ia.md", &out);
    let from = changed.file("from-ia.md");
    let from = from.to_str().unwrap();
    let before = changed.snapshot();
    let err = changed.fails(&["authorship", "import-ia", "essay.md", from], 2);
    assert!(err.contains("hash does not match"), "{err}");
    let err = changed.fails(
        &["--json", "authorship", "import-ia", "essay.md", "from-ia.md"],
        2,
    );
    assert_eq!(serde_json::from_str::<Value>(&err).unwrap()["code"], "bad_input");
    assert_eq!(changed.snapshot(), before);

    // In the document itself, the same.
    let own = Ws::new();
    own.write("essay.md", out.replacen("herons", "Herons", 1));
    let before = own.snapshot();
    own.fails(&["authorship", "import-ia", "essay.md"], 2);
    assert_eq!(own.snapshot(), before);

    // No block at all, and a range past the hashed text.
    let err = own.fails(&["authorship", "import-ia", "essay.md", "nothing.md"], 2);
    assert!(err.contains("nothing.md"), "{err}");
    let none = Ws::new();
    none.write("d.md", "Plain.\n");
    let err = none.fails(&["authorship", "import-ia", "d.md"], 2);
    assert!(err.contains("no Markdown Annotations block"), "{err}");
    use sha2::Digest;
    let hash = format!("{:x}", sha2::Sha256::digest(b"Plain."));
    none.write(
        "d.md",
        format!("Plain.\n\n---\nAnnotations: 0,6 SHA-256 {hash}\n@x: 3,9\n...\n"),
    );
    let before = none.snapshot();
    let err = none.fails(&["authorship", "import-ia", "d.md"], 2);
    assert!(err.contains("outside the hashed text"), "{err}");
    assert_eq!(none.snapshot(), before);
}
