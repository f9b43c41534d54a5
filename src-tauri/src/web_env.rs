//! What the app tells its web process through the environment, and keeps from
//! the programs it starts for the writer.
//!
//! WebKitGTK's web process inherits this process's environment, and reads some
//! switches nowhere else: compositing (`rendering.rs` decides it) and
//! JavaScriptCore's options (`JSC_*`). They are set first thing in `main`,
//! while the process has one thread, and only where the environment does not
//! already say (a writer's or a session's own setting is obeyed as it is).
//! What the app set is taken out again for a program it opens for the writer
//! (a browser for a link may be a WebKit one), see [`ours`].
//!
//! **JavaScriptCore's heap, sized for a long session.** JavaScriptCore
//! collects young objects often and the whole heap only once it passes the
//! larger of `largeHeapSize` (32 MB by default) and twice what was live after
//! the last full collection. Over a session of agents proposing and the writer
//! deciding (`make perf-session`), the page's live heap stayed near 13 MB, so
//! full collections came rarely, and until one came, what the page had let go
//! (a decided proposal's elements, the answers it was drawn from) stayed
//! behind its old wrappers: the web process grew 20–30 MiB per 100 cycles in
//! two runs of three (84.7 → 181.1 MiB over 300 cycles in one). With a full
//! collection once the heap passes 8 MB and 1.3× what was live
//! ([`JS_HEAP`]), it was at 100–115 MiB after 300 cycles in three runs of
//! three, and grew 4–5 MiB per 100 cycles after that (143 MiB after 1,000), for
//! about the same time spent collecting (0.39 s against 0.38 s, a 150-cycle run
//! of each). docs/performance.md, "Idle with the text focused, and a long
//! session's web process".
//!
//! **Every collection whole.** Those two options did not bring full
//! collections while the writer types: JavaScriptCore's own log
//! (`JSC_logGC=1`) over 6,000 keys showed 115 collections, one of them full,
//! most started by its timer for young objects, and the heap left after each
//! climbing from 11 to 16 MB, what the page had let go staying behind in the
//! old generation with the memory WebKit keeps for it. The web process grew
//! 54 → 90 → 99 → 106 MiB over three rounds of 2,000 keys; with every
//! collection full (`JSC_alwaysDoFullCollection`) 54 → 79 → 81 → 84, and a
//! 1,000-cycle `make perf-session` ended with the web process at 117 MiB
//! instead of 142. It costs longer pauses: over 300 cycles, p50 8.9 ms
//! against 4.1, the longest 18.7 against 14.9, 1.9 s paused in all against
//! 0.8; a decision by keyboard took as long (p50 156 ms against 165).
//! docs/performance.md, "Every collection whole".

use std::sync::Mutex;

/// JavaScriptCore's heap options (see the module docs): a collection once
/// the heap passes 8 MB and 1.3× what the last one left, and every
/// collection a full one (`1` is true to JavaScriptCore).
pub const JS_HEAP: [(&str, &str); 3] = [
    ("JSC_largeHeapSize", "8388608"),
    ("JSC_smallHeapGrowthFactor", "1.3"),
    ("JSC_alwaysDoFullCollection", "1"),
];

/// The variables this process set for its web process.
static OURS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

/// Set `name` to `value` for the web process unless the environment already
/// has it; whether it was set. Call only while the process has one thread.
pub fn set_default(name: &'static str, value: &str) -> bool {
    if std::env::var_os(name).is_some() {
        return false;
    }
    std::env::set_var(name, value);
    OURS.lock().unwrap_or_else(|e| e.into_inner()).push(name);
    true
}

/// Size JavaScriptCore's heap for a long session ([`JS_HEAP`]).
pub fn size_js_heap() {
    for (name, value) in JS_HEAP {
        set_default(name, value);
    }
}

/// The variables this process set for its web process (not those it found
/// set): to be removed from a program started for the writer.
pub fn ours() -> Vec<&'static str> {
    OURS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A variable already set is left as it is and not counted as ours; one
    /// that was not is set and counted. (Names of this test's own.)
    #[test]
    fn sets_only_what_is_unset_and_remembers_it() {
        std::env::set_var("COWRITING_WEB_ENV_TEST_GIVEN", "mine");
        assert!(!set_default("COWRITING_WEB_ENV_TEST_GIVEN", "app's"));
        assert_eq!(std::env::var("COWRITING_WEB_ENV_TEST_GIVEN").unwrap(), "mine");
        assert!(set_default("COWRITING_WEB_ENV_TEST_UNSET", "app's"));
        assert_eq!(std::env::var("COWRITING_WEB_ENV_TEST_UNSET").unwrap(), "app's");
        let ours = ours();
        assert!(ours.contains(&"COWRITING_WEB_ENV_TEST_UNSET"));
        assert!(!ours.contains(&"COWRITING_WEB_ENV_TEST_GIVEN"));
    }

    /// The options are JavaScriptCore's and their values parse as it reads them.
    #[test]
    fn js_heap_options_are_well_formed() {
        for (name, value) in JS_HEAP {
            assert!(name.starts_with("JSC_"));
            assert!(value.parse::<f64>().is_ok_and(|v| v > 0.0), "{name}={value}");
        }
    }
}
