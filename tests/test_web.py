"""The web page of ``gammon serve`` in a real browser: Playwright driving Debian's Chromium
against a ``gammon serve`` started with a token on a free loopback port.

Chromium comes from the system (``apt-get install chromium``), never from Playwright's own
downloads. Without it these tests are skipped, except under CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GAMMON_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
TOKEN = "web-test-token"
# Generous: two cores shared with other work; every wait is for a state, never a fixed sleep.
TIMEOUT_MS = 60_000


def _missing() -> str | None:
    if not os.path.exists(CHROMIUM):
        return f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


_why = _missing()
if _why is not None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {_why}", pytrace=False)
    pytest.skip(f"browser tests skipped: {_why}", allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """A ``gammon serve`` on a free port (port 0), with a token; its URL once it listens."""
    process = subprocess.Popen(
        [sys.executable, "-m", "gammon", "serve", "--port", "0", "--ply", "0", "--threads", "2"]
        + ["--token", TOKEN],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert match, f"no address in {line!r}; stderr: {process.stderr.read() if process.stderr else ''}"
        yield match.group(0)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox cannot start.
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def errors() -> list[str]:
    """The page's script errors and console errors; a test expecting a refusal clears them."""
    return []


@pytest.fixture
def page(browser: Browser, url: str, errors: list[str]) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    pg = context.new_page()
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # A 503 while a cancelled rollout winds down is retried by the page: the browser logs it,
    # and it is no error.
    pg.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "status of 503" not in m.text else None,
    )
    # The token travels in the fragment, which the browser never sends; the page sends it as a
    # bearer header.
    pg.goto(f"{url}/#token={TOKEN}")
    expect(pg.locator("body")).to_have_attribute("data-ready", "true")
    yield pg
    context.close()
    assert not errors, errors


def game_state(page: Page) -> Any:
    return page.evaluate("game.state")


def wait_for_answer(page: Page, click: Any, path: str = "/v1/game") -> None:
    """Clicks and waits for the server's answer to `path` to be drawn (the page counts the
    answers it has drawn in the body's data-rendered)."""
    before = page.evaluate("Number(document.body.dataset.rendered || 0)")
    with page.expect_response(lambda r: r.url.endswith(path)) as answer:
        click()
    assert answer.value.status == 200, answer.value.text()
    # One answer, one drawing. (wait_for_function would evaluate a string, which the page's
    # Content-Security-Policy forbids, as it should.)
    expect(page.locator("body")).to_have_attribute("data-rendered", str(before + 1))


def test_the_page_plays_a_money_game_against_the_bot_to_its_end(page: Page) -> None:
    page.select_option("#game-kind", "money")
    # A money game has no length to set.
    expect(page.locator("#match-length")).to_be_hidden()
    page.fill("#game-seed", "11")
    wait_for_answer(page, lambda: page.click("#start"))
    expect(page.locator("#play-board svg")).to_be_visible()
    moved_by_clicks = False
    hinted = False
    for _ in range(400):
        state = game_state(page)
        allowed = state["allowed"]
        if not allowed:
            break
        if "play" in allowed:
            if not hinted:
                # The hint ranks the plays of the roll with the bot's equities.
                with page.expect_response(lambda r: r.url.endswith("/v1/plays")):
                    page.click("#act-hint")
                expect(page.locator("#play-hint table tr")).not_to_have_count(0)
                hinted = True
            play = state["plays"][0]
            if not moved_by_clicks and play["moves"]:
                # Checker by checker on the picture: source point, then destination; undo the
                # last move and enter it again.
                for k, (src, dst) in enumerate(play["moves"]):
                    page.click(f'#play-board [data-point="{src}"]')
                    page.click(f'#play-board [data-point="{dst}"]')
                    if k == 0:
                        page.click("#act-undo")
                        expect(page.locator("#play-entered")).to_contain_text("none")
                        page.click(f'#play-board [data-point="{src}"]')
                        page.click(f'#play-board [data-point="{dst}"]')
                expect(page.locator("#play-entered")).to_contain_text(play["play"])
                moved_by_clicks = True
            else:
                page.locator(f'#play-plays li[data-play="{play["play"]}"] button').click()
            wait_for_answer(page, lambda: page.click("#act-confirm"))
        elif "take" in allowed:
            wait_for_answer(page, lambda: page.click("#act-take"))
        elif "roll" in allowed:
            wait_for_answer(page, lambda: page.click("#act-roll"))
        else:
            pytest.fail(f"unexpected actions {allowed}")
    state = game_state(page)
    assert state["result"] is not None, state["allowed"]
    assert moved_by_clicks and hinted
    expect(page.locator("#play-status")).to_have_attribute("data-over", "all")
    expect(page.locator("#play-status")).to_contain_text("win")
    # The record is there to download, and it is the server's .mat text of the game.
    assert page.locator("#play-mat").text_content() == state["mat"]
    assert "point match" in state["mat"] or "Game 1" in state["mat"]
    assert_not_blank(page)


def test_a_match_starts_with_its_length_and_the_cube_can_be_offered(page: Page) -> None:
    page.select_option("#game-kind", "match")
    expect(page.locator("#match-length")).to_be_visible()
    page.fill("#match-length", "3")
    page.fill("#game-seed", "5")
    wait_for_answer(page, lambda: page.click("#start"))
    expect(page.locator("#play-status")).to_contain_text("Match to 3")
    wait_for_answer(page, lambda: page.click("#act-roll"))
    # Play on to the client's first roll-or-double decision, then double: the bot answers.
    for _ in range(20):
        state = game_state(page)
        if "double" in state["allowed"]:
            break
        if "play" in state["allowed"]:
            page.locator("#play-plays li button").first.click()
            wait_for_answer(page, lambda: page.click("#act-confirm"))
        else:
            wait_for_answer(page, lambda: page.click("#act-roll"))
    wait_for_answer(page, lambda: page.click("#act-double"))
    state = game_state(page)
    # The bot's answer is the record's last action: it takes (play goes on) or passes (game over).
    answer = state["bot_actions"][0]
    assert answer in ("take", "drop") and state["history"][-1] == answer, state["history"][-3:]
    if answer == "take":
        expect(page.locator("#play-status")).to_contain_text("cube 2 (gammon's)")
    else:
        assert state["result"]["reason"] == "dropped"
        expect(page.locator("#act-next")).to_be_visible()


def test_analysis_ranks_plays_judges_the_cube_and_streams_a_cancellable_rollout(page: Page) -> None:
    page.click("#tab-analyse")
    page.fill("#analyse-position", "4HPwATDgc/ABMA")
    page.fill("#analyse-dice", "31")
    with page.expect_response(lambda r: r.url.endswith("/v1/plays")):
        page.click("#analyse-plays")
    # 8/5 6/5 is the best 3-1 opening for every bot (GNU Backgammon ranks it first too).
    expect(page.locator("#analyse-result table tr").nth(1)).to_contain_text("8/5 6/5")
    expect(page.locator("#analyse-board svg")).to_be_visible()
    with page.expect_response(lambda r: r.url.endswith("/v1/cube")):
        page.click("#analyse-cube")
    # The opening position is no double, take for any sensible bot.
    expect(page.locator("#analyse-result .cube-label")).to_contain_text("No double")

    # A short rollout runs to its end...
    page.fill("#rollout-trials", "72")
    page.click("#rollout-start")
    expect(page.locator("#rollout-status")).to_have_attribute("data-state", "done")
    expect(page.locator("#rollout-status")).to_contain_text("72 trials")
    assert page.locator("#rollout-progress").evaluate("e => e.value") == 1
    # ...and a long one is cancelled once it has reported progress.
    page.fill("#rollout-trials", "10000")
    page.click("#rollout-start")
    expect(page.locator("#rollout-progress")).to_have_attribute("data-trials", re.compile(r"^[1-9]"))
    page.click("#rollout-cancel")
    expect(page.locator("#rollout-status")).to_have_attribute("data-state", "cancelled")
    # The server freed the place: another rollout starts and ends (one runs at a time on two
    # threads, so a rollout still running would have it refused with 503).
    page.fill("#rollout-trials", "36")
    page.click("#rollout-start")
    expect(page.locator("#rollout-status")).to_have_attribute("data-state", "done", timeout=TIMEOUT_MS)
    expect(page.locator("#error")).to_be_hidden()


def post_json(url: str, path: str, body: Any) -> Any:
    """The server's JSON answer to `body`, asked without the page."""
    request = urllib.request.Request(
        url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {TOKEN}"},
    )
    with urllib.request.urlopen(request, timeout=TIMEOUT_MS / 1000) as answer:
        return json.load(answer)


def shown(page: Page, field: str) -> tuple[str, str]:
    """The value and the standard error the rollout's figures show for `field`."""
    row = page.locator(f"#rollout-figures tr[data-field='{field}']")
    return row.locator("td.value").inner_text(), row.locator("td.error").inner_text()


def assert_shows(text: str, value: float, digits: int = 3, scale: float = 1.0) -> None:
    """`text` (a number, or a percentage with `scale` 100) is `value` rounded to `digits`."""
    number = float(text.removeprefix("± ").removesuffix("%")) / scale
    assert abs(number - value) <= 0.5 * 10**-digits / scale + 1e-12, (text, value)


def run_rollout(page: Page) -> Any:
    """Starts the rollout the form describes, waits for its end and returns the request the page
    sent to the stream endpoint."""
    with page.expect_request(lambda r: r.url.endswith("/v1/rollout/stream")) as sent:
        page.click("#rollout-start")
    expect(page.locator("#rollout-status")).to_have_attribute("data-state", "done")
    return sent.value.post_data_json


def test_cubeful_and_cube_decision_rollouts_show_the_server_s_figures(page: Page, url: str) -> None:
    page.click("#tab-analyse")
    # A 9-point match at 2-4, the player on roll owning a 2-cube: the context comes from the XGID.
    page.fill("#analyse-position", "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:2:4:0:9:10")
    page.select_option("#rollout-kind", "cubeful")
    expect(page.locator("#rollout-context")).to_be_visible()
    expect(page.locator("#rollout-cube")).to_be_hidden()
    page.fill("#rollout-trials", "36")
    page.fill("#rollout-seed", "7")
    body = run_rollout(page)
    assert body["cubeful"] is True and "match" not in body and "cube" not in body, body
    # The same request to the plain endpoint gives the same rollout (same seed, same games).
    answer = post_json(url, "/v1/rollout", body)
    assert answer["trials"] == 36 and answer["context"]["away"] == [7, 5], answer
    value, error = shown(page, "cubeful_equity")
    assert_shows(value, answer["cubeful_equity"])
    assert_shows(error, answer["cubeful_std_error"])
    value, error = shown(page, "mwc")
    assert_shows(value, answer["mwc"], 2, 100.0)
    assert_shows(error, answer["mwc_std_error"], 2, 100.0)
    value, error = shown(page, "equity")
    assert_shows(value, answer["equity"])
    context = shown(page, "context")[0]
    assert "7-away, 5-away" in context and "cube 2 owned by the player on roll" in context, context
    expect(page.locator("#rollout-figures tr[data-field='no_double']")).to_have_count(0)

    # The cube decision of the opening position in a 5-point match at 2-0, the context chosen.
    page.fill("#analyse-position", "4HPwATDgc/ABMA")
    page.select_option("#rollout-kind", "cube")
    page.select_option("#rollout-stake", "match")
    expect(page.locator("#rollout-match")).to_be_visible()
    expect(page.locator("#rollout-money")).to_be_hidden()
    page.fill("#rollout-length", "5")
    page.fill("#rollout-score-us", "2")
    page.fill("#rollout-score-them", "0")
    body = run_rollout(page)
    assert body["kind"] == "cube" and body["match"] == {"away": [3, 5], "crawford": False}, body
    assert body["cube"] == {"value": 1, "owner": "centred"}, body
    answer = post_json(url, "/v1/rollout", body)
    cube = answer["cube"]
    for field in ["no_double", "double_take"]:
        value, error = shown(page, field)
        assert_shows(value, cube[field])
        assert_shows(error, cube[field + "_std_error"])
    assert_shows(shown(page, "double_pass")[0], cube["double_pass"])
    value, error = shown(page, "difference")
    assert_shows(value, cube["double_take"] - cube["no_double"])
    assert_shows(error, cube["difference_std_error"])
    yes = {True: "yes", False: "no"}
    assert shown(page, "verdict")[0] == ", ".join(yes[cube[k]] for k in ["double", "take", "beaver"])
    assert shown(page, "label")[0] == cube["label"]
    value, error = shown(page, "mwc")
    assert_shows(value, answer["mwc"], 2, 100.0)
    assert "3-away, 5-away" in shown(page, "context")[0]
    expect(page.locator("#rollout-figures tr[data-field='cubeful_equity']")).to_have_count(0)
    expect(page.locator("#error")).to_be_hidden()


def test_a_rollout_s_depth_truncation_and_variance_reduction_reach_the_server(page: Page, url: str) -> None:
    page.click("#tab-analyse")
    page.fill("#analyse-position", "4HPwATDgc/ABMA")
    page.fill("#rollout-trials", "36")
    page.fill("#rollout-seed", "3")
    # The defaults: 0-ply, whole games, the luck taken out.
    body = run_rollout(page)
    assert body["ply"] == 0 and body["variance_reduction"] is True and "truncate" not in body, body
    page.select_option("#rollout-ply", "1")
    page.fill("#rollout-truncate", "4")
    page.uncheck("#rollout-variance-reduction")
    body = run_rollout(page)
    assert body["ply"] == 1 and body["truncate"] == 4 and body["variance_reduction"] is False, body
    # The same request to the plain endpoint: the same games, so the same figures.
    answer = post_json(url, "/v1/rollout", body)
    assert answer["trials"] == 36, answer
    value, error = shown(page, "equity")
    assert_shows(value, answer["equity"])
    assert_shows(error, answer["std_error"])
    # Each setting changes the answer, so each one reached the server: at 0-ply the same dice
    # give other games, with the luck taken out another mean, and whole games another one.
    for change in [{"ply": 0}, {"variance_reduction": True}, {"truncate": None}]:
        other = post_json(url, "/v1/rollout", {**body, **change})
        assert other["equity"] != answer["equity"], (change, other, answer)
    expect(page.locator("#error")).to_be_hidden()


def test_battlegammon_is_played_on_its_own_tab(page: Page) -> None:
    page.click("#tab-battlegammon")
    page.fill("#bg-seed", "2")
    game = "/v1/battlegammon/game"
    wait_for_answer(page, lambda: page.click("#bg-start"), game)
    expect(page.locator("#bg-board svg")).to_be_visible()
    clicked = False
    for _ in range(3):
        wait_for_answer(page, lambda: page.click("#bg-roll"), game)
        state = page.evaluate("bg.state")
        if not state["allowed"]:
            break
        play = state["plays"][0]
        if not clicked and play["moves"]:
            # Token by token on the track: the field moved from, then the field moved to.
            for src, dst in play["moves"]:
                page.click(f'#bg-board .field[data-field="{src}"]')
                page.click(f'#bg-board .field[data-field="{dst}"]')
            clicked = True
        else:
            page.locator("#bg-plays li button").first.click()
        expect(page.locator("#bg-entered")).to_contain_text(play["play"])
        wait_for_answer(page, lambda: page.click("#bg-confirm"), game)
        state = page.evaluate("bg.state")
        # The record holds the client's play, as the server wrote it, then the bot's turn.
        assert f"play {play['play']}" in state["history"]
    assert clicked
    expect(page.locator("#bg-log li")).not_to_have_count(0)


def test_a_match_file_is_analysed_and_stepped_through_to_its_errors(page: Page) -> None:
    # A 5-point match with deliberate errors, from the analysis fixtures.
    mat = Path(__file__).parent / "fixtures" / "analysis" / "noisy_5pt_e.mat"
    page.click("#tab-match")
    page.set_input_files("#match-file", str(mat))
    page.select_option("#match-ply", "0")
    with page.expect_response(lambda r: "/v1/analyse" in r.url) as answer:
        page.click("#match-analyse")
    assert answer.value.status == 200, answer.value.text()
    expect(page.locator("#match-status")).to_have_attribute("data-state", "done")
    analysis = page.evaluate("review.analysis")
    # One row per player under the header, one item per decision of the server's analysis.
    expect(page.locator("#match-players tr")).to_have_count(3)
    expect(page.locator("#match-decisions li")).to_have_count(len(analysis["decisions"]))
    expect(page.locator("#match-board svg")).to_be_visible()
    marked = [k for k, d in enumerate(analysis["decisions"]) if d["mark"]]
    assert marked, "the fixture has errors"
    page.click("#match-next-error")
    expect(page.locator("#match-decisions li.current")).to_have_class(re.compile("mark-"))
    assert page.evaluate("review.index") == marked[0]
    expect(page.locator("#match-decision")).not_to_have_attribute("data-mark", "")


def test_bad_input_shows_the_server_s_message(page: Page, errors: list[str]) -> None:
    page.click("#tab-analyse")
    page.fill("#analyse-position", "nonsense")
    with page.expect_response(lambda r: r.url.endswith("/v1/cube")) as answer:
        page.click("#analyse-cube")
    assert answer.value.status == 400
    expect(page.locator("#error")).to_be_visible()
    expect(page.locator("#error")).to_contain_text("position")
    # The browser logs the 400 it was sent; that one is expected.
    assert all("400" in e for e in errors), errors
    errors.clear()


def assert_not_blank(page: Page) -> None:
    """The screenshot has many shades: the page was drawn, not left white. The pixels are read
    back by the browser itself (a canvas in a blank page), so no image library is needed."""
    png = base64.b64encode(page.screenshot()).decode()
    blank = page.context.new_page()
    try:
        variance = blank.evaluate(
            """async (png) => {
                const image = new Image();
                image.src = "data:image/png;base64," + png;
                await image.decode();
                const canvas = document.createElement("canvas");
                canvas.width = image.width;
                canvas.height = image.height;
                const context = canvas.getContext("2d");
                context.drawImage(image, 0, 0);
                const data = context.getImageData(0, 0, image.width, image.height).data;
                let sum = 0, squares = 0;
                const n = data.length / 4;
                for (let k = 0; k < data.length; k += 4) {
                    const grey = (data[k] + data[k + 1] + data[k + 2]) / 3;
                    sum += grey;
                    squares += grey * grey;
                }
                return squares / n - (sum / n) ** 2;
            }""",
            png,
        )
    finally:
        blank.close()
    # A white page has variance 0; the board, text and buttons give hundreds.
    assert variance > 100, variance
