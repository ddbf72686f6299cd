"""The lattice of cells inside a candidate region: found, checked and fitted to the photo.

Whatever marks a board's cells (cut grooves, printed outlines, round hollows) and whatever lies
on them (stones of any colour, or none), the board's edges of light and colour repeat from cell
to cell. Seen through a map that roughly undoes the camera's tilt (the candidate's hexagon made
regular, or its ellipse made round), that repetition is three pairs of peaks in the spectrum of
the board's gradients, 60 degrees apart: they give the cells' width and the lattice's turn, and
their phases where the cells are. The phases alone cannot tell a cell's centre from the middle
of an edge or a corner between cells; the board turned by 60 degrees about a cell's centre
looks the same, about the others it does not, and that decides. A lattice finer than the cells
(cells and corners together) is caught the same way: its points come in looks of two kinds.

Then the fit is made exact where it counts, at the cells: the same three frequencies,
demodulated and pooled over a cell, tell at every cell how far its pattern lies from where the
current homography puts it, and a new homography is fitted to those measured centres, from the
middle out. A table's texture has no such lattice, so how much of each cell's pattern agrees
with the lattice (``coherence``) is what tells a board from a patch of table.

Which lattice point is the board's centre cell is settled last (:func:`_plate_centre`): about
it, and no other, the board's six sides look alike and the cells end ``size - 1`` steps out on
every side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.hexboard.geometry import (
    LATTICE,
    SQRT3,
    cell_points,
    hexagon,
    playing_radius,
)

PPC = 12
"""Pixels per cell of the rectified copies the lattice is measured in."""

ASSUMED_MARGIN = 0.9  # cells of plate beyond the playing area, before the lattice says
MARGINS = (-1.0, 3.0)  # the candidate may be the playing area, a printed frame or the plate
FIRST_COHERENCE = 0.3  # a first look at a lattice: its cells must agree this much
AGREEING = 0.55  # ... and a board's cells agree this much
POOL_CELLS = 0.6  # how far (sigma, cells) the demodulated phases are pooled about a cell
PROFILE_REACH = 3.5  # cells beyond the playing area's edge the side profiles look
PROFILE_STEP = 0.05
PROFILE_SMOOTH = 0.08  # cells
MAX_SHIFT = 3  # lattice steps about the candidate's centre the true one is looked for
FINE_LIKENESS = 0.35  # classes of lattice points less alike than this: a lattice too fine

UPRIGHT = np.linalg.inv(LATTICE.T) / PPC
"""Reciprocal basis (rows: cycles per rectified pixel) of an upright lattice at ``PPC``."""


@dataclass(frozen=True)
class Lattice:
    """A board's cells in the photo.

    ``homography`` maps the board frame (cell widths, centre cell at the origin, lines along x;
    any of the six turns) to photo pixels. ``coherence`` is the median share of a cell's pattern
    that agrees with the lattice (near 1 for a board, about 0 for a table's texture);
    ``cell_coherence`` that share for each cell (:func:`cell_points` order); ``symmetry`` how
    well opposite sides mirror each other about the centre found (1 perfectly).
    """

    homography: np.ndarray
    coherence: float
    cell_coherence: np.ndarray
    symmetry: float


def _warp(gray: np.ndarray, frame_to_photo: np.ndarray, extent: float
          ) -> tuple[np.ndarray, np.ndarray]:
    """``gray`` resampled over [-extent, extent]^2 of a frame at ``PPC`` pixels a unit, and the
    matrix taking those pixels to photo pixels."""
    side = int(math.ceil(2 * extent * PPC))
    to_frame = np.array([[1 / PPC, 0, -extent + 0.5 / PPC], [0, 1 / PPC, -extent + 0.5 / PPC],
                         [0, 0, 1]])
    matrix = frame_to_photo @ to_frame
    rectified = cv2.warpPerspective(gray, matrix, (side, side),
                                    flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                    borderMode=cv2.BORDER_REPLICATE)
    return rectified, matrix


def _edges(rectified: np.ndarray) -> np.ndarray:
    """The pattern the lattice is seen in: gradient magnitude of a lightly smoothed copy."""
    smooth = cv2.GaussianBlur(rectified, (0, 0), 0.8)
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    return cv2.magnitude(gx, gy)


def _power(pattern: np.ndarray, window: np.ndarray) -> tuple[np.ndarray, int]:
    """The windowed pattern's power spectrum, zero frequency in the middle, and its size."""
    side = pattern.shape[0]
    n = cv2.getOptimalDFTSize(side)
    weighted = (pattern - float((pattern * window).sum() / max(float(window.sum()), 1e-6)))
    padded = np.zeros((n, n), np.float32)
    padded[:side, :side] = weighted * window
    spectrum = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
    power = spectrum[:, :, 0] ** 2 + spectrum[:, :, 1] ** 2
    return np.fft.fftshift(power), n


def _refined_peak(power: np.ndarray, y: int, x: int) -> np.ndarray:
    n = power.shape[0]
    y0, y1, x0, x1 = max(y - 1, 0), min(y + 2, n), max(x - 1, 0), min(x + 2, n)
    patch = power[y0:y1, x0:x1]
    weights = patch / max(float(patch.sum()), 1e-12)
    return np.array([float((weights * np.arange(x0, x1)[None, :]).sum()),
                     float((weights * np.arange(y0, y1)[:, None]).sum())])


@lru_cache(maxsize=8)
def _polar(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each bin's radius and angle (degrees) of an fftshifted n x n spectrum, and whether it
    lies in the lower half plane."""
    ys, xs = np.mgrid[0:n, 0:n]
    fx, fy = (xs - n // 2).astype(np.float64), (ys - n // 2).astype(np.float64)
    return np.hypot(fx, fy), np.degrees(np.arctan2(fy, fx)), fy >= 0


def _six_folds(power: np.ndarray, low: float, high: float, tries: int = 4,
               skew: float = 1.0) -> list[tuple[np.ndarray, float]]:
    """Hexagonal lattices in a power spectrum whose peaks lie ``low``-``high`` bins out, the
    most prominent first: each a reciprocal basis (rows b1, b2 in bins; b1 + b2 is a peak
    too) and its weakest peak over the spectrum's median there. Several, because the finer
    shells of a honeycomb's harmonics are lattices too and may stand out more than the
    cells' own. ``skew`` widens how far from 60 degrees apart and from equal length the peaks
    may be (a lattice seen at a slant, not yet rectified)."""
    n = power.shape[0]
    radius, angle, lower = _polar(n)
    # Only the bins a peak may be in (one half plane: P(f) = P(-f)), as flat arrays.
    band = lower & (radius >= low / (1.4 * skew)) & (radius <= high * 1.4 * skew)
    flat = np.flatnonzero(band)
    r, a, p = radius.ravel()[flat], angle.ravel()[flat], power.ravel()[flat]
    annulus = (r >= low) & (r <= high)
    if not annulus.any():
        return []
    background = max(float(np.median(p[annulus])), 1e-12)
    values = np.where(annulus, p, -1.0)
    found: list[tuple[np.ndarray, float]] = []
    for _ in range(tries):
        best = int(np.argmax(values))
        if values[best] <= 0:
            break
        y, x = divmod(int(flat[best]), n)
        first = _refined_peak(power, y, x) - n // 2
        length = float(np.linalg.norm(first))
        base = math.degrees(math.atan2(first[1], first[0]))
        # Not this peak again, nor the others of its lattice.
        for turn in (0.0, 60.0, 120.0):
            off = np.abs((a - base - turn + 90) % 180 - 90)
            values[(off <= 8) & (np.abs(r - length) <= max(2.0, 0.08 * length))] = -1.0
        peaks = [first]
        strengths = [float(power[y, x])]
        for turn in (60.0, 120.0):
            target = base + turn
            off = np.abs((a - target + 90) % 180 - 90)  # the peak or its mirror
            near = (off <= 12 * skew) & (r >= length / (1.33 * skew)) & (
                r <= length * 1.33 * skew)
            if not near.any():
                break
            py, px = divmod(int(flat[int(np.argmax(np.where(near, p, -1.0)))]), n)
            peak = _refined_peak(power, py, px) - n // 2
            # The representative pointing within 90 degrees of ``target``.
            if math.cos(math.radians(math.degrees(math.atan2(peak[1], peak[0])) - target)) < 0:
                peak = -peak
            peaks.append(peak)
            strengths.append(float(power[py, px]))
        if len(peaks) < 3:
            continue
        b1, b3, b2 = peaks  # b1 at base, b1 + b2 at base + 60, b2 at base + 120
        if np.linalg.norm(b1 + b2 - b3) > 0.2 * skew * length:
            continue
        basis = np.array([(2 * b1 - b2 + b3) / 3, (2 * b2 - b1 + b3) / 3])
        found.append((basis, min(strengths) / background))
    found.sort(key=lambda item: -item[1])
    return found


def _coefficients(pattern: np.ndarray, basis: np.ndarray, points: np.ndarray,
                  sigma: float) -> np.ndarray:
    """At each of ``points`` (N, 2 pixels), the pattern's local Fourier coefficient at each of
    the lattice's three frequencies (rows b1, b2 and b1 + b2 of ``basis``, cycles per pixel):
    the sum of the pattern times the wave under a Gaussian window of ``sigma`` pixels about
    the point. (3, N) complex; the wave's phase is taken from the image's middle, so a
    pattern that moves by d turns its coefficient by exp(-2 pi i b.d).

    Summed from samples a fifth of a period apart rather than by blurring whole images: a
    board needs a couple of hundred points, not every pixel."""
    side = pattern.shape[0]
    spacing = 0.2 / float(np.linalg.norm(basis[1]))  # pixels between samples
    reach = int(math.ceil(2.0 * sigma / spacing))
    grid = np.arange(-reach, reach + 1) * spacing
    offsets = np.array([(x, y) for y in grid for x in grid])
    weights = np.exp(-(offsets ** 2).sum(axis=1) / (2 * sigma ** 2))
    weights /= weights.sum()
    where = points[:, None, :] + offsets[None, :, :]  # (N, M, 2)
    values = cv2.remap(pattern, where[..., 0].astype(np.float32),
                       where[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REFLECT)
    values = values - (values * weights).sum(axis=1, keepdims=True)
    stacked = np.array([basis[0], basis[1], basis[0] + basis[1]])
    # exp(-2 pi i b.(p + o - middle)) = exp(-2 pi i b.(p - middle)) exp(-2 pi i b.o)
    local = np.exp(-2j * np.pi * (offsets @ stacked.T)) * weights[:, None]  # (M, 3)
    at_points = np.exp(-2j * np.pi * ((points - side / 2) @ stacked.T))  # (N, 3)
    # Real times complex in two real products: numpy's mixed product is ten times slower.
    flat = np.ascontiguousarray(values, dtype=np.float64)
    summed = flat @ np.ascontiguousarray(local.real) + 1j * (
        flat @ np.ascontiguousarray(local.imag))
    return (summed * at_points).T


def axial_disc(radius: int) -> np.ndarray:
    """Axial (q, r) of every lattice point within ``radius`` steps of the origin."""
    points = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
              if max(abs(q), abs(r), abs(q + r)) <= radius]
    return np.array(points, dtype=np.int64)


def ring_distance(axial: np.ndarray) -> np.ndarray:
    q, r = axial[..., 0], axial[..., 1]
    return np.maximum(np.maximum(np.abs(q), np.abs(r)), np.abs(q + r))


@dataclass(frozen=True)
class _Cells:
    """Lattice points measured in one rectified copy."""

    predicted: np.ndarray  # where the current map puts them (rectified pixels)
    measured: np.ndarray  # where their patterns are
    fits: np.ndarray  # share of each one's pattern agreeing with the lattice


def _measure(pattern: np.ndarray, basis: np.ndarray, anchor: np.ndarray, axial: np.ndarray
             ) -> _Cells:
    """Measure the lattice points ``anchor + axial`` steps: each one's offset from where it is
    predicted, and how much of its pattern agrees with the lattice."""
    side = pattern.shape[0]
    steps = np.linalg.inv(basis)  # columns: the lattice steps in pixels
    cell = float(np.linalg.norm(steps[:, 0]))
    stacked = np.array([basis[0], basis[1], basis[0] + basis[1]])
    points = anchor + axial @ steps.T
    values = _coefficients(pattern, basis, points, POOL_CELLS * cell)
    waves = np.exp(2j * np.pi * ((points - side / 2) @ stacked.T)).T
    aligned = values * waves  # |C| e^{-2 pi i b.(actual - predicted)} times the pattern's sign
    # The points are cell centres (see _on_cells), so most agree on the pattern's sign there.
    sign = 1.0 if float(np.median(aligned.real.sum(axis=0))) >= 0 else -1.0
    aligned = aligned * sign
    energy = np.abs(values).sum(axis=0)
    floor = 0.15 * float(np.median(energy))
    fits = aligned.real.sum(axis=0) / (energy + max(floor, 1e-9))
    # Each point's offset d from b_k . d = -phase_k / 2 pi, weighted least squares over k.
    target = -np.angle(aligned) / (2 * np.pi)  # (3, N)
    w2 = np.abs(aligned) ** 2
    m = np.einsum("kn,ki,kj->nij", w2, stacked, stacked)
    v = np.einsum("kn,ki,kn->ni", w2, stacked, target)
    det = m[:, 0, 0] * m[:, 1, 1] - m[:, 0, 1] * m[:, 1, 0]
    det = np.where(np.abs(det) < 1e-12, 1e-12, det)
    offsets = np.column_stack([(m[:, 1, 1] * v[:, 0] - m[:, 0, 1] * v[:, 1]) / det,
                               (m[:, 0, 0] * v[:, 1] - m[:, 1, 0] * v[:, 0]) / det])
    return _Cells(points, points + offsets, fits)


def _anchor(pattern: np.ndarray, basis: np.ndarray, guess: np.ndarray) -> np.ndarray:
    """A lattice point near ``guess``: where the three frequencies' phases, pooled over a few
    cells, are all zero or all a half turn (the pattern's coefficients' sign is not known
    yet), read off by their closure b1 + b2 - (b1 + b2). That is a cell centre, an edge's
    middle or a corner between cells; :func:`_on_cells` says which."""
    side = pattern.shape[0]
    steps = np.linalg.inv(basis)
    cell = float(np.linalg.norm(steps[:, 0]))
    stacked = np.array([basis[0], basis[1], basis[0] + basis[1]])
    values = _coefficients(pattern, basis, guess[None, :], 2.5 * cell)[:, 0]
    local = values * np.exp(2j * np.pi * ((guess - side / 2) @ stacked.T))
    closure = np.angle(local[0] * local[1] * np.conj(local[2]))
    sign = 1.0 if abs(closure) < np.pi / 2 else -1.0
    phases = np.angle(local * sign)  # = -2 pi b_k . (point - guess)
    offset, *_ = np.linalg.lstsq(stacked, -phases / (2 * np.pi), rcond=None)
    return guess + offset


SYMMETRY_OFFSETS = np.array([[0, 0], [0.5, 0], [0, 0.5], [0.5, 0.5],
                             [1 / 3, 1 / 3], [2 / 3, 2 / 3]])
"""Lattice points and the other places a lattice's phases can settle on, in steps: the three
kinds of edge middle and the two kinds of corner between cells."""


def _on_cells(pattern: np.ndarray, basis: np.ndarray, anchor: np.ndarray,
              axial: np.ndarray) -> np.ndarray:
    """``anchor`` moved onto the cell centres: of the places a lattice's phases settle on,
    the one about which the board looks the same turned by 60 degrees. A cell (a stone, a
    hollow, an outline) is; the middle of an edge between two cells or a corner between
    three is not."""
    side = pattern.shape[0]
    steps = np.linalg.inv(basis)
    grid = np.linspace(-0.45, 0.45, 7)
    offsets = np.array([(x, y) for y in grid for x in grid])  # in cell widths
    turned = offsets @ np.array([[0.5, SQRT3 / 2], [-SQRT3 / 2, 0.5]])
    cell = float(np.linalg.norm(steps[:, 0]))
    scores = []
    both = np.vstack([offsets, turned]) * cell
    for shift in SYMMETRY_OFFSETS:
        points = anchor + steps @ shift + axial @ steps.T
        inside = ((points >= cell) & (points < side - cell)).all(axis=1)
        points = points[inside]
        if len(points) < 6:
            scores.append(np.inf)
            continue
        where = points[:, None, :] + both[None, :, :]
        sampled = cv2.remap(pattern, where[..., 0].astype(np.float32),
                            where[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REFLECT).mean(axis=0)
        here, there = sampled[:len(offsets)], sampled[len(offsets):]
        spread = max(float(np.abs(here - here.mean()).mean()), 1e-6)
        scores.append(float(np.abs(here - there).mean()) / spread)
    best = int(np.argmin(scores))
    return anchor + steps @ SYMMETRY_OFFSETS[best]


def _fit(canonical: np.ndarray, measured: np.ndarray, trusted: np.ndarray
         ) -> np.ndarray | None:
    if int(trusted.sum()) < 8:
        return None
    homography, _ = cv2.findHomography(canonical[trusted], measured[trusted], cv2.RANSAC,
                                       0.2 * PPC)
    return homography


def _first_map(gray: np.ndarray, frame_to_photo: np.ndarray, radius: float, size: int,
               window_shape: str) -> np.ndarray | None:
    """From a rough map (frame units: the candidate's radius is ``radius``) to a homography
    of the board frame, the centre cell at the lattice point nearest the candidate's centre."""
    extent = radius * 1.05
    rectified, to_photo = _warp(gray, frame_to_photo, extent)
    pattern = _edges(rectified)
    side = pattern.shape[0]
    window = np.zeros((side, side), np.float32)
    if window_shape == "hexagon":
        outline = hexagon(radius * 0.88 * PPC) + side / 2
        cv2.fillConvexPoly(window, np.round(outline * 16).astype(np.int32), 1.0, cv2.LINE_AA,
                           shift=4)
    else:
        cv2.circle(window, (side // 2, side // 2), int(radius * 0.8 * PPC), 1.0, -1)
    window = np.asarray(cv2.GaussianBlur(window, (0, 0), PPC * 0.6), dtype=np.float32)
    widths = [radius * PPC / (playing_radius(size) + margin) for margin in MARGINS]
    power, n = _power(pattern, window)
    # Of the lattices the spectrum shows, the finest whose cells agree: a coarser one (every
    # second cell, or every third along a diagonal) agrees as well, a finer one (its points
    # on the cells' edges and corners too) does not.
    best: tuple[float, float, np.ndarray] | None = None
    for basis, _ in _six_folds(power, n * 2 / (SQRT3 * max(widths)),
                               n * 2 / (SQRT3 * min(widths)), tries=6):
        basis = basis / n
        steps = np.linalg.inv(basis)
        cell = float(np.linalg.norm(steps[:, 0]) + np.linalg.norm(steps[:, 1])) / 2
        reach = int(radius * PPC / cell * 0.85)
        axial = axial_disc(max(2, reach))
        centre = _anchor(pattern, basis, np.array([side / 2, side / 2]))
        centre = _on_cells(pattern, basis, centre, axial_disc(max(2, reach // 2)))
        cells = _measure(pattern, basis, centre, axial)
        coherence = float(np.median(cells.fits))
        if coherence < FIRST_COHERENCE:
            continue
        # Near the middle only, where the spectrum's one lattice fits the perspective best.
        inner = ring_distance(axial) <= max(2, reach // 2)
        homography = _fit(axial @ LATTICE, cells.measured, (cells.fits > 0.3) & inner)
        if homography is None:
            continue
        agreeing = coherence >= AGREEING
        key = (1.0 if agreeing else 0.0, -cell if agreeing else coherence)
        if best is None or key > best[:2]:
            best = (key[0], key[1], to_photo @ homography)
    return None if best is None else best[2]


def _refine(gray: np.ndarray, board_to_photo: np.ndarray, size: int
            ) -> tuple[np.ndarray, _Cells, np.ndarray] | None:
    """The homography fitted again to the cells measured through it, from the middle out:
    a cell's offset is only known up to whole cells, so the fit first takes the cells near
    the middle, where the map is good, and reaches farther out as it gets better."""
    axial = axial_disc(size + 1)
    canonical = axial @ LATTICE
    rings = ring_distance(axial)
    reaches = sorted({min(3, size + 1), min(5, size + 1), size - 1, size + 1})
    cells: _Cells | None = None
    steps = [*reaches, size + 1]
    for reach in steps:
        extent = playing_radius(size) + 1.7
        rectified, to_photo = _warp(gray, board_to_photo, extent)
        pattern = _edges(rectified)
        side = pattern.shape[0]
        cells = _measure(pattern, UPRIGHT, np.array([side / 2, side / 2]), axial)
        homography = _fit(canonical, cells.measured, (cells.fits > 0.35) & (rings <= reach))
        if homography is None:
            return None
        board_to_photo = to_photo @ homography
    assert cells is not None
    return board_to_photo, cells, axial


def _side_profiles(edges: np.ndarray, size: int, shifts: np.ndarray, low: float,
                   high: float) -> np.ndarray:
    """For each centre ``shifts`` (lattice steps) and each of the playing area's six sides
    about it: the edge strength across the side, from ``low`` to ``high`` cells beyond the
    side's line, the mean along the side's middle (NaN off the photo). Shape (shifts, 6,
    distances), smoothed to the tenth of a cell a fitted homography is good to."""
    side = edges.shape[0]
    distances = np.arange(low, high, PROFILE_STEP) + playing_radius(size) * SQRT3 / 2
    along = np.linspace(-0.3, 0.3, 21) * playing_radius(size)
    angles = np.radians(270 + 60 * np.arange(6))
    normals = np.column_stack([np.cos(angles), np.sin(angles)])
    tangents = np.column_stack([-normals[:, 1], normals[:, 0]])
    offsets = shifts @ LATTICE  # (S, 2)
    points = (offsets[:, None, None, None, :]
              + distances[None, None, :, None, None] * normals[None, :, None, None, :]
              + along[None, None, None, :, None] * tangents[None, :, None, None, :])
    flat = (points * PPC + side / 2).reshape(-1, len(along), 2).astype(np.float32)
    values = cv2.remap(edges, np.ascontiguousarray(flat[..., 0]),
                       np.ascontiguousarray(flat[..., 1]), cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=np.nan)
    values = values.reshape(len(shifts), 6, len(distances), len(along))
    seen = ~np.isnan(values)
    count = seen.sum(axis=3)
    profiles = np.where(count > 0, np.where(seen, values, 0.0).sum(axis=3)
                        / np.maximum(count, 1), np.nan)
    # Off the photo: the side's typical value, so smoothing does not spread the gap.
    typical = np.where(~np.isnan(profiles), profiles, 0.0).sum(axis=2, keepdims=True) / \
        np.maximum((~np.isnan(profiles)).sum(axis=2, keepdims=True), 1)
    filled = np.where(np.isnan(profiles), typical, profiles).astype(np.float32)
    smooth = cv2.GaussianBlur(filled.reshape(-1, len(distances)), (0, 0),
                              sigmaX=PROFILE_SMOOTH / PROFILE_STEP, sigmaY=0.01)
    smooth = smooth.reshape(filled.shape)
    return np.where(np.isnan(profiles), np.nan, smooth)


def _mirroring(profiles: np.ndarray) -> np.ndarray:
    """For each centre, how alike its six side profiles are: the mean normalised correlation
    over the fifteen pairs of sides (each pair over the distances both see)."""
    pairs = [(i, j) for i in range(6) for j in range(i + 1, 6)]
    first = profiles[:, [i for i, _ in pairs], :]
    second = profiles[:, [j for _, j in pairs], :]
    both = ~np.isnan(first) & ~np.isnan(second)
    count = both.sum(axis=2)
    safe = np.maximum(count, 1)[..., None]
    a = np.where(both, first, 0.0)
    b = np.where(both, second, 0.0)
    a = np.where(both, a - a.sum(axis=2, keepdims=True) / safe, 0.0)
    b = np.where(both, b - b.sum(axis=2, keepdims=True) / safe, 0.0)
    correlation = (a * b).sum(axis=2) / np.maximum(
        np.sqrt((a * a).sum(axis=2) * (b * b).sum(axis=2)), 1e-9)
    counted = count >= 10
    return np.where(counted.any(axis=1), np.where(counted, correlation, 0.0).sum(axis=1)
                    / np.maximum(counted.sum(axis=1), 1), -1.0)


def _colour_edges(lab: np.ndarray) -> np.ndarray:
    """Edge strength in colour: a walnut plate on a grey cloth is one grey to the eye's
    lightness, but not to its colour."""
    smooth = cv2.GaussianBlur(lab, (0, 0), 0.8)
    total = np.zeros(smooth.shape[:2], np.float32)
    for channel, weight in zip(cv2.split(smooth), (1.0, 2.0, 2.0), strict=True):
        gx = cv2.Sobel(channel, cv2.CV_32F, 1, 0, ksize=3)
        gy = cv2.Sobel(channel, cv2.CV_32F, 0, 1, ksize=3)
        total += weight * cv2.magnitude(gx, gy)
    return total


def _cell_extent(gray: np.ndarray, board_to_photo: np.ndarray, size: int,
                 reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Every lattice point within ``reach`` steps of the frame's centre, and how much of a
    board cell's pattern it shows: the weakest of its three frequencies, each over the
    level the middle of the board shows. A plate's straight edge or a printed frame shows in
    one frequency only (the one across it), so it does not pass for cells; the cells' own
    pattern shows in all three."""
    extent = playing_radius(size) + reach - size + 2.0
    rectified, _ = _warp(gray, board_to_photo, extent)
    pattern = _edges(rectified)
    side = pattern.shape[0]
    axial = axial_disc(reach)
    points = side / 2 + axial @ np.linalg.inv(UPRIGHT).T
    values = _coefficients(pattern, UPRIGHT, points, POOL_CELLS * PPC)
    stacked = np.array([UPRIGHT[0], UPRIGHT[1], UPRIGHT[0] + UPRIGHT[1]])
    aligned = (values * np.exp(2j * np.pi * ((points - side / 2) @ stacked.T)).T).real
    middle = ring_distance(axial) <= size - 2
    aligned = aligned * (1.0 if float(np.median(aligned[:, middle].sum(axis=0))) >= 0 else -1.0)
    level = np.maximum(np.percentile(aligned[:, middle], 60, axis=1), 1e-9)
    return axial, np.clip((aligned / level[:, None]).min(axis=0), -1.0, 1.5)


def _plate_centre(gray: np.ndarray, colour: np.ndarray, board_to_photo: np.ndarray, size: int
                  ) -> tuple[np.ndarray, float]:
    """The lattice step (q, r) to the board's true centre cell, and how alike the board's
    six sides look about it (mean correlation, 1 at best).

    Two things a board is, about its true centre and no other lattice point: the same on its
    six sides (the plate's edge, a printed frame, a bevel all lie as far out on each), and
    cells out to ``size - 1`` steps on every side but none two steps beyond (the ring just
    beyond shares the edge cells' outer outlines, so it is not counted). Each is scored for
    every centre within reach and their sum decides: on rendered boards of seeds 0-59 through
    their true lattice, the sides alone found 57 of 60 centres, the cells alone 45, the sum
    all 60.
    """
    extent = playing_radius(size) + PROFILE_REACH + 2 * MAX_SHIFT + 0.5
    rectified, to_photo = _warp(colour, board_to_photo, extent)
    lab = cv2.cvtColor(rectified.astype(np.float32) / 255, cv2.COLOR_BGR2LAB)
    valid = cv2.warpPerspective(np.ones(colour.shape[:2], np.uint8), to_photo,
                                rectified.shape[1::-1],
                                flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    valid = cv2.erode(valid, np.ones((5, 5), np.uint8))
    edges = np.where(valid > 0, _colour_edges(lab), np.nan).astype(np.float32)
    axial, cellness = _cell_extent(gray, board_to_photo, size, size + 2 * MAX_SHIFT + 2)
    centre = np.zeros(2, np.int64)
    scores: dict[tuple[int, int], tuple[float, float]] = {}
    for _ in range(3):  # a far-off candidate: look again about the best so far
        shifts = axial_disc(MAX_SHIFT) + centre
        fresh = np.array([shift for shift in shifts if tuple(shift) not in scores])
        if len(fresh):
            mirrored = _mirroring(_side_profiles(edges, size, fresh, 0.1, PROFILE_REACH))
            for shift, mirror in zip(fresh, mirrored, strict=True):
                rings = ring_distance(axial - shift)
                inside = rings <= size - 1
                beyond = rings == size + 1
                if beyond.sum() < 3 * size:  # out of the measured disc: not judged
                    continue
                cells = float(cellness[inside].mean() - cellness[beyond].mean())
                scores[(int(shift[0]), int(shift[1]))] = (float(mirror) + cells, float(mirror))
        if not scores:
            break
        best = max(scores, key=lambda key: scores[key][0])
        if ring_distance(np.array(best) - centre) < MAX_SHIFT:
            break
        centre = np.array(best)
    if not scores:
        return np.zeros(2, np.int64), 0.0
    return np.array(best), min(1.0, scores[best][1])


START_SIDE = 640  # pixels along the longer side of the copy lattice_starts looks in
START_WINDOW = 0.6  # of the copy's shorter side: the windows it looks through
START_SKEW = 2.2  # how slanted a lattice it accepts unrectified (tilt up to about 45 degrees)


def lattice_starts(gray: np.ndarray, size: int, count: int = 3) -> list[np.ndarray]:
    """Rough maps (board frame to photo pixels, affine) of the likeliest lattices of cells in
    the photo, found without any outline: through a few windows over the photo, the spectrum
    of its edges shows a board's cells as three pairs of peaks, skewed by the view's slant.
    For the boards whose plate no colour or edge sets apart from the table."""
    height, width = gray.shape[:2]
    scale = min(1.0, START_SIDE / max(height, width))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else gray
    pattern = _edges(small)
    short = min(small.shape[:2])
    side = int(START_WINDOW * short)
    # A cell is at most a board's width over 2 size - 1, at least a quarter of that.
    widest, narrowest = short / (2 * size - 1), 0.22 * short / (2 * size + 2)
    ys, xs = np.mgrid[0:side, 0:side].astype(np.float32) - side / 2
    window = np.exp(-(xs ** 2 + ys ** 2) / (2 * (side / 4) ** 2)).astype(np.float32)
    found: list[tuple[float, np.ndarray]] = []
    for fy in (0.3, 0.5, 0.7):
        for fx in (0.3, 0.5, 0.7):
            cx, cy = fx * small.shape[1], fy * small.shape[0]
            x0, y0 = int(cx - side / 2), int(cy - side / 2)
            crop = cv2.getRectSubPix(pattern, (side, side), (cx, cy))
            power, n = _power(crop, window)
            for basis, prominence in _six_folds(power, n * 2 / (SQRT3 * widest),
                                                n * 2 / (SQRT3 * narrowest), tries=2,
                                                skew=START_SKEW)[:1]:
                steps = np.linalg.inv(basis / n)  # columns a1, a2 in small-copy pixels
                start = np.eye(3)
                start[:2, :2] = steps @ np.linalg.inv(LATTICE.T) / scale
                start[:2, 2] = (np.array([x0 + side / 2, y0 + side / 2])) / scale
                found.append((prominence, start))
    found.sort(key=lambda item: -item[0])
    distinct: list[np.ndarray] = []
    for _, start in found:
        if all(np.linalg.norm(start[:2, 2] - other[:2, 2]) > 0.1 * max(height, width)
               for other in distinct):
            distinct.append(start)
    return distinct[:count]


def _onto_cells(gray: np.ndarray, board_to_photo: np.ndarray, size: int) -> np.ndarray:
    """A map whose lattice may sit on the cells' edges or corners moved onto their centres."""
    extent = min(playing_radius(size), 4.0) + 1.0
    rectified, _ = _warp(gray, board_to_photo, extent)
    pattern = _edges(rectified)
    side = pattern.shape[0]
    middle = np.array([side / 2, side / 2])
    centre = _anchor(pattern, UPRIGHT, middle)
    centre = _on_cells(pattern, UPRIGHT, centre, axial_disc(3))
    move = np.eye(3)
    move[:2, 2] = (centre - middle) / PPC
    return board_to_photo @ move


COARSER = (
    # Every third point, along the diagonals: axial (1, 1) and (2, -1) steps.
    (lambda axial: (axial[:, 0] - axial[:, 1]) % 3, 3, np.array([[1, 1], [2, -1]])),
    # Every second point: axial (2, 0) and (0, 2) steps.
    (lambda axial: (axial[:, 0] % 2) * 2 + axial[:, 1] % 2, 4, np.array([[2, 0], [0, 2]])),
)
"""Ways a lattice can be finer than the board's cells (its points the cells and the corners
between them, or the cells and their edges' middles): how its points fall into classes, how
many, and the steps of the coarser lattice of one class (axial, in this lattice's steps)."""


def _six_fold_asymmetry(pattern: np.ndarray, points: np.ndarray, cell: float) -> float:
    """How unlike itself turned by 60 degrees the mean look about ``points`` is (0 alike)."""
    grid = np.linspace(-0.3, 0.3, 7) * cell
    offsets = np.array([(x, y) for y in grid for x in grid])
    turned = offsets @ np.array([[0.5, SQRT3 / 2], [-SQRT3 / 2, 0.5]])
    both = np.vstack([offsets, turned])
    where = points[:, None, :] + both[None, :, :]
    sampled = cv2.remap(pattern, where[..., 0].astype(np.float32),
                        where[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REFLECT).mean(axis=0)
    here, there = sampled[:len(offsets)], sampled[len(offsets):]
    return float(np.abs(here - there).mean()) / max(float(np.abs(here - here.mean()).mean()),
                                                   1e-6)


def _coarser(gray: np.ndarray, board_to_photo: np.ndarray, size: int) -> np.ndarray:
    """The map moved onto the board's own cells if ``board_to_photo``'s lattice is finer:
    its points are then of two or three looks (cells, corners, edges' middles) where a board's
    cells all look alike. The class that looks like a cell (the same turned by 60 degrees,
    as a corner between three cells is not) becomes the lattice."""
    extent = min(playing_radius(size), 5.0)
    rectified, _ = _warp(gray, board_to_photo, extent + 1.0)
    pattern = _edges(rectified)
    side = pattern.shape[0]
    steps = np.linalg.inv(UPRIGHT)
    axial = axial_disc(max(2, int(extent)))
    points = side / 2 + axial @ steps.T
    grid = np.linspace(-0.25, 0.25, 5) * PPC
    offsets = np.array([(x, y) for y in grid for x in grid])
    where = points[:, None, :] + offsets[None, :, :]
    looks = cv2.remap(pattern, where[..., 0].astype(np.float32),
                      where[..., 1].astype(np.float32), cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REFLECT)
    tests = []
    for classify, count, coarse_steps in COARSER:
        classes = classify(axial)
        patches = []
        for label in range(count):
            patch = looks[classes == label].mean(axis=0)
            patches.append((patch - patch.mean()) / max(float(patch.std()), 1e-6))
        likeness = min(float((patches[i] * patches[j]).mean())
                       for i in range(count) for j in range(i + 1, count))
        tests.append((likeness, classes, count, coarse_steps))
    likeness, classes, count, coarse_steps = min(tests, key=lambda test: test[0])
    if likeness >= FINE_LIKENESS:
        return board_to_photo
    asymmetry = [_six_fold_asymmetry(pattern, points[classes == label], PPC)
                 for label in range(count)]
    label = int(np.argmin(asymmetry))
    origin = axial[classes == label][np.argmin(ring_distance(axial[classes == label]))]
    move = np.eye(3)
    move[:2, :2] = (coarse_steps @ LATTICE).T @ np.linalg.inv(LATTICE.T)
    move[:2, 2] = origin @ LATTICE
    return board_to_photo @ move


def fit_lattice(gray: np.ndarray, colour: np.ndarray, size: int, *,
                corners: np.ndarray | None = None, ellipse: tuple | None = None,
                start: np.ndarray | None = None) -> Lattice | None:
    """The cells of a side-``size`` board in ``gray`` (float32 photo; ``colour``, the same in
    BGR, is for the plate's edge) from a candidate: a hexagon (``corners``, photo
    pixels, clockwise), an ellipse (OpenCV's rotated rectangle of one) or a rough map of the
    lattice itself (``start``, from :func:`lattice_starts`). None when no lattice of cells is
    there."""
    if start is not None:
        board_to_photo = _onto_cells(gray, start, size)
    else:
        radius = playing_radius(size) + ASSUMED_MARGIN
        if corners is not None:
            frame_to_photo, _ = cv2.findHomography(hexagon(radius), corners.astype(np.float64))
            shape = "hexagon"
        elif ellipse is not None:
            (cx, cy), (width, height), angle = ellipse
            theta = math.radians(angle)
            rotation = np.array([[math.cos(theta), -math.sin(theta)],
                                 [math.sin(theta), math.cos(theta)]])
            frame_to_photo = np.eye(3)
            frame_to_photo[:2, :2] = rotation @ np.diag([width / 2 / radius, height / 2 / radius])
            frame_to_photo[:2, 2] = (cx, cy)
            shape = "circle"
        else:
            raise ValueError("fit_lattice needs corners, an ellipse or a start")
        if frame_to_photo is None:
            return None
        found = _first_map(gray, frame_to_photo, radius, size, shape)
        if found is None:
            return None
        board_to_photo = found
    refined = _refine(gray, board_to_photo, size)
    if refined is None:
        return None
    board_to_photo = _coarser(gray, refined[0], size)
    if board_to_photo is not refined[0]:
        refined = _refine(gray, board_to_photo, size)
        if refined is None:
            return None
    board_to_photo = refined[0]
    shift, symmetry = _plate_centre(gray, colour, board_to_photo, size)
    if shift.any():
        move = np.eye(3)
        move[:2, 2] = shift @ LATTICE
        board_to_photo = board_to_photo @ move
        refined = _refine(gray, board_to_photo, size)
        if refined is None:
            return None
        board_to_photo, _, _ = refined
    cells, axial = refined[1], refined[2]
    inside = ring_distance(axial) <= size - 1
    order = _order(axial[inside], size)
    per_cell = cells.fits[inside][order]
    return Lattice(board_to_photo, float(np.median(per_cell)), per_cell, symmetry)


def _order(axial: np.ndarray, size: int) -> np.ndarray:
    """Indices putting axial points into :func:`cell_points` order."""
    points = axial @ LATTICE
    target = cell_points(size)
    distance = np.linalg.norm(points[:, None, :] - target[None, :, :], axis=2)
    return np.argmin(distance, axis=0)


__all__ = ["PPC", "Lattice", "axial_disc", "fit_lattice", "lattice_starts", "ring_distance"]
