//! gammon-analysis: a match or money session analysed decision by decision: checker plays and cube
//! actions judged by the bot, the luck of each roll, and per-player totals.
//!
//! Every game is replayed through the rules to find its decisions; the decisions are then judged
//! in parallel (rayon), each on its own, so the result does not depend on the number of threads.
//! Equities are cubeful at the score: equivalent money equity normalised to the cube in play
//! (GNU Backgammon's "EMG"), with the match winning chance beside it in match play.
//!
//! ```
//! use gammon_analysis::{analyse, Options};
//! use gammon_backgammon::Match;
//! let text = " 1 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: 8/5 6/5              52: 13/11 13/8\n  2)  Doubles => 2           Drops\n      Wins 1 point and the match\n";
//! let m = Match::from_mat(text).unwrap();
//! let a = analyse(&m, &Options::default(), None).unwrap();
//! assert_eq!(a.decisions.iter().filter(|d| d.kind == gammon_analysis::Kind::Take).count(), 1);
//! ```

pub mod json;
mod judge;
pub mod record;
pub mod sgf;

pub use record::{
    luck_rating, rating, Analysis, Candidate, Decision, Kind, LuckMark, Mark, Options, PlayerTotals,
    Thresholds, CANDIDATES, DEFAULT_THRESHOLDS, LUCKY, VERY_LUCKY,
};

use gammon_backgammon::{Action, Game, Match, Phase};
use gammon_bot::search::Bot;
use gammon_core::error::{Error, Result};
use judge::{Judge, Task, What};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Called with (decisions judged, decisions in all) as the work goes on; `false` stops it.
pub type Progress<'a> = &'a (dyn Fn(usize, usize) -> bool + Sync);

/// Every decision of `game` (the `index`-th of its match) with the state before it.
fn tasks_of(index: usize, game: &Game) -> Result<Vec<Task>> {
    if !game.starts_from_opening() {
        return Err(Error::InvalidArgument(format!(
            "game {} starts from a set-up position: only games from the opening can be analysed",
            index + 1
        )));
    }
    let mut g = Game::with_context(Some(0), *game.rules(), *game.context());
    let mut tasks: Vec<Task> = Vec::new();
    // The roll whose play is still to come, and the resignation still to be answered.
    let mut open_roll: Option<usize> = None;
    let mut open_resign: Option<usize> = None;
    for (k, action) in game.history().iter().enumerate() {
        let task = |what| Task { game: index, action: k, before: g.clone(), what };
        match *action {
            Action::Roll { dice, .. } => {
                // A dead cube (files may double it anyway) offers no decision worth judging.
                if g.may_double() && !g.cube_is_dead() {
                    tasks.push(task(What::Cube { doubled: false }));
                }
                open_roll = Some(tasks.len());
                tasks.push(task(What::Roll { dice, opening: false, play: None }));
            }
            Action::Double { .. } => tasks.push(task(What::Cube { doubled: true })),
            Action::Take { .. } | Action::Drop { .. } | Action::Beaver { .. }
                if g.phase() == Phase::Doubled =>
            {
                let took = !matches!(action, Action::Drop { .. });
                let beaver = matches!(action, Action::Beaver { .. });
                tasks.push(task(What::Take { took, beaver }));
            }
            Action::Play { play, .. } => {
                if let Some(t) = open_roll.take().and_then(|i| tasks.get_mut(i)) {
                    if let What::Roll { play: p, .. } = &mut t.what {
                        *p = Some(play);
                    }
                }
            }
            Action::Resign { player, kind } => {
                open_resign = Some(tasks.len());
                tasks.push(task(What::Resign { player, kind, accepted: None }));
            }
            Action::AcceptResignation { .. } | Action::RejectResignation { .. } => {
                let yes = matches!(action, Action::AcceptResignation { .. });
                if let Some(t) = open_resign.take().and_then(|i| tasks.get_mut(i)) {
                    if let What::Resign { accepted, .. } = &mut t.what {
                        *accepted = Some(yes);
                    }
                }
            }
            _ => {}
        }
        g.apply(action)
            .map_err(|e| Error::InvalidArgument(format!("game {}, action {}: {e}", index + 1, k + 1)))?;
        if let Action::OpeningRoll { .. } = action {
            if let (Phase::Moving(dice), Some(_)) = (g.phase(), g.turn()) {
                open_roll = Some(tasks.len());
                tasks.push(Task {
                    game: index,
                    action: k,
                    before: g.clone(),
                    what: What::Roll { dice, opening: true, play: None },
                });
            }
        }
    }
    Ok(tasks)
}

/// Analyses every decision of every game of `m` with the bot at `options.ply`, in parallel on
/// the current rayon pool; `progress` hears how far it got and may stop it (an error then).
pub fn analyse(m: &Match, options: &Options, progress: Option<Progress<'_>>) -> Result<Analysis> {
    let bot = Bot::new(options.ply)?;
    let judge = Judge { bot, luck_bot: Bot::new(0)?, options: *options };
    let mut tasks = Vec::new();
    for (k, game) in m.games().iter().enumerate() {
        tasks.extend(tasks_of(k, game)?);
    }
    let total = tasks.len();
    let done = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // One report at a time, in increasing order.
    let reported = Mutex::new(0usize);
    let judged: Vec<Result<Vec<Decision>>> = tasks
        .par_iter()
        .map(|task| {
            if stop.load(Ordering::Relaxed) {
                return Err(Error::InvalidArgument("the analysis was stopped".into()));
            }
            let out = judge.judge(task);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(report) = progress {
                let mut last = reported.lock().unwrap_or_else(|e| e.into_inner());
                if n > *last && !report(n, total) {
                    stop.store(true, Ordering::Relaxed);
                }
                *last = (*last).max(n);
            }
            out
        })
        .collect();
    let mut decisions = Vec::new();
    for d in judged {
        decisions.extend(d?);
    }
    if stop.load(Ordering::Relaxed) {
        return Err(Error::InvalidArgument("the analysis was stopped".into()));
    }
    let mut players: [PlayerTotals; 2] = Default::default();
    for (p, name) in players.iter_mut().zip(m.names()) {
        p.name = name.clone();
    }
    // Luck in the unit of the result: match winning chance, or points (luck times the cube).
    let mut luck_cost = [0.0f64; 2];
    for d in &decisions {
        add(&mut players[d.player as usize], d);
        if let Some(luck) = d.luck {
            luck_cost[d.player as usize] +=
                if m.length() > 0 { d.luck_mwc } else { luck * f64::from(d.cube_value) };
        }
    }
    let result = results(m);
    for p in 0..2 {
        players[p].result = result[p];
        players[p].luck_adjusted_result = result[p] - luck_cost[p] + luck_cost[1 - p];
    }
    Ok(Analysis {
        length: m.length(),
        games: m.games().len(),
        ply: options.ply,
        thresholds: options.thresholds,
        decisions,
        players,
    })
}

/// What the finished games gave each player: the gain in match winning chance since 0-0 (from the
/// built-in match equity table; 0 beyond its size), or the points won in money play.
fn results(m: &Match) -> [f64; 2] {
    let finished: Vec<&Game> = m.games().iter().filter(|g| g.is_over()).collect();
    if m.length() == 0 {
        let mut r = [0.0; 2];
        for g in finished {
            if let Some(res) = g.result() {
                r[res.winner as usize] += f64::from(res.points);
                r[1 - res.winner as usize] -= f64::from(res.points);
            }
        }
        return r;
    }
    let score = if m.game().is_over() { m.score() } else { m.game().context().score };
    // The game after a player first reaches N-1 is the Crawford game; later ones are post-Crawford.
    let at_edge = |s: [u32; 2]| s.iter().any(|&x| x + 1 == m.length());
    let post = at_edge(score) && m.games().iter().any(|g| at_edge(g.context().score));
    let met = gammon_backgammon::MatchEquityTable::kazaross_xg2();
    let mut r = [0.0; 2];
    for p in 0..2u8 {
        let now = met.mwc_at_score(score, m.length(), p, post);
        let start = met.mwc_at_score([0, 0], m.length(), p, false);
        if let (Ok(now), Ok(start)) = (now, start) {
            r[p as usize] = now - start;
        }
    }
    r
}

/// Counts `d` in its player's totals.
fn add(p: &mut PlayerTotals, d: &Decision) {
    if let Some(luck) = d.luck {
        p.luck += luck;
        p.luck_mwc += d.luck_mwc;
    }
    match d.kind {
        Kind::Checker => {
            p.plays += 1;
            if d.counted {
                p.unforced_plays += 1;
                p.checker_error += d.equity_lost;
                p.checker_error_mwc += d.mwc_lost;
            }
        }
        Kind::Double | Kind::Take => {
            p.cube_decisions += 1;
            p.cube_error += d.equity_lost;
            p.cube_error_mwc += d.mwc_lost;
            if d.equity_lost > 0.0 {
                match (d.kind, d.played.as_str()) {
                    (Kind::Double, "double") => p.wrong_doubles += 1,
                    (Kind::Double, _) => p.missed_doubles += 1,
                    (_, "pass") => p.wrong_passes += 1,
                    _ => p.wrong_takes += 1,
                }
            }
        }
        Kind::Resign | Kind::AcceptResignation => p.resignation_error += d.equity_lost,
    }
    match d.luck_mark() {
        LuckMark::VeryLucky => p.very_lucky += 1,
        LuckMark::Lucky => p.lucky += 1,
        LuckMark::None => {}
        LuckMark::Unlucky => p.unlucky += 1,
        LuckMark::VeryUnlucky => p.very_unlucky += 1,
    }
    match d.mark {
        Mark::None => {}
        Mark::Doubtful => p.doubtful += 1,
        Mark::Bad => p.bad += 1,
        Mark::VeryBad => p.very_bad += 1,
    }
}

#[cfg(test)]
mod tests;
