"""One source per setting: where a dataclass keeps a default for a params.yaml key, the two agree.

params.yaml holds every value and its comment; the dataclasses hold types, validation and the
defaults a library caller gets without params. A default that drifts from params.yaml means a
library user and a pipeline user run different settings without knowing it: this test names
each disagreement.
"""

import inspect
import re
from dataclasses import MISSING, fields, is_dataclass

import yaml

from cogevol.cli import build_parser
from cogevol.core.config import knob_comments
from cogevol.dag import NO_CLASS, configs
from cogevol.distill.teacher import TeacherConfig
from cogevol.rewards.html import DEFAULT_WEIGHTS
from cogevol.rewards.slide import DEFAULT_WEIGHTS as SLIDE_WEIGHTS
from tests.conftest import REPO

PARAMS = yaml.safe_load((REPO / "params.yaml").read_text())

# (path in params.yaml, dataclass), declared once in cogevol/dag.py; keys a class does not have
# are other code's (checked elsewhere)
PAIRS = sorted(configs().items())


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
                if f.name in t and f.name not in ("name", "source") and default(f) is not MISSING
                and not same(default(f), t[f.name]) for msg in [f"distill.teachers[{t['name']}].{f.name}: "
                                                                f"{default(f)!r} != {t[f.name]!r}"]]
    assert problems == [], "\n".join(problems)
    assert group("probe.weights") == DEFAULT_WEIGHTS and group("slides.weights") == SLIDE_WEIGHTS
    assert teachers == [] or all("replay" in m or "cache" in m for m in teachers), "\n".join(teachers)


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


def commented_fields(path: str, cls) -> list[str]:
    """Fields of `cls` that are params.yaml keys of `path` and still carry a comment in the class
    (on their line or on comment lines right above)."""
    src, _ = inspect.getsourcelines(cls)
    keys = {f.name for f in fields(cls)} & set(group(path))
    out = []
    for i, line in enumerate(src):
        m = re.match(r"    (\w+):", line)
        if m and m.group(1) in keys and ("  # " in line or src[i - 1].strip().startswith("#")):
            out.append(f"{path}.{m.group(1)} ({cls.__name__})")
    return out


def test_each_knob_is_explained_once_in_params_yaml():
    """A knob's comment lives in params.yaml only: its dataclass field has none (a second copy
    drifts), and the CLI's help is read from params.yaml (cogevol.core.config.knob_help)."""
    assert [m for path, cls in PAIRS for m in commented_fields(path, cls)] == []


def test_knob_comments_follow_nesting_and_feed_the_cli_help():
    comments = knob_comments(REPO / "params.yaml")
    assert comments["probe.harness.page_timeout_s"].startswith("driving budget")
    assert "dedup.workers" in comments and "probe.workers" in comments and "workers" not in comments
    probe = next(a for a in build_parser()._subparsers._group_actions[0].choices["probe"]._actions
                 if "--page-timeout" in a.option_strings)
    assert probe.help.startswith(comments["probe.harness.page_timeout_s"][:40].replace("%", "%%"))
    assert probe.help.endswith("(default: params.yaml probe.harness.page_timeout_s)")
