"""Request classification: slide / interactive-HTML / off-scope, with a subcategory.

Keyword families in eight languages, scored and compared. Cheap and transparent on purpose:
every decision carries the matched cues, so a curator can see why a request was kept or not.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cogevol.core.request_lexicon import SUBCATEGORIES, word_rx

SLIDE = word_rx(
    [
        "slide",
        "slides",
        "slideshow",
        "deck",
        "ppt",
        "pptx",
        "powerpoint",
        "keynote",
        "presentation",
        "课件",
        "幻灯片",
        "演示文稿",
        "讲义",
        "投影片",
        "diapositiva",
        "diapositivas",
        "presentación",
        "diapo",
        "diapos",
        "diaporama",
        "présentation",
        "folie",
        "folien",
        "präsentation",
        "スライド",
        "プレゼン",
        "슬라이드",
        "발표 자료",
        "발표자료",
        "apresentação",
        "apresentacao",
    ]
)
HTML = word_rx(
    [
        "html",
        "web page",
        "webpage",
        "website",
        "web app",
        "page",
        "game",
        "simulation",
        "simulator",
        "quiz",
        "chart",
        "graph",
        "visualization",
        "visualisation",
        "dashboard",
        "3d",
        "webgl",
        "canvas",
        "calculator",
        "converter",
        "timer",
        "interactive",
        "animation",
        "viewer",
        "demo",
        "widget",
        "tool",
        "网页",
        "页面",
        "游戏",
        "模拟",
        "测验",
        "图表",
        "折线图",
        "柱状图",
        "可视化",
        "计算器",
        "换算",
        "计时",
        "交互",
        "动画",
        "演示",
        "网站",
        "查看器",
        "练习",
        "juego",
        "simulación",
        "simulador",
        "página",
        "gráfico",
        "calculadora",
        "conversor",
        "temporizador",
        "cuestionario",
        "jeu",
        "simulateur",
        "graphique",
        "calculatrice",
        "convertisseur",
        "minuteur",
        "casse-briques",
        "spiel",
        "seite",
        "simulation",
        "diagramm",
        "taschenrechner",
        "umrechner",
        "webseite",
        "übung",
        "ゲーム",
        "シミュレー",
        "ページ",
        "クイズ",
        "グラフ",
        "電卓",
        "タイマー",
        "ビューア",
        "ツール",
        "게임",
        "시뮬레이",
        "페이지",
        "퀴즈",
        "그래프",
        "계산기",
        "타이머",
        "뷰어",
        "변환기",
        "웹",
        "jogo",
        "simulação",
        "gráfico",
        "calculadora",
        "visualizador",
    ]
)
BACKEND = word_rx(
    [
        "api",
        "rest",
        "restful",
        "django",
        "flask",
        "fastapi",
        "spring boot",
        "express",
        "sql",
        "mysql",
        "postgresql",
        "postgres",
        "mongodb",
        "redis",
        "kafka",
        "kubernetes",
        "k8s",
        "docker",
        "nginx",
        "bash script",
        "shell script",
        "python script",
        "cron",
        "cronjob",
        "backend",
        "microservice",
        "microsserviço",
        "server",
        "borrow checker",
        "csv",
        "excel",
        "scraper",
        "crawler",
        "python",
        "java",
        "golang",
        "爬虫",
        "抓取",
        "数据库",
        "接口",
        "后端",
        "服务器",
        "脚本",
        "消费者服务",
        "バッチ",
        "스크립트",
        "엑셀",
    ]
)


@dataclass(slots=True)
class Classification:
    category: str  # "slide" | "html" | "off_scope"
    subcategory: str
    cues: list[str] = field(default_factory=list)


def classify(request: str, response: str | None = None) -> Classification:
    """Classify a user request; the assistant response only breaks slide/HTML ties."""
    low = request.lower()  # patterns are lower-case: one lower() beats re.I on every pattern
    slide = SLIDE.findall(low)
    html = HTML.findall(low)
    backend = BACKEND.findall(low)
    cues = [*slide, *html, *backend]
    if not slide and not html:
        sub = "backend" if backend else ("chitchat" if len(request) < 60 else "other")
        return Classification("off_scope", sub, cues)
    if len(backend) > len(slide) + len(html):
        return Classification("off_scope", "backend", cues)
    if len(slide) > len(html) or (len(slide) == len(html) and not _looks_like_html(response)):
        return Classification("slide", "lesson", cues)
    for sub, rx in SUBCATEGORIES.items():
        if rx.search(low):
            return Classification("html", sub, cues)
    return Classification("html", "page", cues)


def _looks_like_html(response: str | None) -> bool:
    return bool(response) and ("<html" in response.lower() or "<!doctype" in response.lower())
