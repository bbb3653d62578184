import json

from cogevol.core.langid import script_language
from cogevol.core.text import normalize, numbers, shingle_text, tokens


def test_normalize_folds_case_width_punctuation_and_space():
    assert normalize("  Ｈｅｌｌｏ,   WORLD!! ") == "hello, world"
    assert normalize("ＡＢＣ１２３？") == "abc123"


def test_normalize_is_chinese_aware():
    # ideographic punctuation maps, spaces between CJK characters are spacing noise
    assert normalize("「请帮我 做一个 课件」。") == "请帮我做一个课件"
    assert normalize("用 Ｈ Ｔ Ｍ Ｌ 做一个游戏！") == normalize("用HTML做一个游戏")


def test_korean_keeps_its_spaces():
    assert normalize("웹페이지 만들어줘") == "웹페이지 만들어줘"


def test_shingle_text_drops_inner_punctuation():
    assert shingle_text(normalize("a quiz, with a timer; please")) == "a quiz with a timer please"


def test_tokens_split_scripts():
    assert tokens("用python做html页面12个") == ["用", "python", "做", "html", "页", "面", "12", "个"]
    assert numbers("grade 7, 10.5 slides") == ["7", "10.5"]


def test_language_guess():
    assert script_language("做一个课件") == "zh"
    assert script_language("スライドを作って") == "ja"
    assert script_language("Crea una presentación sobre el sistema solar") == "es"


def test_a_reasoning_models_thinking_is_not_its_answer():
    from cogevol.core.text import strip_thinking
    from cogevol.distill.pipeline import extract_artifact
    from cogevol.llm.client import parse_json_object
    from cogevol.scoring.extract import extract_html, extract_html_span

    draft = "<think>first try:\n```html\n<div>draft</div>\n```\nno, better</think>\n"
    final = "```html\n<!DOCTYPE html><html><body><button>go</button></body></html>\n```"
    text = draft + final
    assert extract_html(text).startswith("<!DOCTYPE html>")
    start, end = extract_html_span(text)
    assert text[start:end] == extract_html(text)  # offsets still point into the completion
    assert extract_html("<think>thinking about <div>x</div> until the budget ran out") is None
    assert strip_thinking("plan</think>answer") == "answer"  # the template ate <think>
    assert parse_json_object('<think>{"draft": 1}</think>{"score": 4}') == {"score": 4}
    from tests.distill.test_pipeline import CLEAN_DECK

    deck, why = extract_artifact("slide", '<think>```json\n{"draft": true}\n```</think>\n' + CLEAN_DECK)
    assert why == "" and json.loads(deck) == json.loads(CLEAN_DECK)
