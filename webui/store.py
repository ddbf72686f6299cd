"""The game store: every game's event log, its replay, its token, and who is told of a change.

The log (``webui.db``) is the truth. A game is created with a spec and a token (only its hash is
kept); everything that happens to it afterwards is an event, appended and committed *before* the
caller gets an answer (:meth:`GameStore.record`), then applied to the game's in-memory
:class:`~webui.events.GameSession` (a cache the log rebuilds at any time), and then the screens
watching the game are woken (:class:`ChangeFeed`, which the Server-Sent Events stream waits on).

No Flask here: the views parse requests and call the store; the table (``webui.table``) records
the camera's plays through it and hears of every event through :meth:`GameStore.subscribe`.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from referee.boardtext import Tile
from referee.cells import Cell, Seat
from referee.errors import IllegalPlayError, SetupError
from referee.game import Verdict, find_ruleset
from webui import db, events
from webui.boardkinds import kind_of
from webui.errors import Conflict, Forbidden, NotFound, ServiceError, Unauthorized, one_line
from webui.events import GameSession, ReplayError
from webui.turns import Commit
from webui.wordlists import WordLists

GAME_ID = re.compile(r"^[0-9a-f]{1,32}$")
PROFILE_NAME = re.compile(r"^[\w.-]{1,64}$")
"""A calibration profile's name: a file's stem in the instance folder (a name over 255
characters once broke every steady frame of its game: the file system refuses such a name)."""
MAX_SPEC_CHARS = 20_000
"""A game's setup as stored (players, options, a starting position): a 15 x 15 position is
under 1,000 characters; anything past this is refused before it reaches the database."""

Listener = Callable[[str, str, dict[str, Any]], None]
"""Told of each event recorded: the game's id, the event's kind and its payload."""


def seats_players(ruleset: object) -> bool:
    """Whether a ruleset's players sit at sides of the board (``Game.seated``); a name the
    referee does not know counts as seated, and the game refuses it when it is made, naming the
    rulesets it knows."""
    try:
        return find_ruleset(str(ruleset)).seated
    except SetupError:
        return True


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class ChangeFeed:
    """A version number per game, raised on every change; the event streams wait on it.

    One condition per game: with one for all, every change of any table woke every screen's
    stream of every game to look (fifty tables' cameras change their status several times a
    second, and a club night has a hundred screens).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._changed: dict[str, threading.Condition] = {}

    def _condition(self, game_id: str) -> threading.Condition:
        with self._lock:
            condition = self._changed.get(game_id)
            if condition is None:
                condition = self._changed[game_id] = threading.Condition(self._lock)
            return condition

    def version(self, game_id: str) -> int:
        with self._lock:
            return self._versions.get(game_id, 0)

    def notify(self, game_id: str) -> None:
        condition = self._condition(game_id)
        with condition:
            self._versions[game_id] = self._versions.get(game_id, 0) + 1
            condition.notify_all()

    def wait_for_change(self, game_id: str, since: int, timeout: float) -> int:
        """The game's version once it differs from ``since``, or after ``timeout`` seconds."""
        condition = self._condition(game_id)
        with condition:
            condition.wait_for(lambda: self._versions.get(game_id, 0) != since, timeout)
            return self._versions.get(game_id, 0)


class GameStore:
    """All games of one app; one instance per ``create_app``."""

    def __init__(self, database: Path, wordlists: WordLists) -> None:
        self.database = Path(database)
        self.wordlists = wordlists
        self.changes = ChangeFeed()
        self._connection = db.connect(self.database)
        db.init_schema(self._connection)
        self._db_lock = threading.Lock()
        self._sessions: dict[str, GameSession] = {}
        self._game_locks: dict[str, threading.RLock] = {}
        self._locks_lock = threading.Lock()
        self._listeners: list[Listener] = []

    # -- games ------------------------------------------------------------------------------

    def create_game(self, body: object) -> dict[str, str]:
        """POST /api/games: validate by building the game, store its spec, return id + token."""
        spec = self.game_spec(body)
        try:
            game = events.new_game_from_spec(spec, self.wordlists.folder)
        except ValueError as error:
            raise ServiceError(one_line(error)) from None
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

    def game_spec(self, body: object) -> dict[str, Any]:
        """What a game is stored with, from a POST /api/games body; bad input is one sentence."""
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
        self.wordlists.check_for_game(options.get("wordlist", "enable"))
        try:
            Commit.of_options(options)
        except ValueError as error:
            raise ServiceError(str(error)) from None
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
            if not isinstance(calibration, str) or not PROFILE_NAME.match(calibration):
                raise ServiceError("'table.calibration' must be a profile's name (letters, "
                                   "digits, '.', '-' and '_', at most 64)")
            spec["table"]["calibration"] = calibration
        if body.get("position") is not None:
            if not isinstance(body["position"], dict):
                raise ServiceError("'position' must be an object")
            spec["position"] = body["position"]
        size = len(json.dumps(spec))
        if size > MAX_SPEC_CHARS:
            raise ServiceError(f"the game's setup is {size:,} characters long (players, "
                               f"options, position): at most {MAX_SPEC_CHARS:,}")
        return spec

    def game_ids(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._db_lock:
            rows = db.list_games(self._connection, limit)
        return [{"id": row.id, "ruleset": row.spec.get("ruleset"),
                 "players": row.spec.get("players"), "created_at": row.created_at}
                for row in rows]

    def lock(self, game_id: str) -> threading.RLock:
        """The game's lock: held while a change is judged, recorded and applied."""
        with self._locks_lock:
            return self._game_locks.setdefault(game_id, threading.RLock())

    def session(self, game_id: str) -> GameSession:
        """The game rebuilt from its log (cached; rebuilt when the log moved on without us)."""
        if not isinstance(game_id, str) or not GAME_ID.match(game_id):
            raise NotFound(f"no game {game_id!r}")
        with self.lock(game_id):
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
                session = events.replay(game_id, row.spec, log, self.wordlists.folder)
            except (ReplayError, ValueError) as error:
                raise Conflict(one_line(error)) from None
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

    def remember_browser_token(self, session_id: str, game_id: str, token: str) -> None:
        """Keep ``token`` for the browser session ``session_id`` (only if it is the game's:
        an old cookie's token is checked before it is kept)."""
        with self._db_lock:
            row = db.find_game(self._connection, game_id) if GAME_ID.match(game_id) else None
            if row is None or not hmac.compare_digest(row.token_hash, hash_token(token)):
                return
            db.remember_browser_token(self._connection, hash_token(session_id), game_id, token)

    def browser_token(self, session_id: str, game_id: str) -> str | None:
        """The token a browser session holds for a game, if it holds one."""
        with self._db_lock:
            return db.browser_token(self._connection, hash_token(session_id), game_id)

    def state(self, game_id: str) -> dict[str, Any]:
        """``tileref judge``'s ``final`` plus ``moves`` and the log's extras (the table adds
        what it waits for: :meth:`webui.table.Table.state`)."""
        with self.lock(game_id):
            session = self.session(game_id)
            game = session.game
            state = dict(game.state())
            state["moves"] = list(session.verdicts)
            state.update({
                "id": game_id,
                "ruleset": session.ruleset,
                "players": [{"id": p.id, "name": p.name,
                             "seat": p.seat.value if p.seat else None} for p in game.players],
                "wordlist": getattr(game.word_list, "name", None),
                "camera_side": session.camera_side,
                "history": list(session.history),
                "pending_remove": list(session.pending_remove),
                "restore": [{"cell": name, "tile": token}
                            for name, token in session.restore.items()],
                "undone": session.undone,
                "corrections": list(session.corrections),
                "corners": session.corners,
                "last_reading": session.last_reading_text(),
                "version": self.changes.version(game_id),
            })
            return state

    # -- changes (each one an event) -----------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        """Tell ``listener`` of every event recorded, under the game's lock, before the screens
        are woken (the table forgets what its camera saw when a player acts)."""
        self._listeners.append(listener)

    def record(self, game_id: str, kind: str, payload: dict[str, Any]) -> None:
        """Append one event that is no move (committed before returning), apply it, wake the
        screens."""
        with self.lock(game_id):
            session = self.session(game_id)
            self._append(game_id, session, kind, payload, session.apply)

    def play(self, game_id: str, body: object, source: str = "api") -> Verdict:
        """POST /api/games/<id>/moves: one move as JSON → its verdict (illegal moves are
        verdicts too); a move that is no move of this game, or names no player, is refused."""
        with self.lock(game_id):
            game = self.session(game_id).game
            try:
                # Each ruleset parses its own move kinds (a transform, a sale).
                move = type(game).move_from_json(body)
            except IllegalPlayError as error:
                raise ServiceError(error.message) from None
            # Whoever is to move may move, even colonization's English, who is not a player.
            to_move = game.to_move
            if to_move is None or to_move.id != move.player:
                try:
                    game.player(move.player)
                except ValueError as error:
                    raise ServiceError(one_line(error)) from None
            return self.record_move(game_id, move, source)

    def record_move(self, game_id: str, move: Any, source: str,
                    reading: Mapping[Cell, Tile] | None = None) -> Verdict:
        """Judge ``move`` once, record it with its verdict (committed before returning), wake
        the screens; ``reading`` is the board the camera read, when the move came from it.

        The move is written to the log as JSON and read back once, as a replay will read it:
        a move that reads back as another (a letter whose capital is two, once) would leave
        the game unable to rebuild, so it is refused before anything is judged.
        """
        with self.lock(game_id):
            session = self.session(game_id)
            game_type = type(session.game)
            stored = move.to_json()
            try:
                again = game_type.move_from_json(stored)
            except IllegalPlayError:
                again = None
            if again != move:
                raise ServiceError("this move cannot be recorded as sent: check its letters")
            verdict = session.game.judge(move)
            verdict_json = verdict.to_json()
            payload: dict[str, Any] = {"move": stored, "source": source, "verdict": verdict_json}
            if reading is not None:
                payload["reading"] = kind_of(session.game).text(reading, session.game)
            self._append(game_id, session, events.MOVE, payload,
                         lambda event: session.apply_judged(event, verdict_json, reading),
                         judged=True)
            return verdict

    def _append(self, game_id: str, session: GameSession, kind: str, payload: dict[str, Any],
                apply: Callable[[db.Event], None], judged: bool = False) -> None:
        """Append the event, apply it to the session, tell the listeners, wake the screens.

        ``judged``: the session's game has already judged the move, so if the event cannot be
        appended the session no longer matches the log and is dropped (the log rebuilds it).
        """
        try:
            with self._db_lock:
                event = db.append_event(self._connection, game_id, session.seq + 1, kind,
                                        payload)
        except sqlite3.IntegrityError:
            self._sessions.pop(game_id, None)
            raise Conflict("the game changed meanwhile; try again") from None
        except BaseException:
            if judged:
                self._sessions.pop(game_id, None)
            raise
        try:
            apply(event)
        except BaseException:
            self._sessions.pop(game_id, None)
            raise
        for listener in self._listeners:
            listener(game_id, kind, payload)
        self.changes.notify(game_id)

    def confirm_restored(self, game_id: str, source: str = "player") -> None:
        """The players have put back the tiles an undo listed (409 when none wait)."""
        with self.lock(game_id):
            if not self.session(game_id).restore:
                raise Conflict("no tiles are waiting to be put back")
            self.record(game_id, events.RESTORED, {"source": source})

    def confirm_removed(self, game_id: str, source: str = "player") -> None:
        """The players have lifted off the tiles a capture took (409 when none wait)."""
        with self.lock(game_id):
            session = self.session(game_id)
            if not session.pending_remove:
                raise Conflict("no tiles are waiting to be lifted off")
            self.record(game_id, events.REMOVED,
                        {"cells": list(session.pending_remove), "source": source})

