"""Pubeval's choice of play, from GNU Backgammon's copy of Tesauro's evaluator.

GNU Backgammon (PyPI ``gnubg-nn``, imported as ``gnubg_nn``) is an external
oracle only: this script calls ``pub_best_move`` and records the position each
chosen play leads to; no gnubg code is copied.

Input: the (position, roll) rows of ``tests/fixtures/legal_plays.csv``.
Output: ``tests/fixtures/pubeval_choices.csv`` with columns
``position_id,d1,d2,choice``: ``choice`` is the Position ID of the position
after pubeval's play, encoded from the mover's point of view (as the
``results`` column of legal_plays.csv; see README.md).  Blocked rolls are left
out (there is nothing to choose).

Run from the repository root:  python3 tools/oracle/gen_pubeval_choices.py
"""

import csv
import os
import sys

import gnubg_nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracle_common import decode_id, encode_id  # noqa: E402

FIXTURES = os.path.join(HERE, "..", "..", "tests", "fixtures")


def apply_flat(board, flat):
    """Apply pub_best_move's flat list: 0-based points, 24 = bar, -1 = off."""
    opp, me = list(board[0]), list(board[1])
    for k in range(0, len(flat), 2):
        frm, to = flat[k], flat[k + 1]
        assert me[frm] > 0, (board, flat)
        me[frm] -= 1
        if to >= 0:
            # The opponent's own index of our point to+1 is 23 - to.
            if opp[23 - to] == 1:
                opp[23 - to] = 0
                opp[24] += 1
            me[to] += 1
    return [opp, me]


def main():
    rows = []
    with open(os.path.join(FIXTURES, "legal_plays.csv")) as f:
        for rec in csv.DictReader(f):
            results = rec["results"].split()
            if results == [rec["position_id"]]:
                continue
            board = decode_id(rec["position_id"])
            d1, d2 = int(rec["d1"]), int(rec["d2"])
            flat = list(gnubg_nn.pub_best_move(board, d1, d2))
            choice = encode_id(apply_flat(board, flat))
            # The chosen play must be one of gnubg's own legal plays.
            assert choice in results, (rec["position_id"], d1, d2, flat)
            rows.append((rec["position_id"], d1, d2, choice))
    out = os.path.join(FIXTURES, "pubeval_choices.csv")
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["position_id", "d1", "d2", "choice"])
        w.writerows(rows)
    print("wrote %d rows to %s" % (len(rows), os.path.relpath(out)))


if __name__ == "__main__":
    main()
