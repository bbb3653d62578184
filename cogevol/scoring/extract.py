"""What a scorer reads out of a model's answer: the last message of a conversation, the HTML
document in a completion. Neutral ground: the probe, the rewards, distill and evaluate all
import it, and it imports none of them."""

from __future__ import annotations

import re
from typing import Any

_FENCE = re.compile(r"```(?:html|HTML)?\s*\n(.*?)```", re.S)
_DOC = re.compile(r"(<!DOCTYPE html.*?</html>|<html.*?</html>)", re.S | re.I)


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
    for block in _FENCE.findall(text):
        if "<" in block and re.search(
            r"<(html|body|div|canvas|button|script|svg|!doctype)", block, re.I
        ):
            return block.strip()
    m = _DOC.search(text)
    if m:
        return m.group(1)
    if re.search(r"<(body|div|canvas|button|svg)\b", text, re.I):
        return text
    return None
