"""Word lists uploaded by the players, kept in the instance folder under their content's hash.

A game names its list in ``options.wordlist``: the built-in ``enable`` or the name an upload got
(16 hex digits and ``.txt``), so a game's spec never points at a path outside the folder, and the
same list uploaded twice is one file.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from webui.errors import ServiceError, one_line

WORDLIST_NAME = re.compile(r"^[0-9a-f]{16}\.txt$")
BUILT_IN_WORDLISTS = ("enable",)
MAX_WORDLIST_BYTES = 8_000_000


class WordLists:
    """The uploaded lists of one app, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def add(self, data: bytes) -> dict[str, object]:
        """Store an uploaded word list under its content hash; returns the name for options
        and how many words it holds."""
        from referee.wordlist import WordListError, load_word_list

        if len(data) > MAX_WORDLIST_BYTES:
            raise ServiceError(f"word list too big (limit {MAX_WORDLIST_BYTES:,} bytes)")
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            raise ServiceError("a word list is UTF-8 text, one word a line") from None
        name = hashlib.sha256(data).hexdigest()[:16] + ".txt"
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / name
        if not path.exists():
            partial = path.with_suffix(".part")
            partial.write_bytes(data)
            try:
                words = load_word_list(partial.name, self.folder)
            except WordListError as error:
                partial.unlink()
                raise ServiceError(one_line(error)) from None
            if len(words) == 0:
                partial.unlink()
                raise ServiceError("the word list has no words")
            partial.replace(path)
        words = load_word_list(name, self.folder)
        return {"wordlist": name, "words": len(words)}

    def check_for_game(self, value: object) -> None:
        """A new game's ``options.wordlist``: built in, or uploaded here; else one sentence."""
        if not isinstance(value, str) or not (value in BUILT_IN_WORDLISTS
                                              or WORDLIST_NAME.match(value)):
            raise ServiceError("'options.wordlist' must be 'enable' or a list uploaded "
                               "to /api/wordlists")
        if value not in BUILT_IN_WORDLISTS and not (self.folder / value).is_file():
            raise ServiceError(f"no uploaded word list named {value!r}")


def is_list_name(value: object) -> bool:
    """Whether ``value`` names a list the way a game's options may (built in or uploaded)."""
    return value in BUILT_IN_WORDLISTS or bool(WORDLIST_NAME.match(str(value)))
