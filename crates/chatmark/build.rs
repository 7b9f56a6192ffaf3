//! Sets `cfg(vector)` where the engine has its sixteen-byte vector operations
//! (`crate::vector`): x86-64 (SSE2, in every such processor) and a wasm built with `simd128`
//! (the npm package's). One name for the condition that the searches and counts over every
//! byte of a message branch on, instead of the target test spelled out at each of them.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(vector)");
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let simd128 = features.split(',').any(|f| f == "simd128");
    if arch == "x86_64" || (arch == "wasm32" && simd128) {
        println!("cargo::rustc-cfg=vector");
    }
    println!("cargo::rerun-if-changed=build.rs");
}
