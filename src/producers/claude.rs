//! (being written)
use super::*;
pub struct Turn {
    pub run: Run,
    pub turn_id: String,
}
pub fn edit_selection(_c: &crate::config::ClaudeConfig, _r: &Request, _x: &Cancel) -> Result<Turn> {
    Err(failed("claude", "not yet"))
}
