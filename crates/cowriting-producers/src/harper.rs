//! Harper (`harper-core`), in process: spelling and grammar of the document
//! parsed as Markdown, with Harper's curated lint group and dictionary, in
//! the dialect of the writer's spelling language and with their rule choices
//! ([`HarperSetup`]: Settings → Grammar rules; some rules are off for prose by
//! default, `config::QUIET_BY_DEFAULT`).
//!
//! **Cost.** The curated dictionary and the lint group (several hundred rules)
//! are built once per process, on the first [`check`], and kept in a
//! [`LazyLock`]; every later check only lints. Measured on the 2-core
//! development machine (`tests/producers_harper.rs`, a two-paragraph
//! document): the first check takes about 1.5 s in a release build and about
//! 1.1 s in the dev build (whose profile optimizes Harper and its heavy
//! dependencies; unoptimized it was about 12 s), a second one about 3 ms. A
//! client that wants the first check fast calls [`preload`] (or
//! [`crate::suggest::preload_enabled`]) after start-up, off the UI thread, as
//! the app's checker process does ([`super::checker`]: the app keeps Harper
//! out of its own memory). The lint group keeps per-chunk caches and needs
//! `&mut`, so checks run one at a time behind a mutex.
//!
//! Build cost: `harper-core` 3.0 brings about 175 more crates (its POS tagger
//! pulls in `burn`); on that machine, with other builds running, adding the
//! feature to an already built debug tree took about 7 minutes.
//!
//! Harper counts spans in **chars**; they become contract **byte** spans
//! through one char→byte table built per check. Each lint becomes one
//! suggestion from the Harper suggestion closest to the text it replaces
//! ([`best_replacement`]: fewest edits, then the likeliest slip, then Harper's
//! order — Harper lists "write" before "written" for "writen"):
//! `ReplaceWith` is the replacement, `Remove` is `""`, `InsertAfter(x)` is the
//! span's text followed by `x`. Lints without a suggestion go to [`Run::skipped`]. Overlapping lints
//! are reduced with harper-core's `remove_overlaps_map` (it keeps the more
//! important one), so no two Harper suggestions overlap.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{LazyLock, Mutex};

use harper_core::linting::{FlatConfig, Lint, LintGroup, Suggestion as Fix};
use harper_core::parsers::Markdown;
use harper_core::spell::FstDictionary;
use harper_core::{Dialect, Document};

use crate::harper_rules::{HarperSetup, RuleInfo};
use crate::{Request, Run};
use cowriting_core::contract::{byte_span, sort_suggestions, Finding, Producer, Source, Suggestion};
use cowriting_workspace::error::Result;

/// The producer id of Harper suggestions.
pub const ID: &str = "harper";

struct Harper {
    dictionary: std::sync::Arc<FstDictionary>,
    /// A lint group per dialect, built when first asked for, with its curated
    /// config (each check sets the writer's choices on a copy of it).
    linters: Mutex<Vec<Linter>>,
}

struct Linter {
    dialect: Dialect,
    group: LintGroup,
    curated: FlatConfig,
    /// The rule choices `group.config` holds now.
    applied: BTreeMap<String, bool>,
}

static HARPER: LazyLock<Harper> = LazyLock::new(|| {
    let dictionary = FstDictionary::curated();
    let group = LintGroup::new_curated(dictionary.clone(), Dialect::American);
    Harper {
        dictionary,
        linters: Mutex::new(vec![Linter {
            dialect: Dialect::American,
            curated: group.config.clone(),
            group,
            applied: BTreeMap::new(),
        }]),
    }
});

/// The dialect of a spelling language (`en_GB` → British); American otherwise.
pub fn dialect_of(language: &str) -> Dialect {
    match language.replace('-', "_").as_str() {
        "en_GB" => Dialect::British,
        "en_AU" => Dialect::Australian,
        "en_CA" => Dialect::Canadian,
        "en_IN" => Dialect::Indian,
        _ => Dialect::American,
    }
}

/// Every rule of this Harper, by name, as `harper-rules.json` lists them.
pub fn rule_list() -> Vec<RuleInfo> {
    let group = LintGroup::new_curated(HARPER.dictionary.clone(), Dialect::American);
    let descriptions = group.all_descriptions();
    let mut rules: Vec<RuleInfo> = group
        .iter_keys()
        .map(|name| RuleInfo {
            name: name.to_owned(),
            description: one_line(descriptions.get(name).copied().unwrap_or_default()),
            curated: group.config.is_rule_enabled(name),
        })
        .collect();
    rules.sort_by(|a, b| a.name.cmp(&b.name));
    rules.dedup_by(|a, b| a.name == b.name);
    rules
}

/// The `harper-core` version, which is the suggestions' producer version.
pub fn version() -> &'static str {
    harper_core::core_version()
}

/// Load the dictionary and build the linter now (blocking) rather than on the
/// first [`check`]; a no-op once loaded.
pub fn preload() {
    LazyLock::force(&HARPER);
}

/// Harper's lints of `text` parsed as Markdown, by rule, overlaps reduced
/// (harper-core keeps the more important), and the char index → byte offset
/// table of `text` (one past the end included) their spans need.
fn lints_by_rule(text: &str, setup: &HarperSetup) -> (BTreeMap<String, Vec<Lint>>, Vec<usize>) {
    let harper = &*HARPER;
    let document = Document::new(text, &Markdown::default(), &*harper.dictionary);
    let mut by_rule = {
        // A panic inside Harper poisons the lock; its caches are still usable.
        let mut linters = harper.linters.lock().unwrap_or_else(|e| e.into_inner());
        let dialect = dialect_of(&setup.language);
        let at = match linters.iter().position(|l| l.dialect == dialect) {
            Some(at) => at,
            None => {
                let group = LintGroup::new_curated(harper.dictionary.clone(), dialect);
                linters.push(Linter {
                    dialect,
                    curated: group.config.clone(),
                    group,
                    applied: BTreeMap::new(),
                });
                linters.len() - 1
            }
        };
        let linter = &mut linters[at];
        if linter.applied != setup.rules {
            linter.group.config = linter.curated.clone();
            for (rule, on) in &setup.rules {
                linter.group.config.set_rule_enabled(rule, *on);
            }
            linter.applied = setup.rules.clone();
        }
        linter.group.organized_lints(&document)
    };
    harper_core::remove_overlaps_map(&mut by_rule);
    let bytes_at = text
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(text.len()))
        .collect();
    (by_rule, bytes_at)
}

/// Lint the document with Harper as Harper's curated set and American
/// English have it (see [`check_with`]).
pub fn check(req: &Request) -> Result<Run> {
    check_with(req, &HarperSetup::default())
}

/// Lint the document with Harper set up as `setup` says. The first call in a
/// process loads the dictionary and builds the linter (see the module docs);
/// the first in another dialect builds that dialect's.
pub fn check_with(req: &Request, setup: &HarperSetup) -> Result<Run> {
    let text = req.text();
    let (by_rule, bytes_at) = lints_by_rule(text, setup);
    let source = Source::of(req.doc_id, req.bytes);
    let mut run = Run {
        producer: Some(run_producer()),
        ..Run::default()
    };
    let mut seen = BTreeSet::new();
    for (rule, lints) in by_rule {
        for lint in lints {
            let finding = match finding(text, &bytes_at, &rule, &lint) {
                Ok(f) => f,
                Err(why) => {
                    run.skipped.push(why);
                    continue;
                }
            };
            let at = describe(text, &rule, finding.span.start.0, finding.span.end.0);
            match Suggestion::new(&producer(&format!("rule:{rule}")), &source, req.bytes, finding) {
                Ok(s) => {
                    if seen.insert(s.id.clone()) {
                        run.suggestions.push(s);
                    }
                }
                Err(e) => run.skipped.push(format!("{at}: {e}")),
            }
        }
    }
    sort_suggestions(&mut run.suggestions);
    Ok(run)
}

/// The finding of one lint of `rule`: its char span as bytes (`bytes_at` maps
/// a char index to its byte offset, one past the end included) and its best
/// suggestion as a replacement; else a one-line reason it was skipped.
fn finding(text: &str, bytes_at: &[usize], rule: &str, lint: &Lint) -> std::result::Result<Finding, String> {
    let (Some(&start), Some(&end)) = (bytes_at.get(lint.span.start), bytes_at.get(lint.span.end)) else {
        return Err(format!(
            "{ID} {rule} at chars {}..{}: past the end of the document; not applied",
            lint.span.start, lint.span.end
        ));
    };
    if start > end {
        return Err(format!(
            "{ID} {rule} at chars {}..{}: an inverted span; not applied",
            lint.span.start, lint.span.end
        ));
    }
    let original = &text[start..end];
    let replacement = match best_replacement(original, &lint.suggestions) {
        Some(r) => r,
        None => {
            return Err(format!(
                "{}: {}; Harper suggests no fix",
                describe(text, rule, start, end),
                one_line(&lint.message)
            ))
        }
    };
    Ok(Finding {
        span: byte_span(start, end),
        replacement,
        category: lint.lint_kind.to_string_key().to_lowercase(),
        reason: lint.message.clone(),
        confidence: None,
    })
}

/// What `fix` makes of `original`.
fn replacement_of(original: &str, fix: &Fix) -> String {
    match fix {
        Fix::ReplaceWith(chars) => chars.iter().collect(),
        Fix::Remove => String::new(),
        Fix::InsertAfter(chars) => {
            let mut r = original.to_owned();
            r.extend(chars.iter());
            r
        }
    }
}

/// The replacement closest to what the writer wrote, of all Harper offers:
/// the first of [`ranked_replacements`]. `None` when Harper offers nothing.
pub(crate) fn best_replacement(original: &str, fixes: &[Fix]) -> Option<String> {
    ranked_replacements(original, fixes).into_iter().next()
}

/// Every replacement Harper offers for `original`, closest first, each once:
/// the fewest edits (optimal string alignment: a swap of two neighbours is
/// one edit), then the kind of slip most likely — letters swapped ("recieve" →
/// "receive") before letters dropped ("writen" → "written") before anything
/// else — then the most letter pairs in common (Sørensen–Dice over bigrams),
/// then Harper's own order. Case is not an edit.
pub(crate) fn ranked_replacements(original: &str, fixes: &[Fix]) -> Vec<String> {
    let wrote = original.to_lowercase();
    let letters = sorted_chars(&wrote);
    let key = |r: &str| {
        let r = r.to_lowercase();
        let slip = if sorted_chars(&r) == letters {
            0
        } else if is_subsequence(&wrote, &r) {
            1
        } else {
            2
        };
        (
            strsim::osa_distance(&wrote, &r),
            slip,
            strsim::sorensen_dice(&wrote, &r),
        )
    };
    let mut ranked: Vec<(usize, _, String)> = fixes
        .iter()
        .map(|f| replacement_of(original, f))
        .enumerate()
        .map(|(i, r)| (i, key(&r), r))
        .collect();
    ranked.sort_by(|(i, (da, sa, pa), _), (j, (db, sb, pb), _)| {
        da.cmp(db)
            .then(sa.cmp(sb))
            .then_with(|| pb.total_cmp(pa))
            .then(i.cmp(j))
    });
    let mut seen = BTreeSet::new();
    ranked
        .into_iter()
        .map(|(_, _, r)| r)
        .filter(|r| seen.insert(r.clone()))
        .collect()
}

fn sorted_chars(s: &str) -> Vec<char> {
    let mut c: Vec<char> = s.chars().collect();
    c.sort_unstable();
    c
}

/// Whether every char of `short` appears in `long`, in order.
fn is_subsequence(short: &str, long: &str) -> bool {
    let mut long = long.chars();
    short.chars().all(|c| long.any(|l| l == c))
}

fn describe(text: &str, rule: &str, start: usize, end: usize) -> String {
    format!("{ID} {rule} at bytes {start}..{end} {:?}", &text[start..end])
}

/// The producer of a whole run (its suggestions name their rule).
pub(crate) fn run_producer() -> Producer {
    producer("rule:*")
}

fn producer(provenance: &str) -> Producer {
    Producer {
        id: ID.into(),
        version: version().into(),
        provenance: provenance.into(),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use harper_core::linting::LintKind;

    fn lint(start: usize, end: usize, fix: Option<Fix>) -> Lint {
        Lint {
            span: harper_core::Span::new(start, end),
            lint_kind: LintKind::Punctuation,
            suggestions: fix.into_iter().collect(),
            message: "A message\non two lines.".into(),
            ..Lint::default()
        }
    }

    #[test]
    fn lints_become_byte_findings() {
        let text = "日本 é x";
        let bytes_at: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(text.len()))
            .collect();
        // "é" is char 3, bytes 7..9.
        let f = finding(
            text,
            &bytes_at,
            "R",
            &lint(3, 4, Some(Fix::InsertAfter(vec![',', ' ']))),
        )
        .unwrap();
        assert_eq!((f.span.start.0, f.span.end.0), (7, 9));
        assert_eq!(f.replacement, "é, ");
        assert_eq!(f.category, "punctuation");
        let f = finding(text, &bytes_at, "R", &lint(0, 2, Some(Fix::Remove))).unwrap();
        assert_eq!((f.span.start.0, f.span.end.0, f.replacement.as_str()), (0, 6, ""));
        let f = finding(
            text,
            &bytes_at,
            "R",
            &lint(5, 6, Some(Fix::ReplaceWith(vec!['ÿ']))),
        )
        .unwrap();
        assert_eq!(
            (f.span.start.0, f.span.end.0, f.replacement.as_str()),
            (10, 11, "ÿ")
        );
        let e = finding(text, &bytes_at, "R", &lint(3, 4, None)).unwrap_err();
        assert_eq!(
            e,
            "harper R at bytes 7..9 \"é\": A message on two lines.; Harper suggests no fix"
        );
        let e = finding(text, &bytes_at, "R", &lint(3, 40, Some(Fix::Remove))).unwrap_err();
        assert!(e.contains("past the end"), "{e}");
    }

    fn words(ws: &[&str]) -> Vec<Fix> {
        ws.iter().map(|w| Fix::ReplaceWith(w.chars().collect())).collect()
    }

    #[test]
    fn the_closest_suggestion_wins_not_the_first() {
        // Fewest edits first.
        assert_eq!(
            best_replacement("begining", &words(&["bagging", "beginning"])).as_deref(),
            Some("beginning")
        );
        // Equally few: letters swapped, then a letter dropped ("writen" lost a "t"),
        // before a letter changed.
        assert_eq!(
            best_replacement("recieve", &words(&["relieve", "receive"])).as_deref(),
            Some("receive")
        );
        assert_eq!(
            best_replacement("writen", &words(&["write", "written", "writer"])).as_deref(),
            Some("written")
        );
        assert_eq!(
            best_replacement("teh", &words(&["th", "tech"])).as_deref(),
            Some("tech")
        );
        // Case does not count as an edit against the other candidates.
        assert_eq!(
            best_replacement("Teh", &words(&["Ten", "The"])).as_deref(),
            Some("The")
        );
        // A tie on both: Harper's order.
        assert_eq!(
            best_replacement("cat", &words(&["bat", "hat"])).as_deref(),
            Some("bat")
        );
        assert_eq!(best_replacement("x", &[]), None);
        assert_eq!(best_replacement("a", &[Fix::Remove]).as_deref(), Some(""));
    }
}
