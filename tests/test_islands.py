"""The islands referee (RULES.md §5, FORMATS.md "islands"): turns, islands, the bonus track,
the end, winners and ties, snapshots, undo and every reason code."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.errors import IllegalPlayError, SetupError
from referee.game import NO_WORDS, new_game
from referee.hexboard import HexBoard, HexCell, hex_grid
from referee.islandgroups import fewest_islands, island_count, islands, most_islands
from referee.islandrank import BonusTrack
from referee.islands import (
    REASONS,
    IslandsGame,
    PlaceStones,
    StonesSnapshot,
    move_from_json,
)
from referee.moves import Pass

TWO = [{"name": "Ann", "colour": "R"}, {"name": "Bo", "colour": "B"}]
THREE = [*TWO, {"name": "Cy", "colour": "G"}]
FOUR = [*THREE, {"name": "Di", "colour": "Y"}]


def game(players=TWO, **options) -> IslandsGame:
    position = options.pop("position", None)
    made = new_game("islands", players, options, position)
    assert isinstance(made, IslandsGame)
    return made


def place(player: str, notation: str) -> PlaceStones:
    return PlaceStones.from_notation(player, notation)


def snapshot(g: IslandsGame) -> str:
    return json.dumps([g.state(), g.position.passes, g.position.opening, g.position.track.reached],
                      sort_keys=True)


def refused(g: IslandsGame, move, reason: str) -> dict:
    before = snapshot(g)
    verdict = g.judge(move).to_json()
    assert verdict["legal"] is False and verdict["reason"] == reason, verdict
    assert verdict["message"] and "\n" not in verdict["message"]
    assert snapshot(g) == before
    return verdict


def board(text: str) -> HexBoard:
    return HexBoard.parse(text)


# ------------------------------------------------------------------------------------ islands


ISLANDS = """
    R R B
   . R . B
  G . R . B
   G . . .
    . R R
"""


def test_islands_are_groups_of_two_or_more_by_hex_adjacency():
    b = board(ISLANDS)
    assert island_count(b, "R") == 2  # a1 a2 b2 c3 touch in a chain; e2 e3
    assert island_count(b, "B") == 1  # a3 b4 c5
    assert island_count(b, "G") == 1 and island_count(b, "Y") == 0
    assert sorted(sorted(c.name for c in island) for island in islands(b, "R")) == \
        [["a1", "a2", "b2", "c3"], ["e2", "e3"]]
    assert island_count(board("  R . R\n . . . .\n. . . . .\n . . . .\n  . . .\n"), "R") == 0


colourings = st.lists(st.sampled_from([None, "R", "B", "G"]), min_size=19, max_size=19).map(
    lambda colours: HexBoard(hex_grid(3), tuple(colours)))


@settings(max_examples=80, deadline=None)
@given(before=colourings, cell=st.integers(0, 18), colour=st.sampled_from("RBG"))
def test_a_stone_adds_at_most_one_island_and_merges_away_at_most_two(before, cell, colour):
    if before.colours[cell] is not None:
        return
    after = before.with_stones([(hex_grid(3).cells[cell], colour)])
    change = island_count(after, colour) - island_count(before, colour)
    assert -2 <= change <= 1
    for other in "RBG".replace(colour, ""):
        assert island_count(after, other) == island_count(before, other)
    assert island_count(after, colour) <= len(after.stones) // 2


def every_future(b: HexBoard, colour: str):
    """Each way of giving every empty cell ``colour`` or another colour."""
    empty = b.empty_cells()
    for choice in itertools.product((colour, "Z"), repeat=len(empty)):
        yield b.with_stones(zip(empty, choice, strict=True))


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(start=colourings, holes=st.integers(0, 12), seed=st.integers(0, 1000))
def test_fewest_is_exact_and_most_never_below_the_best_future(start, holes, seed):
    import random

    rng = random.Random(seed)
    cells = list(hex_grid(3).cells)
    rng.shuffle(cells)
    b = start.with_stones((cell, start[cell] or "B") for cell in cells[holes:])
    b = HexBoard(b.grid, tuple(None if cell in cells[:holes] else b[cell] for cell in b.grid))
    counts = [island_count(future, "R") for future in every_future(b, "R")]
    assert fewest_islands(b, "R") == min(counts)
    assert most_islands(b, "R") >= max(counts)
    if holes <= 10:  # a basin this small is counted exactly
        assert most_islands(b, "R") == max(counts)


def test_most_islands_bound_on_a_large_basin_counts_lone_stones_and_pairs():
    b = HexBoard.from_stones({HexCell.parse("g1"): "R"}, 7)  # one lone stone, 126 empty cells
    assert most_islands(b, "R") == 1 + 125 // 2
    assert fewest_islands(b, "R") == 0


# ---------------------------------------------------------------------------- stones per turn


def test_the_first_turn_allows_one_stone_then_two_plus_one_per_opponent_ahead():
    g = game(THREE, size=5)
    assert g.allowed == 1
    refused(g, place("Ann", "a1 R, a2 R"), "too-many-stones")
    assert g.push(place("Ann", "a1 B")).to_json()["allowed"] == 1
    assert g.allowed == 2
    g.push(place("Bo", "a2 B, e5 G"))  # blue has an island: Cy (green, none) is behind one
    assert g.counts() == {"R": 0, "B": 1, "G": 0}
    assert g.allowed == 3
    g.push(place("Cy", "e4 G, i1 G, i2 G"))  # green: e4-e5 and i1-i2
    assert g.counts()["G"] == 2
    assert g.allowed == 4  # Ann: blue and green both strictly ahead
    refused(g, place("Ann", "c1 R, c2 R, c3 R, c4 R, c5 R"), "too-many-stones")
    verdict = g.push(place("Ann", "c1 R, c2 R, c3 R, c4 R")).to_json()
    assert verdict["allowed"] == 4 and len(verdict["placed"]) == 4


def test_opponents_level_with_the_mover_give_nothing_extra():
    g = game(THREE, size=5, position={"board": "\n".join(
        ["R R . . .", ". . . . . .", "B B . . . . .", ". . . . . . . .", ". . . . . . . . .",
         ". . . . . . . .", ". . . . . . .", ". . . . . .", ". . . . ."])})
    assert g.counts() == {"R": 1, "B": 1, "G": 0}
    assert g.allowed == 2  # Ann (R, 1): Bo level, Cy behind
    g.push(Pass("Ann"))
    assert g.allowed == 2  # Bo likewise
    g.push(Pass("Bo"))
    assert g.allowed == 4  # Cy: both strictly ahead


def test_a_pass_on_the_very_first_turn_uses_it_up():
    g = game()
    g.push(Pass("Ann"))
    assert g.allowed == 2


def test_stones_of_any_players_colours_count_for_their_owner():
    g = game()
    g.push(place("Ann", "d4 B"))
    g.push(place("Bo", "d5 B, a1 R"))
    assert g.counts() == {"R": 0, "B": 1}
    assert g.bonus() == {"R": 0, "B": 2}


# ------------------------------------------------------------------------------ bonus track


def test_rules_example_two_arriving_together_get_three_each_and_the_third_one():
    track = BonusTrack.start(3)
    track, earned = track.advance([1, 1, 0])
    assert earned == (3, 3, 0)
    track, earned = track.advance([1, 1, 1])
    assert earned == (0, 0, 1)
    assert track.bonus == (3, 3, 1)


def test_a_count_passed_on_the_way_is_reached_and_a_count_earns_once():
    track = BonusTrack.start(2)
    track, earned = track.advance([2, 0])  # 0 -> 2 reaches 1 and 2, first at both
    assert earned == (4, 0)
    track, earned = track.advance([1, 1])  # Ann falls to 1 (a merge): nothing; Bo second at 1
    assert earned == (0, 1) and track.reached == (2, 1)
    track, earned = track.advance([2, 1])  # back to 2: earned already
    assert earned == (0, 0) and track.bonus == (4, 1)


def test_the_verdict_gives_the_bonus_earned_and_the_state_the_totals():
    g = game(THREE, size=4)
    g.push(place("Ann", "a1 R"))
    verdict = g.push(place("Bo", "a2 R, g4 B")).to_json()
    assert verdict["bonus"] == {"R": 3}
    verdict = g.push(place("Cy", "g3 B, a4 G, b5 G")).to_json()  # blue and green together
    assert verdict["bonus"] == {"B": 2, "G": 2}
    assert g.state()["bonus"] == {"R": 3, "B": 2, "G": 2}


# ----------------------------------------------------------------------------------- the end


def test_a_round_of_passes_ends_the_game_and_the_most_islands_win():
    g = game()
    g.push(place("Ann", "a1 R"))
    g.push(place("Bo", "a2 R, d4 B"))
    g.push(Pass("Ann"))
    assert not g.is_over
    g.push(place("Bo", "d5 B"))  # a placement in between starts the count again
    g.push(Pass("Ann"))
    verdict = g.push(Pass("Bo")).to_json()
    assert verdict["ended"] == "passes"
    state = g.state()
    assert state["to_move"] is None and state["allowed"] is None
    assert state["islands"] == {"R": 1, "B": 1}
    assert state["winner"] == "Ann"  # level on islands; red reached 1 first: bonus 2 to 1
    refused(g, Pass("Ann"), "game-over")


LAST_THREE = "  R B B\n R R B B\n. R B B B\n B B R .\n  B . R\n"
"""Red 2 islands, blue 1; c1, d4 and e2 empty. With frozen irrelevance asked for, both are
frozen at once (blue can never catch up)."""


def test_a_full_board_ends_the_game():
    g = game(position={"board": LAST_THREE})
    assert [cell.name for cell in g.stones.empty_cells()] == ["c1", "d4", "e2"]
    assert not g.push(place("Ann", "c1 R, d4 B")).to_json()["ended"]
    verdict = g.push(place("Bo", "e2 R")).to_json()
    assert verdict["ended"] == "board-full" and g.is_over and g.state()["to_move"] is None
    assert g.state()["winner"] == "Ann"


def test_level_on_islands_and_bonus_is_a_shared_first_place():
    g = game(position={"board": "\n".join(["R R .", ". . . .", ". . . . .", ". . . .",
                                           ". B B"]), "bonus": {"R": 2, "B": 2}})
    g.push(Pass("Ann"))
    g.push(Pass("Bo"))
    state = g.state()
    assert state["ranks"] == {"Ann": 1, "Bo": 1} and state["winner"] is None


def test_more_bonus_breaks_a_tie_on_islands():
    g = game(position={"board": "\n".join(["R R .", ". . . .", ". . . . .", ". . . .",
                                           ". B B"]), "bonus": {"R": 1, "B": 2}})
    g.push(Pass("Ann"))
    g.push(Pass("Bo"))
    assert g.state()["winner"] == "Bo" and g.ranks() == {"Ann": 2, "Bo": 1}


# ------------------------------------------------------------------------- frozen irrelevance

def frozen_game() -> IslandsGame:
    """Ann (red) has two islands, a basin each, so no stone can merge them, and nobody else
    can reach two: Ann is first for good from the start. Bo, Cy and Di play on."""
    text = "\n".join([
        "  R G R",
        " Y . . R",
        ". Y R G Y",
        " Y Y Y Y",
        "  R R .",
    ])
    return game(FOUR, size=3, position={"board": text, "to_move": "Bo"})


def test_frozen_players_are_named_skipped_and_refused():
    g = frozen_game()
    assert g.counts() == {"R": 2, "B": 0, "G": 0, "Y": 1}
    assert g.state()["frozen"] == ["Ann"] and g.ranks()["Ann"] == 1
    g.push(Pass("Bo"))
    g.push(Pass("Cy"))
    assert g.to_move.id == "Di"
    refused(g, place("Ann", "c3 R"), "player-frozen")
    g.push(Pass("Di"))  # three passes: every player still playing has passed
    assert g.is_over and g.state()["ended"] == "passes" and g.state()["winner"] == "Ann"


def test_frozen_opponents_still_count_as_ahead():
    g = frozen_game()
    assert g.allowed == 4  # Bo (blue, none): red, frozen, and yellow are ahead


def test_two_players_are_not_frozen_unless_asked():
    assert game(position={"board": LAST_THREE}).state()["frozen"] == []
    asked = game(frozen=True, position={"board": LAST_THREE}).state()
    assert set(asked["frozen"]) == {"Ann", "Bo"} and asked["ended"] == "all-frozen"
    assert asked["winner"] == "Ann"


def test_a_move_that_freezes_says_who():
    g = game(THREE, size=3, position={"board": "\n".join([
        "  G R B", " . R . .", "R . G G G", " B R B G", "  G G R"])})
    assert g.state()["frozen"] == [] and g.counts() == {"R": 1, "B": 0, "G": 2}
    verdict = g.push(place("Ann", "b3 B")).to_json()  # red can no longer reach green's two
    assert verdict["frozen"] == ["Ann"] == g.state()["frozen"]
    assert g.ranks()["Ann"] == 3 and g.to_move.id == "Bo"
    g.push(Pass("Bo"))
    assert g.to_move.id == "Cy"
    g.push(place("Cy", "b4 G"))
    assert g.to_move.id == "Bo"  # Ann is skipped
    g.push(Pass("Bo"))
    assert g.push(Pass("Cy")).to_json()["ended"] == "passes"  # the two still playing passed
    for _ in range(5):
        g.pop()
    assert g.state()["frozen"] == [] and g.to_move.id == "Ann"


# -------------------------------------------------------------------------------- snapshots


def test_a_snapshot_places_the_stones_that_appeared():
    g = game()
    after = HexBoard.empty(7).with_stones([(HexCell.parse("d4"), "B")])
    verdict = g.push(StonesSnapshot("Ann", after.text())).to_json()
    assert verdict["placed"] == [["d4", "B"]]
    assert verdict["move"] == {"player": "Ann", "place": [["d4", "B"]]}
    after = after.with_stones([(HexCell.parse("d5"), "B"), (HexCell.parse("a1"), "R")])
    verdict = g.push(StonesSnapshot("Bo", after.text())).to_json()
    assert verdict["placed"] == [["a1", "R"], ["d5", "B"]] and verdict["islands"]["B"] == 1


def test_a_snapshot_where_a_stone_vanished_or_changed_is_refused_with_each_change():
    g = game()
    g.push(place("Ann", "d4 B"))
    g.push(place("Bo", "d5 B, a1 R"))
    seen = g.stones.with_stones([(HexCell.parse("d5"), "R"), (HexCell.parse("g7"), "R")])
    seen = HexBoard(seen.grid, tuple(None if cell == HexCell.parse("a1") else seen[cell]
                                     for cell in seen.grid))
    verdict = refused(g, StonesSnapshot("Ann", seen.text()), "board-mismatch")
    assert "a1: the red stone is gone" in verdict["message"]
    assert [change["cell"] for change in verdict["unexpected"]] == ["a1", "d5"]
    assert verdict["unexpected"][1]["message"] == "d5: the blue stone now shows red"


def test_a_snapshot_of_another_size_or_unreadable_is_a_bad_move():
    g = game()
    refused(g, StonesSnapshot("Ann", HexBoard.empty(5).text()), "bad-move")
    refused(g, StonesSnapshot("Ann", "not a board"), "bad-move")
    refused(g, StonesSnapshot("Ann", g.stones.text()), "no-stone-placed")


# ------------------------------------------------------------------------ every reason code


def test_every_reason_code_is_given_and_changes_nothing():
    g = game(THREE, size=3)
    seen = {refused(g, place("Zed", "a1 R"), "bad-move")["reason"]}
    seen.add(refused(g, place("Bo", "a1 R"), "not-your-turn")["reason"])
    seen.add(refused(g, place("Ann", "a1 Y"), "unknown-colour")["reason"])
    seen.add(refused(g, place("Ann", "a1 X"), "unknown-colour")["reason"])
    seen.add(refused(g, place("Ann", "a4 R"), "off-board")["reason"])
    seen.add(refused(g, place("Ann", "f1 R"), "off-board")["reason"])
    seen.add(refused(g, PlaceStones("Ann", ()), "no-stone-placed")["reason"])
    seen.add(refused(g, place("Ann", "a1 R, a2 R"), "too-many-stones")["reason"])
    g.push(place("Ann", "a1 R"))
    seen.add(refused(g, place("Bo", "a1 B"), "occupied")["reason"])
    seen.add(refused(g, place("Bo", "b1 B, b1 G"), "occupied")["reason"])
    seen.add(refused(g, StonesSnapshot("Bo", HexBoard.empty(3).text()), "board-mismatch")
             ["reason"])
    frozen = frozen_game()
    seen.add(refused(frozen, place("Ann", "c3 R"), "player-frozen")["reason"])
    for name in ("Bo", "Cy", "Di"):
        frozen.push(Pass(name))
    seen.add(refused(frozen, Pass("Bo"), "game-over")["reason"])
    assert seen == set(REASONS)


def test_the_first_failing_check_in_reasons_order_is_named():
    g = game(THREE, size=3)
    assert refused(g, place("Bo", "z9 X"), "not-your-turn")
    assert refused(g, place("Ann", "z9 X"), "unknown-colour")
    assert refused(g, place("Ann", "z9 R, a1 R, a1 R"), "off-board")
    assert refused(g, place("Ann", "a1 R, a1 R"), "occupied")


@pytest.mark.parametrize("data", [
    [], {"place": [["d4", "R"]]}, {"player": "Ann"}, {"player": "Ann", "pass": False},
    {"player": "Ann", "place": [["d4", "R"]], "pass": True},
    {"player": "Ann", "word": "CAT", "place": [["d4", "R"]]},
    {"player": "Ann", "place": "d4 R"}, {"player": "Ann", "place": [["d4"]]},
    {"player": "Ann", "place": [["4d", "R"]]}, {"player": "Ann", "place": [["d4", "RED"]]},
    {"player": "Ann", "place": [["d4", 7]]}, {"player": "Ann", "board": 7},
])
def test_malformed_moves_are_bad_move(data):
    with pytest.raises(IllegalPlayError) as error:
        move_from_json(data)
    assert error.value.reason == "bad-move"


@pytest.mark.parametrize("move", [
    place("Ann", "d4 R, e5 B"), Pass("Bo"), StonesSnapshot("Ann", HexBoard.empty(3).text()),
])
def test_moves_round_trip_through_json_and_notation(move):
    assert move_from_json(json.loads(json.dumps(move.to_json()))) == move
    if isinstance(move, PlaceStones):
        assert PlaceStones.from_notation(move.player, move.notation()) == move
        assert move.notation() == "d4 R, e5 B"


# ----------------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("players, options, position, fragment", [
    ([{"name": "Ann", "colour": "R"}], {}, None, "2 to 4 players"),
    ([{"name": "Ann", "colour": "R"}, {"name": "Bo", "colour": "R"}], {}, None,
     "different colour"),
    ([{"name": "Ann", "colour": "R"}, {"name": "Bo"}], {}, None, "or none does"),
    ([{"name": "Ann", "colour": "X"}, {"name": "Bo", "colour": "B"}], {}, None, "one of R"),
    (TWO, {"size": 11}, None, "3 to 10"),
    (TWO, {"size": "7"}, None, "3 to 10"),
    (TWO, {"frozen": "yes"}, None, "true or false"),
    (TWO, {"size": 4}, {"board": HexBoard.empty(3).text()}, "side is 4"),
    (TWO, {}, {"board": "  G . .\n. . . .\n. . . . .\n. . . .\n. . .\n"}, "colour G"),
    (TWO, {}, {"active": {}}, "unknown key 'active'"),
    (TWO, {}, {"bonus": {"G": 1}}, "no player has colour"),
    (TWO, {}, {"bonus": {"R": -1}}, "whole number"),
    (TWO, {}, {"to_move": "Zed"}, "no player"),
])
def test_bad_setups_are_one_line_errors(players, options, position, fragment):
    with pytest.raises(SetupError) as error:
        new_game("islands", players, options, position)
    assert fragment in str(error.value) and "\n" not in str(error.value)


def test_colours_default_to_red_blue_green_yellow_and_no_word_list_is_loaded():
    g = new_game("islands", [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}])
    assert g.state()["colours"] == {"Ann": "R", "Bo": "B", "Cy": "G"}
    assert g.word_list is NO_WORDS and g.state()["size"] == 7


def test_the_size_comes_from_the_position_when_the_options_omit_it():
    g = game(position={"board": HexBoard.empty(4).text(), "to_move": "Bo"})
    assert g.state()["size"] == 4 and g.to_move.id == "Bo"
    assert g.allowed == 1  # an empty board is a fresh game: its very first turn allows one
    started = game(position={"board": LAST_THREE, "to_move": "Bo"})
    assert started.allowed == 3  # stones on the board: that turn is long past


# ------------------------------------------------------------------------------------- undo


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 25), players=st.sampled_from([2, 3, 4]))
def test_pop_restores_every_position_exactly(seed, steps, players):
    import random

    rng = random.Random(seed)
    g = game(FOUR[:players], size=3)
    states = [snapshot(g)]
    for _ in range(steps):
        if g.is_over:
            break
        mover = g.to_move.id
        empty = g.stones.empty_cells()
        if rng.random() < 0.15:
            move = Pass(mover)
        else:
            count = rng.randint(1, min(len(empty), (g.allowed or 1) + 1))
            move = PlaceStones(mover, tuple((cell, rng.choice("RBGY"[:players]))
                                            for cell in rng.sample(empty, count)))
        if g.is_legal(move):
            g.push(move)
            states.append(snapshot(g))
        else:
            assert g.judge(move).legal is False
            assert snapshot(g) == states[-1]
    while len(states) > 1:
        g.pop()
        states.pop()
        assert snapshot(g) == states[-1]
    with pytest.raises(ValueError):
        g.pop()


def test_preview_gives_a_verdict_and_changes_nothing():
    g = game()
    before = snapshot(g)
    assert g.preview(place("Ann", "d4 R")).to_json()["legal"] is True
    assert g.preview(place("Ann", "d4 R, d5 R")).to_json()["reason"] == "too-many-stones"
    assert snapshot(g) == before
