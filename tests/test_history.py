"""The example history plugin (examples/fourfold-history): git log parsing, carrying changed lines to
today's segments, the searches it answers, and its intent rules through the coordinator's classifier.

Needs the example package installed (``pip install -e examples/fourfold-history``, done by
``make install``); skipped with a clear reason otherwise.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from fourfold.coordinator import intent as intent_mod
from fourfold.plugins.manager import build_registry
from fourfold.plugins.testing import build_and_load, segments_from_files
from fourfold.plugins.types import ModalityQuery

history = pytest.importorskip("fourfold_history", reason="install examples/fourfold-history (make install does)")
from fourfold_history.gitlog import Hunk, parse_log, read_history  # noqa: E402 - after the importorskip
from fourfold_history.linemap import HistoryWalker, forward_line, forward_range  # noqa: E402
from fourfold_history.plugin import HISTORY_RULES, HistoryModality  # noqa: E402

CONFIG_V1 = """import os


def parse_config(path):
    with open(path) as f:
        return load_lines(f.read())


def load_lines(text):
    return text.splitlines()
"""

CONFIG_V2 = CONFIG_V1.replace(
    "    return text.splitlines()\n",
    "    # blank lines are not entries\n    return [line.strip() for line in text.splitlines() if line.strip()]\n",
)

AUTH_V1 = """def authenticate(user, password):
    return check(user, password)


def check(user, password):
    return password == "secret"
"""

AUTH_V2 = """import hmac

TOKEN_TTL = 3600


def authenticate(user, password):
    return check(user, password)


def check(user, password):
    return hmac.compare_digest(password, "secret")
"""


def _git(root: Path, *args: str, author: str = "Ada Lovelace", date: str = "2024-01-01T10:00:00Z") -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": author,
        "GIT_AUTHOR_EMAIL": f"{author.split()[0].lower()}@example.org",
        "GIT_COMMITTER_NAME": author,
        "GIT_COMMITTER_EMAIL": "ci@example.org",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_SYSTEM": os.devnull,
    }
    subprocess.run(["git", "-C", str(root), *args], check=True, env=env, capture_output=True)


def make_history_repo(root: Path) -> Path:
    """A repository with four commits by three authors: import, a fix, a move, a hardening."""
    root.mkdir(parents=True)
    _git(root, "init", "-q", "-b", "main")
    (root / "app").mkdir()
    (root / "app" / "config.py").write_text(CONFIG_V1)
    (root / "auth.py").write_text(AUTH_V1)
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "Initial import of the configuration loader")
    (root / "app" / "config.py").write_text(CONFIG_V2)
    _git(
        root,
        "commit",
        "-qam",
        "Skip blank lines in load_lines\n\nEmpty entries made the parser fail on trailing newlines.",
        author="Grace Hopper",
        date="2024-03-01T10:00:00Z",
    )
    (root / "app" / "auth").mkdir()
    _git(root, "mv", "auth.py", "app/auth/__init__.py", date="2024-04-01T10:00:00Z")
    _git(root, "commit", "-qm", "Move authentication into the app package", date="2024-04-01T10:00:00Z")
    (root / "app" / "auth" / "__init__.py").write_text(AUTH_V2)
    _git(
        root,
        "commit",
        "-qam",
        "Compare passwords in constant time to stop timing attacks",
        author="Linus Torvalds",
        date="2024-05-01T10:00:00Z",
    )
    return root


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_history_repo(tmp_path_factory.mktemp("history") / "repo")


@pytest.fixture(scope="module")
def shard(repo: Path):  # type: ignore[no-untyped-def]
    files = {p.relative_to(repo).as_posix(): p.read_text() for p in repo.rglob("*.py")}
    with build_and_load(HistoryModality(), segments_from_files("demo", files), repo_paths={"demo": repo}) as run:
        yield run


# -- git log parsing and line mapping ----------------------------------------------------------------


def test_read_history_parses_commits_renames_and_hunks(repo: Path) -> None:
    commits = list(read_history(repo))
    assert [c.subject for c in commits] == [
        "Compare passwords in constant time to stop timing attacks",
        "Move authentication into the app package",
        "Skip blank lines in load_lines",
        "Initial import of the configuration loader",
    ]
    assert commits[0].author == "Linus Torvalds" and commits[0].time == 1714557600
    assert "timing" in commits[0].message and "trailing newlines" in commits[2].message
    (move,) = commits[1].changes
    assert (move.old_path, move.new_path, move.hunks) == ("auth.py", "app/auth/__init__.py", ())
    (fix,) = commits[2].changes
    assert fix.hunks == (Hunk(10, 1, 10, 2),)
    added = {c.new_path for c in commits[3].changes if c.old_path is None}
    assert added == {"app/config.py", "auth.py"}


def test_hunk_body_lines_that_look_like_headers_are_not_headers() -> None:
    log = [
        "\x1eabc\x1fAda\x1fada@x\x1f1700000000\x1fRemove a rule\n",
        "\x1f\n",
        "\n",
        "diff --git a/notes.md b/notes.md\n",
        "--- a/notes.md\n",
        "+++ b/notes.md\n",
        "@@ -3,2 +3 @@\n",
        "--- a rule\n",
        "-+++ another\n",
        "+kept\n",
    ]
    (commit,) = parse_log(log)
    assert commit.message == "Remove a rule"
    assert commit.changes[0].hunks == (Hunk(3, 2, 3, 1),) and commit.changes[0].old_path == "notes.md"


@pytest.mark.parametrize(
    ("line", "hunks", "low", "expected"),
    [
        (4, [Hunk(5, 0, 6, 2)], True, 4),  # above an insertion: unmoved
        (6, [Hunk(5, 0, 6, 2)], True, 8),  # below it: shifted by the inserted lines
        (9, [Hunk(5, 2, 5, 3)], True, 10),  # below a rewrite that grew by one
        (6, [Hunk(5, 2, 5, 3)], False, 7),  # inside a rewrite: its replacement's last line
        (6, [Hunk(5, 2, 4, 0)], True, 4),  # deleted: the line before the deletion
    ],
)
def test_forward_line(line: int, hunks: list[Hunk], low: bool, expected: int) -> None:
    assert forward_line(line, hunks, low) == expected


def test_forward_range_composes_later_commits_oldest_first() -> None:
    later = [(Hunk(1, 0, 2, 3),), (Hunk(10, 1, 10, 1),)]  # three lines inserted at the top, then line 10 rewritten
    assert forward_range(7, 8, later) == (10, 11)


def test_walker_follows_a_rename_and_forgets_deleted_files(repo: Path) -> None:
    walker = HistoryWalker({"app/config.py", "app/auth/__init__.py"})
    touched = [list(walker.walk(c)) for c in read_history(repo)]
    hardening, move, fix, initial = touched
    assert ("app/auth/__init__.py", 11, 11) in hardening
    assert move == []
    assert fix == [("app/config.py", 10, 11)]
    # the import's check() body (line 6 of auth.py then) is line 11 of app/auth/__init__.py today
    assert ("app/auth/__init__.py", 1, 11) in initial or any(
        p == "app/auth/__init__.py" and s <= 11 <= e for p, s, e in initial
    )


# -- searches ----------------------------------------------------------------------------------------


def _top(shard, text: str, k: int = 5):  # type: ignore[no-untyped-def]
    return shard.search(ModalityQuery(text=text, k=k, intent="history")).hits


def test_who_changed_a_function_last(shard) -> None:  # type: ignore[no-untyped-def]
    top = _top(shard, "who changed load_lines last")[0]
    assert (top.path, top.symbol) == ("app/config.py", "load_lines")
    assert re.match(r"[0-9a-f]{10} 2024-03-01 Grace Hopper: Skip blank lines in load_lines", top.snippet)


def test_when_was_a_function_changed_lists_its_commits_newest_first(shard) -> None:  # type: ignore[no-untyped-def]
    top = _top(shard, "when was check changed")[0]
    assert (top.path, top.symbol) == ("app/auth/__init__.py", "check")
    dates = re.findall(r"\d{4}-\d\d-\d\d", top.snippet)
    assert dates == ["2024-05-01", "2024-01-01"]  # the hardening, then the import before the move


def test_why_question_is_answered_from_commit_messages(shard) -> None:  # type: ignore[no-untyped-def]
    hits = _top(shard, "why does password comparison use constant time")
    assert hits[0].symbol == "check" and "timing attacks" in hits[0].snippet


def test_recent_changes_to_a_module(shard) -> None:  # type: ignore[no-untyped-def]
    hits = _top(shard, "recent changes to the auth module")
    assert hits and all(h.path == "app/auth/__init__.py" for h in hits[:2])
    assert hits[0].snippet.startswith(tuple("0123456789abcdef")) and "2024-05-01" in hits[0].snippet.splitlines()[0]


def test_filters_and_an_honest_empty_answer(shard) -> None:  # type: ignore[no-untyped-def]
    hits = shard.search(ModalityQuery(text="who changed load_lines last", k=5, path_glob="app/auth/*")).hits
    assert hits and all(h.path.startswith("app/auth/") for h in hits)
    none = shard.search(ModalityQuery(text="zeppelin quaternion", k=5))
    assert none.hits == () and none.notes


def test_a_folder_without_git_builds_an_empty_shard_that_says_why(tmp_path: Path) -> None:
    segs = segments_from_files("plain", {"a.py": "def f():\n    return 1\n"})
    with build_and_load(HistoryModality(), segs, repo_paths={"plain": tmp_path}) as run:
        result = run.search("who changed f last")
    assert run.stats.segments == 0 and result.hits == ()
    assert "not the top of a git checkout" in result.notes[0]


# -- intent rules through the coordinator's classifier ----------------------------------------------


@pytest.mark.parametrize(
    ("query", "intent", "confidence"),
    [
        ("when was parse_config changed", "history", 0.90),
        ("who changed Session.send last", "history", 0.90),
        ("recent changes to the auth module", "history", 0.85),
        ("why was load_lines changed to strip blank lines", "history", 0.70),
        ("why does load_lines strip blank lines", None, None),  # not history: the core classifier decides this form
        ("def parse_config", "find_definition", 0.95),  # the original rules still come first
        ("who calls parse_config", "find_references", 0.90),
        ("how does authentication work", "understand_code", 0.75),
        ("parse_config", "find_definition", 0.80),
    ],
)
def test_history_rules_join_the_classifier(query: str, intent: str | None, confidence: float | None) -> None:
    rules = [
        intent_mod.IntentRule("plugin:history", "history", c, re.compile(p, re.IGNORECASE)) for p, c in HISTORY_RULES
    ]
    got = intent_mod.classify(query, rules)
    if intent is None:  # the form no history rule takes: answered as without the plugin
        assert got == intent_mod.classify(query) and got.intent != "history"
    else:
        assert (got.intent, got.confidence) == (intent, confidence)


def test_registry_carries_the_history_intent_and_profiles() -> None:
    reg = build_registry()
    assert "history" in reg.modalities
    rules = [r for r in reg.intent_rules if r.plugin == "history"]
    assert {r.intent for r in rules} == {"history"} and rules[0].weights["history"] == 0.6
    profiles = {"understand_code": {"semantic": 0.5}}
    reg.pm.hook.fourfold_adjust_profiles(profiles=profiles)
    assert profiles["understand_code"]["history"] == 0.1


def test_query_words_before_module_are_places_and_code_shaped_words_are_names() -> None:
    from fourfold_history.shard import parse_query

    q = parse_query("recent changes to the auth module")
    assert (q.names, q.paths, q.temporal) == ((), ("auth",), True)
    q = parse_query("why does Session.send retry on refused connections")
    assert {"session.send", "send"} <= q.identifiers and "retry" in q.names and "retry" not in q.identifiers
    assert not q.temporal and {"session", "send", "retry", "refused", "connections"} <= set(q.words)
