//! Rendering chosen for the machine, before the first web view exists.
//!
//! WebKitGTK composites the page with OpenGL; where there is no GPU (Xvfb, a
//! virtual machine, most remote desktops) that GL is Mesa's software renderer,
//! and compositing costs memory and frames for nothing: measured on a 2-core
//! machine without a GPU, turning it off took the app with a 5 MB document from
//! 626 to 483 MiB and typing p50 from 28 to 9 ms (docs/performance.md). So the
//! app turns it off itself where the machine has no DRM render node
//! (`/dev/dri/renderD*`), unless the writer's settings say otherwise
//! (`[editor] rendering`) or `WEBKIT_DISABLE_COMPOSITING_MODE` is already set,
//! which is obeyed as it is.

use cowriting::config::{Config, Rendering};
use std::path::Path;

/// WebKitGTK's switch.
const SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";

/// Whether to turn compositing off, given the setting, whether the switch is
/// already set in the environment, and whether the machine has a GPU.
pub fn disable_compositing(setting: Rendering, switch_set: bool, gpu: bool) -> bool {
    if switch_set {
        return false; // set by the writer or the session: left as it is
    }
    match setting {
        Rendering::Auto => !gpu,
        Rendering::Compositing => false,
        Rendering::Software => true,
    }
}

/// Whether `dri` (normally `/dev/dri`) holds a render node: a GPU the web view
/// can draw with.
pub fn has_render_node(dri: &Path) -> bool {
    std::fs::read_dir(dri).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("renderD"))
    })
}

/// Choose, and set the switch for the web views this process will make. Call
/// first thing in `main`, while the process has one thread.
pub fn choose() {
    let setting = Config::load().map(|c| c.editor.rendering).unwrap_or_default();
    let switch_set = std::env::var_os(SWITCH).is_some();
    if disable_compositing(setting, switch_set, has_render_node(Path::new("/dev/dri"))) {
        crate::web_env::set_default(SWITCH, "1");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn off_where_it_would_be_software_unless_told() {
        assert!(disable_compositing(Rendering::Auto, false, false));
        assert!(!disable_compositing(Rendering::Auto, false, true));
        assert!(disable_compositing(Rendering::Software, false, true));
        assert!(!disable_compositing(Rendering::Compositing, false, false));
        // The environment's switch wins, whatever it says.
        assert!(!disable_compositing(Rendering::Software, true, false));
        assert!(!disable_compositing(Rendering::Auto, true, false));
    }

    #[test]
    fn a_render_node_is_a_gpu() {
        let d = std::env::temp_dir().join(format!("cowriting-dri-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        assert!(!has_render_node(&d), "empty");
        std::fs::write(d.join("card0"), "").unwrap();
        assert!(!has_render_node(&d), "a card alone is no render node");
        std::fs::write(d.join("renderD128"), "").unwrap();
        assert!(has_render_node(&d));
        assert!(!has_render_node(&d.join("missing")));
        let _ = std::fs::remove_dir_all(&d);
    }
}
