"""The command line, run as users run it."""

from __future__ import annotations

import json
import subprocess
import sys

from gammon import Match
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
    assert run("--help").returncode == 0
    assert run("plays", "--help").returncode == 0


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


# ----- gammon play -----


class Player:
    """A scripted player at the terminal: answers each prompt by its kind."""

    def __init__(self, at_roll: list[str], at_play: list[str], then_roll: str = "", then_play: str = "1"):
        self.at_roll, self.at_play = at_roll, at_play
        self.then_roll, self.then_play = then_roll, then_play
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if prompt.startswith("your play"):
            return self.at_play.pop(0) if self.at_play else self.then_play
        assert prompt.startswith("roll, "), prompt
        return self.at_roll.pop(0) if self.at_roll else self.then_roll


def test_play_a_whole_money_game(monkeypatch, capsys, tmp_path):
    player = Player(at_roll=["hello", "double"], at_play=["13/11 bad", "?", "0", "bar/off", "resign"])
    monkeypatch.setattr("builtins.input", player)
    record = tmp_path / "game.mat"
    assert main(["play", "--seed", "17", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "X (on roll)" in out  # the board is drawn
    assert "type roll, double, resign" in out  # "hello" is answered with the choices
    assert "gammon takes" in out or "gammon drops" in out
    assert " 1. " in out  # "?" lists the legal plays
    assert "choose a play from 1 to" in out
    assert any(p.startswith("your play") for p in player.prompts) and "You play" in out
    assert "resign before you roll" in out
    m = Match.from_mat(record.read_text())
    game = m.game
    assert game.is_over and len(m.games) == 1
    assert m.names == ("You", "gammon")
    who = "You win" if game.winner == 0 else "gammon wins"
    assert f"{who} a {game.result_kind} game: {game.points} point" in out
    # The human's double is in the record, answered by the opponent.
    kinds = [a.kind for a in game.history]
    assert "double" in kinds and ("take" in kinds or "drop" in kinds)
    # Errors at the play prompt are re-prompted with the rules' message.
    assert "is not a legal play" in out or "cannot" in out


def test_play_a_three_point_match_by_resigning(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("builtins.input", Player([], [], then_roll="resign gammon"))
    record = tmp_path / "match.mat"
    assert main(["play", "--match", "3", "--seed", "5", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    # A resigned gammon is 2 points: 0-2, then the Crawford game, then 0-3 and the match is over.
    assert "This is the Crawford game" in out
    assert "gammon wins the match 3-0." in out
    m = Match.from_mat(record.read_text())
    assert (m.score, m.winner, len(m.games)) == ((0, 3), 1, 2)


def test_play_stops_cleanly_when_the_input_ends(tmp_path):
    record = tmp_path / "stopped.mat"
    out = subprocess.run(
        [sys.executable, "-m", "gammon", "play", "--seed", "2", "--save", str(record)],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and "the input ended" in out.stdout and "Traceback" not in out.stderr
    assert Match.from_mat(record.read_text()).length == 0


def test_play_through_a_subprocess(tmp_path):
    record = tmp_path / "one.mat"
    out = subprocess.run(
        [sys.executable, "-m", "gammon", "play", "--match", "1", "--seed", "8", "--save", str(record)],
        input="nonsense\n" + "resign\n" * 3,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "X (on roll)" in out.stdout and "gammon wins the match 1-0." in out.stdout
    m = Match.from_mat(record.read_text())
    assert (m.score, m.is_over, m.game.end_reason) == ((0, 1), True, "resigned")
    assert run("play", "--match", "-2").returncode == 2
