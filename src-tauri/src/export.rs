//! Export… in the app: the open document as the writer has it (unsaved edits
//! included) rendered by the core (`Api::export`), the native Save dialog
//! (GTK's: it asks before replacing a file), the PDF printed by the web view's
//! engine ([`crate::pdf`]), and the bytes written through the core's guard for
//! files the writer names (`Api::write_export`: never through a symlink,
//! never among the workspace's own files).

use crate::{info, AppState, Res};
use cowriting::ops::{ExportFormat, ExportOut};
use cowriting::workspace::DocPath;
use tauri::{AppHandle, Manager};
use tauri_plugin_dialog::DialogExt;

/// Export the open document `path` as `format`; `None` when the writer cancels the dialog.
pub async fn export_document(
    app: AppHandle,
    path: String,
    format: ExportFormat,
    with_review: bool,
    remote_images: bool,
) -> Res<Option<ExportOut>> {
    let state = app.state::<AppState>();
    let rendered = state.with(|api| api.export(&path, format, with_review, remote_images))?;
    let doc = DocPath::parse(&path).map_err(|e| e.info())?;
    let root = state.with(|api| Ok(api.root().to_path_buf()))?;
    let folder = match path.rsplit_once('/') {
        Some((dir, _)) => root.join(dir),
        None => root,
    };
    let (kind, extensions): (&str, &[&str]) = match format {
        ExportFormat::Html => ("HTML page", &["html", "htm"]),
        ExportFormat::Pdf => ("PDF", &["pdf"]),
        ExportFormat::Critic => ("Markdown with CriticMarkup", &["md", "markdown"]),
    };
    let Some(choice) = app
        .dialog()
        .file()
        .set_title(format!("Export {path} as {kind}"))
        .set_directory(&folder)
        .set_file_name(format.file_name(&doc))
        .add_filter(kind, extensions)
        .set_can_create_directories(true)
        .blocking_save_file()
    else {
        return Ok(None);
    };
    let target = choice.into_path().map_err(info)?;
    let bytes = match format {
        ExportFormat::Pdf => crate::pdf::html_to_pdf(&app, rendered.content.clone(), &folder)
            .await
            .map_err(|m| cowriting::Error::BadInput(format!("{path}: no PDF: {m}")).info())?,
        _ => rendered.content.clone().into_bytes(),
    };
    // The dialog asked before replacing a file: what is there is replaced.
    state
        .with(|api| api.write_export(&rendered, &bytes, &target, true))
        .map(Some)
}
