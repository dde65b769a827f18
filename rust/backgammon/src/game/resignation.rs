//! Resignations: offered by the player to act, accepted or rejected by the opponent.

use super::{illegal, Game, Phase};
use crate::game::{Action, EndReason, GameResult, ResultKind};
use gammon_core::error::Result;

impl Game {
    /// The player to act offers to resign a single game, gammon or backgammon.
    pub fn resign(&mut self, kind: ResultKind) -> Result<()> {
        self.no_resignation("resign")?;
        let Some(player) = self.to_act() else { return Err(self.wrong_phase("resign")) };
        let mut s = self.state;
        s.resignation = Some((player, kind));
        self.commit(s, Action::Resign { player, kind });
        Ok(())
    }

    /// `player` offers to resign whether or not he is the one to act, as a player may give up (or
    /// run out of time) while his opponent is on roll; the opponent is then the one to answer.
    pub fn resign_as(&mut self, player: u8, kind: ResultKind) -> Result<()> {
        self.no_resignation("resign")?;
        if self.to_act().is_none() || player > 1 {
            return Err(self.wrong_phase("resign"));
        }
        let mut s = self.state;
        s.resignation = Some((player, kind));
        self.commit(s, Action::Resign { player, kind });
        Ok(())
    }

    /// The opponent accepts the resignation: the game ends with that result.
    pub fn accept_resignation(&mut self) -> Result<()> {
        let Some((by, kind)) = self.state.resignation else {
            return Err(illegal("there is no resignation to accept"));
        };
        let mut s = self.state;
        s.resignation = None;
        s.phase = Phase::Over(GameResult {
            winner: 1 - by,
            kind,
            points: self.score_of(kind),
            reason: EndReason::Resigned,
        });
        self.commit(s, Action::AcceptResignation { player: 1 - by });
        Ok(())
    }

    /// The opponent rejects the resignation: play goes on where it stood.
    pub fn reject_resignation(&mut self) -> Result<()> {
        let Some((by, _)) = self.state.resignation else {
            return Err(illegal("there is no resignation to reject"));
        };
        let mut s = self.state;
        s.resignation = None;
        self.commit(s, Action::RejectResignation { player: 1 - by });
        Ok(())
    }
}
