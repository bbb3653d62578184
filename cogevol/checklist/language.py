"""The language of a text, for the checklist: the request's, and the one a page's prose is in.

Identified by cogevol.langid (fastText's language ID, scripts first), among the eight traffic
languages."""

from __future__ import annotations

from cogevol.langid import language


def detect_language(text: str, min_letters: int = 12) -> str:
    """The traffic language of `text`; "" when it has fewer than `min_letters` letters (too
    little to tell) or is in none of them."""
    return language(text or "", min_letters)
