import pytest
import yaml

from cogevol.taxonomy.tree import LEAVES_FILE, TaxonomyError, load


def test_the_shipped_taxonomy_is_seed_004s_tree():
    tax = load()
    assert len(tax.leaves) == 54 and len(tax.domains) == 11
    assert sum(leaf.l1 == "Static" for leaf in tax.leaves) == 20
    assert tax.leaf("Access & Account Mgmt").l2 == "Management Systems"
    assert tax.leaf("unit converter").l2 == "Tools & Productivity (Static)"
    assert tax.leaf("Physics Simulation").l1 == "Dynamic"
    for leaf in tax.leaves:  # a definition and an example request in every traffic language
        assert leaf.description and leaf.example
        assert set(leaf.examples) == {"en", "zh", "es", "fr", "de", "ja", "ko", "pt"}
    # A.7.4's sharpened definitions for the confused pairs
    assert all(tax.leaf(n).revised for n in ("Static Report Page", "Static Comparison Page",
                                            "Data-driven Simulation", "Numerical Simulation"))
    with pytest.raises(KeyError):
        tax.leaf("Mini Game")


def _write(tmp_path, mutate):
    raw = yaml.safe_load(LEAVES_FILE.read_text(encoding="utf-8"))
    mutate(raw)
    p = tmp_path / "leaves.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return p


def test_a_broken_taxonomy_file_is_refused_with_what_is_wrong(tmp_path):
    with pytest.raises(TaxonomyError, match="54 task types"):
        load(_write(tmp_path, lambda r: r["domains"][0]["leaves"].pop()))
    with pytest.raises(TaxonomyError, match="default_leaf"):
        load(_write(tmp_path, lambda r: r.update(default_leaf="Mini Game")))
    bad = tmp_path / "bad.yaml"
    bad.write_text("domains: [", encoding="utf-8")
    with pytest.raises(TaxonomyError, match="not a taxonomy file"):
        load(bad)
