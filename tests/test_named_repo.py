"""A prose question that names one of the searched repositories is answered from that repository's code
first (``coordinator/named_repo.py``): a real index (text, structural) of two repositories, asked through
the engine, the CLI, the gRPC client and MCP."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, search_once

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.coordinator.named_repo import named
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

#: The repository asked about: its loader says what it does in other words than the question's.
ALPHA = '''def load_settings(path):
    """Read the settings file at path and give back its values."""
    with open(path) as fh:
        return dict(line.split("=", 1) for line in fh)
'''

#: Another repository, whose function holds every word of the question.
BETA = '''def parse_config_file(path):
    """Parse the config file and give back its sections."""
    return {"config": path}
'''


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("named")
    for name, source in (("alpha", ALPHA), ("beta-2.1.0", BETA)):
        (root / name).mkdir()
        (root / name / "settings.py").write_text(source)
    home = root / "home"
    build_generation(
        IndexStore(home),
        [(root / "alpha", "alpha"), (root / "beta-2.1.0", "beta-2.1.0")],
        modalities=["text", "structural"],
    )
    return home


def search(home: Path, query: str, **kwargs: object) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=5, **kwargs))  # type: ignore[arg-type]


QUESTION = "how does alpha parse the config file"


def test_the_named_repositorys_code_comes_first_and_the_notes_say_why(home: Path) -> None:
    a = search(home, QUESTION)
    assert a.intent == "understand_code"
    assert [f.hit.repo for f in a.hits][:2] == ["alpha", "beta-2.1.0"]
    assert any(n.startswith("the question names repository alpha: its code first") for n in a.notes)
    off = search(home, QUESTION, options={"named_repo": "off"})  # the words alone: beta's function holds them all
    assert off.hits[0].hit.repo == "beta-2.1.0"
    assert not any("names repository" in n for n in off.notes)


def test_only_an_unscoped_prose_question_naming_some_repositories_is_preferred(home: Path) -> None:
    scoped = search(home, QUESTION, repos=("alpha", "beta-2.1.0"))  # the caller chose: every one alike
    assert scoped.hits[0].hit.repo == "beta-2.1.0" and not any("names repository" in n for n in scoped.notes)
    both = search(home, "how do alpha and beta parse the config file")  # every repository named: no preference
    assert not any("names repository" in n for n in both.notes)
    release = search(home, "how does beta read a settings file")  # a release's project name names it
    assert release.hits[0].hit.repo == "beta-2.1.0"
    assert any("names repository beta-2.1.0" in n for n in release.notes)


def test_a_repository_the_caller_may_not_read_is_never_named(home: Path) -> None:
    """The note names only what the caller may search: beta is not said to exist to one who reads alpha."""
    engine = Engine(IndexStore(home))
    a = search_once(engine, SearchParams("how does beta read a settings file", k=5), visible=frozenset({"alpha"}))
    assert {f.hit.repo for f in a.hits} == {"alpha"}
    assert not any("names repository" in n for n in a.notes)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("how does jinja2 compile a template", {"jinja2"}),
        ("how does Jinja2 compile a template", {"jinja2"}),
        ("what does Jinja2Templates do", set()),  # a longer name, not the repository's
        ("how is lib/axios.js laid out", set()),  # a path names a file
        ("how does click.echo pick a stream", {"click"}),
        ("which part of sympy gives back a matrix", {"sympy-1.1.1"}),
        ("how does the api gateway route calls", {"org/api"}),
        ("how does it work", set()),
    ],
)
def test_names_of_repositories(query: str, expected: set[str]) -> None:
    assert named(query, frozenset({"jinja2", "axios", "click", "sympy-1.1.1", "org/api"})) == expected


def test_a_project_of_several_releases_names_each_and_the_longest_name_wins() -> None:
    repos = frozenset({"sympy-1.1.1", "sympy-1.2", "sym"})
    assert named("how does sympy simplify", repos) == {"sympy-1.1.1", "sympy-1.2"}
    assert named("how does sympy-1.2 simplify", repos) == {"sympy-1.2"}
    assert named("how does sym simplify", repos) == {"sym"}
    assert named("anything", frozenset()) == frozenset()


def test_every_surface_says_it(home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import fourfold

    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", QUESTION]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hits"][0]["repo"] == "alpha" and any("names repository alpha" in n for n in out["notes"])
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        answer = client.search(QUESTION, k=3)
        assert answer.hits[0].hit.repo == "alpha" and any("names repository alpha" in n for n in answer.notes)
    text = format_answer(search(home, QUESTION))
    assert "alpha:settings.py" in text and "names repository alpha" in text
