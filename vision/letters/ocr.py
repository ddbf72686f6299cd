"""Tesseract as a second opinion on one tile, and as the per-cell baseline the bench compares with.

Tesseract reads an upright, isolated letter (``--psm 10``), so a crop is first turned upright by
the rotation the classifier read, then binarised (Otsu) and enlarged. It is slow (0.1-0.2 s a
call here) and, measured on real tiles from repositories the classifier never saw, helps only on
the letters the classifier most doubts: see ``second_opinion`` for the figures, and
``ReadConfig.ocr_second_opinion`` for where it is on.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np

from vision.letters.classify import BLANK, TileGuess
from vision.letters.tuning import OCR_BORDER, OCR_PX


class OcrUnavailableError(RuntimeError):
    """pytesseract or the tesseract program is not installed."""


@cache
def _tesseract():
    try:
        import pytesseract

        pytesseract.get_tesseract_version()
    except Exception as error:  # ImportError, TesseractNotFoundError, OSError
        raise OcrUnavailableError(f"tesseract is not available: {error}") from None
    return pytesseract


def ocr_available() -> bool:
    try:
        _tesseract()
    except OcrUnavailableError:
        return False
    return True


def upright_binary(crop: np.ndarray, rotation: int = 0) -> np.ndarray:
    """The crop turned upright, dark letter on white, enlarged, with a white margin.

    Only fixed strips are whitened (the edges, the digit's corner), not everything outside the
    letter :func:`vision.letters.classify.find_glyph` finds. Keeping that letter's box alone
    (scratch runs, 2026-11-27, with the tile models before ``lab.train.TRAINING_LETTER_SCALE``) let
    Tesseract read more of the truth photos' 1545 upright tiles lettered A to Z on their own (969
    against 948, truth corners) but mend fewer as the second opinion: ``tileref eval`` read 1449
    English letters of 1461 against 1453: nothing on jheidel 170737's Q (where this reads the Q),
    and Z, P or C on four R and O of the blurred 170755.
    """
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    gray = np.ascontiguousarray(np.rot90(gray, k=(rotation // 90) % 4))  # undo the clockwise turn
    gray = cv2.resize(gray, (OCR_PX, OCR_PX), interpolation=cv2.INTER_CUBIC)
    _, binary = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # The crop's edges are gaps and neighbours, and the bottom-right corner is the value digit
    # (Tesseract reads "A1" as two characters): blank them.
    edge = OCR_PX // 8
    binary[:edge], binary[-edge:], binary[:, :edge], binary[:, -edge:] = 255, 255, 255, 255
    binary[int(OCR_PX * 0.68):, int(OCR_PX * 0.7):] = 255
    return cv2.copyMakeBorder(binary, OCR_BORDER, OCR_BORDER, OCR_BORDER, OCR_BORDER,
                              cv2.BORDER_CONSTANT, value=255)


def read_letter(crop: np.ndarray, letters: str, rotation: int = 0) -> str:
    """Tesseract's single letter for one crop, limited to ``letters`` ("" when it sees none)."""
    tesseract = _tesseract()
    whitelist = "".join(sorted(set(letters.upper()) - {BLANK}))
    text = tesseract.image_to_string(
        upright_binary(crop, rotation), config=f"--psm 10 -c tessedit_char_whitelist={whitelist}")
    letter = text.strip().upper()[:1]
    return letter if letter and letter in whitelist else ""


def second_opinion(crops: list[np.ndarray], guesses: list[TileGuess], letters: str,
                   below: float) -> list[TileGuess]:
    """Ask Tesseract about the letters the classifier read with less than ``below`` confidence.

    Tesseract's letter wins when it reads one; the confidence stays low, so the cell is still
    flagged. What that mends, by ``below``, is ``python -m bench ocr``'s table: below 0.5, three
    more English letters right of the truth photos' 1461 and six fewer wrong on 200 renders (five
    and seven with the tile models before ``lab.train.TRAINING_LETTER_SCALE``); asking about
    surer letters (below 0.8) mends no more. (When the classifier was weaker, letting
    Tesseract only pick the runner-up gained less than this.)

    Without Tesseract, or with no letter in doubt, the guesses come back as they are; Tesseract
    is looked for only when a letter is in doubt (starting it to ask its version costs a
    one-photo process 20 ms).
    """
    doubtful = [guess.letter != BLANK and guess.confidence < below for guess in guesses]
    if not any(doubtful) or not ocr_available():
        return guesses
    out = []
    for crop, guess, asked in zip(crops, guesses, doubtful, strict=True):
        if not asked:
            out.append(guess)
            continue
        answer = read_letter(crop, letters, guess.rotation)
        if answer and answer != guess.letter:
            out.append(replace(guess, letter=answer, runner_up=guess.letter))
        else:
            out.append(guess)
    return out


__all__ = ["OcrUnavailableError", "ocr_available", "read_letter", "second_opinion",
           "upright_binary"]
