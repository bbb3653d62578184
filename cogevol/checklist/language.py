"""The language of a text: by script for CJK, by function words and accents for Latin scripts."""

from __future__ import annotations

import re

from cogevol.checklist.lexicon import lexicon
from cogevol.checklist.scripts import HAN, HANGUL, KANA, latin_words
from cogevol.request_lexicon import normalise


def detect_language(text: str, min_letters: int = 12) -> str:
    """The language of a text, by script (hangul: ko, kana: ja, Han: zh) and, for Latin scripts,
    by the function words of en/es/fr/de/pt; "" when there is too little text to tell."""
    text = normalise(text or "")
    han, kana, hangul = (
        len(HAN.findall(text)),
        len(KANA.findall(text)),
        len(HANGUL.findall(text)),
    )
    words = latin_words(text)
    latin = sum(len(w) for w in words)
    cjk = han + kana + hangul
    if cjk * 3 >= max(latin, 1) and cjk >= 4:
        if hangul >= max(han, kana):
            return "ko"
        return "ja" if kana >= 2 else "zh"
    if latin < min_letters:
        return ""
    fw = lexicon().function_words
    hits = {lang: sum(w in ws for w in words) for lang, ws in fw.items()}
    # accents tell the Romance languages apart where the function words tie
    hits["es"] += len(re.findall(r"[ñ¿¡]", text))
    hits["pt"] += len(re.findall(r"[ãõç]", text))
    hits["fr"] += len(re.findall(r"[èêàùâîôûœ]", text))
    hits["de"] += len(re.findall(r"[äöüß]", text))
    best = max(hits, key=lambda k: (hits[k], k == "en"))
    return best if hits[best] >= 1 else "en" if latin >= 3 * min_letters else ""
