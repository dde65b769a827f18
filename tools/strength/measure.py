"""How far the bot's cube decisions and probabilities are from GNU Backgammon's 2-ply.

Measurement only, no test: it reads the fixtures that ``tools/strength/gen_fixtures.py`` made
with gnubg (``tests/fixtures/strength/``) and needs nothing but gammon itself. gnubg 2-ply is
the referee; gnubg 0-ply is a reference line beside ours. ``docs/strength.md`` defines every
figure and holds the tables this prints::

    python tools/strength/measure.py              # both tables, in a few seconds
    python tools/strength/measure.py cube --plies 0
    python tools/strength/measure.py probabilities
    python tools/strength/measure.py labels --rollouts 36x7 144x7 36xfull
    python tools/strength/measure.py cube --plies 0 --cube-rollouts 36x7 36xfull

``labels`` judges the teachers a net can learn from (``refine``'s labels), not the bot: the
cubeless equity of the bot's net at 0-ply and 1-ply and of its variance-reduced rollouts of
TRIALS games truncated after PLIES plies (``full``: played to the end), each against gnubg 2-ply
on the probability fixture. ``--cube-rollouts`` adds to the cube table our cube model fed those
rollouts' probabilities: what a 0-ply net that had learned them exactly would decide.

Cube decisions, for each case, by gnubg 2-ply's three cubeful equities (normalised to the cube,
for the player on roll) ``nd``, ``dt``, ``dp``:

* the doubler's error: ``best - nd`` for no double, ``best - min(dt, dp)`` for a double, where
  ``best = max(nd, min(dt, dp))`` (a double is worth what the proper answer gives);
* the taker's error: ``dt - min(dt, dp)`` for a take, ``dp - min(dt, dp)`` for a pass;
* both: their sum; agreement is the verdict (double or not, take or pass) equal to gnubg 2-ply's,
  where a tie of the doubler's equities (gnubg's "optional double") agrees either way.
"""

from __future__ import annotations

import argparse
import csv
import math
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path

from gammon import Bot, CubeContext, Position, rollout

FIXTURES = Path(__file__).resolve().parents[2] / "tests" / "fixtures" / "strength"
TIE = 1e-5  # the referee computes in single precision
OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon", "equity")
MODEL = "our model, gnubg 2-ply's probabilities"
# The bot's shipped net, as the tables name it.
BOT_NET = "net-v14"
# The bot judges back games by a net of their own, beside that net.
BOT_BACK_GAME_NET = "back-game-v1"
BOT_ROW = f"{BOT_NET} and {BOT_BACK_GAME_NET} (the bot, 0-ply)"
CLASS_ORDER = ("contact", "crashed", "race")
BACK_GAMES = "back games"
# The pips a back-gamer trails by, at least: refine's --back-games rule, whose labels aim here.
BACK_GAME_DEFICIT = 30


def back_game(position: Position) -> bool:
    """Whether one side holds two or more points of the other's home board and trails the race by
    at least ``BACK_GAME_DEFICIT`` pips, as ``refine --back-games`` selects positions (a group of
    the tables across gnubg's classes)."""
    board = position.to_list()
    ours, theirs = position.pips

    def holds(points: range, sign: int) -> bool:
        return sum(1 for i in points if sign * board[i] >= 2) >= 2

    return (holds(range(1, 7), -1) and ours + BACK_GAME_DEFICIT <= theirs) or (
        holds(range(19, 25), 1) and theirs + BACK_GAME_DEFICIT <= ours
    )


def words_verdict(action: str) -> tuple[bool, bool]:
    """(double, take) from gnubg's words ("Too good to double, pass", "Optional double, take")."""
    low = action.lower()
    double = low.startswith(("double", "redouble", "optional"))
    return double, "take" in low or "beaver" in low


def errors(nd: float, dt: float, dp: float, double: bool, take: bool) -> tuple[float, float]:
    """The doubler's and the taker's error of a verdict, by the referee's three equities."""
    answer = min(dt, dp)
    best = max(nd, answer)
    doubler = best - (answer if double else nd)
    taker = (dt if take else dp) - answer
    return doubler, taker


def agrees(
    nd: float, dt: float, dp: float, ref: tuple[bool, bool], got: tuple[bool, bool], optional: bool
) -> bool:
    """Whether a verdict is the referee's; ``optional``: the referee calls the double optional."""
    doubler_tie = optional or abs(nd - min(dt, dp)) < TIE
    taker_tie = abs(dt - dp) < TIE
    return (doubler_tie or ref[0] == got[0]) and (taker_tie or ref[1] == got[1])


def error_kind(
    ref_action: str, got: tuple[bool, bool], doubler: float, taker: float
) -> list[tuple[str, float]]:
    """The kinds of the errors a verdict makes, named by the referee's proper action."""
    kinds = []
    if doubler > 0:
        if got[0]:
            too_good = ref_action.lower().startswith("too good")
            kinds.append(("doubles when too good" if too_good else "doubles too early", doubler))
        else:
            kinds.append(("misses a double", doubler))
    if taker > 0:
        kinds.append(("takes a pass" if got[1] else "passes a take", taker))
    return kinds


KINDS = ("doubles too early", "misses a double", "doubles when too good", "takes a pass", "passes a take")


def context_of(row: dict[str, str]) -> CubeContext:
    if row["length"] == "0":
        return CubeContext.money()
    ctx = CubeContext.match((int(row["away_us"]), int(row["away_them"])))
    return ctx


class Tally:
    """Sums of one decision maker's agreement and errors over a group of cases."""

    def __init__(self) -> None:
        self.n = 0
        self.agree = 0
        self.doubler = 0.0
        self.taker = 0.0
        self.worst = 0.0

    def add(self, agree: bool, doubler: float, taker: float) -> None:
        self.n += 1
        self.agree += agree
        self.doubler += doubler
        self.taker += taker
        self.worst = max(self.worst, doubler + taker)

    def cells(self) -> str:
        n = max(self.n, 1)
        both = (self.doubler + self.taker) / n
        return (
            f"{100 * self.agree / n:.1f}% | {self.doubler / n:.4f} | {self.taker / n:.4f} | "
            f"{both:.4f} | {self.worst:.3f}"
        )


def cube(plies: list[int], limit: int | None, rollouts: Sequence[str] = ()) -> None:
    rows = list(csv.DictReader(open(FIXTURES / "cube_cases.csv")))[:limit]
    by_rollout = [f"our model, our rollout {shape}'s probabilities" for shape in rollouts]
    deciders = ["gnubg 0-ply", MODEL] + [f"Bot(ply={p})" for p in plies] + by_rollout
    bots = {f"Bot(ply={p})": Bot(ply=p) for p in plies}
    tallies: dict[tuple[str, str], Tally] = defaultdict(Tally)
    groups_order: list[str] = []
    kinds: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0, 0.0])
    seconds = dict.fromkeys(bots, 0.0)
    for row in rows:
        nd, dt, dp = float(row["no_double"]), float(row["double_take"]), float(row["double_pass"])
        ref = words_verdict(row["action"])
        optional = row["action"].lower().startswith("optional")
        position = Position.from_id(row["position_id"])
        ctx = context_of(row)
        if row["context"].endswith("_post") and not ctx.post_crawford:
            raise SystemExit(f"{row['context']}: our context is not post-Crawford")
        verdicts = {"gnubg 0-ply": words_verdict(row["action_0ply"])}
        # Our cube model fed the referee's own cubeless probabilities: what is left of our error
        # with a perfect 0-ply net, the part that only a better cube model (or search) can remove.
        referee_probabilities = [float(row[k]) for k in OUTPUTS[:5]]
        model = ctx.decide(position, referee_probabilities)
        verdicts[MODEL] = (model.double, model.take)
        # The same model fed our own rollout's cubeless probabilities: what a net that learned
        # those rollouts perfectly would give at 0-ply.
        for shape, name in zip(rollouts, by_rollout):
            r = label_rollout(position, shape)
            decided = ctx.decide(position, cumulative(r))
            verdicts[name] = (decided.double, decided.take)
        for name, bot in bots.items():
            start = time.perf_counter()
            action = bot.cube_action(position, ctx)
            seconds[name] += time.perf_counter() - start
            verdicts[name] = (action.double, action.take)
        groups = [f"{row['context']}", f"class: {row['pos_class']}", "all"]
        if back_game(position):
            groups.append(BACK_GAMES)
        for g in groups[:1]:
            if g not in groups_order:
                groups_order.append(g)
        for name, got in verdicts.items():
            doubler, taker = errors(nd, dt, dp, *got)
            for kind, cost in error_kind(row["action"], got, doubler, taker):
                kinds[(kind, name)][0] += 1
                kinds[(kind, name)][1] += cost
            for g in groups:
                tallies[(g, name)].add(agrees(nd, dt, dp, ref, got, optional), doubler, taker)
    classes = [
        f"class: {c}"
        for c in (*CLASS_ORDER, "bearoff1", "bearoff2")
        if tallies[(f"class: {c}", deciders[0])].n
    ]
    print(f"Cube decisions against gnubg 2-ply: {len(rows)} cases")
    print()
    print("| cases | decider | agreement | doubler's error | taker's error | both | worst case |")
    print("|---|---|---|---|---|---|---|")
    for g in [*groups_order, *classes, BACK_GAMES, "all"]:
        for name in deciders:
            t = tallies[(g, name)]
            if t.n:
                print(f"| {g} ({t.n}) | {name} | {t.cells()} |")
    print()
    print("| error | " + " | ".join(deciders) + " |")
    print("|---|" + "---|" * len(deciders))
    for kind in KINDS:
        cells = [f"{kinds[(kind, n)][0]:.0f} ({kinds[(kind, n)][1]:.3f})" for n in deciders]
        print(f"| {kind} | " + " | ".join(cells) + " |")
    print()
    for name, s in seconds.items():
        print(f"{name}: {1000 * s / max(len(rows), 1):.2f} ms a decision")


def net_v4(position: Position) -> list[float]:
    """The rollouts' net (net-v4) on a position: a rollout truncated at once is its evaluation."""
    r = rollout(position, trials=1, truncate=0, policy="net-fast", threads=1, variance_reduction=False)
    return [r.win, r.win_gammon, r.win_backgammon, r.lose_gammon, r.lose_backgammon, r.equity]


def cubeless_equity(p: list[float]) -> float:
    return 2 * p[0] - 1 + p[1] - p[3] + p[2] - p[4]


def probabilities(limit: int | None) -> None:
    rows = list(csv.DictReader(open(FIXTURES / "probabilities.csv")))[:limit]
    bot = Bot(ply=0)
    sums: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0] * 7)
    worst_check = 0.0
    for row in rows:
        ref = [float(row[k]) for k in OUTPUTS[:5]]
        ref.append(cubeless_equity(ref))
        gnubg0 = [float(row[k + "_0ply"]) for k in OUTPUTS[:5]]
        gnubg0.append(cubeless_equity(gnubg0))
        position = Position.from_id(row["position_id"])
        e = bot.evaluate(position)
        ours = [getattr(e, k) for k in OUTPUTS]
        # The truncated rollout must give the evaluator itself: checked on the bot's own net.
        r = rollout(position, trials=1, truncate=0, policy="net-all", threads=1, variance_reduction=False)
        worst_check = max(worst_check, abs(r.win - e.win), abs(r.equity - e.equity))
        groups = [row["pos_class"], "all"]
        if back_game(position):
            groups.append(BACK_GAMES)
        for name, got in (
            (BOT_ROW, ours),
            ("net-v4 (rollouts)", net_v4(position)),
            ("gnubg 0-ply", gnubg0),
        ):
            for cls in groups:
                s = sums[(cls, name)]
                for i in range(6):
                    s[i] += (got[i] - ref[i]) ** 2
                s[6] += 1
    if worst_check > 1e-6:
        raise SystemExit(f"a truncated net-all rollout differs from Bot.evaluate by {worst_check}")
    print(f"Root-mean-square error against gnubg 2-ply: {len(rows)} positions")
    print()
    print(
        "| class | evaluator | win | win gammon | win backgammon | lose gammon | lose backgammon | equity |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for cls in (*CLASS_ORDER, BACK_GAMES, "all"):
        for name in (BOT_ROW, "net-v4 (rollouts)", "gnubg 0-ply"):
            s = sums[(cls, name)]
            if not s[6]:
                continue
            cells = " | ".join(f"{math.sqrt(s[i] / s[6]):.4f}" for i in range(6))
            print(f"| {cls} ({int(s[6])}) | {name} | {cells} |")


def label_rollout(position: Position, shape: str):
    """A rollout as ``refine``'s labels make it: ``TRIALSxPLIES``, or ``TRIALSxfull`` for games
    played to the end. net-all: the bot's net judging every play, as the labels do with the
    rollouts' screen in front of it (no difference a duel can see)."""
    trials, plies = shape.split("x")
    truncate = None if plies == "full" else int(plies)
    return rollout(position, trials=int(trials), truncate=truncate, policy="net-all", seed=1)


def cumulative(r) -> list[float]:
    """A rollout's five chances made cumulative: with variance reduction a small one can come
    out a little below zero or above the one it is part of."""
    win = min(max(r.win, 0.0), 1.0)
    wg = min(max(r.win_gammon, 0.0), win)
    lg = min(max(r.lose_gammon, 0.0), 1.0 - win)
    return [win, wg, min(max(r.win_backgammon, 0.0), wg), lg, min(max(r.lose_backgammon, 0.0), lg)]


def labels(rollouts: list[str], limit: int | None) -> None:
    """Root-mean-square equity error of each label source against gnubg 2-ply, by class."""
    rows = list(csv.DictReader(open(FIXTURES / "probabilities.csv")))[:limit]
    bots = {ply: Bot(ply=ply) for ply in (0, 1)}
    sources: dict[str, Callable[[Position], float]] = {
        f"{BOT_NET} {ply}-ply": (lambda p, ply=ply: bots[ply].evaluate(p).equity) for ply in bots
    }
    for shape in rollouts:
        sources[f"rollout {shape}"] = lambda p, shape=shape: label_rollout(p, shape).equity
    print(f"Root-mean-square equity error against gnubg 2-ply: {len(rows)} positions")
    print()
    print("| label | " + " | ".join(CLASS_ORDER) + " | seconds |")
    print("|---|" + "---|" * (len(CLASS_ORDER) + 1))
    for name, equity in sources.items():
        start = time.perf_counter()
        sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        for row in rows:
            ref = cubeless_equity([float(row[k]) for k in OUTPUTS[:5]])
            s = sums[row["pos_class"]]
            s[0] += (equity(Position.from_id(row["position_id"])) - ref) ** 2
            s[1] += 1
        cells = " | ".join(f"{math.sqrt(sums[c][0] / max(sums[c][1], 1)):.4f}" for c in CLASS_ORDER)
        print(f"| {name} | {cells} | {time.perf_counter() - start:.0f} |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=("cube", "probabilities", "labels", "all"), default="all")
    parser.add_argument("--plies", type=int, nargs="+", default=[0, 1], help="the bot's depths")
    parser.add_argument("--limit", type=int, default=None, help="only the first N rows")
    parser.add_argument(
        "--rollouts", nargs="*", default=["36x7"], help="labels: TRIALSxPLIES (or TRIALSxfull) of each"
    )
    parser.add_argument(
        "--cube-rollouts",
        nargs="*",
        default=[],
        help="cube: also our model fed our rollouts' probabilities, TRIALSxPLIES or TRIALSxfull",
    )
    args = parser.parse_args()
    if args.what in ("cube", "all"):
        cube(args.plies, args.limit, args.cube_rollouts)
        print()
    if args.what in ("probabilities", "all"):
        probabilities(args.limit)
    if args.what == "labels":
        labels(args.rollouts, args.limit)


if __name__ == "__main__":
    main()
