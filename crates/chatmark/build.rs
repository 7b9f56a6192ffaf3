//! Sets `cfg(vector)` where the engine has its sixteen-byte vector operations
//! (`crate::search::vector`): x86-64 (SSE2, in every such processor; `cfg(sse2)` too) and a
//! wasm built with `simd128` (the npm package's). One name for the condition that the
//! searches and counts over every byte of a message branch on, instead of the target test
//! spelled out at each of them.
//!
//! `RUSTFLAGS="--cfg chatmark_portable"` leaves both unset on any target, so that the
//! portable forms, which aarch64 and every other target without those operations run, are
//! built and tested on an x86-64 machine too (`scripts/test` does).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vector)");
    println!("cargo::rustc-check-cfg=cfg(sse2)");
    println!("cargo::rustc-check-cfg=cfg(chatmark_portable)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let simd128 = features.split(',').any(|f| f == "simd128");
    let portable = std::env::var_os("CARGO_CFG_CHATMARK_PORTABLE").is_some();
    let sse2 = !portable && arch == "x86_64";
    if sse2 {
        println!("cargo::rustc-cfg=sse2");
    }
    if sse2 || (!portable && arch == "wasm32" && simd128) {
        println!("cargo::rustc-cfg=vector");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
