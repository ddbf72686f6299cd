"""Islands played through the real pages (issue 36, point 2), in headless Debian Chromium
(Playwright, never a downloaded browser) against a real server thread: a game started from the
new-game form and played to its end by tapping cells, and the islands pages at a phone's and a
tablet's size. What is asserted is what the screen shows. Each test leaves screenshots in /tmp.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from tests.support.hexseen import seen
from tests.support.web import CHROMIUM, CHROMIUM_ARGS

pytestmark = pytest.mark.browser

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
PAGE_FITS = "document.documentElement.scrollWidth <= window.innerWidth"


def call(url: str, body: Any = None, token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def dataset(page: Any, key: str) -> str:
    return page.evaluate(f"document.querySelector('#panel .panel').dataset.{key}")


def shown(page: Any, selector: str = "#panel") -> str:
    return " ".join(page.inner_text(selector).split())


def tap(page: Any, cell: str, expect: str | None = None) -> None:
    """Tap a cell and wait for the panel that shows the stones tapped (``expect`` in the
    panel's ``data-placing``, or, by default, the cell itself)."""
    page.click(f"svg.hexboard .hexcell[data-cell={cell}]")
    page.wait_for_function(
        "want => document.querySelector('#panel .panel').dataset.placing.includes(want)",
        arg=expect or f'"{cell}"', timeout=30_000)


def act(page: Any, action: Any) -> None:
    """Do something on the screen and wait until the panel shows the game after it."""
    before = int(dataset(page, "moves"))
    action()
    page.wait_for_function(
        "n => Number(document.querySelector('#panel .panel').dataset.moves) !== n",
        arg=before, timeout=30_000)


def empty_cells(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "svg.hexboard .hexcell:not([data-stone])", "cells => cells.map(c => c.dataset.cell)")


def test_a_game_of_islands_from_the_form_to_its_end_by_tapping(live_server, browser) -> None:
    page = browser.new_page(viewport=TABLET)
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog: {dialog.message}"))
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "islands")
    assert page.locator("select[name=colour0]").is_visible()
    assert not page.locator("select[name=seat0]").is_visible()      # no seats in islands
    assert not page.locator("#wordlist").is_visible()                # nor words
    assert not page.locator("#frozen-row").is_visible()              # two players: no freezing
    page.fill("input[name=name0]", "Ann")
    page.fill("input[name=name1]", "Bo")
    page.select_option("select[name=colour1]", "R")                  # the same colour twice
    page.click("#new-game button[type=submit]")
    assert page.inner_text("#form-message") == "Every player needs a different colour."
    page.select_option("select[name=colour1]", "G")
    page.select_option("select[name=size]", "3")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("svg.hexboard")
    assert page.locator("svg.hexboard .hexcell").count() == 19
    assert shown(page, "#turn") == "Ann (red) to play: 1 stone"

    # Ann's first turn: one stone. Tapping shows it with the referee's preview; tapping it
    # again takes it back; Done judges it.
    tap(page, "c3")
    assert "Ann (red) is placing red c3 (1 of 1 stone allowed)." in shown(page, "#laying")
    page.click("svg.hexboard .hexcell[data-cell=c3]")
    page.wait_for_function("document.querySelector('#panel .panel').dataset.placing === '[]'")
    tap(page, "a1")
    page.click("svg.hexboard .hexcell[data-cell=a2]")              # a second stone: refused
    assert page.inner_text("#message") == "This turn allows 1 stone: tap a stone to take it back."
    act(page, lambda: page.click("button[data-action=done]"))
    assert "Ann (red) placed red a1 (1 of 1 stone allowed)." in shown(page, "#verdict")
    assert page.locator(".hexcell.mark-placed[data-cell=a1][data-stone=R]").count() == 1

    # Bo places one of Ann's stones next to hers (an island for red) and one of his own.
    assert shown(page, "#turn") == "Bo (green) to play: 2 stones"
    page.click("button[data-action=colour][data-colour=R]")
    page.wait_for_selector("button[data-colour=R][aria-pressed=true]")
    tap(page, "a2", '["a2", "R"]')
    page.click("button[data-action=colour][data-colour=G]")
    page.wait_for_selector("button[data-colour=G][aria-pressed=true]")
    tap(page, "e3", '["e3", "G"]')
    laying = shown(page, "#laying")
    assert "Bo (green) is placing red a2 and green e3 (2 of 2 stones allowed)." in laying
    assert "Islands then: red 1, green 0. Red would earn a bonus of 2." in laying
    assert page.locator(".island[data-cells='a1 a2']").count() == 1  # outlined before Done
    assert call(f"{live_server.url}/api/games/{page.url.rsplit('/', 1)[1]}")["moves"][-1][
        "player"] == "Ann"                                          # nothing judged yet
    act(page, lambda: page.click("button[data-action=done]"))
    assert "Islands: red 1, green 0." in shown(page, "#verdict")
    assert shown(page, "#standings").startswith("Player islands bonus rank R Ann (red) 1 2 1")

    # Ann is ahead: Bo's next turns allow a stone more. Undo takes Ann's next turn back.
    tap(page, "c1")
    act(page, lambda: page.click("button[data-action=done]"))
    act(page, lambda: page.click("button[data-action=undo]"))
    assert "Taken back: Ann (red)'s 1 stone. Take red c1 off the board." in shown(page,
                                                                                  "#verdict")
    assert page.locator(".hexcell[data-cell=c1][data-stone]").count() == 0

    # The rest of the game: each player fills as many cells as the turn allows, in their own
    # colour, until the board is full.
    turns = 0
    while dataset(page, "over") == "no":
        cells = empty_cells(page)[:int(dataset(page, "allowed"))]
        for cell in cells:
            tap(page, cell)
        act(page, lambda: page.click("button[data-action=done]"))
        turns += 1
        assert turns < 20
    final = call(f"{live_server.url}/api/games/{page.url.rsplit('/', 1)[1]}")
    assert final["ended"] == "board-full" and final["to_move"] is None
    assert final["board"].count(".") == 0
    names = {"Ann": "Ann (red)", "Bo": "Bo (green)"}
    banner = shown(page, "#turn")
    assert banner == (f"Game over: {names[final['winner']]} wins" if final["winner"]
                      else "Game over: a shared first place for Ann (red) and Bo (green)")
    assert "The game ended because the board is full." in shown(page)
    assert page.locator("svg.hexboard.interactive").count() == 0
    assert page.locator("[data-action=done]").count() == 0
    page.screenshot(path="/tmp/tileref-islands-over.png", full_page=True)


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_the_islands_pages_fit_a_phone_and_a_tablet(live_server, browser, viewport) -> None:
    """No islands page is wider than the screen; on the screen the turn, the colours and Done
    are in view without scrolling."""
    created = call(f"{live_server.url}/api/games", {
        "ruleset": "islands", "options": {"size": 7},
        "players": [{"name": "Annabel", "colour": "W"}, {"name": "Bartholomew", "colour": "K"},
                    {"name": "Cy", "colour": "O"}, {"name": "Dorothea", "colour": "P"}]})
    game, token = created["id"], created["token"]
    call(f"{live_server.url}/api/games/{game}/moves",
         {"player": "Annabel", "place": [["g7", "W"]]}, token)
    page = browser.new_page(viewport=viewport)
    for name, address in {"screen": f"/table/{game}#token={token}",
                          "live": f"/games/{game}/live#token={token}"}.items():
        page.goto(live_server.url + address)
        page.wait_for_selector("svg.hexboard")
        tap(page, "d4")
        assert page.evaluate(PAGE_FITS), (address, page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"))
        for selector in ("#turn", "button[data-colour=P]", "[data-action=done]"):
            box = page.locator(selector).first.bounding_box()
            assert box is not None and box["y"] + box["height"] <= viewport["height"] * (
                1 if viewport is TABLET else 2), (address, selector, box)
        page.screenshot(path=f"/tmp/tileref-{viewport['width']}-islands-{name}.png")
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "islands")
    assert page.evaluate(PAGE_FITS)
    page.screenshot(path=f"/tmp/tileref-{viewport['width']}-islands-new.png", full_page=True)


def test_stones_the_camera_sees_are_shown_then_judged_on_done(live_server, playwright_instance,
                                                             app) -> None:
    """The live page of an islands game: the camera's stones (a reading in the hex reader's
    shape, fed to the table as the frame route would) appear on the board as not judged, with
    the referee's preview, and Done judges them. This browser has no camera, so only the
    readings the test gives reach the table."""
    created = call(f"{live_server.url}/api/games", {
        "ruleset": "islands", "options": {"size": 4},
        "players": [{"name": "Ann", "colour": "R"}, {"name": "Bo", "colour": "B"}]})
    game = created["id"]
    browser = playwright_instance.chromium.launch(
        executable_path=CHROMIUM, args=[arg for arg in CHROMIUM_ARGS if "fake-device" not in arg])
    try:
        page = browser.new_page(viewport=TABLET)
        page.goto(f"{live_server.url}/games/{game}/live#token={created['token']}")
        page.wait_for_selector("#live-waiting:has-text('No camera')")
        service = app.extensions["tileref"].table
        table = service.live_table(game)
        for _ in range(2):
            service.judge_reading(game, table, seen({"d4": "R"}))
        page.wait_for_selector(".hexcell.mark-provisional[data-cell=d4][data-stone=R]")
        laying = shown(page, "#laying")
        assert "Ann (red) is placing red d4 (1 of 1 stone allowed)." in laying
        assert "Not judged yet: say Done when the stones are down." in laying
        act(page, lambda: page.click("button[data-action=done]"))
        assert "Ann (red) placed red d4 (1 of 1 stone allowed)." in shown(page, "#verdict")
        assert "camera" in shown(page, ".log")
        assert page.locator(".hexcell.mark-placed[data-cell=d4][data-stone=R]").count() == 1
        page.screenshot(path="/tmp/tileref-islands-live.png")
    finally:
        browser.close()
