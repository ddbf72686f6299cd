"""Colonization Mode (RULES.md §3): owners, English appearing and devouring, transforms, replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.cells import Cell, Direction
from referee.colonization import (
    ENGLISH,
    REASONS,
    Agree,
    ColonizationGame,
    EnglishTurn,
    NameLanguage,
    Transform,
    move_from_json,
)
from referee.errors import PRECEDENCE, IllegalPlayError
from referee.game import Player, new_game
from referee.gamefile import judge_file
from referee.moves import Pass, Play
from referee.wordlist import WordList

LANGUAGES = {"Ann": "FLORBIX", "Bo": "QUENDAR", "Cy": "TAMPOSI", "Di": "WYVERNS"}


def make_game(players=("Ann", "Bo"), english=("STONE", "HOUSE"), seed=7, languages=True,
              **options) -> ColonizationGame:
    options = {"seed": seed, **options}
    if languages:
        options["languages"] = {name: LANGUAGES[name] for name in players}
    return ColonizationGame([Player(name) for name in players], WordList("english", english),
                            options)


def play(player: str, word: str, at: str, direction: str = "across") -> Play:
    return Play(player, word, Cell.parse(at), Direction.parse(direction))


def snapshot(game: ColonizationGame) -> str:
    return json.dumps(game.state(), sort_keys=True)


def refused(game: ColonizationGame, move, reason: str) -> dict:
    before = snapshot(game)
    verdict = game.judge(move).to_json()
    assert verdict["legal"] is False, verdict
    assert verdict["reason"] == reason, verdict
    assert verdict["message"] and "\n" not in verdict["message"]
    assert snapshot(game) == before
    return verdict


def owners(game: ColonizationGame) -> dict[str, str]:
    return {word.word: word.owner for word in game.words}


def assert_scores_follow_the_words(game: ColonizationGame, bonuses=None) -> None:
    """Every point is a word's points, with its owner (plus bonuses that belong to no word)."""
    bonuses = bonuses or {}
    for owner, score in game.scores.items():
        owned = sum(word.points for word in game.words if word.owner == owner)
        assert score == owned + bonuses.get(owner, 0), owner


def tie_position(seed: int = 7) -> ColonizationGame:
    """Three player words containing R touch the English STONE: BRAK, BRAKS and ORBY.

    Ann: BRAK (H8-K8). Bo: STONE down from L8, which is English (and joins before Bo) and
    makes BRAKS, Bo's. Ann: ORBY from L10 across (through STONE's O). English is to move.
    """
    game = make_game(seed=seed)
    game.push(play("Ann", "BRAK", "H8"))
    verdict = game.push(play("Bo", "STONE", "L8", "down")).to_json()
    assert verdict["english"][0]["why"] == "english-word" and verdict["english_joins"]
    game.push(play("Ann", "ORBY", "L10"))
    assert game.state()["to_move"] == ENGLISH
    return game


# -------------------------------------------------------------------------------- languages


def test_every_player_names_a_seven_letter_language_before_play():
    game = make_game(languages=False)
    refused(game, play("Ann", "BRAK", "H8"), "no-language")
    game.push(NameLanguage("Ann", "FLORBIX"))
    refused(game, NameLanguage("Ann", "GLORBIX"), "bad-language")  # named once
    refused(game, NameLanguage("Bo", "SHORT"), "bad-language")
    refused(game, NameLanguage("Bo", "ZZZQQQX"), "bad-language")  # not one tile set's tiles
    refused(game, Pass("Ann"), "no-language")
    game.push(NameLanguage("Bo", "QUENDAR"))
    game.push(play("Ann", "BRAK", "H8"))
    assert game.state()["languages"] == {"Ann": "FLORBIX", "Bo": "QUENDAR"}
    refused(game, NameLanguage("Bo", "QUENDAS"), "bad-language")


def test_english_is_a_reserved_name():
    with pytest.raises(ValueError):
        make_game(players=("Ann", "English"), languages=False)


# ------------------------------------------------------------------------------------- words


def test_a_play_belongs_to_its_player_and_needs_no_dictionary():
    game = make_game()
    verdict = game.push(play("Ann", "BRAK", "H8")).to_json()
    assert verdict["legal"] and verdict["owner"] == "Ann" and verdict["english"] == []
    assert verdict["words"][0]["word"] == "BRAK"
    assert owners(game) == {"BRAK": "Ann"}
    assert game.scores["Ann"] == verdict["score"] > 0
    assert ENGLISH not in game.scores and game.state()["order"] == ["Ann", "Bo"]


@pytest.mark.parametrize("players, word, legal", [
    (("Ann", "Bo"), "BRA", False), (("Ann", "Bo", "Cy"), "BRA", False),
    (("Ann", "Bo", "Cy", "Di"), "BRA", True), (("Ann", "Bo", "Cy"), "BRAK", True),
])
def test_the_main_word_needs_four_letters_or_three_with_four_players(players, word, legal):
    game = make_game(players=players)
    if legal:
        assert game.push(play("Ann", word, "H8")).legal
    else:
        refused(game, play("Ann", word, "H8"), "word-too-short")


def test_the_scrabble_placement_rules_still_apply():
    game = make_game()
    refused(game, play("Ann", "BRAK", "A1"), "first-move-centre")
    game.push(play("Ann", "BRAK", "H8"))
    refused(game, play("Bo", "GLUM", "A1"), "not-connected")
    refused(game, play("Ann", "GLUM", "H10"), "not-your-turn")


def test_agreed_false_takes_the_play_back_and_the_same_player_plays_again():
    game = make_game()
    before = snapshot(game)
    game.push(play("Ann", "BRAK", "H8"))
    verdict = game.push(Agree("Bo", False)).to_json()
    assert verdict["taken_back"] == ["BRAK"]
    state = json.loads(snapshot(game))
    assert state == json.loads(before)
    refused(game, Agree("Bo", False), "nothing-to-agree")
    game.push(play("Ann", "BROK", "H8"))
    game.push(Agree("Bo", True))
    refused(game, Agree("Bo", False), "nothing-to-agree")  # agreed: no longer open
    assert owners(game) == {"BROK": "Ann"}
    game.pop()  # the agreement
    game.pop()  # BROK
    game.pop()  # the take-back: BRAK is back
    assert owners(game) == {"BRAK": "Ann"}


# --------------------------------------------------------------------------- English appears


def test_an_english_main_word_goes_to_english_which_joins_before_that_player():
    game = make_game(players=("Ann", "Bo", "Cy"))
    game.push(play("Ann", "BRAK", "H8"))
    verdict = game.push(play("Bo", "STONE", "L8", "down")).to_json()
    assert verdict["english"] == [{"word": "STONE", "cells": ["L8", "L9", "L10", "L11", "L12"],
                                   "points": verdict["words"][0]["value"],
                                   "why": "english-word"}]
    assert owners(game) == {"BRAK": "Ann", "STONE": ENGLISH, "BRAKS": "Bo"}
    state = game.state()
    assert state["order"] == ["Ann", ENGLISH, "Bo", "Cy"]
    assert state["to_move"] == "Cy"  # then Ann, then English, then Bo
    assert state["scores"][ENGLISH] == verdict["words"][0]["value"]
    assert_scores_follow_the_words(game)
    game.push(Pass("Cy"))
    game.push(Pass("Ann"))
    assert game.state()["to_move"] == ENGLISH
    refused(game, Pass("Bo"), "not-your-turn")


def test_a_play_that_takes_a_player_past_50_passes_its_main_word_to_english():
    game = make_game()
    game.push(play("Ann", "BRAK", "H8"))
    verdict = game.push(play("Bo", "JAZQUIXB", "H1", "down")).to_json()  # a bingo: 50 and more
    main = verdict["words"][0]
    assert verdict["score"] > 50
    assert verdict["english"] == [{"word": "JAZQUIXB", "cells": main["cells"],
                                   "points": main["value"], "why": "over-50"}]
    assert game.scores == {"Ann": game.verdicts[0].score, "Bo": verdict["score"] - main["value"],
                           ENGLISH: main["value"]}
    assert_scores_follow_the_words(game, bonuses={"Bo": 50})
    assert game.state()["order"] == ["Ann", ENGLISH, "Bo"]
    assert game.state()["to_move"] == "Ann"


# --------------------------------------------------------------------------------- transform


def test_a_transform_succeeds_only_with_a_strictly_higher_tile_and_once_per_player():
    game = make_game()
    game.push(play("Ann", "BRAK", "H8"))
    game.push(play("Bo", "GLUK", "K5", "down"))  # through BRAK's K
    game.push(Pass("Ann"))
    blocked = game.push(Transform("Bo", Cell.parse("H8"), Direction.ACROSS, "E", "A")).to_json()
    assert blocked["transformed"] is False and blocked["values"] == {"actor": 1, "owner": 1}
    assert owners(game)["BRAK"] == "Ann" and game.state()["transforms_used"] == []
    assert game.state()["to_move"] == "Ann"  # the attempt spent Bo's turn
    game.push(Pass("Ann"))
    refused(game, Transform("Bo", Cell.parse("K5"), Direction.DOWN, "Q", "E"),
            "not-an-opponents-word")
    refused(game, Transform("Bo", Cell.parse("A1"), Direction.DOWN, "Q", "E"),
            "not-an-opponents-word")
    done = game.push(Transform("Bo", Cell.parse("H8"), Direction.ACROSS, "Q", "E")).to_json()
    assert done["transformed"] is True and done["english_joins"] is True
    assert owners(game)["BRAK"] == ENGLISH
    assert game.state()["order"] == ["Ann", ENGLISH, "Bo"]
    assert game.state()["transforms_used"] == ["Bo"]
    assert_scores_follow_the_words(game)
    game.push(Pass("Ann"))
    game.push(EnglishTurn(("?",)))  # a blank matches no letter: nothing happens
    refused(game, Transform("Bo", Cell.parse("K5"), Direction.DOWN, "Z", "E"),
            "transform-used")


def test_revealed_tiles_must_be_tiles_not_on_the_board():
    game = make_game()
    game.push(play("Ann", "BRAK", "H8"))
    game.push(play("Bo", "JAZQUIXB", "H1", "down"))  # past 50: English's; BRAK stays Ann's
    brak = Cell.parse("H8"), Direction.ACROSS
    refused(game, Transform("Bo", *brak, "Y", "E"), "not-your-turn")
    game.push(Pass("Ann"))
    game.push(EnglishTurn(("E",)))  # no E in BRAK: nothing happens
    refused(game, Transform("Bo", *brak, "Z", "E"), "not-unseen")
    refused(game, Transform("Bo", *brak, "Y", "Q"), "not-unseen")
    verdict = game.push(Transform("Bo", *brak, "Y", "?")).to_json()
    assert verdict["values"] == {"actor": 4, "owner": 0} and verdict["transformed"]


# ---------------------------------------------------------------------------- English's turn


def test_english_claims_the_only_touching_word_with_the_drawn_letter():
    game = tie_position()
    verdict = game.push(EnglishTurn(("Y",))).to_json()
    assert [c["word"] for c in verdict["candidates"]] == ["ORBY"]
    assert verdict["claimed"]["word"] == "ORBY" and verdict["tiebreaks"] == []
    assert owners(game)["ORBY"] == ENGLISH
    assert verdict["draws"] == [{"index": 0, "purpose": "english-letter", "result": ["Y"],
                                 "entered": True}]
    assert_scores_follow_the_words(game)
    assert game.state()["to_move"] == "Bo"


def test_english_claims_nothing_when_no_touching_word_has_the_letter():
    game = tie_position()
    before = game.scores.copy()
    verdict = game.push(EnglishTurn(("Z",))).to_json()
    assert verdict["candidates"] == [] and verdict["claimed"] is None
    assert game.scores == before


def test_seed_example_1_2_2_the_lowest_tile_claims_its_word():
    game = tie_position()
    verdict = game.push(EnglishTurn(("R", "E", "D", "G"))).to_json()
    assert [c["word"] for c in verdict["candidates"]] == ["BRAK", "BRAKS", "ORBY"]
    assert [[t["value"] for t in r] for r in verdict["tiebreaks"]] == [[1, 2, 2]]
    assert verdict["claimed"]["word"] == "BRAK"
    assert owners(game)["BRAK"] == ENGLISH and owners(game)["BRAKS"] == "Bo"


def test_seed_example_3_2_2_the_tied_lowest_draw_again():
    game = tie_position()
    verdict = game.push(EnglishTurn(("R", "M", "D", "G", "A", "D"))).to_json()
    values = [[t["value"] for t in r] for r in verdict["tiebreaks"]]
    assert values == [[3, 2, 2], [1, 2]]
    assert [t["word"] for t in verdict["tiebreaks"][1]] == ["BRAKS", "ORBY"]
    assert verdict["claimed"]["word"] == "BRAKS"
    assert owners(game) == {"BRAK": "Ann", "STONE": ENGLISH, "BRAKS": ENGLISH, "ORBY": "Ann"}
    assert_scores_follow_the_words(game)


def test_entered_draws_must_be_enough_and_not_too_many_and_in_the_bag():
    game = tie_position()
    message = refused(game, EnglishTurn(("R", "E")), "draws-mismatch")["message"]
    assert "tiebreak needs 3" in message
    refused(game, EnglishTurn(("Y", "E")), "draws-mismatch")
    refused(game, EnglishTurn(("R", "Q", "Q", "E")), "not-unseen")  # one Q in the set


def test_the_referee_draws_from_the_unseen_tiles_with_a_logged_seed():
    game = tie_position()
    verdict = game.push(EnglishTurn()).to_json()
    assert verdict["seed"] == 7
    draws = verdict["draws"]
    assert draws[0]["purpose"] == "english-letter" and not draws[0]["entered"]
    assert draws[0]["result"] == [verdict["drawn"]]
    assert sum(len(d["result"]) for d in draws[1:]) == sum(len(r) for r in verdict["tiebreaks"])
    game.pop()
    assert game.push(EnglishTurn()).to_json() == verdict  # same seed, same index: same draw


# ------------------------------------------------------------------------------------ the end


def english_takes_all(game: ColonizationGame) -> dict:
    """Ann's BRAK, then Bo's JAZQUIXB through its B (past 50: English's), then English draws
    R and claims BRAK, the last word that was not English's."""
    game.push(play("Ann", "BRAK", "H8"))
    game.push(play("Bo", "JAZQUIXB", "H1", "down"))
    game.push(Pass("Ann"))
    assert game.state()["to_move"] == ENGLISH
    return game.push(EnglishTurn(("R",))).to_json()


def test_the_game_ends_at_once_when_every_word_is_english_and_english_can_win():
    game = make_game()
    verdict = english_takes_all(game)
    assert verdict["claimed"]["word"] == "BRAK"
    state = game.state()
    assert all(word["owner"] == ENGLISH for word in state["words"])
    assert state["to_move"] is None
    assert state["winner"] == ENGLISH
    assert state["scores"][ENGLISH] > max(state["scores"]["Ann"], state["scores"]["Bo"])
    refused(game, play("Bo", "GLUM", "I5", "down"), "game-over")


def test_scoreless_turns_end_the_game_as_in_scrabble_and_english_turns_do_not_count():
    game = make_game(preset="seed")  # 3 scoreless turns (not at 0-0)
    game.push(play("Ann", "BRAK", "H8"))
    game.push(play("Bo", "STONE", "L8", "down"))
    game.push(Pass("Ann"))
    game.push(EnglishTurn(("Z",)))
    game.push(Pass("Bo"))
    assert not game.is_over
    game.push(Pass("Ann"))
    assert game.is_over and game.state()["to_move"] is None


# ----------------------------------------------------------------------------------- replay


def a_game_with_english_turns(seed: int) -> ColonizationGame:
    game = make_game(seed=seed)
    game.push(play("Ann", "BRAK", "H8"))
    game.push(play("Bo", "STONE", "L8", "down"))
    game.push(play("Ann", "ORBY", "L10"))
    game.push(EnglishTurn())
    game.push(play("Bo", "TROG", "L9", "across") if game.is_legal(
        play("Bo", "TROG", "L9", "across")) else Pass("Bo"))
    game.push(Pass("Ann"))
    game.push(EnglishTurn())
    game.push(Pass("Bo"))
    game.push(Pass("Ann"))
    game.push(EnglishTurn())
    return game


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_game_replays_exactly_from_its_seed_and_moves(seed):
    game = a_game_with_english_turns(seed)
    replay = make_game(seed=seed)
    for move, _ in game.history:
        replay.push(move)
    assert snapshot(replay) == snapshot(game)
    assert [v.to_json() for v in replay.verdicts] == [v.to_json() for v in game.verdicts]


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_game_replays_exactly_from_its_logged_draws_entered_by_hand(seed):
    game = a_game_with_english_turns(seed)
    replay = make_game(seed=seed + 1000)
    for move, verdict in game.history:
        if isinstance(move, EnglishTurn):
            drawn = [tile for d in verdict.to_json()["draws"] for tile in d["result"]]
            move = EnglishTurn(tuple(drawn))
        replay.push(move)
    original, replayed = game.state(), replay.state()
    for key in ("board", "scores", "words", "order", "to_move", "winner"):
        assert replayed[key] == original[key], key


@pytest.mark.slow
def test_referee_tiebreaks_replay_from_the_seed_and_from_the_entered_log():
    tiebreaks = 0
    for seed in range(40):
        game = tie_position(seed)
        verdict = game.push(EnglishTurn()).to_json()
        tiebreaks += bool(verdict["tiebreaks"])
        again = tie_position(seed)
        assert again.push(EnglishTurn()).to_json() == verdict
        by_hand = tie_position(seed + 1000)
        drawn = tuple(tile for d in verdict["draws"] for tile in d["result"])
        entered = by_hand.push(EnglishTurn(drawn)).to_json()
        assert entered["claimed"] == verdict["claimed"]
        assert entered["tiebreaks"] == verdict["tiebreaks"]
        assert by_hand.state()["scores"] == game.state()["scores"]
    assert tiebreaks > 0  # the seeds above do exercise the tie-break draws


def test_pop_undoes_english_turns_and_transforms_exactly():
    game = tie_position()
    states = [snapshot(game)]
    for move in (EnglishTurn(), Pass("Bo"),
                 Transform("Ann", Cell.parse("L8"), Direction.DOWN, "Q", "E")):
        if game.is_legal(move):
            game.push(move)
            states.append(snapshot(game))
    while len(states) > 1:
        game.pop()
        states.pop()
        assert snapshot(game) == states[-1]


# ------------------------------------------------------------------------------------- JSON


@pytest.mark.parametrize("move", [
    NameLanguage("Ann", "FLORBIX"), Agree("Bo", False), Agree("Bo", True),
    Transform("Ann", Cell.parse("H8"), Direction.DOWN, "Q", "?"),
    EnglishTurn(), EnglishTurn(("R", "E")),
    play("Ann", "BRAK", "H8"), Pass("Bo"),
])
def test_moves_round_trip_through_json(move):
    assert move_from_json(json.loads(json.dumps(move.to_json()))) == move


@pytest.mark.parametrize("data", [
    {"player": "English", "pass": True}, {"player": "English", "draws": "E"},
    {"player": "English", "draws": []}, {"player": "Ann", "agree": "no"},
    {"player": "Ann", "language": 7}, {"player": "Ann", "transform": "H8"},
    {"player": "Ann", "transform": {"at": "Z9", "dir": "down"}, "actor_tile": "Q",
     "owner_tile": "E"},
    {"player": "Ann", "transform": {"at": "H8", "dir": "down"}, "actor_tile": "QU",
     "owner_tile": "E"},
    {"player": "Ann", "agree": True, "pass": True},
])
def test_malformed_moves_are_bad_move(data):
    with pytest.raises(IllegalPlayError) as error:
        move_from_json(data)
    assert error.value.reason == "bad-move"


def test_new_game_finds_colonization_by_name_with_the_enable_list_as_english():
    game = new_game("colonization", [{"name": "Ann"}, {"name": "Bo"}],
                    {"seed": 1, "languages": {"Ann": "FLORBIX", "Bo": "QUENDAR"}})
    assert isinstance(game, ColonizationGame)
    verdict = game.push(play("Ann", "HOUSE", "H8")).to_json()
    assert verdict["english"][0]["why"] == "english-word"
    assert game.state()["word_list"] == "ENABLE"


def test_a_board_snapshot_is_read_as_the_play_it_shows():
    game = make_game()
    game.push(play("Ann", "BRAK", "H8"))
    after = dict(game.board.tiles)
    from referee.boardtext import Tile
    from referee.moves import Snapshot
    for name, letter in zip(("L8", "L9", "L10", "L11", "L12"), "STONE", strict=True):
        after[Cell.parse(name)] = Tile(letter)
    verdict = game.push(Snapshot("Bo", after)).to_json()
    assert verdict["move"] == {"player": "Bo", "word": "STONE", "at": "L8", "dir": "down"}
    assert owners(game) == {"BRAK": "Ann", "STONE": ENGLISH, "BRAKS": "Bo"}


def test_the_remaining_racks_settle_the_score_after_the_end():
    game = make_game()
    english_takes_all(game)
    assert game.is_over
    scores = dict(game.scores)
    end = move_from_json({"player": "Ann", "end": {"racks": {"Ann": "EE", "Bo": "W"}}})
    verdict = game.push(end).to_json()
    assert verdict["adjustments"] == {"Ann": -2, "Bo": -4}
    assert game.scores == {"Ann": scores["Ann"] - 2, "Bo": scores["Bo"] - 4,
                           ENGLISH: scores[ENGLISH]}
    assert game.state()["winner"] == ENGLISH


SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "games"


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("colonization-*.json")),
                         ids=lambda p: p.name)
def test_the_sample_games_judge_the_same_way_every_time(path):
    first = judge_file(path)
    assert judge_file(path) == first
    final = first["final"]
    points = {}
    for word in final["words"]:
        points[word["owner"]] = points.get(word["owner"], 0) + word["points"]
    assert final["scores"].get(ENGLISH, 0) == points.get(ENGLISH, 0)
    known = set(REASONS) | set(PRECEDENCE)
    assert all(v["legal"] or v["reason"] in known for v in first["moves"])


def test_the_english_wins_sample_ends_with_every_word_english():
    final = judge_file(SAMPLES / "colonization-english-wins.json")["final"]
    assert {word["owner"] for word in final["words"]} == {ENGLISH}
    assert final["winner"] == ENGLISH and final["to_move"] is None


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.lists(st.integers(0, 9), min_size=1,
                                                        max_size=12))
def test_points_only_move_between_owners_and_pop_restores_every_step(seed, steps):
    """English's turns, transforms and passes in any order never create or lose a point."""
    game = tie_position(seed)
    total = sum(game.scores.values())
    states = [snapshot(game)]
    tiles = "QZEAKX?"
    for step in steps:
        if game.is_over:
            break
        mover = game.to_move.id
        if mover == ENGLISH:
            move = EnglishTurn()
        elif step < 6 and game.words:
            word = game.words[step % len(game.words)]
            move = Transform(mover, word.cells[0], word.direction, tiles[step % len(tiles)],
                             tiles[(step + 3) % len(tiles)])
        else:
            move = Pass(mover)
        if game.is_legal(move):
            game.push(move)
            states.append(snapshot(game))
            assert sum(game.scores.values()) == total
            assert_scores_follow_the_words(game)
    while len(states) > 1:
        game.pop()
        states.pop()
        assert snapshot(game) == states[-1]
