"""Read a photo of a hexhex board with coloured stones: :func:`read_hex_board`.

The chain: find the board (:mod:`vision.hexboard.locate`), measure every cell against the
board's own light (:mod:`vision.hexboard.cells`), decide each cell (:mod:`vision.hexboard.stones`),
and say what is doubtful: a stone whose colour was a near thing, a cell that may or may not
hold one, glare a stone may hide under. Nothing here knows the rules of ``islands``.
"""

from __future__ import annotations

import numpy as np

from referee.hexboard import MAX_SIZE, MIN_SIZE, PALETTE
from vision.hexboard.cells import measure_cells
from vision.hexboard.geometry import cells
from vision.hexboard.locate import locate_board
from vision.hexboard.reading import HexReading, StoneReading
from vision.hexboard.stones import EMPTY, stone_model

SURE = 0.85  # below this the reading says it is unsure of a cell
RUNNER_UP = 0.08  # a second guess at least this likely is named in the warning
GLARE = 0.25  # share of a cell's pixels burnt out that gets it named under glare
SHADOW = 0.45  # a cell lit this much less than the board's mean is named in shadow


def _name(colour: str) -> str:
    return "none" if colour == EMPTY else colour


def _cell_list(names: list[str]) -> str:
    return ", ".join(names) if len(names) <= 6 else ", ".join(names[:6]) + \
        f" and {len(names) - 6} more"


def read_hex_board(image: np.ndarray, size: int = 7) -> HexReading:
    """The stones on the side-``size`` hexhex board in ``image`` (BGR ``uint8``).

    Raises :class:`vision.errors.VisionError` (one line) for a photo too dark or too blurry,
    a board cut off by the photo's edge or no board; ``ValueError`` for a size outside 3-10.
    """
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"a hexhex board's side is {MIN_SIZE} to {MAX_SIZE} cells, not "
                         f"{size!r}")
    pose = locate_board(image, size)
    looks = measure_cells(image, pose.homography, size)
    model = stone_model()
    probabilities = model.probabilities(looks.features)
    order = np.argsort(-probabilities, axis=1)
    stones: list[StoneReading] = []
    unsure: list[str] = []
    doubtful: set[str] = set()
    for index, cell in enumerate(cells(size)):
        best, second = order[index, 0], order[index, 1]
        colour = model.classes[best]
        confidence = float(probabilities[index, best])
        runner = model.classes[second]
        if colour != EMPTY:
            stones.append(StoneReading(cell.name, colour, confidence))
        if confidence < SURE and float(probabilities[index, second]) >= RUNNER_UP:
            doubtful.add(cell.name)
            if colour == EMPTY:
                unsure.append(f"unsure whether {cell.name} holds a stone (maybe {runner})")
            else:
                unsure.append(f"unsure of the stone on {cell.name} ({colour}, maybe "
                              f"{_name(runner)})")
    warnings = list(unsure)
    glared = [cell.name for cell, share in zip(cells(size), looks.glare, strict=True)
              if share >= GLARE]
    if glared:
        doubtful.update(glared)
        warnings.append(f"glare over {_cell_list(glared)}: a stone there may be misread; "
                        "tilt the board or the camera away from the light")
    dark = [cell.name for cell, light in zip(cells(size), looks.light, strict=True)
            if light < SHADOW]
    if dark:
        doubtful.update(dark)
        warnings.append(f"deep shadow over {_cell_list(dark)}")
    return HexReading(size, tuple(stones), tuple((float(x), float(y)) for x, y in pose.corners),
                      tuple(warnings), frozenset(doubtful))


__all__ = ["PALETTE", "read_hex_board"]
