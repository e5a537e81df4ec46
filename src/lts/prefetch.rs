//! A hint to the processor to bring the cache line of a value in ahead of its use, for
//! the pipelined look-ups of [`super::batch`]. Unlike a load, a prefetch does not hold up
//! the instructions after it while it waits for memory, so the misses of a whole batch
//! are in flight together. This is the crate's one `unsafe` block.

/// Starts loading the cache line of `value` into the first-level cache; no effect on
/// processors without the instruction.
#[inline(always)]
pub(super) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: `_mm_prefetch` is `unsafe` only because it needs the `sse` target feature,
    // which every x86_64 processor has (it is part of the x86_64 baseline the compiler
    // targets). The instruction is a hint: it reads nothing into the program, writes no
    // memory and never faults, whatever the address; this address is that of a live
    // reference besides.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
