"""The built-in bot through Python: plays, rankings, evaluations and argument checking."""

from __future__ import annotations

import random

import pytest

import gammon
from gammon import Bot, Position


def test_best_play_is_legal_and_first_in_the_ranking() -> None:
    p = Position.initial()
    bot = Bot()
    for d1, d2 in [(3, 1), (6, 5), (4, 4), (2, 1)]:
        ranked = bot.rank_plays(p, d1, d2)
        legal = p.legal_plays(d1, d2)
        assert sorted(str(r.play) for r in ranked) == sorted(str(play) for play in legal)
        assert bot.best_play(p, d1, d2) == ranked[0].play
        equities = [r.equity for r in ranked]
        assert equities == sorted(equities, reverse=True)


def test_best_play_is_the_first_of_the_ranking_throughout_games() -> None:
    # The bot's choice at 0-ply judges every play with the whole net, as its ranking does: on
    # these decisions a choice judging only a few plays with the net's head took another play
    # in about one in seventy.
    rng = random.Random(5)
    bot = Bot()
    decisions = 0
    while decisions < 1500:
        p = Position.initial()
        while decisions < 1500:
            d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
            ranked = bot.rank_plays(p, d1, d2)
            assert bot.best_play(p, d1, d2) == ranked[0].play, (p.id(), d1, d2)
            decisions += 1
            after = ranked[rng.randrange(min(2, len(ranked)))].play.position
            if after.off[0] == 15:
                break
            p = after.swapped()


def test_opening_three_one_makes_the_five_point() -> None:
    # Every strong bot and every book plays 8/5 6/5 with an opening 3-1.
    assert str(Bot().best_play(Position.initial(), 3, 1)) == "8/5 6/5"


def test_evaluation_is_consistent() -> None:
    e = Bot().evaluate(Position.initial())
    assert 0.4 < e.win < 0.6
    assert e.win >= e.win_gammon >= e.win_backgammon >= 0.0
    assert 1.0 - e.win >= e.lose_gammon >= e.lose_backgammon >= 0.0
    expected = 2 * e.win - 1 + e.win_gammon - e.lose_gammon + e.win_backgammon - e.lose_backgammon
    assert e.equity == pytest.approx(expected)


def test_bear_off_positions_are_exact() -> None:
    # Two checkers on our 1-point: any roll bears both off, a certain win (they have 14 off: no
    # gammon).
    board = [0] * 26
    board[1] = 2
    board[24] = -1
    e = Bot().evaluate(Position.from_list(board))
    assert e.win == pytest.approx(1.0)
    assert e.win_gammon == 0.0


def test_deeper_bots_agree_on_an_obvious_play() -> None:
    for ply in (1, 2):
        bot = Bot(ply=ply)
        assert bot.ply == ply
        ranked = bot.rank_plays(Position.initial(), 3, 1)
        assert ranked[0].ply == ply
        assert str(ranked[0].play) == "8/5 6/5"


@pytest.mark.parametrize("ply", [-1, 3, 10**30, "one", None])
def test_bad_ply_is_refused(ply: object) -> None:
    with pytest.raises(gammon.GammonError, match="ply"):
        Bot(ply=ply)  # type: ignore[arg-type]


def test_bad_dice_and_finished_games_are_refused() -> None:
    bot = Bot()
    with pytest.raises(gammon.InvalidDiceError):
        bot.best_play(Position.initial(), 0, 3)
    board = [0] * 26
    board[10] = -15
    over = Position.from_list(board)  # we have borne off all 15; they have none off: a gammon
    with pytest.raises(gammon.IllegalActionError, match="over"):
        bot.rank_plays(over, 3, 1)
    assert bot.evaluate(over).equity == 2.0


def test_probabilities_is_one_type_under_its_old_name_too() -> None:
    import gammon

    assert gammon.Evaluation is gammon.Probabilities
    r = gammon.Bot().rank_plays(gammon.Position.initial(), 3, 1)[0]
    assert isinstance(r.probabilities, gammon.Probabilities)
    assert r.evaluation == r.probabilities
    result = gammon.rollout(gammon.Position.initial(), trials=36, seed=1, policy="pubeval")
    assert isinstance(result.probabilities, gammon.Probabilities)
    assert result.probabilities.win == result.win
