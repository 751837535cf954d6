"""A shard whose build failed: the rest of the generation is built and published without it.

A plugin's ``build`` that raises (or a build task that dies) must not cost the user every other
modality: the host records the shard as failed — with the error, in the index summary, the
generation's manifest, ``status`` and the Index stream — and goes on. Only user errors
(``InvalidInput``: a bad setting, a bad path) stop the whole build, since every shard would hit them.
"""

from __future__ import annotations

from dataclasses import dataclass

from fourfold.plugins.modality import BuildStats

__all__ = ["FailedBuild", "failed_build"]

#: An error message is cut to this many characters in summaries and manifests.
MAX_ERROR_CHARS = 500


@dataclass(frozen=True, slots=True)
class FailedBuild(BuildStats):
    """What the host reports for a shard whose build raised: ``error`` says what happened."""

    error: str = ""


def failed_build(exc: BaseException) -> FailedBuild:
    """The failure of a shard build that raised ``exc``: ``Type: message``, cut to a readable length."""
    text = f"{type(exc).__name__}: {exc}".strip()
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 1] + "…"
    return FailedBuild(segments=0, error=text)
