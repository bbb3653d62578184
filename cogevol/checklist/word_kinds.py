"""Which words of a request can name a thing a page shows, by the kind of word and where it
stands, not by a list of words seen in requests.

Why: the checklist requires the request's subject (cogevol.checklist.rules), so every word it
keeps as a subject is a word a good page is expected to print. A page a person rated 100 lost
half its reward for not printing "demonstrating", "concept" and "extremely". Lists of request
vocabulary grow toward the requests they are checked on; these rules hold for any request in
the Latin-script languages (en es fr de pt), read with the language's general vocabulary
(wordfreq's word frequencies: is the stem a word of the language?):

- derived adverbs and modifiers: a word that is another word plus the language's adverb
  ending ("extreme-ly", "rapide-ment", "rápida-mente");
- verb forms: a gerund or participle whose stem is a verb of the language ("demonstrat-ing",
  "démontr-ant", "mostr-ando", "leucht-enden", "animat-ed"); in English and French a
  determiner before it in its noun phrase makes it a noun ("a painting", "a cool raining",
  "le restaurant") unless its own object follows ("a page showing the planets"); Spanish,
  Portuguese and German form no nouns that way;
- degree adverbs, a closed class ("very", "quite", "muy", "très", "sehr", "muito");
- the verb of a relative clause, right after its pronoun ("an app that works", "a clock that
  ticks", "une page qui montre");
- frame nouns: a word that introduces what follows it, right before ":" (any language) or an
  English "of" and a thing ("the concept: binary search", "the concept of recursion"): what
  follows is the subject, the frame is the request's own wording (the Romance "de" and German
  "von" also join the halves of one name, "cycle de l'eau", and are left alone). A word the
  subjects lexicon names (cogevol.checklist.subjects: "the orbit of the moon") stays.

CJK requests keep their own rules (particles and kana endings cut in cogevol.checklist.rules).
"""

from __future__ import annotations

import re
from functools import lru_cache

import cogevol.checklist.subjects as subjects

LATIN_LANGS = ("en", "es", "fr", "de", "pt")
# a stem is a word of the language when it is at least this common (Zipf scale: 3 = once per
# million words); rarer strings are fragments ("fami" of family)
MIN_ZIPF = 3.0


def _words(table: dict[str, str]) -> dict[str, frozenset[str]]:
    return {lang: frozenset(words.split()) for lang, words in table.items()}


# closed classes, per language
DETERMINERS = _words(
    {
        "en": "a an the this that my your our their his her its some any no each every",
        "es": "un una el la los las mi tu su nuestro nuestra este esta del al",
        "fr": "un une le la les mon ma mes ton ta son sa notre votre leur ce cet cette du au des",
        "de": "ein eine einen einem einer der die das den dem des mein meine dein unser unsere "
        "dieser diese dieses",
        "pt": "um uma o a os as meu minha seu sua nosso nossa este esta do da no na",
    }
)
DEGREE = _words(
    {
        "en": "very really quite rather pretty super extra ultra so too fairly highly extremely "
        "incredibly totally",
        "es": "muy bastante súper super tan demasiado",
        "fr": "très assez super trop vraiment plutôt hyper",
        "de": "sehr ziemlich echt ganz super extrem total richtig besonders",
        "pt": "muito bem bastante super tão demais",
    }
)
# relative pronouns: the word right after one is the clause's verb ("an app that works", "une
# page qui montre", "un reloj que funcione")
RELATIVES = _words({"en": "that which who", "es": "que", "fr": "qui", "de": "", "pt": "que"})
# what makes the word before it a frame ("X: Y" in every language, "X of Y" in English; the
# Romance "de" and German "von" also join the two halves of one name, "cycle de l'eau")
FRAME_LINKS = _words({"en": "of", "es": "", "fr": "", "de": "", "pt": ""})
# prepositions and conjunctions: a noun phrase ends at them (looking back for its determiner)
PHRASE_ENDS = _words(
    {
        "en": "with and or of for to in on by from that which",
        "fr": "avec et ou de pour à en sur par qui que",
    }
)
# adverb endings and how to get the stem back (en: "-ily" -> "-y", "-ly" -> "" or "-le")
_ADVERB = {
    "en": (("ily", ("y",)), ("ly", ("", "e", "le"))),
    "fr": (("ment", ("", "e")),),
    "es": (("mente", ("",)),),
    "pt": (("mente", ("",)),),
    "de": (("weise", ("",)),),
}
# verb-form endings and the infinitive endings a stem takes
_VERB_FORM = {
    "en": (("ing", ("", "e")), ("ed", ("", "e"))),
    "fr": (("ant", ("er", "ir", "re")),),
    "es": (("ando", ("ar",)), ("iendo", ("er", "ir")), ("yendo", ("er", "ir"))),
    "pt": (("ando", ("ar",)), ("endo", ("er",)), ("indo", ("ir",))),
    "de": tuple((end, ("en", "n")) for end in ("end", "ende", "enden", "ender", "endes", "endem")),
}
_TOKEN = re.compile(r"[a-z\u00c0-\u024f][a-z\u00c0-\u024f'\-]*|[:：]")


@lru_cache(maxsize=65536)
def _known(word: str, lang: str) -> bool:
    """Whether `word` is a word of `lang` (wordfreq; False where it is not installed)."""
    try:
        from wordfreq import zipf_frequency
    except ImportError:  # pragma: no cover - a dependency; without it no word is derived
        return False
    return len(word) >= 3 and zipf_frequency(word, lang) >= MIN_ZIPF


def _derived(word: str, lang: str, endings) -> bool:
    """`word` is a word of `lang` plus one of `endings` (a stem that is a word itself)."""
    for end, restore in endings:
        if word.endswith(end) and len(word) - len(end) >= 3:
            stem = word[: -len(end)]
            candidates = [stem + r for r in restore]
            if len(stem) >= 4 and stem[-1] == stem[-2]:  # running -> run
                candidates.append(stem[:-1])
            if any(_known(c, lang) for c in candidates):
                return True
    return False


def _nominal(lang: str, before: str, after: str, earlier: str) -> bool:
    """Whether an English or French gerund or participle stands as a noun: not followed by its
    object's determiner ("demonstrating the concept"), and with a determiner right before it
    ("a painting", "le restaurant") or, in English, one word before that inside its noun phrase
    ("a cool raining"). Spanish, Portuguese and German form no nouns that way."""
    if lang not in PHRASE_ENDS or after in DETERMINERS[lang]:
        return False
    if before in DETERMINERS[lang]:
        return True
    # an English adjective may stand between ("a cool raining"); a French one follows its noun,
    # so a French word right after a noun qualifies it ("une page montrant")
    return lang == "en" and before not in PHRASE_ENDS[lang] and earlier in DETERMINERS[lang]


def not_a_thing(
    word: str, before: str, after: str, lang: str, after_next: str = "", earlier: str = ""
) -> str:
    """Why `word` (normalised, lower case) names no thing where it stands, between the words
    `before` and `after` ("" at an edge; ":" for a colon), `earlier` the word before `before`
    and `after_next` the first word past `after` and its articles, or "" when it may name
    one."""
    if lang not in LATIN_LANGS:
        return ""
    if word in DEGREE[lang]:
        return "degree adverb"
    if before in RELATIVES[lang] and not _known_thing(word):
        return "verb of a relative clause"
    if _derived(word, lang, _ADVERB[lang]) and not _known_thing(word):
        return "adverb"
    if _derived(word, lang, _VERB_FORM[lang]) and not _nominal(lang, before, after, earlier):
        if not _known_thing(word):
            return "verb form"
    if (
        (after in (":", "：") or after in FRAME_LINKS[lang])
        and after_next
        and not _known_thing(word)
    ):
        return "frame"
    return ""


def _known_thing(word: str) -> bool:
    return bool(subjects.names(word))


def drop_non_things(text: str, lang: str) -> tuple[str, list[tuple[str, str]]]:
    """`text` (normalised) with the words that name no thing blanked out, and what was dropped
    and why."""
    if lang not in LATIN_LANGS:
        return text, []
    toks = list(_TOKEN.finditer(text))
    dropped, spans = [], []
    for i, m in enumerate(toks):
        w = m.group()
        if w in (":", "："):
            continue
        before = toks[i - 1].group() if i else ""
        after = toks[i + 1].group() if i + 1 < len(toks) else ""
        # what the frame introduces: the word after ":" or after the link and its articles
        j = i + 2
        while j < len(toks) and toks[j].group() in DETERMINERS[lang]:
            j += 1
        after_next = toks[j].group() if j < len(toks) else ""
        earlier = toks[i - 2].group() if i > 1 else ""
        why = not_a_thing(w, before, after, lang, after_next, earlier)
        if why:
            dropped.append((w, why))
            spans.append(m.span())
    for start, end in reversed(spans):
        text = text[:start] + " " * (end - start) + text[end:]
    return text, dropped
