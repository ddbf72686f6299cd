"""Something lying over the board: a hand reaching across it, a sticky note, a sleeve.

A cell under a hand is neither a tile nor a square: the reader would call it empty and say
nothing, and a dispute would be judged on a board with a hole in it. What gives it away is that
the board's own marks are gone: no grid line, no tile edge, no print (the edges of a cell under a
hand are the hand's soft outline), and a colour unlike the same kind of square elsewhere on the
board (its symmetric peers, :func:`vision.cells.facecolour.peer_distance`). Nor does it show them
when looked at coarsely (:data:`COARSE_BARE_EDGES`), where a part of the board out of focus does.
Glare is left to the glare warning: a blown-out face has no edges and no colour either, and the
halo around it is lighter than its kind of square and no more colourful, where a hand brings a
colour of its own or shade.
One such cell is a plain square in an odd light; a group of them, side by side, is something
lying there.

A cell is bare when it has edges on few of its pixels (:data:`vision.cells.tuning.BARE_EDGES`),
its face is far from its kind of square's (:data:`vision.cells.tuning.BARE_PEER_SPREADS`) and it is
no brighter than glare (:data:`vision.cells.tuning.GLARE_LIGHTNESS`); groups of
:data:`vision.cells.tuning.NAMED_GROUP` are named cell by cell, and more than
``ReadConfig.max_covered_squares`` make the photo unreadable. A deep shadow takes a square's edges
and colour away as a hand does, but it keeps the colour's hue and adds none
(:meth:`_Typical.in_shade`). Chosen on rendered hands (no real photo here has a hand in it) and the
real photos, and measured by ``python -m bench cover``; the figures are in docs/tuning.md
("Something over the board").
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.board.rectify import SIZE, RectifiedBoard
from vision.cells.cellgrid import other_peers, stats_grid
from vision.cells.facecolour import face_colours, peer_distance
from vision.cells.tuning import (
    BARE_EDGES,
    BARE_PEER_SPREADS,
    COARSE_BARE_EDGES,
    COARSE_CELL_PX,
    EDGE_THRESHOLDS,
    FOREIGN_GROUP,
    FOREIGN_PEER_SPREADS,
    GLARE_LIGHTNESS,
    HALO_LIGHTER,
    MIN_PEER_SPREAD,
    NAMED_GROUP,
    SHADE_DARKER,
    SHADE_HUE,
    SHADE_MIN_CHROMA,
    STATS_PX,
)


class Covers(NamedTuple):
    """What lies over the board (:func:`covered_groups`), each group a (15, 15) bool mask."""

    bare: list[np.ndarray]
    """Groups of at least :data:`NAMED_GROUP` bare cells (a hand, a note), largest first."""
    foreign: list[np.ndarray]
    """Groups of at least :data:`FOREIGN_GROUP` cells far in colour from their kind of square
    (:data:`FOREIGN_PEER_SPREADS`), whatever their edges: a thing with an outline, a cup."""


def covered_groups(board: RectifiedBoard, tiles: np.ndarray) -> Covers:
    """The groups of cells something lies over, side by side (sharing an edge), neither a glare
    halo nor a shadow: bare ones (:attr:`Covers.bare`) and ones far in colour
    (:attr:`Covers.foreign`).

    ``tiles`` (15, 15) are the cells read as tiles: they are no square's peer, and the peer
    spread is measured over the other cells.

    Why the second kind: a thing on the board with an outline of its own (a cup, a mug, a phone)
    shows edges on many of its cells, so few of them are bare and no group of them was named;
    the tiles half under its edge, their letters merged with its dark mass, were read as empty
    with no word said (stress scenes 100149 and 100232: six tiles). Its colour gives it away all
    the same: the cells it covers lie 8 to 100 peer spreads from their kind, where an empty
    square's median is one.
    """
    lightness, chroma = face_colours(board)
    flat = tiles.reshape(-1)
    to_peer = peer_distance(chroma, flat)
    known = ~flat & np.isfinite(to_peer)
    if not known.any():
        return Covers([], [])
    spread = max(float(np.median(to_peer[known])), MIN_PEER_SPREAD)
    unlit = lightness < GLARE_LIGHTNESS
    bare = ~_marked(board) & (to_peer > BARE_PEER_SPREADS * spread) & unlit
    far = known & (to_peer > FOREIGN_PEER_SPREADS * spread) & unlit
    peers, other = other_peers()

    def groups(cells: np.ndarray, least: int) -> list[np.ndarray]:
        _, labels, stats, _ = cv2.connectedComponentsWithStats(
            cells.reshape(SIZE, SIZE).astype(np.uint8), connectivity=4)
        sizes = stats[1:, cv2.CC_STAT_AREA]
        usable = other & ~flat[peers] & ~cells[peers]
        kept = []
        for label in np.argsort(-sizes, kind="stable"):
            if sizes[label] < least:
                break
            group = labels.reshape(-1) == label + 1
            typical = _against_kind(group, lightness, chroma, peers, usable)
            if typical is None or not (typical.washed_out() or typical.in_shade()):
                kept.append(group.reshape(SIZE, SIZE))
        return kept

    return Covers(groups(bare, NAMED_GROUP), groups(far, FOREIGN_GROUP))


def _marked(board: RectifiedBoard) -> np.ndarray:
    """(225,) bool: cells that show the board's marks, edges (:data:`BARE_EDGES`), also looked
    at coarsely (:data:`COARSE_BARE_EDGES`)."""
    grey = cv2.cvtColor(stats_grid(board), cv2.COLOR_BGR2GRAY)
    coarse = cv2.resize(grey, (SIZE * COARSE_CELL_PX, SIZE * COARSE_CELL_PX),
                        interpolation=cv2.INTER_AREA)
    return (_edge_share(grey, STATS_PX) >= BARE_EDGES) | (
        _edge_share(coarse, COARSE_CELL_PX) >= COARSE_BARE_EDGES)


def _edge_share(grey: np.ndarray, cell_px: int) -> np.ndarray:
    """(225,) the share of each cell's pixels on an edge (Canny, :data:`EDGE_THRESHOLDS`) of a
    grey grid ``cell_px`` pixels a cell."""
    edges = cv2.Canny(grey, *EDGE_THRESHOLDS) > 0
    return edges.reshape(SIZE, cell_px, SIZE, cell_px).mean(axis=(1, 3)).reshape(-1)


class _Typical(NamedTuple):
    """How a group's typical cell (the median) differs from its kind of square."""

    lighter: float  # L*
    richer: float  # a*b* chroma: more colourful by
    turned: float  # its hue turned by, degrees either way
    kind_chroma: float  # the kind's own chroma

    def washed_out(self) -> bool:
        """Light on the board, not a thing on it: clearly brighter than its kind of square
        (:data:`HALO_LIGHTER`) and no more colourful. Glare adds white light; a hand or a note
        brings a colour of its own, or shade."""
        return self.lighter > HALO_LIGHTER and self.richer < 0

    def in_shade(self) -> bool:
        """A shadow on the board, not a thing on it: darker than its kind of square
        (:data:`SHADE_DARKER`), no more colourful, and of its kind's hue (:data:`SHADE_HUE`). A
        shadow takes light away and keeps the colour; a hand brings its own. A kind with too
        little colour for a hue (:data:`SHADE_MIN_CHROMA`, the classic board's beige) is not
        judged: its groups stay as they were."""
        return (-self.lighter > SHADE_DARKER and self.richer <= 0 and self.turned < SHADE_HUE
                and self.kind_chroma >= SHADE_MIN_CHROMA)


def _against_kind(group: np.ndarray, lightness: np.ndarray, chroma: np.ndarray,
                  peers: np.ndarray, usable: np.ndarray) -> _Typical | None:
    """How the group's typical cell differs from its kind of square; None when no cell of the
    group has a usable peer."""
    colours = chroma - 128.0  # a*, b* are stored about 128
    colourful = np.hypot(*colours.T)
    lighter, richer, turned, kind_chroma = [], [], [], []
    for cell in np.flatnonzero(group):
        kind = peers[cell][usable[cell]]
        if len(kind):
            theirs = np.median(colours[kind], axis=0)
            lighter.append(lightness[cell] - np.median(lightness[kind]))
            richer.append(colourful[cell] - np.median(colourful[kind]))
            angle = np.degrees(np.arctan2(*colours[cell][::-1]) - np.arctan2(*theirs[::-1]))
            turned.append(abs((angle + 180.0) % 360.0 - 180.0))
            kind_chroma.append(np.median(colourful[kind]))
    if not lighter:
        return None
    return _Typical(float(np.median(lighter)), float(np.median(richer)),
                    float(np.median(turned)), float(np.median(kind_chroma)))


__all__ = ["Covers", "covered_groups"]
