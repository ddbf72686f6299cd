"""The game service: what the views call, between HTTP and the referee.

Views stay thin: they parse a request, call one method here and turn the result (plain dicts) or
a :class:`ServiceError` into a response. Every change goes through :meth:`GameService._record`,
which appends the event to the log and commits *before* the caller gets an answer, then applies
it to the in-memory session and wakes the screens watching that game (Server-Sent Events).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import re
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from referee.boardtext import BoardTextError, Tile, format_board_text, parse_board_text
from referee.cells import SEAT_ORDER, Cell, Seat
from referee.errors import IllegalPlayError
from referee.moves import Snapshot
from vision import Doubts, reading_warnings, settle
from webui import db, events, live
from webui.events import GameSession, ReplayError

log = logging.getLogger(__name__)

WORDLIST_NAME = re.compile(r"^[0-9a-f]{16}\.txt$")
BUILT_IN_WORDLISTS = ("enable",)
MAX_WORDLIST_BYTES = 8_000_000


class ServiceError(ValueError):
    """Bad input or a refused request; ``status`` is the HTTP status, ``str()`` one sentence."""

    status = 400

    def __init__(self, message: str) -> None:
        text = " ".join(str(message).split())
        if len(text) > MAX_ERROR_CHARS:  # a refusal quoting a 5 MB name is no sentence
            text = text[:MAX_ERROR_CHARS - 1] + "…"
        super().__init__(text)


MAX_ERROR_CHARS = 400
"""The longest refusal: they quote what was sent, and what was sent can be megabytes."""


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class Unreadable(ServiceError):
    """A well-formed photo in which no board could be read; ``corners`` are where the grid was
    found when the photo was refused after that (a blur, a hand), else None."""

    status = 422

    def __init__(self, message: str, corners: Any = None) -> None:
        super().__init__(message)
        self.corners = corners


def _one_line(error: BaseException) -> str:
    message = getattr(error, "message", None) or str(error)
    return " ".join(str(message).split())


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def player_id(player: Any) -> str:
    return player.seat.value if getattr(player, "seat", None) is not None else player.name


class GameService:
    """All games of one app; one instance per ``create_app``."""

    def __init__(self, database: Path, wordlist_dir: Path, upload_dir: Path,
                 live_config: live.LiveConfig | None = None,
                 calibration_dir: Path | None = None) -> None:
        self.database = Path(database)
        self.wordlist_dir = Path(wordlist_dir)
        self.upload_dir = Path(upload_dir)
        self.calibration_dir = calibration_dir
        self.live_config = live_config or live.LiveConfig()
        self._connection = db.connect(self.database)
        db.init_schema(self._connection)
        self._db_lock = threading.Lock()
        self._sessions: dict[str, GameSession] = {}
        self._game_locks: dict[str, threading.RLock] = {}
        self._locks_lock = threading.Lock()
        self._live: dict[str, live.LiveTable] = {}
        self._changed = threading.Condition()
        self._versions: dict[str, int] = {}
        self._active_game: str | None = None

    # -- games ------------------------------------------------------------------------------

    def create_game(self, body: object) -> dict[str, str]:
        """POST /api/games: validate by building the game, store its spec, return id + token."""
        spec = self._game_spec(body)
        try:
            game = events.new_game_from_spec(spec, self.wordlist_dir)
        except ValueError as error:
            raise ServiceError(_one_line(error)) from None
        draws = getattr(game, "draws", None)
        if draws is not None and spec["options"].get("seed") is None:
            # The seed picked for a game given none is stored with it: rebuilt after a restart
            # with another seed, First Draft's line and colonization's draws came out otherwise.
            spec["options"]["seed"] = draws.seed
        game_id = secrets.token_hex(5)
        token = secrets.token_urlsafe(18)
        with self._db_lock:
            db.insert_game(self._connection, game_id, hash_token(token), spec)
        return {"id": game_id, "token": token}

    def _game_spec(self, body: object) -> dict[str, Any]:
        if not isinstance(body, dict):
            raise ServiceError("the body must be a JSON object with 'ruleset' and 'players'")
        ruleset = body.get("ruleset")
        if not isinstance(ruleset, str) or not ruleset:
            raise ServiceError("'ruleset' must be a ruleset's name, like 'archipelago'")
        players = body.get("players")
        if not isinstance(players, list) or not players:
            raise ServiceError("'players' must be a list of players")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ServiceError("'options' must be an object")
        options = dict(options)
        wordlist = options.get("wordlist", "enable")
        if not isinstance(wordlist, str) or not (
                wordlist in BUILT_IN_WORDLISTS or WORDLIST_NAME.match(wordlist)):
            raise ServiceError("'options.wordlist' must be 'enable' or a list uploaded "
                               "to /api/wordlists")
        if wordlist not in BUILT_IN_WORDLISTS and not (self.wordlist_dir / wordlist).is_file():
            raise ServiceError(f"no uploaded word list named {wordlist!r}")
        table = body.get("table") or {}
        if not isinstance(table, dict):
            raise ServiceError("'table' must be an object")
        camera_side = str(table.get("camera_side", body.get("camera_side", "S")))
        try:
            camera_side = Seat.parse(camera_side).value
        except ValueError as error:
            raise ServiceError(f"camera side: {error}") from None
        spec: dict[str, Any] = {"ruleset": ruleset, "players": players, "options": options,
                                "table": {"camera_side": camera_side}}
        calibration = table.get("calibration")
        if calibration:
            if not isinstance(calibration, str) or not re.match(r"^[\w.-]+$", calibration):
                raise ServiceError("'table.calibration' must be a profile's name")
            spec["table"]["calibration"] = calibration
        if body.get("position") is not None:
            if not isinstance(body["position"], dict):
                raise ServiceError("'position' must be an object")
            spec["position"] = body["position"]
        return spec

    def game_ids(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._db_lock:
            rows = db.list_games(self._connection, limit)
        return [{"id": row.id, "ruleset": row.spec.get("ruleset"),
                 "players": row.spec.get("players"), "created_at": row.created_at}
                for row in rows]

    def _lock_for(self, game_id: str) -> threading.RLock:
        with self._locks_lock:
            return self._game_locks.setdefault(game_id, threading.RLock())

    def session(self, game_id: str) -> GameSession:
        """The game rebuilt from its log (cached; rebuilt when the log moved on without us)."""
        if not isinstance(game_id, str) or not re.match(r"^[0-9a-f]{1,32}$", game_id):
            raise NotFound(f"no game {game_id!r}")
        with self._lock_for(game_id):
            with self._db_lock:
                seq = db.last_seq(self._connection, game_id)
                cached = self._sessions.get(game_id)
                if cached is not None and cached.seq == seq:
                    return cached
                row = db.find_game(self._connection, game_id)
                if row is None:
                    raise NotFound(f"no game {game_id!r}")
                log = db.load_events(self._connection, game_id)
            try:
                session = events.replay(game_id, row.spec, log, self.wordlist_dir)
            except (ReplayError, ValueError) as error:
                raise Conflict(_one_line(error)) from None
            self._sessions[game_id] = session
            return session

    def session_of(self, game_id: str, ruleset: str, refusal: str) -> GameSession:
        """The game's session when it plays ``ruleset``; otherwise a 400 saying ``refusal``
        (routes that only make sense for one game: GCG, player boards, English's draws)."""
        session = self.session(game_id)
        if session.ruleset != ruleset:
            raise ServiceError(refusal)
        return session

    def check_token(self, game_id: str, token: str | None) -> None:
        """Writes need the game's token; unknown game is 404 before any token talk."""
        self.session(game_id)
        if not token:
            raise Unauthorized("this needs the game's token (Authorization: Bearer <token>)")
        with self._db_lock:
            row = db.find_game(self._connection, game_id)
        assert row is not None
        if not hmac.compare_digest(row.token_hash, hash_token(token)):
            raise Forbidden("wrong token for this game")

    def state(self, game_id: str) -> dict[str, Any]:
        """GET /api/games/<id>: judge's ``final`` plus ``moves`` (and the table's extras)."""
        with self._lock_for(game_id):
            session = self.session(game_id)
            game = session.game
            state = dict(game.state())
            state["moves"] = list(session.verdicts)
            table = self._live.get(game_id)
            status = table.status.to_json() if table else None
            state.update({
                "id": game_id,
                "ruleset": session.ruleset,
                "players": [{"id": player_id(p), "name": p.name,
                             "seat": p.seat.value if p.seat else None} for p in game.players],
                "wordlist": getattr(game.word_list, "name", None),
                "camera_side": session.camera_side,
                "history": list(session.history),
                "pending_remove": list(session.pending_remove),
                "corrections": list(session.corrections),
                "corners": session.corners,
                "last_reading": session.last_reading_text(),
                "waiting_for": self._waiting_for(session, table),
                "live": status,
                "version": self.version(game_id),
            })
            return state

    def _waiting_for(self, session: GameSession, table: live.LiveTable | None) -> str:
        if session.game.is_over:
            return live.WAIT_GAME_OVER
        if session.pending_remove:
            return live.WAIT_REMOVAL
        if table is not None and table.status.waiting_for in (live.WAIT_STEADY, live.WAIT_BOARD) \
                and time.time() - table.status.updated_at < 10:
            return table.status.waiting_for
        return live.WAIT_PLAY

    # -- changes (each one an event) -----------------------------------------------------------

    def _record(self, game_id: str, kind: str, payload: dict[str, Any]) -> Any:
        """Append one event (committed before returning), apply it, wake the screens."""
        with self._lock_for(game_id):
            session = self.session(game_id)
            try:
                with self._db_lock:
                    event = db.append_event(self._connection, game_id, session.seq + 1, kind,
                                            payload)
            except sqlite3.IntegrityError:
                self._sessions.pop(game_id, None)
                raise Conflict("the game changed meanwhile; try again") from None
            try:
                result = session.apply(event)
            except (ReplayError, ValueError):
                self._sessions.pop(game_id, None)
                raise
            table = self._live.get(game_id)
            if table is not None and payload.get("source") != "camera":
                # A player acted (typed, corrected, undid): the camera's last remark, such as
                # "the last reading was judged", no longer describes the table, nor do the
                # frames read before: a blank put in by a tap (which the camera did not see)
                # was outvoted by them, and the next frame judged it gone.
                table.set_status(live.WAIT_PLAY, "")
                table.fusion.clear()
        self.notify(game_id)
        return result

    def play(self, game_id: str, body: object, source: str = "api",
             reading: str | None = None) -> dict[str, Any]:
        """POST /api/games/<id>/moves: one move → its verdict (illegal moves are verdicts too)."""
        with self._lock_for(game_id):
            session = self.session(game_id)
            try:
                # Each ruleset parses its own move kinds (a transform, a sale).
                move = type(session.game).move_from_json(body)
            except IllegalPlayError as error:
                raise ServiceError(error.message) from None
            # Whoever is to move may move, even colonization's English, who is not a player.
            to_move = session.game.to_move
            if to_move is None or to_move.id != move.player:
                try:
                    session.game.player(move.player)
                except ValueError as error:
                    raise ServiceError(_one_line(error)) from None
            stored = move.to_json()
            try:
                again = type(session.game).move_from_json(stored)
            except IllegalPlayError:
                again = None
            if again != move:
                # The log replays the move as stored: one that reads back as another move (a
                # letter whose capital is two, once) would leave the game unable to rebuild.
                raise ServiceError("this move cannot be recorded as sent: check its letters")
            payload: dict[str, Any] = {"move": stored, "source": source}
            # Judge (and take back) first, so the acknowledged verdict is stored with the move;
            # replaying the event then applies it.
            payload["verdict"] = self._preview(session, move)
            if reading is not None:
                payload["reading"] = reading
            return self._record(game_id, events.MOVE, payload)

    def _preview(self, session: GameSession, move: Any) -> dict[str, Any]:
        verdict = session.game.judge(move)
        if verdict.legal:
            session.game.pop()
        return verdict.to_json()

    def undo(self, game_id: str, source: str = "player") -> dict[str, Any]:
        with self._lock_for(game_id):
            session = self.session(game_id)
            index = session.last_legal_index()
            if index is None:
                raise Conflict("there is no move to undo")
            # What the camera sees until the players take the tiles back: not a new play.
            seen = dict(session.game.board.tiles)
            if session.last_reading is not None \
                    and session.last_reading_seq == session.history[index]["seq"]:
                seen = dict(session.last_reading)
            self._record(game_id, events.UNDO, {"source": source})
            table = self._live.get(game_id)
            if table is not None:
                table.last_judged = seen
            return self.state(game_id)

    def confirm_removed(self, game_id: str, source: str = "player") -> dict[str, Any]:
        with self._lock_for(game_id):
            session = self.session(game_id)
            if not session.pending_remove:
                raise Conflict("no tiles are waiting to be lifted off")
            self._record(game_id, events.REMOVED,
                         {"cells": list(session.pending_remove), "source": source})
            return self.state(game_id)

    def set_corners(self, game_id: str, body: object) -> dict[str, Any]:
        if not isinstance(body, dict) or "corners" not in body:
            raise ServiceError("send {'corners': four [x, y] points, or null to find the board}")
        corners = body["corners"]
        if corners is not None:
            corners = parse_corners(corners)
        self._record(game_id, events.CORNERS, {"corners": corners})
        table = self._live.get(game_id)
        if table is not None:
            table.fusion.clear()
            table.last_judged = None
        return self.state(game_id)

    def correct(self, game_id: str, body: object, source: str = "player") -> dict[str, Any]:
        """Fix one cell of the last reading (letter, rotation, blank, or empty) and re-judge.

        If the last move was judged from that reading, it is taken back first, so the corrected
        board is judged as the same player's play. Returns ``{"verdict": ..., "state": ...}``.
        """
        if not isinstance(body, dict) or not isinstance(body.get("cell"), str):
            raise ServiceError("a correction is {'cell': 'H8', 'tile': 'E^' or null}")
        try:
            cell = Cell.parse(body["cell"])
        except ValueError as error:
            raise ServiceError(str(error)) from None
        token = body.get("tile")
        if token in ("", "."):
            token = None
        if token is not None:
            if not isinstance(token, str):
                raise ServiceError("'tile' must be a board-text token like 'E^', 'e>' or '?'")
            try:
                token = Tile.parse(token.strip()).token
            except ValueError as error:
                raise ServiceError(str(error)) from None
        with self._lock_for(game_id):
            session = self.session(game_id)
            if session.game.is_over:
                raise Conflict("the game is over")
            refused = self._board_play_refused(session)
            if refused:
                raise ServiceError(refused)
            reading = dict(session.last_reading if session.last_reading is not None
                           else session.game.board.tiles)
            seen = reading.get(cell)
            seen_token = seen.token if seen else None
            previous = session.overrides.get(cell)
            if previous is not None and previous[1] == seen_token:
                seen_token = previous[0]  # keep what the camera itself sees there
            self._record(game_id, events.CORRECTION, {
                "cell": cell.name, "tile": token, "source": source, "seen": seen_token})
            verdict = self._rejudge_reading(game_id, source)
            return {"verdict": verdict, "state": self.state(game_id)}

    def _rejudge_reading(self, game_id: str, source: str) -> dict[str, Any] | None:
        session = self.session(game_id)
        reading = dict(session.last_reading or {})
        last_legal = session.last_legal_index()
        if session.last_reading_seq is not None and last_legal is not None \
                and session.history[last_legal]["seq"] == session.last_reading_seq:
            self._record(game_id, events.UNDO, {"source": source})
            session = self.session(game_id)
        board = dict(session.game.board.tiles)
        if live.same_board(reading, board):
            return None
        mover = session.game.to_move
        if mover is None:
            return None
        snapshot = Snapshot(player_id(mover), live.keep_designated_blanks(reading, board))
        return self.play(game_id, snapshot.to_json(), source=source,
                         reading=format_board_text(reading))

    # -- change notification (Server-Sent Events) --------------------------------------------

    def version(self, game_id: str) -> int:
        with self._changed:
            return self._versions.get(game_id, 0)

    def notify(self, game_id: str) -> None:
        with self._changed:
            self._versions[game_id] = self._versions.get(game_id, 0) + 1
            self._changed.notify_all()

    def wait_for_change(self, game_id: str, since: int, timeout: float) -> int:
        with self._changed:
            self._changed.wait_for(lambda: self._versions.get(game_id, 0) != since, timeout)
            return self._versions.get(game_id, 0)

    # -- photos and frames -------------------------------------------------------------------

    def load_photo(self, data: bytes) -> Any:
        """A phone's photo (a dispute), decoded, within the photo caps; else one sentence."""
        from vision import ImageError, load_image

        try:
            return load_image(data, max_bytes=self.live_config.max_photo_bytes,
                              max_pixels=self.live_config.max_photo_pixels)
        except ImageError as error:
            raise ServiceError(_one_line(error)) from None

    def read_photo(self, data: bytes, corners: list[list[float]] | None = None,
                   overlay: bool = False, tiles: str = "english") -> dict[str, Any]:
        """POST /api/read: one photo, no game → the reading (and optionally the overlay PNG)."""
        return self.read_image(self.load_photo(data), corners, overlay, tiles)

    def read_image(self, image: Any, corners: list[list[float]] | None = None,
                   overlay: bool = False, tiles: str = "english") -> dict[str, Any]:
        from vision import VisionError

        try:
            reading = read_board(image, corners, tile_set_option(tiles), single=True)
        except VisionError as error:
            raise Unreadable(_one_line(error), getattr(error, "corners", None)) from None
        result = {"reading": reading.to_json()}
        if overlay:
            result["overlay_png"] = overlay_png(image, reading)
            result["size"] = [int(image.shape[1]), int(image.shape[0])]
        return result

    def mark_active(self, game_id: str) -> None:
        """The game last opened on a screen: the server's own camera feeds that one."""
        self._active_game = game_id

    def feed_active_game(self, data: bytes) -> None:
        game_id = self._active_game
        if game_id is not None:
            self.frame(game_id, data)

    def _board_play_refused(self, session: GameSession) -> str | None:
        """Why the board as read now could not be judged as the mover's play, or None.

        A frame or a correction ends in such a play; where the ruleset parses none (First
        Draft is played on each player's own board, and colonization's English only takes its
        turn), it is refused before anything is recorded or remembered: a correction had been
        logged, and kept after a restart, though its play was then refused.
        """
        mover = session.game.to_move
        if mover is None:
            return None
        try:
            type(session.game).move_from_json(Snapshot(player_id(mover), {}).to_json())
        except IllegalPlayError as error:
            if session.spec.get("ruleset") == "firstdraft":
                return "First Draft is played on the players' own boards: there is no table " \
                       "board to read or correct"
            return (f"{mover.name} is to move and makes no play on the board: take that turn "
                    f"first ({error.message})")
        return None

    def last_frame_jpeg(self, game_id: str) -> bytes | None:
        """The camera's last frame of a game, if one came: asking makes no live table (a GET
        changes no state, the live camera's included)."""
        self.session(game_id)
        with self._locks_lock:
            table = self._live.get(game_id)
        return None if table is None else table.last_frame_jpeg

    def live_table(self, game_id: str) -> live.LiveTable:
        with self._locks_lock:
            table = self._live.get(game_id)
            if table is None:
                table = self._live[game_id] = live.LiveTable(self.live_config)
            return table

    def frame(self, game_id: str, data: bytes) -> dict[str, Any]:
        """POST /api/games/<id>/frames: one camera frame → reading, verdict, what we wait for."""
        from vision import ImageError, VisionError, load_image

        refused = self._board_play_refused(self.session(game_id))
        if refused:
            raise ServiceError(refused)
        # Decoded before the live table is touched: a frame that is no image changes nothing
        # (a few milliseconds, against the tenth of a second a frame takes to read).
        try:
            image = load_image(data, max_bytes=self.live_config.max_frame_bytes,
                               max_pixels=self.live_config.max_frame_pixels)
        except ImageError as error:
            raise ServiceError(_one_line(error)) from None
        table = self.live_table(game_id)
        if not table.lock.acquire(blocking=False):
            # The previous frame of this game is still being read: drop this one (the camera
            # sends another shortly), rather than queueing work on two shared cores.
            return {"reading": None, "verdict": None, "waiting_for": table.status.waiting_for,
                    "detail": "busy reading the previous frame", "skipped": True, "kept": []}
        try:
            table.last_frame_jpeg = data if data[:3] == b"\xff\xd8\xff" else None
            table.last_frame_size = (int(image.shape[1]), int(image.shape[0]))
            check = table.check_view(image)
            if not check.steady:
                return self._frame_answer(game_id, table, None, None, live.WAIT_STEADY,
                                          check.state.waiting_message)
            session = self.session(game_id)
            corners = session.corners or self._profile_corners(session, image)
            try:
                reading = read_board(image, corners, session.game.tile_set.name)
            except VisionError as error:
                table.fusion.clear()
                return self._frame_answer(game_id, table, None, None, live.WAIT_BOARD,
                                          live.Detail(_one_line(error),
                                                      tuple(cell.name for cell in error.cells)))
            except Exception:  # a reader bug must not stop the game: log it, try the next
                log.exception("game %s: the board reader failed on a frame", game_id)
                table.fusion.clear()
                return self._frame_answer(game_id, table, None, None, live.WAIT_BOARD,
                                          "the board reader failed on this frame")
            reading_json = reading.to_json()
            return self.judge_reading(game_id, table, reading_json)
        finally:
            table.lock.release()

    def judge_reading(self, game_id: str, table: live.LiveTable,
                      reading_json: dict[str, Any]) -> dict[str, Any]:
        """What a steady reading means for the game: settle its doubts with the game's board
        (:func:`vision.known.settle`), fuse, then wait, confirm or judge.

        The part of frame handling after the reader (the tests drive it with truth readings).
        """
        session = self.session(game_id)
        try:
            seen = parse_board_text(reading_json["board"])
            doubts = Doubts.of_json(reading_json)
        except (KeyError, TypeError, ValueError):
            return self._frame_answer(game_id, table, reading_json, None, live.WAIT_BOARD,
                                      "the reading could not be understood")
        # Where the camera doubts a square the game knows (a blank the colour of its square,
        # a dim Q), the game's tile stands; a sure reading still reports a tile gone or changed.
        known = {cell: tile for cell, tile in session.game.board.tiles.items()
                 if cell.name not in session.pending_remove}
        seen, kept = settle(seen, live.to_camera_frame(known, session.camera_side), doubts)
        answer = self._judge_seen(game_id, table, reading_json,
                                  live.to_south_frame(seen, session.camera_side))
        answer["kept"] = [cell.name for cell in kept]
        return answer

    def _judge_seen(self, game_id: str, table: live.LiveTable, reading_json: dict[str, Any],
                    seen: live.Board) -> dict[str, Any]:
        """The rest of :meth:`judge_reading`, on the settled board in the South view."""
        session = self.session(game_id)
        if session.ruleset == "scrabble":
            seen = live.without_rotation(seen)
        elif (mover := session.game.to_move) is not None and mover.seat is not None:
            seen = live.blanks_as_placed(seen, session.game.board.tiles, mover.seat.rotation)
        for cell, (was, fixed) in session.overrides.items():
            current = seen.get(cell)
            if (current.token if current else None) == was:
                if fixed:
                    seen[cell] = Tile.parse(fixed)
                else:
                    seen.pop(cell, None)
        fused = table.fusion.add(seen)
        if fused is None:
            return self._frame_answer(game_id, table, reading_json, None, live.WAIT_STEADY,
                                      "checking the reading against the next frames")
        with self._lock_for(game_id):
            session = self.session(game_id)
            game = session.game
            board = dict(game.board.tiles)
            if game.is_over:
                return self._frame_answer(game_id, table, reading_json, None,
                                          live.WAIT_GAME_OVER, "")
            if session.pending_remove:
                still = [name for name in session.pending_remove if Cell.parse(name) in fused]
                if still:
                    return self._frame_answer(game_id, table, reading_json, None,
                                              live.WAIT_REMOVAL, "lift off " + ", ".join(still))
                self._record(game_id, events.REMOVED,
                             {"cells": list(session.pending_remove), "source": "camera"})
                session = self.session(game_id)
            if live.same_board(fused, board):
                table.last_judged = None
                return self._frame_answer(game_id, table, reading_json, None, live.WAIT_PLAY, "")
            if table.last_judged is not None and table.last_judged == fused:
                return self._frame_answer(game_id, table, reading_json, None, live.WAIT_PLAY,
                                          "the last reading was judged; fix it or play again")
            mover = game.to_move
            assert mover is not None
            snapshot = Snapshot(player_id(mover), live.keep_designated_blanks(fused, board))
            table.last_judged = fused
            verdict = self.play(game_id, snapshot.to_json(), source="camera",
                                reading=format_board_text(fused))
            waiting = live.WAIT_REMOVAL if self.session(game_id).pending_remove \
                else live.WAIT_PLAY
            return self._frame_answer(game_id, table, reading_json, verdict, waiting, "")

    def _frame_answer(self, game_id: str, table: live.LiveTable, reading: Any, verdict: Any,
                      waiting_for: str, detail: str | live.Detail) -> dict[str, Any]:
        told = live.Detail(detail) if isinstance(detail, str) else detail
        if not told.text and reading:
            # Nothing else to say: what the players can still put right is worth saying (a
            # camera too far from the board, a tile the last word may have that went unseen,
            # a tile half off its square).
            session = self.session(game_id)
            told = live.waiting_detail(reading_warnings(reading), session.camera_side,
                                       _last_word(session.verdicts))
        if table.set_status(waiting_for, told.text, told.cells):
            self.notify(game_id)
        return {"reading": reading, "verdict": verdict, "waiting_for": waiting_for,
                "detail": told.text, "kept": []}

    def _profile_corners(self, session: GameSession, image: Any) -> Any:
        name = session.spec.get("table", {}).get("calibration")
        if not name or self.calibration_dir is None:
            return None
        path = self.calibration_dir / f"{name}.json"
        if not path.is_file():
            return None
        from calibration.profile import CalibrationProfile

        try:
            return CalibrationProfile.load(path).corners_for(image)
        except ValueError:  # a broken profile: find the board in the frame instead
            return None

    def calibration_profiles(self) -> list[str]:
        """Profiles in the instance folder (``tileref calibrate`` writes them), by name."""
        if self.calibration_dir is None or not self.calibration_dir.is_dir():
            return []
        return sorted(path.stem for path in self.calibration_dir.glob("*.json"))

    # -- word lists ---------------------------------------------------------------------------

    def add_wordlist(self, data: bytes) -> dict[str, Any]:
        """Store an uploaded word list under its content hash; returns the name for options."""
        from referee.wordlist import WordListError, load_word_list

        if len(data) > MAX_WORDLIST_BYTES:
            raise ServiceError(f"word list too big (limit {MAX_WORDLIST_BYTES:,} bytes)")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError("a word list is UTF-8 text, one word a line") from None
        name = hashlib.sha256(data).hexdigest()[:16] + ".txt"
        self.wordlist_dir.mkdir(parents=True, exist_ok=True)
        path = self.wordlist_dir / name
        if not path.exists():
            partial = path.with_suffix(".part")
            partial.write_bytes(data)
            try:
                words = load_word_list(partial.name, self.wordlist_dir)
            except WordListError as error:
                partial.unlink()
                raise ServiceError(_one_line(error)) from None
            if len(words) == 0:
                partial.unlink()
                raise ServiceError("the word list has no words")
            partial.replace(path)
        words = load_word_list(name, self.wordlist_dir)
        return {"wordlist": name, "words": len(words)}

    # -- a play judged on a photo, no game stored (disputes) ----------------------------------

    def judge_position(self, body: object) -> dict[str, Any]:
        """POST /api/judge: a board and one move → the verdict; stores nothing (disputes)."""
        return self.judge_position_and_board(body)[0]

    def judge_position_and_board(self, body: object) -> tuple[dict[str, Any], str]:
        """The verdict and the board text after it (the dispute page draws the play)."""
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
        players = body.get("players") or default_players(ruleset, tiles, mover)
        options = body.get("options") or {}
        if not isinstance(options, dict) or options.get("wordlist", "enable") not in \
                BUILT_IN_WORDLISTS and not WORDLIST_NAME.match(str(options.get("wordlist"))):
            raise ServiceError("'options.wordlist' must be 'enable' or an uploaded list")
        from referee.game import new_game

        try:
            game = new_game(ruleset, players, options=options,
                            position={"board": board, "to_move": mover},
                            base_dir=self.wordlist_dir)
            parsed = type(game).move_from_json(move)
        except ValueError as error:
            if str(error).startswith("position.to_move"):  # the dispute's own spec, not theirs
                raise ServiceError(f"{mover!r} is not a player of this {ruleset} play: name "
                                   f"{_player_hint(ruleset)}") from None
            raise ServiceError(_one_line(error)) from None
        verdict = game.judge(parsed).to_json()
        return verdict, format_board_text(game.board.tiles)


def _last_word(verdicts: list[dict[str, Any]]) -> tuple[str, list[str]] | None:
    """The main word of the last verdict, if it was a legal play: (word, its cells)."""
    if not verdicts or not verdicts[-1].get("legal"):
        return None
    words = verdicts[-1].get("words") or []
    if not words or not words[0].get("cells"):
        return None
    return str(words[0].get("word", "")), list(words[0]["cells"])


def _player_hint(ruleset: str) -> str:
    """Who may make a play in a dispute of ``ruleset``, as a refusal says it."""
    if ruleset == "archipelago":
        return "the seat that played it: N, E, S or W"
    return "the player as the game names them"


def default_players(ruleset: str, tiles: dict[Cell, Tile], mover: object) -> list[dict[str, Any]]:
    """Players for a dispute: every seat whose tiles are on the board, plus the mover."""
    if ruleset == "scrabble":
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


def parse_corners(value: object) -> list[list[float]]:
    """Four [x, y] pairs, clockwise from the South view's top-left, in image pixels."""
    if not isinstance(value, list) or len(value) != 4:
        raise ServiceError("'corners' must be four [x, y] points")
    corners = []
    for point in value:
        if not isinstance(point, list | tuple) or len(point) != 2 or not all(
                isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v < 100_000
                for v in point):
            raise ServiceError("each corner is [x, y] in image pixels")
        corners.append([float(point[0]), float(point[1])])
    return corners


def read_board(image: Any, corners: Any, tiles: str = "english", *, single: bool = False) -> Any:
    """The vision reader, imported late so the app starts without OpenCV models loaded;
    ``tiles`` is the tile set whose letters it may read (the game's ``options.tiles``).

    ``single``: one photo read on request (a dispute), with the slower, surer settings
    ``tileref read`` uses (``DISPUTE_CONFIG``: Tesseract on doubtful letters, occupancy read from
    five looks); a live frame is read fast, and the frames vote instead.
    """
    from vision import DEFAULT_CONFIG, DISPUTE_CONFIG
    from vision import read_board as reader

    config = DISPUTE_CONFIG if single else DEFAULT_CONFIG
    if corners is None:
        return reader(image, tiles=tiles, config=config)
    import numpy as np

    return reader(image, corners=np.asarray(corners, dtype=np.float32), tiles=tiles,
                  config=config)


def tile_set_option(value: object) -> str:
    """A tile set's name as a form or query gives it (empty: English), or one sentence."""
    from referee.tiles import tile_set_names

    name = str(value or "english").strip().lower()
    if name not in tile_set_names():
        raise ServiceError(f"unknown tile set {name!r}: {', '.join(tile_set_names())}")
    return name


def overlay_png(image: Any, reading: Any) -> str:
    """The overlay of a reading as a ``data:`` URL (the dispute page shows it inline)."""
    import cv2

    try:
        from vision import draw_overlay
        picture = draw_overlay(image, reading)
    except (ImportError, AttributeError):
        picture = image
    height, width = picture.shape[:2]
    scale = min(1.0, 1600 / max(height, width))
    if scale < 1.0:
        picture = cv2.resize(picture, (int(width * scale), int(height * scale)),
                             interpolation=cv2.INTER_AREA)
    ok, encoded = cv2.imencode(".png", picture)
    if not ok:
        return ""
    return "data:image/png;base64," + base64.b64encode(encoded.tobytes()).decode("ascii")


def get_service() -> Any:
    """The app's one :class:`GameService` (``create_app`` made it), for the views of a request."""
    from flask import current_app

    return current_app.extensions["tileref"]
