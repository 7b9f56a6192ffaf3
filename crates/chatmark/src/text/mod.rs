//! The message's text, below both dialects: its code units ([`mod@unit`]) and the message in
//! either encoding ([`source`]), UTF-16 arithmetic ([`utf16`]), and the byte searches the
//! parsers run over every unit ([`search`]), with the vector and word operations they are
//! made of ([`simd`]).

pub(crate) mod search;
pub(crate) mod simd;
pub(crate) mod source;
pub(crate) mod unit;
pub(crate) mod utf16;
