//! The window stays the app: no navigation of the app's web views but to the
//! app's own pages, no new windows, and links a writer clicks (in a comment)
//! handed to the system's browser or mail program, never loaded here.
//!
//! A cloned repository can put a link or an image in a document or a comment;
//! nothing it holds runs (the UI renders every string as text and the CSP allows
//! no inline script), but a navigation would replace the app with an outside
//! page. [`plugin`] refuses every navigation of every web view of the app except
//! to its own pages: the main window's `tauri://localhost` and, in the PDF
//! export's hidden window, the blank page it opens with and the exported page
//! it is given (a `file:` base, loaded by the export itself). New windows are
//! never opened: the app's windows are made by the app, and a page's
//! `window.open` has no handler to make one (wry opens none without it;
//! `tests/e2e/window.test.mjs` checks both).

use tauri::plugin::{Builder, TauriPlugin};
use tauri::{Runtime, Url, Webview};

/// Whether a web view labelled `label` may navigate to `url`.
pub fn allowed(label: &str, url: &Url) -> bool {
    let own = match url.scheme() {
        // The bundled UI (custom protocol): tauri://localhost on Linux and macOS,
        // http(s)://tauri.localhost on Windows.
        "tauri" => url.host_str() == Some("localhost"),
        "http" | "https" => url.host_str() == Some("tauri.localhost"),
        _ => false,
    };
    if own {
        return true;
    }
    // The PDF export's hidden window (pdf.rs): its blank start and the page it
    // loads with `load_html` under the document's folder; nothing from the
    // network (the exported page loads no remote image either: export.rs).
    label.starts_with(crate::pdf::LABEL_PREFIX) && (url.as_str() == "about:blank" || url.scheme() == "file")
}

/// The plugin that holds every web view of the app to [`allowed`].
pub fn plugin<R: Runtime>() -> TauriPlugin<R> {
    Builder::new("window-guard")
        .on_navigation(|webview: &Webview<R>, url: &Url| {
            let ok = allowed(webview.label(), url);
            if !ok {
                eprintln!(
                    "cowriting-desktop: refused to navigate {} to {}",
                    webview.label(),
                    cowriting::hidden::visible(url.as_str())
                );
            }
            ok
        })
        .build()
}

/// The schemes a writer's click may open outside the app.
const LINK_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

/// `raw` as a link the system may open: http, https or mailto, else why not.
pub fn link(raw: &str) -> Result<Url, String> {
    let url = Url::parse(raw.trim()).map_err(|e| format!("{raw:?} is not a link: {e}"))?;
    if !LINK_SCHEMES.contains(&url.scheme()) {
        return Err(format!(
            "{}: only http, https and mailto links open from the app",
            cowriting::hidden::visible(raw)
        ));
    }
    Ok(url)
}

/// Open `url` with the desktop's handler (`xdg-open`, or `$COWRITING_OPENER`
/// for tests), not waiting for it; the URL is one argument, no shell between,
/// and what the app set for its own web process is not passed on (the
/// browser it starts may be a WebKit one: `web_env`).
pub fn open_outside(url: &Url) -> Result<(), String> {
    let opener = std::env::var_os("COWRITING_OPENER").unwrap_or_else(|| "xdg-open".into());
    let mut command = std::process::Command::new(&opener);
    for name in crate::web_env::ours() {
        command.env_remove(name);
    }
    let mut child = command
        .arg(url.as_str())
        .stdin(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot open the link with {}: {e}", opener.to_string_lossy()))?;
    // Reaped when it exits (xdg-open hands the link on and ends).
    std::thread::spawn(move || child.wait());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    #[test]
    fn the_main_window_stays_on_the_app() {
        assert!(allowed("main", &url("tauri://localhost/")));
        assert!(allowed("main", &url("tauri://localhost/index.html#x")));
        assert!(allowed("main", &url("https://tauri.localhost/")));
        for outside in [
            "https://example.com/",
            "http://127.0.0.1:8080/",
            "tauri://evil/",
            "file:///etc/passwd",
            "about:blank",
            "data:text/html,<script>1</script>",
            "javascript:alert(1)",
            "http://tauri.localhost.example.com/",
        ] {
            assert!(!allowed("main", &url(outside)), "{outside}");
        }
    }

    #[test]
    fn the_pdf_window_loads_its_page_and_nothing_else() {
        let label = format!("{}7", crate::pdf::LABEL_PREFIX);
        assert!(allowed(&label, &url("about:blank")));
        assert!(allowed(&label, &url("file:///home/w/notes/")));
        assert!(!allowed(&label, &url("https://tracker.example/pixel.png")));
        assert!(!allowed("main", &url("file:///home/w/notes/")));
    }

    #[test]
    fn only_web_and_mail_links_open_outside() {
        assert!(link("https://example.com/a?b").is_ok());
        assert!(link("mailto:ada@example.com").is_ok());
        for bad in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "tauri://localhost/",
            "ssh://x",
            "notaurl",
            "-x",
        ] {
            assert!(link(bad).is_err(), "{bad}");
        }
    }
}
