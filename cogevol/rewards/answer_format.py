"""Is the answer a page at all? The format half of the reward's floor.

A small student's early answers are often not pages: markdown prose with a code block, the page's
source printed as text, two versions of a page one after the other, or a document the generation
budget cut off in the middle of its script. Each renders *something*, so the probe alone scores
them like weak pages (0.5-0.85 before this module); seed 004 retains such a "model-side format
failure ... with zero score". So they are hard fails with a `format.*` reason id
(cogevol.rewards.reasons), in distill, GRPO and evaluate alike, since all three score through the
same layer.

Two kinds of test, both independent of topic and language:
- on the answer's text, before any browser (`answer_fault`): no document, two documents, a
  document cut off inside a script, a style, a comment or a tag. A missing `</body></html>` alone
  is no fault: browsers close them. Pulling a fenced html block out of a chat answer is fine; the
  prose around it is not judged.
- on what the rendered page shows (`shown_fault`, from the probe's `shown` measures): fenced
  markdown code shown as text, or visible text that is mostly program code outside any
  `<pre>`, `<code>` or `<textarea>` (where showing code is the point: a tutorial, an editor).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cogevol.core.text import answer_start
from cogevol.rewards.reasons import ReasonId

# the elements whose content a browser does not show as markup, each with its end
_RAW = {"script": "</script", "style": "</style", "textarea": "</textarea", "title": "</title"}
_RAW_OPEN = re.compile(r"<(script|style|textarea|title)\b[^>]*>|<!--", re.I)
_DOCTYPE = re.compile(r"<!doctype\s+html", re.I)
_HTML_OPEN = re.compile(r"<html[\s>]", re.I)
_OPEN_TAG_AT_END = re.compile(r"<[a-zA-Z/!][^<>]*\Z")


@dataclass(frozen=True)
class FormatFault:
    """Why an answer is not a page: the reason id and a sentence for people."""

    id: ReasonId
    why: str


def _outside_raw(doc: str) -> tuple[str, str]:
    """The document with the content of scripts, styles, text areas, titles and comments taken
    out (so markup quoted inside a script counts for nothing), and what was left open at the
    end ("" when everything closed): "script", "style", "comment", ..."""
    out, pos = [], 0
    while True:
        m = _RAW_OPEN.search(doc, pos)
        if m is None:
            out.append(doc[pos:])
            return "".join(out), ""
        # a comment goes whole; an element keeps its start tag (its content goes)
        out.append(doc[pos : m.start() if m.group(0) == "<!--" else m.end()])
        if m.group(0) == "<!--":
            end, close = doc.find("-->", m.end()), "-->"
            kind = "comment"
        else:
            kind = m.group(1).lower()
            close = _RAW[kind]
            end = doc.lower().find(close, m.end())
        if end == -1:
            return "".join(out), kind
        pos = end + len(close)


# a start tag with its attributes, quoted values holding any character (">" included)
_TAG = re.compile(r"""<[a-zA-Z][^<>"']*(?:(?:"[^"]*"|'[^']*')[^<>"']*)*>""")
_VALUE = re.compile(r""""[^"]*"|'[^']*'""")


def count_documents(text: str) -> int:
    """How many HTML documents a text holds: doctypes or <html> openings outside scripts,
    styles, comments and attribute values (an iframe's srcdoc holds a page, it is not a second
    one; a doctype followed by its <html> counts once)."""
    plain, _ = _outside_raw(text)
    plain = _TAG.sub(lambda m: _VALUE.sub('""', m.group(0)), plain)
    return max(len(_DOCTYPE.findall(plain)), len(_HTML_OPEN.findall(plain)))


def cut_off(doc: str) -> str:
    """Where a document was cut off by the generation budget, or "": inside a script, a style,
    a comment, a text area or a tag ("script", "tag", ...)."""
    plain, open_kind = _outside_raw(doc)
    if open_kind:
        return open_kind
    if _OPEN_TAG_AT_END.search(plain.rstrip()):
        return "tag"
    return ""


def answer_fault(answer: str, doc: str | None) -> FormatFault | None:
    """The fault of an answer (a model's whole reply, or a page file) and the document pulled
    out of it (None: there was none), or None when it is a page by its text."""
    if doc is None:
        return FormatFault(ReasonId.NO_DOCUMENT, "no HTML document in the answer")
    start = answer_start(answer)
    reply = answer[start:] if start is not None else answer
    n = max(count_documents(reply), count_documents(doc))
    if n >= 2:
        return FormatFault(ReasonId.TWO_DOCUMENTS, f"{n} HTML documents in one answer")
    where = cut_off(doc)
    if where:
        return FormatFault(
            ReasonId.TRUNCATED,
            f"the document is cut off inside {'a ' + where if where != 'tag' else 'a tag'}",
        )
    return None


# thresholds on what the page shows (module docstring); see tests/rewards/test_answer_format.py
CODE_SHARE = 0.35  # code-like text over all visible text outside pre/code/textarea
CODE_MIN_CHARS = 150  # ... and at least this much of it
FENCE_CODE_CHARS = 80  # a single fence counts with this much code-like text beside it


def shown_fault(shown: dict | None) -> FormatFault | None:
    """The fault of what the rendered page shows (the probe's `shown` measures: `fences`,
    `codeChars`, `textChars`; None when not measured), or None."""
    if not shown:
        return None
    fences, code = shown.get("fences", 0), shown.get("codeChars", 0)
    text = shown.get("textChars", 0)
    if fences >= 2 or (fences == 1 and code >= FENCE_CODE_CHARS):
        return FormatFault(
            ReasonId.MARKDOWN_SHOWN, "the page shows markdown with fenced code as text"
        )
    if code >= CODE_MIN_CHARS and code >= CODE_SHARE * max(1, text):
        return FormatFault(
            ReasonId.CODE_SHOWN,
            f"the page shows program code as text instead of running it ({code} of {text}"
            " visible characters)",
        )
    return None
