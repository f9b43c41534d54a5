//! Bounded subprocesses, with real processes: the real `cowriting` CLI runs a
//! review with a fake Claude Code that misbehaves — talks forever (stopped by
//! the wall clock), prints a 1 GiB line (stopped at the cap, the CLI's peak
//! memory read from `/proc`), or sleeps while `cowriting` is killed with
//! `kill -9` (gone within 30 s). Each
//! fake is a `/bin/sh` script written for the test. No timing is asserted;
//! every wait is bounded generously (the machine may be loaded).

mod common;

use common::Ws;
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DOC: &str = "# Notes\n\nA first sentence. A second one.\n";

/// A workspace whose config runs `script` (a `/bin/sh` body) as Claude Code,
/// with `limits` lines added to `[claude]`.
fn ws_with_fake(script: &str, limits: &str) -> Ws {
    let ws = Ws::new();
    ws.write("essay.md", DOC);
    let fake = ws.home().join("fake-claude");
    std::fs::write(&fake, format!("#!/bin/sh\n{script}\n")).unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let config = ws.home().join(".config/cowriting/config.toml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!("[claude]\ntransport = \"cli\"\ncommand = {fake:?}\n{limits}\n"),
    )
    .unwrap();
    ws
}

/// `cowriting --json review essay.md`, started.
fn start_review(ws: &Ws) -> Child {
    Command::new(assert_cmd::cargo::cargo_bin("cowriting"))
        .env("HOME", ws.home())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("COWRITING_CONFIG")
        .env_remove("ANTHROPIC_API_KEY")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .arg("-w")
        .arg(ws.path())
        .args(["--json", "review", "essay.md"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Wait for `child` at most `limit` (then kill it and fail): its exit code
/// and the `{code, message}` it printed on stderr.
fn finish(mut child: Child, limit: Duration) -> (Option<i32>, Value) {
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("cowriting did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    let json = err
        .lines()
        .find_map(|l| serde_json::from_str::<Value>(l).ok())
        .unwrap_or_else(|| panic!("no error JSON on stderr: {err}"));
    (out.status.code(), json)
}

/// Whether process `pid` is alive (a zombie nobody reaped is not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
}

/// A process's peak resident memory so far (kB), while it runs.
fn peak_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A Claude Code that never stops printing harmless events is stopped by the
/// wall clock (`[claude] run_secs`), which the silence limit alone never did.
#[test]
fn a_claude_that_talks_forever_is_stopped_by_the_wall_clock() {
    let ws = ws_with_fake(
        "cat >/dev/null\nwhile :; do echo '{\"type\":\"system\",\"subtype\":\"status\"}'; sleep 0.05; done",
        "timeout_secs = 600\nrun_secs = 2",
    );
    let (code, err) = finish(start_review(&ws), Duration::from_secs(300));
    assert_eq!(code, Some(6), "{err}");
    assert_eq!(err["code"], "timed_out", "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("after 2 s of running ([claude] run_secs)"),
        "{message}"
    );
    assert_eq!(ws.sidecar("essay.md"), "", "nothing was filed");
}

/// A Claude Code that prints one 1 GiB line is stopped at the output cap
/// (`[claude] output_mib`), and `cowriting`'s memory stays far below the
/// line's size (unbounded, it held the whole line: over 1 GiB).
#[test]
fn a_gigabyte_line_is_stopped_at_the_cap_and_memory_stays_small() {
    let ws = ws_with_fake(
        "cat >/dev/null\nhead -c 1073741824 /dev/zero | tr '\\0' x",
        "timeout_secs = 600\nrun_secs = 600\noutput_mib = 1",
    );
    let child = start_review(&ws);
    let pid = child.id();
    // VmHWM only grows: the last reading before the process ends is its
    // peak so far; an unbounded read grows for the whole second or more it
    // takes to read 1 GiB, so the readings see it.
    let sampler = std::thread::spawn(move || {
        let mut peak = 0;
        while let Some(kb) = peak_kb(pid) {
            peak = peak.max(kb);
            std::thread::sleep(Duration::from_millis(5));
        }
        peak
    });
    let (code, err) = finish(child, Duration::from_secs(300));
    let peak = sampler.join().unwrap();
    assert_eq!(code, Some(5), "{err}");
    assert_eq!(err["code"], "producer", "{err}");
    let message = err["message"].as_str().unwrap();
    assert!(
        message.contains("more than 1 MiB on its standard output") && message.contains("[claude] output_mib"),
        "{message}"
    );
    assert!(peak > 0, "the process was never seen");
    assert!(
        peak < 128 * 1024,
        "cowriting's peak memory was {peak} kB for a 1 MiB cap"
    );
}

/// `kill -9` of `cowriting` while its Claude Code is silent: the child does
/// not live on (its watchdog kills its process group).
#[test]
fn a_silent_claude_dies_with_a_killed_cowriting() {
    let ws = ws_with_fake("", "timeout_secs = 600\nrun_secs = 600");
    let pidfile = ws.home().join("claude.pid");
    let fake = ws.home().join("fake-claude");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\ncat >/dev/null\necho $$ > {}.tmp\nmv {0}.tmp {0}\nexec sleep 600\n",
            pidfile.display()
        ),
    )
    .unwrap();
    let mut child = start_review(&ws);
    let claude = wait_for_pid(&pidfile, &mut child);
    assert!(alive(claude));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while alive(claude) {
        if Instant::now() > deadline {
            let _ = Command::new("kill").args(["-9", &claude.to_string()]).status();
            panic!("Claude Code ({claude}) outlived the killed cowriting by 30 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn wait_for_pid(pidfile: &Path, child: &mut Child) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Ok(s) = std::fs::read_to_string(pidfile) {
            return s.trim().parse().unwrap();
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("cowriting ended ({status}) before Claude Code started");
        }
        assert!(Instant::now() < deadline, "the fake never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}
