//! Trains the contact and race nets from scratch by TD(lambda) self-play, in parallel and
//! resumably.
//!
//! ```text
//! cargo run --release -p gammon-train --bin train -- --dir DIR [--games N] [--hidden 80] [--alpha 0.1]
//!     [--alpha-end A] [--lambda 0.7] [--batch 4] [--threads T] [--seed 1]
//!     [--checkpoint-every 5000] [--duel-every 20000] [--duel-pairs 500]
//! ```
//!
//! Algorithm (`gammon_train::td`): every game the net plays both sides greedily
//! (0-ply) and learns as it goes. Each position the contact or race net judges has a TD error,
//! its outputs' distance from the value of the play then chosen; TD(lambda) moves the weights by
//! `--alpha` times the error on each of the five outputs (cross-entropy gradient) through
//! eligibility traces that decay by `--lambda` from one position to the next and are turned
//! around with the side on roll. Each net has its own traces: the contact net's last target is
//! the value of the first race position, the race net's the value of the first bear-off. The
//! step size shrinks from `--alpha` to `--alpha-end` geometrically over the `--games`
//! (constant without `--alpha-end`). `--lambda 0 --batch 1` is the TD(0) of earlier versions of
//! this program, bit for bit.
//!
//! Why batches: games are played in rounds of `--batch` games on `--threads` threads (default:
//! every core). Each game of a round starts from the weights the round started with and learns
//! online on its own copy; the round ends with the mean of the games' weights, added in game
//! order. Game `g` rolls dice stream `g` of the seed, so a run's weights depend on its settings
//! but never on the thread count. Online learning within a game matters: summing a game's
//! steps against frozen weights overshoots (its positions are alike, so their gradients agree)
//! and wrecked the net in trials. The mean keeps each game's own progress and averages out the
//! games' noise, but a round of `B` games moves the weights about as far as one game, so a
//! larger batch learns less per game: use about twice as many games as threads.
//!
//! `DIR/checkpoint.bin` (the weights, in the format of `NeuralNet::to_bytes`, with the games
//! played) is rewritten every `--checkpoint-every` games; `DIR/settings.txt` keeps the settings
//! that shape the weights (hidden units, step sizes, lambda, batch, seed). A run started on a
//! directory with a checkpoint resumes from it with those settings and refuses flags that
//! contradict them, so it plays and learns exactly as the uninterrupted run would have (with
//! the same `--games`, which sets the step-size schedule). A checkpoint copied into a new
//! directory without `settings.txt` continues under the flags given; a `--hidden` larger than
//! its nets' widens them first, the new units starting silent (`Network::widened`). Every
//! `--duel-every` games a mirrored-dice duel against pubeval is appended to `DIR/train.log`,
//! and the weights are kept as `DIR/net-GAMES.bin`. The shipped `rust/bot/data/net-v4.bin` started
//! as such a file (4,500,000 games of TD(0), one game at a time, the last two thirds with a
//! shrinking step; `docs/training.md` gives the commands) and was then refined by the `refine`
//! program. `--help` lists the flags with their defaults.

use clap::Parser;
use gammon_bot::net::NeuralNet;
use gammon_train::files::save;
use gammon_train::log::Log;
use gammon_train::report;
use gammon_train::td::train_round;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Instant;

/// The settings that shape the weights, as written to `settings.txt`.
#[derive(Clone, Debug, PartialEq)]
struct Settings {
    hidden: usize,
    alpha: f32,
    alpha_end: Option<f32>,
    lambda: f32,
    batch: u64,
    seed: u64,
}

impl Settings {
    const DEFAULT: Settings =
        Settings { hidden: 80, alpha: 0.1, alpha_end: None, lambda: 0.7, batch: 4, seed: 1 };

    fn to_text(&self) -> String {
        let end = self.alpha_end.map_or("none".to_string(), |a| a.to_string());
        format!(
            "hidden {}\nalpha {}\nalpha-end {end}\nlambda {}\nbatch {}\nseed {}\n",
            self.hidden, self.alpha, self.lambda, self.batch, self.seed
        )
    }

    fn from_text(text: &str) -> Settings {
        let values: BTreeMap<&str, &str> = text.lines().filter_map(|l| l.split_once(' ')).collect();
        let get = |key: &str| *values.get(key).unwrap_or_else(|| panic!("settings.txt has no {key}"));
        Settings {
            hidden: value(get("hidden"), "hidden"),
            alpha: value(get("alpha"), "alpha"),
            alpha_end: match get("alpha-end") {
                "none" => None,
                a => Some(value(a, "alpha-end")),
            },
            lambda: value(get("lambda"), "lambda"),
            batch: value(get("batch"), "batch"),
            seed: value(get("seed"), "seed"),
        }
    }

    /// The step size for a round starting at game `g` of a run of `games`.
    fn alpha_at(&self, g: u64, games: u64) -> f32 {
        match self.alpha_end {
            None => self.alpha,
            Some(end) => {
                let done = (g as f64 / games as f64).min(1.0);
                (self.alpha as f64 * (end as f64 / self.alpha as f64).powf(done)) as f32
            }
        }
    }
}

/// The command line: the weight-shaping flags stay `None` when not given, so that a resumed run
/// can tell them from its stored settings (their defaults are in [`Settings::DEFAULT`]).
#[derive(Parser)]
#[command(about = "Trains the contact and race nets from scratch by TD(lambda) self-play, resumably.")]
#[command(args_override_self = true)]
struct Options {
    /// The run's directory: checkpoint.bin, settings.txt, train.log and net-GAMES.bin are kept there.
    #[arg(long, value_name = "DIR")]
    dir: PathBuf,
    /// Games to train for in all, counting those of a resumed checkpoint [default: no end].
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Hidden units of each net; more than a settings-less checkpoint's widens it [default: 80].
    #[arg(long, value_name = "UNITS")]
    hidden: Option<usize>,
    /// Step size, or the first one when --alpha-end is given [default: 0.1].
    #[arg(long, value_name = "A")]
    alpha: Option<f32>,
    /// The last step size: the step shrinks geometrically to it over --games, which it needs
    /// [default: constant --alpha].
    #[arg(long, value_name = "A")]
    alpha_end: Option<f32>,
    /// Decay of the eligibility traces per position, in 0..=1; 0 is TD(0) [default: 0.7].
    #[arg(long, value_name = "L")]
    lambda: Option<f32>,
    /// Games per round, each learning on its own copy of the round's weights, averaged at its end
    /// [default: 4].
    #[arg(long, value_name = "B")]
    batch: Option<u64>,
    /// The seed of the dice and of the random first weights [default: 1].
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Threads to play on; the weights do not depend on it [default: every core].
    #[arg(long, value_name = "T")]
    threads: Option<usize>,
    /// Games between rewrites of checkpoint.bin; a multiple of the batch [default: 5000].
    #[arg(long, value_name = "N")]
    checkpoint_every: Option<u64>,
    /// Games between duels against pubeval (and kept net-GAMES.bin files); a multiple of the
    /// batch [default: 20000].
    #[arg(long, value_name = "N")]
    duel_every: Option<u64>,
    /// Pairs of mirrored-dice games in each duel against pubeval [default: 500].
    #[arg(long, value_name = "PAIRS")]
    duel_pairs: Option<u32>,
}

/// A value of `settings.txt`, `key` naming it in the panic message.
fn value<T: FromStr>(text: &str, key: &str) -> T {
    text.parse().unwrap_or_else(|_| panic!("bad value {text:?} for {key} in settings.txt"))
}

impl Options {
    /// The settings of a new run: the flags given, defaults for the others.
    fn settings(&self) -> Settings {
        let d = Settings::DEFAULT;
        Settings {
            hidden: self.hidden.unwrap_or(d.hidden),
            alpha: self.alpha.unwrap_or(d.alpha),
            alpha_end: self.alpha_end.or(d.alpha_end),
            lambda: self.lambda.unwrap_or(d.lambda),
            batch: self.batch.unwrap_or(d.batch),
            seed: self.seed.unwrap_or(d.seed),
        }
    }

    /// Panics if a flag given contradicts the stored settings of the run being resumed.
    fn check_against(&self, stored: &Settings) {
        fn same<T: PartialEq + std::fmt::Debug>(flag: &str, given: Option<T>, stored: T) {
            if let Some(g) = given {
                assert!(
                    g == stored,
                    "{flag} {g:?} contradicts the resumed run's {stored:?} (see settings.txt)"
                );
            }
        }
        same("--hidden", self.hidden, stored.hidden);
        same("--alpha", self.alpha, stored.alpha);
        same("--alpha-end", self.alpha_end.map(Some), stored.alpha_end);
        same("--lambda", self.lambda, stored.lambda);
        same("--batch", self.batch, stored.batch);
        same("--seed", self.seed, stored.seed);
    }
}

fn main() {
    let o = Options::parse();
    std::fs::create_dir_all(&o.dir).expect("create --dir");
    let log = Log::new(&o.dir, "train.log");
    let checkpoint = o.dir.join("checkpoint.bin");
    let settings_path = o.dir.join("settings.txt");
    let (mut net, s) = match std::fs::read(&checkpoint) {
        Ok(bytes) => {
            let mut net = NeuralNet::from_bytes(&bytes).expect("a valid checkpoint");
            // A checkpoint without settings comes from a TD(0) run of one game at a time: the
            // flags decide how it goes on, and a larger --hidden widens its nets.
            let s = match std::fs::read_to_string(&settings_path) {
                Ok(text) => Settings::from_text(&text),
                Err(_) => {
                    let s = Settings { hidden: o.hidden.unwrap_or(net.contact.hidden()), ..o.settings() };
                    assert!(s.hidden >= net.contact.hidden(), "--hidden cannot narrow a checkpoint's nets");
                    if s.hidden > net.contact.hidden() {
                        net.contact = net.contact.widened(s.hidden, s.seed);
                        net.race = net.race.widened(s.hidden, s.seed ^ 1);
                    }
                    s
                }
            };
            o.check_against(&s);
            (net, s)
        }
        Err(_) => {
            let s = o.settings();
            (NeuralNet::random(s.hidden, s.seed), s)
        }
    };
    let games = o.games.unwrap_or(u64::MAX);
    let checkpoint_every = o.checkpoint_every.unwrap_or(5000);
    let duel_every = o.duel_every.unwrap_or(20000);
    let duel_pairs = o.duel_pairs.unwrap_or(500);
    assert!(s.batch > 0, "--batch must be positive");
    assert!((0.0..=1.0).contains(&s.lambda), "--lambda must lie in 0..=1");
    assert!(s.alpha > 0.0 && s.alpha_end.is_none_or(|a| a > 0.0), "step sizes must be positive");
    assert!(
        checkpoint_every.is_multiple_of(s.batch) && duel_every.is_multiple_of(s.batch),
        "--checkpoint-every and --duel-every must be multiples of --batch ({})",
        s.batch
    );
    assert!(s.alpha_end.is_none() || o.games.is_some(), "--alpha-end needs --games");
    save(&settings_path, s.to_text().as_bytes());
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = o.threads {
        pool = pool.num_threads(t);
    }
    let pool = pool.build().expect("a thread pool");
    log.line(&format!(
        "start at game {} ({}, threads {})",
        net.trained_games,
        s.to_text().trim_end().replace('\n', ", "),
        pool.current_num_threads()
    ));
    let start = Instant::now();
    let mut since_duel = Instant::now();
    let mut plies = 0u64;
    let mut played = 0u64;
    while net.trained_games < games {
        let g = net.trained_games;
        // Rounds end at multiples of the batch, even after a checkpoint of another batch size.
        let end = games.min((g / s.batch + 1) * s.batch);
        let alpha = s.alpha_at(g, games);
        plies += pool.install(|| train_round(&mut net, s.seed, g..end, s.lambda, alpha));
        played += end - g;
        if end.is_multiple_of(checkpoint_every) {
            save(&checkpoint, &net.to_bytes());
        }
        if end.is_multiple_of(duel_every) {
            let rate = played as f64 / since_duel.elapsed().as_secs_f64();
            save(&o.dir.join(format!("net-{end}.bin")), &net.to_bytes());
            let t = Instant::now();
            let r = pool.install(|| report::against_pubeval(&net, duel_pairs));
            log.line(&format!(
                "games {end} elapsed {:.0}s games/s {rate:.0} plies/game {:.1} alpha {alpha:.4}: \
                 vs pubeval {}, wins {:.1}% (duel {:.0}s)",
                start.elapsed().as_secs_f64(),
                plies as f64 / played as f64,
                report::ppg(&r),
                100.0 * r.score(0),
                t.elapsed().as_secs_f64()
            ));
            plies = 0;
            played = 0;
            since_duel = Instant::now();
        }
    }
    save(&checkpoint, &net.to_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    gammon_train::command_line_test!(Options);

    #[test]
    fn flags_not_given_stay_unset_for_a_resumed_run() {
        let o = Options::try_parse_from(["train", "--dir", "runs/td", "--games", "1000000", "--lambda", "0"])
            .unwrap();
        assert_eq!((o.games, o.lambda, o.hidden, o.batch), (Some(1_000_000), Some(0.0), None, None));
        assert_eq!(o.settings(), Settings { lambda: 0.0, ..Settings::DEFAULT });
        assert!(Options::try_parse_from(["train", "--games", "5"]).is_err(), "--dir is required");
    }
}
