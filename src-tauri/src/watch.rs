//! The workspace watcher: debounced file events → the core's `files_changed` →
//! `notice` events for the UI. The core decides what an event means (its own
//! write, a reload, a conflict); this module only carries them.

use crate::AppState;
use notify::event::{EventKind, EventKindMask, ModifyKind};
use notify::{Event, RecommendedWatcher, RecursiveMode, Watcher as _};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;
use tauri::{Emitter, Manager};

/// Dropping it stops watching (and its thread, which waits on it, ends).
pub type Watcher = RecommendedWatcher;

/// Debounce window: quick enough to re-render an external change well within
/// 500 ms, long enough to see a git checkout's burst of writes as one.
const DEBOUNCE: Duration = Duration::from_millis(120);

/// The longest a burst is gathered before what came is handed on.
const MAX_BURST: Duration = Duration::from_millis(1000);

/// What the kernel is asked to report: a file made, removed, renamed or
/// written; never a file opened or closed. notify 8 asked for every open
/// (inotify's `IN_OPEN`, with no way to leave it out): the app's own search
/// of a 38,000-page tree woke this thread 38,000 times while it ran, and so
/// did any `rg`, `git status` or editor reading the workspace.
fn content_changes() -> EventKindMask {
    EventKindMask::CREATE | EventKindMask::REMOVE | EventKindMask::MODIFY_DATA | EventKindMask::MODIFY_NAME
}

/// Watch `root`: a thread waits for the first event (blocked: an idle
/// workspace wakes nothing — a debouncer that ticks every 30 ms did), then
/// gathers the burst until `DEBOUNCE` passes without one, and hands the paths
/// it changed to the core.
pub fn start(app: tauri::AppHandle, root: PathBuf) -> notify::Result<Watcher> {
    let (tx, rx) = mpsc::channel::<notify::Result<Event>>();
    let mut watcher = RecommendedWatcher::new(
        move |e| {
            let _ = tx.send(e);
        },
        notify::Config::default().with_event_kinds(content_changes()),
    )?;
    watcher.watch(&root, RecursiveMode::Recursive)?;
    std::thread::Builder::new()
        .name("watcher".into())
        .spawn(move || {
            // Ends when the watcher is dropped (its sender with it).
            while let Ok(first) = rx.recv() {
                // A burst, up to `MAX_BURST` (a file written without pause
                // must not hold back every other change).
                let until = std::time::Instant::now() + MAX_BURST;
                let mut events = vec![first];
                while let Some(wait) = until.checked_duration_since(std::time::Instant::now()) {
                    match rx.recv_timeout(wait.min(DEBOUNCE)) {
                        Ok(e) => events.push(e),
                        Err(_) => break,
                    }
                }
                changed(&app, events.into_iter().filter_map(Result::ok));
            }
        })
        .map_err(notify::Error::io)?;
    Ok(watcher)
}

/// The content changes among `events`, given to the core; its notices to the UI.
fn changed(app: &tauri::AppHandle, events: impl Iterator<Item = Event>) {
    let paths: BTreeSet<PathBuf> = events
        // Content changes only (the kernel is not asked for the rest, but
        // another backend filters in user space, and a change of only its
        // metadata is none): reading a file must not echo back.
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Create(_)
                    | EventKind::Remove(_)
                    | EventKind::Modify(ModifyKind::Data(_) | ModifyKind::Name(_) | ModifyKind::Any)
                    | EventKind::Any
            )
        })
        .flat_map(|e| e.paths.into_iter())
        // Nothing of git's own but its HEAD: a checkout or a new branch shows
        // in the status bar at once.
        .filter(|p| p.ends_with(".git/HEAD") || !p.components().any(|c| c.as_os_str() == ".git"))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().ends_with(".tmp"))
        })
        .collect();
    if paths.is_empty() {
        return;
    }
    let state = app.state::<AppState>();
    let paths: Vec<PathBuf> = paths.into_iter().collect();
    let notices = state
        .with(|api| Ok(api.files_changed(&paths)))
        .unwrap_or_default();
    for n in notices {
        let _ = app.emit("notice", n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reading files in the workspace wakes nothing; writing one does. The
    /// kernel reports in order, so every event before the write's is one the
    /// reads could have raised.
    #[test]
    fn reading_raises_no_event_writing_does() {
        let dir = tempfile::tempdir().unwrap();
        let read = dir.path().join("read.md");
        std::fs::write(&read, "text").unwrap();
        let (tx, rx) = mpsc::channel();
        let mut watcher = RecommendedWatcher::new(
            move |e| {
                let _ = tx.send(e);
            },
            notify::Config::default().with_event_kinds(content_changes()),
        )
        .unwrap();
        watcher.watch(dir.path(), RecursiveMode::Recursive).unwrap();
        for _ in 0..20 {
            std::fs::read(&read).unwrap();
        }
        std::fs::write(dir.path().join("written.md"), "text").unwrap();
        let mut before = Vec::new();
        loop {
            let e = rx
                .recv_timeout(Duration::from_secs(60))
                .expect("no event for the write within a minute")
                .unwrap();
            if e.paths.iter().any(|p| p.ends_with("written.md")) {
                break;
            }
            before.push(e);
        }
        assert!(before.is_empty(), "reading raised {before:?}");
    }
}
