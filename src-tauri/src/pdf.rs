//! A PDF printed from an HTML page by the web view's own engine (WebKitGTK),
//! without a dialog: the page is loaded into a hidden window of its own (its
//! JavaScript off: an export has no script, and none may run), printed with
//! `webkit2gtk::PrintOperation` to GTK's "Print to File" printer, and the
//! window closed, and its fonts cut to the glyphs it shows ([`crate::pdf_fonts`]).
//! The PDF is written into a private temporary folder first;
//! the caller writes it where the writer chose through the core's guard
//! (never through a symlink, never over a file unasked).

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use tauri::{AppHandle, WebviewUrl, WebviewWindowBuilder};

/// How long a print may take before it is given up (a long document on a busy
/// machine prints in seconds; this bounds a print engine that never answers).
const PRINT_LIMIT: Duration = Duration::from_secs(180);

static NEXT: AtomicU32 = AtomicU32::new(1);

/// The labels of the print windows: `export-pdf-<n>` (window_guard.rs lets
/// them, and only them, load their exported page).
pub const LABEL_PREFIX: &str = "export-pdf-";

/// `html` printed to PDF bytes; relative links and images resolve against `base_dir`.
pub async fn html_to_pdf(app: &AppHandle, html: String, base_dir: &Path) -> Result<Vec<u8>, String> {
    let tmp = tempfile::Builder::new()
        .prefix("cowriting-pdf-")
        .tempdir()
        .map_err(|e| format!("no temporary folder for the PDF: {e}"))?;
    let out = tmp.path().join("export.pdf");
    let label = format!("{LABEL_PREFIX}{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let blank = "about:blank".parse().expect("a valid URL");
    let window = WebviewWindowBuilder::new(app, &label, WebviewUrl::External(blank))
        .title("Cowriting: printing a PDF")
        .visible(false)
        .focused(false)
        .build()
        .map_err(|e| format!("cannot open the print view: {e}"))?;
    let (tx, rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let base = base_dir.to_path_buf();
    let target = out.clone();
    let started = window.with_webview(move |view| {
        #[cfg(target_os = "linux")]
        linux::print(view.inner(), &html, &base, &target, tx);
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (view, html, base, target);
            let _ = tx.send(Err("PDF export is made with WebKitGTK, on Linux".into()));
        }
    });
    let outcome = match started {
        Ok(()) => tauri::async_runtime::spawn_blocking(move || rx.recv_timeout(PRINT_LIMIT))
            .await
            .map_err(|e| e.to_string())
            .and_then(|r| {
                r.map_err(|_| {
                    format!(
                        "the print engine did not finish within {} s",
                        PRINT_LIMIT.as_secs()
                    )
                })
            })
            .and_then(|r| r),
        Err(e) => Err(format!("cannot reach the print view: {e}")),
    };
    let _ = window.destroy();
    outcome?;
    let bytes = std::fs::read(&out).map_err(|e| format!("the printed PDF cannot be read: {e}"))?;
    if !bytes.starts_with(b"%PDF-") {
        return Err("the print engine wrote no PDF".into());
    }
    // Off the main thread: a long document's fonts take a moment to cut.
    tauri::async_runtime::spawn_blocking(move || crate::pdf_fonts::subset_fonts(bytes))
        .await
        .map_err(|e| e.to_string())
}

#[cfg(target_os = "linux")]
mod linux {
    use gtk::glib;
    use std::cell::{Cell, RefCell};
    use std::path::Path;
    use std::rc::Rc;
    use std::sync::mpsc::Sender;
    use webkit2gtk::{LoadEvent, PrintOperation, PrintOperationExt, SettingsExt, WebViewExt};

    /// Load `html` into `view` and, once loaded, print it to `out` (on the main thread).
    pub fn print(
        view: webkit2gtk::WebView,
        html: &str,
        base_dir: &Path,
        out: &Path,
        tx: Sender<Result<(), String>>,
    ) {
        let uri = |p: &Path| glib::filename_to_uri(p, None).map(|u| u.to_string());
        let (base, out_uri) = match (uri(base_dir), uri(out)) {
            (Ok(b), Ok(o)) => (format!("{}/", b.trim_end_matches('/')), o),
            (Err(e), _) | (_, Err(e)) => {
                let _ = tx.send(Err(format!("not a file path: {e}")));
                return;
            }
        };
        if let Some(settings) = WebViewExt::settings(&view) {
            settings.set_enable_javascript(false);
        }
        let printing = Rc::new(Cell::new(false));
        let done = tx.clone();
        view.connect_load_changed(move |view, event| {
            // The blank page the window opened with may finish loading too:
            // only the export is printed, once.
            let ours = view.uri().is_some_and(|u| u.as_str() != "about:blank");
            if event != LoadEvent::Finished || !ours || printing.replace(true) {
                return;
            }
            start(view, &out_uri, done.clone());
        });
        let want = base.clone();
        view.connect_load_failed(move |_, _, uri, e| {
            // (The blank page's load, cut short by the export's, is no failure.)
            if uri == want {
                let _ = tx.send(Err(format!("the page did not load: {e}")));
            }
            false
        });
        view.load_html(html, Some(&base));
    }

    fn start(view: &webkit2gtk::WebView, out_uri: &str, tx: Sender<Result<(), String>>) {
        let settings = gtk::PrintSettings::new();
        // GTK's printer to a file, under its name in the user's language.
        settings.set_printer(&glib::dgettext(Some("gtk30"), "Print to File"));
        settings.set("output-file-format", Some("pdf"));
        settings.set("output-uri", Some(out_uri));
        let setup = gtk::PageSetup::new();
        // The paper of the user's locale (A4, or Letter where that is the custom).
        setup.set_paper_size(&gtk::PaperSize::new(None));
        setup.set_top_margin(18.0, gtk::Unit::Mm);
        setup.set_bottom_margin(18.0, gtk::Unit::Mm);
        setup.set_left_margin(20.0, gtk::Unit::Mm);
        setup.set_right_margin(20.0, gtk::Unit::Mm);
        let op = PrintOperation::new(view);
        op.set_print_settings(&settings);
        op.set_page_setup(&setup);
        // The operation is kept until it ends (then let go).
        let keep: Rc<RefCell<Option<PrintOperation>>> = Rc::new(RefCell::new(Some(op.clone())));
        let failed = Rc::new(Cell::new(false));
        let (k, f, ok) = (keep.clone(), failed.clone(), tx.clone());
        op.connect_failed(move |_, e| {
            f.set(true);
            let _ = ok.send(Err(format!("printing failed: {e}")));
        });
        op.connect_finished(move |_| {
            if !failed.get() {
                let _ = tx.send(Ok(()));
            }
            k.borrow_mut().take();
        });
        op.print();
    }
}
