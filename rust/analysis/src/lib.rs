//! gammon-analysis: a match or money session analysed decision by decision: checker plays and cube
//! actions judged by the bot, the luck of each roll, and per-player totals.
