"""What every scoring transport shares: `async with`, `stream`, `score` and `score_one` over the
transport's `_stream`, identical items scored once, and fanning a batch out in chunks that are
answered in order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import aclosing
from dataclasses import replace

from cogevol.scoring.types import GroupScores, Score, ScoreGroup, ScoreItem


class ScorersBase:
    """Subclasses provide `open`, `aclose` and `_stream(items) -> (index, Score)` as items finish
    (the items it gets are distinct)."""

    async def open(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        raise NotImplementedError

    def _stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        raise NotImplementedError

    async def stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        """(index, Score) for every item as it finishes: for progress on long batches.

        Identical items (same modality, text, request) are scored once and answered together: a
        verdict is a function of the item (seeded page randomness, a virtual clock), and repeats
        are common where it costs most, in GRPO groups whose rollouts coincide and in evaluations
        of checkpoints that answer alike. Each repeat gets its own copy of the Score."""
        twins: dict[ScoreItem, list[int]] = {}
        for k, item in enumerate(items):
            twins.setdefault(item, []).append(k)
        unique = list(twins)
        # a consumer that stops early cancels the rest
        async with aclosing(self._stream(unique)) as scored:
            async for j, score in scored:
                first, *rest = twins[unique[j]]
                yield first, score
                for k in rest:
                    yield k, replace(score)

    async def __aenter__(self):
        await self.open()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()

    async def score(self, items: Sequence[ScoreItem]) -> list[Score]:
        """One Score per item, in order."""
        out: list[Score | None] = [None] * len(items)
        async for k, s in self.stream(items):
            out[k] = s
        return out  # type: ignore[return-value]

    async def score_one(self, item: ScoreItem) -> Score:
        return (await self.score([item]))[0]

    async def score_groups(self, groups: Sequence[ScoreGroup]) -> list[GroupScores]:
        """Each group's Scores, in order. Here every item is scored on its own, in one batch;
        transports that can run the comparing judges (in process, Ray, the HTTP service) add
        them."""
        return split(groups, await self.score([it for g in groups for it in g.items()]))


def split(groups: Sequence[ScoreGroup], scores: Sequence[Score]) -> list[GroupScores]:
    """The flat Scores of `groups`' items, cut back into groups."""
    out, k = [], 0
    for g in groups:
        out.append(GroupScores(list(scores[k : k + len(g.texts)])))
        k += len(g.texts)
    return out


async def in_chunks(
    items: Sequence[ScoreItem], size: int, run: Callable[[list[ScoreItem]], Awaitable[list[Score]]]
) -> AsyncIterator[tuple[int, Score]]:
    """Run `run` on chunks of `size` items concurrently; yield (index, Score) a chunk at a time as
    chunks finish. Cancels what is left if the consumer stops early."""
    size = max(1, size)
    starts = range(0, len(items), size)

    async def one(start: int) -> tuple[int, list[Score]]:
        return start, await run(list(items[start : start + size]))

    tasks = [asyncio.ensure_future(one(s)) for s in starts]
    try:
        for fut in asyncio.as_completed(tasks):
            start, scores = await fut
            for j, s in enumerate(scores):
                yield start + j, s
    finally:
        for t in tasks:
            t.cancel()
