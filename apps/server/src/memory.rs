//! Giving memory the server freed back to the system.
//!
//! glibc's malloc keeps freed memory in its arenas for later allocations and returns it to the
//! kernel only from the top of a heap. A broad search makes SurrealDB allocate ~150 MB for a moment,
//! and the first start on a freshly written store compacts its files (another ~40 MB). Once freed,
//! that memory is scattered between chunks still in use, so the process kept it: 220 MB resident
//! after `make bench` on a store just seeded, of which `malloc_trim(0)` gave back 80 MB.
//!
//! So a task asks glibc how much it holds free (`mallinfo2`) every [`CHECK_EVERY`] and trims when
//! that is more than [`TRIM_ABOVE`]: `malloc_trim(0)` hands every free page inside the arenas back
//! (`madvise`), keeping the address space, so a later burst gets its pages back without a system
//! call per allocation. A trim holds each arena's lock while it walks it (a few milliseconds
//! for a 200 MB heap), on a blocking thread; requests on other threads that allocate meanwhile
//! wait for it. Other allocators (musl, macOS) return memory their own way: there it does nothing.

use std::time::Duration;

/// How many malloc arenas the binary asks glibc for (`MALLOC_ARENA_MAX`, set by `main` when the
/// operator has not): one for each thread the runtime gives requests to, and two more, for the main
/// thread and for everything else (SurrealDB's thread pool, blocking threads) to share.
///
/// glibc's default (eight a core) keeps what a broad search freed with each thread. Fewer than this
/// and the runtime's workers may share one: glibc binds a thread to an arena at its first allocation,
/// in whatever order threads start, and every allocation too large for a thread's own cache then waits
/// on the other worker's lock for the process's whole life. Measured in ADR 0004.
#[must_use]
pub fn malloc_arenas() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get) + 2
}

/// How often the free memory is looked at.
pub const CHECK_EVERY: Duration = Duration::from_secs(5);

/// Free memory held by the allocator above which it is given back.
pub const TRIM_ABOVE: usize = 16 << 20;

/// Bytes the allocator holds free (in its arenas, not yet returned to the system); `None` where
/// it cannot tell.
#[must_use]
pub fn held_free() -> Option<usize> {
    imp::held_free()
}

/// Gives the allocator's free pages back to the system; `true` when some were.
pub fn give_back() -> bool {
    imp::give_back()
}

/// Checks every [`CHECK_EVERY`] and gives memory back when more than [`TRIM_ABOVE`] is held
/// free, until `alive`'s sender is dropped. Nothing where the allocator cannot tell.
pub fn spawn_trimmer(alive: tokio::sync::watch::Receiver<()>) {
    if held_free().is_none() {
        return;
    }
    marque_app::housekeeping::spawn_every(CHECK_EVERY, alive, || async {
        let trimmed = tokio::task::spawn_blocking(|| {
            let free = held_free()?;
            if free <= TRIM_ABOVE {
                return None;
            }
            let started = std::time::Instant::now();
            give_back();
            Some((free, started.elapsed()))
        })
        .await;
        if let Ok(Some((free, took))) = trimmed {
            tracing::debug!(
                free_mb = free >> 20,
                took_ms = took.as_secs_f64() * 1e3,
                "gave freed memory back to the system"
            );
        }
    });
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod imp {
    #[expect(unsafe_code, reason = "glibc's malloc statistics have no safe binding")]
    pub fn held_free() -> Option<usize> {
        // SAFETY: mallinfo2 only reads the allocator's statistics (glibc 2.33 and later).
        let info = unsafe { libc::mallinfo2() };
        Some(info.fordblks)
    }

    #[expect(unsafe_code, reason = "glibc's malloc_trim has no safe binding")]
    pub fn give_back() -> bool {
        // SAFETY: malloc_trim takes the allocator's own locks; 0 keeps no extra padding.
        unsafe { libc::malloc_trim(0) == 1 }
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
mod imp {
    pub fn held_free() -> Option<usize> {
        None
    }

    pub fn give_back() -> bool {
        false
    }
}

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    use super::*;

    /// Memory freed between live allocations is held free until it is given back.
    #[test]
    fn freed_memory_between_live_chunks_is_held_and_then_given_back() {
        // 64 MB in 4 KB chunks (below malloc's mmap threshold, so they come from an arena);
        // every other one stays, so what is freed cannot merge into the top of the heap.
        let mut chunks: Vec<Option<Vec<u8>>> = (0..16_384).map(|i| Some(vec![(i % 251) as u8; 4096])).collect();
        for chunk in chunks.iter_mut().step_by(2) {
            *chunk = None;
        }
        let free = held_free().expect("glibc tells");
        assert!(free >= 30 << 20, "about 32 MB freed between live chunks, {free} bytes held free");
        assert!(give_back(), "malloc_trim gave nothing back");
        // What stayed is intact.
        for (i, chunk) in chunks.iter().enumerate().skip(1).step_by(2) {
            let chunk = chunk.as_ref().expect("kept");
            assert!(chunk.iter().all(|&b| b == (i % 251) as u8));
        }
    }
}
