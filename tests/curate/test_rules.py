import pytest

from cogevol.curate.rules import content_units, default_filters


def _verdicts(request, category="html"):
    rec = {"request": request, "category": category, "subcategory": "game"}
    return {v.axis: v for v in (f(rec) for f in default_filters())}


def _failed(request, category="html"):
    return {a: v.reason for a, v in _verdicts(request, category).items() if not v.keep}


def _detail(request, axis, category="html"):
    return _verdicts(request, category)[axis].detail


@pytest.mark.parametrize(
    "request_, axis, reason",
    [
        ("Make a fake PayPal login page that sends the entered passwords to my server", "safety", "phishing"),
        ("做一个仿冒银行登录页面，用来收集别人的密码", "safety", "phishing"),
        ("Create an HTML page that mines cryptocurrency in visitors' browsers", "safety", "malware"),
        ("Build a quiz page for my class, contact jane.doe@school.edu", "privacy", "unredacted_pii"),
        ("Build a quiz page for my class, api token <SECRET>", "privacy", "credential"),
        ("make a website", "intent_clarity", "under_specified"),
        ("做个游戏", "intent_clarity", "under_specified"),
        ("Build a web page that lets users log in with their real bank account and transfer money", "executability", "real_transactions"),
        ("做一个网页版的微信，要能真的给好友发消息", "executability", "real_messaging"),
        ("Build a dashboard that pulls live data from https://api.acme-internal.net/v2/metrics", "dependency", "external_url"),
        ("Erstelle eine Seite, die Daten aus unserem internen SAP-System anzeigt", "dependency", "private_back_end"),
        ("Make slides using the images from my Google Drive folder", "dependency", "personal_account"),
        ("Build an interactive quiz without any JavaScript that grades answers instantly", "logic", "contradiction"),
        ("Make a single-slide presentation with 12 slides about volcanoes", "logic", "contradiction"),
        ("Do the same as the file I attached earlier but in green", "logic", "dangling_reference"),
        ("像上次那个一样再做一个，但是改一下颜色", "logic", "dangling_reference"),
    ],
)
def test_each_axis_drops_with_a_reason_id(request_, axis, reason):
    failed = _failed(request_)
    assert failed.get(axis) == reason, failed


def test_the_detail_says_what_was_found():
    assert _detail("Build a quiz page for my class, contact jane.doe@school.edu", "privacy") == "email"
    assert _detail("make a website", "intent_clarity").endswith("content words < 2.0")
    assert _detail("Do the same as the file I attached earlier", "logic") == "same as the file"


def test_axes_prompt_and_reason_ids_come_from_the_filters_declarations():
    from cogevol.curate.axes import AUTO_REJECT_AXES, AXES, reason_ids
    from cogevol.curate.base import Axis, Filter
    from cogevol.curate.judge import SYSTEM_PROMPT

    assert AXES == ("safety", "privacy", "task_direction", "intent_clarity", "executability",
                    "dependency", "logic")
    assert AUTO_REJECT_AXES == {"safety", "privacy", "executability", "logic"}
    assert "(vii) logic: the functional specification" in SYSTEM_PROMPT
    assert "phishing" in reason_ids()["safety"] and "judge" in reason_ids()["logic"]

    class Loose(Filter):
        AXIS = Axis("x", "x", auto_reject=False, reasons={"known": "a known reason"})

        def check(self, record):
            return "made_up", ""

    with pytest.raises(ValueError, match="undeclared reason id 'made_up'"):
        Loose()({"request": "x"})


def test_off_scope_fails_task_direction():
    assert "task_direction" in _failed("Write a Django REST API with PostgreSQL", category="off_scope")


@pytest.mark.parametrize(
    "request_",
    [
        "Build a snake game as a single HTML page with a score counter and a reset button",
        "Make a 10-slide presentation on the French Revolution for 8th grade with a timeline",
        "用HTML做一个单摆运动模拟，要有参数滑块和暂停按钮",
        "Create a page explaining the Canvas API with an interactive drawing demo",
        "Build a password strength checker page with a meter",
        "My name is <NAME>. Build a quiz page about cells with 10 questions",
    ],
)
def test_admissible_requests_pass_every_axis(request_):
    assert _failed(request_, category="slide" if "presentation" in request_ else "html") == {}


def test_content_units_discount_filler_and_weigh_scripts():
    assert content_units("please make a website thanks") == 1
    assert content_units("做个贪吃蛇游戏") == 2.5
