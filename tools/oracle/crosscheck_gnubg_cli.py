"""Second opinion: re-check the fixtures with the GNU Backgammon program itself.

Optional.  Runs inside gnubg's embedded Python (Debian package ``gnubg``),
from the repository root:

    gnubg -t -q -p tools/oracle/crosscheck_gnubg_cli.py 2>&1 | tail -1

The ``gnubg`` module only exists inside that interpreter (Debian puts the
program in the ``games`` bin directory).  gnubg prints a board for every
position it is given, hence the tail.  Set ORACLE_SAMPLE_EVERY=N to check
only every N-th row of legal_plays.csv (default 1 = all rows).  For every row
it sets the board and the dice, asks ``hint`` for all plays at 0 ply, applies
each hinted play to the board itself and compares the resulting Position IDs
with the fixture.
"""

import csv
import os
import sys

try:
    HERE = os.path.dirname(os.path.abspath(__file__))
except NameError:  # gnubg -p executes the file without setting __file__
    HERE = os.path.join(os.getcwd(), "tools", "oracle")
sys.path.insert(0, HERE)
FIXTURES = os.path.join(HERE, "..", "..", "tests", "fixtures")

import gnubg  # noqa: E402  (provided by the gnubg program)
from oracle_common import decode_id, encode_id  # noqa: E402


def apply_steps(board, steps):
    """Apply gnubg (from, to) pairs (25 = bar, 0 = off) in the mover's numbering.

    A combined step such as 24/20 only hits on its landing point; gnubg spells
    intermediate hits out as separate steps.
    """
    opp, me = list(board[0]), list(board[1])
    for frm, to in steps:
        me[frm - 1] -= 1
        if me[frm - 1] < 0:
            raise ValueError("no checker on %d" % frm)
        if to > 0:
            me[to - 1] += 1
            o = 25 - to  # opponent's own point
            if opp[o - 1] == 1:
                opp[o - 1] = 0
                opp[24] += 1
            elif opp[o - 1] > 1:
                raise ValueError("landing on a made point %d" % to)
    return [opp, me]


def gnubg_cli_results(pid, d1, d2):
    gnubg.command("set board %s" % pid)
    gnubg.command("set dice %d%d" % (d1, d2))
    if gnubg.positionid() != pid:
        raise AssertionError("gnubg did not accept %s" % pid)
    board = decode_id(pid)
    hints = gnubg.hint(10000)["hint"]
    if not hints:
        return [pid]
    return sorted(encode_id(apply_steps(board, gnubg.parsemove(h["move"]))) for h in hints)


def main():
    every = int(os.environ.get("ORACLE_SAMPLE_EVERY", "1"))
    gnubg.command("set display off")
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("set evaluation chequerplay evaluation plies 0")
    gnubg.command("new game")
    checked = bad = 0
    for name, step in (("opening_counts.csv", 1), ("edge_cases.csv", 1), ("legal_plays.csv", every)):
        with open(os.path.join(FIXTURES, name)) as fh:
            for i, row in enumerate(csv.DictReader(fh)):
                if i % step:
                    continue
                d1, d2 = int(row["d1"]), int(row["d2"])
                got = gnubg_cli_results(row["position_id"], d1, d2)
                if "results" in row:
                    ok = got == row["results"].split()
                else:
                    ok = len(got) == int(row["count"])
                checked += 1
                if not ok:
                    bad += 1
                    print(
                        "DIFF %s %s %d-%d: gnubg program gives %d results"
                        % (name, row["position_id"], d1, d2, len(got))
                    )
    print("gnubg program cross-check: %d rows checked, %d differ" % (checked, bad))


main()
