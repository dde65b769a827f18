"""Rollouts from Python: reproducibility, exact merging, exact small races, control and errors."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest

from gammon import (
    Bot,
    GammonError,
    InvalidDiceError,
    Position,
    RolloutResult,
    merge_rollouts,
    policy_play,
    rollout,
    rollout_plays,
)


def last_checkers(ours: int, theirs: int) -> Position:
    """We have one checker on our point ``ours``, they one on their point ``theirs``."""
    board = [0] * 26
    board[ours] = 1
    board[25 - theirs] = -1
    return Position.from_list(board)


def one_roll_bear_off(point: int) -> Fraction:
    """Exact chance that a lone checker on ``point`` bears off in one roll (all 36 outcomes)."""
    wins = 0
    for a in range(1, 7):
        for b in range(1, 7):
            wins += (4 * a if a == b else a + b) >= point
    return Fraction(wins, 36)


@pytest.mark.parametrize("point", [1, 4, 6])
def test_one_roll_races_are_exact(point):
    # We win at once or they bear off their last checker next turn: a single game either way. With
    # the first roll stratified over the 36 outcomes, 36 trials give the exact value.
    p = last_checkers(point, 1)
    exact = one_roll_bear_off(point)
    r = rollout(p, trials=72, seed=11, policy="random")
    assert r.win == pytest.approx(float(exact), abs=1e-9)
    assert r.equity == pytest.approx(float(2 * exact - 1), abs=1e-9)
    assert r.win_gammon == r.lose_gammon == 0


def test_same_seed_same_result_whatever_the_threads():
    p = Position.from_id("4HPwATDgc/ABMA")
    runs = [rollout(p, trials=216, seed=3, threads=t, policy="pubeval") for t in (1, 2, None)]
    assert len({(r.equity, r.win, r.win_gammon, r.lose_backgammon, r.std_error) for r in runs}) == 1
    other = rollout(p, trials=216, seed=4, threads=1, policy="pubeval")
    assert (other.equity, other.win) != (runs[0].equity, runs[0].win)


def test_parts_merge_exactly_and_survive_pickling():
    whole = rollout("opening", trials=108, seed=9, policy="random")
    parts = [rollout("opening", trials=36, seed=9, policy="random", first_trial=k) for k in (0, 36, 72)]
    parts[1] = pickle.loads(pickle.dumps(parts[1]))
    merged = merge_rollouts(parts)
    assert (merged.equity, merged.win, merged.std_error, merged.trials) == (
        whole.equity,
        whole.win,
        whole.std_error,
        whole.trials,
    )
    with pytest.raises(GammonError):
        merge_rollouts([parts[0], parts[2]])  # not consecutive


def test_the_net_judging_every_play_is_a_policy_of_its_own():
    p = "4HPwATDgc/ABMA"
    runs = [
        rollout(p, trials=72, seed=2, threads=t, policy="net-all", variance_reduction=False) for t in (1, 2)
    ]
    assert runs[0].equity == runs[1].equity and runs[0].std_error == runs[1].std_error
    assert "net-all" in runs[0].setup
    screened = rollout(p, trials=72, seed=2, policy="net", first_trial=72, variance_reduction=False)
    with pytest.raises(GammonError):
        merge_rollouts([runs[0], screened])  # parts played by different policies
    with pytest.raises(GammonError, match="net-all"):
        rollout(p, trials=36, policy="net-some")


def test_results_of_other_weights_do_not_merge():
    p = "4HPwATDgc/ABMA"
    parts = [rollout(p, trials=36, seed=3, first_trial=36 * k) for k in range(2)]
    assert "weights=" in parts[0].setup and parts[0].setup == parts[1].setup
    assert "weights=" not in rollout(p, trials=36, seed=3, policy="pubeval").setup
    # The second part as a release with other weights would have made it: only the setup differs.
    rebuild, (state,) = parts[1].__reduce__()
    setup, *rest = state[6]
    older = rebuild((*state[:6], (setup.replace("weights=", "weights=0"), *rest), *state[7:]))
    assert merge_rollouts([parts[0], parts[1]]).trials == 72
    with pytest.raises(GammonError, match="setups"):
        merge_rollouts([parts[0], older])


def test_the_narrower_net_is_a_policy_of_its_own():
    p = "4HPwATDgc/ABMA"
    runs = [rollout(p, trials=72, seed=2, threads=t, policy="net-fast") for t in (1, 2)]
    assert runs[0].equity == runs[1].equity and runs[0].std_error == runs[1].std_error
    assert "net-fast" in runs[0].setup
    # Its own games: neither the default's (the bot's nets on their screen's best plays) nor
    # those of the bot judging every play.
    others = [rollout(p, trials=72, seed=2, policy=name) for name in ("net", "net-all")]
    assert all(o.equity != runs[0].equity for o in others)
    assert rollout(p, trials=72, seed=2).equity == others[0].equity  # "net" is the default
    with pytest.raises(GammonError, match="net-fast"):
        rollout(p, trials=36, policy="net-wide")


def test_opening_is_even_with_the_same_policy_on_both_sides():
    r = rollout("opening", trials=2160, seed=1, policy="pubeval")
    assert abs(r.equity) < 3 * r.std_error
    assert 0 <= r.win_backgammon <= r.win_gammon <= r.win <= 1
    assert 0 <= r.lose_backgammon <= r.lose_gammon <= 1 - r.win


def test_progress_is_called_and_can_stop_the_rollout():
    seen: list[int] = []

    def progress(partial: RolloutResult) -> bool:
        seen.append(partial.trials)
        return False

    r = rollout("opening", trials=10**6, seed=2, policy="random", progress=progress)
    assert r.cancelled and 0 < r.trials < 10**6 and seen
    # The partial result is a prefix of the trials: it reproduces exactly.
    again = rollout("opening", trials=r.trials, seed=2, policy="random")
    assert again.equity == r.equity


def test_ctrl_c_returns_the_partial_result():
    def interrupt(_: RolloutResult) -> None:
        raise KeyboardInterrupt

    r = rollout("opening", trials=10**6, seed=2, policy="random", progress=interrupt)
    assert r.cancelled and r.trials < 10**6


def test_callback_errors_propagate():
    def broken(_: RolloutResult) -> None:
        raise RuntimeError("broken callback")

    with pytest.raises(RuntimeError, match="broken callback"):
        rollout("opening", trials=10**6, policy="random", progress=broken)


def test_stops_once_precise_enough():
    r = rollout("opening", trials=10**6, seed=5, policy="pubeval", max_std_error=0.05)
    assert r.converged and r.std_error < 0.05 and r.trials % 30 == 0


def test_ranked_plays():
    ranked = rollout_plays(Position.initial(), 6, 5, trials=72, seed=3, policy="pubeval")
    assert {str(p) for p, _ in ranked} == {str(p) for p in Position.initial().legal_plays(6, 5)}
    equities = [r.equity for _, r in ranked]
    assert equities == sorted(equities, reverse=True)


@pytest.mark.parametrize(
    "kwargs, fragment",
    [
        ({"policy": "nope"}, "policy"),
        ({"trials": 0}, "trials"),
        ({"truncate": 5, "policy": "pubeval"}, "evaluator"),
        ({"threads": 0}, "threads"),
        ({"max_std_error": -1.0}, "max_std_error"),
    ],
)
def test_bad_arguments_raise(kwargs, fragment):
    with pytest.raises(GammonError, match=fragment):
        rollout("opening", **kwargs)


def test_positions_in_any_notation():
    a = rollout("4HPwATDgc/ABMA", trials=36, seed=1)
    b = rollout(Position.initial(), trials=36, seed=1)
    assert a.equity == b.equity
    with pytest.raises(GammonError):
        rollout(42)  # type: ignore[arg-type]


POLICIES = ("random", "pubeval", "net", "net-fast", "net-all")


@pytest.mark.parametrize("position_id", ["4HPwATDgc/ABMA", "zGbiIQgxH/AAWA", "+hkAAPwGCAj4AA"])
def test_a_policy_plays_a_legal_play_of_every_roll(position_id):
    p = Position.from_id(position_id)
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            legal = p.legal_plays(d1, d2)
            for policy in POLICIES:
                assert policy_play(p, d1, d2, policy=policy) in legal, (policy, d1, d2)


def test_net_all_plays_as_the_bot_and_the_seed_moves_only_random():
    p = Position.from_id("4HPwATDgc/ABMA")
    bot = Bot()
    for d1, d2 in [(3, 1), (6, 5), (4, 4), (2, 1), (6, 6)]:
        assert policy_play(p, d1, d2, policy="net-all") == bot.best_play(p, d1, d2)
        assert policy_play(p, d1, d2, policy="net", seed=1) == policy_play(p, d1, d2, policy="net", seed=2)
    random_plays = {policy_play(p, 2, 1, policy="random", seed=s) for s in range(40)}
    assert len(random_plays) > 1
    assert policy_play(p, 2, 1, policy="random", seed=7) == policy_play(p, 2, 1, policy="random", seed=7)


def test_a_policy_play_refuses_bad_input():
    p = Position.from_id("4HPwATDgc/ABMA")
    with pytest.raises(GammonError, match="net-some"):
        policy_play(p, 3, 1, policy="net-some")
    with pytest.raises(InvalidDiceError):
        policy_play(p, 0, 1)
    over = Position.from_id("AAAAAAAAAAAAAA")  # no checker left on either side
    with pytest.raises(GammonError, match="over"):
        policy_play(over, 3, 1)
