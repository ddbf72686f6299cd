"""The cells stage's tuned numbers: one clearly marked block per module of :mod:`vision.cells`.

Each says in a sentence or two why it is what it is and which command measures it; the
measurements themselves are in ``docs/tuning.md`` (section "Cells"). Most are measured with
``python -m bench occupancy`` (occupancy alone, leave-one-source-out) and ``tileref eval``; the
numbers the models' features depend on are also in the training key (:mod:`lab.train`), so a
change retrains the cached evaluation models.
"""

from __future__ import annotations

# -- cellgrid: the cells cut from the rectified board ----------------------------------------------

STATS_PX = 24
"""Colour, ink and edge statistics are taken on the grid shrunk to this many pixels a cell."""

# -- letterevidence: a cell's letter, and whether it is a tile's -----------------------------------

CELL_INK_LEVEL = 0.5
"""A cell's pixels darker than this (0 its face .. 1 its dark level) are ink."""
CELL_FACE_LEVEL = 0.2
"""...and those lighter than this its face, whose colour is the cell's."""
LETTER_SIZES = (0.3, 0.8)
"""A tile letter's height or width as a fraction of the cell; premium-square print is smaller."""
WORD_LETTER_HEIGHT = (0.06, 0.25)
"""The height of one printed letter of DOUBLE WORD SCORE, as a fraction of the cell."""
MAX_TILE_WORD_BLOBS = 3
"""Small blobs beside a tile's letter: its value digits ("10" is two) or a national letter's two
dots and its digit (Ä 6); a premium square has more."""
SURE_LETTER_THICKNESS = 0.2
"""A sure letter's blob is at least this high and wide (of the cell): a blurred line of premium
print ("DOUBLE WORD") is as wide as a letter but flat.
Only an I is thinner; it is not needed."""
SURE_LETTER_EXTENT = 0.7
"""A sure letter's blob is at most this high and wide (of the cell): the whole block of blurred
premium print, merged into one blob, is 0.7-0.8 of a cell; 3 of 1491 sure letters were over."""
SURE_MIN_CONTRAST = 0.3
"""A sure letter is at least 30 grey levels darker than its face (the letter evidence's
``CONTRAST`` is that difference / 100); the texture of a plain square that ink detection blows up is
4-18."""
SURE_CONTRAST = 0.6
"""A sure tile's letter is at least this share as dark against its face as the photo's typical
sure letter (the upper quartile): textured or blurred print is letter-sized but faint."""
LETTER_PAD = 0.5
"""The letter is looked for in the cell grown by this much of a cell on each side (at most the
rectified board's margin): tiles sit off their squares (``python -m bench occupancy``;
docs/tuning.md)."""
LINE_WIDTH = 0.3
"""A blob longer than a letter and thinner than this (of a cell) is a line, not a letter: a tile's
edge or the shadow it casts (``python -m bench occupancy``; docs/tuning.md)."""
MARK_MIN_THICKNESS = 0.06
"""A mark thinner than this either way (of a cell: one pixel of the letter evidence's 24 a cell)
is a line, not a letter, to :func:`vision.cells.facecolour.marks_on_bare_kinds`: the edge of a
square's shade or of a grid line, which the tile classifier took for a turned L at 0.99 on a real
photo (kristopalka red_boards_001 B8); a thin I is two pixels (docs/tuning.md, "Letters read as
empty squares")."""
FRAME_FILL = 0.25
"""Nor is a blob longer than a letter that fills less than this of its box: a tile's outline."""
CENTRAL_OFFSET = 0.5
"""A tile's letter is centred within this much of a cell of its square's centre, a tile pushed
half a cell off included (``python -m bench occupancy``; docs/tuning.md)."""
STAR_SELF_MATCH = 0.6
"""Overlap (intersection over union) of the star with itself a fifth of a turn on."""
LIGHT_TILES_LEAST = 2
"""Letter-shaped light print on this many plain squares at least (and on more than dark print is)
says the board's tiles are lettered light (:func:`vision.cells.letterevidence.lettered_light`):
two, as a first word has two letters; one light mark could be a glint."""

MIN_SURE_TILES = 3
"""Sure letter tiles needed before this board's tile colour is trusted (blanks need it)."""

# -- facecolour: tiles and squares told by the colour of their faces -------------------------------

BLANK_PEER_SPREADS = 4.0
"""A blank's face colour is at least this many times farther from its square's peers than this
photo's empty squares typically are from theirs
(:func:`vision.cells.facecolour.colour_evidence`)."""
BLANK_TILE_SPREADS = 2.0
"""...and nearer the tiles' colour than twice the typical sure tile is
(:func:`vision.cells.facecolour.colour_evidence`)."""
CHROMA_NOISE = 0.5
"""Peer spreads are counted in at least this many a*/b* units: below it a camera's noise and JPEG
decide (docs/tuning.md)."""
BLANK_PEER_RANK = 2
"""The peer a blank is measured against is its second nearest: one odd peer (another blank, a
square in a tile's shadow) is no yardstick for what this kind of square looks like. Among the
squares around a cell (:func:`vision.cells.facecolour.near_distance`) it is the second nearest too:
one may be a blank."""
NEAR_RADIUS = 2
"""The squares around a cell, a blank's second yardstick: the cells at most this many rows and
columns away that show no letter (:func:`vision.cells.facecolour.near_distance`)."""
BLANK_NEAR_SPREADS = 3.5
"""A blank's face chroma is at least this many times farther from the squares around it than this
photo's letterless cells typically are from theirs (:func:`vision.cells.facecolour.colour_evidence`;
``tileref eval``, ``python -m bench occupancy``; docs/tuning.md)."""
DOUBTFUL_PEER_SPREADS = BLANK_PEER_SPREADS / 2
"""Half as far makes a cell doubtful: kept empty, but raised to :data:`DOUBTFUL_TILE` so the
reading names it ("unsure whether O10 holds a tile"; ``tileref eval``; docs/tuning.md)."""
SPARSE_LIGHTNESS_SPREAD = 8.0
"""The least spread of L* among a sparse board's tiles
(:func:`vision.cells.facecolour.colour_evidence`): one or two tiles give no spread of their own, and
a bold letter darkened a rendered tile's face by 34."""
BLOWN_OUT_LIGHTNESS = 250
"""L* (0-255) from which a face is blown out by glare: a square as white as a white tile, whose
colour is no evidence on a board with few tiles (docs/tuning.md)."""
WASHED_LIGHTNESS = 215
"""L* (0-255) from which a face brighter than the tiles' is washed out by glare, not a square
paler than the tiles (:attr:`vision.cells.facecolour.ColourEvidence.washed`; docs/tuning.md)."""
SQUARE_TILE_SPREADS = 5.5
"""A face this many tile spreads from the tiles' colour, and nearer its own kind of square's, is
a square whatever ink it shows (:func:`vision.cells.facecolour.colour_evidence`)..."""
MIXED_SURE_SPREADS = 2.0
"""...the tiles' colour and spread being the words' (the largest group of tiles) where their sure
letter tiles are this many times more alike than all of them: premium labels taken for letters
(:func:`vision.cells.facecolour._squares`). On the truth photos' boards, at their truth corners,
all are 1.0-1.17 times less alike than the words (docs/tuning.md)."""
WASHED_OUT_SPREADS = 2.0
"""...unless it is brighter than the tiles' faces by more than this many of their median absolute
deviations: glare washes a tile's colour out to its square's. Nor is a face this much darker than
the tiles' a blank: shadow moves a*, b* as well (docs/tuning.md)."""
SHEEN_ABOVE_PEERS = 80
"""L* (0-255) by which a face lighter than the tiles' but short of glare's white
(:data:`WASHED_LIGHTNESS`) is lighter still than its own kind of square seen bare elsewhere: a
tile whose letter a sheen has taken, named (``python -m bench sheen``; docs/tuning.md)."""
FAINT_LETTER_CONTRAST = 0.17
"""Print at least this much darker than its face (the letter evidence's ``CONTRAST``) but short of
:data:`SURE_MIN_CONTRAST`, in a letter's shape on a face brighter than the tiles', is a letter a
sheen or glare has greyed: named, never read by this alone (``python -m bench sheen``;
docs/tuning.md)."""
BARE_PRINT_CONTRAST = 0.08
"""A kind of square whose bare cells' print is fainter than this (the letter evidence's
``CONTRAST``) is a plain one, with no print to take for a letter: a letter's shape on one is a
doubt the reading names (``python -m bench sheen``; docs/tuning.md)."""
PLAIN_FAINT_LETTER_CONTRAST = 0.22
"""A faint letter's shape on a plain square whose face is no darker than the tiles' but not
brighter either (a dim photo) is a letter a sheen greyed, named, from this contrast
(``python -m bench sheen``; docs/tuning.md)."""

# -- occupancy: tile or empty square ---------------------------------------------------------------

STAR_TILE = 0.05
"""The probability of a tile on a centre square whose star is in view: a tile would hide it. Under
``unsure_empty_above``, so a star in view raises no doubt (docs/tuning.md)."""
PRINT_TILE = 0.005
"""The probability of a tile on a square whose print repeats on its peers
(:mod:`vision.cells.printed`): a tile would hide it, as a tile on the centre hides the star."""
PRINT_PX = 16  # a cell's side where its print is compared with its peers' (grey)
PRINT_SLACK = 0.25  # cells: how far from a peer's middle its print may be found
PRINT_INK_CONTRAST = 6.0  # grey levels of spread in a cell's middle that count as ink
PRINT_MATCH = 0.85  # correlation of two cells' ink that counts as the same print (0.9 before)
PRINT_PEERS = 2  # inked peers a cell's print must repeat on (on every one of them)
PRINT_PEERS_PER_UNMATCHED = 3  # ...or on all but one in this many of them (of 3 or more), on a
# premium square: likely print (those peers under a tile, a cup or a shadow)
PRINT_LIKELY_TILE = 0.3
"""The probability of a tile on a square likely print (:mod:`vision.cells.printed`): read as a
square, over ``unsure_empty_above``, so named as a doubt (docs/tuning.md)."""
LIKELY_TILE = 0.5
"""The model's probability from which a cell counts as a tile when a board has too few sure
letter tiles to give the tiles' colour by themselves
(:func:`vision.cells.facecolour.colour_evidence`)."""
DOUBTFUL_TILE = 0.3
"""The probability of a doubtful cell: under one half (empty), over ``unsure_empty_above``."""
BODY_CELL_PX = 8  # a cell's side in the small copy the rings are compared at (Lab colour)
BODY_EXTRA_PX = 2  # ...and how far a ring reaches beyond the cell: a quarter cell
BODY_NEIGHBOUR = 3  # distances to the 3rd-nearest sure tile and plain cell (1 or 2 may be a fluke)
PEER_LIGHTNESS_WEIGHT = 0.25
"""Lightness counts a quarter as much as colour between peers: they lie on different sides of the
board, in different light, while a tile's colour is its own (``python -m bench occupancy``;
docs/tuning.md)."""

# -- cover: something lying over the board ---------------------------------------------------------

EDGE_THRESHOLDS = (40, 100)
"""Canny's thresholds: low, so that a faint grid line or a worn square's texture counts (the
occupancy model's own edges, at 60/140, left whole rows of real plain squares edgeless)."""
BARE_EDGES = 0.04
"""A bare cell has edges on fewer of its pixels than this."""
COARSE_CELL_PX = 8
COARSE_BARE_EDGES = 0.15
"""...and on fewer than this share looked at :data:`COARSE_CELL_PX` pixels a cell: a part of the
board out of focus has its edges again at a third of the size, where a hand has none but its
outline (``python -m bench cover``; docs/tuning.md)."""
BARE_PEER_SPREADS = 2.0
"""...and a face this many peer spreads (the median over the empty cells) from its kind's."""
GLARE_LIGHTNESS = 230.0
"""...and no brighter than this L* (0-255): brighter is glare, which the glare warning names."""
NAMED_GROUP = 8
"""Bare cells side by side, at least this many: each is named as covered (more than
``ReadConfig.max_covered_squares``: the photo is not read at all, a hand over the board)."""
FOREIGN_PEER_SPREADS = 20.0
FOREIGN_GROUP = 4
"""Cells not read as tiles whose face lies this many peer spreads from their kind's, side by side
at least :data:`FOREIGN_GROUP` of them and no glare nor shade, are a thing on the board whatever
their edges (a cup's rim and sides have some): named as something over them, and as maybe hiding
a tile where read as empty, the tiles half under its edge among them (docs/tuning.md, "Something
on the board with an outline")."""
MIN_PEER_SPREAD = 0.5
"""Peer distances under this (chroma units) are noise: the spread is never taken as smaller."""
HALO_LIGHTER = 20.0
"""A group lighter than its kind of square by more than this (L*, 0-255), and no more colourful, is
a glare halo short of blowing out, not a hand (``python -m bench cover``; docs/tuning.md)."""
SHADE_DARKER = 10.0
SHADE_HUE = 6.0
SHADE_MIN_CHROMA = 5.0
"""A group darker than its kind of square by more than :data:`SHADE_DARKER` (L*), no more
colourful and within :data:`SHADE_HUE` degrees of its kind's hue, on a kind of at least this
chroma, is a shadow, not a hand (``python -m bench cover``; docs/tuning.md)."""

# -- relight: shade evened out before reading ------------------------------------------------------

RELIGHT_FROM = 1.3
"""A part of the board at least this much darker than its lit level is relit; less is a photo's
own gradient or vignette, left as it is (docs/tuning.md)."""
RELIGHT_MAX = 4.0
"""...by at most this factor: deeper shade is mostly the sensor's noise, and keeps its warning."""
RELIGHT_PEER_RANK = 5
"""The light a place is due: the 6th of the eight its symmetric images get, darkest first (a shade
over up to five of the eight leaves it lit)."""
RELIGHT_REACH = 3.25
"""Cells over which the shade is a median: wider than a row of dark tiles, narrower than an arm's
shadow."""
