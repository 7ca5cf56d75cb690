//! `--from-nvdla-loadable` (text dump) and `--verify-nvdla-loadable` (rule
//! check) over NVDLA loadables, by way of the `onnc-nvdla-loadable` engine.
//!
//! In: a `.nvdla` file. Out: the dump (header, every list, every blob,
//! descriptors decoded field by field by engine), or the verifier's report.
//! `--nvdla-abi legacy|current` overrides the descriptor ABI, which is
//! otherwise detected from the blobs; `--nvdla-atom 8|32` sets the memory
//! atom for alignment rules (8, nv_small's, by default; 32 for nv_full/nv_large).

use super::{Error, Input, Kind, Translation, TranslationOption};
use onnc_nvdla_loadable::{
    detect_abi, dump, verify::Severity, verify_with, Abi, Loadable, VerifyOptions,
};

const ABI_OPTION: TranslationOption = TranslationOption {
    name: "nvdla-abi",
    values: "legacy|current",
    help: "descriptor layout: 2018 firmware (28-byte cube) or 0.12.x (32-byte cube); detected when absent",
};

/// `--from-nvdla-loadable`.
pub const FROM_LOADABLE: Translation = Translation {
    flag: "from-nvdla-loadable",
    summary: "Print an NVDLA loadable as text: lists, blobs, descriptors by engine",
    kind: Kind::Dump,
    options: &[ABI_OPTION],
    run: from_loadable,
    dir: None,
};

/// `--verify-nvdla-loadable`.
pub const VERIFY_LOADABLE: Translation = Translation {
    flag: "verify-nvdla-loadable",
    summary: "Check an NVDLA loadable against the runtime's and firmware's rules",
    kind: Kind::Dump,
    options: &[
        ABI_OPTION,
        TranslationOption {
            name: "nvdla-atom",
            values: "8|32",
            help: "memory atom in bytes for alignment rules (default 8)",
        },
    ],
    run: verify_loadable,
    dir: None,
};

fn read(input: &Input) -> Result<(Loadable, Abi, String), Error> {
    let l = Loadable::read(input.bytes)
        .map_err(|e| input.error(format!("not a readable NVDLA loadable: {e}")))?;
    let (abi, how) = match input.option("nvdla-abi") {
        None => {
            let g = detect_abi(&l);
            (g.abi, format!("detected: {}", g.reason))
        }
        Some("legacy") => (Abi::Legacy, "given".to_string()),
        Some("current") => (Abi::Current, "given".to_string()),
        Some(other) => {
            return Err(input.error(format!(
                "--nvdla-abi takes legacy or current, not '{other}'"
            )))
        }
    };
    Ok((l, abi, how))
}

fn from_loadable(input: &Input) -> Result<Vec<u8>, Error> {
    let (l, abi, _) = read(input)?;
    Ok(dump(&l, abi).into_bytes())
}

fn verify_loadable(input: &Input) -> Result<Vec<u8>, Error> {
    let (l, abi, how) = read(input)?;
    let atom_size = match input.option("nvdla-atom") {
        None => 8,
        Some(v) => match v.parse::<u32>() {
            Ok(a @ (8 | 32)) => a,
            _ => return Err(input.error(format!("--nvdla-atom takes 8 or 32, not '{v}'"))),
        },
    };
    let violations = verify_with(&l, &VerifyOptions { abi, atom_size });
    let errors = violations
        .iter()
        .filter(|v| v.severity == Severity::Error)
        .count();
    let warnings = violations.len() - errors;
    let file = input.path.display();
    let mut lines: Vec<String> = violations.iter().map(|v| format!("{file}: {v}")).collect();
    lines.push(format!(
        "{file}: {errors} errors, {warnings} warnings (ABI {abi:?}, {how}; atom {atom_size} bytes)"
    ));
    if errors > 0 {
        Err(Error(lines))
    } else {
        Ok((lines.join("\n") + "\n").into_bytes())
    }
}
