"""The command line, run as users run it."""

from __future__ import annotations

import json
import subprocess
import sys

from gammon.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "gammon", *args], capture_output=True, text=True, timeout=60)


def test_plays_json_lists_every_legal_play():
    out = run("plays", "4HPwATDgc/ABMA", "65", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["dice"] == [6, 5]
    assert len(data["plays"]) == 7
    (run13,) = [p for p in data["plays"] if p["play"] == "24/13"]
    assert run13["moves"] in ([[24, 18], [18, 13]], [[24, 19], [19, 13]])


def test_plays_default_is_the_opening(capsys):
    assert main(["plays"]) == 0
    text = capsys.readouterr().out
    assert "16 legal plays of 31" in text and "8/5 6/5" in text


def test_bad_input_is_a_clear_error_not_a_traceback():
    out = run("plays", "not-an-id", "31")
    assert out.returncode == 2
    assert "gammon: error:" in out.stderr and "Traceback" not in out.stderr
    out = run("plays", "opening", "71")
    assert out.returncode == 2 and "dice" in out.stderr


def test_help_everywhere():
    assert run("--help").returncode == 0
    assert run("plays", "--help").returncode == 0
