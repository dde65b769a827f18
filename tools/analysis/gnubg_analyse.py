"""GNU Backgammon's own match analysis, as fixtures for gammon's.

Run inside gnubg's embedded Python (Debian package ``gnubg``, 1.07.001 used), from the repository
root::

    gnubg -t -q -p tools/analysis/gnubg_analyse.py

1. gnubg plays 7-point matches against itself at 0-ply (``set seed``), some with evaluation noise
   on one or both sides so that the matches hold mistakes of every size, and exports each with
   ``export match mat``: ``tests/fixtures/analysis/*.mat``.
2. Each file is imported again (``import mat``) and analysed with ``analyse match``, chequer play
   and cube decisions at 0-ply, and what gnubg found is written out:

   * ``gnubg_decisions.csv``: one row per decision: ``file,game,player,kind,dice,position_id,
     played,best,error,skill`` for checker plays (``error`` in gnubg's cubeful equity, the
     best play's score minus the score of the play made; ``played``/``best`` as gnubg's move
     lists), and ``file,game,player,kind,,position_id,played,,nd,dt`` for cube decisions
     (``kind`` ``double``: gnubg's no-double and double/take values, cubeful; in match play
     they are match winning chances, which ``tools/analysis/compare.py`` turns into equities).
   * ``gnubg_players.csv``: per file and player gnubg's statistics as ``show statistics match``
     prints them: unforced moves, close or actual cube decisions, checker and cube error totals
     (EMG, as positive numbers), luck total (EMG), and the overall error rate in mEMG.

Player names: gnubg's X is ``gnubg``, O is ``root`` (the left and right columns of the .mat).
"""

import os
import re

import gnubg

DIR = "tests/fixtures/analysis"
# (file, length, seed, noise of player X, noise of player O)
MATCHES = [
    ("selfplay_7pt_a.mat", 7, 11, 0.0, 0.0),
    ("selfplay_7pt_b.mat", 7, 12, 0.0, 0.0),
    ("noisy_7pt_a.mat", 7, 21, 0.05, 0.0),
    ("noisy_7pt_b.mat", 7, 22, 0.0, 0.08),
    ("noisy_7pt_c.mat", 7, 23, 0.1, 0.05),
    ("noisy_7pt_d.mat", 7, 24, 0.15, 0.15),
    ("noisy_5pt_e.mat", 5, 25, 0.08, 0.08),
    ("noisy_11pt_f.mat", 11, 26, 0.06, 0.03),
]


def play(name, length, seed, noise_x, noise_o):
    commands = ["set display off", "set automatic game on", "set jacoby off"]
    for p, noise in ((0, noise_x), (1, noise_o)):
        commands += [
            "set player %d gnubg" % p,
            "set player %d chequerplay evaluation plies 0" % p,
            "set player %d cubedecision evaluation plies 0" % p,
            "set player %d chequerplay evaluation noise %.3f" % (p, noise),
            "set player %d cubedecision evaluation noise %.3f" % (p, noise),
            "set player %d chequerplay evaluation deterministic on" % p,
            "set player %d cubedecision evaluation deterministic on" % p,
        ]
    commands += ["set seed %d" % seed, "new match %d" % length]
    for c in commands:
        gnubg.command(c)
    path = os.path.join(DIR, name)
    if os.path.exists(path):
        os.remove(path)  # gnubg will not overwrite a file without asking
    gnubg.command("export match mat %s" % path)


def notation(move):
    return " ".join("%d/%d" % (a, b) for a, b in move)


def analyse(name, decisions, players):
    for c in (
        "import mat %s" % os.path.join(DIR, name),
        "set analysis chequerplay evaluation plies 0",
        "set analysis cubedecision evaluation plies 0",
        "analyse match",
    ):
        gnubg.command(c)
    m = gnubg.match(analysis=1, boards=1, statistics=1, verbose=1)
    names = {"X": m["match-info"]["X"]["name"], "O": m["match-info"]["O"]["name"]}
    for k, g in enumerate(m["games"]):
        for a in g["game"]:
            who = names[a["player"]]
            an = a.get("analysis") or {}
            if "nd-cubeful-eq" in an:
                played = "double" if a["action"] == "double" else "no double"
                decisions.append(
                    "%s,%d,%s,double,,%s,%s,,%.6f,%.6f"
                    % (name, k + 1, who, a["board"], played, an["nd-cubeful-eq"], an["dt-cubeful-eq"])
                )
            if a["action"] == "move" and an.get("moves") and "imove" in an:
                moves = an["moves"]
                i = an["imove"]
                error = moves[0]["score"] - moves[i]["score"]
                dice = "%d%d" % tuple(a["dice"])
                decisions.append(
                    "%s,%d,%s,checker,%s,%s,%s,%s,%.6f,%s"
                    % (
                        name,
                        k + 1,
                        who,
                        dice,
                        a["board"],
                        notation(moves[i]["move"]),
                        notation(moves[0]["move"]),
                        error,
                        an.get("skill", ""),
                    )
                )
    # The statistics as gnubg prints them (``show statistics match``), read back from its output.
    text = captured("show statistics match")
    figures = {}
    section = None
    for line in text.splitlines():
        if line.startswith("Chequerplay statistics"):
            section = "checker"
        elif line.startswith("Cube statistics"):
            section = "cube"
        elif line.startswith("Overall statistics"):
            section = "overall"
        elif line.startswith("Luck statistics"):
            section = "luck"
        # The MWC figures in parentheses are left out, leaving the labels and the two EMG columns.
        cells = re.sub(r"\([^)]*\)", " ", line).split()
        if line.startswith("Unforced moves"):
            figures["unforced"] = cells[2:4]
        elif line.startswith("Close or actual cube decisions"):
            figures["close"] = cells[5:7]
        elif line.startswith("Error total EMG") and section in ("checker", "cube"):
            figures[section] = cells[3:5]
        elif line.startswith("Error rate mEMG") and section == "overall":
            figures["rate"] = cells[3:5]
        elif line.startswith("Luck total EMG"):
            figures["luck"] = cells[3:5]
    for k, side in enumerate(("X", "O")):
        players.append(
            "%s,%s,%s,%s,%s,%s,%s,%s"
            % (
                name,
                names[side],
                figures["unforced"][k],
                figures["close"][k],
                abs(float(figures["checker"][k])),
                abs(float(figures["cube"][k])),
                figures["luck"][k],
                abs(float(figures["rate"][k])),
            )
        )


def captured(command):
    """What gnubg prints for ``command``, caught from its standard output."""
    import sys
    import tempfile

    sys.stdout.flush()
    with tempfile.TemporaryFile(mode="w+") as out:
        saved = os.dup(1)
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command(command)
            sys.stdout.flush()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read()


def main():
    decisions = ["file,game,player,kind,dice,position_id,played,best,error,skill"]
    players = ["file,player,unforced,cube_decisions,checker_error,cube_error,luck,error_rate"]
    for name, length, seed, nx, no in MATCHES:
        play(name, length, seed, nx, no)
    for name, *_ in MATCHES:
        analyse(name, decisions, players)
    with open(os.path.join(DIR, "gnubg_decisions.csv"), "w") as f:
        f.write("\n".join(decisions) + "\n")
    with open(os.path.join(DIR, "gnubg_players.csv"), "w") as f:
        f.write("\n".join(players) + "\n")
    print("gnubg analysis: %d decisions, %d player rows" % (len(decisions) - 1, len(players) - 1))


main()
