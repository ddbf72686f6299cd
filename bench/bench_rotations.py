"""Which way each tile faces, on boards where all four seats have played.

In archipelago a tile's rotation says whose it is, so the goal is 99 % of rotations right on real
rotated tiles (``tileref eval``) and on renders with all four seats. Here: :data:`RENDERS` renders
of four seats' words (``lab.render``, random conditions, seeds :data:`FIRST_SEED` on, none a
training board: :func:`lab.train.training_render_seeds`), their corners given, read as
``tileref read`` reads a photo and as the live camera reads a frame. A rotation is scored on each
lettered tile found and read as its own letter (a wrong letter is the letter benchmarks' to
count), by the seat that laid it; blanks show no way up and are ``bench blanks``' to score.

``python -m bench rotations``
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np

from lab.render import random_position, render_board_photo
from referee.cells import SEAT_ORDER, Cell, Seat
from vision import DEFAULT_CONFIG, DISPUTE_CONFIG, VisionError, read_board

RENDERS = 100
FIRST_SEED = 6000
READERS = {"tileref read": DISPUTE_CONFIG, "live camera": DEFAULT_CONFIG}


def main() -> int:
    scored = {name: Counter[Seat]() for name in READERS}
    right = {name: Counter[Seat]() for name in READERS}
    refused = Counter[str]()
    for number, seed in enumerate(range(FIRST_SEED, FIRST_SEED + RENDERS), 1):
        print(f"\rrender {number}/{RENDERS}", end="", file=sys.stderr, flush=True)
        tiles = random_position(np.random.default_rng(seed), words=14, seats=list(SEAT_ORDER))
        photo = render_board_photo(tiles, seed=seed, width=1600, height=1200)
        for name, config in READERS.items():
            try:
                reading = read_board(photo.image, corners=photo.corners, config=config)
            except VisionError:
                refused[name] += 1
                continue
            read = {Cell.parse(cell.cell): cell for cell in reading.cells}
            for cell, tile in tiles.items():
                got = read.get(cell)
                if tile.blank or cell in photo.covered or got is None or got.letter != tile.letter:
                    continue
                seat = Seat.from_rotation(tile.rotation or 0)
                scored[name][seat] += 1
                right[name][seat] += got.rotation == (tile.rotation or 0)
    print(file=sys.stderr)
    print(f"{RENDERS} renders of four seats' words, corners given: rotations right of the "
          "tiles read with their letter\n")
    print(f"{'read as':14} {'refused':>7} " + " ".join(f"{seat.name:>11}" for seat in SEAT_ORDER)
          + f" {'all':>16}")
    for name in READERS:
        cells = " ".join(f"{right[name][seat]:>5}/{scored[name][seat]:<5}" for seat in SEAT_ORDER)
        total, out_of = sum(right[name].values()), sum(scored[name].values())
        share = f"{100 * total / out_of:.2f}%" if out_of else "-"
        print(f"{name:14} {refused[name]:>7} {cells} {total:>6}/{out_of:<5} {share}")
    print("\ngoal: 99 % of rotations right on renders with all four seats")
    return 0


if __name__ == "__main__":
    sys.exit(main())
