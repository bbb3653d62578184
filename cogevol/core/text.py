"""Text helpers shared by mining, dedup and filtering: normalisation, script detection, tokens.

One place decides what "the same text" means, so that dedup, the filters and the miner agree.
Everything here is pure and allocation-light: dedup calls it on millions of queries.
"""

from __future__ import annotations

import re
import unicodedata

# Punctuation that NFKC leaves alone but that carries no meaning for "same request".
_CJK_PUNCT = str.maketrans(
    {
        "。": ".",
        "、": ",",
        "「": '"',
        "」": '"',
        "『": '"',
        "』": '"',
        "【": "[",
        "】": "]",
        "《": "<",
        "》": ">",
        "〈": "<",
        "〉": ">",
        "～": "~",
        "·": " ",
        "・": " ",
        "…": "...",
        "—": "-",
        "–": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "\u3000": " ",
    }
)
_WS = re.compile(r"\s+")
# the CJK scripts (kana, Han, Hangul) as a character-class body, and one character of them
CJK_CHARS = r"\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff"
CJK_CHAR = re.compile(rf"[{CJK_CHARS}]")
_HAN_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
KANA = re.compile(r"[\u3040-\u30ff]")
HANGUL = re.compile(r"[\uac00-\ud7af]")
# Tokens: a run of digits, a run of letters (Latin, Cyrillic, ...), or one CJK character.
_TOKEN = re.compile(rf"\d+(?:[.,]\d+)*|[{CJK_CHARS}]|[^\W\d_{CJK_CHARS}]+", re.UNICODE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def _is_edge_punct(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "PSZ" or ch.isspace()


def normalize(text: str) -> str:
    """Canonical form of a request: NFKC (full/half width), casefold, CJK punctuation mapped to
    ASCII, whitespace collapsed (and removed between CJK characters), edge punctuation stripped."""
    t = unicodedata.normalize("NFKC", text).translate(_CJK_PUNCT).casefold()
    t = _WS.sub(" ", t).strip()
    if _HAN_KANA.search(t):
        # Chinese and Japanese do not separate words with spaces: any space is a spacing variant
        t = t.replace(" ", "")
    start, end = 0, len(t)
    while start < end and _is_edge_punct(t[start]):
        start += 1
    while end > start and _is_edge_punct(t[end - 1]):
        end -= 1
    return t[start:end]


_STRIP_PUNCT = re.compile(r"[^\w\s]+", re.UNICODE)


def shingle_text(normalized: str) -> str:
    """The text whose character n-grams feed SimHash and TF-IDF: punctuation dropped, so that a
    comma or a question mark does not move a fingerprint."""
    t = _STRIP_PUNCT.sub(" ", normalized)
    t = _WS.sub(" ", t).strip()
    if _HAN_KANA.search(t):
        t = t.replace(" ", "")
    return t


def tokens(normalized: str) -> list[str]:
    """Word tokens for Latin-like scripts, single characters for CJK, digit runs as numbers."""
    return _TOKEN.findall(normalized)


def numbers(text: str) -> list[str]:
    return _NUMBER.findall(text)


def is_cjk_token(tok: str) -> bool:
    return len(tok) == 1 and bool(CJK_CHAR.match(tok))


def answer_start(reply: str) -> int | None:
    """Where a model's answer begins once its reasoning is set aside, or None when it has none.

    Reasoning models (Qwen3 by default) write `<think>...</think>` before the answer; the chat
    template may already have eaten the opening tag, and a draft inside the thinking often holds
    a fenced block of its own, which is not the answer. The answer starts after the last
    `</think>`; a `<think>` that never closes used the whole budget to think: no answer."""
    end = reply.rfind("</think>")
    if end != -1:
        return end + len("</think>")
    return None if "<think>" in reply else 0


def strip_thinking(reply: str) -> str:
    """The answer part of a reply ("" when the model only thought)."""
    start = answer_start(reply or "")
    return "" if start is None else (reply or "")[start:]
