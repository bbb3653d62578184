"""An event loop in a daemon thread, for reward functions called synchronously by trainers.

TRL calls reward functions as plain functions, once per step; the rewards are async and keep a
browser pool (and judge connections) alive across steps, which needs one loop that outlives
every call.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


class BackgroundLoop:
    def __init__(self, name: str):
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True, name=name)
        self._thread.start()

    def run(self, coro: Coroutine) -> Any:
        """Run `coro` on the loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=5)


def last_message(messages: Any, role: str) -> str:
    """The content of the last `role` message of a conversation, or the text itself."""
    if isinstance(messages, list):
        return next((str(m.get("content", "")) for m in reversed(messages) if isinstance(m, dict) and m.get("role") == role), "")
    return messages if isinstance(messages, str) else str(messages or "")
