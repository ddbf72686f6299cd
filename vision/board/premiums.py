"""Rough grids from the premium squares: where a board is, found by its coloured squares alone.

Why: the line search (:mod:`vision.board.roughgrids`) needs the grid's thin lines to out-weigh
everything else in the photo, and on a grained table, a washed-out or shadowed board or a steep
view they do not: on the stress set's scenes refused as "no board" that were traced (a clean,
red-framed board top-down on fine wood among them), no line hypothesis lay within four cells of
the board, while a person sees the board at once by its few dozen coloured squares. Those
squares are what this module looks for; it is a second, independent way to a rough grid, asked
only on the finder's second look at a photo (:func:`vision.board.locate.find_board`), and its
grids are refined and judged like every other hypothesis.

It knows no colours: a premium square is a patch of one colour on a board of another, whatever
the two are (red and blue on cream, on green, on grey). The steps:

1. Colour blobs: maximally stable regions (MSER) of the a* and b* channels of a lightly smoothed
   Lab copy, both signs, kept when compact, nearly convex and about square under perspective.
2. Groups: blobs linked while within ``premium_link_sizes`` of their own size of each other; the
   biggest groups are the candidates (a board's premium squares lie at most three cells apart,
   so a sheet of paper or a cloth's pattern off the board forms a group of its own). Where the
   plain squares are blobs too (the lines round them), they have the colour most of the group's
   hull has, the board's own: those are dropped.
3. A lattice grown from the blobs, as checkerboard finders grow one (:func:`_lattice_grid`).
   The outermost blobs found need not lie on the edge rows and columns (a light square or one
   under a printed label is often missed, on a small or steep board most are), so the board's
   edge is not sought from them; each blob is itself a cell seen in perspective, and tells the
   lattice. First the view's perspective is undone, bar an affine part: a cell's area in the
   image goes as the cube of (l . x), ``l`` the vanishing line, so a plane fitted to the cube
   roots of the blobs' areas gives it (:func:`_flattening`). Then from a seed blob, its
   outline's four corners the first cell frame, the blobs that land near lattice points
   nearest the blobs taken join, round by round, and the map is refitted to them, until none
   joins (:func:`_grown`); a few seeds, biggest first.
4. Placed on the board: the 15 x 15 window of the lattice in which the most blobs lie on a
   known layout's premium squares, turned or mirrored (:func:`_placed`). Only if nearly all
   the lattice's blobs do and no other window comes close: a few sparse blobs fit some window
   by chance, and on ruled paper, where every square is a blob alike, many windows fit alike.
5. Fitted to the layout: each blob of the group paired with the nearest premium square of
   the grid so placed, the homography refitted to the pairs (RANSAC), a few times, per known
   layout; the layout that pairs the most blobs gives the grid. It is offered only if most
   blobs inside it lie on premium squares (``premium_on_squares``), the blobs the lattice left
   out among them: on ruled paper and colour noise the layout's squares are hit only by
   chance.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.board.grid import GRID_CORNERS, clockwise
from vision.board.layout import premium_kinds
from vision.board.rectify import SIZE
from vision.board.tuning import LocateConfig

_GRID = GRID_CORNERS.astype(np.float32)


def premium_quads(bgr: np.ndarray, config: LocateConfig) -> list[np.ndarray]:
    """Rough grids (4x2 corners in ``bgr``'s pixels, clockwise) where groups of colour blobs
    lie like a board's premium squares, biggest group first; ``bgr`` is a copy of the photo
    about ``config.premium_px`` across."""
    lab = cv2.GaussianBlur(cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab), (3, 3), 0)
    centres, sizes, colours, outlines = _colour_blobs(lab, config)
    if len(centres) < config.premium_min_blobs:
        return []
    groups = _groups(centres, config.premium_link_sizes * float(np.median(sizes)), lab.shape)
    quads = []
    for label in np.argsort(-np.bincount(groups))[:config.premium_groups]:
        members = groups == label
        if members.sum() < config.premium_min_blobs:
            break
        # Where the plain squares show as blobs too (lines round them), they are the board's
        # own colour, the colour most of the group's hull has: premium squares are not.
        members &= _unlike_the_hull(lab, centres[members], colours, config)
        if members.sum() < config.premium_min_blobs:
            continue
        chosen = np.nonzero(members)[0]
        quad = _lattice_grid(centres[chosen], [outlines[i] for i in chosen], config)
        if quad is None:
            continue
        fitted, share = _fitted_to_layout(quad, centres[members], config)
        if share >= config.premium_on_squares:
            quads.append(fitted)
    return quads


def _unlike_the_hull(lab: np.ndarray, members: np.ndarray, colours: np.ndarray,
                     config: LocateConfig) -> np.ndarray:
    """Which blobs' colours (a*, b*) lie over ``premium_unlike_board`` from the median colour
    inside the convex hull of ``members`` (a group's blob centres)."""
    mask = np.zeros(lab.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(members.astype(np.int32)), 1)
    inside = lab[mask.astype(bool)][:, 1:].astype(np.float64)
    board = np.median(inside, axis=0) if len(inside) else np.zeros(2)
    return np.linalg.norm(colours - board, axis=1) > config.premium_unlike_board


def _colour_blobs(lab: np.ndarray, config: LocateConfig
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """Centres (N x 2), sizes (square roots of their hulls' areas), mean colours (a*, b*) and
    outlines (convex hulls) of the patches of one colour in a Lab image that could be premium
    squares (step 1); a patch found in two channels counts once."""
    max_area = int(config.premium_max_area * lab.shape[0] * lab.shape[1])
    mser = cv2.MSER_create(  # type: ignore[attr-defined]
        delta=config.premium_mser_delta, min_area=config.premium_min_area,
        max_area=max(max_area, config.premium_min_area + 1), max_variation=0.5)
    regions = [region for channel in (lab[:, :, 1], lab[:, :, 2])
               for image in (channel, 255 - channel) for region in mser.detectRegions(image)[0]]
    if len(regions) > config.premium_max_regions:
        # Texture or noise, not a board's few dozen squares (and each region costs Python time).
        return np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2)), []
    found: list[tuple[np.ndarray, float, np.ndarray, np.ndarray]] = []
    for region in regions:
        hull = cv2.convexHull(region.reshape(-1, 1, 2))
        area = float(cv2.contourArea(hull))
        if area <= 0 or len(region) / area < config.premium_solidity:
            continue
        _, (width, height), _ = cv2.minAreaRect(hull)
        if (width * height <= 0 or area / (width * height) < config.premium_squareness
                or max(width, height) > 3 * min(width, height)):
            continue
        colour = lab[region[:, 1], region[:, 0], 1:].mean(axis=0)
        found.append((region.mean(axis=0), area, colour, hull))
    if not found:
        return np.zeros((0, 2)), np.zeros(0), np.zeros((0, 2)), []
    found.sort(key=lambda blob: -blob[1])
    centres = np.array([blob[0] for blob in found], np.float64)
    sizes = np.sqrt(np.array([blob[1] for blob in found], np.float64))
    # MSER nests regions (a square's inside within the square): the biggest stands for all.
    kept = np.zeros(len(found), bool)
    for i in range(len(found)):
        near = np.hypot(*(centres[kept] - centres[i]).T) < 0.3 * sizes[kept]
        kept[i] = not near.any()
    return (centres[kept], sizes[kept], np.array([blob[2] for blob in found], np.float64)[kept],
            [blob[3] for blob, keep in zip(found, kept, strict=True) if keep])


_BLOB_HALF = 0.46
"""Half a blob's side in cells: the enclosing four-gon of a premium square's blob (the square
less its outline, antialiased) measured 0.45-0.48 cells from its centre on the stress set."""

_FLAT_AGREE = 0.15
"""How far (a share) the cube root of a blob's area may lie from the plane fitted to them all
and still count as one cell: blobs of one cell lie within 0.1 of it."""

_SIGNS = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
"""A unit square's corners, clockwise on screen (y down) from the top left, in half sides."""


def _lattice_grid(centres: np.ndarray, outlines: list[np.ndarray], config: LocateConfig
                  ) -> np.ndarray | None:
    """The grid (4x2 corners) of the lattice grown from a group's blobs (step 3), placed where
    the most of its blobs lie on premium squares, when that window clearly fits best; None
    when no seed grows a lattice that places so."""
    quads = np.array([_blob_quad(outline) for outline in outlines])
    flat, seeds = _flattening(centres, quads)
    flat_centres = _mapped(flat, centres)
    flat_quads = _mapped(flat, quads.reshape(-1, 2)).reshape(-1, 4, 2)
    best: tuple[int, np.ndarray] | None = None
    for seed in seeds[:config.premium_lattice_seeds]:
        to_flat, cells = _grown(seed, flat_centres, flat_quads, config)
        if len(cells) >= config.premium_min_blobs:
            placed = _placed(cells, config)
            if placed is not None and (best is None or placed[0] > best[0]):
                best = (placed[0], _mapped(np.linalg.inv(flat) @ to_flat, placed[1]))
            if len(cells) >= config.premium_lattice_done * len(centres):
                break  # a seed that gathered nearly every blob: others grow the same lattice
    return None if best is None else best[1]


def _blob_quad(outline: np.ndarray) -> np.ndarray:
    """The four corners (clockwise) of a blob's outline, one cell of the grid seen; NaN where
    the outline has no four-sided enclosure."""
    quad = cv2.approxPolyN(outline.astype(np.float32), 4, ensure_convex=True).reshape(-1, 2)
    return clockwise(quad.astype(np.float64)) if len(quad) == 4 else np.full((4, 2), np.nan)


def _flattening(centres: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """A plane projective map (3x3) that undoes the view's perspective, all but an affine part,
    and the blobs that agree with it, biggest first (the seeds).

    Why: the cells shrink towards the far side of a slanted board, by a tenth every three cells
    on a steep view, so a lattice stepped out from one blob's cell, or from a few blobs in a
    row, lands whole cells off. But the shrinking tells where the horizon is: under a
    homography with the vanishing line ``l`` (points x, y, 1 with l . x = 0), a cell's area in
    the image goes as (l . x) cubed, so the cube root of the blobs' areas is linear in their
    position. That plane, fitted to every blob (blobs that are not one cell, such as a square
    and its neighbour run together, left out), gives ``l``; mapping x to x / (l . x) leaves the
    lattice affine, every cell alike."""
    valid = ~np.isnan(quads).any(axis=(1, 2))
    areas = np.zeros(len(quads))
    areas[valid] = [cv2.contourArea(quad.astype(np.float32)) for quad in quads[valid]]
    roots = np.cbrt(areas)
    design = np.column_stack([centres, np.ones(len(centres))])
    biggest = [int(i) for i in np.argsort(-areas) if areas[i] > 0]
    agree = areas > 0
    for _ in range(3):
        if agree.sum() < 6:
            return np.eye(3), biggest
        plane = np.linalg.lstsq(design[agree], roots[agree], rcond=None)[0]
        predicted = design @ plane
        if (predicted <= 0).any():  # the horizon among the blobs: no plane fits
            return np.eye(3), biggest
        agree = (areas > 0) & (np.abs(roots / predicted - 1) < _FLAT_AGREE)
    flat = np.eye(3)
    flat[2] = plane / np.median(predicted)
    return flat, [i for i in biggest if agree[i]]


def _mapped(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Points (N x 2) through a plane projective map."""
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                    homography).reshape(-1, 2)


def _grown(seed: int, centres: np.ndarray, quads: np.ndarray, config: LocateConfig
           ) -> tuple[np.ndarray, dict[int, tuple[int, int]]]:
    """A lattice grown from blob ``seed`` as checkerboard finders grow one: the seed's outline
    gives the first cell frame; then, round by round, the blobs that land near a lattice point
    (``premium_lattice_off``) nearest the blobs taken join there, and the map (lattice to
    image, 3x3) is refitted to the blobs taken, their centres and outline corners. Where a
    round's joining would move a taken blob off its point, only its surest blob may join, and
    if that too moves one, it stays out. Returns the map and each taken blob's lattice point
    (the seed at 0, 0; a cell's centre at integers)."""
    to_image = _fitted(_SIGNS * _BLOB_HALF, quads[seed])
    cells = {seed: (0, 0)}
    refused: set[int] = set()
    while True:
        on_lattice = _mapped(np.linalg.inv(to_image), centres)
        nearest = np.round(on_lattice)
        off = np.abs(on_lattice - nearest).max(axis=1)
        taken = np.array(list(cells.values()), np.float64)
        steps = np.abs(nearest[:, None] - taken[None]).max(axis=2).min(axis=1)
        free = np.ones(len(centres), bool)
        free[list(cells) + list(refused)] = False
        free &= (off < config.premium_lattice_off) & (steps <= config.premium_lattice_reach)
        round_: dict[tuple[int, int], int] = {}
        if free.any():
            ring = np.nonzero(free & (steps == steps[free].min()))[0]
            for i in ring[np.argsort(off[ring])]:
                point = (int(nearest[i, 0]), int(nearest[i, 1]))
                if point not in round_ and point not in cells.values():
                    round_[point] = int(i)
        if not round_:
            return to_image, cells
        for joining in (list(round_.items()), [next(iter(round_.items()))]):
            trial = {**cells, **{i: point for point, i in joining}}
            refitted = _refitted(to_image, centres, quads, trial)
            members = list(trial)
            held = _mapped(np.linalg.inv(refitted), centres[members]) - list(trial.values())
            if np.abs(held).max() < config.premium_lattice_off:
                cells, to_image = trial, refitted
                break
        else:
            refused.add(next(iter(round_.values())))


def _refitted(to_image: np.ndarray, centres: np.ndarray, quads: np.ndarray,
              cells: dict[int, tuple[int, int]]) -> np.ndarray:
    """The lattice-to-image map refitted to the taken blobs: their centres (counted twice, as
    surer than corners) and their outlines' corners, each paired with the corner of its cell it
    lies nearest under the present map (where the four pair with four corners)."""
    members = np.array(list(cells))
    points = np.array(list(cells.values()), np.float64)
    corners = quads[members]
    valid = ~np.isnan(corners).any(axis=(1, 2))
    signs = np.sign(_mapped(np.linalg.inv(to_image), corners[valid].reshape(-1, 2)).reshape(
        -1, 4, 2) - points[valid][:, None])
    codes = np.sort((signs[:, :, 0] > 0) * 2 + (signs[:, :, 1] > 0), axis=1)
    whole = (codes == np.arange(4)).all(axis=1)
    lattice = np.concatenate([points, points, (points[valid][whole][:, None]
                                               + signs[whole] * _BLOB_HALF).reshape(-1, 2)])
    image = np.concatenate([centres[members], centres[members],
                            corners[valid][whole].reshape(-1, 2)])
    spread = np.ptp(points, axis=0)
    return _fitted(lattice, image, homography=len(cells) >= 5 and spread.min() >= 2)


def _fitted(lattice: np.ndarray, image: np.ndarray, homography: bool = False) -> np.ndarray:
    """The lattice-to-image map (3x3) that fits the pairs best (least squares): affine, or a
    homography where asked (the pairs spread enough to pin its perspective) and one is found."""
    if homography:
        fitted, _ = cv2.findHomography(lattice.astype(np.float32), image.astype(np.float32), 0)
        if fitted is not None:
            return fitted
    affine = np.linalg.lstsq(np.column_stack([lattice, np.ones(len(lattice))]), image,
                             rcond=None)[0]
    return np.vstack([affine.T, [0.0, 0.0, 1.0]])


def _placed(cells: dict[int, tuple[int, int]], config: LocateConfig
            ) -> tuple[int, np.ndarray] | None:
    """Where on the board a lattice's blobs lie: the 15 x 15 window of lattice points in which
    the most of them land on premium squares (of any known layout, turned or mirrored), and how
    many do; the window's corners are in lattice units. None unless nearly all the blobs land
    so (``premium_lattice_on``) and no other window comes within ``premium_lattice_margin``
    blobs of it: a few sparse blobs fit some window by chance, and a lattice of squares alike
    (ruled paper) fits many windows alike."""
    points = np.array(list(cells.values()))
    points -= points.min(axis=0)
    span = points.max(axis=0)
    pad = int(span.max()) + SIZE
    origins_x = np.arange(-(SIZE - 1), span[0] + 1)
    origins_y = np.arange(-(SIZE - 1), span[1] + 1)
    columns = points[None, :, 0] - origins_x[:, None] + pad  # (origins, blobs)
    rows = points[None, :, 1] - origins_y[:, None] + pad
    hits = np.zeros((len(origins_y), len(origins_x)), np.int64)
    for premium in _premium_maps():
        padded = np.zeros((SIZE + 2 * pad, SIZE + 2 * pad), np.int64)
        padded[pad:pad + SIZE, pad:pad + SIZE] = premium
        hits = np.maximum(hits, padded[rows[:, None, :], columns[None, :, :]].sum(axis=2))
    ranked = np.sort(hits, axis=None)
    best, runner_up = int(ranked[-1]), int(ranked[-2]) if ranked.size > 1 else 0
    if (best < config.premium_min_blobs or best < config.premium_lattice_on * len(points)
            or best - runner_up < config.premium_lattice_margin):
        return None
    row, column = np.unravel_index(int(np.argmax(hits)), hits.shape)
    lowest = np.array(list(cells.values())).min(axis=0)
    origin = np.array([origins_x[column], origins_y[row]]) + lowest
    return best, GRID_CORNERS + origin - 0.5


@cache
def _premium_maps() -> tuple[np.ndarray, ...]:
    """Where the premium squares are ((15, 15), 1 on one), per known layout turned and mirrored
    every way, each distinct map once (a layout symmetric about the middle gives one)."""
    maps: list[np.ndarray] = []
    for kinds in premium_kinds():
        premium = (kinds != 0).astype(np.int64)
        for turned in (premium, premium.T):
            for image in (turned, turned[::-1], turned[:, ::-1], turned[::-1, ::-1]):
                if not any(np.array_equal(image, seen) for seen in maps):
                    maps.append(np.ascontiguousarray(image))
    return tuple(maps)


def _groups(points: np.ndarray, link: float, shape: tuple[int, ...]) -> np.ndarray:
    """A group number for each point of an image of ``shape``: points closer than ``link``
    share one (single linkage), found as the connected parts of discs of radius ``link`` / 2
    drawn round them (linear in the pixels, where pairing the points is quadratic in them)."""
    discs = np.zeros(shape[:2], np.uint8)
    radius = max(1, int(round(link / 2)))
    for x, y in np.round(points).astype(int):
        cv2.circle(discs, (int(x), int(y)), radius, 255, -1)
    _, labels = cv2.connectedComponents(discs, connectivity=8)
    rows = np.clip(np.round(points[:, 1]).astype(int), 0, shape[0] - 1)
    cols = np.clip(np.round(points[:, 0]).astype(int), 0, shape[1] - 1)
    return np.unique(labels[rows, cols], return_inverse=True)[1]


def _fitted_to_layout(quad: np.ndarray, centres: np.ndarray, config: LocateConfig
                      ) -> tuple[np.ndarray, float]:
    """``quad`` refitted to the blobs that lie on premium squares (step 5), for the layout that
    pairs the most blobs, and the share of the blobs inside that grid that lie on its premium
    squares: 0.9 and more where the quad is on a board, under 0.25 on a plain lattice (every
    square a blob alike) or colour noise, where the squares are only hit by chance."""
    best_pairs, best, best_share = -1, quad, 0.0
    points = centres.reshape(-1, 1, 2).astype(np.float32)
    for kinds in premium_kinds():
        rows, cols = np.nonzero(kinds)
        premium = np.column_stack([cols + 0.5, rows + 0.5]).astype(np.float32)
        current = quad
        for fits in range(config.premium_refits + 1):
            to_grid = cv2.getPerspectiveTransform(current.astype(np.float32), _GRID)
            on_grid = cv2.perspectiveTransform(points, to_grid).reshape(-1, 2)
            distance = np.linalg.norm(on_grid[:, None] - premium[None], axis=2)
            nearest = distance.argmin(axis=1)
            paired = distance[np.arange(len(on_grid)), nearest] < config.premium_pair_cells
            inside = np.all((on_grid >= 0) & (on_grid <= SIZE), axis=1)
            pairs, share = int(paired.sum()), float(paired[inside].mean()) if inside.any() else 0.0
            if fits == config.premium_refits or pairs < config.premium_min_blobs:
                break
            homography, _ = cv2.findHomography(premium[nearest[paired]],
                                                   centres[paired].astype(np.float32),
                                                   cv2.RANSAC, config.premium_ransac_px)
            if homography is None:
                break
            current = cv2.perspectiveTransform(_GRID.reshape(-1, 1, 2),
                                               homography).reshape(4, 2).astype(np.float64)
        if pairs > best_pairs:
            best_pairs, best, best_share = pairs, current, share
    return clockwise(best), best_share


__all__ = ["premium_quads"]
