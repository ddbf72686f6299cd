"""Whether a grid's 225 squares show a Scrabble board's premium layout, and where it fits best.

Why: the finder looks for 16 + 16 equally spaced lines, and a plank table, graph paper or a
chessboard has those too; on wood, a grid a few cells off or of the wrong size could settle on
the seams and grain and be taken for the board (issue 33). What no table has is the premium
squares: a few dozen squares printed alike, in the one layout every edition of the game shares,
placed symmetrically about the middle. So each premium kind's squares should look like each
other and unlike the rest of the board.

The measure, per kind of premium square (double and triple letter, double and triple word): the
median colour of its squares, then how well the distance to that colour tells its squares from
every other square (the area under the ROC curve: 1 when every square of the kind is nearer its
median than any other square, 0.5 by chance). Tiles over some premium squares only lower it: the
kind's median is that of its uncovered squares while fewer than half are covered, and a tile
elsewhere is far from a premium colour. The score is the mean over the three kinds told apart
best (the fourth may be mostly under tiles), the best over the known layouts
(``referee/data/layouts``: another board's layout is another data file).

It is measured for the grid as found and for the grid moved by whole cells each way, so it also
says where the layout fits best (a grid a few cells off on a table's seams), and how far above
chance the fit at the grid stands among those moves (a board's layout fits in one place only).
The grid's exact period and phase stay the lines' business (:mod:`vision.board.refine`): this
is about which 15 x 15 window of the lattice is the board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from referee.cells import Cell
from referee.layouts import layout_names, load_layout
from vision.board.grid import GRID_CORNERS
from vision.board.rectify import SIZE
from vision.board.tuning import CONFIG, LocateConfig

_KINDS = ("DL", "TL", "DW", "TW")


@cache
def premium_kinds() -> tuple[np.ndarray, ...]:
    """Per known layout, the (15, 15) kind of each square: 0 plain, 1-4 :data:`_KINDS`, -1 the
    centre (a star on most boards, printed like no other square)."""
    kinds = []
    for name in layout_names():
        layout = load_layout(name)
        grid = np.zeros((SIZE, SIZE), np.int8)
        for row in range(SIZE):
            for col in range(SIZE):
                premium = layout.premiums.get(Cell(col, row))
                grid[row, col] = _KINDS.index(premium.value) + 1 if premium else 0
        grid[SIZE // 2, SIZE // 2] = -1
        grid.flags.writeable = False
        kinds.append(grid)
    return tuple(kinds)


@dataclass(frozen=True)
class LayoutFit:
    """How well the premium layout fits a grid, and the grid moved by whole cells."""

    scores: np.ndarray
    """(2r + 1, 2r + 1) score of the grid moved (dx, dy) whole cells, at [r + dy, r + dx]."""

    @property
    def reach(self) -> int:
        return self.scores.shape[0] // 2

    @property
    def score(self) -> float:
        """At the grid as given: 0.5 is chance, 1 every premium square told apart."""
        return float(self.scores[self.reach, self.reach])

    @property
    def best_shift(self) -> tuple[int, int]:
        """The whole-cell move (right, down) where the layout fits best."""
        dy, dx = np.unravel_index(int(np.argmax(self.scores)), self.scores.shape)
        return int(dx) - self.reach, int(dy) - self.reach

    @property
    def best(self) -> float:
        return float(self.scores.max())

    def at(self, shift: tuple[int, int]) -> float:
        """The score of the grid moved ``shift`` whole cells (right, down)."""
        return float(self.scores[self.reach + shift[1], self.reach + shift[0]])

    def next_door(self) -> list[tuple[int, int]]:
        """The eight moves by one cell (right, down), best first."""
        moves = [(dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy]
        return sorted(moves, key=self.at, reverse=True)

    def standing(self, shift: tuple[int, int] = (0, 0)) -> float:
        """How far the score at ``shift`` stands above the other moves: in their spread (a
        z-score). A board's layout fits in one place; a table's texture nowhere in particular."""
        at = (self.reach + shift[1], self.reach + shift[0])
        others = np.delete(self.scores.ravel(), at[0] * self.scores.shape[1] + at[1])
        return float((self.scores[at] - others.mean()) / max(float(others.std()), 1e-6))


def cell_colours(image: np.ndarray, quad: np.ndarray, reach: int, cell_px: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    """The mean Lab colour of the middle of each cell of the grid grown ``reach`` cells on every
    side ((n, n, 3) for n = 15 + 2 reach), and which of those cells lie wholly on the photo."""
    n = SIZE + 2 * reach
    rect, _ = _warped(image, quad, reach, cell_px)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB)
    inset = cell_px // 4
    means = lab.reshape(n, cell_px, n, cell_px, 3)[:, inset:cell_px - inset, :,
                                                   inset:cell_px - inset].mean(
        axis=(1, 3), dtype=np.float32)
    # A cell is on the photo when its four corners are.
    corners = (np.stack(np.meshgrid(np.arange(n + 1), np.arange(n + 1)), axis=-1).reshape(-1, 2)
               - reach).astype(np.float64)
    photo = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), _grid_to_photo(quad)).reshape(
        n + 1, n + 1, 2)
    height, width = image.shape[:2]
    inside = ((photo[..., 0] >= 0) & (photo[..., 0] <= width - 1) & (photo[..., 1] >= 0)
              & (photo[..., 1] <= height - 1))
    on_photo = inside[:-1, :-1] & inside[1:, :-1] & inside[:-1, 1:] & inside[1:, 1:]
    return means, on_photo


def layout_fit(image: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG,
               reach: int | None = None) -> LayoutFit:
    """How well the premium layout fits the grid ``quad`` (TL TR BR BL of the grid, any South)
    of ``image`` (BGR or grey), and the grid moved by up to ``reach`` whole cells each way
    (``config.layout_reach`` unless given; 0: the grid alone, to rank hypotheses cheaply).

    The layout is symmetric under the square's eight symmetries, so which corner is South does
    not matter. Cells off the photo are left out (a board cut off by the photo's edge is judged on
    what shows).
    """
    reach = config.layout_reach if reach is None else reach
    means, on_photo = cell_colours(image, np.asarray(quad, np.float64), reach,
                                   config.layout_cell_px)
    span = 2 * reach + 1
    # Every move's 15 x 15 window at once: (moves, 225, 3) colours and (moves, 225) validity.
    windows = np.lib.stride_tricks.sliding_window_view(means, (SIZE, SIZE), axis=(0, 1))
    colours = windows.transpose(0, 1, 3, 4, 2).reshape(span * span, SIZE * SIZE, 3)
    valid = np.lib.stride_tricks.sliding_window_view(on_photo, (SIZE, SIZE)).reshape(
        span * span, SIZE * SIZE)
    best = np.full(span * span, -np.inf)
    for kinds in premium_kinds():
        best = np.maximum(best, _separation(colours, valid, kinds.reshape(-1)))
    # A window mostly off the photo is not judged: a few squares can fit any layout by chance.
    best = np.where(valid.mean(axis=1) >= config.layout_min_on_photo, best, 0.5)
    return LayoutFit(best.reshape(span, span))


def spans_fit(image: np.ndarray, quad: np.ndarray, spans: list[tuple[float, float, float, float]],
              config: LocateConfig = CONFIG) -> np.ndarray:
    """The layout's score (as :func:`layout_fit`'s) for each grid spanning ``(x0, x1, y0, y1)``
    of ``quad``'s own units (``(0, 15, 0, 15)``: ``quad`` itself), from one warp of the photo.

    Why: trying a grid a cell longer or shorter at each end of each axis is 16 grids, and a warp
    each cost more than the rest of the finder's layout work; here the colours of every grid's
    squares are sampled from one warp, blurred over the middle of a square (the mean that
    :func:`cell_colours` takes), at each square's centre.
    """
    reach = 2
    cell = config.layout_cell_px
    side = (SIZE + 2 * reach) * cell
    rect, to_rect = _warped(image, quad, reach, cell)
    middle = max(1, cell - 2 * (cell // 4))
    lab = cv2.blur(cv2.cvtColor(rect, cv2.COLOR_BGR2LAB).astype(np.float32), (middle, middle))
    inside = cv2.warpPerspective(np.ones(image.shape[:2], np.float32), to_rect, (side, side),
                                 flags=cv2.INTER_NEAREST)
    steps = (np.arange(SIZE) + 0.5) / SIZE
    colours, valid = [], []
    for x0, x1, y0, y1 in spans:
        xs = ((x0 + steps * (x1 - x0) + reach) * cell).astype(np.float32)
        ys = ((y0 + steps * (y1 - y0) + reach) * cell).astype(np.float32)
        map_x, map_y = np.meshgrid(xs, ys)
        colours.append(cv2.remap(lab, map_x, map_y, cv2.INTER_LINEAR).reshape(-1, 3))
        valid.append(cv2.remap(inside, map_x, map_y, cv2.INTER_NEAREST).reshape(-1) > 0.5)
    colour_array, valid_array = np.array(colours), np.array(valid)
    best = np.full(len(spans), -np.inf)
    for kinds in premium_kinds():
        best = np.maximum(best, _separation(colour_array, valid_array, kinds.reshape(-1)))
    return np.where(valid_array.mean(axis=1) >= config.layout_min_on_photo, best, 0.5)


def _separation(colours: np.ndarray, valid: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """Per window, the mean over the premium kinds of the ROC area with which the distance to
    the kind's median colour tells its squares from the others (the module's measure); 0.5 for
    a kind with too few of its squares on the photo to say."""
    usable = valid & (kinds >= 0)[None, :]
    areas = []
    for kind in range(1, len(_KINDS) + 1):
        members = np.flatnonzero(kinds == kind)
        others = np.flatnonzero((kinds != kind) & (kinds >= 0))
        median = _valid_median(colours[:, members], valid[:, members])
        # Squared distances: the same order, and ranks are all that count.
        difference = colours - median[:, None, :]
        distance = np.einsum("wck,wck->wc", difference, difference)
        distance = np.where(usable, distance, np.nan)  # comparisons with NaN are all False
        near, far = distance[:, members], distance[:, others]
        # Mann-Whitney: the share of (member, other) pairs where the member is nearer.
        nearer = (near[:, :, None] < far[:, None, :]).sum(axis=(1, 2))
        n_in = usable[:, members].sum(axis=1)
        n_out = usable[:, others].sum(axis=1)
        areas.append(np.where((n_in >= 3) & (n_out >= 3),
                              nearer / np.maximum(n_in * n_out, 1), 0.5))
    # The kind told apart worst is left out: tiles cover a kind's squares unevenly (the double
    # words on the diagonals through the centre star go first), and a kind more than half
    # covered has a tile's colour for its median.
    return np.sort(np.array(areas), axis=0)[1:].mean(axis=0)


def _valid_median(colours: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Per window (row), the per-channel median colour of the valid cells ((windows, cells, 3),
    (windows, cells)); the lower median, which is all a ranking needs, and 0 where none is
    valid (a sort, not ``np.nanmedian``, which took most of the time)."""
    ordered = np.sort(np.where(valid[..., None], colours, np.inf), axis=1)
    count = valid.sum(axis=1)
    middle = np.maximum(count - 1, 0) // 2
    median = np.take_along_axis(ordered, middle[:, None, None].repeat(3, axis=2), axis=1)[:, 0]
    return np.where(count[:, None] > 0, median, 0.0)


def _warped(image: np.ndarray, quad: np.ndarray, reach: int, cell_px: int
            ) -> tuple[np.ndarray, np.ndarray]:
    """The grid ``quad`` grown ``reach`` cells on every side, warped square at ``cell_px`` a cell
    (BGR, a grey photo made so), and the homography from the photo to it."""
    to_rect = np.array([[cell_px, 0, reach * cell_px], [0, cell_px, reach * cell_px], [0, 0, 1]],
                       np.float64) @ np.linalg.inv(_grid_to_photo(quad))
    side = (SIZE + 2 * reach) * cell_px
    rect = cv2.warpPerspective(image, to_rect, (side, side), flags=cv2.INTER_LINEAR)
    if rect.ndim == 2:
        rect = cv2.cvtColor(rect, cv2.COLOR_GRAY2BGR)
    return rect, to_rect


def _grid_to_photo(quad: np.ndarray) -> np.ndarray:
    """The homography from grid units to the pixels of ``quad`` (TL TR BR BL), unchecked: the
    finder's own corners, on a copy small enough that a cell may be under a pixel."""
    return cv2.getPerspectiveTransform(GRID_CORNERS.astype(np.float32),
                                       np.asarray(quad, np.float32).reshape(4, 2)).astype(
        np.float64)


def shifted(quad: np.ndarray, shift: tuple[int, int]) -> np.ndarray:
    """The grid ``quad`` moved ``shift`` whole cells (right, down) along its own lines."""
    moved = GRID_CORNERS + np.asarray(shift, np.float64)
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2), _grid_to_photo(quad)).reshape(4, 2)


def resized(quad: np.ndarray, axis: int, edges: tuple[int, int]) -> np.ndarray:
    """The grid ``quad`` with the first and last of its lines along ``axis`` (0: the vertical
    lines, across x; 1: the horizontal ones) moved ``edges`` whole cells, in its own units."""
    moved = GRID_CORNERS.copy()
    low, high = edges
    moved[:, axis] = np.where(moved[:, axis] == 0, low, SIZE + high)
    return cv2.perspectiveTransform(moved.reshape(-1, 1, 2), _grid_to_photo(quad)).reshape(4, 2)


__all__ = ["LayoutFit", "cell_colours", "layout_fit", "premium_kinds", "resized", "shifted",
           "spans_fit"]
