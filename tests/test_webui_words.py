"""Words for people (issue 34): players by name everywhere, each edge of the board labelled with
its player, "home row" explained where it first matters, numbers that add up on screen, a
refusal logged with its word and why."""

from __future__ import annotations

import re

from webui.wording import describe

TWO_PLAYERS = {"ruleset": "archipelago",
               "players": [{"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "N"}]}


def text(html: str) -> str:
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#39;", "'").split())


def play(client, game_id: str, auth: dict, **move: str) -> dict:
    return client.post(f"/api/games/{game_id}/moves", headers=auth, json=move).get_json()


def test_a_first_word_off_the_home_row_is_refused_in_names_and_the_home_row_explained(
        client, make_game):
    game_id, auth = make_game()
    verdict = play(client, game_id, auth, player="S", word="CAT", at="G8", dir="across")
    assert verdict["reason"] == "first-move-home-row"
    shown = text(client.get(f"/games/{game_id}/panel").get_data(as_text=True))
    assert "Not legal: Ann (South)'s CAT (a first word goes along the home row)." in shown
    assert "S's" not in shown
    assert ("Ann (South)'s home row is row 15: the line of squares along the bottom edge of the "
            "board, next to Ann (South)'s name. A first word goes along it.") in shown
    wrong_turn = play(client, game_id, auth, player="N", word="DOG", at="I1", dir="across")
    assert wrong_turn["reason"] == "not-your-turn"
    shown = text(client.get(f"/games/{game_id}/panel").get_data(as_text=True))
    assert "It is Ann (South)'s turn, not Bo (North)'s." in shown
    assert "Not legal: Bo (North)'s DOG (not their turn)." in shown       # the log line


def test_each_edge_of_the_board_says_who_sits_there(client, make_game):
    game_id, _ = make_game({"ruleset": "archipelago", "players": [
        {"name": "Ann", "seat": "S"}, {"name": "Bo", "seat": "W"}, {"name": "Cy", "seat": "N"}]})
    html = client.get(f"/games/{game_id}/panel").get_data(as_text=True)
    edges = dict(re.findall(r'<text class="edge-label seat-\w" data-side="(\w)"[^>]*>([^<]*)<',
                            html))
    assert edges == {"S": "Ann (South)", "W": "Bo (West)", "N": "Cy (North)"}
    scrabble, _ = make_game({"ruleset": "scrabble", "players": [{"name": "Ann"},
                                                               {"name": "Bo"}]})
    assert "edge-label" not in client.get(f"/games/{scrabble}/panel").get_data(as_text=True)


def test_a_plays_worth_and_each_players_strength_add_up_on_screen(client, make_game):
    game_id, auth = make_game()
    play(client, game_id, auth, player="S", word="CAT", at="G15", dir="across")
    play(client, game_id, auth, player="N", word="DOG", at="I1", dir="across")
    play(client, game_id, auth, player="S", word="CATER", at="G15", dir="across")
    shown = text(client.get(f"/games/{game_id}/panel").get_data(as_text=True))
    assert "Ann (South) played CATER, worth 7." in shown
    assert "CAT 5 + CATER 7 = 12" in shown
    state = client.get(f"/api/games/{game_id}").get_json()
    assert state["strength"] == {"S": 12, "N": 5}
    assert re.search(r"Ann \(South\) .*CAT 5 \+ CATER 7 = 12 12 ", shown)
    # Scrabble's figure is the score: a play is worth its score there.
    scrabble = describe({"legal": True, "player": "Ann", "words": [
        {"word": "CAT", "cells": ["H8", "I8", "J8"], "value": 10}], "score": 10}, {})
    assert scrabble["headline"] == "Ann played CAT for 10."


def test_a_dispute_names_seats_as_the_table_does(client):
    verdict = describe({"legal": False, "player": "N", "reason": "not-connected",
                        "message": "DOG neither uses nor touches any of N's own tiles"},
                       {"player": "N", "word": "DOG"}, {"N": "North", "S": "South"})
    assert verdict["headline"] == "Not legal: North's DOG (it touches nothing of theirs)."
    assert verdict["details"] == ["DOG neither uses nor touches any of North's own tiles."]


def test_recent_games_say_when_what_who_and_where_each_stands(client, make_game):
    played, auth = make_game()
    play(client, played, auth, player="S", word="CAT", at="G15", dir="across")
    make_game({"ruleset": "scrabble", "players": [{"name": "Cy"}, {"name": "Di"}]})
    shown = text(client.get("/").get_data(as_text=True))
    assert re.search(r"Scrabble · Cy, Di \d\d \w{3} \d{4}, \d\d:\d\d · 0 moves · Cy to play "
                     r"Cy 0 · Di 0", shown), shown
    assert re.search(r"Archipelago · Ann, Bo \d\d \w{3} \d{4}, \d\d:\d\d · 1 move · "
                     r"Bo \(North\) to play Ann \(South\) 5 · Bo \(North\) 0", shown), shown
