//! Builds the C++ pass-registration shim (src/ir/shim.cpp) against Debian's
//! LLVM 22 headers. The MLIR static libraries themselves are linked by mlir-sys.
fn main() {
    let prefix = std::env::var("MLIR_SYS_220_PREFIX").unwrap_or_else(|_| "/usr/lib/llvm-22".into());
    println!("cargo:rerun-if-changed=src/ir/shim.cpp");
    println!("cargo:rerun-if-env-changed=MLIR_SYS_220_PREFIX");
    for f in ["onnx", "nvdla", "nnie", "mvu"] {
        println!("cargo:rerun-if-changed={f}.irdl.mlir");
    }
    cc::Build::new()
        .cpp(true)
        .file("src/ir/shim.cpp")
        .include(format!("{prefix}/include"))
        .flag("-std=c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag("-w")
        .compile("onnc_mlir_shim");
}
