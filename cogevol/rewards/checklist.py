"""The request's own checklist: what a request asks for, as checks run against its answer.

Why: a reward that only asks "does some page work?" pays the same for the right page and for a
page written for another prompt, and GRPO on it learns to ignore the request. So every request
gets a checklist, planned from the request alone (never from an answer: the grader must not be
led by the code it grades), and every answer is scored against it. The share of weighted checks
the answer misses is the `fulfilment` defect term; an answer that misses every must-have check
(wrong language and none of the things the request names) can fail the gate.

The format (JSON, version 1; docs/checklist.md):

    {"version": 1, "source": "rules" | "llm", "language": "en",
     "checks": [{"check": "language", "value": "en", "weight": 1.0, "must": true, "cue": "..."},
                {"check": "control", "value": "range", "weight": 1.0, "cue": "slider"},
                {"check": "label", "value": "Reset", ...},
                {"check": "key", "value": "ArrowKeys", ...},
                {"check": "count", "value": "cities", "n": 3, ...},
                {"check": "mentions", "value": "planets", "must": true, ...},
                {"check": "slides", "n": 5, ...}, {"check": "element", "value": "chart", ...}]}

Each check, run against an answer, is `met`, `unmet` or `unverifiable`, with a reason; an
unverifiable check (a scene with no text to read the language from, a control the budget left
undriven) is never counted against the answer.

Two planners write the same format: `plan_rules` (offline, always available; the lexicon in
checklist_lexicon.yaml covers the eight traffic languages) and an LLM planner through the teacher
endpoint or its replay file (cogevol.rewards.checklist_planner). Checklists are planned once per
prompt and stored with it; the scorers plan with the rules when an item comes without one.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from cogevol.rewards.expects import normalise

LEXICON_PATH = Path(__file__).with_name("checklist_lexicon.yaml")
VERSION = 1
CHECKS = ("language", "control", "label", "key", "count", "mentions", "slides", "element")
MAX_MENTIONS = 6

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
_LATIN_WORD = re.compile(r"[a-z\u00c0-\u024f][a-z\u00c0-\u024f'\-]*[a-z\u00c0-\u024f]|[a-z]")
# French and Italian: d'eau, l'orthographe, qu'il
_ELISION = re.compile(r"\b(?:[cdjlmnst]|qu|jusqu|lorsqu|puisqu)[''](?=[a-z\u00c0-\u024f])")


def latin_words(text: str) -> list[str]:
    """The Latin-script words of a normalised text, elided articles split off (d'eau -> eau)."""
    return _LATIN_WORD.findall(_ELISION.sub(" ", text))


# code in a request: `spans`, camelCase and snake_case names, words with digits (2d, 500px, h1),
# file names, colours and hyphenated fragments ("single-file")
_CODE = re.compile(
    r"`[^`]*`|\b[a-z]+[A-Z]\w*|\b\w*_\w+|(?<![A-Za-z0-9_])[A-Za-z_]*\d[A-Za-z0-9_]*|\S+\.(?:js|html|css|json|png)\b|#[0-9a-fA-F]{3,6}\b|\b\w+-(?=\w)"
)
_LABELLED = re.compile(
    r"\b(label(?:l)?ed|called|named|titled|saying|reads)\b|etiquetad|intitul|beschrift|rotulad|标为|写着|ラベル|라벨"
)
# "a Fire button", "Step and Reset buttons"
_NAMED_BUTTON = re.compile(r"\b([A-Z][a-z]+)(?:\s+and\s+([A-Z][a-z]+))?\s+buttons?\b")
_QUOTED = re.compile(
    r"[\"“”«»„「『]\s*([^\"“”«»„」』]{1,30}?)\s*[\"“”«»」』]|(?<![a-z])'([^']{1,30})'(?![a-z])"
)


@dataclass(frozen=True)
class Check:
    """One thing the request asks for. `value` names it (a language code, a control kind, a
    label, a key, a content word, a slide element); `n` is a count where one applies."""

    check: str
    value: str = ""
    n: int | None = None
    weight: float = 1.0
    # a must-have: an answer missing every must-have fails the gate (probe.terms.fulfilment_gate)
    must: bool = False
    cue: str = ""  # the words of the request it came from

    def __post_init__(self) -> None:
        if self.check not in CHECKS:
            raise ValueError(f"check must be one of {CHECKS}, not {self.check!r}")


@dataclass(frozen=True)
class Checklist:
    checks: tuple[Check, ...] = ()
    source: str = "rules"  # the planner that wrote it: rules | llm
    language: str = ""
    note: str = ""  # why it was not planned the configured way (a fallback to the rules), else ""

    def to_json(self) -> dict[str, Any]:
        out = {
            "version": VERSION,
            "source": self.source,
            "language": self.language,
            "checks": [
                {k: v for k, v in asdict(c).items() if v not in (None, "", False) or k == "check"}
                for c in self.checks
            ],
        }
        return {**out, "note": self.note} if self.note else out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Checklist:
        """Strict: an unknown version, check kind or field is an error, not a silent drop."""
        if d.get("version") != VERSION:
            raise ValueError(f"checklist version {d.get('version')!r} is not {VERSION}")
        known = set(Check.__dataclass_fields__)
        checks = []
        for c in d.get("checks") or []:
            extra = set(c) - known
            if extra:
                raise ValueError(f"unknown checklist field(s) {sorted(extra)}")
            checks.append(Check(**c))
        extra = set(d) - {"version", "source", "language", "checks", "note"}
        if extra:
            raise ValueError(f"unknown checklist field(s) {sorted(extra)}")
        return cls(
            tuple(checks), d.get("source", "rules"), d.get("language", ""), d.get("note", "")
        )


@dataclass
class CheckResult:
    check: str
    value: str
    status: str
    reason: str
    weight: float = 1.0
    must: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "value": self.value,
            "status": self.status,
            "reason": self.reason,
        }


# --- lexicon ----------------------------------------------------------------------------------


def _strip_accents(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s) if unicodedata.category(c) != "Mn")


def _cue_rx(words: list[str]) -> re.Pattern:
    """Whole words for Latin entries ("stem*" a word starting with the stem), substrings for CJK."""
    parts = []
    for w in sorted({normalise(x) for x in words}, key=len, reverse=True):
        stem = w.endswith("*")
        w = w.rstrip("*")
        if _CJK_RUN.search(w):
            parts.append(re.escape(w))
        else:
            parts.append(r"(?<![\w])" + re.escape(w) + (r"[\w\-]*" if stem else r"(?![\w])"))
    return re.compile("|".join(parts))


@dataclass(frozen=True)
class _Lexicon:
    controls: tuple[tuple[str, re.Pattern], ...]
    keys: tuple[tuple[str, re.Pattern], ...]
    numbers: dict[str, int]
    number_rx: re.Pattern
    count_skip: frozenset[str]
    counters: tuple[str, ...]
    elements: tuple[tuple[str, re.Pattern], ...]
    slide_rx: re.Pattern
    generic: frozenset[str]
    generic_cjk: tuple[str, ...]
    function_words: dict[str, frozenset[str]]
    # (name, inherent, request words, label words)
    purposes: tuple[tuple[str, bool, re.Pattern, re.Pattern], ...]
    toggle_rx: re.Pattern


@lru_cache(maxsize=1)
def lexicon() -> _Lexicon:
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))

    def flat(d: dict) -> list[str]:
        return [w for ws in d.values() for w in ws]

    numbers = {
        normalise(str(k)): int(v) for lang in data["numbers"].values() for k, v in lang.items()
    }
    latin_nums = sorted((k for k in numbers if not _CJK_RUN.search(k)), key=len, reverse=True)
    cjk_nums = sorted((k for k in numbers if _CJK_RUN.search(k)), key=len, reverse=True)
    number_rx = re.compile(
        r"(?<![0-9A-Za-z.])(\d{1,3})(?![\d.,:])|(?<![\w])("
        + "|".join(map(re.escape, latin_nums))
        + r")(?![\w])|("
        + "|".join(map(re.escape, cjk_nums))
        + ")"
    )
    generic = {
        normalise(w) for group in ("generic", "styling") for ws in data[group].values() for w in ws
    }
    fw = {lang: frozenset(normalise(w) for w in ws) for lang, ws in data["function_words"].items()}
    # the language of a request also shows in how it asks ("erstelle", "crea", "crie"): each
    # language's request vocabulary that no other Latin language shares counts for it too
    latin = {
        lang: {
            normalise(w) for w in data["generic"].get(lang, []) if not _CJK_RUN.search(normalise(w))
        }
        for lang in fw
    }
    own = {
        lang: words - set().union(*(v for k, v in latin.items() if k != lang))
        for lang, words in latin.items()
    }
    cues = {lang: fw[lang] | frozenset(own[lang]) for lang in fw}
    return _Lexicon(
        controls=tuple((kind, _cue_rx(flat(langs))) for kind, langs in data["controls"].items()),
        keys=tuple((key, _cue_rx(words)) for key, words in data["keys"].items()),
        numbers=numbers,
        number_rx=number_rx,
        count_skip=frozenset(normalise(w) for ws in data["count_skip"].values() for w in ws),
        counters=tuple(sorted(data["counters"], key=len, reverse=True)),
        elements=tuple((kind, _cue_rx(words)) for kind, words in data["slide_elements"].items()),
        slide_rx=_cue_rx(data["slide_words"]),
        generic=frozenset(w for w in generic if not _CJK_RUN.search(w))
        | frozenset().union(*fw.values()),
        generic_cjk=tuple(
            sorted((w for w in generic if _CJK_RUN.search(w)), key=len, reverse=True)
        ),
        function_words=cues,
        purposes=tuple(
            (
                name,
                bool(p.get("inherent")),
                _cue_rx(p["words"]),
                _cue_rx(p["words"] + p.get("labels", [])),
            )
            for name, p in data["purposes"].items()
        ),
        toggle_rx=_cue_rx(data["toggle_words"]),
    )


# --- language ---------------------------------------------------------------------------------


def detect_language(text: str, min_letters: int = 12) -> str:
    """The language of a text, by script (hangul: ko, kana: ja, Han: zh) and, for Latin scripts,
    by the function words of en/es/fr/de/pt; "" when there is too little text to tell."""
    text = normalise(text or "")
    han, kana, hangul = (
        len(_HAN.findall(text)),
        len(_KANA.findall(text)),
        len(_HANGUL.findall(text)),
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


# --- the rules planner --------------------------------------------------------------------------


def _content_words(text: str, lex: _Lexicon) -> list[str]:
    """The things a request names: Latin words of 3+ letters that are neither function words nor
    request vocabulary, and CJK runs left once the request vocabulary is cut out; in order."""
    out: list[str] = []
    for w in latin_words(re.sub(r"https?://\S+|\S+\.(?:js|html|css)\b", " ", text)):
        w = w.strip("'-")
        if len(w) >= 3 and w not in lex.generic and not w.isdigit() and w not in lex.numbers:
            out.append(w)
    for run in _CJK_RUN.findall(text):
        for g in lex.generic_cjk:
            run = run.replace(g, " ")
        for piece in (*lex.counters, *(k for k in lex.numbers if _CJK_RUN.search(k))):
            run = run.replace(piece, " ")
        out += [p for p in run.split() if 2 <= len(p) <= 8]
    return list(dict.fromkeys(out))[:MAX_MENTIONS]


def _counts(text: str, lex: _Lexicon) -> list[tuple[int, str, str]]:
    """(n, noun, cue) for "12 cards", "three cities", "五个城市", "다섯 개의 행성"."""
    out = []
    for m in lex.number_rx.finditer(text):
        raw = m.group(1) or m.group(2) or m.group(3)
        n = int(raw) if raw.isdigit() else lex.numbers.get(raw)
        if n is None or not 2 <= n <= 100:
            continue
        rest = text[m.end() : m.end() + 24]
        if m.group(3) or _CJK_RUN.match(rest.lstrip()):
            rest = rest.lstrip()
            counter = next((c for c in lex.counters if rest.startswith(c)), "")
            # a CJK numeral counts only before a counter word (三个, 다섯 개), not inside words
            if m.group(3) and not counter:
                continue
            rest = rest[len(counter) :].lstrip()
            noun = re.match(r"[\u3400-\u9fff\u30a0-\u30ff]+|[\uac00-\ud7af]+", rest)
            noun = re.sub(r"(이|가|을|를|은|는|의|들)$", "", noun.group()) if noun else ""
            noun = re.split(r"[的之の]", noun)[0][:4]
        else:
            words = _LATIN_WORD.findall(rest.replace("-", " "))
            noun = words[0] if words else ""
            if noun in ("more", "of", "de", "of", "or", "to", "x"):
                noun = ""
        if len(noun) < (1 if _CJK_RUN.search(noun or "a") else 3) or noun in lex.count_skip:
            continue
        out.append((n, noun, text[m.start() : m.end() + len(noun) + 6].strip()))
    return out


def plan_rules(request: str, modality: str = "html") -> Checklist:
    """The checklist the rules read from `request` alone (modality "html" or "slide")."""
    text = normalise(request or "")
    if not text:
        return Checklist((), "rules", "")
    lex = lexicon()
    lang = detect_language(request, min_letters=6) or "en"
    checks = [Check("language", lang, weight=1.0, must=True, cue=f"request written in {lang}")]
    if modality == "html":
        for kind, rx in lex.controls:
            m = rx.search(text)
            if m:
                checks.append(Check("control", kind, cue=m.group()))
        button = next(rx for kind, rx in lex.controls if kind == "click")
        for m in _QUOTED.finditer(request):
            label = (m.group(1) or m.group(2) or "").strip()
            near = normalise(request[max(0, m.start() - 30) : m.end() + 30])
            # a quoted name is a label when the request says it is on a control ("a 'Reset'
            # button"), not code it quotes ('gameCanvas', '2d')
            if (
                label
                and len(label) <= 30
                and not _CODE.fullmatch(label)
                and not _CODE.match(label)
                and (button.search(near) or _LABELLED.search(near))
            ):
                checks.append(Check("label", label, cue=m.group()))
        # controls named by what they do: "a reset button", "pause and resume", "a Fire button"
        purposes = []
        for _, inherent, rx, _ in lex.purposes:
            for m in rx.finditer(text):
                near = text[max(0, m.start() - 40) : m.end() + 40]
                if inherent or button.search(near) or lex.toggle_rx.search(near):
                    # "reset-knopf"
                    word = m.group().split("-")[0] if button.search(m.group()) else m.group()
                    checks.append(Check("label", word, cue=word))
                    purposes.append(rx)
                    break
        for m in _NAMED_BUTTON.finditer(request):
            for word in filter(None, m.groups()):
                if normalise(word) not in lex.generic:
                    checks.append(Check("label", word, cue=normalise(word)))
        if len([c for c in checks if c.check == "label"]) >= len(button.findall(text)):
            # every button named is a label check
            checks = [c for c in checks if (c.check, c.value) != ("control", "click")]
        for key, rx in lex.keys:
            m = rx.search(text)
            if m:
                checks.append(Check("key", key, cue=m.group()))
        for n, noun, cue in _counts(text, lex):
            if not lex.slide_rx.search(noun):
                checks.append(Check("count", noun, n=n, cue=cue))
    else:
        for m in lex.number_rx.finditer(text):
            raw = m.group(1) or m.group(2) or m.group(3)
            n = int(raw) if raw.isdigit() else lex.numbers.get(raw)
            # the number of slides is the number right before a slide word ("5 slides",
            # "a 5-slide deck", "6张幻灯片", "5枚のスライド", "12장") or right after one
            # ("slides: 5"), not any number near one
            after = re.sub(r"^[\s\-–]*(?:枚の?|개의\s*)?", "", text[m.end() : m.end() + 16])
            before = text[max(0, m.start() - 16) : m.start()]
            if (
                n
                and 1 <= n <= 40
                and (
                    lex.slide_rx.match(after)
                    or re.match(r"\s*(?:枚|张|页|頁|장)", text[m.end() :])
                    or re.search(
                        r"(?:slides?|folien|diapositivas?|スライド|슬라이드)\s*[:(]\s*$", before
                    )
                )
            ):
                checks.append(Check("slides", n=n, cue=text[m.start() : m.end() + 12].strip()))
                break
        seen = text
        for kind, rx in lex.elements:
            m = rx.search(seen)
            if m:
                checks.append(Check("element", kind, cue=m.group()))
                seen = rx.sub(" ", seen)
    labels = {normalise(c.value) for c in checks if c.check == "label"}
    # identifiers, file names and numbers are how to build it, not what to show
    rest = normalise(_CODE.sub(" ", request))
    for c in checks:  # the words that named a control, a key or an element are not the topic
        if c.check in ("control", "key", "element", "label") and c.cue:
            rest = rest.replace(c.cue, " ")
    # nor are the words of a named control's purpose ("pause and resume")
    for rx in purposes if modality == "html" else ():
        rest = rx.sub(" ", rest)
    words = [w for w in _content_words(rest, lex) if w not in labels]
    for w in words:
        checks.append(Check("mentions", w, weight=round(2 / len(words), 4), must=True, cue=w))
    labels = [normalise(c.value) for c in checks if c.check == "label"]
    checks = [
        c
        for c in checks
        if c.check != "label"
        or not any(normalise(c.value) in v and normalise(c.value) != v for v in labels)
    ]
    # a thing asked twice is one check
    unique = {(c.check, normalise(c.value), c.n): c for c in reversed(checks)}
    return Checklist(
        tuple(c for c in checks if unique[(c.check, normalise(c.value), c.n)] is c), "rules", lang
    )


@lru_cache(maxsize=4096)
def _planned(request: str, modality: str) -> Checklist:
    return plan_rules(request, modality)


def checklist_for(request: str, modality: str = "html", stored: dict | None = None) -> Checklist:
    """The stored checklist when there is one, else the rules' (cached per request)."""
    if stored:
        return Checklist.from_json(stored)
    return _planned(request or "", modality)


# --- running the checks ---------------------------------------------------------------------


def _tokens(text: str) -> set[str]:
    return {_strip_accents(w) for w in latin_words(normalise(text))}


def _mentioned(word: str, tokens: set[str], text: str) -> bool:
    """A request word in a text: CJK by substring (or any two-character piece of it), Latin by
    word, allowing inflection (planets / planet, planetas / planeta); a phrase ("Revolución
    francesa", "단위 변환기") when the text holds it whole or every word of it."""
    word = word.strip()
    if " " in word and word in text:
        return True
    parts = [w for w in re.split(r"[\s\-]+", _ELISION.sub(" ", word)) if w]
    if len(parts) > 1:
        return all(_mentioned(w, tokens, text) for w in parts)
    word = parts[0] if parts else word
    if _CJK_RUN.fullmatch(word):
        return word in text or (
            len(word) >= 3 and any(word[i : i + 2] in text for i in range(len(word) - 1))
        )
    w = _strip_accents(word)
    stem = w[: max(4, len(w) - 2)] if len(w) >= 6 else w
    return any(
        t == w or t.startswith(stem) or (len(t) >= 3 and w.startswith(t) and len(w) - len(t) <= 2)
        for t in tokens
    )


@dataclass
class PageFacts:
    """What an answer shows, as the checks read it: visible text (DOM, labels, title, canvas
    text), the controls and their verdicts, repeated groups, and the source (for scenes)."""

    text: str = ""
    # {"kind", "type", "label", "verdict", "status"}
    controls: list[dict] = field(default_factory=list)
    groups: list[int] = field(default_factory=list)  # sizes of groups of alike visible siblings
    source: str = ""
    # mostly drawn (canvas, WebGL, SVG) with little text: words may be in the code only
    scene: bool = False
    slides: int | None = None
    elements: dict[str, int] = field(default_factory=dict)  # slide element types -> count


def _control_status(matches: list[dict], what: str) -> tuple[str, str]:
    if not matches:
        return "unmet", f"no {what} on the page"
    if any(c.get("verdict") == "live" for c in matches):
        return "met", f"a {what} responds"
    if any(
        c.get("status") == "skipped" or (c.get("status") == "operable" and not c.get("verdict"))
        for c in matches
    ):
        return "unverifiable", f"a {what} is there; the budget ran out before it was driven"
    if any(c.get("verdict") == "dead" for c in matches):
        return "unmet", f"a {what} is there but changes nothing"
    return (
        "unverifiable",
        f"a {what} is there but could not be operated ({matches[0].get('reason', '')})",
    )


def run_check(c: Check, f: PageFacts) -> CheckResult:
    """One check against what the answer shows."""

    def res(status: str, reason: str) -> CheckResult:
        return CheckResult(
            c.check,
            c.value if c.n is None else f"{c.n} {c.value}".strip(),
            status,
            reason,
            c.weight,
            c.must,
        )

    text = normalise(f.text)
    if c.check == "language":
        got = detect_language(f.text)
        if not got:
            return res("unverifiable", "too little text to tell the language")
        return res(
            "met" if got == c.value else "unmet",
            f"the text is in {got}" + ("" if got == c.value else f", the request in {c.value}"),
        )
    if c.check == "mentions":
        if _mentioned(normalise(c.value), _tokens(f.text), text):
            return res("met", f"{c.value!r} is shown")
        if f.scene and _mentioned(normalise(c.value), _tokens(f.source), normalise(f.source)):
            return res("met", f"{c.value!r} is named in the code of a drawn scene")
        return res("unmet", f"{c.value!r} appears nowhere on the page")
    if c.check == "control":
        kinds = {
            "range": ("range", ""),
            "text": ("text", ""),
            "select": ("select", ""),
            "checkbox": ("click", "checkbox"),
            "click": ("click", ""),
        }
        kind, typ = kinds.get(c.value, (c.value, ""))
        matches = [
            x for x in f.controls if x.get("kind") == kind and (not typ or x.get("type") == typ)
        ]
        return res(
            *_control_status(
                matches,
                {
                    "range": "slider",
                    "text": "text field",
                    "select": "drop-down",
                    "checkbox": "checkbox",
                    "click": "button",
                }.get(c.value, c.value),
            )
        )
    if c.check == "label":
        want = normalise(c.value)
        # a label named by its purpose matches that purpose's words in any of the eight languages
        alike = next(
            (labels for _, _, words, labels in lexicon().purposes if words.fullmatch(want)), None
        )
        matches = [
            x
            for x in f.controls
            if want
            and (
                want in normalise(x.get("label", ""))
                or (alike is not None and alike.search(normalise(x.get("label", ""))))
            )
        ]
        if not matches and want in text:
            return res("unmet", f"{c.value!r} is shown but is not a control")
        return res(*_control_status(matches, f"control labelled {c.value!r}"))
    if c.check == "key":
        return res(
            *_control_status([x for x in f.controls if x.get("kind") == "keyboard"], "key listener")
        )
    if c.check == "count":
        if c.n in f.groups:
            return res("met", f"a group of {c.n} alike elements")
        if re.search(rf"(?<!\d){c.n}(?!\d)", text):
            return res("met", f"the number {c.n} is shown")
        if f.scene:
            return res("unverifiable", "a drawn scene: its items cannot be counted")
        return res("unmet", f"no group of {c.n} and no {c.n} shown")
    if c.check == "slides":
        if f.slides is None:
            return res("unverifiable", "no deck")
        return res("met" if f.slides == c.n else "unmet", f"{f.slides} slides")
    if c.check == "element":
        if c.value in ("chart", "table", "image"):
            k = f.elements.get(c.value, 0)
            return res("met" if k else "unmet", f"{k} {c.value} element(s)")
        words = {
            "timeline": (
                "timeline",
                "time line",
                "línea de tiempo",
                "zeitstrahl",
                "时间线",
                "タイムライン",
                "타임라인",
            ),
            "map": ("map", "mapa", "carte", "karte", "地图", "地図", "지도"),
        }.get(c.value, (c.value,))
        if any(_mentioned(normalise(w), _tokens(f.text), text) for w in words):
            return res("met", f"a {c.value} is named on a slide")
        return res("unmet", f"no {c.value} on any slide")
    return res("unverifiable", "unknown check")


def run_checklist(
    checklist: Checklist, facts: PageFacts | None, why: str = ""
) -> list[CheckResult]:
    """Every check against what the answer shows; with no facts (the answer never got as far
    as showing anything the checks can read), every check is unverifiable because of `why`."""
    if facts is None:
        return [
            CheckResult(
                c.check,
                c.value if c.n is None else f"{c.n} {c.value}".strip(),
                "unverifiable",
                why,
                c.weight,
                c.must,
            )
            for c in checklist.checks
        ]
    return [run_check(c, facts) for c in checklist.checks]


def fulfilment(results: list[CheckResult]) -> tuple[float | None, str]:
    """(the fulfilment defect: weighted share of verifiable checks unmet, or None when none is
    verifiable; why the answer misses every must-have check, or "").

    The named things count as one group: showing half of them is the whole group's weight
    (a request's words include verbs and asides no page shows, "adds", "realistic"), fewer is
    that share of it; an answer to another request shows none."""
    judged = [r for r in results if r.status != "unverifiable"]
    named = [r for r in judged if r.check == "mentions"]
    others = [r for r in judged if r.check != "mentions"]
    total = sum(r.weight for r in judged)
    missed = sum(r.weight for r in others if r.status == "unmet")
    if named:
        need = -(-len(named) // 2)
        missed += sum(r.weight for r in named) * max(
            0.0, 1 - sum(r.status == "met" for r in named) / need
        )
    defect = round(missed / total, 4) if total else None
    musts = [r for r in results if r.must]
    why = ""
    if musts and all(r.status == "unmet" for r in musts):
        names = [r.value for r in musts if r.check == "mentions"][:3]
        lang = next((r.reason for r in musts if r.check == "language"), "")
        why = "answers another request: " + "; ".join(
            x
            for x in (lang, f"none of {', '.join(map(repr, names))} appears" if names else "")
            if x
        )
    return defect, why
