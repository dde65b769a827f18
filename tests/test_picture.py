"""Board pictures: the SVG of positions, plays, games, matches and Battlegammon's track, parsed
as XML and checked against the markup contract of docs/pictures.md."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

import gammon
from gammon import Game, GammonError, Match, Position
from gammon import battlegammon as bg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(SVG + "g") if g.get("class") == cls]


def checkers(element: ET.Element, side: str | None = None) -> list[ET.Element]:
    return [
        c
        for c in element.iter(SVG + "circle")
        if c.get("class") == "checker" and side in (None, c.get("data-side"))
    ]


def classed(element: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    return [e for e in element.iter(SVG + tag) if e.get("class") == cls]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(SVG + "text")]


def test_the_initial_position_has_thirty_checkers_on_their_points():
    root = parse(Position.initial().to_svg())
    assert len(checkers(root)) == 30
    assert len(checkers(root, "us")) == len(checkers(root, "them")) == 15
    points = {int(g.get("data-point")): g for g in groups(root, "point")}
    assert sorted(points) == list(range(1, 25))
    # Position.to_list() is the reference: each point holds as many drawn checkers as it says.
    board = Position.initial().to_list()
    for n, g in points.items():
        side = "us" if board[n] > 0 else "them"
        assert len(checkers(g, side)) == abs(board[n]), n
        assert g.get("data-count") == str(abs(board[n]))
    # 167 pips each, the count of the starting position.
    pips = [t for t in root.iter(SVG + "text") if t.get("class") == "pips"]
    assert sorted(t.get("data-value") for t in pips) == ["167", "167"]


def test_a_stack_of_fifteen_shows_its_count():
    p = Position.from_list([0] + [0] * 5 + [15] + [0] * 11 + [-15] + [0] * 6 + [0])
    root = parse(p.to_svg())
    six = next(g for g in groups(root, "point") if g.get("data-point") == "6")
    assert len(checkers(six)) == 5
    assert "15" in texts(six)
    assert len(checkers(root)) == 10


def test_the_bar_and_the_trays_hold_the_rest():
    # Ours: 2 on the bar, 10 on the 6-point, 3 borne off; theirs: 1 on the bar, 4 on our
    # 19-point, 10 borne off.
    board = [-1] + [0] * 5 + [10] + [0] * 12 + [-4] + [0] * 5 + [2]
    p = Position.from_list(board)
    assert p.off == (3, 10)
    root = parse(p.to_svg())
    (our_bar,) = [g for g in groups(root, "bar") if g.get("data-side") == "us"]
    (their_bar,) = [g for g in groups(root, "bar") if g.get("data-side") == "them"]
    assert our_bar.get("data-point") == "25" and their_bar.get("data-point") is None
    assert len(checkers(our_bar, "us")) == 2 and len(checkers(their_bar, "them")) == 1
    (our_tray,) = [g for g in groups(root, "tray") if g.get("data-side") == "us"]
    (their_tray,) = [g for g in groups(root, "tray") if g.get("data-side") == "them"]
    assert our_tray.get("data-point") == "0"
    assert (our_tray.get("data-count"), their_tray.get("data-count")) == ("3", "10")
    assert len(checkers(our_tray)) == 3
    assert len(checkers(their_tray)) == 5 and "10" in texts(their_tray)


def test_cube_dice_score_names_and_arrows():
    p = Position.initial()
    svg = p.to_svg(
        (3, 1),
        cube_value=4,
        cube_owner="them",
        score=(2, 4),
        length=7,
        play="8/5 6/5",
        names=("Ann <1>", None),
    )
    root = parse(svg)
    (cube,) = groups(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("4", "them")
    assert sorted(d.get("data-value") for d in groups(root, "die")) == ["1", "3"]
    arrows = [(a.get("data-from"), a.get("data-to")) for a in groups(root, "arrow")]
    assert arrows == [("8", "5"), ("6", "5")]
    assert any("Ann <1>" in t for t in texts(root))
    scores = {
        t.get("data-side"): t.get("data-value") for t in root.iter(SVG + "text") if t.get("class") == "score"
    }
    assert scores == {"us": "2", "them": "4"}
    # The same play as a Play object, and no cube at all.
    play = p.parse_play(3, 1, "8/5 6/5")
    assert groups(parse(p.to_svg(play=play, cube_value=None)), "cube") == []
    assert len(groups(parse(p.to_svg(play=play)), "arrow")) == 2


def test_the_centred_cube_and_the_other_side_at_the_bottom():
    root = parse(Position.initial().to_svg(bottom="them"))
    (cube,) = groups(root, "cube")
    assert (cube.get("data-value"), cube.get("data-owner")) == ("1", "centred")
    assert "64" in texts(cube)
    # data-point stays in the numbering of the player on roll; the label is the viewer's.
    point = next(g for g in groups(root, "point") if g.get("data-point") == "24")
    assert "1" in texts(point)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"dice": (0, 3)},
        {"dice": "77"},
        {"cube_value": 3},
        {"cube_value": -2},
        {"cube_value": None, "cube_owner": "us"},
        {"cube_owner": "left"},
        {"score": (6, 1), "length": 5},
        {"length": -1},
        {"play": "8/5 6/5"},
        {"dice": (3, 1), "play": "8/2"},
        {"play": 3},
        {"bottom": "top"},
    ],
)
def test_bad_arguments_raise_gammon_errors(kwargs):
    with pytest.raises(GammonError):
        Position.initial().to_svg(**kwargs)


def test_a_play_draws_its_result_with_arrows():
    play = Position.initial().parse_play(6, 4, "24/14")
    root = parse(play._repr_svg_())
    assert root.get("data-position") == play.position.id
    assert [(a.get("data-from"), a.get("data-to")) for a in groups(root, "arrow")] == [
        (str(f), str(t)) for f, t in play.moves
    ]


def test_games_and_matches_draw_their_state():
    game = Game(seed=3)
    parse(game._repr_svg_())  # before the opening roll
    dice = game.roll()
    root = parse(game.to_svg())
    assert root.get("data-position") == game.position.id
    assert sorted(int(d.get("data-value")) for d in groups(root, "die")) == sorted(dice)
    m = Match(5, seed=1)
    m.names = ("Ann", "Bob")
    root = parse(m._repr_svg_())
    assert {t.get("data-length") for t in root.iter(SVG + "text") if t.get("class") == "score"} == {"5"}
    assert any("Ann" in t for t in texts(root)) and any("Bob" in t for t in texts(root))
    # A match read from an XGID (a 2-cube): the cube drawn is the one the reader found.
    read = gammon.read_position("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:4:0:7:10")
    root = parse(read.match._repr_svg_())
    (cube,) = groups(root, "cube")
    assert cube.get("data-value") == str(read.game.cube_value)


def test_the_battlegammon_track():
    p = bg.Position.initial()
    root = parse(p.to_svg("42"))
    assert root.get("class") == "gammon-track"
    fields = {int(g.get("data-field")): g for g in groups(root, "field")}
    assert sorted(fields) == list(range(1, 25))
    # Position.to_list() is the reference for every field's tokens.
    for k, tokens in enumerate(p.to_list(), start=1):
        drawn = [c.get("data-side") for c in fields[k].iter(SVG + "circle") if c.get("class") == "token"]
        assert sorted(drawn) == sorted({"w": "white", "b": "black"}[t] for t in tokens), k
    assert sorted(d.get("data-value") for d in groups(root, "die")) == ["2", "4"]
    play = p.legal_plays(4, 2)[0]
    root = parse(play._repr_svg_())
    assert [(int(a.get("data-from")), int(a.get("data-to"))) for a in groups(root, "arrow")] == list(
        play.moves
    )
    assert len(groups(parse(p.to_svg(play=play)), "arrow")) == 2
    with pytest.raises(GammonError):
        p.to_svg((7, 1))


def test_gammon_show_draws_the_board_the_svg_and_json(capsys, tmp_path):
    from gammon.cli import main

    assert main(["show", "4HPwATDgc/ABMA", "31"]) == 0
    text = capsys.readouterr().out
    assert "167" in text and "3-1" in text
    # The picture of a whole XGID carries its match: the score and the cube (a 2-cube).
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:2:4:0:7:10"
    assert main(["show", xgid, "--svg", "-"]) == 0
    root = parse(capsys.readouterr().out)
    assert groups(root, "cube")[0].get("data-value") == "2"
    assert {t.get("data-length") for t in classed(root, "text", "score")} == {"7"}
    assert sorted(d.get("data-value") for d in groups(root, "die")) == ["1", "3"]
    out = tmp_path / "board.svg"
    assert main(["show", "initial", "--svg", str(out), "--bottom", "them"]) == 0
    assert len(checkers(parse(out.read_text()))) == 30
    assert main(["show", "initial", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["position"] == "4HPwATDgc/ABMA" and data["pips"] == [167, 167]
