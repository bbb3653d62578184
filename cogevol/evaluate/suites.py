"""Evaluation suites: one loader for our suites (data/eval/*.jsonl) and outside ones.

Our format, one JSON object per line (docs/evaluation.md):
  id        unique within the suite
  kind      html | slide
  category  html: game, 3d, simulation, learning, dataviz, tool, code; slides: a subject
  prompt    the request, as a user would write it
  lang      optional language code
WebGen-Bench rows (`instruction`, `Category` with a `primary_category`) load through the same
function as html items in category `webgen/<primary category>`.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

from cogevol.core.errors import CogevolError


@dataclass(frozen=True)
class SuiteItem:
    id: str
    kind: str  # html | slide
    category: str
    prompt: str
    suite: str = ""
    lang: str = ""
    # the request's checklist as JSON (planned by evaluate, cogevol.checklist.planner)
    checklist: str = ""


class SuiteError(CogevolError, ValueError):
    """A suite file that cannot be loaded (the message names the line and field)."""


def load_suite(path: str | Path, limit: int | None = None) -> list[SuiteItem]:
    path = Path(path)
    if not path.exists():
        raise SuiteError(f"{path}: no such suite")
    name = path.stem
    items, seen = [], set()
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
        except json.JSONDecodeError as e:
            raise SuiteError(f"{path}:{n}: not JSON ({e.msg})") from None
        item = _webgen(r, name) if "instruction" in r else _ours(r, name, f"{path}:{n}")
        if item.id in seen:
            raise SuiteError(f"{path}:{n}: duplicate id {item.id!r}")
        seen.add(item.id)
        items.append(item)
        if limit and len(items) >= limit:
            break
    return items


def _ours(r: dict, suite: str, where: str) -> SuiteItem:
    missing = [k for k in ("id", "kind", "category", "prompt") if not r.get(k)]
    if missing:
        raise SuiteError(f"{where}: missing {', '.join(missing)}")
    if r["kind"] not in ("html", "slide"):
        raise SuiteError(f"{where}: kind must be html or slide, got {r['kind']!r}")
    return SuiteItem(
        str(r["id"]), r["kind"], str(r["category"]), str(r["prompt"]), suite, str(r.get("lang", ""))
    )


def _webgen(r: dict, suite: str) -> SuiteItem:
    cat = r.get("Category")
    if isinstance(cat, str):  # the public file stores a Python dict literal
        try:
            cat = ast.literal_eval(cat)
        except (ValueError, SyntaxError):
            cat = {}
    primary = (cat or {}).get("primary_category", "other") if isinstance(cat, dict) else "other"
    return SuiteItem(
        f"webgen-{r.get('id')}",
        "html",
        f"webgen/{primary.lower().replace(' ', '_')}",
        str(r["instruction"]),
        suite,
        "en",
    )
