"""Disputes: one photo of a board, no game. What was read, and a play judged on it.

The players photograph the board they argue about; the photo is kept (the last
:data:`KEEP_UPLOADS` of them, in the instance folder, named by their content's hash) so the page
can read it again with corners dragged by hand or with another tile set. A play is judged on the
board as read (or as the players fixed it) by a game made for that one play and then dropped:
nothing of a dispute is stored as a game.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.boardtext import BoardTextError, Tile, parse_board_text
from referee.cells import SEAT_ORDER, Cell, Seat
from referee.game import Game, Verdict, new_game
from webui import photos
from webui.errors import ServiceError, TooMany, Unreadable, one_line
from webui.photos import Photos, tile_set_option
from webui.store import seats_players
from webui.wordlists import WordLists

log = logging.getLogger(__name__)

KEEP_UPLOADS = 50
"""Dispute photos kept in the instance folder."""
PHOTO_WAIT_SECONDS = 20.0
_READING_PHOTO = threading.BoundedSemaphore(1)


@dataclass(frozen=True)
class DisputeReading:
    """A dispute photo as read (a ``vision.reading.BoardReading``), with the overlay drawn on
    it as a ``data:`` URL and the photo's size in pixels, when asked for."""

    reading: Any
    overlay_png: str | None = None
    size: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """``POST /api/read?overlay=1``'s answer (docs/formats.md)."""
        data: dict[str, Any] = {"reading": self.reading.to_json()}
        if self.size is not None:
            data.update(overlay_png=self.overlay_png, size=list(self.size))
        return data


class Disputes:
    """The dispute photos of one app (in ``folder``) and the plays judged on them."""

    def __init__(self, folder: Path, photos: Photos, wordlists: WordLists) -> None:
        self.folder = Path(folder)
        self.photos = photos
        self.wordlists = wordlists

    # -- the photos -------------------------------------------------------------------------

    def keep(self, data: bytes) -> str:
        """Keep a photo (refused first if it is no image, or too big); returns its id."""
        if not data:
            raise ServiceError("the photo is empty")
        self.photos.photo(data)  # refuse non-images (and too big ones) before keeping any
        photo_id = hashlib.sha256(data).hexdigest()[:16]
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{photo_id}.img").write_bytes(data)
        old = sorted(self.folder.glob("*.img"), key=lambda p: p.stat().st_mtime)[:-KEEP_UPLOADS]
        for path in old:
            path.unlink(missing_ok=True)
        return photo_id

    def path(self, photo_id: str) -> Path | None:
        """Where a kept photo is; None for an id that names none."""
        if not (len(photo_id) == 16 and all(c in "0123456789abcdef" for c in photo_id)):
            return None
        path = self.folder / f"{photo_id}.img"
        return path if path.is_file() else None

    # -- reading ----------------------------------------------------------------------------

    def read_photo(self, data: bytes, corners: list[list[float]] | None = None,
                   overlay: bool = False, tiles: str = "english") -> DisputeReading:
        """POST /api/read: one photo, no game → the reading (and optionally the overlay PNG)."""
        return self.read_image(self.photos.photo(data), corners, overlay, tiles)

    def read_image(self, image: Any, corners: list[list[float]] | None = None,
                   overlay: bool = False, tiles: str = "english") -> DisputeReading:
        """A decoded photo read with the surer settings of a photo read on request; no board
        found is a 422 that says where the grid was, if it was found."""
        from vision import VisionError

        tiles = tile_set_option(tiles)
        # One photo at a time: a dispute's reading takes a core for a second or more, and the
        # tables' cameras need the others (each client's photos are also counted: quotas).
        if not _READING_PHOTO.acquire(timeout=PHOTO_WAIT_SECONDS):
            raise TooMany("the server is reading other photos: try again in a moment")
        try:
            reading = photos.read_board(image, corners, tiles, single=True)
        except VisionError as error:
            raise Unreadable(one_line(error), getattr(error, "corners", None)) from None
        finally:
            _READING_PHOTO.release()
        if not overlay:
            return DisputeReading(reading)
        return DisputeReading(reading, photos.overlay_png(image, reading),
                              (int(image.shape[1]), int(image.shape[0])))

    # -- judging ----------------------------------------------------------------------------

    def judge(self, body: object) -> tuple[Verdict, Game]:
        """POST /api/judge: a board and one move (``{"ruleset", "board", "move", "players"?,
        "options"?}``) → the verdict, and the game made for it, after the move (the dispute page
        draws the play). Stores nothing."""
        if not isinstance(body, dict):
            raise ServiceError("the body must be a JSON object with 'board' and 'move'")
        ruleset = body.get("ruleset", "archipelago")
        board = body.get("board")
        move = body.get("move")
        if not isinstance(board, str) or not isinstance(move, dict):
            raise ServiceError("'board' (board text) and 'move' (an object) are needed")
        try:
            tiles = parse_board_text(board)
        except BoardTextError as error:
            raise ServiceError(str(error)) from None
        mover = move.get("player")
        if not isinstance(mover, str) or not mover.strip():
            raise ServiceError("name the player who made the play ('move.player': a seat such "
                               "as S, or in scrabble a name)")
        seated = seats_players(ruleset)
        players = body.get("players") or default_players(seated, tiles, mover)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ServiceError("'options' must be an object")
        # Named, and there, before the referee looks: its refusal names the folder it looked
        # in, and a server's paths are nobody's business.
        self.wordlists.check_for_game(options.get("wordlist", "enable"))
        try:
            game = new_game(ruleset, players, options=options,
                            position={"board": board, "to_move": mover},
                            base_dir=self.wordlists.folder)
            parsed = type(game).move_from_json(move)
        except ValueError as error:
            if str(error).startswith("position.to_move"):  # the dispute's own spec, not theirs
                raise ServiceError(f"{mover!r} is not a player of this {ruleset} play: name "
                                   f"{_player_hint(seated)}") from None
            raise ServiceError(one_line(error)) from None
        return game.judge(parsed), game


def _player_hint(seated: bool) -> str:
    """Who may make a play in a dispute, as a refusal says it."""
    if seated:
        return "the seat that played it: N, E, S or W"
    return "the player as the game names them"


def default_players(seated: bool, tiles: dict[Cell, Tile], mover: object
                    ) -> list[dict[str, Any]]:
    """Players for a dispute: every seat whose tiles are on the board, plus the mover; where
    players have no seats, the mover and one other player."""
    if not seated:
        name = mover if isinstance(mover, str) and mover else "Player 1"
        other = "Player 2" if name != "Player 2" else "Player 1"
        return [{"name": name}, {"name": other}]
    seats = {Seat.from_rotation(tile.rotation) for tile in tiles.values()
             if tile.rotation is not None}
    if isinstance(mover, str):
        try:
            seats.add(Seat.parse(mover))
        except ValueError:
            pass
    if len(seats) < 2:
        seats |= {Seat.S, Seat.N}
    return [{"name": seat.value, "seat": seat.value} for seat in SEAT_ORDER if seat in seats]
