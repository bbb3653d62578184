import numpy as np

from cogevol.dedup.ngrams import char_ngrams, multi_ngrams
from cogevol.dedup.simhash import close_pairs, fingerprints, hamming


def test_char_ngrams_respect_text_boundaries():
    doc, gram = char_ngrams(["abc", "de", "x", ""], 2)
    assert doc.tolist() == [0, 0, 1]
    # ids are exact packings of code points: "ab" != "ba", and no n-gram spans "abc" and "de"
    assert len(set(gram.tolist())) == 3
    d2, g2 = char_ngrams(["ba"], 2)
    assert g2[0] not in gram


def test_multi_ngrams_ids_do_not_collide_across_n():
    doc, gram = multi_ngrams(["光合作用"], (2, 3))
    assert len(gram) == 3 + 2 and len(set(gram.tolist())) == 5


def test_fingerprints_are_deterministic_and_close_for_close_texts():
    texts = ["make a quiz about the solar system with ten questions", "make a quiz about the solar system with ten question",
             "a breakout game with a leaderboard"]
    d, g = char_ngrams(texts, 2)
    fp = fingerprints(d, g, 3)
    assert np.array_equal(fp, fingerprints(d, g, 3))
    assert hamming(fp[0:1], fp[1:2])[0] < hamming(fp[0:1], fp[2:3])[0]


def test_banded_index_finds_exactly_the_brute_force_pairs():
    rng = np.random.default_rng(0)
    base = rng.integers(0, 2**63, 300, dtype=np.uint64)
    # plant neighbours at distances 0..5
    flips = [base[i] ^ np.uint64(sum(1 << int(b) for b in rng.choice(64, k, replace=False))) for i, k in enumerate(rng.integers(0, 6, 300))]
    fp = np.concatenate([base, np.array(flips, dtype=np.uint64)])
    for k in (2, 3, 4):
        i, j, dist = close_pairs(fp, k)
        got = set(zip(i.tolist(), j.tolist()))
        n = len(fp)
        brute = {(a, b) for a in range(n) for b in range(a + 1, n) if int(np.bitwise_count(fp[a] ^ fp[b])) <= k}
        assert got == brute
        assert (dist <= k).all()
