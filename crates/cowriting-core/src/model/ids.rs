//! Ids and the clock: new turn and record ids, now as JavaScript writes it.

use super::*;

/// A new turn id, `turn-<random>` (the shape the VS Code flow writes).
pub fn new_turn_id() -> String {
    new_id("turn").replacen('_', "-", 1)
}

/// A fresh opaque id: `<prefix>_<20 hex digits of randomness>`.
pub fn new_id(prefix: &str) -> String {
    let mut bytes = [0u8; 10];
    // The OS random source failing is not something a writer can act on; fall
    // back to the clock so an id is still unique in practice.
    if getrandom::fill(&mut bytes).is_err() {
        let nanos = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes.copy_from_slice(&nanos.to_le_bytes()[..10]);
    }
    let mut id = String::with_capacity(prefix.len() + 21);
    id.push_str(prefix);
    id.push('_');
    for b in bytes {
        id.push_str(&format!("{b:02x}"));
    }
    id
}

/// Now, as JavaScript's `toISOString()` writes it: `2026-06-10T00:00:00.000Z`.
pub fn now_iso() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}
