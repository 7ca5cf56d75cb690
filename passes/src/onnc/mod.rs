//! Passes that work on all of onnc's dialects.

pub mod dce;
pub mod verify;
