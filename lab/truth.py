"""Truth files beside evaluation photos (``<photo>.txt``, ``<photo>.rot.txt``), and their errata.

The evaluation harness and the tests read the same sidecars, so the format lives in one place.
A truth grid is the photo turned ``orientation`` degrees clockwise (letters upright); its
``grid_corners_px`` are TL TR BR BL *in that orientation*, given in pixels of the stored photo.

Truth files can be wrong, and ``../shared`` is read-only: cells checked by eye and found wrong
are listed with the reason in ``lab/data/truth_errata.csv`` (:data:`ERRATA`), read here so that
training and evaluation take the same corrections.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from referee.cells import SIZE, Cell

DEV_PHOTOS = Path(__file__).resolve().parents[1].parent / "shared" / "photos"
"""The development photos with truth files, where a checkout finds them (``../shared/photos``)."""
UNLABELLED_PHOTOS = DEV_PHOTOS.parent / "photos-unlabelled"
"""More real photos, without truth files (``../shared/photos-unlabelled``): read as a user would,
and checked by eye where a test needs them."""
ARROW_ROTATION = {"^": 0, ">": 90, "v": 180, "<": 270}
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


@dataclass(frozen=True)
class TruthCell:
    """What a truth grid says of one cell; ``letter`` None means empty.

    ``letter`` is upper case (national letters included); ``"?"`` is a blank, an unreadable letter
    or a covered cell. ``blank`` marks a lowercase truth letter (a blank played as that letter).
    """

    letter: str | None
    blank: bool = False
    rotation: int | None = None


@dataclass
class PhotoTruth:
    photo: Path
    grid: list[list[TruthCell]]  # [row][col] in the truth orientation
    orientation: int = 0  # degrees clockwise from the photo as displayed to the truth grid
    corners: list[tuple[float, float]] | None = None  # TL TR BR BL, photo pixels
    notes: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    has_rotations: bool = False

    @property
    def source(self) -> str:
        """The public repository a photo came from (``owner__repo``): the unit of leave-one-out."""
        return "__".join(self.photo.name.split("__")[:2])

    def occupied(self) -> list[tuple[int, int]]:
        """(col, row) of every tile in the truth grid."""
        return [
            (col, row)
            for row in range(SIZE)
            for col in range(SIZE)
            if self.grid[row][col].letter is not None
        ]


def _parse_headers(lines: list[str]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for line in lines:
        match = re.match(r"#\s*([A-Za-z_ ]+?)(?:\s*\(.*?\))?\s*:\s*(.*)", line)
        if match:
            headers.setdefault(match.group(1).strip().lower(), match.group(2).strip())
    return headers


def _parse_orientation(value: str) -> int:
    match = re.search(r"rotated\s+(\d+)\s*deg", value) or re.search(r"rotation\s+(\d+)", value)
    return int(match.group(1)) % 360 if match else 0


def _parse_corners(value: str) -> list[tuple[float, float]] | None:
    pairs = re.findall(r"(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)", value)
    if len(pairs) != 4:
        return None
    return [(float(x), float(y)) for x, y in pairs]


def _letter_cell(char: str) -> TruthCell:
    if char == ".":
        return TruthCell(None)
    if char == "?":
        return TruthCell("?")
    return TruthCell(char.upper(), blank=char.islower())


def read_truth(photo: Path | str) -> PhotoTruth:
    """Read ``<photo>.txt`` and, where present, the rotations in ``<photo>.rot.txt``."""
    photo = Path(photo)
    text = Path(f"{photo}.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    header_lines = [line for line in lines if line.startswith("#")]
    rows = [line for line in lines if line.strip() and not line.startswith("#")]
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError(f"{photo.name}.txt: expected 15 rows of 15 cells")
    headers = _parse_headers(header_lines)
    grid = [[_letter_cell(char) for char in row] for row in rows]
    truth = PhotoTruth(
        photo=photo,
        grid=grid,
        orientation=_parse_orientation(headers.get("orientation", "")),
        corners=_parse_corners(headers.get("grid_corners_px", "")),
        notes=headers.get("notes", ""),
        headers=headers,
    )
    rot_path = Path(f"{photo}.rot.txt")
    if rot_path.exists():
        rot_rows = [
            line.split()
            for line in rot_path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")
        ]
        for row, tokens in enumerate(rot_rows[:SIZE]):
            for col, token in enumerate(tokens[:SIZE]):
                if token != "." and token[-1] in ARROW_ROTATION:
                    cell = truth.grid[row][col]
                    truth.grid[row][col] = TruthCell(
                        cell.letter, cell.blank, ARROW_ROTATION[token[-1]]
                    )
        truth.has_rotations = True
    return truth


def photos_with_truth(folder: Path | str) -> list[Path]:
    """Every photo in ``folder`` that has a truth file beside it, sorted by name."""
    folder = Path(folder)
    return sorted(
        path
        for path in folder.iterdir()
        if path.suffix.lower() in PHOTO_SUFFIXES and Path(f"{path}.txt").exists()
    )


def tile_set_for(truth: PhotoTruth) -> str:
    """The ``--tiles`` option a user would give for this board (from the truth's board line)."""
    board = truth.headers.get("board", "").lower()
    for name in ("german", "polish"):
        if name in board:
            return name
    return "english"


def photo_corners(truth: PhotoTruth) -> np.ndarray | None:
    """Truth grid corners relabelled so South is the image bottom, as ``read_board`` expects."""
    if truth.corners is None:
        return None
    k = (truth.orientation // 90) % 4
    return np.array([truth.corners[(i + k) % 4] for i in range(4)], dtype=np.float64)


ERRATA = Path(__file__).resolve().parent / "data" / "truth_errata.csv"
"""Truth cells checked by eye and found wrong: photo, cell, what the truth says, what the photo
shows (a letter, ``blank`` or ``unseen``) and why."""

Errata = dict[str, dict[tuple[int, int], TruthCell | None]]
"""Photo name -> (col, row) in the truth grid -> the corrected cell, None for a cell not scored."""


def errata_entries(path: Path = ERRATA) -> list[dict[str, str]]:
    """The rows of :data:`ERRATA` as written (photo, cell, truth, seen, reason), comments left
    out; none where the file is absent (an installed package)."""
    if not path.exists():
        return []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    return list(csv.DictReader(lines))


def load_errata(path: Path = ERRATA) -> Errata:
    """The corrections of :data:`ERRATA`, by photo and cell."""
    errata: Errata = {}
    for entry in errata_entries(path):
        cell = Cell.parse(entry["cell"])
        seen = entry["seen"]
        if seen == "unseen":
            corrected = None
        elif seen == "blank":
            # A blank tile: read as one (``?``) whatever letter its player gave it.
            corrected = TruthCell("?", blank=True)
        elif len(seen) == 1 and seen.isalpha():
            corrected = TruthCell(seen.upper())
        else:
            raise ValueError(f"{path.name}: {entry['photo']} {entry['cell']}: seen must be a "
                             f"letter, blank or unseen, not {seen!r}")
        errata.setdefault(entry["photo"], {})[(cell.col, cell.row)] = corrected
    return errata


def corrected_grid(truth: PhotoTruth, corrections: dict[tuple[int, int], TruthCell | None]
                   ) -> list[list[TruthCell | None]]:
    """The truth grid ([row][col]) with one photo's errata applied; None marks a cell not scored."""
    grid: list[list[TruthCell | None]] = [list(cells) for cells in truth.grid]
    for (col, row), cell in corrections.items():
        grid[row][col] = cell
    return grid
