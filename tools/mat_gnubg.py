"""Compares gammon's reading of `.mat` files with GNU Backgammon's `import mat` (a dev tool).

    python tools/mat_gnubg.py                               # the corpus in tests/fixtures/mat-corpus
    python tools/mat_gnubg.py FILE_OR_DIR ... [--gnubg /usr/games/gnubg] [--json]

For every file both read, it compares the games: their number, each game's winner and the points
it won, and the match's final score (capped at the match length, as a match ends there). gnubg
(`apt-get install gnubg`) is run once, as `gnubg -t -q -p SCRIPT`, importing each file in turn and
writing what it read as JSON; it is a reference for measurement only. Prints one line per file
that differs or that only one side reads, then the totals; `--json` prints them as JSON too.
Exit status 0 when every file gnubg reads is read the same here, or refused by a message that
names a line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import gammon

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "mat-corpus"

# Runs inside gnubg's embedded Python: imports every file listed and records what it read.
GNUBG_SCRIPT = r"""
import gnubg, json, os
files = json.load(open(os.environ["MAT_GNUBG_FILES"]))
out = {}
for path in files:
    try:
        gnubg.command('import mat "%s"' % path)
        m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
        games = []
        for g in m["games"]:
            i = g["info"]
            games.append([i.get("score-X"), i.get("score-O"), i.get("winner"), i.get("points-won")])
        out[path] = {"length": m["match-info"].get("match-length"), "games": games}
    except Exception as e:
        out[path] = {"error": str(e)}
json.dump(out, open(os.environ["MAT_GNUBG_OUT"], "w"))
"""


def files_of(args: list[str]) -> list[Path]:
    """Every file named, and every `.mat` or `.txt` file under the directories named."""
    found: list[Path] = []
    for a in args:
        p = Path(a)
        if p.is_dir():
            found += sorted(f for f in p.rglob("*") if f.suffix in (".mat", ".txt") and f.is_file())
        else:
            found.append(p)
    return found


def text_of(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def ours(path: Path) -> dict:
    """gammon's reading: per game (player 0's score, player 1's score, winner, points), the
    final score capped at the length; or the error."""
    try:
        m = gammon.Match.from_mat(text_of(path))
    except gammon.GammonError as e:
        return {"error": str(e)}
    games = []
    score = [0, 0]
    for g in m.games:
        games.append([score[0], score[1], g.winner, g.points if g.is_over else None])
        if g.is_over and g.winner is not None:
            score[g.winner] += g.points
    return {"length": m.length, "games": games, "final": list(m.score)}


def gnubg_readings(paths: list[Path], gnubg: str, batch: int = 100) -> dict[str, dict]:
    """gnubg's reading of every file, `batch` files per gnubg process: one that stops on a file
    loses only its batch, whose files are then marked unread."""
    readings: dict[str, dict] = {}
    for k in range(0, len(paths), batch):
        readings.update(gnubg_batch(paths[k : k + batch], gnubg))
    return readings


def gnubg_batch(paths: list[Path], gnubg: str) -> dict[str, dict]:
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "read.py")
        script.write_text(GNUBG_SCRIPT)
        listing, out = Path(tmp, "files.json"), Path(tmp, "out.json")
        # gnubg's import takes a quoted path: copies with plain names avoid quoting troubles.
        plain = []
        for k, p in enumerate(paths):
            copy = Path(tmp, f"{k:05d}.mat")
            shutil.copyfile(p, copy)
            plain.append(str(copy))
        listing.write_text(json.dumps(plain))
        env = {**os.environ, "MAT_GNUBG_FILES": str(listing), "MAT_GNUBG_OUT": str(out)}
        subprocess.run(
            [gnubg, "-t", "-q", "-p", str(script)],
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=60 + 5 * len(paths),
            check=False,
        )
        read = json.loads(out.read_text()) if out.exists() else {}
        return {str(p): read.get(copy, {"error": "not read"}) for p, copy in zip(paths, plain)}


def theirs(reading: dict) -> dict:
    """gnubg's reading in our terms: gnubg labels the file's first player (our player 0) X and
    the second O."""
    if "error" in reading:
        return reading
    games = []
    final = [0, 0]
    length = reading.get("length") or 0
    for s0, s1, winner, points in reading["games"]:
        w = {"X": 0, "O": 1}.get(winner)
        games.append([s0, s1, w, points if w is not None else None])
        final = [s0, s1]
        if w is not None:
            final[w] += points
    if length:
        final = [min(s, length) for s in final]
    return {"games": games, "final": final}


def compare(ours_: dict, theirs_: dict) -> str | None:
    """None when the readings agree, else what differs."""
    if "error" in theirs_ or not theirs_["games"]:
        return None if "error" in ours_ else "gnubg reads no game"
    if "error" in ours_:
        return f"refused: {ours_['error']}"
    if len(ours_["games"]) != len(theirs_["games"]):
        return f"{len(ours_['games'])} games here, {len(theirs_['games'])} in gnubg"
    for k, (a, b) in enumerate(zip(ours_["games"], theirs_["games"]), 1):
        if a[2:] != b[2:]:
            return f"game {k}: winner and points {a[2:]} here, {b[2:]} in gnubg"
    if ours_["final"] != theirs_["final"]:
        return f"final score {ours_['final']} here, {theirs_['final']} in gnubg"
    return None


def update_manifest(readings: dict[str, tuple[dict, dict]]) -> None:
    """Fills the columns games, final_score and refused_line of the corpus's manifest.tsv: what
    gnubg reads (the reference) for a file read here, our refusal's line for one refused here."""
    path = CORPUS / "manifest.tsv"
    lines = path.read_text().splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        cols = line.split("\t")[:4]
        mine, gnubg = readings[str(CORPUS / cols[0])]
        if "error" in mine:
            refused = mine["error"].split(":")[0].removeprefix(".mat line ")
            cols += ["", "", refused]
        else:
            games = len(gnubg.get("games", []))
            final = gnubg.get("final", ["", ""])
            cols += [str(games), f"{final[0]}-{final[1]}", ""]
        out.append("\t".join(cols))
    path.write_text("\n".join(out) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", help=f"files or directories (default {CORPUS})")
    parser.add_argument("--gnubg", default=shutil.which("gnubg") or "/usr/games/gnubg", help="gnubg binary")
    parser.add_argument("--json", action="store_true", help="also print the results as JSON")
    parser.add_argument("--batch", type=int, default=100, help="files per gnubg process (default 100)")
    parser.add_argument(
        "--update-manifest",
        action="store_true",
        help="rewrite the expected columns of the corpus's manifest.tsv: games and final score as gnubg "
        "reads them, or the line of our refusal",
    )
    args = parser.parse_args(argv)
    if args.update_manifest:
        args.paths = [str(CORPUS)]
    paths = files_of(args.paths or [str(CORPUS)])
    if not Path(args.gnubg).exists():
        parser.error(f"no gnubg at {args.gnubg} (apt-get install gnubg)")
    readings = gnubg_readings(paths, args.gnubg, max(1, args.batch))
    totals = {"files": len(paths), "agree": 0, "both_refuse": 0, "refused_here": 0, "differ": 0}
    results = {}
    for p in paths:
        a, b = ours(p), theirs(readings[str(p)])
        why = compare(a, b)
        results[str(p)] = why
        if why is None:
            totals["both_refuse" if "error" in a else "agree"] += 1
        elif why.startswith("refused"):
            totals["refused_here"] += 1
            print(f"{p}: {why}")
        else:
            totals["differ"] += 1
            print(f"{p}: {why}")
    print(
        f"{totals['files']} files: {totals['agree']} read the same by gammon and gnubg, "
        f"{totals['both_refuse']} refused or empty in both, {totals['refused_here']} refused here only, "
        f"{totals['differ']} read differently"
    )
    if args.json:
        print(json.dumps({"totals": totals, "results": results}))
    if args.update_manifest:
        update_manifest({str(p): (ours(p), theirs(readings[str(p)])) for p in paths})
    # A refusal names its line; a different reading is a bug to fix (or to document).
    return 0 if totals["differ"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
