//! Self-play games of a net at 0-ply that are only watched, not learnt from (TD training plays
//! its own, in [`crate::td`]): game `g` of a seed rolls dice stream `g`, so the positions of a
//! game do not depend on which thread plays it or in what order.

use gammon_backgammon::{legal_plays_into, Backgammon, DiceGame, DiceStream, Play, Position};
use gammon_bot::net::NeuralNet;
use gammon_bot::Probabilities;

/// Plays game `game` of `seed`. Before each play, `choose` is given the position on roll, its
/// legal plays, the net's judgement of each, and the game's dice stream (for choices that draw
/// on chance, so that they too are reproducible); it returns the index of the play to make. The
/// game ends when a play wins.
pub fn self_play(
    net: &NeuralNet,
    seed: u64,
    game: u64,
    mut choose: impl FnMut(&Position, &[Play], &[Probabilities], &mut DiceStream) -> usize,
) {
    let mut stream = DiceStream::new(seed, game);
    let mut position = Position::initial();
    let (mut plays, mut values) = (Vec::new(), Vec::new());
    loop {
        legal_plays_into(&position, stream.roll(), &mut plays);
        net.evaluate_plays(&position, &plays, &mut values);
        let k = choose(&position, &plays, &values, &mut stream);
        let next = Backgammon.after(&plays[k]);
        if Backgammon.result(&next).is_some() {
            return;
        }
        position = next;
    }
}

/// The index of the first of the largest of `values`: the play a greedy player makes.
pub fn best(values: &[f32]) -> usize {
    (0..values.len()).fold(0, |b, k| if values[k] > values[b] { k } else { b })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_differ_by_number() {
        let net = NeuralNet::random(4, 1);
        let rolls = |game| {
            let mut positions = vec![];
            self_play(&net, 3, game, |p, _, _, _| {
                positions.push(*p);
                0
            });
            positions
        };
        assert_eq!(rolls(0), rolls(0));
        assert_ne!(rolls(0), rolls(1));
        assert_eq!(rolls(0)[0], Position::initial());
    }

    #[test]
    fn the_first_best_value_wins_ties() {
        assert_eq!(best(&[0.1, 0.3, 0.3, -1.0]), 1);
        assert_eq!(best(&[0.5]), 0);
    }
}
