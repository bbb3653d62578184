"""The pipeline's stages, each declared once: its script, inputs, outputs, params groups and the
config classes that read them.

dvc.yaml is generated from these declarations (`python scripts/write_dvc_yaml.py`; a test fails
when the committed file differs), and so are the checks that rely on them: which params each
stage tracks (tests/test_dvc_deps.py), which dataclass holds each params group's defaults
(tests/test_params_single_source.py). A params group with operational knobs (workers,
concurrency, retries, cache dirs: how fast or through what a stage runs, never its results) is
tracked key by key without them, so turning one reruns nothing.

Adding a stage: its script under stages/, its params group in params.yaml, a `Stage` here and,
if it has one, its config class in CONFIGS; then regenerate dvc.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

# knobs that decide how fast or through what a stage runs, never its results
_ENDPOINT_OPS = ("api_key_env", "timeout_s", "max_retries", "backoff_s", "concurrency")
OPERATIONAL = frozenset(
    {
        "dedup.workers",
        "probe.workers",
        "evaluate.cache_dir",
        "grpo.reward_workers",
        *(f"judge.{k}" for k in (*_ENDPOINT_OPS, "rate_per_s", "cache_dir")),
        *(f"filter.judge.{k}" for k in (*_ENDPOINT_OPS, "cache_dir")),
        *(f"checklist.{k}" for k in (*_ENDPOINT_OPS, "cache_dir")),
        *(f"taxonomy.{k}" for k in (*_ENDPOINT_OPS, "rate_per_s", "cache_dir")),
    }
)

# the library every stage reads its params and writes its outputs through
_COMMON = ("cogevol/pipeline/stage_io.py", "cogevol/core/config.py", "cogevol/core/errors.py")
_LEXICONS = "cogevol/core/lexicons/__init__.py  # reads the lexicon files listed beside it"
# the request words the gate and the checklist read (below both the reward and the miner)
_GATE = (
    "cogevol/core/request_lexicon.py",
    "cogevol/core/lexicons/request.yaml",
    _LEXICONS,
    "cogevol/checklist",
    "cogevol/core/langid.py  # the request's and the page's language",
    "cogevol/taxonomy  # the request's task type: whether its page must change",
)
_SCORING = "metrics/scoring.json  # what decides a score (the `scoring` stage)"
_CDN = "infra/cdn/lock.json  # the library mirror's pinned versions"
_CHECKLIST_PARAMS = ("checklist",)
_SHARDS = "cogevol/core/shards.py  # a curated output is a file, or a Ray run's directory of parts"
# where curation runs (params.yaml `curation`: not a param, since every engine writes the same)
_CURATION = (
    "cogevol/pipeline/curation.py",
    "cogevol/raydata/session.py",
    "cogevol/raydata/chunks.py",
    _SHARDS,
)
_SHUFFLES = ("cogevol/raydata/exchange.py", "cogevol/core/hashing.py")
_CHUNK_COUNTS = "cogevol/pipeline/stage_counts.py  # a stage's counts, summed over a Ray run"
_STRATA = "cogevol/taxonomy/strata.py  # prompts drawn by L1 x L2 x difficulty (`draw`)"
_GRPO_DEPS = (
    "cogevol/train",
    _STRATA,
    "cogevol/preflight",
    "cogevol/core/problems.py  # what preflight and the batch arithmetic refuse, with the knob",
    "cogevol/core/text.py  # a reasoning model's thinking is skipped when its answer is read",
    _SHARDS,
    "cogevol/prompts.py",
    "cogevol/rewards",
    "cogevol/scoring",
    *_GATE,
    _CDN,
)


@dataclass(frozen=True)
class Stage:
    """One DVC stage. `deps` and `params` may carry a `  # comment` (written into dvc.yaml);
    a params entry is a group (tracked whole, or key by key without its OPERATIONAL knobs) or a
    single key. `plots` maps each plot file to its DVC options."""

    name: str
    args: str  # the script's arguments
    deps: tuple[str, ...]
    params: tuple[str, ...] = ()
    outs: tuple[str, ...] = ()
    uncached: tuple[str, ...] = ()  # outputs kept in git, not in DVC's cache (small, diffable)
    metrics: tuple[str, ...] = ()
    plots: dict[str, dict[str, str]] = field(default_factory=dict)
    launch: bool = False  # run under $COGEVOL_LAUNCH (accelerate / deepspeed on GPU profiles)
    comment: str = ""  # a comment above the stage's cmd

    @property
    def script(self) -> str:
        return f"stages/{self.name}.py"

    @property
    def cmd(self) -> str:
        prefix = "$COGEVOL_LAUNCH " if self.launch else ""
        return f"{prefix}python {self.script} {self.args}"

    def dep_paths(self) -> list[str]:
        return [_bare(d) for d in (self.script, *self.deps)]

    def tracked(self, params: dict) -> list[str]:
        """The params.yaml keys DVC tracks for this stage (groups expanded around their
        operational knobs)."""
        return [_bare(k) for p in self.params for k in _expand(_bare(p), params)]


def _bare(entry: str) -> str:
    return entry.split("#", 1)[0].strip()


def _expand(path: str, params: dict) -> Iterator[str]:
    """`path` whole when no operational knob lies under it, else its keys, each expanded."""
    if not any(o == path or o.startswith(path + ".") for o in OPERATIONAL):
        yield path
        return
    node = _node(params, path)
    for key, value in node.items():
        sub = f"{path}.{key}"
        if sub in OPERATIONAL:
            continue
        if isinstance(value, dict):
            yield from _expand(sub, params)
        else:
            yield sub


def _node(params: dict, path: str) -> Any:
    node = params
    for part in path.split("."):
        node = node[part]
    return node


def _bar(x: str, y: str, template: str) -> dict[str, str]:
    return {"x": x, "y": y, "template": template}


STAGES: tuple[Stage, ...] = (
    Stage(
        "mine",
        "--input data/raw/traffic --out data/mined --metrics metrics/mine.json",
        deps=(
            *_COMMON,
            "cogevol/traffic",
            "cogevol/core/request_lexicon.py  # the subcategories a request names",
            "cogevol/core/lexicons/request.yaml",
            _LEXICONS,
            "cogevol/core/text.py",
            "cogevol/core/langid.py  # a request's language when its log has no locale",
            *_CURATION,
            _CHUNK_COUNTS,
            *_SHUFFLES,
            "data/raw/traffic",
        ),
        params=("mine",),
        outs=("data/mined",),
        metrics=("metrics/mine.json",),
    ),
    Stage(
        "dedup",
        "--input data/mined/requests.jsonl --out data/curated/dedup --metrics metrics/dedup.json "
        "--plot metrics/dedup_group_sizes.csv",
        deps=(
            *_COMMON,
            "cogevol/dedup",
            "cogevol/core/parallel.py",
            "cogevol/core/text.py",
            *_CURATION,
            *_SHUFFLES,
            "cogevol/raydata/graph.py",
            "data/mined",
        ),
        params=("dedup",),
        outs=("data/curated/dedup",),
        metrics=("metrics/dedup.json",),
        plots={
            "metrics/dedup_group_sizes.csv": _bar("group_size", "groups", "bar_horizontal_sorted")
        },
    ),
    Stage(
        "filter",
        "--input data/curated/dedup/deduped.jsonl --out data/curated/prompts "
        "--metrics metrics/filter.json --plot metrics/filter_reasons.csv",
        deps=(
            *_COMMON,
            "cogevol/curate",
            "cogevol/core/parallel.py",
            "cogevol/dedup/verify.py  # the intent-clarity axis reuses its filler-word lists",
            "cogevol/llm/client.py  # method: llm (the endpoint schema, the one HTTP client "
            "and its cache)",
            "cogevol/llm/aclient.py",
            "cogevol/llm/cache.py",
            "cogevol/traffic/classify.py",
            "cogevol/traffic/pii.py",
            "cogevol/core/text.py",
            "cogevol/checklist  # each kept prompt's checklist is planned here",
            "cogevol/core/langid.py",
            "cogevol/taxonomy  # each kept prompt's task type, difficulty and language",
            "cogevol/core/request_lexicon.py",
            "cogevol/core/lexicons/request.yaml",
            _LEXICONS,
            "data/checklists/replay.jsonl  # checklist.source: replay",
            "cogevol/rewards/expects.py",
            "cogevol/core/lexicons/expects.yaml",
            *_CURATION,
            _CHUNK_COUNTS,
            "data/curated/dedup",
        ),
        params=("filter", "taxonomy", *_CHECKLIST_PARAMS),
        outs=("data/curated/prompts",),
        metrics=("metrics/filter.json",),
        plots={
            "metrics/filter_reasons.csv": _bar("count", "reason", "bar_horizontal"),
            "metrics/filter_strata.csv": _bar("prompts", "stratum", "bar_horizontal"),
        },
    ),
    Stage(
        "scoring",
        "--out metrics/scoring.json",
        deps=(
            *_COMMON,
            "cogevol/scoring",
            "cogevol/probe",
            "cogevol/rewards",
            "cogevol/slides",
            "cogevol/browser",
            "cogevol/judge",
            "cogevol/llm  # the endpoint client the judges use",
            *_GATE,
            "cogevol/core/text.py",
            "infra/cdn/lock.json",
        ),
        params=("probe", "slides", "judge"),
        uncached=("metrics/scoring.json",),
        comment="what decides a score, declared once: distill, both GRPO stages and evaluate "
        "depend on its\noutput instead of each listing the probe, slides and judge params "
        "(cogevol/scoring/fingerprint.py)",
    ),
    Stage(
        "distill",
        "--input data/curated/prompts/prompts.jsonl data/mined/failures.jsonl --out data/sft "
        "--metrics metrics/distill.json --plot metrics/distill_scores.csv",
        deps=(
            *_COMMON,
            "cogevol/distill",
            _STRATA,
            _SHARDS,
            "cogevol/probe",
            "cogevol/browser",
            "cogevol/slides",
            "cogevol/rewards",
            "cogevol/scoring",
            *_GATE,
            _CDN,
            "cogevol/judge",
            "cogevol/llm  # the endpoint client the judges use",
            "cogevol/core/text.py",
            "cogevol/prompts.py",
            "data/curated/prompts",
            "data/mined/failures.jsonl",
            "data/teachers/replay.jsonl",
            _SCORING,
        ),
        params=("distill",),
        outs=("data/sft",),
        metrics=("metrics/distill.json",),
        plots={"metrics/distill_scores.csv": _bar("candidates", "bin", "bar_horizontal")},
    ),
    Stage(
        "sft",
        "--input data/sft/train data/curated/prompts/prompts.jsonl --out models/sft "
        "--metrics metrics/sft.json --plot metrics/sft_loss.csv",
        deps=(
            *_COMMON,
            "cogevol/train",
            _STRATA,
            "cogevol/preflight",
            "cogevol/core/problems.py",
            _SHARDS,
            "cogevol/prompts.py",
            "infra/deepspeed",
            "data/sft",
            "data/curated/prompts",
        ),
        params=("model", "train", "sft"),
        outs=("models/sft",),
        metrics=("metrics/sft.json",),
        plots={"metrics/sft_loss.csv": {"x": "step", "y": "loss"}},
        launch=True,
    ),
    Stage(
        "grpo_slide",
        "--input models/sft data/curated/prompts/prompts.jsonl --out models/grpo_slide "
        "--metrics metrics/grpo_slide.json --plot metrics/grpo_slide_reward.csv",
        deps=(
            "stages/grpo.py",
            *_COMMON,
            *_GRPO_DEPS,
            "cogevol/slides",
            "cogevol/probe",
            "cogevol/browser",
            "cogevol/judge",
            "cogevol/llm  # the endpoint client the judges use",
            "infra/deepspeed",
            "models/sft",
            "data/curated/prompts",
            _SCORING,
        ),
        params=("model", "train", "grpo"),
        outs=("models/grpo_slide",),
        metrics=("metrics/grpo_slide.json",),
        plots={"metrics/grpo_slide_reward.csv": {"x": "step", "y": "reward"}},
        launch=True,
    ),
    Stage(
        "grpo_html",
        "--input models/grpo_slide data/curated/prompts/prompts.jsonl --out models/grpo_html "
        "--metrics metrics/grpo_html.json --plot metrics/grpo_html_reward.csv",
        deps=(
            "stages/grpo.py",
            *_COMMON,
            *_GRPO_DEPS,
            "cogevol/probe",
            "cogevol/slides  # the scorers hold both rewards",
            "cogevol/browser",
            "cogevol/judge",
            "cogevol/llm  # the endpoint client the judges use",
            "infra/deepspeed",
            "models/grpo_slide",
            "data/curated/prompts",
            _SCORING,
        ),
        params=("model", "train", "grpo"),
        outs=("models/grpo_html",),
        metrics=("metrics/grpo_html.json",),
        plots={"metrics/grpo_html_reward.csv": {"x": "step", "y": "reward"}},
        launch=True,
    ),
    Stage(
        "evaluate",
        "--out reports/eval --metrics metrics/evaluate.json --plot metrics/eval_overall.csv",
        deps=(
            *_COMMON,
            "cogevol/evaluate",
            "cogevol/taxonomy  # the score per L2 domain, difficulty and language",
            _SHARDS,
            "cogevol/rewards",
            "cogevol/scoring",
            *_GATE,
            _CDN,
            "cogevol/slides",
            "cogevol/probe",
            "cogevol/browser",
            "cogevol/judge",
            "cogevol/llm  # the endpoint client the judges use",
            "cogevol/core/text.py",
            "cogevol/prompts.py",
            "cogevol/train/data.py  # reads the reference row",
            "cogevol/train/packaged.py  # @smollm2-135m systems",
            "data/eval",
            "data/checklists/replay.jsonl  # checklist.source: replay (each request's checklist)",
            "data/sft  # the reference row",
            "models/sft",
            "models/grpo_slide",
            "models/grpo_html",
            "metrics/grpo_slide_reward.csv  # reward per step, shown on the evaluate run",
            "metrics/grpo_html_reward.csv",
            _SCORING,
        ),
        params=("evaluate", *_CHECKLIST_PARAMS, "model.base"),
        outs=("reports/eval",),
        metrics=("metrics/evaluate.json",),
        plots={"metrics/eval_overall.csv": _bar("overall", "system", "bar_horizontal")},
    ),
)


def stage(name: str) -> Stage:
    return next(s for s in STAGES if s.name == name)


HEADER = """\
# GENERATED from cogevol/dag.py by `python scripts/write_dvc_yaml.py`: edit the
# declarations there, not this file (tests/test_dag.py fails when the two differ).
# Stages run `python stages/<name>.py`; `make repro` puts .venv/bin first on PATH (or activate
# .venv yourself). Knobs live in params.yaml, one group per stage.
# The `scoring` group (where the rewards run: local, http, ray) is deliberately not a param of any
# stage: every transport gives the same verdicts (tests/scoring), so moving scoring reruns nothing.
# What decides a score (probe, slides, judge params; the scoring code; the CDN lock) is declared
# once, by the `scoring` stage: the stages that score depend on its output, metrics/scoring.json.
# Groups with operational knobs (workers, concurrency, retries, cache dirs) are listed key by key
# without them (cogevol.dag.OPERATIONAL).
"""


def dvc_yaml(params: dict) -> str:
    """dvc.yaml's text for STAGES, with `params` (params.yaml) to expand the groups."""
    out = [HEADER, "stages:"]
    for st in STAGES:
        out.append(f"  {st.name}:")
        if st.comment:
            out += [f"    # {line}" for line in st.comment.splitlines()]
        out += _folded("cmd", st.cmd)
        out.append("    deps:")
        out += [f"      - {d}" for d in (st.script, *st.deps)]
        out.append("    params:")
        out += [f"      - {p}" for p in st.tracked(params)]
        if st.outs or st.uncached:
            out.append("    outs:")
            out += [f"      - {o}" for o in st.outs]
            out += [f"      - {o}:\n          cache: false" for o in st.uncached]
        if st.metrics:
            out.append("    metrics:")
            out += [f"      - {m}:\n          cache: false" for m in st.metrics]
        if st.plots:
            out.append("    plots:")
            for path, opts in st.plots.items():
                out.append(f"      - {path}:")
                out += [f"          {k}: {v}" for k, v in opts.items()]
                out.append("          cache: false")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def _folded(key: str, text: str, width: int = 100) -> list[str]:
    """`key: text` on one line, or as a folded block (`>-`) wrapped at `width`."""
    if len(f"    {key}: {text}") <= width:
        return [f"    {key}: {text}"]
    lines, line = [], ""
    for word in text.split():
        if line and len(f"      {line} {word}") > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return [f"    {key}: >-", *(f"      {x}" for x in [*lines, line])]


def configs() -> dict[str, type]:
    """params.yaml group -> the dataclass that holds its defaults (tests/test_params_single_source
    checks the two agree). Imported here, not at module level, so reading the DAG costs nothing."""
    from cogevol.browser.pool import BrowserConfig
    from cogevol.checklist.planner import PlannerConfig
    from cogevol.curate.judge import FilterJudgeConfig
    from cogevol.curate.pipeline import FilterConfig
    from cogevol.dedup.pipeline import DedupConfig
    from cogevol.distill.pipeline import DistillConfig
    from cogevol.evaluate.ab import ABConfig
    from cogevol.evaluate.stage import EvalConfig
    from cogevol.judge.vlm import AnchorConfig, GroupPickConfig, JudgeConfig
    from cogevol.pipeline.curation import CurationConfig
    from cogevol.preflight.placement import ClusterConfig
    from cogevol.probe import ProbeConfig
    from cogevol.raydata.session import RayDataConfig
    from cogevol.rewards.html import TermSettings
    from cogevol.scoring.ray_transport import RayConfig
    from cogevol.scoring.service import ServeConfig
    from cogevol.scoring.transports import ScoringConfig
    from cogevol.slides.rules import RuleConfig
    from cogevol.taxonomy.classify import TaxonomyConfig
    from cogevol.traffic.mine import MineConfig
    from cogevol.train.config import (
        AtcSettings,
        GRPOSettings,
        LoraSettings,
        ModelConfig,
        SFTSettings,
        TinyModelConfig,
        TrainConfig,
    )

    return {
        "mine": MineConfig,
        "dedup": DedupConfig,
        "filter": FilterConfig,
        "filter.judge": FilterJudgeConfig,
        "curation": CurationConfig,
        "cluster": ClusterConfig,
        "curation.ray": RayDataConfig,
        "checklist": PlannerConfig,
        "taxonomy": TaxonomyConfig,
        "probe.harness": ProbeConfig,
        "probe.browser": BrowserConfig,
        "probe.terms": TermSettings,
        "scoring": ScoringConfig,
        "scoring.serve": ServeConfig,
        "scoring.ray": RayConfig,
        "slides.rules": RuleConfig,
        "judge": JudgeConfig,
        "judge.group_pick": GroupPickConfig,
        "judge.anchor": AnchorConfig,
        "distill": DistillConfig,
        "model": ModelConfig,
        "model.tiny": TinyModelConfig,
        "train": TrainConfig,
        "sft": SFTSettings,
        "grpo": GRPOSettings,
        "grpo.atc": AtcSettings,
        "grpo.lora": LoraSettings,
        "evaluate": EvalConfig,
        "evaluate.ab": ABConfig,
    }


# params groups with no dataclass of their own, and why
NO_CLASS = {
    "probe": "a container: probe.workers is read by ScoringSettings.from_params; its sub-groups "
    "have classes",
    "probe.weights": "a weight table, loaded strictly against cogevol.rewards.html.DEFAULT_WEIGHTS",
    "slides": "a container: cogevol.rewards.slide.settings reads it; its sub-groups are checked",
    "slides.weights": "a weight table, loaded strictly against "
    "cogevol.rewards.slide.DEFAULT_WEIGHTS",
    "slides.rules.weights": "the rule engine's weight table: RuleConfig.weights is checked with "
    "slides.rules",
    "judge.extra_body": "free-form: merged into every judge request body",
    "filter.judge.extra_body": "free-form: merged into every filter judge request body",
    "checklist.extra_body": "free-form: merged into every planner request body",
    "taxonomy.extra_body": "free-form: merged into every taxonomy classifier request body",
    "evaluate.vllm": "free-form: vLLM engine arguments (evaluate.generator: vllm)",
    "evaluate.grpo_curves": "a map of stage -> plot file: EvalConfig.grpo_curves is checked with "
    "evaluate",
}
