"""Language identification (cogevol/core/langid.py): fastText's model for Latin text, scripts first."""

from cogevol.core.langid import identify, language


def test_short_ui_text_is_identified_in_its_language():
    assert language("Contador Sumar Reiniciar") == "es"  # was called English by the old rules
    assert language("Zurücksetzen") == "de" and language("Démarrer le minuteur") == "fr"
    assert language("Reiniciar contagem") == "pt" and language("Start the timer") == "en"
    assert (
        language("重置计时器") == "zh"
        and language("リセット") == "ja"
        and language("재설정") == "ko"
    )


def test_scripts_decide_cjk_and_too_little_text_says_nothing():
    assert identify("振り子のシミュレーション")[0] == "ja"  # kana with kanji
    assert identify("42 + 7")[0] == "" and language("", 1) == ""
    assert language("Start", 12) == ""  # the checklist's bar for a page's prose
    lang, conf = identify("Haz un temporizador de cuenta regresiva con botones de iniciar y pausa")
    assert lang == "es" and 0.5 < conf <= 1.0


def test_other_languages_are_reported_to_mining_not_forced_into_the_traffic_ones():
    assert identify("Crea una presentazione sul sistema solare con immagini")[0] == "it"


def test_a_mixed_text_obeys_its_scripts():
    # an English brand title over a Chinese hint: fastText says Japanese, which needs kana
    assert language("Hunter Fireworks ✨ 点击放烟花 ✨ 🎆 0") != "ja"
    assert language("Hunter Fireworks ✨ 点击放烟花 ✨ 🎆 0") in ("zh", "en")
    assert language("スタート Start the game") == "ja"  # kana: Japanese may win
    assert language("Start the game now, press the button") == "en"
