"""The graph reads the type of a Python value where the code writes it: a local made by calling a class
(``jar = Jar()``), annotated (``stream: t.IO``) or assigned what an annotated function returns, and an attribute
``self.x`` every assignment of which says the same. Through the CLI, the gRPC
client and MCP, over a real build of text, structural and graph."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, search_once

from fourfold.api import SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.index.store import IndexStore

FILES = {
    "shop/jar.py": """class Jar:
    def clear(self):
        return None


class Basket:
    def clear(self):
        return None
""",
    "shop/cookies.py": """from shop.jar import Jar


class Cookies:
    def __init__(self, jar: Jar):
        self.jar = jar

    def reset(self):
        self.jar.clear()
""",
    "shop/basket.py": """def empty_basket(basket):
    basket.clear()
""",
}


def test_every_surface_names_the_callers_of_one_class_s_method_and_not_another_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``self.jar.clear()`` is ``Jar.clear``'s caller, resolved, and never ``Basket.clear``'s; ``basket.clear()`` (a
    parameter of unwritten type) may be either's, after it. Before, both were each ``clear``'s at half weight, in no
    order but centrality's."""
    import fourfold

    home = index_files(tmp_path, "shop", FILES)
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "who calls Jar.clear"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["fusion_strategy"] == "direct" and [h["symbol"] for h in out["hits"]] == ["reset", "empty_basket"]
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search("who calls Jar.clear", k=3)
        assert [(f.hit.symbol, f.hit.match_lines) for f in answer.hits] == [("reset", (9,)), ("empty_basket", (2,))]
        assert "reset" not in {f.hit.symbol for f in client.search("who calls Basket.clear", k=3).hits}
    text = format_answer(search_once(Engine(IndexStore(home)), SearchParams("who calls Jar.clear", k=3)))
    assert text.index("method reset") < text.index("function empty_basket")
