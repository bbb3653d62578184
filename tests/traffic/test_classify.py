import pytest

from cogevol.traffic.classify import classify


@pytest.mark.parametrize(
    "text, category, sub",
    [
        ("Make a 10-slide presentation on volcanoes for 7th grade", "slide", "lesson"),
        ("帮我做一份关于光合作用的课件", "slide", "lesson"),
        ("Build a snake game as a single HTML page with a score counter", "html", "game"),
        ("做一个单摆运动模拟，要有参数滑块", "html", "simulation"),
        ("Crea un sistema solar 3D giratorio en HTML", "html", "3d"),
        ("Write a Django REST API for user authentication with PostgreSQL", "off_scope", "backend"),
        ("帮我写个Python爬虫抓取某电商网站的商品价格", "off_scope", "backend"),
        ("tell me a joke", "off_scope", "chitchat"),
    ],
)
def test_classify(text, category, sub):
    c = classify(text)
    assert (c.category, c.subcategory) == (category, sub)


def test_cues_explain_the_decision():
    assert "slides" in classify("make slides about cells").cues
