//! MVU control/status register names and addresses.
//!
//! In: nothing. Out: [`Csr`] constants (name + 12-bit CSR address) used by the
//! C header and the assembly writers.
//!
//! Source: `obilaniu/MVU` `verification/lib/mvu/mvu_pkg.sv` (`mvu_csr_t`) at
//! `bfab134`, the MVU commit BARVINN pins; its `mvutop_wrapper.sv` decodes exactly
//! these addresses, and `pito_riscv` `csrc/common/pito.h` (the C runtime header)
//! agrees. The older `pito_def.h` of `pito_riscv`'s assembly tests uses a
//! *different*, shorter map (e.g. `mvuprecision = 0xF46` there, `0xF53` here);
//! we follow the RTL. The table is all 74 entries of `mvu_csr_t`.
//!
//! ```
//! use onnc_mvu::csr;
//! assert_eq!(csr::MVUPRECISION.addr, 0xf53);
//! assert_eq!(csr::ijump(0).name, "mvuijump_0");
//! assert_eq!(csr::wlength(1).addr, 0xf3f);
//! ```

/// One CSR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Csr {
    /// Name as BARVINN's assembly spells it.
    pub name: &'static str,
    /// CSR address.
    pub addr: u16,
}

macro_rules! csrs {
    ($($id:ident = $name:literal, $addr:literal;)*) => {
        $(#[doc = concat!("`", $name, "`")] pub const $id: Csr = Csr { name: $name, addr: $addr };)*
        /// Every MVU CSR this crate knows, in address order.
        pub const ALL: &[Csr] = &[$($id),*];
    };
}

csrs! {
    MVUWBASEPTR = "mvuwbaseptr", 0xf20;
    MVUIBASEPTR = "mvuibaseptr", 0xf21;
    MVUSBASEPTR = "mvusbaseptr", 0xf22;
    MVUBBASEPTR = "mvubbaseptr", 0xf23;
    MVUOBASEPTR = "mvuobaseptr", 0xf24;
    MVUWJUMP_0 = "mvuwjump_0", 0xf25;
    MVUWJUMP_1 = "mvuwjump_1", 0xf26;
    MVUWJUMP_2 = "mvuwjump_2", 0xf27;
    MVUWJUMP_3 = "mvuwjump_3", 0xf28;
    MVUWJUMP_4 = "mvuwjump_4", 0xf29;
    MVUIJUMP_0 = "mvuijump_0", 0xf2a;
    MVUIJUMP_1 = "mvuijump_1", 0xf2b;
    MVUIJUMP_2 = "mvuijump_2", 0xf2c;
    MVUIJUMP_3 = "mvuijump_3", 0xf2d;
    MVUIJUMP_4 = "mvuijump_4", 0xf2e;
    MVUSJUMP_0 = "mvusjump_0", 0xf2f;
    MVUSJUMP_1 = "mvusjump_1", 0xf30;
    MVUSJUMP_2 = "mvusjump_2", 0xf31;
    MVUSJUMP_3 = "mvusjump_3", 0xf32;
    MVUSJUMP_4 = "mvusjump_4", 0xf33;
    MVUBJUMP_0 = "mvubjump_0", 0xf34;
    MVUBJUMP_1 = "mvubjump_1", 0xf35;
    MVUBJUMP_2 = "mvubjump_2", 0xf36;
    MVUBJUMP_3 = "mvubjump_3", 0xf37;
    MVUBJUMP_4 = "mvubjump_4", 0xf38;
    MVUOJUMP_0 = "mvuojump_0", 0xf39;
    MVUOJUMP_1 = "mvuojump_1", 0xf3a;
    MVUOJUMP_2 = "mvuojump_2", 0xf3b;
    MVUOJUMP_3 = "mvuojump_3", 0xf3c;
    MVUOJUMP_4 = "mvuojump_4", 0xf3d;
    MVUWLENGTH_0 = "mvuwlength_0", 0xf3e;
    MVUWLENGTH_1 = "mvuwlength_1", 0xf3f;
    MVUWLENGTH_2 = "mvuwlength_2", 0xf40;
    MVUWLENGTH_3 = "mvuwlength_3", 0xf41;
    MVUWLENGTH_4 = "mvuwlength_4", 0xf42;
    MVUILENGTH_1 = "mvuilength_1", 0xf43;
    MVUILENGTH_2 = "mvuilength_2", 0xf44;
    MVUILENGTH_3 = "mvuilength_3", 0xf45;
    MVUILENGTH_4 = "mvuilength_4", 0xf46;
    MVUSLENGTH_1 = "mvuslength_1", 0xf47;
    MVUSLENGTH_2 = "mvuslength_2", 0xf48;
    MVUSLENGTH_3 = "mvuslength_3", 0xf49;
    MVUSLENGTH_4 = "mvuslength_4", 0xf4a;
    MVUBLENGTH_1 = "mvublength_1", 0xf4b;
    MVUBLENGTH_2 = "mvublength_2", 0xf4c;
    MVUBLENGTH_3 = "mvublength_3", 0xf4d;
    MVUBLENGTH_4 = "mvublength_4", 0xf4e;
    MVUOLENGTH_1 = "mvuolength_1", 0xf4f;
    MVUOLENGTH_2 = "mvuolength_2", 0xf50;
    MVUOLENGTH_3 = "mvuolength_3", 0xf51;
    MVUOLENGTH_4 = "mvuolength_4", 0xf52;
    MVUPRECISION = "mvuprecision", 0xf53;
    MVUSTATUS = "mvustatus", 0xf54;
    MVUCOMMAND = "mvucommand", 0xf55;
    MVUQUANT = "mvuquant", 0xf56;
    MVUSCALER = "mvuscaler", 0xf57;
    MVUCONFIG1 = "mvuconfig1", 0xf58;
    MVUOMVUSEL = "mvuomvusel", 0xf59;
    MVUIHPBASEADDR = "mvuihpbaseaddr", 0xf5a;
    MVUOHPBASEADDR = "mvuohpbaseaddr", 0xf5b;
    MVUOHPMVUSEL = "mvuohpmvusel", 0xf5c;
    MVUHPJUMP_0 = "mvuhpjump_0", 0xf5d;
    MVUHPJUMP_1 = "mvuhpjump_1", 0xf5e;
    MVUHPJUMP_2 = "mvuhpjump_2", 0xf5f;
    MVUHPJUMP_3 = "mvuhpjump_3", 0xf60;
    MVUHPJUMP_4 = "mvuhpjump_4", 0xf61;
    MVUHPLENGTH_1 = "mvuhplength_1", 0xf62;
    MVUHPLENGTH_2 = "mvuhplength_2", 0xf63;
    MVUHPLENGTH_3 = "mvuhplength_3", 0xf64;
    MVUHPLENGTH_4 = "mvuhplength_4", 0xf65;
    MVUUSESCALER_MEM = "mvuusescaler_mem", 0xf66;
    MVUUSEBIAS_MEM = "mvuusebias_mem", 0xf67;
    MVUUSEPOOLER4HPOUT = "mvuusepooler4hpout", 0xf68;
    MVUUSEHPADDER = "mvuusehpadder", 0xf69;
}

const IJUMP: [Csr; 5] = [MVUIJUMP_0, MVUIJUMP_1, MVUIJUMP_2, MVUIJUMP_3, MVUIJUMP_4];
const WJUMP: [Csr; 5] = [MVUWJUMP_0, MVUWJUMP_1, MVUWJUMP_2, MVUWJUMP_3, MVUWJUMP_4];
const BJUMP: [Csr; 5] = [MVUBJUMP_0, MVUBJUMP_1, MVUBJUMP_2, MVUBJUMP_3, MVUBJUMP_4];
const ILENGTH: [Csr; 4] = [MVUILENGTH_1, MVUILENGTH_2, MVUILENGTH_3, MVUILENGTH_4];
const WLENGTH: [Csr; 4] = [MVUWLENGTH_1, MVUWLENGTH_2, MVUWLENGTH_3, MVUWLENGTH_4];

/// `mvuijump_<k>`, `k` in 0..=4 (clamped).
pub fn ijump(k: usize) -> Csr {
    IJUMP[k.min(4)]
}

/// `mvuwjump_<k>`, `k` in 0..=4 (clamped).
pub fn wjump(k: usize) -> Csr {
    WJUMP[k.min(4)]
}

/// `mvubjump_<k>`, `k` in 0..=4 (clamped).
pub fn bjump(k: usize) -> Csr {
    BJUMP[k.min(4)]
}

/// `mvuilength_<k>`, `k` in 1..=4 (clamped; loop 0 has no length register).
pub fn ilength(k: usize) -> Csr {
    ILENGTH[k.clamp(1, 4) - 1]
}

/// `mvuwlength_<k>`, `k` in 1..=4 (clamped; BARVINN's docs say `mvuwlength_0` is unused).
pub fn wlength(k: usize) -> Csr {
    WLENGTH[k.clamp(1, 4) - 1]
}
