"""Does GNU Backgammon show our analysis when it opens our annotated ``.sgf``?

Run from the repository root in the virtual environment (gammon installed), with ``gnubg`` on
the path (Debian package ``gnubg``, 1.07.001 used)::

    python tools/analysis/sgf_marks_gnubg.py [MATCH.mat ...]   # default: the analysis fixtures

Each match is analysed (``gammon.analyse``, 0-ply) and written with ``Analysis.to_sgf()``; gnubg
opens the file (``load match``) and its Python API (``gnubg.match(analysis=1)``) gives, move by
move, what it will show: ``skill`` and ``cube-skill`` (doubtful, bad, very bad), ``luck`` (its
luck mark) and ``luck-value``. Every node's properties in our file must come back as those
fields, node for node (except the marks of cube decisions, a move's ``cube-skill`` and a double's
or take's ``skill``: gnubg's API gives them only beside a cube analysis, ``DA``, which we do not
write), and the marks must be as many as the analysis's. It prints one line per
match and exits 1 on any difference. The same file run by gnubg (``gnubg -t -q -p``) does gnubg's
part: it reads the file named by ``SGF_MARKS_IN`` and writes JSON to ``SGF_MARKS_OUT``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SKILL = {"DO": "doubtful", "BM1": "bad", "BM2": "very bad"}
CUBE_SKILL = {"DC": "doubtful", "BC1": "bad", "BC2": "very bad"}

# gnubg on the path, else where Debian puts it.
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"


def gnubg_side(source: str, target: str) -> None:
    """Inside gnubg: every move record of the match, as gnubg holds it after loading the file."""
    import gnubg  # type: ignore[import-not-found]  # noqa: PLC0415 - only inside gnubg

    gnubg.command("set display off")
    gnubg.command(f'load match "{source}"')
    m = gnubg.match(analysis=1, boards=0, statistics=0)
    games = []
    for g in m["games"]:
        records = []
        for r in g["game"]:
            if r.get("action") not in ("move", "double", "take", "drop"):
                continue
            a = r.get("analysis", {})
            records.append(
                {
                    "action": r["action"],
                    "skill": a.get("skill", ""),
                    "cube-skill": a.get("cube-skill", ""),
                    "luck": a.get("luck", ""),
                    "luck-value": a.get("luck-value"),
                }
            )
        games.append(records)
    Path(target).write_text(json.dumps(games), encoding="utf-8")


def expected(sgf: str) -> list[list[dict[str, object]]]:
    """What gnubg should report for each node of ``sgf``, read from the node's properties."""
    games = []
    for tree in sgf.split("\n(")[0:]:
        records = []
        for node in tree.split("\n;")[1:]:
            props = dict(re.findall(r"([A-Z]+)\[((?:[^\]\\]|\\.)*)\]", node))
            colour = "W" if "W" in props else "B"
            value = props[colour]
            action = value if value in ("double", "take", "drop") else "move"
            skill = next((w for k, w in SKILL.items() if k[:2] in props and props[k[:2]] == k[2:]), "")
            cube = next((w for k, w in CUBE_SKILL.items() if k[:2] in props and props[k[:2]] == k[2:]), "")
            luck = ""
            for good, mover_lucky in (("GW", colour == "W"), ("GB", colour == "B")):
                if good in props:
                    very = props[good] == "2"
                    if mover_lucky:
                        luck = "verygood" if very else "good"
                    else:
                        luck = "verybad" if very else "bad"
            lu = float(props["LU"]) if "LU" in props else None
            records.append(
                {"action": action, "skill": skill, "cube-skill": cube, "luck": luck, "luck-value": lu}
            )
        games.append(records)
    return games


def same(ours: list[list[dict[str, object]]], theirs: list[list[dict[str, object]]]) -> str:
    """The first difference between what the file says and what gnubg reports, or ''."""
    if len(ours) != len(theirs):
        return f"{len(ours)} games against gnubg's {len(theirs)}"
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if len(a) != len(b):
            return f"game {k + 1}: {len(a)} nodes against gnubg's {len(b)} records"
        for i, (x, y) in enumerate(zip(a, b)):
            # gnubg's API reports a cube mark (a move's cube-skill, a double's or take's skill)
            # only beside a cube analysis (DA), which we do not write: those are counted, not
            # compared.
            keys = ("action", "skill", "luck") if x["action"] == "move" else ("action",)
            for key in keys:
                if x[key] != y[key]:
                    return f"game {k + 1} node {i + 1}: {key} {x[key]!r} against gnubg's {y[key]!r}"
            lx, ly = x["luck-value"], y["luck-value"]
            if (lx is None) != (ly is None) or (lx is not None and abs(float(lx) - float(ly)) > 1e-5):  # type: ignore[arg-type]
                return f"game {k + 1} node {i + 1}: luck {lx} against gnubg's {ly}"
    return ""


def main() -> int:
    import gammon

    files = sys.argv[1:] or sorted(str(p) for p in Path("tests/fixtures/analysis").glob("*.mat"))
    work = Path(tempfile.mkdtemp(prefix="sgf-marks-"))
    failures = 0
    for name in files:
        m = gammon.Match.from_mat(Path(name).read_text(encoding="utf-8"))
        a = gammon.analyse(m, ply=0)
        sgf = a.to_sgf()
        path, out = work / (Path(name).stem + ".sgf"), work / (Path(name).stem + ".json")
        path.write_text(sgf, encoding="utf-8")
        env = dict(os.environ, SGF_MARKS_IN=str(path), SGF_MARKS_OUT=str(out))
        subprocess.run([GNUBG, "-t", "-q", "-p", __file__], env=env, check=True, capture_output=True)
        diff = same(expected(sgf), json.loads(out.read_text(encoding="utf-8")))
        marks = sum(d.mark != "" for d in a.decisions)
        in_file = sum(sgf.count(p) for p in ("DO[]", "DC[]", "BM[", "BC["))
        if not diff and marks != in_file:
            diff = f"{marks} decisions marked, {in_file} marks in the file"
        lucky = sum(d.luck_mark != "" for d in a.decisions)
        cube = sum(d.mark != "" for d in a.decisions if d.kind in ("double", "take"))
        print(
            f"{name}: {marks} marks ({cube} of them on cube decisions, not compared), {lucky} luck marks: "
            f"{diff or 'gnubg reports every other mark and every luck value as written'}"
        )
        failures += bool(diff)
    return 1 if failures else 0


if __name__ == "__main__":
    if os.environ.get("SGF_MARKS_IN"):
        gnubg_side(os.environ["SGF_MARKS_IN"], os.environ["SGF_MARKS_OUT"])
    else:
        sys.exit(main())
