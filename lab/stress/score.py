"""A reading of a stress scene against the scene's truth: found, occupancy, letters, rotations.

Scored as ``tileref eval`` scores a truth photo (:mod:`lab.eval_reading`): occupancy over every
cell not hidden, letters over the tiles found (a blank is right when read as a blank), rotations
over the lettered tiles found. The reader labels the grid with South at the photo's bottom; the
scene's truth is in the board's own South view, so the reading is turned by the quarter turns that
bring its corners nearest the truth's (a board photographed from its side, or at 45 degrees, is
found either way). A board counts as found when every corner lies within
:data:`FOUND_WITHIN` of a cell of the truth's; one found elsewhere is a wrong board, not a
reading to score.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from lab.eval_corners import corner_errors_cells
from lab.stress.scene import StressScene
from referee.cells import SIZE, Cell
from vision import DEFAULT_CONFIG, BoardReading, VisionError, rectify
from vision.quality import blur_px
from vision.warning import maybe_tile_cells

FOUND_WITHIN = 0.5
"""Cells: the farthest a found corner may lie from the truth's for the board to count as found."""


@dataclass
class SceneResult:
    """What became of one scene: read or refused, and how right the reading was."""

    seed: int
    conditions: dict[str, str]
    found: bool = False
    refusal: str = ""  # the one-line refusal, "" when a reading came back
    reason: str = ""  # the refusal's reason as data (vision's errors), or its class's name
    corner_error: float | None = None  # cells, the worst corner, when read
    cells: int = 0  # cells scored for occupancy (not hidden)
    occupancy_wrong: int = 0
    false_tiles: int = 0
    missed_tiles: int = 0
    false_named: int = 0  # of the empty squares read as tiles, those a warning names
    missed_named: int = 0  # of the tiles read as empty, those a warning says may hold a tile
    empty_named: int = 0  # empty squares a warning says may hold a tile
    letters: int = 0
    letters_wrong: int = 0
    letters_wrong_named: int = 0  # of the letters read wrong, those a warning names
    rotations: int = 0
    rotations_wrong: int = 0
    blur_px: float | None = None  # the tiles' blur at the truth corners (vision.quality.blur_px)
    mistakes: list[str] = field(default_factory=list)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)


def _matched(scene: StressScene, reading: BoardReading) -> tuple[BoardReading, float]:
    """The reading turned into the truth's South view, and its worst corner's error (cells)."""
    truth = scene.photo.corners
    best: tuple[BoardReading, float] | None = None
    for quarter_turns in range(4):
        turned = reading.turned(quarter_turns)
        error = float(corner_errors_cells(np.asarray(turned.corners, np.float64), truth).max())
        if best is None or error < best[1]:
            best = (turned, error)
    assert best is not None
    return best


def score_reading(scene: StressScene, reading: BoardReading) -> SceneResult:
    """Score ``reading`` (``read_board`` of ``scene.jpeg``) against the scene's truth."""
    result = SceneResult(scene.seed, dict(scene.conditions))
    turned, result.corner_error = _matched(scene, reading)
    if result.corner_error > FOUND_WITHIN:
        result.refusal = ""
        return result
    result.found = True
    read = {Cell.parse(cell.cell): cell for cell in turned.cells}
    named = {Cell.parse(name) for name in maybe_tile_cells(turned.warning_details)}
    tiles, covered = scene.photo.tiles, scene.photo.covered
    for row in range(SIZE):
        for col in range(SIZE):
            cell = Cell(col, row)
            if cell in covered:
                continue
            want, got = tiles.get(cell), read.get(cell)
            result.cells += 1
            if want is None:
                if got is not None:
                    result.occupancy_wrong += 1
                    result.false_tiles += 1
                    result.false_named += bool(got.warning_details)
                    result.mistakes.append(f"{cell.name} +tile")
                result.empty_named += got is None and cell in named
                continue
            if got is None:
                result.occupancy_wrong += 1
                result.missed_tiles += 1
                result.missed_named += cell in named
                result.mistakes.append(f"{cell.name} -tile" + ("" if cell in named else " silent"))
                continue
            result.letters += 1
            expected = "?" if want.blank else want.letter
            if got.letter != expected:
                result.letters_wrong += 1
                result.letters_wrong_named += bool(got.warning_details)
                result.confusions[(expected, got.letter)] += 1
                result.mistakes.append(f"{cell.name} {expected}>{got.letter}")
            if not want.blank:
                result.rotations += 1
                if got.rotation != (want.rotation or 0):
                    result.rotations_wrong += 1
                    result.mistakes.append(f"{cell.name} {expected} "
                                           f"{want.rotation or 0}>{got.rotation}")
    return result


def score_refusal(scene: StressScene, error: VisionError) -> SceneResult:
    """A scene the reader refused, with its one-line message and its reason: the one the error
    carries as data ("no board", "cut off", "too blurry", "too dark", "covered"), else the
    error's class (an image that could not be decoded)."""
    return SceneResult(scene.seed, dict(scene.conditions), refusal=" ".join(str(error).split()),
                       reason=getattr(error, "reason", "") or type(error).__name__)


_CELL = re.compile(r"\b[A-O](?:1[0-5]|[1-9])\b")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def refusal_kind(message: str) -> str:
    """A refusal with its cells and numbers taken out, so that refusals group by kind:
    "photo too blurry around M8 (12.3 px)" -> "photo too blurry around # (# px)"."""
    return _NUMBER.sub("#", _CELL.sub("#", message))


def truth_blur_px(scene: StressScene) -> float | None:
    """How smeared the scene's tiles are, as the reader measures it
    (:func:`vision.quality.blur_px`, rectified pixels of a 48 px cell), at the truth corners:
    the figure ``max_tile_blur_px`` is compared with. None for a board with no tile in view."""
    config = DEFAULT_CONFIG
    board = rectify(scene.photo.image, scene.photo.corners, cell_px=config.cell_px,
                    margin_cells=config.margin_cells, tile_lift=config.tile_lift)
    cells = [(cell.col, cell.row) for cell in scene.photo.tiles
             if cell not in scene.photo.covered]
    return float(blur_px(board, cells)) if cells else None


__all__ = ["FOUND_WITHIN", "SceneResult", "refusal_kind", "score_reading", "score_refusal",
           "truth_blur_px"]
