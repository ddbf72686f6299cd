"""The first moves of a game: boards with few tiles, read as the live camera reads them.

The truth photos are all boards well into a game. A game starts on an empty board, though, and
its first words are read before any photo-wide yardstick exists: with fewer than three sure
letter tiles there is no tile colour to tell a blank or a thin I from a square by
(:mod:`vision.cells.occupancy`). So: archipelago positions of one to four words for two seats
(``lab.render``, seeds ``FIRST_SEED`` on), every other one with a lettered tile made a blank,
rendered under random conditions and clean, read with their corners and ``DEFAULT_CONFIG``.
Tiles missed (letters and blanks apart) and empty squares taken for tiles, per kind of render.

``python -m bench early``
"""

from __future__ import annotations

import numpy as np

from lab.render import RenderOptions, random_position, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell, Seat
from vision import VisionError, read_board

RENDERS = 60
"""Positions, each rendered both ways."""
FIRST_SEED = 0


def _position(seed: int) -> dict[Cell, Tile]:
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=int(rng.integers(1, 5)), seats=[Seat.S, Seat.N])
    if seed % 2 == 0:
        cells = sorted(tiles, key=lambda cell: (cell.row, cell.col))
        cell = cells[int(rng.integers(len(cells)))]
        tiles[cell] = Tile(tiles[cell].letter, True, tiles[cell].rotation)
    return tiles


def main() -> int:
    print(f"{'renders':<8} {'boards':>6} {'refused':>7} {'tiles':>5} {'letters missed':>14} "
          f"{'blanks missed':>13} {'false tiles':>11}")
    for kind, options in (("random", None), ("clean", RenderOptions.clean())):
        boards = refused = tiles = letters_missed = blanks = blanks_missed = false = 0
        for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
            print(f"\r{kind}: render {number}/{RENDERS}", end="", flush=True)
            position = _position(seed)
            photo = render_board_photo(position, seed=seed, width=1600, height=1200,
                                       options=options)
            boards += 1
            try:
                reading = read_board(photo.image, corners=photo.corners)
            except VisionError:
                refused += 1
                continue
            read = {Cell.parse(cell.cell) for cell in reading.cells}
            tiles += len(position)
            blanks += sum(tile.blank for tile in position.values())
            letters_missed += sum(not tile.blank and cell not in read
                                  for cell, tile in position.items())
            blanks_missed += sum(tile.blank and cell not in read
                                 for cell, tile in position.items())
            false += len(read - set(position))
        print(f"\r{kind:<8} {boards:>6} {refused:>7} {tiles:>5} "
              f"{f'{letters_missed} of {tiles - blanks}':>14} {f'{blanks_missed} of {blanks}':>13} "
              f"{false:>11}")
    return 0
