//! `cowriting authorship`: who wrote how much of a document, by the real CLI.

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
