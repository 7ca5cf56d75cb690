//! Every output the onnc tools write goes through this crate.
//!
//! The rules (docs/reliability.md, "Outputs"):
//! * a **regular file** (or a path that does not exist yet) is replaced
//!   atomically: the bytes go to a temporary file beside it, which is renamed
//!   over the target — readers see the old file or the new one, never a part;
//! * an existing **non-regular file** (character or block device, FIFO,
//!   socket) is written in place, as LLVM's `ToolOutputFile` does, and write
//!   errors (ENOSPC on a full device) are reported, never ignored;
//! * `-` is standard output;
//! * a **directory output** (NNIE package, MVU configuration) is built in a
//!   temporary sibling and swapped in whole with one `renameat2(EXCHANGE)`;
//!   it may replace only an empty directory or an earlier output of the same
//!   kind (recognised by a marker file);
//! * an output that is also an input (same device and inode) is refused
//!   before anything is written ([`check_outputs`]);
//! * an input that is not a regular file (FIFO, device) is refused before
//!   it is opened ([`check_inputs`]): reading it could block forever;
//! * temporaries are named `.<name>.onnc-tmp-<pid>-<n>`; one left behind by
//!   a process that was killed is removed by the next write to the same
//!   target ([`temp::sweep_stale`]).
//!
//! ```
//! let dir = std::env::temp_dir().join(format!("onnc-io-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let out = dir.join("model.nvdla");
//! onnc_io::write_file(&out, b"bytes").unwrap();
//! assert_eq!(std::fs::read(&out).unwrap(), b"bytes");
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod check;
mod dir;
mod error;
mod file;
pub mod stderr;
pub mod stdout;
pub mod temp;

pub use check::{check_inputs, check_outputs, OutputKind};
pub use dir::{write_dir, DirFile};
pub use error::Error;
pub use file::{write_file, write_file_with};
