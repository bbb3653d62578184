"""Checklist planners behind one interface: the rules, an LLM on an OpenAI-compatible endpoint,
or a replay file of that LLM's frozen replies.

Why an LLM planner: the rules (cogevol.checklist.plan_rules) read the words a request
names in eight languages; an LLM reads what it means: that "a reset button" in a French request
is a button the page labels "Réinitialiser", that "dark gray theme" is styling and not a thing to
show, that "planets orbit the sun" names planets and a sun. Seed 003 (WebGrader) plans its flow
contracts from the request alone, once, then freezes the grader before RL; so do we: each
prompt's checklist is planned once (filter stage, evaluate suites), cached on disk, stored with
the prompt, and read at score time without a model call.

Every planner writes the same format (cogevol.checklist, docs/checklist.md). The LLM
gives the things to check; the weights and must-have flags are the format's conventions, set
here, so an LLM cannot move the gate. A reply is validated strictly; one that does not validate
is sent back with the error (`repair_attempts` times); a reply that still does not, or an
endpoint that stays unreachable after retries, falls back to the rules, with the reason in the
checklist's `note`: no prompt loses its checklist, and no fallback is silent.

Sources (params.yaml `checklist.source`):
- `rules`: the rules planner only.
- `replay`: the LLM's replies read from a JSONL file (data/checklists/replay.jsonl in the
  embedded default, which has no model), through the same validation; a request not in the file
  is planned by the rules, with that note.
- `openai`: any OpenAI-compatible endpoint (a vLLM server from infra/vllm, a hosted API), every
  reply cached under data/cache/checklists.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from cogevol.checklist import CHECKS, MAX_MENTIONS, Check, Checklist, lexicon, plan_rules
from cogevol.checklist.rules import dictated_words
from cogevol.core.request_lexicon import normalise
from cogevol.llm.client import EndpointConfig, EndpointError, parse_json_object

log = logging.getLogger(__name__)

LANGUAGES = ("en", "es", "fr", "de", "pt", "zh", "ja", "ko")
CONTROL_KINDS = ("range", "text", "select", "checkbox", "click")
ELEMENTS = ("chart", "table", "timeline", "map", "image")
KINDS = {
    "html": ("control", "label", "key", "count", "mentions", "code", "flow"),
    # `language` comes from the reply's own field
    "slide": ("slides", "element", "count", "mentions"),
}
NOT_IN_REPLAY = "not in the replay file"

SYSTEM_PROMPT = """You plan acceptance checks for a user's request, before anyone answers it. The \
answer will be {what}.
Derive the checks from the request alone: you never see an answer. A check is something the \
request itself names, that a browser can verify on the answer; do not invent requirements the \
request does not state.

Reply with one JSON object and nothing else:
{{"language": "<the request's language: en es fr de pt zh ja ko>", "checks": [<check>, ...]}}

The check kinds ({kinds}):
{kind_lines}
Each check may carry "cue": the words of the request it comes from.
Rules:
- A thing named once is one check.{rules}
- mentions are the subject matter: nouns the answer must show as text (planets, photosynthesis, \
"Revolución francesa" as one short phrase). Not verbs, adjectives, colours, themes, styling, \
layout, libraries, file names, or words about pages and interactivity (page, app, interactive, \
responsive, button).
- Write every value in the request's language and script, as the request writes it.
- At most {max_mentions} mentions; no other limit, but fewer precise checks beat many vague ones."""

KIND_LINES = {
    "control": (
        '- {"check": "control", "value": "range" | "text" | "select" | "checkbox" | "click"}: '
        "a control of that kind the request asks for and that must respond (slider: range; "
        "input box or text field: text; drop-down: select; checkbox: checkbox; button: click)"
    ),
    "label": (
        '- {"check": "label", "value": "<label>"}: '
        'a control the request names by its label or purpose, e.g. a "Start" button'
    ),
    "key": (
        '- {"check": "key", "value": "ArrowKeys" | "Space" | "WASD" | "Enter" | "<one key>"}: '
        "keys the request says control the page"
    ),
    "count": (
        '- {"check": "count", "value": "<noun>", "n": <2-100>}: a number of things the request '
        'asks for ("12 cards", "three cities"); not durations, sizes or speeds'
    ),
    "mentions": (
        '- {"check": "mentions", "value": "<word>", "aliases": ["<name>", ...]}: '
        "a thing the request names that the answer must show; aliases: its usual names in the "
        "other languages (en es fr de pt zh ja ko), so that an answer written in another language "
        "is read fairly"
    ),
    "code": (
        '- {"check": "code", "value": "<term>", "aliases": ["<name>", ...]}: '
        'what the request asks the code to use or compute ("use the Manhattan distance as the '
        'heuristic": manhattan); checked in the source, never a word the page must show'
    ),
    "flow": (
        '- {"check": "flow", "value": "<short name>", "steps": [<step>, ...], "expect": '
        "[<expectation>, ...]}: something the request asks a person to be able to do, as a "
        "script run on the page. Steps: "
        '{"do": "type", "into": "text" | "search", "text": "<text>"}, '
        '{"do": "fill", "text": "<text>"} (every empty field), '
        '{"do": "click", "label": "<add | delete | compute | start | search, or the label the '
        'page would show>", "or_key": "Enter"}, {"do": "press", "key": "<key>"}, '
        '{"do": "wait", "ms": <100-5000>}. Expectations after the steps: '
        '{"appears": "<text typed>"}, {"disappears": "<text typed>"}, {"changes": "text"}. '
        "At most 4 flows, 6 steps each"
    ),
    "slides": '- {"check": "slides", "n": <1-40>}: the number of slides the request asks for',
    "element": (
        '- {"check": "element", "value": "chart" | "table" | "timeline" | "map" | "image"}: '
        "an element a slide must hold"
    ),
}
WHAT = {
    "html": "one self-contained interactive HTML page",
    "slide": "a slide deck (JSON: slides with titles, text, bullets, charts, tables, images)",
}


RULES = {
    "html": (
        ' A button named by its purpose ("a reset button") is one label check with the label the '
        'page would show, in the request\'s language ("Reset", "Réinitialiser", "重置"); '
        "a button without a named purpose is a control check of kind click."
    ),
    "slide": (
        " Count slides only when the request gives their number; an element only when it names "
        "one (a chart, a table, a timeline, a map, a picture)."
    ),
}


def system_prompt(modality: str) -> str:
    kinds = KINDS[modality]
    return SYSTEM_PROMPT.format(
        what=WHAT[modality],
        kinds=", ".join(kinds),
        max_mentions=MAX_MENTIONS,
        kind_lines="\n".join(KIND_LINES[k] for k in kinds),
        rules=RULES[modality],
    )


def plan_messages(request: str, modality: str) -> list[dict]:
    return [
        {"role": "system", "content": system_prompt(modality)},
        {"role": "user", "content": request},
    ]


def plan_key(request: str, modality: str) -> str:
    """The replay file's key of a request: its modality and text (whitespace at the ends
    ignored)."""
    return hashlib.sha256(f"{modality}\n{(request or '').strip()}".encode()).hexdigest()[:16]


def _int(v, lo: int, hi: int, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise ValueError(f"{what}: n must be an integer {lo}-{hi}, not {v!r}")
    return v


_STEP_FIELDS = {
    "type": {"into", "text"},
    "fill": {"text"},
    "click": {"label", "or_key"},
    "press": {"key"},
    "wait": {"ms"},
}
_EXPECT_KEYS = ("appears", "disappears", "changes")


def _flow(c: dict, value: str, where: str, cue: str) -> Check:
    """A flow check from a reply, its steps and expectations validated against the grammar the
    probe runs (cogevol.probe.checklist_flows)."""
    steps, expect = c.get("steps"), c.get("expect")
    if not isinstance(steps, list) or not 1 <= len(steps) <= 6:
        raise ValueError(f"{where}: a flow needs 1-6 steps")
    if not isinstance(expect, list) or not 1 <= len(expect) <= 4:
        raise ValueError(f"{where}: a flow needs 1-4 expectations")
    for k, st in enumerate(steps):
        if not isinstance(st, dict) or st.get("do") not in _STEP_FIELDS:
            raise ValueError(f"{where}.steps[{k}]: do must be one of {', '.join(_STEP_FIELDS)}")
        extra = set(st) - {"do"} - _STEP_FIELDS[st["do"]]
        if extra:
            raise ValueError(f"{where}.steps[{k}]: unknown field(s) {sorted(extra)}")
        if st["do"] == "wait":
            _int(st.get("ms"), 100, 5000, f"{where}.steps[{k}] ms")
        if st["do"] in ("type", "fill") and not (
            isinstance(st.get("text"), str) and 1 <= len(st["text"]) <= 40
        ):
            raise ValueError(f"{where}.steps[{k}]: text must be 1-40 characters")
        if st["do"] == "type" and st.get("into", "text") not in ("text", "search"):
            raise ValueError(f"{where}.steps[{k}]: into must be text or search")
        if st["do"] == "click" and not (isinstance(st.get("label"), str) and st["label"].strip()):
            raise ValueError(f"{where}.steps[{k}]: a click names a label")
    for k, e in enumerate(expect):
        if not isinstance(e, dict) or len(e) != 1 or next(iter(e)) not in _EXPECT_KEYS:
            raise ValueError(f"{where}.expect[{k}]: one of {', '.join(_EXPECT_KEYS)}")
    if not 1 <= len(value) <= 40:
        raise ValueError(f"{where}: value must be 1-40 characters")
    return Check("flow", value, cue=cue or value, steps=tuple(steps), expect=tuple(expect))


def parse_plan(reply: str, modality: str, request: str = "", source: str = "llm") -> Checklist:
    """The checklist a planner's reply describes, validated strictly (ValueError says what is
    wrong); `source` says who wrote the reply (`llm`, or `hand` for a replay line a person wrote).

    Weights and must-have flags follow the rules planner's conventions: every check weighs 1,
    the mentions share a weight of 2, the mentions are the must-haves (the language is priced,
    never a must-have). With the `request`, the language check carries the words it writes for
    the page in another script (rules.dictated_words)."""
    obj = parse_json_object(reply)
    lang = obj.get("language")
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {' '.join(LANGUAGES)}, not {lang!r}")
    raw = obj.get("checks")
    if not isinstance(raw, list):
        raise ValueError("checks must be a list")
    allowed = KINDS[modality]
    checks: list[Check] = []
    for k, c in enumerate(raw):
        where = f"checks[{k}]"
        if not isinstance(c, dict):
            raise ValueError(f"{where} must be an object")
        extra = set(c) - {"check", "value", "n", "cue", "aliases", "steps", "expect"}
        if extra:
            raise ValueError(f"{where}: unknown field(s) {sorted(extra)}")
        kind, value, cue = c.get("check"), c.get("value", ""), str(c.get("cue") or "")[:80]
        if kind == "language":
            continue  # the reply's own `language` field decides it
        if kind not in allowed:
            raise ValueError(
                f"{where}: check must be one of {', '.join(allowed)} "
                f"for a {modality} request, not {kind!r}"
            )
        if not isinstance(value, str):
            raise ValueError(f"{where}: value must be a string")
        value = value.strip()
        if kind == "control" and value not in CONTROL_KINDS:
            raise ValueError(
                f"{where}: a control's value must be one of "
                f"{', '.join(CONTROL_KINDS)}, not {value!r}"
            )
        if kind == "element" and value not in ELEMENTS:
            raise ValueError(
                f"{where}: an element's value must be one of {', '.join(ELEMENTS)}, not {value!r}"
            )
        if kind == "key" and value not in {key for key, _ in lexicon().keys} and len(value) != 1:
            raise ValueError(
                f"{where}: a key's value must be ArrowKeys, Space, WASD, Enter or one key, "
                f"not {value!r}"
            )
        if kind in ("label", "mentions", "count") and not 1 <= len(value) <= 40:
            raise ValueError(f"{where}: value must be 1-40 characters")
        n = None
        if kind == "count":
            n = _int(c.get("n"), 2, 100, where)
        elif kind == "slides":
            n, value = _int(c.get("n"), 1, 40, where), ""
        elif c.get("n") is not None:
            raise ValueError(f"{where}: n belongs to count and slides checks only")
        if kind == "flow":
            checks.append(_flow(c, value, where, cue))
            continue
        if c.get("steps") or c.get("expect"):
            raise ValueError(f"{where}: steps and expect belong to flow checks only")
        aliases = c.get("aliases") or []
        if aliases and kind not in ("mentions", "code"):
            raise ValueError(f"{where}: aliases belong to mentions and code checks only")
        if (
            not isinstance(aliases, list)
            or len(aliases) > 16
            or not all(isinstance(a, str) and 1 <= len(a.strip()) <= 40 for a in aliases)
        ):
            raise ValueError(
                f"{where}: aliases must be a list of at most 16 names of 1-40 characters"
            )
        aliases = tuple(dict.fromkeys(a.strip() for a in aliases if a.strip() != value))
        checks.append(Check(kind, value, n=n, cue=cue or value, aliases=aliases))
    if sum(c.check == "flow" for c in checks) > 4:
        raise ValueError("at most 4 flows")
    mentions = [c for c in checks if c.check == "mentions"]
    if len(mentions) > MAX_MENTIONS:
        raise ValueError(f"at most {MAX_MENTIONS} mentions, not {len(mentions)}")
    # the words the request writes for the page in another script are read from the request
    # itself, whoever planned it: a page that copies them has chosen no language
    out = [
        Check(
            "language",
            lang,
            weight=1.0,
            cue=f"request written in {lang}",
            aliases=dictated_words(request, lang) if request else (),
        )
    ]
    seen: set[tuple] = set()
    for c in checks:
        key = (c.check, normalise(c.value), c.n)
        if key in seen:
            continue
        seen.add(key)
        out.append(
            replace(c, weight=round(2 / len(mentions), 4), must=True)
            if c.check == "mentions"
            else c
        )
    assert all(c.check in CHECKS for c in out)
    return Checklist(tuple(out), source, lang)


@dataclass(kw_only=True)
class PlannerConfig(EndpointConfig):
    """params.yaml `checklist`: which planner writes each prompt's checklist (module docstring),
    and for `openai` the endpoint (the fields of cogevol.llm.client.EndpointConfig)."""

    source: str = "replay"
    replay_path: str = "data/checklists/replay.jsonl"
    base_url: str = "http://127.0.0.1:8001/v1"
    model: str = "Qwen/Qwen3-32B"
    api_key_env: str = "COGEVOL_TEACHER_API_KEY"
    temperature: float = 0.0
    max_tokens: int = 1024
    timeout_s: float = 120.0
    concurrency: int = 16
    repair_attempts: int = 1
    cache_dir: str = "data/cache/checklists"

    def __post_init__(self) -> None:
        if self.source not in ("rules", "replay", "openai"):
            raise ValueError(
                f"checklist.source must be rules, replay or openai, not {self.source!r}"
            )


def planner_from_params(params: dict, rules_only: bool = False) -> PlannerConfig:
    """The planner params.yaml's `checklist` group names (strictly loaded); `rules_only`: the
    rules planner (benchmarks' baseline)."""
    from cogevol.core.config import from_dict

    return (
        PlannerConfig(source="rules")
        if rules_only
        else from_dict(PlannerConfig, params.get("checklist"))
    )


def _plain(x):
    """A flow step or expectation as the reply writes it (a plain dict), an alias as it is."""
    return dict(x) if isinstance(x, dict) else x


def replay_line(request: str, modality: str, plan: Checklist, author: str) -> dict:
    """A replay file's line for `plan`: the reply it parses from, in the reply's form (the
    language and the checks with their aliases and flow scripts, without the weights and flags
    the format sets), and its `author` (the planner model, or `hand`)."""
    checks = [
        {
            k: list(map(_plain, v)) if isinstance(v, tuple) else v
            for k, v in (
                ("check", c.check),
                ("value", c.value),
                ("n", c.n),
                ("cue", c.cue),
                ("aliases", c.aliases),
                ("steps", c.steps),
                ("expect", c.expect),
            )
            if v not in (None, "", ())
        }
        for c in plan.checks
        if c.check != "language"
    ]
    reply = json.dumps({"language": plan.language, "checks": checks}, ensure_ascii=False)
    return {
        "key": plan_key(request, modality),
        "modality": modality,
        "request": request,
        "reply": reply,
        "author": author,
    }


def read_replay(path: str | Path) -> dict[str, tuple[str, str]]:
    """plan_key -> (the reply, who wrote it), from a JSONL file of {"key", "modality", "request",
    "reply", "author"}. `author` is `hand` for a reply a person wrote to the planner's prompt
    (the plan's source is then `hand`, never `llm`), else the planner model that answered. A
    malformed line is skipped with a warning; the key is recomputed from modality and request
    when the line has both, so an edited request cannot keep a stale key."""
    out: dict[str, tuple[str, str]] = {}
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"checklist replay file {p} not found (checklist.replay_path)")
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            key = plan_key(r["request"], r["modality"]) if "request" in r else r["key"]
            reply = r["reply"]
            out[key] = (
                reply if isinstance(reply, str) else json.dumps(reply, ensure_ascii=False),
                "hand" if r.get("author") == "hand" else "llm",
            )
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            log.warning("%s:%d: skipped a malformed replay line (%s)", p, n, e)
    return out


def stored_plan(cfg: PlannerConfig, request: str, modality: str) -> Checklist | None:
    """The frozen plan of `request` when the replay file holds a valid one (source replay), else
    None: the rules plan it (`cogevol probe --request` without --checklist)."""
    if cfg.source != "replay" or not Path(cfg.replay_path).exists():
        return None
    hit = read_replay(cfg.replay_path).get(plan_key(request, modality))
    try:
        return parse_plan(hit[0], modality, request, hit[1]) if hit is not None else None
    except ValueError:
        return None


class ChecklistPlanner:
    """Plans checklists from one source; `stats` counts how each was planned (llm, hand for a
    hand-written replay line, rules, and each fallback's reason)."""

    def __init__(self, cfg: PlannerConfig, transport=None):
        self.cfg = cfg
        self.stats: Counter[str] = Counter()
        self._replay = read_replay(cfg.replay_path) if cfg.source == "replay" else None
        self._client = None
        if cfg.source == "openai":
            from cogevol.llm.aclient import AsyncChatClient
            from cogevol.llm.cache import DiskCache

            self._client = AsyncChatClient(cfg, cache=DiskCache(cfg.cache_dir), transport=transport)

    def _fallback(self, request: str, modality: str, why: str) -> Checklist:
        self.stats[f"rules ({why.split(':', 1)[0]})"] += 1
        return replace(plan_rules(request, modality), note=f"{why}; planned by the rules")

    async def plan(self, request: str, modality: str) -> Checklist:
        if modality not in KINDS:
            raise ValueError(f"modality must be html or slide, not {modality!r}")
        if self.cfg.source == "rules" or not (request or "").strip():
            self.stats["rules"] += 1
            return plan_rules(request, modality)
        if self._replay is not None:
            hit = self._replay.get(plan_key(request, modality))
            if hit is None:
                return self._fallback(request, modality, NOT_IN_REPLAY)
            try:
                plan = parse_plan(hit[0], modality, request, hit[1])
            except ValueError as e:
                return self._fallback(request, modality, f"replay reply rejected: {e}")
            self.stats[plan.source] += 1
            return plan
        return await self._ask(request, modality)

    async def _ask(self, request: str, modality: str) -> Checklist:
        messages = plan_messages(request, modality)
        for attempt in range(self.cfg.repair_attempts + 1):
            try:
                reply = await self._client.chat(
                    messages, json_mode=True, cache_parts={"repair": attempt}
                )
            except EndpointError as e:
                return self._fallback(request, modality, f"planner endpoint: {e}")
            try:
                plan = parse_plan(reply, modality, request)
                self.stats["llm"] += 1
                return plan
            except ValueError as e:
                err = str(e)
                messages = [
                    *messages,
                    {"role": "assistant", "content": reply},
                    {
                        "role": "user",
                        "content": f"That reply is not valid: {err}. "
                        "Reply with the corrected JSON object only.",
                    },
                ]
        return self._fallback(
            request,
            modality,
            f"planner reply invalid after {self.cfg.repair_attempts + 1} attempts: {err}",
        )

    async def plan_many(self, items: list[tuple[str, str]]) -> list[Checklist]:
        """(request, modality) pairs -> their checklists, in order; an identical pair is planned
        once."""
        from cogevol.core.progress import Progress

        unique = list(dict.fromkeys(items))
        progress = Progress("checklists: planned", total=len(unique), unit="requests")

        async def one(it: tuple[str, str]) -> Checklist:
            plan = await self.plan(*it)
            progress.update()
            return plan

        plans = dict(zip(unique, await asyncio.gather(*(one(it) for it in unique))))
        progress.done()
        return [plans[it] for it in items]

    def endpoint_stats(self) -> dict:
        """The endpoint client's calls, retries and failures so far ({} without one)."""
        return self._client.stats.summary() if self._client is not None else {}

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    @classmethod
    async def plan_json(
        cls, cfg: PlannerConfig, items: list[tuple[str, str]]
    ) -> tuple[list[str], dict[str, int]]:
        """From async code: each (request, modality)'s checklist as the JSON a ScoreItem carries,
        and how many were planned each way."""
        planner = cls(cfg)
        try:
            plans = await planner.plan_many(items)
        finally:
            await planner.aclose()
        return [json.dumps(p.to_json(), ensure_ascii=False) for p in plans], dict(planner.stats)


def plan_checklists(
    cfg: PlannerConfig, items: list[tuple[str, str]], transport=None
) -> tuple[list[Checklist], dict[str, int]]:
    """Plan every (request, modality) from `cfg`'s source, from synchronous code (stages):
    (checklists in order, how many each way)."""

    async def run() -> list[Checklist]:
        try:
            return await planner.plan_many(items)
        finally:
            await planner.aclose()

    planner = ChecklistPlanner(cfg, transport)
    plans = asyncio.run(run())
    return plans, dict(planner.stats)
