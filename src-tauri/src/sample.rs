//! The bundled sample workspace (`examples/workspace/`), opened on first launch.

use std::io;
use std::path::{Path, PathBuf};

macro_rules! files {
    ($($rel:literal),* $(,)?) => {
        &[$(($rel, include_str!(concat!("../../examples/workspace/", $rel)))),*]
    };
}

const FILES: &[(&str, &str)] = files![
    "essay.md",
    "story.md",
    "notes/meeting.md",
    ".threads/essay.md.json",
    ".threads/story.md.json",
    ".threads/notes/meeting.md.json",
];

/// Where the sample workspace lives under `data_dir`.
pub fn dir(data_dir: &Path) -> PathBuf {
    data_dir.join("sample-workspace")
}

/// The sample workspace under `data_dir`, written there on first use (an
/// existing copy — with the writer's own changes — is left as it is).
pub fn ensure(data_dir: &Path) -> io::Result<PathBuf> {
    let dir = dir(data_dir);
    if !dir.join("essay.md").exists() {
        for (rel, text) in FILES {
            cowriting::fsutil::atomic_write(&dir.join(rel), text.as_bytes())?;
        }
    }
    Ok(dir)
}
