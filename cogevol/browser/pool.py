"""A pool of Debian Chromium instances for executing generated pages.

Each page gets a fresh browser context: no cookies, storage or cache shared with any other page.
The page is served from an in-memory origin; every other request (network, file://, other
origins) is aborted, except libraries a page loads from a public CDN that the local mirror holds
(cogevol.browser.mirror; BrowserConfig.mirror), navigations away from the page are refused and
popups closed. Dialogs are dismissed. A page whose script pegs the main thread is stopped with
Runtime.terminateExecution; a context or browser that stops answering is killed and relaunched,
so one hostile page costs itself and nothing else. Every Chromium instance carries a unique
marker switch, which is how `close()` finds and kills anything left behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shutil
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass

from cogevol.core.errors import CogevolError

log = logging.getLogger(__name__)

PAGE_URL = "http://cogevol.page/index.html"
PAGE_ORIGIN = "http://cogevol.page"
CHROMIUM_ARGS = [
    "--no-sandbox",  # root in CI containers; the page sandbox here is the context + routing
    "--disable-gpu",
    "--enable-unsafe-swiftshader",  # WebGL on the CPU
    "--use-angle=swiftshader",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-quic",
    "--mute-audio",
    "--disable-crash-reporter",  # crashpad handlers outlive the browser and escape the process tree
    "--disable-breakpad",
    "--disable-features=Translate,MediaRouter,OptimizationHints",
    # the page is served from our own origin, but a person opens it from a file or over https:
    # a secure context, where crypto.randomUUID, navigator.mediaDevices and the clipboard exist
    # (without them a to-do list's Add button throws on a plain http origin)
    f"--unsafely-treat-insecure-origin-as-secure={PAGE_ORIGIN}",
    # a recorder or a camera page meets what a person with a camera and a microphone would:
    # the permission granted, fake devices streaming
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
]
# a script's or stylesheet's Subresource Integrity pin names the public CDN's bytes; a page here
# gets the CDN mirror's (or nothing), so a pin would block the mirror's copy of the same library
_SRI = re.compile(
    r"(<(?:script|link)\b[^>]*?)\s+integrity\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I
)


def without_integrity(html: str) -> str:
    """`html` with the integrity attributes of its script and link tags removed."""
    prev = None
    while prev != html:  # a tag may also carry crossorigin etc.; one attribute per pass
        prev, html = html, _SRI.sub(r"\1", html)
    return html


class PageHung(CogevolError, RuntimeError):
    """The page stopped answering (busy main thread or a wedged renderer)."""


def find_chromium() -> str:
    """COGEVOL_CHROMIUM, else Debian's chromium on PATH; a clear error otherwise."""
    env = os.environ.get("COGEVOL_CHROMIUM")
    if env:
        return env
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    raise RuntimeError(
        "Chromium not found: `apt-get install -y chromium` (infra/setup.sh does it) "
        "or set COGEVOL_CHROMIUM"
    )


@dataclass
class BrowserConfig:
    """Limits for untrusted pages (params.yaml: probe.browser)."""

    instances: int = 1  # Chromium processes in the pool
    js_heap_mb: int = 256
    load_timeout_ms: int = 1500
    action_timeout_ms: int = 1500
    close_timeout_s: float = 2.0
    executable: str | None = None
    mirror: str | None = "auto"


class _Instance:
    def __init__(self, playwright, cfg: BrowserConfig):
        self.pw, self.cfg = playwright, cfg
        self.browser = None
        self.profile = ""
        self.active = 0  # pages open on this instance
        self.broken = False  # relaunch as soon as no page uses it

    async def launch(self) -> None:
        self.profile = f"cogevol-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        self.browser = await self.pw.chromium.launch(
            executable_path=self.cfg.executable or find_chromium(),
            # the unknown switch is ignored by Chromium and marks its processes for kill_marked()
            args=[
                *CHROMIUM_ARGS,
                f"--js-flags=--max-old-space-size={self.cfg.js_heap_mb}",
                f"--cogevol-instance={self.profile}",
            ],
            handle_sigint=False,
            handle_sigterm=False,
            handle_sighup=False,
        )

    async def relaunch(self) -> None:
        await self.kill(graceful=False)  # it already failed to close something: no second chances
        await self.launch()

    async def kill(self, graceful: bool = True) -> None:
        procs = marked_processes(self.profile) if self.profile else []
        if not graceful:
            import psutil

            for p in procs:
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.kill()
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(
                    self.browser.close(), self.cfg.close_timeout_s if graceful else 0.5
                )
        self.browser = None
        self.profile = ""
        procs = still_running(procs)
        if procs:  # whatever did not exit with the browser is killed
            import psutil

            _, alive = await asyncio.to_thread(psutil.wait_procs, procs, 2.0)
            for p in still_running(alive):
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.kill()
            await asyncio.to_thread(psutil.wait_procs, still_running(alive), 2.0)


def still_running(procs: list) -> list:
    """The processes that have not exited. A zombie has: it waits only for its new parent (here
    often a container's init) to reap it, which psutil.wait_procs would wait out for ~1.3 s on
    every pool close."""
    import psutil

    out = []
    for p in procs:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.AccessDenied):
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
    return out


def marked_processes(marker: str) -> list:
    """The Chromium started with this marker switch and all its descendants (renderers, GPU
    and utility processes)."""
    import psutil

    out = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in (p.info["cmdline"] or [])):
                out += [p, *p.children(recursive=True)]
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return out


class BrowserPool:
    """`async with BrowserPool(cfg) as pool: async with pool.page(html) as page: ...`"""

    def __init__(self, cfg: BrowserConfig | None = None):
        self.cfg = cfg or BrowserConfig()
        self._instances: list[_Instance] = []
        self._next = 0
        self._pw_cm = None
        self.relaunches = 0
        self._mirror = None
        self._mirror_loaded = False

    def mirror(self):
        """The CDN mirror, loaded once per pool on first use (None when not configured or
        unreadable)."""
        if not self._mirror_loaded:
            self._mirror_loaded = True
            path = self.cfg.mirror
            if path == "auto":
                from cogevol.browser.mirror import default_store

                store = default_store()
                path = str(store) if (store / "index.json").is_file() else None
                if path is None:
                    log.warning(
                        "browser: no CDN mirror at %s (run infra/setup.sh); "
                        "CDN requests stay blocked",
                        store,
                    )
            if path:
                from cogevol.browser.mirror import Mirror

                try:
                    self._mirror = Mirror.load(path)
                except (OSError, ValueError) as e:
                    log.warning(
                        "browser: CDN mirror %s not loaded (%s); CDN requests stay blocked",
                        self.cfg.mirror,
                        e,
                    )
        return self._mirror

    async def __aenter__(self) -> BrowserPool:
        from playwright.async_api import async_playwright

        self._pw_cm = async_playwright()
        pw = await self._pw_cm.__aenter__()
        self._instances = [_Instance(pw, self.cfg) for _ in range(max(1, self.cfg.instances))]
        await asyncio.gather(*(i.launch() for i in self._instances))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await asyncio.gather(*(i.kill() for i in self._instances), return_exceptions=True)
        self._instances = []
        if self._pw_cm is not None:
            with contextlib.suppress(Exception):
                await self._pw_cm.__aexit__(None, None, None)
            self._pw_cm = None

    def _pick(self) -> _Instance:
        """The least busy healthy instance (pages of one worker do not share a renderer host
        with another worker's hostile page when instances >= workers)."""
        healthy = [i for i in self._instances if not i.broken] or self._instances
        start = self._next % len(healthy)
        self._next += 1
        return min(healthy[start:] + healthy[:start], key=lambda i: i.active)

    @contextlib.asynccontextmanager
    async def page(
        self, html: str, init_scripts: tuple[str, ...] = (), viewport: tuple[int, int] = (1280, 800)
    ) -> AsyncIterator:
        """A fresh context with one page that will serve `html` at PAGE_URL (not yet loaded)."""
        inst = self._pick()
        if inst.broken or inst.browser is None or not inst.browser.is_connected():
            if inst.active == 0 or inst.browser is None or not inst.browser.is_connected():
                self.relaunches += 1
                inst.broken = False
                await inst.relaunch()
        inst.active += 1
        try:
            ctx = await inst.browser.new_context(
                viewport={"width": viewport[0], "height": viewport[1]},
                service_workers="block",
                accept_downloads=False,
            )
        except BaseException:
            inst.active -= 1
            raise
        body = without_integrity(html).encode("utf-8")
        mirror = self.mirror()
        seen: dict = {"mirrored": [], "blocked": []}

        async def route(r):
            req = r.request
            if req.url == PAGE_URL:
                await r.fulfill(
                    status=200, body=body, headers={"content-type": "text/html; charset=utf-8"}
                )
            elif req.is_navigation_request():
                await r.fulfill(status=204)  # "no content": the browser stays where it is
            else:
                hit = (
                    await asyncio.to_thread(mirror.resolve, req.url) if mirror is not None else None
                )
                if hit is None:
                    _note(seen["blocked"], req.url[:200])
                    await r.abort("blockedbyclient")
                else:
                    _note(
                        seen["mirrored"],
                        {
                            "url": req.url[:200],
                            "package": hit.package,
                            "version": hit.version,
                            "note": hit.note,
                        },
                    )
                    await r.fulfill(status=200, body=hit.body, headers=hit.headers)

        await ctx.route("**/*", route)
        for script in init_scripts:
            await ctx.add_init_script(script)
        ctx.on("page", _close_popup)
        page = await ctx.new_page()
        # opened while the page is idle: a session opened later can queue behind a busy renderer
        _CDP[id(page)] = await ctx.new_cdp_session(page)
        _RESOURCES[id(page)] = seen
        page.set_default_timeout(self.cfg.action_timeout_ms)
        page.on("dialog", _answerer())
        try:
            yield page
        except BaseException:
            await self._dispose(inst, ctx, page, suspect=True)
            raise
        else:
            await self._dispose(inst, ctx, page, suspect=False)
        finally:
            inst.active -= 1
            _CDP.pop(id(page), None)
            _RESOURCES.pop(id(page), None)

    async def _dispose(self, inst: _Instance, ctx, page, suspect: bool) -> None:
        """Close the context; after a failure, first interrupt whatever script may be running
        (a busy main thread queues every CDP call), and relaunch the browser if it still hangs."""
        if suspect:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(terminate_scripts(page), 1.0)
        try:
            await asyncio.wait_for(ctx.close(), self.cfg.close_timeout_s)
        except Exception:
            if inst.active <= 1:  # ours is the only page: take the browser down now
                log.warning("browser: context would not close; relaunching the instance")
                self.relaunches += 1
                await inst.relaunch()
            else:  # other pages still run there: relaunch once they are done
                log.warning(
                    "browser: context would not close; the instance will be relaunched when idle"
                )
                inst.broken = True


_CDP: dict[int, object] = {}  # page -> CDP session opened with the page
_RESOURCES: dict[int, dict] = {}  # page -> what its subresource requests got (see page_resources)
MAX_RESOURCES = 50  # entries kept per list


def page_resources(page) -> dict:
    """What the page's subresource requests got so far: {"mirrored": [{"url", "package",
    "version", "note"}], "blocked": [url, ...]}; urls cut at 200 characters, at most 50 each."""
    seen = _RESOURCES.get(id(page)) or {"mirrored": [], "blocked": []}
    return {"mirrored": [dict(m) for m in seen["mirrored"]], "blocked": list(seen["blocked"])}


def _note(entries: list, item) -> None:
    if len(entries) < MAX_RESOURCES and item not in entries:
        entries.append(item)


async def terminate_scripts(page) -> None:
    """Stop a script that pegs the main thread (CDP calls queue behind it otherwise)."""
    cdp = _CDP.get(id(page)) or await page.context.new_cdp_session(page)
    await cdp.send("Runtime.terminateExecution")


DIALOGS_ANSWERED = 8  # a page that keeps asking (`while (confirm(...))`) is not asking a person


def _answerer():
    """A page's dialog handler: answer as the person who pressed its button would. Confirm what
    they asked for (a Stop that asks "are you sure?"), give a prompt its default (or "1"), close
    an alert; leaving the page (beforeunload) is refused, the probe stays on the page it scores.
    After DIALOGS_ANSWERED dialogs every further one is dismissed, so a loop of them ends."""
    asked = 0

    async def answer(dialog) -> None:
        nonlocal asked
        asked += 1
        with contextlib.suppress(Exception):
            if asked <= DIALOGS_ANSWERED and dialog.type == "confirm":
                await dialog.accept()
            elif asked <= DIALOGS_ANSWERED and dialog.type == "prompt":
                await dialog.accept(dialog.default_value or "1")
            else:
                await dialog.dismiss()

    return answer


async def _close_popup(page) -> None:
    # the context's first page is ours; any later page is a popup the page opened
    if len(page.context.pages) > 1:
        with contextlib.suppress(Exception):
            await page.close()
