//! Strength of the built-in bot: mirrored-dice duels (each dice sequence played twice, seats
//! swapped), cubeless, gammons 2 and backgammons 3, reported in points per game with a standard
//! error; and the time of a decision at a given ply.
//!
//! ```text
//! cargo run --release -p gammon-train --bin bot-duel -- [OPPONENT] [PAIRS] [SEED] [PLY] [NET]
//! ```
//!
//! OPPONENT is `pubeval` (default), `random`, `net` (the shipped bot at ply 0), `screened` (the
//! `net-fast` rollout policy, which judges only the plays its screen ranks highest; with `--keep K`,
//! the bot's own nets judging the K plays the screen ranks highest, and with `--head H` and
//! `--head-margin M` the head of their contact net judging at most H of those its first layer
//! ranks highest and values within M of its best, and with `--screen-margin` only the plays
//! the screen scores within that margin of its best), `all-replies`
//! (the bot at PLY judging every reply inside its search, where the bot judges the screen's
//! best [`REPLY_SCREEN`](gammon_bot::search::REPLY_SCREEN)), `margin` (not the bot: the
//! `net-fast` rollout policy keeping only the plays its screen scores within `--margin` of its best,
//! against the same policy without the margin), `head` (not the bot either: the bot's nets on
//! the `--keep` plays, 8 by default, the screen ranks highest, with `--head` and
//! `--head-margin`, and with `--screen-margin` the screen's margin too, against the same with the
//! head's default and no margin; `--integer-head` has that side's head judge in integers, as
//! `net` does; `--screen FILE` has that side rank its plays by another screen) or `timing`;
//! PAIRS defaults to 10,000 (20,000 games), SEED to 2024; PLY is the bot's search depth
//! (default 0); NET, a weights file written by the training programs, plays instead of the
//! shipped weights (so `net PAIRS SEED 0 NET` is a head-to-head against them, and
//! `timing 0 0 0 NET` times it at ply 0: `timing` ignores PAIRS and SEED); a weights file holds no
//! back-game net, so its contact net judges back games too unless `--back-game` lends it the
//! shipped one, as the bot has. Threads: rayon's default
//! (set `RAYON_NUM_THREADS`); the result does not depend on them.

use clap::{Parser, ValueEnum};
use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream, Position};
use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::screen::{Keep, Screen};
use gammon_bot::net::{NeuralNet, HEAD_KEEP};
use gammon_bot::search::Bot;
use gammon_bot::{BuiltinPolicy, NetPolicy, Policy, PubevalPolicy, RandomPolicy, KEEP};
use gammon_train::files::{read_net, read_screen};
use gammon_train::report;
use std::path::PathBuf;
use std::time::Instant;

/// Whom the bot plays, or what else is measured.
#[derive(Clone, Copy, ValueEnum)]
enum Opponent {
    /// The pubeval benchmark policy.
    Pubeval,
    /// Uniformly random plays.
    Random,
    /// The shipped bot at 0-ply.
    Net,
    /// The rollouts' net policy, judging only the plays its screen ranks highest.
    Screened,
    /// The same bot at the same ply, except that inside its search the full nets judge every
    /// reply rather than the few the screen ranks highest.
    AllReplies,
    /// Not the bot: the rollouts' net policy with a margin on the screen's scores (`--margin`)
    /// against the same policy without it.
    Margin,
    /// Not the bot: the bot's nets judging the `--keep` plays (default 8) the screen ranks
    /// highest, the head of their contact net judging as `--head` and `--head-margin` say,
    /// against the same policy with the head on the default number of plays.
    Head,
    /// No duel: the mean time of a 0-ply decision of the bot's net.
    Timing,
}

/// The command line.
#[derive(Parser)]
#[command(
    about = "Mirrored-dice duels of the built-in bot, in points per game, or the time of its 0-ply decision."
)]
struct Options {
    /// Whom the bot plays, or `timing`.
    #[arg(value_enum, default_value = "pubeval")]
    opponent: Opponent,
    /// Pairs of games on the same dice, seats swapped.
    #[arg(default_value_t = 10_000)]
    pairs: u32,
    /// The seed of the dice.
    #[arg(default_value_t = 2024)]
    seed: u64,
    /// The bot's search depth: 0, 1 or 2.
    #[arg(default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    ply: u8,
    /// A weights file for the bot instead of the shipped weights.
    net: Option<PathBuf>,
    /// For `margin`: how far below its best the screen may score a play that the full nets
    /// still judge.
    #[arg(long, default_value_t = 0.2)]
    margin: f32,
    /// For `screened`: the bot's own nets (not the rollouts') judging the KEEP plays their screen
    /// ranks highest, rather than the rollouts' net policy.
    #[arg(long)]
    keep: Option<usize>,
    /// With `--keep`: the most contact plays of a roll the head of the bot's contact net judges
    /// in that policy, of those its first layer ranks highest.
    #[arg(long, default_value_t = HEAD_KEEP)]
    head: usize,
    /// With `--keep`: how far below the first layer's best (in equity) a play may be valued and
    /// still be judged by the head.
    #[arg(long, default_value_t = f32::INFINITY)]
    head_margin: f32,
    /// For `head`, and with `--keep`: that side's screen keeps only the plays it scores within
    /// this margin of its best, too.
    #[arg(long, default_value_t = f32::INFINITY)]
    screen_margin: f32,
    /// With `--keep`, and for `head`: the head of that policy (the narrower side's) judges in
    /// integers, as in the rollouts' `net` policy.
    #[arg(long)]
    integer_head: bool,
    /// With `--keep`, and for `head`: this screen (a file written by `train-screen`) ranks the
    /// plays of that policy (the narrower side's) instead of the shipped one.
    #[arg(long, value_name = "SCREEN.bin")]
    screen: Option<PathBuf>,
    /// With NET: that net judges back games by the shipped back-game net, as the shipped bot
    /// does, so that a head-to-head compares the two contact nets alone.
    #[arg(long)]
    back_game: bool,
}

/// Mean time of a decision at `ply` over the positions of pubeval self-play games, rolls with a
/// single legal play skipped. The deeper searches remember values of positions on the thread
/// (the shipped nets only), so they time one pass: a second would find the first's values.
fn timing(net: &NeuralNet, ply: u8) {
    let bot = Bot::with_net(net, ply).expect("PLY must be 0, 1 or 2");
    // Deeper decisions take a thousand times longer: fewer positions keep the run to seconds.
    let count = [20_000, 2_000, 200][ply as usize];
    let mut stream = DiceStream::new(99, 0);
    let mut cases = vec![];
    let mut p = Position::initial();
    while cases.len() < count {
        let dice = stream.roll();
        let plays = legal_plays(&p, dice);
        if plays.len() > 1 {
            cases.push((p, plays.clone()));
        }
        let k = PubevalPolicy.choose(&Backgammon, &p, dice, &plays, &mut stream);
        let next = Backgammon.after(&plays[k]);
        p = if Backgammon.result(&next).is_some() { Position::initial() } else { next };
    }
    let mean_plays = cases.iter().map(|c| c.1.len()).sum::<usize>() as f64 / cases.len() as f64;
    // The net's values of every play and of its 0-ply choice, hashed bit for bit: a change
    // meant to make the same arithmetic faster must leave them unchanged.
    let mut values = vec![];
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut mix = |v: &gammon_bot::Probabilities| {
        for x in v.to_array() {
            hash = (hash ^ x.to_bits()).wrapping_mul(0x100_0000_01b3);
        }
    };
    for (p, plays) in &cases {
        net.evaluate_plays(p, plays, &mut values);
        values.iter().for_each(&mut mix);
        mix(&net.best_of(p, plays).1);
    }
    println!("values of every play and of the choice: hash {hash:016x}");
    for _ in 0..if ply == 0 { 2 } else { 1 } {
        let t = Instant::now();
        let mut checksum = 0;
        for (p, plays) in &cases {
            checksum += bot.best_index(p, plays);
        }
        let per = t.elapsed().as_secs_f64() / cases.len() as f64;
        println!(
            "{ply}-ply decision: {:.1} us mean over {} positions ({mean_plays:.1} legal plays on average; \
             checksum {checksum})",
            per * 1e6,
            cases.len()
        );
    }
}

fn main() {
    let o = Options::parse();
    let file = o.net.as_deref().map(|path| NeuralNet {
        back_game: if o.back_game { NeuralNet::builtin().back_game.clone() } else { None },
        ..read_net(path, "NET")
    });
    let net = file.as_ref().unwrap_or_else(|| NeuralNet::builtin());
    let (pairs, seed) = (o.pairs, o.seed);
    let bot = Bot::with_net(net, o.ply).expect("PLY must be 0, 1 or 2");
    let screen_file = o.screen.as_deref().map(|path| read_screen(path, "--screen"));
    let screen = screen_file.as_ref().unwrap_or_else(|| Screen::builtin());
    // The bot's nets on the `keep` plays `screen` ranks highest, as the options configure them.
    let configured = |keep: usize| {
        NetPolicy::new(NeuralNet::builtin(), screen, Keep::from(keep).within(o.screen_margin))
            .with_head(Keep::from(o.head).within(o.head_margin))
            .with_integer_head(o.integer_head)
    };
    let t = Instant::now();
    let result = match o.opponent {
        Opponent::Timing => return timing(net, o.ply),
        Opponent::Pubeval => backgammon_duel(&bot, &PubevalPolicy, pairs, seed),
        Opponent::Random => backgammon_duel(&bot, &RandomPolicy, pairs, seed),
        Opponent::Net => backgammon_duel(&bot, &Bot::new(0).expect("ply 0"), pairs, seed),
        Opponent::Screened => match o.keep {
            Some(keep) => backgammon_duel(&bot, &configured(keep), pairs, seed),
            None => backgammon_duel(&bot, &BuiltinPolicy::NetFast, pairs, seed),
        },
        Opponent::AllReplies => backgammon_duel(&bot, &bot.with_reply_screen(0), pairs, seed),
        Opponent::Head => {
            let keep = o.keep.unwrap_or(KEEP);
            let policy = NetPolicy::new(NeuralNet::builtin(), Screen::builtin(), keep);
            backgammon_duel(&configured(keep), &policy, pairs, seed)
        }
        Opponent::Margin => {
            let within =
                NetPolicy::new(NeuralNet::fast(), Screen::builtin(), Keep::from(KEEP).within(o.margin));
            backgammon_duel(&within, &BuiltinPolicy::NetFast, pairs, seed)
        }
    };
    let opponent = o.opponent.to_possible_value().expect("every opponent has a name");
    let side = match o.opponent {
        Opponent::Margin => format!("net within {}", o.margin),
        Opponent::Head => {
            let integer = if o.integer_head { ", in integers" } else { "" };
            format!("head on {} within {}{integer}, screen within {}", o.head, o.head_margin, o.screen_margin)
        }
        _ => Policy::<Backgammon>::name(&bot).to_string(),
    };
    println!(
        "{side} vs {}: {} points per game over {} games (won {:.1}%; seed {seed}; {:.0} s)",
        opponent.get_name(),
        report::points(&result),
        result.games,
        100.0 * result.score(0),
        t.elapsed().as_secs_f64()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    gammon_train::command_line_test!(Options);
    #[test]
    fn the_arguments_stay_positional() {
        let o = Options::try_parse_from(["bot-duel", "timing", "0", "0", "0", "net.bin"]).unwrap();
        assert!(matches!(o.opponent, Opponent::Timing));
        assert_eq!(o.net, Some(PathBuf::from("net.bin")));
        let o = Options::try_parse_from(["bot-duel"]).unwrap();
        assert!(matches!(o.opponent, Opponent::Pubeval));
        assert_eq!((o.pairs, o.seed, o.ply), (10_000, 2024, 0));
        assert!(Options::try_parse_from(["bot-duel", "pubeval", "10", "1", "3"]).is_err());
        let o = Options::try_parse_from(["bot-duel", "screened", "10", "1", "0", "--keep", "4"]).unwrap();
        assert_eq!(o.keep, Some(4));
    }
}
