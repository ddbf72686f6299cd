"""Loading photos: EXIF orientation, size limits, and every way a file can be broken."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from lab.truth import DEV_PHOTOS as PHOTOS
from vision.errors import ImageError, VisionError
from vision.image import load_image

PHOTO = PHOTOS / "jheidel__scrabble-opencv__IMG_20151016_170028.jpg"


def _striped(width: int = 200, height: int = 100) -> np.ndarray:
    """RGB image whose left quarter is white: where it ends up shows the orientation."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:, : width // 4] = 255
    return image


def _jpeg_with_orientation(orientation: int) -> bytes:
    picture = Image.fromarray(_striped())
    exif = picture.getexif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    picture.save(buffer, "JPEG", exif=exif, quality=95)
    return buffer.getvalue()


def _png(image: np.ndarray) -> bytes:
    ok, encoded = cv2.imencode(".png", image)
    assert ok
    return encoded.tobytes()


def test_real_photo_loads_as_bgr_uint8() -> None:
    image = load_image(PHOTO)
    # The truth header records the decoded size of the stored photo.
    assert image.shape == (1500, 2000, 3)
    assert image.dtype == np.uint8


def test_bytes_and_path_give_the_same_pixels(tmp_path: Path) -> None:
    data = _png(np.random.default_rng(1).integers(0, 255, (40, 60, 3), dtype=np.uint8))
    path = tmp_path / "x.png"
    path.write_bytes(data)
    assert np.array_equal(load_image(data), load_image(path))
    assert np.array_equal(load_image(str(path)), load_image(path))


def test_exif_rotation_is_applied() -> None:
    plain = load_image(_jpeg_with_orientation(1))
    turned = load_image(_jpeg_with_orientation(6))  # 6 = display rotated 90 deg clockwise
    assert plain.shape[:2] == (100, 200)
    assert turned.shape[:2] == (200, 100)
    # The white band was on the left; turned clockwise it is on top.
    assert turned[:40].mean() > 200 and turned[60:].mean() < 30
    assert plain[:, :40].mean() > 200 and plain[:, 60:].mean() < 30


@pytest.mark.parametrize(
    "data, reason",
    [
        (b"", "empty"),
        (b"hello, I am not a photo", "not an image"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 100 + b"\xff\xd9", "corrupt"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50 + b"IEND\xaeB`\x82", "corrupt"),
    ],
)
def test_broken_bytes_raise_image_error(data: bytes, reason: str) -> None:
    with pytest.raises(ImageError) as info:
        load_image(data)
    message = str(info.value)
    assert reason in message
    assert "\n" not in message


def test_truncated_jpeg_is_refused() -> None:
    data = PHOTO.read_bytes()
    with pytest.raises(ImageError, match="truncated"):
        load_image(data[: len(data) * 2 // 3])


def test_truncated_png_is_refused() -> None:
    data = _png(np.full((50, 50, 3), 128, np.uint8))
    with pytest.raises(ImageError, match="truncated"):
        load_image(data[:-20])


def test_limits_are_checked_before_decoding(tmp_path: Path) -> None:
    data = _png(np.zeros((100, 120, 3), np.uint8))
    with pytest.raises(ImageError, match="too big"):
        load_image(data, max_pixels=100 * 119)
    with pytest.raises(ImageError, match="too big"):
        load_image(data, max_bytes=len(data) - 1)
    path = tmp_path / "big.png"
    path.write_bytes(data)
    with pytest.raises(ImageError, match="too big"):
        load_image(path, max_bytes=10)
    assert load_image(data, max_pixels=100 * 120).shape == (100, 120, 3)


@pytest.mark.slow
def test_a_jpeg_over_the_limit_is_decoded_smaller_upright(tmp_path: Path) -> None:
    # A phone's 48-200 MP photo, in miniature: a 200 x 100 JPEG stored turned (EXIF 6) against a
    # limit of 40 x 50 pixels is decoded at a quarter (25 x 50 upright), not refused; a PNG
    # is decoded whole or not at all, so it is refused; an eighth still too big is refused.
    data = _jpeg_with_orientation(6)
    image = load_image(data, max_pixels=40 * 50)
    assert image.shape == (50, 25, 3)
    assert image[:6].mean() > 200 and image[-6:].mean() < 60  # the white quarter on top
    assert load_image(data, max_pixels=100 * 50).shape == (100, 50, 3)  # a half fits
    with pytest.raises(ImageError, match=r"\(200x100 pixels; the limit is 2,000 pixels: save"):
        load_image(_png(_striped()), max_pixels=40 * 50)
    with pytest.raises(ImageError, match="too big"):
        load_image(data, max_pixels=13 * 25 - 1)
    # And a real photo five times over (75 MP, as a 108 MP phone camera's) comes at a half.
    big = tmp_path / "big.jpg"
    photo = cv2.imread(str(PHOTO))
    cv2.imwrite(str(big), cv2.resize(photo, None, fx=5, fy=5, interpolation=cv2.INTER_LINEAR))
    assert load_image(big).shape == (3750, 5000, 3)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="not a file"):
        load_image(tmp_path)


def test_grey_and_alpha_images_come_back_as_bgr() -> None:
    grey = _png(np.full((30, 40), 77, np.uint8))
    rgba = _png(np.dstack([np.full((30, 40, 3), 50, np.uint8), np.full((30, 40), 9, np.uint8)]))
    assert load_image(grey).shape == (30, 40, 3)
    assert load_image(rgba).shape == (30, 40, 3)


def test_error_family() -> None:
    assert issubclass(ImageError, VisionError)
    assert issubclass(VisionError, ValueError)
    assert str(ImageError("two\nlines")) == "two lines"


def _heif(picture: Image.Image, **options) -> bytes:
    """``picture`` encoded as a HEIC, an iPhone's own format (pillow-heif's encoder, which
    stores an EXIF orientation as the HEIF rotation a phone writes)."""
    import pillow_heif

    pillow_heif.register_heif_opener()
    buffer = io.BytesIO()
    picture.save(buffer, "HEIF", quality=90, **options)
    return buffer.getvalue()


@pytest.mark.slow
def test_an_iphone_heic_photo_loads_as_the_same_picture(tmp_path: Path) -> None:
    # A desktop browser uploads a HEIC copied off an iPhone as it is; so does the command line.
    jpeg = load_image(PHOTO)
    data = _heif(Image.fromarray(cv2.cvtColor(jpeg, cv2.COLOR_BGR2RGB)))
    heic = load_image(data)
    assert heic.shape == jpeg.shape and heic.dtype == np.uint8
    assert np.abs(heic.astype(int) - jpeg).mean() < 4  # the same photo, through two codecs
    # In a fresh process, where nothing has taught Pillow HEIF yet: the loader does it itself.
    path = tmp_path / "IMG_0001.HEIC"
    path.write_bytes(data)
    code = ("import sys; from vision.image import load_image; "
            "print(*load_image(sys.argv[1]).shape)")
    shown = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                           text=True, check=True, cwd=Path(__file__).resolve().parents[1])
    assert shown.stdout.split() == [str(n) for n in jpeg.shape]


def test_a_heic_stored_turned_loads_upright_and_avif_loads_too() -> None:
    picture = Image.fromarray(_striped())
    exif = picture.getexif()
    exif[0x0112] = 6  # display rotated 90 deg clockwise
    turned = load_image(_heif(picture, exif=exif.tobytes()))
    assert turned.shape[:2] == (200, 100)
    assert turned[:40].mean() > 200 and turned[60:].mean() < 30
    buffer = io.BytesIO()
    picture.save(buffer, "AVIF", quality=90)
    assert load_image(buffer.getvalue()).shape[:2] == (100, 200)


def test_a_truncated_or_oversized_heic_is_refused_in_one_line() -> None:
    data = _heif(Image.fromarray(_striped()))
    with pytest.raises(ImageError) as info:
        load_image(data[: len(data) // 2])
    assert "corrupt" in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(ImageError, match="too big"):
        load_image(data, max_pixels=100 * 199)


def test_a_jpeg_whose_data_is_damaged_is_refused_and_the_decoder_keeps_quiet(capfd) -> None:
    # Bytes overwritten inside the compressed data, the end-of-image marker intact: libjpeg
    # decodes it to the end anyway, the rest of the photo flat grey, and says so only on
    # standard error. That photo read as "no board" or "board cut off"; now it is refused as
    # what it is, in one line, and the decoder's own line does not reach the terminal.
    whole = PHOTO.read_bytes()
    noise = np.random.default_rng(0).integers(0, 256, 58000, dtype=np.uint8).tobytes()
    # Noise, and a run of bytes holding an end-of-image marker (0xFF 0xD9) of its own: libjpeg
    # stops there and calls the rest of the data "extraneous bytes", thousands of them.
    for damage in (noise, bytes(range(256)) * 227):
        data = whole[:2000] + damage[:58000] + whole[60000:]
        capfd.readouterr()
        with pytest.raises(ImageError) as info:
            load_image(data)
        message = str(info.value)
        assert message.startswith("image: corrupt JPEG data (") and "\n" not in message
        assert "part of the photo is lost" in message
        assert capfd.readouterr().err == ""
    # Padding some cameras write before the end marker is harmless: libjpeg warns, nothing lost.
    padded = PHOTO.read_bytes()
    end = padded.rindex(b"\xff\xd9")
    image = load_image(padded[:end] + b"\x00" * 3 + padded[end:])
    assert np.array_equal(image, load_image(PHOTO))
    assert capfd.readouterr().err == ""


def test_a_png_that_cannot_be_decoded_says_what_the_decoder_said(capfd) -> None:
    ok, encoded = cv2.imencode(".png", np.random.default_rng(1).integers(0, 255, (64, 64, 3),
                                                                         dtype=np.uint8))
    assert ok
    data = bytearray(encoded.tobytes())
    start = data.index(b"IDAT") + 20
    data[start:start + 200] = b"\xff" * 200  # the compressed pixels, the IEND chunk kept
    capfd.readouterr()
    with pytest.raises(ImageError) as info:
        load_image(bytes(data))
    assert str(info.value).startswith("image: corrupt PNG data, cannot decode (libpng")
    assert capfd.readouterr().err == ""


def test_an_empty_path_names_no_photo_not_the_current_folder() -> None:
    with pytest.raises(ImageError, match=r"^no photo named \(the path is empty\)$"):
        load_image("")
