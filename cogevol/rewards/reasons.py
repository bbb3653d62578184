"""Fixed ids for why a page got its verdict, carried beside the reason text.

Why: consumers (distill's admission, GRPO's logs, evaluate's hard-fail counts, dashboards) need to
group verdicts by cause, and a free-text reason changes wording whenever the probe learns to say
more. The id is the stable part; the text is for people. Nothing should parse the text.

The `format.*` ids are answers that are not a page at all (seed 004: "a model-side format
generation ... failure is retained with zero score"); `substance.empty` is a page with next to
nothing on it; `gate.*` are pages that render but are not alive the way their request asks (seed
000's hard-fail gate); `ok` passed the gate. docs/probe.md lists them with examples.
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
    NO_CHANGE = "gate.no_change"  # a dynamic task whose page neither moves nor responds
    OFF_REQUEST = "gate.off_request"  # shows none of what the request is about
    RESOURCE = "gate.resource"  # broke while a script or stylesheet it loads was blocked
    # no verdict: the harness failed, not the page
    HARNESS = "harness.error"

    @property
    def is_format(self) -> bool:
        return self.value.startswith("format.")
