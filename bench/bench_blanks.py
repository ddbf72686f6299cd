"""Which way blanks face: the classifier's guess against the tiles beside them.

A blank's face says nothing about which way is up, and in archipelago the way a tile faces is
its owner (:mod:`vision.letters.blankfacing`). Two kinds of board, each read once with
``ReadConfig.face_blanks`` off (the classifier's guess), then its blanks turned by
:func:`vision.letters.blankfacing.face_blanks` as the reader turns them when it is on:

* renders: archipelago boards with two and with four seats (``lab.render``, random positions
  and conditions, seeds ``FIRST_SEED`` on, their corners given), two lettered tiles of each made
  blanks, keeping their seat: right when a blank read as one faces the seat that laid it;
* the truth photos, read as ``tileref eval`` reads them (models that never saw the photo's
  repository, truth corners): every tile of these boards faces one way, so a blank read is right
  when it faces that way.

A second table says how many of the renders' blanks are found at all, how many of those missed
no warning names (read as an empty square without a word: the miss a player cannot catch from
the reading), and how many empty squares are read as tiles, by board style: a blank has only its
colour and its outline to tell it from a square, and some styles' squares are the colour of some
tiles (a beige tile on the classic board's beige squares, a white plastic one on the modern
board's white). Cells under a hand are not counted.

``python -m bench blanks``
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

import numpy as np

from lab.render import random_position, render_board_photo
from lab.truth import DEV_PHOTOS, photo_corners, photos_with_truth, read_truth, tile_set_for
from referee.boardtext import Tile
from referee.cells import Cell, Seat
from vision import DISPUTE_CONFIG, CellReading, VisionError, read_board
from vision.letters.blankfacing import face_blanks

RENDERS = 40
"""Renders of each number of seats."""
FIRST_SEED = 1100
"""Not 1000: the committed tile models learnt from the renders of seeds 1000-1019, four seats'
tiles each, which with four seats here were these very boards but for their two blanks
(:func:`lab.train.training_render_seeds`)."""
BLANKS = 2
"""Lettered tiles made blanks on each render."""

GUESS = replace(DISPUTE_CONFIG, face_blanks=False)
"""How the boards are read: as ``tileref read`` reads them, the blanks left as guessed."""


def _render(seed: int, seats: list[Seat]):
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=14, seats=seats)
    cells = sorted(tiles, key=lambda cell: (cell.row, cell.col))
    for index in rng.choice(len(cells), BLANKS, replace=False):
        tile = tiles[cells[index]]
        tiles[cells[index]] = Tile(tile.letter, True, tile.rotation)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200), tiles


def _tally(found: dict[str, list[bool]], cells: Sequence[CellReading],
           right: Callable[[CellReading], bool | None]) -> None:
    """Add to ``found`` whether each blank of ``cells`` faces the right way, as guessed and as
    turned by the tiles beside it; ``right`` is None for a blank not scored."""
    for name, read in (("guess", cells), ("beside", face_blanks(cells))):
        found[name] += [answer for cell in read
                        if cell.blank and (answer := right(cell)) is not None]


def _faces_its_seat(want: dict[Cell, int], cell: CellReading) -> bool | None:
    """Whether a blank read faces the seat that laid it; None for a square read as a blank."""
    where = Cell.parse(cell.cell)
    return cell.rotation == want[where] if where in want else None


@dataclass
class Found:
    """What the renders of each board style gave (cells under a hand left out)."""

    boards: Counter[str] = field(default_factory=Counter)
    blanks: Counter[str] = field(default_factory=Counter)
    blanks_missed: Counter[str] = field(default_factory=Counter)
    blanks_silent: Counter[str] = field(default_factory=Counter)
    """Of the blanks missed, those no warning names: read as empty squares without a word."""
    squares_taken: Counter[str] = field(default_factory=Counter)
    squares_flagged: Counter[str] = field(default_factory=Counter)
    """Of the squares taken, those read with a warning: a tile the players are told to check."""

    def add(self, style: str, tiles: dict[Cell, Tile], cells: Sequence[CellReading],
            covered: frozenset[Cell], named: frozenset[Cell] = frozenset()) -> None:
        """Count one render: its ``tiles``, the ``cells`` read from it, those under a hand, and
        the empty squares its warnings say may hold a tile (``named``)."""
        blanks = {cell for cell, tile in tiles.items() if tile.blank} - covered
        read = {Cell.parse(cell.cell): cell for cell in cells}
        taken = [read[cell] for cell in read.keys() - tiles.keys() - covered]
        self.boards[style] += 1
        self.blanks[style] += len(blanks)
        self.blanks_missed[style] += len(blanks - read.keys())
        self.blanks_silent[style] += len(blanks - read.keys() - named)
        self.squares_taken[style] += len(taken)
        self.squares_flagged[style] += sum(bool(cell.warnings) for cell in taken)


def renders(seats: list[Seat], found: Found) -> dict[str, list[bool]]:
    """Which way the blanks of ``seats``' renders face; ``found`` counts the blanks found."""
    faces: dict[str, list[bool]] = {"guess": [], "beside": []}
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\r{len(seats)} seats: render {number}/{RENDERS}", end="", flush=True)
        photo, tiles = _render(seed, seats)
        want = {cell: tile.rotation or 0 for cell, tile in tiles.items() if tile.blank}
        try:
            reading = read_board(photo.image, corners=photo.corners, config=GUESS)
        except VisionError:
            continue  # refused (a hand, blur): no blank read
        _tally(faces, reading.cells, partial(_faces_its_seat, want))
        found.add(photo.options.board_style, tiles, reading.cells, photo.covered,
                  frozenset(Cell.parse(name) for name in reading.warned_empty_cells()))
    print()
    return faces


def truth_photos() -> dict[str, list[bool]]:
    from lab.train import TrainingSettings, loso_models

    photos = photos_with_truth(DEV_PHOTOS)
    models = loso_models({read_truth(photo).source for photo in photos},
                         settings=TrainingSettings(), progress=True)
    found: dict[str, list[bool]] = {"guess": [], "beside": []}
    for number, photo in enumerate(photos, 1):
        print(f"\rtruth photo {number}/{len(photos)}", end="", flush=True)
        truth = read_truth(photo)
        occupancy, classifier = models[truth.source]
        reading = read_board(photo, corners=photo_corners(truth), config=GUESS,
                             tiles=tile_set_for(truth), occupancy=occupancy,
                             classifier=classifier)
        # Turned into the truth's view, where every tile is upright.
        _tally(found, reading.turned(truth.orientation // 90).cells,
               lambda cell: cell.rotation == 0)
    print()
    return found


def main() -> int:
    found = Found()
    rows = {"2-seat renders": renders([Seat.S, Seat.N], found),
            "4-seat renders": renders(list(Seat), found), "truth photos": truth_photos()}
    print(f"{'board':<16} {'blanks read':>11} {'guess right':>12} {'beside right':>13}")
    for name, faces in rows.items():
        total = len(faces["beside"])
        print(f"{name:<16} {total:>11} {sum(faces['guess']):>12} {sum(faces['beside']):>13}")
    print(f"\n{'board style':<16} {'renders read':>12} {'blanks missed':>14} {'unwarned':>9}"
          f" {'squares taken':>14} {'of them flagged':>16}")
    for style in sorted(found.boards):
        missed = f"{found.blanks_missed[style]} of {found.blanks[style]}"
        print(f"{style:<16} {found.boards[style]:>12} {missed:>14} "
              f"{found.blanks_silent[style]:>9} "
              f"{found.squares_taken[style]:>14} {found.squares_flagged[style]:>16}")
    return 0
