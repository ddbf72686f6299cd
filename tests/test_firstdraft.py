"""First Draft (RULES.md §4): the seed's turns, illegal actions, replay, coin conservation."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import IllegalPlayError
from referee.firstdraft import (
    COASTERS,
    REASONS,
    ChooseCoaster,
    DiscardRow,
    FirstDraftGame,
    Place,
    Refill,
    Sell,
    move_from_json,
)
from referee.game import Player, new_game
from referee.gamefile import judge_file
from referee.randomness import DrawLog
from referee.tiles import load_tile_set

WORDS = {"SOFT", "SIFT", "FOIST", "CAT", "CATS", "DOG", "TOAD", "STONE", "ABSTAIN"}
PLAYERS = [Player("Ann"), Player("Bo")]


def make_game(line: list[str] | None = None, seed: int = 1, words=WORDS, players=PLAYERS,
              **options) -> FirstDraftGame:
    options = {"seed": seed, **options}
    if line is not None:
        options["line"] = line
    return FirstDraftGame(list(players), words, options)


def snapshot(game: FirstDraftGame) -> str:
    """Everything observable about a game, for "nothing changed" and replay comparisons."""
    return json.dumps({"state": game.state(), "coins": game.coins_in_play(),
                       "verdicts": [v.to_json() for v in game.verdicts]}, sort_keys=True)


def refused(game: FirstDraftGame, move, reason: str) -> None:
    before = snapshot(game)
    verdict = game.judge(move).to_json()
    assert verdict["legal"] is False
    assert verdict["reason"] == reason, verdict
    assert verdict["message"] and "\n" not in verdict["message"]
    assert snapshot(game) == before


# -------------------------------------------------------------------------------- the opening


def test_opening_lays_five_filled_coasters_and_logs_the_shuffle():
    game = make_game(seed=42)
    state = game.state()
    numbers = [coaster["coaster"] for coaster in state["line"]]
    assert len(numbers) == 5
    assert not Counter(numbers) - Counter(COASTERS)
    assert all(len(c["letters"]) == c["coaster"] for c in state["line"])
    letters_out = sum(numbers)
    assert state["bag"] == load_tile_set("english").total - 2 - letters_out  # blanks left out
    assert state["pile"] == 5
    assert {p["coins"] for p in state["boards"].values()} == {4}
    draws = state["draws"]
    assert draws["seed"] == 42
    assert draws["draws"][0]["purpose"] == "coaster-shuffle"
    assert sorted(draws["draws"][0]["result"]) == sorted(COASTERS)
    # the line is the shuffle's first five, filled from the bag by logged draws
    assert numbers == draws["draws"][0]["result"][:5]
    fills = [d["result"] for d in draws["draws"][1:]]
    assert ["".join(fill) for fill in fills] == [c["letters"] for c in state["line"]]


def test_the_same_seed_gives_the_same_opening_and_another_seed_another():
    assert make_game(seed=5).state() == make_game(seed=5).state()
    assert make_game(seed=5).state()["line"] != make_game(seed=6).state()["line"]


def test_an_entered_opening_line_is_used_and_logged_as_entered():
    game = make_game(line=["SFT", "OI", "E", "ABCD", "GHIJK"])
    state = game.state()
    assert [c["letters"] for c in state["line"]] == ["SFT", "OI", "E", "ABCD", "GHIJK"]
    entered = [d for d in state["draws"]["draws"] if d["entered"]]
    assert ["".join(d["result"]) for d in entered] == ["SFT", "OI", "E", "ABCD", "GHIJK"]


@pytest.mark.parametrize("line, fragment", [
    (["SFT", "OI", "E", "ABCD"], "five"),
    (["SFT", "OI", "E", "ABCD", "GHIJKL"], "no coaster of 6"),
    (["QQ", "OI", "E", "ABCD", "GHIJK"], "QQ"),
    (["SFT", "OI", "E", "A1", "GHIJK"], "letters"),
])
def test_an_impossible_opening_line_is_a_one_line_setup_error(line, fragment):
    with pytest.raises(ValueError) as error:
        make_game(line=line)
    assert fragment in str(error.value) and "\n" not in str(error.value)


# ------------------------------------------------------------------- the seed's worked turns


def sft_game() -> FirstDraftGame:
    """Ann holds SFT in row 1; Bo paid a coin onto the OI coaster; Ann is to move."""
    game = make_game(line=["SFT", "OI", "E", "ABCD", "GHIJK"])
    game.push(ChooseCoaster("Ann", 1))
    game.push(Place("Ann", ("SFT", ""), refill=Refill(3, "LMN")))
    game.push(ChooseCoaster("Bo", 2))  # passes over OI: one coin on it
    game.push(Place("Bo", ("E", ""), refill=Refill(2, "PR")))
    return game


def test_the_kth_coaster_costs_k_minus_one_and_the_chosen_coasters_coins_go_to_the_player():
    game = make_game(line=["SFT", "OI", "E", "ABCD", "GHIJK"])
    total = game.coins_in_play()
    verdict = game.push(ChooseCoaster("Ann", 5)).to_json()
    assert verdict["coaster"] == {"position": 5, "number": 5, "letters": "GHIJK", "cost": 4,
                                  "coins_taken": 0}
    state = game.state()
    assert state["boards"]["Ann"]["coins"] == 0
    assert [c["coins"] for c in state["line"]] == [1, 1, 1, 1]  # one on each passed over
    game.push(Place("Ann", ("GHIJK", ""), refill=Refill(2, "PR")))
    verdict = game.push(ChooseCoaster("Bo", 3)).to_json()
    assert verdict["coaster"]["coins_taken"] == 1 and verdict["coaster"]["cost"] == 2
    assert game.state()["boards"]["Bo"]["coins"] == 4 - 2 + 1
    assert game.coins_in_play() == total


def test_letters_are_inserted_but_never_rearranged_sft_example():
    game = sft_game()
    state = game.state()
    assert state["boards"]["Ann"]["rows"] == ["SFT", ""]
    game.push(ChooseCoaster("Ann", 1))
    assert game.state()["boards"]["Ann"]["coins"] == 5  # Bo's coin was on OI
    refused(game, Place("Ann", ("FOIST", "")), "row-reordered")
    refused(game, Place("Ann", ("FT", "OI")), "row-reordered")  # nor removed
    verdict = game.push(Place("Ann", ("SOFT", ""), pool="I", refill=Refill(3, "UVW"))).to_json()
    assert verdict["rows"] == ["SOFT", ""] and verdict["pool"] == "I"
    game.pop()
    game.push(Place("Ann", ("SIFT", ""), refill=Refill(3, "UVW")))  # pool inferred
    assert game.state()["boards"]["Ann"]["pool"] == "O"


def test_selling_pays_by_length_and_the_tiles_leave_the_game():
    game = sft_game()
    game.push(ChooseCoaster("Ann", 1))
    game.push(Place("Ann", ("SOFT", "I"), refill=Refill(3, "UVW")))
    game.push(ChooseCoaster("Bo", 1))
    game.push(Place("Bo", ("E", "ABCD"), refill=Refill(4, "WXYZ")))
    bank = game.state()["bank"]
    refused(game, Sell("Ann", 2), "not-a-word")  # a lone I is not a 3+ word
    verdict = game.push(Sell("Ann", 1)).to_json()
    assert verdict["sold"] == {"row": 1, "word": "SOFT", "coins": 2}
    state = game.state()
    assert state["boards"]["Ann"]["rows"] == ["", "I"]
    assert state["boards"]["Ann"]["sold"] == ["SOFT"]
    assert state["bank"] == bank - 2
    refused(game, Sell("Ann", 1), "row-empty")


@pytest.mark.parametrize("word, coins", [("CAT", 1), ("TOAD", 2), ("STONE", 3),
                                         ("ABSTAIN", 7)])
def test_sale_prices_follow_the_seed_table(word, coins):
    assert make_game().sale_price(word) == coins


def test_a_discarded_row_goes_face_down_and_costs_a_coin_each_at_the_end():
    game = sft_game()
    verdict = game.push(DiscardRow("Ann", 1)).to_json()
    assert verdict["discarded"] == {"row": 1, "letters": "SFT"}
    state = game.state()
    assert state["boards"]["Ann"]["face_down"] == 3
    assert state["boards"]["Ann"]["rows"] == ["", ""]
    refused(game, DiscardRow("Ann", 1), "row-empty")


def test_a_full_pool_discards_down_to_four_face_down():
    game = make_game(line=["ABCDE", "FGHI", "JKL", "MN", "O"])
    game.push(ChooseCoaster("Ann", 2))
    game.push(Place("Ann", ("", ""), pool="FGHI", refill=Refill(2, "PQ")))
    game.push(ChooseCoaster("Bo", 1))
    game.push(Place("Bo", ("ABCDE", ""), refill=Refill(3, "RST")))
    game.push(ChooseCoaster("Ann", 1))  # JKL on top of a full pool
    refused(game, Place("Ann", ("", "")), "pool-full")
    refused(game, Place("Ann", ("", ""), face_down="J"), "pool-full")
    refused(game, Place("Ann", ("J", ""), face_down="FGK"), "needless-discard")
    refused(game, Place("Ann", ("", ""), pool="FGHI", face_down="JKLZ"), "letters-mismatch")
    game.push(Place("Ann", ("J", ""), pool="GHIK", face_down="FL", refill=Refill(3, "UVW")))
    state = game.state()
    assert state["boards"]["Ann"]["pool"] == "GHIK"
    assert state["boards"]["Ann"]["face_down"] == 2


def test_pool_letters_move_into_rows_at_any_time_even_on_another_players_turn():
    game = make_game(line=["ABCDE", "FGHI", "JKL", "MN", "O"])
    game.push(ChooseCoaster("Ann", 2))
    game.push(Place("Ann", ("", ""), pool="FGHI", refill=Refill(2, "PQ")))
    game.push(ChooseCoaster("Bo", 1))  # Bo is placing; Ann tidies her pool meanwhile
    game.push(Place("Ann", ("HI", "F"), pool="G"))
    assert game.state()["boards"]["Ann"]["pool"] == "G"
    assert game.state()["to_move"] == "Bo"
    refused(game, Place("Ann", ("HIA", "F"), pool="G"), "letters-mismatch")  # not her coaster
    refused(game, Place("Ann", ("HI", "F"), pool="G", refill=Refill(1, "Z")), "not-placing")


# ----------------------------------------------------------------------------- illegal moves


def test_illegal_actions_are_refused_with_a_reason_and_change_nothing():
    game = make_game(line=["ABCDE", "FGHI", "JKL", "MN", "O"], coins=2)
    refused(game, ChooseCoaster("Bo", 1), "not-your-turn")
    refused(game, ChooseCoaster("Ann", 4), "cannot-afford")
    refused(game, ChooseCoaster("Ann", 6), "no-such-coaster")
    refused(game, Sell("Ann", 3), "no-such-row")
    refused(game, Place("Ann", ("A", "")), "letters-mismatch")  # nothing chosen yet
    refused(game, ChooseCoaster("Zed", 1), "bad-move")
    game.push(ChooseCoaster("Ann", 1))
    refused(game, ChooseCoaster("Ann", 1), "must-place")
    refused(game, Sell("Ann", 1), "must-place")
    refused(game, Place("Ann", ("ABCDEF", "")), "letters-mismatch")
    refused(game, Place("Ann", ("ABCDE", ""), refill=Refill(5, "VWXYZ")), "refill-mismatch")
    refused(game, Place("Ann", ("ABCDE", ""), refill=Refill(3, "XY")), "refill-mismatch")
    refused(game, Place("Ann", ("ABCDE", ""), refill=Refill(2, "QQ")), "refill-mismatch")


def test_a_tenth_letter_in_a_row_is_refused():
    game = make_game(line=["ABCDE", "FGHI", "JKL", "MN", "O"])
    game.push(ChooseCoaster("Ann", 1))
    game.push(Place("Ann", ("ABCDE", ""), refill=Refill(2, "PQ")))
    game.push(ChooseCoaster("Bo", 1))
    game.push(Place("Bo", ("", ""), pool="FGHI", refill=Refill(3, "RST")))
    game.push(ChooseCoaster("Ann", 1))
    game.push(Place("Ann", ("ABJCDKEL", ""), refill=Refill(3, "UVW")))
    game.push(ChooseCoaster("Bo", 1))
    game.push(Place("Bo", ("MN", ""), pool="FGHI", refill=Refill(3, "XYZ")))
    game.push(ChooseCoaster("Ann", 2))  # PQ, passing over O
    refused(game, Place("Ann", ("ABJCDKELPQ", "")), "row-full")
    game.push(Place("Ann", ("PABJCDKEL", "Q"), refill=Refill(4, "AEIO")))
    assert game.state()["boards"]["Ann"]["rows"] == ["PABJCDKEL", "Q"]


# ------------------------------------------------------------------------------------- the end


def drain(game: FirstDraftGame, rng: random.Random, sells: bool = True) -> None:
    """Play legal random turns until the game ends (a test driver, not a strategy)."""
    while not game.is_over:
        player = game.to_move.id
        board = game.table.boards[player]
        if sells:
            for number in (1, 2):
                if game.sale_price(board.rows[number - 1]) is not None and rng.random() < 0.8:
                    game.push(Sell(player, number))
            for number in (1, 2):
                if board.rows[number - 1] and rng.random() < 0.05:
                    game.push(DiscardRow(player, number))
        affordable = min(len(game.table.line), board.coins + 1)
        game.push(ChooseCoaster(player, rng.randint(1, affordable)))
        game.push(random_place(game, player, rng))


def random_place(game: FirstDraftGame, player: str, rng: random.Random) -> Place:
    board = game.table.boards[player]
    rows = list(board.rows)
    pool: list[str] = []
    for letter in game.table.in_hand.letters + board.pool:
        choice = rng.choice(["row", "row", "pool"])
        room = [i for i in (0, 1) if len(rows[i]) < 9]
        if choice == "row" and room:
            i = rng.choice(room)
            at = rng.randint(0, len(rows[i]))
            rows[i] = rows[i][:at] + letter + rows[i][at:]
        else:
            pool.append(letter)
    keep, face_down = pool[:4], pool[4:]
    return Place(player, tuple(rows), "".join(keep), "".join(face_down))


class EveryWord:
    """A word list in which every row is a word, so random games sell often."""

    name = "every"

    def __contains__(self, word: object) -> bool:
        return True


def test_the_game_ends_when_the_bag_cannot_fill_a_coaster_and_everyone_may_sell():
    game = make_game(seed=3, words=EveryWord())
    drain(game, random.Random(3))
    state = game.state()
    assert state["to_move"] is None
    last = game.verdicts[-1].to_json()
    assert last["game_over"] is True
    # the coaster drawn at the last upkeep needed more letters than the bag held
    assert last["refill"]["letters"] == ""
    assert last["refill"]["coaster"] > state["bag"]
    refused(game, ChooseCoaster("Ann", 1), "game-over")
    refused(game, DiscardRow("Ann", 1), "game-over")
    scores_before = state["scores"]
    for name in ("Ann", "Bo"):
        for number in (1, 2):
            row = game.table.boards[name].rows[number - 1]
            if game.sale_price(row) is not None:
                game.push(Sell(name, number))
    after = game.state()
    assert after["scores"] == scores_before  # unsold words already counted as sold at the end
    for name, board in after["boards"].items():
        assert after["scores"][name] == board["coins"] - board["face_down"] + sum(
            game.sale_price(row) or 0 for row in board["rows"])
    best = max(after["scores"].values())
    leaders = [name for name, score in after["scores"].items() if score == best]
    assert after["winner"] == (leaders[0] if len(leaders) == 1 else None)


def test_an_empty_coaster_pile_is_refilled_by_shuffling_the_discarded_coasters():
    game = make_game(seed=11, words=set())
    rng = random.Random(11)
    shuffles = 0
    while not game.is_over and shuffles < 2:
        player = game.to_move.id
        game.push(ChooseCoaster(player, 1))
        verdict = game.push(random_place(game, player, rng)).to_json()
        shuffles += sum(d["purpose"] == "coaster-shuffle" for d in verdict.get("draws", []))
    assert shuffles >= 1
    state = game.state()
    assert state["pile"] + state["discarded_coasters"] + len(state["line"]) == len(COASTERS) or \
        game.is_over


# ----------------------------------------------------------------------- replay and undo


def test_a_game_replays_exactly_from_its_seed_and_moves():
    game = make_game(seed=21, words=EveryWord())
    drain(game, random.Random(21))
    replay = make_game(seed=21, words=EveryWord())
    for move, _ in game.history:
        replay.push(move)
    assert snapshot(replay) == snapshot(game)


def test_a_game_replays_exactly_from_its_logged_draws_entered_by_hand():
    """Players who drew real tiles enter what came out; the referee reaches the same game."""
    game = make_game(seed=8, words=EveryWord())
    drain(game, random.Random(8))
    opening = [coaster["letters"] for coaster in make_game(seed=8).state()["line"]]
    replay = make_game(line=opening, seed=999, words=EveryWord())
    for move, verdict in game.history:
        logged = verdict.to_json().get("refill")
        if logged is not None:
            move = Place(move.player, move.rows, move.pool, move.face_down,
                         Refill(logged["coaster"], logged["letters"]))
        replay.push(move)
    assert replay.state()["boards"] == game.state()["boards"]
    assert replay.state()["scores"] == game.state()["scores"]
    assert replay.state()["line"] == game.state()["line"]
    assert replay.coins_in_play() == game.coins_in_play()
    assert replay.is_over and all(d["entered"] for d in replay.state()["draws"]["draws"]
                                  if d["purpose"] == "fill")


def test_pop_undoes_every_kind_of_move_exactly():
    game = make_game(seed=4, words=EveryWord())
    rng = random.Random(4)
    states = [snapshot(game)]
    while not game.is_over and len(states) < 40:
        player = game.to_move.id
        for move in (Sell(player, 1), ChooseCoaster(player, 1)):
            if game.is_legal(move):
                game.push(move)
                states.append(snapshot(game))
        game.push(random_place(game, player, rng))
        states.append(snapshot(game))
    while game.history:
        states.pop()
        game.pop()
        assert snapshot(game) == states[-1]


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(1, 5), coins=st.integers(0, 6))
def test_coins_are_conserved_in_every_random_game(seed, players, coins):
    people = [Player(f"P{i}") for i in range(players)]
    game = make_game(seed=seed, words=EveryWord(), players=people, coins=coins)
    total = game.coins_in_play()
    rng = random.Random(seed)
    while not game.is_over:
        drain_one_turn(game, rng)
        assert game.coins_in_play() == total
        assert all(board.coins >= 0 for board in game.table.boards.values())
        assert all(len(r) <= 9 for b in game.table.boards.values() for r in b.rows)
        assert all(len(b.pool) <= 4 for b in game.table.boards.values())
    letters = Counter()
    for board in game.table.boards.values():
        letters.update("".join(board.rows) + board.pool + "".join(board.sold))
    letters.update("".join(c.letters for c in game.table.line))
    assert not letters - Counter(load_tile_set("english").counts)


def drain_one_turn(game: FirstDraftGame, rng: random.Random) -> None:
    player = game.to_move.id
    board = game.table.boards[player]
    for number in (1, 2):
        if game.sale_price(board.rows[number - 1]) is not None and rng.random() < 0.5:
            game.push(Sell(player, number))
    affordable = min(len(game.table.line), board.coins + 1)
    game.push(ChooseCoaster(player, rng.randint(1, affordable)))
    game.push(random_place(game, player, rng))


# ----------------------------------------------------------------------------------- JSON


@pytest.mark.parametrize("move", [
    Sell("Ann", 1), DiscardRow("Bo", 2), ChooseCoaster("Ann", 3),
    Place("Ann", ("SOFT", ""), "I", "", Refill(2, "AB")),
    Place("Ann", ("SOFT", "X"), None, "Q", None),
])
def test_moves_round_trip_through_json(move):
    assert move_from_json(json.loads(json.dumps(move.to_json()))) == move


@pytest.mark.parametrize("data", [
    {"player": "Ann"}, {"player": "Ann", "sell": 1, "coaster": 1}, {"sell": 1},
    {"player": "Ann", "sell": "one"}, {"player": "Ann", "coaster": True},
    {"player": "Ann", "place": {"rows": ["AB"]}}, {"player": "Ann", "place": {"rows": ["A1", ""]}},
    {"player": "Ann", "place": {"rows": ["", ""]}, "refill": {"coaster": 9}}, [],
])
def test_malformed_moves_are_bad_move(data):
    with pytest.raises(IllegalPlayError) as error:
        move_from_json(data)
    assert error.value.reason == "bad-move"


def test_new_game_finds_firstdraft_by_name():
    game = new_game("firstdraft", [{"name": "Ann"}, {"name": "Bo"}], {"seed": 2})
    assert isinstance(game, FirstDraftGame)
    assert game.state()["to_move"] == "Ann"
    with pytest.raises(ValueError):
        new_game("firstdraft", [{"name": "Ann"}], {"seed": "x"})


SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "games"


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("firstdraft-*.json")), ids=lambda p: p.name)
def test_the_sample_games_judge_the_same_way_every_time(path):
    first, second = judge_file(path), judge_file(path)
    assert first == second
    final = first["final"]
    coins = final["bank"] + sum(p["coins"] for p in final["boards"].values()) + sum(
        c["coins"] for c in final["line"]) + (final["in_hand"] or {}).get("coins", 0)
    spec = json.loads(path.read_text())
    start = spec["options"].get("bank", 200)
    assert coins == start
    assert all(v["legal"] or v["reason"] in REASONS for v in first["moves"])


def test_the_full_sample_game_reaches_the_end():
    result = judge_file(SAMPLES / "firstdraft-full-game.json")
    assert all(v["legal"] for v in result["moves"])
    assert result["final"]["to_move"] is None
    assert any(v.get("game_over") for v in result["moves"])


def test_the_seed_turns_sample_refuses_foist():
    result = judge_file(SAMPLES / "firstdraft-seed-turns.json")
    reasons = [v.get("reason") for v in result["moves"]]
    assert "row-reordered" in reasons and "cannot-afford" in reasons


def test_a_draw_depends_only_on_seed_index_and_what_it_draws_from():
    log = DrawLog(5)
    first = log.sample(list("AABCDE"), 3, "fill")
    mark = log.mark()
    second = log.sample(list("EDCBAA"), 3, "fill")  # the same multiset in another order
    log.rewind(mark)
    assert log.sample(list("AABCDE"), 3, "fill") == second
    again = DrawLog(5)
    assert again.sample(list("EDCBAA"), 3, "fill") == first
    assert [d.index for d in log.draws] == [0, 1]
    log.enter("fill", ["Q"])
    assert log.to_json()["draws"][-1] == {"index": 2, "purpose": "fill", "result": ["Q"],
                                          "entered": True}
    with pytest.raises(ValueError):
        DrawLog("five")  # type: ignore[arg-type]
