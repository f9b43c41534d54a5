//! (being written)
use super::*;
pub fn run(_c: &crate::config::ValeConfig, _r: &Request, _x: &Cancel) -> Result<Run> {
    Err(failed("vale", "not yet"))
}
