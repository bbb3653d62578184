from cogevol.taxonomy.terms import TermSet, fold


def scores(entries, text):
    return TermSet.build(entries).scores(text)


def test_fold_drops_latin_accents_keeps_cjk_and_hangul():
    assert fold("Réinitialiser ÉTÉ") == "reinitialiser ete"
    assert fold("ゲーム") == "ゲーム"  # dakuten survive
    assert fold("게임 만들기") == "게임 만들기"  # Hangul syllables recomposed
    assert fold("ＢＭＩ") == "bmi"


def test_latin_terms_match_whole_words_unless_stemmed():
    e = [("calc", "calculat*", 1.0), ("art", "art", 1.0)]
    assert scores(e, "A loan Calculator") == {"calc": 1.0}
    assert scores(e, "an article page") == {}  # "art" is a whole word, not a prefix
    assert scores(e, "pixel art editor") == {"art": 1.0}


def test_phrases_match_consecutive_words_and_hyphens_split():
    e = [("todo", "to do list", 3.0), ("conv", "unit convert*", 3.0)]
    assert scores(e, "Build me a To-Do list app") == {"todo": 3.0}
    assert scores(e, "a list to do later") == {}
    assert scores(e, "unit converter for length") == {"conv": 3.0}


def test_cjk_terms_are_substrings_and_each_term_counts_once():
    e = [("pomo", "番茄钟", 3.0), ("pomo", "pomodoro", 3.0), ("timer", "计时", 1.0)]
    got = scores(e, "做一个番茄钟计时器，番茄钟要有声音 (pomodoro)")
    assert got == {"pomo": 6.0, "timer": 1.0}


def test_terms_of_every_language_apply_to_mixed_text():
    e = [("dash", "仪表盘", 3.0), ("dash", "dashboard", 3.0), ("game", "ゲーム", 1.0)]
    assert scores(e, "帮我做个 sales dashboard") == {"dash": 3.0}
    assert scores(e, "簡単なゲームを作って") == {"game": 1.0}


def test_same_term_twice_keeps_highest_weight_and_found_reports_written_form():
    ts = TermSet.build([("a", "Café", 1.0), ("a", "cafe", 3.0)])
    assert ts.scores("cafe menu") == {"a": 3.0}
    assert ts.found("CAFÉ menu") == {"a": ["cafe"]}  # the kept (heavier) spelling
