"""``gammon play`` (gammon.cli.play and gammon.cli.play_battlegammon): scripted players answering
the prompts of a Session, and a player typing at a pseudo-terminal."""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from gammon import Bot, CubeContext, Game, Match, Position
from gammon.battlegammon import Position as BattlegammonPosition
from gammon.cli import main
from gammon.cli.play import PlayList, Session
from gammon.cli.play_battlegammon import Session as BattlegammonSession


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gammon", *args], capture_output=True, text=True, timeout=60)


class Player:
    """A scripted player at the terminal: answers each prompt by its kind."""

    def __init__(
        self,
        at_roll: list[str],
        at_play: list[str],
        then_roll: str = "",
        then_play: str = "1",
        at_cube: list[str] | None = None,
        at_save: str = "",
    ):
        self.at_roll, self.at_play, self.at_cube = at_roll, at_play, at_cube or []
        self.then_roll, self.then_play, self.at_save = then_roll, then_play, at_save
        self.prompts: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if prompt.startswith("your play"):
            return self.at_play.pop(0) if self.at_play else self.then_play
        if prompt.startswith("take"):
            return self.at_cube.pop(0) if self.at_cube else "take"
        if prompt.startswith("Save the match"):
            return self.at_save
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


# ----- whole games through main() -----


def test_play_a_whole_money_game(monkeypatch, capsys, tmp_path):
    at_play = ["13/11 bad", "13/11", "?", "0"]
    player = Player(at_roll=["hello", "double"], at_play=at_play, then_roll="resign gammon")
    monkeypatch.setattr("builtins.input", player)
    record = tmp_path / "game.mat"
    assert main(["play", "--seed", "17", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    assert "X (on roll)" in out  # the board is drawn
    assert "type roll, double, hint, resign, help or quit; help explains them" in out  # "hello"
    assert "The bot takes" in out or "The bot drops" in out
    assert " 1. " in out  # "?" lists the legal plays
    assert "choose a play from 1 to" in out
    assert any(p.startswith("your play") for p in player.prompts) and "You play" in out
    m = Match.from_mat(record.read_text())
    game = m.game
    assert game.is_over and len(m.games) == 1
    assert m.names == ("You", "The bot")
    assert Session(m, Bot()).result(game) in out
    # The human's double is in the record, answered by the opponent.
    kinds = [a.kind for a in game.history]
    assert "double" in kinds and ("take" in kinds or "drop" in kinds)
    # The opponent is the bot: every decision of player 1 is the one Bot(ply=0) makes.
    checked = check_the_bots_decisions(game)
    assert checked["plays"] >= 1 and checked["answers"] >= 1
    # Errors at the play prompt are re-prompted with the rules' message.
    assert '"bad" in "13/11 bad" is not a move' in out and '"13/11" cannot be played with 53' in out


def test_the_bot_doubles_and_you_answer(monkeypatch, capsys, tmp_path):
    # You play the first listed play every time, so the bot soon doubles; you ask, then drop.
    monkeypatch.setattr("builtins.input", Player([], [], at_cube=["maybe", "?", "help", "hint", "drop"]))
    record = tmp_path / "drop.mat"
    assert main(["play", "--seed", "0", "--save", str(record)]) == 0
    out = capsys.readouterr().out
    assert "The bot doubles to 2." in out and "type take or drop; help lists every command" in out
    assert "type take or drop; or hint, resign [single|gammon|backgammon], help, quit" in out  # ?
    assert "lose the game at the cube as it was" in out  # help
    # hint: the doubler's cube decision, as gammon hint gives it, and the answer it implies for you
    # (you drop all the same).
    verdict = re.search(r"Cube decision of the player on roll, by the bot at 0-ply: (.+)", out)
    assert verdict is not None and verdict.group(1).startswith("Double")
    answer = "drop" if verdict.group(1).endswith("pass") else "take"
    assert f"The bot's answer for you: {answer}." in out
    assert "You drop." in out and "The bot wins a single game: 1 point (you dropped the double)." in out
    game = Match.from_mat(record.read_text()).game
    assert (game.end_reason, game.winner, game.points) == ("dropped", 1, 1)
    assert check_the_bots_decisions(game)["doubles"] == 1


@pytest.mark.parametrize("you_double", [True, False])
def test_beavers_in_a_money_game_with_beavers_on(monkeypatch, capsys, you_double):
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
        assert "The bot beavers: the cube is at 4 if you take." in out and "You take" in out
    else:
        assert cube == [("double", 1), ("beaver", 0), ("take", 1)]
        assert "You beaver; the bot takes: the cube is at 4, yours." in out
    checked = check_the_bots_decisions(game)
    assert checked["answers"] == int(you_double) and checked["doubles"] >= 1
    assert game.is_over and game.points % 4 == 0


def test_play_a_three_point_match_by_resigning(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("builtins.input", Player([], [], then_roll="resign gammon"))
    record = tmp_path / "match.mat"
    assert main(["play", "--match", "3", "--seed", "5", "--save", str(record), "--bot-name", "Bob"]) == 0
    out = capsys.readouterr().out
    # A resigned gammon is 2 points: 0-2, then the Crawford game, then 0-3 and the match is over.
    assert "This is the Crawford game" in out
    assert "Bob wins a gammon: 2 points (you resigned)." in out
    assert "Score: you 0, Bob 2 (match to 3)." in out and "Bob wins the match 3-0." in out
    m = Match.from_mat(record.read_text())
    assert (m.score, m.winner, len(m.games), m.names) == ((0, 3), 1, 2, ("You", "Bob"))


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
    assert "X (on roll)" in out.stdout and "The bot wins the match 1-0." in out.stdout
    m = Match.from_mat(record.read_text())
    assert (m.score, m.is_over, m.game.end_reason) == ((0, 1), True, "resigned")
    assert run("play", "--match", "-2").returncode == 2
    assert run("play", "--ply", "3").returncode == 2
    assert run("play", "--game", "battlegammon", "--ply", "1").returncode == 2


def test_play_with_a_deeper_bot(monkeypatch, capsys, tmp_path):
    # Roll and pick the first listed play a few times, then resign at the roll prompt.
    monkeypatch.setattr("builtins.input", Player(["", "", "", ""], [], then_roll="resign"))
    record = tmp_path / "deeper.mat"
    assert main(["play", "--ply", "1", "--seed", "4", "--save", str(record)]) == 0
    assert "against the bot at 1-ply" in capsys.readouterr().out
    game = Match.from_mat(record.read_text()).game
    assert game.end_reason == "resigned" and check_the_bots_decisions(game, ply=1)["plays"] >= 1


# ----- the record: saved only where asked -----


@pytest.mark.parametrize("answer", ["", "n", "y", "mine.mat"])
def test_the_record_is_saved_only_when_asked(monkeypatch, capsys, tmp_path, answer):
    monkeypatch.chdir(tmp_path)
    player = Player([], [], then_roll="resign", at_save=answer)
    monkeypatch.setattr("builtins.input", player)
    assert main(["play", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert player.prompts[-1].startswith("Save the match as a .mat record?")
    saved = list(tmp_path.iterdir())
    if answer in ("", "n"):
        assert saved == [] and "Not saved." in out
    else:
        (path,) = saved
        expected = "mine.mat" if answer == "mine.mat" else r"gammon-[-\d]+\.mat"
        assert re.fullmatch(expected, path.name)
        assert f"Saved the match to {path.name}." in out
        assert Match.from_mat(path.read_text()).game.end_reason == "resigned"


def test_nothing_is_saved_when_the_input_ends_without_save(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "gammon", "play", "--seed", "2"],
        input="",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert out.returncode == 1 and "Not saved." in out.stdout and list(tmp_path.iterdir()) == []


# ----- the session's commands, prompt by prompt -----


def session(seed: int, answers: list[str], monkeypatch) -> tuple[Session, list[str]]:
    """A money session whose input is ``answers`` in order (a Quit when they run out), and the
    prompts it asked."""
    prompts: list[str] = []

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        if not answers:
            raise EOFError
        return answers.pop(0)

    monkeypatch.setattr("builtins.input", typed)
    return Session(Match(0, seed=seed), Bot()), prompts


def test_the_roll_prompt_answers_help_question_mark_hint_and_shows_the_ids(monkeypatch, capsys):
    s, prompts = session(17, ["help", "?", "hint", "quit"], monkeypatch)
    with pytest.raises(Exception, match="you quit"):
        s.run()
    out = capsys.readouterr().out
    game = s.match.game
    assert prompts[0] == "roll, double, hint, resign, help or quit? [roll] "
    assert f" Position ID: {game.position_id}  Match ID: {game.match_id}" in out
    assert "offer the bot the cube at 2" in out and "these commands" in out  # help
    assert "type roll, double, hint, resign [single|gammon|backgammon], help or quit" in out  # ?
    # hint: the cube decision of gammon hint for the game's IDs, from Bot.cube_action.
    action = Bot().cube_action(game)
    assert f"{game.gnubg_id}: money game, cube 1 centred" in out
    assert f"by the bot at 0-ply: {action.label}" in out and f"{action.no_double:+.4f}" in out


def test_the_play_prompt_hints_the_ranked_plays_and_lists_them_in_pages(monkeypatch, capsys):
    # Seed 17: the bot plays first, you roll 5-3 and play 24/16* after asking.
    s, prompts = session(17, ["", "?", "help", "hint", "24/16*", "quit"], monkeypatch)
    with pytest.raises(Exception, match="you quit"):
        s.run()
    out = capsys.readouterr().out
    assert any(p.startswith("your play (5-3; ? lists them, help)") for p in prompts)
    assert "13 legal plays:" in out and " 13. 24/16*" in out
    assert "the play numbered N by ?" in out  # help
    game = s.match.game
    played = next(a for a in game.history if a.kind == "play" and a.player == 0)
    assert str(played.play) == "24/16*" and "You play 24/16*." in out
    # hint ranks the plays by the bot's cubeful equity, as Bot.rank_plays does in this context.
    replay = Game(seed=17)
    replay.roll(game.history[0].dice)
    replay.play(game.history[1].play)
    replay.roll((5, 3))
    ranked = Bot().rank_plays(replay.position, 5, 3, context=CubeContext.from_game(replay))
    assert "Plays of 5-3, ranked by the bot at 0-ply" in out
    # The rest are listed by the play prompt's "?", not by an option of `gammon hint`.
    assert "(3 more plays; ? lists them all)" in out and "--top" not in out
    for r in ranked[:10]:
        assert re.search(rf"{re.escape(str(r.play))}\s*│ {re.escape(f'{r.equity:+.4f}')}", out), r.play
    assert f"You roll 5-3. Position ID: {replay.position_id}  Match ID: {replay.match_id}" in out


def test_resign_at_the_play_prompt_and_the_engines_refusal(monkeypatch, capsys):
    s, _ = session(17, ["", "resign twice", "resign backgammon"], monkeypatch)
    s.run()
    out = capsys.readouterr().out
    assert 'a resignation is "single", "gammon" or "backgammon"; got "twice"' in out
    game = s.match.game
    assert game.end_reason == "resigned"
    kinds = [(a.kind, a.player) for a in game.history[-3:]]
    assert kinds == [("roll", 0), ("resign", 0), ("accept_resignation", 1)]  # with the dice rolled
    assert "You resign a backgammon.\nThe bot accepts." in out
    assert "The bot wins a backgammon: 3 points (you resigned)." in out


def test_resign_when_the_bot_doubles(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", Player([], [], at_cube=["resign"]))
    match = Match(0, seed=0)
    Session(match, Bot()).run()
    out = capsys.readouterr().out
    assert "The bot doubles to 2." in out and "The bot wins a single game: 1 point (you resigned)." in out
    assert match.game.end_reason == "resigned" and match.game.points == 1


def test_the_bot_named_on_the_command_line(monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", Player([], [], then_roll="resign"))
    main(["play", "--seed", "17", "--bot-name", "gnu", "--save", os.devnull])
    out = capsys.readouterr().out
    assert "against gnu at 0-ply" in out and "Gnu rolls 4-1 and plays" in out and "Gnu wins a single" in out


# ----- the list of plays -----


def test_the_52_plays_of_4_4_fit_a_screen_in_columns(capsys):
    plays = Position.initial().legal_plays(4, 4)
    listing = PlayList(plays, columns=80)
    assert listing.answer("?") == (True, None)
    first = capsys.readouterr().out.splitlines()
    assert first[0] == "  52 legal plays:" and len(first) <= 1 + 15 + 1 and max(map(len, first)) <= 80
    assert first[-1] == "  (7 more: ? more lists them, ? all lists every play)"
    assert listing.answer("? more") == (True, None)
    rest = capsys.readouterr().out.splitlines()
    assert rest[0] == "  plays 46 on:" and f" 52. {plays[51]}" in "\n".join(rest)
    listing.answer("? more")
    assert "all 52 plays are listed" in capsys.readouterr().out
    listing.answer("? all")
    every = capsys.readouterr().out
    assert all(f"{i:3d}. {p}" in every for i, p in enumerate(plays, 1)) and "more" not in every
    assert listing.answer("52") == (True, plays[51])
    assert listing.answer("53") == (True, None) and "choose a play from 1 to 52" in capsys.readouterr().out
    assert listing.answer("13/9(2)") == (False, None)


# ----- Battlegammon -----


def battlegammon(seed: int, answers: list[str], monkeypatch, **rules: int) -> BattlegammonSession:
    """A Battlegammon session answering ``answers`` in order, then the first listed play."""
    monkeypatch.setattr("builtins.input", lambda prompt="": answers.pop(0) if answers else "1")
    return BattlegammonSession(seed, rules)


def test_battlegammon_help_hint_and_the_winning_condition(monkeypatch, capsys):
    s = battlegammon(3, ["help", "hint", "resign", "?"], monkeypatch)
    s.run()
    out = capsys.readouterr().out
    assert "the bot's ranking of the plays of your roll" in out  # help
    ranked = s.bot.rank_plays(BattlegammonPosition.initial(), 2, 1)
    assert "Plays of 2-1, ranked by the bot at 1-ply:" in out and f"1. {ranked[0][0]}" in out
    assert "Battlegammon has no resignation" in out and "12 legal plays:" in out
    assert " Position ID: b:" in out
    game = s.game
    assert game.winner is not None
    last = out.strip().splitlines()[-1]
    who = "You win" if game.winner == "black" else "The bot wins"
    condition = r"(three tokens on \w+'s start field|eight tokens on \w+'s colour)"
    assert re.fullmatch(rf"{who}: {condition}\.", last)


def test_battlegammon_draw_at_the_turn_cap(monkeypatch, capsys):
    s = battlegammon(3, [], monkeypatch, turn_cap=6)
    s.run()
    assert s.game.is_draw
    assert capsys.readouterr().out.strip().endswith("The game is drawn: it reached the turn cap of 6 turns.")


# ----- a player at a pseudo-terminal -----


class Terminal:
    """``gammon`` run on a pseudo-terminal of 80 by 24: what it writes is read until a pattern shows."""

    def __init__(self, *args: str, cwd: Path) -> None:
        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gammon", *args], stdin=slave, stdout=slave, stderr=slave, cwd=cwd, env=env
        )
        os.close(slave)
        self.text = ""

    def expect(self, pattern: str, timeout: float = 60) -> str:
        """Reads until ``pattern`` (a regular expression) shows; the text read up to its end."""
        deadline = time.monotonic() + timeout
        while not (found := re.search(pattern, self.text)):
            ready, _, _ = select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"{pattern!r} did not show; the terminal shows:\n{self.text[-3000:]}")
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the program ended and closed the terminal
                chunk = b""
            if not chunk:
                raise AssertionError(f"{pattern!r} did not show before the end:\n{self.text[-3000:]}")
            text = chunk.decode(errors="replace").replace("\r\n", "\n")
            self.text += re.sub(r"\x1b\[[0-9;]*m", "", text)  # without the colours of rich's tables
        said, self.text = self.text[: found.end()], self.text[found.end() :]
        return said

    def type(self, line: str) -> None:
        """Types ``line`` and Enter."""
        os.write(self.master, line.encode() + b"\r")

    def close(self) -> int:
        """Waits for the program to end (ends it if it still waits for input); its exit status."""
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        os.close(self.master)
        return status


def test_a_game_typed_at_a_terminal(tmp_path):
    term = Terminal("play", "--seed", "17", "--save", "game.mat", cwd=tmp_path)
    try:
        board = term.expect(r"\[roll\] ")
        assert "The bot rolls 4-1 and plays 24/23 13/9." in board
        assert re.search(r"Position ID: [A-Za-z0-9+/]{14}  Match ID: [A-Za-z0-9+/]{12}\n", board)
        term.type("help")
        assert "offer the bot the cube at 2" in term.expect(r"\[roll\] ")
        term.type("?")
        assert "type roll, double, hint, resign [single|gammon|backgammon], help or quit" in term.expect(
            r"\[roll\] "
        )
        term.type("hint")
        assert "Cube decision of the player on roll, by the bot at 0-ply" in term.expect(r"\[roll\] ")
        term.type("")
        assert "You roll 5-3. Position ID:" in term.expect(r"your play \(5-3; \? lists them, help\): ")
        term.type("?")
        listed = term.expect(r"your play \(5-3[^\n]*: ")
        assert "13 legal plays:" in listed and re.search(r"1\. 24/21 13/8 +5\. 24/21 8/3", listed)
        term.type("hint")
        hinted = term.expect(r"your play \(5-3[^\n]*: ")
        assert "Plays of 5-3, ranked by the bot at 0-ply" in hinted and "24/16*" in hinted
        term.type("help")
        assert "a play in standard notation" in term.expect(r"your play \(5-3[^\n]*: ")
        term.type("24/16*")
        assert "You play 24/16*." in term.expect(r"You play 24/16\*\.\n")
        term.expect(r"(\[roll\]|take or drop\?) ")
        term.type("resign")
        end = term.expect(r"Saved the match to game\.mat\.")
        assert "You resign a single game.\nThe bot accepts." in end
        assert "The bot wins a single game: 1 point (you resigned)." in end
    finally:
        status = term.close()
    assert status == 0
    game = Match.from_mat((tmp_path / "game.mat").read_text()).game
    yours = [str(a.play) for a in game.history if a.kind == "play" and a.player == 0]
    assert game.end_reason == "resigned" and yours[0] == "24/16*"
