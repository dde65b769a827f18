"""Does GNU Backgammon show our analysis when it opens our annotated ``.sgf``?

Run from the repository root in the virtual environment (gammon installed), with ``gnubg`` on
the path (Debian package ``gnubg``, 1.07.001 used)::

    python tools/analysis/sgf_marks_gnubg.py [--ply N] [MATCH.mat ...]   # default: the fixtures

Each match is analysed (``gammon.analyse``, 0-ply unless ``--ply`` says) and written with ``Analysis.to_sgf()``; gnubg
opens the file (``load match``) and its Python API (``gnubg.match(analysis=1)``) gives, move by
move, what it will show: ``skill`` and ``cube-skill`` (doubtful, bad, very bad), ``luck`` (its
luck mark) and ``luck-value``, the candidate plays (``moves``: each play's moves, five
probabilities and equity, ``imove`` the play made) and the cube analysis (``probs``,
``nd-cubeful-eq``, ``dt-cubeful-eq``). Every node's properties in our file must come back as
those fields, node for node (the probabilities and equities to the six decimals written), and
the marks must be as many as the analysis's. It prints one line per match and exits 1 on any
difference. The same file run by gnubg (``gnubg -t -q -p``) does gnubg's part: it reads the
file named by ``SGF_MARKS_IN`` and writes JSON to ``SGF_MARKS_OUT``.
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
                    "moves": [
                        {"move": mv["move"], "probs": mv["probs"], "score": mv["score"]}
                        for mv in a.get("moves", [])
                    ],
                    "imove": a.get("imove"),
                    "probs": a.get("probs"),
                    "nd": a.get("nd-cubeful-eq"),
                    "dt": a.get("dt-cubeful-eq"),
                }
            )
        games.append(records)
    Path(target).write_text(json.dumps(games), encoding="utf-8")
    # The API gives nothing of a take's or drop's analysis, even for gnubg's own files: what it
    # holds there is seen in the file it saves.
    gnubg.command(f'save match "{target}.sgf"')


def properties(node: str) -> dict[str, list[str]]:
    """A node's properties, each with its values (``A[0][x][y]`` has three)."""
    props: dict[str, list[str]] = {}
    name = ""
    for key, value in re.findall(r"([A-Z]*)\[((?:[^\]\\]|\\.)*)\]", node):
        name = key or name
        props.setdefault(name, []).append(value)
    return props


def gnubg_move(letters: str, colour: str) -> list[list[int]]:
    """A play in the node's letters as gnubg's API lists it: (from, to) in the mover's points."""
    points = []
    for c in letters:
        p = {"y": 25, "z": 0}.get(c, ord(c) - ord("a") + 1)
        points.append(p if c in "yz" or colour == "W" else 25 - p)
    return [points[i : i + 2] for i in range(0, len(points), 2)]


def candidates(values: list[str], colour: str) -> tuple[int, list[dict[str, object]]]:
    """The values of ``A[]``: the index of the play made and each candidate."""
    out = []
    for v in values[1:]:
        f = v.split()
        numbers = [float(x) for x in f[4:10]]
        out.append({"move": gnubg_move(f[0], colour), "probs": numbers[:5], "score": numbers[5]})
    return int(values[0]), out


def expected(sgf: str) -> list[list[dict[str, object]]]:
    """What gnubg should report for each node of ``sgf``, read from the node's properties."""
    games = []
    for tree in sgf.split("\n(")[0:]:
        records = []
        for node in tree.split("\n;")[1:]:
            all_props = properties(node)
            props = {k: v[0] for k, v in all_props.items()}
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
            imove, moves = candidates(all_props["A"], colour) if "A" in props else (None, [])
            probs = nd = dt = None
            if "DA" in props:
                f = [float(x) for x in props["DA"].split()[7:]]
                probs, nd, dt = f[:5], f[6], f[13]
            records.append(
                {
                    "action": action,
                    "skill": skill,
                    "cube-skill": cube,
                    "luck": luck,
                    "luck-value": lu,
                    "moves": moves,
                    "imove": imove,
                    "probs": probs,
                    "nd": nd,
                    "dt": dt,
                }
            )
        games.append(records)
    return games


def close(a: object, b: object, tolerance: float = 1.5e-6) -> bool:
    """Numbers (or lists of them) equal to the six decimals written (gnubg keeps floats)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, tolerance) for x, y in zip(a, b))
    if a is None or b is None:
        return a is b
    return abs(float(a) - float(b)) <= tolerance  # type: ignore[arg-type]


def same(ours: list[list[dict[str, object]]], theirs: list[list[dict[str, object]]]) -> str:
    """The first difference between what the file says and what gnubg reports, or ''."""
    if len(ours) != len(theirs):
        return f"{len(ours)} games against gnubg's {len(theirs)}"
    for k, (a, b) in enumerate(zip(ours, theirs)):
        if len(a) != len(b):
            return f"game {k + 1}: {len(a)} nodes against gnubg's {len(b)} records"
        for i, (x, y) in enumerate(zip(a, b)):
            # gnubg's API reports nothing of a take's or drop's analysis (checked by answers()).
            if x["action"] in ("take", "drop"):
                if x["action"] != y["action"]:
                    return (
                        f"game {k + 1} node {i + 1}: action {x['action']!r} against gnubg's {y['action']!r}"
                    )
                continue
            for key in ("action", "skill", "cube-skill", "luck", "imove"):
                if x[key] != y[key]:
                    return f"game {k + 1} node {i + 1}: {key} {x[key]!r} against gnubg's {y[key]!r}"
            lx, ly = x["luck-value"], y["luck-value"]
            if (lx is None) != (ly is None) or (lx is not None and abs(float(lx) - float(ly)) > 1e-5):  # type: ignore[arg-type]
                return f"game {k + 1} node {i + 1}: luck {lx} against gnubg's {ly}"
            for key in ("probs", "nd", "dt"):
                if not close(x[key], y[key]):
                    return f"game {k + 1} node {i + 1}: cube {key} {x[key]} against gnubg's {y[key]}"
            mx, my = x["moves"], y["moves"]
            if len(mx) != len(my):  # type: ignore[arg-type]
                return f"game {k + 1} node {i + 1}: {len(mx)} candidates against gnubg's {len(my)}"  # type: ignore[arg-type]
            for j, (c, d) in enumerate(zip(mx, my)):  # type: ignore[call-overload]
                if (
                    sorted(c["move"]) != sorted(d["move"])
                    or not close(c["probs"], d["probs"])
                    or not close(c["score"], d["score"])
                ):
                    return f"game {k + 1} node {i + 1} candidate {j + 1}: {c} against gnubg's {d}"
    return ""


def answers(ours: str, saved: str) -> tuple[int, str]:
    """How many take and drop nodes gnubg saved with our cube analysis and mark, and the first
    difference, from the file gnubg saves after loading ours."""
    count = 0
    for k, (a, b) in enumerate(zip(ours.split("\n("), saved.split("\n("))):
        for i, (x, y) in enumerate(zip(a.split("\n;")[1:], b.split("\n;")[1:])):
            px, py = properties(x), properties(y)
            colour = "W" if "W" in px else "B"
            if px[colour][0] not in ("take", "drop"):
                continue
            marks = [(m, px.get(m)) for m in ("DO", "BM")]
            if marks != [(m, py.get(m)) for m in ("DO", "BM")]:
                return count, f"game {k + 1} node {i + 1}: mark {px} against gnubg's {py}"
            if "DA" in px:
                nx = [float(v) for v in px["DA"][0].split()[7:]]
                ny = [float(v) for v in py.get("DA", [""])[0].split()[7:]]
                if not close(nx, ny):
                    return count, f"game {k + 1} node {i + 1}: DA {nx} against gnubg's {ny}"
                count += 1
    return count, ""


def main() -> int:
    import gammon

    args = sys.argv[1:]
    ply = 0
    if args[:1] == ["--ply"]:
        ply, args = int(args[1]), args[2:]
    files = args or sorted(str(p) for p in Path("tests/fixtures/analysis").glob("*.mat"))
    work = Path(tempfile.mkdtemp(prefix="sgf-marks-"))
    failures = 0
    for name in files:
        m = gammon.Match.from_mat(Path(name).read_text(encoding="utf-8"))
        a = gammon.analyse(m, ply=ply)
        sgf = a.to_sgf()
        path, out = work / (Path(name).stem + ".sgf"), work / (Path(name).stem + ".json")
        path.write_text(sgf, encoding="utf-8")
        env = dict(os.environ, SGF_MARKS_IN=str(path), SGF_MARKS_OUT=str(out))
        subprocess.run([GNUBG, "-t", "-q", "-p", __file__], env=env, check=True, capture_output=True)
        diff = same(expected(sgf), json.loads(out.read_text(encoding="utf-8")))
        answered, wrong = answers(sgf, Path(f"{out}.sgf").read_text(encoding="utf-8"))
        diff = diff or wrong
        marks = sum(d.mark != "" for d in a.decisions)
        in_file = sum(sgf.count(p) for p in ("DO[]", "DC[]", "BM[", "BC["))
        if not diff and marks != in_file:
            diff = f"{marks} decisions marked, {in_file} marks in the file"
        lucky = sum(d.luck_mark != "" for d in a.decisions)
        cube = sum(d.mark != "" for d in a.decisions if d.kind in ("double", "take"))
        plays = sgf.count("A[")
        cubes = sgf.count("DA[")
        print(
            f"{name}: {marks} marks ({cube} on cube decisions), {lucky} luck marks, {plays} plays' candidates, "
            f"{cubes} cube analyses ({answered} on takes and drops, read from gnubg's save): {diff or 'gnubg reports every mark, luck, candidate and cube equity as written'}"
        )
        failures += bool(diff)
    return 1 if failures else 0


if __name__ == "__main__":
    if os.environ.get("SGF_MARKS_IN"):
        gnubg_side(os.environ["SGF_MARKS_IN"], os.environ["SGF_MARKS_OUT"])
    else:
        sys.exit(main())
