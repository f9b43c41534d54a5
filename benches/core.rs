//! Criterion benchmarks of the core: keystrokes, resolving anchors, sidecar I/O,
//! opening large documents, saving and deciding in a large reviewed document, and placing a
//! review's items. Run with `cargo bench --bench core`; results and targets
//! are in `docs/performance.md`.
//!
//! Every input is realistic generated Markdown prose (headings, paragraphs with
//! inline markup, lists, quotes, code blocks, some accented words and emoji),
//! built once from a fixed seed, outside the timed closures.

use cowriting::anchor::{self, build_fingerprint, Resolution};
use cowriting::attribution::{SpanAuthor, Spans};
use cowriting::contract::{Finding, Producer, Source, Suggestion};
use cowriting::history::EditKind;
use cowriting::model::{
    parse_artifact, parse_artifact_via_value, serialize_artifact, AgentInfo, Anchor, Artifact, Attribution,
    Comment, Extra, Fingerprint, Proposal, Provenance, Thread, ThreadStatus,
};
use cowriting::session::ProposeOptions;
use cowriting::{ChangeSet, CharRange, DocPath, Document, RangeAssoc, Session, Store, Workspace};
use criterion::{criterion_group, criterion_main, BatchSize, Bencher, Criterion, SamplingMode};
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

const MIB: usize = 1024 * 1024;
const DOC_NAME: &str = "bench.md";
const SEED: u64 = 0x5eed_c0ff_ee15_900d;
/// Keystrokes per undo group in the typing benchmarks (about one sentence typed
/// without a pause of a second): the group is undone, untimed, after each batch so
/// the document stays at its size and the history stays small.
const TYPING_GROUP: u64 = 64;

// ---- realistic Markdown prose ---------------------------------------------------------

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const COMMON: &[&str] = &[
    "the", "a", "of", "and", "to", "in", "is", "that", "it", "was", "for", "on", "are", "as", "with", "his",
    "they", "at", "be", "this", "from", "have", "or", "by", "one", "had", "not", "but", "what", "all",
    "were", "when", "we", "there", "can", "an", "your", "which", "their", "said", "if", "do", "will", "each",
    "about", "how", "up", "out", "them", "then", "she", "many", "some", "so", "these", "would", "other",
    "into", "has", "more", "her", "two", "like", "him", "see", "time", "could", "no", "make", "than",
    "first", "been", "its", "who", "now", "people", "my", "made", "over", "did", "down", "only", "way",
    "find", "use", "may", "long", "little", "very", "after", "just", "where", "most", "know",
];

const CONTENT: &[&str] = &[
    "writer",
    "draft",
    "chapter",
    "sentence",
    "paragraph",
    "argument",
    "evidence",
    "revision",
    "editor",
    "reader",
    "structure",
    "narrative",
    "character",
    "voice",
    "tone",
    "clarity",
    "rhythm",
    "detail",
    "context",
    "outline",
    "margin",
    "proposal",
    "comment",
    "thread",
    "version",
    "history",
    "language",
    "meaning",
    "question",
    "answer",
    "morning",
    "evening",
    "river",
    "mountain",
    "city",
    "window",
    "garden",
    "library",
    "journey",
    "memory",
    "silence",
    "weather",
    "harbour",
    "lantern",
    "station",
    "letter",
    "winter",
    "summer",
    "kitchen",
    "island",
    "bridge",
    "market",
    "forest",
    "archive",
    "notebook",
    "harvest",
    "village",
    "engine",
    "theory",
    "method",
    "result",
    "pattern",
    "season",
    "quietly",
    "carefully",
    "suddenly",
    "slowly",
    "bright",
    "narrow",
    "ancient",
    "careful",
    "distant",
    "hidden",
    "simple",
    "strange",
    "steady",
    "written",
    "broken",
    "golden",
    "patient",
    "restless",
    "café",
    "naïve",
    "déjà",
    "façade",
    "résumé",
    "über",
    "coöperate",
    "piñata",
    "Zürich",
    "São Paulo",
    "fjord",
    "smörgåsbord",
    "jalapeño",
    "crème brûlée",
    "Straße",
    "Ångström",
];

const CODE_LINES: &[&str] = &[
    "let total = items.iter().map(|i| i.len()).sum::<usize>();",
    "fn anchor(text: &str) -> Option<Range<usize>> {",
    "    return None;",
    "}",
    "const limit = 32; // chars of context",
    "git commit -m \"Tighten the second chapter\"",
    "for line in lines: print(line.strip())",
];

fn word(rng: &mut Rng) -> String {
    let w = if rng.chance(55) {
        rng.pick(COMMON)
    } else {
        rng.pick(CONTENT)
    };
    let mut w = w.to_owned();
    if rng.chance(3) {
        w = match rng.below(4) {
            0 => format!("*{w}*"),
            1 => format!("**{w}**"),
            2 => format!("`{w}`"),
            _ => format!("[{w}](https://example.com/{})", w.replace(' ', "-")),
        };
    }
    if rng.chance(6) {
        w.push(',');
    }
    w
}

fn capitalize(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(c) => c.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

fn sentence(rng: &mut Rng) -> String {
    let n = rng.range(6, 22);
    let mut words: Vec<String> = (0..n).map(|_| word(rng)).collect();
    words[0] = capitalize(&words[0]);
    if rng.chance(4) {
        words.push(rng.pick(&["🙂", "—", "…", "“quoted”"]).to_owned());
        words.push(word(rng));
    }
    let mut s = words.join(" ");
    while s.ends_with(',') {
        s.pop();
    }
    s.push_str(rng.pick(&[".", ".", ".", ".", ".", "?", "!", ":"]));
    s
}

fn paragraph(rng: &mut Rng) -> String {
    let n = rng.range(2, 8);
    (0..n).map(|_| sentence(rng)).collect::<Vec<_>>().join(" ")
}

/// Markdown prose of at least `target` bytes, ending at a block boundary. Paragraphs
/// are one line each (soft-wrapped, as written in VS Code).
fn markdown(target: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut out = String::with_capacity(target + 4096);
    out.push_str("# The Harbour Notebook\n\n");
    let mut section = 0;
    while out.len() < target {
        if rng.chance(9) {
            section += 1;
            let title: Vec<String> = (0..rng.range(2, 6)).map(|_| word(&mut rng)).collect();
            out.push_str(&format!("## {section}. {}\n\n", capitalize(&title.join(" "))));
        }
        match rng.below(100) {
            0..=71 => out.push_str(&paragraph(&mut rng)),
            72..=83 => {
                for i in 0..rng.range(2, 6) {
                    if rng.chance(30) {
                        out.push_str(&format!("{}. {}\n", i + 1, sentence(&mut rng)));
                    } else {
                        out.push_str(&format!("- {}\n", sentence(&mut rng)));
                    }
                }
                out.pop();
            }
            84..=92 => out.push_str(&format!("> {}", paragraph(&mut rng))),
            _ => {
                out.push_str("```\n");
                for _ in 0..rng.range(2, 6) {
                    out.push_str(rng.pick(CODE_LINES));
                    out.push('\n');
                }
                out.push_str("```");
            }
        }
        out.push_str("\n\n");
    }
    out
}

/// Char ranges of the words (maximal runs of non-whitespace) of `text`.
fn words_of(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(text.len() / 5);
    let mut start = None;
    for (i, c) in text.chars().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, text.chars().count()));
    }
    out
}

/// Where records anchor: `n_anchor` thread/proposal ranges (a word, a phrase or a
/// sentence-length run of words), and `n_span` attribution ranges that do not
/// overlap or touch each other, spread evenly over the document.
struct Plan {
    anchors: Vec<CharRange>,
    spans: Vec<CharRange>,
}

fn plan(text: &str, n_anchor: usize, n_span: usize, rng: &mut Rng) -> Plan {
    let words = words_of(text);
    let run = |from: usize, k: usize, limit: usize| {
        let last = (from + k - 1).min(limit - 1);
        CharRange::new(words[from].0, words[last].1)
    };
    let anchors = (0..n_anchor)
        .map(|i| {
            let (lo, hi) = (i * words.len() / n_anchor, (i + 1) * words.len() / n_anchor);
            let k = match rng.below(100) {
                0..=14 => 1,
                15..=64 => rng.range(2, 6),
                _ => rng.range(7, 15),
            };
            run(lo + rng.below((hi - lo).max(1)), k, words.len())
        })
        .collect();
    let spans = (0..n_span)
        .map(|i| {
            let (lo, hi) = (i * words.len() / n_span, (i + 1) * words.len() / n_span);
            // Leave the slot's first word out so neighbouring spans never touch.
            let from = lo + 1 + rng.below(((hi - lo) / 2).max(1));
            run(from, rng.range(5, 30), hi)
        })
        .collect();
    Plan { anchors, spans }
}

// ---- sidecars ---------------------------------------------------------------------------

fn id(prefix: &str, n: usize) -> String {
    format!("{prefix}_{n:020x}")
}

fn timestamp(n: usize) -> String {
    format!(
        "2026-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        1 + n % 12,
        1 + n % 28,
        n % 24,
        n % 60,
        (n / 7) % 60,
        n % 1000
    )
}

fn human() -> Provenance {
    Provenance::human("writer@example.com")
}

fn agent(n: usize) -> Provenance {
    Provenance::agent(
        "claude",
        AgentInfo {
            sdk: Some("@cline/sdk".into()),
            model: Some(if n.is_multiple_of(3) { "opus" } else { "sonnet" }.into()),
            session_id: Some(id("s", n / 50)),
            extra: Extra::new(),
        },
    )
}

/// A v1 sidecar: one thread or proposal per `plan.anchors` range (the first
/// `n_threads` are threads, with 1–3 comments each; the rest proposals) and one
/// attribution per `plan.spans` range, each with its own anchor.
fn sidecar(doc: &Document, plan: &Plan, n_threads: usize, rng: &mut Rng) -> Artifact {
    let mut a = Artifact::empty(DOC_NAME);
    let mut n = 0;
    let mut anchor = |a: &mut Artifact, range: CharRange| {
        n += 1;
        let aid = id("a", n);
        a.anchors.insert(
            aid.clone(),
            Anchor {
                fingerprint: build_fingerprint(doc, range),
                extra: Extra::new(),
            },
        );
        aid
    };
    for (i, r) in plan.anchors.iter().enumerate() {
        let anchor_id = anchor(&mut a, *r);
        if i < n_threads {
            let comments = (0..rng.range(1, 3))
                .map(|c| Comment {
                    id: id("c", 4 * i + c),
                    author: if c % 2 == 0 { human() } else { agent(i) },
                    body: (0..rng.range(1, 3))
                        .map(|_| sentence(rng))
                        .collect::<Vec<_>>()
                        .join(" "),
                    created_at: timestamp(i + c),
                    extra: Extra::new(),
                })
                .collect();
            a.threads.push(Thread {
                id: id("t", i),
                anchor_id,
                status: if rng.chance(20) {
                    ThreadStatus::Resolved
                } else {
                    ThreadStatus::Open
                },
                comments,
                extra: Extra::new(),
            });
        } else {
            a.proposals.push(Proposal {
                id: id("pr", i),
                anchor_id,
                replacement: sentence(rng),
                author: agent(i),
                created_at: timestamp(i),
                turn_id: Some(id("turn", i / 8)),
                instruction: Some("Tighten this; keep the writer's voice.".into()),
                extra: Extra::new(),
            });
        }
    }
    for (i, r) in plan.spans.iter().enumerate() {
        let anchor_id = anchor(&mut a, *r);
        let is_agent = i % 3 != 2;
        a.attributions.push(Attribution {
            id: id("at", i),
            anchor_id,
            author: if is_agent { agent(i) } else { human() },
            created_at: timestamp(i),
            turn_id: is_agent.then(|| id("turn", i / 8)),
            instruction: is_agent.then(|| "Tighten this; keep the writer's voice.".to_owned()),
            extra: Extra::new(),
        });
    }
    a
}

/// A temp workspace holding `text` as `bench.md` and `artifact` as its sidecar.
fn workspace(text: &str, artifact: &Artifact) -> (tempfile::TempDir, Arc<Store>, DocPath) {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(DOC_NAME), text).expect("write document");
    let threads = dir.path().join(".threads");
    std::fs::create_dir_all(&threads).expect("sidecar dir");
    std::fs::write(
        threads.join(format!("{DOC_NAME}.json")),
        serialize_artifact(artifact),
    )
    .expect("write sidecar");
    let store = Arc::new(Store::new(Workspace::open(dir.path()).expect("workspace")));
    (dir, store, DocPath::parse(DOC_NAME).expect("doc path"))
}

fn open_session(store: &Arc<Store>, doc: &DocPath) -> Session {
    Session::open(store.clone(), doc.clone(), Provenance::human("bench@example.com")).expect("open")
}

fn fingerprints(a: &Artifact, plan_anchors: usize) -> Vec<Fingerprint> {
    let ids = a
        .threads
        .iter()
        .map(|t| &t.anchor_id)
        .chain(a.proposals.iter().map(|p| &p.anchor_id));
    let fps: Vec<Fingerprint> = ids.map(|id| a.anchors[id].fingerprint.clone()).collect();
    assert_eq!(fps.len(), plan_anchors);
    fps
}

fn resolve_all(doc: &Document, fps: &[Fingerprint]) -> usize {
    // As the session resolves a sidecar's anchors: one resolver for them all.
    let resolver = anchor::Resolver::new(doc);
    fps.iter()
        .filter(|fp| matches!(resolver.resolve(fp, None), Resolution::Found(_)))
        .count()
}

/// The 1 MiB document with 1,000 thread/proposal anchors (700 threads, 300
/// proposals) and 1,000 attribution spans.
struct Keystroke {
    text: String,
    doc: Document,
    plan: Plan,
    artifact: Artifact,
    /// Where typing happens: the middle of the agent-written span nearest the
    /// document's middle, so every keystroke splits, paints and merges spans.
    mid: usize,
}

fn keystroke_fixture() -> Keystroke {
    let text = markdown(MIB, SEED);
    let doc = Document::new(&text);
    let mut rng = Rng(SEED ^ 1);
    let plan = plan(&text, 1000, 1000, &mut rng);
    let artifact = sidecar(&doc, &plan, 700, &mut rng);
    let half = doc.len_chars() / 2;
    let (i, span) = plan
        .spans
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 != 2)
        .min_by_key(|(_, r)| r.start.0.abs_diff(half))
        .expect("spans");
    let mid = (span.start.0 + span.end.0) / 2;
    eprintln!(
        "fixture 1 MiB: {} bytes, {} chars, {} lines; {} anchors, {} spans; sidecar {} bytes; typing at char {mid} (inside span {i}); size_of::<Span>() = {} bytes",
        doc.len_bytes(),
        doc.len_chars(),
        doc.len_lines(),
        plan.anchors.len(),
        plan.spans.len(),
        serialize_artifact(&artifact).len(),
        std::mem::size_of::<cowriting::attribution::Span>(),
    );
    Keystroke {
        text,
        doc,
        plan,
        artifact,
        mid,
    }
}

// ---- 1. keystroke ---------------------------------------------------------------------

/// Typing in `TYPING_GROUP`-keystroke groups at `at`: the first keystroke of each
/// group (which snapshots the spans for undo) and the undo after it are untimed.
fn bench_session_typing(b: &mut Bencher, s: &mut Session, at: usize) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        let mut done = 0;
        while done < iters {
            s.seal_undo_group();
            s.replace(CharRange::point(at), "x", EditKind::Typing).unwrap();
            let n = (iters - done).min(TYPING_GROUP - 1);
            for k in 0..n as usize {
                let cursor = at + 1 + k;
                let t = Instant::now();
                s.replace(CharRange::point(cursor), black_box("x"), EditKind::Typing)
                    .unwrap();
                total += t.elapsed();
            }
            done += n;
            assert!(s.undo().unwrap().is_some());
        }
        total
    });
}

/// Every keystroke starts a new undo group (as after a pause of a second), so the
/// session snapshots its spans and live ranges. A fresh session is opened, untimed,
/// every `TYPING_GROUP` keystrokes so the history stays small.
fn bench_session_new_group(b: &mut Bencher, store: &Arc<Store>, doc: &DocPath, at: usize) {
    b.iter_custom(|iters| {
        let mut total = Duration::ZERO;
        let mut done = 0;
        while done < iters {
            let mut s = open_session(store, doc);
            let n = (iters - done).min(TYPING_GROUP);
            for k in 0..n as usize {
                s.seal_undo_group();
                let t = Instant::now();
                s.replace(CharRange::point(at + k), black_box("x"), EditKind::Typing)
                    .unwrap();
                total += t.elapsed();
            }
            done += n;
        }
        total
    });
}

fn keystroke(c: &mut Criterion) {
    let fx = keystroke_fixture();
    let (_dir, store, doc_path) = workspace(&fx.text, &fx.artifact);
    let mut session = open_session(&store, &doc_path);
    assert_eq!(session.spans().count(), 1000, "every attribution is a live span");
    assert!(session.threads().iter().all(|t| t.range.is_some()));
    assert_eq!(session.proposals().len(), 300);

    let mut g = c.benchmark_group("keystroke_1mib");
    g.sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));

    // (a) the real path.
    g.bench_function("session_replace_typing", |b| {
        bench_session_typing(b, &mut session, fx.mid)
    });
    g.bench_function("session_replace_new_undo_group", |b| {
        bench_session_new_group(b, &store, &doc_path, fx.mid)
    });
    assert_eq!(
        session.document().len_chars(),
        fx.doc.len_chars(),
        "undo restored the text"
    );
    drop(session);

    // (b) the pieces: Document::apply + 1,000 map_range + Spans::map.
    let mut spans = Spans::new();
    for (i, r) in fx.plan.spans.iter().enumerate() {
        let who = SpanAuthor {
            author: if i % 3 != 2 { agent(i) } else { human() },
            turn_id: None,
            instruction: None,
            created_at: timestamp(i),
        };
        spans.paint(*r, Some(who));
    }
    assert_eq!(spans.len(), 1000);
    g.bench_function("pieces_apply_map_range_spans_map", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut doc = fx.doc.clone();
                let mut ranges = fx.plan.anchors.clone();
                let mut sp = spans.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let cursor = fx.mid + k;
                    let t = Instant::now();
                    let cs = ChangeSet::replace(doc.len_chars(), CharRange::point(cursor), black_box("x"))
                        .unwrap();
                    doc.apply(&cs).unwrap();
                    for r in ranges.iter_mut() {
                        if let Some(m) = cs.map_range(*r, RangeAssoc::Exclusive) {
                            *r = m;
                        }
                    }
                    sp.map(&cs);
                    total += t.elapsed();
                }
                black_box((&doc, &ranges, &sp));
                done += n;
            }
            total
        })
    });

    // Where the time of the pieces goes, one piece at a time (each change is built
    // untimed, for the document as it is).
    g.bench_function("piece_document_apply", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut doc = fx.doc.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let cs = ChangeSet::replace(doc.len_chars(), CharRange::point(fx.mid + k), "x").unwrap();
                    let t = Instant::now();
                    doc.apply(black_box(&cs)).unwrap();
                    total += t.elapsed();
                }
                black_box(&doc);
                done += n;
            }
            total
        })
    });
    g.bench_function("piece_map_range_1000", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut ranges = fx.plan.anchors.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let len = fx.doc.len_chars() + k;
                    let cs = ChangeSet::replace(len, CharRange::point(fx.mid + k), "x").unwrap();
                    let t = Instant::now();
                    for r in ranges.iter_mut() {
                        if let Some(m) = cs.map_range(*r, RangeAssoc::Exclusive) {
                            *r = m;
                        }
                    }
                    total += t.elapsed();
                }
                black_box(&ranges);
                done += n;
            }
            total
        })
    });
    g.bench_function("piece_spans_map_1000", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut sp = spans.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let len = fx.doc.len_chars() + k;
                    let cs = ChangeSet::replace(len, CharRange::point(fx.mid + k), "x").unwrap();
                    let t = Instant::now();
                    sp.map(black_box(&cs));
                    total += t.elapsed();
                }
                black_box(&sp);
                done += n;
            }
            total
        })
    });
    let typist = SpanAuthor {
        author: Provenance::human("bench@example.com"),
        turn_id: None,
        instruction: None,
        created_at: timestamp(0),
    };
    g.bench_function("piece_spans_paint_1char", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut sp = spans.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let len = fx.doc.len_chars() + k;
                    let at = fx.mid + k;
                    sp.map(&ChangeSet::replace(len, CharRange::point(at), "x").unwrap());
                    let who = typist.clone();
                    let t = Instant::now();
                    sp.paint(CharRange::new(at, at + 1), Some(black_box(who)));
                    total += t.elapsed();
                }
                black_box(&sp);
                done += n;
            }
            total
        })
    });
    // What a keystroke that starts a new undo group copies (the spans part of the snapshot).
    g.bench_function("piece_spans_clone_1000", |b| {
        b.iter_with_large_drop(|| spans.clone())
    });

    // Naive baseline: a String, String::insert at a byte index, 2,000 byte ranges shifted.
    let byte_ranges: Vec<(usize, usize)> = fx
        .plan
        .anchors
        .iter()
        .chain(fx.plan.spans.iter())
        .map(|r| {
            let b = fx.doc.char_range_to_bytes(*r);
            (b.start.0, b.end.0)
        })
        .collect();
    let mid_byte = fx.doc.char_to_byte(cowriting::CharOffset(fx.mid)).0;
    g.bench_function("naive_string_insert_shift_2000", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut done = 0;
            while done < iters {
                let mut text = fx.text.clone();
                let mut ranges = byte_ranges.clone();
                let n = (iters - done).min(TYPING_GROUP);
                for k in 0..n as usize {
                    let cursor = mid_byte + k;
                    let t = Instant::now();
                    text.insert(cursor, black_box('x'));
                    for r in ranges.iter_mut() {
                        if r.0 >= cursor {
                            r.0 += 1;
                        }
                        if r.1 > cursor {
                            r.1 += 1;
                        }
                    }
                    total += t.elapsed();
                }
                black_box((&text, &ranges));
                done += n;
            }
            total
        })
    });
    g.finish();
}

// ---- 2. resolving 1,000 fingerprints ------------------------------------------------------

fn resolve_1000(c: &mut Criterion) {
    let fx = keystroke_fixture();
    let fps = fingerprints(&fx.artifact, 1000);
    assert_eq!(
        resolve_all(&fx.doc, &fps),
        1000,
        "all resolve on the unchanged document"
    );

    let mut moved = fx.doc.clone();
    let para = "A new opening paragraph, added by the writer above everything else.\n\n";
    moved
        .apply(&ChangeSet::replace(moved.len_chars(), CharRange::point(0), para).unwrap())
        .unwrap();
    assert_eq!(
        resolve_all(&moved, &fps),
        1000,
        "all resolve after the paragraph is inserted"
    );
    // Every lineHint is now off by the two lines of the new paragraph.
    assert!(fps
        .iter()
        .all(|fp| moved.line_to_char(fp.line_hint) != fx.doc.line_to_char(fp.line_hint)));

    let mut g = c.benchmark_group("resolve_1000_1mib");
    g.sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    // A fresh clone per iteration (its cached facts, whether it has a lone `\r`,
    // are found inside the timed part, as after a load).
    g.bench_function("unchanged_fast_path", |b| {
        b.iter_batched(
            || fx.doc.clone(),
            |doc| {
                assert_eq!(resolve_all(&doc, &fps), 1000);
                doc
            },
            BatchSize::PerIteration,
        )
    });
    let warm = fx.doc.clone();
    let _ = warm.has_lone_cr();
    g.bench_function("unchanged_fast_path_facts_cached", |b| {
        b.iter(|| resolve_all(&warm, &fps))
    });
    // The floor of one slow-path resolve: one memmem pass over the whole 1 MiB text,
    // flat and over the rope's chunks.
    let needle = fps[500].text.clone();
    let flat = fx.doc.flatten();
    g.bench_function("one_memmem_pass_over_1mib", |b| {
        b.iter(|| memchr::memmem::find_iter(flat.as_bytes(), black_box(needle.as_bytes())).count())
    });
    g.bench_function("one_find_all_over_the_1mib_rope", |b| {
        b.iter(|| warm.find_all(black_box(&needle)).len())
    });
    g.sample_size(10).sampling_mode(SamplingMode::Flat);
    g.bench_function("paragraph_inserted_at_top_slow_path", |b| {
        b.iter_batched(
            || moved.clone(),
            |doc| {
                assert_eq!(resolve_all(&doc, &fps), 1000);
                doc
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

// ---- 3. sidecar with 10,000 records ---------------------------------------------------------

fn sidecar_10k(c: &mut Criterion) {
    let text = markdown(MIB, SEED);
    let doc = Document::new(&text);
    let mut rng = Rng(SEED ^ 3);
    // 3,000 threads + 2,000 proposals + 5,000 attributions, 10,000 anchors.
    let plan = plan(&text, 5000, 5000, &mut rng);
    let artifact = sidecar(&doc, &plan, 3000, &mut rng);
    let json = serialize_artifact(&artifact);
    let records = artifact.threads.len() + artifact.proposals.len() + artifact.attributions.len();
    let comments: usize = artifact.threads.iter().map(|t| t.comments.len()).sum();
    eprintln!(
        "fixture sidecar: {records} records ({} threads with {comments} comments, {} proposals, {} attributions), {} anchors, {} bytes",
        artifact.threads.len(),
        artifact.proposals.len(),
        artifact.attributions.len(),
        artifact.anchors.len(),
        json.len()
    );
    assert_eq!(records, 10_000);
    assert_eq!(parse_artifact(&json).unwrap(), artifact, "round trip");
    let (_dir, store, doc_path) = workspace(&text, &artifact);

    let mut g = c.benchmark_group("sidecar_10k_records");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    g.bench_function("parse_artifact", |b| {
        b.iter(|| parse_artifact(black_box(&json)).unwrap())
    });
    g.bench_function("serialize_artifact", |b| {
        b.iter(|| serialize_artifact(black_box(&artifact)))
    });
    // The reference parser through a serde_json Value tree (the error path).
    g.bench_function("piece_parse_via_value", |b| {
        b.iter(|| parse_artifact_via_value(black_box(&json)).unwrap())
    });
    // Lower bound: serde_json parsing into a Value tree and nothing else.
    g.bench_function("piece_serde_json_value_parse", |b| {
        b.iter(|| serde_json::from_str::<serde_json::Value>(black_box(&json)).unwrap())
    });
    g.bench_function("store_load", |b| {
        b.iter(|| store.load(&doc_path).unwrap().unwrap())
    });
    g.bench_function("store_update_noop", |b| {
        b.iter(|| store.update(&doc_path, |_| Ok(())).unwrap())
    });
    // Toggles the first thread's status: every iteration writes (atomically, fsynced).
    g.bench_function("store_update_one_change", |b| {
        b.iter(|| {
            store
                .update(&doc_path, |a| {
                    let t = &mut a.threads[0];
                    t.status = match t.status {
                        ThreadStatus::Open => ThreadStatus::Resolved,
                        _ => ThreadStatus::Open,
                    };
                    Ok(())
                })
                .unwrap()
        })
    });
    g.finish();
}

// ---- 4. opening a 10 MiB document ---------------------------------------------------------

fn open_10mib(c: &mut Criterion) {
    let text = markdown(10 * MIB, SEED ^ 4);
    let doc = Document::new(&text);
    let mut rng = Rng(SEED ^ 5);
    let plan = plan(&text, 1000, 1000, &mut rng);
    let artifact = sidecar(&doc, &plan, 700, &mut rng);
    let fps = fingerprints(&artifact, 1000);
    eprintln!(
        "fixture 10 MiB: {} bytes, {} chars, {} lines; sidecar {} bytes",
        doc.len_bytes(),
        doc.len_chars(),
        doc.len_lines(),
        serialize_artifact(&artifact).len()
    );
    drop(doc);
    let (dir, store, doc_path) = workspace(&text, &artifact);
    let file = dir.path().join(DOC_NAME);
    let bytes = std::fs::read(&file).unwrap();

    let open = |file: &Path| {
        let bytes = std::fs::read(file).unwrap();
        let doc = Document::from_bytes(&bytes).unwrap();
        assert_eq!(resolve_all(&doc, &fps), 1000);
        doc
    };
    let _ = open(&file);

    let mut g = c.benchmark_group("open_10mib");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3))
        .sampling_mode(SamplingMode::Flat);
    g.bench_function("read_file", |b| b.iter(|| std::fs::read(&file).unwrap()));
    g.bench_function("from_bytes", |b| {
        b.iter(|| Document::from_bytes(black_box(&bytes)).unwrap())
    });
    let fresh = Document::from_bytes(&bytes).unwrap();
    g.bench_function("resolve_1000_fresh_doc", |b| {
        b.iter_batched(
            || fresh.clone(),
            |doc| {
                assert_eq!(resolve_all(&doc, &fps), 1000);
                doc
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("read_from_bytes_resolve_1000", |b| b.iter(|| open(&file)));
    let s = open_session(&store, &doc_path);
    assert_eq!(s.spans().count(), 1000);
    assert!(s.threads().iter().all(|t| t.range.is_some()));
    drop(s);
    g.bench_function("session_open", |b| b.iter(|| open_session(&store, &doc_path)));
    // Part of session_open: reading its sidecar (1,000 threads/proposals + 1,000 attributions).
    g.bench_function("piece_store_load_sidecar", |b| {
        b.iter(|| store.load(&doc_path).unwrap().unwrap())
    });
    g.finish();
}

// ---- 5. saving and deciding in a 5 MB document with 300 agent proposals ---------------------

/// A workspace holding a 5 MB document and 300 one-word proposals filed by an agent
/// through the contract (sidecar + ledger), as an MCP agent files them.
fn review_fixture() -> (tempfile::TempDir, Vec<String>) {
    let text = markdown(5 * MIB, SEED ^ 6);
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(DOC_NAME), &text).expect("write document");
    let store = Arc::new(Store::new(Workspace::open(dir.path()).expect("workspace")));
    let doc_path = DocPath::parse(DOC_NAME).expect("doc path");
    let mut s = open_session(&store, &doc_path);
    let bytes = s.contract_bytes();
    let source = Source::of(DOC_NAME, &bytes);
    let producer = Producer {
        id: "mcp:bench-agent".into(),
        version: "1".into(),
        provenance: "agent".into(),
    };
    let words = words_of(&text);
    let suggestions: Vec<Suggestion> = (0..300)
        .map(|i| {
            let (from, to) = words[i * words.len() / 300 + 1];
            let range = s.file_range_of(CharRange::new(from, to));
            let word = &text[range.start.0..range.end.0];
            let finding = Finding {
                span: range,
                replacement: format!("{word}s"),
                category: "edit".into(),
                reason: "bench".into(),
                confidence: None,
            };
            Suggestion::new(&producer, &source, &bytes, finding).expect("suggestion")
        })
        .collect();
    let filed = s
        .file_suggestions(
            &suggestions,
            ProposeOptions {
                author: agent(1),
                turn_id: Some("turn-bench".into()),
                instruction: None,
            },
        )
        .expect("file 300");
    assert_eq!(filed.len(), 300);
    let ids = s.proposals().iter().map(|p| p.proposal.id.clone()).collect();
    (dir, ids)
}

/// Copy the workspace's files (document, sidecar, ledger) from `from` to `to`.
fn restore_workspace(from: &Path, to: &Path) {
    for rel in [
        DOC_NAME,
        ".threads/bench.md.json",
        ".cowriting/suggestions/bench.md.json",
    ] {
        let (src, dst) = (from.join(rel), to.join(rel));
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(src, dst).unwrap();
    }
    let _ = std::fs::remove_file(to.join(".cowriting/decisions.jsonl"));
}

fn review_5mb(c: &mut Criterion) {
    let (pristine, ids) = review_fixture();
    let work = tempfile::tempdir().expect("temp dir");
    restore_workspace(pristine.path(), work.path());
    let store = Arc::new(Store::new(Workspace::open(work.path()).expect("workspace")));
    let doc_path = DocPath::parse(DOC_NAME).expect("doc path");

    let mut g = c.benchmark_group("review_5mb_300_proposals");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5))
        .sampling_mode(SamplingMode::Flat);
    // Ctrl+S after typing a character: the text, the sidecar, and every pending
    // contract record carried over to the saved bytes.
    let mut s = open_session(&store, &doc_path);
    assert_eq!(s.proposals().len(), 300);
    g.bench_function("save_after_typing", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                s.replace(CharRange::point(0), "x", EditKind::Typing).unwrap();
                let t = Instant::now();
                s.save().unwrap();
                total += t.elapsed();
            }
            total
        })
    });
    drop(s);
    restore_workspace(pristine.path(), work.path());
    // Accept all 300 in the buffer (the app's Accept all; written at the next save).
    g.bench_function("accept_all", |b| {
        b.iter_batched(
            || open_session(&store, &doc_path),
            |mut s| {
                s.accept_all(&ids).unwrap();
                assert_eq!(s.proposals().len(), 0);
                s
            },
            BatchSize::PerIteration,
        )
    });
    // Reject all 300: decided on disk at once, the document untouched.
    g.bench_function("reject_all", |b| {
        b.iter_batched(
            || {
                restore_workspace(pristine.path(), work.path());
                open_session(&store, &doc_path)
            },
            |mut s| {
                s.reject_all(&ids).unwrap();
                s
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

/// Placing the items of a review pass whose document grows with them (one
/// distinct paragraph per item, cut into parts as a pass cuts it): each item
/// in the part Claude was shown (`review::Parts`, what `ops::review` does)
/// against the whole document, its chars counted from the start (what it did
/// before issue 30). Linear: 2,000 items take twice 1,000; quadratic: four times.
fn place_items(c: &mut Criterion) {
    use cowriting::producers::review::{self, Parts};
    let mut g = c.benchmark_group("place_items");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for n in [1_000usize, 2_000] {
        let mut text = String::from("# Review\n\n");
        for i in 0..n {
            text.push_str(&format!(
                "Paragraph {i} has its own words — café, naïve — and a few more.\n\n"
            ));
        }
        let cuts = review::sections(&text, 0..text.len(), review::SECTION_CHARS);
        let quotes: Vec<(usize, String)> = (0..n)
            .map(|i| {
                let q = format!("Paragraph {i} has");
                let at = text.find(&format!("{q} ")).expect("quoted");
                let part = cuts.iter().position(|r| r.contains(&at)).expect("in a part") + 1;
                (part, q)
            })
            .collect();
        g.bench_function(format!("in_parts_{n}"), |b| {
            b.iter(|| {
                let parts = Parts::new(&text, cuts.clone());
                for (part, q) in &quotes {
                    let at = parts.place(&text, *part, q, None, false).expect("a part");
                    black_box(at.expect("placed"));
                }
            })
        });
        g.bench_function(format!("whole_document_{n}"), |b| {
            b.iter(|| {
                for (_, q) in &quotes {
                    let at = review::place(&text, 0..text.len(), q, None, false).expect("placed");
                    black_box(text[..at.start].chars().count()..text[..at.end].chars().count());
                }
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    keystroke,
    resolve_1000,
    sidecar_10k,
    open_10mib,
    review_5mb,
    place_items
);
criterion_main!(benches);
