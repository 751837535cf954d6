"""The semantic build's embedding as Ray tasks: same shards as in-process, no deadlock on 2 CPUs.

Runs in a subprocess: the test session may already hold a Ray cluster (the ``cluster`` fixture),
and this test needs its own with exactly 2 CPUs, where every CPU is taken by a shard build that
waits for its embedding tasks.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

SCRIPT = r"""
import json, operator, sys
from pathlib import Path

import ray

from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore
from fourfold.workers.build import RayMap, RayShardExecutor

base = Path(sys.argv[1])
repos = []
for r in range(3):  # three shards for two CPUs
    root = base / "repos" / f"repo{r}"
    (root / "pkg").mkdir(parents=True)
    for i in range(5):
        (root / "pkg" / f"m{i}.py").write_text(
            f"def scale_{r}_{i}(x):\n    \"\"\"Return x times {i}.\"\"\"\n    return x * {i}\n\n\n"
            f"class Shape{r}{i}:\n    def area(self):\n        return {r} * {i}\n"
        )
    repos.append((root, f"repo{r}"))
settings = {"embedder": "hash", "semantic.embed_batch": "2"}  # many small batches: many nested tasks

ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)


@ray.remote(num_cpus=1)
def nested(n):
    return list(RayMap()(operator.neg, list(range(n))))


# two parents holding both CPUs, each waiting for its own tasks
assert ray.get([nested.remote(40), nested.remote(40)], timeout=120) == [[-i for i in range(40)]] * 2
reports = []
ray_gen = build_generation(IndexStore(base / "ray"), repos, executor=RayShardExecutor(), settings=settings,
                           modalities=["semantic"], centrality=False, progress=reports.append).generation
ray.shutdown()
local_gen = build_generation(IndexStore(base / "local"), repos, settings=settings, modalities=["semantic"],
                             centrality=False).generation
inside = [(u.stage, u.done, u.total, u.message) for u in reports if u.unit == "windows"]
print(json.dumps({"ray": str(base / "ray" / "generations" / ray_gen),
                  "local": str(base / "local" / "generations" / local_gen), "inside": inside}))
"""


@pytest.mark.slow
@pytest.mark.cluster
def test_ray_embedding_tasks_build_the_in_process_shards(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-4000:]
    folders = json.loads(done.stdout.strip().splitlines()[-1])
    ray_dir, local_dir = Path(folders["ray"]), Path(folders["local"])
    # the progress inside each shard's build task reached the driver's report
    finished = {msg.split(":")[0] for _, done, total, msg in folders["inside"] if done == total > 0}
    assert finished == {f"shard {i}/3 semantic/repo{r}" for i, r in zip((1, 2, 3), range(3), strict=True)}
    shards = sorted(p.name for p in (local_dir / "semantic").iterdir())
    assert shards == ["repo0", "repo1", "repo2"]
    assert sorted(p.name for p in (ray_dir / "semantic").iterdir()) == shards
    for shard in shards:
        for name in ("codes.npy", "vectors.npy", "windows.npy"):
            expected = np.load(local_dir / "semantic" / shard / name)
            assert len(expected) > 0
            np.testing.assert_array_equal(
                np.load(ray_dir / "semantic" / shard / name), expected, err_msg=f"{shard}/{name}"
            )
