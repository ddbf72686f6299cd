"""The mark above a national letter: what tells Ń from N, Ż from Z and Ä from A.

The tile classifier reads a letter from its box scaled to 24 px, where an acute or a dot is a
pixel or two: on the one Polish board of the truth photos, read by models that never saw a
Polish tile, Ń, Ó, Ć and Ż were read as N, O, C and Z at 0.92-0.99 confidence. Yet the mark is
there to see, a small blob of ink of its own just above the letter, once the tile is turned
upright by the rotation read. So a letter with a marked twin in the tile set (N and Ń in
Polish, A and Ä in German) is looked at again: a mark above it makes it the twin, at the
confidence the classifier gave the twin against the letter, so the cell is flagged when the
classifier itself did not see it.

Which letters carry a mark above comes from Unicode (a letter whose decomposition adds a
combining mark of class 230, "above"), so a new tile set needs no code. Marks below or through
(Ą, Ę, Ł) are left to the classifier.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from functools import cache

import numpy as np

from vision.blobs import label_maps
from vision.letters.classify import BLANK, TileClassifier, TileGuess, ink_maps
from vision.letters.tuning import GLYPH_INK_LEVEL, MARK_GAP, MARK_WIDTH, MIN_MARK

ABOVE = 230
"""Unicode's canonical combining class of a mark drawn above its letter (acute, dot, diaeresis)."""


def marked_above(letter: str) -> bool:
    """Whether ``letter`` is drawn as another letter with a mark above it (Ń, Ä; not Ł or Ą)."""
    parts = unicodedata.normalize("NFD", letter)
    return len(parts) > 1 and any(unicodedata.combining(mark) == ABOVE for mark in parts[1:])


@cache
def marked_twins(letters: str) -> dict[str, tuple[str, ...]]:
    """Each letter of ``letters`` that has twins with a mark above in ``letters``: {"N": ("Ń",)}.
    """
    twins: dict[str, list[str]] = {}
    for letter in sorted(set(letters.upper())):
        if marked_above(letter):
            base = unicodedata.normalize("NFD", letter)[0]
            if base in letters.upper():
                twins.setdefault(base, []).append(letter)
    return {base: tuple(marked) for base, marked in twins.items()}


def unseen_letters(letters: str, others: str) -> str:
    """The letters of ``others`` (another tile set's) that ``letters`` lacks and that are drawn as
    a letter with a mark, but not above it (Ł, Ą, Ę against English), in their order.

    A board read with ``letters`` has nothing to read them as, and :func:`marks_unread` cannot
    see them (a stroke or a hook is no separate blob above the letter), so only the classifier,
    allowed them, can tell such a tile from its bare twin.
    """
    own = set(letters.upper())
    return "".join(letter for letter in dict.fromkeys(others.upper())
                   if letter not in own and " WITH " in unicodedata.name(letter, "")
                   and not marked_above(letter))


def mark_above(ink: np.ndarray) -> float:
    """The ink of separate small blobs just above the letter of an upright ink map, as a share of
    the letter's ink (0: none).

    The letter is the biggest blob near the middle that does not run off the map (a tile's edge
    or a neighbour does); a mark is a blob at least 2 px each way, wholly above the letter's top
    and hugging it (:data:`MARK_GAP`), its centre over the letter, narrower than
    :data:`MARK_WIDTH` of it and smaller than 0.4 of its ink.
    """
    return float(marks_above(ink[None])[0])


def marks_above(inks: np.ndarray) -> np.ndarray:
    """:func:`mark_above` of each of (N, h, w) upright ink maps, labelled in one call
    (:func:`vision.blobs.label_maps`): a call a map took 9 ms for a board's 99 tiles, one call
    under 1."""
    n, height, width = inks.shape
    shares = np.zeros(n)
    if n == 0:
        return shares
    blobs = label_maps((inks > GLYPH_INK_LEVEL).astype(np.uint8))
    owner = blobs.owner
    x, y, w, h, area = blobs.stats.T
    cx, cy = blobs.centres.T
    whole = (x > 0) & (y > 0) & (x + w < width) & (y + h < height)
    central = (np.abs(cx - width / 2) < 0.3 * width) & (np.abs(cy - height / 2) < 0.3 * height)
    letters = np.flatnonzero(whole & central & (area >= 6))
    if letters.size == 0:  # no map has a letter (blanks, or no ink at all)
        return shares
    # Each map's letter: its biggest such blob, the first of equals (as np.argmax picks).
    letters = letters[np.lexsort((-letters, area[letters], owner[letters]))]
    last = np.append(owner[letters][1:] != owner[letters][:-1], True)
    lead = np.full(n, -1)
    lead[owner[letters][last]] = letters[last]
    of = lead[owner]
    found = of >= 0
    of = np.where(found, of, 0)
    top, tall = y[of], h[of]
    marks = (found & whole & (np.arange(len(owner)) != of) & (np.minimum(w, h) >= 2)
             & (area <= 0.4 * area[of]) & (w <= MARK_WIDTH * w[of])
             & (cx >= x[of]) & (cx <= x[of] + w[of])
             & (y + h <= top + 1) & (y + h >= top - MARK_GAP * tall))
    ink = np.bincount(owner[marks], weights=area[marks], minlength=n)
    has = lead >= 0
    shares[has] = ink[has] / area[lead[has]]
    return shares


def _upright_marks(crops: list[np.ndarray], guesses: list[TileGuess],
                   chosen: list[int]) -> np.ndarray:
    """:func:`marks_above` of the ``chosen`` tiles' crops, each turned upright by its rotation."""
    inks = ink_maps([crops[i] for i in chosen])
    return marks_above(np.stack([np.rot90(ink, guesses[i].rotation // 90)
                                 for i, ink in zip(chosen, inks, strict=True)]))


def read_marks(crops: list[np.ndarray], guesses: list[TileGuess], probs: np.ndarray,
               classifier: TileClassifier, letters: str) -> list[TileGuess]:
    """The guesses, with each letter that has a marked twin in ``letters`` and a mark above it
    (turned upright by its rotation) read as that twin.

    Of several twins (Ź and Ż) the one the classifier found likelier wins. The confidence is the
    twin's share of the classifier's probability for twin and letter together (as low as the
    classifier was sure of the bare letter), never above the guess's own; the letter read first is
    the runner-up. ``probs`` are the class probabilities the guesses came from.
    """
    twins = marked_twins(letters)
    todo = [i for i, guess in enumerate(guesses) if guess.letter != BLANK and guess.letter in twins]
    if not todo:
        return guesses
    marks = _upright_marks(crops, guesses, todo)
    names, by_letters = classifier.letter_probabilities(probs)
    out = list(guesses)
    for i, mark in zip(todo, marks, strict=True):
        guess = guesses[i]
        if mark < MIN_MARK:
            continue
        by_letter = {letter: float(by_letters[i, names.index(letter)])
                     for letter in (guess.letter, *twins[guess.letter])}
        twin = max(twins[guess.letter], key=lambda letter: by_letter[letter])
        together = by_letter[twin] + by_letter[guess.letter]
        share = by_letter[twin] / together if together > 0 else 0.0
        out[i] = replace(guess, letter=twin, confidence=min(guess.confidence, share),
                         runner_up=guess.letter)
    return out


def marks_unread(crops: list[np.ndarray], guesses: list[TileGuess], letters: str) -> int:
    """How many tiles show a mark above their letter that ``letters`` (the tile set the board is
    read with) has no marked letter to read it as: 0 unless the set has none at all.

    Why: a German or Polish board read as English loses every Ä and Ó to its bare twin, surely
    read, and nothing says so. Read as English (committed models, a scratch run), the 28 English
    truth photos (1459 tiles) showed no such mark and 100 English renders one, on one tile, while
    the Polish board showed all 5 of its Ń Ó Ć Ż Ź, and 5 of the 8 German boards with an umlaut 2
    or 3 (two showed 1, and one none: its dots merge with their letters at this resolution).
    """
    if marked_twins(letters):
        return 0
    lettered = [i for i, guess in enumerate(guesses) if guess.letter != BLANK]
    if not lettered:
        return 0
    return int((_upright_marks(crops, guesses, lettered) >= MIN_MARK).sum())


__all__ = ["mark_above", "marked_above", "marked_twins", "marks_above", "marks_unread",
           "read_marks", "unseen_letters"]
