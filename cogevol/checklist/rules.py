"""The rules planner: a checklist read from the request alone, in the eight traffic languages."""

from __future__ import annotations

import re
from functools import lru_cache

import cogevol.checklist.subjects as subjects
from cogevol.checklist import word_kinds
from cogevol.checklist.lexicon import Lexicon, lexicon
from cogevol.checklist.model import MAX_MENTIONS, Check, Checklist
from cogevol.checklist.scripts import (
    CJK_RUN,
    HANGUL,
    KANA,
    LATIN_WORD,
    ending_added,
    latin_words,
    strip_accents,
)
from cogevol.core.langid import language
from cogevol.core.request_lexicon import PLACEHOLDER, SELF_INTRODUCTIONS, normalise

# code in a request: `spans`, camelCase and snake_case names, words with digits (2d, 500px, h1),
# file names, colours and comparisons ("Framer-like")
_CODE = re.compile(
    r"`[^`]*`|(?<![A-Za-z0-9_])[a-z]+[A-Z][A-Za-z0-9_]*|(?<![A-Za-z0-9_])[A-Za-z0-9]*_[A-Za-z0-9_]+|(?<![A-Za-z0-9_])[A-Za-z_]*\d[A-Za-z0-9_]*|\S+\.(?:js|html|css|json|png)\b|#[0-9a-fA-F]{3,8}\b|\b\w+-like\b"
)
_LABELLED = re.compile(
    r"\b(label(?:l)?ed|called|named|titled|saying|reads)\b|etiquetad|intitul|beschrift|rotulad|标为|写着|ラベル|라벨"
)
# "a Fire button", "Step and Reset buttons"
_NAMED_BUTTON = re.compile(r"\b([A-Z][a-z]+)(?:\s+and\s+([A-Z][a-z]+))?\s+buttons?\b")
_QUOTED = re.compile(
    r"[\"“”«»„「『]\s*([^\"“”«»„」』]{1,30}?)\s*[\"“”«»」』]|(?<![a-z])'([^']{1,30})'(?![a-z])"
)

# Korean endings, longest first: particles no noun ends in come off any word (분을, 키와 -> 분,
# 키: one syllable, no mention); those some nouns end in (결과, 국가, 높이, 미로) and the endings
# of 하다 verbs (설정할, 추가하고) only when two syllables are left
_PARTICLES = (
    "에서",
    "으로",
    "에게",
    "한테",
    "까지",
    "부터",
    "처럼",
    "보다",
    "이랑",
    "을",
    "를",
    "의",
    "에",
    "는",
    "은",
    "와",
    "랑",
)
_ENDINGS = ("하고", "하는", "하면", "하기", "해요", "과", "가", "이", "로", "할", "한")
# "my name is", "我叫": how the user introduces themselves is never what the page is about
_SELF_INTRO = re.compile("|".join(map(re.escape, SELF_INTRODUCTIONS)))
# code a request quotes (a boilerplate to start from, the user's own page): a Markdown fenced
# block runs to its closing fence or, unclosed, to the end of the text, as CommonMark reads it;
# markup outside a fence is a tag or a comment ("<section id=notes>", "<!-- notes -->")
_FENCED = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?(?:^[ \t]*\1[ \t]*$|\Z)", re.S | re.M)
_MARKUP = re.compile(r"<!--.*?(?:-->|\Z)|<!?/?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>", re.S)
_CLITIC = re.compile(r"'(?:s|ll|re|ve|d|m)$")
_FR_IMPERATIVE = re.compile(r"-(?:moi|toi|nous|vous|le|la|les|lui|leur|en|y)$")
_ALTERNATIVE = re.compile(r"(?<![\w/.:])([^\W\d_][\w\-]*)/[^\W\d_][\w\-]*(?![\w/])")


def _inflected(a: str, b: str) -> bool:
    """Two forms of one word as the mention check reads them (planet / planets, planeta /
    planetas): one is the other and at most two letters more."""
    return ending_added(*sorted((a, b), key=len), 4)


# Spanish and Portuguese write an object pronoun onto the verb: borrarlas, adicioná-las
_ENCLITIC = re.compile(
    r"^(.{3,}?[aeií]r)(?:me|te|se|nos|lo|la|los|las|le|les)$|^(.{3,}?)-(?:[mts]e|nos|l?[oa]s?|lhes?)$"
)


def _request_verb(word: str, lex: Lexicon) -> bool:
    """A request verb with its pronoun on (borrarlas, excluí-las): request vocabulary too. Only a
    verb the vocabulary holds is dropped, so a noun that merely ends like one (charla, suerte)
    stays."""
    m = _ENCLITIC.match(word)
    if not m:
        return False
    verb = m.group(1) or m.group(2)
    return verb in lex.generic or strip_accents(verb) + "r" in lex.generic


def _content_words(text: str, lex: Lexicon) -> list[str]:
    """The things a request names: Latin words of 3+ letters that are neither function words
    nor request vocabulary, and CJK runs left once the request vocabulary is cut out. What the
    request keeps naming (three times or more) comes first: a long spec names its subject again
    and again ("Mandelbrot" six times, "太阳" seven, "每帧放大" once)."""
    text = re.sub(r"https?://\S+|\S+\.(?:js|html|css)\b", " ", text)
    # Latin words first: in a CJK request they are names its author wrote as they are
    # (Mandelbrot, cardioid, ASCII), where a CJK run cut by vocabulary may be a phrase
    out = _latin_things(text, lex)
    for run in CJK_RUN.findall(text):
        out += _cjk_things(run, lex)
    out = list(dict.fromkeys(out))
    tokens = latin_words(text)

    def named(w: str) -> int:
        if CJK_RUN.match(w):
            return text.count(w)
        return sum(t == w or _inflected(w, t) for t in tokens)

    # named three times or more: a long spec's subject; the rest as the request orders them
    times = {w: named(w) for w in out}
    return sorted(out, key=lambda w: -times[w] if times[w] >= 3 else 0)[:MAX_MENTIONS]


def _latin_things(text: str, lex: Lexicon) -> list[str]:
    out: list[str] = []
    for w in latin_words(text):
        w = w.strip("'-")
        if w.endswith("n't"):  # don't, can't, won't: a negated verb is never a thing
            continue
        w = _CLITIC.sub("", w)  # the player's score, it'll: the word without its clitic
        if _request_verb(w, lex):
            continue
        if "-" in w:  # "single-file", "real-time": the part that names a thing; "Pac-Man" whole
            if _FR_IMPERATIVE.search(w):  # "écrivez-moi": a verb with its pronoun
                continue
            parts = [p for p in w.split("-") if len(p) >= 3 and p not in lex.generic]
            w = "-".join(parts) if len(parts) > 1 else parts[0] if parts else ""
        if lex.adverb_rx.fullmatch(w):  # "continuously": how, not what
            continue
        if len(w) >= 3 and w not in lex.generic and not w.isdigit() and w not in lex.numbers:
            if not any(_inflected(w, o) for o in out):  # "questions" after "question": one thing
                out.append(w)
    return out


def _cjk_things(run: str, lex: Lexicon) -> list[str]:
    hangul = HANGUL.match(run) is not None
    for g in lex.generic_cjk:
        # Korean writes words apart and its particles after them: a one-syllable entry
        # (를, 이, 가) is a particle to strip from the end, not a piece of 이차함수 or 가능한
        if not (hangul and len(g) == 1):
            run = run.replace(g, " ")
    pieces = run.split()
    if hangul:
        pieces = [_without_particle(p, lex) for p in pieces]
    elif KANA.search(run):
        pieces = [_without_okurigana(p) for p in pieces]
    return [p for p in pieces if 2 <= len(p) <= 8]


def _without_particle(word: str, lex: Lexicon) -> str:
    """A Korean word without the particle or verb ending after it (화산과 -> 화산, 슬라이드를 ->
    슬라이드, 설정할 -> 설정; 결과, 높이 keep theirs); "" when what is left is request
    vocabulary."""
    p = next((p for p in _PARTICLES if word.endswith(p)), "")
    if not p:
        p = next((p for p in _ENDINGS if word.endswith(p) and len(word) - len(p) >= 2), "")
    word = word[: len(word) - len(p)]
    return "" if word in lex.generic_cjk else word


_HIRAGANA_TAIL = re.compile(r"(?<=[\u30a0-\u30ff\u3400-\u9fff])[\u3040-\u309f]+$")


def _without_okurigana(piece: str) -> str:
    """A Japanese piece as a thing: a word's kana ending off when two characters are left
    (入力し -> 入力; 答え, 問い keep theirs), nothing for two kana alone (よう, るこ: the grammar
    left between cut words)."""
    if re.fullmatch(r"[\u3040-\u309f]{1,2}", piece):
        return ""
    tail = _HIRAGANA_TAIL.search(piece)
    return piece[: tail.start()] if tail and tail.start() >= 2 else piece


def _counts(text: str, lex: Lexicon) -> list[tuple[int, str, str]]:
    """(n, noun, cue) for "12 cards", "three cities", "五个城市", "다섯 개의 행성"."""
    out = []
    # Japanese and Korean also count after the noun ("問いを2つ", "문제 다섯 개")
    noun_first = bool(KANA.search(text) or HANGUL.search(text))
    for m in lex.number_rx.finditer(text):
        raw = m.group(1) or m.group(2) or m.group(3)
        n = int(raw) if raw.isdigit() else lex.numbers.get(raw)
        # the end of a range is no count ("30-80 particles", "5 to 10 balls")
        if n is None or not 2 <= n <= 100 or _RANGE_BEFORE.search(text[: m.start()]):
            continue
        rest, counter = text[m.end() : m.end() + 24], ""
        if m.group(3) or CJK_RUN.match(rest.lstrip()):
            rest = rest.lstrip()
            counter = next((c for c in lex.counters if rest.startswith(c)), "")
            # a CJK numeral counts only before a counter word (三个, 다섯 개), not inside words
            if m.group(3) and not counter:
                continue
            rest = rest[len(counter) :].lstrip()
            # の / 의 after the count links it to the noun after (5問のクイズ, 다섯 개의 행성)
            linked = counter.endswith(("の", "의")) or rest.startswith(("の", "의"))
            rest = rest[1:].lstrip() if rest.startswith(("の", "의")) else rest
            noun = re.match(r"[\u3400-\u9fff\u30a0-\u30ff]+|[\uac00-\ud7af]+", rest)
            noun = re.sub(r"(이|가|을|를|은|는|의|들)$", "", noun.group()) if noun else ""
            noun = re.split(r"[的之の]", noun)[0][:4]
            # otherwise a Japanese or Korean count follows its noun: 惑星を8つ表示 counts 惑星
            if noun_first and counter and not linked:
                noun = _noun_before(text[: m.start()]) or noun
        else:
            # the noun follows the number ("12 cards", "50+ balls", "a 10-question quiz"): a
            # bracket or a stop between them ends the count ("(e.g., 5-10). Assign ...")
            joined = _COUNT_JOIN.match(rest)
            before = LATIN_WORD.findall(text[max(0, m.start() - 12) : m.start()])
            # two things that meet are no count of things shown ("if any two vehicles collide",
            # "collisions between two balls"; "switch between three cities" counts three)
            if not joined or (n == 2 and before and before[-1] in lex.count_relations):
                continue
            words = LATIN_WORD.findall(rest[joined.end() :].replace("-", " "))
            noun = words[0] if words else ""
            if noun in ("more", "of", "de", "or", "to", "x", "bis", "até"):  # "2 bis 6 Fotos"
                noun = ""
        if len(noun) < (1 if CJK_RUN.search(noun or "a") else 3) or _skipped(noun, counter, lex):
            continue
        out.append((n, noun, text[m.start() : m.end() + len(noun) + 6].strip()))
    return out


_RANGE_BEFORE = re.compile(r"\d\s*(?:[-–~]|to|a|à|bis|até|到|至)\s*$")
_COUNT_JOIN = re.compile(r"\+?(?:\s+|-)(?=[^\W\d_])")
_NOUN_BEFORE = re.compile(r"([\u3040-\u30ff\u3400-\u9fff]+|[\uac00-\ud7af]+)\s*$")


def _noun_before(text: str) -> str:
    """The Japanese or Korean noun a count comes after, without its particle (問いを -> 問い,
    문제를 -> 문제; 太陽系の惑星を -> 惑星)."""
    m = _NOUN_BEFORE.search(text)
    if not m:
        return ""
    noun = re.split(r"の", m.group(1))[-1]
    return re.sub(r"(を|が|は|も|를|을|이|가|은|는|도)$", "", noun)[-4:]


def _skipped(noun: str, counter: str, lex: Lexicon) -> bool:
    """A unit, not a thing ("10 seconds"). CJK runs on with no space, so a unit straight after
    the number, with no counter word before it, is the measure itself ("3 秒有更强": 3 seconds);
    after a counter word a noun that starts like a unit is a thing ("五个天体")."""
    if noun in lex.count_skip:
        return True
    return (
        not counter
        and bool(CJK_RUN.match(noun))
        and any(noun.startswith(u) for u in lex.count_skip if CJK_RUN.match(u))
    )


# where a sentence ends in a normalised request (its line breaks are gone; "5. In the loop" and
# "- Delete notes" start one)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|[。！？；]|\s[*•]\s|\s-\s")


def _together(groups: tuple[re.Pattern, ...], text: str, same_sentence: bool) -> list[re.Match]:
    """A match of every word group in `text`, all in one sentence when `same_sentence` (words
    that together call for a flow: "input the serving sizes to calculate their value", not
    "calculate the angle" two paragraphs from "mouse input"); [] when there is none."""
    for part in _SENTENCE_END.split(text) if same_sentence else [text]:
        hits = [rx.search(part) for rx in groups]
        if all(hits):
            return hits
    return []


def _inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Whether a match lies within a longer match of another word."""
    return any(s <= span[0] and span[1] <= e and e - s > span[1] - span[0] for s, e in spans)


def _near(rx: re.Pattern, text: str, m: re.Match) -> bool:
    """Whether `rx` occurs within a few words of match `m`: 40 characters either side in
    Latin scripts (about seven words), 12 in CJK, which writes a word in one to three
    characters, so that "从 10 秒开始倒计时" is not read with a button named three clauses on."""
    width = 12 if CJK_RUN.search(m.group()) else 40
    return bool(rx.search(text[max(0, m.start() - width) : m.end() + width]))


_EXAMPLE_END = re.compile(r"[.;:!?\n)\]。；！？）】]")


def _without_examples(text: str, lex: Lexicon, lang: str = "") -> str:
    """The request without its examples: from an example marker ("e.g.", "such as", "比如") to
    the end of its parenthesis or clause; and without what the page goes without, from a
    negation of the request's language ("No controls", "keine Steuerung") likewise."""
    out, pos = [], 0
    marks = [(m, _EXAMPLE_END) for m in lex.example_rx.finditer(text)]
    if lang in lex.negation_rx:  # a negation reaches to its clause's end: "No uses canvas, solo"
        marks += [(m, _CLAUSE_END) for m in lex.negation_rx[lang].finditer(text)]
    for m, end_rx in sorted(marks, key=lambda x: x[0].start()):
        if m.start() < pos:
            continue
        end = end_rx.search(text, m.end())
        out.append(text[pos : m.start()])
        pos = end.start() if end else len(text)
    return " ".join([*out, text[pos:]])


# (a list item's bullet, kept as " - " once a request is normalised, ends one too)
_CLAUSE_END = re.compile(r"[.;:!?,\n。；：！？，、]|\s[-*•]\s|\band\b|\by\b|\bet\b|\bund\b|\be\b")


def _code_clauses(text: str, lex: Lexicon) -> list[str]:
    """The clauses of a normalised request that ask the code to do something: from a code verb
    ("use", "使用") to the end of its clause, when they name an algorithm, a heuristic, a
    formula or the like."""
    out = []
    for m in lex.code_verbs.finditer(text):
        end = _CLAUSE_END.search(text, m.end())
        clause = text[m.start() : end.start() if end else len(text)]
        if lex.code_markers.search(clause) and clause not in out:
            out.append(clause)
    return out


def dictated_words(request: str, lang: str) -> tuple[str, ...]:
    """The words a request writes for the page in another script than its own language's: the
    labels it dictates ("在左上角显示 FPS 指示器", "Earth Day"), and what it quotes. A page that
    shows them copies the request; they say nothing of the language the page chose."""
    words = [m.group(1) or m.group(2) or "" for m in _QUOTED.finditer(request)]
    if lang in ("zh", "ja", "ko"):  # colours and numbers are no words ("#95bbbe", "8px")
        words.append(re.sub(r"#[0-9a-fA-F]{3,8}\b|\S*\d\S*", " ", request))
    words = [w for q in words for w in (latin_words(normalise(q)) or [normalise(q)])]
    return tuple(dict.fromkeys(w for w in words if len(w) > 1))[:60]


def plan_rules(request: str, modality: str = "html") -> Checklist:
    """The checklist the rules read from `request` alone (modality "html" or "slide")."""
    # what the traffic miner scrubbed (<NAME>, <EMAIL>) is nothing a page can show
    request = PLACEHOLDER.sub(" ", request or "")
    # the code a request quotes is how to build it, not what the page shows ("<body>",
    # "<section id=notes>", "// Update logic"): its words are no topic, and not its language
    request = _MARKUP.sub(" ", _FENCED.sub(" ", request))
    if not normalise(request):
        return Checklist((), "rules", "")
    lex = lexicon()
    lang = language(request or "", 6) or "en"
    # what the request says about the answer's form (a template's constraints, output format,
    # grading) is not what the page shows
    request = lex.scaffold.content(request)
    text = normalise(request)
    # the language is priced, never a must-have: a working page in another language is not an
    # answer to another request
    checks = [
        Check(
            "language",
            lang,
            weight=1.0,
            cue=f"request written in {lang}",
            aliases=dictated_words(request, lang),
        )
    ]
    if modality == "html":
        for kind, rx in lex.controls:
            m = rx.search(text)
            if m:
                checks.append(Check("control", kind, cue=m.group()))
        button = next(rx for kind, rx in lex.controls if kind == "click")
        quoted = []
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
                quoted.append(normalise(label))
        # controls named by what they do: "a reset button", "pause and resume", "a Fire button"
        purposes = []
        spans = [m.span() for _, _, rx, _ in lex.purposes for m in rx.finditer(text)]
        for _, inherent, rx, _ in lex.purposes:
            # 开始 in 重新开始 (restart) is not a start
            found = [m for m in rx.finditer(text) if not _inside(m.span(), spans)]
            # (a toggle word names a switch for a purpose a page need not have, like a theme;
            # by an inherent one it is as likely a verb: "if yes, switch to RESTARTING")
            m = next(
                (
                    m
                    for m in found
                    if _near(button, text, m) or (not inherent and _near(lex.toggle_rx, text, m))
                ),
                None,
            )
            # with no control word by it, a purpose the request also calls the page's own
            # behaviour ("resets and loops after 200 frames", "periodically pause its
            # movement") is no control
            if m is None and inherent and not any(_near(lex.automatic_rx, text, f) for f in found):
                m = next(iter(found), None)
            if m is not None:
                purposes.append(rx)
                if any(rx.search(q) for q in quoted):
                    continue  # the request quotes its label ("a 'Begin Quiz' button")
                # "reset-knopf"
                word = m.group().split("-")[0] if button.search(m.group()) else m.group()
                checks.append(Check("label", word, cue=word))
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
        # what a person must be able to do, as scripts the probe runs (seed 003's flows)
        for name, alternatives, steps, expect, same_sentence in lex.flows:
            for when in alternatives:
                hits = _together(when, text, same_sentence)
                if hits:
                    cue = " ... ".join(m.group() for m in hits)
                    checks.append(Check("flow", name, cue=cue, steps=steps, expect=expect))
                    break
        # an example's number is one way among others ("(e.g., 30-80 particles per explosion)")
        for n, noun, cue in _counts(_without_examples(text, lex, lang), lex):
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
    # identifiers, file names and numbers are how to build it, not what to show; examples
    # ("e.g. a red dot", "比如红点、波形") are one way among others, not must-haves
    # (a store the code is asked to use, "localStorage", stays: it makes its clause a code check)
    # a CJK numeral and its counter are a count only together ("五个", "3 张"): apart they are
    # part of a word (三角形, 人口, 轨道, 설명) and stay in it
    rest = _without_examples(
        normalise(
            _CODE.sub(
                lambda m: m.group() if lex.code_markers.fullmatch(normalise(m.group())) else " ",
                lex.cjk_count_rx.sub(" ", request),
            )
        ),
        lex,
        lang,
    )
    rest = lex.idiom_rx.sub(" ", _SELF_INTRO.sub(" ", rest))
    for c in checks:  # the words that named a control, a key or an element are not the topic
        if c.check in ("control", "key", "element", "label") and c.cue:
            rest = rest.replace(c.cue, " ")
    # nor are the words of a named control's purpose ("pause and resume")
    for rx in purposes if modality == "html" else ():
        rest = rx.sub(" ", rest)
    # what the request asks the code to use is checked in the code, not on screen
    for clause in _code_clauses(rest, lex):
        # CJK writes the clause as one run: the markers split it ("曼哈顿 距离 启发")
        for w in _content_words(lex.code_markers.sub(lambda m: f" {m.group()} ", clause), lex):
            if not lex.code_verbs.fullmatch(w):
                checks.append(Check("code", w, cue=clause.strip()[:80]))
        rest = rest.replace(clause, " ")
    # a thing of several words is one thing ("solar system", not "solar" and "system")
    phrases = [  # ("memory game" is a memory's game: its request word is not the thing)
        p for p in subjects.phrases_in(rest) if not any(w in lex.generic for w in p.split())
    ]
    for p in phrases:
        rest = rest.replace(p, " ")
    # "a list/grid", "view/edit it": either will do, so the first names the thing
    rest = _ALTERNATIVE.sub(r"\1", rest)
    # words that name no thing by their kind and place ("demonstrating", "extremely", "the
    # concept: ..."): the request's own wording, not what the page shows
    rest, _ = word_kinds.drop_non_things(rest, lang)
    words = (phrases + [w for w in _content_words(rest, lex) if w not in labels])[:MAX_MENTIONS]
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
