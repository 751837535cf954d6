"""The graph's on-disk facts cache: a build in a new process parses only the files whose bytes are new.

Real tree-sitter parses, a real SQLite file, real builds through ``build_generation`` in child
processes (the in-process cache must not be what answers).
"""

from __future__ import annotations

import json
import marshal
import pickle
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from fourfold.plugins.graph import parse
from fourfold.plugins.graph.facts_cache import FactsCache, facts_cache_for
from fourfold.plugins.graph.parse import parse_file, using_facts_cache

SOURCE = b"import os\n\n\ndef f(x):\n    return os.path.join(x, g())\n\n\ndef g():\n    return 'y'\n"

CHILD = """
import json, sys
from pathlib import Path
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.plugins.graph import parse
calls = []
real = parse._parse
parse._parse = lambda source, language: calls.append(1) or real(source, language)
store = IndexStore(Path(sys.argv[1]))
adds = [(Path(sys.argv[2]), sys.argv[3])] if len(sys.argv) > 2 else []
build_generation(store, adds, modalities=["graph"])
print(json.dumps({"parsed": len(calls)}))
"""


def _build(home: Path, *args: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(home), *args], capture_output=True, text=True, check=True, timeout=300
    )
    return int(json.loads(done.stdout.strip().splitlines()[-1])["parsed"])


def test_facts_round_trip_through_the_disk_and_survive_a_new_process(tmp_path: Path) -> None:
    cache = FactsCache(tmp_path / "facts.sqlite")
    parse._facts.clear()
    with using_facts_cache(cache):
        first = parse_file(SOURCE, "python")
    parse._facts.clear()  # a new process: nothing in memory
    called: list[bytes] = []
    real = parse._parse
    try:
        parse._parse = lambda source, language: called.append(source) or real(source, language)  # type: ignore[assignment]
        with using_facts_cache(FactsCache(tmp_path / "facts.sqlite")):
            again = parse_file(SOURCE, "python")
    finally:
        parse._parse = real  # type: ignore[assignment]
    assert again == first and not called
    assert first.imports and first.references


def test_a_foreign_or_damaged_entry_is_a_miss_not_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "facts.sqlite"
    cache = FactsCache(path)
    key = cache.key(b"k" * 16, "python")
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO facts VALUES (?, ?)", (key, zlib.compress(pickle.dumps(Path("/etc")))))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (key + b"x", b"not zlib"))
        conn.execute("INSERT INTO facts VALUES (?, ?)", (key + b"y", zlib.compress(marshal.dumps((1, 2)))))
    assert cache.get(key) is None and cache.get(key + b"x") is None
    assert parse._from_plain(cache.get(key + b"y")) is None  # a tuple, but not facts: a miss
    assert cache.get(key + b"y") == (1, 2)  # zlib, as entries were written before: still read
    cache.put(key + b"z", ("now", 3))
    cache.flush()
    with sqlite3.connect(path) as conn:
        (stored,) = conn.execute("SELECT data FROM facts WHERE key = ?", (key + b"z",)).fetchone()
    assert stored[:4] == b"\x28\xb5\x2f\xfd" and cache.get(key + b"z") == ("now", 3)  # zstd now
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO facts VALUES (?, ?)", (key + b"w", stored[:4] + b"damaged"))
    assert cache.get(key + b"w") is None
    with pytest.raises(TypeError):
        cache.put(key, (Path("/etc"),))  # type: ignore[arg-type]
    assert facts_cache_for("") is None
    assert facts_cache_for(str(tmp_path / "no" / "such" / "dir" / "\0bad")) is None


def test_a_rebuild_in_a_new_process_parses_only_the_changed_file(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    for i in range(8):
        (repo / "pkg" / f"m{i}.py").write_text(f"from pkg.m0 import f0\n\n\ndef f{i}(x):\n    return f0(x) + {i}\n")
    home = tmp_path / "home"
    cold = _build(home, str(repo), "repo")
    assert cold >= 8  # every file parsed once (the centrality pass; the partition reuses it)
    assert (home / "cache" / "graph-facts.sqlite").is_file()
    (repo / "pkg" / "m3.py").write_text("from pkg.m0 import f0\n\n\ndef f3(x):\n    return f0(f0(x))\n")
    assert _build(home) == 1  # only m3.py's new bytes


def test_a_flush_empties_a_large_log_unless_another_process_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import time

    from fourfold.plugins.graph import facts_cache

    monkeypatch.setattr(facts_cache, "WAL_LIMIT", 64 << 10)
    path = tmp_path / "facts.sqlite"
    wal = tmp_path / "facts.sqlite-wal"
    cache = FactsCache(path)
    noise = os.urandom(1 << 20).hex()  # incompressible entries: the log grows past the limit
    for i in range(16):
        cache.put(b"k%d" % i, (noise[i * 4096 : (i + 1) * 4096 * 8],))
    cache._commit()
    assert wal.stat().st_size > 64 << 10
    # another process in a read transaction: the flush does not wait for it and leaves the log
    reader = sqlite3.connect(path, timeout=30)
    reader.execute("BEGIN")
    assert reader.execute("SELECT COUNT(*) FROM facts").fetchone() == (16,)
    started = time.monotonic()
    cache.flush()
    assert time.monotonic() - started < 5 and wal.stat().st_size > 64 << 10
    reader.rollback()
    reader.close()
    cache.flush()  # now no one reads: the log is folded in and emptied
    assert wal.stat().st_size == 0
    assert cache.get(b"k3") == (noise[3 * 4096 : 4 * 4096 * 8],)
    cache.put(b"later", ("still writable",))
    cache.flush()
    assert FactsCache(path).get(b"later") == ("still writable",)
