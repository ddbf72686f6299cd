"""Word lists: the built-in ENABLE list and a table's own list from a text file.

Every game records the name of the list it was judged with, because "is QI a word?" has no
answer without one. Words are kept as a frozenset of uppercase strings: measured at about 40 ms
to load ENABLE's 172,820 words (bench/bench_referee.py), well inside the 150 ms budget, and a
set lookup is as fast as a Python lookup gets. Lookup is case-insensitive so that a play's
lowercase blanks and a typed word need no special care.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from pathlib import Path

from referee.files import FileRefused, read_regular_file

BUILT_IN = {"enable": "ENABLE"}
"""Built-in list spec (lowercase) -> the name recorded with a game."""
MAX_WORD_LIST_BYTES = 32_000_000
"""A word list file's cap (ENABLE is 1.8 MB, the largest published lists under 30 MB): a game
file may name any path, ``/dev/zero`` or a FIFO included, and those are refused unread."""


class WordListError(ValueError):
    """A word list that cannot be loaded; the message is one line naming the file and the fault."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))


class WordList:
    """A set of words with a name; ``"qi" in words`` ignores case."""

    __slots__ = ("name", "_words")

    def __init__(self, name: str, words: Iterable[str]) -> None:
        self.name = name
        self._words = frozenset(word.upper() for word in words)

    @classmethod
    def _from_upper(cls, name: str, words: frozenset[str]) -> WordList:
        """Wrap words already in upper case (the built-in list's fast path: no per-word call)."""
        word_list = cls.__new__(cls)
        word_list.name = name
        word_list._words = words
        return word_list

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word.upper() in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __repr__(self) -> str:
        return f"<WordList {self.name!r}: {len(self)} words>"


def parse_word_lines(text: str, source: str) -> list[str]:
    """The words of a one-word-a-line text: ``#`` starts a comment, blank lines are skipped.

    Anything else that is not a single run of letters is an error naming the line, because a
    silently dropped line would make a real word illegal at the table.
    """
    words = []
    for number, line in enumerate(text.splitlines(), start=1):
        entry = line.split("#", 1)[0].strip()
        if not entry:
            continue
        if not entry.isalpha():
            raise WordListError(
                f"{source} line {number}: {entry[:40]!r} is not a word"
                " (one word of letters a line)")
        words.append(entry)
    return words


@cache
def _built_in(spec: str) -> WordList:
    path = resources.files("referee") / "data" / f"{spec}.txt"
    # ENABLE is lowercase ASCII with one word a line: split() is the fast path (no comment checks).
    text = path.read_text(encoding="ascii")
    return WordList._from_upper(BUILT_IN[spec], frozenset(text.upper().split()))


def load_word_list(spec: str | Path = "enable", base_dir: Path | None = None) -> WordList:
    """A built-in list by name (``"enable"``, cached) or a text file (relative to ``base_dir``).

    A file's list is named after the file (``"house-words.txt"``); errors are
    :class:`WordListError` with one line.
    """
    if isinstance(spec, str) and spec.strip().lower() in BUILT_IN:
        return _built_in(spec.strip().lower())
    if not isinstance(spec, (str, Path)) or not str(spec).strip():
        raise WordListError(f"a word list is 'enable' or a file name, not {spec!r}")
    path = Path(spec)
    if not path.is_absolute() and base_dir is not None:
        path = Path(base_dir) / path
    try:
        data = read_regular_file(path, MAX_WORD_LIST_BYTES, "word list")
    except FileRefused as error:
        raise WordListError(str(error)) from None
    except FileNotFoundError:
        raise WordListError(
            f"word list {str(spec)!r} not found (looked for {path}); built-in lists: "
            + ", ".join(BUILT_IN)) from None
    except IsADirectoryError:
        raise WordListError(f"word list {str(spec)!r} is a directory, not a file") from None
    except OSError as error:
        raise WordListError(f"word list {str(spec)!r} cannot be read: {error.strerror}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise WordListError(f"word list {path.name!r} is not UTF-8 text") from None
    words = parse_word_lines(text, path.name)
    if not words:
        raise WordListError(f"word list {path.name!r} holds no words")
    return WordList(path.name, words)


__all__ = ["WordList", "WordListError", "load_word_list"]
