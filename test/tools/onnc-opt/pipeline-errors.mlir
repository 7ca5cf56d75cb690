// A bad pipeline is refused up front with MLIR's located message; nothing is printed on stdout.
// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-no-such-pass)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: onnc-opt: error: invalid --pass-pipeline:
// UNKNOWN-SAME: 'onnc-no-such-pass' does not refer to a registered pass or pass pipeline

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(func.func(onnc-dce)' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: onnc-opt: error: invalid --pass-pipeline:

// RUN: not onnc-opt %s --pass-pipeline='func.func(onnc-dce)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// ANCHOR: error: can't run 'func.func' pass manager on 'builtin.module' op

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=abc})' 2>&1 | FileCheck %s --check-prefix=UPSTREAM-OPT
// UPSTREAM-OPT: onnc-opt: error: invalid --pass-pipeline:

// RUN: not onnc-opt %s --pass-pipeline='builtin.module(onnc-verify{strict=1})' 2>&1 | FileCheck %s --check-prefix=NO-OPTIONS
// NO-OPTIONS: pass 'onnc-verify' has no option 'strict'; it takes no options

// RUN: not onnc-opt %s -o %t.out --pass-pipeline='builtin.module(nope)' 2>&1
// RUN: not test -e %t.out
func.func @f() {
  return
}
