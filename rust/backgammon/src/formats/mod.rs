//! Interchange formats: GNU Backgammon Position and Match IDs, XGIDs, play notation and `.mat`
//! match files.

pub mod mat;
pub mod match_id;
pub mod notation;
pub mod position_id;
pub mod xgid;
