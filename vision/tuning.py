"""The reader's tuned numbers that belong to reading as a whole, and those its stages share.

Every tuned number of the reader lives in one place per stage: reading as a whole here
(:class:`ReadConfig`, and the constants of :mod:`vision.read`, :mod:`vision.quality` and
:mod:`vision.known`), finding the board in :mod:`vision.board.tuning`, the cells in
:mod:`vision.cells.tuning` and the letters in :mod:`vision.letters.tuning`. Each says in a
sentence or two why it is what it is and which command measures it; the measurements themselves,
with the figures each value was chosen by, are in ``docs/tuning.md``, one section per knob.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReadConfig:
    """Every threshold of the reading stages a caller may choose, in one place.

    :data:`DEFAULT_CONFIG` is the live camera's (fast: frames vote), :data:`DISPUTE_CONFIG` a
    single photo's (``tileref read``, ``tileref eval``, the dispute page: slower, surer).
    """

    cell_px: int = 48
    """The rectified cell side the models were trained at; changing it means retraining
    (``python -m lab.train``)."""
    margin_cells: float = 0.5
    """Rectified margin around the grid (cells): a tile overhanging its square still shows."""
    tile_lift: float = 0.15
    """The plane rectified lies this far (cells) above the board, towards the tiles' faces
    (:func:`vision.board.rectify.rectify`)."""
    occupancy_threshold: float = 0.5
    """A cell the occupancy model gives at least this is a tile."""
    unsure_empty_above: float = 0.15
    """An empty cell at least this likely a tile is named (``unsure whether K3 holds a tile``):
    most tiles occupancy misses are blanks. ``tileref eval`` prints what the warnings name."""
    low_confidence: float = 0.7
    """A letter read less surely is flagged ("unsure of the letter on K3"): ``tileref eval``
    (letters wrong with no word said) and ``python -m bench blanks`` (renders) measure it."""
    lone_turn_confidence: float = 0.8
    """...or this, for a tile turned unlike every other lettered tile of a board of
    :data:`vision.letters.tuning.BOARD_PRIOR_MIN_TILES` or more, whose rotation no other tile
    backs (``tileref eval``)."""
    ocr_second_opinion: bool = False
    """Letters read less surely than ``ocr_below`` are handed to Tesseract, whose letter wins:
    on for a single photo, off for the live camera (0.1-0.2 s a doubtful tile;
    ``python -m bench ocr``)."""
    ocr_below: float = 0.5
    """...those read less surely than this (``python -m bench ocr``, ``python -m bench seeds``)."""
    glare_fraction: float = 0.12
    """Share of a cell's pixels blown out before "glare" is said."""
    glare_level: int = 250
    """Grey level counted as blown out."""
    shadow_ratio: float = 0.45
    """A cell this much darker than its own kind of square (or the board's tiles) is shadowed."""
    blur_ratio: float = 0.25
    """A tile this much less sharp than the photo's lettered tiles is called blurred."""
    max_tile_blur_px: float = 10.0
    """Tiles' edges smeared wider than this (rectified pixels of a 48 px cell): the photo is
    refused, since from here a quarter of the tiles go wrong. Set from the blur curve of the
    stress sweep (``python -m bench stress --blur``, docs/blur-curve.png): of the tiles read
    right sharp, 96-99 % are still right up to 8 px, 77 % at 8-10, 64 % at 10-12."""
    max_print_blur_px: float = 20.0
    """...and the board's print, when no tile is found (and for a part of the board with too
    few tiles to judge)."""
    max_covered_squares: float = 15
    """More bare squares side by side (:mod:`vision.cells.cover`): the photo is refused; fewer
    are named (``python -m bench cover``)."""
    second_look_below: float = 0.9
    """A tile read less surely is read again from crops shifted around its cell
    (:func:`vision.read.second_look`; ``tileref eval``)."""
    second_look_shift: float = 0.125
    """...moved this share of a cell (0: no second look)."""
    second_look_pad: float = 0.12
    """...and from a crop grown this share of a cell a side (0: not)."""
    recentre_beyond: float = 0.25
    """A letter further off its cell's centre (cells, either axis) is read again from a crop cut
    around it (:func:`vision.read.follow_letters`; ``tileref eval``,
    ``python -m bench offsquare``). 1 or more: never."""
    occupancy_shift: float = 0.0
    """Occupancy is also read with the grid moved this share of a cell each way, the looks
    averaged (:func:`vision.read.tile_probability`): on for a single photo, off for the live
    camera, whose frames vote (``python -m bench occupancy``)."""
    occupancy_shift_sure: float = 0.95
    """...except where the grid as found sees a tile at least this surely: a moved look can undo
    what the first plainly saw at a board's far edge (``python -m bench occupancy``)."""
    small_cell_px: float = 20.0
    """A median cell smaller than this in the photo (pixels) is warned about: letters read worse
    below it (``python -m bench resolution``)."""
    face_blanks: bool = True
    """A blank faces the tiles beside it (:mod:`vision.letters.blankfacing`), not the
    classifier's guess (``python -m bench blanks``)."""
    relight: bool = True
    """Shade is evened out before anything is read (:mod:`vision.cells.relight`); off only to
    measure what it does (``python -m bench light``)."""
    off_square_sure: float = 0.9
    """A letter off an empty cell's centre read at least this surely is a tile pushed off its
    square (:func:`vision.read.off_square_tiles`; ``python -m bench offsquare``). Over 1: off."""
    letter_on_empty_sure: float = 0.9
    """A cell read as empty whose letter's shape on a square that prints none the tile classifier
    reads as a letter at least this surely is named as a doubt
    (:func:`vision.read.letters_read_as_empty`; docs/tuning.md). Over 1: off."""
    unseen_letters_after: int = 1
    """Marks above letters a board shows before the letters of other sets with no mark above
    (an Ł, an Ą) are looked for (``python -m bench tilesets``)."""


DEFAULT_CONFIG = ReadConfig()
"""The live camera's: each frame read fast, the frames voting."""
DISPUTE_CONFIG = ReadConfig(ocr_second_opinion=True, occupancy_shift=0.125,
                            unseen_letters_after=0)
"""For one photo read on request, where a few tenths of a second buy a surer letter."""


# -- shared by the stages ----------------------------------------------------------------------

WORK_PX = 48
"""Cells (for occupancy) and tile crops (for the letter reader) are resampled to this square
before their ink is looked at: both models learnt their weights at this size, so changing it
means retraining both (``python -m lab.train``)."""
CORE_MARGIN = WORK_PX // 5
"""A cell's or crop's face and dark levels are measured inside this margin: the grid lines, gaps,
pegs and neighbours at its edge are not the tile (a bright neighbour counted as the face turned
whole wooden tiles into ink)."""
FACE_PERCENTILE = 80
"""A cell's or crop's face is this bright percentile of its core (a letter is darker)."""


# -- vision.read -------------------------------------------------------------------------------

MAYBE_MISSED = 0.01
"""An empty cell the occupancy model gave at least this is looked at again where a letter off its
centre lies (:func:`vision.read.off_square_tiles`); under it a letter-sized blob is nearly always
premium print (``python -m bench offsquare``; docs/tuning.md)."""
CORNER_SLACK = 0.05
"""Corners given by hand may lie this share of the photo's longer side beyond its edge (a corner
dragged onto the frame's border); further out, part of the board is not in the photo at all."""
MARKS_FOR_ANOTHER_SET = 2
"""Tiles with a mark their set lacks from which a reading warns that the photo may be of another
set: one was seen on an English render (``python -m bench tilesets``)."""


# -- vision.quality ----------------------------------------------------------------------------

PART_CELLS = 5
"""The board is also judged for blur in parts of 5 x 5 cells (:func:`vision.quality.judge_blur`;
``python -m bench cover``)."""
MIN_PART_TILES = 5
"""A part with fewer tiles is not judged on its own: too few edges to measure."""
BLANK_SHARPNESS_REACH = 2
"""A blank's sharpness is its lettered neighbours' within this many cells: it has no ink of its
own to show blur (:func:`vision.quality.blurred_tiles`)."""


# -- vision.known ------------------------------------------------------------------------------

KNOWN_TILE_SURE = 0.8
"""A tile read with another letter than the game's, at the known rotation, overrules it only when
read at least this surely: it sits in the gap between the wrong letters' confidences and the
right ones' on the truth photos (``tileref eval``, "in a game"; docs/tuning.md)."""


__all__ = ["BLANK_SHARPNESS_REACH", "CORE_MARGIN", "CORNER_SLACK", "DEFAULT_CONFIG",
           "DISPUTE_CONFIG", "FACE_PERCENTILE", "KNOWN_TILE_SURE", "MARKS_FOR_ANOTHER_SET",
           "MAYBE_MISSED", "MIN_PART_TILES", "PART_CELLS", "WORK_PX", "ReadConfig"]
