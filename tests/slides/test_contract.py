import json

import pytest

from cogevol.slides.contract import VERSION, ContractError, extract_json, parse, validate


def deck(*elements, **extra):
    return {"version": VERSION, "slides": [{"elements": list(elements)}], **extra}


TITLE = {"type": "title", "text": "Cells", "x": 60, "y": 40, "w": 1160, "h": 70}


def test_valid_deck_parses_into_elements_with_labels():
    d = parse(deck(TITLE, {"type": "bullets", "items": ["a", "b"], "x": 60, "y": 140, "w": 500, "h": 300, "size": 24}))
    assert [e.type for e in d.slides[0]] == ["title", "bullets"]
    assert d.slides[0][1].props == {"items": ["a", "b"], "size": 24}
    assert d.slides[0][0].label == "slide 1 #1 title 'Cells'"


def test_output_in_a_fence_with_prose_is_found():
    text = "Sure! Here are your slides:\n```json\n" + json.dumps(deck(TITLE)) + "\n```\nEnjoy."
    assert parse(text).slides[0][0].props["text"] == "Cells"


@pytest.mark.parametrize("mutate, expected", [
    (lambda d: d.pop("version"), "$.version: expected 'cogevol-slides/1'"),
    (lambda d: d.update(slides=[]), "$.slides: expected a non-empty list"),
    (lambda d: d["slides"][0]["elements"][0].pop("w"), "$.slides[0].elements[0]: title needs 'w'"),
    (lambda d: d["slides"][0]["elements"][0].update(w="wide"), "$.slides[0].elements[0].w: expected a number, got string 'wide'"),
    (lambda d: d["slides"][0]["elements"][0].update(h=0), "$.slides[0].elements[0].h: must be > 0"),
    (lambda d: d["slides"][0]["elements"][0].update(type="video"), "$.slides[0].elements[0].type: expected one of"),
    (lambda d: d["slides"][0]["elements"][0].update(font="x"), "$.slides[0].elements[0].font: unknown field"),
    (lambda d: d["slides"][0]["elements"][0].update(color="red"), "$.slides[0].elements[0].color: expected a #rrggbb colour"),
    (lambda d: d["slides"][0]["elements"][0].update(text="  "), "$.slides[0].elements[0].text: must not be empty"),
    (lambda d: d.update(theme={"font": "comic"}), "$.theme.font: expected one of"),
])
def test_contract_errors_name_the_path(mutate, expected):
    d = deck(dict(TITLE))
    mutate(d)
    with pytest.raises(ContractError) as e:
        parse(d)
    assert any(m.startswith(expected) for m in e.value.errors), e.value.errors


def test_chart_series_must_match_categories_and_be_numbers():
    chart = {"type": "chart", "chart": "bar", "categories": ["a", "b"], "x": 0, "y": 0, "w": 400, "h": 300,
             "series": [{"name": "s", "values": [1, "2", 3]}]}
    errs = validate(deck(chart))
    assert "$.slides[0].elements[0].series[0].values[1]: expected a number, got string '2'" in errs
    assert "$.slides[0].elements[0].series[0].values: 3 values for 2 categories" in errs
    scatter = {"type": "chart", "chart": "scatter", "x": 0, "y": 0, "w": 400, "h": 300, "series": [{"points": [[1, 2], [3]]}]}
    assert validate(deck(scatter)) == ["$.slides[0].elements[0].series[0].points[1]: expected [x, y], got a list"]
    pie = {"type": "chart", "chart": "pie", "categories": ["a"], "x": 0, "y": 0, "w": 300, "h": 300, "series": [{"values": [-1]}]}
    assert validate(deck(pie)) == ["$.slides[0].elements[0].series[0].values[0]: must be >= 0, got -1"]


def test_table_rows_must_match_the_header():
    table = {"type": "table", "header": ["a", "b"], "rows": [["1", 2], ["x"]], "x": 0, "y": 0, "w": 400, "h": 200}
    assert validate(deck(table)) == ["$.slides[0].elements[0].rows[1]: 1 cells for 2 columns"]


@pytest.mark.parametrize("text, reason", [
    ("", "empty output"),
    ("I cannot make slides.", "no JSON object found"),
    ('{"version": "cogevol-slides/1", "slides": [', "invalid JSON"),
])
def test_non_json_output_is_a_contract_error_not_a_crash(text, reason):
    with pytest.raises(ContractError) as e:
        extract_json(text)
    assert reason in str(e.value)


def test_non_finite_numbers_and_non_objects_are_rejected():
    assert validate([1, 2]) == ["$: expected a JSON object, got a list"]
    bad = dict(TITLE, x=float("nan"))
    assert validate(deck(bad)) == ["$.slides[0].elements[0].x: expected a number, got number nan"]
