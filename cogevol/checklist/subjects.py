"""Named things across the eight traffic languages (subjects.yaml): a Chinese request's 行星 is met
by an English page's "planets", a Spanish request's "propina" by a page that says "tip".

Why: the subject of a request is what a page must be about, whatever language it is written in.
Without these names, a working page in another language than its request's shows none of the
request's words, and absence of the words would read as a page about something else. With them,
a request word is looked for under every name it has; where no name in the page's language is
known, its absence is no evidence either way (cogevol.checklist.run leaves it unverifiable).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml

from cogevol.checklist.scripts import CJK_RUN, strip_accents
from cogevol.core.request_lexicon import normalise

SUBJECTS_PATH = Path(__file__).with_name("subjects.yaml")


@lru_cache(maxsize=1)
def _entries() -> tuple[dict[str, tuple[str, ...]], ...]:
    """Every named thing as {language: (normalised names)}."""
    data = yaml.safe_load(SUBJECTS_PATH.read_text(encoding="utf-8"))
    return tuple(
        {lang: tuple(normalise(str(w)) for w in words) for lang, words in entry.items()}
        for entry in data["subjects"].values()
    )


def _latin_keys(word: str) -> set[str]:
    """A Latin word and its forms without a plural ending (planets, planetas, planètes)."""
    w = strip_accents(word)
    out = {w}
    for end in ("es", "s", "x"):
        if w.endswith(end) and len(w) - len(end) >= 3:
            out.add(w[: -len(end)])
    return out


@lru_cache(maxsize=1)
def _latin_index() -> dict[str, tuple[int, ...]]:
    index: dict[str, set[int]] = {}
    for k, entry in enumerate(_entries()):
        for names in entry.values():
            for name in names:
                if not CJK_RUN.search(name):
                    for key in _latin_keys(name):
                        index.setdefault(key, set()).add(k)
    return {key: tuple(sorted(v)) for key, v in index.items()}


@lru_cache(maxsize=8192)
def names(word: str) -> dict[str, tuple[str, ...]]:
    """The names of what `word` names, per language ({} when it names nothing listed). A CJK word
    matches an entry that holds it, or whose name of two characters or more it holds (太阳系
    holds 太阳 but is the solar system's own name first); a Latin word by its forms."""
    word = normalise(word).strip()
    if not word:
        return {}
    entries = _entries()
    if CJK_RUN.search(word):
        exact = [e for e in entries if any(word == n for ns in e.values() for n in ns)]
        hits = exact or [
            e
            for e in entries
            if any(len(n) >= 2 and CJK_RUN.search(n) and n in word for ns in e.values() for n in ns)
        ]
    else:
        index = _latin_index()
        ks = sorted({k for key in _latin_keys(word) for k in index.get(key, ())})
        hits = [entries[k] for k in ks]
    out: dict[str, list[str]] = {}
    for e in hits:
        for lang, ns in e.items():
            out.setdefault(lang, [])
            out[lang] += [n for n in ns if n not in out[lang]]
    return {lang: tuple(ns) for lang, ns in out.items()}


@lru_cache(maxsize=1)
def _phrases() -> tuple[str, ...]:
    """The names of more than one Latin word (solar system, tip calculator), longest first."""
    out = {
        n for e in _entries() for ns in e.values() for n in ns if " " in n and not CJK_RUN.search(n)
    }
    return tuple(sorted(out, key=len, reverse=True))


def phrases_in(text: str) -> list[str]:
    """The listed names of several words a normalised text holds, in order of appearance (a
    request's "solar system" is one thing, not "solar" and "system")."""
    found = []
    for p in _phrases():
        k = text.find(p)
        if k >= 0 and (k == 0 or not text[k - 1].isalnum()):
            end = k + len(p)
            if end == len(text) or not text[end].isalnum() or text[end] == "s":
                found.append((k, p))
                text = text[:k] + " " * len(p) + text[end:]
    return [p for _, p in sorted(found)]
