"""PII scrubbing: e-mails, phone numbers, national / student ids, cards, IPs, secrets, names.

Replaces each hit with a typed placeholder (<EMAIL>, <PHONE>, ...) and counts hits per type, so
curators can see what was removed without seeing the data. One compiled alternation does the
scan in C; Python only runs for actual hits.
"""

from __future__ import annotations

import re
from collections import Counter

from cogevol.core.request_lexicon import SELF_INTRODUCTIONS

_PATTERNS = {
    "SECRET": r"(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|gh[pousr]_[A-Za-z0-9]{30,}"
    r"|(?i:password|passwd|pwd|密码)\s*[:=：]\s*\S+",
    "EMAIL": r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}",
    "NATIONAL_ID": r"(?<![\d-])\d{6}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"\d{3}[\dXx](?![\d-])"
    r"|(?<![\d-])\d{3}-\d{2}-\d{4}(?![\d-])",
    "CARD": r"(?<!\d)(?:\d{4}[ -]){3}\d{4}(?!\d)",
    "PHONE": r"(?<![\w+])\+\d{1,3}[ -]?\(?\d{1,4}\)?(?:[ -]?\d{2,4}){2,3}(?!\d)"
    r"|(?<!\d)1[3-9]\d{9}(?!\d)"
    r"|\(\d{3}\)\s?\d{3}-\d{4}(?!\d)|(?<![\d-])\d{3}-\d{3}-\d{4}(?![\d-])",
    "IP": r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])",
    # Names only where the user introduces themselves; free-standing names are not guessable
    # without an NER model and guessing would scrub topics ("Newton's laws").
    "NAME": r"(?:[Mm]y name is|[Ii] am called|[Jj]e m'appelle|[Mm]e llamo|[Ii]ch heiße"
    r"|[Mm]eu nome é|[Mm]i chiamo)"
    r"\s+\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?"
    r"|我叫[\u4e00-\u9fff]{2,3}|私の名前は[^\s、。です<>]{1,8}(?=です)"
    r"|제 이름은\s?[가-힣]{2,4}(?=입니다)",
}
_NAME_LEAD = re.compile(r"^(" + "|".join(map(re.escape, SELF_INTRODUCTIONS)) + r")\s*", re.I)


def _compile() -> re.Pattern:
    # `re` has no \p classes: spell the Latin letter classes out.
    name = (
        _PATTERNS["NAME"]
        .replace(r"\p{Lu}", r"[A-ZÀ-ÖØ-ÞĀ-Ž]")
        .replace(r"\p{Ll}", r"[a-zß-öø-ÿā-ž]")
    )
    parts = {**_PATTERNS, "NAME": name}
    return re.compile("|".join(f"(?P<{k}>{v})" for k, v in parts.items()))


_RX = _compile()
# Cheap gate: every pattern needs three digits in a row, an @, or a lead-in word; most text has
# none, so the full alternation only runs where it can hit. Substring tests run in C.
_DIGITS = re.compile(r"\d\d\d")
_LEADS = (
    "name is",
    "called",
    "appelle",
    "llamo",
    "heiße",
    "nome é",
    "chiamo",
    "我叫",
    "私の名前",
    "제 이름",
    "sk-",
    "pk-",
    "rk-",
    "akia",
    "gh",
    "pass",
    "pwd",
    "密码",
)


def _may_contain_pii(text: str) -> bool:
    if "@" in text or _DIGITS.search(text):
        return True
    low = text.lower()
    return any(k in low for k in _LEADS)


def scrub(text: str, counts: Counter | None = None) -> str:
    """Replace PII in text with typed placeholders; add hits to counts when given."""
    if not text or not _may_contain_pii(text):
        return text

    def repl(m: re.Match) -> str:
        kind = m.lastgroup
        if counts is not None:
            counts[kind.lower()] += 1
        if kind == "NAME":
            lead = _NAME_LEAD.match(m.group())
            return (lead.group() if lead else "") + "<NAME>"
        return f"<{kind}>"

    return _RX.sub(repl, text)


def find(text: str) -> Counter:
    """Counts of PII hits in text, without changing it (used by the privacy filter)."""
    counts: Counter = Counter()
    scrub(text, counts)
    return counts
