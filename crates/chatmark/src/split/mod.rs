//! Splitting a long message into parts that can each be sent (spec section 8, S1–S5).
// the segmenter's users come with the split itself
#![cfg_attr(not(test), allow(dead_code))]

mod grapheme;
mod grapheme_table;
