//! A counting global allocator for the memory figures (issues 11 and 13): heap allocations
//! per call and peak heap bytes, which are deterministic for a given build and input, so the
//! tests may assert them. A binary or test opts in with
//! `#[global_allocator] static A: chatmark_benches::alloc::Counting = Counting;`.

#![allow(unsafe_code)] // a global allocator is unsafe to implement; benches only, never the engine

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts allocations and live bytes, and keeps the peak of live bytes.
pub struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(by: usize) {
    let now = LIVE.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call forwards to the system allocator with the caller's arguments; the
// counters are only bookkeeping.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        grow(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Relaxed);
        if new_size > layout.size() {
            grow(new_size - layout.size());
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// What one measured call did to the heap.
#[derive(Clone, Copy, Debug)]
pub struct Usage {
    /// Allocations and reallocations made (reallocations count: each may move the block).
    pub allocations: usize,
    /// Most bytes live at once above the level before the call.
    pub peak: usize,
}

/// Runs `f` and reports its heap usage (meaningful only under [`Counting`], and with no
/// other thread allocating meanwhile).
pub fn measure<R>(f: impl FnOnce() -> R) -> (R, Usage) {
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let before = ALLOCATIONS.load(Relaxed);
    let r = f();
    let usage = Usage {
        allocations: ALLOCATIONS.load(Relaxed) - before,
        peak: PEAK.load(Relaxed).saturating_sub(base),
    };
    (r, usage)
}
