//! Harper in a checker process: a child the app keeps while it is used and lets
//! go when it is not, so Harper's memory (about 150 MB: its dictionary, several
//! hundred rules and a part-of-speech tagger) is the app's only while Harper
//! works, and a check can be cancelled by killing it.
//!
//! **Who uses it.** A long-lived client with a window (the app) calls
//! [`configure`] once at start with a command that runs [`serve`] — the app
//! starts its own executable with [`ARG`] — and from then on every Harper
//! check of [`crate::suggest`] goes to the child. Without [`configure`] (the
//! CLI, which lives for one command; the MCP server) Harper runs in process.
//!
//! **Lifecycle.** A check spawns the child when none is running (it loads
//! Harper at once, before it reads its first request; [`Checker::start`] does the same
//! ahead of a check). The app does not start it ahead: a child of a process
//! with a window inherits the window's descriptors that are not close-on-exec
//! (WebKit's lifetime pipe among them, which keeps WebKit's processes alive
//! while any holder lives), and this crate forbids the `unsafe` that closing
//! them in the child would take. A background thread ends the child once no
//! check has used it for the configured idle time: it closes the child's
//! stdin, and the child exits at end of input (killed if it has not after
//! [`EXIT_GRACE`]). A child that dies (a crash, `kill -9`) fails the check that
//! was running with a one-line error, nothing filed; the next check starts a
//! new one. Cancel and the timeout kill the child.
//!
//! **Protocol**, one JSON object per line each way (JSON escapes newlines, so
//! a line is a message): the request is the external producers' request
//! ([`super::external::ExternalRequest`]: `schemaVersion`, `docId`,
//! `revision`, `sha256`, `text`); the answer is `{"suggestions": [...],
//! "skipped": [...]}`, checked record by record as any external producer's
//! answer is ([`super::external::from_value`]), or `{"error": "<one line>"}`.
//! (Spelling as the writer types is not Harper's: [`crate::hunspell`].)

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::external::{from_value, parse_output, ExternalRequest};
use super::harper_rules::HarperSetup;
use super::process::{self, Process};
use super::{failed, harper, Cancel, Request, Run};
use cowriting_workspace::error::{Error, Result};

/// The argument that makes the app's executable a checker process.
pub const ARG: &str = "--harper-checker";

/// How long a child that was told to exit (its stdin closed) may take before it is killed.
pub const EXIT_GRACE: Duration = Duration::from_secs(5);

/// How long one check may take before the child is killed: Harper takes about
/// a minute on a 5 MB document in the dev build; this bound is for a child
/// that hangs.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(15 * 60);

/// The longest answer line read from the child (bytes): Harper's findings on
/// the largest document are a few tens of MiB; past this the child is killed.
pub const ANSWER_LIMIT: u64 = 256 * 1024 * 1024;

/// How to start a checker process and when to let it go.
#[derive(Clone, Debug)]
pub struct Spec {
    pub program: PathBuf,
    pub args: Vec<String>,
    /// End the child after this long without a check.
    pub idle: Duration,
}

/// A checker process, started when needed and ended when idle (see the module docs).
pub struct Checker {
    spec: Spec,
    slot: Mutex<Option<Running>>,
    /// The running child's process id (0: none), readable while a check holds `slot`.
    pid: AtomicU32,
}

struct Running {
    process: Process,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
    last_used: Instant,
}

static HOST: OnceLock<Arc<Checker>> = OnceLock::new();

/// Run Harper checks in a child started as `spec` says, from now on in this
/// process. Once per process: a second call is refused (the first stays).
pub fn configure(spec: Spec) -> Result<()> {
    let checker = Checker::new(spec)?;
    HOST.set(checker)
        .map_err(|_| failed(harper::ID, "the checker process is configured already"))
}

/// Whether checks go to a checker process ([`configure`] was called).
pub fn configured() -> bool {
    HOST.get().is_some()
}

/// Check `req` with Harper in the configured checker process (starting one if
/// none is running), or in this process when none is [`configure`]d.
pub fn check(req: &Request, setup: &HarperSetup, cancel: &Cancel) -> Result<Run> {
    match HOST.get() {
        Some(host) => host.check(req, setup, cancel),
        None => harper::check_with(req, setup),
    }
}

impl Checker {
    /// A checker that starts no process until [`Checker::start`] or a check,
    /// with a thread that ends the process once idle (the thread ends when the
    /// checker is dropped).
    pub fn new(spec: Spec) -> Result<Arc<Checker>> {
        let period = (spec.idle / 4).clamp(Duration::from_millis(50), Duration::from_secs(5));
        let checker = Arc::new(Checker {
            spec,
            slot: Mutex::new(None),
            pid: AtomicU32::new(0),
        });
        let weak = Arc::downgrade(&checker);
        std::thread::Builder::new()
            .name("harper-checker-idle".into())
            .spawn(move || loop {
                std::thread::sleep(period);
                match weak.upgrade() {
                    Some(c) => c.end_if_idle(),
                    None => break,
                }
            })
            .map_err(|e| failed(harper::ID, format!("cannot start the checker's idle thread: {e}")))?;
        Ok(checker)
    }

    /// Start the process now if none is running (it loads Harper at once).
    /// Returns at once; a failure to start is the next check's error.
    pub fn start(&self) {
        let mut slot = self.lock();
        self.reap(&mut slot);
        if slot.is_none() {
            match self.spawn() {
                Ok(r) => *slot = Some(r),
                Err(e) => eprintln!("cowriting: {}", e.info().message),
            }
        }
    }

    /// The process's id while one is running (also during a check).
    pub fn pid(&self) -> Option<u32> {
        if let Ok(mut slot) = self.slot.try_lock() {
            self.reap(&mut slot);
        }
        let pid = self.pid.load(Ordering::SeqCst);
        (pid != 0).then_some(pid)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Option<Running>> {
        self.slot.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Start the child through [`process::spawn`] (its own process group,
    /// ended with this process), from whichever thread asks: a pipe watches
    /// this process, not the thread, so the child outlives the worker thread
    /// that started it, as it must.
    fn spawn(&self) -> Result<Running> {
        let program = &self.spec.program;
        let mut cmd = Command::new(program);
        cmd.args(&self.spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        let mut process = process::spawn(harper::ID, cmd).map_err(|e| {
            failed(
                harper::ID,
                format!(
                    "cannot start the checker process {program:?}: {}",
                    e.info().message
                ),
            )
        })?;
        let child = process.child_mut();
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("harper-checker-out".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let mut line = Vec::new();
                    let got = match (&mut reader).take(ANSWER_LIMIT + 1).read_until(b'\n', &mut line) {
                        Ok(0) => break,
                        Ok(n) if n as u64 > ANSWER_LIMIT => Err(std::io::Error::other(format!(
                            "its answer is longer than {} MiB",
                            ANSWER_LIMIT >> 20
                        ))),
                        Ok(_) => {
                            if line.ends_with(b"\n") {
                                line.pop();
                            }
                            Ok(String::from_utf8_lossy(&line).into_owned())
                        }
                        Err(e) => Err(e),
                    };
                    let end = got.is_err();
                    if tx.send(got).is_err() || end {
                        break;
                    }
                }
            })
            .map_err(|e| failed(harper::ID, format!("cannot read the checker process: {e}")))?;
        self.pid.store(process.id(), Ordering::SeqCst);
        Ok(Running {
            process,
            stdin,
            lines,
            last_used: Instant::now(),
        })
    }

    /// Forget a child that has exited.
    fn reap(&self, slot: &mut Option<Running>) {
        if let Some(r) = slot {
            if !r.process.running() {
                *slot = None;
                self.pid.store(0, Ordering::SeqCst);
            }
        }
    }

    fn end_if_idle(&self) {
        let mut slot = self.lock();
        self.reap(&mut slot);
        if slot
            .as_ref()
            .is_some_and(|r| r.last_used.elapsed() >= self.spec.idle)
        {
            let Running {
                mut process, stdin, ..
            } = slot.take().expect("checked");
            self.pid.store(0, Ordering::SeqCst);
            drop(slot);
            drop(stdin); // end of input: the child exits
            let deadline = Instant::now() + EXIT_GRACE;
            while process.running() {
                if Instant::now() >= deadline {
                    process.kill();
                    break;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        }
    }

    /// Check `req` in the process, starting one if none is running.
    pub fn check(&self, req: &Request, setup: &HarperSetup, cancel: &Cancel) -> Result<Run> {
        #[derive(serde::Serialize)]
        struct Line<'a> {
            #[serde(flatten)]
            request: ExternalRequest<'a>,
            setup: &'a HarperSetup,
        }
        let line = Line {
            request: ExternalRequest::of(req),
            setup,
        };
        let value = self.exchange(&line, cancel)?;
        let mut run = from_value(harper::ID, value, req)?;
        run.producer = Some(harper::run_producer());
        Ok(run)
    }

    /// Send one request line and read the answer line (an `{"error": …}`
    /// answer is an error). A child that dies, is cancelled or times out is
    /// killed; the next request starts another.
    fn exchange(&self, request: &impl serde::Serialize, cancel: &Cancel) -> Result<serde_json::Value> {
        let mut line = serde_json::to_vec(request).expect("a request serializes");
        line.push(b'\n');
        let mut slot = self.lock();
        self.reap(&mut slot);
        if slot.is_none() {
            *slot = Some(self.spawn()?);
        }
        let running = slot.as_mut().expect("just started");
        let sent = running
            .stdin
            .write_all(&line)
            .and_then(|()| running.stdin.flush());
        let answer = match sent {
            Ok(()) => wait_for_line(running, cancel),
            Err(e) => Err(Stop::Died(format!("could not be given the document: {e}"))),
        };
        let answer = match answer {
            Ok(a) => a,
            Err(stop) => {
                // The child is dead, or is killed now: the next check starts another.
                let mut r = slot.take().expect("running");
                self.pid.store(0, Ordering::SeqCst);
                let status = r.process.kill();
                return Err(match stop {
                    Stop::Cancelled => Error::Cancelled {
                        what: harper::ID.into(),
                    },
                    Stop::TimedOut => Error::TimedOut {
                        what: harper::ID.into(),
                        secs: CHECK_TIMEOUT.as_secs(),
                        limit: "of checking (the checker process's limit)".into(),
                    },
                    Stop::Died(how) => {
                        let status = status.map(|s| format!(" ({s})")).unwrap_or_default();
                        failed(
                            harper::ID,
                            format!("the checker process stopped{status}: {how}; nothing was filed"),
                        )
                    }
                });
            }
        };
        running.last_used = Instant::now();
        drop(slot);
        let value = parse_output(harper::ID, answer.as_bytes())?;
        if let Some(e) = value.get("error") {
            let message = e.as_str().map(str::to_owned).unwrap_or_else(|| e.to_string());
            return Err(failed(harper::ID, message));
        }
        Ok(value)
    }
}

enum Stop {
    Cancelled,
    TimedOut,
    Died(String),
}

fn wait_for_line(r: &mut Running, cancel: &Cancel) -> std::result::Result<String, Stop> {
    let started = Instant::now();
    loop {
        match r.lines.recv_timeout(Duration::from_millis(50)) {
            Ok(Ok(line)) => return Ok(line),
            Ok(Err(e)) => return Err(Stop::Died(format!("its answer could not be read: {e}"))),
            Err(RecvTimeoutError::Disconnected) => return Err(Stop::Died("it gave no answer".into())),
            Err(RecvTimeoutError::Timeout) if cancel.is_cancelled() => return Err(Stop::Cancelled),
            Err(RecvTimeoutError::Timeout) if started.elapsed() >= CHECK_TIMEOUT => {
                return Err(Stop::TimedOut)
            }
            Err(RecvTimeoutError::Timeout) => {}
        }
    }
}

/// What the checker reads of a request line (the rest of it is the parent's):
/// a document to check.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Ask {
    doc_id: String,
    text: String,
    #[serde(default)]
    setup: HarperSetup,
}

/// The checker process: load Harper, then answer each request line of `input`
/// on `output` until end of input. A line that is not a request gets an
/// `{"error": …}` answer; the loop goes on.
pub fn serve(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    harper::preload();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Ask>(&line) {
            Err(e) => serde_json::json!({ "error": format!("not a checker request: {e}") }),
            Ok(Ask { doc_id, text, setup }) => {
                let req = Request {
                    doc_id: &doc_id,
                    bytes: text.as_bytes(),
                    selection: None,
                    instruction: None,
                };
                match harper::check_with(&req, &setup) {
                    Ok(run) => serde_json::json!({ "suggestions": run.suggestions, "skipped": run.skipped }),
                    Err(e) => serde_json::json!({ "error": e.info().message }),
                }
            }
        };
        serde_json::to_writer(&mut output, &answer)?;
        output.write_all(b"\n")?;
        output.flush()?;
    }
    Ok(())
}

/// [`serve`] on this process's stdin and stdout; the exit status for `main`.
pub fn serve_stdio() -> std::process::ExitCode {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match serve(stdin, std::io::BufWriter::new(stdout)) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cowriting: harper checker: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

impl Drop for Checker {
    fn drop(&mut self) {
        if let Some(mut r) = self.slot.get_mut().unwrap_or_else(|e| e.into_inner()).take() {
            r.process.kill();
        }
    }
}
