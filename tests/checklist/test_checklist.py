"""The request checklist: planned from the request alone, run against what an answer shows."""

import pytest

from cogevol.checklist import (
    Check,
    Checklist,
    PageFacts,
    RequestFit,
    fulfilment,
    plan_rules,
    request_fit,
    run_check,
    run_checklist,
)
from cogevol.core.langid import language
from cogevol.core.request_lexicon import normalise


def kinds(checklist: Checklist) -> list[tuple]:
    return [(c.check, c.value, c.n) for c in checklist.checks if c.check != "mentions"]


def mentions(checklist: Checklist) -> list[str]:
    return [c.value for c in checklist.checks if c.check == "mentions"]


@pytest.mark.parametrize("text, lang", [
    ("The planets orbit the sun and you can change the speed", "en"),
    ("Los planetas giran alrededor del sol y puedes cambiar la velocidad", "es"),
    ("Les planètes tournent autour du soleil et vous pouvez changer la vitesse", "fr"),
    ("Die Planeten kreisen um die Sonne und du kannst die Geschwindigkeit ändern", "de"),
    ("Os planetas giram em torno do sol e você pode mudar a velocidade", "pt"),
    ("行星围绕太阳旋转，你可以改变速度", "zh"),
    ("惑星が太陽の周りを回り、速度を変えられます", "ja"),
    ("행성이 태양 주위를 돌고 속도를 바꿀 수 있습니다", "ko"),
])
def test_language_of_a_text_in_each_traffic_language(text, lang):
    assert language(text, 12) == lang


def test_too_little_text_has_no_language():
    assert language("42", 12) == "" and language("", 12) == ""
    # letters standing alone are marks, not words: a tic-tac-toe board is in no language
    assert PageFacts(text="Tic Tac Toe\nX\nO\nX\nO\nX\nO\nX").language() == ""
    assert PageFacts(text="Calculadora C 7 8 9 Borrar todo Resultado").language() == "es"


def test_a_page_is_priced_for_its_language_only_when_the_reading_is_sure():
    en = plan_rules("A simple tic tac toe game").checks[0]
    # "Start Pause Reset" reads as French at 0.55 of the likely languages' share
    few = run_check(en, PageFacts(text="Start\nPause\nReset\n00:00"))
    assert few.status == "unverifiable" and "sure" in few.reason
    fr = "Morpion\nRecommencer la partie\nC'est au tour du joueur X de jouer\nLe joueur O a gagné la partie"
    assert run_check(en, PageFacts(text=fr)).status == "unmet"


def test_rules_read_controls_labels_keys_counts_and_content_words():
    c = plan_rules("Build a memory game with 12 cards of animals: a slider sets the speed, a 'Reset' button, "
                   "and the arrow keys move the cursor")
    assert c.language == "en" and c.source == "rules"
    assert {("language", "en", None), ("control", "range", None), ("label", "Reset", None),
            ("key", "ArrowKeys", None), ("count", "cards", 12)} <= set(kinds(c))
    assert ("control", "click", None) not in set(kinds(c))  # the one button named is its label check
    assert {"memory", "cards", "animals"} <= set(mentions(c))
    assert not {"slider", "button", "build", "game", "arrow"} & set(mentions(c))  # request vocabulary is not the topic
    assert not next(x for x in c.checks if x.check == "language").must  # priced, never a must-have


@pytest.mark.parametrize("request_text, lang, count, word", [
    ("Crea un juego de memoria con doce cartas de animales", "es", ("cartas", 12), "memoria"),
    ("Crée une carte interactive avec trois villes", "fr", ("villes", 3), "villes"),
    ("Erstelle eine Karte mit drei Städten und einem Dropdown", "de", ("städten", 3), "karte"),
    ("Crie uma página para uma padaria com três produtos", "pt", ("produtos", 3), "padaria"),
    ("做一个有十二张卡片的记忆游戏", "zh", ("卡片", 12), "记忆"),
    ("五つの惑星が回る太陽系のアニメーションを作ってください", "ja", ("惑星", 5), "惑星"),
    ("다섯 개의 행성이 도는 태양계 애니메이션을 만들어 주세요", "ko", ("행성", 5), "태양계"),
    # Japanese and Korean also count after the noun
    ("惑星を8つ表示する太陽系のページを作ってください", "ja", ("惑星", 8), "太陽系"),
    ("구구단 퀴즈를 만들어 주세요. 문제는 다섯 개로", "ko", ("문제", 5), "구구단"),
    ("문제를 5개 내는 구구단 퀴즈를 만들어 주세요", "ko", ("문제", 5), "구구단"),
    ("5問のクイズを作ってください。テーマは惑星", "ja", ("クイズ", 5), "惑星"),
])
def test_rules_in_the_other_traffic_languages(request_text, lang, count, word):
    c = plan_rules(request_text)
    assert c.language == lang
    assert ("count", count[0], count[1]) in kinds(c)
    assert word in mentions(c)


def test_numbers_inside_words_are_not_counts():
    assert not [x for x in plan_rules("태양계 애니메이션을 만들어 주세요").checks if x.check == "count"]  # 세 in 주세요
    assert not [x for x in plan_rules("A timer that counts down 60 seconds").checks if x.check == "count"]
    # a unit runs straight on into the next words in CJK: "3 秒有更强的烟花" is a time, not a thing
    assert not [x for x in plan_rules("点击后 3 秒有更强的烟花").checks if x.check == "count"]
    assert [x.value for x in plan_rules("页面上放 5 个气球").checks if x.check == "count"] == ["气球"]


@pytest.mark.parametrize("request_text, counts", [
    # the noun comes right after its number: a bracket or a stop ends the count
    ("Simulate many balls (aim for 50+) that interact. Initialize them at random", []),
    ("Start with a defined number of vehicles (e.g., 5-10). Assign each a velocity", []),
    ("Draw 50+ balls inside a square container", [(50, "balls")]),
    ("A 10-question quiz", [(10, "question")]),
    # things that meet are no count of things shown
    ("If any two vehicles collide, show an explosion", []),
    ("Handle collisions between two balls", []),
    ("Buttons to switch between three cities", [(3, "cities")]),
    # an example's number is one way among others; a range's end is no count
    ("Each rocket explodes into a burst (e.g., 30-80 particles per explosion) that fades", []),
    ("Collage-Maker: 2 bis 6 Fotos hochladen", []),
    ("Write 8-10 articles and 12 cards", [(12, "cards")]),
])
def test_a_count_is_a_number_with_its_noun_right_after(request_text, counts):
    assert [(x.n, x.value) for x in plan_rules(request_text).checks if x.check == "count"] == counts


@pytest.mark.parametrize("request_text, gone, kept", [
    # what a page must go without is nothing it shows; the model it is to be like is its subject
    # (a named game is what the request is about, even when it reads like a reference)
    ("Make a side-scrolling platformer game like Super Mario Bros. using HTML", set(), {"platformer", "mario"}),
    ("a game like Flappy Bird where a bird flies through pipes", set(), {"flappy", "bird", "pipes"}),
    ("Haz un juego al estilo de Tetris", set(), {"tetris"}),
    ("A 3D fractal terrain in WebGL without external libraries. Add fog.", {"external", "libraries"}, {"fractal", "terrain", "fog"}),
    ("Un editor de documentos (sin colaboración en tiempo real): tablas, imágenes", {"colaboración"}, {"tablas"}),
    ("A landing page with smooth Framer-like transitions between sections", {"framer"}, {"transitions", "sections"}),
    ("I'd like a page about volcanoes", set(), {"volcanoes"}),
    ("We would like a single-page quiz on planets", set(), {"planets"}),
    # a negation of the request's language, to its clause's end; an exact copy is no thing shown
    ("create a cool raining and thunder animation. No controls no interactiveness.", {"controls", "interactiveness"}, {"raining", "thunder"}),
    ("A Yes/No quiz with no more than 5 questions", set(), {"yes", "questions"}),
    ("Una página sin animaciones. No uses canvas, solo tarjetas de frutas.", {"canvas"}, {"tarjetas", "frutas"}),
    ("Ein Quiz über Planeten, keine Bilder", {"bilder"}, {"planeten"}),
    ("Um sistema solar com o sol no centro", set(), {"centro"}),
    ("create exact copy of the PAC-MAN game", {"exact", "copy"}, {"pac-man"}),
])
def test_what_to_go_without_is_no_mention_and_a_model_to_be_like_is(request_text, gone, kept):
    words = set(mentions(plan_rules(request_text)))
    assert not words & gone and kept <= words, words


def test_things_drawn_beside_text_cannot_be_counted():
    count = next(c for c in plan_rules("Draw 50 balls bouncing in a box").checks if c.check == "count")
    notes = "Developer notes: the balls bounce off the walls and lose energy. " * 5
    assert run_check(count, PageFacts(text=notes)).status == "unmet"
    assert run_check(count, PageFacts(text=notes, drawn=True)).status == "unverifiable"


def test_slide_requests_name_the_count_and_elements():
    c = plan_rules("Make a 5-slide deck about volcanoes for 7th grade with a chart of eruptions", "slide")
    assert ("slides", "", 5) in kinds(c) and ("element", "chart", None) in kinds(c)
    assert {"volcanoes", "eruptions"} <= set(mentions(c))


def test_the_format_round_trips_and_is_strict():
    c = plan_rules("A quiz with ten questions about the French revolution")
    assert Checklist.from_json(c.to_json()) == c
    with pytest.raises(ValueError):
        Checklist.from_json({"version": 2, "checks": []})
    with pytest.raises(ValueError):
        Checklist.from_json({"version": 1, "checks": [{"check": "mentions", "value": "x", "wieght": 1}]})
    with pytest.raises(ValueError):
        Check("colour")


SOLAR = plan_rules("Create a solar system: the planets orbit the sun, a slider controls the speed")


def test_the_right_page_meets_its_checklist_and_another_requests_page_does_not():
    right = PageFacts(text="The Solar System\nThe planets orbit the sun. Speed", controls=[{"kind": "range", "verdict": "live"}])
    wrong = PageFacts(text="Quiz: 法国大革命\n问题 1：巴士底狱是哪一年被攻占的？", controls=[{"kind": "click", "verdict": "live"}])
    r_right, r_wrong = run_checklist(SOLAR, right), run_checklist(SOLAR, wrong)
    assert request_fit(r_right) == RequestFit(subject=1.0, fulfilment=0.0, language=0.0, off_request="")
    fit = request_fit(r_wrong)
    # every named thing was looked for under its Chinese names (行星, 太阳, 轨道...): positive
    # evidence of another subject; the language alone is priced, never the gate's reason
    assert fit.subject == 0.0 and fit.language == 1.0 and fit.off_request.startswith("answers another request")
    assert "in zh" not in fit.off_request


def test_a_page_in_another_language_is_read_under_its_names_and_never_gated_for_it():
    zh = plan_rules("做一个太阳系动画：行星绕着太阳转，用滑块控制速度")
    english = PageFacts(text="Solar System\nThe planets orbit the Sun. Speed", controls=[{"kind": "range", "verdict": "live"}])
    res = {r.value: r for r in run_checklist(zh, english)}
    planets = res["行星绕着太阳转"]  # one CJK run: it names the planets and the sun
    assert planets.status == "met" and "planet" in planets.reason
    fit = request_fit(list(res.values()))
    assert fit.off_request == "" and fit.language == 1.0 and fit.subject == 1.0
    # a word with no name known in the page's language is no evidence either way
    odd = run_checklist(plan_rules("做一个关于饕餮纹的页面"), PageFacts(text="A page about bronze vessels and their patterns"))
    assert {r.status for r in odd if r.check == "mentions"} == {"unverifiable"}
    assert request_fit(odd).off_request == ""


def test_what_the_request_asks_the_code_to_use_is_read_in_the_source():
    c = plan_rules("Build an A* pathfinding visualizer on a grid. Use the Manhattan distance as the heuristic.")
    assert {x.value for x in c.checks if x.check == "code"} >= {"manhattan", "heuristic"}
    assert "manhattan" not in {x.value for x in c.checks if x.check == "mentions"}
    page = PageFacts(text="A* Pathfinding Visualizer on a grid", source="function h(a,b){return Math.abs(a.x-b.x)+Math.abs(a.y-b.y)}")
    res = {r.value: r for r in run_checklist(c, page)}
    assert res["manhattan"].status == "unverifiable"  # computed, not named: never held against it
    named = PageFacts(text=page.text, source="// manhattan heuristic\n" + page.source)
    assert {r.value: r for r in run_checklist(c, named)}["manhattan"].status == "met"


@pytest.mark.parametrize("request_text", [
    "Build a notes app. Notes are saved to localStorage so they persist.",
    "Crea una app de notas; las notas se guardan en localStorage.",
    "做一个笔记应用，笔记保存到本地存储。",
])
def test_a_store_the_code_is_asked_to_use_is_a_code_check_not_a_word_on_screen(request_text):
    c = plan_rules(request_text)
    assert any(x.check == "code" for x in c.checks), c.checks
    assert not {"saved", "persist", "localstorage", "guardan", "本地存储"} & set(mentions(c))


@pytest.mark.parametrize("request_text, gone, kept", [
    ("A recorder with visual feedback of its state (e.g. a red dot, a waveform) and a timer.",
     {"red", "dot", "waveform"}, "timer"),
    ("A weather card with icons such as sun, cloud and rain. Show the city.", {"sun", "cloud", "rain"}, "city"),
    ("录音状态视觉反馈（比如红点、波形、进度）", {"红点"}, "录音状态"),
    ("Une carte météo avec des icônes, par exemple soleil et nuage. Afficher la ville.", {"soleil", "nuage"}, "ville"),
])
def test_examples_a_request_gives_are_not_must_haves(request_text, gone, kept):
    words = set(mentions(plan_rules(request_text)))
    assert not gone & words, words
    assert any(kept in w for w in words), words


def test_a_purpose_word_inside_another_or_clauses_away_from_a_button_is_no_label():
    # 开始 in 重新开始 (restart) and "从 10 秒开始倒计时" (counts down from 10 s) name no Start button
    c = plan_rules("1. 从 10 秒开始倒计时，页面加载后自动运行\n2. 显示大号倒计时数字，同时展示环形或条形进度\n"
                   "3. 提供 Restart 按钮，可重新开始完整倒计时")
    labels = {x.value for x in c.checks if x.check == "label"}
    assert "开始" not in labels and "restart" in {normalise(v) for v in labels}, labels
    # a start button the request quotes is that label, not a second "start" check
    c = plan_rules('A quiz app: a start screen with a "Begin Quiz" button, then 10 questions.')
    assert {x.value for x in c.checks if x.check == "label"} == {"Begin Quiz"}


def test_unverifiable_checks_never_count_against_the_answer():
    scene = PageFacts(text="", controls=[{"kind": "range", "status": "skipped"}], scene=True,
                      source="const planets = []; function orbit(sun) {}")
    res = {r.value: r for r in run_checklist(SOLAR, scene)}
    assert res["en"].status == "unverifiable" and res["range"].status == "unverifiable"
    assert res["planets"].status == "met" and "code" in res["planets"].reason  # a drawn scene names its things in code
    assert res["solar system"].status == "unmet"  # one thing of two words
    assert fulfilment(list(res.values())) == (0.0, "")  # half the named things is the whole topic; the rest is unverifiable


def test_named_things_count_as_a_group_with_partial_credit():
    c = plan_rules("A page about volcanoes, lava, magma and eruptions")
    some = run_checklist(c, PageFacts(text="Volcanoes: how magma rises. Click to erupt"))
    one = run_checklist(c, PageFacts(text="Volcanoes and what they look like"))
    assert fulfilment(some) == (0.0, "")  # 2 of 4 named things
    defect, why = fulfilment(one)
    assert 0 < defect < 1 and why == ""  # 1 of 4: half the group's weight missed; the language is met


def test_a_dead_control_of_the_named_kind_is_unmet():
    res = run_checklist(SOLAR, PageFacts(text="solar system planets orbit sun speed", controls=[{"kind": "range", "verdict": "dead"}]))
    slider = next(r for r in res if r.check == "control")
    assert slider.status == "unmet" and "changes nothing" in slider.reason


def test_counts_and_inflected_words():
    c = plan_rules("Un juego de memoria con doce cartas")
    page = PageFacts(text="Juego de Memoria\nEncuentra cada carta gemela. Pares: 0", groups=[2, 12])
    res = {r.check: r for r in run_checklist(c, page)}
    assert res["count"].status == "met" and res["language"].status == "met"
    assert all(r.status == "met" for r in run_checklist(c, page) if r.check == "mentions")  # carta / cartas


@pytest.mark.parametrize("request_text, label", [
    ("Fais une courbe des températures avec un bouton de réinitialisation, thème vert.", "réinitialisation"),
    ("Baue einen Einheitenumrechner mit einem Reset-Knopf, Farbe lila.", "reset"),
    ("Crea un cuestionario con un botón de reinicio", "reinicio"),
    ("单位换算器，需要重置按钮", "重置"),
    ("単位変換ツールをリセットボタン付きで作って", "リセット"),
    ("단위 변환기을 HTML로 만들어줘. 초기화 버튼 필요해.", "초기화"),
    ("Build a wave demo with pause and resume", "pause"),
    ("Simulate a projectile: a Fire button draws the trajectory", "Fire"),
])
def test_a_control_named_by_what_it_does_is_a_label_check(request_text, label):
    c = plan_rules(request_text)
    assert ("label", label, None) in kinds(c)
    assert ("control", "click", None) not in kinds(c)  # the button is the label check, not a second one
    assert not {normalise(label), "resume", "reprise", "knopf"} & set(mentions(c))


def test_a_purpose_label_matches_that_purpose_in_any_language():
    c = plan_rules("Fais une courbe des températures avec un bouton de réinitialisation.")
    [label] = [x for x in c.checks if x.check == "label"]
    for shown in ("Réinitialiser", "↺ Reset", "Reiniciar"):
        facts = PageFacts(text="Températures", controls=[{"kind": "click", "label": shown, "verdict": "live"}])
        assert run_check(label, facts).status == "met", shown
    other = PageFacts(text="Températures", controls=[{"kind": "click", "label": "Démarrer", "verdict": "live"}])
    assert run_check(label, other).status == "unmet"


@pytest.mark.parametrize("request_text, icon, other", [
    ("录音机：Start / Pause / Stop 三个按钮", "⏸", "⏺"),
    ("A recorder with start, pause and stop buttons", "⏹️", "⏺"),
    ("Une courbe avec un bouton de réinitialisation", "↻", "⏸"),
    ("A card game with a shuffle button", "🔀", "↻"),
])
def test_a_media_control_symbol_names_its_purpose_in_every_language(request_text, icon, other):
    labels = [x for x in plan_rules(request_text).checks if x.check == "label"]
    page = PageFacts(text="录音 recorder", controls=[{"kind": "click", "label": icon, "verdict": "live"}])
    assert any(run_check(x, page).status == "met" for x in labels), labels
    page = PageFacts(text="录音 recorder", controls=[{"kind": "click", "label": other, "verdict": "live"}])
    assert all(run_check(x, page).status == "unmet" for x in labels), labels


@pytest.mark.parametrize("request_text, gone", [
    ("Fais une simulation de pendule en HTML avec un compteur de points, thème orange.", {"thème", "orange", "compteur"}),
    ("Can you write a self-contained HTML file for a wave interference demo? It needs a dark gray theme.", {"gray", "theme", "needs"}),
    ("用HTML做一个打砖块游戏，主色调深灰色", {"主色调深灰色", "深灰色"}),
    ("Crea una calculadora en un solo archivo HTML, en color azul.", {"solo", "azul"}),
])
def test_styling_and_audience_words_are_not_the_topic(request_text, gone):
    assert not gone & set(mentions(plan_rules(request_text)))


@pytest.mark.parametrize("request_text, gone, kept", [
    # layout words, a negated verb, a hedge, the second of two alternatives
    ("Build a recipe box: I can see my recipes in a list/grid, delete ones I don't need, maybe print.",
     {"list", "grid", "don't", "don", "maybe", "recipes"}, {"recipe"}),  # recipes: recipe again
    ("Make a gallery of cats/dogs with the player's favourite picks", {"dogs", "player's"}, {"cats", "player"}),
    ("做一个食谱应用，用列表显示所有食谱", {"列表"}, set()),
    # what a control does is its label or flow, not a thing; a hedged wish is no must
    ("A recipe box: delete recipes, search them.\n- Maybe some basic formatting (bold, italic)",
     {"delete", "search", "formatting", "bold", "italic"}, {"recipe"}),
    # set phrases and adverbs say how or when, never what
    ("A quiz with 5 questions shown one at a time, highlight if I got it right or wrong, keep track of "
     "the score, show my final score and let me play again. Single HTML file, with everything embedded",
     {"time", "highlight", "got", "track", "wrong", "final", "again", "everything"}, {"quiz", "questions"}),
    ("A cube that rotates continuously and a fire that spreads over time, as close as possible to reality",
     {"continuously", "time", "close", "possible"}, {"cube", "fire", "reality"}),
    ("Un cubo que gira rápidamente, con semáforos en tiempo real", {"rápidamente", "tiempo"}, {"cubo", "semáforos"}),
    ("Um jardim com uma semente que cresce", set(), {"semente", "jardim"}),
])
def test_layout_words_hedges_and_alternatives_are_not_things(request_text, gone, kept):
    named = set(mentions(plan_rules(request_text)))
    assert not gone & named and kept <= named, named


@pytest.mark.parametrize("request_text, gone, kept", [
    # pronouns, politeness and how the user asks are no topic, in any of the languages
    ("Ich heiße Anna, mach bitte ein kurzes Quiz über Vulkane für unsere Klasse.",
     {"ich", "heiße", "mach", "bitte", "kurzes", "unsere"}, {"anna", "quiz", "vulkane"}),
    ("J'ai besoin d'un petit quiz sur le cycle de l'eau pour mes élèves, merci !",
     {"besoin", "petit", "merci"}, {"quiz", "cycle", "eau"}),
    ("Faz pra mim um joguinho de memória com nossos animais, por favor", {"pra", "joguinho", "favor", "nossos"},
     {"memória", "animais"}),
    ("Hola, me llamo José. Hazme una calculadora de propinas, por favor", {"hola", "llamo", "hazme", "favor"},
     {"josé", "calculadora", "propinas"}),
    # a scrubbed name or e-mail is nothing a page can show
    ("Hi, my name is <NAME>, make a quiz about the water cycle and mail it to <EMAIL>.",
     {"name", "email"}, {"water cycle", "quiz"}),
    ("我叫<NAME>，做一个水循环的测验", {"我叫", "name"}, {"水循环", "测验"}),
    # a CJK numeral or counter inside a word stays in it: only a numeral with its counter is a count
    ("做一个三角形面积计算器，显示人口数据和卫星轨道", set(), {"三角形面积计算器", "人口数据", "卫星轨道"}),
    ("帮我做一个对比数据的页面，加一张柱状图", {"比数据", "一张柱状图", "加一张柱状图"}, {"数据"}),
    ("細胞のつくりのプレゼン資料を5枚作って", {"くり"}, {"細胞", "つくり"}),
    # Korean: a particle comes off the end of its word, never out of its middle
    ("이차함수 개념도 에디터를 만들어줘. 화산과 지진도 넣어줘", {"차함수", "념도", "디터"},
     {"이차함수", "개념도", "에디터", "화산"}),
    ("분수의 덧셈에 대한 발표 자료 9장을 부탁해", {"대한", "발표", "자료", "장을", "부탁해"}, {"분수", "덧셈"}),
    # a one-syllable noun's particle leaves nothing to name; nouns that end like a particle keep it
    ("분을 설정할 수 있는 타이머 앱을 만들어 주세요. 결과와 높이, 미로를 보여야 해요",
     {"분을", "앱을", "설정할", "해요"}, {"설정", "타이머", "결과", "높이", "미로"}),
    ("5問のクイズを作って", set(), {"クイズ"}),
    # a request verb with its pronoun on is a request verb; a noun that ends like one is a noun
    ("Una charla sobre la suerte, donde pueda mostrarla y borrarla", {"pueda", "mostrarla", "borrarla"},
     {"charla", "suerte"}),
    # Japanese: the grammar between cut words names nothing, a verb's kana ending comes off
    ("やることリストのアプリを作ってください。タスクを入力し、削除ができるように。", {"るこ", "よう", "入力し"},
     {"タスク", "入力"}),
])
def test_how_a_request_asks_is_not_what_it_names(request_text, gone, kept):
    named = set(mentions(plan_rules(request_text)))
    assert not gone & named and kept <= named, named


@pytest.mark.parametrize("request_text, n", [
    ("帮我做一份关于古埃及文明的课件，给小学三年级学生用，大概15页", 15),
    ("小学5年生向けに太陽系についての授業用スライドを5枚作って。年表を入れて", 5),
    ("Create classroom slides on circuits for 7th grade students (13 slides)", 13),
    ("중학교 1학년 학생들을 위한 화산 수업 슬라이드를 12장 만들어줘", 12),
])
def test_the_slide_count_is_the_number_next_to_a_slide_word(request_text, n):
    c = plan_rules(request_text, "slide")
    assert [x.n for x in c.checks if x.check == "slides"] == [n]
    assert mentions(c)  # a number inside a CJK run does not hide the run's words


def test_a_timeline_is_not_also_a_table():
    c = plan_rules("小学5年生向けに太陽系についての授業用スライドを5枚作って。年表を入れて", "slide")
    assert [x.value for x in c.checks if x.check == "element"] == ["timeline"]


@pytest.mark.parametrize("word, text, met", [
    ("Revolución francesa", "La Revolución Francesa en cinco fechas", True),
    ("단위 변환기", "단위 변환기", True),
    ("orthographe", "Exercices d'orthographe", True),
    ("eau", "La molécule d'eau", True),
    ("Revolución francesa", "La guerra civil", False),
    ("art", "Start now", False),
    ("raining", "let rain = []", True),
    ("spinning", "spin the wheel", True),
    ("pac-man", "PACMAN", True),
    ("pac-man", "Man of the year", False),
])
def test_phrases_and_elided_words_are_found(word, text, met):
    c = Check("mentions", word, must=True)
    assert (run_check(c, PageFacts(text=text)).status == "met") is met


@pytest.mark.parametrize("request_text, flows", [
    ("Build a to-do list: add tasks and delete them", {"add_item", "delete_item"}),
    ("Crea una lista de tareas donde puedo añadir y borrar tareas", {"add_item", "delete_item"}),
    # the pronoun written onto the verb (borrarlas, excluí-las) still names the flow
    ("Una lista de tareas donde pueda añadir tareas, marcarlas como hechas y borrarlas", {"add_item", "delete_item"}),
    ("Uma lista de tarefas onde posso adicionar tarefas e excluí-las", {"add_item", "delete_item"}),
    ("做一个待办事项应用，可以添加和删除任务", {"add_item", "delete_item"}),
    ("Baue einen Trinkgeldrechner", {"compute"}),
    ("カウントダウンタイマーを作って、スタートボタンで開始", {"start_timer"}),
    ("검색 가능한 국가 목록", {"search_list"}),
    ("A poster about volcanoes", set()),
    # computing is the code's job unless the request names a tool or what the user enters
    ("A tip calculator", {"compute"}),
    ("Compute the tip from the bill amount the user enters", {"compute"}),
    ("入力した金額から税込価格を計算する", {"compute"}),
    ("A solar system whose code computes each planet's orbit", set()),
    ("使用Web Workers进行位置计算的太阳系动画", set()),
    # ...or names what the user enters far from where it asks the code to calculate
    ("A turret game with mouse input handling (position, clicks) and projectiles that fly where you "
     "click.\n5. In the game loop, keep the turret on screen and draw every projectile.\n6. On each frame, "
     "calculate the angle from the turret to the cursor.", set()),
    ("A nutrition site. Users can input food ingredients (such as chicken, rice, broccoli) and serving "
     "sizes to calculate their nutritional value.", {"compute"}),
    # a filter may be buttons or a select: only a search types a query
    ("A dashboard of sales: filter by region and month", set()),
    # a notes app keeps a list: a new note is an added one
    ("# Build me a Note Taking App\n\nCreate a simple notes app as a web page:\n\n- I can create new notes "
     "with a title and content\n- Delete notes I don't need", {"add_item", "delete_item"}),
    ("Eine Notizen-App, in der ich neue Notizen anlege und löschen kann", {"add_item", "delete_item"}),
    ("メモアプリを作って。新規メモを追加できるように", {"add_item"}),
    # the author's notes, and musical ones, are no list the page keeps
    ("An aquarium simulation. You may add notes about your approach in an HTML comment", set()),
    ("A piano where I can play new notes and delete the last one", set()),
])
def test_the_rules_plan_the_flows_a_request_names(request_text, flows):
    planned = [c for c in plan_rules(request_text).checks if c.check == "flow"]
    assert {c.value for c in planned} == flows
    assert all(c.steps and c.expect and not c.must for c in planned)


@pytest.mark.parametrize("request_text", [
    # a fenced boilerplate, closed or (as CommonMark reads it) running to the end of the text
    "Fish swimming in an aquarium.\n\n```html\n<body>\n  <canvas id=tank></canvas>\n  <section id=notes>"
    "</section>\n  <script>// Update logic\n</script>\n</body>\n```\n\nKeep the fish inside the tank.",
    "Fish swimming in an aquarium, inside the tank. Start from this:\n\n```html\n<body>\n  <canvas "
    "id=tank></canvas>\n  <section id=notes></section>\n  <script>// Update logic\n</script>\n</body>",
    # markup outside a fence
    "Fish swimming in an aquarium, inside the tank, drawn on <canvas id=tank> inside <body>; "
    "<!-- update logic --> notes go in <section id=notes>",
])
def test_the_code_a_request_quotes_names_nothing_the_page_shows(request_text):
    named = set(mentions(plan_rules(request_text)))
    assert {"fish", "aquarium", "tank"} <= named, named
    assert not {"body", "section", "update", "logic", "script", "canvas", "notes"} & named, named


def test_a_flow_is_read_from_what_the_probe_ran():
    c = next(x for x in plan_rules("A to-do list where I add tasks").checks if x.check == "flow")
    ran = PageFacts(text="x", flows=[{"name": "add_item", "status": "unmet", "reason": "step 2 (click 'add'): no control labelled 'add'"}])
    assert run_check(c, ran).status == "unmet" and "step 2" in run_check(c, ran).reason
    assert run_check(c, PageFacts(text="x")).status == "unverifiable"


def test_a_translation_cannot_gain_from_words_we_cannot_read_in_it():
    from cogevol.checklist.model import CheckResult

    gap = CheckResult("mentions", "饕餮纹", "unverifiable", "no en name", must=True, lang_gap=True)
    assert request_fit([gap]).subject == 0.5  # unknown: the midpoint, not all of it
    shown = CheckResult("mentions", "行星", "met", "shown", must=True)
    assert request_fit([shown, gap]).subject == 1.0 and request_fit([shown, gap, gap]).subject == 0.5
    assert run_check(Check("mentions", "quiz"), PageFacts(text="Planeten-Quiz: zwei Fragen")).status == "met"


def test_a_long_chinese_spec_is_read_for_what_it_keeps_naming_and_for_the_words_it_dictates():
    req = ("创建一个符合以下规格的HTML5 Canvas太阳系动画：\n- 包括：太阳，9颗行星，行星绕太阳运行\n- 使用requestAnimationFrame实现平滑动画\n"
           "- 天王星：#3f575a, #688a8c, #95bbbe\n- 在左上角显示FPS指示器（FPS）和当前地球日计数 (Earth Day)")
    plan = plan_rules(req)
    # what it names three times or more comes first; the lead-in sentence states the task
    assert mentions(plan)[0] == "太阳" and {"太阳系", "行星"} <= set(mentions(plan))
    # the Latin names a Chinese request writes as they are come before its other pieces
    assert plan_rules("做一个 Mandelbrot 集合的 ASCII 动画，字符取自静夜思").checks[1].value == "mandelbrot"
    # camelCase next to CJK is code; a colour is no count
    assert "requestanimationframe" not in mentions(plan)
    assert ("count", "行星", 9) in kinds(plan) and not [k for k in kinds(plan) if k[0] == "count" and k[2] == 95]
    lang = plan.checks[0]
    assert lang.check == "language" and {"fps", "earth", "day"} <= set(lang.aliases)
    # a page that shows only the labels the request wrote for it has chosen no language
    only_labels = run_check(lang, PageFacts(text="FPS: 60 AVG FPS: 59.8 Earth Day: 1234"))
    assert only_labels.status == "unverifiable" and "words the request wrote" in only_labels.reason
    english = PageFacts(text="FPS: 60 Earth Day: 12 The Sun and its planets: Mercury is the smallest and closest one")
    assert run_check(lang, english).status == "unmet"
    assert run_check(lang, PageFacts(text="FPS: 60 Earth Day: 12 太阳和它的九颗行星绕着太阳旋转")).status == "met"
    # the request's own words in its own language only ever clear a page
    en = plan_rules('A solar system with labels "Sun", "Mercury", "Venus", "Earth" and "Mars"').checks[0]
    assert {"sun", "earth"} <= set(en.aliases)
    assert run_check(en, PageFacts(text="Sun Mercury Venus Earth Mars Solar System Speed")).status == "met"


@pytest.mark.parametrize("request_text, label", [
    ("An ASCII Mandelbrot zoom that renders 200 frames, then resets and loops", None),
    ("200次后重置动画循环渲染", None),
    ("A countdown that restarts automatically", None),
    ("A game of life with a reset button", "reset"),
    ("一个带重置按钮的计数器，自动保存", "重置"),
    # said of the page once is enough, wherever else the word comes ("switch to RESTARTING")
    ("The simulation restarts in a loop. If all particles expired, switch to RESTARTING.", None),
    ("A chicken wanders and should periodically pause its movement to lay an egg", None),
])
def test_what_the_page_does_by_itself_is_no_control(request_text, label):
    labels = [c.value for c in plan_rules(request_text).checks if c.check == "label"]
    assert labels == ([label] if label else [])
