"""Refinement against the grid lines: from rough corners to the corners the lines themselves say.

Step 4 of :mod:`vision.board.locate`. The photo is rectified with the current corners, the
centre of each of the 16 + 16 lines is measured in every row or column band, and the homography
is fitted to those samples (robustly re-weighted least squares) or to the intersections of lines
fitted through them, round after round; a grid is also slid by whole cells to where the squares
look most like squares (:func:`fix_grid_shift`), or doubled when every other line is missing
(:func:`doubled_grid`), and the chosen one run to convergence (:func:`converge`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.grid import GRID_CORNERS, LINES, apply_homography, is_grid_quad, quad_cell_px
from vision.board.rectify import SIZE, grid_homography
from vision.board.tuning import CONFIG, LocateConfig

PerAxis = tuple[np.ndarray, np.ndarray]  # one array for the vertical lines, one for horizontal
# Line profiles measured on one photo (photo -> rect map, both axes' raw and smoothed), by the
# corners they were measured at (as bytes): see _measure.
Measured = dict[bytes, tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]]


def _cellness(gray: np.ndarray, quad: np.ndarray, extra: int, cell: int) -> np.ndarray:
    """How much each cell of an extended (15 + 2*extra)^2 grid looks like a square of the board.

    A board square is bounded by edges on its four sides (grid lines, premium-square borders,
    tile edges) and is calmer in its middle; the frame, the table and the carpet are not. The
    result (rows x cols) is a log ratio of edge strength on the cell sides to that at mid-cell.
    """
    n = SIZE + 2 * extra
    size = n * cell
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array(
        [[cell, 0, extra * cell], [0, cell, extra * cell], [0, 0, 1]], np.float64
    )
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    rect = cv2.warpPerspective(gray, photo_to_rect, (size, size), flags=cv2.INTER_AREA)
    rect = cv2.GaussianBlur(rect, (3, 3), 0)
    # Gradients in 16-bit integers: of an 8-bit image they are exact there, as in float, at a
    # fraction of the cost; every sum below stays an exact integer in float32. The gradient
    # across the columns is taken on the transposed image (the same numbers: Sobel's kernel
    # and border are symmetric), so that both are read along contiguous rows.
    gy = cv2.Sobel(rect, cv2.CV_16S, 0, 1, ksize=3)
    gx_t = cv2.Sobel(cv2.transpose(rect), cv2.CV_16S, 0, 1, ksize=3)
    half = (max(3, cell // 6) | 1) // 2
    reach = np.arange(-half, half + 1)
    inset = max(1, cell // 5)

    def along_rows(grad: np.ndarray, ys: np.ndarray) -> np.ndarray:
        # |grad| along row y, spread over the rows ``reach`` away (a dilation, so a line a pixel
        # off still counts, worked out only at the rows used), then its mean over each cell's
        # inner x range -> (len(ys), n)
        near = np.clip(np.clip(ys, 0, size - 1)[:, None] + reach, 0, size - 1)
        rows = np.abs(grad[near]).max(axis=1).astype(np.float32)
        inner = rows.reshape(len(ys), n, cell)[:, :, inset:cell - inset]
        return inner.mean(axis=2)

    lines = np.arange(n + 1) * cell
    mids = np.arange(n) * cell + cell // 2
    h_edge = along_rows(gy, lines)  # (n+1, n): horizontal line j, column c
    h_mid = along_rows(gy, mids)  # (n, n)
    v_edge = along_rows(gx_t, lines)  # (n+1, n): vertical line i, row r
    v_mid = along_rows(gx_t, mids)
    middle = (h_mid + v_mid.T) / 2
    sides = (h_edge[:-1], h_edge[1:], v_edge[:-1].T, v_edge[1:].T)
    eps = max(2.0, 0.1 * float(np.median(h_edge)))
    # Every side must show an edge: the mean of logs punishes a cell with one strong side (the
    # frame cell next to the outermost grid line) far more than a ratio of sums would.
    score = sum(np.log((side + eps) / (middle + eps)) for side in sides) / 4
    # Cells off the photo cannot be board squares (the photo edge itself looks like a line).
    centres = (np.stack(np.meshgrid(np.arange(n), np.arange(n)), axis=-1).reshape(-1, 2)
               - extra + 0.5)
    photo_pts, w = apply_homography(grid_to_photo, centres.astype(np.float64))
    height, width = gray.shape[:2]
    inside = (
        (w > 0) & (photo_pts[:, 0] >= 0) & (photo_pts[:, 1] >= 0)
        & (photo_pts[:, 0] < width) & (photo_pts[:, 1] < height)
    ).reshape(n, n)
    score[~inside] = -1.0
    return score


@dataclass(frozen=True)
class ShiftResult:
    corners: np.ndarray
    shift: tuple[int, int]
    gain: float  # mean cellness gained per cell row/column moved in
    cellness: float  # mean cellness of the 15x15 window finally chosen
    ring: float  # mean cellness of the cells just around it (inside the photo), -1 if none
    ring_cut: bool  # some of those cells fall off the photo


def fix_grid_shift(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG, fixed: bool = False
) -> ShiftResult:
    """Slide the 15x15 window by whole cells to where the squares look most like squares.

    The comb can lock onto the frame edge one or more cells outside the grid; the four edges of
    every board square are what the frame lacks. A move must gain clearly (``min_shift_gain``)
    over staying put, since sticky notes and tiles beside the board also have edges. ``fixed``:
    measure the window where it is, without moving it (a grid the premium layout placed).
    """
    extra = config.shift_search_cells
    cell = config.shift_cell_px
    score = _cellness(gray, quad, extra, cell)
    integral = cv2.integral(score.astype(np.float64))

    def window(dx: int, dy: int) -> float:
        y0, x0 = extra + dy, extra + dx
        return float(
            integral[y0 + SIZE, x0 + SIZE] - integral[y0, x0 + SIZE]
            - integral[y0 + SIZE, x0] + integral[y0, x0]
        )

    # Every window's total at once (the same sums as ``window``), then the first clearly best
    # in row order, as one window at a time would find it.
    span = 2 * extra + 1
    totals = (integral[SIZE:SIZE + span, SIZE:SIZE + span] - integral[:span, SIZE:SIZE + span]
              - integral[SIZE:SIZE + span, :span] + integral[:span, :span]).tolist()
    stay = window(0, 0)
    best, best_shift = stay, (0, 0)
    for dy in range(-extra, extra + 1):
        for dx, total in zip(range(-extra, extra + 1), totals[dy + extra], strict=True):
            if total > best + 1e-9:
                best, best_shift = total, (dx, dy)
    dx, dy = best_shift
    gain = (best - stay) / (SIZE * max(1, abs(dx) + abs(dy)))
    if (dx, dy) == (0, 0) or gain < config.min_shift_gain or fixed:
        dx, dy = 0, 0
    # The ring of cells around the chosen window: frame and table on a whole board, more
    # squares when the window is a piece of a bigger grid (or the board runs off the photo).
    padded = np.pad(score, 1, constant_values=-1.0)
    y0, x0 = extra + dy + 1, extra + dx + 1
    ring_cells = np.concatenate([
        padded[y0 - 1, x0 - 1:x0 + SIZE + 1], padded[y0 + SIZE, x0 - 1:x0 + SIZE + 1],
        padded[y0:y0 + SIZE, x0 - 1], padded[y0:y0 + SIZE, x0 + SIZE],
    ])
    inside = ring_cells > -1.0
    ring = float(ring_cells[inside].mean()) if inside.any() else -1.0
    ring_cut = bool((~inside).any())
    chosen = window(dx, dy) / SIZE**2
    if (dx, dy) == (0, 0):
        return ShiftResult(quad, (0, 0), gain, chosen, ring, ring_cut)
    h = grid_homography(quad)
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float) + [dx, dy]
    moved, _ = apply_homography(h, grid)
    return ShiftResult(moved, (dx, dy), gain, chosen, ring, ring_cut)


def _rectify_gray(gray: np.ndarray, quad: np.ndarray, cell: int, margin: int) -> tuple:
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array([[cell, 0, margin], [0, cell, margin], [0, 0, 1]], np.float64)
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    size = SIZE * cell + 2 * margin
    rect = cv2.warpPerspective(gray, photo_to_rect, (size, size), flags=cv2.INTER_LINEAR)
    return cv2.GaussianBlur(rect, (3, 3), 0), photo_to_rect


def line_support(gray: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG) -> float:
    """The share of the 2 x 16 x 15 line samples that sit where the grid says, and stand out.

    A grid of the wrong size or place still finds *some* line near each expected one (its
    search window reaches a real line); counting only samples within a tenth of a cell of the
    expected position is what tells the true grid from a lucky one.
    """
    return float(line_hits(gray, quad, config).mean())


def line_hits(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig, memo: Measured | None = None
) -> np.ndarray:
    """Per axis (vertical lines, horizontal lines) and line, the share of its 15 samples that
    support it (see :func:`line_support`): a 2 x 16 array."""
    cell = config.refine_cell_px
    return _hits_from_profiles(_measure(gray, quad, config, memo)[1], cell, config)


def _measure(
    gray: np.ndarray, quad: np.ndarray, config: LocateConfig, memo: Measured | None = None
) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray]]]:
    """The photo -> rect map and both axes' :func:`_line_profiles` of ``gray`` rectified at
    ``refine_cell_px`` a cell (one cell of margin) with the corners ``quad``.

    ``memo`` keeps them by the exact corners: a hypothesis' quick look
    (:func:`vision.board.locate._hopeless`) and its full refinement start from the same corners,
    so without it the first two warps of the refinement would repeat that look's, bit for bit.
    """
    key = np.ascontiguousarray(quad, dtype=np.float64).tobytes()
    if memo is not None and key in memo:
        return memo[key]
    cell = config.refine_cell_px
    rect, photo_to_rect = _rectify_gray(gray, quad, cell, cell)
    measured = (photo_to_rect, [_line_profiles(rect, axis, cell, cell, config)
                                for axis in (0, 1)])
    if memo is not None:
        memo[key] = measured
    return measured


def _hits_from_profiles(
    profiles: list[tuple[np.ndarray, np.ndarray]], cell: int, config: LocateConfig
) -> np.ndarray:
    """:func:`line_hits` from the two axes' :func:`_line_profiles` of a rectified image."""
    margin = cell
    radius = int(round(0.35 * cell))
    expected = margin + np.arange(LINES)[:, None] * cell
    hits = []
    for raw, smooth in profiles:
        found, strength = _line_peaks(raw, smooth, margin, cell, radius)
        near = np.abs(np.nan_to_num(found - expected, nan=cell)) < config.support_tolerance * cell
        hits.append((near & (strength > config.support_strength)).mean(axis=1))
    return np.array(hits)


def doubled_grid(quad: np.ndarray, hits: np.ndarray, config: LocateConfig) -> np.ndarray | None:
    """The grid of twice the cell size, when every other line of this one is missing.

    A comb can lock onto half the true period (printed words and tile letters sit in the cell
    middles); such a grid still lies on half its lines, so it is found and refined happily.
    Its tell: along that axis the even lines are supported and the odd ones not (or the other
    way round). The doubled grid keeps the supported lines and is centred where this one was.
    """
    lows, highs = [0.0, 0.0], [float(SIZE), float(SIZE)]
    doubled = False
    for axis in (0, 1):
        even, odd = hits[axis, ::2].mean(), hits[axis, 1::2].mean()
        strong, weak = max(even, odd), min(even, odd)
        if strong >= config.parity_min_support and weak < config.parity_ratio * strong:
            parity = 0 if even >= odd else 1
            start = parity + 2 * round((SIZE / 2 - SIZE - parity) / 2)
            lows[axis], highs[axis] = start, start + 2 * SIZE
            doubled = True
    if not doubled:
        return None
    grid = np.array([[lows[0], lows[1]], [highs[0], lows[1]], [highs[0], highs[1]],
                     [lows[0], highs[1]]], float)
    return apply_homography(grid_homography(quad), grid)[0]


def symmetry_shift(
    image: np.ndarray, quad: np.ndarray, config: LocateConfig = CONFIG
) -> tuple[tuple[int, int], tuple[float, float]]:
    """The whole-cell move (-1..1 each way) that makes the 15x15 colours most mirror-symmetric.

    The premium squares are laid out symmetrically about both middle lines, the frame and table
    are not: a window one cell off mirrors a frame column onto a board column. Returns the move
    and its gain per axis (relative drop of the asymmetry; 0 when staying is best).
    """
    if image.ndim == 2:
        return (0, 0), (0.0, 0.0)
    cell = config.symmetry_cell_px
    n = SIZE + 2
    grid_to_photo = grid_homography(quad)
    grid_to_rect = np.array([[cell, 0, cell], [0, cell, cell], [0, 0, 1]], np.float64)
    photo_to_rect = grid_to_rect @ np.linalg.inv(grid_to_photo)
    rect = cv2.warpPerspective(image, photo_to_rect, (n * cell, n * cell), flags=cv2.INTER_AREA)
    lab = cv2.cvtColor(rect, cv2.COLOR_BGR2LAB).astype(np.float32)
    inset = cell // 5
    cells = lab.reshape(n, cell, n, cell, 3)[:, inset:cell - inset, :, inset:cell - inset]
    means = cells.mean(axis=(1, 3))  # (n, n, 3) rows, cols
    scale = float(means[1:-1, 1:-1].std(axis=(0, 1)).mean()) + 1e-6

    def asymmetry(dx: int, dy: int, axis: int) -> float:
        block = means[1 + dy:1 + dy + SIZE, 1 + dx:1 + dx + SIZE]
        mirrored = block[:, ::-1] if axis == 0 else block[::-1, :]
        return float(np.abs(block - mirrored).mean()) / scale

    # Columns are judged by the left-right mirror, rows by the up-down one.
    move, gains = [0, 0], [0.0, 0.0]
    for axis in (0, 1):
        stay = asymmetry(0, 0, axis)
        for step in (-1, 1):
            value = asymmetry(step if axis == 0 else 0, step if axis == 1 else 0, axis)
            gain = (stay - value) / max(stay, 1e-6)
            if gain > gains[axis]:
                move[axis], gains[axis] = step, gain
    return (move[0], move[1]), (gains[0], gains[1])


def refine(
    gray: np.ndarray, corners: np.ndarray, config: LocateConfig, rounds: int | None = None,
    memo: Measured | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Pull corners onto the grid lines of ``gray``: the corners, and the per-line support
    (:func:`line_hits`) at them (``memo``: see :func:`_measure`)."""
    cell = config.refine_cell_px
    margin = cell  # one cell around the grid, so lines can be found a little outside
    quad = np.asarray(corners, dtype=np.float64)
    search = config.refine_search_cells
    for _round in range(config.refine_rounds if rounds is None else rounds):
        photo_to_rect, profiles = _measure(gray, quad, config, memo)
        radius = int(round(search * cell))
        found_x, strength_x = _line_peaks(*profiles[0], margin, cell, radius)
        found_y, strength_y = _line_peaks(*profiles[1], margin, cell, radius)
        founds, strengths = (found_x, found_y), (strength_x, strength_y)
        if _round < config.sample_fit_rounds:
            new_quad = quad_from_samples(founds, strengths, photo_to_rect, cell,
                                         config.sample_fit_cutoffs)
        else:
            new_quad = _quad_from_lines(founds, strengths, photo_to_rect, cell,
                                        0.15 * quad_cell_px(quad))
        if new_quad is None or not is_grid_quad(new_quad):
            break
        shift = np.max(np.linalg.norm(new_quad - quad, axis=1)) / quad_cell_px(quad)
        quad = new_quad
        search = max(0.15, search * 0.6)
        if shift < config.settled_cells:
            # Settled: the lines sit within ``settled_cells`` of where this round measured
            # them, so its profiles tell the support as well as a fresh warp would.
            return quad, _hits_from_profiles(profiles, cell, config)
    return quad, line_hits(gray, quad, config, memo)


def converge(gray: np.ndarray, quad: np.ndarray, config: LocateConfig) -> np.ndarray:
    """The corners where one fixed fit of the homography to the line samples reproduces itself.

    :func:`refine` shrinks its search window every round and stops after a few, so it locks in
    whichever peak was near when it started: restarted a tenth of a cell away, it ended up to
    0.4 cell elsewhere on some photos. Here every round is the same map from corners to corners
    (window, cut-offs, resolution and ``converge_bands`` samples per line per cell all fixed),
    repeated until the corners move less than ``converged_cells``: its fixed point depends on
    the photo, not on the start. The finer bands make a tile edge beside a line a few outliers
    among many samples instead of the whole sample of a cell.
    """
    cell = config.converge_cell_px
    margin = cell
    radius = int(round(config.converge_search_cells * cell))
    bands = config.converge_bands
    for _round in range(config.converge_rounds):
        rect, photo_to_rect = _rectify_gray(gray, quad, cell, margin)
        (found_x, strength_x), (found_y, strength_y) = (
            _line_peaks(*_line_profiles(rect, axis, margin, cell, config, bands),
                        margin, cell, radius)
            for axis in (0, 1)
        )
        new_quad = quad_from_samples((found_x, found_y), (strength_x, strength_y),
                                     photo_to_rect, cell, config.converge_cutoffs, bands)
        if new_quad is None or not is_grid_quad(new_quad):
            break
        shift = np.max(np.linalg.norm(new_quad - quad, axis=1)) / quad_cell_px(quad)
        quad = new_quad
        if shift < config.converged_cells:
            break
    return quad


def quad_from_samples(
    founds: PerAxis, strengths: PerAxis, photo_to_rect: np.ndarray, cell: int,
    cutoffs: tuple[float, ...], bands_per_cell: int = 1,
) -> np.ndarray | None:
    """Corners from the homography that best puts every line sample on its line.

    A sample of vertical line k at rect point p asks m[0].p = k m[2].p (horizontal: m[1]), for
    the unknown m taking the rect's grid units to the true ones: linear in m, so a weighted least
    squares, re-weighted (Tukey, one round per cut-off in ``cutoffs``, in cells) so that tile
    edges and printed words beside a line drop out. Every sample counts, not only lines seen in
    four bands or more, which is why it pulls a rough grid in faster than
    :func:`_quad_from_lines`. None when too few samples stand out.
    """
    margin = cell
    rows, targets = [], []
    along_all = _band_centres(cell, bands_per_cell)[None, :].repeat(LINES, 0)
    line_all = np.arange(LINES, dtype=np.float64)[:, None].repeat(along_all.shape[1], 1)
    for axis, (found, strength) in enumerate(zip(founds, strengths, strict=True)):
        use = np.isfinite(found) & (strength > 1.3)
        if use.sum() < 3 * LINES * bands_per_cell:
            return None
        across = (found[use] - margin) / cell
        along, target = along_all[use], line_all[use]
        x, y = (across, along) if axis == 0 else (along, across)
        zero, one = np.zeros_like(x), np.ones_like(x)
        own, blank = [x, y, one], [zero, zero, zero]
        rows.append(np.column_stack([*(own if axis == 0 else blank),
                                     *(blank if axis == 0 else own), -target * x, -target * y]))
        targets.append(target)
    a, b = np.concatenate(rows), np.concatenate(targets)
    weight = np.ones(len(b))
    solution = np.zeros(8)
    for cutoff in cutoffs:
        # Normal equations: 8 unknowns, a few hundred well-spread samples (an SVD per round
        # costs three times more and buys nothing here).
        weighted = a.T * weight
        try:
            solution = np.linalg.solve(weighted @ a, weighted @ b)
        except np.linalg.LinAlgError:  # every sample on one line, say
            return None
        residual = np.abs(a @ solution - b) / cutoff
        weight = np.where(residual < 1, (1 - residual**2) ** 2, 0.0)
        if weight.sum() < 4 * LINES * bands_per_cell:
            return None
    m = np.append(solution, 1.0).reshape(3, 3)
    to_units = np.array([[1 / cell, 0, -margin / cell], [0, 1 / cell, -margin / cell], [0, 0, 1]])
    return apply_homography(np.linalg.inv(m @ to_units @ photo_to_rect), GRID_CORNERS)[0]


def _quad_from_lines(
    founds: PerAxis, strengths: PerAxis, photo_to_rect: np.ndarray, cell: int, ransac_px: float,
) -> np.ndarray | None:
    """Corners from a straight line fitted through each line's samples (:func:`_fit_lines`) and
    the homography fitted (RANSAC, inliers within ``ransac_px`` photo pixels) to those lines' 256
    intersections; None if either fails."""
    margin = cell
    xs = _fit_lines(founds[0], strengths[0], margin, cell)
    ys = _fit_lines(founds[1], strengths[1], margin, cell)
    if xs is None or ys is None:
        return None
    # Intersections of the fitted lines, in rect px, against the ideal grid.
    ax, bx = np.array(xs).T  # vertical line i: x = ax + bx * y
    ay, by = np.array(ys).T  # horizontal line j: y = ay + by * x
    axm, bxm = ax[:, None], bx[:, None]
    aym, bym = ay[None, :], by[None, :]
    x = (axm + bxm * aym) / (1 - bxm * bym)
    y = aym + bym * x
    rect_pts = np.column_stack([x.ravel(), y.ravel()])
    gi, gj = np.meshgrid(np.arange(LINES), np.arange(LINES), indexing="ij")
    grid_pts = np.column_stack([gi.ravel(), gj.ravel()]).astype(np.float64)
    photo_pts, _ = apply_homography(np.linalg.inv(photo_to_rect), rect_pts)
    h, _ = cv2.findHomography(grid_pts, photo_pts, cv2.RANSAC, ransac_px)
    if h is None:
        return None
    return apply_homography(h, GRID_CORNERS)[0]


def _band_centres(cell: int, bands_per_cell: int) -> np.ndarray:
    """Where (in cells along the lines) the samples of :func:`_line_profiles` are taken."""
    inset = cell // 6
    rows = (cell - 2 * inset) // bands_per_cell
    inner = inset + (np.arange(bands_per_cell) + 0.5) * rows
    return (np.arange(SIZE)[:, None] + inner[None, :] / cell).ravel()


def _line_profiles(
    rect: np.ndarray, axis: int, margin: int, cell: int, config: LocateConfig,
    bands_per_cell: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Per band (15 x ``bands_per_cell``), the absolute gradient across the lines summed along
    the band: raw, and smoothed so a printed line's two edges make one peak (bands x rect size
    each). Each cell's band leaves out the rows next to the crossing lines."""
    # In 16-bit integers: the gradient of an 8-bit image is exact there, and so are the sums
    # below in float32 (integers far below 2**24), at a fraction of the cost of float.
    # Horizontal lines: the transposed image's vertical ones (the same gradients: Sobel's
    # kernel and border are symmetric), so both axes sum contiguous rows, which is 20x faster
    # than summing the columns of a transposed view.
    source = rect if axis == 0 else cv2.transpose(rect)
    grad = np.abs(cv2.Sobel(source, cv2.CV_16S, 1, 0, ksize=3))
    size = grad.shape[1]
    inset = cell // 6
    # Sum over each band's inner rows: (15 * bands_per_cell, size), on views (nothing copied)
    rows = (cell - 2 * inset) // bands_per_cell
    inner = grad[margin: margin + SIZE * cell].reshape(SIZE, cell, size)[
        :, inset: inset + rows * bands_per_cell].reshape(SIZE, bands_per_cell, rows, size)
    raw = inner.sum(axis=2, dtype=np.float32).reshape(SIZE * bands_per_cell, size)
    # A printed line has two edges: smooth across it so they merge into one peak at its centre
    # (otherwise each band picks either edge, and a 2-pixel line jitters the fit by a pixel).
    # The strength is still judged on the raw profile, where a thin line stands out most.
    sigma = max(1.0, config.line_smooth_cells * cell)
    return raw, cv2.GaussianBlur(raw, (int(6 * sigma) | 1, 1), sigma)


@functools.lru_cache(maxsize=64)
def _window_layout(bands: int, size: int, margin: int, cell: int, radius: int) -> tuple:
    """What :func:`_line_peaks` indexes with, for one shape of profile and window (the same
    few shapes recur hundreds of times a photo): the profile columns of each line's window
    (16 x W), each window's first element in the flattened (bands * 16, W) windows, and each
    window's line centre minus ``radius`` (so that centre + offset is that plus the column).
    Read-only: the cache hands out the same arrays."""
    centres = margin + np.arange(LINES) * cell
    index = np.clip(centres[:, None] + np.arange(-radius, radius + 1)[None, :], 0, size - 1)
    starts = np.arange(bands * LINES) * (2 * radius + 1)
    first = np.tile(centres, bands) - radius
    for array in (index, starts, first):
        array.flags.writeable = False
    return index, starts, first


def _line_peaks(
    raw: np.ndarray, profiles: np.ndarray, margin: int, cell: int, radius: int
) -> tuple[np.ndarray, np.ndarray]:
    """Where each of the 16 lines crosses each of the 15 bands: (positions, strengths), 16x15,
    from one axis' :func:`_line_profiles` (axis 0: vertical lines, positions are x).

    A position is the sub-pixel peak of the smoothed profile within ``radius`` of the line's
    expected place; the strength is the raw peak over the median of that window (how much it
    stands out).
    """
    bands, size = raw.shape
    index, starts, first = _window_layout(bands, size, margin, cell, radius)
    width = 2 * radius + 1
    windows = profiles[:, index].reshape(-1, width)  # (15 * 16, W)
    raw_windows = raw[:, index].reshape(-1, width)
    j = np.argmax(windows, axis=1)
    jc = np.minimum(np.maximum(j, 1), width - 2)
    # Flat indices into the windows (one gather each, not take_along_axis).
    flat = starts + jc
    values = windows.ravel()
    a, b, c = values[flat - 1], values[flat], values[flat + 1]
    denom = a - 2 * b + c
    delta = np.where(denom < 0, 0.5 * (a - c) / np.where(denom < 0, denom, -1), 0.0)
    interior = (j > 0) & (j < width - 1)
    positions = np.where(interior, first + jc + delta, np.nan)
    # The raw peak: the largest raw value within two columns of the smoothed one (inside the
    # window), from five gathers rather than a (bands * 16, 5) index array.
    raw_flat = raw_windows.ravel()
    peak = np.maximum(np.maximum(raw_flat[flat - 1], raw_flat[flat]), raw_flat[flat + 1])
    peak = np.maximum(peak, raw_flat[starts + np.maximum(jc - 2, 0)])
    peak = np.maximum(peak, raw_flat[starts + np.minimum(jc + 2, width - 1)])
    # The window's median: its middle value (W is odd), without sorting it all.
    middle = np.partition(raw_windows, width // 2, axis=1)[:, width // 2]
    strengths = np.where(interior, peak / (middle + 1e-6), 0.0)
    return positions.reshape(bands, LINES).T, strengths.reshape(bands, LINES).T


def _line_fits(t: np.ndarray, found: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, ...]:
    """Least-squares found = a + b * t per row over the ``use`` mask: (a, b, count)."""
    w = use.astype(np.float64)
    f = np.where(use, found, 0.0)
    n = w.sum(axis=1)
    st, sf = (w * t).sum(axis=1), f.sum(axis=1)
    stt, stf = (w * t * t).sum(axis=1), (f * t).sum(axis=1)
    denom = n * stt - st * st
    safe = np.where(np.abs(denom) < 1e-9, 1.0, denom)
    b = np.where(np.abs(denom) < 1e-9, 0.0, (n * stf - st * sf) / safe)
    a = np.where(n > 0, (sf - b * st) / np.maximum(n, 1), np.nan)
    return a, b, n


def _trend(known: np.ndarray, values: np.ndarray, degree: int) -> np.ndarray:
    """A polynomial in the line number fitted to the ``known`` lines' values, at all 16 lines
    (``np.polyfit`` + ``np.polyval``, without their checks: this runs for every line fit)."""
    coefficients = np.linalg.lstsq(np.vander(known, degree + 1).astype(np.float64), values,
                                   rcond=None)[0]
    return np.vander(np.arange(LINES), degree + 1) @ coefficients


def _masked_median(values: np.ndarray, use: np.ndarray) -> np.ndarray:
    """Row medians of ``values`` over the ``use`` mask (0 for empty rows), without a loop."""
    ordered = np.sort(np.where(use, values, np.inf), axis=1)
    count = use.sum(axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, 1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], 1)[:, 0]
    return np.where(count > 0, (low + high) / 2, 0.0)


def _fit_lines(
    found: np.ndarray, strength: np.ndarray, margin: int, cell: int
) -> list[tuple[float, float]] | None:
    """Per line k, a robust fit position = a + b * t along the bands (t in rect px).

    Lines seen in fewer than four bands are filled in from their neighbours (a smooth function
    of k), as are fits that stray more than a third of a cell from that trend.
    """
    t = (margin + (np.arange(SIZE) + 0.5) * cell)[None, :]
    use = np.isfinite(found) & (strength > 1.3)
    found0 = np.nan_to_num(found)
    a, b, n = _line_fits(t, found0, use)
    resid = np.abs(found0 - (a[:, None] + b[:, None] * t))
    med = _masked_median(resid, use)
    keep = use & (resid < np.maximum(1.0, 2.5 * med)[:, None])
    a2, b2, n2 = _line_fits(t, found0, keep)
    a = np.where(n2 >= 4, a2, a)
    b = np.where(n2 >= 4, b2, b)
    known = np.flatnonzero(n >= 4)
    if len(known) < 6:
        return None
    trend_a = _trend(known, a[known], 2 if len(known) >= 8 else 1)
    trend_b = _trend(known, b[known], 1)
    bad = (n < 4) | (np.abs(a - trend_a) > 0.35 * cell)
    a = np.where(bad, trend_a, a)
    b = np.where(bad, trend_b, b)
    return [(float(x), float(y)) for x, y in zip(a, b, strict=True)]


__all__ = ["Measured", "ShiftResult", "converge", "doubled_grid", "fix_grid_shift", "line_hits",
           "line_support", "refine", "symmetry_shift"]
