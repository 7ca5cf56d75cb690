//! Compiles the project's `proto/caffe.proto` with `protox` (pure Rust, no
//! system `protoc`) into prost types (`$OUT_DIR/caffe.rs`) and a serialized
//! `FileDescriptorSet` (`$OUT_DIR/caffe_fds.bin`) for the reflection-based
//! prototxt printer/parser.
//!
//! Interim: once the workspace's `onnc-proto` crate exports `caffe`, this
//! crate can depend on it instead.

use std::path::PathBuf;

use prost::Message;

fn main() {
    let manifest =
        PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let proto_dir = manifest.join("../../proto");
    let proto = proto_dir.join("caffe.proto");
    println!("cargo:rerun-if-changed={}", proto.display());

    let fds = protox::compile([&proto], [&proto_dir]).unwrap_or_else(|e| panic!("protox: {e}"));
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("caffe_fds.bin"), fds.encode_to_vec()).expect("write caffe_fds.bin");
    prost_build::Config::new()
        .compile_fds(fds)
        .unwrap_or_else(|e| panic!("prost-build: {e}"));
}
