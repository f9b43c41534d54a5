//! The workspace watcher: debounced file events → the core's `file_changed` →
//! `notice` events for the UI. The core decides what an event means (its own
//! write, a reload, a conflict); this module only carries them.

use crate::AppState;
use notify_debouncer_full::notify::event::{EventKind, ModifyKind};
use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;
use tauri::{Emitter, Manager};

/// Dropping it stops watching.
pub type Watcher = Debouncer<RecommendedWatcher, RecommendedCache>;

/// Debounce window: quick enough to re-render an external change well within
/// 500 ms, long enough to see a git checkout's burst of writes as one.
const DEBOUNCE: Duration = Duration::from_millis(120);

pub fn start(app: tauri::AppHandle, root: PathBuf) -> notify::Result<Watcher> {
    let mut debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
        let Ok(events) = result else { return };
        let paths: BTreeSet<PathBuf> = events
            .iter()
            // Content changes only: reading a file (as the app itself does to
            // refresh) raises access events, which must not echo back.
            .filter(|e| {
                matches!(
                    e.kind,
                    EventKind::Create(_)
                        | EventKind::Remove(_)
                        | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any)
                        | EventKind::Any
                )
            })
            .flat_map(|e| e.paths.iter().cloned())
            .filter(|p| !p.components().any(|c| c.as_os_str() == ".git"))
            .filter(|p| {
                !p.file_name()
                    .is_some_and(|n| n.to_string_lossy().ends_with(".tmp"))
            })
            .collect();
        if paths.is_empty() {
            return;
        }
        let state = app.state::<AppState>();
        let notices = state
            .with(|api| {
                let mut out = Vec::new();
                for p in &paths {
                    for n in api.file_changed(p) {
                        if !out.contains(&n) {
                            out.push(n);
                        }
                    }
                }
                Ok(out)
            })
            .unwrap_or_default();
        for n in notices {
            let _ = app.emit("notice", n);
        }
    })?;
    debouncer.watch(&root, RecursiveMode::Recursive)?;
    Ok(debouncer)
}
