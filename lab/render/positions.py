"""Random board positions to render in bulk: words laid as players lay them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from referee.boardtext import Tile
from referee.cells import Cell, Direction, Seat
from referee.tiles import load_tile_set


def random_position(rng: np.random.Generator, *, tile_set: str = "english", words: int = 12,
                    seats: Sequence[Seat] = (), word_list: Sequence[str] = ()) -> dict[Cell, Tile]:
    """A crossword-like position: strings of tiles crossing each other from the centre.

    Letters come from ``word_list`` when given, else from the bag's letter frequencies; the
    renderer only needs plausible shapes and letter mixes, not legal plays. With ``seats`` each
    string belongs to a seat: laid in that seat's across or down and turned by its rotation.
    """
    bag = load_tile_set(tile_set)
    letters = [letter for letter, count in bag.counts.items() for _ in range(count)]
    tiles: dict[Cell, Tile] = {}
    for index in range(words):
        if word_list:
            word = str(word_list[int(rng.integers(len(word_list)))]).upper()
        else:
            word = "".join(rng.choice(letters, int(rng.integers(2, 8))))
        if not word.isalpha():
            continue
        seat = seats[index % len(seats)] if seats else Seat.S
        direction = Direction.ACROSS if rng.random() < 0.5 else Direction.DOWN
        anchors = list(tiles) if tiles else [Cell(7, 7)]
        for _attempt in range(200):
            anchor = anchors[int(rng.integers(len(anchors)))]
            offset = int(rng.integers(len(word)))
            start = seat.step(anchor, direction, -offset)
            line = seat.line(start, direction, len(word))
            if not all(cell.on_board() for cell in line):
                continue
            if any(cell in tiles and tiles[cell].letter != letter
                   for cell, letter in zip(line, word, strict=True)):
                continue
            if tiles and not any(cell in tiles for cell in line):
                continue
            rotation = seat.rotation if seats else None
            blank = rng.random() < 0.02
            for cell, letter in zip(line, word, strict=True):
                if cell not in tiles:
                    tiles[cell] = Tile(letter, blank and cell == line[0], rotation)
            break
    return tiles


__all__ = ["random_position"]
