//! The shipped nets compute what they computed when they were measured: `net-v14` (the bot's,
//! [`NeuralNet::builtin`]) and `net-v4` (the rollouts', [`NeuralNet::fast`]) give pinned
//! probabilities on six positions, two of each of GNU Backgammon's classes contact, crashed and
//! race, and the bot's back-game net `back-game-v1` on two back games, taken from
//! `tests/fixtures/strength/probabilities.csv`. A change to the inputs' encoding,
//! the weights' loading or the arithmetic that moves an output by more than 1e-5 fails here, before
//! it silently moves every strength figure of `docs/strength.md`.
//!
//! Where the numbers come from: the Python binding, built from the commit that measured the tables
//! of `docs/strength.md` (`Bot().evaluate(p)` for `net-v14`; `rollout(p, trials=1, truncate=0,
//! policy="net-fast", variance_reduction=False)`, the narrower rollout policy's evaluator read at once, for `net-v4`),
//! printed to six decimals; this test reached the same values through the Rust API, a second route.

use gammon_backgammon::Position;
use gammon_bot::net::NeuralNet;
use gammon_bot::Evaluator;

/// (Position ID, gnubg's class, net-v14's and net-v4's win, win gammon, win backgammon, lose
/// gammon, lose backgammon), for the player on roll.
type Pin = (&'static str, &'static str, [f64; 5], [f64; 5]);

const PINS: [Pin; 6] = [
    (
        "4NvgQSCwz8EBBg",
        "contact",
        [0.615000, 0.218546, 0.007106, 0.067289, 0.002937],
        [0.609214, 0.195242, 0.005561, 0.060092, 0.002786],
    ),
    (
        "WzMcQQiYZzDgQQ",
        "contact",
        [0.391823, 0.095166, 0.005210, 0.303092, 0.007103],
        [0.391649, 0.102620, 0.005897, 0.298726, 0.007337],
    ),
    (
        "/xYAALBtmwgABA",
        "crashed",
        [0.257979, 0.000192, 0.000015, 0.075350, 0.000126],
        [0.244451, 0.001071, 0.000083, 0.101156, 0.000925],
    ),
    (
        "740AATj+PgAAAA",
        "crashed",
        [0.987753, 0.809236, 0.060462, 0.000009, 0.000000],
        [0.972788, 0.850833, 0.064521, 0.000073, 0.000011],
    ),
    (
        "92YnAAC7awcBAA",
        "race",
        [0.529548, 0.000000, 0.000000, 0.000000, 0.000000],
        [0.515602, 0.000000, 0.000000, 0.000000, 0.000000],
    ),
    (
        "NgAAYNvuABAAAA",
        "race",
        [0.000000, 0.000000, 0.000000, 0.249816, 0.000000],
        [0.000000, 0.000000, 0.000000, 0.268739, 0.000007],
    ),
];

/// The pins are printed to six decimals, and the nets compute in single precision.
const TOLERANCE: f64 = 1e-5;

/// (Position ID, gnubg's class, one net's pinned probabilities.)
type Pinned = (&'static str, &'static str, [f64; 5]);

fn check(net: &NeuralNet, name: &str, pins: impl IntoIterator<Item = Pinned>) {
    for (id, class, want) in pins {
        let position = Position::from_id(id).unwrap_or_else(|e| panic!("{id}: {e}"));
        let got = net.evaluate(&position).to_array();
        for (i, (got, want)) in got.iter().zip(want).enumerate() {
            assert!(
                (got - want).abs() <= TOLERANCE,
                "{name} on {id} ({class}): {} is {got:.6}, pinned {want:.6}",
                gammon_bot::Probabilities::NAMES[i],
            );
        }
    }
}

#[test]
fn the_bots_net_v14_gives_its_pinned_probabilities() {
    check(NeuralNet::builtin(), "net-v14", PINS.map(|(id, class, v14, _)| (id, class, v14)));
}

#[test]
fn the_rollouts_net_v4_gives_its_pinned_probabilities() {
    check(NeuralNet::fast(), "net-v4", PINS.map(|(id, class, _, v4)| (id, class, v4)));
}

/// Two back games of the fixture (one side holds two points of the other's home board, 30 pips
/// or more behind), which the bot judges by `back-game-v1`, with its probabilities.
const BACK_GAME_PINS: [Pinned; 2] = [
    ("Y3sbABDctgCATQ", "contact", [0.356828, 0.042658, 0.001435, 0.312432, 0.019326]),
    ("3LYAAhuP5w0AEA", "contact", [0.363811, 0.177987, 0.010689, 0.150373, 0.005000]),
];

#[test]
fn the_bots_back_game_net_gives_its_pinned_probabilities() {
    for pin in &BACK_GAME_PINS {
        assert!(gammon_bot::net::back_game(&Position::from_id(pin.0).unwrap()), "{} is a back game", pin.0);
    }
    check(NeuralNet::builtin(), "back-game-v1", BACK_GAME_PINS);
}
