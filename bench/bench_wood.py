"""Board finding on plank tables (``python -m bench wood``): issue 33, point 3.

Renders of games (:mod:`lab.render`) laid on procedural wood with grain and plank seams
(:mod:`lab.woodtable`, each table random: plank width, angle, grain scale and contrast, seam
darkness), 1600x1200, no hand, glare or shadow. Each board is found with no corners given and
counted right when its worst corner is within 0.35 cell of the truth (as
``tests/test_board_layout.py``), wrong when found elsewhere, refused otherwise (with the reason).

A plank table is two families of equally spaced lines, as a board is: before the finder checked
the premium layout, grids settled on the seams a whole number of cells off, or a cell too wide.
Seeds 0-39 were looked at while the layout's numbers were set; 40-79 were not.
"""

from __future__ import annotations

import sys
from collections import Counter

import cv2

from lab.eval_corners import corner_errors_cells
from lab.woodtable import board_on_planks
from vision import VisionError, find_board

SEEDS = {"seen (0-39)": range(0, 40), "held out (40-79)": range(40, 80)}
RIGHT_WITHIN_CELLS = 0.35


def outcome(seed: int) -> str:
    image, expected = board_on_planks(seed)
    try:
        location = find_board(image)
    except VisionError as error:
        return f"refused: {getattr(error, 'reason', type(error).__name__)}"
    worst = float(corner_errors_cells(location.corners, expected).max())
    return "right" if worst < RIGHT_WITHIN_CELLS else "wrong"


def main() -> int:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        for name, seeds in SEEDS.items():
            counts = Counter(outcome(seed) for seed in seeds)
            others = ", ".join(f"{what} {count}" for what, count in sorted(counts.items())
                               if what != "right")
            print(f"{name:17} boards {len(seeds)}: right {counts['right']}"
                  + (f", {others}" if others else ""), flush=True)
    finally:
        cv2.setNumThreads(threads)
    return 0


if __name__ == "__main__":
    sys.exit(main())
