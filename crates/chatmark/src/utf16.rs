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
    let bytes = s.as_bytes();
    if bytes.is_ascii() {
        return bytes.len();
    }
    bytes
        .iter()
        .map(|&b| usize::from((b as i8) >= -0x40) + usize::from(b >= 0xF0))
        .sum()
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
