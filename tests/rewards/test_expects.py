"""What a request asks a page to do (cogevol.rewards.expects): rules in 8 languages, LLM route."""

import asyncio
import json

import pytest

from cogevol.llm.aclient import AsyncChatClient
from cogevol.llm.client import EndpointConfig
from cogevol.rewards.expects import (
    INTERACTIVE_DEFAULT,
    Expects,
    expects_from_llm,
    expects_from_request,
    lexicon,
    llm_messages,
)
from cogevol_samples.traffic_lexicon import APPS, LANGS
from tests.judge.server import FakeOpenAI, last_user_text

INT, ANI, STA, BOTH = ["interactive"], ["animation"], ["static"], ["animation", "interactive"]

CASES = [
    # en
    ("Create a single HTML file with a dog fetching a ball animation", ANI),
    ("Build a snake game", INT),
    ("Fireworks on click, plus a Grand Finale button", BOTH),
    ("a calculator", INT),
    ("Add a slider to change the speed", INT),
    ("Click to reveal the answer", INT),
    ("a quiz about capitals", INT),
    ("a flower blooming", ANI),
    ("a bouncing logo", ANI),
    ("a car drifting", ANI),
    ("a rocket launch animation", ANI),
    ("fireworks", ANI),
    ("a solar system with orbiting planets", ANI),
    ("a spinning cube", ANI),
    ("a particles screensaver", ANI),
    ("a landing page for a bakery", STA),
    ("a resume", STA),
    ("an infographic on the water cycle", STA),
    ("a poster for a jazz night", STA),
    ("an article page", STA),
    ("a pricing table", STA),
    ("an animated solar system with a speed slider", BOTH),
    ("an interactive animation of a pendulum", BOTH),
    ("a bar chart of population with hover tooltips and filters", INT),
    ("a bar chart of population by country", STA),
    ("a pendulum simulation", INT),
    ("a simulation of planets orbiting the sun", ANI),
    ("a projectile simulator with sliders for the launch angle", INT),
    ("a racing game with falling blocks", INT),
    ("a quiz with animated transitions", BOTH),
    ("a page with an auto-play carousel", BOTH),
    ("Let the user pick a colour", INT),
    ("a landing page with no animations", STA),
    ("a product launch page for our new phone", STA),
    ("not only animated but also interactive", BOTH),
    # past a simulation or a page type, a game, quiz or tool word is mechanics or topic
    ("A simulation where a chicken wanders by simple game AI and lays eggs on an internal "
     "timer; smooth animation", ANI),
    ("a landing page for a game studio", STA),
    ("a portfolio for a game designer", STA),
    ("a landing page for an indie game with a play button", INT),
    ("a game with a landing page", INT),
    ("a pendulum simulation with a countdown timer", INT),
    # in a game an animation tied to a moment of play answers the play: not motion on its own
    ("a simple tic tac toe game, when the game is finished, make an original finish animation", INT),
    ("做一个井字棋游戏，游戏结束时播放动画", INT),
    ("a game with an animated intro", BOTH),
    ("an animation of a bouncing ball; when it lands, it squashes", ANI),
    # a thing on screen that pauses, an explosion towards the viewer: no control
    ("an animation of a dot that moves and briefly pauses its movement", ANI),
    ("cars drive around; on a crash an explosion expands towards the viewer, animated", ANI),
    ("an animation I can pause and resume", BOTH),
    # interaction ruled out: what the request names runs by itself, not operated
    ("a 3d simulation of 200 dominoes arranged in a spiral; the outermost falls, triggering a "
     "chain reaction. No interactions.", ANI),
    ("a physics simulation of particle interactions", INT),
    ("a non-interactive infographic about bees", STA),
    ("Una simulación de fichas de dominó, sin interacción.", ANI),
    ("多米诺骨牌模拟，无需交互", ANI),
    ("ein Spiel, das sich selbst spielt, keine Interaktion", ANI),
    ("一个贪吃蛇自动驾驶版本：无需用户输入也能自动开始；避免在游戏操作时触发页面滚动", ANI),
    ("a self-playing snake, no user input needed, with a button to restart", BOTH),
    # a hedge is no requirement
    ("Create an interactive quiz game. Show one question at a time. Some nice animations would be cool", INT),
    ("A quiz on planets; maybe some animations", INT),
    ("a slideshow with a play/pause button", INT),
    # zh
    ("一个会开花的花朵动画", ANI),
    ("做一个贪吃蛇游戏", INT),
    ("人口数据的交互柱状图", INT),
    ("不要动画，一个静态的简历页面", STA),
    ("点击屏幕放烟花", BOTH),
    # ja
    ("ロケット打ち上げのアニメーション", ANI),
    ("ボタンで色が変わるページ", INT),
    ("アニメーションなしのシンプルなページ", STA),
    # fr
    ("Une page d'accueil pour une boulangerie", STA),
    ("un feu d'artifice au clic sur un bouton", BOTH),
    ("Pas d'animation, une affiche pour un concert", STA),
    # de
    ("Eine interaktive Karte mit Schiebereglern", INT),
    ("Ein animiertes Logo", ANI),
    ("ohne Animation, ein Lebenslauf", STA),
    # es
    ("un juego de memoria", INT),
    ("una animación de una pelota rebotando", ANI),
    ("sin animaciones, solo una página de precios", STA),
    # pt
    ("uma página estática com o currículo", STA),
    ("fogos de artifício com um botão", BOTH),
    ("um jogo da memória", INT),
    # ko
    ("로켓 발사 애니메이션", ANI),
    ("버튼을 누르면 색이 바뀌는 페이지", INT),
    ("애니메이션 없이 깔끔한 포트폴리오", STA),
]


@pytest.mark.parametrize("request_, kinds", CASES)
def test_rules(request_, kinds):
    e = expects_from_request(request_)
    assert e.kinds == kinds, (request_, e.cues)
    assert e.source == "rules"
    assert e.static == (kinds == STA)


def test_cases_cover_every_language_and_mix():
    assert len(CASES) >= 40
    assert {tuple(k) for _, k in CASES} == {tuple(INT), tuple(ANI), tuple(STA), tuple(BOTH)}


@pytest.mark.parametrize("sub, names", APPS)
def test_traffic_apps_are_interactive_in_every_language(sub, names):
    # the traffic generator's apps: everything is operated, except a plain line chart
    want = STA if "line chart" in names["en"] else INT
    for lang in LANGS:
        assert expects_from_request(names[lang]).kinds == want, (lang, names[lang])


@pytest.mark.parametrize("request_", [None, "", "   \n"])
def test_no_request_is_the_interactive_default(request_):
    assert expects_from_request(request_) is INTERACTIVE_DEFAULT
    assert INTERACTIVE_DEFAULT.kinds == INT and INTERACTIVE_DEFAULT.source == "none"


def test_cues_reported_in_request_order():
    e = expects_from_request("Fireworks on click, plus a Grand Finale button")
    assert e.cues == ("fireworks", "click", "button")
    assert expects_from_request("a landing page with no animations").cues == (
        "landing page", "not animations")
    assert expects_from_request("一个会开花的花朵动画").cues == ("开花", "动画")
    assert expects_from_request("a bar chart of sales").cues == ()  # no cue: static


@pytest.mark.parametrize("request_, kinds, cue", [
    ("a display of trophies", STA, None),  # "display" is not "play"
    ("press play to start", INT, "play"),
    ("a replay of the match", STA, None),
    ("the relaunch of our brand", STA, None),  # whole words: no "launch" in "relaunch"
    ("a page with auto-play", ANI, "auto-play"),  # longest match: not "play"
    ("a page with an AUTOPLAY banner", ANI, "autoplay"),  # case-insensitive
    ("An ANIMATED Logo", ANI, "animated"),
    ("a playground for CSS", INT, "playground"),
    ("an animal facts page", STA, None),  # the stem is "animat", not "anima"
    ("an infographic on Google Play downloads", STA, None),  # neutral phrase masks "play"
    ("Ｓｐｉｎｎｉｎｇ ｃｕｂｅ", ANI, "spinning"),  # full-width forms are normalised
])
def test_word_boundaries(request_, kinds, cue):
    e = expects_from_request(request_)
    assert e.kinds == kinds, e.cues
    if cue:
        assert cue in e.cues


def test_expects_contract():
    e = expects_from_request("an animated solar system with a speed slider")
    assert e.as_dict() == {"interactive": True, "animation": True, "dynamic": False, "static": False,
                           "kinds": BOTH, "cues": ["animated", "slider"], "source": "rules",
                           "confidence": {"animation": e.confidence("animation"),
                                          "interactive": e.confidence("interactive")}}
    assert e.evidence == (("animation", "animation word", "animated"), ("interactive", "control word", "slider"))
    with pytest.raises(ValueError):
        Expects(interactive=True, animation=False, static=True)
    with pytest.raises(ValueError):
        Expects(interactive=False, animation=False, static=True, source="vibes")
    with pytest.raises(AttributeError):
        e.interactive = False  # frozen


def test_lexicon_is_data():
    lex = lexicon()
    names = {f for f, _ in lex.families}
    assert {"interactive", "animation", "motion", "static", "neutral", "game", "quiz", "tool",
            "simulation"} <= names
    assert "JSON" in lex.system and "{request}" in lex.user


# --- the LLM route, against a real local HTTP server -------------------------------------------

def client_for(url: str) -> AsyncChatClient:
    return AsyncChatClient(EndpointConfig(base_url=url, model="m", timeout_s=5, max_retries=1,
                                          backoff_s=0.01))


def ask(url: str, request: str | None) -> Expects:
    async def main():
        async with client_for(url) as c:
            return await expects_from_llm(request, c)

    return asyncio.run(main())


def test_llm_good_json(fake):
    srv = fake(responder=lambda b: json.dumps({"interactive": False, "animation": True,
                                                "static": False}))
    e = ask(srv.url, "a lighthouse beam sweeping the sea at night")
    assert (e.kinds, e.source, e.cues) == (ANI, "llm", ("llm",))
    body = srv.bodies[0]
    assert body["messages"] == llm_messages("a lighthouse beam sweeping the sea at night")
    assert "a lighthouse beam" in last_user_text(body)
    assert body["response_format"] == {"type": "json_object"}


def test_llm_reply_in_prose_and_think_tags(fake):
    srv = fake(responder=lambda b: '<think>{"x": 1}</think>Sure: ```json\n{"interactive": "true",'
                                   ' "animation": false, "static": false}\n```')
    e = ask(srv.url, "a tip calculator")
    assert (e.kinds, e.source) == (INT, "llm")


def test_llm_inconsistent_static_is_derived(fake):
    srv = fake(responder=lambda b: '{"interactive": false, "animation": false, "static": false}')
    e = ask(srv.url, "a menu")
    assert e.kinds == STA and "llm static flag inconsistent, derived" in e.cues


@pytest.mark.parametrize("reply", ["I think it is interactive.",
                                   '{"interactive": "maybe", "animation": false}',
                                   '{"animation": true}'])
def test_llm_malformed_json_falls_back_to_rules(fake, reply):
    srv = fake(responder=lambda b: reply)
    e = ask(srv.url, "Fireworks on click, plus a Grand Finale button")
    assert (e.kinds, e.source) == (BOTH, "rules")
    assert e.cues[:3] == ("fireworks", "click", "button")
    assert e.cues[-1].startswith("llm failed: ")


def test_llm_malformed_body_falls_back_to_rules(fake):
    srv = fake(script=[{"raw": b"{not json"}] * 2)
    e = ask(srv.url, "a spinning cube")
    assert e.kinds == ANI and e.source == "rules" and e.cues[-1].startswith("llm failed: ")
    assert srv.calls == 2  # the client's own retry ran before giving up


def test_llm_server_down_falls_back_to_rules():
    srv = FakeOpenAI()
    url = srv.url
    srv.close()
    e = ask(url, "un juego de memoria")
    assert (e.kinds, e.source) == (INT, "rules")
    assert e.cues[0] == "juego" and "EndpointError" in e.cues[-1]


def test_llm_no_request_is_the_default_without_a_call(fake):
    srv = fake()
    assert ask(srv.url, None) is INTERACTIVE_DEFAULT
    assert ask(srv.url, " ") is INTERACTIVE_DEFAULT
    assert srv.calls == 0


@pytest.mark.parametrize(("request_text", "kinds"), [
    # a simulation that describes motion needs it (a Launch button that sets it off counts: probe.moves_later)
    ("An interactive 3D gravity simulation in which particles attract each other, with controls", ["animation", "interactive"]),
    ("Simulate a projectile: sliders for launch angle and speed, a Launch button", ["animation", "interactive"]),
    # optional is no requirement
    ("A keyboard-controlled character game, basic sprite animation (optional)", ["interactive"]),
    ("In the game loop, check which keys are pressed and move the player", ["interactive"]),
    ("A character moving left and right with the arrow keys, a bouncing sprite", ["interactive"]),
    ("用方向键控制小车移动", ["interactive"]),
    ("a landing page for a bakery, optionally animated", ["static"]),
    # programming terms are not asks
    ("An autonomous fireworks simulation: a rendering loop and a game loop update the particles", ["animation"]),
])
def test_decisions_from_real_requests(request_text, kinds):
    assert expects_from_request(request_text).kinds == kinds
