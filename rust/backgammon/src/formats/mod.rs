//! Interchange formats: GNU Backgammon Position and Match IDs, XGIDs, play notation and `.mat`
//! match files, and [`reader`], the one reader of positions as people type them.

pub mod mat;
pub mod match_id;
pub mod notation;
pub mod position_id;
pub mod reader;
pub mod sgf;
pub mod xgid;
