"""`cogevol serve`: the rewards as an HTTP service any trainer can call (FastAPI on uvicorn).

Endpoints:
- GET /health: 200 once the browsers are up, 503 before and while draining; `fingerprint` (and
  `fingerprint_parts`): what decides this service's scores (cogevol.scoring.fingerprint).
- POST /score: {"items": [{"modality", "text", "request", "raw", "checklist"}]} ->
  {"scores": [Score]} in order, each with its `fingerprint`.
- POST /get_reward: OpenRLHF's remote reward format (cogevol.scoring.openrlhf).
- POST /score_group: {"groups": [{"modality", "request", "texts": [...]}]} ->
  {"groups": [{"scores": [...], "judge": {...}}]} in order: one prompt's rollouts together, for
  the judges that compare them (group pick, Visual Anchor); also OpenRLHF's, slime's and verl's
  bodies, grouped by prompt and answered flat (cogevol.scoring.group_formats).
- GET /metrics: Prometheus text (cogevol.scoring.service_metrics), the fingerprint as an info
  metric.

Settings: the service scores with its own params.yaml; a client (cogevol.scoring.http_client)
compares the fingerprint of its own settings with /health's and refuses to score when they
differ, so a run never records scores made with settings other than its own.

Behaviour under load: at most `max_queue` items are accepted and unfinished at once; a request
that does not fit is answered 429 with a Retry-After estimated from the recent rate, before any
work. Every item has a deadline from its arrival: past it the item gets no verdict (reward None,
with the reason), the rest of the batch is unaffected. Bodies over `max_body_mb` get 413,
batches over `max_items` 413, malformed bodies 422 naming the field. SIGTERM drains: the
listener closes, /health turns 503, requests in flight finish, then every Chromium is closed.
Auth: none by default (the service binds to loopback); when the env var named by
scoring.token_env is set, every request but /health needs `Authorization: Bearer <token>`.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
import os
import socket
import threading
import time
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Literal

import uvicorn
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from cogevol.core.config import from_dict
from cogevol.core.errors import CogevolError
from cogevol.scoring import group_formats, openrlhf
from cogevol.scoring.service_metrics import ServiceMetrics
from cogevol.scoring.types import GroupScores, Score, ScoreGroup, ScoreItem

log = logging.getLogger(__name__)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


@dataclass(frozen=True)
class ServeConfig:
    """params.yaml: scoring.serve."""

    host: str = "127.0.0.1"
    port: int = 8700
    max_queue: int = 256
    item_deadline_s: float = 120.0
    max_body_mb: float = 32.0
    max_items: int = 1024
    drain_s: float = 120.0


class ItemIn(BaseModel):
    modality: Literal["html", "slide"]
    text: str
    request: str = ""
    raw: bool = False
    checklist: str = ""


class ScoreRequest(BaseModel):
    items: list[ItemIn] = Field(min_length=1)


class Overloaded(CogevolError):
    def __init__(self, retry_after: int):
        self.retry_after = retry_after


class ScoringService:
    """Admission, deadlines and metrics around a set of scorers (any transport but http)."""

    def __init__(self, scorers, cfg: ServeConfig, workers: int = 1):
        self.scorers, self.cfg, self.workers = scorers, cfg, max(1, workers)
        # what decides its scores (cogevol.scoring.fingerprint)
        self.parts: dict[str, str] = dict(scorers.parts)
        self.metrics = ServiceMetrics(workers=self.workers, fingerprint=self.parts["fingerprint"])
        if hasattr(scorers, "judge_counts"):
            self.metrics.bind_judge(scorers.judge_counts)
        self.ready = False
        self.draining = False

    async def score(self, items: list[ScoreItem]) -> list[Score]:
        if self.metrics.pending + len(items) > self.cfg.max_queue:
            self.metrics.rejected.inc()
            raise Overloaded(self._retry_after(len(items)))
        self.metrics.pending += len(items)
        arrival = time.monotonic()
        try:
            return list(await asyncio.gather(*(self._one(it, arrival) for it in items)))
        finally:
            self.metrics.pending -= len(items)

    async def score_groups(self, groups: list[ScoreGroup]) -> list[GroupScores]:
        """Groups, admitted by their items; each group has `item_deadline_s` from arrival (its
        judges' rounds included); past it, its items get no verdict."""
        n = sum(len(g.texts) for g in groups)
        if self.metrics.pending + n > self.cfg.max_queue:
            self.metrics.rejected.inc()
            raise Overloaded(self._retry_after(n))
        self.metrics.pending += n
        arrival = time.monotonic()
        try:
            return list(await asyncio.gather(*(self._group(g, arrival) for g in groups)))
        finally:
            self.metrics.pending -= n

    async def _group(self, group: ScoreGroup, arrival: float) -> GroupScores:
        try:
            (out,) = await asyncio.wait_for(
                self.scorers.score_groups([group]), self.cfg.item_deadline_s
            )
        except asyncio.TimeoutError:
            why = f"deadline: no verdict for the group within {self.cfg.item_deadline_s:g} s"
            out = GroupScores([Score.no_verdict(group.modality, why) for _ in group.texts])
        for score in out.scores:
            score.fingerprint = self.parts["fingerprint"]
            self.metrics.observe(score, time.monotonic() - arrival)
        self.metrics.observe_group(out)
        return out

    async def _one(self, item: ScoreItem, arrival: float) -> Score:
        try:
            score = await asyncio.wait_for(self.scorers.score_one(item), self.cfg.item_deadline_s)
        except asyncio.TimeoutError:
            score = Score.no_verdict(
                item.modality, f"deadline: no verdict within {self.cfg.item_deadline_s:g} s"
            )
        score.fingerprint = self.parts["fingerprint"]
        self.metrics.observe(score, time.monotonic() - arrival)
        return score

    def _retry_after(self, n: int) -> int:
        """Seconds until about `n` items' worth of the queue has drained, at the recent rate."""
        rate = self.metrics.rate() or 0.5
        return int(
            min(60, max(1, math.ceil((self.metrics.pending + n - self.cfg.max_queue) / rate)))
        )


class _TooLarge(Exception):
    pass


class BodyLimit:
    """ASGI middleware: 413 for a body over `max_bytes`, declared or streamed."""

    def __init__(self, app, max_bytes: int):
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        declared = dict(scope["headers"]).get(b"content-length")
        too_large = JSONResponse(
            {"detail": f"request body over {self.max_bytes} bytes"}, status_code=413
        )
        if declared and declared.isdigit() and int(declared) > self.max_bytes:
            return await too_large(scope, receive, send)
        seen = 0

        async def limited():
            nonlocal seen
            msg = await receive()
            seen += len(msg.get("body", b""))
            if seen > self.max_bytes:
                raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await too_large(scope, receive, send)


def create_app(
    scorers, cfg: ServeConfig | None = None, token: str | None = None, workers: int = 1
) -> FastAPI:
    """The service over `scorers` (opened at startup, closed at shutdown). `token`: the bearer
    token every scoring request must carry (None: no auth)."""
    cfg = cfg or ServeConfig()
    service = ScoringService(scorers, cfg, workers)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await scorers.open()
        service.ready = True
        log.info("serve: ready (%d worker(s), queue %d items)", service.workers, cfg.max_queue)
        try:
            yield
        finally:
            service.ready, service.draining = False, True
            await scorers.aclose()
            log.info("serve: scorers closed")

    app = FastAPI(title="cogevol scoring", lifespan=lifespan)
    app.state.service = service
    app.add_middleware(BodyLimit, max_bytes=int(cfg.max_body_mb * 1024 * 1024))

    def authorised(request: Request) -> None:
        if token is None:
            return
        got = request.headers.get("authorization", "")
        if not hmac.compare_digest(got.encode(), f"Bearer {token}".encode()):
            raise HTTPException(
                401, "missing or wrong bearer token", headers={"WWW-Authenticate": "Bearer"}
            )

    async def run(items: list, score=None) -> list:
        """`items` scored by `score` (default: one by one), behind the service's admission."""
        if service.draining or not service.ready:
            raise HTTPException(
                503, "draining" if service.draining else "starting", headers={"Retry-After": "5"}
            )
        # a batch larger than the queue could never be admitted
        limit = min(cfg.max_items, cfg.max_queue)
        n = sum(len(getattr(i, "texts", (i,))) for i in items)
        if n > limit:
            raise HTTPException(
                413, f"{n} items in one request; the limit is {limit} (max_items, max_queue)"
            )
        try:
            return await (score or service.score)(items)
        except Overloaded as e:
            raise HTTPException(
                429,
                f"queue full ({service.metrics.pending}/{cfg.max_queue} items)",
                headers={"Retry-After": str(e.retry_after)},
            ) from None

    @app.get("/health")
    async def health():
        ok = service.ready and not service.draining
        body = {
            "status": "ok" if ok else "draining" if service.draining else "starting",
            "workers": service.workers,
            "pending": service.metrics.pending,
            "fingerprint": service.parts["fingerprint"],
            "fingerprint_parts": service.parts,
        }
        return JSONResponse(body, status_code=200 if ok else 503)

    @app.post("/score", dependencies=[Depends(authorised)])
    async def score(body: ScoreRequest):
        scores = await run([ScoreItem(**i.model_dump()) for i in body.items])
        return {"scores": [s.to_json() for s in scores]}

    @app.post("/get_reward", dependencies=[Depends(authorised)])
    async def get_reward(request: Request):
        try:
            items = openrlhf.items_from_request(await request.json())
        except (ValueError, AttributeError) as e:
            raise HTTPException(422, f"not an OpenRLHF reward request: {e}") from None
        return (
            openrlhf.reply(await run(items))
            if items
            else {"rewards": [], "scores": [], "extra_logs": {}}
        )

    @app.post("/score_group", dependencies=[Depends(authorised)])
    async def score_group(request: Request):
        try:
            fmt, groups, where = group_formats.read(await request.json())
        except (ValueError, AttributeError, TypeError) as e:
            raise HTTPException(422, f"not a group scoring request: {e}") from None
        scored = await run(groups, service.score_groups) if groups else []
        return group_formats.reply(fmt, scored, where)

    @app.get("/metrics", dependencies=[Depends(authorised)])
    async def metrics():
        text, content_type = service.metrics.render()
        return Response(text, media_type=content_type)

    app.state.mark_draining = lambda: setattr(service, "draining", True)
    return app


def serve(
    params: dict, host: str | None = None, port: int | None = None, workers: int | None = None
) -> None:
    """Run the service until SIGTERM / SIGINT, then drain (see the module docstring)."""
    from cogevol.scoring.transports import ScoringConfig, open_scorers

    scoring = ScoringConfig.from_params(params.get("scoring"))
    cfg = from_dict(ServeConfig, scoring.serve)
    host, port = host or cfg.host, port or cfg.port
    token = os.environ.get(scoring.token_env) or None
    if token is None and host not in LOOPBACK:
        log.warning(
            "serve: listening on %s with no token: anyone who reaches it can use the browsers "
            "(set $%s)",
            host,
            scoring.token_env,
        )
    # the service itself scores in process or on Ray
    transport = "local" if scoring.transport == "http" else scoring.transport
    scorers = open_scorers(
        {**params, "scoring": {**(params.get("scoring") or {}), "transport": transport}}, workers
    )
    app = create_app(scorers, cfg, token, workers=_workers(scorers))
    server = DrainingServer(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            timeout_graceful_shutdown=int(cfg.drain_s),
            log_level="info",
            access_log=False,
        ),
        app,
    )
    log.info("serve: http://%s:%d (%s transport)", host, port, transport)
    server.run()


def _workers(scorers) -> int:
    s = getattr(scorers, "settings", None)
    return getattr(scorers, "capacity", None) or (s.workers if s is not None else 1)


class DrainingServer(uvicorn.Server):
    """uvicorn's server that marks the service draining as soon as a signal arrives."""

    def __init__(self, config: uvicorn.Config, app: FastAPI):
        super().__init__(config)
        self._app = app

    def handle_exit(self, sig, frame) -> None:
        self._app.state.mark_draining()
        super().handle_exit(sig, frame)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_in_background(
    scorers, cfg: ServeConfig | None = None, token: str | None = None, workers: int = 1
):
    """The service on a real uvicorn server in a thread, on 127.0.0.1 and a free port, for tests
    and benchmarks. Yields (url, app) once the browsers are up; stops and closes it after."""
    app = create_app(scorers, cfg or ServeConfig(), token, workers)
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, daemon=True, name="scoring-service")
    thread.start()
    deadline = time.monotonic() + 60
    while not (server.started and app.state.service.ready):
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the scoring service did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(timeout=60)
