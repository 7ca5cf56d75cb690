//! `--mlir-to-bytecode` and `--bytecode-to-mlir`: MLIR's portable binary
//! form, for shipping large IR (weights inline) compactly.
//!
//! In: MLIR text (or bytecode, detected by its `ML\xefR` magic). Out:
//! bytecode, or text. The IR is parsed and verified on the way, so a
//! malformed file is reported with its location.

use super::{with_module, Error, Input, Kind, Translation};
use melior::ir::operation::OperationLike;
use onnc_dialects::ir;

/// `--mlir-to-bytecode`.
pub const TO_BYTECODE: Translation = Translation {
    flag: "mlir-to-bytecode",
    summary: "Write MLIR text as MLIR bytecode",
    kind: Kind::Emit,
    options: &[],
    run: to_bytecode,
    dir: None,
};

/// `--bytecode-to-mlir`.
pub const FROM_BYTECODE: Translation = Translation {
    flag: "bytecode-to-mlir",
    summary: "Print MLIR bytecode as MLIR text",
    kind: Kind::Dump,
    options: &[],
    run: from_bytecode,
    dir: None,
};

const MAGIC: &[u8] = b"ML\xefR";

fn to_bytecode(input: &Input) -> Result<Vec<u8>, Error> {
    with_module(input, |m| Ok(m.as_operation().write_bytecode()))
}

fn from_bytecode(input: &Input) -> Result<Vec<u8>, Error> {
    if !input.bytes.starts_with(MAGIC) {
        return Err(Error(vec![format!(
            "{}: error: not MLIR bytecode (it does not start with the 'ML\\xefR' magic); text IR needs no translation",
            input.path.display()
        )]));
    }
    with_module(input, |m| {
        Ok(ir::print_op(&m.as_operation(), &ir::PrintOptions::default()).into_bytes())
    })
}
