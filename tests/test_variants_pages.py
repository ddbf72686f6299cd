"""The colonization and firstdraft screens through the test client (webui/screens.py).

What the table reads is asserted on the rendered panel: prompts, verdict sentences, coloured
words, the coaster line, the tally. The moves go through the same JSON API the screens use.
"""

from __future__ import annotations

import io
import re
from typing import Any

import cv2
import numpy as np
import pytest

from webui.wording import describe, sentence

COLONY = {"ruleset": "colonization", "players": [{"name": "Ann"}, {"name": "Bo"}],
          "options": {"seed": 3}}
DRAFT = {"ruleset": "firstdraft", "players": [{"name": "Ann"}, {"name": "Bo"}],
         "options": {"seed": 5, "line": ["CAT", "OX", "E", "SOFT", "JUMPY"]}}


def text(html: str) -> str:
    """The words a person sees: tags and runs of space gone."""
    html = re.sub(r"<style.*?</style>|<script.*?</script>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def panel(client: Any, game_id: str) -> str:
    response = client.get(f"/table/{game_id}/panel")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def move(client: Any, game_id: str, headers: dict[str, str], body: dict[str, Any]) -> dict:
    response = client.post(f"/api/games/{game_id}/moves", json=body, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


# -- setting up --------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["colonization", "firstdraft"])
def test_the_new_game_form_offers_both_and_sends_the_board_page_to_their_screen(client, ruleset):
    assert f'value="{ruleset}"' in client.get("/").get_data(as_text=True)
    response = client.post("/games", data={
        "ruleset": ruleset, "name0": "Ann", "name1": "Bo", "name2": "", "name3": "",
        "seat0": "", "seat1": "", "seat2": "", "seat3": "", "wordlist": "enable",
        "camera_side": "S"})
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["ruleset"] == ruleset
    assert [p["seat"] for p in state["players"]] == [None, None]
    board = client.get(f"/games/{game_id}")
    assert board.status_code == 302 and board.headers["Location"].endswith(f"/table/{game_id}")
    page = client.get(f"/table/{game_id}").get_data(as_text=True)
    assert re.search(r'data-token="[\w-]{10,}"', page)     # the creating device may write
    assert "variants.js" in page


def test_first_drafts_board_panel_and_live_pages_lead_to_its_own_screen(client, make_game):
    game_id, _ = make_game(DRAFT)
    for page in ("", "/panel", "/live"):
        response = client.get(f"/games/{game_id}{page}")
        assert response.status_code == 302
        assert response.headers["Location"].endswith(f"/table/{game_id}")


def test_another_rulesets_game_has_no_variant_screen(client, make_game):
    game_id, _ = make_game()
    response = client.get(f"/table/{game_id}")
    assert response.status_code == 400
    assert "archipelago" in text(response.get_data(as_text=True))


# -- colonization --------------------------------------------------------------------------------

def colony_game(make_game: Any) -> tuple[str, dict[str, str]]:
    return make_game(COLONY)


def test_languages_are_named_first_and_shown_with_their_players(client, make_game):
    game_id, headers = colony_game(make_game)
    shown = text(panel(client, game_id))
    assert "Name your languages" in shown
    move(client, game_id, headers, {"player": "Ann", "language": "FLORBIX"})
    shown = text(panel(client, game_id))
    assert "Ann speaks FLORBIX." in shown and "Ann · FLORBIX" in shown
    verdict = move(client, game_id, headers, {"player": "Ann", "word": "ZORB", "at": "H8",
                                              "dir": "across"})
    assert verdict["reason"] == "no-language"
    assert "Not legal: Ann's ZORB. Every player names a language before play starts" in text(
        panel(client, game_id))
    move(client, game_id, headers, {"player": "Bo", "language": "QUENDAR"})
    assert "Ann to play" in text(panel(client, game_id))


def named(client: Any, make_game: Any) -> tuple[str, dict[str, str]]:
    game_id, headers = colony_game(make_game)
    move(client, game_id, headers, {"player": "Ann", "language": "FLORBIX"})
    move(client, game_id, headers, {"player": "Bo", "language": "QUENDAR"})
    return game_id, headers


@pytest.mark.slow
def test_each_play_asks_agreed_and_no_takes_it_back(client, make_game):
    game_id, headers = named(client, make_game)
    move(client, game_id, headers, {"player": "Ann", "word": "ZORB", "at": "H8", "dir": "across"})
    html = panel(client, game_id)
    assert 'data-phase="agree"' in html
    assert "Agreed? Can the table say and spell ZORB ?" in text(html)
    assert "Ann played ZORB for 30." in text(html)
    # Ann's tiles are drawn in Ann's colour (the first player's).
    assert re.search(r'class="cell[^"]*owner-S[^"]*" data-cell="H8"', html)
    move(client, game_id, headers, {"player": "Ann", "agree": False})
    html = panel(client, game_id)
    assert "Taken back: ZORB." in text(html)
    assert 'data-cell="H8" data-tile' not in html
    assert "Ann to play" in text(html)


def test_an_english_word_turns_white_and_english_scores_and_takes_its_seat(client, make_game):
    game_id, headers = named(client, make_game)
    move(client, game_id, headers, {"player": "Ann", "word": "ZORB", "at": "H8", "dir": "across"})
    move(client, game_id, headers, {"player": "Bo", "agree": True})
    move(client, game_id, headers, {"player": "Bo", "word": "BARN", "at": "K8", "dir": "down"})
    html = panel(client, game_id)
    shown = text(html)
    assert "BARN is an English word: it goes to English with its 12 points." in shown
    assert "English joins the game, just before Bo." in shown
    assert re.search(r'class="cell[^"]*owner-english[^"]*" data-cell="K9"', html)
    assert re.search(r'id="english-score">\s*12<', html)
    assert "Turn order: Ann → English → Bo" in shown
    assert re.search(r'word-chip own-english" data-word="BARN"', html)
    assert re.search(r'word-chip own-S" data-word="ZORB"', html)


def test_an_illegal_play_shows_the_referees_reason_and_changes_nothing(client, make_game):
    game_id, headers = named(client, make_game)
    before = client.get(f"/api/games/{game_id}").get_json()
    verdict = move(client, game_id, headers, {"player": "Ann", "word": "ZOA", "at": "H8",
                                              "dir": "across"})
    assert verdict["reason"] == "word-too-short"
    shown = text(panel(client, game_id))
    assert "Not legal: Ann's ZOA. ZOA is shorter than 4 letters, the least a main word may" \
           " have with 2 players." in shown
    after = client.get(f"/api/games/{game_id}").get_json()
    for key in ("board", "scores", "to_move", "words", "bag"):
        assert after[key] == before[key]


def english_turn_position(client: Any, make_game: Any) -> tuple[str, dict[str, str]]:
    """ZORB (Ann's), BARN (English's); Ann passes: English is to move."""
    game_id, headers = named(client, make_game)
    move(client, game_id, headers, {"player": "Ann", "word": "ZORB", "at": "H8", "dir": "across"})
    move(client, game_id, headers, {"player": "Bo", "agree": True})
    move(client, game_id, headers, {"player": "Bo", "word": "BARN", "at": "K8", "dir": "down"})
    move(client, game_id, headers, {"player": "Ann", "agree": True})
    move(client, game_id, headers, {"player": "Ann", "pass": True})
    return game_id, headers


@pytest.mark.slow
def test_englishs_turn_prompts_a_draw_and_claims_a_touching_word(client, make_game):
    game_id, headers = english_turn_position(client, make_game)
    html = panel(client, game_id)
    assert 'data-phase="english"' in html
    shown = text(html)
    assert "English's turn" in shown and "Draw a tile and show it" in shown
    assert "The referee draws" in shown
    refused = client.post(f"/api/games/{game_id}/english", json={"draws": ["O"]})
    assert refused.status_code == 401                      # a write needs the game's token
    verdict = client.post(f"/api/games/{game_id}/english", json={"draws": ["O"]},
                          headers=headers).get_json()
    assert verdict["claimed"]["word"] == "ZORB"
    html = panel(client, game_id)
    shown = text(html)
    assert "English drew O (drawn at the table)." in shown
    assert "English claims ZORB: its 30 points go from Ann to English." in shown
    # Every word is English now: the game is over and English, ranked with the players, wins.
    assert "Game over: English wins" in shown
    assert re.search(r"Final ranking score English 42 Ann 0 Bo 0", shown)
    assert "Tiles left on the racks" in shown
    move(client, game_id, headers, {"player": "Ann", "end": {"racks": {"Ann": "EE", "Bo": ""}}})
    shown = text(panel(client, game_id))
    assert "The racks left are counted. Scores change: Ann -2, Bo +0." in shown
    assert "Tiles left on the racks" not in shown
    assert re.search(r"Final ranking score English 42 Bo 0 Ann -2", shown)


def test_the_referee_can_draw_for_english_with_its_logged_seed(client, make_game):
    game_id, headers = english_turn_position(client, make_game)
    verdict = client.post(f"/api/games/{game_id}/english", json={},
                          headers=headers).get_json()
    assert verdict["legal"] and verdict["seed"] == 3
    assert f"English drew {verdict['drawn']} (drawn by the referee, seed 3)." in text(
        panel(client, game_id))


@pytest.mark.slow
def test_a_tile_no_longer_in_the_bag_is_refused_with_the_reason(client, make_game):
    game_id, headers = english_turn_position(client, make_game)
    verdict = client.post(f"/api/games/{game_id}/english", json={"draws": ["Z"]},
                          headers=headers).get_json()
    assert verdict["reason"] == "not-unseen"
    assert "Not legal: English's move. No Z tile is left in the bag to be drawn." in text(
        panel(client, game_id))
    assert client.get(f"/api/games/{game_id}").get_json()["to_move"] == "English"


@pytest.mark.slow
def test_the_transform_duel_says_who_revealed_what_and_what_happened(client, make_game):
    game_id, headers = named(client, make_game)
    move(client, game_id, headers, {"player": "Ann", "word": "ZORB", "at": "H8", "dir": "across"})
    move(client, game_id, headers, {"player": "Bo", "agree": True})
    html = panel(client, game_id)
    assert "Transform duel" in text(html) and 'value="H8 across"' in html
    move(client, game_id, headers, {"player": "Bo", "transform": {"at": "H8", "dir": "across"},
                                    "actor_tile": "E", "owner_tile": "Q"})
    shown = text(panel(client, game_id))
    assert "Duel: Bo's E (1) against Ann's Q (10)." in shown
    assert "The actor's tile is not higher: nothing happens." in shown
    verdict = move(client, game_id, headers, {"player": "Ann", "transform": {
        "at": "H8", "dir": "across"}, "actor_tile": "Q", "owner_tile": "E"})
    assert verdict["reason"] == "not-an-opponents-word"
    assert "only an opponent's word can be transformed." in text(panel(client, game_id))


def test_englishs_turn_also_goes_through_the_move_route_of_the_api(client, make_game):
    game_id, headers = english_turn_position(client, make_game)
    verdict = client.post(f"/api/games/{game_id}/moves", json={"player": "English",
                          "draws": ["O"]}, headers=headers).get_json()
    assert verdict["legal"] and verdict["claimed"]["word"] == "ZORB"
    # Anyone else who is neither a player nor the one to move is refused, and nothing is logged.
    state = client.get(f"/api/games/{game_id}").get_json()
    response = client.post(f"/api/games/{game_id}/moves", json={"player": "Zed", "pass": True},
                           headers=headers)
    assert response.status_code == 400 and "Zed" in response.get_json()["error"]
    assert client.get(f"/api/games/{game_id}").get_json()["version"] == state["version"]


def test_englishs_own_route_refuses_a_malformed_draw(client, make_game):
    game_id, headers = english_turn_position(client, make_game)
    response = client.post(f"/api/games/{game_id}/english", json={"draws": "O"},
                           headers=headers)
    assert response.status_code == 400
    assert "draws" in response.get_json()["error"]
    response = client.post(f"/api/games/{game_id}/english", json=["O"], headers=headers)
    assert response.status_code == 400


def test_the_tiebreak_sentences_follow_the_seed_example() -> None:
    verdict = {"legal": True, "player": "English", "drawn": "R", "seed": 7,
               "draws": [{"entered": True}],
               "candidates": [{"word": "BRAK"}, {"word": "BRAKS"}, {"word": "ORBY"}],
               "tiebreaks": [[{"word": "BRAK", "tile": "M", "value": 3},
                              {"word": "BRAKS", "tile": "D", "value": 2},
                              {"word": "ORBY", "tile": "G", "value": 2}],
                             [{"word": "BRAKS", "tile": "A", "value": 1},
                              {"word": "ORBY", "tile": "D", "value": 2}]],
               "claimed": {"word": "BRAKS", "points": 11, "owner": "Bo"}}
    lines = describe(verdict, {"player": "English"})
    assert lines["headline"] == "English drew R (drawn at the table)."
    assert lines["details"] == [
        "Candidates: BRAK, BRAKS, ORBY.",
        "Tie-break 1: BRAK drew M (3), BRAKS drew D (2), ORBY drew G (2).",
        "Tie-break 2: BRAKS drew A (1), ORBY drew D (2).",
        "English claims BRAKS: its 11 points go from Bo to English."]


def test_a_refusal_is_always_one_sentence() -> None:
    assert sentence("it is English's turn, not Bo's") == "It is English's turn, not Bo's."
    assert sentence("row 1 (FNTY) is not one word.") == "Row 1 (FNTY) is not one word."
    lines = describe({"legal": False, "player": "Ann", "reason": "cannot-afford",
                                 "message": "coaster 5 costs 4 coins and Ann has 2."}, {})
    assert lines["headline"] == "Not legal: Ann's move."
    assert lines["details"] == ["Coaster 5 costs 4 coins and Ann has 2."]


# -- first draft --------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_coaster_line_shows_letters_coins_and_prices(client, make_game):
    game_id, headers = make_game(DRAFT)
    html = panel(client, game_id)
    letters = re.findall(r'class="coaster" data-position="(\d)" data-letters="(\w*)"', html)
    assert letters[:4] == [("1", "CAT"), ("2", "OX"), ("3", "E"), ("4", "SOFT")]
    assert "Take (free)" in text(html) and "Take (4)" in text(html)
    assert "Ann: sell or discard, then choose a coaster" in text(html)
    move(client, game_id, headers, {"player": "Ann", "coaster": 3})
    html = panel(client, game_id)
    shown = text(html)
    assert "Ann took coaster 3 (E)." in shown
    assert "Paid 2 coins, one on each coaster passed over." in shown
    assert re.search(r'data-position="1" data-letters="CAT">.*?1 coin<', html, re.S)
    assert 'id="place-form"' in html and 'name="pool" value="E"' in html
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["E", ""]}})
    html = panel(client, game_id)
    assert re.search(r'data-player="Ann".*?2 coins', html, re.S)
    assert "New coaster" in text(html)


@pytest.mark.slow
def test_selling_checks_the_word_list_and_says_why_a_sale_is_refused(client, make_game):
    game_id, headers = make_game(DRAFT | {"options": DRAFT["options"] | {"coins": 2}})
    move(client, game_id, headers, {"player": "Ann", "coaster": 1})
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["CAT", ""]}})
    move(client, game_id, headers, {"player": "Bo", "coaster": 1})
    move(client, game_id, headers, {"player": "Bo", "place": {"rows": ["XO", ""]}})
    before = client.get(f"/api/games/{game_id}").get_json()
    verdict = move(client, game_id, headers, {"player": "Ann", "sell": 2})
    assert verdict["reason"] == "row-empty"
    assert "Not legal: Ann's move. Row 2 is empty." in text(panel(client, game_id))
    assert client.get(f"/api/games/{game_id}").get_json()["scores"] == before["scores"]
    move(client, game_id, headers, {"player": "Ann", "sell": 1})
    assert "Ann sold CAT (row 1) for 1 coin." in text(panel(client, game_id))
    move(client, game_id, headers, {"player": "Ann", "coaster": 1})
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["", "E"]}})
    verdict = move(client, game_id, headers, {"player": "Bo", "sell": 1})
    assert verdict["reason"] == "not-a-word"
    assert "Row 1 (XO) is not one word of 3 to 9 letters." in text(panel(client, game_id))
    verdict = move(client, game_id, headers, {"player": "Bo", "coaster": 5})
    assert verdict["reason"] == "cannot-afford"
    assert "Not legal: Bo's move. Coaster 5 costs 4 coins and Bo has 2." in text(
        panel(client, game_id))


def place_everything(state_players: dict[str, Any], player: str, letters: str,
                     pool_size: int = 4) -> dict[str, Any]:
    """The simplest legal placing: rows untouched, pool filled, the rest face down."""
    board = state_players[player]
    held = "".join(sorted(board["pool"] + letters))
    return {"player": player, "place": {"rows": board["rows"], "pool": held[:pool_size],
                                        "face_down": held[pool_size:]}}


@pytest.mark.slow
def test_a_whole_game_ends_with_the_tally_on_the_screen(client, make_game, app):
    game_id, headers = make_game(DRAFT)
    service = app.extensions["tileref"].store
    for _ in range(200):
        state = client.get(f"/api/games/{game_id}").get_json()
        if state["to_move"] is None:
            break
        chosen = move(client, game_id, headers, {"player": state["to_move"], "coaster": 1})
        boards = service.session(game_id).game.state()["boards"]
        move(client, game_id, headers, place_everything(boards, state["to_move"],
                                                        chosen["coaster"]["letters"]))
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["to_move"] is None
    html = panel(client, game_id)
    assert 'data-over="yes"' in html
    rows = re.findall(r'<tr data-player="(\w+)"><td>\w+</td><td>(\d+)</td><td>\+(\d+)</td>'
                      r'<td>−(\d+)</td><td class="figure">(-?\d+)</td>', html)
    assert {name for name, *_ in rows} == {"Ann", "Bo"}
    for name, coins, unsold, face_down, total in rows:
        assert int(total) == state["scores"][name] == int(coins) + int(unsold) - int(face_down)
    winner = state["winner"]
    assert (f"Game over: {winner} wins" if winner else "no winner") in text(html)
    assert "Take (" not in text(html)                      # no coasters after the end


# -- the camera: a photo of one player's board ---------------------------------------------

def photo_bytes(rows: tuple[str, str], pool: str, seed: int = 1) -> bytes:
    from tests.support.playerboard import render_player_board

    ok, data = cv2.imencode(".jpg", render_player_board(rows, pool, seed=seed))
    assert ok
    return data.tobytes()


@pytest.mark.slow
def test_a_photo_of_a_players_board_is_read_and_its_rows_checked_for_sale(client, make_game):
    game_id, headers = make_game(DRAFT)
    move(client, game_id, headers, {"player": "Ann", "coaster": 1})
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["CAT", ""]}})
    response = client.post(f"/api/games/{game_id}/playerboard?player=Ann",
                           data={"image": (io.BytesIO(photo_bytes(("CAT", "OX"), "E")),
                                           "board.jpg")},
                           content_type="multipart/form-data")
    assert response.status_code == 200, response.get_json()
    reading = response.get_json()
    assert reading["letters"] == {"rows": ["CAT", "OX"], "pool": "E"}
    assert all(0 <= tile["confidence"] <= 1 and isinstance(tile["unsure"], bool)
               for tile in reading["rows"][0] + reading["rows"][1] + reading["pool"])
    assert reading["recorded"] == {"rows": ["CAT", ""], "pool": ""}
    sentences = [check["sentence"] for check in reading["checks"]]
    assert sentences[0] == "Row 1 (CAT) sells for 1 coin."
    assert sentences[1].startswith("Row 2 (OX) cannot be sold: it is not one word of 3 to 9")
    assert sentences[1].endswith("The referee has nothing in row 2.")


def test_a_tapped_correction_is_checked_again(client, make_game):
    game_id, _ = make_game(DRAFT)
    response = client.post(f"/api/games/{game_id}/sale-check",
                           json={"rows": ["SOFT", "fnty"], "recorded": ["", ""]})
    checks = response.get_json()["checks"]
    assert [check["coins"] for check in checks] == [2, None]
    assert checks[1]["word"] == "FNTY"


@pytest.mark.parametrize("path,body,status,words", [
    ("playerboard?player=Ann", None, 400, "no image"),
    ("playerboard?player=Zed", b"\xff\xd8\xff" + b"0" * 50, 400, "no player"),
    ("playerboard?player=Ann", b"not an image at all", 400, "image"),
    ("sale-check", b'{"rows": ["A B", ""]}', 400, "rows"),
])
def test_bad_photos_and_checks_get_one_clear_line(client, make_game, path, body, status, words):
    game_id, _ = make_game(DRAFT)
    response = client.post(f"/api/games/{game_id}/{path}", data=body,
                           content_type="application/json" if path == "sale-check"
                           else "image/jpeg")
    assert response.status_code == status
    error = response.get_json()["error"]
    assert words in error and "\n" not in error


def test_player_boards_are_read_only_in_first_draft_games(client, make_game):
    game_id, _ = make_game(COLONY)
    response = client.post(f"/api/games/{game_id}/playerboard?player=Ann",
                           data=photo_bytes(("CAT", ""), ""), content_type="image/jpeg")
    assert response.status_code == 400
    assert "First Draft" in response.get_json()["error"]


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["colonization", "firstdraft"])
def test_a_restarted_server_shows_the_same_table_from_the_log(tmp_path, ruleset):
    """The referee's seeded draws (English's letter, new coasters) are logged with the moves:
    a new app on the same instance folder replays the log into the very same screen."""
    from webui import create_app

    config = {"TESTING": True, "INSTANCE_PATH": str(tmp_path / "instance")}
    client = create_app(config).test_client()
    created = client.post("/api/games", json=COLONY if ruleset == "colonization" else DRAFT)
    game_id = created.get_json()["id"]
    headers = {"Authorization": f"Bearer {created.get_json()['token']}"}
    if ruleset == "colonization":
        for body in ({"player": "Ann", "language": "FLORBIX"},
                     {"player": "Bo", "language": "QUENDAR"},
                     {"player": "Ann", "word": "ZORB", "at": "H8", "dir": "across"},
                     {"player": "Bo", "agree": True},
                     {"player": "Bo", "word": "BARN", "at": "K8", "dir": "down"},
                     {"player": "Ann", "agree": True}, {"player": "Ann", "pass": True}):
            move(client, game_id, headers, body)
        client.post(f"/api/games/{game_id}/english", json={}, headers=headers)
    else:
        for player in ("Ann", "Bo", "Ann"):
            chosen = move(client, game_id, headers, {"player": player, "coaster": 2})
            move(client, game_id, headers, {"player": player, "place": {
                "rows": ["", ""], "pool": chosen["coaster"]["letters"][:4],
                "face_down": chosen["coaster"]["letters"][4:]}})
    before = text(panel(client, game_id))
    again = create_app(config).test_client()
    assert text(panel(again, game_id)) == before


@pytest.mark.slow
def test_a_photo_of_the_tiles_drawn_for_english_is_read_into_the_draw(client, make_game):
    game_id, _ = make_game(COLONY)
    response = client.post(f"/api/games/{game_id}/drawn-tiles",
                           data=photo_bytes(("OR", ""), "", seed=2), content_type="image/jpeg")
    assert response.status_code == 200, response.get_json()
    read = response.get_json()
    assert read["letters"] == "OR"
    assert [sorted(tile) for tile in read["tiles"]] == [sorted(read["tiles"][0])] * 2
    empty = cv2.imencode(".jpg", np.full((300, 600, 3), (40, 60, 95), np.uint8))[1].tobytes()
    response = client.post(f"/api/games/{game_id}/drawn-tiles", data=empty,
                           content_type="image/jpeg")
    assert response.status_code == 400
    assert response.get_json()["error"].startswith("no tile found in the photo")


@pytest.mark.slow
def test_pool_letters_move_into_rows_at_any_time_by_any_player(client, make_game):
    game_id, headers = make_game(DRAFT)
    move(client, game_id, headers, {"player": "Ann", "coaster": 1})
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["", ""], "pool": "ACT"}})
    html = panel(client, game_id)
    assert re.search(r'class="pool-form inline-form" data-player="Ann"', html)
    assert not re.search(r'class="pool-form inline-form" data-player="Bo"', html)   # empty
    move(client, game_id, headers, {"player": "Ann", "place": {"rows": ["CAT", ""]}})  # Bo's turn
    shown = text(panel(client, game_id))
    assert "Ann moved pool letters into rows: rows CAT · —, pool —." in shown
    assert "Bo: sell or discard, then choose a coaster" in shown
