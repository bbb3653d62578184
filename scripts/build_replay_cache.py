#!/usr/bin/env python
"""Write data/teachers/replay.jsonl: the committed teacher answers the embedded default replays.

The CPU profile has no teacher model, so `distill` replays answers we wrote (teachers `replay-a`
and `replay-b`, up to two candidates each per prompt). They are built here from templates tailored to
each chosen prompt (its language, app, requested features, colour, topic) and deliberately mix
good answers with the defects production models really make, so that distill's executed
admission has something to reject:

  html   good | dead_control | static_shell | script_error | self_running_dead | mobile_break
  slide  good | overlap | overflow | tiny_font | broken_chart | invalid_missing_field | invalid_json_prose

Deterministic: no clock, no unseeded randomness; rerunning gives the same bytes.

    python scripts/build_replay_cache.py            # write data/teachers/replay.jsonl
    python scripts/build_replay_cache.py --verify   # ... then probe / slide-score every candidate
    python scripts/build_replay_cache.py --dump DIR # also write each candidate's artifact to DIR

See data/teachers/README.md for the format and the verification table.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cogevol.traffic import lexicon as LEX  # noqa: E402  (the vocabulary the prompts were generated from)

PROMPTS = ROOT / "data/curated/prompts/prompts.jsonl"
FAILURES = ROOT / "data/mined/failures.jsonl"
OUT = ROOT / "data/teachers/replay.jsonl"


def fill(tpl: str, **kw: object) -> str:
    """`@@name@@` placeholders: JS and CSS keep their braces untouched."""
    for k, v in kw.items():
        tpl = tpl.replace(f"@@{k}@@", str(v))
    left = re.findall(r"@@\w+@@", tpl)
    if left:
        raise KeyError(f"unfilled placeholders {sorted(set(left))}")
    return tpl


def js(v: object) -> str:
    """A Python value as a JS literal (strings kept readable, `</` escaped for inline scripts)."""
    return json.dumps(v, ensure_ascii=False).replace("</", "<\\/")


# =============================================================================================
# Chosen prompts and what each teacher answers
# =============================================================================================
# Candidate plans: (teacher, intended); the candidate index is the position within the teacher.
# Good answers name a variant: the two teachers differ in layout ("bar", "card", "split") and, for
# several apps, in implementation (canvas vs SVG chart, answer buttons vs radios, typing vs tiles).

@dataclass
class Plan:
    pid: str
    app: str  # engine key (html) or "deck" (slides)
    cands: list[tuple[str, str, str]]  # (teacher, intended, variant)


def _c(*items: str) -> list[tuple[str, str, str]]:
    """'a:good:1' -> ('replay-a', 'good', '1')."""
    out = []
    for it in items:
        t, intended, variant = (it.split(":") + [""])[:3]
        out.append(("replay-" + t, intended, variant))
    return out


HTML_PLANS = [
    # game
    Plan("r-c82cce0a36b2fb5e", "snake", _c("a:good:1", "a:dead_control:1", "b:good:2", "b:good:3")),
    Plan("r-620304a9373cd411", "breakout", _c("a:good:1", "a:static_shell:1", "b:good:2", "b:mobile_break:2")),
    Plan("r-01dd2673d83b60da", "flappy", _c("a:good:1", "a:script_error:1", "b:good:2")),
    Plan("r-0f1625110f1dba80", "memory", _c("a:good:1", "b:good:2", "b:dead_control:2")),
    # simulation
    Plan("r-6965964571ea79de", "pendulum", _c("a:good:1", "a:self_running_dead:1", "b:good:2", "b:good:3")),
    Plan("r-6c32887352d3d147", "projectile", _c("a:good:1", "a:good:3", "b:good:2", "b:dead_control:2")),
    Plan("r-ae8a78c8250d66b4", "predprey", _c("a:good:1", "b:good:2", "b:mobile_break:2")),
    Plan("r-019b07847a541c4d", "wave", _c("a:good:1", "a:script_error:1", "b:good:2", "b:good:3")),
    # quiz
    Plan("r-29ba782b04fc38b4", "mcq", _c("a:good:1", "a:static_shell:1", "b:good:2", "b:good:3")),
    Plan("r-1a1be9fd6a93d97e", "mcq", _c("a:good:2", "a:dead_control:3", "b:good:1")),
    Plan("r-e046a7e5b450aee3", "spelling", _c("a:good:1", "a:good:3", "b:good:2", "b:script_error:2")),
    # dataviz
    Plan("r-f9b7bc3f6658a7d1", "barpop", _c("a:good:1", "a:mobile_break:1", "b:good:2", "b:good:3")),
    Plan("r-578498025fa5e655", "linetemp", _c("a:good:1", "a:dead_control:1", "b:good:2")),
    Plan("r-34622467b06f763b", "linetemp", _c("a:good:2", "b:good:1", "b:self_running_dead:1", "a:good:3")),
    # 3d
    Plan("r-688bae08b46de08f", "solar3d", _c("a:good:1", "a:self_running_dead:1", "b:good:2", "b:good:3")),
    Plan("r-6d8a24850e8de342", "molecule3d", _c("a:good:1", "b:good:2", "b:static_shell:2", "a:dead_control:1")),
    # tool
    Plan("r-8f6f3ea3ec2e021b", "calculator", _c("a:good:1", "a:dead_control:1", "b:good:2", "b:good:3")),
    Plan("r-9c47185e63cb4625", "pomodoro", _c("a:good:1", "b:good:2", "b:script_error:2")),
    # page (the classifier's catch-all: apps whose request names no keyword it knows)
    Plan("r-e8d428eba0bd1f5c", "linetemp", _c("a:good:4", "a:static_shell:4", "b:good:5", "b:good:4")),
    Plan("r-26ff4c01e29bd1da", "converter", _c("a:good:1", "b:good:2", "b:mobile_break:2", "a:good:3")),
    Plan("r-ff85eac1c3a84b37", "linetemp", _c("a:good:4", "a:dead_control:4", "b:good:5")),
    # a second round, so that the default distill run (24 HTML + 16 slide prompts) finds answers for all it samples
    Plan("r-c55004682be4dafe", "mcq", _c("a:good:3", "a:script_error:1", "b:good:2")),
    Plan("r-2c1eaac3cc0bc276", "calculator", _c("a:good:2", "b:good:3", "b:static_shell:3")),
    Plan("r-c4a1041ba8a3fbe6", "molecule3d", _c("a:good:1", "b:good:3", "b:script_error:3")),
    Plan("r-874426769bda9c01", "converter", _c("a:good:3", "b:good:1", "b:mobile_break:1")),
]

SLIDE_PLANS = [
    Plan("r-0a559d5f3e63e278", "deck", _c("a:good:1", "a:overflow:1", "b:good:2", "b:good:3")),
    Plan("r-563827de1283a949", "deck", _c("a:good:1", "a:invalid_json_prose:1", "b:good:2", "b:overlap:2")),
    Plan("r-37d38de4da170f6a", "deck", _c("a:good:1", "b:good:2", "b:tiny_font:2")),
    Plan("r-54dd0af59d8def2e", "deck", _c("a:good:1", "a:good:3", "b:good:2", "b:broken_chart:2")),
    Plan("r-499be61a09462c4c", "deck", _c("a:good:1", "a:overlap:1", "b:good:2", "b:good:3")),
    Plan("r-70d344f9e0456375", "deck", _c("a:good:1", "b:good:2", "b:invalid_missing_field:2")),
    Plan("r-e8a8547e581a83f3", "deck", _c("a:good:1", "a:tiny_font:1", "b:good:2", "b:good:3")),
    Plan("r-a040d41b66296dc5", "deck", _c("a:good:1", "a:overflow:1", "b:good:2")),
    Plan("r-db8504594998d9bd", "deck", _c("a:good:1", "a:good:3", "b:good:2", "b:overlap:2")),
    Plan("r-ccb428c10360fe78", "deck", _c("a:good:1", "a:broken_chart:1", "b:good:2", "b:good:3")),
    # the second round (17 lessons in all: the default distill run takes 16)
    Plan("r-f299d26e7977857d", "deck", _c("a:good:1", "b:good:2", "b:overflow:2")),
    Plan("r-3d9bfbb83bafac35", "deck", _c("a:good:1", "a:good:3", "b:good:2", "b:tiny_font:2")),
    Plan("r-2eb4e76c237d29ce", "deck", _c("a:good:1", "b:good:2", "b:broken_chart:2")),
    Plan("r-4feedab7f8e6be3e", "deck", _c("a:good:3", "a:invalid_missing_field:1", "b:good:2", "b:good:1")),
    Plan("r-81e12f627a070847", "deck", _c("a:good:1", "b:good:2", "b:overlap:1")),
    Plan("r-d900cb8e45d592df", "deck", _c("a:good:1", "a:invalid_json_prose:1", "b:good:2")),
    Plan("r-c3d157f69fdec9f5", "deck", _c("a:good:1", "a:overlap:2", "b:good:2", "b:good:3")),
]


# =============================================================================================
# Tailoring: what a prompt asks for, recovered with the lexicon it was generated from
# =============================================================================================

APP_KEYS = ["snake", "breakout", "memory", "flappy", "pendulum", "projectile", "predprey", "wave", "mcq",
            "spelling", "barpop", "linetemp", "solar3d", "molecule3d", "converter", "pomodoro", "calculator"]
FEATURE_KEYS = ["score", "countdown", "leaderboard", "sliders", "reset", "pause", "dark", "difficulty", "sound", "arrows"]
# lexicon.COLORS lists blue, green, purple, orange (and dark gray in zh / en) in this order
PALETTES = [("#2563eb", "#dbeafe", "#1e3a8a"), ("#16a34a", "#dcfce7", "#14532d"), ("#7c3aed", "#ede9fe", "#4c1d95"),
            ("#ea580c", "#ffedd5", "#7c2d12"), ("#374151", "#e5e7eb", "#111827")]
DEFAULT_PALETTE = {"snake": 1, "breakout": 2, "memory": 3, "flappy": 0, "pendulum": 2, "projectile": 0, "predprey": 1,
                   "wave": 0, "mcq": 0, "spelling": 2, "barpop": 0, "linetemp": 3, "solar3d": 0, "molecule3d": 2,
                   "converter": 0, "pomodoro": 3, "calculator": 0}


@dataclass
class Spec:
    pid: str
    request: str
    lang: str
    sub: str
    modality: str
    is_failure: bool
    app: str = ""
    features: list[str] = field(default_factory=list)
    palette: tuple[str, str, str] = PALETTES[0]
    topic: int | None = None


def _has(text: str, phrase: str) -> bool:
    return phrase.lower() in text.lower()


def make_spec(rec: dict, failed: set[str]) -> Spec:
    lang, text = rec["lang"], rec["prompt"]
    s = Spec(rec["id"], text, lang, rec["subcategory"], rec["category"], rec["id"] in failed)
    topics = [k for k, t in enumerate(LEX.TOPICS) if _has(text, t[lang])]
    s.topic = topics[0] if topics else None
    if s.modality == "html":
        apps = [APP_KEYS[k] for k, (_, a) in enumerate(LEX.APPS) if _has(text, a[lang])]
        s.app = apps[0] if apps else ""
        s.features = [FEATURE_KEYS[k] for k, f in enumerate(LEX.FEATURES) if _has(text, f[lang])]
        colours = [k for k, c in enumerate(LEX.COLORS[lang]) if c in text]
        s.palette = PALETTES[colours[-1] if colours else DEFAULT_PALETTE.get(s.app, 0)]
    return s


# =============================================================================================
# Interface strings (the candidate's visible text is in the prompt's language)
# =============================================================================================

UI = {
    "en": dict(start="Start", pause="Pause", resume="Resume", reset="Reset", score="Score", time="Time", best="Best",
               leaderboard="Leaderboard", save="Save score", you="You", dark="Dark mode", light="Light mode",
               sound_on="Sound on", sound_off="Sound off", difficulty="Difficulty", easy="Easy", normal="Normal",
               hard="Hard", speed="Speed", game_over="Game over", time_up="Time's up!", paused="Paused",
               ready="Ready", round="Round", check="Check", next="Next", hint="Hint", correct="Correct!",
               wrong="Not quite", answer_is="The answer is", question="Question", lives="Lives", play="Play",
               names=["Mia", "Leo", "Ava"], keys_tip="Arrow keys / WASD, the buttons or a tap on the board",
               months=["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]),
    "zh": dict(start="开始", pause="暂停", resume="继续", reset="重置", score="得分", time="时间", best="最高分",
               leaderboard="排行榜", save="保存成绩", you="我", dark="深色模式", light="浅色模式", sound_on="音效开",
               sound_off="音效关", difficulty="难度", easy="简单", normal="普通", hard="困难", speed="速度",
               game_over="游戏结束", time_up="时间到！", paused="已暂停", ready="准备好了", round="第几局", check="检查",
               next="下一题", hint="提示", correct="回答正确！", wrong="不对哦", answer_is="正确答案是", question="题目",
               lives="生命", play="开始游戏", names=["小明", "小红", "小刚"], keys_tip="方向键 / WASD、按钮或点击画面",
               months=[f"{m}月" for m in range(1, 13)]),
    "fr": dict(start="Démarrer", pause="Pause", resume="Reprendre", reset="Réinitialiser", score="Score", time="Temps",
               best="Record", leaderboard="Classement", save="Enregistrer", you="Moi", dark="Mode sombre",
               light="Mode clair", sound_on="Son activé", sound_off="Son coupé", difficulty="Difficulté",
               easy="Facile", normal="Normal", hard="Difficile", speed="Vitesse", game_over="Partie terminée",
               time_up="Temps écoulé !", paused="En pause", ready="Prêt", round="Manche", check="Vérifier",
               next="Suivant", hint="Indice", correct="Bravo !", wrong="Pas encore", answer_is="La réponse est",
               question="Question", lives="Vies", play="Jouer", names=["Léa", "Hugo", "Chloé"],
               keys_tip="Flèches du clavier, boutons ou un clic sur le plateau",
               months=["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]),
    "es": dict(start="Empezar", pause="Pausa", resume="Reanudar", reset="Reiniciar", score="Puntos", time="Tiempo",
               best="Récord", leaderboard="Clasificación", save="Guardar", you="Yo", dark="Modo oscuro",
               light="Modo claro", sound_on="Sonido sí", sound_off="Sonido no", difficulty="Dificultad", easy="Fácil",
               normal="Normal", hard="Difícil", speed="Velocidad", game_over="Fin del juego", time_up="¡Se acabó el tiempo!",
               paused="En pausa", ready="Listo", round="Ronda", check="Comprobar", next="Siguiente", hint="Pista",
               correct="¡Correcto!", wrong="Casi", answer_is="La respuesta es", question="Pregunta", lives="Vidas",
               play="Jugar", names=["Lucía", "Mateo", "Sofía"], keys_tip="Flechas del teclado, botones o toca el tablero",
               months=["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"]),
    "de": dict(start="Start", pause="Pause", resume="Fortsetzen", reset="Zurücksetzen", score="Punkte", time="Zeit",
               best="Rekord", leaderboard="Bestenliste", save="Speichern", you="Ich", dark="Dunkelmodus",
               light="Hellmodus", sound_on="Ton an", sound_off="Ton aus", difficulty="Schwierigkeit", easy="Leicht",
               normal="Normal", hard="Schwer", speed="Tempo", game_over="Spiel vorbei", time_up="Zeit abgelaufen!",
               paused="Pausiert", ready="Bereit", round="Runde", check="Prüfen", next="Weiter", hint="Tipp",
               correct="Richtig!", wrong="Noch nicht", answer_is="Die Antwort ist", question="Frage", lives="Leben",
               play="Spielen", names=["Mia", "Finn", "Emma"], keys_tip="Pfeiltasten, Knöpfe oder Tippen aufs Feld",
               months=["Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"]),
    "ja": dict(start="スタート", pause="一時停止", resume="再開", reset="リセット", score="スコア", time="時間", best="ベスト",
               leaderboard="ランキング", save="記録する", you="わたし", dark="ダークモード", light="ライトモード",
               sound_on="効果音オン", sound_off="効果音オフ", difficulty="難易度", easy="かんたん", normal="ふつう",
               hard="むずかしい", speed="速さ", game_over="ゲームオーバー", time_up="時間切れ！", paused="一時停止中",
               ready="準備OK", round="ラウンド", check="答え合わせ", next="次へ", hint="ヒント", correct="正解！",
               wrong="おしい", answer_is="正解は", question="問題", lives="ライフ", play="プレイ",
               names=["ゆい", "はると", "さくら"], keys_tip="矢印キー / WASD、ボタン、画面タップで操作",
               months=[f"{m}月" for m in range(1, 13)]),
    "pt": dict(start="Começar", pause="Pausar", resume="Continuar", reset="Reiniciar", score="Pontos", time="Tempo",
               best="Recorde", leaderboard="Ranking", save="Salvar", you="Eu", dark="Modo escuro", light="Modo claro",
               sound_on="Som ligado", sound_off="Som desligado", difficulty="Dificuldade", easy="Fácil",
               normal="Normal", hard="Difícil", speed="Velocidade", game_over="Fim de jogo", time_up="Tempo esgotado!",
               paused="Pausado", ready="Pronto", round="Rodada", check="Verificar", next="Próxima", hint="Dica",
               correct="Correto!", wrong="Quase", answer_is="A resposta é", question="Pergunta", lives="Vidas",
               play="Jogar", names=["Ana", "Pedro", "Bia"], keys_tip="Setas do teclado, botões ou toque no tabuleiro",
               months=["jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"]),
    "ko": dict(start="시작", pause="일시정지", resume="재개", reset="초기화", score="점수", time="시간", best="최고",
               leaderboard="리더보드", save="기록 저장", you="나", dark="다크 모드", light="라이트 모드",
               sound_on="효과음 켜짐", sound_off="효과음 꺼짐", difficulty="난이도", easy="쉬움", normal="보통", hard="어려움",
               speed="속도", game_over="게임 오버", time_up="시간 종료!", paused="일시정지됨", ready="준비", round="라운드",
               check="확인", next="다음", hint="힌트", correct="정답!", wrong="아쉬워요", answer_is="정답은",
               question="문제", lives="목숨", play="플레이", names=["민지", "서준", "지우"],
               keys_tip="방향키 / WASD, 버튼 또는 화면 탭", months=[f"{m}월" for m in range(1, 13)]),
}


def ui(lang: str, extra: dict[str, dict[str, object]] | None = None) -> dict:
    """The interface strings for `lang`; `extra` holds an app's own strings (English fallback)."""
    out = dict(UI.get(lang, UI["en"]))
    for key, per_lang in (extra or {}).items():
        out[key] = per_lang.get(lang, per_lang["en"])
    return out


INTROS = {
    "en": ["Here is a complete, self-contained page:", "Below is a single HTML file you can open directly in a browser."],
    "zh": ["下面是完整的单文件网页：", "这是一个可以直接在浏览器打开的HTML文件。"],
    "fr": ["Voici la page complète, en un seul fichier :", "Voici un fichier HTML autonome à ouvrir dans le navigateur."],
    "es": ["Aquí tienes la página completa en un solo archivo:", "Este es un archivo HTML autónomo que puedes abrir en el navegador."],
    "de": ["Hier ist die vollständige Seite in einer Datei:", "Eine eigenständige HTML-Datei, direkt im Browser zu öffnen."],
    "ja": ["1つのHTMLファイルで完結するページです：", "ブラウザでそのまま開けるHTMLファイルです。"],
    "pt": ["Aqui está a página completa em um único arquivo:", "Um arquivo HTML autônomo para abrir no navegador."],
    "ko": ["하나의 HTML 파일로 완성된 페이지입니다:", "브라우저에서 바로 열 수 있는 HTML 파일입니다."],
}


# =============================================================================================
# HTML: page shells (three layouts, so the two teachers' answers differ in structure and style)
# =============================================================================================

BASE_CSS = r"""
:root{--accent:@@accent@@;--tint:@@tint@@;--deep:@@deep@@;--bg:#f8fafc;--fg:#1f2937;--panel:#ffffff;--muted:#5b6475;--line:#e2e8f0}
body.dark{--bg:#0b1120;--fg:#e5e7eb;--panel:#172033;--muted:#a3acbd;--line:#334155;--tint:#1c2740}
*{box-sizing:border-box}
html,body{margin:0}
body{background:var(--bg);color:var(--fg);font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Noto Sans CJK SC","Hiragino Sans","Malgun Gothic",sans-serif}
h1{font-size:clamp(1.2rem,4vw,1.65rem);margin:0;line-height:1.2}
h2{font-size:1.05rem;margin:0 0 8px}
p{margin:0}
button,select{font:inherit;font-size:15px;padding:8px 14px;min-height:40px;border-radius:8px;border:1px solid var(--accent);background:var(--panel);color:var(--fg);cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button:focus-visible,select:focus-visible{outline:3px solid var(--tint)}
input[type=range]{width:100%;accent-color:var(--accent)}
input[type=text],input[type=number]{font:inherit;padding:8px 10px;border:1px solid var(--line);border-radius:8px;background:var(--panel);color:var(--fg);min-width:0}
.row{display:flex;flex-wrap:wrap;gap:8px;align-items:center}
.stats{display:flex;flex-wrap:wrap;gap:4px 18px;font-weight:600}
.muted{color:var(--muted);font-size:14px}
.slider{display:block;font-size:14px;margin:4px 0 10px}
.slider output{font-weight:700}
canvas{display:block;max-width:100%;height:auto;border-radius:10px;touch-action:manipulation;margin:0 auto}
#scene{width:100%}
ol.lb{margin:4px 0 10px;padding-left:24px}
"""

LAYOUT_CSS = {
    "bar": r"""
header{background:var(--accent);color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:10px;align-items:center;justify-content:space-between}
header button{background:transparent;color:#fff;border-color:rgba(255,255,255,.75)}
main{max-width:820px;margin:0 auto;padding:12px 14px 28px;display:grid;gap:12px}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px;display:grid;gap:10px;min-width:0}
""",
    "card": r"""
body{background:linear-gradient(165deg,var(--tint),var(--bg) 55%);min-height:100vh}
.card{max-width:700px;margin:18px auto;background:var(--panel);border-radius:22px;box-shadow:0 12px 32px rgba(15,23,42,.14);padding:18px;display:grid;gap:14px}
.card h1{color:var(--accent)}
.card button,.card select{border-radius:999px}
.top{display:flex;flex-wrap:wrap;gap:10px;justify-content:space-between;align-items:center}
.panel{border-top:1px solid var(--line);padding-top:12px;display:grid;gap:10px;min-width:0}
@media (max-width:520px){.card{margin:0;border-radius:0;box-shadow:none}}
""",
    "split": r"""
header{padding:14px 18px;border-bottom:4px solid var(--accent);display:flex;flex-wrap:wrap;gap:10px;justify-content:space-between;align-items:center;background:var(--panel)}
header h1{color:var(--accent)}
main{display:grid;grid-template-columns:minmax(0,1fr) 270px;gap:14px;max-width:1040px;margin:0 auto;padding:14px}
aside{display:grid;gap:12px;align-content:start;min-width:0}
.panel{background:var(--panel);border-radius:12px;padding:12px;box-shadow:0 1px 4px rgba(15,23,42,.14);display:grid;gap:10px;min-width:0}
@media (max-width:760px){main{grid-template-columns:minmax(0,1fr)}}
""",
}

# Shared by every page: element lookup, the dark-mode and sound toggles, the leaderboard.
KIT_JS = r"""
const $ = (id) => document.getElementById(id);
const on = (id, type, fn) => { const el = $(id); if (el) el.addEventListener(type, fn); };
const onKeys = @@onkeys@@;
const onTap = (el, fn) => el.addEventListener(@@tap@@, fn);
const cssVar = (name) => getComputedStyle(document.body).getPropertyValue(name).trim();
const kit = {
  sound: true, saves: 0, board: @@board@@, redraw: null,
  beep(freq) {
    if (!kit.sound) return;
    try {
      const ac = kit.ac || (kit.ac = new (window.AudioContext || window.webkitAudioContext)());
      const osc = ac.createOscillator(), gain = ac.createGain();
      osc.frequency.value = freq || 660; gain.gain.value = 0.04;
      osc.connect(gain); gain.connect(ac.destination); osc.start(); osc.stop(ac.currentTime + 0.08);
    } catch (e) { /* no audio device: stay silent */ }
  },
  showBoard() {
    const ol = $('lb'); if (!ol) return;
    ol.innerHTML = '';
    for (const [name, pts] of kit.board.slice(0, 5)) {
      const li = document.createElement('li'); li.textContent = name + ' — ' + pts; ol.appendChild(li);
    }
  },
  record(points) {
    kit.saves += 1;
    kit.board.push([T.you + ' #' + kit.saves, points]);
    kit.board.sort((a, b) => b[1] - a[1]);
    kit.showBoard();
  },
};
on('dark', 'click', () => {
  const dark = document.body.classList.toggle('dark');
  $('dark').textContent = dark ? '☀ ' + T.light : '☾ ' + T.dark;
  if (kit.redraw) kit.redraw();
});
on('sound', 'click', () => {
  kit.sound = !kit.sound;
  $('sound').textContent = kit.sound ? '♪ ' + T.sound_on : '✕ ' + T.sound_off;
});
kit.showBoard();
"""


def kit_js(T: dict, broken_bindings: bool = False) -> str:
    """The shared helpers; `broken_bindings` reproduces two classic dead-control bugs: keys bound to
    an element that does not exist, taps bound to touchstart only (a mouse never fires it)."""
    board = [[n, p] for n, p in zip(T["names"], (12, 8, 5))]
    return fill(KIT_JS, board=js(board),
                onkeys="(fn) => on('game', 'keydown', fn)" if broken_bindings else "(fn) => window.addEventListener('keydown', fn)",
                tap="'touchstart'" if broken_bindings else "'click'")


def dark_button(T: dict) -> str:
    return f'<button id="dark" type="button">☾ {T["dark"]}</button>'


def sound_button(T: dict) -> str:
    return f'<button id="sound" type="button">♪ {T["sound_on"]}</button>'


def board_panel(T: dict) -> str:
    return f'<h2>{T["leaderboard"]}</h2><ol id="lb" class="lb"></ol><button id="save" type="button">{T["save"]}</button>'


def feature_tools(spec: Spec, T: dict) -> str:
    """Header toggles the request asked for."""
    out = []
    if "dark" in spec.features:
        out.append(dark_button(T))
    if "sound" in spec.features:
        out.append(sound_button(T))
    return "".join(out)


@dataclass
class App:
    """What an engine returns; a layout turns it into a page."""

    title: str
    subtitle: str
    stage: str  # the main panel: canvas / board and its controls
    js: str  # the app's script (after the kit)
    side: list[str] = field(default_factory=list)  # further panels (settings, leaderboard, help)
    tools: str = ""  # header toggles
    css: str = ""
    controls: list[str] = field(default_factory=list)  # ids of operable controls (dead_control renames them)
    T: dict = field(default_factory=dict)  # interface strings, inlined as `const T`


def layout(spec: Spec, app: App, style: str, kit: str, extra_css: str = "", script: bool = True) -> str:
    T = app.T
    a, t, d = spec.palette
    css = fill(BASE_CSS, accent=a, tint=t, deep=d) + LAYOUT_CSS[style] + app.css + extra_css
    side = "".join(f'<section class="panel">{p}</section>' for p in app.side)
    if style == "bar":
        body = (f'<header><h1>{app.title}</h1><div class="row">{app.tools}</div></header>\n'
                f'<main><p class="muted">{app.subtitle}</p>\n<section class="panel">{app.stage}</section>\n{side}</main>')
    elif style == "card":
        body = (f'<div class="card"><div class="top"><h1>{app.title}</h1><div class="row">{app.tools}</div></div>\n'
                f'<p class="muted">{app.subtitle}</p>\n<section class="panel">{app.stage}</section>\n{side}</div>')
    else:
        body = (f'<header><h1>{app.title}</h1><div class="row">{app.tools}</div></header>\n'
                f'<main><section class="panel">{app.stage}<p class="muted">{app.subtitle}</p></section>\n'
                f'<aside>{side}</aside></main>')
    used = set(re.findall(r"\bT\.(\w+)", kit + app.js))  # inline only the strings the script uses
    code = f"\nconst T = {js({k: v for k, v in T.items() if k in used})};\n{kit}\n{app.js.strip()}\n"
    tail = f"<script>{code}</script>\n" if script else ""
    return (f'<!DOCTYPE html>\n<html lang="{spec.lang}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{app.title}</title>\n'
            f'<style>{_compact_css(css)}</style>\n</head>\n<body>\n{body}\n{tail}</body>\n</html>\n')


def _compact_css(css: str) -> str:
    return "\n".join(line.strip() for line in css.strip().splitlines() if line.strip())


# =============================================================================================
# HTML engines: games
# =============================================================================================
# Each engine builds an App for one prompt (its language, features, colour) in one of a few
# variants. Conventions every engine keeps, because they are what makes a page honest to use:
# every control changes something a user can see; canvases take their width from the viewport;
# state is only read from controls inside their handlers.

def _slider(id_: str, label: str, lo: float, hi: float, step: float, value: float, unit: str = "") -> str:
    return (f'<label class="slider" for="{id_}">{label}: <output id="{id_}-out">{value:g}</output>{unit}'
            f'<input id="{id_}" type="range" min="{lo:g}" max="{hi:g}" step="{step:g}" value="{value:g}"></label>')


def _select(id_: str, label: str, options: list[tuple[str, str]], selected: int = 0) -> str:
    opts = "".join(f'<option value="{v}"{" selected" if k == selected else ""}>{t}</option>'
                   for k, (v, t) in enumerate(options))
    return f'<label class="row">{label} <select id="{id_}">{opts}</select></label>'


SNAKE = {"title": {"en": "Snake", "zh": "贪吃蛇", "fr": "Jeu du serpent", "es": "La serpiente", "de": "Snake",
                   "ja": "スネークゲーム", "pt": "Jogo da cobrinha", "ko": "뱀 게임"},
         "sub": {"en": "Eat the red apples, don't bite your tail. The walls wrap around.",
                 "fr": "Mange les pommes rouges sans te mordre la queue. Les bords se rejoignent.",
                 "zh": "吃掉红色的苹果，别咬到自己的尾巴。边界是相通的。"},
         "restart": {"en": "New game", "fr": "Nouvelle partie", "zh": "新游戏"}}


def app_snake(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {"restart": SNAKE["restart"]})
    f = spec.features
    countdown = 60 if "countdown" in f else 0
    stats = f'<span>{T["score"]}: <b id="score">0</b></span>'
    if countdown:
        stats += f'<span>{T["time"]}: <b id="time">{countdown}</b> s</span>'
    stage = (f'<div class="stats">{stats}</div><canvas id="board" width="360" height="360"></canvas>'
             f'<p id="msg" class="muted">{T["keys_tip"]}</p>'
             f'<div class="row"><button id="start" class="primary" type="button">{T["start"]}</button>'
             f'<button id="pause" type="button">{T["pause"]}</button></div>')
    side = [board_panel(T)] if "leaderboard" in f else []
    look = {"1": "grid", "2": "dots", "3": "neon"}.get(v, "grid")
    code = fill(r"""
const cv = $('board'), ctx = cv.getContext('2d');
const N = 18, TICK = 140, COUNTDOWN = @@countdown@@, LOOK = '@@look@@';
let cell = 20, snake = [], dir = {x: 1, y: 0}, queue = [], food = {x: 0, y: 0};
let score = 0, left = COUNTDOWN, running = false, over = false, loop = null, clock = null;

function fit() {
  const w = Math.min(432, cv.parentElement.clientWidth - 28);
  cell = Math.max(12, Math.floor(w / N));
  cv.width = cv.height = cell * N;
  draw();
}
function newGame() {
  snake = [{x: 6, y: 9}, {x: 5, y: 9}, {x: 4, y: 9}];
  dir = {x: 1, y: 0}; queue = []; score = 0; left = COUNTDOWN; over = false;
  placeFood(); hud();
}
function placeFood() {
  do { food = {x: Math.floor(Math.random() * N), y: Math.floor(Math.random() * N)}; }
  while (snake.some((p) => p.x === food.x && p.y === food.y));
}
function hud() {
  $('score').textContent = score;
  if (COUNTDOWN) $('time').textContent = left;
}
function draw() {
  const bg = cssVar('--panel'), line = cssVar('--line'), body = cssVar('--accent'), head = cssVar('--deep');
  ctx.fillStyle = LOOK === 'neon' ? '#0f172a' : bg;
  ctx.fillRect(0, 0, cv.width, cv.height);
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) {
    if (LOOK === 'grid') { ctx.strokeStyle = line; ctx.strokeRect(i * cell + .5, j * cell + .5, cell - 1, cell - 1); }
    else if (LOOK === 'dots' && (i + j) % 2) { ctx.fillStyle = line; ctx.fillRect(i * cell, j * cell, cell, cell); }
  }
  ctx.fillStyle = '#e11d48';
  ctx.beginPath(); ctx.arc(food.x * cell + cell / 2, food.y * cell + cell / 2, cell * .38, 0, Math.PI * 2); ctx.fill();
  snake.forEach((p, k) => {
    ctx.fillStyle = k ? (LOOK === 'neon' ? '#4ade80' : body) : (LOOK === 'neon' ? '#bbf7d0' : head);
    if (LOOK === 'dots') { ctx.beginPath(); ctx.arc(p.x * cell + cell / 2, p.y * cell + cell / 2, cell * .45, 0, Math.PI * 2); ctx.fill(); }
    else ctx.fillRect(p.x * cell + 1, p.y * cell + 1, cell - 2, cell - 2);
  });
  if (over) {
    ctx.fillStyle = 'rgba(15,23,42,.6)'; ctx.fillRect(0, cv.height / 2 - 30, cv.width, 60);
    ctx.fillStyle = '#fff'; ctx.font = 'bold 22px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.game_over + ' · ' + score, cv.width / 2, cv.height / 2 + 8);
  }
}
function step() {
  if (queue.length) dir = queue.shift();
  const head = {x: (snake[0].x + dir.x + N) % N, y: (snake[0].y + dir.y + N) % N};
  if (snake.some((p) => p.x === head.x && p.y === head.y)) return finish(T.game_over);
  snake.unshift(head);
  if (head.x === food.x && head.y === food.y) { score += 1; kit.beep(880); placeFood(); }
  else snake.pop();
  hud(); draw();
}
function tick() {
  left -= 1; hud();
  if (left <= 0) finish(T.time_up);
}
function labels() {
  $('pause').textContent = running ? T.pause : T.resume;
  $('start').textContent = running || over ? T.restart : T.start;
}
function play() {
  if (over) newGame();
  if (running) return;
  running = true;
  loop = setInterval(step, TICK);
  if (COUNTDOWN) clock = setInterval(tick, 1000);
  $('msg').textContent = T.keys_tip; labels();
}
function halt(message) {
  running = false; clearInterval(loop); clearInterval(clock);
  if (message) $('msg').textContent = message;
  labels();
}
function finish(message) {
  over = true; halt(message + ' — ' + T.score + ': ' + score); draw(); kit.beep(220);
}
function turn(x, y) {
  const last = queue.length ? queue[queue.length - 1] : dir;
  if (!(x === -last.x && y === -last.y) && !(x === last.x && y === last.y) && queue.length < 3) queue.push({x, y});
  if (!running) play();
}
on('start', 'click', () => { halt(); newGame(); draw(); play(); });
on('pause', 'click', () => { if (running) halt(T.paused); else play(); });
on('save', 'click', () => kit.record(score));
onTap(cv, (e) => {  // steer towards the tapped square
  const r = cv.getBoundingClientRect();
  const dx = (e.clientX - r.left) / r.width * N - (snake[0].x + .5), dy = (e.clientY - r.top) / r.height * N - (snake[0].y + .5);
  if (Math.abs(dx) > Math.abs(dy)) turn(Math.sign(dx), 0); else turn(0, Math.sign(dy));
});
const KEYS = {ArrowUp: [0, -1], KeyW: [0, -1], ArrowDown: [0, 1], KeyS: [0, 1], ArrowLeft: [-1, 0], KeyA: [-1, 0], ArrowRight: [1, 0], KeyD: [1, 0]};
onKeys((e) => {
  if (KEYS[e.code]) { e.preventDefault(); turn(...KEYS[e.code]); }
  else if (e.code === 'Space') { e.preventDefault(); if (running) halt(T.paused); else play(); }
});
kit.redraw = draw;
window.addEventListener('resize', fit);
newGame(); fit();
""", countdown=countdown, look=look)
    return App(title=SNAKE["title"].get(spec.lang, SNAKE["title"]["en"]),
               subtitle=SNAKE["sub"].get(spec.lang, SNAKE["sub"]["en"]), stage=stage, js=code, side=side,
               tools=feature_tools(spec, T), controls=["start", "pause", "save", "dark", "sound"], T=T)


BREAKOUT = {"title": {"en": "Breakout", "zh": "打砖块", "fr": "Casse-briques", "es": "Rompe ladrillos", "de": "Breakout",
                      "ja": "ブロック崩し", "pt": "Quebra-blocos", "ko": "벽돌 깨기"},
            "sub": {"en": "Keep the ball in play with the paddle and clear every brick.",
                    "zh": "用挡板接住小球，把所有砖块都打掉。方向键移动，空格发球。"},
            "launch": {"en": "Launch", "zh": "发球"},
            "win": {"en": "All bricks cleared!", "zh": "砖块全部清除！"}}


def app_breakout(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {"launch": BREAKOUT["launch"], "win": BREAKOUT["win"]})
    f = spec.features
    levels = [("easy", T["easy"]), ("normal", T["normal"]), ("hard", T["hard"])]
    settings = _select("level", T["difficulty"], levels, 1) if "difficulty" in f or v != "1" else ""
    stage = (f'{settings}<div class="stats"><span>{T["score"]}: <b id="score">0</b></span><span>{T["lives"]}: <b id="lives">3</b></span>'
             f'<span>{T["best"]}: <b id="best">0</b></span></div>'
             f'<canvas id="board" width="480" height="320"></canvas><p id="msg" class="muted">{T["keys_tip"]}</p>'
             f'<div class="row"><button id="start" class="primary" type="button">{T["start"]}</button>'
             f'<button id="pause" type="button">{T["pause"]}</button></div>')
    side = [board_panel(T)] if "leaderboard" in f else []
    code = fill(r"""
const cv = $('board'), ctx = cv.getContext('2d');
const LW = 480, LH = 320, COLS = 8, ROUNDED = @@rounded@@;
const LEVELS = {easy: {speed: 3.4, paddle: 0.26, rows: 3}, normal: {speed: 4.3, paddle: 0.2, rows: 4}, hard: {speed: 5.4, paddle: 0.15, rows: 5}};
let level = 'normal', paddle = 0, ball = {x: 0, y: 0, vx: 0, vy: 0}, bricks = [];
let score = 0, best = 0, lives = 3, running = false, served = false, over = false, raf = null;
const held = {left: false, right: false};

function fit() {
  const w = Math.min(520, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function paddleW() { return LW * LEVELS[level].paddle; }
function newGame() {
  const rows = LEVELS[level].rows;
  bricks = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < COLS; c++) bricks.push({r, c, alive: true});
  paddle = (LW - paddleW()) / 2; score = 0; lives = 3; served = false; over = false;
  hud();
}
function hud() {
  $('score').textContent = score; $('lives').textContent = lives;
  best = Math.max(best, score); $('best').textContent = best;
}
function brickRect(b) {
  const w = (LW - 20) / COLS;
  return [10 + b.c * w + 2, 30 + b.r * 20 + 2, w - 4, 16];
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const hues = ['#ef4444', '#f97316', '#eab308', '#22c55e', '#3b82f6'];
  for (const b of bricks) {
    if (!b.alive) continue;
    const [x, y, w, h] = brickRect(b);
    ctx.fillStyle = hues[b.r % hues.length];
    if (ROUNDED) { ctx.beginPath(); ctx.roundRect(x, y, w, h, 6); ctx.fill(); } else ctx.fillRect(x, y, w, h);
  }
  ctx.fillStyle = cssVar('--accent');
  ctx.fillRect(paddle, LH - 18, paddleW(), 10);
  const bx = served ? ball.x : paddle + paddleW() / 2, by = served ? ball.y : LH - 26;
  ctx.fillStyle = cssVar('--fg');
  ctx.beginPath(); ctx.arc(bx, by, 6, 0, Math.PI * 2); ctx.fill();
  if (over) {
    ctx.fillStyle = 'rgba(15,23,42,.65)'; ctx.fillRect(0, LH / 2 - 26, LW, 52);
    ctx.fillStyle = '#fff'; ctx.font = 'bold 22px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.game_over + ' · ' + score, LW / 2, LH / 2 + 8);
  }
}
function serve() {
  if (served) return;
  const sp = LEVELS[level].speed;
  served = true;
  ball = {x: paddle + paddleW() / 2, y: LH - 26, vx: sp * 0.55, vy: -sp * 0.83};
}
function update() {
  const pw = paddleW(), sp = LEVELS[level].speed;
  if (held.left) paddle = Math.max(0, paddle - 7);
  if (held.right) paddle = Math.min(LW - pw, paddle + 7);
  if (!served) return;
  ball.x += ball.vx; ball.y += ball.vy;
  if (ball.x < 6 || ball.x > LW - 6) { ball.vx = -ball.vx; ball.x = Math.min(LW - 6, Math.max(6, ball.x)); }
  if (ball.y < 6) ball.vy = Math.abs(ball.vy);
  if (ball.vy > 0 && ball.y > LH - 24 && ball.y < LH - 10 && ball.x > paddle - 4 && ball.x < paddle + pw + 4) {
    const hit = (ball.x - (paddle + pw / 2)) / (pw / 2);
    ball.vx = sp * 0.85 * Math.max(-1, Math.min(1, hit));
    ball.vy = -Math.sqrt(sp * sp - ball.vx * ball.vx);
    kit.beep(520);
  }
  for (const b of bricks) {
    if (!b.alive) continue;
    const [x, y, w, h] = brickRect(b);
    if (ball.x > x - 5 && ball.x < x + w + 5 && ball.y > y - 5 && ball.y < y + h + 5) {
      b.alive = false; ball.vy = -ball.vy; score += 10; kit.beep(760); hud();
      if (bricks.every((k) => !k.alive)) { $('msg').textContent = T.win; newRound(); }
      break;
    }
  }
  if (ball.y > LH + 10) {
    lives -= 1; served = false; hud();
    if (lives <= 0) { over = true; stop(); $('msg').textContent = T.game_over + ' — ' + T.score + ': ' + score; kit.beep(200); }
  }
}
function newRound() { for (const b of bricks) b.alive = true; served = false; }
function frame() { if (!running) return; update(); draw(); raf = requestAnimationFrame(frame); }
function run() {
  if (over) newGame();
  if (running) return;
  running = true; $('pause').textContent = T.pause; $('msg').textContent = T.keys_tip;
  raf = requestAnimationFrame(frame);
}
function stop() { running = false; cancelAnimationFrame(raf); $('pause').textContent = T.resume; draw(); }
on('start', 'click', () => { stop(); newGame(); run(); serve(); });
on('pause', 'click', () => { if (running) { stop(); $('msg').textContent = T.paused; } else run(); });
on('level', 'change', (e) => {
  level = e.target.value; stop(); newGame(); draw();
  $('msg').textContent = T.difficulty + ': ' + e.target.options[e.target.selectedIndex].text;
});
on('save', 'click', () => kit.record(score));
onTap(cv, (e) => {  // a tap moves the paddle under the finger, and serves
  const r = cv.getBoundingClientRect();
  paddle = Math.max(0, Math.min(LW - paddleW(), (e.clientX - r.left) / r.width * LW - paddleW() / 2));
  run(); serve(); draw();
});
const DIRS = {ArrowLeft: 'left', KeyA: 'left', ArrowRight: 'right', KeyD: 'right'};
onKeys((e) => {
  if (DIRS[e.code]) { e.preventDefault(); held[DIRS[e.code]] = true; run(); }
  else if (e.code === 'Space' || e.code === 'ArrowUp') { e.preventDefault(); run(); serve(); }
});
window.addEventListener('keyup', (e) => { if (DIRS[e.code]) held[DIRS[e.code]] = false; });
kit.redraw = draw;
window.addEventListener('resize', fit);
newGame(); fit();
""", rounded="true" if v == "2" else "false")
    return App(title=BREAKOUT["title"].get(spec.lang, BREAKOUT["title"]["en"]),
               subtitle=BREAKOUT["sub"].get(spec.lang, BREAKOUT["sub"]["en"]), stage=stage, js=code, side=side,
               tools=feature_tools(spec, T), controls=["start", "pause", "level", "save", "dark", "sound"], T=T)


FLAPPY = {"title": {"en": "Flappy Bird", "es": "Pájaro saltarín", "de": "Flappy Bird", "zh": "飞翔小鸟", "ja": "フラッピーバード",
                    "pt": "Passarinho voador", "fr": "Oiseau volant", "ko": "플래피 버드"},
          "sub": {"en": "Flap through the gaps between the pipes. Up arrow, space, the button or a tap.",
                  "es": "Vuela entre los tubos sin chocar. Flecha arriba o espacio para aletear, flecha abajo para bajar rápido."},
          "flap": {"en": "Flap", "es": "Aletear", "de": "Flattern"}}


def app_flappy(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {"flap": FLAPPY["flap"]})
    f = spec.features
    countdown = 60 if "countdown" in f else 0
    stats = f'<span>{T["score"]}: <b id="score">0</b></span><span>{T["best"]}: <b id="best">0</b></span>'
    if countdown:
        stats += f'<span>{T["time"]}: <b id="time">{countdown}</b> s</span>'
    stage = (f'<div class="stats">{stats}</div><canvas id="sky" width="400" height="440"></canvas>'
             f'<p id="msg" class="muted">{T["ready"]} — {T["keys_tip"]}</p>'
             f'<div class="row"><button id="start" class="primary" type="button">{T["start"]}</button>'
             f'<button id="flap" type="button">▲ {T["flap"]}</button></div>')
    side = [board_panel(T)] if "leaderboard" in f else []
    code = fill(r"""
const cv = $('sky'), ctx = cv.getContext('2d');
const LW = 400, LH = 440, GAP = 130, COUNTDOWN = @@countdown@@, NIGHT = @@night@@;
let bird = {y: LH / 2, vy: 0}, pipes = [], frames = 0, score = 0, best = 0, left = COUNTDOWN;
let state = 'ready', raf = null, clock = null;

function fit() {
  const w = Math.min(400, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function reset() {
  bird = {y: LH / 2, vy: 0}; pipes = []; frames = 0; score = 0; left = COUNTDOWN; hud();
}
function hud() {
  $('score').textContent = score; best = Math.max(best, score); $('best').textContent = best;
  if (COUNTDOWN) $('time').textContent = left;
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  const sky = ctx.createLinearGradient(0, 0, 0, LH);
  sky.addColorStop(0, NIGHT ? '#0f172a' : cssVar('--tint')); sky.addColorStop(1, NIGHT ? '#1e3a8a' : cssVar('--panel'));
  ctx.fillStyle = sky; ctx.fillRect(0, 0, LW, LH);
  ctx.fillStyle = cssVar('--accent');
  for (const p of pipes) { ctx.fillRect(p.x, 0, 52, p.top); ctx.fillRect(p.x, p.top + GAP, 52, LH - p.top - GAP - 30); }
  ctx.fillStyle = '#a16207'; ctx.fillRect(0, LH - 30, LW, 30);
  ctx.save(); ctx.translate(90, bird.y); ctx.rotate(Math.max(-0.5, Math.min(0.9, bird.vy / 10)));
  ctx.fillStyle = '#facc15'; ctx.beginPath(); ctx.ellipse(0, 0, 17, 13, 0, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = '#111827'; ctx.beginPath(); ctx.arc(7, -4, 3, 0, Math.PI * 2); ctx.fill();
  ctx.fillStyle = '#f97316'; ctx.beginPath(); ctx.moveTo(15, 0); ctx.lineTo(25, 3); ctx.lineTo(15, 6); ctx.fill();
  ctx.restore();
  ctx.fillStyle = NIGHT ? '#fff' : cssVar('--fg'); ctx.font = 'bold 34px sans-serif'; ctx.textAlign = 'center';
  ctx.fillText(String(score), LW / 2, 56);
  if (state === 'over') { ctx.font = 'bold 24px sans-serif'; ctx.fillText(T.game_over, LW / 2, LH / 2); }
}
function update() {
  frames += 1;
  bird.vy += 0.36; bird.y += bird.vy;
  if (frames % 95 === 1) pipes.push({x: LW, top: 50 + Math.floor(Math.random() * (LH - GAP - 130)), passed: false});
  for (const p of pipes) {
    p.x -= 2.2;
    if (!p.passed && p.x + 52 < 90) { p.passed = true; score += 1; kit.beep(900); hud(); }
    if (p.x < 107 && p.x + 52 > 73 && (bird.y - 12 < p.top || bird.y + 12 > p.top + GAP)) return crash();
  }
  pipes = pipes.filter((p) => p.x > -60);
  if (bird.y > LH - 42 || bird.y < 0) crash();
}
function crash() {
  state = 'over'; cancelAnimationFrame(raf); clearInterval(clock); kit.beep(180);
  $('msg').textContent = T.game_over + ' — ' + T.score + ': ' + score;
}
function frame() { if (state !== 'play') return; update(); draw(); if (state === 'play') raf = requestAnimationFrame(frame); }
function begin() {
  cancelAnimationFrame(raf); clearInterval(clock); reset(); state = 'play';
  $('msg').textContent = T.keys_tip;
  raf = requestAnimationFrame(frame);
  if (COUNTDOWN) clock = setInterval(() => { left -= 1; hud(); if (left <= 0) { crash(); $('msg').textContent = T.time_up + ' ' + T.score + ': ' + score; } }, 1000);
}
function flap() {
  if (state !== 'play') begin();
  bird.vy = -6.4; kit.beep(620);
}
on('start', 'click', begin);
on('flap', 'click', flap);
on('save', 'click', () => kit.record(score));
onTap(cv, flap);
onKeys((e) => {
  if (e.code === 'ArrowUp' || e.code === 'Space' || e.code === 'KeyW') { e.preventDefault(); flap(); }
  else if (e.code === 'ArrowDown' || e.code === 'KeyS') { e.preventDefault(); if (state === 'play') bird.vy += 3; else begin(); }
});
kit.redraw = draw;
window.addEventListener('resize', fit);
reset(); fit();
""", countdown=countdown, night="true" if v == "2" else "false")
    return App(title=FLAPPY["title"].get(spec.lang, FLAPPY["title"]["en"]),
               subtitle=FLAPPY["sub"].get(spec.lang, FLAPPY["sub"]["en"]), stage=stage, js=code, side=side,
               tools=feature_tools(spec, T), controls=["start", "flap", "save", "dark", "sound"], T=T)


MEMORY = {"title": {"en": "Memory", "fr": "Jeu de mémoire", "es": "Memoria", "zh": "记忆翻牌", "de": "Memory",
                    "ja": "神経衰弱", "pt": "Jogo da memória", "ko": "카드 짝 맞추기"},
          "sub": {"en": "Turn two cards at a time and find all eight pairs.",
                  "fr": "Retourne deux cartes à la fois et trouve les huit paires. Flèches pour te déplacer, Entrée pour retourner."},
          "moves": {"en": "Moves", "fr": "Coups"}, "pairs": {"en": "Pairs", "fr": "Paires"},
          "won": {"en": "All pairs found in", "fr": "Toutes les paires trouvées en"},
          "card": {"en": "Card", "fr": "Carte"}, "new": {"en": "New game", "fr": "Nouvelle partie"}}


def app_memory(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: MEMORY[k] for k in ("moves", "pairs", "won", "card", "new")})
    symbols = ["★", "♥", "♦", "♣", "♠", "☀", "☂", "♪"] if v != "2" else ["A", "B", "C", "D", "E", "F", "G", "H"]
    stage = (f'<div class="stats"><span>{T["moves"]}: <b id="moves">0</b></span><span>{T["pairs"]}: <b id="pairs">0</b>/8</span></div>'
             f'<p id="msg" class="muted">{T["keys_tip"]}</p>'
             f'<div class="row"><button id="new" class="primary" type="button">{T["new"]}</button></div>'
             f'<div id="grid" class="grid" role="grid"></div>')
    css = (".grid{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:8px;max-width:420px;width:100%;margin:0 auto}"
           ".grid button{aspect-ratio:1;font-size:clamp(20px,7vw,34px);padding:0;border-width:2px;min-height:0}"
           ".grid button.up{background:var(--tint)}.grid button.done{background:var(--accent);color:#fff}"
           ".grid button.cursor{outline:4px solid var(--deep);outline-offset:2px}")
    if v == "2":
        css += ".grid button{border-radius:16px}"
    code = fill(r"""
const SYMBOLS = @@symbols@@;
const grid = $('grid');
let deck = [], open = [], moves = 0, pairs = 0, cursor = 0, round = 0;

function shuffle(a) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }
SYMBOLS.concat(SYMBOLS).forEach((_, i) => {  // sixteen card buttons, dealt anew each game
  const b = document.createElement('button');
  b.type = 'button'; b.setAttribute('aria-label', T.card + ' ' + (i + 1));
  onTap(b, () => { cursor = i; flip(i); });
  grid.appendChild(b);
});
function deal() {
  deck = shuffle([...SYMBOLS, ...SYMBOLS]).map((s) => ({s, up: false, done: false}));
  open = []; moves = 0; pairs = 0; cursor = 0; round += 1;
  $('msg').textContent = T.round + ' ' + round + ' — ' + T.keys_tip;
  render();
}
function render() {
  deck.forEach((card, i) => {
    const b = grid.children[i];
    b.textContent = card.up || card.done ? card.s : '?';
    b.className = (card.done ? 'done' : card.up ? 'up' : '') + (i === cursor ? ' cursor' : '');
  });
  $('moves').textContent = moves; $('pairs').textContent = pairs;
}
function flip(i) {
  const card = deck[i];
  if (card.done || card.up) { render(); return; }
  if (open.length === 2) { for (const k of open) deck[k].up = false; open = []; }  // a third card hides the last two
  card.up = true; open.push(i);
  if (open.length === 2) {
    moves += 1;
    const [a, b] = open;
    if (deck[a].s === deck[b].s) {
      deck[a].done = deck[b].done = true; open = []; pairs += 1; kit.beep(880);
      if (pairs === SYMBOLS.length) $('msg').textContent = T.won + ' ' + moves + ' ' + T.moves.toLowerCase();
    } else setTimeout(() => { if (open.length === 2 && open[0] === a && open[1] === b) { deck[a].up = deck[b].up = false; open = []; render(); } }, 900);
  }
  render();
}
on('new', 'click', deal);
onKeys((e) => {
  const moveBy = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -4, ArrowDown: 4}[e.code];
  if (moveBy) {
    e.preventDefault();
    cursor = (cursor + moveBy + deck.length) % deck.length;
    $('msg').textContent = T.card + ' ' + (cursor + 1);
    render();
  } else if (e.code === 'Enter' || e.code === 'Space') { e.preventDefault(); flip(cursor); }
});
deal();
""", symbols=js(symbols))
    return App(title=MEMORY["title"].get(spec.lang, MEMORY["title"]["en"]),
               subtitle=MEMORY["sub"].get(spec.lang, MEMORY["sub"]["en"]), stage=stage, js=code,
               side=[board_panel(T)] if "leaderboard" in spec.features else [],
               tools=feature_tools(spec, T), css=css, controls=["new", "dark", "sound", "save"], T=T)


# =============================================================================================
# HTML engines: simulations
# =============================================================================================

PENDULUM = {
    "title": {"en": "Pendulum simulation", "ja": "振り子のシミュレーション", "zh": "单摆运动模拟", "fr": "Simulation de pendule",
              "es": "Simulación de péndulo", "de": "Pendel-Simulation", "pt": "Simulação de pêndulo", "ko": "진자 운동 시뮬레이션"},
    "sub": {"en": "Change the length and the starting angle; tap the picture to release the bob from another angle.",
            "ja": "ひもの長さと振れ幅を変えてみよう。画面をタップすると、その位置からおもりを離します。"},
    "length": {"en": "Length", "ja": "ひもの長さ"}, "amp": {"en": "Start angle", "ja": "振れ幅"},
    "gravity": {"en": "Gravity", "ja": "重力"}, "period": {"en": "Period", "ja": "周期"},
    "angle": {"en": "Angle", "ja": "角度"}, "elapsed": {"en": "Time", "ja": "経過時間"},
    "earth": {"en": "Earth", "ja": "地球"}, "moon": {"en": "Moon", "ja": "月"}, "mars": {"en": "Mars", "ja": "火星"},
    "energy": {"en": "Energy", "ja": "エネルギー"}, "kinetic": {"en": "kinetic", "ja": "運動"}, "potential": {"en": "potential", "ja": "位置"},
}


def app_pendulum(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: PENDULUM[k] for k in ("length", "amp", "gravity", "period", "angle", "elapsed", "earth", "moon",
                                                  "mars", "energy", "kinetic", "potential")})
    stage = (f'<div class="stats"><span>{T["period"]}: <b id="period">–</b> s</span><span>{T["angle"]}: <b id="angle">–</b>°</span>'
             f'<span>{T["elapsed"]}: <b id="clock">0.0</b> s</span></div>'
             f'<canvas id="sim" width="520" height="360"></canvas>'
             f'<div class="row"><button id="run" class="primary" type="button">▶ {T["start"]}</button>'
             f'<button id="reset" type="button">{T["reset"]}</button></div>')
    settings = (_select("grav", T["gravity"], [("9.81", T["earth"]), ("1.62", T["moon"]), ("3.71", T["mars"])])
                + _slider("len", T["length"], 0.5, 3, 0.1, 1.5, " m") + _slider("amp", T["amp"], 5, 80, 1, 30, "°"))
    code = fill(r"""
const cv = $('sim'), ctx = cv.getContext('2d');
const LW = 520, LH = 360, VIEW = '@@view@@';
let L = 1.5, amp = 30, g = 9.81, theta = 0, omega = 0, t = 0, running = false, raf = null, trace = [];

function fit() {
  const w = Math.min(560, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function restart() { theta = amp * Math.PI / 180; omega = 0; t = 0; trace = []; readouts(); draw(); }
function readouts() {
  $('period').textContent = (2 * Math.PI * Math.sqrt(L / g)).toFixed(2);
  $('angle').textContent = (theta * 180 / Math.PI).toFixed(1);
  $('clock').textContent = t.toFixed(1);
}
function physics(dt) {
  for (let k = 0; k < 4; k++) {  // semi-implicit Euler, small steps: stable for any angle
    omega += (-(g / L) * Math.sin(theta) - 0.02 * omega) * dt / 4;
    theta += omega * dt / 4;
  }
  t += dt;
  trace.push(theta); if (trace.length > 120) trace.shift();
}
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const px = VIEW === 'trace' ? 170 : LW / 2, py = 30, scale = (LH - 80) / 3.2;
  const bx = px + Math.sin(theta) * L * scale, by = py + Math.cos(theta) * L * scale;
  ctx.strokeStyle = cssVar('--line'); ctx.setLineDash([4, 4]);
  ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(px, LH - 20); ctx.stroke(); ctx.setLineDash([]);
  ctx.fillStyle = cssVar('--fg'); ctx.fillRect(px - 40, py - 8, 80, 8);
  ctx.strokeStyle = cssVar('--fg'); ctx.lineWidth = 2;
  ctx.beginPath(); ctx.moveTo(px, py); ctx.lineTo(bx, by); ctx.stroke(); ctx.lineWidth = 1;
  ctx.fillStyle = cssVar('--accent'); ctx.beginPath(); ctx.arc(bx, by, 16, 0, Math.PI * 2); ctx.fill();
  if (VIEW === 'trace') {  // angle over time, the last four seconds
    const x0 = 330, w = 170, y0 = LH / 2;
    ctx.strokeStyle = cssVar('--line'); ctx.strokeRect(x0, 40, w, LH - 80);
    ctx.strokeStyle = cssVar('--accent'); ctx.beginPath();
    trace.forEach((a, i) => { const x = x0 + i / 120 * w, y = y0 - a / 1.6 * (LH / 2 - 50); i ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke();
  }
  if (VIEW === 'energy') {  // kinetic and potential energy share, per unit mass
    const pe = g * L * (1 - Math.cos(theta)), ke = 0.5 * (L * omega) ** 2, tot = Math.max(pe + ke, 1e-6);
    const x0 = LW - 70, h = LH - 90;
    ctx.fillStyle = cssVar('--line'); ctx.fillRect(x0, 40, 40, h);
    ctx.fillStyle = '#f59e0b'; ctx.fillRect(x0, 40 + h * (1 - ke / tot), 40, h * ke / tot);
    ctx.fillStyle = cssVar('--fg'); ctx.font = '13px sans-serif'; ctx.textAlign = 'center';
    ctx.fillText(T.energy, x0 + 20, 30); ctx.fillText(T.kinetic, x0 + 20, LH - 32);
  }
}
function frame() { if (!running) return; physics(1 / 60); readouts(); draw(); raf = requestAnimationFrame(frame); }
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (t > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readouts(); draw(); });
}
bindSlider('len', (x) => { L = x; });
bindSlider('amp', (x) => { amp = x; restart(); });
on('grav', 'change', (e) => { g = parseFloat(e.target.value); readouts(); });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { restart(); setRunning(false); });
onTap(cv, (e) => {  // release the bob from where the user tapped
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  const px = VIEW === 'trace' ? 170 : LW / 2;
  const a = Math.atan2((e.clientX - r.left) / s - px, Math.max(1, (e.clientY - r.top) / s - 30));
  theta = Math.max(-1.5, Math.min(1.5, a)); omega = 0; trace = []; readouts(); draw();
});
kit.redraw = draw;
window.addEventListener('resize', fit);
restart(); fit();
""", view={"1": "plain", "2": "energy", "3": "trace"}.get(v, "plain"))
    return App(title=PENDULUM["title"].get(spec.lang, PENDULUM["title"]["en"]),
               subtitle=PENDULUM["sub"].get(spec.lang, PENDULUM["sub"]["en"]), stage=stage, js=code,
               side=[settings], tools=feature_tools(spec, T), controls=["run", "reset", "len", "amp", "grav", "dark", "sound"], T=T)


PROJECTILE = {
    "title": {"en": "Projectile motion", "fr": "Simulateur de tir parabolique", "es": "Tiro parabólico", "de": "Schiefer Wurf",
              "zh": "抛体运动模拟器", "ja": "放物運動シミュレーター", "pt": "Lançamento oblíquo", "ko": "포물선 운동 시뮬레이터"},
    "sub": {"en": "Set the angle and the launch speed, then launch. The dashed curve is the predicted path.",
            "fr": "Règle l'angle et la vitesse, puis lance. La courbe en pointillés montre la trajectoire prévue ; un clic sur le terrain vise ce point."},
    "angle": {"en": "Angle", "fr": "Angle"}, "speed": {"en": "Launch speed", "fr": "Vitesse initiale"},
    "gravity": {"en": "Gravity", "fr": "Gravité"}, "launch": {"en": "Launch", "fr": "Lancer"}, "clear": {"en": "Clear", "fr": "Effacer"},
    "range": {"en": "Range", "fr": "Portée"}, "height": {"en": "Max height", "fr": "Hauteur max"},
    "flight": {"en": "Flight time", "fr": "Durée du vol"}, "earth": {"en": "Earth", "fr": "Terre"},
    "moon": {"en": "Moon", "fr": "Lune"}, "mars": {"en": "Mars", "fr": "Mars"},
    "target": {"en": "Target at", "fr": "Cible à"}, "hit": {"en": "Hit!", "fr": "Touché !"}, "miss": {"en": "Missed by", "fr": "Raté de"},
}


def app_projectile(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: PROJECTILE[k] for k in PROJECTILE if k not in ("title", "sub")})
    target = v == "3"
    stats = (f'<span>{T["range"]}: <b id="range">–</b> m</span><span>{T["height"]}: <b id="height">–</b> m</span>'
             f'<span>{T["flight"]}: <b id="flight">–</b> s</span>')
    if target:
        stats += f'<span>{T["target"]} <b id="target">–</b> m</span>'
    stage = (f'<div class="stats">{stats}</div><canvas id="field" width="560" height="320"></canvas>'
             f'<p id="msg" class="muted">{T["ready"]}</p>'
             f'<div class="row"><button id="launch" class="primary" type="button">{T["launch"]}</button>'
             f'<button id="clear" type="button">{T["clear"]}</button></div>')
    settings = (_select("grav", T["gravity"], [("9.81", T["earth"]), ("1.62", T["moon"]), ("3.71", T["mars"])])
                + _slider("angle", T["angle"], 10, 80, 1, 45, "°") + _slider("speed", T["speed"], 5, 30, 0.5, 18, " m/s"))
    code = fill(r"""
const cv = $('field'), ctx = cv.getContext('2d');
const LW = 560, LH = 320, TARGET = @@target@@;
let angle = 45, speed = 18, g = 9.81, shots = [], flying = null, raf = null, goal = 0;

function fit() {
  const w = Math.min(600, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function flight(a, v) {
  const r = a * Math.PI / 180, vx = v * Math.cos(r), vy = v * Math.sin(r), T = 2 * vy / g;
  return {vx, vy, T, range: vx * T, top: vy * vy / (2 * g)};
}
function worldWidth() {
  const f = flight(angle, speed);
  return Math.max(40, f.range * 1.2, TARGET ? goal * 1.2 : 0, ...shots.map((s) => s.range * 1.05));
}
function toPx(x, y, W) { const s = (LW - 40) / W; return [20 + x * s, LH - 24 - y * s]; }
function readouts() {
  const f = flight(angle, speed);
  $('range').textContent = f.range.toFixed(1); $('height').textContent = f.top.toFixed(1); $('flight').textContent = f.T.toFixed(2);
  if (TARGET) $('target').textContent = goal.toFixed(0);
}
function path(a, v, W, until) {
  const f = flight(a, v), n = 60, pts = [];
  for (let i = 0; i <= n; i++) { const t = Math.min(until, f.T) * i / n; pts.push(toPx(f.vx * t, f.vy * t - g * t * t / 2, W)); }
  return pts;
}
function draw() {
  const s = cv.width / LW, W = worldWidth();
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  ctx.fillStyle = cssVar('--tint'); ctx.fillRect(0, LH - 24, LW, 24);
  ctx.fillStyle = cssVar('--muted'); ctx.font = '12px sans-serif'; ctx.textAlign = 'center';
  const step = W > 200 ? 50 : W > 80 ? 20 : 10;
  for (let x = 0; x <= W; x += step) { const [px] = toPx(x, 0, W); ctx.fillText(x + ' m', px, LH - 8); }
  if (TARGET) { const [tx, ty] = toPx(goal, 0, W); ctx.fillStyle = '#e11d48'; ctx.fillRect(tx - 10, ty - 6, 20, 6); }
  ctx.setLineDash([6, 5]); ctx.strokeStyle = cssVar('--muted'); ctx.beginPath();
  path(angle, speed, W, 1e9).forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.setLineDash([]);
  shots.forEach((sh, k) => {
    ctx.strokeStyle = k === shots.length - 1 ? cssVar('--accent') : cssVar('--line'); ctx.lineWidth = 2; ctx.beginPath();
    path(sh.angle, sh.speed, W, sh.t).forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.lineWidth = 1;
  });
  if (flying) {
    const f = flight(flying.angle, flying.speed), t = flying.t;
    const [bx, by] = toPx(f.vx * t, f.vy * t - g * t * t / 2, W);
    ctx.fillStyle = cssVar('--accent'); ctx.beginPath(); ctx.arc(bx, by, 7, 0, Math.PI * 2); ctx.fill();
  }
  const [cx, cy] = toPx(0, 0, W), r = angle * Math.PI / 180;
  ctx.strokeStyle = cssVar('--fg'); ctx.lineWidth = 6; ctx.beginPath(); ctx.moveTo(cx, cy); ctx.lineTo(cx + 28 * Math.cos(r), cy - 28 * Math.sin(r)); ctx.stroke(); ctx.lineWidth = 1;
}
function launch() {
  const f = flight(angle, speed);
  flying = {angle, speed, g, t: 0, range: f.range};
  shots.push(flying); if (shots.length > 6) shots.shift();
  kit.beep(500); cancelAnimationFrame(raf); raf = requestAnimationFrame(frame);
}
function frame() {
  const f = flight(flying.angle, flying.speed);
  flying.t = Math.min(f.T, flying.t + 1 / 30);
  draw();
  if (flying.t < f.T) { raf = requestAnimationFrame(frame); return; }
  let msg = T.range + ': ' + f.range.toFixed(1) + ' m';
  if (TARGET) {
    const off = Math.abs(f.range - goal);
    msg = off < 2 ? T.hit : T.miss + ' ' + off.toFixed(1) + ' m';
    if (off < 2) { goal = 20 + Math.floor(Math.random() * 30); readouts(); }
  }
  $('msg').textContent = msg; flying = null; draw();
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readouts(); draw(); });
}
bindSlider('angle', (x) => { angle = x; });
bindSlider('speed', (x) => { speed = x; });
on('grav', 'change', (e) => { g = parseFloat(e.target.value); readouts(); draw(); });
on('launch', 'click', launch);
on('clear', 'click', () => { shots = []; flying = null; cancelAnimationFrame(raf); $('msg').textContent = T.ready; draw(); });
onTap(cv, (e) => {  // aim at the tapped point and fire
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  const dx = (e.clientX - r.left) / s - 20, dy = LH - 24 - (e.clientY - r.top) / s;
  angle = Math.round(Math.max(10, Math.min(80, Math.atan2(Math.max(dy, 1), Math.max(dx, 1)) * 180 / Math.PI)));
  $('angle').value = angle; $('angle-out').textContent = angle; readouts(); launch();
});
kit.redraw = draw;
window.addEventListener('resize', fit);
goal = 20 + Math.floor(Math.random() * 30);
readouts(); fit();
""", target="true" if target else "false")
    return App(title=PROJECTILE["title"].get(spec.lang, PROJECTILE["title"]["en"]),
               subtitle=PROJECTILE["sub"].get(spec.lang, PROJECTILE["sub"]["en"]), stage=stage, js=code,
               side=[settings], tools=feature_tools(spec, T),
               controls=["launch", "clear", "angle", "speed", "grav", "dark", "sound"], T=T)


PREDPREY = {
    "title": {"en": "Predator–prey simulation", "ko": "포식자-피식자 시뮬레이션", "zh": "捕食者与猎物种群模拟", "fr": "Simulation proie-prédateur",
              "es": "Simulación depredador-presa", "de": "Räuber-Beute-Simulation", "ja": "捕食者と被食者のシミュレーション", "pt": "Simulação predador-presa"},
    "sub": {"en": "Lotka–Volterra model: rabbits grow, foxes eat them, both populations cycle. Tap the chart to release more rabbits.",
            "ko": "로트카-볼테라 모델: 토끼가 늘면 여우도 늘고, 두 개체 수가 주기적으로 변합니다. 그래프를 누르면 토끼를 풀어 줍니다."},
    "prey": {"en": "Rabbits", "ko": "토끼"}, "pred": {"en": "Foxes", "ko": "여우"},
    "birth": {"en": "Rabbit birth rate", "ko": "토끼 번식률"}, "death": {"en": "Fox death rate", "ko": "여우 사망률"},
    "add": {"en": "+5 rabbits", "ko": "토끼 +5"}, "year": {"en": "Year", "ko": "연도"},
    "phase": {"en": "Phase plot: rabbits vs foxes", "ko": "위상 그래프: 토끼 대 여우"},
}


def app_predprey(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: PREDPREY[k] for k in PREDPREY if k not in ("title", "sub")})
    stage = (f'<div class="stats"><span style="color:#16a34a">{T["prey"]}: <b id="prey">10</b></span>'
             f'<span style="color:#dc2626">{T["pred"]}: <b id="pred">10</b></span><span>{T["year"]}: <b id="year">0</b></span></div>'
             f'<canvas id="chart" width="560" height="300"></canvas>'
             f'<div class="row"><button id="run" class="primary" type="button">▶ {T["start"]}</button>'
             f'<button id="reset" type="button">{T["reset"]}</button><button id="add" type="button">{T["add"]}</button></div>')
    settings = _slider("alpha", T["birth"], 0.4, 2, 0.05, 1.1) + _slider("gamma", T["death"], 0.1, 1.2, 0.05, 0.4)
    code = fill(r"""
const cv = $('chart'), ctx = cv.getContext('2d');
const LW = 560, LH = 300, PHASE = @@phase@@, BETA = 0.4, DELTA = 0.1;
let alpha = 1.1, gamma = 0.4, prey = 10, pred = 10, t = 0, hist = [], running = false, raf = null;

function fit() {
  const w = Math.min(600, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function reset() { prey = 10; pred = 10; t = 0; hist = [[prey, pred]]; hud(); draw(); }
function deriv(x, y) { return [alpha * x - BETA * x * y, DELTA * x * y - gamma * y]; }
function step(dt) {  // fourth-order Runge-Kutta
  const [a1, b1] = deriv(prey, pred), [a2, b2] = deriv(prey + a1 * dt / 2, pred + b1 * dt / 2);
  const [a3, b3] = deriv(prey + a2 * dt / 2, pred + b2 * dt / 2), [a4, b4] = deriv(prey + a3 * dt, pred + b3 * dt);
  prey = Math.max(0.01, prey + dt * (a1 + 2 * a2 + 2 * a3 + a4) / 6);
  pred = Math.max(0.01, pred + dt * (b1 + 2 * b2 + 2 * b3 + b4) / 6);
  t += dt;
}
function hud() { $('prey').textContent = prey.toFixed(1); $('pred').textContent = pred.toFixed(1); $('year').textContent = t.toFixed(1); }
function draw() {
  const s = cv.width / LW;
  ctx.setTransform(s, 0, 0, s, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  const top = Math.max(30, ...hist.map(([x, y]) => Math.max(x, y))) * 1.1;
  ctx.strokeStyle = cssVar('--line'); ctx.strokeRect(40, 10, LW - 50, LH - 40);
  ctx.fillStyle = cssVar('--muted'); ctx.font = '12px sans-serif'; ctx.textAlign = 'right';
  for (let k = 0; k <= 4; k++) { const val = top * k / 4, y = LH - 30 - (LH - 40) * k / 4; ctx.fillText(val.toFixed(0), 36, y + 4); }
  const every = Math.ceil(hist.length / 120), pts = hist.filter((_, i) => i % every === 0 || i === hist.length - 1);
  if (PHASE) {
    ctx.strokeStyle = cssVar('--accent'); ctx.beginPath();
    pts.forEach(([x, y], i) => { const px = 40 + x / top * (LW - 50), py = LH - 30 - y / top * (LH - 40); i ? ctx.lineTo(px, py) : ctx.moveTo(px, py); });
    ctx.stroke(); ctx.textAlign = 'left'; ctx.fillStyle = cssVar('--fg'); ctx.fillText(T.phase, 48, 26);
    return;
  }
  const n = pts.length;
  for (const [k, colour] of [[0, '#16a34a'], [1, '#dc2626']]) {
    ctx.strokeStyle = colour; ctx.lineWidth = 2; ctx.beginPath();
    pts.forEach((p, i) => { const x = 40 + (LW - 50) * i / Math.max(n - 1, 1), y = LH - 30 - p[k] / top * (LH - 40); i ? ctx.lineTo(x, y) : ctx.moveTo(x, y); });
    ctx.stroke(); ctx.lineWidth = 1;
  }
}
function frame() {
  if (!running) return;
  for (let k = 0; k < 3; k++) step(0.02);
  hist.push([prey, pred]); if (hist.length > 360) hist.shift();
  hud(); draw(); raf = requestAnimationFrame(frame);
}
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (t > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); draw(); }); }
bindSlider('alpha', (x) => { alpha = x; });
bindSlider('gamma', (x) => { gamma = x; });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { reset(); setRunning(false); });
on('add', 'click', () => { prey += 5; hist.push([prey, pred]); hud(); draw(); kit.beep(700); });
onTap(cv, () => { prey += 5; hist.push([prey, pred]); hud(); draw(); });
kit.redraw = draw;
window.addEventListener('resize', fit);
reset(); fit();
""", phase="true" if v == "2" else "false")
    return App(title=PREDPREY["title"].get(spec.lang, PREDPREY["title"]["en"]),
               subtitle=PREDPREY["sub"].get(spec.lang, PREDPREY["sub"]["en"]), stage=stage, js=code, side=[settings],
               tools=feature_tools(spec, T), controls=["run", "reset", "add", "alpha", "gamma", "dark", "sound"], T=T)


WAVE = {
    "title": {"en": "Wave interference", "zh": "波的干涉演示", "es": "Interferencia de ondas", "fr": "Interférence des ondes",
              "de": "Welleninterferenz", "ja": "波の干渉", "pt": "Interferência de ondas", "ko": "파동 간섭"},
    "sub": {"en": "Two sources in phase. Bright bands: the waves add up; dark bands: they cancel. Tap to measure a point.",
            "es": "Dos fuentes en fase. Bandas claras: las ondas se suman; oscuras: se anulan. Toca para medir un punto."},
    "wavelength": {"en": "Wavelength", "es": "Longitud de onda"}, "gap": {"en": "Source spacing", "es": "Separación de las fuentes"},
    "probe": {"en": "Amplitude at the point", "es": "Amplitud en el punto"}, "constructive": {"en": "constructive", "es": "constructiva"},
    "destructive": {"en": "destructive", "es": "destructiva"}, "view": {"en": "View", "es": "Vista"},
    "field": {"en": "Wave field", "es": "Campo de ondas"}, "rings": {"en": "Wave crests", "es": "Crestas"},
}


def app_wave(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: WAVE[k] for k in WAVE if k not in ("title", "sub")})
    f = spec.features
    stats = f'<span>{T["probe"]}: <b id="probe">–</b></span>'
    if "score" in f:
        stats += f'<span>{T["score"]}: <b id="score">0</b></span>'
    stage = (f'<div class="stats">{stats}</div><canvas id="tank" width="480" height="320"></canvas>'
             f'<div class="row"><button id="run" class="primary" type="button">▶ {T["start"]}</button>'
             f'<button id="reset" type="button">{T["reset"]}</button></div>')
    settings = (_select("view", T["view"], [("field", T["field"]), ("rings", T["rings"])], 1 if v == "2" else 0)
                + _slider("lambda", T["wavelength"], 10, 60, 1, 28, " px") + _slider("gap", T["gap"], 20, 200, 5, 90, " px"))
    code = r"""
const cv = $('tank'), ctx = cv.getContext('2d');
const LW = 480, LH = 320, GW = 120, GH = 80;
const img = ctx.createImageData(GW, GH), off = document.createElement('canvas');
off.width = GW; off.height = GH;
let lambda = 28, gap = 90, phase = 0, running = false, raf = null, view = $('view').value, probe = null, score = 0;

function fit() {
  const w = Math.min(560, cv.parentElement.clientWidth - 28);
  cv.width = Math.round(w); cv.height = Math.round(w * LH / LW);
  draw();
}
function sources() { return [[LW / 2 - gap / 2, 0], [LW / 2 + gap / 2, 0]]; }
function amplitude(x, y, ph) {
  let a = 0;
  for (const [sx, sy] of sources()) { const d = Math.hypot(x - sx, y - sy); a += Math.cos(2 * Math.PI * d / lambda - ph); }
  return a;
}
function steady(x, y) {  // the time-independent envelope: |sum of the two phasors|
  const [[ax, ay], [bx, by]] = sources();
  const dd = Math.hypot(x - ax, y - ay) - Math.hypot(x - bx, y - by);
  return Math.abs(2 * Math.cos(Math.PI * dd / lambda));
}
function draw() {
  const s = cv.width / LW, accent = cssVar('--accent');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  if (view === 'field') {
    for (let j = 0; j < GH; j++) for (let i = 0; i < GW; i++) {
      const a = amplitude((i + .5) * LW / GW, (j + .5) * LH / GH, phase), k = 4 * (j * GW + i), c = 128 + 60 * a;
      img.data[k] = c * 0.55; img.data[k + 1] = c * 0.75; img.data[k + 2] = c; img.data[k + 3] = 255;
    }
    off.getContext('2d').putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = true; ctx.drawImage(off, 0, 0, cv.width, cv.height);
    ctx.setTransform(s, 0, 0, s, 0, 0);
  } else {
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
    ctx.strokeStyle = accent; ctx.globalAlpha = 0.7;
    for (const [sx, sy] of sources()) for (let r = (phase / (2 * Math.PI)) % 1 * lambda; r < 600; r += lambda) {
      ctx.beginPath(); ctx.arc(sx, sy, r, 0, Math.PI); ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
  ctx.fillStyle = '#f59e0b';
  for (const [sx, sy] of sources()) { ctx.beginPath(); ctx.arc(sx, sy + 4, 6, 0, Math.PI * 2); ctx.fill(); }
  if (probe) {
    ctx.strokeStyle = '#e11d48'; ctx.lineWidth = 2; ctx.beginPath(); ctx.arc(probe[0], probe[1], 9, 0, Math.PI * 2); ctx.stroke(); ctx.lineWidth = 1;
  }
}
function readProbe() {
  if (!probe) return;
  const a = steady(probe[0], probe[1]);
  $('probe').textContent = a.toFixed(2) + ' (' + (a > 1 ? T.constructive : T.destructive) + ')';
}
function frame() { if (!running) return; phase += 0.25; draw(); raf = requestAnimationFrame(frame); }
function setRunning(on) {
  running = on; cancelAnimationFrame(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (phase > 0 ? T.resume : T.start);
  if (on) raf = requestAnimationFrame(frame);
}
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); readProbe(); draw(); }); }
bindSlider('lambda', (x) => { lambda = x; });
bindSlider('gap', (x) => { gap = x; });
on('view', 'change', (e) => { view = e.target.value; draw(); });
on('run', 'click', () => setRunning(!running));
on('reset', 'click', () => { phase = 0; probe = null; $('probe').textContent = '–'; setRunning(false); draw(); });
onTap(cv, (e) => {
  const r = cv.getBoundingClientRect(), s = r.width / LW;
  probe = [(e.clientX - r.left) / s, (e.clientY - r.top) / s]; readProbe(); draw(); kit.beep(640);
  if ($('score') && steady(probe[0], probe[1]) > 1.6) { score += 1; $('score').textContent = score; }  // found a bright band
});
kit.redraw = draw;
window.addEventListener('resize', fit);
fit();
"""
    return App(title=WAVE["title"].get(spec.lang, WAVE["title"]["en"]),
               subtitle=WAVE["sub"].get(spec.lang, WAVE["sub"]["en"]), stage=stage, js=code, side=[settings],
               tools=feature_tools(spec, T), controls=["run", "reset", "lambda", "gap", "view", "dark", "sound"], T=T)


# =============================================================================================
# HTML engines: quizzes
# =============================================================================================

QUIZ_BANKS = {
    # French Revolution, in Chinese, two difficulty levels: (question, [answers], index of the right one)
    (9, "zh"): {
        "easy": [("法国大革命爆发于哪一年？", ["1789年", "1815年", "1848年", "1917年"], 0),
                 ("1789年7月14日，巴黎民众攻占了哪座建筑？", ["凡尔赛宫", "巴士底狱", "卢浮宫", "巴黎圣母院"], 1),
                 ("大革命初期通过的重要文件是？", ["《独立宣言》", "《大宪章》", "《人权和公民权宣言》", "《拿破仑法典》"], 2),
                 ("被送上断头台的法国国王是？", ["路易十四", "查理十世", "拿破仑", "路易十六"], 3)],
        "hard": [("三级会议中的“第三等级”主要指哪些人？", ["教士", "平民", "贵族", "国王卫队"], 1),
                 ("雅各宾派专政时期的主要领导人是？", ["罗伯斯庇尔", "拉法耶特", "黎塞留", "米拉波"], 0),
                 ("“恐怖统治”大约发生在哪一时期？", ["1789年", "1804—1815年", "1793—1794年", "1830年"], 2),
                 ("1799年通过雾月政变掌权的是？", ["丹东", "马拉", "罗伯斯庇尔", "拿破仑·波拿巴"], 3)],
    },
    # the water cycle, in Spanish
    (2, "es"): {
        "normal": [("¿Qué proceso convierte el agua líquida en vapor?", ["Evaporación", "Condensación", "Precipitación", "Infiltración"], 0),
                   ("¿Cómo se forman las nubes?", ["Por la fusión del hielo", "Por la condensación del vapor de agua", "Por el viento", "Por la evaporación de las rocas"], 1),
                   ("¿Qué fuente de energía mueve el ciclo del agua?", ["La Luna", "El viento", "El Sol", "Los volcanes"], 2),
                   ("¿Cómo se llama el agua que se filtra en el suelo?", ["Agua salada", "Agua de escorrentía", "Vapor de agua", "Agua subterránea"], 3),
                   ("¿Dónde está la mayor parte del agua dulce?", ["En glaciares y casquetes polares", "En los ríos", "En las nubes", "En los lagos"], 0)],
    },
    # climate change, in English
    (8, "en"): {
        "normal": [("Which gas is the main driver of human-caused warming?", ["Carbon dioxide", "Oxygen", "Nitrogen", "Helium"], 0),
                   ("About how much has Earth warmed since the late 1800s?", ["About 0.1 °C", "About 1.2 °C", "About 5 °C", "About 10 °C"], 1),
                   ("Which of these is a renewable energy source?", ["Coal", "Natural gas", "Wind", "Oil"], 2),
                   ("What does melting land ice mainly cause?", ["Longer days", "Colder summers", "Stronger gravity", "Sea-level rise"], 3),
                   ("Which activity releases the most CO₂ worldwide?", ["Burning fossil fuels", "Breathing", "Volcanoes", "Planting trees"], 0)],
    },
}
MCQ = {"title": {"en": "Quiz", "zh": "选择题测验", "es": "Cuestionario"},
       "sub": {"en": "Pick an answer, read the feedback, then go on to the next question.",
               "zh": "选出你认为正确的答案，看看反馈，再进入下一题。",
               "es": "Elige una respuesta, lee la explicación y pasa a la siguiente pregunta."},
       "you_chose": {"en": "You chose", "zh": "你选了", "es": "Elegiste"},
       "done": {"en": "Quiz finished! Your score:", "zh": "测验完成！你的得分：", "es": "¡Cuestionario terminado! Tu puntuación:"},
       "restart": {"en": "Restart", "zh": "重新开始", "es": "Empezar de nuevo"},
       "pick": {"en": "Pick an answer first.", "zh": "请先选择一个答案。", "es": "Elige primero una respuesta."}}


def app_mcq(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: MCQ[k] for k in ("you_chose", "done", "restart", "pick")})
    bank = QUIZ_BANKS[(spec.topic, spec.lang)]
    topic = LEX.TOPICS[spec.topic][spec.lang]
    levels = list(bank)
    f = spec.features
    radios = v == "2"
    settings = ""
    if len(levels) > 1:
        names = {"easy": T["easy"], "normal": T["normal"], "hard": T["hard"]}
        settings = _select("level", T["difficulty"], [(k, names[k]) for k in levels])
    check = f'<button id="check" class="primary" type="button">{T["check"]}</button>' if radios else ""
    stage = (f'{settings}<div class="stats"><span>{T["question"]} <b id="num">1</b> / <b id="total">{len(bank[levels[0]])}</b></span>'
             f'<span>{T["score"]}: <b id="score">0</b></span></div>'
             f'<h2 id="q"></h2><div id="answers" class="answers"></div><p id="chosen" class="muted"></p>'
             f'<p id="feedback" class="feedback" aria-live="polite"></p>'
             f'<div class="row">{check}<button id="next" type="button">{T["next"]} →</button>'
             f'<button id="reset" type="button">↺ {T["reset"] if "reset" in f else T["restart"]}</button></div>')
    css = (".answers{display:grid;gap:8px}.answers button{text-align:left;width:100%}"
           ".answers label{display:flex;gap:10px;align-items:center;padding:8px 10px;border:1px solid var(--line);border-radius:8px;cursor:pointer}"
           ".answers .right{background:#dcfce7;border-color:#16a34a;color:#14532d}.answers .wrong{background:#fee2e2;border-color:#dc2626;color:#7f1d1d}"
           ".feedback{font-weight:600;min-height:1.5em}")
    code = fill(r"""
const BANK = @@bank@@, RADIOS = @@radios@@;
let level = Object.keys(BANK)[0], idx = 0, score = 0, tried = false, picked = -1;

function questions() { return BANK[level]; }
function show() {
  const [text, answers] = questions()[idx];
  $('num').textContent = idx + 1; $('total').textContent = questions().length; $('score').textContent = score;
  $('q').textContent = text; $('feedback').textContent = ''; $('chosen').textContent = '';
  tried = false; picked = -1;
  [...$('answers').children].forEach((el, i) => {
    el.className = '';
    if (RADIOS) { el.lastChild.textContent = ' ' + answers[i]; el.firstChild.checked = false; }
    else el.textContent = String.fromCharCode(65 + i) + '. ' + answers[i];
  });
}
for (let i = 0; i < 4; i++) {  // four answer slots, refilled for every question
  if (RADIOS) {
    const label = document.createElement('label'), input = document.createElement('input');
    input.type = 'radio'; input.name = 'answer'; input.value = i;
    onTap(input, () => { picked = i; $('chosen').textContent = T.you_chose + ': ' + questions()[idx][1][i]; });
    label.append(input, document.createTextNode('')); $('answers').appendChild(label);
  } else {
    const b = document.createElement('button');
    b.type = 'button'; onTap(b, () => grade(i)); $('answers').appendChild(b);
  }
}
function grade(i) {
  const [, answers, right] = questions()[idx];
  if (i < 0) { $('feedback').textContent = T.pick; return; }
  if (!tried && i === right) score += 1;
  tried = true;
  $('score').textContent = score;
  [...$('answers').children].forEach((el, k) => { el.className = k === right ? 'right' : k === i ? 'wrong' : ''; });
  $('feedback').textContent = i === right ? '✔ ' + T.correct + ' ' + answers[right]
    : '✘ ' + T.wrong + ' — ' + T.you_chose + ' ' + answers[i] + '. ' + T.answer_is + ' ' + answers[right] + '.';
  kit.beep(i === right ? 880 : 240);
}
function next() {
  if (idx + 1 < questions().length) { idx += 1; show(); return; }
  $('feedback').textContent = T.done + ' ' + score + ' / ' + questions().length;
  idx = 0; score = 0; setTimeout(show, 1500);
}
on('check', 'click', () => grade(picked));
on('save', 'click', () => kit.record(score));
on('next', 'click', next);
on('reset', 'click', () => { idx = 0; score = 0; show(); $('feedback').textContent = '↺'; });
on('level', 'change', (e) => { level = e.target.value; idx = 0; score = 0; show(); });
show();
""", bank=js(bank), radios="true" if radios else "false")
    return App(title=f'{MCQ["title"].get(spec.lang, MCQ["title"]["en"])}: {topic}',
               subtitle=MCQ["sub"].get(spec.lang, MCQ["sub"]["en"]), stage=stage, js=code, css=css,
               side=[board_panel(T)] if "leaderboard" in f else [], tools=feature_tools(spec, T),
               controls=["check", "next", "reset", "level", "dark", "sound", "save"], T=T)


SPELLING_WORDS = {
    (5, "fr"): [("débarquement", "Opération alliée du 6 juin 1944 sur les plages de Normandie."),
                ("résistance", "Mouvement clandestin qui lutte contre l'occupant."),
                ("armistice", "Accord qui met fin aux combats, signé en juin 1940."),
                ("libération", "Fin de l'occupation de Paris, en août 1944."),
                ("occupation", "Présence de l'armée allemande en France de 1940 à 1944."),
                ("rationnement", "Limitation de la nourriture par des tickets pendant la guerre.")],
}
SPELLING = {"title": {"en": "Spelling practice", "fr": "Exercice d'orthographe"},
            "sub": {"en": "Read the definition and spell the word.",
                    "fr": "Lis la définition et écris le mot correctement, avec les accents."},
            "letters": {"en": "letters", "fr": "lettres"}, "placed": {"en": "letters in the right place", "fr": "lettres bien placées"},
            "starts": {"en": "The word starts with", "fr": "Le mot commence par"}, "erase": {"en": "Erase", "fr": "Effacer"},
            "answer": {"en": "Your answer", "fr": "Ta réponse"}}


def app_spelling(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: SPELLING[k] for k in ("letters", "placed", "starts", "erase", "answer")})
    words = SPELLING_WORDS[(spec.topic, spec.lang)]
    topic = LEX.TOPICS[spec.topic][spec.lang]
    tiles = v == "2"
    entry = ('<div id="tiles" class="tiles"></div><p class="answerline"><span id="typed"></span></p>' if tiles else
             f'<label class="row" for="answer">{T["answer"]} <input id="answer" type="text" autocomplete="off" spellcheck="false"></label>')
    stage = (f'<div class="stats"><span>{T["score"]}: <b id="score">0</b></span><span>{T["round"]} <b id="num">1</b> / {len(words)}</span></div>'
             f'<p id="definition" class="definition"></p><p id="slots" class="slots" aria-hidden="true"></p>{entry}'
             f'<p id="count" class="muted"></p>'
             f'<p id="feedback" class="feedback" aria-live="polite"></p>'
             f'<div class="row"><button id="check" class="primary" type="button">{T["check"]}</button>'
             + (f'<button id="erase" type="button">⌫ {T["erase"]}</button>' if tiles else "")
             + f'<button id="hint" type="button">{T["hint"]}</button><button id="next" type="button">{T["next"]} →</button></div>')
    css = (".definition{font-size:1.1rem}.slots{font:600 1.4rem/1.4 ui-monospace,monospace;letter-spacing:.25em;word-break:break-all}"
           ".feedback{font-weight:600;min-height:1.5em}.tiles{display:flex;flex-wrap:wrap;gap:6px}"
           ".tiles button{min-width:44px;font-weight:700;text-transform:uppercase}.tiles button.used{opacity:.35}"
           ".answerline{font:600 1.2rem ui-monospace,monospace;min-height:1.6em;border-bottom:2px solid var(--accent)}")
    code = fill(r"""
const WORDS = @@words@@, TILES = @@tiles@@;
let idx = 0, score = 0, shown = 1, typed = '', tried = false;

function word() { return WORDS[idx][0]; }
function slots(guess) {
  const w = word();
  $('slots').textContent = [...w].map((ch, i) => (guess[i] === ch ? ch : i < shown ? w[i] : '_')).join(' ');
  $('count').textContent = guess.length + ' / ' + w.length + ' ' + T.letters;
}
function current() { return TILES ? typed : $('answer').value.trim().toLowerCase(); }
function load() {
  const [w, definition] = WORDS[idx];
  shown = 1; typed = ''; tried = false;
  $('definition').textContent = definition + ' (' + w.length + ' ' + T.letters + ')';
  $('num').textContent = idx + 1; $('feedback').textContent = '';
  if (TILES) {
    const box = $('tiles'); box.innerHTML = '';
    [...w].map((ch, i) => [ch, (i * 7 + 3) % w.length]).sort((a, b) => a[1] - b[1]).forEach(([ch]) => {
      const b = document.createElement('button'); b.type = 'button'; b.textContent = ch;
      b.addEventListener('click', () => { if (b.classList.contains('used')) return; b.classList.add('used'); typed += ch; $('typed').textContent = typed; slots(typed); });
      box.appendChild(b);
    });
    $('typed').textContent = '';
  } else $('answer').value = '';
  slots('');
}
function check() {
  const guess = current(), w = word();
  if (guess === w) {
    if (!tried) score += 1;
    $('score').textContent = score; $('feedback').textContent = '✔ ' + T.correct + ' « ' + w + ' »'; kit.beep(880);
  } else {
    const placed = [...w].filter((ch, i) => guess[i] === ch).length;
    $('feedback').textContent = '✘ ' + T.wrong + ' — ' + placed + ' / ' + w.length + ' ' + T.placed + ' (« ' + (guess || '…') + ' »)';
    kit.beep(240);
  }
  tried = true;
}
on('answer', 'input', (e) => slots(e.target.value.trim().toLowerCase()));
on('answer', 'keydown', (e) => { if (e.key === 'Enter') check(); });
on('check', 'click', check);
on('hint', 'click', () => {
  shown = Math.min(word().length, shown + 1);
  slots(current()); $('feedback').textContent = T.starts + ' « ' + word().slice(0, shown) + ' »';
});
on('erase', 'click', () => {
  if (!typed) return;
  const last = typed.slice(-1); typed = typed.slice(0, -1);
  const used = [...$('tiles').children].reverse().find((b) => b.classList.contains('used') && b.textContent === last);
  if (used) used.classList.remove('used');
  $('typed').textContent = typed; slots(typed);
});
on('next', 'click', () => { idx = (idx + 1) % WORDS.length; load(); });
load();
""", words=js(words), tiles="true" if tiles else "false")
    return App(title=f'{SPELLING["title"].get(spec.lang, SPELLING["title"]["en"])} : {topic}',
               subtitle=SPELLING["sub"].get(spec.lang, SPELLING["sub"]["en"]), stage=stage, js=code, css=css,
               side=[board_panel(T)] if "leaderboard" in spec.features else [], tools=feature_tools(spec, T),
               controls=["answer", "check", "hint", "next", "erase", "dark", "sound", "save"], T=T)


# =============================================================================================
# HTML engines: data visualisation
# =============================================================================================

# population 2023 (millions) and yearly growth (%), rounded UN estimates
COUNTRIES = [("India", 1429, 0.8), ("China", 1410, -0.1), ("United States", 340, 0.5), ("Indonesia", 278, 0.7),
             ("Pakistan", 240, 1.9), ("Nigeria", 224, 2.4), ("Brazil", 216, 0.5), ("Bangladesh", 173, 1.0),
             ("Russia", 144, -0.3), ("Mexico", 128, 0.7)]
BARPOP = {"title": {"en": "World population explorer"},
          "sub": {"en": "The ten most populous countries. Project them forward with the sliders; click a bar for its numbers."},
          "years": {"en": "Years ahead"}, "growth": {"en": "Growth multiplier"}, "sort": {"en": "Sort"},
          "by_size": {"en": "By population"}, "by_name": {"en": "Alphabetical"}, "by_growth": {"en": "By growth rate"},
          "top": {"en": "Top 5 in"}, "millions": {"en": "million"}, "per_year": {"en": "per year"},
          "pick": {"en": "Click a bar to see its numbers."}}


def app_barpop(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: BARPOP[k] for k in BARPOP if k not in ("title", "sub")})
    svg = v == "2"
    chart = ('<svg id="chart" viewBox="0 0 560 320" role="img" aria-label="bar chart"></svg>' if svg
             else '<canvas id="chart" width="560" height="320"></canvas>')
    stage = (f'<h2 id="heading"></h2>{chart}<p id="detail" class="muted">{T["pick"]}</p>'
             + _slider("years", T["years"], 0, 30, 1, 0) + _slider("growth", T["growth"], 0.5, 2, 0.1, 1, "×")
             + _select("sort", T["sort"], [("size", T["by_size"]), ("name", T["by_name"]), ("growth", T["by_growth"])]))
    side = [f'<h2>{T["leaderboard"]}</h2><p class="muted" id="board-title"></p><ol id="rank" class="lb"></ol>']
    css = "svg{width:100%;height:auto;display:block}svg rect.bar{cursor:pointer}"
    code = fill(r"""
const DATA = @@data@@, SVG = @@svg@@, HORIZONTAL = @@horizontal@@;
const el = $('chart'), LW = 560, LH = 320;
let years = 0, growth = 1, order = 'size', picked = -1;

function projected(d) { return d[1] * Math.pow(1 + d[2] * growth / 100, years); }
function rows() {
  const r = DATA.map((d, i) => ({i, name: d[0], now: d[1], rate: d[2], value: projected(d)}));
  if (order === 'size') r.sort((a, b) => b.value - a.value);
  else if (order === 'name') r.sort((a, b) => a.name.localeCompare(b.name));
  else r.sort((a, b) => b.rate - a.rate);
  return r;
}
function fmt(x) { return Math.round(x).toLocaleString('en-US'); }
function geometry(r) {
  const max = Math.max(...r.map((d) => d.value)) * 1.08;
  return r.map((d, k) => {
    if (HORIZONTAL) { const h = (LH - 20) / r.length; return {d, x: 120, y: 10 + k * h + 3, w: (LW - 180) * d.value / max, h: h - 6}; }
    const w = (LW - 50) / r.length, h = (LH - 70) * d.value / max;
    return {d, x: 40 + k * w + 4, y: LH - 50 - h, w: w - 8, h};
  });
}
function draw() {
  const r = rows(), bars = geometry(r), accent = cssVar('--accent'), fg = cssVar('--fg'), deep = '#f59e0b';
  $('heading').textContent = 'Population, ' + (2023 + years) + ' (' + T.millions + ')';
  if (SVG) {  // one group per country, created once and moved around: clicks keep their targets
    if (!el.childNodes.length) {
      el.innerHTML = '<line x1="116" y1="8" x2="116" y2="' + (LH - 8) + '" stroke="' + fg + '"/>' + DATA.map((d, i) =>
        '<g data-i="' + i + '"><rect class="bar" rx="4"/><text class="name" font-size="13" text-anchor="end"/><text class="val" font-size="13"/></g>').join('');
      el.querySelectorAll('g').forEach((node) => onTap(node.querySelector('rect'), () => pick(+node.dataset.i)));
    }
    for (const b of bars) {
      const g = el.querySelector('g[data-i="' + b.d.i + '"]'), [rect, name, val] = g.children;
      rect.setAttribute('x', b.x); rect.setAttribute('y', b.y); rect.setAttribute('width', Math.max(1, b.w)); rect.setAttribute('height', b.h);
      rect.setAttribute('fill', b.d.i === picked ? deep : accent);
      name.setAttribute('x', 110); name.setAttribute('y', b.y + b.h / 2 + 5); name.setAttribute('fill', fg); name.textContent = b.d.name;
      val.setAttribute('x', b.x + b.w + 5); val.setAttribute('y', b.y + b.h / 2 + 5); val.setAttribute('fill', fg); val.textContent = fmt(b.d.value);
    }
  } else {
    const ctx = el.getContext('2d'), s = el.width / LW;
    ctx.setTransform(s, 0, 0, s, 0, 0);
    ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
    ctx.font = '12px sans-serif'; ctx.fillStyle = fg;
    for (const b of bars) {
      ctx.fillStyle = b.d.i === picked ? deep : accent; ctx.fillRect(b.x, b.y, b.w, b.h);
      ctx.fillStyle = fg;
      if (HORIZONTAL) {
        ctx.textAlign = 'right'; ctx.fillText(b.d.name, 112, b.y + b.h / 2 + 4);
        ctx.textAlign = 'left'; ctx.fillText(fmt(b.d.value), b.x + b.w + 4, b.y + b.h / 2 + 4);
      } else {
        ctx.textAlign = 'center'; ctx.fillText(fmt(b.d.value), b.x + b.w / 2, b.y - 4);
        ctx.save(); ctx.translate(b.x + b.w / 2, LH - 36); ctx.rotate(-0.6); ctx.textAlign = 'right'; ctx.fillText(b.d.name, 0, 0); ctx.restore();
      }
    }
  }
  const top = [...DATA].sort((a, b) => projected(b) - projected(a)).slice(0, 5);
  $('board-title').textContent = T.top + ' ' + (2023 + years);
  $('rank').innerHTML = top.map((d) => '<li>' + d[0] + ' — ' + fmt(projected(d)) + ' M</li>').join('');
}
function pick(i) {
  picked = i;
  const d = DATA[i];
  $('detail').textContent = d[0] + ': ' + fmt(d[1]) + ' M (2023) → ' + fmt(projected(d)) + ' M (' + (2023 + years) + '), '
    + (d[2] * growth >= 0 ? '+' : '') + (d[2] * growth).toFixed(2) + ' % ' + T.per_year;
  draw();
}
function fit() {
  if (SVG) return draw();
  const w = Math.min(620, el.parentElement.clientWidth - 28);
  el.width = Math.round(w); el.height = Math.round(w * LH / LW); draw();
}
function bindSlider(id, apply) {
  on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); if (picked >= 0) pick(picked); else draw(); });
}
bindSlider('years', (x) => { years = x; });
bindSlider('growth', (x) => { growth = x; });
on('sort', 'change', (e) => { order = e.target.value; draw(); });
if (!SVG) onTap(el, (e) => {  // which bar is under the pointer?
  const r = el.getBoundingClientRect(), s = r.width / LW, x = (e.clientX - r.left) / s, y = (e.clientY - r.top) / s;
  const hit = geometry(rows()).find((b) => (HORIZONTAL ? y >= b.y - 3 && y <= b.y + b.h + 3 : x >= b.x - 4 && x <= b.x + b.w + 4));
  if (hit) pick(hit.d.i);
});
kit.redraw = draw;
window.addEventListener('resize', fit);
fit();
""", data=js(COUNTRIES), svg="true" if svg else "false", horizontal="true" if v != "1" else "false")
    return App(title=BARPOP["title"]["en"], subtitle=BARPOP["sub"]["en"], stage=stage, js=code, side=side, css=css,
               tools=feature_tools(spec, T), controls=["years", "growth", "sort", "dark", "sound"], T=T)


CITIES = {  # monthly mean temperature, °C (climate normals, rounded)
    "北京": [-3.1, 0.3, 6.7, 14.8, 20.8, 24.9, 26.7, 25.5, 20.8, 13.7, 5.0, -0.9],
    "上海": [4.8, 6.6, 10.3, 15.8, 20.9, 24.9, 29.0, 28.5, 24.8, 19.7, 13.7, 7.4],
    "广州": [13.9, 15.1, 18.0, 22.2, 25.9, 27.8, 28.9, 28.8, 27.5, 24.8, 20.4, 15.6],
    "Lisboa": [11.6, 12.6, 14.9, 16.0, 18.2, 21.4, 23.2, 23.6, 22.2, 19.2, 15.1, 12.6],
    "Porto": [9.7, 10.5, 12.6, 13.6, 15.8, 18.6, 20.3, 20.5, 19.3, 16.6, 12.9, 10.8],
    "São Paulo": [22.4, 22.7, 22.0, 20.1, 17.8, 16.8, 16.1, 17.3, 18.2, 19.4, 20.5, 21.4],
    "Paris": [5.0, 5.6, 8.8, 11.5, 15.2, 18.3, 20.5, 20.3, 16.9, 13.0, 8.3, 5.5],
    "Marseille": [7.5, 8.5, 11.3, 14.1, 18.0, 22.0, 24.8, 24.4, 20.5, 16.5, 11.4, 8.3],
    "Montréal": [-9.7, -7.7, -2.0, 6.4, 13.4, 18.6, 21.2, 20.1, 15.5, 8.5, 2.1, -5.4],
    "Berlin": [0.6, 1.4, 4.8, 9.9, 14.6, 17.9, 20.0, 19.7, 15.3, 10.1, 5.2, 1.6],
    "München": [-0.5, 0.7, 4.5, 9.0, 13.4, 16.9, 18.9, 18.4, 14.3, 9.5, 4.1, 0.6],
    "Hamburg": [1.6, 2.2, 4.9, 9.0, 13.1, 16.2, 18.4, 18.1, 14.8, 10.3, 5.8, 2.6],
}
LINE_CITIES = {"zh": ["北京", "上海", "广州"], "pt": ["Lisboa", "Porto", "São Paulo"], "fr": ["Paris", "Marseille", "Montréal"],
               "de": ["Berlin", "München", "Hamburg"]}
LINETEMP = {
    "title": {"zh": "全年气温变化折线图", "pt": "Temperatura ao longo do ano", "fr": "Courbe des températures sur un an", "en": "Temperature over a year",
              "de": "Temperaturverlauf über das Jahr"},
    "sub": {"zh": "月平均气温。用方向键或 ◀ ▶ 移动光标，点击图表查看某个月。",
            "pt": "Temperatura média mensal. Use ▶ para animar a curva, clique no gráfico para ver um mês.",
            "fr": "Températures moyennes mensuelles. Clique sur la courbe pour lire un mois.",
            "en": "Monthly mean temperature. Move the cursor with the arrows, click the chart to read a month.",
            "de": "Monatsmittel der Temperatur. Pfeiltasten ←/→ wählen den Monat, ↑/↓ die Stadt; ein Klick ins Diagramm zeigt einen Monat."},
    "city": {"zh": "城市", "pt": "Cidade", "fr": "Ville", "en": "City", "de": "Stadt"},
    "unit": {"zh": "单位", "pt": "Unidade", "fr": "Unité", "en": "Unit", "de": "Einheit"},
    "mean": {"zh": "年平均", "pt": "Média anual", "fr": "Moyenne annuelle", "en": "Annual mean", "de": "Jahresmittel"},
    "hottest": {"zh": "最热月", "pt": "Mês mais quente", "fr": "Mois le plus chaud", "en": "Warmest month", "de": "Wärmster Monat"},
    "coldest": {"zh": "最冷月", "pt": "Mês mais frio", "fr": "Mois le plus froid", "en": "Coldest month", "de": "Kältester Monat"},
    "animate": {"zh": "播放", "pt": "Animar", "fr": "Animer", "en": "Animate", "de": "Abspielen"},
    "tab_table": {"fr": "Tableau", "en": "Table", "de": "Tabelle"}, "tab_stats": {"fr": "Statistiques", "en": "Statistics", "de": "Statistik"},
    "tab_about": {"fr": "À propos", "en": "About", "de": "Info"}, "month": {"zh": "月份", "pt": "Mês", "fr": "Mois", "en": "Month", "de": "Monat"},
    "about": {"fr": "Moyennes climatiques 1991-2020 arrondies au dixième. La courbe relie les moyennes de chaque mois ; "
                    "l'écart entre le mois le plus chaud et le plus froid s'appelle l'amplitude thermique annuelle.",
              "en": "1991-2020 climate normals, rounded. The annual range is the gap between the warmest and coldest months.",
              "de": "Klimamittel 1991–2020, gerundet. Die Jahresschwankung ist der Abstand zwischen dem wärmsten und dem kältesten Monat."},
    "range": {"fr": "Amplitude annuelle", "en": "Annual range", "de": "Jahresschwankung"},
    "how": {"fr": "Comment lire ce graphique", "en": "How to read this chart", "de": "So liest du das Diagramm"},
}


LINE_KEYS = r"""onKeys((e) => {  // left / right: month, up / down: city
  if (e.code === 'ArrowLeft') { e.preventDefault(); move(-1); }
  else if (e.code === 'ArrowRight') { e.preventDefault(); move(1); }
  else if (e.code === 'ArrowUp' || e.code === 'ArrowDown') {
    e.preventDefault();
    const k = (NAMES.indexOf(city) + (e.code === 'ArrowUp' ? -1 : 1) + NAMES.length) % NAMES.length;
    city = NAMES[k]; $('city').value = city; update();
  }
});
"""


def app_linetemp(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: LINETEMP[k] for k in LINETEMP if k not in ("title", "sub")})
    f = spec.features
    cities = LINE_CITIES[spec.lang]
    svg = v == "2"
    animate = "pause" in f
    chart = ('<svg id="chart" viewBox="0 0 560 320" role="img" aria-label="line chart"></svg>' if svg
             else '<canvas id="chart" width="560" height="320"></canvas>')
    buttons = ('<button id="prev" type="button" aria-label="previous month">◀</button>'
               '<button id="next" type="button" aria-label="next month">▶</button>'
               '<button id="unit" type="button">°C → °F</button>')
    if animate:
        buttons += f'<button id="play" class="primary" type="button">▶ {T["animate"]}</button>'
    if "reset" in f:
        buttons += f'<button id="reset" type="button">↺ {T["reset"]}</button>'
    stage = (_select("city", T["city"], [(c, c) for c in cities]) + chart
             + f'<p id="readout" class="stats"></p><div class="row">{buttons}</div>')
    stats = (f'<ul class="plain"><li>{T["mean"]}: <b id="mean"></b></li><li>{T["hottest"]}: <b id="hot"></b></li>'
             f'<li>{T["coldest"]}: <b id="cold"></b></li></ul>')
    side = [stats]
    css = "svg{width:100%;height:auto;display:block}ul.plain{list-style:none;margin:0;padding:0;display:grid;gap:4px}"
    if v == "4":  # a page with tabs under the chart
        tabs = [("table", T["tab_table"]), ("stats", T["tab_stats"]), ("about", T["tab_about"])]
        side = ['<div class="tabs" role="tablist">' + "".join(
                    f'<button id="tab-{k}" type="button" role="tab" class="tab{" on" if i == 0 else ""}" data-panel="{k}">{name}</button>'
                    for i, (k, name) in enumerate(tabs)) + '</div>'
                + '<div id="panel-table" class="tabpanel"><table class="data"><thead><tr><th>' + T["month"] + '</th><th>°C</th></tr></thead><tbody id="rows"></tbody></table></div>'
                + f'<div id="panel-stats" class="tabpanel" hidden>{stats}<p>{T["range"]}: <b id="range"></b></p></div>'
                + f'<div id="panel-about" class="tabpanel" hidden><p>{T["about"]}</p></div>']
        css += (".tabs{display:flex;flex-wrap:wrap;gap:4px;border-bottom:2px solid var(--accent)}.tab{border-radius:8px 8px 0 0;border-bottom:none}"
                ".tab.on{background:var(--accent);color:#fff}.tabpanel{padding-top:8px}table.data{border-collapse:collapse;width:100%}"
                "table.data td,table.data th{border:1px solid var(--line);padding:4px 8px;text-align:left}")
    elif v == "5":  # a page of accordions
        side = [f'<details id="acc-table"><summary>{T["tab_table"]}</summary><table class="data"><thead><tr><th>{T["month"]}</th>'
                f'<th>°C</th></tr></thead><tbody id="rows"></tbody></table></details>'
                f'<details id="acc-stats" open><summary>{T["tab_stats"]}</summary>{stats}<p>{T["range"]}: <b id="range"></b></p></details>'
                f'<details id="acc-about"><summary>{T["how"]}</summary><p>{T["about"]}</p></details>']
        css += ("details{border:1px solid var(--line);border-radius:10px;padding:8px 12px}summary{cursor:pointer;font-weight:700;min-height:32px}"
                "table.data{border-collapse:collapse;width:100%;margin-top:6px}table.data td,table.data th{border:1px solid var(--line);padding:4px 8px;text-align:left}")
    code = fill(r"""
const CITIES = @@cities@@, NAMES = Object.keys(CITIES), SVG = @@svg@@, AREA = @@area@@, ANIMATE = @@animate@@;
const el = $('chart'), LW = 560, LH = 320;
let city = NAMES[0], fahrenheit = false, cursor = 6, shown = 12, playing = false, timer = null;

function conv(c) { return fahrenheit ? c * 9 / 5 + 32 : c; }
function unit() { return fahrenheit ? '°F' : '°C'; }
function scale() {
  const all = NAMES.flatMap((n) => CITIES[n]).map(conv), lo = Math.floor(Math.min(...all) / 5) * 5, hi = Math.ceil(Math.max(...all) / 5) * 5;
  return {lo, hi, x: (m) => 50 + m * (LW - 80) / 11, y: (t) => LH - 40 - (conv(t) - lo) / (hi - lo) * (LH - 70)};
}
function readouts() {
  const t = CITIES[city], mean = t.reduce((a, b) => a + b, 0) / 12;
  const hot = t.indexOf(Math.max(...t)), cold = t.indexOf(Math.min(...t));
  $('readout').textContent = city + ' · ' + T.months[cursor] + ': ' + conv(t[cursor]).toFixed(1) + ' ' + unit();
  $('mean').textContent = conv(mean).toFixed(1) + ' ' + unit();
  $('hot').textContent = T.months[hot] + ' (' + conv(t[hot]).toFixed(1) + ' ' + unit() + ')';
  $('cold').textContent = T.months[cold] + ' (' + conv(t[cold]).toFixed(1) + ' ' + unit() + ')';
  if ($('range')) $('range').textContent = (conv(t[hot]) - conv(t[cold])).toFixed(1) + (fahrenheit ? ' °F' : ' °C');
  if ($('rows')) $('rows').innerHTML = t.map((c, m) => '<tr><td>' + T.months[m] + '</td><td>' + conv(c).toFixed(1) + '</td></tr>').join('');
}
function draw() {
  const s = scale(), t = CITIES[city], accent = cssVar('--accent'), fg = cssVar('--fg'), line = cssVar('--line');
  const pts = t.slice(0, shown).map((c, m) => [s.x(m), s.y(c)]);
  if (SVG) {
    const p = [];
    for (let v = s.lo; v <= s.hi; v += 5) p.push('<line x1="45" x2="' + (LW - 20) + '" y1="' + s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + '" y2="' + s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + '" stroke="' + line + '"/><text x="40" y="' + (s.y(fahrenheit ? (v - 32) * 5 / 9 : v) + 4) + '" font-size="12" text-anchor="end" fill="' + fg + '">' + v + '</text>');
    T.months.forEach((m, i) => p.push('<text x="' + s.x(i) + '" y="' + (LH - 18) + '" font-size="12" text-anchor="middle" fill="' + fg + '">' + m + '</text>'));
    p.push('<polyline fill="none" stroke="' + accent + '" stroke-width="3" points="' + pts.map((q) => q.join(',')).join(' ') + '"/>');
    pts.forEach(([x, y], i) => p.push('<circle cx="' + x + '" cy="' + y + '" r="' + (i === cursor ? 8 : 4) + '" fill="' + (i === cursor ? '#e11d48' : accent) + '"/>'));
    el.innerHTML = p.join('');
    return;
  }
  const ctx = el.getContext('2d'), k = el.width / LW;
  ctx.setTransform(k, 0, 0, k, 0, 0);
  ctx.fillStyle = cssVar('--panel'); ctx.fillRect(0, 0, LW, LH);
  ctx.font = '12px sans-serif'; ctx.fillStyle = fg; ctx.strokeStyle = line;
  for (let v = s.lo; v <= s.hi; v += 5) {
    const y = LH - 40 - (v - s.lo) / (s.hi - s.lo) * (LH - 70);
    ctx.beginPath(); ctx.moveTo(45, y); ctx.lineTo(LW - 20, y); ctx.stroke(); ctx.textAlign = 'right'; ctx.fillText(v, 40, y + 4);
  }
  ctx.textAlign = 'center';
  T.months.forEach((m, i) => ctx.fillText(m, s.x(i), LH - 18));
  if (AREA && pts.length) {
    const g = ctx.createLinearGradient(0, 0, 0, LH); g.addColorStop(0, accent); g.addColorStop(1, 'rgba(255,255,255,0)');
    ctx.fillStyle = g; ctx.globalAlpha = 0.35; ctx.beginPath(); ctx.moveTo(pts[0][0], LH - 40);
    pts.forEach(([x, y]) => ctx.lineTo(x, y)); ctx.lineTo(pts[pts.length - 1][0], LH - 40); ctx.fill(); ctx.globalAlpha = 1;
  }
  ctx.strokeStyle = accent; ctx.lineWidth = 3; ctx.beginPath();
  pts.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y))); ctx.stroke(); ctx.lineWidth = 1;
  pts.forEach(([x, y], i) => { ctx.fillStyle = i === cursor ? '#e11d48' : accent; ctx.beginPath(); ctx.arc(x, y, i === cursor ? 7 : 4, 0, Math.PI * 2); ctx.fill(); });
}
function update() { readouts(); draw(); }
function move(by) { cursor = (cursor + by + 12) % 12; update(); }
function play(on) {
  playing = on; clearInterval(timer);
  if ($('play')) $('play').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (shown < 12 ? T.resume : T.animate);
  if (!on) return;
  if (shown >= 12) shown = 0;
  timer = setInterval(() => { shown += 1; cursor = Math.max(0, shown - 1); update(); if (shown >= 12) play(false); }, 300);
}
function fit() {
  if (SVG) return draw();
  const w = Math.min(620, el.parentElement.clientWidth - 28);
  el.width = Math.round(w); el.height = Math.round(w * LH / LW); draw();
}
on('city', 'change', (e) => { city = e.target.value; update(); });
on('prev', 'click', () => move(-1));
on('next', 'click', () => move(1));
on('unit', 'click', () => { fahrenheit = !fahrenheit; $('unit').textContent = fahrenheit ? '°F → °C' : '°C → °F'; update(); });
on('play', 'click', () => play(!playing));
on('reset', 'click', () => {
  play(false); city = NAMES[0]; fahrenheit = false; cursor = 6; shown = 12;
  $('city').value = city; $('unit').textContent = '°C → °F'; if ($('play')) $('play').textContent = '▶ ' + T.animate; update();
});
onTap(el, (e) => {  // the month nearest to the pointer
  const r = el.getBoundingClientRect(), x = (e.clientX - r.left) / r.width * LW;
  cursor = Math.max(0, Math.min(11, Math.round((x - 50) / ((LW - 80) / 11)))); update();
});
@@keys@@document.querySelectorAll('.tab').forEach((tab) => onTap(tab, () => {
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('on', t === tab));
  document.querySelectorAll('.tabpanel').forEach((p) => { p.hidden = p.id !== 'panel-' + tab.dataset.panel; });
}));
kit.redraw = draw;
window.addEventListener('resize', fit);
readouts(); fit();
""", cities=js({c: CITIES[c] for c in cities}), svg="true" if svg else "false", area="true" if v == "3" else "false",
        animate="true" if animate else "false", keys=LINE_KEYS if "arrows" in f else "")
    return App(title=LINETEMP["title"].get(spec.lang, LINETEMP["title"]["en"]),
               subtitle=LINETEMP["sub"].get(spec.lang, LINETEMP["sub"]["en"]), stage=stage, js=code, side=side, css=css,
               tools=feature_tools(spec, T), controls=["city", "prev", "next", "unit", "play", "reset", "dark", "sound",
                                                      "tab-table", "tab-stats", "tab-about"], T=T)


# =============================================================================================
# HTML engines: 3D (WebGL)
# =============================================================================================

# A small WebGL 1 toolkit shared by the 3D pages: one lit shader, sphere / cylinder / ring meshes,
# 4x4 matrices (column-major, as WebGL wants them).
GL_LIB = r"""
const M4 = {
  mul(a, b) { const o = new Float32Array(16); for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) { let s = 0; for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k]; o[c * 4 + r] = s; } return o; },
  persp(fov, asp, n, f) { const t = 1 / Math.tan(fov / 2); return new Float32Array([t / asp, 0, 0, 0, 0, t, 0, 0, 0, 0, (f + n) / (n - f), -1, 0, 0, 2 * f * n / (n - f), 0]); },
  move(x, y, z) { return new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1]); },
  size(s) { return new Float32Array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1]); },
  rotX(a) { const c = Math.cos(a), s = Math.sin(a); return new Float32Array([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]); },
  rotY(a) { const c = Math.cos(a), s = Math.sin(a); return new Float32Array([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]); },
  // a unit cylinder (z from 0 to 1) stretched from point a to point b with radius r
  between(a, b, r) {
    const d = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], len = Math.hypot(...d) || 1, z = d.map((v) => v / len);
    const up = Math.abs(z[1]) < 0.9 ? [0, 1, 0] : [1, 0, 0];
    let x = [up[1] * z[2] - up[2] * z[1], up[2] * z[0] - up[0] * z[2], up[0] * z[1] - up[1] * z[0]];
    const xl = Math.hypot(...x); x = x.map((v) => v / xl);
    const y = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]];
    return new Float32Array([x[0] * r, x[1] * r, x[2] * r, 0, y[0] * r, y[1] * r, y[2] * r, 0, d[0], d[1], d[2], 0, a[0], a[1], a[2], 1]);
  },
};
function glStart(canvas) {
  const gl = canvas.getContext('webgl', {antialias: true});
  const src = {
    v: 'attribute vec3 p; attribute vec3 n; uniform mat4 vp; uniform mat4 model; varying vec3 vn;' +
       'void main() { vn = (model * vec4(n, 0.0)).xyz; gl_Position = vp * model * vec4(p, 1.0); }',
    f: 'precision mediump float; varying vec3 vn; uniform vec3 color; uniform float glow;' +
       'void main() { float l = max(dot(normalize(vn), normalize(vec3(0.5, 0.8, 0.6))), 0.0);' +
       'gl_FragColor = vec4(color * (glow + (1.0 - glow) * (0.3 + 0.7 * l)), 1.0); }',
  };
  const prog = gl.createProgram();
  for (const [type, code] of [[gl.VERTEX_SHADER, src.v], [gl.FRAGMENT_SHADER, src.f]]) {
    const sh = gl.createShader(type); gl.shaderSource(sh, code); gl.compileShader(sh); gl.attachShader(prog, sh);
  }
  gl.linkProgram(prog); gl.useProgram(prog); gl.enable(gl.DEPTH_TEST);
  const at = {p: gl.getAttribLocation(prog, 'p'), n: gl.getAttribLocation(prog, 'n')};
  const un = {vp: gl.getUniformLocation(prog, 'vp'), model: gl.getUniformLocation(prog, 'model'),
              color: gl.getUniformLocation(prog, 'color'), glow: gl.getUniformLocation(prog, 'glow')};
  function mesh(pos, nor, idx, mode) {
    const b = (data, target) => { const buf = gl.createBuffer(); gl.bindBuffer(target, buf); gl.bufferData(target, data, gl.STATIC_DRAW); return buf; };
    return {p: b(new Float32Array(pos), gl.ARRAY_BUFFER), n: b(new Float32Array(nor), gl.ARRAY_BUFFER),
            i: b(new Uint16Array(idx), gl.ELEMENT_ARRAY_BUFFER), count: idx.length, mode: mode === undefined ? gl.TRIANGLES : mode};
  }
  function sphere(seg) {
    const pos = [], idx = [];
    for (let i = 0; i <= seg; i++) for (let j = 0; j <= seg * 2; j++) {
      const th = i * Math.PI / seg, ph = j * Math.PI / seg;
      pos.push(Math.sin(th) * Math.cos(ph), Math.cos(th), Math.sin(th) * Math.sin(ph));
    }
    for (let i = 0; i < seg; i++) for (let j = 0; j < seg * 2; j++) {
      const a = i * (seg * 2 + 1) + j, b = a + seg * 2 + 1; idx.push(a, b, a + 1, b, b + 1, a + 1);
    }
    return mesh(pos, pos, idx);
  }
  function cylinder(seg) {
    const pos = [], nor = [], idx = [];
    for (let j = 0; j <= seg; j++) { const a = j * 2 * Math.PI / seg, c = Math.cos(a), s = Math.sin(a); pos.push(c, s, 0, c, s, 1); nor.push(c, s, 0, c, s, 0); }
    for (let j = 0; j < seg; j++) { const a = j * 2; idx.push(a, a + 1, a + 2, a + 1, a + 3, a + 2); }
    return mesh(pos, nor, idx);
  }
  function ring(seg) {
    const pos = [], idx = [];
    for (let j = 0; j < seg; j++) { const a = j * 2 * Math.PI / seg; pos.push(Math.cos(a), 0, Math.sin(a)); idx.push(j); }
    return mesh(pos, pos, idx, gl.LINE_LOOP);
  }
  function draw(m, model, vp, color, glow) {
    gl.bindBuffer(gl.ARRAY_BUFFER, m.p); gl.enableVertexAttribArray(at.p); gl.vertexAttribPointer(at.p, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ARRAY_BUFFER, m.n); gl.enableVertexAttribArray(at.n); gl.vertexAttribPointer(at.n, 3, gl.FLOAT, false, 0, 0);
    gl.bindBuffer(gl.ELEMENT_ARRAY_BUFFER, m.i);
    gl.uniformMatrix4fv(un.vp, false, vp); gl.uniformMatrix4fv(un.model, false, model);
    gl.uniform3fv(un.color, color); gl.uniform1f(un.glow, glow || 0);
    gl.drawElements(m.mode, m.count, gl.UNSIGNED_SHORT, 0);
  }
  function clear(rgb) { gl.viewport(0, 0, canvas.width, canvas.height); gl.clearColor(rgb[0], rgb[1], rgb[2], 1); gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT); }
  return {gl, sphere, cylinder, ring, draw, clear};
}
function hexRgb(h) { const n = parseInt(h.slice(1), 16); return [(n >> 16 & 255) / 255, (n >> 8 & 255) / 255, (n & 255) / 255]; }
"""

SOLAR = {
    "title": {"es": "Sistema solar 3D", "en": "3D solar system", "zh": "3D太阳系模型", "fr": "Système solaire 3D", "de": "3D-Sonnensystem",
              "ja": "3D太陽系", "pt": "Sistema solar 3D", "ko": "3D 태양계"},
    "sub": {"es": "Modelo en WebGL: los planetas giran a velocidades proporcionales a las reales. Toca la escena para elegir un planeta; las flechas giran la vista.",
            "en": "WebGL model: the planets orbit at speeds proportional to the real ones. Tap the scene to pick a planet; the arrow keys turn the view."},
    "planets": {"es": ["Mercurio", "Venus", "Tierra", "Marte", "Júpiter", "Saturno"], "en": ["Mercury", "Venus", "Earth", "Mars", "Jupiter", "Saturn"]},
    "year": {"es": "año de", "en": "year of"}, "days": {"es": "días", "en": "days"}, "au": {"es": "UA", "en": "AU"},
    "tilt": {"es": "Inclinación de la cámara", "en": "Camera tilt"}, "tour": {"es": "Recorrido de 60 s", "en": "60 s tour"},
    "tour_end": {"es": "¡Fin del recorrido!", "en": "Tour finished!"}, "view": {"es": "Girar vista", "en": "Turn view"},
    "pick": {"es": "Toca un planeta para ver sus datos.", "en": "Tap a planet to see its data."},
}
# name index, orbit radius (scene units), size, colour, distance (AU), year (days)
PLANETS = [(0, 2.0, 0.22, "#a8a29e", 0.39, 88), (1, 2.8, 0.36, "#fbbf24", 0.72, 225), (2, 3.7, 0.38, "#3b82f6", 1.0, 365),
           (3, 4.6, 0.3, "#ef4444", 1.52, 687), (4, 6.0, 0.8, "#d97706", 5.2, 4333), (5, 7.5, 0.68, "#eab308", 9.58, 10759)]


def app_solar3d(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: SOLAR[k] for k in SOLAR if k not in ("title", "sub")})
    f = spec.features
    countdown = "countdown" in f
    stats = f'<span id="info">{T["pick"]}</span>'
    if countdown:
        stats += f'<span>{T["time"]}: <b id="time">60</b> s</span>'
    tour = f'<button id="tour" type="button">{T["tour"]}</button>' if countdown else ""
    stage = (f'<canvas id="scene" width="560" height="360"></canvas><p class="stats">{stats}</p>'
             f'<div class="row"><span>{T["view"]}</span><button id="turn-left" type="button" aria-label="{T["view"]} ←">⟲</button>'
             f'<button id="turn-right" type="button" aria-label="{T["view"]} →">⟳</button></div>')
    settings = (_slider("speed", T["speed"], 0.2, 3, 0.1, 1, "×") + _slider("tilt", T["tilt"], 5, 80, 1, 25, "°")
                + f'<div class="row">{tour}<button id="run" class="primary" type="button">▶ {T["start"]}</button></div>')
    code = GL_LIB + fill(r"""
const cv = $('scene'), G = glStart(cv), PLANETS = @@planets@@, STARS = @@stars@@, COUNTDOWN = @@countdown@@;
const ball = G.sphere(@@seg@@), orbit = G.ring(60);
let simT = 0, speed = 1, tilt = 25, yaw = 0, running = false, picked = -1, left = 60, clock = null, raf = null;

function fit() {
  const w = Math.min(440, cv.parentElement.clientWidth - 28);  // software GL is slow: keep the buffer modest
  cv.width = Math.round(w); cv.height = Math.round(w * 0.62); render();
}
function camera() {
  const proj = M4.persp(0.8, cv.width / cv.height, 0.1, 100);
  const view = M4.mul(M4.move(0, 0, -17), M4.mul(M4.rotX(tilt * Math.PI / 180), M4.rotY(yaw)));
  return M4.mul(proj, view);
}
function render() {
  const vp = camera(), dark = document.body.classList.contains('dark') || STARS;
  G.clear(dark ? [0.02, 0.03, 0.09] : hexRgb(cssVar('--tint')));
  G.draw(ball, M4.size(1.1), vp, [1, 0.8, 0.25], 1);
  PLANETS.forEach(([i, r, size, colour], k) => {
    G.draw(orbit, M4.size(r), vp, dark ? [0.4, 0.45, 0.6] : [0.55, 0.6, 0.7], 1);
    const a = simT * 2 * Math.PI / Math.pow(r, 1.5) + k;
    const model = M4.mul(M4.move(r * Math.cos(a), 0, r * Math.sin(a)), M4.size(size * (k === picked ? 1.35 : 1)));
    G.draw(ball, model, vp, hexRgb(colour), k === picked ? 0.45 : 0);
  });
}
// 30 frames a second is plenty for orbits, and halves the work of software-rendered WebGL
function frame() { if (!running) return; simT += speed / 30; render(); raf = setTimeout(frame, 33); }
function setRunning(on) {
  running = on; clearTimeout(raf);
  $('run').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (simT > 0 ? T.resume : T.start);
  if (on) raf = setTimeout(frame, 33);
}
function pick(k) {
  picked = k;
  const [i, , , , au, days] = PLANETS[k];
  $('info').textContent = T.planets[i] + ': ' + au + ' ' + T.au + ', ' + T.year + ' ' + days + ' ' + T.days;
  render(); kit.beep(700);
}
function turn(by) { yaw += by; render(); }
function bindSlider(id, apply) { on(id, 'input', (e) => { $(id + '-out').textContent = e.target.value; apply(parseFloat(e.target.value)); render(); }); }
bindSlider('speed', (x) => { speed = x; });
bindSlider('tilt', (x) => { tilt = x; });
on('run', 'click', () => setRunning(!running));
on('turn-left', 'click', () => turn(-Math.PI / 8));
on('turn-right', 'click', () => turn(Math.PI / 8));
on('tour', 'click', () => {  // a timed tour: the countdown runs, the system stops when it reaches zero
  clearInterval(clock); left = 60; $('time').textContent = left; $('info').textContent = T.tour + ' …'; setRunning(true);
  clock = setInterval(() => {
    left -= 1; $('time').textContent = left;
    if (left <= 0) { clearInterval(clock); setRunning(false); $('info').textContent = T.tour_end; }
  }, 1000);
});
onTap(cv, () => pick((picked + 1) % PLANETS.length));
onKeys((e) => {
  const k = {ArrowLeft: -1, ArrowRight: 1}[e.code];
  if (k) { e.preventDefault(); turn(k * Math.PI / 16); }
  else if (e.code === 'ArrowUp' || e.code === 'ArrowDown') { e.preventDefault(); tilt = Math.max(5, Math.min(80, tilt + (e.code === 'ArrowUp' ? 5 : -5))); render(); }
});
kit.redraw = render;
window.addEventListener('resize', fit);
fit();
""", planets=js(PLANETS), stars="true" if v == "2" else "false", countdown="true" if countdown else "false",
        seg=10 if v == "3" else 12)
    return App(title=SOLAR["title"].get(spec.lang, SOLAR["title"]["en"]),
               subtitle=SOLAR["sub"].get(spec.lang, SOLAR["sub"]["en"]), stage=stage, js=code, side=[settings],
               tools=feature_tools(spec, T), controls=["run", "tour", "turn-left", "turn-right", "speed", "tilt", "dark", "sound"], T=T)


MOLECULE = {
    "title": {"de": "3D-Molekülbetrachter", "en": "3D molecule viewer"},
    "sub": {"de": "Kugel-Stab-Modelle in WebGL. Tippe auf das Molekül, um die Atome nacheinander zu markieren; Pfeiltasten drehen.",
            "en": "Ball-and-stick models in WebGL. Tap the molecule to highlight its atoms one by one; the arrow keys turn it."},
    "molecule": {"de": "Molekül", "en": "Molecule"}, "style": {"de": "Darstellung", "en": "Style"},
    "sticks": {"de": "Kugel-Stab", "en": "Ball and stick"}, "spheres": {"de": "Kalottenmodell", "en": "Space filling"},
    "zoom": {"de": "Zoom", "en": "Zoom"}, "spin": {"de": "Drehen", "en": "Spin"}, "stop": {"de": "Anhalten", "en": "Stop"},
    "colours": {"de": "Farben", "en": "Colours"}, "cpk": {"de": "nach Element", "en": "by element"}, "mono": {"de": "einfarbig", "en": "single colour"},
    "atom": {"de": "Atom", "en": "Atom"},
    "names": {"de": {"H": "Wasserstoff", "C": "Kohlenstoff", "N": "Stickstoff", "O": "Sauerstoff"},
              "en": {"H": "hydrogen", "C": "carbon", "N": "nitrogen", "O": "oxygen"}},
    "mols": {"de": ["Wasser (H₂O)", "Kohlendioxid (CO₂)", "Methan (CH₄)", "Ammoniak (NH₃)"],
             "en": ["Water (H₂O)", "Carbon dioxide (CO₂)", "Methane (CH₄)", "Ammonia (NH₃)"]},
}
MOLECULES = [  # atoms (element, x, y, z in Å) and bonds (atom index pairs)
    {"atoms": [["O", 0, 0, 0], ["H", 0.76, 0.59, 0], ["H", -0.76, 0.59, 0]], "bonds": [[0, 1], [0, 2]]},
    {"atoms": [["C", 0, 0, 0], ["O", 1.16, 0, 0], ["O", -1.16, 0, 0]], "bonds": [[0, 1], [0, 2]]},
    {"atoms": [["C", 0, 0, 0], ["H", 0.63, 0.63, 0.63], ["H", -0.63, -0.63, 0.63], ["H", -0.63, 0.63, -0.63], ["H", 0.63, -0.63, -0.63]],
     "bonds": [[0, 1], [0, 2], [0, 3], [0, 4]]},
    {"atoms": [["N", 0, 0.12, 0], ["H", 0.94, -0.26, 0], ["H", -0.47, -0.26, 0.81], ["H", -0.47, -0.26, -0.81]], "bonds": [[0, 1], [0, 2], [0, 3]]},
]


def app_molecule3d(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: MOLECULE[k] for k in MOLECULE if k not in ("title", "sub")})
    stage = (_select("mol", T["molecule"], [(str(k), n) for k, n in enumerate(T["mols"])])
             + '<canvas id="scene" width="520" height="360"></canvas>'
             + f'<p class="stats"><span id="info">{T["mols"][0]}</span></p>'
             + '<div class="row"><button id="turn-left" type="button" aria-label="left">⟲</button><button id="turn-right" type="button" aria-label="right">⟳</button></div>')
    settings = (_select("look", T["style"], [("sticks", T["sticks"]), ("spheres", T["spheres"])])
                + _select("colours", T["colours"], [("cpk", T["cpk"]), ("mono", T["mono"])])
                + _slider("zoom", T["zoom"], 0.6, 1.8, 0.1, 1, "×")
                + f'<div class="row"><button id="spin" class="primary" type="button">⟳ {T["spin"]}</button>'
                + f'<button id="reset" type="button">↺ {T["reset"]}</button></div>')
    code = GL_LIB + fill(r"""
const cv = $('scene'), G = glStart(cv), MOLS = @@mols@@, CPK = {H: '#e5e7eb', C: '#374151', N: '#3b82f6', O: '#ef4444'};
const RADIUS = {H: 0.25, C: 0.38, N: 0.38, O: 0.4}, VDW = {H: 0.6, C: 0.85, N: 0.8, O: 0.78};
const ball = G.sphere(14), stick = G.cylinder(10);
let mol = 0, yaw = 0.5, pitch = 0.3, zoom = 1, spinning = false, look = 'sticks', mono = false, picked = -1, raf = null;

function fit() {
  const w = Math.min(480, cv.parentElement.clientWidth - 28);  // software GL is slow: keep the buffer modest
  cv.width = Math.round(w); cv.height = Math.round(w * 0.66); render();
}
function render() {
  const proj = M4.persp(0.7, cv.width / cv.height, 0.1, 50);
  const vp = M4.mul(proj, M4.mul(M4.move(0, 0, -6 / zoom), M4.mul(M4.rotX(pitch), M4.rotY(yaw))));
  G.clear(document.body.classList.contains('dark') ? [0.04, 0.05, 0.1] : hexRgb(cssVar('--tint')));
  const m = MOLS[mol], accent = hexRgb(cssVar('--accent'));
  if (look === 'sticks') for (const [a, b] of m.bonds) G.draw(stick, M4.between(m.atoms[a].slice(1), m.atoms[b].slice(1), 0.09), vp, [0.6, 0.62, 0.68], 0);
  m.atoms.forEach(([el, x, y, z], k) => {
    const r = (look === 'sticks' ? RADIUS : VDW)[el] * (k === picked ? 1.25 : 1);
    const colour = mono ? accent : hexRgb(CPK[el]);
    G.draw(ball, M4.mul(M4.move(x, y, z), M4.size(r)), vp, colour, k === picked ? 0.5 : 0);
  });
}
function frame() { if (!spinning) return; yaw += 0.02; render(); raf = requestAnimationFrame(frame); }
function setSpin(on) {
  spinning = on; cancelAnimationFrame(raf);
  $('spin').textContent = on ? '❚❚ ' + T.stop : '⟳ ' + T.spin;
  if (on) raf = requestAnimationFrame(frame);
}
function turn(by) { yaw += by; render(); kit.beep(520); }
on('mol', 'change', (e) => { mol = +e.target.value; picked = -1; $('info').textContent = T.mols[mol]; render(); kit.beep(660); });
on('look', 'change', (e) => { look = e.target.value; render(); });
on('colours', 'change', (e) => { mono = e.target.value === 'mono'; render(); });
on('zoom', 'input', (e) => { zoom = parseFloat(e.target.value); $('zoom-out').textContent = e.target.value; render(); });
on('spin', 'click', () => setSpin(!spinning));
on('turn-left', 'click', () => turn(-Math.PI / 6));
on('turn-right', 'click', () => turn(Math.PI / 6));
on('reset', 'click', () => {  // back to the starting view: upright, unzoomed, not spinning
  yaw = 0.5; pitch = 0.3; zoom = 1; picked = -1; $('zoom').value = 1; $('zoom-out').textContent = '1';
  $('info').textContent = T.mols[mol]; setSpin(false); render();
});
onTap(cv, () => {
  const atoms = MOLS[mol].atoms; picked = (picked + 1) % atoms.length;
  const el = atoms[picked][0];
  $('info').textContent = T.mols[mol] + ' · ' + T.atom + ' ' + (picked + 1) + ': ' + el + ' (' + T.names[el] + ')';
  render(); kit.beep(880);
});
onKeys((e) => {
  const d = {ArrowLeft: [-0.2, 0], ArrowRight: [0.2, 0], ArrowUp: [0, -0.2], ArrowDown: [0, 0.2]}[e.code];
  if (d) { e.preventDefault(); yaw += d[0]; pitch += d[1]; render(); }
});
kit.redraw = render;
window.addEventListener('resize', fit);
fit();
""", mols=js(MOLECULES))
    return App(title=MOLECULE["title"].get(spec.lang, MOLECULE["title"]["en"]),
               subtitle=MOLECULE["sub"].get(spec.lang, MOLECULE["sub"]["en"]), stage=stage, js=code, side=[settings],
               tools=feature_tools(spec, T), controls=["mol", "spin", "turn-left", "turn-right", "reset", "look", "colours", "zoom", "dark", "sound"], T=T)


SELF_RUNNING_GL = r"""
// spinning planets; the buttons and sliders only update `settings`, which the loop never reads
const canvas = document.querySelector('canvas'), G = glStart(canvas), ball = G.sphere(10);
canvas.width = 480; canvas.height = 300;
const settings = {speed: 1, paused: false};
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { settings.paused = !settings.paused; }));
document.querySelectorAll('input, select').forEach((el) => el.addEventListener('input', () => { settings.speed = Number(el.value); }));
let t = 0;
function loop() {
  t += 1 / 60;
  const vp = M4.mul(M4.persp(0.8, canvas.width / canvas.height, 0.1, 100), M4.mul(M4.move(0, 0, -14), M4.rotX(0.4)));
  G.clear([0.02, 0.03, 0.09]);
  G.draw(ball, M4.size(1.1), vp, [1, 0.8, 0.25], 1);
  [[2.4, 0.3, [0.23, 0.51, 0.96]], [3.6, 0.4, [0.94, 0.27, 0.27]], [5.2, 0.7, [0.85, 0.47, 0.02]]].forEach(([r, s, c], k) => {
    const a = t * (1.6 - k * 0.4) + k;
    G.draw(ball, M4.mul(M4.move(r * Math.cos(a), 0, r * Math.sin(a)), M4.size(s)), vp, c, 0);
  });
  requestAnimationFrame(loop);
}
loop();
"""


# =============================================================================================
# HTML engines: tools
# =============================================================================================

CALC = {"title": {"en": "Scientific calculator"},
        "sub": {"en": "Type with the keys; the result updates as you go. Challenge mode: solve the task with the calculator, "
                      "then submit the result to score a point."},
        "challenge": {"en": "Challenge"}, "submit": {"en": "Submit result"}, "new_task": {"en": "New task"},
        "deg": {"en": "DEG"}, "rad": {"en": "RAD"}, "error": {"en": "Error"},
        "right": {"en": "Right! +1 point"}, "not_yet": {"en": "Not yet: the display shows"}}
CALC_TASKS = [("sin(30°) × 8", 4), ("√(144) + 2³", 20), ("(7 + 5) × 12", 144), ("cos(60°) × 50", 25), ("2^10 ÷ 4", 256), ("log(1000) × 7", 21)]
CALC_KEYS = [["sin", "cos", "tan", "√"], ["x²", "^", "(", ")"], ["7", "8", "9", "÷"], ["4", "5", "6", "×"],
             ["1", "2", "3", "−"], ["0", ".", "π", "+"], ["log", "C", "⌫", "="]]


def app_calculator(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: CALC[k] for k in CALC if k not in ("title", "sub")})
    f = spec.features
    keys = "".join(f'<button type="button" class="key{" op" if k in "÷×−+=^" else ""}" data-key="{k}">{k}</button>'
                   for row in CALC_KEYS for k in row)
    stage = (f'<div class="display"><div id="expr" class="expr">&nbsp;</div><div id="result" class="result">0</div></div>'
             f'<div class="row"><button id="angle" type="button">{T["deg"]}</button></div><div class="keys">{keys}</div>')
    side = [f'<h2>{T["challenge"]}</h2><p id="task" class="task"></p><div class="stats"><span>{T["score"]}: <b id="score">0</b></span></div>'
            f'<p id="verdict" class="muted" aria-live="polite"></p><div class="row"><button id="submit" class="primary" type="button">{T["submit"]}</button>'
            f'<button id="skip" type="button">{T["new_task"]}</button></div>']
    if "leaderboard" in f:
        side.append(board_panel(T))
    css = (".display{background:var(--tint);border-radius:12px;padding:10px 14px;text-align:right;font-family:ui-monospace,monospace;overflow-wrap:anywhere}"
           ".expr{font-size:18px;min-height:1.4em;color:var(--muted)}.result{font-size:clamp(26px,7vw,38px);font-weight:700}"
           ".keys{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:8px}.keys button{font-size:18px;min-height:48px}"
           ".keys button.op{background:var(--tint)}.keys button[data-key='=']{background:var(--accent);color:#fff}.task{font-size:1.3rem;font-weight:700}")
    if v == "2":
        css += ".keys{gap:6px}.keys button{border-radius:14px}.display{background:#0f172a;color:#e2e8f0}.expr{color:#94a3b8}"
    code = fill(r"""
const TASKS = @@tasks@@;
let expr = '', degrees = true, score = 0, task = 0;
const FN = {
  sin: (x) => Math.sin(degrees ? x * Math.PI / 180 : x), cos: (x) => Math.cos(degrees ? x * Math.PI / 180 : x),
  tan: (x) => Math.tan(degrees ? x * Math.PI / 180 : x), '√': Math.sqrt, log: Math.log10,
};
// a small recursive-descent parser: no eval, so a typo can never run code
function evaluate(src) {
  const toks = src.replace(/−/g, '-').match(/\d+\.?\d*|\.\d+|sin|cos|tan|log|[√π()+\-×÷^²]/g) || [];
  let i = 0;
  const peek = () => toks[i], next = () => toks[i++];
  function primary() {
    const t = next();
    if (t === undefined) throw new Error('incomplete');
    if (/^[\d.]/.test(t)) return parseFloat(t);
    if (t === 'π') return Math.PI;
    if (t === '(') { const x = sum(); if (next() !== ')') throw new Error('missing )'); return x; }
    if (t === '-') return -power();
    if (FN[t]) return FN[t](power());
    throw new Error('unexpected ' + t);
  }
  function power() {
    let b = primary();
    while (peek() === '²') { next(); b = b * b; }
    if (peek() === '^') { next(); return Math.pow(b, power()); }
    return b;
  }
  function product() { let x = power(); while (peek() === '×' || peek() === '÷') { const op = next(), y = power(); x = op === '×' ? x * y : x / y; } return x; }
  function sum() { let x = product(); while (peek() === '+' || peek() === '-') { const op = next(), y = product(); x = op === '+' ? x + y : x - y; } return x; }
  const x = sum();
  if (i < toks.length) throw new Error('unexpected ' + toks[i]);
  return x;
}
function fmt(x) { return Number.isFinite(x) ? String(parseFloat(x.toPrecision(12))) : T.error; }
function show(final) {
  $('expr').textContent = expr || '\u00a0';
  try { const x = evaluate(expr || '0'); $('result').textContent = (final ? '' : '= ') + fmt(x); return x; }
  catch (e) { if (final) $('result').textContent = T.error; return null; }
}
function press(k) {
  if (k === 'C') expr = '';
  else if (k === '⌫') expr = expr.replace(/(sin|cos|tan|log)\($|.$/, '');
  else if (k === '=') { const x = show(true); if (x !== null) expr = fmt(x); kit.beep(700); return; }
  else if (k === 'x²') expr += '²';
  else if (['sin', 'cos', 'tan', 'log', '√'].includes(k)) expr += k + '(';
  else expr += k;
  show(false);
}
function newTask() { task = (task + 1) % TASKS.length; $('task').textContent = TASKS[task][0] + ' = ?'; $('verdict').textContent = ''; }
document.querySelectorAll('[data-key]').forEach((b) => onTap(b, () => press(b.dataset.key)));
on('angle', 'click', () => { degrees = !degrees; $('angle').textContent = degrees ? T.deg : T.rad; show(false); });
on('submit', 'click', () => {
  let x = null; try { x = evaluate(expr || '0'); } catch (e) { /* incomplete expression */ }
  if (x !== null && Math.abs(x - TASKS[task][1]) < 1e-9) { score += 1; $('score').textContent = score; $('verdict').textContent = '✔ ' + T.right; kit.beep(880); newTask(); }
  else $('verdict').textContent = '✘ ' + T.not_yet + ' ' + (x === null ? '…' : fmt(x));
});
on('skip', 'click', newTask);
on('save', 'click', () => kit.record(score));
onKeys((e) => {
  const map = {'*': '×', '/': '÷', '-': '−', Enter: '=', Backspace: '⌫', Escape: 'C'};
  const k = map[e.key] || (/^[0-9.+^()]$/.test(e.key) ? e.key : null);
  if (k) { e.preventDefault(); press(k); }
});
task = -1; newTask(); show(false);
""", tasks=js(CALC_TASKS))
    return App(title=CALC["title"]["en"], subtitle=CALC["sub"]["en"], stage=stage, js=code, side=side, css=css,
               tools=feature_tools(spec, T), controls=["angle", "submit", "skip", "save", "dark", "sound"], T=T)


POMODORO = {"title": {"ja": "ポモドーロタイマー", "en": "Pomodoro timer"},
            "sub": {"ja": "作業と休憩の長さをスライダーで決めて、スタート。4回ごとに長い休憩をとりましょう。",
                    "en": "Set the work and break lengths with the sliders, then start."},
            "work": {"ja": "作業", "en": "Work"}, "break": {"ja": "休憩", "en": "Break"}, "minutes": {"ja": "分", "en": "min"},
            "skip": {"ja": "スキップ", "en": "Skip"}, "done": {"ja": "完了したポモドーロ", "en": "Pomodoros done"},
            "work_len": {"ja": "作業時間", "en": "Work length"}, "break_len": {"ja": "休憩時間", "en": "Break length"}}


def app_pomodoro(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: POMODORO[k] for k in POMODORO if k not in ("title", "sub")})
    ring = v != "2"
    dial = ('<svg class="ring" viewBox="0 0 120 120" aria-hidden="true"><circle cx="60" cy="60" r="52" class="track"/>'
            '<circle id="arc" cx="60" cy="60" r="52" class="arc"/></svg>' if ring else
            '<div class="bar"><div id="fill" class="fill"></div></div>')
    stage = (f'<p id="phase" class="phase">{T["work"]}</p><div class="dial">{dial}<div id="clock" class="clock">25:00</div></div>'
             + _slider("work", T["work_len"], 5, 60, 1, 25, " " + T["minutes"]) + _slider("rest", T["break_len"], 1, 30, 1, 5, " " + T["minutes"])
             + f'<div class="row"><button id="start" class="primary" type="button">▶ {T["start"]}</button>'
             + f'<button id="reset" type="button">↺ {T["reset"]}</button><button id="skip" type="button">{T["skip"]} »</button></div>'
             + f'<p class="stats">{T["done"]}: <b id="count">0</b></p>')
    css = (".phase{font-size:1.2rem;font-weight:700;color:var(--accent);text-align:center}.dial{position:relative;max-width:260px;width:100%;margin:0 auto}"
           ".ring{width:100%;display:block;transform:rotate(-90deg)}.track{fill:none;stroke:var(--line);stroke-width:10}"
           ".arc{fill:none;stroke:var(--accent);stroke-width:10;stroke-linecap:round;stroke-dasharray:326.7;stroke-dashoffset:0}"
           ".clock{font:700 clamp(40px,12vw,64px)/1 ui-monospace,monospace;text-align:center}"
           + (".dial .clock{position:absolute;inset:0;display:flex;align-items:center;justify-content:center}" if ring else
              ".bar{height:14px;background:var(--line);border-radius:8px;overflow:hidden;margin:12px 0}.fill{height:100%;width:0;background:var(--accent)}"))
    code = r"""
let workMin = 25, restMin = 5, phase = 'work', left = 25 * 60, total = 25 * 60, running = false, timer = null, done = 0;

function render() {
  const m = Math.floor(left / 60), s = left % 60;
  $('clock').textContent = String(m).padStart(2, '0') + ':' + String(s).padStart(2, '0');
  $('phase').textContent = phase === 'work' ? T.work : T.break;
  const share = 1 - left / total;
  if ($('arc')) $('arc').style.strokeDashoffset = String(326.7 * share);
  if ($('fill')) $('fill').style.width = (share * 100).toFixed(1) + '%';
  $('count').textContent = done;
  document.title = $('clock').textContent + ' · ' + $('phase').textContent;
}
function setPhase(p) { phase = p; total = left = (p === 'work' ? workMin : restMin) * 60; render(); }
function tick() {
  left -= 1;
  if (left <= 0) { if (phase === 'work') done += 1; kit.beep(880); setPhase(phase === 'work' ? 'break' : 'work'); }
  render();
}
function setRunning(on) {
  running = on; clearInterval(timer);
  if (on) timer = setInterval(tick, 1000);
  $('start').textContent = on ? '❚❚ ' + T.pause : '▶ ' + (left < total ? T.resume : T.start);
}
on('work', 'input', (e) => { workMin = +e.target.value; $('work-out').textContent = workMin; if (phase === 'work' && !running) setPhase('work'); });
on('rest', 'input', (e) => { restMin = +e.target.value; $('rest-out').textContent = restMin; if (phase === 'break' && !running) setPhase('break'); });
on('start', 'click', () => setRunning(!running));
on('reset', 'click', () => { setRunning(false); setPhase('work'); setRunning(false); });
on('skip', 'click', () => { setPhase(phase === 'work' ? 'break' : 'work'); setRunning(running); });
render();
"""
    return App(title=POMODORO["title"].get(spec.lang, POMODORO["title"]["en"]),
               subtitle=POMODORO["sub"].get(spec.lang, POMODORO["sub"]["en"]), stage=stage, js=code, css=css,
               side=[board_panel(T)] if "leaderboard" in spec.features else [], tools=feature_tools(spec, T),
               controls=["work", "rest", "start", "reset", "skip", "dark", "sound", "save"], T=T)


UNITS = {  # factor to the base unit (m, kg); temperatures are converted by formula
    "length": [("m", 1), ("km", 1000), ("cm", 0.01), ("mm", 0.001), ("mi", 1609.344), ("ft", 0.3048), ("in", 0.0254)],
    "mass": [("kg", 1), ("g", 0.001), ("t", 1000), ("lb", 0.45359237), ("oz", 0.028349523125)],
    "temp": [("°C", None), ("°F", None), ("K", None)],
}
CONVERTER = {
    "title": {"de": "Einheitenumrechner", "en": "Unit converter", "ko": "단위 변환기"},
    "sub": {"de": "Länge, Masse und Temperatur umrechnen – das Ergebnis erscheint sofort.",
            "en": "Convert length, mass and temperature; the result updates as you type.",
            "ko": "길이, 질량, 온도를 바로 변환해요. 값을 입력하면 결과가 곧바로 바뀝니다."},
    "cats": {"de": {"length": "Länge", "mass": "Masse", "temp": "Temperatur"}, "en": {"length": "Length", "mass": "Mass", "temp": "Temperature"},
             "ko": {"length": "길이", "mass": "질량", "temp": "온도"}},
    "value": {"de": "Wert", "en": "Value", "ko": "값"}, "from": {"de": "von", "en": "from", "ko": "변환 전"},
    "to": {"de": "nach", "en": "to", "ko": "변환 후"},
    "swap": {"de": "Tauschen", "en": "Swap", "ko": "바꾸기"}, "category": {"de": "Größe", "en": "Quantity", "ko": "종류"},
    "names": {"de": {"m": "Meter", "km": "Kilometer", "cm": "Zentimeter", "mm": "Millimeter", "mi": "Meilen", "ft": "Fuß", "in": "Zoll",
                     "kg": "Kilogramm", "g": "Gramm", "t": "Tonnen", "lb": "Pfund", "oz": "Unzen", "°C": "Grad Celsius",
                     "°F": "Grad Fahrenheit", "K": "Kelvin"},
              "en": {"m": "metres", "km": "kilometres", "cm": "centimetres", "mm": "millimetres", "mi": "miles", "ft": "feet",
                     "in": "inches", "kg": "kilograms", "g": "grams", "t": "tonnes", "lb": "pounds", "oz": "ounces",
                     "°C": "degrees Celsius", "°F": "degrees Fahrenheit", "K": "kelvin"},
              "ko": {"m": "미터", "km": "킬로미터", "cm": "센티미터", "mm": "밀리미터", "mi": "마일", "ft": "피트", "in": "인치",
                     "kg": "킬로그램", "g": "그램", "t": "톤", "lb": "파운드", "oz": "온스", "°C": "섭씨", "°F": "화씨", "K": "켈빈"}},
    "history": {"de": "Verlauf", "en": "History", "ko": "기록"},
}


def _converter_form(T: dict, cat: str, suffix: str = "") -> str:
    units = UNITS[cat]

    def opts(sel: int) -> str:
        return "".join(f'<option value="{u}"{" selected" if k == sel else ""}>{T["names"][u]} ({u})</option>'
                       for k, (u, _) in enumerate(units))

    return (f'<div class="conv" data-cat="{cat}"><label class="row">{T["value"]} <input id="value{suffix}" type="number" value="1" step="any"></label>'
            f'<div class="row"><label class="row">{T["from"]} <select id="from{suffix}">{opts(0)}</select></label>'
            f'<button id="swap{suffix}" type="button" aria-label="{T["swap"]}">⇄</button>'
            f'<label class="row">{T["to"]} <select id="to{suffix}">{opts(1)}</select></label></div>'
            f'<p id="out{suffix}" class="out"></p></div>')


def app_converter(spec: Spec, v: str) -> App:
    T = ui(spec.lang, {k: CONVERTER[k] for k in CONVERTER if k not in ("title", "sub")})
    cats = list(UNITS)
    if v == "1":  # tabs switch the quantity of one form
        tabs = "".join(f'<button type="button" role="tab" class="tab{" on" if k == 0 else ""}" data-cat="{c}">{T["cats"][c]}</button>'
                       for k, c in enumerate(cats))
        stage = f'<div class="tabs" role="tablist">{tabs}</div>' + _converter_form(T, "length")
    elif v == "2":  # an accordion with one form per quantity
        stage = "".join(f'<details{" open" if k == 0 else ""}><summary>{T["cats"][c]}</summary>{_converter_form(T, c, "-" + c)}</details>'
                        for k, c in enumerate(cats))
    else:  # a quantity picker above one form
        stage = _select("cat", T["category"], [(c, T["cats"][c]) for c in cats]) + _converter_form(T, "length")
    stage += f'<div class="row"><button id="reset" type="button">↺ {T["reset"]}</button></div>'
    side = [f'<h2>{T["history"]}</h2><ol id="history" class="lb"></ol>']
    css = (".tabs{display:flex;flex-wrap:wrap;gap:4px;border-bottom:2px solid var(--accent)}.tab{border-radius:8px 8px 0 0;border-bottom:none}"
           ".tab.on{background:var(--accent);color:#fff}.conv{display:grid;gap:10px;padding-top:8px}.conv input{width:10em;max-width:100%}"
           ".conv select{max-width:100%}.out{font-size:1.25rem;font-weight:700;overflow-wrap:anywhere}"
           "details{border:1px solid var(--line);border-radius:10px;padding:8px 12px}summary{cursor:pointer;font-weight:700;min-height:32px}")
    code = fill(r"""
const UNITS = @@units@@, LANG = document.documentElement.lang;
const nf = new Intl.NumberFormat(LANG, {maximumSignificantDigits: 6});
const history = [];

function toBase(cat, unit, x) {
  if (cat !== 'temp') return x * UNITS[cat].find((u) => u[0] === unit)[1];
  return unit === '°C' ? x : unit === '°F' ? (x - 32) * 5 / 9 : x - 273.15;  // base: °C
}
function fromBase(cat, unit, x) {
  if (cat !== 'temp') return x / UNITS[cat].find((u) => u[0] === unit)[1];
  return unit === '°C' ? x : unit === '°F' ? x * 9 / 5 + 32 : x + 273.15;
}
function setup(form) {  // one converter form: value, from, to, swap, result
  const q = (name) => form.querySelector('[id^="' + name + '"]');
  const state = {cat: form.dataset.cat};
  function fill(cat) {
    state.cat = cat; form.dataset.cat = cat;
    for (const [sel, k] of [[q('from'), 0], [q('to'), 1]]) {
      sel.innerHTML = UNITS[cat].map((u) => '<option value="' + u[0] + '">' + T.names[u[0]] + ' (' + u[0] + ')</option>').join('');
      sel.selectedIndex = k;
    }
    convert();
  }
  function convert() {
    const x = parseFloat(q('value').value), a = q('from').value, b = q('to').value;
    if (!Number.isFinite(x)) { q('out').textContent = '–'; return; }
    const y = fromBase(state.cat, b, toBase(state.cat, a, x));
    q('out').textContent = nf.format(x) + ' ' + T.names[a] + ' = ' + nf.format(y) + ' ' + T.names[b];
  }
  function remember() {
    history.unshift(q('out').textContent); history.length = Math.min(history.length, 5);
    $('history').innerHTML = history.map((h) => '<li>' + h + '</li>').join('');
  }
  q('value').addEventListener('input', convert);
  q('value').addEventListener('change', remember);
  q('from').addEventListener('change', () => { convert(); remember(); });
  q('to').addEventListener('change', () => { convert(); remember(); });
  onTap(q('swap'), () => { const a = q('from').value; q('from').value = q('to').value; q('to').value = a; convert(); remember(); });
  convert();
  return {fill, reset() { q('value').value = 1; fill(form.dataset.initial); }};
}
const forms = [...document.querySelectorAll('.conv')].map((form) => { form.dataset.initial = form.dataset.cat; return setup(form); });
document.querySelectorAll('.tab').forEach((tab) => onTap(tab, () => {
  document.querySelectorAll('.tab').forEach((t) => t.classList.toggle('on', t === tab));
  forms[0].fill(tab.dataset.cat);
}));
on('cat', 'change', (e) => forms[0].fill(e.target.value));
on('reset', 'click', () => {
  forms.forEach((f) => f.reset());
  document.querySelectorAll('.tab').forEach((t, k) => t.classList.toggle('on', k === 0));
  if ($('cat')) $('cat').selectedIndex = 0;
  history.length = 0; $('history').innerHTML = '';
});
""", units=js(UNITS))
    return App(title=CONVERTER["title"].get(spec.lang, CONVERTER["title"]["en"]),
               subtitle=CONVERTER["sub"].get(spec.lang, CONVERTER["sub"]["en"]), stage=stage, js=code, side=side, css=css,
               tools=feature_tools(spec, T), controls=["reset", "cat", "value", "from", "to", "swap", "dark", "sound"], T=T)


# =============================================================================================
# HTML: candidates, good and defective
# =============================================================================================

ENGINES = dict(  # app key -> engine
    snake=app_snake, breakout=app_breakout, flappy=app_flappy, memory=app_memory,
    pendulum=app_pendulum, projectile=app_projectile, predprey=app_predprey, wave=app_wave,
    mcq=app_mcq, spelling=app_spelling, barpop=app_barpop, linetemp=app_linetemp,
    solar3d=app_solar3d, molecule3d=app_molecule3d,
    calculator=app_calculator, pomodoro=app_pomodoro, converter=app_converter,
)
STYLE = {"1": "bar", "2": "card", "3": "split", "4": "bar", "5": "card"}

# Fixed desktop widths: the page renders and works, but a phone or tablet gets a horizontal
# scrollbar and text cut off at the right edge.
DESKTOP_ONLY_CSS = r"""
body{min-width:1400px}
header,main,.card{width:1360px;max-width:none}
.row,.stats{flex-wrap:nowrap;white-space:nowrap}
canvas{width:1100px !important;max-width:none}
"""


def rename_controls(markup: str, ids: list[str]) -> str:
    """The markup's controls get ids the script never looks up (`start` -> `startBtn`)."""
    for i in ids:
        markup = markup.replace(f'id="{i}"', f'id="{i}Btn"').replace(f'for="{i}"', f'for="{i}Btn"')
    return markup


def break_script(code: str, flavour: int) -> str:
    """Two ways a page's whole script dies before running a line (the kit shares its <script>)."""
    if flavour % 2 == 0:  # a top-level name declared twice: SyntaxError at parse time
        name = re.search(r"^let (\w+)", code, re.M).group(1)
        return code + f"\n// keep the state in one place\nlet {name} = null;\n"
    # cut off mid-function (the answer ran out of tokens): SyntaxError: Unexpected end of input
    lines = code.splitlines()
    cut = next(k for k in range(len(lines) * 2 // 3, len(lines)) if lines[k].rstrip().endswith("{"))
    return "\n".join(lines[: cut + 1]) + "\n"


def html_candidate(spec: Spec, app_key: str, intended: str, variant: str, n: int) -> str:
    """The document for one candidate; `n` varies details between defective candidates."""
    if intended == "self_running_dead":
        return self_running_page(spec, app_key, variant)
    engine = ENGINES[app_key]
    app = engine(spec, variant)
    style = STYLE[variant]
    if intended == "good":
        return layout(spec, app, style, kit_js(app.T))
    if intended == "mobile_break":
        return layout(spec, app, style, kit_js(app.T), extra_css=DESKTOP_ONLY_CSS)
    if intended == "static_shell":  # markup and styles only: the script was never written
        return layout(spec, app, style, "", script=False)
    if intended == "script_error":
        app.js = break_script(app.js, n)
        return layout(spec, app, style, kit_js(app.T))
    if intended == "dead_control":
        app.stage, app.tools = rename_controls(app.stage, app.controls), rename_controls(app.tools, app.controls)
        app.side = [rename_controls(p, app.controls) for p in app.side]
        return layout(spec, app, style, kit_js(app.T, broken_bindings=True))
    raise ValueError(f"unknown intended label {intended!r}")


def html_response(spec: Spec, doc: str, k: int) -> str:
    """The assistant message: the document in an html fence, sometimes after one sentence."""
    fence = f"```html\n{doc}```"
    if k % 3 == 1:
        return fence
    return INTROS.get(spec.lang, INTROS["en"])[k % 2] + "\n\n" + fence


# =============================================================================================
# HTML defect: self-running animations whose controls do nothing
# =============================================================================================
# The page looks alive (it animates by itself), the controls have handlers, but the handlers only
# write settings the animation never reads: a user clicking around sees nothing respond.

SELF_RUNNING_JS = {
    "pendulum": r"""
const canvas = document.querySelector('canvas');
const ctx = canvas.getContext('2d');
canvas.width = 520; canvas.height = 360;
const settings = {len: 1.5, amp: 30, paused: false};
document.querySelectorAll('input, select').forEach((el) => el.addEventListener('input', () => { settings[el.id] = Number(el.value); }));
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { settings.paused = !settings.paused; }));
let t = 0;
function animate() {
  t += 1 / 60;
  const angle = 0.55 * Math.cos(2.6 * t);
  const x = 260 + Math.sin(angle) * 220, y = 30 + Math.cos(angle) * 220;
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, 520, 360);
  ctx.fillStyle = '#334155'; ctx.fillRect(220, 22, 80, 8);
  ctx.strokeStyle = '#334155'; ctx.lineWidth = 2; ctx.beginPath(); ctx.moveTo(260, 30); ctx.lineTo(x, y); ctx.stroke();
  ctx.fillStyle = '#7c3aed'; ctx.beginPath(); ctx.arc(x, y, 16, 0, Math.PI * 2); ctx.fill();
  requestAnimationFrame(animate);
}
animate();
""",
    "line": r"""
const canvas = document.querySelector('canvas');
const ctx = canvas.getContext('2d');
canvas.width = 560; canvas.height = 320;
const temps = @@temps@@;
let progress = 0, paused = false, city = 0;
document.querySelectorAll('button').forEach((b) => b.addEventListener('click', () => { paused = !paused; }));
document.querySelectorAll('select').forEach((s) => s.addEventListener('change', () => { city = s.selectedIndex; }));
function animate() {
  progress = (progress + 0.05) % 13;
  ctx.fillStyle = '#ffffff'; ctx.fillRect(0, 0, 560, 320);
  ctx.strokeStyle = '#e2e8f0';
  for (let k = 0; k <= 5; k++) { ctx.beginPath(); ctx.moveTo(40, 30 + k * 50); ctx.lineTo(540, 30 + k * 50); ctx.stroke(); }
  ctx.strokeStyle = '#ea580c'; ctx.lineWidth = 3; ctx.beginPath();
  for (let i = 0; i < Math.min(12, Math.floor(progress) + 1); i++) {
    const x = 50 + i * 44, y = 280 - (temps[i] + 10) * 6;
    i ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
  }
  ctx.stroke(); ctx.lineWidth = 1;
  requestAnimationFrame(animate);
}
animate();
""",
}


def self_running_page(spec: Spec, app_key: str, variant: str) -> str:
    app = ENGINES[app_key](spec, variant)
    kind = {"pendulum": "pendulum", "linetemp": "line", "solar3d": "orbit3d"}[app_key]
    code = SELF_RUNNING_JS.get(kind, "")
    if kind == "line":
        code = fill(code, temps=js(CITIES[LINE_CITIES[spec.lang][0]]))
    elif kind == "orbit3d":
        code = GL_LIB + SELF_RUNNING_GL
    app.js = code
    return layout(spec, app, STYLE[variant], kit="", extra_css="*:focus,*:focus-visible{outline:none !important}")


# =============================================================================================
# Slides: lesson content per chosen prompt (written in the prompt's language)
# =============================================================================================
# Each lesson: title / subtitle, an illustration, a key-points slide, a data slide (chart or
# table) and the extra the request asked for (quiz, discussion questions, timeline, concept map).

LESSONS = {
    "r-0a559d5f3e63e278": dict(  # de, Sonnensystem, 3. Klasse, Balkendiagramm
        theme={"background": "#ffffff", "text": "#1e293b", "accent": "#f59e0b", "font": "sans"},
        title="Unser Sonnensystem", subtitle="Sachunterricht · Klasse 3",
        cover="Bild: Die Sonne in der Mitte, darum die acht Planeten auf ihren Bahnen",
        points_title="Was gehört zum Sonnensystem?",
        points=["Die Sonne ist ein Stern. Sie schenkt uns Licht und Wärme.", "Acht Planeten kreisen um die Sonne.",
                "Die Erde ist der dritte Planet von der Sonne aus.", "Viele Planeten haben Monde. Die Erde hat einen."],
        picture="Bild: Die Erde und der Mond im Weltall",
        data_title="Wie groß sind die Planeten?",
        chart={"chart": "bar", "title": "Durchmesser in 1000 km", "categories": ["Merkur", "Venus", "Erde", "Mars", "Jupiter", "Saturn"],
               "series": [{"name": "Durchmesser", "values": [4.9, 12.1, 12.7, 6.8, 139.8, 116.5]}]},
        note="Jupiter ist der größte Planet: Er ist elfmal so breit wie die Erde.",
        extra=("table", "Die Planeten der Reihe nach", {"header": ["Planet", "Platz", "Besonderheit"],
               "rows": [["Merkur", "1", "am nächsten an der Sonne"], ["Venus", "2", "der heißeste Planet"], ["Erde", "3", "hier leben wir"],
                        ["Mars", "4", "der rote Planet"], ["Jupiter", "5", "der größte Planet"]]}),
    ),
    "r-563827de1283a949": dict(  # zh, 法国大革命, 高二, 小测验
        theme={"background": "#fffbf5", "text": "#292524", "accent": "#b91c1c", "font": "serif"},
        title="法国大革命（1789—1799）", subtitle="高二历史 · 世界近代史",
        cover="图片：1789年7月14日，巴黎民众攻占巴士底狱",
        points_title="革命爆发的原因",
        points=["等级制度森严，第三等级承担沉重赋税", "王室挥霍，国家财政陷入危机", "启蒙思想传播：自由、平等、人民主权", "1789年召开三级会议，矛盾全面激化"],
        picture="图片：启蒙思想家卢梭与孟德斯鸠的画像",
        data_title="大革命的进程",
        table={"header": ["时间", "事件"], "rows": [["1789年7月", "攻占巴士底狱"], ["1789年8月", "通过《人权和公民权宣言》"],
                                                 ["1792年9月", "法兰西第一共和国成立"], ["1793—1794年", "雅各宾派专政"], ["1799年11月", "雾月政变，拿破仑掌权"]]},
        note="十年间，法国从君主专制走向共和，又走向拿破仑的统治。",
        extra=("quiz", "课堂小测验", ["1. 大革命爆发的标志性事件是什么？", "2. 《人权和公民权宣言》提出了哪些基本原则？",
                                   "3. 雅各宾派专政为什么被称为“恐怖统治”？", "4. 拿破仑是通过哪一事件掌握政权的？"]),
    ),
    "r-37d38de4da170f6a": dict(  # ja, 電気回路の基礎, 中学2年, 話し合いの問い2つ
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#0d9488", "font": "sans"},
        title="電気回路の基礎", subtitle="中学2年 理科",
        cover="図：電池・スイッチ・豆電球をつないだ回路",
        points_title="回路の基本",
        points=["電流は＋極から出て回路を通り、－極へもどる", "電圧（V）は電流を流そうとするはたらき", "抵抗（Ω）は電流の流れにくさ", "オームの法則：電圧＝抵抗×電流"],
        picture="図：電流計と電圧計のつなぎ方",
        data_title="電圧と電流の関係",
        chart={"chart": "line", "title": "抵抗10Ωの電熱線（電流 A）", "categories": ["0V", "1V", "2V", "3V", "4V", "5V"],
               "series": [{"name": "電流", "values": [0, 0.1, 0.2, 0.3, 0.4, 0.5]}]},
        note="電圧を2倍にすると電流も2倍になる。グラフは原点を通る直線。",
        extra=("discussion", "話し合ってみよう", ["問1　家の電気配線が並列回路になっているのはなぜだろう？",
                                             "問2　電池を直列につなぐと、豆電球の明るさはどう変わるだろう？"]),
    ),
    "r-54dd0af59d8def2e": dict(  # en, climate change, grade 5, timeline
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#dc2626", "font": "sans"},
        title="Climate Change", subtitle="Science · Grade 5",
        cover="Picture: planet Earth with a thermometer showing rising temperature",
        points_title="What is climate change?",
        points=["Weather is today; climate is the pattern over many years.", "Burning coal, oil and gas adds carbon dioxide to the air.",
                "Carbon dioxide traps heat like a blanket around Earth.", "Earth is about 1.2 °C warmer than in 1850."],
        picture="Picture: a factory chimney and cars giving off exhaust",
        data_title="Earth is getting warmer",
        chart={"chart": "line", "title": "Global temperature change (°C)", "categories": ["1880", "1920", "1960", "2000", "2020"],
               "series": [{"name": "Change", "values": [-0.2, -0.3, 0.0, 0.4, 1.0]}]},
        note="Most of the warming has happened since 1980.",
        extra=("timeline", "A short timeline", [("1850", "Factories start burning lots of coal"), ("1958", "Scientists start measuring CO₂ in Hawaii"),
                                                ("1988", "The world's climate panel, the IPCC, begins"), ("2015", "Paris Agreement: countries promise to act")]),
        timeline_header=["Year", "What happened"],
    ),
    "r-499be61a09462c4c": dict(  # fr, photosynthèse, sixième, deux questions de discussion
        theme={"background": "#fbfdf8", "text": "#1c2a1e", "accent": "#15803d", "font": "sans"},
        title="La photosynthèse", subtitle="SVT · Classe de sixième",
        cover="Image : une plante verte au soleil, avec des flèches pour la lumière, l'eau et l'air",
        points_title="Comment la plante fabrique sa matière",
        points=["Les feuilles captent la lumière du soleil.", "Les racines puisent l'eau et les sels minéraux du sol.",
                "Les feuilles absorbent le dioxyde de carbone de l'air.", "La plante produit des sucres et rejette du dioxygène."],
        picture="Schéma : coupe d'une feuille montrant les entrées et les sorties",
        data_title="Une expérience avec l'élodée",
        chart={"chart": "bar", "title": "Bulles de dioxygène par minute", "categories": ["Obscurité", "Ombre", "Nuageux", "Plein soleil"],
               "series": [{"name": "Bulles", "values": [0, 3, 6, 11]}]},
        note="Plus il y a de lumière, plus la plante produit de dioxygène.",
        extra=("discussion", "À vous de discuter", ["Question 1 : Pourquoi une plante oubliée dans un placard finit-elle par jaunir ?",
                                                    "Question 2 : Que deviendraient les animaux s'il n'y avait plus de plantes vertes ?"]),
    ),
    "r-70d344f9e0456375": dict(  # es, ciclo del agua, 2.º ESO, estilo limpio, tema azul
        theme={"background": "#ffffff", "text": "#0f172a", "accent": "#1d4ed8", "font": "sans"},
        title="El ciclo del agua", subtitle="Biología y Geología · 2.º de ESO",
        cover="Imagen: montañas, nubes, un río y el mar unidos por flechas del ciclo del agua",
        points_title="Las etapas del ciclo",
        points=["Evaporación: el sol calienta el agua de mares y ríos.", "Condensación: el vapor se enfría y forma nubes.",
                "Precipitación: el agua cae como lluvia, nieve o granizo.", "Escorrentía e infiltración: el agua vuelve al mar y a los acuíferos."],
        picture="Imagen: nubes de lluvia sobre una montaña",
        data_title="¿Dónde está el agua dulce?",
        chart={"chart": "bar", "title": "Agua dulce de la Tierra (%)", "categories": ["Hielo", "Subterránea", "Superficie"],
               "series": [{"name": "Porcentaje", "values": [68.7, 30.1, 1.2]}]},
        note="Solo una pequeña parte del agua dulce está en ríos y lagos.",
        extra=("table", "Cambios de estado en el ciclo", {"header": ["Proceso", "Cambio", "Dónde ocurre"],
               "rows": [["Evaporación", "líquido → gas", "mares y ríos"], ["Condensación", "gas → líquido", "nubes"],
                        ["Solidificación", "líquido → sólido", "cumbres frías"], ["Fusión", "sólido → líquido", "glaciares en primavera"]]}),
    ),
    "r-e8a8547e581a83f3": dict(  # pt, estrutura da célula, 5º ano, gráfico de barras
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#7c3aed", "font": "sans"},
        title="A estrutura da célula", subtitle="Ciências · 5º ano",
        cover="Imagem: desenho de uma célula animal com núcleo, citoplasma e membrana",
        points_title="As partes da célula",
        points=["Membrana: envolve a célula e controla o que entra e sai.", "Citoplasma: líquido onde ficam as organelas.",
                "Núcleo: guarda o material genético (DNA).", "Mitocôndrias: produzem energia para a célula."],
        picture="Imagem: células da casca da cebola vistas ao microscópio",
        data_title="Do que são feitas as células?",
        chart={"chart": "bar", "title": "Tamanho de algumas células (micrômetros)", "categories": ["Bactéria", "Hemácia", "Pele", "Óvulo"],
               "series": [{"name": "Tamanho", "values": [2, 8, 30, 120]}]},
        note="O óvulo humano é uma das poucas células que dá para ver a olho nu.",
        extra=("table", "Célula animal x célula vegetal", {"header": ["Estrutura", "Animal", "Vegetal"],
               "rows": [["Membrana e núcleo", "sim", "sim"], ["Parede celular", "não", "sim"], ["Cloroplastos", "não", "sim"], ["Vacúolo grande", "não", "sim"]]}),
    ),
    "r-a040d41b66296dc5": dict(  # ko, 확률의 기초, 초등 3학년, 퀴즈
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#2563eb", "font": "sans"},
        title="확률의 기초", subtitle="초등학교 3학년 수학",
        cover="그림: 동전과 주사위, 그리고 여러 색깔 구슬이 든 주머니",
        points_title="확률이란 무엇일까요?",
        points=["어떤 일이 일어날 가능성을 말해요.", "'반드시', '가끔', '절대 아님'으로 나눌 수 있어요.",
                "동전의 앞면과 뒷면이 나올 가능성은 같아요.", "주사위의 1부터 6이 나올 가능성도 모두 같아요."],
        picture="그림: 빨간 구슬 3개와 파란 구슬 1개가 든 주머니",
        data_title="동전 던지기 실험",
        chart={"chart": "bar", "title": "동전을 20번 던진 결과", "categories": ["앞면", "뒷면"],
               "series": [{"name": "횟수", "values": [11, 9]}]},
        note="던지는 횟수가 많아질수록 앞면과 뒷면의 횟수가 비슷해져요.",
        extra=("quiz", "퀴즈 타임!", ["1. 내일 해가 동쪽에서 뜰 가능성은? (반드시 / 가끔 / 절대 아님)", "2. 주사위를 던져서 7이 나올 가능성은?",
                                     "3. 빨간 구슬 3개, 파란 구슬 1개 중 어느 색이 더 잘 나올까요?"]),
    ),
    "r-db8504594998d9bd": dict(  # zh, 分数的加减法, 初二, 知识结构图
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#0891b2", "font": "sans"},
        title="分数的加减法", subtitle="初二数学 · 复习课",
        cover="图片：一个披萨被平均切成八块，其中三块被拿走",
        points_title="计算法则",
        points=["同分母分数相加减：分母不变，分子相加减", "异分母分数相加减：先通分，再按同分母计算", "计算结果要约分成最简分数", "带分数可以先化成假分数再计算"],
        picture="图片：用数轴表示 1/2 + 1/3",
        data_title="例题",
        examples=["1/2 + 1/3\n= 3/6 + 2/6\n= 5/6", "3/4 − 1/6\n= 9/12 − 2/12\n= 7/12"],
        note="通分时选分母的最小公倍数，计算最简便。",
        extra=("concept", "知识结构图", ["分数加减法", "同分母：分子相加减", "异分母：先通分", "结果：约成最简", "带分数：化假分数"]),
    ),
    "r-ccb428c10360fe78": dict(  # en, periodic table, first-year college, bar chart
        theme={"background": "#ffffff", "text": "#111827", "accent": "#4f46e5", "font": "sans"},
        title="The Periodic Table", subtitle="General Chemistry · First-year college",
        cover="Picture: the periodic table coloured by element block (s, p, d, f)",
        points_title="How the table is organised",
        points=["Elements are ordered by atomic number, the number of protons.", "Each period fills one more electron shell.",
                "Groups share valence electrons and similar chemistry.", "Metals on the left, non-metals on the right."],
        picture="Picture: electron shells of sodium and chlorine",
        data_title="Ionisation energy across period 2",
        chart={"chart": "bar", "title": "First ionisation energy (kJ/mol)", "categories": ["Li", "Be", "B", "C", "N", "O", "F", "Ne"],
               "series": [{"name": "Energy", "values": [520, 899, 801, 1086, 1402, 1314, 1681, 2081]}]},
        note="Energy rises across a period; the dips at B and O come from subshell structure.",
        extra=("table", "Periodic trends", {"header": ["Property", "Across a period →", "Down a group ↓"],
               "rows": [["Atomic radius", "decreases", "increases"], ["Ionisation energy", "increases", "decreases"],
                        ["Electronegativity", "increases", "decreases"], ["Metallic character", "decreases", "increases"]]}),
    ),
}


LESSONS.update({
    "r-f299d26e7977857d": dict(  # fr, Seconde Guerre mondiale, CM2, style épuré, thème bleu
        theme={"background": "#ffffff", "text": "#0f172a", "accent": "#1d4ed8", "font": "sans"},
        title="La Seconde Guerre mondiale", subtitle="Histoire · CM2",
        cover="Image : carte de l'Europe en 1942, pays occupés en gris",
        points_title="Les grandes étapes",
        points=["1939 : l'Allemagne envahit la Pologne, la guerre commence.", "1940 : la France est battue puis occupée.",
                "1944 : le débarquement en Normandie libère la France.", "1945 : l'Allemagne puis le Japon capitulent."],
        picture="Image : soldats débarquant sur une plage de Normandie",
        data_title="Deux camps s'affrontent",
        table={"header": ["Les Alliés", "L'Axe"], "rows": [["Royaume-Uni", "Allemagne"], ["URSS", "Italie"], ["États-Unis", "Japon"]]},
        note="Des dizaines de millions de victimes, civiles et militaires.",
        extra=("quiz", "Je vérifie mes connaissances", ["1. En quelle année la guerre commence-t-elle ?", "2. Qu'appelle-t-on l'Occupation ?",
                                                       "3. Que se passe-t-il le 6 juin 1944 ?", "4. Quand la guerre se termine-t-elle en Europe ?"]),
    ),
    "r-3d9bfbb83bafac35": dict(  # de, Vulkane und Erdbeben, Oberstufe, Zeitstrahl
        theme={"background": "#fffdf9", "text": "#1c1917", "accent": "#c2410c", "font": "sans"},
        title="Vulkane und Erdbeben", subtitle="Geographie · Oberstufe",
        cover="Bild: Querschnitt durch einen Schichtvulkan mit Magmakammer",
        points_title="Plattentektonik als Ursache",
        points=["Die Lithosphäre besteht aus Platten, die sich bewegen.", "An divergenten Grenzen steigt Magma auf, etwa auf Island.",
                "An Subduktionszonen entstehen Vulkane und starke Beben.", "An Transformstörungen gleiten Platten aneinander vorbei."],
        picture="Bild: Weltkarte der Plattengrenzen mit Vulkanen",
        data_title="Die stärksten Erdbeben seit 1900",
        chart={"chart": "bar", "title": "Momenten-Magnitude (Mw)", "categories": ["Chile", "Alaska", "Sumatra", "Japan", "Kamtschatka"],
               "series": [{"name": "Magnitude", "values": [9.5, 9.2, 9.1, 9.1, 9.0]}]},
        note="Zwei Magnitudenstufen mehr bedeuten rund 1000-mal mehr freigesetzte Energie.",
        extra=("timeline", "Zeitstrahl", [("79", "Der Vesuv zerstört Pompeji"), ("1883", "Ausbruch des Krakatau"),
                                          ("1960", "Valdivia-Beben in Chile, Mw 9,5"), ("2011", "Tōhoku-Beben und Tsunami in Japan")]),
        timeline_header=["Jahr", "Ereignis"],
    ),
    "r-2eb4e76c237d29ce": dict(  # ja, 太陽系, 小学5年, 年表
        theme={"background": "#ffffff", "text": "#1e1b4b", "accent": "#4338ca", "font": "sans"},
        title="太陽系のふしぎ", subtitle="小学5年 理科",
        cover="図：太陽と8つの惑星",
        points_title="太陽系のなかま",
        points=["太陽は自分で光る星（恒星）", "8つの惑星が太陽のまわりを回っている", "地球は太陽から3番目の惑星", "月は地球のまわりを回る衛星"],
        picture="図：地球と月",
        data_title="惑星の大きさくらべ",
        chart={"chart": "bar", "title": "直径（地球＝1）", "categories": ["水星", "金星", "地球", "火星", "木星", "土星"],
               "series": [{"name": "直径", "values": [0.38, 0.95, 1, 0.53, 11.2, 9.4]}]},
        note="木星の直径は地球の約11倍もある。",
        extra=("timeline", "年表", [("1543", "コペルニクスが地動説を発表"), ("1610", "ガリレオが木星の衛星を発見"),
                                    ("1969", "アポロ11号が月に着陸"), ("2006", "冥王星が準惑星になる")]),
        timeline_header=["年", "できごと"],
    ),
    "r-4feedab7f8e6be3e": dict(  # en, introductory probability, grade 7, quiz
        theme={"background": "#ffffff", "text": "#1f2937", "accent": "#0f766e", "font": "sans"},
        title="Introductory Probability", subtitle="Math · Grade 7",
        cover="Picture: a coin, a six-sided die and a spinner with four colours",
        points_title="What is probability?",
        points=["Probability measures how likely an event is, from 0 to 1.", "P(event) = favourable outcomes ÷ all outcomes.",
                "0 means impossible, 1 means certain.", "Experiments give frequencies close to the probability."],
        picture="Picture: a bag with 3 red marbles and 1 blue marble",
        data_title="Rolling a die 60 times",
        chart={"chart": "bar", "title": "How often each face came up", "categories": ["1", "2", "3", "4", "5", "6"],
               "series": [{"name": "Count", "values": [9, 11, 10, 8, 12, 10]}]},
        note="Each face has probability 1/6, so we expect about 10 of each.",
        extra=("quiz", "Quick quiz", ["1. What is the probability of rolling a 4 on a die?", "2. A bag has 3 red and 1 blue marble. What is P(blue)?",
                                      "3. Heads or tails: which is more likely on a fair coin?", "4. Give an example of an impossible event."]),
    ),
    "r-81e12f627a070847": dict(  # zh, 概率初步, 大学一年级, 风格简洁 蓝色主题
        theme={"background": "#ffffff", "text": "#0f172a", "accent": "#2563eb", "font": "sans"},
        title="概率初步", subtitle="大学一年级 · 概率论基础",
        cover="图片：抛硬币与掷骰子的示意图",
        points_title="基本概念",
        points=["样本空间 Ω：试验所有可能结果的集合", "事件：样本空间的子集", "古典概型：P(A) = A 含的基本事件数 ÷ 基本事件总数", "性质：0 ≤ P(A) ≤ 1，P(Ω) = 1"],
        picture="图片：用维恩图表示事件的并与交",
        data_title="两颗骰子点数之和",
        chart={"chart": "bar", "title": "点数和的概率（单位：1/36）", "categories": ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12"],
               "series": [{"name": "概率", "values": [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]}]},
        note="点数和为7的概率最大，等于 6/36 = 1/6。",
        extra=("table", "常用公式", {"header": ["公式", "含义"],
               "rows": [["P(A∪B) = P(A) + P(B) − P(AB)", "加法公式"], ["P(B|A) = P(AB) ÷ P(A)", "条件概率"],
                        ["P(AB) = P(A)P(B)", "A、B 相互独立"], ["P(Ā) = 1 − P(A)", "对立事件"]]}),
    ),
    "r-d900cb8e45d592df": dict(  # ko, 광합성, 초등 5학년, 토론 질문 2개
        theme={"background": "#ffffff", "text": "#14281d", "accent": "#16a34a", "font": "sans"},
        title="광합성", subtitle="초등학교 5학년 과학",
        cover="그림: 햇빛을 받는 식물과 물, 이산화 탄소, 산소의 이동을 나타낸 화살표",
        points_title="광합성이란?",
        points=["식물이 빛을 이용해 스스로 양분을 만드는 과정이에요.", "잎은 햇빛과 공기 중의 이산화 탄소를 받아들여요.",
                "뿌리는 땅속의 물을 흡수해요.", "양분(녹말)을 만들고 산소를 내보내요."],
        picture="그림: 잎의 단면과 기공",
        data_title="빛의 세기와 광합성",
        chart={"chart": "bar", "title": "1분 동안 나온 산소 방울 수", "categories": ["어두움", "그늘", "흐림", "맑음"],
               "series": [{"name": "방울 수", "values": [0, 3, 6, 11]}]},
        note="빛이 강할수록 산소 방울이 많이 나와요.",
        extra=("discussion", "함께 이야기해 봐요", ["질문 1. 화분을 어두운 곳에 오래 두면 식물은 어떻게 될까요?",
                                                "질문 2. 지구에 식물이 없다면 동물과 사람에게 어떤 일이 생길까요?"]),
    ),
    "r-c3d157f69fdec9f5": dict(  # pt, ecossistemas e cadeias alimentares, 9º ano, estilo limpo, tema azul
        theme={"background": "#ffffff", "text": "#0f172a", "accent": "#0369a1", "font": "sans"},
        title="Ecossistemas e cadeias alimentares", subtitle="Ciências · 9º ano",
        cover="Imagem: uma lagoa com plantas, insetos, peixes e uma garça",
        points_title="Quem faz parte de um ecossistema?",
        points=["Produtores: plantas e algas que fazem fotossíntese.", "Consumidores: animais que comem outros seres vivos.",
                "Decompositores: fungos e bactérias que reciclam a matéria.", "Fatores abióticos: luz, água, solo e temperatura."],
        picture="Imagem: fungos crescendo em um tronco caído",
        data_title="A energia diminui a cada nível",
        chart={"chart": "bar", "title": "Energia disponível (kcal/m² por ano)", "categories": ["Produtores", "Herbívoros", "Carnívoros", "Topo"],
               "series": [{"name": "Energia", "values": [10000, 1000, 100, 10]}]},
        note="Só cerca de 10% da energia passa de um nível para o seguinte.",
        extra=("table", "Uma cadeia alimentar", {"header": ["Nível", "Exemplo", "Papel"],
               "rows": [["Produtor", "capim", "faz fotossíntese"], ["Consumidor primário", "gafanhoto", "herbívoro"],
                        ["Consumidor secundário", "sapo", "carnívoro"], ["Consumidor terciário", "cobra", "predador"]]}),
    ),
})


# =============================================================================================
# Slides: decks under the cogevol-slides/1 contract, good and defective
# =============================================================================================

TITLE_SIZE, TITLE_BOX = 40, (60, 36, 1160, 64)  # every slide's title: one size, one place
_WIDE = re.compile(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]")


def _em(token: str) -> float:
    """Approximate advance width of a token in em (sans fonts)."""
    w = 0.0
    for ch in token:
        w += 1.0 if _WIDE.match(ch) else 0.28 if ch == " " else 0.62 if ch.isupper() else 0.55
    return w


def _lines(text: str, width_px: float, size: float) -> int:
    """Lines a paragraph wraps to: greedy over words (Latin) and single characters (CJK)."""
    n = 0
    for para in text.split("\n"):
        tokens = re.findall(r"[\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]|[^\s\u1100-\u11ff\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]+\s*|\s+", para)
        line, n = 0.0, n + 1
        for t in tokens:
            w = _em(t) * size
            if line and line + _em(t.rstrip()) * size > width_px:
                n += 1
                line = w
            else:
                line += w
    return n


def text_h(text: str, w: float, size: float) -> float:
    n = _lines(text, w, size)
    return (n + (n > 1)) * 1.25 * size + 8  # a spare line when it wraps: browsers break less greedily


def bullets_h(items: list[str], w: float, size: float) -> float:
    return sum(_lines(i, w - 1.3 * size, size) for i in items) * 1.25 * size + len(items) * 0.35 * size + 8


def table_h(rows: int, size: float) -> float:
    return (rows + 1) * (size * 1.25 + size * 0.6 + 1) + 6


def E(kind: str, x: float, y: float, w: float, h: float, **props) -> dict:
    """One element, keys in the order models write them: type, content, box."""
    return {"type": kind, **props, "x": round(x), "y": round(y), "w": round(w), "h": round(h)}


def _title(text: str) -> dict:
    return E("title", *TITLE_BOX, text=text, size=TITLE_SIZE)


def _cover(L: dict, accent: str) -> list[dict]:
    return [_title(L["title"]), E("shape", 60, 116, 180, 8, shape="rect", fill=accent),
            E("text", 60, 140, 1160, 56, text=L["subtitle"], size=28, color=accent),
            E("image", 60, 220, 1160, 450, alt=L["cover"])]


def _points_a(L: dict, subtitle: bool = False) -> list[dict]:
    els = [_title(L["points_title"] if not subtitle else L["title"])]
    y = 130
    if subtitle:
        els.append(E("text", 60, y, 660, 50, text=L["subtitle"], size=28, color=L["theme"]["accent"]))
        y += 70
    size = 28
    h = bullets_h(L["points"], 660, size)
    els += [E("bullets", 60, y, 660, h, items=L["points"], size=size), E("image", 780, 130, 440, 420, alt=L["picture"])]
    return els


def _points_b(L: dict) -> list[dict]:
    """The key points as four cards."""
    els = [_title(L["points_title"])]
    tint = _tint(L["theme"]["accent"])
    for k, point in enumerate(L["points"]):
        x, y = 60 + (k % 2) * 600, 130 + (k // 2) * 280
        els += [E("shape", x, y, 560, 250, shape="rect", fill=tint), E("text", x + 30, y + 30, 500, text_h(point, 500, 28), text=point, size=28)]
    return els


def _data(L: dict, chart_right: bool) -> list[dict]:
    els = [_title(L["data_title"])]
    note_size = 24
    if "chart" in L:
        chart = dict(L["chart"])
        cx = 500 if chart_right else 60
        nx = 60 if chart_right else 860
        els.append(E("chart", cx, 130, 720, 520, **chart))
        els.append(E("text", nx, 160, 360, text_h(L["note"], 360, note_size), text=L["note"], size=note_size))
    elif "table" in L:
        t = L["table"]
        h = table_h(len(t["rows"]), 24)
        els.append(E("table", 60, 130, 1160, h, header=t["header"], rows=t["rows"], size=24))
        els.append(E("text", 60, 130 + h + 30, 1160, text_h(L["note"], 1160, 28), text=L["note"], size=28, color=L["theme"]["accent"]))
    else:  # worked examples in boxes
        tint = _tint(L["theme"]["accent"])
        for k, ex in enumerate(L["examples"]):
            x = 60 + k * 600
            els += [E("shape", x, 140, 560, 300, shape="rect", fill=tint), E("text", x + 40, 170, 480, text_h(ex, 480, 40), text=ex, size=40)]
        els.append(E("text", 60, 480, 1160, text_h(L["note"], 1160, 28), text=L["note"], size=28, color=L["theme"]["accent"]))
    return els


def _extra(L: dict, style: str) -> list[dict]:
    kind, title, content = L["extra"]
    accent, tint = L["theme"]["accent"], _tint(L["theme"]["accent"])
    els = [_title(title)]
    if kind == "quiz":
        if style == "a":
            els.append(E("bullets", 60, 130, 1000, bullets_h(content, 1000, 28), items=content, size=28))
        else:  # one card per question, two columns
            for k, q in enumerate(content):
                x, y = 60 + (k % 2) * 600, 130 + (k // 2) * 270
                els += [E("shape", x, y, 560, 240, shape="rect", fill=tint), E("text", x + 25, y + 25, 510, text_h(q, 510, 28), text=q, size=28)]
    elif kind == "discussion":
        for k, q in enumerate(content):
            if style == "a":
                x, y, w, h = 60, 140 + k * 270, 1160, 230
            else:
                x, y, w, h = 60 + k * 600, 140, 560, 500
            els += [E("shape", x, y, w, h, shape="rect", fill=tint),
                    E("text", x + 30, y + 30, w - 60, text_h(q, w - 60, 28), text=q, size=28)]
    elif kind == "timeline":
        if style == "a":
            els.append(E("shape", 60, 300, 1160, 6, shape="line", stroke=accent))
            for k, (year, what) in enumerate(content):
                x = 60 + k * 295
                els += [E("shape", x, 288, 30, 30, shape="ellipse", fill=accent),
                        E("text", x, 214, 250, 48, text=year, size=28, bold=True, color=accent),
                        E("text", x, 340, 260, text_h(what, 260, 24), text=what, size=24)]
        else:
            rows = [[y, w] for y, w in content]
            els.append(E("table", 60, 140, 1160, table_h(len(rows), 26), header=L["timeline_header"], rows=rows, size=26))
    elif kind == "concept":
        center, *leaves = content
        els += [E("shape", 470, 300, 340, 130, shape="ellipse", fill=accent),
                E("text", 500, 342, 280, 48, text=center, size=28, bold=True, color="#ffffff", align="center")]
        spots = [(60, 310, 330, 110), (890, 310, 330, 110), (475, 130, 330, 100), (475, 550, 330, 100)]
        links = [(390, 361, 80, 8), (810, 361, 80, 8), (639, 230, 2, 70), (639, 430, 2, 120)]
        for (x, y, w, h), line, leaf in zip(spots, links, leaves):
            els += [E("shape", *line, shape="line", stroke=accent), E("shape", x, y, w, h, shape="rect", fill=tint),
                    E("text", x + 15, y + (h - 44) / 2, w - 30, 44, text=leaf, size=24, align="center")]
    elif kind == "table":
        h = table_h(len(content["rows"]), 24)
        if style == "a":
            els.append(E("table", 60, 130, 1160, h, header=content["header"], rows=content["rows"], size=24))
        else:
            els += [E("table", 60, 130, 720, h, header=content["header"], rows=content["rows"], size=22),
                    E("image", 820, 130, 400, 400, alt=L["picture"])]
    return els


def _agenda(L: dict) -> list[dict]:
    items = [L["points_title"], L["data_title"], L["extra"][1]]
    return [_title(L["title"]), E("text", 60, 130, 640, 56, text=L["subtitle"], size=28, color=L["theme"]["accent"]),
            E("shape", 60, 200, 640, 6, shape="line", stroke=L["theme"]["accent"]),
            E("bullets", 60, 230, 640, bullets_h(items, 640, 28), items=items, size=28),
            E("image", 760, 130, 460, 540, alt=L["cover"])]


def _tint(hex_colour: str) -> str:
    """The accent mixed 85% with white: a card background."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#" + "".join(f"{round(c + (255 - c) * 0.85):02x}" for c in (r, g, b))


def deck(spec: Spec, variant: str) -> dict:
    L = LESSONS[spec.pid]
    if variant == "1":
        slides = [_cover(L, L["theme"]["accent"]), _points_a(L), _data(L, chart_right=False), _extra(L, "a")]
    elif variant == "2":
        slides = [_agenda(L), _points_b(L), _data(L, chart_right=True), _extra(L, "b")]
    else:  # a shorter deck: title on the first content slide
        slides = [_points_a(L, subtitle=True), _data(L, chart_right=True), _extra(L, "a")]
    theme = dict(L["theme"])
    if variant == "2":
        theme["font"] = "serif" if theme["font"] == "sans" else "sans"
    return {"version": "cogevol-slides/1", "theme": theme, "slides": [{"elements": s} for s in slides]}


# --- defective decks: the mistakes models make on this contract --------------------------------

def _content(els: list[dict]) -> list[dict]:
    return [e for e in els if e["type"] != "shape"]


def break_deck(d: dict, defect: str) -> dict:
    d = json.loads(json.dumps(d))  # a deep copy
    slides = [s["elements"] for s in d["slides"]]
    if defect == "overlap":  # everything after the title slides up onto the element before it
        for els in slides:
            body = [e for e in _content(els) if e["type"] != "title"]
            for prev, e in zip(body, body[1:]):
                e["x"] = min(prev["x"] + prev["w"] // 4, 1270 - e["w"])
                e["y"] = min(prev["y"] + min(prev["h"], 200) // 3, 710 - e["h"])
            if body:
                body[0]["y"] = 70  # and the first block climbs under the title
    elif defect == "overflow":  # long text, boxes sized for a third of it
        for els in slides:
            for e in els:
                if e["type"] in ("bullets", "text", "table"):
                    e["h"] = max(24, e["h"] // 4)
                    if e["type"] == "bullets":
                        e["items"] = [i + " " + i for i in e["items"]]
                if e["type"] == "title":
                    e["w"], e["h"] = 520, 40
    elif defect == "tiny_font":  # everything squeezed to fit: 9 px body, 14 px titles
        for els in slides:
            for e in els:
                if e["type"] == "title":
                    e["size"] = 14
                elif e["type"] in ("bullets", "text", "table"):
                    e["size"] = 9
    elif defect == "broken_chart":  # a flat strip of a chart with no data in it
        for els in slides:
            for e in els:
                if e["type"] == "chart":
                    e["h"], e["w"] = 90, 1160
                    e["y"] = 560
                    for s in e["series"]:
                        s["values"] = [0 for _ in s["values"]]
    elif defect == "invalid_missing_field":  # boxes half written, a chart without categories
        for els in slides:
            for e in els:
                if e["type"] in ("bullets", "image", "table"):
                    e.pop("h", None)
                if e["type"] == "chart":
                    e.pop("categories", None)
    else:
        raise ValueError(f"unknown slide defect {defect!r}")
    return d


SLIDE_INTROS = {"zh": ("好的，下面是课件的JSON：", "希望对你的课堂有帮助！"), "en": ("Sure! Here are your slides:", "Let me know if you want changes."),
                "ko": ("네, 슬라이드 JSON입니다:", "수정할 부분이 있으면 말씀해 주세요!"),
                "es": ("¡Claro! Aquí tienes las diapositivas:", "¿Quieres que cambie algo?")}


def slide_response(spec: Spec, intended: str, variant: str, n: int) -> str:
    d = deck(spec, variant)
    if intended == "invalid_json_prose":  # chatty, with JSON5-isms (comments, trailing commas) a parser rejects
        before, after = SLIDE_INTROS.get(spec.lang, SLIDE_INTROS["en"])
        body = json.dumps(d, ensure_ascii=False, indent=2)
        body = body.replace('"slides": [', '"slides": [ // 4 slides', 1).replace("}\n  ]\n}", "},\n  ]\n}")
        body = re.sub(r'("size": \d+)\n', r'\1,\n', body, count=3)
        return f"{before}\n\n{body}\n\n{after}"
    if intended != "good":
        d = break_deck(d, intended)
    if n % 2:
        return "```json\n" + json.dumps(d, ensure_ascii=False, indent=2) + "\n```"
    return json.dumps(d, ensure_ascii=False, indent=1)


# =============================================================================================
# Verification: execute every candidate the way distill does and check its label
# =============================================================================================

HARD_FAIL_DEFECTS = {"dead_control", "static_shell", "script_error", "self_running_dead"}
HTML_MIN_REWARD = 0.75  # distill.html_min_reward
SLIDE_MIN_RULES = 4.5


def summary(records: list[dict]) -> dict:
    prompts = {(r["prompt_id"], r["modality"], r["subcategory"]) for r in records}
    return {
        "records": len(records),
        "prompts": len(prompts),
        "prompts_by_category": dict(sorted(Counter(f"{m}/{s}" for _, m, s in prompts).items())),
        "candidates_by_intended": dict(sorted(Counter(f"{r['modality']}:{r['intended']}" for r in records).items())),
        "good": sum(r["intended"] == "good" for r in records),
        "defective": sum(r["intended"] != "good" for r in records),
        "bytes": sum(len(json.dumps(r, ensure_ascii=False).encode()) + 1 for r in records),
    }


def _cli(args: list[str]) -> list[dict]:
    exe = ROOT / ".venv/bin/cogevol"
    cmd = [str(exe) if exe.exists() else "cogevol", *args]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    out = []
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            out.append(json.loads(line))
    if run.returncode:
        print(run.stderr[-2000:], file=sys.stderr)
    return out


def judge(rec: dict, res: dict) -> tuple[str, bool]:
    """(outcome, matches the label) for one executed candidate."""
    if rec["modality"] == "html":
        if res.get("harness_error"):
            return "harness_error", False
        if res["hard_fail"]:
            outcome = "hard_fail"
        else:
            outcome = "admitted" if res["reward"] >= HTML_MIN_REWARD else "low_reward"
        if rec["intended"] == "good":
            return outcome, outcome == "admitted"
        if rec["intended"] in HARD_FAIL_DEFECTS:
            return outcome, outcome == "hard_fail"
        # mobile_break: renders and works, loses reward on the viewport terms
        terms = res.get("terms", {})
        return outcome, outcome == "low_reward" and terms.get("viewport_mobile", 0) > 0
    if not res.get("valid"):
        return "invalid", rec["intended"] != "good"
    outcome = "rules>=4.5" if res["rule_score"] >= SLIDE_MIN_RULES else "rules<4.5"
    return outcome, (outcome == "rules>=4.5") == (rec["intended"] == "good")


def verify(records: list[dict]) -> int:
    with tempfile.TemporaryDirectory(prefix="replay-verify-") as tmp:
        files = dump(records, Path(tmp))
        by_path = {str(p): r for r, p in files}
        html = [str(p) for r, p in files if r["modality"] == "html"]
        slides = [str(p) for r, p in files if r["modality"] == "slide"]
        results = []
        if html:
            results += _cli(["probe", "--workers", "1", *html])
        if slides:
            results += _cli(["slide-score", *slides])
    table: Counter = Counter()
    bad = []
    seen = set()
    for res in results:
        rec = by_path[res["path"]]
        seen.add(res["path"])
        outcome, ok = judge(rec, res)
        table[(rec["modality"], rec["intended"], outcome)] += 1
        score = res.get("reward") if rec["modality"] == "html" else res.get("rule_score")
        line = (f"{rec['prompt_id']} {rec['teacher']}#{rec['candidate']} {rec['modality']}/{rec['subcategory']} "
                f"{rec['intended']}: {outcome} score={score} {res.get('seconds')}s {res.get('reason', '')[:110]}")
        print(("   " if ok else "!! ") + line)
        if not ok:
            bad.append(line)
    for path in set(by_path) - seen:
        bad.append(f"{path}: no result")
    print("\n| modality | intended | outcome | candidates |\n| --- | --- | --- | --- |")
    for (m, i, o), n in sorted(table.items()):
        print(f"| {m} | {i} | {o} | {n} |")
    print(f"\n{len(results) - len(bad)}/{len(records)} candidates judged as labelled")
    for line in bad:
        print("MISMATCH", line)
    return 1 if bad else 0


# =============================================================================================
# Building the cache
# =============================================================================================

def load_specs() -> dict[str, Spec]:
    failed = {json.loads(line)["id"] for line in FAILURES.open(encoding="utf-8")}
    wanted = {p.pid for p in HTML_PLANS + SLIDE_PLANS}
    specs = {}
    for line in PROMPTS.open(encoding="utf-8"):
        rec = json.loads(line)
        if rec["id"] in wanted:
            specs[rec["id"]] = make_spec(rec, failed)
    missing = wanted - set(specs)
    if missing:
        raise SystemExit(f"prompts not found in {PROMPTS}: {sorted(missing)}")
    return specs


def build(only: set[str] | None = None) -> list[dict]:
    specs = load_specs()
    records = []
    for plan in HTML_PLANS + SLIDE_PLANS:
        if only and plan.pid not in only:
            continue
        spec = specs[plan.pid]
        per_teacher: Counter = Counter()
        for n, (teacher, intended, variant) in enumerate(plan.cands):
            k = per_teacher[teacher]
            per_teacher[teacher] += 1
            if spec.modality == "html":
                if spec.app != plan.app:
                    raise SystemExit(f"{spec.pid}: lexicon finds app {spec.app!r}, plan says {plan.app!r}")
                response = html_response(spec, html_candidate(spec, plan.app, intended, variant, n), n)
            else:
                response = slide_response(spec, intended, variant, n)
            records.append({"teacher": teacher, "prompt_id": spec.pid, "modality": spec.modality,
                            "subcategory": spec.sub, "candidate": k, "request": spec.request,
                            "response": response, "intended": intended})
    records.sort(key=lambda r: (r["prompt_id"], r["teacher"], r["candidate"]))
    return records


def artifact(rec: dict) -> str:
    """What distill executes: the HTML document, or the slide answer as written."""
    if rec["modality"] == "html":
        from cogevol.scoring.extract import extract_html

        return extract_html(rec["response"]) or ""
    return rec["response"]


def dump(records: list[dict], out: Path) -> list[tuple[dict, Path]]:
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for r in records:
        ext = "html" if r["modality"] == "html" else "txt"
        path = out / f"{r['prompt_id']}__{r['teacher']}__{r['candidate']}__{r['intended']}.{ext}"
        path.write_text(artifact(r), encoding="utf-8")
        files.append((r, path))
    return files


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--only", nargs="*", help="prompt ids to build (debugging; the file then holds only those)")
    ap.add_argument("--dump", default=None, help="also write every candidate's artifact under this directory")
    ap.add_argument("--verify", action="store_true", help="probe / slide-score every candidate and check the labels")
    a = ap.parse_args(argv)
    records = build(set(a.only) if a.only else None)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(json.dumps(summary(records), ensure_ascii=False, indent=1))
    if a.dump:
        dump(records, Path(a.dump))
    if a.verify:
        return verify(records)
    return 0


if __name__ == "__main__":
    sys.exit(main())
