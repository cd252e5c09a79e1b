//! The global allocator of the binary and the benches: mimalloc, called the way std's
//! `System` allocator calls malloc. A block whose alignment every mimalloc block already
//! has (8 bytes: block sizes are whole words) goes to the plain entry points; only a
//! larger alignment goes to the aligned ones.
//!
//! The `mimalloc` crate's own allocator always calls the aligned entry points. Their
//! generic path, taken for every block over 1 KiB whose size is not a power of two
//! (mimalloc v3, `alloc-aligned.c`), over-allocates by the alignment and searches for an
//! aligned address: an evaluation's limits, a JSON answer's buffer.

use libmimalloc_sys::{
    mi_free, mi_malloc, mi_malloc_aligned, mi_realloc, mi_realloc_aligned, mi_zalloc,
    mi_zalloc_aligned,
};
use std::alloc::{GlobalAlloc, Layout};
use std::ffi::c_void;

/// The alignment of every block mimalloc returns (one machine word).
const WORD_ALIGN: usize = std::mem::size_of::<usize>();

/// mimalloc as the global allocator.
pub struct MiMalloc;

/// Whether a block of `layout` needs the aligned entry points.
fn over_aligned(layout: &Layout) -> bool {
    layout.align() > WORD_ALIGN
}

// SAFETY: every entry point returns a block of at least the size asked for, aligned to
// `layout.align()` (by `over_aligned`: a word, which every mimalloc block is, or by the
// aligned call), or null; `mi_free` and `mi_realloc*` take any block mimalloc returned.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: plain C calls with a size (and a power-of-two alignment).
        unsafe {
            if over_aligned(&layout) {
                mi_malloc_aligned(layout.size(), layout.align()).cast()
            } else {
                mi_malloc(layout.size()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        unsafe {
            if over_aligned(&layout) {
                mi_zalloc_aligned(layout.size(), layout.align()).cast()
            } else {
                mi_zalloc(layout.size()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator (GlobalAlloc's contract).
        unsafe { mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout` (GlobalAlloc's contract).
        unsafe {
            if over_aligned(&layout) {
                mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            } else {
                mi_realloc(ptr.cast(), new_size).cast()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of every alignment from a byte to a page, at sizes around the word and
    /// the 1 KiB boundary, come back aligned, writable, zeroed when asked and intact
    /// after growing.
    #[test]
    fn blocks_are_aligned_and_keep_their_bytes() {
        let a = MiMalloc;
        for align in [1, 2, 4, 8, 16, 32, 64, 4096] {
            for size in [1, 7, 8, 24, 100, 1000, 1025, 1560, 5000] {
                let layout = Layout::from_size_align(size, align).expect("valid layout");
                // SAFETY: a non-zero size; each block is freed once, with its layout.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "size {size} align {align}");
                    std::ptr::write_bytes(p, 0xA5, size);
                    let q = a.realloc(p, layout, size * 3);
                    assert_eq!(q as usize % align, 0, "realloc {size} align {align}");
                    assert!(
                        std::slice::from_raw_parts(q, size)
                            .iter()
                            .all(|&b| b == 0xA5)
                    );
                    a.dealloc(q, Layout::from_size_align(size * 3, align).expect("valid"));
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0);
                    assert!(std::slice::from_raw_parts(z, size).iter().all(|&b| b == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }
}
