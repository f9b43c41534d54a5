//! A workspace's own settings, shared by everyone who writes in it:
//! `W/.cowriting/settings.toml`, committed with the workspace like the
//! dictionary beside it.
//!
//! ```toml
//! [spelling]
//! language = "en_GB"    # this workspace is checked in British English,
//!                       # whatever each writer's own language is
//! ```
//!
//! It holds only what a cloned repository may safely decide for a stranger
//! who opens it: the spelling language, a dictionary's name (`en_GB`; never a
//! path: [`valid_language`]). Commands, programs and anything else come only
//! from the user's settings ([`crate::config`]). A file that does not parse,
//! or a language that is not a dictionary name, is set aside with a warning
//! and the writer's own settings apply.
//!
//! Changing it is a read-modify-write under its own lock, checked against
//! what was read before the rename (as the dictionary is); keys this program
//! does not know are kept.

use crate::config::Config;
use crate::error::{Error, Result};
use crate::workspace::{FileChange, Workspace};

/// Where the workspace's settings live, under its root.
pub const SETTINGS_FILE: &str = ".cowriting/settings.toml";
/// Not `settings.toml.lock`: that is the lock of a document `settings.toml`.
const SETTINGS_LOCK: &str = "workspace-settings.lock";
/// The largest settings file read (it holds a line or two).
const MAX_BYTES: usize = 64 * 1024;

/// What the workspace says, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkspaceSettings {
    /// The language its documents are spelled in (`en_GB`), when it says.
    pub spelling_language: Option<String>,
    /// Why something in the file was set aside (it did not parse, a language
    /// that is not a dictionary name).
    pub warnings: Vec<String>,
}

/// Whether `tag` can name a Hunspell dictionary: `en`, `en_GB`, `de_DE_frami`,
/// `sr-Latn`: letters, digits, `_` and `-`, starting with a letter, at most
/// 32 bytes. Nothing else reaches a file name.
pub fn valid_language(tag: &str) -> bool {
    !tag.is_empty()
        && tag.len() <= 32
        && tag.starts_with(|c: char| c.is_ascii_alphabetic())
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

impl WorkspaceSettings {
    /// Read `W/.cowriting/settings.toml` (nothing said when there is none).
    pub fn load(ws: &Workspace) -> Result<WorkspaceSettings> {
        let file = ws.internal_file(SETTINGS_FILE)?;
        let text = read(ws)?;
        let mut out = WorkspaceSettings::default();
        let Some(text) = text else {
            return Ok(out);
        };
        let table = match text.parse::<toml::Table>() {
            Ok(t) => t,
            Err(e) => {
                out.warnings
                    .push(format!("{} is set aside: {}", file.display(), e.message()));
                return Ok(out);
            }
        };
        match table.get("spelling").and_then(|s| s.get("language")) {
            None => {}
            Some(toml::Value::String(tag)) if valid_language(tag) => {
                out.spelling_language = Some(tag.clone())
            }
            Some(other) => out.warnings.push(format!(
                "{}: spelling.language {other} is not a dictionary name (say \"en_GB\"); your own language is used",
                file.display()
            )),
        }
        Ok(out)
    }

    /// Set (or, with `None`, take back) the workspace's spelling language.
    /// Answers the settings as written.
    pub fn set_spelling_language(ws: &Workspace, tag: Option<&str>) -> Result<WorkspaceSettings> {
        if let Some(tag) = tag {
            if !valid_language(tag) {
                return Err(Error::BadInput(format!(
                    "{tag:?} is not a dictionary name (say en_US, en_GB, …)"
                )));
            }
        }
        let file = ws.internal_file(SETTINGS_FILE)?;
        ws.update_internal_text(
            SETTINGS_FILE,
            SETTINGS_LOCK,
            "the workspace's settings",
            |before| {
                if before.is_some_and(|b| b.len() > MAX_BYTES) {
                    return Err(too_large(&file));
                }
                let mut table = match before.map(str::parse::<toml::Table>) {
                    None => toml::Table::new(),
                    Some(Ok(t)) => t,
                    Some(Err(e)) => {
                        return Err(Error::BadInput(format!(
                            "{} does not parse ({}); mend it by hand first",
                            file.display(),
                            e.message()
                        )))
                    }
                };
                let spelling = table
                    .entry("spelling")
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()));
                let Some(spelling) = spelling.as_table_mut() else {
                    return Err(Error::BadInput(format!(
                        "{}: spelling is not a table; mend it by hand first",
                        file.display()
                    )));
                };
                match tag {
                    Some(tag) => {
                        spelling.insert("language".into(), toml::Value::String(tag.to_owned()));
                    }
                    None => {
                        spelling.remove("language");
                    }
                }
                if spelling.is_empty() {
                    table.remove("spelling");
                }
                let next = toml::to_string(&table).map_err(|e| Error::BadInput(e.to_string()))?;
                Ok(
                    if before == Some(next.as_str()) || (before.is_none() && table.is_empty()) {
                        FileChange::Keep
                    } else if table.is_empty() {
                        // A file left saying nothing goes (no empty file in the writer's git status).
                        FileChange::Remove
                    } else {
                        FileChange::Write(next)
                    },
                )
            },
        )?;
        WorkspaceSettings::load(ws)
    }
}

impl Workspace {
    /// The user's settings as they apply in this workspace: the workspace's
    /// spelling language, when it names one, comes before the writer's own.
    /// Warnings about the workspace's file go to `warnings`.
    pub fn config(&self, warnings: &mut Vec<String>) -> Result<Config> {
        let mut cfg = Config::load()?;
        self.apply_settings(&mut cfg, warnings);
        Ok(cfg)
    }

    /// `cfg` with what this workspace says put first (see [`Workspace::config`]).
    pub fn apply_settings(&self, cfg: &mut Config, warnings: &mut Vec<String>) {
        match WorkspaceSettings::load(self) {
            Ok(ours) => {
                warnings.extend(ours.warnings);
                if let Some(tag) = ours.spelling_language {
                    cfg.spelling.language = tag;
                }
            }
            // (A link, a FIFO, a huge file: the writer's own settings apply.)
            Err(e) => warnings.push(format!("the workspace's settings are set aside: {e}")),
        }
    }
}

/// The file's text, refused when larger than [`MAX_BYTES`].
fn read(ws: &Workspace) -> Result<Option<String>> {
    let text = ws.read_internal_text(SETTINGS_FILE)?;
    match text {
        Some(t) if t.len() > MAX_BYTES => Err(too_large(&ws.internal_file(SETTINGS_FILE)?)),
        t => Ok(t),
    }
}

fn too_large(file: &std::path::Path) -> Error {
    Error::BadInput(format!("{} is larger than {MAX_BYTES} bytes", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        (dir, ws)
    }

    #[test]
    fn the_language_is_set_kept_beside_other_keys_and_taken_back() {
        let (dir, ws) = ws();
        assert_eq!(
            WorkspaceSettings::load(&ws).unwrap(),
            WorkspaceSettings::default()
        );
        let file = dir.path().join(SETTINGS_FILE);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "[future]\nkey = 1\n").unwrap();
        let s = WorkspaceSettings::set_spelling_language(&ws, Some("en_GB")).unwrap();
        assert_eq!(s.spelling_language.as_deref(), Some("en_GB"));
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            text.contains("[future]") && text.contains("language = \"en_GB\""),
            "{text}"
        );
        let s = WorkspaceSettings::set_spelling_language(&ws, None).unwrap();
        assert_eq!(s.spelling_language, None);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "[future]\nkey = 1\n");
        // Said alone, taken back: the file goes.
        std::fs::remove_file(&file).unwrap();
        WorkspaceSettings::set_spelling_language(&ws, Some("en_US")).unwrap();
        WorkspaceSettings::set_spelling_language(&ws, None).unwrap();
        assert!(!file.exists());
    }

    #[test]
    fn taking_back_what_was_never_set_writes_nothing() {
        let (dir, ws) = ws();
        WorkspaceSettings::set_spelling_language(&ws, None).unwrap();
        assert!(!dir.path().join(SETTINGS_FILE).exists());
    }

    #[test]
    fn a_stranger_s_file_names_no_path_and_breaks_nothing() {
        let (dir, ws) = ws();
        let file = dir.path().join(SETTINGS_FILE);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        for (text, why) in [
            (
                "[spelling]\nlanguage = \"../../../../tmp/evil\"\n",
                "not a dictionary name",
            ),
            (
                "[spelling]\nlanguage = \"/usr/share/hunspell/en_US\"\n",
                "not a dictionary name",
            ),
            ("[spelling]\nlanguage = 7\n", "not a dictionary name"),
            ("[spelling\nlanguage = ", "set aside"),
        ] {
            std::fs::write(&file, text).unwrap();
            let s = WorkspaceSettings::load(&ws).unwrap();
            assert_eq!(s.spelling_language, None, "{text}");
            assert!(
                s.warnings.len() == 1 && s.warnings[0].contains(why),
                "{text}: {:?}",
                s.warnings
            );
        }
        assert!(WorkspaceSettings::set_spelling_language(&ws, Some("en/GB")).is_err());
        assert!(WorkspaceSettings::set_spelling_language(&ws, Some("")).is_err());
    }

    #[test]
    fn names_of_dictionaries() {
        for ok in ["en", "en_GB", "de_DE_frami", "sr-Latn", "pt_BR"] {
            assert!(valid_language(ok), "{ok}");
        }
        for bad in ["", "_en", "en/GB", "en GB", "..", "en.GB", "é", &"a".repeat(33)] {
            assert!(!valid_language(bad), "{bad}");
        }
    }

    #[test]
    #[cfg(unix)]
    fn a_settings_file_that_is_a_link_out_of_the_workspace_is_not_followed() {
        let (dir, ws) = ws();
        let outside = tempfile::tempdir().unwrap();
        let target = outside.path().join("secret.toml");
        std::fs::write(&target, "[spelling]\nlanguage = \"en_AU\"\n").unwrap();
        let file = dir.path().join(SETTINGS_FILE);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&target, &file).unwrap();
        assert!(WorkspaceSettings::load(&ws).is_err());
        let mut warnings = vec![];
        let cfg = ws.config(&mut warnings).unwrap();
        assert_ne!(cfg.spelling.language, "en_AU");
        assert!(warnings[0].contains("set aside"), "{warnings:?}");
        assert!(WorkspaceSettings::set_spelling_language(&ws, Some("en_GB")).is_err());
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "[spelling]\nlanguage = \"en_AU\"\n"
        );
    }
}
