//! `cowriting git install`: the merge driver in `.gitattributes` and the
//! repository's config, and the `prepare-commit-msg` hook.

use crate::{git_err, open_repo};
use cowriting_workspace::error::{Error, Result};
use cowriting_workspace::fsutil;
use cowriting_workspace::workspace::Workspace;
use serde::Serialize;
use std::path::{Path, PathBuf};

// ---- git install -------------------------------------------------------------------

/// The merge driver's name in git config and `.gitattributes`.
pub const DRIVER_NAME: &str = "cowriting-sidecar";
/// The `.gitattributes` line that routes sidecars to the driver.
pub const ATTRIBUTES_LINE: &str = ".threads/**/*.json merge=cowriting-sidecar";
/// The lines for the contract ledger: pending files merge by entry (the same
/// driver), the decision log as the union of both sides' lines.
pub const LEDGER_ATTRIBUTES_LINES: [&str; 2] = [
    ".cowriting/suggestions/**/*.json merge=cowriting-sidecar",
    ".cowriting/decisions.jsonl merge=union",
];
/// The line that marks a hook as cowriting's own.
pub const HOOK_MARKER: &str = "# cowriting-hook: written by `cowriting git install`";
const HOOK_NAME: &str = "prepare-commit-msg";

/// What [`install`] did.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InstallReport {
    /// One line per step, for people.
    pub lines: Vec<String>,
    /// Whether any file or setting changed.
    pub changed: bool,
    /// A hook cowriting did not write, left untouched.
    pub foreign_hook: Option<PathBuf>,
}

/// `s` quoted for a POSIX shell when it needs it.
fn sh_quote(s: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "/._+-,:@%=".contains(c);
    if !s.is_empty() && s.chars().all(safe) {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The command line the hook runs.
fn hook_command(exe: &str) -> String {
    format!("{} git hook {HOOK_NAME} \"$1\" \"$2\"", sh_quote(exe))
}

/// The hook script [`install`] writes for the executable `exe`.
pub fn hook_script(exe: &Path) -> String {
    let exe = exe.to_string_lossy();
    format!(
        "#!/bin/sh\n{HOOK_MARKER}\n# Adds Co-authored-by trailers for agent-written text this commit adds.\n[ -x {q} ] || exit 0\nexec {cmd}\n",
        q = sh_quote(&exe),
        cmd = hook_command(&exe),
    )
}

/// The `merge.cowriting-sidecar.driver` value for the executable `exe`.
pub fn driver_command(exe: &Path) -> String {
    format!("{} merge-sidecar %O %A %B %P", sh_quote(&exe.to_string_lossy()))
}

/// Choose how commits in the repository that holds `workspace` credit agents
/// (`git config --local cowriting.trailer`), which the hook reads before the
/// user's `[git] trailer`.
pub fn set_trailer_style(
    workspace: &Path,
    style: cowriting_workspace::config::TrailerStyle,
) -> Result<String> {
    let repo = open_repo(workspace)?;
    let config = repo.config().map_err(git_err("git config"))?;
    let mut local = config
        .open_level(git2::ConfigLevel::Local)
        .map_err(git_err("git config --local"))?;
    local
        .set_str("cowriting.trailer", style.as_str())
        .map_err(git_err("git config cowriting.trailer"))?;
    Ok(format!(
        "Commits here credit agents with: {} (git config cowriting.trailer)",
        style.as_str()
    ))
}

/// Set up the merge driver and the hook for the git repository that holds the
/// workspace `workspace`; `exe` is the cowriting executable they call.
pub fn install(workspace: &Path, exe: &Path) -> Result<InstallReport> {
    let repo = open_repo(workspace)?;
    let workdir = repo
        .workdir()
        .ok_or_else(|| {
            Error::BadInput(format!(
                "{}: a bare repository has no workspace",
                repo.path().display()
            ))
        })?
        .to_path_buf();
    let shown = |p: &Path| {
        let workdir = workdir.canonicalize().unwrap_or_else(|_| workdir.clone());
        p.strip_prefix(&workdir).unwrap_or(p).display().to_string()
    };
    let mut report = InstallReport {
        lines: Vec::new(),
        changed: false,
        foreign_hook: None,
    };

    // Every file this writes is checked first, so a refusal writes nothing:
    // .gitattributes through the workspace's guard (a symlinked or non-regular
    // one is refused, never followed, read or replaced), the hook through
    // `guard_hook`.
    let attrs = Workspace::open(workspace)?.internal_file(".gitattributes")?;
    let config = repo.config().map_err(git_err("git config"))?;
    let hooks = match config.get_path("core.hooksPath") {
        Ok(p) if p.is_absolute() => p,
        Ok(p) => workdir.join(p),
        Err(_) => repo.commondir().join("hooks"),
    };
    let hook = hooks.join(HOOK_NAME);
    guard_hook(&hooks, &hook, &workdir, repo.commondir())?;

    // 1. .gitattributes in the workspace folder (patterns are relative to it).
    let existing = match std::fs::read_to_string(&attrs) {
        Ok(s) => s,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(Error::io(&attrs)(e)),
    };
    let mut text = existing.clone();
    for line in std::iter::once(ATTRIBUTES_LINE).chain(LEDGER_ATTRIBUTES_LINES) {
        if text.lines().any(|l| l.trim() == line) {
            report
                .lines
                .push(format!("{}: already has `{line}`", shown(&attrs)));
        } else {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(line);
            text.push('\n');
            report.lines.push(format!("{}: added `{line}`", shown(&attrs)));
        }
    }
    if text != existing {
        fsutil::atomic_write(&attrs, text.as_bytes()).map_err(Error::io(&attrs))?;
        report.changed = true;
    }

    // 2. The driver, in the repository's own config.
    let mut local = config
        .open_level(git2::ConfigLevel::Local)
        .map_err(git_err("git config (repository)"))?;
    for (key, value) in [
        (
            format!("merge.{DRIVER_NAME}.name"),
            "cowriting sidecar merge (by record id)".to_owned(),
        ),
        (format!("merge.{DRIVER_NAME}.driver"), driver_command(exe)),
    ] {
        if local.get_string(&key).ok().as_deref() == Some(value.as_str()) {
            report.lines.push(format!("git config {key}: already set"));
        } else {
            local.set_str(&key, &value).map_err(git_err(&key))?;
            report.lines.push(format!("git config {key} = {value}"));
            report.changed = true;
        }
    }

    // 3. The hook.
    let script = hook_script(exe);
    match std::fs::read(&hook) {
        Ok(bytes) if bytes == script.as_bytes() => {
            ensure_executable(&hook)?;
            report
                .lines
                .push(format!("hook {}: already installed", shown(&hook)));
        }
        Ok(bytes)
            if !String::from_utf8_lossy(&bytes)
                .lines()
                .any(|l| l.trim() == HOOK_MARKER) =>
        {
            report.lines.push(format!(
                "hook {}: a {HOOK_NAME} hook cowriting did not write is already there; left untouched. \
                 To add Co-authored-by trailers, call this from it: {}",
                shown(&hook),
                hook_command(&exe.to_string_lossy())
            ));
            report.foreign_hook = Some(hook);
        }
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&hook)(e)),
        found => {
            fsutil::atomic_write(&hook, script.as_bytes()).map_err(Error::io(&hook))?;
            ensure_executable(&hook)?;
            let did = if found.is_ok() { "updated" } else { "installed" };
            report.lines.push(format!("hook {}: {did}", shown(&hook)));
            report.changed = true;
        }
    }
    if !report.changed {
        report
            .lines
            .push("nothing changed: cowriting's git integration was already installed".into());
    }
    Ok(report)
}

/// Refuse to write the hook through a link: the hook file must be a regular
/// file (or missing), and the hooks folder a real folder (or missing). When the
/// folder lies in the work tree or in git's own folder, no component of it
/// below that may be a symlink either (a cloned repository must not point the
/// hook anywhere). A hooks folder elsewhere (an absolute `core.hooksPath`) is
/// the user's own choice; only its last component and the hook are checked.
fn guard_hook(hooks: &Path, hook: &Path, workdir: &Path, git_dir: &Path) -> Result<()> {
    let refuse = |path: &Path, what: String| {
        Err(Error::BadInput(format!(
            "{}: {what}; cowriting does not write its hook through it",
            path.display()
        )))
    };
    let bases: Vec<PathBuf> = [git_dir, workdir]
        .iter()
        .flat_map(|b| {
            [
                b.to_path_buf(),
                b.canonicalize().unwrap_or_else(|_| b.to_path_buf()),
            ]
        })
        .collect();
    let below = bases
        .iter()
        .find_map(|b| hooks.strip_prefix(b).ok().map(|rel| (b, rel)));
    let mut checked: Vec<PathBuf> = match below {
        Some((base, rel)) => {
            let mut p = base.to_path_buf();
            rel.components()
                .map(|c| {
                    p.push(c);
                    p.clone()
                })
                .collect()
        }
        None => vec![hooks.to_path_buf()],
    };
    checked.push(hook.to_path_buf());
    for (i, path) in checked.iter().enumerate() {
        let last = i + 1 == checked.len();
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.file_type().is_symlink() => return refuse(path, "a symlink".into()),
            Ok(m) if last && !m.is_file() => return refuse(path, "not a regular file".into()),
            Ok(m) if !last && !m.is_dir() => return refuse(path, "not a folder".into()),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => break,
            Err(e) => return Err(Error::io(path)(e)),
        }
    }
    Ok(())
}

#[cfg(unix)]
fn ensure_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(path).map_err(Error::io(path))?;
    if meta.permissions().mode() & 0o111 != 0o111 {
        let mode = meta.permissions().mode() | 0o755;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(Error::io(path))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn ensure_executable(_path: &Path) -> Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting() {
        assert_eq!(sh_quote("/usr/bin/cowriting"), "/usr/bin/cowriting");
        assert_eq!(sh_quote("/a b/it's"), "'/a b/it'\\''s'");
    }
}
