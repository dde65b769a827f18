"""``gammon ubgi``: the built-in bot as a UBGI v0.2 engine on stdin and stdout.

UBGI (Universal Backgammon Interface) is a line protocol in the manner of chess's UCI: a controller
(a GUI, a server, a tournament runner) sends one command a line and the engine answers. A session::

    > ubgi
    < id name gammon 0.1.0
    < id author the gammon developers
    < proto 0.2
    < key game.variant enum backgammon backgammon the game played
    < key engine.ply int 1..3 1 root-inclusive decision depth (1 = no lookahead)
    < ...
    < ubgiok
    > isready
    < readyok
    > position gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA
    > dice 3 1
    > go
    < info depth 1 score 0.1583 time_ms 0 pv 8/5 6/5
    < bestmove 8/5 6/5
    > quit

Every answer is one line, flushed at once. Input that cannot be carried out is answered with
``error <code> <detail>`` (``bad_command``, ``bad_value``, ``bad_state`` or ``unsupported``) and the
engine carries on; only ``quit`` or the end of the input stops it.

Moves are written one checker step per die, ``from/to``, with ``bar`` and ``off`` (``24/18 18/13``
for a 6-5 run, ``bar/22 22/20``, ``6/off 6/off``), as the protocol's move text asks; ``pass`` when
the roll cannot be played. The roll is ``dice 3 1`` or, as ``gammon hint`` takes it, ``dice 31``.
``engine.ply`` counts the root as UBGI does: its 1-ply is the bot's
``Bot(ply=0)``.

Every decision comes from the engine: the chequer play from :meth:`gammon.Bot.rank_plays`, the
double from :meth:`gammon.Bot.cube_action`. A ``PositionID:MatchID`` or an XGID carries the cube
and the match score, and both are then decided in that context (plays by cubeful equity at the
score); a bare Position ID is taken as money play with a centred cube, its plays ranked by cubeless
equity, each judged in full as :meth:`gammon.Bot.rank_plays` judges them. ``go cube`` answers the
double of the player on roll before the roll (``nodouble`` when the cube is not available to
him); ``go turn`` answers the double and the play of the dice given, the play as it stands after a
take when the answer is ``double``. The ``info`` line's ``score`` is the equity of the answer, for
the player on roll.

UBGI v0.1's forms are taken too, mapped onto v0.2 as docs/ubgi.md lists: ``setoption name <Name>
value <Value>`` as ``set``, ``setturn`` and ``stop`` accepted, ``go role chequer|cube|turn [limits]``
as ``go``, and after ``go role chequer`` a ``bestmoveid`` (the Position ID after the play, the
opponent on roll) for the duellers that read it.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TextIO

from gammon._core import (
    Bot,
    CubeAction,
    CubeContext,
    Game,
    GammonError,
    Play,
    Position,
    __version__,
    read_dice,
    read_position,
)

NAME = f"gammon {__version__}"
"""The engine's name in ``id name``."""
AUTHOR = "the gammon developers"
"""The engine's author in ``id author``."""
PROTOCOL = "0.2"
"""The UBGI version spoken, announced by ``proto``."""

BAD_COMMAND, BAD_VALUE, BAD_STATE, UNSUPPORTED = "bad_command", "bad_value", "bad_state", "unsupported"
"""The four error codes of UBGI: bad syntax, a bad value, the wrong moment, a missing feature."""

MAX_LINE = 64 * 1024
"""The longest command line carried out, in characters; a longer one is refused, never held whole."""
SHOWN_WORD = 80
"""How many characters of one word of the input an error message quotes."""
SHOWN_DETAIL = 400
"""How many characters of detail an error message carries at most."""


def _escaped(text: str) -> str:
    """``text`` with every character that is not printable written as ``repr`` writes it.

    Controls such as NUL, line and paragraph separators, and spaces other than the plain one.

    >>> print(_escaped("a\\x00b\\u2028c d"))
    a\\x00b\\u2028c d
    """
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def _cut(text: str, limit: int) -> str:
    """``text`` cut to its first ``limit`` characters, saying how long it was.

    >>> _cut("x" * 100, 5)
    'xxxxx... (100 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class UbgiError(Exception):
    """A command that is answered with an ``error`` line instead of being carried out."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code} {detail}")
        self.code = code
        self.detail = detail

    def line(self) -> str:
        """The ``error`` line: one line, escaped and short whatever the detail quotes.

        The detail may quote the input (through the engine's own messages too), so every word of
        it is cut to :data:`SHOWN_WORD` characters and the whole to :data:`SHOWN_DETAIL`.
        """
        # Escaped first, the detail's only spaces left are plain ones: a line, split into words.
        words = [_cut(word, SHOWN_WORD) for word in _escaped(self.detail).split(" ") if word]
        return f"error {self.code} {_cut(' '.join(words), SHOWN_DETAIL)}"


@dataclass(frozen=True)
class Key:
    """One setting a controller can discover with ``keys`` and change with ``set``."""

    name: str
    """The dotted name: ``game.*`` for the game played, ``engine.*`` for the engine's behaviour."""
    default: int | str
    """The value until a ``set`` changes it."""
    description: str
    """Free text shown by controllers."""
    bounds: tuple[int, int] | None = None
    """For integers, the inclusive range; None for any integer."""
    choices: tuple[str, ...] = ()
    """For enumerations, the allowed values; empty for integers."""
    minor: bool = False
    """Minor options (``!``) do not change the engine's play, so ratings may ignore them."""

    def line(self) -> str:
        """The ``key`` line that announces this setting."""
        if self.choices:
            kind = f"enum {'|'.join(self.choices)}"
        elif self.bounds is None:
            kind = "int *"
        else:
            kind = f"int {self.bounds[0]}..{self.bounds[1]}"
        minor = " !" if self.minor else ""
        return f"key {self.name} {kind} {self.default}{minor} {self.description}"

    def parse(self, text: str) -> int | str:
        """The value that ``text`` names, or a ``bad_value`` error saying what is allowed."""
        if self.choices:
            if text not in self.choices:
                raise UbgiError(BAD_VALUE, f"{self.name} must_be {'|'.join(self.choices)}")
            return text
        # Plain decimal digits only: int() would also take "+3" or "1_0".
        if not re.fullmatch(r"-?[0-9]+", text):
            raise UbgiError(BAD_VALUE, f"{self.name} must_be an integer, not {text!r}")
        # Python's int() refuses over 4300 digits; no setting needs more than a 64-bit integer.
        digits = text.lstrip("-").lstrip("0") or "0"
        if len(digits) > 18:
            raise UbgiError(BAD_VALUE, f"{self.name} must_be an integer of at most 18 digits")
        value = -int(digits) if text.startswith("-") else int(digits)
        if self.bounds is not None and not self.bounds[0] <= value <= self.bounds[1]:
            raise UbgiError(BAD_VALUE, f"{self.name} must_be {self.bounds[0]}..{self.bounds[1]}")
        return value


KEYS: tuple[Key, ...] = (
    Key("game.variant", "backgammon", "the game played", choices=("backgammon",)),
    Key("engine.ply", 1, "root-inclusive decision depth (1 = no lookahead)", bounds=(1, 3)),
    Key(
        "engine.threads",
        1,
        "worker threads (accepted for controllers; a decision runs on one thread)",
        bounds=(1, 256),
        minor=True,
    ),
    Key(
        "engine.seed",
        0,
        "random seed (accepted for controllers; the bot's decisions are deterministic)",
        minor=True,
    ),
)
"""Every setting, in the order ``keys`` lists them."""


def move_text(play: Play) -> str:
    """A play as UBGI move text: one ``from/to`` step per die, ``bar``/``off``, or ``pass``.

    >>> move_text(Position.initial().parse_play(6, 5, "24/13"))
    '24/18 18/13'
    """
    steps = [f"{_point(a)}/{_point(b)}" for a, b in play.moves]
    return " ".join(steps) or "pass"


def move_id(play: Play) -> str:
    """v0.1's ``bestmoveid``: the Position ID after the play, the opponent then on roll.

    >>> move_id(Position.initial().parse_play(3, 1, "8/5 6/5"))
    'sGfwATDgc/ABMA'
    """
    return play.position.swapped().id


def _point(point: int) -> str:
    return {25: "bar", 0: "off"}.get(point, str(point))


class Engine:
    """The state of one UBGI session: the settings, the position and the dice.

    Feed it lines with :meth:`handle`; it writes its answers to ``out``, flushing every line.
    ``values`` holds the settings by key name; ``position`` (seen from the player on roll),
    ``game`` (the game behind a Match ID or XGID, None for a bare Position ID) and ``dice`` are
    what ``newgame``, ``position`` and ``dice`` set.
    """

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.values: dict[str, int | str] = {key.name: key.default for key in KEYS}
        self.position: Position | None = None
        self.game: Game | None = None
        self.dice: tuple[int, int] | None = None
        self._bots: dict[int, Bot] = {}
        self._commands: dict[str, Callable[[list[str]], None]] = {
            "ubgi": self._ubgi,
            "isready": self._isready,
            "newgame": self._newgame,
            "position": self._position,
            "dice": self._dice,
            "go": self._go,
            "set": self._set,
            "get": self._get,
            "keys": self._keys,
            # UBGI v0.1's forms, still spoken by some controllers (see _go and _setoption).
            "setoption": self._setoption,
            "setturn": self._setturn,
            "stop": self._stop,
            "newsession": self._newsession,
            "setcube": self._setcube,
            "setscore": self._setscore,
        }

    def send(self, line: str) -> None:
        """Writes one answer line and flushes it, so a controller waiting on it sees it at once."""
        self.out.write(line + "\n")
        self.out.flush()

    def handle(self, line: str) -> bool:
        """Carries out one command line; False once ``quit`` asks the session to end."""
        if len(line.rstrip("\r\n")) > MAX_LINE:
            self.refuse_long_line(len(line.rstrip("\r\n")))
            return True
        words = line.split()
        if not words:
            return True
        if words[0] == "quit":
            return False
        command = self._commands.get(words[0])
        try:
            if command is None:
                raise UbgiError(BAD_COMMAND, f"unknown command {words[0]!r}")
            command(words[1:])
        except UbgiError as e:
            self.send(e.line())
        except GammonError as e:
            # The engine refused what the controller set up (an illegal play, say).
            self.send(UbgiError(BAD_STATE, str(e)).line())
        return True

    def refuse_long_line(self, length: int) -> None:
        """Answers a line longer than :data:`MAX_LINE`, which is not carried out."""
        self.send(UbgiError(BAD_COMMAND, f"line too long: {length} characters (at most {MAX_LINE})").line())

    def run(self, lines: Iterable[str]) -> int:
        """Serves commands until ``quit`` or the end of the input; the exit status."""
        for line in lines:
            if not self.handle(line):
                break
        return 0

    # ----- handshake and settings -----

    def _ubgi(self, args: list[str]) -> None:
        _no_arguments("ubgi", args)
        self.send(f"id name {NAME}")
        self.send(f"id author {AUTHOR}")
        self.send(f"proto {PROTOCOL}")
        for key in KEYS:
            self.send(key.line())
        self.send("ubgiok")

    def _isready(self, args: list[str]) -> None:
        _no_arguments("isready", args)
        self.send("readyok")

    def _keys(self, args: list[str]) -> None:
        _no_arguments("keys", args)
        for key in KEYS:
            self.send(key.line())

    def _set(self, args: list[str]) -> None:
        if len(args) != 2:
            raise UbgiError(BAD_COMMAND, "expected: set <key> <value>")
        key = _key(args[0])
        self.values[key.name] = key.parse(args[1])

    def _setoption(self, args: list[str]) -> None:
        """v0.1's ``setoption name <Name> value <Value>``: the v0.2 ``set`` of the key it names."""
        if len(args) < 4 or args[0] != "name" or "value" not in args[2:]:
            raise UbgiError(BAD_COMMAND, "expected: setoption name <Name> value <Value>")
        at = args.index("value", 2)
        name, value = " ".join(args[1:at]), " ".join(args[at + 1 :])
        if not value:
            raise UbgiError(BAD_COMMAND, "expected: setoption name <Name> value <Value>")
        folded = name.lower()
        if folded == "deterministic":
            # The bot's decisions are always deterministic: either answer is accepted.
            if value.lower() not in ("true", "false", "on", "off", "1", "0"):
                raise UbgiError(BAD_VALUE, "Deterministic must_be true|false")
            return
        if folded == "evalmode":
            raise UbgiError(
                UNSUPPORTED,
                "setoption EvalMode: the position decides (cubeful with a Match ID or XGID, "
                "cubeless for a bare Position ID)",
            )
        key = _key(V01_OPTIONS.get(folded, name))
        if key.name == "game.variant":
            value = value.lower()
        self.values[key.name] = key.parse(value)

    def _setturn(self, args: list[str]) -> None:
        """v0.1's ``setturn p0|p1``: accepted, as the position is always read for the side on roll."""
        if len(args) != 1:
            raise UbgiError(BAD_COMMAND, "expected: setturn p0|p1")
        if args[0] not in ("p0", "p1"):
            raise UbgiError(BAD_VALUE, "setturn must_be p0|p1")

    def _newsession(self, args: list[str]) -> None:
        """v0.1's ``newsession``: money play without the Jacoby rule is what a bare Position ID gets."""
        if len(args) < 2 or len(args) % 2 or args[0] != "type":
            raise UbgiError(
                BAD_COMMAND, "expected: newsession type <money|match> [length <N>] [jacoby|crawford <on|off>]"
            )
        options = dict(zip(args[::2], args[1::2], strict=True))
        if (
            options.get("type") == "money"
            and options.get("jacoby", "off") == "off"
            and "length" not in options
        ):
            return
        raise UbgiError(UNSUPPORTED, f"newsession {' '.join(args)}: {SESSION_FROM_ID}")

    def _setcube(self, args: list[str]) -> None:
        """v0.1's ``setcube``: the centred 1-cube is what a bare Position ID gets."""
        if args not in (["value", "1", "owner", "center"], ["owner", "center", "value", "1"]):
            raise UbgiError(UNSUPPORTED, f"setcube {' '.join(args)}: {SESSION_FROM_ID}")

    def _setscore(self, args: list[str]) -> None:
        """v0.1's ``setscore``: a match score comes with the position's ID, never alone."""
        raise UbgiError(UNSUPPORTED, f"setscore {' '.join(args)}: {SESSION_FROM_ID}")

    def _stop(self, args: list[str]) -> None:
        """v0.1's ``stop``: every decision is answered before the next line is read, so nothing runs."""
        _no_arguments("stop", args)

    def _get(self, args: list[str]) -> None:
        if len(args) != 1:
            raise UbgiError(BAD_COMMAND, "expected: get <key>")
        key = _key(args[0])
        self.send(f"value {key.name} {self.values[key.name]}")

    # ----- the position -----

    def _newgame(self, args: list[str]) -> None:
        _no_arguments("newgame", args)
        self.position, self.game, self.dice = Position.initial(), None, None

    def _position(self, args: list[str]) -> None:
        if len(args) != 2:
            raise UbgiError(BAD_COMMAND, "expected: position gnubgid|xgid <ID>")
        kind, text = args
        if kind not in ("gnubgid", "xgid"):
            raise UbgiError(UNSUPPORTED, f"position {kind} (gnubgid and xgid are)")
        try:
            read = read_position(text)
        except GammonError as e:
            raise UbgiError(BAD_VALUE, f"position {e}") from None
        # A named start is taken under either keyword; a list of ints under neither.
        keyword = {"position_id": "gnubgid", "gnubg_id": "gnubgid", "xgid": "xgid", "xgid_board": "xgid"}
        if keyword.get(read.notation, kind if read.named else None) != kind:
            raise UbgiError(BAD_VALUE, f"position {text!r} is not written as a {kind}")
        try:
            position = read.on_roll()
        except GammonError as e:
            raise UbgiError(BAD_VALUE, f"position {e}") from None
        self.position, self.game, self.dice = position, read.game, read.dice

    def _dice(self, args: list[str]) -> None:
        # Two words of one die each, or one word of two dice ("dice 31", as gammon hint takes it).
        if not (len(args) == 2 or (len(args) == 1 and len(args[0]) == 2)):
            raise UbgiError(BAD_COMMAND, "expected: dice <d1> <d2> (or dice <d1><d2>)")
        try:
            # One die a word: "dice 31 4" must not pass as the roll 3-1-4.
            if len(args) == 2 and any(len(a) != 1 for a in args):
                raise GammonError
            dice = read_dice(" ".join(args))
        except GammonError:
            raise UbgiError(BAD_VALUE, f"dice must_be 1..6, not {' '.join(args)}") from None
        self._need_position()
        self.dice = dice

    def _need_position(self) -> Position:
        if self.position is None:
            raise UbgiError(BAD_STATE, "missing position (send newgame or position first)")
        return self.position

    def _need_dice(self) -> tuple[int, int]:
        if self.dice is None:
            raise UbgiError(BAD_STATE, "missing dice (send dice <d1> <d2> first)")
        return self.dice

    # ----- decisions -----

    def _bot(self) -> Bot:
        ply = int(self.values["engine.ply"]) - 1  # UBGI counts the root; Bot's plies do not
        if ply not in self._bots:
            self._bots[ply] = Bot(ply=ply)
        return self._bots[ply]

    def _go(self, args: list[str]) -> None:
        legacy = bool(args) and args[0] == "role"
        if legacy:
            # v0.1: go role <chequer|cube|turn> [movetime <ms>] [depth <n>] [nodes <n>] [trials <n>]
            kind = args[1] if len(args) > 1 else ""
            _search_limits(args[2:])
        else:
            kind = args[0] if args else "chequer"
            if len(args) > 1:
                kind = ""
        if kind not in ("chequer", "cube", "turn"):
            raise UbgiError(BAD_COMMAND, "expected: go [chequer|cube|turn] or go role chequer|cube|turn")
        if kind == "chequer":
            self._go_chequer(legacy)
        elif kind == "cube":
            self._go_cube()
        else:
            self._go_turn(legacy)

    def _context(self) -> CubeContext | None:
        """The cube and score of the position's ID; None (cubeless money) for a bare Position ID."""
        return None if self.game is None else CubeContext.from_game(self.game)

    def _go_chequer(self, legacy: bool = False) -> None:
        position = self._need_position()
        d1, d2 = self._need_dice()
        start = time.perf_counter()
        best = self._bot().rank_plays(position, d1, d2, context=self._context())[0]
        text = move_text(best.play)
        self._info(start, best.equity, text)
        self.send(f"bestmove {text}")
        if legacy:
            self.send(f"bestmoveid {move_id(best.play)}")

    def _cube_action(self) -> CubeAction:
        position = self._need_position()
        if self.game is not None and self.game.double_offered:
            raise UbgiError(BAD_STATE, "a double is already offered: UBGI has no answer for take or pass")
        return self._bot().cube_action(position, self._context() or CubeContext.money())

    def _go_cube(self) -> None:
        start = time.perf_counter()
        action = self._cube_action()
        self._info(start, action.equity)
        self.send(f"bestcube {'double' if action.double else 'nodouble'}")

    def _go_turn(self, legacy: bool = False) -> None:
        position = self._need_position()
        d1, d2 = self._need_dice()
        start = time.perf_counter()
        action = self._cube_action()
        context = self._context()
        if action.double and context is not None:
            # The move is played after a take: the opponent then owns the doubled cube.
            context = context.taken()
        best = self._bot().rank_plays(position, d1, d2, context=context)[0]
        text = move_text(best.play)
        self._info(start, action.equity, text)
        cube = "double" if action.double else "nodouble"
        if legacy:
            # v0.1 names the play by its position (moveid=); move= is kept, last for its spaces.
            self.send(f"bestturn cube={cube} moveid={move_id(best.play)} move={text}")
        else:
            self.send(f"bestturn cube={cube} move={text}")

    def _info(self, start: float, score: float, pv: str | None = None) -> None:
        ms = round((time.perf_counter() - start) * 1000)
        line = f"info depth {self.values['engine.ply']} score {score:.4f} time_ms {ms}"
        self.send(line + (f" pv {pv}" if pv else ""))


def _no_arguments(command: str, args: list[str]) -> None:
    if args:
        raise UbgiError(BAD_COMMAND, f"{command} takes no arguments")


V01_OPTIONS = {"variant": "game.variant", "threads": "engine.threads", "seed": "engine.seed"}
"""v0.1's option names (any case) with the v0.2 key each sets; a v0.2 key name is taken as it is."""

SESSION_FROM_ID = (
    "send the match and the cube in the position (position gnubgid PositionID:MatchID, or an XGID)"
)
"""What v0.1's session commands are told when they ask for more than money play with a centred cube."""

SEARCH_LIMITS = ("movetime", "depth", "nodes", "trials")
"""v0.1's limits after ``go role``: read and checked, then left aside (``engine.ply`` sets the depth)."""


def _search_limits(args: list[str]) -> None:
    if len(args) % 2:
        raise UbgiError(BAD_COMMAND, "expected: go role <role> [movetime|depth|nodes|trials <n>] ...")
    for name, value in zip(args[::2], args[1::2], strict=True):
        if name not in SEARCH_LIMITS:
            raise UbgiError(
                BAD_COMMAND, f"go role: unknown limit {name!r} (movetime, depth, nodes, trials are)"
            )
        if not value.isascii() or not value.isdigit():
            raise UbgiError(BAD_VALUE, f"go role: {name} must_be a whole number, not {value!r}")


def _key(name: str) -> Key:
    for key in KEYS:
        if key.name == name:
            return key
    raise UbgiError(UNSUPPORTED, f"key {name}")


def read_lines(stream: TextIO, refuse: Callable[[int], None]) -> Iterator[str]:
    """The lines of ``stream``, each read with at most :data:`MAX_LINE` characters held at once.

    A longer line is read on to its end in pieces and dropped, ``refuse`` being told its length,
    so that a controller sending a line without end cannot make the engine hold it all.
    """
    while line := stream.readline(MAX_LINE + 2):  # room for the longest line and its "\r\n"
        length = len(line.rstrip("\r\n"))
        if length <= MAX_LINE:
            yield line
            continue
        while not line.endswith("\n") and (line := stream.readline(MAX_LINE + 2)):
            length += len(line.rstrip("\r\n"))
        refuse(length)


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Runs a UBGI session on the given streams (the process's own by default); the exit status."""
    if stdin is None:
        sys.stdin.reconfigure(encoding="utf-8", errors="replace")  # type: ignore[union-attr]
        stdin = sys.stdin
    if stdout is None:
        sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
        stdout = sys.stdout
    engine = Engine(stdout)
    try:
        return engine.run(read_lines(stdin, engine.refuse_long_line))
    except BrokenPipeError:
        return 0  # the controller went away: nobody is left to answer
