//! Legalization: rewriting what a target cannot run into what it can.

pub mod pass;
