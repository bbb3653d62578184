import pytest

from cogevol.checklist import plan_rules
from cogevol.checklist.word_kinds import drop_non_things, not_a_thing


def subjects(request: str) -> list[str]:
    return [c.value for c in plan_rules(request).checks if c.check == "mentions"]


@pytest.mark.parametrize(
    "request_, never, keep",
    [
        ("Generate a single HTML file with JavaScript demonstrating the concept: binary search",
         {"demonstrating", "concept"}, {"binary"}),
        ("Make an incredibly clean page that explains the concept of recursion", {"incredibly", "concept"}, {"recursion"}),
        ("Build a timer app that works offline for my pomodoro sessions", {"works"}, {"pomodoro"}),
        ("Crea una página mostrando el mapa de los volcanes, muy bonita", {"mostrando", "muy"}, {"volcanes"}),
        ("Fais une page montrant rapidement les phases de la lune", {"montrant", "rapidement"}, {"lune"}),
        ("Faça uma página mostrando os planetas, bem colorida", {"mostrando", "bem"}, {"planetas"}),
        ("Eine Seite mit einer leuchtenden Karte der Vulkane", {"leuchtenden"}, {"vulkane"}),
    ],
)
def test_subjects_are_things_a_page_can_show(request_, never, keep):
    got = set(subjects(request_))
    assert not got & never, got
    assert keep <= got, got


@pytest.mark.parametrize(
    "word, before, after, lang",
    [
        ("painting", "a", "app", "en"),  # a determiner before it: a noun
        ("restaurant", "mon", "", "fr"),
        ("orbit", "the", "of", "en"),  # a named thing introducing another stays
        ("family", "a", "tree", "en"),  # -ly, but "fami" is no word
        ("volcanes", "los", "", "es"),
    ],
)
def test_things_stay(word, before, after, lang):
    assert not_a_thing(word, before, after, lang, "moon") == ""


def test_cjk_requests_are_left_to_their_own_rules():
    assert drop_non_things("一个演示冒泡排序概念的页面", "zh") == ("一个演示冒泡排序概念的页面", [])
