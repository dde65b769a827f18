//! Interchange formats: GNU Backgammon Position IDs, XGIDs and play notation.

pub mod notation;
pub mod position_id;
pub mod xgid;
