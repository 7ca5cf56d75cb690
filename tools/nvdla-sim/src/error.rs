//! The simulator's one error type. Every error names where it happened: the
//! task, the op (by index and engine) and, for memory faults, the surface
//! and the address.

/// Where in the loadable an error happened: `task 1, op 3 (SDP)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct At {
    /// Task index in `task_list`.
    pub task: usize,
    /// Op index in the task's dependency graph (or EMU op list).
    pub op: Option<usize>,
    /// Engine name (`CONV`, `SDP`, `PDP`, `CDP`, `RUBIK`, `BDMA`, `EMU`).
    pub engine: &'static str,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "task {}", self.task)?;
        if let Some(op) = self.op {
            write!(f, ", op {op}")?;
        }
        if !self.engine.is_empty() {
            write!(f, " ({})", self.engine)?;
        }
        Ok(())
    }
}

/// Why a simulation failed (the crate's one error type).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The loadable cannot be read or the firmware would reject it (the
    /// reason is the verifier's wording where the verifier has a rule).
    #[error("loadable rejected: {0}")]
    Rejected(String),
    /// An access outside the memory an address resolves to.
    #[error("{at}: surface '{surface}' reads/writes {len} bytes at memory {mem} offset {offset}, outside the memory ({mem_size} bytes)")]
    OutOfBounds {
        /// Where.
        at: At,
        /// Which surface of the op (`src`, `dst`, `weight`, `x1`, …).
        surface: &'static str,
        /// Memory id.
        mem: u16,
        /// Byte offset in that memory.
        offset: u64,
        /// Access length.
        len: u64,
        /// Size of the memory.
        mem_size: u64,
    },
    /// A descriptor value the simulator (or the hardware) does not support.
    #[error("{at}: {what}")]
    Unsupported {
        /// Where.
        at: At,
        /// What is unsupported and why.
        what: String,
    },
    /// Inputs do not match the loadable's bindable tensors.
    #[error("input: {0}")]
    Input(String),
    // ---- one pooling plane (`pdp::plane`); the PDP engine reports these as
    // `Unsupported` with the split and the output size ----
    /// Pooling output `(x, y)` lies outside the programmed output plane.
    #[error("pooling window ({0}, {1}) falls outside the output plane")]
    PoolOutside(usize, usize),
    /// Pooling output `(x, y)` of the programmed plane has no input in its window.
    #[error("pooling output ({0}, {1}) has no input in its window")]
    PoolUnreached(usize, usize),
}

/// Result with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
