"""The letters stage's tuned numbers: one clearly marked block per module of :mod:`vision.letters`.

Each says in a sentence or two why it is what it is and which command measures it; the
measurements themselves are in ``docs/tuning.md`` (section "Letters"). Most are measured with
``tileref eval`` (letters right, leave-one-source-out) and the benchmarks on renders; the numbers
the tile models' features depend on are also in the training key (:mod:`lab.train`).

Two ink levels differ: :data:`GLYPH_INK_LEVEL` (0.45) finds a tile crop's letter for the reader,
:data:`LOCATOR_INK_LEVEL` (0.5) finds where a letter lies in a look grown around its cell. Each
was set with its own ink map and never measured against the other; the models were trained with
the first, so they are kept apart, and changing either changes readings.
"""

from __future__ import annotations

# -- classify: a tile crop's letter and rotation ---------------------------------------------------

CROP_PAD = 0.06
"""Cells are cut this fraction of a cell wider on each side: tiles overhang their squares
(``tileref eval``; docs/tuning.md)."""
NO_LETTER_ODDS = 0.1
"""How much less likely any letter is when no letter-like blob of ink was found."""
FAINT_CONTRAST = 0.25
"""A crop whose darkest ink is less than this share darker than its face holds no printed letter:
lettered tiles lie well above it, a wooden blank's grain below (``tileref eval``;
docs/tuning.md)."""
FAINT_ODDS = 0.01
"""How much less likely any letter is on a crop fainter than :data:`FAINT_CONTRAST`."""
BOARD_PRIOR_MIN_TILES = 8
"""Boards with fewer tiles read each tile on its own: too few to say which rotations are common."""
BOARD_PRIOR_ROUNDS = 4
BOARD_PRIOR_SMOOTHING = 0.5
"""Tiles' worth of every rotation added to the board's counts, so no rotation becomes impossible."""
GLYPH_PX = 24
"""The letter's own box is scaled to this square: size and offset on the tile cancel out."""
GLYPH_INK_LEVEL = 0.45
"""Darker than this (0 face .. 1 ink) is ink when a tile crop's blobs are looked for (the reader's
glyph, and the marks above it). Not :data:`LOCATOR_INK_LEVEL`: the tile models learnt their
features at this level, on the crop's own levels."""

# -- diacritics: the mark above a national letter --------------------------------------------------

MIN_MARK = 0.01
"""Ink a mark must have, as a share of the letter's, to count (2 px of a 200 px letter): bare
letters have none above them, real marks several times this (``tileref eval``; docs/tuning.md)."""
MARK_GAP = 0.15
"""A mark's lower edge lies within this share of the letter's height above the letter's top: real
marks touch or nearly touch, the specks of a tile's own edge lie farther (docs/tuning.md)."""
MARK_WIDTH = 0.4
"""...and is no wider than this share of the letter (real marks: 0.15-0.3)."""

# -- ocr: Tesseract's second opinion ---------------------------------------------------------------

OCR_PX = 96
"""Crops are enlarged to this side: Tesseract wants letters some 30+ pixels tall (96 read 33 of
40 upright real tiles, 48 read 28)."""
OCR_BORDER = 48
"""White margin added around the letter: with less, --psm 10 misses most letters."""

# -- tilecentre: where a tile's letter lies on its square ------------------------------------------

LOOK_PAD = 0.5
"""The crop the letter is looked for in: the cell and half a cell around it (the rectified
board's margin is half a cell, so even an edge cell's crop is whole)."""
LOOK_CELL_PX = 24
"""Pixels a cell in the locator's ink maps: a letter half a cell tall is still 12 px."""
LOCATOR_INK_LEVEL = 0.5
"""Darker than this (0 face .. 1 the cell's darkest) is ink when the letter's place is looked for.
Not :data:`GLYPH_INK_LEVEL`: its levels are taken from the middle of a look grown by half a cell,
and it was set with the locator, never measured at the reader's 0.45."""
LETTER_LONG = (0.28, 0.8)
"""A letter's longer side, in cells (letters stand about half a cell; a bold W is wide)."""
LETTER_SHORT = 0.06
"""A letter's shorter side is at least this (an I); thinner ink is a line or a gap."""
LETTER_REACH = 0.55
"""A letter whose centre lies further than this (cells, each axis) from the cell's centre is a
neighbour's: a tile pushed half a cell off still has its letter within it."""
PUSHED = 0.1
"""A letter this far (cells, on the farther axis) from an empty cell's centre lies off it, its
tile pushed aside: one the occupancy model can miss, since it judges a cell by its edges and
the rings around it, which a pushed tile moves (:func:`vision.letters.tilecentre.stray_letters`).
Nearer, the model saw what is there; a letter on its square lies about 0.05 cell off."""
HALF_OFF = 0.35
"""From this far the letter lies on the edge the cell shares with the next square, its tile half
on each, up to half a cell (further, it is the next square's)."""
TILES_APART = 0.7
"""Two tiles' letters lie at least this far apart (cells, on the farther axis): a tile is
0.85-0.95 of a cell wide and two cannot overlap, so ink nearer a tile's letter is that tile's
(``python -m bench offsquare``; docs/tuning.md)."""
