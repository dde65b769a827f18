//! What a game records: its actions, and how it ended.

use crate::moves::Play;
use gammon_core::dice::Dice;
use std::fmt;

/// How much a game is won by, before the cube multiplies it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResultKind {
    /// The loser has borne off at least one checker: 1 x cube.
    Single = 1,
    /// The loser has borne off none: 2 x cube.
    Gammon = 2,
    /// None off and a checker on the bar or in the winner's home board: 3 x cube.
    Backgammon = 3,
}

impl ResultKind {
    /// 1, 2 or 3.
    pub const fn multiplier(self) -> u32 {
        self as u32
    }

    /// `"single"`, `"gammon"` or `"backgammon"`.
    pub const fn name(self) -> &'static str {
        match self {
            ResultKind::Single => "single",
            ResultKind::Gammon => "gammon",
            ResultKind::Backgammon => "backgammon",
        }
    }

    /// The kind for a multiplier of 1, 2 or 3.
    pub const fn from_multiplier(m: u32) -> Option<ResultKind> {
        match m {
            1 => Some(ResultKind::Single),
            2 => Some(ResultKind::Gammon),
            3 => Some(ResultKind::Backgammon),
            _ => None,
        }
    }

    /// Reads `"single"`, `"gammon"`, `"backgammon"` (any case) or `"1"`, `"2"`, `"3"`.
    pub fn parse(text: &str) -> Option<ResultKind> {
        match text.trim().to_ascii_lowercase().as_str() {
            "single" | "normal" | "1" => Some(ResultKind::Single),
            "gammon" | "2" => Some(ResultKind::Gammon),
            "backgammon" | "3" => Some(ResultKind::Backgammon),
            _ => None,
        }
    }
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The winner bore off his last checker.
    BorneOff,
    /// A double (or beaver) was dropped.
    Dropped,
    /// A resignation was accepted.
    Resigned,
}

/// The end of a game: who won, how, and the points scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// The winning player, 0 or 1.
    pub winner: u8,
    /// Single, gammon or backgammon as it happened on the board (or as resigned); a drop is single.
    pub kind: ResultKind,
    /// Points won: the kind's multiplier times the cube, counting gammons as singles under the
    /// Jacoby rule while the cube is centred.
    pub points: u32,
    /// How the game ended.
    pub reason: EndReason,
}

/// One action of a game, in the order played; together they replay the game exactly.
///
/// A roll that cannot be played is recorded as its [`Action::Roll`] alone: the turn passed by itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The opening roll: one die each (ties re-rolled are not recorded).
    OpeningRoll {
        /// Player 0's die.
        die0: u8,
        /// Player 1's die.
        die1: u8,
    },
    /// A roll of both dice by the player on roll.
    Roll {
        /// Who rolled.
        player: u8,
        /// The dice.
        dice: Dice,
    },
    /// A play of the dice just rolled.
    Play {
        /// Who played.
        player: u8,
        /// The dice played.
        dice: Dice,
        /// The play, seen from the mover.
        play: Play,
    },
    /// A double (or redouble) offered.
    Double {
        /// Who doubled.
        player: u8,
        /// The cube value offered.
        value: u32,
    },
    /// A double (or beaver) accepted.
    Take {
        /// Who took.
        player: u8,
    },
    /// A double (or beaver) refused: the game ends.
    Drop {
        /// Who dropped.
        player: u8,
    },
    /// A beaver: the doubled player takes and at once redoubles, keeping the cube.
    Beaver {
        /// Who beavered.
        player: u8,
        /// The cube value now offered back.
        value: u32,
    },
    /// A resignation offered.
    Resign {
        /// Who resigns.
        player: u8,
        /// What he offers to lose.
        kind: ResultKind,
    },
    /// The resignation is accepted: the game ends.
    AcceptResignation {
        /// Who accepted.
        player: u8,
    },
    /// The resignation is rejected: play goes on.
    RejectResignation {
        /// Who rejected.
        player: u8,
    },
}

impl Action {
    /// The player who acted (player 0 for the opening roll, which both throw).
    pub fn player(&self) -> u8 {
        match *self {
            Action::OpeningRoll { .. } => 0,
            Action::Roll { player, .. }
            | Action::Play { player, .. }
            | Action::Double { player, .. }
            | Action::Take { player }
            | Action::Drop { player }
            | Action::Beaver { player, .. }
            | Action::Resign { player, .. }
            | Action::AcceptResignation { player }
            | Action::RejectResignation { player } => player,
        }
    }
}

impl fmt::Display for Action {
    /// `opening 3-1`, `0 rolls 53`, `1 plays 24/18 13/11`, `0 doubles to 2`, `1 takes`, ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Action::OpeningRoll { die0, die1 } => write!(f, "opening {die0}-{die1}"),
            Action::Roll { player, dice } => write!(f, "{player} rolls {}", dice.to_text()),
            Action::Play { player, play, .. } => write!(f, "{player} plays {}", play.notation()),
            Action::Double { player, value } => write!(f, "{player} doubles to {value}"),
            Action::Take { player } => write!(f, "{player} takes"),
            Action::Drop { player } => write!(f, "{player} drops"),
            Action::Beaver { player, value } => write!(f, "{player} beavers to {value}"),
            Action::Resign { player, kind } => write!(f, "{player} resigns {kind}"),
            Action::AcceptResignation { player } => write!(f, "{player} accepts the resignation"),
            Action::RejectResignation { player } => write!(f, "{player} rejects the resignation"),
        }
    }
}
