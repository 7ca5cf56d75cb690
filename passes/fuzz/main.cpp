// libFuzzer's entry point, linked ahead of MLIR's static libraries.
//
// mlir-sys links every libMLIR*.a, and libMLIRMlirOptMain.a carries
// mlir-opt's own `main`. With libFuzzer's `main` in an archive too, the
// linker takes whichever archive it scans first — MLIR's — and the binary
// becomes mlir-opt. This file is linked whole (build.rs) before any
// dependency's archive, so `main` is libFuzzer's driver.
#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern "C" int LLVMFuzzerRunDriver(int *argc, char ***argv,
                                   int (*callback)(const uint8_t *, size_t));

int main(int argc, char **argv) {
  return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
