"""A reading settled by the tiles a game knows: doubts give way, sure readings stand."""

from __future__ import annotations

import pytest

from referee.boardtext import Tile
from referee.cells import Cell
from vision.known import Doubts, settle
from vision.reading import BoardReading, CellReading
from vision.tuning import KNOWN_TILE_SURE
from vision.warning import (
    glare_over,
    may_hide_a_tile,
    shadow_over,
    unsure_of_letter,
    unsure_whether_tile,
)

O10, C6, H8 = Cell.parse("O10"), Cell.parse("C6"), Cell.parse("H8")
CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def test_a_known_letter_read_as_empty_is_kept_only_where_a_warning_doubts_the_square() -> None:
    known = {C6: Tile("Q", False, 0), H8: Tile("A", False, 0)}
    seen = {H8: Tile("A", False, 0)}
    settled, kept = settle(seen, known, Doubts(maybe_tiles=frozenset({C6})))
    assert kept == [C6]
    assert settled == known
    # Read as empty and nothing doubted: the tile is really gone, and the referee must hear so.
    assert settle(seen, known, Doubts()) == (seen, [])


def test_a_known_blank_read_as_empty_is_kept_doubted_or_not() -> None:
    # A blank shows no letter that would tell it is still there: the camera misses some with no
    # doubt at all, and the referee would hear of a tile gone missing.
    known = {O10: Tile("E", True, 0), H8: Tile("A", False, 0)}   # O10: a blank played as E
    seen = {H8: Tile("A", False, 0)}
    for doubts in (Doubts(maybe_tiles=frozenset({O10})), Doubts()):
        settled, kept = settle(seen, known, doubts)
        assert kept == [O10]
        assert settled == known            # the game's own tile, its blank letter included


def test_a_letter_read_unsurely_gives_way_to_the_known_one_and_a_sure_one_stands() -> None:
    known = {C6: Tile("Q", False, 0)}
    seen = {C6: Tile("R", False, 0)}
    unsure = Doubts(confidence={C6: KNOWN_TILE_SURE - 0.2})
    assert settle(seen, known, unsure) == (known, [C6])
    sure = Doubts(confidence={C6: KNOWN_TILE_SURE + 0.1})
    assert settle(seen, known, sure) == (seen, [])
    # A cell a reading does not list a confidence for was read surely.
    assert settle(seen, known, Doubts()) == (seen, [])


def test_a_tile_facing_another_seat_is_never_taken_for_a_misread() -> None:
    # South played over North's tile (a capture): a new letter, a new arrow, however unsure.
    known = {C6: Tile("D", False, 180)}
    seen = {C6: Tile("O", False, 0)}
    assert settle(seen, known, Doubts(confidence={C6: 0.3})) == (seen, [])
    # Without rotations (scrabble) letters alone are compared.
    plain = {C6: Tile("Q", False, None)}
    settled, kept = settle({C6: Tile("O", False, 0)}, plain, Doubts(confidence={C6: 0.3}))
    assert kept == [C6] and settled[C6] == plain[C6]


def test_a_blank_seen_as_a_blank_is_the_known_blank_and_unknown_cells_are_untouched() -> None:
    known = {O10: Tile("E", True, 0)}
    seen = {O10: Tile("?", True, 0), H8: Tile("Z", False, 0)}
    doubts = Doubts(maybe_tiles=frozenset({C6}), confidence={O10: 0.1, H8: 0.1})
    assert settle(seen, known, doubts) == (seen, [])


def test_doubts_are_read_alike_from_a_reading_and_from_its_json() -> None:
    reading = BoardReading(
        (CellReading("C6", "R", 0, 0.55), CellReading("H8", "A", 0, 0.99)), CORNERS,
        (unsure_of_letter(C6, "R", "Q"), may_hide_a_tile(glare_over(Cell.parse("K3"))),
         shadow_over(H8), unsure_whether_tile(O10)))
    doubts = Doubts.of_reading(reading)
    assert doubts.maybe_tiles == {Cell.parse("K3"), O10}
    assert doubts.confidence == {C6: 0.55, H8: 0.99}
    assert Doubts.of_json(reading.to_json()) == doubts


@pytest.mark.parametrize("cells", [[{"cell": "Z99", "confidence": 0.5}],
                                   [{"confidence": 0.5}], [{"cell": "C6", "confidence": "x"}]])
def test_malformed_json_cells_are_a_value_error(cells) -> None:
    with pytest.raises(ValueError):
        Doubts.of_json({"board": "", "cells": cells, "warnings": []})
