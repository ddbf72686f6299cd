"""Rebuilding a game from its event log: the only way the app ever gets a game's state.

The log (``webui.db``) is the truth; a :class:`GameSession` is what replaying it yields: the
referee's ``Game`` with every move re-judged, the verdicts so far, the tiles the players still
have to lift off, the corrections made at the table and the board corners set by hand. The game
store (``webui.store``) keeps sessions in memory as a cache and appends an event before it
acknowledges anything, so a session thrown away (a crash, a restart) is rebuilt exactly by
:func:`replay`.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.boardtext import Tile
from referee.cells import Cell
from referee.game import new_game
from webui.boardkinds import kind_of
from webui.db import Event
from webui.turns import Commit

log = logging.getLogger(__name__)

# The kinds of event a game's log can hold.
MOVE = "move"            # {"move": <move json>, "verdict": <verdict json>, "source", "reading"?}
UNDO = "undo"            # {"source"}: take back the last legal move (game.pop())
REMOVED = "removed"      # {"cells": [...], "source": "camera" | "player"}: tiles lifted off
RESTORED = "restored"    # {"source": "camera" | "player"}: tiles put back after an undo
CORRECTION = "correction"  # {"cell", "tile" (token or null), "source", "seen", "judged",
#                            "withdraws"?}: a misread cell fixed (see GameSession._apply_correction)
CORNERS = "corners"      # {"corners": [[x, y] x 4] | null}: board corners dragged by hand
KINDS = (MOVE, UNDO, REMOVED, RESTORED, CORRECTION, CORNERS)


class ReplayError(ValueError):
    """The log cannot be replayed into a game (a spec the referee no longer accepts)."""


@dataclass
class GameSession:
    """One game as rebuilt from its log; mutated only by :meth:`apply` (and so by events)."""

    game_id: str
    spec: dict[str, Any]
    game: Any  # referee.Game
    seq: int = 0
    verdicts: list[dict[str, Any]] = field(default_factory=list)
    history: list[dict[str, Any]] = field(default_factory=list)
    pending_remove: list[str] = field(default_factory=list)
    corrections: list[dict[str, Any]] = field(default_factory=list)
    corners: list[list[float]] | None = None
    # cell -> (what the camera saw there, what the player said it is): applied to later readings
    # while the camera keeps seeing the same thing, so a fixed misread stays fixed.
    overrides: dict[Cell, tuple[str | None, str | None]] = field(default_factory=dict)
    last_reading: dict[Cell, Tile] | None = None
    last_reading_seq: int | None = None
    # After an undo: cell name -> the tile (token) the game has there again and the table may
    # not (a captured tile, a tile lifted off), until the camera sees it or a player says so.
    restore: dict[str, str] = field(default_factory=dict)
    # The move last taken back and its verdict, until the next move: what the table says.
    undone: dict[str, Any] | None = None

    @property
    def ruleset(self) -> str:
        return str(self.spec.get("ruleset", ""))

    @property
    def camera_side(self) -> str:
        return str(self.spec.get("table", {}).get("camera_side", "S"))

    @property
    def commit(self) -> Commit:
        """How the game's plays are ended at the table (``options.commit``, ``settle_s``)."""
        try:
            return Commit.of_options(self.spec.get("options") or {})
        except ValueError:  # a game stored before the option was checked: the default
            return Commit()

    def apply(self, event: Event) -> None:
        """Apply one event of the log (a move is judged again, as the referee judges it now)."""
        self._check_order(event)
        handler = getattr(self, f"_apply_{event.kind}", None)
        if handler is None:
            raise ReplayError(f"unknown event kind {event.kind!r}")
        handler(event)
        self.seq = event.seq

    def apply_judged(self, event: Event, verdict: dict[str, Any],
                     reading: Mapping[Cell, Tile] | None) -> None:
        """Apply a move event whose move this session's game has just judged (the store judges
        a move once, before recording it): ``verdict`` is that verdict as stored, ``reading``
        the board the camera read, if the move came from it."""
        self._check_order(event)
        if event.kind != MOVE:
            raise ReplayError(f"event {event.seq} is no move")
        self._moved(event, verdict, reading)
        self.seq = event.seq

    def _check_order(self, event: Event) -> None:
        if event.seq != self.seq + 1:
            raise ReplayError(f"event {event.seq} out of order (expected {self.seq + 1})")

    def _apply_move(self, event: Event) -> None:
        move = type(self.game).move_from_json(event.payload["move"])
        verdict = self.game.judge(move).to_json()
        stored = event.payload.get("verdict")
        if stored is not None and stored.get("legal") != verdict.get("legal"):
            log.warning("game %s event %s: replayed verdict differs from the acknowledged one",
                        self.game_id, event.seq)
        reading = event.payload.get("reading")
        self._moved(event, verdict,
                    kind_of(self.game).parse(reading, self.game) if reading else None)

    def _moved(self, event: Event, verdict: dict[str, Any],
               reading: Mapping[Cell, Tile] | None) -> None:
        """The session's books after a judged move: its verdict, the tiles to lift, the
        camera's last reading."""
        self.verdicts.append(verdict)
        self.history.append({"seq": event.seq, "move": event.payload["move"],
                             "source": event.payload.get("source", "api"),
                             "legal": bool(verdict.get("legal"))})
        self.undone = None
        if verdict.get("legal"):
            self._keep_restore()
            # Tiles still to lift from an earlier capture stay listed (a typed move does not
            # lift them), unless this play has put a tile back on that square.
            occupied = {cell.name for cell in self.game.board.tiles}
            still = [name for name in self.pending_remove if name not in occupied]
            self.pending_remove = still + [name for name in verdict.get("remove") or []
                                           if name not in still]
            for name in verdict.get("remove") or []:
                # The tile is to leave the table: a correction said what lay there before.
                self.overrides.pop(Cell.parse(name), None)
        if reading is not None:
            self.last_reading = dict(reading)
            self.last_reading_seq = event.seq
        elif verdict.get("legal"):
            # A typed play, pass or exchange moved the game past the camera's last picture: a
            # correction now starts from the game's board, not from that stale reading.
            self.last_reading = None
            self.last_reading_seq = None

    def _apply_undo(self, event: Event) -> None:
        """Take back the last legal move. The squares it changed are listed to put back where
        the game has a tile again that the table may not (a captured tile, one lifted off);
        the corrections of those squares end. ``rejudge``: the undo is the first half of a
        correction's judging again, not a player's Undo: nothing is said of it."""
        index = self.last_legal_index()
        if index is None:
            raise ReplayError("nothing to undo")
        before = dict(self.game.board.tiles)
        self.game.pop()
        after = self.game.board.tiles
        if not event.payload.get("rejudge"):
            self.undone = {"move": self.history[index]["move"], "verdict": self.verdicts[index]}
        del self.verdicts[index]
        del self.history[index]
        self.pending_remove = []
        changed = {cell for cell in {*before, *after} if before.get(cell) != after.get(cell)}
        for cell in changed:
            self.overrides.pop(cell, None)
        self.restore.update({cell.name: after[cell].token for cell in changed if cell in after})
        self._keep_restore()

    def _keep_restore(self) -> None:
        """Only squares where the game still has the tile to put back stay listed, in board
        order."""
        board = self.game.board.tiles
        kept = {Cell.parse(name): token for name, token in self.restore.items()
                if (tile := board.get(Cell.parse(name))) is not None and tile.token == token}
        self.restore = {cell.name: kept[cell]
                        for cell in sorted(kept, key=lambda cell: (cell.row, cell.col))}

    def _apply_restored(self, event: Event) -> None:
        self.restore = {}

    def _apply_removed(self, event: Event) -> None:
        self.pending_remove = []
        self.game.lifted_off()
        for name in event.payload.get("cells") or []:
            # The tile is off the table: a correction of that square said what lay there.
            self.overrides.pop(Cell.parse(name), None)

    def _apply_correction(self, event: Event) -> None:
        """A player said what lies on one square. ``judged`` (the default, as every correction
        was before plays were ended with Done): the camera reading last judged is corrected, to
        be judged again; otherwise a play still being laid was (the table's live board, in
        memory). ``seen``: what the camera saw there, so later frames that see the same are
        corrected too (``webui.live.hold_corrections``). ``withdraws``: the refused play, judged
        from a reading this correction shows was misread, is withdrawn."""
        payload = event.payload
        cell = Cell.parse(payload["cell"])
        token = payload.get("tile")
        if payload.get("judged", True):
            reading = dict(self.last_reading or self.game.board.tiles)
            if token:
                reading[cell] = Tile.parse(token)
            else:
                reading.pop(cell, None)
            self.last_reading = reading
        if "seen" in payload:
            self.overrides[cell] = (payload["seen"], token or None)
        withdrawn = payload.get("withdraws")
        for entry in self.history:
            if withdrawn is not None and entry["seq"] == withdrawn and not entry["legal"]:
                entry["withdrawn"] = {"by": event.seq, "cell": cell.name,
                                      "seen": payload.get("seen"), "tile": token}
        self.corrections.append({"seq": event.seq, "cell": cell.name, "tile": token,
                                 "source": payload.get("source", "player")})

    def _apply_corners(self, event: Event) -> None:
        self.corners = event.payload.get("corners")

    def last_legal_index(self) -> int | None:
        for index in range(len(self.history) - 1, -1, -1):
            if self.history[index]["legal"]:
                return index
        return None

    def last_reading_text(self) -> str | None:
        if self.last_reading is None:
            return None
        return kind_of(self.game).text(self.last_reading, self.game)


def new_game_from_spec(spec: dict[str, Any], wordlist_dir: Path | None) -> Any:
    """The referee's game for a stored spec (the same call at creation and at every replay)."""
    return new_game(
        spec["ruleset"],
        spec["players"],
        options=dict(spec.get("options") or {}),
        position=spec.get("position"),
        base_dir=wordlist_dir,
    )


def replay(game_id: str, spec: dict[str, Any], events: list[Event],
           wordlist_dir: Path | None) -> GameSession:
    """Rebuild a game from its spec and its whole log."""
    try:
        game = new_game_from_spec(spec, wordlist_dir)
    except ValueError as error:
        raise ReplayError(f"game {game_id} cannot be rebuilt: {error}") from None
    session = GameSession(game_id=game_id, spec=spec, game=game)
    for event in events:
        session.apply(event)
    return session
