//! The user's settings as the Settings dialog shows and saves them: who the
//! writer is, autosave, how Ask Claude runs and which checkers Check document
//! runs (each marked when its program is not installed); and the one
//! setting a workspace holds for all its writers, its spelling language
//! ([`WorkspaceSettings`]).

use super::*;
use cowriting_producers::harper_rules;
use cowriting_workspace::config::{command_installed, UserConfig, QUIET_BY_DEFAULT};
use cowriting_workspace::identity::Human;
use cowriting_workspace::workspace_settings::WorkspaceSettings;

impl Api {
    /// The user's settings.
    pub fn settings(&self) -> Result<SettingsDto> {
        let cfg = Config::load()?;
        Ok(self.settings_dto(&cfg))
    }

    /// Who the writer is (the status bar shows it; the app asks once when nobody is named).
    pub fn identity(&self) -> Result<IdentityDto> {
        Ok(self.identity_dto(&Config::load()?.user))
    }

    /// Change the user's settings (the file is rewritten; other keys it holds
    /// are kept). A new name or e-mail is the author of what every open
    /// document writes from now on.
    pub fn save_settings(&mut self, dto: &SettingsDto) -> Result<SettingsDto> {
        let path = settings_path()?;
        let mut cfg = Config::load_from(&path)?;
        cfg.claude.transport = dto.transport;
        cfg.claude.model = dto.model.clone().filter(|m| !m.trim().is_empty());
        if !dto.claude_command.trim().is_empty() {
            cfg.claude.command = dto.claude_command.trim().to_owned();
        }
        if dto.timeout_secs > 0 {
            cfg.claude.timeout_secs = u64::from(dto.timeout_secs);
        }
        let available = available(&cfg);
        if let Some(bad) = dto.enabled.iter().find(|p| !available.contains(p)) {
            return Err(Error::BadInput(format!(
                "unknown producer {bad:?}: choose from {}",
                available.join(", ")
            )));
        }
        // Saving what the default is now is no choice: a checker installed
        // later still turns on by itself.
        if cfg.producers.enabled.is_some() || dto.enabled != cfg.default_producers() {
            cfg.producers.enabled = Some(dto.enabled.clone());
        }
        let language = dto.spelling_language.trim();
        if language != cfg.spelling.language {
            if !installed_languages().iter().any(|l| l == language) {
                return Err(Error::BadInput(format!(
                    "no Hunspell dictionary {language:?} is installed: choose from {}",
                    installed_languages().join(", ")
                )));
            }
            cfg.spelling.language = language.to_owned();
        }
        let rules = harper_rules::rules();
        if let Some(bad) = dto
            .harper_choices
            .keys()
            .find(|k| !rules.iter().any(|r| &r.name == *k))
        {
            return Err(Error::BadInput(format!("{bad:?} is not a Harper rule")));
        }
        // Only what differs from the default is a choice: a rule Harper turns
        // on or off in a later version follows it until the writer chooses.
        cfg.harper.rules = dto
            .harper_choices
            .iter()
            .filter(|(name, on)| rule_default(name) != **on)
            .map(|(name, on)| (name.clone(), *on))
            .collect();
        cfg.git.trailer = dto.trailer;
        cfg.editor.autosave = dto.autosave;
        if dto.autosave_delay_secs > 0 {
            cfg.editor.autosave_delay_secs = dto.autosave_delay_secs;
        }
        set_user(
            &mut cfg.user,
            dto.identity.name.as_deref(),
            dto.identity.email.as_deref(),
        );
        // The workspace's language is checked before anything is written.
        let ours = self.workspace_settings();
        let workspace_language = dto
            .workspace_spelling_language
            .as_deref()
            .map(str::trim)
            .filter(|l| !l.is_empty());
        let change_workspace = workspace_language != ours.spelling_language.as_deref();
        if let Some(language) = workspace_language.filter(|_| change_workspace) {
            crate::ops::spelling::installed(language)?;
        }
        cfg.save_to(&path)?;
        self.take_identity(&cfg.user);
        if change_workspace {
            WorkspaceSettings::set_spelling_language(self.store.workspace(), workspace_language)?;
        }
        Ok(self.settings_dto(&cfg))
    }

    /// The workspace's own settings; one that cannot be read is said in its warnings.
    fn workspace_settings(&self) -> WorkspaceSettings {
        WorkspaceSettings::load(self.store.workspace()).unwrap_or_else(|e| WorkspaceSettings {
            spelling_language: None,
            warnings: vec![format!("the workspace's settings are set aside: {e}")],
        })
    }

    /// The first run's question answered (a name, an e-mail) or skipped (none):
    /// saved, and never asked again.
    pub fn save_identity(&mut self, name: Option<&str>, email: Option<&str>) -> Result<IdentityDto> {
        let path = settings_path()?;
        let mut cfg = Config::load_from(&path)?;
        set_user(&mut cfg.user, name, email);
        cfg.save_to(&path)?;
        self.take_identity(&cfg.user);
        Ok(self.identity_dto(&cfg.user))
    }

    /// Write as `user` from now on: the API's author and every open session's.
    fn take_identity(&mut self, user: &UserConfig) {
        let author = Human::resolve(user, self.root()).author();
        for (_, s) in self.sessions.iter_mut() {
            s.set_identity(author.clone());
        }
        self.identity = author;
    }

    fn identity_dto(&self, user: &UserConfig) -> IdentityDto {
        let human = Human::resolve(user, self.root());
        let (id, source) = human.id();
        IdentityDto {
            id: id.to_owned(),
            display: human.display_name().to_owned(),
            source,
            ask: ask(&human, user),
            name: human.name.clone(),
            email: human.email.clone(),
            git_name: human.git_name.clone(),
            git_email: human.git_email.clone(),
        }
    }

    fn settings_dto(&self, cfg: &Config) -> SettingsDto {
        let ours = self.workspace_settings();
        let available = available(cfg);
        let not_installed = available
            .iter()
            .filter_map(|p| {
                let command = cfg.checker_command(p)?;
                (!command_installed(command)).then(|| MissingChecker {
                    producer: p.clone(),
                    command: command.to_owned(),
                })
            })
            .collect();
        SettingsDto {
            path: Config::path()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            transport: cfg.claude.transport,
            model: cfg.claude.model.clone(),
            claude_command: cfg.claude.command.clone(),
            timeout_secs: cfg.claude.timeout_secs.min(u64::from(u32::MAX)) as u32,
            enabled: cfg.enabled_producers(),
            available,
            enabled_by_default: cfg.producers.enabled.is_none(),
            not_installed,
            have_api_key: std::env::var_os("ANTHROPIC_API_KEY").is_some(),
            identity: self.identity_dto(&cfg.user),
            autosave: cfg.editor.autosave,
            autosave_delay_secs: cfg.editor.autosave_delay_secs,
            spelling_language: cfg.spelling.language.clone(),
            spelling_languages: installed_languages(),
            workspace_spelling_language: ours.spelling_language,
            workspace_warnings: ours.warnings,
            harper_rules: harper_rules::rules().to_vec(),
            harper_choices: cfg.harper.rules.clone(),
            harper_quiet: QUIET_BY_DEFAULT.iter().map(|r| r.to_string()).collect(),
            trailer: cfg.git.trailer,
        }
    }
}

/// The Hunspell dictionaries installed, by name.
fn installed_languages() -> Vec<String> {
    cowriting_producers::hunspell::installed()
}

/// Whether `rule` is on when the writer has not chosen: Harper's curated
/// choice, except the rules quiet for prose.
fn rule_default(rule: &str) -> bool {
    !QUIET_BY_DEFAULT.contains(&rule) && harper_rules::rules().iter().any(|r| r.name == rule && r.curated)
}

fn settings_path() -> Result<std::path::PathBuf> {
    Config::path().ok_or_else(|| Error::BadInput("no HOME: cannot find the settings folder".into()))
}

/// Every producer that can be enabled: Harper, Vale and the configured external ones.
fn available(cfg: &Config) -> Vec<String> {
    let mut available = vec!["harper".to_owned(), "vale".to_owned()];
    available.extend(cfg.external.keys().cloned());
    available
}

/// Whether to ask who the writer is: nobody is named (settings, git) and they were never asked.
fn ask(human: &Human, user: &UserConfig) -> bool {
    !human.is_known() && !user.asked
}

/// The writer's name and e-mail as given (blank: unset, git's is used); asked from now on.
fn set_user(user: &mut UserConfig, name: Option<&str>, email: Option<&str>) {
    let given = |v: Option<&str>| v.map(str::trim).filter(|v| !v.is_empty()).map(str::to_owned);
    user.name = given(name);
    user.email = given(email);
    user.asked = true;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What an open document writes after Save is the new writer's; what it
    /// wrote before stays its author's.
    #[test]
    fn open_documents_write_as_the_new_identity_from_the_save_on() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("d.md"), "one two\n").unwrap();
        let mut api = Api::open(dir.path()).unwrap();
        api.open_document("d.md").unwrap();
        let before = api.identity.id.clone();
        let at = |n| cowriting_core::offset::Utf16Offset(n);
        api.new_thread("d.md", at(0), at(3), "first").unwrap();
        api.take_identity(&UserConfig {
            name: Some("Ada Lovelace".into()),
            email: Some("ada@example.org".into()),
            asked: true,
        });
        let review = api.new_thread("d.md", at(4), at(7), "second").unwrap();
        let by = |body: &str| {
            let t = review
                .threads
                .iter()
                .find(|t| t.comments[0].body == body)
                .unwrap();
            t.comments[0].author.id.clone()
        };
        assert_eq!(by("first"), before);
        assert_eq!(by("second"), "ada@example.org");
        assert_ne!(by("second"), before, "the new identity");
    }

    #[test]
    fn an_answer_or_a_skip_is_never_asked_again_and_blank_is_unset() {
        let dir = tempfile::tempdir().unwrap();
        let nobody = |u: &UserConfig| {
            let h = Human {
                git_name: None,
                git_email: None,
                login: None,
                ..Human::resolve(u, dir.path())
            };
            ask(&h, u)
        };
        let mut user = UserConfig::default();
        assert!(nobody(&user), "asked on the first run");
        set_user(&mut user, None, None);
        assert_eq!((user.name.as_deref(), user.asked), (None, true), "skipped");
        assert!(!nobody(&user), "never asked again");
        set_user(&mut user, Some("  Ada "), Some("   "));
        assert_eq!((user.name.as_deref(), user.email.as_deref()), (Some("Ada"), None));
    }
}
