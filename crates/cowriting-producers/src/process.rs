//! Every subprocess a producer runs — Claude Code, Vale, the user's commands,
//! the Harper checker — is started one way ([`spawn`]) and bounded one way
//! ([`run`], [`run_lines`]):
//!
//! - **its own process group**, so that stopping it ends what it started too
//!   (a shell script's `sleep`, Claude Code's helpers), and a terminal's
//!   Ctrl+C reaches only `cowriting`;
//! - **a watchdog** that ends the group when this process dies, even by
//!   `kill -9` (see `Watchdog` for why a pipe and not `PR_SET_PDEATHSIG`);
//! - **[`Limits`]**: a wall clock for the run (printing or not), a silence
//!   limit for a stream, and a cap on the bytes read from its standard output
//!   and from its standard error. Past one it is killed, with its group, and
//!   the run is an error naming the limit and the setting that sets it:
//!   [`Error::TimedOut`] for time, [`Error::Producer`] for bytes. What was
//!   read is never more than the cap, so memory stays bounded whatever the
//!   program prints (a 1 GiB line included).
//!
//! Commands are started without a shell (the watchdog's fixed script takes
//! only a process group id).

use std::io::{PipeWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rustix::process::{kill_process_group, waitid, Pid, Signal, WaitId, WaitIdOptions};

use crate::Cancel;
use cowriting_workspace::config::{ClaudeConfig, ExternalConfig, ValeConfig};
use cowriting_workspace::error::{Error, Result};

/// How long and how much one run of a program may go on.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The longest one run may take, printing or not.
    pub run: Duration,
    /// The setting that sets `run`, for the error (`[claude] run_secs`).
    pub run_setting: String,
    /// For a stream: the longest it may print nothing, and its setting.
    pub silence: Option<(Duration, String)>,
    /// The most bytes read from its standard output, and from its standard error.
    pub output: u64,
    /// The setting that sets `output`.
    pub output_setting: String,
}

const MIB: u64 = 1024 * 1024;

impl Limits {
    /// Claude Code's: `run_secs` a request, `timeout_secs` without output,
    /// `output_mib` on each output.
    pub fn claude(cfg: &ClaudeConfig) -> Limits {
        Limits {
            run: Duration::from_secs(cfg.run_secs),
            run_setting: "[claude] run_secs".into(),
            silence: Some((
                Duration::from_secs(cfg.timeout_secs),
                "[claude] timeout_secs".into(),
            )),
            output: cfg.output_mib.saturating_mul(MIB),
            output_setting: "[claude] output_mib".into(),
        }
    }

    /// Vale's: `timeout_secs` a run, `output_mib` on each output.
    pub fn vale(cfg: &ValeConfig) -> Limits {
        Limits {
            run: Duration::from_secs(cfg.timeout_secs),
            run_setting: "[vale] timeout_secs".into(),
            silence: None,
            output: cfg.output_mib.saturating_mul(MIB),
            output_setting: "[vale] output_mib".into(),
        }
    }

    /// The user's command `name`: `timeout_secs` a run, `output_mib` on each output.
    pub fn external(name: &str, cfg: &ExternalConfig) -> Limits {
        Limits {
            run: Duration::from_secs(cfg.timeout_secs),
            run_setting: format!("[external.{name}] timeout_secs"),
            silence: None,
            output: cfg.output_mib.saturating_mul(MIB),
            output_setting: format!("[external.{name}] output_mib"),
        }
    }

    /// The error of a run stopped by its silence limit (`silent`) or its wall clock.
    pub(crate) fn timed_out(&self, what: &str, silent: bool) -> Error {
        let (limit, setting) = match (&self.silence, silent) {
            (Some((d, s)), true) => (*d, format!("without output ({s})")),
            _ => (self.run, format!("of running ({})", self.run_setting)),
        };
        Error::TimedOut {
            what: what.to_owned(),
            secs: limit.as_secs(),
            limit: setting,
        }
    }

    /// The error of a run stopped for printing more than the cap on `output`.
    pub(crate) fn over(&self, what: &str, output: &str) -> Error {
        crate::failed(
            what,
            format!(
                "printed more than {} on its {output}, the most one run may print ({}); \
                 it was stopped and nothing of it was filed",
                size(self.output),
                self.output_setting
            ),
        )
    }
}

/// `n` bytes, in MiB when it is whole MiB.
fn size(n: u64) -> String {
    if n >= MIB && n.is_multiple_of(MIB) {
        format!("{} MiB", n / MIB)
    } else {
        format!("{n} bytes")
    }
}

/// A program started by [`spawn`]: in its own process group, watched.
/// Dropped while running, its group is killed.
pub struct Process {
    child: Child,
    group: Pid,
    watchdog: Option<Watchdog>,
}

/// Ends a process group when this process dies.
///
/// A `/bin/sh` in a group of its own, waiting to read one line on a pipe
/// whose only writer is this process: when this process ends the group
/// normally it writes the line, and the watchdog exits; when this process
/// dies, even by `kill -9`, the kernel closes the pipe, the read fails and
/// the watchdog kills the group. (Its own group keeps a terminal's Ctrl+C,
/// which reaches `cowriting`, from reaching it; it ignores hangups too.)
///
/// Why not `prctl(PR_SET_PDEATHSIG)` in the child: it takes `pre_exec`,
/// which is `unsafe`, and this workspace forbids `unsafe` code; and the
/// signal fires when the *thread* that forked the child exits, not the
/// process — the app spawns from worker threads that end while the Harper
/// checker they started lives on, so it would kill children too early. A
/// pipe's writer is the process's: it closes only when the process dies.
///
/// The one window: this process killed between starting the program and
/// starting its watchdog (microseconds) leaves the program unwatched.
struct Watchdog {
    child: Child,
    done: PipeWriter,
}

const WATCHDOG: &str = r#"trap '' HUP INT TERM; read -r _ || kill -s KILL -- "-$1""#;

impl Watchdog {
    fn start(group: Pid) -> std::io::Result<Watchdog> {
        let (read, done) = std::io::pipe()?;
        let child = Command::new("/bin/sh")
            .args(["-c", WATCHDOG, "cowriting-watchdog"])
            .arg(group.as_raw_nonzero().to_string())
            .stdin(read)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()?;
        Ok(Watchdog { child, done })
    }

    /// The group is over: the watchdog exits without killing anything.
    fn release(mut self) {
        let _ = self.done.write_all(b"\n");
        drop(self.done);
        let _ = self.child.wait();
    }
}

/// Start `cmd` (its stdio as the caller set it) in a process group of its
/// own, with a watchdog. A program that is not there is
/// [`Error::NotInstalled`]; `what` names the producer in errors.
pub fn spawn(what: &str, mut cmd: Command) -> Result<Process> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let child = cmd.process_group(0).spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::NotInstalled {
                producer: what.to_owned(),
                program: program.clone(),
                hint: None,
            }
        } else {
            crate::failed(what, format!("cannot start {program:?}: {e}"))
        }
    })?;
    let group = Pid::from_child(&child);
    let mut p = Process {
        child,
        group,
        watchdog: None,
    };
    match Watchdog::start(group) {
        Ok(w) => p.watchdog = Some(w),
        Err(e) => {
            p.kill();
            return Err(crate::failed(
                what,
                format!("cannot watch {program:?} (/bin/sh for its watchdog): {e}"),
            ));
        }
    }
    Ok(p)
}

impl Process {
    /// The program's process id (its group's too).
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The running program's stdio handles, as [`Command`] set them.
    pub fn child_mut(&mut self) -> &mut Child {
        &mut self.child
    }

    /// Whether the program itself has exited (not reaped yet: its group id
    /// stays its own until [`Process::wait`]).
    fn exited(&self) -> bool {
        matches!(
            waitid(
                WaitId::Pid(self.group),
                WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
            ),
            Ok(Some(_)) | Err(_)
        )
    }

    /// Kill the program's group (what is left of it).
    fn kill_group(&self) {
        let _ = kill_process_group(self.group, Signal::KILL);
    }

    /// Kill the program and its group, reap it (how it ended, when that
    /// could be told), release the watchdog.
    pub fn kill(&mut self) -> Option<ExitStatus> {
        self.kill_group();
        let _ = self.child.kill();
        let status = self.child.wait().ok();
        if let Some(w) = self.watchdog.take() {
            w.release();
        }
        status
    }

    /// Wait for the program to exit; what it left running in its group is
    /// killed before it is reaped (while its group id is still its own).
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        let _ = waitid(
            WaitId::Pid(self.group),
            WaitIdOptions::EXITED | WaitIdOptions::NOWAIT,
        );
        self.kill_group();
        let status = self.child.wait();
        if let Some(w) = self.watchdog.take() {
            w.release();
        }
        status
    }

    /// Whether the program is still running (reaping it, and ending its
    /// group, when it is not).
    pub fn running(&mut self) -> bool {
        if self.watchdog.is_none() {
            return false;
        }
        if self.exited() {
            let _ = self.wait();
            return false;
        }
        true
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.watchdog.is_some() {
            self.kill();
        }
    }
}

/// Which output of a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stream {
    Stdout,
    Stderr,
}

impl Stream {
    fn name(self) -> &'static str {
        match self {
            Stream::Stdout => "standard output",
            Stream::Stderr => "standard error",
        }
    }
}

/// What a reader thread sends.
enum Got {
    Bytes(Stream, Vec<u8>),
    /// More than the cap: reading stopped.
    Over(Stream),
    End,
}

/// Read `from` in pieces onto `tx`, at most `cap` bytes in all.
fn pump(mut from: impl Read, stream: Stream, cap: u64, tx: mpsc::SyncSender<Got>) {
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        match from.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                total += n as u64;
                if total > cap {
                    let _ = tx.send(Got::Over(stream));
                    return;
                }
                if tx.send(Got::Bytes(stream, buf[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let _ = tx.send(Got::End);
}

/// What a finished program gave back.
#[derive(Debug)]
pub struct Output {
    pub status: ExitStatus,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Run `cmd` (never through a shell) with `input` on its stdin, within
/// `limits`, until it exits; cancel, a limit or an error from `on_stdout`
/// (given each piece of its standard output as it comes) kill it and its
/// group. Its standard output is handed on, its standard error kept.
fn supervise(
    what: &str,
    mut cmd: Command,
    input: &[u8],
    limits: &Limits,
    cancel: &Cancel,
    on_stdout: &mut dyn FnMut(&[u8]) -> Result<()>,
) -> Result<(ExitStatus, Vec<u8>)> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let program = cmd.get_program().to_owned();
    let mut p = spawn(what, cmd)?;
    let child = p.child_mut();
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let input = input.to_vec();
    // A program that exits without reading its input is not an error here;
    // one that never reads it is killed by its limits, which ends the write.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    // Bounded: at most 64 pieces in flight, the program waits on its pipe.
    let (tx, rx) = mpsc::sync_channel(64);
    let cap = limits.output;
    let tx2 = tx.clone();
    std::thread::spawn(move || pump(stdout, Stream::Stdout, cap, tx));
    std::thread::spawn(move || pump(stderr, Stream::Stderr, cap, tx2));
    let started = Instant::now();
    let mut last = started;
    let mut open = 2;
    let mut errors = Vec::new();
    let mut ended = false;
    loop {
        let stop = if cancel.is_cancelled() {
            Some(Error::Cancelled {
                what: what.to_owned(),
            })
        } else if started.elapsed() >= limits.run {
            Some(limits.timed_out(what, false))
        } else if limits.silence.as_ref().is_some_and(|(d, _)| last.elapsed() >= *d) {
            Some(limits.timed_out(what, true))
        } else {
            None
        };
        if let Some(e) = stop {
            p.kill();
            return Err(e);
        }
        if open == 0 {
            // Both outputs closed: the run is over when the program has
            // exited (one that closed them and goes on is still bounded).
            if p.exited() {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(Got::Bytes(stream, bytes)) => {
                last = Instant::now();
                match stream {
                    Stream::Stdout => {
                        if let Err(e) = on_stdout(&bytes) {
                            p.kill();
                            return Err(e);
                        }
                    }
                    Stream::Stderr => errors.extend_from_slice(&bytes),
                }
            }
            Ok(Got::Over(stream)) => {
                p.kill();
                return Err(limits.over(what, stream.name()));
            }
            Ok(Got::End) => open -= 1,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                // The program exited but something it started holds its
                // outputs open: that is ended, the outputs close.
                if !ended && p.exited() {
                    ended = true;
                    p.kill_group();
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => open = 0,
        }
    }
    let status = p.wait().map_err(Error::io(program))?;
    Ok((status, errors))
}

/// Run `cmd` with `input` on its stdin within `limits` and collect what it
/// printed; see the module docs.
pub fn run(what: &str, cmd: Command, input: &[u8], limits: &Limits, cancel: &Cancel) -> Result<Output> {
    let mut stdout = Vec::new();
    let (status, stderr) = supervise(what, cmd, input, limits, cancel, &mut |b| {
        stdout.extend_from_slice(b);
        Ok(())
    })?;
    Ok(Output {
        status,
        stdout,
        stderr,
    })
}

/// How a program whose output was read line by line ended.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stderr: Vec<u8>,
}

/// Run `cmd` with `input` on its stdin within `limits`, handing each line
/// of its standard output (without its line break; invalid UTF-8 replaced)
/// to `on_line` as it comes, the last one even without a line break. An
/// error from `on_line` stops the run with it.
pub fn run_lines(
    what: &str,
    cmd: Command,
    input: &[u8],
    limits: &Limits,
    cancel: &Cancel,
    on_line: &mut dyn FnMut(&str) -> Result<()>,
) -> Result<Finished> {
    let mut pending: Vec<u8> = Vec::new();
    let (status, stderr) = supervise(what, cmd, input, limits, cancel, &mut |bytes| {
        let mut rest = bytes;
        while let Some(i) = rest.iter().position(|&b| b == b'\n') {
            pending.extend_from_slice(&rest[..i]);
            rest = &rest[i + 1..];
            let line = std::mem::take(&mut pending);
            on_line(&String::from_utf8_lossy(&line))?;
        }
        pending.extend_from_slice(rest);
        Ok(())
    })?;
    if !pending.is_empty() {
        on_line(&String::from_utf8_lossy(&pending))?;
    }
    Ok(Finished { status, stderr })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(run_ms: u64, silence_ms: Option<u64>, output: u64) -> Limits {
        Limits {
            run: Duration::from_millis(run_ms),
            run_setting: "[t] run".into(),
            silence: silence_ms.map(|s| (Duration::from_millis(s), "[t] silence".into())),
            output,
            output_setting: "[t] output".into(),
        }
    }

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.args(["-c", script]);
        c
    }

    fn alive(pid: u32) -> bool {
        // A zombie no one reaps (PID 1 here may not) is gone too.
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| !s.rsplit(')').next().unwrap_or("").trim_start().starts_with('Z'))
    }

    #[test]
    fn lines_come_as_printed_and_stderr_is_kept() {
        let mut lines = Vec::new();
        let end = run_lines(
            "t",
            sh("printf 'a\\nb\\n'; printf oops >&2; printf c"),
            b"",
            &limits(60_000, None, 1 << 20),
            &Cancel::new(),
            &mut |l| {
                lines.push(l.to_owned());
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(lines, ["a", "b", "c"]);
        assert_eq!(end.stderr, b"oops");
        assert!(end.status.success());
        let out = run(
            "t",
            sh("cat"),
            b"in",
            &limits(60_000, None, 1 << 20),
            &Cancel::new(),
        )
        .unwrap();
        assert_eq!(out.stdout, b"in");
    }

    #[test]
    fn each_limit_stops_the_program_and_its_group() {
        // Printing forever: the wall clock, however chatty.
        let e = run(
            "t",
            sh("yes"),
            b"",
            &limits(300, Some(60_000), u64::MAX),
            &Cancel::new(),
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::TimedOut { limit, .. } if limit.contains("[t] run")),
            "{e}"
        );
        // Silent: the silence limit, naming itself.
        let e = run(
            "t",
            sh("sleep 60"),
            b"",
            &limits(60_000, Some(200), u64::MAX),
            &Cancel::new(),
        )
        .unwrap_err();
        assert!(
            matches!(&e, Error::TimedOut { limit, .. } if limit.contains("without output ([t] silence)")),
            "{e}"
        );
        // Too much: the cap, on stdout or on stderr.
        let e = run(
            "t",
            sh("yes"),
            b"",
            &limits(60_000, None, 100_000),
            &Cancel::new(),
        )
        .unwrap_err();
        assert_eq!(e.code(), cowriting_workspace::error::ErrorCode::Producer);
        assert!(
            e.to_string()
                .contains("more than 100000 bytes on its standard output"),
            "{e}"
        );
        let e = run(
            "t",
            sh("yes >&2"),
            b"",
            &limits(60_000, None, 2 << 20),
            &Cancel::new(),
        )
        .unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("more than 2 MiB on its standard error") && m.contains("([t] output)"),
            "{m}"
        );
        // A child the program started, holding the output open, goes with it.
        let pidfile = tempfile::NamedTempFile::new().unwrap();
        let script = format!("sleep 60 & echo $! > {}; wait", pidfile.path().display());
        let e = run(
            "t",
            sh(&script),
            b"",
            &limits(500, None, u64::MAX),
            &Cancel::new(),
        )
        .unwrap_err();
        assert_eq!(e.code(), cowriting_workspace::error::ErrorCode::TimedOut);
        let pid: u32 = std::fs::read_to_string(pidfile.path())
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while alive(pid) {
            assert!(Instant::now() < deadline, "the program's child {pid} lives on");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn a_program_that_closes_its_outputs_and_goes_on_is_still_bounded() {
        let e = run(
            "t",
            sh("exec >/dev/null 2>&1; sleep 60"),
            b"",
            &limits(300, None, 1 << 20),
            &Cancel::new(),
        )
        .unwrap_err();
        assert_eq!(e.code(), cowriting_workspace::error::ErrorCode::TimedOut, "{e}");
    }

    #[test]
    fn a_program_that_exits_leaving_a_child_on_its_output_ends() {
        // The program is done; what it left behind would keep stdout open for a minute.
        let out = run(
            "t",
            sh("echo done; sleep 60 &"),
            b"",
            &limits(60_000, None, 1 << 20),
            &Cancel::new(),
        )
        .unwrap();
        assert_eq!(out.stdout, b"done\n");
    }
}
