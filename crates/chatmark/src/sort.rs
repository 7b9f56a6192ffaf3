//! The engine's one sort: every ordering it needs (boundaries, backtick runs, diagnostics,
//! losses, renderer features) goes through [`sort_u64`], with what is sorted packed into
//! `u64` keys. One routine instead of one instantiation of the standard library's stable
//! and unstable sorts per element type and comparator keeps the npm package's wasm small
//! (about ten instantiations were a fifth of its code, issue 14).
//!
//! [`sort_u64`] is a heap sort for short slices (in place, O(n log n)) and a least
//! significant digit radix sort by bytes for longer ones (O(n): at most eight passes, and
//! none over a byte every key has alike). [`sort_by_key32`] sorts any slice stably by a
//! `u32` key through it, with the element's index packed under the key.

/// Swaps the elements at `a` and `b` of `v`, which the caller keeps in bounds; out of
/// bounds it swaps nothing (no panic, L2).
#[inline]
pub(crate) fn swap<T>(v: &mut [T], a: usize, b: usize) {
    if a < v.len() && b < v.len() {
        #[allow(clippy::disallowed_methods)] // both in bounds: checked above
        v.swap(a, b);
    }
}

/// Up to this many keys the heap sort is faster than the radix sort's 256-entry tables.
const SMALL: usize = 128;

/// Sorts `v` ascending.
pub(crate) fn sort_u64(v: &mut [u64]) {
    if v.len() <= SMALL {
        heap_sort(v);
    } else {
        radix_sort(v);
    }
}

fn heap_sort(v: &mut [u64]) {
    let n = v.len();
    for root in (0..n / 2).rev() {
        sift_down(v, root, n);
    }
    for end in (1..n).rev() {
        swap(v, 0, end);
        sift_down(v, 0, end);
    }
}

/// Restores the max-heap order of `v[..end]` below `root`.
fn sift_down(v: &mut [u64], mut root: usize, end: usize) {
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && at(v, child) < at(v, child + 1) {
            child += 1;
        }
        if at(v, root) >= at(v, child) {
            return;
        }
        swap(v, root, child);
        root = child;
    }
}

fn radix_sort(v: &mut [u64]) {
    let first = v.first().copied().unwrap_or(0);
    let differ = v.iter().fold(0, |d, &k| d | (k ^ first));
    let mut other = vec![0u64; v.len()];
    // whether the keys are in `other` (after an odd number of passes)
    let mut moved = false;
    for shift in (0..64).step_by(8) {
        if (differ >> shift) & 0xff == 0 {
            continue;
        }
        let (src, dst): (&[u64], &mut [u64]) = if moved { (&other, v) } else { (v, &mut other) };
        let digit = |k: u64| usize::from((k >> shift) as u8);
        let mut next = [0usize; 256];
        for &k in src {
            if let Some(c) = next.get_mut(digit(k)) {
                *c += 1;
            }
        }
        let mut sum = 0;
        for c in &mut next {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &k in src {
            if let Some(c) = next.get_mut(digit(k)) {
                if let Some(d) = dst.get_mut(*c) {
                    *d = k;
                }
                *c += 1;
            }
        }
        moved = !moved;
    }
    if moved {
        for (d, &k) in v.iter_mut().zip(&other) {
            *d = k;
        }
    }
}

/// `p` as a `u32`, saturating (positions and counts past 4 GiB tie there).
pub(crate) fn sat32(p: usize) -> u32 {
    u32::try_from(p).unwrap_or(u32::MAX)
}

/// `p` as a `u32`, for a position or count within a message the markdown scan reads: the
/// parser leaves a message past `u32::MAX` units as text before scanning it (its marks
/// hold 32-bit positions), so no bits are dropped (checked in debug builds).
#[inline]
pub(crate) fn pos32(p: usize) -> u32 {
    debug_assert!(
        u32::try_from(p).is_ok(),
        "a position past 4 GiB reached the scan"
    );
    p as u32
}

/// Sorts `v` stably by `key`: equal keys keep their order. (Past 2^32 − 1 elements the
/// indices saturate and the order past there is unspecified, but nothing panics.)
pub(crate) fn sort_by_key32<T>(v: &mut [T], key: impl Fn(&T) -> u32) {
    if v.len() < 2 {
        return;
    }
    let mut keys: Vec<u64> = v
        .iter()
        .enumerate()
        .map(|(i, x)| (u64::from(key(x)) << 32) | u64::from(sat32(i)))
        .collect();
    sort_u64(&mut keys);
    permute(&keys, &mut |a, b| swap(v, a, b));
}

/// Rearranges a slice through `swap` so that position `p` holds what was at the index in the
/// low 32 bits of `order[p]`: each cycle of the permutation once, n swaps at most.
fn permute(order: &[u64], swap: &mut dyn FnMut(usize, usize)) {
    let mut from: Vec<usize> = order.iter().map(|&k| (k & 0xffff_ffff) as usize).collect();
    let n = from.len();
    for start in 0..n {
        let mut p = start;
        while let Some(slot) = from.get_mut(p) {
            let s = core::mem::replace(slot, usize::MAX);
            if s == start || s >= n {
                break;
            }
            swap(p, s);
            p = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` keys from the test suites' seeded generator, masked.
    fn keys(n: usize, seed: u64, mask: u64) -> Vec<u64> {
        let mut rng = crate::rng::Rng(seed | 1);
        (0..n).map(|_| rng.next() & mask).collect()
    }

    #[test]
    fn sorts_like_the_standard_library() {
        for n in [0, 1, 2, 3, 7, 64, 127, 128, 129, 130, 500, 4096, 100_000] {
            for (seed, mask) in [
                (1, u64::MAX),
                (2, 0xff),
                (3, 0xff00_0000_0000_00ff),
                (4, 0x3),
                (5, 0),
            ] {
                let mut v = keys(n, seed, mask);
                let mut want = v.clone();
                want.sort_unstable();
                sort_u64(&mut v);
                assert_eq!(v, want, "n {n} seed {seed}");
                // already sorted and reversed inputs
                sort_u64(&mut v);
                assert_eq!(v, want);
                v.reverse();
                sort_u64(&mut v);
                assert_eq!(v, want);
            }
        }
    }

    #[test]
    fn sort_by_key32_is_stable() {
        for n in [0, 1, 2, 5, 128, 129, 1000, 20_000] {
            let ks = keys(n, 9, 0xf);
            let mut v: Vec<(u32, usize)> =
                ks.iter().enumerate().map(|(i, &k)| (k as u32, i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|x| x.0);
            sort_by_key32(&mut v, |x| x.0);
            assert_eq!(v, want, "n {n}");
        }
    }
}
