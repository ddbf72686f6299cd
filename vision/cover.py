"""Something lying over the board: a hand reaching across it, a sticky note, a sleeve.

A cell under a hand is neither a tile nor a square: the reader would call it empty and say
nothing, and a dispute would be judged on a board with a hole in it. What gives it away is that
the board's own marks are gone: no grid line, no tile edge, no print (the edges of a cell under a
hand are the hand's soft outline), and a colour unlike the same kind of square elsewhere on the
board (its symmetric peers, :func:`vision.occupancy.peer_distance`). Glare is left to the glare
warning: a blown-out face has no edges and no colour either, and the halo around it is lighter
than its kind of square and no more colourful, where a hand brings a colour of its own or shade.
One such cell is a plain square in an odd light; a group of them, side by side, is something
lying there.

Chosen on 40 renders with a hand and 40 without (``vision.render``, truth corners; seeds 5000 to
5039) and the 47 real photos (the 38 truth photos and 9 unlabelled, corners found): a cell with
edges on under 4 % of its pixels (Canny 40/100 at 24 px a cell), at least 2 peer spreads from its
kind of square and no brighter than L* 230 is bare. The real photos' largest group of bare cells
was 5, the renders' without a hand 14 (glare halos), with a hand 13 and up. Groups of 8 are named
cell by cell (40 of 40 hands); groups of 16 make the photo unreadable (38 of 40 hands, none of
the others; ``ReadConfig.max_covered_squares``). On 40 fresh renders of each kind (seeds 7000 to
7039, ``python -m bench cover``, read as ``tileref read`` reads): 32 of the 40 hands refused, 6
named, 1 refused as blurred (that check comes first), 1 missed; of the 40 clear boards none
refused for a cover, 1 named; none of the 31 truth photos with corners refused or named. Of 100
more clear renders (seeds 2000 to 2099) none was refused and 2 named, and of the 60 of ``python
-m bench offsquare`` none either way, once glare halos were told apart (one of those, a halo over
20 squares, had been refused). No real photo here has a hand in it: the figures for hands are
the renderer's.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.occupancy import STATS_PX, face_colours, other_peers, peer_distance, stats_grid
from vision.rectify import SIZE, RectifiedBoard

EDGE_THRESHOLDS = (40, 100)
"""Canny's thresholds: low, so that a faint grid line or a worn square's texture counts (the
occupancy model's own edges, at 60/140, left whole rows of real plain squares edgeless)."""
BARE_EDGES = 0.04
"""A bare cell has edges on fewer of its pixels than this."""
BARE_PEER_SPREADS = 2.0
"""...and a face this many peer spreads (the median over the empty cells) from its kind's."""
GLARE_LIGHTNESS = 230.0
"""...and no brighter than this L* (0-255): brighter is glare, which the glare warning names."""
NAMED_GROUP = 8
"""Bare cells side by side, at least this many: each is named as covered (more than
``ReadConfig.max_covered_squares``: the photo is not read at all, a hand over the board)."""
MIN_PEER_SPREAD = 0.5
"""Peer distances under this (chroma units) are noise: the spread is never taken as smaller."""
HALO_LIGHTER = 20.0
"""A group lighter than its kind of square by more than this (L*, 0-255), and no more colourful,
is a glare halo short of blowing out: the three halos of the renders measured 37-79 lighter and
4-9 less colourful (a*b* chroma); of the 40 hands, the two more than 20 lighter (28 and 30) were
more colourful, and the one less colourful and lighter was 18 lighter."""


def covered_groups(board: RectifiedBoard, tiles: np.ndarray) -> list[np.ndarray]:
    """The groups of at least :data:`NAMED_GROUP` bare cells side by side (sharing an edge) that
    are not a glare halo, largest first, each a (15, 15) bool mask.

    ``tiles`` (15, 15) are the cells read as tiles: they are no square's peer, and the peer
    spread is measured over the other cells.
    """
    lightness, chroma = face_colours(board)
    bare = _bare_cells(board, tiles.reshape(-1), lightness, chroma)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(
        bare.reshape(SIZE, SIZE).astype(np.uint8), connectivity=4)
    sizes = stats[1:, cv2.CC_STAT_AREA]
    groups = [labels.reshape(-1) == label + 1 for label in np.argsort(-sizes, kind="stable")
              if sizes[label] >= NAMED_GROUP]
    peers, other = other_peers()
    usable = other & ~tiles.reshape(-1)[peers] & ~bare[peers]
    return [group.reshape(SIZE, SIZE) for group in groups
            if not _washed_out(group, lightness, chroma, peers, usable)]


def _bare_cells(board: RectifiedBoard, tiles: np.ndarray, lightness: np.ndarray,
                chroma: np.ndarray) -> np.ndarray:
    """(225,) bool: cells that show none of the board's marks and not their square's colour."""
    grid = stats_grid(board)
    edges = cv2.Canny(cv2.cvtColor(grid, cv2.COLOR_BGR2GRAY), *EDGE_THRESHOLDS) > 0
    edge_share = edges.reshape(SIZE, STATS_PX, SIZE, STATS_PX).mean(axis=(1, 3)).reshape(-1)
    to_peer = peer_distance(chroma, tiles)
    known = ~tiles & np.isfinite(to_peer)
    if not known.any():
        return np.zeros(SIZE * SIZE, bool)
    spread = max(float(np.median(to_peer[known])), MIN_PEER_SPREAD)
    return ((edge_share < BARE_EDGES) & (to_peer > BARE_PEER_SPREADS * spread)
            & (lightness < GLARE_LIGHTNESS))


def _washed_out(group: np.ndarray, lightness: np.ndarray, chroma: np.ndarray,
                peers: np.ndarray, usable: np.ndarray) -> bool:
    """Whether a group is light on the board, not a thing on it: its typical cell clearly
    brighter than its kind of square (:data:`HALO_LIGHTER`) and no more colourful. Glare adds
    white light; a hand or a note brings a colour of its own, or shade."""
    colourful = np.hypot(*(chroma - 128.0).T)  # a*, b* are stored about 128
    lighter, richer = [], []
    for cell in np.flatnonzero(group):
        kind = peers[cell][usable[cell]]
        if len(kind):
            lighter.append(lightness[cell] - np.median(lightness[kind]))
            richer.append(colourful[cell] - np.median(colourful[kind]))
    return bool(lighter) and bool(np.median(lighter) > HALO_LIGHTER and np.median(richer) < 0)


__all__ = ["NAMED_GROUP", "covered_groups"]
