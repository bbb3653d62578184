"""The language of a text, for the checklist: the request's, and the one a page's prose is in.

Identified by cogevol.langid (fastText's language ID, scripts first), among the eight traffic
languages."""

from __future__ import annotations

import re

from cogevol.langid import TRAFFIC, identify, language

# a page's words, with their apostrophes and hyphens (c'est, self-service)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")


def detect_language(text: str, min_letters: int = 12) -> str:
    """The traffic language of `text`; "" when it has fewer than `min_letters` letters (too
    little to tell) or is in none of them."""
    return language(text or "", min_letters)


def page_language(text: str, min_letters: int = 12) -> tuple[str, float]:
    """The language a page's text is written in and how sure the reading is (its share of the
    likely traffic languages, 0..1; ("", 0.0) when too little to tell). Letters standing alone
    are marks, not words: a tic-tac-toe board's "X O X O X" read as Portuguese ("o" is its
    article) would call an English page with no other text a page in another language."""
    words = [w for w in _WORD.findall(text or "") if len(w) > 1 or not _LATIN_LETTER.match(w)]
    # read as words alone: what is left of "X: 1.20, Y: 0.50" once its letters go, " : ", is
    # French typography to the model
    return identify(" ".join(words), TRAFFIC, min_letters)
