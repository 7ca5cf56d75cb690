//! Small shared structs: `dla_cvt_param` (8 B), `dla_consumer` (4 B),
//! `dla_sdp_cvt` (16 B). In: bytes. Out: typed structs.

use super::codec::{descriptor, Descriptor, Field, Rd, Wr};
use crate::abi::Abi;
use crate::text::Out;

descriptor! {
    /// `struct dla_cvt_param`: input/output conversion.
    pub struct CvtParam = "dla_cvt_param" {
        /// Scale.
        pub scale: i16,
        /// Truncate (right shift).
        pub truncate: u8,
        /// Enable.
        pub enable: u8,
        /// Offset.
        pub offset: i32,
    }
}

/// `dla_consumer.event` values.
pub mod event {
    /// Op completed.
    pub const OP_COMPLETED: u8 = 1;
    /// Op programmed.
    pub const OP_PROGRAMMED: u8 = 2;
    /// Op enabled.
    pub const OP_ENABLED: u8 = 3;
    /// CDMA weights fetched.
    pub const CDMA_WT_DONE: u8 = 4;
    /// CDMA data fetched.
    pub const CDMA_DT_DONE: u8 = 5;

    /// Name of an event.
    pub fn name(v: u8) -> &'static str {
        match v {
            OP_COMPLETED => "COMPLETED",
            OP_PROGRAMMED => "PROGRAMMED",
            OP_ENABLED => "ENABLED",
            CDMA_WT_DONE => "CDMA_WT_DONE",
            CDMA_DT_DONE => "CDMA_DT_DONE",
            _ => "?",
        }
    }
}

/// `struct dla_consumer` (4 B): one edge of the dependency graph.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Consumer {
    /// Op index (−1 = none).
    pub index: i16,
    /// See [`event`].
    pub event: u8,
    /// Reserved.
    pub res: u8,
}

impl Field for Consumer {
    fn get(r: &mut Rd, abi: Abi) -> Self {
        Consumer {
            index: i16::get(r, abi),
            event: u8::get(r, abi),
            res: u8::get(r, abi),
        }
    }
    fn put(&self, w: &mut Wr, abi: Abi) {
        self.index.put(w, abi);
        self.event.put(w, abi);
        self.res.put(w, abi);
    }
    fn token(&self) -> Option<String> {
        let res = if self.res != 0 {
            format!("/res={}", self.res)
        } else {
            String::new()
        };
        Some(format!(
            "{}:{}({}){res}",
            self.index,
            event::name(self.event),
            self.event
        ))
    }
}

impl Descriptor for Consumer {
    const C_NAME: &'static str = "dla_consumer";
    fn size(_abi: Abi) -> usize {
        4
    }
    fn dump_fields(&self, out: &mut Out, abi: Abi) {
        self.show("consumer", out, abi);
    }
}

descriptor! {
    /// `struct dla_sdp_cvt`: ALU and MUL operand conversion.
    pub struct SdpCvt = "dla_sdp_cvt" {
        /// ALU operand conversion.
        pub alu_cvt: CvtParam,
        /// MUL operand conversion.
        pub mul_cvt: CvtParam,
    }
}
