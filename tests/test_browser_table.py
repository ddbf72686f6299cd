"""An evening's play at a real table, in headless Debian Chromium (Playwright) against a real
server thread: issue 34's browser tests.

A game started from the tiles already on the table, read through the fake webcam (a .y4m of a
rendered board); a whole game played through the camera, each play ended with Done; a word
caught half laid that is not judged; a correction that sticks; the pages at a phone's and a
tablet's size. Where the camera's picture must change as tiles go down, the test posts rendered
JPEG frames through the frame route (the real reader reads them) while the page shows the game.
Each test leaves a screenshot in /tmp to look at.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from lab.render import RenderOptions, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"width": 1024, "height": 768}
PHONE = {"width": 390, "height": 844}
LOOK = {"tilt": 15.0, "noise": 0.5, "board_style": "modern"}


def tiles_of(spec: dict[str, str]) -> dict[Cell, Tile]:
    return {Cell.parse(cell): Tile.parse(token) for cell, token in spec.items()}


def render(spec: dict[str, str], seed: int = 12) -> Any:
    return render_board_photo(tiles_of(spec), seed=seed, width=1024, height=768,
                              options=RenderOptions(**LOOK))


def call(url: str, body: Any = None, token: str | None = None,
         content_type: str = "application/json") -> Any:
    data = None if body is None else body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if data is None else "POST",
                                     headers={"Content-Type": content_type})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def test_a_game_started_from_the_tiles_on_the_table(live_server, launch_browser, tmp_path: Path):
    """The new-game form reads the board through the (fake) webcam, draws it, the players name
    the blank the camera cannot read by tapping it, choose who plays next, and the game starts
    from there: the camera's view of that board is no play."""
    from lab.video import write_y4m

    on_the_table = {"G15": "C^", "H15": "A^", "I15": "T^", "J15": "s^",
                    "I1": "Dv", "H1": "Ov", "G1": "Gv", "F1": "Sv"}
    photo = render(on_the_table)
    video = write_y4m(tmp_path / "table.y4m", [photo.image] * 4, fps=2)
    page = launch_browser(fake_video=video).new_page(viewport=TABLET)
    page.goto(live_server.url + "/")
    page.fill("input[name=name0]", "Ann")
    page.fill("input[name=name1]", "Bo")
    page.check("input[name=start_from][value=table]")
    page.click("#position-camera")
    page.wait_for_selector("#position-drawn svg", timeout=60_000)
    page.wait_for_selector("#position-problems li:has-text('the blank on J15 has no letter yet')")
    assert page.locator("#position-drawn g.cell[data-tile]").count() == 8
    page.screenshot(path="/tmp/tileref-position-read.png")
    page.click("#position-drawn g.cell[data-cell='J15']")
    page.fill("#fix-form input[name=letter]", "S")
    page.check("#fix-form input[name=blank]")
    page.click("#fix-form button[value=set]")
    page.wait_for_selector("#position-drawn g.cell[data-cell='J15'][data-tile='s^']")
    assert "has no letter yet" not in page.inner_text("#position-problems")
    page.select_option("#to-move", label="Bo (North)")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("text=Bo (North) to play")
    assert page.locator("g.cell[data-cell='J15'][data-tile='s^']").count() == 1
    page.screenshot(path="/tmp/tileref-position-started.png")
    game_id = page.url.rsplit("/", 1)[1]
    state = call(f"{live_server.url}/api/games/{game_id}")
    assert state["history"] == [] and state["to_move"] == "N"
    assert state["strength"] == {"S": 5, "N": 6}      # CATs: the blank is worth nothing


def camera_sees(service, game_id: str, spec: dict[str, str], frames: int = 2) -> None:
    """The live camera reads ``spec`` (cell -> token, as the reader reports: a blank is ``?``)
    steadily for ``frames`` frames, through the frame route's ``judge_reading``."""
    from vision import BoardReading, CellReading

    tiles = tiles_of(spec)
    reading = BoardReading(tuple(CellReading(cell.name, tile.letter, tile.rotation or 0,
                                             blank=tile.blank) for cell, tile in tiles.items()),
                           ())
    table = service.live_table(game_id)
    for _ in range(frames):
        service.judge_reading(game_id, table, reading)


def new_game(server, **extra: Any) -> tuple[str, str]:
    created = call(f"{server.url}/api/games", {
        "ruleset": "archipelago",
        "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}], **extra})
    return created["id"], created["token"]


def test_a_correction_sticks(live_server, browser):
    """The camera reads a phantom blank on the empty D1 while Ann lays CAT. Tapping D1 and
    choosing "Empty square" takes it out of the play being laid; Done judges CAT; the camera,
    still seeing the phantom (now facing Bo, whose turn it is), makes no play of it."""
    game_id, token = new_game(live_server)
    service = live_server.app.extensions["tileref"].table
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    cat = {"G15": "C^", "H15": "A^", "I15": "T^"}
    camera_sees(service, game_id, {**cat, "D1": "?^"})
    page.wait_for_selector("#laying:has-text('Ann (South) has put down 4 tiles')")
    assert page.locator("g.cell.mark-provisional").count() == 4
    page.click("g.cell[data-cell='D1']")
    assert "a blank" in page.inner_text("#fix-seen")
    page.click("#fix-form button[value=empty]")
    page.wait_for_selector("#laying:has-text('Ann (South) is laying CAT.')")
    assert page.locator("g.cell[data-cell='D1'][data-tile]").count() == 0
    page.click("#laying button[data-action=done]")
    page.wait_for_selector("#verdict:has-text('Ann (South) played CAT')")
    for phantom in ("?v", "?^"):
        camera_sees(service, game_id, {**cat, "D1": phantom}, frames=3)
    page.wait_for_selector("text=Bo (North) to play")
    assert page.locator("#laying").count() == 0
    page.screenshot(path="/tmp/tileref-correction-sticks.png")
    state = call(f"{live_server.url}/api/games/{game_id}")
    assert [entry["legal"] for entry in state["history"]] == [True]
    assert state["corrections"][0]["cell"] == "D1" and state["corrections"][0]["tile"] is None


def dispute(page, server, photo: Path) -> None:
    """Upload ``photo`` on the dispute page and wait for the board read from it."""
    page.goto(server.url + "/dispute")
    page.set_input_files("input[name=photo]", str(photo))
    page.click("form.upload button[type=submit]")
    page.wait_for_selector("#dispute-board svg")


def judge_on(page, word: str, at: str) -> None:
    """Judge South's ``word`` across from ``at`` on the dispute page."""
    page.fill("#judge-form input[name=word]", word)
    page.fill("#judge-form input[name=at]", at)
    page.click("#judge-form button[type=submit]")
    page.wait_for_selector("#dispute-verdict")


def test_the_dispute_page_is_tapped_like_the_board(live_server, browser, tmp_path: Path):
    """A photo with a blank the reader cannot name: the blank is tapped and named in the same
    dialog as on the referee board, the play is judged on the board so fixed, a dragged
    corner is put back with one tap, and the overlay's marks are explained."""
    import cv2

    photo = render({"G8": "C^", "H8": "a^", "I8": "T^"}, seed=4)
    path = tmp_path / "dispute.jpg"
    cv2.imwrite(str(path), photo.image)
    page = browser.new_page(viewport=TABLET)
    dispute(page, live_server, path)
    assert page.locator("#overlay-legend li").count() == 5
    page.click("#dispute-board g.cell[data-cell='H8']")
    assert "a blank, its letter not named" in page.inner_text("#fix-seen")
    page.fill("#fix-form input[name=letter]", "A")
    page.check("#fix-form input[name=blank]")
    page.click("#fix-form button[value=set]")
    page.wait_for_selector("#dispute-board g.cell[data-cell='H8'][data-tile='a^']")
    judge_on(page, "CAT", "G8")
    assert "CaT" in page.inner_text("#dispute-verdict") or "CAT" in page.inner_text(
        "#dispute-verdict")
    handle = page.locator(".corner-editor .handle").first
    before = handle.bounding_box()
    box = before
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + 40, box["y"] + 30, steps=4)
    page.mouse.up()
    assert handle.bounding_box()["x"] > before["x"] + 10
    page.click("#reset-corners")
    assert abs(handle.bounding_box()["x"] - before["x"]) < 1
    page.screenshot(path="/tmp/tileref-dispute-tapped.png", full_page=True)


PAGE_FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.mark.parametrize("viewport", [TABLET, PHONE], ids=["tablet", "phone"])
def test_every_page_fits_and_the_verdict_is_above_the_fold(live_server, browser, viewport,
                                                          tmp_path: Path):
    """At 1024x768 and 390x844 no page is wider than the screen, and on the referee board and
    the live page the verdict, with Done, Pass and Undo, is in view without scrolling."""
    import cv2

    game_id, token = new_game(live_server)
    call(f"{live_server.url}/api/games/{game_id}/moves",
         {"player": "S", "word": "CAT", "at": "G15", "dir": "across"}, token)
    colony = call(f"{live_server.url}/api/games", {
        "ruleset": "colonization", "players": [{"name": "Ann"}, {"name": "Bo"}],
        "options": {"seed": 3}})
    draft = call(f"{live_server.url}/api/games", {
        "ruleset": "firstdraft", "players": [{"name": "Ann"}, {"name": "Bo"}],
        "options": {"seed": 5}})
    path = tmp_path / "board.jpg"
    cv2.imwrite(str(path), render({"G8": "C^", "H8": "A^", "I8": "T^"}, seed=4).image)
    page = browser.new_page(viewport=viewport)
    pages = {"index": "/", "board": f"/games/{game_id}#token={token}",
             "live": f"/games/{game_id}/live#token={token}",
             "colonization": f"/table/{colony['id']}", "firstdraft": f"/table/{draft['id']}",
             "dispute": "/dispute", "error": "/no-such-page"}
    for name, address in pages.items():
        page.goto(live_server.url + address)
        page.wait_for_load_state()
        assert page.evaluate(PAGE_FITS), (address, page.evaluate(
            "[document.documentElement.scrollWidth, window.innerWidth]"))
        if address.startswith(f"/games/{game_id}"):
            for selector in ("#verdict .headline", "[data-action=done]", "[data-action=pass]",
                             "[data-action=undo]"):
                box = page.locator(selector).first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= viewport["height"], (
                    address, selector, box)
            assert "Ann (South) played CAT" in page.inner_text("#verdict")
        page.screenshot(path=f"/tmp/tileref-{viewport['width']}-{name}.png")
    dispute(page, live_server, path)
    judge_on(page, "CATS", "G8")
    assert page.evaluate(PAGE_FITS), page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]")
    page.screenshot(path=f"/tmp/tileref-{viewport['width']}-dispute-judged.png", full_page=True)


def test_exchange_and_share_are_asked_in_dialogs(live_server, browser):
    """No prompt() box: the number of tiles exchanged and the link to share are asked in the
    page's own dialogs, which fit a phone."""
    game_id, token = new_game(live_server)
    page = browser.new_page(viewport=PHONE)
    page.on("dialog", lambda dialog: pytest.fail(f"a browser dialog: {dialog.message}"))
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    page.click("button[data-action=exchange]")
    assert page.locator("#exchange-dialog").is_visible()
    page.fill("#exchange-dialog input[name=count]", "3")
    page.click("#exchange-dialog button[value=ok]")
    page.wait_for_selector("#verdict:has-text('Ann (South) exchanged 3 tiles.')")
    page.click("button[data-action=share]")
    link = page.input_value("#share-dialog input[name=link]")
    assert link == f"{live_server.url}/games/{game_id}#token={token}"
    assert page.evaluate(PAGE_FITS)
    page.click("#share-dialog button[value=cancel]")
    assert not page.locator("#share-dialog").is_visible()
    # Colonization's screen asks the same way.
    colony = call(f"{live_server.url}/api/games", {
        "ruleset": "colonization", "players": [{"name": "Ann"}, {"name": "Bo"}],
        "options": {"seed": 3, "languages": {"Ann": "FLORBIX", "Bo": "QUENDAR"}}})
    page.goto(f"{live_server.url}/table/{colony['id']}#token={colony['token']}")
    page.click("button[data-action=exchange]")
    page.fill("#exchange-dialog input[name=count]", "2")
    page.click("#exchange-dialog button[value=ok]")
    page.wait_for_selector("#verdict:has-text('Ann exchanged 2 tiles.')")


RECORD_SPEECH = """
window.__spoken = [];
const recorder = { speak: (u) => window.__spoken.push(u.text), cancel: () => {} };
if (!("speechSynthesis" in window)) {
  Object.defineProperty(window, "speechSynthesis", { value: recorder });
} else {
  window.speechSynthesis.speak = recorder.speak;
  window.speechSynthesis.cancel = recorder.cancel;
}
if (typeof SpeechSynthesisUtterance === "undefined") {
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
}
"""
"""Records what the page asks the browser's speech synthesis to say (``window.__spoken``)."""


def test_the_referee_speaks_each_verdict_when_asked(live_server, browser):
    """With the table page's toggle on, each verdict, the tiles to lift off, and an undo's tiles
    to put back are said aloud in the board's own words; with it off, nothing is."""
    from referee.boardtext import format_board_text

    capture = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
    game_id, token = new_game(live_server, position={
        "board": format_board_text(tiles_of(capture)), "to_move": "S"})
    page = browser.new_page(viewport=TABLET)
    page.add_init_script(RECORD_SPEECH)
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    spoken = lambda: page.evaluate("window.__spoken")  # noqa: E731
    page.check("#speak")
    assert spoken() == ["I will say each verdict."]
    call(f"{live_server.url}/api/games/{game_id}/moves",
         {"player": "S", "word": "TO", "at": "H7", "dir": "down"}, token)
    page.wait_for_function("window.__spoken.length > 1", timeout=20_000)
    assert spoken()[1] == ("Ann (South) played TO, worth 2. Captured Bo (North)'s DOG. "
                           "Tiles taken over: H8. Lift off J8.")
    page.click("button[data-action=undo]")
    page.wait_for_function("window.__spoken.length > 2", timeout=20_000)
    assert spoken()[2] == ("Taken back: Ann (South)'s TO. Put back Bo (North)'s G on H8 and "
                           "Bo (North)'s D on J8: the camera checks them. Ann (South) plays "
                           "again.")
    page.reload()                                     # on again, and the news is not said again
    assert page.is_checked("#speak") and spoken() == []
    page.uncheck("#speak")
    call(f"{live_server.url}/api/games/{game_id}/moves", {"player": "S", "pass": True}, token)
    page.wait_for_selector("#verdict:has-text('Ann (South) passed.')")
    assert spoken() == []


def jpeg_of(spec: dict[str, str]) -> tuple[bytes, Any]:
    """A rendered camera frame of the board holding ``spec``, and the board's corners in it."""
    import cv2

    photo = render(spec)
    return cv2.imencode(".jpg", photo.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes(), \
        photo.corners


def camera_frames(server, game_id: str, token: str, spec: dict[str, str], until: Any,
                  most: int = 14) -> dict:
    """Post the camera's frames of ``spec`` (the real reader reads them) until an answer
    satisfies ``until``; that answer."""
    frame, _ = jpeg_of(spec)
    for _ in range(most):
        answer = call(f"{server.url}/api/games/{game_id}/frames", frame, token, "image/jpeg")
        if until(answer):
            return answer
    raise AssertionError(f"no such answer to {spec}: {answer}")


def laying(*words: str) -> Any:
    return lambda answer: answer.get("provisional") is not None \
        and answer["provisional"]["words"][:1] == list(words)


def test_a_whole_game_through_the_camera_ended_with_done(live_server, browser):
    """Ann and Bo play an archipelago game to its end at a table: the camera's frames (rendered
    boards, read by the real reader) come in as tiles go down one at a time, the referee board
    on a tablet shows each play being laid and judges it only when its player says Done (the
    button, or the space bar); a word caught half laid is never judged; an illegal attempt is
    refused and taken back; four passes in a row end the game."""
    game_id, token = new_game(live_server)
    _, corners = jpeg_of({})
    call(f"{live_server.url}/api/games/{game_id}/corners",
         {"corners": [[float(x), float(y)] for x, y in corners]}, token)
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    url = f"{live_server.url}/api/games/{game_id}"
    board: dict[str, str] = {}

    def lay(tiles: dict[str, str], *words: str) -> None:
        board.update(tiles)
        camera_frames(live_server, game_id, token, board, laying(*words))
        page.wait_for_selector(f"#laying:has-text('is laying {words[0]}.')", timeout=20_000)

    camera_frames(live_server, game_id, token, {}, lambda a: a["waiting_for"] == "a play")
    lay({"G15": "C^", "H15": "A^"}, "CA")                 # half laid: shown, not judged
    assert call(url)["history"] == []
    lay({"I15": "T^"}, "CAT")
    page.click("#laying button[data-action=done]")
    page.wait_for_selector("#verdict:has-text('Ann (South) played CAT, worth 5.')")
    lay({"I1": "Dv", "H1": "Ov", "G1": "Gv"}, "DOG")
    page.locator("body").press(" ")                       # the space bar says Done
    page.wait_for_selector("#verdict:has-text('Bo (North) played DOG, worth 5.')")
    lay({"J15": "E^"}, "CATE")                            # a word on the way to another
    assert len(call(url)["history"]) == 2
    lay({"K15": "R^"}, "CATER")
    page.click("#laying button[data-action=done]")
    page.wait_for_selector("#verdict:has-text('Ann (South) played CATER, worth 7.')")
    lay({"F1": "Xv"}, "DOGX")
    page.click("#laying button[data-action=done]")
    page.wait_for_selector("#verdict:has-text(\"Not legal: Bo (North)'s DOGX "
                           "(not in the word list).\")")
    del board["F1"]                                       # Bo takes the X back and passes
    camera_frames(live_server, game_id, token, board, lambda a: "provisional" not in a
                  and a["waiting_for"] == "a play" and a["reading"] is not None)
    for who in ("Bo (North)", "Ann (South)", "Bo (North)", "Ann (South)"):
        page.click("button[data-action=pass]")
        page.wait_for_selector(f"#verdict:has-text('{who} passed.')")
    page.wait_for_selector("text=Game over: Ann (South) wins")
    page.screenshot(path="/tmp/tileref-whole-game.png")
    state = call(url)
    assert state["strength"] == {"S": 12, "N": 5} and state["winner"] == "S"
    assert [entry["source"] for entry in state["history"]] == ["camera"] * 4 + ["api"] * 4
    assert [entry["legal"] for entry in state["history"]] == [True, True, True, False] + [True] * 4
