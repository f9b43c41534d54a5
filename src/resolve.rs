//! `cowriting resolve`: the anchor resolver as a line protocol (one JSON
//! request per line in, one answer per line out), for tools that place
//! fingerprints in texts without a workspace.

use super::*;

/// Read and check a text file for `resolve`.
pub(crate) fn read_text(file: &Path) -> Result<Document> {
    let bytes = std::fs::read(file).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::BadInput(format!("{}: no such file", file.display())),
        _ => Error::Io {
            path: file.to_path_buf(),
            source: e,
        },
    })?;
    Document::from_bytes(&bytes).map_err(|source| Error::Document {
        path: file.display().to_string(),
        source,
    })
}

/// Texts of `resolve --batch`, read once each. Bounded: past the budget the
/// oldest are dropped (a batch over a whole repository need not hold it all).
pub(crate) struct Texts {
    docs: HashMap<PathBuf, std::result::Result<Document, ErrorInfo>>,
    order: std::collections::VecDeque<PathBuf>,
    bytes: usize,
}

impl Texts {
    const BUDGET_BYTES: usize = 256 * 1024 * 1024;

    fn get(&mut self, path: &Path) -> &std::result::Result<Document, ErrorInfo> {
        if !self.docs.contains_key(path) {
            let doc = read_text(path).map_err(|e| e.info());
            self.bytes += doc.as_ref().map_or(0, Document::len_bytes);
            while self.bytes > Self::BUDGET_BYTES && !self.order.is_empty() {
                let old = self.order.pop_front().expect("not empty");
                if let Some(Ok(d)) = self.docs.remove(&old) {
                    self.bytes -= d.len_bytes();
                }
            }
            self.order.push_back(path.to_path_buf());
            self.docs.insert(path.to_path_buf(), doc);
        }
        &self.docs[path]
    }
}

/// `resolve`: one output line per input line, in order. With `--text FILE`
/// every line resolves in that file; else (`--batch`) in its `textPath`. A
/// line whose file cannot be read answers `{"id","error":{code,message}}`, the
/// rest go on, and the exit code is then that error's.
pub(crate) fn resolve_lines(text: Option<&Path>) -> Result<i32> {
    let fixed = text.map(read_text).transpose()?;
    let mut texts = Texts {
        docs: HashMap::new(),
        order: Default::default(),
        bytes: 0,
    };
    let mut exit = 0;
    let stdin = std::io::stdin();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (n, line) in stdin.lock().lines().enumerate() {
        let line = line.map_err(|e| Error::BadInput(format!("stdin: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |m: String| Error::BadInput(format!("stdin line {}: {m}", n + 1));
        let (id, fp, path) = parse_resolve_line(&line, fixed.is_none()).map_err(bad)?;
        let doc = match (&fixed, path) {
            (Some(d), _) => Ok(d),
            (None, Some(p)) => texts.get(Path::new(&p)).as_ref(),
            (None, None) => unreachable!("parse_resolve_line asks for textPath in batch mode"),
        };
        let id = serde_json::to_string(&id).expect("a JSON value serializes");
        let written = match doc {
            Err(e) => {
                exit = e.code.exit_code();
                let error = json!({ "code": e.code, "message": e.message });
                writeln!(out, r#"{{"id":{id},"error":{error}}}"#)
            }
            Ok(doc) => match resolve(doc, &fp, None) {
                Resolution::Found(r) => {
                    let b = doc.char_range_to_bytes(r);
                    writeln!(out, r#"{{"id":{id},"start":{},"end":{}}}"#, b.start.0, b.end.0)
                }
                Resolution::Relocated(r) => {
                    let b = doc.char_range_to_bytes(r);
                    writeln!(
                        out,
                        r#"{{"id":{id},"start":{},"end":{},"stale":true}}"#,
                        b.start.0, b.end.0
                    )
                }
                // Found by the fallback evidence alone: the exact text, to confirm.
                Resolution::Likely(r) => {
                    let b = doc.char_range_to_bytes(r);
                    writeln!(
                        out,
                        r#"{{"id":{id},"start":{},"end":{},"likely":true}}"#,
                        b.start.0, b.end.0
                    )
                }
                Resolution::Orphaned => writeln!(out, r#"{{"id":{id},"orphaned":true}}"#),
            },
        };
        written.map_err(|e| Error::BadInput(format!("stdout: {e}")))?;
    }
    out.flush().map_err(|e| Error::BadInput(format!("stdout: {e}")))?;
    Ok(exit)
}

/// One stdin line of `resolve`.
#[derive(serde::Deserialize)]
pub(crate) struct ResolveLine {
    id: Value,
    fingerprint: ResolveFingerprint,
    #[serde(rename = "textPath")]
    text_path: Option<String>,
}

#[derive(serde::Deserialize)]
pub(crate) struct ResolveFingerprint {
    text: String,
    #[serde(default)]
    before: String,
    #[serde(default)]
    after: String,
    #[serde(default, rename = "lineHint")]
    line_hint: usize,
}

/// One line of `resolve`: its id, fingerprint and (when `with_path`) text path.
pub(crate) fn parse_resolve_line(
    line: &str,
    with_path: bool,
) -> std::result::Result<(Value, Fingerprint, Option<String>), String> {
    let l: ResolveLine = serde_json::from_str(line).map_err(|e| format!("{e}"))?;
    if with_path && l.text_path.is_none() {
        return Err("missing \"textPath\" (a file, relative to the current directory)".into());
    }
    let fp = l.fingerprint;
    Ok((
        l.id,
        Fingerprint {
            text: fp.text,
            before: fp.before,
            after: fp.after,
            line_hint: fp.line_hint,
            extra: Default::default(),
        },
        l.text_path.filter(|_| with_path),
    ))
}
