"""What a reading doubts, as data: a code, the cells it names, and the sentence a person reads.

A reading warns where the photo may have misled it (glare over K3, unsure whether B1 holds a
tile, marks of another tile set). People read the sentence; programs act on the code and the
cells (which squares to ring on the board, which doubts the game's own tiles settle), so a
warning is reworded here without any consumer noticing. Every warning the reader gives is made
by one of the functions below, so its words live in one place, and the functions that read
warnings back (:func:`maybe_tile_cells`, :func:`said_once`, ...) look at codes and cells only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from referee.cells import Cell


class WarningCode(StrEnum):
    """The kinds of warning a reading gives (docs/formats.md explains each)."""

    SMALL_BOARD = "small-board"
    """The board is small in the photo: letters are read less surely (no cell named)."""
    OTHER_TILE_SET = "other-tile-set"
    """Letters carry marks the tile set read with has none of: maybe another set (no cell)."""
    GLARE = "glare"
    """Glare over a tile."""
    SHADOW = "shadow"
    """A tile in shadow."""
    BLUR = "blur"
    """A tile much softer than the photo's others."""
    SOMETHING_OVER = "something-over"
    """Something (a hand, a sticky note) lies over a tile."""
    GLARE_MAY_HIDE_A_TILE = "glare-may-hide-a-tile"
    """Glare over a square read as empty: it may hide a tile."""
    SHADOW_MAY_HIDE_A_TILE = "shadow-may-hide-a-tile"
    """A square read as empty in shadow: it may hide a tile."""
    BLUR_MAY_HIDE_A_TILE = "blur-may-hide-a-tile"
    """A square read as empty in a part of the photo too soft to tell: it may hide a tile."""
    SOMETHING_OVER_MAY_HIDE_A_TILE = "something-over-may-hide-a-tile"
    """Something lies over a square read as empty: it may hide a tile."""
    OFF_SQUARE = "off-square"
    """A tile lying half on the next square, read as the cell's it mostly covers."""
    UNSURE_LETTER = "unsure-letter"
    """A tile whose letter is read unsurely (or one of more blanks than the set holds)."""
    UNSURE_WHETHER_TILE = "unsure-whether-tile"
    """A square read as empty that the reader half believed a tile."""


_CODES = frozenset(code.value for code in WarningCode)
_MAY_HIDE = {WarningCode.GLARE: WarningCode.GLARE_MAY_HIDE_A_TILE,
             WarningCode.SHADOW: WarningCode.SHADOW_MAY_HIDE_A_TILE,
             WarningCode.BLUR: WarningCode.BLUR_MAY_HIDE_A_TILE,
             WarningCode.SOMETHING_OVER: WarningCode.SOMETHING_OVER_MAY_HIDE_A_TILE}
"""The trouble over a tile, and the same trouble over a square read as empty."""
MAYBE_A_TILE = frozenset({*_MAY_HIDE.values(), WarningCode.UNSURE_WHETHER_TILE})
"""The codes that say a square read as empty may hold a tile."""
SAID_ONCE = frozenset({*_MAY_HIDE, *_MAY_HIDE.values(), WarningCode.UNSURE_LETTER,
                       WarningCode.UNSURE_WHETHER_TILE})
"""The codes whose warnings name their one cell once in their words, so that the same words said
of several cells can be said once, naming them all (:func:`said_once`)."""


@dataclass(frozen=True)
class ReadingWarning:
    """One thing a reading doubts: a :class:`WarningCode`, the cells involved, a sentence.

    ``tile_sets`` are the tile sets an :attr:`WarningCode.OTHER_TILE_SET` warning names (the
    photo may be of one of them), in the order named; empty for every other warning.
    """

    code: str
    cells: tuple[Cell, ...]
    message: str
    tile_sets: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"code", "cells": ["K3"], "message"}``, and ``"tile_sets"`` where there are some."""
        data: dict[str, Any] = {"code": str(self.code), "cells": [cell.name for cell in self.cells],
                                "message": self.message}
        if self.tile_sets:
            data["tile_sets"] = list(self.tile_sets)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReadingWarning:
        """The warning :meth:`to_json` gave; a code this version does not know is kept as it is.
        Raises ``ValueError`` (one line) on anything malformed."""
        if not isinstance(data, Mapping):
            raise ValueError(f"a reading's warning must be an object, not {data!r}")
        code, message = data.get("code"), data.get("message")
        cells, tile_sets = data.get("cells", []), data.get("tile_sets", [])
        if not isinstance(code, str) or not code:
            raise ValueError(f"a reading's warning needs a code, not {code!r}")
        if not isinstance(message, str):
            raise ValueError(f"a reading's warning needs a message, not {message!r}")
        if not isinstance(cells, list) or not all(isinstance(name, str) for name in cells):
            raise ValueError(f"a reading's warning names its cells in a list, not {cells!r}")
        if not isinstance(tile_sets, list) or not all(isinstance(name, str) for name in tile_sets):
            raise ValueError(f"a reading's warning names tile sets in a list, not {tile_sets!r}")
        known = WarningCode(code) if code in _CODES else code
        return cls(known, tuple(Cell.parse(name) for name in cells), message, tuple(tile_sets))

    def turned(self, quarter_turns: int) -> ReadingWarning:
        """The same warning in the view turned clockwise: its cells, and the names its words
        give them, follow the tiles ("glare over K3" must point at the tile the turned board
        shows there, not at the square that had that name before the turn)."""
        cells = tuple(cell.turned(quarter_turns) for cell in self.cells)
        return replace(self, cells=cells, message=_renamed(self.message, self.cells, cells))


def _renamed(message: str, before: Sequence[Cell], after: Sequence[Cell]) -> str:
    """``message`` with each cell of ``before`` called by its name in ``after``, all at once (a
    cell may be renamed to the name another had)."""
    for index, cell in enumerate(before):
        message = message.replace(cell.name, f"\0{index}\0")
    for index, cell in enumerate(after):
        message = message.replace(f"\0{index}\0", cell.name)
    return message


def reading_warnings(reading: Mapping[str, Any]) -> list[ReadingWarning]:
    """The warnings of a reading known only as its JSON (``tileref read --json``, a frame the web
    service answered): its ``warning_details``, none where it has none. Raises ``ValueError`` on
    a malformed one."""
    details = reading.get("warning_details") or []
    if not isinstance(details, list):
        raise ValueError(f"a reading's warning_details must be a list, not {details!r}")
    return [ReadingWarning.from_json(detail) for detail in details]


# -- the warnings a reading gives, and their words --------------------------------------------


def _on(code: WarningCode, cell: Cell, words: str) -> ReadingWarning:
    return ReadingWarning(code, (cell,), words)


def glare_over(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.GLARE, cell, f"glare over {cell.name}")


def shadow_over(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.SHADOW, cell, f"shadow over {cell.name}")


def blur_over(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.BLUR, cell, f"blur over {cell.name}")


def something_over(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.SOMETHING_OVER, cell, f"something over {cell.name}")


def may_hide_a_tile(warning: ReadingWarning) -> ReadingWarning:
    """A glare, shadow, blur or something-over warning said of a square read as empty."""
    return replace(warning, code=_MAY_HIDE[WarningCode(warning.code)],
                   message=f"{warning.message} (may hide a tile)")


def off_its_square(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.OFF_SQUARE, cell,
               f"tile off its square on {cell.name} (half on the next one: read as "
               f"{cell.name}'s)")


def unsure_of_letter(cell: Cell, letter: str, runner_up: str) -> ReadingWarning:
    """A tile read as ``letter``, maybe ``runner_up`` (``?``: a blank, said as "a blank")."""
    return _on(WarningCode.UNSURE_LETTER, cell,
               f"unsure of the letter on {cell.name} ({_letter_words(letter)}, maybe "
               f"{_letter_words(runner_up)})")


def _letter_words(letter: str) -> str:
    """A letter as a person reads it: a blank is no letter ``?`` but "a blank"."""
    return "a blank" if letter == "?" else letter


def unsure_whether_tile(cell: Cell) -> ReadingWarning:
    return _on(WarningCode.UNSURE_WHETHER_TILE, cell,
               f"unsure whether {cell.name} holds a tile (read as empty)")


def other_tile_set(letters: int, tile_sets: Sequence[str], read_with: str) -> ReadingWarning:
    """``letters`` tiles carry marks the set ``read_with`` has none of, as ``tile_sets`` do."""
    return ReadingWarning(WarningCode.OTHER_TILE_SET, (),
                          f"marks on {letters} letters, as on {' or '.join(tile_sets)} tiles: "
                          f"read the photo with its own tile set (this reading used {read_with})",
                          tuple(tile_sets))


def small_board(cell_px: float, least_px: float, advice: str) -> ReadingWarning:
    """The board's cells are ``cell_px`` across in the photo, under the ``least_px`` that read
    best; ``advice`` says what to do about it."""
    return ReadingWarning(WarningCode.SMALL_BOARD, (),
                          f"board small in the photo (cells {cell_px:.0f} px across, "
                          f"{least_px:.0f} or more read best): {advice}")


# -- reading warnings back ---------------------------------------------------------------------


def _cells_of(warnings: Iterable[ReadingWarning], codes: Iterable[str] | None = None
              ) -> list[str]:
    """The names of the cells the warnings of ``codes`` (all: None) name, once each, in order."""
    chosen = None if codes is None else set(codes)
    return list(dict.fromkeys(cell.name for warning in warnings
                              if chosen is None or warning.code in chosen
                              for cell in warning.cells))


def maybe_tile_cells(warnings: Iterable[ReadingWarning]) -> list[str]:
    """The cells that warnings say may hold a tile though read as empty (glare or shadow that may
    hide one, "unsure whether K3 holds a tile"), in the order named."""
    return _cells_of(warnings, MAYBE_A_TILE)


def off_square_cells(warnings: Iterable[ReadingWarning]) -> list[str]:
    """The cells that warnings name as holding a tile half off its square, in the order named."""
    return _cells_of(warnings, (WarningCode.OFF_SQUARE,))


def other_tile_sets(warnings: Iterable[ReadingWarning]) -> list[str]:
    """The tile sets the first :attr:`WarningCode.OTHER_TILE_SET` warning names ("as on german
    or polish tiles"), in its order; none without one: a page can offer to read the photo
    again with each."""
    for warning in warnings:
        if warning.code == WarningCode.OTHER_TILE_SET:
            return list(warning.tile_sets)
    return []


def warned_cells(warnings: Iterable[ReadingWarning]) -> list[str]:
    """Every cell any warning names, in the order named: the squares a person should look at on
    the table before trusting the reading."""
    return _cells_of(warnings)


def said_once(warnings: Iterable[ReadingWarning]) -> list[ReadingWarning]:
    """The warnings for a person to read: one said of several cells in the same words once,
    naming them all ("shadow over B2, F2 and L4 (may hide a tile)", "unsure whether B1, C1 or D1
    holds a tile (read as empty)"), in the order first named. A warning naming no cell, or more
    than one, or in words of its own ("unsure of the letter on A1 (a blank, maybe K)") stands as
    it is, and the same one twice is said once.

    Why: a dim or glossy photo gives a warning a square, and twenty lines of "unsure whether ...
    holds a tile" hide the few other things said.
    """
    said: dict[tuple[str, str], list[ReadingWarning]] = {}
    for warning in warnings:
        if warning.code in SAID_ONCE and len(warning.cells) == 1:
            key = (warning.code, warning.message.replace(warning.cells[0].name, "\0"))
        else:
            key = ("", warning.message)
        said.setdefault(key, []).append(warning)
    lines = []
    for (code, words), alike in said.items():
        cells = tuple(dict.fromkeys(cell for warning in alike for cell in warning.cells))
        if not code or len(cells) == 1:
            lines.append(alike[0])
            continue
        last = " or " if code == WarningCode.UNSURE_WHETHER_TILE else " and "
        names = [cell.name for cell in cells]
        joined = last.join([", ".join(names[:-1]), names[-1]])
        lines.append(replace(alike[0], cells=cells, message=words.replace("\0", joined)))
    return lines


__all__ = ["MAYBE_A_TILE", "ReadingWarning", "WarningCode", "blur_over", "glare_over",
           "may_hide_a_tile", "maybe_tile_cells", "off_its_square", "off_square_cells",
           "other_tile_set", "other_tile_sets", "reading_warnings", "said_once", "shadow_over",
           "small_board", "something_over", "unsure_of_letter", "unsure_whether_tile",
           "warned_cells"]
