import json

from cogevol.cli import main


def test_classify_prints_one_object_per_line_in_order_and_reports_bad_lines(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_text(
        "\n".join([
            json.dumps({"id": "a", "q": "做一个番茄钟"}),
            "not json",
            json.dumps({"id": "c", "other": "x"}),
            json.dumps({"id": 4, "q": "Une calculatrice d'IMC"}),
        ]) + "\n",
        encoding="utf-8",
    )
    code = main(["classify", "--input", str(inp), "--field", "q", "--source", "rules"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 2  # some lines could not be used; each is reported in its place
    assert [o["id"] for o in out] == ["a", None, "c", 4]
    assert out[0]["l3"] == "Task & Efficiency Tool" and out[0]["lang"] == "zh"
    assert out[1] == {"id": None, "line": 2, "error": "not JSON (Expecting value)"}
    assert out[2]["error"] == "no text in field 'q'"
    assert out[3]["l3"] == "Formula Calculator" and out[3]["source"] == "rules"


def test_classify_exits_2_on_unusable_input(tmp_path, capsys):
    assert main(["classify", "--input", str(tmp_path / "nope.jsonl"), "--field", "q"]) == 2
    assert "no such file" in capsys.readouterr().err
    empty = tmp_path / "e.jsonl"
    empty.write_text(json.dumps({"id": 1, "x": "y"}) + "\n", encoding="utf-8")
    assert main(["classify", "--input", str(empty), "--field", "q"]) == 2
    assert "no record has text in field 'q'" in capsys.readouterr().err


def test_classify_clean_input_exits_0(tmp_path, capsys):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "x", "request": "a snake game"}) + "\n", encoding="utf-8")
    assert main(["classify", "--input", str(inp), "--field", "request"]) == 0
    assert json.loads(capsys.readouterr().out)["l2"] == "Browser Games"
