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
//! timeout_secs = 180       # a stream that prints nothing for this long is stopped
//! run_secs = 600           # one request that runs this long is stopped, printing or not
//! output_mib = 64          # the most Claude Code may print (stdout and stderr each)
//! api_url = "https://api.anthropic.com"
//! max_tokens = 4096
//!
//! [user]                         # who you are: the author of comments, typed text, decisions
//! name = "Ada Lovelace"          # unset: git's user.name
//! email = "ada@example.org"      # unset: git's user.email
//! asked = true                   # the app asked once (first run, no identity anywhere)
//!
//! [editor]
//! autosave = "off"               # "off", "after_delay" or "on_focus_change"
//! autosave_delay_secs = 2        # the pause after typing before "after_delay" saves
//! rendering = "auto"             # the app's web view: "auto" (compositing off where there
//!                                # is no GPU: it would be done in software), "compositing"
//!                                # or "software"; WEBKIT_DISABLE_COMPOSITING_MODE, when set,
//!                                # is obeyed as it is
//!
//! [spelling]
//! language = "en_US"             # the Hunspell dictionary spelling as you type checks
//!                                # against (Debian: hunspell-en-us, hunspell-en-gb, …);
//!                                # a workspace's own (workspace_settings) comes first
//!
//! [git]
//! trailer = "assisted-by"        # how a commit credits an agent's accepted text:
//!                                # "assisted-by" (`Assisted-by: claude:<model>`),
//!                                # "co-authored-by" (`Co-authored-by: Claude <…>`) or
//!                                # "none"; a repository's `git config cowriting.trailer`
//!                                # comes first (`cowriting git install --trailer`)
//!
//! [harper.rules]                 # Harper's rules turned on or off (Settings → Grammar rules);
//! UseTitleCase = false           # unset: Harper's curated choice, except the rules
//!                                # `QUIET_BY_DEFAULT` names, off for prose
//!
//! [producers]
//! enabled = ["harper", "vale"]   # what "Check document" runs; unset: Harper, and
//!                                # each other checker whose program is installed
//!
//! [vale]
//! command = "vale"
//! args = []                      # e.g. ["--config", "/home/me/.vale.ini"]
//! timeout_secs = 60              # the longest one run may take
//! output_mib = 64                # the most it may print (stdout and stderr each)
//!
//! [external.mychecker]           # `cowriting suggest DOC --producer mychecker`
//! command = "/usr/local/bin/mychecker"
//! args = ["--json"]
//! timeout_secs = 60
//! output_mib = 64
//! ```
//!
//! Every subprocess is bounded by its producer's limits: a run that goes on
//! longer (`timeout_secs`; Claude's stream: `run_secs`, or `timeout_secs`
//! without output) is stopped as timed out, one that prints more than
//! `output_mib` MiB on its standard output or error is stopped as failed.

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
    #[serde(default, skip_serializing_if = "UserConfig::is_empty")]
    pub user: UserConfig,
    #[serde(default)]
    pub editor: EditorConfig,
    #[serde(default)]
    pub claude: ClaudeConfig,
    #[serde(default)]
    pub spelling: SpellingConfig,
    #[serde(default, skip_serializing_if = "HarperConfig::is_empty")]
    pub harper: HarperConfig,
    #[serde(default, skip_serializing_if = "GitConfig::is_default")]
    pub git: GitConfig,
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
    /// How long a stream may print nothing (for an answer that is not
    /// streamed: how long it may take).
    pub timeout_secs: u64,
    /// How long one request may take, printing or not.
    pub run_secs: u64,
    /// The most Claude Code may print on its standard output, and on its
    /// standard error (MiB); a streamed answer from the API is held to it too.
    pub output_mib: u64,
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
            run_secs: 600,
            output_mib: DEFAULT_OUTPUT_MIB,
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

/// Who the writer is, as they told the app (each unset one defaults to git's).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct UserConfig {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    /// The app asked for a name once (answered or skipped): it never asks again.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub asked: bool,
}

impl UserConfig {
    fn is_empty(&self) -> bool {
        *self == UserConfig::default()
    }

    /// The name, when one is set (blank is unset).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref().map(str::trim).filter(|s| !s.is_empty())
    }

    /// The e-mail, when one is set (blank is unset).
    pub fn email(&self) -> Option<&str> {
        self.email.as_deref().map(str::trim).filter(|s| !s.is_empty())
    }
}

/// When the app saves on its own (as VS Code's `files.autoSave`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "snake_case")]
pub enum AutoSave {
    /// Only Ctrl+S (and the prompts at close and quit).
    #[default]
    Off,
    /// After the writer pauses for `autosave_delay_secs`.
    AfterDelay,
    /// When the editor loses the focus: another tab, another window, a dialog.
    OnFocusChange,
}

/// How the app's web view draws: WebKitGTK's accelerated compositing, which
/// without a GPU (Xvfb, a virtual machine, most remote desktops) is done in
/// software, costing memory and frames (docs/performance.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rendering {
    /// Compositing where the machine has a GPU (a DRM render node), off elsewhere.
    #[default]
    Auto,
    /// WebKit's compositing, always.
    Compositing,
    /// Never composite.
    Software,
}

/// The editor's behaviour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EditorConfig {
    pub autosave: AutoSave,
    pub autosave_delay_secs: u32,
    pub rendering: Rendering,
}

impl Default for EditorConfig {
    fn default() -> Self {
        EditorConfig {
            autosave: AutoSave::Off,
            autosave_delay_secs: 2,
            rendering: Rendering::Auto,
        }
    }
}

/// Spelling as the writer types.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SpellingConfig {
    /// The Hunspell dictionary's name (`en_US`, `en_GB`, …).
    pub language: String,
}

impl Default for SpellingConfig {
    fn default() -> Self {
        SpellingConfig {
            language: "en_US".into(),
        }
    }
}

/// How a commit credits an agent whose accepted text it adds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "kebab-case")]
pub enum TrailerStyle {
    /// `Assisted-by: AGENT:MODEL` (what projects now ask for).
    #[default]
    AssistedBy,
    /// `Co-authored-by: NAME <ADDRESS>` (GitHub shows it as a co-author).
    CoAuthoredBy,
    /// No trailer.
    None,
}

impl TrailerStyle {
    /// The style named `s` (`assisted-by`, `co-authored-by`, `none`).
    pub fn parse(s: &str) -> Option<TrailerStyle> {
        match s.trim().to_ascii_lowercase().as_str() {
            "assisted-by" => Some(TrailerStyle::AssistedBy),
            "co-authored-by" => Some(TrailerStyle::CoAuthoredBy),
            "none" => Some(TrailerStyle::None),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            TrailerStyle::AssistedBy => "assisted-by",
            TrailerStyle::CoAuthoredBy => "co-authored-by",
            TrailerStyle::None => "none",
        }
    }
}

/// Git, as the writer has it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GitConfig {
    pub trailer: TrailerStyle,
}

impl GitConfig {
    fn is_default(&self) -> bool {
        *self == GitConfig::default()
    }
}

/// Harper's rules as the writer chose them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct HarperConfig {
    /// By rule name: on or off. A rule not named keeps its default.
    pub rules: BTreeMap<String, bool>,
}

/// Harper rules off unless the writer turns them on: noise for prose.
/// `UseTitleCase` asks every heading to be in title case, and most prose (and
/// every style guide that prefers sentence case) is not.
pub const QUIET_BY_DEFAULT: &[&str] = &["UseTitleCase"];

impl HarperConfig {
    fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule choices a check applies: [`QUIET_BY_DEFAULT`] off, then the
    /// writer's own.
    pub fn effective_rules(&self) -> BTreeMap<String, bool> {
        let mut rules: BTreeMap<String, bool> =
            QUIET_BY_DEFAULT.iter().map(|r| (r.to_string(), false)).collect();
        rules.extend(self.rules.iter().map(|(k, v)| (k.clone(), *v)));
        rules
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProducersConfig {
    /// The deterministic producers "Check document" runs, in order, as the
    /// writer chose them. `None`: they never chose, and the default applies
    /// ([`Config::enabled_producers`]), so a checker installed later turns on
    /// by itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ValeConfig {
    pub command: String,
    pub args: Vec<String>,
    pub timeout_secs: u64,
    /// The most Vale may print on its standard output, and on its standard error (MiB).
    pub output_mib: u64,
}

impl Default for ValeConfig {
    fn default() -> Self {
        ValeConfig {
            command: "vale".into(),
            args: Vec::new(),
            timeout_secs: 60,
            output_mib: DEFAULT_OUTPUT_MIB,
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
    /// The most it may print on its standard output, and on its standard error (MiB).
    #[serde(default = "default_output_mib")]
    pub output_mib: u64,
}

fn default_external_timeout() -> u64 {
    60
}

/// The most a producer's program may print on each of its outputs (MiB),
/// unless its settings say otherwise: far more than any answer (a review
/// part's is kilobytes), far less than the memory a runaway would take.
pub const DEFAULT_OUTPUT_MIB: u64 = 64;

fn default_output_mib() -> u64 {
    DEFAULT_OUTPUT_MIB
}

/// Whether `command` names a program this machine can run: a path (it has a
/// `/`) to an executable file, or a name found in an executable file of a `$PATH`
/// directory. What "installed" means for a checker.
pub fn command_installed(command: &str) -> bool {
    let command = command.trim();
    if command.is_empty() {
        return false;
    }
    let executable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| {
            #[cfg(unix)]
            let runnable = std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o111 != 0;
            #[cfg(not(unix))]
            let runnable = true;
            m.is_file() && runnable
        })
    };
    if command.contains('/') || command.contains(std::path::MAIN_SEPARATOR) {
        return executable(Path::new(command));
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| executable(&dir.join(command))))
}

impl Config {
    /// What "Check document" runs: the writer's choice, else Harper (built in)
    /// and Vale when its command is installed.
    pub fn enabled_producers(&self) -> Vec<String> {
        match &self.producers.enabled {
            Some(chosen) => chosen.clone(),
            None => self.default_producers(),
        }
    }

    /// The producers enabled when the writer never chose.
    pub fn default_producers(&self) -> Vec<String> {
        let mut out = vec!["harper".to_owned()];
        if command_installed(&self.vale.command) {
            out.push("vale".to_owned());
        }
        out
    }

    /// The command a checker runs (`None` for Harper, which is built in, and for
    /// a name that is no checker).
    pub fn checker_command(&self, producer: &str) -> Option<&str> {
        match producer {
            "vale" => Some(&self.vale.command),
            other => self.external.get(other).map(|e| e.command.as_str()),
        }
    }

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
        assert_eq!(c.external["lint"].output_mib, DEFAULT_OUTPUT_MIB);
        assert_eq!((c.claude.run_secs, c.claude.output_mib), (600, 64));
        let limits =
            Config::parse("[claude]\nrun_secs = 5\noutput_mib = 1\n[vale]\noutput_mib = 2\n").unwrap();
        assert_eq!((limits.claude.run_secs, limits.claude.output_mib), (5, 1));
        assert_eq!(limits.vale.output_mib, 2);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/config.toml");
        c.save_to(&path).unwrap();
        assert_eq!(Config::load_from(&path).unwrap(), c, "save then load is the same");
        let e = Config::parse("[claude]\nmodle = 1\n").unwrap_err();
        assert!(e.contains("modle"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn a_save_keeps_every_other_key() {
        let text = "[user]\nname = \"Ada\"\n\n[vale]\ncommand = \"/opt/vale\"\nargs = [\"--config\", \"/v.ini\"]\n\n[external.lint]\ncommand = \"/bin/lint\"\nargs = [\"--json\"]\n\n[claude]\napi_url = \"http://proxy\"\n";
        let mut c = Config::parse(text).unwrap();
        assert_eq!(c.user.name(), Some("Ada"));
        assert_eq!(c.producers.enabled, None, "never chosen");
        c.user.email = Some("ada@example.org".into());
        c.editor.autosave = AutoSave::AfterDelay;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.toml");
        c.save_to(&path).unwrap();
        let back = Config::load_from(&path).unwrap();
        assert_eq!(back, c);
        assert_eq!(back.vale.args, ["--config", "/v.ini"]);
        assert_eq!(back.external["lint"].args, ["--json"]);
        assert_eq!(back.claude.api_url, "http://proxy");
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(written.contains("autosave = \"after_delay\""), "{written}");
        assert!(
            !written.contains("enabled"),
            "an unchosen list stays unchosen: {written}"
        );
        // Nothing of [user] is written while it is all unset.
        Config::default().save_to(&path).unwrap();
        assert!(!std::fs::read_to_string(&path).unwrap().contains("[user]"));
    }

    #[test]
    fn checkers_not_installed_are_off_until_installed_unless_chosen() {
        let dir = tempfile::tempdir().unwrap();
        let vale = dir.path().join("vale");
        let mut c = Config::default();
        c.vale.command = vale.display().to_string();
        assert!(!command_installed(&c.vale.command));
        assert_eq!(c.enabled_producers(), ["harper"], "Vale is not installed");
        std::fs::write(&vale, "#!/bin/sh\n").unwrap();
        assert!(!command_installed(&c.vale.command), "not executable");
        #[cfg(unix)]
        std::fs::set_permissions(&vale, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        assert!(command_installed(&c.vale.command));
        assert_eq!(
            c.enabled_producers(),
            ["harper", "vale"],
            "installed: on by itself"
        );
        c.producers.enabled = Some(vec!["harper".into()]);
        assert_eq!(c.enabled_producers(), ["harper"], "the writer's choice stays");
        assert!(command_installed("sh"), "found on PATH");
        assert!(!command_installed("surely-no-such-program-here"));
        assert!(!command_installed(" "));
        assert!(
            !command_installed(&dir.path().display().to_string()),
            "a folder is no program"
        );
    }
}
