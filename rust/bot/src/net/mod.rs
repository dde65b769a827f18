//! The neural-net evaluator: a contact net, a race net and the exact bear-off database.
//!
//! A position is judged by the first of these that applies:
//! 1. both sides have every checker home: [`bearoff::probabilities`](super::bearoff) (exact where
//!    neither side has more than six checkers left, elsewhere up to the one-sided approximation);
//! 2. the sides can no longer hit each other ([`Position::is_race`]): the race net;
//! 3. otherwise the contact net.
//!
//! The bot's nets add a third, the back-game net ([`NeuralNet::back_game`]), which judges the
//! contact positions where one side plays a back game ([`back_game`]) in the contact net's place.
//!
//! The nets read the inputs of [`inputs`] and have five sigmoid outputs (win, win gammon, win
//! backgammon, lose gammon, lose backgammon), made consistent by [`consistent`]. They are
//! trained by TD self-play with the `train` program of `gammon-train`, then refined with its
//! `refine` program on positions labelled by the net's own search or rollouts. Two sets of
//! weights are compiled into the crate: the bot's, `data/net-v14.bin` ([`NeuralNet::builtin`]),
//! whose contact net has 256 hidden units and a [`head`] (a second hidden layer) of 128, with
//! its back-game net from `data/back-game-v1.bin` (the same shape), and the
//! rollouts', `data/net-v4.bin` ([`NeuralNet::fast`]), with 80 and no head: the bot's nets play
//! better, the narrower ones a rollout game in far less time.
//!
//! Candidate plays of one roll are judged together ([`NeuralNet::evaluate_plays`]): they differ
//! from the position before the roll in a handful of inputs, so each net's hidden sums are
//! computed once for that position and updated for each candidate. In a game, the inputs of the
//! position before the next roll are derived from those of the play [`NeuralNet::best_of`]
//! chose rather than encoded afresh.
//!
//! Rollouts go further ([`NeuralNet::best_of_screened`]): a small net of checker counts only,
//! the [`screen`], ranks the plays of a roll first, and the full nets judge only the few it
//! ranks highest. The bots judge every play.

pub mod carry;
pub mod head;
pub mod inputs;
pub mod integer_head;
pub mod luck;
pub mod network;
pub mod screen;
pub mod shape;

use super::{bearoff, Evaluator, Probabilities};
use gammon_backgammon::board::Position;
use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::moves::Play;
use gammon_core::error::{Error, Result};
use inputs::{encode, touched, touched_between, Reference, INPUTS, SIDE_INPUTS};
use integer_head::IntegerHead;
use network::{Network, MAX_HIDDEN, OUTPUTS};
use screen::{Keep, Screen};
use std::sync::OnceLock;

/// Pips a back-gamer trails by, at least, in [`back_game`].
pub const BACK_GAME_DEFICIT: u32 = 30;

/// Whether one side of `p` plays a back game: it holds two or more points in the other side's
/// home board and trails the race by at least [`BACK_GAME_DEFICIT`] pips. Such positions turn
/// on timing and late shots, which the contact net's value overrates for the side ahead (its
/// cube errors against gnubg's 2-ply are largest there, while its own rollouts played to the end
/// know better), so the bot judges them by a net of their own ([`NeuralNet::back_game`]).
///
/// ```
/// use gammon_backgammon::Position;
/// use gammon_bot::net::back_game;
/// assert!(!back_game(&Position::initial()));
/// ```
pub fn back_game(p: &Position) -> bool {
    let (ours, theirs) = p.pips();
    let held = |points: std::ops::RangeInclusive<usize>, sign: i8| {
        points.filter(|&i| sign * p.at(i) >= 2).count() >= 2
    };
    // Our home board is points 1..=6, theirs 19..=24 in our numbering.
    held(1..=6, -1) && ours + BACK_GAME_DEFICIT <= theirs
        || held(19..=24, 1) && theirs + BACK_GAME_DEFICIT <= ours
}

/// Whether some play from `before` (seen from the side about to play) might leave a back game,
/// a cheap test that rules most positions out: the opponent's points in the mover's home board
/// stay as they are (a hit takes only a blot), and the mover can hold two points in the
/// opponent's home board afterwards only with four checkers there or on the bar before.
fn back_game_possible(before: &Position) -> bool {
    let theirs = (1..=6).filter(|&i| before.at(i) <= -2).count();
    let ours: i32 = (19..=25).map(|i| before.at(i).max(0) as i32).sum();
    theirs >= 2 || ours >= 4
}

/// Which evaluator judges a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Both sides have every checker home: the bear-off database.
    BearOff,
    /// No more contact: the race net.
    Race,
    /// Anything else: the contact net.
    Contact,
}

impl Class {
    /// The class of `position`.
    pub fn of(position: &Position) -> Class {
        if bearoff::home_boards(position).is_some() {
            Class::BearOff
        } else if position.is_race() {
            Class::Race
        } else {
            Class::Contact
        }
    }
}

/// A position before a roll, made ready for a net to judge the candidate plays of its rolls:
/// the inputs every candidate's are derived from (the position with the turn passed, as each
/// candidate is seen) and, once first needed, the contact or race net's hidden sums for them.
/// Made by [`NeuralNet::prepare`]; it borrows the net, whose weights cannot change under it.
#[derive(Clone, Debug)]
pub struct Prepared<'a> {
    net: &'a NeuralNet,
    before: Position,
    reference: Reference,
    /// The hidden sums of the race, contact and back-game nets, each once first needed.
    sums: [[f32; MAX_HIDDEN]; 3],
    have: [bool; 3],
    /// Whether the candidates that leave a back game go to the net's back-game net
    /// ([`Prepared::with_back_game_net`]).
    back_games: bool,
    /// Which contact candidates of a choice the head judges ([`Prepared::with_head`]).
    head: Keep,
    /// The contact net's head in integers, judging instead of it
    /// ([`Prepared::with_integer_head`]).
    integer: Option<&'a IntegerHead>,
    /// Whether its choices need only the play, not its value ([`Prepared::choosing_only`]).
    choosing_only: bool,
    /// Whether its hidden sums are carried from an earlier turn ([`Prepared::carrying_sums`]).
    carry: bool,
}

/// Net outputs turned into cumulative probabilities that respect `win >= win_gammon >=
/// win_backgammon` and `1 - win >= lose_gammon >= lose_backgammon`.
pub fn consistent(y: &[f32; OUTPUTS]) -> Probabilities {
    let win = (y[0] as f64).clamp(0.0, 1.0);
    let win_gammon = (y[1] as f64).clamp(0.0, win);
    let lose_gammon = (y[3] as f64).clamp(0.0, 1.0 - win);
    Probabilities {
        win,
        win_gammon,
        win_backgammon: (y[2] as f64).clamp(0.0, win_gammon),
        lose_gammon,
        lose_backgammon: (y[4] as f64).clamp(0.0, lose_gammon),
        draw: 0.0,
    }
}

/// The nets, as one [`Evaluator`].
#[derive(Clone, Debug, PartialEq)]
pub struct NeuralNet {
    /// The contact net.
    pub contact: Network,
    /// The race net.
    pub race: Network,
    /// The back-game net, if any: judges the contact positions where one side plays a back game
    /// ([`back_game`]) in the contact net's place. The bot's shipped nets have one
    /// (`data/back-game-v1.bin`); nets read from a weights file have none.
    pub back_game: Option<Network>,
    /// Self-play games the weights were trained on (for reports).
    pub trained_games: u64,
}

/// How many contact candidates of a roll the contact net's head judges when a choice is made
/// among them, those its direct path ranks highest ([`Prepared::best_of`]).
pub const HEAD_KEEP: usize = 4;

/// The file format of nets without a [`head`](head::Head).
const MAGIC: &[u8; 8] = b"GAMMONN1";
/// The format that gives each net's head units (0 for none) after its shape.
const MAGIC_HEADS: &[u8; 8] = b"GAMMONN2";

/// The bot's weights, shipped with the crate: a contact net of 256 hidden units with a head of
/// 128, the race net.
static BUILTIN: &[u8] = include_bytes!("../../data/net-v14.bin");
/// The rollouts' weights: a contact net of 80 units and no head (the bot's before `net-v5`),
/// which makes a rollout game far faster.
static FAST: &[u8] = include_bytes!("../../data/net-v4.bin");
/// The bot's back-game net: the contact net of an ordinary weights file, `net-v13` refined on
/// back-game positions labelled by its own rollouts (`docs/training.md`); the file's race net is
/// not used.
static BACK_GAME: &[u8] = include_bytes!("../../data/back-game-v1.bin");
/// The shipped nets once loaded. Nothing can change them afterwards, which is what lets the
/// search remember values found with them ([`NeuralNet::shipped`]).
static BUILTIN_NET: OnceLock<NeuralNet> = OnceLock::new();
static FAST_NET: OnceLock<NeuralNet> = OnceLock::new();
/// The head of the bot's contact net in integers, made once when first asked for.
static BUILTIN_INTEGER_HEAD: OnceLock<Option<IntegerHead>> = OnceLock::new();

/// A digest of every weights file the crate ships (the nets, the screens, the luck net) in 16
/// hexadecimal digits, made once. A rollout's setup names the shipped policies' weights by it
/// ([`Policy::weights`](gammon_core::Policy::weights)), so that results of a release with other
/// weights never merge with this one's. FNV-1a over the bytes: it tells releases apart, no more.
///
/// ```
/// let digest = gammon_bot::net::shipped_weights();
/// assert_eq!(digest.len(), 16);
/// assert_eq!(digest, gammon_bot::net::shipped_weights());
/// ```
pub fn shipped_weights() -> &'static str {
    static DIGEST: OnceLock<String> = OnceLock::new();
    DIGEST.get_or_init(|| {
        let files = [BUILTIN, FAST, BACK_GAME, screen::BUILTIN, screen::BOT, luck::BUILTIN];
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for byte in files.iter().flat_map(|f| f.iter()) {
            hash = (hash ^ *byte as u64).wrapping_mul(0x0100_0000_01b3);
        }
        format!("{hash:016x}")
    })
}

impl NeuralNet {
    /// Untrained nets with `hidden` units each (the start of training).
    pub fn random(hidden: usize, seed: u64) -> NeuralNet {
        NeuralNet {
            contact: Network::random(INPUTS, hidden, seed),
            race: Network::random(INPUTS, hidden, seed ^ 1),
            back_game: None,
            trained_games: 0,
        }
    }

    /// The bot's shipped nets, loaded once: `net-v14`'s contact and race nets and the back-game
    /// net.
    ///
    /// ```
    /// use gammon_bot::{net::NeuralNet, Evaluator};
    /// use gammon_backgammon::Position;
    /// let p = NeuralNet::builtin().evaluate(&Position::initial());
    /// assert!(p.win > 0.4 && p.win < 0.6);
    /// ```
    pub fn builtin() -> &'static NeuralNet {
        BUILTIN_NET.get_or_init(|| {
            let back_game = NeuralNet::from_bytes(BACK_GAME).expect("the shipped weights are valid").contact;
            NeuralNet {
                back_game: Some(back_game),
                ..NeuralNet::from_bytes(BUILTIN).expect("the shipped weights are valid")
            }
        })
    }

    /// The narrower shipped nets that the `net-fast` rollout policy plays
    /// ([`BuiltinPolicy::NetFast`](crate::BuiltinPolicy::NetFast)), loaded once: their contact net
    /// has 80 hidden units to the bot's 256 and no head, which plays a rollout game far faster
    /// for about 0.05 points a game less at 0-ply against the same opponents (see
    /// `docs/training.md`).
    ///
    /// ```
    /// use gammon_bot::net::NeuralNet;
    /// assert!(NeuralNet::fast().contact.hidden() < NeuralNet::builtin().contact.hidden());
    /// ```
    pub fn fast() -> &'static NeuralNet {
        FAST_NET.get_or_init(|| NeuralNet::from_bytes(FAST).expect("the shipped weights are valid"))
    }

    /// Which shipped net this is, if it is one: 1 for [`NeuralNet::builtin`], 2 for
    /// [`NeuralNet::fast`], 0 for any other (whose weights may change between two calls, as
    /// training changes them in place). Neither shipped net is loaded by asking.
    pub fn shipped(&self) -> u8 {
        let is = |cell: &OnceLock<NeuralNet>| cell.get().is_some_and(|n| std::ptr::eq(n, self));
        if is(&BUILTIN_NET) {
            1
        } else if is(&FAST_NET) {
            2
        } else {
            0
        }
    }

    /// The head of the contact net with its input layer in integers ([`IntegerHead`]), for
    /// the bot's shipped nets only (`None` for any other, whose weights training may still
    /// change, and for a head the integer kernels do not take).
    ///
    /// ```
    /// use gammon_bot::net::NeuralNet;
    /// assert!(NeuralNet::builtin().integer_head().is_some());
    /// assert!(NeuralNet::fast().integer_head().is_none());
    /// ```
    pub fn integer_head(&self) -> Option<&'static IntegerHead> {
        if self.shipped() != 1 {
            return None;
        }
        BUILTIN_INTEGER_HEAD.get_or_init(|| self.contact.head.as_ref().and_then(IntegerHead::new)).as_ref()
    }

    /// Reads weights written by [`NeuralNet::to_bytes`] (the contact and race nets; no back-game
    /// net).
    pub fn from_bytes(bytes: &[u8]) -> Result<NeuralNet> {
        let heads = match bytes.get(..8) {
            Some(m) if m == MAGIC => false,
            Some(m) if m == MAGIC_HEADS => true,
            _ => return Err(Error::InvalidFormat("net weights: not a gammon net file".into())),
        };
        if bytes.len() < 16 {
            return Err(Error::InvalidFormat("net weights: truncated".into()));
        }
        let trained_games = u64::from_le_bytes(bytes[8..16].try_into().unwrap());
        let (contact, rest) = Network::read(&bytes[16..], heads)?;
        let (race, rest) = Network::read(rest, heads)?;
        if !rest.is_empty() || contact.inputs() != INPUTS || race.inputs() != INPUTS {
            return Err(Error::InvalidFormat("net weights: unexpected shape or trailing bytes".into()));
        }
        Ok(NeuralNet { contact, race, back_game: None, trained_games })
    }

    /// The weights as bytes: magic, games trained (u64 LE), the contact net, the race net (not
    /// the back-game net, which is shipped as a file of its own). Nets
    /// with a head are written in the second format (`GAMMONN2`), which gives each net's head
    /// units; the others keep the first.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Nets without heads keep the first format, so their files stay as they were.
        let heads = self.contact.head.is_some() || self.race.head.is_some();
        let mut out = if heads { MAGIC_HEADS } else { MAGIC }.to_vec();
        out.extend(self.trained_games.to_le_bytes());
        self.contact.write(&mut out, heads);
        self.race.write(&mut out, heads);
        out
    }

    /// The net for a class (`None` for bear-offs).
    pub fn net(&self, class: Class) -> Option<&Network> {
        match class {
            Class::BearOff => None,
            Class::Race => Some(&self.race),
            Class::Contact => Some(&self.contact),
        }
    }

    /// The net that judges `position` (`None` for a bear-off): the race net in a race, the
    /// back-game net where one side plays a back game and there is one, else the contact net.
    pub fn net_for(&self, position: &Position) -> Option<&Network> {
        match Class::of(position) {
            Class::Contact => Some(self.contact_net_for(position)),
            class => self.net(class),
        }
    }

    /// The net that judges `position`, a contact position: the back-game net or the contact net.
    #[inline]
    fn contact_net_for(&self, position: &Position) -> &Network {
        match &self.back_game {
            Some(net) if back_game(position) => net,
            _ => &self.contact,
        }
    }

    /// `before`, the position of the player about to roll, ready for judging the plays of its
    /// rolls.
    // Inlined, so that a caller's builders set the fields of the 4 KB value where it stays
    // rather than in a copy.
    #[inline(always)]
    pub fn prepare(&self, before: &Position) -> Prepared<'_> {
        // In a game the position is most often the one the last `best_of` on this thread
        // chose, whose inputs that call has already derived.
        let reference = CHOSEN.with_borrow_mut(|last| match last.take_if(|l| l.led_to(before)) {
            Some(l) => l.into_turned(),
            None => Reference::new(&before.swapped()),
        });
        Prepared::new(self, before, reference)
    }

    /// [`NeuralNet::prepare`] that leaves the last choice on this thread for the next `prepare`:
    /// a rollout measuring the luck of a position's rolls prepares it once for that, then again
    /// for the choice of the play of the roll thrown, and both derive its inputs from the play
    /// that led there.
    #[inline(always)]
    pub fn prepare_again(&self, before: &Position) -> Prepared<'_> {
        let reference =
            from_last_choice(before, Reference::clone).unwrap_or_else(|| Reference::new(&before.swapped()));
        Prepared::new(self, before, reference)
    }

    /// The inputs of `before` (the position of the player about to roll) into `x`, as [`encode`]
    /// writes them, bit for bit: derived, as [`NeuralNet::prepare_again`] does, from the last
    /// choice on this thread when it led there (leaving it for the next `prepare`), else
    /// encoded afresh.
    pub fn inputs_again(before: &Position, x: &mut [f32; INPUTS]) {
        // The inputs of a position are those of its swap, halves exchanged.
        let derived = from_last_choice(before, |turned| {
            x[..SIDE_INPUTS].copy_from_slice(&turned.x[SIDE_INPUTS..]);
            x[SIDE_INPUTS..].copy_from_slice(&turned.x[..SIDE_INPUTS]);
        });
        if derived.is_none() {
            encode(before, x);
        }
    }

    /// The values, for the player who moves, of the candidate `plays` from `before` (each the
    /// game's result if the play ends it, else the evaluation of the position after it, turned
    /// around), into `out` (cleared first).
    pub fn evaluate_plays(&self, before: &Position, plays: &[Play], out: &mut Vec<Probabilities>) {
        self.prepare(before).evaluate_plays(plays, out);
    }

    /// The best of `plays` (the legal plays of one roll from `before`, not empty) by cubeless
    /// equity, the first of equals, and its value for the mover. Where the contact net has a
    /// head, it judges only the [`HEAD_KEEP`] contact candidates that the net without it ranks
    /// highest, which are the only contact candidates taken; [`Prepared::best_of_all`] judges
    /// every candidate with it.
    pub fn best_of(&self, before: &Position, plays: &[Play]) -> (usize, Probabilities) {
        let mut prepared = self.prepare(before);
        let (best, value) = prepared.best_of(plays);
        prepared.remember(&plays[best]);
        (best, value)
    }

    /// The best of `plays` (the legal plays of one roll from `before`, not empty) by cubeless
    /// equity with every candidate judged by the whole net, the head on each
    /// ([`Prepared::best_of_all`]): the first play of [`NeuralNet::evaluate_plays`]'s values,
    /// the first of equals, and its value for the mover. The bot's choice at 0-ply, so that it
    /// is always the first of its ranking; [`NeuralNet::best_of`] costs less and, with
    /// `net-v14`, takes another play in about one decision in seventy, some 0.01 of equity
    /// worse by the net's own values (docs/strength.md).
    pub fn best_of_all(&self, before: &Position, plays: &[Play]) -> (usize, Probabilities) {
        let mut prepared = self.prepare(before);
        let (best, value) = prepared.best_of_all(plays);
        prepared.remember(&plays[best]);
        (best, value)
    }

    /// [`NeuralNet::best_of`] among the plays that `screen` ranks highest (`keep`: how many, and
    /// how close to its best; see [`Keep`]): the full nets judge only those (all of them when
    /// there are no more). The rollouts' net policy, which trades a little strength for speed
    /// (see [`screen`]).
    pub fn best_of_screened(
        &self,
        screen: &Screen,
        keep: impl Into<Keep>,
        before: &Position,
        plays: &[Play],
    ) -> (usize, Probabilities) {
        self.prepare(before).choose_screened(screen, keep, plays)
    }

    /// [`NeuralNet::roll_values`] with each roll's best play chosen as by
    /// [`NeuralNet::best_of_screened`].
    pub fn roll_values_screened(
        &self,
        screen: &Screen,
        keep: impl Into<Keep>,
        before: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) {
        let keep = keep.into();
        self.best_of_each_roll(before, plays, out, best, |prepared, plays| {
            prepared.best_of_screened(screen, keep, plays)
        });
    }

    /// For each of the 21 rolls ([`ALL_ROLLS`](gammon_backgammon::ALL_ROLLS) order) from `before`, its best
    /// play as the bot chooses it at 0-ply ([`NeuralNet::best_of_all`]): the index among the
    /// roll's legal plays into `best`, the value for the mover into `out`; `plays` is scratch
    /// space. The candidates of every roll are judged from one reference, prepared once.
    pub fn roll_values(
        &self,
        before: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
    ) {
        self.best_of_each_roll(before, plays, out, best, |prepared, plays| prepared.best_of_all(plays));
    }

    /// The play `choose` picks among the legal plays of each of the 21 rolls from `before`,
    /// all judged from one preparation.
    fn best_of_each_roll(
        &self,
        before: &Position,
        plays: &mut Vec<Play>,
        out: &mut [Probabilities; 21],
        best: &mut [usize; 21],
        mut choose: impl FnMut(&mut Prepared<'_>, &[Play]) -> (usize, Probabilities),
    ) {
        // A rollout chooses the play of the roll thrown next, from the same position.
        let mut prepared = self.prepare_again(before);
        for ((value, k), roll) in out.iter_mut().zip(best.iter_mut()).zip(gammon_backgammon::ALL_ROLLS) {
            gammon_backgammon::moves::legal_plays_into(before, roll, plays);
            (*k, *value) = choose(&mut prepared, plays);
        }
    }

    /// The raw outputs of the net judging `position` (which must not be a bear-off), with its
    /// inputs written to `x`.
    pub fn raw(&self, position: &Position, x: &mut [f32; INPUTS]) -> [f32; OUTPUTS] {
        encode(position, x);
        self.net_for(position).unwrap_or(&self.race).forward(x)
    }
}

/// The play [`NeuralNet::best_of`] last chose on a thread: the position after it, and the
/// reference and points it was judged from, from which [`NeuralNet::prepare`] derives that
/// position's reference.
struct Chosen {
    after: Position,
    reference: Reference,
    touched: [u32; 2],
}

/// The last choice on a thread as the next [`NeuralNet::prepare`] finds it: as
/// [`NeuralNet::best_of`] left it, or with the reference of the position it led to already
/// derived (by [`NeuralNet::prepare_again`] or [`NeuralNet::inputs_again`], which a rollout
/// measuring the luck of the position calls before choosing its play), so that it is derived once.
enum Last {
    Chosen(Chosen),
    /// The position after the choice, and its reference with the turn passed back.
    Turned(Position, Reference),
}

impl Last {
    /// Whether the choice led to `before`.
    fn led_to(&self, before: &Position) -> bool {
        match self {
            Last::Chosen(c) => c.after == *before,
            Last::Turned(after, _) => after == before,
        }
    }

    /// The reference of the position the choice led to, with the turn passed back.
    fn into_turned(self) -> Reference {
        match self {
            Last::Chosen(c) => c.reference.nearby(&c.after, c.touched).turned(),
            Last::Turned(_, turned) => turned,
        }
    }
}

thread_local! {
    static CHOSEN: std::cell::RefCell<Option<Last>> = const { std::cell::RefCell::new(None) };
}

/// What `read` makes of the reference of `before` with the turn passed (what
/// `Reference::new(&before.swapped())` gives), derived from the last choice on this thread when
/// that choice led to `before`; it stays, derived, for the next `prepare`. `None` when it did not.
fn from_last_choice<R>(before: &Position, read: impl FnOnce(&Reference) -> R) -> Option<R> {
    CHOSEN.with_borrow_mut(|last| {
        let turned = last.take_if(|l| l.led_to(before))?.into_turned();
        let r = read(&turned);
        *last = Some(Last::Turned(*before, turned));
        Some(r)
    })
}

/// Whether the CPU counts and scans bits in single instructions, which the builds for AVX2 and
/// AVX-512 use for the inputs' bookkeeping (every CPU with AVX2 has them).
#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
fn has_bit_instructions() -> bool {
    std::is_x86_feature_detected!("popcnt")
        && std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("lzcnt")
}

/// A candidate of one roll as the evaluation needs it: the position after it, with the turn
/// passed, and the points it can have changed ([`touched`]).
trait Candidate {
    fn after_and_touched(&self, before: &Position) -> (Position, [u32; 2]);
}

impl Candidate for Play {
    #[inline(always)]
    fn after_and_touched(&self, _: &Position) -> (Position, [u32; 2]) {
        (self.position.swapped(), touched(self))
    }
}

/// A resulting position as [`legal_positions_into`](gammon_backgammon::legal_positions_into)
/// gives it (still seen from the mover): the points it changed are found by comparing it with
/// the position before, which visits a subset of the points [`touched`] gives for the same play
/// (not the points a checker only passed through) and so the same inputs.
impl Candidate for Position {
    #[inline(always)]
    fn after_and_touched(&self, before: &Position) -> (Position, [u32; 2]) {
        (self.swapped(), touched_between(before, self))
    }
}

/// The contact candidates of one choice as the first layer values them, with their hidden
/// activations, so that the head judges the best few without the first layer again.
struct Ranking {
    /// The candidates' indices among all of the choice's candidates, in their order.
    candidates: Vec<u32>,
    /// Their hidden activations, one run of the contact net's width each, in the same order
    /// (and beyond them, room left from earlier choices, which stays to save filling it again).
    hidden: Vec<f32>,
    /// Their direct path's logits, in the same order.
    direct: Vec<[f32; 8]>,
    /// Places in `candidates`, best first (scratch space for the ranking).
    order: Vec<u32>,
}

thread_local! {
    /// The contact candidates of the choice being made, with their hidden activations.
    static RANKING: std::cell::RefCell<Ranking> = const { std::cell::RefCell::new(Ranking::new()) };
}

impl Ranking {
    const fn new() -> Ranking {
        Ranking { candidates: Vec::new(), hidden: Vec::new(), direct: Vec::new(), order: Vec::new() }
    }

    fn clear(&mut self) {
        self.candidates.clear();
        self.direct.clear();
    }

    /// Lists candidate `k`, giving the room for its `width` hidden activations and its direct
    /// path's logits.
    #[inline(always)]
    fn push(&mut self, k: usize, width: usize) -> (&mut [f32], &mut [f32; 8]) {
        let start = self.candidates.len() * width;
        self.candidates.push(k as u32);
        if self.hidden.len() < start + width {
            self.hidden.resize(start + width, 0.0);
        }
        self.direct.push([0.0; 8]);
        (&mut self.hidden[start..start + width], self.direct.last_mut().expect("just pushed"))
    }

    /// Replaces the first layer's values in `values` of every listed candidate by `net`'s whole
    /// judgement.
    #[inline(always)]
    fn judge_all(&mut self, net: Judge, values: &mut [Probabilities]) {
        let Ranking { candidates, hidden, direct, order } = self;
        order.clear();
        order.extend(0..candidates.len() as u32);
        judge(net, candidates, (hidden, direct), order, values);
    }

    /// Replaces the first layer's values in `values` of the listed candidates that `head` keeps
    /// of those it ranks highest (the first of equals first, as a choice takes them) by `net`'s
    /// whole judgement, and marks the other listed candidates not `eligible`; with
    /// `choosing_only`, not where that judgement cannot change the choice: one candidate kept
    /// and every candidate listed.
    #[inline(always)]
    fn judge_best(
        &mut self,
        net: Judge,
        head: Keep,
        choosing_only: bool,
        values: &mut [Probabilities],
        eligible: &mut [bool],
    ) {
        let Ranking { candidates, hidden, direct, order } = self;
        order.clear();
        order.extend(0..candidates.len() as u32);
        // A stable sort of places in candidate order: equals stay in the order of the candidates.
        order.sort_by(|&a, &b| {
            let (a, b) = (candidates[a as usize] as usize, candidates[b as usize] as usize);
            values[b].equity().total_cmp(&values[a].equity())
        });
        let equity = |place: &u32| values[candidates[*place as usize] as usize].equity();
        let top = order.first().map_or(0.0, equity);
        let kept =
            order.iter().take(head.most.max(1)).skip(1).take_while(|p| top - equity(p) <= head.margin as f64);
        let (best, rest) = order.split_at(order.len().min(1 + kept.count()));
        if !(choosing_only && best.len() == 1 && candidates.len() == values.len()) {
            judge(net, candidates, (hidden, direct), best, values);
        }
        for &place in rest {
            eligible[candidates[place as usize] as usize] = false;
        }
    }
}

/// The contact net that judges a choice's best candidates in full, and its head in integers if
/// that judges instead ([`Prepared::with_integer_head`]).
type Judge<'a> = (&'a Network, Option<&'a IntegerHead>);

/// Replaces the values in `values` of the listed candidates at `places` (places in the list of
/// `candidates`, whose hidden activations and direct path's logits `kept` holds in the same
/// order) by `net`'s whole judgement, several at a time: the head judges up to four in one pass
/// over its weights.
#[inline(always)]
fn judge(
    (net, integer): Judge,
    candidates: &[u32],
    (hidden, direct): (&[f32], &[[f32; 8]]),
    places: &[u32],
    values: &mut [Probabilities],
) {
    let width = net.hidden();
    let hidden_of = |place: u32| &hidden[place as usize * width..(place as usize + 1) * width];
    let direct_of = |place: u32| direct[place as usize];
    let k = |place: u32| candidates[place as usize] as usize;
    if let Some(head) = integer {
        for group in places.chunks(integer_head::MOST) {
            let (h, d) = (|i: usize| hidden_of(group[i]), |i: usize| direct_of(group[i]));
            let mut y = [[0.0; OUTPUTS]; integer_head::MOST];
            match group.len() {
                4 => y = net.outputs_integer(head, [h(0), h(1), h(2), h(3)], [d(0), d(1), d(2), d(3)]),
                3 => {
                    y[..3].copy_from_slice(&net.outputs_integer(head, [h(0), h(1), h(2)], [d(0), d(1), d(2)]))
                }
                2 => y[..2].copy_from_slice(&net.outputs_integer(head, [h(0), h(1)], [d(0), d(1)])),
                _ => y[..1].copy_from_slice(&net.outputs_integer(head, [h(0)], [d(0)])),
            }
            for (&place, y) in group.iter().zip(&y) {
                values[k(place)] = consistent(y).flipped();
            }
        }
        return;
    }
    for group in places.chunks(4) {
        let mut set = |place: u32, y: &[f32; OUTPUTS]| values[k(place)] = consistent(y).flipped();
        match *group {
            [a, b, c, d] => {
                let y = net.outputs_quad(
                    [hidden_of(a), hidden_of(b), hidden_of(c), hidden_of(d)],
                    [direct_of(a), direct_of(b), direct_of(c), direct_of(d)],
                );
                [a, b, c, d].iter().zip(&y).for_each(|(&place, y)| set(place, y));
            }
            _ => {
                for pair in group.chunks(2) {
                    if let [a, b] = *pair {
                        let y = net.outputs_pair([hidden_of(a), hidden_of(b)], [direct_of(a), direct_of(b)]);
                        set(a, &y[0]);
                        set(b, &y[1]);
                    } else {
                        set(pair[0], &net.outputs_given(hidden_of(pair[0]), direct_of(pair[0])));
                    }
                }
            }
        }
    }
}

impl<'a> Prepared<'a> {
    // Inlined, as are the builders below: a `Prepared` holds three nets' hidden sums (3 KB),
    // which a call would copy at each step of a chain of builders.
    #[inline(always)]
    fn new(net: &'a NeuralNet, before: &Position, reference: Reference) -> Prepared<'a> {
        let head = Keep::from(HEAD_KEEP);
        let (sums, have, integer) = ([[0.0; MAX_HIDDEN]; 3], [false; 3], None);
        let back_games = net.back_game.is_some();
        Prepared {
            net,
            before: *before,
            reference,
            sums,
            have,
            back_games,
            head,
            integer,
            choosing_only: false,
            carry: false,
        }
    }

    /// The same, its choices letting the head judge the contact candidates that `head` keeps of
    /// those the direct path ranks highest: at most `head.most` (at least one), and only those
    /// the direct path values within `head.margin` of its best (in cubeless equity). A choice
    /// keeps [`HEAD_KEEP`] by default; a narrower one costs a rollout less time, as the head's
    /// work is most of a choice's, and can take a play the default would not.
    ///
    /// ```
    /// use gammon_bot::net::{screen::Keep, NeuralNet, HEAD_KEEP};
    /// use gammon_backgammon::{legal_plays, Position};
    /// use gammon_core::dice::Dice;
    /// let net = NeuralNet::builtin();
    /// let before = Position::initial();
    /// let plays = legal_plays(&before, Dice::new(6, 2).unwrap());
    /// let (best, _) = net.prepare(&before).with_head(Keep::from(HEAD_KEEP)).best_of(&plays);
    /// assert_eq!(best, net.best_of(&before, &plays).0);
    /// ```
    #[inline(always)]
    pub fn with_head(mut self, head: impl Into<Keep>) -> Prepared<'a> {
        self.head = head.into();
        self
    }

    /// The same, with `on`, its head judging in integers where the net has an
    /// [`NeuralNet::integer_head`] (the bot's shipped nets): values within about 1.5e-4 of the
    /// head's in less time, for the rollouts' `net` policy. The bot's own
    /// values stay those of the `f32` head.
    #[inline(always)]
    pub fn with_integer_head(mut self, on: bool) -> Prepared<'a> {
        self.integer = if on { self.net.integer_head() } else { None };
        self
    }

    /// The same, with `on`, its candidates that leave a back game judged by the back-game net
    /// where the net has one (the default), else by the contact net like the others: judged by
    /// their own net, they are judged whole rather than ranked for the head, which costs a
    /// rollout of `net` several percent more time.
    #[inline(always)]
    pub fn with_back_game_net(mut self, on: bool) -> Prepared<'a> {
        self.back_games &= on;
        self
    }

    /// The same, for choices whose caller wants only the play: where the head would judge just
    /// one contact candidate and every candidate is one (so that its value is compared with no
    /// other), the head is left out and the value returned is its direct path's. The play chosen
    /// is the same; a cubeless rollout of `net`, which does not value its plays, took
    /// about 8% less time with it (docs/performance.md).
    #[inline(always)]
    pub fn choosing_only(mut self, on: bool) -> Prepared<'a> {
        self.choosing_only = on;
        self
    }

    /// The same, with `on`, its hidden sums carried from those of an earlier choice on this
    /// thread that also carried them, where few inputs differ ([`carry`]): equal to the sums
    /// made afresh up to rounding, for about 4% less time a rollout game of `net`. As the
    /// rounding depends on what the thread chose before, a caller that needs the same values on
    /// every thread calls [`carry::forget`] at the start of each game. The sums kept are known
    /// by their net's address, so a caller also forgets them before a net they were kept for
    /// changes its weights or is dropped (rollouts and duels forget at every game's start).
    #[inline(always)]
    pub fn carrying_sums(mut self, on: bool) -> Prepared<'a> {
        self.carry = on;
        self
    }
}

impl Prepared<'_> {
    /// [`NeuralNet::evaluate_plays`] from the prepared position.
    pub fn evaluate_plays(&mut self, plays: &[Play], out: &mut Vec<Probabilities>) {
        self.evaluate(plays, out)
    }

    /// [`Prepared::evaluate_plays`] for candidates given as the positions they lead to, seen from
    /// the mover, as [`legal_positions_into`](gammon_backgammon::legal_positions_into) gives
    /// them: the same values, bit for bit, as for the plays that lead there.
    pub fn evaluate_positions(&mut self, positions: &[Position], out: &mut Vec<Probabilities>) {
        self.evaluate(positions, out)
    }

    /// Every candidate judged by the whole net; where the contact net has a head, the contact
    /// candidates' hidden activations are kept and the head judges them two at a time
    /// ([`Ranking::judge_all`]), the same values to the bit. A lone candidate skips that
    /// bookkeeping, unless the head judges in integers: a forced play valued for a cube decision
    /// then costs a quarter less, and is judged as a choice among several would judge it.
    #[inline(always)]
    fn evaluate<C: Candidate>(&mut self, candidates: &[C], out: &mut Vec<Probabilities>) {
        if (candidates.len() < 2 && self.integer.is_none()) || self.net.contact.head.is_none() {
            return self.evaluate_or_rank(candidates, out, None);
        }
        RANKING.with_borrow_mut(|ranking| self.evaluate_or_rank(candidates, out, Some((ranking, None))))
    }

    /// The values a choice among `candidates` needs, into `values`, and which candidates it may
    /// take into `eligible`. Where the contact net has a head, the head judges only the
    /// [`HEAD_KEEP`] contact candidates that its direct path ranks highest: the others keep the
    /// direct path's values and are not eligible. Every other value is exact. The direct path
    /// puts the head's choice among its best four in all but about 0.4% of contact decisions,
    /// which then lose about 0.01 of equity by the full net's judgement, while the head's work
    /// falls to a fraction.
    fn values_for_choice<C: Candidate>(
        &mut self,
        candidates: &[C],
        values: &mut Vec<Probabilities>,
        eligible: &mut Vec<bool>,
    ) {
        eligible.clear();
        eligible.resize(candidates.len(), true);
        if !self.head.screens(candidates.len()) || self.net.contact.head.is_none() {
            return self.evaluate(candidates, values);
        }
        RANKING.with_borrow_mut(|ranking| {
            self.evaluate_or_rank(candidates, values, Some((ranking, Some(eligible))))
        })
    }

    /// Every candidate judged by the whole net, one at a time; with `ranked`, contact candidates
    /// are first valued by the contact net's direct path alone
    /// ([`Network::outputs_after_keeping_hidden`]), then, with `eligible`
    /// ([`Prepared::values_for_choice`]), the [`HEAD_KEEP`] best of them by the whole net from
    /// the hidden activations kept and the others marked not eligible, or without it all of
    /// them ([`Prepared::evaluate`]).
    #[inline(always)]
    fn evaluate_or_rank<C: Candidate>(
        &mut self,
        candidates: &[C],
        out: &mut Vec<Probabilities>,
        ranked: Option<(&mut Ranking, Option<&mut Vec<bool>>)>,
    ) {
        // The hidden-layer loops run over rows of f32; where the CPU has AVX-512 or AVX2 the same
        // code compiled for it handles sixteen or eight at a time instead of four. No fused
        // multiply-add is enabled, so every build rounds identically and gives bit-equal results.
        #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
        {
            let bits = has_bit_instructions();
            if bits && std::is_x86_feature_detected!("avx512f") {
                // SAFETY: the CPU supports AVX-512F and the bit instructions, checked just above.
                return unsafe { self.evaluate_avx512(candidates, out, ranked) };
            }
            if bits && std::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU supports AVX2 and the bit instructions, checked just above.
                return unsafe { self.evaluate_avx2(candidates, out, ranked) };
            }
        }
        self.evaluate_with(candidates, out, ranked)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx512f,popcnt,bmi1,lzcnt")]
    unsafe fn evaluate_avx512<C: Candidate>(
        &mut self,
        candidates: &[C],
        out: &mut Vec<Probabilities>,
        ranked: Option<(&mut Ranking, Option<&mut Vec<bool>>)>,
    ) {
        self.evaluate_with(candidates, out, ranked)
    }

    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    #[target_feature(enable = "avx2,popcnt,bmi1,lzcnt")]
    unsafe fn evaluate_avx2<C: Candidate>(
        &mut self,
        candidates: &[C],
        out: &mut Vec<Probabilities>,
        ranked: Option<(&mut Ranking, Option<&mut Vec<bool>>)>,
    ) {
        self.evaluate_with(candidates, out, ranked)
    }

    #[inline(always)]
    fn evaluate_with<C: Candidate>(
        &mut self,
        candidates: &[C],
        out: &mut Vec<Probabilities>,
        mut ranked: Option<(&mut Ranking, Option<&mut Vec<bool>>)>,
    ) {
        out.clear();
        if let Some((r, _)) = ranked.as_mut() {
            r.clear();
        }
        let mut changes = [(0u32, 0.0f32); INPUTS];
        // The back-game net, if a candidate may need it: tested here rather than when prepared,
        // so that a policy that leaves back games to the contact net never pays for the test.
        let back_game_net =
            self.net.back_game.as_ref().filter(|_| self.back_games && back_game_possible(&self.before));
        // In a bear-off every candidate is one, each looked up in the databases: their misses
        // of the caches overlap when all are asked for first.
        if bearoff::home_boards(&self.before).is_some() {
            for candidate in candidates {
                bearoff::prefetch(&candidate.after_and_touched(&self.before).0);
            }
        }
        for candidate in candidates {
            let (after, touched) = candidate.after_and_touched(&self.before);
            if let Some(points) = Backgammon.result(&after) {
                out.push(Probabilities::from_points(-points));
                continue;
            }
            let nearby = self.reference.nearby(&after, touched);
            let value = if nearby.all_home() {
                bearoff::probabilities(&after).expect("bear-off class")
            } else {
                let class = if nearby.is_race() { Class::Race } else { Class::Contact };
                // Back games go to their own net, judged whole like race candidates: the head
                // ranks only the contact net's.
                let back = back_game_net.filter(|_| class == Class::Contact && back_game(&after));
                let (k, net) = match back {
                    Some(net) => (2, net),
                    None => ((class == Class::Contact) as usize, self.net.net(class).expect("a net class")),
                };
                if !self.have[k] {
                    if self.carry {
                        carry::hidden_sums(net, &self.reference.x, &mut self.sums[k]);
                    } else {
                        net.hidden_sums(&self.reference.x, &mut self.sums[k]);
                    }
                    self.have[k] = true;
                }
                let mut n = 0;
                nearby.changes(|i, d| {
                    changes[n] = (i as u32, d);
                    n += (d != 0.0) as usize;
                });
                match ranked.as_mut() {
                    Some((r, _)) if class == Class::Contact && back.is_none() => {
                        let (hidden, direct) = r.push(out.len(), net.hidden());
                        consistent(&net.outputs_after_keeping_hidden(
                            &self.sums[k],
                            &changes[..n],
                            hidden,
                            direct,
                        ))
                    }
                    _ => consistent(&net.outputs_after(&self.sums[k], &changes[..n])),
                }
            };
            out.push(value.flipped());
        }
        if let Some((r, eligible)) = ranked {
            let net = (self.net.net(Class::Contact).expect("a contact net"), self.integer);
            match eligible {
                Some(eligible) => r.judge_best(net, self.head, self.choosing_only, out, eligible),
                None => r.judge_all(net, out),
            }
        }
    }

    /// Leaves what the next [`NeuralNet::prepare`] needs if the game goes on from `chosen`, a
    /// play from the prepared position; deriving its inputs is left to that call, as a bot asked
    /// about unrelated positions never makes it. By reference, as [`Prepared::remember_position`].
    #[inline(always)]
    fn remember(&self, chosen: &Play) {
        let reference = self.reference.clone();
        let chosen = Chosen { after: chosen.position.swapped(), reference, touched: touched(chosen) };
        CHOSEN.with_borrow_mut(|c| *c = Some(Last::Chosen(chosen)));
    }

    /// `Prepared::remember` for a choice made among the positions of
    /// [`legal_positions_into`](gammon_backgammon::legal_positions_into): `chosen` is the position
    /// after it, seen from the mover. The points compared ([`touched_between`]) give the same
    /// inputs as the play's, as for [`Prepared::evaluate_positions`].
    // By reference, copying the 1 KB of inputs kept: taken by value, the whole 4 KB `Prepared`
    // was copied to be moved, even inlined.
    #[inline(always)]
    pub fn remember_position(&self, chosen: &Position) {
        let touched = touched_between(&self.before, chosen);
        let chosen = Chosen { after: chosen.swapped(), reference: self.reference.clone(), touched };
        CHOSEN.with_borrow_mut(|c| *c = Some(Last::Chosen(chosen)));
    }

    /// [`NeuralNet::best_of_screened`] from the prepared position.
    pub fn best_of_screened(
        &mut self,
        screen: &Screen,
        keep: impl Into<Keep>,
        plays: &[Play],
    ) -> (usize, Probabilities) {
        let keep = keep.into();
        if !keep.screens(plays.len()) {
            return self.best_of(plays);
        }
        thread_local! {
            static KEPT: std::cell::RefCell<(Vec<usize>, Vec<Play>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
        }
        KEPT.with_borrow_mut(|(kept, subset)| {
            screen.keep_best(&self.before, plays, keep, kept);
            subset.clear();
            subset.extend(kept.iter().map(|&k| plays[k]));
            let (best, value) = self.best_of(subset);
            (kept[best], value)
        })
    }

    /// [`Prepared::best_of_screened`] as a game's choice: what the next
    /// [`NeuralNet::prepare`] needs if the game goes on from the play chosen is left for it, as
    /// [`NeuralNet::best_of_screened`] leaves it.
    pub fn choose_screened(
        mut self,
        screen: &Screen,
        keep: impl Into<Keep>,
        plays: &[Play],
    ) -> (usize, Probabilities) {
        let (best, value) = self.best_of_screened(screen, keep, plays);
        self.remember(&plays[best]);
        (best, value)
    }

    /// [`Prepared::best_of`] with every candidate judged in full, the head on each: the first
    /// best by the net's values, as [`Prepared::evaluate_plays`] gives them.
    pub fn best_of_all(&mut self, plays: &[Play]) -> (usize, Probabilities) {
        VALUES.with_borrow_mut(|(values, eligible)| {
            self.evaluate_plays(plays, values);
            eligible.clear();
            eligible.resize(values.len(), true);
            let best = first_best(values, eligible);
            (best, values[best])
        })
    }

    /// [`NeuralNet::best_of`] from the prepared position.
    pub fn best_of(&mut self, plays: &[Play]) -> (usize, Probabilities) {
        VALUES.with_borrow_mut(|(values, eligible)| {
            self.values_for_choice(plays, values, eligible);
            let best = first_best(values, eligible);
            (best, values[best])
        })
    }

    /// The best of `positions` (the distinct positions the legal plays of one roll lead to, seen
    /// from the mover, not empty) by cubeless equity, judged as [`NeuralNet::best_of`] judges
    /// them, and its value for the mover; `None` when another position it may take has the same
    /// equity. [`Prepared::best_of`] keeps the first of equals in
    /// the order of the legal plays, which positions alone do not tell, so a caller that must
    /// choose as it does asks it then.
    pub fn best_of_positions(&mut self, positions: &[Position]) -> Option<(usize, Probabilities)> {
        VALUES.with_borrow_mut(|(values, eligible)| {
            self.values_for_choice(positions, values, eligible);
            let best = sole_best(values, |k| eligible[k])?;
            Some((best, values[best]))
        })
    }
}

impl Prepared<'_> {
    /// [`Prepared::best_of_positions`] judging only the positions `judged` does not hold yet, and
    /// adding them to it: the rolls of one position lead to many of the same positions (a
    /// checker moved 4-1 or 3-2 in one go), which need judging once. `judged` must hold only
    /// values from this prepared position ([`Judged::clear`] between two), so that every value
    /// is the one judging it again would give, to the bit.
    pub fn best_of_new_positions(
        &mut self,
        positions: &[Position],
        judged: &mut Judged,
    ) -> Option<(usize, Probabilities)> {
        /// The positions to judge, their values, their places in `positions`, and every
        /// position's value.
        type Scratch = (Vec<Position>, Vec<Probabilities>, Vec<usize>, Vec<Probabilities>);
        thread_local! {
            static SCRATCH: std::cell::RefCell<Scratch> = const { std::cell::RefCell::new((Vec::new(), Vec::new(), Vec::new(), Vec::new())) };
        }
        SCRATCH.with_borrow_mut(|(fresh, fresh_values, places, values)| {
            fresh.clear();
            places.clear();
            values.clear();
            for (k, q) in positions.iter().enumerate() {
                let known = judged.get(q);
                if known.is_none() {
                    fresh.push(*q);
                    places.push(k);
                }
                values.push(known.unwrap_or_default());
            }
            self.evaluate_positions(fresh, fresh_values);
            for ((q, &value), &k) in fresh.iter().zip(fresh_values.iter()).zip(places.iter()) {
                judged.put(q, value);
                values[k] = value;
            }
            let best = sole_best(values, |_| true)?;
            Some((best, values[best]))
        })
    }
}

/// The values of the candidates already judged from one prepared position (see
/// [`Prepared::best_of_new_positions`]), by the position a candidate leads to: a hash table of
/// fixed size that is emptied by a stamp rather than by clearing it, and that stops taking new
/// entries once half full (those are then judged each time, as without it).
#[derive(Clone, Debug, Default)]
pub struct Judged {
    stamp: u32,
    count: usize,
    slots: Vec<(u32, Position, Probabilities)>,
}

/// Slots of [`Judged`]: twice the most candidates the 21 rolls of a position commonly have.
const JUDGED_SLOTS: usize = 2048;

/// A hash of `position` for tables keyed by it (its 28 bytes as four words, mixed by
/// multiplication), with `extra` mixed in.
pub fn position_hash(position: &Position, extra: u32) -> u64 {
    let mut bytes = [0u8; 32];
    for (d, &n) in bytes.iter_mut().zip(position.board()) {
        *d = n as u8;
    }
    let (ours, theirs) = position.off();
    bytes[26] = ours;
    bytes[27] = theirs;
    bytes[28..32].copy_from_slice(&extra.to_le_bytes());
    let mut h = 0u64;
    for w in bytes.chunks_exact(8) {
        h = (h ^ u64::from_le_bytes(w.try_into().unwrap())).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
    }
    h
}

impl Judged {
    /// Forgets every value (in constant time).
    pub fn clear(&mut self) {
        self.count = 0;
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 || self.slots.is_empty() {
            // A fresh table, also when the stamp comes round again.
            self.slots = vec![(0, Position::initial(), Probabilities::default()); JUDGED_SLOTS];
            self.stamp = 1;
        }
    }

    fn start(position: &Position) -> usize {
        (position_hash(position, 0) >> 40) as usize & (JUDGED_SLOTS - 1)
    }

    fn get(&self, position: &Position) -> Option<Probabilities> {
        if self.slots.is_empty() {
            return None;
        }
        let mut i = Judged::start(position);
        loop {
            let (stamp, q, v) = &self.slots[i];
            if *stamp != self.stamp {
                return None;
            }
            if q == position {
                return Some(*v);
            }
            i = (i + 1) & (JUDGED_SLOTS - 1);
        }
    }

    fn put(&mut self, position: &Position, value: Probabilities) {
        if self.slots.is_empty() || 2 * self.count >= JUDGED_SLOTS {
            return;
        }
        let mut i = Judged::start(position);
        while self.slots[i].0 == self.stamp {
            i = (i + 1) & (JUDGED_SLOTS - 1);
        }
        self.slots[i] = (self.stamp, *position, value);
        self.count += 1;
    }
}

/// The index of the first of the `eligible` candidates (at least one) with the highest equity
/// among them.
fn first_best(values: &[Probabilities], eligible: &[bool]) -> usize {
    let mut best = eligible.iter().position(|&e| e).expect("an eligible candidate");
    for k in best + 1..values.len() {
        if eligible[k] && values[k].equity() > values[best].equity() {
            best = k;
        }
    }
    best
}

/// The index of the one candidate with the highest equity among those `eligible` (at least
/// one), or `None` when another of them has the same equity.
fn sole_best(values: &[Probabilities], eligible: impl Fn(usize) -> bool) -> Option<usize> {
    let (mut best, mut tied): (Option<usize>, bool) = (None, false);
    for k in (0..values.len()).filter(|&k| eligible(k)) {
        match best {
            Some(b) if values[k].equity() < values[b].equity() => {}
            Some(b) if values[k].equity() == values[b].equity() => tied = true,
            _ => (best, tied) = (Some(k), false),
        }
    }
    best.filter(|_| !tied)
}

thread_local! {
    /// The candidates' values of the last [`Prepared::best_of`] on a thread, and which it could take.
    static VALUES: std::cell::RefCell<(Vec<Probabilities>, Vec<bool>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

impl Evaluator<Position> for NeuralNet {
    fn evaluate(&self, position: &Position) -> Probabilities {
        match Class::of(position) {
            Class::BearOff => bearoff::probabilities(position).expect("bear-off class"),
            _ => {
                let mut x = [0.0f32; INPUTS];
                encode(position, &mut x);
                consistent(&self.net_for(position).expect("a net class").forward(&x))
            }
        }
    }
}

#[cfg(test)]
mod tests;
