"""The game database: SQLite from the standard library, one file in the app's instance folder.

Three tables. ``games`` holds what a game was created with (its spec) and a hash of its token;
``events`` is the append-only log of everything that happened to a game (moves with their
verdicts, undos, corrections, tiles lifted off). The state is never stored: it is rebuilt by
replaying the log, so what was acknowledged survives a ``kill -9`` (WAL, synchronous=FULL) and
nothing can drift between "the state" and "the history". Triggers refuse UPDATE and DELETE on
events, so append-only is enforced by the database, not by good manners. ``browser_tokens``
holds the game tokens of each browser session (under a hash of its id), which the session
cookie once carried itself.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the store uses this module without Flask
    from flask import Flask

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    spec        TEXT NOT NULL,
    created_at  REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id     TEXT NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS browser_tokens (
    session_hash TEXT NOT NULL,
    game_id     TEXT NOT NULL REFERENCES games(id),
    token       TEXT NOT NULL,
    created_at  REAL NOT NULL,
    PRIMARY KEY (session_hash, game_id)
);
CREATE TRIGGER IF NOT EXISTS events_no_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""


@dataclass(frozen=True)
class Event:
    """One line of a game's history, as stored."""

    seq: int
    kind: str
    payload: dict[str, Any]
    created_at: float


@dataclass(frozen=True)
class GameRow:
    id: str
    token_hash: str
    spec: dict[str, Any]
    created_at: float


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection set up for durability: WAL journal, full fsync on commit, foreign keys."""
    connection = sqlite3.connect(str(path), timeout=30, isolation_level=None,
                                 check_same_thread=False)
    connection.row_factory = sqlite3.Row
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=FULL")
    connection.execute("PRAGMA foreign_keys=ON")
    connection.execute("PRAGMA busy_timeout=30000")
    return connection


def init_schema(connection: sqlite3.Connection) -> None:
    connection.executescript(SCHEMA)


def init_app(app: Flask) -> None:
    """Create the database file and its tables on first start (idempotent)."""
    Path(app.config["DATABASE"]).parent.mkdir(parents=True, exist_ok=True)
    with closing_connection(app.config["DATABASE"]) as connection:
        init_schema(connection)


@contextmanager
def closing_connection(path: str | Path) -> Iterator[sqlite3.Connection]:
    connection = connect(path)
    try:
        yield connection
    finally:
        connection.close()


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """BEGIN IMMEDIATE ... COMMIT: the commit returns only once the data is on disk."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def insert_game(connection: sqlite3.Connection, game_id: str, token_hash: str,
                spec: dict[str, Any]) -> None:
    with transaction(connection):
        connection.execute(
            "INSERT INTO games (id, token_hash, spec, created_at) VALUES (?, ?, ?, ?)",
            (game_id, token_hash, json.dumps(spec, sort_keys=True), time.time()),
        )


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate in a Python string is a lone one: JSON's escaped pairs decode to one character."""


def _stored(text: str) -> Any:
    """A stored JSON column as data, any lone surrogate (``"\\ud800"``, refused since on the way
    in, but kept by games stored before) made U+FFFD: such a string cannot be written out as
    UTF-8, and one in a player's name made every page that lists the game answer 500."""
    data = json.loads(text)
    return _mended(data) if "\\ud" in text.lower() else data


def _mended(value: Any) -> Any:
    if isinstance(value, str):
        return _LONE_SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_mended(item) for item in value]
    if isinstance(value, dict):
        return {_mended(key): _mended(item) for key, item in value.items()}
    return value


def find_game(connection: sqlite3.Connection, game_id: str) -> GameRow | None:
    row = connection.execute(
        "SELECT id, token_hash, spec, created_at FROM games WHERE id = ?", (game_id,)
    ).fetchone()
    if row is None:
        return None
    return GameRow(row["id"], row["token_hash"], _stored(row["spec"]), row["created_at"])


def list_games(connection: sqlite3.Connection, limit: int = 50) -> list[GameRow]:
    rows = connection.execute(
        "SELECT id, token_hash, spec, created_at FROM games ORDER BY created_at DESC LIMIT ?",
        (limit,),
    ).fetchall()
    return [GameRow(r["id"], r["token_hash"], _stored(r["spec"]), r["created_at"])
            for r in rows]


def append_event(connection: sqlite3.Connection, game_id: str, expected_seq: int, kind: str,
                 payload: dict[str, Any]) -> Event:
    """Append event number ``expected_seq``; fails (IntegrityError) if another writer got there."""
    created_at = time.time()
    with transaction(connection):
        connection.execute(
            "INSERT INTO events (game_id, seq, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, expected_seq, kind, json.dumps(payload, sort_keys=True), created_at),
        )
    return Event(expected_seq, kind, payload, created_at)


def load_events(connection: sqlite3.Connection, game_id: str) -> list[Event]:
    rows = connection.execute(
        "SELECT seq, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY seq",
        (game_id,),
    ).fetchall()
    return [Event(r["seq"], r["kind"], _stored(r["payload"]), r["created_at"]) for r in rows]


def last_seq(connection: sqlite3.Connection, game_id: str) -> int:
    row = connection.execute(
        "SELECT COALESCE(MAX(seq), 0) AS seq FROM events WHERE game_id = ?", (game_id,)
    ).fetchone()
    return int(row["seq"])


def remember_browser_token(connection: sqlite3.Connection, session_hash: str, game_id: str,
                           token: str) -> None:
    with transaction(connection):
        connection.execute(
            "INSERT OR REPLACE INTO browser_tokens (session_hash, game_id, token, created_at) "
            "VALUES (?, ?, ?, ?)", (session_hash, game_id, token, time.time()))


def browser_token(connection: sqlite3.Connection, session_hash: str,
                  game_id: str) -> str | None:
    row = connection.execute(
        "SELECT token FROM browser_tokens WHERE session_hash = ? AND game_id = ?",
        (session_hash, game_id)).fetchone()
    return None if row is None else str(row["token"])
