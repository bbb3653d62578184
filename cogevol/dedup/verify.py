"""Pair verification: does a lexically close pair ask for the same thing?

Character n-gram similarity cannot tell a typo ("photosynthsis") from a different request that
shares boilerplate ("... about photosynthesis" vs "... about respiration", "10 questions" vs
"15 questions", "navy" vs "teal"). A candidate pair found by SimHash or TF-IDF is therefore
compared on its token difference, after removing filler words (greetings, please, thanks) and
pairing up typos:

* the numbers differ                               -> different request
* both sides keep content the other lacks          -> a substitution: different request
  (unless it is a single CJK character each, i.e. a homophone typo, and not a meaningful one
  such as a colour or a numeral)
* one side adds two or more content words          -> an added feature: different request

Everything else (case, width, punctuation, spacing, typos, clause order, polite prefixes and
suffixes) is left to the similarity threshold.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

from cogevol.core.parallel import fork_map
from cogevol.core.text import is_cjk_token, numbers, tokens

FILLER = frozenset(
    """
    please pls plz kindly hi hello hey dear thanks thank thx asap urgent can could would will you \
your
    me my i we us need want wanna like help just do make create build generate write give get some
    a an the to for of and or with in on one it this that is are be so ok okay also quick quickly
    por favor hola gracias haz crea hazme necesito quiero un una me mi
    s il te vous plaît plait bonjour salut merci fais crée créer j ai besoin je veux un une
    bitte hallo danke erstelle baue mach mache ich brauche ein eine einen mir
    oi olá obrigado obrigada crie faça faz preciso quero um uma
    """.split()
)
FILLER_CJK = frozenset(
    "请帮我麻烦你您好谢急用给个下吧呢啊呀要了做弄能可以っ만들어すみませんお願いしよろくね부탁해요안녕하세감사합니다줘"
)
# Single CJK characters that change the meaning when swapped: never treat them as typos.
MEANINGFUL_CJK = frozenset(
    "红橙黄绿青蓝紫黑白灰粉金银零一二三四五六七八九十百千万两大小多少高低上下左右前后新旧男女中英日韩东南西北初高赤緑青黒白"
)


def _edit_distance_le(a: str, b: str, k: int) -> bool:
    """Optimal-string-alignment distance(a, b) <= k, with an early exit (words are short)."""
    if abs(len(a) - len(b)) > k:
        return False
    prev2, prev = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if (
                prev2 is not None
                and i > 1
                and j > 1
                and a[i - 1] == b[j - 2]
                and a[i - 2] == b[j - 1]
            ):
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > k:
            return False
        prev2, prev = prev, cur
    return prev[-1] <= k


def _typo_budget(word: str) -> int:
    # long words: two variants of one request may each carry a typo in the same word
    return 0 if len(word) < 4 else (1 if len(word) < 8 else 2)


@lru_cache(maxsize=65536)
def _readings(ch: str) -> frozenset[str]:
    """Toneless pinyin readings of a Han character (itself for anything else)."""
    from pypinyin import Style, pinyin

    return frozenset(pinyin(ch, style=Style.NORMAL, heteronym=True, errors=lambda x: [x])[0])


def _pair_homophones(
    left: list[str], right: list[str]
) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """Pair CJK characters that read the same (做/作, 的/得, 页/业): the typos of Chinese input
    methods. Anything else (光合/呼吸, 东/南) stays unpaired."""
    right = list(right)
    pairs, rest = [], []
    for c in left:
        match = next((d for d in right if _readings(c) & _readings(d)), None)
        if match is None:
            rest.append(c)
        else:
            right.remove(match)
            pairs.append((c, match))
    return pairs, rest, right


def _pair_typos(left: list[str], right: list[str]) -> tuple[list[str], list[str]]:
    """Remove pairs of words that are one keystroke-level edit apart."""
    right = list(right)
    rest = []
    for w in left:
        k = _typo_budget(w)
        match = next(
            (v for v in right if k and _edit_distance_le(w, v, max(k, _typo_budget(v)))), None
        )
        if match is None:
            rest.append(w)
        else:
            right.remove(match)
    return rest, right


def _has_run(text_tokens: list[str], residual: list[str]) -> bool:
    """True when two residual CJK characters sit side by side in the text: a replaced word,
    not scattered single-character typos."""
    res = Counter(residual)
    flags = [t in res for t in text_tokens]
    return any(a and b for a, b in zip(flags, flags[1:]))


def _content(tok_counts: Counter) -> tuple[list[str], list[str]]:
    words, chars = [], []
    for t, c in tok_counts.items():
        if is_cjk_token(t):
            if t not in FILLER_CJK:
                chars += [t] * c
        elif not t.isdigit() and t not in FILLER:
            words += [t] * c
    return words, chars


class _Doc:
    """What verification needs of one text, computed once per text rather than once per pair."""

    __slots__ = ("toks", "counts")

    def __init__(self, text: str):
        self.toks = tokens(text)
        self.counts = Counter(self.toks)


def _numbers_key(text: str) -> tuple:
    return tuple(sorted(numbers(text)))


def _compare(da: _Doc, db: _Doc) -> tuple[bool, str]:
    if _numbers_moved(da, db):
        return False, "numbers differ"
    wa, ca = _content(da.counts - db.counts)
    wb, cb = _content(db.counts - da.counts)
    wa, wb = _pair_typos(wa, wb)
    if wa and wb:
        return False, f"substitution: {' '.join(wa[:3])} / {' '.join(wb[:3])}"
    if ca and cb:
        meaningful = MEANINGFUL_CJK.intersection(ca + cb)
        typos, ra, rb = _pair_homophones(ca, cb)
        # scattered homophone typos: at most one per ten characters of text
        budget = max(1, min(len(da.toks), len(db.toks)) // 10)
        replaced_word = _has_run(da.toks, [a for a, _ in typos]) and _has_run(
            db.toks, [b for _, b in typos]
        )
        if meaningful or (ra and rb) or replaced_word or len(typos) > budget:
            return False, f"substitution: {''.join(ca[:4])} / {''.join(cb[:4])}"
        ca, cb = ra, rb  # typos paired up; what is left was inserted on one side
    if (wa and cb) or (ca and wb):
        return False, "substitution across scripts"
    added = max(len(wa), len(wb))
    added_cjk = max(len(ca), len(cb))
    if added >= 2 or added_cjk >= 3:
        return False, f"added content: {' '.join((wa or wb)[:3]) or ''.join((ca or cb)[:4])}"
    return True, ""


def _units(toks: list[str]) -> dict[str, list[str]]:
    """Each number with the token after it (its unit: "5 slides", "14页", "11th")."""
    out: dict[str, list[str]] = {}
    for k, t in enumerate(toks):
        if t[0].isdigit():
            out.setdefault(t, []).append(toks[k + 1] if k + 1 < len(toks) else "")
    return out


def _compatible_unit(u: str, v: str) -> bool:
    if u == v:
        return True
    if len(u) == 1 and len(v) == 1:
        return bool(_readings(u) & _readings(v))
    return _edit_distance_le(u, v, max(1, _typo_budget(u)))


def _numbers_moved(da: _Doc, db: _Doc) -> bool:
    """Same numbers, attached to different things ("5 slides, grade 11" vs "11 slides, grade 5")."""
    ua, ub = _units(da.toks), _units(db.toks)
    if len(ua) < 2:
        return False
    for num, units in ua.items():
        other = list(ub.get(num, []))
        for u in units:
            match = next((v for v in other if _compatible_unit(u, v)), None)
            if match is None:
                return True
            other.remove(match)
    return False


def same_request(a: str, b: str) -> tuple[bool, str]:
    """(True, "") when normalised texts a and b can be the same request, else (False, why)."""
    if _numbers_key(a) != _numbers_key(b):
        return False, "numbers differ"
    return _compare(_Doc(a), _Doc(b))


_TEXTS: list[str] = []


def _verify_chunk(pairs: tuple[np.ndarray, np.ndarray]) -> list[tuple[int, str]]:
    cache: dict[int, _Doc] = {}
    vetoed = []
    for k, (a, b) in enumerate(zip(pairs[0].tolist(), pairs[1].tolist())):
        da = cache.get(a) or cache.setdefault(a, _Doc(_TEXTS[a]))
        db = cache.get(b) or cache.setdefault(b, _Doc(_TEXTS[b]))
        ok, why = _compare(da, db)
        if not ok:
            vetoed.append((k, why))
    return vetoed


def verify_pairs(
    texts: list[str], i: np.ndarray, j: np.ndarray, workers: int = 1
) -> tuple[np.ndarray, dict[int, str]]:
    """Verify many candidate links at once: (accepted mask, {pair index: veto reason}).

    Number mismatches are vetoed with one vectorised comparison; the rest are compared in
    `workers` forked processes, each text tokenised once."""
    keep = np.ones(len(i), bool)
    reasons: dict[int, str] = {}
    if len(i) == 0:
        return keep, reasons
    docs = np.unique(np.concatenate([i, j]))
    key_ids = {}
    nk = np.full(len(texts), -1, np.int64)
    for d in docs.tolist():
        nk[d] = key_ids.setdefault(_numbers_key(texts[d]), len(key_ids))
    differ = nk[i] != nk[j]
    keep[differ] = False
    reasons.update(dict.fromkeys(np.flatnonzero(differ).tolist(), "numbers differ"))
    rest = np.flatnonzero(~differ)
    step = 1 << 14
    chunks = [(i[rest[s : s + step]], j[rest[s : s + step]]) for s in range(0, len(rest), step)]
    global _TEXTS
    _TEXTS = texts
    try:
        results = fork_map(_verify_chunk, chunks, workers)
    finally:
        _TEXTS = []
    for c, vetoed in enumerate(results):
        for k, why in vetoed:
            idx = int(rest[c * step + k])
            keep[idx] = False
            reasons[idx] = why
    return keep, reasons
