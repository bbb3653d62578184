"""Teacher sources: K candidate answers per prompt, from a live model or from a replay file.

`openai`: any OpenAI-compatible endpoint (a vLLM server from infra/vllm, or a hosted API), async
with a concurrency limit, a rate limit and retries (cogevol.llm.aclient). Every answer is
cached on disk under a key of teacher name, model, messages, sampling parameters and candidate
index, so a rerun or a run killed midway asks only what it has not been answered yet.
`replay`: answers read from a JSONL file (data/teachers/replay.jsonl in the embedded default:
outputs we wrote, since the CPU profile has no teacher model). Both give every candidate an
error string instead of raising, so one failed call costs one candidate.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from cogevol.core.config import from_dict
from cogevol.llm.client import EndpointConfig, EndpointError

log = logging.getLogger(__name__)
NOT_IN_REPLAY = "not in the replay file"


@dataclass(kw_only=True)
class TeacherConfig(EndpointConfig):
    """One teacher (params.yaml: distill.teachers[]): a replay file, or an OpenAI-compatible
    endpoint (the fields of cogevol.llm.client.EndpointConfig, with a teacher's defaults)."""

    name: str
    source: str = "replay"  # replay | openai
    k: int = 2  # candidates per prompt
    replay_path: str = "data/teachers/replay.jsonl"  # replay: the answers
    base_url: str = "http://127.0.0.1:8001/v1"  # openai: OpenAI-compatible root
    model: str = "Qwen/Qwen3-32B"
    api_key_env: str = "COGEVOL_TEACHER_API_KEY"  # NAME of the env var holding the key
    temperature: float = 0.8  # candidates differ by sampling
    max_tokens: int = 8192
    timeout_s: float = 300.0
    backoff_s: float = 2.0
    concurrency: int = 16  # requests in flight
    cache_dir: str = "data/cache/teacher"  # answers cached here (resume without repeated calls)

    @classmethod
    def from_params(cls, d: dict) -> TeacherConfig:
        try:
            return from_dict(cls, d)
        except KeyError as e:
            raise ValueError(f"teacher {d.get('name')!r}: {e.args[0]}") from None


@dataclass
class Candidate:
    teacher: str
    index: int
    response: str | None  # None when the teacher gave no answer
    error: str = ""
    meta: dict = field(default_factory=dict)


class ReplayTeacher:
    def __init__(self, cfg: TeacherConfig):
        self.cfg = cfg
        self._answers: dict[str, dict[int, str]] = {}
        path = Path(cfg.replay_path)
        if not path.exists():
            raise FileNotFoundError(f"teacher {cfg.name}: replay file {path} not found")
        with path.open(encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                try:
                    r = json.loads(line)
                except json.JSONDecodeError as e:
                    log.warning("%s:%d: skipped a malformed replay line (%s)", path, n, e.msg)
                    continue
                if r.get("teacher") == cfg.name:
                    self._answers.setdefault(r["prompt_id"], {})[int(r["candidate"])] = r[
                        "response"
                    ]

    def available(self) -> set[str] | None:
        """Prompt ids this teacher can answer (None: any)."""
        return set(self._answers)

    async def candidates(self, prompt_id: str, messages: list[dict]) -> list[Candidate]:
        got = self._answers.get(prompt_id, {})
        return [
            Candidate(self.cfg.name, k, got.get(k), "" if k in got else NOT_IN_REPLAY)
            for k in range(self.cfg.k)
        ]

    async def aclose(self) -> None:
        pass


class OpenAITeacher:
    def __init__(self, cfg: TeacherConfig, transport=None):
        from cogevol.llm.aclient import AsyncChatClient
        from cogevol.llm.cache import DiskCache

        self.cfg = cfg
        self.client = AsyncChatClient(cfg, cache=DiskCache(cfg.cache_dir), transport=transport)

    def available(self) -> set[str] | None:
        return None

    async def candidates(self, prompt_id: str, messages: list[dict]) -> list[Candidate]:
        async def one(k: int) -> Candidate:
            try:
                # the seed makes candidate k reproducible where the server honours it (vLLM does)
                text = await self.client.chat(
                    messages,
                    cache_parts={"teacher": self.cfg.name, "candidate": k},
                    extra_body={"seed": k},
                )
                return Candidate(self.cfg.name, k, text)
            except EndpointError as e:
                return Candidate(self.cfg.name, k, None, f"teacher endpoint: {e}")

        return list(await asyncio.gather(*(one(k) for k in range(self.cfg.k))))

    def endpoint_stats(self) -> dict:
        """The endpoint client's calls, retries and failures so far."""
        return self.client.stats.summary()

    async def aclose(self) -> None:
        await self.client.aclose()


def make_teacher(cfg: TeacherConfig, transport=None) -> ReplayTeacher | OpenAITeacher:
    if cfg.source == "replay":
        return ReplayTeacher(cfg)
    if cfg.source == "openai":
        return OpenAITeacher(cfg, transport=transport)
    raise ValueError(f"teacher {cfg.name}: unknown source {cfg.source!r} (replay | openai)")
