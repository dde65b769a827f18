"""tools/import_cycles.py on small made-up trees: it finds the ring of files that import one
another, and only that, in a Rust crate and in a Python package."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[1] / "tools"


@pytest.fixture
def tool(monkeypatch):
    """The checker, imported from tools/."""
    monkeypatch.syspath_prepend(str(TOOLS))
    return importlib.import_module("import_cycles")


def write(root: Path, files: dict[str, str]) -> Path:
    """Each file under ``root``, its text dedented; returns ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


# Acyclic, though each file mentions one that depends on it: in a comment, a string, test code, a
# parent's use of its own submodule, a macro's $crate path.
CLEAN_CRATE = {
    "rust/clean/Cargo.toml": "",
    "rust/clean/src/lib.rs": """
        pub mod board;
        pub mod formats;
        pub use board::Position;
    """,
    "rust/clean/src/board.rs": """
        // Written with crate::formats::id::encode, see there.
        pub struct Position;
        pub const NOTE: &str = "crate::formats::id";
        macro_rules! pos { () => { $crate::formats::id::decode() }; }
        #[cfg(test)]
        mod tests {
            use crate::formats::id::encode;
        }
    """,
    "rust/clean/src/formats/mod.rs": """
        pub mod id;
        pub use self::id::encode;
        fn f() { id::decode(); }
        #[cfg(test)]
        mod checks;
    """,
    "rust/clean/src/formats/id.rs": """
        use crate::{board::Position, Position as P};
        use super::*;
        pub fn encode(p: &Position) {}
        pub fn decode() {}
    """,
    "rust/clean/src/formats/checks.rs": "use crate::board::Position;\n",
    "rust/clean/src/formats/id/tests.rs": "use crate::board::Position;\n",
}

CYCLIC_CRATE = {
    "rust/cyclic/Cargo.toml": "",
    "rust/cyclic/src/lib.rs": "pub mod moves;\npub mod notation;\npub mod dice;\n",
    "rust/cyclic/src/dice.rs": "pub struct Dice;\n",
    "rust/cyclic/src/moves.rs": """
        use crate::dice::Dice;
        pub struct Play;
        impl Play {
            pub fn text(&self) -> String { crate::notation::format_play(self) }
        }
    """,
    "rust/cyclic/src/notation.rs": """
        use crate::{dice::Dice, moves::{self, Play}};
        pub fn format_play(p: &Play) -> String { String::new() }
    """,
}

CLEAN_PACKAGE = {
    "python/pkg/__init__.py": "from pkg.core import run\nfrom . import shapes\n",
    "python/pkg/core.py": (
        "from pkg import _native\nfrom pkg.shapes import Square\nfrom pkg._compiled import f\n"
    ),
    # A compiled module described by a stub package: a module of its own, not its parent package.
    "python/pkg/_compiled/__init__.pyi": "def f() -> None: ...\n",
    "python/pkg/shapes.py": "from ._native import area\n",
    "python/pkg/_native.pyi": "def area() -> float: ...\n",
    "python/pkg/front/__init__.py": "def main():\n    from pkg.front.show import show\n",
    "python/pkg/front/show.py": "import pkg.core\nfrom .. import shapes\n",
}

CYCLIC_PACKAGE = {
    "python/pkg/__init__.py": "",
    "python/pkg/front/__init__.py": "def main():\n    from pkg.front import batch\n",
    "python/pkg/front/batch.py": "from pkg.front import result_dict\n",
}


def test_an_acyclic_tree_passes(tool, tmp_path, capsys):
    root = write(tmp_path, {**CLEAN_CRATE, **CLEAN_PACKAGE})
    assert tool.main([str(root)]) == 0
    assert capsys.readouterr().out.strip() == "2 crates and packages checked, 0 import cycles"
    graph = tool.rust_graph(root / "rust" / "clean", root)
    assert "rust/clean/src/formats/checks.rs" not in graph
    assert "rust/clean/src/formats/id/tests.rs" not in graph
    assert graph["rust/clean/src/board.rs"] == {}
    assert graph["rust/clean/src/formats/id.rs"] == {
        "rust/clean/src/board.rs": 2,
        "rust/clean/src/lib.rs": 2,
        "rust/clean/src/formats/mod.rs": 3,
    }
    graph = tool.python_graph(root / "python" / "pkg", root)
    assert graph["python/pkg/core.py"] == {"python/pkg/shapes.py": 2}
    assert set(graph["python/pkg/front/show.py"]) == {"python/pkg/core.py", "python/pkg/shapes.py"}


def test_cycles_are_printed_with_the_lines_that_make_them(tool, tmp_path, capsys):
    root = write(tmp_path, {**CLEAN_CRATE, **CYCLIC_CRATE, **CYCLIC_PACKAGE})
    assert tool.main([str(root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "rust/cyclic: cycle of 2 files",
        "    rust/cyclic/src/moves.rs:5 -> rust/cyclic/src/notation.rs",
        "    rust/cyclic/src/notation.rs:2 -> rust/cyclic/src/moves.rs",
        "python/pkg: cycle of 2 files",
        "    python/pkg/front/__init__.py:2 -> python/pkg/front/batch.py",
        "    python/pkg/front/batch.py:1 -> python/pkg/front/__init__.py",
        "3 crates and packages checked, 2 import cycles",
    ]


def test_strongly_connected_components(tool):
    graph = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1, "d": 1}, "d": {}, "e": {"e": 1}, "f": {"d": 1}}
    assert tool.cycles(graph) == [["a", "b", "c"]]
