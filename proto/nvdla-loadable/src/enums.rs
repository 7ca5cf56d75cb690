//! Open enums of the loadable schema (`proto/nvdla/loadable.fbs` §1.3).
//!
//! In: raw integers from the container. Out: newtypes that keep any value
//! (so unknown values and flag combinations round-trip) with named constants,
//! `name()` and `Display` (`DLA1`, `ALLOC|SET`, `?(42)` for unknown values).

macro_rules! open_enum {
    ($(#[$doc:meta])* $name:ident : $repr:ty { $($(#[$vdoc:meta])* $v:ident = $n:expr),* $(,)? }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name(pub $repr);

        #[allow(non_upper_case_globals)]
        impl $name {
            $( $(#[$vdoc])* pub const $v: $name = $name($n); )*

            /// The schema name of this value, if it has one.
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $( $n => Some(stringify!($v)), )*
                    _ => None,
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                match self.name() {
                    Some(n) => f.write_str(n),
                    None => write!(f, "?({})", self.0),
                }
            }
        }
    };
}

open_enum!(
    /// Engine interface of a task, blob or relocation.
    Interface: u32 {
        /// No interface (raw data).
        NONE = 0,
        /// NVDLA firmware descriptors.
        DLA1 = 1,
        /// CPU emulator descriptors.
        EMU1 = 2,
    }
);

open_enum!(
    /// Memory domain of a memory-list entry.
    MemoryDomain: u8 {
        /// DRAM.
        SYSTEM = 0,
        /// CV-SRAM (never allocated by the open-source runtime).
        SRAM = 1,
    }
);

open_enum!(
    /// Event type (never written by the compiler).
    EventType: u8 {
        /// Type 0.
        EVENTTYPE0 = 0,
        /// Type 1.
        EVENTTYPE1 = 1,
        /// Type 2.
        EVENTTYPE2 = 2,
    }
);

open_enum!(
    /// Event operation.
    EventOp: u8 {
        /// Wait for the event.
        WAIT = 0,
        /// Signal the event.
        SIGNAL = 1,
    }
);

open_enum!(
    /// Tensor data format.
    DataFormat: u8 {
        /// Unknown.
        UNKNOWN = 0,
        /// NCHW.
        NCHW = 1,
        /// NHWC.
        NHWC = 2,
        /// NVDLA's channel-grouped feature layout.
        NCxHWx = 3,
    }
);

open_enum!(
    /// Tensor element type.
    DataType: u8 {
        /// Unknown.
        UNKNOWN = 0,
        /// fp32.
        FLOAT = 1,
        /// fp16.
        HALF = 2,
        /// int16.
        INT16 = 3,
        /// int8.
        INT8 = 4,
        /// uint8.
        UINT8 = 5,
        /// uint16.
        UINT16 = 6,
    }
);

open_enum!(
    /// Tensor data category.
    DataCategory: u8 {
        /// Image.
        IMAGE = 0,
        /// Weights.
        WEIGHT = 1,
        /// Feature map.
        FEATURE = 2,
        /// Planar.
        PLANAR = 3,
        /// Bias.
        BIAS = 4,
    }
);

open_enum!(
    /// Pixel mapping.
    PixelMapping: u8 {
        /// Pitch linear.
        PITCH_LINEAR = 0,
        /// Invalid.
        INVALID_PIXEL_MAP = 1,
    }
);

open_enum!(
    /// Relocation type.
    RelocType: u8 {
        /// Element.
        ELEM = 0,
        /// Line stride.
        LINE = 1,
        /// Surface stride.
        SURF = 2,
        /// Tensor.
        TENSOR = 3,
    }
);

/// Pixel format of a tensor desc: the firmware's `FORMAT_T_*` 0..35, plus
/// `FEATURE` 36 and `FEATURE_X8` 37.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct PixelFormat(pub u8);

impl PixelFormat {
    /// Feature data, 32-byte atoms (nv_full, nv_large).
    pub const FEATURE: PixelFormat = PixelFormat(36);
    /// Feature data, 8-byte atoms (nv_small).
    pub const FEATURE_X8: PixelFormat = PixelFormat(37);
}

impl std::fmt::Display for PixelFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            36 => f.write_str("FEATURE"),
            37 => f.write_str("FEATURE_X8"),
            n if n < 36 => write!(f, "FORMAT_T_{n}"),
            n => write!(f, "?({n})"),
        }
    }
}

/// Sub-interface of a blob or relocation (the meaning depends on the interface).
pub mod sub_interface {
    /// None.
    pub const NONE: u32 = 0;
    /// Network descriptor (`addr0`).
    pub const ADDR0: u32 = 1;
    /// Dependency graph (DLA only).
    pub const DEPS: u32 = 2;
    /// Operation descriptors.
    pub const OPS: u32 = 3;
    /// Surface descriptors (EMU: operation buffer descriptors).
    pub const SURFS: u32 = 4;
    /// LUT parameters (DLA only).
    pub const LUTS: u32 = 5;

    /// Name of a sub-interface value.
    pub fn name(v: u32) -> &'static str {
        match v {
            NONE => "NONE",
            ADDR0 => "ADDR0",
            DEPS => "DEPS",
            OPS => "OPS",
            SURFS => "SURFS",
            LUTS => "LUTS",
            _ => "?",
        }
    }
}

/// Memory flags: a bit set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct MemoryFlags(pub u16);

impl MemoryFlags {
    /// No flag.
    pub const NONE: MemoryFlags = MemoryFlags(0);
    /// The runtime allocates the memory.
    pub const ALLOC: MemoryFlags = MemoryFlags(1);
    /// The runtime copies `contents` in.
    pub const SET: MemoryFlags = MemoryFlags(2);
    /// Bindable input.
    pub const INPUT: MemoryFlags = MemoryFlags(4);
    /// Bindable output.
    pub const OUTPUT: MemoryFlags = MemoryFlags(8);
    /// Debug (C header only).
    pub const DEBUG: MemoryFlags = MemoryFlags(16);

    /// Whether every bit of `other` is set.
    pub fn contains(self, other: MemoryFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::fmt::Display for MemoryFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0 == 0 {
            return f.write_str("NONE");
        }
        let names = [
            (1, "ALLOC"),
            (2, "SET"),
            (4, "INPUT"),
            (8, "OUTPUT"),
            (16, "DEBUG"),
        ];
        let mut parts: Vec<String> = names
            .iter()
            .filter(|(b, _)| self.0 & b != 0)
            .map(|(_, n)| (*n).to_string())
            .collect();
        let rest = self.0 & !31;
        if rest != 0 {
            parts.push(format!("0x{rest:x}"));
        }
        f.write_str(&parts.join("|"))
    }
}
