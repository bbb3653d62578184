"""What the probe is told and what it reports: ProbeConfig, Control and ProbeResult.

Kept apart from the machinery that drives a browser so that the reward, the CLI and the
scorers can read and build these records (and tests can construct them) without the
Playwright session code; every field here is part of the probe's JSON contract (docs/probe.md).
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum


@dataclass
class ProbeConfig:
    """Knobs of the probe (params.yaml: probe.harness, where each one is explained)."""

    seed: int = 1234
    quiet_ms: int = 500
    quiet_steps: int = 2
    quiet_max_ms: int = 1500
    enable_wait_ms: int = 15000
    settle_ms: int = 400
    response_wait_ms: int = 1600
    idle_ms: int = 600
    watch_ms: int = 4000
    decay_ms: int = 1800
    overlay_wait_ms: int = 1500
    key_hold_ms: int = 250
    frame_ms: int = 32
    max_controls: int = 16
    max_keys: int = 16
    canvas_shapes: int = 6
    board_pieces: int = 4
    counterfactual: str = "twin"
    idle_shortcut: bool = True
    page_timeout_s: float = 10.0
    budget_cap: float = 3.0
    hang_s: float = 1.5
    hang_grace_s: float = 5.0
    render_hang_s: float = 8.0
    clock_slice_ms: int = 100
    max_twin_rebuilds: int = 3
    pixel_check: bool = True
    pixel_min: int = 30
    screenshot: bool = False
    trace: bool = False
    trace_pause_cap: int = 4096
    explore_depth: int = 3
    explore_states: int = 12
    explore_controls: int = 12
    explore_per_state: int = 4
    explore_shots: int = 4
    max_flows: int = 4
    flow_budget_s: float = 6.0


@dataclass
class Control:
    """One control the page offers, and what driving it showed."""

    index: int
    kind: str
    tag: str
    label: str
    # operable | not_operable | excluded | skipped (the budget ran out first) | alike (revealed
    # with a control of the same kind and label that was driven instead: a list's rows)
    status: str
    reason: str = ""
    verdict: str = ""  # live | dead | "" (not driven)
    evidence: str = ""
    # the input that made it live: click, type, select, range, handler-keys, default-keys,
    # canvas-points, canvas-shapes, drag
    driver: str = ""
    errors: int = 0  # uncaught errors its input raised
    baseline_verdict: str = ""
    twin_verdict: str = ""
    drag: bool = False  # the page listens for a press on it: a drag is tried after the click
    # an input's type attribute (checkbox, radio, ...): the checklist tells a checkbox from a button
    type: str = ""
    hears: bool = False  # a click or press listener on it, an ancestor, or the document
    # inputs it took to reveal it (0: on the first screen; 1: after Play, Start, Add...)
    depth: int = 0
    # live only when given again in a later state (Add once text was typed, Reset after a change)
    again: bool = False
    # the label of the input that revealed it (a flow clicks it first to reach this control)
    revealed_by: str = ""
    # the container it shares with its siblings (page.js): the options of one question
    group: str = ""

    def report(self) -> dict:
        """Its fields without the empty ones (and the flags that are off)."""
        return {
            k: v
            for k, v in asdict(self).items()
            if v not in ("", None) and (v or k not in ("drag", "hears", "errors", "again"))
        }


class PageOutcome(StrEnum):
    """How a probe ended. Only HARNESS_ERROR is the probe's own fault (no reward); the others
    are the page's (a hung, crashed or self-navigating page fails its gate)."""

    OK = "ok"
    PAGE_HUNG = "page_hung"
    PAGE_CRASHED = "page_crashed"
    PAGE_NAVIGATED = "page_navigated"
    HARNESS_ERROR = "harness_error"


# ProbeResult fields that stay out of its report as they are: the page's text (the checklist
# reads it in process) and the screenshot's bytes (they travel on their own); the resources,
# controls and errors are laid out by report() itself
_UNREPORTED = ("text", "screenshot", "state_shots", "resources", "controls", "errors")


@dataclass
class ProbeResult:
    """Everything the probe learned about one page (the JSON of `cogevol probe`)."""

    rendered_ok: bool = False
    outcome: PageOutcome = PageOutcome.OK
    reason: str = ""
    controls: list[Control] = field(default_factory=list)
    # something moves on its own during the quiet window (a counter alone is not motion)
    animates: bool = False
    # visible state changes on its own during the quiet window (counters included)
    changes: bool = False
    # what moved on its own, or why nothing counts as
    # motion: the evidence behind animates / moves_later
    motion: str = ""
    # what the page shows (text, labels, canvas text): the request's checklist reads it
    text: str = field(default="", repr=False)
    # sizes of groups of alike visible siblings (counts in the checklist)
    groups: list[int] = field(default_factory=list)
    # a drawn scene with little text (the checklist may read the request's words in the code)
    scene: bool = False
    # drawings (canvas, SVG, video, pictures) cover 30% of the screen or more, with any text
    # beside them: what the page shows may be drawn, where counts cannot be read
    drawn: bool = False
    # virtual ms the quiet window ran (quiet_ms to
    # quiet_max_ms of the config): a twin replays as much
    quiet_ms: int = 0
    # ... or after an input set it off (seen right after
    # that input, or at the end: a timer started late)
    moves_later: bool = False
    # still changing on its own after the inputs (None: not measured, budget spent)
    moves_at_end: bool | None = None
    # the counterfactual that judged the controls: twin | idle-state | baseline
    counterfactual: str = "twin"
    viewport: dict = field(default_factory=dict)  # desktop / tablet / mobile layout measures
    # share of the first screen that is not background (first screenshot; None: not reached)
    fill: float | None = None
    # what the first screen holds, for the reward's floor (page.js `substance`; None: not
    # reached): visible text outside pre/code/textarea (`textChars`, its start as `prose`) and
    # its code-like lines (`codeChars`), markdown fences shown as text, titles' and controls'
    # text (`ownChars`), painted leaf shapes, and `canvasInk`: the share of the screen that
    # canvases hold drawn on (cogevol.probe.pixels.ink_in_boxes)
    shown: dict | None = field(default=None, repr=False)
    errors: list[str] = field(default_factory=list)  # first uncaught errors and console errors
    error_count: int = 0
    load_errors: int = 0  # of which before any input
    # distinct errors (digits aside): how many things are broken, not how often the probe ran
    # into the same one (which grows with the inputs given and the time watched)
    error_kinds: int = 0
    load_error_kinds: int = 0  # of which before any input
    # driving stopped at page_timeout_s: skipped controls are not verdicts
    budget_exhausted: bool = False
    # what says the page's own code means its controls to work (cogevol.probe.wiring): handlers
    # its scripts register, listeners driven controls hear; [] when nothing does
    wired: list[str] = field(default_factory=list)
    twin_rebuilds: int = 0
    # mirrored / blocked requests (cogevol.browser.pool.page_resources)
    resources: dict = field(default_factory=dict)
    seconds: float = 0.0
    screenshot: bytes | None = field(default=None, repr=False)  # with ProbeConfig.screenshot
    # ... and the states inputs reached past the first screen (at most explore_shots): what a
    # judge needs to see the second screen
    state_shots: list[bytes] = field(default_factory=list, repr=False)
    # the play-through (cogevol.probe.explore.StateGraph.report): states, transitions, per depth
    # controls revealed / driven / live, the depth reached and the budget that stopped it
    explore: dict = field(default_factory=dict)
    # the request's flows run on fresh copies (cogevol.probe.checklist_flows):
    # {"name", "status", "reason"}
    flows: list[dict] = field(default_factory=list)
    # with ProbeConfig.trace: the page's functions that live inputs ran, as UTF-8 byte
    # intervals of the page with their call depth from the leaf ({start, end, depth};
    # cogevol.probe.trace), and what the offsets are into (sha256, bytes; error: why none)
    trace: list[dict] | None = None
    trace_page: dict | None = None

    @property
    def controls_skipped(self) -> int:
        """Controls the page budget left undriven: counted apart, they are not verdicts."""
        return sum(c.status == "skipped" for c in self.controls)

    def report(self) -> dict:
        """The JSON-able report: every field but the page's text and screenshot, with the first
        three errors, the blocked and mirrored requests, and each control without empty
        fields."""
        res = self.resources or {}
        out = {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if f.name not in _UNREPORTED and not (f.name.startswith("trace") and self.trace is None)
        }
        return copy.deepcopy(out) | {
            "outcome": str(self.outcome),
            "errors": self.errors[:3],
            "blocked_resources": res.get("blocked", []),
            "mirrored_resources": res.get("mirrored", []),
            "controls": [c.report() for c in self.controls],
            # the measures, not the text (like `text`, it stays out of the report)
            "shown": None
            if self.shown is None
            else {k: v for k, v in self.shown.items() if k != "prose"},
        }


# a gesture: (how, driver, *args); the driver names the input in the report
Step = tuple


def pointer_end(step: Step) -> tuple[float, float]:
    """Where a pointer gesture (click, type, tap, drag, hover) leaves the pointer."""
    return (step[4], step[5]) if step[0] == "drag" else (step[2], step[3])


@dataclass
class Action:
    """The input for one control: where it is and the gesture steps to perform."""

    kind: str
    index: int
    x: float = 0
    y: float = 0
    box: list[float] | None = None
    # after driving: the steps performed, for replays
    steps: list[Step] = field(default_factory=list)
    key_target: int = -1
    also_mask: list = field(default_factory=list)  # boxes whose redraw is not a response
