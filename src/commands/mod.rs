//! The commands, one module per group of verbs: each takes what its
//! arguments said, makes one call of the one API ([`Ops`]) and prints the
//! answer through [`Ctx`] (as JSON, or worded for people by `crate::text`).

use super::*;

pub(crate) mod decide;
pub(crate) mod documents;
pub(crate) mod export;
pub(crate) mod git;
pub(crate) mod producers;
pub(crate) mod search;
pub(crate) mod spelling;
pub(crate) mod threads;

/// What every command shares: the one API ([`Ops`]) for the caller, and how
/// to print its answers.
pub(crate) struct Ctx {
    pub(crate) ops: Ops,
    pub(crate) json: bool,
}

impl Ctx {
    pub(crate) fn new(workspace: Option<PathBuf>, json: bool, unit: UnitArg) -> Result<Ctx> {
        let dir = match workspace {
            Some(d) => d,
            None => {
                std::env::current_dir().map_err(|e| Error::BadInput(format!("no current directory: {e}")))?
            }
        };
        let ws = Workspace::open(dir)?;
        let identity = human_identity(ws.root());
        // Text for people counts bytes; JSON counts what --unit says.
        let unit = match unit {
            UnitArg::Utf16 if json => Unit::Utf16,
            _ => Unit::Byte,
        };
        Ok(Ctx {
            ops: Ops::new(Arc::new(Store::new(ws)), identity, unit),
            json,
        })
    }

    pub(crate) fn ws(&self) -> &Workspace {
        self.ops.workspace()
    }

    /// Print an answer: as it is with `--json`, else as `human` words it. A
    /// closed pipe (`cowriting decisions | head`) is not an error.
    pub(crate) fn print<T: serde::Serialize>(&self, answer: &T, human: impl FnOnce(&T) -> String) {
        let out = if self.json {
            to_js_json(&serde_json::to_value(answer).unwrap_or(Value::Null))
        } else {
            let text = human(answer);
            if text.is_empty() {
                return;
            }
            format!("{}\n", text.trim_end_matches('\n'))
        };
        let _ = std::io::stdout().lock().write_all(out.as_bytes());
    }
}

/// Problems the operation met after it went through (an unreadable
/// decision-log line, a log that could not be written), said on stderr.
pub(crate) fn warn(warnings: &[String]) {
    for w in warnings {
        eprintln!("cowriting: warning: {w}");
    }
}

/// The one document of a listing that named it.
pub(crate) fn one<T>(mut documents: Vec<T>) -> Result<T> {
    documents
        .pop()
        .ok_or_else(|| Error::BadInput("no such document".into()))
}
