"""Live frames: from a stream of camera pictures to the few board readings worth judging.

A camera at the table sends several pictures a second; almost all of them show either the same
board as before or a board with a hand over it. This module keeps, per game, the steadiness
tracker (``vision.steady``), a short window of steady readings that must agree cell by cell before
the referee sees them (one misread frame never becomes a move), and what the table is waiting for.
It knows boards as ``{Cell: Tile}`` and nothing about the rules: the table (``webui.table``)
decides what a fused board means for the game.
"""

from __future__ import annotations

import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.boardtext import Tile, rotate_tiles
from referee.cells import Cell, Seat
from vision import (
    KNOWN_TILE_SURE,
    Doubts,
    ReadingWarning,
    SteadyConfig,
    SteadyTracker,
    ViewCheck,
    WarningCode,
    maybe_tile_cells,
    off_square_cells,
)
from webui.turns import Provisional

Board = dict[Cell, Tile]

# What the referee waits for (FORMATS.md ``waiting_for``).
WAIT_STEADY = "a steady view"
WAIT_PLAY = "a play"
WAIT_REMOVAL = "tiles to be removed"
WAIT_RESTORE = "tiles to be put back"
WAIT_BOARD = "a view of the whole board"
WAIT_GAME_OVER = "nothing: the game is over"


@dataclass(frozen=True)
class LiveConfig:
    """The thresholds of live play in one place."""

    steady: SteadyConfig = field(default_factory=SteadyConfig)
    fusion_window: int = 3     # the last this many steady readings are compared...
    fusion_votes: int = 2      # ...and every cell must read the same in at least this many
    max_frame_bytes: int = 8_000_000       # a live camera frame
    max_frame_pixels: int = 12_000_000
    # A phone's own full-resolution photo (a dispute): 50 MP sensors write 8160 x 6120 JPEGs of
    # 10-20 MB; larger is refused in one sentence before it is decoded.
    max_photo_bytes: int = 25_000_000
    max_photo_pixels: int = 52_000_000
    done_wait_s: float = 3.0
    """Done said while the view is changing (a hand just left the board) waits this long for
    the camera's next steady reading, rather than judge the one before the last tile."""


class Fusion:
    """Agreement between the last few steady readings, cell by cell."""

    def __init__(self, window: int, votes: int) -> None:
        self.window = window
        self.votes = votes
        self._readings: deque[Board] = deque(maxlen=window)

    def clear(self) -> None:
        self._readings.clear()

    def add(self, board: Board) -> Board | None:
        """Add a reading; returns the fused board once every cell has enough agreeing votes."""
        self._readings.append(dict(board))
        if len(self._readings) < self.votes:
            return None
        cells = set().union(*self._readings)
        fused: Board = {}
        for cell in cells:
            votes = Counter(reading.get(cell) for reading in self._readings)
            tile, count = votes.most_common(1)[0]
            if count < self.votes:
                return None
            if tile is not None:
                fused[cell] = tile
        return fused


def to_south_frame(tiles: Board, camera_side: str) -> Board:
    """A reading taken from ``camera_side`` (the image's bottom edge) turned into the South view.

    The reader treats the bottom of the picture as South; a camera facing the board from West
    sees West's frame, which is South's turned by West's quarter turns.
    """
    seat = Seat.parse(camera_side)
    return rotate_tiles(tiles, seat.quarter_turns) if seat.quarter_turns else dict(tiles)


def to_camera_frame(tiles: Board, camera_side: str) -> Board:
    """The game's board (South view) as the camera at ``camera_side`` reads it: the inverse of
    :func:`to_south_frame`, so a reading can be compared with what the game knows."""
    turns = (4 - Seat.parse(camera_side).quarter_turns) % 4
    return rotate_tiles(tiles, turns) if turns else dict(tiles)


class Detail(NamedTuple):
    """What the table is told beside what it waits for, and the squares it names (South view):
    the board rings them."""

    text: str = ""
    cells: tuple[str, ...] = ()


def waiting_detail(warnings: Iterable[ReadingWarning], camera_side: str,
                   last_word: tuple[str, Sequence[str]] | None = None) -> Detail:
    """What the table is told beside what it waits for, from a reading's warnings, when nothing
    more pressing is said: a camera too far from the board; else a square at either end of the
    last word played (``last_word``: the word and its cells, South view) that may hold a tile
    the camera did not see (:func:`word_end_doubts`); else the tiles lying half on the next
    square (named in the South view), which the players can straighten before a play is
    judged (the reader has put each on the square it mostly covers, which may not be the one
    meant)."""
    warnings = list(warnings)
    small = next((warning.message for warning in warnings
                  if warning.code == WarningCode.SMALL_BOARD), "")
    if small:
        return Detail(small)
    if last_word is not None:
        ends = word_end_doubts(warnings, camera_side, last_word[1])
        if ends:
            return Detail(tile_question(" or ".join(ends), next_to=last_word[0].upper()),
                          tuple(ends))
    turns = Seat.parse(camera_side).quarter_turns
    cells = tuple(Cell.parse(name).turned(turns).name for name in off_square_cells(warnings))
    if not cells:
        return Detail()
    if len(cells) == 1:
        return Detail(f"a tile lies half off its square on {cells[0]}: push it onto its square",
                      cells)
    return Detail(f"tiles lie half off their squares on {', '.join(cells)}: push them onto "
                  "their squares", cells)


def tile_question(squares: str, next_to: str = "") -> str:
    """The table's question about ``squares`` read as empty where a tile may lie unseen (a gap
    in a play, the end of the last word ``next_to``), worded the same wherever it is asked."""
    where = f"{squares}, next to {next_to}" if next_to else squares
    return f"is there a tile on {where}? A blank can look like its square: tap {squares} to add it"


def word_end_doubts(warnings: Iterable[ReadingWarning], camera_side: str,
                    word_cells: Sequence[str]) -> list[str]:
    """The squares just before and just after a word (its ``word_cells``, South view, in
    order) that a reading's warnings doubt: read as empty, but maybe a tile
    (:func:`vision.warning.maybe_tile_cells`), named in the South view.

    Why: the tile the reader most often misses is a blank the colour of its square. Missed
    inside a word it leaves a hole the referee refuses and names; missed at the word's end,
    the play is judged as the shorter word, maybe legal, and scored short without a word said.
    """
    cells = [Cell.parse(name) for name in word_cells]
    if len(cells) < 2:
        return []
    first, last = cells[0], cells[-1]
    dcol = (last.col > first.col) - (last.col < first.col)
    drow = (last.row > first.row) - (last.row < first.row)
    turns = Seat.parse(camera_side).quarter_turns
    doubted = {Cell.parse(name).turned(turns) for name in maybe_tile_cells(warnings)}
    return [end.name for end in (first.offset(-dcol, -drow), last.offset(dcol, drow))
            if end.on_board() and end in doubted]


def without_rotation(tiles: Board) -> Board:
    """Scrabble tiles carry no owner: drop the rotations a reader may report."""
    return {cell: Tile(tile.letter, tile.blank, None) for cell, tile in tiles.items()}


def blanks_as_placed(seen: Board, expected: Board, mover_rotation: int) -> Board:
    """A blank's rotation as the game knows it, not as the camera guessed it.

    A blank has no letter or value to turn, so the rotation read for it is a guess: on 40
    rendered two-seat archipelago boards, 17 of 68 blanks were read facing the seat that placed
    them (one in four: chance), and a blank facing another seat is no play of the mover's. So a
    blank the game already holds keeps the game's rotation, and a new one faces the mover, the
    only player who can have put a tile down.
    """
    settled = dict(seen)
    for cell, tile in seen.items():
        if not tile.blank:
            continue
        want = expected.get(cell)
        rotation = want.rotation if want is not None and want.blank else mover_rotation
        settled[cell] = Tile(tile.letter, True, rotation)
    return settled


Override = tuple[str | None, str | None]
"""A player's correction of a square: (what the camera saw there, what the player said is
there), each a board-text token or None for an empty square."""


def hold_corrections(seen: Board, overrides: Mapping[Cell, Override], doubts: Doubts,
                     camera_side: str) -> Board:
    """The players' corrections applied to a reading (South view): each holds for its square
    until the camera reads a sure change there.

    A correction is made because the camera misreads a square, and it goes on misreading it
    the same way, or another way no surer: a phantom blank on an empty D1 comes back as a
    blank (facing whoever is to move, :func:`blanks_as_placed`), or as a faint O. So the
    correction holds while the square reads as it did when corrected (a blank as any blank),
    or reads otherwise unsurely (a letter under ``vision.KNOWN_TILE_SURE``, an empty square a
    warning says may hold a tile). A tile read surely where the camera had seen another, or
    nothing, is a real change (a tile put down there), and is believed. ``doubts`` are the
    reading's, in the camera's view (``camera_side``).
    """
    back = (4 - Seat.parse(camera_side).quarter_turns) % 4
    held = dict(seen)
    for cell, (was, fixed) in overrides.items():
        current = seen.get(cell)
        camera_cell = cell.turned(back)
        if current is None:
            sure = camera_cell not in doubts.maybe_tiles
        else:
            sure = doubts.confidence.get(camera_cell, 1.0) >= KNOWN_TILE_SURE
        if not _looks_alike(current, was) and sure:
            continue
        if fixed:
            held[cell] = Tile.parse(fixed)
        else:
            held.pop(cell, None)
    return held


def _looks_alike(tile: Tile | None, token: str | None) -> bool:
    """Does the camera see ``tile`` as it saw ``token``? Any blank looks like any blank (its
    arrow is a guess); a lettered tile by its letter and arrow."""
    if tile is None or token is None:
        return tile is None and token is None
    seen = Tile.parse(token)
    if tile.blank or seen.blank:
        return tile.blank and seen.blank
    return (tile.letter, tile.rotation) == (seen.letter, seen.rotation)


def shows(seen: Board, cell: Cell, tile: Tile) -> bool:
    """Does the camera's board show ``tile`` on ``cell``? A blank looks like ``?``."""
    return same_board({cell: seen[cell]} if cell in seen else {}, {cell: tile})


def same_board(seen: Board, expected: Board) -> bool:
    """Does the camera's board match the game's? A blank looks like ``?`` to the camera."""
    if seen.keys() != expected.keys():
        return False
    for cell, tile in seen.items():
        want = expected[cell]
        if tile == want:
            continue
        if tile.letter == "?" and want.blank and tile.rotation == want.rotation:
            continue
        return False
    return True


def keep_designated_blanks(seen: Board, expected: Board) -> Board:
    """Where the camera sees a blank the game already knows, use the game's designation."""
    merged = dict(seen)
    for cell, tile in seen.items():
        want = expected.get(cell)
        if tile.letter == "?" and want is not None and want.blank and want.letter != "?":
            merged[cell] = Tile(want.letter, True, tile.rotation)
    return merged


@dataclass
class LiveStatus:
    """What the table should see now (the live page and the referee board show it)."""

    waiting_for: str = WAIT_STEADY
    detail: str = ""
    updated_at: float = 0.0
    detail_cells: tuple[str, ...] = ()  # the squares ``detail`` names (South view)
    provisional: Provisional | None = None  # the play being laid, not judged yet

    def to_json(self) -> dict[str, object]:
        return {"waiting_for": self.waiting_for, "detail": self.detail,
                "detail_cells": list(self.detail_cells), "updated_at": self.updated_at,
                "provisional": self.provisional.to_json() if self.provisional else None}


class LiveTable:
    """The live state of one game's camera; lives in memory (frames are not history).

    Besides the steadiness tracker and the fusion window it keeps the latest steady reading
    (``seen``, the fused board in the South view) and since when it has stood unchanged with
    nothing over it: the turn protocol (``webui.turns``) judges that board when the mover says
    Done, or, hands-free, once it has stood long enough.
    """

    def __init__(self, config: LiveConfig) -> None:
        self.config = config
        self.tracker = SteadyTracker(config.steady)
        self.fusion = Fusion(config.fusion_window, config.fusion_votes)
        self.lock = threading.Lock()
        self.last_judged: Board | None = None   # the fused board last sent to the referee
        self.last_frame_jpeg: bytes | None = None
        self.last_frame_size: tuple[int, int] | None = None
        self.status = LiveStatus()
        self.seen: Board | None = None
        self.seen_since = 0.0
        self._settled = threading.Condition()
        self._unsettled = True  # the view has changed since ``seen`` was fused

    def check_view(self, image: Any) -> ViewCheck:
        check = self.tracker.update(image)
        if not check.steady:
            self.view_lost()
        return check

    def view_lost(self) -> None:
        """The frame shows no steady board (a hand over it, the camera moving, a frame the reader
        refused): the readings fused so far may outvote the next one, so they are dropped, and
        the view has changed (:meth:`view_changed`)."""
        self.fusion.clear()
        self.view_changed()

    def view_changed(self) -> None:
        """The picture moved or something is over the board: ``seen`` may be out of date, and
        the hands-free clock starts again once the view is steady."""
        with self._settled:
            self._unsettled = True

    def saw(self, board: Board) -> None:
        """A new steady reading (fused): the latest the table has; wakes a waiting Done."""
        with self._settled:
            if board != self.seen or self._unsettled:
                self.seen_since = time.time()
            self.seen = dict(board)
            self._unsettled = False
            self._settled.notify_all()

    def forget_seen(self) -> None:
        """The board's corners moved: readings taken before say nothing of the squares now."""
        self.fusion.clear()
        with self._settled:
            self.seen = None
            self._unsettled = True

    def steady_for(self) -> float:
        """How long the latest steady reading has stood unchanged with nothing over the board
        (0 while the view is changing)."""
        with self._settled:
            return 0.0 if self._unsettled or self.seen is None else time.time() - self.seen_since

    def wait_settled(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a steady reading taken since the view last
        changed; True when there is one."""
        with self._settled:
            return self._settled.wait_for(lambda: not self._unsettled, timeout)

    def set_status(self, waiting_for: str, detail: str = "",
                   detail_cells: Sequence[str] = (),
                   provisional: Provisional | None = None) -> bool:
        """Set what the table waits for; True when it changed (screens should update)."""
        changed = (waiting_for, detail, provisional) != (
            self.status.waiting_for, self.status.detail, self.status.provisional)
        self.status = LiveStatus(waiting_for, detail, time.time(), tuple(detail_cells),
                                 provisional)
        return changed
