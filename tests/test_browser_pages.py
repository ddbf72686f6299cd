"""The real pages in headless Debian Chromium (Playwright), served by a real server thread.

Few but real: a second screen follows the game through Server-Sent Events, a game is set up and
played from the tablet, the live page sends the fake camera's frames (a .y4m of rendered
boards), and a dispute photo is read. Each test leaves a screenshot in /tmp to look at.
"""

from __future__ import annotations

import json
import re
import urllib.request

import pytest

from lab.truth import DEV_PHOTOS as PHOTOS
from referee.boardtext import Tile
from referee.cells import Cell

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def drag(page, handle, dx: float, dy: float) -> None:
    """Drag a corner handle by (dx, dy) CSS pixels, as a finger would (pointing at it once it
    stands still: the live page moves as frames come)."""
    handle.hover()
    box = handle.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()

TABLET = {"width": 1280, "height": 800}


def post(url: str, body: dict, token: str | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def create_game(server) -> tuple[str, str]:
    created = post(f"{server.url}/api/games", {
        "ruleset": "archipelago",
        "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]})
    return created["id"], created["token"]


def test_second_screen_follows_moves_through_sse(live_server, browser):
    game_id, token = create_game(live_server)
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/games/{game_id}")       # a screen without the token
    page.wait_for_selector("text=Ann (South) to play")
    post(f"{live_server.url}/api/games/{game_id}/moves",
         {"player": "S", "word": "CAT", "at": "G15", "dir": "across"}, token)
    page.wait_for_selector("text=Ann (South) played CAT, worth 5.", timeout=20000)
    page.wait_for_selector("text=Bo (North) to play")
    assert page.locator("g.cell[data-cell='H15'][data-tile='A^']").count() == 1
    page.screenshot(path="/tmp/tileref-board.png")
    # Without the token this screen watches: its buttons say so and change nothing.
    page.click("button[data-action=pass]")
    page.wait_for_selector("#message:has-text('This screen can only watch')")
    page.goto(f"{live_server.url}/games/{game_id}/live")
    page.wait_for_selector("#live-waiting:has-text('This screen has no say in the game')")
    assert page.inner_text("#sent") == "0"
    state = json.loads(urllib.request.urlopen(f"{live_server.url}/api/games/{game_id}").read())
    assert len(state["moves"]) == 1 and state["to_move"] == "N"


def test_set_up_and_play_from_the_tablet(live_server, browser):
    page = browser.new_page(viewport=TABLET)
    page.goto(live_server.url + "/")
    page.fill("input[name=name0]", "Cleo")
    page.fill("input[name=name1]", "Dan")
    assert page.input_value("select[name=seat1]") == "N"   # two players: South and North
    page.screenshot(path="/tmp/tileref-new-game.png")
    page.click("button[type=submit]")
    page.wait_for_selector("text=Cleo (South) to play")
    page.fill("#play-form input[name=word]", "dog")
    page.fill("#play-form input[name=at]", "G15")
    page.click("#play-form button[type=submit]")
    page.wait_for_selector("text=Cleo (South) played DOG, worth 5.")  # typed lowercase: no blanks
    page.click("button[data-action=pass]")
    page.wait_for_selector("text=Dan (North) passed.")
    page.click("button[data-action=undo]")
    page.wait_for_selector("text=Dan (North) to play")
    page.click("g.cell[data-cell='H8']")
    assert page.locator("#fix-dialog").is_visible()
    page.fill("#fix-form input[name=letter]", "Q")
    page.click("#fix-form button[value=cancel]")
    page.screenshot(path="/tmp/tileref-play.png")


def test_live_camera_play_is_judged_and_shown(live_server, launch_browser, tmp_path):
    """Fake webcam → browser → server → referee → page.

    The .y4m is a steady camera over a game: the empty board, then a hand reaching in (the
    page must say so and nothing is judged), then the board with CAT on it.
    """
    from lab.render import RenderOptions, render_board_photo
    from lab.video import write_y4m

    tiles = {Cell.parse("G15"): Tile("C", False, 0), Cell.parse("H15"): Tile("A", False, 0),
             Cell.parse("I15"): Tile("T", False, 0)}
    look = {"tilt": 15.0, "noise": 0.5, "board_style": "modern"}
    empty = render_board_photo({}, seed=12, width=800, height=600,
                               options=RenderOptions(**look))
    hand = render_board_photo({}, seed=12, width=800, height=600,
                              options=RenderOptions(**look, hand=True))
    photo = render_board_photo(tiles, seed=12, width=800, height=600,
                               options=RenderOptions(**look))
    # 2 s of the empty board, 3 s of a hand, 12 s of CAT (long enough on a busy machine: the
    # view must settle, be read twice and agree before the referee sees it).
    video = write_y4m(tmp_path / "board.y4m",
                      [empty.image] * 4 + [hand.image] * 6 + [photo.image] * 24, fps=2)
    browser = launch_browser(fake_video=video)
    game_id, token = create_game(live_server)
    # The players dragged the corners once (the camera does not move during the game).
    post(f"{live_server.url}/api/games/{game_id}/corners",
         {"corners": [[float(x), float(y)] for x, y in photo.corners]}, token)
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/games/{game_id}/live#token={token}")
    page.wait_for_function(
        "document.getElementById('live-detail').textContent.includes('a hand is over the board')",
        timeout=30000)
    page.wait_for_selector("#panel .waiting:has-text('a hand is over the board')", timeout=20000)
    page.screenshot(path="/tmp/tileref-live-hand.png")
    assert json.loads(urllib.request.urlopen(
        f"{live_server.url}/api/games/{game_id}").read())["moves"] == []
    # The camera's CAT is shown as not judged yet; nothing is recorded until Done.
    page.wait_for_selector("#laying:has-text('Ann (South) is laying CAT.')", timeout=30000)
    assert page.locator("g.cell.mark-provisional").count() == 3
    assert json.loads(urllib.request.urlopen(
        f"{live_server.url}/api/games/{game_id}").read())["moves"] == []
    page.click(".live-card button[data-action=done]")
    page.wait_for_selector("text=Ann (South) played CAT, worth 5.", timeout=30000)
    page.wait_for_selector("text=Bo (North) to play")
    assert page.evaluate("document.getElementById('video').videoWidth") == 800
    assert int(page.inner_text("#sent")) >= 3
    page.screenshot(path="/tmp/tileref-live.png")
    # Frames keep coming, their status lines with them: the page below them stays put.
    heights = set()
    for _ in range(12):
        heights.add(page.evaluate("document.querySelector('.live-card').offsetHeight"))
        page.wait_for_timeout(150)
    assert len(heights) == 1, heights
    # Drag the top-left corner on the latest camera frame and use it: logged as an event.
    page.click("#corners-card summary")
    page.wait_for_selector("#live-corners .handle >> nth=3")
    handle = page.locator("#live-corners .handle").first
    handle.scroll_into_view_if_needed()
    drag(page, handle, -10, -8)
    page.click("#save-corners")
    page.wait_for_selector("text=Saved: the camera now reads inside these corners.")
    state = json.loads(urllib.request.urlopen(f"{live_server.url}/api/games/{game_id}").read())
    top_left = state["corners"][0]
    # Moved as far as the finger moved (in the frame's pixels), wherever it took the handle.
    scale = 800 / page.evaluate("document.querySelector('#live-corners img').clientWidth")
    assert abs(top_left[0] - (photo.corners[0][0] - 10 * scale)) <= 1.5
    assert abs(top_left[1] - (photo.corners[0][1] - 8 * scale)) <= 1.5
    assert state["corners"][2] == [round(v) for v in photo.corners[2]]


@pytest.mark.photos
def test_dispute_page_reads_a_photo(live_server, browser):
    photo = PHOTOS / "jheidel__scrabble-opencv__IMG_20141025_163920.jpg"
    page = browser.new_page(viewport=TABLET)
    page.goto(live_server.url + "/dispute")
    page.set_input_files("input[name=photo]", str(photo))
    page.click("form.upload button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("img.overlay").count() + page.locator(".error-line").count() == 1
    assert page.locator(".corner-editor .handle").count() == 4
    if page.locator("img.overlay").count():
        assert page.locator("svg.board g.cell").count() == 225
    page.screenshot(path="/tmp/tileref-dispute.png", full_page=True)
    # Drag the top-left corner a little and read again with the corners set by hand.
    drag(page, page.locator(".corner-editor .handle").first, 12, 9)
    page.click("#reread")
    page.wait_for_url("**/dispute/*?corners=*")
    assert page.locator(".corner-editor .handle").count() == 4


@pytest.mark.photos
def test_a_polish_dispute_photo_is_read_again_with_its_tile_set(live_server, browser):
    photo = PHOTOS / "kristopalka__scrabble-solver__red_boards_013.jpg"
    page = browser.new_page(viewport=TABLET)
    page.goto(live_server.url + "/dispute")
    page.select_option("form.upload select[name=tiles]", "polish")
    page.set_input_files("input[name=photo]", str(photo))
    page.click("form.upload button[type=submit]")
    page.wait_for_url("**/dispute/*?tiles=polish")
    national = "ĄĆĘŁŃÓŚŹŻ"
    assert page.locator("svg.board g.cell text.letter").filter(
        has_text=re.compile(f"[{national}]")).count() >= 4
    drag(page, page.locator(".corner-editor .handle").first, 4, 3)
    page.click("#reread")
    page.wait_for_url("**/dispute/*?tiles=polish&corners=*")
    assert page.locator("form.judge-form input[name=tiles]").input_value() == "polish"


def tap_and_set(page, cell: str, letter: str) -> None:
    """Tap a square of the referee board and set the tile there to ``letter`` (lower case: a
    blank)."""
    page.click(f"g.cell[data-cell='{cell}']")
    page.fill("#fix-form input[name=letter]", letter)
    page.click("#fix-form button[value=set]")


def answer_by_tapping(page, question: str, cell: str, letter: str, played: str,
                      screenshot: str) -> None:
    """The table asks ``question`` with ``cell`` alone ringed; setting ``letter`` there makes
    South's play ``played``, and the ring goes."""
    page.wait_for_selector(f"text={question}")
    assert page.locator("g.cell rect.check").count() == 1
    assert page.locator(f"g.cell[data-cell='{cell}'] rect.check").count() == 1
    page.screenshot(path=screenshot)
    tap_and_set(page, cell, letter)
    page.wait_for_selector(f"text=Ann (South) played {played}, worth")
    assert page.locator("g.cell rect.check").count() == 0


def camera_reads(service, game_id: str, tiles: dict, maybe_tiles: tuple[str, ...] = ()) -> None:
    """The live camera reads ``tiles`` (a ``{Cell: Tile}`` board) steadily, frames enough to
    be judged, unsure whether the ``maybe_tiles`` squares it reads as empty hold a tile; the
    mover says Done, and the camera goes on looking."""
    from referee.cells import Cell
    from vision import BoardReading, CellReading
    from vision.warning import unsure_whether_tile

    reading = BoardReading(
        tuple(CellReading(cell.name, tile.letter, tile.rotation or 0, blank=tile.blank)
              for cell, tile in tiles.items()), (),
        tuple(unsure_whether_tile(Cell.parse(cell)) for cell in maybe_tiles))
    table = service.live_table(game_id)
    for _ in range(2):
        service.judge_reading(game_id, table, reading)
    service.done(game_id, {})
    service.judge_reading(game_id, table, reading)


def test_tiles_to_lift_then_a_misread_blank_fixed_by_tapping(live_server, browser):
    """A capture lists the tiles to lift until a player confirms; a camera reading the referee
    refused is drawn dashed over the board, and tapping the blank names it; a blank the camera
    missed is asked for on the square it leaves empty, ringed, and added by tapping there."""
    from referee.boardtext import format_board_text

    position = {"G7": "A^", "H7": "T^", "J8": "Dv", "I8": "Ov", "H8": "Gv", "I9": "Nv"}
    tiles = {Cell.parse(cell): Tile.parse(token) for cell, token in position.items()}
    created = post(f"{live_server.url}/api/games", {
        "ruleset": "archipelago",
        "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}],
        "position": {"board": format_board_text(tiles), "to_move": "S"}})
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/games/{created['id']}#token={created['token']}")
    page.fill("#play-form input[name=word]", "TO")
    page.fill("#play-form input[name=at]", "H7")
    page.select_option("#play-form select[name=dir]", "down")
    page.click("#play-form button[type=submit]")
    page.wait_for_selector(".lift-box .chip:text-is('J8')")
    assert page.locator("g.cell.mark-remove[data-cell='J8'] rect.lift").count() == 1
    page.screenshot(path="/tmp/tileref-lift.png")
    page.click("button[data-action=removed]")
    page.wait_for_selector(".lift-box", state="detached")
    page.wait_for_selector("text=Waiting for a play")
    assert page.locator("g.cell.mark-remove").count() == 0

    # A new game: the camera sees C, a blank, T on South's home row.
    game_id, token = create_game(live_server)
    service = live_server.app.extensions["tileref"].table
    seen = {Cell.parse("G15"): Tile("C", False, 0), Cell.parse("H15"): Tile("?", True, 0),
            Cell.parse("I15"): Tile("T", False, 0)}
    camera_reads(service, game_id, seen)
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    page.wait_for_selector("text=Tap H15 to name the blank there")
    assert page.locator("g.cell.mark-seen").count() == 3
    page.screenshot(path="/tmp/tileref-misread.png")
    page.click("g.cell[data-cell='H15']")
    assert page.input_value("#fix-form input[name=letter]") == ""
    page.fill("#fix-form input[name=letter]", "a")
    page.click("#fix-form button[value=set]")
    page.wait_for_selector("text=Ann (South) played CAT, worth")
    page.wait_for_selector("text=Bo (North) to play")
    assert page.locator("g.cell[data-cell='H15'][data-tile='a^'] text.letter.blank").count() == 1
    assert page.locator("g.cell.mark-seen").count() == 0

    # Another game: the camera misses the blank between C and T. The gap is asked about and
    # ringed; tapping the empty square puts the blank in.
    game_id, token = create_game(live_server)
    camera_reads(service, game_id, {cell: tile for cell, tile in seen.items() if not tile.blank})
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    answer_by_tapping(page, "Is there a tile on H15?", "H15", "a", "CAT", "/tmp/tileref-gap.png")

    # A third: the camera sees CAT, a word, and doubts the square after it, where South put a
    # blank S. The table asks while it waits for North; tapping the square makes the play CATS.
    game_id, token = create_game(live_server)
    camera_reads(service, game_id, {cell: tile for cell, tile in seen.items() if not tile.blank}
                 | {Cell.parse("H15"): Tile.parse("A^")}, maybe_tiles=("J15",))
    page.goto(f"{live_server.url}/games/{game_id}#token={token}")
    page.wait_for_selector("text=Ann (South) played CAT, worth")
    answer_by_tapping(page, "is there a tile on J15, next to CAT?", "J15", "s", "CATS",
                      "/tmp/tileref-word-end.png")
    assert page.locator("g.cell[data-cell='J15'][data-tile='s^'] text.letter.blank").count() == 1
