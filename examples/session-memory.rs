//! What a long session keeps in the API, without the app around it: the heap
//! bytes live (a counting allocator) while an agent proposes from outside (the
//! real `cowriting` binary, one process per proposal, as `make perf-session`
//! does), the API is told of the sidecar's change (as the app's watcher tells
//! it), and the writer accepts or rejects the proposal in turn, types a word at
//! the end and saves every tenth cycle.
//!
//! ```text
//! cargo build --release --bin cowriting --example session-memory
//! target/release/examples/session-memory [CYCLES] [EVERY]
//! ```
//!
//! Prints, every EVERY cycles, the live heap over what it was before the API
//! opened; at the end, the same for a fresh API opened on the same files.
use cowriting::api::{Api, TextChange};
use cowriting::Utf16Offset;
use stats_alloc::{StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;
use std::path::{Path, PathBuf};
use std::process::Command;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Bytes live now (as tests/memory.rs counts them).
fn live() -> isize {
    let s = GLOBAL.stats();
    s.bytes_allocated as isize - s.bytes_deallocated as isize
}

fn mib(b: isize) -> f64 {
    b as f64 / (1 << 20) as f64
}

const DOC: &str = "session.md";

fn main() {
    let mut args = std::env::args().skip(1);
    let cycles: usize = args.next().map_or(300, |a| a.parse().expect("CYCLES"));
    let every: usize = args.next().map_or(100, |a| a.parse().expect("EVERY"));
    let exe = std::env::current_exe().unwrap();
    let cli: PathBuf = exe.parent().unwrap().parent().unwrap().join("cowriting");
    assert!(
        cli.exists(),
        "build the cowriting binary first: {}",
        cli.display()
    );

    let dir = std::env::temp_dir().join(format!("session-memory-{}", std::process::id()));
    std::fs::create_dir_all(dir.join(".threads")).unwrap();
    let lines: Vec<String> = (0..cycles + 50)
        .map(|k| format!("Line {k} has teh word in it, and some more prose after it to read."))
        .collect();
    std::fs::write(
        dir.join(DOC),
        format!("# A long session\n\n{}\n", lines.join("\n\n")),
    )
    .unwrap();
    run(Command::new("git").arg("-C").arg(&dir).args(["init", "-q"]));

    let base = live();
    let mut api = Api::open(&dir).unwrap();
    api.open_document(DOC).unwrap();
    println!("| cycle | live heap over start (MiB) |");
    println!("| --- | --- |");
    let sidecar = dir.join(".threads").join(format!("{DOC}.json"));
    for k in 0..cycles {
        run(Command::new(&cli).arg("-w").arg(&dir).args([
            "propose",
            DOC,
            "--find",
            &format!("Line {k} has teh"),
            "--replace",
            &format!("Line {k} has the"),
            "--turn",
            &format!("turn-{k}"),
            "--model",
            "sonnet",
        ]));
        api.files_changed(std::slice::from_ref(&sidecar));
        let review = api.review(DOC).unwrap();
        let id = review.proposals.first().expect("the proposal arrived").id.clone();
        let applied = if k % 2 == 1 {
            api.reject(DOC, &id)
        } else {
            api.accept(DOC, &id, None)
        }
        .unwrap();
        let mut version = applied.version;
        api.seal_undo_group(DOC).unwrap();
        let mut end = Utf16Offset(api.text_of(DOC).encode_utf16().count());
        for ch in [" ", "w", "o", "r", "d"] {
            let ack = api
                .edit(
                    DOC,
                    version,
                    &[TextChange {
                        from: end,
                        to: end,
                        insert: ch.to_owned(),
                    }],
                    true,
                )
                .unwrap();
            version = ack.version;
            end = Utf16Offset(end.0 + 1);
        }
        if k % 10 == 9 {
            api.save(DOC).unwrap();
        }
        if k == 19 || (k + 1) % every == 0 {
            println!("| {} | {:.2} |", k + 1, mib(live() - base));
        }
    }
    api.save(DOC).unwrap();
    drop(api);
    let after_drop = live() - base;
    let fresh_base = live();
    let mut fresh = Api::open(&dir).unwrap();
    fresh.open_document(DOC).unwrap();
    let _ = fresh.review(DOC).unwrap();
    println!(
        "\nA fresh API on the same files: {:.2} MiB; the session's API after it was dropped left {:.2} MiB.",
        mib(live() - fresh_base),
        mib(after_drop)
    );
    drop(fresh);
    let _ = std::fs::remove_dir_all(Path::new(&dir));
}

fn run(c: &mut Command) {
    let out = c.output().expect("run");
    assert!(
        out.status.success(),
        "{c:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
