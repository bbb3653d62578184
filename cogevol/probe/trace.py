"""Which of a page's own functions ran because of an input: the evidence Action-Trace Credit
needs (seed 001, section 3.3 and its appendix "Action Trace Collection and Token Mapping").

Through the Chrome DevTools Protocol, on the page under test only (never the twin):
- precise coverage starts before the page loads, so every function of its inline scripts is
  known with its source range, called or not;
- the quiet window's coverage says which functions the page runs on its own (an animation
  loop, a clock): they are the page's, not any input's, and get no breakpoint, so tracing adds
  no pause to a frame loop;
- every other function gets a breakpoint at its first statement (inactive between inputs). While
  a control's input and its response window run, each pause records the call stack, leaf first,
  and resumes at once, at most `cap` pauses per action (seed 001: 4,096); coverage over the same
  window adds functions that ran without pausing (the cap was hit, or a function compiled
  during the action);
- only controls judged live keep their evidence (`keep`): a dead or failed input gives nothing,
  so unrelated code gets no negative credit.

`spans()` maps each frame to the smallest enclosing function, drops duplicate stacks and strict
suffixes of longer ones, and gives each function its minimum depth from the leaf (leaf 0,
callers deeper; a function seen only by coverage is a leaf of its own, 0), as UTF-8 byte
intervals of the page as given. V8 counts UTF-16 code units in sources that the HTML parser has
already normalised (CRLF to LF), so every script is located in the page by its source text and
mapped back through that normalisation; a script that cannot be located is left out.
"""

from __future__ import annotations

import asyncio
import bisect
import hashlib
import logging
from dataclasses import dataclass, field
from typing import Any

from cogevol.browser.pool import PAGE_URL

log = logging.getLogger(__name__)

# what V8 counts as a line break when it numbers lines in a script
_BREAKS = ("\n", "\u2028", "\u2029")


class PageText:
    """A page's text as the browser parsed it (CR and CRLF as LF), and the way back from an
    offset into that text to the UTF-8 byte offset in the page as given."""

    def __init__(self, html: str):
        norm, orig = [], []
        i, n = 0, len(html)
        while i < n:
            c = html[i]
            if c == "\r":
                norm.append("\n")
                orig.append(i)
                i += 2 if i + 1 < n and html[i + 1] == "\n" else 1
                continue
            norm.append(c)
            orig.append(i)
            i += 1
        orig.append(n)
        self.text = "".join(norm)
        self._orig = orig  # normalised index -> index in `html`
        self._bytes = [0]  # index in `html` -> UTF-8 byte offset
        for c in html:
            self._bytes.append(self._bytes[-1] + len(c.encode("utf-8", "surrogatepass")))
        self.sha256 = hashlib.sha256(html.encode("utf-8", "surrogatepass")).hexdigest()
        self.size = self._bytes[-1]

    def byte(self, norm_index: int) -> int:
        """The UTF-8 byte offset in the page as given of a normalised text index."""
        return self._bytes[self._orig[norm_index]]

    def locate(self, source: str, near: int) -> int | None:
        """Where `source` starts in the normalised text (the occurrence nearest `near`)."""
        hits, at = [], self.text.find(source)
        while at >= 0 and len(hits) < 64:
            hits.append(at)
            at = self.text.find(source, at + 1)
        return min(hits, key=lambda h: abs(h - near)) if hits else None


@dataclass
class _Script:
    """One inline script of the page: its source and where it sits."""

    id: str
    source: str
    start: int  # its first character's index in PageText.text
    first_line: int  # the document line and column V8 numbers it from
    first_col: int
    u16: list[int] = field(default_factory=list)  # source index -> UTF-16 offset
    line_starts: list[int] = field(default_factory=list)  # UTF-16 offsets of its lines

    def __post_init__(self) -> None:
        off = 0
        for c in self.source:
            self.u16.append(off)
            off += 2 if ord(c) > 0xFFFF else 1
        self.u16.append(off)
        self.line_starts = [0] + [
            self.u16[i + 1] for i, c in enumerate(self.source) if c in _BREAKS
        ]

    @property
    def length(self) -> int:
        return self.u16[-1]

    def location(self, off: int) -> dict:
        """A CDP Location for a UTF-16 offset in the source."""
        line = bisect.bisect_right(self.line_starts, off) - 1
        col = off - self.line_starts[line] + (self.first_col if line == 0 else 0)
        return {"scriptId": self.id, "lineNumber": self.first_line + line, "columnNumber": col}

    def offset(self, line: int, col: int) -> int | None:
        """The UTF-16 offset in the source of a CDP (document) line and column."""
        k = line - self.first_line
        if not 0 <= k < len(self.line_starts):
            return None
        off = self.line_starts[k] + col - (self.first_col if k == 0 else 0)
        return off if 0 <= off <= self.length else None

    def page_index(self, off: int) -> int:
        """The normalised page index of a UTF-16 offset in the source."""
        return self.start + max(0, bisect.bisect_right(self.u16, off) - 1)


Fn = tuple[str, int, int]  # (scriptId, start, end): a function's UTF-16 range in its script


@dataclass
class ActionTrace:
    """What one input set running: call stacks (frames as (scriptId, offset), leaf first) and
    the functions that ran in its window without running on their own."""

    stacks: list[tuple[tuple[str, int], ...]] = field(default_factory=list)
    ran: set[Fn] = field(default_factory=set)
    pauses: int = 0


class Tracer:
    """The CDP side of tracing for one page; every call is safe to make in order: start (before
    the page loads), loaded, autonomous (after the quiet window), then begin / end around each
    input and keep for each live one, and spans at the end. A failure turns tracing off for the
    page with the reason in `error` (the verdict never depends on it)."""

    def __init__(self, page: Any, html: str, cap: int = 4096):
        self.page, self.cap = page, max(1, cap)
        self.text = PageText(html)
        self.cdp: Any = None
        self.scripts: dict[str, _Script] = {}
        self._parsed: dict[str, dict] = {}
        self.functions: set[Fn] = set()
        self.autonomous_fns: set[Fn] = set()
        self._armed: set[Fn] = set()
        self._active = False
        self._current = ActionTrace()
        self._tasks: list[asyncio.Future] = []
        self.kept: list[ActionTrace] = []
        self.error = ""

    @property
    def ok(self) -> bool:
        return self.cdp is not None and not self.error

    async def _guard(self, what: str, coro) -> Any:
        if not self.ok and what != "start":
            coro.close()
            return None
        try:
            return await coro
        except Exception as e:  # tracing is evidence on the side: it never fails the probe
            self.error = f"{what}: {type(e).__name__}: {e}".splitlines()[0][:200]
            log.info("probe trace off for this page: %s", self.error)
            return None

    async def start(self) -> None:
        """Before the page loads: coverage from the first statement, so every function is known."""

        async def run() -> None:
            self.cdp = await self.page.context.new_cdp_session(self.page)
            self.cdp.on("Debugger.scriptParsed", self._on_parsed)
            self.cdp.on("Debugger.paused", self._on_paused)
            # the debugger on from the start too, breakpoints (and `debugger;`) inactive: the
            # page's scripts are reported as they parse, not in one burst after load
            await self._pipelined(
                ("Profiler.enable", None),
                ("Profiler.startPreciseCoverage", {"callCount": True, "detailed": False}),
                ("Debugger.enable", None),
                ("Debugger.setBreakpointsActive", {"active": False}),
            )

        await self._guard("start", run())

    async def loaded(self) -> None:
        """After load: the page's scripts, located in its text, and its functions."""

        await self._guard("load", self._coverage())

    async def autonomous(self) -> None:
        """After the quiet window: what ran in it ran on its own; the rest gets breakpoints."""

        async def run() -> None:
            self.autonomous_fns = {f for f, n in (await self._coverage()).items() if n > 0}
            await self._arm()

        await self._guard("quiet window", run())

    async def begin(self) -> None:
        """Just before an input: counts reset, breakpoints live."""

        async def run() -> None:
            self._current, self._active = ActionTrace(), True
            activate = asyncio.ensure_future(self._breakpoints(True))
            await self._coverage()  # sent first, so the counts restart before breakpoints fire
            await activate
            await self._arm()  # functions first seen just now (none, mostly)

        await self._guard("begin", run())

    async def end(self) -> ActionTrace:
        """After the input's response window: its stacks and the functions it set running."""
        trace = self._current

        async def run() -> None:
            self._active = False
            deactivate = asyncio.ensure_future(self._breakpoints(False))
            counts = await self._coverage()
            await deactivate
            await asyncio.gather(*self._tasks, return_exceptions=True)
            self._tasks.clear()
            trace.ran = {f for f, n in counts.items() if n > 0 and f not in self.autonomous_fns}

        await self._guard("end", run())
        self._current = ActionTrace()
        return trace

    def keep(self, trace: ActionTrace) -> None:
        """The evidence of an input judged live."""
        self.kept.append(trace)

    def spans(self) -> list[dict]:
        """[{start, end, depth}]: UTF-8 byte intervals of the page as given, one per function
        that a live input ran, with its minimum call depth from the leaf."""
        if not self.ok:
            return []
        stacks: set[tuple[Fn, ...]] = set()
        ran: set[Fn] = set()
        frame_fn: dict[tuple[str, int], Fn | None] = {}  # a loop's pauses repeat the same frames
        for t in self.kept:
            ran |= t.ran
            for frames in set(t.stacks):
                for fr in frames:
                    if fr not in frame_fn:
                        frame_fn[fr] = self._enclosing(*fr)
                path = tuple(f for f in (frame_fn[fr] for fr in frames) if f)
                if path:
                    stacks.add(path)
        depth: dict[Fn, int] = {}
        for path in maximal(stacks):
            for d, f in enumerate(path):
                depth[f] = min(d, depth.get(f, d))
        for f in ran - set(depth):  # ran, but no pause caught it: a leaf of its own
            depth[f] = 0
        out = []
        for (sid, s, e), d in depth.items():
            sc = self.scripts[sid]
            start, end = sc.page_index(s), sc.page_index(e)
            out.append({"start": self.text.byte(start), "end": self.text.byte(end), "depth": d})
        return sorted(out, key=lambda x: (x["start"], -x["end"]))

    def page_info(self) -> dict:
        """What the spans are offsets into: the page's SHA-256 and byte length (and why there
        is no trace, when tracing failed)."""
        out = {"sha256": self.text.sha256, "bytes": self.text.size}
        return out | ({"error": self.error} if self.error else {})

    # -- CDP plumbing

    async def _pipelined(self, *calls: tuple[str, dict | None]) -> None:
        """Send CDP commands back to back and wait for them all: the session runs them in
        order, and the probe waits one round trip instead of one per command (tracing sits
        on the probe's critical path, between every input and the next)."""
        await asyncio.gather(*(self.cdp.send(m, p) for m, p in calls))

    def _on_parsed(self, ev: dict) -> None:
        if ev.get("url") == PAGE_URL:
            self._parsed[ev["scriptId"]] = ev

    def _on_paused(self, ev: dict) -> None:
        t = self._current
        if self._active and t.pauses < self.cap:
            t.pauses += 1
            frames = []
            for fr in ev.get("callFrames", []):
                loc = fr["location"]
                sc = self.scripts.get(loc["scriptId"])
                off = sc.offset(loc["lineNumber"], loc["columnNumber"]) if sc else None
                if off is not None:
                    frames.append((sc.id, off))
            if frames:
                t.stacks.append(tuple(frames))
        cap_hit = self._active and t.pauses >= self.cap
        self._tasks.append(asyncio.ensure_future(self._resume(cap_hit)))

    async def _breakpoints(self, active: bool) -> None:
        await self.cdp.send("Debugger.setBreakpointsActive", {"active": active})

    async def _resume(self, deactivate: bool) -> None:
        if deactivate:  # the cap: no more pauses this action (coverage still sees what runs)
            await self._breakpoints(False)
        await self.cdp.send("Debugger.resume")

    async def _script(self, sid: str) -> _Script | None:
        if sid in self.scripts:
            return self.scripts[sid]
        ev = self._parsed.get(sid)
        if ev is None:
            return None
        src = (await self.cdp.send("Debugger.getScriptSource", {"scriptId": sid}))["scriptSource"]
        lines = self.text.text.split("\n")
        near = sum(len(x) + 1 for x in lines[: ev["startLine"]]) + ev["startColumn"]
        at = self.text.locate(src, near) if src else None
        if at is None:  # not the page's own text (an attribute handler, a generated script)
            self._parsed.pop(sid)
            return None
        sc = _Script(sid, src, at, ev["startLine"], ev["startColumn"])
        self.scripts[sid] = sc
        return sc

    async def _coverage(self) -> dict[Fn, int]:
        """Call counts since the last take (which this resets), learning new functions."""
        res = await self.cdp.send("Profiler.takePreciseCoverage")
        counts: dict[Fn, int] = {}
        for s in res.get("result", []):
            if s.get("url") != PAGE_URL:
                continue
            sc = await self._script(s["scriptId"])
            if sc is None:
                continue
            for fn in s.get("functions", []):
                r = fn["ranges"][0]
                f = (sc.id, r["startOffset"], r["endOffset"])
                if f[1] == 0 and f[2] >= sc.length:  # the script's top level, not a function
                    continue
                self.functions.add(f)
                counts[f] = counts.get(f, 0) + r["count"]
        return counts

    async def _arm(self) -> None:
        """A breakpoint at the first statement of every known function that does not run on
        its own (once each): one query of each script's breakable positions, the first one
        inside a function and outside the functions nested in it, then every breakpoint sent
        at once (a page with an inline library has thousands of functions)."""
        todo = sorted(self.functions - self.autonomous_fns - self._armed)
        if not todo:
            return
        self._armed.update(todo)
        sends = []
        for sid in sorted({f[0] for f in todo}):
            sc = self.scripts[sid]
            found = await self.cdp.send(
                "Debugger.getPossibleBreakpoints",
                {"start": sc.location(0), "end": sc.location(sc.length)},
            )
            spots = sorted(
                off
                for off in (
                    sc.offset(loc["lineNumber"], loc["columnNumber"])
                    for loc in found.get("locations", [])
                )
                if off is not None
            )
            mine = sorted(f for f in self.functions if f[0] == sid)
            starts = [f[1] for f in mine]
            for f in (f for f in todo if f[0] == sid):
                k = bisect.bisect_left(spots, f[1])
                while k < len(spots) and spots[k] < f[2]:
                    # the functions that start inside f before this spot: is the spot theirs?
                    lo, hi = bisect.bisect_left(starts, f[1]), bisect.bisect_right(starts, spots[k])
                    if not any(g != f and g[2] <= f[2] and spots[k] < g[2] for g in mine[lo:hi]):
                        at = sc.location(spots[k])
                        sends.append(self.cdp.send("Debugger.setBreakpoint", {"location": at}))
                        break
                    k += 1
        await asyncio.gather(*sends)

    def _enclosing(self, sid: str, off: int) -> Fn | None:
        """The smallest known function of script `sid` whose range holds `off`."""
        holding = [f for f in self.functions if f[0] == sid and f[1] <= off < f[2]]
        return min(holding, key=lambda f: f[2] - f[1]) if holding else None


def maximal(stacks: set[tuple]) -> list[tuple]:
    """The stacks that are not a strict suffix (the same callers, fewer frames at the leaf end)
    of a longer one: a pause at a handler's entry is the suffix of a pause in what it calls."""
    out = []
    for s in stacks:
        if not any(len(t) > len(s) and t[len(t) - len(s) :] == s for t in stacks):
            out.append(s)
    return sorted(out)
