//! What vanishes (H1): comments through every WHATWG comment state, and the bogus comments,
//! doctypes and processing instructions that end at the first `>`.

use super::scan::byte_at;
use crate::text::unit::Unit;

/// Index of the first `>` at or after `from`, plus one; the input length when there is none.
pub(super) fn after_gt<U: Unit>(units: &[U], from: usize) -> usize {
    units
        .get(from..)
        .and_then(|rest| rest.iter().position(|c| c.byte() == b'>'))
        .map_or(units.len(), |p| from + p + 1)
}

/// Skips a comment whose `<!--` ends just before `from`, following every WHATWG comment state
/// (the less-than-sign states only report errors, but they are followed exactly). Returns the
/// index after its end (the input length when the end of the input comes first).
pub(super) fn skip_comment<U: Unit>(units: &[U], from: usize) -> usize {
    #[derive(Clone, Copy)]
    enum St {
        Start,
        StartDash,
        Comment,
        LessThan,
        LessThanBang,
        LessThanBangDash,
        LessThanBangDashDash,
        EndDash,
        End,
        EndBang,
    }
    let mut st = St::Start;
    let mut i = from;
    loop {
        let c = byte_at(units, i);
        // Each arm either consumes (i += 1), returns, or reconsumes in a state that is
        // closer to Comment/EndDash/End, which always consume: no endless loop.
        match (st, c) {
            (St::Start, Some(b'-')) => st = St::StartDash,
            (St::Start, Some(b'>')) => return i + 1, // `<!-->`
            (St::Start, _) => {
                st = St::Comment;
                continue;
            }
            (St::StartDash, Some(b'-')) => st = St::End,
            (St::StartDash, Some(b'>')) => return i + 1, // `<!--->`
            (St::StartDash, None) => return units.len(),
            (St::StartDash, _) => {
                st = St::Comment;
                continue;
            }
            (St::Comment, Some(b'<')) => st = St::LessThan,
            (St::Comment, Some(b'-')) => st = St::EndDash,
            (St::Comment, None) => return units.len(),
            (St::Comment, Some(_)) => {
                // Fast path: skip to the next byte that matters.
                let rest = units.get(i..).unwrap_or_default();
                let skip = rest
                    .iter()
                    .position(|c| matches!(c.byte(), b'<' | b'-'))
                    .unwrap_or(rest.len());
                i += skip;
                continue;
            }
            (St::LessThan, Some(b'!')) => st = St::LessThanBang,
            (St::LessThan, Some(b'<')) => {}
            (St::LessThan, _) => {
                st = St::Comment;
                continue;
            }
            (St::LessThanBang, Some(b'-')) => st = St::LessThanBangDash,
            (St::LessThanBang, _) => {
                st = St::Comment;
                continue;
            }
            (St::LessThanBangDash, Some(b'-')) => st = St::LessThanBangDashDash,
            (St::LessThanBangDash, _) => {
                st = St::EndDash;
                continue;
            }
            (St::LessThanBangDashDash, _) => {
                st = St::End;
                continue;
            }
            (St::EndDash, Some(b'-')) => st = St::End,
            (St::EndDash, None) => return units.len(),
            (St::EndDash, _) => {
                st = St::Comment;
                continue;
            }
            (St::End, Some(b'>')) => return i + 1,
            (St::End, Some(b'!')) => st = St::EndBang,
            (St::End, Some(b'-')) => {}
            (St::End, None) => return units.len(),
            (St::End, _) => {
                st = St::Comment;
                continue;
            }
            (St::EndBang, Some(b'-')) => st = St::EndDash,
            (St::EndBang, Some(b'>')) => return i + 1,
            (St::EndBang, None) => return units.len(),
            (St::EndBang, _) => {
                st = St::Comment;
                continue;
            }
        }
        i += 1;
    }
}
