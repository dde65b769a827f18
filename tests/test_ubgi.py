"""``gammon ubgi`` driven as a controller drives it: a separate process, one line at a time.

Each answer is read before the next command is sent, so an answer left in a buffer (not flushed)
makes the test time out rather than pass. Expected plays come from ``Bot.best_play``, and the move
text is checked by replaying its steps on the board here, independently of the engine's notation.
"""

from __future__ import annotations

import queue
import random
import re
import subprocess
import sys
import threading

import pytest

from gammon import Bot, CubeContext, Match, Position

KEY_LINE = re.compile(
    r"key (?P<name>[a-z]+\.[a-z_.]+) (?P<kind>int (\*|-?\d+\.\.-?\d+)|enum [a-z0-9_|]+|bool|string \*) "
    r"(?P<default>\S+)(?P<minor> !)?( .+)?"
)
"""The ``key`` line of UBGI v0.2 section 4: name, type, default, then the optional ``!`` and text."""


class Controller:
    """A UBGI controller talking to ``python -m gammon ubgi``."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gammon", "ubgi"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self) -> str:
        line = self.lines.get(timeout=30)
        assert line is not None, "the engine stopped"
        return line

    def ask(self, line: str) -> str:
        """Sends a command that has a one-line answer and returns that answer."""
        self.send(line)
        return self.read()

    def until(self, last: str) -> list[str]:
        """The lines up to and including ``last``."""
        lines = [self.read()]
        while lines[-1] != last:
            lines.append(self.read())
        return lines

    def silent(self, line: str) -> None:
        """Sends a command that answers nothing, and checks that nothing (no error) came back."""
        self.send(line)
        assert self.ask("isready") == "readyok", line

    def close(self) -> int:
        self.send("quit")
        return self.process.wait(timeout=30)


@pytest.fixture
def engine():
    controller = Controller()
    yield controller
    if controller.process.poll() is None:
        controller.process.kill()
        controller.process.wait()


def replay(position: Position, dice: tuple[int, int], text: str) -> Position:
    """The position after the move text's steps, each moved by hand on the board list."""
    board = position.to_list()
    if text == "pass":
        return position
    pips = []
    for step in text.split():
        a, b = step.split("/")
        start = 25 if a == "bar" else int(a)
        end = 0 if b == "off" else int(b)
        assert board[start] > 0, f"no checker of ours on {a} for {step}"
        board[start] -= 1
        if end:
            if board[end] == -1:  # a blot of theirs: hit it, onto their bar
                board[end] = 0
                board[0] -= 1
            assert board[end] >= 0, f"{b} is their point in {step}"
            board[end] += 1
        pips.append(start - end)
    # Every step but a bear-off with a larger die is exactly one die.
    die_count = 4 if dice[0] == dice[1] else 2
    assert len(pips) <= die_count
    for pip, step in zip(pips, text.split(), strict=True):
        assert pip in dice or (step.endswith("/off") and pip < max(dice)), step
    return Position.from_list(board)


def test_handshake_keys_and_quit(engine):
    lines = engine.ask("ubgi"), *engine.until("ubgiok")[:-1]
    assert lines[0].startswith("id name gammon")
    assert lines[1].startswith("id author ")
    assert lines[2] == "proto 0.2"
    assert all(KEY_LINE.fullmatch(line) for line in lines[3:]), lines[3:]
    assert engine.ask("isready") == "readyok"
    engine.send("keys")
    engine.send("isready")  # keys has no end marker: isready's answer closes the list
    listed = engine.until("readyok")[:-1]
    keys = {}
    for line in listed:
        m = KEY_LINE.fullmatch(line)
        assert m, line
        keys[m["name"]] = m
    assert keys["engine.ply"]["kind"] == "int 1..3" and keys["engine.ply"]["default"] == "1"
    assert keys["engine.ply"]["minor"] is None  # the depth changes the play: it is not minor
    assert keys["engine.threads"]["minor"] and keys["engine.seed"]["minor"]
    assert keys["game.variant"]["kind"].startswith("enum ") and "backgammon" in keys["game.variant"]["kind"]
    assert keys["game.variant"]["default"] == "backgammon"
    assert engine.close() == 0


def test_set_and_get_with_bad_values(engine):
    assert engine.ask("get engine.ply") == "value engine.ply 1"
    engine.silent("set engine.ply 3")
    assert engine.ask("get engine.ply") == "value engine.ply 3"
    for bad in ("0", "4", "-1", "two", "2.5"):
        assert engine.ask(f"set engine.ply {bad}").startswith("error bad_value engine.ply")
    assert engine.ask("get engine.ply") == "value engine.ply 3"  # a refused value changes nothing
    engine.silent("set engine.threads 2")
    engine.silent("set engine.seed 12345")
    assert engine.ask("get engine.seed") == "value engine.seed 12345"
    assert engine.ask("set engine.threads 0").startswith("error bad_value engine.threads")
    assert engine.ask("set game.variant nackgammon").startswith("error bad_value game.variant")
    assert engine.ask("get game.variant") == "value game.variant backgammon"
    assert engine.ask("set engine.hash 64").startswith("error unsupported")
    assert engine.ask("get engine.hash").startswith("error unsupported")
    assert engine.ask("set engine.ply").startswith("error bad_command")
    assert engine.ask("get").startswith("error bad_command")
    assert engine.close() == 0


@pytest.mark.parametrize("tag", ["contact", "bar", "hit", "doubles", "race", "bearoff"])
def test_go_plays_the_bots_best_play(engine, legal_play_rows, tag):
    bot = Bot(ply=0)
    rows = [r for r in legal_play_rows if tag in r["tags"].split() and len(r["results"].split()) > 1][:8]
    assert rows
    engine.silent("newgame")
    for row in rows:
        position, dice = Position.from_id(row["position_id"]), (int(row["d1"]), int(row["d2"]))
        engine.silent(f"position gnubgid {row['position_id']}")
        engine.silent(f"dice {dice[0]} {dice[1]}")
        engine.send("go")
        info, best = engine.read(), engine.read()
        assert best.startswith("bestmove "), best
        # The engine ranks every play in full, as Bot.rank_plays does; Bot.best_play judges only
        # the first layer's best four with the second, so the two may part where plays are close.
        ranked = bot.rank_plays(position, *dice)[0]
        assert replay(position, dice, best.removeprefix("bestmove ")) == ranked.play.position
        fields = info.split()
        assert fields[0] == "info" and fields[fields.index("depth") + 1] == "1"
        assert int(fields[fields.index("time_ms") + 1]) >= 0
        equity = ranked.equity
        assert float(fields[fields.index("score") + 1]) == pytest.approx(equity, abs=1e-4)
    assert engine.close() == 0


def go(engine: Controller, command: str = "go") -> str:
    """The move text of ``bestmove`` after the ``info`` line."""
    engine.send(command)
    assert engine.read().startswith("info ")
    best = engine.read()
    assert best.startswith("bestmove "), best
    return best.removeprefix("bestmove ")


def test_ids_carry_the_dice_and_xgids_work(engine):
    bot = Bot(ply=0)
    # A money game's Match ID with 5-5 rolled in the starting position: no dice command needed.
    engine.silent("position gnubgid 4HPwATDgc/ABMA:cIkWAAAAAAAA")
    expected = bot.best_play(Position.initial(), 5, 5).position
    assert replay(Position.initial(), (5, 5), go(engine)) == expected
    # An explicit dice command replaces the rolled dice.
    engine.silent("dice 3 1")
    assert replay(Position.initial(), (3, 1), go(engine)) == bot.best_play(Position.initial(), 3, 1).position
    # An XGID of a 7-point match at 3-2 with player 1 to play 5-2.
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:3:2:0:7:10"
    game = Match.from_xgid(xgid).game
    engine.silent(f"position xgid {xgid}")
    expected = bot.best_play(game.position, 5, 2).position
    assert replay(game.position, (5, 2), go(engine, "go chequer")) == expected
    # Each ID kind goes with its own keyword.
    assert engine.ask(f"position gnubgid {xgid}").startswith("error bad_value")
    assert engine.ask("position xgid 4HPwATDgc/ABMA").startswith("error bad_value")
    assert engine.close() == 0


def test_deeper_search_and_a_roll_that_cannot_be_played(engine, legal_play_rows):
    engine.silent("set engine.ply 2")
    row = next(r for r in legal_play_rows if "contact" in r["tags"] and len(r["results"].split()) > 4)
    position, dice = Position.from_id(row["position_id"]), (int(row["d1"]), int(row["d2"]))
    engine.silent(f"position gnubgid {row['position_id']}")
    engine.silent(f"dice {dice[0]} {dice[1]}")
    assert replay(position, dice, go(engine)) == Bot(ply=1).best_play(position, *dice).position
    blocked = next(r for r in legal_play_rows if "blocked" in r["tags"] and r["results"] == r["position_id"])
    engine.silent(f"position gnubgid {blocked['position_id']}")
    engine.silent(f"dice {blocked['d1']} {blocked['d2']}")
    assert go(engine) == "pass"
    assert engine.close() == 0


RACE = "-EBBCC-------------cccbbb-"
"""A race, 42 pips against 57, with the player at the bottom (XGID turn 1) on roll."""


def cube_answer(engine: Controller) -> tuple[str, float]:
    engine.send("go cube")
    info = engine.read().split()
    best = engine.read()
    assert best in ("bestcube double", "bestcube nodouble"), best
    return best.removeprefix("bestcube "), float(info[info.index("score") + 1])


CUBE_SETTINGS = (
    "0:0:1:00:0:0:0:0",  # money, centred cube
    "0:0:1:00:0:0:3:0",  # money with the Jacoby rule and beavers
    "1:-1:1:00:0:0:0:0",  # money, the opponent owns the 2-cube: no double for us
    "0:0:1:00:2:2:0:5",  # 5-point match at 2-2
    "0:0:1:00:2:4:1:5",  # the Crawford game: the cube is out of play
    "0:0:1:00:2:4:0:5",  # post-Crawford: the trailer doubles
    "0:0:1:00:3:1:0:5",  # the leader at 2-away 4-away
)
"""XGID fields after the board (cube, owner, turn, dice, score, Crawford/rules, length)."""


def test_go_cube_is_the_bots_cube_decision(engine):
    bot, answers = Bot(ply=0), set()
    for fields in CUBE_SETTINGS:
        for board in (RACE, "-b----E-C---eE---c-e----B-"):
            xgid = f"XGID={board}:{fields}:10"
            game = Match.from_xgid(xgid).game
            action = bot.cube_action(game)
            engine.silent(f"position xgid {xgid}")
            answer, score = cube_answer(engine)
            assert answer == ("double" if action.double else "nodouble"), xgid
            assert score == pytest.approx(action.equity, abs=1e-4)
            if not action.may_double:
                assert answer == "nodouble"
            answers.add(answer)
    assert answers == {"double", "nodouble"}
    assert engine.close() == 0


def test_go_cube_answers_both_ways_and_go_turn_adds_the_play(engine):
    bot = Bot(ply=0)
    # A bare Position ID is money play with a centred cube: the opening is no double, the race a
    # double (and a pass) by the bot's own verdict.
    engine.silent("newgame")
    assert cube_answer(engine)[0] == "nodouble"
    race = Position.from_xgid(f"XGID={RACE}:0:0:1:00:0:0:0:0:10")
    assert bot.cube_action(race, CubeContext.money()).double
    engine.silent(f"position gnubgid {race.id}")
    assert cube_answer(engine)[0] == "double"
    assert engine.ask("go turn").startswith("error bad_state")  # go turn needs the dice
    engine.silent("dice 6 5")
    engine.send("go turn")
    assert engine.read().startswith("info ")
    turn = engine.read()
    cube, move = turn.removeprefix("bestturn ").split(" ", 1)
    assert cube == "cube=double" and move.startswith("move=")
    assert replay(race, (6, 5), move.removeprefix("move=")) == bot.best_play(race, 6, 5).position
    # At a match score the play is ranked in the match context: after the double is taken the
    # opponent owns the 2-cube, at 4-away 2-away (post-Crawford, we trail).
    xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:62:2:4:0:5:10"
    game = Match.from_xgid(xgid).game
    action = bot.cube_action(game.position, CubeContext.from_game(game))
    engine.silent(f"position xgid {xgid}")
    engine.send("go turn")
    assert engine.read().startswith("info ")
    cube, move = engine.read().removeprefix("bestturn ").split(" ", 1)
    assert cube == ("cube=double" if action.double else "cube=nodouble")
    after = CubeContext.match((3, 1), 2, "them") if action.double else CubeContext.from_game(game)
    expected = bot.best_play(game.position, 6, 2, context=after).position
    assert replay(game.position, (6, 2), move.removeprefix("move=")) == expected
    # A double already offered asks for a take or a pass, which UBGI cannot answer.
    engine.silent("position xgid XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10")
    assert engine.ask("go cube").startswith("error bad_state")
    assert engine.close() == 0


def test_plays_at_a_match_score_are_ranked_at_that_score(engine):
    bot = Bot(ply=0)
    # At double match point (4-4 in a 5-point match) only winning counts: here the bot, far
    # behind, stays back for a shot (24/21 10/6) where for money it runs a back checker out to
    # save the gammon (24/17).
    position = Position.from_id("+hkAAPwGCAj4AA")
    board, *_ = position.xgid.split(":")
    xgid = f"{board}:0:0:1:43:4:4:0:5:10"
    game = Match.from_xgid(xgid).game
    assert game.position == position
    expected = bot.best_play(position, 4, 3, context=CubeContext.from_game(game))
    assert expected != bot.best_play(position, 4, 3)  # the score changes the bot's play
    engine.silent(f"position xgid {xgid}")
    assert replay(position, (4, 3), go(engine)) == expected.position
    for fields in ("1:1:1:53:2:1:0:7", "0:0:1:64:0:0:0:0"):  # a 7-point match; money with the IDs' cube
        xgid = f"XGID=-b----E-C---eE---c-e----B-:{fields}:10"
        game = Match.from_xgid(xgid).game
        assert game.dice is not None
        engine.silent(f"position xgid {xgid}")
        expected = bot.best_play(game.position, *game.dice, context=CubeContext.from_game(game))
        assert replay(game.position, game.dice, go(engine)) == expected.position
    assert engine.close() == 0


def test_bad_input_is_answered_and_the_engine_lives_on(engine):
    answers = {
        "hello": "bad_command",
        "UBGI": "bad_command",  # keywords are case-sensitive
        "isready now": "bad_command",
        "go": "bad_state",  # no position yet
        "dice 3 1": "bad_state",
        "position": "bad_command",
        "position fen rnbqkbnr": "unsupported",
        "position gnubgid nonsense": "bad_value",
        "position xgid XGID=nonsense:0:0:1:00:0:0:0:0:10": "bad_value",
        "newgame": None,
        "go chequer": "bad_state",  # a position but no dice
        "dice 3": "bad_command",
        "dice 0 7": "bad_value",
        "dice three one": "bad_value",
        "go sideways": "bad_command",
    }
    for command, code in answers.items():
        if code is None:
            engine.silent(command)
        else:
            answer = engine.ask(command)
            assert answer.startswith(f"error {code} "), (command, answer)
    # A finished game has no play to choose: we have borne off all fifteen. The position is
    # refused as soon as it is sent, and the one before it stays.
    board = [0] * 26
    board[10] = -15
    answer = engine.ask(f"position gnubgid {Position.from_list(board).id}")
    assert answer.startswith("error bad_value position the game is over"), answer
    engine.silent("newgame")
    engine.silent("dice 6 5")
    assert go(engine) in ("24/18 18/13", "24/19 19/13")  # the 6-5 run, every book's opening
    assert engine.close() == 0


def test_the_end_of_the_input_ends_the_session():
    command = [sys.executable, "-m", "gammon", "ubgi"]
    out = subprocess.run(command, input="isready\n", capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout, out.stderr) == (0, "readyok\n", "")


def test_dice_in_one_word_as_gammon_hint_takes_them(engine):
    bot = Bot(ply=0)
    engine.silent("newgame")
    engine.silent("dice 31")
    assert replay(Position.initial(), (3, 1), go(engine)) == bot.best_play(Position.initial(), 3, 1).position
    engine.silent("dice 5 2")
    assert replay(Position.initial(), (5, 2), go(engine)) == bot.best_play(Position.initial(), 5, 2).position
    # One word is two dice, two words one die each: nothing else passes.
    for command, code in {
        "dice 3": "bad_command",
        "dice 314": "bad_command",
        "dice 31 4": "bad_value",
        "dice 3 1 4": "bad_command",
        "dice 71": "bad_value",
        "dice 3-": "bad_value",
    }.items():
        answer = engine.ask(command)
        assert answer.startswith(f"error {code} "), (command, answer)
    assert engine.close() == 0


def test_errors_quote_the_input_short_and_escaped(engine):
    # Control characters are written as repr writes them, never raw into the protocol.
    answer = engine.ask("hello\x00world\x1b[2J")
    assert answer.startswith("error bad_command ") and answer.isprintable(), answer
    assert "\\x00" in answer and "\\x1b" in answer
    answer = engine.ask("set engine.ply 1\x002")
    assert answer.startswith("error bad_value engine.ply ") and "\\x00" in answer and answer.isprintable()
    # A long word of the input is quoted by its first 80 characters and its length.
    answer = engine.ask("position gnubgid " + "A" * 10_000)
    assert answer.startswith("error bad_value ") and len(answer) < 300, answer[:400]
    quoted = re.search(r"(\S+)\.\.\. \((\d+) characters\)", answer)
    assert quoted and len(quoted[1]) == 80 and quoted[1].endswith("A" * 79) and quoted[2] == "10003"
    answer = engine.ask("z" * 50_000)
    assert answer.startswith("error bad_command unknown command ") and len(answer) < 300
    assert "50002 characters" in answer  # the repr's quotes counted
    assert engine.ask("isready") == "readyok"
    assert engine.close() == 0


def test_a_line_over_64_kib_is_refused_and_the_engine_lives_on(engine):
    engine.send("x" * 1_500_000)
    answer = engine.read()
    assert answer == "error bad_command line too long: 1500000 characters (at most 65536)"
    engine.send("set engine.ply " + "9" * 70_000)  # refused whole, not carried out
    assert engine.read().startswith("error bad_command line too long: 70015 characters")
    assert engine.ask("get engine.ply") == "value engine.ply 1"
    engine.silent("set engine.ply " + "0" * 65_000 + "2")  # under the limit: carried out
    assert engine.ask("get engine.ply") == "value engine.ply 2"
    assert engine.ask("set engine.seed " + "7" * 5000).startswith("error bad_value engine.seed ")
    engine.silent("set engine.seed -" + "0" * 5000 + "7")
    assert engine.ask("get engine.seed") == "value engine.seed -7"
    engine.silent("newgame")
    engine.silent("dice 3 1")
    assert go(engine) == "8/5 6/5"  # the line after the long ones is read whole
    assert engine.close() == 0


def test_a_long_last_line_without_end_is_refused():
    command = [sys.executable, "-m", "gammon", "ubgi"]
    out = subprocess.run(
        command, input="isready\n" + "q" * 200_000, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and out.stderr == ""
    assert out.stdout.splitlines() == [
        "readyok",
        "error bad_command line too long: 200000 characters (at most 65536)",
    ]


def test_the_v01_dialect_of_a_dueller(engine, legal_play_rows):
    """A UBGI v0.1 controller: setoption, setturn, go role, and the play named by bestmoveid."""
    bot = Bot(ply=0)
    engine.send("ubgi")
    engine.until("ubgiok")
    engine.silent("setoption name Variant value backgammon")
    engine.silent("setoption name variant value Backgammon")  # names and this value in any case
    assert engine.ask("setoption name Variant value nackgammon").startswith("error bad_value game.variant")
    engine.silent("setoption name Threads value 4")
    engine.silent("setoption name Seed value 42")
    engine.silent("setoption name engine.ply value 2")  # a v0.2 key by its own name
    assert [engine.ask(f"get {k}") for k in ("engine.threads", "engine.seed", "engine.ply")] == [
        "value engine.threads 4",
        "value engine.seed 42",
        "value engine.ply 2",
    ]
    engine.silent("setoption name Deterministic value true")
    engine.silent("setoption name engine.ply value 1")
    for command, code in {
        "setoption name EvalMode value cubeless": "unsupported",
        "setoption name Hash value 64": "unsupported",
        "setoption name Threads value 0": "bad_value",
        "setoption name Deterministic value maybe": "bad_value",
        "setoption Threads 4": "bad_command",
        "setoption name Threads": "bad_command",
        "setoption name Threads value": "bad_command",
        "setturn p2": "bad_value",
        "setturn": "bad_command",
        "go role": "bad_command",
        "go role sideways": "bad_command",
        "go role chequer movetime": "bad_command",
        "go role chequer ponder 1": "bad_command",
        "go role chequer depth two": "bad_value",
        "newsession type match length 7": "unsupported",
        "newsession type money jacoby on": "unsupported",
        "newsession money": "bad_command",
        "setcube value 2 owner p0": "unsupported",
        "setscore 1 2": "unsupported",
    }.items():
        answer = engine.ask(command)
        assert answer.startswith(f"error {code} "), (command, answer)
    engine.silent("newgame")
    engine.silent("newsession type money")  # what a bare Position ID is played as
    engine.silent("newsession type money jacoby off crawford on")
    engine.silent("setcube value 1 owner center")
    engine.silent("stop")  # nothing is running: nothing to answer
    rows = [r for r in legal_play_rows if len(r["results"].split()) > 1][:6]
    blocked = next(r for r in legal_play_rows if "blocked" in r["tags"] and r["results"] == r["position_id"])
    for row in [*rows, blocked]:
        position, dice = Position.from_id(row["position_id"]), (int(row["d1"]), int(row["d2"]))
        engine.silent(f"position gnubgid {row['position_id']}")
        engine.silent("setturn p1")  # the Position ID is already the side on roll's
        engine.silent(f"dice {dice[0]} {dice[1]}")
        engine.send("go role chequer movetime 1000 depth 1")
        assert engine.read().startswith("info ")
        move, moveid = engine.read(), engine.read()
        assert move.startswith("bestmove ") and moveid.startswith("bestmoveid "), (move, moveid)
        after = replay(position, dice, move.removeprefix("bestmove "))
        assert after == bot.best_play(position, *dice).position
        # The dueller matches the ID against the positions after each legal play, opponent on roll.
        children = {play.position.swapped().id for play in position.legal_plays(*dice)} or {
            position.swapped().id
        }
        assert moveid.removeprefix("bestmoveid ") == after.swapped().id
        assert after.swapped().id in children
    # A v0.2 go answers bestmove alone.
    assert go(engine) == "pass"
    assert engine.ask("isready") == "readyok"
    # go role cube and go role turn are go cube and go turn; turn names its play by ID as well.
    race = Position.from_xgid(f"XGID={RACE}:0:0:1:00:0:0:0:0:10")
    engine.silent(f"position gnubgid {race.id}")
    engine.send("go role cube")
    assert engine.read().startswith("info ") and engine.read() == "bestcube double"
    engine.silent("dice 6 5")
    engine.send("go role turn nodes 100")
    assert engine.read().startswith("info ")
    turn = re.fullmatch(r"bestturn cube=double moveid=(\S+) move=(.+)", engine.read())
    assert turn, "bestturn cube=double moveid=<ID> move=<move>"
    after = replay(race, (6, 5), turn[2])
    assert after == bot.best_play(race, 6, 5).position and turn[1] == after.swapped().id
    assert engine.close() == 0


def test_a_v01_dueller_plays_a_whole_game_between_two_engines():
    """Two engines driven as a v0.1 dueller drives them: each play taken by its bestmoveid only."""
    rng = random.Random(7)
    engines = [Controller(), Controller()]
    try:
        for engine in engines:
            engine.send("ubgi")
            engine.until("ubgiok")
            engine.silent("setoption name Variant value backgammon")
            engine.silent("newgame")
        position, plies = Position.initial(), 0
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            engine = engines[plies % 2]
            engine.silent(f"position gnubgid {position.id}")
            engine.silent(f"setturn {'p0' if plies % 2 == 0 else 'p1'}")
            engine.silent(f"dice {dice[0]} {dice[1]}")
            engine.send("go role chequer")
            lines = [engine.read() for _ in range(3)]  # info, bestmove, bestmoveid
            moveid = lines[-1].removeprefix("bestmoveid ")
            children = {play.position.swapped().id: play.position for play in position.legal_plays(*dice)}
            if not children:
                children = {position.swapped().id: position}
            assert moveid in children, (position.id, dice, lines)
            plies += 1
            if children[moveid].off[0] == 15:
                break
            position = Position.from_id(moveid)
            assert plies < 400
        for engine in engines:
            assert engine.close() == 0
    finally:
        for engine in engines:
            if engine.process.poll() is None:
                engine.process.kill()
                engine.process.wait()
