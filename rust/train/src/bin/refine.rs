//! Supervised refinement of trained nets on positions judged by a deeper search.
//!
//! ```text
//! cargo run --release -p gammon-train --bin refine -- --net IN.bin --dir DIR
//!     [--positions 200000] [--label ply1|ply2|rollout:TRIALS:PLIES] [--epochs 6] [--alpha 0.01]
//!     [--alpha-end 0.001] [--explore 0.1] [--seed 1] [--duel-pairs 5000] [--widen HIDDEN]
//!     [--widen-race HIDDEN] [--fresh-race HIDDEN] [--deepen UNITS] [--batch 0]
//!     [--also FILE,FILE] [--focus 0] [--back-games] [--races] [--candidates 0]
//!     [--out DIR/refined.bin]
//! ```
//!
//! Self-play at 0-ply says what a position is worth one roll later; a search that looks a ply or
//! two further says it better, because it averages over the rolls and plays them well. This
//! program collects positions from self-play games of the `--net` (with probability `--explore`
//! a turn takes one of the three best plays at random, so the positions are not all on the
//! net's own narrow path), labels each with a better judgement than the net's own, and trains
//! the nets towards the labels by cross-entropy on the five outputs, several epochs over
//! shuffled data with a decaying rate. Positions where both sides are home are left to the
//! bear-off database.
//!
//! The labels: `ply1` and `ply2` are the net searching one or two plies ahead (the average over
//! the 21 rolls of the best play's value, the replies judged at 0-ply); `rollout:TRIALS:PLIES`
//! is a rollout of TRIALS games by the net at 0-ply, each stopped after PLIES plies and finished
//! by the net's judgement (`rollout:TRIALS:full` plays them to the end, so no error of the net's
//! judgement that lasts longer than the truncation is left in the label), with the luck of every roll subtracted (seeded by the position's
//! place in the data, so reproducible); as in the shipped rollouts, the net judges only the
//! plays of each roll that the shipped screen ranks highest ([`NetPolicy`]). `--widen` grows
//! the contact net to that many hidden units before training, the new units starting silent
//! (to the outputs and to a head, if it has one: [`Network::widened`]); the race net gains
//! nothing from more units (`--widen-race` widens it all the same, and `--fresh-race` starts it
//! afresh, for trying). `--deepen` gives the contact net a second hidden layer
//! ([`Network::deepened`]), or grows the one it has to that many units, whose new outputs start
//! at zero, so training starts from the net as it was.
//!
//! Training takes a step per position (`--batch 0`, at rate `--alpha` falling to
//! `--alpha-end`), or with `--batch N` one [`Adam`] step per N shuffled positions of one net,
//! each weight's step about the rate in size. Adam fits a wide contact net much better than
//! per-position steps do, and that shows in play. A batch's gradient is summed over pieces of a
//! fixed size in order, so the result does not depend on the thread count. `--also` adds
//! labelled data files made by earlier runs (other seeds) to the training data. `--focus E`
//! spends a costly label only where the net's own value and its 1-ply search's differ by at
//! least `E` in equity, the positions it judges worst by its own deeper look. `--back-games`
//! labels only positions where one side holds two points of the other's home board and trails
//! the race (about one position in fifty of the games); `--races` labels only races (no contact
//! left, some checker still outside its home board), which only the race net learns from: a
//! rollout played out judges a race almost exactly, gammons included. `--candidates K` labels,
//! instead of the positions the games pass through, the positions after the K plays the net
//! ranks highest at each turn: a net chooses among those, so their values relative to each
//! other are what its play turns on, and the plays it does not make are never on a game's path.
//!
//! The labelled positions go to `DIR/data-SEED-LABEL.bin` (`data-SEED-LABEL-focusE.bin` with
//! `--focus`, `-backgames` added with `--back-games`, `-races` with `--races`, `-candidatesK`
//! with `--candidates`) in blocks as they are made (records of [`Sample`]: the game number, the
//! 26 signed counts of the position and its five f32 labels), so an interrupted run resumes
//! where it stopped, and a later run with other training settings reuses them. Positions of game
//! `g` come from dice stream `g` of the seed. One game in twenty is held out to report the fit;
//! at the end the refined nets duel pubeval and the input nets (mirrored dice), and are written
//! to `--out`. The progress lines go to `DIR/refine.log` as well; `--help` lists the flags with
//! their defaults.

use clap::Parser;
use gammon_backgammon::{Backgammon, DiceGame, DiceStream, Position};
use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::head::MAX_UNITS;
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::network::{Network, MAX_HIDDEN};
use gammon_bot::net::screen::Screen;
use gammon_bot::net::{back_game, Class, NeuralNet};
use gammon_bot::rollout::{rollout, RolloutOptions};
use gammon_bot::search::Bot;
use gammon_bot::{NetPolicy, Probabilities, KEEP};
use gammon_train::adam::Adam;
use gammon_train::files::{append_samples, read_net, read_samples, save, Sample};
use gammon_train::gradient::Gradient;
use gammon_train::log::Log;
use gammon_train::report;
use gammon_train::selfplay::self_play;
use rayon::prelude::*;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

/// The command line.
#[derive(Parser)]
#[command(about = "Supervised refinement of trained nets on positions judged by a deeper search.")]
#[command(args_override_self = true)]
struct Options {
    /// The weights to refine, and to make the data with.
    #[arg(long, value_name = "IN.bin")]
    net: PathBuf,
    /// The run's directory: the labelled data, refine.log and by default the refined weights.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Where the refined weights go [default: DIR/refined.bin].
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Labelled positions to make (or to reuse from DIR); 0 trains on --also files only.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    positions: usize,
    /// The labels: ply1 or ply2 (the net's search), or rollout:TRIALS:PLIES (truncated,
    /// variance-reduced rollouts by the net; PLIES `full` plays every game to its end).
    #[arg(long, value_name = "LABEL", default_value = "ply1")]
    label: Label,
    /// Passes over the shuffled data.
    #[arg(long, value_name = "N", default_value_t = 6)]
    epochs: u32,
    /// Rate of the first epoch.
    #[arg(long, value_name = "A", default_value_t = 0.01)]
    alpha: f32,
    /// Rate of the last epoch; the epochs between fall geometrically.
    #[arg(long, value_name = "A", default_value_t = 0.001)]
    alpha_end: f32,
    /// Chance that a turn of the self-play games takes one of the three best plays at random.
    #[arg(long, value_name = "P", default_value_t = 0.1)]
    explore: f64,
    /// The seed of the games' dice, of the shuffles and of widened units; names the data file.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Pairs of mirrored-dice games of each closing duel (against pubeval and the input net);
    /// 0 skips them.
    #[arg(long, value_name = "PAIRS", default_value_t = 5000)]
    duel_pairs: u32,
    /// Hidden units to widen the contact net to before training; no more than it has keeps it.
    #[arg(long, value_name = "HIDDEN", default_value_t = 0)]
    widen: usize,
    /// Hidden units to widen the race net to before training, as --widen does the contact net's.
    #[arg(long, value_name = "HIDDEN", default_value_t = 0)]
    widen_race: usize,
    /// Replace the race net by an untrained one of this many hidden units before training
    /// (0 keeps it): a net trained long by TD may have too little room left to learn from.
    #[arg(long, value_name = "HIDDEN", default_value_t = 0)]
    fresh_race: usize,
    /// Units of a second hidden layer to add to the contact net before training (a head, its
    /// output weights starting at zero); 0 adds none, and a net that has a smaller one grows it
    /// to this many units. Needs --batch.
    #[arg(long, value_name = "UNITS", default_value_t = 0)]
    deepen: usize,
    /// Positions per Adam step of one net; 0 takes a plain step per position instead.
    #[arg(long, value_name = "N", default_value_t = 0)]
    batch: usize,
    /// Labelled data files of earlier runs to train on as well, comma-separated.
    #[arg(long, value_name = "FILE,FILE", value_delimiter = ',')]
    also: Vec<PathBuf>,
    /// Label only the positions whose value at 1-ply differs from the net's own (0-ply) by at
    /// least this much cubeless equity; 0 labels every position.
    #[arg(long, value_name = "EQUITY", default_value_t = 0.0)]
    focus: f64,
    /// Label only back-game positions ([`back_game`]): the self-play games reach few of them,
    /// and the net misjudges them most.
    #[arg(long)]
    back_games: bool,
    /// Label only races ([`Class::Race`]), which train the race net alone.
    #[arg(long)]
    races: bool,
    /// Label the positions after the K plays the net ranks highest at each turn of the games,
    /// instead of the positions before each roll; 0 labels the latter.
    #[arg(long, value_name = "K", default_value_t = 0)]
    candidates: usize,
}

/// What a position's label is.
#[derive(Clone, Copy)]
enum Label {
    /// The net searching this many plies ahead.
    Search(u8),
    /// A variance-reduced rollout: trials, plies before the net's judgement ends a game (`None`:
    /// every game played to its end).
    Rollout(u64, Option<u32>),
}

impl FromStr for Label {
    type Err = String;

    fn from_str(text: &str) -> Result<Label, String> {
        let wrong = || format!("{text:?} is not ply1, ply2, rollout:TRIALS:PLIES or rollout:TRIALS:full");
        match text.split(':').collect::<Vec<_>>()[..] {
            ["ply1"] => Ok(Label::Search(1)),
            ["ply2"] => Ok(Label::Search(2)),
            ["rollout", trials, plies] => {
                let plies = if plies == "full" { None } else { Some(plies.parse().map_err(|_| wrong())?) };
                Ok(Label::Rollout(trials.parse().map_err(|_| wrong())?, plies))
            }
            _ => Err(wrong()),
        }
    }
}

impl Label {
    fn name(&self) -> String {
        match self {
            Label::Search(ply) => format!("ply{ply}"),
            Label::Rollout(trials, Some(plies)) => format!("rollout{trials}x{plies}"),
            Label::Rollout(trials, None) => format!("rollout{trials}xfull"),
        }
    }

    /// The label of `position`, the `index`-th of the data.
    fn value(&self, bot: &Bot, position: &Position, index: u64) -> Probabilities {
        match *self {
            Label::Search(ply) => bot.position_value(position, ply),
            Label::Rollout(trials, plies) => {
                let options = RolloutOptions {
                    trials,
                    seed: index,
                    threads: Some(1),
                    truncate: plies,
                    ..RolloutOptions::default()
                };
                let policy = NetPolicy::new(bot.net(), Screen::builtin(), KEEP);
                rollout(position, &policy, &options).expect("a valid rollout").probabilities
            }
        }
    }
}

/// The positions of self-play game `game` that get labels: those before each roll the net
/// judges, or with `candidates` > 0 those after the `candidates` plays it ranks highest at each
/// turn (distinct, as the move generator gives one play per result; not those that end the game
/// or that the bear-off database judges).
fn game_positions(net: &NeuralNet, seed: u64, game: u64, explore: f64, candidates: usize) -> Vec<Position> {
    let mut found = vec![];
    self_play(net, seed, game, |position, plays, values, stream| {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by(|&a, &b| values[b].equity().total_cmp(&values[a].equity()));
        if candidates == 0 {
            if Class::of(position) != Class::BearOff {
                found.push(*position);
            }
        } else {
            for &k in order.iter().take(candidates) {
                let after = Backgammon.after(&plays[k]);
                if Backgammon.result(&after).is_none() && Class::of(&after) != Class::BearOff {
                    found.push(after);
                }
            }
        }
        if stream.unit() < explore {
            order[stream.below(order.len().min(3))]
        } else {
            order[0]
        }
    });
    found
}

/// The positions where the net's own value is furthest from its 1-ply search's: at least `focus`
/// apart in cubeless equity (all of them when `focus` is 0). Those are where the net is wrong
/// by its own deeper judgement, so a costly label teaches it most there.
fn focused(bot: &Bot, positions: Vec<(u32, Position)>, focus: f64) -> Vec<(u32, Position)> {
    if focus <= 0.0 {
        return positions;
    }
    positions
        .into_par_iter()
        .filter(|(_, p)| {
            (bot.position_value(p, 1).equity() - bot.position_value(p, 0).equity()).abs() >= focus
        })
        .collect()
}

/// Makes (or finishes making) the labelled data set.
fn data(o: &Options, net: &NeuralNet, log: &Log) -> Vec<Sample> {
    let mut only = if o.focus > 0.0 { format!("-focus{}", o.focus) } else { String::new() };
    if o.back_games {
        only += "-backgames";
    }
    if o.races {
        only += "-races";
    }
    if o.candidates > 0 {
        only += &format!("-candidates{}", o.candidates);
    }
    let path = o.dir.join(format!("data-{}-{}{only}.bin", o.seed, o.label.name()));
    let mut samples = std::fs::read(&path).map(|b| Sample::read_all(&b)).unwrap_or_default();
    let bot = Bot::with_net(net, 0).expect("ply 0");
    let start = Instant::now();
    let mut game = samples.last().map_or(0, |s| s.game as u64 + 1);
    // Blocks of about ten thousand positions for search labels, five hundred for rollouts.
    let block_games = match o.label {
        Label::Search(_) => 200,
        Label::Rollout(..) => 10,
    };
    while samples.len() < o.positions {
        let games: Vec<u64> = (game..game + block_games).collect();
        let mut positions: Vec<(u32, Position)> = games
            .par_iter()
            .map(|&g| {
                game_positions(net, o.seed, g, o.explore, o.candidates)
                    .into_iter()
                    .map(move |p| (g as u32, p))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
            .concat();
        // The cheap filter first: the focus costs a 1-ply search of every position it reads.
        if o.back_games {
            positions.retain(|(_, p)| back_game(p));
        }
        if o.races {
            positions.retain(|(_, p)| Class::of(p) == Class::Race);
        }
        let positions = focused(&bot, positions, o.focus);
        let first = samples.len();
        let block: Vec<Sample> = positions
            .par_iter()
            .enumerate()
            .map(|(k, &(game, position))| {
                let v = o.label.value(&bot, &position, (first + k) as u64).to_array();
                Sample { game, position, label: v.map(|x| x as f32) }
            })
            .collect();
        append_samples(&path, &block);
        samples.extend(block);
        game += block_games;
        log.line(&format!(
            "labelled {} positions ({} games) in {:.0}s",
            samples.len(),
            game,
            start.elapsed().as_secs_f64()
        ));
    }
    samples
}

/// Mean cross-entropy and mean squared equity error of `net` on `samples`, per class.
fn fit(net: &NeuralNet, samples: &[&Sample]) -> String {
    let mut x = [0.0f32; INPUTS];
    let mut report = String::new();
    for class in [Class::Contact, Class::Race] {
        let (mut n, mut ce, mut se) = (0usize, 0.0f64, 0.0f64);
        for s in samples.iter().filter(|s| Class::of(&s.position) == class) {
            let y = net.raw(&s.position, &mut x);
            for (&t, &p) in s.label.iter().zip(&y) {
                let (t, p) = (t as f64, (p as f64).clamp(1e-7, 1.0 - 1e-7));
                ce -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
            }
            let e = gammon_bot::net::consistent(&y).equity()
                - Probabilities::from_array(s.label.map(|v| v as f64)).equity();
            se += e * e;
            n += 1;
        }
        let n = n.max(1) as f64;
        report += &format!("{class:?}: ce {:.5} equity rmse {:.4}  ", ce / n, (se / n).sqrt());
    }
    report
}

fn train_epoch(net: &mut NeuralNet, samples: &[&Sample], order: &[usize], alpha: f32) {
    let mut x = [0.0f32; INPUTS];
    let mut hidden = [0.0f32; MAX_HIDDEN];
    for &i in order {
        let s = samples[i];
        let layer: &mut Network = match Class::of(&s.position) {
            Class::Race => &mut net.race,
            _ => &mut net.contact,
        };
        encode(&s.position, &mut x);
        let y = layer.forward_keeping_hidden(&x, &mut hidden);
        layer.learn(&x, &hidden[..layer.hidden()], &y, &s.label, alpha);
    }
}

/// Shuffles `order` in place (Fisher-Yates) with draws from `stream`.
fn shuffle(order: &mut [usize], stream: &mut DiceStream) {
    for i in (1..order.len()).rev() {
        order.swap(i, stream.below(i + 1));
    }
}

/// Positions per piece of a batch's gradient.
const PIECE: usize = 64;

/// One epoch of [`Adam`] steps for one net on batches of `batch` of its positions.
fn train_epoch_adam(
    layer: &mut Network,
    adam: &mut Adam,
    samples: &[&Sample],
    order: &[usize],
    batch: usize,
    rate: f32,
) {
    let h = layer.hidden();
    for chunk in order.chunks(batch) {
        let scale = 1.0 / chunk.len() as f32;
        let net = &*layer;
        let pieces: Vec<Gradient> = chunk
            .par_chunks(PIECE)
            .map(|piece| {
                let mut g = Gradient::zeros(net);
                let (mut x, mut hidden, mut act) =
                    ([0.0f32; INPUTS], [0.0f32; MAX_HIDDEN], [0.0f32; MAX_UNITS]);
                for &i in piece {
                    encode(&samples[i].position, &mut x);
                    let y = net.forward_keeping_all(&x, &mut hidden, &mut act);
                    let error = std::array::from_fn(|k| (samples[i].label[k] - y[k]) * scale);
                    g.accumulate_kept(net, &x, &hidden[..h], &act, &error);
                }
                g
            })
            .collect();
        let mut total = Gradient::zeros(layer);
        pieces.iter().for_each(|g| total.add_scaled(g, 1.0));
        adam.step(layer, &total, rate);
    }
}

fn main() {
    let o = Options::parse();
    std::fs::create_dir_all(&o.dir).expect("create --dir");
    let log = Log::new(&o.dir, "refine.log");
    let original = read_net(&o.net, "--net");
    let mut samples = if o.positions > 0 { data(&o, &original, &log) } else { vec![] };
    for path in &o.also {
        samples.extend(read_samples(path, "--also"));
    }
    let (held, used): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.game % 20 == 19);
    log.line(&format!("training on {} positions, {} held out", used.len(), held.len()));
    log.line(&format!("before: held {}", fit(&original, &held)));
    let mut net = original.clone();
    if o.widen > net.contact.hidden() {
        net.contact = net.contact.widened(o.widen, o.seed);
    }
    if o.fresh_race > 0 {
        net.race = Network::random(INPUTS, o.fresh_race, o.seed ^ 1);
    }
    if o.widen_race > net.race.hidden() {
        net.race = net.race.widened(o.widen_race, o.seed);
    }
    if o.deepen > 0 {
        assert!(o.batch > 0, "--deepen needs --batch: per-position steps train nets without a head");
        net.contact = net.contact.deepened(o.deepen, o.seed);
    }
    let by_class = |class: Class| -> Vec<&Sample> {
        used.iter().copied().filter(|s| Class::of(&s.position) == class).collect()
    };
    let (contact, race) = (by_class(Class::Contact), by_class(Class::Race));
    let mut adam = (Adam::new(&net.contact), Adam::new(&net.race));
    let mut stream = DiceStream::new(o.seed ^ 0x5EED, 0);
    let mut order: Vec<usize> = (0..used.len()).collect();
    for epoch in 0..o.epochs {
        let t = if o.epochs > 1 { epoch as f32 / (o.epochs - 1) as f32 } else { 0.0 };
        let alpha = o.alpha * (o.alpha_end / o.alpha).powf(t);
        if o.batch > 0 {
            for (layer, adam, samples) in
                [(&mut net.contact, &mut adam.0, &contact), (&mut net.race, &mut adam.1, &race)]
            {
                let mut order: Vec<usize> = (0..samples.len()).collect();
                shuffle(&mut order, &mut stream);
                train_epoch_adam(layer, adam, samples, &order, o.batch, alpha);
            }
        } else {
            shuffle(&mut order, &mut stream);
            train_epoch(&mut net, &used, &order, alpha);
        }
        log.line(&format!(
            "epoch {epoch} alpha {alpha:.5}: held {} train {}",
            fit(&net, &held),
            fit(&net, &used[..used.len().min(20000)])
        ));
    }
    let out = o.out.clone().unwrap_or_else(|| o.dir.join("refined.bin"));
    save(&out, &net.to_bytes());
    if o.duel_pairs > 0 {
        let r = report::against_pubeval(&net, o.duel_pairs);
        log.line(&format!("refined vs pubeval {}", report::ppg(&r)));
        let new = Bot::with_net(&net, 0).expect("ply 0");
        let old = Bot::with_net(&original, 0).expect("ply 0");
        let r = backgammon_duel(&new, &old, o.duel_pairs, 54321);
        log.line(&format!("refined vs input net {}", report::ppg(&r)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    gammon_train::command_line_test!(Options);

    #[test]
    fn labels_and_data_files_parse() {
        let o = Options::try_parse_from([
            "refine",
            "--net",
            "in.bin",
            "--dir",
            "runs/refine",
            "--label",
            "rollout:36:12",
            "--also",
            "a.bin,b.bin",
        ])
        .unwrap();
        assert_eq!(o.label.name(), "rollout36x12");
        assert_eq!(o.also, [PathBuf::from("a.bin"), PathBuf::from("b.bin")]);
        assert_eq!((o.positions, o.epochs, o.batch, o.duel_pairs), (200_000, 6, 0, 5000));
        assert!("ply3".parse::<Label>().is_err());
        assert!("rollout:36".parse::<Label>().is_err());
        assert_eq!("rollout:12:full".parse::<Label>().unwrap().name(), "rollout12xfull");
    }

    #[test]
    fn the_best_candidate_of_a_turn_is_where_the_game_goes_next() {
        let net = NeuralNet::random(4, 1);
        let path = game_positions(&net, 3, 0, 0.0, 0);
        assert_eq!(game_positions(&net, 3, 0, 0.0, 1), path[1..]);
        let wider = game_positions(&net, 3, 0, 0.0, 3);
        assert!(wider.len() > path.len() && path[1..].iter().all(|p| wider.contains(p)));
    }
}
