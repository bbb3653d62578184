import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cogevol.rewards import confidence as conf
from cogevol.rewards.expects import expects_for

ROOT = Path(__file__).resolve().parents[2]


def test_a_term_earns_its_own_weight_and_an_unknown_one_gets_its_class_prior():
    table = conf.Calibration({"control word": (0.95, 0.84)}, {"control word": {"button": (0.97, 0.95)}}, default=0.5)
    assert table.of("control word", "Button ") == (0.97, 0.95)
    assert table.of("control word", "knob") == (0.95, 0.84)  # no record of its own: the class's prior
    assert table.of("described motion", "bouncing") == (0.5, 0.5)  # a class never calibrated


def test_independent_classes_combine_and_terms_of_one_class_do_not_add_up():
    table = conf.Calibration({"control word": (0.9, 0.8), "page type": (0.9, 0.8)}, {}, default=0.5)
    assert conf.combine([("control word", "a"), ("control word", "b")], table) == (0.9, 0.8)
    assert conf.combine([("control word", "a"), ("page type", "game")], table) == (0.99, 0.96)
    assert conf.combine([], table) == (0.0, 0.0)


def test_the_committed_table_is_what_the_calibration_writes(tmp_path):
    """reading_confidence.yaml is data made by scripts/calibrate_reading.py from the tune half,
    never edited by hand: running the script again changes nothing."""
    before = conf.CALIBRATION_PATH.read_text(encoding="utf-8")
    try:
        subprocess.run([sys.executable, str(ROOT / "scripts" / "calibrate_reading.py")], check=True,
                       capture_output=True, cwd=ROOT)
        after = conf.CALIBRATION_PATH.read_text(encoding="utf-8")
    finally:
        conf.CALIBRATION_PATH.write_text(before, encoding="utf-8")
    assert after == before, "run scripts/calibrate_reading.py and commit its table"
    assert set(yaml.safe_load(before)["classes"]) <= set(conf.CLASSES)


def test_calibration_never_reads_the_held_half():
    labels = [json.loads(x) for x in (ROOT / "data" / "reading" / "labels.jsonl").read_text().splitlines()]
    held = {x["request"] for x in labels if x["half"] == "held"}
    tune = {x["request"] for x in labels if x["half"] == "tune"}
    assert held and tune and not held & tune
    sources = {h: {s for x in labels if x["half"] == h for s in x["sources"]} for h in ("tune", "held")}
    assert not sources["tune"] & sources["held"]  # split by source, so by request


@pytest.mark.parametrize(
    "request_, kind, sure",
    [
        ("Build a snake game: arrow keys steer, a restart button", "interactive", True),
        ("a rocket launch animation", "animation", True),
        # one described-motion word a labelled request never backed from two sources
        ("a page where a lonely jellyfish is drifting", "animation", False),
    ],
)
def test_readings_carry_their_confidence(request_, kind, sure):
    e = expects_for(request_)
    assert kind in e.kinds
    assert (e.confidence(kind) >= 0.9) is sure
    assert e.as_dict()["confidence"][kind] == e.confidence(kind)


def test_no_request_is_the_contract_not_a_reading():
    e = expects_for(None)
    assert e.confidence("interactive") == 1.0 and e.confidence("animation") == 0.0
