//! `search`: every document's text and every thread's comments.

use super::*;

/// Text hits are printed as they are found; the threads, the count and the
/// JSON answer once the search is done. A closed pipe (`| head`) stops it.
pub(crate) fn search(ctx: &Ctx, query: &cowriting::ops::SearchQuery) -> Result<i32> {
    let mut stdout = std::io::stdout();
    let out = ctx
        .ops
        .search_streamed(query, |f| {
            if let Some(e) = f.error {
                eprintln!("cowriting: {}: not searched: {}", e.document, e.error.message);
            }
            if !ctx.json && !f.hits.is_empty() {
                let lines: String = f.hits.iter().map(search_hit_line).collect();
                if stdout
                    .write_all(lines.as_bytes())
                    .and_then(|()| stdout.flush())
                    .is_err()
                {
                    return std::ops::ControlFlow::Break(());
                }
            }
            std::ops::ControlFlow::Continue(())
        })?
        .out;
    if ctx.json || (out.hits.is_empty() && out.threads.is_empty()) {
        ctx.print(&out, search_text);
    } else {
        ctx.print(&out, search_rest_text);
    }
    Ok(0)
}
