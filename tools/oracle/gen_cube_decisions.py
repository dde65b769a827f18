"""GNU Backgammon's 0-ply cube decisions, and the take points and gammon values of its MET.

Run inside gnubg's embedded Python (Debian package ``gnubg``), from the repository root::

    gnubg -t -q -p tools/oracle/gen_cube_decisions.py 2>&1 | tail -4

It writes two files (see ``tools/oracle/README.md`` for every column):

* ``tests/fixtures/cube/decisions.csv``: positions from seeded gnubg 0-ply self-play games (cube
  unused, so the games run to the end), each judged before the roll at 0 ply in thirteen
  contexts (money with and without the Jacoby rule, money with an owned 2-cube, and ten match
  scores including the Crawford game and post-Crawford play). The numbers come from
  ``gnubg.cfevaluate`` and are checked against the text of gnubg's ``hint`` command, in equity
  and, for match play, in match winning chances.
* ``tests/fixtures/cube/take_points.csv``: for every pair of away scores 1..11 (pre-Crawford,
  Crawford game and post-Crawford), gnubg's match equity, the dead-cube take point of a double
  from a 1-cube or a 2-cube derived from it, gnubg's gammon values and gnubg's market window for a
  position without gammons; two money rows at the end.

Everything is deterministic: gnubg's dice come from ``set seed`` and the sampling of positions
from ``random.Random(SEED)``. It takes about a minute and a half.
"""

import csv
import os
import random
import re
import sys
import tempfile
import time

import gnubg

# gnubg runs scripts without their folder on the path; they are run from the repository root.
sys.path.insert(0, "tools/oracle")
from oracle_common import GNUBG_CLASSES  # noqa: E402

OUT_DIR = os.environ.get("ORACLE_OUT", "tests/fixtures/cube")
SEED = 20240917  # sampling of positions
DICE_SEED = 4711  # gnubg's dice in the self-play games
GAMES = 40
MET_FILE = "Kazaross-XG2.xml"  # gnubg's default table, in its own data directory
MAX_AWAY = 11
# The evaluation behind every number: 0 ply, cubeful, no noise (pruning nets do not change a 0-ply
# evaluation). The same as the ``set evaluation cubedecision`` settings that ``hint`` uses.
EVAL = {"cubeful": 1, "plies": 0, "deterministic": 1, "prune": 1, "noise": 0.0}

# How many positions of each kind: doubling candidates (contact, 55-95% cubeless wins), races,
# bear-offs (both sides home) and the rest (contact outside that band).
QUOTAS = [("candidate", 70), ("race", 35), ("bearoff", 25), ("other", 30)]

# (tag, match length (0 = money), points of the player on roll, points of the opponent,
#  cube value, cube owner, Crawford game, Jacoby, beavers)
CONTEXTS = [
    ("money", 0, 0, 0, 1, "centred", 0, 0, 1),
    ("money_owned2", 0, 0, 0, 2, "us", 0, 0, 1),
    ("money_jacoby", 0, 0, 0, 1, "centred", 0, 1, 1),
    ("m5_5a5a", 5, 0, 0, 1, "centred", 0, 0, 0),
    ("2a2a", 5, 3, 3, 1, "centred", 0, 0, 0),
    ("3a5a", 5, 2, 0, 1, "centred", 0, 0, 0),
    ("4a2a", 5, 1, 3, 1, "centred", 0, 0, 0),
    ("owned2_4a4a", 7, 3, 3, 2, "us", 0, 0, 0),
    ("crawford_1a3a", 5, 4, 2, 1, "centred", 1, 0, 0),
    ("crawford_3a1a", 5, 2, 4, 1, "centred", 1, 0, 0),
    ("postcrawford_4a1a", 5, 1, 4, 1, "centred", 0, 0, 0),
    ("postcrawford_2a1a", 5, 3, 4, 1, "centred", 0, 0, 0),
    ("postcrawford_1a3a", 5, 4, 2, 1, "centred", 0, 0, 0),
]

# gnubg's position classes (``classifypos``) that a cube decision can meet.
CLASSES = GNUBG_CLASSES

EXPECTED_EFFICIENCY = """Parameters for cube evaluations:
Cube efficiency for crashed positions : 0.6800
Cube efficiency for contact positions : 0.6800
Cube efficiency for one sided bearoff positions : 0.6000
Cube efficiency for race: x = pips * 0.00125 + 0.55000
(min value 0.6000, max value 0.7000)"""

DECISION_COLUMNS = (
    "position_id,match_id,context,length,away_us,away_them,cube,owner,crawford,jacoby,beavers,"
    "win,win_gammon,win_backgammon,lose_gammon,lose_backgammon,"
    "no_double,double_take,double_pass,may_double,double,take,beaver,pos_class,action"
).split(",")
TAKE_POINT_COLUMNS = (
    "away_us,away_them,state,cube,met_us,may_double,mwc_drop,mwc_take_win,mwc_take_lose,"
    "take_point_dead,gammon_value_us,backgammon_value_us,gammon_value_them,backgammon_value_them,"
    "window_us_low,window_us_high,window_us_live_low,window_us_live_high"
).split(",")

cmd = gnubg.command


def captured(command):
    """Run a gnubg command and return what it printed on file descriptors 1 and 2."""
    sys.stdout.flush()
    sys.stderr.flush()
    fd, path = tempfile.mkstemp()
    saved = os.dup(1), os.dup(2)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    try:
        cmd(command)
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        os.close(saved[0])
        os.close(saved[1])
        os.close(fd)
    with open(path) as f:
        text = f.read()
    os.unlink(path)
    return text


def check(ok, message):
    if not ok:
        raise AssertionError(message)


# ---------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------


def configure():
    """Set and verify everything the numbers depend on; return a description of it."""
    met_path = gnubg.show("matchequitytable 1").splitlines()[1].strip("()")
    check(os.path.basename(met_path) == MET_FILE, "gnubg did not start with %s but %s" % (MET_FILE, met_path))
    for c in (
        "set display off",
        "set matchequitytable " + met_path,
        "set evaluation chequerplay evaluation plies 0",
        "set evaluation cubedecision evaluation plies 0",
        "set evaluation chequerplay evaluation cubeful on",
        "set evaluation cubedecision evaluation cubeful on",
        "set evaluation chequerplay evaluation prune on",
        "set evaluation cubedecision evaluation prune on",
        "set evaluation chequerplay evaluation noise 0",
        "set evaluation cubedecision evaluation noise 0",
        "set output mwc off",
        "set output digits 5",
        "set beavers 3",
    ):
        captured(c)
    version = captured("show version").strip().splitlines()[0]
    check(version.startswith("GNU Backgammon 1.07"), "unexpected gnubg version: " + version)
    efficiency = gnubg.show("cubeefficiency").strip()
    check(
        efficiency == EXPECTED_EFFICIENCY, "cube efficiency settings differ from the defaults:\n" + efficiency
    )
    met = gnubg.show("matchequitytable 1").splitlines()[0]
    check("Kazaross XG2" in met, "wrong MET: " + met)
    evaluation = gnubg.show("evaluation")
    cube_part = evaluation[evaluation.index("Cube decisions:") :]
    for needle in ("0-ply evaluation.", "Cubeful evaluations.", "Noiseless evaluations."):
        check(needle in cube_part, "cube evaluation setting missing: " + needle)
    return version, met


# ---------------------------------------------------------------------------
# Match equities (from gnubg's own table)
# ---------------------------------------------------------------------------


class Met:
    """gnubg's MET as returned by ``gnubg.met``: pre-Crawford and post-Crawford tables."""

    def __init__(self, size):
        pre, post0, post1 = gnubg.met(size)
        check(post0 == post1, "post-Crawford tables differ per player")
        self.pre, self.post = pre, post0

    def table(self, a, b, post):
        """MWC of the side a-away against b-away (a, b >= 1). ``post``: 1-away scores are post-Crawford."""
        if a == 1 and b == 1:
            return 0.5
        if post and b == 1:
            return self.post[a - 1]
        if post and a == 1:
            return 1.0 - self.post[b - 1]
        return self.pre[a - 1][b - 1]

    def after(self, a, b, won, post):
        """MWC of the side a-away after it wins ``won`` points (negative: loses) in a game whose
        successor is post-Crawford when ``post`` (a Crawford or post-Crawford game is being played)."""
        if won > 0:
            a -= won
        else:
            b += won
        if a <= 0:
            return 1.0
        if b <= 0:
            return 0.0
        return self.table(a, b, post)


def outcome_mwc(met, a, b, cube, probs, post):
    """Cubeless MWC of the player on roll (a-away) with the cube dead at ``cube``."""
    win, wg, wbg, lg, lbg = probs
    lose = 1.0 - win
    pts = [
        (win - wg, cube),
        (wg - wbg, 2 * cube),
        (wbg, 3 * cube),
        (lose - lg, -cube),
        (lg - lbg, -2 * cube),
        (lbg, -3 * cube),
    ]
    return sum(p * met.after(a, b, n, post) for p, n in pts)


# ---------------------------------------------------------------------------
# Positions from self-play
# ---------------------------------------------------------------------------


def self_play_positions():
    """Distinct positions met before a roll in seeded 0-ply self-play games (cube not used)."""
    for c in (
        "set player 0 gnubg",
        "set player 1 gnubg",
        "set player 0 chequerplay evaluation plies 0",
        "set player 1 chequerplay evaluation plies 0",
        "set cube use off",
        "set automatic game off",
        "set jacoby off",
        "set seed %d" % DICE_SEED,
    ):
        captured(c)
    seen = []
    known = set()
    for _ in range(GAMES):
        captured("new session")
        for record in gnubg.match()["games"][-1]["game"]:
            if record["action"] == "move" and record["board"] not in known:
                known.add(record["board"])
                seen.append(record["board"])
    for c in ("set cube use on", "set player 0 human", "set player 1 human"):
        captured(c)
    return seen


def new_game(command):
    """``new match N`` or ``new session``, then name the players (a new match restores gnubg's
    default names): player 0, on roll in every position here, is ``us``."""
    captured(command)
    captured("set player 0 name us")
    captured("set player 1 name them")


def money_cubeinfo(cube, owner, jacoby, beavers):
    ci = gnubg.cubeinfo(cube, {"centred": -1, "us": 0}[owner], 0, 0, (0, 0), 0, 0)
    ci["jacoby"] = jacoby
    ci["beavers"] = beavers
    return ci


def kind_of(board, probs):
    cls = CLASSES.get(gnubg.classifypos(board, 0))
    check(cls is not None, "unexpected position class for %s" % gnubg.positionid(board))
    if cls.startswith("bearoff"):
        return cls, "bearoff"
    if cls == "race":
        return cls, "race"
    return cls, "candidate" if 0.55 <= probs[0] <= 0.95 else "other"


def choose_positions(pids, rng):
    """Take positions in a seeded random order until every quota of ``QUOTAS`` is full."""
    ci = money_cubeinfo(1, "centred", 0, 0)
    order = sorted(pids)
    rng.shuffle(order)
    quota = dict(QUOTAS)
    chosen, classes, examined = [], {}, 0
    for pid in order:
        if not any(quota.values()):
            break
        examined += 1
        board = gnubg.positionfromid(pid)
        if gnubg.classifypos(board, 0) == 0:
            continue  # game over
        cls, kind = kind_of(board, gnubg.evaluate(board, ci, EVAL))
        if quota[kind]:
            quota[kind] -= 1
            classes[pid] = cls
            chosen.append(pid)
    check(not any(quota.values()), "not enough positions: %r" % quota)
    return sorted(chosen), classes, examined


# ---------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------


def context_cubeinfo(ctx):
    tag, length, s_us, s_them, cube, owner, crawford, jacoby, beavers = ctx
    ci = gnubg.cubeinfo(cube, {"centred": -1, "us": 0}[owner], 0, length, (s_us, s_them), crawford, 0)
    ci["jacoby"] = jacoby
    ci["beavers"] = beavers
    return ci


def may_double(ctx):
    """Whether gnubg lets the player on roll double here."""
    tag, length, s_us, s_them, cube, owner, crawford, jacoby, beavers = ctx
    if not length:
        return True
    return not crawford and cube < length - s_us


def start(ctx):
    """A new session or match with the context's Jacoby rule, ready for ``set gnubgid``."""
    tag, length, s_us, s_them, cube, owner, crawford, jacoby, beavers = ctx
    captured("set jacoby %s" % ("on" if jacoby else "off"))
    new_game("new match %d" % length if length else "new session")


HINT_EQ = re.compile(r"^\d\. (.+?)\s+([-+]?\d+\.\d+)(%?)")
HINT_PROBS = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)\s*$")


def equity_key(label):
    """Which cubeful equity a line of ``hint`` shows ("No double", "Redouble, pass", ...)."""
    label = label.lower()
    if label.startswith("no "):
        return "no_double"
    return "double_pass" if "pass" in label else "double_take"


def parse_hint(text):
    """(probabilities, {no_double, double_take, double_pass}, proper action) from ``hint``."""
    probs, eqs, action = None, {}, None
    for line in text.splitlines():
        m = HINT_PROBS.match(line)
        if m:
            v = [float(x) for x in m.groups()]
            probs = (v[0], v[1], v[2], v[4], v[5])
            continue
        m = HINT_EQ.match(line)
        if m:
            eqs[equity_key(m.group(1))] = float(m.group(2))
        if line.startswith("Proper cube action: "):
            action = re.sub(r" \(\d+\.\d+%\)$", "", line[len("Proper cube action: ") :].strip())
    check(probs is not None and len(eqs) == 3 and action, "cannot read hint output:\n" + text)
    return probs, eqs, action


def verdict(action):
    """(double, take, beaver) from gnubg's words."""
    low = action.lower()
    double = low.startswith("double") or low.startswith("redouble")
    beaver = "beaver" in low
    take = beaver or "take" in low
    check(take != ("pass" in low), "unclear action " + action)
    return double, take, beaver


def emg_to_mwc(met, ctx, eq):
    """gnubg's equivalent-money-game equity back to MWC: -1 = lose the cube, +1 = win it."""
    tag, length, s_us, s_them, cube, owner, crawford, jacoby, beavers = ctx
    a, b = length - s_us, length - s_them
    post = crawford or a == 1 or b == 1
    won, lost = met.after(a, b, cube, post), met.after(a, b, -cube, post)
    return lost + (eq + 1.0) / 2.0 * (won - lost)


def decide(ctx, pid, met, pos_class, stats):
    tag, length, s_us, s_them, cube, owner, crawford, jacoby, beavers = ctx
    board = gnubg.positionfromid(pid)
    ci = context_cubeinfo(ctx)
    probs = gnubg.evaluate(board, ci, EVAL)[:5]
    optimal, nd, dt, dp, code, action = gnubg.cfevaluate(board, ci, EVAL)
    mid = gnubg.matchid(ci, gnubg.posinfo(0, 0, 0, 1, (0, 0)))
    captured("set gnubgid %s:%s" % (pid, mid))
    check(gnubg.positionid() == pid and gnubg.matchid() == mid, "gnubg did not take %s:%s" % (pid, mid))
    allowed = may_double(ctx)
    hint = captured("hint")
    if not allowed:
        # No cube action: gnubg's hint refuses, cfevaluate still answers with a dead-cube text.
        check("You cannot double." in hint, "%s %s: hint gave a cube analysis:\n%s" % (tag, pid, hint))
        check(action.startswith("Never "), "%s %s: %s" % (tag, pid, action))
        if crawford:
            # The cube is dead in the Crawford game: no double equals the cubeless MWC.
            a, b = length - s_us, length - s_them
            mwc = outcome_mwc(met, a, b, cube, probs, True)
            check(abs(emg_to_mwc(met, ctx, nd) - mwc) < 2e-6, "%s %s: Crawford no-double" % (tag, pid))
        dt = dp = None
        double, take, beaver = False, None, None
    else:
        h_probs, h_eqs, h_action = parse_hint(hint)
        check(
            max(abs(x - y) for x, y in zip(h_probs, probs)) <= 6e-6, "%s %s: hint probabilities" % (tag, pid)
        )
        for key, value in (("no_double", nd), ("double_take", dt), ("double_pass", dp)):
            check(
                abs(h_eqs[key] - value) <= 6e-6,
                "%s %s: hint %s %r vs %r" % (tag, pid, key, h_eqs[key], value),
            )
        check(h_action == action, "%s %s: hint says %r, cfevaluate %r" % (tag, pid, h_action, action))
        check(abs(dp - 1.0) < 1e-5, "%s %s: double/pass %r" % (tag, pid, dp))
        double, take, beaver = verdict(action)
        check(beavers or not beaver, "beaver without beavers")
        if length:
            # Same numbers as match winning chances, to pin down the normalisation.
            captured("set output mwc on")
            _, h_mwc, _ = parse_hint(captured("hint"))
            captured("set output mwc off")
            for key, value in (("no_double", nd), ("double_take", dt), ("double_pass", dp)):
                got = emg_to_mwc(met, ctx, value) * 100.0
                check(
                    abs(h_mwc[key] - got) <= 6e-5, "%s %s: MWC %s %r vs %r" % (tag, pid, key, h_mwc[key], got)
                )
            stats["mwc_checked"] += 1
        stats["hint_checked"] += 1
    row = [pid, mid, tag, str(length)]
    row += [str(length - s_us), str(length - s_them)] if length else ["", ""]
    row += [str(cube), owner, str(crawford), str(jacoby), str(beavers)]
    row += ["%.6f" % p for p in probs]
    row += ["%.6f" % nd, fmt(dt), fmt(dp), str(int(allowed)), flag(double), flag(take)]
    row += [flag(beaver) if beavers else "", pos_class, action]
    return row, double


def fmt(x):
    return "" if x is None else "%.6f" % x


def flag(x):
    return "" if x is None else str(int(x))


# ---------------------------------------------------------------------------
# Take points, gammon values, market windows
# ---------------------------------------------------------------------------

# A position without gammon chances for either side, so that gnubg's market window is the one of
# its MET alone: both sides have borne off checkers.
NO_GAMMON_BOARD = ((2, 2, 2, 2, 1, 1) + (0,) * 19, (2, 2, 2, 2, 1, 1) + (0,) * 19)
WINDOW = re.compile(r"(\d+\.\d+)% - +(\d+\.\d+)%")


def parse_gammon_values(text):
    values = {}
    for line in text.splitlines()[1:]:
        parts = line.split()
        if len(parts) == 3:
            values[parts[0]] = (float(parts[1]), float(parts[2]))
    return values


def parse_match_window(text, name):
    """Dead and live market window of player ``name`` (percent), from ``show marketwindow``."""
    block = text.split("Player %s market window:" % name, 1)[1].split("market window:", 1)[0]
    dead = live = None
    for line in block.splitlines():
        m = WINDOW.search(line)
        if not m:
            continue
        if line.startswith("Dead cube") and dead is None:
            dead = (float(m.group(1)), float(m.group(2)))
        elif line.startswith("Live cube"):
            live = (float(m.group(1)), float(m.group(2)))
    check(dead is not None, "no dead-cube window:\n" + text)
    return dead, live


def parse_money_window(text, name, cube):
    """(double point, cash point) dead and live for player ``name`` from the money table."""
    block = text.split("Player %s cube parameters:" % name, 1)[1]
    rows = {}
    for line in block.splitlines():
        m = re.match(r"(.+?\(\w+\))\s+(\d+\.\d+)%\s+(\d+\.\d+)%", line)
        if m:
            rows.setdefault(m.group(1), (float(m.group(2)), float(m.group(3))))
    double = rows["Initial Double Point (IDP)" if cube == 1 else "Redouble Point (RDP)"]
    cash = rows["Cash Point (CP)"]
    return (double[0], cash[0]), (double[1], cash[1]), rows["Take Point (TP)"]


def take_point_rows(met):
    rows = []
    names = ("us", "them")  # players 0 (on roll) and 1, as named by new_game
    us, them = names
    for a in range(1, MAX_AWAY + 1):
        for b in range(1, MAX_AWAY + 1):
            if a == 1 and b == 1:
                states = ["post"]
            elif a == 1 or b == 1:
                states = ["crawford", "post"]
            else:
                states = ["pre"]
            for state in states:
                for cube in (1, 2):
                    if cube == 2 and (state != "pre"):
                        continue  # a 2-cube owned by us is only met before the Crawford game
                    rows.append(take_point_row(met, a, b, state, cube, us, them))
    for cube in (1, 2):
        rows.append(money_take_point_row(cube, us, them))
    return rows


def take_point_row(met, a, b, state, cube, us, them):
    names = (us, them)
    length = max(a, b) + 2 if state == "pre" else max(a, b)
    crawford = int(state == "crawford")
    post = state != "pre"
    owner = -1 if cube == 1 else 0
    ci = gnubg.cubeinfo(cube, owner, 0, length, (length - a, length - b), crawford, 0)
    mid = gnubg.matchid(ci, gnubg.posinfo(0, 0, 0, 1, (0, 0)))
    new_game("new match %d" % length)
    captured("set gnubgid %s:%s" % (gnubg.positionid(NO_GAMMON_BOARD), mid))
    check(gnubg.matchid() == mid, "gnubg did not take match id %s" % mid)
    met_us = met.table(a, b, state == "post")  # the Crawford game is the pre-Crawford table's 1-away
    allowed = not crawford and cube < a
    drop = take_win = take_lose = tp = None
    if allowed:
        drop = met.after(a, b, cube, post)
        take_win = met.after(a, b, 2 * cube, post)
        take_lose = met.after(a, b, -2 * cube, post)
        tp = (take_win - drop) / (take_win - take_lose) if take_win > take_lose else None
    # Gammon values: show gammonvalues (5 decimals) and the cube-info prices (gnubg's equity
    # units, twice the value; the backgammon price is the extra over a gammon).
    prices = ci["gammonprice"]
    gv = []
    for p in (0, 1):
        g = prices[p][0] / 2.0
        gv += [g, g + prices[p][1] / 2.0]
    shown = parse_gammon_values(gnubg.show("gammonvalues"))
    for k, name in enumerate(names):
        check(
            abs(shown[name][0] - gv[2 * k]) < 6e-6 and abs(shown[name][1] - gv[2 * k + 1]) < 6e-6,
            "gammon values %d-away %d-away" % (a, b),
        )
    w1 = met.after(a, b, cube, post)
    l1 = met.after(a, b, -cube, post)
    if w1 > l1:
        # The textbook definition from the MET: (win gammon - win single) / (win single - lose single).
        mine = (met.after(a, b, 2 * cube, post) - w1) / (w1 - l1)
        check(abs(mine - gv[0]) < 1e-5, "gammon value %d-away %d-away: %r vs %r" % (a, b, mine, gv[0]))
    window = gnubg.show("marketwindow")
    low = high = live_low = live_high = None
    if allowed:
        dead, live = parse_match_window(window, us)
        low, high = dead
        if live:
            live_low, live_high = live
        if tp is not None:
            check(
                abs((100.0 - high) - 100.0 * tp) <= 0.0051,
                "window %d-away %d-away cube %d: %r vs %r" % (a, b, cube, high, tp),
            )
    return (
        [
            str(a),
            str(b),
            state,
            str(cube),
            "%.6f" % met_us,
            str(int(allowed)),
            fmt(drop),
            fmt(take_win),
            fmt(take_lose),
            fmt(tp),
        ]
        + ["%.6f" % x for x in gv]
        + [pct(low), pct(high), pct(live_low), pct(live_high)]
    )


def money_take_point_row(cube, us, them):
    captured("set jacoby off")
    new_game("new session")
    ci = money_cubeinfo(cube, "centred" if cube == 1 else "us", 0, 1)
    mid = gnubg.matchid(ci, gnubg.posinfo(0, 0, 0, 1, (0, 0)))
    captured("set gnubgid %s:%s" % (gnubg.positionid(NO_GAMMON_BOARD), mid))
    shown = parse_gammon_values(gnubg.show("gammonvalues"))
    dead, live, tp = parse_money_window(gnubg.show("marketwindow"), us, cube)
    check(tp == (25.0, 20.0), "money take points %r" % (tp,))
    gv = list(shown[us]) + list(shown[them])
    return (
        ["", "", "money", str(cube), "", "1", "", "", "", "%.6f" % 0.25]
        + ["%.6f" % x for x in gv]
        + [pct(dead[0]), pct(dead[1]), pct(live[0]), pct(live[1])]
    )


def pct(x):
    return "" if x is None else "%.4f" % (x / 100.0)


# ---------------------------------------------------------------------------


def write_csv(name, header, rows):
    with open(os.path.join(OUT_DIR, name), "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")  # quotes gnubg's action text, which has a comma
        out.writerow(header)
        out.writerows(rows)


def main():
    t0 = time.time()
    version, met_name = configure()
    met = Met(MAX_AWAY)
    pids = self_play_positions()
    chosen, classes, examined = choose_positions(pids, random.Random(SEED))
    stats = {"hint_checked": 0, "mwc_checked": 0}
    rows, summary = [], []
    for ctx in CONTEXTS:
        start(ctx)
        doubles = 0
        for pid in chosen:
            row, double = decide(ctx, pid, met, classes[pid], stats)
            rows.append(row)
            doubles += bool(double)
        summary.append("%s %d" % (ctx[0], doubles))
    tp_rows = take_point_rows(met)
    os.makedirs(OUT_DIR, exist_ok=True)
    write_csv("decisions.csv", DECISION_COLUMNS, rows)
    write_csv("take_points.csv", TAKE_POINT_COLUMNS, tp_rows)
    sys.stderr.write("%s; %s; eval %r\n" % (version, met_name, EVAL))
    sys.stderr.write("%d distinct positions, %d examined, %d kept\n" % (len(pids), examined, len(chosen)))
    sys.stderr.write("doubles per context: %s\n" % ", ".join(summary))
    sys.stderr.write(
        "wrote %d decisions (%d checked against hint, %d also in MWC) and %d take-point rows in %.0f s\n"
        % (len(rows), stats["hint_checked"], stats["mwc_checked"], len(tp_rows), time.time() - t0)
    )


main()
