"""The command line, run as users run it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from gammon import Bot, CubeContext, Game, Match, Position
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
    for entry, r in zip(data["plays"], ranked):
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


# ----- gammon play -----


class Player:
    """A scripted player at the terminal: answers each prompt by its kind."""

    def __init__(
        self,
        at_roll: list[str],
        at_play: list[str],
        then_roll: str = "",
        then_play: str = "1",
        at_cube: list[str] | None = None,
    ):
        self.at_roll, self.at_play, self.at_cube = at_roll, at_play, at_cube or []
        self.then_roll, self.then_play = then_roll, then_play
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if prompt.startswith("your play"):
            return self.at_play.pop(0) if self.at_play else self.then_play
        if prompt.startswith("take"):
            return self.at_cube.pop(0) if self.at_cube else "take"
        assert prompt.startswith("roll, "), prompt
        return self.at_roll.pop(0) if self.at_roll else self.then_roll


def check_the_bots_decisions(game: Game, ply: int = 0) -> dict[str, int]:
    """Replays a game's record and checks every decision of player 1 against the bot's own in that
    state: its plays, its doubles (and its rolls without doubling), its answers to player 0's
    doubles. Returns how many of each were checked."""
    bot, checked = Bot(ply=ply), {"plays": 0, "doubles": 0, "no_doubles": 0, "answers": 0}
    replay = Game(jacoby=game.jacoby, beavers=game.beavers)
    history = game.history
    for i, action in enumerate(history):
        if action.kind == "roll" and action.player == 1 and replay.may_double:
            assert not bot.cube_action(replay).double, replay.gnubg_id
            checked["no_doubles"] += 1
        if action.kind == "double" and action.player == 1:
            assert bot.cube_action(replay).double, replay.gnubg_id
            checked["doubles"] += 1
        if action.kind == "double" and action.player == 0:
            verdict = bot.cube_action(replay)
            expected = "beaver" if verdict.beaver else "take" if verdict.take else "drop"
            assert history[i + 1].kind == expected and history[i + 1].player == 1, replay.gnubg_id
            checked["answers"] += 1
        if action.kind in ("opening_roll", "roll"):
            replay.roll(action.dice)
        elif action.kind == "play":
            if action.player == 1:
                assert replay.dice is not None
                best = bot.best_play(replay.position, *replay.dice, context=CubeContext.from_game(replay))
                assert action.play == best, replay.gnubg_id
                checked["plays"] += 1
            replay.play(action.play)
        elif action.kind in ("double", "take", "drop", "beaver"):
            getattr(replay, action.kind)()
    return checked


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
    # The opponent is the bot: every decision of player 1 is the one Bot(ply=0) makes.
    checked = check_the_bots_decisions(game)
    assert checked["plays"] > 5 and checked["answers"] >= 1 and checked["no_doubles"] >= 1
    # Errors at the play prompt are re-prompted with the rules' message.
    assert "is not a legal play" in out or "cannot" in out


def test_the_bot_doubles_and_you_answer(monkeypatch, capsys, tmp_path):
    # You play the first listed play every time, so the bot soon doubles; you drop.
    monkeypatch.setattr("builtins.input", Player([], [], at_cube=["maybe", "drop"]))
    record = tmp_path / "drop.mat"
    assert main(["play", "--seed", "0", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "gammon doubles to 2." in out and "type take or drop" in out and "You drop." in out
    game = Match.from_mat(record.read_text()).game
    assert (game.end_reason, game.winner, game.points) == ("dropped", 1, 1)
    assert check_the_bots_decisions(game)["doubles"] == 1


@pytest.mark.parametrize("you_double", [True, False])
def test_beavers_in_a_money_game_with_beavers_on(monkeypatch, capsys, you_double):
    from gammon.cli.play import Session

    # A double at your first roll is far too early: by the bot's verdict it is the favourite after
    # taking, so it beavers, and you take. Otherwise the bot doubles later and you beaver; it takes.
    if you_double:
        player = Player(["double"], [], at_cube=["take"])
    else:
        player = Player([], [], at_cube=["beaver"])
    monkeypatch.setattr("builtins.input", player)
    match = Match(0, seed=0, beavers=True)
    Session(match, Bot()).run()
    out = capsys.readouterr().out
    game = match.game
    cube = [(a.kind, a.player) for a in game.history if a.kind in ("double", "take", "drop", "beaver")]
    if you_double:
        assert cube[:3] == [("double", 0), ("beaver", 1), ("take", 0)]
        assert "gammon beavers: the cube is at 4 if you take." in out and "You take" in out
    else:
        assert cube == [("double", 1), ("beaver", 0), ("take", 1)]
        assert "You beaver; gammon takes: the cube is at 4, yours." in out
    checked = check_the_bots_decisions(game)
    assert checked["answers"] == int(you_double) and checked["doubles"] >= 1
    assert game.is_over and game.points % 4 == 0


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
    assert run("play", "--ply", "3").returncode == 2
    assert run("play", "--game", "battlegammon", "--ply", "1").returncode == 2


def test_play_with_a_deeper_bot(tmp_path):
    record = tmp_path / "deeper.mat"
    command = [sys.executable, "-m", "gammon", "play", "--ply", "1", "--seed", "4", "--save", str(record)]
    # Roll and pick the first listed play a few times, then resign (at the roll prompt: a resign
    # typed at the play prompt is refused, so the next play and resign cover that case).
    answers = "\n1\n" * 4 + "resign\n1\nresign\n"
    out = subprocess.run(command, input=answers, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "against the bot at 1-ply" in out.stdout
    game = Match.from_mat(record.read_text()).game
    assert game.end_reason == "resigned" and check_the_bots_decisions(game, ply=1)["plays"] >= 1
