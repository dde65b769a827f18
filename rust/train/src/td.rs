//! Training the nets by TD(lambda) self-play, in rounds of games played in parallel.
//!
//! In a game the net plays both sides greedily (0-ply, the plays of a roll judged together by
//! [`NeuralNet::evaluate_plays`]) and learns as it goes. Each position the contact or race net
//! judges, seen by the player on roll, has a TD error `target - y` on each output: `y` the
//! net's outputs, `target` the value of the play then chosen (the next position's value turned
//! around, the game's result, or the bear-off database's value). The error moves the weights
//! through that net's eligibility traces ([`Traces`]); with `lambda = 0` that is
//! [`Network::learn`](gammon_bot::net::network::Network::learn) on the position, which is what is done.
//!
//! The contact and race nets are separate value functions with separate traces, both empty at
//! the start of a game: the contact net's last step is the last contact position's, whose
//! target is the value of the first race position (or of a bear-off, or the result); likewise
//! the race net's traces end where the bear-off database takes over. Bear-off positions are not
//! trained on.
//!
//! A round ([`train_round`]) plays a fixed number of games on rayon's pool, each on its own copy
//! of the weights the round started with, learning online as above; the round's weights are
//! the mean of the games' final weights (the start plus the mean change, added in game order).
//! Game `g` rolls dice stream `g` of the seed. So the weights after any number of rounds depend
//! on the seed, the round sizes and the settings, never on the number of threads; and a round
//! of one game is plain online TD(lambda).
//!
//! Why each game learns online, and why a mean: consecutive positions of a game are alike, so
//! their gradients point the same way, and a step that corrects one position mostly corrects the
//! next ones too. Summed against frozen weights, the steps of a game (let alone of a round)
//! overshoot many times over unless the step size is cut by about as much, which learns far
//! more slowly. Learning online within a game keeps each correction; the mean of the games'
//! weights keeps each game's progress and averages out their noise (a sum would overshoot in
//! the same way), though a round of `B` games moves the weights about as far as one game does.

use crate::traces::Traces;
use gammon_backgammon::board::Position;
use gammon_backgammon::dice_game::{Backgammon, DiceGame};
use gammon_backgammon::moves::legal_plays_into;
use gammon_bot::net::inputs::{encode, INPUTS};
use gammon_bot::net::network::{Network, MAX_HIDDEN};
use gammon_bot::net::{Class, NeuralNet};
use gammon_core::dice::DiceStream;
use rayon::prelude::*;
use std::ops::Range;

/// Plays one self-play game on the dice of `stream` with `net`, which learns from each position
/// by TD(`lambda`) with step size `alpha`; returns the number of plies.
pub fn self_play_game(net: &mut NeuralNet, stream: &mut DiceStream, lambda: f32, alpha: f32) -> u32 {
    // Traces are only needed when lambda > 0; learn's plain step is cheaper and the same.
    let mut traces = (lambda != 0.0).then(|| (Traces::new(&net.contact), Traces::new(&net.race)));
    let mut position = Position::initial();
    let mut plays = Vec::with_capacity(64);
    let mut x = [0.0f32; INPUTS];
    let mut hidden = [0.0f32; MAX_HIDDEN];
    let mut plies = 0;
    loop {
        plies += 1;
        let dice = stream.roll();
        legal_plays_into(&position, dice, &mut plays);
        let (best, value) = net.best_of(&position, &plays);
        let class = Class::of(&position);
        if class != Class::BearOff {
            let (layer, trace) = match class {
                Class::Race => (&mut net.race, traces.as_mut().map(|t| &mut t.1)),
                _ => (&mut net.contact, traces.as_mut().map(|t| &mut t.0)),
            };
            encode(&position, &mut x);
            let y = layer.forward_keeping_hidden(&x, &mut hidden);
            let h = layer.hidden();
            let target = value.to_array().map(|v| v as f32);
            match trace {
                Some(t) => {
                    t.step(layer, &x, &hidden[..h], &std::array::from_fn(|k| target[k] - y[k]), lambda, alpha)
                }
                None => layer.learn(&x, &hidden[..h], &y, &target, alpha),
            }
        }
        let next = Backgammon.after(&plays[best]);
        if Backgammon.result(&next).is_some() {
            return plies;
        }
        position = next;
    }
}

/// Plays the self-play games numbered `games` (game `g` on dice stream `g` of `seed`) in
/// parallel on rayon's current pool, each learning online by TD(`lambda`) with step size
/// `alpha` on its own copy of `net`; then sets `net`'s weights to the mean of the games' final
/// weights and counts the games in `net.trained_games`. Returns the plies played. The result
/// does not depend on the number of threads.
pub fn train_round(net: &mut NeuralNet, seed: u64, games: Range<u64>, lambda: f32, alpha: f32) -> u64 {
    let first = games.start;
    let count = games.end.saturating_sub(games.start) as usize;
    let start: &NeuralNet = net;
    let played: Vec<(NeuralNet, u32)> = (0..count)
        .into_par_iter()
        .map(|k| {
            let mut copy = start.clone();
            let plies =
                self_play_game(&mut copy, &mut DiceStream::new(seed, first + k as u64), lambda, alpha);
            (copy, plies)
        })
        .collect();
    let contact: Vec<&Network> = played.iter().map(|(n, _)| &n.contact).collect();
    let race: Vec<&Network> = played.iter().map(|(n, _)| &n.race).collect();
    average_into(&mut net.contact, &contact);
    average_into(&mut net.race, &race);
    net.trained_games += count as u64;
    played.iter().map(|(_, p)| *p as u64).sum()
}

/// Sets `net` (the start of a round) to the mean of `ends` (the nets its games ended with): the
/// start plus the mean change, the changes added in order. One game's net is taken as it is.
fn average_into(net: &mut Network, ends: &[&Network]) {
    match ends {
        [] => {}
        [only] => net.clone_from(only),
        _ => {
            let mut change: Vec<f32> = net.weights().map(|_| 0.0).collect();
            for end in ends {
                for ((c, e), s) in change.iter_mut().zip(end.weights()).zip(net.weights()) {
                    *c += e - s;
                }
            }
            let scale = 1.0 / ends.len() as f32;
            for (w, c) in net.weights_mut().zip(change) {
                *w += c * scale;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_of_one_game_is_that_game() {
        for lambda in [0.0, 0.7] {
            let mut net = NeuralNet::random(8, 1);
            let mut alone = net.clone();
            let plies = train_round(&mut net, 3, 5..6, lambda, 0.1);
            assert_eq!(plies, self_play_game(&mut alone, &mut DiceStream::new(3, 5), lambda, 0.1) as u64);
            assert_eq!(net.trained_games, 1);
            alone.trained_games = 1;
            assert_eq!(net, alone);
        }
    }

    #[test]
    fn a_round_takes_the_mean_of_its_games() {
        let start = NeuralNet::random(8, 2);
        let ends: Vec<NeuralNet> = (0..3)
            .map(|g| {
                let mut copy = start.clone();
                self_play_game(&mut copy, &mut DiceStream::new(4, g), 0.7, 0.1);
                copy
            })
            .collect();
        let mut net = start.clone();
        train_round(&mut net, 4, 0..3, 0.7, 0.1);
        let contact = |n: &NeuralNet| n.contact.clone();
        let race = |n: &NeuralNet| n.race.clone();
        let picks: [&dyn Fn(&NeuralNet) -> Network; 2] = [&contact, &race];
        for pick in picks {
            let mean = pick(&net);
            let ends: Vec<Vec<f32>> = ends.iter().map(|e| pick(e).weights().collect()).collect();
            let mut moved = 0;
            for (k, (s, m)) in pick(&start).weights().zip(mean.weights()).enumerate() {
                let expected = ends.iter().map(|e| e[k] as f64).sum::<f64>() / 3.0;
                assert!((m as f64 - expected).abs() < 1e-5, "weight {k}: {m} vs {expected}");
                moved += (m != s) as usize;
            }
            assert!(moved > 0);
        }
    }
}
