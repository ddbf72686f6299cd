"""Which way blanks face: the classifier's guess against the tiles beside them.

A blank's face says nothing about which way is up, and in archipelago the way a tile faces is
its owner (:mod:`vision.blankfacing`). Two kinds of board, each read twice in the same process,
with ``ReadConfig.face_blanks`` off (the classifier's guess) and on:

* renders: archipelago boards with two and with four seats (``vision.render``, random positions
  and conditions, seeds ``FIRST_SEED`` on, their corners given), two lettered tiles of each made
  blanks, keeping their seat: right when a blank read as one faces the seat that laid it;
* the truth photos, read as ``tileref eval`` reads them (models that never saw the photo's
  repository, truth corners): every tile of these boards faces one way, so a blank read is right
  when it faces that way.

``python -m bench blanks``
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from referee.boardtext import Tile
from referee.cells import Cell, Seat
from vision.errors import VisionError
from vision.eval_reading import photo_corners, tile_set_for
from vision.read import read_board
from vision.reading import DISPUTE_CONFIG, ReadConfig
from vision.render import random_position, render_board_photo
from vision.truth import DEV_PHOTOS, photos_with_truth, read_truth

RENDERS = 40
"""Renders of each number of seats."""
FIRST_SEED = 1000
BLANKS = 2
"""Lettered tiles made blanks on each render."""

GUESS = replace(DISPUTE_CONFIG, face_blanks=False)
BESIDE = DISPUTE_CONFIG


def _render(seed: int, seats: list[Seat]):
    rng = np.random.default_rng(seed)
    tiles = random_position(rng, words=14, seats=seats)
    cells = sorted(tiles, key=lambda cell: (cell.row, cell.col))
    for index in rng.choice(len(cells), BLANKS, replace=False):
        tile = tiles[cells[index]]
        tiles[cells[index]] = Tile(tile.letter, True, tile.rotation)
    return render_board_photo(tiles, seed=seed, width=1600, height=1200), tiles


def _facing(image, corners, config: ReadConfig, want: dict[Cell, int], **read) -> list[bool]:
    """For each cell of ``want`` read as a blank: does it face the rotation wanted?"""
    reading = read_board(image, corners=corners, config=config, **read)
    return [reading_cell.rotation == want[cell] for reading_cell in reading.cells
            if reading_cell.blank and (cell := Cell.parse(reading_cell.cell)) in want]


def renders(seats: list[Seat]) -> dict[str, list[bool]]:
    found: dict[str, list[bool]] = {"guess": [], "beside": []}
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\r{len(seats)} seats: render {number}/{RENDERS}", end="", flush=True)
        photo, tiles = _render(seed, seats)
        want = {cell: tile.rotation or 0 for cell, tile in tiles.items() if tile.blank}
        try:
            for name, config in (("guess", GUESS), ("beside", BESIDE)):
                found[name] += _facing(photo.image, photo.corners, config, want)
        except VisionError:
            continue  # refused (a hand, blur): no blank read either way
    print()
    return found


def truth_photos() -> dict[str, list[bool]]:
    from vision.train import TrainingSettings, loso_models

    photos = photos_with_truth(DEV_PHOTOS)
    models = loso_models({read_truth(photo).source for photo in photos},
                         settings=TrainingSettings(), progress=True)
    found: dict[str, list[bool]] = {"guess": [], "beside": []}
    for number, photo in enumerate(photos, 1):
        print(f"\rtruth photo {number}/{len(photos)}", end="", flush=True)
        truth = read_truth(photo)
        occupancy, classifier = models[truth.source]
        turns = truth.orientation // 90  # turned into the truth's view, where tiles are upright
        for name, config in (("guess", GUESS), ("beside", BESIDE)):
            reading = read_board(photo, corners=photo_corners(truth), config=config,
                                 tiles=tile_set_for(truth), occupancy=occupancy,
                                 classifier=classifier).turned(turns)
            found[name] += [cell.rotation == 0 for cell in reading.cells if cell.blank]
    print()
    return found


def main() -> int:
    rows = {"2-seat renders": renders([Seat.S, Seat.N]), "4-seat renders": renders(list(Seat)),
            "truth photos": truth_photos()}
    print(f"{'board':<16} {'blanks read':>11} {'guess right':>12} {'beside right':>13}")
    for name, found in rows.items():
        total = len(found["beside"])
        print(f"{name:<16} {total:>11} {sum(found['guess']):>12} {sum(found['beside']):>13}")
    return 0
