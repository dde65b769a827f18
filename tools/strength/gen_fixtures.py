"""The strength fixtures: cube decisions and probabilities judged by GNU Backgammon 1.07 at 2-ply.

Run inside gnubg's embedded Python (Debian package ``gnubg``), from the repository root::

    nice gnubg -t -q -p tools/strength/gen_fixtures.py 2>&1 | tail -12

Positions come from the real matches of ``tests/fixtures/mat-corpus`` (every position met before a
roll, seen from the player on roll). It writes two files, described column by column in
``docs/strength.md``:

* ``tests/fixtures/strength/cube_cases.csv``: positions where, at a given score, gnubg's 2-ply
  says the cube decision is not trivial (the doubler's or the taker's margin is within ``BAND``),
  with gnubg's three cubeful equities and verdict at 2-ply and at 0-ply.
* ``tests/fixtures/strength/probabilities.csv``: contact, crashed and race positions (gnubg's own
  classes) with gnubg's cubeless money probabilities at 2-ply and at 0-ply.

gnubg is the referee here, never a teacher: nothing may be trained on these numbers. Everything
is deterministic (the sampling is seeded); it takes a few minutes.
"""

import csv
import glob
import os
import random
import sys
import time

import gnubg

# gnubg runs scripts without their folder on the path; they are run from the repository root.
sys.path.insert(0, "tools/oracle")
from oracle_common import GNUBG_CLASSES  # noqa: E402

OUT_DIR = os.environ.get("STRENGTH_OUT", "tests/fixtures/strength")
CORPUS = "tests/fixtures/mat-corpus"
SEED = 20261201

# Evaluation contexts: 2-ply is gnubg's "world class" depth (the default analysis setting); pruning
# as in that setting; no noise.
EVAL0 = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}
EVAL2 = dict(EVAL0, plies=2)

# A case is kept when gnubg's 2-ply puts the doubler's margin |no_double - min(double_take,
# double_pass)| or the taker's margin |double_take - double_pass| within BAND (equity normalised to
# the current cube). The 0-ply screen with the looser SCREEN_BAND only saves 2-ply evaluations.
BAND = 0.10
SCREEN_BAND = 0.30
TIE = 1e-5  # gnubg computes in single precision

# (tag, match length (0 = money), points of the player on roll, points of the opponent, cases)
# The cube is centred, no Jacoby rule, no beavers.
CONTEXTS = [
    ("money", 0, 0, 0, 160),
    ("2a4a", 5, 3, 1, 160),
    ("4a2a", 5, 1, 3, 160),
    ("3a3a", 5, 2, 2, 160),
    ("5a5a", 7, 2, 2, 160),
    ("3a1a_post", 5, 2, 4, 160),
]

# gnubg's position classes (``classifypos``) and the probability fixture's quota of each.
CLASSES = GNUBG_CLASSES
PROB_QUOTA = {"contact": 600, "crashed": 600, "race": 600}

CUBE_COLUMNS = (
    "position_id,match_id,context,length,away_us,away_them,pos_class,"
    "win,win_gammon,win_backgammon,lose_gammon,lose_backgammon,"
    "no_double,double_take,double_pass,action,"
    "no_double_0ply,double_take_0ply,double_pass_0ply,action_0ply"
).split(",")
PROB_COLUMNS = (
    "position_id,pos_class,win,win_gammon,win_backgammon,lose_gammon,lose_backgammon,"
    "win_0ply,win_gammon_0ply,win_backgammon_0ply,lose_gammon_0ply,lose_backgammon_0ply"
).split(",")


def check(ok, message):
    if not ok:
        raise AssertionError(message)


def quiet(command):
    """Run a gnubg command with its output thrown away (``import mat`` prints every board)."""
    sys.stdout.flush()
    saved = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    try:
        gnubg.command(command)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def corpus_positions():
    """Distinct positions before a roll in the corpus's matches, as Position IDs, sorted."""
    files = sorted(
        glob.glob(os.path.join(CORPUS, "*", "*.txt")) + glob.glob(os.path.join(CORPUS, "*", "*.mat"))
    )
    check(len(files) == 99, "expected the 99 matches of the corpus, found %d" % len(files))
    seen = set()
    for path in files:
        quiet("import mat %s" % path)
        for game in gnubg.match()["games"]:
            for record in game["game"]:
                if record.get("action") == "move":
                    seen.add(record["board"])
    return sorted(seen)


def cubeinfo(length, s_us, s_them):
    # Player 0 is on roll; the cube is centred (owner -1) at 1; no Crawford game. gnubg's money
    # cubeinfo takes the Jacoby rule from its settings (on by default): off here, as beavers.
    ci = gnubg.cubeinfo(1, -1, 0, length, (s_us, s_them), 0, 0)
    ci["jacoby"] = 0
    ci["beavers"] = 0
    return ci


def margins(nd, dt, dp):
    return abs(nd - min(dt, dp)), abs(dt - dp)


def non_trivial(nd, dt, dp, band):
    # A doubler's margin of zero is a tie where either choice gives the same equity (a certain win
    # without gammons, where doubling cashes; the post-Crawford trailer's double, which gnubg calls
    # optional): nothing to decide there, so only the taker's margin can make such a case.
    doubler, taker = margins(nd, dt, dp)
    return TIE < doubler <= band or taker <= band


def verdict_consistent(nd, dt, dp, action):
    """gnubg's words agree with its equities (ties are 'Optional')."""
    low = action.lower()
    take = "take" in low
    check(take == (dt <= dp) or abs(dt - dp) < TIE, "take verdict %r against %r %r" % (action, dt, dp))
    if low.startswith("optional"):
        # gnubg calls a double optional within a small tolerance of a tie, not only at one.
        check(abs(nd - min(dt, dp)) < 1e-3, "optional double with a margin: %r %r %r" % (nd, dt, dp))
    elif low.startswith("double") or low.startswith("redouble"):
        check(min(dt, dp) > nd - TIE, "double verdict %r against %r %r %r" % (action, nd, dt, dp))
    else:
        check(min(dt, dp) <= nd + TIE, "no double verdict %r against %r %r %r" % (action, nd, dt, dp))


def cube_cases(pids, classes):
    rows = []
    for index, (tag, length, s_us, s_them, quota) in enumerate(CONTEXTS):
        rng = random.Random(SEED + index)
        order = list(pids)
        rng.shuffle(order)
        ci = cubeinfo(length, s_us, s_them)
        mid = gnubg.matchid(ci, gnubg.posinfo(0, 0, 0, 1, (0, 0)))
        kept, screened, deep = 0, 0, 0
        for pid in order:
            if kept == quota:
                break
            cls = classes[pid]
            if cls is None:
                continue
            board = gnubg.positionfromid(pid)
            screened += 1
            _, nd0, dt0, dp0, _, action0 = gnubg.cfevaluate(board, ci, EVAL0)
            if not non_trivial(nd0, dt0, dp0, SCREEN_BAND):
                continue
            deep += 1
            _, nd, dt, dp, _, action = gnubg.cfevaluate(board, ci, EVAL2)
            if not non_trivial(nd, dt, dp, BAND):
                continue
            check(abs(dp - 1.0) < 1e-6 and abs(dp0 - 1.0) < 1e-6, "double/pass is not 1 for %s" % pid)
            verdict_consistent(nd, dt, dp, action)
            verdict_consistent(nd0, dt0, dp0, action0)
            probs = gnubg.evaluate(board, ci, dict(EVAL2, cubeful=0))[:5]
            row = [pid, mid, tag, str(length)]
            row += [str(length - s_us), str(length - s_them)] if length else ["", ""]
            row += [cls] + ["%.6f" % p for p in probs]
            row += ["%.6f" % nd, "%.6f" % dt, "%.6f" % dp, action]
            row += ["%.6f" % nd0, "%.6f" % dt0, "%.6f" % dp0, action0]
            rows.append(row)
            kept += 1
        check(kept == quota, "%s: only %d cases" % (tag, kept))
        print(
            "%-10s %4d cases: %5d positions screened at 0-ply, %5d judged at 2-ply"
            % (tag, kept, screened, deep)
        )
    return rows


def probability_rows(pids, classes):
    rng = random.Random(SEED - 1)
    order = list(pids)
    rng.shuffle(order)
    quota = dict(PROB_QUOTA)
    ci = cubeinfo(0, 0, 0)
    rows = []
    for pid in order:
        cls = classes[pid]
        if not quota.get(cls):
            continue
        quota[cls] -= 1
        board = gnubg.positionfromid(pid)
        two = gnubg.evaluate(board, ci, dict(EVAL2, cubeful=0))[:5]
        zero = gnubg.evaluate(board, ci, dict(EVAL0, cubeful=0))[:5]
        rows.append([pid, cls] + ["%.6f" % p for p in two] + ["%.6f" % p for p in zero])
    print("probabilities: %d positions, unfilled quota %r" % (len(rows), quota))
    return rows


def write(name, columns, rows):
    path = os.path.join(OUT_DIR, name)
    with open(path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(columns)
        out.writerows(rows)
    print("wrote %s (%d rows)" % (path, len(rows)))


def main():
    start = time.time()
    quiet("set display off")
    met = gnubg.show("matchequitytable 1").splitlines()[0]
    check("Kazaross XG2" in met, "wrong match equity table: " + met)
    pids = corpus_positions()
    classes = {}
    for pid in pids:
        classes[pid] = CLASSES.get(gnubg.classifypos(gnubg.positionfromid(pid), 0))
    counts = {}
    for cls in classes.values():
        counts[cls] = counts.get(cls, 0) + 1
    print("%d distinct positions from the corpus: %r" % (len(pids), counts))
    os.makedirs(OUT_DIR, exist_ok=True)
    write("cube_cases.csv", CUBE_COLUMNS, cube_cases(pids, classes))
    write("probabilities.csv", PROB_COLUMNS, probability_rows(pids, classes))
    print("%.0f s" % (time.time() - start))


main()
