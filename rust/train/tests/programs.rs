//! The training programs still train: `train`, `refine` and `train-screen` each run to the end on a
//! tiny problem (a net of 8 hidden units, a few games or positions, no duels worth the name) and
//! write weights that load and differ from what they started from; `quantize-head` rounds the
//! shipped head as it says. This is no test of how well
//! they train, only that a change elsewhere (the nets, the inputs, the self-play) has not left them
//! unable to run; it takes about ten seconds. `refine` labels by short rollouts here, whose blocks of
//! games are small: its default search labels come in blocks of 200 games, some 17,000 positions.

use gammon_bot::net::screen::Screen;
use gammon_bot::net::NeuralNet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh directory of its own under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-train-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs one of this crate's programs and panics with its output unless it succeeds.
fn run(program: &str, args: &[&str]) {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    assert!(
        out.status.success(),
        "{program} {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read_net(path: &Path) -> NeuralNet {
    NeuralNet::from_bytes(&std::fs::read(path).unwrap()).unwrap()
}

/// `train` from random weights: 8 games of TD(lambda) in batches of 4.
fn tiny_td_run(dir: &Path) -> NeuralNet {
    let d = dir.to_str().unwrap();
    #[rustfmt::skip]
    let args = [
        "--dir", d, "--games", "8", "--hidden", "8", "--batch", "4", "--seed", "3", "--threads", "1",
        "--checkpoint-every", "4", "--duel-every", "8", "--duel-pairs", "2",
    ];
    run(env!("CARGO_BIN_EXE_train"), &args);
    let net = read_net(&dir.join("checkpoint.bin"));
    assert_eq!(net.trained_games, 8);
    assert_eq!(net.contact.hidden(), 8);
    assert!(dir.join("net-8.bin").exists(), "no kept net after the duel");
    net
}

#[test]
fn train_runs_and_learns_from_random_weights() {
    let dir = scratch("td");
    let net = tiny_td_run(&dir);
    assert_ne!(net.to_bytes(), NeuralNet::random(8, 3).to_bytes(), "the weights did not move");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refine_labels_positions_and_changes_the_weights() {
    let dir = scratch("refine");
    let start = tiny_td_run(&dir.join("td"));
    let (net, out) = (dir.join("td/checkpoint.bin"), dir.join("refined.bin"));
    let (d, n, o) = (dir.to_str().unwrap(), net.to_str().unwrap(), out.to_str().unwrap());
    #[rustfmt::skip]
    let args = [
        "--net", n, "--dir", d, "--out", o, "--positions", "60", "--label", "rollout:2:2", "--epochs", "1",
        "--duel-pairs", "0",
    ];
    run(env!("CARGO_BIN_EXE_refine"), &args);
    let refined = read_net(&out);
    assert_eq!(refined.contact.hidden(), 8);
    assert_ne!(refined.to_bytes(), start.to_bytes(), "refining left the weights as they were");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_screen_writes_a_screen_that_loads() {
    let dir = scratch("screen");
    tiny_td_run(&dir.join("td"));
    let (net, out) = (dir.join("td/checkpoint.bin"), dir.join("screen.bin"));
    let (n, o) = (net.to_str().unwrap(), out.to_str().unwrap());
    let args = ["--games", "4", "--test-games", "2", "--net", n, "--out", o];
    run(env!("CARGO_BIN_EXE_train-screen"), &args);
    let screen = Screen::from_bytes(&std::fs::read(&out).unwrap()).unwrap();
    assert_ne!(screen.to_bytes(), Screen::builtin().to_bytes(), "the screen is the shipped one");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quantize_head_rounds_each_units_weights_to_127_steps_of_its_largest() {
    let dir = scratch("quantize");
    let net = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bot/data/net-v14.bin");
    let (plain, fitted) = (dir.join("plain.bin"), dir.join("fitted.bin"));
    let n = net.to_str().unwrap();
    run(env!("CARGO_BIN_EXE_quantize-head"), &["--net", n, "--out", plain.to_str().unwrap()]);
    let args = ["--net", n, "--out", fitted.to_str().unwrap(), "--calibrate", "--games", "2"];
    run(env!("CARGO_BIN_EXE_quantize-head"), &args);
    let start = read_net(&net);
    let before = start.contact.head.as_ref().unwrap();
    for (path, calibrated) in [(plain, false), (fitted, true)] {
        let rounded = read_net(&path);
        assert_eq!(rounded.contact.w1, start.contact.w1, "only the head changes");
        let head = rounded.contact.head.as_ref().unwrap();
        let units = head.units();
        for m in 0..units {
            let column = |w: &[f32]| (0..head.hidden()).map(|j| w[j * units + m]).collect::<Vec<_>>();
            let largest = column(&before.w).iter().fold(0.0f32, |a, &b| a.max(b.abs()));
            for w in column(&head.w) {
                let steps = w * 127.0 / largest;
                assert!((steps - steps.round()).abs() < 1e-3 && steps.abs() <= 127.001, "unit {m}: {w}");
            }
        }
        assert_eq!(head.b != before.b, calibrated, "the biases move only when fitted");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
