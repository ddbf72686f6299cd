"""Letters read on rendered boards whose tiles lie off their squares, crops following the letter
or not.

Players push tiles about: a tile 0.2-0.35 cell off its square puts its letter at the edge of
the square's crop. Two kinds of board, read with the renderer's own corners so only the tiles
are off: tiles set apart (every other row and column) each pushed its own way by up to
``JITTER`` cell on each axis, and crossword positions pushed as one block ``DRIFT`` cell in a
random direction. Each board is read with the crops following the letters (the default) and
with the squares' crops (``recentre_beyond=1``), in one process.

``python -m bench offsquare``
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from referee.boardtext import Tile
from referee.cells import Cell
from referee.tiles import load_tile_set
from vision.read import read_board
from vision.reading import DEFAULT_CONFIG, ReadConfig
from vision.render import RenderOptions, random_position, render_board_photo

BOARDS = 30
"""Boards of each kind."""
FIRST_SEEDS = {"apart": 9100, "block": 9200}
"""Each kind's boards are rendered from seeds ``FIRST_SEEDS[kind]`` on."""
JITTER = (0.2, 0.35)
"""Cells each set-apart tile is pushed at most, on each axis (drawn per board)."""
DRIFT = (0.2, 0.35)
"""Cells a crossword block is pushed (drawn per board, in a random direction)."""
SQUARES_CONFIG = dataclasses.replace(DEFAULT_CONFIG, recentre_beyond=1.0)
"""Today's reading before crops followed the letters."""


def apart_position(rng: np.random.Generator) -> dict[Cell, Tile]:
    """Tiles on about half the cells of even row and column, random letters of the bag, upright:
    two cells apart, tiles pushed 0.35 cell towards each other still leave a gap."""
    bag = load_tile_set("english")
    letters = [letter for letter, count in bag.counts.items() for _ in range(count)]
    return {Cell(col, row): Tile(str(rng.choice(letters)), False, 0)
            for row in range(0, 15, 2) for col in range(0, 15, 2) if rng.random() < 0.5}


def jittered_board(seed: int, kind: str):
    """The rendered photo of board ``seed`` of one kind (``"apart"`` or ``"block"``)."""
    rng = np.random.default_rng(seed)
    if kind == "apart":
        tiles = apart_position(rng)
        options = RenderOptions.random(rng, hand=False, tile_jitter=float(rng.uniform(*JITTER)))
    else:
        tiles = random_position(rng)
        angle, reach = rng.uniform(0, 2 * math.pi), rng.uniform(*DRIFT)
        drift = (float(reach * math.cos(angle)), float(reach * math.sin(angle)))
        options = RenderOptions.random(rng, hand=False, tile_drift=drift)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)


def letters_right(photo, config: ReadConfig) -> tuple[int, int]:
    """(letters read right, lettered tiles found) of one render read with its own corners.

    Only the tiles the occupancy model found count: it decides before the crops are cut, so a
    tile it misses is missed either way."""
    reading = read_board(photo.image, corners=photo.corners, config=config)
    read = {reading_cell.cell: reading_cell.letter for reading_cell in reading.cells}
    wanted = {cell.name: tile.letter for cell, tile in photo.tiles.items()
              if not tile.blank and cell.name in read}
    return sum(read[name] == letter for name, letter in wanted.items()), len(wanted)


def main() -> int:
    print("letters right of the lettered tiles found, crops around the squares / following")
    print(f"{'kind':6} {'boards':>6} {'found':>6} {'squares':>8} {'follow':>8}")
    for kind, first_seed in FIRST_SEEDS.items():
        before = after = tiles = 0
        for seed in range(first_seed, first_seed + BOARDS):
            photo = jittered_board(seed, kind)
            right_before, count = letters_right(photo, SQUARES_CONFIG)
            right_after, _ = letters_right(photo, DEFAULT_CONFIG)
            before, after, tiles = before + right_before, after + right_after, tiles + count
        print(f"{kind:6} {BOARDS:6d} {tiles:6d} {before:8d} {after:8d}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
