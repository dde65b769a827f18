"""Import cycles between the files of each Rust crate under rust/ and of the Python package(s) under
python/: prints every group of files that depend on one another in a ring, exits 1 if there is one.

    python3 tools/import_cycles.py [ROOT]          # ROOT: the repository (default: this one)

A cycle means that no file of the group can be understood, tested or moved without the others, so
the crates and the package are kept free of them. Standard library only, so that it runs anywhere.

Rust: every ``src/**/*.rs`` file of a crate is a node. ``use crate::a::b``, ``use super::x`` and
the same paths written inside the code (``crate::a::b::f()``) give an edge to the file of the
module they name; a path that goes on to an item inside a module (``crate::board::Position``) gives
the module's file, and a path through a re-export stops at the module that re-exports it. A file's
edges into its own submodules are left out: declaring and using its children is what a parent
module is for. So is test code: ``#[cfg(test)]`` items, files named ``tests.rs``, ``tests/``
directories and modules declared ``#[cfg(test)] mod x;``. Files under ``src/bin/`` are crates of
their own. Comments and strings are skipped, as are macros' ``$crate`` paths, which belong to the
code that expands the macro.

Python: every ``.py`` file of a package under ``python/`` is a node, ``foo/__init__.py`` standing
for ``foo``. ``import a.b``, ``from a.b import c`` and relative imports give an edge to the module
named, or to ``c`` itself when it is a submodule. Imports inside functions count too: a deferred
import is still a dependency, only a hidden one.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A node is a file's path relative to the root; an edge carries the line that makes it.
Graph = dict[str, dict[str, int]]

TOKEN = re.compile(r"r#[A-Za-z_]\w*|[A-Za-z_]\w*|::|\S")
IDENT = re.compile(r"(?:r#)?[A-Za-z_]\w*\Z")
RAW_STRING = re.compile(r'(?:br|cr|r)(#*)"')
CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
FILE_CFG_TEST = re.compile(r"#\s*!\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
PUB_IN = re.compile(r"pub\s*\(\s*in\s+[^)]*\)")


# ---------------------------------------------------------------------------------------------
# Rust


def strip_rust(text: str) -> str:
    """The source with comments and the contents of string and char literals blanked out.

    Every character keeps its offset and newlines stay, so offsets still give line numbers."""
    out: list[str] = []
    i, n = 0, len(text)

    def literal(start: int, end: int) -> None:
        """A literal reduced to its delimiters around blanks."""
        out.append(text[start])
        out.append("".join(c if c == "\n" else " " for c in text[start + 1 : end - 1]))
        out.append(text[end - 1] if end - start > 1 else "")

    while i < n:
        c = text[i]
        starts_word = i == 0 or not _word(text[i - 1])
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif starts_word and (m := RAW_STRING.match(text, i)):
            close = '"' + m.group(1)
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
            literal(i, end)
            i = end
        elif c == '"' or (starts_word and c in "bc" and text.startswith('"', i + 1)):
            j = i + (1 if c == '"' else 2)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
            literal(i, end)
            i = end
        elif c == "'" and (text.startswith("\\", i + 1) or text.startswith("'", i + 2)):
            # A char literal ('x', '\n', '\u{1F600}'); a lone quote starts a lifetime ('a).
            end = text.find("'", i + 3) + 1 if text.startswith("\\", i + 1) else i + 3
            end = n if end <= 0 else end
            literal(i, end)
            i = end
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _word(c: str) -> bool:
    return c.isalnum() or c == "_"


def _matching(text: str, start: int, open_: str, close: str) -> int:
    """The index just past the bracket that closes the one at ``start``."""
    depth = 0
    for j in range(start, len(text)):
        if text[j] == open_:
            depth += 1
        elif text[j] == close:
            depth -= 1
            if depth == 0:
                return j + 1
    return len(text)


def drop_test_items(text: str) -> tuple[str, list[str]]:
    """The (stripped) source without its ``#[cfg(test)]`` items, and the names of the modules
    declared ``#[cfg(test)] mod name;``, whose files are test code too."""
    test_modules: list[str] = []
    while m := CFG_TEST.search(text):
        j = m.end()
        # Further attributes of the same item.
        while True:
            k = len(text) - len(text[j:].lstrip())
            if text.startswith("#", k) and "[" in text[k : k + 3]:
                j = _matching(text, text.index("[", k), "[", "]")
            else:
                j = k
                break
        # The item ends at the first ';' or at the end of its first '{ ... }' block.
        depth, end = 0, len(text)
        for k in range(j, len(text)):
            ch = text[k]
            if ch in "([":
                depth += 1
            elif ch in ")]":
                depth -= 1
            elif depth == 0 and ch == ";":
                end = k + 1
                if decl := re.fullmatch(r"(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text[j:end].strip()):
                    test_modules.append(decl.group(1))
                break
            elif depth == 0 and ch == "{":
                end = _matching(text, k, "{", "}")
                break
        text = (
            text[: m.start()] + "".join(c if c == "\n" else " " for c in text[m.start() : end]) + text[end:]
        )
    return text, test_modules


def rust_paths(text: str) -> Iterable[tuple[list[str], list[str], int]]:
    """Each ``crate::``, ``super::`` or ``self::`` path in stripped source: the inline modules it
    sits in, its segments and its line."""
    text = PUB_IN.sub(lambda m: " " * len(m.group(0)), text)
    tokens = [(m.group(0), m.start()) for m in TOKEN.finditer(text)]
    lines = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            lines.append(i + 1)

    def line_of(offset: int) -> int:
        lo, hi = 0, len(lines)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if lines[mid] <= offset:
                lo = mid
            else:
                hi = mid
        return lo + 1

    inline: list[tuple[str, int]] = []  # (module name, brace depth inside it)
    depth = 0
    i = 0
    while i < len(tokens):
        tok, offset = tokens[i]
        prev = tokens[i - 1][0] if i else ""
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if inline and depth < inline[-1][1]:
                inline.pop()
        elif (
            tok == "mod" and i + 2 < len(tokens) and tokens[i + 2][0] == "{" and IDENT.match(tokens[i + 1][0])
        ):
            inline.append((tokens[i + 1][0], depth + 1))
            depth += 1
            i += 3
            continue
        elif tok == "use" and prev not in ("::", "."):
            end = i + 1
            while end < len(tokens) and tokens[end][0] != ";":
                end += 1
            scope = [name for name, _ in inline]
            for path in _use_tree([t for t, _ in tokens[i + 1 : end]]):
                yield scope, path, line_of(offset)
            i = end + 1
            continue
        elif tok in ("crate", "super", "self") and prev not in ("$", "::") and _next(tokens, i) == "::":
            path, j = [tok], i
            while _next(tokens, j) == "::" and j + 2 < len(tokens) and IDENT.match(tokens[j + 2][0]):
                path.append(tokens[j + 2][0])
                j += 2
            yield [name for name, _ in inline], path, line_of(offset)
            i = j + 1
            continue
        i += 1


def _next(tokens: list[tuple[str, int]], i: int) -> str:
    return tokens[i + 1][0] if i + 1 < len(tokens) else ""


def _use_tree(tokens: list[str]) -> list[list[str]]:
    """The full paths a ``use`` tree names: ``crate::{a::b, c}`` gives crate::a::b and crate::c."""
    paths: list[list[str]] = []
    pos = 0

    def tree(prefix: list[str]) -> None:
        nonlocal pos
        segs = list(prefix)
        while pos < len(tokens):
            tok = tokens[pos]
            pos += 1
            if tok == "::":
                continue
            if tok == "{":
                while pos < len(tokens) and tokens[pos] != "}":
                    if tokens[pos] == ",":
                        pos += 1
                        continue
                    tree(segs)
                pos += 1
                return
            if tok == "*":
                paths.append(segs)
                return
            if IDENT.match(tok):
                segs.append(tok)
                if pos < len(tokens) and tokens[pos] == "::":
                    continue
                if pos + 1 < len(tokens) and tokens[pos] == "as":
                    pos += 2
                paths.append(segs[:-1] if segs[-1] == "self" else segs)
                return
            return

    tree([])
    return paths


def _module_of(rel: Path) -> tuple[str, tuple[str, ...]]:
    """A file's namespace (its crate, or one binary of it) and module path, from its path in src/."""
    parts = list(rel.with_suffix("").parts)
    namespace = "lib"
    if parts[0] == "bin" and len(parts) > 1:
        namespace, parts = "bin/" + parts[1], parts[2:]
        if parts == ["main"]:
            parts = []
    elif parts == ["main"]:
        namespace, parts = "main", []
    elif parts == ["lib"]:
        parts = []
    if parts and parts[-1] == "mod":
        parts = parts[:-1]
    return namespace, tuple(parts)


def rust_graph(crate: Path, root: Path) -> Graph:
    """The file-level dependency graph of one crate's src/ (test code left out)."""
    src = crate / "src"
    files = sorted(
        p for p in src.rglob("*.rs") if p.name != "tests.rs" and "tests" not in p.relative_to(src).parts[:-1]
    )
    modules: dict[tuple[str, tuple[str, ...]], Path] = {}
    for p in files:
        namespace, path = _module_of(p.relative_to(src))
        if namespace == "main" and not (src / "lib.rs").exists():
            namespace = "lib"
        modules[(namespace, path)] = p

    sources: dict[Path, str] = {}
    test_only: set[tuple[str, tuple[str, ...]]] = set()
    for (namespace, path), p in modules.items():
        text, test_modules = drop_test_items(strip_rust(p.read_text(encoding="utf-8")))
        sources[p] = text
        test_only.update((namespace, path + (name,)) for name in test_modules)
        if FILE_CFG_TEST.search(text):
            test_only.add((namespace, path))

    def is_test(key: tuple[str, tuple[str, ...]]) -> bool:
        return any(key[0] == ns and key[1][: len(t)] == t for ns, t in test_only)

    graph: Graph = {}
    for (namespace, here), p in modules.items():
        if is_test((namespace, here)):
            continue
        node = p.relative_to(root).as_posix()
        edges = graph.setdefault(node, {})
        for scope, path, line in rust_paths(sources[p]):
            target = _resolve(modules, namespace, here + tuple(scope), path)
            # Its own module, or one of its submodules: a parent's business, not a dependency.
            if target is None or target[: len(here)] == here or is_test((namespace, target)):
                continue
            dest = modules[(namespace, target)].relative_to(root).as_posix()
            edges.setdefault(dest, line)
    return graph


def _resolve(
    modules: dict[tuple[str, tuple[str, ...]], Path], namespace: str, scope: tuple[str, ...], path: list[str]
) -> tuple[str, ...] | None:
    """The module file a path leads to: the longest prefix of it that is a module with a file."""
    head, rest = path[0], path[1:]
    if head == "crate":
        base: tuple[str, ...] = ()
    elif head == "self":
        base = scope
    elif head == "super":
        base = scope[:-1]
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    else:
        return None  # another crate, or a child module named from its parent
    for seg in rest:
        if (namespace, base + (seg,)) not in modules:
            break
        base += (seg,)
    while (namespace, base) not in modules:
        if not base:
            return None
        base = base[:-1]
    return base


def rust_crates(root: Path) -> list[Path]:
    """The crates under rust/: the directories with a src/ directory, outside build output."""
    base = root / "rust"
    if not base.is_dir():
        return []
    crates = []
    for src in sorted(base.rglob("src")):
        parts = src.relative_to(base).parts
        if src.is_dir() and "target" not in parts and "src" not in parts[:-1]:
            crates.append(src.parent)
    return crates


# ---------------------------------------------------------------------------------------------
# Python


def python_graph(package: Path, root: Path) -> Graph:
    """The module-level import graph of one Python package (imports inside functions included)."""
    names: dict[str, Path] = {}
    compiled: set[str] = set()  # extension modules and stubs: modules, but no source to follow
    for p in sorted(package.rglob("*")):
        parts = p.relative_to(package.parent).parts
        stem = p.name.split(".")[0]
        # A package's own module is its folder: ``foo/__init__.py``, or ``foo/__init__.pyi`` for a
        # compiled package described by a stub package.
        dotted = parts[:-1] if stem == "__init__" else parts[:-1] + (stem,)
        if p.suffix == ".py":
            names[".".join(dotted)] = p
        elif p.suffix in (".pyi", ".so", ".pyd"):
            compiled.add(".".join(dotted))

    def target_of(dotted: str) -> str | None:
        """The module with a file that importing ``dotted`` depends on, if any."""
        if dotted in compiled and dotted not in names:
            return None
        while dotted and dotted not in names:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    graph: Graph = {}
    for name, p in names.items():
        node = p.relative_to(root).as_posix()
        edges = graph.setdefault(node, {})
        package_name = name if p.name == "__init__.py" else name.rpartition(".")[0]
        for stmt in ast.walk(ast.parse(p.read_text(encoding="utf-8"), filename=str(p))):
            targets: list[str | None] = []
            if isinstance(stmt, ast.Import):
                targets = [target_of(alias.name) for alias in stmt.names]
            elif isinstance(stmt, ast.ImportFrom):
                base = stmt.module or ""
                if stmt.level:
                    anchor = package_name.split(".")
                    anchor = anchor[: len(anchor) - (stmt.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                for alias in stmt.names:
                    # ``from a import b`` depends on a.b when that is a module, else on a.
                    sub = f"{base}.{alias.name}"
                    targets.append(target_of(sub) if sub in names or sub in compiled else target_of(base))
            for target in targets:
                if target is not None and target != name:
                    edges.setdefault(names[target].relative_to(root).as_posix(), stmt.lineno)
    return graph


def python_packages(root: Path) -> list[Path]:
    """The top-level packages under python/."""
    base = root / "python"
    if not base.is_dir():
        return []
    return sorted(p.parent for p in base.glob("*/__init__.py"))


# ---------------------------------------------------------------------------------------------


def cycles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one node, each sorted, in sorted order
    (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
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
    return sorted(found)


def report(title: str, graph: Graph) -> int:
    """Prints the cycles of one graph with the edges inside each; returns how many there are."""
    found = cycles(graph)
    for component in found:
        members = set(component)
        print(f"{title}: cycle of {len(component)} files")
        for node in component:
            for dest, line in sorted(graph[node].items()):
                if dest in members:
                    print(f"    {node}:{line} -> {dest}")
    return len(found)


def main(argv: list[str] | None = None) -> int:
    """Checks every crate and package under ROOT; 1 if any has an import cycle, else 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=ROOT, help="the repository (default: this one)")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    total = 0
    checked = 0
    for crate in rust_crates(root):
        total += report(crate.relative_to(root).as_posix(), rust_graph(crate, root))
        checked += 1
    for package in python_packages(root):
        total += report(package.relative_to(root).as_posix(), python_graph(package, root))
        checked += 1
    print(f"{checked} crates and packages checked, {total} import cycles")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
