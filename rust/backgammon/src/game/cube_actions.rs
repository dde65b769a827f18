//! Cube actions of a game: double, take, drop and beaver.

use super::{illegal, Game, Phase, State};
use crate::cube::Cube;
use crate::game::{Action, EndReason, GameResult, ResultKind};
use gammon_core::error::Result;

impl Game {
    /// Whether the player on roll may double now: not with a dead cube (see [`Game::cube_is_dead`]),
    /// unless the rules allow it ([`CubeRules::dead_cube_doubles`](crate::cube::CubeRules)).
    pub fn may_double(&self) -> bool {
        self.state.phase == Phase::Rolling
            && self.state.resignation.is_none()
            && self.why_not_double().is_none()
    }

    /// Whether the match cube is dead for the player on roll: at or above the points he needs (the
    /// leader after the Crawford game, or a player whose score plus the cube already wins).
    pub fn cube_is_dead(&self) -> bool {
        let c = &self.context;
        let needs = c.length.saturating_sub(c.score[self.state.turn as usize]);
        c.length > 0 && self.state.cube.value() >= needs
    }

    /// Why the player on roll may not double (phase aside), or `None`.
    fn why_not_double(&self) -> Option<String> {
        let s = &self.state;
        if let Some(why) = s.cube.why_not_double(s.turn, &self.rules) {
            return Some(why);
        }
        // A match cube at or above what the doubler needs is dead: doubling could gain him nothing.
        if self.cube_is_dead() && !self.rules.dead_cube_doubles {
            let needs = self.context.length.saturating_sub(self.context.score[s.turn as usize]);
            return Some(format!(
                "the cube is dead: it is at {} and player {} needs {needs}",
                s.cube.value(),
                s.turn
            ));
        }
        None
    }

    /// The player on roll doubles, before rolling.
    pub fn double(&mut self) -> Result<()> {
        self.no_resignation("double")?;
        if self.state.phase != Phase::Rolling {
            return Err(self.wrong_phase("double"));
        }
        let s = self.state;
        if let Some(why) = self.why_not_double() {
            return Err(illegal(format!("player {} may not double: {why}", s.turn)));
        }
        let value = s.cube.value() * 2;
        self.commit(State { phase: Phase::Doubled, ..s }, Action::Double { player: s.turn, value });
        Ok(())
    }

    /// The doubled player accepts: the cube doubles and the taker owns it (after a beaver, the
    /// first doubler accepts and the beaver's cube stays with the beaverer).
    pub fn take(&mut self) -> Result<()> {
        self.no_resignation("take")?;
        let mut s = self.state;
        let taker = match s.phase {
            Phase::Doubled => {
                s.cube = s.cube.taken_by(1 - s.turn);
                1 - s.turn
            }
            Phase::Beavered => {
                // The beaverer keeps the cube at the beavered value.
                s.cube = Cube::new(s.cube.value() * 2, Some(1 - s.turn))?;
                s.turn
            }
            _ => return Err(self.wrong_phase("take")),
        };
        s.phase = Phase::Rolling;
        self.commit(s, Action::Take { player: taker });
        Ok(())
    }

    /// The doubled player refuses: the doubler wins the stake as it was before the double.
    pub fn drop(&mut self) -> Result<()> {
        self.no_resignation("drop")?;
        let mut s = self.state;
        let (winner, dropper) = match s.phase {
            Phase::Doubled => (s.turn, 1 - s.turn),
            Phase::Beavered => (1 - s.turn, s.turn),
            _ => return Err(self.wrong_phase("drop")),
        };
        s.phase = Phase::Over(GameResult {
            winner,
            kind: ResultKind::Single,
            points: s.cube.value(),
            reason: EndReason::Dropped,
        });
        self.commit(s, Action::Drop { player: dropper });
        Ok(())
    }

    /// The doubled player beavers: takes, and at once redoubles while keeping the cube. Allowed only
    /// in money play with beavers switched on.
    pub fn beaver(&mut self) -> Result<()> {
        self.no_resignation("beaver")?;
        if self.state.phase != Phase::Doubled {
            return Err(self.wrong_phase("beaver"));
        }
        if !self.rules.beavers || self.context.length > 0 {
            return Err(illegal("beavers are not allowed in this game (money play with beavers on only)"));
        }
        let mut s = self.state;
        let beaverer = 1 - s.turn;
        let value = s.cube.value() * 4;
        if value > self.rules.cube_max {
            return Err(illegal(format!(
                "a beaver to {value} would pass the cube maximum {}",
                self.rules.cube_max
            )));
        }
        s.cube = s.cube.taken_by(beaverer);
        s.phase = Phase::Beavered;
        self.commit(s, Action::Beaver { player: beaverer, value });
        Ok(())
    }
}
