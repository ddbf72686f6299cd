"""What importing a module loads, seen from a fresh interpreter (this one has loaded everything)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def loaded_by(imports: str, watched: tuple[str, ...]) -> list[str]:
    """Which of the ``watched`` modules importing ``imports`` loads, in a fresh interpreter."""
    code = (f"import sys, {imports}\n"
            f"print(','.join(m for m in {watched!r} if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    return [name for name in result.stdout.strip().split(",") if name]
