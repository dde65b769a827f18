//! Supervised refinement of trained nets on positions judged by a deeper search.
//!
//! ```text
//! cargo run --release --example refine -- --net IN.bin --dir DIR [--positions 200000]
//!     [--label ply1|ply2|rollout:TRIALS:PLIES] [--epochs 6] [--alpha 0.01] [--alpha-end 0.001] [--explore 0.1]
//!     [--seed 1] [--duel-pairs 5000] [--widen HIDDEN] [--batch 0] [--also FILE,FILE]
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
//! by the net's judgement, with the luck of every roll subtracted (seeded by the position's
//! place in the data, so reproducible); as in the shipped rollouts, the net judges only the
//! plays of each roll that the shipped screen ranks highest ([`NetPolicy`]). `--widen` grows
//! the contact net to that many hidden units before training, the new units starting silent
//! ([`Network::widened`]); the race net gains nothing from more units.
//!
//! Training takes a step per position (`--batch 0`, at rate `--alpha` falling to
//! `--alpha-end`), or with `--batch N` one [`Adam`] step per N shuffled positions of one net,
//! each weight's step about the rate in size. Adam fits a wide contact net much better than
//! per-position steps do, and that shows in play. A batch's gradient is summed over pieces of a
//! fixed size in order, so the result does not depend on the thread count. `--also` adds
//! labelled data files made by earlier runs (other seeds) to the training data.
//!
//! The labelled positions go to `DIR/data-SEED-LABEL.bin` in blocks as they are made (a record:
//! the game number, the 26 signed counts of the position and its five f32 labels), so an interrupted run resumes where it stopped, and a
//! later run with other training settings reuses them. Positions of game `g` come from dice
//! stream `g` of the seed. One game in twenty is held out to report the fit; at the end the
//! refined nets duel pubeval and the input nets (mirrored dice), and are written to `--out`.

use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::{legal_plays_into, DiceStream, Position};
use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::network::{Network, MAX_HIDDEN, OUTPUTS};
use gammon_bot::net::screen::Screen;
use gammon_bot::net::{Class, NeuralNet};
use gammon_bot::rollout::{rollout, RolloutOptions};
use gammon_bot::search::Bot;
use gammon_bot::{NetPolicy, Probabilities, PubevalPolicy, KEEP};
use gammon_train::adam::Adam;
use gammon_train::gradient::Gradient;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

struct Options {
    net: PathBuf,
    dir: PathBuf,
    out: Option<PathBuf>,
    positions: usize,
    label: Label,
    epochs: u32,
    alpha: f32,
    alpha_end: f32,
    explore: f64,
    seed: u64,
    duel_pairs: u32,
    widen: usize,
    batch: usize,
    also: Vec<PathBuf>,
}

fn parse() -> Options {
    let mut o = Options {
        net: PathBuf::new(),
        dir: PathBuf::new(),
        out: None,
        positions: 200_000,
        label: Label::Search(1),
        epochs: 6,
        alpha: 0.01,
        alpha_end: 0.001,
        explore: 0.1,
        seed: 1,
        duel_pairs: 5000,
        widen: 0,
        batch: 0,
        also: vec![],
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let [flag, value] = pair else { panic!("every option takes a value") };
        fn num<T: std::str::FromStr>(flag: &str, value: &str) -> T {
            value.parse().unwrap_or_else(|_| panic!("bad value {value:?} for {flag}"))
        }
        match flag.as_str() {
            "--net" => o.net = PathBuf::from(value),
            "--dir" => o.dir = PathBuf::from(value),
            "--out" => o.out = Some(PathBuf::from(value)),
            "--positions" => o.positions = num(flag, value),
            "--label" => o.label = Label::parse(value),
            "--epochs" => o.epochs = num(flag, value),
            "--alpha" => o.alpha = num(flag, value),
            "--alpha-end" => o.alpha_end = num(flag, value),
            "--explore" => o.explore = num(flag, value),
            "--seed" => o.seed = num(flag, value),
            "--duel-pairs" => o.duel_pairs = num(flag, value),
            "--widen" => o.widen = num(flag, value),
            "--batch" => o.batch = num(flag, value),
            "--also" => o.also = value.split(',').map(PathBuf::from).collect(),
            _ => panic!("unknown option {flag}"),
        }
    }
    assert!(!o.net.as_os_str().is_empty() && !o.dir.as_os_str().is_empty(), "--net and --dir are required");
    o
}

/// What a position's label is.
#[derive(Clone, Copy)]
enum Label {
    /// The net searching this many plies ahead.
    Search(u8),
    /// A variance-reduced rollout: trials, plies before the net's judgement ends a game.
    Rollout(u64, u32),
}

impl Label {
    fn parse(text: &str) -> Label {
        let number = |part: &str| -> u64 {
            part.parse()
                .unwrap_or_else(|_| panic!("bad --label {text:?}: ply1, ply2 or rollout:TRIALS:PLIES"))
        };
        match text.split(':').collect::<Vec<_>>()[..] {
            ["ply1"] => Label::Search(1),
            ["ply2"] => Label::Search(2),
            ["rollout", trials, plies] => Label::Rollout(number(trials), number(plies) as u32),
            _ => panic!("bad --label {text:?}: ply1, ply2 or rollout:TRIALS:PLIES"),
        }
    }

    fn name(&self) -> String {
        match self {
            Label::Search(ply) => format!("ply{ply}"),
            Label::Rollout(trials, plies) => format!("rollout{trials}x{plies}"),
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
                    truncate: Some(plies),
                    ..RolloutOptions::default()
                };
                let policy = NetPolicy::new(bot.net(), Screen::builtin(), KEEP);
                rollout(position, &policy, &options).expect("a valid rollout").probabilities
            }
        }
    }
}

/// A labelled position, and the game it came from.
#[derive(Clone, Copy)]
struct Sample {
    game: u32,
    position: Position,
    label: [f32; OUTPUTS],
}

const RECORD: usize = 4 + 26 + 4 * OUTPUTS;

fn write_sample(s: &Sample, out: &mut Vec<u8>) {
    out.extend(s.game.to_le_bytes());
    out.extend(s.position.board().map(|n| n as u8));
    for v in s.label {
        out.extend(v.to_le_bytes());
    }
}

fn read_samples(bytes: &[u8]) -> Vec<Sample> {
    bytes
        .chunks_exact(RECORD)
        .map(|r| {
            let game = u32::from_le_bytes(r[..4].try_into().unwrap());
            let board: [i8; 26] = std::array::from_fn(|i| r[4 + i] as i8);
            let label =
                std::array::from_fn(|k| f32::from_le_bytes(r[30 + 4 * k..34 + 4 * k].try_into().unwrap()));
            Sample { game, position: Position::from_board(board).expect("a stored position"), label }
        })
        .collect()
}

/// The positions before each roll of self-play game `game` that a net judges.
fn game_positions(net: &NeuralNet, seed: u64, game: u64, explore: f64) -> Vec<Position> {
    let mut stream = DiceStream::new(seed, game);
    let mut position = Position::initial();
    let (mut plays, mut values, mut found) = (vec![], vec![], vec![]);
    loop {
        if Class::of(&position) != Class::BearOff {
            found.push(position);
        }
        let dice = stream.roll();
        legal_plays_into(&position, dice, &mut plays);
        net.evaluate_plays(&position, &plays, &mut values);
        let mut order: Vec<usize> = (0..plays.len()).collect();
        order.sort_by(|&a, &b| values[b].equity().total_cmp(&values[a].equity()));
        let k = if stream.unit() < explore { order[stream.below(order.len().min(3))] } else { order[0] };
        let next = Backgammon.after(&plays[k]);
        if Backgammon.result(&next).is_some() {
            return found;
        }
        position = next;
    }
}

/// Makes (or finishes making) the labelled data set.
fn data(o: &Options, net: &NeuralNet) -> Vec<Sample> {
    let path = o.dir.join(format!("data-{}-{}.bin", o.seed, o.label.name()));
    let mut samples = std::fs::read(&path).map(|b| read_samples(&b)).unwrap_or_default();
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
        let positions: Vec<(u32, Position)> = games
            .par_iter()
            .map(|&g| {
                game_positions(net, o.seed, g, o.explore)
                    .into_iter()
                    .map(move |p| (g as u32, p))
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>()
            .concat();
        let first = samples.len();
        let block: Vec<Sample> = positions
            .par_iter()
            .enumerate()
            .map(|(k, &(game, position))| {
                let v = o.label.value(&bot, &position, (first + k) as u64).to_array();
                Sample { game, position, label: v.map(|x| x as f32) }
            })
            .collect();
        let mut bytes = Vec::with_capacity(block.len() * RECORD);
        block.iter().for_each(|s| write_sample(s, &mut bytes));
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .expect("data file")
            .write_all(&bytes)
            .expect("write data");
        samples.extend(block);
        game += block_games;
        log(
            o,
            &format!(
                "labelled {} positions ({} games) in {:.0}s",
                samples.len(),
                game,
                start.elapsed().as_secs_f64()
            ),
        );
    }
    samples
}

fn log(o: &Options, line: &str) {
    println!("{line}");
    let mut f =
        std::fs::OpenOptions::new().create(true).append(true).open(o.dir.join("refine.log")).expect("log");
    writeln!(f, "{line}").expect("log");
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
                let (mut x, mut hidden) = ([0.0f32; INPUTS], [0.0f32; MAX_HIDDEN]);
                for &i in piece {
                    encode(&samples[i].position, &mut x);
                    let y = net.forward_keeping_hidden(&x, &mut hidden);
                    let error = std::array::from_fn(|k| (samples[i].label[k] - y[k]) * scale);
                    g.accumulate(net, &x, &hidden[..h], &error);
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
    let o = parse();
    std::fs::create_dir_all(&o.dir).expect("create --dir");
    let original = NeuralNet::from_bytes(&std::fs::read(&o.net).expect("read --net")).expect("a net file");
    let mut samples = if o.positions > 0 { data(&o, &original) } else { vec![] };
    for path in &o.also {
        samples.extend(read_samples(&std::fs::read(path).expect("read an --also file")));
    }
    let (held, used): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.game % 20 == 19);
    log(&o, &format!("training on {} positions, {} held out", used.len(), held.len()));
    log(&o, &format!("before: held {}", fit(&original, &held)));
    let mut net = original.clone();
    if o.widen > net.contact.hidden() {
        net.contact = net.contact.widened(o.widen, o.seed);
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
        log(
            &o,
            &format!(
                "epoch {epoch} alpha {alpha:.5}: held {} train {}",
                fit(&net, &held),
                fit(&net, &used[..used.len().min(20000)])
            ),
        );
    }
    let out = o.out.clone().unwrap_or_else(|| o.dir.join("refined.bin"));
    std::fs::write(&out, net.to_bytes()).expect("write --out");
    if o.duel_pairs > 0 {
        let new = Bot::with_net(&net, 0).unwrap();
        let old = Bot::with_net(&original, 0).unwrap();
        let r = backgammon_duel(&new, &PubevalPolicy, o.duel_pairs, 12345);
        log(
            &o,
            &format!(
                "refined vs pubeval {:+.3} +- {:.3} ppg over {} games",
                r.points_per_game(),
                r.points_std_error(),
                r.games
            ),
        );
        let r = backgammon_duel(&new, &old, o.duel_pairs, 54321);
        log(
            &o,
            &format!(
                "refined vs input net {:+.3} +- {:.3} ppg over {} games",
                r.points_per_game(),
                r.points_std_error(),
                r.games
            ),
        );
    }
}
