"""The checklist format (JSON, version 1; docs/checklist.md): a Check, a Checklist of them, the
result of one check against an answer, and what an answer shows (PageFacts)."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from cogevol.core.langid import page_language
from cogevol.core.request_lexicon import normalise

VERSION = 1
CHECKS = (
    "language",
    "control",
    "label",
    "key",
    "count",
    "mentions",
    "code",
    "flow",
    "slides",
    "element",
)
MAX_MENTIONS = 6


@dataclass(frozen=True)
class Check:
    """One thing the request asks for. `value` names it (a language code, a control kind, a
    label, a key, a content word, a slide element; for `code`, what the request asks the code to
    use, "manhattan", checked in the source and never a word the page must show); `n` is a count
    where one applies; `aliases` are the same thing's names in other languages (a page in
    another language than the request's shows those); for `language`, the words the request
    writes for the page in another script ("FPS", "Earth Day" in a Chinese request), which a page
    that shows them copies rather than chooses."""

    check: str
    value: str = ""
    n: int | None = None
    weight: float = 1.0
    # a must-have: an answer missing every must-have fails the gate (probe.terms.fulfilment_gate)
    must: bool = False
    cue: str = ""  # the words of the request it came from
    aliases: tuple[str, ...] = ()
    # a flow (seed 003's flow contract, `value` its name): the steps a person takes and what
    # must show after them, run by the probe on a fresh copy of the page
    # (cogevol.probe.checklist_flows)
    steps: tuple[dict, ...] = ()
    expect: tuple[dict, ...] = ()

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(f"check must be one of {CHECKS}, not {self.check!r}")
        for name in ("aliases", "steps", "expect"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if self.check == "flow" and not (self.steps and self.expect):
            raise ValueError(f"flow {self.value!r} needs steps and expectations")


@dataclass(frozen=True)
class Checklist:
    checks: tuple[Check, ...] = ()
    source: str = "rules"  # who planned it: rules | llm | hand (a hand-written replay line)
    language: str = ""
    note: str = ""  # why it was not planned the configured way (a fallback to the rules), else ""

    def to_json(self) -> dict[str, Any]:
        out = {
            "version": VERSION,
            "source": self.source,
            "language": self.language,
            "checks": [
                {
                    k: [dict(x) if isinstance(x, dict) else x for x in v]
                    if isinstance(v, tuple)
                    else v
                    for k, v in asdict(c).items()
                    if v not in (None, "", False, ()) or k == "check"
                }
                for c in self.checks
            ],
        }
        return {**out, "note": self.note} if self.note else out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Checklist:
        """Strict: an unknown version, check kind or field is an error, not a silent drop."""
        if d.get("version") != VERSION:
            raise ValueError(f"checklist version {d.get('version')!r} is not {VERSION}")
        known = set(Check.__dataclass_fields__)
        checks = []
        for c in d.get("checks") or []:
            extra = set(c) - known
            if extra:
                raise ValueError(f"unknown checklist field(s) {sorted(extra)}")
            checks.append(Check(**c))
        extra = set(d) - {"version", "source", "language", "checks", "note"}
        if extra:
            raise ValueError(f"unknown checklist field(s) {sorted(extra)}")
        return cls(
            tuple(checks), d.get("source", "rules"), d.get("language", ""), d.get("note", "")
        )


@dataclass
class CheckResult:
    check: str
    value: str
    status: str
    reason: str
    weight: float = 1.0
    must: bool = False
    # an unmet check is evidence the answer is about something else only when the answer shows
    # enough to tell (a page of a title and a button does not)
    evidence: bool = True
    # a named thing whose names we know (subjects.yaml, or the planner's aliases): its absence
    # is positive evidence, where a plain word's ("reading", "shape") may be the wording only
    known: bool = False
    # unverifiable only because no name for it is known in the answer's language: it still
    # counts in how much of the subject there is to show (a translation must not drop it)
    lang_gap: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "value": self.value,
            "status": self.status,
            "reason": self.reason,
        }


@dataclass
class PageFacts:
    """What an answer shows, as the checks read it: visible text (DOM, labels, title, canvas
    text), the controls and their verdicts, repeated groups, and the source (for scenes)."""

    text: str = ""
    # {"kind", "type", "label", "verdict", "status"}
    controls: list[dict] = field(default_factory=list)
    groups: list[int] = field(default_factory=list)  # sizes of groups of alike visible siblings
    source: str = ""
    # mostly drawn (canvas, WebGL, SVG) with little text: words may be in the code only
    scene: bool = False
    # mostly drawn, whatever text is beside the drawing: its things cannot be counted
    drawn: bool = False
    slides: int | None = None
    elements: dict[str, int] = field(default_factory=dict)  # slide element types -> count
    # the flows the probe ran: {"name", "status", "reason"} (cogevol.probe.checklist_flows)
    flows: list[dict] = field(default_factory=list)
    _language: tuple[str, float] | None = field(default=None, repr=False, compare=False)

    def language(self, dictated: tuple[str, ...] = ()) -> str:
        """The language of what the answer shows ("" when there is too little text to tell),
        worked out once; without the `dictated` words (those the request wrote for the page)
        when there are any."""
        return self.read_language(dictated)[0]

    def read_language(self, dictated: tuple[str, ...] = ()) -> tuple[str, float]:
        """The language of what the answer shows and how sure the reading is (0..1)."""
        if dictated:
            drop = {normalise(w) for w in dictated}
            own = re.sub(
                r"[^\W\d_]+(?:['’-][^\W\d_]+)*",
                lambda m: " " if normalise(m.group()) in drop else m.group(),
                self.text,
            )
            return page_language(own)
        if self._language is None:
            self._language = page_language(self.text)
        return self._language
