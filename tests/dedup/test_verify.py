import pytest

from cogevol.core.text import normalize
from cogevol.dedup.verify import same_request


@pytest.mark.parametrize(
    "a, b",
    [
        ("Make a 10-slide deck on photosynthesis for 7th grade", "make a 10-slide deck on photosynthsis for 7th grade!"),
        ("Build a snake game with a score counter", "Please build a snake game with a score counter, thanks"),
        ("做一个贪吃蛇游戏，要有排行榜，主色调蓝色", "主色调蓝色，做一个贪吃蛇游戏，要有排行榜"),
        ("帮我做一份关于光合作用的课件", "帮我作一份关于光合作用的课件"),
        ("请生成初二的勾股定理教学幻灯片", "生成初二的勾股定理教学幻灯片，谢谢"),
    ],
)
def test_same_request_variants_pass(a, b):
    assert same_request(normalize(a), normalize(b)) == (True, "")


@pytest.mark.parametrize(
    "a, b, why",
    [
        ("Make a 10-slide deck on photosynthesis", "Make a 12-slide deck on photosynthesis", "numbers differ"),
        ("Build a snake game, navy theme", "Build a snake game, teal theme", "substitution"),
        ("Build a snake game", "Build a snake game with a score counter and leaderboard", "added content"),
        ("帮我做一份关于光合作用的课件", "帮我做一份关于呼吸作用的课件", "substitution"),
        ("用HTML做一个贪吃蛇游戏，主色调蓝色", "用HTML做一个贪吃蛇游戏，主色调红色", "substitution"),
        ("请生成高一的细胞结构教学幻灯片", "请生成高二的细胞结构教学幻灯片", "substitution"),
    ],
)
def test_different_requests_sharing_boilerplate_are_vetoed(a, b, why):
    ok, reason = same_request(normalize(a), normalize(b))
    assert not ok and reason.startswith(why)
