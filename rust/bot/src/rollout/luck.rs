//! The luck of a roll for the net policies' variance reduction.
//!
//! A rollout subtracts from each trial, at every ply, `f(roll thrown) - mean of f over the 21
//! rolls`, for some value `f` of the position and the roll. Any such `f` keeps the estimate
//! unbiased, because the mean subtracted is exact; the closer `f` follows the value the game
//! really goes on with, the more variance it removes, and the less it costs, the more trials
//! the same time buys. The natural `f`, the value of the policy's own play of every roll, costs
//! 21 choices a ply, each judging up to the screen's 8 best candidates with the full net: about
//! 20 times the CPU time of a game without it, for a variance about 20 times smaller, so no
//! gain at equal time.
//!
//! For the rollouts' own net ([`NeuralNet::fast`]), `f` is the [`LuckNet`]'s prediction of
//! that value from the position before the roll, without a play generated: it removes about
//! three quarters of the variance for about two thirds of a ply's time a ply, which makes the
//! reduced rollout's error about 1.7 times smaller than plain trials' at equal time
//! (docs/performance.md). Where both sides bear off with six checkers or fewer, the policy plays
//! by the exact two-sided database, and `f` is that database's value of each roll's best play
//! ([`Database::roll_wins`](crate::bearoff::two_sided::Database::roll_wins)): exact, and cheaper
//! than the net. For any other net (the bot's, or weights being trained) it is the
//! net's value of a play of each roll: in contact the play the screen ranks first, the 21
//! positions judged in one call from one preparation of the position before the roll; in
//! races and bear-offs, where plays are few, the policy's own choice.

use crate::bearoff::two_sided;
use crate::net::luck::LuckNet;
use crate::net::screen::{Keep, Screen};
use crate::net::{Class, NeuralNet};
use gammon_backgammon::{legal_plays_into, Play, Position, Probabilities, ALL_ROLLS};

/// For each of the 21 rolls ([`ALL_ROLLS`] order) from `before` (the position of the player to
/// roll), the value `f` of the roll for the mover into `out`, and the index of the play it
/// judged among the roll's legal plays into `best`: for [`NeuralNet::fast`] the [`LuckNet`]'s
/// predicted equity (all of it in the win; `best` all 0, no play being judged), even chances for
/// every roll where none can move ([`Position::closed_out`]), or in the exact two-sided bear-off
/// database's range its chance of winning after the roll's best play; for other
/// nets, in contact ([`Class::Contact`]) the net's value of the play `screen` scores highest
/// (the first of equals), elsewhere of the play [`NeuralNet::best_of_screened`] takes with
/// `keep`, as the net policy does. `plays` is scratch space.
pub fn roll_values(
    net: &NeuralNet,
    screen: &Screen,
    keep: impl Into<Keep>,
    before: &Position,
    plays: &mut Vec<Play>,
    out: &mut [Probabilities; 21],
    best: &mut [usize; 21],
) {
    let class = Class::of(before);
    // Asking `shipped` loads neither shipped net, where comparing with `NeuralNet::fast()` would
    // load the rollouts' net for the bot's or a training run's.
    if net.shipped() == 2 {
        // Where both sides bear off with six checkers or fewer, the policy plays by the exact
        // two-sided database, whose value of each roll is known without a prediction.
        if let Some((mover, opponent)) =
            (class == Class::BearOff).then(|| two_sided::boards_of(before)).flatten()
        {
            let wins = two_sided::database().roll_wins(mover, opponent);
            for ((value, k), win) in out.iter_mut().zip(best.iter_mut()).zip(wins) {
                *value = Probabilities { win, ..Probabilities::default() };
                *k = 0;
            }
            return;
        }
        // On the bar against a closed board no roll moves, so no roll is luckier than another:
        // the same value for each, without a prediction that could only add noise.
        if before.closed_out() {
            *out = [Probabilities { win: 0.5, ..Probabilities::default() }; 21];
            *best = [0; 21];
            return;
        }
        // The rollouts' own net: the luck net, made for it, predicts each roll's value.
        let equities = LuckNet::builtin().roll_equities(before, class);
        for ((value, k), equity) in out.iter_mut().zip(best.iter_mut()).zip(equities) {
            // All of the equity in the win: a difference of these values moves the equity by
            // the predicted amount and the win by half as much.
            *value = Probabilities { win: 0.5 + 0.5 * equity as f64, ..Probabilities::default() };
            *k = 0;
        }
        return;
    }
    if class != Class::Contact {
        net.roll_values_screened(screen, keep, before, plays, out, best);
        return;
    }
    // As the screen's own ranking does: the same code compiled for AVX2 where the CPU has it,
    // without fused multiply-add, so that the scores, and the plays taken, are the same on
    // every machine.
    #[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi1") {
        // SAFETY: the CPU supports AVX2 and BMI1, checked just above.
        return unsafe { avx2(net, screen, before, plays, out, best) };
    }
    with(net, screen, before, plays, out, best)
}

#[cfg(all(target_arch = "x86_64", not(gammon_portable)))]
#[target_feature(enable = "avx2,bmi1")]
unsafe fn avx2(
    net: &NeuralNet,
    screen: &Screen,
    before: &Position,
    plays: &mut Vec<Play>,
    out: &mut [Probabilities; 21],
    best: &mut [usize; 21],
) {
    with(net, screen, before, plays, out, best)
}

#[inline(always)]
fn with(
    net: &NeuralNet,
    screen: &Screen,
    before: &Position,
    plays: &mut Vec<Play>,
    out: &mut [Probabilities; 21],
    best: &mut [usize; 21],
) {
    thread_local! {
        // Reused: a rollout asks at every ply.
        static BUFFERS: std::cell::RefCell<(Vec<Play>, Vec<Probabilities>)> =
            const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
    }
    let look = screen.look(before);
    BUFFERS.with_borrow_mut(|(chosen, values)| {
        chosen.clear();
        for (k, roll) in best.iter_mut().zip(ALL_ROLLS) {
            legal_plays_into(before, roll, plays);
            *k = 0;
            if plays.len() > 1 {
                let mut top = look.score(&plays[0]);
                for (i, play) in plays.iter().enumerate().skip(1) {
                    let s = look.score(play);
                    if s > top {
                        (top, *k) = (s, i);
                    }
                }
            }
            chosen.push(plays[*k]);
        }
        // The 21 positions in one call: the hidden sums of the position before the roll are
        // computed once and updated for each.
        net.prepare_again(before).evaluate_plays(chosen, values);
        out.copy_from_slice(values);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{BuiltinPolicy, KEEP};
    use crate::rollout::{rollout, RolloutOptions};
    use gammon_backgammon::{legal_plays, Backgammon, DiceGame, DiceStream};

    #[test]
    fn the_rollouts_net_takes_the_luck_nets_values() {
        // Or, where both sides bear off with six checkers or fewer, the exact database's, and
        // the same for every roll where no roll moves.
        let (net, screen) = (NeuralNet::fast(), Screen::builtin());
        let mut stream = DiceStream::new(12, 0);
        let (mut p, mut plays) = (Position::initial(), vec![]);
        let (mut out, mut best) = ([Probabilities::default(); 21], [0; 21]);
        let mut seen = [0; 5];
        for _ in 0..600 {
            roll_values(net, screen, KEEP, &p, &mut plays, &mut out, &mut best);
            let class = Class::of(&p);
            if let Some((mover, opponent)) = two_sided::boards_of(&p) {
                seen[3] += 1;
                let wins = two_sided::database().roll_wins(mover, opponent);
                for (value, win) in out.iter().zip(wins) {
                    assert_eq!(value.to_array(), [win, 0.0, 0.0, 0.0, 0.0], "{}", p.id());
                }
            } else if p.closed_out() {
                seen[4] += 1;
                assert!(out.iter().all(|v| v.equity() == 0.0), "{}", p.id());
            } else {
                seen[class as usize] += 1;
                let want = LuckNet::builtin().roll_equities(&p, class);
                for (value, equity) in out.iter().zip(want) {
                    assert_eq!(value.equity() as f32, equity, "{}", p.id());
                }
            }
            let all = legal_plays(&p, stream.roll());
            p = all[net.best_of_screened(screen, KEEP, &p, &all).0].position.swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        assert!(seen[..3].iter().all(|&n| n > 20) && seen[3] > 5 && seen[4] > 0, "{seen:?}");
    }

    #[test]
    fn contact_takes_the_screens_first_play_and_races_the_policys() {
        // Any net but the rollouts' own, here the bot's.
        let (net, screen) = (NeuralNet::builtin(), Screen::builtin());
        let mut stream = DiceStream::new(11, 0);
        let (mut p, mut plays) = (Position::initial(), vec![]);
        let (mut out, mut best) = ([Probabilities::default(); 21], [0; 21]);
        let mut kept = vec![];
        let mut seen = [0; 2];
        for _ in 0..400 {
            roll_values(net, screen, KEEP, &p, &mut plays, &mut out, &mut best);
            let contact = Class::of(&p) == Class::Contact;
            seen[contact as usize] += 1;
            for ((roll, value), k) in ALL_ROLLS.into_iter().zip(out).zip(best) {
                let all = legal_plays(&p, roll);
                // The reference: the screen's own ranking, or the policy's choice, and the
                // net's evaluation of the position after the play from scratch.
                let want = if contact {
                    screen.keep_best(&p, &all, 1, &mut kept);
                    kept[0]
                } else {
                    net.best_of_screened(screen, KEEP, &p, &all).0
                };
                assert_eq!(k, want, "{} {roll:?}", p.id());
                let reference = gammon_core::policy::value_after(&Backgammon, net, &all[k]);
                for (a, b) in value.to_array().into_iter().zip(reference.to_array()) {
                    assert!((a - b).abs() < 1e-5, "{value:?} {reference:?}");
                }
            }
            let all = legal_plays(&p, stream.roll());
            p = all[all.len() / 2].position.swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        assert!(seen[0] > 20 && seen[1] > 150, "{seen:?}");
    }

    #[test]
    fn the_luck_depends_on_the_position_and_the_roll_alone() {
        // In a game the net derives a position's inputs from the play the policy just chose
        // (`prepare_again`); asked out of order it derives them afresh. Both give the same
        // values to the bit, which is what keeps a rollout the same whatever its threads and
        // its first trial.
        let (net, screen) = (NeuralNet::fast(), Screen::builtin());
        let mut stream = DiceStream::new(5, 0);
        let mut p = Position::initial();
        let (mut plays, mut best) = (vec![], [0; 21]);
        let bits = |out: &[Probabilities; 21]| out.map(|v| v.to_array().map(f64::to_bits));
        let mut in_game = vec![];
        for _ in 0..150 {
            let mut out = [Probabilities::default(); 21];
            roll_values(net, screen, KEEP, &p, &mut plays, &mut out, &mut best);
            in_game.push((p, bits(&out), best));
            let all = legal_plays(&p, stream.roll());
            p = all[net.best_of_screened(screen, KEEP, &p, &all).0].position.swapped();
            if Backgammon.result(&p).is_some() {
                p = Position::initial();
            }
        }
        let contact = in_game.iter().filter(|(p, ..)| Class::of(p) == Class::Contact).count();
        assert!(contact > 50 && contact < in_game.len(), "{contact}");
        for (p, want, want_best) in in_game.iter().rev() {
            let mut out = [Probabilities::default(); 21];
            roll_values(net, screen, KEEP, p, &mut plays, &mut out, &mut best);
            assert_eq!((&bits(&out), &best), (want, want_best), "{}", p.id());
        }
    }

    #[test]
    fn reduced_and_plain_rollouts_agree() {
        // Truncated after 8 plies to keep the test short: both estimate the same expectation,
        // the net's value of the position reached, so they agree within their errors, the
        // reduced one with the smaller error. Contact, the start, a race and a bear-off.
        let ids = ["0HPhATDg2+ABMA", "4HPwATDgc/ABMA", "2N1tAADY3W0AAA", "v90EAIC3BgAAAA"];
        for id in ids {
            let p = Position::from_id(id).unwrap();
            let options = |seed, variance_reduction| RolloutOptions {
                trials: 1296,
                seed,
                truncate: Some(8),
                variance_reduction,
                ..RolloutOptions::default()
            };
            let reduced = rollout(&p, &BuiltinPolicy::NetFast, &options(1, true)).unwrap();
            let plain = rollout(&p, &BuiltinPolicy::NetFast, &options(2, false)).unwrap();
            // The luck net removes about three quarters of the variance (at least half here).
            assert!(reduced.variance_reduction && reduced.std_error < 0.7 * reduced.plain_std_error, "{id}");
            let both = (reduced.std_error.powi(2) + plain.std_error.powi(2)).sqrt();
            assert!((reduced.equity - plain.equity).abs() < 3.0 * both, "{id}: {reduced:?} {plain:?}");
        }
    }
}
