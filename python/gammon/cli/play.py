"""``gammon play``: a game or match at the terminal against the built-in bot.

You are player 0 and the bot (named ``the bot`` unless ``--bot-name`` says otherwise) is player 1.
The board is drawn from your side (X are your checkers, you move from 24 towards 1), with the
GNU Backgammon Position ID and Match ID under it, ready for ``gammon hint`` or GNU Backgammon.

At every prompt:

- ``help`` lists the commands of that prompt and ``?`` what can be typed there (at the play prompt,
  the legal plays in columns, a page at a time: ``? more`` goes on, ``? all`` lists every one);
- ``hint`` gives the bot's advice on the decision pending (the ranked plays of your roll, or the
  cube decision before you roll or when the bot doubles), formatted as ``gammon hint`` does;
- ``resign [single|gammon|backgammon]`` resigns when the engine allows it (its refusal is shown
  otherwise);
- ``quit`` stops.

Type plays in standard notation (``24/18 13/11``, ``bar/22``, ``6/off``, ``8/5(2)``) or the number of
a play listed by ``?``. Before each roll you may type ``double`` when the cube is yours to turn; when
the bot doubles you answer ``take`` or ``drop`` (or ``beaver``, in a money game with beavers on).

The bot is :class:`gammon.Bot` searching ``--ply`` plies (0 by default):

- it plays the play the bot ranks first;
- before its roll it doubles when the cube is available to it and the bot says double;
- it takes, drops or beavers your doubles as the bot says;
- it always takes a beaver of its own double;
- it accepts every resignation.

The bot is deterministic, so ``--seed`` (the seed of the dice) makes a session reproducible. The
command line plays money games without the Jacoby rule or beavers, the rules a ``.mat`` record
holds; a :class:`Session` over a ``Match(0, beavers=True)`` offers and answers beavers too. The
``.mat`` record is written to ``--save FILE``, or, without it, where you say when asked at the end.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Generic, TypeVar

from gammon._core import Bot, CubeContext, Game, GammonError, Match

P = TypeVar("P")

YOU, BOT = 0, 1
BOT_NAME = "the bot"
PAGE_ROWS = 15  # rows of a page of listed plays; the columns fill the terminal's width
HINT_TOP = 10  # plays shown by hint at the play prompt
RESIGN = "resign [single|gammon|backgammon]"
RESULT = {"single": "a single game", "gammon": "a gammon", "backgammon": "a backgammon"}


class Quit(Exception):
    """The player asked to stop, or the input ended."""


def ask(prompt: str) -> str:
    """One line typed at ``prompt``, stripped; :class:`Quit` when the input has ended."""
    try:
        return input(prompt).strip()
    except EOFError:
        raise Quit("the input ended") from None


def show_commands(commands: Sequence[tuple[str, str]]) -> None:
    """Prints each command of a prompt and what it does, one a line."""
    width = max(len(name) for name, _ in commands)
    for name, what in commands:
        print(f"  {name:<{width}}  {what}")


def dice_text(dice: tuple[int, int]) -> str:
    """``(6, 4)`` as ``6-4``."""
    return f"{dice[0]}-{dice[1]}"


def capitalised(name: str) -> str:
    """A name at the start of a sentence: its first letter upper-case, the rest as given."""
    return name[:1].upper() + name[1:]


class PlayList(Generic[P]):
    """The legal plays of a play prompt: ``?`` lists them a page at a time, in as many columns as
    the terminal holds; ``? more`` lists the next page, ``? all`` every play; a number picks one."""

    def __init__(self, plays: Sequence[P], columns: int | None = None, rows: int = PAGE_ROWS) -> None:
        self.plays = list(plays)
        self.columns = columns or shutil.get_terminal_size((80, 24)).columns
        self.rows = rows
        self.shown = 0  # plays listed so far by ? and ? more

    def page(self, start: int, count: int) -> list[str]:
        """The lines listing ``count`` plays from the ``start``-th, column by column."""
        entries = [f"{i:4d}. {p or '(no move)'}" for i, p in enumerate(self.plays, 1)]
        chunk = entries[start : start + count]
        down = -(-len(chunk) // self.across())
        cell = self.cell()
        return [
            "".join(f"{chunk[i]:<{cell}}" for i in range(r, len(chunk), down)).rstrip() for r in range(down)
        ]

    def cell(self) -> int:
        """The width of a column: the longest entry and two spaces."""
        return max(len(f"{i:4d}. {p or '(no move)'}") for i, p in enumerate(self.plays, 1)) + 2

    def across(self) -> int:
        """How many columns the terminal holds."""
        return max(1, self.columns // self.cell())

    def answer(self, text: str) -> tuple[bool, P | None]:
        """Answers ``?``, ``? more``, ``? all`` and a number. Returns ``(answered, play)``: the play
        picked; or ``(True, None)`` when the prompt should be asked again (a list was shown, or the
        number was out of range); or ``(False, None)`` for anything else, such as typed notation."""
        words = text.lower().split()
        if words in (["?"], ["list"], ["?", "more"], ["more"], ["?", "all"]):
            self.list(more=words[-1] == "more", every=words[-1] == "all")
            return True, None
        if not text.isdigit():
            return False, None
        if not 1 <= int(text) <= len(self.plays):
            print(f"  choose a play from 1 to {len(self.plays)}")
            return True, None
        return True, self.plays[int(text) - 1]

    def list(self, more: bool = False, every: bool = False) -> None:
        """Prints the first page of plays, the next one (``more``) or every play (``every``)."""
        if more and self.shown == len(self.plays):
            print(f"  all {len(self.plays)} plays are listed; ? lists them again")
            return
        start = self.shown if more else 0
        count = len(self.plays) if every else self.rows * self.across()
        print(f"  {len(self.plays)} legal plays:" if start == 0 else f"  plays {start + 1} on:")
        for line in self.page(start, count):
            print(line)
        self.shown = min(len(self.plays), start + count)
        if self.shown < len(self.plays):
            print(f"  ({len(self.plays) - self.shown} more: ? more lists them, ? all lists every play)")


def pick_listed(text: str, plays: Sequence[P]) -> tuple[bool, P | None]:
    """:meth:`PlayList.answer` over a fresh list of ``plays`` (its ``? more`` starts again)."""
    return PlayList(plays).answer(text)


class Session:
    """One game or match between the player at the terminal and the bot."""

    def __init__(self, match: Match, bot: Bot, bot_name: str = BOT_NAME) -> None:
        self.match = match
        self.bot = bot
        self.name = bot_name
        self.Name = capitalised(bot_name)

    # ----- what is shown -----

    def ids(self, game: Game) -> str:
        """The GNU Backgammon IDs of the game as it stands, as GNU Backgammon shows them."""
        return f" Position ID: {game.position_id}  Match ID: {game.match_id}"

    def show(self, game: Game) -> None:
        """The board from your side while you are on roll, the cube, the score and the IDs."""
        owner = {None: "centred", YOU: "yours", BOT: f"{self.name}'s"}[game.cube_owner]
        print()
        print(game.position)
        print(self.ids(game))
        line = f" You are X. Cube: {game.cube_value} ({owner})"
        if self.match.length:
            a, b = self.match.score
            line += f". Score: you {a}, {self.name} {b} of {self.match.length}"
        print(line + ".")

    def show_your_side(self, game: Game) -> None:
        """The board from your side while the bot is on roll (the diagram names X as on roll, so its
        last line is replaced), and the IDs."""
        yours = game.position.swapped()
        print()
        print("\n".join(str(yours).splitlines()[:-1]))
        (you, bot), (your_off, bot_off) = yours.pips, yours.off
        print(f" You are X: pips {you}, off {your_off} | {self.name} (O, on roll): pips {bot}, off {bot_off}")
        print(self.ids(game))

    def hint(self, game: Game) -> None:
        """The bot's advice on the decision pending, as ``gammon hint`` gives it for the game's IDs:
        the ranked plays when a roll is to be played, else the cube decision."""
        from gammon.cli.hint import hint

        top = HINT_TOP if game.dice is not None else 0
        more = "? lists them all"
        hint(
            argparse.Namespace(
                position=game.gnubg_id, dice=[], ply=self.bot.ply, top=top, json=False, more=more
            )
        )
        if game.double_offered and game.to_act == YOU:
            verdict = self.bot.cube_action(game)
            print(f"The bot's answer for you: {'take' if verdict.take else 'drop'}.")

    # ----- the commands every prompt shares -----

    def common(self, game: Game, text: str) -> bool:
        """Handles ``quit``, ``hint`` and ``resign``; True when ``text`` was one of them."""
        word, _, rest = text.lower().partition(" ")
        if word == "quit":
            raise Quit("you quit")
        if word == "hint":
            self.hint(game)
            return True
        if word == "resign":
            self.resign(game, rest.strip() or "single")
            return True
        return False

    def resign(self, game: Game, kind: str) -> None:
        """Your resignation of ``kind``, if the engine allows it now (else its refusal), which the
        bot accepts."""
        try:
            game.resign(kind)
        except GammonError as e:
            print(f"  {e}")
            return
        print(f"You resign {RESULT[game.resignation[1] if game.resignation else 'single']}.")
        game.accept_resignation()
        print(f"{self.Name} accepts.")

    def commands(self, specific: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
        """The commands of a prompt: its own, then those every prompt has."""
        return [
            *specific,
            ("hint", "the bot's advice on this decision"),
            (RESIGN, "resign (the bot accepts); single by default"),
            ("help", "these commands"),
            ("?", "what can be typed here"),
            ("quit", "stop (you are asked whether to save the record)"),
        ]

    # ----- your turn -----

    def your_roll(self, game: Game) -> None:
        """The roll prompt: roll, or double first, or resign."""
        self.show(game)
        specific = [("roll", "roll the dice (or just Enter)")]
        if game.may_double:
            specific.append(("double", f"offer {self.name} the cube at {game.cube_value * 2}"))
        choices = ", ".join(name for name, _ in specific) + ", hint, resign, help or quit"
        while True:
            answer = ask(f"{choices}? [roll] ").lower()
            try:
                if self.common(game, answer):
                    if game.is_over:
                        return
                    continue
                if answer in ("", "r", "roll"):
                    break
                if answer in ("d", "double"):
                    self.double(game)
                    if game.is_over:
                        return
                    break
                if answer == "help":
                    show_commands(self.commands(specific))
                elif answer == "?":
                    print(f"  type {choices.replace('resign', RESIGN)}")
                else:
                    print(f"  type {choices}; help explains them")
            except GammonError as e:
                print(f"  {e}")
        dice = game.roll()
        if game.dice is None:
            print(f"You roll {dice_text(dice)} and cannot move.")

    def double(self, game: Game) -> None:
        """Your double, answered by the bot's cube decision for your position."""
        verdict = self.bot.cube_action(game)  # you are on roll: its take and beaver are the bot's
        game.double()
        if verdict.beaver:
            game.beaver()
            print(f"{self.Name} beavers: the cube is at {game.history[-1].value} if you take.")
            self.answer_double(game, beaver=False)
        elif verdict.take:
            game.take()
            print(f"{self.Name} takes: the cube is at {game.cube_value}.")
        else:
            game.drop()
            print(f"{self.Name} drops.")

    def answer_double(self, game: Game, beaver: bool) -> None:
        """Your answer to the bot's double (``beaver`` when you may beaver it), or to its beaver of
        yours."""
        specific = [("take", "play on at the doubled cube"), ("drop", "lose the game at the cube as it was")]
        if beaver:
            specific.append(("beaver", "take and redouble at once, keeping the cube"))
        choices = "take, drop or beaver" if beaver else "take or drop"
        while True:
            answer = ask(f"{choices}? ").lower()
            try:
                if self.common(game, answer):
                    if game.is_over:
                        return
                    continue
                if answer in ("t", "take"):
                    game.take()
                    owner = "yours" if game.cube_owner == YOU else f"{self.name}'s"
                    print(f"You take: the cube is at {game.cube_value}, {owner}.")
                    return
                if answer in ("d", "drop", "p", "pass"):
                    game.drop()
                    print("You drop.")
                    return
                if answer in ("b", "beaver") and beaver:
                    game.beaver()
                    # The engine gives no verdict on a beaver; the bot doubled because playing on
                    # at the higher cube beat not doubling, so it plays on.
                    game.take()
                    print(f"You beaver; {self.name} takes: the cube is at {game.cube_value}, yours.")
                    return
                if answer == "help":
                    show_commands(self.commands(specific))
                elif answer == "?":
                    print(f"  type {choices}; or hint, {RESIGN}, help, quit")
                else:
                    print(f"  type {choices}; help lists every command")
            except GammonError as e:
                print(f"  {e}")

    def your_play(self, game: Game) -> None:
        """The play prompt: a play typed in notation or picked from the list."""
        plays = PlayList(game.legal_plays())
        assert game.dice is not None
        dice = dice_text(game.dice)
        if game.history[-1].kind == "opening_roll":
            self.show(game)  # there was no roll prompt to show it
        print(f"You roll {dice}.{self.ids(game)}")
        if len(plays.plays) == 1:
            game.play(plays.plays[0])
            print(f"The only play is {plays.plays[0] or 'no move'}.")
            return
        specific = [
            ("24/18 13/11", "a play in standard notation (bar/22, 6/off, 8/5(2) too)"),
            ("N", "the play numbered N by ?"),
            ("? more, ? all", "the next page of plays, or every play"),
        ]
        while True:
            text = ask(f"your play ({dice}; ? lists them, help): ")
            try:
                if self.common(game, text):
                    if game.is_over:
                        return
                    continue
                if text.lower() == "help":
                    show_commands(self.commands(specific))
                    continue
                answered, picked = plays.answer(text)
                if picked is not None:
                    played = game.play(picked)
                elif answered:
                    continue
                else:
                    played = game.play(text)
                print(f"You play {played}.")
                return
            except GammonError as e:
                print(f"  {e}")

    # ----- the bot's turn -----

    def bot_turn(self, game: Game) -> None:
        """The bot's cube decision, roll and play."""
        if game.dice is None and game.may_double and self.bot_doubles(game):
            if game.is_over:
                return
        dice = game.dice or game.roll()  # the opening roll is already thrown
        if game.dice is None:
            print(f"{self.Name} rolls {dice_text(dice)} and cannot move.")
            return
        play = self.bot.best_play(game.position, *dice, context=CubeContext.from_game(game))
        game.play(play)
        print(f"{self.Name} rolls {dice_text(dice)} and plays {play}.")

    def bot_doubles(self, game: Game) -> bool:
        """The bot's double before its roll, when its cube decision says so, and your answer;
        True when it doubled."""
        if not self.bot.cube_action(game).double:
            return False
        game.double()
        self.show_your_side(game)
        print(f"{self.Name} doubles to {game.history[-1].value}.")
        self.answer_double(game, beaver=game.beavers)
        return True

    # ----- games and the match -----

    def result(self, game: Game) -> str:
        """Who won the game, how much and why."""
        who = "You win" if game.winner == YOU else f"{self.Name} wins"
        loser = self.name if game.winner == YOU else "you"
        points = f"{game.points} point{'s' if game.points != 1 else ''}"
        why = {"dropped": f" ({loser} dropped the double)", "resigned": f" ({loser} resigned)"}
        return f"{who} {RESULT[game.result_kind or 'single']}: {points}{why.get(game.end_reason or '', '')}."

    def play_game(self, game: Game) -> None:
        """One game, from the opening roll to its end."""
        game.roll()
        mine, theirs = game.history[0].dice or (0, 0)
        first = "you play" if game.turn == YOU else f"{self.name} plays"
        print(f"Opening roll: you {mine}, {self.name} {theirs}; {first} first.")
        if self.match.is_crawford_game:
            print("This is the Crawford game: nobody may double.")
        while not game.is_over:
            if game.turn == BOT:
                self.bot_turn(game)
            elif game.dice is None:
                self.your_roll(game)
            else:
                self.your_play(game)
        print(self.result(game))

    def run(self) -> None:
        """Every game of the match (one game for money)."""
        while True:
            self.play_game(self.match.game)
            if self.match.length == 0 or self.match.is_over:
                break
            a, b = self.match.score
            print(f"Score: you {a}, {self.name} {b} (match to {self.match.length}).")
            self.match.next_game()
        if self.match.is_over:
            a, b = self.match.score
            who = "You win" if self.match.winner == YOU else f"{self.Name} wins"
            print(f"{who} the match {max(a, b)}-{min(a, b)}.")


def default_file_name() -> str:
    """A dated file name for a record, such as ``gammon-2024-05-01-193000.mat``."""
    return f"gammon-{datetime.datetime.now():%Y-%m-%d-%H%M%S}.mat"


def save_record(match: Match, save: str | None) -> None:
    """Writes the match's ``.mat`` record to ``save``; without it, asks where (or whether) to."""
    if save is None:
        default = default_file_name()
        try:
            answer = ask(f"Save the match as a .mat record? File name, y for {default}, or Enter for no: ")
        except Quit:
            answer = ""
        if answer.lower() in ("", "n", "no"):
            print("Not saved.")
            return
        save = default if answer.lower() in ("y", "yes") else answer
    path = Path(save)
    try:
        path.write_text(match.to_mat())
    except OSError as e:
        print(f"Could not save the match to {path}: {e.strerror or e}.")
        return
    print(f"Saved the match to {path}.")


def play(length: int, seed: int | None, save: str | None, ply: int = 0, bot_name: str = BOT_NAME) -> int:
    """Plays a match to `length` points (0: one money game) against ``Bot(ply)``, named
    `bot_name`, and saves its `.mat` record to `save` (or where the player says at the end)."""
    bot = Bot(ply=ply)
    match = Match(length, seed=seed)
    match.names = ("You", capitalised(bot_name))
    kind = f"a {length}-point match" if length else "a money game"
    print(f"gammon play: {kind} against {bot_name} at {ply}-ply (seed {match.seed}).")
    print("Type help at any prompt for its commands, ? for what can be typed there.")
    status = 0
    try:
        Session(match, bot, bot_name).run()
    except Quit as why:
        print(f"\nStopped: {why}.")
        status = 1
    save_record(match, save)
    return status
