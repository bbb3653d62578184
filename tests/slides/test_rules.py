"""Rule engine on hand-made measurements: each rule sees its defect and names the element."""

from cogevol.slides.contract import VERSION, parse
from cogevol.slides.rules import RuleConfig, evaluate, rule_config


def el(kind, x, y, w, h, **props):
    base = {"title": {"text": "T"}, "text": {"text": "words here"}, "image": {"alt": "pic"},
            "shape": {"shape": "rect"}, "bullets": {"items": ["a"]}}.get(kind, {})
    return {"type": kind, "x": x, "y": y, "w": w, "h": h, **base, **props}


def meas(e, index, ink=None, overflow=(0, 0), size=24.0, blocks=None, chart=None):
    box = [e["x"], e["y"], e["w"], e["h"]]
    m = {"slide": 0, "index": index, "type": e["type"], "box": box, "ink": ink or box, "overflow_x": overflow[0],
         "overflow_y": overflow[1], "blocks": blocks if blocks is not None else [{"chars": 10, "lines": 1, "cell": False, "size": size}],
         "font_min": size, "chars": 10}
    if chart:
        m["chart"] = chart
    return m


def run(elements, measured=None, cfg=None):
    deck = parse({"version": VERSION, "slides": [{"elements": elements}]})
    measured = measured or [meas(e, k) for k, e in enumerate(elements)]
    return evaluate(deck, [measured], cfg)


GOOD = [el("title", 60, 40, 1160, 70), el("text", 60, 140, 560, 400), el("image", 660, 140, 560, 400)]


def test_a_clean_layout_scores_five_with_no_violations():
    r = run(GOOD)
    assert r.score == 5.0 and r.violations == []
    assert r.rules["chart_geometry"] is None and r.rules["theme_consistency"] is None  # not applicable


def test_overlap_is_a_collision_naming_both_elements():
    els = [GOOD[0], GOOD[1], el("image", 300, 200, 560, 400)]
    r = run(els)
    assert r.rules["collisions"] < 5
    assert any("slide 1 #2 text" in v and "slide 1 #3 image" in v and "text over image" in v for v in r.violations)


def test_text_painted_past_its_box_collides_even_when_boxes_do_not():
    els = [GOOD[0], el("text", 60, 140, 560, 100), el("image", 60, 300, 560, 300)]
    ms = [meas(els[0], 0), meas(els[1], 1, ink=[60, 140, 560, 260], overflow=(0, 160)), meas(els[2], 2)]
    r = run(els, ms)
    assert r.rules["text_fit"] < 5 and r.rules["collisions"] < 5
    assert any("overflows its box by 160 px at the bottom" in v for v in r.violations)


def test_shapes_behind_text_are_not_collisions():
    els = [GOOD[0], el("shape", 40, 120, 600, 440), GOOD[1], GOOD[2]]
    assert run(els).rules["collisions"] == 5.0


def test_off_canvas_and_empty_slides_lose_canvas_use():
    off = run([GOOD[0], GOOD[1], el("image", 1000, 140, 560, 400)])
    assert off.rules["canvas_use"] < 3
    assert any("outside the canvas" in v and "past the right edge" in v for v in off.violations)
    empty = run([el("shape", 0, 0, 1280, 720)])
    assert empty.score == 0.0 and empty.violations == ["canvas_use: slide 1 has no content"]
    sparse = run([el("text", 600, 340, 80, 30)])
    assert sparse.rules["canvas_use"] < 3 and any("uses 0% of the canvas" in v or "uses 1% of the canvas" in v for v in sparse.violations)


def test_tiny_fonts_and_long_lines_hurt_legibility():
    els = [GOOD[0], GOOD[1]]
    ms = [meas(els[0], 0, size=40), meas(els[1], 1, size=9, blocks=[{"chars": 300, "lines": 2, "cell": False, "size": 9}])]
    r = run(els, ms)
    assert r.rules["legibility"] < 3
    assert any("font 9 px is under 14 px" in v for v in r.violations)
    assert any("lines average 150 characters" in v for v in r.violations)


def test_chart_geometry_checks_data_axes_plot_and_labels():
    chart = el("chart", 60, 140, 1100, 120, chart="bar", categories=["a", "b"], series=[{"name": "s", "values": [0, 0]}])
    drawn = {"kind": "bar", "plot": [112, 160, 1030, 60], "axes": 2, "marks": [],
             "labels": [[200, 240, 50, 14], [220, 240, 50, 14]]}
    r = run([GOOD[0], chart], [meas(GOOD[0], 0), meas(chart, 1, blocks=[], chart=drawn)])
    text = "\n".join(r.violations)
    assert r.rules["chart_geometry"] == 0.0
    for expected in ("has no data", "aspect ratio 9.2", "plot area 1030x60 px is too small", "1 overlapping label pair"):
        assert expected in text, expected


def test_theme_consistency_applies_to_decks_only():
    deck = {"version": VERSION, "slides": [
        {"elements": [el("title", 60, 40, 1160, 70, size=40), el("text", 60, 140, 560, 400, color="#111111")]},
        {"elements": [el("title", 60, 300, 1160, 70, size=28), el("text", 60, 140, 560, 400, color="#222222")]}]}
    d = parse(deck)
    ms = [[meas(e, k) for k, e in enumerate(s["elements"])] for s in deck["slides"]]
    r = evaluate(d, ms)
    assert r.rules["theme_consistency"] == 3.0
    assert any("titles use 2 sizes" in v for v in r.violations) and any("jump around" in v for v in r.violations)


def test_weights_come_from_params_and_skip_rules_that_do_not_apply():
    cfg = rule_config({"weights": {"collisions": 0.0}, "chart_aspect": [0.5, 3]})
    assert cfg.chart_aspect == (0.5, 3) and cfg.weights["canvas_use"] == 1.0
    els = [GOOD[0], GOOD[1], el("image", 300, 200, 560, 400)]
    assert run(els, cfg=cfg).score == 5.0  # the collision is still reported but weighs nothing
    assert run(els, cfg=RuleConfig()).score < 5.0
