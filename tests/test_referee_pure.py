"""The referee is pure Python: importing it loads no OpenCV, NumPy or Flask (STYLE.md)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_importing_the_referee_loads_no_heavy_dependency():
    code = ("import sys, referee, referee.gamefile, referee.inference\n"
            "from referee.game import known_rulesets\n"
            "known_rulesets()\n"
            "heavy = sorted(m for m in ('cv2', 'numpy', 'flask') if m in sys.modules)\n"
            "print(','.join(heavy))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    assert result.stdout.strip() == ""


def test_the_referee_sources_import_nothing_heavy():
    for path in (ROOT / "referee").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("cv2", "numpy", "flask", "vision", "calibration", "webui"):
            assert f"import {name}" not in text and f"from {name}" not in text, (path, name)
