"""Cubeful rollouts, cube-decision rollouts and rollout play at 1-ply, from Python."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys

import pytest

import gammon
from gammon import CubeContext, GammonError, Position, merge_rollouts, rollout, rollout_cube, rollout_plays

CONTACT = "4HPwATDgc/ABMA"


def test_a_cube_nobody_may_turn_gives_the_cubeless_equity_exactly():
    # A 64-cube we own, at the 64 maximum: nobody may double, so the cubeful equity per unit of
    # the starting cube is the cubeless one, to the bit (without variance reduction, whose luck
    # the cubeful figure measures through the cube model rather than in probabilities).
    dead = CubeContext.money(value=64, owner="us")
    plain = rollout(CONTACT, trials=72, seed=4, threads=2, variance_reduction=False)
    cubeful = rollout(CONTACT, trials=72, seed=4, threads=2, variance_reduction=False, context=dead)
    assert cubeful.cubeful_equity == plain.equity
    assert cubeful.cubeful_std_error == plain.std_error
    assert cubeful.mwc is None and plain.cubeful_equity is None and plain.mwc is None


def test_variance_reduction_narrows_the_cubeful_figures_and_keeps_them_where_they_were():
    # Independent seeds: the two estimates agree within their errors, and the luck taken out of
    # each game's cube value (in its own cube state, seen by either side) narrows the reduced
    # one. Measured: equity -0.127 +- 0.080 plain, -0.229 +- 0.043 reduced; MWC 0.693 +- 0.0086
    # and 0.682 +- 0.0046.
    ctx = CubeContext.match((2, 4))
    plain = rollout(CONTACT, trials=1296, seed=5, threads=2, context=ctx, variance_reduction=False)
    reduced = rollout(CONTACT, trials=1296, seed=6, threads=2, context=ctx)
    combined = (plain.cubeful_std_error**2 + reduced.cubeful_std_error**2) ** 0.5
    assert abs(reduced.cubeful_equity - plain.cubeful_equity) < 3 * combined
    assert reduced.cubeful_std_error < 0.7 * plain.cubeful_std_error
    assert reduced.mwc_std_error < 0.7 * plain.mwc_std_error
    assert "luck=cubeful" in reduced.setup


def test_match_rollouts_carry_the_mwc_and_merge_and_pickle():
    ctx = CubeContext.match((4, 2))
    part = lambda first, n: rollout(  # noqa: E731
        CONTACT, trials=n, seed=2, truncate=6, first_trial=first, context=ctx, threads=2
    )
    whole = part(0, 72)
    merged = merge_rollouts([part(36, 36), part(0, 36)])
    assert merged.cubeful_equity == whole.cubeful_equity and merged.mwc == whole.mwc
    assert 0.0 < whole.mwc < 1.0 and whole.mwc_std_error > 0.0
    again = pickle.loads(pickle.dumps(whole))
    assert (again.cubeful_equity, again.mwc) == (whole.cubeful_equity, whole.mwc)
    flipped = whole.flipped()
    assert flipped.mwc == pytest.approx(1.0 - whole.mwc, abs=1e-12)
    # A cubeless part does not merge with a cubeful one.
    with pytest.raises(GammonError):
        merge_rollouts([part(0, 36), rollout(CONTACT, trials=36, seed=2, truncate=6, first_trial=36)])


def test_a_cube_decision_rollout_reports_the_bots_verdict():
    r = rollout_cube(CONTACT, trials=72, seed=1, truncate=6, threads=2)
    assert r.double_pass == 1.0
    assert r.difference_std_error < r.double_take_std_error
    # The verdict is the cube model's, applied to the rolled-out equities: the same label code.
    assert r.action.label == r.label and r.action.double == r.double
    assert r.no_double == r.result.cubeful_equity
    assert r.label in {
        "No double, take",
        "No double, pass",
        "Double, take",
        "Double, pass",
        "Too good to double, pass",
    }
    with pytest.raises(GammonError, match="may not double"):
        rollout_cube(CONTACT, CubeContext.money(value=2, owner="them"), trials=36)
    with pytest.raises(GammonError, match="ply"):
        rollout_cube(CONTACT, trials=36, ply=2)


def test_plays_are_ranked_by_cubeful_equity_with_a_context():
    ctx = CubeContext.match((2, 2))
    ranked = rollout_plays(Position.initial(), 6, 4, trials=36, seed=3, truncate=4, context=ctx)
    equities = [r.cubeful_equity for _, r in ranked]
    assert all(e is not None for e in equities)
    assert equities == sorted(equities, reverse=True)  # type: ignore[type-var]


def test_one_ply_rollout_play():
    r = rollout(CONTACT, trials=4, seed=1, truncate=2, ply=1, threads=2)
    assert r.trials == 4 and "1-ply" in r.setup
    with pytest.raises(GammonError, match="ply=1"):
        rollout(CONTACT, trials=4, policy="pubeval", ply=1)
    with pytest.raises(GammonError, match="ply"):
        rollout(CONTACT, trials=4, ply=7)


def test_the_command_line_rolls_out_a_cube_decision_and_a_cubeful_rollout():
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, "-m", "gammon", "rollout", *a], capture_output=True, text=True, check=False
    )
    out = run(
        CONTACT, "--cube", "--trials", "36", "--truncate", "4", "--match", "7", "--score", "3,5", "--json"
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["double_pass"] == 1.0 and data["context"].startswith("4-away 2-away")
    assert data["label"] == rollout_cube(CONTACT, CubeContext.match((4, 2)), trials=36, truncate=4).label
    out = run(CONTACT, "--cubeful", "--trials", "36", "--truncate", "4", "--json")
    assert out.returncode == 0, out.stderr
    assert "cubeful_equity" in json.loads(out.stdout)
    out = run(CONTACT, "--match", "7", "--trials", "36")
    assert out.returncode != 0 and "--cube" in out.stderr


def test_batches_take_the_cube():
    ctx = CubeContext.money(jacoby=True)
    (a,) = gammon.rollout_batch([CONTACT], trials=36, seed=5, truncate=4, context=ctx)
    b = rollout(CONTACT, trials=36, seed=5, truncate=4, context=ctx)
    assert a.cubeful_equity == b.cubeful_equity


def test_ray_tasks_carry_the_context_as_plain_data():
    # What a Ray task runs (the chunk function, its context as plain data that pickles), merged,
    # is the local result bit for bit; Ray itself is not needed to check that.
    from gammon.batch_rollout import _context, _context_spec, _rollout_chunk

    ctx = CubeContext.match((3, 5), value=2, owner="them")
    spec = _context_spec(ctx)
    assert _context(pickle.loads(pickle.dumps(spec))) == ctx
    money = CubeContext.money(value=2, owner="us", jacoby=True, beavers=True)
    assert _context(_context_spec(money)) == money
    parts = [_rollout_chunk(CONTACT, 36, 9, first, "net", 4, True, spec) for first in (0, 36)]
    local = rollout(CONTACT, trials=72, seed=9, truncate=4, context=ctx)
    merged = merge_rollouts(parts)
    assert (merged.cubeful_equity, merged.mwc) == (local.cubeful_equity, local.mwc)
    with pytest.raises(GammonError, match="context"):
        _context_spec("money")  # type: ignore[arg-type]


def test_a_cubeful_rollout_stops_on_the_cubeful_standard_error():
    ctx = CubeContext.money()
    full = rollout(CONTACT, trials=1296, seed=3, truncate=4, context=ctx, threads=2)
    bound = full.cubeful_std_error * 1.5  # reached well before the end, after a block of 36
    r = rollout(CONTACT, trials=1296, seed=3, truncate=4, context=ctx, threads=2, max_std_error=bound)
    assert r.converged and r.trials % 36 == 0 and r.trials < 1296
    assert r.cubeful_std_error < bound
