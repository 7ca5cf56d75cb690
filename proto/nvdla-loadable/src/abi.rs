//! Firmware-interface generations ("ABIs") of the descriptor blobs.
//!
//! In: nothing. Out: [`Abi`], passed to every descriptor codec. Detection
//! from a loadable lives in [`crate::detect`].

/// Which `dla_interface.h` / `emu_interface.h` layout the descriptor blobs use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Abi {
    /// Firmware 0.12.x (nvdla/sw ≥ 2019-04): 32-byte `dla_data_cube` with an
    /// `offset` field; 12-byte `emu_common_op_desc` (24-byte EMU op slots);
    /// `emu_buffer_desc` with `addressIndexOffset`.
    #[default]
    Current,
    /// Firmware 0.10/0.11 (2018, the nvdla/sw regression files, ONNC):
    /// 28-byte data cube; 1-byte EMU common op desc (16-byte op slots); no
    /// `addressIndexOffset`.
    Legacy,
}

impl std::fmt::Display for Abi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Abi::Current => "current (fw 0.12.x, 32-byte data cube)",
            Abi::Legacy => "legacy (fw 0.10/0.11, 28-byte data cube)",
        })
    }
}
