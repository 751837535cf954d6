"""docs/plugins.md: every hook documented with its exact signature, the generated reference up to
date, and the tutorial's code runs as written.
"""

from __future__ import annotations

import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from fourfold.plugins import hookspecs

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "plugins.md"
sys.path.insert(0, str(ROOT / "scripts"))
import gen_plugin_docs  # noqa: E402 - the script is not a package


@pytest.mark.parametrize("hook", sorted(n for n in vars(hookspecs) if n.startswith("fourfold_")))
def test_every_hook_is_documented_with_its_exact_signature(hook: str) -> None:
    page = DOC.read_text()
    func = getattr(hookspecs, hook)
    assert f"### `{hook}`" in page
    assert f"```python\n{gen_plugin_docs.hook_signature(func)}\n```" in page
    first_line = (func.__doc__ or "").strip().splitlines()[0]
    assert first_line and first_line in page


def test_hook_signature_is_the_source_text() -> None:
    assert gen_plugin_docs.hook_signature(hookspecs.fourfold_compute_centrality) == (
        "fourfold_compute_centrality(segments: Sequence[Segment], settings: Mapping[str, str])"
        " -> Mapping[str, float] | None"
    )


def test_generated_reference_is_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_plugin_docs.py"), "--check"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def _python_blocks(section: str) -> list[str]:
    page = DOC.read_text()
    body = page.split(f"## {section}", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", body, re.DOTALL)


def test_tutorial_modality_and_its_test_run_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    tutorial = _python_blocks("Tutorial")
    module = types.ModuleType("fourfold_todo")
    exec(compile("\n".join(tutorial), "docs/plugins.md (tutorial)", "exec"), module.__dict__)
    monkeypatch.setitem(sys.modules, "fourfold_todo", module)
    testing = _python_blocks("Testing a modality")[0]
    namespace: dict[str, object] = {}
    exec(compile(testing, "docs/plugins.md (testing)", "exec"), namespace)
    test = namespace["test_todo_ranks_notes_by_query_words"]
    assert callable(test)
    test()
    from fourfold.plugins.manager import build_registry

    registry = build_registry(extra_plugins=(module,))
    assert "todo" in registry.modalities and not registry.failures
    assert [r.intent for r in registry.intent_rules if r.plugin == "fourfold_todo"] == ["todo"]
