"""Legal-play fixtures produced by GNU Backgammon's move generator.

GNU Backgammon (through the ``gnubg-nn`` PyPI package, imported as
``gnubg_nn``) is used here as an external oracle only: this script calls it,
it never copies any of its code, and the ``gammon`` package never depends on
it.

Outputs (all under ``tests/fixtures/``):

* ``legal_plays.csv``   positions reached in seeded self-play games, each with
                         a roll and gnubg's set of distinct resulting positions;
* ``opening_counts.csv`` number of distinct plays for the 21 opening rolls;
* ``edge_cases.csv``     the legal-move edge cases of docs/formats.md section 7.1.

Conventions (see tools/oracle/README.md for the full description):

* A board is ``[opp, me]``: two lists of 25 counts.  Index ``i`` (0..23) is the
  owner's own point ``i + 1``, index 24 is the owner's bar.  ``me`` is the
  player on roll.  This is gnubg's ``anBoard`` layout (``anBoard[1]`` on roll).
* Position IDs are gnubg's: the player NOT on roll is encoded first.
* Result IDs are encoded from the mover's point of view, i.e. as if the mover
  were still on roll (mover second, opponent first, a hit opponent checker on
  the opponent's bar).

Run from the repository root:  python3 tools/oracle/gen_legal_plays.py
"""

from __future__ import annotations

import argparse
import csv
import os
import random
import sys
from collections import Counter

import gnubg_nn
from oracle_common import (
    all_home,
    board_tuple,
    decode_id,
    encode_id,
    has_contact,
    key_to_board,
    on_board,
    pips,
    reference_results,
    swap,
)

SEED = 20240517
N_GAMES = 400
TARGET_RECORDS = 4000
QUOTA = 400  # aim for at least this many records of each rare tag
OPENING_ID = "4HPwATDgc/ABMA"
TAG_ORDER = ["bar", "bearoff", "blocked", "one_die", "doubles", "hit", "contact", "race"]

REPO_ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(REPO_ROOT, "tests", "fixtures")


# ---------------------------------------------------------------------------
# gnubg oracle
# ---------------------------------------------------------------------------


def gnubg_results(board, d1, d2):
    """Ask gnubg for the legal plays.

    Returns (dict result_id -> result board, dice used).  For a roll that
    cannot be played the only result is the input position itself.
    """
    plays = gnubg_nn.moves(board, d1, d2, 1)
    if not plays:
        pid = gnubg_nn.position_id(board)
        return {pid: [list(board[0]), list(board[1])]}, 0
    results = {}
    used = set()
    for key, steps in plays:
        rb = gnubg_nn.board_from_position_key(key)
        rb = [list(rb[0]), list(rb[1])]
        if key_to_board(key) != rb:
            raise AssertionError("own key decoder disagrees with gnubg for %s" % key)
        pid = gnubg_nn.position_id(rb)
        results[pid] = rb
        used.add(len(steps))
    if len(used) != 1:
        raise AssertionError("gnubg plays use different numbers of dice: %r" % used)
    return results, used.pop()


def check_record(board, pid, d1, d2, results, used):
    """Orientation and bookkeeping checks on one gnubg answer."""
    opp, me = board
    if encode_id(board) != pid or decode_id(pid) != [list(opp), list(me)]:
        raise AssertionError("own Position ID codec disagrees with gnubg on %s" % pid)
    dice_total = used * d1 if d1 == d2 else (d1 + d2 if used == 2 else 0)
    for rid, rb in results.items():
        ropp, rme = rb
        if decode_id(rid) != rb:
            raise AssertionError("result %s does not decode to gnubg's board" % rid)
        off = on_board(me) - on_board(rme)
        if off < 0:
            raise AssertionError("mover gained checkers in %s" % rid)
        drop = pips(me) - pips(rme)
        if used == 1 and d1 != d2:
            # the die used is d1 or d2; pip drop must match one of them
            ok = drop in (d1, d2) if off == 0 else drop <= max(d1, d2)
        elif off == 0:
            ok = drop == dice_total
        else:
            ok = 0 < drop <= dice_total
        if not ok:
            raise AssertionError(
                "pip drop %d inconsistent with %d-%d (%d dice) in %s -> %s" % (drop, d1, d2, used, pid, rid)
            )
        # opponent: same number of checkers, only changes are hits to the bar
        if on_board(ropp) != on_board(opp):
            raise AssertionError("opponent checker count changed in %s" % rid)
        hits = ropp[24] - opp[24]
        for i in range(24):
            if ropp[i] > opp[i]:
                raise AssertionError("opponent checker moved forward in %s" % rid)
        if sum(opp[:24]) - sum(ropp[:24]) != hits:
            raise AssertionError("opponent bookkeeping wrong in %s" % rid)
        if hits > used:
            raise AssertionError("more hits than dice in %s" % rid)


def tags_for(board, d1, d2, results, used):
    opp, me = board
    tags = set()
    if me[24]:
        tags.add("bar")
    if all_home(me) and on_board(me) > 0 and any(on_board(rb[1]) < on_board(me) for rb in results.values()):
        tags.add("bearoff")
    if used == 0:
        tags.add("blocked")
    if d1 != d2 and used == 1 or d1 == d2 and 1 <= used < 4:
        tags.add("one_die")
    if d1 == d2:
        tags.add("doubles")
    if any(rb[0][24] > opp[24] for rb in results.values()):
        tags.add("hit")
    tags.add("contact" if has_contact(board) else "race")
    return [t for t in TAG_ORDER if t in tags]


class Mismatch(Exception):
    pass


def analyse(board, d1, d2, stats):
    """gnubg's answer for one (position, roll), checked and tagged."""
    pid = gnubg_nn.position_id(board)
    results, used = gnubg_results(board, d1, d2)
    check_record(board, pid, d1, d2, results, used)
    ref, ref_used = reference_results(board, d1, d2)
    got = {board_tuple(rb) for rb in results.values()}
    if got != ref or ref_used != used:
        stats["reference_mismatch"] += 1
        raise Mismatch(
            "%s %d-%d: gnubg %d results/%d dice, reference %d results/%d dice"
            % (pid, d1, d2, len(got), used, len(ref), ref_used)
        )
    # gnubg's own classifier agrees with our contact test
    cls = gnubg_nn.classify(board)
    if (cls in (gnubg_nn.c_contact, gnubg_nn.c_crashed)) != has_contact(board):
        raise AssertionError("contact classification differs from gnubg on %s" % pid)
    return {
        "position_id": pid,
        "d1": d1,
        "d2": d2,
        "results": " ".join(sorted(results)),
        "tags": " ".join(tags_for(board, d1, d2, results, used)),
        "_results": results,
    }


# ---------------------------------------------------------------------------
# Self-play
# ---------------------------------------------------------------------------


def roll(rng, first=False):
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if not (first and a == b):
            return max(a, b), min(a, b)


def choose(policy, rng, board, d1, d2, rec):
    """Pick the next board (mover's view) according to ``policy``."""
    results = rec["_results"]
    ids = sorted(results)
    if policy == "mixed":
        policy = "gnubg" if rng.random() < 0.5 else "random"
    if policy == "random" or len(ids) == 1:
        return results[rng.choice(ids)]
    _, key, _ = gnubg_nn.best_move(board, d1, d2, b=1, r=1)
    # best_move's board key has the mover encoded FIRST (the opponent is now on
    # roll); swap it back to the mover's view.
    after = swap(key_to_board(key))
    pid = encode_id(after)
    if pid not in results:
        raise AssertionError("gnubg best move %s is not among its legal plays" % pid)
    return results[pid]


def play_games(rng, n_games, stats):
    records = {}
    policies = ["gnubg", "random", "mixed"]
    for game in range(n_games):
        side_policy = [rng.choice(policies), rng.choice(policies)]
        board = decode_id(OPENING_ID)
        turn = 0
        first = True
        while on_board(board[0]) and on_board(board[1]):
            d1, d2 = roll(rng, first)
            first = False
            rec = analyse(board, d1, d2, stats)
            key = (rec["position_id"], d1, d2)
            if key not in records:
                records[key] = rec
                rec["_game"] = game
            after = choose(side_policy[turn], rng, board, d1, d2, rec)
            board = swap(after)  # opponent now on roll
            turn ^= 1
            stats["moves"] += 1
        stats["games"] += 1
    return records


def select(records, rng, target, quota):
    """Seeded, tag-balanced subset: every rare tag gets ``quota`` records first."""
    keys = sorted(records)
    rng.shuffle(keys)
    rare = ["bar", "bearoff", "blocked", "one_die", "doubles", "hit"]
    have = Counter()
    chosen = []
    rest = []
    for k in keys:
        tags = records[k]["tags"].split()
        if any(t in rare and have[t] < quota for t in tags):
            chosen.append(k)
            have.update(tags)
        else:
            rest.append(k)
    for k in rest:
        if len(chosen) >= target:
            break
        chosen.append(k)
    return sorted(chosen)


# ---------------------------------------------------------------------------
# Opening counts and docs/formats.md section 7.1 edge cases
# ---------------------------------------------------------------------------

SPEC_OPENING = {
    (1, 1): 42,
    (2, 1): 15,
    (2, 2): 75,
    (3, 1): 16,
    (3, 2): 17,
    (3, 3): 73,
    (4, 1): 14,
    (4, 2): 18,
    (4, 3): 17,
    (4, 4): 52,
    (5, 1): 8,
    (5, 2): 8,
    (5, 3): 9,
    (5, 4): 9,
    (5, 5): 4,
    (6, 1): 10,
    (6, 2): 14,
    (6, 3): 14,
    (6, 4): 14,
    (6, 5): 7,
    (6, 6): 11,
}


def make_board(me, opp_own=None, opp_mover=None):
    """Board from {point: count} maps; 25 = bar.

    ``opp_own`` uses the opponent's numbering, ``opp_mover`` the mover's
    numbering (mover's point p is the opponent's point 25 - p).
    """
    b_me = [0] * 25
    b_opp = [0] * 25
    for p, n in me.items():
        b_me[p - 1] += n
    for p, n in (opp_own or {}).items():
        b_opp[p - 1] += n
    for p, n in (opp_mover or {}).items():
        b_opp[(25 - p) - 1] += n
    return [b_opp, b_me]


# (dice, mover, opponent (own numbering), opponent (mover numbering), expected, note)
EDGE_CASES = [
    (
        (1, 2),
        {1: 1, 2: 1},
        {},
        {},
        2,
        "PERL: bear-off 1-2 with 1:1 2:1: 2/off 1/off, or 2/1/off leaving one on the 1-point",
    ),
    (
        (6, 5),
        {1: 1, 2: 1},
        {},
        {},
        1,
        "PERL: bear-off 5-6 with 1:1 2:1: higher dice bear off both from lower points",
    ),
    ((1, 1), {24: 2}, {}, {}, 3, "PERL: 1-1 with 24:2: 24/20, 24/21 24/23, 24/22(2)"),
    (
        (6, 5),
        {24: 1},
        {7: 1},
        {},
        2,
        "PERL: 5-6 with 24:1, opponent blot on its 7 (mover's 18): 24/18*/13 or 24/13 via 19",
    ),
    (
        (6, 5),
        {24: 1},
        {7: 2},
        {},
        1,
        "PERL: 5-6 with 24:1, opponent point on its 7 (mover's 18): only 24/19/13",
    ),
    (
        (6, 6),
        {24: 1},
        {7: 2},
        {},
        0,
        "PERL: 6-6 with 24:1, opponent point on its 7 (mover's 18): no legal play",
    ),
    (
        (6, 5),
        {25: 1},
        {6: 1},
        {},
        2,
        "PERL: 5-6 from the bar, opponent blot on its 6 (mover's 19): bar/19*/14 or bar/20/14",
    ),
    (
        (4, 3),
        {25: 1, 6: 1},
        {1: 2, 2: 2, 5: 2, 6: 2, 7: 2, 23: 2},
        {},
        1,
        "PERL: 3-4 with bar:1 6:1 against opponent points 1 2 5 6 7 23 (own numbering): only bar/21 6/3",
    ),
    (
        (2, 2),
        {4: 1, 3: 1, 2: 4},
        {},
        {22: 2},
        4,
        "WILDBG: 2-2 bear-off with 4:1 3:1 2:4, opponent point on mover's 22",
    ),
    (
        (3, 3),
        {10: 4},
        {},
        {22: 1, 4: 2},
        1,
        "WILDBG: 3-3 with 10:4, opponent on mover's 22 (1) and 4 (2): only 10/7(4)",
    ),
    (
        (3, 3),
        {25: 2},
        {},
        {22: 1, 19: 2},
        1,
        "WILDBG: 3-3 with bar:2, opponent on mover's 22 (1) and 19 (2): bar/22*(2), rest forfeited",
    ),
]


def build_edge_cases(stats):
    rows = []
    for (d1, d2), me, opp_own, opp_mover, expected, note in EDGE_CASES:
        board = make_board(me, opp_own, opp_mover)
        rec = analyse(board, d1, d2, stats)
        n = len(rec["_results"])
        blocked = "blocked" in rec["tags"].split()
        got = 0 if blocked else n
        rows.append(
            {
                "position_id": rec["position_id"],
                "d1": d1,
                "d2": d2,
                "results": rec["results"],
                "tags": rec["tags"],
                "expected_count": expected,
                "gnubg_count": got,
                "note": note,
            }
        )
    return rows


def build_opening(stats):
    rows = []
    board = decode_id(OPENING_ID)
    for d1 in range(1, 7):
        for d2 in range(1, d1 + 1):
            rec = analyse(board, d1, d2, stats)
            rows.append(
                {
                    "position_id": OPENING_ID,
                    "d1": d1,
                    "d2": d2,
                    "count": len(rec["_results"]),
                    "formats_md_count": SPEC_OPENING[(d1, d2)],
                }
            )
    return rows


# ---------------------------------------------------------------------------


def write_csv(path, fields, rows):
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore", lineterminator="\n")
        w.writeheader()
        for r in rows:
            w.writerow(r)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--games", type=int, default=N_GAMES)
    ap.add_argument("--records", type=int, default=TARGET_RECORDS)
    ap.add_argument("--quota", type=int, default=QUOTA)
    ap.add_argument("--out", default=FIXTURES)
    args = ap.parse_args(argv)

    stats = Counter()
    os.makedirs(args.out, exist_ok=True)

    opening = build_opening(stats)
    write_csv(
        os.path.join(args.out, "opening_counts.csv"),
        ["position_id", "d1", "d2", "count", "formats_md_count"],
        opening,
    )
    bad = [r for r in opening if r["count"] != r["formats_md_count"]]
    print(
        "opening: total %d distinct plays, %d rolls disagree with formats.md"
        % (sum(r["count"] for r in opening), len(bad))
    )
    for r in bad:
        print("  %d-%d gnubg %d formats.md %d" % (r["d1"], r["d2"], r["count"], r["formats_md_count"]))

    edges = build_edge_cases(stats)
    write_csv(
        os.path.join(args.out, "edge_cases.csv"),
        ["position_id", "d1", "d2", "results", "tags", "expected_count", "gnubg_count", "note"],
        edges,
    )
    for r in edges:
        flag = "ok " if r["expected_count"] == r["gnubg_count"] else "DIFF"
        print(
            "edge %s %s %d-%d expected %d gnubg %d"
            % (flag, r["position_id"], r["d1"], r["d2"], r["expected_count"], r["gnubg_count"])
        )

    rng = random.Random(args.seed)
    records = play_games(rng, args.games, stats)
    chosen = select(records, rng, args.records, args.quota)
    rows = [records[k] for k in chosen]
    write_csv(os.path.join(args.out, "legal_plays.csv"), ["position_id", "d1", "d2", "results", "tags"], rows)

    tag_count = Counter(t for r in rows for t in r["tags"].split())
    print(
        "games %d, moves %d, distinct records %d, written %d"
        % (stats["games"], stats["moves"], len(records), len(rows))
    )
    print("tags: " + ", ".join("%s=%d" % (t, tag_count[t]) for t in TAG_ORDER))
    print("reference generator mismatches: %d" % stats["reference_mismatch"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
