//! TD(lambda) training is reproducible: the weights after some rounds depend on the seed and the
//! settings, not on the number of threads, nor on stopping and resuming between rounds.

use gammon_bot::net::NeuralNet;
use gammon_train::td::train_round;

/// Trains a tiny net for `rounds` rounds of 4 games on a pool of `threads` threads.
fn train(net: &mut NeuralNet, rounds: u64, threads: usize) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    pool.install(|| {
        for _ in 0..rounds {
            let g = net.trained_games;
            train_round(net, 17, g..g + 4, 0.7, 0.1);
        }
    });
}

#[test]
fn weights_do_not_depend_on_the_thread_count() {
    let start = NeuralNet::random(8, 5);
    let mut one = start.clone();
    train(&mut one, 8, 1);
    let mut two = start.clone();
    train(&mut two, 8, 2);
    assert_eq!(one.trained_games, 32);
    assert_ne!(one.to_bytes(), start.to_bytes());
    assert_eq!(one.to_bytes(), two.to_bytes());
}

#[test]
fn a_resumed_run_learns_as_the_uninterrupted_one() {
    let mut whole = NeuralNet::random(8, 6);
    let mut first = whole.clone();
    train(&mut whole, 6, 2);
    train(&mut first, 3, 2);
    let mut resumed = NeuralNet::from_bytes(&first.to_bytes()).unwrap();
    train(&mut resumed, 3, 2);
    assert_eq!(whole.to_bytes(), resumed.to_bytes());
}
