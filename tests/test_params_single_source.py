"""One source per setting: where a dataclass keeps a default for a params.yaml key, the two agree.

params.yaml holds every value and its comment; the dataclasses hold types, validation and the
defaults a library caller gets without params. A default that drifts from params.yaml means a
library user and a pipeline user run different settings without knowing it: this test names
each disagreement.
"""

from dataclasses import MISSING, fields, is_dataclass

import yaml

from cogevol.browser.pool import BrowserConfig
from cogevol.curate.pipeline import FilterConfig
from cogevol.dedup.pipeline import DedupConfig
from cogevol.distill.pipeline import DistillConfig
from cogevol.distill.teacher import TeacherConfig
from cogevol.evaluate.stage import EvalConfig
from cogevol.judge.client import EndpointConfig
from cogevol.judge.vlm import JudgeConfig
from cogevol.probe import ProbeConfig
from cogevol.rewards.checklist_planner import PlannerConfig
from cogevol.rewards.html import DEFAULT_WEIGHTS, TermSettings
from cogevol.rewards.slide import DEFAULT_WEIGHTS as SLIDE_WEIGHTS
from cogevol.scoring.backends import ScoringConfig
from cogevol.scoring.ray_backend import RayConfig
from cogevol.scoring.service import ServeConfig
from cogevol.slides.rules import RuleConfig
from cogevol.traffic.mine import MineConfig
from cogevol.train.config import (
    GRPOSettings,
    ModelConfig,
    SFTSettings,
    TinyModelConfig,
    TrainConfig,
)
from tests.conftest import REPO

PARAMS = yaml.safe_load((REPO / "params.yaml").read_text())

# (path in params.yaml, dataclass); keys a class does not have are other code's (checked elsewhere)
PAIRS = [
    ("mine", MineConfig), ("dedup", DedupConfig), ("probe.harness", ProbeConfig), ("probe.browser", BrowserConfig),
    ("probe.terms", TermSettings), ("scoring", ScoringConfig), ("scoring.serve", ServeConfig), ("scoring.ray", RayConfig),
    ("slides.rules", RuleConfig), ("judge", JudgeConfig), ("distill", DistillConfig), ("model", ModelConfig),
    ("train", TrainConfig), ("sft", SFTSettings), ("grpo", GRPOSettings), ("evaluate", EvalConfig),
    ("checklist", PlannerConfig), ("filter", FilterConfig), ("filter.judge", EndpointConfig),
    ("model.tiny", TinyModelConfig),
]


def group(path: str) -> dict:
    node = PARAMS
    for part in path.split("."):
        node = node[part]
    return node


def default(f):
    if f.default is not MISSING:
        return f.default
    if f.default_factory is not MISSING:
        return f.default_factory()
    return MISSING


def same(a, b) -> bool:
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return list(a) == list(b)
    return a == b


def disagreements(path: str, cls) -> list[str]:
    out = []
    for f in fields(cls):
        if f.name not in group(path):
            continue
        d, p = default(f), group(path)[f.name]
        if d is MISSING or is_dataclass(d) or d in ({}, []):  # sub-groups and lists have their own checks
            continue
        if not same(d, p):
            out.append(f"{path}.{f.name}: dataclass {d!r} != params.yaml {p!r}")
    return out


def test_dataclass_defaults_agree_with_params_yaml():
    problems = [msg for path, cls in PAIRS for msg in disagreements(path, cls)]
    teachers = [msg for t in group("distill")["teachers"] for f in fields(TeacherConfig)
                if f.name in t and f.name not in ("name", "backend") and default(f) is not MISSING
                and not same(default(f), t[f.name]) for msg in [f"distill.teachers[{t['name']}].{f.name}: "
                                                                f"{default(f)!r} != {t[f.name]!r}"]]
    assert problems == [], "\n".join(problems)
    assert group("probe.weights") == DEFAULT_WEIGHTS and group("slides.weights") == SLIDE_WEIGHTS
    assert teachers == [] or all("replay" in m or "cache" in m for m in teachers), "\n".join(teachers)


# groups with no dataclass of their own, and why
NO_CLASS = {
    "probe": "a container: probe.workers is read by ScoringSettings.from_params; its sub-groups have classes",
    "probe.weights": "a weight table, checked against cogevol.rewards.html.DEFAULT_WEIGHTS above",
    "slides": "a container: cogevol.rewards.slide.settings reads it; its sub-groups are checked",
    "slides.weights": "a weight table, checked against cogevol.rewards.slide.DEFAULT_WEIGHTS above",
    "slides.rules.weights": "the rule engine's weight table: RuleConfig.weights is checked with slides.rules",
    "judge.extra_body": "free-form: merged into every judge request body",
    "evaluate.grpo_curves": "a map of stage -> plot file: EvalConfig.grpo_curves is checked with evaluate",
}


def groups(node: dict, prefix: str = "") -> list[str]:
    out = []
    for k, v in node.items():
        if isinstance(v, dict):
            path = f"{prefix}{k}"
            out += [path, *groups(v, path + ".")]
    return out


def test_every_params_group_is_paired_with_its_dataclass_or_says_why_not():
    paired = {path for path, _ in PAIRS}
    assert sorted(set(groups(PARAMS)) - paired - set(NO_CLASS)) == []
