"""GNU Backgammon's reading of our XGIDs.

Run inside gnubg's embedded Python (Debian package ``gnubg``), from the repository root::

    gnubg -t -q -p tools/oracle/gen_xgid_import.py

For each XGID in ``tests/fixtures/games/ours_xgids.csv`` (written by gammon, see
``rust/backgammon/tests/gnubg_xgids.rs``) it runs ``set gnubgid XGID=...`` and stores the Position ID
and Match ID gnubg then shows in ``tests/fixtures/games/gnubg_xgid_import.csv``::

    xgid,gnubg_id
"""

import gnubg

SRC = "tests/fixtures/games/ours_xgids.csv"
OUT = "tests/fixtures/games/gnubg_xgid_import.csv"


def main():
    rows = ["xgid,gnubg_id"]
    with open(SRC) as f:
        lines = f.read().splitlines()[1:]
    for line in lines:
        xgid = line.split(",")[0]
        gnubg.command("set gnubgid " + xgid)
        rows.append("%s,%s:%s" % (xgid, gnubg.positionid(), gnubg.matchid()))
    with open(OUT, "w") as f:
        f.write("\n".join(rows) + "\n")


main()
