"""gammon.battlegammon.rollout and the Battlegammon command line (rollout and play)."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

import gammon
import gammon.battlegammon as bg
from gammon import GammonError
from gammon.battlegammon import Position, RolloutResult, rollout
from gammon.cli import main


def every_roll_wins() -> Position:
    """White to move, two tokens home and free ones 2..6 fields from the goal (18..22), and 7 on
    Black's colour counting the goal: a die of 2 or more brings the third token home, a 1 takes
    12/13 across as the eighth. Every roll wins."""
    fields = [""] * 24
    for field in (2, 3, 12, 18, 19, 20, 21, 22):
        fields[field - 1] = "w"
    fields[23] = "b" * 10 + "ww"
    return Position.from_list(fields, "white")


def add_up(r: RolloutResult) -> None:
    assert r.win + r.lose + r.draw == pytest.approx(1.0)
    assert r.equity == pytest.approx(r.win - r.lose)
    assert all(-1e-12 <= x <= 1 + 1e-12 for x in (r.win, r.lose, r.draw))


def test_same_seed_same_result_at_any_thread_count():
    one = rollout(Position.initial(), trials=72, seed=3, threads=1, policy="greedy")
    two = rollout("initial", trials=72, seed=3, threads=2, policy="greedy")
    assert (one.win, one.lose, one.draw, one.equity) == (two.win, two.lose, two.draw, two.equity)
    assert (one.trials, one.seed, one.first_trial) == (72, 3, 0)
    assert one.seconds >= 0 and one.std_error > 0
    add_up(one)
    later = rollout("initial", trials=36, seed=3, policy="greedy", first_trial=36)
    assert later.first_trial == 36


def test_a_position_where_every_roll_wins_is_won():
    p = every_roll_wins()
    assert Position.from_id(p.id) == p
    for policy in ("greedy", "bot", "default"):
        r = rollout(p, trials=36, seed=1, policy=policy)
        assert (r.win, r.lose, r.draw, r.equity, r.std_error) == (1.0, 0.0, 0.0, 1.0, 0.0), policy


def test_the_turn_cap_gives_draws_and_rule_options_apply():
    r = rollout("initial", trials=36, seed=1, policy="random", turn_cap=1)
    assert (r.win, r.lose, r.draw, r.equity) == (0.0, 0.0, 1.0, 0.0)
    r = rollout("initial", trials=144, seed=1, policy="random", turn_cap=30)
    add_up(r)
    assert 0 < r.draw < 1
    with pytest.raises(GammonError, match="turn_cap"):
        rollout("initial", trials=1, turn_cap=0)
    with pytest.raises(GammonError, match="unknown rule option"):
        rollout("initial", trials=1, bogus=1)


def test_bad_arguments_are_refused():
    with pytest.raises(GammonError, match="policy"):
        rollout("initial", trials=1, policy="pubeval")
    with pytest.raises(GammonError, match="trials"):
        rollout("initial", trials=0)
    with pytest.raises(gammon.InvalidPositionError, match="ID"):
        rollout("not an id", trials=1)


def test_progress_reports_and_can_stop():
    seen: list[int] = []

    def stop(r: RolloutResult) -> bool:
        seen.append(r.trials)
        return False

    r = rollout("initial", trials=50_000, seed=2, policy="random", progress=stop, threads=1)
    assert r.cancelled and seen and r.trials < 50_000
    add_up(r)


# ----- the command line -----


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "gammon", *args]
    return subprocess.run(command, input=stdin, capture_output=True, text=True, timeout=120)


def test_cli_rollout_json_and_table(capsys):
    assert main(["rollout", "--game", "battlegammon", "--trials", "36", "--policy", "greedy", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "battlegammon" and data["trials"] == 36
    assert data["position"] == Position.initial().id
    assert data["win"] + data["lose"] + data["draw"] == pytest.approx(1.0)
    p = every_roll_wins()
    assert main(["rollout", "--game", "battlegammon", p.id, "--trials", "36", "--rule", "turn_cap=50"]) == 0
    out = capsys.readouterr().out
    assert "Battlegammon rollout" in out and "36 trials" in out and "+1.0000" in out


def test_cli_rollout_errors_are_messages(capsys):
    assert main(["rollout", "--game", "battlegammon", "nonsense"]) == 2
    assert main(["rollout", "--game", "battlegammon", "--truncate", "5"]) == 2
    assert main(["rollout", "--game", "battlegammon", "--rule", "turn_cap"]) == 2
    assert main(["rollout", "--game", "battlegammon", "--policy", "pubeval", "--trials", "1"]) == 2
    err = capsys.readouterr().err
    assert "gammon: error:" in err and "truncate" in err and "NAME=INTEGER" in err and "policy" in err


class Player:
    """Answers each play prompt from a script, then with the first listed play."""

    def __init__(self, answers: list[str]):
        self.answers = answers
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        assert prompt.startswith("your play"), prompt
        return self.answers.pop(0) if self.answers else "1"


def test_play_a_whole_game_against_the_bot(monkeypatch, capsys):
    player = Player(["?", "0", "99", "16/", "a/b", "24/1 2/3", "16/12 xx", ""])
    monkeypatch.setattr("builtins.input", player)
    assert main(["play", "--game", "battlegammon", "--seed", "11", "--rule", "turn_cap=400"]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "Black to move" in out  # the board, drawn with str(position)
    assert "   1. " in out  # "?" listed the plays
    assert "choose a play from 1 to" in out
    assert "is not a move" in out  # "16/", "a/b", "xx"
    assert "is not a legal play" in out  # "24/1 2/3"
    assert "You play" in out and "The bot rolls" in out
    assert "You win: " in out or "The bot wins: " in out or "The game is drawn" in out  # and why


def test_play_typed_moves(monkeypatch, capsys):
    # Seed 11's first roll, as the game throws it, played by typing its first listed play.
    from gammon.battlegammon import Game

    game = Game(seed=11)
    first = str(game.position.legal_plays(*game.roll())[0])
    monkeypatch.setattr("builtins.input", Player([first, "quit"]))
    assert main(["play", "--game", "battlegammon", "--seed", "11"]) == 1
    out = capsys.readouterr().out
    assert f"You play {first}." in out and "Stopped: you quit." in out


def test_play_battlegammon_through_a_subprocess():
    out = run("play", "--game", "battlegammon", "--seed", "4", stdin="nonsense\n1\n")
    assert out.returncode == 1, out.stderr
    assert "Traceback" not in out.stderr and "the input ended" in out.stdout
    assert "is not a move" in out.stdout and "You play" in out.stdout
    bad = run("play", "--game", "battlegammon", "--rule", "turn_cap=0")
    assert bad.returncode == 2 and "turn_cap" in bad.stderr and "Traceback" not in bad.stderr


def test_parts_merge_exactly_and_survive_pickling() -> None:
    whole = bg.rollout("initial", trials=72, seed=5, policy="greedy")
    parts = [bg.rollout("initial", trials=36, seed=5, policy="greedy", first_trial=k) for k in (36, 0)]
    shipped = [pickle.loads(pickle.dumps(p)) for p in parts]
    merged = bg.merge_rollouts(shipped)
    assert (merged.trials, merged.first_trial) == (72, 0)
    assert (merged.win, merged.lose, merged.draw, merged.equity) == (
        whole.win,
        whole.lose,
        whole.draw,
        whole.equity,
    )
    assert merged.std_error == whole.std_error


def test_parts_under_other_rules_do_not_merge() -> None:
    a = bg.rollout("initial", trials=36, seed=5, policy="greedy")
    b = bg.rollout("initial", trials=36, seed=5, policy="greedy", first_trial=36, turn_cap=60)
    assert "turn_cap: 60" in b.setup and a.setup != b.setup
    with pytest.raises(gammon.GammonError, match="setups"):
        bg.merge_rollouts([a, b])
    with pytest.raises(gammon.GammonError):
        bg.merge_rollouts([])
