//! A per-message set of names (H5 tag names other than the known ones; H1 attribute names
//! when a tag has many): each name gets a small index, in order of first sight. One
//! open-addressing table serves both, so the wasm carries no second hash table.

use crate::sort::sat32;

/// Names interned per message: the names one after the other in `buf`, and an
/// open-addressing table of their indices (no allocation once the buffers have grown).
#[derive(Debug, Default)]
pub(super) struct Names {
    buf: String,
    /// Per interned name: its end in `buf` (it starts where the previous one ends).
    ends: Vec<u32>,
    /// Index + 1 of a name, 0 for an empty slot; the length is 0 or a power of two, at
    /// least twice the number of names.
    table: Vec<u32>,
}

impl Names {
    /// No names (const, so that the per-thread scratch needs no lazy initialisation).
    pub(super) const NEW: Self = Self {
        buf: String::new(),
        ends: Vec::new(),
        table: Vec::new(),
    };

    fn hash(name: &str) -> usize {
        let h = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        // The table index takes the low bits: fold the high ones in.
        (h ^ (h >> 29)) as usize
    }

    /// The name of index `i` (the empty string for an index never given out).
    pub(super) fn name(&self, i: usize) -> &str {
        let start = match i.checked_sub(1) {
            Some(p) => self.ends.get(p).map_or(0, |&e| e as usize),
            None => 0,
        };
        let end = self.ends.get(i).map_or(0, |&e| e as usize);
        self.buf.get(start..end).unwrap_or("")
    }

    /// The slot of `name` in the table: where it is, or the empty slot where it goes.
    fn slot(&self, name: &str) -> usize {
        let mask = self.table.len().wrapping_sub(1);
        let mut k = Self::hash(name) & mask;
        loop {
            match self.table.get(k) {
                Some(&v) if v != 0 && self.name(v as usize - 1) != name => k = (k + 1) & mask,
                _ => return k,
            }
        }
    }

    /// The index of `name`, if interned.
    pub(super) fn get(&self, name: &str) -> Option<u32> {
        if self.table.is_empty() {
            return None;
        }
        let v = *self.table.get(self.slot(name))?;
        v.checked_sub(1)
    }

    /// The index of `name`, and whether it is new (interned by this call).
    pub(super) fn intern(&mut self, name: &str) -> (u32, bool) {
        if let Some(i) = self.get(name) {
            return (i, false);
        }
        if (self.ends.len() + 1) * 2 > self.table.len() {
            let size = (self.table.len() * 2).max(16);
            self.table.clear();
            self.table.resize(size, 0);
            for i in 0..self.ends.len() {
                let k = self.slot(self.name(i));
                if let Some(v) = self.table.get_mut(k) {
                    *v = sat32(i + 1);
                }
            }
        }
        let i = self.ends.len();
        self.buf.push_str(name);
        self.ends.push(sat32(self.buf.len()));
        let k = self.slot(name);
        if let Some(v) = self.table.get_mut(k) {
            *v = sat32(i + 1);
        }
        (sat32(i), true)
    }

    /// Forgets every name.
    pub(super) fn clear(&mut self) {
        self.buf.clear();
        self.ends.clear();
        self.table.clear();
    }

    /// The largest capacity of its buffers, in entries (for the scratch-trimming test).
    #[cfg(test)]
    pub(super) fn largest(&self) -> usize {
        self.buf
            .capacity()
            .max(self.ends.capacity())
            .max(self.table.capacity())
    }

    /// Forgets every name, giving back what a huge message made the buffers grow past
    /// about `keep` entries.
    pub(super) fn reset(&mut self, keep: usize) {
        self.clear();
        self.buf.shrink_to(keep);
        self.ends.shrink_to(keep);
        self.table.shrink_to(keep);
    }
}

#[cfg(test)]
mod tests {
    use super::Names;

    #[test]
    fn interns_in_order_of_first_sight_across_growth() {
        let mut names = Names::NEW;
        assert_eq!(names.get("x"), None);
        for round in 0..2 {
            for k in 0..100u32 {
                let name = format!("n{k}");
                assert_eq!(names.intern(&name), (k, round == 0), "{name}");
            }
        }
        assert_eq!(names.get("n42"), Some(42));
        assert_eq!(names.name(42), "n42");
        assert_eq!(names.name(100), "");
        names.reset(4);
        assert_eq!(names.get("n42"), None);
        assert_eq!(names.intern(""), (0, true));
        assert_eq!(names.intern(""), (0, false));
    }
}
