"""Refusals: what the web layer answers when a request cannot be done, as one sentence.

Every job of the web layer (the game store, the table, disputes, word lists, photos) refuses bad
input by raising one of these, whatever asked; ``webui.views.errors`` is the one place that turns
them into responses (JSON under ``/api/``, a small page elsewhere). ``status`` is the HTTP
status, ``str()`` the sentence.
"""

from __future__ import annotations

from typing import Any

MAX_ERROR_CHARS = 400
"""The longest refusal: they quote what was sent, and what was sent can be megabytes."""


class ServiceError(ValueError):
    """Bad input or a refused request; ``status`` is the HTTP status, ``str()`` one sentence."""

    status = 400

    def __init__(self, message: str) -> None:
        text = " ".join(str(message).split())
        if len(text) > MAX_ERROR_CHARS:  # a refusal quoting a 5 MB name is no sentence
            text = text[:MAX_ERROR_CHARS - 1] + "…"
        super().__init__(text)


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    status = 401


class Forbidden(ServiceError):
    status = 403


class Conflict(ServiceError):
    status = 409


class TooMany(ServiceError):
    """Over a quota: too many uploads from one address a minute, or too many kept."""

    status = 429


class Unreadable(ServiceError):
    """A well-formed photo in which no board could be read; ``corners`` are where the grid was
    found when the photo was refused after that (a blur, a hand), else None."""

    status = 422

    def __init__(self, message: str, corners: Any = None) -> None:
        super().__init__(message)
        self.corners = corners


def one_line(error: BaseException) -> str:
    """An error's message (a referee error's ``message``, else its text) on one line."""
    message = getattr(error, "message", None) or str(error)
    return " ".join(str(message).split())
