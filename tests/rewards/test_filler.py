"""Lorem ipsum where a page's content should be is priced (the `filler` term), in a page of any
language, unless the request asks for placeholder text."""

from cogevol.probe import ProbeResult
from cogevol.rewards.expects import expects_from_request
from cogevol.rewards.filler import asks_for_filler, shows_filler
from cogevol.rewards.html import score

LOREM = "About us\nLorem ipsum dolor sit amet, consectetur adipiscing elit. Vivamus lacinia odio vitae."


def test_lorem_ipsum_is_filler_in_a_page_of_any_language():
    assert shows_filler(LOREM) and shows_filler("关于我们\nLorem ipsum dolor sit amet")
    assert shows_filler("LOREM IPSUM DOLOR")
    # a word or two of Latin in real prose is no filler
    assert not shows_filler("Ipsum is Latin for 'itself'; the dolor scale measures pain.")
    assert not shows_filler("Our tempo: tempor-ish, fast and reliable delivery") and not shows_filler("")


def test_a_request_may_ask_for_placeholder_text():
    for request in ("A landing page template with lorem ipsum text", "un wireframe con texto de relleno",
                    "eine Vorlage mit Blindtext", "一个用占位文本的模板", "ダミーテキストでレイアウトを作って",
                    "더미 텍스트로 채운 페이지", "a mock-up with placeholder copy"):
        assert asks_for_filler(request), request
    assert not asks_for_filler("A landing page for an AI startup") and not asks_for_filler("")


def test_filler_is_priced_unless_asked_for():
    page = ProbeResult(rendered_ok=True, fill=0.5, text=LOREM)
    expects = expects_from_request("a landing page for a bakery")
    s = score(page, expects)
    assert s.terms["filler"] == 1.0 and "lorem ipsum filler shown" in s.reason and not s.hard_fail
    asked = score(page, expects, filler_asked=True)
    assert "filler" not in asked.terms and asked.reward > s.reward
    clean = score(ProbeResult(rendered_ok=True, fill=0.5, text="Fresh bread daily"), expects)
    assert "filler" not in clean.terms
