"""``gammon play --game battlegammon``: one Battlegammon game at the terminal against the bot.

You play Black (you move first, from field 24 down towards field 1); the engine's expectimax
:class:`gammon.battlegammon.Bot` plays White. The board is drawn with ``str(position)`` after
every turn. Type a play as its token moves, ``from/to from/to`` in the order played (``16/12
19/17``; one move when the roll cannot be played in full, or when the first move already wins),
or the number of a play listed by ``?``; ``quit`` stops at any prompt. A roll that cannot be
played at all, and a roll with a single legal play, are played for you.
"""

from __future__ import annotations

import random

from gammon._core import GammonError
from gammon.battlegammon import Bot, Game, Play
from gammon.cli.play import Quit, ask, pick_listed

YOU, BOT = "black", "white"


def parse_moves(text: str) -> list[tuple[int, int]]:
    """``"16/12 19/17"`` as ``[(16, 12), (19, 17)]``; a GammonError names what is wrong."""
    moves = []
    for part in text.replace(",", " ").split():
        start, sep, end = part.partition("/")
        if not sep or not start.strip().isdigit() or not end.strip().isdigit():
            raise GammonError(f"{part!r} is not a move: type from/to field numbers such as 16/12")
        moves.append((int(start), int(end)))
    if not moves:
        raise GammonError("type a play such as 16/12 19/17, or its number from the list (?)")
    return moves


class Session:
    """One game between the player at the terminal and the bot."""

    def __init__(self, seed: int, rule_options: dict[str, int]) -> None:
        self.game = Game(seed=seed, **rule_options)
        self.bot = Bot(**rule_options)

    def your_play(self, dice: tuple[int, int], plays: list[Play]) -> None:
        roll = f"{dice[0]}-{dice[1]}"
        if len(plays) == 1:
            played = self.game.play(plays[0])
            print(f"You roll {roll}: the only play is {played}.")
            return
        print(f"You roll {roll}.")
        while True:
            text = ask(f"your play ({roll}, ? lists them): ")
            try:
                if text.lower() == "quit":
                    raise Quit("you quit")
                answered, picked = pick_listed(text, plays)
                if picked is not None:
                    played = self.game.play(picked)
                elif answered:
                    continue
                else:
                    played = self.game.play(parse_moves(text))
                print(f"You play {played}.")
                return
            except GammonError as e:
                print(f"  {e}")

    def bot_play(self, dice: tuple[int, int]) -> None:
        play = self.bot.best_play(self.game.position, *dice)
        played = self.game.play(play)
        print(f"The bot rolls {dice[0]}-{dice[1]} and plays {played}.")

    def run(self) -> None:
        while not self.game.is_over:
            if self.game.turn == YOU:
                print()
                print(self.game.position)
            dice = self.game.roll()
            if self.game.turn == YOU:
                self.your_play(dice, self.game.legal_plays())
            else:
                self.bot_play(dice)
        print()
        print(self.game.position)
        winner = self.game.winner
        if winner is None:
            print(f"The game is drawn after {len(self.game.history)} turns.")
        else:
            print("You win!" if winner == YOU else "The bot wins.")


def play(seed: int | None, rule_options: dict[str, int]) -> int:
    """Plays one game against the bot; 0 when it was played to the end, 1 when stopped."""
    if seed is not None and seed < 0:
        raise GammonError(f"--seed takes a number of at least 0; got {seed}")
    seed = random.randrange(2**32) if seed is None else seed
    session = Session(seed, rule_options)
    print(f"gammon play: Battlegammon against the bot (seed {seed}). You are Black and move first.")
    print("Type a play as from/to moves, e.g. 16/12 19/17, or ? to list the legal plays.")
    try:
        session.run()
    except Quit as why:
        print(f"\nStopped: {why}.")
        return 1
    return 0
