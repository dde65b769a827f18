//! Strength of the built-in bot: mirrored-dice duels (each dice sequence played twice, seats
//! swapped), cubeless, gammons 2 and backgammons 3, reported in points per game with a standard
//! error; and the time of a 0-ply decision.
//!
//! `cargo run --release --example bot_duel -- [OPPONENT] [PAIRS] [SEED] [PLY] [NET]`: OPPONENT is
//! `pubeval` (default), `random`, `net` (the shipped bot at ply 0), `screened` (the rollouts' net
//! policy, which judges only the plays its screen ranks highest) or `timing`; PAIRS defaults to 10,000
//! (20,000 games); PLY is the bot's search depth (default 0); NET, a weights file written by the
//! training programs, plays instead of the shipped weights (so `net NET` is a head-to-head
//! against them, and `timing 0 0 0 NET` times it). Threads: rayon's default (set `RAYON_NUM_THREADS`); the result does not depend
//! on them.

use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream, Position};
use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::NeuralNet;
use gammon_bot::search::Bot;
use gammon_bot::{BuiltinPolicy, Policy, PubevalPolicy, RandomPolicy};
use std::time::Instant;

/// Mean time of a 0-ply decision over the positions of pubeval self-play games, rolls with a
/// single legal play skipped.
fn timing(net: &NeuralNet) {
    let bot = Bot::with_net(net, 0).expect("ply 0");
    let mut stream = DiceStream::new(99, 0);
    let mut cases = vec![];
    let mut p = Position::initial();
    while cases.len() < 20_000 {
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
    for _ in 0..2 {
        let t = Instant::now();
        let mut checksum = 0;
        for (p, plays) in &cases {
            checksum += bot.best_index(p, plays);
        }
        let per = t.elapsed().as_secs_f64() / cases.len() as f64;
        println!(
            "0-ply decision: {:.1} us mean over {} positions ({mean_plays:.1} legal plays on average; \
             checksum {checksum})",
            per * 1e6,
            cases.len()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opponent = args.first().map(String::as_str).unwrap_or("pubeval");
    let file = args.get(4).map(|path| {
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read NET {path:?}: {e}"));
        NeuralNet::from_bytes(&bytes).unwrap_or_else(|e| panic!("NET {path:?}: {e}"))
    });
    let net = file.as_ref().unwrap_or_else(|| NeuralNet::builtin());
    if opponent == "timing" {
        return timing(net);
    }
    let pairs: u32 = args.get(1).map(|a| a.parse().expect("PAIRS must be a number")).unwrap_or(10_000);
    let seed: u64 = args.get(2).map(|a| a.parse().expect("SEED must be a number")).unwrap_or(2024);
    let ply: u8 = args.get(3).map(|a| a.parse().expect("PLY must be 0, 1 or 2")).unwrap_or(0);
    let bot = Bot::with_net(net, ply).expect("PLY must be 0, 1 or 2");
    let t = Instant::now();
    let result = match opponent {
        "pubeval" => backgammon_duel(&bot, &PubevalPolicy, pairs, seed),
        "random" => backgammon_duel(&bot, &RandomPolicy, pairs, seed),
        "net" => backgammon_duel(&bot, &Bot::new(0).expect("ply 0"), pairs, seed),
        "screened" => backgammon_duel(&bot, &BuiltinPolicy::Net, pairs, seed),
        other => panic!("unknown opponent {other:?}: pubeval, random, net, screened or timing"),
    };
    println!(
        "{} vs {opponent}: {:+.3} +- {:.3} points per game over {} games (won {:.1}%; seed {seed}; {:.0} s)",
        Policy::<Backgammon>::name(&bot),
        result.points_per_game(),
        result.points_std_error(),
        result.games,
        100.0 * result.score(0),
        t.elapsed().as_secs_f64()
    );
}
