"""Times GNU Backgammon's ``analyse match`` of one file, for docs/analysis.md.

    GNUBG_FILE=tests/fixtures/analysis/noisy_7pt_d.mat GNUBG_PLY=2 GNUBG_THREADS=2 \\
        gnubg -t -q -p tools/analysis/gnubg_time.py

Chequer play and cube decisions at ``GNUBG_PLY`` on ``GNUBG_THREADS`` threads; prints the seconds.
"""

import os
import time

import gnubg

path = os.environ.get("GNUBG_FILE", "tests/fixtures/analysis/noisy_7pt_d.mat")
ply = int(os.environ.get("GNUBG_PLY", "2"))
threads = int(os.environ.get("GNUBG_THREADS", "2"))
for c in (
    "set display off",
    "set threads %d" % threads,
    "import mat %s" % path,
    "set analysis chequerplay evaluation plies %d" % ply,
    "set analysis cubedecision evaluation plies %d" % ply,
):
    gnubg.command(c)
start = time.time()
gnubg.command("analyse match")
print("gnubg analyse match: %s at %d-ply on %d threads in %.3f s" % (path, ply, threads, time.time() - start))
