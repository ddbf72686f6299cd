"""Occupancy for tests: a truth photo's board at its truth corners, and stand-in models that
say what a test needs them to say."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lab.truth import DEV_PHOTOS, photo_corners, read_truth
from referee.cells import Cell
from vision.board.rectify import RectifiedBoard, rectify
from vision.cells.occupancy import Occupancy, OccupancyModel, cell_features
from vision.image import load_image
from vision.perceptron import Mlp
from vision.tuning import DEFAULT_CONFIG

FULL_BOARD = DEV_PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170803.jpg"


def truth_board(photo: Path) -> tuple[RectifiedBoard, np.ndarray]:
    """``photo`` rectified at its truth corners, and the truth's (15, 15) tile mask [row, col]
    in the photo's South view."""
    truth = read_truth(photo)
    corners = photo_corners(truth)
    if corners is None:
        raise ValueError(f"{photo.name} has no truth corners to rectify at")
    image = load_image(photo)
    board = rectify(image, corners, cell_px=DEFAULT_CONFIG.cell_px,
                    margin_cells=DEFAULT_CONFIG.margin_cells, tile_lift=DEFAULT_CONFIG.tile_lift)
    truth_rows = np.zeros((15, 15), dtype=bool)
    turned = truth.orientation // 90
    for col, row in truth.occupied():
        # truth grid = photo turned clockwise; undo the turn to reach the photo's South view.
        c, r = col, row
        for _ in range((4 - turned) % 4):
            c, r = 14 - r, c
        truth_rows[r, c] = True
    return board, truth_rows


def always_empty_model() -> OccupancyModel:
    """An occupancy model whose perceptron calls every cell empty: what is found is the rules'."""
    n = cell_features(truth_board(FULL_BOARD)[0]).shape[1]
    return OccupancyModel(Mlp(np.zeros(n, np.float32), np.ones(n, np.float32),
                              np.zeros((n, 1), np.float32), np.zeros(1, np.float32),
                              np.zeros((1, 2), np.float32), np.array([5.0, -5.0], np.float32),
                              ("empty", "tile")))


class DoubtingOccupancy:
    """The committed occupancy model, less sure of two empty squares than it is."""

    def __init__(self, doubts: dict[Cell, float]) -> None:
        self.model = OccupancyModel.load()
        self.doubts = doubts

    def tile_probability(self, board: RectifiedBoard, *,
                         print_cells: np.ndarray | None = None) -> np.ndarray:
        return self.assess(board, print_cells=print_cells).probability

    def assess(self, board: RectifiedBoard, *,
               print_cells: np.ndarray | None = None) -> Occupancy:
        assessed = self.model.assess(board, print_cells=print_cells)
        for cell, p in self.doubts.items():
            assessed.probability[cell.row, cell.col] = p
        return assessed
