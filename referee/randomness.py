"""Seeded, logged draws: every random thing the referee does can be replayed exactly.

A game at a real table draws real tiles; the referee only needs to know what came out. So every
draw is either *entered* (the players drew a tile and typed what they saw) or *made* by the
referee from the tiles it cannot see, with a generator seeded from the game's seed and the draw's
index. Because a draw depends only on (seed, index, what it drew from), undoing a move is just
forgetting the draws it made, and replaying the same moves with the same seed (or with the logged
draws entered by hand) gives the same game. The log goes into every verdict that drew anything.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Draw:
    """One logged draw: what it was for, what came out, and who made it.

    ``purpose`` names the draw for a person ("coaster-shuffle", "refill", "english-letter",
    "tiebreak"); ``result`` is the outcome in draw order; ``entered`` is True when the players
    drew it and told the referee, False when the referee's seeded generator made it.
    """

    index: int
    purpose: str
    result: tuple[Any, ...]
    entered: bool

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "purpose": self.purpose, "result": list(self.result),
                "entered": self.entered}


class DrawLog:
    """The game's generator and its log; ``mark``/``rewind`` let a game undo a move's draws."""

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = secrets.randbelow(2**31)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"a seed is a whole number, not {seed!r}")
        self.seed = seed
        self.draws: list[Draw] = []

    def _generator(self) -> random.Random:
        # One generator per draw, seeded by (game seed, draw index): a draw never depends on how
        # many numbers earlier draws consumed, so undoing and replaying stays exact.
        return random.Random(f"tileref:{self.seed}:{len(self.draws)}")

    def _log(self, purpose: str, result: Sequence[Any], entered: bool) -> None:
        self.draws.append(Draw(len(self.draws), purpose, tuple(result), entered))

    def shuffle(self, items: Sequence[T], purpose: str) -> list[T]:
        """A seeded shuffle of ``items`` (made by the referee), logged."""
        shuffled = list(items)
        self._generator().shuffle(shuffled)
        self._log(purpose, shuffled, entered=False)
        return shuffled

    def sample(self, population: Sequence[T], count: int, purpose: str) -> list[T]:
        """``count`` items drawn without replacement from ``population`` (a multiset), logged.

        The population is sorted first so the result depends on its contents, not on the order
        in which the caller happened to collect them.
        """
        ordered = sorted(population)  # type: ignore[type-var]
        if count > len(ordered):
            raise ValueError(f"cannot draw {count} from {len(ordered)}")
        result = self._generator().sample(ordered, count)
        self._log(purpose, result, entered=False)
        return result

    def enter(self, purpose: str, result: Sequence[Any]) -> list[Any]:
        """Log a draw the players made and reported; the caller has checked it was possible."""
        self._log(purpose, result, entered=True)
        return list(result)

    def mark(self) -> int:
        return len(self.draws)

    def rewind(self, mark: int) -> None:
        del self.draws[mark:]

    def since(self, mark: int) -> list[Draw]:
        return self.draws[mark:]

    def to_json(self) -> dict[str, Any]:
        return {"seed": self.seed, "draws": [draw.to_json() for draw in self.draws]}


__all__ = ["Draw", "DrawLog"]
