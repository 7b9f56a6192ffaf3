//! The one seeded generator of the test suites (xorshift64): deterministic sweeps that
//! need no proptest strategy. Shared by the integration tests (`tests/common`) and, through
//! `#[path]`, by the engine's unit tests.

/// A xorshift64 generator; the seed must not be 0.
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One element of `xs` (not empty).
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    /// A string of fewer than `max` pieces, each from `rare` one time in `one_in` (when
    /// `rare` is not empty), else from `common` (not empty).
    #[allow(dead_code)] // not every includer builds strings
    pub fn text(&mut self, max: usize, common: &[&str], rare: &[&str], one_in: usize) -> String {
        let n = self.below(max);
        (0..n)
            .map(|_| {
                if !rare.is_empty() && self.below(one_in) == 0 {
                    self.pick(rare)
                } else {
                    self.pick(common)
                }
            })
            .collect()
    }
}
