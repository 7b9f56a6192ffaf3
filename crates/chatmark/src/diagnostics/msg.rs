//! The human messages of diagnostics and errors (L3, R7), built by appending their pieces
//! with [`msg!`]: no `core::fmt` on these paths, whose argument tables and
//! padding code were about 2 KB of each npm entry's gzipped wasm (issue 14).

use core::fmt;

/// A piece of a message: text as it is, a number in decimal, or a [`Quoted`] string.
pub(crate) trait Piece {
    /// Appends the piece to `out`.
    fn put(self, out: &mut String);
}

impl Piece for &str {
    fn put(self, out: &mut String) {
        out.push_str(self);
    }
}

impl Piece for usize {
    fn put(self, out: &mut String) {
        put_radix(out, self as u64, 10);
    }
}

/// Appends `n` in base `radix` (10 or 16, lower-case digits, no leading zeros).
fn put_radix(out: &mut String, mut n: u64, radix: u64) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    for d in digits.iter_mut().rev() {
        *d = b"0123456789abcdef"
            .get((n % radix) as usize)
            .copied()
            .unwrap_or(b'0');
        len += 1;
        n /= radix;
        if n == 0 {
            break;
        }
    }
    let first = digits.len() - len;
    out.extend(digits.iter().skip(first).map(|&b| char::from(b)));
}

/// `s` in double quotes, with `"`, `\` and control characters escaped as `{:?}` would, but
/// without `Debug`'s Unicode printability tables: other characters are written as they are.
#[derive(Clone, Copy)]
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl Piece for Quoted<'_> {
    fn put(self, out: &mut String) {
        out.push('"');
        for c in self.0.chars() {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\0' => out.push_str("\\0"),
                '"' | '\\' => {
                    out.push('\\');
                    out.push(c);
                }
                c if c.is_control() => {
                    out.push_str("\\u{");
                    put_radix(out, u64::from(u32::from(c)), 16);
                    out.push('}');
                }
                c => out.push(c),
            }
        }
        out.push('"');
    }
}

/// For the `Display` of the public error types (native callers; the wasm never formats).
impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.put(&mut s);
        f.write_str(&s)
    }
}

/// A message from its pieces, in order: `msg!("text is ", units, " units long")`.
macro_rules! msg {
    ($($piece:expr),+ $(,)?) => {{
        let mut out = String::new();
        $($crate::diagnostics::msg::Piece::put($piece, &mut out);)+
        out
    }};
}
pub(crate) use msg;

#[cfg(test)]
mod tests {
    use super::Quoted;

    #[test]
    fn quoted_escapes_like_debug_for_quotes_backslashes_and_controls() {
        for s in [
            "",
            "zz",
            "a\"b",
            "back\\slash",
            "line\nbreak\r\t",
            "nul\0 del\u{7f} c1\u{85} us\u{1f}",
            "жирный 😀",
            "\"\"",
        ] {
            assert_eq!(super::msg!(Quoted(s)), format!("{s:?}"), "{s:?}");
            assert_eq!(Quoted(s).to_string(), format!("{s:?}"), "{s:?}");
        }
    }

    #[test]
    fn numbers_in_decimal() {
        for n in [0, 7, 10, 99, 2000, 65_535, usize::MAX] {
            assert_eq!(super::msg!("n=", n, "."), format!("n={n}."));
        }
    }
}
