"""Running a checklist against what an answer shows: each check met, unmet or unverifiable with
its reason, and the fulfilment defect they add up to."""

from __future__ import annotations

import re
from dataclasses import dataclass

import cogevol.checklist.subjects as subjects
from cogevol.checklist.lexicon import lexicon
from cogevol.checklist.model import Check, Checklist, CheckResult, PageFacts
from cogevol.checklist.scripts import CJK_RUN, ELISION, ending_added, latin_words, strip_accents
from cogevol.core.request_lexicon import normalise


def _tokens(text: str) -> set[str]:
    """A text's Latin words, accents stripped, and the parts of hyphenated ones ("Planeten-Quiz"
    shows "quiz")."""
    words = {strip_accents(w) for w in latin_words(normalise(text))}
    return words | {p for w in words if "-" in w for p in w.split("-") if p}


def _mentioned(word: str, tokens: set[str], text: str) -> bool:
    """A request word in a text: CJK by substring (or any two-character piece of it), Latin by
    word, allowing inflection (planets / planet, planetas / planeta, raining / rain); a phrase
    ("Revolución francesa", "단위 변환기") when the text holds it whole, every word of it, or its
    words run together ("Pac-Man" as "Pacman")."""
    word = word.strip()
    if " " in word and word in text:
        return True
    parts = [w for w in re.split(r"[\s\-]+", ELISION.sub(" ", word)) if w]
    if len(parts) > 1:  # "Pac-Man" is also shown as "Pacman"
        return all(_mentioned(w, tokens, text) for w in parts) or "".join(parts) in tokens
    word = parts[0] if parts else word
    if CJK_RUN.fullmatch(word):
        return word in text or (
            len(word) >= 3 and any(word[i : i + 2] in text for i in range(len(word) - 1))
        )
    w = strip_accents(word)
    stem = w[: max(4, len(w) - 2)] if len(w) >= 6 else w
    # an English -ing form is its verb: "raining" is shown by "rain", "spinning" by "spin"
    if len(w) >= 7 and w.endswith("ing"):
        root = w[:-3]
        stem = root[:-1] if root[-1] == root[-2] and len(root) >= 5 else root
    return any(t == w or t.startswith(stem) or ending_added(t, w, 3) for t in tokens)


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


# letters of prose a page must show to tell what it is about (about eight words; a CJK
# character counts three): a title and two buttons do not
MIN_PROSE = 40
# how sure the reading of a page's language must be (its share of the likely languages) to
# price the page for being in another language than its request's
LANGUAGE_SURE = 0.6


def _prose(text: str) -> int:
    cjk = sum(len(run) for run in CJK_RUN.findall(text))
    return len(re.findall(r"[^\W\d_]", text)) + 2 * cjk


def _forms(c: Check) -> list[str]:
    """Every name of what a check names: its value, the planner's aliases, and the names of the
    same thing in the eight traffic languages (cogevol.checklist.subjects)."""
    out = [normalise(c.value), *map(normalise, c.aliases)]
    for ns in subjects.names(c.value).values():
        out += ns
    return list(dict.fromkeys(w for w in out if w))


def _named(c: Check, f: PageFacts, text: str, res, request_lang: str) -> CheckResult:
    """A mentions check (the page shows the thing under one of its names) or a code check (the
    page's source names what the request asks the code to use; otherwise unverifiable: what the
    code computes is not read)."""
    forms = _forms(c)
    if c.check == "code":
        source = normalise(f.source)
        if any(_mentioned(w, _tokens(f.source), source) for w in forms):
            return res("met", f"{c.value!r} is named in the code")
        return res(
            "unverifiable", f"{c.value!r} is not named in the code; what it computes is not read"
        )
    tokens = _tokens(f.text)
    hit = next((w for w in forms if _mentioned(w, tokens, text)), None)
    if hit is not None:
        return res("met", f"{c.value!r} is shown" + ("" if hit == forms[0] else f" as {hit!r}"))
    # a drawn scene, or a page with little prose, may name its things in its code only
    little = _prose(text) < MIN_PROSE
    if (f.scene or little) and any(
        _mentioned(w, _tokens(f.source), normalise(f.source)) for w in forms
    ):
        return res(
            "met",
            f"{c.value!r} is named in the code of a "
            + ("drawn scene" if f.scene else "page with little text"),
        )
    lang = f.language()
    if lang and request_lang and lang != request_lang and not c.aliases:
        if not subjects.names(c.value).get(lang):
            # its absence says nothing: it may be on the page under a name we do not know
            out = res(
                "unverifiable",
                f"{c.value!r} is not shown; the page is in {lang}, and no {lang} name for it "
                "is known",
            )
            out.lang_gap = True
            return out
    out = res("unmet", f"{c.value!r} appears nowhere on the page")
    out.evidence = not little
    out.known = bool(c.aliases) or bool(subjects.names(c.value).get(lang or request_lang))
    return out


def run_check(c: Check, f: PageFacts, request_lang: str = "") -> CheckResult:
    """One check against what the answer shows (`request_lang`: the request's language, so that
    a named thing missing from a page in another language is read under that language's
    names)."""

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
        got, sure = f.read_language()
        if got != c.value and c.aliases:
            # the words the request dictates ("FPS", "Earth Day" in a Chinese request) are the
            # request's, not the page's choice of language: they can only clear a page
            got, sure = f.read_language(c.aliases)
            if not got and f.language():
                return res(
                    "unverifiable",
                    "the page's own text is too little to tell its language (the rest is "
                    "words the request wrote for it)",
                )
        if not got:
            return res("unverifiable", "too little text to tell the language")
        if got != c.value and sure < LANGUAGE_SURE:
            # a few UI words (a timer's "Start", "Pause", "Reset") read as French at 0.55: what
            # prices a page must be sure of it
            return res(
                "unverifiable",
                f"too little text to be sure of its language (read as {got}, {sure:.0%} sure)",
            )
        return res(
            "met" if got == c.value else "unmet",
            f"the text is in {got}" + ("" if got == c.value else f", the request in {c.value}"),
        )
    if c.check in ("mentions", "code"):
        return _named(c, f, text, res, request_lang)
    if c.check == "flow":
        ran = next((x for x in f.flows if x.get("name") == c.value), None)
        if ran is None:
            return res("unverifiable", "the flow was not run (no probe, or its budget ran out)")
        return res(ran["status"], ran["reason"])
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
        # a label named by its purpose (or by one of the purpose's label words: "Dark" for a
        # dark mode toggle) matches that purpose's words in any of the eight languages
        alike = next((labels for *_, labels in lexicon().purposes if labels.fullmatch(want)), None)
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
        if f.scene or f.drawn:
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
    return [run_check(c, facts, checklist.language) for c in checklist.checks]


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


@dataclass(frozen=True)
class RequestFit:
    """How a page answers its request, in the three parts the page reward prices apart:

    * `subject`: the share of the request's subject the page shows (the named things: half of
      them is all of it, as in `fulfilment`), None when none is verifiable. What the request is
      about outweighs the furniture every page has: the reward is scaled by it.
    * `fulfilment`: the weighted share of the other checks unmet (controls, labels, keys, counts,
      what the code is asked to use), None when none is verifiable.
    * `language`: 1 when the page is written in another language than the request's, 0 when in
      the same, None when there is too little text to tell. A priced defect, never a gate.
    * `off_request`: positive evidence that the page is about another subject (every named
      thing looked for under its names in the page's language and none found, at least one of
      them a thing whose names we know, on a page with enough prose to tell, MIN_PROSE
      letters), or "". A
      language mismatch is no such evidence, nor are words missing from a page in a language
      we have no names for them in (those checks are unverifiable).
    """

    subject: float | None
    fulfilment: float | None
    language: float | None
    off_request: str


def request_fit(results: list[CheckResult]) -> RequestFit:
    """The page reward's reading of its request's checks (RequestFit)."""
    judged = [r for r in results if r.status != "unverifiable"]
    named = [r for r in judged if r.check == "mentions"]
    others = [r for r in judged if r.check not in ("mentions", "language")]
    subject = None
    if not named and any(r.lang_gap for r in results):
        # nothing of the subject can be read in the page's language: neither shown nor missing,
        # the midpoint (a translation must not score as if it showed everything)
        subject = 0.5
    if named:
        # a thing we cannot read in the page's language still counts in what there is to show,
        # so a page cannot gain by being written in another language
        need = -(-(len(named) + sum(r.lang_gap for r in results)) // 2)
        subject = round(min(1.0, sum(r.status == "met" for r in named) / need), 4)
    total = sum(r.weight for r in others)
    fulfil = (
        round(sum(r.weight for r in others if r.status == "unmet") / total, 4) if total else None
    )
    lang = next((r for r in judged if r.check == "language"), None)
    language = None if lang is None else float(lang.status == "unmet")
    asked = [r for r in results if r.check == "mentions"]
    why = ""
    if (
        asked
        and all(r.status == "unmet" and r.evidence for r in asked)
        and any(r.known for r in asked)
    ):
        shown = ", ".join(repr(r.value) for r in asked[:3])
        why = f"answers another request: none of {shown} appears, under any of its names"
    return RequestFit(subject, fulfil, language, why)
