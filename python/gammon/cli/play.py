"""``gammon play``: a game or match at the terminal against the built-in bot.

You are player 0 and the bot, ``gammon``, is player 1. The board is drawn from your side
(X are your checkers, you move from 24 towards 1). Type plays in standard notation
(``24/18 13/11``, ``bar/22``, ``6/off``, ``8/5(2)``) or the number of a play listed by ``?``.
Before each roll you may type ``double`` when the cube is yours to turn, or
``resign [single|gammon|backgammon]``; when the bot doubles you answer ``take`` or ``drop`` (or
``beaver``, in a money game with beavers on); ``quit`` stops at any prompt. (Resigning waits for
the roll prompt because a ``.mat`` record holds a resignation only between turns.)

The bot is :class:`gammon.Bot` searching ``--ply`` plies (0 by default):

- it plays the play the bot ranks first;
- before its roll it doubles when the cube is available to it and the bot says double;
- it takes, drops or beavers your doubles as the bot says;
- it always takes a beaver of its own double;
- it accepts every resignation.

The bot is deterministic, so ``--seed`` (the seed of the dice) makes a session reproducible. The
command line plays money games without the Jacoby rule or beavers, the rules a ``.mat`` record
holds; a :class:`Session` over a ``Match(0, beavers=True)`` offers and answers beavers too.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from gammon._core import Bot, CubeContext, Game, GammonError, Match

P = TypeVar("P")

YOU, BOT = 0, 1
NAMES = ("You", "gammon")


class Quit(Exception):
    """The player asked to stop, or the input ended."""


def ask(prompt: str) -> str:
    try:
        return input(prompt).strip()
    except EOFError:
        raise Quit("the input ended") from None


def pick_listed(text: str, plays: Sequence[P]) -> tuple[bool, P | None]:
    """The answers both terminal games share at the play prompt: ``?`` lists the plays and a
    number picks one. Returns ``(answered, play)``: the play picked; or ``(True, None)`` when the
    prompt should be asked again (the list was shown, or the number was out of range); or
    ``(False, None)`` for anything else, such as typed notation."""
    if text in ("?", "list"):
        for i, p in enumerate(plays, 1):
            print(f"{i:4d}. {p}")
        return True, None
    if not text.isdigit():
        return False, None
    if not 1 <= int(text) <= len(plays):
        print(f"  choose a play from 1 to {len(plays)}")
        return True, None
    return True, plays[int(text) - 1]


def dice_text(dice: tuple[int, int]) -> str:
    return f"{dice[0]}-{dice[1]}"


class Session:
    """One game or match between the player at the terminal and the bot."""

    def __init__(self, match: Match, bot: Bot) -> None:
        self.match = match
        self.bot = bot

    def show(self, game: Game) -> None:
        owner = {None: "centred", YOU: "yours", BOT: "gammon's"}[game.cube_owner]
        print()
        print(game.position)
        line = f" You are X. Cube: {game.cube_value} ({owner})"
        if self.match.length:
            line += f". Score: you {self.match.score[0]}, gammon {self.match.score[1]} of {self.match.length}"
        print(line + ".")

    def show_your_side(self, game: Game) -> None:
        """The board from your side while gammon is on roll (the diagram names X as on roll, so its
        last line is replaced)."""
        yours = game.position.swapped()
        print()
        print("\n".join(str(yours).splitlines()[:-1]))
        (you, bot), (your_off, bot_off) = yours.pips, yours.off
        print(f" You are X: pips {you}, off {your_off} | gammon (O, on roll): pips {bot}, off {bot_off}")

    def command(self, game: Game, text: str) -> bool:
        """Handles `quit` and `resign`; True when `text` was one of them."""
        word, _, rest = text.partition(" ")
        if word == "quit":
            raise Quit("you quit")
        if word == "resign" and game.dice is not None:
            print("  resign before you roll, at the roll prompt")
            return False
        if word == "resign":
            game.resign(rest.strip() or "single")
            print(f"You resign a {game.resignation[1] if game.resignation else 'single'} game.")
            game.accept_resignation()
            print("gammon accepts.")
            return True
        return False

    def your_roll(self, game: Game) -> None:
        may_double = game.may_double
        self.show(game)
        choices = "roll, double, resign or quit" if may_double else "roll, resign or quit"
        while True:
            answer = ask(f"{choices}? [roll] ").lower()
            try:
                if self.command(game, answer):
                    return
                if answer in ("", "r", "roll"):
                    break
                if answer in ("d", "double"):
                    self.double(game)
                    if game.is_over:
                        return
                    break
                print(f"  type {choices.replace('resign', 'resign [single|gammon|backgammon]')}")
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
            print(f"gammon beavers: the cube is at {game.history[-1].value} if you take.")
            self.answer_double(game, "take or drop")
        elif verdict.take:
            game.take()
            print(f"gammon takes: the cube is at {game.cube_value}.")
        else:
            game.drop()
            print("gammon drops.")

    def answer_double(self, game: Game, choices: str) -> None:
        """Your answer to the bot's double, or to its beaver of yours: one of ``choices``."""
        while True:
            answer = ask(f"{choices}? ").lower()
            try:
                if answer == "quit":
                    raise Quit("you quit")
                if answer in ("t", "take"):
                    game.take()
                    owner = "yours" if game.cube_owner == YOU else "gammon's"
                    print(f"You take: the cube is at {game.cube_value}, {owner}.")
                    return
                if answer in ("d", "drop", "p", "pass"):
                    game.drop()
                    print("You drop.")
                    return
                if answer in ("b", "beaver") and "beaver" in choices:
                    game.beaver()
                    # The engine gives no verdict on a beaver; the bot doubled because playing on
                    # at the higher cube beat not doubling, so it plays on.
                    game.take()
                    print(f"You beaver; gammon takes: the cube is at {game.cube_value}, yours.")
                    return
                print(f"  type {choices}")
            except GammonError as e:
                print(f"  {e}")

    def your_play(self, game: Game) -> None:
        plays = game.legal_plays()
        assert game.dice is not None
        dice = dice_text(game.dice)
        if game.history[-1].kind == "opening_roll":
            self.show(game)  # there was no roll prompt to show it
        print(f"You roll {dice}.")
        if len(plays) == 1:
            game.play(plays[0])
            print(f"The only play is {plays[0] or 'no move'}.")
            return
        while True:
            text = ask(f"your play ({dice}, ? lists them): ")
            try:
                if self.command(game, text.lower()) or text.lower().startswith("resign"):
                    continue
                answered, picked = pick_listed(text, plays)
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

    def bot_turn(self, game: Game) -> None:
        if game.dice is None and game.may_double and self.bot_doubles(game):
            if game.is_over:
                return
        dice = game.dice or game.roll()  # the opening roll is already thrown
        if game.dice is None:
            print(f"gammon rolls {dice_text(dice)} and cannot move.")
            return
        play = self.bot.best_play(game.position, *dice, context=CubeContext.from_game(game))
        game.play(play)
        print(f"gammon rolls {dice_text(dice)} and plays {play}.")

    def bot_doubles(self, game: Game) -> bool:
        """The bot's double before its roll, when its cube decision says so, and your answer;
        True when it doubled."""
        if not self.bot.cube_action(game).double:
            return False
        game.double()
        self.show_your_side(game)
        print(f"gammon doubles to {game.history[-1].value}.")
        self.answer_double(game, "take, drop or beaver" if game.beavers else "take or drop")
        return True

    def play_game(self, game: Game) -> None:
        game.roll()
        mine, theirs = game.history[0].dice or (0, 0)
        first = "you play" if game.turn == YOU else "gammon plays"
        print(f"Opening roll: you {mine}, gammon {theirs}; {first} first.")
        if self.match.is_crawford_game:
            print("This is the Crawford game: nobody may double.")
        while not game.is_over:
            if game.turn == BOT:
                self.bot_turn(game)
            elif game.dice is None:
                self.your_roll(game)
            else:
                self.your_play(game)
        who = "You win" if game.winner == YOU else "gammon wins"
        print(f"{who} a {game.result_kind} game: {game.points} point{'s' if game.points != 1 else ''}.")

    def run(self) -> None:
        while True:
            self.play_game(self.match.game)
            if self.match.length == 0 or self.match.is_over:
                break
            a, b = self.match.score
            print(f"Score: you {a}, gammon {b} (match to {self.match.length}).")
            self.match.next_game()
        if self.match.is_over:
            a, b = self.match.score
            who = "You win" if self.match.winner == YOU else "gammon wins"
            print(f"{who} the match {max(a, b)}-{min(a, b)}.")


def default_file_name() -> str:
    return f"gammon-{datetime.datetime.now():%Y-%m-%d-%H%M%S}.mat"


def play(length: int, seed: int | None, save: str | None, ply: int = 0) -> int:
    """Plays a match to `length` points (0: one money game) against ``Bot(ply)`` and saves its
    `.mat` record."""
    bot = Bot(ply=ply)
    match = Match(length, seed=seed)
    match.names = NAMES
    kind = f"a {length}-point match" if length else "a money game"
    print(f"gammon play: {kind} against the bot at {ply}-ply (seed {match.seed}).")
    print("Type ? at the play prompt to list the legal plays.")
    status = 0
    try:
        Session(match, bot).run()
    except Quit as why:
        print(f"\nStopped: {why}.")
        status = 1
    path = Path(save or default_file_name())
    path.write_text(match.to_mat())
    print(f"Saved the match to {path}.")
    return status
