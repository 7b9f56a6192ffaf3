//! A code unit of a message: a UTF-8 byte or a UTF-16 unit ([`Unit`]), read as a byte by
//! the parsers, which look only for ASCII markup (2.1–2.3, H1).

/// A code unit of a source: a UTF-8 byte or a UTF-16 unit.
pub(crate) trait Unit: Copy {
    /// The unit as a byte: itself below 0x100, else 0xFF. ASCII stays ASCII and nothing
    /// else becomes ASCII, which is all the parser asks of a unit it does not decode.
    fn byte(self) -> u8;

    /// How many units from the start of `s` are the ASCII byte `b` (a delimiter or
    /// backtick run's length).
    #[inline]
    fn run_of(s: &[Self], b: u8) -> usize {
        s.iter().take_while(|c| c.byte() == b).count()
    }

    /// The units as bytes, if they are bytes (UTF-8).
    #[inline]
    fn as_bytes(_: &[Self]) -> Option<&[u8]> {
        None
    }

    /// Sixteen units as what they are, for a search that loads them into a vector register
    /// by their encoding ([`super::search`]).
    #[cfg(vector)]
    fn chunk(chunk: &[Self; 16]) -> Chunk<'_>;
}

impl Unit for u8 {
    #[inline]
    fn as_bytes(s: &[u8]) -> Option<&[u8]> {
        Some(s)
    }

    #[inline]
    fn byte(self) -> u8 {
        self
    }

    /// Eight bytes at a time: the first byte of the word that is not `b` ends a run
    /// shorter than eight (nearly every run) without a loop.
    #[inline]
    fn run_of(s: &[u8], b: u8) -> usize {
        if let Some(w) = s.first_chunk::<8>() {
            let other = u64::from_le_bytes(*w) ^ (u64::from(b) * 0x0101_0101_0101_0101);
            if other != 0 {
                return (other.trailing_zeros() / 8) as usize;
            }
        }
        s.iter().take_while(|&&c| c == b).count()
    }

    #[cfg(vector)]
    #[inline]
    fn chunk(chunk: &[u8; 16]) -> Chunk<'_> {
        Chunk::Bytes(chunk)
    }
}

impl Unit for u16 {
    #[inline]
    fn byte(self) -> u8 {
        self.min(0xff) as u8
    }

    /// Four units at a time, as one word: the lowest unit that is not `b` ends a run
    /// shorter than four without a loop.
    #[inline]
    fn run_of(s: &[u16], b: u8) -> usize {
        if let Some(&[u0, u1, u2, u3]) = s.first_chunk::<4>() {
            // spelled out: as a fold, the size-tuned wasm reads the units in a loop, where
            // this is one 64-bit load
            let word =
                u64::from(u0) | u64::from(u1) << 16 | u64::from(u2) << 32 | u64::from(u3) << 48;
            let other = word ^ (u64::from(b) * 0x0001_0001_0001_0001);
            if other != 0 {
                return (other.trailing_zeros() / 16) as usize;
            }
        }
        s.iter().take_while(|&&c| c == u16::from(b)).count()
    }

    #[cfg(vector)]
    #[inline]
    fn chunk(chunk: &[u16; 16]) -> Chunk<'_> {
        Chunk::Units(chunk)
    }
}

/// Sixteen units of one encoding or the other ([`Unit::chunk`]).
#[cfg(vector)]
#[derive(Clone, Copy, Debug)]
pub(crate) enum Chunk<'a> {
    /// Sixteen bytes of UTF-8.
    Bytes(&'a [u8; 16]),
    /// Sixteen UTF-16 units.
    Units(&'a [u16; 16]),
}
