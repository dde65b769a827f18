"""Our ``.sgf`` files against GNU Backgammon, both ways, on every match of the ``.mat`` corpus.

Run from the repository root in the virtual environment (gammon installed), with ``gnubg`` on
the path (Debian package ``gnubg``, 1.07.001 used)::

    python tools/analysis/sgf_gnubg.py            # compare, print one line per file
    python tools/analysis/sgf_gnubg.py --update   # and rewrite tests/fixtures/sgf-gnubg/

1. Every corpus match that reads (``tests/fixtures/mat-corpus/manifest.tsv``) is written with
   ``Match.to_sgf``; gnubg opens each (``load match``) and exports it as ``.mat`` (``export match
   mat``), and that file, read with ``Match.from_mat``, must hold the same games: every roll,
   play, cube action and result, and the same scores.
2. gnubg imports each corpus ``.mat`` (``import mat``) and saves it as ``.sgf`` (``save match``),
   and ``Match.from_sgf`` must read that to the match ``Match.from_mat`` reads from the ``.mat``,
   but for a roll left unplayed before a resignation, which gnubg's file does not hold.

``--update`` keeps in ``tests/fixtures/sgf-gnubg/`` a few matches of each producer (``FIXTURES``):
our ``.sgf`` (``*.ours.sgf``), gnubg's ``.mat`` of it (``*.gnubg.mat``) and gnubg's ``.sgf`` of the
corpus file (``*.gnubg.sgf``), and ``results.tsv``, the outcome for every file; ``tests/test_sgf.py``
checks them without gnubg. The same file run by gnubg (``gnubg -t -q -p``) does gnubg's part: it
reads the jobs from the file named by ``SGF_GNUBG_JOBS``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = Path("tests/fixtures/mat-corpus")
OUT = Path("tests/fixtures/sgf-gnubg")
# Kept as fixtures: matches with doubles, takes, drops and resignations, from each producer.
FIXTURES = [
    "gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat",
    "gnubg/gnubg_roll_then_resign_1p.mat",
    "galaxy/match10106485.txt",
    "galaxy/match11300880.txt",
    "studio/BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt",
    # gnubg's .sgf lists a play's steps in an order that cannot be played one by one (B[42txxz]).
    "studio/TheOscar_-_Llabba_13pt_Backgammon_Studio_2023_09_22_20_15_24.txt",
]

# gnubg on the path, else where Debian puts it.
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def gnubg_side(jobs_file: str) -> None:
    """Inside gnubg: each job line is ``load|import <in> <out>``."""
    import gnubg  # type: ignore[import-not-found]  # noqa: PLC0415 - only inside gnubg

    for c in ("set confirm new off", "set confirm save off", "set display off"):
        gnubg.command(c)
    for line in Path(jobs_file).read_text(encoding="utf-8").splitlines():
        kind, source, target = line.split("\t")
        if kind == "load":
            gnubg.command(f'load match "{source}"')
            gnubg.command(f'export match mat "{target}"')
        else:
            gnubg.command(f'import mat "{source}"')
            gnubg.command(f'save match "{target}"')


def text(path: Path) -> str:
    """UTF-8, or else Latin-1 (some producers write names in it), as the corpus test reads it."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


# gnubg's .sgf leaves out a roll not played before a resignation (no node holds it).
UNPLAYED = "same but for the roll left unplayed before a resignation"


def unplayed_rolls_dropped(history: list) -> list:  # noqa: ANN001 - gammon.Action
    """The history without the rolls whose next action is a resignation (or the opening roll)."""
    rolls = ("roll", "opening_roll")
    return [
        h
        for i, h in enumerate(history)
        if not (h.kind in rolls and history[i + 1 : i + 2] and history[i + 1].kind == "resign")
    ]


def difference(a, b, tolerate_unplayed: bool = False) -> str:  # noqa: ANN001 - two gammon.Match
    """The first difference of two matches' games (rolls, plays, cube, results, scores), or ''
    (``UNPLAYED`` when ``tolerate_unplayed`` and only such rolls differ)."""
    if len(a.games) != len(b.games):
        return f"{len(a.games)} games against {len(b.games)}"
    tolerated = ""
    for k, (x, y) in enumerate(zip(a.games, b.games)):
        hx, hy = list(x.history), list(y.history)
        if hx != hy and tolerate_unplayed and unplayed_rolls_dropped(hx) == unplayed_rolls_dropped(hy):
            tolerated = UNPLAYED
        elif hx != hy:
            i = next((i for i, (p, q) in enumerate(zip(hx, hy)) if p != q), min(len(hx), len(hy)))
            return f"game {k + 1} action {i + 1}: {hx[i : i + 1]!r} against {hy[i : i + 1]!r}"
        if (x.winner, x.points) != (y.winner, y.points):
            return f"game {k + 1}: result {x.winner} {x.points} against {y.winner} {y.points}"
    if a.score != b.score:
        return f"score {a.score} against {b.score}"
    return tolerated


def main() -> int:
    from gammon import Match

    update = "--update" in sys.argv
    manifest = (CORPUS / "manifest.tsv").read_text(encoding="utf-8").splitlines()[1:]
    files = [line.split("\t")[0] for line in manifest if not line.split("\t")[6]]
    work = Path(tempfile.mkdtemp(prefix="sgf-gnubg-"))
    jobs, originals = [], {}
    for k, name in enumerate(files):
        m = Match.from_mat(text(CORPUS / name))
        originals[name] = m
        ours = work / f"{k}.ours.sgf"
        ours.write_text(m.to_sgf(), encoding="utf-8")
        jobs.append(f"load\t{ours}\t{work / f'{k}.gnubg.mat'}")
        jobs.append(f"import\t{(CORPUS / name).resolve()}\t{work / f'{k}.gnubg.sgf'}")
    (work / "jobs.tsv").write_text("\n".join(jobs) + "\n", encoding="utf-8")
    env = dict(os.environ, SGF_GNUBG_JOBS=str(work / "jobs.tsv"))
    subprocess.run([GNUBG, "-t", "-q", "-p", __file__], env=env, check=True, capture_output=True)
    rows = ["file\tgames\tours_through_gnubg\tgnubgs_sgf_read"]
    failures = 0
    for k, name in enumerate(files):
        m = originals[name]
        outcome = []
        for path, reader in (
            (work / f"{k}.gnubg.mat", Match.from_mat),
            (work / f"{k}.gnubg.sgf", Match.from_sgf),
        ):
            try:
                diff = difference(m, reader(text(path)), tolerate_unplayed=reader == Match.from_sgf)
            except (OSError, ValueError) as e:
                diff = f"not read: {e}"
            outcome.append(diff or "same")
        failures += sum(o not in ("same", UNPLAYED) for o in outcome)
        rows.append(f"{name}\t{len(m.games)}\t{outcome[0]}\t{outcome[1]}")
        print(f"{name}: {len(m.games)} games; ours through gnubg: {outcome[0]}; gnubg's .sgf: {outcome[1]}")
    print(f"{len(files)} files, {failures} differences")
    if update:
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "results.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
        for name in FIXTURES:
            k = files.index(name)
            stem = name.replace("/", "_").rsplit(".", 1)[0]
            for suffix in ("ours.sgf", "gnubg.mat", "gnubg.sgf"):
                (OUT / f"{stem}.{suffix}").write_bytes((work / f"{k}.{suffix}").read_bytes())
        print(f"fixtures written to {OUT}")
    return 1 if failures else 0


if __name__ == "__main__":
    if os.environ.get("SGF_GNUBG_JOBS"):
        gnubg_side(os.environ["SGF_GNUBG_JOBS"])
    else:
        sys.exit(main())
