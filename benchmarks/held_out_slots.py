"""The slot filling shared by the held-out routing sets written after the shipped model
(``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py``, ``routing_tenth.py``, ``routing_eleventh.py``,
``routing_twelfth.py``, ``routing_thirteenth.py``): each set keeps its own templates and slot values;
this fills them, deterministically, in one order of random draws, so a set's phrasings stay the same
from run to run and release to release.
(``routing_heldout.py`` and ``routing_blind.py`` keep their own, older generators: their phrasings
must not change either.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import astuple, dataclass

from routing_phrasings import Phrasing

__all__ = ["Slots", "generate", "held_out_set"]


@dataclass(frozen=True)
class Slots:
    """The values each slot of a set's templates can take."""

    names: Sequence[str]
    types: Sequence[str]
    errors: Sequence[str]
    messages: Sequence[str]
    error_codes: Sequence[str]
    paths: Sequence[str]
    topics: Sequence[str]
    tasks: Sequence[str]
    events: Sequence[str]
    snippets: Sequence[str]
    bodies: Sequence[str]
    code_lines: Sequence[str]

    @classmethod
    def of(cls, namespace: Mapping[str, object]) -> Slots:
        """A set module's own lists, by their names: ``_NAMES``, ``_TYPES``, ... ``_CODE_LINES``."""
        lists = {name: namespace[f"_{name.upper()}"] for name in cls.__dataclass_fields__}
        return cls(**lists)  # type: ignore[arg-type]

    def values(self) -> frozenset[str]:
        """Every value a slot can take: none may be a training filler (``test_intent_model``)."""
        return frozenset(value for values in astuple(self) for value in values)

    def fill(self, rng: random.Random, template: str) -> str:
        fn = rng.choice(self.names)
        t = rng.choice(self.types)
        msg = rng.choice(self.messages)
        values = {
            "fn": fn,
            "Fn": fn[:1].upper() + fn[1:],
            "T": t,
            "qual": f"{t}.{fn}",
            "path": rng.choice(self.paths),
            "err": rng.choice(self.errors),
            "msg": msg,
            "Msg": msg[:1].upper() + msg[1:],
            "ecode": rng.choice(self.error_codes),
            "code": rng.choice(self.code_lines),
            "snippet": rng.choice(self.snippets),
            "body": rng.choice(self.bodies),
            "topic": rng.choice(self.topics),
            "task": rng.choice(self.tasks),
            "event": rng.choice(self.events),
            "n": f"{rng.randrange(0, 60):02d}",
        }
        return template.format(**values)


def generate(
    templates: Mapping[str, Sequence[str]], slots: Slots, name: str, per_template: int, seed: int
) -> Iterator[Phrasing]:
    """``per_template`` filled phrasings of every template (distinct, deterministic), as typed; a
    phrasing's template is ``{name}-{intent}/{number}``."""
    rng = random.Random(seed)
    for intent, intent_templates in templates.items():
        for number, template in enumerate(intent_templates):
            seen: set[str] = set()
            for _ in range(per_template * 3):
                text = slots.fill(rng, template)
                if text not in seen and len(seen) < per_template:
                    seen.add(text)
                    yield Phrasing(text, intent, f"{name}-{intent}/{number}")


def held_out_set(
    templates: Mapping[str, Sequence[str]], slots: Slots, name: str, seed: int
) -> tuple[Callable[[], frozenset[str]], Callable[..., Iterator[Phrasing]]]:
    """A set's ``fillers()`` (every value a slot can take) and ``generate_heldout(per_template=20)``."""

    def fillers() -> frozenset[str]:
        return slots.values()

    def generate_heldout(per_template: int = 20, seed: int = seed) -> Iterator[Phrasing]:
        return generate(templates, slots, name, per_template, seed)

    return fillers, generate_heldout
