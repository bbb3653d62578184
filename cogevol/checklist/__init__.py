"""The request's own checklist: what a request asks for, as checks run against its answer.

Why: a reward that only asks "does some page work?" pays the same for the right page and for a
page written for another prompt, and GRPO on it learns to ignore the request. So every request
gets a checklist, planned from the request alone (never from an answer: the grader must not be
led by the code it grades), and every answer is scored against it. How a page's reward reads
the checks is `request_fit`: the share of the subject shown scales the reward, the language is a
priced term, the rest is the `fulfilment` term, and a page that shows none of the things the
request names (looked for under their names in the page's language) can fail the gate; a deck's
reward takes `fulfilment`, the share of all its checks missed.

The format (JSON, version 1; docs/checklist.md):

    {"version": 1, "source": "rules" | "llm" | "hand", "language": "en",
     "checks": [{"check": "language", "value": "en", "weight": 1.0, "cue": "..."},
                {"check": "control", "value": "range", "weight": 1.0, "cue": "slider"},
                {"check": "label", "value": "Reset", ...},
                {"check": "key", "value": "ArrowKeys", ...},
                {"check": "count", "value": "cities", "n": 3, ...},
                {"check": "mentions", "value": "planets", "must": true, "aliases": [...], ...},
                {"check": "code", "value": "manhattan", ...},
                {"check": "flow", "value": "add_item", "steps": [...], "expect": [...], ...},
                {"check": "slides", "n": 5, ...}, {"check": "element", "value": "chart", ...}]}

Each check, run against an answer, is `met`, `unmet` or `unverifiable`, with a reason; an
unverifiable check (a scene with no text to read the language from, a control the budget left
undriven) is never counted against the answer.

Two planners write the same format: `plan_rules` (offline, always available; the lexicon
in cogevol/core/lexicons/checklist.yaml covers the eight traffic languages) and an LLM planner
through the teacher endpoint or its replay file (cogevol.checklist.planner). Checklists are planned
once per prompt and stored with it; the scorers plan with the rules when an item comes without one.

The public names, one import path each: `from cogevol.checklist import plan_rules, run_checklist`.
"""

from cogevol.checklist.lexicon import lexicon
from cogevol.checklist.model import (
    CHECKS,
    MAX_MENTIONS,
    VERSION,
    Check,
    Checklist,
    CheckResult,
    PageFacts,
)
from cogevol.checklist.rules import checklist_for, plan_rules
from cogevol.checklist.run import RequestFit, fulfilment, request_fit, run_check, run_checklist
from cogevol.checklist.scripts import latin_words

__all__ = [
    "CHECKS",
    "MAX_MENTIONS",
    "VERSION",
    "Check",
    "CheckResult",
    "Checklist",
    "PageFacts",
    "RequestFit",
    "checklist_for",
    "fulfilment",
    "latin_words",
    "lexicon",
    "plan_rules",
    "request_fit",
    "run_check",
    "run_checklist",
]
