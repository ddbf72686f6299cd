"""The app's services, one object per app: what the views share, each with one job.

``create_app`` builds a :class:`Services` from the app's config and puts it in
``app.extensions["tileref"]`` (:meth:`Services.init_app`, as Flask extensions do); a view finds
it with :func:`services`. Nothing here imports Flask at module level: the services themselves
know nothing of HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webui.disputes import Disputes
from webui.live import LiveConfig
from webui.photos import Photos
from webui.quotas import Quota
from webui.store import GameStore
from webui.table import Table
from webui.wordlists import WordLists

if TYPE_CHECKING:
    from flask import Flask

EXTENSION = "tileref"


@dataclass(frozen=True)
class Quotas:
    """Uploads a client may make (``webui.quotas``): word lists are kept for good, dispute
    photos until fifty newer ones came, games for good."""

    wordlists: Quota = field(default_factory=lambda: Quota("word list uploads", 6, 10))
    photos: Quota = field(default_factory=lambda: Quota("photo uploads", 30, 20))
    games: Quota = field(default_factory=lambda: Quota("new games", 120, 120))


@dataclass(frozen=True)
class Services:
    """The game store, the tables, disputes, word lists and photo decoding of one app."""

    store: GameStore
    table: Table
    disputes: Disputes
    wordlists: WordLists
    photos: Photos
    quotas: Quotas

    @classmethod
    def from_config(cls, config: Any) -> Services:
        """The services for a Flask config (``DATABASE``, ``WORDLIST_DIR``, ``UPLOAD_DIR``,
        ``CALIBRATION_DIR``, and ``LIVE``, a :class:`~webui.live.LiveConfig`, optional)."""
        live_config = config.get("LIVE") or LiveConfig()
        photos = Photos(live_config)
        wordlists = WordLists(Path(config["WORDLIST_DIR"]))
        store = GameStore(Path(config["DATABASE"]), wordlists)
        table = Table(store, photos, live_config, Path(config["CALIBRATION_DIR"]))
        disputes = Disputes(Path(config["UPLOAD_DIR"]), photos, wordlists)
        return cls(store, table, disputes, wordlists, photos, Quotas())

    def init_app(self, app: Flask) -> None:
        app.extensions[EXTENSION] = self


def services() -> Services:
    """The services of the app handling the current request."""
    from flask import current_app

    return current_app.extensions[EXTENSION]
