//! A bare Tauri 2 + WebKitGTK window on a blank page, with none of the app: the
//! floor `tests/e2e/perf.mjs` (`make perf`) measures the app's memory against,
//! in the same run on the same machine. Not shipped, not tested.

/// The page: a few bytes from a protocol of this example's own (the app's
/// protocol would answer any path with the app's UI; `about:blank` is drawn
/// without a web process; `data:` URLs need a Tauri feature).
const PAGE: &[u8] = b"<!doctype html><title>bare</title><p>A bare window.</p>";

fn main() {
    let mut context = tauri::generate_context!();
    // Not the app's window (its UI); one of our own on the blank page.
    context.config_mut().app.windows.clear();
    tauri::Builder::default()
        .register_uri_scheme_protocol("bare", |_ctx, _request| {
            tauri::http::Response::builder()
                .header("Content-Type", "text/html")
                .body(PAGE.to_vec())
                .expect("a response")
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
