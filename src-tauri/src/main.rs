//! Cowriting Desktop: the Tauri 2 shell over the `cowriting` core.
//!
//! The commands are the table in [`commands`]: one line each over the
//! [`cowriting::desk::Desk`] the app keeps (the open workspace's
//! [`cowriting::api::Api`] and the running jobs), their errors mapped to
//! `{code, message}`.
//!
//! The rest of this file is app plumbing the core must not know about: which
//! folder is open (the command line: a folder, or a document, opened in its git
//! work tree or its folder; a dialog; recent folders; or the bundled sample on
//! first run; the one at start opened on a thread of its own while the window
//! comes up, the commands waiting for it), the file watcher, the close-with-unsaved-changes prompt, the
//! checkers' preload once the first document is editable (Harper is not
//! preloaded: it runs in a child process of this executable, started with
//! `--harper-checker` at the first check, which exits when unused for
//! [`CHECKER_IDLE`]), and hot exit: a
//! background thread journals unsaved buffers outside the workspace
//! ([`cowriting::api::Api::backups_due`]) every [`BACKUP_EVERY`]; opening a
//! workspace restores a crashed session's; a normal quit removes them.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod allocator;
mod caret;
mod commands;
mod export;
mod pdf;
mod pdf_fonts;
mod rendering;
mod sample;
mod watch;
mod web_env;
mod window_guard;

use cowriting::api::{Api, RestoreReport, SettingsDto, WorkspaceInfo};
use cowriting::desk::Desk;
use cowriting::{Error, ErrorCode, ErrorInfo};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tauri::{Emitter, Manager};

type Res<T> = Result<T, ErrorInfo>;

/// The open workspace and its watcher.
struct AppState {
    /// The open workspace and the running jobs.
    desk: Arc<Desk>,
    watcher: Mutex<Option<watch::Watcher>>,
    config_dir: Mutex<Option<PathBuf>>,
    started: std::time::Instant,
    /// The folder named on the command line (or in `COWRITING_WORKSPACE`), or the
    /// one a document named there opened in, which `open_folder` may reopen.
    given_folder: Mutex<Option<PathBuf>>,
    /// The document named on the command line, until the UI takes it to show.
    initial_document: Mutex<Option<String>>,
    /// What opening the workspace restored from the last session, until the UI takes it.
    restored: Mutex<Option<RestoreReport>>,
    /// Held while backups are taken and written, and while a quit removes them:
    /// no write lands after the removal.
    backup_io: Mutex<()>,
    /// Set once the checkers' preload has started (at the first `ui_ready`).
    preloading: std::sync::atomic::AtomicBool,
    /// The workspace named at start being opened, off the main thread.
    opening: Opening,
}

/// The workspace named at start (the command line, or the sample written on
/// first run) is opened on a thread of its own, so the window's event loop
/// runs meanwhile (a 38,000-page tree: its listing and the watcher's walk,
/// about 185 ms); every command that reads the workspace, and every later
/// open, waits for it first ([`AppState::opened`]).
#[derive(Default)]
struct Opening {
    busy: Mutex<bool>,
    done: std::sync::Condvar,
}

impl Opening {
    fn begin(&self) {
        *lock(&self.busy) = true;
    }

    fn end(&self) {
        *lock(&self.busy) = false;
        self.done.notify_all();
    }

    fn wait(&self) {
        let mut busy = lock(&self.busy);
        while *busy {
            busy = self.done.wait(busy).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Ends the opening when dropped: on a panic in the opening thread too, so no
/// command waits for ever.
struct OpeningEnds<'a>(&'a Opening);

impl Drop for OpeningEnds<'_> {
    fn drop(&mut self) {
        self.0.end();
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            desk: Arc::default(),
            watcher: Mutex::default(),
            config_dir: Mutex::default(),
            started: std::time::Instant::now(),
            given_folder: Mutex::default(),
            initial_document: Mutex::default(),
            restored: Mutex::default(),
            backup_io: Mutex::default(),
            preloading: Default::default(),
            opening: Opening::default(),
        }
    }
}

impl AppState {
    /// This state once the workspace named at start is open (or failed to).
    fn opened(&self) -> &Self {
        self.opening.wait();
        self
    }

    /// Run `f` on the open workspace's API.
    fn with<T>(&self, f: impl FnOnce(&mut Api) -> cowriting::Result<T>) -> Res<T> {
        self.opened().desk.with(f).map_err(|e| e.info())
    }
}

fn info(e: impl std::fmt::Display) -> ErrorInfo {
    Error::BadInput(e.to_string()).info()
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Save the settings. The webview alone cannot choose a program to run: when
/// the Claude command changes, the writer confirms the exact new command in a
/// native dialog first; Cancel writes nothing and answers a `cancelled` error.
/// (The command is async, so the blocking dialog runs off the main thread.)
fn save_settings(app: &tauri::AppHandle, settings: &SettingsDto) -> Res<SettingsDto> {
    let state = app.state::<AppState>();
    let saved = state.with(|api| api.settings())?;
    if let Some(command) = changed_command(&saved, settings) {
        use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};
        let confirmed = app
            .dialog()
            .message(format!(
                "Ask Claude… will run this program:\n\n{command}\n\nUse it only if you trust it."
            ))
            .title("Change the Claude command?")
            .kind(MessageDialogKind::Warning)
            .buttons(MessageDialogButtons::OkCancelCustom(
                "Use this command".into(),
                "Cancel".into(),
            ))
            .blocking_show();
        if !confirmed {
            return Err(ErrorInfo {
                code: ErrorCode::Cancelled,
                message: format!("settings not saved: the new Claude command {command:?} was not confirmed"),
            });
        }
    }
    state.with(|api| api.save_settings(settings))
}

/// The Claude command `next` would save, when it differs from the saved one
/// (an empty command keeps the saved one, as `Api::save_settings` does).
fn changed_command(saved: &SettingsDto, next: &SettingsDto) -> Option<String> {
    let command = next.claude_command.trim();
    (!command.is_empty() && command != saved.claude_command.trim()).then(|| command.to_owned())
}

// ---- hot exit -------------------------------------------------------------------

/// How often the backup thread looks for changed buffers.
const BACKUP_EVERY: std::time::Duration = std::time::Duration::from_millis(500);

/// Journal unsaved buffers: take what is due under the state lock (cheap),
/// write it after releasing it. The UI thread never waits on a backup's I/O.
fn start_backups(app: tauri::AppHandle) {
    let spawned = std::thread::Builder::new()
        .name("backups".into())
        .spawn(move || loop {
            std::thread::sleep(BACKUP_EVERY);
            let state = app.state::<AppState>();
            let _io = lock(&state.backup_io);
            let due = state
                .desk
                .api()
                .as_mut()
                .map(Api::backups_due)
                .unwrap_or_default();
            for e in cowriting::api::write_backups(&due) {
                eprintln!("cowriting-desktop: {e}");
            }
        });
    if let Err(e) = spawned {
        eprintln!("cowriting-desktop: no crash recovery: cannot start the backup thread: {e}");
    }
}

/// A normal quit (the writer saved or discarded at the prompt): no backups stay.
fn discard_backups(app: &tauri::AppHandle) {
    let state = app.state::<AppState>();
    let _io = lock(&state.backup_io);
    let errors = state
        .desk
        .api()
        .as_mut()
        .map(Api::discard_backups)
        .unwrap_or_default();
    for e in errors {
        eprintln!("cowriting-desktop: {e}");
    }
}

// ---- workspace selection --------------------------------------------------------

/// Open `dir` as the workspace: replaces the API, restarts the watcher, records
/// it among the recent folders, and tells the window (`workspace-opened`).
fn open_workspace(app: &tauri::AppHandle, dir: &Path) -> Res<WorkspaceInfo> {
    // Never beside the opening at start: the later open must be the one kept.
    app.state::<AppState>().opening.wait();
    let opened = open_workspace_quietly(app, dir)?;
    let _ = app.emit("workspace-opened", &opened);
    Ok(opened)
}

/// [`open_workspace`] without telling the window: the workspace opened at
/// start, which the window asks for (`workspace`) when it is ready.
fn open_workspace_quietly(app: &tauri::AppHandle, dir: &Path) -> Res<WorkspaceInfo> {
    let state = app.state::<AppState>();
    let opened = state.desk.open(dir).map_err(|e| e.info())?;
    *lock(&state.restored) = Some(opened.restored);
    let watcher = watch::start(app.clone(), opened.root.clone()).map_err(info_of_watch)?;
    *lock(&state.watcher) = Some(watcher);
    if let Some(cfg) = lock(&state.config_dir).clone() {
        recent::push(&cfg, &opened.root);
    }
    Ok(opened.info)
}

fn info_of_watch(e: notify::Error) -> ErrorInfo {
    info(format!("cannot watch the workspace: {e}"))
}

/// Reopen a folder the app already knows: a recent folder, the one given on the
/// command line, or the sample. Any other path from the webview is refused (a
/// new folder is opened with the native dialog, `pick_folder`).
fn reopen_folder(app: &tauri::AppHandle, path: &str) -> Res<WorkspaceInfo> {
    let state = app.state::<AppState>();
    let state = state.opened();
    let mut known: Vec<PathBuf> = lock(&state.config_dir)
        .as_ref()
        .map(|cfg| recent::list(cfg).into_iter().map(PathBuf::from).collect())
        .unwrap_or_default();
    known.extend(lock(&state.given_folder).clone());
    known.push(sample::dir(&data_dir(app)));
    let asked = Path::new(path);
    if !is_known_folder(asked, &known) {
        return Err(info(format!(
            "{path}: not a recent folder; open a new folder with Open folder… (Ctrl+O)"
        )));
    }
    open_workspace(app, asked)
}

/// Whether `asked` is one of `known`, compared as resolved paths.
fn is_known_folder(asked: &Path, known: &[PathBuf]) -> bool {
    let Ok(asked) = asked.canonicalize() else {
        return false;
    };
    known.iter().any(|k| k.canonicalize().is_ok_and(|k| k == asked))
}

/// Show the system folder dialog; `None` when the writer cancels.
fn pick_folder(app: &tauri::AppHandle) -> Res<Option<WorkspaceInfo>> {
    use tauri_plugin_dialog::DialogExt;
    let Some(choice) = app
        .dialog()
        .file()
        .set_title("Open a folder of Markdown files")
        .blocking_pick_folder()
    else {
        return Ok(None);
    };
    let dir = choice.into_path().map_err(info)?;
    open_workspace(app, &dir).map(Some)
}

fn recent_folders(app: &tauri::AppHandle) -> Vec<String> {
    match lock(&app.state::<AppState>().config_dir).as_ref() {
        Some(cfg) => recent::list(cfg),
        None => Vec::new(),
    }
}

fn open_sample(app: &tauri::AppHandle) -> Res<WorkspaceInfo> {
    let dir = sample::ensure(&data_dir(app)).map_err(|e| e.info())?;
    open_workspace(app, &dir)
}

/// The UI shows its first document. With `COWRITING_TIMING` set, prints the time
/// since the process started (the cold-start figure of docs/performance.md).
fn ui_ready(app: &tauri::AppHandle) {
    let state = app.state::<AppState>();
    if std::env::var_os("COWRITING_TIMING").is_some() {
        eprintln!(
            "cowriting-desktop: first document editable {} ms after start",
            state.started.elapsed().as_millis()
        );
    }
    // Now that the writer can type, load the checkers Check document will run,
    // in the background, so the first check answers in seconds.
    if !state.preloading.swap(true, std::sync::atomic::Ordering::SeqCst) {
        let spawned = std::thread::Builder::new()
            .name("preload-checkers".into())
            .spawn(|| match cowriting::config::Config::load() {
                Ok(cfg) => cowriting::suggest::preload_enabled(&cfg),
                Err(e) => eprintln!("cowriting-desktop: checkers not preloaded: {}", e.info().message),
            });
        if let Err(e) = spawned {
            eprintln!("cowriting-desktop: checkers not preloaded: {e}");
        }
    }
}

/// A link the writer clicked (in a comment): opened by the system's browser or
/// mail program, never in the app's window; http, https and mailto only.
fn open_link(url: &str) -> Res<()> {
    let url = window_guard::link(url).map_err(info)?;
    window_guard::open_outside(&url).map_err(|e| {
        Error::NotInstalled {
            producer: "open link".into(),
            program: "xdg-open".into(),
            hint: Some(e),
        }
        .info()
    })
}

fn data_dir(app: &tauri::AppHandle) -> PathBuf {
    app.path()
        .app_data_dir()
        .unwrap_or_else(|_| std::env::temp_dir().join("cowriting"))
}

mod recent {
    //! Recent folders: a JSON list in the user's config folder.
    use std::path::Path;

    const FILE: &str = "recent-folders.json";
    const KEEP: usize = 10;

    pub fn list(cfg: &Path) -> Vec<String> {
        std::fs::read_to_string(cfg.join(FILE))
            .ok()
            .and_then(|t| serde_json::from_str::<Vec<String>>(&t).ok())
            .unwrap_or_default()
            .into_iter()
            .filter(|p| Path::new(p).is_dir())
            .collect()
    }

    pub fn push(cfg: &Path, dir: &Path) {
        let dir = dir.display().to_string();
        let mut all = list(cfg);
        all.retain(|p| *p != dir);
        all.insert(0, dir);
        all.truncate(KEEP);
        if let Ok(text) = serde_json::to_string_pretty(&all) {
            let _ = cowriting::fsutil::atomic_write(&cfg.join(FILE), text.as_bytes());
        }
    }
}

/// What to open at start.
struct Start {
    /// The workspace folder.
    dir: PathBuf,
    /// Named on the command line or in `COWRITING_WORKSPACE` (not the sample).
    given: bool,
    /// The document named on the command line, workspace-relative.
    document: Option<String>,
}

/// The first command-line argument: a folder, or a document (`cowriting-desktop
/// essay.md`, as the desktop entry passes it), which opens in the git work tree
/// it is in, else in its folder ([`cowriting::api::workspace_of_document`]);
/// else the folder in `COWRITING_WORKSPACE`; else the bundled sample workspace
/// (copied to the app's data folder on first run).
fn initial_workspace(app: &tauri::AppHandle) -> Result<Start, String> {
    if let Some(arg) = std::env::args_os()
        .skip(1)
        .find(|a| !a.to_string_lossy().starts_with('-'))
    {
        let path = PathBuf::from(arg);
        if path.is_file() {
            let (ws, doc) = cowriting::api::workspace_of_document(&path).map_err(|e| e.to_string())?;
            return Ok(Start {
                dir: ws.root().to_path_buf(),
                given: true,
                document: Some(doc.to_string()),
            });
        }
        return Ok(Start {
            dir: path,
            given: true,
            document: None,
        });
    }
    if let Ok(dir) = std::env::var("COWRITING_WORKSPACE") {
        return Ok(Start {
            dir: PathBuf::from(dir),
            given: true,
            document: None,
        });
    }
    sample::ensure(&data_dir(app))
        .map(|dir| Start {
            dir,
            given: false,
            document: None,
        })
        .map_err(|e| e.to_string())
}

/// How long the Harper checker process may sit unused before it exits and its
/// memory goes back to the system (`COWRITING_CHECKER_IDLE_SECS` overrides).
const CHECKER_IDLE: std::time::Duration = std::time::Duration::from_secs(5 * 60);

/// Harper runs in a child process of this executable ([`cowriting::producers::checker`]).
fn configure_checker() {
    use cowriting::producers::checker;
    let idle = std::env::var("COWRITING_CHECKER_IDLE_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(std::time::Duration::from_secs_f64)
        .unwrap_or(CHECKER_IDLE);
    let configured = std::env::current_exe()
        .map_err(|e| e.to_string())
        .and_then(|program| {
            checker::configure(checker::Spec {
                program,
                args: vec![checker::ARG.into()],
                idle,
            })
            .map_err(|e| e.info().message)
        });
    if let Err(e) = configured {
        eprintln!("cowriting-desktop: Harper runs in this process: {e}");
    }
}

fn main() {
    allocator::give_back_large_blocks();
    if std::env::args_os()
        .nth(1)
        .is_some_and(|a| a == cowriting::producers::checker::ARG)
    {
        std::process::exit(match cowriting::producers::checker::serve_stdio() {
            std::process::ExitCode::SUCCESS => 0,
            _ => 1,
        });
    }
    rendering::choose();
    web_env::size_js_heap();
    configure_checker();
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(window_guard::plugin())
        .manage(AppState::default())
        .setup(|app| {
            caret::still();
            let handle = app.handle().clone();
            let state = handle.state::<AppState>();
            *state.config_dir.lock().unwrap_or_else(|e| e.into_inner()) = handle.path().app_config_dir().ok();
            // Opened off the main thread; the commands wait for it (Opening).
            state.opening.begin();
            let opener = handle.clone();
            let spawned = std::thread::Builder::new()
                .name("open-workspace".into())
                .spawn(move || {
                    let state = opener.state::<AppState>();
                    let _ends = OpeningEnds(&state.opening);
                    match initial_workspace(&opener) {
                        Ok(start) => {
                            if start.given {
                                *lock(&state.given_folder) = Some(start.dir.clone());
                            }
                            match open_workspace_quietly(&opener, &start.dir) {
                                Ok(_) => *lock(&state.initial_document) = start.document,
                                Err(e) => eprintln!("cowriting-desktop: {}", e.message),
                            }
                        }
                        Err(e) => eprintln!("cowriting-desktop: {e}"),
                    }
                });
            if let Err(e) = spawned {
                state.opening.end();
                eprintln!("cowriting-desktop: cannot start opening the workspace: {e}");
            }
            start_backups(handle.clone());
            Ok(())
        })
        .on_window_event(|window, event| {
            if let tauri::WindowEvent::CloseRequested { api, .. } = event {
                let state = window.state::<AppState>();
                let dirty = state.with(|a| Ok(a.dirty_documents())).unwrap_or_default();
                if !dirty.is_empty() {
                    // The UI asks; it calls `quit` when the writer confirms.
                    api.prevent_close();
                    let _ = window.emit("close-requested", dirty);
                }
            }
        })
        .invoke_handler(commands::handler())
        .build(tauri::generate_context!())
        .expect("error while building Cowriting Desktop")
        .run(|app, event| {
            // Exit comes only from a normal quit (after the close prompt); a
            // crash or a kill never gets here and leaves the backups.
            if let tauri::RunEvent::Exit = event {
                discard_backups(app);
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `opening.wait()` returns within `ms` (it runs on a thread of its own).
    fn waits_out(opening: &Arc<Opening>, ms: u64) -> bool {
        let (tx, rx) = std::sync::mpsc::channel();
        let o = opening.clone();
        std::thread::spawn(move || {
            o.wait();
            let _ = tx.send(());
        });
        rx.recv_timeout(std::time::Duration::from_millis(ms)).is_ok()
    }

    /// A command waits while the workspace named at start is being opened,
    /// and goes on once it is; with no opening under way it does not wait.
    #[test]
    fn commands_wait_for_the_opening_at_start() {
        let opening = Arc::new(Opening::default());
        assert!(waits_out(&opening, 5_000), "nothing to wait for");
        opening.begin();
        assert!(
            !waits_out(&opening, 200),
            "went on while the opening was under way"
        );
        let (tx, rx) = std::sync::mpsc::channel();
        let o = opening.clone();
        std::thread::spawn(move || {
            o.wait();
            let _ = tx.send(());
        });
        opening.end();
        assert!(
            rx.recv_timeout(std::time::Duration::from_secs(30)).is_ok(),
            "still waiting once opened"
        );
    }

    /// The opening thread ends the opening even when it panics: no command
    /// waits for ever.
    #[test]
    fn the_opening_ends_when_its_thread_panics() {
        let opening = Arc::new(Opening::default());
        opening.begin();
        let o = opening.clone();
        let thread = std::thread::spawn(move || {
            let _ends = OpeningEnds(&o);
            panic!("the open failed badly");
        });
        assert!(thread.join().is_err());
        assert!(waits_out(&opening, 30_000), "a command would wait for ever");
    }

    fn settings(command: &str) -> SettingsDto {
        SettingsDto {
            path: "/home/w/.config/cowriting/config.toml".into(),
            transport: None,
            model: None,
            claude_command: command.into(),
            timeout_secs: 60,
            enabled: Vec::new(),
            available: Vec::new(),
            enabled_by_default: true,
            not_installed: Vec::new(),
            have_api_key: false,
            identity: cowriting::api::IdentityDto {
                name: None,
                email: None,
                git_name: None,
                git_email: None,
                id: "w".into(),
                display: "w".into(),
                source: cowriting::identity::IdentitySource::System,
                ask: false,
            },
            autosave: cowriting::config::AutoSave::Off,
            autosave_delay_secs: 2,
            spelling_language: "en_US".into(),
            spelling_languages: vec!["en_US".into()],
            workspace_spelling_language: None,
            workspace_warnings: vec![],
            harper_rules: Vec::new(),
            harper_choices: Default::default(),
            harper_quiet: Vec::new(),
            trailer: Default::default(),
        }
    }

    #[test]
    fn only_a_new_command_needs_confirming() {
        let saved = settings("claude");
        assert_eq!(changed_command(&saved, &settings("claude")), None);
        assert_eq!(changed_command(&saved, &settings("  claude ")), None);
        // Empty keeps the saved command (Api::save_settings ignores it).
        assert_eq!(changed_command(&saved, &settings("   ")), None);
        assert_eq!(
            changed_command(&saved, &settings("/tmp/evil --flag")),
            Some("/tmp/evil --flag".into())
        );
    }

    #[test]
    fn only_known_folders_reopen() {
        let known = tempfile_dir("known");
        let other = tempfile_dir("other");
        let list = vec![known.clone()];
        assert!(is_known_folder(&known, &list));
        assert!(is_known_folder(&known.join("."), &list));
        assert!(!is_known_folder(&other, &list));
        assert!(!is_known_folder(&known.join("missing"), &list));
        std::os::unix::fs::symlink(&known, other.join("link")).unwrap();
        assert!(is_known_folder(&other.join("link"), &list), "compared resolved");
        let _ = std::fs::remove_dir_all(known);
        let _ = std::fs::remove_dir_all(other);
    }

    fn tempfile_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("cowriting-desktop-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }
}
