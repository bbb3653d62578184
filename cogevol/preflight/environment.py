"""What this machine says about a run: its GPUs, the launcher, library versions, endpoints.

Everything here reads the environment; the layout arithmetic in the sibling modules does not,
so a plan for declared hardware (`--gpus 8` on a laptop) is the same arithmetic with these
checks reported as notes instead of problems.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import httpx

from cogevol.core.problems import Problem

LAUNCH_VAR = "COGEVOL_LAUNCH"
# the hostfile and the per-node environment live outside infra/deepspeed/, which every training
# stage depends on through its ZeRO config: editing a host list must not rerun training
HOSTFILE = "infra/hosts/hostfile"
NODE_ENV = "infra/hosts/node_env.sh"


@dataclass
class Hardware:
    gpus_per_node: int
    nodes: int
    gpu_memory_gib: float
    name: str = ""
    declared: bool = False  # from --gpus, not from this machine

    def to_dict(self) -> dict:
        return {
            "nodes": self.nodes,
            "gpus_per_node": self.gpus_per_node,
            "gpu_memory_gib": round(self.gpu_memory_gib, 1),
            "name": self.name,
            "declared": self.declared,
        }


def detect_hardware(nodes: int = 1) -> Hardware:
    """The GPUs torch sees here (none on a CPU machine); nodes beyond this one are declared."""
    try:
        import torch

        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if n:
            props = torch.cuda.get_device_properties(0)
            return Hardware(n, nodes, props.total_memory / 2**30, props.name)
    except Exception:  # a broken CUDA install reads as no GPU; the plan then says CPU
        pass
    return Hardware(0, nodes, 0.0, "cpu")


def free_gib(device: int) -> float | None:
    try:
        import torch

        if torch.cuda.is_available():
            return torch.cuda.mem_get_info(device)[0] / 2**30
    except Exception:
        pass
    return None


@dataclass
class Launcher:
    """COGEVOL_LAUNCH, parsed: which launcher, how many processes on how many nodes."""

    line: str
    kind: str = ""  # "", deepspeed, torchrun, accelerate, other
    processes: int | None = None  # total ranks it starts, when the line says
    nodes: int = 1
    hostfile: str | None = None
    venv_script: str | None = None
    flags: set[str] = field(default_factory=set)

    @classmethod
    def parse(cls, line: str | None) -> Launcher:
        line = (line or "").strip()
        out = cls(line)
        if not line:
            return out
        words = shlex.split(line)
        exe = Path(words[0]).name
        args = words[1:]
        if exe == "accelerate" and args[:1] == ["launch"]:
            exe, args = "accelerate", args[1:]
        out.kind = exe if exe in ("deepspeed", "torchrun", "accelerate") else "other"
        opts: dict[str, str] = {}
        for i, w in enumerate(args):
            if w.startswith("--"):
                key, eq, val = w[2:].partition("=")
                key = key.replace("-", "_")
                has_val = i + 1 < len(args) and not args[i + 1].startswith("--")
                opts[key] = val if eq else (args[i + 1] if has_val else "")
                out.flags.add(key)
        per_node = None
        if out.kind == "deepspeed":
            if "include" in opts:
                per_node = sum(
                    len(part.split(":")[1].split(","))
                    for part in opts["include"].split("@")
                    if ":" in part
                )
            elif opts.get("num_gpus"):
                per_node = int(opts["num_gpus"])
            out.hostfile = opts.get("hostfile")
            out.venv_script = opts.get("venv_script")
            if opts.get("num_nodes"):
                out.nodes = int(opts["num_nodes"])
            elif out.hostfile and Path(out.hostfile).is_file():
                out.nodes = len(hosts(out.hostfile)) or 1
            out.processes = per_node * out.nodes if per_node else None
        elif out.kind == "torchrun":
            out.nodes = int(str(opts.get("nnodes", "1")).split(":")[-1])
            if opts.get("nproc_per_node", "").isdigit():
                out.processes = int(opts["nproc_per_node"]) * out.nodes
        elif out.kind == "accelerate":
            out.nodes = int(opts.get("num_machines", 1))
            if opts.get("num_processes"):
                out.processes = int(opts["num_processes"])
        return out


def hosts(path: str | Path) -> dict[str, int]:
    """A DeepSpeed hostfile: host -> slots (comments and blank lines skipped)."""
    out = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        host, _, slots = line.partition(" slots=")
        out[host.strip()] = int(slots or 0)
    return out


def launch_line(ranks_per_node: int, nodes: int, gpus: list[int], all_gpus: int) -> str:
    """The COGEVOL_LAUNCH a layout needs (the one the docs show, and preflight accepts).

    Several nodes: deepspeed reads the hosts from the hostfile and trains on GPUs 0..slots-1
    of each, so `slots` is the number of training GPUs per node (the judge's GPUs come last)."""
    if ranks_per_node <= 1 and nodes == 1:
        return ""
    base = "deepspeed --no_python --no_local_rank"
    if nodes > 1:
        # the project's absolute path: a shell variable would expand on no node, or on the wrong one
        return f"{base} --hostfile {HOSTFILE} --venv_script {Path.cwd() / NODE_ENV}"
    if len(gpus) == all_gpus:
        return f"{base} --num_gpus {len(gpus)}"
    return f"{base} --include localhost:{','.join(map(str, gpus))}"


def launcher_problems(
    launch: Launcher, ranks: int, nodes: int, ranks_per_node: int | None = None
) -> list[Problem]:
    """What keeps COGEVOL_LAUNCH from starting the planned ranks."""
    out = []
    if ranks > 1 and not launch.line:
        out.append(
            Problem(
                LAUNCH_VAR,
                f"{ranks} training ranks are planned but no launcher is set: the stage would "
                "run as one process on one GPU; export the launch line the plan prints",
            )
        )
        return out
    if not launch.line:
        return out
    if launch.kind in ("torchrun", "accelerate") and launch.nodes > 1:
        out.append(
            Problem(
                LAUNCH_VAR,
                f"{launch.kind} must be started on every node and DVC starts it on one; use "
                f"deepspeed --hostfile {HOSTFILE}, which starts the other nodes over ssh",
            )
        )
    if launch.kind == "deepspeed":
        for flag in ("no_python", "no_local_rank"):
            if flag not in launch.flags:
                out.append(
                    Problem(
                        LAUNCH_VAR,
                        f"deepspeed needs --{flag}: the DVC command is `python stages/...`, "
                        "which takes no --local_rank",
                    )
                )
    if launch.kind == "torchrun" and "no_python" not in launch.flags:
        out.append(Problem(LAUNCH_VAR, "torchrun needs --no-python (the command is `python ...`)"))
    if launch.kind == "accelerate" and "no_python" not in launch.flags:
        out.append(Problem(LAUNCH_VAR, "accelerate launch needs --no_python"))
    if nodes > 1 and launch.kind == "deepspeed":
        if not launch.hostfile:
            out.append(Problem(LAUNCH_VAR, f"{nodes} nodes need --hostfile {HOSTFILE}"))
        elif not Path(launch.hostfile).is_file():
            out.append(
                Problem(
                    launch.hostfile,
                    "the hostfile does not exist: deepspeed would only warn and train on one "
                    "node; one `HOST slots=N` line per node",
                )
            )
        else:
            listed = hosts(launch.hostfile)
            if len(listed) < nodes:
                out.append(Problem(launch.hostfile, f"lists {len(listed)} hosts, {nodes} needed"))
            wrong = {h: n for h, n in listed.items() if ranks_per_node and n != ranks_per_node}
            if wrong and "include" not in launch.flags:
                out.append(
                    Problem(
                        launch.hostfile,
                        f"slots {wrong}: deepspeed trains on GPUs 0..slots-1 of each host, and "
                        f"{ranks_per_node} GPUs per node train (the servers keep the others); "
                        f"write slots={ranks_per_node}",
                    )
                )
        if launch.hostfile and Path(launch.hostfile).resolve().is_relative_to(
            Path("infra/deepspeed").resolve()
        ):
            out.append(
                Problem(
                    launch.hostfile,
                    "inside infra/deepspeed/, a dependency of every training stage: editing "
                    f"the host list would rerun all training; keep it at {HOSTFILE}",
                )
            )
        if not launch.venv_script:
            out.append(
                Problem(
                    LAUNCH_VAR,
                    "the other nodes would run a bare `python` from their own PATH, outside "
                    "the venv, and without this shell's keys; add "
                    f"--venv_script {Path.cwd() / NODE_ENV}",
                )
            )
        elif not Path(launch.venv_script).is_file():
            out.append(Problem(LAUNCH_VAR, f"--venv_script {launch.venv_script} does not exist"))
    if launch.processes is not None and launch.processes != ranks:
        out.append(
            Problem(
                LAUNCH_VAR,
                f"the launcher starts {launch.processes} processes but the plan has {ranks} "
                "training ranks (GPUs kept for servers do not train)",
            )
        )
    return out


def library_versions(extras: set[str]) -> tuple[dict[str, str | None], list[Problem], list[str]]:
    """Installed versions of cogevol's requirements (and `extras`) against its own pins."""
    from packaging.requirements import Requirement

    versions: dict[str, str | None] = {}
    problems: list[Problem] = []
    missing: list[str] = []
    try:
        reqs = metadata.requires("cogevol") or []
    except metadata.PackageNotFoundError:
        return versions, [Problem("pip install -e .", "cogevol is not installed")], missing
    for text in reqs:
        req = Requirement(text)
        envs = [{"extra": e} for e in extras | {""}]
        if req.marker and not any(req.marker.evaluate(e) for e in envs):
            continue
        try:
            have = metadata.version(req.name)
        except metadata.PackageNotFoundError:
            versions[req.name] = None
            missing.append(req.name)
            continue
        versions[req.name] = have
        if req.specifier and not req.specifier.contains(have, prereleases=True):
            problems.append(
                Problem(
                    f"pip install '{req.name}{req.specifier}'",
                    f"{req.name} {have} is installed, outside {req.specifier}",
                )
            )
    return versions, problems, missing


@dataclass
class Endpoint:
    role: str  # judge, teacher, planner, rollout, eval:NAME, filter
    base_url: str
    model: str | None
    api_key_env: str | None = None
    knob: str = ""
    path: str = "/models"  # an OpenAI model list; TRL's rollout server answers /health/

    def check(self, timeout: float = 3.0) -> Problem | None:
        """GET /models: reachable, and serving the model the params name."""
        headers = {}
        key = os.environ.get(self.api_key_env or "")
        if key:
            headers["Authorization"] = f"Bearer {key}"
        url = self.base_url.rstrip("/") + self.path
        try:
            r = httpx.get(url, headers=headers, timeout=timeout)
        except httpx.HTTPError as e:
            return Problem(self.knob, f"{self.role} at {self.base_url} is not reachable: {e!r}")
        if r.status_code != 200:
            return Problem(self.knob, f"{self.role} at {url} answered HTTP {r.status_code}")
        if self.path != "/models":
            return None
        try:
            served = [m.get("id") for m in r.json().get("data", [])]
        except (ValueError, AttributeError):
            return Problem(self.knob, f"{self.role} at {url} did not answer an OpenAI model list")
        if self.model and served and self.model not in served:
            return Problem(
                self.knob, f"{self.role} at {self.base_url} serves {served}, not {self.model}"
            )
        return None


def endpoints(params: dict, stages: set[str]) -> list[Endpoint]:
    """The endpoints the named stages call with these params."""
    out = []
    judge = params.get("judge") or {}
    if judge.get("enabled") and stages & {"distill", "grpo_slide", "grpo_html", "evaluate"}:
        out.append(
            Endpoint(
                "judge",
                judge["base_url"],
                judge.get("model"),
                judge.get("api_key_env"),
                "judge.base_url",
            )
        )
    if "distill" in stages:
        for i, t in enumerate((params.get("distill") or {}).get("teachers") or []):
            if t.get("source") == "openai":
                out.append(
                    Endpoint(
                        f"teacher {t.get('name')}",
                        t["base_url"],
                        t.get("model"),
                        t.get("api_key_env"),
                        f"distill.teachers[{i}].base_url",
                    )
                )
    cl = params.get("checklist") or {}
    if cl.get("source") == "openai" and stages & {"filter", "evaluate"}:
        out.append(
            Endpoint(
                "checklist planner",
                cl["base_url"],
                cl.get("model"),
                cl.get("api_key_env"),
                "checklist.base_url",
            )
        )
    g = params.get("grpo") or {}
    if (
        g.get("use_vllm")
        and g.get("vllm_mode") == "server"
        and stages & {"grpo_slide", "grpo_html"}
    ):
        url = g.get("vllm_server_base_url") or ""
        # trl vllm-serve answers /health/, not an OpenAI model list
        out.append(
            Endpoint("rollout server", url, None, None, "grpo.vllm_server_base_url", "/health/")
        )
    return out
