"""What every scoring backend shares: `async with`, `score` and `score_one` over the backend's
`stream`, and fanning a batch out in chunks that are answered in order."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from cogevol.scoring.types import Score, ScoreItem


class ScorersBase:
    """Subclasses provide `open`, `aclose` and `stream(items) -> (index, Score)` as items finish."""

    async def open(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        raise NotImplementedError

    def stream(self, items: Sequence[ScoreItem]) -> AsyncIterator[tuple[int, Score]]:
        raise NotImplementedError

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


async def in_chunks(items: Sequence[ScoreItem], size: int,
                    run: Callable[[list[ScoreItem]], Awaitable[list[Score]]]) -> AsyncIterator[tuple[int, Score]]:
    """Run `run` on chunks of `size` items concurrently; yield (index, Score) a chunk at a time as
    chunks finish. Cancels what is left if the consumer stops early."""
    size = max(1, size)
    starts = range(0, len(items), size)

    async def one(start: int) -> tuple[int, list[Score]]:
        return start, await run(list(items[start:start + size]))

    tasks = [asyncio.ensure_future(one(s)) for s in starts]
    try:
        for fut in asyncio.as_completed(tasks):
            start, scores = await fut
            for j, s in enumerate(scores):
                yield start + j, s
    finally:
        for t in tasks:
            t.cancel()
