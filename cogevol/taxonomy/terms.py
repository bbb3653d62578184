"""Multilingual term matching for the taxonomy's lexicons: whole words and stems in Latin
scripts, substrings in Chinese, Japanese and Korean, every language's terms tried on every text.

Why not one big regular expression: the lexicons hold thousands of terms, and the offline
classifier has to label millions of mined requests (issue target: 5,000 requests/s on one core).
Words are looked up in dictionaries (a word and its prefixes for stems); CJK terms are indexed
by their first two characters and checked where those occur. Each distinct term counts once per
text, whatever its repeats, so a long request does not outweigh a precise one.

Term syntax (the YAML files under cogevol/taxonomy/):
- Latin-script terms match whole words, case and accents ignored ("Réinitialiser" matches
  "reinitialiser"); a trailing `*` makes a stem (`calculat*` matches "calculator",
  "calculating"); several words match consecutive words, punctuation and hyphens splitting
  words ("to-do" is "to do").
- A term with a Han, kana or Hangul character matches as a substring (CJK has no spaces).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

from cogevol.core.text import CJK_CHAR, CJK_CHARS

_MARKS = re.compile(r"[\u0300-\u036f]")  # Latin diacritics only: dakuten and Hangul survive NFC
_LETTERS = re.compile(r"[^\W_]")
# a word: letters and digits outside CJK scripts (CJK characters split words: "用canvas画")
_WORD = re.compile(rf"[^\W_{CJK_CHARS}]+")
MIN_STEM = 3
MEMO_MAX = 500_000  # distinct words remembered per term set (a few tens of MB at most)


def fold(text: str) -> str:
    """Case, width and Latin accents folded: the form both terms and texts are compared in."""
    text = text or ""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", _MARKS.sub("", text)).casefold()


@dataclass(frozen=True)
class Term:
    """One compiled term: its label, weight and written form."""

    label: Hashable
    weight: float
    text: str


@dataclass
class TermSet:
    """Terms of many labels, compiled once; `scores(text)` sums each label's matched weights."""

    _words: dict[str, list[tuple[tuple[str, ...], int]]] = field(default_factory=dict)
    _stems: dict[str, list[tuple[tuple[str, ...], int]]] = field(default_factory=dict)
    _cjk: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    terms: list[Term] = field(default_factory=list)
    _memo: dict[str, tuple] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, entries: Iterable[tuple[Hashable, str, float]]) -> TermSet:
        """From (label, term, weight) triples; the same term under one label keeps its highest
        weight. A term with no letters is ignored."""
        ts = cls()
        seen: dict[tuple[Hashable, str], int] = {}
        for label, raw, weight in entries:
            text = fold(str(raw)).strip()
            if not _LETTERS.search(text):
                continue
            key = (label, text)
            if key in seen:
                k = seen[key]
                if weight > ts.terms[k].weight:
                    ts.terms[k] = Term(label, weight, str(raw))
                continue
            k = seen[key] = len(ts.terms)
            ts.terms.append(Term(label, weight, str(raw)))
            if CJK_CHAR.search(text):
                body = text.replace("*", "")
                ts._cjk.setdefault(body[:2], []).append((body, k))
                continue
            words = tuple(  # each word, with its `*` when it is a stem
                m.group() + ("*" if text[m.end() : m.end() + 1] == "*" else "")
                for m in _WORD.finditer(text)
            )
            head = words[0]
            if head.endswith("*") and len(head) - 1 >= MIN_STEM:
                ts._stems.setdefault(head[:-1], []).append((words, k))
            else:
                ts._words.setdefault(head.rstrip("*"), []).append((words, k))
        return ts

    def matches(self, text: str, folded: bool = False) -> set[int]:
        """Indices (into `terms`) of the terms found in `text` (`folded`: already `fold`ed, when
        several term sets read one text)."""
        t = text if folded else fold(text)
        found: set[int] = set()
        if self._cjk and CJK_CHAR.search(t):
            cjk = self._cjk
            for i in range(len(t) - 1):
                cands = cjk.get(t[i : i + 2])
                if cands:
                    for body, k in cands:
                        if t.startswith(body, i):
                            found.add(k)
        toks = _WORD.findall(t)
        memo, last = self._memo, len(toks) - 1
        for i, tok in enumerate(toks):
            starts = memo.get(tok)
            if starts is None:
                starts = self._starting(tok)
                if len(memo) < MEMO_MAX:
                    memo[tok] = starts
            if not starts:  # most words start no term
                continue
            singles, by_next, stem_next = starts
            if singles:
                found.update(singles)
            if i == last or not (by_next or stem_next):
                continue
            for words, k in by_next.get(toks[i + 1], ()):
                if _rest(words, toks, i):
                    found.add(k)
            for words, k in stem_next:
                if _rest(words, toks, i):
                    found.add(k)
        return found

    def _starting(self, tok: str) -> tuple[list[int], dict, list] | tuple[()]:
        """The terms whose first word is `tok` or a stem of it: one-word terms, and longer ones
        keyed by their exact second word (or listed when it is a stem). Remembered per word:
        words repeat across requests far more than they vary."""
        cands = list(self._words.get(tok, ()))
        for n in range(MIN_STEM, len(tok) + 1):
            cands += self._stems.get(tok[:n], ())
        singles = [k for words, k in cands if len(words) == 1]
        by_next: dict[str, list] = {}
        stem_next = []
        for words, k in cands:
            if len(words) > 1:
                if words[1].endswith("*"):
                    stem_next.append((words, k))
                else:
                    by_next.setdefault(words[1], []).append((words, k))
        return (singles, by_next, stem_next) if cands else ()

    def scores(self, text: str, folded: bool = False) -> dict[Hashable, float]:
        """label -> the summed weight of its terms found in `text` (labels with none absent)."""
        out: dict[Hashable, float] = {}
        for k in self.matches(text, folded):
            term = self.terms[k]
            out[term.label] = out.get(term.label, 0.0) + term.weight
        return out

    def found(self, text: str, folded: bool = False) -> dict[Hashable, list[str]]:
        """label -> the terms found (as written in the lexicon), for explanations."""
        out: dict[Hashable, list[str]] = {}
        for k in sorted(self.matches(text, folded)):
            out.setdefault(self.terms[k].label, []).append(self.terms[k].text)
        return out


def _rest(words: tuple[str, ...], toks: list[str], i: int) -> bool:
    """Whether the words after a term's first match the tokens after position i."""
    if i + len(words) > len(toks):
        return False
    return all(
        toks[i + j].startswith(w[:-1]) if w.endswith("*") else toks[i + j] == w
        for j, w in enumerate(words[1:], 1)
    )


def by_language(terms: Mapping[str, Iterable[str]] | Iterable[str] | None) -> list[str]:
    """The terms of a lexicon entry, all languages together ({lang: [terms]} or a plain list)."""
    if not terms:
        return []
    if isinstance(terms, Mapping):
        return [t for lst in terms.values() for t in (lst or [])]
    return list(terms)
