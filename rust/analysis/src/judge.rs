//! Judging one decision: the bot's equities of what was done and of the best alternative.

use crate::record::{Candidate, Decision, Kind, Mark, Options, CANDIDATES};
use gammon_backgammon::dice_game::DiceGame;
use gammon_backgammon::met::MatchEquityTable;
use gammon_backgammon::{Backgammon, Game, Phase, Play, Position, ResultKind};
use gammon_bot::cube::{CubeAction, CubeContext, Stake};
use gammon_bot::search::Bot;
use gammon_core::dice::{Dice, ALL_ROLLS};
use gammon_core::error::{Error, Result};
use gammon_core::Probabilities;

/// A decision found while replaying a game, with the state just before it.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    pub game: usize,
    pub action: usize,
    pub before: Game,
    pub what: What,
}

/// What the task judges.
#[derive(Clone, Debug)]
pub(crate) enum What {
    /// A roll of `dice` by the player on roll in `before` (before the roll, or just after the
    /// opening roll), and the play made (`None` when the roll could not be played, or the game
    /// ended before it was).
    Roll { dice: Dice, opening: bool, play: Option<Play> },
    /// The player on roll could double; `doubled` says whether he did.
    Cube { doubled: bool },
    /// The doubled player took (`Some(true)`), passed (`Some(false)`); beavers count as takes.
    Take { took: bool, beaver: bool },
    /// `player` offered to resign `kind`; the answer if one was recorded.
    Resign { player: u8, kind: ResultKind, accepted: Option<bool> },
}

/// The analysis's engines: the bot at the chosen ply, and one at ply 0 for luck.
pub(crate) struct Judge<'a> {
    pub bot: Bot<'a>,
    pub luck_bot: Bot<'a>,
    pub options: Options,
}

/// The MWC of winning and of losing the current stake for the player `ctx` sees, and whether
/// this is match play at all.
fn stake_mwc(ctx: &CubeContext) -> Option<(f64, f64)> {
    let Stake::Match { away, crawford } = ctx.stake() else { return None };
    let met = MatchEquityTable::kazaross_xg2();
    let post = crawford || ctx.is_post_crawford();
    let mwc = |a: u32, b: u32| match (a, b) {
        (0, _) => 1.0,
        (_, 0) => 0.0,
        _ => met.mwc(a, b, post).unwrap_or(0.5),
    };
    let c = ctx.value();
    Some((mwc(away[0].saturating_sub(c), away[1]), mwc(away[0], away[1].saturating_sub(c))))
}

/// An equivalent money equity as a match winning chance for the player `ctx` sees.
fn to_mwc(ctx: &CubeContext, emg: f64) -> Option<f64> {
    stake_mwc(ctx).map(|(win, lose)| lose + (emg + 1.0) / 2.0 * (win - lose))
}

/// An equity difference as a difference in match winning chance (0 for money).
fn diff_mwc(ctx: &CubeContext, emg: f64) -> f64 {
    stake_mwc(ctx).map_or(0.0, |(win, lose)| emg * (win - lose) / 2.0)
}

/// The mover's cubeful equity after `play`, whose value for the mover is `probs`.
fn after_play(ctx: &CubeContext, play: &Play, probs: &Probabilities) -> f64 {
    let next = Backgammon.after(play);
    match Backgammon.result(&next) {
        Some(points) => ctx.result_equity(-points),
        None => -ctx.swapped().equity(&next, &probs.flipped()),
    }
}

fn record(task: &Task, player: u8, kind: Kind, ctx: &CubeContext) -> Decision {
    let g = &task.before;
    Decision {
        game: task.game,
        action: task.action,
        player,
        kind,
        position_id: g.position_id(),
        match_id: g.match_id(),
        dice: None,
        played: String::new(),
        best: String::new(),
        equity_lost: 0.0,
        mwc_lost: 0.0,
        counted: false,
        mark: Mark::None,
        rank: None,
        alternatives: 1,
        equity: 0.0,
        mwc: None,
        luck: None,
        luck_mwc: 0.0,
        cube_equities: None,
        cube_label: None,
        cube_value: ctx.value(),
        candidates: Vec::new(),
        played_candidate: None,
        cube_probabilities: None,
        cube_mwc: None,
    }
}

impl Judge<'_> {
    /// The decisions `task` holds (none for a cube decision that was neither close nor made).
    pub fn judge(&self, task: &Task) -> Result<Vec<Decision>> {
        match &task.what {
            What::Roll { dice, opening, play } => {
                self.roll(task, *dice, *opening, play.as_ref()).map(|d| vec![d])
            }
            What::Cube { doubled } => self.cube(task, *doubled),
            What::Take { took, beaver } => self.take(task, *took, *beaver).map(|d| vec![d]),
            What::Resign { player, kind, accepted } => self.resign(task, *player, *kind, *accepted),
        }
    }

    fn mark(&self, d: &mut Decision, error: f64, ctx: &CubeContext) {
        d.equity_lost = error.max(0.0);
        d.mwc_lost = diff_mwc(ctx, d.equity_lost);
        d.mark = if d.counted { Mark::of(d.equity_lost, &self.options.thresholds) } else { Mark::None };
    }

    /// The mover's equity after the best play of `dice` by the net at ply 0 (the luck yardstick).
    fn luck_value(&self, position: &Position, dice: Dice, ctx: &CubeContext) -> Result<f64> {
        let best = self.luck_bot.best_play(position, dice, None)?;
        Ok(after_play(ctx, &best.play, &best.probabilities))
    }

    fn roll(&self, task: &Task, dice: Dice, opening: bool, play: Option<&Play>) -> Result<Decision> {
        let g = &task.before;
        let player = g.turn().unwrap_or(0);
        let ctx = CubeContext::from_game(g);
        let position = g.position();
        let mut d = record(task, player, Kind::Checker, &ctx);
        d.dice = Some(dice);
        if !opening {
            // The Match ID with the dice rolled, as GNU Backgammon shows a checker decision.
            let mut rolled = g.clone();
            rolled.set_dice(dice.high(), dice.low())?;
            d.match_id = rolled.match_id();
        }
        // Luck: the rolled dice against every roll (the 15 non-doubles for the opening roll).
        let mut sum = 0.0;
        let mut weight = 0.0;
        for roll in ALL_ROLLS {
            if opening && roll.is_double() {
                continue;
            }
            let w = roll.weight() as f64;
            sum += w * self.luck_value(&position, roll, &ctx)?;
            weight += w;
        }
        let luck = self.luck_value(&position, dice, &ctx)? - sum / weight;
        d.luck = Some(luck);
        d.luck_mwc = diff_mwc(&ctx, luck);
        let ranked = self.bot.rank_plays(&position, dice, Some(&ctx))?;
        d.alternatives = ranked.len();
        let best = &ranked[0];
        d.best = best.play.notation();
        d.equity = best.equity;
        d.mwc = to_mwc(&ctx, best.equity);
        let Some(play) = play else {
            // Unplayable, or left unplayed by a resignation: nothing was chosen.
            d.played = if ranked.len() == 1 { best.play.notation() } else { String::new() };
            return Ok(d);
        };
        d.played = play.notation();
        let Some(k) = ranked.iter().position(|r| r.play.position == play.position) else {
            return Err(Error::IllegalPlay(format!(
                "game {}: {} is not a legal play of {} here",
                task.game + 1,
                play.notation(),
                dice.to_text()
            )));
        };
        let mut played = ranked[k].equity;
        let mut made = Candidate {
            play: ranked[k].play,
            probabilities: ranked[k].probabilities,
            equity: played,
            ply: ranked[k].ply,
        };
        if ranked[k].ply < self.bot.ply() {
            // The move filter stopped the play made short of the full depth: judge it there too.
            let next = Backgammon.after(play);
            if Backgammon.result(&next).is_none() {
                let probs = self.bot.evaluate(&next).flipped();
                played = after_play(&ctx, play, &probs);
                made = Candidate { play: *play, probabilities: probs, equity: played, ply: self.bot.ply() };
            }
        }
        // The best few as ranked, and the play made wherever its value puts it.
        d.candidates = ranked
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .take(CANDIDATES - usize::from(k < CANDIDATES))
            .map(|(_, r)| Candidate {
                play: r.play,
                probabilities: r.probabilities,
                equity: r.equity,
                ply: r.ply,
            })
            .collect();
        let at = d.candidates.iter().position(|c| c.equity < played).unwrap_or(d.candidates.len());
        d.candidates.insert(at, made);
        d.played_candidate = Some(at);
        d.counted = ranked.len() > 1;
        d.rank = Some(1 + ranked.iter().enumerate().filter(|&(j, r)| j != k && r.equity > played).count());
        let error = if d.rank == Some(1) { 0.0 } else { best.equity - played };
        self.mark(&mut d, error, &ctx);
        Ok(d)
    }

    fn cube(&self, task: &Task, doubled: bool) -> Result<Vec<Decision>> {
        let g = &task.before;
        let player = g.turn().unwrap_or(0);
        let ctx = CubeContext::from_game(g);
        let (action, probabilities) = self.bot.cube_action_valued(&g.position(), &ctx)?;
        let double = action.double_take.min(action.double_pass);
        // Not close and not doubled: no decision worth counting, as GNU Backgammon skips them.
        if !doubled && action.no_double - double >= self.options.close_cube {
            return Ok(vec![]);
        }
        let mut d = record(task, player, Kind::Double, &ctx);
        d.counted = true;
        d.played = if doubled { "double" } else { "no double" }.into();
        d.best = if action.double { "double" } else { "no double" }.into();
        d.equity = action.equity();
        d.mwc = to_mwc(&ctx, d.equity);
        d.cube_equities = Some([action.no_double, action.double_take, action.double_pass]);
        d.cube_label = Some(action.label());
        cube_analysis(&mut d, probabilities, &ctx, &action);
        let chosen = if doubled { double } else { action.no_double };
        self.mark(&mut d, action.no_double.max(double) - chosen, &ctx);
        Ok(vec![d])
    }

    fn take(&self, task: &Task, took: bool, beaver: bool) -> Result<Decision> {
        let g = &task.before;
        // Seen by the doubler (still the player on roll), then turned to the taker.
        let doubler = g.turn().unwrap_or(0);
        let ctx = CubeContext::from_game(g);
        let (action, probabilities) = self.bot.cube_action_valued(&g.position(), &ctx)?;
        let mine = ctx.swapped();
        let mut d = record(task, 1 - doubler, Kind::Take, &mine);
        d.counted = true;
        d.played = if beaver {
            "beaver"
        } else if took {
            "take"
        } else {
            "pass"
        }
        .into();
        d.best = if action.take { "take" } else { "pass" }.into();
        d.equity = -action.double_take.min(action.double_pass);
        d.mwc = to_mwc(&mine, d.equity);
        d.cube_equities = Some([action.no_double, action.double_take, action.double_pass]);
        d.cube_label = Some(action.label());
        cube_analysis(&mut d, probabilities, &ctx, &action);
        let (take, pass) = (-action.double_take, -action.double_pass);
        let chosen = if took { take } else { pass };
        self.mark(&mut d, take.max(pass) - chosen, &mine);
        Ok(d)
    }

    /// The cubeful equity of the player on roll in `g` playing on.
    fn play_on(&self, g: &Game, ctx: &CubeContext) -> Result<Option<f64>> {
        let position = g.position();
        Ok(match g.phase() {
            Phase::Rolling => Some(ctx.equity(&position, &self.bot.evaluate(&position))),
            Phase::Moving(dice) => Some(self.bot.rank_plays(&position, dice, Some(ctx))?[0].equity),
            _ => None,
        })
    }

    fn resign(
        &self,
        task: &Task,
        player: u8,
        kind: ResultKind,
        accepted: Option<bool>,
    ) -> Result<Vec<Decision>> {
        let g = &task.before;
        let turn = g.turn().unwrap_or(0);
        let ctx = CubeContext::from_game(g);
        let Some(on_roll) = self.play_on(g, &ctx)? else { return Ok(vec![]) };
        let mine = if player == turn { ctx } else { ctx.swapped() };
        let play_on = if player == turn { on_roll } else { -on_roll };
        let resigned = mine.result_equity(-(kind.multiplier() as i8));
        let mut out = Vec::new();
        let mut d = record(task, player, Kind::Resign, &mine);
        d.played = format!("resign {}", kind.name());
        d.best = if resigned >= play_on { d.played.clone() } else { "play on".into() };
        d.equity = play_on;
        d.mwc = to_mwc(&mine, play_on);
        self.mark(&mut d, play_on - resigned, &mine);
        out.push(d);
        if let Some(accepted) = accepted {
            let theirs = mine.swapped();
            let mut a = record(task, 1 - player, Kind::AcceptResignation, &theirs);
            a.played = if accepted { "accept" } else { "reject" }.into();
            a.best = if -resigned >= -play_on { "accept" } else { "reject" }.into();
            a.equity = -play_on;
            a.mwc = to_mwc(&theirs, -play_on);
            let chosen = if accepted { -resigned } else { -play_on };
            self.mark(&mut a, (-resigned).max(-play_on) - chosen, &theirs);
            out.push(a);
        }
        Ok(out)
    }
}

/// Keeps what a cube decision was judged on for the doubler, the player on roll: the
/// probabilities the bot decided on, and in match play the three equities as match winning
/// chances.
fn cube_analysis(d: &mut Decision, probabilities: Probabilities, ctx: &CubeContext, action: &CubeAction) {
    d.cube_probabilities = Some(probabilities);
    d.cube_mwc = [action.no_double, action.double_take, action.double_pass]
        .iter()
        .map(|&e| to_mwc(ctx, e))
        .collect::<Option<Vec<f64>>>()
        .map(|v| [v[0], v[1], v[2]]);
}
