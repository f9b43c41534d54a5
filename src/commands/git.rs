//! Git: `git install`, the `prepare-commit-msg` hook, and `merge-sidecar`
//! (git's merge driver for sidecars).

use super::*;

pub(crate) fn git(ctx: &Ctx, g: GitCommand) -> Result<i32> {
    match g {
        GitCommand::Install { trailer } => {
            let style = trailer
                .map(|t| {
                    cowriting::config::TrailerStyle::parse(&t).ok_or_else(|| {
                        Error::BadInput(format!(
                            "--trailer {t:?}: say assisted-by, co-authored-by or none"
                        ))
                    })
                })
                .transpose()?;
            let exe = std::env::current_exe()
                .map_err(|e| Error::BadInput(format!("cannot find the cowriting executable: {e}")))?;
            let mut r = cowriting::gitops::install(ctx.ws().root(), &exe)?;
            if let Some(style) = style {
                r.lines
                    .push(cowriting::gitops::set_trailer_style(ctx.ws().root(), style)?);
                r.changed = true;
            }
            ctx.print(&r, |r| r.lines.join("\n"));
        }
        // The hook never blocks a commit: problems are warnings.
        GitCommand::Hook(GitHook::PrepareCommitMsg { msg_file, source, .. }) => {
            match cowriting::gitops::run_prepare_commit_msg(ctx.ws().root(), &msg_file, source.as_deref()) {
                Ok(r) => {
                    r.warnings
                        .iter()
                        .for_each(|w| eprintln!("cowriting: warning: {w}"));
                    r.added.iter().for_each(|t| eprintln!("cowriting: added {t}"));
                }
                Err(e) => eprintln!("cowriting: warning: no trailers crediting agents: {e}"),
            }
        }
    }
    Ok(0)
}

/// `merge-sidecar BASE OURS THEIRS [PATH]`: git's merge driver.
pub(crate) fn merge_sidecar(base: &Path, ours: &Path, theirs: &Path, path: Option<&str>) -> Result<i32> {
    let name = path.unwrap_or("sidecar");
    for n in cowriting::gitops::run_merge_driver(base, ours, theirs, Some(name))? {
        eprintln!("cowriting merge-sidecar: {name}: {n}");
    }
    Ok(0)
}
