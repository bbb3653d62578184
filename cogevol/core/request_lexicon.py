"""Words about requests that both the traffic miner and the reward read: the subcategories a
request names (cogevol/core/lexicons/request.yaml) and how request text is normalised and
matched. It sits below both, so the reward never imports the miner (cogevol.traffic) to read a
request."""

from __future__ import annotations

import re
import unicodedata

from cogevol.core import lexicons

__all__ = ["PLACEHOLDER", "SELF_INTRODUCTIONS", "SUBCATEGORIES", "normalise", "word_rx"]


# How a user introduces themselves, in the eight traffic languages (and Italian): the traffic
# miner scrubs the name after it, and the checklist never reads these words as a topic.
SELF_INTRODUCTIONS = (
    "my name is",
    "i am called",
    "je m'appelle",
    "me llamo",
    "ich heiße",
    "meu nome é",
    "mi chiamo",
    "我叫",
    "私の名前は",
    "제 이름은",
)
# what the miner puts in place of a scrubbed secret, e-mail, phone number, id or name
PLACEHOLDER = re.compile(r"<[A-Z][A-Z_]+>")


def normalise(text: str) -> str:
    """NFKC (full-width forms), lower case, curly apostrophes straightened, whitespace collapsed."""
    text = unicodedata.normalize("NFKC", text).lower().replace("\u2019", "'").replace("\u2018", "'")
    return " ".join(text.split())


def word_rx(words: list[str]) -> re.Pattern:
    # Latin words need word boundaries ("page" must not match "pages" twice or "rampage");
    # CJK and kana cues match as substrings.
    latin = [w for w in words if w.isascii()]
    other = [w for w in words if not w.isascii()]
    parts = []
    if latin:
        parts.append(
            r"\b(?:" + "|".join(map(re.escape, sorted(latin, key=len, reverse=True))) + r")\b"
        )
    if other:
        parts.append("|".join(map(re.escape, sorted(other, key=len, reverse=True))))
    return re.compile("|".join(parts).lower())


# subcategory -> its words as one pattern
SUBCATEGORIES = {
    name: word_rx(words)
    for name, words in lexicons.load("request")["subcategories"].items()
}
