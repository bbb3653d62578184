"""The checklist lexicon (cogevol/core/lexicons/checklist.yaml, eight traffic languages):
control, key, count, purpose and slide-element cues, request vocabulary and function words,
compiled once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import yaml

from cogevol.checklist.scaffold import Scaffold
from cogevol.checklist.scripts import CJK_RUN, cue_rx
from cogevol.core import lexicons
from cogevol.core.request_lexicon import normalise

LEXICON_PATH = lexicons.path("checklist")


# "No controls, no interactivity": what follows is what the page goes without; not "no more
# than", "no longer", "Yes/No", "No. of items"
_NO_EN = r"(?<![\w'/-])no\s+(?!(?:more|less|longer|later|sooner|matter|than|one)\b)"


def _markers_rx(words: list[str], extra: str | None = None) -> re.Pattern:
    """Whole words for Latin markers ("sin" is not the start of "single"), substrings for CJK."""
    return re.compile(
        "|".join(
            [
                ("" if CJK_RUN.search(w) else r"(?<![\w])")
                + re.escape(normalise(w))
                + (r"(?!\w)" if re.match(r"\w", w[-1]) and not CJK_RUN.search(w) else "")
                for w in sorted(words, key=len, reverse=True)
            ]
            + ([extra] if extra else [])
        )
    )


@dataclass(frozen=True)
class Lexicon:
    controls: tuple[tuple[str, re.Pattern], ...]
    keys: tuple[tuple[str, re.Pattern], ...]
    numbers: dict[str, int]
    number_rx: re.Pattern
    count_skip: frozenset[str]
    count_relations: frozenset[str]  # "any two vehicles collide": a relation, no count
    counters: tuple[str, ...]
    # a CJK count: a numeral with the counter or unit after it ("五个", "3 张", "三秒", "다섯 개")
    cjk_count_rx: re.Pattern
    elements: tuple[tuple[str, re.Pattern], ...]
    slide_rx: re.Pattern
    generic: frozenset[str]
    generic_cjk: tuple[str, ...]
    function_words: dict[str, frozenset[str]]
    # (name, inherent, request words, label words)
    purposes: tuple[tuple[str, bool, re.Pattern, re.Pattern], ...]
    toggle_rx: re.Pattern
    automatic_rx: re.Pattern  # a purpose the page does by itself ("resets after 200 frames")
    code_verbs: re.Pattern  # a clause asking the code to do something starts with one
    code_markers: re.Pattern  # ... and names an algorithm, a heuristic, a formula, a store
    example_rx: re.Pattern  # "e.g.", "such as", "比如": what follows are examples, none a must
    idiom_rx: re.Pattern  # "at a time", "as close as possible": set phrases that name no thing
    adverb_rx: re.Pattern  # a whole word that is an adverb by its ending ("continuously")
    # a request language -> what it writes before a thing the page goes without ("no", "keine")
    negation_rx: dict[str, re.Pattern]
    # flow name -> (alternatives, each the request word groups that together call for it,
    # steps, expectations, whether the words of one alternative must be in one sentence)
    flows: tuple[
        tuple[str, tuple[tuple[re.Pattern, ...], ...], tuple[dict, ...], tuple[dict, ...], bool],
        ...,
    ]
    flow_labels: dict[str, tuple[str, ...]]  # label group -> words a control's label may hold
    scaffold: Scaffold  # the template around a request's task (role-play, constraints, grading)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    data = yaml.safe_load(LEXICON_PATH.read_text(encoding="utf-8"))

    def flat(d: dict) -> list[str]:
        return [w for ws in d.values() for w in ws]

    numbers = {
        normalise(str(k)): int(v) for lang in data["numbers"].values() for k, v in lang.items()
    }
    latin_nums = sorted((k for k in numbers if not CJK_RUN.search(k)), key=len, reverse=True)
    cjk_nums = sorted((k for k in numbers if CJK_RUN.search(k)), key=len, reverse=True)
    number_rx = re.compile(
        r"(?<![0-9A-Za-z.#])(\d{1,3})(?![\d.,:A-Za-z])|(?<![\w])("
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
            normalise(w) for w in data["generic"].get(lang, []) if not CJK_RUN.search(normalise(w))
        }
        for lang in fw
    }
    own = {
        lang: words - set().union(*(v for k, v in latin.items() if k != lang))
        for lang, words in latin.items()
    }
    cues = {lang: fw[lang] | frozenset(own[lang]) for lang in fw}
    counters = sorted(data["counters"], key=len, reverse=True)
    units = sorted(
        (normalise(w) for ws in data["count_skip"].values() for w in ws if CJK_RUN.search(w)),
        key=len,
        reverse=True,
    )
    cjk_count_rx = re.compile(
        r"(?:\d+|"
        + "|".join(map(re.escape, cjk_nums))
        + r")\s*(?:"
        + "|".join(map(re.escape, sorted(counters + units, key=len, reverse=True)))
        + ")"
    )
    return Lexicon(
        controls=tuple((kind, cue_rx(flat(langs))) for kind, langs in data["controls"].items()),
        keys=tuple((key, cue_rx(words)) for key, words in data["keys"].items()),
        numbers=numbers,
        number_rx=number_rx,
        count_skip=frozenset(normalise(w) for ws in data["count_skip"].values() for w in ws),
        count_relations=frozenset(normalise(w) for w in data["count_relations"]),
        counters=tuple(counters),
        cjk_count_rx=cjk_count_rx,
        elements=tuple((kind, cue_rx(words)) for kind, words in data["slide_elements"].items()),
        slide_rx=cue_rx(data["slide_words"]),
        generic=frozenset(w for w in generic if not CJK_RUN.search(w))
        | frozenset().union(*fw.values()),
        generic_cjk=tuple(sorted((w for w in generic if CJK_RUN.search(w)), key=len, reverse=True)),
        function_words=cues,
        purposes=tuple(
            (
                name,
                bool(p.get("inherent")),
                cue_rx(p["words"]),
                cue_rx(p["words"] + p.get("labels", [])),
            )
            for name, p in data["purposes"].items()
        ),
        toggle_rx=cue_rx(data["toggle_words"]),
        automatic_rx=cue_rx(data["automatic_words"]),
        code_verbs=cue_rx(data["code_verbs"]),
        code_markers=cue_rx(data["code_markers"]),
        example_rx=_markers_rx(data["example_markers"]),
        # `*` in an idiom is one word
        idiom_rx=re.compile(_markers_rx(data["idioms"]).pattern.replace(r"\*", r"[^\W\d_]+")),
        adverb_rx=re.compile(
            rf"[^\W\d_]{{3,}}(?:{'|'.join(data['adverb_endings'])})"
            rf"|[^\W\d_]{{4,}}(?:{'|'.join(data['adverb_endings_long'])})"
        ),
        negation_rx={
            lang: _markers_rx(words, _NO_EN if lang == "en" else None)
            for lang, words in data["negations"].items()
            if words or lang == "en"
        },
        flows=tuple(
            (
                name,
                tuple(
                    tuple(cue_rx(data["flow_words"][g]) for g in alt)
                    for alt in (f["when"] if isinstance(f["when"][0], list) else [f["when"]])
                ),
                tuple(f["steps"]),
                tuple(f["expect"]),
                bool(f.get("same_sentence")),
            )
            for name, f in data["flows"].items()
        ),
        flow_labels={
            k: tuple(normalise(str(w)) for w in v) for k, v in data["flow_labels"].items()
        },
        scaffold=Scaffold(data),
    )
