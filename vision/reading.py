"""What the camera saw: one value per occupied cell, and the board they make.

A reading is plain data at the border between pixels and rules: the referee, the web UI and the
JSON of ``tileref read --json`` (FORMATS.md) all consume it, and none of them needs OpenCV. The
thresholds every reading stage shares live in :class:`ReadConfig`, so tuning is one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from referee.boardtext import Tile, format_board_text, rotate_tiles
from referee.cells import ARROWS, Cell
from vision.warning import ReadingWarning, maybe_tile_cells


@dataclass(frozen=True)
class ReadConfig:
    """Every threshold of the reading stages, in one place.

    ``cell_px`` is the rectified cell side the models were trained at; changing it means
    retraining. ``low_confidence`` is the confidence under which a letter is flagged ("unsure
    of the letter on K3"). Was 0.6, chosen by no measurement; letters read wrong with no word
    said were then 4 of 13 on the truth photos (``tileref eval``, corrected truth: a Q at 0.601,
    Ö at 0.615 and 0.704, a Q at 0.89) and 4 of 16 with the truth corners. 0.7 flags 2 and 3 of
    those for 16 and 20 more letters read right flagged (48 of 1656, 53 of 1654, blanks aside);
    0.65 as many for 8 and 11. Held out, on 200 renders of ``bench blanks``' kind read as the
    live camera reads, 0.7 took the wrong letters or rotations flagged from 22 to 24 of 31 for
    15 more right ones (100 of 5258), where 0.65 took none. 0.8 flags one more wrong letter on
    the truth photos and on the renders, none with the truth corners, for 34-45 more right ones.
    ``lone_turn_confidence`` is that confidence for a tile turned unlike every other lettered tile
    of a board of :data:`vision.letters.classify.BOARD_PRIOR_MIN_TILES` or more: the board's
    rotations (:meth:`vision.letters.classify.TileClassifier.with_board_rotations`) vouch for a tile
    whose way up others share, and for this one they cannot. On the truth photos read as ``tileref
    eval`` reads them, 3 tiles were so turned: an upside-down Ö read as a Q at 0.704, unflagged, and
    at 0.615, and an I (its letter unknown to the truth) at 0.98. On 200 renders read both ways
    (seeds 6000-6099 with four seats, 2200-2299 with one to four), 43: 42 right at 0.87 to 1.0,
    one wrong at 0.51 and 0.6. 0.8 sits in the gap between 0.704 and 0.87; chosen on those
    photos, so not a held-out figure: it flags the one wrong letter more, and no right one.
    ``ocr_second_opinion`` hands letters read with less than ``ocr_below`` confidence to
    Tesseract, whose letter then wins (``python -m bench ocr``): on the truth photos read as
    ``tileref eval`` reads them, English letters right without it, and asked below 0.5, 0.6, 0.7
    and 0.8, 1447, 1452, 1453, 1453 and 1451 of 1460 (every set's 1669, 1674, 1675, 1673 and 1668
    of 1687); on 200 renders no model learnt from, letters wrong of the 5699 tiles found 33, 26,
    25, 23 and 26. It costs a Tesseract call (0.1-0.2 s) per doubtful tile, so it is on for a
    single dispute photo (``tileref read``, ``tileref eval``) and off for the live camera. 0.5
    stays: against 0.6, English letters over the five training seeds of ``bench seeds`` moved
    +1, -2, -1, +2 and +1 (scratch runs), no more than the seed itself moves them. With the tile
    models trained since on letters drawn smaller (``lab.train``'s ``TRAINING_LETTER_SCALE``):
    1452, 1455, 1455, 1454 and 1455 of 1461, and 28, 22, 24, 26 and 27 wrong of 5700 on renders.

    ``max_tile_blur_px`` refuses a photo whose tiles are smeared wider than this (rectified
    pixels of a 48 px cell, :func:`vision.quality.blur_px`). Measured on 7 truth photos of 5
    sources blurred in the photo (motion at 0 and 60 degrees, and defocus) with held-out models,
    tiles wrong (false, missed or misread) by the figure: under 6 px a median 8-9 %, as sharp;
    6-8 px 12 %; 8-10 px 24 %; 10-12 px 48 %; 12-15 px 59 %; over 15 px all. Clean renders hold
    out longer (16 % at 10-12 px, 48 % at 12-15 px). The 35 truth photos with tiles measure 2.6
    to 7.2 px (the softest two read 18/19 and 86/92 letters), the motion-blurred
    ``IMG_20141025_164048`` 16.8 px: 10 sits where a quarter of the tiles start going wrong.
    ``max_print_blur_px`` is the same figure over the whole grid, used when no tile is found: the
    47 dev photos measure 3.1 to 14.0 px (a dark, soft, empty board), while blurs that hid every
    tile of a truth photo from the occupancy model (0.4 to 0.6 of a cell, motion or
    defocus) measured 24.9 to 32.1 px.

    ``second_look_below`` and ``second_look_shift``: a tile whose likeliest (letter, rotation)
    has less than this probability is read again from its crop moved an eighth of a cell (6 of
    48 px) to the eight positions around it, the nine readings voting
    (:func:`vision.read.second_look`). Most letters misread on real photos were cut by the
    crop's edge, their tile off its square. ``tileref eval`` (leave-one-source-out) took English
    letters from 1427 to 1442 of 1450 right, all letters 1636 to 1650 of 1665, rotations 1658
    to 1662 of 1662; occupancy is untouched. Chosen on those photos (English letters wrong of
    1450 without the Tesseract opinion): shifts of 3, 4, 5, 6, 7, 8, 10 and 12 px left 24, 22,
    21, 13, 15, 15, 17 and 21 (32 with none); with it, as ``tileref eval`` reads, picking the
    shift on the other sources alone gives 6 px for each held-out source, so the figures above
    are also the fair ones. A second look below 0.5, 0.6, 0.7, 0.8 and 0.9 left 19, 18, 15, 13
    and 13 wrong (0.9 also righted the last rotations). Two rings of shifts (3+6, 4+8, 6+12 px)
    or four shifts instead of eight did no better. The cost is eight more crops to read per
    doubtful tile: 15 % of the tiles on photos of sets the models never saw, fewer with models
    that know the set.

    ``recentre_beyond``: a tile whose letter lies further than this (cells, either axis) from its
    cell's centre is read again from a crop cut around the letter, and the surer reading is kept
    (:func:`vision.read.follow_letters`); 1 or more turns it off. On its square a letter lies
    about 0.05 cell off. Measured (English letters wrong of 1457 on the real photos,
    ``tileref eval``, leave-one-source-out models, found corners): 13 without; 14, 13, 13, 11,
    11, 12 beyond 0.1, 0.15, 0.2, 0.25, 0.3, 0.35 (all letters wrong of 1671: 20; 20, 17, 17, 18,
    18, 19). Chosen on those photos: picked on the other sources alone (English errors, ties to
    the larger) each held-out source gets 0.3, which reads as 0.25 does, so the English figure is
    fair; by all letters the picks (0.2 or 0.3) leave 20 wrong, as without. The gain is on tiles
    really pushed aside: rendered boards (``python -m bench offsquare``, 30 boards each, letters
    on the tiles found) with tiles set apart and pushed up to 0.2-0.35 cell each way read 861 ->
    865 of 885 right, crosswords slid 0.2-0.35 cell as a block 749 -> 757 of 767; a tile slid a
    third of a cell on a plain board (tests/test_tilecentre.py) 130 -> 145 of 156 letters.
    Following the letter always (no surer-of-two) lost tiles whose dark side or neighbouring
    square's edge was taken for the letter (apart 861 -> 862 at 0.15).

    ``off_square_sure``: the occupancy model judges a cell by its edges and the rings around it,
    which a tile pushed off its square moves, and it can miss such a tile; one lying half on the
    next square it sees on neither. So tiles are also looked for from their letters
    (:func:`vision.read.off_square_tiles`): a letter 0.35-0.5 cell from the centre of an empty
    cell beside a tile, or 0.1-0.5 from that of an empty cell the model gave 0.01 or more, at
    least 0.7 cell from every tile's own letter (two tiles cannot overlap), that the tile
    classifier reads, not as a blank, at least this surely from a crop cut around it, and where
    the occupancy model, the board moved to put the letter on the cell's centre, finds a tile. A
    tile half on the next square is read (``tile off its square on K3``) when that square holds
    a tile, so it can be on no other; between two empty squares it is named as a doubt. Tiles
    narrower than their squares, packed edge to edge, drift so: the unlabelled francescov1
    IMG_0967 (the alphabet in rows of five) lost two rows' fifth tiles, J with no word said; now
    all 26 are read. On the truth photos (``tileref eval``, leave-one-source-out models) one
    tile is found, jheidel 170755 A13 (an I whose column lies a third of a cell low at the
    board's edge): occupancy 9 -> 8 cells wrong, English letters 1452 of 1460 -> 1453 of 1461;
    with the truth corners nothing changes. Not held out: 0.9 and the 0.7 were set looking at
    these photos. Read as ``tileref read`` reads them (committed models), three stray letters
    beside tiles pass the classifier: that I, and two squares' edges read as Ls at 0.95 and 0.99
    where the moved look sees no tile; with the truth corners a tile's shadowed side, half a
    cell from its letter, was an I at 0.96 that the moved look took for the tile beside it,
    until letters nearer than 0.7 were a tile's own. Held out on renders with their corners
    given (``python -m bench offsquare``; tiles found without / with, of the tiles there, and
    squares taken for tiles): tiles set apart and pushed 0.2-0.35 cell 870 / 895 of 911, false 2
    / 2; crosswords pushed 0.2-0.35 768 / 778 of 793, false 12 / 12; crosswords pushed 0.4-0.5
    711 / 740 of 862, false 129 / 132 (tiles beside a neighbour itself misread); of the tiles
    found, letters right 849 -> 873 and 754 -> 763 on the first two. On 100 four-seat renders
    (seeds 6000-6099) and 100 of random positions (2200-2299), read as ``tileref read`` and as
    the live camera reads: corners given, 1 and 2 four-seat tiles more found, no random one;
    corners found, 7 and 3 random tiles more, no four-seat one; each with its letter, no square
    taken for a tile, and one empty square more named as a doubt (a four-seat render whose board
    was found a cell off at one side). ``bench early`` and ``bench blanks`` read as before.
    Looking only beside tiles and only from 0.35 found 870 and 769 of the first two kinds;
    looking at every empty cell from 0.1, 896 and 779, the search taking three times as long.
    The cost is 6-12 ms a photo (truth photos at 1600 px, medians of three runs in one
    process: 71 -> 77 ms as the live camera reads, 146 -> 158 as ``tileref read``).

    ``occupancy_shift``: the occupancy model is read five times, with the grid where it was found
    and moved this share of a cell left, right, up and down, and the probabilities averaged
    (:func:`vision.read.tile_probability`). The model is touchy about where a cell's edges fall:
    over those five looks one cell of the Polish board went 0.81, 0.06, 0.06, 0.05, 0.15. On for
    a single photo (``DISPUTE_CONFIG``: four more looks cost some 60 ms), off for the live
    camera, where three agreeing frames do that averaging. Measured with the occupancy model
    alone, leave-one-source-out, against the corrected truth (scratch runs of what
    ``tileref eval`` reads): found corners 12 wrong cells of 8550 with one look, 9, 10, 11 and 9
    with shifts of 2, 3, 4 and 6 px of a 48 px cell; truth corners 14, and 11 and 12 at 3 and
    6 px; 29 random renders (committed model, found corners) 55 and 52 at 6 px. 6 px, an
    eighth of a cell, is the second look's shift: not tuned again here.

    ``occupancy_shift_sure``: a tile the grid as found is this sure of stands; the moved looks
    are not asked. They are there for the cells the model is touchy about, and at a board's far
    edge they can undo what the first look plainly saw: on a steep photo of a Polish board
    (unlabelled kristopalka red_boards_014) the first look read the far row's tiles A1, F1 and G1
    at 0.97, a look moved 6 px right read the whole row empty (the rings the tiles are compared
    by, :func:`vision.cells.occupancy.cell_features`, slid onto the frame), and averaged, F1 and G1
    were lost. An empty square is still averaged: a moved look that sees a tile there raises a
    doubt worth naming (170755 A13, a tile at 0.04 in the first look and 0.52 in one moved).
    Measured with the occupancy model alone on the five looks: the truth photos
    (leave-one-source-out, found corners, corrected truth) 9 cells wrong with and without it (12
    with one look) and the same warnings; 58 random renders (committed model) 98 with and
    without (106 with one look). Keeping sure empty squares as well named 5 fewer empty squares
    but one missed tile fewer too; a median of the looks did worse (10 and 103).

    ``small_cell_px``: a board whose median cell is smaller than this in the photo
    (:func:`vision.board.rectify.photo_cell_px`) is read, with a warning that says so, since a tile
    of a dozen pixels has lost the strokes that tell its letter. Measured by ``python -m bench
    resolution`` (the 38 truth photos read as ``tileref eval`` reads them at 1, 0.5, 0.35 and
    0.25 of their size, corrected truth): below 20 px a cell 3.4 % of the letters were wrong (66
    of 1955; 38 of 51 boards found), from 20 px 0.6 % (24 of 3943; all 101 found); by group,
    2.6 % at 16-20 px, 1.5 % at 20-24 px, 0.4 % from 24 px. The truth photos themselves measure
    24 px (a 640 px export) and up, so none of them is warned about. Since each part of the
    board is judged for blur (:func:`vision.read.read_rectified`), two of the photos shrunk to
    0.35 are refused for a part just over the limit (jheidel 170755 and ssetser IMG_2677, read
    before with 6 and 7 of their 97 and 94 letters wrong): below 20 px 3.0 % (53 of 1764; 36 of
    51 read). With the tile models trained on twice as many rendered faces
    (:class:`lab.train.TrainingSettings`): below 20 px 2.6 % (45 of 1764), from 20 px 1.0 %
    (40 of 3943; 1.8 % at 12-16 px, 2.8 % at 16-20, 2.3 % at 20-24, 0.7 % from 24). That is one
    training seed; over seeds 1-5 the letters wrong at all four sizes together went from 77-102
    (median 86) to 63-88 (median 67), seed 1 the best of the earlier models and nearly the worst
    of these. With the training letters then drawn as small as real ones (``lab.train``'s
    ``TRAINING_LETTER_SCALE``): below 20 px 2.3 % (40 of 1764), from 20 px 0.4 % (14 of 3944;
    1.9 % at 12-16 px, 2.3 % at 16-20, 0.9 % at 20-24, 0.2 % from 24). 20 px still parts the
    worse readings from the better.

    ``unseen_letters_after``: a board read with a set that lacks the letters of another set whose
    mark is not above them (Ł, Ą, Ę against English) is read once more with those letters
    allowed when it shows at least this many marks above its letters (and fewer than the two
    that warn anyway), and each tile then read as one counts towards the warning that the photo
    may be of another set (``python -m bench tilesets``: boards of two or more letters English
    lacks, read as English, warned of another set). The second reading costs 9-22 ms on a
    rendered board. After one mark, as the live camera reads, the renders of Polish boards warned
    went from 7 to 20 of 62 (German 5 of 12, unchanged: it has no such letter); always, as a
    photo is read on request, to 37. Neither warned of any of 88 English renders or 25 English
    truth photos, and the truth photos were warned of as before (German 5 of 8, Polish 1 of 1).
    With the tile models trained since on letters drawn smaller (``lab.train``'s
    ``TRAINING_LETTER_SCALE``) 7, 19 and 34 of the 62 Polish renders were warned; the rest as
    before.
    """

    cell_px: int = 48
    margin_cells: float = 0.5
    tile_lift: float = 0.15
    occupancy_threshold: float = 0.5
    unsure_empty_above: float = 0.15  # an empty cell at least this likely a tile is named
    low_confidence: float = 0.7
    lone_turn_confidence: float = 0.8  # ...or this, for a tile turned unlike every other one
    ocr_second_opinion: bool = False
    ocr_below: float = 0.5
    glare_fraction: float = 0.12  # share of a cell's pixels blown out before "glare" is said
    glare_level: int = 250  # grey level counted as blown out
    shadow_ratio: float = 0.45  # a cell this much darker than the board's median is shadowed
    blur_ratio: float = 0.25  # a tile this much less sharp than the photo's tiles is blurred
    max_tile_blur_px: float = 10.0  # tiles' edges smeared wider than this: photo refused
    max_print_blur_px: float = 20.0  # ...and the board's, when no tile is found
    max_covered_squares: float = 15  # more bare squares side by side (cells.cover): refused
    second_look_below: float = 0.9  # tiles read less surely are read again from shifted crops
    second_look_shift: float = 0.125  # ...moved this share of a cell (0: no second look)
    second_look_pad: float = 0.12  # ...and from a crop grown this share of a cell a side (0: not)
    recentre_beyond: float = 0.25  # a letter further off its cell's centre (cells): crop follows
    occupancy_shift: float = 0.0  # occupancy also read with the grid moved this share of a cell
    occupancy_shift_sure: float = 0.95  # ...except a tile the grid as found is this sure of
    small_cell_px: float = 20.0  # a median cell smaller than this (photo pixels): warned about
    face_blanks: bool = True  # a blank faces the tiles beside it (letters.blankfacing), not a guess
    off_square_sure: float = 0.9  # a letter off an empty cell's centre this sure: a tile (>1: off)
    unseen_letters_after: int = 1  # marks above a board shows before an Ł, an Ą is looked for


DEFAULT_CONFIG = ReadConfig()
DISPUTE_CONFIG = ReadConfig(ocr_second_opinion=True, occupancy_shift=0.125,
                            unseen_letters_after=0)
"""For one photo read on request, where a few tenths of a second buy a surer letter."""


@dataclass(frozen=True)
class CellReading:
    """One occupied cell as read: ``letter`` upper case, ``"?"`` for a blank tile.

    ``rotation`` is where the top of the letter points in the South view (0, 90, 180, 270
    degrees clockwise): in the archipelago game it says who owns the tile.
    """

    cell: str
    letter: str
    rotation: int = 0
    confidence: float = 1.0
    blank: bool = False
    warning_details: tuple[ReadingWarning, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        """What :attr:`warning_details` say of this tile, as a person reads it."""
        return tuple(warning.message for warning in self.warning_details)

    def __post_init__(self) -> None:
        Cell.parse(self.cell)
        if self.rotation not in ARROWS:
            raise ValueError(f"rotation must be 0, 90, 180 or 270, not {self.rotation!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be 0..1, not {self.confidence!r}")

    @property
    def tile(self) -> Tile:
        if self.blank or self.letter == "?":
            return Tile("?", True, self.rotation)
        return Tile(self.letter.upper(), False, self.rotation)

    def to_json(self) -> dict:
        return {
            "cell": self.cell,
            "letter": self.letter,
            "rotation": self.rotation,
            "confidence": round(float(self.confidence), 3),
        }


@dataclass(frozen=True)
class BoardReading:
    """Every occupied cell of one photo, where the grid was, and what looked doubtful.

    ``empty`` is how sure the reader is that each cell read as empty is empty ({"A1": 0.99}),
    so that every cell of the board has a confidence, the occupied ones in ``cells``.
    ``warning_details`` are the warnings as data (:class:`vision.warning.ReadingWarning`): the
    whole photo's first, then each tile's, then the squares read as empty.
    """

    cells: tuple[CellReading, ...]
    corners: tuple[tuple[float, float], ...]
    warning_details: tuple[ReadingWarning, ...] = ()
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)
    empty: dict[str, float] = field(default_factory=dict)

    @property
    def warnings(self) -> tuple[str, ...]:
        """The warnings as a person reads them, one sentence each (FORMATS.md's ``warnings``)."""
        return tuple(warning.message for warning in self.warning_details)

    def tiles(self) -> dict[Cell, Tile]:
        return {Cell.parse(reading.cell): reading.tile for reading in self.cells}

    def board_text(self) -> str:
        """The board in FORMATS.md's spaced form, every tile with its rotation arrow."""
        return format_board_text(self.tiles(), spaced=True)

    def to_json(self) -> dict:
        """The object ``tileref read --json`` prints (FORMATS.md)."""
        return {
            "board": self.board_text(),
            "cells": [reading.to_json() for reading in self.cells],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "warnings": list(self.warnings),
            "warning_details": [warning.to_json() for warning in self.warning_details],
            "empty": [{"cell": name, "confidence": round(float(confidence), 3)}
                      for name, confidence in sorted(self.empty.items(), key=_board_order)],
        }

    def to_json_text(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    def warned_empty_cells(self) -> list[str]:
        """Cells read as empty that a warning says may hold a tile (glare or shadow that may hide
        one, a possible blank), in the order named: where a person should look again."""
        read = {reading.cell for reading in self.cells}
        return [name for name in maybe_tile_cells(self.warning_details) if name not in read]

    def turned(self, quarter_turns: int) -> BoardReading:
        """The same reading with the board turned clockwise (cells move, rotations follow).

        Corners are re-ordered so that they still start at the new view's top-left.
        """
        quarter_turns %= 4
        if quarter_turns == 0:
            return self
        moved = rotate_tiles({Cell.parse(r.cell): Tile("A", False, r.rotation) for r in self.cells},
                             quarter_turns)
        cells = []
        for reading in self.cells:
            new = Cell.parse(reading.cell).turned(quarter_turns)
            cells.append(
                CellReading(
                    cell=new.name,
                    letter=reading.letter,
                    rotation=moved[new].rotation or 0,
                    confidence=reading.confidence,
                    blank=reading.blank,
                    warning_details=_turned(reading.warning_details, quarter_turns),
                )
            )
        cells.sort(key=lambda r: (Cell.parse(r.cell).row, Cell.parse(r.cell).col))
        # Turning the view clockwise by k: the new top-left is the old corner k places earlier.
        corners = tuple(self.corners[(i - quarter_turns) % 4] for i in range(4))
        empty = {Cell.parse(name).turned(quarter_turns).name: confidence
                 for name, confidence in self.empty.items()}
        return BoardReading(tuple(cells), corners, _turned(self.warning_details, quarter_turns),
                            dict(self.timings_ms), empty)


def _board_order(item: tuple[str, float]) -> tuple[int, int]:
    """Row by row, left to right: the order ``cells`` are listed in."""
    cell = Cell.parse(item[0])
    return cell.row, cell.col


def _turned(warnings: tuple[ReadingWarning, ...], quarter_turns: int
           ) -> tuple[ReadingWarning, ...]:
    """Warnings naming the cells of the turned view (:meth:`ReadingWarning.turned`)."""
    return tuple(warning.turned(quarter_turns) for warning in warnings)


__all__ = ["DEFAULT_CONFIG", "DISPUTE_CONFIG", "BoardReading", "CellReading", "ReadConfig"]
