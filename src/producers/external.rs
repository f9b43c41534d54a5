//! (being written)
use super::*;
pub fn run(_n: &str, _c: &crate::config::ExternalConfig, _r: &Request, _x: &Cancel) -> Result<Run> {
    Err(failed("x", "not yet"))
}
