//! The bundled sample workspace (`examples/workspace/`, with its git history:
//! [`cowriting::ops::sample`]), opened on first launch.

use std::path::{Path, PathBuf};

/// Where the sample workspace lives under `data_dir`.
pub fn dir(data_dir: &Path) -> PathBuf {
    data_dir.join("sample-workspace")
}

/// The sample workspace under `data_dir`, written there on first use with its
/// git history (an existing copy — with the writer's own changes — is never
/// written over). When no history could be written the sample still opens;
/// the log says why.
pub fn ensure(data_dir: &Path) -> Result<PathBuf, cowriting::Error> {
    let dir = dir(data_dir);
    match cowriting::ops::sample::create_sample(&dir) {
        Ok(out) => {
            for w in &out.warnings {
                eprintln!("cowriting-desktop: {}: {w}", dir.display());
            }
        }
        // What the writer left of the sample (its essay deleted): theirs, opened as it is.
        Err(e) if e.code() == cowriting::ErrorCode::Exists => {}
        Err(e) => return Err(e),
    }
    Ok(dir)
}
