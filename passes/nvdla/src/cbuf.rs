//! The recorded CBUF plan of a convolution cut into row bands (what
//! `nvdla-split-conv` decides and emission reads).
//!
//! In memory: [`Program::cbuf`](crate::Program::cbuf), by the conv's
//! hardware-layer name. In the text: `nvdla.cbuf = {data_bank = 15 : i64,
//! weight_bank = 1 : i64, out_rows = array<i64: 31, 31, 31, 19>, in_top =
//! array<i64: …>, in_rows = …, pad_top = …, pad_bottom = …, reuse_weights =
//! array<i64: 0, 1, 1, 1>, keep_weights = array<i64: 1, 1, 1, 0>}` on the
//! `nvdla.conv` op (one array element per band; a band's first output row
//! is the sum of the rows of the bands before it).

/// One descriptor pair's share of a convolution's output rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowBand {
    /// First output row.
    pub out_top: usize,
    /// Number of output rows.
    pub out_rows: usize,
    /// First input line read.
    pub in_top: usize,
    /// Number of input lines read.
    pub in_rows: usize,
    /// Padding above this band's lines.
    pub pad_top: usize,
    /// Padding below this band's lines.
    pub pad_bottom: usize,
    /// Use the weights the previous band left in the CBUF.
    pub reuse_weights: bool,
    /// Leave the weights in the CBUF for the next band (skip their release).
    pub keep_weights: bool,
}

/// CBUF banks and row bands of one convolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CbufPlan {
    /// Banks holding input lines.
    pub data_bank: usize,
    /// Banks holding weights.
    pub weight_bank: usize,
    /// The bands, top to bottom, covering every output row once.
    pub bands: Vec<RowBand>,
}
