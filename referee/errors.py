"""The reason codes, the exception every ruleset raises for a move it refuses, and set-up errors.

The codes are the words the command line, the web UI and the tests share (FORMATS.md). When a
move breaks several rules the verdict names the first in :data:`REASONS` (RULES.md §1), so the
order of that tuple is the order in which rulesets run their checks.
"""

from __future__ import annotations

from typing import Any

REASONS: tuple[str, ...] = (
    "bad-move",
    "game-over",
    "player-eliminated",
    "not-your-turn",
    "off-board",
    "not-in-line",
    "letter-mismatch",
    "no-tile-placed",
    "word-extends",
    "first-move-home-row",
    "first-move-centre",
    "not-connected",
    "not-in-word-list",
    "invalid-cross-word",
)
"""RULES.md §1's reason codes in order of precedence."""

EXTENSION_REASONS: tuple[str, ...] = (
    "board-mismatch",
    "blank-undesignated",
)
"""Codes this project adds for ``board`` snapshot moves (docs/formats.md).

``board-mismatch`` ranks just after ``not-your-turn`` (nothing can be judged until the board
agrees with the position); ``blank-undesignated`` ranks just before ``not-in-word-list`` (a word
with an unknown letter can be placed but not looked up).
"""


PRECEDENCE: tuple[str, ...] = (
    *REASONS[:4], "board-mismatch", *REASONS[4:12], "blank-undesignated", *REASONS[12:],
)
"""Every code a verdict may carry, in the order a ruleset checks them."""


def first_reason(reasons: list[str]) -> str:
    """Of several failed rules, the one a verdict names (unknown codes rank last)."""
    return min(reasons, key=lambda code: PRECEDENCE.index(code) if code in PRECEDENCE
               else len(PRECEDENCE))


class SetupError(ValueError):
    """A game that cannot be set up (bad players, options or position): one line for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


class IllegalPlayError(ValueError):
    """A move the referee refuses: ``reason`` is a code, ``message`` one sentence for a person.

    ``details`` carries extra verdict fields a ruleset wants the player to see (for a snapshot:
    the inferred move, the cells that changed unexpectedly, the letters a blank could be).
    """

    def __init__(self, reason: str, message: str, **details: Any) -> None:
        message = " ".join(str(message).split())
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.details: dict[str, Any] = details


__all__ = ["EXTENSION_REASONS", "PRECEDENCE", "REASONS", "IllegalPlayError", "SetupError",
           "first_reason"]
