"""Scoring on a Ray cluster: scorer actors, each owning a browser pool, spread over the nodes.

Ray is the engine: it places the actors (`ray start --head` on one machine, `ray start
--address=HEAD:6379` on the others), ships the items and returns the scores. A batch is cut into
chunks of `chunk_items`, dealt round-robin to the actors (each bounds its own pages in flight),
and answered in order. When an actor dies mid-batch, Ray fails its pending chunks with
RayActorError; those chunks, and only those, are sent to another live actor (a replacement is
started when none is left), so no item is lost and none is scored twice. Same interface as
in-process `Scorers`. Every actor scores with the caller's settings (pickled to it); one whose
fingerprint still differs (another version of the code or of the CDN lock on its node) is
refused with FingerprintMismatch (cogevol.scoring.fingerprint).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace

from cogevol.scoring.base import ScorersBase, in_chunks
from cogevol.scoring.fingerprint import FingerprintMismatch, check_same, fingerprint_parts
from cogevol.scoring.local import Scorers, ScoringSettings
from cogevol.scoring.types import GroupScores, Score, ScoreGroup, ScoreItem

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RayConfig:
    """params.yaml: scoring.ray."""

    address: str = "auto"
    actors: int = 2
    workers_per_actor: int = 2
    chunk_items: int = 8
    max_attempts: int = 3


class ScorerActor:
    """One actor: in-process Scorers over its own browser pool (decorated with ray.remote on
    use)."""

    def __init__(self, settings: ScoringSettings):
        self.scorers = Scorers(settings)

    async def ready(self) -> dict:
        import os

        import ray

        await self.scorers.open()
        return {
            "node": ray.get_runtime_context().get_node_id(),
            "pid": os.getpid(),
            "fingerprint_parts": self.scorers.parts,
        }

    async def score(self, items: list[ScoreItem]) -> list[Score]:
        return await self.scorers.score(items)

    async def score_groups(self, groups: list[ScoreGroup]) -> list[GroupScores]:
        return await self.scorers.score_groups(groups)

    async def close(self) -> None:
        await self.scorers.aclose()


class RayScorers(ScorersBase):
    def __init__(self, settings: ScoringSettings | None = None, cfg: RayConfig | None = None):
        self.cfg = cfg or RayConfig()
        self.settings = replace(settings or ScoringSettings(), workers=self.cfg.workers_per_actor)
        # the caller's: every actor must score with these
        self.parts = fingerprint_parts(self.settings)
        # pages in flight over the cluster
        self.capacity = self.cfg.actors * self.cfg.workers_per_actor
        self.actors: list = []
        self.placement: list[dict] = []  # per actor: node id and pid (what `ready` answered)
        self._started_ray = False
        self._lock: asyncio.Lock | None = None
        self._remote = None
        self._dealt = 0  # chunks dealt so far (round-robin)

    async def open(self) -> None:
        import ray

        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self.actors:
                return
            if not ray.is_initialized():
                address = None if self.cfg.address == "local" else self.cfg.address
                ray.init(address=address, log_to_driver=False, configure_logging=False)
                self._started_ray = True
            self._remote = ray.remote(ScorerActor).options(
                num_cpus=self.cfg.workers_per_actor, scheduling_strategy="SPREAD", max_restarts=0
            )
            actors = [self._remote.remote(self.settings) for _ in range(self.cfg.actors)]
            self.placement = list(await asyncio.gather(*(a.ready.remote() for a in actors)))
            try:
                for p in self.placement:
                    self._check(p)
            except FingerprintMismatch:
                for a in actors:
                    ray.kill(a)
                raise
            self.actors = actors
            log.info(
                "ray scoring: %d actors on %d node(s), %d pages in flight",
                len(actors),
                len({p["node"] for p in self.placement}),
                self.capacity,
            )

    def _check(self, placement: dict) -> None:
        """An actor scores with the caller's settings (they are shipped to it), but with its
        node's code and CDN lock: refuse one whose fingerprint is not the caller's."""
        check_same(
            self.parts,
            placement.get("fingerprint_parts"),
            f"the Ray actor on node {placement.get('node', '?')}",
        )

    async def aclose(self) -> None:
        import ray

        for a in self.actors:
            try:
                await a.close.remote()
            except ray.exceptions.RayActorError:
                pass  # already gone
            ray.kill(a)
        self.actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False

    async def _stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        await self.open()
        async for pair in in_chunks(items, self.cfg.chunk_items, self._chunk):
            yield pair

    async def score_groups(self, groups: Sequence[ScoreGroup]) -> list[GroupScores]:
        """Each group on one actor (its judges compare the screenshots that actor took), the
        groups dealt round-robin; a group whose actor dies is moved like a chunk."""
        await self.open()

        async def one(g: ScoreGroup) -> GroupScores:
            out = await self._chunk([g], "score_groups")
            if isinstance(out[0], GroupScores):
                return out[0]
            return GroupScores(out)  # no actor scored it: no verdicts

        return list(await asyncio.gather(*(one(g) for g in groups)))

    async def _chunk(self, items: list, method: str = "score") -> list:
        """Score one chunk (items, or groups with `method` score_groups), moving it to another
        actor when its actor dies."""
        import ray

        why = ""
        n, self._dealt = self._dealt, self._dealt + 1  # round-robin over the live actors
        for attempt in range(self.cfg.max_attempts):
            actor = await self._actor(n + attempt)
            try:
                return await getattr(actor, method).remote(items)
            except ray.exceptions.RayActorError as e:
                why = f"{type(e).__name__}: {str(e).splitlines()[0][:200]}"
                log.warning(
                    "ray scoring: an actor died with %d items in hand; "
                    "retrying them on another (%s)",
                    len(items),
                    why,
                )
                if actor in self.actors:
                    self.actors.remove(actor)
        why = f"ray: no actor scored it in {self.cfg.max_attempts} attempts ({why})"
        return [
            Score.no_verdict(it.modality, why)
            for it in (items[0].items() if method == "score_groups" else items)
        ]

    async def _actor(self, n: int):
        """The n-th live actor (round-robin), starting a replacement when none is left."""
        if not self.actors:
            log.warning("ray scoring: no live actor; starting a replacement")
            actor = self._remote.remote(self.settings)
            self._check(await actor.ready.remote())
            self.actors.append(actor)
        return self.actors[n % len(self.actors)]
