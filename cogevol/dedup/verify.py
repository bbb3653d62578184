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

from cogevol.text import is_cjk_token, numbers, tokens

FILLER = frozenset(
    """
    please pls plz kindly hi hello hey dear thanks thank thx asap urgent can could would will you your
    me my i we us need want wanna like help just do make create build generate write give get some
    a an the to for of and or with in on one it this that is are be so ok okay also quick quickly
    por favor hola gracias haz crea hazme necesito quiero un una me mi
    s il te vous plaît plait bonjour salut merci fais crée créer j ai besoin je veux un une
    bitte hallo danke erstelle baue mach mache ich brauche ein eine einen mir
    oi olá obrigado obrigada crie faça faz preciso quero um uma
    """.split()
)
FILLER_CJK = frozenset("请帮我麻烦你您好谢急用给个下吧呢啊呀要了做弄能可以っ만들어すみませんお願いしよろくね부탁해요안녕하세감사합니다줘")
# Single CJK characters that change the meaning when swapped: never treat them as typos.
MEANINGFUL_CJK = frozenset("红橙黄绿青蓝紫黑白灰粉金银零一二三四五六七八九十百千万两大小多少高低上下左右前后新旧男女中英日韩赤緑青黒白")


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
            if prev2 is not None and i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > k:
            return False
        prev2, prev = prev, cur
    return prev[-1] <= k


def _typo_budget(word: str) -> int:
    # two variants of one request may each carry a typo in the same word: allow two edits
    return 0 if len(word) < 4 else (1 if len(word) < 6 else 2)


def _pair_typos(left: list[str], right: list[str]) -> tuple[list[str], list[str]]:
    """Remove pairs of words that are one keystroke-level edit apart."""
    right = list(right)
    rest = []
    for w in left:
        k = _typo_budget(w)
        match = next((v for v in right if k and _edit_distance_le(w, v, max(k, _typo_budget(v)))), None)
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


def same_request(a: str, b: str) -> tuple[bool, str]:
    """(True, "") when normalised texts a and b can be the same request, else (False, why)."""
    if Counter(numbers(a)) != Counter(numbers(b)):
        return False, "numbers differ"
    toks_a, toks_b = tokens(a), tokens(b)
    ta, tb = Counter(toks_a), Counter(toks_b)
    wa, ca = _content(ta - tb)
    wb, cb = _content(tb - ta)
    wa, wb = _pair_typos(wa, wb)
    if wa and wb:
        return False, f"substitution: {' '.join(wa[:3])} / {' '.join(wb[:3])}"
    if ca and cb:
        meaningful = MEANINGFUL_CJK.intersection(ca + cb)
        # scattered single-character typos: at most one per ten characters of text
        budget = max(1, min(len(toks_a), len(toks_b)) // 10)
        replaced_word = _has_run(toks_a, ca) and _has_run(toks_b, cb)
        if meaningful or replaced_word or len(ca) > budget or len(cb) > budget:
            return False, f"substitution: {''.join(ca[:4])} / {''.join(cb[:4])}"
        ca, cb = [], []  # typos, paired up
    if (wa and cb) or (ca and wb):
        return False, "substitution across scripts"
    added = max(len(wa), len(wb))
    added_cjk = max(len(ca), len(cb))
    if added >= 2 or added_cjk >= 3:
        return False, f"added content: {' '.join((wa or wb)[:3]) or ''.join((ca or cb)[:4])}"
    return True, ""
