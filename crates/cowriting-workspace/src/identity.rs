//! Who wrote something, one mapping for every client: the human at the
//! keyboard (git's `user.email`, else `user.name`, for the workspace's
//! repository or the user's global config, else `$USER`), and an agent client
//! ([`AgentClient`]: an MCP client, `cowriting propose --agent`, a producer) as
//! the author of what it files and the contract producer behind it.

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

/// The human author for edits made in `workspace`.
pub fn human_identity(workspace: &Path) -> Provenance {
    Provenance::human(human_id(workspace))
}

fn human_id(workspace: &Path) -> String {
    let config = git2::Repository::discover(workspace)
        .ok()
        .and_then(|r| r.config().ok())
        .or_else(|| git2::Config::open_default().ok());
    if let Some(cfg) = config {
        for key in ["user.email", "user.name"] {
            if let Ok(v) = cfg.get_string(key) {
                let v = v.trim();
                if !v.is_empty() {
                    return v.to_owned();
                }
            }
        }
    }
    std::env::var("USER")
        .ok()
        .filter(|u| !u.trim().is_empty())
        .unwrap_or_else(|| "unknown".to_owned())
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
