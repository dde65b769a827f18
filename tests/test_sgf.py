"""GNU Backgammon's .sgf match files from Python and the command line: reading, writing, the
analysis written in them, and the files GNU Backgammon made of ours and of the corpus."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from gammon import GammonError, Match, analyse
from gammon.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
GNUBG = FIXTURES / "sgf-gnubg"


def read(path: Path) -> str:
    """UTF-8, or else Latin-1, as the corpus test reads the files."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def assert_same_games(a: Match, b: Match) -> None:
    assert len(a.games) == len(b.games)
    for x, y in zip(a.games, b.games, strict=True):
        assert x.history == y.history
        assert (x.winner, x.points) == (y.winner, y.points)
    assert a.score == b.score


def test_gnubgs_sgf_reads_to_the_match_of_its_mat_file():
    # noisy_7pt_c.sgf is GNU Backgammon 1.07's `save match` after `import mat` of the .mat.
    analysis = FIXTURES / "analysis"
    from_sgf = Match.from_sgf((analysis / "noisy_7pt_c.sgf").read_text())
    from_mat = Match.from_mat((analysis / "noisy_7pt_c.mat").read_text())
    assert from_sgf.names == from_mat.names
    assert_same_games(from_sgf, from_mat)


def test_to_sgf_round_trips_a_match_in_progress():
    m = Match(5, seed=3)
    m.names = ("Ann ]x[", "Bob \\ y")
    g = m.game
    g.roll()
    g.play(g.legal_plays()[0])
    g.double()
    g.take()
    g.roll()
    text = m.to_sgf()
    assert text.startswith("(;FF[4]GM[6]") and "MI[length:5][game:0][ws:0][bs:0]" in text
    assert "PW[Ann \\]x[]" in text and "RU[Crawford]" in text
    back = Match.from_sgf(text)
    assert back.names == m.names
    assert_same_games(back, m)
    assert back.game.dice == m.game.dice


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "no game tree"),
        ("(;FF[4]GM[1])", "GM[6]"),
        ("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]\n;W[77ab])", "line 2"),
        ("(;GM[6]MI[length:1][game:0][ws:0][bs:0];W[31h\u00e9fe])", "point letter"),
        ("(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]RE[W+9R]\n;W[31hefe])", "RE"),
    ],
)
def test_bad_files_raise_naming_what_is_wrong(text, words):
    with pytest.raises(GammonError, match=re.escape(words)):
        Match.from_sgf(text)


@pytest.fixture(scope="module")
def noisy():
    m = Match.from_mat((FIXTURES / "analysis" / "noisy_7pt_c.mat").read_text())
    return m, analyse(m)


def test_the_analysis_sgf_holds_its_marks_and_luck(noisy):
    m, a = noisy
    text = a.to_sgf()
    assert_same_games(Match.from_sgf(text), m)
    marked = {mark: sum(d.mark == mark for d in a.decisions) for mark in ("doubtful", "bad", "very bad")}
    assert text.count("DO[]") + text.count("DC[]") == marked["doubtful"]
    assert text.count("BM[1]") + text.count("BC[1]") == marked["bad"]
    assert text.count("BM[2]") + text.count("BC[2]") == marked["very bad"]
    assert text.count("LU[") == sum(d.luck is not None for d in a.decisions)
    lucky = sum(d.luck_mark in ("lucky", "unlucky") for d in a.decisions)
    assert text.count("GB[1]") + text.count("GW[1]") == lucky


def test_luck_marks_counts_and_the_luck_adjusted_result(noisy):
    _, a = noisy
    for k, p in enumerate(a.players):
        mine = [d for d in a.decisions if d.player == k and d.luck is not None]
        for mark, count in (
            ("very lucky", p.very_lucky),
            ("lucky", p.lucky),
            ("unlucky", p.unlucky),
            ("very unlucky", p.very_unlucky),
        ):
            assert count == sum(d.luck_mark == mark for d in mine)
        # GNU Backgammon's marks: lucky above +0.3, very lucky above +0.6 (its `show analysis`).
        for d in mine:
            assert (d.luck_mark in ("lucky", "very lucky")) == (d.luck > 0.3)
            assert (d.luck_mark in ("unlucky", "very unlucky")) == (d.luck < -0.3)
        plays = sum(d.player == k and d.kind == "checker" for d in a.decisions)
        assert p.luck_rate == pytest.approx(p.luck / plays)
        assert p.luck_rating in {"Go to Las Vegas", "Good dice, man!", "None", "Bad dice, man!", "Go to bed"}
    p0, p1 = a.players
    # A finished match: the winner gained half a match from 0-0.
    assert sorted([p0.result, p1.result]) == pytest.approx([-0.5, 0.5])
    assert p0.luck_adjusted_result == pytest.approx(-p1.luck_adjusted_result)
    data = json.loads(a.to_json())
    assert {"luck_rating", "very_lucky", "lucky", "unlucky", "very_unlucky", "luck_adjusted_result"} <= set(
        data["players"][0]
    )
    assert "luck_mark" in data["decisions"][0]


def test_command_line_reads_sgf_and_writes_the_marked_sgf(tmp_path, capsys, noisy):
    m, a = noisy
    source = tmp_path / "match.txt"  # no .sgf extension: told by its content
    source.write_text(m.to_sgf())
    out = tmp_path / "marked.sgf"
    assert main(["analyse", str(source), "--sgf", str(out)]) == 0
    text = capsys.readouterr().out
    assert "luck-adjusted" in text and "annotated match written" in text
    assert out.read_text() == a.to_sgf()
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]\n;W[77ab])")
    assert main(["analyse", str(bad)]) == 2
    assert "bad.sgf" in capsys.readouterr().err


def test_gnubg_reads_our_sgf_and_we_read_gnubgs():
    """tests/fixtures/sgf-gnubg/ is tools/analysis/sgf_gnubg.py's output with GNU Backgammon 1.07:
    for every corpus match, gnubg's .mat export of our .sgf and our reading of gnubg's .sgf."""
    with (GNUBG / "results.tsv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert len(rows) >= 50
    # gnubg's .sgf has no node for a roll left unplayed before a resignation.
    unplayed = "same but for the roll left unplayed before a resignation"
    for row in rows:
        assert row["ours_through_gnubg"] == "same", row
        assert row["gnubgs_sgf_read"] in ("same", unplayed), row
    assert sum(row["gnubgs_sgf_read"] == "same" for row in rows) >= 0.9 * len(rows)
    stems = sorted(p.name[: -len(".ours.sgf")] for p in GNUBG.glob("*.ours.sgf"))
    assert len(stems) >= 4
    corpus = FIXTURES / "mat-corpus"
    for stem in stems:
        producer, rest = stem.split("_", 1)
        original = next(p for p in (corpus / producer).iterdir() if p.stem == rest)
        m = Match.from_mat(read(original))
        ours = (GNUBG / f"{stem}.ours.sgf").read_text(encoding="utf-8")
        assert ours == m.to_sgf()
        assert_same_games(Match.from_mat(read(GNUBG / f"{stem}.gnubg.mat")), m)
        theirs = Match.from_sgf(read(GNUBG / f"{stem}.gnubg.sgf"))
        if (
            rows[[r["file"] for r in rows].index(original.relative_to(corpus).as_posix())]["gnubgs_sgf_read"]
            == "same"
        ):
            assert_same_games(theirs, m)
        else:
            assert len(theirs.games) == len(m.games) and theirs.score == m.score
