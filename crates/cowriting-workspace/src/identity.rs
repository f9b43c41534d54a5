//! Who wrote something, one mapping for every client: the human at the
//! keyboard ([`Human`]: the name and e-mail of the user's settings, each unset
//! one defaulting to git's — the workspace's repository, else the user's global
//! config —; the author id is the e-mail, else the name, as the VS Code
//! extension writes it; else `$USER`), and an agent client
//! ([`AgentClient`]: an MCP client, `cowriting propose --agent`, a producer) as
//! the author of what it files and the contract producer behind it.

use crate::config::{Config, UserConfig};
use cowriting_core::contract::Producer;
use cowriting_core::model::{AgentInfo, Provenance};
use std::path::Path;

/// An agent that files proposals and comments: its name and version, the SDK
/// it speaks through, and the model and session it named (if it named them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentClient {
    pub name: String,
    pub version: String,
    /// E.g. `mcp:claude-code/2.1`, `cowriting-cli`.
    pub sdk: String,
    pub model: Option<String>,
    pub session_id: Option<String>,
}

impl AgentClient {
    /// The author of what it files. Every writer in the seeds sets `model` and
    /// `sessionId`, the empty string when unknown; so does this.
    pub fn author(&self) -> Provenance {
        Provenance::agent(
            self.name.clone(),
            AgentInfo {
                sdk: Some(self.sdk.clone()),
                model: Some(self.model.clone().unwrap_or_default()),
                session_id: Some(self.session_id.clone().unwrap_or_default()),
                extra: Default::default(),
            },
        )
    }

    /// The contract producer of what it proposes: provenance `model:<model>`
    /// when it named one, else `agent:<name>`.
    pub fn producer(&self) -> Producer {
        Producer {
            id: self.name.clone(),
            version: self.version.clone(),
            provenance: match self.model.as_deref().filter(|m| !m.is_empty()) {
                Some(m) => format!("model:{m}"),
                None => format!("agent:{}", self.name),
            },
        }
    }
}

/// The author of what a contract producer (Harper, Vale, Claude, an external
/// checker) filed.
pub fn author_for(producer: &Producer) -> Provenance {
    AgentClient {
        name: producer.id.clone(),
        version: producer.version.clone(),
        sdk: format!("{} {}", producer.id, producer.version),
        model: producer.provenance.strip_prefix("model:").map(str::to_owned),
        session_id: None,
    }
    .author()
}

/// Where the writer's author id came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "lowercase")]
pub enum IdentitySource {
    /// The name or e-mail in the user's settings.
    Settings,
    /// git's `user.email` or `user.name`.
    Git,
    /// The login name (`$USER`).
    System,
    /// Nothing at all: the author is "unknown".
    Unknown,
}

/// The human at the keyboard: what the settings say, what git says, and the
/// author id written from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Human {
    /// From the user's settings.
    pub name: Option<String>,
    pub email: Option<String>,
    /// From git's config.
    pub git_name: Option<String>,
    pub git_email: Option<String>,
    /// From the environment (`$USER`).
    pub login: Option<String>,
}

impl Human {
    /// The writer of `workspace`, as the user's settings and git's config say.
    pub fn resolve(user: &UserConfig, workspace: &Path) -> Human {
        let git = git_config(workspace);
        let git_value = |key: &str| {
            git.as_ref()
                .and_then(|c| c.get_string(key).ok())
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        Human {
            name: user.name().map(str::to_owned),
            email: user.email().map(str::to_owned),
            git_name: git_value("user.name"),
            git_email: git_value("user.email"),
            login: std::env::var("USER")
                .ok()
                .map(|u| u.trim().to_owned())
                .filter(|u| !u.is_empty()),
        }
    }

    /// The author id and where it came from: the e-mail, else the name (the
    /// settings' before git's for each), else the login, else "unknown".
    pub fn id(&self) -> (&str, IdentitySource) {
        let email = self.email.as_deref().map(|e| (e, IdentitySource::Settings));
        let email = email.or(self.git_email.as_deref().map(|e| (e, IdentitySource::Git)));
        let name = self.name.as_deref().map(|n| (n, IdentitySource::Settings));
        let name = name.or(self.git_name.as_deref().map(|n| (n, IdentitySource::Git)));
        email
            .or(name)
            .or(self.login.as_deref().map(|l| (l, IdentitySource::System)))
            .unwrap_or(("unknown", IdentitySource::Unknown))
    }

    /// The name to show for the writer: the settings' or git's name, else the id.
    pub fn display_name(&self) -> &str {
        self.name
            .as_deref()
            .or(self.git_name.as_deref())
            .unwrap_or_else(|| self.id().0)
    }

    /// Whether the settings or git name the writer (else the app asks once).
    pub fn is_known(&self) -> bool {
        matches!(self.id().1, IdentitySource::Settings | IdentitySource::Git)
    }

    /// The writer as an author: the id, and the name beside it when there is
    /// one (the settings' or git's) other than the id (`author.name`).
    pub fn author(&self) -> Provenance {
        let name = self.name.as_deref().or(self.git_name.as_deref());
        Provenance::human(self.id().0).with_name(name)
    }
}

fn git_config(workspace: &Path) -> Option<git2::Config> {
    git2::Repository::discover(workspace)
        .ok()
        .and_then(|r| r.config().ok())
        .or_else(|| git2::Config::open_default().ok())
}

/// The human author for edits made in `workspace`: the user's settings, then
/// git, then `$USER` ([`Human`]). Settings that cannot be read count as none
/// (the client that shows them says what is wrong).
pub fn human_identity(workspace: &Path) -> Provenance {
    let user = Config::load().map(|c| c.user).unwrap_or_default();
    Human::resolve(&user, workspace).author()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(model: Option<&str>) -> AgentClient {
        AgentClient {
            name: "claude-code".into(),
            version: "2.1".into(),
            sdk: "mcp:claude-code/2.1".into(),
            model: model.map(str::to_owned),
            session_id: None,
        }
    }

    #[test]
    fn an_agent_client_is_one_author_and_one_producer() {
        let a = client(Some("claude-sonnet-4-5")).author();
        assert_eq!(a.id, "claude-code");
        assert_eq!(a.model(), Some("claude-sonnet-4-5"));
        let info = a.agent.as_ref().unwrap();
        assert_eq!(info.sdk.as_deref(), Some("mcp:claude-code/2.1"));
        assert_eq!(
            info.session_id.as_deref(),
            Some(""),
            "set, empty when unknown, as the seeds write it"
        );
        assert_eq!(
            client(Some("claude-sonnet-4-5")).producer().provenance,
            "model:claude-sonnet-4-5"
        );
        // No model (or an empty one): the agent itself is the provenance; the author still has model "".
        for c in [client(None), client(Some(""))] {
            assert_eq!(c.producer().provenance, "agent:claude-code");
            assert_eq!(c.author().agent.unwrap().model.as_deref(), Some(""));
        }
    }

    fn human(
        name: Option<&str>,
        email: Option<&str>,
        git_name: Option<&str>,
        git_email: Option<&str>,
    ) -> Human {
        let o = |v: Option<&str>| v.map(str::to_owned);
        Human {
            name: o(name),
            email: o(email),
            git_name: o(git_name),
            git_email: o(git_email),
            login: Some("ada".into()),
        }
    }

    #[test]
    fn the_settings_come_before_git_and_git_before_the_login() {
        use IdentitySource::*;
        // The e-mail is the id (as the VS Code extension writes it), each field defaulting to git's.
        let all = human(Some("Ada"), Some("ada@settings"), Some("A. L."), Some("ada@git"));
        assert_eq!(all.id(), ("ada@settings", Settings));
        assert_eq!(all.display_name(), "Ada");
        assert_eq!(
            human(Some("Ada"), None, Some("A. L."), Some("ada@git")).id(),
            ("ada@git", Git)
        );
        assert_eq!(
            human(Some("Ada"), None, Some("A. L."), None).id(),
            ("Ada", Settings)
        );
        assert_eq!(human(None, None, Some("A. L."), None).id(), ("A. L.", Git));
        let nobody = human(None, None, None, None);
        assert_eq!((nobody.id(), nobody.is_known()), (("ada", System), false));
        assert_eq!(
            Human {
                login: None,
                ..nobody
            }
            .id(),
            ("unknown", Unknown)
        );
        assert!(human(Some("Ada"), None, None, None).is_known());
        assert_eq!(human(None, Some("ada@x"), None, None).display_name(), "ada@x");
    }

    #[test]
    fn resolve_reads_the_settings_and_the_repositorys_config() {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        repo.config()
            .unwrap()
            .set_str("user.email", "repo@example.org")
            .unwrap();
        let none = UserConfig::default();
        assert_eq!(Human::resolve(&none, dir.path()).author().id, "repo@example.org");
        let set = UserConfig {
            name: Some("Ada".into()),
            email: Some("  ada@example.org ".into()),
            asked: true,
        };
        let h = Human::resolve(&set, dir.path());
        assert_eq!(
            h.author(),
            Provenance::human("ada@example.org").with_name(Some("Ada"))
        );
        assert_eq!(
            h.author().name.as_deref(),
            Some("Ada"),
            "the name travels beside the id"
        );
        assert_eq!(h.git_email.as_deref(), Some("repo@example.org"));
        let blank = UserConfig {
            name: Some("Ada".into()),
            email: Some("  ".into()),
            asked: false,
        };
        assert_eq!(
            Human::resolve(&blank, dir.path()).id().0,
            "repo@example.org",
            "blank is unset"
        );
    }

    #[test]
    fn a_producers_author_names_its_model() {
        let p = Producer {
            id: "claude".into(),
            version: "1".into(),
            provenance: "model:claude-opus-4".into(),
        };
        let a = author_for(&p);
        assert_eq!((a.id.as_str(), a.model()), ("claude", Some("claude-opus-4")));
        assert_eq!(a.agent.unwrap().sdk.as_deref(), Some("claude 1"));
        let rule = Producer {
            id: "harper".into(),
            version: "0.1".into(),
            provenance: "rule:SpellCheck".into(),
        };
        assert_eq!(author_for(&rule).model(), None);
    }
}
