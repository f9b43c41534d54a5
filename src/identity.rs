//! Who the human at the keyboard is: git's `user.email` (else `user.name`) for
//! the workspace's repository or the user's global config, else `$USER`.

use crate::model::Provenance;
use std::path::Path;

/// The human author for edits made in `workspace`.
pub fn human_identity(workspace: &Path) -> Provenance {
    Provenance::human(human_id(workspace))
}

fn human_id(workspace: &Path) -> String {
    let config = git2::Repository::discover(workspace)
        .ok()
        .and_then(|r| r.config().ok())
        .or_else(|| git2::Config::open_default().ok());
    if let Some(cfg) = config {
        for key in ["user.email", "user.name"] {
            if let Ok(v) = cfg.get_string(key) {
                let v = v.trim();
                if !v.is_empty() {
                    return v.to_owned();
                }
            }
        }
    }
    std::env::var("USER")
        .ok()
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
}
