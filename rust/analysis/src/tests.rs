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

#[test]
fn luck_marks_and_ratings_follow_gnubgs_scale() {
    // GNU Backgammon 1.07's `show analysis` prints the luck marks at +0.6, +0.3, -0.3, -0.6; its
    // manual gives the luck ratings (luck per roll) at 0.06, 0.03, -0.03, -0.06. In its analysis
    // of noisy_7pt_c, a roll of luck +0.30059 is lucky and one of -0.34719 unlucky.
    assert_eq!(LuckMark::of(0.30059), LuckMark::Lucky);
    assert_eq!(LuckMark::of(-0.34719), LuckMark::Unlucky);
    assert_eq!(LuckMark::of(0.7), LuckMark::VeryLucky);
    assert_eq!(LuckMark::of(-0.61), LuckMark::VeryUnlucky);
    assert_eq!(LuckMark::of(0.2), LuckMark::None);
    assert_eq!(luck_rating(-0.0241), "None");
    assert_eq!(luck_rating(0.05), "Good dice, man!");
    assert_eq!(luck_rating(-0.07), "Go to bed");
}

#[test]
fn luck_counts_and_the_luck_adjusted_result_add_up() {
    let m = fixture("gnubg_selfplay_5pt.mat");
    let a = analyse(&m, &Options::default(), None).unwrap();
    for (k, p) in a.players.iter().enumerate() {
        let rolls: Vec<&Decision> =
            a.decisions.iter().filter(|d| d.player as usize == k && d.luck.is_some()).collect();
        let marked = |mark| rolls.iter().filter(|d| d.luck_mark() == mark).count();
        assert_eq!(
            [p.very_lucky, p.lucky, p.unlucky, p.very_unlucky],
            [
                marked(LuckMark::VeryLucky),
                marked(LuckMark::Lucky),
                marked(LuckMark::Unlucky),
                marked(LuckMark::VeryUnlucky)
            ]
        );
    }
    // The match is over: the winner gained half a match from 0-0, the loser lost it, and the
    // luck-adjusted results are each other's opposites (as GNU Backgammon's are).
    let w = m.winner().unwrap() as usize;
    assert!((a.players[w].result - 0.5).abs() < 1e-9 && (a.players[1 - w].result + 0.5).abs() < 1e-9);
    let (p0, p1) = (&a.players[0], &a.players[1]);
    assert!((p0.luck_adjusted_result + p1.luck_adjusted_result).abs() < 1e-9);
    assert!((p0.luck_adjusted_result - (p0.result - p0.luck_mwc + p1.luck_mwc)).abs() < 1e-9);
}

#[test]
fn the_annotated_sgf_reads_back_to_the_match_with_a_mark_per_marked_decision() {
    let m = fixture("gnubg_selfplay_5pt.mat");
    let a = analyse(&m, &Options::default(), None).unwrap();
    let sgf = a.to_sgf(&m).unwrap();
    let back = Match::from_sgf(&sgf).unwrap();
    for (x, y) in m.games().iter().zip(back.games()) {
        assert_eq!(x.history(), y.history());
    }
    let count = |what: &str| sgf.matches(what).count();
    let marked = |mark| a.decisions.iter().filter(|d| d.mark == mark).count();
    assert_eq!(count("BM[2]") + count("BC[2]"), marked(Mark::VeryBad));
    assert_eq!(count("BM[1]") + count("BC[1]"), marked(Mark::Bad));
    assert_eq!(count("DO[]") + count("DC[]"), marked(Mark::Doubtful));
    assert_eq!(count("LU["), a.decisions.iter().filter(|d| d.luck.is_some()).count());
    let lucky = a.players.iter().map(|p| p.lucky + p.unlucky).sum::<usize>();
    assert_eq!(count("GB[1]") + count("GW[1]"), lucky);
    // Another match is refused.
    assert!(a.to_sgf(&fixture("gnubg_selfplay_3pt.mat")).is_err());
}

/// A node's properties with all their values (`A[0][x][y]` has three).
fn node_properties(node: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut rest = node;
    while let Some(open) = rest.find('[') {
        let key = rest[..open].trim();
        if !key.is_empty() {
            out.push((key.to_string(), vec![]));
        }
        let close = open + rest[open..].find(']').unwrap();
        out.last_mut().unwrap().1.push(rest[open + 1..close].to_string());
        rest = &rest[close + 1..];
    }
    out
}

#[test]
fn the_annotated_sgf_carries_each_plays_candidates_and_each_cube_analysis() {
    // The layout is GNU Backgammon 1.07's own (`save match` after `analyse match`), and
    // tools/analysis/sgf_marks_gnubg.py checks on every analysis fixture, at ply 0 and 2, that
    // gnubg reads these values back (`gnubg.match()`: candidates, their probabilities and
    // equities, the play made, the cube's probabilities and equities) to the six decimals written.
    let path = format!("{}/../../tests/fixtures/analysis/noisy_7pt_c.mat", env!("CARGO_MANIFEST_DIR"));
    let m = Match::from_mat(&std::fs::read_to_string(path).unwrap()).unwrap();
    let a = analyse(&m, &Options::default(), None).unwrap();
    let sgf = a.to_sgf(&m).unwrap();
    let nodes: Vec<Vec<(String, Vec<String>)>> = sgf
        .split("\n(")
        .flat_map(|game| game.split("\n;").skip(1).map(node_properties).collect::<Vec<_>>())
        .collect();
    let plays: Vec<&Decision> = a.decisions.iter().filter(|d| d.played_candidate.is_some()).collect();
    let cubes: Vec<&Decision> = a.decisions.iter().filter(|d| d.cube_probabilities.is_some()).collect();
    let (mut seen_plays, mut seen_cubes) = (0, 0);
    let six = |x: f64| format!("{x:.6}");
    for node in &nodes {
        let (_, moved) = &node[0];
        for (name, values) in node {
            if name == "A" {
                let d = plays[seen_plays];
                seen_plays += 1;
                let k: usize = values[0].parse().unwrap();
                assert_eq!(Some(k), d.played_candidate);
                assert_eq!(values.len(), 1 + d.candidates.len());
                // The play made is the node's own play, in the same letters.
                assert_eq!(values[1 + k].split(' ').next().unwrap(), &moved[0][2..]);
                for (v, c) in values[1..].iter().zip(&d.candidates) {
                    let f: Vec<&str> = v.split(' ').collect();
                    assert_eq!(f[1..4], ["E", "ver", "3"]);
                    let p = &c.probabilities;
                    let probs = [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon];
                    assert_eq!(f[4..9], probs.map(six));
                    assert_eq!(f[9], six(c.equity));
                    assert_eq!(f[10..], ["0C", "0", "1", "0.000000", "1"]);
                }
                // Best first.
                assert!(d.candidates.windows(2).all(|w| w[0].equity >= w[1].equity));
            }
            if name == "DA" {
                let d = cubes[seen_cubes];
                seen_cubes += 1;
                let f: Vec<&str> = values[0].split(' ').collect();
                assert_eq!(f[..7], ["E", "ver", "3", "0C", "1", "0.000000", "1"]);
                let p = d.cube_probabilities.unwrap();
                let probs = [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon];
                assert_eq!(f[7..12], probs.map(six));
                assert_eq!(f[14..19], probs.map(six));
                // Match play: the no-double and double/take equities as match winning chances.
                let mwc = d.cube_mwc.unwrap();
                assert_eq!((f[13], f[20]), (six(mwc[0]).as_str(), six(mwc[1]).as_str()));
            }
        }
    }
    assert_eq!((seen_plays, seen_cubes), (plays.len(), cubes.len()));
    assert!(seen_plays > 100 && seen_cubes > 20);
    // Every play made is among its decision's candidates, with the best few.
    for d in &plays {
        assert!(d.candidates.len() <= CANDIDATES + 1);
        assert_eq!(d.candidates[d.played_candidate.unwrap()].play.notation(), d.played);
    }
}
