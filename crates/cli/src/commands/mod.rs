//! The verbs, one module each (`carc variation` and `carc record` keep their sub-verbs in one
//! module). Each verb returns the process exit code; errors that stop a verb are `anyhow`
//! errors printed by `main` with exit code 2 (among them "store … is in use by another
//! process").
//!
//! A verb module uses the shared modules of the crate (`input`, `store_context`, `companions`,
//! `json`, …) and never another verb: what two verbs share lives in a shared module.

pub mod analyze;
pub mod annotate;
pub mod check;
pub mod completions;
pub mod engine;
pub mod explain;
pub mod export;
pub mod games;
pub mod import;
pub mod legal;
pub mod map;
pub mod match_;
pub mod puzzles;
pub mod rebuild;
pub mod record;
pub mod render;
pub mod replay;
pub mod salvage;
pub mod simulate;
pub mod tiles;
pub mod train;
pub mod variation;
pub mod verify;
