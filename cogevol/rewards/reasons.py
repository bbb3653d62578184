"""Fixed ids for why a page got its verdict, carried beside the reason text.

Why: consumers (distill's admission, GRPO's logs, evaluate's hard-fail counts, dashboards) need to
group verdicts by cause, and a free-text reason changes wording whenever the probe learns to say
more. The id is the stable part; the text is for people. Nothing should parse the text.

The `format.*` ids are answers that are not a page at all (seed 004: "a model-side format
generation ... failure is retained with zero score"); `substance.empty` is a page with next to
nothing on it; `gate.*` are pages that render but are not alive the way their request asks (seed
000's hard-fail gate) or whose own code wires controls that all do nothing; `priced.unmet`
passed the gate but lacks what an unsure reading of its request asks for (priced, not
zeroed); `ok` passed the gate. docs/probe.md lists them with examples.
"""

from __future__ import annotations

from enum import StrEnum


class ReasonId(StrEnum):
    """Why a page was scored as it was (the `reason_id` of an HTML verdict)."""

    OK = "ok"
    # the answer is not a page
    NO_DOCUMENT = "format.no_document"  # no HTML in the answer
    TWO_DOCUMENTS = "format.two_documents"  # more than one HTML document in one answer
    TRUNCATED = "format.truncated"  # cut off inside a script, a style, a comment or a tag
    MARKDOWN_SHOWN = "format.markdown_shown"  # the page shows markdown with fenced code as text
    CODE_SHOWN = "format.code_shown"  # the page shows its source code as text instead of running it
    # the page renders but has next to nothing on it
    EMPTY = "substance.empty"
    # the page renders but is not alive the way the request asks
    NOT_RENDERED = "gate.not_rendered"  # blank, crashed, hung or navigated away
    NO_MOTION = "gate.no_motion"  # nothing moves on its own where the request asks for motion
    STOPS_ON_ERROR = "gate.stops_on_error"  # the animation stops after a script error
    NO_CONTROL = "gate.no_control"  # no operable control where the request asks for input
    DEAD_CONTROLS = "gate.dead_controls"  # no operable control changes the visible state
    # the page's own code wires its controls and none of them works, whatever the request
    BROKEN_CONTROLS = "gate.broken_controls"
    NO_CHANGE = "gate.no_change"  # a dynamic task whose page neither moves nor responds
    OFF_REQUEST = "gate.off_request"  # shows none of what the request is about
    RESOURCE = "gate.resource"  # broke while a script or stylesheet it loads was blocked
    # passed the gate, but lacks what an unsure reading of its request asks for: priced
    UNMET = "priced.unmet"
    # no verdict: the harness failed, not the page
    HARNESS = "harness.error"

    @property
    def is_format(self) -> bool:
        return self.value.startswith("format.")

    @property
    def rests_on_reading(self) -> bool:
        """A hard fail only the reading of the request makes (the page asked to move, to
        respond, to change, to show the request's subject): it needs a confident reading."""
        return self in _READING


_READING = frozenset(
    {
        ReasonId.NO_MOTION,
        ReasonId.STOPS_ON_ERROR,
        ReasonId.NO_CONTROL,
        ReasonId.DEAD_CONTROLS,
        ReasonId.NO_CHANGE,
        ReasonId.OFF_REQUEST,
    }
)
