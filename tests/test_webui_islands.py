"""Islands at the table (issue 36, point 2), through the Flask test client: a new game from the
form and the API, the screen with its hex board, stones tapped and previewed (nothing recorded),
verdicts in words, the end and the winner."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from webui.turns import Commit
from webui.wording import describe, stones_laying_said, taken_back

ROOT = Path(__file__).resolve().parents[1]
TWO = {"ruleset": "islands", "players": [{"name": "Ann", "colour": "R"},
                                          {"name": "Bo", "colour": "B"}], "options": {"size": 3}}


def text(html: str) -> str:
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    html = re.sub(r"<title>.*?</title>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def panel(client: Any, game_id: str, **asked: Any) -> str:
    query = {key: json.dumps(value) if key == "place" else value for key, value in asked.items()}
    response = client.get(f"/table/{game_id}/panel", query_string=query)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def stones_drawn(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-cell="(\w+)" data-stone="(\w)"', html))


def play(client: Any, game_id: str, auth: dict[str, str], **move: Any) -> dict[str, Any]:
    response = client.post(f"/api/games/{game_id}/moves", headers=auth, json=move)
    assert response.status_code == 200, response.json
    return response.json


# -- a new game ---------------------------------------------------------------------------------

def test_the_form_offers_islands_with_colours_a_size_and_frozen_irrelevance(client) -> None:
    page = client.get("/").get_data(as_text=True)
    option = re.search(r'<option value="islands" data-features="([^"]*)"', page)
    assert option and option.group(1).split() == ["coloured", "islands"]   # no seats, no words
    archipelago = re.search(r'<option value="archipelago" data-features="([^"]*)"', page)
    assert archipelago and archipelago.group(1).split() == ["seated", "words", "squares",
                                                            "archipelago"]
    assert [re.search(r'name="colour(\d)"', row) is not None
            for row in page.split('class="player-row"')[1:]] == [True] * 4
    assert 'name="size"' in page and 'name="frozen"' in page
    assert re.findall(r'<option value="(\w)"[^>]*>(\w+)</option>', page.split(
        'name="colour0"')[1].split("</select>")[0]) == [
        ("R", "red"), ("B", "blue"), ("G", "green"), ("Y", "yellow"), ("W", "white"),
        ("K", "black"), ("O", "orange"), ("P", "purple")]


def test_a_game_started_from_the_form_plays_the_colours_size_and_freezing_chosen(client):
    form = {"ruleset": "islands", "name0": "Ann", "colour0": "O", "name1": "Bo",
            "colour1": "K", "name2": "Cy", "colour2": "W", "size": "4",
            # a square board's fields a browser without scripts still posts: not used
            "seat0": "N", "wordlist": "enable", "camera_side": "E", "start_from": "table"}
    response = client.post("/games", data=form)
    assert response.status_code == 302
    game_id = response.headers["Location"].rsplit("/", 1)[1]
    state = client.get(f"/api/games/{game_id}").json
    assert state["ruleset"] == "islands" and state["size"] == 4
    assert state["colours"] == {"Ann": "O", "Bo": "K", "Cy": "W"}
    assert state["to_move"] == "Ann" and state["allowed"] == 1
    assert client.get(response.headers["Location"]).status_code == 302   # → its own screen
    assert client.get(f"/table/{game_id}").status_code == 200
    with_frozen = client.post("/games", data=form | {"frozen": "on"})
    frozen_id = with_frozen.headers["Location"].rsplit("/", 1)[1]
    session = client.application.extensions["tileref"].store.session
    assert session(frozen_id).game.freezing and not session(game_id).game.freezing
    two = client.post("/games", data={"ruleset": "islands", "name0": "Ann", "colour0": "R",
                                      "name1": "Bo", "colour1": "B", "frozen": "on"})
    assert session(two.headers["Location"].rsplit("/", 1)[1]).game.options == {"size": 7}


def test_two_players_of_one_colour_are_refused_in_one_sentence(client) -> None:
    response = client.post("/games", data={"ruleset": "islands", "name0": "Ann",
                                           "colour0": "R", "name1": "Bo", "colour1": "R"})
    assert response.status_code == 400
    assert "every islands player needs a different colour" in response.get_data(as_text=True)
    assert client.get("/api/games").json["games"] == []
    bad_size = client.post("/games", data={"ruleset": "islands", "name0": "Ann",
                                           "name1": "Bo", "size": "11"})
    assert bad_size.status_code == 400 and "3 to 10" in bad_size.get_data(as_text=True)


def test_the_api_takes_players_with_colours_and_a_size(client, make_game) -> None:
    game_id, _ = make_game(TWO)
    state = client.get(f"/api/games/{game_id}").json
    assert state["board"] == "  . . .\n . . . .\n. . . . .\n . . . .\n  . . .\n"
    assert state["island_cells"] == {"R": [], "B": []} and state["ranks"] == {"Ann": 1, "Bo": 1}
    refused = client.post("/api/games", json=TWO | {"players": [{"name": "Ann", "colour": "R"},
                                                                 {"name": "Bo", "colour": "X"}]})
    assert refused.status_code == 400 and "a colour is one of R, B, G" in refused.json["error"]


# -- the screen -----------------------------------------------------------------------------------

def test_the_screen_draws_the_hex_board_the_turn_and_the_standings(client, make_game) -> None:
    game_id, auth = make_game(TWO)
    play(client, game_id, auth, player="Ann", place=[["c3", "R"]])
    play(client, game_id, auth, player="Bo", place=[["c4", "R"], ["a1", "B"]])
    html = panel(client, game_id)
    assert html.count('class="hexcell') == 19                       # side 3: 19 cells
    assert stones_drawn(html) == {"a1": "B", "c3": "R", "c4": "R"}
    assert re.search(r'class="hexcell mark-placed stone-R" data-cell="c4"', html)
    assert re.search(r'class="hexcell stone-R" data-cell="c3"', html)  # not this turn's
    assert 'data-cells="c3 c4"' in html                                # the red island outlined
    shown = text(html)
    assert "Ann (red) to play: 2 stones" in shown
    assert "Bo (blue) placed red c4 and blue a1 (2 of 2 stones allowed)." in shown
    assert "Islands: red 1, blue 0." in shown and "Red earns a bonus of 2." in shown
    standings = shown.split("Player islands bonus rank")[1]
    assert standings.strip().startswith("R Ann (red) 1 2 1 B Bo (blue) 0 0 2")
    assert 'data-say="Bo (blue) placed red c4 and blue a1' in html     # said aloud, if asked


def test_stones_tapped_are_drawn_with_the_islands_they_would_make_and_nothing_recorded(
        client, make_game) -> None:
    game_id, auth = make_game(TWO)
    play(client, game_id, auth, player="Ann", place=[["c3", "R"]])
    before = client.get(f"/api/games/{game_id}").json
    html = panel(client, game_id, place=[["c2", "R"], ["e3", "B"]], colour="B")
    assert stones_drawn(html) == {"c2": "R", "c3": "R", "e3": "B"}
    assert re.search(r'class="hexcell mark-provisional stone-R" data-cell="c2"', html)
    assert 'data-cells="c2 c3"' in html                  # the island the stones would make
    shown = text(html)
    assert ("Bo (blue) is placing red c2 and blue e3 (2 of 2 stones allowed). Islands then: "
            "red 1, blue 0. Red would earn a bonus of 2. Not judged yet") in shown
    assert "No more stones this turn" in shown
    assert re.search(r'data-colour="B" aria-pressed="true"', html)
    assert json.loads(re.search(r'data-placing="([^"]*)"', html).group(1)
                      .replace("&#34;", '"')) == [["c2", "R"], ["e3", "B"]]
    assert client.get(f"/api/games/{game_id}").json == before
    over = text(panel(client, game_id, place=[["c2", "R"], ["e3", "B"], ["e1", "B"]]))
    assert "Not allowed (more stones than the turn allows): 3 stones, but this turn allows 2." \
        in over
    taken = text(panel(client, game_id, place=[["c3", "B"]]))
    assert "Not allowed (a cell already holds a stone): C3 already holds a red stone." in taken
    garbled = client.get(f"/table/{game_id}/panel?place=not+json").get_data(as_text=True)
    assert "The stones tapped cannot be read." in text(garbled)
    not_stones = text(panel(client, game_id, place="c2"))
    assert "'place' lists stones as [cell, colour] pairs" in not_stones
    assert client.get(f"/api/games/{game_id}").json == before


def test_a_refusal_and_an_undo_in_words(client, make_game) -> None:
    game_id, auth = make_game(TWO)
    verdict = play(client, game_id, auth, player="Ann", place=[["c3", "R"], ["c4", "R"]])
    assert verdict["reason"] == "too-many-stones"
    shown = text(panel(client, game_id))
    assert ("Not legal: Ann (red)'s move (more stones than the turn allows). 2 stones, but this"
            " turn allows 1.") in shown
    play(client, game_id, auth, player="Ann", place=[["c3", "R"]])
    assert client.post(f"/api/games/{game_id}/undo", headers=auth).status_code == 200
    shown = text(panel(client, game_id))
    assert "Taken back: Ann (red)'s 1 stone. Take red c3 off the board. Ann (red) plays again." \
        in shown
    assert stones_drawn(panel(client, game_id)) == {}


def test_the_end_and_the_winner_or_a_shared_first_place(client, make_game) -> None:
    sample = json.loads((ROOT / "samples/games/islands-four-players.json").read_text())
    game_id, auth = make_game({key: sample[key] for key in ("ruleset", "players", "options")})
    for move in sample["moves"]:
        play(client, game_id, auth, **move)
    html = panel(client, game_id)
    shown = text(html)
    assert "Game over: Di (yellow) wins" in shown
    assert "The game ended because every player still playing passed in a row." in shown
    assert 'class="hexboard"' in html and "Done" not in shown          # nothing to tap
    assert "Bo (blue) frozen 1 1 4" in shown
    assert "Di (yellow) passed. The game is over: every player still playing passed in a row." \
        in shown
    two = json.loads((ROOT / "samples/games/islands-two-players.json").read_text())
    game_id, auth = make_game({key: two[key] for key in ("ruleset", "players", "options")})
    for move in two["moves"]:
        play(client, game_id, auth, **move)
    assert "Game over: a shared first place for Ann (red) and Bo (blue)" in text(
        panel(client, game_id))
    home = text(client.get("/").get_data(as_text=True))
    assert "Islands · Ann, Bo" in home and "Ann (red) 2 · Bo (blue) 2" in home


def test_a_frozen_player_is_told_in_the_verdict() -> None:
    said = describe({"legal": True, "player": "Cy", "placed": [["a1", "G"]],
                     "islands": {"R": 1, "G": 2}, "allowed": 3, "bonus": {"G": 1},
                     "frozen": ["Bo"], "ended": None},
                    names={"Cy": "Cy (green)", "Bo": "Bo (blue)"}, figure="islands")
    assert said["headline"] == "Cy (green) placed green a1 (1 of 3 stones allowed)."
    assert said["details"] == ["Islands: red 1, green 2.", "Green earns a bonus of 1.",
                               "Bo (blue) is frozen: no play can change their rank now."]
    passed = describe({"legal": True, "player": "Cy", "placed": [], "islands": {}, "allowed": 2,
                       "bonus": {}, "frozen": [], "ended": "all-frozen"}, names={})
    assert passed["headline"] == "Cy passed."
    assert passed["details"] == ["The game is over: no play can change anyone's rank any more."]
    undone = taken_back({"verdict": {"player": "Cy", "placed": [["a1", "G"], ["a2", "R"]]}},
                        {"Cy": "Cy (green)"})
    assert undone["headline"] == "Taken back: Cy (green)'s 2 stones."
    assert undone["details"] == ["Take green a1 and red a2 off the board.",
                                 "Cy (green) plays again."]


def test_stones_seen_by_the_camera_are_worded_as_not_judged_yet() -> None:
    preview = {"legal": True, "player": "Ann", "placed": [["a1", "R"]], "islands": {"R": 0},
               "allowed": 2, "bonus": {}, "frozen": [], "ended": None}
    said = stones_laying_said([["a1", "R"]], preview, "Ann", {"Ann": "Ann (red)"}, Commit(),
                              tapped=False)
    assert said["headline"] == "Ann (red) is placing red a1 (1 of 2 stones allowed)."
    assert said["details"][-1] == "Not judged yet: say Done when the stones are down."
    hands_free = stones_laying_said([["a1", "R"]], preview, "Ann", {}, Commit("auto", 3),
                                    tapped=False)
    assert hands_free["details"][-1] == ("Not judged yet: judged once the board stays still "
                                         "for 3 s.")
