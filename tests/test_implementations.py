"""'who implements X': the types that satisfy an interface (Go, where no source says so) or extend a base
class, each its own answer, through the engine over a real index (text, structural and graph)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inprocess import search_once

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.engine import Engine
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

FILES = {
    "log/go.mod": "module example.com/log\n\ngo 1.22\n",
    "log/formatter.go": "package log\n\n// Formatter turns an entry into bytes.\ntype Formatter interface {\n"
    "\tFormat(e *Entry) ([]byte, error)\n}\n\ntype Entry struct {\n\tMessage string\n}\n",
    # two implementations in one file: two answers
    "log/formatters.go": "package log\n\ntype JSONFormatter struct{}\n\ntype TextFormatter struct{}\n\n"
    "func (f *JSONFormatter) Format(e *Entry) ([]byte, error) {\n\treturn nil, nil\n}\n\n"
    "func (f TextFormatter) Format(e *Entry) ([]byte, error) {\n\treturn nil, nil\n}\n",
    "log/use.go": "package log\n\nfunc Print(f Formatter, e *Entry) {\n\tf.Format(e)\n}\n",
    # a value named like the interface, in another case
    "log/default.go": "package log\n\nvar formatter Formatter = &JSONFormatter{}\n",
    # a test's stub and an interface embedding the target: answers too, after the types that ship (their
    # paths sort first, so only the ranking puts them after)
    "log/formatter_test.go": "package log\n\ntype stubFormatter struct{}\n\n"
    "func (stubFormatter) Format(e *Entry) ([]byte, error) {\n\treturn nil, nil\n}\n",
    "log/aliases.go": "package log\n\ntype LevelFormatter interface {\n\tFormatter\n\tLevel() int\n}\n",
    # a Format of another shape: as many parameters and results or no implementation (Go compares signatures)
    "log/printer.go": "package log\n\ntype Printer struct{}\n\n"
    'func (p Printer) Format(e *Entry, colour bool) string {\n\treturn ""\n}\n\n'
    "type Quiet struct{}\n\nfunc (Quiet) Format(e *Entry) error {\n\treturn nil\n}\n",
    # an unexported interface: a plain lower-case word, which the rules read as prose
    "log/source.go": "package log\n\ntype setter interface {\n\tTrySet(value string) (bool, error)\n}\n\n"
    "type formSource map[string][]string\n\n"
    "func (form formSource) TrySet(value string) (bool, error) {\n\treturn true, nil\n}\n\n"
    "type headerSource map[string][]string\n\n"
    "func (h headerSource) TrySet(value string) (bool, error) {\n\treturn true, nil\n}\n\n"
    "func trace(e *Entry) {}\n",
    "shop/shop/__init__.py": "",
    "shop/shop/base.py": "class Transport:\n    def send(self):\n        raise NotImplementedError\n",
    "shop/shop/http.py": "from shop.base import Transport\n\n\nclass HTTPTransport(Transport):\n    pass\n\n\n"
    "class MockTransport(Transport):\n    pass\n\n\ndef make() -> Transport:\n    return HTTPTransport()\n",
    # typing.Protocol: implemented by having its methods, as Go's interfaces are; a generic one too
    "shop/shop/ports.py": 'from typing import Protocol, TypeVar\n\nT = TypeVar("T")\n\n\n'
    "class Sender(Protocol):\n    def send(self, message: str) -> None: ...\n\n    def close(self) -> None: ...\n\n\n"
    "class Store(Protocol[T]):\n    def put(self, item: T) -> None: ...\n",
    "shop/shop/adapters.py": "class SMTPSender:\n    def send(self, message, retries=3):\n        pass\n\n"
    "    def close(self):\n        pass\n\n\n"
    "class LoggingSender(SMTPSender):  # through its base\n    pass\n\n\n"
    "class HalfSender:  # no close\n    def send(self, message):\n        pass\n\n\n"
    "class Batcher:  # another send: three arguments\n    def send(self, messages, size, retries):\n        pass\n\n"
    "    def close(self):\n        pass\n\n\n"
    "class MemoryStore:\n    def put(self, item):\n        pass\n",
    # two methods named close, each called by one function: each caller's answer says which it calls
    "shop/shop/finish.py": "from shop.adapters import SMTPSender\n\n\n"
    "def finish(sender: SMTPSender) -> None:\n    sender.close()\n",
    "shop/shop/stop.py": "from shop.adapters import Batcher\n\n\n"
    "def stop(batcher: Batcher) -> None:\n    batcher.close()\n",
    # bases defined outside the index: the classes naming them, then their subclasses, a test's after
    "shop/shop/errors.py": "class ShopError(Exception):\n    pass\n\n\nclass OutOfStock(ShopError):\n    pass\n\n\n"
    "class PaymentFailed(RuntimeError):\n    pass\n",
    "shop/tests/test_errors.py": "class FakeError(Exception):\n    pass\n",
    # another repository's subclass of one: reached through the stub its partition keeps
    "log/tools/errors.py": "from shop.errors import ShopError\n\n\nclass LogError(ShopError):\n    pass\n",
    # two libraries' bases of one last name, each known by its import: "models.Model" is django's
    "shop/shop/models.py": "from django.db import models\n\n\nclass Order(models.Model):\n    pass\n",
    "shop/shop/nets.py": "import keras\n\n\nclass Net(keras.Model):\n    pass\n\n\nclass Deep(Net):\n    pass\n",
    # asyncio's Protocol is a base class to extend, not typing's: a class with its methods does not implement it
    "shop/shop/server.py": "import asyncio\n\n\nclass Echo(asyncio.Protocol):\n    def data_received(self, data):\n"
    "        pass\n\n\nclass Relay:\n    def data_received(self, data):\n        pass\n",
}


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("implementations")
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    home = root / "home"
    build_generation(
        IndexStore(home), [(root / "log", "log"), (root / "shop", "shop")], modalities=["text", "structural", "graph"]
    )
    return home


def search(home: Path, query: str) -> Answer:
    return search_once(Engine(IndexStore(home)), SearchParams(query, k=10))


@pytest.mark.parametrize("query", ["who implements Formatter", "which structs satisfy the Formatter interface"])
def test_the_go_types_that_satisfy_an_interface_each_an_answer(home: Path, query: str) -> None:
    a = search(home, query)
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    # not Print: it uses Formatter; not Printer nor Quiet: their Format takes two parameters, returns one result;
    # the shipped types first, then the embedding interface, then the test's stub
    assert [h.hit.symbol for h in a.hits] == ["JSONFormatter", "TextFormatter", "LevelFormatter", "stubFormatter"]
    assert all(h.hit.snippet.startswith("implements or extends log.Formatter") for h in a.hits)


def test_which_types_implement_a_pasted_interface(home: Path) -> None:
    """The interface pasted, "which types implement this interface?" under it: its implementations, each an
    answer, as if it were named."""
    pasted = "type Formatter interface {\n\tFormat(e *Entry) ([]byte, error)\n}\nwhich types implement this interface?"
    a = search(home, pasted)
    assert (a.intent, a.confidence, a.fusion_strategy) == ("find_references", 0.85, "direct"), a.notes
    assert [h.hit.symbol for h in a.hits][:2] == ["JSONFormatter", "TextFormatter"], a.notes


def test_the_classes_extending_a_python_base(home: Path) -> None:
    a = search(home, "which classes extend Transport")
    assert a.intent == "find_references"
    assert sorted(h.hit.symbol or "" for h in a.hits) == ["HTTPTransport", "MockTransport"]


def test_the_python_classes_that_implement_a_protocol(home: Path) -> None:
    """A class implements a ``typing.Protocol`` by having its methods, taking the arguments they may be called
    with: nothing in the source says so. A subclass of one implements it through that one (further down)."""
    a = search(home, "who implements Sender")
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    assert [h.hit.symbol for h in a.hits] == ["SMTPSender", "LoggingSender"], a.notes  # not HalfSender, Batcher
    # each says what it implements: LoggingSender the protocol, through SMTPSender
    assert [h.hit.snippet for h in a.hits] == ["implements or extends Sender"] * 2, a.notes
    generic = search(home, "who implements Store")  # ``class Store(Protocol[T])``
    assert [h.hit.symbol for h in generic.hits] == ["MemoryStore"], generic.notes
    extended = search(home, "which classes extend Echo")
    assert "Relay" not in [h.hit.symbol for h in extended.hits if h.hit.snippet.startswith("implements")]
    assert not any(h.hit.snippet.startswith("implements") for h in extended.hits), extended.notes


@pytest.mark.parametrize(
    "query",
    [
        "who implements setter",
        "which types implement the setter interface?",
        "what types satisfy the setter interface",
        "list the structs that implement setter",
    ],
)
def test_an_interface_named_by_a_plain_word_the_index_defines(home: Path, query: str) -> None:
    """Only a guess reads "setter" as a name; the index's definition of an interface so named decides it."""
    a = search(home, query)
    assert (a.intent, a.confidence, a.fusion_strategy) == ("find_references", 0.85, "direct"), a.notes
    assert [h.hit.symbol for h in a.hits] == ["formSource", "headerSource"], a.notes  # one file, two answers


def test_a_plain_word_is_read_as_the_type_the_index_spells_in_another_case(home: Path) -> None:
    """The graph reads names as written: "formatter" is asked as the interface the index defines, and says so."""
    a = search(home, "who implements formatter")
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    assert a.notes[0] == "read 'formatter' as interface Formatter (log:formatter.go), the index's definition"
    assert [h.hit.symbol for h in a.hits][:2] == ["JSONFormatter", "TextFormatter"], a.notes
    sender = search(home, "which classes implement the sender protocol")  # a test's stub would come after
    assert [h.hit.symbol for h in sender.hits] == ["SMTPSender", "LoggingSender"], sender.notes


def test_an_implementations_request_reads_the_type_named_in_another_case(home: Path) -> None:
    """As an agent's tool asks (the relation named): "formatter" names a value and, in another case, the interface;
    a type is what is implemented."""
    p = SearchParams("formatter", k=10, intent="find_references", options={"relation": "implementations"})
    a = search_once(Engine(IndexStore(home)), p)
    # two types of one file, two answers, as "who implements Formatter" gives them
    assert [h.hit.symbol for h in a.hits] == ["JSONFormatter", "TextFormatter", "LevelFormatter", "stubFormatter"]
    assert "graph: read 'formatter' as log.Formatter" in a.notes, a.notes


@pytest.mark.parametrize(
    "query",
    [
        "who implements trace",
        "who implements entry",
        "who implements logging",
        # the noun: code that does what it does, as guessed; the singular asks for the definition
        "implementations of trace",
        "implementations of Entry",
        "implementations of sorting",
        "implementation of Formatter",
    ],
)
def test_a_plain_word_the_index_defines_as_no_type_stays_a_guess(home: Path, query: str) -> None:
    """A function (``trace``), a struct nothing implements (``Entry``), a word nothing defines: the rules'
    reading."""
    a = search(home, query)
    assert a.confidence < 0.85, (a.intent, a.confidence, a.notes)
    assert not any(n.startswith("read as the types") for n in a.notes), a.notes


def test_a_type_nothing_implements_says_so(home: Path) -> None:
    a = search(home, "who implements Entry")  # fused, as any direct path that found nothing, and said
    assert a.fusion_strategy == "fused" and a.notes[0] == "direct path (graph) found nothing: answered by fusion"


@pytest.mark.parametrize(
    ("query", "implementing"),
    [
        ("implementations of Formatter", ["JSONFormatter", "TextFormatter", "LevelFormatter", "stubFormatter"]),
        ("show all impls of the `Sender` protocol", ["SMTPSender", "LoggingSender"]),
        ("Transport implementations", ["HTTPTransport", "MockTransport"]),
        ("implementations of setter", ["formSource", "headerSource"]),
        ("implementations of the sender protocol", ["SMTPSender", "LoggingSender"]),  # spelt in another case
        ("models.Model subclasses", ["Order"]),  # a base defined outside the index
    ],
)
def test_implementations_of_a_type_the_index_defines(home: Path, query: str, implementing: list[str]) -> None:
    """The noun without a wh-word: the types implementing the name where the index defines it as a type and the
    graph finds some, each its own answer, and a note that says how the question was read."""
    a = search(home, query)
    assert (a.intent, a.confidence, a.fusion_strategy) == ("find_references", 0.85, "direct"), a.notes
    assert [h.hit.symbol for h in a.hits] == implementing, a.notes
    assert a.notes[0].startswith("read as the types implementing or extending "), a.notes


@pytest.mark.parametrize(
    ("signature", "arguments"),
    [
        ("def send(self, message: str) -> None", (1, 1)),
        (
            "async def send( self, generation: str, shards: Sequence[str], query: Query, deadline: float ) -> None",
            (4, 4),
        ),
        ("def send(self, message, retries=3, *, timeout: float = 1.0, **options)", (1, 2)),
        ("def send(cls, message, /, headers: dict[str, str] = {'a': 'b'})", (1, 2)),
        ("def send(self, *messages)", (0, 1 << 16)),
        ("def send(self)", (0, 0)),
    ],
)
def test_the_positional_arguments_a_python_method_takes(signature: str, arguments: tuple[int, int]) -> None:
    from fourfold.plugins.graph.resolve import _python_parameters

    assert _python_parameters("send", signature) == arguments
    assert _python_parameters("send", "send = staticmethod(other)") is None


@pytest.mark.parametrize(
    ("signature", "shape"),
    [
        ("Format(e *Entry) ([]byte, error)", (1, 2)),
        ("func (f *JSONFormatter) Format(e *Entry) ([]byte, error) {", (1, 2)),
        ("func (p Printer) Format(e *Entry, colour bool) string", (2, 1)),
        ("func (Quiet) Format()", (0, 0)),
        ("func (s *Set[T]) Format(a, b int, rest ...map[string]int) (n int, err error)", (3, 2)),
        ("func (c Codec) Format(f func(a, b int) error) (func(int) (int, error))", (1, 1)),
    ],
)
def test_the_parameters_and_results_a_go_method_has(signature: str, shape: tuple[int, int]) -> None:
    from fourfold.plugins.graph.resolve import _go_shape

    assert _go_shape("Format", signature) == shape
    assert _go_shape("Format", "func (c *Codec) Format(") is None  # its parameters on the lines after


def test_each_caller_says_which_of_two_definitions_it_calls(home: Path) -> None:
    a = search(home, "who calls close")
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    said = {h.hit.symbol: h.hit.snippet for h in a.hits}
    assert said["finish"] == "uses SMTPSender.close" and said["stop"] == "uses Batcher.close", said


def test_the_classes_extending_a_base_defined_outside_the_index(home: Path) -> None:
    """ "which classes extend Exception": no definition to walk from; the classes that name it, then theirs."""
    a = search(home, "which classes extend Exception")
    assert (a.intent, a.confidence, a.fusion_strategy) == ("find_references", 0.90, "direct"), a.notes
    through = "extends Exception (defined outside this index) through ShopError"
    said = [(h.hit.symbol, h.hit.snippet) for h in a.hits]
    assert said[0] == ("ShopError", "extends Exception (defined outside this index)"), a.notes
    assert sorted(said[1:3]) == [("LogError", through), ("OutOfStock", through)], a.notes  # one layer down
    assert said[3:] == [("FakeError", "extends Exception (defined outside this index)")], a.notes  # a test's
    assert any(n.startswith("graph: Exception is defined outside this index") for n in a.notes), a.notes
    runtime = search(home, "subclasses of RuntimeError")
    assert [h.hit.symbol for h in runtime.hits] == ["PaymentFailed"], runtime.notes


def test_a_base_defined_outside_the_index_is_known_by_its_import() -> None:
    from fourfold.plugins.graph.parse import Import
    from fourfold.plugins.graph.resolve import external_name

    django = {"models": [Import(1, "django.db", "models", "models")]}
    assert external_name(("models", "Model"), django) == "django.db.models.Model"
    assert external_name(("React", "Component"), {"React": [Import(1, "react", "default", "React")]}) == (
        "react.Component"
    )
    assert external_name(("unittest", "TestCase"), {"unittest": [Import(1, "unittest", None, "unittest")]}) == (
        "unittest.TestCase"
    )
    assert external_name(("Exception",), {}) == "Exception"


def test_a_dotted_base_defined_outside_the_index_is_told_from_another_of_its_name(home: Path) -> None:
    """ "models.Model" is django's (``from django.db import models``), not keras' ``Model``; "Model" is both, and each
    answer says which it extends."""
    a = search(home, "which classes extend models.Model")
    assert (a.intent, a.fusion_strategy) == ("find_references", "direct"), a.notes
    assert [(h.hit.symbol, h.hit.snippet) for h in a.hits] == [
        ("Order", "extends django.db.models.Model (defined outside this index)")
    ], a.notes
    both = search(home, "which classes extend Model")
    said = {h.hit.symbol: h.hit.snippet for h in both.hits}
    assert said == {
        "Order": "extends django.db.models.Model (defined outside this index)",
        "Net": "extends keras.Model (defined outside this index)",
        "Deep": "extends keras.Model (defined outside this index) through Net",
    }, both.notes
    assert any("Model (django.db.models.Model, keras.Model)" in n for n in both.notes), both.notes
