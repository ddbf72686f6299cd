"""Loading a photo into a BGR array, refusing anything that is not a whole, sane image.

Every reading starts here, and the photos come from phones, webcams and web uploads: the loader is
the one place that checks size limits before decoding (a 20 kB PNG can claim 100 000 x 100 000
pixels), notices truncated uploads (OpenCV decodes half a JPEG without complaint and hands back
grey), and applies the EXIF orientation so that "the bottom of the image" means what the user saw.
JPEG, PNG and WebP are decoded by OpenCV; HEIC (an iPhone's own format, which a desktop browser
uploads as it is) and AVIF by Pillow, with pi-heif (libheif, decoding only) for HEIC.
"""

from __future__ import annotations

import io
import os
import re
import struct
import sys
import tempfile
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, JpegImagePlugin, UnidentifiedImageError

from vision.errors import ImageError

MAX_PIXELS = 52_000_000
"""The most pixels an image is decoded to: a 50 MP sensor's 8160 x 6120, or an iPhone's 48 MP
HEIC, whole. A larger JPEG is decoded smaller (:data:`_JPEG_REDUCTIONS`); a larger image of
another format is refused."""
MAX_BYTES = 40_000_000
MAX_ASPECT = 6
"""The longest side may be this many times the shortest: a phone's panorama mode is the most a
camera makes of a board (a 21:9 phone photo is 2.3 to 1)."""

_JPEG_REDUCTIONS = ((2, cv2.IMREAD_REDUCED_COLOR_2), (4, cv2.IMREAD_REDUCED_COLOR_4),
                    (8, cv2.IMREAD_REDUCED_COLOR_8))
"""libjpeg decodes a JPEG at a half, a quarter or an eighth of its size directly (scaling its
DCT blocks), in less time and memory than the whole. Why: phones save 48-200 megapixel photos
(8064 x 6048 on an iPhone Pro, 16320 x 12240 on a 200 MP sensor), and refusing them sent a player
off to find a resize tool. Nothing the reader needs is lost: a board filling such a photo has cells
of 400 px and more, and the reader samples 48 (:class:`vision.tuning.ReadConfig`)."""

# What the header sniffer recognises; anything else is refused before decoding.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
)


_HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm",
                          b"hevs", b"mif1", b"msf1"})
"""ISO base media ``ftyp`` brands of a HEIF still photo: an iPhone's own format (HEIC)."""
_AVIF_BRANDS = frozenset({b"avif", b"avis"})
_PILLOW_ONLY = frozenset({"HEIF", "AVIF"})
"""Formats OpenCV does not decode: Pillow does (HEIF through pi-heif's plugin)."""


@cache
def _open_heif() -> None:
    """Teach Pillow HEIF, once, when the first HEIC photo comes (40 ms: not for every JPEG)."""
    import pi_heif

    pi_heif.register_heif_opener()


def _sniff_format(data: bytes) -> str | None:
    for signature, name in _SIGNATURES:
        if data.startswith(signature):
            return name
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[4:8] == b"ftyp":
        if data[8:12] in _HEIF_BRANDS:
            return "HEIF"
        if data[8:12] in _AVIF_BRANDS:
            return "AVIF"
    return None


def _decode_with_pillow(data: bytes, kind: str, name: str) -> np.ndarray:
    """A HEIC or AVIF photo as a BGR array, upright (libheif turns a HEIC as it says; the EXIF
    orientation is applied for the rest)."""
    try:
        with Image.open(io.BytesIO(data)) as photo:
            rgb = np.asarray(ImageOps.exif_transpose(photo).convert("RGB"))
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, RuntimeError):
        raise ImageError(f"{name}: corrupt {kind} data, cannot decode") from None
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)


def _read_bytes(source: str | Path | bytes | bytearray | memoryview, max_bytes: int) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        name = "image"
    else:
        if not str(source).strip():  # Path("") is ".", the current folder: no photo named
            raise ImageError("no photo named (the path is empty)")
        path = Path(source)
        name = path.name
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            raise ImageError(f"{path}: no such file") from None
        except OSError as error:
            raise ImageError(f"{path}: cannot read ({error.strerror or error})") from None
        if not path.is_file():
            raise ImageError(f"{path}: not a file")
        if size > max_bytes:
            raise ImageError(f"{name}: file too big ({size:,} bytes; the limit is {max_bytes:,})")
        try:
            data = path.read_bytes()
        except OSError as error:
            raise ImageError(f"{path}: cannot read ({error.strerror or error})") from None
    if len(data) > max_bytes:
        raise ImageError(f"{name}: too big ({len(data):,} bytes; the limit is {max_bytes:,})")
    if not data:
        raise ImageError(f"{name}: empty file, not an image")
    return data


def _check_complete(data: bytes, kind: str, name: str) -> None:
    """Refuse truncated files, which decoders silently fill with grey."""
    if kind == "JPEG":
        # Some cameras pad after the end-of-image marker; look for it near the end.
        if b"\xff\xd9" not in data[-4096:]:
            raise ImageError(f"{name}: truncated or corrupt JPEG (no end-of-image marker)")
    elif kind == "PNG":
        if b"IEND" not in data[-64:]:
            raise ImageError(f"{name}: truncated or corrupt PNG (no IEND chunk)")


def _header_size(data: bytes, kind: str, name: str) -> tuple[int, int]:
    """(width, height) from the header alone, so huge images are refused before decoding.

    A JPEG's header is read by Pillow's JPEG plugin itself, without ``Image.open``'s
    decompression-bomb check: that check refuses anything over 179 MP, and a 200 MP phone's
    16320 x 12240 JPEG is decoded here at a half (:data:`_JPEG_REDUCTIONS`), so it was refused
    as "too big" though nothing big would have been decoded. Every other format is decoded
    whole, and its own pixel cap is far under Pillow's.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Pillow's DecompressionBombWarning: we check below
            if kind == "JPEG":
                with JpegImagePlugin.JpegImageFile(io.BytesIO(data)) as header:
                    return header.size
            with Image.open(io.BytesIO(data)) as header:
                return header.size
    except UnidentifiedImageError:  # its message names a Python object, no use to a person
        raise ImageError(f"{name}: corrupt image header") from None
    except (OSError, SyntaxError, ValueError, struct.error) as error:
        raise ImageError(f"{name}: corrupt image header ({error})") from None
    except Image.DecompressionBombError:
        raise ImageError(f"{name}: image dimensions too big") from None


def _check_shape(width: int, height: int, name: str) -> None:
    """Refuse, from the header, an image no camera makes: no pixels, or a long thin strip.

    Why: every later step scales by the image's sides, not its pixel count. A 470-byte PNG of
    1 x 100000 pixels is within any pixel cap, yet the steady-view thumbnail, 96 pixels wide,
    came out 9.6 million pixels high (8.9 GB, 47-105 s), and OpenCV's resizes refused 1 x 60000
    with an error the user could do nothing with.
    """
    if width <= 0 or height <= 0:
        raise ImageError(f"{name}: image has no pixels")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ImageError(f"{name}: image is {width}x{height} pixels: no photo of a board is "
                         f"that long and thin (the limit is {MAX_ASPECT} to 1)")


_DAMAGE = ("Corrupt JPEG data", "Premature end of JPEG file")
"""How libjpeg starts the warnings it gives for a JPEG whose data is damaged or missing: it decodes
to the end regardless, filling what it lost with flat grey blocks, and says so only on standard
error. A photo damaged so looked like a board cut off by the image's edge, or like no board."""
_PADDING = re.compile(r"(\d+) extraneous bytes before marker")
_MOST_PADDING = 64
"""...except a few stray bytes before a marker: padding some cameras write, nothing lost. Many
thousands are the compressed data itself, cut short by a marker that the damage made."""
_STDERR = threading.Lock()


@contextmanager
def _decoder_messages() -> Iterator[list[str]]:
    """The lines the C decoders inside OpenCV print on standard error meanwhile (libjpeg,
    libpng, OpenCV's own log), taken off the terminal; anything else printed meanwhile (another
    thread's log) is passed on. OpenCV gives no other way to hear them: a JPEG with its data
    damaged decodes "successfully" to a photo half grey. If standard error cannot be borrowed
    (no file descriptor 2), nothing is heard and the decoder prints as it would.
    """
    messages: list[str] = []
    with _STDERR, tempfile.TemporaryFile() as sink:
        try:
            sys.stderr.flush()
            saved = os.dup(2)
        except (OSError, ValueError):
            yield messages
            return
        os.dup2(sink.fileno(), 2)
        try:
            yield messages
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            for line in sink.read().decode("utf-8", "replace").splitlines():
                if line.startswith(("Corrupt JPEG", "Premature end", "libpng", "[ WARN:")):
                    messages.append(line)
                elif line.strip():
                    print(line, file=sys.stderr)


def _padding_only(message: str) -> bool:
    padding = _PADDING.search(message)
    return padding is not None and int(padding.group(1)) <= _MOST_PADDING


def _decoder_said(messages: list[str]) -> str:
    """A decoder's first message, without OpenCV's log prefix or libjpeg's "Corrupt JPEG data:"
    (the refusal says so itself): what a refusal quotes."""
    if not messages:
        return ""
    message = messages[0].removeprefix("Corrupt JPEG data: ")
    if message.startswith("[ WARN:"):
        message = message.rsplit(": ", 1)[-1]
    return f" ({message.strip()})"


def _reduced_jpeg_flags(width: int, height: int, max_pixels: int) -> int | None:
    """The imdecode flags of the least reduction (:data:`_JPEG_REDUCTIONS`) that brings a JPEG
    within ``max_pixels``, or None when even an eighth is too big. libjpeg rounds a reduced
    side up, so that is what is counted."""
    for factor, flags in _JPEG_REDUCTIONS:
        if -(-width // factor) * -(-height // factor) <= max_pixels:
            return flags
    return None


def _checked_header(data: bytes, name: str, max_pixels: int) -> tuple[str, int, int, int]:
    """The format of ``data``, its width and height, and the imdecode flags that bring it
    within ``max_pixels``
    (:func:`_reduced_jpeg_flags`), from its header alone; whatever cannot be decoded sanely
    (not an image, truncated, no pixels, a strip, too big) is refused in one line first."""
    kind = _sniff_format(data)
    if kind is None:
        raise ImageError(f"{name}: not an image (expected JPEG, PNG, WebP, HEIC or AVIF)")
    _check_complete(data, kind, name)
    if kind == "HEIF":
        _open_heif()
    width, height = _header_size(data, kind, name)
    _check_shape(width, height, name)
    flags: int | None = cv2.IMREAD_COLOR
    if width * height > max_pixels:
        flags = _reduced_jpeg_flags(width, height, max_pixels) if kind == "JPEG" else None
    if flags is None:
        limit = (f"{64 * max_pixels:,} pixels for a JPEG" if kind == "JPEG"
                 else f"{max_pixels:,} pixels: save it as a JPEG, or smaller")
        raise ImageError(f"{name}: image too big ({width}x{height} pixels; the limit is {limit})")
    return kind, width, height, flags


def load_image(
    source: str | Path | bytes,
    *,
    max_pixels: int = MAX_PIXELS,
    max_bytes: int = MAX_BYTES,
) -> np.ndarray:
    """Decode a photo file or its bytes to a BGR ``uint8`` array, upright as EXIF says.

    Raises :class:`ImageError` with a one-line reason for anything that is not a complete image
    within the limits; a JPEG over ``max_pixels`` is decoded at a half, a quarter or an eighth
    of its size instead (:data:`_JPEG_REDUCTIONS`). OpenCV's decoder applies the EXIF
    orientation itself, reduced or not (checked by the tests), and libheif a HEIC's stored
    rotation, so the returned array is the photo as a viewer displays it.
    """
    name = Path(source).name if isinstance(source, (str, Path)) else "image"
    data = _read_bytes(source, max_bytes)
    kind, _, _, flags = _checked_header(data, name, max_pixels)
    if kind in _PILLOW_ONLY:
        return np.ascontiguousarray(_decode_with_pillow(data, kind, name))
    buffer = np.frombuffer(data, dtype=np.uint8)
    with _decoder_messages() as messages:
        try:
            image = cv2.imdecode(buffer, flags)
        except cv2.error:
            image = None
    if image is None or image.size == 0:
        raise ImageError(f"{name}: corrupt {kind} data, cannot decode{_decoder_said(messages)}")
    damage = [message for message in messages if message.startswith(_DAMAGE)
              and not _padding_only(message)]
    if damage:
        raise ImageError(f"{name}: corrupt {kind} data{_decoder_said(damage)}: part of the "
                         "photo is lost, so send or take it again")
    if image.dtype != np.uint8:
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1, int(image.max())))
    return np.ascontiguousarray(image)


_JPEG_SCALES = ((8, cv2.IMREAD_REDUCED_COLOR_8), (4, cv2.IMREAD_REDUCED_COLOR_4),
                (2, cv2.IMREAD_REDUCED_COLOR_2), (1, cv2.IMREAD_COLOR))


def load_thumbnail(source: bytes, side: int, *, max_pixels: int = MAX_PIXELS,
                   max_bytes: int = MAX_BYTES) -> np.ndarray:
    """A small BGR copy of a photo, ``side`` pixels on its longer side (or less, never
    enlarged), made in a millisecond or two: a JPEG is decoded at the smallest of libjpeg's
    scales that is still at least that big, so a 1280 x 960 camera frame costs an eighth of
    its decoding.

    What a live camera's frames are compared by (``webui.framegate``): most of them show the
    same still board as the one before, and need no reading. The header is checked as
    :func:`load_image` checks it (the same refusals, in one line); a damaged JPEG is not looked
    for, the frame's full decoding does that when it is read.
    """
    data = _read_bytes(source, max_bytes)
    kind, width, height, flags = _checked_header(data, "image", max_pixels)
    longer = max(width, height)
    if kind in _PILLOW_ONLY:
        image = _decode_with_pillow(data, kind, "image")
    else:
        if kind == "JPEG":
            flags = next(flag for scale, flag in _JPEG_SCALES
                         if -(-longer // scale) >= min(side, longer) or scale == 1)
        try:
            decoded = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flags)
        except cv2.error:
            decoded = None
        if decoded is None or decoded.size == 0:
            raise ImageError(f"image: corrupt {kind} data, cannot decode")
        image = np.asarray(decoded)
        if image.dtype != np.uint8:
            image = cv2.convertScaleAbs(image, alpha=255.0 / max(1, int(image.max())))
        if image.ndim == 2:
            image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    height, width = image.shape[:2]
    scale = side / max(height, width)
    if scale < 1.0:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(image)
