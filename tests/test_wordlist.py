"""The word lists: built-in ENABLE, a table's own file, and the one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from referee.wordlist import WordList, WordListError, load_word_list

ENABLE_FILE = Path(__file__).resolve().parents[1] / "referee" / "data" / "enable.txt"


def test_enable_holds_every_line_of_its_file_and_is_named_enable() -> None:
    words = load_word_list("enable")
    lines = ENABLE_FILE.read_text(encoding="ascii").split()
    assert words.name == "ENABLE"
    assert len(words) == len(set(lines))
    assert all(line in words for line in lines[::997])


def test_lookup_ignores_case_and_rejects_non_words() -> None:
    words = load_word_list()
    assert "zyzzyva" in words and "ZYZZYVA" in words and "ZyZzYvA" in words
    assert "cAt" in words
    assert "qi" not in words  # ENABLE predates QI
    assert "catx" not in words
    assert "" not in words
    assert 42 not in words


def test_enable_is_cached() -> None:
    assert load_word_list("enable") is load_word_list("ENABLE")


def test_own_list_tolerates_comments_case_crlf_blank_lines_and_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "house.txt"
    path.write_bytes("\ufeff# house words\r\nQi\r\n\r\nza  # added 2006\r\n  XU \r\n#ok\r\n"
                     .encode("utf-8"))
    words = load_word_list("house.txt", base_dir=tmp_path)
    assert words.name == "house.txt"
    assert len(words) == 3
    assert {"qi", "ZA", "xu"} <= {w for w in ("qi", "ZA", "xu") if w in words}
    assert "ok" not in words


def test_own_list_accepts_national_letters(tmp_path: Path) -> None:
    path = tmp_path / "de.txt"
    path.write_text("Bär\nöl\n", encoding="utf-8")
    words = load_word_list(path)
    assert "BÄR" in words and "Öl" in words


@pytest.mark.parametrize("content, fragment", [
    ("cat\ntwo words\n", "line 2"),
    ("cat\ndon't\n", "line 2"),
    ("# nothing here\n\n", "holds no words"),
])
def test_bad_file_is_one_line_error(tmp_path: Path, content: str, fragment: str) -> None:
    path = tmp_path / "bad.txt"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(WordListError) as caught:
        load_word_list(path)
    message = str(caught.value)
    assert fragment in message and "\n" not in message
    assert isinstance(caught.value, ValueError)


def test_missing_directory_and_binary_files_are_one_line_errors(tmp_path: Path) -> None:
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00cat")
    for spec in ("nope.txt", ".", "bin.txt"):
        with pytest.raises(WordListError) as caught:
            load_word_list(spec, base_dir=tmp_path)
        assert "\n" not in str(caught.value)
    with pytest.raises(WordListError):
        load_word_list("   ")


def test_word_list_value_object() -> None:
    words = WordList("tiny", ["at", "TO"])
    assert sorted(words) == ["AT", "TO"] and "to" in words and "tiny" in repr(words)


@pytest.mark.slow
def test_referee_import_loads_no_heavy_modules() -> None:
    code = ("import sys, referee.wordlist, referee.layouts, referee.scoring;"
            "print(sorted(m for m in ('cv2', 'numpy', 'flask') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=Path(__file__).resolve().parents[1], check=True)
    assert result.stdout.strip() == "[]"
