//! WebKit's own caret, told not to blink.
//!
//! The editor draws its caret itself (CodeMirror's, which blinks while the
//! writer works and rests after a pause: `ui/src/extensions/caret-rest.ts`);
//! the caret WebKit keeps under it is transparent, yet WebKit still blinks it,
//! and every blink repaints the page. That was what an untouched app with its
//! text focused spent its CPU on: 0.28–0.30 s in 30 s, against 0.03–0.05 s with
//! WebKit's blink put out of reach (dev build, the sample, CodeMirror's caret at
//! rest; docs/performance.md).
//!
//! WebKitGTK takes the blink's half-period from GTK's `gtk-cursor-blink-time`,
//! which its web process follows from this process's default `GtkSettings`.
//! Setting it to the largest value GTK accepts keeps the caret shown, still;
//! turning `gtk-cursor-blink` off instead made the idle page cost more (0.94–1.11
//! s in 30 s).
//! The cost: carets WebKit draws itself (the app's text fields) show a caret
//! that does not blink, as with GNOME's "cursor blink" off; GTK's own dialogs
//! follow the same setting (not looked at).
//! And an untouched page now paints nothing, so WebKit's driver, which takes a
//! screenshot after the next paint, waits for one: the e2e tests make one
//! (`tests/e2e/support.mjs`, `screenshot`).

use gtk::prelude::ObjectExt;

/// GTK's property, in milliseconds a blink cycle takes.
const PROPERTY: &str = "gtk-cursor-blink-time";

/// Put WebKit's caret blink out of reach. Call on the main thread once GTK is
/// up (the app's `setup`), before or after the web view exists: the web
/// process follows a change.
pub fn still() {
    if let Some(settings) = gtk::Settings::default() {
        settings.set_property(PROPERTY, i32::MAX);
    }
}
