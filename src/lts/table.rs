//! The state table: fixed-width `u32` rows in a paged arena, numbered densely, with an
//! open-addressing hash index of state numbers.

use super::StateId;

/// Rows per arena page; pages are allocated whole so the arena never reallocates.
pub const PAGE_ROWS: usize = 1 << 14;

const EMPTY: u32 = u32::MAX;

/// The largest number of states a table holds (`u32::MAX` marks empty index slots).
pub const MAX_STATES: u64 = u32::MAX as u64 - 1;

/// Hash of a state row (64 bits; the index uses the high bits).
#[inline]
pub fn hash_row(row: &[u32]) -> u64 {
    // Multiply-rotate mixing per word (FxHash-style) plus a final avalanche, because the
    // index takes the top bits and term ids are small, clustered integers.
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15 ^ row.len() as u64;
    for &w in row {
        h = (h.rotate_left(26) ^ u64::from(w)).wrapping_mul(0x517C_C1B7_2722_0A95);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^ (h >> 29)
}

/// A set of fixed-width rows numbered densely in insertion order.
#[derive(Debug)]
pub struct StateTable {
    width: usize,
    pages: Vec<Box<[u32]>>,
    len: u32,
    /// Open addressing, linear probing; `EMPTY` or a state number. Length is a power of two.
    slots: Vec<u32>,
    shift: u32,
}

impl StateTable {
    /// An empty table of rows of `width` words.
    pub fn new(width: usize) -> StateTable {
        let bits = 10;
        StateTable {
            width,
            pages: Vec::new(),
            len: 0,
            slots: vec![EMPTY; 1 << bits],
            shift: 64 - bits,
        }
    }

    /// The row width in words.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The number of states.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the table is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The row of state `id`.
    #[inline]
    pub fn row(&self, id: StateId) -> &[u32] {
        let i = id.index();
        let page = &self.pages[i / PAGE_ROWS];
        let off = (i % PAGE_ROWS) * self.width;
        &page[off..off + self.width]
    }

    /// Looks up `row` (whose hash is `hash`).
    #[inline]
    pub fn find(&self, row: &[u32], hash: u64) -> Option<StateId> {
        let mask = self.slots.len() - 1;
        let mut pos = (hash >> self.shift) as usize;
        loop {
            let s = self.slots[pos];
            if s == EMPTY {
                return None;
            }
            if self.row(StateId(s)) == row {
                return Some(StateId(s));
            }
            pos = (pos + 1) & mask;
        }
    }

    /// Inserts `row` (whose hash is `hash`) unless present; returns its number and whether it
    /// is new, or `None` when the table is full ([`MAX_STATES`]).
    pub fn insert(&mut self, row: &[u32], hash: u64) -> Option<(StateId, bool)> {
        debug_assert_eq!(row.len(), self.width);
        let mask = self.slots.len() - 1;
        let mut pos = (hash >> self.shift) as usize;
        loop {
            let s = self.slots[pos];
            if s == EMPTY {
                break;
            }
            if self.row(StateId(s)) == row {
                return Some((StateId(s), false));
            }
            pos = (pos + 1) & mask;
        }
        if u64::from(self.len) >= MAX_STATES {
            return None;
        }
        let id = self.len;
        self.push_row(row);
        self.slots[pos] = id;
        if (self.len as usize) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        Some((StateId(id), true))
    }

    fn push_row(&mut self, row: &[u32]) {
        let i = self.len as usize;
        if i % PAGE_ROWS == 0 && i / PAGE_ROWS == self.pages.len() {
            self.pages
                .push(vec![0u32; PAGE_ROWS * self.width].into_boxed_slice());
        }
        let off = (i % PAGE_ROWS) * self.width;
        self.pages[i / PAGE_ROWS][off..off + self.width].copy_from_slice(row);
        self.len += 1;
    }

    fn grow(&mut self) {
        let new_len = self.slots.len() * 2;
        self.shift -= 1;
        let mask = new_len - 1;
        let mut slots = vec![EMPTY; new_len];
        for id in 0..self.len {
            let mut pos = (hash_row(self.row(StateId(id))) >> self.shift) as usize;
            while slots[pos] != EMPTY {
                pos = (pos + 1) & mask;
            }
            slots[pos] = id;
        }
        self.slots = slots;
    }

    /// Bytes allocated for rows and index.
    pub fn memory_bytes(&self) -> usize {
        self.pages.iter().map(|p| p.len() * 4).sum::<usize>() + self.slots.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_find_grow() {
        let mut t = StateTable::new(3);
        for i in 0..50_000u32 {
            let row = [i % 7, i / 7, 42];
            let (id, new) = t.insert(&row, hash_row(&row)).unwrap();
            assert!(new);
            assert_eq!(id, StateId(i));
        }
        for i in 0..50_000u32 {
            let row = [i % 7, i / 7, 42];
            assert_eq!(t.find(&row, hash_row(&row)), Some(StateId(i)));
            assert_eq!(t.insert(&row, hash_row(&row)), Some((StateId(i), false)));
            assert_eq!(t.row(StateId(i)), &row);
        }
        assert_eq!(t.find(&[9, 9, 9], hash_row(&[9, 9, 9])), None);
        assert_eq!(t.len(), 50_000);
    }

    #[test]
    fn zero_width_rows() {
        let mut t = StateTable::new(0);
        assert_eq!(t.insert(&[], hash_row(&[])), Some((StateId(0), true)));
        assert_eq!(t.insert(&[], hash_row(&[])), Some((StateId(0), false)));
        assert_eq!(t.len(), 1);
    }
}
