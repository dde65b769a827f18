"""The gammon.battlegammon contract, and the rules of docs/rules/battlegammon.md.

Expected plays are worked out by hand from the rules; each test says how.
"""

from __future__ import annotations

import copy
import pickle
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gammon.battlegammon as bg
from gammon import (
    GammonError,
    IllegalActionError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidPositionError,
)
from gammon.battlegammon import Bot, Game, Play, Position


def board(turn: str, fields: dict[int, str]) -> Position:
    """The position with `turn` to move and `fields[k]` (tokens bottom to top) on field k."""
    return Position.from_list([fields.get(k, "") for k in range(1, 25)], turn)


def moves_of(plays: list[Play]) -> list[tuple[tuple[int, int], ...]]:
    return [play.moves for play in plays]


def token_counts(p: Position) -> tuple[int, int]:
    fields = "".join(p.to_list())
    return fields.count("w"), fields.count("b")


def snapshot(game: Game) -> tuple[object, ...]:
    return (game.position, game.turn, game.dice, game.turns, game.history, game.is_over, game.winner)


# White's tokens on 2..7 are pinned under Black's; White's only free tokens are on 8 and 10, and two
# White tokens have finished on field 24 under four Black ones. White 6+1+1+2, Black 6+4.
COVERING = board("white", {**{k: "wb" for k in range(2, 8)}, 8: "w", 10: "w", 24: "bbbbww"})

# White needs one more token on field 24 to win by (a); its free tokens are on 21 and on its start
# field. White 7+1+2, Black 1+2+2+5.
NEAR_GOAL = board("white", {1: "w" * 7, 16: "b", 19: "bb", 20: "bb", 21: "w", 24: "bbbbbww"})

# White has seven tokens on Black's colour, two of them stacked on 13, and one more on 12.
# White 2+1+7, Black 10 on its start field.
NEAR_COLOUR = board("white", {1: "ww", 12: "w", 13: "ww", **{k: "w" for k in range(14, 19)}, 24: "b" * 10})

# White's only free token is on 13; 14 and 15 are full. White 6 pinned + 13 + 15 pinned + 2 in the
# goal, Black 6 tops + 15 top + 2 on 14 + 1 on its start field.
BOXED_IN = board("white", {**{k: "wb" for k in range(2, 8)}, 13: "w", 14: "bb", 15: "wb", 24: "bww"})


# -- the contract -------------------------------------------------------------------------------


def test_module_exports_the_four_classes():
    assert set(bg.__all__) >= {"Position", "Play", "Game", "Bot"}
    for cls in (Position, Play, Game, Bot):
        assert cls.__module__ == "gammon.battlegammon"
    assert bg.__doc__ and ">>>" in bg.__doc__


def test_initial_position_is_the_setup_of_the_rules():
    p = Position.initial()
    setup = {1: "wwwww", 5: "w", 8: "ww", 9: "ww", 16: "b", 19: "bb", 20: "bb", 24: "bbbbb"}
    assert p.to_list() == [setup.get(k, "") for k in range(1, 25)]
    assert p.turn == "black"  # Black always moves first
    assert p.winner is None
    assert token_counts(p) == (10, 10)
    assert p == board("black", setup)


def test_ids_round_trip_and_positions_are_values():
    p = Position.initial()
    assert isinstance(p.id, str)
    assert Position.from_id(p.id) == p
    assert hash(Position.from_id(p.id)) == hash(p)
    assert eval(repr(p), {"Position": Position}) == p
    after = p.legal_plays(6, 5)[0].position
    assert after != p and Position.from_id(after.id) == after
    assert len({p, Position.initial(), after}) == 2
    assert Position.from_id(p.id.upper()) == p  # reading accepts either case


def test_str_draws_the_serpentine_board():
    rows = [line.split() for line in str(Position.initial()).splitlines()]
    numbers = [row for row in rows if row and all(c.strip("[]").isdigit() for c in row)]
    assert numbers == [
        ["8", "7", "6", "5", "4", "3", "2", "[1]"],
        ["9", "10", "11", "12", "13", "14", "15", "16"],
        ["17"],
        ["[24]", "23", "22", "21", "20", "19", "18"],
    ]
    assert "Black to move" in str(Position.initial())


def test_plays_carry_moves_position_and_notation():
    p = Position.initial()
    plays = p.legal_plays(4, 2)
    assert plays and all(isinstance(play, Play) for play in plays)
    assert len({play.position for play in plays}) == len(plays)  # one play per distinct result
    # The 4 first, tokens from the lowest field up: 16/12, then the 2 from 19, 20 or 24.
    assert moves_of(plays)[:3] == [((16, 12), (19, 17)), ((16, 12), (20, 18)), ((16, 12), (24, 22))]
    first = plays[0]
    assert str(first) == "16/12 19/17"
    assert repr(first) == "Play('16/12 19/17')"
    assert first.position.turn == "white"
    assert first.position.to_list()[11] == "b" and first.position.to_list()[16] == "b"
    assert not first.wins and not first.is_pass
    assert first == Position.initial().legal_plays(2, 4)[0] and hash(first) == hash(plays[0])


def test_a_new_game_and_its_attributes():
    game = Game(seed=3)
    assert (game.turn, game.dice, game.turns, game.history) == ("black", None, 0, [])
    assert (game.is_over, game.is_draw, game.winner) == (False, False, None)
    assert game.position == Position.initial()
    assert game.rules == {"maximize_dice": False, "count_distinct_fields": False, "turn_cap": 1000}
    d = game.roll()
    assert game.dice == d and all(1 <= x <= 6 for x in d) and d[0] >= d[1]
    assert game.legal_plays() == Position.initial().legal_plays(*d)
    made = game.play(game.legal_plays()[-1])
    assert game.history == [("black", d, made)]
    assert (game.turn, game.dice, game.turns, game.position) == ("white", None, 1, made.position)


def test_set_dice_and_play_by_moves():
    game = Game()
    assert game.roll((2, 4)) == (4, 2)
    made = game.play([(16, 12), (19, 17)])
    assert str(made) == "16/12 19/17"
    assert game.position == Position.initial().legal_plays(4, 2)[0].position
    game.roll([3, 3])
    # White's 9 stacks on Black's token that just came to 12.
    assert game.play(((1, 4), (9, 12))).position.to_list()[11] == "bw"


def test_the_same_seed_rolls_the_same_dice_whatever_is_played():
    def rolls(seed: int, pick: int) -> list[tuple[int, int]]:
        game = Game(seed=seed)
        out = []
        while not game.is_over and len(out) < 40:
            out.append(game.roll())
            game.play(game.legal_plays()[pick])
        return out

    first, last = rolls(11, 0), rolls(11, -1)
    n = min(len(first), len(last))
    assert n >= 10 and first[:n] == last[:n]
    assert rolls(12, 0)[:n] != first[:n]


def test_rule_options_are_taken_by_name():
    game = Game(seed=1, maximize_dice=True, count_distinct_fields=1, turn_cap=50)
    assert game.rules == {"maximize_dice": True, "count_distinct_fields": True, "turn_cap": 50}
    with pytest.raises(GammonError, match="unknown rule option.*double_sixes"):
        Game(double_sixes=True)
    with pytest.raises(GammonError, match="turn_cap"):
        Game(turn_cap=0)
    with pytest.raises(GammonError, match="maximize_dice"):
        Game(maximize_dice="yes")
    with pytest.raises(GammonError, match="seed"):
        Game(seed=-1)


# -- rules, worked out by hand ------------------------------------------------------------------


def test_a_double_moves_two_tokens_once_each():
    # Black's free tokens at the start: 16, the tops of 19 and 20, and the five on 24. Every 6 is
    # open (to 10, 13, 14, 18); a lower token on 19 or 20 is free once the top one has left and the
    # start field gives two tokens, so the results are the 6 pairs of {16, 19, 20, 24} plus 19+19,
    # 20+20 and 24+24: nine plays of two moves each.
    plays = Position.initial().legal_plays(6, 6)
    assert len(plays) == 9
    assert all(len(play.moves) == 2 for play in plays)
    assert {tuple(sorted(f for f, _ in play.moves)) for play in plays} == {
        (16, 19),
        (16, 20),
        (16, 24),
        (19, 20),
        (19, 24),
        (20, 24),
        (19, 19),
        (20, 20),
        (24, 24),
    }


def test_a_win_ends_the_turn_at_once_and_the_goal_needs_the_exact_number():
    # 3-1. The 3 first: 1/4, then 1/2 or 21/22; or 21/24, the third token home, which wins at once.
    # The 1 first: 1/2 then 1/4 (the same as 1/4 1/2) or 21/24 (wins on the second move);
    # 21/22 then 1/4 (the same as 1/4 21/22).
    plays = NEAR_GOAL.legal_plays(3, 1)
    assert moves_of(plays) == [
        ((1, 4), (1, 2)),
        ((1, 4), (21, 22)),
        ((21, 24),),
        ((1, 2), (21, 24)),
    ]
    assert [play.wins for play in plays] == [False, False, True, True]
    assert plays[2].position.winner == "white"
    # 4-1: 21 + 4 overshoots field 24, so 21 only moves by the 1.
    assert moves_of(NEAR_GOAL.legal_plays(4, 1)) == [((1, 5), (1, 2)), ((1, 5), (21, 22))]


def test_a_won_game_refuses_every_action():
    game = Game(seed=5, position=NEAR_GOAL)
    game.roll((3, 1))
    game.play([(21, 24)])
    assert (game.is_over, game.winner, game.is_draw) == (True, "white", False)
    assert game.position.to_list()[23] == "bbbbbwww"
    before = snapshot(game)
    for action in (game.roll, game.legal_plays, lambda: game.play([])):
        with pytest.raises(IllegalActionError, match="over"):
            action()
        assert snapshot(game) == before
    with pytest.raises(IllegalActionError):
        Bot().best_play(game.position, 3, 1)


def test_tokens_stack_without_capture_and_pin_the_lower_one():
    # White's 8 moves 2 onto Black's single token on 10: both stay, White on top.
    p = board("white", {1: "w" * 6, 8: "w", 10: "b", 11: "bw", 12: "ww", 24: "b" * 8})
    play = next(play for play in p.legal_plays(2, 1) if play.moves[0] == (8, 10))
    assert play.position.to_list()[9] == "bw"
    assert token_counts(play.position) == (10, 10)
    # Black's tokens on 10 and 11 are pinned: none of its plays moves them.
    assert all(f not in (10, 11) for q in play.position.legal_plays(6, 5) for f, _ in q.moves)
    # 5-3: 8/11 lands on the full 11 only once 11/16 has uncovered Black's token there; 8/13
    # jumps over the full 11 and 12.
    plays = p.legal_plays(5, 3)
    assert [q.moves for q in plays if (8, 11) in q.moves] == [((11, 16), (8, 11))]
    assert any((8, 13) in q.moves for q in plays)
    # 3-2: 12/15 uncovers the lower token on 12, which may then use the 2.
    assert ((12, 15), (12, 14)) in moves_of(p.legal_plays(3, 2))


def test_either_die_may_be_played_first_unless_maximize_dice():
    # 3-2 with free tokens on 8 and 10: 8/11 10/12 and 10/13 8/10 play both dice; 8/10 lands on
    # the token on 10 and pins it, so the 3 has no token left: a play of one die. 10/12 8/11 is
    # the first play again.
    assert moves_of(COVERING.legal_plays(3, 2)) == [((8, 11), (10, 12)), ((10, 13), (8, 10)), ((8, 10),)]
    game = Game(position=COVERING, maximize_dice=True)
    game.roll((3, 2))
    assert moves_of(game.legal_plays()) == [((8, 11), (10, 12)), ((10, 13), (8, 10))]
    with pytest.raises(IllegalPlayError):
        game.play([(8, 10)])
    assert Game(position=COVERING).roll((3, 2)) == (3, 2)
    default = Game(position=COVERING)
    default.roll((2, 3))
    assert default.play([(8, 10)]).moves == ((8, 10),)


def test_an_unplayable_roll_passes_and_a_single_move_ends_the_turn():
    # White's only free token is on 13: 2-1 lands on the full 14 or 15, 3-1 only plays 13/16.
    [pass_] = BOXED_IN.legal_plays(2, 1)
    assert pass_.is_pass and pass_.moves == () and str(pass_) == "pass"
    assert pass_.position.to_list() == BOXED_IN.to_list() and pass_.position.turn == "black"
    assert moves_of(BOXED_IN.legal_plays(3, 1)) == [((13, 16),)]
    game = Game(position=BOXED_IN)
    game.roll((1, 2))
    assert game.play([]).is_pass
    assert (game.turn, game.turns) == ("black", 1)


def test_eight_tokens_on_the_opponents_colour_win_unless_distinct_fields_are_counted():
    # 12/18 brings White's eighth token over (on six distinct fields): a win by tokens, ending the
    # turn; counting distinct fields it is not, and no 1 afterwards reaches a seventh field.
    plays = NEAR_COLOUR.legal_plays(6, 1)
    win = next(play for play in plays if play.moves[0] == (12, 18))
    assert win.moves == ((12, 18),) and win.wins and win.position.winner == "white"
    game = Game(position=NEAR_COLOUR, count_distinct_fields=True)
    game.roll((6, 1))
    distinct = [play for play in game.legal_plays() if play.moves[0] == (12, 18)]
    assert distinct and all(len(play.moves) == 2 and not play.wins for play in distinct)
    game.play(distinct[0])
    assert not game.is_over and game.position.winner == "white"  # Position.winner: default rules


def test_the_turn_cap_draws():
    # Black has no token on White's colour and gets two moves in two turns: nobody can win yet.
    game = Game(seed=2, turn_cap=2)
    for _ in range(2):
        game.roll()
        game.play(game.legal_plays()[0])
    assert (game.is_over, game.is_draw, game.winner) == (True, True, None)
    with pytest.raises(IllegalActionError):
        game.roll()


# -- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", ":"),
        ("x:" + "/" * 23, "w or b"),
        ("b:" + "/" * 22, "24 fields"),
        ("b:wwwww////www///w/ww///////b///bb/bb////bbbbb", "field 5 holds 3"),
        ("b:wwwww////w///ww/w///////b///bb/bb////bbbbb", "exactly 10"),
        ("b:wwwww////w///ww/ww///////b///bb/bb////bbbbq", "not a token"),
        ("b:bwwwww////w///ww/ww///////b///bb/bb////bbbb", "first"),
    ],
)
def test_bad_ids_raise_clear_errors(text, fragment):
    with pytest.raises(InvalidPositionError, match=fragment):
        Position.from_id(text)


def test_bad_sides_and_lists_raise():
    with pytest.raises(InvalidPositionError, match="red"):
        Position.from_list(Position.initial().to_list(), "red")
    with pytest.raises(InvalidPositionError, match="24 fields"):
        Position.from_list(["w"] * 10, "white")
    with pytest.raises(InvalidPositionError, match="field 3"):
        Position.from_list(["", "", 5] + [""] * 21, "white")
    with pytest.raises(InvalidPositionError, match="list of 24 strings"):
        Position.from_list("wwwww", "white")


@pytest.mark.parametrize("d1, d2", [(0, 3), (7, 1), (3, -1), (2**70, 1), ("a", 1), (None, 2)])
def test_bad_dice_raise(d1, d2):
    with pytest.raises(InvalidDiceError):
        Position.initial().legal_plays(d1, d2)
    with pytest.raises(InvalidDiceError):
        Bot().best_play(Position.initial(), d1, d2)
    game = Game(seed=1)
    with pytest.raises(InvalidDiceError):
        game.roll((d1, d2))
    assert game.dice is None


def test_errors_are_gammon_errors_and_value_errors():
    for cls in (InvalidPositionError, InvalidDiceError, IllegalPlayError, IllegalActionError):
        assert issubclass(cls, GammonError) and issubclass(cls, ValueError)
    with pytest.raises(GammonError, match="ply"):
        Bot(ply=2)
    with pytest.raises(GammonError, match="candidates"):
        Bot(candidates=-1)
    with pytest.raises(GammonError, match="unknown rule option"):
        Bot(doubles=True)


def test_refused_actions_leave_the_game_unchanged():
    game = Game(seed=9)
    start = snapshot(game)
    with pytest.raises(IllegalActionError, match="roll"):
        game.legal_plays()
    with pytest.raises(IllegalActionError, match="roll"):
        game.play([(16, 12), (19, 17)])
    for bad in ((1, 2, 3), 12, "66"):
        with pytest.raises(InvalidDiceError):
            game.roll(bad)
    assert snapshot(game) == start
    game.roll((4, 2))
    rolled = snapshot(game)
    with pytest.raises(IllegalActionError, match="already rolled"):
        game.roll()
    for bad in (
        [(16, 11), (19, 17)],
        [(16, 12)],
        [(16, 12), (16, 10)],
        [(24, 20), (24, 22)],
        [(16, 12), (12, 10)],
        "16/12",
        [1, 2],
    ):
        with pytest.raises(IllegalPlayError):
            game.play(bad)
    with pytest.raises(IllegalPlayError):
        game.play(Position.initial().legal_plays(6, 5)[0])  # a play of another roll
    assert snapshot(game) == rolled


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**64 - 1), st.data())
def test_illegal_moves_never_change_a_game(seed, data):
    game = Game(seed=seed)
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 30))):
        game.roll()
        game.play(rng.choice(game.legal_plays()))
        if game.is_over:
            return
    game.roll()
    legal = {play.moves for play in game.legal_plays()}
    moves = data.draw(st.lists(st.tuples(st.integers(0, 25), st.integers(0, 25)), max_size=3))
    before = snapshot(game)
    if tuple(moves) in legal:
        return
    with pytest.raises(IllegalPlayError):
        game.play(moves)
    assert snapshot(game) == before


# -- whole games --------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 2**64 - 1), st.sampled_from([{}, {"maximize_dice": True}, {"count_distinct_fields": True}])
)
def test_random_games_end_and_keep_ten_tokens_a_side(seed, options):
    game = Game(seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over:
        d = game.roll()
        plays = game.legal_plays()
        assert plays and len({play.position for play in plays}) == len(plays)
        play = rng.choice(plays)
        assert len(play.moves) <= 2 and play.position.turn != game.turn
        assert all(abs(t - f) in d for f, t in play.moves)
        game.play(play)
        assert token_counts(game.position) == (10, 10)
    assert game.turns == len(game.history) <= 1000
    assert game.is_draw == (game.winner is None)
    if game.winner is not None and not options:
        assert game.position.winner == game.winner
        assert game.history[-1][0] == game.winner and game.history[-1][2].wins


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(0, 5))
def test_positions_pickle_and_copy(seed, turns, protocol):
    game = Game(seed=seed)
    rng = random.Random(seed)
    for _ in range(turns):
        if game.is_over:
            break
        game.roll()
        game.play(rng.choice(game.legal_plays()))
    p = game.position
    for q in (pickle.loads(pickle.dumps(p, protocol=protocol)), copy.deepcopy(p), Position.from_id(p.id)):
        assert q == p and hash(q) == hash(p) and type(q) is Position
        assert q.to_list() == p.to_list() and q.turn == p.turn


def test_the_bot_ranks_plays_and_evaluates():
    p = Position.initial()
    bot = Bot()
    ranked = bot.rank_plays(p, 5, 3)
    assert sorted(play.moves for play, _ in ranked) == sorted(moves_of(p.legal_plays(5, 3)))
    assert bot.best_play(p, 5, 3) == ranked[0][0]
    assert all(0.0 <= chance <= 1.0 for _, chance in ranked)
    assert 0.0 < bot.evaluate(p) < 1.0
    won = NEAR_GOAL.legal_plays(3, 1)[2].position  # White has won; Black is to move
    assert bot.evaluate(won) == 0.0
    # A winning play is always taken.
    assert Bot().best_play(NEAR_GOAL, 3, 1).wins
    assert Bot(ply=0).best_play(NEAR_GOAL, 3, 1).wins


def test_the_bot_beats_a_random_player_on_mirrored_dice():
    bot = Bot()
    score = 0.0
    pairs = 10
    for pair in range(pairs):
        for bot_side in ("white", "black"):
            game = Game(seed=1000 + pair)  # the same dice for both seatings
            rng = random.Random(pair)
            while not game.is_over:
                d1, d2 = game.roll()
                if game.turn == bot_side:
                    game.play(bot.best_play(game.position, d1, d2))
                else:
                    game.play(rng.choice(game.legal_plays()))
            score += 1.0 if game.winner == bot_side else 0.5 if game.is_draw else 0.0
    assert score / (2 * pairs) >= 0.8


def test_the_bot_gives_the_same_plays_from_several_threads():
    positions = [play.position for play in Position.initial().legal_plays(6, 5)]
    rolls = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
    jobs = [(p, roll) for p in positions for roll in rolls[:6]]
    bot = Bot()
    alone = [bot.best_play(p, *roll) for p, roll in jobs]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda job: bot.best_play(job[0], *job[1]), jobs))
    assert together == alone


def test_positions_are_read_by_the_engine_reader():
    read_position = bg.read_position
    p = Position.initial().legal_plays(4, 2)[0].position
    assert read_position(p.id) == p
    assert read_position(" INITIAL ") == Position.initial()
    with pytest.raises(InvalidPositionError, match="empty string"):
        read_position("  ")
    with pytest.raises(InvalidPositionError, match="ID"):
        read_position("not an id")
