//! A hand-tuned evaluation: how many turns each side still needs to win, turned into a chance.

use super::board::Position;
use super::side::{Side, COLOUR_TO_WIN, GOAL_TO_WIN, TOKENS};

/// The knobs of [`evaluate`]. Distances are turned into single-die moves; a turn makes two.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Fields one move covers on average once the first field is paid for (the longer trips get
    /// the larger dice, so a little above 3.5).
    pub fields_per_move: f64,
    /// Extra moves a token needs to hit the goal exactly.
    pub exact_goal: f64,
    /// Extra moves for a token pinned under an opponent's token (it waits for the opponent).
    pub pinned_by_opponent: f64,
    /// Extra moves for a token pinned under an own token.
    pub pinned_by_own: f64,
    /// Turns the side to move is ahead by moving first.
    pub tempo: f64,
    /// How sharply a lead in turns becomes a winning chance (the logistic slope per turn).
    pub steepness: f64,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            fields_per_move: 4.2,
            exact_goal: 0.8,
            pinned_by_opponent: 2.0,
            pinned_by_own: 0.5,
            tempo: 0.5,
            steepness: 1.0,
        }
    }
}

/// The chance, as the evaluation sees it, that `side` wins from `position` (1 or 0 once won).
/// `1 - evaluate(p, s) == evaluate(p, s.opponent())`.
pub fn evaluate(position: &Position, side: Side, w: &Weights) -> f64 {
    let other = side.opponent();
    let lead = turns_to_win(position, other, w) - turns_to_win(position, side, w)
        + if position.turn() == side { w.tempo } else { -w.tempo };
    1.0 / (1.0 + (-w.steepness * lead).exp())
}

/// Turns `side` needs for its nearer win: the cheapest tokens still to bring over to the
/// opponent's colour, or into the goal.
pub fn turns_to_win(position: &Position, side: Side, w: &Weights) -> f64 {
    let moves = |distance: u8| 1.0 + (distance as f64 - 1.0) / w.fields_per_move;
    let mut cross = [0.0f64; TOKENS as usize];
    let mut home = [0.0f64; TOKENS as usize];
    let (mut n_cross, mut n_home) = (0, 0);
    let mut add = |field: u8, extra: f64, count: u8| {
        for _ in 0..count {
            let to_colour = side.distance_to_opponent_colour(field);
            if to_colour > 0 {
                cross[n_cross] = moves(to_colour) + extra;
                n_cross += 1;
            }
            home[n_home] = moves(side.distance_to_goal(field)) + w.exact_goal + extra;
            n_home += 1;
        }
    };
    add(side.start_field(), 0.0, position.at_start(side));
    for field in 2..=23 {
        let stack = position.stack(field);
        if stack.count(side) == 0 {
            continue;
        }
        if stack.top() == Some(side) {
            add(field, 0.0, 1);
        }
        if let Some(lower) = stack.pinned().filter(|&s| s == side) {
            let extra = if stack.top() == Some(lower) { w.pinned_by_own } else { w.pinned_by_opponent };
            add(field, extra, 1);
        }
    }
    let needed_across = COLOUR_TO_WIN.saturating_sub(position.on_opponent_colour(side)) as usize;
    let needed_home = GOAL_TO_WIN.saturating_sub(position.in_goal(side)) as usize;
    let by_colour = cheapest(&mut cross[..n_cross], needed_across);
    let by_goal = cheapest(&mut home[..n_home], needed_home);
    by_colour.min(by_goal) / 2.0
}

/// The sum of the `k` smallest costs (infinite when there are fewer than `k`).
fn cheapest(costs: &mut [f64], k: usize) -> f64 {
    if k > costs.len() {
        return f64::INFINITY;
    }
    costs.sort_unstable_by(|a, b| a.total_cmp(b));
    costs[..k].iter().sum()
}
