"""Where the index store lives and the defaults every process agrees on."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["DEFAULT_ADDRESS", "build_settings_from_env", "fourfold_home"]

#: The coordinator's default public address (the CLI talks to it when no --address is given).
DEFAULT_ADDRESS = "127.0.0.1:50551"


def fourfold_home() -> Path:
    """``$FOURFOLD_HOME``, else ``$XDG_DATA_HOME/fourfold``, else ``~/.local/share/fourfold``."""
    explicit = os.environ.get("FOURFOLD_HOME")
    if explicit:
        return Path(explicit).expanduser().resolve()
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return (Path(data) / "fourfold").resolve()


def build_settings_from_env() -> dict[str, str]:
    """Index build settings given by the environment: ``FOURFOLD_EMBEDDER`` picks the embedder."""
    settings: dict[str, str] = {}
    if os.environ.get("FOURFOLD_EMBEDDER"):
        settings["embedder"] = os.environ["FOURFOLD_EMBEDDER"]
    return settings
