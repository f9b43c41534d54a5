//! Batch decisions through the real binary: `accept DOC --all [--turn T]
//! [--producer P] [--confirm-hidden]` and `reject DOC --all …` decide every
//! proposal kept in one transaction — one decision line per proposal decided,
//! the text right, no more durable writes than a single accept — pass over
//! stale ones (answered as skipped), refuse a batch holding unconfirmed hidden
//! characters whole with nothing changed, and refuse `--all` with an id or a
//! filter without `--all` as usage errors. With mixed producers and turns,
//! filters by turn and producer, and 300 proposals in one batch.

mod common;
use common::Ws;
use serde_json::Value;

/// `d.md` with `n` lines, each with its own word `wrdNNNN`, and a proposal on
/// each (word → `wordN`): even ones by `claude`, odd ones by `harper`; turn
/// `t0`, `t1` or `t2` by `i % 3`. Returns the ids in line order.
fn filed(ws: &Ws, n: usize) -> Vec<String> {
    let text: String = (0..n)
        .map(|i| format!("Line {i} has wrd{i:04} in it.\n"))
        .collect();
    ws.write("d.md", &text);
    (0..n)
        .map(|i| {
            let find = format!("wrd{i:04}");
            let replace = format!("word{i}");
            let turn = format!("t{}", i % 3);
            let agent = if i % 2 == 0 { "claude" } else { "harper" };
            ws.ok(&[
                "propose",
                "d.md",
                "--find",
                &find,
                "--replace",
                &replace,
                "--turn",
                &turn,
                "--agent",
                agent,
            ])
            .trim()
            .to_owned()
        })
        .collect()
}

/// The text after accepting the proposals on the lines `accepted` keeps.
fn text_with(n: usize, accepted: impl Fn(usize) -> bool) -> String {
    (0..n)
        .map(|i| {
            if accepted(i) {
                format!("Line {i} has word{i} in it.\n")
            } else {
                format!("Line {i} has wrd{i:04} in it.\n")
            }
        })
        .collect()
}

/// The decision log's lines.
fn decisions(ws: &Ws) -> Vec<Value> {
    match std::fs::read_to_string(ws.file(".cowriting/decisions.jsonl")) {
        Ok(s) => s.lines().map(|l| serde_json::from_str(l).unwrap()).collect(),
        Err(_) => Vec::new(),
    }
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect()
}

fn pending_ids(ws: &Ws) -> Vec<String> {
    ws.proposals("d.md")
        .iter()
        .map(|p| p["id"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn accept_all_decides_every_pending_proposal_in_one_transaction() {
    let ws = Ws::new();
    let all = filed(&ws, 12);
    let out = ws.json(&["accept", "d.md", "--all"]);
    assert_eq!(out["outcome"], "accepted");
    assert_eq!(ids(&out["decided"]), all);
    assert_eq!(out["skipped"], serde_json::json!([]));
    assert_eq!(
        out["counts"],
        serde_json::json!({"matched": 12, "decided": 12, "skipped": 0})
    );
    assert_eq!(ws.read("d.md"), text_with(12, |_| true));
    assert!(pending_ids(&ws).is_empty());
    assert!(ws.sidecar_json("d.md")["proposals"]
        .as_array()
        .unwrap()
        .is_empty());
    let log = decisions(&ws);
    assert_eq!(log.len(), 12, "one decision line per proposal");
    let mut logged: Vec<String> = log
        .iter()
        .map(|d| d["sidecarProposalId"].as_str().unwrap().to_owned())
        .collect();
    logged.sort();
    let mut want = all.clone();
    want.sort();
    assert_eq!(logged, want);
    let pending = std::fs::read_to_string(ws.file(".cowriting/suggestions/d.md.json")).unwrap_or_default();
    assert!(
        !pending.contains("pr_"),
        "no contract record left pending: {pending}"
    );
}

#[test]
fn filters_by_turn_and_producer_and_reports_in_one_line() {
    let ws = Ws::new();
    let all = filed(&ws, 12);
    // Turn t1 and harper: lines 1, 7 (odd and i % 3 == 1).
    let out = ws.ok(&["accept", "d.md", "--all", "--turn", "t1", "--producer", "harper"]);
    assert_eq!(out, "accepted 2 of 2 proposals in d.md; 0 skipped\n");
    let first = |i: usize| i % 3 == 1 && i % 2 == 1;
    assert_eq!(ws.read("d.md"), text_with(12, first));
    assert_eq!(decisions(&ws).len(), 2);

    // Producer alone, any case: the rest of claude's (even lines).
    let out = ws.json(&["accept", "d.md", "--all", "--producer", "CLAUDE"]);
    let even: Vec<String> = (0..12).filter(|i| i % 2 == 0).map(|i| all[i].clone()).collect();
    assert_eq!(ids(&out["decided"]), even);
    assert_eq!(ws.read("d.md"), text_with(12, |i| first(i) || i % 2 == 0));

    // Turn alone, rejected: t0's left (odd lines 3, 9).
    let out = ws.json(&["reject", "d.md", "--all", "--turn", "t0"]);
    assert_eq!(out["outcome"], "rejected");
    assert_eq!(ids(&out["decided"]), vec![all[3].clone(), all[9].clone()]);
    assert_eq!(
        ws.read("d.md"),
        text_with(12, |i| first(i) || i % 2 == 0),
        "a reject leaves the text"
    );
    assert_eq!(pending_ids(&ws), vec![all[5].clone(), all[11].clone()]);
    assert_eq!(decisions(&ws).len(), 2 + 6 + 2);

    // Nothing matched: said, not an error.
    let out = ws.ok(&["accept", "d.md", "--all", "--producer", "vale"]);
    assert_eq!(out, "no proposal of d.md matched; nothing decided\n");
}

#[test]
fn stale_proposals_are_skipped_and_reported_and_reject_all_takes_them() {
    let ws = Ws::new();
    let all = filed(&ws, 6);
    // Another writer changes lines 2 and 4 under their proposals.
    let text = text_with(6, |_| false)
        .replace("wrd0002", "wrdTWO")
        .replace("wrd0004", "wrdFOUR");
    ws.write("d.md", &text);
    let out = ws.cmd(&["accept", "d.md", "--all"]).output().unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "accepted 4 of 6 proposals in d.md; 2 skipped\n"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("skipped {}", all[2])), "{err}");
    assert!(err.contains(&format!("skipped {}", all[4])), "{err}");
    assert_eq!(
        ws.read("d.md"),
        text_with(6, |i| i != 2 && i != 4)
            .replace("wrd0002", "wrdTWO")
            .replace("wrd0004", "wrdFOUR")
    );
    assert_eq!(decisions(&ws).len(), 4);
    assert_eq!(pending_ids(&ws), vec![all[2].clone(), all[4].clone()]);

    // JSON names why.
    let out = ws.json(&["accept", "d.md", "--all"]);
    assert_eq!(
        out["counts"],
        serde_json::json!({"matched": 2, "decided": 0, "skipped": 2})
    );
    assert_eq!(out["skipped"][0]["id"], all[2].as_str());
    let state = out["skipped"][0]["state"].as_str().unwrap();
    assert!(["stale", "orphaned"].contains(&state), "{out}");
    assert!(
        out["skipped"][0]["reason"].as_str().unwrap().contains("wrd0002"),
        "{out}"
    );
    assert_eq!(decisions(&ws).len(), 4, "nothing decided, nothing logged");

    // Reject --all takes them whatever their state.
    let out = ws.json(&["reject", "d.md", "--all"]);
    assert_eq!(ids(&out["decided"]), vec![all[2].clone(), all[4].clone()]);
    assert!(pending_ids(&ws).is_empty());
    assert_eq!(decisions(&ws).len(), 6);
}

#[test]
fn overlapping_proposals_accept_the_first_and_skip_the_one_it_made_stale() {
    let ws = Ws::new();
    ws.write("d.md", "The quick brown fox.\n");
    let a = ws.propose("d.md", "quick brown", "slow red");
    let b = ws.propose("d.md", "brown fox", "grey wolf");
    let out = ws.json(&["accept", "d.md", "--all"]);
    assert_eq!(ids(&out["decided"]), vec![a]);
    assert_eq!(out["skipped"][0]["id"], b.as_str());
    assert_eq!(ws.read("d.md"), "The slow red fox.\n");
    assert_eq!(decisions(&ws).len(), 1);
}

#[test]
fn a_batch_with_unconfirmed_hidden_characters_is_refused_whole() {
    let ws = Ws::new();
    filed(&ws, 4);
    ws.ok(&[
        "propose",
        "d.md",
        "--find",
        "Line 3",
        "--replace",
        "Line \u{202E}3",
        "--agent",
        "harper",
    ]);
    let before = ws.snapshot();
    let err = ws.fails(&["--json", "accept", "d.md", "--all"], 3);
    let err: Value = serde_json::from_str(&err).unwrap();
    assert_eq!(err["code"], "needs_confirmation", "{err}");
    assert!(ws.snapshot() == before, "nothing decided, nothing written");
    // A filter that leaves it out is not refused.
    ws.ok(&["accept", "d.md", "--all", "--producer", "claude"]);
    assert_eq!(decisions(&ws).len(), 2);
    let out = ws.json(&["accept", "d.md", "--all", "--confirm-hidden"]);
    assert_eq!(out["counts"]["decided"], 3);
    assert!(
        ws.read("d.md").contains("Line \u{202E}3 has word3"),
        "{}",
        ws.read("d.md")
    );
}

#[test]
fn all_with_an_id_or_a_filter_without_all_is_a_usage_error() {
    let ws = Ws::new();
    let all = filed(&ws, 2);
    let before = ws.snapshot();
    for args in [
        vec!["accept", "d.md", all[0].as_str(), "--all"],
        vec!["reject", "d.md", all[0].as_str(), "--all"],
        vec!["accept", "d.md", "--turn", "t0"],
        vec!["reject", "d.md", "--producer", "claude"],
        vec!["accept", "d.md", all[0].as_str(), "--turn", "t0"],
        vec!["accept", "d.md", "--all", "--with", "x"],
        vec!["accept", "d.md"],
    ] {
        let out = ws.cmd(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(ws.snapshot() == before, "nothing changed");
}

/// Each durable step of the CLI (a rename, an append, a removal) counts
/// towards `COWRITING_FAULT_AT`; the process aborts just before the one named.
fn completes_within(ws: &Ws, args: &[&str], steps: u32) -> bool {
    let out = ws
        .cmd(args)
        .env("COWRITING_FAULT_AT", (steps + 1).to_string())
        .output()
        .unwrap();
    out.status.success()
}

#[test]
fn a_batch_takes_no_more_durable_writes_than_one_accept() {
    // The durable steps of accepting one proposal…
    let mut single = None;
    for steps in 1..40 {
        let ws = Ws::new();
        filed(&ws, 1);
        if completes_within(&ws, &["accept", "d.md", "--all"], steps) {
            single = Some(steps);
            break;
        }
    }
    let single = single.expect("one accept completes within 40 durable steps");
    assert!(single > 1, "the fault injection counts durable steps");
    // …are enough for twenty: the sidecar, the pending file, the text and the
    // decision log are written once for the batch.
    let ws = Ws::new();
    filed(&ws, 20);
    assert!(
        completes_within(&ws, &["accept", "d.md", "--all"], single),
        "20 accepts within the {single} durable steps of one"
    );
    assert_eq!(decisions(&ws).len(), 20);
    assert_eq!(ws.read("d.md"), text_with(20, |_| true));
}

#[test]
fn three_hundred_proposals_in_one_batch() {
    let ws = Ws::new();
    let n = 300;
    let all = filed(&ws, n);
    let out = ws.json(&["accept", "d.md", "--all"]);
    assert_eq!(ids(&out["decided"]), all);
    assert_eq!(ws.read("d.md"), text_with(n, |_| true));
    assert_eq!(decisions(&ws).len(), n);
    assert!(pending_ids(&ws).is_empty());
}
