use super::*;
use gammon_backgammon::Match;

fn fixture(name: &str) -> Match {
    let path = format!("{}/../../tests/fixtures/mat/{name}", env!("CARGO_MANIFEST_DIR"));
    Match::from_mat(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn every_roll_and_take_is_judged_and_the_best_action_loses_nothing() {
    let m = fixture("gnubg_selfplay_5pt.mat");
    let a = analyse(&m, &Options::default(), None).unwrap();
    let rolls: usize = m
        .games()
        .iter()
        .map(|g| {
            g.history()
                .iter()
                .filter(|x| matches!(x, Action::Roll { .. } | Action::OpeningRoll { .. }))
                .count()
        })
        .sum();
    assert_eq!(a.decisions.iter().filter(|d| d.kind == Kind::Checker).count(), rolls);
    for d in &a.decisions {
        assert!(d.equity_lost >= 0.0, "{d:?}");
        if d.played == d.best {
            assert_eq!(d.equity_lost, 0.0, "{d:?}");
        }
        // A forced play is never counted, nor marked.
        if d.kind == Kind::Checker && d.alternatives == 1 {
            assert!(!d.counted && d.mark == Mark::None);
        }
        assert_eq!(d.mark, if d.counted { Mark::of(d.equity_lost, &DEFAULT_THRESHOLDS) } else { Mark::None });
    }
    let p = &a.players;
    assert_eq!(p[0].decisions() + p[1].decisions(), a.decisions.iter().filter(|d| d.counted).count());
    // Luck sums to about zero over many rolls only on average; it is bounded per roll.
    assert!(a.decisions.iter().filter_map(|d| d.luck).all(|l| l.abs() < 3.0));
}

#[test]
fn a_poor_play_is_ranked_below_the_best() {
    // 3-1 played 13/9 instead of 8/5 6/5 (the bot's and every book's best opening 3-1).
    let text = " 3 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: 13/9\n";
    let a = analyse(&Match::from_mat(text).unwrap(), &Options::default(), None).unwrap();
    let d = a.decisions.iter().find(|d| d.kind == Kind::Checker).unwrap();
    assert_eq!((d.best.as_str(), d.played.as_str()), ("8/5 6/5", "13/9"));
    assert!(d.rank.unwrap() > 1 && d.equity_lost > 0.0 && d.counted);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let m = fixture("gnubg_selfplay_3pt.mat");
    let run = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
            .install(|| analyse(&m, &Options::default(), None).unwrap())
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn progress_counts_up_and_can_stop() {
    let m = fixture("gnubg_selfplay_3pt.mat");
    let seen = Mutex::new(Vec::new());
    let report = |n: usize, total: usize| {
        seen.lock().unwrap().push((n, total));
        true
    };
    analyse(&m, &Options::default(), Some(&report)).unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(seen.windows(2).all(|w| w[0].0 < w[1].0));
    assert_eq!(seen.last().map(|s| s.0), seen.last().map(|s| s.1));
    let stop = |_: usize, _: usize| false;
    assert!(analyse(&m, &Options::default(), Some(&stop)).is_err());
}

#[test]
fn ratings_follow_gnubgs_scale() {
    assert_eq!(rating(0.001), "Supernatural");
    assert_eq!(rating(0.0065), "Expert");
    assert_eq!(rating(0.04), "Awful!");
}
