"""The language of a text, for the checklist: the request's, and the one a page's prose is in.

Identified by cogevol.langid (fastText's language ID, scripts first), among the eight traffic
languages."""

from __future__ import annotations

import re

from cogevol.langid import TRAFFIC, identify, language

# a Latin letter standing alone: a board's X and O, a key's "C", a grade's "A"
_LONE_LETTER = re.compile(r"(?<![^\W\d_])[A-Za-z\u00c0-\u024f](?![^\W\d_])")


def detect_language(text: str, min_letters: int = 12) -> str:
    """The traffic language of `text`; "" when it has fewer than `min_letters` letters (too
    little to tell) or is in none of them."""
    return language(text or "", min_letters)


def page_language(text: str, min_letters: int = 12) -> tuple[str, float]:
    """The language a page's text is written in and how sure the reading is (its share of the
    likely traffic languages, 0..1; ("", 0.0) when too little to tell). Letters standing alone
    are marks, not words: a tic-tac-toe board's "X O X O X" read as Portuguese ("o" is its
    article) would call an English page with no other text a page in another language."""
    return identify(_LONE_LETTER.sub(" ", text or ""), TRAFFIC, min_letters)
