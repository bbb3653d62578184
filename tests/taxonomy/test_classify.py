from cogevol.taxonomy.classify import label_one
from cogevol.taxonomy.difficulty import count_features


def test_requests_in_several_languages_land_in_their_task_type():
    cases = {
        "Make a pomodoro timer with a task list": "Task & Efficiency Tool",
        "做一个番茄钟": "Task & Efficiency Tool",
        "Crea un conversor de unidades de longitud y peso": "Unit Converter",
        "Fais un jeu du serpent (snake) jouable au clavier": "Action & Reflex",
        "Erstelle eine Simulation eines Pendels mit einstellbarer Schwerkraft": "Physics Simulation",
        "社内の経費精算の承認フローを管理するシステム": "Workflow & Approval",
        "우리 회사 소개 홈페이지 만들어줘": "Corporate Website",
        "Uma calculadora de IMC simples": "Formula Calculator",
    }
    for request, leaf in cases.items():
        assert label_one(request).l3 == leaf, request


def test_the_scenario_decides_not_the_surface_word():
    # A.7.4: a pricing simulator for business users is data-driven, not numerical
    lab = label_one("Build a pricing-strategy simulator that adjusts price elasticity to predict revenue")
    assert lab.l3 == "Data-driven Simulation" and lab.l1 == "Dynamic"


def test_a_request_matching_nothing_gets_the_default_leaf_at_confidence_zero():
    lab = label_one("hello there")
    assert lab.l3 == "Content Interaction" and lab.confidence == 0.0 and lab.source == "rules"


def test_label_carries_every_field_the_issue_lists():
    lab = label_one("一个带排行榜和关卡的打砖块游戏，要有重力和碰撞").to_json()
    assert set(lab) == {"l1", "l2", "l3", "difficulty", "dimensions", "amplifiers", "lang",
                        "source", "confidence"}
    assert lab["lang"] == "zh" and lab["l2"] == "Browser Games"
    assert set(lab["dimensions"]) == {"functional_logic", "page_interaction", "data_system",
                                      "visual_design", "user_experience", "dynamic_simulation"}
    assert lab["difficulty"] == max(lab["dimensions"].values(),
                                    key=["Easy", "Medium", "Medium-Hard", "Hard"].index)
    assert 11 in lab["amplifiers"]  # collision / gravity


def test_difficulty_follows_scope():
    assert label_one("A BMI calculator").difficulty == "Easy"
    assert label_one("A physics simulation of a double pendulum with gravity and friction").difficulty == "Hard"
    plain = label_one("An order management page: list orders and edit them")
    escalated = label_one("An order management page: list orders and edit them, with role-based access control and an approval workflow")
    order = ["Easy", "Medium", "Medium-Hard", "Hard"]
    assert order.index(escalated.difficulty) > order.index(plain.difficulty)


def test_features_are_counted_from_lists_or_separators():
    assert count_features("- add\n- edit\n- delete\n- search") == 4
    assert count_features("add, edit, delete and search") == 4
    assert count_features("一个计时器") == 1


def test_a_slide_request_is_labelled_by_its_modality_not_as_a_web_page():
    from cogevol.taxonomy.classify import classify

    labels, counts = classify(["a 6-slide deck about the solar system", "a snake game"],
                              modalities=["slide", "html"])
    assert (labels[0].l1, labels[0].l3, labels[0].source) == ("Slide deck", "Slide deck", "modality")
    assert labels[1].l2 == "Browser Games" and counts == {"rules": 1, "modality": 1}
