"""params.yaml access: one file holds every knob, one group per stage."""

from __future__ import annotations

import copy
import os
from dataclasses import MISSING, fields, is_dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from cogevol.core.errors import CogevolError

T = TypeVar("T")


# keys renamed so that one word means one thing ("backend" meant five): old -> new, per group;
# `teachers[]` / `systems[]` are the items of a list. A params file, a profile or a -S override
# that still uses an old key is refused with the new one named (check_renamed).
RENAMED = {
    "filter.backend": "filter.method",  # rules | llm: how requests are judged
    "curation.backend": "curation.engine",  # local | ray: what runs mine, dedup and filter
    "checklist.backend": "checklist.source",  # rules | replay | openai: where plans come from
    "taxonomy.backend": "taxonomy.source",  # rules | replay | openai: where labels come from
    "scoring.backend": "scoring.transport",  # local | http | ray: how items reach the scorers
    "distill.teachers[].backend": "distill.teachers[].source",  # replay | openai
    "evaluate.systems[].backend": "evaluate.systems[].source",  # local | openai
    # transformers | vllm: what generates the answers (an engine is curation's: local | ray)
    "evaluate.engine": "evaluate.generator",
    # twin | baseline: the counterfactual a control's response is judged against (a method is
    # the filter's: rules | llm)
    "probe.harness.method": "probe.harness.counterfactual",
}


class RenamedKey(CogevolError, KeyError):
    """A params key that has a new name; the message names it."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def renamed_message(old: str, new: str) -> str:
    return f"{old} is now {new}: rename the key (the values are the same)"


def check_renamed(params: dict, prefix: str = "") -> None:
    """Raise RenamedKey when `params` (a whole params file, or one group under `prefix`) uses a
    key that was renamed."""
    for key, value in (params or {}).items():
        dotted = f"{prefix}{key}"
        if dotted in RENAMED:
            raise RenamedKey(renamed_message(dotted, RENAMED[dotted]))
        if isinstance(value, dict):
            check_renamed(value, f"{dotted}.")
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, dict):
                    check_renamed(item, f"{dotted}[].")


def load_params(path: str | Path | None = None) -> dict:
    p = Path(path or os.environ.get("COGEVOL_PARAMS", "params.yaml"))
    if not p.exists():
        raise FileNotFoundError(
            f"{p}: params file not found (run from the repository root or set COGEVOL_PARAMS)"
        )
    params = yaml.safe_load(p.read_text(encoding="utf-8")) or {}
    check_renamed(params)
    return params


def stage_params(stage: str, path: str | Path | None = None) -> dict:
    params = load_params(path)
    if stage not in params:
        raise KeyError(f"params.yaml has no '{stage}' group")
    return params[stage] or {}


# the repository's params.yaml: the CLI's help reads the knobs' comments from it
_REPO_PARAMS = Path(__file__).resolve().parents[2] / "params.yaml"


def knob_comments(path: str | Path | None = None) -> dict[str, str]:
    """Every params.yaml key (dotted: probe.harness.page_timeout_s) -> its comment, the one place
    a knob is explained: the config dataclasses point here, and the CLI's help is read from here.
    Keys without a comment are left out; list items are not keys."""
    p = Path(path) if path else _REPO_PARAMS
    if not p.exists():
        return {}
    out: dict[str, str] = {}
    stack: list[tuple[int, str]] = []  # (indent, key) of the open mappings
    for line in p.read_text(encoding="utf-8").splitlines():
        body = line.lstrip()
        if not body or body.startswith(("#", "- ")):
            continue
        indent = len(line) - len(body)
        key, sep, rest = body.partition(":")
        if not sep or " " in key:
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        dotted = ".".join([k for _, k in stack] + [key])
        stack.append((indent, key))
        _, hash_, comment = rest.partition(" #")
        if hash_ and comment.strip():
            out[dotted] = comment.strip()
    return out


def knob_help(key: str, fallback: str = "") -> str:
    """The params.yaml comment of `key` for a CLI option's help (`fallback` when there is none,
    as on an install without the repository's params.yaml)."""
    return knob_comments().get(key, fallback)


PROFILES = Path(__file__).resolve().parents[2] / "infra" / "profiles"
EMBEDDED_PROFILES = ("embedded", "cpu", "")  # params.yaml as committed


def profile_path(profile: str) -> Path:
    """A profile name (infra/profiles/NAME.yaml) or a path to an overlay YAML."""
    return Path(profile) if profile.endswith((".yaml", ".yml")) else PROFILES / f"{profile}.yaml"


def profile_leaves(params: dict, overlay: dict, prefix: str = "") -> list[tuple[str, Any]]:
    """(dotted key, value) for each value an overlay sets: a dict recurses into a group,
    anything else replaces the value (a list, and a dict for a free-form map that params.yaml
    leaves empty, such as extra_body). A key that `params` does not have is refused: a typo must
    not silently add a dead knob. infra/profiles/apply.py turns these into DVC overrides."""
    if not prefix:
        check_renamed(overlay or {})
    out = []
    for k, v in (overlay or {}).items():
        key = f"{prefix}{k}"
        if not isinstance(params, dict) or k not in params:
            raise KeyError(f"{key}: not in params.yaml")
        if isinstance(v, dict) and isinstance(params[k], dict) and params[k]:
            out += profile_leaves(params[k], v, f"{key}.")
        else:
            out.append((key, v))
    return out


def merge_profile(params: dict, overlay: dict | None) -> dict:
    """`params` with a profile overlay (infra/profiles/*.yaml) merged into a new dict, leaf by
    leaf as profile_leaves reads it. Neither argument is modified."""
    out = copy.deepcopy(params)
    for key, value in profile_leaves(params, overlay or {}):
        *path, last = key.split(".")
        node = out
        for part in path:
            node = node[part]
        node[last] = copy.deepcopy(value)
    return out


def profile_overlays(profile: str, _seen: tuple[str, ...] = ()) -> list[dict]:
    """A profile's overlays in the order they apply: those of the profile it `extends` (and of
    that one's parent), then its own. A one-GPU profile states only what differs from gpu.yaml."""
    path = profile_path(profile)
    if str(path) in _seen:
        raise ValueError(f"profile {profile}: `extends` loops through {' -> '.join(_seen)}")
    overlay = dict(yaml.safe_load(path.read_text(encoding="utf-8")) or {})
    parent = overlay.pop("extends", None)
    chain = profile_overlays(parent, (*_seen, str(path))) if parent else []
    return [*chain, overlay]


def parse_overrides(overrides: list[str] | tuple[str, ...]) -> dict:
    """`key=value` strings in `dvc exp run -S` syntax (DVC's own parser, Hydra's grammar: 1e-6 is
    a number, 'text' and text are strings, true a bool, [a,b] a list) as one nested overlay."""
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    overlay: dict = {}
    for text in overrides:
        if "=" not in text:
            raise ValueError(f"override {text!r}: expected key=value, as dvc exp run -S takes")
        try:
            (o,) = OverridesParser.create().parse_overrides([text])
        except HydraException as e:
            raise ValueError(f"override {text!r}: {e}") from None
        *path, last = o.key_or_group.split(".")
        node = overlay
        for part in path:
            node = node.setdefault(part, {})
        node[last] = o.value()
    return overlay


def with_overrides(params: dict, overrides: list[str] | tuple[str, ...]) -> dict:
    """`params` with `-S key=value` overrides applied (a key params.yaml lacks is refused)."""
    return merge_profile(params, parse_overrides(overrides)) if overrides else params


def load_profile(profile: str | None, params_path: str | Path | None = None) -> dict:
    """params.yaml with a profile applied (embedded / cpu / None: params.yaml as it is), and
    the profiles it extends before it."""
    params = load_params(params_path)
    if profile is None or profile in EMBEDDED_PROFILES:
        return params
    for overlay in profile_overlays(profile):
        params = merge_profile(params, overlay)
    return params


class Weights(dict):
    """Reward weights that passed `check_weights`: every known term, each a number >= 0. Whoever
    holds one passes it on; it is never checked again (a scorer per page would otherwise redo
    the check its loader did)."""


def check_weights(weights: dict | None, known: dict, where: str) -> Weights | None:
    """`weights` loaded strictly: every key a known term (a misspelt weight would otherwise drop
    its term from the reward without a word), every weight a number >= 0, and every known term
    present, 0.0 where `weights` leaves it out (it takes no part). None stays None (the
    defaults); checked weights are returned as they are."""
    if weights is None or isinstance(weights, Weights):
        return weights
    unknown = sorted(set(weights) - set(known))
    if unknown:
        raise KeyError(f"{where}: unknown term(s) {unknown}; known: {sorted(known)}")
    bad = sorted(k for k, w in weights.items() if not isinstance(w, int | float) or w < 0)
    if bad:
        raise ValueError(f"{where}: weights must be numbers >= 0: {bad}")
    return Weights({k: float(weights.get(k, 0.0)) for k in known})


def from_dict(cls: type[T], data: dict[str, Any] | None) -> T:
    """Build dataclass `cls` from a params group, strictly: an unknown key (a typo) raises
    instead of silently running with a default, and a renamed one (RENAMED) names its new key.
    Nested dataclass fields accept dicts."""
    data = dict(data or {})
    known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - set(known))
    for key in unknown:
        for old, new in RENAMED.items():
            if old.rpartition(".")[2] == key and (field_name := new.rpartition(".")[2]) in known:
                raise RenamedKey(f"{cls.__name__}: " + renamed_message(key, field_name))
    if unknown:
        raise KeyError(f"{cls.__name__}: unknown key(s) {unknown}; known: {sorted(known)}")
    kwargs = {}
    for name, value in data.items():
        factory = known[name].default_factory
        if (
            isinstance(value, dict)
            and factory is not MISSING
            and is_dataclass(default := factory())
        ):
            value = from_dict(type(default), value)
        kwargs[name] = value
    return cls(**kwargs)
