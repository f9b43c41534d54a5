//! Harper's rules as data, for every build: the list Settings shows (names,
//! descriptions, whether Harper's curated set has each on) without loading
//! Harper, and the [`HarperSetup`] a check runs with.
//!
//! The list is `harper-rules.json` beside this file, written from the
//! `harper-core` in `Cargo.lock`; `tests/producers_harper.rs` keeps it equal to
//! what that Harper has (`COWRITING_WRITE_HARPER_RULES=1` rewrites it).

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

/// One Harper rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
#[serde(rename_all = "camelCase")]
pub struct RuleInfo {
    pub name: String,
    /// Harper's own description (Markdown, one paragraph).
    pub description: String,
    /// Whether Harper's curated set has it on.
    pub curated: bool,
}

/// The file's text (see the module docs).
pub const RULES_JSON: &str = include_str!("harper-rules.json");

static RULES: LazyLock<Vec<RuleInfo>> =
    LazyLock::new(|| serde_json::from_str(RULES_JSON).expect("harper-rules.json is a list of rules"));

/// Every rule of the Harper this is built with, by name.
pub fn rules() -> &'static [RuleInfo] {
    &RULES
}

/// How a Harper check is set up: the English it checks against and the
/// writer's rule choices (by name; unnamed rules keep the curated choice).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HarperSetup {
    /// The spelling language (`en_US`, `en_GB`, `en_AU`, `en_CA`, `en_IN`);
    /// anything else checks as American English.
    #[serde(default)]
    pub language: String,
    #[serde(default)]
    pub rules: BTreeMap<String, bool>,
}

impl HarperSetup {
    /// The setup of the writer's configuration.
    pub fn of(cfg: &cowriting_workspace::config::Config) -> HarperSetup {
        HarperSetup {
            language: cfg.spelling.language.clone(),
            rules: cfg.harper.effective_rules(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_reads_and_names_the_quiet_rules() {
        assert!(rules().len() > 100, "{}", rules().len());
        for quiet in cowriting_workspace::config::QUIET_BY_DEFAULT {
            assert!(
                rules().iter().any(|r| r.name == *quiet),
                "{quiet} is a Harper rule"
            );
        }
        let names: Vec<&str> = rules().iter().map(|r| r.name.as_str()).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(names, sorted, "sorted by name, once each");
    }
}
