//! The summand memo's table ([`super::lps`]): for one summand, the values of the parameters
//! it reads -> its transitions from them, in one flat arena.
//!
//! A hash map of boxed slices costs three dependent cache misses per hit (the bucket, the
//! key's box, the outcome's box) and two allocations per entry. Here a slot holds the
//! hash's high half and the entry's offset; the entry is the key followed by the outcome,
//! so the key comparison brings the outcome into the cache with it. The slot and the entry
//! can be prefetched ahead of the probe ([`MemoTable::prefetch_slot`],
//! [`MemoTable::prefetch_entry`]): the look-ups of a state's summands do not depend on one
//! another, so their misses can overlap.

use super::prefetch::prefetch;

/// One summand's memo (see the module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct MemoTable {
    /// Open addressing with linear probing, a power of two long (or empty): per slot the
    /// hash's high 32 bits and 1 + the entry's offset in `arena`; 0 is an empty slot.
    slots: Vec<u64>,
    /// The entries one after the other: the key, the outcome's length, the outcome.
    arena: Vec<u32>,
    /// Entries held.
    len: usize,
}

/// The hash of a key (the read parameters' values): 64-bit multiply-rotate over pairs of
/// words, then a final mix so that both the low bits (the slot) and the high bits (the
/// tag) depend on every word.
#[inline]
pub(super) fn hash_key(key: impl ExactSizeIterator<Item = u32>) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = key.len() as u64;
    let mut key = key;
    while let Some(a) = key.next() {
        let b = key.next().map_or(0, u64::from);
        h = (h.rotate_left(26) ^ (u64::from(a) | (b << 32))).wrapping_mul(K);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

impl MemoTable {
    /// The slot where the probe for `hash` starts, if the table has slots.
    #[inline]
    fn home(&self, hash: u64) -> Option<usize> {
        (!self.slots.is_empty()).then(|| hash as usize & (self.slots.len() - 1))
    }

    /// Starts loading the home slot of `hash` into the cache.
    #[inline]
    pub(super) fn prefetch_slot(&self, hash: u64) {
        if let Some(i) = self.home(hash) {
            prefetch(&self.slots[i]);
        }
    }

    /// Starts loading the entry the home slot of `hash` names, if its tag matches (after
    /// [`prefetch_slot`](MemoTable::prefetch_slot), the slot itself is in the cache).
    #[inline]
    pub(super) fn prefetch_entry(&self, hash: u64) {
        if let Some(i) = self.home(hash) {
            let s = self.slots[i];
            if s != 0 && (s >> 32) as u32 == (hash >> 32) as u32 {
                prefetch(&self.arena[(s as u32 - 1) as usize]);
            }
        }
    }

    /// The outcome stored for the key whose words are `key(0..key_len)` and whose hash is
    /// `hash` ([`hash_key`] of those words); `key` is asked only when a tag matches.
    #[inline]
    pub(super) fn get(
        &self,
        hash: u64,
        key_len: usize,
        key: impl Fn(usize) -> u32,
    ) -> Option<&[u32]> {
        let mut i = self.home(hash)?;
        let mask = self.slots.len() - 1;
        let tag = (hash >> 32) as u32;
        loop {
            let s = self.slots[i];
            if s == 0 {
                return None;
            }
            if (s >> 32) as u32 == tag {
                let off = (s as u32 - 1) as usize;
                let stored = &self.arena[off..off + key_len];
                if stored.iter().enumerate().all(|(j, &v)| v == key(j)) {
                    let n = self.arena[off + key_len] as usize;
                    return Some(&self.arena[off + key_len + 1..][..n]);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Stores `outcome` for `key` (which must be absent), whose hash is `hash`; returns the
    /// `u32` words this added to the table (entry and any new slots, two words each).
    pub(super) fn insert(&mut self, key: &[u32], hash: u64, outcome: &[u32]) -> usize {
        let mut added = 0;
        // At most half full: probes stay short, and a slot is only two words.
        if 2 * (self.len + 1) > self.slots.len() {
            added += 2 * self.grow(key.len());
        }
        let off = self.arena.len();
        self.arena.extend_from_slice(key);
        self.arena.push(outcome.len() as u32);
        self.arena.extend_from_slice(outcome);
        added += self.arena.len() - off;
        self.place(hash, off);
        self.len += 1;
        added
    }

    /// Puts the entry at `off` in the first free slot of the probe for `hash`.
    fn place(&mut self, hash: u64, off: usize) {
        // Offsets fit the slot's low 32 bits: the memo is bounded far below 2^32 words.
        debug_assert!(off < u32::MAX as usize, "memo arena beyond 2^32 words");
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        while self.slots[i] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = ((hash >> 32) << 32) | (off as u64 + 1);
    }

    /// Doubles the slots (16 at first) and places every entry again; returns the slots
    /// added.
    fn grow(&mut self, key_len: usize) -> usize {
        let old = self.slots.len();
        let new = (2 * old).max(16);
        self.slots.clear();
        self.slots.resize(new, 0);
        let mut off = 0;
        while off < self.arena.len() {
            let hash = hash_key(self.arena[off..off + key_len].iter().copied());
            self.place(hash, off);
            off += key_len + 1 + self.arena[off + key_len] as usize;
        }
        new - old
    }

    /// The slots (the table doubles them when it grows).
    pub(super) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Forgets every entry and gives the memory back.
    pub(super) fn clear(&mut self) {
        *self = MemoTable::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The table against a `HashMap` of the same keys, with keys of every length up to 5
    /// (odd ones hash a padded last pair), many collisions of the low bits and growth.
    #[test]
    fn table_agrees_with_a_hash_map() {
        for key_len in 0..6usize {
            let mut t = MemoTable::default();
            let mut reference: HashMap<Vec<u32>, Vec<u32>> = HashMap::new();
            let mut words = 0;
            for i in 0..3000u32 {
                let key: Vec<u32> = (0..key_len as u32).map(|j| (i * 7 + j) % 61).collect();
                let hash = hash_key(key.iter().copied());
                let got = t.get(hash, key_len, |j| key[j]).map(<[u32]>::to_vec);
                assert_eq!(got.as_ref(), reference.get(&key), "key {key:?}");
                if got.is_none() {
                    let outcome: Vec<u32> = (0..i % 4).map(|j| i + j).collect();
                    words += t.insert(&key, hash, &outcome);
                    reference.insert(key, outcome);
                }
            }
            assert_eq!(t.len, reference.len());
            assert_eq!(words, t.arena.len() + 2 * t.slots.len());
            for (key, outcome) in &reference {
                let hash = hash_key(key.iter().copied());
                assert_eq!(t.get(hash, key_len, |j| key[j]), Some(&outcome[..]));
            }
            t.clear();
            let key = vec![1; key_len];
            assert_eq!(
                t.get(hash_key(key.iter().copied()), key_len, |j| key[j]),
                None
            );
        }
    }
}
