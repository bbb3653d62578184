"""Scripts and words of the eight traffic languages: CJK runs, Latin words with elided articles
split off, accents stripped. The lowest layer of the checklist: everything else reads text through
these."""

from __future__ import annotations

import re
import unicodedata

from cogevol.core.request_lexicon import normalise

HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
KANA = re.compile(r"[\u3040-\u30ff]")
HANGUL = re.compile(r"[\uac00-\ud7af]")
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
LATIN_WORD = re.compile(r"[a-z\u00c0-\u024f][a-z\u00c0-\u024f'\-]*[a-z\u00c0-\u024f]|[a-z]")
# French and Italian: d'eau, l'orthographe, qu'il
ELISION = re.compile(r"\b(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)[''](?=[a-z\u00c0-\u024f])")


def latin_words(text: str) -> list[str]:
    """The Latin-script words of a normalised text, elided articles split off (d'eau -> eau)."""
    return LATIN_WORD.findall(ELISION.sub(" ", text))


def ending_added(short: str, long: str, min_len: int) -> bool:
    """`long` is `short` (at least `min_len` letters) and at most two letters more: two forms of
    one word as the checklist reads them (planet / planets, planeta / planetas)."""
    return len(short) >= min_len and long.startswith(short) and len(long) - len(short) <= 2


def strip_accents(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s) if unicodedata.category(c) != "Mn")


def cue_rx(words: list[str]) -> re.Pattern:
    """Whole words for Latin entries ("stem*" a word starting with the stem, "*tail" a word
    ending with it: German compounds, "Trinkgeldrechner"), substrings for CJK."""
    parts = []
    for w in sorted({normalise(x) for x in words}, key=len, reverse=True):
        stem, tail = w.endswith("*"), w.startswith("*") and len(w) > 1
        w = w.strip("*")
        if CJK_RUN.search(w):
            parts.append(re.escape(w))
        else:
            head = r"[\w]*" if tail else r"(?<![\w])"
            parts.append(head + re.escape(w) + (r"[\w\-]*" if stem else r"(?![\w])"))
    return re.compile("|".join(parts))
