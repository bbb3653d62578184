"""The LLM task-type classifier of seed 004 §3.3 / A.7: one low-temperature pass per request,
the whole leaf list with its definitions in the prompt, a strict one-key JSON reply.

It classifies the task scenario, not the surface wording (a "comparison" word does not make an
A/B experiment); L1 and L2 are recovered from the tree, never asked. A reply whose label is not
exactly one of the 54 task types is sent back with the error (`repair_attempts` times, the seed
re-queries at most three times); a reply that still does not parse, or an endpoint that stays
unreachable after retries, leaves the request to the offline rules, with the reason counted.

Backends (params.yaml `taxonomy.source`): `openai` asks the teacher endpoint, every reply cached
on disk; `replay` reads the replies from a JSONL file of {"request", "reply"} (a request not in
it: the rules); `rules` never asks.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections import Counter
from pathlib import Path

from cogevol.llm.client import EndpointConfig, EndpointError, failure_cause, parse_json_object
from cogevol.taxonomy.tree import Taxonomy

log = logging.getLogger(__name__)

ROLE = """You classify requests for web pages (in any language, often mixed) into a fixed \
taxonomy of web-development task types. Look past the surface wording to the underlying task \
scenario: what the page is for and what its user does with it. The programming language, the \
libraries and the visual style a request mentions do not decide the type."""

INSTRUCTIONS = """Choose exactly one task type from the list. There is no "other" type and no \
multi-label answer: if several seem to fit, choose the one whose definition matches the main \
purpose of the page. Static types are pages whose content is fixed when they are built; dynamic \
types hold runtime interaction, data changes or continuous updates.
Reply with one JSON object on one line and nothing else: {"task_scenario": "<task type name, \
exactly as listed>"}"""


def system_prompt(tax: Taxonomy) -> str:
    """Role, the full leaf list (each with its domain and its sharpened definition), the
    instructions and the output contract (A.7.2's four blocks)."""
    lines = [f"- {leaf.name} [{leaf.l1} / {leaf.l2}]: {leaf.definition()}" for leaf in tax.leaves]
    return f"{ROLE}\n\nTask types:\n" + "\n".join(lines) + f"\n\n{INSTRUCTIONS}"


def request_key(request: str) -> str:
    """The replay file's key of a request: its text, whitespace at the ends ignored."""
    return hashlib.sha256((request or "").strip().encode()).hexdigest()[:16]


def parse_label(reply: str, tax: Taxonomy) -> str:
    """The task type a reply names, strictly: one JSON object whose `task_scenario` is one of the
    taxonomy's names (case and spacing forgiven, nothing else). ValueError says what is wrong."""
    obj = parse_json_object(reply)
    label = obj.get("task_scenario")
    if not isinstance(label, str):
        raise ValueError('the reply must be {"task_scenario": "<task type>"}')
    try:
        return tax.leaf(label).name
    except KeyError:
        raise ValueError(
            f"{label!r} is not one of the task types; use a name exactly as listed"
        ) from None


def read_replay(path: str | Path) -> dict[str, str]:
    """request_key -> reply, from a JSONL file of {"request", "reply"} (a malformed line is
    skipped with a warning)."""
    out: dict[str, str] = {}
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"taxonomy replay file {p} not found (taxonomy.replay_path)")
    for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            out[request_key(r["request"])] = (
                r["reply"] if isinstance(r["reply"], str) else json.dumps(r["reply"])
            )
        except (json.JSONDecodeError, KeyError, TypeError) as e:
            log.warning("%s:%d: skipped a malformed replay line (%s)", p, n, e)
    return out


class LLMClassifier:
    """Labels requests on the replay file or a live endpoint; `stats` counts llm answers and each
    kind of fallback. `classify_many` returns one leaf name or None (left to the rules) per
    request, in order."""

    def __init__(
        self,
        cfg: EndpointConfig,
        tax: Taxonomy,
        *,
        source: str,
        replay_path: str,
        cache_dir: str | None,
        repair_attempts: int,
        transport=None,
    ):
        self.cfg, self.tax, self.source = cfg, tax, source
        self.repair_attempts = repair_attempts
        self.stats: Counter[str] = Counter()
        self._replay = read_replay(replay_path) if source == "replay" else None
        self._client = None
        self._system = system_prompt(tax)
        if source == "openai":
            from cogevol.llm.aclient import AsyncChatClient
            from cogevol.llm.cache import DiskCache

            self._client = AsyncChatClient(
                cfg, cache=DiskCache(cache_dir) if cache_dir else None, transport=transport
            )

    def _fallback(self, why: str) -> None:
        self.stats[f"rules ({why})"] += 1

    async def one(self, request: str) -> str | None:
        if not (request or "").strip():
            self._fallback("empty request")
            return None
        if self._replay is not None:
            reply = self._replay.get(request_key(request))
            if reply is None:
                self._fallback("not in the replay file")
                return None
            try:
                label = parse_label(reply, self.tax)
            except ValueError:
                self._fallback("replay reply rejected")
                return None
            self.stats["llm"] += 1
            return label
        messages = [
            {"role": "system", "content": self._system},
            {"role": "user", "content": request},
        ]
        for attempt in range(self.repair_attempts + 1):
            try:
                reply = await self._client.chat(
                    messages, json_mode=True, cache_parts={"repair": attempt}
                )
            except EndpointError as e:
                log.warning("taxonomy classifier endpoint failed: %s", e)
                self._fallback(failure_cause(e))
                return None
            try:
                label = parse_label(reply, self.tax)
            except ValueError as e:
                messages = [
                    *messages,
                    {"role": "assistant", "content": reply},
                    {
                        "role": "user",
                        "content": f"Not valid: {e}. Reply with the JSON object only.",
                    },
                ]
                continue
            self.stats["llm"] += 1
            return label
        self._fallback("reply invalid after repairs")
        return None

    async def classify_many(self, requests: list[str]) -> list[str | None]:
        unique = list(dict.fromkeys(requests))
        labels = dict(zip(unique, await asyncio.gather(*(self.one(r) for r in unique))))
        return [labels[r] for r in requests]

    def endpoint_stats(self) -> dict:
        """The endpoint client's calls, retries and failures so far ({} without one)."""
        return self._client.stats.summary() if self._client is not None else {}

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
