//! Links `main.cpp` (libFuzzer's `main`) whole, ahead of MLIR's archives,
//! one of which defines mlir-opt's `main` (see the file's comment).
fn main() {
    println!("cargo:rerun-if-changed=main.cpp");
    cc::Build::new()
        .cpp(true)
        .file("main.cpp")
        .cargo_metadata(false)
        .compile("onnc_fuzz_main");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static:+whole-archive=onnc_fuzz_main");
}
