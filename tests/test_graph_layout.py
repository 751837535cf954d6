"""Imports resolve the way the project is built: package_dir, src/ layouts, go.mod, package.json
exports, tsconfig paths, and packages linked together by symlinks (fourfold's own layout).

Each fixture repository is written to disk and walked and segmented by the real ingestion, so the
build files reach the graph exactly as an index build hands them over (as segments).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from fourfold.index.ingest.languages import detect_language
from fourfold.index.ingest.segment import segment_file
from fourfold.index.ingest.walk import read_source, walk_repository
from fourfold.plugins.graph.layout import read_layout
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.resolve import build_graph
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import ModalityQuery, Segment

ROOT = Path(__file__).resolve().parents[1]


def ingest(root: Path, repo: str, only: tuple[str, ...] = ()) -> list[Segment]:
    """Segments of ``root`` as an index build makes them (the real walk: symlinks are not followed)."""
    out: list[Segment] = []
    for f in walk_repository(root).files:
        if only and not f.path.endswith(only):
            continue
        data, _ = read_source(f)
        if data is not None:
            out.extend(segment_file(repo, f.path, detect_language(f.path, data[:128]), data).segments)
    return out


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def asked(tmp_path: Path, segments: list[Segment], question: str) -> set[str]:
    """``path:symbol`` of each hit of the graph built over ``segments`` for ``question``."""
    shard_dir = tmp_path / "shard"
    GraphModality().build(segments, shard_dir, BuildContext(generation="g", shard="all", repos=()))
    shard = GraphShard.open(shard_dir)
    try:
        result = shard.search(ModalityQuery(text=question, k=50))
    finally:
        shard.close()
    return {f"{h.path}:{h.symbol}" for h in result.hits}


def callers(tmp_path: Path, segments: list[Segment], symbol: str) -> set[str]:
    return asked(tmp_path, segments, f"who calls {symbol}")


def test_pyproject_package_dir_maps_a_package_onto_another_folder(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "acme"\n\n[tool.setuptools.package-dir]\nacme = "lib"\n',
            "lib/__init__.py": "",
            "lib/core.py": "def helper():\n    return 1\n",
            "app/main.py": "from acme.core import helper\n\n\ndef run():\n    return helper()\n",
        },
    )
    assert "app/main.py:run" in callers(tmp_path, ingest(root, "acme"), "helper")


def test_setup_cfg_package_dir(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "setup.cfg": "[metadata]\nname = widgets\n\n[options]\npackage_dir =\n    widgets = code/w\n",
            "code/w/__init__.py": "",
            "code/w/shapes.py": "def area(s):\n    return s * s\n",
            "tools/report.py": "import widgets.shapes as shapes\n\n\ndef report():\n    return shapes.area(2)\n",
        },
    )
    assert "tools/report.py:report" in callers(tmp_path, ingest(root, "widgets"), "area")


def test_setup_py_literal_package_dir(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "setup.py": 'from setuptools import setup\n\nsetup(name="tk", package_dir={"toolkit": "source"})\n',
            "source/__init__.py": "",
            "source/parse.py": "def tokenize(text):\n    return text.split()\n",
            "bin/cli.py": "from toolkit.parse import tokenize\n\n\ndef main():\n    tokenize('a b')\n",
        },
    )
    assert "bin/cli.py:main" in callers(tmp_path, ingest(root, "tk"), "tokenize")


def test_src_layout(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "pyproject.toml": '[project]\nname = "pkg"\n',
            "src/pkg/__init__.py": "",
            "src/pkg/mod.py": "def compute():\n    return 2\n",
            "tests/test_mod.py": "from pkg.mod import compute\n\n\ndef test_compute():\n    assert compute() == 2\n",
        },
    )
    assert "tests/test_mod.py:test_compute" in callers(tmp_path, ingest(root, "pkg"), "compute")


def test_symlinked_subpackages_resolve_through_the_package(tmp_path: Path) -> None:
    """``pkg/sub -> ../sub``: the walk skips the link, ``pkg.sub.mod`` still reaches ``sub/mod.py``."""
    root = write(
        tmp_path / "repo",
        {
            "pkg/__init__.py": '"""The package: its subpackages are linked in."""\n',
            "sub/__init__.py": "",
            "sub/mod.py": "def work():\n    return 3\n",
            "app.py": "from pkg.sub.mod import work\n\n\ndef go():\n    return work()\n",
        },
    )
    os.symlink("../sub", root / "pkg" / "sub")
    walked = {f.path for f in walk_repository(root).files}
    assert "sub/mod.py" in walked and not any(p.startswith("pkg/sub") for p in walked)  # no duplicates
    assert "app.py:go" in callers(tmp_path, ingest(root, "linked"), "work")


def test_unknown_package_prefix_is_not_guessed(tmp_path: Path) -> None:
    """Only a package of the repository itself is looked through: ``other.sub.mod`` stays unresolved."""
    root = write(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "sub/mod.py": "def work():\n    return 3\n",
            "app.py": "from other.sub.mod import work\n\n\ndef go():\n    return work()\n",
        },
    )
    assert "app.py:go" not in callers(tmp_path, ingest(root, "strict"), "work")


def test_go_module_path(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/acme/svc\n\ngo 1.22\n",
            "internal/store/store.go": "package store\n\nfunc Save(v string) error {\n\treturn nil\n}\n",
            "cmd/main.go": 'package main\n\nimport "example.com/acme/svc/internal/store"\n\n'
            'func main() {\n\tstore.Save("x")\n}\n',
        },
    )
    assert "cmd/main.go:main" in callers(tmp_path, ingest(root, "svc"), "Save")


def test_go_dot_imports_in_a_cycle_resolve_and_end(tmp_path: Path) -> None:
    # logrus 1.9.0: its root package's tests dot-import internal/testutils, which dot-imports the root
    root = write(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/log\n\ngo 1.22\n",
            "log.go": "package log\n\nfunc Info(v string) {\n}\n",
            "log_test.go": 'package log_test\n\nimport (\n\t. "example.com/log"\n'
            '\t. "example.com/log/internal/tu"\n)\n\nfunc TestInfo() {\n\tInfo(Missing())\n}\n',
            "internal/tu/tu.go": 'package tu\n\nimport . "example.com/log"\n\nfunc Check() {\n\tInfo("x")\n}\n',
        },
    )
    found = callers(tmp_path, ingest(root, "log"), "Info")
    assert {"log_test.go:TestInfo", "internal/tu/tu.go:Check"} <= found, found


def test_python_star_imports_in_a_cycle_resolve_and_end(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import *\n\n\ndef helper():\n    return 1\n",
            "pkg/b.py": "from pkg.a import *\n",
            "pkg/use.py": "from pkg.b import helper, nowhere\n\n\ndef run():\n    return helper() + nowhere()\n",
        },
    )
    assert "pkg/use.py:run" in callers(tmp_path, ingest(root, "pkg"), "helper")


def test_a_go_type_with_every_method_of_an_interface_implements_it(tmp_path: Path) -> None:
    # Go never says which types satisfy an interface: logrus's JSONFormatter and TextFormatter implement
    # Formatter by having its Format method
    root = write(
        tmp_path / "repo",
        {
            "go.mod": "module example.com/log\n\ngo 1.22\n",
            "formatter.go": "package log\n\ntype Formatter interface {\n\tFormat(e *Entry) ([]byte, error)\n"
            "\tName() string\n}\n\ntype Entry struct {\n\tMessage string\n}\n",
            "json.go": "package log\n\ntype JSONFormatter struct{}\n\n"
            "func (f *JSONFormatter) Format(e *Entry) ([]byte, error) {\n\treturn nil, nil\n}\n\n"
            'func (f JSONFormatter) Name() string {\n\treturn "json"\n}\n',
            "wrap.go": "package log\n\n// Wrapped has JSONFormatter's methods by embedding it\n"
            "type Wrapped struct {\n\tJSONFormatter\n\tlevel int\n}\n",
            "half.go": "package log\n\ntype Half struct{}\n\n"
            "func (h *Half) Format(e *Entry) ([]byte, error) {\n\treturn nil, nil\n}\n",
            "text/text.go": 'package text\n\nimport "example.com/log"\n\ntype TextFormatter struct{}\n\n'
            "func (t *TextFormatter) Format(e *log.Entry) ([]byte, error) {\n\treturn nil, nil\n}\n\n"
            'func (t *TextFormatter) Name() string {\n\treturn "text"\n}\n',
        },
    )
    segments = ingest(root, "log")
    found = asked(tmp_path, segments, "who implements Formatter")
    assert found == {"json.go:JSONFormatter", "text/text.go:TextFormatter", "wrap.go:Wrapped"}  # not Half: no Name
    assert asked(tmp_path / "again", segments, "who implements Half") == set()


def test_which_classes_extend_a_python_base(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "shop/base.py": "class Transport:\n    def send(self):\n        raise NotImplementedError\n",
            "shop/http.py": "from shop.base import Transport\n\n\nclass HTTPTransport(Transport):\n"
            "    def send(self):\n        return 1\n\n\ndef make():\n    return Transport()\n",
        },
    )
    found = asked(tmp_path, ingest(root, "shop"), "which classes extend Transport")
    assert found == {"shop/http.py:HTTPTransport"}  # make() uses Transport but derives nothing from it


def test_package_json_exports_reach_the_source_files(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "packages/util/package.json": '{"name": "@acme/util", "exports": {".": "./dist/index.js",'
            ' "./fmt": {"types": "./dist/fmt.d.ts", "import": "./dist/fmt.mjs"}}}',
            "packages/util/src/index.ts": "export function version(): string {\n  return '1';\n}\n",
            "packages/util/src/fmt.ts": "export function format(v: number): string {\n  return `${v}`;\n}\n",
            "apps/web/main.ts": 'import { format } from "@acme/util/fmt";\nimport { version } from "@acme/util";\n\n'
            "export function render(): string {\n  return format(1) + version();\n}\n",
        },
    )
    segments = ingest(root, "mono")
    assert "apps/web/main.ts:render" in callers(tmp_path, segments, "format")
    assert "apps/web/main.ts:render" in callers(tmp_path, segments, "version")


def test_tsconfig_paths_with_comments(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "tsconfig.json": '{\n  // aliases\n  "compilerOptions": {\n    "baseUrl": ".",\n'
            '    "paths": { "@app/*": ["src/app/*"], },  /* trailing comma */\n  },\n}\n',
            "src/app/math.ts": "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
            "src/main.ts": 'import { add } from "@app/math";\n\nexport function total(): number {\n'
            "  return add(1, 2);\n}\n",
        },
    )
    assert "src/main.ts:total" in callers(tmp_path, ingest(root, "web"), "add")


def test_unreadable_build_file_is_a_note_not_an_error() -> None:
    layout = read_layout({("r", "pyproject.toml"): "[tool.setuptools.package-dir\n", ("r", "package.json"): "{"})
    assert len(layout.notes) == 2
    assert any("r/pyproject.toml" in n for n in layout.notes) and any("r/package.json" in n for n in layout.notes)
    assert not layout.python_roots and not layout.js_packages


def test_cargo_toml_names_the_crate_and_its_root_folder() -> None:
    """``[package] name`` with its ``-`` read as ``_`` (``use foo_bar::x``), the root the folder of ``src/lib.rs``
    or of ``[lib] path``; a workspace's manifest (no package) names nothing; a broken one is a note."""
    layout = read_layout(
        {
            ("r", "crates/foo-bar/Cargo.toml"): '[package]\nname = "foo-bar"\n',
            ("r", "crates/core/Cargo.toml"): '[package]\nname = "core-x"\n[lib]\nname = "corex"\npath = "lib/mod.rs"\n',
            ("r", "Cargo.toml"): '[workspace]\nmembers = ["crates/*"]\n',
            ("s", "Cargo.toml"): "[package\nname = ",
        }
    )
    assert layout.rust_crates == {"foo_bar": ("r", "crates/foo-bar/src"), "corex": ("r", "crates/core/lib")}
    assert any(note.startswith("s/Cargo.toml: not read") for note in layout.notes)


@pytest.mark.slow
def test_fourfold_resolves_its_own_symlinked_packages(tmp_path: Path) -> None:
    """On fourfold's own source: ``who calls segment_file`` finds ``index/ingest/parallel.py``."""
    if not (ROOT / "fourfold" / "index").is_symlink():
        pytest.skip("this checkout does not link index/ into fourfold/")
    segments = ingest(ROOT, "fourfold", only=(".py", ".toml"))
    started = time.monotonic()
    data = build_graph(sorted(segments, key=lambda s: s.id))
    assert time.monotonic() - started < 60
    paths = {n.path for n in data.nodes}
    assert "index/ingest/parallel.py" in paths and not any(p.startswith("fourfold/index/") for p in paths)
    found = callers(tmp_path, segments, "segment_file")
    assert any(hit.startswith("index/ingest/parallel.py:") for hit in found), found
