"""Which GPUs the model servers take and which ones train.

The layout (params.yaml `cluster`), per phase:

* distill: the teacher (`serve.sh teacher`) on the first `teacher_gpus` GPUs of node 1, tensor
  parallel over them. It is needed only until distill ends and must be stopped before training,
  which uses those GPUs again.
* training: the judge (`serve.sh judge`) on the last `judge_gpus` GPUs of every node, so each rank
  reaches a judge at 127.0.0.1 on its own node; the rollout server (`grpo.vllm_mode: server`) on
  the `rollout_gpus` GPUs of node 1 before the judge's; every other GPU is a training rank.

A server whose URL is not on this machine (a hosted API, another host) takes no GPU here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urlparse

from cogevol.core.config import from_dict
from cogevol.core.problems import Problem

LOOPBACK = {"127.0.0.1", "localhost", "::1", "0.0.0.0"}

# infra/vllm/serve.sh: the context each role is started with (MAX_LEN) and its port (tested to
# agree with the script)
SERVE_MAX_LEN = {"teacher": 32768, "judge": 16384, "filter": 8192, "rollout": 20480}


@dataclass
class ClusterConfig:
    """The GPU layout (params.yaml: cluster, where each knob is explained)."""

    judge_gpus: int = 0
    rollout_gpus: int = 0
    teacher_gpus: int = 0
    server_memory_utilization: float = 0.9
    headroom: float = 0.05


def is_local(url: str | None) -> bool:
    return bool(url) and (urlparse(url).hostname or "") in LOOPBACK


@dataclass
class Placement:
    gpus_per_node: int
    nodes: int
    training: dict[int, list[int]] = field(default_factory=dict)  # node -> GPU indices
    servers: dict[str, dict] = field(default_factory=dict)  # role -> {node(s), gpus, phase}
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ranks(self) -> int:
        return sum(len(g) for g in self.training.values())

    @property
    def ranks_per_node(self) -> int:
        return len(self.training.get(0, []))

    def to_dict(self) -> dict:
        return {
            "training": {f"node{n + 1}": g for n, g in self.training.items()},
            "servers": self.servers,
        }


def place(params: dict, gpus_per_node: int, nodes: int) -> Placement:
    c = from_dict(ClusterConfig, params.get("cluster"))
    judge_n, rollout_n, teacher_n = c.judge_gpus, c.rollout_gpus, c.teacher_gpus
    out = Placement(gpus_per_node, nodes)
    all_gpus = list(range(gpus_per_node))
    if gpus_per_node == 0:  # CPU: one process, servers (if any) live elsewhere
        out.training = {0: []}
        return out

    judge = params.get("judge") or {}
    judge_here = bool(judge.get("enabled")) and is_local(judge.get("base_url"))
    grpo = params.get("grpo") or {}
    rollout_here = (
        grpo.get("use_vllm")
        and grpo.get("vllm_mode") == "server"
        and is_local(grpo.get("vllm_server_base_url"))
    )
    teachers = [
        t
        for t in (params.get("distill") or {}).get("teachers") or []
        if t.get("source") == "openai" and is_local(t.get("base_url"))
    ]

    kept = 0
    if judge_here:
        if judge_n < 1:
            out.problems.append(
                Problem(
                    "cluster.judge_gpus",
                    f"the judge is served at {judge['base_url']} but no GPU is kept for it: it "
                    "would share a training GPU, where vLLM refuses to start once training holds "
                    "the memory; keep 1 per node (or point judge.base_url at another host)",
                )
            )
        else:
            gpus = all_gpus[gpus_per_node - judge_n :]
            out.servers["judge"] = {
                "model": judge.get("model"),
                "nodes": "every node" if nodes > 1 else "node1",
                "gpus": gpus,
                "phase": "distill and training",
                "start": f"GPUS={','.join(map(str, gpus))} infra/vllm/serve.sh judge",
            }
            kept = judge_n
            if nodes > 1:
                out.notes.append(
                    f"the judge runs on every node (GPUs {gpus}): ranks call {judge['base_url']}"
                    " on their own node"
                )
    elif judge_n:
        out.notes.append("cluster.judge_gpus is set but no judge is served here: those GPUs train")
        judge_n = 0
    rollout_gpus: list[int] = []
    if rollout_here:
        if rollout_n < 1:
            out.problems.append(
                Problem(
                    "cluster.rollout_gpus",
                    "grpo.vllm_mode is server at a local URL but no GPU is kept for the rollout "
                    "server (serve.sh rollout); keep at least 1, or use vllm_mode: colocate",
                )
            )
        else:
            end = gpus_per_node - kept
            rollout_gpus = all_gpus[end - rollout_n : end]
            out.servers["rollout"] = {
                "model": "the policy (weights pushed by the trainer)",
                "nodes": "node1",
                "gpus": rollout_gpus,
                "phase": "training",
                "start": f"GPUS={','.join(map(str, rollout_gpus))} infra/vllm/serve.sh rollout",
            }
    per_node = [g for g in all_gpus if g < gpus_per_node - kept]
    out.training = {
        n: [g for g in per_node if not (n == 0 and g in rollout_gpus)] for n in range(nodes)
    }
    if out.ranks < 1:
        out.problems.append(
            Problem(
                "cluster.judge_gpus",
                f"{gpus_per_node} GPU(s) per node, {kept} kept for the judge and "
                f"{len(rollout_gpus)} for the rollout server: none is left to train; serve the "
                "judge elsewhere (judge.base_url) or use more GPUs",
            )
        )
    if teachers:
        t = teachers[0]
        if teacher_n < 1:
            out.problems.append(
                Problem(
                    "cluster.teacher_gpus",
                    f"the teacher {t.get('model')} is served at {t.get('base_url')} but no GPU "
                    "is given to it for distill",
                )
            )
        elif teacher_n > gpus_per_node - kept:
            out.problems.append(
                Problem(
                    "cluster.teacher_gpus",
                    f"{teacher_n} GPUs for the teacher, but only {gpus_per_node - kept} are not "
                    "kept for servers that run during distill",
                )
            )
        else:
            gpus = all_gpus[:teacher_n]
            out.servers["teacher"] = {
                "model": t.get("model"),
                "nodes": "node1",
                "gpus": gpus,
                "phase": "distill only: stop it before training, whose ranks use these GPUs",
                "start": f"GPUS={','.join(map(str, gpus))} infra/vllm/serve.sh teacher",
            }
    return out
