"""Word lists uploaded by the players, kept in the instance folder under their content's hash.

A game names its list in ``options.wordlist``: the built-in ``enable`` or the name an upload got
(16 hex digits and ``.txt``), so a game's spec never points at a path outside the folder, and the
same list uploaded twice is one file.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path

from webui.errors import ServiceError, TooMany, one_line

WORDLIST_NAME = re.compile(r"^[0-9a-f]{16}\.txt$")
BUILT_IN_WORDLISTS = ("enable",)
MAX_WORDLIST_BYTES = 8_000_000
MAX_WORDLISTS = 200
MAX_WORDLIST_FOLDER_BYTES = 400_000_000


class WordLists:
    """The uploaded lists of one app, in ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def add(self, data: bytes) -> dict[str, object]:
        """Store an uploaded word list under its content hash; returns the name for options
        and how many words it holds.

        Written to a file of its own and then renamed into place, in one step: the same list
        uploaded four times at once had its uploads share one ``.part`` file, and 29 of 40
        answered 500 as one renamed or deleted it under another. Now each upload checks its own
        copy, and the renames all put the same bytes under the same name.
        """
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
            self._check_room(len(data))
            descriptor, partial_name = tempfile.mkstemp(prefix=".upload-", suffix=".part",
                                                        dir=self.folder)
            partial = Path(partial_name)
            try:
                with os.fdopen(descriptor, "wb") as partial_file:
                    partial_file.write(data)
                try:
                    words = load_word_list(partial.name, self.folder)
                except WordListError as error:
                    raise ServiceError(one_line(error)) from None
                if len(words) == 0:
                    raise ServiceError("the word list has no words")
                os.replace(partial, path)
            finally:
                partial.unlink(missing_ok=True)
        words = load_word_list(name, self.folder)
        return {"wordlist": name, "words": len(words)}

    def _check_room(self, size: int) -> None:
        """Refuse a new list once the folder holds :data:`MAX_WORDLISTS` lists or
        :data:`MAX_WORDLIST_FOLDER_BYTES`: a list is kept for good (games name it), so the
        uploads of one client in a loop would otherwise fill the disk."""
        kept = list(self.folder.glob("*.txt"))
        if len(kept) >= MAX_WORDLISTS or \
                sum(path.stat().st_size for path in kept) + size > MAX_WORDLIST_FOLDER_BYTES:
            raise TooMany(f"this server keeps {len(kept)} word lists already, its most: use "
                          "one of them, or ask whoever runs it to make room")

    def check_for_game(self, value: object) -> None:
        """A new game's ``options.wordlist``: built in, or uploaded here; else one sentence."""
        if not isinstance(value, str) or not (value in BUILT_IN_WORDLISTS
                                              or WORDLIST_NAME.match(value)):
            raise ServiceError("'options.wordlist' must be 'enable' or a list uploaded "
                               "to /api/wordlists")
        if value not in BUILT_IN_WORDLISTS and not (self.folder / value).is_file():
            raise ServiceError(f"no uploaded word list named {value!r}")

