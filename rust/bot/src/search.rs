//! The bot: the neural net looking 0, 1 or 2 plies ahead.
//!
//! A play's value at ply 0 is the net's view of the position after it. At ply `n > 0` it is the
//! average, over the opponent's 21 rolls, of the value of the opponent's best reply, that reply
//! chosen by the net at ply 0 and then valued at ply `n - 1` (choosing inner replies at ply 0
//! keeps a 2-ply decision to tens of thousands of evaluations). As GNU Backgammon prunes its
//! search, a reply is chosen among only the [`REPLY_SCREEN`] (8) candidates of its roll that the
//! small screen net ([`crate::net::screen`]) ranks highest, and any tied with the last of them:
//! the full nets judge those alone ([`Bot::with_reply_screen`]; 0 judges every candidate). Move
//! filters decide which plays are looked at more deeply: the best [`Bot::filter`] plays at ply 0
//! (all judged by the full nets) are judged at ply 1, and at 2-ply the best [`Bot::deep_filter`]
//! of those (4) that are within [`Bot::deep_margin`] (0.08) of the best at ply 1 go on to ply 2.
//! A play keeps the value of the deepest ply it reached, and plays judged deeper rank above the
//! others. Measured on 400 positions, these 2-ply filters pick the same play as sending all eight
//! plays to ply 2 in 99% of decisions, for a mean loss of 0.00002 (by that search's own values),
//! in about a third of its time.
//!
//! The rest of the work is cut without changing a value: the replies are chosen among the
//! resulting positions of the positions-only generator, each distinct result judged once per
//! position (the screen scores a resulting position to the same bit as the play that leads
//! there, and a cut between equal scores keeps them all, so the choice does not depend on the
//! order of the candidates); the replies found at ply 1 are reused at ply 2; and values at ply 1
//! and 2 found with the shipped nets are remembered per thread, for the positions that recur
//! between searches (in an analysis, the cube decision before a roll is the value the previous
//! play was judged at), by position, ply and screen width.

use super::cube::{lookahead, CubeAction, CubeContext};
use super::net::screen::Screen;
use super::net::{position_hash, Judged, NeuralNet};
use super::{Evaluator, Policy, Probabilities};
use gammon_backgammon::board::Position;
use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::moves::{legal_plays_into, legal_positions_into, Play};
use gammon_core::dice::{Dice, DiceStream, ALL_ROLLS};
use gammon_core::error::{Error, Result};

/// The deepest search offered.
pub const MAX_PLY: u8 = 2;

/// How many candidates of a roll the full nets judge, by default, when the search chooses a
/// reply ([`Bot::with_reply_screen`]): the screen's best 8, as the rollouts' net policy does.
pub const REPLY_SCREEN: usize = 8;

/// A play with its value for the player who makes it and the ply it was judged at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedPlay {
    /// The play.
    pub play: Play,
    /// Its outcome probabilities for the mover.
    pub probabilities: Probabilities,
    /// The ply the value comes from (below the bot's ply for plays the filter dropped).
    pub ply: u8,
    /// Its equity for the mover: cubeless per unit stake from [`Bot::rank_plays`], cubeful in
    /// the cube and score context given to [`Bot::rank_plays`].
    pub equity: f64,
}

/// The neural-net player at a fixed search depth.
///
/// ```
/// use gammon_bot::search::Bot;
/// use gammon_backgammon::{Dice, Position};
/// let bot = Bot::new(0).unwrap();
/// let ranked = bot.rank_plays(&Position::initial(), Dice::new(3, 1).unwrap(), None).unwrap();
/// assert_eq!(ranked.len(), 16);
/// assert!(ranked[0].probabilities.equity() >= ranked[1].probabilities.equity());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Bot<'a> {
    net: &'a NeuralNet,
    /// [`NeuralNet::shipped`] of the net: the memo of deeper values is kept for shipped nets only.
    shipped: u8,
    ply: u8,
    filter: usize,
    deep_filter: usize,
    deep_margin: f64,
    reply_screen: usize,
}

impl Bot<'static> {
    /// The shipped net searching `ply` plies (0..=2).
    pub fn new(ply: u8) -> Result<Bot<'static>> {
        Bot::with_net(NeuralNet::builtin(), ply)
    }
}

impl<'a> Bot<'a> {
    /// A bot on the given nets.
    pub fn with_net(net: &'a NeuralNet, ply: u8) -> Result<Bot<'a>> {
        if ply > MAX_PLY {
            return Err(Error::InvalidArgument(format!("ply must be 0, 1 or 2, got {ply}")));
        }
        Ok(Bot {
            net,
            shipped: net.shipped(),
            ply,
            filter: 8,
            deep_filter: 4,
            deep_margin: 0.08,
            reply_screen: REPLY_SCREEN,
        })
    }

    /// The same bot keeping the best `filter` plays (at least 1) at ply 0 for deeper search.
    pub fn with_filter(mut self, filter: usize) -> Bot<'a> {
        self.filter = filter.max(1);
        self
    }

    /// The search depth.
    pub fn ply(&self) -> u8 {
        self.ply
    }

    /// The same bot keeping the best `deep_filter` plays (at least 1) at ply 1 for 2-ply.
    pub fn with_deep_filter(mut self, deep_filter: usize) -> Bot<'a> {
        self.deep_filter = deep_filter.max(1);
        self
    }

    /// The same bot searching at ply 2 only the plays within `margin` equity of the best at
    /// ply 1 (and at most [`Bot::deep_filter`] of them).
    pub fn with_deep_margin(mut self, margin: f64) -> Bot<'a> {
        self.deep_margin = margin;
        self
    }

    /// The same bot choosing each reply inside the search among the `keep` candidates of its
    /// roll that the screen ranks highest (and any tied with the last of them), or among all
    /// candidates for `keep` 0.
    pub fn with_reply_screen(mut self, keep: usize) -> Bot<'a> {
        self.reply_screen = keep;
        self
    }

    /// How many candidates of each roll, at most (barring ties), the full nets judge for a
    /// reply inside the search; 0 for all of them.
    pub fn reply_screen(&self) -> usize {
        self.reply_screen
    }

    /// How many plays are searched beyond ply 0.
    pub fn filter(&self) -> usize {
        self.filter
    }

    /// At 2-ply, how many of the plays judged at ply 1 are searched at ply 2, at most.
    pub fn deep_filter(&self) -> usize {
        self.deep_filter
    }

    /// At 2-ply, how far behind the best play at ply 1 a play may be and still be searched at
    /// ply 2.
    pub fn deep_margin(&self) -> f64 {
        self.deep_margin
    }

    /// The nets.
    pub fn net(&self) -> &'a NeuralNet {
        self.net
    }

    /// The index of the best of `plays` (the legal plays from `position`, not empty).
    pub fn best_index(&self, position: &Position, plays: &[Play]) -> usize {
        if plays.len() == 1 {
            return 0;
        }
        if self.ply == 0 {
            return self.net.best_of_all(position, plays).0;
        }
        self.search(position, plays)[0].0
    }

    /// Every one of `plays` (the legal plays from `position`) with its value at the deepest ply
    /// the move filters let it reach and that ply, best first: deeper plies first, then by
    /// equity, the first of equals first.
    fn search(&self, position: &Position, plays: &[Play]) -> Vec<(usize, Probabilities, u8)> {
        let mut values = Vec::with_capacity(plays.len());
        self.net.evaluate_plays(position, plays, &mut values);
        let mut ranked: Vec<(usize, Probabilities, u8)> =
            ranked_order(&values).into_iter().map(|k| (k, values[k], 0)).collect();
        // The opponent's best replies found at ply 1, which ply 2 starts from again.
        let mut replies: Vec<(usize, Box<Replies>)> = Vec::new();
        for ply in 1..=self.ply {
            let mut keep = if ply == 1 { self.filter } else { self.deep_filter }.min(plays.len());
            if ply == 2 {
                // Plays far behind the best at ply 1 are not worth a deeper look.
                let best = ranked[0].1.equity();
                keep = ranked[..keep].iter().take_while(|r| r.1.equity() >= best - self.deep_margin).count();
            }
            let head = &mut ranked[..keep];
            for entry in head.iter_mut() {
                let next = Backgammon.after(&plays[entry.0]);
                let value = match Backgammon.result(&next) {
                    Some(points) => Probabilities::from_points(-points),
                    None if ply == 1 && self.ply == 2 => {
                        let found = self.memo_get(&next, 1).map(|v| (v, None)).unwrap_or_else(|| {
                            let r = self.replies(&next);
                            let v = r.value;
                            self.memo_put(&next, 1, v);
                            (v, Some(r))
                        });
                        if let (_, Some(r)) = found {
                            replies.push((entry.0, Box::new(r)));
                        }
                        found.0.flipped()
                    }
                    None if ply == 2 => match replies.iter().find(|(k, _)| *k == entry.0) {
                        Some((_, r)) => self.memo_or(&next, 2, || self.deeper(r, 1)).flipped(),
                        None => self.position_value(&next, 2).flipped(),
                    },
                    None => self.position_value(&next, ply).flipped(),
                };
                *entry = (entry.0, value, ply);
            }
            head.sort_by(|a, b| b.1.equity().total_cmp(&a.1.equity()));
        }
        ranked
    }

    /// Every legal play of `dice` with its value, best first; an error if the game is over.
    ///
    /// Without a context the plays are ranked by cubeless equity per unit stake. With one (the
    /// cube and the score, seen by the mover) they are ranked by cubeful equity in it: the
    /// search is the same, only the yardstick changes, so that, say, a gammonish play is
    /// preferred where gammons count double and avoided where they count for nothing.
    ///
    /// ```
    /// use gammon_bot::cube::{CubeContext, CubeOwner};
    /// use gammon_bot::search::Bot;
    /// use gammon_backgammon::{Dice, Position};
    /// let ctx = CubeContext::match_play([2, 2], 1, CubeOwner::Centred, false).unwrap();
    /// let ranked = Bot::new(0).unwrap().rank_plays(&Position::initial(), Dice::new(6, 4).unwrap(), Some(&ctx)).unwrap();
    /// assert!(ranked.windows(2).all(|w| w[0].equity >= w[1].equity));
    /// ```
    pub fn rank_plays(
        &self,
        position: &Position,
        dice: Dice,
        context: Option<&CubeContext>,
    ) -> Result<Vec<RankedPlay>> {
        game_running(position)?;
        let mut plays = vec![];
        legal_plays_into(position, dice, &mut plays);
        let mut ranked: Vec<RankedPlay> = self
            .search(position, &plays)
            .into_iter()
            .map(|(k, probabilities, ply)| RankedPlay {
                play: plays[k],
                probabilities,
                ply,
                equity: probabilities.equity(),
            })
            .collect();
        if let Some(context) = context {
            let theirs = context.swapped();
            for r in ranked.iter_mut() {
                let next = Backgammon.after(&r.play);
                r.equity = match Backgammon.result(&next) {
                    Some(points) => context.result_equity(-points),
                    None => -theirs.equity(&next, &r.probabilities.flipped()),
                };
            }
            ranked.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        }
        Ok(ranked)
    }

    /// The cube decision of the player on roll in `position` (before rolling) in `context`, on
    /// the bot's evaluation at its ply, or where both sides are bearing off by looking two plies
    /// ahead over the bear-off databases ([`lookahead`]); an error if the game is over.
    ///
    /// ```
    /// use gammon_bot::cube::CubeContext;
    /// use gammon_bot::search::Bot;
    /// use gammon_backgammon::Position;
    /// let d = Bot::new(0).unwrap().cube_action(&Position::initial(), &CubeContext::default()).unwrap();
    /// assert!(!d.double && d.take);
    /// ```
    pub fn cube_action(&self, position: &Position, context: &CubeContext) -> Result<CubeAction> {
        Ok(self.cube_action_valued(position, context)?.0)
    }

    /// [`Bot::cube_action`] and the probabilities it was decided on (this bot's evaluation of
    /// `position`), for callers that keep them beside the decision.
    pub fn cube_action_valued(
        &self,
        position: &Position,
        context: &CubeContext,
    ) -> Result<(CubeAction, Probabilities)> {
        game_running(position)?;
        let probabilities = self.evaluate(position);
        let action = lookahead::decide(context, position, lookahead::PLIES)
            .unwrap_or_else(|| context.decide(position, &probabilities));
        Ok((action, probabilities))
    }

    /// The best play of `dice` from `position` and its value, by cubeful equity in `context` or
    /// by cubeless equity without one (at ply 0 [`NeuralNet::best_of_all`], which needs no
    /// sorting); always the first play of [`Bot::rank_plays`] in the same context. An error if
    /// the game is over.
    pub fn best_play(
        &self,
        position: &Position,
        dice: Dice,
        context: Option<&CubeContext>,
    ) -> Result<RankedPlay> {
        if context.is_some() {
            // Never empty: a blocked roll still has its one empty play.
            return Ok(self.rank_plays(position, dice, context)?.swap_remove(0));
        }
        game_running(position)?;
        let mut plays = vec![];
        legal_plays_into(position, dice, &mut plays);
        // The search's own value of the best play, rather than a second search for it.
        let (k, probabilities, ply) = if self.ply == 0 {
            let (k, probabilities) = self.net.best_of_all(position, &plays);
            (k, probabilities, 0)
        } else {
            self.search(position, &plays)[0]
        };
        Ok(RankedPlay { play: plays[k], probabilities, ply, equity: probabilities.equity() })
    }

    /// The value of `position` (game not over) for the player on roll, looking `ply` plies
    /// ahead.
    pub fn position_value(&self, position: &Position, ply: u8) -> Probabilities {
        if ply == 0 {
            return self.net.evaluate(position);
        }
        self.memo_or(position, ply, || {
            let replies = self.replies(position);
            if ply == 1 {
                replies.value
            } else {
                self.deeper(&replies, ply - 1)
            }
        })
    }

    /// The best reply of each roll from `position` (game not over) at ply 0, and their average:
    /// the position's value at ply 1. Each roll's reply is the best, by the full nets, of the
    /// candidates the screen keeps ([`Bot::reply_screen`]).
    fn replies(&self, position: &Position) -> Replies {
        /// Scratch space: the roll's resulting positions, the plays (when a tie needs their
        /// order), the values judged from this position, the screen's scores (twice: in the
        /// positions' order and reordered) and the kept positions.
        type Scratch = (Vec<Position>, Vec<Play>, Judged, Vec<f32>, Vec<f32>, Vec<Position>);
        thread_local! {
            static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Default::default());
        }
        SCRATCH.with_borrow_mut(|(positions, plays, judged, scores, order, kept)| {
            let mut best = [(*position, Probabilities::default()); 21];
            // Every roll's candidates are judged from one preparation of the position, each
            // distinct result once.
            let mut prepared = self.net.prepare(position);
            let look = (self.reply_screen > 0).then(|| Screen::builtin().look(position));
            judged.clear();
            for (b, dice) in best.iter_mut().zip(ALL_ROLLS) {
                // Only the resulting positions are needed, which the positions-only generator
                // gives faster than whole plays.
                legal_positions_into(position, dice, positions);
                let threshold = match &look {
                    Some(look) if positions.len() > self.reply_screen => {
                        scores.clear();
                        scores.extend(positions.iter().map(|q| look.score_position(q)));
                        kept.clear();
                        let threshold = kth_highest(scores, self.reply_screen, order);
                        kept.extend(
                            positions
                                .iter()
                                .zip(scores.iter())
                                .filter(|(_, &s)| s >= threshold)
                                .map(|(q, _)| *q),
                        );
                        std::mem::swap(positions, kept);
                        Some(threshold)
                    }
                    _ => None,
                };
                // On a tie for the best, the plays' order says which is kept, as `best_of_all`
                // keeps it (replies are judged in full, the head on every candidate).
                *b = match prepared.best_of_new_positions(positions, judged) {
                    Some((k, v)) => (positions[k], v),
                    None => {
                        legal_plays_into(position, dice, plays);
                        if let (Some(look), Some(threshold)) = (&look, threshold) {
                            plays.retain(|play| look.score(play) >= threshold);
                        }
                        let (k, v) = prepared.best_of_all(plays);
                        (plays[k].position, v)
                    }
                };
            }
            let value = average(best.iter().map(|b| b.1));
            Replies { best, value }
        })
    }

    /// The value of the position `replies` were found from, looking `ply + 1` plies ahead: each
    /// roll's best reply valued at `ply` (`ply` at least 1).
    fn deeper(&self, replies: &Replies, ply: u8) -> Probabilities {
        average(replies.best.iter().map(|&(after, _)| {
            let next = after.swapped();
            match Backgammon.result(&next) {
                Some(points) => Probabilities::from_points(-points),
                None => self.position_value(&next, ply).flipped(),
            }
        }))
    }

    /// The remembered value of `position` at `ply`, else `compute()`'s, remembered.
    fn memo_or(
        &self,
        position: &Position,
        ply: u8,
        compute: impl FnOnce() -> Probabilities,
    ) -> Probabilities {
        if let Some(v) = self.memo_get(position, ply) {
            return v;
        }
        let v = compute();
        self.memo_put(position, ply, v);
        v
    }

    fn memo_get(&self, position: &Position, ply: u8) -> Option<Probabilities> {
        if self.shipped == 0 {
            return None;
        }
        MEMO.with_borrow(|m| m.get(self.memo_key(), position, ply))
    }

    fn memo_put(&self, position: &Position, ply: u8, value: Probabilities) {
        if self.shipped != 0 {
            MEMO.with_borrow_mut(|m| m.put(self.memo_key(), position, ply, value));
        }
    }

    /// What besides the position and the ply a remembered value depends on: the nets and the
    /// reply screen's width.
    fn memo_key(&self) -> u32 {
        self.shipped as u32 | (self.reply_screen.min(0xFF_FFFF) as u32) << 8
    }

    /// The value of `position` for the player on roll at the bot's ply (the result itself if
    /// the game is over).
    pub fn evaluate(&self, position: &Position) -> Probabilities {
        match Backgammon.result(position) {
            Some(points) => Probabilities::from_points(points),
            None => self.position_value(position, self.ply),
        }
    }
}

/// The best reply of each of the 21 rolls ([`ALL_ROLLS`] order) at ply 0: the position it leads
/// to, still seen from the player who rolled, and its value for that player; and their average.
#[derive(Clone, Copy, Debug)]
struct Replies {
    best: [(Position, Probabilities); 21],
    value: Probabilities,
}

/// The average of the 21 rolls' values (in [`ALL_ROLLS`] order), each weighted by its chance,
/// summed in that order.
fn average(values: impl Iterator<Item = Probabilities>) -> Probabilities {
    let mut sum = [0.0f64; 5];
    for (v, dice) in values.zip(ALL_ROLLS) {
        let w = dice.weight() as f64 / 36.0;
        for (s, x) in sum.iter_mut().zip(v.to_array()) {
            *s += w * x;
        }
    }
    Probabilities::from_array(sum)
}

/// Values of positions at ply 1 and 2 found on this thread with a shipped net, which the next
/// searches look up before searching: a 2-ply analysis meets the same positions again and again
/// (the cube decision before a roll is the value at ply 2 of the position the last play was
/// judged at, the opponent's best replies found then are among the plays judged at ply 1 next).
/// The value of a position at a ply depends on nothing else, so a remembered value is exactly
/// the one a new search would find. One slot per hash, the newest value kept: a fixed size, no
/// lock.
struct Memo {
    slots: Vec<Option<Slot>>,
}

#[derive(Clone, Copy)]
struct Slot {
    position: Position,
    key: u32,
    ply: u8,
    value: Probabilities,
}

/// Slots of the memo (a power of two): a 2-ply checker decision leaves about a hundred values,
/// so the last few decisions' stay.
const MEMO_SLOTS: usize = 1 << 13;

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = const { std::cell::RefCell::new(Memo { slots: Vec::new() }) };
}

impl Memo {
    fn index(key: u32, position: &Position, ply: u8) -> usize {
        (position_hash(position, key.wrapping_mul(0x9E37_79B9) ^ ply as u32) >> 40) as usize
            & (MEMO_SLOTS - 1)
    }

    fn get(&self, key: u32, position: &Position, ply: u8) -> Option<Probabilities> {
        let slot = self.slots.get(Memo::index(key, position, ply))?.as_ref()?;
        (slot.position == *position && slot.ply == ply && slot.key == key).then_some(slot.value)
    }

    fn put(&mut self, key: u32, position: &Position, ply: u8, value: Probabilities) {
        if self.slots.is_empty() {
            self.slots = vec![None; MEMO_SLOTS];
        }
        self.slots[Memo::index(key, position, ply)] = Some(Slot { position: *position, key, ply, value });
    }
}

/// Refuses positions where a side has borne off every checker.
pub(crate) fn game_running(position: &Position) -> Result<()> {
    match Backgammon.result(position) {
        Some(_) => Err(Error::IllegalAction("the game is over: a side has borne off every checker".into())),
        None => Ok(()),
    }
}

/// The `k`-th highest of `scores` (`k` at least 1, at most their number), `order` scratch space.
fn kth_highest(scores: &[f32], k: usize, order: &mut Vec<f32>) -> f32 {
    order.clear();
    order.extend_from_slice(scores);
    *order.select_nth_unstable_by(k - 1, |a, b| b.total_cmp(a)).1
}

/// Indices of `values` by decreasing equity, stable.
fn ranked_order(values: &[Probabilities]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[b].equity().total_cmp(&values[a].equity()));
    order
}

impl Policy<Backgammon> for Bot<'_> {
    fn choose(
        &self,
        _: &Backgammon,
        position: &Position,
        _: Dice,
        plays: &[Play],
        _: &mut DiceStream,
    ) -> usize {
        self.best_index(position, plays)
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<Position>> {
        Some(self.net)
    }

    fn roll_values(
        &self,
        _: &Backgammon,
        position: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        self.net.roll_values(position, plays, out, best);
        true
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        // At ply 0 `best_index` is `NeuralNet::best_of_all`, as `roll_values` uses.
        self.ply == 0
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn name(&self) -> &str {
        match self.ply {
            0 => "net",
            1 => "net 1-ply",
            _ => "net 2-ply",
        }
    }

    fn weights(&self) -> Option<&str> {
        (self.shipped != 0).then(crate::net::shipped_weights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_backgammon::pos;

    #[test]
    fn deeper_values_of_a_decided_position_are_exact() {
        // Two checkers on our 1-point against anything: we bear off whatever we roll.
        let p = pos!(1 => 2, 24 => -1);
        for ply in 0..=2 {
            let v = Bot::new(ply).unwrap().evaluate(&p);
            assert!((v.win - 1.0).abs() < 1e-9);
        }
    }

    #[test]
    fn one_ply_averages_the_replies() {
        // The player on roll has one checker left, on the 2-point: every roll bears it off, so
        // the 1-ply average is a certain win (the net alone only estimates it).
        let p = pos!(2 => 1, 23 => -1);
        let v = Bot::new(1).unwrap().evaluate(&p);
        assert!((v.win - 1.0).abs() < 1e-9);
        assert!(Bot::new(3).is_err());
    }

    #[test]
    fn ranking_lists_every_play_once_best_first() {
        for ply in 0..=1 {
            let bot = Bot::new(ply).unwrap().with_filter(3);
            let ranked = bot.rank_plays(&Position::initial(), Dice::new(6, 4).unwrap(), None).unwrap();
            assert_eq!(ranked.len(), Position::initial().legal_plays(Dice::new(6, 4).unwrap()).len());
            let head: Vec<f64> =
                ranked.iter().take_while(|r| r.ply == ply).map(|r| r.probabilities.equity()).collect();
            assert!(head.windows(2).all(|w| w[0] >= w[1]));
        }
    }

    #[test]
    fn two_ply_goes_deeper_in_stages() {
        let (p, dice) = (Position::initial(), Dice::new(6, 4).unwrap());
        let bot = Bot::new(2).unwrap().with_filter(5);
        let ranked = bot.rank_plays(&p, dice, None).unwrap();
        // Deeper plies first, each ply's plays best first.
        assert!(ranked
            .windows(2)
            .all(|w| w[0].ply > w[1].ply || (w[0].ply == w[1].ply && w[0].equity >= w[1].equity)));
        let at = |ply| ranked.iter().filter(|r| r.ply == ply).count();
        assert!((1..=bot.deep_filter()).contains(&at(2)));
        assert_eq!(at(2) + at(1), 5);
        assert_eq!(bot.best_play(&p, dice, None).unwrap().play, ranked[0].play);
        // Without the second filter's limits every play judged at ply 1 goes on to ply 2.
        let wide = bot.with_deep_filter(5).with_deep_margin(f64::INFINITY);
        assert_eq!(wide.rank_plays(&p, dice, None).unwrap().iter().filter(|r| r.ply == 2).count(), 5);
    }

    #[test]
    fn screened_replies_are_the_best_of_the_screens_plays() {
        // The search chooses replies among resulting positions, screened by their scores; the
        // same choice made from the full plays, scored by the screen as plays, must agree to the
        // bit, ties at the screen's cut included. Games of the 1-ply bot, both nets.
        for net in [NeuralNet::builtin(), NeuralNet::fast()] {
            for keep in [0, 1, 3, REPLY_SCREEN] {
                let bot = Bot::with_net(net, 1).unwrap().with_reply_screen(keep);
                let mut stream = DiceStream::new(7 + keep as u64, 0);
                let mut p = Position::initial();
                let mut screened = 0;
                for _ in 0..40 {
                    let replies = bot.replies(&p);
                    let look = Screen::builtin().look(&p);
                    for (reply, dice) in replies.best.iter().zip(ALL_ROLLS) {
                        let mut plays = p.legal_plays(dice);
                        if keep > 0 && plays.len() > keep {
                            let mut scores: Vec<f32> = plays.iter().map(|q| look.score(q)).collect();
                            scores.sort_by(|a, b| b.total_cmp(a));
                            plays.retain(|q| look.score(q) >= scores[keep - 1]);
                            assert!(plays.len() >= keep);
                            screened += 1;
                        }
                        // Replies are judged in full, the head on every candidate kept.
                        let (k, v) = net.prepare(&p).best_of_all(&plays);
                        assert_eq!(*reply, (plays[k].position, v), "{p:?} {}", dice.to_text());
                    }
                    assert_eq!(replies.value, average(replies.best.iter().map(|b| b.1)));
                    let plays = p.legal_plays(stream.roll());
                    let next = Backgammon.after(&plays[bot.best_index(&p, &plays)]);
                    p = if Backgammon.result(&next).is_some() { Position::initial() } else { next };
                }
                assert_eq!(screened > 0, keep > 0);
            }
        }
    }

    #[test]
    fn the_reply_screen_is_part_of_a_remembered_value() {
        // The memo must not hand a value found with one width of the screen to a bot with
        // another: each must get what a fresh search of its own finds.
        let p = pos!(1 => 2, 6 => 3, 8 => 3, 13 => 5, 24 => 2, 19 => -5, 17 => -3, 12 => -5, 2 => -2);
        let wide = Bot::new(1).unwrap().with_reply_screen(0);
        let narrow = Bot::new(1).unwrap().with_reply_screen(1);
        let (w, n) = (wide.evaluate(&p), narrow.evaluate(&p));
        assert_ne!(w, n);
        assert_eq!(wide.evaluate(&p), w);
        assert_eq!(narrow.evaluate(&p), n);
        assert_eq!(wide.replies(&p).value, w);
        assert_eq!(narrow.replies(&p).value, n);
    }

    #[test]
    fn double_match_point_ranks_by_winning_chances() {
        // At 1-away 1-away only winning counts: a cubeful equity of 2 win - 1.
        let ctx = CubeContext::match_play([1, 1], 1, crate::cube::CubeOwner::Centred, false).unwrap();
        let bot = Bot::new(0).unwrap();
        let ranked = bot.rank_plays(&Position::initial(), Dice::new(5, 2).unwrap(), Some(&ctx)).unwrap();
        for r in &ranked {
            assert!((r.equity - (2.0 * r.probabilities.win - 1.0)).abs() < 1e-9);
        }
        assert!(ranked.windows(2).all(|w| w[0].probabilities.win >= w[1].probabilities.win));
        // Money with a centred cube keeps the cubeless ranking's best play in the opening.
        let money =
            bot.rank_plays(&Position::initial(), Dice::new(3, 1).unwrap(), Some(&CubeContext::default()));
        let cubeless = bot.rank_plays(&Position::initial(), Dice::new(3, 1).unwrap(), None).unwrap();
        assert_eq!(money.unwrap()[0].play, cubeless[0].play);
    }
}
