"""Where the photo itself may hide or smear a tile: glare, shadow, blur and a board too small.

A reading is only as good as the photo, and only the person holding the camera can fix it. So
the photo is judged against itself (its own tiles, its own kinds of square) and the verdict is
either a refusal in one line, for a photo too smeared to read at all, or a warning naming each
cell the trouble lies over, so that no tile it may hide goes missing without a word. Nothing
here knows letters or the rules: only grey levels, colours, gradients and sizes.
"""

from __future__ import annotations

import cv2
import numpy as np

from referee.cells import Cell
from vision.board.rectify import SIZE, RectifiedBoard, photo_cell_px
from vision.bytestats import ranked
from vision.cells.cellgrid import other_peers
from vision.errors import ImageQualityError, VisionError
from vision.letters.classify import BLANK, TileGuess
from vision.tuning import BLANK_SHARPNESS_REACH, MIN_PART_TILES, PART_CELLS, ReadConfig
from vision.warning import ReadingWarning, glare_over, shadow_over, small_board


def light_warnings(board: RectifiedBoard, occupied: np.ndarray, config: ReadConfig,
                   too_dark: np.ndarray | None = None
                   ) -> dict[tuple[int, int], list[ReadingWarning]]:
    """Glare and shadow per cell, judged against this board's own brightness; ``occupied`` is
    the (15, 15) tile mask. ``board`` is relit (:mod:`vision.cells.relight`), so a shadow is
    named only where it stays after that: still darker than its kind, or in ``too_dark`` (shade
    deeper than relighting reaches).

    Not grey: a shadow dims every channel, so a cell is shadowed when even its strongest
    channel is dark (a red triple-word or dark blue triple-letter square is dark in grey, but
    not in its own colour); glare washes every channel out, so a pixel is blown when even its
    weakest channel is at the top (a pale blue square is not).

    A shadow makes a cell darker than its own kind, so a tile is compared with the board's
    tiles and an empty square with its empty symmetric peers (the same kind of square, lit
    elsewhere): compared with the whole board, every dark teal triple-letter square of a
    DeclanFinerty board and every maroon square of a red kristopalka board full of light tiles
    was "in shadow". On the 38 truth photos (committed models) that took the shadow warnings
    from 21 to 4, none of them on a tile before or after; on an unlabelled red kristopalka
    board from 34 to 5.
    """
    px, margin = board.cell_px, board.margin_px

    def per_cell(channel: np.ndarray) -> np.ndarray:
        grid = channel[margin:margin + SIZE * px, margin:margin + SIZE * px]
        return grid.reshape(SIZE, px, SIZE, px).transpose(0, 2, 1, 3).reshape(SIZE, SIZE, -1)

    # OpenCV's per-pixel min and max of the channels: numpy's reduction over the short last
    # axis took 20 ms each on a 720 px board, these take 1 ms.
    blue, green, red = cv2.split(board.image)
    weakest = cv2.min(cv2.min(blue, green), red)
    strongest = per_cell(cv2.max(cv2.max(blue, green), red))
    blown = (per_cell(weakest) >= config.glare_level).mean(axis=2)
    # Medians counted from each cell's histogram of bytes (the mean of the middle two): the same
    # values as sorting, in half the time.
    middle = strongest.shape[2]
    low, high = ranked(strongest.reshape(SIZE * SIZE, -1), ((middle - 1) // 2, middle // 2))
    median = ((low.astype(np.float64) + high) / 2).reshape(-1)
    tiles = occupied.reshape(-1)
    expected = np.full(SIZE * SIZE, float(np.median(median)))
    if tiles.any():
        expected[tiles] = np.median(median[tiles])
    peers, other = other_peers()
    empty_peers = np.where(other & ~tiles[peers], median[peers], np.nan)
    known = ~tiles & ~np.isnan(empty_peers).all(axis=1)
    expected[known] = np.nanmedian(empty_peers[known], axis=1)
    glared = blown >= config.glare_fraction
    shadowed = ~glared & (median < expected * (1 - config.shadow_ratio)).reshape(SIZE, SIZE)
    if too_dark is not None:
        shadowed |= ~glared & too_dark
    warnings: dict[tuple[int, int], list[ReadingWarning]] = {}
    for row, col in zip(*np.nonzero(glared | shadowed), strict=True):
        cell = Cell(int(col), int(row))
        warnings[(cell.col, cell.row)] = [glare_over(cell) if glared[row, col]
                                          else shadow_over(cell)]
    return warnings


# Directions in which the blur of the tiles is judged, every 10 degrees: the direction of a
# motion blur is never more than 5 degrees from one of them, so the sharp edges that run along the
# smear add at most sin(5 deg) of their steepness to the steepest gradient across it.
_BLUR_DIRECTIONS = np.deg2rad(np.arange(0, 180, 10))
_BLUR_UNITS = np.stack([np.cos(_BLUR_DIRECTIONS), np.sin(_BLUR_DIRECTIONS)]).astype(np.float32)


_ALL_CELLS = [(col, row) for row in range(SIZE) for col in range(SIZE)]


def blur_px(board: RectifiedBoard, cells: list[tuple[int, int]], step: int = 1) -> float:
    """How many rectified pixels the edges in ``cells`` are smeared over, along the worst direction.

    An edge of contrast C spread over w pixels has a steepest gradient of C / w, so the cells'
    contrast (1st to 99th percentile of their grey) over their steepest gradients (the 99.5th
    percentile of the gradient along one direction) is the width of their sharpest edges in that
    direction; the largest such width over the directions is the blur. Motion blur smears one
    direction only, so a photo-wide figure averaged over directions hides it. Judged in the
    rectified board, so the figure is a share of the 48 px cell whatever the size of the board in
    the photo (small sharp boards measure as sharp). ``step`` > 1 samples every step-th row and
    column of pixels only (the gradients are still taken at full resolution). 0.0 for no cells.
    """
    return _Smear(board).blur_px(cells, step)


class _Smear:
    """A board's grey levels and gradients, taken once, to judge the blur of several groups of
    its cells (:func:`blur_px`)."""

    def __init__(self, board: RectifiedBoard) -> None:
        px, margin = board.cell_px, board.margin_px
        grey = cv2.cvtColor(board.image, cv2.COLOR_BGR2GRAY)
        # Scharr's kernels weigh a unit step 32: divided out, a gradient is grey levels per pixel.
        images = (grey, cv2.Scharr(grey, cv2.CV_32F, 1, 0) / 32,
                  cv2.Scharr(grey, cv2.CV_32F, 0, 1) / 32)
        # Each as a (row, y, col, x) view of the grid, to gather cells' pixels from.
        self.grids = [image[margin:margin + SIZE * px, margin:margin + SIZE * px].reshape(
            SIZE, px, SIZE, px) for image in images]
        self.px = px

    def blur_px(self, cells: list[tuple[int, int]], step: int = 1) -> float:
        if not cells:
            return 0.0
        # A cell's inside only: a 1/12-cell inset keeps the grid lines and the neighbours out.
        # Only the pixels' percentiles are taken, so the order they are gathered in does not
        # matter.
        inset = self.px // 12
        unique = list(dict.fromkeys(cells))
        rows = np.array([row for _, row in unique])
        cols = np.array([col for col, _ in unique])
        inside = slice(inset, self.px - inset, step)
        values, across_x, across_y = (grid[rows, inside, cols, inside].ravel()
                                      for grid in self.grids)
        steepest = _least_steep(across_x, across_y)
        # Order statistics of bytes from their histogram: the same values as a partition, a
        # fraction of the time.
        dark, bright = ranked(values[None], (len(values) // 100, len(values) * 99 // 100))
        return (int(bright[0]) - int(dark[0])) / max(steepest, 1e-3)


def _least_steep(across_x: np.ndarray, across_y: np.ndarray) -> float:
    """The smallest over the directions of the 99.5th percentile of the gradient along it.

    One direction at a time (its row fits in the cache: the 18-row outer product took 7 ms on a
    board of 100 tiles), and a direction is only partitioned when it can beat the best so far:
    its percentile is below the best only if more than ``steep`` of its values are.
    """
    steep = int(len(across_x) * 0.995)
    along = np.empty_like(across_x)
    other = np.empty_like(across_x)
    best = np.inf
    for unit_x, unit_y in _BLUR_UNITS.T:
        np.multiply(unit_x, across_x, out=along)
        np.multiply(unit_y, across_y, out=other)
        along += other
        np.abs(along, out=along)
        if best != np.inf and np.count_nonzero(along < best) <= steep:
            continue  # this direction's percentile is at least the best one's
        best = min(best, float(np.partition(along, steep)[steep]))
    return best


_PARTS = [[(col, row) for row in range(top, top + PART_CELLS)
           for col in range(left, left + PART_CELLS)]
          for top in range(0, SIZE, PART_CELLS) for left in range(0, SIZE, PART_CELLS)]


def judge_blur(board: RectifiedBoard, occupied: list[tuple[int, int]], config: ReadConfig,
               cell_px: float) -> list[tuple[int, int]]:
    """Raise :class:`ImageQualityError` rather than read tiles too smeared to read; return the
    empty cells of the parts too soft to tell whether tiles are there.

    The tiles are judged, not the board (letters are what must be read; an empty board's print
    may be soft without harm). When no tile was found the board's print is judged instead, with
    its own, higher limit: a smear can hide every tile, and an empty reading is a guess too.

    Then the tiles of each part of the board (:data:`PART_CELLS`) on their own, by the same
    limit, from every other row and column of their pixels (a third of the time): a lens focused
    on one half (a steep photo's near rows) leaves the other soft, and the sharp half's edges,
    which set the figure above, hide it. A soft part with too few tiles seen to judge has its
    print judged by the print limit instead, and its empty cells are returned, to be named as
    perhaps hiding a tile rather than refused: a hand or a glare halo is as smooth as a soft
    print.

    ``cell_px`` is the board's cell in the photo (:func:`vision.board.rectify.photo_cell_px`): a
    board too small in the photo (``config.small_cell_px``) is smeared by being enlarged to the 48
    px cell as well as by the lens or the hand, so its refusal asks for a closer or larger photo
    too. Measured by ``python -m bench cover`` (a half of the grid blurred) and ``python -m bench
    resolution``; the figures are in docs/tuning.md ("Blur over one part of the board").
    """
    small = cell_px < config.small_cell_px
    size = (f"; the board's cells are {cell_px:.0f} px across in the photo, "
            f"{config.small_cell_px:.0f} or more read best" if small else "")
    closer = f"{_CLOSER}, and hold it still" if small else None
    smear = _Smear(board)
    if occupied:
        blur, limit = smear.blur_px(occupied), config.max_tile_blur_px
        what = "read the tiles"
    else:
        # A quarter of the grid's pixels: 20 ms instead of 70 on the live camera's empty board.
        blur, limit = smear.blur_px(_ALL_CELLS, step=2), config.max_print_blur_px
        what = "tell whether tiles are on the board"
    if blur > limit:
        raise ImageQualityError(f"photo too blurry to {what} "
                                f"{_smeared(blur, limit, board, size)}: "
                                f"{closer or 'hold the camera still'}", reason="too blurry")
    tiles = set(occupied)
    soft: list[tuple[int, int]] = []
    for part in _PARTS:
        in_part = [cell for cell in part if cell in tiles]
        if len(in_part) < MIN_PART_TILES:
            if smear.blur_px(part, step=2) > config.max_print_blur_px:
                soft.extend(cell for cell in part if cell not in tiles)
            continue
        blur, limit = smear.blur_px(in_part, step=2), config.max_tile_blur_px
        if blur > limit:
            middle = Cell(*part[len(part) // 2])
            raise ImageQualityError(
                f"photo too blurry around {middle.name} to read the tiles "
                f"{_smeared(blur, limit, board, size)}: "
                f"{closer or 'focus on the whole board and hold the camera still'}",
                cells=(middle,), reason="too blurry")
    return soft


def _smeared(blur: float, limit: float, board: RectifiedBoard, size: str) -> str:
    """How smeared the edges are, against the limit, as a blur refusal says it, and ``size``:
    how small the board's cells are in the photo, when that is why (else empty)."""
    return (f"(edges smeared over {blur:.0f} of a cell's {board.cell_px} px, {limit:.0f} at "
            f"most{size})")


_CLOSER = "move the camera closer or use a larger photo"
"""What a person does about a board too small in the photo (a refusal's and a warning's end)."""


def sharpness(crops: list[np.ndarray]) -> list[float]:
    """Variance of the Laplacian of each crop (all crops share a size: one filter call)."""
    if not crops:
        return []
    side = crops[0].shape[0]
    column = cv2.cvtColor(np.concatenate(crops, axis=0), cv2.COLOR_BGR2GRAY)
    laplacian = cv2.Laplacian(column, cv2.CV_32F).reshape(len(crops), side, -1)
    # Each crop's own rows, minus the row it shares a border with its neighbour in the column.
    return [float(v) for v in laplacian[:, 1:-1].reshape(len(crops), -1).var(axis=1)]


def blurred_tiles(cells: list[tuple[int, int]], crops: list[np.ndarray],
                  guesses: list[TileGuess], ratio: float) -> list[bool]:
    """Whether each tile is much softer (``ratio``) than the photo's typical lettered tile.

    A letter's ink is what shows blur, so a tile read as a blank, which has none, is judged by
    the lettered tiles around it (:data:`BLANK_SHARPNESS_REACH`; the median of them): blur is the
    lens's or the hand's and spreads over a part of the photo, and a letter blurred away reads as
    a blank among blurred neighbours. Judged by its own face, every sharp blank was "blurred":
    on the 38 truth photos, read as ``tileref eval`` reads them, 5 of the 7 blur warnings named a
    blank, the other two the thin I of the one soft photo. Too few lettered tiles (under 5) to
    say what typical is, and nothing is called blurred.
    """
    crisp = np.array(sharpness(crops))
    lettered = np.array([guess.letter != BLANK for guess in guesses], bool)
    if lettered.sum() < 5:
        return [False] * len(cells)
    typical = float(np.median(crisp[lettered]))
    where = np.array(cells).reshape(-1, 2)
    judged = crisp.copy()
    for i in np.flatnonzero(~lettered):
        near = lettered & (np.abs(where - where[i]).max(axis=1) <= BLANK_SHARPNESS_REACH)
        judged[i] = np.median(crisp[near]) if near.any() else typical
    return [bool(value < typical * ratio) for value in judged]


def photo_cell_px_or_inf(corners: np.ndarray) -> float:
    """The board's median cell in the photo (:func:`vision.board.rectify.photo_cell_px`); infinite
    for a board rectified without a photo behind it (corners all zero, as tests make them)."""
    try:
        return photo_cell_px(corners)
    except VisionError:
        return float("inf")


def small_board_warnings(corners: np.ndarray, config: ReadConfig) -> list[ReadingWarning]:
    """The warning for a board too small in the photo to read well (``config.small_cell_px``):
    a thumbnail or a chat app's copy had 2.3 % of its letters read wrong, and only the person
    who took the photo can fix that."""
    cell_px = photo_cell_px(corners)
    if cell_px >= config.small_cell_px:
        return []
    return [small_board(cell_px, config.small_cell_px, _CLOSER)]


__all__ = ["blur_px", "blurred_tiles", "judge_blur", "light_warnings", "photo_cell_px_or_inf",
           "sharpness", "small_board_warnings"]
