//! The user's producer settings as the Settings dialog shows and saves them.

use super::*;

impl Api {
    /// The user's producer settings.
    pub fn settings(&self) -> Result<SettingsDto> {
        let cfg = Config::load()?;
        Ok(settings_dto(&cfg))
    }

    /// Change the user's producer settings (the file is rewritten; other keys
    /// it holds are kept).
    pub fn save_settings(&self, dto: &SettingsDto) -> Result<SettingsDto> {
        let path = Config::path()
            .ok_or_else(|| Error::BadInput("no HOME: cannot find the settings folder".into()))?;
        let mut cfg = Config::load_from(&path)?;
        cfg.claude.transport = dto.transport;
        cfg.claude.model = dto.model.clone().filter(|m| !m.trim().is_empty());
        if !dto.claude_command.trim().is_empty() {
            cfg.claude.command = dto.claude_command.trim().to_owned();
        }
        if dto.timeout_secs > 0 {
            cfg.claude.timeout_secs = u64::from(dto.timeout_secs);
        }
        let available = settings_dto(&cfg).available;
        if let Some(bad) = dto.enabled.iter().find(|p| !available.contains(p)) {
            return Err(Error::BadInput(format!(
                "unknown producer {bad:?}: choose from {}",
                available.join(", ")
            )));
        }
        cfg.producers.enabled = dto.enabled.clone();
        cfg.save_to(&path)?;
        Ok(settings_dto(&cfg))
    }
}

fn settings_dto(cfg: &Config) -> SettingsDto {
    let mut available = vec!["harper".to_owned(), "vale".to_owned()];
    available.extend(cfg.external.keys().cloned());
    SettingsDto {
        path: Config::path()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        transport: cfg.claude.transport,
        model: cfg.claude.model.clone(),
        claude_command: cfg.claude.command.clone(),
        timeout_secs: cfg.claude.timeout_secs.min(u64::from(u32::MAX)) as u32,
        enabled: cfg.producers.enabled.clone(),
        available,
        have_api_key: std::env::var_os("ANTHROPIC_API_KEY").is_some(),
    }
}
