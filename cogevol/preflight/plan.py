"""The plan: a profile's params resolved against hardware, with every problem and its knob.

`plan()` is what `cogevol preflight` prints; `guard()` is the same check as each training stage
runs it first, on the hardware and world size it actually has, so a run that cannot go stops
before it loads a model, with the message preflight would have given.
"""

from __future__ import annotations

import json
import os
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from cogevol.core.config import from_dict
from cogevol.core.errors import CogevolError
from cogevol.core.problems import Problem
from cogevol.preflight import environment as env
from cogevol.preflight import timing
from cogevol.preflight.memory import Estimate, Zero, server_fit, training_rank
from cogevol.preflight.models import Arch, arch_of, params_from_name
from cogevol.preflight.placement import SERVE_MAX_LEN, ClusterConfig, place
from cogevol.train.batch import SFTBatch, grpo_batch

TRAINING = ("sft", "grpo_slide", "grpo_html")
PROMPT_TOKENS = 2048  # a distill request: system prompt and user request
BYTES = {"bfloat16": 2, "float16": 2, "float32": 4, "auto": 2}


class PreflightError(CogevolError, RuntimeError):
    """A training stage refused to start; the message lists each problem with its knob."""


@dataclass
class Plan:
    hardware: env.Hardware
    ranks: int = 1
    launch: str = ""
    grpo: dict = field(default_factory=dict)
    sft: dict = field(default_factory=dict)
    placement: dict = field(default_factory=dict)
    memory: dict = field(default_factory=dict)
    libraries: dict = field(default_factory=dict)
    endpoints: list[dict] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    suggestion: dict | None = None  # a refusal's nearest layout that plans: profile + overrides
    timing: dict = field(default_factory=dict)  # estimated wall time per stage (preflight.timing)
    warnings: list[str] = field(default_factory=list)  # the run goes, but likely not as wanted

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict:
        return {
            "ok": self.ok,
            "ranks": self.ranks,
            "hardware": self.hardware.to_dict(),
            "launch": self.launch,
            "grpo": self.grpo,
            "sft": self.sft,
            "placement": self.placement,
            "memory": self.memory,
            "libraries": self.libraries,
            "endpoints": self.endpoints,
            "problems": [p.to_dict() for p in self.problems],
            "notes": self.notes,
            "suggestion": self.suggestion,
            "timing": self.timing,
            "warnings": self.warnings,
        }

    def render(self) -> str:
        hw = self.hardware
        lines = [
            f"hardware: {hw.nodes} node(s) x {hw.gpus_per_node} GPU(s)"
            + (f" of {hw.gpu_memory_gib:.0f} GiB ({hw.name})" if hw.gpus_per_node else " (CPU)")
            + (" [declared]" if hw.declared else " [found]"),
            f"training ranks: {self.ranks}",
            f"launch: COGEVOL_LAUNCH={shlex.quote(self.launch)}"
            if self.launch
            else "launch: none (one process)",
        ]
        if self.grpo:
            g = self.grpo
            lines.append(
                f"grpo: {g['requests_per_step']} requests x {g['num_generations']} = "
                f"{g['completions_per_step']} completions per step = {self.ranks} ranks x "
                f"{g['per_device_batch_size']} per micro-batch x "
                f"{g['gradient_accumulation_steps'] or '?'} accumulation (derived)"
            )
        if self.sft:
            s = self.sft
            lines.append(
                f"sft: {s['blocks_per_step']} packed blocks ({s['tokens_per_step']} tokens) per "
                f"step = {self.ranks} ranks x {s['per_device_batch_size']} x "
                f"{s['gradient_accumulation_steps']} accumulation"
            )
        for role, s in (self.placement.get("servers") or {}).items():
            lines.append(f"{role}: {s['model']} on GPUs {s['gpus']} of {s['nodes']} ({s['phase']})")
        for node, gpus in (self.placement.get("training") or {}).items():
            if gpus:
                lines.append(f"training on {node}: GPUs {gpus}")
        for name, m in self.memory.items():
            if "total_gib" in m:
                parts = ", ".join(
                    f"{k} {v}"
                    for k, v in m.items()
                    if k not in ("total_gib", "gpu_gib", "margin_gib")
                )
                margin = m.get("margin_gib")
                lines.append(
                    f"memory {name}: {m['total_gib']} of {m.get('gpu_gib', '?')} GiB ({parts})"
                    + (
                        f"; margin {margin} GiB under the usable share"
                        if margin is not None
                        else ""
                    )
                )
            elif "full_length_sequences" in m:
                lines.append(
                    f"memory {name}: {m['weights_gib_per_gpu']} GiB weights per GPU, KV cache "
                    f"{m['kv_cache_gib_per_gpu']} GiB = {m['full_length_sequences']} sequences of "
                    f"{m['max_len']} tokens"
                )
        if self.timing:
            t = self.timing
            lines.append(f"time on {t['card']} ({t['tflops']:g} TFLOPS bf16 per GPU), estimated:")
            for stage in ("sft", "grpo"):
                if stage in t:
                    e = t[stage]
                    lines.append(
                        f"  {stage}{' (each GRPO stage)' if stage == 'grpo' else ''}: "
                        f"{e['steps']} steps x {e['seconds_per_step']} s = {e['minutes']} min "
                        f"({e['assumptions']})"
                    )
        for e in self.endpoints:
            lines.append(f"endpoint {e['role']}: {e['base_url']} {e['status']}")
        lines += [f"warning: {w}" for w in self.warnings]
        lines += [f"note: {n}" for n in self.notes]
        if self.problems:
            lines.append(f"REFUSED: {len(self.problems)} problem(s)")
            lines += [f"  - {p}" for p in self.problems]
            if self.suggestion:
                hw = self.hardware
                sets = "".join(f" -S {o}" for o in self.suggestion["overrides"])
                lines.append(
                    f"nearest layout that runs on this hardware: cogevol preflight --profile "
                    f"{self.suggestion['profile']}{sets} --gpus {hw.gpus_per_node} --nodes "
                    f"{hw.nodes} --gpu-memory-gb {hw.gpu_memory_gib:.0f}"
                )
            elif self.hardware.gpus_per_node:
                lines.append(f"no profile of {', '.join(FALLBACK_PROFILES)} plans on this hardware")
        else:
            lines.append("OK: the run can go as planned")
        return "\n".join(lines)


def _arch(params: dict, problems: list[Problem]) -> Arch | None:
    model = params.get("model") or {}
    base = str(model.get("base", "tiny"))
    a = arch_of(base, model.get("tiny"))
    if a is None:
        size = params_from_name(base)
        problems.append(
            Problem(
                "model.base",
                f"{base}: no config.json here and not a model preflight knows"
                + (f" (its name says {size}B)" if size else "")
                + "; download it first (huggingface-cli download) so its size can be planned",
            )
        )
    return a


def _zero(params: dict) -> Zero:
    path = (params.get("train") or {}).get("deepspeed")
    if not path or not Path(path).is_file():
        return Zero()
    return Zero.from_config(json.loads(Path(path).read_text(encoding="utf-8")))


def _over(
    name: str,
    est: Estimate,
    usable: float,
    gpu: float,
    zero: Zero,
    world: int,
    *,
    checkpointing: bool,
    micro_batch: int = 1,
) -> Problem:
    """The knob whose change frees the most of an over-full rank; never advice the params
    already follow (checkpointing that is on, a micro-batch that is already 1)."""
    p = est.parts
    short = f"{name} needs about {est.total:.0f} GiB per GPU, {usable:.0f} of {gpu:.0f} are usable"
    if p.get("optimizer", 0) >= max(p.get("vllm_colocated", 0), p["logits"] + p["activations"]):
        return Problem(
            "train.deepspeed",
            f"{short}; its optimizer state takes {p['optimizer']:.0f}: use "
            "infra/deepspeed/zero2_offload.json (optimizer on CPU)"
            + (", or zero3.json to shard the weights too" if world > 1 else "")
            + ", or a smaller model.base",
        )
    if p.get("vllm_colocated", 0) >= p["logits"] + p["activations"]:
        return Problem(
            "grpo.vllm_gpu_memory_utilization",
            f"{short}; colocated vLLM takes {p['vllm_colocated']:.0f}: lower it, or "
            "grpo.vllm_mode: server on GPUs of its own (cluster.rollout_gpus)",
        )
    grpo = name == "grpo rank"
    if grpo and micro_batch > 1:
        knob = "grpo.per_device_batch_size"
    else:
        knob = "grpo.max_completion_length" if grpo else "sft.max_length"
    advice = f"lower {knob}"
    if not checkpointing:
        advice += ", or set train.gradient_checkpointing: true"
    if not zero.offload_optimizer and p.get("optimizer", 0) > 0:
        advice += ", or infra/deepspeed/zero2_offload.json (optimizer on CPU)"
    return Problem(
        knob,
        f"{short}; activations and logits take {p['logits'] + p['activations']:.0f}: {advice}",
    )


def _rank(
    out: Plan,
    name: str,
    est: Estimate,
    usable: float,
    zero: Zero,
    world: int,
    *,
    checkpointing: bool,
    micro_batch: int = 1,
) -> None:
    """Record a training rank's memory with its margin; refuse it when it does not fit."""
    gpu = out.hardware.gpu_memory_gib
    out.memory[name] = {
        **est.to_dict(),
        "gpu_gib": round(gpu),
        "margin_gib": round(usable - est.total, 1),
    }
    if est.total > usable:
        out.problems.append(
            _over(
                name,
                est,
                usable,
                gpu,
                zero,
                world,
                checkpointing=checkpointing,
                micro_batch=micro_batch,
            )
        )


def plan(
    params: dict,
    hardware: env.Hardware,
    *,
    check_env: bool = False,
    launch_line: str | None = None,
    stages: tuple[str, ...] = ("distill", *TRAINING),
    world_size: int | None = None,
    suggest: bool = True,
    tflops: float | None = None,
) -> Plan:
    """Resolve params against hardware. check_env: also check the launcher, GPU-only libraries
    and endpoints as problems (they are notes when the hardware is only declared). suggest: on
    a refusal, find the nearest layout that plans on the same hardware (`nearest_layout`)."""
    out = Plan(hardware)
    problems = out.problems
    gpn, nodes = hardware.gpus_per_node, hardware.nodes
    pl = place(params, gpn, nodes)
    problems += pl.problems
    out.notes += pl.notes
    out.placement = pl.to_dict()
    launch = env.Launcher.parse(launch_line)
    if world_size is not None:
        out.ranks = world_size
    elif gpn:
        out.ranks = pl.ranks
    else:
        out.ranks = launch.processes or 1
    ranks = max(out.ranks, 1)
    if gpn:
        out.launch = env.launch_line(pl.ranks_per_node, nodes, pl.training.get(0, []), gpn)
    model = params.get("model") or {}
    train = params.get("train") or {}
    g = params.get("grpo") or {}
    s = params.get("sft") or {}
    needs_gpu = model.get("attn_implementation") == "flash_attention_2" or g.get("use_vllm")
    if not gpn and needs_gpu:
        problems.append(
            Problem(
                "--gpus",
                "no GPU found, and these params need one (flash attention or vLLM rollouts); "
                "declare the hardware to plan it (--gpus N --gpu-memory-gb G)",
            )
        )

    # with no training rank (refused above) there is no batch to split; memory is still sized
    # for one rank, so every other problem of the layout shows at once
    sized = set(stages) if out.ranks >= 1 else set()
    if {"grpo_slide", "grpo_html"} & sized:
        gb = grpo_batch(
            int(g.get("requests_per_step", 1)),
            int(g.get("num_generations", 1)),
            g.get("per_device_batch_size"),
            ranks,
        )
        problems += gb.problems
        out.grpo = gb.to_dict()
        if gb.gradient_accumulation_steps:
            out.notes.append(
                f"grpo gradient accumulation {gb.gradient_accumulation_steps} is derived from "
                f"{ranks} rank(s); it is not a knob"
            )
    if "sft" in sized:
        sb = SFTBatch(
            int(s.get("per_device_batch_size", 1)),
            int(s.get("gradient_accumulation_steps", 1)),
            ranks,
            int(s.get("max_length", 2048)),
        )
        out.sft = sb.to_dict()

    arch = _arch(params, problems) if gpn else None
    if arch is not None:
        usable = hardware.gpu_memory_gib * (
            1 - from_dict(ClusterConfig, params.get("cluster")).headroom
        )
        zero = _zero(params)
        nbytes = BYTES.get(str(model.get("dtype", "float32")), 4)
        ckpt = bool(train.get("gradient_checkpointing"))
        world = ranks
        if "sft" in stages:
            tok = int(s.get("per_device_batch_size", 1)) * int(s.get("max_length", 2048))
            est = training_rank(
                arch,
                world=world,
                zero=zero,
                bytes_per_param=nbytes,
                tokens=tok,
                logit_tokens=tok,
                checkpointing=ckpt,
            )
            _rank(out, "sft rank", est, usable, zero, world, checkpointing=ckpt)
        if {"grpo_slide", "grpo_html"} & set(stages):
            b = out.grpo.get("per_device_batch_size") or 1
            comp = int(g.get("max_completion_length", 640))
            seq = int(g.get("max_prompt_length", 1024)) + comp
            colocate = g.get("use_vllm") and g.get("vllm_mode", "colocate") == "colocate"
            util = float(g.get("vllm_gpu_memory_utilization", 0.3))
            vllm_gib = util * hardware.gpu_memory_gib if colocate else 0.0
            vllm_len = g.get("vllm_max_model_length")
            if colocate and vllm_len is None:
                problems.append(
                    Problem(
                        "grpo.vllm_max_model_length",
                        "unset: colocated vLLM sizes its KV cache for the model's whole window, "
                        f"not the {seq} tokens of a rollout this plan counts; set it to {seq}",
                    )
                )
            elif colocate and int(vllm_len) < seq:
                problems.append(
                    Problem(
                        "grpo.vllm_max_model_length",
                        f"{vllm_len} is shorter than a rollout (prompt + completion = {seq})",
                    )
                )
            est = training_rank(
                arch,
                world=world,
                zero=zero,
                bytes_per_param=nbytes,
                tokens=b * seq,
                logit_tokens=b * comp,
                checkpointing=ckpt,
                reference=float(g.get("beta", 0)) > 0,
                colocated_vllm_gib=vllm_gib,
                vllm_sleeps=bool(colocate and g.get("vllm_enable_sleep_mode")),
            )
            _rank(out, "grpo rank", est, usable, zero, world, checkpointing=ckpt, micro_batch=b)
            if colocate:
                fit = server_fit(
                    str(model.get("base")),
                    arch,
                    tp=int(g.get("vllm_tensor_parallel_size", 1)),
                    gpu_gib=hardware.gpu_memory_gib,
                    utilization=util,
                    max_len=seq,
                )
                out.memory["colocated vllm"] = fit.to_dict()
                if fit.sequences < 1:
                    problems.append(
                        Problem(
                            "grpo.vllm_gpu_memory_utilization",
                            f"{util} of {hardware.gpu_memory_gib:.0f} GiB holds the policy's "
                            f"weights ({fit.weights_gib:.1f} GiB) but not the KV cache of one "
                            f"{seq}-token rollout",
                        )
                    )
        _servers(params, pl.servers, hardware, out)
        _timing(params, arch, ranks, stages, hardware, tflops, out)

    versions, lib_problems, missing = env.library_versions({"gpu"} if needs_gpu else set())
    out.libraries = versions
    problems += lib_problems
    gpu_only = {"vllm", "flash-attn", "flash_attn"}
    if needs_gpu and model.get("attn_implementation") == "flash_attention_2":
        try:
            import flash_attn  # noqa: F401
        except ImportError:
            missing.append("flash-attn")
    for name in missing:
        msg = f"{name} is not installed here (pip install -e '.[gpu]'; flash-attn separately)"
        knob = "model.attn_implementation" if "flash" in name else "grpo.use_vllm"
        if name in gpu_only and not check_env:
            out.notes.append(msg + ": the stages check it on the GPU nodes")
        else:
            problems.append(Problem(knob if name in gpu_only else f"pip install {name}", msg))

    if check_env or launch.line:
        problems += env.launcher_problems(launch, out.ranks, nodes, pl.ranks_per_node or None)
    elif out.launch:
        out.notes.append(f'export COGEVOL_LAUNCH="{out.launch}" before dvc repro / dvc exp run')
    if nodes > 1:
        out.notes.append(
            f"multi-node: the repository, venv and data at the same path on every node (a shared "
            f"filesystem); {env.HOSTFILE} lists the nodes; {env.NODE_ENV} activates the venv on "
            "each and sources ~/.cogevol_env (API keys, HF_HOME) there"
        )
    for e in env.endpoints(params, set(stages)):
        status = "not checked (declared hardware; --check-endpoints to check)"
        if check_env:
            p = e.check()
            status = "ok" if p is None else "unreachable"
            if p is not None:
                problems.append(p)
        out.endpoints.append({"role": e.role, "base_url": e.base_url, "status": status})
    if suggest and problems and gpn:
        out.suggestion = nearest_layout(hardware, stages, world_size)
    return out


def _timing(
    params: dict,
    arch: Arch,
    ranks: int,
    stages: tuple[str, ...],
    hardware: env.Hardware,
    tflops: float | None,
    out: Plan,
) -> None:
    name, tf = timing.card(hardware.gpu_memory_gib, tflops)
    times = []
    if "sft" in stages:
        times.append(timing.sft_time(params, arch.params_b, ranks, tf))
    if {"grpo_slide", "grpo_html"} & set(stages):
        times.append(timing.grpo_time(params, arch.params_b, ranks, tf))
    out.timing = {"card": name, "tflops": tf, **{t.stage: t.to_dict() for t in times}}
    out.warnings += [f"{knob}: {why}" for knob, why in timing.warnings(times)]


# the profiles a refusal may point to, largest model first (infra/profiles/)
FALLBACK_PROFILES = ("gpu", "gpu-1x80", "gpu-1x24")


def nearest_layout(
    hardware: env.Hardware, stages: tuple[str, ...], world_size: int | None
) -> dict | None:
    """The first fallback profile that plans on this hardware, as it is or with the GRPO batch
    re-divided over these ranks: {"profile", "overrides"} (overrides in `-S` syntax), or None.
    A refusal then names a layout that runs, not only the knob that broke."""
    from cogevol.core.config import load_profile, with_overrides

    for name in FALLBACK_PROFILES:
        params = load_profile(name)
        tries = [[]]
        g = params.get("grpo") or {}
        ranks = place(params, hardware.gpus_per_node, hardware.nodes).ranks
        if ranks > 0:  # re-divide the step's completions over the ranks this hardware has
            per_rank = max(1, int(g.get("requests_per_step", 1)) // ranks)
            tries.append([f"grpo.requests_per_step={per_rank * ranks}"])
        for overrides in tries:
            candidate = with_overrides(params, overrides)
            p = plan(candidate, hardware, stages=stages, world_size=world_size, suggest=False)
            if p.ok:
                return {"profile": name, "overrides": overrides}
    return None


def _servers(params: dict, servers: dict, hw: env.Hardware, out: Plan) -> None:
    util = from_dict(ClusterConfig, params.get("cluster")).server_memory_utilization
    for role, spec in servers.items():
        if role == "rollout":
            model = str((params.get("model") or {}).get("base"))
        else:
            model = str(spec["model"])
        arch = arch_of(model)
        if arch is None:
            out.notes.append(f"{role}: {model} has no known size; its memory is not planned")
            continue
        fit = server_fit(
            model,
            arch,
            tp=len(spec["gpus"]),
            gpu_gib=hw.gpu_memory_gib,
            utilization=util,
            max_len=SERVE_MAX_LEN[role],
        )
        out.memory[f"{role} server"] = fit.to_dict()
        if fit.sequences < 1:
            out.problems.append(
                Problem(
                    f"cluster.{role}_gpus",
                    f"{model} on {fit.tp} GPU(s) of {hw.gpu_memory_gib:.0f} GiB at {util} leaves "
                    f"{max(fit.kv_gib, 0):.1f} GiB of KV cache per GPU, less than one "
                    f"{fit.max_len}-token sequence; give it more GPUs (tensor parallel)",
                )
            )
        elif role == "teacher":
            t = next(t for t in params["distill"]["teachers"] if t.get("model") == model)
            want = int(t.get("concurrency", 1))
            need = want * (int(t.get("max_tokens", 4096)) + PROMPT_TOKENS)
            have = fit.sequences * fit.max_len
            if have < need:
                out.problems.append(
                    Problem(
                        "cluster.teacher_gpus",
                        f"{model} on {fit.tp} GPU(s) keeps {fit.kv_gib:.1f} GiB of KV cache per "
                        f"GPU: {have:.0f} tokens, under the {want} requests in flight x "
                        f"{t.get('max_tokens')} + {PROMPT_TOKENS} tokens ({need}); give it more "
                        "GPUs (or lower its concurrency)",
                    )
                )


def guard(stage: str, params: dict) -> Plan:
    """Each training stage's first step: the plan for this machine and this rank's world.
    Raises PreflightError listing every problem; returns the plan otherwise."""
    from cogevol.train.distributed import launched

    hw = env.detect_hardware()
    world = int(os.environ.get("WORLD_SIZE", "1")) if launched() else 1
    p = Plan(hw, ranks=world)
    full = plan(
        params,
        hw,
        check_env=True,
        launch_line=os.environ.get(env.LAUNCH_VAR),
        stages=(stage,),
        world_size=world,
    )
    # the placement is for the whole node; a launched rank sees only its own devices, so its
    # checks are the ones that hold per rank
    keep = [q for q in full.problems if not q.knob.startswith("cluster.")]
    if not launched() and hw.gpus_per_node > 1:
        keep.append(
            Problem(
                env.LAUNCH_VAR,
                f"{hw.gpus_per_node} GPUs are visible and no launcher started this stage: it "
                "would train as one process on one GPU; run `cogevol preflight --profile gpu` "
                "for the launch line",
            )
        )
    else:
        keep = [q for q in keep if q.knob != env.LAUNCH_VAR]  # we were launched: it worked
    rank_mem = full.memory.get("grpo rank" if stage.startswith("grpo") else "sft rank")
    local = int(os.environ.get("LOCAL_RANK", "0"))
    free = env.free_gib(local) if hw.gpus_per_node else None
    if rank_mem and free is not None:
        if free < 0.9 * rank_mem["total_gib"]:  # the estimate's own margin
            keep.append(
                Problem(
                    "cluster",
                    f"GPU {local} has {free:.0f} GiB free and a {stage} rank needs about "
                    f"{rank_mem['total_gib']:.0f}: another process holds it (a teacher or judge "
                    "server started on a training GPU?); see `cogevol preflight` for the layout",
                )
            )
    p.problems, p.notes, p.memory, p.grpo = keep, full.notes, full.memory, full.grpo
    if keep:
        raise PreflightError(
            f"{stage}: preflight refused the run ({len(keep)} problem(s)):\n"
            + "\n".join(f"  - {q}" for q in keep)
        )
    return p


def check_stage(stage: str, params: dict) -> None:
    """guard() for a stage script: on refusal, the problems on stderr and exit status 2."""
    import sys

    try:
        guard(stage, params)
    except PreflightError as e:
        print(str(e), file=sys.stderr)
        raise SystemExit(2) from None
