"""One full short game of Colonization Mode and of First Draft, played through the real pages.

Headless Debian Chromium (Playwright, never a downloaded browser) against a real server thread:
every move is a tap or a typed word on the screen, and what is asserted is what the screen then
shows — the referee's verdicts in sentences, the scores, the prompts, the tally. Each test
leaves a screenshot in /tmp to look at.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import cv2
import pytest

from tests.support.playerboard import render_player_board

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TABLET = {"width": 1280, "height": 900}


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def version(page: Any) -> int:
    return int(page.get_attribute("#panel .panel", "data-version"))


def act(page: Any, action: Any) -> None:
    """Do something on the screen and wait until the panel shows the game after it."""
    before = version(page)
    action()
    page.wait_for_function(
        "v => Number(document.querySelector('#panel .panel').dataset.version) > v", arg=before,
        timeout=30_000)


def panel_text(page: Any) -> str:
    return " ".join(page.inner_text("#panel").split())


def test_a_short_colonization_game_through_the_pages(live_server, browser, tmp_path: Path):
    page = browser.new_page(viewport=TABLET)
    page.goto(live_server.url + "/")
    page.select_option("#ruleset", "colonization")
    page.fill("input[name=name0]", "Ann")
    page.fill("input[name=name1]", "Bo")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("text=Name your languages")

    for player, language in (("Ann", "FLORBIX"), ("Bo", "QUENDAR")):
        form = f"form.lang-form[data-player={player}]"
        page.fill(f"{form} input[name=language]", language.lower())  # typed: no blanks
        act(page, lambda form=form: page.click(f"{form} button"))
    assert "Ann · FLORBIX" in panel_text(page) and "Bo · QUENDAR" in panel_text(page)
    assert page.inner_text("#turn").strip() == "Ann to play"

    def play(word: str, at: str, direction: str) -> None:
        page.fill("#colony-play input[name=word]", word)
        page.fill("#colony-play input[name=at]", at)
        page.select_option("#colony-play select[name=dir]", direction)
        act(page, lambda: page.click("#colony-play button[type=submit]"))

    play("ZORB", "H8", "across")                                   # the "agreed?" step
    assert "Ann played ZORB for 30." in page.inner_text("#verdict")
    assert "Agreed?" in page.inner_text("#agree")
    act(page, lambda: page.click("button[data-action=agree][data-value=no]"))
    assert "Taken back: ZORB." in page.inner_text("#verdict")
    assert page.locator("g.cell[data-cell=H8][data-tile]").count() == 0
    play("ZORB", "H8", "across")
    act(page, lambda: page.click("button[data-action=agree][data-value=yes]"))
    assert page.locator("g.cell.owner-S[data-cell=H8][data-tile]").count() == 1  # Ann's colour
    assert page.inner_text("#turn").strip() == "Bo to play"

    play("ZOA", "H8", "down")                                      # illegal: nothing changes
    assert "ZOA is shorter than 4 letters, the least a main word may have with 2 players." \
        in page.inner_text("#verdict")
    assert page.inner_text("#message").startswith("Not legal: ZOA is shorter than 4 letters")
    assert page.inner_text("#turn").strip() == "Bo to play"

    page.select_option("#duel-form select[name=target]", "H8 across")   # the transform duel
    page.fill("#duel-form input[name=actor_tile]", "e")
    page.fill("#duel-form input[name=owner_tile]", "q")
    act(page, lambda: page.click("#duel-form button[type=submit]"))
    assert "Duel: Bo's E (1) against Ann's Q (10)." in page.inner_text("#verdict")
    assert "nothing happens" in page.inner_text("#verdict")

    act(page, lambda: page.click("button[data-action=pass]"))      # Ann
    play("BARN", "K8", "down")                                     # Bo: an English word
    verdict = page.inner_text("#verdict")
    assert "BARN is an English word: it goes to English with its 12 points." in verdict
    assert "English joins the game, just before Bo." in verdict
    act(page, lambda: page.click("button[data-action=agree][data-value=yes]"))
    assert page.locator("g.cell.owner-english[data-cell=K9][data-tile]").count() == 1  # white
    assert page.inner_text("#english-score").strip() == "12"
    assert "Turn order: Ann → English → Bo" in panel_text(page)

    act(page, lambda: page.click("button[data-action=pass]"))      # Ann; then English's turn
    assert page.inner_text("#turn").strip() == "English's turn"
    assert "Draw a tile and show it" in page.inner_text("#english-turn")
    page.fill("#english-form input[name=draws]", "z")              # the only Z is on the board
    act(page, lambda: page.click("#english-form button[type=submit]"))
    assert "No Z tile is left in the bag to be drawn." in page.inner_text("#verdict")
    photo = tmp_path / "drawn.jpg"                                 # the drawn O, shown
    cv2.imwrite(str(photo), render_player_board(("O", ""), "", seed=3))
    page.set_input_files("#drawn-photo", str(photo))
    page.wait_for_function(
        "() => document.querySelector('#english-form input[name=draws]').value === 'O'",
        timeout=30_000)
    assert page.inner_text("#message").startswith("Read O")
    act(page, lambda: page.click("#english-form button[type=submit]"))
    verdict = page.inner_text("#verdict")
    assert "English drew O (drawn at the table)." in verdict
    assert "English claims ZORB: its 30 points go from Ann to English." in verdict
    assert page.inner_text("#turn").strip() == "Game over: English wins"
    ranking = " ".join(page.inner_text("#ranking").split())
    assert ranking.startswith("Final ranking score English 42")
    page.fill("#racks-form input[name=Ann]", "ee")                 # the racks left, counted
    page.fill("#racks-form input[name=Bo]", "q")
    act(page, lambda: page.click("#racks-form button[type=submit]"))
    assert "Scores change: Ann -2, Bo -10." in page.inner_text("#verdict")
    assert page.locator("#racks-form").count() == 0
    page.screenshot(path="/tmp/tileref-colonization.png", full_page=True)


def test_a_whole_first_draft_game_through_the_pages(live_server, browser, tmp_path: Path):
    created = post(f"{live_server.url}/api/games", {
        "ruleset": "firstdraft", "players": [{"name": "Ann"}, {"name": "Bo"}],
        "options": {"seed": 5, "line": ["CAT", "OX", "E", "SOFT", "JUMPY"]}})
    page = browser.new_page(viewport=TABLET)
    page.goto(f"{live_server.url}/table/{created['id']}#token={created['token']}")
    page.wait_for_selector("#line")
    assert page.get_attribute("li.coaster[data-position='1']", "data-letters") == "CAT"
    assert "0 coins" in page.inner_text("li.coaster[data-position='1']")

    def take(position: int) -> None:
        act(page, lambda: page.click(f"button[data-action=coaster][data-position='{position}']"))

    def place(**fields: str) -> None:
        for name, value in fields.items():
            page.fill(f"#place-form input[name={name}]", value)
        act(page, lambda: page.click("#place-form button[type=submit]"))

    def board(player: str) -> str:
        return " ".join(page.inner_text(f".player-board[data-player={player}]").split())

    take(1)                                                        # Ann: CAT, free
    assert "Ann took coaster 1 (CAT)." in page.inner_text("#verdict")
    page.click("#place-form input[name=row1]")                     # placed by tapping
    for letter in "CAT":
        page.click(f"#to-place .tap-letter[data-letter={letter}] >> nth=0")
    assert page.input_value("#place-form input[name=row1]") == "CAT"
    assert page.input_value("#place-form input[name=pool]") == ""
    place()
    take(3)                                                        # Bo: SOFT, 2 coins
    assert "Paid 2 coins, one on each coaster passed over." in page.inner_text("#verdict")
    assert "1 coin" in page.inner_text("li.coaster[data-position='1']")
    place(row1="SOFT", pool="")
    assert "2 coins" in board("Bo")

    act(page, lambda: page.click(".player-board[data-player=Ann] button[data-action=sell]"
                                 "[data-row='1']"))
    assert "Ann sold CAT (row 1) for 1 coin." in page.inner_text("#verdict")
    take(1)                                                        # OX and the coin on it
    assert "Picked up 1 coin from it." in page.inner_text("#verdict")
    place(row2="OX", pool="")
    assert "6 coins" in board("Ann")

    act(page, lambda: page.click(".player-board[data-player=Bo] button[data-action=discard]"
                                 "[data-row='1']"))                # Bo gives SOFT up
    assert "Bo turned row 1 (SOFT) face down." in page.inner_text("#verdict")
    assert "4 face down" in board("Bo")
    take(1)
    place()
    act(page, lambda: page.click(".player-board[data-player=Ann] button[data-action=sell]"
                                 "[data-row='2']"))                # OX: refused, nothing changes
    assert "Row 2 (OX) is not one word of 3 to 9 letters." in page.inner_text("#verdict")
    assert "6 coins" in board("Ann") and "OX" in board("Ann").replace(" ", "")
    take(1)
    place(row2="XO")                                               # reordering: refused
    assert "Row 2 was OX: letters in a row stay in order and are never removed" \
        in page.inner_text("#verdict")
    place()                                                        # the suggested placing

    turns = 0
    while page.get_attribute("#panel .panel", "data-over") == "no":  # to the end: coaster 1
        take(1)
        place()
        turns += 1
        assert turns < 60
    assert page.inner_text("#turn").startswith("Game over")
    tally = page.inner_text("#tally")
    assert "Ann" in tally and "Bo" in tally
    state = json.loads(urllib.request.urlopen(
        f"{live_server.url}/api/games/{created['id']}", timeout=30).read())
    for name, score in state["scores"].items():
        row = " ".join(page.inner_text(f"#tally tr[data-player={name}]").split())
        assert row.endswith(f" {score}")
    winner = state["winner"]
    assert page.inner_text("#turn") == (f"Game over: {winner} wins" if winner
                                        else "Game over: no winner (a tie)")
    assert page.locator("button[data-action=coaster]").count() == 0
    # The end, when everyone may sell: a photo of Ann's board is read, and a tapped tile is
    # corrected and checked again.
    photo = tmp_path / "ann.jpg"
    cv2.imwrite(str(photo), render_player_board(("SOFT", "OX"), "E", seed=1))
    page.set_input_files("input.board-photo[data-player=Ann]", str(photo))
    page.wait_for_selector("#photo-result:not([hidden]) .check", timeout=30_000)
    checks = page.inner_text("#photo-checks")
    assert "Row 1 (SOFT) sells for 2 coins. The referee has" in checks
    page.click("#photo-rows [data-group=r1] .ftile >> nth=1")      # OX → OT, in a dialog
    assert page.input_value("#letter-dialog input[name=letter]") == "X"
    page.fill("#letter-dialog input[name=letter]", "T")
    page.click("#letter-dialog button[value=ok]")
    page.wait_for_selector("text=Row 2 (OT) cannot be sold")
    page.screenshot(path="/tmp/tileref-firstdraft.png", full_page=True)
