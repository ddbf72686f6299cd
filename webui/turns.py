"""The table's turn protocol (FORMATS.md): when what the camera sees becomes a play.

Tiles go down one at a time, and a board that is merely still for a moment is often a word
caught half laid (M on H14, making MA, on the way to DRAMA). So a play is judged only when its
player says it is finished: the **Done** button, or ``POST /api/games/<id>/done``. A table that
wants to play hands-free sets ``options.commit`` to ``"auto"``: the play is then judged once the
board has stood still, with nothing over it, for ``options.settle_s`` seconds. Until then the
table shows what the camera sees as *provisional*: the new tiles and the words they make so far,
judged by nobody and recorded nowhere.

This module holds the game's choice (:class:`Commit`) and what a provisional play is
(:func:`provisional_play`); the table (``webui.table``) decides when to judge. No Flask, no
pixels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.boardtext import Tile
from referee.cells import Cell
from referee.moves import Snapshot

TAP = "tap"
"""The mover ends the play (Done): the default."""
AUTO = "auto"
"""Hands-free: the play is judged once the board has been steady for ``settle_s`` seconds."""
DEFAULT_SETTLE_S = 4.0
MAX_SETTLE_S = 60.0


@dataclass(frozen=True)
class Commit:
    """How a game's plays are ended: ``mode`` (:data:`TAP` or :data:`AUTO`) and, hands-free,
    how long the board must stand still first."""

    mode: str = TAP
    settle_s: float = DEFAULT_SETTLE_S

    @classmethod
    def of_options(cls, options: Mapping[str, Any]) -> Commit:
        """The game's ``options.commit`` and ``options.settle_s``; a bad one raises
        ``ValueError`` in one sentence."""
        mode = options.get("commit", TAP)
        if mode not in (TAP, AUTO):
            raise ValueError(f"options.commit must be {TAP!r} (the mover says Done) or {AUTO!r} "
                             f"(judged once the board is still), not {mode!r}")
        settle = options.get("settle_s", DEFAULT_SETTLE_S)
        if isinstance(settle, bool) or not isinstance(settle, int | float) \
                or not math.isfinite(settle) or not 0 <= settle <= MAX_SETTLE_S:
            raise ValueError(f"options.settle_s must be a number of seconds from 0 to "
                             f"{MAX_SETTLE_S:.0f}, not {settle!r}")
        return cls(mode, float(settle))

    @property
    def hands_free(self) -> bool:
        return self.mode == AUTO

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "settle_s": self.settle_s}


@dataclass(frozen=True)
class Provisional:
    """What the camera sees of a play not yet finished: whose turn it is, the squares with a new
    tile (South view, board order), the words they make so far (the main word first) and the
    tiles seen on those squares (board-text tokens), which the table draws outlined."""

    player: str
    placed: tuple[str, ...]
    words: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    preview: Mapping[str, Any] | None = field(default=None, hash=False)
    """The verdict the play would get as it stands (islands: the stones' islands, bonus, or
    why they would be refused), where the table shows one."""

    def to_json(self) -> dict[str, Any]:
        """FORMATS.md's ``provisional``: ``{"player", "placed", "words"}``, and docs/formats.md's
        ``tiles`` (``{"H14": "M^"}``; a stone's colour letter) and ``preview``."""
        data = {"player": self.player, "placed": list(self.placed), "words": list(self.words),
                "tiles": dict(zip(self.placed, self.tiles, strict=True))}
        if self.preview is not None:
            data["preview"] = dict(self.preview)
        return data


def new_tiles(seen: Mapping[Cell, Tile], board: Mapping[Cell, Tile]) -> list[Cell]:
    """The squares where the camera sees a tile the game does not have there (a new tile, or
    another one), in board order: what the table outlines while a play is being laid."""
    return sorted((cell for cell, tile in seen.items() if board.get(cell) != tile
                   and not _same_blank(tile, board.get(cell))),
                  key=lambda cell: (cell.row, cell.col))


def _same_blank(seen: Tile, known: Tile | None) -> bool:
    """A blank the game knows looks like ``?`` to the camera: that is no new tile."""
    return known is not None and known.blank and seen.letter == "?" \
        and seen.rotation == known.rotation


def provisional_play(game: Any, seen: Mapping[Cell, Tile]) -> Provisional | None:
    """What ``seen`` (a steady board, South view) shows of the mover's play so far, or None when
    nobody is to move. The words are the referee's own reading of the board as a play
    (``Game.examine``: nothing is judged for the record), or, where it reads no word, none."""
    mover = game.to_move
    if mover is None:
        return None
    placed = new_tiles(seen, game.board.tiles)
    verdict = game.examine(Snapshot(mover.id, seen))
    if verdict.legal:
        words = tuple(word.word for word in verdict.words)
    elif verdict.move is not None and getattr(verdict.move, "word", None):
        words = (verdict.move.word,)
    else:
        words = ()
    return Provisional(mover.id, tuple(cell.name for cell in placed), words,
                       tuple(seen[cell].token for cell in placed))
