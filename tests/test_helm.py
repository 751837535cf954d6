"""The Helm chart (helm/fourfold): lint, render, schema validation, values that matter, commands that parse.

Everything here is offline. helm-python-sdk bundles Helm's Go SDK (lint and render, no cluster);
kubernetes-validate ships the Kubernetes API schemas; the RayCluster is checked against KubeRay's CRD,
kept in the shared folder beside the repository (``<repo>/../shared/k8s-schemas``).
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

# helm_python, jsonschema and kubernetes_validate are in the test extra: a missing one is a broken
# install and fails here rather than skipping.
import helm_python as helm
import jsonschema
import kubernetes_validate
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
CHART = REPO / "helm" / "fourfold"
RAYCLUSTER_CRD = REPO.parent / "shared" / "k8s-schemas" / "ray.io_rayclusters.yaml"

RELEASE = "search"
NAMESPACE = "code"

#: The oldest Kubernetes the chart claims (Chart.yaml kubeVersion) and the newest kubernetes-validate knows.
KUBERNETES_VERSIONS = ("1.25.0", kubernetes_validate.utils.latest_version())

#: Custom resources: not in Kubernetes' own schemas, checked separately.
CUSTOM_KINDS = {"RayCluster", "ServiceMonitor"}

Manifest = dict[str, Any]

#: Values that switch every optional part of the chart on, so that each value has something to act on.
EVERYTHING_ON: dict[str, Any] = {
    "index": {
        "repositories": [
            {"name": "fourfold", "url": "https://git.example.com/team/fourfold.git", "ref": "main"},
            {"name": "tools", "url": "https://git.example.com/team/tools.git"},
        ],
        "cronJob": {"schedule": "0 3 * * *"},
    },
    "embedder": {"name": "voyage", "voyage": {"existingSecret": "voyage"}},
    "coordinator": {
        "auth": {"existingSecret": "fourfold-tokens"},
        "tls": {"existingSecret": "fourfold-tls"},
        "web": {"existingSecret": "fourfold-web"},
    },
    "workerPlane": {"existingSecret": "fourfold-workers"},
    "metrics": {"serviceMonitor": {"enabled": True, "labels": {"release": "prometheus"}}},
    "ray": {
        "autoscaling": {"enabled": True},
        "authOptions": {"secretName": "ray-token"},
        "workerGroups": [
            {
                "name": "cpu",
                "replicas": 1,
                "minReplicas": 0,
                "maxReplicas": 8,
                "rayStartParams": {"num-cpus": 4},
                "resources": {"requests": {"cpu": "4", "memory": "16Gi"}},
                "nodeSelector": {"pool": "search"},
                "tolerations": [{"key": "search", "operator": "Exists", "effect": "NoSchedule"}],
                "affinity": {
                    "podAntiAffinity": {
                        "preferredDuringSchedulingIgnoredDuringExecution": [
                            {
                                "weight": 1,
                                "podAffinityTerm": {
                                    "topologyKey": "kubernetes.io/hostname",
                                    "labelSelector": {"matchLabels": {"app.kubernetes.io/component": "ray-worker"}},
                                },
                            }
                        ]
                    }
                },
            },
            {
                "name": "small",
                "replicas": 2,
                "minReplicas": 2,
                "maxReplicas": 2,
                "rayStartParams": {},
                "resources": {},
                "nodeSelector": {},
                "tolerations": [],
                "affinity": {},
            },
        ],
    },
    "modalities": {"workersPerModality": 4},
    "fleet": {
        "enabled": True,
        "syncInterval": "15m",
        "config": {
            "version": 1,
            "repositories": [
                {"name": "payments", "url": "https://git.example.com/org/payments.git", "labels": ["payments"]},
                {"name": "web", "url": "ssh://git@git.example.com/org/web.git", "revisions": ["main", "release/*"]},
            ],
        },
    },
}


def render(values: dict[str, Any] | None = None) -> list[Manifest]:
    """Render the chart as `helm template` would and parse every Kubernetes object it produces."""
    with helm.Chart.load(CHART) as chart:
        rendered = chart.render(values or {}, name=RELEASE, namespace=NAMESPACE)
    objects: list[Manifest] = []
    for path, text in sorted(rendered.items()):
        if path.endswith("NOTES.txt"):
            continue
        objects.extend(doc for doc in yaml.safe_load_all(text) if doc)
    return objects


def notes(values: dict[str, Any] | None = None) -> str:
    """The rendered NOTES.txt."""
    with helm.Chart.load(CHART) as chart:
        rendered = chart.render(values or {}, name=RELEASE, namespace=NAMESPACE)
    return next(text for path, text in rendered.items() if path.endswith("NOTES.txt"))


def by_kind(objects: list[Manifest], kind: str) -> list[Manifest]:
    return [o for o in objects if o["kind"] == kind]


def one(objects: list[Manifest], kind: str) -> Manifest:
    found = by_kind(objects, kind)
    assert len(found) == 1, f"expected one {kind}, rendered {len(found)}"
    return found[0]


def container(pod_spec: Manifest, name: str) -> Manifest:
    return next(c for c in pod_spec["containers"] + pod_spec.get("initContainers", []) if c["name"] == name)


def env_of(c: Manifest) -> dict[str, Any]:
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in c.get("env", [])}


def merged(*layers: dict[str, Any]) -> dict[str, Any]:
    """Deep-merge value layers, later ones winning (Helm's own coalescing rule for maps)."""
    out: dict[str, Any] = {}
    for layer in layers:
        for key, value in layer.items():
            if isinstance(value, dict) and isinstance(out.get(key), dict):
                out[key] = merged(out[key], value)
            else:
                out[key] = copy.deepcopy(value)
    return out


VALUE_SETS = {"defaults": {}, "everything-on": EVERYTHING_ON}


# --- lint -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("values", VALUE_SETS.values(), ids=VALUE_SETS.keys())
def test_helm_lint_strict_passes(values: dict[str, Any]) -> None:
    report = helm.lint(CHART, values, strict=True, namespace=NAMESPACE)
    problems = [m for m in report["messages"] if m["severity"] >= 2]
    assert report["errors"] == [] and problems == [], report


# --- schemas ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("values", VALUE_SETS.values(), ids=VALUE_SETS.keys())
def test_every_builtin_object_is_valid_kubernetes(values: dict[str, Any], version: str) -> None:
    objects = [o for o in render(values) if o["kind"] not in CUSTOM_KINDS]
    assert {o["kind"] for o in objects} >= {"Deployment", "Service", "PersistentVolumeClaim"}
    for obj in objects:
        try:
            kubernetes_validate.validate(obj, version, strict=True)
        except kubernetes_validate.ValidationError as exc:
            pytest.fail(f"{obj['kind']}/{obj['metadata']['name']} is invalid on Kubernetes {version}: {exc.message}")


def _closed(schema: Any) -> Any:
    """The CRD schema with unknown fields rejected.

    The API server silently prunes fields a structural schema does not list, so a misspelt field would
    vanish without an error; closing every object that lists its properties turns that into a failure.
    """
    if isinstance(schema, list):
        return [_closed(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: _closed(value) for key, value in schema.items()}
    if (
        "properties" in out
        and "additionalProperties" not in out
        and not out.get("x-kubernetes-preserve-unknown-fields")
    ):
        out["additionalProperties"] = False
    return out


@pytest.fixture(scope="module")
def raycluster_schema() -> dict[str, Any]:
    if not RAYCLUSTER_CRD.exists():
        missing = f"KubeRay's RayCluster CRD is not at {RAYCLUSTER_CRD} (the shared folder sits beside the clone)"
        if os.environ.get("CI"):
            pytest.fail(missing + "; CI always has it, so the RayCluster cannot go unchecked there")
        pytest.skip(missing)
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    crd = yaml.load(RAYCLUSTER_CRD.read_text(), Loader=loader)
    version = next(v for v in crd["spec"]["versions"] if v["name"] == "v1")
    schema: dict[str, Any] = _closed(version["schema"]["openAPIV3Schema"])
    return schema


@pytest.mark.parametrize("values", VALUE_SETS.values(), ids=VALUE_SETS.keys())
def test_raycluster_matches_kuberay_crd(values: dict[str, Any], raycluster_schema: dict[str, Any]) -> None:
    cluster = one(render(values), "RayCluster")
    assert cluster["apiVersion"] == "ray.io/v1"
    errors = sorted(jsonschema.Draft7Validator(raycluster_schema).iter_errors(cluster), key=str)
    assert not errors, "\n".join(f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in errors)


def test_raycluster_pods_are_valid_kubernetes_pod_specs() -> None:
    """The CRD leaves pod templates loosely typed; validate each one as the Pod it becomes."""
    cluster = one(render(EVERYTHING_ON), "RayCluster")
    templates = [cluster["spec"]["headGroupSpec"]["template"]]
    templates += [group["template"] for group in cluster["spec"]["workerGroupSpecs"]]
    for template in templates:
        pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "ray"}, **{"spec": template["spec"]}}
        kubernetes_validate.validate(pod, KUBERNETES_VERSIONS[-1], strict=True)


def test_service_monitor_selects_the_coordinator_service_metrics_port() -> None:
    objects = render(EVERYTHING_ON)
    monitor = one(objects, "ServiceMonitor")
    service = next(s for s in by_kind(objects, "Service") if s["metadata"]["name"].endswith("coordinator"))
    selector = monitor["spec"]["selector"]["matchLabels"]
    assert selector.items() <= service["metadata"]["labels"].items()
    assert monitor["metadata"]["labels"]["release"] == "prometheus"
    assert [e["port"] for e in monitor["spec"]["endpoints"]] == ["metrics"]
    assert "metrics" in {p["name"] for p in service["spec"]["ports"]}


# --- the wiring -------------------------------------------------------------------------------------


def test_defaults_deploy_coordinator_raycluster_and_shared_index_volume() -> None:
    objects = render()
    assert sorted(o["kind"] for o in objects) == ["Deployment", "PersistentVolumeClaim", "RayCluster", "Service"]
    claim = one(objects, "PersistentVolumeClaim")
    assert claim["spec"]["accessModes"] == ["ReadWriteMany"]

    deployment = one(objects, "Deployment")
    coordinator = container(deployment["spec"]["template"]["spec"], "coordinator")
    cluster = one(objects, "RayCluster")
    head = cluster["spec"]["headGroupSpec"]["template"]["spec"]
    worker = cluster["spec"]["workerGroupSpecs"][0]["template"]["spec"]
    # Ray runs in the first container of each pod (KubeRay's rule); the launcher runs beside it on the head.
    assert [c["name"] for c in head["containers"]] == ["ray-head", "workers"]
    for pod_spec, name in [
        (deployment["spec"]["template"]["spec"], "coordinator"),
        (head, "ray-head"),
        (head, "workers"),
        (worker, "ray-worker"),
    ]:
        c = container(pod_spec, name)
        mount = next(m for m in c["volumeMounts"] if m["name"] == "index")
        volume = next(v for v in pod_spec["volumes"] if v["name"] == "index")
        assert env_of(c)["FOURFOLD_HOME"] == mount["mountPath"] == "/var/lib/fourfold", name
        assert volume["persistentVolumeClaim"]["claimName"] == claim["metadata"]["name"], name

    # The coordinator reaches Ray through the head Service KubeRay creates, "<cluster>-head-svc".
    args = coordinator["args"]
    assert args[args.index("--ray-address") + 1] == f"{cluster['metadata']['name']}-head-svc:6379"
    # Ray token auth: the containers outside KubeRay's Ray container read the operator's Secret.
    assert cluster["spec"]["authOptions"] == {"mode": "token"}
    for c in (coordinator, container(head, "workers")):
        assert env_of(c)["RAY_AUTH_TOKEN"]["secretKeyRef"] == {"name": cluster["metadata"]["name"], "key": "auth_token"}


def test_coordinator_probes_use_grpc_health_on_the_service_port() -> None:
    deployment = one(render(), "Deployment")
    coordinator = container(deployment["spec"]["template"]["spec"], "coordinator")
    port = next(p["containerPort"] for p in coordinator["ports"] if p["name"] == "grpc")
    assert coordinator["startupProbe"]["grpc"] == coordinator["livenessProbe"]["grpc"] == {"port": port}
    assert coordinator["readinessProbe"]["grpc"] == {"port": port, "service": "fourfold.v1.Coordinator"}
    service = one(render(), "Service")
    assert {"name": "grpc", "port": port, "targetPort": "grpc", "protocol": "TCP", "appProtocol": "grpc"} in (
        service["spec"]["ports"]
    )


def test_search_page_has_a_service_port_and_a_shared_session_secret() -> None:
    objects = render(EVERYTHING_ON)
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    coordinator = container(pod, "coordinator")
    assert {"name": "http", "containerPort": 8080, "protocol": "TCP"} in coordinator["ports"]
    assert coordinator["args"][coordinator["args"].index("--web-port") + 1] == "8080"
    secret = env_of(coordinator)["FOURFOLD_WEB_SECRET"]["secretKeyRef"]
    assert secret == {"name": "fourfold-web", "key": "session-secret"}
    service = one(objects, "Service")
    assert {"name": "http", "port": 8080, "targetPort": "http", "protocol": "TCP", "appProtocol": "https"} in (
        service["spec"]["ports"]
    )
    off = render(merged(EVERYTHING_ON, {"coordinator": {"web": {"enabled": False}}}))
    assert "--web-port" not in container(one(off, "Deployment")["spec"]["template"]["spec"], "coordinator")["args"]
    assert all(p["name"] != "http" for p in one(off, "Service")["spec"]["ports"])


def test_tokens_and_tls_reach_the_coordinator_and_probes_move_to_the_health_port() -> None:
    deployment = one(render(EVERYTHING_ON), "Deployment")
    pod = deployment["spec"]["template"]["spec"]
    coordinator = container(pod, "coordinator")
    assert env_of(coordinator)["FOURFOLD_AUTH_TOKENS"]["secretKeyRef"] == {
        "name": "fourfold-tokens",
        "key": "tokens.json",
    }
    args = coordinator["args"]
    assert args[args.index("--tls-cert") + 1] == "/etc/fourfold/tls/tls.crt"
    assert args[args.index("--tls-key") + 1] == "/etc/fourfold/tls/tls.key"
    assert args[args.index("--health-address") + 1] == "0.0.0.0:50552"
    assert {"name": "tls", "secret": {"secretName": "fourfold-tls"}} in pod["volumes"]
    assert {"name": "tls", "mountPath": "/etc/fourfold/tls", "readOnly": True} in coordinator["volumeMounts"]
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        assert coordinator[probe]["grpc"]["port"] == 50552, probe  # the kubelet's gRPC probes cannot speak TLS
    service = one(render(EVERYTHING_ON), "Service")
    assert all(p["port"] != 50552 for p in service["spec"]["ports"])  # health-only port stays inside the pod's network
    plain = container(one(render(), "Deployment")["spec"]["template"]["spec"], "coordinator")
    assert "FOURFOLD_AUTH_TOKENS" not in env_of(plain) and "--tls-cert" not in plain["args"]


def test_index_job_fetches_each_repository_then_indexes_them_all() -> None:
    objects = render(EVERYTHING_ON)
    job = one(objects, "Job")
    pod = job["spec"]["template"]["spec"]
    fetch, index = container(pod, "fetch"), container(pod, "index")
    assert fetch["args"] == [
        "fourfold",
        "https://git.example.com/team/fourfold.git",
        "main",
        "tools",
        "https://git.example.com/team/tools.git",
        "HEAD",
    ]
    assert index["args"] == ["index", "/repos/fourfold", "/repos/tools"]
    assert env_of(index)["FOURFOLD_EMBEDDER"] == "voyage"
    assert env_of(index)["VOYAGE_API_KEY"]["secretKeyRef"] == {"name": "voyage", "key": "api-key"}
    assert job["metadata"]["name"] == f"{RELEASE}-fourfold-index-1"  # one Job per release revision
    cron = one(objects, "CronJob")
    assert cron["spec"]["jobTemplate"]["spec"]["template"]["spec"] == pod


def test_fleet_file_from_a_configmap_is_synced_inside_the_coordinator() -> None:
    from fourfold.index.fleet import parse_fleet

    objects = render(EVERYTHING_ON)
    configmap = next(c for c in by_kind(objects, "ConfigMap") if c["metadata"]["name"].endswith("-fleet"))
    fleet = parse_fleet(configmap["data"]["fourfold.yaml"], "configmap")  # what the coordinator will validate
    assert [r.name for r in fleet.repos] == ["payments", "web"] and fleet.groups() == {"payments": ("payments",)}
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    coordinator = container(pod, "coordinator")
    args = coordinator["args"]
    assert args[args.index("--fleet") + 1] == "/etc/fourfold/fleet/fourfold.yaml"
    assert args[args.index("--sync-interval") + 1] == "15m"
    assert {"name": "fleet", "mountPath": "/etc/fourfold/fleet", "readOnly": True} in coordinator["volumeMounts"]
    assert {"name": "fleet", "configMap": {"name": configmap["metadata"]["name"]}} in pod["volumes"]
    plain = render()
    assert not [c for c in by_kind(plain, "ConfigMap") if c["metadata"]["name"].endswith("-fleet")]
    assert "--fleet" not in container(one(plain, "Deployment")["spec"]["template"]["spec"], "coordinator")["args"]


def test_each_worker_group_gets_its_own_scale_resources_and_placement() -> None:
    """workerGroups is a list, so the every-value test changes it whole; here each field is followed."""
    groups = one(render(EVERYTHING_ON), "RayCluster")["spec"]["workerGroupSpecs"]
    for group, wanted in zip(groups, EVERYTHING_ON["ray"]["workerGroups"], strict=True):
        assert group["groupName"] == wanted["name"]
        assert (group["replicas"], group["minReplicas"], group["maxReplicas"]) == (
            wanted["replicas"],
            wanted["minReplicas"],
            wanted["maxReplicas"],
        )
        assert group["rayStartParams"] == {k: str(v) for k, v in wanted["rayStartParams"].items()}
        pod = group["template"]["spec"]
        assert pod["containers"][0]["resources"] == wanted["resources"]
        assert pod.get("nodeSelector", {}) == wanted["nodeSelector"]
        assert pod.get("tolerations", []) == wanted["tolerations"]
        assert pod.get("affinity", {}) == wanted["affinity"]


def test_voyage_key_reaches_the_ray_pods_that_embed_queries() -> None:
    cluster = one(render(EVERYTHING_ON), "RayCluster")
    ray_containers = [cluster["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]]
    ray_containers += [g["template"]["spec"]["containers"][0] for g in cluster["spec"]["workerGroupSpecs"]]
    for c in ray_containers:
        assert env_of(c)["VOYAGE_API_KEY"]["secretKeyRef"] == {"name": "voyage", "key": "api-key"}, c["name"]
    assert all(
        "VOYAGE_API_KEY" not in env_of(c)
        for c in one(render(), "RayCluster")["spec"]["headGroupSpec"]["template"]["spec"]["containers"]
    )


def test_the_fetch_step_runs_repository_fields_as_arguments_not_shell() -> None:
    hostile = {"index": {"repositories": [{"name": "x", "url": "https://h/x.git; rm -rf /", "ref": "$(id)"}]}}
    fetch = container(one(render(hostile), "Job")["spec"]["template"]["spec"], "fetch")
    assert fetch["args"] == ["x", "https://h/x.git; rm -rf /", "$(id)"]
    assert "rm -rf" not in "".join(fetch["command"])


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"embedder": {"name": "voyage"}}, "embedder.voyage.existingSecret must name a Secret"),
        ({"embedder": {"name": ""}}, "at '/embedder/name': minLength"),
        (
            {"index": {"repositories": [{"name": "../etc", "url": "https://h/x.git"}]}},
            "at '/index/repositories/0/name': '../etc' does not match pattern",
        ),
        ({"index": {"repositories": [{"name": "x"}]}}, "at '/index/repositories/0': missing property 'url'"),
        ({"coordinator": {"replica": 3}}, "additional properties 'replica' not allowed"),
        ({"ray": {"authOptions": {"mode": "tls"}}}, "at '/ray/authOptions/mode'"),
        (
            {"ray": {"workerGroups": [{"name": "gpu", "replicas": 1}]}},
            "missing properties 'minReplicas', 'maxReplicas'",
        ),
    ],
    ids=[
        "voyage-without-secret",
        "no-embedder",
        "repo-name-escapes",
        "repo-without-url",
        "misspelt-key",
        "unknown-auth-mode",
        "group-without-bounds",
    ],
)
def test_bad_values_fail_with_a_message_naming_the_value(values: dict[str, Any], message: str) -> None:
    """values.schema.json rejects unknown keys and wrong types; templates reject what a schema cannot say."""
    with pytest.raises(helm.HelmError, match=re.escape(message)):
        render(values)


def test_notes_say_how_to_reach_the_coordinator_and_search() -> None:
    text = notes()
    assert f"kubectl port-forward -n {NAMESPACE} svc/{RELEASE}-fourfold-coordinator 50551:50551" in text
    assert 'fourfold search "where is main defined" --address 127.0.0.1:50551' in text
    assert "index.repositories" in text  # nothing indexed yet: says how to list repositories
    assert f"job/{RELEASE}-fourfold-index-1" in notes(EVERYTHING_ON)


# --- every value does something ---------------------------------------------------------------------


def _leaves(values: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Each leaf of the values tree; an empty map or list is a leaf too (it is meant to be filled)."""
    if isinstance(values, dict) and values:
        for key, value in values.items():
            yield from _leaves(value, (*path, key))
    else:
        yield path, values


#: A changed value for the leaves whose type alone does not say what a valid different value is.
CHANGED: dict[tuple[str, ...], Any] = {
    ("image", "pullPolicy"): "Always",
    ("coordinator", "probes", "startupSeconds"): 300,
    ("imagePullSecrets",): [{"name": "registry"}],
    ("coordinator", "service", "type"): "LoadBalancer",
    ("coordinator", "tolerations"): [{"key": "k", "operator": "Exists"}],
    ("ray", "authOptions", "mode"): "disabled",
    ("ray", "head", "serviceType"): "NodePort",
    ("ray", "head", "tolerations"): [{"key": "k", "operator": "Exists"}],
    ("ray", "sharedMemorySize"): "8Gi",
    ("ray", "version"): "2.61.0",
    ("ray", "workerGroups"): [],
    ("embedder", "name"): "minilm",
    ("index", "repositories"): [{"name": "other", "url": "https://git.example.com/team/other.git"}],
    ("index", "cronJob", "schedule"): "30 1 * * 0",
    ("index", "tolerations"): [{"key": "k", "operator": "Exists"}],
    ("indexVolume", "size"): "100Gi",
    ("indexVolume", "mountPath"): "/data/fourfold",
    ("metrics", "serviceMonitor", "interval"): "15s",
    ("fleet", "syncInterval"): "1h",
    ("fleet", "config", "repositories"): [{"name": "other", "url": "https://git.example.com/team/other.git"}],
}


def _changed(path: tuple[str, ...], value: Any) -> Any:
    if path in CHANGED:
        return CHANGED[path]
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, dict):
        return {"fourfold-test": "x"}
    if isinstance(value, str):
        return value + "x" if value else "changed"
    raise AssertionError(f"no changed value for {'.'.join(path)} = {value!r}; add one to CHANGED")


def _nested(path: tuple[str, ...], value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {path[-1]: value}
    for key in reversed(path[:-1]):
        out = {key: out}
    return out


def _defaults() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((CHART / "values.yaml").read_text())
    return loaded


@pytest.mark.parametrize("path", [p for p, _ in _leaves(_defaults())], ids=lambda p: ".".join(p))
def test_every_value_changes_the_output(path: tuple[str, ...]) -> None:
    """A value that does nothing is a defect: altering any documented value must change what is deployed."""
    base = merged(_defaults(), EVERYTHING_ON)
    current: Any = base
    for key in path:
        current = current[key]
    before = render(base)
    after = render(merged(base, _nested(path, _changed(path, current))))
    assert before != after, f"{'.'.join(path)} changed from {current!r} but the rendered chart did not"


def test_every_value_is_documented_by_a_comment() -> None:
    """Each value in values.yaml has a comment right above it, or sits inside a commented map or list
    (such as resources or workerGroups, documented as a whole). Keys that only group values need none."""
    lines = (CHART / "values.yaml").read_text().splitlines()
    undocumented = [
        f"line {n + 1}: {line.strip()}"
        for n, line in enumerate(lines)
        if _is_key(line)
        and not line.rstrip().endswith(":")
        and not _commented(lines, n)
        and not _inside_commented_value(lines, n)
    ]
    assert not undocumented, "values without a comment:\n" + "\n".join(undocumented)


def _is_key(line: str) -> bool:
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("#") and ":" in stripped


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _commented(lines: list[str], n: int) -> bool:
    return n > 0 and lines[n - 1].strip().startswith("#")


def _inside_commented_value(lines: list[str], n: int) -> bool:
    indent = _indent(lines[n])
    for above in range(n - 1, -1, -1):
        line = lines[above]
        if not _is_key(line) or _indent(line) >= indent:
            continue
        indent = _indent(line)
        if _commented(lines, above):
            return True
    return False


# --- the commands the chart runs are fourfold's own ---------------------------------------------------


@pytest.fixture(scope="module")
def parse() -> Callable[[list[str]], Any]:
    from fourfold.coordinator import cli

    parser = cli.build_parser()

    def _parse(argv: list[str]) -> Any:
        try:
            return parser.parse_args(argv)
        except SystemExit as exc:  # argparse reports a bad command line by exiting
            pytest.fail(f"fourfold's CLI rejects {argv}: exit {exc.code}")

    return _parse


def test_commands_in_the_chart_are_accepted_by_the_cli(parse: Callable[[list[str]], Any]) -> None:
    objects = render(EVERYTHING_ON)
    cluster = one(objects, "RayCluster")
    pods = {
        "coordinator": one(objects, "Deployment")["spec"]["template"]["spec"],
        "workers": cluster["spec"]["headGroupSpec"]["template"]["spec"],
        "index": one(objects, "Job")["spec"]["template"]["spec"],
    }
    parsed = {}
    for name, pod_spec in pods.items():
        c = container(pod_spec, name)
        assert c["command"] == ["fourfold"], name
        parsed[name] = parse(c["args"])

    coordinator, workers, index = parsed["coordinator"], parsed["workers"], parsed["index"]
    head_service = f"{cluster['metadata']['name']}-head-svc:6379"
    assert (coordinator.command, coordinator.role, coordinator.address) == ("serve", "coordinator", "0.0.0.0:50551")
    assert coordinator.ray_address == head_service
    assert coordinator.metrics_port == 9090
    assert coordinator.web_port == 8080
    assert (str(coordinator.tls_cert), str(coordinator.tls_key), coordinator.health_address) == (
        "/etc/fourfold/tls/tls.crt",
        "/etc/fourfold/tls/tls.key",
        "0.0.0.0:50552",
    )
    assert (workers.command, workers.role, workers.ray_address) == ("serve", "workers", "127.0.0.1:6379")
    assert sorted(workers.replicas) == ["graph=1", "semantic=2", "structural=1", "text=2"]
    assert workers.workers_per_modality == 4
    assert (index.command, index.paths) == ("index", ["/repos/fourfold", "/repos/tools"])
    assert index.address is None  # no coordinator in the Job's pod: the CLI builds in-process into FOURFOLD_HOME


def test_the_worker_secret_reaches_every_process_that_sends_or_checks_it() -> None:
    """workerPlane.existingSecret becomes $FOURFOLD_WORKER_SECRET in the coordinator, the workers
    launcher and every Ray pod (the actors check it); without it no pod names one (the index volume holds it)."""

    def secret_env(c: Manifest) -> list[Any]:
        return [e["valueFrom"]["secretKeyRef"] for e in c.get("env", []) if e["name"] == "FOURFOLD_WORKER_SECRET"]

    objects = render(EVERYTHING_ON)
    cluster = one(objects, "RayCluster")["spec"]
    pods = [one(objects, "Deployment")["spec"]["template"]["spec"], cluster["headGroupSpec"]["template"]["spec"]]
    pods += [g["template"]["spec"] for g in cluster["workerGroupSpecs"]]
    containers = [c for pod in pods for c in pod["containers"]]
    assert len(containers) >= 4
    assert all(secret_env(c) == [{"name": "fourfold-workers", "key": "secret"}] for c in containers)
    plain = render()
    plain_cluster = one(plain, "RayCluster")["spec"]
    plain_pods = [
        one(plain, "Deployment")["spec"]["template"]["spec"],
        plain_cluster["headGroupSpec"]["template"]["spec"],
    ]
    assert not [c for pod in plain_pods for c in pod["containers"] if secret_env(c)]
