//! How many contact candidates the head of the bot's contact net must judge, and what judging
//! fewer costs: over the contact choices of `net` games (pairs of games on mirrored dice,
//! seed 3), each choice's 8 screened plays valued by the first layer alone and by the whole net,
//! then, for each way of keeping candidates for the head (at most `most` of those the first
//! layer ranks highest, within `margin` of its best), the mean number the head judges (one at
//! least: the choice's value is the whole net's) and the whole net's equity lost a choice
//! against judging all 8.
//!
//! ```text
//! cargo run --release -p gammon-bot --example head_keep -- [PAIRS]
//! ```

use gammon_backgammon::dice_game::Backgammon;
use gammon_backgammon::{Play, Position};
use gammon_bot::duel::backgammon_duel;
use gammon_bot::net::screen::Screen;
use gammon_bot::net::NeuralNet;
use gammon_bot::{BuiltinPolicy, Policy, KEEP};
use gammon_core::dice::{Dice, DiceStream};
use std::sync::Mutex;

/// Each recorded choice: the first layer's equities of its screened plays, then the whole net's.
type Choice = (Vec<f64>, Vec<f64>);

static CHOICES: Mutex<Vec<Choice>> = Mutex::new(Vec::new());

/// `net`, recording every choice with two or more screened plays where the head changes a
/// value (a contact choice).
struct Recorder {
    first_layer: NeuralNet,
}

impl Policy<Backgammon> for Recorder {
    fn choose(
        &self,
        game: &Backgammon,
        p: &Position,
        dice: Dice,
        plays: &[Play],
        s: &mut DiceStream,
    ) -> usize {
        let mut kept = Vec::new();
        Screen::builtin().keep_best(p, plays, KEEP, &mut kept);
        if kept.len() > 1 {
            let screened: Vec<Play> = kept.iter().map(|&k| plays[k]).collect();
            let (mut whole, mut first) = (Vec::new(), Vec::new());
            NeuralNet::builtin().evaluate_plays(p, &screened, &mut whole);
            self.first_layer.evaluate_plays(p, &screened, &mut first);
            let equities =
                |v: &[gammon_bot::Probabilities]| v.iter().map(|x| x.equity()).collect::<Vec<f64>>();
            let (first, whole) = (equities(&first), equities(&whole));
            if first != whole {
                CHOICES.lock().unwrap().push((first, whole));
            }
        }
        BuiltinPolicy::Net.choose(game, p, dice, plays, s)
    }

    fn deterministic(&self) -> bool {
        true
    }

    fn forget_history(&self) {
        BuiltinPolicy::Net.forget_history()
    }

    fn name(&self) -> &str {
        "net, recording"
    }
}

/// The first of the best of `places` by `values`.
fn best(values: &[f64], places: impl Iterator<Item = usize>) -> usize {
    places.reduce(|b, k| if values[k] > values[b] { k } else { b }).expect("a candidate")
}

fn main() {
    let pairs: u32 = std::env::args().nth(1).map_or(300, |a| a.parse().expect("PAIRS is a number"));
    let mut first_layer = NeuralNet::builtin().clone();
    first_layer.contact.head = None;
    backgammon_duel(&Recorder { first_layer }, &BuiltinPolicy::Net, pairs, 3);
    let choices = CHOICES.lock().unwrap();
    let n = choices.len() as f64;
    println!("{} contact choices among 2 or more screened plays ({pairs} pairs of games)", choices.len());
    println!(
        "{:>4} {:>7} {:>14} {:>14} {:>16}",
        "most", "margin", "head judges", "other choice", "loss a choice"
    );
    for most in [1, 2, 4] {
        for margin in [0.02, 0.04, 0.06, 0.08, 0.10, f64::INFINITY] {
            if most == 1 && margin.is_finite() {
                continue;
            }
            let (mut judged, mut loss, mut other) = (0usize, 0.0f64, 0usize);
            for (first, whole) in choices.iter() {
                let mut order: Vec<usize> = (0..first.len()).collect();
                order.sort_by(|&a, &b| first[b].total_cmp(&first[a]));
                let top = first[order[0]];
                let kept: Vec<usize> = order
                    .iter()
                    .copied()
                    .take(most)
                    .enumerate()
                    .take_while(|&(r, k)| r == 0 || top - first[k] <= margin)
                    .map(|(_, k)| k)
                    .collect();
                let ideal = best(whole, 0..whole.len());
                let chosen = best(whole, kept.iter().copied());
                judged += kept.len();
                loss += whole[ideal] - whole[chosen];
                other += (ideal != chosen) as usize;
            }
            println!(
                "{most:>4} {margin:>7.2} {:>14.2} {:>13.2}% {:>16.6}",
                judged as f64 / n,
                100.0 * other as f64 / n,
                loss / n
            );
        }
    }
}
