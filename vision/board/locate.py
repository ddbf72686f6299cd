"""Finding the 15x15 playing grid in a photo, without markers.

Why this way: the outer frame of a board is not the grid (a finder that returns the frame is 3-7
cells off), and boards differ in colour, so we look for the one thing every board shares: two
families of 16 equally spaced straight lines. The steps:

1. Line segments (LSD) on a copy about 640 px across.
2. The two dominant families of segments and their vanishing points (RANSAC, then least squares):
   the line through the two vanishing points undoes the perspective up to an affine map, after
   which every grid line of a family is parallel and the 16 lines are *equally spaced*. Only the
   cells' aspect still depends on the focal length; when the vanishing points cannot measure it
   (a family stays parallel in the photo), every aspect a phone's focal could give is allowed.
3. In that frame, a comb of 16 equally spaced lines is fitted to the segment positions of each
   family (period and phase searched exhaustively). This counts lines, so the frame and the
   board's outer edge cannot be mistaken for the grid unless they sit exactly one cell out.
   Beside the combs, the photo's biggest four-sided outlines (:mod:`vision.board.outline`) are
   rough grids too: a table with a lattice of its own (checked cloth) can take the combs from
   the board, and the refinement below pulls an outline on or near the grid onto it.
4. Refinement on the photo (shrunk to ~2.5x the measuring resolution): rectify with the current
   corners, measure where the centre of each of the 16 + 16 lines is in every row/column band,
   fit the homography to those samples (robustly re-weighted least squares, first rounds) or to
   the 256 intersections of lines fitted through them (last round), repeat until the corners
   stop moving; then slide by whole cells to where the squares look most like squares, and try
   twice the cell size when every other line is missing (a comb locked on half the period).
   The grid finally chosen is then run to convergence: the same fit (finer samples, a fixed
   window and cut-off) repeated until it reproduces itself, so the answer does not depend on
   where the shrinking-window rounds happened to stop.
5. The premium layout (:mod:`vision.board.layout`): a plank table, graph paper or a chessboard
   has two families of equally spaced lines too, no board's premium squares. The hypotheses are
   ranked first by whether their squares show the layout; the chosen grid is moved by whole
   cells (or made a cell longer or shorter at an end) where the layout fits clearly better,
   since lines alone cannot tell which 15 x 15 window of a lattice running on past the board
   (plank seams a cell apart) is the board; when no grid shows it, the best few are tried moved
   to where it fits.
6. Judging: line support x square-likeness is the confidence; a grid is refused when either
   family of lines is poorly seen, when it is only part of a board (lines near one end missing,
   or every other line) -- then "cut off" if what shows of it fits the layout and the board
   would run off the photo --, and when its squares do not show the layout ("no Scrabble board
   found", never a word about corners the user did not give). Failures look again once, on a
   bigger copy, pairing a third family of lines and more combs (wood grain can out-weigh one
   family of grid lines) and, first, asking the premium squares where the board is
   (:mod:`vision.board.premiums`), so only hard photos pay for it.

Steps 1-3 are :mod:`vision.board.roughgrids` (and :mod:`vision.board.outline`,
:mod:`vision.board.premiums`), step 4 :mod:`vision.board.refine`, and every
threshold of them all :class:`vision.board.tuning.LocateConfig`; this module runs the steps and
judges (steps 5 and 6; whether a grid is whole and on the photo, :mod:`vision.board.whole`).

Corners are the *outer edge* of the grid's border line (as people and the truth files put them):
the line centres found, moved out by half a border line (``border_half_width_cells``).

The corner order: TL, TR, BR, BL of the South view, where South is, by default, the board edge
nearest the bottom of the image (the premium layout is symmetric, so pixels cannot tell South).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board.grid import apply_homography, clockwise, is_grid_quad, quad_cell_px
from vision.board.layout import layout_fit, resized, shifted, spans_fit
from vision.board.outline import outline_quads
from vision.board.premiums import premium_quads
from vision.board.rectify import SIZE, grid_homography
from vision.board.refine import (
    Measured,
    converge,
    doubled_grid,
    fix_grid_shift,
    refine,
    symmetry_shift,
)
from vision.board.roughgrids import rough_grids
from vision.board.tuning import CONFIG, LocateConfig
from vision.board.whole import CUT_OFF, NO_BOARD, check_inside, check_whole, off_photo
from vision.errors import BoardNotFoundError, ImageQualityError, VisionError

Rank = tuple[bool, float]
"""How good a settled grid is (:func:`_rank`); greater is better."""
Settled = tuple[Rank, float, np.ndarray, dict]
"""A hypothesis refined and rated: (rank, confidence, corners in photo pixels, measurements)."""


@dataclass(frozen=True)
class BoardLocation:
    """Where the playing grid is: ``corners`` (4x2, photo pixels) TL TR BR BL of the South view."""

    corners: np.ndarray
    confidence: float
    method: str
    quad_found_in_ms: float = 0.0
    details: dict = field(default_factory=dict, compare=False)


# ----------------------------------------------------------------------------------------------
# Quality


def check_quality(gray_work: np.ndarray, config: LocateConfig = CONFIG) -> np.ndarray:
    """Refuse photos too dark to find anything in, and stretch dim ones to the full range.

    Darkness is judged on the bright end (99th percentile): a dim photo of a board still has
    usable contrast once stretched, a black frame does not. Blur is judged only when finding
    fails, so a soft but findable board is never refused.
    """
    low, high = _percentiles(gray_work, (1, 99))
    if high < config.dark_p99:
        raise ImageQualityError(
            f"photo too dark to find the board (brightest parts {high:.0f} of 255)",
            reason="too dark")
    if high - low < 255 * 0.6:
        scale = 255.0 / max(high - low, 1.0)
        gray_work = cv2.convertScaleAbs(gray_work, alpha=scale, beta=-low * scale)
    return gray_work


def _percentiles(gray: np.ndarray, percents: tuple[float, ...]) -> tuple[float, ...]:
    """Percentiles of a uint8 image from its histogram (a sort of every pixel costs 20x more;
    OpenCV's histogram is several times faster than ``np.bincount``, and its float32 counts are
    exact up to 2**24 pixels, far more than a work copy has)."""
    if gray.dtype != np.uint8:
        return tuple(float(v) for v in np.percentile(gray, percents))
    if gray.size < 2**24:
        counts = cv2.calcHist([gray], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    else:
        counts = np.bincount(gray.ravel(), minlength=256)
    cumulative = np.cumsum(counts)
    total = cumulative[-1]
    return tuple(
        float(np.searchsorted(cumulative, p / 100 * total, side="left")) for p in percents
    )


def downscale(gray: np.ndarray, factor: float) -> np.ndarray:
    """``gray`` scaled by ``factor`` (< 1): exact halvings (pixel averages, nearly free) down to
    within a factor two, then one area resize of the smaller image (a bilinear one would alias
    away the thin grid lines)."""
    while factor <= 0.5 and min(gray.shape[:2]) >= 2:
        gray = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2),
                          interpolation=cv2.INTER_AREA)
        factor *= 2
    if factor < 0.999:
        gray = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return gray


def _blur_measure(gray_work: np.ndarray) -> float:
    return float(cv2.Laplacian(gray_work, cv2.CV_32F).var())


SIDES = ("bottom", "left", "top", "right")


def south_at(corners: np.ndarray, side: str = "bottom") -> np.ndarray:
    """Relabel the corners TL TR BR BL so South's edge (BR-BL) is the board edge nearest the
    given image side ("bottom", "left", "top" or "right")."""
    if side not in SIDES:
        raise ValueError(f"South must be one of {', '.join(SIDES)}, not {side!r}")
    quad = clockwise(np.asarray(corners, dtype=np.float64))
    mids = np.array([(quad[i] + quad[(i + 1) % 4]) / 2 for i in range(4)])
    key = {"bottom": mids[:, 1], "top": -mids[:, 1], "right": mids[:, 0], "left": -mids[:, 0]}
    south_edge = int(np.argmax(key[side]))
    # Clockwise TL, TR, BR, BL: South's edge runs from BR (index 2) to BL (index 3).
    return np.roll(quad, -((south_edge - 2) % 4), axis=0)


def south_at_bottom(corners: np.ndarray) -> np.ndarray:
    """The default labelling: South is the board edge nearest the bottom of the image."""
    return south_at(corners, "bottom")


# ----------------------------------------------------------------------------------------------
# Public entry point


def find_board(
    image: np.ndarray, *, hint: np.ndarray | None = None, config: LocateConfig = CONFIG
) -> BoardLocation:
    """Find the playing grid in a BGR photo; raises BoardNotFoundError or ImageQualityError.

    ``hint``: approximate corners (4x2, photo pixels, e.g. from a calibration profile or the
    previous frame); the rough search is skipped and only refinement runs.
    """
    image = _as_bgr_or_gray(image)
    try:
        return _find(image, hint, config)
    except VisionError as error:
        if type(error) is not VisionError:
            raise
        # A plain VisionError from inside is a step's own corners refused (a refinement on a
        # smear crossed them): a failed search, never a word about corners the user did not give.
        raise BoardNotFoundError(NO_BOARD) from None


def _find(image: np.ndarray, hint: np.ndarray | None, config: LocateConfig) -> BoardLocation:
    """:func:`find_board` on a photo known to be 8-bit grey or BGR."""
    started = time.perf_counter()
    gray_full = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    failure: BoardNotFoundError | None = None
    for thorough in (False, True):
        # A small board far away has cells of a few pixels in the work copy, and wood grain can
        # out-weigh a family of grid lines: a photo whose board was not found looks again,
        # once, on a bigger copy and with more line families (only failures pay for it).
        try:
            found = _search(image, gray_full, config.retry_work_px if thorough else
                            config.work_px, hint, config, started, thorough)
            return _located(image, gray_full, found, hint, config)
        except BoardNotFoundError as error:
            failure = error
            if hint is not None:
                raise
            if error.reason == "cut off":
                # A table's lattice (checked cloth) runs off the photo too and can take the line
                # search from a whole board: its outline alone may show it (vision.board.outline).
                try:
                    found = _search(image, gray_full, config.work_px, None, config, started,
                                    outlines_only=True)
                    return _located(image, gray_full, found, None, config)
                except BoardNotFoundError:
                    raise error from None
    assert failure is not None
    raise failure


@dataclass
class _Found:
    """What a search found: the best grid, every grid it settled, and the copies of the photo
    they were measured on."""

    best: Settled
    candidates: list[Settled]
    details: dict
    gray: np.ndarray  # the refinement's copy of the photo...
    shrink: float  # ...and its scale
    colour: ColourCopy


def _located(image: np.ndarray, gray_full: np.ndarray, found: _Found, hint: np.ndarray | None,
             config: LocateConfig) -> BoardLocation:
    """The best grid placed (:func:`_placed`); if it is refused for showing no board, the best
    grids moved to where the premium layout fits (:func:`_moved_to_layout`), placed in turn."""
    try:
        return _placed(image, gray_full, found, found.best, hint, config)
    except BoardNotFoundError as error:
        if error.reason == "cut off" or found.best[0][0]:
            raise
        height, width = gray_full.shape
        moved = _moved_to_layout(found.candidates, found.colour, found.gray, found.shrink,
                                 config, (width, height))
        if moved is None:
            raise
        return _placed(image, gray_full, found, moved, hint, config)


def _placed(image: np.ndarray, gray_full: np.ndarray, found: _Found, best: Settled,
            hint: np.ndarray | None, config: LocateConfig) -> BoardLocation:
    """A settled grid moved by whole cells and mended where the squares say so, run to
    convergence, grown to the grid's outer edge and judged: whole, on the photo, a square,
    showing the premium layout."""
    height, width = gray_full.shape
    gray_refine, shrink, details = found.gray, found.shrink, dict(found.details)
    _, confidence, refined, info = best
    colour = found.colour
    move, gains = _mirror_move(colour, refined, config)
    info["symmetry_move"], info["symmetry_gain"] = move, gains
    hits = info["line_hits"]
    if move != (0, 0):
        refined, hits = refine(gray_refine, shifted(refined, move) * shrink, config)
        refined = refined / shrink
    # A grid whose squares show the layout all but perfectly is where the layout puts it: the
    # searches for a better place (10-20 ms a photo) are for the others.
    if layout_fit(colour.image, refined * colour.scale, config, reach=0).score < config.layout_sure:
        refined, hits = _where_layout_fits(colour, gray_refine, shrink, refined, hits, info,
                                           config)
        refined, hits = _where_layout_spans(colour, gray_refine, shrink, refined, hits, info,
                                            config)
    # Only the chosen grid is run to convergence (the hypotheses are ranked on refine's).
    refined = converge(gray_refine, refined * shrink, config) / shrink
    try:
        check_whole(refined, hits, width, height, config,
                    lambda: layout_fit(colour.image, refined * colour.scale, config,
                                       reach=0).score)
        details.update(info)
        refined = grow_corners(refined, config.border_half_width_cells)
        check_inside(refined, width, height, config)
    except BoardNotFoundError as error:
        raise _cut_off_or_not(error, colour, refined, (width, height), config) from None
    _check_shape(refined, width, height, gray_full, config)
    _check_layout(colour, refined, (width, height), details, config)
    return BoardLocation(
        corners=south_at_bottom(refined),
        confidence=confidence,
        method="hint+lines" if hint is not None else "vanishing-points+comb+lines",
        quad_found_in_ms=details.get("quad_ms", 0.0),
        details=details,
    )


def _mirror_move(colour: ColourCopy, quad: np.ndarray, config: LocateConfig
                 ) -> tuple[tuple[int, int], tuple[float, float]]:
    """The whole-cell move the squares' mirror symmetry asks for (:func:`symmetry_shift`), an
    axis kept only where it gains clearly (``min_symmetry_gain``), and the gains. Measured on
    the colour copy (cells of 15 px and more): the verdict the photo gives, from a fraction of
    its pixels."""
    move, gains = symmetry_shift(colour.image, quad * colour.scale, config)
    dx, dy = (m if g >= config.min_symmetry_gain else 0 for m, g in zip(move, gains, strict=True))
    return (dx, dy), gains


def _where_layout_fits(
    colour: ColourCopy, gray_refine: np.ndarray, shrink: float, quad: np.ndarray,
    hits: np.ndarray, info: dict, config: LocateConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """The grid moved by whole cells to where the premium layout fits clearly better
    (``layout_shift_gain``), refined there, with its line support; else as it was.

    Lines and square-like cells cannot tell which 15 x 15 window of a lattice is the board when
    the lattice goes on past it (plank seams a cell apart, a grid of ruled lines around): the
    premium squares can (:mod:`vision.board.layout`). Measured up to ``layout_move_reach``
    cells each way on the photo's colour copy (the search moved its grids further already).
    """
    fit = layout_fit(colour.image, quad * colour.scale, config, config.layout_move_reach)
    info["layout_shift"], info["layout_gain"] = fit.best_shift, fit.best - fit.score
    if fit.best_shift == (0, 0) or fit.best - fit.score < config.layout_shift_gain:
        return quad, hits
    # A move by one cell is what the squares' symmetry makes too (symmetry_shift), judged by
    # the plain threshold; a longer one was chosen among many and must fit better
    # (min_layout_placed): a full board's grid moved one cell by the layout fits it at 0.72
    # (ssetser1 TestTest), half a board moved two cells reached 0.70.
    if max(map(abs, fit.best_shift)) > 1:
        info["placed_by_layout"] = True
    moved, moved_hits = refine(gray_refine, shifted(quad, fit.best_shift) * shrink, config)
    return moved / shrink, moved_hits


def _where_layout_spans(
    colour: ColourCopy, gray_refine: np.ndarray, shrink: float, quad: np.ndarray,
    hits: np.ndarray, info: dict, config: LocateConfig,
) -> tuple[np.ndarray, np.ndarray]:
    """The grid with an end of an axis (or both) moved a cell, refined there, while the premium
    layout fits clearly better so (``layout_span_gain``; ``layout_span_steps`` times at most);
    else as it was.

    Why: on a plank table a seam just past the board's edge can hold the grid's outermost line,
    and the refinement then spreads 15 cells over 16 (or 14): every line a little off, the far
    ones by most of a cell. The layout then fits best with the grid a cell shorter (longer) at
    that end, or both, and the lines, refined from there, fall into place. The 16 grids are
    judged from one warp (:func:`vision.board.layout.spans_fit`).
    """
    moves = [(axis, low, high) for axis in (0, 1) for low in (-1, 0, 1) for high in (-1, 0, 1)
             if low or high]
    spans = [(0.0, float(SIZE), 0.0, float(SIZE))]
    for axis, low, high in moves:
        span = [0.0, float(SIZE), 0.0, float(SIZE)]
        span[2 * axis], span[2 * axis + 1] = float(low), float(SIZE + high)
        spans.append((span[0], span[1], span[2], span[3]))
    scores = spans_fit(colour.image, quad * colour.scale, spans, config)
    if scores[0] < config.min_layout_score:
        # Only a grid that shows the layout already is mended: choosing the best of 16 variants
        # twice over lifts the score of anything (a chessboard reached 0.76 from below 0.74).
        return quad, hits
    for _step in range(config.layout_span_steps):
        best = int(np.argmax(scores[1:])) + 1
        if scores[best] - scores[0] < config.layout_span_gain:
            break
        axis, low, high = moves[best - 1]
        refined, refined_hits = refine(gray_refine, resized(quad, axis, (low, high)) * shrink,
                                       config)
        refined = refined / shrink
        refined_scores = spans_fit(colour.image, refined * colour.scale, spans, config)
        if refined_scores[0] - scores[0] < config.layout_span_gain:
            break
        quad, hits, scores = refined, refined_hits, refined_scores
        info["layout_spans"] = info.get("layout_spans", 0) + 1
        info["placed_by_layout"] = True
    return quad, hits


@dataclass(frozen=True)
class ColourCopy:
    """The photo (colour, or grey if it is grey) at the scale the premium layout is measured
    at, and that scale: made once a photo (:func:`_layout_copy`)."""

    image: np.ndarray
    scale: float


def _layout_copy(image: np.ndarray, quad: np.ndarray, config: LocateConfig) -> ColourCopy:
    """The photo halved while its cells stay at least ``refine_source_cells`` times the layout's
    measuring cell: the layout's warp then averages, not skips, the pixels of a cell (halvings
    only, nearly free)."""
    return ColourCopy(*_halved(image, quad_cell_px(quad),
                               config.refine_source_cells * config.layout_cell_px))


def _cut_off_or_not(error: BoardNotFoundError, colour: ColourCopy, quad: np.ndarray,
                    size: tuple[int, int], config: LocateConfig) -> BoardNotFoundError:
    """The refusal a grid that is only part of a board gets, as the premium layout tells it.

    The lines say "cut off" when the lattice runs off the photo, "no board" when it stops short
    inside it (:func:`vision.board.whole.check_whole`). A chessboard's 8 x 8 squares and ruled
    paper run off a 15 x 15 grid too: a board is cut off only if what shows of it looks like the
    layout somewhere near (``cut_off_layout``; the lattice extended from part of a board is often
    a little off). And a grid fitted inside the part of a board that shows is cut off when the
    layout fits it moved off the photo's edge, clearly (``layout_min_standing``).
    """
    fit = layout_fit(colour.image, quad * colour.scale, config)
    move = fit.best_shift
    if (fit.best >= config.min_layout_score and fit.standing(move) >= config.layout_min_standing
            and off_photo(shifted(quad, move), *size, config)):
        return BoardNotFoundError(CUT_OFF, reason="cut off")
    if error.reason == "cut off" and fit.best < config.cut_off_layout:
        return BoardNotFoundError(NO_BOARD)
    return error


def _check_layout(colour: ColourCopy, quad: np.ndarray, size: tuple[int, int], details: dict,
                  config: LocateConfig) -> None:
    """Refuse a grid whose squares do not show the premium layout (``min_layout_score``): a
    plank table, ruled paper or a chessboard has lines enough to pass for a board, no board's
    premium squares. Judged on the grid as finally placed; while searching, the layout only
    ranks the hypotheses (a hypothesis is refined less well, and on a board full of tiles the
    layout shows too little to judge it by: ``docs/tuning.md``).

    A grid the layout moved or resized must fit it better (``min_layout_placed``): chosen among
    many moves for its fit, the fit of a wrong one is lifted by the choice (half a board moved
    two cells reached 0.70). Said "cut off" instead when the layout fits the grid moved to where
    it runs off the photo (``size``; :func:`_cut_off_or_not`): a board whose visible lines were
    fitted 15 cells into."""
    details["layout"] = layout_fit(colour.image, quad * colour.scale, config, reach=0).score
    least = (config.min_layout_placed if details.get("placed_by_layout")
             else config.min_layout_score)
    if details["layout"] >= least:
        return
    refusal = _cut_off_or_not(BoardNotFoundError(NO_BOARD), colour, quad, size, config)
    if refusal.reason == "cut off":
        raise refusal
    gray = colour.image if colour.image.ndim == 2 else cv2.cvtColor(colour.image,
                                                                    cv2.COLOR_BGR2GRAY)
    _raise_if_blurry(downscale(gray, min(1.0, config.work_px / max(gray.shape))), config)
    raise BoardNotFoundError(NO_BOARD)


def _check_shape(quad: np.ndarray, width: int, height: int, gray: np.ndarray,
                 config: LocateConfig) -> None:
    """Refuse a grid that is no photographed square (crossed, folded or degenerate corners):
    the refinement of a hypothesis on a smear or on noise can end there, and the reader would
    then say the corners were malformed, though the user gave none."""
    if not is_grid_quad(quad):
        _raise_if_blurry(downscale(gray, min(1.0, config.work_px / max(width, height))), config)
        raise BoardNotFoundError(NO_BOARD)


def _as_bgr_or_gray(image: object) -> np.ndarray:
    """The photo as 8-bit grey or BGR, refusing what cannot be one (a typed, one-line error)."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise VisionError("find_board needs a non-empty image array")
    if image.dtype != np.uint8:
        raise VisionError(f"find_board needs an 8-bit image, not {image.dtype}")
    if image.ndim == 3:
        channels = image.shape[2]
        if channels == 1:
            return image[:, :, 0]
        if channels == 4:
            return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
        if channels != 3:
            raise VisionError(f"find_board needs a grey, BGR or BGRA image, not {channels} "
                              "channels")
    return image


def _search(
    image: np.ndarray, gray_full: np.ndarray, work_px: int, hint: np.ndarray | None,
    config: LocateConfig, started: float, thorough: bool = False, outlines_only: bool = False,
) -> _Found:
    """The best refined grid, and what else was found (:class:`_Found`). Rough grids come from
    a copy ``work_px`` across (or the hint, or only its outlines if ``outlines_only``); each is
    refined, slid by whole cells if need be, and rated: first whether its squares show the
    premium layout (:mod:`vision.board.layout`) and its lines hold, then how well they fit."""
    height, width = gray_full.shape
    gray, factor = _copy_across(gray_full, work_px)
    gray = check_quality(gray, config)
    details: dict = {"segments": 0, "work_px": max(gray.shape)}
    if hint is not None:
        roughs: Iterator[np.ndarray] = iter([np.asarray(hint, dtype=np.float64).reshape(4, 2)])
    elif outlines_only:
        roughs = (quad / factor for quad in outline_quads(gray, config))
    else:
        roughs = (quad / factor for quad in rough_grids(gray, config, details, thorough))
        if thorough and image.ndim == 3:
            # The second look asks the premium squares first: where the lines failed once, a
            # board's coloured squares often still show it (vision.board.premiums).
            roughs = itertools.chain(_premium_grids(image, config), roughs)
    best: Settled | None = None
    candidates: list[Settled] = []
    settled: list[np.ndarray] = []
    gray_refine, shrink = gray_full, 1.0
    colour = ColourCopy(image, 1.0)
    try:
        limit = config.max_hypotheses + (config.thorough_hypotheses if thorough else 0)
        for number, rough in enumerate(itertools.islice(roughs, limit)):
            details.setdefault("quad_ms", (time.perf_counter() - started) * 1000)
            if not _plausible(rough, width, height):
                continue
            # The passes often propose the same grid again; it would settle to the same place.
            if any(_same_quad(rough, other, config.same_quad_cells) for other in settled):
                continue
            if not settled:
                gray_refine, shrink = _refine_copy(gray_full, rough, config)
                colour = _layout_copy(image, rough, config)
            memo: Measured = {}
            if best is not None and _hopeless(gray_refine, rough * shrink, best, config, memo):
                continue
            refined, confidence, info = _settle(gray_refine, rough * shrink, config, memo=memo)
            refined = refined / shrink
            settled += [rough, refined]
            info["rough"] = rough
            info["hypothesis"] = number
            info["layout"] = layout_fit(colour.image, refined * colour.scale, config,
                                        reach=0).score
            rank = _rank(info, config)
            candidates.append((rank, confidence, refined, info))
            if best is None or rank > best[0]:
                best = candidates[-1]
            if (info["support"] >= config.good_enough and info["cellness"] >= 1.0
                    and rank[0]):
                break
    except BoardNotFoundError:
        if best is None:
            _raise_if_blurry(gray, config)
            raise
    if best is not None and not _lines_hold(best[3], config):
        # On the second look only: the first look's failure may be a small board the bigger
        # copy finds, and a grid placed by the layout is a last resort.
        best = _moved_to_layout(candidates, colour, gray_refine, shrink, config,
                                (width, height)) if thorough else None
    # (Whether the squares show the premium layout is judged on the grid finally placed, in
    # _placed; here it ranks the grids.)
    if best is None:
        _raise_if_blurry(gray, config)
        raise BoardNotFoundError(NO_BOARD)
    return _Found(best, candidates, details, gray_refine, shrink, colour)


def _premium_grids(image: np.ndarray, config: LocateConfig) -> Iterator[np.ndarray]:
    """The rough grids of :func:`vision.board.premiums.premium_quads`, in photo pixels (lazily:
    found only when the search reaches them)."""
    copy, scale = _copy_across(image, config.premium_px)
    for quad in premium_quads(copy, config):
        yield quad / scale


def _copy_across(image: np.ndarray, side: int) -> tuple[np.ndarray, float]:
    """``image`` shrunk (never grown) to about ``side`` pixels across (:func:`downscale`), and
    the copy's exact scale."""
    factor = min(1.0, side / max(image.shape[:2]))
    copy = downscale(image, factor) if factor < 1 else image
    return copy, copy.shape[1] / image.shape[1]


def _moved_to_layout(
    candidates: list[Settled], colour: ColourCopy, gray: np.ndarray, shrink: float,
    config: LocateConfig, size: tuple[int, int],
) -> Settled | None:
    """The first of the best few grids (``layout_rescues``) that shows the premium layout once
    moved by whole cells, refined and rated there; None if none does. Raises "cut off" when the
    layout fits a board that runs off the photo.

    Why: where a lattice goes on past the board (plank seams a cell apart, a board cut off by
    the photo's edge, whose visible lines the comb extends inwards), lines alone place the 15 x
    15 window anywhere along it. The layout is measured only on the cells on the photo, and
    only where most of the window is (:func:`vision.board.layout.layout_fit`); among 121 moves
    one fits by chance now and then, so a move of more than a cell must also stand out from the
    others (``layout_min_standing``). A board full of tiles hides much of its layout, and its
    grid is a cell off more often than a few: the best moves by one cell are always tried
    (``layout_near_moves``: the layout's diagonals make a diagonal move score as well as the
    right one), each judged once refined there.
    """
    width, height = size
    for _, _, quad, info in sorted(candidates, key=lambda c: c[0], reverse=True)[
            :config.layout_rescues]:
        fit = layout_fit(colour.image, quad * colour.scale, config)
        moves = fit.next_door()[:config.layout_near_moves]
        # The squares' mirror symmetry knows a cell's move too (find_board's last word on it):
        # tried first, as the old finder took it.
        mirror = _mirror_move(colour, quad, config)[0] if is_grid_quad(quad * colour.scale) \
            else (0, 0)
        if mirror != (0, 0):
            moves = [mirror, *(m for m in moves if m != mirror)]
        far = fit.best_shift
        if (max(map(abs, far)) > 1 and fit.at(far) >= config.min_layout_score
                and fit.standing(far) >= config.layout_min_standing):
            moves.insert(0, far)
        for move in moves:
            moved = shifted(quad, move)
            if off_photo(moved, width, height, config):
                if (fit.at(move) >= config.min_layout_score
                        and fit.standing(move) >= config.layout_min_standing):
                    raise BoardNotFoundError(CUT_OFF, reason="cut off")
                continue
            refined, confidence, found = _settle(gray, moved * shrink, config, slide=False)
            refined = refined / shrink
            found.update(rough=info["rough"], hypothesis=info["hypothesis"], layout_move=move,
                         placed_by_layout=True,
                         layout=layout_fit(colour.image, refined * colour.scale, config,
                                           reach=0).score)
            rank = _rank(found, config)
            if rank[0]:
                return rank, confidence, refined, found
    return None


def _hopeless(
    gray: np.ndarray, rough: np.ndarray, best: Settled,
    config: LocateConfig, memo: Measured,
) -> bool:
    """Whether a further hypothesis can be dropped after one refinement round: its line
    support is far below that of the best one, which shows the premium layout (a full settle
    costs several times more, less the measurements kept in ``memo``). While no grid shows the
    layout, none is dropped: wood grain can out-support the board's lines."""
    if not best[0][0]:
        return False
    _, hits = refine(gray, rough, config, rounds=1, memo=memo)
    return float(hits.mean()) < best[3]["support"] - config.hopeless_support_gap


def _refine_copy(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig
) -> tuple[np.ndarray, float]:
    """The photo the refinement warps from, and its scale: lines are measured at
    ``refine_cell_px`` a cell, so a photo with cells several times that big is halved first
    (the same precision, a fraction of the pixels to warp). Only exact halvings: they cost a
    fraction of a millisecond, an area resize by another factor several milliseconds."""
    return _halved(gray_full, quad_cell_px(rough),
                   config.refine_source_cells * config.refine_cell_px)


def _halved(image: np.ndarray, cell: float, least_cell: float) -> tuple[np.ndarray, float]:
    """``image`` halved while its cells (``cell`` px) stay at least ``least_cell`` px, and the
    scale of the copy."""
    small = image
    while cell / 2 >= least_cell:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
        cell /= 2
    return small, small.shape[1] / image.shape[1]


def _same_quad(a: np.ndarray, b: np.ndarray, cells: float) -> bool:
    """Whether every corner of ``a`` lies within ``cells`` cells of some corner of ``b``."""
    distances = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2).min(axis=1)
    return bool(distances.max() < cells * quad_cell_px(b))


def grow_corners(quad: np.ndarray, cells: float) -> np.ndarray:
    """The quad moved ``cells`` outwards on every side, in the grid's own perspective."""
    if cells == 0:
        return quad
    grid = np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]], float)
    grown = grid + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * cells
    return apply_homography(grid_homography(quad), grown)[0]


def _settle(
    gray_full: np.ndarray, rough: np.ndarray, config: LocateConfig, check_period: bool = True,
    memo: Measured | None = None, slide: bool = True,
) -> tuple[np.ndarray, float, dict]:
    """Refine a rough quad onto the lines, slide it by whole cells if the squares say so (and
    ``slide``: not a grid the premium layout placed), and rate it: confidence = share of grid
    lines seen x how much the 225 squares look like squares. A grid on every other line is also
    tried at twice the cell size (:func:`vision.board.refine.doubled_grid`). ``memo``: line
    profiles already measured from ``rough`` (see :func:`vision.board.refine._measure`).
    """
    refined, hits = refine(gray_full, rough, config, memo=memo)
    moved = fix_grid_shift(gray_full, refined, config, fixed=not slide)
    if moved.shift != (0, 0):
        refined, hits = refine(gray_full, moved.corners, config)
    support = float(hits.mean())
    squares = float(np.clip(moved.cellness / config.cellness_full, 0.0, 1.0))
    confidence = float(np.clip(support, 0.0, 1.0)) * squares
    info = {"support": support, "shift": moved.shift, "shift_gain": moved.gain,
            "cellness": moved.cellness, "ring": moved.ring, "ring_cut": moved.ring_cut,
            "axis_support": tuple(float(v) for v in hits.mean(axis=1)), "line_hits": hits}
    if check_period and support < config.good_enough:
        bigger = doubled_grid(refined, hits, config)
        if bigger is not None and _plausible(bigger, gray_full.shape[1], gray_full.shape[0]):
            other = _settle(gray_full, bigger, config, check_period=False)
            # Only squares that convincingly look like squares may replace a grid that fits.
            convincing = other[2]["cellness"] >= config.cellness_full
            if convincing and _rank(other[2], config) > _rank(info, config):
                other[2]["doubled"] = True
                return other
    return refined, confidence, info


def _rank(info: dict, config: LocateConfig) -> Rank:
    """How good a settled grid is: first whether its squares show the premium layout
    (``info["layout"]``, when measured) and its lines hold (:func:`_lines_hold`), then how well
    the lattice fits and how much the 225 windows look like squares (support cannot tell a grid
    shifted by whole cells, cellness can)."""
    shows_layout = info.get("layout", 1.0) >= config.min_layout_score and _lines_hold(info, config)
    return shows_layout, info["support"] + config.cellness_weight * min(info["cellness"], 2.5)


def _lines_hold(info: dict, config: LocateConfig) -> bool:
    """Whether a settled grid's lines make it a board at all: enough of them seen where it says,
    around squares that look like squares (``min_confidence``), and both families of them
    (``min_axis_support``: a grid whose one axis sits on wood grain or table edges can still
    collect half its support from the other axis). Or its squares show the premium layout so
    clearly (``layout_whole``) that faint lines are a soft photo's, not a table's lattice."""
    if info.get("layout", 0.0) >= config.layout_whole:
        return True
    squares = float(np.clip(info["cellness"] / config.cellness_full, 0.0, 1.0))
    confidence = float(np.clip(info["support"], 0.0, 1.0)) * squares
    return (confidence >= config.min_confidence
            and min(info["axis_support"]) >= config.min_axis_support)


def _raise_if_blurry(gray_work: np.ndarray, config: LocateConfig) -> None:
    """Refuse as too blurry a photo whose board could not be found, if it is soft
    (``blur_laplacian_var``) and yet shows the straight edges of something (a board's frame and
    squares stay straight lines on a small copy, where the blur is below a pixel): a smooth
    image of nothing, noise blurred or a wall, has no board to find, and hears so."""
    measure = _blur_measure(gray_work)
    if (measure < config.blur_laplacian_var and float(gray_work.std()) > 8
            and _straight_edges(gray_work) >= config.blurred_min_straight):
        raise ImageQualityError(f"photo too blurry to find the board (sharpness {measure:.0f})",
                                reason="too blurry")


def _straight_edges(gray: np.ndarray) -> float:
    """The length of the long straight edges (over a tenth of the side) in copies 160 and 320
    px across, in those sides, averaged: 4-10 for a board blurred by 5-16 px at 1600 px, under
    2.5 for smooth noise of any grain (``tests/test_refusals.py``)."""
    lengths = []
    for side in (160, 320):
        small = downscale(gray, min(1.0, side / max(gray.shape)))
        found = cv2.createLineSegmentDetector(cv2.LSD_REFINE_STD).detect(small)[0]
        if found is None:
            lengths.append(0.0)
            continue
        segs = found.reshape(-1, 4)
        length = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
        lengths.append(float(length[length > max(small.shape) / 10].sum()) / max(small.shape))
    return float(np.mean(lengths))


def _plausible(quad: np.ndarray, width: int, height: int) -> bool:
    """A rough quad worth refining: a convex quad going round clockwise
    (:func:`vision.board.grid.is_grid_quad`), not tiny, not absurdly bigger than the photo."""
    if not is_grid_quad(quad):
        return False
    area = abs(cv2.contourArea(quad.astype(np.float32)))
    return 0.005 * width * height <= area <= 50 * width * height


__all__ = ["SIDES", "BoardLocation", "check_quality", "downscale", "find_board", "grow_corners",
           "south_at", "south_at_bottom"]
