//! What an analysis produces: one record per decision, per-player totals, and the options.

use gammon_backgammon::Play;
use gammon_core::dice::Dice;
use gammon_core::Probabilities;

/// GNU Backgammon's default thresholds for marking a decision, in equivalent money equity
/// (normalised to the cube in play): doubtful from 0.03, bad from 0.06, very bad from 0.12, as
/// `show analysis` prints them in GNU Backgammon 1.07.
pub const DEFAULT_THRESHOLDS: Thresholds = Thresholds { doubtful: 0.03, bad: 0.06, very_bad: 0.12 };

/// The error sizes from which a decision is marked doubtful, bad or very bad.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// Smallest error marked doubtful.
    pub doubtful: f64,
    /// Smallest error marked bad.
    pub bad: f64,
    /// Smallest error marked very bad (a blunder).
    pub very_bad: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        DEFAULT_THRESHOLDS
    }
}

/// How a match is analysed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The bot's search depth for checker plays and cube decisions (0..=2). Luck is always judged
    /// at ply 0, as GNU Backgammon does by default.
    pub ply: u8,
    /// Where the marks begin.
    pub thresholds: Thresholds,
    /// A cube decision where doubling would cost less than this counts as a decision even when
    /// the player did not double (GNU Backgammon's "close or actual cube decisions").
    pub close_cube: f64,
}

impl Default for Options {
    fn default() -> Self {
        Options { ply: 0, thresholds: DEFAULT_THRESHOLDS, close_cube: 0.16 }
    }
}

/// The kind of a decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A checker play (every roll has one, forced or not).
    Checker,
    /// Whether to double, before rolling.
    Double,
    /// Whether to take a double (a beaver counts as a take).
    Take,
    /// A resignation offered.
    Resign,
    /// The answer to a resignation.
    AcceptResignation,
}

impl Kind {
    /// `"checker"`, `"double"`, `"take"`, `"resign"`, `"accept"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Checker => "checker",
            Kind::Double => "double",
            Kind::Take => "take",
            Kind::Resign => "resign",
            Kind::AcceptResignation => "accept",
        }
    }
}

/// How bad an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// Below the doubtful threshold.
    None,
    /// Doubtful.
    Doubtful,
    /// Bad.
    Bad,
    /// Very bad: a blunder.
    VeryBad,
}

impl Mark {
    /// The mark of an error of `error` under `thresholds`.
    pub fn of(error: f64, thresholds: &Thresholds) -> Mark {
        if error >= thresholds.very_bad {
            Mark::VeryBad
        } else if error >= thresholds.bad {
            Mark::Bad
        } else if error >= thresholds.doubtful {
            Mark::Doubtful
        } else {
            Mark::None
        }
    }

    /// `""`, `"doubtful"`, `"bad"`, `"very bad"`.
    pub const fn name(self) -> &'static str {
        match self {
            Mark::None => "",
            Mark::Doubtful => "doubtful",
            Mark::Bad => "bad",
            Mark::VeryBad => "very bad",
        }
    }
}

/// GNU Backgammon's default luck marks, as its `show analysis` prints them: a roll whose luck is
/// above +0.3 is lucky, above +0.6 very lucky, below -0.3 unlucky, below -0.6 very unlucky
/// (equivalent money equity normalised to the cube, the luck's own unit).
pub const LUCKY: f64 = 0.3;
/// See [`LUCKY`].
pub const VERY_LUCKY: f64 = 0.6;

/// How lucky a roll was, as GNU Backgammon marks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LuckMark {
    /// Below -0.6.
    VeryUnlucky,
    /// From -0.6 to -0.3.
    Unlucky,
    /// Unmarked.
    None,
    /// From +0.3 to +0.6.
    Lucky,
    /// Above +0.6.
    VeryLucky,
}

impl LuckMark {
    /// The mark of a roll whose luck is `luck`.
    pub fn of(luck: f64) -> LuckMark {
        if luck > VERY_LUCKY {
            LuckMark::VeryLucky
        } else if luck > LUCKY {
            LuckMark::Lucky
        } else if luck < -VERY_LUCKY {
            LuckMark::VeryUnlucky
        } else if luck < -LUCKY {
            LuckMark::Unlucky
        } else {
            LuckMark::None
        }
    }

    /// `"very unlucky"`, `"unlucky"`, `""`, `"lucky"`, `"very lucky"`.
    pub const fn name(self) -> &'static str {
        match self {
            LuckMark::VeryUnlucky => "very unlucky",
            LuckMark::Unlucky => "unlucky",
            LuckMark::None => "",
            LuckMark::Lucky => "lucky",
            LuckMark::VeryLucky => "very lucky",
        }
    }
}

/// GNU Backgammon's luck rating for a luck rate (luck per roll, normalised equity): above 0.06
/// "Go to Las Vegas", from 0.03 "Good dice, man!", from -0.03 "None", from -0.06 "Bad dice, man!",
/// and "Go to bed" below, as its manual gives the scale.
pub fn luck_rating(per_roll: f64) -> &'static str {
    if per_roll > 0.06 {
        "Go to Las Vegas"
    } else if per_roll > 0.03 {
        "Good dice, man!"
    } else if per_roll >= -0.03 {
        "None"
    } else if per_roll >= -0.06 {
        "Bad dice, man!"
    } else {
        "Go to bed"
    }
}

/// One decision of one game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The game's index in the match, from 0.
    pub game: usize,
    /// The index in the game's history of the action that made (or, for a roll with no cube
    /// action, followed) the decision.
    pub action: usize,
    /// Who decided, 0 or 1.
    pub player: u8,
    /// What was decided.
    pub kind: Kind,
    /// GNU Backgammon's Position ID before the decision, seen by the player on roll.
    pub position_id: String,
    /// GNU Backgammon's Match ID before the decision (with the dice for a checker play).
    pub match_id: String,
    /// The dice of a checker play.
    pub dice: Option<Dice>,
    /// What was done: a play's notation (empty when the roll could not be played), `"double"`,
    /// `"no double"`, `"take"`, `"pass"`, `"beaver"`, `"resign single"`, `"accept"`, `"reject"`.
    pub played: String,
    /// The best action in the same words.
    pub best: String,
    /// Equity lost by the action taken, in equivalent money equity normalised to the cube in
    /// play (0 for the best action).
    pub equity_lost: f64,
    /// The same loss in match winning chance (0 in money play).
    pub mwc_lost: f64,
    /// The decision counts in the error rate: an unforced checker play, a close or actual cube
    /// decision, a take decision. Resignations never count.
    pub counted: bool,
    /// The mark the loss earns.
    pub mark: Mark,
    /// A checker play's rank among the distinct plays (1 = the best), by the analysis's equities.
    pub rank: Option<usize>,
    /// How many distinct plays the roll had (1 for a forced play).
    pub alternatives: usize,
    /// The decider's equity before the decision (normalised as `equity_lost`): after the roll
    /// for a checker play, the cube decision's value for a cube decision.
    pub equity: f64,
    /// The decider's match winning chance before the decision (money play: none).
    pub mwc: Option<f64>,
    /// The luck of the roll of a checker play: the equity of the best play of the dice rolled
    /// minus its average over every roll (equivalent money equity, normalised to the cube).
    pub luck: Option<f64>,
    /// The same luck in match winning chance (0 in money play).
    pub luck_mwc: f64,
    /// The cube equities behind a cube or take decision, for the doubler: no double,
    /// double/take, double/pass.
    pub cube_equities: Option<[f64; 3]>,
    /// The bot's cube decision in words (`"No double, take"`), for cube and take decisions.
    pub cube_label: Option<String>,
    /// The cube value in play when the decision was made.
    pub cube_value: u32,
    /// A checker play's candidates as the analysis judged them, best first: the best
    /// [`CANDIDATES`] plays and the play made (empty when the roll had no play made).
    pub candidates: Vec<Candidate>,
    /// The index in `candidates` of the play made.
    pub played_candidate: Option<usize>,
    /// The outcome probabilities behind a cube or take decision, for the doubler (cubeless, at
    /// the analysis's ply).
    pub cube_probabilities: Option<Probabilities>,
    /// `cube_equities` as the doubler's match winning chances (match play only).
    pub cube_mwc: Option<[f64; 3]>,
}

/// How many of the best plays a checker decision keeps (the play made is kept besides).
pub const CANDIDATES: usize = 8;

/// One play of a checker decision as the analysis judged it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// The play.
    pub play: Play,
    /// Its outcome probabilities for the mover, after the play.
    pub probabilities: Probabilities,
    /// Its cubeful equity for the mover, normalised as [`Decision::equity`].
    pub equity: f64,
    /// The ply the value comes from (below the analysis's ply for plays its move filter dropped).
    pub ply: u8,
}

impl Decision {
    /// The luck mark of a checker play's roll ([`LuckMark::None`] for other decisions).
    pub fn luck_mark(&self) -> LuckMark {
        self.luck.map_or(LuckMark::None, LuckMark::of)
    }
}

/// One player's totals.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerTotals {
    /// The name in the match file.
    pub name: String,
    /// Checker plays with more than one distinct result.
    pub unforced_plays: usize,
    /// Every checker play, forced or not.
    pub plays: usize,
    /// Close or actual decisions on doubling, and take decisions.
    pub cube_decisions: usize,
    /// Equity lost in checker plays (equivalent money, normalised to the cube).
    pub checker_error: f64,
    /// Equity lost in cube and take decisions.
    pub cube_error: f64,
    /// The same losses in match winning chance.
    pub checker_error_mwc: f64,
    /// Cube and take losses in match winning chance.
    pub cube_error_mwc: f64,
    /// Equity lost in resignations offered or answered (not in the error rate).
    pub resignation_error: f64,
    /// Doubling decisions: missed doubles (should have doubled, did not).
    pub missed_doubles: usize,
    /// Doubles that should not have been given.
    pub wrong_doubles: usize,
    /// Takes that should have been passes.
    pub wrong_takes: usize,
    /// Passes that should have been takes.
    pub wrong_passes: usize,
    /// Decisions marked doubtful, bad, very bad (checker and cube together).
    pub doubtful: usize,
    /// Decisions marked bad.
    pub bad: usize,
    /// Decisions marked very bad.
    pub very_bad: usize,
    /// The sum of the luck of this player's rolls.
    pub luck: f64,
    /// The same luck in match winning chance.
    pub luck_mwc: f64,
    /// Rolls marked very lucky, lucky, unlucky, very unlucky (see [`LuckMark`]).
    pub very_lucky: usize,
    /// Rolls marked lucky.
    pub lucky: usize,
    /// Rolls marked unlucky.
    pub unlucky: usize,
    /// Rolls marked very unlucky.
    pub very_unlucky: usize,
    /// What the games finished so far gave this player, as GNU Backgammon's "Actual result": in
    /// match play the match winning chance gained since the start (from the match equity table;
    /// +0.5 for winning a match from 0-0), in money play the points won (negative when lost).
    pub result: f64,
    /// The result with the luck taken out, GNU Backgammon's "Luck adjusted result": the result
    /// minus this player's luck plus the opponent's (in match winning chance in match play, in
    /// points, luck times the cube, in money play).
    pub luck_adjusted_result: f64,
}

impl PlayerTotals {
    /// The luck per roll (normalised equity), 0 without rolls: GNU Backgammon's "Luck rate".
    pub fn luck_rate(&self) -> f64 {
        match self.plays {
            0 => 0.0,
            n => self.luck / n as f64,
        }
    }

    /// GNU Backgammon's words for the luck rate (see [`luck_rating`]).
    pub fn luck_rating(&self) -> &'static str {
        luck_rating(self.luck_rate())
    }

    /// Decisions in the error rate: unforced checker plays and cube decisions.
    pub fn decisions(&self) -> usize {
        self.unforced_plays + self.cube_decisions
    }

    /// The total equity lost in counted decisions.
    pub fn equity_lost(&self) -> f64 {
        self.checker_error + self.cube_error
    }

    /// The total loss in match winning chance.
    pub fn mwc_lost(&self) -> f64 {
        self.checker_error_mwc + self.cube_error_mwc
    }

    /// GNU Backgammon's error rate: thousandths of equity lost per counted decision (mEMG), 0
    /// without decisions.
    pub fn error_rate(&self) -> f64 {
        match self.decisions() {
            0 => 0.0,
            n => 1000.0 * self.equity_lost() / n as f64,
        }
    }

    /// An eXtreme Gammon style performance rating: 500 times the equity lost per decision,
    /// which is half the error rate; XG counts its decisions its own way, so this compares
    /// only roughly.
    pub fn pr(&self) -> f64 {
        self.error_rate() / 2.0
    }

    /// GNU Backgammon's words for the error rate.
    pub fn rating(&self) -> &'static str {
        rating(self.error_rate() / 1000.0)
    }
}

/// GNU Backgammon's rating scale for an error rate in equity per decision: below 0.002
/// "Supernatural", below 0.005 "World class", 0.008 "Expert", 0.012 "Advanced", 0.018
/// "Intermediate", 0.026 "Casual player", 0.035 "Beginner", and "Awful!" above.
pub fn rating(per_decision: f64) -> &'static str {
    const SCALE: [(f64, &str); 7] = [
        (0.002, "Supernatural"),
        (0.005, "World class"),
        (0.008, "Expert"),
        (0.012, "Advanced"),
        (0.018, "Intermediate"),
        (0.026, "Casual player"),
        (0.035, "Beginner"),
    ];
    SCALE.iter().find(|(limit, _)| per_decision < *limit).map_or("Awful!", |(_, name)| name)
}

/// A match analysed: every decision in order, and each player's totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// The match length (0 for money).
    pub length: u32,
    /// The number of games.
    pub games: usize,
    /// The search depth used.
    pub ply: u8,
    /// The thresholds the marks used.
    pub thresholds: Thresholds,
    /// Every decision, in game order then in the order played.
    pub decisions: Vec<Decision>,
    /// Players 0 and 1.
    pub players: [PlayerTotals; 2],
}
