"""What a scorer reads out of a model's answer: the last message of a conversation, the HTML
document in a completion. Neutral ground: the probe, the rewards, distill and evaluate all
import it, and it imports none of them."""

from __future__ import annotations

import re
from typing import Any

from cogevol.core.text import answer_start

_FENCE = re.compile(r"```(?:html|HTML)?\s*\n(.*?)```", re.S)
_OPEN_FENCE = re.compile(r"```(?:html|HTML)?[ \t]*\n(.*)\Z", re.S)
_DOC = re.compile(r"(<!DOCTYPE html.*</html>|<html.*</html>)", re.S | re.I)  # to the last </html>


def last_message(messages: Any, role: str) -> str:
    """The content of the last `role` message of a conversation, or the text itself."""
    if isinstance(messages, list):
        return next(
            (
                str(m.get("content", ""))
                for m in reversed(messages)
                if isinstance(m, dict) and m.get("role") == role
            ),
            "",
        )
    return messages if isinstance(messages, str) else str(messages or "")


def completion_text(completion: Any) -> str:
    """The text of a completion, conversational (list of messages) or plain."""
    if isinstance(completion, list):
        return "".join(m.get("content", "") for m in completion if isinstance(m, dict))
    return str(completion or "")


def extract_html(completion: Any) -> str | None:
    """The HTML document in a completion (string or chat messages), or None."""
    text = last_message(completion, "assistant")  # conversational: the last assistant message
    span = extract_html_span(text)
    return None if span is None else text[span[0] : span[1]]


def extract_html_span(text: str) -> tuple[int, int] | None:
    """Where the HTML document lies in a completion's text: (start, end) character offsets with
    text[start:end] the document extract_html gives (so offsets into the page the probe ran map
    back to the completion: cogevol.train.atc), or None. A fenced block that holds markup comes
    first (its whitespace trimmed), then a whole document, then a fenced block cut off before its
    closing fence, then markup anywhere. A reasoning
    model's thinking is skipped: a draft page inside it is not the answer."""
    base = answer_start(text)
    if base is None:
        return None
    span = _span(text[base:])
    return None if span is None else (base + span[0], base + span[1])


def _span(text: str) -> tuple[int, int] | None:
    for m in _FENCE.finditer(text):
        block = m.group(1)
        if "<" in block and re.search(
            r"<(html|body|div|canvas|button|script|svg|!doctype)", block, re.I
        ):
            lead = len(block) - len(block.lstrip())
            start = m.start(1) + lead
            return start, start + len(block.strip())
    m = _DOC.search(text)
    if m:
        return m.span(1)
    # a fence the generation budget cut off before it closed: its block runs to the end
    m = _OPEN_FENCE.search(text)
    if m and re.search(r"<(html|body|div|canvas|button|script|svg|!doctype)", m.group(1), re.I):
        lead = len(m.group(1)) - len(m.group(1).lstrip())
        return m.start(1) + lead, m.start(1) + len(m.group(1).rstrip())
    if re.search(r"<(body|div|canvas|button|svg)\b", text, re.I):
        return 0, len(text)
    return None
