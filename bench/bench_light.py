"""Reading through shadow and glare (``python -m bench light``): issue 33, point 4.

Renders of games with a hard shadow across part of the board (an arm's or a lamp's: the
renderer's ``shadow`` 0.5, 0.7 and 0.85, a third each) and with a glare spot (``glare`` 0.6, 0.8,
1.0), read with their exact corners by the committed models, each twice in the same process:
with the shade evened out (:mod:`vision.cells.relight`, the reader as it is) and without (the
reader before it). Seeds 200-229 and 300-329; the relighting's numbers were set on seeds
200-211 and the development photos, so 212-229 and 300-329 say how it holds on scenes it was not
set on (docs/tuning.md gives 212-229 alone).

Each tile of the truth is counted once: read right; misread (with or without a warning on its
cell); missed with a warning naming its cell (glare, shadow, "may hide a tile"); missed
silently, the outcome the reader must never give. Squares read as tiles that are empty are
"false".
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import replace

import cv2
import numpy as np

from lab.render import RenderedPhoto, RenderOptions, random_position, render_board_photo
from referee.cells import Cell
from vision import DEFAULT_CONFIG, VisionError, read_board
from vision.letters.classify import BLANK

SETS: dict[str, tuple[range, str, tuple[float, ...]]] = {
    "shadow": (range(200, 230), "shadow", (0.5, 0.7, 0.85)),
    "glare": (range(300, 330), "glare", (0.6, 0.8, 1.0)),
}
"""Each set's seeds, the light it casts (a :class:`RenderOptions` field) and its strengths, taken
in turn by seed."""
OUTCOMES = ("right", "misread", "missed, warned", "MISSED SILENTLY", "false", "refused")


def outcomes(photo: RenderedPhoto, relight: bool) -> Counter[str]:
    """How each tile of ``photo`` is read (see the module)."""
    config = DEFAULT_CONFIG if relight else replace(DEFAULT_CONFIG, relight=False)
    counts: Counter = Counter()
    try:
        reading = read_board(photo.image, corners=photo.corners, config=config)
    except VisionError:
        counts["refused"] += len(photo.tiles)
        return counts
    read = {Cell.parse(cell.cell): cell for cell in reading.cells}
    warned = {cell for warning in reading.warning_details for cell in warning.cells}
    for cell, tile in photo.tiles.items():
        got = read.get(cell)
        if got is None:
            counts["missed, warned" if cell in warned else "MISSED SILENTLY"] += 1
        elif got.letter == (BLANK if tile.blank else tile.letter):
            counts["right"] += 1
        else:
            counts["misread"] += 1
    counts["false"] += len(set(read) - set(photo.tiles))
    return counts


def main() -> int:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        print(f"{'set':8} {'reader':14} {'tiles':>6} " + " ".join(f"{o:>15}" for o in OUTCOMES))
        for name, (seeds, light, strengths) in SETS.items():
            totals: dict[bool, Counter[str]] = {True: Counter(), False: Counter()}
            tiles = 0
            for seed in seeds:
                position = random_position(np.random.default_rng(seed), words=16)
                strength = strengths[seed % len(strengths)]
                options = RenderOptions.random(
                    np.random.default_rng(seed), hand=False, glare=0.0, shadow=0.0, blur=0.4,
                    rack=False, clutter=0)
                options = (replace(options, shadow=strength) if light == "shadow"
                           else replace(options, glare=strength))
                photo = render_board_photo(position, seed=seed, width=1600, height=1200,
                                           options=options)
                tiles += len(photo.tiles)
                for relight in (False, True):
                    totals[relight] += outcomes(photo, relight)
            for relight in (False, True):
                label = "relit (now)" if relight else "as before"
                print(f"{name:8} {label:14} {tiles:6d} "
                      + " ".join(f"{totals[relight][o]:15d}" for o in OUTCOMES))
    finally:
        cv2.setNumThreads(threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
