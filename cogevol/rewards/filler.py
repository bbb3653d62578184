"""Placeholder text where a page's content should be: "Lorem ipsum dolor sit amet...".

Lorem ipsum is the filler of every language: a generated page that shows it has left its content
unwritten (seed 002's content richness: "mostly placeholder"). The `blank` term pays a page for
filling its screen, and filler fills a screen for free; this is what keeps that from being a
shortcut. A request that asks for placeholder text (a template, a wireframe) is answered by it.
"""

from __future__ import annotations

import re
import unicodedata

# words of the classic passage (and its usual variants) that are no word of a living language
# a page would write: three of them at once are the filler, never a coincidence
SIGNATURE = frozenset(
    """lorem ipsum dolor amet consectetur adipiscing adipisicing eiusmod tempor incididunt labore
    dolore aliqua veniam nostrud ullamco laboris aliquip commodo consequat reprehenderit voluptate
    cillum fugiat pariatur excepteur occaecat cupidatat proident deserunt mollit laborum vivamus
    curabitur""".split()
)
MIN_SIGNATURE = 3

# a request that asks for filler, in the eight traffic languages
ASKS = re.compile(
    r"lorem|placeholder|dummy text|filler text|texto de relleno|texte (?:de remplissage|factice)"
    r"|faux texte|blindtext|platzhalter|texto (?:de preenchimento|fictício)|占位|假文|填充文本"
    r"|ダミーテキスト|仮テキスト|더미 텍스트|자리 표시자",
    re.IGNORECASE,
)


def shows_filler(text: str) -> bool:
    """Whether the page's visible text holds lorem ipsum filler."""
    words = set(re.findall(r"[a-z]+", unicodedata.normalize("NFKC", text).lower()))
    return len(words & SIGNATURE) >= MIN_SIGNATURE


def asks_for_filler(request: str) -> bool:
    """Whether the request asks for placeholder text (then showing it is no defect)."""
    return bool(ASKS.search(unicodedata.normalize("NFKC", request or "")))
