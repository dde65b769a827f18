"""One game through Python: the opening roll, plays, the cube, resignations and every refusal.

Expected points come from the rules: a single game is worth the cube, a gammon twice it, a
backgammon three times; a dropped double pays the cube as it was; under the Jacoby rule gammons and
backgammons count single while the cube is centred.
"""

from __future__ import annotations

import pytest

from gammon import Action, Game, GammonError, IllegalActionError, IllegalPlayError, InvalidDiceError, Position

MULTIPLIER = {"single": 1, "gammon": 2, "backgammon": 3}


def bear_off_game(kind: str, *, jacoby: bool = False, beavers: bool = False) -> Game:
    """Player 1 to roll with one checker left on his 1 point; player 0 is left with a `kind` loss."""
    board = [0] * 26
    board[1] = 1
    if kind == "single":
        board[19] = -14  # one of his checkers is off
    elif kind == "gammon":
        board[19] = -15
    else:
        board[19], board[6] = -14, -1  # a checker still in the winner's home board
    fields = Position.from_list(board).xgid.split(":")
    assert fields[3] == "1" and fields[4] == "00"  # the bottom player (player 1) is to roll
    fields[7] = str(int(jacoby) + 2 * int(beavers))
    return Game.from_xgid(":".join(fields), seed=0)


def snapshot(game: Game) -> tuple[str, list[Action], str]:
    return game.gnubg_id, game.history, repr(game)


def refused(game: Game, action, error=IllegalActionError) -> None:
    before = snapshot(game)
    with pytest.raises(error):
        action(game)
    assert snapshot(game) == before


# ----- the opening roll -----


def test_opening_roll_one_die_each_winner_plays_both():
    g = Game(seed=3)
    assert g.turn is None and g.dice is None and g.history == []
    assert g.roll((2, 5)) == (5, 2)
    assert (g.turn, g.dice) == (1, (5, 2))  # player 1 threw the higher die
    (opening,) = g.history
    assert (opening.kind, opening.player, opening.dice) == ("opening_roll", None, (2, 5))
    assert g.play("13/8 13/11") == Position.initial().parse_play(5, 2, "13/11 13/8")
    assert g.turn == 0 and g.dice is None
    assert g.history[-1].kind == "play" and g.history[-1].player == 1


@pytest.mark.parametrize("seed", range(30))
def test_random_opening_roll_is_never_a_double(seed):
    g = Game(seed=seed)
    d = g.roll()
    assert d[0] > d[1] and g.dice == d
    die0, die1 = g.history[0].dice
    assert g.turn == (0 if die0 > die1 else 1) and sorted(d) == sorted((die0, die1))


def test_same_seed_same_dice():
    a, b = Game(seed=11), Game(seed=11)
    for _ in range(6):
        assert a.roll() == b.roll()
        a.play(a.legal_plays()[0])
        b.play(b.legal_plays()[0])
    assert a.gnubg_id == b.gnubg_id


def test_play_takes_a_play_or_text():
    g = Game(seed=1)
    g.roll((3, 1))
    play = Position.initial().parse_play(3, 1, "8/5 6/5")
    assert play in g.legal_plays()
    assert g.play(play) == play
    assert g.position == play.position.swapped()


def test_unplayable_roll_passes_the_turn():
    # Player 1 on the bar against a closed board: any roll passes.
    board = [0] * 26
    board[25] = 1
    for p in range(19, 25):
        board[p] = -2
    board[6] = 14
    board[18] = -3
    g = Game.from_xgid(Position.from_list(board).xgid)
    assert g.turn == 1
    assert g.roll((6, 5)) == (6, 5)
    assert g.turn == 0 and g.dice is None and g.history[-1].kind == "roll"


# ----- how games end -----


@pytest.mark.parametrize("kind", MULTIPLIER)
def test_bearing_off_scores_the_result_kind(kind):
    g = bear_off_game(kind)
    g.roll((1, 1))
    g.play("1/off")
    assert (g.is_over, g.winner, g.result_kind, g.end_reason) == (True, 1, kind, "borne_off")
    assert g.points == MULTIPLIER[kind]
    assert g.turn == 0 and g.to_act is None


@pytest.mark.parametrize("kind", MULTIPLIER)
def test_the_cube_multiplies_the_result(kind):
    g = bear_off_game(kind)
    g.double()
    assert g.double_offered and g.to_act == 0 and g.history[-1].value == 2
    g.take()
    assert (g.cube_value, g.cube_owner, g.double_offered) == (2, 0, False)
    g.roll((2, 1))
    g.play("1/off")
    assert g.points == 2 * MULTIPLIER[kind] and g.result_kind == kind


@pytest.mark.parametrize("kind", MULTIPLIER)
def test_jacoby_counts_gammons_single_until_the_cube_is_turned(kind):
    g = bear_off_game(kind, jacoby=True)
    assert g.jacoby
    g.roll((1, 1))
    g.play("1/off")
    assert g.points == 1 and g.result_kind == kind
    g = bear_off_game(kind, jacoby=True)
    g.double()
    g.take()
    g.roll((1, 1))
    g.play("1/off")
    assert g.points == 2 * MULTIPLIER[kind]


def test_a_dropped_double_pays_the_cube_before_the_double():
    g = bear_off_game("gammon")
    g.double()
    g.drop()
    assert (g.winner, g.points, g.result_kind, g.end_reason) == (1, 1, "single", "dropped")
    assert [a.kind for a in g.history] == ["double", "drop"]
    assert g.history[-1].player == 0


def test_a_dropped_redouble_pays_two():
    g = Game(seed=6)
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()  # player 1
    g.take()
    g.roll((6, 5))
    g.play("24/13")
    assert g.turn == 0 and g.may_double
    g.double()
    assert g.history[-1].value == 4
    g.drop()
    assert (g.winner, g.points, g.cube_value, g.cube_owner) == (0, 2, 2, 0)


def test_beaver_then_take_and_drop():
    g = bear_off_game("gammon", beavers=True)
    g.double()
    g.beaver()
    assert g.history[-1].kind == "beaver" and g.history[-1].value == 4 and g.to_act == 1
    refused(g, lambda x: x.roll())
    g.take()
    assert (g.cube_value, g.cube_owner, g.turn) == (4, 0, 1)
    g.roll((1, 1))
    g.play("1/off")
    assert g.points == 4 * 2
    g = bear_off_game("gammon", beavers=True)
    g.double()
    g.beaver()
    g.drop()
    # The doubler refuses the redouble: he loses the cube as taken, 2.
    assert (g.winner, g.points, g.end_reason) == (0, 2, "dropped")


def test_beaver_needs_the_beaver_rule():
    g = bear_off_game("single")
    g.double()
    refused(g, Game.beaver)


@pytest.mark.parametrize("kind", MULTIPLIER)
def test_accepted_resignation(kind):
    g = bear_off_game("gammon")
    g.double()
    g.take()
    g.resign(kind)  # player 1 is to act: he resigns
    assert g.resignation == (1, kind) and g.to_act == 0
    for action in (Game.roll, Game.double, Game.take, lambda x: x.resign("single")):
        refused(g, action)
    g.accept_resignation()
    assert (g.winner, g.points, g.result_kind, g.end_reason) == (0, 2 * MULTIPLIER[kind], kind, "resigned")


def test_jacoby_resignation_of_a_gammon_counts_one():
    g = bear_off_game("gammon", jacoby=True)
    g.resign("gammon")
    g.accept_resignation()
    assert (g.winner, g.points) == (0, 1)


def test_rejected_resignation_play_goes_on():
    g = bear_off_game("gammon")
    g.roll((2, 1))
    before = g.gnubg_id
    g.resign("single")
    refused(g, lambda x: x.play("1/off"))
    assert g.legal_plays() == []
    g.reject_resignation()
    assert g.resignation is None and g.gnubg_id == before
    assert [a.kind for a in g.history[-2:]] == ["resign", "reject_resignation"]
    g.play("1/off")
    assert g.points == 2


# ----- refusals -----


def test_refusals_before_the_opening_roll():
    g = Game(seed=2)
    for action in (
        lambda x: x.play("8/5 6/5"),
        Game.double,
        Game.take,
        Game.drop,
        Game.beaver,
        lambda x: x.resign("single"),
        Game.accept_resignation,
        Game.reject_resignation,
        lambda x: x.roll((4, 4)),  # ties are rolled again
    ):
        refused(g, action)


def test_refusals_while_a_roll_waits_to_be_played():
    g = Game(seed=2)
    g.roll((3, 1))
    for action in (Game.roll, Game.double, Game.take, Game.drop, Game.accept_resignation):
        refused(g, action)
    refused(g, lambda x: x.play("24/18"), IllegalPlayError)  # no 6 was rolled
    refused(g, lambda x: x.play("eight to five"), IllegalPlayError)
    refused(g, lambda x: x.play(42), IllegalPlayError)
    other = Position.initial().legal_plays(6, 5)[0]
    refused(g, lambda x: x.play(other), IllegalPlayError)


def test_refusals_of_the_cube():
    g = bear_off_game("single")
    refused(g, Game.take)
    g.double()
    for action in (Game.roll, Game.double, lambda x: x.play("1/off")):
        refused(g, action)
    g.take()
    g.roll((1, 2))
    g.play("1/off")
    for action in (Game.roll, Game.double, Game.take, Game.drop, lambda x: x.resign("single")):
        refused(g, action)


def test_only_the_owner_redoubles_and_not_past_the_maximum():
    g = Game(seed=4, cube_max=2)
    assert g.cube_max == 2
    g.roll((3, 1))
    g.play("8/5 6/5")
    g.double()
    g.take()  # player 0 owns the cube at 2, its maximum
    assert (g.cube_owner, g.may_double) == (0, False)
    refused(g, Game.double)  # player 1 does not own it
    g.roll((6, 5))
    g.play("24/13")
    assert g.turn == 0 and not g.may_double
    refused(g, Game.double)  # the owner, at the maximum


def test_bad_arguments_are_clear_errors():
    with pytest.raises(GammonError, match="cube_max"):
        Game(cube_max=48)
    with pytest.raises(GammonError, match="seed"):
        Game(seed=-1)
    g = Game(seed=1)
    with pytest.raises(InvalidDiceError):
        g.roll((7, 1))
    with pytest.raises(InvalidDiceError):
        g.roll("31")
    g.roll((3, 1))
    g.play("8/5 6/5")
    with pytest.raises(GammonError, match="single"):
        g.resign("triple")
    assert g.resignation is None


# ----- IDs, history and text -----


def test_history_replays_the_game():
    g = Game(seed=8, beavers=True)
    while not g.is_over:
        if g.turn is not None and g.dice is None and g.may_double and g.cube_value < 4:
            g.double()
            g.take()
        g.roll()
        if g.dice is not None:
            g.play(g.legal_plays()[-1])
    replay = Game(seed=8, beavers=True)
    for a in g.history:
        if a.kind in ("opening_roll", "roll"):
            replay.roll(a.dice)
        elif a.kind == "play":
            replay.play(a.play)
        elif a.kind == "resign":
            replay.resign(a.result_kind)
        else:
            getattr(replay, a.kind)()
    assert replay.history == g.history
    assert (replay.gnubg_id, replay.winner, replay.points) == (g.gnubg_id, g.winner, g.points)


def test_ids_of_a_game_rebuild_it():
    g = Game(seed=5)
    g.roll((5, 2))
    g.play("8/3 6/4")  # player 0
    g.double()
    for state in range(3):
        rebuilt = Game.from_gnubg_id(g.gnubg_id)
        assert rebuilt.gnubg_id == g.gnubg_id
        assert Game.from_xgid(g.xgid).xgid == g.xgid
        assert (rebuilt.turn, rebuilt.cube_value, rebuilt.cube_owner) == (g.turn, g.cube_value, g.cube_owner)
        if state == 0:
            g.take()
        elif state == 1:
            g.roll((4, 4))
    assert g.gnubg_id == f"{g.position_id}:{g.match_id}" and g.position_id == g.position.id


def test_the_opening_ids_are_gnubgs():
    # gnubg's Position ID of the start; the XGID board of the start with the cube centred.
    g = Game()
    assert g.position_id == "4HPwATDgc/ABMA"
    assert g.xgid.startswith("XGID=-b----E-C---eE---c-e----B-:0:0:")


def test_readable_text():
    g = Game(seed=1)
    assert "before the opening roll" in repr(g)
    g.roll((3, 1))
    assert "player 0 to play 31" in repr(g)
    g.play("8/5 6/5")
    assert [str(a) for a in g.history] == ["opening 3-1", "0 plays 8/5 6/5"]
    assert repr(g.history[1]) == "<Action 0 plays 8/5 6/5>"
    for item in (Game, Action, Game.roll, Game.play, Game.history, Action.kind):
        assert item.__doc__
