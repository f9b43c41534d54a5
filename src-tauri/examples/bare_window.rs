//! A bare Tauri 2 + WebKitGTK window with none of the app: the floor
//! `tests/e2e/perf.mjs` (`make perf`) measures the app against, in the same run
//! on the same machine. Not shipped, not tested.
//!
//! - `bare_window`: a blank page (the floor of memory);
//! - `bare_window PAGE_DIR DOC`: the page built in `PAGE_DIR` (`ui/perf`: bare
//!   CodeMirror, the floor of a keystroke and of a document's memory), with
//!   `DOC` served to it as `bare://localhost/doc`.

use std::path::{Component, Path, PathBuf};

/// The blank page: a few bytes from a protocol of this example's own (the
/// app's protocol would answer any path with the app's UI; `about:blank` is
/// drawn without a web process; `data:` URLs need a Tauri feature).
const PAGE: &[u8] = b"<!doctype html><title>bare</title><p>A bare window.</p>";

fn respond(status: u16, kind: &str, body: Vec<u8>) -> tauri::http::Response<Vec<u8>> {
    tauri::http::Response::builder()
        .status(status)
        .header("Content-Type", kind)
        .body(body)
        .expect("a response")
}

/// What `path` of the page is: the document, or a file of the page's folder.
fn serve(page: Option<&(PathBuf, PathBuf)>, path: &str) -> tauri::http::Response<Vec<u8>> {
    let Some((dir, doc)) = page else {
        return respond(200, "text/html", PAGE.to_vec());
    };
    if path == "/doc" {
        return match std::fs::read(doc) {
            Ok(bytes) => respond(200, "text/plain; charset=utf-8", bytes),
            Err(e) => respond(404, "text/plain", e.to_string().into_bytes()),
        };
    }
    let rel = Path::new(path.trim_start_matches('/'));
    let rel = if rel.as_os_str().is_empty() {
        Path::new("index.html")
    } else {
        rel
    };
    if !rel.components().all(|c| matches!(c, Component::Normal(_))) {
        return respond(404, "text/plain", b"not here".to_vec());
    }
    let kind = match rel.extension().and_then(|e| e.to_str()) {
        Some("html") => "text/html",
        Some("js") => "text/javascript",
        Some("css") => "text/css",
        _ => "application/octet-stream",
    };
    match std::fs::read(dir.join(rel)) {
        Ok(bytes) => respond(200, kind, bytes),
        Err(e) => respond(404, "text/plain", e.to_string().into_bytes()),
    }
}

fn main() {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let page = match args.as_slice() {
        [] => None,
        [dir, doc] => Some((dir.clone(), doc.clone())),
        _ => {
            eprintln!("usage: bare_window [PAGE_DIR DOC]");
            std::process::exit(2);
        }
    };
    let mut context = tauri::generate_context!();
    // Not the app's window (its UI); one of our own.
    context.config_mut().app.windows.clear();
    tauri::Builder::default()
        .register_uri_scheme_protocol("bare", move |_ctx, request| {
            serve(page.as_ref(), request.uri().path())
        })
        .setup(|app| {
            let page = tauri::WebviewUrl::CustomProtocol("bare://localhost/".parse().expect("a URL"));
            tauri::WebviewWindowBuilder::new(app, "bare", page)
                .title("bare")
                .inner_size(1280.0, 800.0)
                .build()?;
            Ok(())
        })
        .run(context)
        .expect("the bare window runs");
}
