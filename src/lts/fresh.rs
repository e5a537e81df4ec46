//! The per-batch table of new states of the tree store ([`super::tree`]): the root pairs of
//! the states the exploring threads met that the store did not have, each with a
//! *provisional number* that is its slot in the table.
//!
//! The slot holds the packed pair itself, so a look-up reads one word where a
//! [`PairTable`](super::tree::PairTable) reads a slot and then the arena, and a new entry
//! needs no shared counter: a compare-and-swap of an empty slot is the whole insertion, so
//! threads that meet new states at the same time write no common cache line. The table
//! never grows while threads use it: a pair that finds no free slot within [`MAX_PROBE`]
//! slots of its home is declined, and the caller takes the exclusive path. Between batches
//! it is cleared, and sized for the rate of new states of the last batch.
//!
//! In each slot beside the pair: the smallest position (in the order of the insertion pass)
//! of a look-up that met the state, which tells the parallel numbering which transition
//! numbers it, and the state number once it has one. The three share the slot's cache line
//! (24 bytes a slot), so meeting a new state, numbering it and finding its number each
//! touch one line of the table, not one per field.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::prefetch::prefetch;

/// Marks an empty slot. The one pair it packs, `(u32::MAX, u32::MAX)`, is declined.
const EMPTY: u64 = u64::MAX;

/// Marks a slot without a state number yet.
const UNNUMBERED: u32 = u32::MAX;

/// The most slots a look-up scans: past this many taken slots it declines.
pub const MAX_PROBE: usize = 32;

/// The fewest slots of the table.
const MIN_SLOTS: usize = 1 << 10;

#[inline]
fn pack(a: u32, b: u32) -> u64 {
    (u64::from(a) << 32) | u64::from(b)
}

/// Hash of a packed pair (murmur3's 64-bit finaliser; the table takes the top bits).
#[inline]
fn hash(p: u64) -> u64 {
    let mut h = p ^ 0x9E37_79B9_7F4A_7C15;
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^ (h >> 33)
}

/// One slot of a [`FreshTable`].
#[derive(Debug)]
struct Slot {
    /// The packed root pair, else [`EMPTY`].
    pair: AtomicU64,
    /// The smallest position of a look-up that met it, else `u64::MAX`.
    first: AtomicU64,
    /// The state number, else [`UNNUMBERED`].
    state: AtomicU32,
}

impl Slot {
    fn empty() -> Slot {
        Slot {
            pair: AtomicU64::new(EMPTY),
            first: AtomicU64::new(u64::MAX),
            state: AtomicU32::new(UNNUMBERED),
        }
    }
}

/// New states' root pairs of one batch, numbered by their slots (see the module docs).
#[derive(Debug)]
pub struct FreshTable {
    slots: Box<[Slot]>,
    shift: u32,
}

impl Default for FreshTable {
    fn default() -> Self {
        FreshTable::with_slots(MIN_SLOTS)
    }
}

impl FreshTable {
    fn with_slots(n: usize) -> FreshTable {
        FreshTable {
            slots: (0..n).map(|_| Slot::empty()).collect(),
            shift: 64 - n.trailing_zeros(),
        }
    }

    /// The provisional number of `(a, b)`, inserting it if absent, from a shared reference
    /// (threads call this concurrently); `None` when it finds no room near its home slot.
    #[inline]
    pub fn intern_shared(&self, a: u32, b: u32) -> Option<u32> {
        let p = pack(a, b);
        if p == EMPTY {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut pos = (hash(p) >> self.shift) as usize;
        for _ in 0..MAX_PROBE {
            // Relaxed suffices: a slot's pair is the whole entry, and what else is read
            // about it (first position, state) is read after the threads have joined.
            match self.slots[pos].pair.load(Ordering::Relaxed) {
                s if s == p => return Some(pos as u32),
                EMPTY => match self.slots[pos].pair.compare_exchange(
                    EMPTY,
                    p,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => return Some(pos as u32),
                    Err(s) if s == p => return Some(pos as u32),
                    Err(_) => {}
                },
                _ => {}
            }
            pos = (pos + 1) & mask;
        }
        None
    }

    /// The provisional number of `(a, b)`, if a look-up of this batch gave it one.
    pub fn find(&self, a: u32, b: u32) -> Option<u32> {
        let p = pack(a, b);
        if p == EMPTY {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut pos = (hash(p) >> self.shift) as usize;
        for _ in 0..MAX_PROBE {
            match self.slots[pos].pair.load(Ordering::Relaxed) {
                s if s == p => return Some(pos as u32),
                EMPTY => return None,
                _ => pos = (pos + 1) & mask,
            }
        }
        None
    }

    /// The pair of provisional number `p`.
    #[inline]
    pub fn get(&self, p: u32) -> (u32, u32) {
        let s = self.slots[p as usize].pair.load(Ordering::Relaxed);
        ((s >> 32) as u32, s as u32)
    }

    /// Notes that the look-up at position `pos` met provisional number `p`.
    #[inline]
    pub fn note(&self, p: u32, pos: u64) {
        let first = &self.slots[p as usize].first;
        // A thread meets a state in increasing positions, so most notes are not smaller
        // than the minimum: a plain load skips their read-modify-write.
        if pos < first.load(Ordering::Relaxed) {
            first.fetch_min(pos, Ordering::Relaxed);
        }
    }

    /// Starts loading the slot of provisional number `p` (see [`super::prefetch`]).
    #[inline]
    pub fn prefetch_slot(&self, p: u32) {
        prefetch(&self.slots[p as usize]);
    }

    /// Starts loading the home slot of `(a, b)` ahead of
    /// [`intern_shared`](FreshTable::intern_shared) (see [`super::prefetch`]).
    #[inline]
    pub fn prefetch_home(&self, a: u32, b: u32) {
        prefetch(&self.slots[(hash(pack(a, b)) >> self.shift) as usize]);
    }

    /// Whether `pos` is the smallest position noted for `p`.
    #[inline]
    pub fn first_meets(&self, p: u32, pos: u64) -> bool {
        self.slots[p as usize].first.load(Ordering::Relaxed) == pos
    }

    /// The state number of provisional number `p`, if it has one.
    #[inline]
    pub fn state(&self, p: u32) -> Option<u32> {
        match self.slots[p as usize].state.load(Ordering::Relaxed) {
            UNNUMBERED => None,
            id => Some(id),
        }
    }

    /// Gives provisional number `p` the state number `id` (threads call this concurrently
    /// for distinct `p`).
    #[inline]
    pub fn set_state(&self, p: u32, id: u32) {
        self.slots[p as usize].state.store(id, Ordering::Relaxed);
    }

    /// Sizes the table (exclusively, when empty) for a batch expected to meet `expected` new
    /// states: at most half full then, so that look-ups stay short and rarely decline. A
    /// table of about the right size is kept as it is.
    pub fn fit(&mut self, expected: usize) {
        let want = expected
            .saturating_mul(2)
            .next_power_of_two()
            .max(MIN_SLOTS);
        let have = self.slots.len();
        if want > have || want * 16 < have {
            // The old table goes first, so the two never add up at the peak; the new one is
            // bounded by a batch's successors.
            self.slots = Box::default();
            crate::budget::before_big_allocation(want as u64 * 24);
            *self = FreshTable::with_slots(want);
        }
    }

    /// Empties the table (exclusively).
    pub fn clear(&mut self) {
        for s in self.slots.iter_mut() {
            *s = Slot::empty();
        }
    }

    /// Bytes allocated (24 per slot).
    pub fn memory_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Threads interning overlapping pairs agree on one number per pair, and every pair is
    /// found under it; the empty marker and a full neighbourhood are declined.
    #[test]
    fn shared_interning_agrees_and_declines() {
        let mut t = FreshTable::default();
        t.fit(2_000);
        let per_thread: Vec<Vec<(u32, u32, u32)>> = std::thread::scope(|sc| {
            let t = &t;
            let hs: Vec<_> = (0..4u32)
                .map(|k| {
                    sc.spawn(move || {
                        (0..2_000u32)
                            .map(|i| (i + 500 * k) % 2_000)
                            .map(|i| (i % 61, i / 61, t.intern_shared(i % 61, i / 61).unwrap()))
                            .collect()
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut number = std::collections::HashMap::new();
        for (a, b, n) in per_thread.into_iter().flatten() {
            assert_eq!(*number.entry((a, b)).or_insert(n), n, "one number per pair");
            assert_eq!(t.get(n), (a, b));
            assert_eq!(t.find(a, b), Some(n));
        }
        assert_eq!(number.len(), 2_000);
        assert_eq!(t.intern_shared(u32::MAX, u32::MAX), None);
        assert_eq!(t.find(7, 1_000), None);
        // Positions: the smallest noted one wins; states are kept until the table is cleared.
        let p = number[&(3, 4)];
        for pos in [9u64, 4, 12] {
            t.note(p, pos);
        }
        assert!(t.first_meets(p, 4) && !t.first_meets(p, 9));
        assert_eq!(t.state(p), None);
        t.set_state(p, 17);
        assert_eq!(t.state(p), Some(17));
        t.clear();
        assert_eq!((t.find(3, 4), t.state(p)), (None, None));
        t.fit(10);
        // A table of MIN_SLOTS declines once a neighbourhood is full, and stays correct.
        let mut taken = 0;
        for i in 0..(MIN_SLOTS as u32) {
            if let Some(n) = t.intern_shared(i, i) {
                assert_eq!(t.get(n), (i, i));
                taken += 1;
            } else {
                assert_eq!(t.find(i, i), None);
            }
        }
        assert!(
            taken > MIN_SLOTS / 2,
            "declines only when the table is nearly full"
        );
    }
}
