//! glibc's malloc told to give large freed blocks back to the system.
//!
//! By default glibc serves a block of 128 KiB or more with its own `mmap`, and
//! unmaps it when freed, until the first such block is freed: from then on its
//! threshold rises to that block's size (up to 32 MiB), so the large buffers
//! of opening a document — the file read, its sidecar parsed, the text sent to
//! the web view — come from the heap of whichever thread ran the command and
//! stay there once freed. Measured (docs/performance.md, "glibc's threshold"):
//! with a 5 MB document and 1,000 proposals open, the app process held 20.5
//! MiB of anonymous memory more than with a small document; with the threshold
//! fixed, 8.1 MiB (the rope and the review). Fixing the threshold is what
//! `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072` does; the app sets it
//! itself so it holds however it is started.
//!
//! And glibc gives each thread that allocates while another holds the lock an
//! arena of its own, up to eight per core; the free memory of each stays with
//! it. Over a long session (`make perf-session`, release, 400 cycles of an
//! agent proposing while the writer decides and types) the app process grew
//! 31 MiB per 1,000 cycles; with one arena (`MALLOC_ARENA_MAX=1`) 19, with
//! two 25 (one run each: read them as a direction, not a figure). The app
//! keeps two: its threads (the event loop, Tauri's workers, the watcher, hot
//! exit's writer, search's two readers) seldom allocate at the same moment.

/// The threshold glibc starts with, kept (bytes).
const MMAP_THRESHOLD: i32 = 128 * 1024;

/// At most this many malloc arenas.
const ARENAS: i32 = 2;

/// Fix glibc's mmap threshold and cap its arenas. Called first thing in
/// `main`, before any thread.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn give_back_large_blocks() {
    for (what, param, value) in [
        ("mmap threshold", libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD),
        ("number of arenas", libc::M_ARENA_MAX, ARENAS),
    ] {
        // SAFETY: mallopt takes two integers and changes only malloc's
        // parameters; it is called before any other thread exists, and a
        // refusal (0) leaves glibc's default, which is only a cost in memory.
        #[allow(unsafe_code)]
        let ok = unsafe { libc::mallopt(param, value) };
        if ok == 0 {
            eprintln!("cowriting-desktop: malloc kept its default {what}");
        }
    }
}

/// Other systems' allocators are left as they are.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn give_back_large_blocks() {}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    /// Bytes glibc holds in blocks it mapped on their own (given back when freed).
    #[allow(unsafe_code)]
    fn mapped_bytes() -> usize {
        // SAFETY: mallinfo2 only reads malloc's counters.
        unsafe { libc::mallinfo2() }.hblkhd
    }

    #[test]
    fn a_large_block_is_mapped_on_its_own_after_a_larger_one_was_freed() {
        super::give_back_large_blocks();
        // glibc's default would raise its threshold to 8 MiB here...
        drop(std::hint::black_box(vec![1u8; 8 << 20]));
        let before = mapped_bytes();
        // ...and serve this one from the heap, where it would stay once freed.
        let block = std::hint::black_box(vec![1u8; 1 << 20]);
        assert!(
            mapped_bytes() >= before + (1 << 20),
            "a 1 MiB block was not mapped on its own: {} → {} bytes mapped",
            before,
            mapped_bytes()
        );
        drop(block);
    }
}
