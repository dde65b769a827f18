"""GNU Backgammon's two-sided bear-off database on random positions: the referee of ours.

Run inside gnubg's embedded Python (Debian package ``gnubg``, 1.07), from the repository root::

    gnubg -t -q -p tools/oracle/gen_bearoff2.py 2>&1 | tail -2

It writes ``tests/fixtures/bearoff/two_sided.csv``: positions where both sides have between one
and six checkers on their home points (the rest borne off), drawn with ``random.Random(SEED)``,
which gnubg classifies as covered by its built-in two-sided database (class 4, "bearoff2": six
points, six checkers a side). For each, gnubg's 0-ply evaluation, which in that class reads the
database: the cubeless chance of winning of the player on roll (``gnubg.evaluate``), and its
cubeful money equities (``gnubg.cfevaluate``, normalised to the cube): no double and
double/take with the cube centred, no double with the cube owned by the player on roll, and the
equity with the cube owned by the opponent. ``rust/bot/tests/bearoff_gnubg.rs`` checks our
database (``rust/bot/src/bearoff/two_sided.rs``) against it.

Deterministic (the positions come from the seed; gnubg's database is exact); a few seconds.
"""

import csv
import os
import random
import sys

import gnubg

sys.path.insert(0, "tools/oracle")
from oracle_common import GNUBG_CLASSES  # noqa: E402

OUT = os.environ.get("ORACLE_OUT", "tests/fixtures/bearoff/two_sided.csv")
SEED = 20261202
COUNT = 400
# 0 ply, cubeful, no noise: in the bearoff2 class gnubg answers from its database.
EVAL = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}
COLUMNS = [
    "position_id",
    "win",
    "centred_no_double",
    "centred_double_take",
    "owned_no_double",
    "theirs_no_double",
]


def random_side(rng):
    """Between one and six checkers on points 1..6, every such board about equally likely by
    checker count."""
    n = rng.randint(1, 6)
    side = [0] * 25
    for _ in range(n):
        side[rng.randrange(6)] += 1
    return side


def money(cube, owner):
    """A money cube: ``owner`` -1 centred, 0 the player on roll, 1 the opponent."""
    ci = gnubg.cubeinfo(cube, owner, 0, 0, (0, 0), 0, 0)
    ci["jacoby"] = 0
    ci["beavers"] = 0
    return ci


def main():
    rng = random.Random(SEED)
    rows, seen = [], set()
    while len(rows) < COUNT:
        board = (random_side(rng), random_side(rng))  # (opponent, player on roll)
        pid = gnubg.positionid(board)
        if pid in seen:
            continue
        seen.add(pid)
        cls = GNUBG_CLASSES.get(gnubg.classifypos(board, 0))
        if cls != "bearoff2":
            raise AssertionError("%s: gnubg class %s, not bearoff2" % (pid, cls))
        probs = gnubg.evaluate(board, money(1, -1), EVAL)
        if any(abs(p) > 1e-9 for p in probs[1:5]):
            raise AssertionError("%s: gammon chances %r in a two-sided bear-off" % (pid, probs))
        centred = gnubg.cfevaluate(board, money(1, -1), EVAL)
        owned = gnubg.cfevaluate(board, money(2, 0), EVAL)
        theirs = gnubg.cfevaluate(board, money(2, 1), EVAL)
        # cfevaluate: (best, no double, double/take, double/pass, code, words).
        rows.append(
            {
                "position_id": pid,
                "win": "%.6f" % probs[0],
                "centred_no_double": "%.6f" % centred[1],
                "centred_double_take": "%.6f" % centred[2],
                "owned_no_double": "%.6f" % owned[1],
                "theirs_no_double": "%.6f" % theirs[1],
            }
        )
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    print("gen_bearoff2: %d positions written to %s" % (len(rows), OUT))


main()
