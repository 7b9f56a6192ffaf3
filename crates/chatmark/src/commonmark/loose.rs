//! CommonMark's definition of a loose list (M1), read on the source: for the lists whose
//! events do not show their tightness. pulldown-cmark marks only a loose list's paragraphs
//! (`Paragraph` events), so a list with no paragraph at all — items of headings, code blocks,
//! quotes, tables or nothing — looks alike tight or loose. Such a list is loose when a blank
//! line separates two of its items or two blocks of one item; that blank line lies between
//! the end of the last content of one sibling and the start of the next. This pass runs
//! only when such a list wrote a separator, over pulldown-cmark's events with their source
//! ranges; each stretch of source between siblings is read once (L1).

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

use super::OPTIONS;

/// An open block of the pass.
#[derive(Clone, Copy, Debug)]
enum Open {
    /// A list: its ordinal, and whether an item has begun in it.
    List { ordinal: usize, items: bool },
    /// An item: its list's ordinal, and whether a block has begun in it.
    Item { list: usize, child: bool },
    /// Any other block.
    Other,
}

/// For each list of `src`, in the order the lists begin: whether a blank line separates
/// two of its items or two blocks of one of its items.
pub(super) fn blank_separated_lists(src: &str) -> Vec<bool> {
    let mut blank: Vec<bool> = Vec::new();
    let mut stack: Vec<Open> = Vec::new();
    // the end of the last content read, and where the next gap to read begins
    let mut last_end = 0;
    for (event, range) in Parser::new_ext(src, OPTIONS).into_offset_iter() {
        let block_start = match &event {
            Event::Start(tag) => !is_inline(tag),
            Event::Rule => true,
            _ => false,
        };
        if block_start {
            // a sibling of an item, or of a block in an item: read the gap since the last
            let sibling = match stack.last_mut() {
                Some(Open::List { ordinal, items }) => {
                    Some((*ordinal, core::mem::replace(items, true)))
                }
                Some(Open::Item { list, child }) => Some((*list, core::mem::replace(child, true))),
                _ => None,
            };
            if let Some((list, true)) = sibling {
                if let Some(seen) = blank.get_mut(list) {
                    *seen = *seen || blank_line_between(src.as_bytes(), last_end, range.start);
                }
            }
            last_end = last_end.max(range.start);
        }
        match event {
            Event::Start(Tag::List(_)) => {
                stack.push(Open::List {
                    ordinal: blank.len(),
                    items: false,
                });
                blank.push(false);
            }
            Event::Start(Tag::Item) => {
                let list = match stack.last() {
                    Some(Open::List { ordinal, .. }) => *ordinal,
                    _ => usize::MAX,
                };
                stack.push(Open::Item { list, child: false });
            }
            Event::Start(tag) if !is_inline(&tag) => stack.push(Open::Other),
            Event::End(tag) if !is_inline_end(tag) => {
                stack.pop();
                // a container's range runs to where the next block begins, blank lines
                // included: only content ends count
                if !matches!(tag, TagEnd::List(_) | TagEnd::Item | TagEnd::BlockQuote(_)) {
                    last_end = last_end.max(range.end);
                }
            }
            _ => last_end = last_end.max(range.end),
        }
    }
    blank
}

fn is_inline(tag: &Tag<'_>) -> bool {
    matches!(
        tag,
        Tag::Emphasis | Tag::Strong | Tag::Strikethrough | Tag::Link { .. } | Tag::Image { .. }
    )
}

fn is_inline_end(tag: TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link | TagEnd::Image
    )
}

/// Whether `src[from..to]` holds a whole blank line: one that begins at or after `from`,
/// ends with `\n` before `to`, and holds only spaces, tabs, `\r` and the `>` of enclosing
/// quotes (the source between two blocks of a list holds nothing else).
pub(super) fn blank_line_between(src: &[u8], from: usize, to: usize) -> bool {
    let gap = src.get(from..to.min(src.len())).unwrap_or_default();
    let mut at_line_start = from == 0 || src.get(from - 1) == Some(&b'\n');
    let mut blank = true;
    for &b in gap {
        if b == b'\n' {
            if at_line_start && blank {
                return true;
            }
            at_line_start = true;
            blank = true;
        } else if !matches!(b, b' ' | b'\t' | b'\r' | b'>') {
            blank = false;
        }
    }
    false
}
