"""The scoring fingerprint: one hash of everything that decides a score.

Why: a score means something only with the settings that made it. Over HTTP the service scores
with its own params.yaml, on Ray every node runs its own copy of the code and of the CDN mirror
lock; without a check, `dvc exp run -S probe.harness.page_timeout_s=20` over `scoring.transport:
http` is scored with the server's 10 s and recorded as 20 s. So every Score carries the
fingerprint of the scorer that made it, `/health` and `/metrics` publish the service's, and the
HTTP and Ray transports refuse to score when theirs differs from the caller's (the rule, in
docs/scoring_service.md: scores are made with the caller's settings, or the call fails naming
the part that differs).

Three parts, each hashed on its own so that a mismatch can say which one moved:
- `settings`: the probe harness, the browser limits that decide verdicts (JS heap, load and
  action timeouts, whether a CDN mirror serves libraries), the term settings and weights, the
  slide rules and weights, the judge (model and sampling; not its URL, key or concurrency).
  Operational knobs (workers, instances, where Chromium lives, screenshots) are left out: they
  change how fast, not what.
- `cdn_lock`: infra/cdn/lock.json, the pinned library versions pages load.
- `code`: the package version and the content of the scoring code (probe, rewards, slides,
  browser, judge, scoring, the request classifier's lexicon).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, fields, is_dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from cogevol.core.errors import CogevolError

PACKAGE = Path(__file__).resolve().parents[1]
LOCK = PACKAGE.parent / "infra" / "cdn" / "lock.json"
CODE = (
    "probe",
    "rewards",
    "slides",
    "browser",
    "judge",
    "scoring",
    "traffic/classify.py",
    "config.py",
    "text.py",
)
# operational knobs: they decide how fast or where, never the verdict
OPERATIONAL = {
    "probe": {"screenshot"},
    "browser": {"instances", "close_timeout_s", "executable", "mirror"},
    "judge": {
        "base_url",
        "api_key_env",
        "timeout_s",
        "max_retries",
        "backoff_s",
        "concurrency",
        "rate_per_s",
        "cache_dir",
    },
    "slides": {"pages"},
}


def _digest(obj: Any) -> str:
    return hashlib.sha256(
        json.dumps(obj, sort_keys=True, default=str, ensure_ascii=False).encode()
    ).hexdigest()[:16]


def _plain(group: str, value: Any) -> Any:
    if is_dataclass(value):
        value = {f.name: getattr(value, f.name) for f in fields(value)}
    if isinstance(value, dict):
        return {
            k: (asdict(v) if is_dataclass(v) else v)
            for k, v in value.items()
            if k not in OPERATIONAL.get(group, ())
        }
    return value


def settings_part(settings) -> dict[str, Any]:
    """What of a cogevol.scoring.local.ScoringSettings decides a score, as plain JSON."""
    return {
        "probe": _plain("probe", settings.probe),
        "browser": {
            **_plain("browser", settings.browser),
            "mirror": settings.browser.mirror is not None,
        },
        "weights": settings.weights,
        "terms": _plain("terms", settings.terms),
        "slides": _plain("slides", settings.slides),
        "judge": _plain("judge", settings.judge),
    }


@lru_cache(maxsize=1)
def code_part() -> str:
    """The scoring code's version: the package version and the bytes of its source files."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        v = version("cogevol")
    except PackageNotFoundError:
        v = "unknown"
    h = hashlib.sha256(v.encode())
    for name in CODE:
        root = PACKAGE / name
        paths = (
            [root]
            if root.is_file()
            else sorted(p for p in root.rglob("*") if p.suffix in (".py", ".js", ".yaml", ".json"))
        )
        for p in paths:
            h.update(p.relative_to(PACKAGE).as_posix().encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def lock_part() -> str:
    return hashlib.sha256(LOCK.read_bytes()).hexdigest()[:16] if LOCK.exists() else "none"


def fingerprint_parts(settings) -> dict[str, str]:
    """{"settings", "cdn_lock", "code", "fingerprint"}: each part's hash and the whole one."""
    parts = {
        "settings": _digest(settings_part(settings)),
        "cdn_lock": lock_part(),
        "code": code_part(),
    }
    return {**parts, "fingerprint": _digest(parts)}


def fingerprint(settings) -> str:
    return fingerprint_parts(settings)["fingerprint"]


class FingerprintMismatch(CogevolError, RuntimeError):
    """A transport would score with settings other than the caller's (the message says which)."""


def check_same(mine: dict[str, str], theirs: dict[str, str] | None, where: str) -> None:
    """Raise FingerprintMismatch unless `theirs` (a transport's parts) matches `mine` (the
    caller's)."""
    if not theirs or "fingerprint" not in theirs:
        raise FingerprintMismatch(
            f"{where} publishes no scoring fingerprint (an older service?): refusing to score "
            "with settings that cannot be checked"
        )
    if theirs["fingerprint"] == mine["fingerprint"]:
        return
    differ = [k for k in ("settings", "cdn_lock", "code") if theirs.get(k) != mine.get(k)] or [
        "fingerprint"
    ]
    what = {
        "settings": "the scoring settings (probe, terms, weights, slides, judge in params.yaml)",
        "cdn_lock": "the CDN mirror lock (infra/cdn/lock.json)",
        "code": "the scoring code version",
        "fingerprint": "the fingerprint",
    }
    raise FingerprintMismatch(
        f"{where} scores with other settings than this run: {'; '.join(what[k] for k in differ)} "
        f"differ (caller {mine['fingerprint']}, {where} {theirs['fingerprint']}). Start it with "
        "this run's params.yaml and code, or score locally (scoring.transport: local)"
    )
