//! The app's command surface, written once: each command is one row of the
//! table below — its name, its arguments (the names the UI's `invoke` sends,
//! in camelCase), its answer, and one call on the [`cowriting::desk::Desk`]
//! (or the app's own plumbing) — and `commands!` makes of it the
//! `#[tauri::command]` function, the handler the builder registers
//! ([`handler`]) and the list [`COMMANDS`], which `make bindings` writes to
//! `ui/src/bindings/commands.ts` for the UI's `invoke` to be checked against
//! (`tsc`).
//!
//! A row answering [`Response`] answers raw bytes (an `ArrayBuffer` in the
//! UI), not JSON: a document's text goes so ([`document_text`]), for the web
//! process to hold it once, in the editor, rather than as a JSON answer, the
//! string parsed out of it and the editor's copy. The UI's list names those
//! rows (`RawCommands`), and its `call` answers them as an `ArrayBuffer`.
//!
//! Every command runs off the main thread, which paints the window: a `sync`
//! row becomes a `#[tauri::command(async)] fn` (Tauri runs it on its async
//! runtime's threads), an `async` row an `async fn` (it awaits work on the
//! blocking pool, [`on_desk`], or a dialog). The UI sends edits and review
//! commands one at a time (its queue), so running them there does not
//! reorder them, and every command takes the desk's lock.

use crate::{AppState, Res};
use cowriting::api::{
    Api, Applied, DocEntry, DocView, EditAck, FilingDto, IdentityDto, MergeOutcome, MergeView, RestoreReport,
    ReviewDto, SaveResult, SettingsDto, TextChange, WorkspaceInfo,
};
use cowriting::desk::Desk;
use cowriting::merge::Choice;
use cowriting::ops::claude_review::ReviewOut;
use cowriting::ops::{AuthorshipOut, DictionaryOut, ExportFormat, ExportOut, InboxOut, LintsOut, SearchOut};
use cowriting::suggest::CheckOutcome;
use cowriting::Utf16Offset;
use tauri::ipc::Response;
use tauri::{AppHandle, Emitter, Manager};

/// One command of the table: its name and its arguments' names (in Rust;
/// the UI sends them in camelCase, [`camel`]).
#[cfg(test)]
pub struct Command {
    pub name: &'static str,
    pub args: &'static [&'static str],
    /// The answer's type as the row writes it (`Response`: raw bytes).
    pub answer: &'static str,
}

#[cfg(test)]
impl Command {
    /// Answers raw bytes, not JSON.
    pub fn raw(&self) -> bool {
        self.answer == "Response"
    }
}

/// Writes the table's commands, their handler and their list; see the module docs.
macro_rules! commands {
    ($(
        $(#[$doc:meta])*
        $kind:ident $name:ident($app:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty $body:block
    )*) => {
        $( commands!(@one $kind $(#[$doc])* $name($app $(, $arg: $ty)*) -> $ret $body); )*

        /// The handler of every command of the table, for the builder.
        pub fn handler() -> impl Fn(tauri::ipc::Invoke<tauri::Wry>) -> bool + Send + Sync + 'static {
            tauri::generate_handler![$($name),*]
        }

        /// Every command of the table, in its order (for the UI's list).
        #[cfg(test)]
        pub const COMMANDS: &[Command] = &[$(Command {
            name: stringify!($name),
            args: &[$(stringify!($arg)),*],
            answer: stringify!($ret),
        }),*];
    };
    (@one sync $(#[$doc:meta])* $name:ident($app:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[tauri::command(async)]
        pub fn $name($app: AppHandle $(, $arg: $ty)*) -> Res<$ret> $body
    };
    (@one async $(#[$doc:meta])* $name:ident($app:ident $(, $arg:ident: $ty:ty)*) -> $ret:ty $body:block) => {
        $(#[$doc])*
        #[tauri::command]
        pub async fn $name($app: AppHandle $(, $arg: $ty)*) -> Res<$ret> $body
    };
}

/// An argument's name as the UI sends it: Tauri's camelCase of the Rust name.
#[cfg(test)]
pub fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        match c {
            '_' => upper = true,
            c if upper => {
                out.extend(c.to_uppercase());
                upper = false;
            }
            c => out.push(c),
        }
    }
    out
}

fn desk(app: &AppHandle) -> &Desk {
    &app.state::<AppState>().inner().opened().desk
}

/// Run `f` on the open workspace's API, under the desk's lock.
fn api<T>(app: &AppHandle, f: impl FnOnce(&mut Api) -> cowriting::Result<T>) -> Res<T> {
    desk(app).with(f).map_err(|e| e.info())
}

/// Run `f` on the desk on the blocking pool, off the UI thread (a job, a
/// search); its error (or the pool's) as the one `{code, message}` the UI reads.
async fn on_desk<T: Send + 'static>(
    app: &AppHandle,
    f: impl FnOnce(&Desk) -> cowriting::Result<T> + Send + 'static,
) -> Res<T> {
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || f(&app.state::<AppState>().opened().desk))
        .await
        .map_err(crate::info)
        .and_then(|r| r.map_err(|e| e.info()))
}

/// A progress callback that emits each report as the window's `event`.
fn emit<T: serde::Serialize + Clone>(app: &AppHandle, event: &'static str) -> impl FnMut(T) + Send + 'static {
    let app = app.clone();
    move |p| {
        let _ = app.emit(event, p);
    }
}

commands! {
    sync workspace(app) -> WorkspaceInfo { api(&app, |a| Ok(a.workspace())) }
    /// Open a document: what the UI shows of it but its text (`document_text`).
    sync open_document(app, path: String) -> DocView { api(&app, |a| a.open_document(&path)) }
    /// An open document's text at `version` (its `DocView`'s), as raw UTF-8 bytes.
    sync document_text(app, path: String, version: u64) -> Response {
        api(&app, |a| a.document_text(&path, version)).map(Response::new)
    }
    /// Close a document, discarding unsaved changes (the UI asks first).
    sync close_document(app, path: String) -> () { api(&app, |a| a.close_document(&path)) }
    sync new_document(app, name: String) -> DocView { api(&app, |a| a.new_document(&name)) }
    sync rename_document(app, from: String, to: String) -> DocEntry { api(&app, |a| a.rename_document(&from, &to)) }
    sync trash_document(app, path: String) -> () { api(&app, |a| a.trash_document(&path)) }
    sync new_folder(app, name: String) -> String { api(&app, |a| a.new_folder(&name)) }
    sync edit(app, path: String, version: u64, changes: Vec<TextChange>, typing: bool) -> EditAck {
        api(&app, |a| a.edit(&path, version, &changes, typing))
    }
    sync review(app, path: String) -> ReviewDto { api(&app, |a| a.review(&path)) }
    sync authorship(app, path: String) -> AuthorshipOut { api(&app, |a| a.authorship(&path)) }
    sync accept(app, path: String, id: String, with: Option<String>) -> Applied {
        api(&app, |a| a.accept(&path, &id, with.as_deref()))
    }
    sync confirm_hidden(app, path: String, ids: Vec<String>) -> () { api(&app, |a| a.confirm_hidden(&path, &ids)) }
    sync confirm_place(app, path: String, ids: Vec<String>) -> () { api(&app, |a| a.confirm_place(&path, &ids)) }
    sync reject(app, path: String, id: String) -> Applied { api(&app, |a| a.reject(&path, &id)) }
    sync accept_turn(app, path: String, turn: String) -> Applied { api(&app, |a| a.accept_turn(&path, &turn)) }
    sync reject_turn(app, path: String, turn: String) -> Applied { api(&app, |a| a.reject_turn(&path, &turn)) }
    sync accept_all(app, path: String, ids: Vec<String>) -> Applied { api(&app, |a| a.accept_all(&path, &ids)) }
    sync reject_all(app, path: String, ids: Vec<String>) -> Applied { api(&app, |a| a.reject_all(&path, &ids)) }
    sync undo(app, path: String) -> Applied { api(&app, |a| a.undo(&path)) }
    sync redo(app, path: String) -> Applied { api(&app, |a| a.redo(&path)) }
    sync seal_undo_group(app, path: String) -> () { api(&app, |a| a.seal_undo_group(&path)) }
    sync save(app, path: String) -> SaveResult { api(&app, |a| a.save(&path)) }
    sync autosave(app, path: String) -> SaveResult { api(&app, |a| a.autosave(&path)) }
    sync new_thread(app, path: String, from: Utf16Offset, to: Utf16Offset, body: String) -> ReviewDto {
        api(&app, |a| a.new_thread(&path, from, to, &body))
    }
    sync reply(app, path: String, thread: String, body: String) -> ReviewDto {
        api(&app, |a| a.reply(&path, &thread, &body))
    }
    sync set_thread_resolved(app, path: String, thread: String, resolved: bool) -> ReviewDto {
        api(&app, |a| a.set_thread_resolved(&path, &thread, resolved))
    }
    sync keep_thread_here(app, path: String, thread: String) -> ReviewDto {
        api(&app, |a| a.keep_thread_here(&path, &thread))
    }
    sync detach_thread(app, path: String, thread: String) -> ReviewDto {
        api(&app, |a| a.detach_thread(&path, &thread))
    }
    sync reload_document(app, path: String) -> Applied { api(&app, |a| a.reload_document(&path)) }
    sync keep_mine(app, path: String) -> () { api(&app, |a| a.keep_mine(&path)) }
    sync merge_view(app, path: String) -> MergeView { api(&app, |a| a.merge_view(&path)) }
    sync apply_merge(app, path: String, token: String, choices: Vec<Option<Choice>>) -> MergeOutcome {
        api(&app, |a| a.apply_merge(&path, &token, &choices))
    }
    sync dirty_documents(app) -> Vec<String> { api(&app, |a| Ok(a.dirty_documents())) }
    /// What opening the workspace restored from a crashed session (once; then empty).
    sync restored_backups(app) -> RestoreReport {
        Ok(crate::lock(&app.state::<AppState>().opened().restored).take().unwrap_or_default())
    }
    /// The document named on the command line, to show first (once; then none).
    sync initial_document(app) -> Option<String> { Ok(crate::lock(&app.state::<AppState>().opened().initial_document).take()) }
    /// The key Tauri's IPC asks of every call, for the UI's own client of the
    /// same IPC (`ui/src/ipc.ts`): only a page that can already call can ask.
    /// Tauri's own client, injected as a user script, leaves memory in the
    /// web process on every call; the same requests made from the page's code
    /// do not (docs/performance.md, "What each call from the page left").
    sync ipc_key(app) -> String { Ok(app.invoke_key().to_string()) }
    /// Run a producer on an open document (Ask Claude…, an external one) and
    /// file what it finds, off the UI thread and off the desk's lock: the
    /// writer keeps typing. `job` is the UI's id for `cancel_job`.
    async run_producer(
        app,
        path: String,
        producer: String,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
        job: String
    ) -> FilingDto {
        on_desk(&app, move |d| d.run_producer(&path, &producer, from, to, instruction, &job)).await
    }
    /// Check document: every producer enabled in the settings, in turn; a
    /// `job-progress` event names the one running. `job` cancels the whole check.
    async check_document(app, path: String, job: String) -> Vec<CheckOutcome<FilingDto>> {
        let mut progress = emit(&app, "job-progress");
        on_desk(&app, move |d| d.check_document(&path, &job, &mut progress)).await
    }
    /// Cancel a running job (what a review pass filed stays; a producer run files nothing).
    sync cancel_job(app, job: String) -> () {
        desk(&app).cancel_job(&job);
        Ok(())
    }
    /// Ask Claude to review an open document (or its selection): each item is
    /// filed as it arrives and announced by a `review-progress` event.
    async review_document(
        app,
        path: String,
        from: Option<Utf16Offset>,
        to: Option<Utf16Offset>,
        instruction: Option<String>,
        job: String
    ) -> ReviewOut {
        let mut progress = emit(&app, "review-progress");
        on_desk(&app, move |d| d.review_document(&path, from, to, instruction, &job, &mut progress)).await
    }
    /// Ask Claude in a thread: its reply (and edits of the thread's text), filed as a review is.
    async ask_claude(app, path: String, thread: String, instruction: Option<String>, job: String) -> ReviewOut {
        let mut progress = emit(&app, "review-progress");
        on_desk(&app, move |d| d.ask_claude(&path, &thread, instruction, &job, &mut progress)).await
    }
    sync settings(app) -> SettingsDto { api(&app, |a| a.settings()) }
    /// Save the settings; a new Claude command only once the writer confirmed
    /// it in a native dialog (a blocking dialog: this command is async).
    async save_settings(app, settings: SettingsDto) -> SettingsDto { crate::save_settings(&app, &settings) }
    /// Spelling as the writer types: the lints of the texts on screen, off the lock.
    async lint(app, texts: Vec<String>) -> LintsOut { on_desk(&app, move |d| d.lint(&texts)).await }
    /// Export… the open document as the writer has it; `None` when the dialog was cancelled.
    async export_document(app, path: String, format: ExportFormat, with_review: bool, remote_images: bool) -> Option<ExportOut> {
        crate::export::export_document(app, path, format, with_review, remote_images).await
    }
    /// Search every document and thread, the files read off the lock; the
    /// finds as `search-progress` events while it runs (the first at once,
    /// then about ten a second). `job` cancels it (a newer search), its answer
    /// then what was found so far.
    async search(app, query: String, case_sensitive: bool, whole_word: bool, regex: bool, job: String) -> SearchOut {
        let q = cowriting::ops::SearchQuery { text: query, case_sensitive, whole_word, regex };
        let mut progress = emit(&app, "search-progress");
        on_desk(&app, move |d| d.search_streamed(&q, &job, cowriting::api::SEARCH_PROGRESS_EVERY, &mut progress)).await
    }
    /// The workspace's review (the Inbox tab), the files read off the lock.
    async inbox(app) -> InboxOut { on_desk(&app, |d| d.inbox()).await }
    sync add_word(app, word: String) -> DictionaryOut { api(&app, |a| a.add_word(&word)) }
    sync dictionary(app) -> DictionaryOut { api(&app, |a| a.dictionary()) }
    sync remove_word(app, word: String) -> DictionaryOut { api(&app, |a| a.remove_word(&word)) }
    sync identity(app) -> IdentityDto { api(&app, |a| a.identity()) }
    sync save_identity(app, name: Option<String>, email: Option<String>) -> IdentityDto {
        api(&app, |a| a.save_identity(name.as_deref(), email.as_deref()))
    }
    /// Reopen a folder the app already knows (recent, given, the sample).
    sync open_folder(app, path: String) -> WorkspaceInfo { crate::reopen_folder(&app, &path) }
    /// The system folder dialog; `None` when the writer cancels.
    async pick_folder(app) -> Option<WorkspaceInfo> { crate::pick_folder(&app) }
    sync recent_folders(app) -> Vec<String> { Ok(crate::recent_folders(&app)) }
    sync open_sample(app) -> WorkspaceInfo { crate::open_sample(&app) }
    /// The UI shows its first document.
    sync ui_ready(app) -> () {
        crate::ui_ready(&app);
        Ok(())
    }
    /// A link the writer clicked, handed to the system's opener, never the app's window.
    sync open_link(_app, url: String) -> () { crate::open_link(&url) }
    /// Close the window for good (after the UI asked about unsaved changes).
    sync quit(app) -> () {
        app.exit(0);
        Ok(())
    }
}

/// `ui/src/bindings/commands.ts`: every command's name and arguments, for
/// the UI's `invoke` to be type-checked against.
#[cfg(test)]
pub fn typescript() -> String {
    let mut out = String::from(
        "// Generated from src-tauri/src/commands.rs by `make bindings`: do not edit.\n\
         // Every command of the app with the names of its arguments, as `invoke` sends them.\n\
         export interface Commands {\n",
    );
    for c in COMMANDS {
        let args: Vec<String> = c.args.iter().map(|a| format!("{}: unknown", camel(a))).collect();
        if args.is_empty() {
            out.push_str(&format!("  {}: Record<string, never>;\n", c.name));
        } else {
            out.push_str(&format!("  {}: {{ {} }};\n", c.name, args.join("; ")));
        }
    }
    out.push_str("}\n");
    let raw: Vec<String> = COMMANDS
        .iter()
        .filter(|c| c.raw())
        .map(|c| format!("\"{}\"", c.name))
        .collect();
    out.push_str("// The commands that answer raw bytes (an ArrayBuffer), not JSON.\n");
    out.push_str(&format!(
        "export type RawCommands = {};\n",
        if raw.is_empty() {
            "never".to_owned()
        } else {
            raw.join(" | ")
        }
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed list is what the table says: `make bindings` writes it
    /// (`COWRITING_WRITE_BINDINGS=1`), `make check-bindings` diffs it, and
    /// this test fails when it is stale.
    #[test]
    fn the_ui_command_list_is_the_table() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../ui/src/bindings/commands.ts");
        if std::env::var_os("COWRITING_WRITE_BINDINGS").is_some() {
            std::fs::write(&path, typescript()).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == typescript(),
            "ui/src/bindings/commands.ts is stale: run 'make bindings' and commit"
        );
    }

    #[test]
    fn arguments_are_named_as_tauri_sends_them() {
        assert_eq!(camel("with_review"), "withReview");
        assert_eq!(camel("path"), "path");
        assert_eq!(camel("case_sensitive"), "caseSensitive");
        let export = COMMANDS.iter().find(|c| c.name == "export_document").unwrap();
        assert_eq!(export.args, ["path", "format", "with_review", "remote_images"]);
        assert!(typescript().contains(
            "  export_document: { path: unknown; format: unknown; withReview: unknown; remoteImages: unknown };\n"
        ));
        let raw: Vec<&str> = COMMANDS.iter().filter(|c| c.raw()).map(|c| c.name).collect();
        assert_eq!(
            raw,
            ["document_text"],
            "a document's text goes as raw bytes, and only it"
        );
        assert!(typescript().contains("export type RawCommands = \"document_text\";\n"));
        let mut names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), COMMANDS.len(), "a command named twice");
    }
}
