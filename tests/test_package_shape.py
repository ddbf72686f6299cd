"""The packages' shape: the product runs without the offline tools, and nothing imports in a cycle.

``vision`` is the reader; ``lab`` holds the tools behind it (rendering, training, scoring), which
import ``vision`` and never the other way round, so the app and a reading never load them. A
cycle of imports, even one hidden inside a function, means two modules that cannot be understood
(or moved) apart, so the import graph of every package is checked for one.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("referee", "vision", "calibration", "webui", "lab")
LONGEST_MODULE = 800


def _modules() -> dict[str, Path]:
    """Every module of :data:`PACKAGES` by dotted name (a package by its own name)."""
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The modules of :data:`PACKAGES` that ``name`` imports anywhere, inside functions too.

    ``from x import y`` is an import of the module ``x.y`` where there is one, else of ``x``;
    relative imports are resolved against ``name``'s package.
    """
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[:len(package) - node.level + 1] + ([base] if base else []))
            targets += [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                        for alias in node.names]
    found = set()
    for target in targets:
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]
        if target in modules and target != name:
            found.add(target)
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.mark.slow
def test_no_module_imports_in_a_cycle() -> None:
    assert _cycles(_graph()) == []


def test_the_cycle_finder_sees_a_cycle_through_a_function_and_a_relative_import(
        tmp_path: Path) -> None:
    # The check above must be able to fail: a cycle hidden in a function body is one.
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def late():\n    from pkg import b\n")
    (package / "b.py").write_text("from . import a\n")
    modules = {"pkg": package / "__init__.py", "pkg.a": package / "a.py",
               "pkg.b": package / "b.py"}
    graph = {name: _imported(name, path, modules) for name, path in modules.items()}
    assert graph["pkg.a"] == {"pkg.b"} and graph["pkg.b"] == {"pkg.a"}
    assert _cycles(graph) == [["pkg.a", "pkg.b"]]


@pytest.mark.slow
def test_vision_never_imports_the_offline_tools() -> None:
    graph = _graph()
    reaching = {name: sorted(other for other in imported if other.split(".")[0] == "lab")
                for name, imported in graph.items() if name.split(".")[0] == "vision"}
    assert {name: lab for name, lab in reaching.items() if lab} == {}


@pytest.mark.slow
def test_the_reader_reads_no_file_of_the_benchmarks_or_the_shared_folder() -> None:
    # Truth, errata and photos are the offline tools' (lab): the installed reader has none.
    for path in (ROOT / "vision").rglob("*.py"):
        strings = {node.value for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(node, ast.Constant) and isinstance(node.value, str)}
        assert not strings & {"bench", "shared", "photos"}, path


def test_no_module_of_the_reader_or_the_tools_is_too_long_to_read() -> None:
    long = {str(path.relative_to(ROOT)): lines for package in ("vision", "lab")
            for path in (ROOT / package).rglob("*.py")
            if (lines := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE}
    assert long == {}


def _test_modules_imported(source: str) -> set[str]:
    """The test modules (``test_*.py``, ``conftest.py``) that ``source`` imports anywhere, however
    named: ``test_x``, ``tests.test_x``, ``from tests import test_x`` or relatively."""

    def is_test_module(dotted: str) -> bool:
        parts = dotted.split(".")
        if parts[0] == "tests":
            parts = parts[1:2]
        return bool(parts) and (parts[0].startswith("test_") or parts[0] == "conftest")

    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if is_test_module(alias.name)}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level or base == "tests":
                found |= {alias.name for alias in node.names if is_test_module(alias.name)}
            if base and not node.level and is_test_module(base):
                found.add(base)
    return found


def test_no_test_module_imports_another_test_module_or_the_conftest() -> None:
    # Helpers that several test modules share live in tests/support: a test module imported by
    # another ties the two files together (and is imported twice, under two names).
    found = {str(path.relative_to(ROOT)): sorted(names)
             for path in (ROOT / "tests").rglob("*.py")
             if (names := _test_modules_imported(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_the_test_import_check_sees_every_way_of_importing_a_test_module() -> None:
    # The check above must be able to fail.
    for source in ("from tests.test_read import house_in_shadow\n", "import test_read\n",
                   "from test_playerboard import render_player_board\n",
                   "from tests.conftest import TWO_PLAYERS\n",
                   "from conftest import png_claiming\n", "from . import test_read\n",
                   "def f():\n    from tests import test_read\n"):
        assert _test_modules_imported(source), source
    assert _test_modules_imported("from tests.support.web import TWO_PLAYERS\nimport pytest\n"
                                  "from lab.render import render_board_photo\n") == set()


def _on_the_sample_photo(code: str) -> str:
    """What ``code`` prints, run in a fresh process with a sample photo's path as argv[1]."""
    return subprocess.run([sys.executable, "-c", code,
                           str(ROOT / "samples" / "photos" / "scrabble-midgame.jpg")],
                          capture_output=True, text=True, cwd=ROOT, check=True).stdout


@pytest.mark.slow
def test_the_app_and_a_reading_load_nothing_of_the_offline_tools(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "import webui\n"
        f"app = webui.create_app({{'TESTING': True, 'INSTANCE_PATH': {str(tmp_path)!r}}})\n"
        "app.test_client().get('/')\n"
        "import vision\n"
        "reading = vision.read_board(sys.argv[1])\n"
        "assert reading.cells, 'the sample photo has tiles'\n"
        "print(sorted(m for m in sys.modules if m == 'lab' or m.startswith('lab.')))\n"
        # The check sees lab's modules once they are loaded: it is not blind to them.
        "import lab.render\n"
        "print(sorted(m for m in sys.modules if m == 'lab' or m.startswith('lab.'))[:2])\n"
    )
    loaded, after = _on_the_sample_photo(code).splitlines()
    assert loaded == "[]"
    assert after == "['lab', 'lab.render']"


def test_every_public_name_of_a_package_is_where_its_init_says() -> None:
    # The packages load their public names when first used (PEP 562): a name missing from the
    # table, or moved out of its module, would fail only when someone asked for it.
    import referee
    import vision

    for package in (referee, vision):
        assert sorted(package._HOMES) == sorted(package.__all__)
        for name in package.__all__:
            assert getattr(package, name) is getattr(
                importlib.import_module(package._HOMES[name]), name)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        vision.nothing  # noqa: B018


def test_reading_a_photo_loads_no_ruleset_and_no_other_reader() -> None:
    # `tileref read` paid for all five rulesets and the player-board reader at each start.
    code = (
        "import sys\n"
        "from vision import read_board\n"
        "read_board(sys.argv[1])\n"
        "print(sorted(m for m in sys.modules if m in {'referee.game', 'referee.islands',"
        " 'referee.archipelago', 'vision.playerboard', 'vision.steady', 'vision.overlay'}))\n"
    )
    assert _on_the_sample_photo(code).strip() == "[]"
