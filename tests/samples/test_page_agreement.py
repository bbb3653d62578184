"""Which real-page requests the reward's rules were written against (probe_real's in-sample
split): a request whose words the rules quote."""

from cogevol_samples.page_agreement import developed_on, rules_quotes


def test_a_request_the_rules_quote_is_in_sample(tmp_path):
    (tmp_path / "lexicon.yaml").write_text('# "i can create new notes" asks for adding\nwords: [a]\n')
    (tmp_path / "rules.py").write_text('"""A short "two words" quote and "比如红点、波形" count."""\n')
    quotes = rules_quotes(tmp_path)
    assert quotes == {"i can create new notes", "比如红点、波形"}  # two words are too common to tell
    rows = [
        {"request_id": "notes", "request": "A notes app. I can  create new notes and delete them."},
        {"request_id": "recorder", "request": "做一个录音机，比如红点、波形、进度"},
        {"request_id": "clock", "request": "An analog clock with two words on it"},
    ]
    assert developed_on(rows, quotes) == {"notes", "recorder"}
