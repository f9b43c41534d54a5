// A build script, so that cargo applies this crate's build-dependencies (the
// features of what build scripts and proc macros use) as well.
fn main() {}
