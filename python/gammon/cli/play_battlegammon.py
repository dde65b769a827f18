"""``gammon play --game battlegammon``: one Battlegammon game at the terminal against the bot.

You play Black (you move first, from field 24 down towards field 1); the engine's expectimax
:class:`gammon.battlegammon.Bot` plays White. The board is drawn with ``str(position)`` after
every turn. Type a play as its token moves, ``from/to from/to`` in the order played (``16/12
19/17``; one move when the roll cannot be played in full, or when the first move already wins),
or the number of a play listed by ``?`` (in columns, a page at a time: ``? more``, ``? all``).
``hint`` ranks the plays of your roll by the bot's equity, ``help`` lists the commands and ``quit``
stops. A roll that cannot be played at all, and a roll with a single legal play, are played for you.
The game's end says why it ended: which winning condition was met, or a draw (a deadlock, or the
turn cap).
"""

from __future__ import annotations

import random

from gammon._core import GammonError
from gammon.battlegammon import Bot, Game, Play
from gammon.cli.play import BOT_NAME, PlayList, Quit, ask, capitalised, show_commands

YOU, BOT = "black", "white"
HINT_TOP = 8  # plays shown by hint: the candidates the bot searches to its full depth by default
COMMANDS = [
    ("16/12 19/17", "a play as from/to token moves, in the order played"),
    ("N", "the play numbered N by ?"),
    ("?, ? more, ? all", "the legal plays a page at a time, the next page, or every play"),
    ("hint", "the bot's ranking of the plays of your roll"),
    ("help", "these commands"),
    ("quit", "stop the game"),
]


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

    def __init__(self, seed: int, rule_options: dict[str, int], bot_name: str = BOT_NAME) -> None:
        self.game = Game(seed=seed, **rule_options)
        self.bot = Bot(**rule_options)
        self.name = bot_name

    def hint(self, dice: tuple[int, int]) -> None:
        """The bot's ranking of the plays of your roll, best first, with equities (win minus lose)."""
        ranked = self.bot.rank_plays(self.game.position, *dice)
        best = ranked[0][1]
        print(f"Plays of {dice[0]}-{dice[1]}, ranked by the bot at {self.bot.ply}-ply:")
        width = max(len(str(p)) for p, _ in ranked[:HINT_TOP])
        for rank, (play, equity) in enumerate(ranked[:HINT_TOP], 1):
            diff = "" if rank == 1 else f"  {equity - best:+.4f}"
            print(f"  {rank:3d}. {str(play):<{width}}  {equity:+.4f}{diff}")
        if len(ranked) > HINT_TOP:
            print(f"  ({len(ranked) - HINT_TOP} more plays)")

    def your_play(self, dice: tuple[int, int], plays: list[Play]) -> None:
        """The play prompt: a play typed as token moves or picked from the list."""
        roll = f"{dice[0]}-{dice[1]}"
        if len(plays) == 1:
            played = self.game.play(plays[0])
            print(f"You roll {roll}: the only play is {played}.")
            return
        print(f"You roll {roll}.")
        listed = PlayList(plays)
        while True:
            text = ask(f"your play ({roll}; ? lists them, help): ")
            try:
                word = text.lower()
                if word == "quit":
                    raise Quit("you quit")
                if word == "help":
                    show_commands(COMMANDS)
                    continue
                if word == "hint":
                    self.hint(dice)
                    continue
                if word.startswith("resign"):
                    print("  Battlegammon has no resignation; quit stops the game")
                    continue
                answered, picked = listed.answer(text)
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
        """The bot's roll and play."""
        play = self.bot.best_play(self.game.position, *dice)
        played = self.game.play(play)
        print(f"{capitalised(self.name)} rolls {dice[0]}-{dice[1]} and plays {played}.")

    def ending(self) -> str:
        """Why the game ended, as the engine says (``Game.end_reason``): the winning condition
        met, or the kind of draw."""
        game = self.game
        reason = game.end_reason
        if reason == "turn_cap":
            return f"The game is drawn: it reached the turn cap of {game.rules.get('turn_cap')} turns."
        if reason == "deadlock":
            return f"The game is drawn after {game.turns} turns: neither side can move under any roll."
        side = game.winner
        who = "You win" if side == YOU else f"{capitalised(self.name)} wins"
        opponent = "White" if side == "black" else "Black"
        if reason == "goal":
            return f"{who}: three tokens on {opponent}'s start field."
        unit = "fields" if game.rules.get("count_distinct_fields") else "tokens"
        return f"{who}: eight {unit} on {opponent}'s colour."

    def run(self) -> None:
        """The game, from Black's first roll to its end."""
        while not self.game.is_over:
            if self.game.turn == YOU:
                print()
                print(self.game.position)
                print(f" Position ID: {self.game.position.id}")
            dice = self.game.roll()
            if self.game.turn == YOU:
                self.your_play(dice, self.game.legal_plays())
            else:
                self.bot_play(dice)
        print()
        print(self.game.position)
        print(self.ending())


def play(seed: int | None, rule_options: dict[str, int], bot_name: str = BOT_NAME) -> int:
    """Plays one game against the bot, named `bot_name`; 0 when it was played to the end, 1 when
    stopped."""
    if seed is not None and seed < 0:
        raise GammonError(f"--seed takes a number of at least 0; got {seed}")
    seed = random.randrange(2**32) if seed is None else seed
    session = Session(seed, rule_options, bot_name)
    print(f"gammon play: Battlegammon against {bot_name} (seed {seed}). You are Black and move first.")
    print("Type a play as from/to moves, e.g. 16/12 19/17, ? to list the legal plays, help for the rest.")
    try:
        session.run()
    except Quit as why:
        print(f"\nStopped: {why}.")
        return 1
    return 0
