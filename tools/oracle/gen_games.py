"""Games driven action by action inside GNU Backgammon, with gnubg's IDs after every action.

Run inside gnubg's embedded Python (Debian package ``gnubg``), from the repository root::

    gnubg -t -q -p tools/oracle/gen_games.py

Both players are set to "human" and every action is a gnubg command issued by this script: the
plays come from gnubg's ``hint`` list (the best play or, at random, another listed one), the cube
and resignation decisions are drawn from a seeded ``random.Random``. The dice are gnubg's own
(``set seed``). After each action the script records ``gnubg.positionid()`` and
``gnubg.matchid()``; ``tests/fixtures/games/gnubg_games.csv`` holds one row per action::

    session,length,step,action,position_id,match_id

Actions: ``opening D0 D1`` (the opening roll gnubg threw: player 0's die, player 1's die),
``roll D1 D2``, ``move TEXT`` (gnubg's notation), ``double``, ``take``, ``drop``, ``beaver``,
``resign KIND`` (1 single, 2 gammon, 3 backgammon), ``accept``, ``reject``, and ``end W P`` (gnubg's
record of the finished game: winner and points; it changes nothing). The Rust test
``rust/backgammon/tests/gnubg_games.rs`` replays the actions and compares the IDs field by field.
"""

import base64
import os
import random
import sys

import gnubg

OUT = os.environ.get("ORACLE_OUT", "tests/fixtures/games/gnubg_games.csv")
SEED = 20240611
# (length, jacoby, gnubg seed); length 0 is a money session of MONEY_GAMES games.
SESSIONS = [(1, 0, 11), (3, 0, 12), (5, 0, 13), (5, 0, 14), (7, 0, 15), (0, 1, 16), (0, 0, 17)]
MONEY_GAMES = 6


def decode_match_id(mid):
    key = base64.b64decode(mid + "==")

    def get(offset, width):
        return sum(((key[(offset + b) // 8] >> ((offset + b) % 8)) & 1) << b for b in range(width))

    return {
        "cube": 1 << get(0, 4),
        "owner": get(4, 2),
        "move": get(6, 1),
        "crawford": get(7, 1),
        "state": get(8, 3),
        "turn": get(11, 1),
        "doubled": get(12, 1),
        "resign": get(13, 2),
        "d1": get(15, 3),
        "d2": get(18, 3),
        "length": get(21, 15),
        "score": (get(36, 15), get(51, 15)),
    }


def run_session(index, length, jacoby, seed, rng, rows):
    cmd = gnubg.command
    for c in (
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "set automatic move off",
        "set automatic bearoff off",
        "set automatic game off",
        "set jacoby %s" % ("on" if jacoby else "off"),
        "set beavers 1",
        "set seed %d" % seed,
    ):
        cmd(c)
    step = [0]

    def record(action):
        rows.append(
            "%d,%d,%d,%s,%s,%s" % (index, length, step[0], action, gnubg.positionid(), gnubg.matchid())
        )
        step[0] += 1

    def opening():
        m = decode_match_id(gnubg.matchid())
        hi, lo = max(m["d1"], m["d2"]), min(m["d1"], m["d2"])
        record("opening %d %d" % ((hi, lo) if m["move"] == 0 else (lo, hi)))

    cmd("new match %d" % length if length else "new session")
    opening()
    games = 1
    while True:
        m = decode_match_id(gnubg.matchid())
        if m["state"] != 1:
            info = gnubg.match()["games"][-1]["info"]
            record("end %d %d" % (0 if info["winner"] == "X" else 1, info["points-won"]))
            over = length and max(decode_match_id(gnubg.matchid())["score"]) >= length
            if over or (not length and games >= MONEY_GAMES):
                return
            cmd("new game")
            games += 1
            opening()
            continue
        if m["resign"]:
            if rng.random() < 0.7:
                cmd("accept")
                record("accept")
            else:
                cmd("reject")
                record("reject")
            continue
        if m["doubled"]:
            r = rng.random()
            if not length and r < 0.15 and m["turn"] != m["move"] and m["cube"] <= 8:
                cmd("redouble")
                record("beaver")
            elif r < 0.75:
                cmd("take")
                record("take")
            else:
                cmd("drop")
                record("drop")
            continue
        if m["d1"] == 0:
            r = rng.random()
            may_double = not m["crawford"] and m["owner"] in (3, m["move"]) and m["cube"] < 64
            if may_double and r < 0.12:
                cmd("double")
                record("double")
            elif r > 0.985:
                kind = rng.choice((1, 2, 3))
                cmd("resign %s" % ("single", "gammon", "backgammon")[kind - 1])
                record("resign %d" % kind)
            else:
                cmd("roll")
                # A roll that cannot be played passes at once: its dice are only in the record.
                dice = gnubg.match()["games"][-1]["game"][-1]["dice"]
                record("roll %d %d" % tuple(dice))
            continue
        hint = gnubg.hint(8)
        moves = [h["move"] for h in hint["hint"]]
        text = moves[0] if rng.random() < 0.6 else rng.choice(moves)
        cmd("move " + text)
        record("move " + text)


def main():
    rng = random.Random(SEED)
    rows = ["session,length,step,action,position_id,match_id"]
    for i, (length, jacoby, seed) in enumerate(SESSIONS):
        run_session(i, length, jacoby, seed, rng, rows)
    with open(OUT, "w") as f:
        f.write("\n".join(rows) + "\n")
    sys.stderr.write("wrote %d actions to %s\n" % (len(rows) - 1, OUT))


main()
