"""The command line, run as users run it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gammon import Bot, CubeContext, Match, Position
from gammon.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gammon", *args], capture_output=True, text=True, timeout=60)


def test_plays_json_lists_every_legal_play():
    out = run("plays", "4HPwATDgc/ABMA", "65", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["dice"] == [6, 5]
    assert len(data["plays"]) == 7
    (run13,) = [p for p in data["plays"] if p["play"] == "24/13"]
    assert run13["moves"] in ([[24, 18], [18, 13]], [[24, 19], [19, 13]])


def test_plays_default_is_the_opening(capsys):
    assert main(["plays"]) == 0
    text = capsys.readouterr().out
    assert "16 legal plays of 31" in text and "8/5 6/5" in text


def test_bad_input_is_a_clear_error_not_a_traceback():
    out = run("plays", "not-an-id", "31")
    assert out.returncode == 2
    assert "gammon: error:" in out.stderr and "Traceback" not in out.stderr
    out = run("plays", "opening", "71")
    assert out.returncode == 2 and "dice" in out.stderr


def test_help_everywhere():
    for command in ([], ["plays"], ["hint"], ["rollout"], ["play"], ["ubgi"], ["serve"]):
        assert run(*command, "--help").returncode == 0, command


def test_rollout_json():
    out = run("rollout", "--trials", "72", "--seed", "1", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["trials"] == 72 and 0 <= data["win"] <= 1
    assert "equity" in data and "std_error" in data


def test_rollout_table_and_plays():
    out = run("rollout", "4HPwATDgc/ABMA", "--trials", "36", "--policy", "pubeval")
    assert out.returncode == 0, out.stderr
    assert "equity" in out.stdout and "36 trials" in out.stdout
    out = run("rollout", "--plays", "65", "--trials", "36", "--json")
    assert out.returncode == 0, out.stderr
    assert len(json.loads(out.stdout)["plays"]) == 7
    out = run("rollout", "--policy", "bad")
    assert out.returncode == 2 and "policy" in out.stderr


# ----- gammon hint -----


def hint_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["hint", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_hint_ranks_every_play_as_the_bot_does(capsys):
    data = hint_json(capsys, "4HPwATDgc/ABMA", "31")
    ranked = Bot(ply=0).rank_plays(Position.initial(), 3, 1)
    assert data["dice"] == [3, 1] and data["ply"] == 0
    assert [p["play"] for p in data["plays"]] == [str(r.play) for r in ranked]
    assert [p["rank"] for p in data["plays"]] == list(range(1, len(ranked) + 1))
    best = ranked[0].equity
    for entry, r in zip(data["plays"], ranked, strict=True):
        assert entry["equity"] == pytest.approx(r.equity)
        assert entry["difference"] == pytest.approx(r.equity - best)
        assert entry["probabilities"]["win"] == pytest.approx(r.probabilities.win)
        assert entry["probabilities"]["lose_gammon"] == pytest.approx(r.probabilities.lose_gammon)
    assert data["plays"][0]["play"] == "8/5 6/5"  # every book's opening 3-1
    # The dice in any usual spelling, and the ply.
    assert hint_json(capsys, "4HPwATDgc/ABMA", "3", "1")["plays"] == data["plays"]
    deeper = hint_json(capsys, "4HPwATDgc/ABMA", "3-1", "--ply", "1", "--top", "3")
    assert deeper["ply"] == 1 and len(deeper["plays"]) == 3
    expected = Bot(ply=1).rank_plays(Position.initial(), 3, 1)[:3]
    assert [p["equity"] for p in deeper["plays"]] == pytest.approx([r.equity for r in expected])


def test_hint_uses_the_dice_rolled_in_the_id(capsys):
    # A money game's Match ID with 5-5 rolled in the starting position.
    data = hint_json(capsys, "4HPwATDgc/ABMA:cIkWAAAAAAAA")
    assert data["dice"] == [5, 5]
    assert data["plays"][0]["play"] == str(Bot().best_play(Position.initial(), 5, 5))
    # Dice on the command line replace them.
    assert hint_json(capsys, "4HPwATDgc/ABMA:cIkWAAAAAAAA", "21")["dice"] == [2, 1]


def test_hint_ranks_at_the_ids_score(capsys):
    # Double match point (4-4 in a 5-point match): a gammon costs no more than a loss, so the bot,
    # far behind, stays back for a shot (24/21 10/6) where for money it runs a back checker out to
    # save the gammon (24/17).
    position = Position.from_id("+hkAAPwGCAj4AA")
    board = position.xgid.split(":")[0]
    xgid = f"{board}:0:0:1:43:4:4:0:5:10"
    ctx = CubeContext.from_game(Match.from_xgid(xgid).game)
    data = hint_json(capsys, xgid)
    assert data["cubeful"] is True and data["dice"] == [4, 3]
    ranked = Bot().rank_plays(position, 4, 3, context=ctx)
    assert [p["play"] for p in data["plays"]] == [str(r.play) for r in ranked]
    assert [p["equity"] for p in data["plays"]] == pytest.approx([r.equity for r in ranked])
    money = hint_json(capsys, position.id, "43")
    assert money["cubeful"] is False and money["plays"][0]["play"] != data["plays"][0]["play"]


def test_hint_without_dice_gives_the_cube_decision(capsys):
    bot = Bot()
    race = "-EBBCC-------------cccbbb-"  # a race, 42 pips against 57, the bottom player on roll
    cases = [
        ("4HPwATDgc/ABMA", bot.cube_action(Position.initial(), CubeContext.money())),
        *(
            (f"XGID={race}:{fields}:10", bot.cube_action(Match.from_xgid(f"XGID={race}:{fields}:10").game))
            for fields in ("0:0:1:00:0:0:0:0", "0:0:1:00:2:4:1:5", "0:0:1:00:2:4:0:5", "0:0:1:00:3:1:0:5")
        ),
    ]
    for text, action in cases:
        cube = hint_json(capsys, text)["cube"]
        assert cube["label"] == action.label and cube["double"] == action.double, text
        assert cube["take"] == action.take and cube["may_double"] == action.may_double
        for name in ("no_double", "double_take", "double_pass", "equity"):
            assert cube[name] == pytest.approx(getattr(action, name))
    assert {c[1].double for c in cases} == {True, False}
    # The Crawford game: the cube is out of play whatever the position.
    assert hint_json(capsys, f"XGID={race}:0:0:1:00:2:4:1:5:10")["cube"]["may_double"] is False
    out = run("hint", f"XGID={race}:0:0:1:00:0:0:0:0:10", "--ply", "1")
    assert out.returncode == 0, out.stderr
    label = Bot(ply=1).cube_action(Match.from_xgid(f"XGID={race}:0:0:1:00:0:0:0:0:10").game).label
    assert f"by the bot at 1-ply: {label}" in out.stdout
    assert "No double" in out.stdout and "Double, take" in out.stdout and "Double, pass" in out.stdout


def test_hint_table_and_errors():
    out = run("hint", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert out.returncode == 0, out.stderr
    assert "Plays of 5-2" in out.stdout and "Best play: win" in out.stdout and "money game" in out.stdout
    assert run("hint", "--help").returncode == 0
    for bad in (["nonsense", "31"], ["4HPwATDgc/ABMA", "71"], ["4HPwATDgc/ABMA", "31", "--top", "-1"]):
        out = run("hint", *bad)
        assert out.returncode == 2 and "gammon: error:" in out.stderr and "Traceback" not in out.stderr
    assert run("hint", "4HPwATDgc/ABMA", "31", "--ply", "3").returncode == 2
