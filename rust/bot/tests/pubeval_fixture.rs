//! Pubeval's choices agree with GNU Backgammon's copy of Tesauro's evaluator on the positions of
//! `tests/fixtures/pubeval_choices.csv` (made by `scripts/oracle/gen_pubeval_choices.py`).

use gammon_backgammon::{Dice, Position};
use gammon_bot::pubeval::{score, Phase};
use gammon_bot::PubevalPolicy;

#[test]
fn pubeval_chooses_as_gnubg_does() {
    let path = format!("{}/../../tests/fixtures/pubeval_choices.csv", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("position_id,d1,d2,choice"));
    let (mut rows, mut ties) = (0, 0);
    let mut failures = Vec::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let cols: Vec<&str> = line.split(',').collect();
        let position = Position::from_id(cols[0]).unwrap();
        let dice = Dice::new(cols[1].parse().unwrap(), cols[2].parse().unwrap()).unwrap();
        let plays = position.legal_plays(dice);
        let ours = plays[PubevalPolicy::best(&position, &plays)];
        rows += 1;
        if ours.position.id() == cols[3] {
            continue;
        }
        // A different play is acceptable only if pubeval scores both the same: gnubg breaks
        // ties its own way (and in single precision).
        let phase = Phase::of(&position);
        let theirs = plays.iter().find(|p| p.position.id() == cols[3]).expect("gnubg's play is legal");
        let (a, b) = (score(&ours.position, phase), score(&theirs.position, phase));
        if (a - b).abs() <= 1e-5 * a.abs().max(1.0) {
            ties += 1;
        } else {
            failures.push(format!(
                "{} {}: ours {} ({a}), gnubg {} ({b})",
                cols[0],
                dice.to_text(),
                ours,
                theirs
            ));
        }
    }
    assert!(rows >= 3000);
    assert!(failures.is_empty(), "{} of {rows} differ:\n{}", failures.len(), failures.join("\n"));
    assert!(ties * 100 < rows, "{ties} ties of {rows}");
}
