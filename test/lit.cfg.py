# lit configuration for onnc's IR tests. No CMake needed:
#   ONNC_TOOLS_DIR=target/debug /usr/lib/llvm-22/bin/lit -v test/
# `cargo test` (tools/tests/lit.rs) sets ONNC_TOOLS_DIR itself.
import os
import shutil

import lit.formats

config.name = "onnc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir", ".test"]
config.excludes = ["Inputs", "data", "lit.cfg.py", "README.md"]
config.test_source_root = os.path.dirname(__file__)
repo_root = os.path.dirname(config.test_source_root)
config.test_exec_root = os.path.join(
    os.environ.get("ONNC_LIT_WORK_DIR", os.path.join(repo_root, "target", "lit"))
)

tools_dir = os.path.abspath(os.environ.get("ONNC_TOOLS_DIR", os.path.join(repo_root, "target", "debug")))
llvm_bin = os.environ.get("LLVM_BIN_DIR", "/usr/lib/llvm-22/bin")


def require(path, what):
    if not os.path.exists(path):
        lit_config.fatal(f"{what} not found at {path}; run tools/bootstrap.sh (and cargo build)")
    return path


# Our tools: tests call them by name; PATH puts ours and LLVM's first.
for tool in ["onnc", "onnc-opt", "onnc-translate", "onnc-run"]:
    require(os.path.join(tools_dir, tool), tool)
config.environment["PATH"] = os.pathsep.join([tools_dir, llvm_bin, os.environ.get("PATH", "")])
# Every loadable the suite compiles for nv_full (and for INT8 configurations
# once calibrated) is also run in the bit-exact simulator and compared with
# the reference interpreter (`onnc compile --check-sim`): a compile that
# passes its FileCheck lines but computes the wrong numbers fails here.
config.environment["ONNC_CHECK_SIM"] = "1"
for tool in ["FileCheck", "not", "count", "split-file"]:
    require(os.path.join(llvm_bin, tool), tool)

config.substitutions.append(("%mlir_opt", require(os.path.join(llvm_bin, "mlir-opt"), "mlir-opt (LLVM 22)")))
config.substitutions.append(("%dialects_dir", os.path.join(repo_root, "dialects")))
config.substitutions.append(("%repo", repo_root))
config.substitutions.append(("%data", os.path.join(config.test_source_root, "data")))

# Tests that make private device nodes (mknod) need root; CI runs as root.
if hasattr(os, "geteuid") and os.geteuid() == 0:
    config.available_features.add("root")

# Optional data: the onnx Python package (model zoo, backend test data).
python = shutil.which("python3")
config.substitutions.append(("%python", python or "python3"))

# %onnx_data: the ONNX backend test data shipped in the `onnx` Python package
# (model-zoo light nets, operator cases). The bootstrap installs it.
import subprocess

try:
    onnx_dir = subprocess.run(
        [python or "python3", "-c", "import onnx, os; print(os.path.dirname(onnx.__file__))"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    config.substitutions.append(("%onnx_data", os.path.join(onnx_dir, "backend", "test", "data")))
except Exception as e:  # the suite needs it: fail loudly rather than skip
    lit_config.fatal(f"the onnx Python package is missing ({e}); run tools/bootstrap.sh")
