"""What a request asks a generated page to do: respond to input, move on its own, or just render.

Why this exists: the HTML reward's hard-fail gate checks that a page is alive *the way its
request asks*. Asking every page for a live control hard-fails a correct "dog fetching a ball"
animation (nothing to click) and a correct bakery landing page (nothing should change), and lets a
still "spinning cube" pass on one working button. So the gate first asks this module which kinds
of life the request wants:

- interactive: controls that respond to input ("a calculator", "add a slider", "click to ...");
- animation: visible change on its own over time ("fireworks", "a flower blooming");
- static: neither; the page must render and lay out well ("a resume", "a plain chart").

Two routes. `expects_from_request` is rules: cue families in the eight traffic languages, kept as
data in cogevol/core/lexicons/expects.yaml, plus the traffic classifier's subcategory regexes,
matched with its `word_rx` helper (whole words for Latin scripts, substrings for CJK). Every answer
carries the cues that decided it, so a hard fail can say why the page was expected to move.
`expects_from_llm` asks an OpenAI-compatible endpoint through cogevol.llm.aclient and falls
back to the rules on any failure; it never raises, because a judge outage must not change what the
gate demands.

Decisions (see the YAML for the word lists):
- game, quiz, tool (classify.SUBCATEGORIES) and steering by keys or stick -> interactive, unless
  the request names a simulation or a page type (landing page, resume...) first: then the game,
  quiz or tool word is its mechanics or its topic ("a chicken simulation driven by simple game
  AI and an internal timer", "a landing page for a game studio"); explicit cues (buttons,
  click, play) still count. Motion words in a game, quiz or tool do not require animation ("a
  racing game with falling blocks" waits for the player); an explicit animation cue does ("a
  quiz with animated transitions" needs both), unless its sentence ties it to a moment of the
  play ("when the game is finished, make a finish animation", "游戏结束时播放动画"; `events`):
  the probe may never finish the game, so such an animation is no gate (cue "... (after play)").
- simulation -> interactive (a simulator is operated: parameters, start, reset), and the motion
  it describes is required too ("bodies move under gravity"): the probe counts motion that a
  Start or Launch button sets off, so a simulator that waits for its button still passes. A
  request that only describes motion ("a simulation of planets orbiting the sun") is animation
  alone.
- A request that rules interaction out ("No interactions.", "non-interactive", "sin interacción",
  "无需交互"; `hands_off`) is hands-off: the simulation, game or quiz it names runs by itself, so
  it must move on its own and is not operated ("a 3d simulation of 200 dominoes ... falls,
  triggering a chain reaction. No interactions."). An explicit cue (a button, click) still
  counts; controls in general ("controls", "操作", `vague_controls`) do not.
- "optional" before a cue or "(optional)" after it makes it no requirement ("sprite animation
  (optional)"); so does a hedge ("maybe some animations", "Some nice animations would be
  cool" in a quiz whose only motion answers the play).
- Cues are chosen for precision over recall: a missed cue makes the gate laxer (static), a false
  one zeroes a good page. So "orbit" (Earth's orbit), "falls", "running", "floating" are out.
- dataviz and 3d carry no requirement themselves: a plain chart or infographic is static, a chart
  with hover tooltips or filters is interactive through those cues, "a spinning 3D cube" is
  animation through "spinning".
- No cue at all -> static. No request at all -> INTERACTIVE_DEFAULT (the gate as it was).
- A cue right after a negation ("no animations", "sin botones", "不要动画", "アニメーションなし")
  is dropped and reported as "not <cue>". Overlapping matches keep the leftmost, then the longest:
  "auto-play" is animation, not "play"; the `neutral` phrases ("product launch", "google play")
  mask the cue inside them. "display" and "relaunch" never match "play"/"launch" (whole words).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from cogevol.core import lexicons
from cogevol.core.request_lexicon import SUBCATEGORIES, normalise, word_rx
from cogevol.rewards import confidence as conf

if TYPE_CHECKING:
    from cogevol.llm.aclient import AsyncChatClient

LEXICON_PATH = lexicons.path("expects")
DEMANDS_PATH = Path(__file__).with_name("task_demands.yaml")
SOURCES = ("rules", "llm", "none")
KINDS = ("animation", "dynamic", "interactive", "static")

# On an exact tie (same span) the earlier family wins: the subcategories before the lexicon so
# that a game stays a game.
_FAMILIES = (
    "neutral",
    "game",
    "quiz",
    "tool",
    "simulation",
    "steer",
    "interactive",
    "hands_off",
    "animation",
    "motion",
    "static",
)
_WAITS_FOR_USER = ("game", "quiz", "tool", "steer")
# the kinds of page a request can name first (its head): see expects_from_request
_HEADS = ("game", "quiz", "tool", "simulation", "static")


@dataclass(frozen=True)
class Expects:
    """The kinds of life a request asks of its page; `static` exactly when none of the others.
    `dynamic`: something must change, on its own or under input, either will do (the task type's
    demand, `expects_for`, where the request names neither kind)."""

    interactive: bool
    animation: bool
    static: bool
    cues: tuple[str, ...] = ()  # what decided it, in request order: "slider", "not animation", ...
    source: str = "rules"  # "rules" | "llm" | "none" (no request: the default)
    dynamic: bool = False
    # what each kind asked for rests on: (kind, evidence class, term), the classes of
    # cogevol.rewards.confidence ("animation", "described motion", "fireworks")
    evidence: tuple[tuple[str, str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.static == (self.interactive or self.animation or self.dynamic):
            raise ValueError("static must be true exactly when no other kind is")
        if self.source not in SOURCES:
            raise ValueError(f"source must be one of {SOURCES}, not {self.source!r}")

    @property
    def kinds(self) -> list[str]:
        """The names that are true, sorted: e.g. ["animation", "interactive"]."""
        return [k for k in KINDS if getattr(self, k)]

    def belief(self, kind: str) -> tuple[float, float]:
        """(probability, confidence) that the request asks for `kind`, both 0..1 and
        calibrated (cogevol.rewards.confidence): a hard fail needs the confidence, an unmet
        expectation is priced by the probability. With no request the gate is the contract's
        interactive one, not a reading: sure."""
        if self.source == "none":
            return (1.0, 1.0) if getattr(self, kind) else (0.0, 0.0)
        return conf.combine([(c, t) for k, c, t in self.evidence if k == kind])

    def confidence(self, kind: str) -> float:
        return self.belief(kind)[1]

    def probability(self, kind: str) -> float:
        return self.belief(kind)[0]

    def as_dict(self) -> dict[str, Any]:
        return {
            "interactive": self.interactive,
            "animation": self.animation,
            "dynamic": self.dynamic,
            "static": self.static,
            "kinds": self.kinds,
            "cues": list(self.cues),
            "source": self.source,
            "confidence": {k: self.confidence(k) for k in self.kinds if k != "static"},
        }


def _expects(
    interactive: bool,
    animation: bool,
    cues: list[str] | tuple[str, ...],
    source: str,
    evidence: list[tuple[str, str, str]] | tuple = (),
) -> Expects:
    return Expects(
        interactive,
        animation,
        not (interactive or animation),
        tuple(dict.fromkeys(cues)),
        source,
        evidence=tuple(dict.fromkeys(evidence)),
    )


# What applies when no request is given: the gate as it always was.
INTERACTIVE_DEFAULT = Expects(
    interactive=True, animation=False, static=False, cues=(), source="none"
)


def _spaced(word: str) -> bool:
    """Written with spaces between words (Latin script), so word boundaries apply."""
    return all(ord(c) < 0x250 for c in word)


def _family_rx(words: list[str]) -> re.Pattern:
    """_rx for plain entries; "stem*" entries match a whole word starting with the stem."""
    words = [normalise(w) for w in words]
    exact = [w for w in words if not w.endswith("*")]
    stems = sorted((w[:-1] for w in words if w.endswith("*")), key=len, reverse=True)
    parts = [word_rx(exact).pattern] if exact else []
    if stems:
        parts.append(r"\b(?:" + "|".join(map(re.escape, stems)) + r")\w*")
    return re.compile("|".join(parts))


def _alt(words: list[str]) -> str:
    return "|".join(map(re.escape, sorted(map(normalise, words), key=len, reverse=True)))


@dataclass(frozen=True)
class _Lexicon:
    families: tuple[tuple[str, re.Pattern], ...]  # in tie-break order; a name may repeat
    neg_before: re.Pattern  # searched in the text just before a cue
    neg_after: re.Pattern  # matched against the text just after a cue
    events: re.Pattern  # "when", "after", "结束时": an animation in a game tied to a moment of play
    hands_off: re.Pattern  # interaction itself ("interactions", "交互"): ruled out, hands-off
    vague: re.Pattern  # controls in general ("controls", "操作"): no cue in a hands-off request
    media_before: re.Pattern  # where a page runs, right before a verb ("ブラウザで"): it works
    artefact_after: re.Pattern  # the thing built ("アプリ", "app"), right after a verb: works
    system: str
    user: str


@lru_cache(maxsize=1)
def lexicon() -> _Lexicon:
    """The compiled lexicon (read once)."""
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))

    def words(family: str) -> list[str]:
        return [w for ws in (data.get(family) or {}).values() for w in ws]

    fams: list[tuple[str, re.Pattern]] = []
    for name in _FAMILIES:
        if name in SUBCATEGORIES:
            fams.append((name, SUBCATEGORIES[name]))
        if words(name):
            fams.append((name, _family_rx(words(name))))
    neg = data["negations"]
    before = [w for w in neg["before"] if _spaced(w)]
    cjk = [w for w in neg["before"] if not _spaced(w)]
    gap = r"[\s'\-]"
    latin = (
        rf"\b(?:{_alt(before)})\b(?!{gap}+(?:{_alt(neg['except_after'])})\b)"
        rf"(?:{gap}+\w+){{0,2}}{gap}*$"
    )
    neg_before = re.compile(f"{latin}|(?:{_alt(cjk)})\\w{{0,2}}\\s*$")
    neg_after = re.compile(rf"\s*\w?\s*(?:{_alt(neg['after'])})")
    events = _family_rx(data["events"])
    return _Lexicon(
        tuple(fams),
        neg_before,
        neg_after,
        events,
        _family_rx(words("hands_off")),
        _family_rx(words("vague_controls")),
        re.compile(rf"(?:{_alt(words('media'))})\s*(?:{_alt(data['media_particles'])})?\s*$"),
        re.compile(rf"\s*(?:[a-z0-9-]{{1,8}})?(?:{_alt(words('artefacts'))})"),
        data["llm"]["system"],
        data["llm"]["user"],
    )


def _hits(text: str, lex: _Lexicon) -> list[tuple[str, str, bool, int]]:
    """(family, cue, negated, start) in text order; overlaps keep the leftmost, then the
    longest."""
    found = sorted(
        (m.start(), m.start() - m.end(), rank, fam, m.group())
        for rank, (fam, rx) in enumerate(lex.families)
        for m in rx.finditer(text)
        if m.end() > m.start()
    )
    out, end = [], 0
    for start, neg_len, _, fam, cue in found:
        if start < end:
            continue
        end = start - neg_len
        negated = fam != "neutral" and bool(
            lex.neg_before.search(text, max(0, start - 40), start)
            or lex.neg_after.match(text, end, min(len(text), end + 24))
        )
        out.append((fam, cue, negated, start))
    return out


def _works_sense(text: str, start: int, end: int, lex: _Lexicon) -> bool:
    """Whether the motion word at text[start:end] is said of the page or of where it runs: a
    medium just before it ("ブラウザで動く", "在浏览器中运行", "runs offline") or the thing
    built right after it ("動くアプリ", "움직이는 앱"): then it means "works"."""
    before = text[max(0, start - 16) : start]
    after = text[end : end + 16]
    return bool(lex.media_before.search(before)) or bool(lex.artefact_after.match(after))


# (a list item's bullet, kept as " - " once a request is normalised, ends one too)
_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|[。！？；]|\s[-*•]\s")


def _on_an_event(text: str, start: int, lex: _Lexicon) -> bool:
    """Whether the sentence before a cue ties it to an event of the play ("when the game is
    finished, ... a finish animation", "游戏结束时播放动画")."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    return bool(lex.events.search(text, ends[-1] if ends else 0, start))


def expects_from_request(request: str | None, built_once: bool = False) -> Expects:
    """The rules' answer; see the module docstring for the decisions. `built_once`: the request's
    task type reads as a page built once (expects_for): its game, quiz, tool, simulation, motion
    and animation words are its topic ("an article on why your platformer feels floaty", "a
    chart of 500 traffic simulation runs", "a game jam's announcement"), and only the controls
    it names explicitly (a button, a filter, a toggle) ask for life."""
    if request is None or not request.strip():
        return INTERACTIVE_DEFAULT
    text, lex = normalise(request), lexicon()
    hits = _hits(text, lex)
    live = [(f, c, s) for f, c, negated, s in hits if not negated and f != "neutral"]
    # a motion verb said of the page itself, or of where it runs, means that it works
    # ("ブラウザで動くTODOアプリ": a to-do app that runs in the browser), not that it moves
    works = [c for f, c, s in live if f == "motion" and _works_sense(text, s, s + len(c), lex)]
    live = [(f, c, s) for f, c, s in live if not (f == "motion" and c in works)]
    # a request that rules interaction out ("No interactions.") is hands-off: what it names
    # (a simulation, a game that plays itself) runs by itself and is not operated
    hands_off = any(negated and lex.hands_off.fullmatch(c) for _, c, negated, _ in hits)
    named = {f for f, _, _ in live}

    def vague(f: str, c: str) -> bool:  # controls in general ("操作"): no cue when hands-off
        return hands_off and f == "interactive" and bool(lex.vague.fullmatch(c))

    live = [(f, c, s) for f, c, s in live if not vague(f, c)]
    # the page is what the request names first: past a simulation or a page type, a game, quiz
    # or tool word names its mechanics or its topic ("simple game AI", "an internal timer", "a
    # landing page for a game studio"), not a page that waits for a player
    head = next((f for f, _, _ in live if f in _HEADS), None)
    topics = {"game", "quiz", "tool"} if head in ("simulation", "static") or hands_off else set()
    if built_once:
        topics |= {"game", "quiz", "tool", "simulation", "motion", "animation"}
    live = [(f, c, s) for f, c, s in live if f not in topics]
    waits = bool({f for f, _, _ in live} & set(_WAITS_FOR_USER))
    # in a game, quiz or tool an animation the request ties to a moment of play ("when the game
    # is finished, a finish animation") comes after inputs the probe may never get to give (a
    # won game): a response, not motion on its own
    played = {s for f, _, s in live if waits and f == "animation" and _on_an_event(text, s, lex)}
    live = [(f, c, s) for f, c, s in live if s not in played]
    has = {f for f, _, _ in live}
    interactive = waits or "interactive" in has
    sim = "simulation" in has
    # motion in a game is not required (it waits for the player); motion a simulation describes
    # is (the probe also counts motion that a Start or Launch button set off)
    animation = "animation" in has or ("motion" in has and not waits)
    runs_by_itself = {"simulation", "game", "quiz", "tool", "motion"}
    animation |= hands_off and not built_once and bool(named & runs_by_itself)
    if sim and not hands_off and (interactive or not animation):
        interactive = True  # a simulator is operated, unless all the request says is motion
    counted = {"interactive", "simulation", "animation", *_WAITS_FOR_USER} - topics
    counted |= {"motion"} if animation else set()
    counted |= {"static"} if not (interactive or animation) else set()
    cues = [
        f"not {c}" if negated else f"{c} (after play)" if s in played else c
        for f, c, negated, s in hits
        if f != "neutral"
        and (negated or f in counted or s in played)
        and (negated or not vague(f, c))
    ]
    cues += [f"{c} (runs)" for c in works]
    # what each kind rests on, for its confidence (cogevol.rewards.confidence)
    evidence: list[tuple[str, str, str]] = []

    def of(kind: str, cls: str, families: set[str]) -> None:
        evidence.extend((kind, cls, c) for f, c, _ in live if f in families)

    if animation:
        of("animation", conf.ANIMATION_WORD, {"animation"})
        if "motion" in has and not waits:
            of("animation", conf.DESCRIBED_MOTION, {"motion"})
        if hands_off and not built_once and named & runs_by_itself:
            off = next(c for _, c, negated, _ in hits if negated and lex.hands_off.fullmatch(c))
            evidence.append(("animation", conf.HANDS_OFF, off))
    if interactive:
        of("interactive", conf.PAGE_TYPE, set(_WAITS_FOR_USER))
        of("interactive", conf.CONTROL_WORD, {"interactive"})
        if sim and not hands_off:
            of("interactive", conf.SIMULATOR, {"simulation"})
    return _expects(interactive, animation, cues, "rules", evidence)


def llm_messages(request: str) -> list[dict]:
    """The chat messages the LLM route sends (prompt text from the YAML)."""
    lex = lexicon()
    return [
        {"role": "system", "content": lex.system},
        {"role": "user", "content": lex.user.format(request=request)},
    ]


def _flag(obj: dict, key: str) -> bool:
    v = obj.get(key)
    if isinstance(v, str) and v.strip().lower() in ("true", "false"):
        return v.strip().lower() == "true"
    if not isinstance(v, bool):
        raise ValueError(f'"{key}" is {v!r}, not true/false')
    return v


def parse_llm_reply(reply: str) -> Expects:
    """An Expects from the model's JSON; ValueError when it is not the object asked for."""
    from cogevol.llm.client import parse_json_object

    obj = parse_json_object(reply)
    interactive, animation = _flag(obj, "interactive"), _flag(obj, "animation")
    cues = ["llm"]
    if "static" in obj and _flag(obj, "static") == (interactive or animation):
        cues.append("llm static flag inconsistent, derived")
    return _expects(interactive, animation, cues, "llm")


async def expects_from_llm(request: str | None, client: AsyncChatClient) -> Expects:
    """The endpoint's answer, or the rules' with "llm failed: ..." in `cues`; never raises.

    `client` is a cogevol.llm.aclient.AsyncChatClient (its retries, rate limit and cache apply).
    """
    if request is None or not request.strip():
        return INTERACTIVE_DEFAULT
    try:
        reply = await client.chat(llm_messages(request), json_mode=True)
        llm = parse_llm_reply(reply)
    except Exception as e:  # any failure means "use the rules", never a crash
        rules = expects_from_request(request)
        why = f"llm failed: {type(e).__name__}: {str(e)[:200]}"
        return dataclasses.replace(rules, cues=(*rules.cues, why))
    # the model's reading is evidence of its own class (uncalibrated until a labelled run
    # measures it: it prices, never fails alone); where the rules read the same kind, their
    # evidence stands beside it
    rules = expects_from_request(request)
    evidence = [(k, conf.LLM, "llm") for k in llm.kinds if k != "static"]
    evidence += [(k, c, t) for k, c, t in rules.evidence if k in llm.kinds]
    return dataclasses.replace(llm, evidence=tuple(evidence))


@lru_cache(maxsize=1)
def task_demands() -> dict[str, str]:
    """L3 leaf -> "render" | "dynamic" (task_demands.yaml)."""
    data = yaml.safe_load(DEMANDS_PATH.read_text(encoding="utf-8"))
    return {leaf: demand for demand in ("render", "dynamic") for leaf in data[demand]}


# the task types' evidence is read by the offline classifier (cogevol.taxonomy) once per request
_TASKS_CACHED = 4096


@lru_cache(maxsize=_TASKS_CACHED)
def task_evidence(request: str) -> tuple[str, float, str, float]:
    """The best-supported task type that asks for change and its evidence, then the best one
    built once and its evidence, in `request`, from the offline classifier's terms ("", 0: none
    of that kind)."""
    from cogevol.taxonomy.classify import leaf_scores

    scores, demands = leaf_scores(request), task_demands()

    def best(demand: str) -> tuple[str, float]:
        kind = {k: v for k, v in scores.items() if demands.get(k) == demand}
        leaf = max(kind, key=lambda k: (kind[k], k), default="")
        return leaf, kind.get(leaf, 0.0)

    return (*best("dynamic"), *best("render"))


def expects_for(
    request: str | None,
    min_evidence: float = 3.0,
    task: tuple[str, float, str, float] | None = None,
) -> Expects:
    """What the gate asks of a page for `request`: one reading of the request, its task type
    (seed 004's L3) with the rules' cues. A task type that asks for change (a converter, a game,
    an algorithm visualisation, a simulation), read with `min_evidence` (3: one term that names
    the scenario, "bubble sort", "unit converter", or three cues) and more evidence than any
    page built once, makes a request that names no kind of life `dynamic` (met by motion or by
    a live control); the cues decide the kind where the request names one (a slider:
    interactive; fireworks: animation). A page built once (a landing page, an article, a chart
    page) read the same way asks only for the controls the request names explicitly: its game,
    simulation or animation words are its topic. Where the reading is unsure (less evidence,
    or a tie), the cues decide as they always did, and a request that names nothing asks for
    nothing: the gate asks for less, never more ("a one-page summary of a physics lab" names
    physics once: no demand). `task`: task_evidence's answer when the caller has it already."""
    if not request or not request.strip():
        return expects_from_request(request)
    dyn, dyn_ev, built, built_ev = task or task_evidence(request)
    if built_ev >= min_evidence and built_ev > dyn_ev:
        cues = expects_from_request(request, built_once=True)
        why = f"task type {built} (evidence {built_ev:g}): built once"
        return dataclasses.replace(cues, cues=(*cues.cues, why))
    cues = expects_from_request(request)
    if not cues.static or dyn_ev < min_evidence or dyn_ev <= built_ev:
        return cues
    why = f"task type {dyn} (evidence {dyn_ev:g})"
    cls = conf.TASK_ONE_TERM if dyn_ev < 2 * min_evidence else conf.TASK_TERMS
    return Expects(
        False,
        False,
        False,
        (*cues.cues, why),
        cues.source,
        dynamic=True,
        evidence=(("dynamic", cls, dyn),),
    )
