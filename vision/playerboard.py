"""One First Draft player's board from a photo: two rows of tiles and a pool, read into letters.

A player's board has no grid to find and rectify: it is a few tiles lying in lines on a table.
So the tiles are found by their colour (tile faces are light and only mildly coloured, whatever
the table), the letters on them fill in as holes, tiles pushed together are cut apart by their
squareness (a blob five tiles long is five tiles), and the lines are grouped by height. Each tile
is then read by the same classifier as the board reader
(:class:`vision.letters.classify.TileClassifier`), with its confidence, so the screen can ask the
player to confirm the unsure ones by tapping.

The table must be darker than the tiles (a tablecloth, a wooden table; not white). The
layout convention, photographed from the player's side: row 1 on top, row 2 under it, the
pool under row 2 or beside it (at least two tiles' width away from it). When a line is missing (an
empty row) the caller may say how many letters each part should hold (``expected``), and the
groups found are matched to the parts that are not empty. Letters are read upright; a photo
taken from another side is turned until most letters stand upright.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.letters.classify import BLANK, TileClassifier

Box = tuple[int, int, int, int]  # x, y, width, height in the (upright) photo's pixels


@dataclass(frozen=True)
class PlayerBoardConfig:
    """Every threshold of reading a player's board, in one place."""

    work_width: int = 1280  # photos are scaled to at most this width before anything else
    lighter_than_table: int = 16  # a face is this much lighter (Lab L, 0-255) than the table
    table_fit_rounds: int = 3  # refits of the table's lightness plane to its own pixels
    min_tile_fraction: float = 0.025  # a tile's side is at least this share of the photo's width
    max_tile_fraction: float = 0.3
    level_within: float = 1.0  # degrees of lean left alone; more and the photo is levelled
    square_tolerance: float = 0.35  # a blob within this of n:1 (width:height) is n tiles
    line_tolerance: float = 0.6  # centres within this many tile heights lie on one line
    group_gap: float = 1.5  # a gap wider than this many tiles starts another group (the pool)
    missing_gap: float = 0.6  # a narrower gap than group_gap but wider than this hides a tile
    crop_pad: float = 0.06  # crops reach this share of a tile beyond its face (as in training)
    low_confidence: float = 0.6  # a letter read with less confidence is flagged for a tap
    letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


DEFAULT_CONFIG = PlayerBoardConfig()


@dataclass(frozen=True)
class ReadTile:
    """One tile as read: ``letter`` upper case (``?`` when no letter was seen)."""

    letter: str
    confidence: float
    runner_up: str
    box: Box
    unsure: bool = False  # no letter seen, or read with less than the config's low confidence

    def to_json(self) -> dict[str, Any]:
        return {"letter": self.letter, "confidence": round(self.confidence, 3),
                "runner_up": self.runner_up, "box": list(self.box), "unsure": self.unsure}


@dataclass(frozen=True)
class PlayerBoardReading:
    """The two rows (left to right) and the pool of one player's board, as read."""

    rows: tuple[tuple[ReadTile, ...], tuple[ReadTile, ...]]
    pool: tuple[ReadTile, ...]
    quarter_turns: int = 0  # the photo was turned this many quarter turns anticlockwise to read
    warnings: tuple[str, ...] = ()

    @property
    def row_letters(self) -> tuple[str, str]:
        first, second = ("".join(tile.letter for tile in row) for row in self.rows)
        return first, second

    @property
    def pool_letters(self) -> str:
        return "".join(tile.letter for tile in self.pool)

    def to_json(self) -> dict[str, Any]:
        return {"rows": [[tile.to_json() for tile in row] for row in self.rows],
                "pool": [tile.to_json() for tile in self.pool],
                "letters": {"rows": list(self.row_letters), "pool": self.pool_letters},
                "quarter_turns": self.quarter_turns, "warnings": list(self.warnings)}


# -- finding the tiles -----------------------------------------------------------------------

def table_lightness(lightness: np.ndarray, config: PlayerBoardConfig = DEFAULT_CONFIG
                    ) -> np.ndarray:
    """The table's lightness under the tiles: a plane fitted to the pixels that are table.

    A plane, because the light over a table changes slowly (a lamp on one side); fitted again
    to the pixels it calls table, starting from the darker half of the photo (the tiles are
    lighter and cover less of it), so the tiles and their letters do not pull it.
    """
    height, width = lightness.shape
    step = max(1, int(np.sqrt(height * width / 40_000)))
    ys, xs = np.mgrid[0:height:step, 0:width:step]
    values = lightness[::step, ::step].astype(np.float32).ravel()
    design = np.column_stack([np.ones(values.size), xs.ravel() / width, ys.ravel() / height])
    table = values <= np.median(values)
    coefficients = np.zeros(3)
    for _ in range(config.table_fit_rounds):
        coefficients, *_ = np.linalg.lstsq(design[table], values[table], rcond=None)
        residual = values - design @ coefficients
        spread = max(float(np.std(residual[table])), 2.0)
        table = np.abs(residual) <= 2.5 * spread
    full_x = np.arange(width, dtype=np.float32) / width
    full_y = np.arange(height, dtype=np.float32) / height
    return (coefficients[0] + coefficients[1] * full_x[None, :]
            + coefficients[2] * full_y[:, None]).astype(np.float32)


def face_mask(image: np.ndarray, config: PlayerBoardConfig = DEFAULT_CONFIG) -> np.ndarray:
    """Pixels that look like a tile face: clearly lighter than the table under them.

    Tile faces run from white plastic through ivory to orange wood, so their colour alone says
    little; what they share is being lighter than the table they lie on.
    """
    lightness = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[:, :, 0]
    lighter = lightness.astype(np.float32) - table_lightness(lightness, config)
    return ((lighter >= config.lighter_than_table) * 255).astype(np.uint8)


def _filled(mask: np.ndarray) -> np.ndarray:
    """The mask with the letters' holes filled (a letter is dark: it punches a hole in a face)."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def _blobs(image: np.ndarray, config: PlayerBoardConfig) -> list[tuple[int, int, int, int, int]]:
    """Connected runs of tile faces as (x, y, width, height, area): one tile or a line of them."""
    width = image.shape[1]
    mask = face_mask(image, config)
    side = max(3, int(width * config.min_tile_fraction / 4))
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (side, side))
    # Close first (a grainy face must not fall apart), fill the letters in, then open (table
    # speckle and the thin bridges between tiles that nearly touch go).
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(_filled(mask), cv2.MORPH_OPEN, kernel)
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    smallest = width * config.min_tile_fraction
    largest = width * config.max_tile_fraction
    blobs = []
    for label in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[label])
        short = min(w, h)
        if short < smallest or short > largest or area < 0.6 * w * h:
            continue  # noise, the table, or something that is not a line of square faces
        blobs.append((x, y, w, h, area))
    return blobs


def skew_degrees(image: np.ndarray, config: PlayerBoardConfig = DEFAULT_CONFIG) -> float:
    """How far the lines of tiles lean from level, in degrees as ``cv2.getRotationMatrix2D``
    takes them to level the photo again.

    Every face blob, a lone tile or a line of them, has edges along the lines: the median angle
    of their tightest rectangles, folded into a quarter turn, is the lean of the whole photo.
    """
    mask = _filled(cv2.morphologyEx(face_mask(image, config), cv2.MORPH_CLOSE,
                                    np.ones((3, 3), np.uint8)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    smallest = (image.shape[1] * config.min_tile_fraction) ** 2
    angles, weights = [], []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < smallest:
            continue
        (_, _), (w, h), angle = cv2.minAreaRect(contour)
        if min(w, h) <= 0 or area < 0.6 * w * h:
            continue
        angles.append((angle + 45.0) % 90.0 - 45.0)
        weights.append(area)
    if not angles:
        return 0.0
    order = np.argsort(angles)
    cumulative = np.cumsum(np.asarray(weights)[order])
    return float(np.asarray(angles)[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def _straightened(image: np.ndarray, config: PlayerBoardConfig) -> tuple[np.ndarray, float]:
    """The photo turned so its lines of tiles run level (tiles are cut by squareness)."""
    angle = skew_degrees(image, config)
    if abs(angle) < config.level_within:
        return image, 0.0
    height, width = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((width / 2, height / 2), angle, 1.0)
    return cv2.warpAffine(image, matrix, (width, height), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE), angle


def lines_run_down(image: np.ndarray, config: PlayerBoardConfig = DEFAULT_CONFIG) -> bool:
    """Whether the lines of tiles run up and down the photo (it was taken from the side)."""
    blobs = _blobs(image, config)
    down = sum(h > 1.5 * w for _, _, w, h, _ in blobs)
    across = sum(w > 1.5 * h for _, _, w, h, _ in blobs)
    return down > across


def find_tiles(image: np.ndarray, config: PlayerBoardConfig = DEFAULT_CONFIG) -> list[Box]:
    """Boxes of the tiles in ``image``; tiles pushed together are cut apart by squareness."""
    blobs = _blobs(image, config)
    if not blobs:
        return []
    # A blob is one tile high: its area over its width is a tile's side, even when the line
    # is turned a little and its box is taller than a tile.
    tile_side = float(np.median([area / w for _, _, w, _, area in blobs]))
    boxes: list[Box] = []
    for x, y, w, h, _ in blobs:
        if h > 1.5 * tile_side or h < 0.6 * tile_side:
            continue  # tiles lie in horizontal lines; a tall blob is not one of them
        # Measured against the typical tile, not the blob's own height: a slightly turned line
        # of tiles has a taller box than one tile is wide.
        ratio = w / tile_side
        count_in_blob = max(1, round(ratio))
        if abs(ratio - count_in_blob) > config.square_tolerance * count_in_blob:
            continue
        step = w / count_in_blob
        for index in range(count_in_blob):
            boxes.append((int(round(x + index * step)), y, int(round(step)), h))
    return boxes


def group_lines(boxes: list[Box], config: PlayerBoardConfig = DEFAULT_CONFIG) -> list[list[Box]]:
    """Boxes grouped into lines (top to bottom), each split at wide gaps (left to right)."""
    if not boxes:
        return []
    tile = float(np.median([min(w, h) for _, _, w, h in boxes]))
    by_height = sorted(boxes, key=lambda b: b[1] + b[3] / 2)
    lines: list[list[Box]] = []
    for box in by_height:
        centre = box[1] + box[3] / 2
        if lines:
            line = lines[-1]
            mean = sum(b[1] + b[3] / 2 for b in line) / len(line)
            if abs(centre - mean) <= config.line_tolerance * tile:
                line.append(box)
                continue
        lines.append([box])
    groups: list[list[Box]] = []
    for line in lines:
        line.sort(key=lambda b: b[0])
        group = [line[0]]
        for previous, box in zip(line, line[1:], strict=False):
            gap = box[0] - (previous[0] + previous[2])
            if gap > config.group_gap * tile:
                groups.append(group)
                group = []
            elif gap > config.missing_gap * tile:
                # A row has no holes (letters are only ever inserted), so a gap of about a
                # tile inside a line is a tile too like the table to stand out: read it there.
                count = max(1, round(gap / (tile * 1.05)))
                step = gap / count
                top = (previous[1] + box[1]) // 2
                for index in range(count):
                    group.append((int(round(previous[0] + previous[2] + index * step)), top,
                                  int(round(step)), int(round(tile))))
            group.append(box)
        groups.append(group)
    return groups


def assign_parts(groups: list[list[Any]], expected: tuple[int, int, int] | None
                 ) -> tuple[list[Any], list[Any], list[Any], list[str]]:
    """Row 1, row 2 and the pool from the groups found, in reading order.

    Three groups are row 1, row 2, pool. With fewer, ``expected`` (the letters each part held
    last, as the referee knows them) names the parts that are not empty, in order; without it
    the groups fill row 1, then row 2. More than three: the extra groups join the pool.
    """
    warnings: list[str] = []
    parts: list[list[Any]] = [[], [], []]
    if len(groups) >= 3:
        parts[0], parts[1] = list(groups[0]), list(groups[1])
        parts[2] = [item for group in groups[2:] for item in group]
        if len(groups) > 3:
            warnings.append(f"{len(groups)} groups of tiles: everything after row 2 is read"
                            " as the pool")
        return parts[0], parts[1], parts[2], warnings
    slots = [0, 1, 2]
    if expected is not None:
        non_empty = [index for index, count in enumerate(expected) if count > 0]
        if len(non_empty) >= len(groups):
            slots = non_empty
        else:
            warnings.append("more groups of tiles than the referee expects: check the rows")
    for slot, group in zip(slots, groups, strict=False):
        parts[slot] = list(group)
    return parts[0], parts[1], parts[2], warnings


# -- reading ----------------------------------------------------------------------------------

def _crop(image: np.ndarray, box: Box, pad: float) -> np.ndarray:
    x, y, w, h = box
    dx, dy = int(round(w * pad)), int(round(h * pad))
    height, width = image.shape[:2]
    x0, y0 = max(0, x - dx), max(0, y - dy)
    x1, y1 = min(width, x + w + dx), min(height, y + h + dy)
    return image[y0:y1, x0:x1]


def _read_upright(image: np.ndarray, classifier: TileClassifier,
                  config: PlayerBoardConfig) -> tuple[list[list[ReadTile]], list[int]]:
    """Groups of read tiles, and the rotations the classifier saw (for turning the photo)."""
    found = find_tiles(image, config)
    groups = group_lines(found, config)
    boxes = [box for group in groups for box in group]
    crops = [_crop(image, box, config.crop_pad) for box in boxes]
    guesses = classifier.classify(crops, config.letters) if crops else []
    seen = set(found)  # the others were filled into gaps: always confirmed by a tap
    tiles = iter([ReadTile(g.letter, float(g.confidence), g.runner_up, box,
                           g.letter == BLANK or g.confidence < config.low_confidence
                           or box not in seen)
                  for g, box in zip(guesses, boxes, strict=True)])
    read = [[next(tiles) for _ in group] for group in groups]
    return read, [g.rotation for g in guesses if g.letter != BLANK]


def read_player_board(image: np.ndarray, *, expected: tuple[int, int, int] | None = None,
                      config: PlayerBoardConfig = DEFAULT_CONFIG,
                      classifier: TileClassifier | None = None) -> PlayerBoardReading:
    """Read a photo of one player's board (BGR) into its rows and pool.

    ``expected``: how many letters row 1, row 2 and the pool held last (used only to place the
    groups when fewer than three are seen). No tiles found is an empty reading with a warning,
    not an error: an empty board is a board.
    """
    classifier = classifier or TileClassifier.load()
    scale = min(1.0, config.work_width / image.shape[1])
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    image, _ = _straightened(image, config)
    turns = 0
    if lines_run_down(image, config):
        image = np.ascontiguousarray(np.rot90(image, k=1))  # the lines now run across
        turns = 1
    groups, rotations = _read_upright(image, classifier, config)
    if rotations:
        votes = np.bincount(np.asarray(rotations) // 90, minlength=4)
        more = int(np.argmax(votes))
        if more and votes[more] > votes[0]:
            # The top of most letters points ``more`` quarter turns clockwise: turn the photo
            # back (np.rot90 turns anticlockwise) and find the lines again.
            image = np.ascontiguousarray(np.rot90(image, k=more))
            groups, _ = _read_upright(image, classifier, config)
            turns = (turns + more) % 4
    row1, row2, pool, warnings = assign_parts(groups, expected)
    if not groups:
        warnings.append("no tiles found: an empty board, or the tiles do not stand out from the"
                        " table")
    unsure = sum(tile.unsure for tile in row1 + row2 + pool)
    if unsure:
        warnings.append(f"{unsure} letter(s) unsure: confirm them by tapping")
    return PlayerBoardReading((tuple(row1), tuple(row2)), tuple(pool), turns, tuple(warnings))


__all__ = [
    "DEFAULT_CONFIG",
    "PlayerBoardConfig",
    "PlayerBoardReading",
    "ReadTile",
    "assign_parts",
    "face_mask",
    "find_tiles",
    "group_lines",
    "lines_run_down",
    "skew_degrees",
    "read_player_board",
]
