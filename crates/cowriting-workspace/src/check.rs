//! Validation of sidecars: `cowriting check`.
//!
//! Reports every problem found, not just the first: a sidecar that does not
//! parse, a newer `schemaVersion`, records pointing at anchors that do not
//! exist, a `docPath` that disagrees with where the file lies, a sidecar whose
//! document is missing, and ids used twice.

use crate::error::ErrorCode;
use crate::workspace::{DocPath, Workspace};
use cowriting_core::model::{parse_artifact, Artifact, ModelError};
use serde::Serialize;
use std::collections::HashSet;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing; nothing is wrong with the data.
    Warning,
    /// The sidecar was written by a newer version; it is left alone.
    Newer,
    /// The sidecar is corrupt or inconsistent.
    Error,
}

#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub severity: Severity,
    pub message: String,
}

/// The result of checking one sidecar.
#[derive(Clone, Debug, Serialize)]
pub struct SidecarReport {
    pub doc: String,
    /// Workspace-relative path of the sidecar file.
    pub file: String,
    pub problems: Vec<Problem>,
    #[serde(skip)]
    pub path: PathBuf,
}

impl SidecarReport {
    pub fn ok(&self) -> bool {
        self.problems.iter().all(|p| p.severity == Severity::Warning)
    }

    pub fn worst(&self) -> Option<Severity> {
        self.problems.iter().map(|p| p.severity).max()
    }
}

/// The exit code for a set of reports: 0 clean, 3 a newer sidecar, 4 a corrupt one.
pub fn exit_code(reports: &[SidecarReport]) -> i32 {
    match reports.iter().filter_map(SidecarReport::worst).max() {
        Some(Severity::Error) => ErrorCode::CorruptSidecar.exit_code(),
        Some(Severity::Newer) => ErrorCode::NewerSchema.exit_code(),
        _ => 0,
    }
}

/// Check the sidecars of `docs`, or every sidecar in the workspace when empty.
pub fn check(ws: &Workspace, docs: &[DocPath]) -> Vec<SidecarReport> {
    let targets: Vec<(DocPath, Option<PathBuf>)> = if docs.is_empty() {
        // Through the guard: a symlinked or non-regular sidecar is reported, never read.
        ws.list_sidecars()
            .into_iter()
            .map(|(d, _)| {
                let p = ws.sidecar_file(&d).ok();
                (d, p)
            })
            .collect()
    } else {
        docs.iter()
            .map(|d| (d.clone(), ws.sidecar_file(d).ok()))
            .collect()
    };
    targets
        .into_iter()
        .map(|(doc, path)| check_one(ws, &doc, path))
        .collect()
}

fn check_one(ws: &Workspace, doc: &DocPath, path: Option<PathBuf>) -> SidecarReport {
    let file = format!("{}/{}.json", crate::workspace::SIDECAR_DIR, doc);
    let mut report = SidecarReport {
        doc: doc.to_string(),
        file,
        problems: Vec::new(),
        path: path.clone().unwrap_or_default(),
    };
    let mut problem = |severity, message: String| report.problems.push(Problem { severity, message });
    let Some(path) = path else {
        let why = ws
            .sidecar_file(doc)
            .err()
            .map_or_else(|| "path leads outside the workspace".into(), |e| e.to_string());
        problem(Severity::Error, why);
        return report;
    };
    match ws.doc_file(doc) {
        Ok(f) if f.is_file() => {}
        Ok(_) => problem(Severity::Warning, format!("document {doc} does not exist")),
        // A name the guard refuses (a link into .git, out of the workspace):
        // its review data is there, but it is not a document.
        Err(e) => problem(Severity::Warning, e.to_string()),
    }
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            problem(Severity::Warning, "no sidecar (nothing to check)".into());
            return report;
        }
        Err(e) => {
            problem(Severity::Error, format!("cannot read: {e}"));
            return report;
        }
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        problem(Severity::Error, "not UTF-8".into());
        return report;
    };
    let artifact = match parse_artifact(text) {
        Ok(a) => a,
        Err(e @ ModelError::NewerSchema { .. }) => {
            problem(Severity::Newer, e.to_string());
            return report;
        }
        Err(e) => {
            problem(Severity::Error, e.to_string());
            return report;
        }
    };
    for (severity, message) in consistency(&artifact, doc) {
        problem(severity, message);
    }
    report
}

/// The problems of a parsed artifact that belongs to `doc`.
pub fn consistency(a: &Artifact, doc: &DocPath) -> Vec<(Severity, String)> {
    let mut out = Vec::new();
    if a.doc_path != doc.as_str() {
        out.push((
            Severity::Error,
            format!(
                "docPath is {:?} but the sidecar belongs to {:?}",
                a.doc_path,
                doc.as_str()
            ),
        ));
    }
    let mut seen = HashSet::new();
    let dangling = |kind: &str, id: &str, anchor: &str, out: &mut Vec<(Severity, String)>| {
        if !a.anchors.contains_key(anchor) {
            out.push((
                Severity::Error,
                format!("{kind} {id} points at anchor {anchor}, which does not exist"),
            ));
        }
    };
    let mut dup = |id: &str, out: &mut Vec<(Severity, String)>| {
        if !seen.insert(id.to_owned()) {
            out.push((Severity::Error, format!("id {id} is used twice")));
        }
    };
    for t in &a.threads {
        dangling("thread", &t.id, &t.anchor_id, &mut out);
        dup(&t.id, &mut out);
        for c in &t.comments {
            dup(&c.id, &mut out);
        }
    }
    for at in &a.attributions {
        dangling("attribution", &at.id, &at.anchor_id, &mut out);
        dup(&at.id, &mut out);
    }
    for p in &a.proposals {
        dangling("proposal", &p.id, &p.anchor_id, &mut out);
        dup(&p.id, &mut out);
    }
    let referenced: HashSet<&str> = a.referenced_anchor_ids().collect();
    let unreferenced = a
        .anchors
        .keys()
        .filter(|k| !referenced.contains(k.as_str()))
        .count();
    if unreferenced > 0 {
        out.push((
            Severity::Warning,
            format!("{unreferenced} anchor(s) no record uses (pruned at the next write)"),
        ));
    }
    out
}
