//! Cowriting Desktop: the Tauri 2 shell over the `cowriting` core.
//!
//! Every command is a one-line wrapper over [`cowriting::api::Api`]: take the
//! state, call the core, map the error to `{code, message}`. Every command runs
//! off the main thread (`#[tauri::command(async)]`, or an `async fn`): Tauri runs
//! a plain command on the thread that paints the window, so a slow save or
//! check would freeze it. The UI sends edits and review commands one at a time
//! (its queue), so running them on the async runtime does not reorder them, and
//! every command takes the API's lock.
//!
//! The rest of this file is app plumbing the core must not know about: which
//! folder is open (the command line: a folder, or a document, opened in its git
//! work tree or its folder; a dialog; recent folders; or the bundled sample on
//! first run), the file watcher, the close-with-unsaved-changes prompt, the
//! checkers' preload once the first document is editable (Harper is not
//! preloaded: it runs in a child process of this executable, started with
//! `--harper-checker` at the first check, which exits when unused for
//! [`CHECKER_IDLE`]), and hot exit: a
//! background thread journals unsaved buffers outside the workspace
//! ([`cowriting::api::Api::backups_due`]) every [`BACKUP_EVERY`]; opening a
//! workspace restores a crashed session's; a normal quit removes them.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

mod export;
mod pdf;
mod pdf_fonts;
mod rendering;
mod sample;
mod watch;
mod window_guard;

use cowriting::api::review_pass::ReviewJob;
use cowriting::api::{
    Api, Applied, DocView, EditAck, FilingDto, IdentityDto, JobProgress, MergeOutcome, MergeView,
    RestoreReport, ReviewDto, SaveResult, SettingsDto, TextChange, WorkspaceInfo,
};
use cowriting::merge::Choice;
use cowriting::ops::review::ReviewOut;
use cowriting::ops::{DictionaryOut, InboxFilter, InboxOut, LintsOut, SearchOut};
use cowriting::producers::Cancel;
use cowriting::suggest::CheckOutcome;
use cowriting::views::Unit;
use cowriting::{Error, ErrorCode, ErrorInfo, Utf16Offset};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tauri::{AppHandle, Emitter, Manager, State};

type Res<T> = Result<T, ErrorInfo>;

/// The open workspace and its watcher.
struct AppState {
    api: Mutex<Option<Api>>,
    watcher: Mutex<Option<watch::Watcher>>,
    config_dir: Mutex<Option<PathBuf>>,
    started: std::time::Instant,
    /// Running producer jobs by the UI's job id, for cancel.
    jobs: Mutex<HashMap<String, Cancel>>,
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
}

impl Default for AppState {
    fn default() -> Self {
        AppState {
            api: Mutex::default(),
            watcher: Mutex::default(),
            config_dir: Mutex::default(),
            started: std::time::Instant::now(),
            jobs: Mutex::default(),
            given_folder: Mutex::default(),
            initial_document: Mutex::default(),
            restored: Mutex::default(),
            backup_io: Mutex::default(),
            preloading: Default::default(),
        }
    }
}

impl AppState {
    /// Run `f` on the open workspace's API.
    fn with<T>(&self, f: impl FnOnce(&mut Api) -> cowriting::Result<T>) -> Res<T> {
        let mut guard = self.api.lock().unwrap_or_else(|e| e.into_inner());
        let api = guard
            .as_mut()
            .ok_or_else(|| Error::BadInput("no workspace is open".into()).info())?;
        f(api).map_err(|e| e.info())
    }
}

fn info(e: impl std::fmt::Display) -> ErrorInfo {
    Error::BadInput(e.to_string()).info()
}

/// Run `f` on the blocking pool, off the UI thread and off the API's lock; its
/// error (or the pool's) as the one `{code, message}` the UI reads.
async fn off_ui<T: Send + 'static>(f: impl FnOnce() -> cowriting::Result<T> + Send + 'static) -> Res<T> {
    tauri::async_runtime::spawn_blocking(f)
        .await
        .map_err(info)
        .and_then(|r| r.map_err(|e| e.info()))
}

// ---- commands: one line each over the core API -------------------------------------

#[tauri::command(async)]
fn workspace(state: State<'_, AppState>) -> Res<WorkspaceInfo> {
    state.with(|api| Ok(api.workspace()))
}

#[tauri::command(async)]
fn open_document(state: State<'_, AppState>, path: String) -> Res<DocView> {
    state.with(|api| api.open_document(&path))
}

#[tauri::command(async)]
fn close_document(state: State<'_, AppState>, path: String) -> Res<()> {
    state.with(|api| api.close_document(&path))
}

#[tauri::command(async)]
fn new_document(state: State<'_, AppState>, name: String) -> Res<DocView> {
    state.with(|api| api.new_document(&name))
}

#[tauri::command(async)]
fn rename_document(state: State<'_, AppState>, from: String, to: String) -> Res<String> {
    state.with(|api| api.rename_document(&from, &to))
}

#[tauri::command(async)]
fn trash_document(state: State<'_, AppState>, path: String) -> Res<()> {
    state.with(|api| api.trash_document(&path))
}

#[tauri::command(async)]
fn new_folder(state: State<'_, AppState>, name: String) -> Res<String> {
    state.with(|api| api.new_folder(&name))
}

#[tauri::command(async)]
fn edit(
    state: State<'_, AppState>,
    path: String,
    version: u64,
    changes: Vec<TextChange>,
    typing: bool,
) -> Res<EditAck> {
    state.with(|api| api.edit(&path, version, &changes, typing))
}

#[tauri::command(async)]
fn review(state: State<'_, AppState>, path: String) -> Res<ReviewDto> {
    state.with(|api| api.review(&path))
}

#[tauri::command(async)]
fn authorship(state: State<'_, AppState>, path: String) -> Res<cowriting::ops::AuthorshipOut> {
    state.with(|api| api.authorship(&path))
}

#[tauri::command(async)]
fn accept(state: State<'_, AppState>, path: String, id: String, with: Option<String>) -> Res<Applied> {
    state.with(|api| api.accept(&path, &id, with.as_deref()))
}

/// A link the writer clicked (in a comment): opened by the system's browser or
/// mail program, never in the app's window; http, https and mailto only.
#[tauri::command(async)]
fn open_link(url: String) -> Res<()> {
    let url = window_guard::link(&url).map_err(info)?;
    window_guard::open_outside(&url).map_err(|e| {
        Error::NotInstalled {
            producer: "open link".into(),
            program: "xdg-open".into(),
            hint: Some(e),
        }
        .info()
    })
}

#[tauri::command(async)]
fn confirm_hidden(state: State<'_, AppState>, path: String, ids: Vec<String>) -> Res<()> {
    state.with(|api| api.confirm_hidden(&path, &ids))
}

#[tauri::command(async)]
fn reject(state: State<'_, AppState>, path: String, id: String) -> Res<Applied> {
    state.with(|api| api.reject(&path, &id))
}

#[tauri::command(async)]
fn accept_turn(state: State<'_, AppState>, path: String, turn: String) -> Res<Applied> {
    state.with(|api| api.accept_turn(&path, &turn))
}

#[tauri::command(async)]
fn reject_turn(state: State<'_, AppState>, path: String, turn: String) -> Res<Applied> {
    state.with(|api| api.reject_turn(&path, &turn))
}

#[tauri::command(async)]
fn accept_all(state: State<'_, AppState>, path: String, ids: Vec<String>) -> Res<Applied> {
    state.with(|api| api.accept_all(&path, &ids))
}

#[tauri::command(async)]
fn reject_all(state: State<'_, AppState>, path: String, ids: Vec<String>) -> Res<Applied> {
    state.with(|api| api.reject_all(&path, &ids))
}

/// Run a producer on an open document (Ask Claude…, Check document) and file
/// what it finds. The run happens off the UI thread and off the workspace lock:
/// the writer keeps typing; the selection is tracked meanwhile. `job` is the
/// UI's id for [`cancel_job`].
#[tauri::command]
#[allow(clippy::too_many_arguments)]
async fn run_producer(
    state: State<'_, AppState>,
    path: String,
    producer: String,
    from: Option<Utf16Offset>,
    to: Option<Utf16Offset>,
    instruction: Option<String>,
    job: String,
) -> Res<FilingDto> {
    let cfg = cowriting::config::Config::load().map_err(|e| e.info())?;
    let prepared = state.with(|api| api.prepare_job(&cfg, &path, &producer, from, to, instruction))?;
    let cancel = Cancel::new();
    lock(&state.jobs).insert(job.clone(), cancel.clone());
    let running = prepared.clone();
    let outcome = off_ui(move || running.run(&cfg, &cancel)).await;
    lock(&state.jobs).remove(&job);
    match outcome {
        Ok(o) => state.with(|api| api.file_job(&path, &prepared, o)),
        Err(e) => {
            let _ = state.with(|api| {
                api.drop_job(&path, &prepared);
                Ok(())
            });
            Err(e)
        }
    }
}

/// Check document: every producer enabled in the settings, in turn
/// (`cowriting::suggest::check_document`: one failing does not stop the next),
/// each prepared under the state lock, run off it and off the UI thread, and
/// filed; a `job-progress` event names the producer running. `job` cancels the
/// whole check: the running producer stops and the rest are not run.
#[tauri::command]
async fn check_document(app: AppHandle, path: String, job: String) -> Res<Vec<CheckOutcome<FilingDto>>> {
    let cfg = cowriting::config::Config::load().map_err(|e| e.info())?;
    let cancel = Cancel::new();
    lock(&app.state::<AppState>().jobs).insert(job.clone(), cancel.clone());
    let handle = app.clone();
    let running = job.clone();
    let outcomes = tauri::async_runtime::spawn_blocking(move || {
        let state = handle.state::<AppState>();
        let enabled = cfg.enabled_producers();
        cowriting::suggest::check_document(&enabled, &cancel, |producer| {
            let _ = handle.emit(
                "job-progress",
                JobProgress {
                    job: running.clone(),
                    producer: producer.to_owned(),
                },
            );
            let prepared = state.with(|api| api.prepare_job(&cfg, &path, producer, None, None, None))?;
            match prepared.run(&cfg, &cancel) {
                Ok(o) => state.with(|api| api.file_job(&path, &prepared, o)),
                Err(e) => {
                    let _ = state.with(|api| {
                        api.drop_job(&path, &prepared);
                        Ok(())
                    });
                    Err(e.info())
                }
            }
        })
    })
    .await
    .map_err(info);
    lock(&app.state::<AppState>().jobs).remove(&job);
    outcomes
}

/// Ask Claude to review an open document (the selection `from`..`to` in
/// UTF-16 units, or all of it): its comments become threads and its edits
/// pending proposals, filed one by one as they arrive while the writer keeps
/// typing; each is announced by a `review-progress` event. `job` cancels it
/// (what landed stays).
#[tauri::command]
async fn review_document(
    app: AppHandle,
    path: String,
    from: Option<Utf16Offset>,
    to: Option<Utf16Offset>,
    instruction: Option<String>,
    job: String,
) -> Res<ReviewOut> {
    let prepared = app
        .state::<AppState>()
        .with(|api| api.prepare_review(&path, from, to, instruction))?;
    run_review(app, prepared, job).await
}

/// Ask Claude in a thread of an open document: its reply (and edits of the
/// thread's text), as [`review_document`] files a review.
#[tauri::command]
async fn ask_claude(
    app: AppHandle,
    path: String,
    thread: String,
    instruction: Option<String>,
    job: String,
) -> Res<ReviewOut> {
    let prepared = app
        .state::<AppState>()
        .with(|api| api.prepare_thread_ask(&path, &thread, instruction))?;
    run_review(app, prepared, job).await
}

async fn run_review(app: AppHandle, prepared: ReviewJob, job: String) -> Res<ReviewOut> {
    let cfg = cowriting::config::Config::load().map_err(|e| e.info())?;
    let cancel = Cancel::new();
    lock(&app.state::<AppState>().jobs).insert(job.clone(), cancel.clone());
    let handle = app.clone();
    let ui_job = job.clone();
    let done = tauri::async_runtime::spawn_blocking(move || {
        let state = handle.state::<AppState>();
        cowriting::api::review_pass::run_review_job(&state.api, &cfg, prepared, &ui_job, &cancel, &mut |p| {
            let _ = handle.emit("review-progress", p);
        })
        .map_err(|e| e.info())
    })
    .await
    .map_err(info)
    .and_then(|r| r);
    lock(&app.state::<AppState>().jobs).remove(&job);
    done
}

/// Cancel a running producer job; nothing it found is filed.
#[tauri::command(async)]
fn cancel_job(state: State<'_, AppState>, job: String) {
    if let Some(c) = lock(&state.jobs).get(&job) {
        c.cancel();
    }
}

#[tauri::command(async)]
fn settings(state: State<'_, AppState>) -> Res<SettingsDto> {
    state.with(|api| api.settings())
}

#[tauri::command(async)]
fn identity(state: State<'_, AppState>) -> Res<IdentityDto> {
    state.with(|api| api.identity())
}

#[tauri::command(async)]
fn save_identity(
    state: State<'_, AppState>,
    name: Option<String>,
    email: Option<String>,
) -> Res<IdentityDto> {
    state.with(|api| api.save_identity(name.as_deref(), email.as_deref()))
}

/// Save the settings. The webview alone cannot choose a program to run: when
/// the Claude command changes, the writer confirms the exact new command in a
/// native dialog first; Cancel writes nothing and answers a `cancelled` error.
/// (Async, so the blocking dialog runs off the main thread.)
#[tauri::command]
async fn save_settings(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    settings: SettingsDto,
) -> Res<SettingsDto> {
    let saved = state.with(|api| api.settings())?;
    if let Some(command) = changed_command(&saved, &settings) {
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
    state.with(|api| api.save_settings(&settings))
}

/// The Claude command `next` would save, when it differs from the saved one
/// (an empty command keeps the saved one, as `Api::save_settings` does).
fn changed_command(saved: &SettingsDto, next: &SettingsDto) -> Option<String> {
    let command = next.claude_command.trim();
    (!command.is_empty() && command != saved.claude_command.trim()).then(|| command.to_owned())
}

/// Spelling and grammar as the writer types: Harper's lints of the texts on
/// screen (the UI sends the paragraphs it shows), run off the API's lock and
/// off the UI thread, in the checker process.
#[tauri::command]
async fn lint(state: State<'_, AppState>, texts: Vec<String>) -> Res<LintsOut> {
    let store = state.with(|api| Ok(api.store().clone()))?;
    off_ui(move || cowriting::ops::lint_texts(store.workspace(), &texts, Unit::Utf16, &Cancel::new())).await
}

/// Export… the open document as the writer has it: the native Save dialog,
/// then an HTML page, a PDF (printed by the web view's engine) or Markdown
/// with CriticMarkup, written where the writer chose; `None` when cancelled.
#[tauri::command]
async fn export_document(
    app: AppHandle,
    path: String,
    format: cowriting::ops::ExportFormat,
    with_review: bool,
    remote_images: bool,
) -> Res<Option<cowriting::ops::ExportOut>> {
    export::export_document(app, path, format, with_review, remote_images).await
}

/// Search every document (the open ones as the writer has them, searched under
/// the lock) and thread; the files are read off the lock and off the UI thread,
/// so a search of a large workspace never holds up typing or saving.
#[tauri::command]
async fn search(
    state: State<'_, AppState>,
    query: String,
    case_sensitive: bool,
    whole_word: bool,
    regex: bool,
) -> Res<SearchOut> {
    let q = cowriting::ops::SearchQuery {
        text: query,
        case_sensitive,
        whole_word,
        regex,
    };
    let (ops, open) = state.with(|api| api.search_open(&q))?;
    off_ui(move || ops.search_with(&q, open)).await
}

/// The workspace's review (the Inbox tab): the open documents as the writer
/// has them, taken under the lock; every other document with review data read
/// off it and off the UI thread.
#[tauri::command]
async fn inbox(state: State<'_, AppState>) -> Res<InboxOut> {
    let (ops, open) = state.with(|api| Ok(api.inbox_open()))?;
    off_ui(move || ops.inbox_with(&InboxFilter::default(), open)).await
}

#[tauri::command(async)]
fn add_word(state: State<'_, AppState>, word: String) -> Res<DictionaryOut> {
    state.with(|api| api.add_word(&word))
}

#[tauri::command(async)]
fn dictionary(state: State<'_, AppState>) -> Res<DictionaryOut> {
    state.with(|api| api.dictionary())
}

#[tauri::command(async)]
fn remove_word(state: State<'_, AppState>, word: String) -> Res<DictionaryOut> {
    state.with(|api| api.remove_word(&word))
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[tauri::command(async)]
fn undo(state: State<'_, AppState>, path: String) -> Res<Applied> {
    state.with(|api| api.undo(&path))
}

#[tauri::command(async)]
fn redo(state: State<'_, AppState>, path: String) -> Res<Applied> {
    state.with(|api| api.redo(&path))
}

#[tauri::command(async)]
fn seal_undo_group(state: State<'_, AppState>, path: String) -> Res<()> {
    state.with(|api| api.seal_undo_group(&path))
}

#[tauri::command(async)]
fn save(state: State<'_, AppState>, path: String) -> Res<SaveResult> {
    state.with(|api| api.save(&path))
}

#[tauri::command(async)]
fn autosave(state: State<'_, AppState>, path: String) -> Res<SaveResult> {
    state.with(|api| api.autosave(&path))
}

#[tauri::command(async)]
fn new_thread(
    state: State<'_, AppState>,
    path: String,
    from: Utf16Offset,
    to: Utf16Offset,
    body: String,
) -> Res<ReviewDto> {
    state.with(|api| api.new_thread(&path, from, to, &body))
}

#[tauri::command(async)]
fn reply(state: State<'_, AppState>, path: String, thread: String, body: String) -> Res<ReviewDto> {
    state.with(|api| api.reply(&path, &thread, &body))
}

#[tauri::command(async)]
fn keep_thread_here(state: State<'_, AppState>, path: String, thread: String) -> Res<ReviewDto> {
    state.with(|api| api.keep_thread_here(&path, &thread))
}

#[tauri::command(async)]
fn detach_thread(state: State<'_, AppState>, path: String, thread: String) -> Res<ReviewDto> {
    state.with(|api| api.detach_thread(&path, &thread))
}

#[tauri::command(async)]
fn set_thread_resolved(
    state: State<'_, AppState>,
    path: String,
    thread: String,
    resolved: bool,
) -> Res<ReviewDto> {
    state.with(|api| api.set_thread_resolved(&path, &thread, resolved))
}

#[tauri::command(async)]
fn reload_document(state: State<'_, AppState>, path: String) -> Res<Applied> {
    state.with(|api| api.reload_document(&path))
}

#[tauri::command(async)]
fn keep_mine(state: State<'_, AppState>, path: String) -> Res<()> {
    state.with(|api| api.keep_mine(&path))
}

#[tauri::command(async)]
fn merge_view(state: State<'_, AppState>, path: String) -> Res<MergeView> {
    state.with(|api| api.merge_view(&path))
}

#[tauri::command(async)]
fn apply_merge(
    state: State<'_, AppState>,
    path: String,
    token: String,
    choices: Vec<Option<Choice>>,
) -> Res<MergeOutcome> {
    state.with(|api| api.apply_merge(&path, &token, &choices))
}

#[tauri::command(async)]
fn dirty_documents(state: State<'_, AppState>) -> Res<Vec<String>> {
    state.with(|api| Ok(api.dirty_documents()))
}

/// The document named on the command line, to show first (once; then none).
#[tauri::command(async)]
fn initial_document(state: State<'_, AppState>) -> Option<String> {
    lock(&state.initial_document).take()
}

/// What opening the workspace restored from a crashed session (once; then empty).
#[tauri::command(async)]
fn restored_backups(state: State<'_, AppState>) -> RestoreReport {
    lock(&state.restored).take().unwrap_or_default()
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
            let due = lock(&state.api)
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
    let errors = lock(&state.api)
        .as_mut()
        .map(Api::discard_backups)
        .unwrap_or_default();
    for e in errors {
        eprintln!("cowriting-desktop: {e}");
    }
}

// ---- workspace selection --------------------------------------------------------

/// Open `dir` as the workspace: replaces the API, restarts the watcher, records
/// it among the recent folders.
fn open_workspace(app: &tauri::AppHandle, dir: &Path) -> Res<WorkspaceInfo> {
    let state = app.state::<AppState>();
    let mut api = Api::open(dir).map_err(|e| e.info())?;
    // A crashed session's unsaved buffers come back before anything is shown.
    let report = api.restore_backups();
    let root = api.root().to_path_buf();
    let info = api.workspace();
    *state.api.lock().unwrap_or_else(|e| e.into_inner()) = Some(api);
    *lock(&state.restored) = Some(report);
    let watcher = watch::start(app.clone(), root.clone()).map_err(info_of_watch)?;
    *state.watcher.lock().unwrap_or_else(|e| e.into_inner()) = Some(watcher);
    if let Some(cfg) = state.config_dir.lock().unwrap_or_else(|e| e.into_inner()).clone() {
        recent::push(&cfg, &root);
    }
    let _ = app.emit("workspace-opened", &info);
    Ok(info)
}

fn info_of_watch(e: notify::Error) -> ErrorInfo {
    info(format!("cannot watch the workspace: {e}"))
}

/// Reopen a folder the app already knows: a recent folder, the one given on the
/// command line, or the sample. Any other path from the webview is refused (a
/// new folder is opened with the native dialog, `pick_folder`).
#[tauri::command(async)]
fn open_folder(app: tauri::AppHandle, path: String) -> Res<WorkspaceInfo> {
    let state = app.state::<AppState>();
    let mut known: Vec<PathBuf> = lock(&state.config_dir)
        .as_ref()
        .map(|cfg| recent::list(cfg).into_iter().map(PathBuf::from).collect())
        .unwrap_or_default();
    known.extend(lock(&state.given_folder).clone());
    known.push(sample::dir(&data_dir(&app)));
    let asked = Path::new(&path);
    if !is_known_folder(asked, &known) {
        return Err(info(format!(
            "{path}: not a recent folder; open a new folder with Open folder… (Ctrl+O)"
        )));
    }
    open_workspace(&app, asked)
}

/// Whether `asked` is one of `known`, compared as resolved paths.
fn is_known_folder(asked: &Path, known: &[PathBuf]) -> bool {
    let Ok(asked) = asked.canonicalize() else {
        return false;
    };
    known.iter().any(|k| k.canonicalize().is_ok_and(|k| k == asked))
}

/// Show the system folder dialog; `None` when the writer cancels.
#[tauri::command]
async fn pick_folder(app: tauri::AppHandle) -> Res<Option<WorkspaceInfo>> {
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
    open_workspace(&app, &dir).map(Some)
}

#[tauri::command(async)]
fn recent_folders(state: State<'_, AppState>) -> Vec<String> {
    match state
        .config_dir
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
    {
        Some(cfg) => recent::list(cfg),
        None => Vec::new(),
    }
}

#[tauri::command(async)]
fn open_sample(app: tauri::AppHandle) -> Res<WorkspaceInfo> {
    let dir = sample::ensure(&data_dir(&app)).map_err(|e| e.info())?;
    open_workspace(&app, &dir)
}

/// The UI shows its first document. With `COWRITING_TIMING` set, prints the time
/// since the process started (the cold-start figure of docs/performance.md).
#[tauri::command(async)]
fn ui_ready(state: State<'_, AppState>) {
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

/// Close the window for good (after the UI asked about unsaved changes).
#[tauri::command(async)]
fn quit(app: tauri::AppHandle) {
    app.exit(0);
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
    configure_checker();
    tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .plugin(window_guard::plugin())
        .manage(AppState::default())
        .setup(|app| {
            let handle = app.handle().clone();
            let state = handle.state::<AppState>();
            *state.config_dir.lock().unwrap_or_else(|e| e.into_inner()) = handle.path().app_config_dir().ok();
            match initial_workspace(&handle) {
                Ok(start) => {
                    if start.given {
                        *lock(&state.given_folder) = Some(start.dir.clone());
                    }
                    match open_workspace(&handle, &start.dir) {
                        Ok(_) => *lock(&state.initial_document) = start.document,
                        Err(e) => eprintln!("cowriting-desktop: {}", e.message),
                    }
                }
                Err(e) => eprintln!("cowriting-desktop: {e}"),
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
        .invoke_handler(tauri::generate_handler![
            workspace,
            open_document,
            close_document,
            new_document,
            rename_document,
            trash_document,
            new_folder,
            edit,
            review,
            authorship,
            accept,
            confirm_hidden,
            reject,
            accept_turn,
            reject_turn,
            accept_all,
            reject_all,
            undo,
            redo,
            seal_undo_group,
            save,
            autosave,
            new_thread,
            reply,
            set_thread_resolved,
            keep_thread_here,
            detach_thread,
            reload_document,
            keep_mine,
            merge_view,
            apply_merge,
            dirty_documents,
            restored_backups,
            initial_document,
            run_producer,
            check_document,
            cancel_job,
            review_document,
            ask_claude,
            settings,
            save_settings,
            lint,
            search,
            inbox,
            export_document,
            add_word,
            dictionary,
            remove_word,
            identity,
            save_identity,
            open_folder,
            pick_folder,
            recent_folders,
            open_sample,
            ui_ready,
            open_link,
            quit,
        ])
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
