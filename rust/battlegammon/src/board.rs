//! The position: the tokens on the 24 fields of the track and the side to move.

use super::rules::Rules;
use super::side::{Side, COLOUR_TO_WIN, FIELDS, GOAL_TO_WIN, TOKENS};
use super::stack::Stack;
use gammon_core::error::{Error, Result};

/// A Battlegammon position: every token on the track, ordered on each field, and the side to move.
///
/// Fields 2..=23 hold a [`Stack`] of at most two tokens. A start field holds any number of tokens:
/// its owner's tokens that have not left yet (all free) and the opponent's finished ones (which
/// never move again). Black moves first from [`Position::initial`].
///
/// ```
/// use gammon_battlegammon::{Position, Side};
/// let p = Position::initial();
/// assert_eq!(p.turn(), Side::Black);
/// assert_eq!(p.tokens(1), vec![Side::White; 5]);
/// assert_eq!(p.at_start(Side::Black), 5);
/// assert_eq!(p.winner(), None);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// Index `field - 1`; the two start fields stay empty here and use `start`/`goal` instead.
    stacks: [Stack; FIELDS as usize],
    /// Per side (by [`Side::index`]): tokens still on the own start field.
    start: [u8; 2],
    /// Per side: tokens finished on the opponent's start field.
    goal: [u8; 2],
    turn: Side,
}

impl Position {
    /// The setup of the rules: White 5 on 1, 1 on 5, 2 on 8, 2 on 9; Black 1 on 16, 2 on 19,
    /// 2 on 20, 5 on 24; Black to move.
    pub fn initial() -> Position {
        let mut p = Position::empty(Side::Black);
        p.start = [5, 5];
        for (field, side, n) in [
            (5, Side::White, 1),
            (8, Side::White, 2),
            (9, Side::White, 2),
            (16, Side::Black, 1),
            (19, Side::Black, 2),
            (20, Side::Black, 2),
        ] {
            for _ in 0..n {
                p.stacks[field - 1] = p.stacks[field - 1].push(side);
            }
        }
        p
    }

    /// A track with no token at all; only for building positions that are then validated.
    pub(crate) fn empty(turn: Side) -> Position {
        Position { stacks: [Stack::EMPTY; FIELDS as usize], start: [0, 0], goal: [0, 0], turn }
    }

    /// Builds a position from its parts and validates it: `stacks[k-1]` is field k for k in
    /// 2..=23 (entries 0 and 23 must be empty), `start[i]`/`goal[i]` the tokens of
    /// `Side::BOTH[i]` on its own start field / on its goal.
    pub fn from_parts(stacks: [Stack; 24], start: [u8; 2], goal: [u8; 2], turn: Side) -> Result<Position> {
        for k in [0, FIELDS as usize - 1] {
            if !stacks[k].is_empty() {
                return Err(Error::InvalidPosition(format!(
                    "field {} is a start field: give its tokens as start/goal counts, not as a stack",
                    k + 1
                )));
            }
        }
        let p = Position { stacks, start, goal, turn };
        p.validate()?;
        Ok(p)
    }

    /// Checks what every reachable position satisfies: ten tokens a side, at most three in a
    /// goal (the third one wins), and not both sides with three in their goals. The stack type
    /// already keeps fields 2..=23 at two tokens at most.
    pub fn validate(&self) -> Result<()> {
        for side in Side::BOTH {
            let total = self.count_tokens(side);
            if total != TOKENS {
                return Err(Error::InvalidPosition(format!(
                    "{side} has {total} tokens on the board; each side has exactly {TOKENS}"
                )));
            }
            if self.in_goal(side) > GOAL_TO_WIN {
                return Err(Error::InvalidPosition(format!(
                    "{side} has {} tokens on field {}; the game ends when the {GOAL_TO_WIN}rd arrives",
                    self.in_goal(side),
                    side.goal_field()
                )));
            }
        }
        if self.goal == [GOAL_TO_WIN; 2] {
            return Err(Error::InvalidPosition("both sides have three tokens in their goals".into()));
        }
        Ok(())
    }

    fn count_tokens(&self, side: Side) -> u8 {
        let on_track: u8 = self.stacks.iter().map(|s| s.count(side)).sum();
        on_track + self.start[side.index()] + self.goal[side.index()]
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// The same tokens with `side` to move.
    pub const fn with_turn(mut self, side: Side) -> Position {
        self.turn = side;
        self
    }

    /// The same tokens with the other side to move.
    pub const fn passed(self) -> Position {
        self.with_turn(self.turn.opponent())
    }

    /// The stack on `field` (2..=23); start fields and fields off the track give an empty stack.
    pub fn stack(&self, field: u8) -> Stack {
        match field {
            2..=23 => self.stacks[field as usize - 1],
            _ => Stack::EMPTY,
        }
    }

    /// Tokens of `side` still on its own start field.
    pub const fn at_start(&self, side: Side) -> u8 {
        self.start[side.index()]
    }

    /// Tokens of `side` finished on its goal (the opponent's start field).
    pub const fn in_goal(&self, side: Side) -> u8 {
        self.goal[side.index()]
    }

    /// The tokens on `field` (1..=24) bottom to top; on a start field the owner's tokens first,
    /// then the opponent's finished ones. Empty for a number off the track.
    pub fn tokens(&self, field: u8) -> Vec<Side> {
        match field {
            1 | FIELDS => {
                let owner = if field == 1 { Side::White } else { Side::Black };
                let mut v = vec![owner; self.at_start(owner) as usize];
                v.extend(std::iter::repeat_n(owner.opponent(), self.in_goal(owner.opponent()) as usize));
                v
            }
            _ => self.stack(field).tokens().collect(),
        }
    }

    /// Tokens of `side` on fields of the opponent's colour, goal included, top or pinned.
    pub fn on_opponent_colour(&self, side: Side) -> u8 {
        self.opponent_colour_stacks(side).map(|s| s.count(side)).sum::<u8>() + self.in_goal(side)
    }

    /// Distinct fields of the opponent's colour holding a token of `side` (the goal counts once).
    pub fn opponent_colour_fields(&self, side: Side) -> u8 {
        self.opponent_colour_stacks(side).filter(|s| s.count(side) > 0).count() as u8
            + (self.in_goal(side) > 0) as u8
    }

    /// The stacks of fields 2..=23 that have the colour of `side`'s opponent.
    fn opponent_colour_stacks(&self, side: Side) -> impl Iterator<Item = Stack> + '_ {
        let half = FIELDS as usize / 2;
        let range = match side {
            Side::White => half..FIELDS as usize - 1,
            Side::Black => 1..half,
        };
        self.stacks[range].iter().copied()
    }

    /// Whether `side` has met a winning condition under `rules`: three tokens in its goal, or
    /// eight on the opponent's colour (tokens, or distinct fields under `count_distinct_fields`).
    pub fn has_won(&self, side: Side, rules: &Rules) -> bool {
        if self.in_goal(side) >= GOAL_TO_WIN {
            return true;
        }
        let on_colour = if rules.count_distinct_fields {
            self.opponent_colour_fields(side)
        } else {
            self.on_opponent_colour(side)
        };
        on_colour >= COLOUR_TO_WIN
    }

    /// The winner under the default rules; see [`Position::winner_with`].
    pub fn winner(&self) -> Option<Side> {
        self.winner_with(&Rules::default())
    }

    /// The side that has won under `rules`, if any. Should both sides meet a condition (only a
    /// built position can), the side that moved last (not to move) is the winner: wins are
    /// checked after every move, so it would have been first.
    pub fn winner_with(&self, rules: &Rules) -> Option<Side> {
        let last = self.turn.opponent();
        [last, self.turn].into_iter().find(|&side| self.has_won(side, rules))
    }

    /// Whether `side` has a free token that can move with `die` (the token is on the own start
    /// field, or alone or on top on a field 2..=23).
    pub fn can_move_with(&self, side: Side, die: u8) -> bool {
        self.origins(side).any(|from| self.destination(side, from, die).is_some())
    }

    /// Whether `side` could move under some roll.
    pub fn can_move(&self, side: Side) -> bool {
        (1..=6).any(|die| self.can_move_with(side, die))
    }

    /// Neither side can move under any roll: the game is drawn.
    ///
    /// With ten tokens a side this never happens. A White top token on field 18 or higher can
    /// always reach the goal by the exact number, and one lower down is stuck only when the six
    /// fields above it are full; likewise for Black below field 8. Let `w` be the highest field
    /// with a stuck White top: `w+1..=w+6` are full and topped by Black, the lowest of them,
    /// `w+1`, is stuck only if `w-5..=w` are full too, so twelve fields hold 24 tokens, more than
    /// the 20 in play. Without White tops the lowest Black top has nothing stuck below it, and
    /// with no token on fields 2..=23 the start fields' tokens move freely (a goal holds two at
    /// most). The check stays as the rules state it, for positions of any origin.
    pub fn is_deadlocked(&self) -> bool {
        !self.can_move(Side::White) && !self.can_move(Side::Black)
    }

    /// The sum over the tokens of `side` of the fields still to travel to its goal.
    pub fn pips(&self, side: Side) -> u32 {
        let on_track: u32 =
            (2..FIELDS).map(|f| self.stack(f).count(side) as u32 * side.distance_to_goal(f) as u32).sum();
        on_track + self.at_start(side) as u32 * (FIELDS as u32 - 1)
    }

    /// Fields holding a free token of `side`, in increasing field order: its start field while a
    /// token is there, and every field 2..=23 with a `side` token on top.
    pub fn origins(&self, side: Side) -> impl Iterator<Item = u8> + '_ {
        let start = side.start_field();
        (1..=FIELDS).filter(move |&f| {
            if f == start {
                self.at_start(side) > 0
            } else {
                self.stack(f).top() == Some(side)
            }
        })
    }

    /// Where a free token of `side` on `from` lands with `die`, if it may: the exact goal (no
    /// limit there) or a field of 2..=23 holding at most one token. Passed fields do not matter.
    #[inline]
    pub fn destination(&self, side: Side, from: u8, die: u8) -> Option<u8> {
        let to = side.target(from, die)?;
        if to == side.goal_field() || !self.stack(to).is_full() {
            Some(to)
        } else {
            None
        }
    }

    /// The position after the side to move takes a token from `from` to `to`, the turn unchanged.
    /// The caller has checked the move with [`Position::destination`].
    pub(crate) fn after_move(mut self, from: u8, to: u8) -> Position {
        let side = self.turn;
        if from == side.start_field() {
            self.start[side.index()] -= 1;
        } else {
            let s = &mut self.stacks[from as usize - 1];
            *s = s.pop();
        }
        if to == side.goal_field() {
            self.goal[side.index()] += 1;
        } else {
            let s = &mut self.stacks[to as usize - 1];
            *s = s.push(side);
        }
        self
    }

    /// A 128-bit fingerprint, equal exactly when the positions are equal (4 bits a field, 4 bits a
    /// count, 1 bit the turn): cheap to compare when removing duplicate plays.
    pub(crate) fn key(&self) -> u128 {
        let mut k = 0u128;
        for s in &self.stacks[1..FIELDS as usize - 1] {
            k = k << 4 | s.code() as u128;
        }
        for n in self.start.iter().chain(&self.goal) {
            k = k << 4 | *n as u128;
        }
        k << 1 | self.turn as u128
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::initial()
    }
}
