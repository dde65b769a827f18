//! The built-in backgammon policies, chosen by name, and the net policy behind them.

use super::net::screen::{Keep, Screen};
use super::net::{NeuralNet, Prepared, HEAD_KEEP};
use super::search::game_running;
use super::{Evaluator, Policy, Probabilities, PubevalPolicy, RandomPolicy};
use gammon_backgammon::dice_game::Backgammon;
use gammon_backgammon::moves::Play;
use gammon_backgammon::{legal_plays, legal_positions_into, Position};
use gammon_core::dice::{Dice, DiceStream};
use gammon_core::error::{Error, Result};

/// The backgammon policies that need no outside data, chosen by name (as the Python API's
/// `policy=` argument does).
///
/// ```
/// use gammon_bot::BuiltinPolicy;
/// assert_eq!(BuiltinPolicy::from_name("pubeval").unwrap(), BuiltinPolicy::Pubeval);
/// assert!(BuiltinPolicy::from_name("gnubg").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuiltinPolicy {
    /// [`RandomPolicy`].
    Random,
    /// [`PubevalPolicy`], Tesauro's linear evaluator.
    Pubeval,
    /// The rollouts' default, as strong as GNU Backgammon's 0-ply in about a tenth of its
    /// rollout time: the bot's nets judging the [`WIDE_KEEP`] plays of each roll that the bot's
    /// screen ([`Screen::bot`]) ranks highest, of those only the ones it scores within 0.15 of
    /// its best ([`WIDE_SCREEN`]), the head of their contact net only those [`WIDE_HEAD`]
    /// keeps, in integers ([`Prepared::with_integer_head`]), and back games by the contact net
    /// like other contact positions (the bot has a net of their own for them,
    /// [`NeuralNet::back_game`], judged whole, which would cost this policy several percent
    /// more time): within about a hundredth of a point a game of the bot. Its variance reduction
    /// measures the luck of each roll with `NetFast`'s luck net (docs/rollouts.md,
    /// docs/performance.md, docs/strength.md).
    Net,
    /// The rollouts' narrower nets ([`NeuralNet::fast`]) at 0-ply, judging the [`KEEP`] plays
    /// of each roll that the screen ranks highest ([`NeuralNet::best_of_screened`]): about 0.6
    /// of `Net`'s time a game and 0.08 of a point a game weaker. They lend their evaluator to
    /// truncation and variance reduction.
    NetFast,
    /// The bot's nets ([`NeuralNet::builtin`]) judging every play of each roll (the bot at
    /// 0-ply), for rollouts that must follow the bot's choices exactly: about 4 times
    /// `NetFast`'s time a game, 15 with variance reduction on both (docs/rollouts.md,
    /// docs/performance.md).
    NetAll,
}

/// The contact candidates of a roll whose value the head of the bot's contact net gives in
/// [`BuiltinPolicy::Net`], of those its first layer ranks highest
/// ([`Prepared::with_head`](super::net::Prepared::with_head)): the best [`HEAD_KEEP`] only
/// within 0.06 of the first layer's best. The head then judges about 2.4 candidates a choice
/// rather than 3.9, and a rollout game takes about 17% fewer instructions, for no loss that a
/// 100,000-game duel can see (docs/strength.md).
pub const WIDE_HEAD: Keep = Keep { most: HEAD_KEEP, margin: 0.06 };

/// How many plays of a roll [`BuiltinPolicy::Net`] judges with the bot's nets, those the
/// bot's screen ([`Screen::bot`]) ranks highest. That screen, trained on the bot's nets' play
/// with the best plays of a roll weighted most, keeps their best play among its best 6 about as
/// often as the rollouts' screen does among its best 8 (docs/training.md).
pub const WIDE_KEEP: usize = 6;

/// The plays of a roll [`BuiltinPolicy::Net`] judges with the bot's nets: the [`WIDE_KEEP`]
/// the bot's screen ranks highest, less those it scores more than 0.15 below its best. The
/// margin leaves out about a ninth of them, 3% of a contact turn's time, for about 0.0003 a game
/// (docs/strength.md).
pub const WIDE_SCREEN: Keep = Keep { most: WIDE_KEEP, margin: 0.15 };

impl BuiltinPolicy {
    /// `"random"`, `"pubeval"`, `"net"` (the default everywhere a policy is asked for),
    /// `"net-fast"` or `"net-all"`; `"default"` is still read as `"net"` so that older calls
    /// keep working.
    pub fn from_name(name: &str) -> Result<BuiltinPolicy> {
        match name {
            "random" => Ok(BuiltinPolicy::Random),
            "pubeval" => Ok(BuiltinPolicy::Pubeval),
            "net" | "default" => Ok(BuiltinPolicy::Net),
            "net-fast" => Ok(BuiltinPolicy::NetFast),
            "net-all" => Ok(BuiltinPolicy::NetAll),
            _ => Err(Error::InvalidArgument(format!(
                "unknown policy {name:?}: expected \"random\", \"pubeval\", \"net\", \"net-fast\" or \"net-all\""
            ))),
        }
    }

    /// The play this policy makes of `dice` from `position`, as it would inside a rollout:
    /// what a program playing or simulating with the rollouts' own players asks. `seed` picks
    /// the random policy's play (the others ignore it). An error if the game is over.
    ///
    /// ```
    /// use gammon_backgammon::{legal_plays, Position};
    /// use gammon_bot::BuiltinPolicy;
    /// use gammon_core::dice::Dice;
    /// let (start, roll) = (Position::initial(), Dice::new(3, 1).unwrap());
    /// let play = BuiltinPolicy::Net.play(&start, roll, 0).unwrap();
    /// assert!(legal_plays(&start, roll).contains(&play));
    /// ```
    pub fn play(&self, position: &Position, dice: Dice, seed: u64) -> Result<Play> {
        game_running(position)?;
        let plays = legal_plays(position, dice);
        // A single choice, made as on a fresh thread whatever this one chose before.
        self.forget_history();
        Ok(plays[self.choose(&Backgammon, position, dice, &plays, &mut DiceStream::new(seed, 0))])
    }

    /// The net policy behind `Net`, `NetFast` and `NetAll`, with their weights, their screen, the
    /// plays of a roll the full nets judge and how their head judges (`None` for the others).
    fn net_policy(&self) -> Option<NetPolicy<'static>> {
        // `net` trades exactness for time: its head judges in integers, and its back games
        // go to the contact net, ranked for the head like the other candidates.
        let (net, screen, keep, head, approximate) = match self {
            BuiltinPolicy::NetFast => {
                (NeuralNet::fast(), Screen::builtin(), Keep::from(KEEP), Keep::from(HEAD_KEEP), false)
            }
            BuiltinPolicy::Net => (NeuralNet::builtin(), Screen::bot(), WIDE_SCREEN, WIDE_HEAD, true),
            BuiltinPolicy::NetAll => (
                NeuralNet::builtin(),
                Screen::builtin(),
                Keep::from(usize::MAX),
                // The head on every candidate, as the bot's own choice at 0-ply.
                Keep::from(usize::MAX),
                false,
            ),
            _ => return None,
        };
        Some(
            NetPolicy::new(net, screen, keep)
                .with_head(head)
                .with_integer_head(approximate)
                .with_back_game_net(!approximate)
                .carrying_sums(approximate),
        )
    }
}

impl Policy<Backgammon> for BuiltinPolicy {
    #[inline]
    fn choose(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        plays: &[Play],
        stream: &mut DiceStream,
    ) -> usize {
        match self {
            BuiltinPolicy::Random => RandomPolicy.choose(game, position, dice, plays, stream),
            BuiltinPolicy::Pubeval => PubevalPolicy.choose(game, position, dice, plays, stream),
            BuiltinPolicy::NetFast | BuiltinPolicy::Net | BuiltinPolicy::NetAll => {
                self.net_policy().expect("a net policy").choose(game, position, dice, plays, stream)
            }
        }
    }

    fn choose_valued(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        plays: &[Play],
        stream: &mut DiceStream,
    ) -> (usize, Option<Probabilities>) {
        match self.net_policy() {
            Some(policy) => policy.choose_valued(game, position, dice, plays, stream),
            None => (self.choose(game, position, dice, plays, stream), None),
        }
    }

    fn choose_after(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        valued: bool,
        stream: &mut DiceStream,
    ) -> Option<(Position, Option<Probabilities>)> {
        self.net_policy()?.choose_after(game, position, dice, valued, stream)
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<Position>> {
        self.net_policy().map(|policy| policy.net as &dyn Evaluator<Position>)
    }

    fn roll_values(
        &self,
        game: &Backgammon,
        position: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        // The luck of `Net`'s rolls as `NetFast`'s luck net predicts it: any value of the
        // rolls keeps the rollout unbiased (`rollout::luck`), and the wide net's own value of
        // each roll would cost about eight times a game without it.
        let luck = match self {
            BuiltinPolicy::Net => BuiltinPolicy::NetFast.net_policy(),
            _ => self.net_policy(),
        };
        luck.is_some_and(|policy| policy.roll_values(game, position, plays, out, best))
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        self.net_policy().is_some_and(|policy| policy.chooses_the_evaluators_best())
    }

    fn deterministic(&self) -> bool {
        *self != BuiltinPolicy::Random
    }

    fn forget_history(&self) {
        if let Some(policy) = self.net_policy() {
            policy.forget_history();
        }
    }

    fn name(&self) -> &str {
        match self {
            BuiltinPolicy::Random => "random",
            BuiltinPolicy::Pubeval => "pubeval",
            BuiltinPolicy::Net => "net",
            BuiltinPolicy::NetFast => "net-fast",
            BuiltinPolicy::NetAll => "net-all",
        }
    }

    fn weights(&self) -> Option<&str> {
        self.net_policy().map(|_| crate::net::shipped_weights())
    }
}

/// A rollout's players: a [`BuiltinPolicy`] at 0-ply, or the bot's 1-ply search.
///
/// ```
/// use gammon_bot::policy::RolloutPlayer;
/// assert!(RolloutPlayer::new("net", 1).is_ok());
/// assert!(RolloutPlayer::new("pubeval", 1).is_err());
/// ```
#[derive(Clone, Copy, Debug)]
pub enum RolloutPlayer {
    /// A built-in policy at 0-ply.
    Policy(BuiltinPolicy),
    /// The bot at 1-ply ([`Bot`](crate::search::Bot) with its move filter: the best 8 plays at
    /// 0-ply are judged at 1-ply), on the bot's own nets, measuring luck with them at 0-ply.
    Bot(crate::search::Bot<'static>),
}

impl RolloutPlayer {
    /// The policy called `name` ([`BuiltinPolicy::from_name`]) at `ply`: 0, or 1 for the net
    /// policies (`"net"`, `"net-fast"` and `"net-all"` all become the bot's 1-ply search).
    pub fn new(name: &str, ply: u8) -> Result<RolloutPlayer> {
        let policy = BuiltinPolicy::from_name(name)?;
        match (ply, policy) {
            (0, _) => Ok(RolloutPlayer::Policy(policy)),
            (1, BuiltinPolicy::NetFast | BuiltinPolicy::Net | BuiltinPolicy::NetAll) => {
                Ok(RolloutPlayer::Bot(crate::search::Bot::new(1)?))
            }
            (1, _) => Err(Error::InvalidArgument(format!(
                "ply=1 needs a net policy (\"net\", \"net-fast\" or \"net-all\"), not {name:?}"
            ))),
            _ => Err(Error::InvalidArgument(format!("a rollout's ply must be 0 or 1, got {ply}"))),
        }
    }

    fn inner(&self) -> &dyn Policy<Backgammon> {
        match self {
            RolloutPlayer::Policy(p) => p,
            RolloutPlayer::Bot(b) => b,
        }
    }
}

impl Policy<Backgammon> for RolloutPlayer {
    #[inline]
    fn choose(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        plays: &[Play],
        stream: &mut DiceStream,
    ) -> usize {
        match self {
            RolloutPlayer::Policy(p) => p.choose(game, position, dice, plays, stream),
            RolloutPlayer::Bot(b) => b.choose(game, position, dice, plays, stream),
        }
    }

    fn choose_valued(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        plays: &[Play],
        stream: &mut DiceStream,
    ) -> (usize, Option<Probabilities>) {
        match self {
            RolloutPlayer::Policy(p) => p.choose_valued(game, position, dice, plays, stream),
            RolloutPlayer::Bot(b) => (b.choose(game, position, dice, plays, stream), None),
        }
    }

    fn choose_after(
        &self,
        game: &Backgammon,
        position: &Position,
        dice: Dice,
        valued: bool,
        stream: &mut DiceStream,
    ) -> Option<(Position, Option<Probabilities>)> {
        match self {
            RolloutPlayer::Policy(p) => p.choose_after(game, position, dice, valued, stream),
            RolloutPlayer::Bot(_) => None,
        }
    }

    fn evaluator(&self) -> Option<&dyn Evaluator<Position>> {
        self.inner().evaluator()
    }

    fn roll_values(
        &self,
        game: &Backgammon,
        position: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) -> bool {
        self.inner().roll_values(game, position, plays, out, best)
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        self.inner().chooses_the_evaluators_best()
    }

    fn deterministic(&self) -> bool {
        self.inner().deterministic()
    }

    fn forget_history(&self) {
        self.inner().forget_history()
    }

    fn name(&self) -> &str {
        match self {
            RolloutPlayer::Policy(p) => p.name(),
            RolloutPlayer::Bot(b) => b.name(),
        }
    }

    fn weights(&self) -> Option<&str> {
        self.inner().weights()
    }
}

/// A net at 0-ply as a rollout policy: of each roll's plays, the full nets judge the `keep` that
/// `screen` ranks highest ([`NeuralNet::best_of_screened`]; `usize::MAX` judges every play), and
/// the nets also serve truncation and variance reduction. [`BuiltinPolicy::NetFast`] is this policy
/// over the rollouts' shipped weights ([`NeuralNet::fast`]); training programs use it over the
/// weights they are making.
///
/// ```
/// use gammon_bot::net::{screen::Screen, NeuralNet};
/// use gammon_bot::{NetPolicy, KEEP};
/// use gammon_bot::rollout::{rollout, RolloutOptions};
/// use gammon_backgammon::Position;
/// let policy = NetPolicy::new(NeuralNet::builtin(), Screen::builtin(), KEEP);
/// let options = RolloutOptions { trials: 36, truncate: Some(4), ..RolloutOptions::default() };
/// let result = rollout(&Position::initial(), &policy, &options).unwrap();
/// assert!(result.probabilities.win > 0.3);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NetPolicy<'a> {
    net: &'a NeuralNet,
    screen: &'a Screen,
    keep: Keep,
    head: Keep,
    integer_head: bool,
    back_game_net: bool,
    carry_sums: bool,
}

impl<'a> NetPolicy<'a> {
    /// `net` choosing among the plays `screen` ranks highest: `keep` of them, or as [`Keep`]
    /// says.
    pub fn new(net: &'a NeuralNet, screen: &'a Screen, keep: impl Into<Keep>) -> NetPolicy<'a> {
        NetPolicy {
            net,
            screen,
            keep: keep.into(),
            head: Keep::from(HEAD_KEEP),
            integer_head: false,
            back_game_net: true,
            carry_sums: false,
        }
    }

    /// The same, the head of the contact net judging the candidates `head` keeps of those its
    /// direct path ranks highest ([`Prepared::with_head`](super::net::Prepared::with_head)), not
    /// the [`HEAD_KEEP`] best.
    pub fn with_head(self, head: impl Into<Keep>) -> NetPolicy<'a> {
        NetPolicy { head: head.into(), ..self }
    }

    /// The same, with `on`, the head judging in integers where the net has an integer head
    /// ([`Prepared::with_integer_head`](super::net::Prepared::with_integer_head)).
    pub fn with_integer_head(self, on: bool) -> NetPolicy<'a> {
        NetPolicy { integer_head: on, ..self }
    }

    /// The same, with `on` (the default), the candidates that leave a back game judged by the
    /// net's back-game net where it has one
    /// ([`Prepared::with_back_game_net`](super::net::Prepared::with_back_game_net)); without,
    /// by its contact net, ranked for the head like the others.
    pub fn with_back_game_net(self, on: bool) -> NetPolicy<'a> {
        NetPolicy { back_game_net: on, ..self }
    }

    /// The same, with `on`, each choice's hidden sums carried from those of the same side's
    /// choice two turns before on this thread
    /// ([`Prepared::carrying_sums`](super::net::Prepared::carrying_sums)): about 4% less time a
    /// `net` rollout game, the same sums up to rounding. Rollouts and duels call
    /// [`Policy::forget_history`] at the start of each game, so that their games are the same on
    /// every thread.
    pub fn carrying_sums(self, on: bool) -> NetPolicy<'a> {
        NetPolicy { carry_sums: on, ..self }
    }

    /// `position` made ready for this policy's net to judge the plays of a roll, for a choice
    /// that values the play chosen or not (`valued`).
    #[inline(always)]
    fn prepare(&self, position: &Position, valued: bool) -> Prepared<'a> {
        self.net
            .prepare(position)
            .with_head(self.head)
            .with_integer_head(self.integer_head)
            .with_back_game_net(self.back_game_net)
            .choosing_only(!valued)
            .carrying_sums(self.carry_sums)
    }

    /// The best of `plays` from `position`, as this policy chooses, and its value (exact if
    /// `valued`, else perhaps only the direct path's: [`Prepared::choosing_only`]).
    fn best_of(&self, position: &Position, plays: &[Play], valued: bool) -> (usize, Probabilities) {
        self.prepare(position, valued).choose_screened(self.screen, self.keep, plays)
    }
}

impl Policy<Backgammon> for NetPolicy<'_> {
    #[inline]
    fn choose(
        &self,
        _: &Backgammon,
        position: &Position,
        _: Dice,
        plays: &[Play],
        _: &mut DiceStream,
    ) -> usize {
        if plays.len() == 1 {
            return 0;
        }
        self.best_of(position, plays, false).0
    }

    fn choose_valued(
        &self,
        _: &Backgammon,
        position: &Position,
        _: Dice,
        plays: &[Play],
        _: &mut DiceStream,
    ) -> (usize, Option<Probabilities>) {
        // A forced play is valued too: from the inputs the last choice left, which costs less
        // than the fresh evaluation a cube decision would otherwise make, and leaves the next
        // choice its inputs to start from.
        let (k, value) = self.best_of(position, plays, true);
        (k, Some(value))
    }

    fn choose_after(
        &self,
        _: &Backgammon,
        position: &Position,
        dice: Dice,
        valued: bool,
        _: &mut DiceStream,
    ) -> Option<(Position, Option<Probabilities>)> {
        type Scratch = (Vec<Position>, Vec<Position>);
        thread_local! {
            // Reused: rollouts call this at every roll, and need not allocate each time.
            static SCRATCH: std::cell::RefCell<Scratch> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
        }
        SCRATCH.with_borrow_mut(|(all, kept)| {
            // The positions alone cost about half as much to generate as the plays, and the
            // screen and the nets give them the plays' values to the bit. Only equals need the
            // plays: the choice among them keeps the first in the plays' order.
            legal_positions_into(position, dice, all);
            if all.len() == 1 && !valued {
                // A forced play, which `choose` takes without judging it.
                return Some((all[0].swapped(), None));
            }
            let candidates = if self.keep.screens(all.len()) {
                if !self.screen.keep_best_positions(position, all, self.keep, kept) {
                    return None;
                }
                &kept[..]
            } else {
                &all[..]
            };
            // Should the choice fall to the plays (rarely), their path derives the inputs afresh:
            // the same inputs, to the bit, so the same choice.
            let mut prepared = self.prepare(position, valued);
            let (best, value) = prepared.best_of_positions(candidates)?;
            let after = candidates[best];
            prepared.remember_position(&after);
            Some((after.swapped(), valued.then_some(value)))
        })
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
        crate::rollout::luck::roll_values(self.net, self.screen, self.keep, position, plays, out, best);
        true
    }

    fn chooses_the_evaluators_best(&self) -> bool {
        // In contact the luck is measured on the screen's first play of each roll, not on the
        // play `choose` takes (see `rollout::luck`).
        false
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn forget_history(&self) {
        if self.carry_sums {
            crate::net::carry::forget();
        }
    }

    fn name(&self) -> &str {
        "net"
    }

    fn weights(&self) -> Option<&str> {
        // Nets being trained change under the same name: only the shipped ones are named.
        (self.net.shipped() != 0).then(crate::net::shipped_weights)
    }
}

/// How many plays of a roll the net policy judges with the full nets. Rollouts spend nearly all
/// their time judging plays; with eight, the full nets judge about a third as many as without
/// the screen, and the play chosen is nearly always the one they would choose among all (the
/// figures are in the `train_screen` example's report and the training notes).
pub const KEEP: usize = 8;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Bot;
    use gammon_backgammon::{legal_plays, DiceGame, Position};
    use gammon_core::dice::ALL_ROLLS;

    #[test]
    fn the_net_policies_take_the_screened_and_the_bots_plays() {
        assert_eq!(BuiltinPolicy::from_name("net-all").unwrap(), BuiltinPolicy::NetAll);
        assert_eq!(BuiltinPolicy::from_name("default").unwrap(), BuiltinPolicy::Net);
        let err = BuiltinPolicy::from_name("gnubg").unwrap_err().to_string();
        assert!(err.contains("gnubg") && err.contains("net-all"), "{err}");
        assert_eq!(BuiltinPolicy::from_name("net-fast").unwrap(), BuiltinPolicy::NetFast);
        assert!(BuiltinPolicy::from_name("net-wide").is_err());
        let (net, screen, bot) = (NeuralNet::fast(), Screen::builtin(), Bot::new(0).unwrap());
        let mut stream = DiceStream::new(4, 0);
        let mut p = Position::initial();
        let mut many = 0;
        for _ in 0..60 {
            for roll in [ALL_ROLLS[0], ALL_ROLLS[9], ALL_ROLLS[17]] {
                let plays = legal_plays(&p, roll);
                many += (plays.len() > KEEP) as u32;
                let screened = BuiltinPolicy::NetFast.choose(&Backgammon, &p, roll, &plays, &mut stream);
                let all = BuiltinPolicy::NetAll.choose(&Backgammon, &p, roll, &plays, &mut stream);
                let wide = BuiltinPolicy::Net.choose(&Backgammon, &p, roll, &plays, &mut stream);
                assert_eq!(screened, net.best_of_screened(screen, KEEP, &p, &plays).0);
                let mut wide_net =
                    NeuralNet::builtin().prepare(&p).with_head(WIDE_HEAD).with_integer_head(true);
                assert_eq!(wide, wide_net.best_of_screened(Screen::bot(), WIDE_SCREEN, &plays).0);
                assert_eq!(all, bot.best_index(&p, &plays));
            }
            let plays = legal_plays(&p, stream.roll());
            p = plays[plays.len() / 3].position.swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        // Rolls with more plays than are kept, where the screen matters.
        assert!(many > 20, "{many}");
        assert_eq!(BuiltinPolicy::NetAll.name(), "net-all");
        assert_eq!(BuiltinPolicy::Net.name(), "net");
        assert_eq!(BuiltinPolicy::NetFast.name(), "net-fast");
    }

    #[test]
    fn the_wide_policys_luck_is_the_rollout_nets() {
        let p = Position::from_board([
            0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0,
        ])
        .unwrap();
        let mut plays = vec![];
        let mut values = |policy: BuiltinPolicy| {
            let (mut out, mut best) = ([Probabilities::default(); 21], [0; 21]);
            assert!(policy.roll_values(&Backgammon, &p, &mut plays, &mut out, &mut best));
            out
        };
        assert_eq!(values(BuiltinPolicy::Net), values(BuiltinPolicy::NetFast));
        assert_ne!(values(BuiltinPolicy::Net), values(BuiltinPolicy::NetAll));
        // The evaluator that truncation asks is the wide net's own.
        let evaluator = BuiltinPolicy::Net.evaluator().unwrap();
        let bot = crate::search::Bot::new(0).unwrap();
        assert_eq!(evaluator.evaluate(&p), bot.evaluate(&p));
    }

    #[test]
    fn a_chosen_plays_value_is_its_evaluators_value_after_it() {
        // The reference is `value_after`: the evaluator's full evaluation of the position after
        // the play, turned around; the choice's value comes from incremental sums, so it may
        // differ in the last bits only.
        let mut stream = DiceStream::new(5, 0);
        let mut p = Position::initial();
        let mut valued = 0;
        for _ in 0..60 {
            for roll in [ALL_ROLLS[0], ALL_ROLLS[9], ALL_ROLLS[17]] {
                let plays = legal_plays(&p, roll);
                for policy in [BuiltinPolicy::NetFast, BuiltinPolicy::NetAll] {
                    let (k, value) = policy.choose_valued(&Backgammon, &p, roll, &plays, &mut stream);
                    assert_eq!(k, policy.choose(&Backgammon, &p, roll, &plays, &mut stream));
                    let Some(value) = value else {
                        assert_eq!(plays.len(), 1);
                        continue;
                    };
                    let evaluator = policy.evaluator().unwrap();
                    let reference = gammon_core::policy::value_after(&Backgammon, evaluator, &plays[k]);
                    for (a, b) in value.to_array().into_iter().zip(reference.to_array()) {
                        assert!((a - b).abs() < 1e-5, "{value:?} {reference:?}");
                    }
                    valued += 1;
                }
            }
            let plays = legal_plays(&p, stream.roll());
            p = plays[plays.len() / 3].position.swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        assert!(valued > 200, "{valued}");
        assert_eq!(
            BuiltinPolicy::Pubeval
                .choose_valued(&Backgammon, &p, ALL_ROLLS[0], &legal_plays(&p, ALL_ROLLS[0]), &mut stream)
                .1,
            None
        );
    }

    #[test]
    fn choosing_among_positions_takes_the_plays_choice_to_the_bit() {
        // The reference is the choice among the full plays (`choose` and `choose_valued`), which
        // the positions' choice must repeat: the same position after it and the same value, over
        // positions of games from the start to the bear-off, every roll.
        use gammon_backgammon::legal_positions;
        let mut stream = DiceStream::new(11, 0);
        let mut p = Position::initial();
        let (mut chosen, mut left, mut forced) = (0, 0, 0);
        // And a net policy whose screen keeps only the plays close to its best.
        let within = NetPolicy::new(NeuralNet::fast(), Screen::builtin(), Keep::from(KEEP).within(0.2));
        let policies: [&dyn Policy<Backgammon>; 4] =
            [&BuiltinPolicy::NetFast, &BuiltinPolicy::NetAll, &BuiltinPolicy::Net, &within];
        for _ in 0..400 {
            for roll in ALL_ROLLS {
                let plays = legal_plays(&p, roll);
                for (i, policy) in policies.into_iter().enumerate() {
                    for valued in [false, true] {
                        let Some((after, value)) =
                            policy.choose_after(&Backgammon, &p, roll, valued, &mut stream)
                        else {
                            // Equals at the screen's cut or among the best.
                            left += 1;
                            continue;
                        };
                        let (k, want) = if valued {
                            policy.choose_valued(&Backgammon, &p, roll, &plays, &mut stream)
                        } else {
                            (policy.choose(&Backgammon, &p, roll, &plays, &mut stream), None)
                        };
                        assert_eq!(after, plays[k].position.swapped(), "{p:?} {roll:?} policy {i}");
                        assert_eq!(value, want, "{p:?} {roll:?} policy {i}");
                        chosen += 1;
                        forced += (plays.len() == 1) as u32;
                    }
                }
            }
            let plays = legal_positions(&p, stream.roll());
            p = plays[plays.len() / 3].swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        assert!(chosen > 45_000 && forced > 150, "{chosen} {forced}");
        // The policies that cannot choose among positions leave it to the plays.
        let roll = ALL_ROLLS[3];
        assert_eq!(BuiltinPolicy::Pubeval.choose_after(&Backgammon, &p, roll, false, &mut stream), None);
        assert!(left * 100 < chosen, "{left} of {chosen} left to the plays");
    }

    #[test]
    fn a_net_policy_over_the_shipped_weights_rolls_out_as_the_builtin_ones() {
        use crate::rollout::{rollout, RolloutOptions};
        let options = RolloutOptions { trials: 72, truncate: Some(6), seed: 9, ..RolloutOptions::default() };
        let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
        // `NetAll`'s head judges every candidate, as the bot's choice at 0-ply.
        let nets = [
            (KEEP, HEAD_KEEP, NeuralNet::fast(), BuiltinPolicy::NetFast),
            (usize::MAX, usize::MAX, NeuralNet::builtin(), BuiltinPolicy::NetAll),
        ];
        for (keep, head, net, builtin) in nets {
            let policy = NetPolicy::new(net, Screen::builtin(), keep).with_head(head);
            let ours = rollout(&p, &policy, &options).unwrap();
            let theirs = rollout(&p, &builtin, &options).unwrap();
            assert_eq!(ours.probabilities, theirs.probabilities, "keep {keep}");
            assert!(ours.probabilities.win > 0.0 && ours.probabilities.win < 1.0);
        }
    }
}
