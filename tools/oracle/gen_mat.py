"""Jellyfish .mat files both ways between GNU Backgammon and gammon.

Run inside gnubg's embedded Python (Debian package ``gnubg``), from the repository root::

    gnubg -t -q -p tools/oracle/gen_mat.py

1. gnubg plays matches against itself (``set seed``; both players ``gnubg``) and exports each with
   ``export match mat``: ``tests/fixtures/mat/gnubg_selfplay_*.mat``.
2. gnubg imports the files gammon wrote (``tests/fixtures/mat/ours_*.mat``, made by
   ``rust/backgammon/tests/mat_files.rs``) with ``import mat``.

For every file, ``tests/fixtures/mat/gnubg_records.csv`` holds what gnubg's own match record says
(``gnubg.match()``), one row per checker play and one per finished game::

    file,game,kind,player,dice,position_id,winner,points

``kind`` is ``play`` (``position_id`` = the board before the play, seen from the mover; ``dice`` the
roll) or ``game`` (``winner`` and ``points`` of the finished game). A last row of kind ``score``
gives gnubg's final score in ``winner`` (player 0) and ``points`` (player 1).
"""

import base64
import glob
import os

import gnubg

DIR = "tests/fixtures/mat"
SELFPLAY = [("gnubg_selfplay_3pt.mat", 3, 101), ("gnubg_selfplay_5pt.mat", 5, 202)]


def score_from_match_id(mid):
    key = base64.b64decode(mid + "==")

    def get(offset, width):
        return sum(((key[(offset + b) // 8] >> ((offset + b) % 8)) & 1) << b for b in range(width))

    return get(36, 15), get(51, 15)


def records(name, rows):
    games = gnubg.match()["games"]
    for k, g in enumerate(games):
        for a in g["game"]:
            if a["action"] == "move":
                player = 0 if a["player"] == "X" else 1
                rows.append(
                    "%s,%d,play,%d,%d%d,%s,," % (name, k + 1, player, a["dice"][0], a["dice"][1], a["board"])
                )
        info = g["info"]
        if info.get("winner"):
            rows.append(
                "%s,%d,game,,,,%d,%d" % (name, k + 1, 0 if info["winner"] == "X" else 1, info["points-won"])
            )
    s0, s1 = score_from_match_id(gnubg.matchid())
    rows.append("%s,,score,,,,%d,%d" % (name, s0, s1))


def main():
    rows = ["file,game,kind,player,dice,position_id,winner,points"]
    for name, length, seed in SELFPLAY:
        for c in (
            "set player 0 gnubg",
            "set player 1 gnubg",
            "set automatic game on",
            "set jacoby off",
            "set seed %d" % seed,
            "new match %d" % length,
        ):
            gnubg.command(c)
        path = os.path.join(DIR, name)
        if os.path.exists(path):
            os.remove(path)  # gnubg will not overwrite a file without asking
        gnubg.command("export match mat %s" % path)
        records(name, rows)
    for c in ("set player 0 human", "set player 1 human"):
        gnubg.command(c)
    for path in sorted(glob.glob(os.path.join(DIR, "ours_*.mat"))):
        gnubg.command("import mat %s" % path)
        records(os.path.basename(path), rows)
    with open(os.path.join(DIR, "gnubg_records.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


main()
