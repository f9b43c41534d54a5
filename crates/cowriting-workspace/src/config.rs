//! The user's own settings: `$COWRITING_CONFIG`, else
//! `$XDG_CONFIG_HOME/cowriting/config.toml`, else `~/.config/cowriting/config.toml`.
//!
//! This is the only place commands to run come from. A workspace can never name
//! one: opening a cloned repository must not run anything it names.
//!
//! ```toml
//! [claude]
//! transport = "cli"        # "cli" (Claude Code, `claude -p`) or "api" (Messages API);
//!                          # default: "api" when ANTHROPIC_API_KEY is set, else "cli"
//! model = "sonnet"         # optional; no model id is built in
//! command = "claude"       # the Claude Code executable
//! timeout_secs = 180
//! api_url = "https://api.anthropic.com"
//! max_tokens = 4096
//!
//! [producers]
//! enabled = ["harper", "vale"]   # what "Check document" runs
//!
//! [vale]
//! command = "vale"
//! args = []                      # e.g. ["--config", "/home/me/.vale.ini"]
//!
//! [external.mychecker]           # `cowriting suggest DOC --producer mychecker`
//! command = "/usr/local/bin/mychecker"
//! args = ["--json"]
//! timeout_secs = 60
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// How Claude is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// The Claude Code CLI in headless mode, riding the user's own login.
    Cli,
    /// The Anthropic Messages API with `ANTHROPIC_API_KEY`.
    Api,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub claude: ClaudeConfig,
    #[serde(default)]
    pub producers: ProducersConfig,
    #[serde(default)]
    pub vale: ValeConfig,
    /// External producers by name.
    #[serde(default)]
    pub external: BTreeMap<String, ExternalConfig>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClaudeConfig {
    /// `None`: the API when `ANTHROPIC_API_KEY` is set, else the CLI.
    pub transport: Option<Transport>,
    /// `None`: the transport's own default model.
    pub model: Option<String>,
    pub command: String,
    pub timeout_secs: u64,
    pub api_url: String,
    pub max_tokens: u32,
}

impl Default for ClaudeConfig {
    fn default() -> Self {
        ClaudeConfig {
            transport: None,
            model: None,
            command: "claude".into(),
            timeout_secs: 180,
            api_url: "https://api.anthropic.com".into(),
            max_tokens: 4096,
        }
    }
}

impl ClaudeConfig {
    /// The transport to use, given whether an API key is in the environment.
    pub fn transport(&self, have_api_key: bool) -> Transport {
        self.transport.unwrap_or(if have_api_key {
            Transport::Api
        } else {
            Transport::Cli
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProducersConfig {
    /// The deterministic producers "Check document" runs, in order.
    pub enabled: Vec<String>,
}

impl Default for ProducersConfig {
    fn default() -> Self {
        ProducersConfig {
            enabled: vec!["harper".into(), "vale".into()],
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ValeConfig {
    pub command: String,
    pub args: Vec<String>,
    pub timeout_secs: u64,
}

impl Default for ValeConfig {
    fn default() -> Self {
        ValeConfig {
            command: "vale".into(),
            args: Vec::new(),
            timeout_secs: 60,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalConfig {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default = "default_external_timeout")]
    pub timeout_secs: u64,
}

fn default_external_timeout() -> u64 {
    60
}

impl Config {
    /// Where the settings file is looked for.
    pub fn path() -> Option<PathBuf> {
        if let Some(p) = std::env::var_os("COWRITING_CONFIG") {
            return Some(PathBuf::from(p));
        }
        if let Some(x) = std::env::var_os("XDG_CONFIG_HOME").filter(|x| !x.is_empty()) {
            return Some(PathBuf::from(x).join("cowriting").join("config.toml"));
        }
        std::env::var_os("HOME").map(|h| {
            PathBuf::from(h)
                .join(".config")
                .join("cowriting")
                .join("config.toml")
        })
    }

    /// The user's settings; defaults when there is no file. A file that does not
    /// parse is an error naming the file and what is wrong.
    pub fn load() -> Result<Config> {
        match Config::path() {
            Some(p) => Config::load_from(&p),
            None => Ok(Config::default()),
        }
    }

    pub fn load_from(path: &Path) -> Result<Config> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Config::default()),
            Err(e) => return Err(Error::io(path)(e)),
        };
        Config::parse(&text).map_err(|m| Error::BadInput(format!("{}: {m}", path.display())))
    }

    /// Write the settings atomically (comments in a hand-written file are not kept).
    pub fn save_to(&self, path: &Path) -> Result<()> {
        let text = toml::to_string_pretty(self).map_err(|e| Error::BadInput(format!("settings: {e}")))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(Error::io(dir))?;
        }
        crate::fsutil::atomic_write(path, text.as_bytes()).map_err(Error::io(path))
    }

    /// Parse settings text; the error is one line.
    pub fn parse(text: &str) -> std::result::Result<Config, String> {
        toml::from_str(text).map_err(|e| {
            e.to_string()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_parse() {
        let c = Config::parse("").unwrap();
        assert_eq!(c, Config::default());
        assert_eq!(c.claude.transport(false), Transport::Cli);
        assert_eq!(c.claude.transport(true), Transport::Api);
        let c = Config::parse(
            "[claude]\ntransport = \"cli\"\nmodel = \"opus\"\n[external.lint]\ncommand = \"/bin/lint\"\n",
        )
        .unwrap();
        assert_eq!(c.claude.transport(true), Transport::Cli);
        assert_eq!(c.claude.model.as_deref(), Some("opus"));
        assert_eq!(c.external["lint"].timeout_secs, 60);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        c.save_to(&path).unwrap();
        assert_eq!(Config::load_from(&path).unwrap(), c, "save then load is the same");
        let e = Config::parse("[claude]\nmodle = 1\n").unwrap_err();
        assert!(e.contains("modle"), "{e}");
        assert!(!e.contains('\n'));
    }
}
