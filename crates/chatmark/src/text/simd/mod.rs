//! Sixteen bytes at a time in a vector register, or eight in a word: the operations the
//! searches and counts that run over every unit of a message are made of. SSE2 on x86-64
//! ([`sse2`], through `safe_arch`'s safe wrappers), `simd128` in the npm package's wasm
//! (`simd128`), both under the name `vector` where `cfg(vector)` holds (`build.rs`),
//! and words of eight bytes everywhere ([`swar`]).

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) mod simd128;
#[cfg(sse2)]
pub(crate) mod sse2;
pub(crate) mod swar;

/// The target's sixteen-byte vector operations, where it has them: SSE2 natively on x86-64,
/// `simd128` in the npm package's wasm. The code that uses them is under `cfg(vector)`,
/// which `build.rs` sets for exactly these targets.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use simd128 as vector;
#[cfg(sse2)]
pub(crate) use sse2 as vector;
