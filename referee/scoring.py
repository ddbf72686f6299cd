"""Scrabble scoring exactly as seed 003 reads (RULES.md §2).

Premiums reward the move that covers them, once: a letter premium counts only for a tile placed
this turn, and a word premium multiplies only the words that run through a square covered this
turn (two such squares stack: DW + DW = x4). Every word a play forms scores on its own, and the
bingo bonus is added when the whole rack (7 tiles) went down. Both rulesets use these functions:
scrabble keeps the total, archipelago logs it beside each play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from referee.boardtext import Tile
from referee.cells import Cell
from referee.layouts import Layout
from referee.tiles import TileSet

RACK_SIZE = 7
"""Placing this many tiles in one play earns the bingo bonus."""


def score_word(cells: Sequence[Cell], tiles: Mapping[Cell, Tile], placed: Set[Cell],
               layout: Layout, tile_set: TileSet) -> int:
    """One word's score: letter values (blanks 0) with premiums only on ``placed`` cells."""
    total = 0
    word_factor = 1
    for cell in cells:
        tile = tiles[cell]
        value = tile_set.value(tile.letter, tile.blank)
        if cell in placed:
            premium = layout.premiums.get(cell)
            if premium is not None:
                value *= premium.letter_factor
                word_factor *= premium.word_factor
        total += value
    return total * word_factor


def score_play(words: Sequence[Sequence[Cell]], tiles: Mapping[Cell, Tile], placed: Set[Cell],
               layout: Layout, tile_set: TileSet, bingo: int) -> int:
    """A play's score: every word formed scored separately, plus ``bingo`` for 7 placed tiles.

    ``tiles`` is the board after the play (the placed tiles included).
    """
    total = sum(score_word(cells, tiles, placed, layout, tile_set) for cells in words)
    if len(placed) == RACK_SIZE:
        total += bingo
    return total


def rack_value(letters: str, tile_set: TileSet) -> int:
    """The sum of the values of a rack's tiles (``?`` is a blank, worth 0) for the end game."""
    return sum(tile_set.value(letter) for letter in letters)


BINGO = {"classic": 50, "seed": 35}
"""The bingo bonus of each preset (RULES.md §2)."""

__all__ = ["BINGO", "RACK_SIZE", "rack_value", "score_play", "score_word"]
