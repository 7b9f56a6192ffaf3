//! UTF-16 arithmetic on UTF-8 text: lengths and byte→unit conversion, done once at the
//! boundary (spec 1: offsets count UTF-16 code units; C5).

/// The number of UTF-16 code units `s` takes (JavaScript's `String.length`).
///
/// One branch-free pass over the bytes: every byte that starts a character counts one unit,
/// and every 4-byte lead (a character outside the BMP) counts one more.
///
/// # Examples
///
/// ```
/// assert_eq!(chatmark::utf16_len("a😀"), 3);
/// assert_eq!(chatmark::utf16_len("chào"), 4);
/// ```
pub fn utf16_len(s: &str) -> usize {
    // Fixed-size chunks with byte-wide counters let the compiler vectorise the inner loop.
    fn units(chunk: &[u8]) -> usize {
        let n = chunk.iter().fold(0u8, |acc, &b| {
            acc.wrapping_add(u8::from((b as i8) >= -0x40))
                .wrapping_add(u8::from(b >= 0xF0))
        });
        usize::from(n)
    }
    let mut chunks = s.as_bytes().chunks_exact(64);
    let mut total = 0;
    for chunk in &mut chunks {
        // at most 64 starts plus 16 four-byte leads per chunk: no u8 overflow
        total += units(chunk);
    }
    total + units(chunks.remainder())
}

/// Converts increasing byte offsets of one text into UTF-16 offsets in a single forward walk.
///
/// Offsets must be asked for in non-decreasing order and lie on character boundaries; an
/// offset past the end gives the text's UTF-16 length.
#[derive(Debug)]
pub(crate) struct Utf16Cursor<'a> {
    text: &'a str,
    byte: usize,
    unit: usize,
}

impl<'a> Utf16Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Utf16Cursor {
            text,
            byte: 0,
            unit: 0,
        }
    }

    /// UTF-16 offset of byte offset `byte` (≥ every earlier request).
    pub(crate) fn unit_at(&mut self, byte: usize) -> usize {
        let byte = byte.min(self.text.len());
        if byte > self.byte {
            self.unit += utf16_len(self.text.get(self.byte..byte).unwrap_or(""));
            self.byte = byte;
        }
        self.unit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_matches_std_encoder() {
        for s in ["", "abc", "é", "😀", "👨‍👩‍👧", "a\u{FFFD}b", "\u{10FFFF}x"] {
            assert_eq!(utf16_len(s), s.encode_utf16().count(), "{s:?}");
        }
    }

    #[test]
    fn cursor_walks_forward() {
        let s = "a😀bé";
        let mut c = Utf16Cursor::new(s);
        assert_eq!(c.unit_at(0), 0);
        assert_eq!(c.unit_at(1), 1);
        assert_eq!(c.unit_at(5), 3);
        assert_eq!(c.unit_at(8), 5);
        assert_eq!(c.unit_at(100), 5);
    }
}
