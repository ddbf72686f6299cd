"""GAME.json (FORMATS.md ``tileref judge``): a whole game as a file, judged move by move.

The file is the record people bring to settle a dispute or to replay a game, so everything wrong
with its *shape* (not JSON, unknown ruleset, a player without a seat, a word list that is not
there) stops with one line naming the problem, while a wrong *move* is judged like any other:
an illegal verdict, and the game goes on from the same position.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from referee.errors import IllegalPlayError, SetupError
from referee.files import FileRefused, read_regular_file
from referee.game import Verdict, find_ruleset, known_rulesets, new_game

KEYS = {"ruleset", "options", "players", "position", "moves"}
MAX_GAME_FILE_BYTES = 16_000_000
"""A game file's cap: ten thousand moves are 2 MB. A bigger file (a 2 GB sparse one, once,
peaked at 4.2 GB before its refusal) is refused before a byte is read."""


class GameFileError(ValueError):
    """A game file that cannot be judged; ``str(error)`` is one line for a person."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


def load_game_file(path: str | Path) -> tuple[dict[str, Any], Path]:
    """The parsed GAME.json and the folder its relative paths (the word list) start from."""
    path = Path(path)
    try:
        # utf-8-sig: a byte-order mark, as Windows Notepad saves, is no part of the JSON.
        text = read_regular_file(path, MAX_GAME_FILE_BYTES, "game file").decode("utf-8-sig")
    except FileRefused as error:
        raise GameFileError(str(error)) from None
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise GameFileError(f"{path}: is a folder, not a game file") from None
    except UnicodeDecodeError:
        raise GameFileError(f"{path}: not UTF-8 text") from None
    except OSError as error:
        raise GameFileError(f"{path}: cannot be read ({error.strerror})") from None
    try:
        spec = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(f"{path}: not valid JSON ({error.msg} at line {error.lineno}, "
                            f"column {error.colno})") from None
    except RecursionError:
        raise GameFileError(f"{path}: not a game file (its JSON is nested thousands "
                            "deep)") from None
    except ValueError:  # a number of thousands of digits, past Python's limit
        raise GameFileError(f"{path}: not a game file (a number in it is thousands of digits "
                            "long)") from None
    if has_lone_surrogate(spec):
        raise GameFileError(f"{path}: not a game file (it holds a lone surrogate such as "
                            "\\ud800, which is no character)")
    check_shape(spec)
    return spec, path.resolve().parent


def has_lone_surrogate(value: object) -> bool:
    """Whether parsed JSON holds a lone surrogate (``"\\ud800"``): valid JSON, but no text.

    Python's ``json`` accepts it, and it is stored and replayed, but it cannot be written as
    UTF-8: a player named so made every page listing the game answer 500, and ``tileref judge``
    crash while printing. So it is refused where JSON comes in (a game file, the web API).
    """
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_shape(spec: object) -> None:
    """Raise :class:`GameFileError` unless ``spec`` has FORMATS.md's GAME.json shape."""
    if not isinstance(spec, dict):
        raise GameFileError(f"a game file is a JSON object, not {type(spec).__name__}")
    unknown = sorted(set(spec) - KEYS)
    if unknown:
        raise GameFileError(f"unknown key {unknown[0]!r} in the game file "
                            f"(expected {', '.join(sorted(KEYS))})")
    ruleset = spec.get("ruleset")
    if not isinstance(ruleset, str):
        raise GameFileError("the game file needs \"ruleset\": one of "
                            f"{', '.join(known_rulesets())}")
    try:
        find_ruleset(ruleset)
    except SetupError as error:
        raise GameFileError(str(error)) from None
    if not isinstance(spec.get("players"), list):
        raise GameFileError("the game file needs \"players\": a list like "
                            "[{\"name\": \"Ann\", \"seat\": \"S\"}]")
    for key, kind in (("options", dict), ("position", dict), ("moves", list)):
        if spec.get(key) is not None and not isinstance(spec[key], kind):
            raise GameFileError(f"\"{key}\" must be a JSON {'object' if kind is dict else 'list'}")


def judge_spec(spec: dict[str, Any], base_dir: Path | None = None) -> dict[str, Any]:
    """Judge every move of a game file: ``{"moves": [verdict, ...], "final": state}``."""
    check_shape(spec)
    try:
        game = new_game(spec["ruleset"], spec["players"], spec.get("options"),
                        spec.get("position"), base_dir)
    except ValueError as error:
        raise GameFileError(str(error)) from None
    verdicts = []
    for data in spec.get("moves") or []:
        try:
            move = type(game).move_from_json(data)
        except IllegalPlayError as error:
            player = data.get("player") if isinstance(data, dict) else None
            verdict = Verdict.illegal(str(player) if player is not None else "?", error)
            verdicts.append(verdict.to_json())
            continue
        verdicts.append(game.judge(move).to_json())
    return {"moves": verdicts, "final": game.state()}


def judge_file(path: str | Path) -> dict[str, Any]:
    spec, base_dir = load_game_file(path)
    return judge_spec(spec, base_dir)


__all__ = ["GameFileError", "check_shape", "has_lone_surrogate", "judge_file", "judge_spec",
           "load_game_file"]
