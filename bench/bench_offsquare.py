"""Rendered boards whose tiles lie off their squares: letters read with crops following the
letter or not, and tiles found with the search where letters lie off their squares or not.

Players push tiles about: a tile 0.2-0.35 cell off its square puts its letter at the edge of
the square's crop. Three kinds of board, read with the renderer's own corners so only the tiles
are off: tiles set apart (every other row and column) each pushed its own way by up to
``JITTER`` cell on each axis, crossword positions pushed as one block ``DRIFT`` cell in a
random direction, and crosswords pushed ``HALF`` a cell, so the last tile of a word lies nearly
as much on the next square as on its own (tiles packed tighter than the squares drift so). Each
board is read with the crops following the letters (the default) and with the squares' crops
(``recentre_beyond=1``); then the tiles found (and squares taken for tiles) with the search for
off-square tiles (:func:`vision.read.off_square_tiles`, the default) and without. One process.

``python -m bench offsquare``
"""

from __future__ import annotations

import dataclasses
import math
import sys

import numpy as np

from lab.render import RenderOptions, random_position, render_board_photo
from referee.boardtext import Tile
from referee.cells import Cell
from referee.tiles import load_tile_set
from vision import DEFAULT_CONFIG, ReadConfig, VisionError, read_board

BOARDS = 30
"""Boards of each kind."""
FIRST_SEEDS = {"apart": 9100, "block": 9200, "half": 9300}
"""Each kind's boards are rendered from seeds ``FIRST_SEEDS[kind]`` on."""
JITTER = (0.2, 0.35)
"""Cells each set-apart tile is pushed at most, on each axis (drawn per board)."""
DRIFT = (0.2, 0.35)
"""Cells a crossword block is pushed (drawn per board, in a random direction)."""
HALF = (0.4, 0.5)
"""Cells a crossword block of the third kind is pushed (drawn per board, along one axis)."""
SQUARES_CONFIG = dataclasses.replace(DEFAULT_CONFIG, recentre_beyond=1.0)
"""Today's reading before crops followed the letters."""
ON_SQUARES_CONFIG = dataclasses.replace(DEFAULT_CONFIG, off_square_sure=2.0)
"""Today's reading before tiles were looked for where letters lie off their squares."""


def apart_position(rng: np.random.Generator) -> dict[Cell, Tile]:
    """Tiles on about half the cells of even row and column, random letters of the bag, upright:
    two cells apart, tiles pushed 0.35 cell towards each other still leave a gap."""
    bag = load_tile_set("english")
    letters = [letter for letter, count in bag.counts.items() for _ in range(count)]
    return {Cell(col, row): Tile(str(rng.choice(letters)), False, 0)
            for row in range(0, 15, 2) for col in range(0, 15, 2) if rng.random() < 0.5}


def jittered_board(seed: int, kind: str):
    """The rendered photo of board ``seed`` of one kind (``"apart"``, ``"block"`` or ``"half"``)."""
    rng = np.random.default_rng(seed)
    if kind == "apart":
        tiles = apart_position(rng)
        options = RenderOptions.random(rng, hand=False, tile_jitter=float(rng.uniform(*JITTER)))
    else:
        tiles = random_position(rng)
        if kind == "block":
            angle, reach = rng.uniform(0, 2 * math.pi), rng.uniform(*DRIFT)
        else:
            angle, reach = rng.integers(4) * math.pi / 2, rng.uniform(*HALF)
        drift = (float(reach * math.cos(angle)), float(reach * math.sin(angle)))
        options = RenderOptions.random(rng, hand=False, tile_drift=drift)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200, options=options)


@dataclasses.dataclass
class Tally:
    """One reading of a render against its truth (corners given)."""

    letters_right: int = 0
    """Letters read right of the lettered tiles found."""
    lettered_found: int = 0
    tiles: int = 0
    """Tiles on the board (lettered or blank)..."""
    found: int = 0
    """...of which read as tiles."""
    false: int = 0
    """Empty squares read as tiles."""
    refused: int = 0
    """Renders not read at all (too blurry), so in none of the counts above."""

    def __iadd__(self, other: Tally) -> Tally:
        for field in dataclasses.fields(self):
            setattr(self, field.name, getattr(self, field.name) + getattr(other, field.name))
        return self


def tally(photo, config: ReadConfig) -> Tally:
    """How one render read with its own corners: letters right of the lettered tiles found
    (the occupancy model decides before the crops are cut, so a tile it misses is missed by
    either crop), tiles found and squares taken for tiles."""
    try:
        reading = read_board(photo.image, corners=photo.corners, config=config)
    except VisionError:
        return Tally(refused=1)
    read = {reading_cell.cell: reading_cell.letter for reading_cell in reading.cells}
    truth = {cell.name: tile for cell, tile in photo.tiles.items()}
    wanted = {name: tile.letter for name, tile in truth.items() if not tile.blank and name in read}
    return Tally(sum(read[name] == letter for name, letter in wanted.items()), len(wanted),
                 len(truth), sum(name in read for name in truth),
                 sum(name not in truth for name in read))


def main() -> int:
    tallies: dict[str, dict[str, Tally]] = {}
    configs = {"squares": SQUARES_CONFIG, "today": DEFAULT_CONFIG, "on squares": ON_SQUARES_CONFIG}
    for kind, first_seed in FIRST_SEEDS.items():
        tallies[kind] = {name: Tally() for name in configs}
        for number, seed in enumerate(range(first_seed, first_seed + BOARDS), 1):
            print(f"\r{kind}: board {number}/{BOARDS}", end="", file=sys.stderr, flush=True)
            photo = jittered_board(seed, kind)
            for name, config in configs.items():
                tallies[kind][name] += tally(photo, config)
    print(file=sys.stderr)
    print("letters right of the lettered tiles found, crops around the squares / following")
    print(f"{'kind':6} {'boards':>6} {'found':>6} {'squares':>8} {'follow':>8}")
    for kind, by_config in tallies.items():
        print(f"{kind:6} {BOARDS:6d} {by_config['today'].lettered_found:6d} "
              f"{by_config['squares'].letters_right:8d} {by_config['today'].letters_right:8d}")
    print("\ntiles found, and squares taken for tiles, without / with the search where letters "
          "lie off their squares")
    print(f"{'kind':6} {'refused':>7} {'tiles':>6} {'found without':>14} {'with':>6} "
          f"{'false without':>14} {'with':>6}")
    for kind, by_config in tallies.items():
        without, today = by_config["on squares"], by_config["today"]
        print(f"{kind:6} {today.refused:7d} {today.tiles:6d} {without.found:14d} "
              f"{today.found:6d} {without.false:14d} {today.false:6d}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
