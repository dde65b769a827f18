"""The command line where a new user meets its edges: Ctrl-C, bad numbers, closed pipes, positions
that begin with '-', and the small conveniences (version, completion, JSON settings)."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gammon.cli import main
from gammon.cli.results import CLAMPED_NOTE, ProbabilityCells

GAMMON = [sys.executable, "-m", "gammon"]
XGID_BOARD = "-b----E-C---eE---c-e----B-:0:0:1:52:2:4:0:5:10"

needs_sigint = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*GAMMON, *args], capture_output=True, text=True, timeout=timeout)


def interrupted(args: list[str], started: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """Runs gammon with ``args``, waits for ``started`` on its standard error, lets it work a
    moment, sends SIGINT as Ctrl-C does, and gives its exit status, output and error output."""
    child = subprocess.Popen(
        [*GAMMON, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    try:
        assert child.stderr is not None
        first = child.stderr.readline()
        assert started in first, first
        time.sleep(1.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    return child.returncode, out, first + err


def one_line_error(out: subprocess.CompletedProcess[str], *names: str) -> str:
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stdout == "" and "Traceback" not in out.stderr
    (line,) = out.stderr.splitlines()
    assert line.startswith("gammon: error: "), line
    for name in names:
        assert name in line, line
    return line


# ----- Ctrl-C keeps the work done -----


@needs_sigint
def test_ctrl_c_ranks_the_plays_rolled_out_so_far():
    args = ["rollout", "initial", "--plays", "31", "--trials", "400000", "--policy", "pubeval"]
    status, out, err = interrupted([*args, "--threads", "1"], "rolling out the 16 plays of 31")
    assert status == 130 and "Traceback" not in err
    assert "stopped by Ctrl-C" in out and "(stopped)" in out
    (note,) = [line for line in err.splitlines() if line.startswith("gammon:")]
    assert re.fullmatch(r"gammon: stopped by Ctrl-C; the ranking above has the \d+ of the 16 plays .*", note)
    rows = [line for line in out.splitlines() if re.match(r"│ +\d+ │", line)]
    assert 1 <= len(rows) < 16
    # Every finished play has its trials; the one under way has part of them.
    assert all(" 400000 │" in row or "(stopped)" in row for row in rows)


@needs_sigint
def test_ctrl_c_ranks_the_plays_so_far_in_json_too():
    args = ["rollout", "initial", "--plays", "31", "--trials", "400000", "--policy", "pubeval", "--json"]
    status, out, err = interrupted([*args, "--threads", "1"], "rolling out the 16 plays of 31")
    assert status == 130 and "Traceback" not in err
    data = json.loads(out)
    assert data["stopped"] is True and data["legal_plays"] == 16
    assert 1 <= len(data["plays"]) < 16 and data["plays"][-1]["trials"] > 0
    assert any(p["cancelled"] for p in data["plays"])


@needs_sigint
def test_ctrl_c_in_a_batch_says_what_was_kept_and_how_to_resume(tmp_path):
    (tmp_path / "positions.txt").write_text("opening\ninitial\n4HPwATDgc/ABMA:cIkWAAAAAAAA\n" * 1)
    args = ["rollout", "--batch", "positions.txt", "--output", "out.jsonl", "--trials", "50000"]
    args += ["--policy", "pubeval", "--threads", "1"]
    child = subprocess.Popen([*GAMMON, *args], stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        output = tmp_path / "out.jsonl"
        deadline = time.monotonic() + 60
        # Ctrl-C once the first position is written.
        while not (output.exists() and output.read_text().endswith("\n")):
            assert time.monotonic() < deadline and child.poll() is None
            time.sleep(0.05)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130 and "Traceback" not in err
    kept = len(output.read_text().splitlines())
    (line,) = err.splitlines()
    assert line.startswith(f"gammon: stopped by Ctrl-C after {kept} of 3 positions, kept in out.jsonl; ")
    command = line.split("resume with: ", 1)[1]
    assert command == shlex.join(["gammon", *args])
    # The command given resumes: the positions kept are skipped, the rest rolled out.
    again = subprocess.run([*GAMMON, *shlex.split(command)[1:]], capture_output=True, text=True, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert [json.loads(line)["input"] for line in output.read_text().splitlines()] == [
        "opening",
        "initial",
        "4HPwATDgc/ABMA:cIkWAAAAAAAA",
    ]


# ----- one line for every bad argument, never a traceback -----


@pytest.mark.parametrize(
    ("args", "name"),
    [
        (["rollout", "--trials", "-5"], "--trials"),
        (["rollout", "--trials", "0"], "--trials"),
        (["rollout", "--trials", "9" * 30], "--trials"),
        (["rollout", "--trials", "many"], "--trials"),
        (["rollout", "--threads", "-1"], "--threads"),
        (["rollout", "--threads", "0"], "--threads"),
        (["rollout", "--threads", "99999999999999999999"], "--threads"),
        (["rollout", "--seed", "-1"], "--seed"),
        (["rollout", "--seed", str(2**64)], "--seed"),
        (["rollout", "--truncate", "-3"], "--truncate"),
        (["rollout", "--max-std-error", "0"], "--max-std-error"),
        (["rollout", "--max-std-error", "inf"], "--max-std-error"),
        (["rollout", "--batch", "x", "--chunk-trials", "0"], "--chunk-trials"),
        (["rollout", "--game", "battlegammon", "--trials", "-1"], "--trials"),
        (["hint", "4HPwATDgc/ABMA", "31", "--top", "-1"], "--top"),
        (["hint", "4HPwATDgc/ABMA", "31", "--ply", "7"], "--ply"),
        (["serve", "--port", "-1"], "--port"),
        (["serve", "--port", "65536"], "--port"),
        (["serve", "--threads", "0"], "--threads"),
        (["play", "--seed", "-2"], "--seed"),
        (["play", "--match", "-3"], "--match"),
        (["rollout", "--trails", "5"], "--trails"),
        (["hint"], "position"),
    ],
)
def test_a_bad_argument_is_one_line_naming_it(args, name):
    line = one_line_error(run(*args), name)
    if args[-1] not in ("5", "hint") and "--ply" not in args:
        assert f"{name} must be" in line


def test_a_number_error_says_what_is_allowed():
    assert (
        one_line_error(run("rollout", "--trials", "-5"))
        == "gammon: error: --trials must be at least 1; got -5"
    )
    line = one_line_error(run("rollout", "--threads", "-1"))
    assert line == "gammon: error: --threads must be at least 1; got -1"


def test_a_closed_pipe_ends_quietly():
    # The reading end closed before anything is written: every write fails, as after `| head -1`.
    read, write = os.pipe()
    os.close(read)
    try:
        child = subprocess.run(
            [*GAMMON, "plays", "initial", "31"], stdout=write, stderr=subprocess.PIPE, text=True, timeout=60
        )
    finally:
        os.close(write)
    assert child.returncode in (0, 141) and child.stderr == ""


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell pipe")
def test_head_of_a_long_listing():
    shell = f"{shlex.join(GAMMON)} plays initial 31 | head -1"
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "" and len(done.stdout.splitlines()) == 1


def test_a_bare_xgid_board_beginning_with_a_dash_is_a_position():
    prefixed = run("hint", f"XGID={XGID_BOARD}", "--json")
    best = json.loads(prefixed.stdout)["plays"]
    for args in (
        ["hint", XGID_BOARD, "--json"],
        ["hint", "--json", XGID_BOARD],
        ["hint", "--json", "--", XGID_BOARD],
    ):
        out = run(*args)
        assert out.returncode == 0, (args, out.stderr)
        data = json.loads(out.stdout)
        assert data["input"] == XGID_BOARD and data["dice"] == [5, 2], args
        assert data["plays"] == best
    out = run("plays", XGID_BOARD.split(":")[0], "52", "--json")
    assert out.returncode == 0 and json.loads(out.stdout)["dice"] == [5, 2]
    # Options are still options, and a mistyped one is still reported as an option.
    assert run("hint", XGID_BOARD, "--top", "1", "--json").returncode == 0
    one_line_error(run("hint", XGID_BOARD, "--tpo", "1"), "--tpo")


# ----- small things -----


def test_version():
    from gammon import __version__

    out = run("--version")
    assert out.returncode == 0 and out.stdout.strip() == f"gammon {__version__}"


def test_shell_completion():
    pytest.importorskip("shtab")
    for shell in ("bash", "zsh"):
        out = run("--print-completion", shell)
        assert out.returncode == 0, out.stderr
        assert "gammon" in out.stdout and "rollout" in out.stdout and "--trials" in out.stdout
    one_line_error(run("--print-completion", "powershell-9"), "--print-completion")


def test_every_rollout_json_names_the_policy_and_variance_reduction(tmp_path):
    out = run("rollout", "--trials", "36", "--json")
    data = json.loads(out.stdout)
    assert data["policy"] == "net" and data["variance_reduction"] is True
    plain = json.loads(run("rollout", "--trials", "36", "--json", "--no-variance-reduction").stdout)
    assert plain["policy"] == "net" and plain["variance_reduction"] is False
    assert plain["std_error"] != data["std_error"]
    ranked = json.loads(
        run("rollout", "--plays", "65", "--trials", "36", "--json", "--policy", "pubeval").stdout
    )
    assert ranked["policy"] == "pubeval" and ranked["variance_reduction"] is True
    assert all(p["policy"] == "pubeval" and p["variance_reduction"] is False for p in ranked["plays"])
    (tmp_path / "p.txt").write_text("opening\n")
    out = run("rollout", "--batch", str(tmp_path / "p.txt"), "--trials", "36", "--no-variance-reduction")
    (line,) = out.stdout.splitlines()
    record = json.loads(line)
    assert record["policy"] == "net" and record["variance_reduction"] is False
    assert record["settings"]["variance_reduction"] is False
    out = run("rollout", "--game", "battlegammon", "--trials", "8", "--json")
    assert json.loads(out.stdout)["policy"] == "bot"
    one_line_error(
        run("rollout", "--game", "battlegammon", "--no-variance-reduction"), "--no-variance-reduction"
    )


def test_a_batch_file_from_before_the_setting_resumes(tmp_path):
    """Lines written before variance reduction could be turned off had it on."""
    (tmp_path / "p.txt").write_text("opening\ninitial\n")
    output = tmp_path / "out.jsonl"
    args = ["rollout", "--batch", str(tmp_path / "p.txt"), "--output", str(output), "--trials", "36"]
    assert run(*args).returncode == 0
    first, second = output.read_text().splitlines()
    old = json.loads(first)
    del old["settings"]["variance_reduction"]
    output.write_text(json.dumps(old) + "\n")
    out = run(*args)
    assert out.returncode == 0 and "1 positions already in" in out.stderr
    timing = ("seconds", "games_per_second")
    again = {k: v for k, v in json.loads(output.read_text().splitlines()[1]).items() if k not in timing}
    assert again == {k: v for k, v in json.loads(second).items() if k not in timing}
    out = run(*args, "--no-variance-reduction")
    assert out.returncode == 2 and "other settings" in out.stderr


def test_a_probability_just_below_zero_is_shown_as_zero():
    cell = ProbabilityCells()
    assert (cell(0.25), cell.clamped) == ("0.2500", False)
    assert (cell(-0.0003), cell.clamped) == ("0.0000*", True)
    assert cell(1.0002) == "1.0000*"
    assert "--json gives the exact value" in CLAMPED_NOTE


def test_piped_tables_are_not_wrapped(capsys):
    out = run("rollout", "4HPwATDgc/ABMA", "--trials", "36", "--policy", "pubeval", "--seed", "3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "Rollout of 4HPwATDgc/ABMA (pubeval, seed 3, no variance reduction)"
    assert re.fullmatch(r"36 trials in [\d.]+ s, [\d,]+ games/s", lines[-1])
    out = run("hint", f"XGID={XGID_BOARD}", "--top", "1")
    assert any(line.startswith("Best play: win ") and line.endswith(")") for line in out.stdout.splitlines())


def test_hint_takes_options_anywhere(capsys):
    assert main(["hint", "--top", "2", "--json", "4HPwATDgc/ABMA", "31"]) == 0
    assert len(json.loads(capsys.readouterr().out)["plays"]) == 2
