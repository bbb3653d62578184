from collections import Counter

from cogevol.curate.pipeline import FilterStats
from cogevol.pipeline.stage_counts import add_counts, counts_from, counts_json
from cogevol.traffic.mine import MineStats


def test_counts_survive_json_and_add_up_like_one_pass():
    a = FilterStats(input=3, kept=2, by_axis=Counter(length=1), checklists={"rules": 2})
    b = FilterStats(input=4, kept=1, by_axis=Counter(length=2, safety=1), checklists={"rules": 1, "llm": 1})
    back = counts_from(FilterStats, counts_json(b))
    assert back == b and isinstance(back.by_axis, Counter)
    add_counts(a, back)
    assert (a.input, a.kept) == (7, 3)
    assert a.by_axis == Counter(length=3, safety=1)
    assert a.checklists == {"rules": 3, "llm": 1}


def test_skipped_fields_keep_their_value():
    a, b = MineStats(read=2, seconds=5.0), MineStats(read=1, seconds=9.0, langs=Counter(en=1))
    a.merge(b)
    assert (a.read, a.seconds, a.langs) == (3, 5.0, Counter(en=1))
