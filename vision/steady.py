"""Is the camera's view steady, and is something (a hand) over the board? Pixels only, no rules.

Reading a board costs far more than looking at a thumbnail, and a reading taken while a hand is
placing tiles is worse than none: it feeds the referee half a play. So every live frame is first
shrunk to a small blurred grey thumbnail and compared with the previous one (is the picture
changing?) and with the last steady picture (is a large patch that touches the frame edge
different: an arm reaching in?). Only a view that has stayed still for a few frames is read.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class SteadyConfig:
    """Every threshold of the steadiness check in one place."""

    thumb_width: int = 96            # thumbnails are this wide (height keeps the aspect)
    blur: int = 5                    # Gaussian kernel on the thumbnail (odd): sensor noise away
    pixel_change: int = 18           # grey levels: a thumbnail pixel that moved more "changed"
    moving_fraction: float = 0.02    # more changed pixels than this between frames: moving
    hand_fraction: float = 0.04      # a changed patch this large, touching the edge: a hand
    steady_frames: int = 2           # this many calm frame-to-frame steps in a row: steady
    hand_patience: int = 4           # a still intrusion must stay calm this many times longer


class ViewState(enum.Enum):
    STEADY = "steady"
    SETTLING = "settling"    # calm, but not for long enough yet
    MOVING = "moving"        # the picture is changing
    HAND = "hand"            # something large is over the board, reaching in from an edge

    @property
    def waiting_message(self) -> str:
        return {
            ViewState.STEADY: "",
            ViewState.SETTLING: "holding still…",
            ViewState.MOVING: "the picture is changing",
            ViewState.HAND: "a hand is over the board",
        }[self]


@dataclass(frozen=True)
class ViewCheck:
    state: ViewState
    change: float         # fraction of thumbnail pixels changed since the previous frame
    intrusion: float      # fraction of pixels in edge-touching changed patches vs. last steady

    @property
    def steady(self) -> bool:
        return self.state is ViewState.STEADY


def thumbnail(image: np.ndarray, config: SteadyConfig = SteadyConfig()) -> np.ndarray:
    """A small blurred colour copy: what the steadiness checks compare.

    Colour, not grey: an arm over a wooden table can have the table's brightness and differ
    only in hue.
    """
    height, width = image.shape[:2]
    thumb_height = max(1, round(height * config.thumb_width / max(1, width)))
    small = cv2.resize(image, (config.thumb_width, thumb_height), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (config.blur, config.blur), 0)


def changed_mask(before: np.ndarray, after: np.ndarray, config: SteadyConfig) -> np.ndarray:
    """Pixels that changed by more than ``pixel_change`` in any colour channel."""
    if before.shape != after.shape:
        return np.ones(after.shape[:2], dtype=bool)
    difference = cv2.absdiff(before, after)
    if difference.ndim == 3:
        difference = difference.max(axis=2)
    return difference > config.pixel_change


def edge_intrusion(mask: np.ndarray) -> float:
    """Fraction of the frame covered by changed patches that touch the frame's edge."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    if count <= 1:
        return 0.0
    edge_labels = set(np.unique(labels[0, :])) | set(np.unique(labels[-1, :])) \
        | set(np.unique(labels[:, 0])) | set(np.unique(labels[:, -1]))
    edge_labels.discard(0)
    if not edge_labels:
        return 0.0
    return float(np.isin(labels, list(edge_labels)).sum()) / mask.size


class SteadyTracker:
    """Feed it every frame of one camera; it says when the view is steady enough to read."""

    def __init__(self, config: SteadyConfig = SteadyConfig()) -> None:
        self.config = config
        self._previous: np.ndarray | None = None
        self._steady_reference: np.ndarray | None = None
        self._calm_steps = 0

    def reset(self) -> None:
        self._previous = None
        self._steady_reference = None
        self._calm_steps = 0

    def update(self, image: np.ndarray) -> ViewCheck:
        thumb = thumbnail(image, self.config)
        previous, self._previous = self._previous, thumb
        if previous is None:
            self._calm_steps = 0
            return ViewCheck(ViewState.SETTLING, 1.0, 0.0)
        moved = changed_mask(previous, thumb, self.config)
        change = float(moved.mean())
        intrusion = 0.0
        if self._steady_reference is not None:
            intrusion = edge_intrusion(changed_mask(self._steady_reference, thumb, self.config))
        if change > self.config.moving_fraction:
            self._calm_steps = 0
            state = ViewState.HAND if intrusion > self.config.hand_fraction else ViewState.MOVING
            return ViewCheck(state, change, intrusion)
        self._calm_steps += 1
        # A still hand resting over the board: calm, but a big patch from the edge differs from
        # the last steady view. Wait longer before accepting it as the new board (it may be a
        # bag or a box put down for good, which must not block the game forever).
        if intrusion > self.config.hand_fraction \
                and self._calm_steps < self.config.steady_frames * self.config.hand_patience:
            return ViewCheck(ViewState.HAND, change, intrusion)
        if self._calm_steps < self.config.steady_frames:
            return ViewCheck(ViewState.SETTLING, change, intrusion)
        self._steady_reference = thumb
        return ViewCheck(ViewState.STEADY, change, intrusion)
